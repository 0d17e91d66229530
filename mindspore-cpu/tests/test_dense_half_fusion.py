"""GRAPH_MODE float16 ``nn.Dense`` on the CPU rounds as MindSpore 2.10's fused kernel does: the bias added to the
float32 product before the one rounding to float16 (``cpu_fuse_dense_epilogue``). Bit patterns recorded with 2.10 by
``tests/fixtures/zoo_nlp/record_dense_fp16.py``; PYNATIVE_MODE's separate kernels keep rounding the product first.
(Found on the zoo's Transformer, whose Dense layers run ``to_float(float16)``.)"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn

_RECORDED = {
    None: [48714, 16114, 50133, 45383, 6920, 16141, 51021, 49246, 17641, 44439, 16659, 16890, 16564, 16082, 17378,
           10122, 46436, 49127, 48097, 16358, 16701, 12291, 15888, 17282],
    "relu": [0, 16114, 0, 0, 6920, 16141, 0, 0, 17641, 0, 16659, 16890, 16564, 16082, 17378, 10122, 0, 0, 0, 16358,
             16701, 12291, 15888, 17282],
}


def _operands():
    rng = np.random.RandomState(3)
    return (rng.randn(4, 8) * 2).astype(np.float32), (rng.randn(6, 8) * 0.5).astype(np.float32), \
        (rng.randn(6) * 3).astype(np.float32)


@pytest.mark.parametrize("act", [None, "relu"])
def test_graph_mode_float16_dense_matches_2_10(act):
    x, w, b = _operands()
    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    try:
        net = nn.Dense(8, 6, weight_init=ms.Tensor(w), bias_init=ms.Tensor(b), activation=act).to_float(ms.float16)
        y = net(ms.Tensor(x)).asnumpy()
    finally:
        ms.set_context(mode=old)
    assert y.dtype == np.float16
    assert y.view(np.uint16).ravel().tolist() == _RECORDED[act]


def test_pynative_float16_dense_rounds_the_product_first():
    x, w, b = _operands()
    old = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    try:
        y = nn.Dense(8, 6, weight_init=ms.Tensor(w), bias_init=ms.Tensor(b)).to_float(ms.float16)(ms.Tensor(x))
    finally:
        ms.set_context(mode=old)
    x16, w16, b16 = (a.astype(np.float16).astype(np.float32) for a in (x, w, b))
    expected = ((x16 @ w16.T).astype(np.float16).astype(np.float32) + b16).astype(np.float16)
    np.testing.assert_array_equal(y.asnumpy(), expected)
