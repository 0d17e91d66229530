"""Conformance cases of the primitives of ``ops/_defs/rnn.py``: the fused recurrence ``RNNDirection`` of
``nn.LSTM`` / ``nn.GRU`` / ``nn.RNN`` (and, through its gradient cases, ``RNNDirectionGrad``).

The oracle re-states MindSpore 2.10's cell formulas in NumPy, step by step over the batch, with the
``seq_length`` masking of ``nn.LSTM`` (past a sequence's length: output zero, state carried); the gradients are
checked against finite differences. ``nn.LSTM``'s own values against MindSpore 2.10 are in
``mindspore-core/tests/nn/test_layers_rnn.py``.
"""
from __future__ import annotations

import numpy as np

from mindspore.ops._defs.rnn import RNNDirection

from case import Case, rand

_T, _B, _H = 3, 2, 2
_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _sig(a):
    return 1 / (1 + np.exp(-a))


def _oracle(mode):
    def run(xw, h0, c0, w, b, lengths):
        h, c = h0.copy(), c0.copy()
        ys = np.zeros((xw.shape[0],) + h.shape, xw.dtype)
        for t in range(xw.shape[0]):
            for n in range(h.shape[0]):
                if t >= lengths[n]:
                    continue
                hw = w @ h[n] + b
                if mode == "LSTM":
                    i, f, g, o = np.split(xw[t, n] + hw, 4)
                    c[n] = _sig(f) * c[n] + _sig(i) * np.tanh(g)
                    h[n] = _sig(o) * np.tanh(c[n])
                elif mode == "GRU":
                    xr, xz, xn = np.split(xw[t, n], 3)
                    hr, hz, hn = np.split(hw, 3)
                    r, z = _sig(xr + hr), _sig(xz + hz)
                    new = np.tanh(xn + r * hn)
                    h[n] = (1 - z) * new + z * h[n]
                else:
                    pre = xw[t, n] + hw
                    h[n] = np.maximum(pre, 0) if mode == "RNN_RELU" else np.tanh(pre)
                ys[t, n] = h[n]
        return ys, h, (c if mode == "LSTM" else np.zeros_like(c))
    return run


def _case(mode, lengths, seed, **kw):
    g = _GATES[mode] * _H
    inputs = [rand(_T, _B, g, seed=seed), rand(_B, _H, seed=seed + 1), rand(_B, _H, seed=seed + 2),
              rand(g, _H, seed=seed + 3), rand(g, seed=seed + 4), np.array(lengths, np.int32)]
    prim = RNNDirection(mode)
    return Case(f"rnn_direction_{mode.lower()}" + ("_masked" if min(lengths) < _T else ""),
                lambda *xs: prim(*xs)[:3], inputs, oracle=_oracle(mode), prims=["RNNDirection", "RNNDirectionGrad"],
                grad=True, grad_inputs=(0, 1, 2, 3, 4), dtypes=(np.float32, np.float16, np.float64), rtol=1e-5,
                atol=1e-6, **kw)


CASES = [
    _case("LSTM", [_T, _T], 0),
    _case("LSTM", [3, 1], 10),
    _case("GRU", [2, 3], 20),
    _case("RNN_TANH", [1, 3], 30),
    _case("RNN_RELU", [3, 3], 40, grad_atol=1e-5),
]
