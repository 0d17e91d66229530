"""``apply_momentum`` (C++, one pass) gives bit-for-bit the numbers of the separate NumPy operations."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

k = pytest.importorskip("mindspore_cpu._kernels")

RNG = np.random.default_rng(3)


def _numpy_momentum(v, a, lr, g, mu, nesterov, scale):
    dt = v.dtype
    lr, mu, scale = dt.type(lr), dt.type(mu), dt.type(scale)
    g = g * scale if scale != 1 else g
    a = a * mu + g
    v = v - (g * lr + a * mu * lr) if nesterov else v - a * lr
    return v, a


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("n,scale", [(37, 1.0), (300_001, 1.0), (1000, 0.5)])   # serial, parallel, scaled
def test_apply_momentum_matches_numpy_exactly(dtype, nesterov, n, scale):
    v, a, g = (RNG.standard_normal(n).astype(dtype) for _ in range(3))
    want_v, want_a = _numpy_momentum(v, a, 0.1, g, 0.9, nesterov, scale)
    k.apply_momentum(v, a, float(dtype(0.1)), g, float(dtype(0.9)), nesterov, float(dtype(scale)))
    np.testing.assert_array_equal(a, want_a)
    np.testing.assert_array_equal(v, want_v)


def test_apply_momentum_checks_its_arguments():
    v = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match="same size"):
        k.apply_momentum(v, np.zeros(3, np.float32), 0.1, np.zeros(4, np.float32), 0.9)
    with pytest.raises(ValueError, match="same dtype"):
        k.apply_momentum(v, np.zeros(4, np.float64), 0.1, np.zeros(4, np.float32), 0.9)
    ro = np.zeros(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        k.apply_momentum(ro, np.zeros(4, np.float32), 0.1, np.zeros(4, np.float32), 0.9)


def test_apply_momentum_primitive_on_a_non_contiguous_gradient_uses_numpy():
    var = ms.Parameter(ms.Tensor(np.ones((3, 4), np.float32)), name="var")
    acc = ms.Parameter(ms.Tensor(np.full((3, 4), 0.5, np.float32)), name="acc")
    g = RNG.standard_normal((4, 3)).astype(np.float32)
    ops.ApplyMomentum()(var, acc, 0.1, ms.Tensor(g).T, 0.9)
    want_v, want_a = _numpy_momentum(np.ones((3, 4), np.float32), np.full((3, 4), 0.5, np.float32), 0.1, g.T, 0.9,
                                     False, 1.0)
    np.testing.assert_array_equal(acc.asnumpy(), want_a)
    np.testing.assert_array_equal(var.asnumpy(), want_v)
