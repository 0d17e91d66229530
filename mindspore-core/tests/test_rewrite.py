"""``mindspore.rewrite``: parsing a network into nodes, editing them, and the generated network."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType


class _Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.d = nn.Dense(3, 3)

    def construct(self, x):
        return self.d(x)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.relu = nn.ReLU()
        self.abs = ops.Abs()
        self.sub = _Sub()

    def construct(self, x, y=None):
        x = self.dense(x)
        x = self.relu(x)
        z = x + 1
        x = self.abs(z)
        if x.shape[0] > 1:
            x = x * 2
        w = ops.sin(x)
        w = self.sub(w)
        return w


def _input():
    return ms.Tensor(np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32))


def test_parse_nodes_types_and_dataflow():
    st = SymbolTree.create(_Net())
    rows = [(n.get_name(), n.get_node_type(), [str(t) for t in n.get_targets()], [str(a) for a in n.get_args()])
            for n in st.nodes()]
    assert rows == [
        ("input_x", NodeType.Input, ["x"], []),
        ("input_y", NodeType.Input, ["y"], []),
        ("dense", NodeType.CallCell, ["x"], ["x"]),
        ("relu", NodeType.CallCell, ["x"], ["x"]),
        ("binop_add", NodeType.MathOps, ["z"], ["x", "1"]),
        ("abs", NodeType.CallPrimitive, ["x"], ["z"]),
        ("if_node", NodeType.ControlFlow, [], ["Illegal ValueType: ValueType.UnsupportedValue"]),
        ("sin", NodeType.CallFunction, ["w"], ["x"]),
        ("sub", NodeType.Tree, ["w"], ["w"]),
        ("return", NodeType.Output, [], ["w"]),
    ]
    dense, relu = st.get_node("dense"), st.get_node("relu")
    assert [n.get_name() for n in dense.get_inputs()] == ["input_x"]
    assert [n.get_name() for n in dense.get_users()] == ["relu"]
    assert [n.get_name() for n in st.get_node("sin").get_inputs()] == ["if_node"]
    assert relu.get_arg_providers() == {0: (dense, 0)}
    assert dense.get_target_users(0) == [(relu, 0)]
    assert st.get_node("sin").get_instance() is ops.sin
    assert dense.get_instance_type() is nn.Dense and st.get_node("abs").get_instance_type() is ops.Abs
    assert st.unique_name("x") == "x_1" and st.unique_name("fresh") == "fresh"
    assert len(st.get_inputs()) == 2 and st.get_node("missing") is None


def test_insert_replace_erase_and_get_network():
    net = _Net()
    x = _input()
    st = SymbolTree.create(net)
    relu = st.get_node("relu")
    tanh = Node.create_call_cell(nn.Tanh(), targets=["x"], args=[ScopedValue.create_naming_value("x")], name="tanh")
    st.insert(st.after(relu), tanh)
    assert [n.get_name() for n in st.nodes()][3:6] == ["relu", "tanh", "binop_add"]
    assert "        x = self.tanh(x)\n" in st.get_code()
    new = st.get_network()
    d, s = net.dense, net.sub
    h = np.tanh(np.maximum(x.asnumpy() @ d.weight.asnumpy().T + d.bias.asnumpy(), 0))
    h = np.abs(h + 1)
    h = np.sin(h * 2)
    expect = h @ s.d.weight.asnumpy().T + s.d.bias.asnumpy()
    np.testing.assert_allclose(new(x).asnumpy(), expect, rtol=1e-5, atol=1e-6)
    # replace relu by sigmoid, erase abs (binop_add's z feeds the if through a renamed argument)
    sig = Node.create_call_cell(nn.Sigmoid(), targets=["x"], args=[ScopedValue.create_naming_value("x")],
                                name="sig")
    assert st.replace(relu, [sig]) is sig
    st.erase(st.get_node("abs"))
    st.get_node("if_node")   # still there
    st.insert(st.after(st.get_node("binop_add")),
              Node.create_call_function(ops.exp, ["x"], [ScopedValue.create_naming_value("z")]))
    new = st.get_network()
    h = 1 / (1 + np.exp(-(x.asnumpy() @ d.weight.asnumpy().T + d.bias.asnumpy())))
    h = np.exp(np.tanh(h) + 1)
    h = np.sin(h * 2)
    expect = h @ s.d.weight.asnumpy().T + s.d.bias.asnumpy()
    np.testing.assert_allclose(new(x).asnumpy(), expect, rtol=1e-5, atol=1e-6)
    assert new.dense is net.dense   # the original network's cells and parameters


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_sub_tree_and_set_output_in_both_modes(mode):
    ms.set_context(mode=mode)
    try:
        net = _Net()
        x = _input()
        st = SymbolTree.create(net)
        sub = st.get_node("sub").get_sub_tree()
        assert [n.get_name() for n in sub.nodes()] == ["input_x", "d", "return"]
        assert [str(t) for t in sub.get_node("d").get_targets()] == ["d_var"]
        relu = Node.create_call_cell(nn.ReLU(), ["y"], [ScopedValue.create_naming_value("d_var")], name="relu")
        sub.insert(sub.after("d"), relu)
        sub.set_output(0, "y")
        before = net(x).asnumpy()
        new = st.get_network()
        np.testing.assert_allclose(new(x).asnumpy(), np.maximum(before, 0), rtol=1e-5, atol=1e-6)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_set_arg_and_attributes():
    st = SymbolTree.create(_Net())
    add = st.get_node("binop_add")
    add.set_arg(1, ScopedValue.create_variable_value(5))
    assert "z = x + 5" in st.get_code()
    abs_node = st.get_node("abs")
    abs_node.set_arg_by_node(0, st.get_node("dense"))
    assert "x = self.abs(x)" in st.get_code()
    abs_node.set_attribute("k", 1)
    assert abs_node.get_attribute("k") == 1 and abs_node.get_attributes() == {"k": 1}
    with pytest.raises(ValueError):
        add.set_arg(5, "x")


def test_input_nodes_and_save(tmp_path):
    st = SymbolTree.create(_Net())
    st.insert(st.after("input_y"), Node.create_input("scale", ScopedValue.create_variable_value(2.0)))
    assert "def construct(self, x, y=None, scale=2.0):" in st.get_code()
    st.set_saved_file_name(str(tmp_path / "net"))
    assert st.get_saved_file_name().endswith("net.py")
    st.save_network_to_file()
    assert (tmp_path / "net.py").read_text().startswith("class _NetOpt(_Net):")


def test_scoped_value_and_errors():
    v = ScopedValue.create_naming_value("a", "self")
    assert (str(v), v.type, v.to_source()) == ("self.a", ValueType.NamingValue, "self.a")
    t = ScopedValue.create_variable_value((1, "b"))
    assert t.type == ValueType.TupleValue and t.to_source() == "(1, 'b')"
    assert [str(x) for x in ScopedValue.create_name_values(["a", "b"], ["", "self"])] == ["a", "self.b"]
    with pytest.raises(TypeError):
        SymbolTree.create(lambda x: x)
    st = SymbolTree.create(_Net())
    with pytest.raises(RuntimeError, match="no node named"):
        st.after("nothing")
    with pytest.raises(TypeError):
        Node.create_call_cell(lambda x: x, ["x"])
    other = SymbolTree.create(_Net())
    with pytest.raises(RuntimeError, match="does not belong"):
        st.erase(other.get_node("dense"))
