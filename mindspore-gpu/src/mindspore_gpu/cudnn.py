"""Convolutions on cuDNN through NVIDIA's cuDNN frontend (``pip install nvidia-cudnn-frontend`` with the cuDNN wheel
of the CUDA version, ``nvidia-cudnn-cu13`` or ``-cu12``: ``mindspore-gpu[cuda13]``/``[cuda12]`` pull both; CuPy 14 has
no cuDNN bindings of its own). Written against the frontend 1.14 API, checked without a GPU (the graph descriptions
against the real ``cudnn`` package, the plumbing on the CuPy stand-in with a fake ``cudnn``) and run on an H200
(cuDNN 9.19): a wrong answer on real hardware must degrade to the im2col path (see the checks below), never give
wrong numbers.

:class:`Convolutions` (one per CuPy module, :func:`for_cupy`) runs the forward convolution, its data gradient and its
filter gradient of the conv kernels (``kernels/conv.py``: 2-D and 3-D, NCHW/NCDHW, groups and depthwise, stride,
dilation and the explicit before/after padding of the primitive's window) for float16/bfloat16 (float32 compute),
float32 and float64. Each method returns the result, or ``None`` when cuDNN is unusable or does not take the case:
the caller then runs its im2col path.

* **Usable** when ``import cudnn`` works, the cuDNN library reports version 9 or later, and a handle can be made on the
  current device; otherwise :meth:`Convolutions.status` is the reason (``python -m mindspore.info`` shows it).
  ``MS_GPU_CUDNN=0`` turns it off (read at the first convolution, or again after :meth:`Convolutions.reset`).
* **One built graph per case**: (op, dtype, operand dims and strides, output dims, padding, stride, dilation, device)
  is the key of a dict of built graphs (``validate``, ``build_operation_graph``, ``create_execution_plans`` with
  heuristics A then FALLBACK, ``check_support``, ``build_plans``: milliseconds to seconds); a hit is that dict
  lookup, two ``cupy.empty`` (output, workspace) and ``execute``. A case cuDNN refuses is remembered as refused.
  Output dims AND strides are set explicitly (packed NCHW: the frontend would infer NHWC strides). float32 keeps
  full precision (engines with the TENSOR_CORE note, TF32, are deselected) unless ``CUPY_TF32=1``, CuPy's own switch
  for TF32 matrix products; ``set_context(deterministic="ON")`` (when a graph is built) deselects the engines noted
  NONDETERMINISTIC (atomics in the gradients).
* **Streams and CUDA graphs**: the handle is bound to CuPy's current stream before each execute (``set_stream``
  when it changed), the workspace comes from CuPy's memory pool on that stream, and nothing syncs: a cached case's
  execute is a plain launch sequence on the stream, so a stream capture (``mindspore_gpu.capture``) records it (as
  PyTorch captures cuDNN convolutions). What does sync or is not capturable, building a graph and the checks, never
  runs while the current stream captures: such a call returns ``None`` (im2col for that call). On an H200 a captured
  CIFAR ResNet step replayed with its convolutions on cuDNN.
* **Known-answer check**: the first time each (op, rank, dtype) runs, two small cases with groups, stride and
  dilation, one with even padding (which cuDNN must take) and one with uneven before/after padding (which it may
  refuse: such cases then run im2col), integer-valued data so that every correct result is exact, are computed both
  by cuDNN (twice: the second run over the memory of the first, so an engine reading its output shows) and by the
  caller's im2col kernel (this path bypassed); a mismatch of the first case, its refusal, or any cuDNN error then or
  later at execute turns cuDNN off for that (op, rank, dtype) for the process, with one ``RuntimeWarning`` naming
  the reason. A mismatch of the second case is recorded (:attr:`Convolutions.wrong`), not fatal: see next.
* **Per-case check**: every case, when its graph is built, is also run once on seeded small integers of its own dims
  and strides and compared with im2col (relative to the result's largest value); a wrong answer makes that case run
  im2col, with a ``RuntimeWarning`` naming it. On an H200 (cuDNN 9.19) this caught filter gradients with some uneven
  before/after paddings (3-D float16; a 2-D float64 transposed convolution) that came out wrong.
  A case no engine takes (``cudnnGraphNotSupportedError``) runs im2col without a warning.
* **Checks passed are remembered** on disk (:mod:`mindspore_gpu.verdicts`: ``cudnn_checks.json`` in
  ``$MS_GPU_CACHE_DIR``, default ``~/.cache/mindspore/gpu``), per environment: cuDNN's and the frontend's versions,
  the device's name and compute capability, the driver's and the runtime's versions, ``CUPY_TF32`` and
  ``deterministic``. A later process on the same machine skips the known-answer checks passed (and so the builds of
  their cases) and the per-case checks of the cases passed; anything else about it is checked as before. Failures are
  not remembered. ``MS_GPU_CUDNN_CHECK_CACHE=0`` checks in every process.
* **Plans built are kept** on disk too (:mod:`mindspore_gpu.plans`: ``cudnn_plans/`` in the same folder, keyed by the
  same environment and the case), where cuDNN can serialize them: a case's plan is kept once its per-case check
  passed, and a later process loads it instead of building the case (the first process to load it checks it once
  more, as a built case). A stored plan that does not load, does not run or fails that check is thrown away and the
  case built afresh, with no warning and without turning the op off. NVIDIA documents serialization for the
  runtime-compiled engines; a plan that cannot be serialized is built in every process (the summary counts them).
  ``MS_GPU_CUDNN_PLAN_CACHE=0`` builds in every process.

:attr:`Convolutions.stats` counts calls per (op, rank, dtype, 'cudnn'|'fallback'); :meth:`Convolutions.summary` prints
them (``tests/gpu/run.sh`` reports it).

cuDNN frontend calls used (1.14, as NVIDIA/cudnn-frontend v1.14.0 documents them): ``cudnn.backend_version()``,
``backend_version_string()``, ``create_handle()``, ``set_stream(handle=, stream=)``, ``pygraph(io_data_type=,
intermediate_data_type=, compute_data_type=, handle=)``, ``graph.tensor(name=, dim=, stride=, data_type=, uid=)``,
``conv_fprop(image=, weight=, pre_padding=, post_padding=, stride=, dilation=, compute_data_type=, name=)``,
``conv_dgrad(loss=, filter=, ...)``, ``conv_wgrad(image=, loss=, ...)``,
``set_output(True).set_dim().set_stride().set_data_type()``, ``set_uid()``, ``validate()``,
``build_operation_graph()``, ``create_execution_plans([heur_mode.A, heur_mode.FALLBACK])``,
``deselect_numeric_notes([numerical_note.TENSOR_CORE])``, ``check_support()``, ``build_plans()``,
``get_workspace_size()``, ``execute({uid: pointer}, workspace_pointer, handle=)``, ``serialize()`` (a list of byte
values; only after ``build_plans``: on an unbuilt graph the 1.14 binding crashes), ``pygraph(handle=)`` then
``deserialize(list of byte values)`` (the binding refuses ``bytes``); sources:
samples/python/00_introduction.ipynb (handle, pygraph, tensor, conv_fprop, build, execute), 20_layernorm.ipynb
(set_uid, uid-keyed variant packs), test/python/test_wgrads.py (set_stream, conv_wgrad, the build steps,
set_output().set_dim()), python/pygraph/pygraph.cpp and python/properties.cpp (keyword names, pre/post padding,
conv_dgrad, deselect_numeric_notes, create_device_properties, the exceptions each error code raises, serialize and
deserialize), samples/python/02_sdpa_graph_serialization.ipynb (a built graph serialized, loaded into ``pygraph()`` and
executed).
"""
import collections
import importlib
import math
import os
import threading
import warnings

import numpy

from mindspore_gpu._per_cupy import PerCupy
from mindspore_gpu.plans import Plans
from mindspore_gpu.verdicts import Verdicts

__all__ = ["Convolutions", "for_cupy", "Spec", "describe", "build", "environment_info", "ENV", "MIN_VERSION"]

#: ``MS_GPU_CUDNN=0`` turns the cuDNN path off.
ENV = "MS_GPU_CUDNN"
#: cuDNN 9.0.0 in ``cudnn.backend_version()``'s encoding (major * 10000 + minor * 100 + patch).
MIN_VERSION = 90000
NO_FRONTEND = ("the cuDNN frontend is not installed (pip install mindspore-gpu[cuda13] for CUDA 13.x, "
               "mindspore-gpu[cuda12] for 12.x: nvidia-cudnn-frontend and nvidia-cudnn-cu13/-cu12)")
OFF = f"turned off by {ENV}=0"
STAND_IN = "the CuPy stand-in has no cuDNN"

#: The dtypes cuDNN convolves, by NumPy name: (frontend data_type name, compute data_type name).
DTYPES = {"float16": ("HALF", "FLOAT"), "bfloat16": ("BFLOAT16", "FLOAT"), "float32": ("FLOAT", "FLOAT"),
          "float64": ("DOUBLE", "DOUBLE")}
#: uids of the graph's tensors: the two operands (in the order of :class:`Spec`) and the result.
UID_A, UID_B, UID_OUT = 1, 2, 3
#: The most built graphs (and refused cases) kept; past it the oldest is dropped.
GRAPH_LIMIT = 1024
OPS = ("fprop", "dgrad", "wgrad")

#: One convolution as cuDNN sees it. ``op``: 'fprop' (a = X, b = W, out = Y), 'dgrad' (a = DY, b = W, out = DX) or
#: 'wgrad' (a = X, b = DY, out = DW); dims and strides in elements; ``pre``/``post``/``stride``/``dilation`` per
#: spatial axis.
Spec = collections.namedtuple("Spec", ["op", "dtype", "a_dim", "a_stride", "b_dim", "b_stride", "out_dim", "pre",
                                       "post", "stride", "dilation"])

#: A built case: ``stored`` is ``(environment, case key)`` when its plan was loaded from disk (:data:`PLANS`), else
#: ``None``; ``key`` is its key in the built graphs.
_Entry = collections.namedtuple("_Entry", ["graph", "workspace", "handle", "out_dim", "dtype", "check", "key",
                                           "stored"])


def packed(dims):
    """Row-major (NCHW) strides, in elements, of an array of ``dims``."""
    strides, step = [], 1
    for d in reversed(dims):
        strides.append(step)
        step *= max(int(d), 1)
    return tuple(reversed(strides))


def _env_on():
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _tf32():
    return os.environ.get("CUPY_TF32", "0").strip() not in ("", "0")


def _deterministic():
    """``set_context(deterministic="ON")``: engines that may sum in another order run to run are left out."""
    try:
        from mindspore import context
        return context.get_context("deterministic") == "ON"
    except Exception:  # noqa: BLE001
        return False


def _out_size(n, pre, post, k, s, d):
    """cuDNN's (and the primitive's 'pad' mode's) output size along one axis."""
    return (n + pre + post - (k - 1) * d - 1) // s + 1


def describe(cudnn, spec, **graph_args):
    """The validated frontend graph of ``spec`` (``graph_args`` go to ``cudnn.pygraph``: ``handle=`` to build it,
    ``device_property=`` to describe it without a device). Dims, strides, dtype and uid of every tensor are set
    explicitly, the output's too."""
    io_name, compute_name = DTYPES[spec.dtype]
    io, compute = getattr(cudnn.data_type, io_name), getattr(cudnn.data_type, compute_name)
    graph = cudnn.pygraph(io_data_type=io, intermediate_data_type=compute, compute_data_type=compute, **graph_args)
    names = {"fprop": ("X", "W"), "dgrad": ("DY", "W"), "wgrad": ("X", "DY")}[spec.op]
    a = graph.tensor(name=names[0], dim=list(spec.a_dim), stride=list(spec.a_stride), data_type=io, uid=UID_A)
    b = graph.tensor(name=names[1], dim=list(spec.b_dim), stride=list(spec.b_stride), data_type=io, uid=UID_B)
    conv = dict(pre_padding=list(spec.pre), post_padding=list(spec.post), stride=list(spec.stride),
                dilation=list(spec.dilation), compute_data_type=compute, name=spec.op)
    if spec.op == "fprop":
        out = graph.conv_fprop(image=a, weight=b, **conv)
    elif spec.op == "dgrad":
        out = graph.conv_dgrad(loss=a, filter=b, **conv)
    else:
        out = graph.conv_wgrad(image=a, loss=b, **conv)
    out.set_output(True).set_dim(list(spec.out_dim)).set_stride(list(packed(spec.out_dim))).set_data_type(io)
    out.set_uid(UID_OUT)
    graph.validate()
    return graph


def build(cudnn, spec, handle, tf32=False, deterministic=False):
    """``(graph, workspace bytes)``: :func:`describe` built into execution plans on ``handle``'s device. float32
    without ``tf32`` deselects the engines noted TENSOR_CORE (TF32), ``deterministic`` those noted NONDETERMINISTIC."""
    graph = describe(cudnn, spec, handle=handle)
    graph.build_operation_graph()
    graph.create_execution_plans([cudnn.heur_mode.A, cudnn.heur_mode.FALLBACK])
    notes = []
    if spec.dtype == "float32" and not tf32:
        notes.append(cudnn.numerical_note.TENSOR_CORE)
    if deterministic:
        notes.append(cudnn.numerical_note.NONDETERMINISTIC)
    if notes:
        graph.deselect_numeric_notes(notes)
    graph.check_support()
    graph.build_plans()
    return graph, int(graph.get_workspace_size())


def _layout(a):
    """``a``'s strides in elements if cuDNN can read it as it is (C-contiguous, or a dense permutation such as
    channels-last), else ``None``."""
    if a.flags.c_contiguous:
        return packed(a.shape)
    item = a.itemsize
    if any(s <= 0 or s % item for s in a.strides):
        return None
    strides = tuple(s // item for s in a.strides)
    step = 1
    for i in sorted(range(a.ndim), key=lambda i: strides[i]):
        if strides[i] != step:
            return None
        step *= a.shape[i]
    return strides


_DTYPE_NAMES = {}


def _device_pointer(a):
    return a.data.ptr


#: Per thread: ``bypass`` (every path declines: the known-answer check's reference calls, which reach the conv kernels
#: and so a path again, run im2col) and ``checking`` (a known-answer check is running).
_LOCAL = threading.local()


class Convolutions:
    """The cuDNN convolutions of one CuPy module (see the module docstring). ``pointer(array)`` gives the device
    address handed to cuDNN (``array.data.ptr``; a test may replace it)."""

    def __init__(self, cupy):
        self.cupy = cupy
        self.pointer = _device_pointer
        self._local = _LOCAL
        self._lock = threading.RLock()
        self.reset()

    def reset(self):
        """Forget everything: availability (``MS_GPU_CUDNN`` is read again), handles, built graphs, checks."""
        self._status = None          # None: not probed; True: usable; str: why not
        self.module = None
        self.version = None
        self._handles = {}           # device id -> handle
        self._bound = {}             # handle -> the stream it is bound to
        self._graphs = {}            # key -> _Entry, or False (cuDNN refused the case)
        self._checked = set()        # (op, rank, dtype) checked against im2col
        self._disabled = {}          # (op, rank, dtype) -> reason
        self._warned_build = set()   # (op, rank, dtype) warned once of a graph that failed to build
        self.wrong = {}              # (op, rank, dtype) -> dims of the cases cuDNN answered wrongly (run im2col)
        self.stats = collections.Counter()
        self._environments = {}      # device id -> what the checks' verdicts depend on but the flags, or False
        self._remembered = set()     # (op, rank, dtype) whose known-answer check passed in an earlier process
        self.remembered = collections.Counter()   # checks not run, passed in an earlier process: kind -> count

    # --- availability ----------------------------------------------------------------------------------------
    def status(self):
        """``True`` when cuDNN is usable on the current device, else the reason (a string)."""
        if self._status is None:
            with self._lock:
                if self._status is None:
                    self._status = self._probe()
        return self._status

    def _probe(self):
        if not _env_on():
            return OFF
        try:
            module = importlib.import_module("cudnn")
        except ModuleNotFoundError as exc:
            if exc.name in ("cudnn", None):
                return NO_FRONTEND
            return f"the cuDNN frontend failed to import ({type(exc).__name__}: {exc})"
        except OSError as exc:   # libcudnn.so.9 not found: the frontend wheel without the cuDNN library wheel
            return (f"the cuDNN library could not be loaded ({exc}; pip install nvidia-cudnn-cu13 for CUDA 13.x, "
                    f"nvidia-cudnn-cu12 for 12.x)")
        except Exception as exc:  # noqa: BLE001 - a broken install must not break the kernels
            return f"the cuDNN frontend failed to import ({type(exc).__name__}: {exc})"
        if getattr(self.cupy, "__sim__", False) and not getattr(module, "__sim__", False):
            return STAND_IN
        try:
            version = int(module.backend_version())
            text = str(module.backend_version_string())
        except Exception as exc:  # noqa: BLE001
            return f"the cuDNN library's version is unknown ({type(exc).__name__}: {exc})"
        self.module, self.version = module, text
        if version < MIN_VERSION:
            return f"cuDNN {text} is too old: 9.0 or later is needed (pip install nvidia-cudnn-cu13 or -cu12)"
        try:
            self._handle(self.cupy.cuda.Device().id)
        except Exception as exc:  # noqa: BLE001 - no device, no driver, out of memory
            return f"no cuDNN handle on the current device ({type(exc).__name__}: {exc})"
        return True

    def _usable(self):
        """:meth:`status` is ``True`` (probed now if it was not, but never while the current stream captures: making
        a handle is not capturable)."""
        if self._status is None and self._capturing():
            return False
        return self.status() is True

    # (for mindspore_gpu.cudnn_attention, which shares this probe, the handles and their stream binding)
    def usable(self):
        """Whether cuDNN can be used now (probed at the first call, never while the current stream captures)."""
        return self._status is True or self._usable()

    def capturing(self):
        """Whether the current stream is capturing (building a graph or checking it would break the capture)."""
        return self._capturing()

    def handle(self, device):
        """The cuDNN handle of ``device`` (made once)."""
        return self._handle(device)

    def environment(self, device):
        """What a plan or a check's verdict on ``device`` depends on (the key of :data:`VERDICTS` and
        :data:`PLANS`), or ``None`` when unknown (then nothing is kept)."""
        return self._environment(device)

    def bound_handle(self, device):
        """The cuDNN handle of ``device``, bound to CuPy's current stream."""
        handle = self._handle(device)
        stream = self.cupy.cuda.get_current_stream().ptr
        if self._bound.get(handle) != stream:
            self.module.set_stream(handle=handle, stream=stream)
            self._bound[handle] = stream
        return handle

    def _handle(self, device):
        handle = self._handles.get(device)
        if handle is None:
            with self.cupy.cuda.Device(device):
                handle = self.module.create_handle()
            self._handles[device] = handle
        return handle

    def describe_status(self):
        """One line for ``python -m mindspore.info``."""
        status = self.status()
        if status is True:
            front = getattr(self.module, "__version__", "?")
            where, plans = VERDICTS.path, PLANS.folder
            kept = f"; checks passed kept in {where}" if where else ""
            kept += f"; plans kept in {plans}" if plans else ""
            return (f"{self.version} (frontend {front}): convolutions on cuDNN, checked against im2col at first use"
                    f"{kept}")
        if self.version is not None:
            status = f"cuDNN {self.version}: {status}"
        return f"unused ({status}); convolutions are im2col + cuBLAS"

    def summary(self):
        """What ran where: the status line, then per (op, rank, dtype) the calls on cuDNN and on im2col, the
        known-answer checks passed and the ops turned off (with the reason)."""
        lines = [f"cuDNN: {self.describe_status()}"]
        if PLANS.stats:
            lines.append("plans on disk: " + ", ".join(f"{n} {what}" for what, n in sorted(PLANS.stats.items())))
        per = {}
        for (op, nd, dtype, kind), n in self.stats.items():
            per.setdefault((op, nd, dtype), {})[kind] = n
        for check in sorted(set(per) | set(self._disabled) | set(self.wrong)):
            op, nd, dtype = check
            counts = per.get(check, {})
            line = f"{op} {nd}-D {dtype}: {counts.get('cudnn', 0)} on cuDNN, {counts.get('fallback', 0)} on im2col"
            if check in self._checked:
                line += ", known-answer check passed" + (" (in an earlier process)" if check in self._remembered else "")
            if check in self._disabled:
                line += f", turned off: {self._disabled[check]}"
            if check in self.wrong:
                line += f", {len(self.wrong[check])} case(s) answered wrongly, on im2col: {self.wrong[check][:3]}"
            lines.append(line)
        return "\n".join(lines)

    # --- the three convolutions ------------------------------------------------------------------------------
    def forward(self, prim, x, w, reference):
        """``Conv(x, w)`` of primitive ``prim`` (output (N, C_out, *out)), or ``None``. ``reference`` is the
        caller's im2col kernel ``(prim, x, w, out=None)``, used by the known-answer check."""
        if self._status is not True and not self._usable():
            return None
        _, _, _, win = prim.geometry_for(x.shape)
        out = (x.shape[0], w.shape[0]) + tuple(win.out)
        return self._run("fprop", prim, x, w, out, win, reference)

    def backward_input(self, prim, dout, w, input_size, reference):
        """The gradient with respect to the input (shape ``input_size``) of ``Conv(x, w)`` given ``dout``, or
        ``None``. ``reference``: the caller's im2col kernel ``(prim, dout, w, input_size, out=None)``."""
        if self._status is not True and not self._usable():
            return None
        size = tuple(int(s) for s in input_size)
        _, _, _, win = prim.geometry_for(size)
        return self._run("dgrad", prim, dout, w, size, win, reference)

    def backward_filter(self, prim, dout, x, filter_size, reference):
        """The gradient with respect to the weight (shape ``filter_size``) of ``Conv(x, w)`` given ``dout``, or
        ``None``. ``reference``: the caller's im2col kernel ``(prim, dout, x, filter_size, out=None)``."""
        if self._status is not True and not self._usable():
            return None
        _, _, _, win = prim.geometry_for(x.shape)
        return self._run("wgrad", prim, x, dout, tuple(int(s) for s in filter_size), win, reference)

    # --- the common path ---------------------------------------------------------------------------------------
    def _run(self, op, prim, a, b, out_dim, win, reference):
        cupy = self.cupy
        if getattr(self._local, "bypass", False) or not (isinstance(a, cupy.ndarray) and isinstance(b, cupy.ndarray)):
            return None
        dt = a.dtype
        name = _DTYPE_NAMES.get(dt)
        if name is None:      # (dtype.name is computed in Python by NumPy: microseconds on every call)
            name = _DTYPE_NAMES[dt] = dt.name
        nd = a.ndim - 2
        if b.dtype != dt or name not in DTYPES or not a.size or not b.size or not math.prod(out_dim):
            self.stats[(op, nd, name, "fallback")] += 1
            return None
        a_stride, b_stride = _layout(a), _layout(b)
        if a_stride is None:
            a = cupy.ascontiguousarray(a)
            a_stride = packed(a.shape)
        if b_stride is None:
            b = cupy.ascontiguousarray(b)
            b_stride = packed(b.shape)
        spec = Spec(op, name, a.shape, a_stride, b.shape, b_stride, out_dim, win.before, win.after,
                    tuple(prim.stride[2:]), tuple(prim.dilation[2:]))
        device = cupy.cuda.runtime.getDevice()
        key = (spec, device)
        entry = self._graphs.get(key)
        if entry is None:
            entry = self._prepare(key, spec, nd, device, prim, reference)
        if not entry:
            self.stats[(op, nd, name, "fallback")] += 1
            return None
        y = self._execute(entry, op, a, b)
        if y is None:
            self.stats[(op, nd, name, "fallback")] += 1
            return None
        self.stats[(op, nd, name, "cudnn")] += 1
        return y

    def _execute(self, entry, op, a, b):
        """The built graph of ``entry`` run on ``a`` and ``b`` on the current stream: the output, or ``None`` after
        an error (which turns the op off)."""
        cupy = self.cupy
        dt = a.dtype
        # (an engine must write its whole output: the known-answer check runs twice, the second time over memory that
        # held the first result, and the per-case check over whatever the pool gives)
        y = cupy.empty(entry.out_dim, dt)
        ws = cupy.empty(entry.workspace, numpy.uint8) if entry.workspace else None
        stream = cupy.cuda.get_current_stream().ptr
        handle = entry.handle
        try:
            if self._bound.get(handle) != stream:
                self.module.set_stream(handle=handle, stream=stream)
                self._bound[handle] = stream
            entry.graph.execute({UID_A: self.pointer(a), UID_B: self.pointer(b), UID_OUT: self.pointer(y)},
                                self.pointer(ws) if ws is not None else 0, handle=handle)
        except Exception as exc:  # noqa: BLE001 - any cuDNN error: this op goes back to im2col for good
            if entry.stored is not None:
                # a plan loaded from disk that does not run: thrown away, and the case built afresh at its next call
                PLANS.discard(*entry.stored)
                with self._lock:
                    if self._graphs.get(entry.key) is entry:
                        del self._graphs[entry.key]
                return None
            self._disable(entry.check, f"execute failed ({type(exc).__name__}: {exc})")
            return None
        return y

    def _prepare(self, key, spec, nd, device, prim, reference, load=True):
        """The built graph of ``key`` after the known-answer check of its (op, rank, dtype); ``False`` when cuDNN
        refuses the case or the op is off; ``None`` (not remembered) while the current stream captures. The graph
        is the plan stored on disk by an earlier process when there is one (and ``load``), else built (and its plan
        stored once its check passed)."""
        check = (spec.op, nd, spec.dtype)
        if check in self._disabled:
            return False
        if self._capturing():
            return None
        sizes, kernel, outs = {"fprop": (spec.a_dim, spec.b_dim, spec.out_dim),
                               "dgrad": (spec.out_dim, spec.b_dim, spec.a_dim),
                               "wgrad": (spec.a_dim, spec.out_dim, spec.b_dim)}[spec.op]
        if any(_out_size(n, *geometry) != o for n, o, geometry in zip(
                sizes[2:], outs[2:], zip(spec.pre, spec.post, kernel[2:], spec.stride, spec.dilation))):
            self._graphs[key] = False     # a window cuDNN would size otherwise: not for cuDNN
            return False
        checking = getattr(self._local, "checking", False)
        environment = None if checking else self._environment(device)
        if check not in self._checked and not checking:
            known = "{} {}-D {}".format(*check)
            if environment is not None and VERDICTS.passed(environment, "known-answer", known):
                self._checked.add(check)          # passed in an earlier process on this machine
                self.remembered["known-answer"] += 1
                self._remembered.add(check)
            elif self._known_answer(check, reference):
                if environment is not None:
                    VERDICTS.remember(environment, "known-answer", known)
            else:
                return False
        case = _case_key(spec)
        stored = None
        try:
            handle = self._handle(device)
            with self.cupy.cuda.Device(device):
                built = None
                if load and environment is not None:
                    built = PLANS.restore(environment, case, self.module, handle)
                    stored = (environment, case) if built is not None else None
                graph, workspace = built or build(self.module, spec, handle, tf32=_tf32(),
                                                  deterministic=_deterministic())
        except Exception as exc:  # noqa: BLE001 - cudnnGraphNotSupportedError: no engine takes this case
            self._graphs[key] = False
            refused = isinstance(exc, getattr(self.module, "cudnnGraphNotSupportedError", ()))
            if not refused and check not in self._warned_build:
                self._warned_build.add(check)
                warnings.warn(f"cuDNN could not build a {spec.op} graph ({spec.dtype}, {nd}-D) for dims "
                              f"{spec.a_dim}, {spec.b_dim} ({type(exc).__name__}: {exc}); such cases run im2col + "
                              f"cuBLAS", RuntimeWarning, stacklevel=4)
            return False
        entry = _Entry(graph, workspace, handle, spec.out_dim, spec.dtype, check, key, stored)
        if len(self._graphs) >= GRAPH_LIMIT:        # shapes that keep changing: drop the oldest
            del self._graphs[next(iter(self._graphs))]
        if not checking:
            # (a plan loaded from disk is checked itself once: the first process that loads it)
            kind = "case" if stored is None else "stored plan"
            if environment is not None and VERDICTS.passed(environment, kind, case):
                reason = None                     # passed in an earlier process on this machine
                self.remembered[kind] += 1
            else:
                reason = self._case_check(entry, spec, prim, reference)
                if reason is None and environment is not None:
                    VERDICTS.remember(environment, kind, case)
            if reason is not None and stored is not None:
                # a stored plan that does not run or answers wrongly: thrown away, and the case built afresh
                PLANS.discard(*stored)
                if check in self._disabled:
                    return False
                return self._prepare(key, spec, nd, device, prim, reference, load=False)
            if reason is None and stored is None and environment is not None:
                PLANS.keep(environment, case, graph)
            if reason is not None:
                self._graphs[key] = False
                self.wrong.setdefault(check, []).append((spec.a_dim, spec.b_dim, spec.out_dim))
                if check in self._disabled:
                    return False
                warnings.warn(f"cuDNN answered a {spec.op} ({nd}-D, {spec.dtype}) of dims {spec.a_dim}, {spec.b_dim} "
                              f"-> {spec.out_dim} (padding {spec.pre}/{spec.post}, stride {spec.stride}, dilation "
                              f"{spec.dilation}) wrongly: {reason}; that case runs im2col + cuBLAS", RuntimeWarning,
                              stacklevel=4)
                return False
        self._graphs[key] = entry
        return entry

    def _case_check(self, entry, spec, prim, reference):
        """``None`` if the built graph gives the caller's im2col result on operands of the case's own dims and strides
        (seeded small integers), else what differs. Run once per case, when it is built: cuDNN 9.19 on an H200 gave
        wrong filter gradients for some before/after paddings that its known-answer cases did not have."""
        cupy = self.cupy
        dt = _numpy_dtype(spec.dtype)
        rng = numpy.random.default_rng(7)

        def operand(dim, stride):
            size = 1 + sum((d - 1) * s for d, s in zip(dim, stride))
            flat = cupy.asarray(rng.integers(-2, 3, size).astype(dt))
            return cupy.lib.stride_tricks.as_strided(flat, dim, tuple(s * flat.itemsize for s in stride))
        a, b = operand(spec.a_dim, spec.a_stride), operand(spec.b_dim, spec.b_stride)
        got = self._execute(entry, spec.op, a, b)
        if got is None:
            return "execute failed"
        self._local.bypass = True
        try:
            if spec.op == "fprop":
                want = reference(prim, a, b, out=None)
            elif spec.op == "dgrad":
                want = reference(prim, a, b, spec.out_dim, out=None)
            else:
                want = reference(prim, b, a, spec.out_dim, out=None)
        finally:
            self._local.bypass = False
        g, w = cupy.asnumpy(got).astype(numpy.float64), cupy.asnumpy(want).astype(numpy.float64)
        if g.shape != w.shape:
            return f"shape {g.shape} instead of {w.shape}"
        scale = max(1.0, float(numpy.abs(w).max(initial=0.0)))
        err = numpy.abs(g - w)
        if not (err <= CASE_RTOL[spec.dtype] * scale).all():     # a NaN too
            i = tuple(int(j) for j in numpy.argwhere(~(err <= CASE_RTOL[spec.dtype] * scale))[0])
            return f"at {i}: {g[i]!r} instead of {w[i]!r}"
        return None

    def _environment(self, device):
        """What a check's verdict depends on (cuDNN's and the frontend's versions, the device, the driver and the
        runtime, the engine choices of the flags), as the key of :data:`VERDICTS`; ``None`` when unknown (then every
        check runs)."""
        base = self._environments.get(device)
        if base is None:
            try:
                runtime = self.cupy.cuda.runtime
                props = runtime.getDeviceProperties(device)
                name = props["name"]
                name = name.decode() if isinstance(name, bytes) else str(name)
                base = (f"cuDNN {int(self.module.backend_version())} frontend "
                        f"{getattr(self.module, '__version__', '?')}; {name} sm_{props['major']}{props['minor']}; "
                        f"driver {runtime.driverGetVersion()} runtime {runtime.runtimeGetVersion()}")
            except Exception:  # noqa: BLE001 - no properties (a stand-in without them): nothing is remembered
                base = False
            self._environments[device] = base
        if not base:
            return None
        return f"{base}; tf32 {int(_tf32())} deterministic {int(_deterministic())}"

    def _capturing(self):
        try:
            return bool(self.cupy.cuda.get_current_stream().is_capturing())
        except Exception:  # noqa: BLE001 - a CuPy without is_capturing: take it as capturing (no host syncs)
            return True

    def _disable(self, check, reason):
        with self._lock:
            if check in self._disabled:
                return
            self._disabled[check] = reason
            for key in [k for k in self._graphs if k[0].op == check[0] and len(k[0].a_dim) - 2 == check[1]
                        and k[0].dtype == check[2]]:
                del self._graphs[key]
        op, nd, dtype = check
        warnings.warn(f"cuDNN {op} ({nd}-D, {dtype}) is turned off for this process: {reason}; it runs im2col + "
                      f"cuBLAS instead", RuntimeWarning, stacklevel=4)

    # --- the known-answer check --------------------------------------------------------------------------------
    def _known_answer(self, check, reference):
        """Run the :data:`CHECK_CASES` of ``check`` through cuDNN and through ``reference`` (the im2col kernel, with
        this path bypassed); ``True`` if they agree (then remembered), else the op is turned off. The first case
        (even padding) must run on cuDNN; the second (uneven padding) may be refused (such cases then are too)."""
        op, nd, dtype = check
        cupy = self.cupy
        method = {"fprop": self.forward, "dgrad": self.backward_input, "wgrad": self.backward_filter}[op]
        self._local.checking = True
        stats = self.stats.copy()         # the check's own calls are not counted
        reason = None
        try:
            for index in range(len(CHECK_CASES[nd])):
                prim, *args = known_answer_case(nd, op, _numpy_dtype(dtype), index)
                args = [cupy.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args]
                got = method(prim, *args, reference)
                if got is None:
                    if check in self._disabled:
                        return False
                    if index == 0:
                        reason = "cuDNN refused the check's case"
                        break
                    continue
                # twice: the second run gets the first one's output and workspace memory back from CuPy's pool,
                # so an engine that reads either (adds into its output, expects a zeroed workspace) is caught
                first, got = cupy.asnumpy(got), None
                got = method(prim, *args, reference)
                self._local.bypass = True
                try:
                    want = reference(prim, *args, out=None)
                finally:
                    self._local.bypass = False
                want = cupy.asnumpy(want)
                reason = _compare(first, want, dtype) or _compare(cupy.asnumpy(got), want, dtype)
                if reason is not None and index > 0:
                    # uneven padding answered wrongly (cuDNN 9.19 on an H200, 3-D float16 filter gradients): not the
                    # op's fault as a whole; each case is checked when it is built (_case_check)
                    self.wrong.setdefault(check, []).append(f"known-answer case {index}: {reason}")
                    reason = None
                    continue
                if reason is not None:
                    reason = f"case {index}: {reason}"
                    break
        except Exception as exc:  # noqa: BLE001 - an error while checking turns the op off as a mismatch does
            reason = f"the check failed ({type(exc).__name__}: {exc})"
        finally:
            self._local.checking = False
            self.stats = stats
        if reason is None:
            self._checked.add(check)
            return True
        self._disable(check, f"its known-answer check against im2col failed: {reason}")
        return False


#: The checks passed on this machine (:mod:`mindspore_gpu.verdicts`): ``cudnn_checks.json`` in the GPU cache folder.
VERDICTS = Verdicts("cudnn_checks.json")
#: The plans built on this machine (:mod:`mindspore_gpu.plans`), shared with :mod:`mindspore_gpu.cudnn_attention`.
PLANS = Plans()


def _case_key(spec):
    """The verdicts' key of a case: every field of its :class:`Spec`."""
    return " ".join(f"{name}={value if isinstance(value, str) else ','.join(str(int(v)) for v in value)}"
                    for name, value in zip(Spec._fields, spec))


def _numpy_dtype(name):
    if name == "bfloat16":
        import ml_dtypes
        return ml_dtypes.bfloat16
    return numpy.dtype(name)


#: relative tolerance of the known-answer check per dtype (the data are small integers: a correct result is exact
#: up to the output dtype's rounding)
CHECK_RTOL = {"float16": 1e-3, "bfloat16": 8e-3, "float32": 1e-6, "float64": 1e-12}
#: The per-case check's tolerance, relative to the largest value of the result (its sums are not exact in half
#: precision, nor in float32 under TF32): a wrong window or a doubled sum is off by far more.
CASE_RTOL = {"float16": 2e-2, "bfloat16": 5e-2, "float32": 2e-3, "float64": 1e-9}


def _compare(got, want, dtype):
    """``None`` if ``got`` equals ``want`` within the dtype's tolerance, else what differs."""
    if got.shape != want.shape:
        return f"shape {got.shape} instead of {want.shape}"
    g, w = got.astype(numpy.float64), want.astype(numpy.float64)
    bad = ~(numpy.abs(g - w) <= CHECK_RTOL[dtype] * numpy.abs(w) + 1e-6)     # a NaN where none belongs too
    bad &= ~(numpy.isnan(g) & numpy.isnan(w))
    if bad.any():
        i = tuple(int(j) for j in numpy.argwhere(bad)[0])
        return f"{int(bad.sum())} of {bad.size} values differ (at {i}: {g[i]!r} instead of {w[i]!r})"
    return None


#: The known-answer cases per rank: the primitive's geometry (groups, a stride and a dilation above 1 on different
#: axes; even padding, then uneven) and the shapes of x and the weight. (Changing them or the tolerances above, bump
#: ``verdicts.VERSION``: passes remembered under the old checks must not count.)
CHECK_CASES = {
    2: [dict(x=(2, 4, 7, 8), w=(6, 2, 3, 2), pad=(1, 1, 2, 2), stride=(2, 1), dilation=(1, 2), group=2),
        dict(x=(2, 4, 7, 8), w=(6, 2, 3, 2), pad=(1, 0, 2, 1), stride=(2, 1), dilation=(1, 2), group=2)],
    3: [dict(x=(1, 4, 5, 6, 5), w=(4, 2, 2, 3, 2), pad=(1, 1, 0, 0, 1, 1), stride=(1, 2, 1), dilation=(2, 1, 1),
             group=2),
        dict(x=(1, 4, 5, 6, 5), w=(4, 2, 2, 3, 2), pad=(1, 0, 0, 1, 1, 1), stride=(1, 2, 1), dilation=(2, 1, 1),
             group=2)],
}


def known_answer_case(nd, op, dtype, index=0, seed=1234):
    """``(primitive, *arguments)`` of the known-answer check for ``op`` in ``nd`` D, in the kernels' argument order
    (fprop: x, w; dgrad: dout, w, the input size; wgrad: dout, x, the filter size), the arrays on the host, of small
    integers (exact in every dtype and in any summation order)."""
    from mindspore import ops
    case = CHECK_CASES[nd][index]
    cls = ops.Conv2D if nd == 2 else ops.Conv3D
    prim = cls(case["w"][0], case["w"][2:], pad_mode="pad", pad=case["pad"], stride=case["stride"],
               dilation=case["dilation"], group=case["group"])
    rng = numpy.random.RandomState(seed)
    x = rng.randint(-2, 3, size=case["x"]).astype(dtype)
    w = rng.randint(-2, 3, size=case["w"]).astype(dtype)
    _, _, _, win = prim.geometry_for(case["x"])
    dout = rng.randint(-2, 3, size=(case["x"][0], case["w"][0]) + tuple(win.out)).astype(dtype)
    if op == "fprop":
        return prim, x, w
    if op == "dgrad":
        return prim, dout, w, case["x"]
    return prim, dout, x, case["w"]


# --- one instance per CuPy module ----------------------------------------------------------------------------------
_PATHS = PerCupy(Convolutions)


def for_cupy(cupy):
    """The :class:`Convolutions` of CuPy module ``cupy`` (the real one, or the test stand-in), made once."""
    return _PATHS(cupy)


def environment_info(cupy):
    """cuDNN's line of ``python -m mindspore.info``: its version and use, or why it is unused. Never raises."""
    return _PATHS.describe(cupy)
