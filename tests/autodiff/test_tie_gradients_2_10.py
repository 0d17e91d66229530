"""Gradients where an input meets a bound or its partner (a tie), as real MindSpore 2.10 (CPU) gives them: maximum
and minimum split a tie in halves (so do clip_by_value and hardtanh, built on them), clamp gives it to the input,
relu6 passes the gradient at 6; and the infinities hardtanh, threshold and softplus(beta) must keep."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import mint, ops

X = np.array([-1.0, 0.0, 0.5, 1.0, 2.0], np.float32)

# 2.10's gradients of f(x).sum() at X (recorded with MindSpore 2.10.0, CPU, PYNATIVE)
CASES = {
    "maximum": (lambda a: ops.maximum(a, 1.0), [0, 0, 0, 0.5, 1]),
    "minimum": (lambda a: ops.minimum(a, 1.0), [1, 1, 1, 0.5, 0]),
    "clamp": (lambda a: ops.clamp(a, 0.0, 1.0), [0, 1, 1, 1, 0]),
    "mint.clamp": (lambda a: mint.clamp(a, 0.0, 1.0), [0, 1, 1, 1, 0]),
    "clip_by_value": (lambda a: ops.clip_by_value(a, 0.0, 1.0), [0, 0.5, 1, 0.5, 0]),
    "hardtanh": (lambda a: ops.hardtanh(a, 0.0, 1.0), [0, 0.5, 1, 0.5, 0]),
    "relu6": (lambda a: ops.relu6(a * 6), [0, 0, 6, 6, 0]),
    "relu": (lambda a: ops.relu(a), [0, 0, 1, 1, 1]),
}


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("name", list(CASES))
def test_tie_gradients_match_mindspore_2_10(name, mode):
    fn, want = CASES[name]
    ms.set_context(mode=mode)
    try:
        got = ms.grad(lambda a: fn(a).sum())(ms.Tensor(X))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(got.asnumpy(), np.array(want, np.float32))


def test_clamp_with_tensor_bounds_gives_the_bounds_what_lies_beyond_them():
    lo, hi = ms.Tensor(np.zeros(5, np.float32)), ms.Tensor(np.ones(5, np.float32))
    gx, glo, ghi = ms.grad(lambda a, b, c: ops.clamp(a, b, c).sum(), grad_position=(0, 1, 2))(ms.Tensor(X), lo, hi)
    np.testing.assert_array_equal(gx.asnumpy(), [0, 1, 1, 1, 0])
    np.testing.assert_array_equal(glo.asnumpy(), [1, 0, 0, 0, 0])
    np.testing.assert_array_equal(ghi.asnumpy(), [0, 0, 0, 0, 1])


def test_clamp_keeps_nan_and_promotes_as_before():
    x = ms.Tensor(np.array([np.nan, -2, 0.5, 3], np.float32))
    np.testing.assert_array_equal(ops.clamp(x, -1.0, 1.0).asnumpy(), [np.nan, -1, 0.5, 1])
    assert ops.clamp(ms.Tensor([1, 5, -3], ms.int32), 0, 2).dtype == ms.int32
    assert ops.clamp(ms.Tensor([1, 5, -3], ms.int32), 0.5, 2).dtype == ms.float32


def test_infinities_through_hardtanh_threshold_and_softplus():
    inf = ms.Tensor(np.array([np.inf, -np.inf], np.float32))
    np.testing.assert_array_equal(ops.hardtanh(inf, -1.0, 1.0).asnumpy(), [1, -1])
    np.testing.assert_array_equal(ops.threshold(inf, 0.5, -2.0).asnumpy(), [np.inf, -2])
    np.testing.assert_array_equal(ops.softplus(inf, beta=2, threshold=4).asnumpy(), [np.inf, 0])
