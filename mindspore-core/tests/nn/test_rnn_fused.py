"""``nn.LSTM`` / ``nn.GRU`` / ``nn.RNN`` run each layer-direction as one fused ``RNNDirection`` (backward through
time in ``RNNDirectionGrad``): outputs and gradients equal the per-step unrolling (``ops/_defs/rnn.py``'s
``unrolled``, what an export writes), with and without ``seq_length``, stacked and bidirectional, in PYNATIVE and
GRAPH mode; the compiled graph holds one recurrence per layer-direction, not one cell per step."""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn
from mindspore._infer.specialize import specialize
from mindspore._ir import print_module
from mindspore.ops._defs import rnn as rnn_defs

pytestmark = pytest.mark.both_modes

_FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "rnn_fused"

_LAYERS = {"LSTM": (nn.LSTM, {}), "GRU": (nn.GRU, {}), "RNN_TANH": (nn.RNN, {}),
           "RNN_RELU": (nn.RNN, {"nonlinearity": "relu"})}


class _Unrolled:
    """Stands in for a layer's ``fused`` primitive: the same recurrence as per-step operators."""

    def __init__(self, mode):
        self.mode = mode

    def __call__(self, xw, h0, c0, w_hh, b_hh, seq_length):
        return rnn_defs.unrolled(self.mode, xw, h0, c0, w_hh, b_hh, seq_length) + (None,)


def _loss_and_grads(net, x, seq_length):
    weights = net.trainable_params()

    def loss(x):
        out, state = net(x, seq_length=seq_length)
        h = state[0] if isinstance(state, tuple) else state
        c = state[1] if isinstance(state, tuple) else h
        return (out * out).sum() + (h * 0.5).sum() + (c * 0.25).sum()

    value = loss(x)
    grads = ms.grad(loss, grad_position=0, weights=weights)(x)
    return value.asnumpy(), [grads[0].asnumpy()] + [g.asnumpy() for g in grads[1]]


@pytest.mark.parametrize("mode", list(_LAYERS))
@pytest.mark.parametrize("masked", [False, True])
def test_fused_layer_matches_the_unrolled_steps(mode, masked):
    cls, kwargs = _LAYERS[mode]
    ms.set_seed(3)
    net = cls(3, 4, num_layers=2, bidirectional=True, batch_first=True, **kwargs)
    x = Tensor(np.random.default_rng(0).standard_normal((3, 5, 3)).astype(np.float32))
    seq_length = Tensor(np.array([5, 2, 4], np.int32)) if masked else None
    fused = _loss_and_grads(net, x, seq_length)
    net.fused = _Unrolled(net.mode)
    ms.set_context(mode=ms.PYNATIVE_MODE)    # the reference runs eagerly
    reference = _loss_and_grads(net, x, seq_length)
    np.testing.assert_allclose(fused[0], reference[0], rtol=1e-5)
    assert len(fused[1]) == len(reference[1]) == 1 + 16
    for got, want in zip(fused[1], reference[1]):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_float16_layer_matches_float32():
    ms.set_seed(5)
    net32 = nn.LSTM(3, 4, bidirectional=True)
    ms.set_seed(5)
    net16 = nn.LSTM(3, 4, bidirectional=True, dtype=ms.float16)
    x = np.random.default_rng(1).standard_normal((6, 2, 3)).astype(np.float32)
    lengths = Tensor(np.array([6, 3], np.int64))
    y32, (h32, c32) = net32(Tensor(x), seq_length=lengths)
    y16, (h16, c16) = net16(Tensor(x, ms.float16), seq_length=lengths)
    assert y16.dtype == h16.dtype == c16.dtype == ms.float16
    for a, b in ((y16, y32), (h16, h32), (c16, c32)):
        np.testing.assert_allclose(a.asnumpy().astype(np.float32), b.asnumpy(), atol=3e-3)


def test_compiled_graph_has_one_recurrence_per_layer_direction():
    ms.set_seed(0)
    net = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    x = Tensor(np.ones((40, 2, 3), np.float32))
    program = specialize(ms.grad(net, grad_position=0, weights=net.trainable_params()), (x,), name="grad_lstm")
    text = print_module(program.graph)
    assert text.count("RNNDirection[") + text.count("RNNDirection(") >= 4
    assert "RNNDirectionGrad" in text
    assert "Sigmoid" not in text            # unrolled, 40 steps would give 3 * 40 per layer-direction


def test_gradients_decayed_through_time_are_flushed_not_subnormal():
    """Cotangents that fade over many steps would reach float32's subnormal range, which makes the input
    projection's gradient matmuls tens of times slower; the backward kernel flushes them to zero."""
    steps, batch, hidden = 300, 2, 4
    rng = np.random.default_rng(0)
    xw = Tensor(rng.standard_normal((steps, batch, 4 * hidden)).astype(np.float32) * 4)
    h0 = Tensor(np.zeros((batch, hidden), np.float32))
    w = Tensor((rng.standard_normal((4 * hidden, hidden)) * 0.05).astype(np.float32))
    b = Tensor(np.zeros(4 * hidden, np.float32))
    lengths = Tensor(np.full(batch, steps, np.int32))
    prim = rnn_defs.RNNDirection("LSTM")
    dxw = ms.grad(lambda x: prim(x, h0, h0, w, b, lengths)[0][-1].sum())(xw).asnumpy()
    tiny = np.finfo(np.float32).tiny
    assert not np.any((dxw != 0) & (np.abs(dxw) < tiny))
    assert np.abs(dxw[-1]).max() > 1e-3          # the recent steps keep their gradient


def test_layers_match_mindspore_2_10():
    """Loss, input gradient and every weight gradient of 2-layer bidirectional LSTM / GRU / RNN(relu), with and
    without ``seq_length``, against MindSpore 2.10's (``tests/fixtures/rnn_fused/record_rnn_2_10.py``)."""
    spec = importlib.util.spec_from_file_location("record_rnn_2_10", _FIXTURES / "record_rnn_2_10.py")
    record = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(record)
    want = np.load(_FIXTURES / "rnn_2_10.npz")
    got = record.run(ms)
    assert sorted(got) == sorted(want.files)
    for key in want.files:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-4, atol=2e-5, err_msg=key)
