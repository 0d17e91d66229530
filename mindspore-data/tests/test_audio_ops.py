"""``mindspore.dataset.audio``: pipeline use, input checks and the random transforms.

MindSpore draws its random masks/phases/dither positions from its own C++ generator, which cannot be
reproduced; ours draw from the dataset transform generator. So these are checked by their law (widths in
range, one contiguous block, values kept elsewhere) and by fixed-seed repeatability, not value by value.
"""
import numpy as np
import pytest

import mindspore.dataset as ds
import mindspore.dataset.audio as audio
from mindspore.dataset.audio import _dsp


def wave(shape=(2, 400), seed=0):
    return (0.3 * np.random.default_rng(seed).standard_normal(shape)).astype(np.float32)


def test_pipeline_matches_eager():
    data = np.stack([wave(seed=i) for i in range(3)])
    ops = [audio.LowpassBiquad(8000, 1000.0), audio.Spectrogram(n_fft=64), audio.AmplitudeToDB()]
    dataset = ds.NumpySlicesDataset({"audio": data}, shuffle=False).map(operations=ops, input_columns=["audio"])
    rows = [row["audio"] for row in dataset.create_dict_iterator(output_numpy=True)]
    assert len(rows) == 3
    for i, row in enumerate(rows):
        expected = data[i]
        for op in ops:
            expected = op(expected)
        np.testing.assert_allclose(row, expected, rtol=1e-6, atol=1e-6)


def test_pipeline_two_outputs():
    data = np.random.default_rng(1).standard_normal((2, 5, 4, 2)).astype(np.float32)
    dataset = ds.NumpySlicesDataset({"x": data}, shuffle=False).map(
        operations=[audio.Magphase()], input_columns=["x"], output_columns=["mag", "phase"])
    row = next(dataset.create_dict_iterator(output_numpy=True))
    np.testing.assert_allclose(row["mag"], np.hypot(data[0, ..., 0], data[0, ..., 1]), rtol=1e-6)
    np.testing.assert_allclose(row["phase"], np.arctan2(data[0, ..., 1], data[0, ..., 0]), rtol=1e-6)


def test_eager_input_must_be_numpy():
    with pytest.raises(TypeError, match="Input should be NumPy audio, got <class 'list'>."):
        audio.Gain(1.0)([0.1, 0.2])


def test_filters_refuse_integers_others_cast_to_float32():
    ints = np.arange(-5, 5, dtype=np.int32)
    with pytest.raises(RuntimeError, match="LFilter: .*Expecting tensor in type of \\[float, double\\]"):
        audio.LFilter([1.0, 0.1], [0.5, 0.5])(ints)
    assert audio.Gain(0.0)(ints).dtype == np.float32
    assert audio.LowpassBiquad(8000, 100.0)(ints.astype(np.float16)).dtype == np.float16
    assert audio.Gain(0.0)(ints.astype(np.float64)).dtype == np.float64


def test_complex_input_needs_last_axis_two():
    with pytest.raises(RuntimeError, match="ComplexNorm: the shape of input tensor"):
        audio.ComplexNorm()(np.ones((3, 4), np.float32))


def test_lfilter_matches_direct_recursion():
    x = wave((1, 50))[0].astype(np.float64)
    a, b = [1.0, -0.6, 0.25], [0.3, 0.2, 0.1]
    y = np.zeros_like(x)
    for n in range(len(x)):
        acc = sum(b[k] * x[n - k] for k in range(3) if n - k >= 0)
        acc -= sum(a[k] * y[n - k] for k in range(1, 3) if n - k >= 0)
        y[n] = acc
    np.testing.assert_allclose(_dsp.lfilter(x, a, b, clamp=False), y, rtol=1e-12, atol=1e-12)


def test_time_stretch_rate_one_is_identity():
    spec = np.random.default_rng(2).standard_normal((9, 6, 2)).astype(np.float32)
    np.testing.assert_array_equal(audio.TimeStretch(n_freq=9)(spec), spec)


def test_inverse_mel_scale_shapes():
    mel = np.random.default_rng(3).uniform(0.1, 1.0, (2, 3, 8, 4)).astype(np.float32)
    out = audio.InverseMelScale(n_stft=12, n_mels=8, sample_rate=8000, max_iter=20)(mel)
    assert out.shape == (2, 3, 12, 4) and np.all(out >= 0)
    assert audio.InverseMelScale(12, 8, 8000, max_iter=5)(mel[0, 0]).shape == (1, 12, 4)


def _masked_block(before, after, axis):
    changed = np.any(before != after, axis=tuple(i for i in range(before.ndim) if i != axis))
    idx = np.flatnonzero(changed)
    return idx


@pytest.mark.parametrize("op,axis,param", [
    (audio.TimeMasking(iid_masks=True, time_mask_param=6, mask_value=0.0), -1, 6),
    (audio.FrequencyMasking(iid_masks=True, freq_mask_param=4, mask_value=0.0), -2, 4),
    (audio.MaskAlongAxisIID(5, 0.0, 2), -1, 5),
    (audio.MaskAlongAxisIID(3, 0.0, 1), -2, 3),
])
def test_random_masks_law(op, axis, param):
    spec = np.random.default_rng(4).uniform(1.0, 2.0, (2, 10, 16)).astype(np.float32)
    widths = set()
    for seed in range(60):      # 2.10 seeds a new operation on every eager call: vary the seed to vary the mask
        ds.config.set_seed(seed)
        out = op(spec)
        idx = _masked_block(spec, out, spec.ndim + axis)
        widths.add(len(idx))
        if len(idx):
            assert np.array_equal(idx, np.arange(idx[0], idx[0] + len(idx)))  # one contiguous block
            block = np.take(out, idx, axis=axis)
            assert np.all(block == 0.0)
        keep = np.ones(spec.shape[axis], bool)
        keep[idx] = False
        np.testing.assert_array_equal(np.take(out, np.flatnonzero(keep), axis=axis),
                                      np.take(spec, np.flatnonzero(keep), axis=axis))
    assert max(widths) <= param and len(widths) > 2
    ds.config.set_seed(7)
    first = op(spec)
    ds.config.set_seed(7)
    np.testing.assert_array_equal(op(spec), first)


def test_fixed_masks():
    spec = np.ones((2, 6, 12), np.float32)
    out = audio.TimeMasking(time_mask_param=5, mask_start=4)(spec)
    assert np.all(out[..., 4:9] == 0) and np.all(out[..., :4] == 1) and np.all(out[..., 9:] == 1)
    with pytest.raises(RuntimeError, match="MaskAlongAxis: invalid parameter"):
        audio.TimeMasking(time_mask_param=5, mask_start=9)(spec)


@pytest.mark.parametrize("density", [audio.DensityFunction.RPDF, audio.DensityFunction.GPDF])
def test_random_dither(density):
    silent = np.zeros((2, 100), np.float32)
    # as MindSpore's: the dither is built from the signal itself, so silence stays silent
    np.testing.assert_array_equal(audio.Dither(density)(silent), silent)
    x = wave((2, 500))
    ds.config.set_seed(3)
    out = audio.Dither(density)(x)
    steps = out * 2 ** 15
    np.testing.assert_allclose(steps, np.round(steps), atol=1e-3)  # on the 16-bit grid
    spread = 7 * np.abs(x).max() if density == audio.DensityFunction.GPDF else np.abs(x).max()
    assert np.max(np.abs(steps - x * (2 ** 15 - 2))) <= spread + 0.5
    ds.config.set_seed(3)
    np.testing.assert_array_equal(audio.Dither(density)(x), out)


def test_griffin_lim_random_init_is_seeded():
    spec = np.random.default_rng(5).uniform(0.1, 1.0, (9, 5)).astype(np.float32)
    op = audio.GriffinLim(n_fft=16, n_iter=3)
    ds.config.set_seed(11)
    first = op(spec)
    ds.config.set_seed(11)
    np.testing.assert_array_equal(op(spec), first)
    assert first.shape == (32,)


def test_griffin_lim_momentum_update():
    """Fast Griffin-Lim: angles = rebuilt - k * previous, with MindSpore 2.10's k = m / (1 + 2 m)."""
    spec = np.random.default_rng(6).uniform(0.1, 1.0, (9, 6)).astype(np.float64)
    momentum, n_fft, hop = 0.5, 16, 8
    mag = spec ** 0.5
    angles = np.ones(spec.shape, complex)
    tprev = np.zeros(spec.shape, complex)
    for _ in range(3):
        inverse = _dsp.istft(mag * angles, n_fft, hop, n_fft, audio.WindowType.HANN)
        rebuilt = _dsp.stft(inverse, n_fft, hop, n_fft, audio.WindowType.HANN)
        angles = rebuilt - momentum / (1 + 2 * momentum) * tprev
        angles /= np.abs(angles) + 1e-16
        tprev = rebuilt
    expected = _dsp.istft(mag * angles, n_fft, hop, n_fft, audio.WindowType.HANN)
    out = audio.GriffinLim(n_fft=n_fft, n_iter=3, momentum=momentum, rand_init=False)(spec)
    np.testing.assert_allclose(out, expected, rtol=1e-9, atol=1e-12)


def test_vad_triggers_only_for_non_positive_level():
    x = np.concatenate([np.zeros(3000), wave((6000,), 8), np.zeros(1000)]).astype(np.float32)[None]
    assert audio.Vad(8000)(x).shape == (1, 8800)           # pre-trigger + search + measure samples kept
    assert audio.Vad(8000, trigger_level=0.0)(x).shape == (1, 10000)
    assert audio.Vad(8000, trigger_level=0.0, pre_trigger_time=0.1)(x).shape == (1, 800)


def test_repr_and_random_flags():
    assert audio.TimeMasking(iid_masks=True, time_mask_param=2).random
    assert not audio.TimeMasking(time_mask_param=2).random
    assert not audio.Dither().random and audio.Dither(audio.DensityFunction.RPDF).random
    assert repr(audio.Gain(2.0)) == "Gain(gain_db=2.0)"


def test_enums_are_strings():
    assert audio.WindowType.HANN == "hann" and audio.BorderType("reflect") is audio.BorderType.REFLECT
    assert [m.value for m in audio.FadeShape] == ["quarter_sine", "half_sine", "linear", "logarithmic",
                                                  "exponential"]


def test_float64_features_are_consistent():
    """MindSpore 2.10's MelSpectrogram/MFCC give wrong numbers for float64 input (so none are recorded):
    ours must equal the composition of the float64 steps that do match it."""
    x = np.random.default_rng(9).standard_normal(600)
    mel = audio.MelSpectrogram(sample_rate=8000, n_fft=64, n_mels=12)(x)
    composed = audio.MelScale(n_mels=12, sample_rate=8000, n_stft=33)(audio.Spectrogram(n_fft=64)(x))
    assert mel.dtype == np.float64
    np.testing.assert_allclose(mel, composed, rtol=1e-6)  # MelScale applies float32 filters, as MindSpore
    mfcc = audio.MFCC(sample_rate=8000, n_mfcc=6, melkwargs={"n_fft": 64, "n_mels": 12})(x)
    db = audio.AmplitudeToDB()(mel)
    expected = np.einsum("mt,mk->kt", db, audio.create_dct(6, 12, audio.NormMode.ORTHO).astype(np.float64))
    np.testing.assert_allclose(mfcc, expected, rtol=1e-5, atol=1e-4)
