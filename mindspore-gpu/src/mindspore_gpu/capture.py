"""CUDA-graph replay of steady-state GRAPH_MODE steps (the GPU runtime's ``graph_runner``).

A compiled graph runs kernel by kernel: one Python call and one CUDA launch per operator, which decides the
step time of small networks on a GPU. From its third call on (:data:`WARMUP_RUNS` plain calls first: the
first is the executor's checked run, and by then CuPy has compiled every kernel of these shapes), a graph
with static shapes is run once more under stream capture into a ``cupy.cuda.graph.Graph``, and later calls
launch that graph: one launch for the whole step.

Design
------
* **Capture.** On a private non-blocking stream (CUDA can not capture the legacy default stream), after it
  waits for the work queued on the caller's stream, in CuPy's relaxed capture mode (CuPy's default: the
  memory pool may ``cudaMalloc`` while capturing). Captured work does not execute: the capturing call then
  launches the graph to compute its own results, so every in-place write happens exactly once.
* **Memory.** Everything allocated while capturing (intermediates, the outputs) comes from a private
  ``cupy.cuda.MemoryPool`` (``cupy.cuda.using_allocator``) that lives as long as the graph: the addresses
  baked into the graph are never handed to other arrays, and ``ms.runtime.empty_cache()`` (the default
  pool's ``free_all_blocks``) never frees them under it. A dropped runner's pool, graph and cuBLAS handle are freed
  when no capture is in progress in any thread, kept until the last one ends otherwise: freeing device memory
  synchronises the device, which would invalidate that capture.
* **Inputs.** A graph's inputs are the call's tensors, then the network's Parameters (graph parameters with
  ``weight`` set). Parameters are updated in place by the optimizer kernels inside the step (``Assign``,
  ``ApplyMomentum``, Adam: ``kernels._common.store`` writes into the Parameter's own buffer), so their device
  buffers are the same objects from step to step: the graph reads and writes them directly, and each replay
  checks that every Parameter still has the buffer captured (``set_data``/``load_checkpoint`` that replace a
  buffer make the graph capture again after :data:`WARMUP_RUNS` calls). Every other input is copied into a
  static buffer before each launch (on the caller's stream, as the launch and the copies of the outputs), up to
  :data:`COPY_SLOTS` of them in one launch of a hand-written kernel (:func:`copy_many`: a PYNATIVE step's
  compiled optimizer update takes every gradient in).
* **Outputs.** Copied out of the graph's output buffers after each launch, as the inputs are copied in
  (:func:`copy_many`; an output that is an input is the call's own input); a value kept from an earlier step is never
  overwritten by a later replay.
* **Graphs with host decisions** (an ``If`` or ``While`` on a device value read back, as the loss-scaled step's
  ``if not overflow: optimizer(grads)``) are never given whole: the runtime sets ``DeviceRuntime.graph_segments``,
  so the executor gives this function each stretch of two or more kernels between the decisions, in the graph and in
  its branches and loop bodies (the executor's segmentation, in core), and each stretch is captured and replayed as a
  graph of its own (a loop body once per iteration); the decisions run on the host between the replays, each after
  the one read back it needs. A stretch whose replay would copy at least as many buffers (its inputs that are not
  Parameters, its outputs) as it has kernels runs kernel by kernel.
* **Refused graphs** (run kernel by kernel, silently): control flow decided on the host that still reaches a
  graph (a runtime without segments), random operators drawing from cuRAND (it advances its state on the host: a
  replay would draw the same numbers, and CuPy refuses cuRAND calls while capturing; the dropouts, ``UniformReal``
  and ``StandardNormal`` draw from a counter-based stream on the device instead, ``_common.counter_uniform``, so
  graphs holding them are captured, and a capture or a replay first rekeys their streams if ``set_seed`` was
  called), host-side and debug operators (``Print``, summaries, dumps), collectives, data-dependent output shapes,
  dynamic shapes, in-place writes into an input that is not a network Parameter (its static copy would be written
  instead).
* **What CUDA/CuPy refuse while capturing**: synchronisations and reads back to the host (``.get()``,
  ``asnumpy``, ``item()``, ``bool()`` of a device value), copies from pageable host memory, cuRAND, and cuBLAS:
  CuPy 14 raises ``NotImplementedError`` for every cuBLAS call made while a stream captures (``cublas.setStream``
  refuses; NVIDIA documents cuBLAS as capturable with a user workspace, CuPy does not expose that yet), so a
  graph with a matrix product or an im2col convolution is not captured by CuPy 14. Any such failure, or any
  other exception while capturing or launching, makes that graph run kernel by kernel for the rest of the
  process, with one warning naming the reason (per reason, per process); the call that failed runs plainly.
* **A capture-safe GEMM** (on by default, ``MS_GPU_CAPTURE_GEMM=0`` turns it off; checked on an H100 with CuPy
  14.2: MLP and transformer steps captured, losses equal to plain execution to 1e-7): while capturing,
  ``cupy.matmul`` of float32/float64 operands of two or more dimensions is replaced by
  ``cublas{S,D}gemmStridedBatched`` called through ``ctypes`` on a cuBLAS handle of this runner's own, bound to
  the capture stream and given a fixed workspace before the capture begins (NVIDIA's conditions for capturing
  cuBLAS: no stream change and no workspace allocation while capturing). Row-major products are computed as the
  column-major ``C^T = B^T A^T``; non-contiguous or broadcast operands are first made contiguous (a captured
  copy), an operand whose batch is 1 is read with batch stride 0; float16 and bfloat16 operands go to
  ``cublasGemmStridedBatchedEx`` with float32 compute (tensor cores, float32 accumulation rounded once: what CuPy's
  ``matmul`` and so the plain MatMul kernel do with them). Anything else (1-D operands, ``out=``, other dtypes)
  calls CuPy's ``matmul``, which refuses: the graph then runs kernel by kernel.
* **Memory.** A graph keeps a static copy of each of its inputs that is not a Parameter, and its private pool keeps
  its intermediates, between calls (a compiled PYNATIVE backward pass's inputs are the forward's saved tensors): a
  graph whose static copies would take more than :data:`MEMORY_SHARE` of the device memory free at its capture (the
  driver's free memory and the default pool's free blocks) is not captured and runs kernel by kernel, so capturing
  never turns a step that fits into one that runs out of memory.
* **Switch**: ``MS_GPU_GRAPH_CAPTURE=0`` (read when a graph is compiled) turns capture off.
* **Diagnosis**: CUDA reports an invalidated capture (``CUDA_ERROR_STREAM_CAPTURE_INVALIDATED``) at the next operation
  captured, not at the call that broke it. With ``MS_GPU_CAPTURE_DEBUG=1`` a profile hook asks CUDA after every call
  of the capture whether it is still active, and the warning names the first call after which it was not; refused
  graphs, calls not replayed (an input of another shape or dtype) and captures repeated (a Parameter's buffer replaced)
  are warned about too, once per reason.

Replays run the plain run's kernels on the same operands in the same order, matrix products excepted: those go
through the capture-safe GEMM (``cublas<t>gemmStridedBatched``), whose kernel may round differently in the last bits
from CuPy's ``matmul`` of the plain runs before the capture (on the H200 the benchmark workloads' first five losses
printed the same to six decimals with and without capture, but an evaluation loss with learning rate 0 moved by
float noise between its second, plain, and third, captured, epoch).
"""
from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
import warnings

import numpy

import cupy

from mindspore.plugin import (MAKE_TUPLE, TUPLE_GETITEM, Apply, Graph, Parameter, Primitive, graphs_of,
                              is_effectful_apply)

from mindspore_gpu.kernels import _common
from mindspore_gpu.kernels import families as _families

__all__ = ["graph_runner", "refusal", "GraphRunner", "CublasGemm", "GEMM_FACTORY", "WARMUP_RUNS", "STATS",
           "copy_many", "COPY_SLOTS"]

#: Plain runs of a graph before it is captured (the executor's checked first run included).
WARMUP_RUNS = 2
#: The most of the free device memory a graph's static input copies may take (else it is not captured).
MEMORY_SHARE = 0.25
#: Counters for tests and benchmarks: graphs captured, replays, graphs refused, captures failed, runners made (one per
#: compiled graph that may be captured), calls not replayed (an input of another shape or dtype, a Parameter's buffer
#: replaced: they ran kernel by kernel).
STATS = {"captured": 0, "replays": 0, "refused": 0, "failed": 0, "runners": 0, "misses": 0}
#: Kernel families whose operators are never captured.
_HOST_FAMILIES = {"debug": "a host-side operator", "summary": "a summary operator", "comm": "a collective",
                  "random": "a random operator"}
#: Operators of those families whose kernels run on the device alone (the overflow checks), so they are captured.
_DEVICE_SIDE = frozenset({"FloatStatus", "AllFinite", "UnscaleAndCheckFinite"})
_WARNED = set()
_MISS = object()
#: primitive name -> the short name of its kernel family
_FAMILY_OF = {name: family.__name__.rsplit(".", 1)[-1] for family in _families() for name in family.KERNELS}

#: Buffers one launch of ``ms_copy_many`` copies (a replay's inputs in launches of this many: 47 gradients, 3).
COPY_SLOTS = _common.SLOTS

#: One launch copies up to :data:`COPY_SLOTS` buffers (a hand-written kernel, ``_common.slots_source``: buffer s_k to
#: d_k, n_k bytes, for k = blockIdx.y; four-byte words where both are aligned to four, the tail or an unaligned pair
#: byte by byte). Fusion off, or a pair it can not take: ``cupy.copyto``, one launch each.
_COPY_MANY = _common.RawKernels("ms_copy_many", _common.slots_source("ms_copy_many", "char", "char", """
    long long bytes = 0;
    if ((((unsigned long long)s | (unsigned long long)d) & 3ull) == 0ull) {
        const long long words = n / 4;
        for (long long i = first; i < words; i += stride) ((int*)d)[i] = ((const int*)s)[i];
        bytes = words * 4;
    }
    for (long long i = bytes + first; i < n; i += stride) d[i] = s[i];"""), ("ms_copy_many",))


def copy_many(pairs):
    """``cupy.copyto(dst, src)`` for every ``(dst, src)`` of ``pairs`` on the current stream, in as few launches as
    :data:`COPY_SLOTS` allows for the pairs of C-contiguous arrays of one dtype and shape (``cupy.copyto`` for the
    others)."""
    raw = []
    for dst, src in pairs:
        if (_COPY_MANY.enabled() and src.dtype == dst.dtype and src.shape == dst.shape
                and src.flags.c_contiguous and dst.flags.c_contiguous and src.nbytes):
            raw.append((dst, src))
        elif src.size:
            cupy.copyto(dst, src)
    for start in range(0, len(raw), COPY_SLOTS):
        chunk = raw[start:start + COPY_SLOTS]
        if len(chunk) == 1:
            cupy.copyto(*chunk[0])
            continue
        try:      # (eight words per thread)
            _common.launch_slots(_COPY_MANY, "ms_copy_many", [(src, dst, src.nbytes) for dst, src in chunk], 32)
        except _common.FusedUnavailable:     # did not compile: the fused kernels are off, plain copies
            for dst, src in chunk:
                cupy.copyto(dst, src)


def _enabled():
    return os.environ.get("MS_GPU_GRAPH_CAPTURE", "1").strip() not in ("0", "false", "False", "")


def _debugging():
    return os.environ.get("MS_GPU_CAPTURE_DEBUG", "0").strip() not in ("0", "false", "False", "")


_RETURNS = frozenset({"return", "c_return", "c_exception"})
_CAPTURE_ACTIVE = 1      # cudaStreamCaptureStatusActive


def _stack(frame, depth=4):
    parts = []
    while frame is not None and len(parts) < depth:
        parts.append(f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno} in {frame.f_code.co_name}")
        frame = frame.f_back
    return " < ".join(parts)


class _Watch:
    """``MS_GPU_CAPTURE_DEBUG=1``: while a graph is captured, asks CUDA after every Python function or C call
    returns (in every thread on Python 3.12+, this one before) whether the capture is still active, and keeps the
    first call after which it is not. CUDA reports an invalidated capture only at the next operation captured,
    which did nothing wrong itself; this names the call that broke it."""

    def __init__(self, stream):
        self.ptr = stream.ptr
        self.found = None
        self._previous = None

    def _hook(self, frame, event, arg):
        if self.found is not None or event not in _RETURNS:
            return
        try:
            if cupy.cuda.runtime.streamIsCapturing(self.ptr) == _CAPTURE_ACTIVE:
                return
        except Exception:  # noqa: BLE001 - CUDA answers with an error: that is the same news
            pass
        name = getattr(arg, "__qualname__", None) or repr(arg) if event != "return" else frame.f_code.co_name
        self.found = f"{name} (thread '{threading.current_thread().name}': {_stack(frame)})"

    def __enter__(self):
        self._previous = sys.getprofile()
        sys.setprofile(self._hook)
        if hasattr(threading, "setprofile_all_threads"):
            threading.setprofile_all_threads(self._hook)
        return self

    def __exit__(self, *exc):
        if hasattr(threading, "setprofile_all_threads"):
            threading.setprofile_all_threads(None)
        sys.setprofile(self._previous)


def _gemm_enabled():
    return os.environ.get("MS_GPU_CAPTURE_GEMM", "1").strip() not in ("0", "false", "False", "")


# --- the capture-safe GEMM ---------------------------------------------------------------------------
_WORKSPACE_BYTES = 32 << 20
_OP_N = 0
# cudaDataType of the half types (library_types.h: CUDA_R_16F, CUDA_R_16BF), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT
_HALF_CUDA_TYPES = {_common.F16: 2, _common.BF16: 14}
_COMPUTE_32F = 68
_GEMM_DEFAULT = -1


def _loaded_library(stem):
    """The path of the shared library ``stem`` (``libcublas.so``) this process has loaded (CuPy loaded it)."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            if os.path.basename(path).startswith(stem + "."):
                return path
    raise OSError(f"{stem} is not loaded in this process")


class CublasGemm:
    """``gemm(a, b, c, m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c, batch)``: cuBLAS's column-major strided
    batched GEMM ``C = A B`` (no transposes) on device arrays, through ``ctypes`` on a handle of its own that is
    bound to ``stream`` with a fixed workspace (made before a capture begins)."""

    def __init__(self, stream):
        import ctypes
        self._ct = ctypes
        cupy.cuda.Device().cublas_handle       # makes CuPy load cuBLAS (its handle, once per device)
        lib = ctypes.CDLL(_loaded_library("libcublas.so"))
        self._lib = lib
        self.handle = ctypes.c_void_p()
        self._check("cublasCreate_v2", lib.cublasCreate_v2(ctypes.byref(self.handle)))
        self._check("cublasSetStream_v2", lib.cublasSetStream_v2(self.handle, ctypes.c_void_p(stream.ptr)))
        self.workspace = cupy.empty(_WORKSPACE_BYTES, dtype=cupy.uint8)
        self._check("cublasSetWorkspace_v2", lib.cublasSetWorkspace_v2(
            self.handle, ctypes.c_void_p(self.workspace.data.ptr), ctypes.c_size_t(_WORKSPACE_BYTES)))
        i, ll, p = ctypes.c_int, ctypes.c_longlong, ctypes.c_void_p
        for name in ("cublasSgemmStridedBatched", "cublasDgemmStridedBatched"):
            getattr(lib, name).argtypes = [p, i, i, i, i, i, p, p, i, ll, p, i, ll, p, p, i, ll, i]
            getattr(lib, name).restype = i
        lib.cublasGemmStridedBatchedEx.argtypes = [p, i, i, i, i, i, p, p, i, i, ll, p, i, i, ll, p, p, i, i, ll, i,
                                                   i, i]
        lib.cublasGemmStridedBatchedEx.restype = i
        self._scalars = {numpy.dtype(numpy.float32): (ctypes.c_float(1.0), ctypes.c_float(0.0)),
                         numpy.dtype(numpy.float64): (ctypes.c_double(1.0), ctypes.c_double(0.0))}

    @staticmethod
    def _check(what, status):
        if status != 0:
            raise RuntimeError(f"{what} returned cuBLAS status {status}")

    def gemm(self, a, b, c, m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c, batch):
        ct = self._ct
        half = _HALF_CUDA_TYPES.get(c.dtype)
        if half is not None:
            # float16/bfloat16 in and out, float32 compute (tensor cores; float32 alpha and beta), as CuPy's matmul
            one, zero = self._scalars[_common.F32]
            self._check("cublasGemmStridedBatchedEx", self._lib.cublasGemmStridedBatchedEx(
                self.handle, _OP_N, _OP_N, m, n, k, ct.addressof(one), a.data.ptr, half, lda, stride_a, b.data.ptr,
                half, ldb, stride_b, ct.addressof(zero), c.data.ptr, half, ldc, stride_c, batch, _COMPUTE_32F,
                _GEMM_DEFAULT))
            return
        one, zero = self._scalars[c.dtype]
        fn = self._lib.cublasSgemmStridedBatched if c.dtype == numpy.float32 else self._lib.cublasDgemmStridedBatched
        self._check(fn.__name__, fn(self.handle, _OP_N, _OP_N, m, n, k, ct.addressof(one), a.data.ptr, lda,
                                    stride_a, b.data.ptr, ldb, stride_b, ct.addressof(zero), c.data.ptr, ldc,
                                    stride_c, batch))

    def close(self):
        if getattr(self, "handle", None):
            self._lib.cublasDestroy_v2(self.handle)
            self.handle = None

    __del__ = close


#: Makes the GEMM of a capture: ``factory(stream) -> object with gemm(...)`` (tests put the stand-in's here).
GEMM_FACTORY = {"make": CublasGemm}


_GEMM_DTYPES = frozenset((_common.F32, _common.F64, *_HALF_CUDA_TYPES))


def _capture_matmul(gemm, plain, stream=None):
    """``cupy.matmul`` while capturing: float16/bfloat16/float32/float64 products of >= 2-D operands by ``gemm``
    (half types with float32 compute, as CuPy computes them); others ``plain``, and
    so are products launched on another stream than ``stream`` (another thread's, while the attribute is replaced)."""
    def matmul(x1, x2, out=None, **kwargs):
        if ((stream is not None and cupy.cuda.get_current_stream() != stream) or out is not None or kwargs
                or not isinstance(x1, cupy.ndarray) or not isinstance(x2, cupy.ndarray)
                or x1.ndim < 2 or x2.ndim < 2 or x1.dtype != x2.dtype):
            return plain(x1, x2, out=out, **kwargs)
        if x1.dtype not in _GEMM_DTYPES:
            return plain(x1, x2, out=out, **kwargs)
        m, k = x1.shape[-2:]
        k2, n = x2.shape[-2:]
        if k != k2:
            return plain(x1, x2)          # CuPy's error
        batch_shape = tuple(numpy.broadcast_shapes(x1.shape[:-2], x2.shape[:-2]))
        batch = int(numpy.prod(batch_shape, dtype=numpy.int64))
        if m == 0 or n == 0 or k == 0 or batch == 0:
            return plain(x1, x2)

        def operand(x, rows, cols):
            own = int(numpy.prod(x.shape[:-2], dtype=numpy.int64))
            if own == batch or own == 1:
                x = cupy.ascontiguousarray(x)
                return x, (rows * cols if own == batch and batch > 1 else 0)
            return cupy.ascontiguousarray(cupy.broadcast_to(x, batch_shape + (rows, cols))), rows * cols
        a, stride_a = operand(x1, m, k)
        b, stride_b = operand(x2, k, n)
        c = cupy.empty(batch_shape + (m, n), x1.dtype)
        # row-major C (m, n) = A (m, k) B (k, n)  <=>  column-major C^T (n, m) = B^T (n, k) A^T (k, m)
        gemm.gemm(b, a, c, n, m, k, n, k, n, stride_b, stride_a, m * n, batch)
        return c
    return matmul


# --- releasing a graph's CUDA resources only while nothing captures ----------------------------------------------
# Freeing device memory (cudaFree, when a dropped graph's private pool goes), destroying a cuBLAS handle or a graph
# synchronises the device, which invalidates a capture in progress on any stream: CUDA reports it later, at an
# operation of that capture which did nothing wrong. On the H200, MS_GPU_CAPTURE_DEBUG=1 found optimizer steps whose
# capture a collected capture GEMM's cublasDestroy had invalidated, and others broken during plain calls (isinstance)
# at which only a garbage collection can have freed anything. So a runner's resources go when no capture is in
# progress, and are kept until the last capture ends otherwise; the cyclic collector runs before and not during one.
_ACTIVE_LOCK = threading.RLock()
_ACTIVE = [0]            # captures in progress, in every thread
_RETIRED = []            # resources dropped during a capture, freed when the last one ends


def _retire(resources):
    """Drop ``resources`` (a runner's graph, pool, buffers, handles): now, or when no capture is in progress."""
    with _ACTIVE_LOCK:
        if _ACTIVE[0]:
            _RETIRED.append(resources)


_GC_WAS_ENABLED = [False]


@contextlib.contextmanager
def _capturing():
    """A capture in progress: Python's cyclic garbage collector is run before the first one begins and is off until
    the last one ends (a collection in the middle of a capture frees whatever cycles hold: a graph's private pool, a
    cuBLAS handle); resources dropped meanwhile are freed when the last one ends."""
    with _ACTIVE_LOCK:
        if _ACTIVE[0] == 0:
            gc.collect()       # (a runner it finalises frees now: _retire takes this reentrant lock)
            _GC_WAS_ENABLED[0] = gc.isenabled()
            gc.disable()
        _ACTIVE[0] += 1
    try:
        yield
    finally:
        with _ACTIVE_LOCK:
            _ACTIVE[0] -= 1
            last = _ACTIVE[0] == 0
            released = _RETIRED[:] if last else []
            if last:
                _RETIRED.clear()
            if last and _GC_WAS_ENABLED[0]:
                gc.enable()
        del released           # freed here, outside the lock, with no capture in progress


def _family_of(name):
    return None if name in _DEVICE_SIDE else _FAMILY_OF.get(name)


def _dynamic(ab):
    shape = getattr(ab, "shape", None)
    if shape is not None:
        return -1 in tuple(shape)
    elements = getattr(ab, "elements", None)
    return elements is not None and any(_dynamic(e) for e in elements)


def refusal(graph):
    """Why ``graph`` is never captured, or None."""
    for p in graph.params:
        if _dynamic(p.abstract):
            return "an input of dynamic shape"
    for g in graphs_of(graph):
        for node in g.nodes:
            fn = node.fn_value()
            if isinstance(fn, Primitive):
                name = type(fn).__name__
                replayable = _replayable_random(fn)
                if hasattr(fn, "_random_state") and not replayable:
                    return f"a random operator ('{fn.name}')"
                family = _family_of(name)
                if family in _HOST_FAMILIES and not replayable:
                    return f"{_HOST_FAMILIES[family]} ('{fn.name}')"
                for op in fn.attrs.get("ops", ()):   # a fused operator (mindspore-parallel's all-reduce start/wait)
                    if _family_of(op) in _HOST_FAMILIES:
                        return f"{_HOST_FAMILIES[_family_of(op)]} ('{fn.name}': {op})"
                if _dynamic(node.abstract):
                    return f"a data-dependent output shape ('{fn.name}')"
                if is_effectful_apply(node) and len(node.inputs) > 1:
                    target = node.inputs[1]
                    if isinstance(target, Parameter) and target.weight is None:
                        return f"an in-place write into an input that is not a Parameter ('{fn.name}')"
            elif fn is MAKE_TUPLE or fn is TUPLE_GETITEM or isinstance(fn, Graph):
                continue
            else:
                return f"control flow or a call decided on the host ('{getattr(fn, 'name', type(fn).__name__)}')"
    return None


def _replayable_random(prim):
    """Whether random primitive ``prim``'s kernel draws from a counter-based stream (its position on the device), so
    that replays of a graph holding it draw new numbers (``_common.counter_uniform``)."""
    return type(prim).__name__ in _common.COUNTER_RANDOM and _common.counter_streams()


def _random_primitives(graph):
    """The random primitives of ``graph`` (and of the graphs it calls): a replay rekeys their streams first."""
    return tuple({id(fn): fn for g in graphs_of(graph) for node in g.nodes
                  for fn in (node.fn_value(),) if isinstance(fn, Primitive) and hasattr(fn, "_random_state")}.values())


def _kernels(graph):
    return sum(1 for g in graphs_of(graph) for node in g.nodes if isinstance(node.fn_value(), Primitive))


def _copies(graph):
    """The copies a replay makes: each input that is not a network Parameter in, each output out."""
    out = graph.output
    outputs = len(out.inputs) - 1 if isinstance(out, Apply) and out.fn_value() is MAKE_TUPLE else 1
    return sum(1 for p in graph.params if p.weight is None) + outputs


def _debug_note(message):
    """With ``MS_GPU_CAPTURE_DEBUG=1``, one warning per message: why a graph is not captured or not replayed (silent
    otherwise: a refusal is the design, not an error)."""
    if _debugging() and message not in _WARNED:
        _WARNED.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def graph_runner(graph, run, device=None):
    """What runs ``graph`` from its second call on: ``run`` (kernel by kernel) when capture is off or the graph
    is refused, else a :class:`GraphRunner`."""
    if not _enabled():
        return run
    reason = refusal(graph)
    if reason is None and "segment_of" in graph.flags and _kernels(graph) <= _copies(graph):
        reason = "a stretch between host decisions whose replay would copy as many buffers as it has kernels"
    if reason is not None:
        STATS["refused"] += 1
        _debug_note(f"CUDA-graph capture of '{getattr(graph, 'name', 'graph')}' refused: {reason}; it runs kernel by "
                    f"kernel.")
        return run
    STATS["runners"] += 1
    return GraphRunner(graph, run, device, randoms=_random_primitives(graph))


def _flatten(value, leaves):
    if type(value) is tuple:
        return tuple(_flatten(v, leaves) for v in value)
    leaves.append(value)
    return len(leaves) - 1


def _too_large(inputs, weights):
    """Why a graph with these inputs is not captured for memory (its static copies would take more than
    :data:`MEMORY_SHARE` of the free device memory), or ``None``."""
    need = sum(x.nbytes for x, w in zip(inputs, weights) if not w and isinstance(x, cupy.ndarray))
    try:
        free = int(cupy.cuda.runtime.memGetInfo()[0]) + int(cupy.get_default_memory_pool().free_bytes())
    except Exception:  # noqa: BLE001 - no memory information (a stand-in without it): no limit
        return None
    if need > MEMORY_SHARE * free:
        return (f"its inputs' static copies would take {need} bytes, more than {MEMORY_SHARE:.0%} of the {free} "
                f"bytes of device memory free")
    return None


def _rebuild(tree, leaves):
    if type(tree) is tuple:
        return tuple(_rebuild(t, leaves) for t in tree)
    return leaves[tree]


class GraphRunner:
    """Plain runs, then one capture, then replays (see the module docstring)."""

    def __init__(self, graph, run, device=None, randoms=()):
        self.run = run
        self.name = getattr(graph, "name", "graph")
        self.weights = tuple(p.weight is not None for p in graph.params)
        self.randoms = tuple(randoms)      # the graph's random primitives (their streams rekeyed before a replay)
        self.device = device
        self.calls = 0
        self.state = "warming"       # -> "captured", or "plain" for good
        self.reason = None
        self.invalid_after = None    # MS_GPU_CAPTURE_DEBUG=1: the call after which a failed capture was invalid
        self._release()

    def _release(self):
        held = tuple(getattr(self, name, None) for name in ("cuda_graph", "static", "plan", "pool", "stream", "gemm"))
        if any(h is not None for h in held):
            _retire(held)
        self.cuda_graph = self.static = self.plan = self.tree = self.pool = self.stream = self.gemm = None

    def __del__(self):
        try:
            self._release()
        except Exception:  # noqa: BLE001 - at interpreter exit the module may be gone; nothing to keep then
            pass

    def __call__(self, *inputs):
        if self.state == "captured":
            out = self._replay(inputs)
            if out is not _MISS:
                return out
        elif self.state == "warming":
            self.calls += 1
            if self.calls >= WARMUP_RUNS:
                reason = _too_large(inputs, self.weights)
                if reason is not None:
                    self.state, self.reason = "plain", reason
                    STATS["refused"] += 1
                    _debug_note(f"CUDA-graph capture of '{self.name}' refused: {reason}; it runs kernel by kernel.")
                    return self.run(*inputs)
                try:
                    self._rekey()          # (a rekey writes from the host, refused while capturing)
                    self._capture(inputs)
                except Exception as exc:  # noqa: BLE001 - a graph that can not be captured runs kernel by kernel
                    self._give_up(exc)
                    return self.run(*inputs)
                out = self._replay(inputs)
                if out is not _MISS:
                    return out
        return self.run(*inputs)

    def _rekey(self):
        """The counter-based streams of the graph's random primitives rekeyed if ``set_seed`` was called since their
        last draw (no kernel of a replay runs on the host to notice it)."""
        for prim in self.randoms:
            _common.refresh_counter_stream(prim)

    def _give_up(self, exc):
        self.state = "plain"
        self.reason = f"{type(exc).__name__}: {exc}"
        self._release()
        STATS["failed"] += 1
        if self.reason not in _WARNED:
            _WARNED.add(self.reason)
            if self.invalid_after is not None:
                cause = f"; the capture was first found invalid after {self.invalid_after}"
            elif "INVALIDATED" in self.reason.upper():
                cause = "; MS_GPU_CAPTURE_DEBUG=1 names the call that invalidated it"
            else:
                cause = ""
            warnings.warn(f"CUDA-graph capture of '{self.name}' failed ({self.reason}){cause}; it runs kernel by "
                          f"kernel from now on (MS_GPU_GRAPH_CAPTURE=0 turns capture off).", RuntimeWarning,
                          stacklevel=3)

    def _capture(self, inputs):
        for x in inputs:
            if not isinstance(x, cupy.ndarray):
                raise TypeError(f"an input is a {type(x).__module__}.{type(x).__name__}, not a device array")
        device = self.device if self.device is not None else cupy.cuda.Device()
        with device:
            caller = cupy.cuda.get_current_stream()
            pool = cupy.cuda.MemoryPool()
            stream = cupy.cuda.Stream(non_blocking=True)
            with cupy.cuda.using_allocator(pool.malloc):
                static = tuple(x if w else cupy.empty_like(x) for x, w in zip(inputs, self.weights))
            for x, s, w in zip(inputs, static, self.weights):
                if not w:
                    cupy.copyto(s, x)      # (each launch copies again; this makes the capture read real values)
            gemm = GEMM_FACTORY["make"](stream) if _gemm_enabled() else None
            stream.wait_event(caller.record())     # the inputs' producers, queued on the caller's stream
            plain_matmul = cupy.matmul
            watch = _Watch(stream) if _debugging() else None
            with _capturing(), cupy.cuda.using_allocator(pool.malloc), stream:
                stream.begin_capture()
                try:
                    if gemm is not None:
                        cupy.matmul = _capture_matmul(gemm, plain_matmul, stream)
                    with watch if watch is not None else contextlib.nullcontext():
                        outs = self.run(*static)
                except BaseException:
                    try:
                        stream.end_capture()
                    except Exception:  # noqa: BLE001 - the capture was invalidated: the first error is the reason
                        pass
                    raise
                finally:
                    cupy.matmul = plain_matmul
                    self.invalid_after = watch.found if watch is not None else None
                cuda_graph = stream.end_capture()
        leaves = []
        tree = _flatten(outs, leaves)
        ids = {id(s): i for i, s in enumerate(static)}
        plan = []
        for leaf in leaves:
            if id(leaf) in ids:
                plan.append((True, ids[id(leaf)]))
            elif isinstance(leaf, cupy.ndarray):
                plan.append((False, leaf))
            else:
                raise TypeError(f"an output is a {type(leaf).__name__}, not a device array")
        self.cuda_graph, self.static, self.plan, self.tree = cuda_graph, static, tuple(plan), tree
        self.pool, self.stream, self.gemm = pool, stream, gemm     # the GEMM's handle and workspace live on
        self.state = "captured"
        STATS["captured"] += 1

    def _replay(self, inputs):
        static, weights = self.static, self.weights
        for i, (x, s, w) in enumerate(zip(inputs, static, weights)):
            if w:
                if x is not s:       # a Parameter's buffer was replaced: capture again after the warm-up
                    self.state, self.calls = "warming", 0
                    self._release()
                    _debug_note(f"CUDA-graph of '{self.name}': the buffer of its Parameter input {i} was replaced; "
                                f"it is captured again.")
                    STATS["misses"] += 1
                    return _MISS
            elif not isinstance(x, cupy.ndarray) or x.shape != s.shape or x.dtype != s.dtype:
                _debug_note(f"CUDA-graph of '{self.name}' not replayed: its input {i} is a "
                            f"{type(x).__name__} {getattr(x, 'shape', '')} {getattr(x, 'dtype', '')}, the captured "
                            f"graph takes {s.shape} {s.dtype}; that call runs kernel by kernel.")
                STATS["misses"] += 1
                return _MISS
        try:
            self._rekey()
            copy_many([(s, x) for x, s, w in zip(inputs, static, weights) if not w])
            self.cuda_graph.launch(stream=cupy.cuda.get_current_stream())
            leaves, copies = [], []
            for is_input, v in self.plan:
                if is_input:
                    leaves.append(inputs[v])
                else:
                    out = cupy.empty(v.shape, v.dtype)
                    copies.append((out, v))
                    leaves.append(out)
            copy_many(copies)             # (the outputs out of the graph's buffers: a backward's gradients, 1 launch)
        except Exception as exc:  # noqa: BLE001 - a launch that fails: kernel by kernel from now on
            self._give_up(exc)
            return _MISS
        STATS["replays"] += 1
        return _rebuild(self.tree, leaves)
