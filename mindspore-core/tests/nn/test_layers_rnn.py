"""LSTM / GRU / RNN and their cells against a NumPy step-by-step reference: torch-style parameter names,
shapes and order, U(-1/sqrt(H), 1/sqrt(H)) init from NumPy's seeded generator, (output, (h_n, c_n)),
batch_first, bidirectional, stacked layers, initial states, seq_length masking, gradients and errors."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import _nn_ref as ref  # noqa: E402

pytestmark = pytest.mark.both_modes

_MODES = {"LSTM": (nn.LSTM, {}), "GRU": (nn.GRU, {}), "RNN_TANH": (nn.RNN, {}),
          "RNN_RELU": (nn.RNN, {"nonlinearity": "relu"})}


def _params(net):
    return {name: p.asnumpy().astype(np.float64) for name, p in net.parameters_and_names()}


def test_lstm_parameter_names_shapes_order_and_init():
    ms.set_seed(0)
    net = nn.LSTM(10, 16, num_layers=2, bidirectional=True)
    names = [(n, p.name, tuple(p.shape)) for n, p in net.parameters_and_names()]
    expected = []
    for kind, shape in (("weight_ih", None), ("weight_hh", (64, 16)), ("bias_ih", (64,)), ("bias_hh", (64,))):
        for layer in range(2):
            for sfx in ("", "_reverse"):
                name = f"{kind}_l{layer}{sfx}"
                expected.append((name, name, shape or (64, 10 if layer == 0 else 32)))
    assert names == expected
    bound = 1 / np.sqrt(16)
    for _, p in net.parameters_and_names():
        v = p.asnumpy()
        assert p.dtype == ms.float32 and p.requires_grad
        assert np.all(np.abs(v) <= bound) and v.std() > 0.4 * bound


def test_rnn_init_follows_set_seed_and_numpy_draw_order():
    ms.set_seed(42)
    net = nn.GRU(3, 2, num_layers=1)
    np.random.seed(42)
    stdv = 1 / np.sqrt(2)
    draws = [np.random.uniform(-stdv, stdv, s).astype(np.float32) for s in ((6, 3), (6, 2), (6,), (6,))]
    for draw, name in zip(draws, ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")):
        np.testing.assert_array_equal(getattr(net, name).asnumpy(), draw)


@pytest.mark.parametrize("mode", list(_MODES))
@pytest.mark.parametrize("layers,bidirectional,batch_first", [(1, False, False), (2, True, True), (2, False, True)])
def test_recurrent_layers_match_numpy(mode, layers, bidirectional, batch_first):
    cls, kwargs = _MODES[mode]
    net = cls(5, 4, num_layers=layers, batch_first=batch_first, bidirectional=bidirectional, **kwargs)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 3, 5)).astype(np.float32)      # time major
    dirs = 2 if bidirectional else 1
    h0 = rng.standard_normal((layers * dirs, 3, 4)).astype(np.float32)
    c0 = rng.standard_normal((layers * dirs, 3, 4)).astype(np.float32)
    inp = np.transpose(x, (1, 0, 2)) if batch_first else x
    hx = (Tensor(h0), Tensor(c0)) if mode == "LSTM" else Tensor(h0)
    out, state = net(Tensor(inp), hx)
    exp_out, exp_h, exp_c = ref.rnn_reference(mode, x, _params(net), layers, bidirectional, h0, c0, hidden=4)
    if batch_first:
        exp_out = np.transpose(exp_out, (1, 0, 2))
    np.testing.assert_allclose(out.asnumpy(), exp_out, rtol=1e-4, atol=1e-5)
    if mode == "LSTM":
        h_n, c_n = state
        np.testing.assert_allclose(c_n.asnumpy(), exp_c, rtol=1e-4, atol=1e-5)
    else:
        h_n = state
    np.testing.assert_allclose(h_n.asnumpy(), exp_h, rtol=1e-4, atol=1e-5)
    assert h_n.shape == (layers * dirs, 3, 4)


def test_lstm_default_state_and_no_bias():
    net = nn.LSTM(3, 2, has_bias=False)
    assert [n for n, _ in net.parameters_and_names()] == ["weight_ih_l0", "weight_hh_l0"]
    x = np.random.default_rng(2).standard_normal((4, 2, 3)).astype(np.float32)
    out, (h, c) = net(Tensor(x))
    exp_out, exp_h, exp_c = ref.rnn_reference("LSTM", x, _params(net), 1, False, hidden=2)
    np.testing.assert_allclose(out.asnumpy(), exp_out, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(h.asnumpy(), exp_h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(c.asnumpy(), exp_c, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN_TANH"])
def test_seq_length_masks_padded_steps(mode):
    cls, kwargs = _MODES[mode]
    net = cls(3, 4, num_layers=2, bidirectional=True, batch_first=True, **kwargs)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((3, 5, 3)).astype(np.float32)
    lengths = np.array([5, 2, 3], np.int32)
    out, state = net(Tensor(x), seq_length=Tensor(lengths))
    exp_out, exp_h, _ = ref.rnn_reference(mode, np.transpose(x, (1, 0, 2)), _params(net), 2, True,
                                          lengths=lengths, hidden=4)
    np.testing.assert_allclose(out.asnumpy(), np.transpose(exp_out, (1, 0, 2)), rtol=1e-4, atol=1e-5)
    h_n = state[0] if mode == "LSTM" else state
    np.testing.assert_allclose(h_n.asnumpy(), exp_h, rtol=1e-4, atol=1e-5)
    assert np.all(out.asnumpy()[1, 2:] == 0)


def test_dropout_between_layers_only_in_training():
    net = nn.LSTM(4, 8, num_layers=2, dropout=0.5)
    x = Tensor(np.random.default_rng(4).standard_normal((3, 2, 4)).astype(np.float32))
    a, _ = net(x)
    b, _ = net(x)
    np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())        # eval: deterministic
    net.set_train()
    c, _ = net(x)
    d, _ = net(x)
    assert not np.array_equal(c.asnumpy(), d.asnumpy())
    assert net.dropout_op.training


def test_lstm_gradients_flow_and_match_finite_differences():
    net = nn.LSTM(3, 2, num_layers=2, bidirectional=True)
    rng = np.random.default_rng(5)
    x = Tensor(rng.standard_normal((4, 2, 3)).astype(np.float32))
    out = net(x)[0]
    weights_out = rng.standard_normal(out.shape)
    grads = ref.param_grads(net, (x,), weights_out)
    assert set(grads) == {p.name for p in net.trainable_params()}
    for name, g in grads.items():
        assert np.abs(g).sum() > 0, name
    numeric = ref.numeric_param_grads(net, (x,), weights_out, eps=1e-2, max_entries=3)
    for name, entries in numeric.items():
        for idx, value in entries.items():
            assert abs(grads[name][idx] - value) <= 2e-3 + 2e-2 * abs(value), (name, idx, grads[name][idx], value)


def test_recurrent_errors():
    with pytest.raises(ValueError):
        nn.LSTM(3, 4, dropout=1.0)
    with pytest.raises(TypeError):
        nn.LSTM(3, 4, dropout=1)
    with pytest.raises(ValueError):
        nn.RNN(3, 4, nonlinearity="sigmoid")
    with pytest.raises(ValueError):
        nn.GRU(0, 4)
    net = nn.LSTM(3, 4)
    x = Tensor(np.ones((2, 1, 3), np.float32))
    with pytest.raises(TypeError):
        net(Tensor(np.ones((2, 1, 3), np.float64)))
    with pytest.raises(TypeError):
        net(x, Tensor(np.zeros((1, 1, 4), np.float32)))              # LSTM needs (h, c)
    with pytest.raises(ValueError):
        net(x, (Tensor(np.zeros((2, 1, 4), np.float32)), Tensor(np.zeros((2, 1, 4), np.float32))))
    with pytest.raises(ValueError):
        net(Tensor(np.ones((2, 1, 5), np.float32)))
    with pytest.raises(TypeError):
        net(x, seq_length=Tensor(np.ones(1, np.float32)))


def test_recurrent_cells():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 5)).astype(np.float32)
    h = rng.standard_normal((3, 4)).astype(np.float32)
    c = rng.standard_normal((3, 4)).astype(np.float32)
    for cls, mode, kwargs in ((nn.LSTMCell, "LSTM", {}), (nn.GRUCell, "GRU", {}), (nn.RNNCell, "RNN_TANH", {}),
                              (nn.RNNCell, "RNN_RELU", {"nonlinearity": "relu"})):
        cell = cls(5, 4, **kwargs)
        assert [n for n, _ in cell.parameters_and_names()] == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]
        params = {k + "_l0": v for k, v in _params(cell).items()}
        _, exp_h, exp_c = ref.rnn_reference(mode, x[None], params, 1, False, h[None], c[None], hidden=4)
        if mode == "LSTM":
            hy, cy = cell(Tensor(x), (Tensor(h), Tensor(c)))
            np.testing.assert_allclose(cy.asnumpy(), exp_c[0], rtol=1e-4, atol=1e-5)
            unbatched = cell(Tensor(x[0]), (Tensor(h[0]), Tensor(c[0])))[0]
        else:
            hy = cell(Tensor(x), Tensor(h))
            unbatched = cell(Tensor(x[0]), Tensor(h[0]))
        np.testing.assert_allclose(hy.asnumpy(), exp_h[0], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(unbatched.asnumpy(), exp_h[0][0], rtol=1e-4, atol=1e-5)
        assert np.all(np.abs(cell.weight_ih.asnumpy()) <= 0.5)


def test_lstm_nested_parameter_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(10, 4)
            self.lstm = nn.LSTM(4, 3, batch_first=True)
            self.fc = nn.Dense(3, 2)

        def construct(self, ids):
            out, _ = self.lstm(self.embedding(ids))
            return self.fc(out[:, -1])

    net = Net()
    assert [p.name for p in net.get_parameters()] == [
        "embedding.embedding_table", "lstm.weight_ih_l0", "lstm.weight_hh_l0", "lstm.bias_ih_l0", "lstm.bias_hh_l0",
        "fc.weight", "fc.bias"]
    ids = Tensor(np.array([[1, 2, 3], [4, 5, 0]]), ms.int32)
    grads = ms.grad(lambda i: net(i).sum(), grad_position=None, weights=net.trainable_params())(ids)
    assert all(np.abs(g.asnumpy()).sum() > 0 for g in grads)


def test_rnn_cells_module_path_and_cell_base_subclass():
    # 2.10's mindspore.nn.layer.rnn_cells: the cells, and RNNCellBase that MindOCR's FP16 GRUCell subclasses
    from mindspore.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCell, RNNCellBase

    assert (GRUCell, LSTMCell, RNNCell) == (nn.GRUCell, nn.LSTMCell, nn.RNNCell)

    class ThreeGates(RNNCellBase):
        def __init__(self, input_size, hidden_size, has_bias=True):
            super().__init__(input_size, hidden_size, has_bias, num_chunks=3)

    cell = ThreeGates(5, 4)
    got = [(n, tuple(p.shape)) for n, p in cell.parameters_and_names()]
    assert got == [("weight_ih", (12, 5)), ("weight_hh", (12, 4)), ("bias_ih", (12,)), ("bias_hh", (12,))]
    assert all(np.abs(p.asnumpy()).max() <= 0.5 for p in cell.get_parameters())   # U(+-1/sqrt(4))
    bare = ThreeGates(5, 4, has_bias=False)
    assert bare.bias_ih is None and [n for n, _ in bare.parameters_and_names()] == ["weight_ih", "weight_hh"]
    with pytest.raises(TypeError):
        ThreeGates(5, 4, has_bias=1)
    with pytest.raises(ValueError):
        ThreeGates(0, 4)
