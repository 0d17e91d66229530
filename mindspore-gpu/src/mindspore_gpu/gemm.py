"""Matrix products on cuBLASLt, each shape's plan made once (the MatMul/BatchMatMul kernels' path on a GPU).

``cupy.matmul`` costs 25 us of host time per call on an H200 (a 32x400 by 400x120 float32 product), and CuPy's
``cublas.sgemm`` on a handle of one's own still 18: cuBLAS's classic API chooses its kernel on every call. A PYNATIVE
LeNet step makes nine such products, the largest host cost of its step. cuBLASLt separates that choice from the call:
:class:`Products` describes a product once per layout (operation and matrix-layout descriptors, a heuristic query for
the algorithm), keeps the plan, and afterwards a product is one ``cublasLtMatmul`` through ``ctypes``.

* **What it takes** (:func:`layout`): float16, bfloat16 and float32 products of arrays of two or more dimensions whose
  last two axes are each either row-contiguous or a transposed view of it (``x.T``, ``swapaxes(-1, -2)``: no copy
  is made, the transpose is the operation's), with one batch stride per operand (a 2-D operand is broadcast with
  stride 0; batch shapes must otherwise agree). Anything else, float64 and empty products included, returns ``None``
  and the caller runs ``cupy.matmul``.
* **Numbers**: float32 computes in float32 (``CUBLAS_COMPUTE_32F``: no TF32 unless ``CUPY_TF32=1``, CuPy's own
  switch, read when the path is first used), float16/bfloat16 in float32 on tensor cores and round once, as ``cupy.matmul`` does; the algorithm may
  differ from CuPy's, so results may differ in the last bits from ``cupy.matmul``'s (never between two runs of one
  process: a plan keeps its algorithm).
* **Alignment**: the heuristic is told each pointer's alignment (a view may start anywhere), which is part of the
  plan's key.
* **Workspace**: the plan's algorithm says how much it needs (often none); it is taken from CuPy's pool on the
  current stream for the call, as the cuDNN path takes its workspace, so two streams never share one.
* **Streams and CUDA graphs**: the stream is an argument of every call (nothing is bound to a handle). While a
  capture replaces ``cupy.matmul`` (``mindspore_gpu.capture``) the kernels call that instead: a plan is never made
  during a capture.
* **Failures**: no ``libcublasLt`` in the process, or ``MS_GPU_CUBLASLT=0`` (read at first use, or after
  :meth:`Products.reset`): unused, :meth:`Products.status` says why. A layout no algorithm takes runs
  ``cupy.matmul`` for good. An error from ``cublasLtMatmul`` turns the path off for the process with one
  ``RuntimeWarning`` and that product is recomputed by ``cupy.matmul``.

cuBLASLt calls (``cublasLt.h``, CUDA 12/13): ``cublasLtCreate``, ``cublasLtMatmulDescCreate(desc, computeType,
scaleType)``, ``cublasLtMatmulDescSetAttribute`` (TRANSA = 3, TRANSB = 4), ``cublasLtMatrixLayoutCreate(layout,
type, rows, cols, ld)``, ``cublasLtMatrixLayoutSetAttribute`` (BATCH_COUNT = 5, STRIDED_BATCH_OFFSET = 6),
``cublasLtMatmulPreferenceCreate``, ``cublasLtMatmulPreferenceSetAttribute`` (MAX_WORKSPACE_BYTES = 1,
MIN_ALIGNMENT_A..D_BYTES = 5..8), ``cublasLtMatmulAlgoGetHeuristic``, ``cublasLtMatmul``, and their ``Destroy``.
"""
import collections
import ctypes
import os
import threading
import warnings

import ml_dtypes
import numpy

from mindspore_gpu._per_cupy import PerCupy

__all__ = ["Products", "for_cupy", "Layout", "layout", "ENV"]

#: ``MS_GPU_CUBLASLT=0`` turns the cuBLASLt path off.
ENV = "MS_GPU_CUBLASLT"
STAND_IN = "the CuPy stand-in has no cuBLASLt"
OFF = f"turned off by {ENV}=0"

# cudaDataType_t of the dtypes taken; cublasComputeType_t; cublasOperation_t
_F32 = numpy.dtype(numpy.float32)
_CUDA_TYPES = {numpy.dtype(numpy.float16): 2, numpy.dtype(ml_dtypes.bfloat16): 14, _F32: 0}
_CUDA_R_32F = 0
_COMPUTE_32F, _COMPUTE_32F_FAST_TF32 = 68, 77
_OP_N, _OP_T = 0, 1
_DESC_TRANSA, _DESC_TRANSB = 3, 4
_LAYOUT_BATCH_COUNT, _LAYOUT_BATCH_STRIDE = 5, 6
_PREF_MAX_WORKSPACE, _PREF_ALIGN_A = 1, 5       # (B, C and D: 6, 7, 8)
#: The most workspace an algorithm may ask for (bytes).
WORKSPACE_LIMIT = 32 << 20
#: The most plans (and refused layouts) kept; past it the oldest is dropped.
PLAN_LIMIT = 4096

#: One product as cuBLASLt takes it, column-major: ``D (m, n) = op_a(A) (m, k) @ op_b(B) (k, n)``, each operand
#: ``batch`` times ``stride_*`` elements apart; ``align_*`` the bytes each pointer is aligned to (at most 256).
Layout = collections.namedtuple("Layout", ["dtype", "trans_a", "trans_b", "m", "n", "k", "lda", "ldb", "ldd",
                                           "batch", "stride_a", "stride_b", "stride_d", "align_a", "align_b",
                                           "align_d"])

_ALIGNS = (256, 128, 64, 32, 16, 8, 4, 2)


def _align(ptr):
    for a in _ALIGNS:
        if not ptr % a:
            return a
    return 1


def _matrix(x, rows, cols, item):
    """``(op, ld)`` reading the row-major ``rows x cols`` matrices of ``x`` (its last two axes) as cuBLASLt's
    column-major operand ``cols x rows`` (``op`` N) or as the transpose of a column-major ``rows x cols`` one (T);
    ``None`` when neither axis is contiguous."""
    s_row, s_col = x.strides[-2], x.strides[-1]
    if (s_col == item or cols == 1) and s_row % item == 0 and s_row // item >= max(cols, 1):
        return _OP_N, s_row // item
    if (s_row == item or rows == 1) and s_col % item == 0 and s_col // item >= max(rows, 1):
        return _OP_T, s_col // item
    return None


def _batch(x, batch_shape, item):
    """The element stride between the matrices of ``x`` over ``batch_shape`` (0 for a 2-D operand); ``None`` when its
    batch axes are not ``batch_shape`` or not evenly strided."""
    if x.ndim == 2:
        return 0
    if x.shape[:-2] != batch_shape:
        return None
    stride = None
    expected = None
    for d, s in zip(reversed(x.shape[:-2]), reversed(x.strides[:-2])):
        if d == 1:
            continue
        if s % item:
            return None
        if stride is None:
            stride, expected = s // item, s // item * d
        elif s // item != expected:
            return None
        else:
            expected *= d
    return 0 if stride is None else stride


def _device_pointer(a):
    return a.data.ptr


def layout(x, y, pointer=_device_pointer):
    """``(Layout, a, b, out_shape)`` of the row-major product ``x @ y`` as cuBLASLt's column-major ``D^T = y^T x^T``
    (A reads ``y``, B reads ``x``; D is the C-contiguous result of ``out_shape``), or ``None`` when the product is
    not one :class:`Products` takes (see the module docstring). ``pointer(array)`` is an array's address."""
    dt = x.dtype
    if y.dtype != dt or dt not in _CUDA_TYPES or x.ndim < 2 or y.ndim < 2:
        return None
    big_m, big_k = x.shape[-2:]
    k2, big_n = y.shape[-2:]
    if big_k != k2 or not (big_m and big_n and big_k):
        return None
    if x.ndim > 2 and y.ndim > 2 and x.shape[:-2] != y.shape[:-2]:
        return None
    batch_shape = x.shape[:-2] if x.ndim >= y.ndim else y.shape[:-2]
    batch = 1
    for d in batch_shape:
        batch *= d
    if not batch:
        return None
    item = dt.itemsize
    op_a = _matrix(y, big_k, big_n, item)       # y^T: N x K (m x k of the column-major problem)
    op_b = _matrix(x, big_m, big_k, item)       # x^T: K x M
    if op_a is None or op_b is None:
        return None
    stride_a, stride_b = _batch(y, batch_shape, item), _batch(x, batch_shape, item)
    if stride_a is None or stride_b is None:
        return None
    out_shape = batch_shape + (big_m, big_n)
    return Layout(dt, op_a[0], op_b[0], big_n, big_m, big_k, op_a[1], op_b[1], big_n, batch, stride_a, stride_b,
                  big_m * big_n, _align(pointer(y)), _align(pointer(x)), 256), y, x, out_shape


class _Library:
    """cuBLASLt through ``ctypes``: the library this process loaded with cuBLAS, one handle per device."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        p, i, u64, i64, sz = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_int64, ctypes.c_size_t
        sigs = {
            "cublasLtCreate": [p], "cublasLtDestroy": [p],
            "cublasLtMatmulDescCreate": [p, i, i], "cublasLtMatmulDescDestroy": [p],
            "cublasLtMatmulDescSetAttribute": [p, i, p, sz],
            "cublasLtMatrixLayoutCreate": [p, i, u64, u64, i64], "cublasLtMatrixLayoutDestroy": [p],
            "cublasLtMatrixLayoutSetAttribute": [p, i, p, sz],
            "cublasLtMatmulPreferenceCreate": [p], "cublasLtMatmulPreferenceDestroy": [p],
            "cublasLtMatmulPreferenceSetAttribute": [p, i, p, sz],
            "cublasLtMatmulAlgoGetHeuristic": [p, p, p, p, p, p, p, i, p, p],
            "cublasLtMatmul": [p, p, p, p, p, p, p, p, p, p, p, p, p, p, sz, p],
        }
        for name, args in sigs.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, i
        self.lib = lib
        self.matmul = lib.cublasLtMatmul
        self.handles = {}

    def check(self, what, status):
        if status != 0:
            raise RuntimeError(f"{what} returned cuBLAS status {status}")

    def handle(self, device):
        h = self.handles.get(device)
        if h is None:
            h = ctypes.c_void_p()
            self.check("cublasLtCreate", self.lib.cublasLtCreate(ctypes.byref(h)))
            self.handles[device] = h
        return h


class _Plan:
    """The descriptors and the chosen algorithm of one :class:`Layout` (freed with the plan)."""

    def __init__(self, lib, handle, lay, tf32):
        ct = ctypes
        self._lib = lib
        self.handle = handle
        self.desc, self.a, self.b, self.d, pref = (ct.c_void_p() for _ in range(5))
        self.owned = []
        cuda = _CUDA_TYPES[lay.dtype]
        compute = _COMPUTE_32F_FAST_TF32 if tf32 and lay.dtype == _F32 else _COMPUTE_32F
        try:
            lib.check("cublasLtMatmulDescCreate", lib.lib.cublasLtMatmulDescCreate(ct.byref(self.desc), compute,
                                                                                   _CUDA_R_32F))
            self.owned.append(("cublasLtMatmulDescDestroy", self.desc))
            for attr, op in ((_DESC_TRANSA, lay.trans_a), (_DESC_TRANSB, lay.trans_b)):
                v = ct.c_int32(op)
                lib.check("cublasLtMatmulDescSetAttribute", lib.lib.cublasLtMatmulDescSetAttribute(
                    self.desc, attr, ct.byref(v), ct.sizeof(v)))
            # stored shapes: op N reads (rows, cols) as given; op T the transpose
            a_rows, a_cols = (lay.m, lay.k) if lay.trans_a == _OP_N else (lay.k, lay.m)
            b_rows, b_cols = (lay.k, lay.n) if lay.trans_b == _OP_N else (lay.n, lay.k)
            for target, rows, cols, ld, stride in ((self.a, a_rows, a_cols, lay.lda, lay.stride_a),
                                                   (self.b, b_rows, b_cols, lay.ldb, lay.stride_b),
                                                   (self.d, lay.m, lay.n, lay.ldd, lay.stride_d)):
                lib.check("cublasLtMatrixLayoutCreate", lib.lib.cublasLtMatrixLayoutCreate(
                    ct.byref(target), cuda, rows, cols, ld))
                self.owned.append(("cublasLtMatrixLayoutDestroy", target))
                if lay.batch > 1:
                    count, offset = ct.c_int32(lay.batch), ct.c_int64(stride)
                    for attr, v in ((_LAYOUT_BATCH_COUNT, count), (_LAYOUT_BATCH_STRIDE, offset)):
                        lib.check("cublasLtMatrixLayoutSetAttribute", lib.lib.cublasLtMatrixLayoutSetAttribute(
                            target, attr, ct.byref(v), ct.sizeof(v)))
            lib.check("cublasLtMatmulPreferenceCreate", lib.lib.cublasLtMatmulPreferenceCreate(ct.byref(pref)))
            try:
                limit = ct.c_uint64(WORKSPACE_LIMIT)
                lib.check("cublasLtMatmulPreferenceSetAttribute", lib.lib.cublasLtMatmulPreferenceSetAttribute(
                    pref, _PREF_MAX_WORKSPACE, ct.byref(limit), ct.sizeof(limit)))
                for offset, align in enumerate((lay.align_a, lay.align_b, lay.align_d, lay.align_d)):
                    v = ct.c_uint32(align)
                    lib.check("cublasLtMatmulPreferenceSetAttribute", lib.lib.cublasLtMatmulPreferenceSetAttribute(
                        pref, _PREF_ALIGN_A + offset, ct.byref(v), ct.sizeof(v)))
                # cublasLtMatmulHeuristicResult_t: algo (8 x uint64), workspaceSize (size_t), state (int), wavesCount
                # (float), reserved (4 x int): 96 bytes
                result = (ct.c_uint8 * 96)()
                found = ct.c_int(0)
                lib.check("cublasLtMatmulAlgoGetHeuristic", lib.lib.cublasLtMatmulAlgoGetHeuristic(
                    handle, self.desc, self.a, self.b, self.d, self.d, pref, 1, ct.byref(result), ct.byref(found)))
            finally:
                lib.lib.cublasLtMatmulPreferenceDestroy(pref)
        except BaseException:
            self.close()
            raise
        self.found = found.value > 0
        self.algo = (ct.c_uint8 * 64).from_buffer_copy(bytes(result)[:64])
        self.workspace = int.from_bytes(bytes(result)[64:72], "little")
        self.algo_ptr = ct.addressof(self.algo)

    def close(self):
        for name, obj in reversed(getattr(self, "owned", [])):
            getattr(self._lib.lib, name)(obj)
        self.owned = []

    __del__ = close


_ONE, _ZERO = ctypes.c_float(1.0), ctypes.c_float(0.0)
_ONE_PTR, _ZERO_PTR = ctypes.addressof(_ONE), ctypes.addressof(_ZERO)


def _env_on():
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _tf32():
    return os.environ.get("CUPY_TF32", "0").strip() not in ("", "0")


class Products:
    """The cuBLASLt products of one CuPy module (see the module docstring). ``library`` (a test may set it before
    first use) makes the binding: ``library() -> object`` with ``handle(device)``, ``plan(handle, layout, tf32)`` (an
    object with ``found``, ``workspace`` (bytes) and ``close()``) and ``run(plan, a, b, d, workspace, stream)`` on the
    arrays (``workspace`` a uint8 array or ``None``); ``pointer(array)`` gives an array's address."""

    def __init__(self, cupy):
        self.cupy = cupy
        self.plain_matmul = getattr(cupy, "matmul", None)
        self.library = None
        self.pointer = _device_pointer
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        """Forget everything: availability (``MS_GPU_CUBLASLT`` is read again), plans, counters."""
        self._status = None
        self._binding = None
        self._plans = collections.OrderedDict()
        self._fast = {}
        self._tf32 = _tf32()        # (read once, as CuPy reads it once for its own products)
        self.stats = collections.Counter()

    def status(self):
        """``True`` when the path is usable, else the reason (a string)."""
        if self._status is None:
            with self._lock:
                if self._status is None:
                    self._status = self._probe()
        return self._status

    def _probe(self):
        if not _env_on():
            return OFF
        try:
            if self.library is not None:
                self._binding = self.library()
            elif getattr(self.cupy, "__sim__", False):
                return STAND_IN
            else:
                self._binding = _Binding()
        except Exception as exc:  # noqa: BLE001 - no cuBLASLt: CuPy's matmul
            return f"cuBLASLt is not usable ({type(exc).__name__}: {exc})"
        return True

    def describe_status(self):
        """One line for ``python -m mindspore.info``."""
        status = self.status()
        if status is True:
            return "float16/bfloat16/float32 matrix products on cuBLASLt (plans made once per layout)"
        return f"unused ({status}); matrix products are cupy.matmul"

    def matmul(self, x, y):
        """``x @ y`` by cuBLASLt, or ``None`` (the caller runs ``cupy.matmul``)."""
        if self._status is not True and self.status() is not True:
            return None
        cupy = self.cupy
        if cupy.matmul is not self.plain_matmul:      # a CUDA-graph capture replaced it: its GEMM, not ours
            return None
        # the operands' shapes, strides, dtypes and pointer alignments (low bits) name the plan: one dict lookup
        fast = (x.shape, x.strides, y.shape, y.strides, x.dtype, y.dtype, self.pointer(x) & 255,
                self.pointer(y) & 255, cupy.cuda.runtime.getDevice())
        hit = self._fast.get(fast)
        if hit is None:
            hit = self._resolve(fast, x, y)
        plan, out_shape = hit
        if plan is False:
            self.stats["declined"] += 1
            return None
        d = cupy.empty(out_shape, x.dtype)
        ws = cupy.empty(plan.workspace, numpy.uint8) if plan.workspace else None
        try:
            self._binding.run(plan, y, x, d, ws, cupy.cuda.get_current_stream())     # (A reads y, B reads x)
        except Exception as exc:  # noqa: BLE001 - any cuBLASLt error: off for the process, CuPy's matmul recomputes
            self._status = f"turned off after an error ({type(exc).__name__}: {exc})"
            warnings.warn(f"mindspore_gpu: cuBLASLt failed on a {x.dtype} product of {tuple(x.shape)} by "
                          f"{tuple(y.shape)} ({exc}); matrix products run on cupy.matmul for the rest of the process",
                          RuntimeWarning, stacklevel=3)
            return None
        self.stats["cublaslt"] += 1
        return d

    def _resolve(self, fast, x, y):
        """``(plan or False, output shape)`` of operands described by ``fast`` (remembered)."""
        found = layout(x, y, self.pointer)
        if found is None:
            hit = (False, None)
        else:
            lay, _, _, out_shape = found
            device = fast[-1]
            key = (lay, device, self._tf32)
            plan = self._plans.get(key)
            if plan is None:
                plan = self._plan(key, lay, device)
            hit = (plan, out_shape)
        if len(self._fast) >= PLAN_LIMIT:
            self._fast.clear()
        self._fast[fast] = hit
        return hit

    def _plan(self, key, lay, device):
        with self._lock:
            plan = self._plans.get(key)
            if plan is not None:
                return plan
            try:
                plan = self._binding.plan(self._binding.handle(device), lay, key[2])
                if not plan.found:
                    plan.close()
                    plan = False
            except Exception:  # noqa: BLE001 - a layout cuBLASLt refuses: cupy.matmul for it
                plan = False
            if len(self._plans) >= PLAN_LIMIT:
                self._plans.popitem(last=False)
            self._plans[key] = plan
            return plan


class _Binding:
    """:class:`Products`' binding on a GPU: cuBLASLt as loaded with CuPy's cuBLAS."""

    def __init__(self):
        import cupy
        from mindspore_gpu.capture import _loaded_library
        cupy.cuda.Device().cublas_handle            # CuPy loads cuBLAS (and with it cuBLASLt)
        self.lib = _Library(_loaded_library("libcublasLt.so"))

    def handle(self, device):
        return self.lib.handle(device)

    def plan(self, handle, lay, tf32):
        return _Plan(self.lib, handle, lay, tf32)

    def run(self, plan, a, b, d, workspace, stream):
        """``d = a-side @ b-side`` as the plan's layout reads them (``a`` the operand read as A)."""
        out = d.data.ptr
        status = self.lib.matmul(plan.handle, plan.desc, _ONE_PTR, a.data.ptr, plan.a, b.data.ptr, plan.b, _ZERO_PTR,
                                 out, plan.d, out, plan.d, plan.algo_ptr,
                                 workspace.data.ptr if workspace is not None else None, plan.workspace, stream.ptr)
        if status != 0:
            raise RuntimeError(f"cublasLtMatmul returned cuBLAS status {status}")


_PATHS = PerCupy(Products)


def for_cupy(cupy):
    """The :class:`Products` of CuPy module ``cupy`` (the real one, or the test stand-in), made once."""
    return _PATHS(cupy)


def environment_info(cupy):
    """cuBLASLt's line of ``python -m mindspore.info``. Never raises."""
    return _PATHS.describe(cupy)
