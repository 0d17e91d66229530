"""Parallel workers of a pipeline: run a per-row function on many rows at once, results in row order.

An *executor* takes an iterator of tasks ``(index, args, extra)`` and yields ``(extra, result)`` in task order,
where ``result = fn(index, args)``. Three kinds:

* :class:`InlineExecutor` calls ``fn`` in the pipeline thread (one worker, or debug mode).
* :class:`ThreadExecutor` runs tasks on threads: enough for NumPy/Pillow work, which releases the GIL.
* :class:`ProcessExecutor` runs them in worker processes forked when the iterator is created (so lambdas and
  closures need no pickling). Arrays of 64 KiB or more travel through shared-memory slots owned by the main
  process (one input and one output segment per in-flight task, grown on demand) instead of being pickled
  through the pipe; smaller objects are pickled.

Tasks are grouped in chunks sized to the measured cost of a row (one row while rows are slow, up to 64 when they
are cheap) to amortise the hand-off, and at most ``window`` chunks are in flight, which bounds memory and is the
prefetch depth of the stage. Results are reassembled in task order, so the output
never depends on which worker finished first.

Errors: a task that raises is re-raised in the pipeline thread as the *original* exception type, with the row
and the operation appended to its message (and, for processes, the worker's traceback chained as its cause); that
type is also made a ``RuntimeError``, since MindSpore raises every error from inside a pipeline as one (so both
``except ZeroDivisionError`` and MindSpore users' ``except RuntimeError`` catch it), and an error of the user's own
Python code (a source, a ``map`` function, a predicate) says so first, in MindSpore's words. A
worker process that dies is reported as a ``RuntimeError`` naming its exit code. On error, exhaustion, or when the
iterator is released or garbage collected, every worker is stopped and joined and every segment unlinked. Workers
also exit by themselves when their parent process disappears (no orphans).
"""
import collections
import mmap
import multiprocessing
import os
import pickle
import signal
import itertools
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import connection, shared_memory

import numpy as np

__all__ = ["InlineExecutor", "ThreadExecutor", "ProcessExecutor", "annotate_error", "fork_available"]

SHM_THRESHOLD = 64 * 1024
_ALIGN = 64
_POLL_S = 0.2


def fork_available():
    return "fork" in multiprocessing.get_all_start_methods()


_USER_CODE = "Exception thrown from user defined Python function in dataset."
_RUNTIME_VARIANTS = {}


def _rebuild_runtime_variant(cls, args, state):
    exc = _runtime_variant(cls).__new__(_runtime_variant(cls), *args)
    exc.__dict__.update(state)
    return exc


def _runtime_variant(cls):
    """``cls`` made a subclass of RuntimeError as well (same name), or None where the two cannot be combined (an
    ``OSError``'s layout, a final class)."""
    if issubclass(cls, RuntimeError):
        return cls
    if cls not in _RUNTIME_VARIANTS:
        try:
            _RUNTIME_VARIANTS[cls] = type(cls.__name__, (cls, RuntimeError), {
                "__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__,
                "__reduce__": lambda self: (_rebuild_runtime_variant, (cls, self.args, dict(self.__dict__))),
                # the annotated message, also where ``cls`` formats its message from other attributes
                "__str__": lambda self: self.args[0] if getattr(self, "_ms_dataset_annotated", False) and len(
                    self.args) == 1 and isinstance(self.args[0], str) else cls.__str__(self)})
        except TypeError:
            _RUNTIME_VARIANTS[cls] = None
    return _RUNTIME_VARIANTS[cls]


def _as_runtime_error(exc):
    """``exc`` as an instance of its RuntimeError variant (same args, attributes and traceback)."""
    variant = _runtime_variant(type(exc))
    if variant is type(exc):
        return exc
    if variant is None:
        new = RuntimeError(f"{type(exc).__name__}: {exc}")
    else:
        new = variant.__new__(variant, *exc.args)
        new.__dict__.update(exc.__dict__)
    new.__cause__, new.__suppress_context__ = exc.__cause__, True
    return new.with_traceback(exc.__traceback__)


def annotate_error(exc, context, user_code=False):
    """Append ``context`` to the message of ``exc`` and return it as a RuntimeError (keeping its type too, see the
    module docstring); ``user_code``: raised by the user's Python code, which the message then says first."""
    if getattr(exc, "_ms_dataset_annotated", False):
        return exc
    exc = _as_runtime_error(exc)
    if user_code:
        head = exc.args and isinstance(exc.args[0], str)
        message = exc.args[0] if head else str(exc)
        exc.args = (f"{_USER_CODE}\n{type(exc).__name__}: {message}",) + tuple(exc.args[1:] if head else ())
    try:
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (exc.args[0] + context,) + tuple(exc.args[1:])
        elif not exc.args:
            exc.args = (context.strip(),)
        else:
            exc.add_note(context.strip())
        exc._ms_dataset_annotated = True
    except (AttributeError, TypeError):
        pass
    return exc


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process."""

    def __str__(self):
        return self.args[0] if self.args else ""


# -------------------------------------------------------------------------------------------------------------
# Executors

class InlineExecutor:
    """Runs every task in the calling thread."""

    def __init__(self, fn):
        self.fn = fn

    def imap(self, tasks, stop_event=None):
        for index, args, extra in tasks:
            yield extra, self.fn(index, args)

    def close(self):
        pass


def _run_chunk(fn, chunk):
    start = time.perf_counter()
    results = _apply(fn, ((index, args) for index, args, _ in chunk))
    return results, time.perf_counter() - start


def _apply(fn, tasks):
    """``[fn(index, args) ...]``; ``sys.exit()`` (or another BaseException that is not an Exception) called by a
    dataset function becomes a RuntimeError naming its row: re-raised as it is, it would end the user's main
    program silently."""
    results = []
    for index, args in tasks:
        try:
            results.append(fn(index, args))
        except (SystemExit, KeyboardInterrupt, GeneratorExit) as exc:
            detail = ", ".join(repr(a) for a in exc.args)
            raise RuntimeError(f"A dataset function called {type(exc).__name__}({detail}) while processing row "
                               f"{_row_of(index)} (in process {os.getpid()}); a function of a dataset must return "
                               f"its output or raise an Exception.") from None
    return results


class _WindowedExecutor:
    """Common ordered-window logic: submit chunks, yield results of the oldest chunk first.

    The chunk size adapts to the cost of a row: one row per task while rows are slow (all workers busy even on
    small datasets), up to ``MAX_CHUNK`` rows when they are cheap (so the hand-off does not dominate).
    """

    TARGET_CHUNK_S = 0.002
    MAX_CHUNK = 64

    def __init__(self, num_workers):
        self.num_workers = num_workers
        self.window = max(2, 2 * num_workers)
        self.closed = False
        self.chunk_size = None           # None: adaptive; an int fixes it
        self._row_seconds = None

    def _next_chunk(self, tasks):
        size = self.chunk_size
        if size is None:
            per_row = self._row_seconds
            size = 1 if per_row is None else int(min(self.MAX_CHUNK, max(1, self.TARGET_CHUNK_S / max(per_row, 1e-7))))
        chunk = list(itertools.islice(tasks, size))
        return chunk

    def _record(self, chunk, seconds):
        per_row = seconds / len(chunk)
        self._row_seconds = per_row if self._row_seconds is None else 0.8 * self._row_seconds + 0.2 * per_row

    def _collect(self, pending, stop_event):
        chunk, handle = pending.popleft()
        results, seconds = self._result(handle, chunk, stop_event)
        self._record(chunk, seconds)
        return zip((t[2] for t in chunk), results)

    def imap(self, tasks, stop_event=None):
        pending = collections.deque()
        tasks = iter(tasks)
        try:
            while True:
                chunk = self._next_chunk(tasks)
                if not chunk:
                    break
                pending.append((chunk, self._submit(chunk)))
                if len(pending) >= self.window:
                    yield from self._collect(pending, stop_event)
            while pending:
                yield from self._collect(pending, stop_event)
        finally:
            # A pass that ends early (take, an error) must not leave results behind for the next one; a stopped
            # pipeline is being torn down, so nothing is waited for.
            if stop_event is None or not stop_event.is_set():
                self._drain(pending)

    def _drain(self, pending):
        while pending:
            chunk, handle = pending.popleft()
            try:
                self._result(handle, chunk, None, timeout=5.0)
            except Exception:  # pylint: disable=broad-except
                pass


class ThreadExecutor(_WindowedExecutor):
    """Runs tasks on ``num_workers`` threads."""

    def __init__(self, fn, num_workers, name="dataset"):
        super().__init__(num_workers)
        self.fn = fn
        self.pool = ThreadPoolExecutor(max_workers=num_workers, thread_name_prefix=f"ms-{name}")

    def _submit(self, chunk):
        return self.pool.submit(_run_chunk, self.fn, chunk)

    def _result(self, future, chunk, stop_event, timeout=None):
        while True:
            try:
                return future.result(timeout=_POLL_S if timeout is None else timeout)
            except TimeoutError:
                if timeout is not None or (stop_event is not None and stop_event.is_set()):
                    raise

    def close(self):
        if not self.closed:
            self.closed = True
            self.pool.shutdown(wait=False, cancel_futures=True)


# -------------------------------------------------------------------------------------------------------------
# Shared memory: a structure of tuples/lists/arrays is "encoded" by writing its large arrays into a segment and
# replacing them with ("__shm__", offset, shape, dtype) markers; everything else is pickled.

class _ShmArray(tuple):
    """Marker of an array stored in a segment: (offset, shape, dtype.str)."""


def _large_arrays(obj, out):
    if isinstance(obj, np.ndarray):
        if obj.nbytes >= SHM_THRESHOLD and obj.dtype.kind in "biufcmM" and not obj.dtype.hasobject:
            out.append(obj)
    elif isinstance(obj, (tuple, list)):
        for item in obj:
            _large_arrays(item, out)
    return out


def _aligned(n):
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def _encode(obj, buf, state):
    if isinstance(obj, np.ndarray) and obj.nbytes >= SHM_THRESHOLD and obj.dtype.kind in "biufcmM":
        offset = state[0]
        dst = np.ndarray(obj.shape, obj.dtype, buffer=buf, offset=offset)
        np.copyto(dst, obj, casting="no")
        state[0] = offset + _aligned(obj.nbytes)
        return _ShmArray((offset, obj.shape, obj.dtype.str))
    if isinstance(obj, tuple) and not isinstance(obj, _ShmArray):
        return tuple(_encode(item, buf, state) for item in obj)
    if isinstance(obj, list):
        return [_encode(item, buf, state) for item in obj]
    return obj


def _decode(obj, buf, copy):
    if isinstance(obj, _ShmArray):
        offset, shape, dtype = obj
        arr = np.ndarray(shape, np.dtype(dtype), buffer=buf, offset=offset)
        return arr.copy() if copy else arr
    if isinstance(obj, tuple):
        return tuple(_decode(item, buf, copy) for item in obj)
    if isinstance(obj, list):
        return [_decode(item, buf, copy) for item in obj]
    return obj


def _needed_bytes(obj):
    return sum(_aligned(a.nbytes) for a in _large_arrays(obj, []))


class _Segment:
    """A shared-memory segment created and owned by the main process (unlinked on close)."""

    def __init__(self, size):
        self.shm = shared_memory.SharedMemory(create=True, size=max(size, _ALIGN))
        self.name = self.shm.name
        self.size = self.shm.size

    def close(self):
        try:
            self.shm.close()
        except BufferError:
            pass
        try:
            self.shm.unlink()
        except FileNotFoundError:
            pass


class _Attached:
    """A worker's view of a main-process segment, mapped without registering it with a resource tracker."""

    def __init__(self, name):
        self.name = name
        path = "/dev/shm/" + name.lstrip("/")
        if os.path.exists(path):
            fd = os.open(path, os.O_RDWR)
            try:
                self.buf = memoryview(mmap.mmap(fd, os.fstat(fd).st_size))
            finally:
                os.close(fd)
            self._shm = None
        else:   # no /dev/shm (not Linux): attach, then stop the tracker from unlinking it behind the owner's back
            from multiprocessing import resource_tracker
            self._shm = shared_memory.SharedMemory(name=name)
            resource_tracker.unregister(self._shm._name, "shared_memory")  # pylint: disable=protected-access
            self.buf = self._shm.buf


def _worker_loop(fn, conn, parent_pid):
    """Body of a worker process: run tasks until told to stop or until the parent process is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    attached = {}

    def segment(name):
        if name not in attached:
            if len(attached) > 64:
                attached.clear()
            attached[name] = _Attached(name)
        return attached[name].buf

    while True:
        if not conn.poll(1.0):
            if os.getppid() != parent_pid:
                return
            continue
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        chunk, in_name, out_name, out_size = msg
        try:
            if in_name is not None:
                chunk = _decode(chunk, segment(in_name), copy=False)
            start = time.perf_counter()
            results = _apply(fn, chunk)
            seconds = time.perf_counter() - start
        except BaseException as exc:  # pylint: disable=broad-except
            conn.send(("err", _picklable_error(exc), traceback.format_exc()))
            continue
        need = _needed_bytes(results)
        if need and out_name is not None and need <= out_size:
            conn.send(("ok", _encode(results, segment(out_name), [0]), out_name, need, seconds))
        else:
            conn.send(("ok", results, None, need, seconds))


def _row_of(index):
    """Tasks are indexed (pass, position, ...) or by position: the row number to report."""
    return index[1] if isinstance(index, tuple) and len(index) >= 2 else index


def _picklable_error(exc):
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # pylint: disable=broad-except
        return RuntimeError(f"{type(exc).__name__}: {exc}")


class ProcessExecutor(_WindowedExecutor):
    """Runs tasks in ``num_workers`` forked worker processes; large arrays go through shared memory."""

    def __init__(self, fn, num_workers, name="dataset", max_rowsize=None, shared_mem=True):
        super().__init__(num_workers)
        self.name = name
        self.shared_mem = shared_mem
        self.slot_size = int(max_rowsize * 1024 * 1024) if max_rowsize and max_rowsize > 0 else 1 << 20
        ctx = multiprocessing.get_context("fork")
        self.procs, self.conns = [], []
        self.free_slots = collections.deque(range(self.window))
        self.in_segs = [None] * self.window
        self.out_segs = [None] * self.window
        self.next_worker = 0
        for _ in range(num_workers):
            parent_conn, child_conn = ctx.Pipe(duplex=True)
            proc = ctx.Process(target=_worker_loop, args=(fn, child_conn, os.getpid()), daemon=True,
                               name=f"ms-{name}-worker")
            proc.start()
            child_conn.close()
            self.procs.append(proc)
            self.conns.append(parent_conn)
        self.lock = threading.Lock()

    @property
    def pids(self):
        return [p.pid for p in self.procs]

    def _segment(self, segs, slot, need):
        seg = segs[slot]
        if seg is None or seg.size < need:
            if seg is not None:
                seg.close()
            seg = segs[slot] = _Segment(max(need, self.slot_size))
        return seg

    def _submit(self, chunk):
        slot = self.free_slots.popleft()
        worker = self.next_worker
        self.next_worker = (worker + 1) % self.num_workers
        payload = [(index, args) for index, args, _ in chunk]
        in_name = out_name = None
        out_size = 0
        if self.shared_mem:
            need = _needed_bytes(payload)
            if need:
                seg = self._segment(self.in_segs, slot, need)
                payload = _encode(payload, seg.shm.buf, [0])
                in_name = seg.name
            out = self._segment(self.out_segs, slot, 0)
            out_name, out_size = out.name, out.size
        try:
            self.conns[worker].send((payload, in_name, out_name, out_size))
        except (BrokenPipeError, OSError) as err:
            self.free_slots.append(slot)
            raise self._death_error(worker, chunk) from err
        return worker, slot

    def _death_error(self, worker, chunk):
        proc = self.procs[worker]
        proc.join(0.5)
        rows = [_row_of(task[0]) for task in chunk]
        where = f"row {rows[0]}" if len(rows) == 1 else f"one of the rows {rows}"
        return RuntimeError(f"A worker process of '{self.name}' (pid {proc.pid}) exited unexpectedly with exit code "
                            f"{proc.exitcode} while processing {where}.")

    def _result(self, handle, chunk, stop_event, timeout=None):
        worker, slot = handle
        conn, proc = self.conns[worker], self.procs[worker]
        waited = 0.0
        try:
            while True:
                ready = connection.wait([conn, proc.sentinel], timeout=_POLL_S)
                if conn in ready:
                    break
                if proc.sentinel in ready:
                    raise self._death_error(worker, chunk)
                waited += _POLL_S
                if stop_event is not None and stop_event.is_set():
                    raise RuntimeError(f"The pipeline of '{self.name}' was stopped.")
                if timeout is not None and waited >= timeout:
                    raise TimeoutError(f"Worker of '{self.name}' did not answer in {timeout} s.")
            try:
                msg = conn.recv()
            except (EOFError, OSError) as err:
                raise self._death_error(worker, chunk) from err
        finally:
            self.free_slots.append(slot)
        if msg[0] == "err":
            _, exc, text = msg
            raise exc from RemoteTraceback(f"\n\"\"\"\n(in worker process {proc.pid})\n{text}\"\"\"")
        _, results, out_name, need, seconds = msg
        if out_name is not None:
            results = _decode(results, self.out_segs[slot].shm.buf, copy=True)
        elif need and self.shared_mem:
            # The output did not fit: grow this slot's segment for the next tasks that use it.
            self._segment(self.out_segs, slot, need)
        return results, seconds

    def close(self):
        with self.lock:
            if self.closed:
                return
            self.closed = True
        for conn in self.conns:
            try:
                conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for proc in self.procs:
            proc.join(timeout=2.0)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=2.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()
        for seg in self.in_segs + self.out_segs:
            if seg is not None:
                seg.close()
        self.in_segs = [None] * self.window
        self.out_segs = [None] * self.window
