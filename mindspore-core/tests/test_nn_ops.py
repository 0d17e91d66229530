"""nn ops beyond the conformance table: dropout statistics and seeding, BatchNorm's in-place moving
statistics, LayerNorm's statistics outputs and its gradient's epsilon, second-order gradients of the
normalisation/softmax bprops, and MindSpore-style errors."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, ops


def _t(a, dtype=np.float32):
    return Tensor(np.asarray(a, dtype))


# --- dropout ------------------------------------------------------------------------------------
@pytest.mark.parametrize("p", [0.1, 0.5, 0.8])
def test_dropout_statistics(p):
    n = 200_000
    x = np.random.default_rng(0).uniform(1.0, 2.0, n).astype(np.float32)
    out = ops.dropout(_t(x), p=p).asnumpy()
    dropped = out == 0
    # the dropped fraction is binomial(n, p): 5 standard deviations
    assert abs(dropped.mean() - p) < 5 * np.sqrt(p * (1 - p) / n)
    np.testing.assert_allclose(out[~dropped], x[~dropped] / (1 - p), rtol=1e-6)
    # survivors' scaling keeps the expectation
    assert abs(out.mean() / x.mean() - 1) < 0.02


def test_dropout_primitive_mask_and_output():
    x = np.random.default_rng(1).uniform(0.5, 1.5, (64, 50)).astype(np.float32)
    out, mask = ops.Dropout(keep_prob=0.7)(_t(x))
    assert out.dtype == ms.float32 and mask.dtype == ms.float32
    assert mask.shape == (64, 50)
    m = mask.asnumpy()
    assert set(np.unique(m)) <= {0.0, 1.0}
    np.testing.assert_allclose(out.asnumpy(), x * m / 0.7, rtol=1e-6)
    assert abs(m.mean() - 0.7) < 0.05


def test_dropout_gradient_uses_the_same_mask():
    x = _t(np.ones((20, 30)))
    prim = ops.Dropout(keep_prob=0.4)
    grads = ms.grad(lambda a: prim(a)[0].sum())(x).asnumpy()
    assert set(np.round(np.unique(grads), 5)) <= {0.0, 2.5}
    assert 0 < (grads == 0).mean() < 1


def test_dropout_stream_advances_and_set_seed_reproduces():
    x = _t(np.ones(1000))
    ms.set_seed(123)
    a1, a2 = ops.dropout(x).asnumpy(), ops.dropout(x).asnumpy()
    assert not np.array_equal(a1, a2)
    ms.set_seed(123)
    b1, b2 = ops.dropout(x).asnumpy(), ops.dropout(x).asnumpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)


def test_dropout_identity_cases():
    x = _t(np.arange(6.0))
    assert ops.dropout(x, p=0.5, training=False) is x
    assert ops.dropout(x, p=0.0) is x
    np.testing.assert_array_equal(ops.dropout(x, p=1.0).asnumpy(), np.zeros(6))


def test_dropout2d_drops_whole_channels():
    x = np.random.default_rng(2).uniform(1.0, 2.0, (8, 16, 5, 5)).astype(np.float32)
    out = ops.dropout2d(_t(x), p=0.5).asnumpy()
    zero_planes = (out == 0).all(axis=(2, 3))
    kept = ~zero_planes
    assert zero_planes.any() and kept.any()
    np.testing.assert_allclose(out[kept], x[kept] * 2.0, rtol=1e-6)


def test_dropout_errors():
    x = _t(np.ones(3))
    with pytest.raises(ValueError):
        ops.dropout(x, p=1.5)
    with pytest.raises(TypeError):
        ops.dropout(x, p="0.5")
    with pytest.raises(ValueError):
        ops.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError):
        ops.Dropout(keep_prob=0.5)(_t([1, 2], np.int32))


# --- BatchNorm moving statistics --------------------------------------------------------------
def _bn_inputs(c=3):
    rng = np.random.default_rng(3)
    x = rng.normal(1.0, 2.0, (4, c, 3, 3)).astype(np.float32)
    scale = Parameter(_t(np.ones(c)), name="gamma")
    bias = Parameter(_t(np.zeros(c)), name="beta")
    mean = Parameter(_t(np.zeros(c)), name="moving_mean", requires_grad=False)
    var = Parameter(_t(np.ones(c)), name="moving_variance", requires_grad=False)
    return x, scale, bias, mean, var


def test_batch_norm_training_updates_moving_statistics_in_place():
    x, scale, bias, mean, var = _bn_inputs()
    y, bm, bv, _, _ = ops.BatchNorm(is_training=True, momentum=0.1)(_t(x), scale, bias, mean, var)
    axes = (0, 2, 3)
    np.testing.assert_allclose(bm.asnumpy(), x.mean(axes), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(bv.asnumpy(), x.var(axes), rtol=1e-5)
    np.testing.assert_allclose(mean.asnumpy(), 0.1 * x.mean(axes), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), 0.9 + 0.1 * x.var(axes, ddof=1), rtol=1e-5)
    # normalised with the biased batch variance
    yn = y.asnumpy()
    np.testing.assert_allclose(yn.mean(axes), 0, atol=1e-5)
    np.testing.assert_allclose(yn.var(axes), x.var(axes) / (x.var(axes) + 1e-5), rtol=1e-4)


def test_batch_norm_inference_leaves_moving_statistics():
    x, scale, bias, mean, var = _bn_inputs()
    before = mean.asnumpy().copy(), var.asnumpy().copy()
    y = ops.batch_norm(_t(x), mean, var, scale, bias, training=False)
    np.testing.assert_array_equal(mean.asnumpy(), before[0])
    np.testing.assert_array_equal(var.asnumpy(), before[1])
    np.testing.assert_allclose(y.asnumpy(), x / np.sqrt(1 + 1e-5), rtol=1e-5)


def test_batch_norm_repeated_training_steps_converge_to_batch_statistics():
    x, scale, bias, mean, var = _bn_inputs()
    prim = ops.BatchNorm(is_training=True, momentum=0.5)
    for _ in range(40):
        prim(_t(x), scale, bias, mean, var)
    np.testing.assert_allclose(mean.asnumpy(), x.mean((0, 2, 3)), rtol=1e-4)
    np.testing.assert_allclose(var.asnumpy(), x.var((0, 2, 3), ddof=1), rtol=1e-4)


# --- LayerNorm ----------------------------------------------------------------------------------
# As MindSpore 2.10 (its CPU build): LayerNorm returns (y, mean, variance), the statistics float32 for float16
# input; LayerNormGrad(begin_norm_axis, begin_params_axis) reads its 'epsilon' attribute, 1e-7 when not given (the
# CPU kernel's default, measured: tests/ops/test_layer_norm_softmax_cpu_2_10.py), and
# LayerNorm's bprop gives it LayerNorm's own.
@pytest.mark.parametrize("dtype,stat_dtype,tol", [(np.float16, ms.float32, 1e-6), (np.float32, ms.float32, 1e-6),
                                                  (np.float64, ms.float64, 1e-13)])
def test_layer_norm_returns_the_mean_and_the_variance(dtype, stat_dtype, tol):
    rng = np.random.default_rng(12)
    x = (rng.normal(size=(2, 3, 4)) * 3 + 1).astype(dtype)
    gamma, beta = rng.uniform(0.5, 2, (3, 4)).astype(dtype), rng.normal(size=(3, 4)).astype(dtype)
    y, mean, var = ops.LayerNorm(1, 1, 1e-5)(_t(x, dtype), _t(gamma, dtype), _t(beta, dtype))
    assert y.dtype == _t(x, dtype).dtype and mean.dtype == stat_dtype and var.dtype == stat_dtype
    assert y.shape == (2, 3, 4) and mean.shape == var.shape == (2, 1, 1)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(mean.asnumpy(), x64.mean(axis=(1, 2), keepdims=True), rtol=tol, atol=tol)
    np.testing.assert_allclose(var.asnumpy(), x64.var(axis=(1, 2), keepdims=True), rtol=tol)


def test_layer_norm_grad_takes_the_variance_and_the_forwards_epsilon():
    from mindspore.ops._defs.nn import LayerNormGrad
    assert LayerNormGrad().attrs == {"begin_norm_axis": 1, "begin_params_axis": 1, "epsilon": 1e-7}
    rng = np.random.default_rng(13)
    x, dy = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    gamma, beta = rng.uniform(0.5, 2, 5), rng.normal(size=5)
    mean, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)

    def dx_oracle(eps):
        rstd = 1 / np.sqrt(var + eps)
        xhat, g = (x - mean) * rstd, dy * gamma
        return rstd * (g - g.mean(1, keepdims=True) - xhat * (g * xhat).mean(1, keepdims=True))

    # an epsilon as large as the variance: the gradient of the forward's, not of 1e-7
    ln = ops.LayerNorm(1, 1, 1.0)
    dx = ms.grad(lambda a: (ln(a, _t(gamma, np.float64), _t(beta, np.float64))[0] * _t(dy, np.float64)).sum())(
        _t(x, np.float64))
    np.testing.assert_allclose(dx.asnumpy(), dx_oracle(1.0), rtol=1e-12, atol=1e-12)
    args = [_t(a, np.float64) for a in (x, dy, var, mean, gamma)]
    np.testing.assert_allclose(LayerNormGrad(1, 1)(*args)[0].asnumpy(), dx_oracle(1e-7), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(LayerNormGrad(1, 1, 1.0)(*args)[0].asnumpy(), dx_oracle(1.0), rtol=1e-12, atol=1e-12)


# --- second-order gradients -------------------------------------------------------------------
def _check_grad_of_grad(fn, *arrays, pos=0, eps=1e-6, rtol=1e-4, atol=1e-6, mode="pynative"):
    """d/dx sum(w * grad(fn)(x)) against central differences of the first gradient (the analytic side
    compiled by the GRAPH_MODE compiler when ``mode`` is "graph")."""
    arrays = [np.asarray(a, np.float64) for a in arrays]
    w = np.random.default_rng(4).uniform(0.5, 1.5, arrays[pos].shape)

    def first(*xs):
        return ms.grad(fn, grad_position=pos)(*xs)

    def second_objective(*xs):
        return (first(*xs) * Tensor(w)).sum()

    second = ms.grad(second_objective, grad_position=pos)
    analytic = (ms.jit(second) if mode == "graph" else second)(*[Tensor(a) for a in arrays]).asnumpy()
    numeric = np.zeros_like(arrays[pos])
    for idx in np.ndindex(arrays[pos].shape):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[pos][idx] += eps
        minus[pos][idx] -= eps
        hi = float(second_objective(*[Tensor(a) for a in plus]).asnumpy())
        lo = float(second_objective(*[Tensor(a) for a in minus]).asnumpy())
        numeric[idx] = (hi - lo) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol)


def _weights(shape, seed):
    return Tensor(np.random.default_rng(seed).uniform(0.5, 1.5, shape))


def test_softmax_grad_of_grad():
    w = _weights((3, 4), 5)
    _check_grad_of_grad(lambda x: (ops.softmax(x) * w).sum(), np.random.default_rng(6).normal(size=(3, 4)))


def test_log_softmax_grad_of_grad():
    w = _weights((3, 4), 7)
    _check_grad_of_grad(lambda x: (ops.log_softmax(x, 0) * w).sum(), np.random.default_rng(8).normal(size=(3, 4)))


def test_layer_norm_grad_of_grad():
    w = _weights((2, 5), 9)
    g = Tensor(np.linspace(0.5, 1.5, 5))
    b = Tensor(np.zeros(5))

    def f(x):
        y, mean, variance = ops.LayerNorm(1, 1, 1e-5)(x, g, b)
        return (y * w).sum() + (mean * variance).sum()

    _check_grad_of_grad(f, np.random.default_rng(10).normal(size=(2, 5)))


def test_batch_norm_training_grad_of_grad():
    w = _weights((4, 2, 2), 11)
    s, b = Tensor(np.array([1.5, 0.7])), Tensor(np.array([0.1, -0.2]))

    def f(x):
        m, v = Tensor(np.zeros(2)), Tensor(np.ones(2))
        return (ops.BatchNorm(is_training=True)(x, s, b, m, v)[0] * w).sum()

    _check_grad_of_grad(f, np.random.default_rng(12).normal(size=(4, 2, 2)), rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("pos", [0, 1])
def test_batch_norm_grad_of_grad_through_batch_norm_grad(pos, training, mode):
    """Second order through BatchNorm's bprop (BatchNormGrad and its own bprop), w.r.t. x and scale, with the
    statistics outputs used too, so that their cotangents reach the bprop."""
    w = _weights((3, 2, 2, 2), 15)
    b = Tensor(np.array([0.1, -0.2]))

    def f(x, s):
        m, v = Tensor(np.array([0.3, -0.1])), Tensor(np.array([0.8, 1.4]))
        y, bm, bv, _, _ = ops.BatchNorm(is_training=training)(x, s, b, m, v)
        return (y * w).sum() + (bm * bv).sum()

    rng = np.random.default_rng(16)
    _check_grad_of_grad(f, rng.normal(size=(3, 2, 2, 2)), np.array([1.5, 0.7]), pos=pos, rtol=1e-3, atol=1e-5,
                        mode=mode)


@pytest.mark.parametrize("name", ["sigmoid", "gelu_tanh", "mish", "softplus", "elu", "selu", "fast_gelu"])
def test_activation_grad_of_grad(name):
    fns = {
        "sigmoid": ops.sigmoid, "gelu_tanh": ops.GeLU(), "mish": ops.mish, "softplus": ops.Softplus(),
        "elu": ops.elu, "selu": ops.selu, "fast_gelu": ops.fast_gelu,
    }
    fn = fns[name]
    _check_grad_of_grad(lambda x: fn(x).sum(), np.array([-2.1, -0.7, 0.4, 1.3, 2.9]))


def test_resize_bilinear_grad_of_grad_is_linear():
    w = _weights((1, 1, 4, 5), 13)
    _check_grad_of_grad(lambda x: (ops.ResizeBilinearV2()(x, (4, 5)) * w * x.sum()).sum(),
                        np.random.default_rng(14).normal(size=(1, 1, 2, 3)))


# --- errors -----------------------------------------------------------------------------------
def test_errors_are_mindspore_style():
    x = _t(np.ones((2, 3)))
    with pytest.raises(ValueError, match="For 'Softmax'"):
        ops.Softmax(axis=2)(x)
    with pytest.raises(TypeError, match="For 'Sigmoid'"):
        ops.Sigmoid()(_t([1, 2], np.int32))
    with pytest.raises(ValueError, match="For 'LayerNorm'"):
        ops.LayerNorm()(x, _t(np.ones(2)), _t(np.zeros(3)))
    with pytest.raises(ValueError, match="For 'BiasAdd'"):
        ops.BiasAdd()(x, _t(np.ones(2)))
    with pytest.raises(ValueError, match="For 'BatchNorm'"):
        ops.BatchNorm()(x, *[_t(np.ones(2))] * 4)
    with pytest.raises(ValueError, match="For 'NLLLoss'"):
        ops.NLLLoss(reduction="avg")
    with pytest.raises(ValueError):
        ops.cross_entropy(x, Tensor(np.array([0, 1], np.int32)), reduction="avg")
    with pytest.raises(ValueError, match="For 'interpolate'"):
        ops.interpolate(_t(np.ones((1, 1, 2, 2))), size=(3, 3), scale_factor=2.0)
    with pytest.raises(ValueError, match="For 'ResizeNearestNeighbor'"):
        ops.ResizeNearestNeighbor((2, 2))(x)
    with pytest.raises(TypeError, match="For 'PReLU'"):
        ops.PReLU()(x, 0.25)


def test_nll_loss_out_of_range_label_is_an_error_not_a_crash():
    with pytest.raises(RuntimeError, match="NLLLoss"):
        ops.NLLLoss()(_t(np.zeros((2, 3))), Tensor(np.array([0, 5], np.int32)), _t(np.ones(3)))
