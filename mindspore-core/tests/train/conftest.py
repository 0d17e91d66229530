"""Shared pieces of the training tests: a stand-in dataset and small networks.

``ArrayDataset`` has the methods ``Model`` uses of a ``mindspore.dataset`` dataset
(``create_tuple_iterator(num_epochs, do_copy)``, ``get_dataset_size``, ``get_batch_size``,
``get_col_names``), with MindSpore's multi-epoch iterator behaviour: StopIteration ends an epoch and
the next ``next()`` starts the following one, until ``num_epochs`` epochs are used up. It also
counts iterators and epochs so tests can check how ``Model`` consumes data.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


class _Iterator:
    def __init__(self, dataset, num_epochs, output_numpy=False):
        self._ds = dataset
        self._epochs_left = num_epochs
        self._row = 0
        self._numpy = output_numpy

    def __iter__(self):
        return self

    def __next__(self):
        if self._epochs_left == 0:
            raise StopIteration
        if self._row >= self._ds.get_dataset_size():
            self._row = 0
            self._epochs_left -= 1
            self._ds.epochs_finished += 1
            raise StopIteration
        bs = self._ds.batch_size
        rows = slice(self._row * bs, (self._row + 1) * bs)
        self._row += 1
        self._ds.batches_served += 1
        return [col[rows].copy() if self._numpy else ms.Tensor(col[rows]) for col in self._ds.columns]


class ArrayDataset:
    """Batches of NumPy columns, in order (no shuffling), the last partial batch dropped."""

    def __init__(self, *columns, batch_size=4):
        self.columns = columns
        self.batch_size = batch_size
        self.iterators = []
        self.batches_served = 0
        self.epochs_finished = 0

    def get_dataset_size(self):
        return len(self.columns[0]) // self.batch_size

    def get_batch_size(self):
        return self.batch_size

    def get_col_names(self):
        return [f"col{i}" for i in range(len(self.columns))]

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        it = _Iterator(self, num_epochs, output_numpy)
        self.iterators.append(num_epochs)
        return it


def make_classification(n=64, features=4, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, features)).astype(np.float32)
    y = (x.sum(axis=1) > 0).astype(np.int32)
    return x, y


class MLP(nn.Cell):
    def __init__(self, features=4, hidden=16, classes=2):
        super().__init__()
        self.fc1 = nn.Dense(features, hidden)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(hidden, classes)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


@pytest.fixture
def dataset_factory():
    return ArrayDataset


@pytest.fixture
def classification_data():
    return make_classification()


@pytest.fixture
def mlp_factory():
    def make(seed=1, **kwargs):
        ms.set_seed(seed)
        return MLP(**kwargs)
    return make


@pytest.fixture
def graph_mode():
    """Run a test under GRAPH_MODE accounting, restoring the previous mode afterwards."""
    previous = ms.get_context("mode")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ms.set_context(mode=ms.GRAPH_MODE)
    try:
        yield
    finally:
        ms.set_context(mode=previous)
