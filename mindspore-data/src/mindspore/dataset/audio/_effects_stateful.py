"""Effects of ``mindspore.dataset.audio`` that run frame by frame or sample by sample: sliding CMN, pitch
detection, flanger, phaser, pitch shift, dither, voice activity detection."""
import math

import numpy as np

from mindspore.plugin import MSValueError
from mindspore.dataset.engine import cxx_random
from mindspore.dataset.transforms._base import op_engine
from mindspore.dataset.audio import _dsp
from mindspore.dataset.audio._validators import (
    check_float32, check_int32, check_int32_not_zero, check_non_negative_float32, check_non_negative_int32,
    check_pos_float32, check_pos_int32, check_value, check_win_length, type_check)
from mindspore.dataset.audio.utils import DensityFunction, Interpolation, Modulation, WindowType
from mindspore.dataset.audio._base import AudioTensorOperation, _out


class SlidingWindowCmn(AudioTensorOperation):
    """Sliding-window cepstral mean (and variance) normalisation of ``(..., time, feature)`` features
    (Kaldi's ``apply-cmvn-sliding``).

    Args:
        cmn_window (int, optional): window in frames. Default: ``600``.
        min_cmn_window (int, optional): minimum window at the start (when not ``center``). Default: ``100``.
        center (bool, optional): centre the window on the frame. Default: ``False``.
        norm_vars (bool, optional): normalise the variance too. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.SlidingWindowCmn()(np.ones((4, 3), np.float32))
        array([[0., 0., 0.],
               [0., 0., 0.],
               [0., 0., 0.],
               [0., 0., 0.]], dtype=float32)
    """

    _min_rank = 2

    def __init__(self, cmn_window=600, min_cmn_window=100, center=False, norm_vars=False):
        type_check(cmn_window, (int,), "cmn_window")
        check_non_negative_int32(cmn_window, "cmn_window")
        type_check(min_cmn_window, (int,), "min_cmn_window")
        check_non_negative_int32(min_cmn_window, "min_cmn_window")
        type_check(center, (bool,), "center")
        type_check(norm_vars, (bool,), "norm_vars")
        self.cmn_window, self.min_cmn_window = cmn_window, min_cmn_window
        self.center, self.norm_vars = center, norm_vars

    def _window(self, t, num_frames):
        if self.center:
            start = t - self.cmn_window // 2
            end = start + self.cmn_window
        else:
            start = t - self.cmn_window
            end = t + 1
        if start < 0:
            end -= start
            start = 0
        if not self.center and end > t:
            end = max(t + 1, self.min_cmn_window)
        if end > num_frames:
            start -= end - num_frames
            end = num_frames
            start = max(start, 0)
        return start, end

    def _apply(self, spec):
        x = self._real(spec)
        shape = x.shape
        feats = x.reshape((-1,) + shape[-2:]).astype(np.float64)
        num_frames = shape[-2]
        out = np.zeros_like(feats)
        cum = np.concatenate([np.zeros_like(feats[:, :1]), np.cumsum(feats, axis=1)], axis=1)
        cum_sq = np.concatenate([np.zeros_like(feats[:, :1]), np.cumsum(feats ** 2, axis=1)], axis=1)
        for t in range(num_frames):
            start, end = self._window(t, num_frames)
            frames = end - start
            total = cum[:, end] - cum[:, start]
            out[:, t] = feats[:, t] - total / frames
            if self.norm_vars:
                if frames == 1:
                    out[:, t] = 0.0
                else:
                    variance = (cum_sq[:, end] - cum_sq[:, start]) / frames - total ** 2 / frames ** 2
                    out[:, t] *= np.power(variance, -0.5)
        return _out(out.reshape(shape), x)


class DetectPitchFrequency(AudioTensorOperation):
    """Pitch of ``(..., time)`` waveforms per frame, by normalised cross-correlation and median smoothing.

    Args:
        sample_rate (int): sampling rate (not 0).
        frame_time (float, optional): frame duration in seconds. Default: ``0.01``.
        win_length (int, optional): median smoothing window in frames. Default: ``30``.
        freq_low (float, optional): lowest detectable frequency. Default: ``85``.
        freq_high (float, optional): highest detectable frequency. Default: ``3400``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> t = np.arange(8000) / 8000.0
        >>> pitch = audio.DetectPitchFrequency(8000)(np.sin(2 * np.pi * 200 * t).astype(np.float32))
        >>> round(float(np.median(pitch)))
        200
    """

    def __init__(self, sample_rate, frame_time=0.01, win_length=30, freq_low=85, freq_high=3400):
        type_check(sample_rate, (int,), "sample_rate")
        check_int32_not_zero(sample_rate, "sample_rate")
        type_check(frame_time, (float, int), "frame_time")
        check_pos_float32(frame_time, "frame_time")
        type_check(win_length, (int,), "win_length")
        check_pos_int32(win_length, "win_length")
        type_check(freq_low, (int, float), "freq_low")
        check_pos_float32(freq_low, "freq_low")
        type_check(freq_high, (int, float), "freq_high")
        check_pos_float32(freq_high, "freq_high")
        self.sample_rate, self.frame_time, self.win_length = sample_rate, frame_time, win_length
        self.freq_low, self.freq_high = freq_low, freq_high

    def _nccf(self, sig):
        eps = 1e-9
        lags = int(math.ceil(self.sample_rate / self.freq_low))
        frame_size = int(math.ceil(self.sample_rate * self.frame_time))
        length = sig.shape[-1]
        n_frames = int(math.ceil(length / frame_size))
        sig = np.pad(sig, ((0, 0), (0, lags + n_frames * frame_size - length)))
        out = np.zeros((sig.shape[0], n_frames, lags))
        for lag in range(1, lags + 1):
            s1 = sig[:, :n_frames * frame_size].reshape(sig.shape[0], n_frames, frame_size)
            s2 = sig[:, lag:lag + n_frames * frame_size].reshape(sig.shape[0], n_frames, frame_size)
            out[:, :, lag - 1] = (np.sum(s1 * s2, axis=-1) / (eps + np.linalg.norm(s1, axis=-1)) ** 2
                                  / (eps + np.linalg.norm(s2, axis=-1)) ** 2)
        return out

    def _apply(self, waveform):
        x = self._real(waveform)
        shape = x.shape
        sig = x.reshape(-1, shape[-1]).astype(np.float32)
        nccf = self._nccf(sig.astype(np.float64)).astype(np.float32)
        lag_min = int(math.ceil(self.sample_rate / self.freq_high))
        best_val = nccf[..., lag_min:].max(axis=-1)
        best_idx = nccf[..., lag_min:].argmax(axis=-1)
        half = nccf.shape[-1] // 2
        if half > lag_min:
            half_val = nccf[..., lag_min:half].max(axis=-1)
            half_idx = nccf[..., lag_min:half].argmax(axis=-1)
            mask = half_val > 0.99 * best_val
            best_idx = np.where(mask, half_idx, best_idx)
        indices = best_idx + lag_min + 1
        pad = (self.win_length - 1) // 2
        indices = np.concatenate([np.repeat(indices[:, :1], pad, axis=1), indices], axis=1)
        n_out = indices.shape[-1] - self.win_length + 1
        if n_out < 1:
            raise self._error(f"the number of frames {indices.shape[-1] - pad} is too small for win_length "
                              f"{self.win_length}.")
        windows = indices[:, np.arange(self.win_length)[None, :] + np.arange(n_out)[:, None]]
        median = np.sort(windows, axis=-1)[..., (self.win_length - 1) // 2]
        freq = self.sample_rate / (1e-9 + median.astype(np.float32))
        return _out(freq.reshape(shape[:-1] + (n_out,)), x)


def _wave_table(sine, table_size, low, high, phase, as_int):
    offset = int(phase / math.pi / 2 * table_size + 0.5)
    point = (np.arange(table_size) + offset) % table_size
    if sine:
        d = (np.sin(point / table_size * 2 * math.pi) + 1) / 2
    else:
        d = point * 2.0 / table_size
        quarter = (4 * point) // table_size
        d = np.select([quarter == 0, quarter == 1, quarter == 2, quarter == 3],
                      [d + 0.5, 1.5 - d, 1.5 - d, d - 1.5], d)
    d = d * (high - low) + low
    if as_int:
        return np.where(d < 0, d - 0.5, d + 0.5).astype(np.int32)
    return d.astype(np.float32)


class Flanger(AudioTensorOperation):
    """Flanger effect on ``(..., channel, time)`` waveforms (sox ``flanger``).

    Args:
        sample_rate (int): sampling rate (not 0).
        delay (float, optional): base delay in ms, [0, 30]. Default: ``0.0``.
        depth (float, optional): swept delay depth in ms, [0, 10]. Default: ``2.0``.
        regen (float, optional): feedback gain in percent, [-95, 95]. Default: ``0.0``.
        width (float, optional): delayed signal gain in percent, [0, 100]. Default: ``71.0``.
        speed (float, optional): sweeps per second, [0.1, 10]. Default: ``0.5``.
        phase (float, optional): phase shift between channels in percent, [0, 100]. Default: ``25.0``.
        modulation (Modulation, optional): Default: ``Modulation.SINUSOIDAL``.
        interpolation (Interpolation, optional): Default: ``Interpolation.LINEAR``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Flanger(44100)(np.zeros((2, 16), np.float32)).shape
        (2, 16)
    """

    def __init__(self, sample_rate, delay=0.0, depth=2.0, regen=0.0, width=71.0, speed=0.5, phase=25.0,
                 modulation=Modulation.SINUSOIDAL, interpolation=Interpolation.LINEAR):
        type_check(sample_rate, (int,), "sample_rate")
        check_int32_not_zero(sample_rate, "sample_rate")
        for name, value, low, high in (("delay", delay, 0, 30), ("depth", depth, 0, 10), ("regen", regen, -95, 95),
                                       ("width", width, 0, 100), ("speed", speed, 0.1, 10),
                                       ("phase", phase, 0, 100)):
            type_check(value, (float, int), name)
            check_value(value, low, high, name)
        type_check(modulation, (Modulation,), "modulation")
        type_check(interpolation, (Interpolation,), "interpolation")
        self.sample_rate, self.delay, self.depth, self.regen, self.width = sample_rate, delay, depth, regen, width
        self.speed, self.phase, self.modulation, self.interpolation = speed, phase, modulation, interpolation

    def _apply(self, waveform):
        x = self._real(waveform, 2)
        shape = x.shape
        sig = x.reshape((-1,) + shape[-2:]).astype(np.float64)
        n_channels = shape[-2]
        feedback_gain = self.regen / 100
        delay_gain = self.width / 100
        channel_phase = self.phase / 100
        delay_min = self.delay / 1000
        delay_depth = self.depth / 1000
        in_gain = 1.0 / (1 + delay_gain)
        delay_gain = delay_gain / (1 + delay_gain) * (1 - abs(feedback_gain))
        buf_len = int((delay_min + delay_depth) * self.sample_rate + 0.5) + 2
        bufs = np.zeros(sig.shape[:2] + (buf_len,))
        last = np.zeros(sig.shape[:2])
        lfo_len = int(self.sample_rate / self.speed)
        lfo = _wave_table(self.modulation == Modulation.SINUSOIDAL, lfo_len, float(math.floor(delay_min *
                          self.sample_rate + 0.5)), buf_len - 2.0, 3 * math.pi / 2, False).astype(np.float64)
        out = np.zeros_like(sig)
        channels = np.arange(n_channels)
        chan_phase = (channels * lfo_len * channel_phase + 0.5).astype(np.int64)
        pos, lfo_pos = 0, 0
        quadratic = self.interpolation == Interpolation.QUADRATIC
        for i in range(sig.shape[-1]):
            pos = (pos + buf_len - 1) % buf_len
            delay = lfo[(lfo_pos + chan_phase) % lfo_len]
            frac = delay - np.floor(delay)
            int_delay = np.floor(delay).astype(np.int64)
            bufs[:, :, pos] = sig[:, :, i] + last * feedback_gain
            d0 = bufs[:, channels, (pos + int_delay) % buf_len]
            d1 = bufs[:, channels, (pos + int_delay + 1) % buf_len]
            if quadratic:
                d2 = bufs[:, channels, (pos + int_delay + 2) % buf_len] - d0
                d1 = d1 - d0
                a = d2 * 0.5 - d1
                b = d1 * 2 - d2 * 0.5
                delayed = d0 + (a * frac + b) * frac
            else:
                delayed = d0 + (d1 - d0) * frac
            last = delayed
            out[:, :, i] = sig[:, :, i] * in_gain + delayed * delay_gain
            lfo_pos = (lfo_pos + 1) % lfo_len
        return _out(np.clip(out, -1.0, 1.0).reshape(shape), x)


class Phaser(AudioTensorOperation):
    """Phaser effect on ``(..., time)`` waveforms (sox ``phaser``).

    Args:
        sample_rate (int): sampling rate.
        gain_in (float, optional): input gain, [0, 1]. Default: ``0.4``.
        gain_out (float, optional): output gain, [0, 1e9]. Default: ``0.74``.
        delay_ms (float, optional): delay in ms, [0, 5]. Default: ``3.0``.
        decay (float, optional): decay, [0, 0.99]. Default: ``0.4``.
        mod_speed (float, optional): modulation speed in Hz, [0.1, 2]. Default: ``0.5``.
        sinusoidal (bool, optional): sinusoidal (else triangular) modulation. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Phaser(44100)(np.zeros((2, 16), np.float32)).shape
        (2, 16)
    """

    def __init__(self, sample_rate, gain_in=0.4, gain_out=0.74, delay_ms=3.0, decay=0.4, mod_speed=0.5,
                 sinusoidal=True):
        type_check(sample_rate, (int,), "sample_rate")
        check_int32(sample_rate, "sample_rate")
        for name, value, low, high in (("gain_in", gain_in, 0, 1), ("gain_out", gain_out, 0, 1e9),
                                       ("delay_ms", delay_ms, 0, 5.0), ("decay", decay, 0, 0.99),
                                       ("mod_speed", mod_speed, 0.1, 2)):
            type_check(value, (float, int), name)
            check_value(value, low, high, name)
        type_check(sinusoidal, (bool,), "sinusoidal")
        self.sample_rate, self.gain_in, self.gain_out, self.delay_ms = sample_rate, gain_in, gain_out, delay_ms
        self.decay, self.mod_speed, self.sinusoidal = decay, mod_speed, sinusoidal

    def _apply(self, waveform):
        x = self._real(waveform)
        shape = x.shape
        sig = x.reshape(-1, shape[-1]).astype(np.float64) * self.gain_in
        buf_len = int(self.delay_ms * 0.001 * self.sample_rate + 0.5)
        if buf_len < 1:
            raise self._error("delay_ms * sample_rate is too small: the delay buffer would be empty.")
        mod_len = int(self.sample_rate / self.mod_speed + 0.5)
        mod = _wave_table(self.sinusoidal, mod_len, 1.0, float(buf_len), math.pi / 2, True)
        buf = np.zeros((sig.shape[0], buf_len))
        out = np.zeros_like(sig)
        delay_pos, mod_pos = 0, 0
        for i in range(sig.shape[1]):
            idx = int((delay_pos + mod[mod_pos]) % buf_len)
            mod_pos = (mod_pos + 1) % mod_len
            delay_pos = (delay_pos + 1) % buf_len
            temp = sig[:, i] + buf[:, idx]
            buf[:, delay_pos] = temp * self.decay
            out[:, i] = temp
        return _out(np.clip(out * self.gain_out, -1.0, 1.0).reshape(shape), x)


class PitchShift(AudioTensorOperation):
    """Shift the pitch of ``(..., time)`` waveforms by ``n_steps`` steps of ``1 / bins_per_octave`` octave
    (phase-vocoder time stretch, then resampling).

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.PitchShift(16000, 4)(np.random.randn(2, 1000).astype(np.float32)).shape
        (2, 1000)
    """

    def __init__(self, sample_rate, n_steps, bins_per_octave=12, n_fft=512, win_length=None, hop_length=None,
                 window=WindowType.HANN):
        check_non_negative_int32(sample_rate, "sample_rate")
        check_int32(n_steps, "n_steps")
        check_int32_not_zero(bins_per_octave, "bins_per_octave")
        check_pos_int32(n_fft, "n_fft")
        type_check(window, (WindowType,), "window")
        if win_length is not None:
            check_pos_int32(win_length, "win_length")
            check_win_length(win_length, n_fft)
        if hop_length is not None:
            check_pos_int32(hop_length, "hop_length")
        self.sample_rate, self.n_steps, self.bins_per_octave, self.n_fft = sample_rate, n_steps, bins_per_octave, n_fft
        self.win_length = win_length if win_length is not None else n_fft
        self.hop_length = hop_length if hop_length is not None else self.win_length // 4
        self.window = window

    def _apply(self, waveform):
        x = self._real(waveform)
        length = x.shape[-1]
        # MindSpore computes the rate, the stretched length and the resampling rate in float32
        rate = float(np.float32(2.0) ** np.float32(np.float32(-self.n_steps) / np.float32(self.bins_per_octave)))
        dtype = _out(0, x).dtype
        if dtype == np.float32:
            spec = _dsp.stft_like_mindspore(x, self.n_fft, self.hop_length, self.win_length, self.window)
        else:
            spec = _dsp.stft(x, self.n_fft, self.hop_length, self.win_length, self.window)
        n_freq = spec.shape[-2]
        step = np.float32(math.pi * self.hop_length) / np.float32(max(n_freq - 1, 1)) if dtype == np.float32 \
            else math.pi * self.hop_length / max(n_freq - 1, 1)
        advance = (np.arange(n_freq, dtype=dtype) * dtype.type(step))[:, None]
        stretched = _dsp.phase_vocoder(spec, rate, advance, dtype)
        wave = _dsp.istft(stretched, self.n_fft, self.hop_length, self.win_length, self.window,
                          length=int(round(float(np.float32(length) / np.float32(rate)))))
        new_rate = int(np.float32(self.sample_rate) / np.float32(rate))
        shifted = _dsp.resample(wave, new_rate, self.sample_rate, 6, 0.99, False, 0.0)
        if shifted.shape[-1] > length:
            shifted = shifted[..., :length]
        else:
            shifted = _dsp.pad_last(shifted, 0, length - shifted.shape[-1], "constant")
        return _out(shifted, x)


class Dither(AudioTensorOperation):
    """Dither ``(..., time)`` waveforms to 16-bit: scale by ``2**15 - 2``, add the dither, round (halves
    away from zero), divide by ``2**15``; as MindSpore 2.10 computes it.

    ``TPDF`` adds a triangular (Bartlett) ramp over time; ``RPDF`` adds one sample of the signal and ``GPDF``
    a running sum of seven samples (each partial sum also written back over the sample it adds, which the
    noise shaping then sees), picked at random positions. The positions come from the dataset transform
    generator (MindSpore's own generator cannot be reproduced). ``noise_shaping`` adds each sample's
    quantisation error to the next sample.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Dither()(np.zeros((1, 4), np.float32)).shape
        (1, 4)
    """

    def __init__(self, density_function=DensityFunction.TPDF, noise_shaping=False):
        type_check(density_function, (DensityFunction,), "density_function")
        type_check(noise_shaping, (bool,), "noise_shaping")
        self.density_function, self.noise_shaping = density_function, noise_shaping
        self.random = density_function != DensityFunction.TPDF

    def _apply(self, waveform):
        x = self._real(waveform)
        shape = x.shape
        sig = x.reshape(-1, shape[-1]).copy()
        n_chan, n_time = sig.shape
        scaled = sig * x.dtype.type(2 ** 15 - 2)
        if self.density_function == DensityFunction.TPDF:
            # the Bartlett ramp as MindSpore computes it (float32 ratio, double difference)
            ratio = (np.float32(2) * np.arange(n_time, dtype=np.float32) / np.float32(n_time)).astype(np.float64)
            noise = (1.0 - np.abs(ratio - 1.0)).astype(np.float32).astype(x.dtype)[None, :]
        else:
            # 2.10's ApplyProbabilityDistribution: uniform_int_distribution for the channel (when there are
            # several), then for the time, on the operation's engine
            engine = op_engine(self)

            def position():
                return (cxx_random.std_uniform_int(engine, 0, n_chan - 1) if n_chan > 1 else 0,
                        cxx_random.std_uniform_int(engine, 0, n_time - 1) if n_time > 1 else 0)

            noise = sig[position()]
            if self.density_function == DensityFunction.GPDF:
                for _ in range(6):
                    pos = position()
                    noise = noise + sig[pos]
                    sig[pos] = noise
        total = scaled + noise
        dithered = (np.sign(total) * np.floor(np.abs(total) + x.dtype.type(0.5))) / x.dtype.type(2 ** 15)
        if self.noise_shaping:
            error = dithered - sig
            dithered = dithered + np.concatenate([np.zeros((n_chan, 1), x.dtype), error[:, :-1]], axis=1)
        return _out(dithered.reshape(shape), x)


class Vad(AudioTensorOperation):
    """Voice activity detector (sox ``vad``): trim the silence before the first voice activity of
    ``(..., time)`` waveforms (to trim the end too, reverse the waveform and apply it again).

    Args:
        sample_rate (int): sampling rate (> 0).
        trigger_level (float, optional): measurement level that triggers detection. Default: ``7.0``.
        trigger_time (float, optional): time constant (s) against short bursts. Default: ``0.25``.
        search_time (float, optional): time (s) searched back for quieter activity. Default: ``1.0``.
        allowed_gap (float, optional): allowed gap (s) between quieter bursts. Default: ``0.25``.
        pre_trigger_time (float, optional): audio (s) kept before the trigger point. Default: ``0.0``.
        boot_time (float, optional): noise estimation time (s) at the start. Default: ``0.35``.
        noise_up_time, noise_down_time (float, optional): noise adaptation time constants (s).
            Default: ``0.1``, ``0.01``.
        noise_reduction_amount (float, optional): noise reduction. Default: ``1.35``.
        measure_freq (float, optional): measurements per second. Default: ``20.0``.
        measure_duration (float, optional): measurement duration (s). Default: ``None`` (2 / measure_freq).
        measure_smooth_time (float, optional): smoothing time constant (s). Default: ``0.4``.
        hp_filter_freq, lp_filter_freq (float, optional): band of the detector in Hz. Default: ``50.0``,
            ``6000.0``.
        hp_lifter_freq, lp_lifter_freq (float, optional): band of the detector's lifter in Hz. Default:
            ``150.0``, ``2000.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore.dataset.audio as audio
        >>> audio.Vad(8000)(np.zeros((1, 12000), np.float32)).shape  # no activity: the last 1.1 s are kept
        (1, 8800)
    """

    def __init__(self, sample_rate, trigger_level=7.0, trigger_time=0.25, search_time=1.0, allowed_gap=0.25,
                 pre_trigger_time=0.0, boot_time=0.35, noise_up_time=0.1, noise_down_time=0.01,
                 noise_reduction_amount=1.35, measure_freq=20.0, measure_duration=None, measure_smooth_time=0.4,
                 hp_filter_freq=50.0, lp_filter_freq=6000.0, hp_lifter_freq=150.0, lp_lifter_freq=2000.0):
        type_check(sample_rate, (int,), "sample_rate")
        check_pos_int32(sample_rate, "sample_rate")
        type_check(trigger_level, (int, float), "trigger_level")
        check_float32(trigger_level, "trigger_level")
        for name, value in (("trigger_time", trigger_time), ("search_time", search_time),
                            ("allowed_gap", allowed_gap), ("pre_trigger_time", pre_trigger_time),
                            ("boot_time", boot_time), ("noise_up_time", noise_up_time),
                            ("noise_down_time", noise_down_time)):
            type_check(value, (int, float), name)
            check_non_negative_float32(value, name)
        if noise_up_time < noise_down_time:
            raise MSValueError(f"Input noise_up_time should be greater than noise_down_time, but got noise_up_time: "
                               f"{noise_up_time} and noise_down_time: {noise_down_time}.")
        type_check(noise_reduction_amount, (int, float), "noise_reduction_amount")
        check_non_negative_float32(noise_reduction_amount, "noise_reduction_amount")
        type_check(measure_freq, (int, float), "measure_freq")
        check_pos_float32(measure_freq, "measure_freq")
        if measure_duration:
            type_check(measure_duration, (int, float), "measure_duration")
            check_non_negative_float32(measure_duration, "measure_duration")
        type_check(measure_smooth_time, (int, float), "measure_smooth_time")
        check_non_negative_float32(measure_smooth_time, "measure_smooth_time")
        for name, value in (("hp_filter_freq", hp_filter_freq), ("lp_filter_freq", lp_filter_freq),
                            ("hp_lifter_freq", hp_lifter_freq), ("lp_lifter_freq", lp_lifter_freq)):
            type_check(value, (int, float), name)
            check_pos_float32(value, name)
        self.sample_rate, self.trigger_level, self.trigger_time = sample_rate, trigger_level, trigger_time
        self.search_time, self.allowed_gap, self.pre_trigger_time = search_time, allowed_gap, pre_trigger_time
        self.boot_time, self.noise_up_time, self.noise_down_time = boot_time, noise_up_time, noise_down_time
        self.noise_reduction_amount, self.measure_freq = noise_reduction_amount, measure_freq
        self.measure_duration = measure_duration if measure_duration else 2.0 / measure_freq
        self.measure_smooth_time, self.hp_filter_freq, self.lp_filter_freq = (
            measure_smooth_time, hp_filter_freq, lp_filter_freq)
        self.hp_lifter_freq, self.lp_lifter_freq = hp_lifter_freq, lp_lifter_freq

    def _measure_levels(self, n_channels):
        """The detector level of each channel at one measurement.

        MindSpore 2.10 builds the cepstrum of its noise-reduced spectrum from the first
        ``spectrum_end - spectrum_start`` entries of a buffer whose computed values are appended after
        them, so the cepstrum it measures is all zeros and every level is ``max(0, 21 + INT_MIN) = 0``.
        We reproduce that (the detector then only triggers for ``trigger_level <= 0``, and otherwise keeps
        the last ``pre_trigger + search + measure`` samples), so that results match MindSpore's.
        """
        return np.zeros(n_channels)

    def _apply(self, waveform):
        x = self._real(waveform)
        shape = x.shape
        sig = x.reshape(-1, shape[-1])
        n_channels, length = sig.shape
        sr = self.sample_rate
        measure_len = int(sr * self.measure_duration + 0.5)
        dft_len = 16
        while dft_len < measure_len:
            dft_len *= 2
        spectrum_start = max(int(self.hp_filter_freq / sr * dft_len + 0.5), 1)
        spectrum_end = min(int(self.lp_filter_freq / sr * dft_len + 0.5), dft_len // 2)
        if spectrum_end <= spectrum_start:
            raise self._error("the end of spectrum must be greater than the start. Check if `hp_filter_freq` is "
                              "too large or `lp_filter_freq` is too small.")
        cepstrum_start = math.ceil(sr * 0.5 / self.lp_lifter_freq)
        cepstrum_end = min(math.floor(sr * 0.5 / self.hp_lifter_freq), dft_len // 4)
        if cepstrum_end <= cepstrum_start:
            raise self._error("the end of cepstrum must be greater than the start. Check if `hp_lifter_freq` is "
                              "too large or `lp_lifter_freq` is too small.")
        period = int(sr / self.measure_freq + 0.5)
        measures_len = math.ceil(self.search_time * self.measure_freq)
        gap_len = int(self.allowed_gap * self.measure_freq + 0.5)
        samples_len = int(self.pre_trigger_time * sr + 0.5) + measures_len * period + measure_len
        trigger_mult = math.exp(-1.0 / (self.trigger_time * self.measure_freq)) if self.trigger_time else 0.0
        measures = np.zeros((n_channels, measures_len))
        mean_meas = np.zeros(n_channels)
        index, to_flush, flushed, triggered = 0, 0, 0, False
        # one measurement every ``period`` samples, the first once ``measure_len`` samples are in
        pos = measure_len
        while pos <= length and not triggered:
            levels = self._measure_levels(n_channels)
            for i in range(n_channels):
                measures[i, index] = levels[i]
                mean_meas[i] = mean_meas[i] * trigger_mult + levels[i] * (1.0 - trigger_mult)
                triggered = triggered or mean_meas[i] >= self.trigger_level
                if triggered:
                    j_trigger = j_zero = measures_len
                    k = index
                    for j in range(measures_len):
                        if measures[i, k] >= self.trigger_level and j <= j_trigger + gap_len:
                            j_trigger = j_zero = j
                        elif measures[i, k] == 0 and j_trigger >= j_zero:
                            j_zero = j
                        k = (k + measures_len - 1) % measures_len
                    # MindSpore's search loop shadows its counter, so the counter it keeps is 0
                    to_flush = min(max(to_flush, min(0, j_zero)), measures_len)
            index = (index + 1) % measures_len
            if triggered:
                flushed = (measures_len - to_flush) * period
                break
            pos += period
        if not triggered:
            pos = length
        start = pos - samples_len + flushed
        if start < -length:
            start = 0
        elif start < 0:
            start += length
        res = sig[:, start:]
        return _out(res.reshape(shape[:-1] + res.shape[-1:]), x)
