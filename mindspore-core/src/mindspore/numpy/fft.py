"""``mindspore.numpy.fft``: discrete Fourier transforms with NumPy's argument names (``axis``, ``axes``).

As in MindSpore, each function is ``mindspore.ops``' transform of the same name (``numpy.fft.fft(a, n, axis,
norm)`` is ``ops.fft(a, n, axis, norm)``), so the kernels, dtypes and gradients are the operators' (see
:mod:`mindspore.ops.function.fft_func`): int16/int32/int64/float16/float32/complex64 inputs transform in
complex64 (real outputs float32), float64/complex128 in complex128 (float64); ``norm`` is ``"backward"``
(``None``), ``"forward"`` or ``"ortho"``. This layer adds the checks MindSpore's FFT kernels make on the input
(a Tensor of one of those dtypes; ``n`` an int), with MindSpore's exception types.

Two answers differ from MindSpore 2.10 on purpose: its ``numpy.fft.ihfftn`` calls ``ops.hfftn`` (a slip in its
source: it returns hfftn's real numbers), here it is the inverse of :func:`hfftn`; and its ``rfft`` of a complex
input misreads the result buffer, here it raises TypeError (the input must be real, as in NumPy and PyTorch).
"""
from mindspore._errors import MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops.function import fft_func as _ops

__all__ = ["fftshift", "ifftshift", "fft", "ifft", "rfft", "irfft", "fft2", "ifft2", "fftn", "ifftn", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq"]

#: the input dtypes MindSpore's FFT kernels take
_TYPES = (mstype.int16, mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64,
          mstype.complex64, mstype.complex128)


def _check(a, op, n=None):
    if not isinstance(a, Tensor):
        raise MSTypeError(f"For '{op}', the 'input' must be Tensor, but got {type(a).__name__}.")
    if a.dtype not in _TYPES:
        raise MSTypeError(f"For '{op}', the type of 'input' must be in {[str(t) for t in _TYPES]}, but got "
                          f"{a.dtype}.")
    sizes = n if isinstance(n, (tuple, list)) else (n,)
    for size in sizes:
        if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
            raise MSTypeError(f"For '{op}', the signal size must be int, but got {type(size).__name__}.")
    return a


def fft(a, n=None, axis=-1, norm=None):
    """The 1-D discrete Fourier transform of ``a`` along ``axis``.

    Args:
        a (Tensor): the input, of int16, int32, int64, float16, float32, float64, complex64 or complex128.
        n (int, optional): the transform's length: ``a`` is zero-padded or truncated to it along ``axis``.
            Default ``None``: ``a.shape[axis]``.
        axis (int, optional): the axis to transform. Default ``-1``.
        norm (str, optional): ``"backward"`` (no scaling), ``"forward"`` (``1/n``) or ``"ortho"``
            (``1/sqrt(n)``). Default ``None``, i.e. ``"backward"``.

    Returns:
        Tensor of complex64 (complex128 for float64/complex128 input), with ``n`` along ``axis``.

    Raises:
        TypeError: ``a`` is not a Tensor of a supported dtype, or ``n`` is not an int.
        ValueError: ``n`` is not positive, ``axis`` is out of range, ``norm`` is unknown, or ``a`` is a scalar.

    Examples:
        >>> import mindspore.numpy as mnp
        >>> print(mnp.fft.fft(mnp.array([0.0, 1.0, 2.0, 3.0])))
        [ 6.+0.j -2.+2.j -2.+0.j -2.-2.j]
    """
    return _ops.fft(_check(a, "fft", n), n, axis, norm)


def ifft(a, n=None, axis=-1, norm=None):
    """The inverse of :func:`fft` (``"backward"`` scales by ``1/n``). Arguments and errors as :func:`fft`."""
    return _ops.ifft(_check(a, "ifft", n), n, axis, norm)


def rfft(a, n=None, axis=-1, norm=None):
    """The 1-D transform of real ``a``: the ``n//2 + 1`` non-negative frequency terms. Errors as :func:`fft`, and
    TypeError for a complex ``a``."""
    return _ops.rfft(_check(a, "rfft", n), n, axis, norm)


def irfft(a, n=None, axis=-1, norm=None):
    """The inverse of :func:`rfft`: ``n`` real values (default ``2 * (a.shape[axis] - 1)``) from the first half
    of a Hermitian spectrum (float32; float64 for float64/complex128 input). Errors as :func:`fft`."""
    return _ops.irfft(_check(a, "irfft", n), n, axis, norm)


def hfft(a, n=None, axis=-1, norm=None):
    """The transform of a signal with a Hermitian spectrum given by its first half ``a``: ``n`` real values
    (default ``2 * (a.shape[axis] - 1)``), ``irfft(conj(a))`` with the normalisation swapped. Errors as
    :func:`fft`."""
    return _ops.hfft(_check(a, "hfft", n), n, axis, norm)


def ihfft(a, n=None, axis=-1, norm=None):
    """The inverse of :func:`hfft`: ``conj(rfft(a))`` with the normalisation swapped. Errors as :func:`rfft`."""
    return _ops.ihfft(_check(a, "ihfft", n), n, axis, norm)


def fft2(a, s=None, axes=(-2, -1), norm=None):
    """The 2-D discrete Fourier transform over ``axes`` (default the last two); ``s`` the lengths along them.

    Raises:
        TypeError: ``a`` is not a Tensor of a supported dtype, or a size is not an int.
        ValueError: an axis is out of range or repeated, ``s`` and ``axes`` differ in length, a size is not
            positive, or ``norm`` is unknown.
    """
    return _ops.fft2(_check(a, "fft2", s), s, axes, norm)


def ifft2(a, s=None, axes=(-2, -1), norm=None):
    """The inverse of :func:`fft2`. Arguments and errors as :func:`fft2`."""
    return _ops.ifft2(_check(a, "ifft2", s), s, axes, norm)


def fftn(a, s=None, axes=None, norm=None):
    """The n-dimensional transform over ``axes`` (default: all, or the last ``len(s)`` when ``s`` is given).
    Errors as :func:`fft2`."""
    return _ops.fftn(_check(a, "fftn", s), s, axes, norm)


def ifftn(a, s=None, axes=None, norm=None):
    """The inverse of :func:`fftn`. Arguments and errors as :func:`fftn`."""
    return _ops.ifftn(_check(a, "ifftn", s), s, axes, norm)


def rfft2(a, s=None, axes=(-2, -1), norm=None):
    """:func:`rfftn` over ``axes`` (default the last two)."""
    return _ops.rfft2(_check(a, "rfft2", s), s, axes, norm)


def irfft2(a, s=None, axes=(-2, -1), norm=None):
    """:func:`irfftn` over ``axes`` (default the last two)."""
    return _ops.irfft2(_check(a, "irfft2", s), s, axes, norm)


def rfftn(a, s=None, axes=None, norm=None):
    """The n-dimensional transform of real ``a``: :func:`rfft` over the last of ``axes``, :func:`fft` over the
    others. Errors as :func:`fft2`, and TypeError for a complex ``a``."""
    return _ops.rfftn(_check(a, "rfftn", s), s, axes, norm)


def irfftn(a, s=None, axes=None, norm=None):
    """The inverse of :func:`rfftn` (real output; the last of ``axes`` gets ``s[-1]`` values, default
    ``2 * (m - 1)``). Errors as :func:`fft2`."""
    return _ops.irfftn(_check(a, "irfftn", s), s, axes, norm)


def hfft2(a, s=None, axes=(-2, -1), norm=None):
    """:func:`hfftn` over ``axes`` (default the last two)."""
    return _ops.hfft2(_check(a, "hfft2", s), s, axes, norm)


def ihfft2(a, s=None, axes=(-2, -1), norm=None):
    """:func:`ihfftn` over ``axes`` (default the last two)."""
    return _ops.ihfft2(_check(a, "ihfft2", s), s, axes, norm)


def hfftn(a, s=None, axes=None, norm=None):
    """The n-dimensional :func:`hfft`: real output from the first half (along the last of ``axes``) of a
    Hermitian-symmetric spectrum. Errors as :func:`fft2`."""
    return _ops.hfftn(_check(a, "hfftn", s), s, axes, norm)


def ihfftn(a, s=None, axes=None, norm=None):
    """The inverse of :func:`hfftn` (see the module docstring on MindSpore 2.10's answer). Errors as
    :func:`rfftn`."""
    return _ops.ihfftn(_check(a, "ihfftn", s), s, axes, norm)


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre: roll each of ``axes`` (default all) by half its length."""
    return _ops.fftshift(x, axes)


def ifftshift(x, axes=None):
    """The inverse of :func:`fftshift` (they differ for odd lengths)."""
    return _ops.ifftshift(x, axes)


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of a length-``n`` :func:`fft` with spacing ``d``:
    ``[0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (d*n)``, of ``dtype`` (default float32)."""
    return _ops.fftfreq(n, d, dtype)


def rfftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of a length-``n`` :func:`rfft`: ``[0, 1, ..., n//2] / (d*n)``."""
    return _ops.rfftfreq(n, d, dtype)
