"""Learning-rate helpers: the dynamic_lr lists and the LearningRateSchedule cells against MindSpore's documented
outputs and independent NumPy formulas."""
import math

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

pytestmark = pytest.mark.both_modes


# -- dynamic_lr: MindSpore's documented example outputs ------------------------------------------------------
def test_piecewise_constant_lr_documented():
    assert nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01]) == \
        [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]


def test_exponential_decay_lr_documented():
    assert nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1) == \
        [0.1, 0.1, 0.09000000000000001, 0.09000000000000001, 0.08100000000000002, 0.08100000000000002]


def test_natural_exp_decay_lr_documented():
    assert nn.natural_exp_decay_lr(0.1, 0.9, 6, 2, 2, True) == \
        [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]


def test_inverse_decay_lr_documented():
    assert nn.inverse_decay_lr(0.1, 0.5, 6, 1, 1, True) == \
        [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333, 0.028571428571428574]


def test_cosine_decay_lr_documented():
    assert nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2) == \
        [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]


def test_polynomial_decay_lr_documented():
    assert nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5) == \
        [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]


def test_warmup_lr_documented():
    assert nn.warmup_lr(0.1, 6, 2, 2) == [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]


# -- dynamic_lr: formulas over longer runs -----------------------------------------------------------------
def test_dynamic_lr_formulas():
    n, spe, de = 20, 3, 2
    epochs = np.arange(n) // spe
    np.testing.assert_allclose(nn.exponential_decay_lr(0.2, 0.7, n, spe, de), 0.2 * 0.7 ** (epochs / de))
    np.testing.assert_allclose(nn.exponential_decay_lr(0.2, 0.7, n, spe, de, True), 0.2 * 0.7 ** (epochs // de))
    np.testing.assert_allclose(nn.natural_exp_decay_lr(0.2, 0.7, n, spe, de), 0.2 * np.exp(-0.7 * epochs))
    np.testing.assert_allclose(nn.inverse_decay_lr(0.2, 0.7, n, spe, de), 0.2 / (1 + 0.7 * epochs / de))
    capped = np.minimum(epochs, de)
    np.testing.assert_allclose(nn.cosine_decay_lr(0.0, 0.2, n, spe, de),
                               0.1 * (1 + np.cos(np.pi * capped / de)), atol=1e-15)
    np.testing.assert_allclose(nn.polynomial_decay_lr(0.2, 0.01, n, spe, de, 2.0),
                               0.19 * (1 - capped / de) ** 2 + 0.01)
    decay = de * np.maximum(np.ceil(epochs / de), 1)
    np.testing.assert_allclose(nn.polynomial_decay_lr(0.2, 0.01, n, spe, de, 2.0, True),
                               0.19 * (1 - epochs / decay) ** 2 + 0.01)
    np.testing.assert_allclose(nn.warmup_lr(0.2, n, spe, de), 0.2 * capped / de)
    assert all(len(f) == n for f in (nn.warmup_lr(0.2, n, spe, de), nn.cosine_decay_lr(0.0, 0.2, n, spe, de)))


@pytest.mark.parametrize("call, error", [
    (lambda: nn.piecewise_constant_lr([2, 5], [0.1]), ValueError),
    (lambda: nn.piecewise_constant_lr([5, 2], [0.1, 0.2]), ValueError),
    (lambda: nn.piecewise_constant_lr([2, 5], [0.1, 1]), TypeError),
    (lambda: nn.piecewise_constant_lr(5, [0.1]), TypeError),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1), ValueError),
    (lambda: nn.exponential_decay_lr(1, 0.9, 6, 1, 1), TypeError),
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 6, 1, 1, is_stair=1), TypeError),
    (lambda: nn.natural_exp_decay_lr(0.1, -0.9, 6, 1, 1), ValueError),
    (lambda: nn.cosine_decay_lr(0.1, 0.01, 6, 1, 1), ValueError),
    (lambda: nn.cosine_decay_lr(0, 0.1, 6, 1, 1), TypeError),
    (lambda: nn.polynomial_decay_lr(0.1, 0, 6, 1, 1, 0.5), TypeError),
    (lambda: nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 1, 0.0), ValueError),
    (lambda: nn.warmup_lr(0.1, 6, 1, 0), ValueError),
    (lambda: nn.warmup_lr(1, 6, 1, 1), TypeError),
])
def test_dynamic_lr_errors(call, error):
    with pytest.raises(error):
        call()


# -- LearningRateSchedule cells ------------------------------------------------------------------------------
STEP2 = Tensor(2, ms.int32)


@pytest.mark.parametrize("schedule, documented", [
    (nn.ExponentialDecayLR(0.1, 0.9, 4), 0.09486833),
    (nn.NaturalExpDecayLR(0.1, 0.9, 4, True), 0.1),
    (nn.InverseDecayLR(0.1, 0.9, 4, True), 0.1),
    (nn.CosineDecayLR(0.01, 0.1, 4), 0.055),
    (nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5), 0.07363961),
    (nn.WarmUpLR(0.1, 2), 0.1),
])
def test_schedules_documented(schedule, documented):
    out = schedule(STEP2)
    assert isinstance(out, Tensor) and out.dtype == ms.float32 and out.shape == ()
    np.testing.assert_allclose(out.asnumpy(), documented, rtol=1e-6)


def schedule_values(schedule, steps):
    return np.array([float(schedule(Tensor(s, ms.int32)).asnumpy()) for s in steps])


def test_schedule_formulas():
    steps = np.arange(0, 12)
    np.testing.assert_allclose(schedule_values(nn.ExponentialDecayLR(0.2, 0.5, 3), steps),
                               0.2 * 0.5 ** (steps / 3), rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.ExponentialDecayLR(0.2, 0.5, 3, True), steps),
                               0.2 * 0.5 ** (steps // 3), rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.NaturalExpDecayLR(0.2, 0.5, 3), steps),
                               0.2 * np.exp(-0.5 * steps), rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.NaturalExpDecayLR(0.2, 0.5, 3, True), steps),
                               0.2 * np.exp(-0.5 * (steps // 3) * 3), rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.InverseDecayLR(0.2, 0.5, 3), steps),
                               0.2 / (1 + 0.5 * steps / 3), rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.CosineDecayLR(0.01, 0.2, 5), steps),
                               0.01 + 0.5 * 0.19 * (1 + np.cos(np.pi * np.minimum(steps, 5) / 5)), rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.PolynomialDecayLR(0.2, 0.01, 5, 2.0), steps),
                               0.19 * (1 - np.minimum(steps, 5) / 5) ** 2 + 0.01, rtol=1e-6)
    decay = 5 * np.maximum(np.ceil(steps / 5), 1)
    np.testing.assert_allclose(schedule_values(nn.PolynomialDecayLR(0.2, 0.01, 5, 2.0, True), steps),
                               0.19 * (1 - steps / decay) ** 2 + 0.01, rtol=1e-6)
    np.testing.assert_allclose(schedule_values(nn.WarmUpLR(0.2, 4), steps),
                               0.2 * np.minimum(steps, 4) / 4, rtol=1e-6)


def test_schedule_accepts_optimizer_global_step_shape():
    out = nn.CosineDecayLR(0.01, 0.1, 4)(Tensor([2], ms.int32))
    np.testing.assert_allclose(out.asnumpy(), [0.055], rtol=1e-6)


@pytest.mark.parametrize("call, error", [
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 0), ValueError),
    (lambda: nn.ExponentialDecayLR(1, 0.9, 4), TypeError),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4, is_stair="yes"), TypeError),
    (lambda: nn.InverseDecayLR(0.1, -0.9, 4), ValueError),
    (lambda: nn.CosineDecayLR(0.1, 0.1, 4), ValueError),
    (lambda: nn.CosineDecayLR(0, 0.1, 4), TypeError),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 1), TypeError),
    (lambda: nn.PolynomialDecayLR(0.1, -0.01, 4, 0.5), ValueError),
    (lambda: nn.WarmUpLR(0.1, 0), ValueError),
    (lambda: nn.WarmUpLR(1, 2), TypeError),
])
def test_schedule_errors(call, error):
    with pytest.raises(error):
        call()


def test_custom_schedule_subclass():
    class Halving(nn.LearningRateSchedule):
        def construct(self, global_step):
            return 0.1 * 0.5 ** ms.ops.cast(global_step, ms.float32)

    assert math.isclose(float(Halving()(STEP2).asnumpy()), 0.025, rel_tol=1e-6)
    with pytest.raises(TypeError):
        nn.LearningRateSchedule()(STEP2)
