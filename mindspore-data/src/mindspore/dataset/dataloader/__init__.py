"""``mindspore.dataset.dataloader``: MindSpore 2.10's PyTorch-style data loading.

A :class:`DataLoader` iterates over batches of a map-style :class:`Dataset` (keys chosen by a :class:`Sampler`:
:class:`SequentialSampler`, :class:`RandomSampler`, :class:`DistributedSampler`, grouped by a
:class:`BatchSampler`) or of an :class:`IterableDataset`, in this process or in worker processes
(:func:`get_worker_info` inside them). :func:`default_collate` and :func:`default_convert` turn samples into
:class:`mindspore.Tensor` batches.

Examples:
    >>> from mindspore.dataset.dataloader import DataLoader, TensorDataset
    >>> from mindspore import Tensor
    >>> loader = DataLoader(TensorDataset(Tensor([[0.0], [1.0], [2.0]]), Tensor([0, 1, 0])), batch_size=2)
    >>> [tuple(x.shape for x in batch) for batch in loader]
    [((2, 1), (2,)), ((1, 1), (1,))]
"""
from .dataloader import DataLoader
from .dataset import Dataset, IterableDataset, TensorDataset
from .distributed import DistributedSampler
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler
from ._utils.collate import default_collate, default_convert
from ._utils.worker import get_worker_info

__all__ = [
    "BatchSampler",
    "DataLoader",
    "Dataset",
    "DistributedSampler",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "TensorDataset",
    "default_collate",
    "default_convert",
    "get_worker_info",
]
