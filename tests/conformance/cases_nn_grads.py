"""Cases for LayerNormGrad, SoftmaxGrad and LogSoftmaxGrad, the gradient primitives the bprops of LayerNorm, Softmax
and LogSoftmax call (those three are in cases_nn.py).

The inputs are independent here (LayerNormGrad's ``(x, dy, variance, mean, gamma)``, variance positive, mean x's
own; SoftmaxGrad's
``(y, dy)``, y any tensor), so the gradient check, central finite differences in float64 w.r.t. every input, checks
each one's own bprop: the second order of LayerNorm and Softmax. The oracles are written differently from the
kernels: LayerNormGrad's dx as the Jacobian product ``rstd / n (n g - sum(g) - xhat sum(g xhat))`` with
``rstd = 1 / sqrt(variance + epsilon)`` (the default epsilon of MindSpore's CPU kernel, 1e-7, or the forward's),
SoftmaxGrad as the Jacobian ``diag(y) - y y^T`` applied to dy.
"""
import numpy as np

from mindspore.ops._defs.nn import LayerNormGrad, LogSoftmaxGrad, SoftmaxGrad

from case import Case, rand, randpos

F16 = (np.float32, np.float16)


def _layer_norm_grad(x, dy, variance, mean, gamma, bna, bpa, eps):
    bna, bpa = bna % x.ndim, bpa % x.ndim
    rstd = 1 / np.sqrt(variance + eps)
    axes = tuple(range(bna, x.ndim))
    n = int(np.prod(x.shape[bna:]))
    xhat = (x - mean) * rstd
    g = dy * gamma
    dx = rstd / n * (n * g - g.sum(axis=axes, keepdims=True) - xhat * (g * xhat).sum(axis=axes, keepdims=True))
    batch = tuple(range(bpa))
    return dx, (dy * xhat).sum(axis=batch), dy.sum(axis=batch)


def _case(name, shape, bna, bpa, eps=None, **kw):
    b, p = bna % len(shape), bpa % len(shape)
    stat = shape[:b] + (1,) * (len(shape) - b)
    x = rand(*shape, seed=1)
    # the mean is x's own, as LayerNorm's bprop gives it: MindSpore's CPU float16 kernel (ours is 2.10's) also
    # centres x - mean on its row sum, 0 then
    mean = x.mean(axis=tuple(range(b, len(shape))), keepdims=True) if x.size else rand(*stat, seed=4)
    inputs = [x, rand(*shape, seed=2), randpos(*stat, seed=3), mean, randpos(*shape[p:], seed=5)]
    prim = LayerNormGrad(bna, bpa) if eps is None else LayerNormGrad(bna, bpa, eps)
    return Case(name, prim, inputs,
                oracle=lambda x, dy, v, m, g: _layer_norm_grad(x, dy, v, m, g, bna, bpa, 1e-7 if eps is None else eps),
                prims=["LayerNormGrad"], rtol=1e-4, atol=1e-5, **kw)


def _softmax_grad(y, dy, axis):
    """Each slice along ``axis``: ``(diag(y) - y y^T) dy``."""
    y2, dy2 = np.moveaxis(y, axis, -1), np.moveaxis(dy, axis, -1)
    jac = np.einsum("...i,ij->...ij", y2, np.eye(y2.shape[-1])) - y2[..., :, None] * y2[..., None, :]
    return np.moveaxis(np.einsum("...ij,...j->...i", jac, dy2), -1, axis)


def _softmax_case(name, shape, axis, **kw):
    return Case(name, SoftmaxGrad(axis), [randpos(*shape, seed=1) / 4, rand(*shape, seed=2)],
                oracle=lambda y, dy: _softmax_grad(y, dy, axis), prims=["SoftmaxGrad"], rtol=1e-5, atol=1e-6, **kw)


def _softmax_axes_case():
    y, dy = randpos(2, 3, 4, seed=3) / 4, rand(2, 3, 4, seed=4)
    return Case("softmax_grad_two_axes", SoftmaxGrad((1, 2)), [y, dy], prims=["SoftmaxGrad"], rtol=1e-5, atol=1e-6,
                oracle=lambda y, dy: _softmax_grad(y.reshape(2, 12), dy.reshape(2, 12), 1).reshape(2, 3, 4),
                grad=True, grad_rtol=1e-4, grad_atol=1e-6)


def _log_softmax_case(name, shape, axis, **kw):
    """LogSoftmaxGrad ``dy - exp(y) sum(dy)`` as the Jacobian ``I - exp(y) 1^T`` applied to dy."""
    def oracle(y, dy):
        y2, dy2 = np.moveaxis(y, axis, -1), np.moveaxis(dy, axis, -1)
        jac = np.eye(y2.shape[-1]) - np.exp(y2)[..., :, None]
        return np.moveaxis(np.einsum("...ij,...j->...i", jac, dy2), -1, axis)
    return Case(name, LogSoftmaxGrad(axis), [rand(*shape, seed=5) / 2 - 1, rand(*shape, seed=6)], oracle=oracle,
                prims=["LogSoftmaxGrad"], rtol=1e-5, atol=1e-6, **kw)


CASES = [
    _log_softmax_case("log_softmax_grad_last_axis", (3, 5), -1, dtypes=F16, grad=True, grad_rtol=1e-4,
                      grad_atol=1e-6),
    _log_softmax_case("log_softmax_grad_axis_1", (2, 4, 3), 1, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _softmax_case("softmax_grad_last_axis", (3, 5), -1, dtypes=F16, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _softmax_case("softmax_grad_axis_0", (4, 2, 3), 0, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _softmax_axes_case(),
    _softmax_case("softmax_grad_empty", (0, 4), -1),

    _case("layer_norm_grad_2d", (4, 6), 1, 1, dtypes=F16, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _case("layer_norm_grad_last_axis", (2, 3, 5), -1, -1, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _case("layer_norm_grad_axes_differ", (2, 3, 2, 2), 2, 1, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _case("layer_norm_grad_params_later", (2, 3, 4), 1, 2, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _case("layer_norm_grad_params_all", (3, 4), 1, 0, dtypes=(np.float32, np.float64)),
    _case("layer_norm_grad_epsilon", (3, 4), 1, 1, eps=0.5, dtypes=F16, grad=True, grad_rtol=1e-4, grad_atol=1e-6),
    _case("layer_norm_grad_empty_batch", (0, 5), 1, 1),
]
