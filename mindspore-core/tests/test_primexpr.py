"""``mindspore.ops.primitive._primexpr`` (MindSpore's internal constexpr variant, used by libraries such as MindPet
for shape checks inside ``construct``): runs on constants in both modes and raises the check's own error."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops.primitive import _primexpr


@_primexpr
def _check_rank(shape, name):
    if len(shape) not in (2, 3):
        raise ValueError(f"For '{name}', the in_shape must have 2 or 3 dims, but got {len(shape)}.")
    return len(shape)


class Checked(nn.Cell):
    def __init__(self):
        super().__init__()
        self.shape = ops.Shape()

    @staticmethod
    @_primexpr(reuse_result=False)
    def _double(n):
        return n * 2

    def construct(self, x):
        rank = _check_rank(self.shape(x), "Checked")
        return x * self._double(rank)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_primexpr_runs_on_constants_and_raises(mode):
    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        out = Checked()(Tensor(np.ones((2, 3), np.float32)))
        np.testing.assert_array_equal(out.asnumpy(), np.full((2, 3), 4.0))
        with pytest.raises(ValueError, match="the in_shape must have 2 or 3 dims, but got 1"):
            Checked()(Tensor(np.ones(3, np.float32)))
    finally:
        ms.set_context(mode=old)
