"""Dropout, Flatten, Identity, Pad, ClipByNorm, Embedding, MatMul and the activation Cells against NumPy,
plus the parameter naming of nested / SequentialCell / CellList networks (API.md 5.7)."""
import math
import pathlib
import sys

import numpy as np
import pytest
from scipy.special import erf

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _nn_ref as ref  # noqa: E402

pytestmark = pytest.mark.both_modes


def _x(shape, seed=0, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


# --- Dropout ---------------------------------------------------------------------------------
def test_dropout_is_identity_until_training():
    x = Tensor(_x((50, 40)))
    drop = nn.Dropout(p=0.5)
    assert drop.training is False
    assert drop(x) is x
    drop.set_train()
    out = drop(x).asnumpy()
    kept = out != 0
    assert 0.4 < kept.mean() < 0.6
    np.testing.assert_allclose(out[kept], x.asnumpy()[kept] * 2, rtol=1e-6)


def test_dropout_p_and_keep_prob():
    x = Tensor(np.ones((200, 100), np.float32))
    by_keep = nn.Dropout(keep_prob=0.8).set_train()
    by_p = nn.Dropout(p=0.2).set_train()
    for net in (by_keep, by_p):
        out = net(x).asnumpy()
        assert abs((out == 0).mean() - 0.2) < 0.02
        np.testing.assert_allclose(np.unique(out[out != 0]), [1.25], rtol=1e-6)
    assert nn.Dropout(p=0.0).set_train()(x) is x
    assert nn.Dropout(keep_prob=1.0).set_train()(x) is x
    # p wins over keep_prob
    assert abs((nn.Dropout(keep_prob=0.9, p=0.5).set_train()(x).asnumpy() == 0).mean() - 0.5) < 0.03


def test_dropout_errors():
    with pytest.raises(ValueError):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError):
        nn.Dropout(p=-0.1)
    with pytest.raises(ValueError):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError):
        nn.Dropout(keep_prob=1)
    with pytest.raises(TypeError):
        nn.Dropout(p="0.5")


def test_channel_dropouts():
    x = Tensor(np.ones((8, 16, 3, 3), np.float32))
    out = nn.Dropout2d(p=0.5).set_train()(x).asnumpy()
    per_channel = out.reshape(8, 16, -1)
    assert np.all((per_channel == 0).all(-1) | (per_channel == 2).all(-1))
    assert nn.Dropout2d(p=0.5)(x) is x
    assert nn.Dropout1d(p=0.3).set_train()(Tensor(np.ones((4, 5, 6), np.float32))).shape == (4, 5, 6)
    assert nn.Dropout3d(p=0.3).set_train()(Tensor(np.ones((2, 3, 2, 2, 2), np.float32))).shape == (2, 3, 2, 2, 2)
    with pytest.raises(ValueError):
        nn.Dropout2d(p=1.5)


# --- shape layers ------------------------------------------------------------------------------
def test_flatten_unflatten_identity():
    x = _x((2, 3, 4, 5))
    assert nn.Flatten()(Tensor(x)).shape == (2, 60)
    np.testing.assert_array_equal(nn.Flatten(0, 1)(Tensor(x)).asnumpy(), x.reshape(6, 4, 5))
    np.testing.assert_array_equal(nn.Flatten(2)(Tensor(x)).asnumpy(), x.reshape(2, 3, 20))
    np.testing.assert_array_equal(nn.Unflatten(1, (3, 1))(Tensor(x)).asnumpy(), x.reshape(2, 3, 1, 4, 5))
    ident = nn.Identity()
    assert ident(Tensor(x)) is not None
    np.testing.assert_array_equal(ident(Tensor(x)).asnumpy(), x)
    with pytest.raises(TypeError):
        nn.Flatten(1.0)


def test_identity_passes_anything_through_as_mindspore_does():
    # 2.10: constructor arguments ignored; any input returned as it is (the model-migration tutorial's Trainer
    # passes its gradient tuple through nn.Identity() inside a jit function)
    t = Tensor(_x((2,)))
    ident = nn.Identity(5, k=1)
    assert ident(3) == 3 and ident(None) is None and ident("s") == "s"
    pair = ident((t, t))
    assert isinstance(pair, tuple) and len(pair) == 2 and pair[0] is t

    @ms.jit
    def f(a, b):
        return nn.Identity()((a, b))
    got = f(t, t)
    assert isinstance(got, tuple) and len(got) == 2
    np.testing.assert_array_equal(got[1].asnumpy(), t.asnumpy())


@pytest.mark.parametrize("mode,np_mode", [("CONSTANT", "constant"), ("REFLECT", "reflect"),
                                          ("SYMMETRIC", "symmetric")])
def test_pad_modes_match_numpy(mode, np_mode):
    x = _x((2, 3, 4, 5), 1)
    paddings = ((0, 1), (1, 0), (2, 3), (3, 1))
    out = nn.Pad(paddings, mode)(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(out, np.pad(x, paddings, mode=np_mode))


def test_pad_gradient_and_errors():
    x = Tensor(_x((3, 4), 2))
    g = ms.grad(lambda v: nn.Pad(((1, 1), (2, 2)), "REFLECT")(v).sum())(x).asnumpy()
    # each padded position reads one input element: count the reads per element
    expected = np.zeros((3, 4))
    for i in range(5):
        for j in range(8):
            src_i = [1, 0, 1, 2, 1][i]
            src_j = [2, 1, 0, 1, 2, 3, 2, 1][j]
            expected[src_i, src_j] += 1
    np.testing.assert_array_equal(g, expected)
    with pytest.raises(TypeError):
        nn.Pad([[1, 1]])
    with pytest.raises(ValueError):
        nn.Pad(((1, 1, 1),))
    with pytest.raises(ValueError):
        nn.Pad(((1, 1),), "EDGE")
    with pytest.raises(ValueError):
        nn.Pad(((3, 0), (0, 0)), "REFLECT")(x)


def test_clip_by_norm():
    x = _x((4, 6), 3, scale=5)
    clip = nn.ClipByNorm()
    out = clip(Tensor(x), Tensor(np.array([2.0], np.float32))).asnumpy()
    norm = np.sqrt((x.astype(np.float64) ** 2).sum())
    np.testing.assert_allclose(out, x * 2.0 / max(norm, 2.0), rtol=1e-5)
    assert out.dtype == np.float32
    big = clip(Tensor(x), Tensor(np.array(1e6, np.float32))).asnumpy()
    np.testing.assert_allclose(big, x, rtol=1e-5)
    rows = nn.ClipByNorm(axis=1)(Tensor(x), Tensor(np.array(1.0, np.float32))).asnumpy()
    row_norm = np.sqrt((x.astype(np.float64) ** 2).sum(1, keepdims=True))
    np.testing.assert_allclose(rows, x / np.maximum(row_norm, 1.0), rtol=1e-5)
    np.testing.assert_array_equal(clip(Tensor(np.zeros((2, 2), np.float32)), Tensor(1.0)).asnumpy(), 0)
    with pytest.raises(TypeError):
        clip(Tensor(np.ones(3, np.int32)), Tensor(1.0))


def test_norm_onehot_l1regularizer_upsample_matmul():
    x = _x((3, 4), 4)
    np.testing.assert_allclose(nn.Norm(axis=1)(Tensor(x)).asnumpy(), np.linalg.norm(x, axis=1), rtol=1e-5)
    onehot = nn.OneHot(depth=4)(Tensor(np.array([1, 3, 0]), ms.int32)).asnumpy()
    np.testing.assert_array_equal(onehot, np.eye(4)[[1, 3, 0]])
    np.testing.assert_allclose(nn.L1Regularizer(0.5)(Tensor(x)).asnumpy(), 0.5 * np.abs(x).sum(), rtol=1e-5)
    with pytest.raises(ValueError):
        nn.L1Regularizer(0)
    up = nn.Upsample(scale_factor=2.0)(Tensor(_x((1, 1, 2, 3), 5))).asnumpy()
    assert up.shape == (1, 1, 4, 6)
    a, b = _x((2, 3, 4), 6), _x((2, 5, 4), 7)
    np.testing.assert_allclose(nn.MatMul(transpose_x2=True)(Tensor(a), Tensor(b)).asnumpy(),
                               a @ b.transpose(0, 2, 1), rtol=1e-5, atol=1e-6)
    v = _x((4,), 8)
    np.testing.assert_allclose(nn.MatMul()(Tensor(a), Tensor(v)).asnumpy(), a @ v, rtol=1e-5, atol=1e-6)


# --- Embedding ----------------------------------------------------------------------------------
def test_embedding_parameters_and_default_init():
    ms.set_seed(5)
    emb = nn.Embedding(2000, 64)
    assert [(n, p.name, tuple(p.shape), p.dtype) for n, p in emb.parameters_and_names()] == [
        ("embedding_table", "embedding_table", (2000, 64), ms.float32)]
    table = emb.embedding_table.asnumpy()
    assert abs(table.mean()) < 1e-3
    assert abs(table.std() - 0.01) < 5e-4          # Normal(sigma=0.01)


def test_embedding_lookup_one_hot_and_padding_idx():
    table = _x((10, 3), 9)
    ids = np.array([[1, 2, 9], [0, 2, 2]], np.int32)
    for one_hot in (False, True):
        emb = nn.Embedding(10, 3, use_one_hot=one_hot, embedding_table=Tensor(table))
        out = emb(Tensor(ids))
        assert out.shape == (2, 3, 3)
        np.testing.assert_allclose(out.asnumpy(), table[ids], rtol=1e-6, atol=1e-7)
    padded = nn.Embedding(10, 3, padding_idx=2, embedding_table=Tensor(table))
    np.testing.assert_array_equal(padded.embedding_table.asnumpy()[2], 0)
    np.testing.assert_array_equal(padded.embedding_table.asnumpy()[3], table[3])
    assert nn.Embedding(10, 3)(Tensor(ids.astype(np.int64))).shape == (2, 3, 3)


def test_embedding_gradient_accumulates_rows_and_errors():
    emb = nn.Embedding(5, 2, padding_idx=0)
    ids = Tensor(np.array([0, 3, 3, 1]), ms.int32)
    g = ms.grad(lambda i: emb(i).sum(), grad_position=None, weights=emb.trainable_params())(ids)[0].asnumpy()
    np.testing.assert_array_equal(g, np.array([[1, 1], [1, 1], [0, 0], [2, 2], [0, 0]], np.float32))
    with pytest.raises(TypeError):
        emb(Tensor(np.array([0.0, 1.0], np.float32)))
    with pytest.raises(ValueError):
        nn.Embedding(5, 2, padding_idx=5)
    with pytest.raises(TypeError):
        nn.Embedding(5.0, 2)


# --- activations ----------------------------------------------------------------------------------
def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def _softplus(v):
    return np.log1p(np.exp(v))


_ACTIVATIONS = [
    (nn.ReLU(), lambda v: np.maximum(v, 0)),
    (nn.ReLU6(), lambda v: np.clip(v, 0, 6)),
    (nn.Sigmoid(), _sigmoid),
    (nn.Tanh(), np.tanh),
    (nn.GELU(), lambda v: 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))),
    (nn.GELU(approximate=False), lambda v: 0.5 * v * (1 + erf(v / math.sqrt(2)))),
    (nn.FastGelu(), lambda v: v / (1 + np.exp(-1.702 * np.abs(v))) * np.exp(0.851 * (v - np.abs(v)))),
    (nn.LeakyReLU(), lambda v: np.where(v > 0, v, 0.2 * v)),
    (nn.LeakyReLU(alpha=2.0), lambda v: np.minimum(v, 2 * v)),
    (nn.SiLU(), lambda v: v * _sigmoid(v)),
    (nn.HSwish(), lambda v: v * np.clip(v + 3, 0, 6) / 6),
    (nn.HSigmoid(), lambda v: np.clip(v + 3, 0, 6) / 6),
    (nn.Mish(), lambda v: v * np.tanh(_softplus(v))),
    (nn.ELU(), lambda v: np.where(v > 0, v, np.expm1(v))),
    (nn.Softplus(), _softplus),
    (nn.Softsign(), lambda v: v / (1 + np.abs(v))),
    (nn.LogSigmoid(), lambda v: -_softplus(-v)),
    (nn.Tanhshrink(), lambda v: v - np.tanh(v)),
    (nn.Hardtanh(), lambda v: np.clip(v, -1, 1)),
    (nn.SoftShrink(), lambda v: np.where(v > 0.5, v - 0.5, np.where(v < -0.5, v + 0.5, 0))),
    (nn.HShrink(), lambda v: np.where(np.abs(v) > 0.5, v, 0)),
    (nn.CELU(), lambda v: np.maximum(v, 0) + np.minimum(0, np.expm1(v))),
    (nn.Softmax(), lambda v: np.exp(v) / np.exp(v).sum(-1, keepdims=True)),
    (nn.Softmax(axis=0), lambda v: np.exp(v) / np.exp(v).sum(0, keepdims=True)),
    (nn.Softmin(), lambda v: np.exp(-v) / np.exp(-v).sum(-1, keepdims=True)),
    (nn.LogSoftmax(), lambda v: v - np.log(np.exp(v).sum(-1, keepdims=True))),
    (nn.Threshold(0.3, -1.0), lambda v: np.where(v > 0.3, v, -1.0)),
    (nn.GLU(), lambda v: v[..., :3] * _sigmoid(v[..., 3:])),
]


@pytest.mark.parametrize("cell,oracle", _ACTIVATIONS, ids=[type(c).__name__ for c, _ in _ACTIVATIONS])
def test_activation_matches_numpy(cell, oracle):
    x = _x((4, 6), 10, scale=2.5)
    np.testing.assert_allclose(cell(Tensor(x)).asnumpy(), oracle(x.astype(np.float64)), rtol=1e-4, atol=1e-5)


def test_gelu_default_is_the_tanh_approximation():
    x = Tensor(np.array([-2.0, -0.5, 1.0, 3.0], np.float32))
    approx = nn.GELU()(x).asnumpy()
    np.testing.assert_allclose(approx, ops.gelu(x, approximate="tanh").asnumpy(), rtol=1e-6)
    assert not np.allclose(approx, ops.gelu(x).asnumpy(), rtol=1e-6, atol=1e-6)


def test_prelu_parameter_and_clamp():
    prelu = nn.PReLU()
    assert [(n, p.name, tuple(p.shape)) for n, p in prelu.parameters_and_names()] == [("w", "a", (1,))]
    np.testing.assert_allclose(prelu.w.asnumpy(), [0.25])
    x = _x((2, 3, 4), 11)
    np.testing.assert_allclose(prelu(Tensor(x)).asnumpy(), np.where(x > 0, x, 0.25 * x), rtol=1e-6)
    per_channel = nn.PReLU(3, w=[0.1, -0.2, 0.3])
    out = per_channel(Tensor(x)).asnumpy()
    slopes = np.array([0.1, 0.0, 0.3]).reshape(1, 3, 1)     # negative slopes are clamped by relu
    np.testing.assert_allclose(out, np.where(x > 0, x, slopes * x), rtol=1e-6)
    np.testing.assert_allclose(per_channel.w.asnumpy(), [0.1, -0.2, 0.3])   # eval: not written back
    per_channel.set_train()
    per_channel(Tensor(x))
    np.testing.assert_allclose(per_channel.w.asnumpy(), [0.1, 0.0, 0.3])

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.act = nn.PReLU()

        def construct(self, v):
            return self.act(v)

    assert [p.name for p in Net().get_parameters()] == ["act.w"]
    with pytest.raises(ValueError):
        nn.PReLU(2, w=[0.1])
    with pytest.raises(TypeError):
        nn.PReLU(w=1)


def test_get_activation():
    assert isinstance(nn.get_activation("relu"), nn.ReLU)
    gelu = nn.get_activation("gelu")
    assert isinstance(gelu, nn.GELU) and gelu.approximate is True
    assert nn.get_activation(None) is None
    with pytest.raises(KeyError):
        nn.get_activation("ReLU")
    with pytest.raises(TypeError):
        nn.get_activation(1)


def test_activation_gradients():
    x = Tensor(_x((3, 4), 12))
    for cell, deriv in ((nn.ReLU(), lambda v: (v > 0).astype(np.float64)),
                        (nn.Sigmoid(), lambda v: _sigmoid(v) * (1 - _sigmoid(v))),
                        (nn.LeakyReLU(), lambda v: np.where(v > 0, 1.0, 0.2))):
        g = ms.grad(lambda v, c=cell: c(v).sum())(x).asnumpy()
        np.testing.assert_allclose(g, deriv(x.asnumpy().astype(np.float64)), rtol=1e-5, atol=1e-6)
    prelu = nn.PReLU(1, w=0.3)
    grads = ref.param_grads(prelu, (x,), np.ones((3, 4)))
    v = x.asnumpy()
    np.testing.assert_allclose(grads["a"], [v[v < 0].sum()], rtol=1e-5)


# --- parameter naming (API.md 5.7) ------------------------------------------------------------------
class _Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.w = Parameter(Tensor(np.ones(2, np.float32)), name="explicit_name")

    def construct(self, x):
        return self.bn(self.conv(x)) * self.w.reshape(1, -1, 1, 1)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = _Block()
        self.seq = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU(), nn.Dense(3, 2)])
        self.layers = nn.CellList([nn.Dense(2, 2), nn.Dense(2, 1, has_bias=True)])
        self.plain = [nn.Dense(1, 1)]          # a Python list is not registered

    def construct(self, x, y):
        out = self.block(x)
        z = self.seq(y)
        for layer in self.layers:
            z = layer(z)
        return out.sum() + z.sum()


def test_parameter_names_by_attribute_path():
    # top level: an explicitly named Parameter keeps its name; a nested BatchNorm's statistics take their path
    assert [p.name for p in _Block().get_parameters()] == [
        "explicit_name", "conv.weight", "conv.bias", "bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]
    net = _Net()
    assert [p.name for p in net.get_parameters()] == [
        "block.w", "block.conv.weight", "block.conv.bias", "block.bn.moving_mean", "block.bn.moving_variance",
        "block.bn.gamma", "block.bn.beta", "seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias",
        "layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias"]
    assert [n for n, _ in net.parameters_and_names()] == [p.name for p in net.get_parameters()]
    x = Tensor(_x((1, 1, 5, 5), 13))
    y = Tensor(_x((2, 4), 14))
    grads = ms.grad(net, grad_position=None, weights=net.trainable_params())(x, y)
    assert len(grads) == len(net.trainable_params()) == 13
    for p, g in zip(net.trainable_params(), grads):
        assert g.shape == p.shape


def test_set_train_is_recursive():
    net = _Net()
    assert not any(c.training for _, c in net.cells_and_names())
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names())
    assert net.block.bn.training


@pytest.mark.parametrize("cls,padding,np_mode,kw", [
    (nn.ConstantPad1d, (1, 2), "constant", {"value": 1.5}), (nn.ConstantPad2d, 1, "constant", {"value": -2.0}),
    (nn.ConstantPad3d, (1, 0, 0, 2, 1, 1), "constant", {"value": 0.5}), (nn.ZeroPad2d, (2, 1, 0, 1), "constant", {}),
    (nn.ReflectionPad1d, 2, "reflect", {}), (nn.ReflectionPad2d, (1, 2, 2, 0), "reflect", {}),
    (nn.ReflectionPad3d, 1, "reflect", {}), (nn.ReplicationPad1d, (3, 0), "edge", {}),
    (nn.ReplicationPad2d, 2, "edge", {}), (nn.ReplicationPad3d, (0, 1, 2, 0, 1, 1), "edge", {})])
def test_padding_layers(cls, padding, np_mode, kw):
    nd = {"1d": 1, "2d": 2, "3d": 3}[cls.__name__[-2:]]
    x = _x((2, 3, 4, 5, 6)[5 - nd - 2:], 15)
    pads = (padding,) * (2 * nd) if isinstance(padding, int) else padding
    width = [(0, 0)] * (x.ndim - len(pads) // 2) + [(pads[2 * i], pads[2 * i + 1]) for i in range(len(pads) // 2)][::-1]
    extra = {"constant_values": kw["value"]} if "value" in kw else {}
    expected = np.pad(x, width, mode=np_mode, **extra)
    np.testing.assert_array_equal(cls(padding, **kw)(Tensor(x)).asnumpy(), expected)
    np.testing.assert_array_equal(cls(padding, **kw)(Tensor(x[0])).asnumpy(), expected[0])   # unbatched
