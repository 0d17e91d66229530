"""Pooling layers against a NumPy sliding-window reference: MindSpore's defaults (kernel 1, stride 1, 'valid'),
'same' padding, 'pad' mode with indices / ceil_mode / count_include_pad / divisor_override, unbatched inputs,
adaptive pools (MindSpore's 1-D window rule), gradients and errors."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _nn_ref as ref  # noqa: E402

pytestmark = pytest.mark.both_modes


def _x(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def test_pool_defaults_are_identity_windows():
    x = _x((2, 3, 5, 4))
    np.testing.assert_array_equal(nn.MaxPool2d()(Tensor(x)).asnumpy(), x)
    np.testing.assert_allclose(nn.AvgPool2d()(Tensor(x)).asnumpy(), x, rtol=1e-6)
    pool = nn.MaxPool2d()
    assert pool.pad_mode == "VALID" and pool.kernel_size == (1, 1) and pool.stride == (1, 1)


@pytest.mark.parametrize("kernel,stride,mode", [(2, 2, "valid"), (3, 1, "valid"), (3, 2, "same"), ((2, 3), (1, 2), "same"),
                                                (2, 2, "SAME")])
def test_maxpool2d_and_avgpool2d(kernel, stride, mode):
    x = _x((2, 3, 7, 6), 1)
    k = (kernel,) * 2 if isinstance(kernel, int) else kernel
    s = (stride,) * 2 if isinstance(stride, int) else stride
    if mode.lower() == "same":
        pads = [ref.same_pads(7, k[0], s[0]), ref.same_pads(6, k[1], s[1])]
    else:
        pads = [(0, 0), (0, 0)]
    maxed = nn.MaxPool2d(kernel, stride, mode)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(maxed, ref.pool_nd(x, k, s, pads, "max"), rtol=1e-6)
    if mode.lower() == "valid":
        avg = nn.AvgPool2d(kernel, stride, mode)(Tensor(x)).asnumpy()
        np.testing.assert_allclose(avg, ref.pool_nd(x, k, s, pads, "avg"), rtol=1e-5, atol=1e-6)


def test_avgpool2d_same_excludes_padding():
    x = _x((1, 2, 5, 5), 2)
    out = nn.AvgPool2d(2, 2, "same")(Tensor(x)).asnumpy()
    pads = [ref.same_pads(5, 2, 2)] * 2
    np.testing.assert_allclose(out, ref.pool_nd(x, (2, 2), (2, 2), pads, "avg", count_include_pad=False),
                               rtol=1e-5, atol=1e-6)


def test_maxpool2d_pad_mode_indices_dilation_ceil():
    x = _x((2, 2, 7, 8), 3)
    pool = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1, dilation=(1, 2), return_indices=True, ceil_mode=True)
    out, idx = pool(Tensor(x))
    expected = ref.pool_nd(x, (3, 3), (2, 2), [(1, 1), (1, 1)], "max", dilation=(1, 2), ceil_mode=True)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    assert idx.dtype == ms.int64 and idx.shape == out.shape
    # the argmax is a flat index into each H * W plane that holds the maximum
    planes = x.reshape(2, 2, -1)
    picked = np.take_along_axis(planes, idx.asnumpy().reshape(2, 2, -1), axis=2).reshape(out.shape)
    np.testing.assert_array_equal(picked, out.asnumpy())
    plain = nn.MaxPool2d(3, 2, pad_mode="pad", padding=(1, 0))(Tensor(x))
    assert not isinstance(plain, tuple)
    np.testing.assert_allclose(plain.asnumpy(), ref.pool_nd(x, (3, 3), (2, 2), [(1, 1), (0, 0)], "max"), rtol=1e-6)


def test_avgpool2d_pad_options():
    x = _x((2, 2, 7, 6), 4)
    for kwargs, divisor_kw in [({"padding": 1}, {}), ({"padding": 1, "count_include_pad": False},
                                                      {"count_include_pad": False}),
                               ({"padding": (1, 0), "divisor_override": 5}, {"divisor": 5})]:
        pool = nn.AvgPool2d(3, 2, pad_mode="pad", **kwargs)
        pad = kwargs["padding"]
        pads = [(pad, pad)] * 2 if isinstance(pad, int) else [(pad[0], pad[0]), (pad[1], pad[1])]
        np.testing.assert_allclose(pool(Tensor(x)).asnumpy(), ref.pool_nd(x, (3, 3), (2, 2), pads, "avg", **divisor_kw),
                                   rtol=1e-5, atol=1e-6)
    ceil = nn.AvgPool2d(2, 2, pad_mode="pad", ceil_mode=True)(Tensor(x[:, :, :5, :5])).asnumpy()
    assert ceil.shape == (2, 2, 3, 3)
    np.testing.assert_allclose(ceil, ref.pool_nd(x[:, :, :5, :5], (2, 2), (2, 2), [(0, 0)] * 2, "avg", ceil_mode=True),
                               rtol=1e-5, atol=1e-6)


def test_unbatched_inputs():
    x = _x((3, 6, 6), 5)
    out = nn.MaxPool2d(2, 2)(Tensor(x))
    assert out.shape == (3, 3, 3)
    np.testing.assert_allclose(out.asnumpy(), ref.pool_nd(x, (2, 2), (2, 2), [(0, 0)] * 2, "max"), rtol=1e-6)
    assert nn.AvgPool2d(2, 2)(Tensor(x)).shape == (3, 3, 3)
    assert nn.MaxPool1d(2, 2)(Tensor(x[0])).shape == (6, 3)
    assert nn.AvgPool3d(2, 2)(Tensor(_x((2, 4, 4, 4)))).shape == (2, 2, 2, 2)
    vals, idx = nn.MaxPool2d(2, 2, pad_mode="pad", return_indices=True)(Tensor(x))
    assert vals.shape == idx.shape == (3, 3, 3)


def test_pool1d():
    x = _x((2, 3, 11), 6)
    np.testing.assert_allclose(nn.MaxPool1d(3, 2)(Tensor(x)).asnumpy(), ref.pool_nd(x, (3,), (2,), [(0, 0)], "max"),
                               rtol=1e-6)
    np.testing.assert_allclose(nn.MaxPool1d(3, 2, "same")(Tensor(x)).asnumpy(),
                               ref.pool_nd(x, (3,), (2,), [ref.same_pads(11, 3, 2)], "max"), rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool1d(3, 2)(Tensor(x)).asnumpy(), ref.pool_nd(x, (3,), (2,), [(0, 0)], "avg"),
                               rtol=1e-5, atol=1e-6)
    padded = nn.AvgPool1d(4, 3, pad_mode="pad", padding=2, count_include_pad=False)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(padded, ref.pool_nd(x, (4,), (3,), [(2, 2)], "avg", count_include_pad=False),
                               rtol=1e-5, atol=1e-6)
    vals, idx = nn.MaxPool1d(3, 2, pad_mode="pad", padding=1, return_indices=True)(Tensor(x))
    np.testing.assert_allclose(vals.asnumpy(), ref.pool_nd(x, (3,), (2,), [(1, 1)], "max"), rtol=1e-6)
    np.testing.assert_array_equal(np.take_along_axis(x, idx.asnumpy(), 2), vals.asnumpy())
    # MindSpore's shortcut: a window covering the whole input is one mean, whatever the pad_mode
    assert nn.AvgPool1d(11, 1, "same")(Tensor(x)).shape == (2, 3, 1)
    with pytest.raises(TypeError):
        nn.MaxPool1d((2,), 2)


def test_pool3d():
    x = _x((1, 2, 5, 6, 4), 7)
    np.testing.assert_allclose(nn.MaxPool3d(2, 2)(Tensor(x)).asnumpy(),
                               ref.pool_nd(x, (2, 2, 2), (2, 2, 2), [(0, 0)] * 3, "max"), rtol=1e-6)
    np.testing.assert_allclose(nn.AvgPool3d((2, 3, 2), (1, 2, 2))(Tensor(x)).asnumpy(),
                               ref.pool_nd(x, (2, 3, 2), (1, 2, 2), [(0, 0)] * 3, "avg"), rtol=1e-5, atol=1e-6)
    same = nn.MaxPool3d(3, 2, "same")(Tensor(x)).asnumpy()
    pads = [ref.same_pads(n, 3, 2) for n in (5, 6, 4)]
    np.testing.assert_allclose(same, ref.pool_nd(x, (3, 3, 3), (2, 2, 2), pads, "max"), rtol=1e-6)
    vals, idx = nn.MaxPool3d(3, 2, pad_mode="pad", padding=1, return_indices=True)(Tensor(x))
    assert idx.shape == vals.shape and idx.dtype == ms.int64
    np.testing.assert_allclose(vals.asnumpy(), ref.pool_nd(x, (3,) * 3, (2,) * 3, [(1, 1)] * 3, "max"), rtol=1e-6)
    avg = nn.AvgPool3d(3, 2, pad_mode="pad", padding=(1, 0, 1), divisor_override=4)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(avg, ref.pool_nd(x, (3,) * 3, (2,) * 3, [(1, 1), (0, 0), (1, 1)], "avg", divisor=4),
                               rtol=1e-5, atol=1e-6)


def test_pool_errors():
    with pytest.raises(ValueError):
        nn.MaxPool2d(2, 2, padding=1)                 # padding needs pad_mode='pad'
    with pytest.raises(ValueError):
        nn.MaxPool2d(2, 2, return_indices=True)
    with pytest.raises(ValueError):
        nn.MaxPool2d(2, 2, pad_mode="full")
    with pytest.raises(ValueError):
        nn.MaxPool2d(0)
    with pytest.raises(TypeError):
        nn.MaxPool2d(2.0)
    with pytest.raises(ValueError):
        nn.AvgPool2d(2, padding=1)
    with pytest.raises(ValueError):
        nn.AvgPool2d(2, pad_mode="pad", divisor_override=0)
    with pytest.raises(ValueError):
        nn.MaxPool3d(2, dilation=2)
    with pytest.raises(ValueError):
        nn.MaxPool2d(2, data_format="NHWC")
    with pytest.raises(ValueError):
        nn.MaxPool2d(2)(Tensor(np.ones((2, 2), np.float32)))


# --- adaptive -----------------------------------------------------------------------------------
@pytest.mark.parametrize("out", [(2, 3), 3, (None, 2), (7, 1)])
def test_adaptive_2d(out):
    x = _x((2, 3, 7, 9), 8)
    size = (out, out) if isinstance(out, int) else tuple(7 if o is None and i == 0 else 9 if o is None else o
                                                         for i, o in enumerate(out))
    np.testing.assert_allclose(nn.AdaptiveAvgPool2d(out)(Tensor(x)).asnumpy(), ref.adaptive_pool(x, size, "avg"),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveMaxPool2d(out)(Tensor(x)).asnumpy(), ref.adaptive_pool(x, size, "max"),
                               rtol=1e-6)


def test_adaptive_max_2d_indices_and_unbatched():
    x = _x((3, 6, 5), 9)
    vals, idx = nn.AdaptiveMaxPool2d(2, return_indices=True)(Tensor(x))
    np.testing.assert_allclose(vals.asnumpy(), ref.adaptive_pool(x, (2, 2), "max"), rtol=1e-6)
    picked = np.take_along_axis(x.reshape(3, -1), idx.asnumpy().reshape(3, -1), 1).reshape(vals.shape)
    np.testing.assert_array_equal(picked, vals.asnumpy())
    assert nn.AdaptiveAvgPool2d((2, 2))(Tensor(x)).shape == (3, 2, 2)


def test_adaptive_1d_uses_mindspore_window_rule():
    x = _x((2, 3, 12), 10)
    np.testing.assert_allclose(nn.AdaptiveAvgPool1d(4)(Tensor(x)).asnumpy(), ref.adaptive_pool(x, (4,), "avg"),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveMaxPool1d(3)(Tensor(x)).asnumpy(), ref.adaptive_pool(x, (3,), "max"),
                               rtol=1e-6)
    # L = 10, out = 4: stride 10 // 4 = 2, kernel 10 - 3 * 2 = 4 (not the floor/ceil bins)
    y = _x((1, 2, 10), 11)
    expected = np.stack([y[..., 2 * i:2 * i + 4].mean(-1) for i in range(4)], -1)
    np.testing.assert_allclose(nn.AdaptiveAvgPool1d(4)(Tensor(y)).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError):
        nn.AdaptiveAvgPool1d(2)(Tensor(np.ones((1, 2, 4), np.float64)))
    with pytest.raises(ValueError):
        nn.AdaptiveAvgPool1d(0)
    with pytest.raises(ValueError):
        nn.AdaptiveMaxPool1d(5)(Tensor(np.ones((1, 2, 4), np.float32)))


def test_adaptive_avg_3d():
    x = _x((2, 2, 5, 7, 6), 12)
    np.testing.assert_allclose(nn.AdaptiveAvgPool3d((2, 3, 4))(Tensor(x)).asnumpy(),
                               ref.adaptive_pool(x, (2, 3, 4), "avg"), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveAvgPool3d((None, 2, None))(Tensor(x[0])).asnumpy(),
                               ref.adaptive_pool(x[0], (5, 2, 6), "avg"), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(nn.AdaptiveAvgPool3d(3)(Tensor(x)).asnumpy(), ref.adaptive_pool(x, (3, 3, 3), "avg"),
                               rtol=1e-5, atol=1e-6)


def test_pool_gradients():
    x = _x((1, 2, 6, 6), 13)
    g = _x((1, 2, 3, 3), 14)
    dx = ms.grad(lambda v: (nn.MaxPool2d(2, 2)(v) * Tensor(g)).sum())(Tensor(x)).asnumpy()
    # each 2x2 window sends its gradient to its maximum
    win = x.reshape(1, 2, 3, 2, 3, 2).transpose(0, 1, 2, 4, 3, 5).reshape(1, 2, 3, 3, 4)
    arg = win.argmax(-1)
    expected = np.zeros_like(win)
    np.put_along_axis(expected, arg[..., None], g[..., None], -1)
    expected = expected.reshape(1, 2, 3, 3, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(x.shape)
    np.testing.assert_allclose(dx, expected, rtol=1e-6)
    da = ms.grad(lambda v: (nn.AvgPool2d(2, 2)(v) * Tensor(g)).sum())(Tensor(x)).asnumpy()
    np.testing.assert_allclose(da, np.repeat(np.repeat(g, 2, 2), 2, 3) / 4, rtol=1e-6)
    dad = ms.grad(lambda v: nn.AdaptiveAvgPool1d(3)(v).sum())(Tensor(x[0])).asnumpy()
    np.testing.assert_allclose(dad, np.full(x[0].shape, 0.5), rtol=1e-6)
