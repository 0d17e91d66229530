"""IIR filters of ``mindspore.dataset.audio``: the sox biquads, ``Biquad``, ``LFilter``, ``Filtfilt``."""
import math

from mindspore.plugin import MSRuntimeError, MSValueError
from mindspore.dataset.audio import _dsp
from mindspore.dataset.audio._validators import (
    check_float32, check_float32_not_zero, check_int32_not_zero, check_value, type_check)
from mindspore.dataset.audio._base import AudioTensorOperation


# ----------------------------------------------------------------------------------------------------------------
# IIR filters

class _BiquadBase(AudioTensorOperation):
    def _coeffs(self):
        raise MSRuntimeError(f"{self._name()}: no coefficients")  # every subclass defines them

    def _apply(self, waveform):
        x = self._float_only(waveform)
        b, a = self._coeffs()
        return _dsp.lfilter(x, a, b, clamp=True).astype(x.dtype)


def _check_sample_rate(sample_rate):
    type_check(sample_rate, (int,), "sample_rate")
    check_int32_not_zero(sample_rate, "sample_rate")


def _check_freq(value, name):
    type_check(value, (float, int), name)
    check_float32(value, name)


def _check_q(q):
    type_check(q, (float, int), "Q")
    check_value(q, 0, 1, "Q", left_open=True)


class AllpassBiquad(_BiquadBase):
    """Two-pole all-pass filter (sox ``allpass``) on ``(..., time)`` waveforms.

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        central_freq (float): central frequency in Hz.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Raises:
        TypeError / ValueError: an argument of the wrong type or out of range.
        RuntimeError: the input is not a float array of rank >= 1.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.AllpassBiquad(44100, 200.0)(np.array([[0.1, 0.2, 0.3]], np.float32)).shape
        (1, 3)
    """

    def __init__(self, sample_rate, central_freq, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.central_freq, self.quality_factor = sample_rate, central_freq, Q

    def _coeffs(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        alpha = math.sin(w0) / 2 / self.quality_factor
        return ([1 - alpha, -2 * math.cos(w0), 1 + alpha], [1 + alpha, -2 * math.cos(w0), 1 - alpha])


class BandBiquad(_BiquadBase):
    """Two-pole band filter (sox ``band``); ``noise=True`` suits unpitched audio.

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        central_freq (float): central frequency in Hz.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.
        noise (bool, optional): noise mode. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.BandBiquad(44100, 200.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, central_freq, Q=0.707, noise=False):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(central_freq, "central_freq")
        _check_q(Q)
        type_check(noise, (bool,), "noise")
        self.sample_rate, self.central_freq, self.quality_factor, self.noise = sample_rate, central_freq, Q, noise

    def _coeffs(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        bw_hz = self.central_freq / self.quality_factor
        a0 = 1.0
        a2 = math.exp(-2 * math.pi * bw_hz / self.sample_rate)
        a1 = -4 * a2 / (1 + a2) * math.cos(w0)
        b0 = math.sqrt(1 - a1 * a1 / (4 * a2)) * (1 - a2)
        if self.noise:
            b0 = math.sqrt(((1 + a2) * (1 + a2) - a1 * a1) * (1 - a2) / (1 + a2))
        return [b0, 0.0, 0.0], [a0, a1, a2]


class BandpassBiquad(_BiquadBase):
    """Two-pole band-pass filter (sox ``bandpass``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        central_freq (float): central frequency in Hz.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.
        const_skirt_gain (bool, optional): constant skirt gain (peak gain Q) instead of 0 dB peak.
            Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.BandpassBiquad(44100, 200.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, central_freq, Q=0.707, const_skirt_gain=False):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(central_freq, "central_freq")
        _check_q(Q)
        type_check(const_skirt_gain, (bool,), "const_skirt_gain")
        self.sample_rate, self.central_freq, self.quality_factor = sample_rate, central_freq, Q
        self.const_skirt_gain = const_skirt_gain

    def _coeffs(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        alpha = math.sin(w0) / 2 / self.quality_factor
        temp = math.sin(w0) / 2 if self.const_skirt_gain else alpha
        return [temp, 0.0, -temp], [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class BandrejectBiquad(_BiquadBase):
    """Two-pole band-reject (notch) filter (sox ``bandreject``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        central_freq (float): central frequency in Hz.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.BandrejectBiquad(44100, 200.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, central_freq, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.central_freq, self.quality_factor = sample_rate, central_freq, Q

    def _coeffs(self):
        w0 = 2 * math.pi * self.central_freq / self.sample_rate
        alpha = math.sin(w0) / 2 / self.quality_factor
        return [1.0, -2 * math.cos(w0), 1.0], [1 + alpha, -2 * math.cos(w0), 1 - alpha]


def _shelf(sample_rate, gain, central_freq, quality_factor, treble):
    w0 = 2 * math.pi * central_freq / sample_rate
    alpha = math.sin(w0) / 2 / quality_factor
    amp = math.exp(gain / 40 * math.log(10))
    sign = -1.0 if treble else 1.0
    temp1 = 2 * math.sqrt(amp) * alpha
    temp2 = (amp - 1) * math.cos(w0)
    temp3 = (amp + 1) * math.cos(w0)
    b0 = amp * ((amp + 1) - sign * temp2 + temp1)
    b1 = 2 * sign * amp * ((amp - 1) - sign * temp3)
    b2 = amp * ((amp + 1) - sign * temp2 - temp1)
    a0 = (amp + 1) + sign * temp2 + temp1
    a1 = -2 * sign * ((amp - 1) + sign * temp3)
    a2 = (amp + 1) + sign * temp2 - temp1
    return [b0, b1, b2], [a0, a1, a2]


class BassBiquad(_BiquadBase):
    """Low-shelf (bass) tone control (sox ``bass``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        gain (float): gain at 0 Hz in dB.
        central_freq (float, optional): central frequency in Hz. Default: ``100.0``.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.BassBiquad(44100, 100.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(gain, "gain")
        _check_freq(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.gain, self.central_freq, self.quality_factor = sample_rate, gain, central_freq, Q

    def _coeffs(self):
        return _shelf(self.sample_rate, self.gain, self.central_freq, self.quality_factor, treble=False)


class TrebleBiquad(_BiquadBase):
    """High-shelf (treble) tone control (sox ``treble``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        gain (float): gain at the Nyquist frequency in dB.
        central_freq (float, optional): central frequency in Hz. Default: ``3000``.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.TrebleBiquad(44100, 200.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, gain, central_freq=3000, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(gain, "gain")
        _check_freq(central_freq, "central_freq")
        _check_q(Q)
        self.sample_rate, self.gain, self.central_freq, self.quality_factor = sample_rate, gain, central_freq, Q

    def _coeffs(self):
        return _shelf(self.sample_rate, self.gain, self.central_freq, self.quality_factor, treble=True)


class EqualizerBiquad(_BiquadBase):
    """Peaking equaliser (sox ``equalizer``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        center_freq (float): central frequency in Hz.
        gain (float): gain in dB.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.EqualizerBiquad(44100, 1500.0, 5.5, 0.7)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, center_freq, gain, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(center_freq, "central_freq")
        _check_freq(gain, "gain")
        _check_q(Q)
        self.sample_rate, self.center_freq, self.gain, self.quality_factor = sample_rate, center_freq, gain, Q

    def _coeffs(self):
        w0 = 2 * math.pi * self.center_freq / self.sample_rate
        amp = math.exp(self.gain / 40.0 * math.log(10))
        alpha = math.sin(w0) / 2 / self.quality_factor
        return ([1 + alpha * amp, -2 * math.cos(w0), 1 - alpha * amp],
                [1 + alpha / amp, -2 * math.cos(w0), 1 - alpha / amp])


class LowpassBiquad(_BiquadBase):
    """Two-pole low-pass filter (sox ``lowpass``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        cutoff_freq (float): cut-off frequency in Hz.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.LowpassBiquad(4000, 1500.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(cutoff_freq, "cutoff_freq")
        _check_q(Q)
        self.sample_rate, self.cutoff_freq, self.quality_factor = sample_rate, cutoff_freq, Q

    def _coeffs(self):
        w0 = 2 * math.pi * self.cutoff_freq / self.sample_rate
        alpha = math.sin(w0) / 2 / self.quality_factor
        b1 = 1 - math.cos(w0)
        return [b1 / 2, b1, b1 / 2], [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class HighpassBiquad(_BiquadBase):
    """Two-pole high-pass filter (sox ``highpass``).

    Args:
        sample_rate (int): sampling rate in Hz, not 0.
        cutoff_freq (float): cut-off frequency in Hz.
        Q (float, optional): quality factor in (0, 1]. Default: ``0.707``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.HighpassBiquad(44100, 1500.0)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate, cutoff_freq, Q=0.707):  # pylint: disable=invalid-name
        _check_sample_rate(sample_rate)
        _check_freq(cutoff_freq, "cutoff_freq")
        _check_q(Q)
        self.sample_rate, self.cutoff_freq, self.quality_factor = sample_rate, cutoff_freq, Q

    def _coeffs(self):
        w0 = 2 * math.pi * self.cutoff_freq / self.sample_rate
        alpha = math.sin(w0) / 2 / self.quality_factor
        b0 = (1 + math.cos(w0)) / 2
        return [b0, -1 - math.cos(w0), b0], [1 + alpha, -2 * math.cos(w0), 1 - alpha]


class Biquad(_BiquadBase):
    """A biquad with the given coefficients (``a0`` is not 0; all are normalised by it).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Biquad(0.01, 0.02, 0.13, 1, 0.12, 0.3)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, b0, b1, b2, a0, a1, a2):
        for name, value in (("b0", b0), ("b1", b1), ("b2", b2)):
            _check_freq(value, name)
        type_check(a0, (float, int), "a0")
        check_float32_not_zero(a0, "a0")
        _check_freq(a1, "a1")
        _check_freq(a2, "a2")
        self.b0, self.b1, self.b2, self.a0, self.a1, self.a2 = b0, b1, b2, a0, a1, a2

    def _coeffs(self):
        return [self.b0, self.b1, self.b2], [self.a0, self.a1, self.a2]


class DeemphBiquad(_BiquadBase):
    """ISO 908 CD de-emphasis shelving filter (sox ``deemph``); ``sample_rate`` is 44100 or 48000.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.DeemphBiquad(44100)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate):
        type_check(sample_rate, (int,), "sample_rate")
        if sample_rate not in (44100, 48000):
            raise MSValueError(f"Argument sample_rate should be 44100 or 48000, but got {sample_rate}.")
        self.sample_rate = sample_rate

    def _coeffs(self):
        if self.sample_rate == 44100:
            central_freq, width_slope, gain = 5283.0, 0.4845, -9.477
        else:
            central_freq, width_slope, gain = 5356.0, 0.479, -9.62
        w0 = 2 * math.pi * central_freq / self.sample_rate
        amp = math.exp(gain / 40.0 * math.log(10))
        alpha = math.sin(w0) / 2 * math.sqrt((amp + 1 / amp) * (1 / width_slope - 1) + 2)
        temp1 = 2 * math.sqrt(amp) * alpha
        temp2 = (amp - 1) * math.cos(w0)
        temp3 = (amp + 1) * math.cos(w0)
        return ([amp * ((amp + 1) + temp2 + temp1), -2 * amp * ((amp - 1) + temp3), amp * ((amp + 1) + temp2 - temp1)],
                [(amp + 1) - temp2 + temp1, 2 * ((amp - 1) - temp3), (amp + 1) - temp2 - temp1])


_RIAA = {
    44100: ([-0.2014898, 0.9233820], [0.7083149, 0.9924091]),
    48000: ([-0.1766069, 0.9321590], [0.7396325, 0.9931330]),
    88200: ([-0.1168735, 0.9648312], [0.8590646, 0.9964002]),
    96000: ([-0.1141486, 0.9676817], [0.8699137, 0.9966946]),
}


class RiaaBiquad(_BiquadBase):
    """RIAA vinyl playback equalisation (sox ``riaa``); ``sample_rate`` is 44100, 48000, 88200 or 96000.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.RiaaBiquad(44100)(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, sample_rate):
        type_check(sample_rate, (int,), "sample_rate")
        if sample_rate not in _RIAA:
            raise MSValueError(f"sample_rate should be one of [44100, 48000, 88200, 96000], but got {sample_rate}.")
        self.sample_rate = sample_rate

    def _coeffs(self):
        zeros, poles = _RIAA[self.sample_rate]
        b0, b1, b2 = 1.0, -(zeros[0] + zeros[1]), zeros[0] * zeros[1]
        a0, a1, a2 = 1.0, -(poles[0] + poles[1]), poles[0] * poles[1]
        # normalise to 0 dB at 1 kHz
        y = 2 * math.pi * 1000 / self.sample_rate
        b_re = b0 + b1 * math.cos(-y) + b2 * math.cos(-2 * y)
        a_re = a0 + a1 * math.cos(-y) + a2 * math.cos(-2 * y)
        b_im = b1 * math.sin(-y) + b2 * math.sin(-2 * y)
        a_im = a1 * math.sin(-y) + a2 * math.sin(-2 * y)
        g = 1 / math.sqrt((b_re ** 2 + b_im ** 2) / (a_re ** 2 + a_im ** 2))
        return [b0 * g, b1 * g, b2 * g], [a0, a1, a2]


def _check_coeff_lists(a_coeffs, b_coeffs, clamp):
    type_check(a_coeffs, (list, tuple), "a_coeffs")
    type_check(b_coeffs, (list, tuple), "b_coeffs")
    for name, coeffs in (("a_coeffs", a_coeffs), ("b_coeffs", b_coeffs)):
        for i, value in enumerate(coeffs):
            type_check(value, (float, int), f"{name}[{i}]")
            check_float32(value, f"{name}[{i}]")
    if len(a_coeffs) != len(b_coeffs):
        raise MSValueError("The size of a_coeffs should be the same as that of b_coeffs.")
    type_check(clamp, (bool,), "clamp")


class LFilter(AudioTensorOperation):
    """IIR filter ``a[0] y[n] = sum_k b[k] x[n-k] - sum_{k>0} a[k] y[n-k]`` on ``(..., time)``.

    Args:
        a_coeffs (Sequence[float]): denominator coefficients (same length as ``b_coeffs``).
        b_coeffs (Sequence[float]): numerator coefficients.
        clamp (bool, optional): clip the output to [-1, 1]. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.LFilter([0.1, 0.2, 0.3], [0.3, 0.2, 0.1])(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        _check_coeff_lists(a_coeffs, b_coeffs, clamp)
        self.a_coeffs, self.b_coeffs, self.clamp = list(a_coeffs), list(b_coeffs), clamp

    def _apply(self, waveform):
        x = self._float_only(waveform)
        return _dsp.lfilter(x, self.a_coeffs, self.b_coeffs, self.clamp).astype(x.dtype)


class Filtfilt(AudioTensorOperation):
    """Forward-backward IIR filtering (zero phase) with the coefficients of :class:`LFilter`.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Filtfilt([0.1, 0.2, 0.3], [0.3, 0.2, 0.1])(np.zeros((2, 8), np.float32)).shape
        (2, 8)
    """

    def __init__(self, a_coeffs, b_coeffs, clamp=True):
        _check_coeff_lists(a_coeffs, b_coeffs, clamp)
        self.a_coeffs, self.b_coeffs, self.clamp = list(a_coeffs), list(b_coeffs), clamp

    def _apply(self, waveform):
        x = self._float_only(waveform)
        forward = _dsp.lfilter(x, self.a_coeffs, self.b_coeffs, False).astype(x.dtype)
        backward = _dsp.lfilter(forward[..., ::-1], self.a_coeffs, self.b_coeffs, self.clamp)
        return backward[..., ::-1].astype(x.dtype)
