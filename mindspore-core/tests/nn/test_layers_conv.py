"""nn.Dense and the convolution layers against NumPy: parameters, default init, forward numerics (including
TensorFlow-style 'same' padding with the odd element at the bottom/right), gradients and errors."""
import math
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _nn_ref as ref  # noqa: E402

pytestmark = pytest.mark.both_modes


def _uniform_bound_ok(values, bound):
    """Values lie in [-bound, bound] and look uniform on it (mean ~0, std ~bound/sqrt(3))."""
    v = values.ravel().astype(np.float64)
    assert np.all(np.abs(v) <= bound * (1 + 1e-6))
    assert abs(v.mean()) < 0.1 * bound
    assert abs(v.std() - bound / math.sqrt(3)) < 0.1 * bound


# --- Dense ------------------------------------------------------------------------------------
def test_dense_parameters_and_default_init():
    ms.set_seed(1)
    net = nn.Dense(400, 120)
    names = [(n, p.name, tuple(p.shape), p.dtype, p.requires_grad) for n, p in net.parameters_and_names()]
    assert names == [("weight", "weight", (120, 400), ms.float32, True), ("bias", "bias", (120,), ms.float32, True)]
    _uniform_bound_ok(net.weight.asnumpy(), 1 / math.sqrt(400))
    _uniform_bound_ok(net.bias.asnumpy(), 1 / math.sqrt(400))
    assert not net.training


def test_dense_seeded_init_is_reproducible():
    ms.set_seed(7)
    a = nn.Dense(5, 3).weight.asnumpy()
    ms.set_seed(7)
    b = nn.Dense(5, 3).weight.asnumpy()
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("shape", [(4, 6), (2, 3, 6), (6,), (2, 2, 2, 6)])
def test_dense_forward_nd(shape):
    rng = np.random.default_rng(0)
    net = nn.Dense(6, 5, weight_init=Tensor(rng.standard_normal((5, 6)).astype(np.float32)),
                   bias_init=Tensor(rng.standard_normal(5).astype(np.float32)))
    x = rng.standard_normal(shape).astype(np.float32)
    out = net(Tensor(x))
    expected = x.astype(np.float64) @ net.weight.asnumpy().T.astype(np.float64) + net.bias.asnumpy()
    assert out.shape == shape[:-1] + (5,)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_dense_activation_by_name_and_cell_and_no_bias():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((3, 4)).astype(np.float32)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    lin = x @ w.T
    relu_net = nn.Dense(4, 3, weight_init=Tensor(w), has_bias=False, activation="relu")
    assert [n for n, _ in relu_net.parameters_and_names()] == ["weight"]
    assert relu_net.bias is None
    np.testing.assert_allclose(relu_net(Tensor(x)).asnumpy(), np.maximum(lin, 0), rtol=1e-5, atol=1e-6)
    tanh_net = nn.Dense(4, 3, weight_init=Tensor(w), has_bias=False, activation=nn.Tanh())
    np.testing.assert_allclose(tanh_net(Tensor(x)).asnumpy(), np.tanh(lin), rtol=1e-5, atol=1e-6)
    # an activation Cell is a child: it appears among the cells
    assert [n for n, _ in tanh_net.cells_and_names()] == ["", "activation"]


def test_dense_initializer_strings_and_dtype():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros", dtype=ms.float16)
    assert net.weight.dtype == ms.float16 and net.bias.dtype == ms.float16
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(net.bias.asnumpy(), np.zeros(2))


def test_dense_errors():
    with pytest.raises(TypeError):
        nn.Dense(3, 2, activation=3)
    with pytest.raises(KeyError):
        nn.Dense(3, 2, activation="no_such_activation")
    with pytest.raises(ValueError, match="weight init shape"):
        nn.Dense(3, 2, weight_init=Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(ValueError, match="bias init shape"):
        nn.Dense(3, 2, bias_init=Tensor(np.ones(3, np.float32)))
    with pytest.raises(TypeError):
        nn.Dense(3.0, 2)
    with pytest.raises(ValueError):
        nn.Dense(0, 2)
    with pytest.raises(TypeError):
        nn.Dense(3, 2, has_bias=1)


def test_dense_gradients_match_finite_differences():
    rng = np.random.default_rng(2)
    net = nn.Dense(4, 3, activation="tanh", dtype=ms.float64)
    x = Tensor(rng.standard_normal((2, 5, 4)))
    grads = ref.check_param_grads(net, (x,))
    assert set(grads) == {"weight", "bias"}


def test_dense_gradient_formula():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((3, 4)).astype(np.float32)
    net = nn.Dense(4, 3, weight_init=Tensor(w), bias_init="zeros")
    x = rng.standard_normal((5, 4)).astype(np.float32)
    g = rng.standard_normal((5, 3))
    grads = ref.param_grads(net, (Tensor(x),), g)
    np.testing.assert_allclose(grads["weight"], g.T @ x, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(grads["bias"], g.sum(0), rtol=1e-5, atol=1e-5)


# --- Conv2d -----------------------------------------------------------------------------------
def test_conv2d_defaults_and_parameters():
    ms.set_seed(3)
    net = nn.Conv2d(3, 8, 5)
    assert net.pad_mode == "same" and net.has_bias is False
    assert [(n, tuple(p.shape)) for n, p in net.parameters_and_names()] == [("weight", (8, 3, 5, 5))]
    _uniform_bound_ok(net.weight.asnumpy(), 1 / math.sqrt(3 * 25))
    biased = nn.Conv2d(4, 6, 3, group=2, has_bias=True)
    assert tuple(biased.weight.shape) == (6, 2, 3, 3)
    fan_in = 2 * 9
    assert np.all(np.abs(biased.bias.asnumpy()) <= 1 / math.sqrt(fan_in))
    assert np.abs(biased.bias.asnumpy()).max() > 0


@pytest.mark.parametrize("size,kernel,stride,dilation", [
    ((7, 8), 2, 1, 1),   # total padding 1: all of it at the bottom/right
    ((7, 7), 4, 1, 1),   # total padding 3: 1 top/left, 2 bottom/right
    ((9, 6), 3, 2, 1),
    ((8, 8), 3, 3, 1),
    ((10, 9), 3, 1, 2),
    ((5, 6), (2, 3), (2, 1), 1),
])
def test_conv2d_same_padding_matches_numpy(size, kernel, stride, dilation):
    rng = np.random.default_rng(0)
    k = (kernel, kernel) if isinstance(kernel, int) else kernel
    s = (stride, stride) if isinstance(stride, int) else stride
    net = nn.Conv2d(3, 4, kernel, stride=stride, dilation=dilation, has_bias=True)
    x = rng.standard_normal((2, 3) + size).astype(np.float32)
    pads = [ref.same_pads(size[i], k[i], s[i], dilation) for i in range(2)]
    expected = ref.conv_nd(x, net.weight.asnumpy(), s, pads, (dilation, dilation)) \
        + net.bias.asnumpy().reshape(1, -1, 1, 1)
    out = net(Tensor(x))
    assert out.shape == (2, 4) + tuple(-(-size[i] // s[i]) for i in range(2))
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_same_puts_odd_padding_bottom_right():
    x = np.zeros((1, 1, 3, 3), np.float32)
    x[0, 0, 0, 0] = 1.0
    w = np.zeros((1, 1, 2, 2), np.float32)
    w[0, 0, 0, 0] = 1.0   # output (i, j) reads input (i + top, j + left)
    out = nn.Conv2d(1, 1, 2, weight_init=Tensor(w))(Tensor(x)).asnumpy()
    # no padding before: the top-left input lands on the top-left output
    assert out[0, 0, 0, 0] == 1.0 and out.sum() == 1.0


@pytest.mark.parametrize("padding", [1, (1, 2, 0, 3), (2, 1)])
def test_conv2d_pad_mode(padding):
    rng = np.random.default_rng(1)
    net = nn.Conv2d(2, 3, 3, stride=2, pad_mode="pad", padding=padding, has_bias=True)
    x = rng.standard_normal((2, 2, 7, 6)).astype(np.float32)
    if isinstance(padding, int):
        pads = [(padding, padding)] * 2
    elif len(padding) == 2:
        pads = [(padding[0], padding[0]), (padding[1], padding[1])]
    else:
        pads = [(padding[0], padding[1]), (padding[2], padding[3])]
    expected = ref.conv_nd(x, net.weight.asnumpy(), (2, 2), pads) + net.bias.asnumpy().reshape(1, -1, 1, 1)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_valid_and_groups():
    rng = np.random.default_rng(2)
    net = nn.Conv2d(4, 6, 3, pad_mode="valid", group=2)
    x = rng.standard_normal((1, 4, 6, 5)).astype(np.float32)
    expected = ref.conv_nd(x, net.weight.asnumpy(), (1, 1), [(0, 0), (0, 0)], groups=2)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_errors():
    with pytest.raises(ValueError, match="padding"):
        nn.Conv2d(3, 4, 3, padding=1)   # pad_mode 'same' with padding
    with pytest.raises(ValueError):
        nn.Conv2d(3, 4, 3, pad_mode="full")
    with pytest.raises(ValueError, match="group"):
        nn.Conv2d(3, 4, 3, group=2)
    with pytest.raises(ValueError):
        nn.Conv2d(3, 4, 0)
    with pytest.raises(TypeError):
        nn.Conv2d(3, 4, 3, has_bias="yes")
    with pytest.raises(ValueError):
        nn.Conv2d(3, 4, 3, pad_mode="pad", padding=(1, 2, 3))
    net = nn.Conv2d(3, 4, 3)
    with pytest.raises(ValueError):
        net(Tensor(np.ones((1, 2, 5, 5), np.float32)))   # wrong channel count


def test_conv2d_gradients_match_finite_differences():
    rng = np.random.default_rng(4)
    net = nn.Conv2d(2, 3, 3, stride=2, has_bias=True, dtype=ms.float64)
    ref.check_param_grads(net, (Tensor(rng.standard_normal((2, 2, 5, 6))),))


# --- Conv1d / Conv3d --------------------------------------------------------------------------
def test_conv1d_weight_shape_and_numerics():
    rng = np.random.default_rng(5)
    net = nn.Conv1d(3, 4, 4, has_bias=True)
    assert tuple(net.weight.shape) == (4, 3, 1, 4)   # MindSpore 2.10 (and its checkpoints): (out, in, 1, k)
    x = rng.standard_normal((2, 3, 11)).astype(np.float32)
    expected = ref.conv_nd(x, net.weight.asnumpy()[:, :, 0], (1,), [ref.same_pads(11, 4, 1)]) \
        + net.bias.asnumpy().reshape(1, -1, 1)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    padded = nn.Conv1d(3, 2, 3, stride=2, pad_mode="pad", padding=(1, 2), dilation=2)
    expected = ref.conv_nd(x, padded.weight.asnumpy()[:, :, 0], (2,), [(1, 2)], (2,))
    np.testing.assert_allclose(padded(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    with pytest.raises(TypeError):
        nn.Conv1d(3, 4, (3,))
    w = rng.standard_normal((2, 3, 3)).astype(np.float32)   # a Tensor initializer is (out, in, k), as in MindSpore
    np.testing.assert_array_equal(nn.Conv1d(3, 2, 3, weight_init=Tensor(w)).weight.asnumpy(), w[:, :, None])
    with pytest.raises(ValueError, match="'weight_init_shape' must be int and must = 3"):
        nn.Conv1d(3, 2, 3, weight_init=Tensor(w[:, :, None]))


def test_conv1d_gradients():
    rng = np.random.default_rng(6)
    net = nn.Conv1d(2, 3, 3, has_bias=True, dtype=ms.float64)
    ref.check_param_grads(net, (Tensor(rng.standard_normal((2, 2, 7))),))


def test_conv3d_numerics():
    rng = np.random.default_rng(7)
    net = nn.Conv3d(2, 3, (2, 3, 2), has_bias=True)
    assert tuple(net.weight.shape) == (3, 2, 2, 3, 2)
    x = rng.standard_normal((1, 2, 4, 5, 5)).astype(np.float32)
    pads = [ref.same_pads(4, 2, 1), ref.same_pads(5, 3, 1), ref.same_pads(5, 2, 1)]
    expected = ref.conv_nd(x, net.weight.asnumpy(), (1, 1, 1), pads) + net.bias.asnumpy().reshape(1, -1, 1, 1, 1)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    padded = nn.Conv3d(2, 2, 3, stride=2, pad_mode="pad", padding=(1, 0, 1, 1, 0, 2))
    expected = ref.conv_nd(x, padded.weight.asnumpy(), (2, 2, 2), [(1, 0), (1, 1), (0, 2)])
    np.testing.assert_allclose(padded(Tensor(x)).asnumpy(), expected, rtol=1e-4, atol=1e-5)


# --- Conv2dTranspose --------------------------------------------------------------------------
@pytest.mark.parametrize("pad_mode,kernel,stride,padding,expected_hw", [
    ("same", 3, 2, 0, (10, 12)),
    ("valid", 3, 2, 0, (11, 13)),
    ("valid", 2, 3, 0, (15, 18)),       # kernel smaller than stride: H * stride
    ("pad", 4, 1, 0, (8, 9)),
    ("pad", 3, 2, (1, 0, 2, 1), (10, 10)),
])
def test_conv2d_transpose_shapes_and_numerics(pad_mode, kernel, stride, padding, expected_hw):
    rng = np.random.default_rng(8)
    net = nn.Conv2dTranspose(4, 6, kernel, stride=stride, pad_mode=pad_mode, padding=padding, group=2,
                             has_bias=True)
    assert tuple(net.weight.shape) == (4, 3, kernel, kernel)
    x = rng.standard_normal((2, 4, 5, 6)).astype(np.float32)
    out = net(Tensor(x))
    assert out.shape[2:] == expected_hw
    if pad_mode == "pad":
        p = (padding,) * 4 if isinstance(padding, int) else padding
        pads = [(p[0], p[1]), (p[2], p[3])]
    else:
        pads = []
        for size, o in zip((5, 6), expected_hw):
            need = max(0, (size - 1) * stride + kernel - o)
            pads.append((need // 2, need - need // 2))
    expected = ref.conv_transpose2d(x, net.weight.asnumpy(), (stride, stride), pads, expected_hw, groups=2)
    expected += net.bias.asnumpy().reshape(1, -1, 1, 1)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_transpose_is_the_input_gradient_of_conv2d():
    rng = np.random.default_rng(9)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)   # conv: 2 -> 3 channels
    conv = nn.Conv2d(2, 3, 3, stride=2, weight_init=Tensor(w))
    deconv = nn.Conv2dTranspose(3, 2, 3, stride=2, weight_init=Tensor(w))
    x = Tensor(rng.standard_normal((1, 2, 8, 8)).astype(np.float32))
    g = rng.standard_normal((1, 3, 4, 4)).astype(np.float32)
    dx = ms.grad(lambda v: (conv(v) * Tensor(g)).sum())(x)
    np.testing.assert_allclose(deconv(Tensor(g)).asnumpy(), dx.asnumpy(), rtol=1e-4, atol=1e-5)


def test_conv2d_transpose_output_padding_and_errors():
    net = nn.Conv2dTranspose(2, 2, 3, stride=2, pad_mode="pad", padding=1, output_padding=1, has_bias=True,
                             bias_init="ones")
    out = net(Tensor(np.ones((1, 2, 4, 4), np.float32))).asnumpy()
    assert out.shape == (1, 2, 8, 8)
    # MindSpore appends the output padding as zeros after the bias
    np.testing.assert_array_equal(out[:, :, 7, :], 0)
    np.testing.assert_array_equal(out[:, :, :, 7], 0)
    with pytest.raises(ValueError):
        nn.Conv2dTranspose(2, 2, 3, stride=2, output_padding=1)         # needs pad_mode='pad'
    with pytest.raises(ValueError):
        nn.Conv2dTranspose(2, 2, 3, stride=2, pad_mode="pad", output_padding=2)


def test_conv2d_transpose_gradients():
    rng = np.random.default_rng(10)
    net = nn.Conv2dTranspose(2, 3, 3, stride=2, has_bias=True, dtype=ms.float64)
    ref.check_param_grads(net, (Tensor(rng.standard_normal((1, 2, 3, 4))),))
