"""MindSpore 2.10's ``mindspore.ops`` Fourier transforms (``ops.fft``, ``ops.ifft2``, ``ops.rfftn``,
``ops.hfft``, ``ops.fftshift``, ``ops.fftfreq``, ...), with NumPy's meaning of ``n``/``s``, ``dim`` and ``norm``.

All of them call the three primitives of ``ops/_defs/fft.py``: complex transforms ``FFTN`` (a real input becomes
complex first: float64 to complex128, anything else to complex64), ``RFFTN``/``IRFFTN`` for the one-sided
transforms of real signals; the Hermitian ones are ``hfftn(x) = irfftn(conj(x))`` and ``ihfftn(x) =
conj(rfftn(x))`` under the swapped normalisation, as NumPy defines ``hfft``. ``fftshift``/``ifftshift`` roll,
``fftfreq``/``rfftfreq`` build the sample frequencies. ``stft`` frames the signal with one gather through an
index table (the centre padding, reflected or zero, folded into it), windows the frames and transforms them.
"""
import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import complex_ops as _cplx
from mindspore.ops._defs import fft as _fft
from mindspore.ops._defs.array import cached_prim
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math

__all__ = [
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn", "hfft",
    "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq", "stft",
]

_COMPLEX = (mstype.complex64, mstype.complex128)


def _tensor(op, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the 'input' must be a Tensor, but got {type(x).__name__}.")
    if x.ndim == 0:
        raise MSValueError(f"For '{op}', the 'input' must be at least 1-D, but got a 0-D tensor.")
    return x


def _as_complex(x):
    if x.dtype in _COMPLEX:
        return x
    if x.dtype != mstype.float64:
        x = _array.cast(x, mstype.float32)
    return cached_prim(_cplx.Complex)(x, _array.zeros_like(x))


def _as_real(op, x):
    if x.dtype in _COMPLEX:
        raise _fft.real_dtype_error(op, x.dtype)
    return x if x.dtype in (mstype.float32, mstype.float64) else _array.cast(x, mstype.float32)


def _plan(op, x, s, dim, default_dim):
    """The axes (normalised) and signal sizes of a transform, as NumPy's ``fftn`` reads ``s`` and ``axes``."""
    if dim is None and s is not None:
        dim = tuple(range(-len(s), 0))
    if dim is None:
        dim = default_dim if default_dim is not None else tuple(range(x.ndim))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    axes = []
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, int) or not -x.ndim <= d < x.ndim:
            raise MSValueError(f"For '{op}', the 'dim' must be in [{-x.ndim}, {x.ndim}), but got {dim}.")
        axes.append(d % x.ndim)
    if len(set(axes)) != len(axes):
        raise MSValueError(f"For '{op}', the 'dim' must not repeat an axis, but got {dim}.")
    if s is None:
        sizes = [x.shape[a] for a in axes]
    else:
        sizes = [s] if isinstance(s, int) else list(s)
        if len(sizes) != len(axes):
            raise MSValueError(f"For '{op}', 's' and 'dim' must have the same length, but got {s} and {dim}.")
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in sizes):
            raise MSValueError(f"For '{op}', the signal sizes must be positive ints, but got {s}.")
    return tuple(axes), tuple(sizes)


def _c2c(op, x, s, dim, norm, inverse, default_dim=None):
    x = _tensor(op, x)
    axes, sizes = _plan(op, x, s, dim, default_dim)
    return cached_prim(_fft.FFTN, axes, sizes, _fft.check_norm(op, norm), inverse)(_as_complex(x))


def _r2c(op, x, s, dim, norm, default_dim=None):
    x = _as_real(op, _tensor(op, x))
    axes, sizes = _plan(op, x, s, dim, default_dim)
    return cached_prim(_fft.RFFTN, axes, sizes, _fft.check_norm(op, norm))(x)


def _c2r(op, x, s, dim, norm, default_dim=None):
    x = _as_complex(_tensor(op, x))
    axes, sizes = _plan(op, x, s, dim, default_dim)
    if s is None:
        sizes = sizes[:-1] + (2 * (x.shape[axes[-1]] - 1),)
        if sizes[-1] < 1:
            raise MSValueError(f"For '{op}', the output size along the last dim must be positive, but got "
                               f"{sizes[-1]}.")
    return cached_prim(_fft.IRFFTN, axes, sizes, _fft.check_norm(op, norm))(x)


def _conj(x):
    return cached_prim(_cplx.Conj)(x)


def fft(input, n=None, dim=-1, norm=None):
    """The 1-D discrete Fourier transform along ``dim`` (``n``: pad or truncate to n points first).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.fft(ms.Tensor([0.0, 1.0, 2.0, 3.0])))
        [ 6.+0.j -2.+2.j -2.+0.j -2.-2.j]
    """
    return _c2c("fft", input, None if n is None else (n,), (dim,), norm, False)


def ifft(input, n=None, dim=-1, norm=None):
    """The 1-D inverse discrete Fourier transform along ``dim``."""
    return _c2c("ifft", input, None if n is None else (n,), (dim,), norm, True)


def fft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-D discrete Fourier transform over ``dim``."""
    return _c2c("fft2", input, s, dim, norm, False)


def ifft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-D inverse discrete Fourier transform over ``dim``."""
    return _c2c("ifft2", input, s, dim, norm, True)


def fftn(input, s=None, dim=None, norm=None):
    """The N-D discrete Fourier transform over ``dim`` (all axes, or the last ``len(s)``, by default)."""
    return _c2c("fftn", input, s, dim, norm, False)


def ifftn(input, s=None, dim=None, norm=None):
    """The N-D inverse discrete Fourier transform over ``dim``."""
    return _c2c("ifftn", input, s, dim, norm, True)


def rfft(input, n=None, dim=-1, norm=None):
    """The one-sided 1-D DFT of a real signal (``n // 2 + 1`` bins).

    Examples:
        >>> print(ops.rfft(ms.Tensor([0.0, 1.0, 2.0, 3.0])))
        [ 6.+0.j -2.+2.j -2.+0.j]
    """
    return _r2c("rfft", input, None if n is None else (n,), (dim,), norm)


def irfft(input, n=None, dim=-1, norm=None):
    """The real signal (``n`` points, default ``2 * (bins - 1)``) of a one-sided spectrum."""
    return _c2r("irfft", input, None if n is None else (n,), (dim,), norm)


def rfft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-D DFT of a real signal, one-sided along the last of ``dim``."""
    return _r2c("rfft2", input, s, dim, norm)


def irfft2(input, s=None, dim=(-2, -1), norm=None):
    """The inverse of ``rfft2``."""
    return _c2r("irfft2", input, s, dim, norm)


def rfftn(input, s=None, dim=None, norm=None):
    """The N-D DFT of a real signal, one-sided along the last of ``dim``."""
    return _r2c("rfftn", input, s, dim, norm)


def irfftn(input, s=None, dim=None, norm=None):
    """The inverse of ``rfftn``."""
    return _c2r("irfftn", input, s, dim, norm)


def _hermitian(op, input, s, dim, norm, default_dim=None):
    x = _conj(_as_complex(_tensor(op, input)))
    return _c2r(op, x, s, dim, _fft.swap_norm(_fft.check_norm(op, norm)), default_dim)


def _ihermitian(op, input, s, dim, norm, default_dim=None):
    return _conj(_r2c(op, input, s, dim, _fft.swap_norm(_fft.check_norm(op, norm)), default_dim))


def hfft(input, n=None, dim=-1, norm=None):
    """The real 1-D DFT of a Hermitian-symmetric signal given by its first half (``n`` output points).

    Examples:
        >>> print(ops.hfft(ms.Tensor([1.0, 2.0, 3.0])))
        [ 8. -2.  0. -2.]
    """
    return _hermitian("hfft", input, None if n is None else (n,), (dim,), norm)


def ihfft(input, n=None, dim=-1, norm=None):
    """The inverse of ``hfft``: the first half of the spectrum of a real signal, conjugated."""
    return _ihermitian("ihfft", input, None if n is None else (n,), (dim,), norm)


def hfft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-D ``hfft`` over ``dim``."""
    return _hermitian("hfft2", input, s, dim, norm)


def ihfft2(input, s=None, dim=(-2, -1), norm=None):
    """The 2-D ``ihfft`` over ``dim``."""
    return _ihermitian("ihfft2", input, s, dim, norm)


def hfftn(input, s=None, dim=None, norm=None):
    """The N-D ``hfft`` over ``dim``."""
    return _hermitian("hfftn", input, s, dim, norm)


def ihfftn(input, s=None, dim=None, norm=None):
    """The N-D ``ihfft`` over ``dim``."""
    return _ihermitian("ihfftn", input, s, dim, norm)


def _shift(op, input, dim, sign):
    _tensor(op, input)
    dims = tuple(range(input.ndim)) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    shifts = tuple(sign * (input.shape[d] // 2) for d in dims)
    return _array.roll(input, shifts, dims)


def fftshift(input, dim=None):
    """Move the zero-frequency bin to the centre of ``dim`` (all axes by default).

    Examples:
        >>> print(ops.fftshift(ms.Tensor([0.0, 1.0, 2.0, -2.0, -1.0])))
        [-2. -1.  0.  1.  2.]
    """
    return _shift("fftshift", input, dim, 1)


def ifftshift(input, dim=None):
    """The inverse of ``fftshift``."""
    return _shift("ifftshift", input, dim, -1)


def _freq_args(op, n, d, dtype):
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise MSValueError(f"For '{op}', the 'n' must be a positive int, but got {n}.")
    dtype = mstype.float32 if dtype is None else dtype
    if dtype not in (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16):
        raise MSTypeError(f"For '{op}', the 'dtype' must be a float type, but got {dtype}.")
    return dtype


def fftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of an ``n``-point DFT with sample spacing ``d``.

    Examples:
        >>> print(ops.fftfreq(4))
        [ 0.    0.25 -0.5  -0.25]
    """
    dtype = _freq_args("fftfreq", n, d, dtype)
    k = list(range((n - 1) // 2 + 1)) + list(range(-(n // 2), 0))
    return _array.cast(Tensor([v / (d * n) for v in k], mstype.float32), dtype)   # float32 first, as MindSpore


def rfftfreq(n, d=1.0, dtype=None):
    """The sample frequencies of ``rfft``'s ``n // 2 + 1`` bins.

    Examples:
        >>> print(ops.rfftfreq(4))
        [0.   0.25 0.5 ]
    """
    dtype = _freq_args("rfftfreq", n, d, dtype)
    return _array.cast(Tensor([v / (d * n) for v in range(n // 2 + 1)], mstype.float32), dtype)


def _frame_table(length, n_fft, hop, center, pad_mode):
    """Indices into the signal of every frame (F, n_fft), and which entries are real samples (zero padding)."""
    pad = n_fft // 2 if center else 0
    total = length + 2 * pad
    if total < n_fft:
        raise MSValueError(f"For 'stft', the padded signal ({total}) must be at least n_fft = {n_fft} long.")
    frames = 1 + (total - n_fft) // hop
    pos = _np.arange(frames)[:, None] * hop + _np.arange(n_fft)[None, :] - pad
    inside = (pos >= 0) & (pos < length)
    if pad_mode == "REFLECT":
        if pad >= length:
            raise MSValueError(f"For 'stft', reflect padding of {pad} needs a signal longer than it, but got {length}.")
        pos = _np.abs(pos)
        pos = _np.where(pos >= length, 2 * (length - 1) - pos, pos)
        inside = _np.ones_like(inside)
    return _np.clip(pos, 0, length - 1).astype(_np.int32), inside


def stft(x, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="REFLECT",
         normalized=False, onesided=None, return_complex=None):
    """The short-time Fourier transform of ``x`` (L,) or (B, L): (B,) freq x frames, complex or (with
    ``return_complex`` False, the default for a real signal) as real/imaginary pairs in a last axis of 2.

    Frames of ``n_fft`` samples start every ``hop_length`` (default ``n_fft // 4``); ``center`` pads ``n_fft // 2``
    on both sides (``pad_mode`` "REFLECT" or "CONSTANT"); ``window`` (``win_length``, default all ones) is
    centred in the frame; ``normalized`` scales by ``n_fft ** -0.5``; ``onesided`` keeps ``n_fft // 2 + 1`` bins.

    Examples:
        >>> import numpy as np
        >>> out = ops.stft(ms.Tensor(np.ones(16, np.float32)), 8, return_complex=True)
        >>> print(out.shape)
        (5, 9)
    """
    x = _tensor("stft", x)
    if x.ndim not in (1, 2):
        raise MSValueError(f"For 'stft', the 'x' must be 1-D or 2-D, but got shape {x.shape}.")
    if isinstance(n_fft, bool) or not isinstance(n_fft, int) or not 0 < n_fft:
        raise MSValueError(f"For 'stft', the 'n_fft' must be a positive int, but got {n_fft}.")
    hop = n_fft // 4 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if hop <= 0 or not 0 < win <= n_fft:
        raise MSValueError(f"For 'stft', expected 0 < hop_length and 0 < win_length <= n_fft, but got hop_length "
                           f"{hop} and win_length {win}.")
    pad_mode = pad_mode.upper()
    if pad_mode not in ("REFLECT", "CONSTANT"):
        raise MSValueError(f"For 'stft', the 'pad_mode' must be 'REFLECT' or 'CONSTANT', but got {pad_mode!r}.")
    complex_input = x.dtype in _COMPLEX
    onesided = not complex_input if onesided is None else onesided
    if onesided and complex_input:
        raise MSValueError("For 'stft', 'onesided' must be False for a complex input.")
    batched = x if x.ndim == 2 else _array.expand_dims(x, 0)
    table, inside = _frame_table(x.shape[-1], n_fft, hop, center, pad_mode if center else "CONSTANT")
    frames = _array.gather(batched, Tensor(table), 1)                               # (B, F, n_fft)
    real_dtype = mstype.float64 if x.dtype in (mstype.float64, mstype.complex128) else mstype.float32
    if not complex_input:
        frames = _array.cast(frames, real_dtype)
    weights = _np.where(inside, 1.0, 0.0)
    if window is not None:
        if not isinstance(window, Tensor) or tuple(window.shape) != (win,):
            raise MSValueError(f"For 'stft', the 'window' must be a 1-D tensor of win_length {win}.")
        left = (n_fft - win) // 2
        w = _array.pad(_array.cast(window, real_dtype), (left, n_fft - win - left))
        frames = _math.mul(frames, _array.cast(w, frames.dtype))
    elif win < n_fft:
        left = (n_fft - win) // 2
        weights = weights * ((_np.arange(n_fft) >= left) & (_np.arange(n_fft) < left + win))[None, :]
    if not _np.all(weights == 1.0):
        frames = _math.mul(frames, _array.cast(Tensor(weights.astype(_np.float32)), frames.dtype))
    norm = "ortho" if normalized else "backward"
    spec = rfft(frames, dim=-1, norm=norm) if onesided else fft(frames, dim=-1, norm=norm)
    spec = _array.swapaxes(spec, -1, -2)                                           # (B, freq, F)
    if x.ndim == 1:
        spec = _array.squeeze(spec, 0)
    if return_complex is None:
        return_complex = complex_input or (window is not None and window.dtype in _COMPLEX)
    if return_complex:
        return spec
    return _array.stack((cached_prim(_cplx.Real)(spec), cached_prim(_cplx.Imag)(spec)), -1)
