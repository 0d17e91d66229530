"""Dataset batches copied to the device ahead of use: the feed of ``Model.train`` (sink and non-sink) and
``data_sink``.

When the current runtime has a host uploader (:meth:`mindspore.plugin.DeviceRuntime.host_uploader`: the GPU's
copies from pinned host memory on a copy stream), a background thread reads the dataset's NumPy rows, starts
each batch's copies (``put``) and queues it, ``depth`` batches ahead, while the network runs on the batch
before; ``next`` in the training loop takes the next batch (``take`` makes the loop's stream wait for its
copies) as Tensors. A runtime without one (the CPU's, whose tensors share the rows' memory), or a dataset
whose ``create_tuple_iterator`` takes no ``output_numpy``, gets the dataset iterator's own Tensors.

Epochs are the dataset iterator's: a pass over the feed ends where an epoch of the iterator ends
(StopIteration), and the thread does not read the next epoch before the loop asks for it, so what runs at
the end of an epoch (callbacks) runs before the next epoch's first row is read. An error of the pipeline or
of an upload is raised by ``next`` in the training loop. The thread stops at the end of each pass, when the
feed is closed, and when it is collected.
"""
from __future__ import annotations

import queue
import threading
import weakref

import numpy as np

from mindspore.common import dtype as mstype

__all__ = ["DeviceFeed", "feed"]

#: Batches uploaded ahead of the one the training loop is on.
DEPTH = 2
_EPOCH_END = object()


class _Failure:
    def __init__(self, exc):
        self.exc = exc


def _numeric(value):
    return isinstance(value, np.ndarray) and value.dtype.kind in "biufc"


def _put(out, item, stop):
    """Queue ``item`` unless the feed stops first (False then)."""
    while not stop.is_set():
        try:
            out.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False


def _pump(rows, uploader, out, stop):
    """One epoch of ``rows``: each row's numeric arrays uploaded and queued, then the end of the epoch."""
    try:
        for row in rows:
            if stop.is_set():
                return
            row = list(row)
            where = [i for i, v in enumerate(row) if _numeric(v)]
            dtypes = [mstype.to_ms_dtype(row[i].dtype) for i in where]
            arrays = [row[i].astype(d.to_numpy(), copy=False) for i, d in zip(where, dtypes)]
            token = uploader.put(arrays) if arrays else None
            if not _put(out, (row, where, dtypes, token), stop):
                return
        item = _EPOCH_END
    except BaseException as exc:  # noqa: BLE001 - re-raised by the training loop's next()
        item = _Failure(exc)
    _put(out, item, stop)


def _close(stop, thread_box, uploader):
    stop.set()
    thread = thread_box[0]
    if thread is not None and thread is not threading.current_thread():
        thread.join(timeout=5)
    uploader.close()


class DeviceFeed:
    """Iterate ``rows`` (an iterator of rows, lists of NumPy arrays and other values, raising StopIteration at
    the end of each epoch) as rows of device Tensors uploaded by ``uploader`` ``depth`` batches ahead (see the
    module docstring)."""

    def __init__(self, rows, uploader, depth=DEPTH):
        self._rows = rows
        self._uploader = uploader
        self._depth = max(1, int(depth))
        self._stop = threading.Event()
        self._thread = [None]
        self._queue = None
        self._finalizer = weakref.finalize(self, _close, self._stop, self._thread, uploader)

    def __iter__(self):
        return self

    def __next__(self):
        if self._stop.is_set():
            raise RuntimeError("The dataset feed was closed: it no longer reads the dataset.")
        if self._thread[0] is None:
            self._queue = queue.Queue(maxsize=self._depth)
            thread = threading.Thread(target=_pump, args=(self._rows, self._uploader, self._queue, self._stop),
                                      name="ms-device-feed", daemon=True)
            self._thread[0] = thread
            thread.start()
        item = self._get()
        if item is _EPOCH_END or isinstance(item, _Failure):
            self._thread[0].join()
            self._thread[0] = None
            if item is _EPOCH_END:
                raise StopIteration
            raise item.exc
        row, where, dtypes, token = item
        from mindspore.common.tensor import Tensor
        if token is not None:
            for i, buffer, dtype in zip(where, self._uploader.take(token), dtypes):
                row[i] = Tensor._make(buffer, dtype)
        for i, value in enumerate(row):
            if isinstance(value, dict):   # a column of dicts: its arrays become Tensors as the iterator makes them
                row[i] = {k: Tensor(v) if _numeric(v) else v for k, v in value.items()}
        return row

    def _get(self):
        while True:
            try:
                return self._queue.get(timeout=0.5)
            except queue.Empty:
                if not self._thread[0].is_alive():
                    try:
                        return self._queue.get_nowait()
                    except queue.Empty:
                        return _Failure(RuntimeError("The dataset feed stopped without reporting why."))

    def close(self):
        """Stop the thread and release the uploader (also done when the feed is collected)."""
        self._finalizer()


def feed(dataset, num_epochs):
    """The rows of ``dataset`` (a ``mindspore.dataset`` Dataset, or an object with its
    ``create_tuple_iterator``) for ``num_epochs`` epochs as lists of Tensors, uploaded ahead by the current
    runtime's host uploader when it has one (see the module docstring)."""
    import inspect

    from mindspore._runtime import backend

    create = dataset.create_tuple_iterator
    try:
        numpy_rows = "output_numpy" in inspect.signature(create).parameters
    except (TypeError, ValueError):
        numpy_rows = False
    uploader = backend.data_runtime().host_uploader(DEPTH) if numpy_rows else None
    if uploader is None:   # the dataset's own Tensors (a user object's iterator gives whatever it makes)
        return create(num_epochs=num_epochs, do_copy=True)
    return DeviceFeed(create(num_epochs=num_epochs, do_copy=True, output_numpy=True), uploader)
