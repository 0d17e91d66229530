"""Masking, resampling and amplitude effects of ``mindspore.dataset.audio``."""
import math

import numpy as np

from mindspore.plugin import MSRuntimeError
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.transforms._base import op_engine
from mindspore.dataset.audio import _dsp
from mindspore.dataset.audio._validators import (
    check_float32, check_non_negative_float32, check_non_negative_int32, check_pos_float32, check_pos_int32,
    check_value, type_check)
from mindspore.dataset.audio.utils import FadeShape, GainType, ResampleMethod
from mindspore.dataset.audio._base import AudioTensorOperation, _out


# ----------------------------------------------------------------------------------------------------------------
# masking

def _check_mask_span(start, width, size):
    """MindSpore's MaskAlongAxis kernel (which TimeMasking/FrequencyMasking run too) refuses masks past the end."""
    if start + width > size:
        raise MSRuntimeError(f"MaskAlongAxis: invalid parameter, the sum of 'mask_start' and 'mask_width' should be "
                             f"no more than the length of the masked dimension, but got: 'mask_start' {start}, "
                             f"'mask_width' {width} and length {size}")


def _mask(x, axis, start, width, value):
    out = x.copy()
    if axis == 1:
        out[..., start:start + width, :] = value
    else:
        out[..., start:start + width] = value
    return out


class MaskAlongAxis(AudioTensorOperation):
    """Set ``[mask_start, mask_start + mask_width)`` along ``axis`` (1: frequency, 2: time) of a
    ``(..., freq, time)`` spectrogram to ``mask_value``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MaskAlongAxis(0, 1, 0.0, 2)(np.ones((2, 3), np.float32))
        array([[0., 1., 1.],
               [0., 1., 1.]], dtype=float32)
    """

    _min_rank = 2

    def __init__(self, mask_start, mask_width, mask_value, axis):
        type_check(mask_start, (int,), "mask_start")
        type_check(mask_width, (int,), "mask_width")
        type_check(mask_value, (int, float), "mask_value")
        type_check(axis, (int,), "axis")
        check_non_negative_int32(mask_start, "mask_start")
        check_pos_int32(mask_width, "mask_width")
        check_float32(mask_value, "mask_value")
        check_value(axis, 1, 2, "axis")
        self.mask_start, self.mask_width, self.mask_value, self.axis = mask_start, mask_width, mask_value, axis

    def _apply(self, spec):
        x = self._real(spec)
        size = x.shape[-2] if self.axis == 1 else x.shape[-1]
        _check_mask_span(self.mask_start, self.mask_width, size)
        return _mask(x, self.axis, self.mask_start, self.mask_width, self.mask_value)


def _random_mask(op, x, axis, mask_param, value):
    size = x.shape[-2] if axis == 1 else x.shape[-1]
    if mask_param > size:
        raise op._error(f"mask_param should be less than or equal to the length of the masked axis {size}, "
                        f"but got {mask_param}.")
    # 2.10's RandomMaskAlongAxis: uniform_int_distribution for the width, then for the start, on the op's engine
    engine = op_engine(op)
    width = cxx_random.std_uniform_int(engine, 0, mask_param)
    start = cxx_random.std_uniform_int(engine, 0, size - width)
    return _mask(x, axis, start, width, value)


class MaskAlongAxisIID(AudioTensorOperation):
    """Mask ``[start, start + width)`` along ``axis`` (1: frequency, 2: time) with ``mask_value``, ``width``
    drawn from ``[0, mask_param]`` and ``start`` from ``[0, size - width]``.

    The draws are 2.10's (``uniform_int_distribution`` on the operation's own ``std::mt19937``).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MaskAlongAxisIID(2, 0.0, 2)(np.ones((3, 8), np.float32)).shape
        (3, 8)
    """

    random = True
    _min_rank = 2

    def __init__(self, mask_param, mask_value, axis):
        type_check(mask_param, (int,), "mask_param")
        check_non_negative_int32(mask_param, "mask_param")
        type_check(mask_value, (int, float), "mask_value")
        check_float32(mask_value, "mask_value")
        type_check(axis, (int,), "axis")
        check_value(axis, 1, 2, "axis")
        self.mask_param, self.mask_value, self.axis = mask_param, mask_value, axis

    def _apply(self, spec):
        return _random_mask(self, self._real(spec), self.axis, self.mask_param, self.mask_value)


def _check_masking(iid_masks, mask_param, mask_start, mask_value):
    type_check(iid_masks, (bool,), "iid_masks")
    type_check(mask_param, (int,), "mask_param")
    check_non_negative_float32(mask_param, "mask_param")
    type_check(mask_start, (int,), "mask_start")
    check_non_negative_float32(mask_start, "mask_start")
    type_check(mask_value, (int, float), "mask_value")
    check_non_negative_float32(mask_value, "mask_value")


class _Masking(AudioTensorOperation):
    _axis = 2
    _min_rank = 2

    def _masked(self, spec, mask_param):
        x = self._real(spec)
        if self.iid_masks:
            return _random_mask(self, x, self._axis, mask_param, self.mask_value)
        size = x.shape[-2] if self._axis == 1 else x.shape[-1]
        _check_mask_span(self.mask_start, mask_param, size)
        return _mask(x, self._axis, self.mask_start, mask_param, self.mask_value)


class TimeMasking(_Masking):
    """Mask a block of time steps of a ``(..., freq, time)`` spectrogram with ``mask_value``.

    With ``iid_masks=False`` the block is ``[mask_start, mask_start + time_mask_param)``; with ``True`` its
    width is drawn from ``[0, time_mask_param]`` and its start at random (from the dataset transform
    generator; MindSpore's own generator cannot be reproduced).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.TimeMasking(time_mask_param=2, mask_start=1)(np.ones((2, 4), np.float32))
        array([[1., 0., 0., 1.],
               [1., 0., 0., 1.]], dtype=float32)
    """

    _axis = 2

    def __init__(self, iid_masks=False, time_mask_param=0, mask_start=0, mask_value=0.0):
        _check_masking(iid_masks, time_mask_param, mask_start, mask_value)
        self.iid_masks, self.time_mask_param, self.mask_start, self.mask_value = (
            iid_masks, time_mask_param, mask_start, mask_value)
        self.random = iid_masks

    def _apply(self, spec):
        return self._masked(spec, self.time_mask_param)


class FrequencyMasking(_Masking):
    """Mask a block of frequency bins of a ``(..., freq, time)`` spectrogram (see :class:`TimeMasking`).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.FrequencyMasking(freq_mask_param=1, mask_start=0)(np.ones((2, 2), np.float32))
        array([[0., 0.],
               [1., 1.]], dtype=float32)
    """

    _axis = 1

    def __init__(self, iid_masks=False, freq_mask_param=0, mask_start=0, mask_value=0.0):
        _check_masking(iid_masks, freq_mask_param, mask_start, mask_value)
        self.iid_masks, self.freq_mask_param, self.mask_start, self.mask_value = (
            iid_masks, freq_mask_param, mask_start, mask_value)
        self.random = iid_masks

    def _apply(self, spec):
        return self._masked(spec, self.freq_mask_param)


# ----------------------------------------------------------------------------------------------------------------
# waveform effects

class Resample(AudioTensorOperation):
    """Resample ``(..., time)`` waveforms from ``orig_freq`` to ``new_freq`` with a windowed sinc kernel.

    Args:
        orig_freq (float, optional): original rate. Default: ``16000``.
        new_freq (float, optional): target rate. Default: ``16000``.
        resample_method (ResampleMethod, optional): Hann-windowed sinc or Kaiser window.
            Default: ``ResampleMethod.SINC_INTERPOLATION``.
        lowpass_filter_width (int, optional): sharpness of the filter (zero crossings). Default: ``6``.
        rolloff (float, optional): roll-off as a fraction of the Nyquist frequency, in (0, 1]. Default: ``0.99``.
        beta (float, optional): Kaiser window shape. Default: ``None`` (14.769656459379492).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Resample(16000, 8000)(np.zeros((2, 100), np.float32)).shape
        (2, 50)
    """

    def __init__(self, orig_freq=16000, new_freq=16000, resample_method=ResampleMethod.SINC_INTERPOLATION,
                 lowpass_filter_width=6, rolloff=0.99, beta=None):
        type_check(orig_freq, (float, int), "orig_freq")
        check_pos_float32(orig_freq, "orig_freq")
        type_check(new_freq, (float, int), "new_freq")
        check_pos_float32(new_freq, "new_freq")
        type_check(resample_method, (ResampleMethod,), "resample_method")
        check_pos_int32(lowpass_filter_width, "lowpass_filter_width")
        type_check(rolloff, (float,), "rolloff")
        check_value(rolloff, 0, 1.0, "rolloff", left_open=True)
        self.orig_freq, self.new_freq, self.resample_method = orig_freq, new_freq, resample_method
        self.lowpass_filter_width, self.rolloff, self.beta = lowpass_filter_width, rolloff, beta

    def _apply(self, waveform):
        x = self._real(waveform)
        beta = 14.769656459379492 if self.beta is None else float(self.beta)
        out = _dsp.resample(x, self.orig_freq, self.new_freq, self.lowpass_filter_width, self.rolloff,
                            self.resample_method == ResampleMethod.KAISER_WINDOW, beta)
        return _out(out, x)


def _fade_curve(shape, length, fade_in):
    t = np.linspace(0.0, 1.0, length) if length > 1 else np.zeros(length)
    if fade_in:
        if shape == FadeShape.LINEAR:
            return t
        if shape == FadeShape.EXPONENTIAL:
            return np.power(2.0, t - 1) * t
        if shape == FadeShape.LOGARITHMIC:
            return np.log10(0.1 + t) + 1
        if shape == FadeShape.QUARTER_SINE:
            return np.sin(t * np.pi / 2)
        return np.sin(t * np.pi - np.pi / 2) / 2 + 0.5
    if shape == FadeShape.LINEAR:
        return 1 - t
    if shape == FadeShape.EXPONENTIAL:
        return np.power(2.0, -t) * (1 - t)
    if shape == FadeShape.LOGARITHMIC:
        return np.log10(1.1 - t) + 1
    if shape == FadeShape.QUARTER_SINE:
        return np.sin(t * np.pi / 2 + np.pi / 2)
    return np.sin(t * np.pi + np.pi / 2) / 2 + 0.5


class Fade(AudioTensorOperation):
    """Fade the start and the end of ``(..., time)`` waveforms in and out.

    Args:
        fade_in_len (int, optional): fade-in length in samples. Default: ``0``.
        fade_out_len (int, optional): fade-out length in samples. Default: ``0``.
        fade_shape (FadeShape, optional): curve. Default: ``FadeShape.LINEAR``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Fade(fade_in_len=3)(np.ones(4, np.float32))
        array([0. , 0.5, 1. , 1. ], dtype=float32)
    """

    def __init__(self, fade_in_len=0, fade_out_len=0, fade_shape=FadeShape.LINEAR):
        type_check(fade_in_len, (int,), "fade_in_len")
        check_non_negative_int32(fade_in_len, "fade_in_len")
        type_check(fade_out_len, (int,), "fade_out_len")
        check_non_negative_int32(fade_out_len, "fade_out_len")
        type_check(fade_shape, (FadeShape,), "fade_shape")
        self.fade_in_len, self.fade_out_len, self.fade_shape = fade_in_len, fade_out_len, fade_shape

    def _apply(self, waveform):
        x = self._real(waveform)
        length = x.shape[-1]
        for name, value in (("fade_in_len", self.fade_in_len), ("fade_out_len", self.fade_out_len)):
            if value > length:
                raise self._error(f"invalid parameter, '{name}' should be no greater than 'length of waveform', "
                                  f"but got: {name} {value} while length of waveform {length}.")
        fade_in = np.ones(length)
        fade_in[:self.fade_in_len] = _fade_curve(self.fade_shape, self.fade_in_len, True)
        fade_out = np.ones(length)
        fade_out[length - self.fade_out_len:] = _fade_curve(self.fade_shape, self.fade_out_len, False)
        return _out(x * fade_in * fade_out, x)


class Vol(AudioTensorOperation):
    """Scale the volume of ``(..., time)`` waveforms and clip to [-1, 1].

    Args:
        gain (float): amplitude ratio (>= 0), power ratio (> 0) or decibels, as ``gain_type`` says.
        gain_type (GainType, optional): Default: ``GainType.AMPLITUDE``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Vol(2.0)(np.array([0.1, 0.7], np.float32))
        array([0.2, 1. ], dtype=float32)
    """

    def __init__(self, gain, gain_type=GainType.AMPLITUDE):
        type_check(gain, (int, float), "gain")
        type_check(gain_type, (GainType,), "gain_type")
        if gain_type == GainType.AMPLITUDE:
            check_non_negative_float32(gain, "gain")
        elif gain_type == GainType.POWER:
            check_pos_float32(gain, "gain")
        else:
            check_float32(gain, "gain")
        self.gain, self.gain_type = gain, gain_type

    def _apply(self, waveform):
        x = self._real(waveform)
        if self.gain_type == GainType.AMPLITUDE:
            factor = float(self.gain)
        elif self.gain_type == GainType.DB:
            factor = 10.0 ** (self.gain / 20.0)
        else:
            factor = 10.0 ** (10.0 * math.log10(self.gain) / 20.0)
        return _out(np.clip(x * x.dtype.type(factor), -1.0, 1.0), x)


class Gain(AudioTensorOperation):
    """Amplify or attenuate ``(..., time)`` waveforms by ``gain_db`` decibels (no clipping).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Gain(20.0)(np.array([0.5, -0.25], np.float32))
        array([ 5. , -2.5], dtype=float32)
    """

    def __init__(self, gain_db=1.0):
        type_check(gain_db, (float, int), "gain_db")
        check_float32(gain_db, "gain_db")
        self.gain_db = gain_db

    def _apply(self, waveform):
        x = self._real(waveform)
        return _out(x * x.dtype.type(10.0 ** (self.gain_db / 20.0)), x)


class DCShift(AudioTensorOperation):
    """Shift the DC offset of ``(..., time)`` waveforms, with an optional limiter against clipping.

    Args:
        shift (float): offset in [-2.0, 2.0].
        limiter_gain (float, optional): gain of the limiter (a small value such as 0.05). Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.DCShift(0.5)(np.array([0.1, 0.7], np.float32))
        array([0.6, 1. ], dtype=float32)
    """

    def __init__(self, shift, limiter_gain=None):
        type_check(shift, (float, int), "shift")
        check_value(shift, -2.0, 2.0, "shift")
        if limiter_gain is not None:
            type_check(limiter_gain, (float, int), "limiter_gain")
        self.shift, self.limiter_gain = shift, limiter_gain

    def _apply(self, waveform):
        x = self._real(waveform)
        xd = x.astype(np.float64)
        shift, gain = float(self.shift), self.limiter_gain
        if gain is None or shift == 0:
            return _out(np.clip(xd + shift, -1.0, 1.0), x)
        threshold = 1.0 - (abs(shift) - gain)
        if shift > 0:
            mask = xd > threshold
            limited = np.minimum((xd - threshold) * gain / (1 - threshold) + threshold + shift, threshold)
        else:
            mask = xd < -threshold
            limited = np.maximum((xd + threshold) * gain / (1 - threshold) - threshold + shift, -threshold)
        return _out(np.where(mask, limited, np.clip(xd + shift, -1.0, 1.0)), x)


class Contrast(AudioTensorOperation):
    """Boost the loudness of ``(..., time)`` waveforms like a compressor (sox ``contrast``).

    Args:
        enhancement_amount (float, optional): in [0, 100]. Default: ``75.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Contrast()(np.zeros((2, 4), np.float32)).shape
        (2, 4)
    """

    def __init__(self, enhancement_amount=75.0):
        type_check(enhancement_amount, (float, int), "enhancement_amount")
        check_value(enhancement_amount, 0, 100, "enhancement_amount")
        self.enhancement_amount = enhancement_amount

    def _apply(self, waveform):
        x = self._real(waveform)
        enhancement = self.enhancement_amount / 750.0
        t = x.astype(np.float64) * np.pi / 2
        return _out(np.sin(t + enhancement * np.sin(t * 4)), x)


class Overdrive(AudioTensorOperation):
    """Overdrive (soft clipping with a DC-blocking filter) of ``(..., time)`` waveforms (sox ``overdrive``).

    Args:
        gain (float, optional): gain in dB, in [0, 100]. Default: ``20.0``.
        color (float, optional): even harmonics amount, in [0, 100]. Default: ``20.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Overdrive()(np.zeros((2, 4), np.float32)).shape
        (2, 4)
    """

    def __init__(self, gain=20.0, color=20.0):
        type_check(gain, (float, int), "gain")
        check_value(gain, 0, 100, "gain")
        type_check(color, (float, int), "color")
        check_value(color, 0, 100, "color")
        self.gain, self.color = gain, color

    def _apply(self, waveform):
        x = self._real(waveform)
        shape = x.shape
        sig = x.reshape(-1, shape[-1]).astype(np.float64)
        gain = math.exp(self.gain * math.log(10) / 20)
        temp = sig * gain + self.color / 200
        temp = np.where(temp < -1, -2.0 / 3, np.where(temp > 1, 2.0 / 3, temp - temp ** 3 / 3))
        out = np.zeros_like(sig)
        last_in = np.zeros(sig.shape[0])
        last_out = np.zeros(sig.shape[0])
        for i in range(sig.shape[1]):
            last_out = temp[:, i] - last_in + 0.995 * last_out
            last_in = temp[:, i]
            out[:, i] = sig[:, i] * 0.5 + last_out * 0.75
        return _out(np.clip(out, -1.0, 1.0).reshape(shape), x)


class MuLawEncoding(AudioTensorOperation):
    """Mu-law companding of ``(..., time)`` waveforms in [-1, 1] into int32 codes ``[0, quantization_channels)``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MuLawEncoding()(np.array([-1.0, 0.0, 1.0], np.float32))
        array([  0, 128, 255], dtype=int32)
    """

    def __init__(self, quantization_channels=256):
        check_pos_int32(quantization_channels, "quantization_channels")
        self.quantization_channels = quantization_channels

    def _apply(self, waveform):
        x = self._real(waveform).astype(np.float64)
        mu = self.quantization_channels - 1.0
        x_mu = np.sign(x) * np.log1p(mu * np.abs(x)) / np.log1p(mu)
        return np.floor((x_mu + 1) / 2 * mu + 0.5).astype(np.int32)


class MuLawDecoding(AudioTensorOperation):
    """Decode mu-law codes ``(..., time)`` back into a waveform in [-1, 1].

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.MuLawDecoding()(np.array([0, 255], np.int32))
        array([-1.,  1.], dtype=float32)
    """

    def __init__(self, quantization_channels=256):
        check_pos_int32(quantization_channels, "quantization_channels")
        self.quantization_channels = quantization_channels

    def _apply(self, codes):
        x = self._real(codes)
        mu = self.quantization_channels - 1.0
        y = x.astype(np.float64) / mu * 2 - 1.0
        return _out(np.sign(y) * (np.exp(np.abs(y) * np.log1p(mu)) - 1.0) / mu, x)
