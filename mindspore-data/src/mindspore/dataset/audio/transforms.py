"""The transforms of ``mindspore.dataset.audio``, computed with NumPy (kernels in :mod:`._dsp`), gathered
from :mod:`._filters`, :mod:`._spectral`, :mod:`._effects` and :mod:`._effects_stateful`.

Every transform is an ``AudioTensorOperation`` (:mod:`._base`): called eagerly on NumPy arrays
(``audio.Gain(3.0)(waveform)``) or used in ``dataset.map(operations=[...])``. Arguments are checked in
the constructor with MindSpore's messages and exception types; problems with the data itself (rank,
dtype, sizes) raise ``RuntimeError`` as MindSpore's C++ kernels do. Outputs are float32, or float64
for float64 input; the IIR filters keep float16 too and refuse integer input, as MindSpore's.

Random transforms: ``TimeMasking``/``FrequencyMasking`` with ``iid_masks`` and ``MaskAlongAxisIID`` draw
2.10's numbers (libstdc++'s ``uniform_int_distribution`` on the operation's own ``std::mt19937``, see
``transforms._base.op_engine``); ``Dither``, ``GriffinLim`` with ``rand_init`` and ``InverseMelScale`` draw from
the dataset transform generator (``transforms._base.transform_rng``), seeded by ``config.set_seed``: reproducible,
but not 2.10's draws.
"""
from mindspore.dataset.audio._base import AudioTensorOperation  # noqa: F401  (MindSpore exposes it here too)
from mindspore.dataset.audio._effects import (
    Contrast, DCShift, Fade, FrequencyMasking, Gain, MaskAlongAxis, MaskAlongAxisIID, MuLawDecoding, MuLawEncoding,
    Overdrive, Resample, TimeMasking, Vol)
from mindspore.dataset.audio._effects_stateful import (
    DetectPitchFrequency, Dither, Flanger, Phaser, PitchShift, SlidingWindowCmn, Vad)
from mindspore.dataset.audio._filters import (
    AllpassBiquad, BandBiquad, BandpassBiquad, BandrejectBiquad, BassBiquad, Biquad, DeemphBiquad, EqualizerBiquad,
    Filtfilt, HighpassBiquad, LFilter, LowpassBiquad, RiaaBiquad, TrebleBiquad)
from mindspore.dataset.audio._spectral import (
    LFCC, MFCC, AmplitudeToDB, Angle, ComplexNorm, ComputeDeltas, DBToAmplitude, GriffinLim, InverseMelScale,
    InverseSpectrogram, Magphase, MelScale, MelSpectrogram, PhaseVocoder, SpectralCentroid, Spectrogram, TimeStretch)

__all__ = ["AllpassBiquad", "AmplitudeToDB", "Angle", "BandBiquad", "BandpassBiquad", "BandrejectBiquad",
           "BassBiquad", "Biquad", "ComplexNorm", "ComputeDeltas", "Contrast", "DBToAmplitude", "DCShift",
           "DeemphBiquad", "DetectPitchFrequency", "Dither", "EqualizerBiquad", "Fade", "Filtfilt", "Flanger",
           "FrequencyMasking", "Gain", "GriffinLim", "HighpassBiquad", "InverseMelScale", "InverseSpectrogram",
           "LFCC", "LFilter", "LowpassBiquad", "Magphase", "MaskAlongAxis", "MaskAlongAxisIID", "MelScale",
           "MelSpectrogram", "MFCC", "MuLawDecoding", "MuLawEncoding", "Overdrive", "Phaser", "PhaseVocoder",
           "PitchShift", "Resample", "RiaaBiquad", "SlidingWindowCmn", "SpectralCentroid", "Spectrogram",
           "TimeMasking", "TimeStretch", "TrebleBiquad", "Vad", "Vol"]

