"""The kernel contract's output side, for any array library: a kernel returns exactly the ``out`` spec core
inferred.

Kernels that compute half precision in float32, or index outputs in int64, end with :func:`fit` (or are wrapped by
:func:`fits_out`) to give the result in the inferred dtype(s) instead of repeating core's promotion rules.
"""
import functools

__all__ = ["fit", "fits_out"]


def fit(result, out):
    """``result`` (an array or a tuple of arrays) in the dtype(s) of the inferred ``out`` spec(s)."""
    if out is None:
        return result
    if type(result) is tuple:
        return tuple(fit(r, o) for r, o in zip(result, out))
    dt = out.dtype.to_numpy()
    return result if result.dtype == dt else result.astype(dt)


def fits_out(kernel):
    """Decorate a kernel whose result may come out in a wider dtype: it is cast to ``out``'s dtype(s)."""
    @functools.wraps(kernel)
    def fitted(prim, *inputs, out=None):
        return fit(kernel(prim, *inputs, out=out), out)
    return fitted
