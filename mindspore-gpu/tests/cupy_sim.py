"""A NumPy stand-in for CuPy (and ``cupyx``), for running the GPU kernel tables without a GPU.

It is NumPy underneath, but as strict as CuPy wherever a kernel written against NumPy habits would
break on a real device:

* Device arrays are :class:`DeviceArray` (an ``ndarray`` subclass); a plain ``numpy.ndarray`` is a host
  array. Operators, ufuncs and ``cupy.*`` functions refuse host arrays (CuPy raises ``TypeError:
  Unsupported type``), except ``cupy.asarray``/``cupy.array`` (which copy them to the device) and
  ``cupy.asnumpy``; indexing with host index arrays is allowed, as in CuPy. (Operators let 0-d host
  arrays through: NumPy turns a NumPy scalar into one before a subclass sees it.)
* Results are device arrays, never NumPy scalars (CuPy returns 0-d arrays): ``x.sum()``, ``x[0]``,
  ``cupy.add(a, b)`` on 0-d operands.
* A ``numpy.*`` function applied to a device array raises (kernels must call ``cupy.*``).
* Only names CuPy 14 has are offered (``cupy.errstate`` does not exist, for instance);
  ``ufunc.accumulate`` exists only for add and multiply, ``ufunc.reduceat`` only for add,
  ``ufunc.at`` only for add (``cupy.add.at``, CUDA's atomic add: ``cupyx.scatter_add`` is deprecated
  in CuPy 14), whose dtypes are CUDA atomics' (int32, uint32, uint64, float16, float32, float64); sorts are stable (``kind`` must be ``None`` or
  ``'stable'``); ``cupy.where`` needs a device array as condition.
* ``LAUNCHES`` (a :class:`LaunchCounter`) counts the CUDA kernel launches (and host<->device copies) the work
  would take on CuPy, views excepted; ``tests/gpu/launch_count.py`` reports them per training step and primitive.
* By default there is no ``ElementwiseKernel`` (nor ``ReductionKernel``, ``RawModule``): the fused kernels take
  their plain-CuPy paths. ``make_modules(elementwise=True)`` offers them; ``ReductionKernel`` (map, pairwise
  reduce, post-map expressions, CuPy's ``axis``/``keepdims``, one launch) is read by the same parser. The
  ``ElementwiseKernel`` reads the kernel's CUDA C body (a subset: declarations,
  assignments, arithmetic, comparisons, ``?:``, casts, math functions) and evaluates it with NumPy, so the
  generated kernels of ``mindspore_gpu.passes`` and the hand-written fused ones are checked for real. Parameter
  types are read as CuPy reads them, through ``numpy.dtype`` (``float x`` declares float64), and arrays are
  checked against them as CuPy does (an input must cast safely, an output must match exactly: "Type is
  mismatched"). It also offers ``RawModule``: hand-written CUDA C (``extern "C" __global__`` kernels) compiled
  with g++ against ``cuda_emu.h``, which runs CUDA's execution model on the host (blocks in turn, a block's
  threads as fibers meeting at ``__syncthreads()``, shared memory), so raw kernels are run for real too.
* Streams capture (``begin_capture``/``end_capture``) as CUDA's do: captured work is recorded, not run (an
  operation with a result computes it so that shapes flow; in-place writes wait for the replay), and
  ``cupy.cuda.graph.Graph.launch`` replays the recording, recomputing from the arrays' current contents into the
  arrays the capture made. What CUDA or CuPy refuse while a stream captures raises: reading values back
  (``asnumpy``, ``item``, ``bool``), copies from host memory, synchronisations, cuRAND, and cuBLAS
  (CuPy 14's ``NotImplementedError``; ``CAPTURE_CUBLAS["enabled"] = True`` records matrix products as a capture-safe
  GEMM would run them).
* What a real GPU showed (an H100, CuPy 14.2): ``cupy.quantile``/``percentile`` sort NaN last and interpolate, so
  they do NOT propagate NaN as NumPy's do; ``cupy.linalg.svd`` (cuSOLVER) returns singular vector pairs with other
  signs than LAPACK (the stand-in negates the first pair); bfloat16 (``ml_dtypes.bfloat16``) arrays transfer,
  cast and compute, but its sorts (sort, argsort, lexsort, partition, unique, median, quantile, ...) raise
  ``NotImplementedError`` and its scans (cumsum, cumprod, ``add.accumulate``) a ``CompileException``.
* ``cupy.random.RandomState`` has CuPy's signatures (``dtype=`` arguments) over NumPy generators.
* ``cupy.cuda`` has one simulated device (``runtime.getDeviceCount() == 1``), with CuPy 14's ``Device``,
  ``Stream`` (``null``/``ptds`` singletons, a per-thread current stream, ``with stream:``, ``use()``,
  ``done``, ``record``, ``wait_event``), ``Event`` (``record``, ``synchronize``, ``done``) and
  ``get_elapsed_time`` (milliseconds of the host clock; CUDA's errors for events without timing, not
  recorded or not complete). Kernels run at once, so a stream has pending work only when a test says so
  (``stream._launch()``): it stays pending until the stream, an event recorded after it, or the device
  is synchronised. ``cupy.get_default_memory_pool()`` is CuPy's pool in miniature (512-byte rounding,
  ``used_bytes``/``free_bytes``/``total_bytes``, freed blocks cached until ``free_all_blocks``,
  ``set_limit``/``get_limit`` with ``cupy.cuda.memory.OutOfMemoryError`` past the limit after freeing the
  cache, like CuPy): ``pool.malloc(n)`` (and ``cupy.cuda.alloc``) returns a pointer whose collection frees its
  block, and the arrays ``cupy.asarray``/``cupy.array`` copy to the device are allocated from it (other results
  are not). Host uploads as CuPy 14 offers them: ``cupy.cuda.alloc_pinned_memory`` (bytes with NumPy views),
  ``UnownedMemory(ptr, size, owner)`` over a pool block, ``MemoryPointer(mem, offset)`` with
  ``copy_from_host_async`` from a pinned block, and ``cupy.ndarray(shape, dtype, memptr=...)`` over its bytes.

:func:`load_kernel_families` imports ``mindspore_gpu.kernels`` with these modules standing in for
``cupy`` and ``cupyx`` and restores ``sys.modules`` afterwards (the kernel modules keep their stand-in).
:func:`make_plugin` wraps such a table as a test-only backend plugin with its own device target, whose
kernels are also checked to return device arrays.
"""
from __future__ import annotations

import collections
import contextlib
import itertools
import pathlib
import re
import sys
import threading
import time
import types
import weakref

import numpy as np

# The public names of CuPy 14 that NumPy also has (``cupy/__init__.py`` of v14.0.1).
CUPY_NAMES = frozenset("""
abs absolute acos acosh add all allclose amax amin angle any append apply_along_axis apply_over_axes arange arccos
arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort argwhere around array array2string
array_equal array_equiv array_repr array_split array_str asanyarray asarray asarray_chkfinite ascontiguousarray
asfortranarray asin asinh astype atan atan2 atanh atleast_1d atleast_2d atleast_3d average bartlett base_repr
binary_repr bincount bitwise_and bitwise_count bitwise_invert bitwise_left_shift bitwise_not bitwise_or
bitwise_right_shift bitwise_xor blackman bool bool_ broadcast broadcast_arrays broadcast_shapes broadcast_to byte c_
can_cast cbrt cdouble ceil choose clip column_stack common_type complex128 complex64 complexfloating compress concat
concatenate conj conjugate convolve copy copysign copyto corrcoef correlate cos cosh count_nonzero cov cross csingle
cumprod cumsum deg2rad degrees delete diag diag_indices diag_indices_from diagflat diagonal diff digitize divide
divmod dot double dsplit dstack dtype e ediff1d einsum empty empty_like equal euler_gamma exceptions exp exp2
expand_dims expm1 extract eye fabs fft fill_diagonal finfo fix flatiter flatnonzero flip fliplr flipud float16
float32 float64 float_power floating floor floor_divide fmax fmin fmod format_float_positional
format_float_scientific frexp from_dlpack frombuffer fromfile fromfunction fromiter fromstring full full_like gcd
generic genfromtxt get_printoptions gradient greater greater_equal half hamming hanning heaviside histogram
histogram2d histogramdd hsplit hstack hypot i0 identity iinfo imag index_exp indices inexact inf inner int16 int32
int64 int8 int_ intc integer interp intersect1d intp invert isclose iscomplex iscomplexobj isfinite isfortran isin
isinf isnan isneginf isposinf isreal isrealobj isscalar issubdtype iterable ix_ kaiser kron lcm ldexp left_shift
less less_equal lexsort linalg linspace load loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and
logical_not logical_or logical_xor logspace long longlong mask_indices matmul max maximum may_share_memory mean
median meshgrid mgrid min min_scalar_type minimum mintypecode mod modf moveaxis multiply nan nan_to_num nanargmax
nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin nanprod nanstd nansum nanvar ndarray ndim ndindex
negative newaxis nextafter nonzero not_equal number ogrid ones ones_like outer packbits pad partition percentile
permute_dims pi piecewise place poly poly1d polyadd polyfit polymul polynomial polysub polyval positive pow power
printoptions prod promote_types ptp put put_along_axis putmask quantile r_ rad2deg radians random ravel
ravel_multi_index real real_if_close reciprocal remainder repeat require reshape resize result_type right_shift rint
roll rollaxis roots rot90 round row_stack s_ save savetxt savez savez_compressed searchsorted select
set_printoptions setdiff1d setxor1d shape shares_memory short show_config sign signbit signedinteger sin sinc single
sinh size sort sort_complex split sqrt square squeeze stack std subtract sum swapaxes take take_along_axis tan tanh
tensordot testing tile trace transpose trapezoid tri tril tril_indices tril_indices_from trim_zeros triu
triu_indices triu_indices_from true_divide trunc typename ubyte ufunc uint uint16 uint32 uint64 uint8 uintc uintp
ulong ulonglong union1d unique unique_all unique_counts unique_inverse unique_values unpackbits unravel_index
unsignedinteger unwrap ushort vander var vdot vectorize vsplit vstack where zeros zeros_like
""".split())

# Names passed through untouched: dtypes, scalar types, constants and type predicates.
_PLAIN = frozenset("""
bool bool_ byte cdouble complex128 complex64 complexfloating csingle double dtype e euler_gamma finfo float16
float32 float64 floating generic half iinfo inexact inf int16 int32 int64 int8 int_ intc integer intp long longlong
nan newaxis number pi promote_types result_type can_cast common_type min_scalar_type issubdtype mintypecode short
signedinteger single ubyte uint uint16 uint32 uint64 uint8 uintc uintp ulong ulonglong unsignedinteger ushort
isscalar iterable typename ndim shape size
""".split())

_ATOMIC_ADD = frozenset(np.dtype(t) for t in (np.int32, np.uint32, np.uint64, np.float16, np.float32, np.float64))
_ACCUMULATE = {"add", "multiply"}
_REDUCEAT = {"add"}

# bfloat16 (``ml_dtypes.bfloat16``; ``cupy.bfloat16`` does not exist) as CuPy 14.2 takes it, measured on an H100:
# transfers, casts, arithmetic, ufuncs, reductions, matmul, ``where`` and ElementwiseKernels work; its sorts
# (and what CuPy builds on them) raise NotImplementedError, its scans fail to compile (no ``+=`` for bf16).
_BF16_SORTS = frozenset({"sort", "argsort", "lexsort", "partition", "argpartition", "msort", "sort_complex",
                         "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values", "median",
                         "nanmedian", "quantile", "percentile"})
_BF16_SCANS = frozenset({"cumsum", "cumprod", "nancumsum", "nancumprod"})


#: A warnings filter (for ``pytest.mark.filterwarnings``/``-W``) that makes a fused kernel the stand-in would not compile
#: (NVRTC's refusals it models: an unbound type placeholder, an ambiguous float16 ``?:``) fail the test instead of
#: quietly turning the fused kernels off ('.' stands for the message's colon, which the filter syntax reserves).
COMPILE_FAILURES_FAIL = "error:mindspore_gpu. CuPy could not compile:RuntimeWarning"


def warning_marks():
    """The sim tests' ``pytestmark``: the kernels' RuntimeWarnings ignored, except :data:`COMPILE_FAILURES_FAIL`."""
    import pytest
    return [pytest.mark.filterwarnings("ignore::RuntimeWarning"), pytest.mark.filterwarnings(COMPILE_FAILURES_FAIL)]


class CompileException(Exception):
    """``cupy.cuda.compiler.CompileException``: NVRTC rejected a kernel CuPy generated."""


def _is_bf16(obj):
    if isinstance(obj, np.ndarray):
        return obj.dtype.name == "bfloat16"
    if type(obj) in (tuple, list):
        return any(_is_bf16(o) for o in obj)
    return False


def _refuse_bf16(name, args):
    """CuPy 14.2's refusals of bfloat16 for its sorts and scans (see ``_BF16_SORTS``)."""
    if name in _BF16_SORTS and _is_bf16(args):
        raise NotImplementedError("Sorting arrays with dtype 'bfloat16' is not supported")
    if name in _BF16_SCANS and _is_bf16(args):
        raise CompileException(f"cupy.{name}: error: no operator \"+=\" matches these operands "
                               f"(operand types are: __nv_bfloat16 += __nv_bfloat16)")


class HostArrayError(TypeError):
    """A host ``numpy.ndarray`` reached CuPy where CuPy would refuse it."""


class LaunchCounter(threading.local):
    """How many CUDA kernel launches the work run on the stand-in would take on CuPy (``LAUNCHES``): every ufunc
    and operator, reduction, computing ``cupy.*`` function, ``astype``/``copy``/``fill``, ElementwiseKernel call,
    matrix product, gathering or scattering index and copy between host and device counts one (``kind`` names
    it: ``"ufunc add"``, ``"cupy.sum"``, ``"ElementwiseKernel relu"``, ``"h2d"``, ``"d2h"``); views (reshape of
    contiguous data, transpose, basic slicing, ``expand_dims``) count none. Per thread; operations a recorded
    graph replays count again. ``listener``, when set, is called with each launch's kind."""

    def __init__(self):
        self.total = 0
        self.listener = None
        self.nested = 0      # >0 while a counted operation computes with NumPy (what it runs inside is its own)

    def add(self, kind):
        if self.nested == 0:
            self.total += 1
            if self.listener is not None:
                self.listener(kind)


LAUNCHES = LaunchCounter()


def _count_unless_view(kind, result, source):
    """Count ``kind`` unless ``result`` (or a tuple's first element) is a view of ``source`` (nothing computed)."""
    first = result[0] if type(result) in (tuple, list) and result else result
    if isinstance(first, np.generic):   # an element picked by integers: CuPy gives a 0-d view
        return
    if isinstance(first, np.ndarray) and (first.size == 0 or isinstance(source, np.ndarray) and np.may_share_memory(
            first.view(np.ndarray), source.view(np.ndarray))):
        return
    LAUNCHES.add(kind)


class DeviceArray(np.ndarray):
    """A "device" array: NumPy storage with CuPy's manners (see the module docstring)."""

    __array_priority__ = 1000

    def __new__(cls, shape, dtype=float, memptr=None, strides=None, order="C"):
        """``cupy.ndarray(shape, dtype, memptr=...)``: an array over the bytes of ``memptr`` (a
        :class:`MemoryPointer`, kept alive by the array), or over new memory of the pool without one."""
        if memptr is None:
            return _pooled(np.empty(shape, dtype, order=order))
        arr = np.ndarray.__new__(cls, shape, dtype, buffer=memptr._bytes, strides=strides, order=order)
        arr._memptr = memptr
        return arr

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return _apply_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func, types, args, kwargs):
        raise TypeError(f"numpy.{getattr(func, '__name__', func)} was called on a device array: a GPU kernel must "
                        f"use cupy.{getattr(func, '__name__', '...')} (CuPy refuses implicit conversion to NumPy)")

    def __getitem__(self, key):
        if _CAPTURE.stream is not None:
            _refuse_host_transfer("indexing with a host array", key)
            return _captured("ndarray.__getitem__", lambda: self[key])
        result = np.ndarray.__getitem__(self, _unwrap(key))
        _count_unless_view("ndarray.__getitem__", result, self)
        return _wrap(result)

    def __setitem__(self, key, value):
        if _CAPTURE.stream is not None:
            _refuse_host_transfer("assigning a host array", (key, value))
            return _captured("ndarray.__setitem__", lambda: self.__setitem__(key, value), in_place=True)
        LAUNCHES.add("ndarray.__setitem__")
        np.ndarray.__setitem__(self, _unwrap(key), _unwrap(value))

    # the methods below compute on the device without a ufunc: recorded while a stream captures; the ones
    # that read values back to the host are refused then (CUDA: operation not permitted when capturing)
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if _CAPTURE.stream is not None:
            return _captured("ndarray.astype", lambda: self.astype(dtype, order, casting, subok, copy))
        if copy or self.dtype != np.dtype(dtype):
            LAUNCHES.add("ndarray.astype")
        return _wrap(np.ndarray.astype(self, dtype, order=order, casting=casting, subok=subok, copy=copy))

    def copy(self, order="C"):
        if _CAPTURE.stream is not None:
            return _captured("ndarray.copy", lambda: self.copy(order))
        LAUNCHES.add("ndarray.copy")
        return _wrap(np.ndarray.copy(self, order=order))

    def flatten(self, order="C"):
        if _CAPTURE.stream is not None:
            return _captured("ndarray.flatten", lambda: self.flatten(order))
        LAUNCHES.add("ndarray.flatten")
        return _wrap(np.ndarray.flatten(self, order=order))

    def ravel(self, order="C"):
        if _CAPTURE.stream is not None:
            return _captured("ndarray.ravel", lambda: self.ravel(order))
        result = np.ndarray.ravel(self, order=order)
        _count_unless_view("ndarray.ravel", result, self)
        return _wrap(result)

    def set(self, arr, stream=None):
        """CuPy's ``ndarray.set``: a host array of this shape and dtype copied into this buffer (refused while
        capturing, as every copy from pageable host memory)."""
        _refuse_host_transfer("ndarray.set", arr)
        if not isinstance(arr, np.ndarray) or isinstance(arr, DeviceArray):
            raise TypeError(f"Only numpy.ndarray can be set to cupy.ndarray, got {type(arr).__name__}")
        if arr.shape != self.shape or arr.dtype != self.dtype:
            raise ValueError(f"Shape mismatch or dtype mismatch. Old shape: {self.shape}, dtype: {self.dtype}; "
                             f"new shape: {arr.shape}, dtype: {arr.dtype}")
        LAUNCHES.add("h2d")
        np.copyto(self.view(np.ndarray), arr)

    def fill(self, value):
        if _CAPTURE.stream is not None:
            return _captured("ndarray.fill", lambda: self.fill(value), in_place=True)
        LAUNCHES.add("ndarray.fill")
        np.ndarray.fill(self, value)

    def sort(self, *args, **kwargs):
        _refuse_bf16("sort", self)
        if _CAPTURE.stream is not None:
            return _captured("ndarray.sort", lambda: self.sort(*args, **kwargs), in_place=True)
        LAUNCHES.add("ndarray.sort")
        np.ndarray.sort(self, *args, **kwargs)

    def nonzero(self):
        _refuse_during_capture("ndarray.nonzero() (a data-dependent size read back)")
        LAUNCHES.add("ndarray.nonzero")
        return _wrap(np.ndarray.nonzero(self))

    def item(self, *args):
        _refuse_during_capture("ndarray.item()")
        LAUNCHES.add("d2h")
        return np.ndarray.item(self, *args)

    def tolist(self):
        _refuse_during_capture("ndarray.tolist()")
        LAUNCHES.add("d2h")
        return np.ndarray.tolist(self)

    def __bool__(self):
        _refuse_during_capture("bool(ndarray)")
        LAUNCHES.add("d2h")
        return np.ndarray.__bool__(self)

    def __float__(self):
        _refuse_during_capture("float(ndarray)")
        LAUNCHES.add("d2h")
        return np.ndarray.__float__(self)

    def __int__(self):
        _refuse_during_capture("int(ndarray)")
        LAUNCHES.add("d2h")
        return np.ndarray.__int__(self)

    def __index__(self):
        _refuse_during_capture("operator.index(ndarray)")
        LAUNCHES.add("d2h")
        return np.ndarray.__index__(self)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self):
        return "DeviceArray(" + repr(self.view(np.ndarray)) + ")"

    def __str__(self):
        return str(self.view(np.ndarray))


def _base(a):
    return a.view(np.ndarray)


_VIEW_METHODS = frozenset({"reshape", "squeeze", "transpose", "swapaxes", "diagonal"})


def _recorded_method(name):
    """``DeviceArray.<name>``: NumPy's method, recorded while a stream captures (it computes without a ufunc, or
    may copy: ``reshape`` of a non-contiguous array)."""
    method = getattr(np.ndarray, name)

    def proxy(self, *args, **kwargs):
        _refuse_bf16(name, self)
        if _CAPTURE.stream is not None:
            return _captured(f"ndarray.{name}", lambda: proxy(self, *args, **kwargs))
        LAUNCHES.nested += 1
        try:
            result = method(self, *args, **kwargs)
        finally:
            LAUNCHES.nested -= 1
        if name in _VIEW_METHODS:
            _count_unless_view(f"ndarray.{name}", result, self)
        else:
            LAUNCHES.add(f"ndarray.{name}")
        return _wrap(result)
    proxy.__name__ = proxy.__qualname__ = name
    return proxy


for _name in ("reshape", "argmax", "argmin", "cumsum", "cumprod", "take", "repeat", "dot", "clip", "round",
              "argsort", "diagonal", "trace", "searchsorted", "prod", "max", "min", "sum", "mean", "var", "std",
              "all", "any", "conj", "choose", "compress", "squeeze", "transpose", "swapaxes", "partition",
              "argpartition"):
    setattr(DeviceArray, _name, _recorded_method(_name))
del _name


def _unwrap(obj):
    if isinstance(obj, DeviceArray):
        return _base(obj)
    if type(obj) is tuple:
        return tuple(_unwrap(o) for o in obj)
    if type(obj) is list:
        return [_unwrap(o) for o in obj]
    if type(obj) is dict:
        return {k: _unwrap(v) for k, v in obj.items()}
    return obj


def _wrap(obj):
    if isinstance(obj, DeviceArray):
        return obj
    if isinstance(obj, np.ndarray):
        return obj.view(DeviceArray)
    if isinstance(obj, np.generic):
        return np.asarray(obj).view(DeviceArray)
    if type(obj) is tuple:
        return tuple(_wrap(o) for o in obj)
    if type(obj) is list:
        return [_wrap(o) for o in obj]
    return obj


def _refuse_host(where, obj):
    """Raise if ``obj`` holds a host ``numpy.ndarray`` (lists, tuples and dicts searched)."""
    if isinstance(obj, np.ndarray) and not isinstance(obj, DeviceArray):
        raise HostArrayError(f"{where}: a host numpy.ndarray {obj.shape} {obj.dtype} was passed where CuPy needs a "
                             f"device array (move it with cupy.asarray first)")
    if type(obj) in (tuple, list):
        for o in obj:
            _refuse_host(where, o)
    elif type(obj) is dict:
        for o in obj.values():
            _refuse_host(where, o)


def _check_ufunc_method(name, method, inputs=()):
    if method == "accumulate" and name not in _ACCUMULATE:
        raise NotImplementedError(f"`cupy_{name}.accumulate` is not supported yet")
    if method == "accumulate":
        _refuse_bf16({"add": "cumsum", "multiply": "cumprod"}[name], inputs)
    if method == "reduceat" and name not in _REDUCEAT:
        raise NotImplementedError(f"`cupy_{name}.reduceat` is not supported yet")
    if method == "at" and name != "add":
        raise NotImplementedError(f"`cupy_{name}.at` is not supported yet")


def _apply_ufunc(ufunc, method, inputs, kwargs):
    name = getattr(ufunc, "__name__", str(ufunc))
    _check_ufunc_method(name, method, inputs)
    for x in inputs:
        if isinstance(x, (list, tuple)):
            raise TypeError(f"Unsupported type {type(x)} (cupy.{name})")
        if not (isinstance(x, np.ndarray) and x.ndim == 0):
            # (a 0-d host array here is usually a NumPy scalar that NumPy's operators converted on the way,
            # as in ``numpy.float32(2) * device_array``, which CuPy takes)
            _refuse_host(f"cupy.{name}", x)
    out = kwargs.get("out")
    if _CAPTURE.stream is not None:
        if name in _CUBLAS and not CAPTURE_CUBLAS["enabled"] and _capturing_here():
            raise NotImplementedError("calling cuBLAS API during stream capture is currently unsupported")
        return _captured(f"cupy.{name}", lambda: _apply_ufunc(ufunc, method, inputs, kwargs),
                         in_place=out is not None or method == "at", result=out)
    if out is not None:
        outs = out if isinstance(out, tuple) else (out,)
        for o in outs:
            if o is not None and not isinstance(o, DeviceArray):
                raise HostArrayError(f"cupy.{name}: out= must be a device array")
        kwargs = dict(kwargs, out=tuple(None if o is None else _base(o) for o in outs))
    LAUNCHES.add(f"ufunc {name}" if method == "__call__" else f"ufunc {name}.{method}")
    result = getattr(ufunc, method)(*_unwrap(inputs), **_unwrap(kwargs))
    if out is not None:
        return out if not isinstance(out, tuple) or len(out) > 1 else out[0]
    return _wrap(result)


class _Ufunc:
    """``cupy.<ufunc>``: a NumPy ufunc that refuses host arrays and returns device arrays."""

    def __init__(self, ufunc, name=None):
        self._ufunc = ufunc
        self.__name__ = name or ufunc.__name__
        self.nin, self.nout = ufunc.nin, ufunc.nout

    def __call__(self, *args, **kwargs):
        return _apply_ufunc(self._ufunc, "__call__", args, kwargs)

    def reduce(self, *args, **kwargs):
        return _apply_ufunc(self._ufunc, "reduce", args, kwargs)

    def accumulate(self, *args, **kwargs):
        return _apply_ufunc(self._ufunc, "accumulate", args, kwargs)

    def reduceat(self, *args, **kwargs):
        return _apply_ufunc(self._ufunc, "reduceat", args, kwargs)

    def outer(self, *args, **kwargs):
        return _apply_ufunc(self._ufunc, "outer", args, kwargs)

    def at(self, a, indices, b=None):
        _check_ufunc_method(self.__name__, "at")
        scatter_add(a, indices, b)

    def __repr__(self):
        return f"<sim ufunc cupy.{self.__name__}>"


#: CuPy functions that upload their operands' pointers from the host (seen refused while capturing on an H200:
#: ``cupy.concatenate``; ``stack`` and the other joins concatenate).
_HOST_POINTERS = frozenset({"concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"})


#: ``cupy.*`` functions that give views (a launch only where they copy) or compute nothing on the device.
_VIEW_FUNCTIONS = frozenset("""reshape ravel transpose permute_dims expand_dims squeeze broadcast_to broadcast_arrays
moveaxis swapaxes rollaxis atleast_1d atleast_2d atleast_3d split array_split hsplit vsplit dsplit diagonal real imag
flip fliplr flipud rot90 ascontiguousarray asfortranarray asanyarray require""".split())
_NO_LAUNCH = frozenset("may_share_memory shares_memory broadcast_shapes isfortran iscomplexobj isrealobj empty "
                       "empty_like".split())


def _function(name, fn):
    """``cupy.<name>``: the NumPy function, refusing host arrays and returning device arrays."""
    def proxy(*args, **kwargs):
        _refuse_bf16(name, (args, list(kwargs.values())))
        if _CAPTURE.stream is not None:
            if name in _CUBLAS and not CAPTURE_CUBLAS["enabled"] and _capturing_here():
                raise NotImplementedError("calling cuBLAS API during stream capture is currently unsupported")
            if name in _HOST_POINTERS and _capturing_here():
                raise RuntimeError("the current stream is capturing, so H2D transfers are disallowed")
            return _captured(f"cupy.{name}", lambda: proxy(*args, **kwargs), in_place=name in _IN_PLACE,
                             result=args[0] if name in _IN_PLACE else None)
        _refuse_host(f"cupy.{name}", args)
        _refuse_host(f"cupy.{name}", kwargs)
        result = fn(*_unwrap(args), **_unwrap(kwargs))
        if name in _VIEW_FUNCTIONS:
            _count_unless_view(f"cupy.{name}", result, args[0] if args else None)
        elif name not in _NO_LAUNCH:
            LAUNCHES.add(f"cupy.{name}")
        return _wrap(result)
    proxy.__name__ = proxy.__qualname__ = name
    return proxy


# --- the few functions whose CuPy behaviour differs from NumPy's defaults --------------------------
def alloc(size):
    """``cupy.cuda.alloc``: ``size`` bytes from the current allocator (the default pool's ``malloc`` unless
    ``using_allocator`` set another)."""
    allocators = getattr(_tls, "allocators", None)
    malloc = allocators[-1] if allocators and allocators[-1] is not None else _DEFAULT_POOL.malloc
    return malloc(size)


def _pooled(host):
    """``host`` (a fresh NumPy array) as a device array whose memory is taken from the default memory pool
    for as long as the array (or any view of it) lives."""
    memptr = alloc(host.nbytes)
    weakref.finalize(host, memptr.release)
    return host.view(DeviceArray)


def asarray(a, dtype=None, order=None, *, blocking=False):
    """Device arrays pass through (cast if ``dtype`` differs); anything else is copied to the device."""
    if _CAPTURE.stream is not None:
        _refuse_host_transfer("cupy.asarray of host data", a)
        if isinstance(a, DeviceArray) and (dtype is None or a.dtype == np.dtype(dtype)):
            return a
        return _captured("cupy.asarray", lambda: asarray(a, dtype))
    if isinstance(a, DeviceArray):
        return a if dtype is None or a.dtype == np.dtype(dtype) else a.astype(dtype)
    LAUNCHES.add("h2d")
    return _pooled(np.array(_unwrap(a), dtype=dtype, copy=True))


def as_strided(x, shape=None, strides=None):
    """``cupy.lib.stride_tricks.as_strided``: a view of a device array (no kernel, nothing copied; CuPy
    checks no bounds either), refusing host arrays."""
    _refuse_host("cupy.lib.stride_tricks.as_strided", (x,))
    return np.lib.stride_tricks.as_strided(x, shape, strides, subok=True).view(DeviceArray)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    if _CAPTURE.stream is not None:
        _refuse_host_transfer("cupy.array of host data", obj)
        return _captured("cupy.array", lambda: array(obj, dtype, copy, order, subok, ndmin))
    if isinstance(obj, DeviceArray) and not copy and (dtype is None or obj.dtype == np.dtype(dtype)):
        return obj
    LAUNCHES.add("ndarray.copy" if isinstance(obj, DeviceArray) else "h2d")
    return _pooled(np.array(_unwrap(obj), dtype=dtype, copy=True, ndmin=ndmin))


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    _refuse_during_capture("cupy.asnumpy")
    LAUNCHES.add("d2h")
    if isinstance(a, DeviceArray):
        return np.array(_base(a), copy=True)
    return np.asarray(a)


def _sorting(name, fn):
    def proxy(a, axis=-1, kind=None):
        _refuse_bf16(name, a)
        if _CAPTURE.stream is not None:
            return _captured(f"cupy.{name}", lambda: proxy(a, axis, kind))
        if kind not in (None, "stable"):
            raise ValueError(f"cupy.{name}: kind must be None or 'stable' (CuPy's sorts are always stable)")
        _refuse_host(f"cupy.{name}", a)
        LAUNCHES.add(f"cupy.{name}")
        return _wrap(fn(_unwrap(a), axis=axis, kind="stable"))
    proxy.__name__ = name
    return proxy


def _quantile_nan_last(name, percent):
    """``cupy.quantile``/``cupy.percentile`` as CuPy computes them: the data sorted along ``axis`` (NaN last, as its
    sort puts them) and interpolated at ``q * (n - 1)``, so a NaN is NOT propagated (NumPy's quantile gives NaN
    for a slice holding one): a NaN only shows where an index reaches the sorted tail of NaNs."""
    methods = ("linear", "lower", "higher", "midpoint", "nearest")

    def proxy(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
              interpolation=None):
        _refuse_bf16(name, a)
        if _CAPTURE.stream is not None:
            return _captured(f"cupy.{name}", lambda: proxy(a, q, axis, out, overwrite_input, method, keepdims))
        _refuse_host(f"cupy.{name}", (a, q))
        method = interpolation or method
        if method not in methods:
            raise ValueError(f"Unexpected interpolation method.\nActual: '{method}' not in {methods}")
        x = _unwrap(a)
        LAUNCHES.add(f"cupy.{name}")
        qs = np.asarray(_unwrap(q), np.float64) / (100.0 if percent else 1.0)
        if qs.size and not (qs.min() >= 0 and qs.max() <= 1):
            raise ValueError("Quantiles must be in the range [0, 1]" if not percent
                             else "Percentiles must be in the range [0, 100]")
        if axis is None:
            moved, kept_shape = x.reshape(-1), (1,) * x.ndim
        else:
            ax = axis % x.ndim
            moved = np.moveaxis(x, ax, -1)
            kept_shape = x.shape[:ax] + (1,) + x.shape[ax + 1:]
        s = np.sort(moved, axis=-1)                     # NaN last
        n = s.shape[-1]
        pos = qs * (n - 1)
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, n - 1)
        if method == "lower":
            hi = lo
        elif method == "higher":
            lo = hi = np.ceil(pos).astype(np.int64)
        elif method == "nearest":
            lo = hi = np.around(pos).astype(np.int64)
        t = pos - np.floor(pos) if method == "linear" else np.full(pos.shape, 0.5 if method == "midpoint" else 0.0)
        below, above = s[..., lo], s[..., hi]             # (lead..., *q.shape)
        res = below + (above - below) * t
        res = np.moveaxis(res, tuple(range(res.ndim - qs.ndim, res.ndim)), tuple(range(qs.ndim)))
        if keepdims:
            res = res.reshape(qs.shape + kept_shape)
        if x.dtype.kind == "f":
            res = res.astype(x.dtype)
        if out is not None:
            np.copyto(_base(out), res, casting="unsafe")
            return out
        return _wrap(np.asarray(res))
    proxy.__name__ = name
    return proxy


def _svd(a, full_matrices=True, compute_uv=True):
    """``cupy.linalg.svd`` (cuSOLVER's gesvdj/gesvd): the singular values are LAPACK's, but the singular vectors
    come with other signs than LAPACK's. The stand-in negates the first pair (``u[..., :, 0]`` and ``vh[..., 0,
    :]`` together: still a valid decomposition), so a test comparing vectors with NumPy's signs fails here as it
    does on a GPU."""
    _refuse_host("cupy.linalg.svd", a)
    if _CAPTURE.stream is not None:
        return _captured("cupy.linalg.svd", lambda: _svd(a, full_matrices, compute_uv))
    LAUNCHES.add("cupy.linalg.svd")
    x = _unwrap(a)
    if not compute_uv:
        return _wrap(np.linalg.svd(x, compute_uv=False))
    u, s, vh = (np.array(r) for r in np.linalg.svd(x, full_matrices=full_matrices))
    if s.shape[-1]:
        u[..., :, 0] *= -1
        vh[..., 0, :] *= -1
    return _wrap((u, s, vh))


def where(condition, x=None, y=None):
    if _CAPTURE.stream is not None:
        if x is None and y is None:
            _refuse_during_capture("cupy.where(condition) (nonzero: a data-dependent size read back)")
        return _captured("cupy.where", lambda: where(condition, x, y))
    if not isinstance(condition, DeviceArray):
        raise TypeError(f"cupy.where: the condition must be a device array, not {type(condition).__name__}")
    LAUNCHES.add("cupy.where")
    if x is None and y is None:
        return _wrap(np.nonzero(_base(condition)))
    _refuse_host("cupy.where", (x, y))
    out = np.where(_base(condition), _unwrap(x), _unwrap(y))
    if any(isinstance(v, np.generic) and _is_bf16(np.asarray(v)) for v in (x, y)):
        # seen on an H200 with CuPy 14.2: a NumPy bfloat16 *scalar* operand makes the result float32
        out = out.astype(np.float32)
    return _wrap(out)


def take_along_axis(a, indices, axis):
    if _CAPTURE.stream is not None:
        return _captured("cupy.take_along_axis", lambda: take_along_axis(a, indices, axis))
    if not isinstance(indices, DeviceArray) or indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer device array")
    _refuse_host("cupy.take_along_axis", a)
    LAUNCHES.add("cupy.take_along_axis")
    return _wrap(np.take_along_axis(_base(a), _base(indices), axis))


# --- stream capture: recorded, not executed, and replayed by Graph.launch ---------------------------
#: cuBLAS refuses to run while a stream captures (CuPy 14: ``NotImplementedError`` from ``cublas.setStream``);
#: ``CAPTURE_CUBLAS["enabled"] = True`` lets the stand-in record matrix products anyway (a capture-safe GEMM).
CAPTURE_CUBLAS = {"enabled": False}
_CUBLAS = frozenset({"matmul", "dot", "tensordot", "einsum", "inner", "vdot", "kron"})
_IN_PLACE = frozenset({"copyto", "put", "putmask", "place", "fill_diagonal", "put_along_axis"})


class _CaptureState(threading.local):
    stream = None      # the stream capturing in this thread (None: none)


_CAPTURE = _CaptureState()
_CAPTURING = {}    # stream pointer -> the stream, while it captures (any thread)


def _device_free(what):
    """cudaFree synchronises the device: every capture in progress, in any thread, is invalid from then on (CUDA
    reports it at that capture's next operation)."""
    for stream in list(_CAPTURING.values()):
        if not stream._capture_invalid:
            stream._capture_invalid = f"{what} while a stream captured"


def streamIsCapturing(ptr):  # noqa: N802 - CUDA's name
    """``cudaStreamIsCapturing``: 0 not capturing, 1 capturing, 2 capturing but invalidated."""
    stream = _CAPTURING.get(ptr)
    return 0 if stream is None else 2 if stream._capture_invalid else 1


def _capturing_here():
    rec = _CAPTURE.stream
    return rec is not None and get_current_stream() == rec


def _refuse_during_capture(what):
    if _capturing_here():
        _CAPTURE.stream._capture_invalid = what
        raise CUDARuntimeError(f"cudaErrorStreamCaptureUnsupported: operation not permitted when stream is "
                               f"capturing ({what})")


def _refuse_host_transfer(what, obj):
    host = isinstance(obj, np.ndarray) and not isinstance(obj, DeviceArray) and obj.ndim > 0
    if type(obj) in (tuple, list):
        host = any(isinstance(o, (list, np.ndarray)) and not isinstance(o, DeviceArray) for o in obj) or \
            (type(obj) is list)
    elif not isinstance(obj, (np.ndarray, np.generic, int, float, bool, complex, slice, type(None), type(Ellipsis))):
        host = True
    if host:
        _refuse_during_capture(f"{what}: a copy from pageable host memory")


def _uncaptured(thunk):
    rec, _CAPTURE.stream = _CAPTURE.stream, None
    try:
        return thunk()
    finally:
        _CAPTURE.stream = rec


def _captured(where, thunk, in_place=False, result=None):
    """An operation while a stream may capture: on the capturing stream it is recorded (an in-place one is not
    run: captured work does not execute; one with a result computes it, so that shapes flow, and its replay
    writes into that same array); anywhere else it runs."""
    if not _capturing_here():
        return _uncaptured(thunk)
    if _CAPTURE.stream._capture_invalid:
        raise CUDARuntimeError("cudaErrorStreamCaptureInvalidated: operation failed due to a previous error during "
                               "capture")
    ops = _CAPTURE.stream._graph_ops
    if in_place:
        ops.append((where, thunk, None))
        return result
    value = _uncaptured(thunk)
    ops.append((where, thunk, value))
    return value


def _copy_into(dst, src):
    if isinstance(dst, DeviceArray):
        np.copyto(_base(dst), _unwrap(src), casting="unsafe")
    elif type(dst) in (tuple, list):
        for d, v in zip(dst, src):
            _copy_into(d, v)


class Graph:
    """``cupy.cuda.graph.Graph``: the operations recorded by a capture, replayed in order by :meth:`launch` (each
    recomputes from the arrays' current contents and writes into the arrays the capture made)."""

    def __init__(self, ops):
        self._ops = list(ops)
        self.launches = 0

    @property
    def ops(self):
        return [where for where, _, _ in self._ops]

    def launch(self, stream=None):
        if _capturing_here():
            raise CUDARuntimeError("cudaErrorStreamCaptureUnsupported: a graph launched while capturing")
        for _where, thunk, value in self._ops:
            result = _uncaptured(thunk)
            if value is not None:
                _copy_into(value, result)
        self.launches += 1

    def upload(self, stream=None):
        pass


class _UsingAllocator:
    def __init__(self, allocator):
        self.allocator = allocator

    def __enter__(self):
        _tls.__dict__.setdefault("allocators", []).append(self.allocator)

    def __exit__(self, *args):
        _tls.allocators.pop()


def using_allocator(allocator=None):
    """``cupy.cuda.using_allocator``: within the block, this thread's arrays from ``cupy.asarray``/``cupy.array``
    take their memory from ``allocator`` (``MemoryPool.malloc``)."""
    return _UsingAllocator(allocator)


class SimCublasGemm:
    """What ``mindspore_gpu.capture.CublasGemm`` does on a GPU, on device arrays: cuBLAS's column-major strided
    batched ``C = A B`` read from the arrays' flat memory with the given leading dimensions and batch strides (in
    elements), as cuBLAS reads device memory; an access past an array's end raises (an illegal address on a GPU).
    Bound to the capture stream like the real one; recorded (as an in-place write of ``c``) while it captures."""

    def __init__(self, stream):
        self.stream = stream
        self.calls = 0

    def gemm(self, a, b, c, m, n, k, lda, ldb, ldc, stride_a, stride_b, stride_c, batch):
        for x, rows, cols, ld, stride in ((a, m, k, lda, stride_a), (b, k, n, ldb, stride_b),
                                          (c, m, n, ldc, stride_c)):
            if not (isinstance(x, DeviceArray) and x.flags.c_contiguous):
                raise CUDARuntimeError("cublas: operands must be contiguous device arrays")
            if ld < rows or (batch - 1) * stride + (rows - 1) + (cols - 1) * ld >= x.size:
                raise CUDARuntimeError("cudaErrorIllegalAddress: an operand read past its end")

        def view(x, rows, cols, ld, stride, writeable=False):
            flat = _base(x).reshape(-1)
            it = flat.itemsize
            return np.lib.stride_tricks.as_strided(flat, (batch, rows, cols), (stride * it, it, ld * it),
                                                   writeable=writeable)

        def run():
            view(c, m, n, ldc, stride_c, True)[...] = np.matmul(view(a, m, k, lda, stride_a),
                                                                 view(b, k, n, ldb, stride_b))
        self.calls += 1
        if _capturing_here():
            _CAPTURE.stream._graph_ops.append(("cublasGemmStridedBatched", run, None))
        else:
            run()


_byte_bounds = getattr(np, "byte_bounds", None) or np.lib.array_utils.byte_bounds   # (moved in NumPy 2)


class SimCublasLt:
    """What ``mindspore_gpu.gemm``'s cuBLASLt binding does on a GPU, on device arrays: each plan's column-major
    ``D = op_a(A) op_b(B)`` read from the arrays' memory with the layout's leading dimensions, operations and batch
    strides (in elements), as cuBLASLt reads device memory; a read or write past the end of an array's allocation
    raises (an illegal address on a GPU). Half precision is multiplied in float32 and rounded once. Counts the plans
    made and the products run; ``fail`` (an exception) makes ``run`` raise it, as a cuBLASLt error."""

    def __init__(self):
        self.plans = 0
        self.runs = 0
        self.fail = None

    def handle(self, device):
        return ("handle", device)

    def plan(self, handle, lay, tf32):
        self.plans += 1
        return types.SimpleNamespace(found=True, workspace=0, layout=lay, close=lambda: None)

    @staticmethod
    def _view(arr, rows, cols, ld, stride, batch, writeable=False):
        origin = _base(arr)
        root = origin
        while isinstance(root.base, np.ndarray):
            root = root.base
        low, high = _byte_bounds(root)
        it = origin.itemsize
        start = origin.__array_interface__["data"][0]
        last = start + ((batch - 1) * stride + (rows - 1) + (cols - 1) * ld) * it
        if ld < rows or start < low or last + it > high:
            raise CUDARuntimeError("cudaErrorIllegalAddress: a cuBLASLt operand read past its allocation")
        return np.lib.stride_tricks.as_strided(origin, (batch, rows, cols), (stride * it, it, ld * it),
                                               writeable=writeable)

    def run(self, plan, a, b, d, workspace, stream):
        if self.fail is not None:
            raise self.fail
        lay = plan.layout
        a_rows, a_cols = (lay.m, lay.k) if lay.trans_a == 0 else (lay.k, lay.m)
        b_rows, b_cols = (lay.k, lay.n) if lay.trans_b == 0 else (lay.n, lay.k)
        av = self._view(a, a_rows, a_cols, lay.lda, lay.stride_a, lay.batch)
        bv = self._view(b, b_rows, b_cols, lay.ldb, lay.stride_b, lay.batch)
        dv = self._view(d, lay.m, lay.n, lay.ldd, lay.stride_d, lay.batch, writeable=True)
        if lay.trans_a:
            av = av.swapaxes(-1, -2)
        if lay.trans_b:
            bv = bv.swapaxes(-1, -2)
        wide = np.float32 if lay.dtype.itemsize <= 4 else lay.dtype
        dv[...] = np.matmul(av.astype(wide), bv.astype(wide)).astype(lay.dtype)
        self.runs += 1
        LAUNCHES.add("cublasLtMatmul")


# --- cupy.ElementwiseKernel: CUDA C of per-element statements, run with NumPy -----------------------
_C_TYPES = {"float": np.float32, "double": np.float64, "bool": np.bool_, "int": np.int32, "long long": np.int64,
            "ptrdiff_t": np.int64,
            "float16": np.float16, "signed char": np.int8, "unsigned char": np.uint8, "short": np.int16,
            "long": np.int64, "unsigned int": np.uint32}
_C_FUNCS = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh, "fmax": np.fmax, "fmin": np.fmin,
            "fabs": np.fabs, "log1p": np.log1p, "expm1": np.expm1, "pow": np.power, "isnan": np.isnan,
            "abs": np.abs, "rsqrt": lambda x: 1 / np.sqrt(x), "erf": None, "max": np.maximum, "min": np.minimum,
            "cos": np.cos}


class _CParser:
    """A recursive-descent reader of the C subset ElementwiseKernel bodies here are written in: declarations
    and assignments (``T u = ...;``, ``y = ...;``), ``?:``, ``||``, ``&&``, comparisons, ``+ - * / %`` (C's
    truncating ``/`` and ``%`` between integers), unary ``- !``, casts ``(T)``/``(float)``, calls of math
    functions, element reads of raw arrays (``x[k]``, ``k`` a flat C-order index), names and numbers. Anything else
    raises."""

    import re as _re
    TOKEN = _re.compile(r"\s*(?:(\d+\.\d*(?:[eE][-+]?\d+)?[fF]?|\.\d+(?:[eE][-+]?\d+)?[fF]?|\d+(?:[eE][-+]?\d+)?[fF]?)"
                        r"|([A-Za-z_]\w*)|(\|\||&&|==|!=|<=|>=|[-+*/%?:()<>!,;=\[\]]))")

    def __init__(self, src, types):
        self.tokens = []
        pos = 0
        src = src.strip()
        while pos < len(src):
            m = self.TOKEN.match(src, pos)
            if m is None or m.end() == pos:
                if src[pos:].strip() == "":
                    break
                raise SyntaxError(f"ElementwiseKernel: can not read {src[pos:pos + 20]!r}")
            num, name, op = m.groups()
            self.tokens.append(("num", num) if num else ("name", name) if name else ("op", op))
            pos = m.end()
        self.i = 0
        self.types = types          # type names -> numpy dtypes (T resolved)

    def peek(self, k=0):
        return self.tokens[self.i + k] if self.i + k < len(self.tokens) else ("end", None)

    def take(self, value=None):
        tok = self.peek()
        if value is not None and tok[1] != value:
            raise SyntaxError(f"ElementwiseKernel: expected {value!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def statements(self):
        out = []
        while self.peek()[0] != "end":
            if self.peek()[1] == ";":
                self.take()
                continue
            dtype = None
            if self.peek()[0] == "name" and self.peek()[1] in self.types and self.peek(1)[0] == "name":
                dtype = self.types[self.take()[1]]
            name = self.take()[1]
            self.take("=")
            out.append((name, dtype, self.ternary()))
            self.take(";")
        return out

    def ternary(self):
        cond = self.binary(0)
        if self.peek()[1] == "?":
            self.take()
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return ("?", cond, a, b)
        return cond

    LEVELS = (("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%"))

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in self.LEVELS[level]:
            op = self.take()[1]
            left = (op, left, self.binary(level + 1))
        return left

    def unary(self):
        tok = self.peek()
        if tok[1] in ("-", "!"):
            self.take()
            return ("neg" if tok[1] == "-" else "not", self.unary())
        if tok[1] == "(" and self.peek(1)[0] == "name" and self.peek(1)[1] in self.types and self.peek(2)[1] == ")":
            self.take()
            dtype = self.types[self.take()[1]]
            self.take(")")
            return ("cast", dtype, self.unary())
        return self.primary()

    def primary(self):
        kind, value = self.take()
        if kind == "num":
            is_float = any(c in value for c in ".eEfF")
            if not is_float:
                return ("num", int(value), np.dtype(np.int32))
            return ("num", float(value.rstrip("fF")), np.dtype(np.float32 if value[-1] in "fF" else np.float64))
        if kind == "name":
            if self.peek()[1] == "(":
                self.take()
                args = [self.ternary()]
                while self.peek()[1] == ",":
                    self.take()
                    args.append(self.ternary())
                self.take(")")
                if _C_FUNCS.get(value) is None:
                    raise SyntaxError(f"ElementwiseKernel: unknown function {value!r}")
                return ("call", value, args)
            if self.peek()[1] == "[":
                self.take()
                index = self.ternary()
                self.take("]")
                return ("index", value, index)
            return ("var", value)
        if value == "(":
            e = self.ternary()
            self.take(")")
            return e
        raise SyntaxError(f"ElementwiseKernel: unexpected {value!r}")


_BIN = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide, "<": np.less, ">": np.greater,
        "<=": np.less_equal, ">=": np.greater_equal, "==": np.equal, "!=": np.not_equal,
        "||": np.logical_or, "&&": np.logical_and}


def _c_eval(e, env, memo=None):
    kind = e[0]
    if kind == "num":
        return e[1]
    if kind == "var":
        return env[e[1]]
    if kind == "memo":        # a data-independent subexpression (see _memo_plan): computed once per geometry
        value = memo.get(e[1], memo)
        if value is memo:
            value = memo[e[1]] = _c_eval(e[2], env, memo)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        return value
    if kind == "cast":
        v = _c_eval(e[2], env, memo)
        return np.asarray(v).astype(e[1])
    if kind == "neg":
        return np.negative(_c_eval(e[1], env, memo))
    if kind == "not":
        return np.logical_not(_c_eval(e[1], env, memo))
    if kind == "call":
        return _C_FUNCS[e[1]](*[_c_eval(a, env, memo) for a in e[2]])
    if kind == "?":
        return np.where(_c_eval(e[1], env, memo), _c_eval(e[2], env, memo), _c_eval(e[3], env, memo))
    if kind == "index":
        return _c_index(e[1], env[e[1]], _c_eval(e[2], env, memo))
    a, b = _c_eval(e[1], env, memo), _c_eval(e[2], env, memo)
    if kind in ("/", "%") and np.asarray(a).dtype.kind in "iub" and np.asarray(b).dtype.kind in "iub":
        if np.any(np.asarray(b) == 0):
            raise ZeroDivisionError("ElementwiseKernel: an integer division by zero (undefined in CUDA C)")
        rem = np.fmod(a, b)                 # C's remainder: the dividend's sign (fmod on integers)
        return rem if kind == "%" else (np.subtract(a, rem)) // b
    with np.errstate(all="ignore"):
        return _BIN[kind](a, b)


def _c_free(e):
    """The names expression ``e`` reads (variables, and the raw arrays it indexes)."""
    kind = e[0]
    if kind == "num":
        return set()
    if kind == "var":
        return {e[1]}
    if kind == "index":
        return {e[1]} | _c_free(e[2])
    if kind == "call":
        return set().union(*map(_c_free, e[2])) if e[2] else set()
    if kind == "cast":
        return _c_free(e[2])
    return set().union(*map(_c_free, e[1:]))


def _memo_plan(statements, static, outputs):
    """How :meth:`ElementwiseKernel._run` evaluates ``statements`` again with the same geometry: names in ``static``
    (``i`` and the scalar arguments) hold the same values in every such call, and so does every statement computing
    from them alone (the index arithmetic of a gather: ``n = r % nn; ...``). Returns a list of ``(static?, name,
    dtype, expr)``: a static statement is skipped once its values are memoized, and in the others each largest
    subexpression reading static names only becomes ``("memo", slot, expr)``, evaluated at the first call only.
    A statement writing an output is never skipped (the outputs are copied out at the end)."""
    static, slots, plan = set(static), [0], []

    def wrap(e):
        if e[0] != "num" and _c_free(e) <= static:
            slots[0] += 1
            return ("memo", slots[0], e)
        kind = e[0]
        if kind in ("num", "var"):
            return e
        if kind == "index":
            return (kind, e[1], wrap(e[2]))
        if kind == "call":
            return (kind, e[1], [wrap(a) for a in e[2]])
        if kind == "cast":
            return (kind, e[1], wrap(e[2]))
        return (kind,) + tuple(wrap(a) for a in e[1:])

    for name, dtype, expr in statements:
        if name not in outputs and _c_free(expr) <= static:
            plan.append((True, name, dtype, expr))
            static.add(name)
        else:
            plan.append((False, name, dtype, wrap(expr)))
            static.discard(name)
    return plan


#: ElementwiseKernel bodies read and type-checked: (operation, params, type map) -> statements
_EW_PARSED = {}
#: their :func:`_memo_plan` per set of scalar arguments: (operation, params, type map, scalar names) -> plan
_EW_PLANS = {}
#: memoized data-independent values of ElementwiseKernel calls, least recently used first: (operation, params, type
#: map, shape, scalar arguments) -> (plan, {slot: value}, [target dtype per statement], bytes held); at most
#: _EW_MEMO_BYTES and _EW_MEMO_ENTRIES of them (a kernel whose scalars change at every call, such as an optimizer's
#: step count, never hits: its entries only age out)
_EW_MEMO = collections.OrderedDict()
_EW_MEMO_BYTES = 256 << 20
_EW_MEMO_ENTRIES = 4096
_EW_MEMO_HELD = [0]


def _memo_bytes(values):
    """The memory ``values`` hold (a broadcast view holds its base's, not its shape's)."""
    total = 0
    for v in values.values():
        while isinstance(v, np.ndarray) and v.base is not None:
            v = v.base
        total += v.nbytes if isinstance(v, np.ndarray) else 0
    return total


_F16 = np.dtype(np.float16)


def _c_arith(t):
    """The type a built-in C operator computes an operand in: CuPy's ``float16`` class converts to ``float`` (its
    one implicit conversion; it has no arithmetic operators of its own), bool and narrow integers to ``int``."""
    t = np.dtype(t)
    if t == _F16:
        return np.dtype(np.float32)
    if t.kind == "b" or (t.kind in "iu" and t.itemsize < 4):
        return np.dtype(np.int32)
    return t


def _c_common(a, b):
    """C's usual arithmetic conversions (after :func:`_c_arith`): the wider float, else the wider integer."""
    a, b = _c_arith(a), _c_arith(b)
    floats = [t for t in (a, b) if t.kind == "f"]
    if floats:
        return max(floats, key=lambda t: t.itemsize)
    return np.result_type(a, b)


def _ambiguous(what, types):
    raise CompileException(f"error: ambiguous {what}: operands of type {' and '.join(map(str, types))} (CuPy's "
                           f"float16 converts to float and float converts to float16, so NVRTC can pick neither)")


def _c_type(e, vt):
    """The static C type of expression ``e`` (``vt``: names -> dtypes), as NVRTC types CuPy's generated source;
    raises :class:`CompileException` where NVRTC refuses it: a ``?:`` or a ``min``/``max``/``fmin``/``fmax``
    call mixing ``float16`` with another type is ambiguous there."""
    kind = e[0]
    if kind == "num":
        return e[2]
    if kind == "var":
        return np.dtype(vt[e[1]])
    if kind == "index":
        _c_type(e[2], vt)
        return np.dtype(vt[e[1]])
    if kind == "cast":
        _c_type(e[2], vt)
        return np.dtype(e[1])
    if kind == "neg":
        return _c_arith(_c_type(e[1], vt))
    if kind == "not":
        _c_type(e[1], vt)
        return np.dtype(np.bool_)
    if kind == "call":
        types = [_c_type(a, vt) for a in e[2]]
        if e[1] == "isnan":
            return np.dtype(np.int32)
        if e[1] in ("min", "max", "fmin", "fmax") and _F16 in types:
            if any(t != _F16 for t in types):
                _ambiguous(f"call of {e[1]}", types)
            return _F16
        out = types[0]
        for t in types[1:]:
            out = _c_common(out, t)
        return _c_arith(out)
    if kind == "?":
        _c_type(e[1], vt)
        a, b = _c_type(e[2], vt), _c_type(e[3], vt)
        if a == b:
            return a
        if _F16 in (a, b):
            _ambiguous('"?" operation', (a, b))
        return _c_common(a, b)
    a, b = _c_type(e[1], vt), _c_type(e[2], vt)
    if kind in ("<", ">", "<=", ">=", "==", "!=", "||", "&&"):
        return np.dtype(np.bool_)
    return _c_common(a, b)


def _bind_types(name, in_params, out_params, ins, outs):
    """The placeholder types of a call, decided as CuPy decides them (``_decide_params_type_core``): the outputs
    given first, then the inputs that are device arrays; scalars (Python or NumPy) bind nothing and take the type
    decided for their placeholder. A declared type must match exactly; a placeholder bound to two dtypes, or not
    bound at all, is an error (TypeError, KeyError), as in CuPy."""
    bound = {}

    def bind(tname, pname, dtype):
        declared = _param_dtype(tname)
        if declared is not None:
            if np.dtype(dtype) != declared:
                raise TypeError(f"Type is mismatched. {pname} {dtype} {declared}")
        elif tname in bound:
            if bound[tname] != np.dtype(dtype):
                raise TypeError(f"Type is mismatched. {pname} {dtype} {bound[tname]} {tname}")
        else:
            bound[tname] = np.dtype(dtype)
    for (tname, pname, _), o in zip(out_params, outs):
        bind(tname, pname, o.dtype)
    for (tname, pname, _), a in zip(in_params, ins):
        if isinstance(a, DeviceArray):
            bind(tname, pname, a.dtype)
    types = dict(_C_TYPES)
    for tname, _, _ in in_params + out_params:
        declared = _param_dtype(tname)
        if declared is not None:
            types[tname] = declared
        elif tname not in bound:
            raise KeyError(tname)       # what CuPy raises: no array decides the placeholder
        else:
            types[tname] = bound[tname]
    return types


def _c_index(name, raw, index):
    """``raw[index]`` as CUDA reads a raw ``CArray`` by a flat index: the element at that C-order position of its
    logical shape (whatever its strides); a position outside the array is an illegal address on a GPU: raised
    (both arms of a ``?:`` are evaluated here, so a kernel must keep even an unused index in range)."""
    if not isinstance(raw, _RawArray):
        raise SyntaxError(f"ElementwiseKernel: {name!r} is indexed but is not a raw array parameter")
    index = np.asarray(index)
    if index.dtype.kind not in "iu":
        raise TypeError(f"ElementwiseKernel: {name}[...] needs an integer index, got {index.dtype}")
    flat = raw.flat_values
    if index.size and (index.min() < 0 or index.max() >= flat.size):
        raise IndexError(f"cudaErrorIllegalAddress: {name}[{int(index.min())}..{int(index.max())}] read outside "
                         f"its {flat.size} elements")
    return flat[index]


class _RawArray:
    """A ``raw`` parameter's array as a kernel body sees it: not broadcast, read by flat index only."""

    def __init__(self, array):
        self.flat_values = np.ascontiguousarray(_unwrap(array)).reshape(-1)


def _params(text):
    out = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        words = part.split()
        raw = words[0] == "raw"
        words = words[1:] if raw else words
        out.append((" ".join(words[:-1]), words[-1], raw))
    return out


def _param_dtype(tname):
    """The dtype CuPy gives a parameter's declared type: ``numpy.dtype`` of the name (so ``float`` is float64,
    as in CuPy, whatever C says), None for a type placeholder (``T``, any one-letter name)."""
    if len(tname) == 1:
        return None
    return np.dtype(tname)


class ElementwiseKernel:
    """``cupy.ElementwiseKernel(in_params, out_params, operation, name)`` run by NumPy: the body is read by a C
    subset parser (a body the stand-in can not read is an error, as CUDA's compiler would give one), the operands
    broadcast, type ``T`` (or any one-letter type) is taken from the first input declared with it, outputs are
    allocated when not given, and each statement is evaluated over whole arrays in its declared type."""

    def __init__(self, in_params, out_params, operation, name="kernel", **kwargs):
        self.in_params, self.out_params = _params(in_params), _params(out_params)
        self.operation, self.name = operation, name
        _CParser(operation, dict(_C_TYPES, T=np.float32)).statements()   # syntax checked at construction
        self.calls = 0

    def __call__(self, *args, size=None, **kwargs):
        if _CAPTURE.stream is not None:
            outs_given = len(args) > len(self.in_params)
            return _captured(f"ElementwiseKernel {self.name}", lambda: self(*args, size=size), in_place=outs_given,
                             result=(args[len(self.in_params):] if len(self.out_params) > 1 else
                                     args[len(self.in_params)]) if outs_given else None)
        n_in = len(self.in_params)
        if len(args) not in (n_in, n_in + len(self.out_params)):
            raise TypeError(f"Wrong number of arguments for {self.name!r}")
        LAUNCHES.add(f"ElementwiseKernel {self.name}")
        LAUNCHES.nested += 1
        try:
            return self._run(args)
        finally:
            LAUNCHES.nested -= 1

    def _run(self, args):
        n_in = len(self.in_params)
        ins = list(args[:n_in])
        for (tname, pname, raw), a in zip(self.in_params, ins):
            if isinstance(a, np.ndarray) and not isinstance(a, DeviceArray) and a.ndim:
                raise HostArrayError(f"ElementwiseKernel {self.name}: a host array for {pname}")
        outs = list(args[n_in:])
        types = _bind_types(self.name, self.in_params, self.out_params, ins, outs)
        type_key = tuple(sorted((k, np.dtype(v).str, np.dtype(v).name) for k, v in types.items()))
        parsed_key = (self.operation, tuple(self.in_params), tuple(self.out_params), type_key)
        statements = _EW_PARSED.get(parsed_key)
        if statements is None:
            statements = _CParser(self.operation, types).statements()
            # the generated source as NVRTC types it (compiled per type map, at the first call that needs it)
            vt = {pname: types[tname] for tname, pname, _ in self.in_params + self.out_params}
            vt["i"] = np.dtype(np.int64)
            for name, dtype, expr in statements:
                _c_type(expr, vt)
                if dtype is not None:
                    vt[name] = np.dtype(dtype)
            _EW_PARSED[parsed_key] = statements
        arrays = [_unwrap(a) for (_, _, raw), a in zip(self.in_params, ins) if isinstance(a, np.ndarray) and not raw]
        shape = np.broadcast_shapes(*[a.shape for a in arrays] + [o.shape for o in outs]) if arrays or outs else ()
        if not outs:
            for tname, pname, raw in self.out_params:
                outs.append(empty_like_shape(shape, types[tname]))
        # ``i``: the element's index in the (C-order) loop over the broadcast shape
        env = {"i": np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)}
        for (tname, pname, raw), a in zip(self.in_params, ins):
            if raw:
                if not isinstance(a, np.ndarray) or a.dtype != np.dtype(types[tname]):
                    raise TypeError(f"Type is mismatched. {pname} {getattr(a, 'dtype', type(a))} {types[tname]}")
                env[pname] = _RawArray(a)
                continue
            env[pname] = np.broadcast_to(np.asarray(_unwrap(a)).astype(types[tname], copy=False), shape)
        for (tname, pname, raw), o in zip(self.out_params, outs):
            env[pname] = np.array(_base(o), copy=True)
        # what depends on the geometry only (the index arithmetic, from ``i`` and the scalar arguments) is computed
        # once per (body, types, shape, scalar values) and memoized: the same numbers, without the NumPy work
        scalars = tuple((pname, v.dtype.name, v.tobytes()) for pname, v in
                        ((pname, np.asarray(a).astype(types[tname])) for (tname, pname, raw), a
                         in zip(self.in_params, ins) if not raw and not isinstance(a, np.ndarray)))
        memo_key = parsed_key + (tuple(shape), scalars)
        entry = _EW_MEMO.get(memo_key)
        if entry is None:
            plan_key = parsed_key + (tuple(s[0] for s in scalars),)
            plan = _EW_PLANS.get(plan_key)
            if plan is None:
                plan = _EW_PLANS[plan_key] = _memo_plan(statements, {"i"} | {s[0] for s in scalars},
                                                        {p for _, p, _ in self.out_params})
            values, targets, hit = {}, [], False
        else:
            _EW_MEMO.move_to_end(memo_key)
            (plan, values, targets, _), hit = entry, True
        for k, (static, name, dtype, expr) in enumerate(plan):
            if static and hit:
                continue
            value = _c_eval(expr, env, values)
            if hit:
                target = targets[k]
            else:
                target = dtype or (env[name].dtype if name in env and isinstance(env[name], np.ndarray) else None)
                targets.append(target)
            env[name] = np.broadcast_to(np.asarray(value).astype(target, copy=False), shape) if target else value
        if not hit:
            held = _memo_bytes(values)
            _EW_MEMO[memo_key] = (plan, values, targets, held)
            _EW_MEMO_HELD[0] += held
            while (_EW_MEMO_HELD[0] > _EW_MEMO_BYTES or len(_EW_MEMO) > _EW_MEMO_ENTRIES) and len(_EW_MEMO) > 1:
                _EW_MEMO_HELD[0] -= _EW_MEMO.popitem(last=False)[1][3]
        for (tname, pname, raw), o in zip(self.out_params, outs):
            np.copyto(_base(o), env[pname], casting="unsafe")
        self.calls += 1
        return outs[0] if len(outs) == 1 else tuple(outs)


class ReductionKernel:
    """``cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name,
    reduce_type=None, reduce_dims=True, preamble='', options=())`` run by NumPy, called as CuPy's
    ``kernel(*args, axis=None, keepdims=False, stream=None)`` with the outputs optionally given after the inputs.

    The expressions are read by the ElementwiseKernel's C subset parser (``map_expr`` and ``reduce_expr`` are
    expressions, ``post_map_expr`` one assignment to an output, as CuPy pastes it into parentheses; ``identity`` a
    number). The inputs broadcast; ``map_expr`` is
    evaluated over them in ``reduce_type`` (default: the first output's type), the mapped values are combined
    pairwise by ``reduce_expr`` (``a``, ``b``) along the reduced axes from ``identity``, and ``post_map_expr``
    writes each output from the reduced ``a`` (outputs and scalar inputs in scope). One launch per call; host
    arrays are refused, as everywhere in the stand-in."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        if preamble:
            raise SyntaxError("ReductionKernel: the stand-in reads no preamble")
        self.in_params, self.out_params = _params(in_params), _params(out_params)
        if not self.out_params:
            raise ValueError("ReductionKernel: no output parameter")
        if any(raw for _, _, raw in self.out_params):
            raise NotImplementedError("ReductionKernel: raw outputs are not supported by the stand-in")
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity, self.name, self.reduce_type = identity, name, reduce_type
        types = dict(_C_TYPES, T=np.float32)
        for text in (map_expr, reduce_expr, identity):         # syntax checked at construction
            self._expr(text, types)
        self._post(types)
        self.calls = 0

    def _post(self, types):
        """``post_map_expr``: CuPy pastes it into ``(...)`` as one expression, so one assignment to an output
        (``y = a`` or ``y = f(a)``; no declaration, no ``;`` between statements)."""
        parser = _CParser(self.post_map_expr, types)
        kind, name = parser.take()
        if kind != "name" or name not in [p for _, p, _ in self.out_params]:
            raise SyntaxError(f"ReductionKernel: post_map_expr {self.post_map_expr!r} must assign an output")
        parser.take("=")
        e = parser.ternary()
        if parser.peek()[0] != "end":
            raise SyntaxError(f"ReductionKernel: unexpected {parser.peek()[1]!r} in {self.post_map_expr!r}")
        return name, e

    @staticmethod
    def _expr(text, types):
        parser = _CParser(text, types)
        e = parser.ternary()
        if parser.peek()[0] != "end":
            raise SyntaxError(f"ReductionKernel: unexpected {parser.peek()[1]!r} in {text!r}")
        return e

    def __call__(self, *args, axis=None, keepdims=False, stream=None):
        n_in = len(self.in_params)
        if len(args) not in (n_in, n_in + len(self.out_params)):
            raise TypeError(f"Wrong number of arguments for {self.name!r}")
        if _CAPTURE.stream is not None:
            outs_given = len(args) > n_in
            return _captured(f"ReductionKernel {self.name}",
                             lambda: self(*args, axis=axis, keepdims=keepdims), in_place=outs_given,
                             result=(args[n_in:] if len(self.out_params) > 1 else args[n_in]) if outs_given else None)
        for (_, pname, _), a in zip(self.in_params + self.out_params, args):
            if isinstance(a, np.ndarray) and not isinstance(a, DeviceArray):
                raise HostArrayError(f"ReductionKernel {self.name}: a host array for {pname}")
        LAUNCHES.add(f"ReductionKernel {self.name}")
        LAUNCHES.nested += 1
        try:
            return self._run(args, axis, keepdims)
        finally:
            LAUNCHES.nested -= 1

    def _run(self, args, axis, keepdims):
        n_in = len(self.in_params)
        if any(raw for _, _, raw in self.in_params):
            raise NotImplementedError("ReductionKernel: raw inputs are not supported by the stand-in")
        types = _bind_types(self.name, self.in_params, self.out_params, args[:n_in], args[n_in:])
        arrays = [_unwrap(a) for a in args[:n_in] if isinstance(a, np.ndarray)]
        shape = np.broadcast_shapes(*[a.shape for a in arrays]) if arrays else ()
        ndim = len(shape)
        given = tuple(range(ndim)) if axis is None else (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        if any(not -ndim <= int(a) < ndim for a in given):
            raise ValueError(f"ReductionKernel {self.name}: axis {axis} is out of bounds for {ndim} dimensions")
        axes = tuple(sorted(int(a) % ndim for a in given))
        if len(set(axes)) != len(axes):
            raise ValueError(f"ReductionKernel {self.name}: axis {axis} repeats an axis")
        kept = tuple(d for d in range(ndim) if d not in axes)
        out_shape = tuple(1 if d in axes else shape[d] for d in range(ndim)) if keepdims else tuple(
            shape[d] for d in kept)
        reduce_dt = np.dtype(types[self.reduce_type] if self.reduce_type in types else
                             self.reduce_type if self.reduce_type else types[self.out_params[0][0]])
        # the generated source as NVRTC types it
        vt = {pname: types[tname] for tname, pname, _ in self.in_params + self.out_params}
        _c_type(self._expr(self.map_expr, types), vt)
        _c_type(self._expr(self.reduce_expr, types), {"a": reduce_dt, "b": reduce_dt})
        _c_type(self._post(types)[1], dict(vt, a=reduce_dt))
        env = {pname: np.broadcast_to(np.asarray(_unwrap(a)).astype(types[tname], copy=False), shape)
               for (tname, pname, _), a in zip(self.in_params, args[:n_in])}
        mapped = np.broadcast_to(np.asarray(_c_eval(self._expr(self.map_expr, types), env)).astype(reduce_dt),
                                 shape)
        # the reduced axes last, flattened into one, combined pairwise from the identity
        v = np.transpose(mapped, kept + axes).reshape(tuple(shape[d] for d in kept) + (-1,))
        ident = np.asarray(_c_eval(self._expr(self.identity, types), {})).astype(reduce_dt)
        reduce_e = self._expr(self.reduce_expr, types)
        if v.shape[-1] == 0:
            v = np.broadcast_to(ident, v.shape[:-1] + (1,))
        while v.shape[-1] > 1:
            if v.shape[-1] % 2:
                v = np.concatenate([v, np.broadcast_to(ident, v.shape[:-1] + (1,))], axis=-1)
            h = v.shape[-1] // 2
            v = np.asarray(_c_eval(reduce_e, {"a": v[..., :h], "b": v[..., h:]})).astype(reduce_dt)
        reduced = v[..., 0].reshape(out_shape)
        outs = list(args[n_in:])
        for (tname, pname, _), o in zip(self.out_params, outs):
            if o.shape != out_shape:
                raise ValueError(f"ReductionKernel {self.name}: output {pname} has shape {o.shape}, the reduction "
                                 f"gives {out_shape}")
            if o.dtype != np.dtype(types[tname]):
                raise TypeError(f"Type is mismatched. {pname} {o.dtype} {types[tname]}")
        if not outs:
            outs = [empty_like_shape(out_shape, types[tname]) for tname, _, _ in self.out_params]
        post = {pname: a for (_, pname, _), a in zip(self.in_params, args[:n_in]) if not isinstance(a, np.ndarray)}
        post.update({pname: np.array(_base(o), copy=True) for (_, pname, _), o in zip(self.out_params, outs)})
        post["a"] = reduced
        name, expr = self._post(types)
        post[name] = np.broadcast_to(np.asarray(_c_eval(expr, post)).astype(post[name].dtype), out_shape)
        for (_, pname, _), o in zip(self.out_params, outs):
            np.copyto(_base(o), post[pname], casting="unsafe")
        self.calls += 1
        return outs[0] if len(outs) == 1 else tuple(outs)


# --- RawModule: hand-written CUDA C, compiled by g++ against the CUDA emulation header -------------------------------
#: The C types a kernel parameter may have, as ctypes and as the NumPy scalar type CuPy must be given for it (CuPy
#: passes a scalar argument with its own dtype's size: a Python int or a float64 for an ``int``/``float`` parameter
#: would be read wrongly on a GPU, so the stand-in refuses them).
_RAW_SCALARS = {"int": np.int32, "unsigned": np.uint32, "unsigned int": np.uint32, "long long": np.int64,
                "unsigned long long": np.uint64, "float": np.float32, "double": np.float64, "bool": np.bool_}
_RAW_SIGNATURE = re.compile(r'extern\s+"C"\s+__global__\s+void\s+(\w+)\s*\(([^)]*)\)')
_RAW_HEADER = pathlib.Path(__file__).with_name("cuda_emu.h")
_RAW_LIBS = {}       # source hash -> ctypes library


def _raw_params(text, typedefs=None):
    """``[(name, kind)]`` of a kernel's parameter list: kind is the declared C type (a string) for a pointer, else the
    NumPy scalar type."""
    out = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        part = re.sub(r"\b(__restrict__|volatile)\b", " ", part)
        name = re.findall(r"\w+", part)[-1]
        declared = " ".join(part[:part.rfind(name)].split())
        ctype = " ".join(re.sub(r"\bconst\b", " ", declared).split())
        ctype = (typedefs or {}).get(ctype, ctype)
        if ctype.endswith("*"):
            out.append((name, declared))
        elif ctype in _RAW_SCALARS:
            out.append((name, _RAW_SCALARS[ctype]))
        else:
            raise CompileException(f"RawModule: parameter type '{ctype}' of '{name}' is not one the stand-in passes")
    return out


#: how the stand-in compiles CUDA C for the host (the precompiled header is built with the same flags)
_RAW_FLAGS = ("-std=c++17", "-O1", "-fPIC", "-fvisibility=hidden", "-Werror=return-type", "-U_FORTIFY_SOURCE")


def _raw_header_dir(compiler, cache):
    """A folder holding ``cuda_emu.h`` and, where the compiler can build one, its precompiled header (half of
    a kernel's compile time was parsing the header's standard includes). Built once per header text, shared by
    parallel test processes (a folder renamed into place whole)."""
    import hashlib
    import os
    import shutil
    import subprocess
    text = _RAW_HEADER.read_text()
    folder = cache / ("pch-" + hashlib.sha256((text + compiler + " ".join(_RAW_FLAGS)).encode()).hexdigest()[:24])
    if folder.exists():
        return folder
    partial = cache / f"{folder.name}.{os.getpid()}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    (partial / "cuda_emu.h").write_text(text)
    # without the .gch (a compiler that can not build it) the folder still serves the plain header
    subprocess.run([compiler, *_RAW_FLAGS, "-x", "c++-header", str(partial / "cuda_emu.h"),
                    "-o", str(partial / "cuda_emu.h.gch")], capture_output=True, text=True)
    try:
        os.rename(partial, folder)
    except OSError:          # another process put its folder in place first
        shutil.rmtree(partial, ignore_errors=True)
    return folder


def _raw_library(code, kernels):
    """The compiled stand-in library of ``code``: the source after ``cuda_emu.h``, plus one launcher per kernel that
    unpacks CUDA's ``void** args`` convention and runs the grid. Built once per source (cached on disk by hash)."""
    import ctypes
    import hashlib
    import os
    import shutil
    import subprocess
    import tempfile
    launchers = []
    for name, params in kernels.items():
        unpack = ", ".join(f"*({_raw_ctype(kind)}*)args[{i}]" for i, (_, kind) in enumerate(params))
        launchers.append(f'extern "C" __attribute__((visibility("default"))) void ms_emu_launch_{name}('
                         f'unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, void** args) '
                         f'{{ ms_emu::run(dim3{{gx, gy, gz}}, dim3{{bx, by, bz}}, [&]() {{ {name}({unpack}); }}); }}')
    text = f'#include "cuda_emu.h"\n#line 1 "kernel.cu"\n{code}\n' + "\n".join(launchers) + "\n"
    key = hashlib.sha256((text + _RAW_HEADER.read_text()).encode()).hexdigest()[:24]
    lib = _RAW_LIBS.get(key)
    if lib is not None:
        return lib
    compiler = shutil.which("g++") or shutil.which("c++")
    if compiler is None:
        raise CompileException("RawModule: the stand-in needs g++ to compile CUDA C for the host")
    cache = pathlib.Path(tempfile.gettempdir()) / "mindspore_gpu_sim_raw"
    cache.mkdir(exist_ok=True)
    target = cache / f"{key}.so"
    if not target.exists():
        source = cache / f"{key}.{os.getpid()}.cpp"
        source.write_text(text)
        partial = cache / f"{key}.{os.getpid()}.so"
        # hidden symbols but the launchers: each library keeps its own emulation state (two libraries sharing the
        # header's inline functions would otherwise call one another's); _FORTIFY_SOURCE off: its longjmp check
        # refuses the emulation's jumps between fiber stacks
        done = subprocess.run([compiler, *_RAW_FLAGS, "-shared", "-I", str(_raw_header_dir(compiler, cache)),
                               "-o", str(partial), str(source)], capture_output=True, text=True)
        source.unlink()
        if done.returncode:
            raise CompileException(f"RawModule: the kernel source did not compile:\n{done.stderr[:4000]}")
        os.replace(partial, target)    # atomic: parallel test processes share the cache
    # PyDLL: the launch keeps the GIL, so two Python threads never run the emulation (one global block state) at once
    lib = _RAW_LIBS[key] = ctypes.PyDLL(str(target))
    return lib


def _raw_ctype(kind):
    return kind if isinstance(kind, str) else {np.int32: "int", np.uint32: "unsigned", np.int64: "long long",
                                          np.uint64: "unsigned long long", np.float32: "float",
                                          np.float64: "double", np.bool_: "bool"}[kind]


class RawModule:
    """``cupy.RawModule(code=..., options=..., name_expressions=None)``: CUDA C kernels declared ``extern "C"
    __global__``, compiled at the first :meth:`get_function` (with g++, against ``cuda_emu.h``, which runs the CUDA
    execution model on the host: blocks in order, a block's threads as fibers meeting at ``__syncthreads()``) and
    run on the device arrays' NumPy buffers. Source CUDA would refuse, or that uses what the emulation lacks
    (warp functions, atomics), raises :class:`CompileException` as CuPy does."""

    def __init__(self, code=None, options=(), name_expressions=None, **kwargs):
        if code is None:
            raise TypeError("RawModule: the stand-in takes CUDA source (code=...) only")
        self.code = code
        self.options = tuple(options)
        typedefs = {alias: " ".join(ctype.split())
                    for ctype, alias in re.findall(r"typedef\s+([\w ]+?)\s+(\w+)\s*;", code)}
        self.kernels = {name: _raw_params(params, typedefs) for name, params in _RAW_SIGNATURE.findall(code)}
        self._lib = None

    def get_function(self, name):
        if name not in self.kernels:
            raise CUDARuntimeError(f"cuModuleGetFunction: CUDA_ERROR_NOT_FOUND: named symbol not found ({name})")
        if self._lib is None:
            self._lib = _raw_library(self.code, self.kernels)
        return RawKernel(self, name)


class RawKernel:
    """A kernel of a :class:`RawModule`, called as CuPy's: ``kernel(grid, block, args, shared_mem=0)``. Pointer
    parameters take device arrays (their data, as CUDA would: the caller makes them contiguous), scalars a NumPy
    scalar of the parameter's exact type. One launch; recorded while a stream captures (the replay runs it again)."""

    def __init__(self, module, name):
        self.module, self.name = module, name
        self.params = module.kernels[name]
        self.launcher = getattr(module._lib, f"ms_emu_launch_{name}")
        self.calls = 0

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        import ctypes
        grid, block = (tuple(grid) + (1, 1))[:3], (tuple(block) + (1, 1))[:3]
        if len(args) != len(self.params):
            raise TypeError(f"RawKernel {self.name}: {len(self.params)} arguments expected, got {len(args)}")
        if shared_mem:
            raise CompileException(f"RawKernel {self.name}: the stand-in has no dynamic shared memory")
        for (pname, kind), a in zip(self.params, args):
            if isinstance(kind, str):
                if not isinstance(a, DeviceArray):
                    raise HostArrayError(f"RawKernel {self.name}: '{pname}' needs a device array, got {type(a)}")
            elif not (isinstance(a, np.generic) and type(a) is kind):
                raise TypeError(f"RawKernel {self.name}: '{pname}' is {np.dtype(kind).name} in the kernel: pass "
                                f"numpy.{np.dtype(kind).name}, not {type(a).__name__} (CuPy would pass the bytes "
                                f"of its own type)")

        def launch():
            values = [ctypes.c_void_p(a.__array_interface__["data"][0]) if isinstance(kind, str) else
                      np.ctypeslib.as_ctypes_type(np.dtype(kind))(a.item()) for (_, kind), a in zip(self.params, args)]
            pointers = (ctypes.c_void_p * max(len(values), 1))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p)
                                                                 for v in values])
            LAUNCHES.add(f"RawKernel {self.name}")
            self.calls += 1
            self.launcher(*[ctypes.c_uint(int(v)) for v in grid + block], pointers)

        if _CAPTURE.stream is not None and _capturing_here():
            return _captured(f"RawKernel {self.name}", launch, in_place=True)
        launch()


def empty_like_shape(shape, dtype):
    return np.empty(shape, dtype).view(DeviceArray)


# --- cupy.random ---------------------------------------------------------------------------------
class RandomState:
    """``cupy.random.RandomState`` (cuRAND) with CuPy's signatures, drawing from a NumPy generator."""

    def __init__(self, seed=None, method=None):
        if seed is not None and not 0 <= int(seed) < 2 ** 64:
            raise ValueError("Seed must be an integer between 0 and 2**64 - 1")
        self._gen = np.random.default_rng(seed)

    @staticmethod
    def _float(dtype):
        dtype = np.dtype(dtype)
        if dtype not in (np.float32, np.float64):
            raise TypeError(f"cupy.random: dtype must be float32 or float64, not {dtype}")
        return dtype

    def __getattribute__(self, name):
        if _CAPTURE.stream is not None and not name.startswith("_"):
            raise NotImplementedError("calling cuRAND API during stream capture is currently unsupported")
        if not name.startswith("_"):
            LAUNCHES.add(f"cupy.random.{name}")
        return object.__getattribute__(self, name)

    def _param(self, v):
        _refuse_host("cupy.random", v)
        return _unwrap(v)

    def random_sample(self, size=None, dtype=float):
        return _wrap(np.asarray(self._gen.random(size, dtype=self._float(dtype))))

    def standard_normal(self, size=None, dtype=float):
        return _wrap(np.asarray(self._gen.standard_normal(size, dtype=self._float(dtype))))

    def uniform(self, low=0.0, high=1.0, size=None, dtype=float):
        return _wrap(np.asarray(self._gen.uniform(self._param(low), self._param(high), size), self._float(dtype)))

    def laplace(self, loc=0.0, scale=1.0, size=None, dtype=float):
        return _wrap(np.asarray(self._gen.laplace(self._param(loc), self._param(scale), size), self._float(dtype)))

    def gamma(self, shape, scale=1.0, size=None, dtype=float):
        return _wrap(np.asarray(self._gen.gamma(self._param(shape), self._param(scale), size), self._float(dtype)))

    def poisson(self, lam=1.0, size=None, dtype="l"):
        return _wrap(np.asarray(self._gen.poisson(self._param(lam), size)).astype(dtype))

    def randint(self, low, high=None, size=None, dtype=int):
        return _wrap(np.asarray(self._gen.integers(low, high, size=size, dtype=dtype)))

    def permutation(self, a):
        if isinstance(a, int):   # CuPy: a Python int is a range; anything else is an array to permute
            return _wrap(self._gen.permutation(a).astype(np.int64))
        _refuse_host("cupy.random.permutation", a)
        return _wrap(self._gen.permutation(_unwrap(a)))


# --- cupyx -------------------------------------------------------------------------------------
def scatter_add(a, slices, value):
    """``cupyx.scatter_add``: ``numpy.add.at`` limited to the dtypes CUDA's atomicAdd takes."""
    if _CAPTURE.stream is not None:
        return _captured("cupy.add.at", lambda: scatter_add(a, slices, value), in_place=True)
    if not isinstance(a, DeviceArray):
        raise HostArrayError("cupyx.scatter_add: the target must be a device array")
    _refuse_host("cupyx.scatter_add", (slices, value))
    if a.dtype not in _ATOMIC_ADD:
        raise TypeError("cupy.add.at only supports int32, float16, float32, float64, uint32, uint64, as data type")
    LAUNCHES.add("cupy.add.at")
    value = _unwrap(value)
    value = value.astype(a.dtype, copy=False) if isinstance(value, np.ndarray) else a.dtype.type(value)
    np.add.at(_base(a), _unwrap(slices), value)


# --- cupy.cuda: one simulated device, its streams, events and memory pool ----------------------------
class CUDARuntimeError(RuntimeError):
    """``cupy.cuda.runtime.CUDARuntimeError``."""


class OutOfMemoryError(MemoryError):
    """``cupy.cuda.memory.OutOfMemoryError``, with CuPy's message."""

    def __init__(self, size, total, limit=0):
        if limit == 0:
            msg = f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes)."
        else:
            msg = (f"Out of memory allocating {size:,} bytes (allocated so far: {total:,} bytes, "
                   f"limit set to: {limit:,} bytes).")
        super().__init__(msg)


_ALLOCATION_UNIT = 512


class MemoryPointer:
    """What ``MemoryPool.malloc`` returns (``MemoryPointer(pool, size, ptr)``): the block goes back to the pool
    when this is collected (or :meth:`release`, for the arrays the stand-in allocates). Or CuPy's
    ``MemoryPointer(mem, offset)`` into an :class:`UnownedMemory`. Its bytes (``_bytes``, made when first
    used) are what ``cupy.ndarray(..., memptr=)`` arrays and :meth:`copy_from_host_async` read and write."""

    def __init__(self, pool_or_mem, size_or_offset, ptr=None):
        if ptr is None:    # CuPy's form: (mem, offset)
            mem, offset = pool_or_mem, int(size_or_offset)
            self._pool, self._mem = None, mem
            self.size, self.ptr, self.device_id = mem.size - offset, mem.ptr + offset, mem.device_id
            self._data = mem._data[offset:]
        else:
            self._pool, self.size, self.ptr, self.device_id = pool_or_mem, size_or_offset, ptr, 0
            self._mem, self._data = None, None
            _BLOCKS[ptr] = self

    @property
    def mem(self):
        """The memory pointed into (a pool block is its own: no reference cycle keeps it from the pool)."""
        return self if self._mem is None else self._mem

    @property
    def _bytes(self):
        if self._data is None:
            self._data = np.zeros(self.size, np.uint8)
        return self._data

    def copy_from_host_async(self, mem, size, stream=None):
        """Copy ``size`` bytes from pinned host memory at ``mem`` (an int or ``ctypes.c_void_p``; only
        :func:`alloc_pinned_memory`'s blocks are known here). Kernels complete at once on the stand-in, so the
        copy is done on return."""
        _refuse_during_capture("MemoryPointer.copy_from_host_async")
        ptr = mem if isinstance(mem, int) else mem.value
        source = _PINNED.get(ptr)
        if source is None:
            raise CUDARuntimeError(f"cudaErrorInvalidValue: {ptr:#x} is not pinned host memory of the stand-in")
        if size > min(len(source), self.size):
            raise CUDARuntimeError(f"cudaErrorInvalidValue: copy of {size} bytes overruns its source or target")
        self._bytes[:size] = np.frombuffer(source, np.uint8, size)

    def release(self):
        pool, self._pool = self._pool, None
        if pool is not None:
            pool._release(self.size)

    def __del__(self):
        self.release()


#: Pool blocks by pointer (:class:`UnownedMemory` finds its bytes here) and pinned host blocks by pointer.
_BLOCKS = weakref.WeakValueDictionary()
_PINNED = weakref.WeakValueDictionary()
_host_ptrs = itertools.count(0x7f0000000000, 4096)


class UnownedMemory:
    """``cupy.cuda.UnownedMemory(ptr, size, owner, device_id)``: memory CuPy does not own, kept alive by
    ``owner``. Only pointers of the stand-in's pool are known (a pointer it never gave out raises)."""

    def __init__(self, ptr, size, owner, device_id=-1):
        block = _BLOCKS.get(ptr)
        if block is None or size > block.size:
            raise CUDARuntimeError(f"cudaErrorInvalidValue: {ptr:#x} is not device memory of {size} bytes")
        self.ptr, self.size, self.owner = ptr, int(size), owner
        self.device_id = 0 if device_id < 0 else device_id
        self._data = block._bytes[:size]


class PinnedMemoryPointer(bytearray):
    """What ``cupy.cuda.alloc_pinned_memory`` returns: page-locked host bytes (NumPy views through the buffer
    protocol, as CuPy's) at ``ptr``."""

    def __init__(self, size):
        super().__init__(int(size))
        self.ptr = next(_host_ptrs)
        _PINNED[self.ptr] = self

    def size(self):
        return len(self)


def alloc_pinned_memory(size):
    return PinnedMemoryPointer(size)


class MemoryPool:
    """``cupy.cuda.MemoryPool`` of the one device: blocks rounded up to 512 bytes, freed blocks kept for reuse
    (an exact size fits) until :meth:`free_all_blocks`, a limit on the bytes taken from the device."""

    def __init__(self):
        self._lock = threading.Lock()
        self._used = 0
        self._free_blocks = {}   # size -> how many free blocks of that size are cached
        self._free = 0           # their bytes
        self._limit = 0
        self._ptrs = itertools.count(1 << 20, _ALLOCATION_UNIT)

    def malloc(self, size):
        size = -(-int(size) // _ALLOCATION_UNIT) * _ALLOCATION_UNIT
        if size == 0:
            return MemoryPointer(None, 0, 0)
        with self._lock:
            if self._free_blocks.get(size):
                self._free_blocks[size] -= 1
                self._free -= size
            elif self._limit and self._used + self._free + size > self._limit:
                if self._free:
                    _device_free("MemoryPool.malloc freeing its cache to retry")
                self._free_blocks.clear()   # CuPy frees the cache and retries before giving up
                self._free = 0
                if self._used + size > self._limit:
                    raise OutOfMemoryError(size, self._used, self._limit)
            self._used += size
        return MemoryPointer(self, size, next(self._ptrs))

    def _release(self, size):
        with self._lock:
            self._used -= size
            self._free += size
            self._free_blocks[size] = self._free_blocks.get(size, 0) + 1

    def used_bytes(self):
        return self._used

    def free_bytes(self):
        return self._free

    def total_bytes(self):
        return self._used + self._free

    def n_free_blocks(self):
        return sum(self._free_blocks.values())

    def free_all_blocks(self, stream=None):
        with self._lock:
            if self._free:
                _device_free("MemoryPool.free_all_blocks")
            self._free_blocks.clear()
            self._free = 0

    def __del__(self):
        if self._used + self._free and _device_free is not None:
            _device_free("a MemoryPool's memory freed as the pool went")

    def set_limit(self, size=None, fraction=None):
        if size is None:
            if fraction is not None:
                raise NotImplementedError("the stand-in device has no total memory: use size=")
            size = 0
        elif fraction is not None:
            raise ValueError("size and fraction cannot be specified at one time")
        if size < 0:
            raise ValueError(f"memory limit size out of range: {size}")
        self._limit = int(size)

    def get_limit(self):
        return self._limit


_DEFAULT_POOL = MemoryPool()


def get_default_memory_pool():
    return _DEFAULT_POOL


_DEVICE_COUNT = 1
_tls = threading.local()   # .device (int), .device_stack, .stream (the current one), .stream_stack
_streams = weakref.WeakSet()
_ptrs = itertools.count(0x1000, 0x10)


def getDeviceCount():  # noqa: N802 - CUDA's name
    return _DEVICE_COUNT


def getDevice():  # noqa: N802 - CUDA's name
    return getattr(_tls, "device", 0)


class Device:
    """``cupy.cuda.Device``: ``use()``, ``synchronize()`` (completes every stream's work), ``with device:``."""

    def __init__(self, device=None):
        self.id = getDevice() if device is None else int(device)
        if not 0 <= self.id < _DEVICE_COUNT:
            raise CUDARuntimeError("cudaErrorInvalidDevice: invalid device ordinal")

    def use(self):
        _tls.device = self.id

    def synchronize(self):
        _refuse_during_capture("Device.synchronize")
        for stream in list(_streams):
            stream._completed = stream._launched

    def __enter__(self):
        _tls.__dict__.setdefault("device_stack", []).append(getDevice())
        self.use()
        return self

    def __exit__(self, *args):
        _tls.device = _tls.device_stack.pop()

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return self.id

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


class Stream:
    """``cupy.cuda.Stream``: kernels complete at once; ``_launch()`` leaves work pending until a synchronisation."""

    null = None
    ptds = None

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None):
        if null:
            self.ptr, self.device_id = 0, -1
        elif ptds:
            self.ptr, self.device_id = 2, -1
        else:
            self.ptr, self.device_id = next(_ptrs), getDevice()
        self._priority = 0 if priority is None else int(priority)
        self._non_blocking = bool(non_blocking) and not (null or ptds)
        self._launched = self._completed = 0
        self.waited = []   # the events wait_event was given, in order (for tests)
        _streams.add(self)

    def _launch(self, n=1):
        """Simulate ``n`` kernels still running on this stream."""
        self._launched += n

    @property
    def priority(self):
        return self._priority

    @property
    def is_non_blocking(self):
        return self._non_blocking

    @property
    def done(self):
        return self._completed >= self._launched

    def synchronize(self):
        if _CAPTURE.stream is self:
            _refuse_during_capture("Stream.synchronize")
        self._completed = self._launched

    def begin_capture(self, mode=None):
        """Start recording the operations launched on this stream (CuPy: not on the legacy default stream)."""
        if self.ptr in (0, 1):
            raise RuntimeError("cannot capture on the default (legacy) stream")
        if _CAPTURE.stream is not None:
            raise CUDARuntimeError("cudaErrorIllegalState: a stream of this thread is already capturing")
        self._graph_ops, self._capture_invalid = [], None
        _CAPTURE.stream = _CAPTURING[self.ptr] = self

    def end_capture(self):
        """The recorded operations as a :class:`Graph`; a capture an illegal operation invalidated raises."""
        if _CAPTURE.stream is not self:
            raise CUDARuntimeError("cudaErrorIllegalState: the stream is not capturing")
        _CAPTURE.stream = None
        _CAPTURING.pop(self.ptr, None)
        ops, self._graph_ops = self._graph_ops, None
        if self._capture_invalid:
            raise CUDARuntimeError(f"cudaErrorStreamCaptureInvalidated: operation failed due to a previous error "
                                   f"during capture ({self._capture_invalid})")
        return Graph(ops)

    def is_capturing(self):
        return _CAPTURE.stream is self

    def _invalidate_capture(self, what):
        """For tests: what CUDA does when work this thread did not see broke the capture (another thread's
        synchronisation, say): no error here, the capture is invalid, and the next operation captured fails."""
        if _CAPTURING.get(self.ptr) is self:
            self._capture_invalid = what

    def record(self, event=None):
        if event is None:
            event = Event()
        event.record(self)
        return event

    def wait_event(self, event):
        self.waited.append(event)

    def _check_device(self):
        if self.device_id not in (-1, getDevice()):
            raise RuntimeError(f"The device that the stream is created on ({self.device_id}) does not match with "
                               f"the current device ({getDevice()})")

    def use(self):
        self._check_device()
        _tls.stream = self
        return self

    def __enter__(self):
        self._check_device()
        _tls.__dict__.setdefault("stream_stack", []).append(getattr(_tls, "stream", None))
        _tls.stream = self
        return self

    def __exit__(self, *args):
        _tls.stream = _tls.stream_stack.pop()

    def __eq__(self, other):
        return isinstance(other, Stream) and self.ptr == other.ptr

    def __hash__(self):
        return self.ptr

    def __repr__(self):
        return f"<Stream {self.ptr} (device {self.device_id})>"


Stream.null = Stream(null=True)
Stream.ptds = Stream(ptds=True)


def get_current_stream(device_id=-1):
    return getattr(_tls, "stream", None) or Stream.null


class Event:
    """``cupy.cuda.Event``: done when the work its stream had when it was recorded has completed."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess and not disable_timing:
            raise ValueError("Timing must be disabled for interprocess events")
        self.block, self.disable_timing = block, disable_timing
        self.ptr = next(_ptrs)
        self._stream, self._seq, self._time = None, 0, None

    @property
    def done(self):
        return self._stream is None or self._stream._completed >= self._seq

    def record(self, stream=None):
        stream = stream if stream is not None else get_current_stream()
        self._stream, self._seq, self._time = stream, stream._launched, time.perf_counter()

    def synchronize(self):
        if self._stream is not None:
            self._stream._completed = max(self._stream._completed, self._seq)


def get_elapsed_time(start_event, end_event):
    """Milliseconds between the recordings, with CUDA's errors."""
    for e in (start_event, end_event):
        if e.disable_timing or e._stream is None:
            raise CUDARuntimeError("cudaErrorInvalidResourceHandle: invalid resource handle")
    if not (start_event.done and end_event.done):
        raise CUDARuntimeError("cudaErrorNotReady: device not ready")
    return (end_event._time - start_event._time) * 1000.0


def _module(name, attrs):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    mod.__sim__ = True
    return mod


def make_modules(elementwise=False):
    """The stand-in modules, by name: ``cupy``, ``cupy.random``, ``cupy.fft``, ``cupy.linalg`` (NumPy's, on device
    arrays), ``cupy.cuda`` (and its ``runtime`` and ``memory``), ``cupyx``, ``cupyx.scipy``,
    ``cupyx.scipy.special``. The simulated device, its streams and its memory pool are one per process, as CuPy's
    are. With ``elementwise``, ``cupy.ElementwiseKernel`` exists (run by :class:`ElementwiseKernel`): the fused
    kernels of the GPU backend then take their fused paths. Streams capture (``begin_capture``/``end_capture``)
    into ``cupy.cuda.graph.Graph`` objects whose ``launch`` replays the recorded operations."""
    attrs = {}
    for name in CUPY_NAMES:
        obj = getattr(np, name, None)
        if obj is None or isinstance(obj, types.ModuleType):
            continue
        if name in _PLAIN or isinstance(obj, type):
            attrs[name] = obj
        elif isinstance(obj, np.ufunc):
            attrs[name] = _Ufunc(obj, name)
        elif callable(obj):
            attrs[name] = _function(name, obj)
        else:
            attrs[name] = obj
    attrs.update(ndarray=DeviceArray, asarray=asarray, array=array, asnumpy=asnumpy, where=where,
                 take_along_axis=take_along_axis, argsort=_sorting("argsort", np.argsort),
                 sort=_sorting("sort", np.sort), quantile=_quantile_nan_last("quantile", False),
                 percentile=_quantile_nan_last("percentile", True), __version__="14.0.0-sim")
    random = _module("cupy.random", {"RandomState": RandomState})
    attrs["random"] = random
    fft = _module("cupy.fft", {name: _function(name, getattr(np.fft, name))
                               for name in ("fftn", "ifftn", "rfftn", "irfftn", "fft", "ifft", "rfft", "irfft")})
    attrs["fft"] = fft

    def plain(fn):   # NumPy's linalg gives named tuples (SVDResult, QRResult): as CuPy, plain tuples
        return lambda *args, **kwargs: (lambda r: tuple(r) if isinstance(r, tuple) else r)(fn(*args, **kwargs))
    linalg = _module("cupy.linalg", {name: _function(name, plain(getattr(np.linalg, name)))
                                     for name in ("svd", "solve", "qr", "inv", "det", "eigh", "norm", "cholesky")})
    linalg.svd = _svd
    attrs["linalg"] = linalg
    runtime = _module("cupy.cuda.runtime", {"getDeviceCount": getDeviceCount, "getDevice": getDevice,
                                            "CUDARuntimeError": CUDARuntimeError,
                                            "streamIsCapturing": streamIsCapturing})
    memory = _module("cupy.cuda.memory", {"MemoryPool": MemoryPool, "MemoryPointer": MemoryPointer,
                                          "UnownedMemory": UnownedMemory, "alloc": alloc,
                                          "OutOfMemoryError": OutOfMemoryError})
    if elementwise:
        attrs["ElementwiseKernel"] = ElementwiseKernel
        attrs["ReductionKernel"] = ReductionKernel
        attrs["RawModule"] = RawModule
    runtime.__dict__.update(streamCaptureModeGlobal=0, streamCaptureModeThreadLocal=1, streamCaptureModeRelaxed=2)
    graph = _module("cupy.cuda.graph", {"Graph": Graph})
    compiler = _module("cupy.cuda.compiler", {"CompileException": CompileException})
    cuda = _module("cupy.cuda", {"graph": graph, "compiler": compiler, "using_allocator": using_allocator,
                                 "runtime": runtime, "memory": memory, "Device": Device, "Stream": Stream,
                                 "Event": Event, "get_current_stream": get_current_stream,
                                 "get_elapsed_time": get_elapsed_time, "MemoryPool": MemoryPool,
                                 "MemoryPointer": MemoryPointer, "OutOfMemoryError": OutOfMemoryError,
                                 "UnownedMemory": UnownedMemory, "alloc": alloc,
                                 "alloc_pinned_memory": alloc_pinned_memory,
                                 "PinnedMemoryPointer": PinnedMemoryPointer})
    attrs.update(cuda=cuda, get_default_memory_pool=get_default_memory_pool)
    cupy = _module("cupy", attrs)
    try:
        import scipy.special as scipy_special
        # some of SciPy's are Python functions over ufuncs (polygamma, zeta): those stand in as functions
        functions = {name: _Ufunc(fn, name) if isinstance(fn, np.ufunc) else _function(name, fn)
                     for name, fn in ((n, getattr(scipy_special, n)) for n in (
                         "erf", "erfc", "erfinv", "erfcinv", "gammaln", "expit", "digamma", "polygamma", "i0", "i0e",
                         "i1", "i1e", "j0", "j1", "y0", "y1", "k0", "k0e", "k1", "k1e", "gammainc", "gammaincc",
                         "zeta", "betainc"))}
    except ImportError:   # without SciPy only the error-function kernels cannot run
        functions = {}
    special = _module("cupyx.scipy.special", functions)
    scipy_ = _module("cupyx.scipy", {"special": special})
    cupyx = _module("cupyx", {"scatter_add": scatter_add, "scipy": scipy_})
    stride_tricks = _module("cupy.lib.stride_tricks", {"as_strided": as_strided})
    lib = _module("cupy.lib", {"stride_tricks": stride_tricks})
    cupy.lib = lib
    return {"cupy": cupy, "cupy.random": random, "cupy.fft": fft, "cupy.linalg": linalg, "cupy.cuda": cuda,
            "cupy.lib": lib, "cupy.lib.stride_tricks": stride_tricks, "cupy.cuda.graph": graph,
            "cupy.cuda.compiler": compiler,
            "cupy.cuda.runtime": runtime,
            "cupy.cuda.memory": memory, "cupyx": cupyx, "cupyx.scipy": scipy_, "cupyx.scipy.special": special}


@contextlib.contextmanager
def standing_in(modules=None):
    """Within the block, ``import cupy``/``cupyx`` give the stand-ins (``modules``, default
    :func:`make_modules`) and ``mindspore_gpu.kernels`` and ``mindspore_gpu.runtime`` are imported afresh on
    them; afterwards ``sys.modules`` and the ``mindspore_gpu`` package's attributes are as before, so the real
    CuPy, where installed, and the real kernel and runtime modules are untouched for everything else. Yields
    the stand-in modules."""
    import mindspore_gpu

    modules = modules or make_modules()
    prefixes = ("mindspore_gpu.kernels", "mindspore_gpu.runtime", "mindspore_gpu.passes", "mindspore_gpu.capture",
                "mindspore_gpu.upload")
    attrs = ("kernels", "runtime", "passes", "capture", "upload")

    def ours(name):
        return name in modules or any(name == p or name.startswith(p + ".") for p in prefixes)

    saved = {name: mod for name, mod in sys.modules.items() if ours(name)}
    old_attrs = {a: getattr(mindspore_gpu, a) for a in attrs if hasattr(mindspore_gpu, a)}
    for name in saved:
        del sys.modules[name]
    sys.modules.update(modules)
    try:
        yield modules
    finally:
        for name in [n for n in sys.modules if ours(n)]:
            del sys.modules[name]
        sys.modules.update(saved)
        for a in attrs:
            if a in old_attrs:
                setattr(mindspore_gpu, a, old_attrs[a])
            elif hasattr(mindspore_gpu, a):
                delattr(mindspore_gpu, a)


def load_kernel_families(modules=None):
    """The GPU kernel modules imported with the stand-ins in place of ``cupy`` and ``cupyx`` (see
    :func:`standing_in`): a namespace with ``families`` (``mindspore_gpu.kernels.families()``), ``modules``
    (every ``mindspore_gpu.kernels`` submodule by short name, ``_common`` included) and ``cupy`` (the
    stand-in they use)."""
    with standing_in(modules) as stand_ins:
        import mindspore_gpu.kernels as pkg
        families = pkg.families()
        prefix = "mindspore_gpu.kernels."
        loaded = {name[len(prefix):]: mod for name, mod in sys.modules.items() if name.startswith(prefix)}
        return types.SimpleNamespace(families=families, modules=loaded, cupy=stand_ins["cupy"])


def load_graph_modules(modules=None):
    """The kernel tables, ``mindspore_gpu.passes`` and ``mindspore_gpu.capture`` imported together on the stand-ins
    (default: :func:`make_modules` with ``ElementwiseKernel``): a namespace with ``families``, ``passes``,
    ``capture``, ``cupy`` and ``common`` (``mindspore_gpu.kernels._common``)."""
    modules = modules or make_modules(elementwise=True)
    with standing_in(modules) as stand_ins:
        import mindspore_gpu.kernels as pkg
        import mindspore_gpu.kernels._common as common
        import mindspore_gpu.passes as passes
        import mindspore_gpu.capture as capture
        return types.SimpleNamespace(families=pkg.families(), passes=passes, capture=capture,
                                     cupy=stand_ins["cupy"], common=common)


def graph_families():
    """(the stand-in ``cupy``, {family short name: kernel module}) of :func:`load_graph_modules`: what the tests calling
    kernel tables straight on the stand-in start from."""
    graph = load_graph_modules()
    return graph.cupy, {f.__name__.rsplit(".", 1)[-1]: f for f in graph.families}


def launch_kinds(fn):
    """(``fn()``, the kinds of the stand-in launches it made, in order: :data:`LAUNCHES`' names)."""
    kinds = []
    prev, LAUNCHES.listener = LAUNCHES.listener, kinds.append
    try:
        result = fn()
    finally:
        LAUNCHES.listener = prev
    return result, kinds


def load_runtime(modules=None):
    """``mindspore_gpu.runtime`` imported with the stand-ins in place of ``cupy`` (see :func:`standing_in`): the
    module, whose ``GPURuntime`` then runs on the simulated device, its streams, events and memory pool."""
    with standing_in(modules):
        import mindspore_gpu.runtime as runtime
        return runtime


# --- a test-only backend running the table --------------------------------------------------------
def _outputs_on_device(where, y):
    if type(y) is tuple:
        for e in y:
            _outputs_on_device(where, e)
        return
    if not isinstance(y, DeviceArray):
        raise TypeError(f"{where} returned {type(y).__module__}.{type(y).__name__}, not a device array "
                        f"(CuPy kernels return cupy.ndarray, never host arrays or NumPy scalars)")


def checked(name, fn):
    """``fn`` with its outputs checked to be device arrays."""
    where = f"the GPU kernel of '{name}' ({getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', fn)})"

    def kernel(prim, *inputs, out=None):
        y = fn(prim, *inputs, out=out)
        _outputs_on_device(where, y)
        return y
    kernel.__name__ = kernel.__qualname__ = f"sim_{name}"
    kernel.__module__ = getattr(fn, "__module__", __name__)
    return kernel


@contextlib.contextmanager
def registered(sim_target, families, graph=None):
    """:func:`make_plugin`'s plugin registered with mindspore for the ``with`` block (a test module's fixture);
    yields the plugin."""
    import mindspore as ms
    plugin = make_plugin(sim_target, families, graph=graph)
    ms.plugin.register_plugin(plugin, sim_target.lower())
    try:
        yield plugin
    finally:
        ms.plugin.unregister_plugin(sim_target.lower())


def make_plugin(sim_target, families, graph=None):
    """A plugin module offering ``sim_target`` (below the CPU backend's priority, so only used when selected)
    whose runtime keeps buffers as :class:`DeviceArray` and whose kernels are ``families``' tables. With
    ``graph`` (a :func:`load_graph_modules` namespace), the target also gets the GPU backend's passes and its
    runtime the CUDA-graph replay of ``mindspore_gpu.capture``, as the ``GPU`` target has them. Dataset batches
    of ``Model.train`` go through the GPU runtime's host uploader (:mod:`mindspore_gpu.upload`), as on a GPU."""
    from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, DeviceRuntime, array_layout, hookimpl

    upload = load_runtime().upload      # the GPU runtime's host uploader, on the stand-in

    class SimRuntime(DeviceRuntime):
        target = sim_target
        is_host = False
        buffer_types = (DeviceArray,)
        graph_segments = graph is not None      # as the GPU runtime: host decisions cut a graph into captured pieces

        def from_host(self, a):
            return asarray(np.asarray(a))       # as the GPU runtime's cupy.asarray (refused while capturing)

        def to_host(self, buffer):
            return asnumpy(buffer)

        def copy(self, buffer):
            return array(buffer, copy=True)

        def host_uploader(self, depth):
            return upload.HostUploader(Device(0), depth)

        def view(self, buffer, index):       # device arrays alias, as CuPy's basic indexing does
            return buffer[index]

        def write(self, buffer, index, value):
            if isinstance(value, DeviceArray) and np.may_share_memory(buffer, value):
                value = value.copy()
            buffer[index] = value
            return True

        def layout(self, buffer):           # strides and offset, as the GPU runtime reads them from CuPy
            return array_layout(buffer)

        def graph_runner(self, g, run):
            if graph is None:
                return run
            return graph.capture.graph_runner(g, run, device=Device(0))

    @hookimpl
    def ms_register_passes(registry):
        if graph is not None:
            graph.passes.register(registry, target=sim_target)

    @hookimpl
    def ms_plugin_info():
        return {"name": sim_target.lower(), "version": "0", "api_version": PLUGIN_API_VERSION}

    @hookimpl
    def ms_backend_probe():
        return [BackendProbe(target=sim_target, available=True, priority=-100, device_count=1)]

    @hookimpl
    def ms_backend_create(target):
        return SimRuntime() if target == sim_target else None

    @hookimpl
    def ms_register_kernels(registry):
        for family in families:
            for name, fn in family.KERNELS.items():
                registry.register(name, sim_target, checked(name, fn))

    return _module(f"{sim_target.lower()}_plugin", {
        "ms_plugin_info": ms_plugin_info, "ms_backend_probe": ms_backend_probe,
        "ms_backend_create": ms_backend_create, "ms_register_kernels": ms_register_kernels,
        "ms_register_passes": ms_register_passes,
        "SimRuntime": SimRuntime, "upload": upload})
