"""The float16 Tanh gradient rounds once, as MindSpore 2.10's TanhGrad kernel (``dout * (1 - out**2)`` in float32):
composing it from float16 Square/Sub/Mul rounded three times and differed by an ulp on ~40% of values (the zoo's
TextRCNN GRU under amp O3). Bit patterns recorded from 2.10 (PYNATIVE) by
tests/fixtures/zoo_nlp/record_tanh_grad_fp16.py."""
import numpy as np

import mindspore as ms
from mindspore import nn, ops, Tensor

PICK = [1, 3, 4, 5, 7, 11, 13, 14, 17, 20, 22, 26, 29, 31, 33, 34, 35, 38, 40, 43, 44, 45, 53, 54]
REF = [9669, 7586, 11906, 41775, 9486, 9195, 8558, 7967, 8623, 7837, 4150, 4258, 44447, 39638, 12222, 11140, 4752,
       11348, 7573, 7957, 9846, 42217, 7581, 9462]


class _Net(nn.Cell):
    def construct(self, a):
        return ops.tanh(a)


def test_tanh_grad_half_rounds_once_as_2_10():
    old = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        rng = np.random.RandomState(3)
        x = rng.randn(4096).astype(np.float16)
        dy = (rng.randn(4096) * 0.1).astype(np.float16)
        grad = ops.GradOperation(sens_param=True)(_Net())(Tensor(x[PICK]), Tensor(dy[PICK])).asnumpy()
    finally:
        ms.set_context(mode=old)
    assert grad.dtype == np.float16
    assert grad.view(np.uint16).tolist() == REF


def test_tanh_grad_float32_unchanged():
    x = Tensor(np.array([0.5, -1.0, 2.0], np.float32))
    grad = ops.GradOperation()(_Net())(x).asnumpy()
    np.testing.assert_allclose(grad, 1 - np.tanh(x.asnumpy()) ** 2, rtol=1e-6)
