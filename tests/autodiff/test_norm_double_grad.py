"""Grad of grad through LayerNorm and Softmax, whose bprops call the LayerNormGrad and SoftmaxGrad primitives (each with
its own bprop), in PYNATIVE and GRAPH_MODE.

A gradient penalty ``P`` (a function of first-order gradients, which the conformance suite checks against finite
differences) is differentiated by the framework and compared with central finite differences of ``P`` itself, in
float64, for penalties that use some of the first-order gradients only (so the tape hands LayerNormGrad's bprop None
for the others) and losses that use LayerNorm's statistics outputs too.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops


def _inputs(axis):
    rng = np.random.default_rng(7)
    shape = (3, 4, 5)
    return (rng.normal(1, 2, shape), rng.normal(1, 0.3, shape[axis:]), rng.normal(size=shape[axis:]),
            rng.normal(size=shape))


def _penalty(axis, uses, stats):
    ln = ops.LayerNorm(axis, axis, 1e-5)

    def loss(x, g, b, w):
        y, mean, variance = ln(x, g, b)
        out = (ops.softmax(y, axis=-1) * w).sum()
        if stats:
            out = out + (mean * mean).sum() + (variance * 0.5).sum()
        return out

    def penalty(x, g, b, w):
        gx, gg, gb = ms.grad(loss, grad_position=(0, 1, 2))(x, g, b, w)
        terms = {"x": (gx * gx).sum(), "gamma": (gg * gg * 0.3).sum(), "beta": (gb * gx.sum()).sum()}
        return sum((terms[k] for k in uses[1:]), terms[uses[0]])
    return penalty


def _numeric(fn, arrays, i, eps=1e-6):
    grad = np.zeros_like(arrays[i])
    for idx in np.ndindex(arrays[i].shape):
        vals = []
        for sign in (1, -1):
            moved = [a.copy() for a in arrays]
            moved[i][idx] += sign * eps
            vals.append(float(fn(*[ms.Tensor(a) for a in moved]).asnumpy()))
        grad[idx] = (vals[0] - vals[1]) / (2 * eps)
    return grad


@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("axis", [1, 2])
@pytest.mark.parametrize("uses,stats", [(("x",), False), (("gamma",), False), (("x", "gamma", "beta"), True)])
def test_gradient_penalty_through_layer_norm_and_softmax(mode, axis, uses, stats):
    arrays = list(_inputs(axis))
    penalty = _penalty(axis, uses, stats)
    grad = ms.grad(penalty, grad_position=(0, 1, 2))
    if mode == "graph":
        grad = ms.jit(grad)
    got = [g.asnumpy() for g in grad(*[ms.Tensor(a) for a in arrays])]
    for i in range(3):
        np.testing.assert_allclose(got[i], _numeric(penalty, arrays, i), rtol=1e-5, atol=1e-6,
                                   err_msg=f"input {i}")
