"""``mindspore.dataset.audio``: audio transforms (spectrograms, mel/MFCC/LFCC features, biquad and IIR
filters, resampling, time stretching, masking, sox-style effects) and their enums and filter-bank helpers.

The transforms take NumPy waveforms ``(..., time)`` or spectrograms ``(..., freq, time)`` (complex ones as
``(..., freq, time, 2)``) and are used eagerly or in ``dataset.map``.

Examples:
    >>> import numpy as np
    >>> import mindspore.dataset.audio as audio
    >>> waveform = np.sin(np.linspace(0, 100, 800)).astype(np.float32)
    >>> audio.Spectrogram(n_fft=64)(waveform).shape
    (33, 26)
"""
from mindspore.dataset.audio import transforms, utils
from mindspore.dataset.audio.transforms import *  # noqa: F401,F403
from mindspore.dataset.audio.transforms import __all__ as _transforms_all
from mindspore.dataset.audio.utils import *  # noqa: F401,F403
from mindspore.dataset.audio.utils import __all__ as _utils_all

__all__ = sorted(_transforms_all) + sorted(_utils_all)
