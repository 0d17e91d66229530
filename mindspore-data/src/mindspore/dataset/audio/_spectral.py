"""Spectrogram-domain transforms of ``mindspore.dataset.audio``: STFT/ISTFT, mel and linear features, dB
scaling, complex helpers, phase vocoder, Griffin-Lim."""
import math

import numpy as np

from mindspore.plugin import MSValueError
from mindspore.dataset.transforms._base import transform_rng
from mindspore.dataset.audio import _dsp
from mindspore.dataset.audio._validators import (
    INT32_MAX, check_float32, check_ndarray, check_non_negative_float32, check_non_negative_int32,
    check_pos_float32, check_pos_int32, check_value, check_win_length, type_check)
from mindspore.dataset.audio.utils import (
    BorderType, MelType, NormMode, NormType, ScaleType, WindowType, _linear_fbanks, _mel_fbanks, create_dct)
from mindspore.dataset.audio._base import AudioTensorOperation, _out


# ----------------------------------------------------------------------------------------------------------------
# spectrograms and features

def _check_stft_args(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided):
    type_check(n_fft, (int,), "n_fft")
    check_pos_int32(n_fft, "n_fft")
    if win_length is not None:
        type_check(win_length, (int,), "win_length")
        check_pos_int32(win_length, "win_length")
        check_win_length(win_length, n_fft)
    if hop_length is not None:
        type_check(hop_length, (int,), "hop_length")
        check_pos_int32(hop_length, "hop_length")
    type_check(pad, (int,), "pad")
    check_non_negative_int32(pad, "pad")
    type_check(window, (WindowType,), "window")
    if normalized is not None:
        type_check(normalized, (bool,), "normalized")
    if center is not None:
        type_check(center, (bool,), "center")
    if pad_mode is not None:
        type_check(pad_mode, (BorderType,), "pad_mode")
    if onesided is not None:
        type_check(onesided, (bool,), "onesided")


class _Stft:
    """The STFT settings shared by the spectrogram-like transforms."""

    def __init__(self, n_fft, win_length, hop_length, pad, window, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True):
        self.n_fft = n_fft
        self.win_length = win_length if win_length else n_fft
        self.hop_length = hop_length if hop_length else self.win_length // 2
        self.pad, self.window, self.normalized = pad, window, normalized
        self.center, self.pad_mode, self.onesided = center, pad_mode, onesided

    def complex(self, op, x, exact=False):
        if self.pad:
            x = _dsp.pad_last(x, self.pad, self.pad, BorderType.CONSTANT)
        length = x.shape[-1] + (2 * (self.n_fft // 2) if self.center else 0)
        if length < self.n_fft or x.shape[-1] == 0:
            raise op._error(f"n_fft should be more than 0 and less than {length}, but got n_fft: {self.n_fft}.")
        if exact and x.dtype == np.float32:
            return _dsp.stft_like_mindspore(x, self.n_fft, self.hop_length, self.win_length, self.window,
                                            self.center, self.pad_mode, self.normalized, self.onesided)
        return _dsp.stft(x, self.n_fft, self.hop_length, self.win_length, self.window, self.center, self.pad_mode,
                         self.normalized, self.onesided)

    def power(self, op, x, power):
        spec = self.complex(op, x)
        return np.abs(spec) ** power


class Spectrogram(AudioTensorOperation):
    """Spectrogram of ``(..., time)`` waveforms: ``(..., n_fft // 2 + 1, frames)`` (``(..., n_fft, frames)``
    when not ``onesided``); ``power=0`` gives the complex STFT as ``(..., freq, frames, 2)``.

    Args:
        n_fft (int, optional): FFT size. Default: ``400``.
        win_length (int, optional): window size (<= n_fft). Default: ``None`` (n_fft).
        hop_length (int, optional): hop between frames. Default: ``None`` (win_length // 2).
        pad (int, optional): zeros added at both sides. Default: ``0``.
        window (WindowType, optional): analysis window. Default: ``WindowType.HANN``.
        power (float, optional): exponent of the magnitude (>= 0). Default: ``2.0``.
        normalized (bool, optional): divide by the window's L2 norm. Default: ``False``.
        center (bool, optional): pad ``n_fft // 2`` at both sides with ``pad_mode``. Default: ``True``.
        pad_mode (BorderType, optional): padding used by ``center``. Default: ``BorderType.REFLECT``.
        onesided (bool, optional): keep only the non-negative frequencies. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Spectrogram(n_fft=16)(np.random.randn(2, 64).astype(np.float32)).shape
        (2, 9, 9)
    """

    def __init__(self, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN, power=2.0,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        _check_stft_args(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided)
        type_check(power, (int, float), "power")
        check_non_negative_float32(power, "power")
        self.n_fft, self.win_length, self.hop_length, self.pad = n_fft, win_length, hop_length, pad
        self.window, self.power, self.normalized, self.center = window, power, normalized, center
        self.pad_mode, self.onesided = pad_mode, onesided
        self._stft = _Stft(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided)

    def _apply(self, waveform):
        x = self._real(waveform)
        if self.power == 0:
            return _dsp.from_complex(self._stft.complex(self, x, exact=True), _out(0, x).dtype)
        return _out(self._stft.power(self, x, self.power), x)


def _check_mel_freq(f_min, f_max, sample_rate):
    type_check(f_min, (int, float), "f_min")
    check_float32(f_min, "f_min")
    if f_max is not None:
        type_check(f_max, (int, float), "f_max")
        check_pos_float32(f_max, "f_max")
        if f_min >= f_max:
            raise MSValueError("MelScale: f_max should be greater than f_min.")
    elif f_min >= sample_rate // 2:
        raise MSValueError("MelScale: sample_rate // 2 should be greater than f_min when f_max is set to None.")


class MelScale(AudioTensorOperation):
    """Convert a ``(..., n_stft, time)`` spectrogram to ``(..., n_mels, time)`` with triangular mel filters.

    Args:
        n_mels (int, optional): number of mel filters. Default: ``128``.
        sample_rate (int, optional): sampling rate. Default: ``16000``.
        f_min (float, optional): lowest frequency. Default: ``0.0``.
        f_max (float, optional): highest frequency. Default: ``None`` (sample_rate // 2).
        n_stft (int, optional): number of frequency bins of the input. Default: ``201``.
        norm (NormType, optional): ``SLANEY`` divides each filter by its width. Default: ``NormType.NONE``.
        mel_type (MelType, optional): mel scale. Default: ``MelType.HTK``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MelScale(n_mels=4, n_stft=9)(np.ones((9, 3), np.float32)).shape
        (4, 3)
    """

    _min_rank = 2

    def __init__(self, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, n_stft=201, norm=NormType.NONE,
                 mel_type=MelType.HTK):
        type_check(n_mels, (int,), "n_mels")
        check_pos_int32(n_mels, "n_mels")
        type_check(sample_rate, (int,), "sample_rate")
        check_pos_int32(sample_rate, "sample_rate")
        _check_mel_freq(f_min, f_max, sample_rate)
        type_check(n_stft, (int,), "n_stft")
        check_pos_int32(n_stft, "n_stft")
        type_check(norm, (NormType,), "norm")
        type_check(mel_type, (MelType,), "mel_type")
        self.n_mels, self.sample_rate, self.f_min, self.f_max = n_mels, sample_rate, f_min, f_max
        self.n_stft, self.norm, self.mel_type = n_stft, norm, mel_type

    def _fbanks(self):
        f_max = self.f_max if self.f_max is not None else float(self.sample_rate // 2)
        return _mel_fbanks(self.n_stft, self.f_min, f_max, self.n_mels, self.sample_rate, self.norm, self.mel_type)

    def _apply(self, spec):
        x = self._real(spec)
        if x.shape[-2] != self.n_stft:
            raise self._error(f"invalid parameter, 'n_stft' should be equal to 'freq', but got: n_stft "
                              f"{self.n_stft} while freq {x.shape[-2]}.")
        fb = self._fbanks().astype(np.float32)
        return _out(np.swapaxes(np.swapaxes(x, -1, -2) @ fb.astype(x.dtype), -1, -2), x)


class MelSpectrogram(AudioTensorOperation):
    """Mel spectrogram of ``(..., time)`` waveforms: :class:`Spectrogram` then :class:`MelScale`,
    ``(..., n_mels, frames)``.

    Args: as :class:`Spectrogram` and :class:`MelScale` (``mel_scale`` is the mel type; ``power`` > 0).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MelSpectrogram(n_fft=64, n_mels=8)(np.random.randn(256).astype(np.float32)).shape
        (8, 9)
    """

    def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.0, f_max=None,
                 pad=0, n_mels=128, window=WindowType.HANN, power=2.0, normalized=False, center=True,
                 pad_mode=BorderType.REFLECT, onesided=True, norm=NormType.NONE, mel_scale=MelType.HTK):
        check_non_negative_int32(sample_rate, "sample_rate")
        check_pos_int32(n_fft, "n_fft")
        check_non_negative_int32(n_mels, "n_mels")
        type_check(f_min, (float,), "f_min")
        if f_max is not None:
            check_non_negative_float32(f_max, "f_max")
            if f_min > f_max:
                raise MSValueError(f"f_max should be greater than or equal to f_min, but got f_min: {f_min} and "
                                   f"f_max: {f_max}.")
        elif f_min >= sample_rate // 2:
            raise MSValueError(f"MelSpectrogram: sample_rate // 2 should be greater than f_min when f_max is set to "
                               f"None, but got f_min: {f_min}.")
        type_check(norm, (NormType,), "norm")
        type_check(mel_scale, (MelType,), "mel_type")
        check_pos_float32(power, "power")
        _check_stft_args(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided)
        self.sample_rate, self.n_fft, self.win_length, self.hop_length = sample_rate, n_fft, win_length, hop_length
        self.f_min, self.f_max, self.pad, self.n_mels, self.window = f_min, f_max, pad, n_mels, window
        self.power, self.normalized, self.center, self.pad_mode = power, normalized, center, pad_mode
        self.onesided, self.norm, self.mel_scale = onesided, norm, mel_scale
        self._stft = _Stft(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided)

    def _mel(self, x):
        spec = self._stft.power(self, x, self.power)
        f_max = self.f_max if self.f_max is not None else float(self.sample_rate // 2)
        fb = _mel_fbanks(spec.shape[-2], self.f_min, f_max, self.n_mels, self.sample_rate, self.norm,
                         self.mel_scale)
        return np.swapaxes(np.swapaxes(spec, -1, -2) @ fb, -1, -2)

    def _apply(self, waveform):
        x = self._real(waveform)
        return _out(self._mel(x), x)


def _to_db(x, multiplier, amin, db_multiplier, top_db):
    x_db = multiplier * np.log10(np.maximum(x, amin)) - multiplier * db_multiplier
    if top_db is not None:
        if x_db.ndim >= 3:
            lead = x_db.shape[:-3]
            packed = x_db.reshape((-1,) + x_db.shape[-3:])
            floor = packed.max(axis=(-3, -2, -1), keepdims=True) - top_db
            x_db = np.maximum(packed, floor).reshape(lead + x_db.shape[-3:])
        else:
            x_db = np.maximum(x_db, x_db.max() - top_db)
    return x_db


class AmplitudeToDB(AudioTensorOperation):
    """Turn a power or magnitude spectrogram ``(..., freq, time)`` into decibels.

    Args:
        stype (ScaleType, optional): ``POWER`` (10 log10) or ``MAGNITUDE`` (20 log10). Default: ``POWER``.
        ref_value (float, optional): reference value (> 0). Default: ``1.0``.
        amin (float, optional): lower clamp of the input (> 0). Default: ``1e-10``.
        top_db (float, optional): dynamic range kept below the maximum (> 0). Default: ``80.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.AmplitudeToDB()(np.array([[1.0, 10.0, 100.0]], np.float32))
        array([[ 0., 10., 20.]], dtype=float32)
    """

    def __init__(self, stype=ScaleType.POWER, ref_value=1.0, amin=1e-10, top_db=80.0):
        type_check(stype, (ScaleType,), "stype")
        for name, value in (("ref_value", ref_value), ("amin", amin), ("top_db", top_db)):
            type_check(value, (int, float), name)
            check_pos_float32(value, name)
        self.stype, self.ref_value, self.amin, self.top_db = stype, ref_value, amin, top_db

    def _apply(self, spec):
        x = self._real(spec)
        multiplier = 10.0 if self.stype == ScaleType.POWER else 20.0
        db_multiplier = math.log10(max(self.amin, self.ref_value))
        return _out(_to_db(x.astype(np.float64), multiplier, self.amin, db_multiplier, self.top_db), x)


class DBToAmplitude(AudioTensorOperation):
    """Turn decibels back into power/amplitude: ``ref * (10 ** (0.1 * x)) ** power``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.DBToAmplitude(1.0, 1.0)(np.array([0.0, 10.0], np.float32))
        array([ 1., 10.], dtype=float32)
    """

    def __init__(self, ref, power):
        type_check(ref, (float, int), "ref")
        check_float32(ref, "ref")
        type_check(power, (float, int), "power")
        check_float32(power, "power")
        self.ref, self.power = ref, power

    def _apply(self, spec):
        x = self._real(spec)
        return _out(self.ref * np.power(np.power(10.0, 0.1 * x.astype(np.float64)), self.power), x)


def _check_power(power):
    type_check(power, (int, float), "power")
    check_non_negative_float32(power, "power")


class ComplexNorm(AudioTensorOperation):
    """Norm of a complex ``(..., 2)`` tensor raised to ``power``: ``(...)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.ComplexNorm()(np.array([[3.0, 4.0]], np.float32))
        array([5.], dtype=float32)
    """

    def __init__(self, power=1.0):
        _check_power(power)
        self.power = power

    def _apply(self, data):
        x = self._complex(data, 1)
        xd = x.astype(np.float64)
        return _out(np.power(xd[..., 0] ** 2 + xd[..., 1] ** 2, 0.5 * self.power), x)


class Angle(AudioTensorOperation):
    """Angle of a complex ``(..., 2)`` tensor: ``atan2(imag, real)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Angle()(np.array([[0.0, 1.0]], np.float32)).round(4)
        array([1.5708], dtype=float32)
    """

    def __init__(self):
        pass

    def _apply(self, data):
        x = self._complex(data, 1)
        return _out(np.arctan2(x[..., 1].astype(np.float64), x[..., 0].astype(np.float64)), x)


class Magphase(AudioTensorOperation):
    """Split a complex ``(..., 2)`` tensor into magnitude (raised to ``power``) and phase.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> mag, phase = audio.Magphase()(np.array([[3.0, 4.0]], np.float32))
        >>> mag
        array([5.], dtype=float32)
    """

    def __init__(self, power=1.0):
        _check_power(power)
        self.power = power

    def _apply(self, data):
        x = self._complex(data, 1)
        xd = x.astype(np.float64)
        mag = np.power(xd[..., 0] ** 2 + xd[..., 1] ** 2, 0.5 * self.power)
        return _out(mag, x), _out(np.arctan2(xd[..., 1], xd[..., 0]), x)


class ComputeDeltas(AudioTensorOperation):
    """Delta coefficients of a ``(..., freq, time)`` spectrogram along time.

    Args:
        win_length (int, optional): window length (>= 3). Default: ``5``.
        pad_mode (BorderType, optional): padding of the time edges. Default: ``BorderType.EDGE``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.ComputeDeltas()(np.arange(6, dtype=np.float32)[None]).round(3)
        array([[0.5, 0.8, 1. , 1. , 0.8, 0.5]], dtype=float32)
    """

    def __init__(self, win_length=5, pad_mode=BorderType.EDGE):
        type_check(pad_mode, (BorderType,), "pad_mode")
        type_check(win_length, (int,), "win_length")
        check_value(win_length, 3, INT32_MAX, "win_length")
        self.win_length, self.pad_mode = win_length, pad_mode

    def _apply(self, spec):
        x = self._real(spec)
        n = (self.win_length - 1) // 2
        denom = n * (n + 1) * (2 * n + 1) / 3
        padded = _dsp.pad_last(x.astype(np.float64), n, n, self.pad_mode)
        length = x.shape[-1]
        out = np.zeros(x.shape)
        for k in range(-n, n + 1):
            out += k * padded[..., n + k:n + k + length]
        return _out(out / denom, x)


def _dct_features(feats, n_coeffs, norm, log, x):
    """``feats`` (..., n_filters, time) -> log or dB -> DCT -> (..., n_coeffs, time)."""
    if log:
        feats = np.log(feats + 1e-6)
    else:
        feats = _to_db(feats, 10.0, 1e-10, 0.0, 80.0)
    dct = create_dct(n_coeffs, feats.shape[-2], norm).astype(np.float64)
    return _out(np.swapaxes(np.swapaxes(feats, -1, -2) @ dct, -1, -2), x)


_MEL_DEFAULTS = {"n_fft": 400, "win_length": None, "hop_length": None, "f_min": 0.0, "f_max": None, "pad": 0,
                 "n_mels": 128, "window": WindowType.HANN, "power": 2.0, "normalized": False, "center": True,
                 "pad_mode": BorderType.REFLECT, "onesided": True, "norm": NormType.NONE,
                 "mel_scale": MelType.HTK}


class MFCC(AudioTensorOperation):
    """Mel-frequency cepstral coefficients of ``(..., time)`` waveforms: ``(..., n_mfcc, frames)``.

    Args:
        sample_rate (int, optional): sampling rate. Default: ``16000``.
        n_mfcc (int, optional): number of coefficients. Default: ``40``.
        dct_type (int, optional): DCT type (only 2). Default: ``2``.
        norm (NormMode, optional): DCT normalisation. Default: ``NormMode.ORTHO``.
        log_mels (bool, optional): log of the mel spectrogram instead of decibels. Default: ``False``.
        melkwargs (dict, optional): the arguments of :class:`MelSpectrogram` (all keys). Default: ``None``
            (n_fft 400, n_mels 128, hann window, power 2).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MFCC(n_mfcc=13)(np.random.randn(1600).astype(np.float32)).shape
        (13, 9)
    """

    def __init__(self, sample_rate=16000, n_mfcc=40, dct_type=2, norm=NormMode.ORTHO, log_mels=False,
                 melkwargs=None):
        check_non_negative_int32(sample_rate, "sample_rate")
        type_check(log_mels, (bool,), "log_mels")
        type_check(norm, (NormMode,), "norm")
        check_non_negative_int32(n_mfcc, "n_mfcc")
        if dct_type != 2:
            raise MSValueError(f"Input dct_type must be 2, but got : {dct_type}.")
        kwargs = dict(_MEL_DEFAULTS)
        if melkwargs is not None:
            type_check(melkwargs, (dict,), "melkwargs")
            kwargs.update(melkwargs)
            if kwargs["n_mels"] < n_mfcc:
                raise MSValueError(f"Input n_mels should be greater than or equal to n_mfcc, but got n_mfcc: "
                                   f"{n_mfcc} and n_mels: {kwargs['n_mels']}.")
        kwargs["f_min"] = float(kwargs["f_min"])
        self.sample_rate, self.n_mfcc, self.dct_type, self.norm = sample_rate, n_mfcc, dct_type, norm
        self.log_mels, self.melkwargs = log_mels, melkwargs
        self._mel = MelSpectrogram(sample_rate=sample_rate, **kwargs)

    def _apply(self, waveform):
        x = self._real(waveform)
        mel = self._mel._mel(x)  # pylint: disable=protected-access
        return _dct_features(mel, self.n_mfcc, self.norm, self.log_mels, x)


_SPEC_DEFAULTS = {"n_fft": 400, "win_length": None, "hop_length": None, "pad": 0, "window": WindowType.HANN,
                  "power": 2.0, "normalized": False, "center": True, "pad_mode": BorderType.REFLECT,
                  "onesided": True}


class LFCC(AudioTensorOperation):
    """Linear-frequency cepstral coefficients of ``(..., time)`` waveforms: ``(..., n_lfcc, frames)``.

    Args:
        sample_rate (int, optional): sampling rate. Default: ``16000``.
        n_filter (int, optional): number of linear filters. Default: ``128``.
        n_lfcc (int, optional): number of coefficients. Default: ``40``.
        f_min (float, optional): lowest frequency. Default: ``0.0``.
        f_max (float, optional): highest frequency. Default: ``None`` (sample_rate // 2).
        dct_type (int, optional): DCT type (only 2). Default: ``2``.
        norm (NormMode, optional): DCT normalisation. Default: ``NormMode.ORTHO``.
        log_lf (bool, optional): log instead of decibels. Default: ``False``.
        speckwargs (dict, optional): the arguments of :class:`Spectrogram`. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.LFCC(n_lfcc=20)(np.random.randn(1600).astype(np.float32)).shape
        (20, 9)
    """

    def __init__(self, sample_rate=16000, n_filter=128, n_lfcc=40, f_min=0.0, f_max=None, dct_type=2,
                 norm=NormMode.ORTHO, log_lf=False, speckwargs=None):
        type_check(sample_rate, (int,), "sample_rate")
        check_non_negative_int32(sample_rate, "sample_rate")
        type_check(n_filter, (int,), "n_filter")
        check_pos_int32(n_filter, "n_filter")
        type_check(n_lfcc, (int,), "n_lfcc")
        check_pos_int32(n_lfcc, "n_lfcc")
        type_check(log_lf, (bool,), "log_lf")
        type_check(norm, (NormMode,), "norm")
        type_check(f_min, (int, float), "f_min")
        check_non_negative_float32(f_min, "f_min")
        if f_max is not None:
            type_check(f_max, (int, float), "f_max")
            check_non_negative_float32(f_max, "f_max")
            if f_min > f_max:
                raise MSValueError(f"f_max should be greater than or equal to f_min, but got f_min: {f_min} and "
                                   f"f_max: {f_max}.")
        elif f_min >= sample_rate // 2:
            raise MSValueError(f"Input sample_rate // 2 should be greater than f_min when f_max is set to None, "
                               f"but got f_min: {f_min} and sample_rate: {sample_rate}.")
        if dct_type != 2:
            raise MSValueError(f"Input dct_type must be 2, but got : {dct_type}.")
        kwargs = dict(_SPEC_DEFAULTS)
        if speckwargs is not None:
            type_check(speckwargs, (dict,), "speckwargs")
            kwargs.update(speckwargs)
            if kwargs["n_fft"] < n_lfcc:
                raise MSValueError(f"n_fft should be greater than or equal to n_lfcc, but got n_fft: "
                                   f"{kwargs['n_fft']} and n_lfcc: {n_lfcc}.")
        self.sample_rate, self.n_filter, self.n_lfcc = sample_rate, n_filter, n_lfcc
        self.f_min, self.f_max = f_min, f_max
        self.dct_type, self.norm, self.log_lf, self.speckwargs = dct_type, norm, log_lf, speckwargs
        self._power = kwargs.pop("power")
        self._stft = _Stft(**kwargs)

    def _apply(self, waveform):
        x = self._real(waveform)
        spec = self._stft.power(self, x, self._power)
        f_max = self.f_max if self.f_max is not None else float(self.sample_rate // 2)
        fb = _linear_fbanks(spec.shape[-2], self.f_min, f_max, self.n_filter, self.sample_rate)
        feats = np.swapaxes(np.swapaxes(spec, -1, -2) @ fb, -1, -2)
        return _dct_features(feats, self.n_lfcc, self.norm, self.log_lf, x)


class SpectralCentroid(AudioTensorOperation):
    """Spectral centroid of each frame of ``(..., time)`` waveforms: ``(..., 1, frames)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.SpectralCentroid(8000, n_fft=64)(np.random.randn(256).astype(np.float32)).shape
        (1, 9)
    """

    def __init__(self, sample_rate, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN):
        type_check(sample_rate, (int,), "sample_rate")
        check_non_negative_int32(sample_rate, "sample_rate")
        _check_stft_args(n_fft, win_length, hop_length, pad, window, None, None, None, None)
        self.sample_rate, self.n_fft, self.win_length, self.hop_length = sample_rate, n_fft, win_length, hop_length
        self.pad, self.window = pad, window
        self._stft = _Stft(n_fft, win_length, hop_length, pad, window)

    def _apply(self, waveform):
        x = self._real(waveform)
        spec = self._stft.power(self, x, 1.0)
        freqs = np.linspace(0, self.sample_rate // 2, 1 + self.n_fft // 2)[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            centroid = np.sum(freqs * spec, axis=-2, keepdims=True) / np.sum(spec, axis=-2, keepdims=True)
        return _out(centroid, x)


class PhaseVocoder(AudioTensorOperation):
    """Speed a complex ``(..., freq, time, 2)`` spectrogram up by ``rate`` keeping the pitch.

    Args:
        rate (float): speed-up factor (> 0).
        phase_advance (numpy.ndarray): expected phase advance per bin, shape ``(freq, 1)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> adv = np.linspace(0, np.pi * 2, 9, dtype=np.float32)[:, None]
        >>> audio.PhaseVocoder(2.0, adv)(np.random.randn(9, 10, 2).astype(np.float32)).shape
        (9, 5, 2)
    """

    def __init__(self, rate, phase_advance):
        type_check(rate, (int, float), "rate")
        check_pos_float32(rate, "rate")
        check_ndarray(phase_advance, "phase_advance")
        self.rate, self.phase_advance = rate, phase_advance

    def _apply(self, spec):
        x = self._complex(spec, 3)
        flat = self.phase_advance.reshape(-1).astype(np.float64)
        if flat.size == 0:
            raise self._error("phase_advance can not be empty.")
        # MindSpore walks the advances cyclically over the (channel, freq) rows
        advance = flat[np.arange(int(np.prod(x.shape[:-2]))) % flat.size].reshape(x.shape[:-2] + (1,))
        z = _dsp.phase_vocoder(_dsp.to_complex(x), self.rate, advance, _out(0, x).dtype)
        return _dsp.from_complex(z, _out(0, x).dtype)


class TimeStretch(AudioTensorOperation):
    """Stretch a complex ``(..., n_freq, time, 2)`` spectrogram in time by ``1 / fixed_rate``.

    Args:
        hop_length (int, optional): hop of the STFT. Default: ``None`` (n_fft // 2, n_fft = 2 (n_freq - 1)).
        n_freq (int, optional): number of frequency bins. Default: ``201``.
        fixed_rate (float, optional): speed-up factor. Default: ``None`` (1, nothing changes).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.TimeStretch(n_freq=9, fixed_rate=2.0)(np.random.randn(9, 10, 2).astype(np.float32)).shape
        (9, 5, 2)
    """

    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        if hop_length is not None:
            type_check(hop_length, (int,), "hop_length")
            check_pos_int32(hop_length, "hop_length")
        type_check(n_freq, (int,), "n_freq")
        check_pos_int32(n_freq, "n_freq")
        if fixed_rate is not None:
            type_check(fixed_rate, (int, float), "fixed_rate")
            check_pos_float32(fixed_rate, "fixed_rate")
        self.hop_length = hop_length if hop_length is not None else n_freq - 1
        self.n_freq = n_freq
        self.fixed_rate = fixed_rate if fixed_rate is not None else 1

    def _apply(self, spec):
        x = self._complex(spec, 3)
        dtype = _out(0, x).dtype
        # MindSpore's linspace: start + i * (end - start) / (n - 1), in the data's float type
        step = np.float32(np.pi * self.hop_length) / np.float32(max(self.n_freq - 1, 1)) if dtype == np.float32 \
            else np.pi * self.hop_length / max(self.n_freq - 1, 1)
        advance = np.arange(self.n_freq, dtype=dtype) * dtype.type(step)
        # MindSpore walks the n_freq advances cyclically over the (channel, freq) rows
        rows = np.arange(int(np.prod(x.shape[:-2]))) % self.n_freq
        advance = advance[rows].reshape(x.shape[:-2] + (1,))
        if self.fixed_rate == 1:
            return x.astype(dtype)
        z = _dsp.phase_vocoder(_dsp.to_complex(x), self.fixed_rate, advance, dtype)
        return _dsp.from_complex(z, _out(0, x).dtype)


class InverseSpectrogram(AudioTensorOperation):
    """Waveform ``(..., time)`` from a complex spectrogram ``(..., freq, frames, 2)`` (inverse STFT).

    Args:
        length (int, optional): output length. Default: ``None`` (as the STFT gives).
        n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided: as
            :class:`Spectrogram`.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.InverseSpectrogram(n_fft=16, hop_length=4)(np.random.randn(9, 12, 2).astype(np.float32)).shape
        (44,)
    """

    def __init__(self, length=None, n_fft=400, win_length=None, hop_length=None, pad=0, window=WindowType.HANN,
                 normalized=False, center=True, pad_mode=BorderType.REFLECT, onesided=True):
        if length is not None:
            check_non_negative_int32(length, "length")
        _check_stft_args(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided)
        self.length, self.n_fft, self.win_length, self.hop_length = length, n_fft, win_length, hop_length
        self.pad, self.window, self.normalized, self.center = pad, window, normalized, center
        self.pad_mode, self.onesided = pad_mode, onesided
        self._stft = _Stft(n_fft, win_length, hop_length, pad, window, normalized, center, pad_mode, onesided)

    def _apply(self, spec):
        x = self._complex(spec, 3)
        s = self._stft
        length = None if self.length is None else self.length + 2 * self.pad
        wave = _dsp.istft(_dsp.to_complex(x), s.n_fft, s.hop_length, s.win_length, s.window, s.center,
                          s.normalized, s.onesided, length)
        if self.pad:
            wave = wave[..., self.pad:wave.shape[-1] - self.pad]
        return _out(wave, x)


class GriffinLim(AudioTensorOperation):
    """Waveform from a magnitude/power spectrogram ``(..., freq, frames)`` by the Griffin-Lim algorithm.

    Args:
        n_fft (int, optional): FFT size. Default: ``400``.
        n_iter (int, optional): iterations. Default: ``32``.
        win_length (int, optional): window size. Default: ``None`` (n_fft).
        hop_length (int, optional): hop. Default: ``None`` (win_length // 2).
        window_type (WindowType, optional): window. Default: ``WindowType.HANN``.
        power (float, optional): exponent of the input magnitude (> 0). Default: ``2.0``.
        momentum (float, optional): fast Griffin-Lim momentum (>= 0); as in MindSpore 2.10, the previous
            estimate is weighted by ``momentum / (1 + 2 momentum)``. Default: ``0.99``.
        length (int, optional): output length. Default: ``None``.
        rand_init (bool, optional): random initial phases (else zeros). Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.GriffinLim(n_fft=16, n_iter=4)(np.random.rand(9, 5).astype(np.float32)).shape
        (32,)
    """

    random = True

    def __init__(self, n_fft=400, n_iter=32, win_length=None, hop_length=None, window_type=WindowType.HANN,
                 power=2.0, momentum=0.99, length=None, rand_init=True):
        type_check(n_fft, (int,), "n_fft")
        check_pos_int32(n_fft, "n_fft")
        type_check(n_iter, (int,), "n_iter")
        check_pos_int32(n_iter, "n_iter")
        if win_length is not None:
            type_check(win_length, (int,), "win_length")
            check_non_negative_int32(win_length, "win_length")
            check_win_length(win_length, n_fft)
        if hop_length is not None:
            type_check(hop_length, (int,), "hop_length")
            check_non_negative_int32(hop_length, "hop_length")
        type_check(window_type, (WindowType,), "window_type")
        type_check(power, (int, float), "power")
        check_pos_float32(power, "power")
        type_check(momentum, (int, float), "momentum")
        check_non_negative_float32(momentum, "momentum")
        if length is not None:
            type_check(length, (int,), "length")
            check_non_negative_int32(length, "length")
        type_check(rand_init, (bool,), "rand_init")
        self.n_fft, self.n_iter, self.win_length, self.hop_length = n_fft, n_iter, win_length, hop_length
        self.window_type, self.power, self.momentum, self.length = window_type, power, momentum, length
        self.rand_init = rand_init
        self.random = rand_init
        self._stft = _Stft(n_fft, win_length, hop_length, 0, window_type)

    def _apply(self, spec):
        x = self._real(spec, 2)
        s = self._stft
        if x.shape[-2] != self.n_fft // 2 + 1:
            raise self._error(f"the frequency dimension of the input should be equal to n_fft // 2 + 1: "
                              f"{self.n_fft // 2 + 1}, but got {x.shape[-2]}.")
        mag = np.power(x.astype(np.float64), 1.0 / self.power)
        if self.rand_init:
            angles = np.exp(2j * np.pi * transform_rng().random(mag.shape))
        else:
            angles = np.ones(mag.shape, np.complex128)
        tprev = np.zeros(mag.shape, np.complex128)
        # MindSpore 2.10 turns momentum m into m / (1 + m) and its kernel then applies the fast Griffin-Lim
        # factor x / (1 + x) to that again: the previous estimate is weighted by m / (1 + 2 m)
        converted = self.momentum / (1 + self.momentum)
        coef = converted / (1 + converted)
        for _ in range(self.n_iter):
            inverse = _dsp.istft(mag * angles, s.n_fft, s.hop_length, s.win_length, s.window, length=self.length)
            rebuilt = _dsp.stft(inverse, s.n_fft, s.hop_length, s.win_length, s.window)
            angles = rebuilt - tprev * coef
            angles = angles / (np.abs(angles) + 1e-16)
            tprev = rebuilt
        wave = _dsp.istft(mag * angles, s.n_fft, s.hop_length, s.win_length, s.window, length=self.length)
        return _out(wave, x)


class InverseMelScale(AudioTensorOperation):
    """Estimate a linear spectrogram ``(..., n_stft, time)`` from a mel spectrogram ``(..., n_mels, time)``
    by minimising ``mean((melscale(S) - mel)^2)`` by gradient descent from a random start (``S >= 0``).

    As MindSpore's, a 2-D input ``(n_mels, time)`` gives ``(1, n_stft, time)``. The random start comes
    from the dataset transform generator, so results differ from MindSpore's (whose generator cannot be
    reproduced) but solve the same problem.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.InverseMelScale(20, 16, 8000, max_iter=50)(np.random.rand(16, 5).astype(np.float32)).shape
        (1, 20, 5)
    """

    random = True
    _min_rank = 2

    def __init__(self, n_stft, n_mels=128, sample_rate=16000, f_min=0.0, f_max=None, max_iter=100000,
                 tolerance_loss=1e-5, tolerance_change=1e-8, sgdargs=None, norm=NormType.NONE,
                 mel_type=MelType.HTK):
        type_check(n_mels, (int,), "n_mels")
        check_pos_int32(n_mels, "n_mels")
        type_check(sample_rate, (int,), "sample_rate")
        check_pos_int32(sample_rate, "sample_rate")
        _check_mel_freq(f_min, f_max, sample_rate)
        type_check(n_stft, (int,), "n_stft")
        check_pos_int32(n_stft, "n_stft")
        type_check(norm, (NormType,), "norm")
        type_check(mel_type, (MelType,), "mel_type")
        type_check(max_iter, (int,), "max_iter")
        check_pos_int32(max_iter, "max_iter")
        type_check(tolerance_loss, (int, float), "tolerance_loss")
        check_pos_float32(tolerance_loss, "tolerance_loss")
        type_check(tolerance_change, (int, float), "tolerance_change")
        check_pos_float32(tolerance_change, "tolerance_change")
        sgd = {"sgd_lr": 0.1, "sgd_momentum": 0.9}
        if sgdargs is not None:
            type_check(sgdargs, (dict,), "sgdargs")
            for key in ("sgd_lr", "sgd_momentum"):
                type_check(sgdargs[key], (int, float), key)
                check_non_negative_float32(sgdargs[key], key)
            sgd.update(sgdargs)
        self.n_stft, self.n_mels, self.sample_rate, self.f_min, self.f_max = n_stft, n_mels, sample_rate, f_min, f_max
        self.max_iter, self.tolerance_loss, self.tolerance_change = max_iter, tolerance_loss, tolerance_change
        self.sgdargs, self.norm, self.mel_type = sgd, norm, mel_type

    def _apply(self, melspec):
        x = self._real(melspec)
        if x.shape[-2] != self.n_mels:
            raise self._error("n_mels must be equal to the penultimate dimension of input.")
        f_max = self.f_max if self.f_max is not None else float(self.sample_rate // 2)
        fb = _mel_fbanks(self.n_stft, self.f_min, f_max, self.n_mels, self.sample_rate, self.norm, self.mel_type)
        mel = x.reshape((-1,) + x.shape[-2:]).astype(np.float64)
        n_time = mel.shape[-1]
        spec = transform_rng().random((mel.shape[0], self.n_stft, n_time))
        lr = self.sgdargs["sgd_lr"]
        # As MindSpore 2.10: gradient descent on mean((mel - fb^T S)^2) with the gradient scaled by 1 / time
        # (its SGD keeps no momentum buffer between steps, so sgd_momentum has no effect), per channel, until
        # the loss or its change falls below the tolerances; S is clamped to >= 0 at the end.
        for channel in range(mel.shape[0]):
            prev = np.finfo(np.float64).max
            current = spec[channel]
            for _ in range(self.max_iter):
                diff = mel[channel] - fb.T @ current
                loss = float(np.mean(diff ** 2))
                if loss < self.tolerance_loss or abs(prev - loss) < self.tolerance_change:
                    break
                prev = loss
                current = current + lr * (fb @ diff) / n_time
            spec[channel] = current
        spec = np.maximum(spec, 0.0)
        out_shape = x.shape[:-2] + spec.shape[-2:] if x.ndim > 2 else spec.shape
        return _out(spec.reshape(out_shape), x)
