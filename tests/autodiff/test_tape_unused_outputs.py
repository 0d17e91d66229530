"""The PYNATIVE tape and the outputs of a multi-output operator that got no gradient.

A primitive whose bprop declares ``bprop_none_douts`` (BatchNorm, LayerNorm) gets None for such an output's
cotangent instead of a ``ZerosLike`` tensor the tape would make and the bprop would then add: a PYNATIVE training
step of a network with batch norms makes no zeros for the saved statistics. The gradients are the ones the
materialised zeros gave, whichever outputs the loss uses; GRAPH_MODE gives them too.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
from mindspore.ops._defs import nn as nn_defs


def _x(shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).normal(size=shape).astype(np.float32))


def _layer_norm(x, gamma, beta, use):
    y, mean, var = ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1)(x, gamma, beta)
    terms = {"y": (y * y).sum(), "mean": (mean * 3.0).sum(), "var": (var * var).sum()}
    return sum((terms[k] for k in use[1:]), terms[use[0]])


def _batch_norm(x, scale, bias, mean, var, use):
    outs = ops.BatchNorm(is_training=True)(x, scale, bias, mean, var)
    terms = {"y": (outs[0] * outs[0]).sum(), "mean": (outs[1] * 2.0).sum(), "var": (outs[2] * outs[2]).sum(),
             "saved": (outs[3] + outs[4]).sum()}
    return sum((terms[k] for k in use[1:]), terms[use[0]])


def _ln_inputs():
    return _x((4, 6)), _x((6,), 1), _x((6,), 2)


def _bn_inputs():
    return (_x((2, 3, 4, 4)), _x((3,), 1), _x((3,), 2), ms.Tensor(np.zeros(3, np.float32)),
            ms.Tensor(np.ones(3, np.float32)))


CASES = [("ln", ("y",)), ("ln", ("mean",)), ("ln", ("y", "var")), ("ln", ("var",)), ("ln", ("y", "mean", "var")),
         ("bn", ("y",)), ("bn", ("mean",)), ("bn", ("y", "var")), ("bn", ("saved",)), ("bn", ("y", "mean", "saved"))]


def _grads(kind, use):
    if kind == "ln":
        fn, args, positions = (lambda x, g, b: _layer_norm(x, g, b, use)), _ln_inputs(), (0, 1, 2)
    else:
        fn, args, positions = (lambda x, s, b, m, v: _batch_norm(x, s, b, m, v, use)), _bn_inputs(), (0, 1, 2)
    return [g.asnumpy() for g in ms.grad(fn, grad_position=positions)(*args)]


@pytest.fixture
def zeros_like_calls(monkeypatch):
    calls = []
    original = ops.ZerosLike.__call__

    def spy(self, *args, **kwargs):
        if self.name == "ZerosLike":        # (OnesLike derives from it)
            calls.append(tuple(args[0].shape))
        return original(self, *args, **kwargs)
    monkeypatch.setattr(ops.ZerosLike, "__call__", spy)
    return calls


@pytest.mark.parametrize("kind,use", CASES)
def test_gradients_equal_those_of_materialised_zeros(monkeypatch, kind, use):
    lazy = _grads(kind, use)
    cls = nn_defs.LayerNorm if kind == "ln" else nn_defs.BatchNorm
    monkeypatch.setattr(cls, "bprop_none_douts", False)        # the tape makes ZerosLike cotangents again
    eager = _grads(kind, use)
    for a, b in zip(lazy, eager):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert any(np.abs(a).sum() > 0 for a in lazy)


@pytest.mark.parametrize("kind", ["ln", "bn"])
def test_no_zeros_are_made_for_unused_statistics(zeros_like_calls, kind):
    _grads(kind, ("y",))
    assert zeros_like_calls == []


def test_an_unused_main_output_is_zeros_inside_the_bprop(zeros_like_calls):
    """Only the statistics are used: the bprop makes the zero cotangent of y itself (BatchNormGrad needs one)."""
    _grads("bn", ("mean",))
    assert zeros_like_calls == [(2, 3, 4, 4)]


@pytest.mark.parametrize("kind,use", [("ln", ("y",)), ("ln", ("y", "var")), ("bn", ("y",)), ("bn", ("y", "var"))])
def test_graph_mode_gives_the_same_gradients(kind, use):
    pynative = _grads(kind, use)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        if kind == "ln":
            fn = ms.jit(lambda x, g, b: ms.grad(lambda *a: _layer_norm(*a, use), grad_position=(0, 1, 2))(x, g, b))
            graph = [g.asnumpy() for g in fn(*_ln_inputs())]
        else:
            fn = ms.jit(lambda x, s, b, m, v: ms.grad(lambda *a: _batch_norm(*a, use),
                                                       grad_position=(0, 1, 2))(x, s, b, m, v))
            graph = [g.asnumpy() for g in fn(*_bn_inputs())]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(graph, pynative):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
