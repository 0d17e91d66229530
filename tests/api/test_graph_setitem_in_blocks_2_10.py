"""GRAPH_MODE: ``a[i] = v`` inside a ``for``/``while`` body or an ``if`` branch rebinds ``a`` after the block, as in
MindSpore 2.10 (the zoo's FastSpeech LengthRegulator fills its alignment so). Expected values printed by 2.10 (CPU,
GRAPH_MODE) for these cells."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops


class ForLoop(nn.Cell):
    def construct(self, x):
        a = ops.zeros((2, 3), ms.float32)
        for i in range(2):
            a[i] = x[i] * (i + 1)
        return a


class IfBranch(nn.Cell):
    def construct(self, x):
        a = ops.zeros((2, 3), ms.float32)
        if x.sum() > 0:
            a[1] = x[1]
        return a


class WhileLoop(nn.Cell):
    def construct(self, x):
        a = ops.zeros((2, 3), ms.float32)
        i = 0
        while i < 2:
            a[i] = x[i] + 1
            i += 1
        return a


class AugInLoop(nn.Cell):
    def construct(self, x):
        a = ops.zeros((2, 3), ms.float32)
        for i in range(2):
            a[i] += x[i]
        return a


@pytest.mark.parametrize("cell,want", [
    (ForLoop, [[1, 2, 3], [8, 10, 12]]),
    (IfBranch, [[0, 0, 0], [4, 5, 6]]),
    (WhileLoop, [[2, 3, 4], [5, 6, 7]]),
    (AugInLoop, [[1, 2, 3], [4, 5, 6]]),
])
@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_item_assignment_in_a_block_is_seen_after_it(cell, want, mode):
    ms.set_context(mode=mode)
    try:
        got = cell()(ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]], np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert got.asnumpy().tolist() == want
