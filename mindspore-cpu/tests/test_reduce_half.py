"""CPU float16 ReduceSum/ReduceProd/ReduceMean accumulate in float32 and round once, as MindSpore 2.10's CPU does
(it has no float16 kernel for them and runs the float32 one); summing in float16 drifted by several ulps (the zoo's
BERT classifier: its float16 head's bias gradient, a BiasAdd bprop, differed from 2.10). Bit patterns recorded from
2.10 by tests/fixtures/zoo_nlp/record_reduce_fp16.py."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops, Tensor

REF = {
    "sum0": [50257, 51927, 51528, 20328, 49956, 53471, 52297, 52900, 19720, 18478, 15399, 52280],
    "sum02": [15423, 54628, 19027],
    "sumall": [54409],
    "mean0": [41821, 43478, 43138, 11858, 41496, 45096, 43856, 44459, 11339, 10019, 6933, 43828],
    "prod0": [14377, 15230, 14386],
}
BIAS_ADD_GRAD = [18976, 53641, 52907, 51946]


def _inputs():
    rng = np.random.RandomState(7)
    x = rng.randn(300, 3, 4).astype(np.float16)
    p = rng.uniform(0.9, 1.1, (40, 3)).astype(np.float16)
    return x, p


@pytest.fixture
def pynative():
    old = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yield
    ms.set_context(mode=old)


@pytest.mark.parametrize("name", sorted(REF))
def test_reduce_half_matches_2_10(pynative, name):
    x, p = _inputs()
    op, arr, axis, keep = {"sum0": (ops.ReduceSum, x, (0,), False), "sum02": (ops.ReduceSum, x, (0, 2), True),
                           "sumall": (ops.ReduceSum, x, (), False), "mean0": (ops.ReduceMean, x, (0,), False),
                           "prod0": (ops.ReduceProd, p, (0,), False)}[name]
    out = op(keep_dims=keep)(Tensor(arr), axis).asnumpy()
    assert out.dtype == np.float16
    assert out.view(np.uint16).ravel().tolist() == REF[name]


def test_bias_add_grad_half_matches_2_10(pynative):
    dy = _inputs()[0].reshape(-1, 4)
    grad = ops.GradOperation(get_all=True, sens_param=True)(ops.bias_add)
    db = grad(Tensor(dy), Tensor(np.zeros(4, np.float16)), Tensor(dy))[1].asnumpy()
    assert db.dtype == np.float16
    assert db.view(np.uint16).tolist() == BIAS_ADD_GRAD
