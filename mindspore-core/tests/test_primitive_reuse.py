"""PYNATIVE operators made as code runs: instances of one of MindSpore's operators with the same attributes share
what they inferred (their eager cache), and bprops make their gradient operators once per forward operator."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._core.primitive import Primitive, prim_attr_register
from mindspore._runtime import dispatch
from mindspore.ops._defs.conv import Conv2D, Conv2DBackpropFilter, Conv2DBackpropInput


@pytest.fixture
def compiles(monkeypatch):
    """The primitives the eager interpreter inferred and looked a kernel up for, by name."""
    seen = []
    real = dispatch._compile

    def counting(prim, args):
        seen.append(prim.name)
        return real(prim, args)
    monkeypatch.setattr(dispatch, "_compile", counting)
    return seen


def test_same_attributes_share_the_eager_cache(compiles):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    want = np.arange(6, dtype=np.float32).reshape(2, 3).sum(axis=1, keepdims=True)
    a, b = ops.ReduceSum(keep_dims=True), ops.ReduceSum(keep_dims=True)
    assert a._eager_cache is b._eager_cache
    np.testing.assert_array_equal(a(x, 1).asnumpy(), want)
    np.testing.assert_array_equal(b(x, 1).asnumpy(), want)
    assert compiles == ["ReduceSum"]                      # the second instance found the first one's work
    other = ops.ReduceSum(keep_dims=False)
    assert other._eager_cache is not a._eager_cache
    assert ops.HShrink(lambd=1)._eager_cache is not ops.HShrink(lambd=1.0)._eager_cache   # equal keys, other types
    assert other(x, 1).shape == (2,)
    assert compiles == ["ReduceSum", "ReduceSum"]


def test_an_attribute_set_later_gives_the_instance_its_own_cache():
    a, b = ops.Softmax(axis=-1), ops.Softmax(axis=-1)
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    a(x)
    b.add_prim_attr("axis", 0)
    assert b._eager_cache is not a._eager_cache
    e = np.exp(np.array([[1.0, 2.0], [3.0, 5.0]]))
    # (rtol 1e-5: the CPU's float32 last-axis Softmax is MindSpore 2.10's, whose exp is a polynomial)
    np.testing.assert_allclose(b(x).asnumpy(), e / e.sum(axis=0), rtol=1e-5)   # not a's last-axis result
    np.testing.assert_allclose(a(x).asnumpy(), e / e.sum(axis=1, keepdims=True), rtol=1e-5)


class _Scale(Primitive):
    """A user's primitive (defined outside mindspore.ops): its inference may read more than its attributes."""

    @prim_attr_register
    def __init__(self, factor):
        self.calls = 0

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        return x


def test_user_primitives_and_unhashable_attributes_keep_their_own_cache():
    assert _Scale(2.0)._eager_cache is not _Scale(2.0)._eager_cache
    a, b = ops.Transpose(), ops.Transpose()
    assert a._eager_cache is b._eager_cache
    a.add_prim_attr("perm_hint", [1, 0])       # a list: not a key; and set after construction anyway
    assert a._eager_cache is not b._eager_cache


def test_conv_bprop_makes_its_gradient_operators_once(compiles):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = nn.Conv2d(2, 3, 3, pad_mode="same", has_bias=False)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 2, 5, 5)).astype(np.float32))
    grad = ms.grad(lambda x: net(x).sum(), grad_position=0)
    first = grad(x).asnumpy()
    made = list(compiles)
    assert {"Conv2DBackpropInput", "Conv2DBackpropFilter"} & set(made)
    again = grad(x).asnumpy()
    np.testing.assert_array_equal(first, again)
    assert compiles == made                  # the second backward pass inferred nothing again
    conv = Conv2D(out_channel=3, kernel_size=3, pad_mode="same")
    memo = conv._grad_prims = {}
    one = conv._grad_prim(Conv2DBackpropInput, **conv._config())
    assert conv._grad_prim(Conv2DBackpropInput, **conv._config()) is one
    assert conv._grad_prim(Conv2DBackpropFilter, **conv._config()) is not one
    conv.add_prim_attr("group", 1)          # same configuration: same gradient operator
    assert conv._grad_prim(Conv2DBackpropInput, **conv._config()) is one and len(memo) == 2
    assert conv._grad_prim(Conv2DBackpropInput, **dict(conv._config(), stride=(1, 1, 2, 2))) is not one


def test_pickled_primitive_drops_its_gradient_operators():
    import pickle
    conv = Conv2D(out_channel=3, kernel_size=3)
    conv._grad_prim(Conv2DBackpropInput, **conv._config())
    back = pickle.loads(pickle.dumps(conv))
    assert "_grad_prims" not in vars(back) and back._eager_cache == {}
    assert back.attrs == conv.attrs
