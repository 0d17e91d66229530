"""The operation nodes of a pipeline: map, batch, padded_batch, shuffle, filter, repeat, skip, take, sync_wait,
zip, concat, rename, project (see ``datasets.py`` for the execution model and the column layout rules).

Row-level functions (``_map_row``, ``_batch_rows``, ``_filter_row``) are module-level so that worker processes,
forked with the pipeline, run them without pickling; they set the row context of ``config._transform_rng`` so
random transforms draw the same numbers for a row whichever worker runs it.
"""
import copy
import functools
import inspect
import logging
import math
import os
import threading

import numpy as np

from mindspore.dataset import config
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.engine.datasets import (INT32_MAX, Dataset, _assemble, _builtin_zip, _check_columns_arg,
                                               _check_int, _layout, _op_name, _to_array, to_list)
from mindspore.dataset.engine.workers import annotate_error, fork_available
from mindspore.dataset.transforms._base import TensorOperation

logger = logging.getLogger("mindspore")

__all__ = ["MapDataset", "BatchDataset", "PaddedBatchDataset", "BatchInfo", "ShuffleDataset", "FilterDataset",
           "RepeatDataset", "SkipDataset", "SyncWaitDataset", "TakeDataset", "ZipDataset", "ConcatDataset",
           "RenameDataset", "ProjectDataset"]

# ------------------------------------------------------------------------------------------------------------------
# Row-level functions run by the executors (module-level so worker processes inherit them).

class _MapWorkers:
    """The random state of one map node for one iterator: 2.10's ``MapOp`` workers (see config._WorkerEngines).

    Row ``g`` (rows and end-of-epoch markers numbered together) belongs to worker ``g % num_workers``; a row waits
    until the previous row of its worker is done, so each worker's engines advance in 2.10's order whichever thread
    runs the row. Only maps with a random operation are ordered (``ordered``).
    """

    def __init__(self, ops, seed, num_workers, stop, processes=False):
        from mindspore.dataset.transforms.transforms import Compose
        top = set()
        for op in ops:
            top.add(id(op))
            if isinstance(op, Compose):
                top.update(id(sub) for sub in Compose.decompose(op.transforms))
        self.num_workers = num_workers
        self.engines = [config._WorkerEngines(seed, w, frozenset(top)) for w in range(num_workers)]
        # python_multiprocessing: 2.10 runs every operation of the map eagerly in worker process w, whose seed is the
        # pipeline seed + w (a new operation per call, so the order of the rows does not matter)
        self.processes = processes
        self.seed = seed
        self.ordered = not processes and any(isinstance(op, TensorOperation) and getattr(op, "random", False)
                                             for op in ops)
        self.slot = 0                               # next row/marker number (main thread)
        self.last = [-1] * num_workers              # slot of each worker's last dispatched row (main thread)
        self.done = [-1] * num_workers              # slot of each worker's last finished row
        self.cond = threading.Condition()
        self.stop = stop
        self.pid = os.getpid()      # rows run in forked worker processes are not ordered (no shared state there)

    def dispatch(self):
        """Main thread: the (slot, previous slot of the same worker) of the next row."""
        slot = self.slot
        self.slot += 1
        worker = slot % self.num_workers
        prev, self.last[worker] = self.last[worker], slot
        return slot, prev

    def end_pass(self):
        """Main thread: the end-of-epoch marker takes a slot of its own, as in 2.10."""
        self.slot += 1

    def enter(self, slot, prev):
        worker = slot % self.num_workers
        if self.ordered and prev >= 0 and os.getpid() == self.pid:
            with self.cond:
                while self.done[worker] < prev and not self.stop.is_set():
                    self.cond.wait(0.1)
        return self.engines[worker]

    def leave(self, slot):
        if self.ordered and os.getpid() == self.pid:
            with self.cond:
                worker = slot % self.num_workers
                self.done[worker] = max(self.done[worker], slot)
                self.cond.notify_all()


def _map_row(ops, seed, key, names, n_out, workers, index, args):
    pass_idx, pos, slot, prev = index
    config._set_row_context((seed, key, pass_idx, pos))
    engines = workers.enter(slot, prev)
    if workers.processes:
        engines = None
        config._set_eager_seed(workers.seed + slot % workers.num_workers)
    try:
        for op in ops:
            # a user's Python function runs its transforms eagerly, as in 2.10 (a new operation per call)
            config._set_worker_engines(engines if isinstance(op, TensorOperation) else None)
            try:
                out = op(*args)
            except Exception as exc:
                raise annotate_error(exc, f"\n[map] raised by operation '{_op_name(op)}' on row {pos} (input "
                                          f"columns {names}, epoch/pass {pass_idx}).",
                                     user_code=not isinstance(op, TensorOperation))
            args = out if isinstance(out, tuple) else (out,)
    finally:
        config._clear_row_context()
        workers.leave(slot)
    if len(args) != n_out:
        raise RuntimeError(f"Invalid columns, the number of columns returned in 'map' operations should match the "
                           f"number of 'output_columns', but got the number of columns returned in 'map' "
                           f"operations: {len(args)}, the number of 'output_columns': {n_out} (row {pos}).")
    return tuple(_to_array(a) for a in args)


def _with_debug_hooks(operations):
    """In the debug mode, the debug hooks' copies before the first operation and after each (those the user placed
    among the operations report the operation before them); out of it, a hook among the operations is an error."""
    from mindspore.dataset.debug import DebugHook
    if not config.get_debug_mode():
        if any(isinstance(op, DebugHook) for op in operations):
            raise ValueError("It is not allowed to inject DebugHook object in non-debug mode.")
        return operations

    def hooks(name, first=False):
        out = []
        for hook in config._get_debug_hook_list():
            hook = copy.deepcopy(hook)      # each point holds its own state
            hook.set_previous_op_name(name)
            hook.set_is_first(first)
            out.append(hook)
        return out

    with_hooks = hooks(_op_name(operations[0]), first=True)
    previous = None
    for op in operations:
        if isinstance(op, DebugHook) and previous is not None:
            op.set_previous_op_name(_op_name(previous))
        with_hooks.append(op)
        with_hooks.extend(hooks(_op_name(op)))
        previous = op if not isinstance(op, DebugHook) else previous
    return with_hooks


class MapDataset(Dataset):
    """The result of :meth:`Dataset.map`."""

    def __init__(self, input_dataset, operations=None, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False, cache=None, callbacks=None,
                 max_rowsize=16, offload=None):
        super().__init__(input_dataset, num_parallel_workers, cache)
        self.operations = to_list(operations)
        if not self.operations:
            raise ValueError("Parameter operations of method map should not be empty.")
        for op in self.operations:
            if isinstance(op, type):
                raise ValueError(f"Parameter operations's element of method map should be a dataset processing "
                                 f"operation instance, but got: {op}. It may be missing parentheses for "
                                 f"instantiation.")
            if not callable(op):
                raise ValueError(f"Parameter operations's element of method map should be a python function or "
                                 f"class method which should be callable, but got: {op}.")
        self.operations = _with_debug_hooks(self.operations)
        self.input_columns = _check_columns_arg(input_columns, "input_columns")
        self.output_columns = _check_columns_arg(output_columns, "output_columns")
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"python_multiprocessing must be bool, but got {type(python_multiprocessing).__name__}.")
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = max_rowsize
        self.callbacks = to_list(callbacks)
        if self.callbacks:
            from mindspore.dataset.engine.callbacks import DSCallback
            for k, callback in enumerate(self.callbacks):
                if not isinstance(callback, DSCallback):
                    raise TypeError(f"Argument callbacks[{k}] with value {callback!r} is not of type "
                                    f"[<class 'mindspore.dataset.callback.ds_callback.DSCallback'>], but got "
                                    f"{type(callback)}.")
        self.offload = offload

    def _columns(self):
        names = self.children[0].get_col_names()
        in_cols = self.input_columns or names[:1]
        for col in in_cols:
            if col not in names:
                raise RuntimeError(f"Invalid parameter, input column name: {col} doesn't exist in the dataset "
                                   f"columns {names}.")
        return names, in_cols, self.output_columns or in_cols

    def _col_names_impl(self):
        names, in_cols, out_cols = self._columns()
        return _layout(names, in_cols, out_cols)

    def _prepare(self, rt):
        names, in_cols, out_cols = self._columns()
        ops = rt.offload.kept(self)
        # as 2.10: python_multiprocessing takes effect only for a map with a Python function (else: threads)
        multiprocessing = self.python_multiprocessing and any(not isinstance(op, TensorOperation) for op in ops)
        processes = multiprocessing and fork_available() and not (rt.inline or self._sync_conditions())
        workers = _MapWorkers(ops, rt.seed, self.num_parallel_workers or config.get_num_parallel_workers(), rt.stop,
                              processes)
        rt.node_state(self)["workers"] = workers
        fn = functools.partial(_map_row, ops, rt.seed, rt.key(self), in_cols, len(out_cols), workers)
        executor = rt.add_executor(self, fn, self.num_parallel_workers, multiprocessing, "map", self.max_rowsize)
        if workers.ordered and hasattr(executor, "chunk_size"):
            executor.chunk_size = 1     # rows wait for their worker's previous row: keep them in separate tasks

    def _rows(self, rt):
        names, in_cols, _ = self._columns()
        in_idx = [names.index(c) for c in in_cols]
        pass_idx = rt.next_pass(self)
        workers = rt.node_state(self)["workers"]
        if not self.callbacks:
            tasks = (((pass_idx, pos) + workers.dispatch(), tuple(row[i] for i in in_idx), row)
                     for pos, row in enumerate(self.children[0]._rows(rt)))
            for row, outputs in rt.executor(self).imap(tasks, rt.stop):
                yield _assemble(row, names, in_cols, outputs)
            workers.end_pass()
            return
        # DSCallback hooks: a step begins when its row is dispatched and ends when its result comes back
        runners = rt.__dict__.setdefault("_callback_runners", {})
        if id(self) not in runners:
            from mindspore.dataset.engine.callbacks import CallbackRunner
            runners[id(self)] = CallbackRunner(self.callbacks)
        runner = runners[id(self)]
        runner.epoch_begin()

        def tasks_with_steps():
            for pos, row in enumerate(self.children[0]._rows(rt)):
                yield (pass_idx, pos) + workers.dispatch(), tuple(row[i] for i in in_idx), (row, runner.step_begin())

        for (row, context), outputs in rt.executor(self).imap(tasks_with_steps(), rt.stop):
            runner.step_end(context)
            yield _assemble(row, names, in_cols, outputs)
        workers.end_pass()
        runner.epoch_end()


class BatchInfo:
    """What ``batch_size`` callables and ``per_batch_map`` receive: the batch and epoch numbers."""

    def __init__(self, epoch_num=0, batch_num=0):
        self._epoch_num = epoch_num
        self._batch_num = batch_num

    def get_batch_num(self):
        """The number of the current batch within its epoch (from 0)."""
        return self._batch_num

    def get_epoch_num(self):
        """The number of the current epoch (from 0)."""
        return self._epoch_num


def _pad_target(values, spec_shape, col):
    ranks = {np.ndim(v) for v in values}
    if len(ranks) != 1:
        raise RuntimeError(f"Invalid data, rows of column '{col}' have different ranks {sorted(ranks)}, they "
                           f"cannot be padded into one batch.")
    largest = np.max(np.array([np.shape(v) for v in values], dtype=np.int64), axis=0) if ranks != {0} else []
    if spec_shape is None:
        return tuple(int(d) for d in largest)
    if len(spec_shape) != len(largest):
        raise RuntimeError(f"Invalid pad_info, the pad shape {list(spec_shape)} of column '{col}' has a rank "
                           f"different from the rows' rank {len(largest)}.")
    target = tuple(int(largest[i]) if d is None else int(d) for i, d in enumerate(spec_shape))
    for v in values:
        if any(s > t for s, t in _builtin_zip(np.shape(v), target)):
            raise RuntimeError(f"Invalid pad_info, the pad shape {list(target)} of column '{col}' is smaller than "
                               f"a row of shape {list(np.shape(v))}.")
    return target


def _stack_column(values, col, index, pad):
    """One batched column. ``pad`` is None (no padding) or (shape or None, pad value or None).

    A column of dicts is batched key by key into one dict (2.10: ``{'powers': [[0, 0, 0], ...]}``); a dict that
    ``per_batch_map`` returned is already a batch, and only its values become arrays.
    """
    if isinstance(values, dict):
        return {k: _stack_column(v, f"{col}.{k}", index, pad) if isinstance(v, dict) else np.asarray(v)
                for k, v in values.items()}
    if any(isinstance(v, dict) for v in values):
        if not all(isinstance(v, dict) for v in values) or any(v.keys() != values[0].keys() for v in values):
            raise RuntimeError(f"Inconsistent batch type, batch operation expect the same dict keys for each data "
                               f"row, but got different rows in column {index} ('{col}').")
        return {k: _stack_column([v[k] for v in values], f"{col}.{k}", index, pad) for k in values[0]}
    values = [np.asarray(v) for v in values]
    if pad is not None:
        shape, fill = pad
        target = _pad_target(values, shape, col)
        dtype = np.result_type(*values) if values[0].dtype.kind not in "SU" else values[0].dtype
        fill = (b"" if dtype.kind == "S" else "" if dtype.kind == "U" else 0) if fill is None else fill
        out = np.full((len(values),) + target, fill, dtype=dtype if dtype.kind not in "SU" else object)
        for i, v in enumerate(values):
            out[(i,) + tuple(slice(0, s) for s in v.shape)] = v
        return out.astype(dtype) if dtype.kind in "SU" else out
    first = values[0]
    for v in values[1:]:
        if v.shape != first.shape:
            raise RuntimeError(f"Cannot batch tensors with different shapes in column {index}. First element had "
                               f"shape <{','.join(map(str, first.shape))}> and this element had shape "
                               f"<{','.join(map(str, v.shape))}> (column '{col}': batch expects the same shape in "
                               f"every row; pad the rows with padded_batch, or do not batch them).")
        if v.dtype != first.dtype and (v.dtype.kind != first.dtype.kind or v.dtype.kind not in "SU"):
            raise RuntimeError(f"Inconsistent batch type, batch operation expect same type for each data row, but "
                               f"got inconsistent type in column {index} ('{col}'), expected type for this column "
                               f"is:{first.dtype}, got type:{v.dtype}")
    return np.stack(values)


def _batch_rows(per_batch_map, seed, key, names, in_cols, n_out, out_names, pads, index, rows):
    pass_idx, batch_num = index
    columns = [list(col) for col in _builtin_zip(*rows)] if rows else [[] for _ in names]
    if per_batch_map is not None:
        args = [columns[names.index(c)] for c in in_cols]
        config._set_row_context((seed, key, pass_idx, batch_num))
        try:
            out = per_batch_map(*args, BatchInfo(pass_idx, batch_num))
        except Exception as exc:
            raise annotate_error(exc, f"\n[batch] raised by per_batch_map '{_op_name(per_batch_map)}' on batch "
                                      f"{batch_num} (epoch/pass {pass_idx}).", user_code=True)
        finally:
            config._clear_row_context()
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != n_out:
            raise RuntimeError(f"Invalid columns, the number of columns returned by per_batch_map ({len(out)}) "
                               f"should match the number of output_columns ({n_out}).")
        columns = _assemble(columns, names, in_cols, [o if isinstance(o, dict) else list(o) for o in out])
    return tuple(_stack_column(col, name, i, pads.get(name, pads.get("*")))
                 for i, (name, col) in enumerate(_builtin_zip(out_names, columns)))


class BatchDataset(Dataset):
    """The result of :meth:`Dataset.batch`."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False, num_parallel_workers=None,
                 per_batch_map=None, input_columns=None, output_columns=None, python_multiprocessing=False,
                 max_rowsize=16, pad_info=None):
        super().__init__(input_dataset, num_parallel_workers)
        if callable(batch_size):
            if len(inspect.signature(batch_size).parameters) != 1:
                raise ValueError("batch_size callable should take one parameter (BatchInfo).")
        else:
            _check_int(batch_size, "batch_size", 1)
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"drop_remainder must be bool, but got {type(drop_remainder).__name__}.")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError("per_batch_map should be a callable function.")
        self.batch_size = 1 if callable(batch_size) else batch_size
        self.batch_size_func = batch_size if callable(batch_size) else None
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self.input_columns = _check_columns_arg(input_columns, "input_columns")
        self.output_columns = _check_columns_arg(output_columns, "output_columns")
        if (self.input_columns or self.output_columns) and per_batch_map is None:
            raise ValueError("input_columns and output_columns of batch are only used with per_batch_map.")
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = max_rowsize
        self.pad_info = self._check_pad_info(pad_info)
        self.pad = pad_info is not None
        if self.batch_size_func is None:
            for condition in self.children[0]._sync_conditions().values():
                condition.scale(self.batch_size)

    @staticmethod
    def _check_pad_info(pad_info):
        if pad_info is None:
            return None
        if not isinstance(pad_info, dict):
            raise TypeError(f"pad_info must be a dict, but got {type(pad_info).__name__}.")
        for col, spec in pad_info.items():
            if not isinstance(col, str):
                raise TypeError(f"Keys of pad_info must be column names (str), but got {col!r}.")
            if not isinstance(spec, (tuple, list)) or len(spec) != 2:
                raise TypeError(f"pad_info['{col}'] must be a tuple (pad_shape, pad_value), but got {spec!r}.")
            shape = spec[0]
            if shape is not None and not (isinstance(shape, (list, tuple)) and all(
                    d is None or (isinstance(d, int) and d > 0) for d in shape)):
                raise ValueError(f"pad_shape of column '{col}' must be a list of positive ints or None, but got "
                                 f"{shape!r}.")
        return dict(pad_info)

    def _columns(self):
        names = self.children[0].get_col_names()
        in_cols = self.input_columns or list(names)
        for col in in_cols:
            if col not in names:
                raise RuntimeError(f"Invalid parameter, input column name: {col} doesn't exist in the dataset "
                                   f"columns {names}.")
        out_cols = self.output_columns or in_cols
        return names, in_cols, out_cols

    def _col_names_impl(self):
        names, in_cols, out_cols = self._columns()
        return _layout(names, in_cols, out_cols) if self.per_batch_map is not None else names

    def _size_impl(self):
        if self.batch_size_func is not None:
            return None
        size = self.children[0].get_dataset_size()
        if size is None or size < 0:
            return size
        return size // self.batch_size if self.drop_remainder else math.ceil(size / self.batch_size)

    def _pads(self, out_names):
        if not self.pad:
            return {}
        if not self.pad_info:
            return {"*": (None, None)}
        for col in self.pad_info:
            if col not in out_names:
                raise RuntimeError(f"Invalid pad_info, column '{col}' doesn't exist in the dataset columns "
                                   f"{out_names}.")
        return {col: (spec[0], spec[1]) for col, spec in self.pad_info.items()}

    def _prepare(self, rt):
        names, in_cols, out_cols = self._columns()
        out_names = self.get_col_names()
        fn = functools.partial(_batch_rows, self.per_batch_map, rt.seed, rt.key(self), names, in_cols,
                               len(out_cols), out_names, self._pads(out_names))
        rt.add_executor(self, fn, self.num_parallel_workers,
                        self.python_multiprocessing and self.per_batch_map is not None, "batch", self.max_rowsize)

    def _batches(self, rt, pass_idx):
        rows = self.children[0]._rows(rt)
        batch_num = 0
        try:
            while True:
                size = self.batch_size
                if self.batch_size_func is not None:
                    size = self.batch_size_func(BatchInfo(pass_idx, batch_num))
                    _check_int(size, "batch_size returned by the batch_size function", 1)
                batch = []
                for row in rows:
                    batch.append(row)
                    if len(batch) == size:
                        break
                if not batch or (len(batch) < size and self.drop_remainder):
                    return
                yield (pass_idx, batch_num), batch, None
                batch_num += 1
                if len(batch) < size:
                    return
        finally:
            rows.close()

    def _rows(self, rt):
        pass_idx = rt.next_pass(self)
        for _, columns in rt.executor(self).imap(self._batches(rt, pass_idx), rt.stop):
            yield columns


class PaddedBatchDataset(BatchDataset):
    """The result of :meth:`Dataset.padded_batch`."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None):
        super().__init__(input_dataset, batch_size, drop_remainder, num_parallel_workers, pad_info=pad_info)


class ShuffleDataset(Dataset):
    """The result of :meth:`Dataset.shuffle`."""

    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset)
        _check_int(buffer_size, "buffer_size", 2)
        if self.children[0]._sync_conditions():
            raise RuntimeError("No shuffle after sync operators.")
        self.buffer_size = buffer_size
        self.reshuffle_each_epoch = True
        self._fixed_seed = None

    def is_shuffled(self):
        return True

    def _rows(self, rt):
        # 2.10's ShuffleOp (cxx_random.shuffle_buffer): its std::mt19937_64 is seeded once per iterator and runs
        # on across passes (re-seeded every pass when ``reshuffle_each_epoch`` is False)
        rt.next_pass(self)
        seed = rt.seed if self._fixed_seed is None else self._fixed_seed
        state = rt.node_state(self)
        if "engine" not in state or not self.reshuffle_each_epoch:
            state["engine"] = cxx_random.MT19937_64(seed & 0xFFFFFFFF)
        engine = state["engine"]
        yield from cxx_random.shuffle_buffer(self.children[0]._rows(rt), self.buffer_size, engine)


def _filter_row(predicate, name, index, args):
    try:
        return bool(predicate(*args))
    except Exception as exc:
        raise annotate_error(exc, f"\n[filter] raised by predicate '{name}' on row {index[1]}.", user_code=True)


class FilterDataset(Dataset):
    """The result of :meth:`Dataset.filter`."""

    def __init__(self, input_dataset, predicate, input_columns=None, num_parallel_workers=None):
        super().__init__(input_dataset, num_parallel_workers)
        if not callable(predicate):
            raise TypeError("predicate must be a callable.")
        self.predicate = predicate
        self.input_columns = _check_columns_arg(input_columns, "input_columns")

    def _size_impl(self):
        return None

    def _in_idx(self):
        names = self.children[0].get_col_names()
        for col in self.input_columns:
            if col not in names:
                raise RuntimeError(f"Invalid parameter, input column name: {col} doesn't exist in the dataset "
                                   f"columns {names}.")
        return [names.index(c) for c in self.input_columns] if self.input_columns else list(range(len(names)))

    def _prepare(self, rt):
        self._in_idx()
        rt.add_executor(self, functools.partial(_filter_row, self.predicate, _op_name(self.predicate)),
                        self.num_parallel_workers, False, "filter")

    def _rows(self, rt):
        in_idx = self._in_idx()
        pass_idx = rt.next_pass(self)
        tasks = (((pass_idx, pos), tuple(row[i] for i in in_idx), row)
                 for pos, row in enumerate(self.children[0]._rows(rt)))
        for row, keep in rt.executor(self).imap(tasks, rt.stop):
            if keep:
                yield row


class RepeatDataset(Dataset):
    """The result of :meth:`Dataset.repeat`."""

    def __init__(self, input_dataset, count=None):
        super().__init__(input_dataset)
        count = -1 if count is None else count
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"Argument count with value {count!r} is not of type [<class 'int'>].")
        if count != -1 and not 0 < count <= INT32_MAX:
            raise ValueError(f"count should be either -1 or positive integer, but got {count}.")
        self.count = count

    def _size_impl(self):
        size = self.children[0].get_dataset_size()
        if self.count == -1:
            return -1 if size else 0
        return size * self.count if size is not None and size >= 0 else size

    def _rows(self, rt):
        done = 0
        while self.count == -1 or done < self.count:
            produced = False
            for row in self.children[0]._rows(rt):
                produced = True
                yield row
            done += 1
            if not produced:
                return


class SkipDataset(Dataset):
    """The result of :meth:`Dataset.skip`."""

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        _check_int(count, "count", 0)
        self.count = count

    def _size_impl(self):
        size = self.children[0].get_dataset_size()
        return size if size is None or size < 0 else max(size - self.count, 0)

    def _rows(self, rt):
        for i, row in enumerate(self.children[0]._rows(rt)):
            if i >= self.count:
                yield row


class TakeDataset(Dataset):
    """The result of :meth:`Dataset.take`."""

    def __init__(self, input_dataset, count=-1):
        super().__init__(input_dataset)
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"Argument count with value {count!r} is not of type [<class 'int'>].")
        if count != -1 and not 0 < count <= INT32_MAX:
            raise ValueError(f"count should be either -1 or positive integer, but got {count}.")
        self.count = count

    def _size_impl(self):
        size = self.children[0].get_dataset_size()
        if self.count == -1 or size is None:
            return size
        return self.count if size < 0 else min(size, self.count)

    def _rows(self, rt):
        rows = self.children[0]._rows(rt)
        try:
            for i, row in enumerate(rows):
                yield row
                if self.count != -1 and i + 1 >= self.count:
                    return
        finally:
            rows.close()


class _SyncCondition:
    """The gate of one ``sync_wait``: ``allowance`` rows may pass before the next ``release``. A row waits in the
    thread that pulls it (the iterator's producer), ``release`` comes from the user's loop."""

    def __init__(self, rows, callback):
        self.rows = rows                  # rows let through at first and by a release without a count
        self.callback = callback
        self.allowance = rows
        self.disabled = False
        self._cv = threading.Condition()

    def scale(self, batch_size):
        """A ``batch`` downstream: counts are of batches, so of ``batch_size`` rows each."""
        self.rows *= batch_size
        self.allowance *= batch_size

    def reset(self):
        with self._cv:
            self.allowance = self.rows
            self._cv.notify_all()

    def wait(self):
        with self._cv:
            if not self._cv.wait_for(lambda: self.allowance > 0 or self.disabled, config.get_callback_timeout()):
                logger.warning("Timeout happened in sync_wait, maybe dataset.sync_update(condition=...) is not "
                               "added after dataset.create_dict_iterator(...), now disabling lock.")
                self.disabled = True
            self.allowance -= 1

    def release(self, rows=None, data=None):
        with self._cv:
            self.allowance += self.rows if rows is None else rows
            if self.callback is not None:
                self.callback(data)
            self._cv.notify_all()

    def disable(self):
        with self._cv:
            self.disabled = True
            self._cv.notify_all()

    def __deepcopy__(self, memodict):
        return self                       # the copy an iterator runs is released by the user's dataset object


class SyncWaitDataset(Dataset):
    """The result of :meth:`Dataset.sync_wait`."""

    def __init__(self, input_dataset, condition_name, num_batch=1, callback=None):
        super().__init__(input_dataset)
        if num_batch <= 0:
            raise ValueError("num_batch need to be greater than 0.")
        if condition_name in self.children[0]._sync_conditions():
            raise RuntimeError("Condition name is already in use.")
        self.condition_name = condition_name
        self.condition = _SyncCondition(num_batch, callback)

    def _sync_conditions(self):
        return {**self.children[0]._sync_conditions(), self.condition_name: self.condition}

    def _prepare(self, rt):
        self.condition.reset()

    def _rows(self, rt):
        for row in self.children[0]._rows(rt):
            self.condition.wait()
            yield row


class ZipDataset(Dataset):
    """The result of :meth:`Dataset.zip` / :func:`zip`."""

    def __init__(self, datasets):
        super().__init__(list(datasets))

    def _col_names_impl(self):
        names = [n for child in self.children for n in child.get_col_names()]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise RuntimeError(f"Invalid data, duplicate column {duplicates} already exists when creating ZipOp: "
                               f"zipped datasets must have different column names.")
        return names

    def _size_impl(self):
        sizes = [child.get_dataset_size() for child in self.children]
        finite = [s for s in sizes if s is not None and s >= 0]
        return min(finite) if finite else (None if None in sizes else -1)

    def _rows(self, rt):
        iters = [child._rows(rt) for child in self.children]
        try:
            while True:
                row = ()
                for it in iters:
                    part = next(it, None)
                    if part is None:
                        return
                    row += part
                yield row
        finally:
            for it in iters:
                it.close()


class ConcatDataset(Dataset):
    """The result of :meth:`Dataset.concat` / ``+``."""

    def __init__(self, datasets):
        for dataset in datasets:
            if not isinstance(dataset, Dataset):
                raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(dataset)}!")
        super().__init__(list(datasets))

    def _col_names_impl(self):
        names = self.children[0].get_col_names()
        for child in self.children[1:]:
            if child.get_col_names() != names:
                raise RuntimeError(f"Invalid data, the column names of the concatenated datasets differ: {names} "
                                   f"vs {child.get_col_names()}.")
        return names

    def _size_impl(self):
        sizes = [child.get_dataset_size() for child in self.children]
        if None in sizes:
            return None
        return -1 if any(s < 0 for s in sizes) else sum(sizes)

    def _rows(self, rt):
        for child in self.children:
            yield from child._rows(rt)


class RenameDataset(Dataset):
    """The result of :meth:`Dataset.rename`."""

    def __init__(self, input_dataset, input_columns, output_columns):
        super().__init__(input_dataset)
        self.input_column_names = _check_columns_arg(input_columns, "input_columns")
        self.output_column_names = _check_columns_arg(output_columns, "output_columns")
        if len(self.input_column_names) != len(self.output_column_names):
            raise ValueError("input_columns and output_columns of rename must have the same length.")

    def _col_names_impl(self):
        names = self.children[0].get_col_names()
        for col in self.input_column_names:
            if col not in names:
                raise RuntimeError(f"Invalid parameter, column to rename: {col} doesn't exist in the dataset "
                                   f"columns {names}.")
        return _layout(names, self.input_column_names, self.output_column_names)

    def _rows(self, rt):
        return self.children[0]._rows(rt)


class ProjectDataset(Dataset):
    """The result of :meth:`Dataset.project`."""

    def __init__(self, input_dataset, columns):
        super().__init__(input_dataset)
        self.columns = _check_columns_arg(columns, "columns")
        if not self.columns:
            raise ValueError("columns of project must not be empty.")

    def _col_names_impl(self):
        names = self.children[0].get_col_names()
        for col in self.columns:
            if col not in names:
                raise RuntimeError(f"Invalid parameter, column name to project: {col} does not exist in the "
                                   f"dataset columns {names}.")
        return list(self.columns)

    def _rows(self, rt):
        names = self.children[0].get_col_names()
        idx = [names.index(c) for c in self.columns]
        for row in self.children[0]._rows(rt):
            yield tuple(row[i] for i in idx)
