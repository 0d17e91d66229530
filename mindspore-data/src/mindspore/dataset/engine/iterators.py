"""Iterators over a pipeline, and the per-iterator runtime.

``create_tuple_iterator``/``create_dict_iterator`` build an :class:`Iterator`: it creates a :class:`_Runtime`
(the pipeline seed, one key per node, pass counters, and the executors of every node, with worker processes
forked right there in the calling thread), then starts a *producer* thread that runs the pipeline epoch after
epoch and puts rows into a bounded queue (``config.get_prefetch_size()`` rows), so data preparation overlaps
the training step. The consumer side converts rows to ``mindspore.Tensor`` (sharing memory unless
``do_copy``) and turns the epoch markers into ``StopIteration``: each ``for`` loop over an iterator is one
epoch, ``num_epochs`` of them (-1: no limit).

An error in the pipeline is re-raised by ``__next__``. The producer, the executors and their worker processes
stop when the last epoch ends, when an error occurs, on ``stop()``/``release()``, and when the iterator is
garbage collected (``weakref.finalize``, which also runs at interpreter exit). The producer holds no reference
to the iterator, so an abandoned iterator is collected.
"""
import os
import queue
import threading
import weakref

import numpy as np

from mindspore.dataset import config
from mindspore.dataset.engine.workers import InlineExecutor, ProcessExecutor, ThreadExecutor, fork_available

__all__ = ["Iterator", "TupleIterator", "DictIterator"]

_EPOCH_END = object()
_END = object()


class _Error:
    def __init__(self, exc):
        self.exc = exc


class _Runtime:
    """Per-iterator state of a pipeline; see the module docstring."""

    def __init__(self, root, inline=False):
        self.seed = config._pipeline_seed()
        self.inline = inline or config.get_debug_mode()
        self.stop = threading.Event()
        self._nodes, self._keys = [], {}
        self._passes, self._executors = {}, {}
        self._states = {}
        self._lock = threading.Lock()
        self._closed = False
        self._collect(root, is_root=True)
        from mindspore.dataset.engine.offload import plan
        self.offload = plan(root)         # the map operations that leave the pipeline (see offload.py)
        from mindspore.dataset.engine.cache_client import DatasetCache
        for node in self._nodes:
            if isinstance(getattr(node, "cache", None), DatasetCache):
                node.cache.connect()      # raises: no cache server protocol (see cache_client.py)
        try:
            root.get_col_names()          # validates every column reference of the tree
            for node in self._nodes:
                node._prepare(self)
        except BaseException:
            self.close()
            raise

    def _collect(self, node, is_root):
        if id(node) in self._keys or (not is_root and node._live_parents() > 1):
            raise ValueError("The data pipeline is not a tree (i.e., one node has 2 consumers)")
        self._keys[id(node)] = len(self._nodes)
        self._nodes.append(node)
        for child in node.children:
            self._collect(child, is_root=False)

    def key(self, node):
        """A stable number for ``node`` (its place in the tree), used to seed its random draws."""
        return self._keys[id(node)]

    def next_pass(self, node):
        """Number the passes over ``node`` (0, 1, ...): epochs, or repetitions under ``repeat``."""
        with self._lock:
            count = self._passes.get(id(node), 0)
            self._passes[id(node)] = count + 1
        return count

    def node_state(self, node):
        """A dict private to ``node`` for the life of this iterator (state that runs on from pass to pass)."""
        with self._lock:
            return self._states.setdefault(id(node), {})

    def add_executor(self, node, fn, num_workers, multiprocessing, name, max_rowsize=None):
        """Create the executor running ``fn(index, args)`` for ``node``: processes, threads or inline."""
        num_workers = num_workers or config.get_num_parallel_workers()
        if self.inline or node._sync_conditions():
            # above a sync_wait, rows go one by one as in MindSpore: a pool reading ahead to fill its window would
            # wait at the gate for the very sync_update that the row it holds back is needed for
            executor = InlineExecutor(fn)
        elif multiprocessing and fork_available():
            executor = ProcessExecutor(fn, num_workers, name, max_rowsize, config.get_enable_shared_mem())
        elif num_workers > 1:
            executor = ThreadExecutor(fn, num_workers, name)
        else:
            executor = InlineExecutor(fn)
        self._executors[id(node)] = executor
        return executor

    def executor(self, node):
        return self._executors[id(node)]

    def worker_pids(self):
        """Pids of the worker processes of this pipeline (for monitoring and tests)."""
        return [pid for ex in self._executors.values() for pid in getattr(ex, "pids", [])]

    def close(self):
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self.stop.set()
        for executor in self._executors.values():
            executor.close()


def _produce(root, rt, out, num_epochs):
    """Producer thread: run the pipeline epoch after epoch into ``out``."""
    def put(item):
        while not rt.stop.is_set():
            try:
                out.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    rows = None
    try:
        epoch = 0
        while num_epochs == -1 or epoch < num_epochs:
            rows = root._rows(rt)
            for row in rows:
                if not put(row):
                    return
            rows = None
            if not put(_EPOCH_END):
                return
            epoch += 1
        put(_END)
    except BaseException as exc:  # pylint: disable=broad-except
        put(_Error(exc))
    finally:
        if rows is not None:
            try:
                rows.close()
            except Exception:  # pylint: disable=broad-except
                pass
        rt.close()


def _shutdown(rt, out, thread):
    rt.stop.set()
    while True:
        try:
            out.get_nowait()
        except queue.Empty:
            break
    if thread is not threading.current_thread() and thread.is_alive():
        thread.join(timeout=5)
    rt.close()


def _init_skip(dataset, num_epochs):
    """``(epochs, rows)`` an iterator skips for the dataset's init step, or None (MindSpore 2.10's reset check)."""
    step = dataset.get_init_step()
    if not step:
        return None
    size = dataset.get_dataset_size()
    if num_epochs == -1 or step >= size * num_epochs:
        raise RuntimeError(f"Cannot reset the pipeline, reset step must be less than dataset_size * num_epochs. "
                           f"step: {step}, dataset_size: {size}, num_epochs: {num_epochs}")
    return divmod(step, size)


class Iterator:
    """Base of the dataset iterators (see the module docstring)."""

    def __init__(self, dataset, num_epochs=-1, output_numpy=False, do_copy=False, columns=None):
        if not isinstance(num_epochs, int) or isinstance(num_epochs, bool):
            raise TypeError(f"num_epochs must be int, but got {type(num_epochs).__name__}.")
        if num_epochs != -1 and num_epochs <= 0:
            raise ValueError(f"num_epochs should be either -1 or positive integer, but got {num_epochs}.")
        if output_numpy is None:
            output_numpy = False
        self._dataset = dataset
        self._output_numpy = bool(output_numpy)
        self._do_copy = bool(do_copy)
        names = dataset.get_col_names()
        self._select = None
        if columns is not None:
            columns = columns if isinstance(columns, list) else [columns]
            for col in columns:
                if col not in names:
                    raise RuntimeError(f"Invalid parameter, column name to project: {col} does not exist in the "
                                       f"dataset columns {names}.")
            self._select = [names.index(c) for c in columns]
            names = list(columns)
        self._col_names = names
        self._skip = _init_skip(dataset, num_epochs)
        self._runtime = _Runtime(dataset)
        try:
            self._offload = self._runtime.offload.model(dataset.get_col_names())
        except BaseException:
            self._runtime.close()
            raise
        self._queue = queue.Queue(maxsize=max(1, config.get_prefetch_size()))
        self._thread = threading.Thread(target=_produce, args=(dataset, self._runtime, self._queue, num_epochs),
                                        name="ms-dataset-producer", daemon=True)
        self._finalizer = weakref.finalize(self, _shutdown, self._runtime, self._queue, self._thread)
        self._done = False
        self._stopped = False
        self._index = 0
        # Dataset AutoTune with a file prefix: the pipeline's configuration is saved when its first epoch ends
        autotune = config.get_enable_autotune() and config._config.get("autotune_filepath")
        self._autotune_prefix = autotune or None
        self._thread.start()

    def __iter__(self):
        return self

    def __next__(self):
        if self._skip is not None:
            self._skip_to_init_step()
        if self._done:
            raise StopIteration
        if self._stopped:
            raise RuntimeError("The iterator was stopped: its pipeline is no longer running.")
        item = self._get()
        if item is _EPOCH_END:
            if self._dataset.dataset_size is None:
                self._dataset.dataset_size = self._index
            self._index = 0
            self._save_autotune()
            raise StopIteration
        if item is _END:
            self._save_autotune()
        if item is _END or isinstance(item, _Error):
            self._done = True
            self._finalizer()
            if isinstance(item, _Error):
                raise item.exc
            raise StopIteration
        self._index += 1
        if self._offload is not None:
            item = self._offload(item, self._output_numpy)
        if self._select is not None:
            item = tuple(item[i] for i in self._select)
        return self._output(item)

    def _skip_to_init_step(self):
        """Drop the epochs and rows before the dataset's init step (``Dataset.set_init_step``)."""
        epochs, rows = self._skip
        self._skip = None
        while epochs or rows:
            item = self._get()
            if item is _EPOCH_END:
                epochs -= 1
                continue
            if item is _END or isinstance(item, _Error):
                self._done = True
                self._finalizer()
                if isinstance(item, _Error):
                    raise item.exc
                return
            if not epochs:
                rows -= 1

    @staticmethod
    def terminate(ref):
        """Stop the iterator ``ref()`` (a weak reference; nothing when it is gone) and its pipeline."""
        self = ref()
        if self is not None:
            self.stop()

    def _save_autotune(self):
        if self._autotune_prefix is None:
            return
        prefix, self._autotune_prefix = self._autotune_prefix, None
        from mindspore.dataset.engine.serializer import save_autotune_config
        save_autotune_config(self._dataset, prefix, int(os.environ.get("RANK_ID", "0") or 0))

    def _get(self):
        while True:
            try:
                return self._queue.get(timeout=0.5)
            except queue.Empty:
                if not self._thread.is_alive():
                    try:
                        return self._queue.get_nowait()
                    except queue.Empty:
                        return _Error(RuntimeError("The dataset pipeline stopped without reporting why."))

    def _to_output(self, value):
        if self._output_numpy:
            return value
        if isinstance(value, dict):
            return {k: self._to_output(v) for k, v in value.items()}
        if isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
            from mindspore.common.tensor import Tensor
            return Tensor(value) if self._do_copy else Tensor.from_numpy(value)   # (from_numpy keeps 0-d as 0-d)
        return value

    def _output(self, row):
        raise NotImplementedError

    def stop(self):
        """Stop the pipeline now: its thread, worker threads and processes end, shared memory is freed."""
        self._stopped = True
        self._finalizer()

    def release(self):
        """Same as :meth:`stop`."""
        self.stop()

    def get_col_names(self):
        """The names of the columns this iterator yields."""
        return list(self._col_names)

    def _worker_pids(self):
        return self._runtime.worker_pids()

    def __deepcopy__(self, memo):
        return self


class TupleIterator(Iterator):
    """Yields each row as a list of columns."""

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        super().__init__(dataset, num_epochs, output_numpy, do_copy, columns)

    def _output(self, row):
        return [self._to_output(v) for v in row]


class DictIterator(Iterator):
    """Yields each row as a dict ``{column name: value}``."""

    def _output(self, row):
        return {name: self._to_output(v) for name, v in zip(self._col_names, row)}
