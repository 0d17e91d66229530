"""``mindspore.onnx.export`` / ``mindspore.export(file_format='ONNX')``: real networks run in onnxruntime and give
our own forward's outputs (GRAPH_MODE and PYNATIVE), static and dynamic batch; recurrent layers as ONNX
LSTM/GRU/RNN nodes; names and flags; clear errors; atomic files, encryption, external data."""
import inspect
import os
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _nets import (StatefulRNN, TextClassifier, benchmark_net, forward, leaves, max_diff,  # noqa: E402
                   ort_session, run_onnx)

TOL = 1e-5
RNG = np.random.default_rng(2024)
BENCH_SHAPES = {"mlp": (4, 784), "lenet": (4, 1, 32, 32), "resnet": (2, 3, 32, 32), "transformer": (2, 16, 256)}
BENCH_OPS = {"mlp": {"Gemm", "Relu"}, "lenet": {"Conv", "MaxPool", "Flatten", "Gemm"},
             "resnet": {"Conv", "BatchNormalization", "Add", "ReduceMean", "Gemm"},
             "transformer": {"LayerNormalization", "MatMul", "Softmax", "Gemm", "Transpose"}}


def op_types(path):
    return [n.op_type for n in onnx.load(path).graph.node]


def dims(value_info):
    return [d.dim_param or d.dim_value for d in value_info.type.tensor_type.shape.dim]


def check(path):
    onnx.checker.check_model(onnx.load(path), full_check=True)


def assert_matches(path, net, arrays):
    got = run_onnx(path, *arrays)
    for mode in ("pynative", "graph"):
        assert max_diff(got, forward(net, arrays, mode)) <= TOL, mode


# --- real networks -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(BENCH_SHAPES))
def test_benchmark_network_static_batch(name, tmp_path):
    net = benchmark_net(name)
    x = RNG.standard_normal(BENCH_SHAPES[name]).astype(np.float32)
    path = str(tmp_path / f"{name}.onnx")
    ms.onnx.export(net, ms.Tensor(x), file_name=path)
    check(path)
    model = onnx.load(path)
    assert model.opset_import[0].version == 17 and model.producer_name == "MindSpore"
    assert [i.name for i in model.graph.input] == ["x"] and dims(model.graph.input[0]) == list(x.shape)
    assert sorted(t.name for t in model.graph.initializer if "." in t.name) == sorted(
        p.name for p in net.get_parameters())
    assert BENCH_OPS[name] <= set(op_types(path))
    assert_matches(path, net, [x])


@pytest.mark.parametrize("name", sorted(BENCH_SHAPES))
def test_benchmark_network_dynamic_batch(name, tmp_path):
    net = benchmark_net(name)
    shape = BENCH_SHAPES[name]
    path = str(tmp_path / f"{name}_dynamic.onnx")
    ms.onnx.export(net, ms.Tensor(shape=[None, *shape[1:]], dtype=ms.float32), file_name=path)
    check(path)
    model = onnx.load(path)
    assert dims(model.graph.input[0]) == ["B", *shape[1:]]
    assert dims(model.graph.output[0]) == ["B", 10]
    for batch in (shape[0], 3):
        assert_matches(path, net, [RNG.standard_normal((batch, *shape[1:])).astype(np.float32)])


def test_dense_conv_and_bias_are_fused(tmp_path):
    net = benchmark_net("lenet")
    path = str(tmp_path / "lenet.onnx")
    ms.onnx.export(net, ms.Tensor(np.zeros((1, 1, 32, 32), np.float32)), file_name=path)
    ops_ = op_types(path)
    # three Dense layers are three Gemms with their biases; no separate Add
    assert ops_.count("Gemm") == 3 and "Add" not in ops_ and "MatMul" not in ops_
    conv = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
    path = str(tmp_path / "conv.onnx")
    ms.onnx.export(conv, ms.Tensor(np.zeros((1, 3, 7, 7), np.float32)), file_name=path)
    (node,) = onnx.load(path).graph.node
    assert node.op_type == "Conv" and len(node.input) == 3
    pads = [a for a in node.attribute if a.name == "pads"][0].ints
    assert list(pads) == [1, 1, 1, 1]


# --- recurrent layers ----------------------------------------------------------------------------------------
TEXT = {"lstm": ("LSTM", 1, False, True), "gru": ("GRU", 1, False, True), "bilstm_2layers": ("LSTM", 2, True, True),
        "birnn_2layers_seq_first": ("RNN", 2, True, False), "bigru_seq_first": ("GRU", 1, True, False)}


@pytest.mark.parametrize("case", sorted(TEXT))
def test_text_classifier_last_step(case, tmp_path):
    kind, layers, bidirectional, batch_first = TEXT[case]
    net = TextClassifier(kind, layers, bidirectional, batch_first)
    net.set_train(False)
    ids = RNG.integers(0, 50, (4, 7)).astype(np.int32)
    static, dynamic = str(tmp_path / "static.onnx"), str(tmp_path / "dynamic.onnx")
    ms.onnx.export(net, ms.Tensor(ids), file_name=static)
    ms.onnx.export(net, ms.Tensor(shape=[None, 7], dtype=ms.int32), file_name=dynamic)
    for path in (static, dynamic):
        check(path)
        ops_ = op_types(path)
        # the layer is whole: one ONNX node per layer, nothing unrolled
        assert ops_.count({"LSTM": "LSTM", "GRU": "GRU", "RNN": "RNN"}[kind]) == layers
        assert "Sigmoid" not in ops_ and "Tanh" not in ops_
        # y[:, -1, :]: Slice then Squeeze of axis 1
        assert "Slice" in ops_ and "Squeeze" in ops_
    assert_matches(static, net, [ids])
    for batch in (4, 2):
        assert_matches(dynamic, net, [RNG.integers(0, 50, (batch, 7)).astype(np.int32)])


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
def test_initial_states_and_sequence_lengths(kind, tmp_path):
    net = StatefulRNN(kind)
    net.set_train(False)
    layers, dirs, steps, batch = 2, 2, 6, 3
    arrays = [RNG.standard_normal((steps, batch, 4)).astype(np.float32),
              RNG.standard_normal((layers * dirs, batch, 5)).astype(np.float32),
              RNG.standard_normal((layers * dirs, batch, 5)).astype(np.float32),
              np.array([6, 3, 0], np.int32)]
    path = str(tmp_path / "stateful.onnx")
    ms.onnx.export(net, *[ms.Tensor(a) for a in arrays], file_name=path)
    check(path)
    n_out = 3 if kind == "LSTM" else 2
    assert [o.name for o in onnx.load(path).graph.output] == [f"output_{i}" for i in range(n_out)]
    got = run_onnx(path, *arrays)
    assert len(got) == n_out
    assert max_diff(got, forward(net, arrays, "pynative")) <= TOL
    # the padded steps really are masked: the outputs past a sequence's length are zeros, and an empty
    # sequence keeps its initial state
    assert np.all(got[0][3:, 1] == 0) and np.any(got[0][:3, 1] != 0) and np.all(got[0][:, 2] == 0)
    if kind == "LSTM":
        assert np.array_equal(got[1][:, 2], arrays[1][:, 2]) and np.array_equal(got[2][:, 2], arrays[2][:, 2])


def test_rnn_weights_as_inputs_keep_parameter_names(tmp_path):
    net = TextClassifier("LSTM", 2, True)
    net.set_train(False)
    ids = RNG.integers(0, 50, (3, 5)).astype(np.int32)
    path = str(tmp_path / "weights_in.onnx")
    ms.onnx.export(net, ms.Tensor(ids), file_name=path, export_params=False)
    check(path)
    model = onnx.load(path)
    names = [i.name for i in model.graph.input]
    params = list(net.get_parameters())
    assert names[0] == "ids" and sorted(names[1:]) == sorted(p.name for p in params)
    assert not any(t.name in names for t in model.graph.initializer)
    feeds = {"ids": ids}
    feeds.update({p.name: p.asnumpy() for p in params})
    got = ort_session(path).run(None, feeds)
    want = forward(net, [ids], "pynative")
    assert max_diff(got, want) <= TOL
    # listed as inputs too: the initializers keep MindSpore's layout, repacked in the graph
    ms.onnx.export(net, ms.Tensor(ids), file_name=path, keep_initializers_as_inputs=True)
    check(path)
    model = onnx.load(path)
    assert sorted(i.name for i in model.graph.input[1:]) == sorted(p.name for p in params)
    assert {p.name for p in params} <= {t.name for t in model.graph.initializer}
    assert max_diff(run_onnx(path, ids), want) <= TOL


# --- names and flags -----------------------------------------------------------------------------------------
class TwoInOut(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)
        self.conv = nn.Conv2d(2, 3, 3, has_bias=True, pad_mode="same")

    def construct(self, x, img):
        return self.fc(x), self.conv(img)[:, -1, :]


def two_inputs():
    return [RNG.standard_normal((2, 4)).astype(np.float32), RNG.standard_normal((2, 2, 5, 5)).astype(np.float32)]


def test_default_and_given_names(tmp_path):
    net = TwoInOut()
    arrays = two_inputs()
    path = str(tmp_path / "names.onnx")
    ms.onnx.export(net, *[ms.Tensor(a) for a in arrays], file_name=path)
    model = onnx.load(path)
    assert [i.name for i in model.graph.input] == ["x", "img"]
    assert [o.name for o in model.graph.output] == ["output_0", "output_1"]
    # shorter lists rename the first ones, as MindSpore does
    ms.onnx.export(net, *[ms.Tensor(a) for a in arrays], file_name=path, input_names=["features"],
                   output_names=["logits", "plane"])
    model = onnx.load(path)
    assert [i.name for i in model.graph.input] == ["features", "img"]
    assert [o.name for o in model.graph.output] == ["logits", "plane"]
    sess = ort_session(path)
    got = sess.run(["plane"], {"features": arrays[0], "img": arrays[1]})[0]
    assert np.allclose(got, forward(net, arrays, "pynative")[1], atol=TOL)


def test_dynamic_axes_name_the_dimensions(tmp_path):
    net = TwoInOut()
    path = str(tmp_path / "axes.onnx")
    ms.onnx.export(net, *[ms.Tensor(a) for a in two_inputs()], file_name=path, input_names=["p", "q"],
                   dynamic_axes={"p": {0: "batch"}, "q": {0: "batch"}})
    model = onnx.load(path)
    assert dims(model.graph.input[0]) == ["batch", 4] and dims(model.graph.input[1]) == ["batch", 2, 5, 5]
    assert dims(model.graph.output[0]) == ["batch", 3] and dims(model.graph.output[1]) == ["batch", 5, 5]
    arrays = [RNG.standard_normal((5, 4)).astype(np.float32), RNG.standard_normal((5, 2, 5, 5)).astype(np.float32)]
    assert_matches(path, net, arrays)


def test_export_params_false_and_keep_initializers_as_inputs(tmp_path):
    net = TwoInOut()
    arrays = two_inputs()
    weights = {p.name: p.asnumpy() for p in net.get_parameters()}
    path = str(tmp_path / "flags.onnx")
    ms.onnx.export(net, *[ms.Tensor(a) for a in arrays], file_name=path, export_params=False)
    check(path)
    model = onnx.load(path)
    assert [i.name for i in model.graph.input] == ["x", "img", "fc.weight", "fc.bias", "conv.weight", "conv.bias"]
    assert not any(t.name in weights for t in model.graph.initializer)
    got = ort_session(path).run(None, {"x": arrays[0], "img": arrays[1], **weights})
    assert max_diff(got, forward(net, arrays, "pynative")) <= TOL

    ms.onnx.export(net, *[ms.Tensor(a) for a in arrays], file_name=path, keep_initializers_as_inputs=True)
    check(path)
    model = onnx.load(path)
    inputs = [i.name for i in model.graph.input]
    assert inputs[:2] == ["x", "img"] and sorted(inputs[2:]) == sorted(weights)
    assert set(weights) <= {t.name for t in model.graph.initializer}
    # the weights may be overridden at run time
    doubled = {k: v * 2 for k, v in weights.items()}
    got = ort_session(path).run(["output_0"], {"x": arrays[0], "img": arrays[1], **doubled})[0]
    assert np.allclose(got, arrays[0] @ doubled["fc.weight"].T + doubled["fc.bias"], atol=TOL)


def test_name_clashes_are_errors(tmp_path):
    net = TwoInOut()
    tensors = [ms.Tensor(a) for a in two_inputs()]
    with pytest.raises(ValueError, match=r"names of the model's outputs must be unique"):
        ms.onnx.export(net, *tensors, file_name=str(tmp_path / "a"), output_names=["y", "y"])
    with pytest.raises(ValueError, match=r"the name 'fc.weight' is used twice"):
        ms.onnx.export(net, *tensors, file_name=str(tmp_path / "a"), input_names=["fc.weight"])
    assert os.listdir(tmp_path) == []


# --- errors --------------------------------------------------------------------------------------------------
def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, line in enumerate(lines) if text in line)


def uses_cumprod(x):
    return ops.cumprod(x, 1) + 1


class UpdatesState(nn.Cell):
    def __init__(self):
        super().__init__()
        self.state = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="state")

    def construct(self, x):
        ops.assign(self.state, x)
        return x * 2


class TrainingBatchNorm(nn.Cell):
    def __init__(self):
        super().__init__()
        self.g = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="g")
        self.b = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="b")

    def construct(self, x):
        return ops.batch_norm(x, self.b, self.g, self.g, self.b, training=True)


def test_primitive_without_onnx_form_names_it_and_the_line(tmp_path):
    line = _line_of(uses_cumprod, "ops.cumprod")
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError) as info:
        ms.export(uses_cumprod, x, file_name=str(tmp_path / "bad"), file_format="ONNX")
    assert str(info.value) == (f"For 'export', the primitive 'CumProd' (at test_onnx_export.py:{line}) has no ONNX "
                               "form. Export the network without it, or compute it outside the exported network.")
    assert os.listdir(tmp_path) == []


def test_side_effects_are_errors(tmp_path):
    x = ms.Tensor(np.ones((2, 3), np.float32))
    line = _line_of(UpdatesState.construct, "ops.assign")
    with pytest.raises(ValueError, match=rf"updates the Parameter 'state' with 'Assign' \(at test_onnx_export.py:"
                                         rf"{line}\), but an ONNX model has no state"):
        ms.onnx.export(UpdatesState(), x, file_name=str(tmp_path / "state"))
    with pytest.raises(ValueError, match=r"the primitive 'BatchNorm' \(at test_onnx_export.py:\d+\) runs in training "
                                         r"mode"):
        ms.onnx.export(TrainingBatchNorm(), x, file_name=str(tmp_path / "bn"))


def test_missing_onnx_package_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnx", None)
    with pytest.raises(ImportError, match=r"pip install onnx"):
        ms.onnx.export(TwoInOut(), *[ms.Tensor(a) for a in two_inputs()], file_name=str(tmp_path / "m"))


# --- mindspore.export, modes and files ------------------------------------------------------------------------
class DropBN(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(6, 4)
        self.bn = nn.BatchNorm1d(4)
        self.drop = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.drop(self.bn(self.fc(x)))


def _drop_bn():
    net = DropBN()
    net.bn.moving_mean.set_data(ms.Tensor(RNG.uniform(-1, 1, 4).astype(np.float32)))
    net.bn.moving_variance.set_data(ms.Tensor(RNG.uniform(0.5, 2, 4).astype(np.float32)))
    return net


def test_export_adds_suffix_restores_train_mode_and_writes_atomically(tmp_path):
    net = _drop_bn()
    net.set_train(True)
    x = RNG.standard_normal((5, 6)).astype(np.float32)
    ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "model"), file_format="ONNX")
    assert net.training
    assert os.listdir(tmp_path) == ["model.onnx"]
    path = str(tmp_path / "model.onnx")
    check(path)
    ops_ = op_types(path)
    assert "BatchNormalization" in ops_ and "Dropout" not in ops_ and "RandomUniform" not in ops_
    net.set_train(False)
    want = forward(net, [x], "pynative")
    assert max_diff(run_onnx(path, x), want) <= TOL
    # an existing model is replaced whole; a failed export leaves it as it was
    before = open(path, "rb").read()
    with pytest.raises(ValueError, match="CumProd"):
        ms.export(uses_cumprod, ms.Tensor(x), file_name=path, file_format="ONNX")
    assert open(path, "rb").read() == before and os.listdir(tmp_path) == ["model.onnx"]


def test_onnx_export_of_a_training_network_is_the_inference_graph(tmp_path):
    net = _drop_bn()
    net.set_train(True)
    x = RNG.standard_normal((5, 6)).astype(np.float32)
    path = str(tmp_path / "train.onnx")
    ms.onnx.export(net, ms.Tensor(x), file_name=path)
    assert net.training
    net.set_train(False)
    assert_matches(path, net, [x])


def test_customized_encryption(tmp_path):
    net = TwoInOut()
    tensors = [ms.Tensor(a) for a in two_inputs()]
    key = b"0123456789abcdef"

    def xor(data, k):
        return bytes(b ^ k[i % len(k)] for i, b in enumerate(data))

    ms.export(net, *tensors, file_name=str(tmp_path / "plain"), file_format="ONNX")
    ms.export(net, *tensors, file_name=str(tmp_path / "secret"), file_format="ONNX", enc_key=key, enc_mode=xor)
    plain = (tmp_path / "plain.onnx").read_bytes()
    secret = (tmp_path / "secret.onnx").read_bytes()
    assert secret != plain and xor(secret, key) == plain
    with pytest.raises(ValueError, match="AIR/ONNX only support customized encryption, but got AES-GCM"):
        ms.export(net, *tensors, file_name=str(tmp_path / "x"), file_format="ONNX", enc_key=key, enc_mode="AES-GCM")


def test_large_models_use_external_data(tmp_path, monkeypatch):
    from mindspore._deploy.onnx import _model
    monkeypatch.setattr(_model, "EXTERNAL_DATA_LIMIT", 1000)
    net = benchmark_net("lenet")
    x = RNG.standard_normal((2, 1, 32, 32)).astype(np.float32)
    path = str(tmp_path / "big.onnx")
    ms.onnx.export(net, ms.Tensor(x), file_name=path)
    assert sorted(os.listdir(tmp_path)) == ["big.onnx", "big.onnx.data"]
    model = onnx.load(path, load_external_data=False)
    external = [t.name for t in model.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL]
    assert "fc1.weight" in external and "conv2.weight" in external
    assert os.path.getsize(path) < 20000 < os.path.getsize(path + ".data")
    onnx.checker.check_model(path, full_check=True)
    assert_matches(path, net, [x])
    with pytest.raises(ValueError, match="external data file, which customized encryption does not cover"):
        ms.export(net, ms.Tensor(x), file_name=str(tmp_path / "enc"), file_format="ONNX", enc_key=b"k" * 16,
                  enc_mode=lambda data, key: data)


def test_two_unknown_sizes_and_filled_constants(tmp_path):
    def fn(x, mask):
        b, s, d = x.shape
        return ops.reshape(x * mask.reshape(b, s, 1), (b * s, d)), ops.ones((1, s, d), ms.float32) * 3 + x[0:1]

    path = str(tmp_path / "two.onnx")
    ms.export(fn, ms.Tensor(shape=[None, None, 4], dtype=ms.float32), ms.Tensor(shape=[None, None], dtype=ms.float32),
              file_name=path, file_format="ONNX")
    check(path)
    model = onnx.load(path)
    assert dims(model.graph.input[0]) == ["B", "D1", 4] and dims(model.graph.output[1]) == [1, "D1", 4]
    for b, s in ((2, 3), (5, 1)):
        arrays = [RNG.standard_normal((b, s, 4)).astype(np.float32), RNG.standard_normal((b, s)).astype(np.float32)]
        assert max_diff(run_onnx(path, *arrays), leaves(fn(*[ms.Tensor(a) for a in arrays]))) <= TOL


def test_shapes_computed_from_the_dynamic_batch(tmp_path):
    def fn(x):
        b = x.shape[0]
        return (ops.zeros_like(x) + x[-1], ops.broadcast_to(x[:, :1], (b, 5, 4)),
                ops.tile(x, (1, 2, 1)).reshape(b, -1)[:, -3:], x[:, -1, :], x[-2:],
                ops.concat((x, x * 2), 0).reshape(2, b * 3, 4), ops.split(x, 1, 1)[1], x * b)

    path = str(tmp_path / "shapes.onnx")
    ms.export(fn, ms.Tensor(shape=[None, 3, 4], dtype=ms.float32), file_name=path, file_format="ONNX")
    check(path)
    model = onnx.load(path)
    assert [dims(o) for o in model.graph.output][:5] == [["B", 3, 4], ["B", 5, 4], ["B", 3], ["B", 4], [2, 3, 4]]
    for batch in (2, 6):
        x = RNG.standard_normal((batch, 3, 4)).astype(np.float32)
        assert max_diff(run_onnx(path, x), leaves(fn(ms.Tensor(x)))) <= TOL


class StatesFromBatch(nn.Cell):
    """An LSTM whose initial states are filled tensors sized by the (unknown) batch."""

    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(3, 4, batch_first=True)

    def construct(self, x):
        h = ops.ones((1, x.shape[0], 4), ms.float32) * 0.5
        y, (hn, cn) = self.rnn(x, (h, h))
        return y, hn, cn


def test_lstm_states_sized_by_the_dynamic_batch(tmp_path):
    net = StatesFromBatch()
    net.set_train(False)
    path = str(tmp_path / "states.onnx")
    ms.onnx.export(net, ms.Tensor(shape=[None, 5, 3], dtype=ms.float32), file_name=path)
    check(path)
    assert op_types(path).count("ConstantOfShape") == 1 and op_types(path).count("LSTM") == 1
    for batch in (2, 5):
        assert_matches(path, net, [RNG.standard_normal((batch, 5, 3)).astype(np.float32)])


# --- the fused attention ---------------------------------------------------------------------------------------------
class _Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)

    def construct(self, x):
        return self.layer(x)


class _CausalFlash(nn.Cell):
    def construct(self, q):
        return ops.flash_attention_score(q, q, q, 2, scalar_value=0.3, sparse_mode=2)


@pytest.mark.parametrize("file_format", ["ONNX", "MINDIR"])
@pytest.mark.parametrize("make,shape", [(_Encoder, (2, 5, 16)), (_CausalFlash, (1, 6, 16))], ids=["encoder", "causal"])
def test_the_fused_attention_exports_as_its_composition(make, shape, file_format, tmp_path):
    """nn.MultiheadAttention (need_weights=False, as the encoder layer calls it) and flash_attention_score run the
    fused ScaledDotProductAttention, which neither format has: the export writes its composition (MatMul, Softmax and
    their kin, the causal band a constant mask), and the file computes what the network does."""
    ms.set_seed(3)
    net = make()
    net.set_train(False)
    x = RNG.normal(size=shape).astype(np.float32)
    want = net(ms.Tensor(x)).asnumpy()
    path = str(tmp_path / "attention")
    ms.export(net, ms.Tensor(x), file_name=path, file_format=file_format)
    if file_format == "ONNX":
        check(path + ".onnx")
        types = op_types(path + ".onnx")
        assert "MatMul" in types and "Exp" in types and not any("Attention" in t for t in types), types
        got = run_onnx(path + ".onnx", x)[0]
    else:
        got = nn.GraphCell(ms.load(path + ".mindir"))(ms.Tensor(x)).asnumpy()
    assert max_diff([got], [want]) <= TOL
