"""``mindspore.export(..., file_format="MINDIR")``: the files real MindSpore 2.10 loaded and ran, and their layout.

``tests/fixtures/export/ours/`` holds files this writer made that real MindSpore verified
(``verify_mindir_with_ms.py``: ``mindspore.load`` + ``nn.GraphCell`` outputs in ``<case>.npz``, a summary in
``verified.json``), plus what MindSpore itself wrote for comparison (``ms_small.mindir``, ``ms_encrypted_*.bin``).
Here every case is exported again: the file must be the one MindSpore verified (the writer is deterministic), and
our forward must still give MindSpore's recorded outputs.
"""
import json
import os
import stat
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore.ops import operations as P
from mindspore._deploy.mindir import to_ms, writer
from mindspore._deploy.mindir._schema import ModelProto, PrimitiveProto
from mindspore._fileio import crypto as _ckpt_crypto

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify_mindir_with_ms as cases  # noqa: E402

FIXTURES = cases.FIXTURES
ALL_CASES = {c.name: c for c in cases.NET_CASES + cases.op_cases(ms)}
VERIFIED = json.load(open(os.path.join(FIXTURES, "verified.json")))
A = ModelProto().graph.node.add().attribute.add().__class__    # AttributeProto


def parse(data):
    m = ModelProto()
    m.ParseFromString(data)
    return m


def read(path):
    with open(path, "rb") as f:
        return f.read()


def export(case, directory):
    net = cases.export_case(ms, case, str(directory))
    return net, os.path.join(str(directory), case.file)


def plaintext(case, path):
    data = read(path)
    key = case.export.get("enc_key")
    return _ckpt_crypto.decrypt(data, key, case.export["enc_mode"]) if key is not None else data


def prim_table(model):
    return {p.name: p for p in model.primitives}


def calls(model):
    """(MindSpore op name, node) of the graph's nodes, Constants left out."""
    table = prim_table(model)
    return [(table[n.op_type[len("REF::"):]].op_type, n) for n in model.graph.node if n.op_type != "Constant"]


def constants(model):
    return {n.output[0]: n.attribute[0] for n in model.graph.node if n.op_type == "Constant"}


def first_difference(new, old):
    a, b = calls(new), calls(old)
    for k, ((op_a, na), (op_b, nb)) in enumerate(zip(a, b)):
        if op_a != op_b or na.SerializeToString() != nb.SerializeToString():
            return f"node {k}: {op_a} now, {op_b} recorded"
    if len(a) != len(b):
        return f"{len(a)} nodes now, {len(b)} recorded"
    return "the nodes are the same; the weights, primitives or header differ"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("small")
    net, path = export(ALL_CASES["small"], d)
    return net, parse(read(path))


# --- the files real MindSpore verified ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_reexport_is_the_file_mindspore_verified(name, tmp_path):
    case = ALL_CASES[name]
    assert VERIFIED["cases"][name]["loaded"]
    _, path = export(case, tmp_path)
    recorded = os.path.join(FIXTURES, case.file)
    # encrypted files differ by their random IVs only: their plaintexts are the same bytes
    new, old = plaintext(case, path), plaintext(case, recorded)
    assert new == old, (f"the MindIR file of '{name}' is no longer the one real MindSpore verified "
                        f"({first_difference(parse(new), parse(old))}); if the change is intended, run "
                        "tests/export/verify_mindir_with_ms.py to verify and record the new files")
    if case.split is not None:
        for f in ("data_0",):
            assert read(os.path.join(str(tmp_path), f"{name}_variables", f)) == \
                read(os.path.join(FIXTURES, f"{name}_variables", f))


@pytest.mark.parametrize("name", sorted(n for n in ALL_CASES if VERIFIED["cases"][n]["ran"]))
def test_our_forward_equals_mindspores_outputs_of_the_file(name):
    case = ALL_CASES[name]
    net = case.build(ms)
    net.set_train(False)
    with np.load(os.path.join(FIXTURES, name + ".npz")) as z:
        data = dict(z)
    runs = [("", case.inputs)] + [(f"b{j}_", [data[f"b{j}_in{k}"] for k in range(len(case.inputs))])
                                  for j in range(len(case.batches))]
    for prefix, inputs in runs:
        theirs = [data[k] for k in sorted(data) if k.startswith(prefix + "ms_out")]
        ours = cases.our_outputs(ms, net, inputs)
        assert len(ours) == len(theirs) > 0
        for a, b in zip(ours, theirs):
            assert a.shape == b.shape
            if b.dtype.kind == "f":
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5 * max(1.0, float(np.abs(b).max())))
            else:
                np.testing.assert_array_equal(a, b)


def test_every_primitive_of_the_table_was_run_by_mindspore():
    verified = VERIFIED["table_entries"]
    missing = sorted(set(to_ms.TABLE) - set(verified))
    assert not missing, f"table entries no MindSpore run verified: {missing}"
    for prim, by in verified.items():
        entries = [VERIFIED["cases"][c] for c in by]
        if by == ["ops_no_cpu_kernel"]:
            assert prim == "Einsum" and not entries[0]["ran"] and "Einsum" in entries[0]["mindspore_error"]
        else:
            assert all(e["ran"] and e["max_rel_diff"] <= cases.TOLERANCE for e in entries), prim
    # the big networks were run too, within the tolerance
    for name in ("mlp", "lenet", "resnet", "transformer", "text_lstm", "lenet_dyn", "small_split"):
        assert VERIFIED["cases"][name]["ran"] and VERIFIED["cases"][name]["max_rel_diff"] < 1e-6


# --- layout -------------------------------------------------------------------------------------------------------
def test_header_graph_name_and_value_names(small):
    _, m = small
    assert (m.ir_version, m.producer_name, m.model_version, m.little_endian, m.mind_ir_version) == \
        ("1.1", "MindSpore", "2.10.0", True, 3)
    assert not m.functions and not m.HasField("preprocessor")
    g = m.graph
    assert g.name == "1_1_ExportNet_construct_1"
    names = [i.name for i in g.input] + [p.name for p in g.parameter] + \
        [n.output[0] for n in g.node if n.op_type != "Constant"] + [o.name for o in g.output]
    assert all(n.startswith(g.name + ":") for n in names)
    assert [i.name for i in g.input] == [g.name + ":x"]
    assert list(g.input[0].tensor[0].dims) == [2, 3, 8, 8] and g.input[0].tensor[0].data_type == 1
    attrs = {a.name: a for a in g.attribute}
    assert attrs["phase"].s == b"export" and attrs["training"].i == 0


def test_weights_are_parameters_with_ref_key_and_their_exact_bytes(small):
    net, m = small
    params = {p.name: p for p in net.get_parameters()}
    # in the order the graph first reads them, as MindSpore lists them (BatchNorm: gamma, beta, mean, variance)
    assert [t.ref_key for t in m.graph.parameter] == ["conv.weight", "conv.bias", "bn.gamma", "bn.beta",
                                                      "bn.moving_mean", "bn.moving_variance", "fc.weight", "fc.bias"]
    assert sorted(params) == sorted(t.ref_key for t in m.graph.parameter)
    for t in m.graph.parameter:
        p = params[t.ref_key]
        assert t.name == f"{m.graph.name}:{p.name}"
        assert list(t.dims) == list(p.shape) and t.data_type == 1
        assert t.raw_data == p.asnumpy().astype("<f4").tobytes()
        assert t.HasField("compression_type") and not t.HasField("external_data")


def test_nodes_call_the_primitive_table_in_mindsporess_two_styles(small):
    _, m = small
    table = prim_table(m)
    assert all(name == f"{p.op_type}:{name.split(':')[1]}" for name, p in table.items())
    for n in m.graph.node:
        if n.op_type != "Constant":
            assert n.op_type.startswith("REF::") and n.op_type[5:] in table
            assert n.attribute[0].name == "shape"
            assert n.node_attr[0].name == "checkpoint" and n.node_attr[0].i == 1
    kinds = {p.op_type: p.prim_type for p in table.values()}
    assert kinds["Conv2D"] == kinds["MaxPool"] == kinds["Load"] == PrimitiveProto.PRIMITIVE
    assert kinds["MatMul"] == kinds["BatchNorm"] == kinds["Softmax"] == kinds["ReLU"] == \
        PrimitiveProto.PRIMITIVE_FUNCTION
    conv = next(p for p in table.values() if p.op_type == "Conv2D")
    attrs = {a.name: a for a in conv.attribute}
    assert [v.ints[0] for v in attrs["pad_list"].values] == [1, 1, 1, 1]
    assert [v.ints[0] for v in attrs["stride"].values] == [1, 1, 1, 1]
    assert attrs["format"].s == b"NCHW" and attrs["pad_mode"].s == b"same" and "data_format" not in attrs
    pool = {a.name: a for a in next(p for p in table.values() if p.op_type == "MaxPool").attribute}
    assert pool["pad_mode"].s == b"VALID" and [v.ints[0] for v in pool["kernel_size"].values] == [1, 1, 2, 2]
    for p in table.values():
        if p.prim_type == PrimitiveProto.PRIMITIVE_FUNCTION:
            assert not p.attribute


def test_function_arguments_are_constants_in_mindspores_order(small):
    _, m = small
    consts = constants(m)

    def args(op):
        node = next(n for name, n in calls(m) if name == op)
        return [consts[i] for i in node.input if i in consts]
    bn = args("BatchNorm")   # (x, scale, bias, mean, var, is_training, epsilon, momentum, format)
    assert [a.type for a in bn] == [A.BOOL, A.FLOAT, A.FLOAT, A.INT64]
    assert bn[0].i == 0 and bn[1].f == pytest.approx(1e-5) and bn[2].f == pytest.approx(0.1) and bn[3].i == 0
    mm = args("MatMul")
    assert [(a.type, a.i) for a in mm] == [(A.BOOL, 0), (A.BOOL, 1)]
    (axis,) = args("Softmax")
    assert axis.type == A.TUPLE and [v.ints[0] for v in axis.values] == [-1]
    (scalar,) = args("Mul")       # softmax(...) * 2.0: the scalar as a 0-d float32 tensor
    assert scalar.type == A.TENSORS and list(scalar.tensors[0].dims) == [] and scalar.tensors[0].data_type == 1
    assert np.frombuffer(scalar.tensors[0].raw_data, "<f4")[0] == 2.0


def test_side_effects_are_loads_gathered_into_the_output_depend(small):
    net, m = small
    ops_ = calls(m)
    loads = [n for op, n in ops_ if op == "Load"]
    assert sorted(n.input[0].split(":", 1)[1] for n in loads) == sorted(p.name for p in net.get_parameters())
    monad = [name for name, a in constants(m).items() if a.type == A.UMONAD]
    assert len(monad) == 1 and all(n.input[1] == monad[0] for n in loads)
    assert [op for op, _ in ops_[-3:]] == ["MakeTuple", "UpdateState", "Depend"]
    gather, state, depend = (n for _, n in ops_[-3:])
    assert sorted(gather.input) == sorted(n.output[0] for n in loads)
    assert list(state.input) == [monad[0], gather.output[0]]
    assert depend.input[1] == state.output[0] and m.graph.output[0].name == depend.output[0]
    assert list(m.graph.output[0].tensor[0].dims) == [2, 5]


def test_the_small_net_is_what_mindspore_itself_writes():
    """The same network and weights exported by real MindSpore: the same weights, nodes, primitive attributes and
    arguments, but for ``x * 2.0`` (MindSpore's operator writes ``Muls``; its ``ops.mul`` the ``Mul`` we write)."""
    ours, theirs = (parse(read(os.path.join(FIXTURES, f))) for f in ("small.mindir", "ms_small.mindir"))
    strip = (lambda t: (t.ref_key, list(t.dims), t.data_type, t.raw_data))
    assert [strip(t) for t in ours.graph.parameter] == [strip(t) for t in theirs.graph.parameter]
    assert [(i.tensor[0].dims, i.tensor[0].data_type) for i in ours.graph.input] == \
        [(i.tensor[0].dims, i.tensor[0].data_type) for i in theirs.graph.input]
    a, b = calls(ours), calls(theirs)
    assert [op for op, _ in a] == [{"Muls": "Mul"}.get(op, op) for op, _ in b]
    ta, tb = prim_table(ours), prim_table(theirs)
    ca, cb = constants(ours), constants(theirs)
    for (op, na), (_, nb) in zip(a, b):
        pa, pb = ta[na.op_type[5:]], tb[nb.op_type[5:]]
        assert pa.prim_type == pb.prim_type, op
        assert {x.name: x.SerializeToString() for x in pa.attribute} == \
            {x.name: x.SerializeToString() for x in pb.attribute}, op
        if op == "MakeTuple":       # of the loads: MindSpore gathers them in no particular order
            assert sorted(na.input) == sorted(n.output[0] for o, n in a if o == "Load")
            assert len(na.input) == len(nb.input)
            continue
        assert na.attribute[0].SerializeToString() == nb.attribute[0].SerializeToString(), op
        if op not in ("Mul", "Load", "UpdateState"):
            assert [ca[i].SerializeToString() for i in na.input if i in ca] == \
                [cb[i].SerializeToString() for i in nb.input if i in cb], op


# --- dynamic dimensions ---------------------------------------------------------------------------------------------
def test_dynamic_batch_is_minus_one_and_reshape_targets_use_it():
    m = parse(read(os.path.join(FIXTURES, "lenet_dyn.mindir")))
    assert list(m.graph.input[0].tensor[0].dims) == [-1, 1, 32, 32]
    shapes = [list(n.attribute[0].tensors[0].dims) for op, n in calls(m) if op in ("Conv2D", "MatMul", "BiasAdd")]
    assert shapes and all(s[0] == -1 for s in shapes)
    assert list(m.graph.output[0].tensor[0].dims) == [-1, 10]


def test_sizes_that_are_not_one_unknown_entry_are_computed_from_the_input_shape():
    m = parse(read(os.path.join(FIXTURES, "text_lstm_dyn.mindir")))
    ops_ = calls(m)
    names = [op for op, _ in ops_]
    # (B * 7, -1): a Reshape target with an unknown size beside a -1, and the zero initial states of shape
    # (B, 12) are computed as MindSpore computes them: Shape -> TupleGetItem -> ScalarMul -> MakeTuple
    assert names.count("Shape") == 1 and "ScalarMul" in names and "BroadcastTo" in names
    (shape,) = [n for op, n in ops_ if op == "Shape"]
    assert list(shape.input) == [m.graph.input[0].name]
    consts = constants(m)
    reshapes = [n for op, n in ops_ if op == "Reshape"]
    dynamic = [n for n in reshapes if n.input[1] not in consts]
    assert dynamic
    static = [consts[n.input[1]] for n in reshapes if n.input[1] in consts]
    assert any([v.ints[0] for v in a.values] == [-1, 7, 8] for a in static)


def test_a_dynamic_value_mindir_can_not_hold_is_a_clear_error(tmp_path):
    class PadByBatch(nn.Cell):
        def construct(self, x):
            return P.Pad(((0, x.shape[0]), (0, 0)))(x)
    with pytest.raises(ValueError, match=r"'Pad' \(at test_mindir_export.py:\d+: return P.Pad.*unknown input "
                                         r"dimension"):
        ms.export(PadByBatch(), ms.Tensor(shape=[None, 3], dtype=ms.float32), file_name=str(tmp_path / "pad"),
                  file_format="MINDIR")
    assert not os.listdir(tmp_path)


# --- files ------------------------------------------------------------------------------------------------------------
class Tiny(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 3)

    def construct(self, x):
        return ops.relu(self.fc(x))


def tiny_input():
    return ms.Tensor(np.ones((2, 4), np.float32))


def test_the_mindir_suffix_is_added_once(tmp_path):
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "a"), file_format="MINDIR")
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "b.mindir"), file_format="MINDIR")
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "sub" / "c"), file_format="MINDIR")
    assert sorted(os.listdir(tmp_path)) == ["a.mindir", "b.mindir", "sub"]
    assert os.listdir(tmp_path / "sub") == ["c.mindir"]
    assert parse(read(tmp_path / "a.mindir")).producer_name == "MindSpore"


def test_write_is_atomic_and_custom_func_edits_the_proto(tmp_path):
    seen = []

    def edit(model):
        seen.append(type(model).__name__)
        model.user_info["author"] = "tests"
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "net"), file_format="MINDIR", custom_func=edit)
    assert seen == ["ModelProto"]
    assert os.listdir(tmp_path) == ["net.mindir"]            # no temporary file left behind
    assert parse(read(tmp_path / "net.mindir")).user_info["author"] == "tests"
    assert not os.stat(tmp_path / "net.mindir").st_mode & (stat.S_IWUSR | stat.S_IRWXG | stat.S_IRWXO)

    def fail(model):
        raise RuntimeError("custom_func failed")
    with pytest.raises(RuntimeError, match="custom_func failed"):
        ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "other"), file_format="MINDIR", custom_func=fail)
    assert os.listdir(tmp_path) == ["net.mindir"]
    # a failed export over an existing file leaves the old file as it was
    before = read(tmp_path / "net.mindir")
    with pytest.raises(RuntimeError):
        ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "net"), file_format="MINDIR", custom_func=fail)
    assert read(tmp_path / "net.mindir") == before and os.listdir(tmp_path) == ["net.mindir"]


@pytest.mark.parametrize("mode", ["AES-GCM", "AES-CBC", "SM4-CBC"])
def test_mindspores_encryption_decrypts_here(mode):
    key = {"AES-GCM": cases.KEY, "AES-CBC": cases.KEY[:24], "SM4-CBC": cases.KEY[:16]}[mode]
    data = read(os.path.join(FIXTURES, f"ms_encrypted_{mode}.bin"))
    assert _ckpt_crypto.decrypt(data, key, mode) == cases.encryption_plaintext()
    with pytest.raises(ValueError):
        _ckpt_crypto.decrypt(data, key[::-1], mode)


def test_encrypted_export_is_the_plain_file_in_mindspores_blocks(tmp_path):
    case = ALL_CASES["small_gcm"]
    _, path = export(case, tmp_path)
    data = read(path)
    assert _ckpt_crypto.is_cipher_data(data) and data[:4] == (0x7F3A5ED8).to_bytes(4, "little")
    with pytest.raises(Exception):
        parse(data)
    plain = _ckpt_crypto.decrypt(data, case.export["enc_key"], "AES-GCM")
    assert plain == plaintext(case, os.path.join(FIXTURES, case.file))
    assert parse(plain).graph.parameter[0].ref_key == "conv.weight"
    # a custom function encrypts the serialised proto (MindSpore calls it with the key)
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "custom"), file_format="MINDIR", enc_key=b"k" * 16,
              enc_mode=lambda data, key: key + data[::-1])
    custom = read(tmp_path / "custom.mindir")
    assert custom.startswith(b"k" * 16) and parse(custom[16:][::-1]).producer_name == "MindSpore"


def test_large_weights_go_to_external_data_files(tmp_path, monkeypatch):
    net = cases.seed_params(ms, cases.small_net(ms), 3)
    net.set_train(False)
    monkeypatch.setattr(writer, "TOTAL_SAVE_KB", 1)       # MindSpore's 1 GiB threshold, lowered
    ms.export(net, ms.Tensor(np.ones((1, 3, 8, 8), np.float32)), file_name=str(tmp_path / "big"),
              file_format="MINDIR")
    assert sorted(os.listdir(tmp_path)) == ["big_graph.mindir", "big_variables"]
    assert os.listdir(tmp_path / "big_variables") == ["data_0"]
    data = read(tmp_path / "big_variables" / "data_0")
    assert data[:64] == b"\x01" + bytes(63)
    m = parse(read(tmp_path / "big_graph.mindir"))
    params = {p.name: p for p in net.get_parameters()}
    offsets = []
    for t in m.graph.parameter:
        ext = t.external_data
        assert not t.raw_data and ext.location == os.path.join("big_variables", "data_0")
        raw = params[t.ref_key].asnumpy().tobytes()
        assert ext.length == len(raw) and ext.offset % 64 == 0
        assert data[ext.offset:ext.offset + ext.length] == raw
        offsets.append((ext.offset, t.ref_key))
    # in name order, each aligned to 64 bytes, right after the 64-byte header
    assert [k for _, k in sorted(offsets)] == sorted(params)
    sizes = [-(-len(params[k].asnumpy().tobytes()) // 64) * 64 for k in sorted(params)]
    assert [o for o, _ in sorted(offsets)] == list(64 + np.cumsum([0] + sizes[:-1]))
    assert len(data) == 64 + sum(sizes)


def test_external_data_is_what_mindspore_writes():
    """The small_split case as MindSpore's own _split_save wrote it (same weights, threshold lowered likewise)."""
    ours, theirs = (parse(read(os.path.join(FIXTURES, f"{p}small_split_graph.mindir"))) for p in ("", "ms_"))
    ext = (lambda m: {t.ref_key: (os.path.basename(t.external_data.location), t.external_data.offset,
                                  t.external_data.length, t.raw_data) for t in m.graph.parameter})
    assert ext(ours) == ext(theirs) and len(ext(ours)) == 8
    assert {t.external_data.location for t in ours.graph.parameter} == {os.path.join("small_split_variables",
                                                                                    "data_0")}
    assert read(os.path.join(FIXTURES, "small_split_variables", "data_0")) == \
        read(os.path.join(FIXTURES, "ms_small_split_variables", "data_0"))


def test_under_the_threshold_weights_stay_in_the_file(tmp_path, monkeypatch):
    monkeypatch.setattr(writer, "TOTAL_SAVE_KB", (4 * 3 + 3) * 4 / 1024 + 2 * 33 / 1024)   # exactly the weights
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert os.listdir(tmp_path) == ["net.mindir"]
    monkeypatch.setattr(writer, "TOTAL_SAVE_KB", writer.TOTAL_SAVE_KB - 0.001)
    ms.export(Tiny(), tiny_input(), file_name=str(tmp_path / "net"), file_format="MINDIR")
    assert sorted(os.listdir(tmp_path)) == ["net.mindir", "net_graph.mindir", "net_variables"]


# --- errors --------------------------------------------------------------------------------------------------------
def test_a_primitive_without_a_mindir_form_is_named_with_the_source_line(tmp_path):
    class Noisy(nn.Cell):
        def construct(self, x):
            return x + P.StandardNormal(seed=1)((2, 4))
    with pytest.raises(ValueError, match=r"can not express 'StandardNormal' \(at test_mindir_export.py:\d+: "
                                         r"return x \+ P.StandardNormal\(seed=1\)\(\(2, 4\)\)\): it has no MindIR"):
        ms.export(Noisy(), tiny_input(), file_name=str(tmp_path / "noisy"), file_format="MINDIR")

    class Branchy(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                return x * 2
            return x - 1
    with pytest.raises(ValueError, match=r"'If' \(at test_mindir_export.py:\d+: if x.sum\(\) > 0:\): control flow"):
        ms.export(Branchy(), tiny_input(), file_name=str(tmp_path / "branchy"), file_format="MINDIR")
    assert not os.listdir(tmp_path)


def test_a_dataset_with_preprocessing_is_refused_without_one_it_exports(tmp_path):
    import mindspore.dataset as ds

    class Flat(nn.Cell):
        def construct(self, image):
            return image.reshape(image.shape[0], -1) * 2
    data = ds.NumpySlicesDataset({"image": np.zeros((4, 3, 2, 2), np.float32)}, shuffle=False).batch(2)
    mapped = data.map(lambda x: x * 2, input_columns=["image"])
    with pytest.raises(ValueError, match="preprocessing of a dataset into MindIR .* is not supported"):
        ms.export(Flat(), mapped, file_name=str(tmp_path / "mapped"), file_format="MINDIR")
    assert not os.listdir(tmp_path)
    ms.export(Flat(), data, file_name=str(tmp_path / "plain"), file_format="MINDIR")
    m = parse(read(tmp_path / "plain.mindir"))
    assert list(m.graph.input[0].tensor[0].dims) == [2, 3, 2, 2] and not m.HasField("preprocessor")


def test_scalar_operands_take_the_tensors_dtype():
    class Mixed(nn.Cell):
        def construct(self, i, x):
            return i + 3, x * 2, i * 0.5
    c = ms._deploy.capture.capture(Mixed(), ms.Tensor(np.ones((2,), np.int32)), ms.Tensor(np.ones((2,), np.float16)))
    m = writer.build_model(c)
    consts = constants(m)
    dtypes = [[consts[i].tensors[0].data_type for i in n.input if i in consts] for op, n in calls(m)
              if op in ("Add", "Mul")]
    assert dtypes == [[6], [10], [1]]      # int32 + 3 -> int32; float16 * 2 -> float16; int32 * 0.5 -> float32


# Our own reader runs every one of these files (recurrent, dynamic, encrypted and operator cases included):
# tests/export/test_mindir_roundtrip.py.
