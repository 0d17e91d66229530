"""``mindspore.numpy`` against NumPy (values) and real MindSpore 2.10 (result dtypes).

The cases live in ``tests/fixtures/api/numpy_cases.txt``; each expression runs with
``m = mindspore.numpy`` on Tensors and with ``m = numpy`` on the same data. Values and shapes must
match NumPy's; dtypes must match what real MindSpore gave (``numpy_msref.json``, made by
``make_numpy_fixture.py``), except for the deviations listed below with their reasons.
"""
import json
import os
import sys

import numpy as np
import pytest

import mindspore as ms
import mindspore.numpy as mnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_numpy_fixture import OUT_FILE, environment, flatten, load_cases  # noqa: E402

INPUTS, CASES = load_cases()
with open(OUT_FILE, encoding="utf-8") as _fh:
    MSREF = json.load(_fh)["cases"]

# Where our dtype differs from real MindSpore's on purpose: real MindSpore's answer is a bug there.
DTYPE_DEVIATIONS = {
    "mean_int": "MindSpore averages Int32 as Int32 (truncating the mean); we give Float32, NumPy's float result",
    "ravel_multi_index": "MindSpore returns Float32 flat indices; they are Int32 here",
    "ravel_multi_index_f": "as ravel_multi_index",
    "array_bigint": "MindSpore makes [2**40, 1] Int32 (the value wraps); it stays Int64 here",
}


def _kind(x):
    if isinstance(x, ms.Tensor):
        return str(x.dtype)
    if isinstance(x, ms.dtype.Type):
        return f"dtype:{x}"
    return type(x).__name__


def _env(lib):
    return environment(INPUTS, np, np.asarray) if lib is np else environment(INPUTS, mnp, ms.Tensor)


def _host(x):
    return x.asnumpy() if isinstance(x, ms.Tensor) else np.asarray(x)


@pytest.mark.parametrize("case_id,expr,np_expr", CASES, ids=[c[0] for c in CASES])
def test_against_numpy(case_id, expr, np_expr):
    ours = flatten(eval(expr, _env(mnp)))  # noqa: S307 - our own case table
    expected = flatten(eval(np_expr or expr, _env(np)))  # noqa: S307
    assert len(ours) == len(expected), case_id
    for got, want in zip(ours, expected):
        if isinstance(want, (bool, int, float, str)) and not isinstance(got, ms.Tensor):
            assert got == want
            continue
        if isinstance(want, type) or isinstance(want, np.dtype):
            assert np.dtype(ms.dtype_to_nptype(got)) == np.dtype(want)
            continue
        g, w = _host(got), _host(want)
        assert g.shape == w.shape, f"{case_id}: shape {g.shape} != NumPy's {w.shape}"
        if w.dtype == np.bool_:
            np.testing.assert_array_equal(g, w)
        else:
            tol = 1e-3 if g.dtype == np.float16 else 2e-5
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=tol, atol=tol,
                                       equal_nan=True, err_msg=case_id)


DTYPE_CASES = [(c[0], c[1]) for c in CASES if "error" not in MSREF.get(c[0], {}) and c[0] not in DTYPE_DEVIATIONS]


@pytest.mark.parametrize("case_id,expr", DTYPE_CASES, ids=[c[0] for c in DTYPE_CASES])
def test_dtypes_match_mindspore(case_id, expr):
    ours = flatten(eval(expr, _env(mnp)))  # noqa: S307
    ref = MSREF[case_id]
    got = [_kind(x) for x in ours]
    assert got == ref["dtypes"], case_id
    assert [list(x.shape) if isinstance(x, ms.Tensor) else None for x in ours] == ref["shapes"], case_id


def test_fixture_covers_every_case():
    assert sorted(MSREF) == sorted(c[0] for c in CASES)
    assert len(CASES) > 250


@pytest.mark.parametrize("case_id", sorted(DTYPE_DEVIATIONS))
def test_listed_dtype_deviations_are_real(case_id):
    expr = next(c[1] for c in CASES if c[0] == case_id)
    ours = [_kind(x) for x in flatten(eval(expr, _env(mnp)))]  # noqa: S307
    assert "error" not in MSREF[case_id] and ours != MSREF[case_id]["dtypes"], f"{case_id} is no deviation: drop it"
