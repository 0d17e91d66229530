"""BatchNorm / SyncBatchNorm / LayerNorm / GroupNorm against NumPy: parameter names (the top-level
``mean``/``variance`` quirk), MindSpore's momentum convention with the unbiased moving variance, eval mode
using the moving statistics, LayerNorm's 1e-7 epsilon, gradients and errors."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _nn_ref as ref  # noqa: E402

pytestmark = pytest.mark.both_modes


def _bn_reference(x, gamma, beta, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * gamma.reshape(shape) + beta.reshape(shape)


# --- BatchNorm ---------------------------------------------------------------------------------
def test_batchnorm_parameters_top_level_and_nested():
    bn = nn.BatchNorm2d(4)
    listed = [(key, p.name, tuple(p.shape), p.requires_grad) for key, p in bn.parameters_and_names()]
    assert listed == [("moving_mean", "mean", (4,), False), ("moving_variance", "variance", (4,), False),
                      ("gamma", "gamma", (4,), True), ("beta", "beta", (4,), True)]
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), np.zeros(4))
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), np.ones(4))
    np.testing.assert_array_equal(bn.gamma.asnumpy(), np.ones(4))
    np.testing.assert_array_equal(bn.beta.asnumpy(), np.zeros(4))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm2d(4)

        def construct(self, x):
            return self.bn(x)

    net = Net()
    assert [p.name for p in net.get_parameters()] == ["bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]
    assert [p.name for p in net.trainable_params()] == ["bn.gamma", "bn.beta"]
    assert bn.momentum == pytest.approx(0.1)   # the Cell stores 1 - momentum


def test_batchnorm_fresh_cell_uses_moving_statistics():
    x = np.random.default_rng(0).standard_normal((4, 3, 5, 5)).astype(np.float32) * 3 + 2
    bn = nn.BatchNorm2d(3)
    assert bn.training is False
    out = bn(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, x / np.sqrt(1 + 1e-5), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), np.zeros(3))   # no update in eval


def test_batchnorm_training_momentum_and_unbiased_moving_variance():
    rng = np.random.default_rng(1)
    bn = nn.BatchNorm2d(3, eps=1e-3, momentum=0.8, gamma_init=Tensor(np.array([1.0, 2.0, 0.5], np.float32)),
                        beta_init=Tensor(np.array([0.0, -1.0, 3.0], np.float32)))
    bn.set_train()
    mean = np.zeros(3)
    var = np.ones(3)
    gamma, beta = bn.gamma.asnumpy().astype(np.float64), bn.beta.asnumpy().astype(np.float64)
    for step in range(3):
        x = (rng.standard_normal((4, 3, 3, 2)) * (step + 1) + step).astype(np.float32)
        out = bn(Tensor(x)).asnumpy()
        axes = (0, 2, 3)
        batch_mean = x.mean(axes, dtype=np.float64)
        biased = x.var(axes, dtype=np.float64)
        unbiased = x.var(axes, ddof=1, dtype=np.float64)
        np.testing.assert_allclose(out, _bn_reference(x, gamma, beta, batch_mean, biased, 1e-3), rtol=1e-4, atol=1e-5)
        mean = 0.8 * mean + 0.2 * batch_mean
        var = 0.8 * var + 0.2 * unbiased
        np.testing.assert_allclose(bn.moving_mean.asnumpy(), mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(bn.moving_variance.asnumpy(), var, rtol=1e-5, atol=1e-6)
    bn.set_train(False)
    x = rng.standard_normal((2, 3, 3, 2)).astype(np.float32)
    np.testing.assert_allclose(bn(Tensor(x)).asnumpy(), _bn_reference(x, gamma, beta, mean, var, 1e-3),
                               rtol=1e-4, atol=1e-5)


def test_batchnorm_use_batch_statistics_overrides_mode():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((5, 2, 4)).astype(np.float32) + 1
    forced = nn.BatchNorm1d(2, use_batch_statistics=True)
    out = forced(Tensor(x)).asnumpy()           # eval mode, but batch statistics
    m, v = x.mean((0, 2)), x.var((0, 2))
    np.testing.assert_allclose(out, _bn_reference(x, np.ones(2), np.zeros(2), m, v, 1e-5), rtol=1e-4, atol=1e-5)
    assert not np.allclose(forced.moving_mean.asnumpy(), 0)
    frozen = nn.BatchNorm1d(2, use_batch_statistics=False).set_train()
    np.testing.assert_allclose(frozen(Tensor(x)).asnumpy(), x / np.sqrt(1 + 1e-5), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(frozen.moving_mean.asnumpy(), np.zeros(2))


def test_batchnorm1d_2d_input_and_rank_errors():
    x = np.random.default_rng(3).standard_normal((6, 4)).astype(np.float32)
    bn = nn.BatchNorm1d(4).set_train()
    np.testing.assert_allclose(bn(Tensor(x)).asnumpy(),
                               _bn_reference(x, np.ones(4), np.zeros(4), x.mean(0), x.var(0), 1e-5), rtol=1e-4,
                               atol=1e-5)
    with pytest.raises(ValueError):
        nn.BatchNorm2d(4)(Tensor(x))
    with pytest.raises(ValueError):
        bn(Tensor(np.ones((2, 4, 3, 3), np.float32)))
    with pytest.raises(ValueError):
        nn.BatchNorm2d(3, momentum=1.5)
    with pytest.raises(ValueError):
        nn.BatchNorm2d(3, use_batch_statistics=1)
    with pytest.raises(ValueError):
        nn.BatchNorm2d(0)
    with pytest.raises(TypeError):
        nn.BatchNorm2d(3, affine=None)


def test_batchnorm3d_and_affine_false():
    rng = np.random.default_rng(4)
    bn = nn.BatchNorm3d(2)
    assert [p.name for p in bn.get_parameters()] == ["bn2d.moving_mean", "bn2d.moving_variance", "bn2d.gamma",
                                                     "bn2d.beta"]
    bn.set_train()
    x = rng.standard_normal((2, 2, 3, 2, 2)).astype(np.float32)
    axes = (0, 2, 3, 4)
    np.testing.assert_allclose(bn(Tensor(x)).asnumpy(),
                               _bn_reference(x, np.ones(2), np.zeros(2), x.mean(axes), x.var(axes), 1e-5),
                               rtol=1e-4, atol=1e-5)
    fixed = nn.BatchNorm2d(3, affine=False)
    assert fixed.trainable_params() == []
    with pytest.raises(ValueError):
        bn(Tensor(np.ones((2, 2, 3, 3), np.float32)))


def test_syncbatchnorm_is_batchnorm_in_one_process():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 2, 4, 4)).astype(np.float32)
    sync = nn.SyncBatchNorm(2, momentum=0.7).set_train()
    plain = nn.BatchNorm2d(2, momentum=0.7).set_train()
    np.testing.assert_allclose(sync(Tensor(x)).asnumpy(), plain(Tensor(x)).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(sync.moving_variance.asnumpy(), plain.moving_variance.asnumpy(), rtol=1e-6)
    assert [p.name for p in sync.get_parameters()] == ["mean", "variance", "gamma", "beta"]


def test_batchnorm_gradients_in_training():
    rng = np.random.default_rng(6)
    bn = nn.BatchNorm2d(2, dtype=ms.float64, gamma_init=Tensor(np.array([0.5, 2.0])),
                        beta_init=Tensor(np.array([0.1, -0.3]))).set_train()
    x = Tensor(rng.standard_normal((3, 2, 2, 2)))
    grads = ref.check_param_grads(bn, (x,), rtol=1e-4, atol=1e-6)
    assert set(grads) == {"gamma", "beta"}


# --- LayerNorm --------------------------------------------------------------------------------
def _ln(x, begin, eps, gamma, beta):
    axes = tuple(range(begin, x.ndim))
    m = x.mean(axes, keepdims=True, dtype=np.float64)
    v = x.var(axes, keepdims=True, dtype=np.float64)
    return (x - m) / np.sqrt(v + eps) * gamma + beta


def test_layernorm_default_epsilon_is_1e_7():
    # a tiny variance makes the epsilon visible: 1e-5 would change the result by ~40%
    x = (np.random.default_rng(7).standard_normal((3, 8)) * 4e-3).astype(np.float32)
    ln = nn.LayerNorm((8,))
    assert ln.epsilon == 1e-7
    assert [(n, p.name, tuple(p.shape)) for n, p in ln.parameters_and_names()] == [("gamma", "gamma", (8,)),
                                                                                  ("beta", "beta", (8,))]
    out = ln(Tensor(x)).asnumpy()
    np.testing.assert_allclose(out, _ln(x, 1, 1e-7, 1.0, 0.0), rtol=1e-3, atol=1e-4)
    assert not np.allclose(out, _ln(x, 1, 1e-5, 1.0, 0.0), rtol=1e-2, atol=1e-2)


def test_layernorm_begin_axes_and_affine():
    rng = np.random.default_rng(8)
    x = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    gamma = rng.standard_normal((3, 4, 5)).astype(np.float32)
    beta = rng.standard_normal((3, 4, 5)).astype(np.float32)
    ln = nn.LayerNorm(x.shape[1:], begin_norm_axis=1, begin_params_axis=1, gamma_init=Tensor(gamma),
                      beta_init=Tensor(beta), epsilon=1e-5)
    np.testing.assert_allclose(ln(Tensor(x)).asnumpy(), _ln(x, 1, 1e-5, gamma, beta), rtol=1e-4, atol=1e-5)
    partial = nn.LayerNorm((5,), begin_norm_axis=2, begin_params_axis=-1)
    np.testing.assert_allclose(partial(Tensor(x)).asnumpy(), _ln(x, 2, 1e-7, 1.0, 0.0), rtol=1e-4, atol=1e-5)


def test_layernorm_errors_and_gradients():
    with pytest.raises(TypeError):
        nn.LayerNorm(8)
    ln = nn.LayerNorm((4,))
    with pytest.raises(ValueError):
        ln(Tensor(np.ones((2, 5), np.float32)))
    rng = np.random.default_rng(9)
    ln64 = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, dtype=ms.float64,
                        gamma_init=Tensor(rng.standard_normal((3, 4))), beta_init=Tensor(rng.standard_normal((3, 4))))
    ref.check_param_grads(ln64, (Tensor(rng.standard_normal((2, 3, 4))),), rtol=1e-4, atol=1e-6)


# --- GroupNorm --------------------------------------------------------------------------------
def test_groupnorm_numerics_and_parameters():
    rng = np.random.default_rng(10)
    x = rng.standard_normal((2, 6, 3, 4)).astype(np.float32) * 2 + 1
    gamma = rng.standard_normal(6).astype(np.float32)
    beta = rng.standard_normal(6).astype(np.float32)
    gn = nn.GroupNorm(3, 6, gamma_init=Tensor(gamma), beta_init=Tensor(beta))
    assert [p.name for p in gn.get_parameters()] == ["gamma", "beta"]
    g = x.reshape(2, 3, -1).astype(np.float64)
    normed = ((g - g.mean(2, keepdims=True)) / np.sqrt(g.var(2, keepdims=True) + 1e-5)).reshape(x.shape)
    expected = normed * gamma.reshape(1, -1, 1, 1) + beta.reshape(1, -1, 1, 1)
    np.testing.assert_allclose(gn(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError):
        nn.GroupNorm(4, 6)
    with pytest.raises(ValueError):
        gn(Tensor(np.ones((2, 4, 3, 3), np.float32)))
    gn64 = nn.GroupNorm(2, 4, dtype=ms.float64)
    ref.check_param_grads(gn64, (Tensor(rng.standard_normal((2, 4, 3))),), rtol=1e-4, atol=1e-6)
