"""float32 <-> float16/bfloat16 conversions in C++ (``_csrc/halfcast.cpp``), bit for bit NumPy's ``astype``.

Half-precision kernels compute in float32 and convert their operands and results; NumPy converts float16 one element
at a time (about 0.6 G elements/s here), which made a PYNATIVE ResNet amp step on the CPU spend two thirds of its time
in ``astype``. :func:`astype` takes the C++ path (F16C for float16, vectorised integer rounding for bfloat16, split
among the kernels' threads) for C-contiguous arrays of at least :data:`MIN_SIZE` elements, and NumPy otherwise.
"""
import ml_dtypes
import numpy as np

from mindspore_cpu.kernels._native import _kernels

__all__ = ["astype", "as_c", "wide", "KINDS", "MIN_SIZE"]

#: Below this many elements NumPy's conversion is as fast as the call into C++.
MIN_SIZE = 2048
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
#: The 16-bit floats and their names in the C++ kernels (``convert_half``, ``relu_grad16``).
KINDS = {np.dtype(np.float16): "float16", np.dtype(ml_dtypes.bfloat16): "bfloat16"}
# (those convert_half takes here: float16 needs F16C)
_HALF_KINDS = {dt: kind for dt, kind in KINDS.items() if kind == "bfloat16" or _kernels.has_f16c()}


def _fast(src, dtype):
    """The conversion's kind when C++ does it: float16/bfloat16 to float32/float64, float32 to float16/bfloat16."""
    if dtype == _F32 or dtype == _F64:
        return _HALF_KINDS.get(src)
    return _HALF_KINDS.get(dtype) if src == _F32 else None


def astype(a, dtype):
    """``a.astype(dtype)`` (a new array, bit for bit NumPy's), converted in C++ where it pays: float16/bfloat16 to
    float32 or float64, float32 to float16/bfloat16. A transposed input (its last two axes swapped, as a matrix
    product's operand, or all its axes reversed) gives a result laid out as NumPy's; any other non-contiguous one is
    copied first and gives a C-contiguous result."""
    dtype = np.dtype(dtype)
    if a.dtype.kind == "c" and dtype.kind != "c":      # the real part, as MindSpore (bool too; NumPy would warn)
        a = a.real
    kind = _fast(a.dtype, dtype) if a.size >= MIN_SIZE and type(a) is np.ndarray else None
    if kind is None:
        if a.dtype.kind == "f" and dtype.kind in "iub":
            # inf/nan/out of range to an integer: MindSpore converts silently (to the same values); NumPy would warn
            with np.errstate(invalid="ignore", over="ignore"):
                return a.astype(dtype)
        return a.astype(dtype)
    if a.flags.c_contiguous:
        return _convert(a, dtype, kind)
    if a.flags.f_contiguous:
        return _convert(a.T, dtype, kind).T
    swapped = np.swapaxes(a, -1, -2)
    if swapped.flags.c_contiguous:
        return np.swapaxes(_convert(swapped, dtype, kind), -1, -2)
    return _convert(np.ascontiguousarray(a), dtype, kind)


def _convert(a, dtype, kind):
    """A C-contiguous ``a`` converted by ``convert_half``."""
    if a.dtype == _F32:
        res = np.empty(a.shape, dtype)
        _kernels.convert_half(a, res, kind)
        return res
    wide = np.empty(a.shape, _F32)
    _kernels.convert_half(a, wide, kind)
    return wide if dtype == _F32 else wide.astype(_F64)   # both widenings are exact: one rounding in all


def as_c(a, dtype=None):
    """``np.asarray(a, dtype=dtype, order="C")``, with :func:`astype`'s conversions."""
    a = np.asarray(a)
    if dtype is not None and a.dtype != dtype:
        a = astype(a, dtype)
    return np.asarray(a, order="C")


def wide(x):
    """``x`` in a precision fit for reductions and transcendental functions (float16 -> float32, in C++)."""
    return astype(x, _F32) if x.dtype == np.float16 else x
