"""Programs the golden IR tests compile. Line numbers here appear in the golden files: append new
samples at the end of this file, and regenerate with ``MS_UPDATE_GOLDEN=1`` after a deliberate change."""
import numpy as np

import mindspore as ms
from mindspore import nn, ops

SCALE = 3


def straight_line(x, y):
    z = x * y + SCALE
    w = ops.relu(z)
    return w.sum(), z


def branches(x, n):
    if n > 1:
        y = x * 2
    elif n == 1:
        y = x + 1
    else:
        return -x
    return y


def loops(x, n):
    total = x
    for i in range(n):
        if i == 2:
            continue
        total = total + i
    while total.sum() < 10:
        total = total * 2
        if total.sum() > 100:
            break
    return total


def closures_and_comprehensions(x, *args, scale=2.0, **kwargs):
    ys = [x * k for k in (1, 2, 3) if k != 2]
    table = {"a": ys[0], "b": ys[-1]}
    first, *rest = args

    def helper(v, bias=1.0):
        return v * scale + bias
    g = lambda v: helper(v, bias=0.0)  # noqa: E731
    return g(table["a"]) if first else helper(x), rest, f"n={len(ys)}", 0 < first <= 2


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.relu(self.dense(x))
        if y.sum() > 0:
            y = y * 2
        return y


class Scaled(nn.Cell):
    """A cell with a custom bprop: inlining happens after autodiff used it."""

    def construct(self, x):
        return x * 3.0

    def bprop(self, x, out, dout):
        return (dout * 10.0,)


def pass_sample(x, w):
    """Every pass has work here: a custom-bprop call to inline, an unread in-place write, constants to fold
    and simplify, a repeated expression, a dead value, an elementwise chain to fuse whose input dies in it."""
    c = ops.ones((2, 2), ms.float32) * 2.0    # folded while staging already
    a = Scaled()(ms.Tensor(np.full((2, 2), 2.0, np.float32)))   # inlined, then its body on constants folds
    y = ops.matmul(x, w)
    z = ops.matmul(x, w)                     # the same product again: merged by CSE
    _ = ops.exp(y)                           # unused: removed by DCE
    s = ops.reshape(z, (2, 2)) * 1.0         # reshape to its own shape and *1 simplified
    s += a                                   # in place, into a value nothing reads again: the write is dropped
    h = ops.relu(s + c)                      # the rest fused, in place in the product's buffer
    return h
