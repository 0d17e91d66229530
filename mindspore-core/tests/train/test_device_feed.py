"""``Model.train``'s device feed (mindspore.train._device_feed): dataset batches uploaded ahead of use by the
runtime's host uploader, on a background thread, with the dataset's epochs and errors kept.

The uploader here is a recording stand-in installed on whatever runtime the session runs on (the CPU, or
STRICT, whose own uploader CI's STRICT pass uses for every Model test); the GPU's is tested on the CuPy
stand-in in mindspore-gpu/tests/test_gpu_upload_sim.py.
"""
import gc
import importlib.util
import pathlib
import threading
import time

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore._runtime import backend
from mindspore.train import _device_feed
from mindspore.train.dataset_helper import DatasetHelper

_spec = importlib.util.spec_from_file_location("_train_conftest", pathlib.Path(__file__).with_name("conftest.py"))
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)
MLP, ArrayDataset, make_classification = _shared.MLP, _shared.ArrayDataset, _shared.make_classification


class RecordingUploader:
    """Uploads with the runtime's ``from_host`` on the feed's thread; records threads, batches and closing."""

    def __init__(self, depth, fail_at=None):
        self.depth, self.fail_at = depth, fail_at
        self.runtime = backend.data_runtime()
        self.put_threads, self.take_threads = set(), set()
        self.puts = self.takes = 0
        self.closed = False
        self.max_ahead = 0

    def put(self, arrays):
        self.put_threads.add(threading.get_ident())
        if self.fail_at is not None and self.puts == self.fail_at:
            raise MemoryError("copy failed")
        self.puts += 1
        self.max_ahead = max(self.max_ahead, self.puts - self.takes)
        return [self.runtime.from_host(np.ascontiguousarray(a)) for a in arrays]

    def take(self, token):
        self.take_threads.add(threading.get_ident())
        self.takes += 1
        return token

    def close(self):
        self.closed = True


@pytest.fixture
def uploaders(monkeypatch):
    """Every host uploader asked for during the test (installed on the current runtime's class)."""
    made = []

    def host_uploader(self, depth):
        made.append(RecordingUploader(depth))
        return made[-1]
    monkeypatch.setattr(type(backend.data_runtime()), "host_uploader", host_uploader)
    return made


def _train(mode, sink, epochs=2):
    ms.set_context(mode=mode)
    ms.set_seed(1)
    x, y = make_classification(64)
    net = MLP()
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     nn.Momentum(net.trainable_params(), 0.1, 0.9))
    losses = []

    class Record(ms.train.Callback):
        def on_train_step_end(self, run_context):
            losses.append(float(run_context.original_args().net_outputs.asnumpy()))

    model.train(epochs, ArrayDataset(x, y, batch_size=8), callbacks=[Record()], dataset_sink_mode=sink,
                sink_size=4 if sink else -1)
    weights = [p.asnumpy() for p in net.trainable_params()]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return losses, weights


@pytest.mark.parametrize("sink", [False, True])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_model_train_takes_every_batch_through_the_uploader(monkeypatch, mode, sink):
    import mindspore.train.model as model_module
    monkeypatch.setattr(model_module, "_sinks_to_device", lambda: True)  # sink as a device target does (CPU doesn't)
    monkeypatch.setattr(type(backend.data_runtime()), "host_uploader", lambda self, depth: None)
    plain_losses, plain_weights = _train(mode, sink)
    made = []
    monkeypatch.setattr(type(backend.data_runtime()), "host_uploader",
                        lambda self, depth: made.append(RecordingUploader(depth)) or made[-1])
    losses, weights = _train(mode, sink)
    assert len(made) == 1, "one uploader per run"
    up = made[0]
    assert len(losses) == len(plain_losses)
    assert up.takes == (2 * 4 if sink else 2 * 8) and up.puts >= up.takes    # 2 epochs of 8 batches or 2 x sink_size 4
    assert threading.get_ident() not in up.put_threads, "uploads start on the feed's thread"
    assert up.take_threads == {threading.get_ident()}
    assert up.max_ahead <= _device_feed.DEPTH + 2
    np.testing.assert_array_equal(losses, plain_losses)
    for w, p in zip(weights, plain_weights):
        np.testing.assert_array_equal(w, p)


def test_the_feed_reads_no_row_of_the_next_epoch_before_it_is_asked_for(uploaders):
    x, y = make_classification(32)
    ds = ArrayDataset(x, y, batch_size=8)
    feed = _device_feed.feed(ds, 3)
    assert isinstance(feed, _device_feed.DeviceFeed)
    first = [row for row in feed]
    assert len(first) == 4
    time.sleep(0.2)
    assert ds.batches_served == 4 and ds.epochs_finished == 1, "the thread stopped at the end of the epoch"
    second = list(feed)
    assert len(second) == 4 and ds.batches_served == 8
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a[0].asnumpy(), b[0].asnumpy())
        assert a[0].dtype == ms.float32 and a[1].dtype == ms.int32
    np.testing.assert_array_equal(first[1][0].asnumpy(), x[8:16])
    assert len(list(feed)) == 4 and list(feed) == [], "num_epochs=3: then the iterator is used up"


class _FailingIterator:
    def __init__(self, at, exc):
        self.n, self.at, self.exc = 0, at, exc

    def __iter__(self):
        return self

    def __next__(self):
        self.n += 1
        if self.n == self.at:
            raise self.exc
        return [np.full((2, 3), self.n, np.float32), "label"]


def test_a_pipeline_error_reaches_the_training_loop():
    exc = ValueError("bad row 3")
    feed = _device_feed.DeviceFeed(_FailingIterator(3, exc), RecordingUploader(2))
    a, b = next(feed), next(feed)
    assert a[1] == "label" and a[0].shape == (2, 3) and float(b[0].asnumpy()[0, 0]) == 2.0
    with pytest.raises(ValueError, match="bad row 3") as info:
        next(feed)
    assert info.value is exc


def test_an_upload_error_reaches_the_training_loop():
    up = RecordingUploader(2, fail_at=1)
    feed = _device_feed.DeviceFeed(_FailingIterator(100, None), up)
    next(feed)
    with pytest.raises(MemoryError, match="copy failed"):
        next(feed)


def _feed_threads():
    return [t for t in threading.enumerate() if t.name == "ms-device-feed"]


def test_closing_or_dropping_a_feed_stops_its_thread_and_closes_the_uploader():
    before = len(_feed_threads())
    up = RecordingUploader(2)
    feed = _device_feed.DeviceFeed(_FailingIterator(10 ** 9, None), up)
    next(feed)
    assert len(_feed_threads()) == before + 1
    feed.close()
    assert up.closed and len(_feed_threads()) == before
    with pytest.raises(RuntimeError, match="closed"):
        next(feed)
    up2 = RecordingUploader(2)
    feed = _device_feed.DeviceFeed(_FailingIterator(10 ** 9, None), up2)
    next(feed)
    del feed
    gc.collect()
    deadline = time.time() + 5
    while len(_feed_threads()) > before and time.time() < deadline:
        time.sleep(0.05)
    assert up2.closed and len(_feed_threads()) == before


class _TensorsOnly:
    """A user dataset whose iterator takes no ``output_numpy``: its own Tensors are used as they come."""

    def __init__(self, ds):
        self.ds = ds

    def get_dataset_size(self):
        return self.ds.get_dataset_size()

    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return self.ds.create_tuple_iterator(num_epochs=num_epochs, do_copy=do_copy)


def test_a_dataset_without_numpy_rows_is_iterated_as_it_is(uploaders):
    x, y = make_classification(16)
    helper = DatasetHelper(_TensorsOnly(ArrayDataset(x, y, batch_size=8)), dataset_sink_mode=False)
    rows = list(helper)
    assert len(rows) == 2 and isinstance(rows[0][0], ms.Tensor)
    assert uploaders == [], "no uploader is asked for"
