"""What a running profiler records: every primitive application (name, start, duration, thread, and by level its
inputs' shapes/dtypes and the Python call site), the Cell calls around them, steps, and mstx marks and ranges.

Operators are timed through core's dispatch hook (:func:`mindspore.plugin.set_primitive_call_hook`): the hook
notes the time, runs the application as it would have run (the hook it replaced, if any: mindspore-parallel's,
else the interpreter stack), waits for the device when ``sync_enable`` asks, and notes the time again. Only
applications that execute are timed, in PYNATIVE mode (and in the eager parts of a program). While a graph is
being staged (GRAPH_MODE compilation) nothing runs, so nothing is recorded. A compiled graph's kernels are timed
through the executor's kernel hook (:func:`mindspore._runtime.executor.set_kernel_hook`) the same way, one event
per kernel the graph runs (a fused kernel is named after the operators it computes, ``FusedOp(Conv2D+BiasAdd+
ReLU)``), marked ``"mode": "graph"``. Cell calls are recorded as spans around their operators (through
:func:`mindspore.plugin.set_cell_call_hook`). Gradient rules run with the hook suspended, as core does for all
hooks, so backward operators are part of the span of the operation that ran them.

One :class:`Collector` is installed at a time (the hooks are process-wide); installing a second one raises.
Times are ``time.perf_counter_ns`` offset to the Unix epoch, so traces of several processes line up.
"""
import os
import threading
import time
import traceback

import mindspore.plugin as plugin
from mindspore._core import interpreters
from mindspore._errors import MSRuntimeError
from mindspore._runtime import backend
from mindspore._runtime import executor
from mindspore.common import dtype as mstype

__all__ = ["Collector", "Event", "active_collector", "framework_step_start", "framework_step_end"]

_EPOCH_OFFSET_NS = time.time_ns() - time.perf_counter_ns()
_active = [None]
_lock = threading.Lock()


def now_ns():
    """The current time in ns since the Unix epoch (monotonic within the process)."""
    return time.perf_counter_ns() + _EPOCH_OFFSET_NS


def active_collector():
    """The collector recording now, or ``None``."""
    return _active[0]


class Event:
    """One recorded span (``dur_ns`` > 0 or 0 for an instant): ``kind`` is ``"op"``, ``"cell"``, ``"step"`` or
    ``"mstx"``."""

    __slots__ = ("kind", "name", "start_ns", "dur_ns", "tid", "step", "args")

    def __init__(self, kind, name, start_ns, dur_ns, tid, step, args=None):
        self.kind, self.name, self.start_ns, self.dur_ns = kind, name, start_ns, dur_ns
        self.tid, self.step, self.args = tid, step, args or {}


def _describe(value):
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        return f"{str(dtype)}{list(shape)}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_describe(v) for v in value) + ")"
    return type(value).__name__


def _describe_buffer(value):
    """A graph kernel's argument (a device buffer, or a constant) as :func:`_describe` shows a Tensor."""
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is not None and dtype is not None:
        try:
            return f"{mstype.to_ms_dtype(dtype)}{list(shape)}"
        except Exception:   # noqa: BLE001 - a dtype MindSpore has no name for: NumPy's
            return f"{dtype}{list(shape)}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_describe_buffer(v) for v in value) + ")"
    return type(value).__name__


def _call_site():
    """``file:line`` frames of the user's code that led here (framework frames left out)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frames = [f for f in traceback.extract_stack()[:-3] if not os.path.abspath(f.filename).startswith(root)]
    return ";\r\n".join(f"{f.filename}({f.lineno}): {f.name}" for f in frames[-8:])


class Collector:
    """Records events while installed (:meth:`install` ... :meth:`uninstall`) and :attr:`recording`."""

    def __init__(self, record_shapes=False, with_stack=False, profile_memory=False, sync_enable=True,
                 record_ops=True):
        self.record_shapes, self.with_stack = record_shapes, with_stack
        self.profile_memory, self.sync_enable, self.record_ops = profile_memory, sync_enable, record_ops
        self.events = []
        self.memory = []
        self.recording = False
        self.step = 0
        self._prev_prim_hook = None
        self._prev_cell_hook = None
        self._prev_kernel_hook = None
        self._ranges = {}
        self._next_range = 1

    # -- installation ---------------------------------------------------------------------------------------
    def install(self):
        with _lock:
            if _active[0] is not None and _active[0] is not self:
                raise MSRuntimeError("For 'Profiler', another profiler is already collecting in this process: stop "
                                     "it before starting a new one.")
            if _active[0] is self:
                return
            self._prev_prim_hook = plugin.set_primitive_call_hook(self._on_primitive)
            self._prev_cell_hook = plugin.set_cell_call_hook(self._on_cell)
            self._prev_kernel_hook = executor.set_kernel_hook(self._on_kernel)
            _active[0] = self

    def uninstall(self):
        with _lock:
            if _active[0] is not self:
                return
            plugin.set_primitive_call_hook(self._prev_prim_hook)
            plugin.set_cell_call_hook(self._prev_cell_hook)
            executor.set_kernel_hook(self._prev_kernel_hook)
            _active[0] = None

    # -- hooks ------------------------------------------------------------------------------------------------
    def _run(self, prim, args):
        prev = self._prev_prim_hook
        return prev(prim, args) if prev is not None else plugin.apply_primitive(prim, args)

    def _on_primitive(self, prim, args):
        if not (self.recording and self.record_ops) or interpreters.current().kind == "staging":
            return self._run(prim, args)
        start = now_ns()
        out = self._run(prim, args)
        if self.sync_enable:
            backend.data_runtime().synchronize()
        end = now_ns()
        extra = {}
        if self.record_shapes:
            extra["Input Dims"] = "; ".join(_describe(a) for a in args)
        if self.with_stack:
            extra["Call stack"] = _call_site()
        self.events.append(Event("op", prim.name, start, end - start, threading.get_ident(), self.step, extra))
        if self.profile_memory:
            stats = backend.data_runtime().memory_stats() or {}
            self.memory.append((end, int(stats.get("allocated", 0)), int(stats.get("reserved", 0))))
        return out

    def _run_kernel(self, prim, kernel, args, out):
        prev = self._prev_kernel_hook
        return prev(prim, kernel, args, out) if prev is not None else kernel(prim, *args, out=out)

    def _on_kernel(self, prim, kernel, args, out):
        """One kernel of a compiled graph (GRAPH_MODE), timed as :meth:`_on_primitive` times an application."""
        if not (self.recording and self.record_ops):
            return self._run_kernel(prim, kernel, args, out)
        start = now_ns()
        result = self._run_kernel(prim, kernel, args, out)
        if self.sync_enable:
            backend.data_runtime().synchronize()
        end = now_ns()
        ops = getattr(prim, "attrs", {}).get("ops") if hasattr(prim, "attrs") else None
        name = f"{prim.name}({'+'.join(ops)})" if ops else prim.name
        extra = {"mode": "graph"}
        if self.record_shapes:
            extra["Input Dims"] = "; ".join(_describe_buffer(a) for a in args)
        self.events.append(Event("op", name, start, end - start, threading.get_ident(), self.step, extra))
        if self.profile_memory:
            stats = backend.data_runtime().memory_stats() or {}
            self.memory.append((end, int(stats.get("allocated", 0)), int(stats.get("reserved", 0))))
        return result

    def _on_cell(self, cell, run, args, kwargs):
        prev = self._prev_cell_hook
        if not self.recording or interpreters.current().kind == "staging":
            return prev(cell, run, args, kwargs) if prev is not None else run(*args, **kwargs)
        start = now_ns()
        out = prev(cell, run, args, kwargs) if prev is not None else run(*args, **kwargs)
        end = now_ns()
        self.events.append(Event("cell", type(cell).__name__, start, end - start, threading.get_ident(), self.step,
                                 {"cell": getattr(cell, "cls_name", type(cell).__name__)}))
        return out

    # -- steps and marks --------------------------------------------------------------------------------------
    def mark_step(self, step, start_ns, end_ns):
        self.events.append(Event("step", f"Step {step}", start_ns, end_ns - start_ns, threading.get_ident(), step))

    def mark(self, message, domain):
        self.events.append(Event("mstx", message, now_ns(), 0, threading.get_ident(), self.step, {"domain": domain}))

    def range_start(self, message, domain):
        range_id = self._next_range
        self._next_range += 1
        self._ranges[range_id] = (message, domain, now_ns(), threading.get_ident())
        return range_id

    def range_end(self, range_id):
        entry = self._ranges.pop(range_id, None)
        if entry is not None:
            message, domain, start, tid = entry
            self.events.append(Event("mstx", message, start, now_ns() - start, tid, self.step, {"domain": domain}))

    def take(self):
        """The events and memory samples so far, and forget them."""
        events, memory = self.events, self.memory
        self.events, self.memory = [], []
        return events, memory


_framework_step = threading.local()


def framework_step_start():
    """Open a framework step (MindSpore's ``_c_expression._framework_profiler_step_start``, which 2.10's
    ``Model.train`` and MindNLP's ``generate`` call around each step): while a profiler records, the span up to
    :func:`framework_step_end` becomes one ``"FrameworkStep"`` range (domain ``"framework"``); otherwise nothing."""
    collector = _active[0]
    _framework_step.open = (collector, collector.range_start("FrameworkStep", "framework")) \
        if collector is not None and collector.recording else None


def framework_step_end():
    """Close the step :func:`framework_step_start` opened (nothing when none is open)."""
    opened, _framework_step.open = getattr(_framework_step, "open", None), None
    if opened is not None:
        opened[0].range_end(opened[1])

