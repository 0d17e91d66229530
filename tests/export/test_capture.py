"""Capturing a network for export: one flat graph, named inputs and weights, dynamic sizes made symbolic."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._deploy.capture import Sym, SymFill, capture, composite_of
from mindspore._ir.nodes import Constant


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Dense(64, 5)

    def construct(self, x, scale):
        x = ops.max_pool2d(ops.relu(self.bn(self.conv(x))), 2, 2)
        y = self.fc(x.reshape(x.shape[0], -1))
        return ops.softmax(y, -1) * scale, y[:, -1]


def prims(captured):
    return [getattr(n.inputs[0].value, "name", str(n.inputs[0].value)) for n in captured.graph.nodes]


def test_static_capture_names_inputs_weights_and_outputs():
    net = Small()
    net.set_train(False)
    c = capture(net, ms.Tensor(np.zeros((2, 3, 8, 8), np.float32)), 2.0)
    # the Python scalar is folded into the graph: one input, named after construct's argument
    assert [i.name for i in c.inputs] == ["x"]
    assert c.inputs[0].shape == (2, 3, 8, 8) and c.inputs[0].dtype == ms.float32
    assert sorted(w.name for w in c.weights) == sorted(p.name for p in net.get_parameters())
    assert all(w.node.weight is w.parameter for w in c.weights)
    assert c.graph.params == [i.node for i in c.inputs] + [w.node for w in c.weights]
    assert len(c.outputs) == 2 and not c.dynamic
    assert [tuple(c.shape(o)) for o in c.outputs] == [(2, 5), (2,)]
    assert "Conv2D" in prims(c) and "BatchNorm" in prims(c) and "MatMul" in prims(c)
    # flat: no graph calls are left
    assert not any(isinstance(n.inputs[0].value, ms._ir.nodes.Graph) for n in c.graph.nodes
                   if hasattr(n.inputs[0], "value"))


def test_unknown_batch_becomes_a_symbol_in_shapes_and_constants():
    net = Small()
    net.set_train(False)
    c = capture(net, ms.Tensor(shape=[None, 3, 8, 8], dtype=ms.float32), 2.0)
    batch = Sym.symbol("B")
    assert c.dynamic and c.symbols == {"B": [(0, 0)]}
    assert tuple(c.inputs[0].shape) == (batch, 3, 8, 8)
    assert [tuple(c.shape(o)) for o in c.outputs] == [(batch, 5), (batch,)]
    (reshape,) = [n for n in c.graph.nodes if getattr(n.inputs[0].value, "name", "") == "Reshape"]
    assert c.arg(reshape, 2) == (batch, -1)


def test_polynomials_of_two_sizes_are_fitted():
    def fn(x, mask):
        b, s, d = x.shape
        return ops.reshape(x * mask.reshape(b, s, 1), (b * s, d)), ops.ones((1, s, d), ms.float32) * 3 + x[0:1]

    c = capture(fn, ms.Tensor(shape=[None, None, 4], dtype=ms.float32),
                ms.Tensor(shape=[None, None], dtype=ms.float32))
    b, s = Sym.symbol("B"), Sym.symbol("D1")
    assert c.symbols == {"B": [(0, 0), (1, 0)], "D1": [(0, 1), (1, 1)]}
    reshapes = [n for n in c.graph.nodes if getattr(n.inputs[0].value, "name", "") == "Reshape"]
    targets = [c.arg(n, 2) for n in reshapes]
    assert (b, s, 1) in targets
    assert (Sym({("B", "D1"): 1}), 4) in targets
    assert repr(Sym({("B", "D1"): 1})) == "B*D1"
    assert Sym({("B",): 3, (): 1}).evaluate({"B": 5}) == 16
    # the filled constant of shape (1, S, 4) is a SymFill
    fills = [c.arg(n, j) for n in c.graph.nodes for j in range(1, len(n.inputs)) if isinstance(c.arg(n, j), SymFill)]
    assert len(fills) == 1 and fills[0].shape == (1, s, 4) and float(fills[0].value) == 3.0


def test_named_dynamic_axes():
    net = Small()
    net.set_train(False)
    c = capture(net, ms.Tensor(np.zeros((2, 3, 8, 8), np.float32)), 2.0, dim_names={(0, 0): "batch"})
    assert c.symbols == {"batch": [(0, 0)]}
    assert tuple(c.inputs[0].shape)[0] == Sym.symbol("batch")


def test_structure_that_depends_on_the_size_is_refused():
    def fn(x):
        if x.shape[0] > 8:
            return x * 2
        return x + 1

    with pytest.raises(ValueError, match="changes with the size of its unknown dimensions"):
        capture(fn, ms.Tensor(shape=[None, 3], dtype=ms.float32))

    def halves(x):
        return x[:x.shape[0] // 2] * 2

    with pytest.raises(ValueError, match="whole-number function"):
        capture(halves, ms.Tensor(shape=[None, 4], dtype=ms.float32))


def test_composites_keep_recurrent_layers_whole_only_when_asked():
    class Text(nn.Cell):
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(4, 6, batch_first=True)

        def construct(self, x):
            y, _ = self.lstm(x)
            return y[:, -1, :]

    net = Text()
    x = ms.Tensor(np.zeros((2, 5, 4), np.float32))
    kept = capture(net, x, composites=True)
    (call,) = [n for n in kept.graph.nodes if composite_of(n) is not None]
    comp = composite_of(call)
    assert comp.name == "LSTM" and comp.cell is net.lstm
    assert comp.attrs["hidden_size"] == 6 and comp.attrs["batch_first"] is True
    assert call.inputs[1] is kept.inputs[0].node
    flat = capture(net, x)
    assert not any(composite_of(n) for n in flat.graph.nodes)
    assert prims(flat).count("Sigmoid") == 3 * 5      # unrolled: three gates over five steps
    # running the network is unaffected: the compiled graph inlines everything
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        out = net(ms.Tensor(np.ones((2, 5, 4), np.float32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), net(ms.Tensor(np.ones((2, 5, 4), np.float32))).asnumpy(), rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(ValueError, match="at least one input"):
        capture(Small())
    with pytest.raises(TypeError, match="must be a Cell or a function"):
        capture(3, ms.Tensor(np.zeros(2, np.float32)))

    def returns_input(x):
        return x

    # 2.10 exports it (its MindIR's output is the input): see test_mindir_roundtrip's passthrough test
    c = capture(returns_input, ms.Tensor(np.zeros(2, np.float32)))
    assert c.outputs == [c.inputs[0].node]

    def returns_constant(x):
        return x * 2, ops.ones((2, 3), ms.float32) * 3

    # 2.10 exports it too (its MindIR's output is a Constant node): tests/export/test_export_const_output_2_10.py
    c = capture(returns_constant, ms.Tensor(np.zeros(2, np.float32)))
    assert isinstance(c.outputs[1], Constant) and c.outputs[1].abstract.shape == (2, 3)
    np.testing.assert_array_equal(c.outputs[1].value.asnumpy(), np.full((2, 3), 3, np.float32))
