"""Cases for the reduce family: Reduce*, Arg*, *WithValue, Median, Cummax/Cummin, LpNorm, L2Loss, ReduceStd
and the functional reductions built on them.

Oracles are plain NumPy. Gradient cases use data with unique extrema (random floats), where max/min
and their indices are differentiable.
"""
import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint, randpos


def _first_index(fn, x, axis):
    """Index of the first extremum along ``axis`` (NumPy's argmax/argmin rule)."""
    return fn(x, axis=axis).astype(np.int32)


def _cum(fn, x, axis):
    """Running extremum and the latest index reaching it (torch/MindSpore tie rule)."""
    x = np.moveaxis(x, axis, 0)
    vals = fn.accumulate(x, axis=0)
    idx = np.zeros(x.shape, np.int64)
    for j in range(x.shape[0]):
        hits = x[:j + 1] == vals[j]
        idx[j] = j - np.argmax(hits[::-1], axis=0)
    return np.moveaxis(vals, 0, axis), np.moveaxis(idx, 0, axis)


def _median(x, axis, keepdims):
    k = (x.shape[axis] - 1) // 2
    srt = np.sort(x, axis=axis)
    vals = np.take(srt, [k], axis=axis)
    idx = np.argmax(x == vals, axis=axis)  # unique data: the position of that value
    idx = np.expand_dims(idx, axis)
    if not keepdims:
        vals, idx = np.squeeze(vals, axis), np.squeeze(idx, axis)
    return vals, idx.astype(np.int64)


def _lp(x, p, axis, keepdims=False):
    return np.sum(np.abs(x) ** p, axis=axis, keepdims=keepdims) ** (1.0 / p)


X234 = rand(2, 3, 4)
WITH_ZERO = np.array([[1.5, 0.0, -2.0], [0.5, 1.25, -0.75], [0.0, 2.0, 0.0]])

CASES = [
    # --- ReduceSum ------------------------------------------------------------------------
    Case("reduce_sum_axis1", lambda x: ops.ReduceSum()(x, 1), [X234], oracle=lambda x: x.sum(1),
         prims=["ReduceSum"], grad=True, dtypes=(np.float32, np.float64)),
    Case("reduce_sum_keep_multi", lambda x: ops.ReduceSum(keep_dims=True)(x, (0, 2)), [X234],
         oracle=lambda x: x.sum((0, 2), keepdims=True), prims=["ReduceSum"], grad=True),
    Case("reduce_sum_neg_axis", lambda x: ops.ReduceSum()(x, -1), [X234], oracle=lambda x: x.sum(-1),
         prims=["ReduceSum"], grad=True),
    Case("reduce_sum_all", lambda x: ops.ReduceSum()(x), [X234], oracle=lambda x: np.asarray(x.sum()),
         prims=["ReduceSum"], grad=True),
    # the primitive keeps bool (any element true), as MindSpore's ReduceSum; ops.sum widens to int64
    Case("reduce_sum_bool", lambda x: (ops.ReduceSum()(x, 0), ops.reduce_sum(x, 1), ops.sum(x, 0)),
         [np.array([[True, False], [False, False]])],
         oracle=lambda x: (x.any(0), x.any(1), x.sum(0).astype(np.int64)), prims=["ReduceSum"], out_dtype=ms.bool_),
    Case("sum_dim_dtype", lambda x: ops.sum(x, dim=1, keepdim=True, dtype=ms.float64), [X234],
         oracle=lambda x: x.astype(np.float64).sum(1, keepdims=True), prims=["ReduceSum"], out_dtype=ms.float64),
    # ops.sum / ops.prod / Tensor.sum / Tensor.prod accumulate integers in int64 (a uint8 image's true total),
    # the ReduceSum / ReduceProd primitives and ops.reduce_sum keep the dtype, as in MindSpore
    Case("sum_int", lambda x: ops.sum(x), [randint(3, 4)], oracle=lambda x: np.asarray(x.sum(), np.int64),
         prims=["ReduceSum"], out_dtype=ms.int64),
    Case("sum_uint8_image", lambda x: (ops.sum(x), x.sum(), ops.reduce_sum(x), ops.ReduceSum()(x, ())),
         [np.full((4, 4, 3), 200, np.uint8)],
         oracle=lambda x: (np.int64(9600), np.int64(9600), np.uint8(9600 % 256), np.uint8(9600 % 256)),
         prims=["ReduceSum"], out_dtype=ms.int64),
    Case("reduce_sum_skip_mode", lambda x: ops.ReduceSum(skip_mode=True)(x), [X234], oracle=lambda x: x.copy(),
         prims=["ReduceSum"], grad=True),
    Case("reduce_sum_tensor_axis", lambda x: ops.ReduceSum()(x, ms.Tensor([0, 2])), [X234],
         oracle=lambda x: x.sum((0, 2)), prims=["ReduceSum"]),
    Case("reduce_sum_functional", lambda x: ops.reduce_sum(x, (1,), keep_dims=True), [X234],
         oracle=lambda x: x.sum(1, keepdims=True), prims=["ReduceSum"]),
    # --- ReduceMean -----------------------------------------------------------------------
    Case("reduce_mean_keep", lambda x: ops.ReduceMean(keep_dims=True)(x, (1, 2)), [X234],
         oracle=lambda x: x.mean((1, 2), keepdims=True), prims=["ReduceMean"], grad=True),
    Case("reduce_mean_neg_axis", lambda x: ops.ReduceMean()(x, -2), [X234], oracle=lambda x: x.mean(-2),
         prims=["ReduceMean"], grad=True, dtypes=(np.float16, np.float32)),
    Case("mean_all", lambda x: ops.mean(x), [X234], oracle=lambda x: np.asarray(x.mean()), prims=["ReduceMean"],
         grad=True),
    Case("reduce_mean_functional", lambda x: ops.reduce_mean(x, 0), [X234], oracle=lambda x: x.mean(0),
         prims=["ReduceMean"]),
    # --- ReduceMax / ReduceMin ------------------------------------------------------------
    Case("reduce_max_axis", lambda x: ops.ReduceMax()(x, 1), [X234], oracle=lambda x: x.max(1),
         prims=["ReduceMax"], grad=True),
    Case("reduce_max_keep_multi", lambda x: ops.ReduceMax(keep_dims=True)(x, (0, -1)), [X234],
         oracle=lambda x: x.max((0, 2), keepdims=True), prims=["ReduceMax"], grad=True),
    Case("reduce_max_int", lambda x: ops.ReduceMax()(x, 0), [randint(4, 3)], oracle=lambda x: x.max(0),
         prims=["ReduceMax"], out_dtype=ms.int32),
    Case("reduce_min_all", lambda x: ops.ReduceMin()(x), [X234], oracle=lambda x: np.asarray(x.min()),
         prims=["ReduceMin"], grad=True),
    Case("reduce_min_neg_axis_keep", lambda x: ops.ReduceMin(keep_dims=True)(x, -1), [X234],
         oracle=lambda x: x.min(-1, keepdims=True), prims=["ReduceMin"], grad=True),
    Case("amax", lambda x: ops.amax(x, (0, 1)), [X234], oracle=lambda x: x.max((0, 1)), prims=["ReduceMax"],
         grad=True),
    Case("amin_keep", lambda x: ops.amin(x, 2, keepdims=True), [X234], oracle=lambda x: x.min(2, keepdims=True),
         prims=["ReduceMin"], grad=True),
    Case("reduce_max_min_functional", lambda x: (ops.reduce_max(x, 1), ops.reduce_min(x, (0, 2), True)), [X234],
         oracle=lambda x: (x.max(1), x.min((0, 2), keepdims=True)), prims=["ReduceMax", "ReduceMin"]),
    Case("aminmax", lambda x: ops.aminmax(x, axis=1), [X234], oracle=lambda x: (x.min(1), x.max(1)),
         prims=["ReduceMin", "ReduceMax"]),
    # --- ReduceProd -----------------------------------------------------------------------
    Case("reduce_prod_axis", lambda x: ops.ReduceProd()(x, 1), [randpos(3, 4)], oracle=lambda x: x.prod(1),
         prims=["ReduceProd"], grad=True),
    Case("reduce_prod_keep_neg", lambda x: ops.ReduceProd(keep_dims=True)(x, (-1, 0)), [X234],
         oracle=lambda x: x.prod((0, 2), keepdims=True), prims=["ReduceProd"], grad=True),
    Case("reduce_prod_zeros", lambda x: ops.ReduceProd()(x, 1), [WITH_ZERO], oracle=lambda x: x.prod(1),
         prims=["ReduceProd"], grad=True),
    Case("prod_all_zeros", lambda x: ops.prod(x), [WITH_ZERO], oracle=lambda x: np.asarray(x.prod()),
         prims=["ReduceProd"], grad=True),
    Case("prod_int", lambda x: (ops.prod(x, 0), x.prod(), ops.ReduceProd()(x, 0)), [randint(3, 2, low=1, high=4)],
         oracle=lambda x: (x.prod(0), x.prod(), x.prod(0)), prims=["ReduceProd"], out_dtype=ms.int64),
    # --- ReduceAll / ReduceAny ------------------------------------------------------------
    Case("reduce_all", lambda x: ops.ReduceAll()(x, 1), [np.array([[True, True], [True, False]])],
         oracle=lambda x: x.all(1), prims=["ReduceAll"], out_dtype=ms.bool_),
    Case("reduce_any_keep", lambda x: ops.ReduceAny(keep_dims=True)(x, ()), [np.array([[False, False], [True, False]])],
         oracle=lambda x: x.any(keepdims=True), prims=["ReduceAny"], out_dtype=ms.bool_),
    Case("all_any_numbers", lambda x: (ops.all(x), ops.any(x, 0)), [randint(3, 4, low=0, high=2)],
         oracle=lambda x: (np.asarray(x.all()), x.any(0)), prims=["ReduceAll", "ReduceAny"]),
    # --- Argmax / Argmin ------------------------------------------------------------------
    Case("argmax_prim", lambda x: ops.Argmax()(x), [X234], oracle=lambda x: _first_index(np.argmax, x, -1),
         prims=["Argmax"], out_dtype=ms.int32),
    Case("argmax_prim_axis0_int64", lambda x: ops.Argmax(axis=0, output_type=ms.int64)(x), [randint(5, 3)],
         oracle=lambda x: np.argmax(x, 0), prims=["Argmax"], out_dtype=ms.int64),
    Case("argmin_prim", lambda x: ops.Argmin(axis=1)(x), [X234], oracle=lambda x: _first_index(np.argmin, x, 1),
         prims=["Argmin"], out_dtype=ms.int32),
    Case("argmax_flat", lambda x: ops.argmax(x), [X234], oracle=lambda x: np.asarray(np.argmax(x)),
         prims=["Argmax"], out_dtype=ms.int64),
    Case("argmax_dim_keep", lambda x: ops.argmax(x, dim=1, keepdim=True), [X234],
         oracle=lambda x: np.argmax(x, 1)[:, None, :], prims=["Argmax"], out_dtype=ms.int64),
    Case("argmin_axis", lambda x: ops.argmin(x, axis=-1), [X234], oracle=lambda x: np.argmin(x, -1).astype(np.int32),
         prims=["Argmin"]),
    # --- ArgMaxWithValue / ArgMinWithValue ------------------------------------------------
    Case("argmax_with_value", lambda x: ops.ArgMaxWithValue(axis=1)(x), [X234],
         oracle=lambda x: (_first_index(np.argmax, x, 1), x.max(1)), prims=["ArgMaxWithValue"], grad=True,
         out_dtype=ms.int64),
    Case("argmax_with_value_keep_neg", lambda x: ops.ArgMaxWithValue(axis=-1, keep_dims=True)(x), [X234],
         oracle=lambda x: (np.argmax(x, -1)[..., None].astype(np.int32), x.max(-1, keepdims=True)),
         prims=["ArgMaxWithValue"], grad=True),
    Case("argmin_with_value", lambda x: ops.ArgMinWithValue()(x), [X234],
         oracle=lambda x: (_first_index(np.argmin, x, 0), x.min(0)), prims=["ArgMinWithValue"], grad=True),
    # NaN as MindSpore's kernels treat it: the in-order scan keeps the first element and replaces it only by a
    # strictly greater (smaller) value, so a leading NaN wins, later NaNs are skipped, all-NaN gives NaN at 0
    Case("max_min_argmax_with_nan", lambda x: (ops.max(x, 1), ops.min(x, 1), ops.argmax(x, 1), ops.argmin(x, 1),
                                               ops.ReduceMax()(x, 1), ops.ReduceMin()(x, (0, 1))),
         [np.array([[np.nan, 1.0, 3.0], [1.0, np.nan, 3.0], [1.0, 3.0, np.nan], [np.nan] * 3, [2.0, -1.0, 2.0]])],
         oracle=lambda x: ((np.array([np.nan, 3, 3, np.nan, 2]), np.array([0, 2, 1, 0, 0])),
                           (np.array([np.nan, 1, 1, np.nan, -1]), np.array([0, 0, 0, 0, 1])),
                           np.array([0, 2, 1, 0, 0]), np.array([0, 0, 0, 0, 1]),
                           np.array([np.nan, 3, 3, np.nan, 2]), np.array(np.nan)),
         prims=["ArgMaxWithValue", "ArgMinWithValue", "Argmax", "Argmin", "ReduceMax", "ReduceMin"],
         dtypes=(np.float32, np.float64)),
    Case("max_axis", lambda x: ops.max(x, 2), [X234], oracle=lambda x: (x.max(2), np.argmax(x, 2).astype(np.int32)),
         prims=["ArgMaxWithValue"], grad=True),
    Case("min_axis_keep", lambda x: ops.min(x, 0, keepdims=True), [X234],
         oracle=lambda x: (x.min(0, keepdims=True), np.argmin(x, 0)[None].astype(np.int32)),
         prims=["ArgMinWithValue"], grad=True),
    Case("max_no_axis", lambda x: ops.max(x), [X234], oracle=lambda x: (np.asarray(x.max()), np.asarray(0)),
         prims=["ReduceMax"], grad=True),
    Case("max_initial", lambda x: ops.max(x, 1, initial=0.25)[0], [X234],
         oracle=lambda x: np.maximum(x, 0.25).max(1), prims=["ArgMaxWithValue"]),
    # --- Median ---------------------------------------------------------------------------
    Case("median_axis", lambda x: ops.median(x, 1), [rand(3, 5)], oracle=lambda x: _median(x, 1, False),
         prims=["Median"], grad=True),
    Case("median_even_keep", lambda x: ops.median(x, -1, keepdims=True), [X234],
         oracle=lambda x: _median(x, 2, True), prims=["Median"], grad=True),
    Case("median_global", lambda x: ops.Median(global_median=True)(x)[0], [rand(3, 3)],
         oracle=lambda x: np.asarray(np.sort(x.reshape(-1))[4]), prims=["Median"], grad=True),
    # --- Cummax / Cummin ------------------------------------------------------------------
    Case("cummax", lambda x: ops.cummax(x, 1), [X234], oracle=lambda x: _cum(np.maximum, x, 1),
         prims=["Cummax"], grad=True),
    Case("cummin_neg_axis", lambda x: ops.Cummin(-1)(x), [X234], oracle=lambda x: _cum(np.minimum, x, 2),
         prims=["Cummin"], grad=True),
    # MindSpore 2.10: Cummin's indices are Int32 (Cummax's Int64)
    Case("cummin_indices_int32", lambda x: ops.cummin(x, 1)[1], [X234],
         oracle=lambda x: _cum(np.minimum, x, 1)[1].astype(np.int32), prims=["Cummin"], out_dtype=ms.int32),
    Case("cummax_ties", lambda x: ops.cummax(x, 0), [np.array([1.0, 3.0, 2.0, 3.0, 5.0, 5.0])],
         oracle=lambda x: (np.array([1, 3, 3, 3, 5, 5.0]), np.array([0, 1, 1, 3, 4, 5])), prims=["Cummax"]),
    # --- LpNorm / norm --------------------------------------------------------------------
    Case("lp_norm_p2", lambda x: ops.LpNorm(axis=1)(x), [X234], oracle=lambda x: _lp(x, 2, 1), prims=["LpNorm"],
         grad=True),
    Case("lp_norm_p1_keep", lambda x: ops.LpNorm(axis=(0, 2), p=1, keep_dims=True)(x), [X234],
         oracle=lambda x: _lp(x, 1, (0, 2), True), prims=["LpNorm"], grad=True),
    Case("lp_norm_p3_neg", lambda x: ops.LpNorm(axis=-1, p=3)(x), [X234], oracle=lambda x: _lp(x, 3, -1),
         prims=["LpNorm"], grad=True),
    Case("norm_default", lambda x: ops.norm(x), [X234], oracle=lambda x: np.asarray(np.sqrt((x * x).sum())),
         prims=["LpNorm"], grad=True),
    Case("norm_vector_inf", lambda x: ops.norm(x, float("inf"), dim=1), [X234], oracle=lambda x: np.abs(x).max(1),
         prims=["ReduceMax"], grad=True),
    Case("norm_vector_frac", lambda x: ops.norm(x, 1.5, dim=-1, keepdim=True), [randpos(3, 4)],
         oracle=lambda x: _lp(x, 1.5, -1, True), prims=["ReduceSum"], grad=True),
    Case("norm_matrix_1", lambda x: ops.norm(x, 1), [rand(3, 4)], oracle=lambda x: np.asarray(np.abs(x).sum(0).max()),
         prims=["ReduceMax", "ReduceSum"], grad=True),
    Case("norm_matrix_inf_fro", lambda x: (ops.norm(x, float("inf"), dim=(1, 2)), ops.norm(x, "fro", dim=(0, 1))),
         [X234], oracle=lambda x: (np.abs(x).sum(2).max(1), np.sqrt((x * x).sum((0, 1)))),
         prims=["ReduceMax", "LpNorm"], grad=True),
    # --- L2Loss ---------------------------------------------------------------------------
    Case("l2_loss", lambda x: ops.L2Loss()(x), [X234], oracle=lambda x: np.asarray((x * x).sum() / 2),
         prims=["L2Loss"], grad=True, dtypes=(np.float16, np.float32), rtol=1e-4),
    # --- ReduceStd / std / var ------------------------------------------------------------
    Case("reduce_std", lambda x: ops.ReduceStd(axis=1)(x), [X234], oracle=lambda x: (x.std(1, ddof=1), x.mean(1)),
         prims=["ReduceStd"], grad=True),
    Case("reduce_std_biased_keep_all", lambda x: ops.ReduceStd(unbiased=False, keep_dims=True)(x), [X234],
         oracle=lambda x: (x.std(keepdims=True), x.mean(keepdims=True)), prims=["ReduceStd"], grad=True),
    Case("std_ddof", lambda x: ops.std(x, axis=(0, 2), ddof=2), [X234], oracle=lambda x: x.std((0, 2), ddof=2),
         prims=["ReduceStd"], grad=True),
    Case("std_mean_keep", lambda x: ops.std_mean(x, -1, ddof=True, keepdims=True), [X234],
         oracle=lambda x: (x.std(-1, ddof=1, keepdims=True), x.mean(-1, keepdims=True)), prims=["ReduceStd"],
         grad=True),
    Case("var", lambda x: ops.var(x, 1, ddof=1), [X234], oracle=lambda x: x.var(1, ddof=1),
         prims=["ReduceMean", "ReduceSum"], grad=True),
    Case("var_mean_all", lambda x: ops.var_mean(x), [X234],
         oracle=lambda x: (np.asarray(x.var()), np.asarray(x.mean())),
         prims=["ReduceMean", "ReduceSum"], grad=True),
    # --- logsumexp / count_nonzero --------------------------------------------------------
    Case("logsumexp", lambda x: ops.logsumexp(x, 1), [X234 * 5],
         oracle=lambda x: np.log(np.exp(x.astype(np.float64)).sum(1)), prims=["ReduceMax", "ReduceSum"], grad=True),
    Case("logsumexp_keep_multi", lambda x: ops.logsumexp(x, (0, 2), keepdim=True), [X234],
         oracle=lambda x: np.log(np.exp(x.astype(np.float64)).sum((0, 2), keepdims=True)),
         prims=["ReduceMax", "ReduceSum"], grad=True),
    Case("count_nonzero", lambda x: ops.count_nonzero(x, axis=1), [WITH_ZERO],
         oracle=lambda x: (x != 0).sum(1).astype(np.int32), prims=["ReduceSum"], out_dtype=ms.int32),
    Case("count_nonzero_all_keep", lambda x: ops.count_nonzero(x, keep_dims=True, dtype=ms.int64),
         [randint(3, 4, low=0, high=2)], oracle=lambda x: (x != 0).sum(keepdims=True).astype(np.int64),
         prims=["ReduceSum"], out_dtype=ms.int64),
]
