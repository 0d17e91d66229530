"""The math_prims primitives against MindSpore 2.10's recorded numbers (``tests/fixtures/ops/math_prims_2.10.json``,
made by ``make_math_prims_2.10.py`` there), their MindSpore-style errors, and the functional forms that share their
definition (``ops.unsorted_segment_*``, ``ops.population_count``)."""
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
from mindspore.ops._defs import math_prims as P

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "math_prims_2.10.json"
DATA = json.loads(FIXTURE.read_text())


def _array(rec):
    return np.array(rec["values"], rec["dtype"]).reshape(rec["shape"])


def _prim(case):
    cls = getattr(P, case["prim"])
    attrs = dict(case["attrs"])
    for key in ("out_idx", "Tsplits"):
        if key in attrs:
            attrs[key] = getattr(ms, attrs[key])
    return cls(**attrs)


def _call(case):
    prim = _prim(case)
    args = [ms.Tensor(_array(a)) for a in case["inputs"]]
    if case["prim"] == "NthElement" or case["prim"].startswith("Unsorted"):
        args[-1] = int(_array(case["inputs"][-1]))
    out = prim(*args)
    return out if isinstance(out, tuple) else (out,)


@pytest.mark.parametrize("case", DATA["cases"], ids=[c["name"] for c in DATA["cases"]])
def test_matches_mindspore_2_10(case):
    outs = _call(case)
    assert len(outs) == len(case["outputs"])
    for got, rec in zip(outs, case["outputs"]):
        want = _array(rec)
        got = got.asnumpy()
        assert got.dtype == want.dtype and got.shape == want.shape, (case["name"], got.dtype, got.shape)
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=case["name"])


def test_dtype_to_enum_matches_mindspore_2_10():
    got = {str(dt): P.DtypeToEnum()("Op", "x", dt) for dt in P.TYPE_IDS}
    for name, value in DATA["dtype_to_enum"].items():
        assert got[name] == value, name


def test_functional_forms_share_the_primitive():
    x = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], np.float32))
    ids = ms.Tensor(np.array([1, 0, 1], np.int32))
    for fn, prim in ((ops.unsorted_segment_sum, P.UnsortedSegmentSum), (ops.unsorted_segment_max, P.UnsortedSegmentMax),
                     (ops.unsorted_segment_min, P.UnsortedSegmentMin),
                     (ops.unsorted_segment_prod, P.UnsortedSegmentProd)):
        np.testing.assert_array_equal(fn(x, ids, 3).asnumpy(), prim()(x, ids, 3).asnumpy())
    np.testing.assert_array_equal(ops.population_count(ms.Tensor(np.array([7, -1], np.int8))).asnumpy(), [3, 8])


def test_errors_in_mindspore_style():
    x = ms.Tensor(np.ones((3, 2), np.float32))
    with pytest.raises(ValueError, match="For 'UnsortedSegmentSum', the shape of 'segment_ids' must be a prefix"):
        P.UnsortedSegmentSum()(x, ms.Tensor(np.zeros((4,), np.int32)), 2)
    with pytest.raises(TypeError, match="For 'UnsortedSegmentSum', the type of 'segment_ids'"):
        P.UnsortedSegmentSum()(x, ms.Tensor(np.zeros((3,), np.float32)), 2)
    with pytest.raises(RuntimeError, match="segment_ids must be a tensor with element values sorted in ascending"):
        P.SegmentMax()(x, ms.Tensor(np.array([1, 0, 2], np.int32))).asnumpy()
    with pytest.raises(TypeError, match="For 'Lstsq', the 'l2_regularizer' should be 0.0"):
        P.Lstsq(l2_regularizer=0.5)
    with pytest.raises(ValueError, match="For primitive\\[UniqueWithPad\\], the input_shape_size must be equal to 1"):
        P.UniqueWithPad()(x, ms.Tensor(np.array(0.0, np.float32)))
    with pytest.raises(ValueError, match="For 'ScalarCast', the supported type is in the list"):
        P.ScalarCast()(2.5, ms.int32)
    with pytest.raises(ValueError, match="For 'CompareAndBitpack', x.shape\\[-1\\] must be a multiple of 8"):
        P.CompareAndBitpack()(x, ms.Tensor(np.array(0.0, np.float32)))
    with pytest.raises(ValueError, match="For 'NthElement', the 'n' must be in \\[0, 2\\)"):
        P.NthElement()(x, 2)
