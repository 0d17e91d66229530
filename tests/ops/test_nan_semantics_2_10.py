"""NaN / +-inf semantics of max pooling and softmax, checked against MindSpore 2.10 (CPU) on recorded cases.

``tests/fixtures/ops/maxpool_nan_2.10.npz`` and ``softmax_nan_2.10.npz`` hold 2.10's outputs for generated
inputs with NaN and infinities (made by the ``make_*_nan_2_10.py`` scripts next to them). Differences kept on
purpose, pinned here:

* MaxPoolWithArgmax's argmax in 2.10 counts from the start of the (C, H, W) volume, and so does
  MaxPoolWithArgmaxV2's for a window where no element beats the start value (compared here modulo the plane
  size; such indices fall outside the plane, which MaxPoolGradWithArgmax / max_unpool2d cannot use);
* MaxPoolWithArgmax's float64 values, which 2.10 rounds to float32 (compared after that rounding);
* MaxPool's gradient goes to the element the forward picked (2.10's MaxPoolGrad uses the strictly-greater
  rule, e.g. the 2.0 of the window [2, NaN, 1, 0.5] whose value is 1.0);
* softmax rows after a row of -inf are computed (2.10 leaves them 0 in some batch shapes), and log_softmax
  keeps IEEE results (2.10's depend on where a NaN falls in its SIMD registers).
"""
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "maxpool_nan_2.10.npz"
_DATA = np.load(FIXTURE)
_CASES = json.loads(str(_DATA["cases"]))
_INDEXED = {"MaxPoolWithArgmaxV2", "MaxPoolWithArgmax", "AdaptiveMaxPool2D", "MaxPool3DWithArgmax"}


def _same(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return a.shape == b.shape and bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))


@pytest.mark.parametrize("i", range(len(_CASES)), ids=lambda i: f"{i}-{_CASES[i]['op']}")
def test_max_pool_matches_2_10(i):
    case = _CASES[i]
    op, args = case["op"], case["args"]
    x = _DATA[f"{i}_x"]
    res = getattr(ops, op)(*[tuple(a) if isinstance(a, list) else a for a in args])(Tensor(x))
    y = res[0] if isinstance(res, tuple) else res
    assert y.asnumpy().dtype == x.dtype
    got = y.asnumpy()
    if op == "MaxPoolWithArgmax" and x.dtype == np.float64:
        got = got.astype(np.float32).astype(np.float64)  # 2.10 rounds this one to float32: not followed
    assert _same(got, _DATA[f"{i}_y"]), (op, args)
    if op in _INDEXED:
        a, want = res[1].asnumpy().astype(np.int64), _DATA[f"{i}_a"].astype(np.int64)
        if op == "MaxPoolWithArgmaxV2":
            # 2.10 adds channel * H * W to a MaxPoolWithArgmaxV2 index that no element beat (a window of NaN /
            # -inf); ours stays inside the plane there (MaxPoolWithArgmax's indices count over (C, H, W) in both)
            want = want % (x.shape[-1] * x.shape[-2])
        np.testing.assert_array_equal(a, want)


def test_max_pool_fold_examples():
    nan = np.nan
    x = Tensor(np.array([[[[2, nan, 1, 0.5], [1, 2, 0, nan], [-np.inf] * 4, [nan, nan, 3, 3]]]], np.float32))
    y = ops.MaxPool((1, 4), (1, 4))(x).asnumpy().ravel()
    assert y[0] == 1.0 and np.isnan(y[1]) and y[2] == np.finfo(np.float32).min and y[3] == 3.0
    y, a = ops.MaxPoolWithArgmaxV2((1, 4), (1, 4))(x)
    np.testing.assert_array_equal(y.asnumpy().ravel(), [2, 2, np.finfo(np.float32).min, 3])
    np.testing.assert_array_equal(a.asnumpy().ravel(), [0, 5, 8, 14])
    y = ms.nn.MaxPool2d((1, 4), (1, 4))(x).asnumpy().ravel()
    assert y[0] == 1.0 and np.isnan(y[1])
    y = ops.max_pool2d(x, (1, 4), (1, 4)).asnumpy().ravel()  # MaxPoolWithArgmaxV2 in 2.10
    np.testing.assert_array_equal(y, [2, 2, np.finfo(np.float32).min, 3])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_pool_gradient_follows_forward_pick(dtype):
    nan = np.nan
    x = np.array([[[[2, nan, 1, 0.5], [1, 2, 0, nan], [-np.inf] * 4, [nan, nan, 3, 3], [1, 1, 0, 0]]]], dtype)
    g = ms.grad(lambda t: ops.MaxPool((1, 4), (1, 4))(t).sum())(Tensor(x)).asnumpy()[0, 0]
    want = np.zeros_like(x[0, 0])
    for r, c in ((0, 2), (1, 3), (2, 0), (3, 2), (4, 0)):
        want[r, c] = 1
    np.testing.assert_array_equal(g, want)
    x5 = x[:, :, None]
    g3 = ms.grad(lambda t: ops.MaxPool3D((1, 1, 4), (1, 1, 4))(t).sum())(Tensor(x5)).asnumpy()[0, 0, 0]
    np.testing.assert_array_equal(g3, want)


def test_max_pool_fast_paths_follow_the_fold():
    """2x2/2, 3x3/2 and 3x3/1 windows (the C++ fast paths) on large planes with sparse NaN."""
    rng = np.random.default_rng(0)
    for k, s in ((2, 2), (3, 2), (3, 1)):
        x = rng.standard_normal((2, 3, 33, 34)).astype(np.float32)
        x[rng.random(x.shape) < 0.02] = np.nan
        x[rng.random(x.shape) < 0.01] = -np.inf
        y = ops.MaxPool(k, s, "SAME")(Tensor(x)).asnumpy()
        oh, ow = y.shape[2:]
        ph, pw = max((oh - 1) * s + k - 33, 0) // 2, max((ow - 1) * s + k - 34, 0) // 2
        low = np.finfo(np.float32).min
        want = np.empty_like(y)
        for n in range(2):
            for c in range(3):
                for oy in range(oh):
                    for ox in range(ow):
                        m = np.float32(low)
                        for ky in range(k):
                            for kx in range(k):
                                iy, ix = oy * s - ph + ky, ox * s - pw + kx
                                if 0 <= iy < 33 and 0 <= ix < 34:
                                    v = x[n, c, iy, ix]
                                    m = m if m > v else v
                        want[n, c, oy, ox] = m
        assert _same(y, want), (k, s)


# --- softmax ------------------------------------------------------------------------------------
_SM = np.load(FIXTURE.parent / "softmax_nan_2.10.npz")
_SM_AXES = [int(a) for a in _SM["axes"]]


@pytest.mark.parametrize("i", range(len(_SM_AXES)))
def test_softmax_matches_2_10(i):
    """float32 over the last axis: NaN / +inf positions give NaN, the rest of the row 0, a row of -inf 0 (2.10's
    CPU kernel); float64, float16 and other axes: IEEE, as in 2.10."""
    x, want = _SM[f"{i}_x"], _SM[f"{i}_y"]
    got = ops.softmax(Tensor(x), _SM_AXES[i]).asnumpy()
    assert got.dtype == want.dtype
    assert np.array_equal(np.isnan(got), np.isnan(want))
    tol = 2e-3 if x.dtype == np.float16 else 1e-6
    np.testing.assert_allclose(got[~np.isnan(got)], want[~np.isnan(want)], rtol=tol, atol=tol)


def test_softmax_rows_after_a_row_of_minus_inf_are_kept():
    """2.10 leaves the rows after a row of -inf at 0 in 2-D batches (a kernel that stops at a zero sum): not copied."""
    x = np.array([[-np.inf, -np.inf, -np.inf], [3, 1, 2], [-np.inf, 0, 1]], np.float32)
    y = ops.softmax(Tensor(x)).asnumpy()
    np.testing.assert_array_equal(y[0], [0, 0, 0])
    e = np.exp(x[1:] - x[1:].max(axis=1, keepdims=True))
    # (3e-6: 2.10's float32 exp here is nnacl's degree-5 polynomial, up to ~1.3e-6 off NumPy's exp)
    np.testing.assert_allclose(y[1:], e / e.sum(axis=1, keepdims=True), rtol=3e-6)
    y = ms.nn.Softmax()(Tensor(x)).asnumpy()
    np.testing.assert_allclose(y[1:], e / e.sum(axis=1, keepdims=True), rtol=3e-6)


def test_log_softmax_nan_as_2_10():
    """2.10's float32 log_softmax depends on where a NaN falls in its SIMD registers (recorded: [-inf, nan, -inf] and
    7 x -inf, nan, nan on an AVX-512 CPU): ours is its oneDNN kernel, lane by lane, 16 lanes on such a CPU
    (tests/ops/test_log_softmax_cpu_2_10.py, which also has 2.10's 8-lane values of an AVX2 CPU)."""
    from mindspore_cpu.kernels import nn as cpu_nn
    for name in ("log_softmax_row3", "log_softmax_row9"):
        if name == "log_softmax_row9" and cpu_nn._log_softmax_lanes() != 16:
            continue   # in 8 lanes the NaN reaches only its own lane: ..., nan, -inf
        x = _SM[name + "_x"]
        y = ops.log_softmax(Tensor(x)).asnumpy()
        np.testing.assert_array_equal(y, _SM[name + "_y"])
    assert not np.all(np.isnan(_SM["log_softmax_row3_y"]))


# --- the other NaN / division-by-zero items of issue 18 (values measured with MindSpore 2.10, CPU) --------------
def test_relu_argmax_max_with_nan_as_2_10():
    nan = np.nan
    np.testing.assert_array_equal(ops.relu(Tensor(np.array([nan, -1, 0, 2], np.float32))).asnumpy(), [0, 0, 0, 2])
    v = Tensor(np.array([1, nan, 3, 2], np.float32))
    assert int(ops.argmax(v).asnumpy()) == 2
    y, i = ops.max(v)
    assert float(y.asnumpy()) == 3 and int(i.asnumpy()) == 0
    np.testing.assert_array_equal(ops.argmax(Tensor(np.array([[1, nan, 3], [2, 1, 0]], np.float32)), 1).asnumpy(), [2, 0])
    assert int(ops.argmax(Tensor(np.array([1, 2, nan] + [0] * 20, np.float32))).asnumpy()) == 1


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_division_by_zero_as_2_10(dtype):
    info = np.iinfo(dtype)
    a, z = Tensor(np.array([7, -7, 0, 5], dtype)), Tensor(np.array([0, 0, 0, 2], dtype))
    np.testing.assert_array_equal((a // z).asnumpy(), [info.max, info.min, 0, 2])
    np.testing.assert_array_equal(ops.floor_mod(a, z).asnumpy(), [info.min, info.min, info.min, 1])
    np.testing.assert_array_equal(ops.truncate_div(a, z).asnumpy(), [info.max, info.min, 0, 2])
    np.testing.assert_array_equal(ops.truncate_mod(a, z).asnumpy(), [0, 0, 0, 1])
    u, uz = Tensor(np.array([7, 0, 5], np.uint8)), Tensor(np.array([0, 0, 2], np.uint8))
    np.testing.assert_array_equal((u // uz).asnumpy(), [255, 0, 2])
    np.testing.assert_array_equal(ops.floor_mod(u, uz).asnumpy(), [0, 0, 1])
