"""Enums and filter-bank helpers of ``mindspore.dataset.audio`` (``create_dct``, ``linear_fbanks``,
``melscale_fbanks``), computed with NumPy in float64 and returned as float32 arrays, as MindSpore's.
"""
from enum import Enum

import numpy as np

from mindspore.dataset.audio._validators import (
    check_non_negative_float32, check_non_negative_int32, check_pos_int32, type_check)
from mindspore.plugin import MSValueError

__all__ = ["BorderType", "DensityFunction", "FadeShape", "GainType", "Interpolation", "MelType", "Modulation",
           "NormMode", "NormType", "ResampleMethod", "ScaleType", "WindowType", "create_dct", "linear_fbanks",
           "melscale_fbanks"]


class BorderType(str, Enum):
    """Padding modes: CONSTANT (zeros), EDGE (repeat the last value), REFLECT (mirror without the edge
    value), SYMMETRIC (mirror with the edge value)."""
    CONSTANT: str = "constant"
    EDGE: str = "edge"
    REFLECT: str = "reflect"
    SYMMETRIC: str = "symmetric"


class DensityFunction(str, Enum):
    """Noise densities of :class:`Dither`: triangular, rectangular and Gaussian."""
    TPDF: str = "TPDF"
    RPDF: str = "RPDF"
    GPDF: str = "GPDF"


class FadeShape(str, Enum):
    """Shapes of :class:`Fade`."""
    QUARTER_SINE: str = "quarter_sine"
    HALF_SINE: str = "half_sine"
    LINEAR: str = "linear"
    LOGARITHMIC: str = "logarithmic"
    EXPONENTIAL: str = "exponential"


class GainType(str, Enum):
    """How :class:`Vol` reads its gain."""
    AMPLITUDE: str = "amplitude"
    POWER: str = "power"
    DB: str = "db"


class Interpolation(str, Enum):
    """Interpolation of :class:`Flanger`'s delay line."""
    LINEAR: str = "linear"
    QUADRATIC: str = "quadratic"


class MelType(str, Enum):
    """Mel scales: HTK or Slaney."""
    HTK: str = "htk"
    SLANEY: str = "slaney"


class Modulation(str, Enum):
    """Modulation of :class:`Flanger`."""
    SINUSOIDAL: str = "sinusoidal"
    TRIANGULAR: str = "triangular"


class NormMode(str, Enum):
    """DCT normalisation."""
    ORTHO: str = "ortho"
    NONE: str = "none"


class NormType(str, Enum):
    """Mel filter-bank normalisation."""
    SLANEY: str = "slaney"
    NONE: str = "none"


class ResampleMethod(str, Enum):
    """Windows of :class:`Resample`'s sinc kernel."""
    SINC_INTERPOLATION: str = "sinc_interpolation"
    KAISER_WINDOW: str = "kaiser_window"


class ScaleType(str, Enum):
    """What :class:`AmplitudeToDB` receives: power or magnitude."""
    POWER: str = "power"
    MAGNITUDE: str = "magnitude"


class WindowType(str, Enum):
    """Analysis windows."""
    BARTLETT: str = "bartlett"
    BLACKMAN: str = "blackman"
    HAMMING: str = "hamming"
    HANN: str = "hann"
    KAISER: str = "kaiser"


def create_dct(n_mfcc, n_mels, norm=NormMode.NONE):
    """The DCT-II matrix of shape ``(n_mels, n_mfcc)`` (``NormMode.ORTHO``: orthonormal; ``NONE``: scaled by 2).

    Examples:
        >>> from mindspore.dataset.audio import create_dct, NormMode
        >>> create_dct(2, 4, NormMode.ORTHO).shape
        (4, 2)
    """
    check_pos_int32(n_mfcc, "n_mfcc")
    check_pos_int32(n_mels, "n_mels")
    type_check(norm, (NormMode,), "norm")
    n = np.arange(n_mels, dtype=np.float64)
    k = np.arange(n_mfcc, dtype=np.float64)[:, None]
    dct = np.cos(np.pi / n_mels * (n + 0.5) * k)
    if norm == NormMode.ORTHO:
        dct[0] *= 1.0 / np.sqrt(2.0)
        dct *= np.sqrt(2.0 / n_mels)
    else:
        dct *= 2.0
    return dct.T.astype(np.float32)


def _hz_to_mel(freq, mel_type):
    if mel_type == MelType.HTK:
        return 2595.0 * np.log10(1.0 + np.asarray(freq, np.float64) / 700.0)
    freq = np.asarray(freq, np.float64)
    f_sp = 200.0 / 3
    mels = freq / f_sp
    min_log_hz, logstep = 1000.0, np.log(6.4) / 27.0
    min_log_mel = min_log_hz / f_sp
    return np.where(freq >= min_log_hz, min_log_mel + np.log(np.maximum(freq, 1e-30) / min_log_hz) / logstep, mels)


def _mel_to_hz(mels, mel_type):
    mels = np.asarray(mels, np.float64)
    if mel_type == MelType.HTK:
        return 700.0 * (10.0 ** (mels / 2595.0) - 1.0)
    f_sp = 200.0 / 3
    freqs = f_sp * mels
    min_log_hz, logstep = 1000.0, np.log(6.4) / 27.0
    min_log_mel = min_log_hz / f_sp
    return np.where(mels >= min_log_mel, min_log_hz * np.exp(logstep * (mels - min_log_mel)), freqs)


def _triangular(all_freqs, f_pts):
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def _fbank_args(n_freqs, f_min, f_max, n_filter, sample_rate, n_name):
    check_non_negative_int32(n_freqs, "n_freqs")
    check_non_negative_float32(f_min, "f_min")
    check_non_negative_float32(f_max, "f_max")
    check_pos_int32(n_filter, n_name)
    check_pos_int32(sample_rate, "sample_rate")
    if f_min > f_max:
        raise MSValueError(f"Input f_min should be no more than f_max, but got f_min: {f_min} and f_max: {f_max}.")


def linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate):
    """Triangular filters equally spaced in Hz, shape ``(n_freqs, n_filter)``.

    Examples:
        >>> from mindspore.dataset.audio import linear_fbanks
        >>> linear_fbanks(65, 0.0, 4000.0, 10, 8000).shape
        (65, 10)
    """
    _fbank_args(n_freqs, f_min, f_max, n_filter, sample_rate, "n_filter")
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    f_pts = np.linspace(f_min, f_max, n_filter + 2)
    return _triangular(all_freqs, f_pts).astype(np.float32)


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm=NormType.NONE, mel_type=MelType.HTK):
    """Triangular filters equally spaced on the mel scale, shape ``(n_freqs, n_mels)``.

    Examples:
        >>> from mindspore.dataset.audio import melscale_fbanks
        >>> melscale_fbanks(201, 0.0, 8000.0, 40, 16000).shape
        (201, 40)
    """
    _fbank_args(n_freqs, f_min, f_max, n_mels, sample_rate, "n_mels")
    type_check(norm, (NormType,), "norm")
    type_check(mel_type, (MelType,), "mel_type")
    return _mel_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm, mel_type).astype(np.float32)


def _mel_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate, norm, mel_type):
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(_hz_to_mel(f_min, mel_type), _hz_to_mel(f_max, mel_type), n_mels + 2)
    f_pts = _mel_to_hz(m_pts, mel_type)
    fb = _triangular(all_freqs, f_pts)
    if norm == NormType.SLANEY:
        fb *= (2.0 / (f_pts[2:n_mels + 2] - f_pts[:n_mels]))[None, :]
    return fb


def _linear_fbanks(n_freqs, f_min, f_max, n_filter, sample_rate):
    return _triangular(np.linspace(0, sample_rate // 2, n_freqs), np.linspace(f_min, f_max, n_filter + 2))
