"""Loading MindIR files and running them: ``mindspore.load``, ``nn.GraphCell``, ``mindspore.Predictor``.

The reference files in ``tests/fixtures/export/mindspore-2.10/`` were exported by real MindSpore 2.10 and the
expected outputs recorded from its own ``nn.GraphCell`` (``tests/export/make_ms_fixtures.py``): every file
must load and give those outputs here, in GRAPH_MODE, in PYNATIVE_MODE and through ``Predictor``. Hand-made
files (built with the schema) check what a loader must refuse, and how.
"""
import builtins
import os
import pathlib
import pickle
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore._deploy.mindir import from_ms, reader
from mindspore._deploy.mindir._schema import AttributeProto, ModelProto, PrimitiveProto
from mindspore._pipeline.compiler import STATS
from mindspore._fileio import crypto as _ckpt_crypto

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "export" / "mindspore-2.10"
KEY = b"0123456789abcdef"
RTOL, ATOL = 1e-5, 1e-6

#: fixture -> (dec_key, dec_mode) to load it with
FILES = {
    "small": (None, None), "mlp": (None, None), "lenet": (None, None), "resnet": (None, None),
    "transformer": (None, None), "text_lstm": (None, None), "encoder_layer": (None, None),
    "layers": (None, None), "lenet_dyn": (None, None), "transformer_dyn": (None, None),
    "text_lstm_dyn": (None, None), "shape_ops_dyn": (None, None), "encoder_layer_dyn": (None, None),
    "lenet_aes_gcm": (KEY, "AES-GCM"), "small_aes_cbc": (KEY, "AES-CBC"), "small_sm4_cbc": (KEY, "SM4-CBC"),
}


def cases(name):
    """[(label, inputs, expected outputs)] recorded for fixture ``name`` (one per batch size it was run with)."""
    if name == "small":
        npz = np.load(FIXTURES / "expected_mindir.npz")
        b5 = np.load(FIXTURES / "small_b5.npz")
        return [("b2", [npz["__input__"]], [npz["__output__"]]), ("b5", [b5["in0"]], [b5["out0"]])]
    npz = np.load(FIXTURES / f"{name}.npz")
    out = []
    for prefix in ("", "b1_", "b3_", "b5_"):
        def keys(kind):
            return sorted((k for k in npz.files if k.startswith(prefix + kind) and k[len(prefix + kind):].isdigit()),
                          key=lambda k: int(k[len(prefix + kind):]))
        ins = [npz[k] for k in keys("in")]
        if ins:
            out.append((prefix.rstrip("_") or "exported", ins, [npz[k] for k in keys("out")]))
    return out


def load(name):
    key, mode = FILES[name]
    path = str(FIXTURES / f"{name}.mindir")
    return ms.load(path) if key is None else ms.load(path, dec_key=key, dec_mode=mode)


def as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def assert_outputs(got, expected, label):
    got = as_tuple(got)
    assert len(got) == len(expected), label
    for i, (g, e) in enumerate(zip(got, expected)):
        g = g.asnumpy() if hasattr(g, "asnumpy") else np.asarray(g)
        assert (g.shape, g.dtype) == (e.shape, e.dtype), f"{label} output {i}"
        np.testing.assert_allclose(g, e, rtol=RTOL, atol=ATOL, err_msg=f"{label} output {i}")


@pytest.fixture
def mode():
    saved = ms.get_context("mode")
    yield lambda m: ms.set_context(mode=m)
    ms.set_context(mode=saved)


# --- MindSpore's files give MindSpore's outputs --------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(FILES))
@pytest.mark.parametrize("runner", ["graph_cell_graph", "graph_cell_pynative", "predictor"])
def test_fixture_gives_mindspore_outputs(name, runner, mode):
    if runner == "predictor":
        key, dec_mode = FILES[name]
        predictor = ms.Predictor(str(FIXTURES / f"{name}.mindir"), dec_key=key, dec_mode=dec_mode or "AES-GCM")
        for label, ins, outs in cases(name):
            assert_outputs(predictor.predict(*ins), outs, f"{name} {label}")
        return
    mode(ms.GRAPH_MODE if runner == "graph_cell_graph" else ms.PYNATIVE_MODE)
    cell = nn.GraphCell(load(name))
    for label, ins, outs in cases(name):
        compiles = STATS["compiles"]
        assert_outputs(cell(*[ms.Tensor(x) for x in ins]), outs, f"{name} {label}")
        assert STATS["compiles"] == compiles + 1          # a new input shape: compiled once...
        assert_outputs(cell(*[ms.Tensor(x) for x in ins]), outs, f"{name} {label} again")
        assert STATS["compiles"] == compiles + 1          # ...and the optimised graph reused


@pytest.mark.parametrize("name", ["small", "text_lstm_dyn", "encoder_layer_dyn"])
def test_eager_run_of_the_graph_gives_the_same_outputs(name):
    graph = load(name)
    for label, ins, outs in cases(name):
        assert_outputs(graph.run(*[ms.Tensor(x) for x in ins]), outs, f"{name} {label}")


def test_small_file_header_weights_and_inputs():
    graph = load("small")
    ref = np.load(FIXTURES / "expected_mindir.npz")
    assert graph.inputs == (reader.MindIRInput("x", (2, 3, 8, 8), ms.float32),)
    assert [(o.shape, o.dtype) for o in graph.outputs] == [((2, 10), ms.float32)]
    assert list(graph.parameters) == ["conv.weight", "conv.bias", "bn.gamma", "bn.beta", "bn.moving_mean",
                                      "bn.moving_variance", "fc.weight", "fc.bias"]
    for name, param in graph.parameters.items():
        assert param.name == name
        np.testing.assert_array_equal(param.asnumpy(), ref[name])
    assert set(graph.primitives) == {"Conv2D", "BatchNorm", "ReLU", "MaxPool", "Flatten", "MatMul", "BiasAdd",
                                     "Softmax", "Muls", "Load", "TupleGetItem", "MakeTuple", "UpdateState", "Depend"}
    cell = nn.GraphCell(graph)
    assert [n for n, _ in cell.parameters_and_names()] == list(graph.parameters)


def test_dynamic_inputs_read_as_minus_one():
    assert load("lenet_dyn").inputs[0].shape == (-1, 1, 32, 32)
    assert load("text_lstm_dyn").inputs[0] == reader.MindIRInput("x", (-1, 7), ms.int32)
    # the dynamic LSTM classifier computes its initial state from the batch: Shape -> TupleGetItem -> Zeros
    assert {"Shape", "Zeros", "LSTM"} <= set(load("text_lstm_dyn").primitives)
    assert {"ScalarMul", "ScalarFloorDiv", "ScalarAdd", "TensorShape", "Range"} <= set(load("shape_ops_dyn").primitives)


def test_dynamic_batch_compiles_once_per_batch_size(mode):
    mode(ms.GRAPH_MODE)
    cell = nn.GraphCell(load("lenet_dyn"))
    compiles = STATS["compiles"]
    for batch in (1, 3, 1, 3, 2):
        assert cell(ms.Tensor(np.zeros((batch, 1, 32, 32), np.float32))).shape == (batch, 10)
    assert STATS["compiles"] == compiles + 3


def test_control_flow_file_mindspore_itself_can_not_run():
    """The dynamic-batch nn.TransformerEncoderLayer keeps a shape check as Switch over Partials of two
    sub-graphs; MindSpore 2.10's loader fails on it (the reference outputs are the network's own)."""
    assert str(np.load(FIXTURES / "encoder_layer_dyn.npz")["reference"]) == "network"
    graph = load("encoder_layer_dyn")
    assert {"Switch", "Partial", "raise", "tuple_equal", "BoolNot"} <= set(graph.primitives)


# --- GraphCell's contract --------------------------------------------------------------------------------------
def test_graph_cell_checks_its_inputs(mode):
    mode(ms.GRAPH_MODE)
    cell = nn.GraphCell(load("lenet"))
    x = ms.Tensor(np.zeros((2, 1, 32, 32), np.float32))
    for args in ((), (x, x)):
        with pytest.raises(RuntimeError, match="The input number of parameters is not Compatible"):
            cell(*args)
    with pytest.raises(TypeError, match="must have dtype Float32"):
        cell(ms.Tensor(np.zeros((2, 1, 32, 32), np.float64)))
    with pytest.raises(ValueError, match="must be a 4-D tensor"):
        cell(ms.Tensor(np.zeros((2, 32, 32), np.float32)))
    with pytest.raises(TypeError, match="must be a Tensor"):
        cell(np.zeros((2, 1, 32, 32), np.float32))
    with pytest.raises(TypeError, match="by position"):
        cell(x=x)
    with pytest.raises(ValueError, match="'x1_col': 256 and 'x2_row': 400") as info:   # MindSpore's words
        cell(ms.Tensor(np.zeros((2, 1, 28, 28), np.float32)))     # the wrong size fails where the shapes meet
    assert any("(MatMul) of the MindIR graph" in note for note in info.value.__notes__)


def test_graph_cell_params_init(mode):
    mode(ms.GRAPH_MODE)
    x = ms.Tensor(cases("lenet")[0][1][0])
    before = nn.GraphCell(load("lenet"))(x).asnumpy()
    bias = load("lenet").parameters["fc3.bias"].asnumpy()
    cell = nn.GraphCell(load("lenet"), params_init={"fc3.bias": ms.Tensor(bias + 1.0), "no.such": ms.Tensor(1.0)})
    np.testing.assert_allclose(cell(x).asnumpy(), before + 1.0, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(cell.graph.parameters["fc3.bias"].asnumpy(), bias + 1.0)
    with pytest.raises(ValueError, match="same shape and dtype"):
        nn.GraphCell(load("lenet"), params_init={"fc3.bias": ms.Tensor(np.zeros(11, np.float32))})
    with pytest.raises(TypeError, match="must be a dict"):
        nn.GraphCell(load("lenet"), params_init=[1])
    with pytest.raises(TypeError, match="the value must be Tensor or Parameter"):
        nn.GraphCell(load("lenet"), params_init={"fc3.bias": 1.0})
    with pytest.raises(TypeError, match="FuncGraph loaded from MindIR"):
        nn.GraphCell("lenet.mindir")
    with pytest.raises(ValueError, match="obfuscation"):
        nn.GraphCell(load("lenet"), obf_random_seed=1)


def test_graph_cell_inside_a_network_and_under_a_gradient(mode):
    graph = load("lenet")
    x_np = cases("lenet")[0][1][0]
    expected = cases("lenet")[0][2][0]

    class Head(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = nn.GraphCell(graph)

        def construct(self, x):
            return self.body(x) * 2.0

    for m in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        mode(m)
        np.testing.assert_allclose(Head()(ms.Tensor(x_np)).asnumpy(), expected * 2.0, rtol=RTOL, atol=ATOL)
    mode(ms.PYNATIVE_MODE)
    cell = nn.GraphCell(graph)
    grad = ms.grad(lambda x: cell(x).sum())(ms.Tensor(x_np))
    # the gradient of sum(logits) w.r.t. the image, against finite differences on one pixel
    eps = 1e-2
    bumped = x_np.copy()
    bumped[0, 0, 10, 10] += eps
    fd = (float(graph.run(ms.Tensor(bumped)).sum().asnumpy()) - float(expected.sum())) / eps
    assert grad.shape == x_np.shape and abs(float(grad.asnumpy()[0, 0, 10, 10]) - fd) < 1e-2


def test_model_predict_and_eval_with_a_graph_cell(mode):
    import mindspore.dataset as ds
    mode(ms.GRAPH_MODE)
    cell = nn.GraphCell(load("lenet"))
    (_, (x,), (logits,)), = cases("lenet")[:1]
    model = ms.train.Model(cell)
    np.testing.assert_allclose(model.predict(ms.Tensor(x)).asnumpy(), logits, rtol=RTOL, atol=ATOL)
    labels = logits.argmax(1).astype(np.int32)
    labels[1] = (labels[1] + 1) % 10
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.train.Model(cell, eval_network=nn.WithEvalCell(cell, loss), metrics={"acc", "loss"},
                           eval_indexes=[0, 1, 2])
    result = model.eval(ds.NumpySlicesDataset({"x": x, "y": labels}, shuffle=False).batch(2))
    assert result["acc"] == 0.5
    assert result["loss"] == pytest.approx(float(loss(ms.Tensor(logits), ms.Tensor(labels)).asnumpy()), rel=1e-5)
    with pytest.raises(ValueError, match="should be None when network is a GraphCell"):
        ms.train.Model(cell, loss_fn=loss)


# --- Predictor -----------------------------------------------------------------------------------------------------
def test_predictor_inputs_numpy_casts_and_batches():
    predictor = ms.Predictor(str(FIXTURES / "lenet_dyn.mindir"))
    assert predictor.inputs == (reader.MindIRInput("x", (-1, 1, 32, 32), ms.float32),)
    assert predictor.outputs[0].shape == (-1, 10)
    (_, (x1,), (y1,)), (_, (x3,), (y3,)) = cases("lenet_dyn")
    compiles = STATS["compiles"]
    first = predictor.predict(x1)
    predictor.predict(x1 + 1)
    assert STATS["compiles"] == compiles + 1                 # compiled once for this shape
    assert isinstance(first, np.ndarray)
    np.testing.assert_allclose(predictor.predict(x3.astype(np.float64)), y3, rtol=RTOL, atol=ATOL)  # cast
    np.testing.assert_allclose(first, y1, rtol=RTOL, atol=ATOL)      # not overwritten by the next run
    np.testing.assert_allclose(predictor(ms.Tensor(x1)), y1, rtol=RTOL, atol=ATOL)
    seen = []

    def batches():
        for x in (x1, (x3,), [x1]):
            seen.append(len(x) if isinstance(x, np.ndarray) else 0)
            yield x
    stream = predictor.predict_batches(batches())
    assert seen == []                                    # lazy: nothing runs before the first output is asked for
    outs = list(stream)
    assert [o.shape for o in outs] == [(1, 10), (3, 10), (1, 10)]
    np.testing.assert_allclose(outs[1], y3, rtol=RTOL, atol=ATOL)
    with pytest.raises(TypeError, match="Int32, but got a NumPy array of float32, which does not cast"):
        ms.Predictor(load("text_lstm_dyn")).predict(np.zeros((1, 7), np.float32))
    with pytest.raises(RuntimeError, match="not Compatible"):
        predictor.predict(x1, x1)


def test_predictor_batches_of_one_shape_skip_the_lookup_but_not_the_checks():
    """Batch after batch of one shape reuses the last call's compiled graph (no signature, no cache lookup): the
    numbers are those of each batch, outputs are not shared, and anything that changes the key (another shape or
    dtype, invalidate_all) goes through the full path again."""
    from mindspore._pipeline import compiler
    predictor = ms.Predictor(str(FIXTURES / "lenet_dyn.mindir"))
    (_, (x1,), (y1,)), (_, (x3,), (y3,)) = cases("lenet_dyn")
    first = predictor.predict(x1)
    hits = STATS["hits"]
    x = x1.copy()
    second = predictor.predict(x)
    assert STATS["hits"] == hits                            # the fast path: no lookup at all
    np.testing.assert_array_equal(second, first)
    x += 1.0                                                # the same array, new values: computed anew
    third = predictor.predict(x)
    assert not np.array_equal(third, first)
    np.testing.assert_array_equal(predictor.predict(x1), first)
    np.testing.assert_allclose(predictor.predict(x3), y3, rtol=RTOL, atol=ATOL)    # another shape: full path
    compiles = STATS["compiles"]
    compiler.invalidate_all()
    np.testing.assert_allclose(predictor.predict(x3), y3, rtol=RTOL, atol=ATOL)
    assert STATS["compiles"] == compiles + 1               # a stale entry is never reused
    np.testing.assert_allclose(predictor.predict(x3.astype(np.float64)), y3, rtol=RTOL, atol=ATOL)


def test_predictor_from_a_loaded_graph_with_tuple_outputs():
    (_, ins, outs), = cases("layers")
    predictor = ms.Predictor(load("layers"))
    got = predictor.predict(*ins)
    assert isinstance(got, tuple) and len(got) == 13 and all(isinstance(g, np.ndarray) for g in got)
    assert_outputs(tuple(ms.Tensor(g) for g in got), outs, "layers")


def test_predictor_argument_errors(tmp_path):
    with pytest.raises(ValueError, match="ending with '.mindir'"):
        ms.Predictor(str(FIXTURES / "lenet.npz"))
    with pytest.raises(ValueError, match="does not exist"):
        ms.Predictor(str(tmp_path / "none.mindir"))
    with pytest.raises(TypeError, match="must be a path of a MindIR file or a graph"):
        ms.Predictor(42)
    with pytest.raises(RuntimeError, match="decrypt failed"):
        ms.Predictor(str(FIXTURES / "lenet_aes_gcm.mindir"))


_LEAN = """
import importlib.util, sys, types
BLOCKED = ("mindspore.nn", "mindspore.train.model", "mindspore.dataset")

class Block:
    def find_spec(self, name, path=None, target=None):
        if name in BLOCKED or name.startswith(tuple(b + "." for b in BLOCKED)):
            raise ImportError("blocked import: " + name)
        return None

sys.meta_path.insert(0, Block())
# the packages whose __init__ imports everything (mindspore: nn, train; mindspore.train: Model) stay empty, so
# only what the Predictor itself imports is loaded
for name in ("mindspore", "mindspore.train"):
    spec = importlib.util.find_spec(name)
    module = types.ModuleType(name)
    module.__path__ = list(spec.submodule_search_locations)
    sys.modules[name] = module
import numpy as np
from mindspore._deploy.predictor import Predictor
fixtures = sys.argv[1]
plain = np.load(fixtures + "/lenet_dyn.npz")
out = Predictor(fixtures + "/lenet_dyn.mindir").predict(plain["b3_in0"])
np.testing.assert_allclose(out, plain["b3_out0"], rtol=1e-5, atol=1e-6)
enc = np.load(fixtures + "/lenet_aes_gcm.npz")
out = Predictor(fixtures + "/lenet_aes_gcm.mindir", dec_key=b"0123456789abcdef").predict(enc["in0"])
np.testing.assert_allclose(out, enc["out0"], rtol=1e-5, atol=1e-6)
loaded = sorted(m for m in sys.modules if m.startswith(BLOCKED))
assert not loaded, loaded
print("LEAN-OK")
"""


def test_predictor_needs_no_nn_model_or_dataset():
    result = subprocess.run([sys.executable, "-c", _LEAN, str(FIXTURES)], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert result.returncode == 0 and "LEAN-OK" in result.stdout, result.stderr[-3000:]


# --- encryption --------------------------------------------------------------------------------------------------
def test_mindspore_encrypts_mindir_in_the_checkpoint_block_layout():
    data = (FIXTURES / "lenet_aes_gcm.mindir").read_bytes()
    assert _ckpt_crypto.is_cipher_data(data)
    plain = _ckpt_crypto.decrypt(data, KEY, "AES-GCM")
    assert ModelProto.FromString(plain).producer_name == "MindSpore"


def test_wrong_or_missing_key_is_mindspore_s_error():
    path = str(FIXTURES / "lenet_aes_gcm.mindir")
    message = "Load MindIR failed. The file may be encrypted and decrypt failed"
    for kwargs in ({}, {"dec_key": b"x" * 16}, {"dec_key": KEY, "dec_mode": "AES-CBC"}, {"dec_key": b"short"}):
        with pytest.raises(RuntimeError, match=message):
            ms.load(path, **kwargs)
    with pytest.raises(RuntimeError, match=message):        # a key for a file that is not encrypted
        ms.load(str(FIXTURES / "lenet.mindir"), dec_key=KEY)


def test_custom_decryption_function(tmp_path):
    plain = (FIXTURES / "lenet.mindir").read_bytes()
    path = tmp_path / "xor.mindir"
    path.write_bytes(bytes(b ^ 0x5A for b in plain))

    def xor(data, key):
        assert key == b"k"
        return bytes(b ^ 0x5A for b in data)
    graph = ms.load(str(path), dec_key=b"k", dec_mode=xor)
    (_, (x,), (y,)), = cases("lenet")[:1]
    np.testing.assert_allclose(graph.run(ms.Tensor(x)).asnumpy(), y, rtol=RTOL, atol=ATOL)
    with pytest.raises(RuntimeError, match="decrypt failed.*returned str"):
        ms.load(str(path), dec_key=b"k", dec_mode=lambda data, key: "text")
    with pytest.raises(RuntimeError, match="decrypt failed.*ZeroDivisionError"):
        ms.load(str(path), dec_key=b"k", dec_mode=lambda data, key: 1 / 0)
    with pytest.raises(RuntimeError, match="not a MindIR model"):
        ms.load(str(path), dec_key=b"k", dec_mode=lambda data, key: data)


# --- hand-made files: what the loader refuses ------------------------------------------------------------------------
class MiniIR:
    """A MindIR model built with the schema: graph ``g``, inputs, weights, primitives, nodes."""

    def __init__(self):
        self.model = ModelProto(ir_version="1.1", producer_name="test", mind_ir_version=3)
        self.graph = self.model.graph
        self.graph.name = "g"

    def input(self, name, shape, code=1, graph=None):
        v = (graph or self.graph).input.add(name=f"{(graph or self.graph).name}:{name}")
        v.tensor.add(dims=list(shape), data_type=code)
        return v.name

    def weight(self, name, array):
        t = self.graph.parameter.add(name=f"g:{name}", ref_key=name, data_type=1, dims=list(array.shape))
        t.raw_data = np.ascontiguousarray(array, np.float32).tobytes()
        return t

    def prim(self, op, prim_type=PrimitiveProto.PRIMITIVE_FUNCTION, **attrs):
        p = self.model.primitives.add(name=f"{op}:{len(self.model.primitives)}", op_type=op, prim_type=prim_type)
        for key, value in attrs.items():
            set_attr(p.attribute.add(name=key), value)
        return f"REF::{p.name}"

    def const(self, name, value):
        node = self.graph.node.add(op_type="Constant", name=name, output=[name])
        set_attr(node.attribute.add(name="value"), value)
        return name

    def node(self, out, op_type, *inputs, graph=None):
        g = graph or self.graph
        g.node.add(op_type=op_type, name=f"{g.name}:{out}", input=list(inputs), output=[f"{g.name}:{out}"])
        return f"{g.name}:{out}"

    def output(self, name, graph=None):
        (graph or self.graph).output.add(name=name)

    def save(self, path):
        path.write_bytes(self.model.SerializeToString())
        return str(path)


def set_attr(a, value, nested=False):
    if isinstance(value, bool):
        a.type = AttributeProto.BOOL
        a.ints.append(int(value)) if nested else setattr(a, "i", int(value))
    elif isinstance(value, int):
        a.type = AttributeProto.INT64
        a.ints.append(value) if nested else setattr(a, "i", value)
    elif isinstance(value, float):
        a.type = AttributeProto.FLOAT
        a.floats.append(value) if nested else setattr(a, "f", value)
    elif isinstance(value, str):
        a.type = AttributeProto.STRING
        a.strings.append(value.encode()) if nested else setattr(a, "s", value.encode())
    elif isinstance(value, tuple):
        a.type = AttributeProto.TUPLE
        for v in value:
            set_attr(a.values.add(), v, nested=True)
    else:
        raise AssertionError(value)


def add_graph(tmp_path, weights=True):
    """``out = relu(x + w)`` on a (2, 3) input, as a hand-made file."""
    ir = MiniIR()
    x = ir.input("x", (2, 3))
    if weights:
        ir.weight("w", np.arange(3, dtype=np.float32))
        x = ir.node("s", ir.prim("Add"), x, "g:w")
    ir.output(ir.node("out", ir.prim("ReLU"), x))
    return ir


def test_a_hand_made_file_runs(tmp_path):
    ir = add_graph(tmp_path)
    graph = ms.load(ir.save(tmp_path / "ok.mindir"))
    x = np.array([[-5, 0, 1], [1, -1, -3]], np.float32)
    np.testing.assert_array_equal(graph.run(ms.Tensor(x)).asnumpy(), np.maximum(x + np.arange(3), 0))


def test_unsupported_primitive_is_named_at_load_time(tmp_path):
    ir = MiniIR()
    ir.output(ir.node("warp", ir.prim("FancyWarp"), ir.input("x", (2, 3))))
    with pytest.raises(RuntimeError, match=r"the primitive 'FancyWarp' \(node 'g:warp'\) is not supported"):
        ms.load(ir.save(tmp_path / "fancy.mindir"))
    # in a real file too: MindSpore's ReLU renamed
    model = ModelProto.FromString((FIXTURES / "small.mindir").read_bytes())
    next(p for p in model.primitives if p.op_type == "ReLU").op_type = "ReLUv9"
    path = tmp_path / "relu9.mindir"
    path.write_bytes(model.SerializeToString())
    with pytest.raises(RuntimeError, match="'ReLUv9'.*CNode_33:16"):
        ms.load(str(path))


def test_argument_counts_that_fit_no_signature(tmp_path):
    ir = MiniIR()
    x = ir.input("x", (2, 3))
    ir.output(ir.node("out", ir.prim("ReLU"), x, x))
    with pytest.raises(RuntimeError, match="calls 'ReLU' with 2 inputs, but 'ReLU' takes at most 1"):
        ms.load(ir.save(tmp_path / "two.mindir"))
    ir = MiniIR()
    ir.output(ir.node("out", ir.prim("Conv2D", PrimitiveProto.PRIMITIVE), ir.input("x", (1, 1, 4, 4)), "g:x"))
    with pytest.raises(RuntimeError, match="'Conv2D' of node 'g:out' has no attribute 'out_channel'"):
        ms.load(ir.save(tmp_path / "conv.mindir"))
    ir = MiniIR()
    ir.output(ir.node("out", ir.prim("Reshape"), ir.input("x", (2, 3))))
    with pytest.raises(RuntimeError, match="without its argument 'shape'"):
        ms.load(ir.save(tmp_path / "reshape.mindir"))


def test_undefined_input_and_output(tmp_path):
    ir = MiniIR()
    x = ir.input("x", (2, 3))
    y = ir.node("late", ir.prim("ReLU"), "g:later")
    ir.node("later", ir.prim("ReLU"), x)
    ir.output(y)
    with pytest.raises(ValueError, match="node 'g:late' of graph 'g' uses 'g:later', which is not defined before it"):
        ms.load(ir.save(tmp_path / "order.mindir"))
    ir = MiniIR()
    ir.input("x", (2, 3))
    ir.output("g:nothing")
    with pytest.raises(ValueError, match="output 'g:nothing' of graph 'g' is not defined"):
        ms.load(ir.save(tmp_path / "out.mindir"))


def test_tensor_data_that_does_not_match_its_shape(tmp_path):
    ir = add_graph(tmp_path)
    ir.graph.parameter[0].raw_data = b"\x00" * 8
    with pytest.raises(ValueError, match="'w' has 8 bytes of data for shape \\[3\\]"):
        ms.load(ir.save(tmp_path / "short.mindir"))
    ir = add_graph(tmp_path)
    del ir.graph.parameter[0].dims[:]
    ir.graph.parameter[0].dims.extend([1 << 30, 1 << 30, 1 << 30])        # a huge claim: refused, not allocated
    with pytest.raises(ValueError, match="the file is corrupt"):
        ms.load(ir.save(tmp_path / "huge.mindir"))
    ir = add_graph(tmp_path)
    ir.graph.parameter[0].dims[0] = -3
    with pytest.raises(ValueError, match="negative dimension"):
        ms.load(ir.save(tmp_path / "negative.mindir"))
    ir = add_graph(tmp_path)
    ir.graph.parameter[0].data_type = 99
    with pytest.raises(ValueError, match="data type code 99"):
        ms.load(ir.save(tmp_path / "dtype.mindir"))


def test_huge_sizes_asked_of_creation_ops(tmp_path):
    ir = MiniIR()
    ir.input("x", (2, 3))
    size = ir.const("size", (1 << 20, 1 << 20))
    ir.output(ir.node("z", ir.prim("Zeros"), size, ir.const("dtype", 43)))
    graph = ms.load(ir.save(tmp_path / "zeros.mindir"))
    with pytest.raises(ValueError, match="asks for 1099511627776 elements"):
        graph.run(ms.Tensor(np.zeros((2, 3), np.float32)))


def test_external_data_stays_inside_the_model_folder(tmp_path):
    (tmp_path / "net_variables").mkdir()
    (tmp_path / "net_variables" / "data_0").write_bytes(b"\x00" * 64 + np.array([1, 2, 3], np.float32).tobytes())
    ir = add_graph(tmp_path)
    w = ir.graph.parameter[0]
    w.raw_data = b""
    w.external_data.location, w.external_data.offset, w.external_data.length = "net_variables/data_0", 64, 12
    graph = ms.load(ir.save(tmp_path / "net.mindir"))
    np.testing.assert_array_equal(graph.parameters["w"].asnumpy(), [1, 2, 3])
    for location in ("../../etc/passwd", "/etc/passwd", "net_variables/../../secret"):
        w.external_data.location = location
        with pytest.raises(ValueError, match="outside the model's folder"):
            ms.load(ir.save(tmp_path / "escape.mindir"))
    w.external_data.location, w.external_data.length = "net_variables/data_0", 4096
    with pytest.raises(ValueError, match="truncated"):
        ms.load(ir.save(tmp_path / "past_end.mindir"))


def test_deeply_nested_attributes(tmp_path):
    def nested(depth):
        ir = add_graph(tmp_path, weights=False)
        node = ir.graph.node.add(op_type="Constant", name="deep", output=["deep"])
        a = node.attribute.add(name="value")
        for _ in range(depth):
            a.type = AttributeProto.TUPLE
            a = a.values.add()
        set_attr(a, 1, nested=True)
        return ir.save(tmp_path / f"deep{depth}.mindir")
    with pytest.raises(ValueError, match="nests values more than 32 levels deep"):
        ms.load(nested(40))
    with pytest.raises((ValueError, RuntimeError)):      # beyond what protobuf itself parses
        ms.load(nested(5000))


def test_recursive_sub_graph_is_stopped(tmp_path):
    ir = MiniIR()
    x = ir.input("x", (2, 3))
    f = ir.model.functions.add(name="f")
    fx = ir.input("x", (2, 3), graph=f)
    ir.output(ir.node("again", "REF::f", fx, graph=f), graph=f)
    ir.output(ir.node("out", "REF::f", x))
    graph = ms.load(ir.save(tmp_path / "loop.mindir"))
    with pytest.raises(RuntimeError, match="calls itself more than 100 levels deep"):
        graph.run(ms.Tensor(np.zeros((2, 3), np.float32)))


def test_op_type_naming_nothing(tmp_path):
    ir = MiniIR()
    ir.output(ir.node("out", "REF::nowhere", ir.input("x", (2, 3))))
    with pytest.raises(RuntimeError, match="op_type 'REF::nowhere', which names no primitive, graph or node"):
        ms.load(ir.save(tmp_path / "nowhere.mindir"))


def test_truncated_files(tmp_path):
    data = (FIXTURES / "small.mindir").read_bytes()
    for size in (0, 1, 7, 100, len(data) // 3, len(data) // 2, len(data) - 300, len(data) - 1):
        path = tmp_path / f"cut{size}.mindir"
        path.write_bytes(data[:size])
        with pytest.raises((ValueError, RuntimeError)) as info:
            ms.load(str(path))
        assert isinstance(info.value, ms._errors.MindSporeError), (size, info.value)


def test_random_byte_flips_load_and_run_or_fail_clearly(tmp_path):
    data = (FIXTURES / "small.mindir").read_bytes()
    (_, (x,), _), _ = cases("small")
    rng = np.random.default_rng(7)
    outcomes = {"ran": 0, "refused": 0}
    for k in range(60):
        corrupt = bytearray(data)
        for pos in rng.integers(0, len(data), 3):
            corrupt[pos] ^= int(rng.integers(1, 256))
        path = tmp_path / f"flip{k}.mindir"
        path.write_bytes(bytes(corrupt))
        try:
            out = nn.GraphCell(ms.load(str(path)))(ms.Tensor(x))
            assert as_tuple(out)[0] is not None
            outcomes["ran"] += 1
        except ms._errors.MindSporeError as exc:
            assert isinstance(exc, (ValueError, RuntimeError, TypeError, IndexError)), repr(exc)
            outcomes["refused"] += 1
    assert outcomes["refused"] > 0 and sum(outcomes.values()) == 60


def test_nothing_in_a_file_is_executed(tmp_path, monkeypatch):
    """Strings that look like code stay strings: loading and running never evaluates, imports or unpickles."""
    def forbidden(*args, **kwargs):
        raise AssertionError("a MindIR file made the loader run code")
    ir = MiniIR()
    x = ir.input("x", (2, 3))
    ir.const("code", "__import__('os').system('touch pwned')")
    ir.output(ir.node("out", ir.prim("ReLU", PrimitiveProto.PRIMITIVE, note="exec('1/0')"), x))
    path = ir.save(tmp_path / "code.mindir")
    bad = MiniIR()
    bad.output(bad.node("out", bad.prim("__import__"), bad.input("x", (2, 3))))
    bad_path = bad.save(tmp_path / "import.mindir")
    for name in ("eval", "exec", "compile", "__import__"):
        monkeypatch.setattr(builtins, name, forbidden) if name != "__import__" else None
    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(pickle, "load", forbidden)
    graph = ms.load(path)
    out = graph.run(ms.Tensor(np.array([[-1, 2, 3], [4, -5, 6]], np.float32)))
    monkeypatch.undo()
    assert out.asnumpy().tolist() == [[0, 2, 3], [4, 0, 6]]
    assert not (tmp_path / "pwned").exists() and not pathlib.Path("pwned").exists()
    with pytest.raises(RuntimeError, match="'__import__'.*not supported"):
        ms.load(bad_path)


# --- the primitive table --------------------------------------------------------------------------------------------
_BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "RealDiv": np.divide,
           "Maximum": np.maximum, "Minimum": np.minimum, "Pow": np.power, "FloorDiv": np.floor_divide,
           "FloorMod": np.mod, "SquaredDifference": lambda a, b: (a - b) ** 2, "Atan2": np.arctan2,
           "Equal": np.equal, "NotEqual": np.not_equal, "Less": np.less, "LessEqual": np.less_equal,
           "Greater": np.greater, "GreaterEqual": np.greater_equal, "Muls": np.multiply}
_UNARY = {"Neg": np.negative, "Abs": np.abs, "Exp": np.exp, "Log": np.log, "Log1p": np.log1p, "Expm1": np.expm1,
          "Sqrt": np.sqrt, "Rsqrt": lambda a: 1 / np.sqrt(a), "Square": np.square, "Reciprocal": np.reciprocal,
          "Sin": np.sin, "Cos": np.cos, "Tan": np.tan, "Tanh": np.tanh, "Sinh": np.sinh, "Cosh": np.cosh,
          "Atan": np.arctan, "Asinh": np.arcsinh, "Floor": np.floor, "Ceil": np.ceil, "Trunc": np.trunc,
          "Sign": np.sign, "ReLU": lambda a: np.maximum(a, 0), "Sigmoid": lambda a: 1 / (1 + np.exp(-a)),
          "Softsign": lambda a: a / (1 + np.abs(a)), "ReLU6": lambda a: np.clip(a, 0, 6),
          "SiLU": lambda a: a / (1 + np.exp(-a)), "IsNan": np.isnan, "IsFinite": np.isfinite}


@pytest.mark.parametrize("op", sorted(_BINARY))
def test_binary_primitives_of_the_table(op, tmp_path):
    ir = MiniIR()
    ir.output(ir.node("out", ir.prim(op), ir.input("a", (2, 3)), ir.input("b", (2, 3))))
    graph = ms.load(ir.save(tmp_path / "bin.mindir"))
    a = np.array([[0.5, 1.5, 2.0], [3.0, 0.25, 4.0]], np.float32)
    b = np.array([[2.0, 0.5, 2.0], [1.5, 3.0, 0.5]], np.float32)
    np.testing.assert_allclose(graph.run(ms.Tensor(a), ms.Tensor(b)).asnumpy(), _BINARY[op](a, b), rtol=1e-6)


@pytest.mark.parametrize("op", sorted(_UNARY))
def test_unary_primitives_of_the_table(op, tmp_path):
    ir = MiniIR()
    ir.output(ir.node("out", ir.prim(op), ir.input("a", (2, 3))))
    graph = ms.load(ir.save(tmp_path / "un.mindir"))
    a = np.array([[0.5, 1.5, 2.0], [0.75, 0.25, 1.25]], np.float32) * np.array([1, -1, 1], np.float32)
    if op in ("Log", "Log1p", "Sqrt", "Rsqrt"):
        a = np.abs(a)
    np.testing.assert_allclose(graph.run(ms.Tensor(a)).asnumpy(), _UNARY[op](a), rtol=1e-5, atol=1e-6)


def test_scalar_shape_arithmetic_of_the_table(tmp_path):
    ir = MiniIR()
    x = ir.input("x", (-1, 6))
    shape = ir.node("shape", ir.prim("Shape"), x)
    b = ir.node("b", ir.prim("TupleGetItem", PrimitiveProto.PRIMITIVE), shape, ir.const("zero", 0))
    two_b = ir.node("two_b", ir.prim("ScalarMul"), b, ir.const("two", 2))
    rows = ir.node("rows", ir.prim("ScalarFloorDiv"), two_b, ir.const("three", 3))
    size = ir.node("size", ir.prim("MakeTuple", PrimitiveProto.PRIMITIVE), ir.node("r1", ir.prim("ScalarAdd"), rows,
                                                                                    ir.const("one", 1)), two_b)
    ir.output(ir.node("z", ir.prim("Zeros"), size, ir.const("f16", 42)))
    graph = ms.load(ir.save(tmp_path / "scalars.mindir"))
    for batch, want in ((3, (3, 6)), (7, (5, 14))):
        z = graph.run(ms.Tensor(np.zeros((batch, 6), np.float32)))
        assert z.shape == want and z.dtype == ms.float16
    assert {"Shape", "ScalarMul", "ScalarFloorDiv", "ScalarAdd", "Zeros"} <= set(from_ms.supported_primitives())


def test_errors_about_the_graph_name_the_file(tmp_path):
    # found by tests/fuzz: the graph's own checks named the node at fault but not the file
    ir = MiniIR()
    ir.output(ir.node("out", "REF::nowhere", ir.input("x", (2, 3))))
    path = ir.save(tmp_path / "nowhere.mindir")
    with pytest.raises(RuntimeError, match="Failed to load the MindIR file '.*nowhere.mindir': .*names no primitive"):
        ms.load(path)
