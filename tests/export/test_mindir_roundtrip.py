"""Our MindIR files through our own reader: what ``mindspore.export`` writes, ``mindspore.load`` runs.

The writer's primitive table (``mindspore/_deploy/mindir/to_ms.py``) and the reader's
(``mindspore/_deploy/mindir/from_ms*.py``) are built from two directions - the writer from what real MindSpore
2.10 loads, the reader from files real MindSpore writes - so nothing but this file keeps them in step:

* every file of ``tests/fixtures/export/ours/`` (the networks, LSTM and dynamic-batch ones included, the
  encrypted and external-data files, and the op cases that verified every table entry with real MindSpore)
  is loaded with ``mindspore.load`` and run by ``nn.GraphCell`` in GRAPH_MODE and by ``mindspore.Predictor``;
  the outputs must be our eager forward's recorded ones (``ours_out``, rtol 1e-5, atol 1e-6) and real
  MindSpore's (``ms_out``, within the tolerance ``verify_mindir_with_ms.py`` verified them to);
* every MindSpore primitive name the writer can emit has a reader rule, and a PRIMITIVE_FUNCTION entry's rule
  needs no primitive attribute (such a node carries none);
* configurations the fixtures do not reach (padding modes, reductions, ``None`` sizes, ``-1`` split sizes...)
  are exported here and must run to our eager outputs, and the writer fixes this round trip led to keep the
  form real MindSpore loads.
"""
import ast
import inspect
import json
import os
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.ops import operations as P
from mindspore._deploy.mindir import from_ms, to_ms, writer
from mindspore._deploy.mindir._schema import ModelProto
from mindspore._deploy.mindir.reader import _attr_value
from mindspore._errors import MSValueError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify_mindir_with_ms as cases  # noqa: E402

FIXTURES = cases.FIXTURES
ALL_CASES = {c.name: c for c in cases.NET_CASES + cases.op_cases(ms)}
VERIFIED = json.load(open(os.path.join(FIXTURES, "verified.json")))
RTOL, ATOL = 1e-5, 1e-6


@pytest.fixture(autouse=True)
def graph_mode():
    saved = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=saved)


def as_arrays(out):
    """The leaves of a (nested) output, as arrays."""
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in as_arrays(o)]
    return [out.asnumpy() if hasattr(out, "asnumpy") else np.asarray(out)]


def assert_same(got, expected, label, rtol=RTOL, atol=ATOL, scaled=False):
    """``got`` equals ``expected`` output by output: shape, dtype, then values (``scaled``: the absolute
    tolerance relative to the output's magnitude, as ``verify_mindir_with_ms.py`` compares with MindSpore)."""
    assert len(got) == len(expected) > 0, f"{label}: {len(got)} outputs, {len(expected)} expected"
    for k, (a, b) in enumerate(zip(got, expected)):
        assert (a.shape, a.dtype) == (b.shape, b.dtype), f"{label} output {k}"
        if b.dtype.kind in "fc":
            tol = atol * max(1.0, float(np.nanmax(np.abs(b), initial=0))) if scaled else atol
            np.testing.assert_allclose(a, b, rtol=rtol, atol=tol, err_msg=f"{label} output {k}")
        else:
            np.testing.assert_array_equal(a, b, err_msg=f"{label} output {k}")


def recorded_runs(name):
    """[(label, inputs, our recorded outputs, MindSpore's recorded outputs)] of case ``name``: the exported batch
    and every other batch size a dynamic case was run at."""
    case = ALL_CASES[name]
    with np.load(os.path.join(FIXTURES, name + ".npz")) as z:
        data = dict(z)
    runs = []
    for prefix in [""] + [f"b{j}_" for j in range(len(case.batches))]:
        ins = [data[f"{prefix}in{k}"] for k in range(len(case.inputs))]
        ours = [data[k] for k in sorted(data) if k.startswith(prefix + "ours_out")]
        theirs = [data[k] for k in sorted(data) if k.startswith(prefix + "ms_out")]
        runs.append((prefix.rstrip("_") or "exported", ins, ours, theirs))
    return runs


def check_outputs(run, name):
    """``run(inputs) -> arrays`` gives case ``name``'s recorded outputs at every recorded batch size."""
    for label, ins, ours, theirs in recorded_runs(name):
        got = run(ins)
        if not VERIFIED["cases"][name]["ran"]:       # loaded by MindSpore, but it has no CPU kernel to run it
            assert not ours and not theirs
            ours = cases.our_outputs(ms, ALL_CASES[name].build(ms), ins)
            assert name == "ops_no_cpu_kernel"
            np.testing.assert_allclose(ours[0], np.einsum("abc,adc->abd", ins[0], ins[0]), rtol=1e-5, atol=1e-5)
        assert_same(got, ours, f"{name} {label} vs our forward")
        if theirs:
            assert_same(got, theirs, f"{name} {label} vs MindSpore", rtol=cases.TOLERANCE, atol=cases.TOLERANCE,
                        scaled=True)


def fixture_path(name):
    return os.path.join(FIXTURES, ALL_CASES[name].file)


# --- every fixture, through GraphCell and Predictor ------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_our_file_runs_in_graphcell(name):
    graph = ms.load(fixture_path(name), **ALL_CASES[name].load)
    assert set(graph.primitives) == set(VERIFIED["cases"][name]["mindspore_primitives"])
    cell = nn.GraphCell(graph)
    check_outputs(lambda ins: as_arrays(cell(*[ms.Tensor(a) for a in ins])), name)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_our_file_runs_in_predictor(name):
    load = ALL_CASES[name].load
    predictor = ms.Predictor(fixture_path(name), dec_key=load.get("dec_key"), dec_mode=load.get("dec_mode", "AES-GCM"))
    check_outputs(lambda ins: as_arrays(predictor.predict(*ins)), name)


#: Table entries capture never leaves in a graph to write: OnesLike/ZerosLike of a known shape fold to constants
#: (of an unknown one to BroadcastTo), StopGradient and Depend are dropped for inference (the Depend a file holds
#: is the writer's own, of its side effects). Their op cases hold none of them.
FOLDED_BY_CAPTURE = {"Depend", "OnesLike", "ZerosLike", "StopGradient"}


def test_the_fixtures_cover_every_entry_of_the_writers_table():
    """Every table entry was written into an op case above (so its name, style and argument order are read)."""
    assert set(ALL_CASES) == set(VERIFIED["cases"])
    by_entry = VERIFIED["table_entries"]
    assert set(to_ms.TABLE) <= set(by_entry)
    not_in_files = sorted(entry for entry, spec in to_ms.TABLE.items()
                          if not any((spec.ms_name or entry) in VERIFIED["cases"][c]["mindspore_primitives"]
                                     for c in by_entry[entry]))
    assert not_in_files == sorted(FOLDED_BY_CAPTURE)


@pytest.mark.parametrize("spec", [[2, 3], [None, 3]])
def test_capture_folds_the_entries_no_file_holds(spec):
    class Net(nn.Cell):
        def construct(self, x):
            return (P.ZerosLike()(x) + x, P.OnesLike()(x * 2) + x, P.StopGradient()(x * 3) + 1,
                    P.Depend()(x * 4, x * 5))
    model = writer.build_model(ms._deploy.capture.capture(Net(), ms.Tensor(shape=spec, dtype=ms.float32)))
    written = {p.op_type for p in model.primitives}
    assert "Mul" in written and not written & FOLDED_BY_CAPTURE


# --- the two tables ---------------------------------------------------------------------------------------------
def names_the_writer_emits_itself():
    """The primitive names ``writer.py`` writes outside the table: its ``_cnode("Name", ...)`` and
    ``_scalar_op("Name", ...)`` calls (plumbing, side effects, shape arithmetic)."""
    tree = ast.parse(inspect.getsource(writer))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("_cnode", "_scalar_op") and node.args and isinstance(node.args[0], ast.Constant):
            names.add(node.args[0].value)
    return names


def writable_names():
    """{MindSpore primitive name: its spec, or None for the writer's own}."""
    names = {name: None for name in names_the_writer_emits_itself()}
    names.update({spec.ms_name or name: spec for name, spec in to_ms.TABLE.items()})
    return names


def test_every_name_the_writer_can_emit_has_a_reader_rule():
    own = names_the_writer_emits_itself()
    # the scan found the writer's plumbing (a change of the writer's helpers must not empty it silently)
    assert {"Load", "UpdateState", "Depend", "MakeTuple", "TupleGetItem", "Shape", "ScalarMul", "ScalarAdd",
            "BroadcastTo"} <= own
    missing = sorted(set(writable_names()) - set(from_ms.RULES))
    assert not missing, f"the writer can emit primitives the reader has no rule for: {missing}"
    assert len(to_ms.TABLE) >= 179


def test_function_style_rules_need_no_primitive_attribute():
    """A PRIMITIVE_FUNCTION node passes every argument as an input and its primitive has no attributes, so the
    reader's rule must not require one (a keyword-only parameter without default)."""
    for name, spec in writable_names().items():
        if spec is None or spec.kind != "PRIMITIVE_FUNCTION" or spec.attrs:
            continue
        rule = from_ms.RULES[name]
        required = [k for k, default in rule.keyword if default is inspect.Parameter.empty]
        assert not required, f"'{name}' is written as PRIMITIVE_FUNCTION but its rule requires attributes {required}"
        assert rule.variadic or len(rule.positional) >= len(spec.args) + 1, name


# --- configurations the fixtures do not reach -----------------------------------------------------------------------
def _variants():
    """{group: (inputs, [(label, fn(a, b))])}: each group is exported as one network returning every output."""
    T, f32, i32 = ms.Tensor, ms.float32, ms.int32
    rng = np.random.default_rng(77)
    x4 = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    w4 = (rng.standard_normal((6, 1, 3, 3)) * 0.3).astype(np.float32)
    x5 = rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
    w5 = (rng.standard_normal((2, 2, 3, 3, 3)) * 0.3).astype(np.float32)
    xa = rng.standard_normal((3, 4, 5)).astype(np.float32)
    ia = np.array([2, 0, 1], np.int32)
    xl = rng.standard_normal((3, 5)).astype(np.float32)
    il = np.array([4, 0, 2], np.int32)
    ones5 = T(np.ones((5,), np.float32))
    return {
        "nn": ([x4, w4], [
            ("AdaptiveAvgPool2D.none", lambda x, w: P.AdaptiveAvgPool2D((None, 3))(x)),
            ("AdaptiveAvgPool2D.int", lambda x, w: P.AdaptiveAvgPool2D(3)(x)),
            ("AdaptiveMaxPool2D.none", lambda x, w: P.AdaptiveMaxPool2D((3, None))(x)),
            ("Conv2D.group", lambda x, w: P.Conv2D(6, 3, pad_mode="pad", pad=1, group=3)(x, w)),
            ("ResizeNearestNeighbor.align", lambda x, w: P.ResizeNearestNeighbor((5, 7), align_corners=True)(x)),
            ("ResizeBilinearV2.half", lambda x, w: P.ResizeBilinearV2(half_pixel_centers=True)(x, (5, 11))),
            ("PadV3.reflect", lambda x, w: P.PadV3(mode="reflect")(x, (1, 2, 2, 1))),
            ("PadV3.edge", lambda x, w: P.PadV3(mode="edge")(x, (1, 2, 2, 1))),
            ("PadV3.circular", lambda x, w: P.PadV3(mode="circular")(x, (1, 2, 2, 1))),
            ("PadV3.default_value", lambda x, w: P.PadV3()(x, (1, 2, 2, 1))),
            ("PadV3.noncontiguous", lambda x, w: P.PadV3(paddings_contiguous=False)(x, (1, 2, 2, 1), T(1.5, f32))),
        ]),
        "nn3d": ([x5, w5], [
            ("MaxPool3D.pad_ceil", lambda x, w: P.MaxPool3D(3, 2, "pad", (1, 1, 1, 1, 1, 1), ceil_mode=True)(x)),
            ("MaxPool3D.same", lambda x, w: P.MaxPool3D(3, 2, "same")(x)),
            ("AvgPool3D.pad_exclusive", lambda x, w: P.AvgPool3D(3, 2, "pad", 1, count_include_pad=False)(x)),
            ("AvgPool3D.same", lambda x, w: P.AvgPool3D(2, 1, "same")(x)),
            ("AvgPool3D.divisor", lambda x, w: P.AvgPool3D(2, 2, divisor_override=3)(x)),
            ("Conv3D.pad_stride", lambda x, w: P.Conv3D(2, 3, pad_mode="pad", pad=(1, 0, 1, 0, 1, 1), stride=2)(x, w)),
            ("Conv3D.valid", lambda x, w: P.Conv3D(2, 3)(x, w)),
        ]),
        "array": ([xa, ia], [
            ("Meshgrid.ij", lambda x, i: P.Meshgrid("ij")((x[0, 0], x[1, 1, :3]))),
            ("TensorScatterElements.add", lambda x, i: P.TensorScatterElements(0, "add")(
                x, P.Cast()(P.ZerosLike()(x), i32)[:2] + 1, x[:2])),
            ("SplitV.rest", lambda x, i: P.SplitV((1, -1, 2), 1, 3)(x)),
            ("Unstack.first", lambda x, i: P.Unstack(0)(x)),
            ("Unstack.last", lambda x, i: P.Unstack(-1)(x)[4]),
            ("CumProd.reverse", lambda x, i: P.CumProd(reverse=True)(x, 1)),
            ("Cummin", lambda x, i: P.Cummin(0)(x)),
            ("ReduceStd.all", lambda x, i: P.ReduceStd((), False, True)(x)),
            ("LpNorm.p1", lambda x, i: P.LpNorm((0, 2), p=1, keep_dims=True)(x)),
            ("LpNorm.p3", lambda x, i: P.LpNorm(1, p=3)(x)),
            ("Unique", lambda x, i: P.Unique()(P.Concat()((i, i)))),
            ("Argmax.int64", lambda x, i: P.Argmax(1, ms.int64)(x)),
            ("Round.decimals", lambda x, i: P.Round()(x * 10, 2)),
            ("NanToNum.default", lambda x, i: P.NanToNum()(P.Div()(x, x * 0))),
            ("IsClose.nan", lambda x, i: P.IsClose(equal_nan=False)(P.Log()(x), P.Log()(x))),
            ("Einsum", lambda x, i: P.Einsum("abc,abd->acd")((x, x))),
            ("Pad", lambda x, i: P.Pad(((1, 0), (0, 2), (1, 1)))(x)),
        ]),
        "loss": ([xl, il], [
            ("BCEWithLogitsLoss.none", lambda x, i: P.BCEWithLogitsLoss("none")(
                x, P.Sigmoid()(x * 2), ones5, T(np.full((5,), 2.0, np.float32)))),
            ("BinaryCrossEntropy.no_weight", lambda x, i: P.BinaryCrossEntropy("none")(P.Sigmoid()(x),
                                                                                      P.Sigmoid()(x * 2))),
            ("NLLLoss.sum_ignore", lambda x, i: P.NLLLoss("sum", 0)(P.LogSoftmax()(x), i,
                                                                    T(np.arange(1, 6, dtype=np.float32)))),
            ("NLLLoss.none", lambda x, i: P.NLLLoss("none")(P.LogSoftmax()(x), i, ones5)[0]),
            ("SmoothL1Loss.sum", lambda x, i: P.SmoothL1Loss(1.0, "sum")(x, x * 0.5)),
            ("KLDivLoss.batchmean", lambda x, i: P.KLDivLoss("batchmean")(P.LogSoftmax()(x), P.Softmax()(x * 2))),
            ("KLDivLoss.none", lambda x, i: P.KLDivLoss("none")(P.LogSoftmax()(x), P.Softmax()(x * 2))),
            ("SparseSoftmaxCrossEntropyWithLogits.grad", lambda x, i: P.SparseSoftmaxCrossEntropyWithLogits(True)(
                x, i)),
            ("SoftmaxCrossEntropyWithLogits", lambda x, i: P.SoftmaxCrossEntropyWithLogits()(
                x, P.OneHot()(i, 5, T(1.0, f32), T(0.0, f32)))),
            ("CeLU", lambda x, i: P.CeLU()(x)),
            ("HShrink", lambda x, i: P.HShrink()(x)),
            ("SoftShrink", lambda x, i: P.SoftShrink()(x)),
        ]),
    }


VARIANTS = _variants()


def parse(path):
    m = ModelProto()
    with open(path, "rb") as f:
        m.ParseFromString(f.read())
    return m


def calls(model, op):
    """[(node input names, constant values by name, primitive attributes)] of the nodes calling ``op``."""
    prims = {p.name: p for p in model.primitives}
    consts = {n.output[0]: _attr_value(n.attribute[0], "a constant", None) for n in model.graph.node
              if n.op_type == "Constant"}
    out = []
    for n in model.graph.node:
        p = prims.get(n.op_type[len("REF::"):])
        if p is not None and p.op_type == op:
            attrs = {a.name: _attr_value(a, "an attribute", None) for a in p.attribute}
            out.append((list(n.input), consts, attrs))
    return out


@pytest.fixture(scope="module")
def variant_files(tmp_path_factory):
    """{group: (path, inputs, our eager outputs)} of the variant networks, exported once."""
    d = str(tmp_path_factory.mktemp("variants"))
    files = {}
    for group, (ins, fns) in VARIANTS.items():
        case = cases.Case(group, (lambda f: lambda m: cases.op_net(m, f))(fns), ins)
        net = cases.export_case(ms, case, d)
        files[group] = (os.path.join(d, case.file), ins, as_arrays(net(*[ms.Tensor(a) for a in ins])))
    return files


@pytest.mark.filterwarnings("ignore:divide by zero")     # NanToNum's input is x / 0
@pytest.mark.parametrize("group", sorted(VARIANTS))
def test_variants_round_trip_to_our_eager_outputs(group, variant_files):
    path, ins, ours = variant_files[group]
    cell = nn.GraphCell(ms.load(path))
    assert_same(as_arrays(cell(*[ms.Tensor(a) for a in ins])), ours, f"variants '{group}' in GraphCell")
    assert_same(as_arrays(ms.Predictor(path).predict(*ins)), ours, f"variants '{group}' in Predictor")


def test_writer_fixes_keep_the_form_mindspore_loads(variant_files):
    """Found by this round trip and checked with real MindSpore 2.10: a kept size (``None``) of an adaptive pool
    is written as -1 (MindSpore's loader refuses None in the tuple); a -1 in SplitV's sizes is resolved
    (MindSpore's SplitWithSize takes only the sizes themselves, and gives wrong pieces for -1); PadV3's kernel is
    given a constant_value only in 'constant' mode, as a tensor of x's dtype."""
    nn_model, array_model = parse(variant_files["nn"][0]), parse(variant_files["array"][0])
    (avg,) = [attrs["output_size"] for _, _, attrs in calls(nn_model, "AdaptiveAvgPool2D") if
              attrs["output_size"] != (3, 3)]
    assert avg == (-1, 3)
    assert [attrs["output_size"] for _, _, attrs in calls(nn_model, "AdaptiveAvgPool2D")].count((3, 3)) == 1  # int 3
    ((inputs, consts, _),) = calls(nn_model, "AdaptiveMaxPool2D")
    assert consts[inputs[1]] == (3, -1)
    ((inputs, consts, _),) = calls(array_model, "SplitWithSize")
    assert consts[inputs[1]] == (1, 1, 2) and consts[inputs[2]] == 1
    pads = {attrs["mode"] + ("" if attrs["paddings_contiguous"] else "_noncontiguous"): (inputs, consts)
            for inputs, consts, attrs in calls(nn_model, "PadV3")}
    assert sorted(pads) == ["circular", "constant", "constant_noncontiguous", "edge", "reflect"]
    for mode in ("reflect", "edge", "circular"):
        assert len(pads[mode][0]) == 2, mode
    inputs, consts = pads["constant"]
    value = consts[inputs[2]]
    assert value.dtype == ms.float32 and value.shape == () and float(value.asnumpy()) == 0.0


def test_a_rest_size_of_an_unknown_dimension_is_a_clear_export_error(tmp_path):
    class Net(nn.Cell):
        def construct(self, x):
            return P.SplitV((1, -1), 0, 2)(x)[1]
    with pytest.raises(MSValueError, match=r"'SplitV'.*-1 \(the rest of a dimension of unknown size\)"):
        ms.export(Net(), ms.Tensor(shape=[None, 3], dtype=ms.float32), file_name=str(tmp_path / "net"),
                  file_format="MINDIR")
    assert not os.listdir(str(tmp_path))


def test_new_rules_run_at_every_batch_of_a_dynamic_export(tmp_path):
    class Net(nn.Cell):
        def construct(self, x):
            a, b = P.SplitV((2, -1), 1, 2)(x)
            x5 = P.ExpandDims()(P.ExpandDims()(x, 1), 1)
            return (P.Unstack(2)(P.CumProd(reverse=True)(b, 1))[0], P.ReduceStd(1)(a)[0],
                    P.LpNorm(2, p=1)(P.MaxPool3D(2, 2, "same")(x5)[:, 0, 0]))
    net = Net()
    ms.export(net, ms.Tensor(shape=[None, 5, 4], dtype=ms.float32), file_name=str(tmp_path / "dyn"),
              file_format="MINDIR")
    cell = nn.GraphCell(ms.load(str(tmp_path / "dyn.mindir")))
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 5, 4)).astype(np.float32)
        assert_same(as_arrays(cell(ms.Tensor(x))), as_arrays(net(ms.Tensor(x))), f"batch {batch}")


def test_a_nearest_neighbor_resize_with_half_pixel_centers_is_refused():
    """Our ResizeNearestNeighbor has no half-pixel mode: a file asking for it must fail, not run the default."""
    rule = from_ms.RULES["ResizeNearestNeighbor"]
    x = ms.Tensor(np.ones((1, 1, 2, 2), np.float32))
    assert rule.fn(x, (3, 3), False, False).shape == (1, 1, 3, 3)
    with pytest.raises(MSValueError, match="'half_pixel_centers' is True"):
        rule.fn(x, (3, 3), False, True)


def test_rules_take_the_spellings_mindsporess_own_files_use():
    """What real MindSpore 2.10 writes for the same operators (read off files it exported): the 3-D pools'
    capital pad modes with the pad_list it computed (``'CALCULATED'`` for explicit padding, ceil_mode 0/1),
    Conv3D's raw ``stride`` beside the 5-tuple ``strides`` it runs with, -1 for a kept adaptive-pool size,
    PadV3's paddings as an int tensor."""
    rules = from_ms.RULES
    rng = np.random.default_rng(3)
    x5 = ms.Tensor(rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32))
    w5 = ms.Tensor((rng.standard_normal((2, 2, 3, 3, 3)) * 0.3).astype(np.float32))
    x4 = ms.Tensor(rng.standard_normal((2, 3, 8, 8)).astype(np.float32))
    pool = {"kernel_size": (1, 1, 3, 3, 3), "strides": (1, 1, 2, 2, 2), "format": "NCDHW"}
    pairs = [
        (rules["MaxPool3D"].fn(x5, pad_mode="SAME", pad_list=(1, 1, 0, 1, 1, 1), ceil_mode=0, **pool),
         P.MaxPool3D(3, 2, "same")(x5)),
        (rules["MaxPool3D"].fn(x5, pad_mode="CALCULATED", pad_list=(1,) * 6, ceil_mode=1, **pool),
         P.MaxPool3D(3, 2, "pad", (1,) * 6, ceil_mode=True)(x5)),
        (rules["AvgPool3D"].fn(x5, pad_mode="SAME", pad=0, pad_list=(1, 1, 0, 1, 1, 1), ceil_mode=False,
                               count_include_pad=False, divisor_override=0, **pool),
         P.AvgPool3D(3, 2, "same", count_include_pad=False)(x5)),
        (rules["Conv3D"].fn(x5, w5, out_channel=2, kernel_size=(3, 3, 3), mode=1, pad_mode="same",
                            pad=(0,) * 6, pad_list=(1, 1, 0, 1, 1, 1), stride=2, strides=(1, 1, 2, 2, 2),
                            dilation=1, dilations=(1,) * 5, group=1, groups=1, data_format="NCDHW"),
         P.Conv3D(2, 3, pad_mode="same", stride=2)(x5, w5)),
        (rules["AdaptiveAvgPool2D"].fn(x4, (-1, 3)), P.AdaptiveAvgPool2D((None, 3))(x4)),
        (rules["AdaptiveMaxPool2D"].fn(x4, (3, -1))[0], P.AdaptiveMaxPool2D((3, None))(x4)[0]),
        (rules["PadV3"].fn(x4, ms.Tensor(np.array([1, 2, 2, 1], np.int64)), mode="reflect"),
         P.PadV3(mode="reflect")(x4, (1, 2, 2, 1))),
    ]
    for k, (got, want) in enumerate(pairs):
        assert_same(as_arrays(got), as_arrays(want), f"pair {k}")
