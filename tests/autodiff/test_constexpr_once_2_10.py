"""A ``constexpr`` function during a GRAPH_MODE compilation is evaluated once per call site, Cell instance and
arguments, as in MindSpore 2.10, so the gradient of a Cell sees the value its forward saw.

The model zoo's StarGAN (research/cv/StarGAN) draws its WGAN-GP mix ``alpha`` with ``np.random.randn`` in a
constexpr. Ours evaluated it again while differentiating the loss Cell, so the gradient penalty's gradient used
another ``alpha`` than its value, and the extra draw shifted every later ``np.random`` call of the training loop.
Numbers recorded on 2.10 by tests/fixtures/zoo_cv/record_constexpr_once.py (each call returns its call count).
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops import constexpr

CALLS = [0]


@constexpr
def _count(b):
    CALLS[0] += 1
    return Tensor(np.full((b, 1), float(CALLS[0]), np.float32))


class _L(nn.Cell):
    def construct(self, x):
        return (x * _count(x.shape[0])).sum()


class _FwdAndGrad(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a, self.g = _L(), ops.GradOperation()

    def construct(self, x):
        return self.a(x), self.g(self.a)(x), self.g(self.a)(x * 2)


class _SameTwice(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = _L()

    def construct(self, x):
        return self.a(x) + self.a(x) * 10


class _TwoInstances(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a, self.b = _L(), _L()

    def construct(self, x):
        return self.a(x) + self.b(x) * 10


class _TwoSites(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = _L()

    def construct(self, x):
        return self.a(x) + _count(x.shape[0]).sum() * 10


# case -> (outputs, calls) printed by MindSpore 2.10
WANT = {
    _FwdAndGrad: ([[6.0], [1.0] * 6, [1.0] * 6], 1),
    _SameTwice: ([[66.0]], 1),
    _TwoInstances: ([[126.0]], 2),
    _TwoSites: ([[46.0]], 2),
}


def test_constexpr_evaluated_once_per_site_and_cell_like_2_10():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = Tensor(np.ones((2, 3), np.float32))
        for cls, (outputs, calls) in WANT.items():
            CALLS[0] = 0
            out = cls()(x)
            out = out if isinstance(out, tuple) else (out,)
            assert [o.asnumpy().ravel().tolist() for o in out] == outputs, cls.__name__
            assert CALLS[0] == calls, cls.__name__
        CALLS[0] = 0      # a new Cell is a new compilation: evaluated again (2.10: [6.0, 12.0], 2 calls)
        assert [_L()(x).asnumpy().tolist() for _ in range(2)] == [6.0, 12.0]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
