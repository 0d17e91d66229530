"""The kernel contract's output side, for any array library: a kernel returns exactly the ``out`` spec core
inferred.

Kernels that compute half precision in float32, or index outputs in int64, end with :func:`fit` (or are wrapped by
:func:`fits_out`) to give the result in the inferred dtype(s) instead of repeating core's promotion rules.
"""
import functools

__all__ = ["fit", "fits_out", "register_cast"]

#: A backend's faster ``astype`` per array type (the CPU's C++ float16/bfloat16 conversions for ``numpy.ndarray``).
_CASTS = {}


def register_cast(array_type, cast):
    """Have :func:`fit` convert arrays of ``array_type`` with ``cast(array, numpy_dtype)``, which must return what
    ``array.astype(numpy_dtype)`` returns, bit for bit."""
    _CASTS[array_type] = cast


def fit(result, out):
    """``result`` (an array or a tuple of arrays) in the dtype(s) of the inferred ``out`` spec(s)."""
    if out is None:
        return result
    if type(result) is tuple:
        return tuple(fit(r, o) for r, o in zip(result, out))
    dt = out.dtype.to_numpy()
    if result.dtype == dt:
        return result
    cast = _CASTS.get(type(result))
    return result.astype(dt) if cast is None else cast(result, dt)


def fits_out(kernel):
    """Decorate a kernel whose result may come out in a wider dtype: it is cast to ``out``'s dtype(s)."""
    @functools.wraps(kernel)
    def fitted(prim, *inputs, out=None):
        return fit(kernel(prim, *inputs, out=out), out)
    return fitted
