"""What the GPU kernel modules share: moving operands to the device, fitting results to the ``out``
spec, MindSpore's promotion for kernels whose output dtype is not the compute dtype, and the few
CuPy-only features, each behind a helper with a plain path:

* :class:`Fused`: a ``cupy.ElementwiseKernel`` used only for float32/float64 CuPy arrays when
  :data:`FUSED` is on; every caller has a plain-CuPy path for everything else (and the test stand-in
  for CuPy, which has no ``ElementwiseKernel``, always takes it);
* :class:`RawKernels`: hand-written CUDA C (``cupy.RawModule``) for operators whose fused path still takes too many
  launches, under the same switch and compile-failure handling as :class:`Fused`;
* :func:`scatter_add`: ``cupy.add.at`` (CUDA's atomic add) for every dtype, by widening or
  reinterpreting the ones atomics do not cover;
* :func:`device_rng` / :func:`fixed_rng`: ``cupy.random.RandomState`` streams seeded from the
  primitive's own NumPy stream, so draws are reproducible run to run after ``set_seed``;
* :func:`counter_uniform`: the draws of the dropouts, ``UniformReal`` and ``StandardNormal`` from a counter-based
  stream (Philox) whose position lives on the device, so a CUDA graph holding them can be replayed.

Everything CuPy-specific is reached through the module objects bound at import (``cupy``, ``cupyx.scipy``,
``special``); nothing is imported at call time.
"""
import functools
import os
import re
import warnings
import weakref

import cupy
import cupyx.scipy.special as special  # noqa: F401  (erf, erfc, erfinv for the math kernels)
import ml_dtypes   # bfloat16's finfo (a dependency of mindspore-core)
import numpy

from mindspore.common import dtype as mstype
from mindspore_array_kernels.common import fit, fits_out  # noqa: F401  (the kernels' output side, as on the CPU)

__all__ = ["dev", "F16", "BF16", "F32", "F64", "fit", "fits_out", "wide", "compute_dtype", "is_array", "scalar_of", "store", "promoted",
           "float_of", "is_inexact", "Fused", "FUSED", "scatter_add", "device_rng", "fixed_rng", "counter_uniform",
           "counter_streams", "refresh_counter_stream", "COUNTER_RANDOM", "special", "scan",
           "is_bf16", "sortable", "finfo", "RawKernels", "RAW_BLOCK", "RAW_HELPERS", "UNSUPPORTED_DTYPES"]

_NDARRAY = cupy.ndarray


def dev(a, dtype=None):
    """``a`` as a device array: itself when it is a CuPy array (of the one device the runtime computes on) and no dtype
    is asked for, else ``cupy.asarray`` (a host array is moved). The type test costs a tenth of ``cupy.asarray``'s own
    checks, and a PYNATIVE step converts a few hundred operands."""
    if dtype is None and type(a) is _NDARRAY:
        return a
    return cupy.asarray(a, dtype)

F16 = numpy.dtype(numpy.float16)
F32 = numpy.dtype(numpy.float32)
F64 = numpy.dtype(numpy.float64)
_SCALARS = (bool, int, float, complex)


_BF16 = numpy.dtype(ml_dtypes.bfloat16)
BF16 = _BF16
#: NumPy dtypes CuPy has no kernels for (ml_dtypes' float8 types): the GPU runtime and Cast refuse them. (Compared
#: as dtypes: ``dtype.name`` is computed in Python by NumPy, microseconds per call.)
UNSUPPORTED_DTYPES = frozenset(numpy.dtype(getattr(ml_dtypes, n)) for n in ("float8_e4m3fn", "float8_e5m2")
                               if hasattr(ml_dtypes, n))


def is_bf16(dtype):
    """Whether ``dtype`` is bfloat16 (``ml_dtypes.bfloat16``: NumPy kind ``'V'``, and no ``cupy.bfloat16``).
    (A dtype comparison: ``dtype.name`` is computed in Python by NumPy, a few microseconds per kernel call.)"""
    return (dtype if isinstance(dtype, numpy.dtype) else numpy.dtype(dtype)) == _BF16


def finfo(dtype):
    """``numpy.finfo`` of a float dtype, bfloat16 included (NumPy's refuses ml_dtypes' types; theirs is the same)."""
    if is_bf16(dtype):
        return ml_dtypes.finfo(numpy.dtype(dtype))
    return numpy.finfo(dtype)


def sortable(x):
    """``x`` as CuPy can sort or scan it: CuPy 14.2 has no sort (``NotImplementedError``) and no scan (``cumsum``
    does not compile) for bfloat16, so bfloat16 is widened to float32 (exact: a sort's order or a gather from it is
    the same; a scan then accumulates in float32). Other dtypes pass through."""
    return x.astype(F32) if is_bf16(x.dtype) else x


def is_array(v):
    """Whether ``v`` is an array (a device buffer, or a host array not moved yet)."""
    return isinstance(v, (cupy.ndarray, numpy.ndarray))


def is_inexact(dt):
    return numpy.dtype(dt).kind in "fc" or is_bf16(dt)


def float_of(dt):
    """``dt`` if it is a float (or complex) dtype, else float32 (MindSpore's float of integers)."""
    dt = numpy.dtype(dt)
    return dt if dt.kind in "fc" or is_bf16(dt) else F32


def wide(x):
    """``x`` in a precision fit for reductions and transcendental functions (float16, bfloat16 -> float32)."""
    return x.astype(F32) if x.dtype == F16 or is_bf16(x.dtype) else x


def compute_dtype(*arrays):
    """float32/float64 as the arrays' common dtype is; any other float (float16) computes in float32."""
    dt = numpy.result_type(*[a.dtype for a in arrays])
    return dt if dt in (F32, F64) else F32


def scalar_of(v):
    """A Python scalar from a scalar argument: a Python/NumPy scalar, or a one-element array (a device
    array is read back, which synchronises)."""
    if is_array(v) or isinstance(v, numpy.generic):
        return v.reshape(-1)[0].item() if getattr(v, "ndim", 0) else v.item()
    return v


def store(dst, value):
    """Write ``value`` into the buffer ``dst`` in place, cast to its dtype (``casting='unsafe'``).

    The in-place kernels (Assign, optimizer updates, moving statistics) write into a Parameter's own
    buffer: a device array, or a host array when the tensor was made before the GPU target was chosen.
    """
    if isinstance(dst, cupy.ndarray):
        if is_array(value):
            value = dev(value)
            if value.dtype != dst.dtype:
                value = value.astype(dst.dtype)
        cupy.copyto(dst, value, casting="unsafe")
    else:
        host = cupy.asnumpy(value) if isinstance(value, cupy.ndarray) else value
        numpy.copyto(dst, host, casting="unsafe")
    return dst


# --- MindSpore's promotion (for kernels whose output dtype is not the dtype they compute in) ----
def _key(v):
    return v.dtype if is_array(v) else type(v)


@functools.lru_cache(maxsize=None)
def _promote_key(kx, ky):
    xa, ya = isinstance(kx, numpy.dtype), isinstance(ky, numpy.dtype)
    if xa and ya:
        t = mstype.promote_types(mstype.to_ms_dtype(kx), mstype.to_ms_dtype(ky))
    elif xa:
        t = mstype.promote_with_scalar(mstype.to_ms_dtype(kx), ky(0))
    elif ya:
        t = mstype.promote_with_scalar(mstype.to_ms_dtype(ky), kx(0))
    else:
        t = mstype.promote_types(mstype.default_scalar_dtype(kx(0)), mstype.default_scalar_dtype(ky(0)))
    return numpy.dtype(t.to_numpy())


def promoted(x, y):
    """The NumPy dtype MindSpore computes ``x op y`` in (each an array or a scalar, as the CPU kernels
    see them)."""
    return _promote_key(_key(x), _key(y))


# --- fused elementwise kernels --------------------------------------------------------------------
def _env_flag(name, default="1"):
    return os.environ.get(name, default).strip().lower() not in ("0", "false", "no", "off")


#: Whether the fused CUDA elementwise kernels run (``MS_GPU_FUSED_KERNELS=0``: the plain-CuPy paths).
FUSED = _env_flag("MS_GPU_FUSED_KERNELS")
_FUSABLE = (F32, F64)


#: What CuPy raises when NVRTC refuses the CUDA source it generated for a kernel.
_COMPILE_ERRORS = getattr(getattr(getattr(cupy, "cuda", None), "compiler", None), "CompileException", ())


class FusedUnavailable(Exception):
    """A fused kernel's CUDA source did not compile. The fused kernels are then off for the process (as with
    ``MS_GPU_FUSED_KERNELS=0``), and the operator that met it runs again on its plain path (:func:`retrying`)."""


def _fused_off(name, exc):
    global FUSED
    FUSED = False
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    warnings.warn(f"mindspore_gpu: CuPy could not compile the fused kernel '{name}' ({first[:200]}); the fused "
                  f"kernels are off for this process and every operator runs its plain CuPy path "
                  f"(MS_GPU_FUSED_KERNELS=0 does the same).", RuntimeWarning, stacklevel=3)


class Fused:
    """A ``cupy.ElementwiseKernel`` with its plain-CuPy twin: ``usable(*arrays)`` says whether the fused
    kernel takes these operands (CuPy arrays of one dtype among ``dtypes``, float32/float64 by default, fusion
    on, the kernel available); otherwise the caller runs its plain path. Compiled by CuPy on first use: a source
    CuPy cannot compile turns the fused kernels off and raises :class:`FusedUnavailable` (see :func:`retrying`)."""

    def __init__(self, name, in_params, out_params, operation, dtypes=_FUSABLE):
        make = getattr(cupy, "ElementwiseKernel", None)
        self.name = name
        self.dtypes = dtypes
        self.kernel = make(in_params, out_params, operation, name) if make is not None else None
        self._source = (in_params, out_params, operation)
        self._fixed = {}

    def fixing(self, placeholder, dtype):
        """This kernel with the type placeholder ``placeholder`` declared ``dtype`` instead (compiled once): for a
        call whose operands of that placeholder are all host scalars. CuPy decides a placeholder's type from
        arrays only; with none it raises ``KeyError`` (seen on an H200). The body must not name the placeholder."""
        dtype = numpy.dtype(dtype)
        variant = self._fixed.get((placeholder, dtype))
        if variant is None:
            in_params, out_params, operation = self._source
            pattern = re.compile(rf"(^|,)(\s*){re.escape(placeholder)}(\s+)")
            declare = rf"\g<1>\g<2>{dtype.name}\g<3>"
            variant = Fused(f"{self.name}_{placeholder}_{dtype.name}", pattern.sub(declare, in_params),
                            pattern.sub(declare, out_params), operation, self.dtypes)
            self._fixed[(placeholder, dtype)] = variant
        return variant

    def typed_by(self, placeholder, dtype, *operands):
        """This kernel if one of ``operands`` (those of ``placeholder``) is a device array, which decides its type;
        else :meth:`fixing` ``placeholder`` to ``dtype``."""
        for a in operands:
            if isinstance(a, cupy.ndarray):
                return self
        return self.fixing(placeholder, dtype)

    def usable(self, *arrays):
        if not FUSED or self.kernel is None:
            return False
        dt = arrays[0].dtype
        return dt in self.dtypes and all(isinstance(a, cupy.ndarray) and a.dtype == dt for a in arrays)

    def __call__(self, *args, **kwargs):
        try:
            return self.kernel(*args, **kwargs)
        except _COMPILE_ERRORS as exc:
            _fused_off(self.name, exc)
            raise FusedUnavailable(self.name) from exc


class FusedReduction(Fused):
    """A ``cupy.ReductionKernel`` (optionally with its ``reduce_type``) with :class:`Fused`'s ``usable`` and
    compile-failure handling; called as CuPy's, ``kernel(*args, axis=..., keepdims=...)``."""

    def __init__(self, name, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, reduce_type=None):
        make = getattr(cupy, "ReductionKernel", None)
        self.name = name
        self.dtypes = _FUSABLE
        self.kernel = (make(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name, reduce_type)
                       if make is not None else None)


class RawKernels:
    """Hand-written CUDA kernels (``extern "C" __global__``, in :data:`RAW_BLOCK`-thread blocks) whose source is
    written for type names (``T`` for the data; others, such as ``I`` for labels, as a kernel needs), compiled per
    binding of those names to dtypes (``typedef float T;`` put in front) with ``cupy.RawModule`` at first use, for
    the operators whose fused path still takes too many launches (training batch norm: two where the fused path took
    six). :meth:`usable` and compile failures are as :class:`Fused`'s; :meth:`launch` runs kernel ``name`` over
    ``grid`` with ``args``, whose scalars the caller gives as NumPy scalars of the kernel's parameter types (CuPy
    passes a scalar with its own dtype's bytes)."""

    _C_TYPES = {F32: "float", F64: "double", numpy.dtype(numpy.int32): "int",
                numpy.dtype(numpy.int64): "long long", F16: "ms_half", BF16: "ms_bf16"}

    def __init__(self, name, source, kernels, dtypes=_FUSABLE, bindings=None):
        self.name = name
        self.dtypes = dtypes
        self._source = source
        self._kernels = tuple(kernels)
        self._bindings = tuple(dict(b) for b in bindings) if bindings else None
        self._compiled = {}          # ((type name, dtype), ...) as given or sorted -> {kernel name: cupy RawKernel}
        self.available = getattr(cupy, "RawModule", None) is not None

    def bindings(self):
        """Every binding of the type names (name -> dtype) this source is compiled for (what a compile check goes
        through): ``bindings`` as given, else ``T`` bound to each of ``dtypes``."""
        return [dict(b) for b in self._bindings] if self._bindings else [{"T": dt} for dt in self.dtypes]

    def enabled(self):
        """Whether these kernels may run: fusion on (not turned off by a compile failure) and CuPy has RawModule."""
        return FUSED and self.available

    def takes_data(self, *arrays):
        """Whether these kernels, written for a storage type ``X`` computed in ``T`` (:data:`DATA_BINDINGS`), take
        ``arrays`` as their data: enabled, CuPy arrays of one dtype among :data:`RAW_COMPUTE`."""
        dt = arrays[0].dtype
        return (self.enabled() and dt in RAW_COMPUTE
                and all(isinstance(a, cupy.ndarray) and a.dtype == dt for a in arrays))

    def usable(self, *arrays):
        if not self.enabled():
            return False
        dt = arrays[0].dtype
        return dt in self.dtypes and all(isinstance(a, cupy.ndarray) and a.dtype == dt for a in arrays)

    def source(self, **types):
        """The CUDA source compiled for ``types`` (type name -> dtype)."""
        head = "".join(f"typedef {self._C_TYPES[numpy.dtype(dt)]} {alias};\n" for alias, dt in sorted(types.items()))
        return f"{RAW_STORAGE}{head}#define RAW_BLOCK {RAW_BLOCK}\n{self._source}"

    def launch(self, name, grid, args, **types):
        key = tuple(types.items())       # (a call site passes its types in one order: a plain lookup per launch)
        functions = self._compiled.get(key)
        if functions is None:
            functions = self._compile(key, types)
        functions[name](grid, _BLOCK, args)

    def compiled(self):
        """The compiled kernels so far: one ``{kernel name: cupy RawKernel}`` per binding of the type names."""
        return list({id(f): f for f in self._compiled.values()}.values())

    def _compile(self, key, types):
        canonical = tuple(sorted((alias, numpy.dtype(dt)) for alias, dt in types.items()))
        functions = self._compiled.get(canonical)
        if functions is None:
            try:
                module = cupy.RawModule(code=self.source(**types))     # (NVRTC's own C++ dialect)
                functions = {k: module.get_function(k) for k in self._kernels}
            except _COMPILE_ERRORS as exc:
                _fused_off(self.name, exc)
                raise FusedUnavailable(self.name) from exc
            self._compiled[canonical] = functions
        self._compiled[key] = functions
        return functions


#: What every :class:`RawKernels` source starts with (before its type names' typedefs): the 16-bit float types
#: (``ms_half``: IEEE float16, ``ms_bf16``: bfloat16; a type name bound to float16 or bfloat16 is typedef'd to them)
#: as structs holding the bits, ``ms_get(v)`` (the value: a 16-bit float widened to float, exactly; float and double
#: as they are) and ``ms_put(d, v)`` (``d = v``, a float rounded to nearest even into a 16-bit float). So a kernel
#: whose storage type is a type name of its own (batch norm's ``X``) reads and writes half precision directly and
#: computes in float32: its result the bits of widening its input, computing in float32 and casting back (a launch
#: each, one of them over the whole tensor, gone). The conversions are integer arithmetic, bit for bit NumPy's
#: (float16; a NaN keeps the top bits of its significand, NumPy's ``npy_floatbits_to_halfbits``) and ml_dtypes'
#: (bfloat16; a NaN becomes the quiet NaN of its sign) results, as CuPy's casts are except for NaN payloads, and need
#: no header (the stand-in's g++ build runs the same source).
RAW_STORAGE = r"""
struct ms_half { unsigned short bits; };
struct ms_bf16 { unsigned short bits; };

__device__ __forceinline__ float ms_get(float v) { return v; }
__device__ __forceinline__ double ms_get(double v) { return v; }
__device__ __forceinline__ float ms_get(ms_bf16 v) { return __uint_as_float((unsigned int)v.bits << 16); }
__device__ __forceinline__ float ms_get(ms_half v) {
    const unsigned int h = v.bits, sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1fu) return __uint_as_float(sign | 0x7f800000u | (m << 13));    // inf; a NaN keeps its payload
    if (e == 0u) return __uint_as_float(sign | __float_as_uint((float)m * 5.9604644775390625e-8f));  // m * 2^-24
    return __uint_as_float(sign | ((e + 112u) << 23) | (m << 13));
}

__device__ __forceinline__ void ms_put(float& d, float v) { d = v; }
__device__ __forceinline__ void ms_put(double& d, double v) { d = v; }
__device__ __forceinline__ void ms_put(ms_bf16& d, float v) {
    const unsigned int u = __float_as_uint(v);
    d.bits = (unsigned short)((u & 0x7fffffffu) > 0x7f800000u ? (((u >> 16) & 0x8000u) | 0x7fc0u)
                                                                : ((u + 0x7fffu + ((u >> 16) & 1u)) >> 16));
}
__device__ __forceinline__ void ms_put(ms_half& d, float v) {
    const unsigned int u = __float_as_uint(v), a = u & 0x7fffffffu;
    unsigned int h = 0u;                                  // |v| at most 2^-25: a zero
    if (a > 0x7f800000u) {                                // NaN: the top ten significand bits, kept a NaN
        h = 0x7c00u + ((a & 0x007fffffu) >> 13);
        if (h == 0x7c00u) h = 0x7c01u;
    } else if (a >= 0x477ff000u) {                        // half a step past 65504 or more (inf included): inf
        h = 0x7c00u;
    } else if (a >= 0x38800000u) {                        // a normal float16: exponent rebased, 13 bits rounded
        const unsigned int r = a - 0x38000000u, rest = r & 0x1fffu;
        h = (r >> 13) + ((rest > 0x1000u || (rest == 0x1000u && ((r >> 13) & 1u))) ? 1u : 0u);
    } else if (a > 0x33000000u) {                         // a subnormal: a multiple of 2^-24, rounded
        const unsigned int m = (a & 0x007fffffu) | 0x00800000u, shift = 126u - (a >> 23);
        const unsigned int q = m >> shift, rest = m & ((1u << shift) - 1u), tie = 1u << (shift - 1u);
        h = q + ((rest > tie || (rest == tie && (q & 1u))) ? 1u : 0u);
    }
    d.bits = (unsigned short)(((u >> 16) & 0x8000u) | h);
}
"""

#: The dtype a :class:`RawKernels` source with a storage type X computes data of each dtype in (type T), and the
#: bindings of (T, X) such a source is compiled for: float32 and float64 as they are; float16 and bfloat16 read and
#: written as they are and computed in float32 (the bits of widening them, the float32 kernel and a cast of its
#: result back, without those launches over the data).
RAW_COMPUTE = {F32: F32, F64: F64, F16: F32, BF16: F32}
DATA_BINDINGS = tuple(dict(T=RAW_COMPUTE[x], X=x) for x in (F32, F64, F16, BF16))


#: CUDA device functions the :class:`RawKernels` sources share (put in front of a source that uses them), for a
#: block of RAW_BLOCK threads that every thread of the block calls: ``ms_block_sum(v, buf)`` (the block's sum of v,
#: given to every thread), ``ms_block_max(v, buf)`` (its maximum, NaN if any is NaN, as ``cupy.max``),
#: ``ms_merge``/``ms_block_merge`` (Chan et al.'s merge of (count, mean, sum of squared deviations), as Welford's
#: update makes them per thread; the block's, through three shared arrays, given to every thread), ``ms_row_max`` and
#: ``ms_row_expsum`` (a block's row, of any storage type: read through ``ms_get``), ``MsCycle`` (an index modulo a
#: size, carried along a thread's strided values).
RAW_HELPERS = r"""
template <typename V> __device__ __forceinline__ V ms_nanmax(V a, V b) { return (a != a || a > b) ? a : b; }

template <typename V> __device__ __forceinline__ V ms_block_sum(V v, V* buf) {
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int half = RAW_BLOCK / 2; half > 0; half >>= 1) {
        if ((int)threadIdx.x < half) buf[threadIdx.x] += buf[threadIdx.x + half];
        __syncthreads();
    }
    const V r = buf[0];
    __syncthreads();     // (buf is free again for the next reduction)
    return r;
}

template <typename V> __device__ __forceinline__ V ms_block_max(V v, V* buf) {
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int half = RAW_BLOCK / 2; half > 0; half >>= 1) {
        if ((int)threadIdx.x < half) buf[threadIdx.x] = ms_nanmax(buf[threadIdx.x], buf[threadIdx.x + half]);
        __syncthreads();
    }
    const V r = buf[0];
    __syncthreads();
    return r;
}

template <typename V> __device__ __forceinline__ void ms_merge(V& n, V& m, V& q, V nb, V mb, V qb) {
    if (nb == (V)0) return;
    const V total = n + nb;
    const V d = mb - m;
    m += d * (nb / total);
    q += qb + d * d * (n * (nb / total));
    n = total;
}

// A row's maximum (NaN if it holds one, as cupy.max) and its sum of exp(x - shift), every thread of the block given
// the result (the row's d values at row[0..d), strided over the block's threads).
template <typename V, typename R> __device__ __forceinline__ V ms_row_max(const R* row, long long d, V* buf) {
    V m = ms_get(row[0]);
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) m = ms_nanmax(m, (V)ms_get(row[j]));
    return ms_block_max(m, buf);
}

template <typename V, typename R>
__device__ __forceinline__ V ms_row_expsum(const R* row, long long d, V shift, V* buf) {
    V s = 0;
    for (long long j = threadIdx.x; j < d; j += RAW_BLOCK) s += exp((V)ms_get(row[j]) - shift);
    return ms_block_sum(s, buf);
}

// The index k = (base + j) % size of a thread's values j = threadIdx.x, + RAW_BLOCK, ... of a row starting at flat
// index base, into an array of size values broadcast over the flat index (LayerNorm's gamma and beta span the last
// axes): one division per thread, then carried (RAW_BLOCK % size added, less one size when past it).
struct MsCycle {
    long long k, step, size;
    __device__ __forceinline__ MsCycle(long long base, long long size_) : size(size_) {
        k = (base + threadIdx.x) % size;
        step = RAW_BLOCK % size;
    }
    __device__ __forceinline__ void next() {
        k += step;
        if (k >= size) k -= size;
    }
};

// The block's merge of every thread's (n, m, q) through the shared arrays sn, sm, sq: every thread gets the result.
template <typename V> __device__ __forceinline__ void ms_block_merge(V& n, V& m, V& q, V* sn, V* sm, V* sq) {
    sn[threadIdx.x] = n;
    sm[threadIdx.x] = m;
    sq[threadIdx.x] = q;
    __syncthreads();
    for (int half = RAW_BLOCK / 2; half > 0; half >>= 1) {
        if ((int)threadIdx.x < half) {
            V a = sn[threadIdx.x], b = sm[threadIdx.x], c = sq[threadIdx.x];
            ms_merge(a, b, c, sn[threadIdx.x + half], sm[threadIdx.x + half], sq[threadIdx.x + half]);
            sn[threadIdx.x] = a;
            sm[threadIdx.x] = b;
            sq[threadIdx.x] = c;
        }
        __syncthreads();
    }
    n = sn[0];
    m = sm[0];
    q = sq[0];
}
"""


#: Threads per block of the :class:`RawKernels` (a power of two: their block reductions halve it).
RAW_BLOCK = 256
_BLOCK = (RAW_BLOCK,)
#: Arrays one launch of a multi-array kernel takes (:func:`slots_source`: a replay's 47 gradients copied in 3).
SLOTS = 16


def slot_params(kind, name, slots=SLOTS):
    """The kernel parameters ``<kind> <name>0, ..., <kind> <name>{slots - 1}`` of a multi-array kernel."""
    return ", ".join(f"{kind} {name}{i}" for i in range(slots))


def slot_names(name, slots=SLOTS):
    """``<name>0, ..., <name>{slots - 1}``: the initializer of a multi-array kernel's array of its parameters."""
    return ", ".join(f"{name}{i}" for i in range(slots))


def slots_source(name, src_type, dst_type, body, slots=SLOTS):
    """The CUDA source of a multi-array kernel ``name``: ``slots`` triples (``const src_type* s_k``, ``dst_type* d_k``,
    ``long long n_k``) as parameters, the grid's row ``blockIdx.y`` = k working on triple k, with ``s``, ``d``,
    ``n``, and its thread's ``first`` index and ``stride`` of a grid-stride loop over the row, given to ``body``.
    Launched by :func:`launch_slots`."""
    params = ", ".join([slot_params(f"const {src_type}*", "s", slots), slot_params(f"{dst_type}*", "d", slots),
                        slot_params("long long", "n", slots)])
    return f"""
extern "C" __global__ void {name}({params}) {{
    const {src_type}* src[{slots}] = {{{slot_names("s", slots)}}};
    {dst_type}* dst[{slots}] = {{{slot_names("d", slots)}}};
    const long long size[{slots}] = {{{slot_names("n", slots)}}};
    const {src_type}* s = src[blockIdx.y];
    {dst_type}* d = dst[blockIdx.y];
    const long long n = size[blockIdx.y];
    const long long stride = (long long)gridDim.x * RAW_BLOCK;
    const long long first = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x;
{body}
}}
"""


def slot_args(columns, sizes, slots=SLOTS):
    """A multi-array kernel's array arguments: each of ``columns`` (a list of the arrays its slots in use take, one
    per kernel parameter family) padded to ``slots`` with its first array, then ``sizes`` padded with 0s (the slots
    left over do nothing)."""
    pad = slots - len(sizes)
    return ([a for column in columns for a in list(column) + [column[0]] * pad]
            + [numpy.int64(n) for n in sizes] + [numpy.int64(0)] * pad)


def launch_slots(raw, name, triples, per_thread, slots=SLOTS, **types):
    """One launch of the :func:`slots_source` kernel ``name`` of ``raw`` over ``triples`` (``(src, dst, n)``, at most
    ``slots`` of them; the slots left over repeat the first arrays with n 0): a grid of one row per triple and enough
    blocks for ``per_thread`` of the largest n per thread (at most 128). Raises :class:`FusedUnavailable` as
    :meth:`RawKernels.launch` does."""
    largest = max(n for _, _, n in triples)
    blocks = max(1, min(128, -(-largest // (per_thread * RAW_BLOCK))))
    args = slot_args([[s for s, _, _ in triples], [d for _, d, _ in triples]], [n for _, _, n in triples], slots)
    raw.launch(name, (blocks, len(triples)), tuple(args), **types)


def retrying(fn):
    """The kernel ``fn``, run once more when a fused kernel it launched did not compile (:class:`FusedUnavailable`):
    the fused kernels are off by then, so the second run takes the plain path. A kernel that writes in place
    before its last fused launch handles the refusal itself (batch norm's moving statistics)."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except FusedUnavailable:
            return fn(*args, **kwargs)
    return run


# --- scatter-add for every dtype ----------------------------------------------------------------
# cupy.add.at (CUDA atomicAdd; cupyx.scatter_add is deprecated in CuPy 14) takes int32, uint32, uint64, float16,
# float32 and float64.
_ATOMIC = frozenset(numpy.dtype(t) for t in (numpy.int32, numpy.uint32, numpy.uint64, numpy.float32, numpy.float64))


def scatter_add(target, index, values):
    """``target[index] += values`` in place, repeated indices summed (``numpy.add.at``'s semantics).

    float16 accumulates in float32 (more accurate than half-precision atomics), int64 adds as uint64
    (the same two's-complement bits), narrower integers and bool in int32 (wrapping like NumPy when
    cast back; bool as a logical or). The order of the additions is not fixed, so float sums may
    differ in the last bits from run to run.
    """
    dt = target.dtype
    values = dev(values)
    if dt in _ATOMIC:
        cupy.add.at(target, index, values.astype(dt, copy=False))
        return target
    if dt == numpy.int64:
        cupy.add.at(target.view(numpy.uint64), index, values.astype(numpy.int64).view(numpy.uint64))
        return target
    if dt.kind == "f" or is_bf16(dt):
        acc = target.astype(F32)
        cupy.add.at(acc, index, values.astype(F32))
    elif dt.kind == "c":
        raise TypeError(f"scatter_add does not support {dt} on the GPU")
    else:
        acc = target.astype(numpy.int32)
        cupy.add.at(acc, index, values.astype(numpy.int32))
        if dt == numpy.bool_:
            acc = acc != 0
    target[...] = acc.astype(dt)
    return target


# --- prefix scans --------------------------------------------------------------------------------
def scan(op, a):
    """Inclusive prefix ``op`` (an associative binary ufunc such as ``cupy.maximum``) along axis 0 in
    ``ceil(log2(n))`` vectorised steps (CuPy's ufuncs accumulate only add and multiply)."""
    a = a.copy()
    n, step = a.shape[0], 1
    while step < n:
        a[step:] = op(a[step:], a[:-step])
        step *= 2
    return a


# --- random streams ------------------------------------------------------------------------------
_STREAMS = weakref.WeakKeyDictionary()   # primitive -> (the NumPy stream it was seeded from, RandomState)
_SEED_RANGE = 1 << 63


def device_rng(prim, host_generator):
    """The device random stream of primitive ``prim``: a ``cupy.random.RandomState`` seeded once from
    ``host_generator`` (the primitive's NumPy stream, ``prim.generator()``) and advanced by every draw.
    ``set_seed`` gives the primitive a new NumPy stream, and so a new device stream."""
    entry = _STREAMS.get(prim)
    if entry is None or entry[0] is not host_generator:
        entry = (host_generator, cupy.random.RandomState(int(host_generator.integers(0, _SEED_RANGE))))
        _STREAMS[prim] = entry
    return entry[1]


def fixed_rng(seed, offset):
    """A fresh device stream for an explicit ``(seed, offset)`` pair (the same draws at every call)."""
    key = numpy.random.default_rng([int(seed) % (1 << 64), int(offset) % (1 << 64)])
    return cupy.random.RandomState(int(key.integers(0, _SEED_RANGE)))


# --- counter-based streams: random draws a CUDA graph can replay ----------------------------------
# cuRAND keeps a generator's position on the host, so a replayed CUDA graph would draw the same numbers again (and
# CuPy refuses cuRAND while a stream captures): a graph with a random operator was never captured. A counter-based
# stream keeps its position on the device instead: Philox4x32-10 (Salmon et al., SC'11; cuRAND's and PyTorch's CUDA
# generator) keyed by a 64-bit key, each group of four float32 uniforms the block cipher of one 64-bit counter; the
# counter's next value lives in device memory beside the key, read by the draw and advanced by a second launch, so
# every replay of a captured graph draws new numbers. The product's upper half is taken from a 64-bit product
# (no __umulhi, so the stand-in's C++ build runs it as it is).
_PHILOX = RawKernels("ms_philox", r"""
extern "C" __global__ void ms_philox_uniform(float* __restrict__ u, long long n,
                                             const unsigned long long* __restrict__ state) {
    const unsigned long long key = state[0], offset = state[1];
    const long long groups = (n + 3) / 4;
    for (long long q = (long long)blockIdx.x * RAW_BLOCK + threadIdx.x; q < groups;
         q += (long long)gridDim.x * RAW_BLOCK) {
        const unsigned long long ctr = offset + (unsigned long long)q;
        unsigned int c0 = (unsigned int)ctr, c1 = (unsigned int)(ctr >> 32), c2 = 0u, c3 = 0u;
        unsigned int k0 = (unsigned int)key, k1 = (unsigned int)(key >> 32);
        for (int r = 0; r < 10; ++r) {
            const unsigned long long p0 = 0xD2511F53ull * c0, p1 = 0xCD9E8D57ull * c2;
            const unsigned int n0 = (unsigned int)(p1 >> 32) ^ c1 ^ k0, n2 = (unsigned int)(p0 >> 32) ^ c3 ^ k1;
            c1 = (unsigned int)p1;
            c3 = (unsigned int)p0;
            c0 = n0;
            c2 = n2;
            k0 += 0x9E3779B9u;
            k1 += 0xBB67AE85u;
        }
        const unsigned int words[4] = {c0, c1, c2, c3};
        for (int j = 0; j < 4; ++j) {
            const long long i = q * 4 + j;
            if (i < n) u[i] = (float)(words[j] >> 8) * (1.0f / 16777216.0f);
        }
    }
}

extern "C" __global__ void ms_philox_advance(unsigned long long* __restrict__ state, long long groups) {
    if (blockIdx.x == 0 && threadIdx.x == 0) state[1] += (unsigned long long)groups;
}
""", ("ms_philox_uniform", "ms_philox_advance"))
#: The most blocks a draw launches (each thread then strides over the rest).
_PHILOX_BLOCKS = 1024
#: The primitives whose GPU kernels draw from a counter-based stream, so that a graph holding them may be captured.
COUNTER_RANDOM = frozenset({"Dropout", "Dropout2D", "Dropout3D", "UniformReal", "StandardNormal"})
_COUNTERS = weakref.WeakKeyDictionary()   # primitive -> [the NumPy stream it was keyed from, device uint64 (key, next)]


def counter_streams():
    """Whether the counter-based streams run (:data:`FUSED` on and ``cupy.RawModule`` there); else their callers
    draw from :func:`device_rng`, which a CUDA graph can not replay."""
    return FUSED and _PHILOX.available


def _counter_state(prim, host_generator):
    """The device state of ``prim``'s counter-based stream, keyed from ``host_generator`` (``prim.generator()``):
    made once per primitive, and rewritten in place (the key from the new stream, the counter back to 0) when
    ``set_seed`` gave the primitive a new NumPy stream, so that a captured graph reading it follows the new seed."""
    entry = _COUNTERS.get(prim)
    if entry is not None and entry[0] is host_generator:
        return entry[1]
    key = numpy.array([int(host_generator.integers(0, _SEED_RANGE)), 0], numpy.uint64)
    if entry is None:
        entry = _COUNTERS[prim] = [host_generator, cupy.asarray(key)]
    else:
        entry[0] = host_generator
        entry[1].set(key)
    return entry[1]


def refresh_counter_stream(prim):
    """Rekey ``prim``'s counter-based stream if ``set_seed`` gave it a new NumPy stream since its last draw (what a
    captured graph's replay calls before launching, since no kernel of it runs on the host)."""
    if prim in _COUNTERS:
        _counter_state(prim, prim.generator())


def counter_uniform(prim, shape):
    """float32 uniforms in [0, 1) of ``shape`` (24 random bits each) from ``prim``'s counter-based stream, two
    launches (the draw, the counter's advance), nothing read back; ``None`` when :func:`counter_streams` is off."""
    if not counter_streams():
        return None
    state = _counter_state(prim, prim.generator())
    u = cupy.empty(shape, F32)
    groups = (u.size + 3) // 4
    if groups:
        blocks = min((groups + RAW_BLOCK - 1) // RAW_BLOCK, _PHILOX_BLOCKS)
        _PHILOX.launch("ms_philox_uniform", (blocks,), (u, numpy.int64(u.size), state))
        _PHILOX.launch("ms_philox_advance", (1,), (state, numpy.int64(groups)))
    return u
