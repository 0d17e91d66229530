"""Convolutions with few output positions run as matrix products (kernels/conv.py, ``few_positions``): equal to
the direct C++ kernels (which handle every geometry) for forward, data and filter gradients, over strides,
dilations, padding, 1-D/2-D/3-D, float32/float64 and the fused epilogue."""
import numpy as np
import pytest

from mindspore_cpu.kernels import conv
from mindspore_cpu.kernels._native import _kernels

# (N, C, O, input size, kernel, stride, padding before, dilation): all with at most FEW_POSITIONS outputs
GEOMETRIES = [
    (2, 16, 24, (1, 7, 7), (1, 7, 7), (1, 1, 1), (0, 0, 0), (1, 1, 1)),     # fc6 as a convolution: 1 position
    (2, 8, 12, (1, 1, 1), (1, 7, 7), (1, 1, 1), (0, 3, 3), (1, 1, 1)),     # 'same' 7x7 over a 1x1 map
    (3, 8, 5, (1, 2, 2), (1, 3, 3), (1, 1, 1), (0, 1, 1), (1, 1, 1)),      # 3x3 'same' over 2x2: 4 positions
    (2, 4, 6, (1, 9, 8), (1, 3, 2), (1, 3, 4), (0, 1, 0), (1, 1, 2)),      # strided, dilated, uneven
    (2, 3, 4, (4, 4, 4), (2, 3, 3), (2, 2, 2), (1, 1, 0), (1, 1, 1)),      # 3-D
    (1, 5, 7, (1, 1, 12), (1, 1, 5), (1, 1, 3), (0, 0, 2), (1, 1, 1)),     # 1-D
    (2, 4, 4, (1, 4, 4), (1, 4, 4), (1, 1, 1), (0, 0, 0), (1, 1, 1)),      # a DCGAN generator's first layer (as dx)
]


def _out(size, k, s, b, d):
    return tuple((n + 2 * pb - dd * (kk - 1) - 1) // ss + 1 for n, kk, ss, pb, dd in zip(size, k, s, b, d))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("geo", GEOMETRIES)
def test_few_positions_equal_the_direct_kernels(geo, dtype):
    n, c, o, size, k, s, b, d = geo
    out = _out(size, k, s, b, d)
    assert conv.few_positions(1, out)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, c) + size).astype(dtype)
    w = rng.standard_normal((o, c) + k).astype(dtype)
    dy = rng.standard_normal((n, o) + out).astype(dtype)
    bias = rng.standard_normal(o).astype(dtype)
    res = rng.standard_normal((n, o) + out).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for epi in [(None, False, None), (bias, True, res), (None, True, None), (bias, False, None)]:
        want = _kernels.conv3d_forward(x, w, s, b, d, out, 1, *epi)
        np.testing.assert_allclose(conv._forward_few(x, w, s, b, d, out, *epi), want, rtol=tol, atol=tol)
    np.testing.assert_allclose(conv._backward_input_few(dy, w, size, s, b, d),
                               _kernels.conv3d_backward_input(dy, w, size, s, b, d, 1), rtol=tol, atol=tol)
    np.testing.assert_allclose(conv._backward_filter_few(dy, x, k, s, b, d),
                               _kernels.conv3d_backward_filter(dy, x, k, s, b, d, 1), rtol=tol, atol=tol)


def test_few_positions_relu_maps_nan_to_zero_as_the_fused_kernel():
    x = np.full((1, 2, 1, 1, 1), np.nan, np.float32)
    w = np.ones((3, 2, 1, 1, 1), np.float32)
    one = (1, 1, 1)
    got = conv._forward_few(x, w, one, (0, 0, 0), one, one, None, True, None)
    want = _kernels.conv3d_forward(x, w, one, (0, 0, 0), one, one, 1, None, True, None)
    np.testing.assert_array_equal(got, want)
    assert (got == 0).all()


def test_which_convolutions_take_the_product():
    assert conv.few_positions(1, (1, 4, 4)) and conv.few_positions(1, (1,))
    assert not conv.few_positions(1, (1, 5, 4))       # 20 positions: the direct kernel
    assert not conv.few_positions(2, (1, 1, 1))       # groups keep the direct (and depthwise) kernels


def test_conv2d_and_its_gradients_through_the_op():
    import mindspore as ms
    from mindspore import nn
    rng = np.random.default_rng(1)
    net = nn.Conv2d(6, 10, 7, pad_mode="same", has_bias=True)   # over a 1x1 map: one position
    x = ms.Tensor(rng.standard_normal((3, 6, 1, 1)).astype(np.float32))
    y = net(x)
    w = net.weight.asnumpy()
    want = np.einsum("nc,oc->no", x.asnumpy()[:, :, 0, 0], w[:, :, 3, 3]) + net.bias.asnumpy()
    np.testing.assert_allclose(y.asnumpy()[:, :, 0, 0], want, rtol=1e-5, atol=1e-5)
    gx, gw = ms.grad(lambda x: net(x).sum(), grad_position=0, weights=net.trainable_params())(x)
    np.testing.assert_allclose(gx.asnumpy()[:, :, 0, 0], np.broadcast_to(w[:, :, 3, 3].sum(0), (3, 6)), rtol=1e-5)
    want_gw = np.zeros_like(w)
    want_gw[:, :, 3, 3] = x.asnumpy()[:, :, 0, 0].sum(0)
    np.testing.assert_allclose(gw[0].asnumpy(), want_gw, rtol=1e-5, atol=1e-6)
