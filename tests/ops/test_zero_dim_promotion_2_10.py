"""MindSpore 2.10's ``Mul`` and ``Div`` treat a 0-d tensor beside a tensor of rank >= 1 like a Python number: within
one category it does not widen the other (``float16[2, 2] * float32[]`` is Float16, as in amp networks scaling by
``Tensor(0.5)``; the model zoo's Swin-T depends on it). Every other binary op promotes 0-d tensors as usual. The
float16 result is computed in float32 and rounded once, as 2.10's CPU kernel does.

The dtypes below were recorded with real MindSpore 2.10.0 (CPU): ``ops.mul``/``ops.div``/``ops.add``/``ops.RealDiv``
on ``Tensor(np.ones(shape), dtype)`` pairs, PYNATIVE and GRAPH_MODE alike.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

F16, F32, F64, I16, I32, I64, BOOL, U8 = (ms.float16, ms.float32, ms.float64, ms.int16, ms.int32, ms.int64,
                                          ms.bool_, ms.uint8)

# (x dtype, x shape, y dtype, y shape): (mul, div, add) as 2.10 gave them
CASES = [
    ((F16, (2, 2), F32, ()), (F16, F16, F32)),
    ((F32, (), F16, (2, 2)), (F16, F16, F32)),
    ((F32, (2, 2), F16, ()), (F32, F32, F32)),
    ((F16, (2, 2), F64, ()), (F16, F16, F64)),
    ((F64, (2, 2), F32, ()), (F64, F64, F64)),
    ((I32, (2, 2), I64, ()), (I32, F32, I64)),
    ((I64, (2, 2), I32, ()), (I64, F32, I64)),
    ((I16, (3,), I64, ()), (I16, F32, I64)),
    ((I32, (2, 2), F32, ()), (F32, F32, F32)),      # across categories: the usual promotion
    ((I32, (2, 2), F64, ()), (F64, F64, F64)),
    ((I32, (), F16, (2, 2)), (F16, F16, F16)),
    ((BOOL, (2, 2), I32, ()), (I32, F32, I32)),
    ((U8, (2, 2), F16, ()), (F16, F16, F16)),
    ((F16, (), F32, ()), (F32, F32, F32)),          # both 0-d: the usual promotion
    ((F16, (2,), F32, (1,)), (F32, F32, F32)),      # neither 0-d
]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE], ids=["pynative", "graph"])
@pytest.mark.parametrize("spec,want", CASES, ids=[f"{a}{list(sa)}-{b}{list(sb)}" for (a, sa, b, sb), _ in CASES])
def test_mul_and_div_promote_a_zero_dim_tensor_as_a_number(spec, want, mode):
    a, sa, b, sb = spec
    x, y = ms.Tensor(np.ones(sa), a), ms.Tensor(np.ones(sb), b)

    class Net(nn.Cell):
        def construct(self, p, q):
            return ops.mul(p, q), ops.div(p, q), ops.add(p, q), p * q, p / q

    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        outs = Net()(x, y)
    finally:
        ms.set_context(mode=old)
    assert [o.dtype for o in outs] == [want[0], want[1], want[2], want[0], want[1]]
    assert [o.shape for o in outs] == [np.broadcast_shapes(sa, sb)] * 5
    assert np.all(outs[0].asnumpy().astype(np.float64) == 1.0)


def test_realdiv_promotes_a_zero_dim_tensor_as_usual():
    out = ops.RealDiv()(ms.Tensor(np.ones((2, 2)), F16), ms.Tensor(0.5, F32))
    assert out.dtype == F32


@pytest.mark.parametrize("scale", [0.1, 1 / 3, 7.77, 1e-3])
def test_the_float16_result_is_the_float32_result_rounded_once(scale):
    xv = np.random.default_rng(0).uniform(-10, 10, 4096).astype(np.float16)
    x, s = ms.Tensor(xv), ms.Tensor(scale, F32)
    want_mul = (xv.astype(np.float32) * np.float32(scale)).astype(np.float16)
    want_div = (xv.astype(np.float32) / np.float32(scale)).astype(np.float16)
    np.testing.assert_array_equal((x * s).asnumpy(), want_mul)
    np.testing.assert_array_equal((x / s).asnumpy(), want_div)


def test_gradients_keep_each_input_dtype():
    x, s = ms.Tensor(np.ones((2, 2)), F16), ms.Tensor(0.5, F32)
    dx, ds = ms.grad(lambda a, b: (a * b).sum(), grad_position=(0, 1))(x, s)
    assert (dx.dtype, ds.dtype, ds.shape) == (F16, F32, ())
    np.testing.assert_allclose(dx.asnumpy(), np.full((2, 2), 0.5))
    np.testing.assert_allclose(ds.asnumpy(), 4.0)
