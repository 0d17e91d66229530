"""NumPy kernels of ``mindspore.dataset.audio``: windows, STFT/ISTFT, IIR filtering, phase vocoder,
resampling and the sox-style effects.

Waveforms are ``(..., time)`` arrays, spectrograms ``(..., freq, time)``, complex spectrograms
``(..., freq, time, 2)`` (real and imaginary parts in the last axis, MindSpore's layout). The kernels
compute in the input's float type (float32 unless the input is float64), as MindSpore's C++ kernels do.
"""
import math

import numpy as np

from mindspore.dataset.audio.utils import BorderType, WindowType

_PAD_MODES = {BorderType.CONSTANT: "constant", BorderType.EDGE: "edge", BorderType.REFLECT: "reflect",
              BorderType.SYMMETRIC: "symmetric"}


def window(kind, length, dtype=np.float64):
    """A periodic analysis window of ``length`` samples (torch's ``*_window(periodic=True)``)."""
    if length == 1:
        return np.ones(1, dtype)
    n = np.arange(length, dtype=np.float64)
    if kind == WindowType.HANN:
        w = 0.5 - 0.5 * np.cos(2 * np.pi * n / length)
    elif kind == WindowType.HAMMING:
        w = 0.54 - 0.46 * np.cos(2 * np.pi * n / length)
    elif kind == WindowType.BLACKMAN:
        w = 0.42 - 0.5 * np.cos(2 * np.pi * n / length) + 0.08 * np.cos(4 * np.pi * n / length)
    elif kind == WindowType.BARTLETT:
        w = 1.0 - np.abs(2.0 * n / length - 1.0)
    else:  # KAISER, beta 12
        w = np.i0(12.0 * np.sqrt(np.maximum(0.0, 1.0 - (2.0 * n / length - 1.0) ** 2))) / np.i0(12.0)
    return w.astype(dtype)


def padded_window(kind, win_length, n_fft):
    """The window of ``win_length`` centred in ``n_fft`` samples."""
    win = window(kind, win_length)
    left = (n_fft - win_length) // 2
    return np.pad(win, (left, n_fft - win_length - left))


def pad_last(x, before, after, mode):
    widths = [(0, 0)] * (x.ndim - 1) + [(before, after)]
    return np.pad(x, widths, mode=_PAD_MODES.get(mode, mode))


def frames(x, n_fft, hop):
    """Frames ``(..., n_frames, n_fft)`` of the last axis."""
    n_frames = 1 + (x.shape[-1] - n_fft) // hop
    idx = np.arange(n_fft)[None, :] + hop * np.arange(n_frames)[:, None]
    return x[..., idx]


def stft(x, n_fft, hop, win_length, window_type, center=True, pad_mode=BorderType.REFLECT, normalized=False,
         onesided=True):
    """Complex STFT ``(..., freq, frames)`` (complex128)."""
    win = padded_window(window_type, win_length, n_fft)
    x = x.astype(np.float64)
    if center:
        x = pad_last(x, n_fft // 2, n_fft // 2, pad_mode)
    spec = np.fft.fft(frames(x, n_fft, hop) * win, axis=-1)
    if onesided:
        spec = spec[..., :n_fft // 2 + 1]
    if normalized:
        spec = spec / np.sqrt(np.sum(win ** 2))
    return np.swapaxes(spec, -1, -2)


def window_like_mindspore(kind, length):
    """The float32 window MindSpore's kernels use: its float constants, double arithmetic, float32 result."""
    if length == 1:
        return np.ones(1, np.float32)
    n = np.arange(length, dtype=np.float64)
    f32 = lambda v: float(np.float32(v))  # noqa: E731
    if kind == WindowType.HANN:
        w = 0.5 - 0.5 * np.cos(2 * np.pi * n / length)
    elif kind == WindowType.HAMMING:
        w = f32(0.54) - f32(0.46) * np.cos(2 * np.pi * n / length)
    elif kind == WindowType.BLACKMAN:
        w = f32(0.42) - 0.5 * np.cos(2 * np.pi * n / length) + f32(0.08) * np.cos(4 * np.pi * n / length)
    else:
        ratio = (np.float32(2.0) * n.astype(np.float32) / np.float32(length)).astype(np.float64)
        if kind == WindowType.BARTLETT:
            w = 1.0 - np.abs(ratio - 1.0)
        else:
            w = np.i0(12.0 * np.sqrt(np.maximum(0.0, 1.0 - (ratio - 1.0) ** 2))) / np.i0(12.0)
    return w.astype(np.float32)


def stft_like_mindspore(x, n_fft, hop, win_length, window_type, center=True, pad_mode=BorderType.REFLECT,
                        normalized=False, onesided=True):
    """Complex STFT ``(..., freq, frames)`` of float32 ``x`` computed as MindSpore's float32 kernel does: a
    direct DFT with float32 cos/sin tables and float32 sums in sample order.

    The phases of weak bins depend on those roundings, and the phase vocoder accumulates phases, so
    ``PitchShift`` and complex spectrograms (``power=0``) use this to give MindSpore's numbers; as MindSpore's,
    the two-sided spectrum repeats bin ``n_fft - i`` for the negative frequencies without conjugating it.
    """
    left = (n_fft - win_length) // 2
    win = np.pad(window_like_mindspore(window_type, win_length), (left, n_fft - win_length - left))
    x = x.astype(np.float32)
    if center:
        x = pad_last(x, n_fft // 2, n_fft // 2, pad_mode)
    frames_ = frames(x, n_fft, hop) * win                                  # (..., n_frames, n_fft), float32
    n_bins = n_fft // 2 + 1
    angle = 2.0 * np.pi * np.arange(n_bins)[:, None] * np.arange(n_fft)[None, :] / n_fft
    cos_t, sin_t = np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)
    lead = frames_.shape[:-1]
    flat = frames_.reshape(-1, n_fft)
    re = np.empty((flat.shape[0], n_bins), np.float32)
    im = np.empty((flat.shape[0], n_bins), np.float32)
    chunk = max(1, (1 << 22) // (n_bins * n_fft))
    for start in range(0, flat.shape[0], chunk):
        part = flat[start:start + chunk, None, :]
        re[start:start + chunk] = np.cumsum(part * cos_t, axis=-1, dtype=np.float32)[..., -1]
        im[start:start + chunk] = np.cumsum(-part * sin_t, axis=-1, dtype=np.float32)[..., -1]
    spec = re.astype(np.float64) + 1j * im.astype(np.float64)
    if normalized:
        norm = np.sqrt(np.sum(win.astype(np.float64) ** 2))
        spec = (spec.real / norm).astype(np.float32) + 1j * (spec.imag / norm).astype(np.float32)
    if not onesided:
        spec = np.concatenate([spec, spec[:, n_fft - np.arange(n_bins, n_fft)]], axis=-1)
    return np.swapaxes(spec.reshape(lead + (spec.shape[-1],)), -1, -2)


def istft(spec, n_fft, hop, win_length, window_type, center=True, normalized=False, onesided=True, length=None):
    """Inverse STFT of a complex ``(..., freq, frames)`` spectrogram by overlap-add."""
    win = padded_window(window_type, win_length, n_fft)
    if normalized:
        spec = spec * np.sqrt(np.sum(win ** 2))
    if length is not None and hop:
        # as MindSpore: only the frames that reach into the requested length are used
        padded = length + n_fft if center else length
        spec = spec[..., :min(spec.shape[-1], int(math.ceil(padded / hop)))]
    spec = np.swapaxes(spec, -1, -2)
    frames_ = np.fft.irfft(spec, n=n_fft, axis=-1) if onesided else np.fft.ifft(spec, n=n_fft, axis=-1).real
    frames_ = frames_ * win
    n_frames = frames_.shape[-2]
    expected = n_fft + hop * (n_frames - 1)
    out = np.zeros(frames_.shape[:-2] + (expected,))
    env = np.zeros(expected)
    for i in range(n_frames):
        out[..., i * hop:i * hop + n_fft] += frames_[..., i, :]
        env[i * hop:i * hop + n_fft] += win ** 2
    start = n_fft // 2 if center else 0
    end = expected - n_fft // 2 if (center and length is None) else expected
    if length is not None:
        end = min(start + length, expected)
    out, env = out[..., start:end], env[start:end]
    out = out / np.where(np.abs(env) > 1e-11, env, 1.0)
    if length is not None and out.shape[-1] < length:
        out = pad_last(out, 0, length - out.shape[-1], "constant")
    return out


def to_complex(x):
    return x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)


def from_complex(z, dtype):
    return np.stack([z.real, z.imag], axis=-1).astype(dtype)


def lfilter(x, a_coeffs, b_coeffs, clamp):
    """Direct-form IIR filter along the last axis, coefficients normalised by ``a[0]``."""
    a = np.asarray(a_coeffs, np.float64)
    b = np.asarray(b_coeffs, np.float64)
    b, a = b / a[0], a / a[0]
    order = len(a)
    shape = x.shape
    sig = x.reshape(-1, shape[-1]).astype(np.float64)
    n_time = sig.shape[1]
    padded = np.concatenate([np.zeros((sig.shape[0], order - 1)), sig], axis=1)
    # feed-forward part at once; the recursion sample by sample
    ff = np.zeros_like(sig)
    for k in range(order):
        ff += b[k] * padded[:, order - 1 - k:order - 1 - k + n_time]
    out = np.zeros((sig.shape[0], n_time + order - 1))
    a_rev = a[:0:-1]
    for t in range(n_time):
        acc = ff[:, t] - out[:, t:t + order - 1] @ a_rev if order > 1 else ff[:, t]
        out[:, t + order - 1] = acc
    y = out[:, order - 1:]
    if clamp:
        y = np.clip(y, -1.0, 1.0)
    return y.reshape(shape)


def phase_vocoder(z, rate, phase_advance, dtype=np.float64):
    """Speed a complex ``(..., freq, time)`` spectrogram up by ``rate`` without changing its pitch.

    With ``dtype=float32`` the steps are those of MindSpore's float32 kernel: float32 time steps, angles and
    magnitudes, the phase difference wrapped to [-pi, pi] in double and stored as float32, and the phase
    accumulated in float32. Over many frames the accumulated phase reaches 1e3-1e4 rad, where float32
    rounding is visible, so matching MindSpore needs the same arithmetic.
    """
    dtype = np.dtype(dtype)
    n_time = z.shape[-1]
    if dtype == np.float32:
        rate32 = np.float32(rate)
        count = 0
        while np.float32(count) * rate32 < n_time:
            count += 1
        steps = np.arange(count, dtype=np.float32) * rate32
    else:
        steps = np.arange(0, n_time, rate, dtype=np.float64)
    alphas = np.fmod(steps.astype(np.float64), 1.0).astype(dtype)
    re, im = z.real.astype(dtype), z.imag.astype(dtype)
    phase_0 = np.arctan2(im[..., :1], re[..., :1])
    pad = np.zeros(z.shape[:-1] + (2,), dtype)
    re, im = np.concatenate([re, pad], axis=-1), np.concatenate([im, pad], axis=-1)
    idx = steps.astype(np.int64)
    re0, im0, re1, im1 = re[..., idx], im[..., idx], re[..., idx + 1], im[..., idx + 1]
    angle_0, angle_1 = np.arctan2(im0, re0), np.arctan2(im1, re1)
    wide = lambda a: a.astype(np.float64)  # noqa: E731
    norm_0 = np.sqrt(wide(re0) ** 2 + wide(im0) ** 2).astype(dtype)
    norm_1 = np.sqrt(wide(re1) ** 2 + wide(im1) ** 2).astype(dtype)
    advance = np.asarray(phase_advance).astype(dtype)
    phase = (angle_1 - angle_0 - advance).astype(dtype)
    two_pi = 2 * np.pi
    phase = (wide(phase) - two_pi * np.round(wide(phase) / two_pi) + wide(advance)).astype(dtype)
    phase = np.concatenate([phase_0.astype(dtype), phase[..., :-1]], axis=-1)
    acc = np.cumsum(phase, axis=-1, dtype=dtype)
    mag = alphas * norm_1 + (1 - alphas) * norm_0
    return (np.cos(acc) * mag).astype(np.float64) + 1j * (np.sin(acc) * mag).astype(np.float64)


def resample_kernel(orig, new, lowpass_filter_width, rolloff, kaiser, beta, phases):
    """Rows ``phases`` of the windowed-sinc kernel resampling ``orig`` to ``new`` (both already divided by
    their gcd), and its half width."""
    base_freq = min(orig, new) * rolloff
    width = int(math.ceil(lowpass_filter_width * orig / base_freq))
    idx = np.arange(-width, width + orig, dtype=np.float64)[None, :] / orig
    t = -np.asarray(phases, dtype=np.float64)[:, None] / new + idx
    t = np.clip(t * base_freq, -lowpass_filter_width, lowpass_filter_width)
    if kaiser:
        win = np.i0(beta * np.sqrt(1 - (t / lowpass_filter_width) ** 2)) / np.i0(beta)
    else:
        win = np.cos(t * np.pi / lowpass_filter_width / 2) ** 2
    t = t * np.pi
    scale = base_freq / orig
    safe = np.where(t == 0, 1.0, t)
    sinc = np.where(t == 0, 1.0, np.sin(safe) / safe)
    return sinc * win * scale, width


def resample(x, orig_freq, new_freq, lowpass_filter_width, rolloff, kaiser, beta):
    """Polyphase windowed-sinc resampling of the last axis (torchaudio's and MindSpore's kernel)."""
    if orig_freq == new_freq:
        return x.astype(np.float64)
    gcd = math.gcd(int(orig_freq), int(new_freq))
    orig, new = int(orig_freq) // gcd, int(new_freq) // gcd
    shape = x.shape
    sig = x.reshape(-1, shape[-1]).astype(np.float64)
    length = sig.shape[1]
    target = int(math.ceil(new * length / orig))
    _, width = resample_kernel(orig, new, lowpass_filter_width, rolloff, kaiser, beta, [0])
    sig = np.pad(sig, ((0, 0), (width, width + orig)))
    kernel_len = 2 * width + orig
    n_out = (sig.shape[1] - kernel_len) // orig + 1
    windows = sig[:, np.arange(kernel_len)[None, :] + orig * np.arange(n_out)[:, None]]   # (batch, n_out, K)
    out = np.zeros((sig.shape[0], n_out, new))
    # only the phases that reach the target length, a block of them at a time (the kernel can be large)
    n_phases = min(new, target)
    block = max(1, (1 << 22) // kernel_len)
    for start in range(0, n_phases, block):
        phases = np.arange(start, min(start + block, n_phases))
        kernel, _ = resample_kernel(orig, new, lowpass_filter_width, rolloff, kaiser, beta, phases)
        out[:, :, phases] = windows @ kernel.T
    res = out.reshape(sig.shape[0], -1)[:, :target]
    return res.reshape(shape[:-1] + (target,))
