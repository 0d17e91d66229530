"""The BatchNorm kernels of ``mindspore_cpu._kernels`` (``_csrc/batchnorm.cpp``) against NumPy float64.

The references are the textbook formulas over the (N, C, S) view, in float64. Shapes cover both paths of
the C++ file (spatial planes, S > 1, and the row path of an (N, C) batch, S == 1), channel counts that do
and do not fill a column block, sizes above the OpenMP threshold, a constant channel (variance exactly
0), and data far from zero (a one-pass variance would lose every digit there). float32 results must
match to 1e-6 of the output's scale, float64 to 1e-12. Through the primitives, NCHW/NC/NCDHW (C++) must
agree with the NumPy path the CPU backend keeps for NHWC.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

k = pytest.importorskip("mindspore_cpu._kernels")

RNG = np.random.default_rng(11)
EPS = 1e-5


def _close(got, want, dtype):
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    tol = 1e-6 if dtype == np.float32 else 1e-12
    assert got.dtype == dtype and got.shape == want.shape
    assert np.max(np.abs(got.astype(np.float64) - want), initial=0.0) <= tol * scale


def ref_forward(x, scale, bias, mean=None, var=None):
    x = x.astype(np.float64)
    if mean is None:
        mean, var = x.mean(axis=(0, 2)), x.var(axis=(0, 2))
    mean, var = np.asarray(mean, np.float64), np.asarray(var, np.float64)
    rstd = 1 / np.sqrt(var + EPS)
    y = (x - mean[:, None]) * (rstd * scale)[:, None] + bias[:, None]
    return y, mean, var


def ref_backward(dy, x, scale, mean, var, training):
    dy, x = dy.astype(np.float64), x.astype(np.float64)
    rstd = 1 / np.sqrt(var.astype(np.float64) + EPS)[:, None]
    xhat = (x - mean.astype(np.float64)[:, None]) * rstd
    dbias, dscale = dy.sum(axis=(0, 2)), (dy * xhat).sum(axis=(0, 2))
    a = scale.astype(np.float64)[:, None] * rstd
    if not training:
        return a * dy, dscale, dbias
    n = x.shape[0] * x.shape[2]
    return a * (dy - dbias[:, None] / n - xhat * dscale[:, None] / n), dscale, dbias


def _data(shape, dtype, loc=0.0):
    x = (loc + RNG.standard_normal(shape)).astype(dtype)
    c = shape[1]
    return x, RNG.uniform(0.5, 2.0, c).astype(dtype), RNG.standard_normal(c).astype(dtype)


SHAPES = [
    (4, 3, 1),         # (N, C): the row path, a partial column block
    (64, 40, 1),       # the row path over several column blocks
    (2, 3, 5),         # planes shorter than a vector
    (3, 5, 49),        # 7x7 planes
    (2, 4, 2 * 3 * 5),  # NCDHW viewed as (N, C, D*H*W)
    (32, 16, 1024),    # the first BatchNorm of a CIFAR ResNet (one thread)
    (16, 16, 4096),    # above the OpenMP threshold (2^20 values)
    (8192, 136, 1),    # the row path above the OpenMP threshold, a partial last column block
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_training_forward(shape, dtype):
    x, scale, bias = _data(shape, dtype)
    y, mean, var = k.batch_norm_training(x, scale, bias, EPS)
    ry, rmean, rvar = ref_forward(x, scale, bias)
    _close(y, ry, dtype)
    _close(mean, rmean, dtype)
    _close(var, rvar, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_inference_forward(shape, dtype):
    x, scale, bias = _data(shape, dtype)
    mean = RNG.standard_normal(shape[1]).astype(dtype)
    var = RNG.uniform(0.2, 3.0, shape[1]).astype(dtype)
    y = k.batch_norm_inference(x, scale, bias, mean, var, EPS)
    _close(y, ref_forward(x, scale, bias, mean, var)[0], dtype)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", SHAPES)
def test_backward(shape, dtype, training):
    x, scale, _ = _data(shape, dtype)
    dy = RNG.standard_normal(shape).astype(dtype)
    if training:
        mean, var = x.mean(axis=(0, 2), dtype=np.float64).astype(dtype), x.var(axis=(0, 2)).astype(dtype)
    else:
        mean = RNG.standard_normal(shape[1]).astype(dtype)
        var = RNG.uniform(0.2, 3.0, shape[1]).astype(dtype)
    dx, dscale, dbias = k.batch_norm_grad(dy, x, scale, mean, var, EPS, training)
    rdx, rdscale, rdbias = ref_backward(dy, x, scale, mean, var, training)
    _close(dx, rdx, dtype)
    # the per-channel sums add up n = N * S values: float32 rounds each to 2^-24 of its magnitude
    _close(dscale, rdscale, dtype)
    _close(dbias, rdbias, dtype)


@pytest.mark.parametrize("shape", [(8, 3, 64), (50, 3, 1)])
def test_constant_channel_has_zero_variance(shape):
    x, scale, bias = _data(shape, np.float32)
    x[:, 1] = 3.7
    y, mean, var = k.batch_norm_training(x, scale, bias, EPS)
    assert mean[1] == np.float32(3.7) and var[1] == 0.0
    np.testing.assert_array_equal(y[:, 1], np.full_like(y[:, 1], bias[1]))
    dy = RNG.standard_normal(shape).astype(np.float32)
    dx, dscale, _ = k.batch_norm_grad(dy, x, scale, mean, var, EPS, True)
    assert dscale[1] == 0.0
    _close(dx, ref_backward(dy, x, scale, mean, var, True)[0], np.float32)


@pytest.mark.parametrize("shape", [(8, 4, 256), (300, 4, 1)])
def test_variance_far_from_zero_mean(shape):
    """x = 1e4 + noise of std 1e-2: sum x^2 / n - mean^2 would cancel every float32 digit."""
    x = (1e4 + 1e-2 * RNG.standard_normal(shape)).astype(np.float32)
    scale, bias = np.ones(shape[1], np.float32), np.zeros(shape[1], np.float32)
    y, _, var = k.batch_norm_training(x, scale, bias, 1e-12)
    want = x.astype(np.float64).var(axis=(0, 2))
    np.testing.assert_allclose(var, want, rtol=1e-6)
    assert abs(float(y.astype(np.float64).std()) - 1.0) < 1e-3


_THREADS_CHILD = """
import sys
import numpy as np
from mindspore_cpu import _kernels as k
d = np.load(sys.argv[1])
out = {}
for key in ("planes", "rows"):
    x, s, b, dy = d["x_" + key], d["s_" + key], d["b_" + key], d["dy_" + key]
    y, m, v = k.batch_norm_training(x, s, b, 1e-5)
    dx, ds, db = k.batch_norm_grad(dy, x, s, m, v, 1e-5, True)
    out.update({n + "_" + key: a for n, a in (("y", y), ("m", m), ("v", v), ("dx", dx), ("ds", ds), ("db", db))})
np.savez(sys.argv[2], **out)
"""


def test_results_do_not_depend_on_the_thread_count(tmp_path):
    data = {}
    for key, shape in (("planes", (16, 16, 4096)), ("rows", (8192, 136, 1))):
        x, s, b = _data(shape, np.float32)
        data.update({"x_" + key: x, "s_" + key: s, "b_" + key: b,
                     "dy_" + key: RNG.standard_normal(shape).astype(np.float32)})
    np.savez(tmp_path / "in.npz", **data)
    runs = []
    for threads in ("1", "2", "3"):
        out = tmp_path / f"out{threads}.npz"
        subprocess.run([sys.executable, "-c", _THREADS_CHILD, str(tmp_path / "in.npz"), str(out)],
                       env=dict(os.environ, OMP_NUM_THREADS=threads), check=True)
        runs.append(np.load(out))
    for name in runs[0].files:
        for other in runs[1:]:
            np.testing.assert_array_equal(runs[0][name], other[name], err_msg=name)


def test_bad_arguments_raise_value_error():
    x = np.zeros((2, 3, 4), np.float32)
    c = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="3-D"):
        k.batch_norm_training(x[0], c, c, EPS)
    with pytest.raises(ValueError, match="one value per channel"):
        k.batch_norm_training(x, np.ones(4, np.float32), c, EPS)
    with pytest.raises(ValueError, match="same dtype"):
        k.batch_norm_inference(x, c, c, c, c.astype(np.float64), EPS)
    with pytest.raises(ValueError, match="float32 and float64"):
        k.batch_norm_training(x.astype(np.float16), c.astype(np.float16), c.astype(np.float16), EPS)
    with pytest.raises(ValueError, match="C-contiguous"):
        k.batch_norm_training(np.zeros((2, 3, 8), np.float32)[..., ::2], c, c, EPS)
    with pytest.raises(ValueError, match="differ"):
        k.batch_norm_grad(np.zeros((2, 3, 5), np.float32), x, c, c, c, EPS, True)


# --- through the primitives: C++ (channel-first) against the NumPy path (NHWC) -------------------------
def _moving(c, dtype):
    ms = pytest.importorskip("mindspore")
    return (ms.Parameter(ms.Tensor(np.zeros(c, dtype)), name="m"),
            ms.Parameter(ms.Tensor(np.ones(c, dtype)), name="v"))


def _channels_last(a):
    return np.ascontiguousarray(np.moveaxis(a, 1, -1))


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("shape", [(6, 4), (2, 4, 5, 3), (2, 4, 2, 3, 3)])
def test_primitives_match_the_numpy_path(shape, training):
    """BatchNorm and BatchNormGrad on channel-first x (C++) and on the same data moved to channel-last
    (NHWC: NumPy): equal to float32 rounding, moving statistics included."""
    ms = pytest.importorskip("mindspore")
    from mindspore import ops
    from mindspore.ops._defs.nn import BatchNormGrad
    x, scale, bias = _data(shape, np.float32, loc=2.0)
    dy = RNG.standard_normal(shape).astype(np.float32)
    results = []
    for fmt, xs, dys in (("NCHW", x, dy), ("NHWC", _channels_last(x), _channels_last(dy))):
        m, v = _moving(shape[1], np.float32)
        outs = ops.BatchNorm(training, EPS, 0.1, fmt)(ms.Tensor(xs), ms.Tensor(scale), ms.Tensor(bias), m, v)
        grads = BatchNormGrad(training, EPS, fmt)(ms.Tensor(dys), ms.Tensor(xs), ms.Tensor(scale), outs[3], outs[4],
                                                  outs[2])
        y, dx = outs[0].asnumpy(), grads[0].asnumpy()
        if fmt == "NHWC":
            y, dx = np.moveaxis(y, -1, 1), np.moveaxis(dx, -1, 1)
        results.append([y, dx] + [o.asnumpy() for o in outs[1:]] + [g.asnumpy() for g in grads[1:]] +
                       [m.asnumpy(), v.asnumpy()])
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=2e-6 * max(1.0, float(np.max(np.abs(want)))))


def test_float16_input_computes_in_float32():
    ms = pytest.importorskip("mindspore")
    from mindspore import ops
    x, scale, bias = _data((4, 3, 2, 2), np.float32)
    m, v = _moving(3, np.float32)
    outs = ops.BatchNorm(is_training=True)(ms.Tensor(x.astype(np.float16)), ms.Tensor(scale), ms.Tensor(bias), m, v)
    assert outs[0].dtype == ms.float16 and outs[1].dtype == ms.float32
    ry, rmean, _ = ref_forward(x.astype(np.float16).reshape(4, 3, 4), scale, bias)
    np.testing.assert_allclose(outs[0].asnumpy().reshape(4, 3, 4), ry, atol=2e-3 * np.max(np.abs(ry)))
    np.testing.assert_allclose(outs[1].asnumpy(), rmean, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("shape", [(4, 3, 10), (6, 5, 1)], ids=["planes", "rows"])
def test_relu_is_applied_in_the_write_pass(shape):
    """relu=True gives exactly fmax(y, 0) of the plain kernel (NaN becomes 0, as MindSpore's ReLU makes it), in
    training and inference."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal(shape).astype(np.float32)
    x[0, 1, 0] = np.nan                                   # channel 1: NaN statistics, NaN outputs
    scale, bias = rng.standard_normal(shape[1]).astype(np.float32), rng.standard_normal(shape[1]).astype(np.float32)
    zero = np.zeros((), np.float32)
    y, mean, var = k.batch_norm_training(x, scale, bias, 1e-5)
    yr, mean_r, var_r = k.batch_norm_training(x, scale, bias, 1e-5, True)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(yr, np.fmax(y, zero))
    np.testing.assert_array_equal(mean_r, mean)
    np.testing.assert_array_equal(var_r, var)
    assert np.isnan(y[:, 1]).all() and (yr[:, 1] == 0).all() and (yr == 0).any()
    m, v = np.abs(mean) + 0.5, np.abs(var) + 0.5
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(k.batch_norm_inference(x, scale, bias, m, v, 1e-5, True),
                                      np.fmax(k.batch_norm_inference(x, scale, bias, m, v, 1e-5), zero))
