"""``ops.jacrev``, ``ops.jacfwd``, ``ops.vmap``: the values and layouts real MindSpore 2.10 gives for the same calls."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

X = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
Y = np.array([1.0, 2.0, 3.0], np.float32)
JX = [[[2.0, 0.0], [2.0, 0.0]], [[0.0, 4.0], [0.0, 4.0]]]
JY = [[8.0, 0.0, 0.0], [0.0, 12.0, 0.0]]


def f(a, b):
    return (a * 2).sum(0) * b[:2]


def g(a):
    return a ** 2, a.sum()


@pytest.mark.parametrize("jac", [ops.jacrev, ops.jacfwd])
def test_jacobians_and_their_layout(jac):
    jx, jy = jac(f, grad_position=(0, 1))(ms.Tensor(X), ms.Tensor(Y))
    np.testing.assert_allclose(jx.asnumpy(), JX)
    np.testing.assert_allclose(jy.asnumpy(), JY)
    assert jac(f)(ms.Tensor(X), ms.Tensor(Y)).shape == (2, 2, 2)        # out.shape + in.shape
    j_sq, j_sum = jac(g)(ms.Tensor(Y))                                     # one per output
    np.testing.assert_allclose(j_sq.asnumpy(), np.diag(2 * Y))
    np.testing.assert_allclose(j_sum.asnumpy(), [1.0, 1.0, 1.0])
    j, aux = jac(g, has_aux=True)(ms.Tensor(Y))
    np.testing.assert_allclose(j.asnumpy(), np.diag(2 * Y))
    assert float(aux.asnumpy()) == 6.0


def test_vmap_axes():
    out = ops.vmap(lambda a, b: a * b + 1, in_axes=(0, None))(ms.Tensor(X), ms.Tensor([1.0, 2.0]))
    np.testing.assert_allclose(out.asnumpy(), [[2.0, 5.0], [4.0, 9.0]])
    np.testing.assert_allclose(ops.vmap(lambda a: a.sum(), in_axes=1)(ms.Tensor(X)).asnumpy(), [4.0, 6.0])
    twice, sums = ops.vmap(lambda a: (a * 2, a.sum()), in_axes=0, out_axes=(1, 0))(ms.Tensor(X))
    np.testing.assert_allclose(twice.asnumpy(), [[2.0, 6.0], [4.0, 8.0]])
    np.testing.assert_allclose(sums.asnumpy(), [3.0, 7.0])
    pair = ops.vmap(lambda p: p[0] + p[1], in_axes=((0, 1),))((ms.Tensor(X), ms.Tensor(X)))
    np.testing.assert_allclose(pair.asnumpy(), X + X.T)
    with pytest.raises(ValueError, match="mapped axes must have one size"):
        ops.vmap(lambda a, b: a + b)(ms.Tensor(X), ms.Tensor(Y))
    with pytest.raises(ValueError, match="at least one input must be mapped"):
        ops.vmap(lambda a: a, in_axes=None)(ms.Tensor(X))


def test_transforms_inside_a_compiled_function():
    @ms.jit
    def compiled(a, b):
        return ops.jacrev(f, grad_position=1)(a, b), ops.vmap(lambda r: r.sum())(a)
    jy, sums = compiled(ms.Tensor(X), ms.Tensor(Y))
    np.testing.assert_allclose(jy.asnumpy(), JY)
    np.testing.assert_allclose(sums.asnumpy(), [3.0, 7.0])
