"""Calls of MindSpore 2.10's sparse operators, shared by the fixture recorder
(``tests/fixtures/ops/make_sparse_ops_fixture.py``, run with real MindSpore 2.10) and ``test_sparse_ops.py``.

Each case is ``name -> fn(ms)`` returning a Tensor, a COOTensor, a CSRTensor, a tuple of Tensors or a Python
value; a case may also raise (the error type and message are recorded). Inputs are built inside each case:
2.10's ``csr_softmax`` writes its result into its input's values. Only calls 2.10's CPU build can run are here;
those it refuses (AKG or GPU-only kernels) are checked against NumPy oracles in ``test_sparse_ops.py``.
"""
import numpy as np

UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
         "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round", "sigmoid", "sin",
         "sinh", "softsign", "sqrt", "square", "tan", "tanh")


def coo(ms, vals=(-1.5, 0.25, 2.0), dtype=None, idx_dtype=None):
    idx_dtype = idx_dtype or ms.int32
    return ms.COOTensor(ms.Tensor([[0, 1], [1, 2], [2, 0]], idx_dtype), ms.Tensor(list(vals), dtype or ms.float32),
                        (3, 4))


def csr(ms, vals=(-1.5, 0.25, 2.0), dtype=None, idx_dtype=None):
    idx_dtype = idx_dtype or ms.int32
    return ms.CSRTensor(ms.Tensor([0, 1, 1, 3], idx_dtype), ms.Tensor([1, 0, 3], idx_dtype),
                        ms.Tensor(list(vals), dtype or ms.float32), (3, 4))


def _f32(ms, a):
    return ms.Tensor(np.asarray(a, np.float32))


def _i64(ms, a):
    return ms.Tensor(np.asarray(a, np.int64))


def _unary_cases():
    out = {}
    for name in UNARY:
        vals = (0.5, 0.25, 0.75) if name in ("acos", "asin", "atanh") else \
            (1.5, 1.25, 2.0) if name == "acosh" else (-1.5, 0.25, 2.0)
        out[f"coo_{name}"] = lambda ms, n=name, v=vals: getattr(ms.ops, f"coo_{n}")(coo(ms, v))
        out[f"csr_{name}"] = lambda ms, n=name, v=vals: getattr(ms.ops, f"csr_{n}")(csr(ms, v))
    return out


CASES = dict(_unary_cases())
CASES.update({
    "coo_abs_not_coo": lambda ms: ms.ops.coo_abs(ms.Tensor([1.0])),
    "csr_abs_not_csr": lambda ms: ms.ops.csr_abs(coo(ms)),
    "csr_add": lambda ms: ms.ops.csr_add(csr(ms), ms.CSRTensor(ms.Tensor([0, 2, 2, 3], ms.int32),
                                                               ms.Tensor([1, 2, 3], ms.int32),
                                                               ms.Tensor([1.0, 5.0, 4.0]), (3, 4)),
                                         ms.Tensor(2.0, ms.float32), ms.Tensor(-1.0, ms.float32)),
    "csr_add_not_csr": lambda ms: ms.ops.csr_add(csr(ms), coo(ms), ms.Tensor(1.0), ms.Tensor(1.0)),
    "csr_add_float_alpha": lambda ms: ms.ops.csr_add(csr(ms), csr(ms), 1.0, ms.Tensor(1.0)),
    "csr_softmax": lambda ms: ms.ops.csr_softmax(csr(ms, (1.0, 2.0, -1.0)), ms.float32),
    "csr_softmax_rows": lambda ms: ms.ops.csr_softmax(
        ms.CSRTensor(ms.Tensor([0, 3, 3, 5], ms.int32), ms.Tensor([0, 2, 3, 1, 3], ms.int32),
                     ms.Tensor([1.0, 2.0, 3.0, 0.5, -0.5]), (3, 4)), ms.float32),
    "csr_to_coo": lambda ms: ms.ops.csr_to_coo(csr(ms)),
    "csr_to_coo_not_csr": lambda ms: ms.ops.csr_to_coo(coo(ms)),
    "csr_to_dense": lambda ms: ms.ops.csr_to_dense(csr(ms)),
    "csr_mm_dense_operand": lambda ms: ms.ops.csr_mm(csr(ms), _f32(ms, np.ones((4, 2)))),
    "csr_mv_1d": lambda ms: ms.ops.csr_mv(csr(ms), _f32(ms, np.ones(4))),
    "csr_reduce_sum_axis0": lambda ms: ms.ops.csr_reduce_sum(csr(ms), 0),
    "coo_add_int32_indices": lambda ms: ms.ops.coo_add(coo(ms), coo(ms), ms.Tensor(0.0)),
    "coo_add": lambda ms: ms.ops.coo_add(
        coo(ms, idx_dtype=ms.int64),
        ms.COOTensor(_i64(ms, [[0, 1], [0, 3], [2, 0]]), _f32(ms, [1.5, 4.0, 0.5]), (3, 4)), ms.Tensor(0.0)),
    "coo_add_thresh": lambda ms: ms.ops.coo_add(
        coo(ms, idx_dtype=ms.int64),
        ms.COOTensor(_i64(ms, [[0, 1], [0, 3], [2, 0]]), _f32(ms, [1.5, 4.0, 0.5]), (3, 4)), ms.Tensor(1.0)),
    "coo_concat0": lambda ms: ms.ops.coo_concat((coo(ms, idx_dtype=ms.int64),
                                                 ms.COOTensor(_i64(ms, [[0, 0], [1, 3]]), _f32(ms, [7.0, 8.0]),
                                                              (2, 4))), 0),
    "coo_concat1": lambda ms: ms.ops.coo_concat((coo(ms, idx_dtype=ms.int64),
                                                 ms.COOTensor(_i64(ms, [[0, 0], [2, 1]]), _f32(ms, [7.0, 8.0]),
                                                              (3, 2))), 1),
    "coo_concat_int32": lambda ms: ms.ops.coo_concat((coo(ms), coo(ms)), 0),
    "coo_concat_one": lambda ms: ms.ops.coo_concat((coo(ms, idx_dtype=ms.int64),), 0),
    "coo_get_indices": lambda ms: ms.ops.coo_tensor_get_indices(coo(ms)),
    "coo_get_values": lambda ms: ms.ops.coo_tensor_get_values(coo(ms)),
    "coo_get_dense_shape": lambda ms: ms.ops.coo_tensor_get_dense_shape(coo(ms)),
    "csr_get_indptr": lambda ms: ms.ops.csr_tensor_get_indptr(csr(ms)),
    "csr_get_indices": lambda ms: ms.ops.csr_tensor_get_indices(csr(ms)),
    "csr_get_values": lambda ms: ms.ops.csr_tensor_get_values(csr(ms)),
    "csr_get_dense_shape": lambda ms: ms.ops.csr_tensor_get_dense_shape(csr(ms)),
    "dense_to_sparse_coo": lambda ms: ms.ops.dense_to_sparse_coo(_f32(ms, [[0, 1, 0], [2, 0, 3]])),
    "dense_to_sparse_csr": lambda ms: ms.ops.dense_to_sparse_csr(_f32(ms, [[0, 1, 0], [2, 0, 3], [0, 0, 0]])),
    "dense_to_sparse_coo_3d": lambda ms: ms.ops.dense_to_sparse_coo(_f32(ms, np.ones((2, 2, 2)))),
    "dense_to_sparse_coo_list": lambda ms: ms.ops.dense_to_sparse_coo([[1.0]]),
    "tensor_to_coo": lambda ms: _f32(ms, [[0, 1.5], [-2, 0]]).to_coo(),
    "tensor_to_csr": lambda ms: _f32(ms, [[0, 1.5], [-2, 0]]).to_csr(),
    "coalesce": lambda ms: ms.ops.coalesce(_i64(ms, [[2, 0, 0, 1], [0, 1, 1, 2]]), _f32(ms, [7, 1, 5, 4]),
                                           _i64(ms, [3, 3])),
    "coalesce_f16": lambda ms: ms.ops.coalesce(_i64(ms, [[0, 0, 1], [1, 1, 2]]), ms.Tensor([1, 5, 4], ms.float16),
                                               _i64(ms, [3, 3])),
    "coalesce_int32": lambda ms: ms.ops.coalesce(ms.Tensor([[0, 0, 1], [1, 1, 2]], ms.int32), _f32(ms, [1, 5, 4]),
                                                 _i64(ms, [3, 3])),
    "coalesce_oob": lambda ms: ms.ops.coalesce(_i64(ms, [[0, 0, 1], [1, 1, 5]]), _f32(ms, [1, 5, 4]),
                                               _i64(ms, [3, 3])),
    "coalesce_negative": lambda ms: ms.ops.coalesce(_i64(ms, [[0, 0, -1], [1, 1, 2]]), _f32(ms, [1, 5, 4]),
                                                    _i64(ms, [3, 3])),
    "coalesce_int_values": lambda ms: ms.ops.coalesce(_i64(ms, [[0], [1]]), ms.Tensor([1], ms.int32),
                                                      _i64(ms, [3, 3])),
    "sparse_segment_mean": lambda ms: ms.ops.sparse_segment_mean(_f32(ms, np.arange(12).reshape(4, 3)),
                                                                 ms.Tensor([0, 1, 2], ms.int32),
                                                                 ms.Tensor([0, 0, 1], ms.int32)),
    "sparse_segment_mean_gap": lambda ms: ms.ops.sparse_segment_mean(
        ms.Tensor(np.arange(12).reshape(4, 3).astype(np.float64)), _i64(ms, [0, 1, 3]), _i64(ms, [0, 2, 2])),
    "sparse_segment_mean_int": lambda ms: ms.ops.sparse_segment_mean(ms.Tensor(np.arange(12).reshape(4, 3),
                                                                               ms.int32),
                                                                     ms.Tensor([0, 1], ms.int32),
                                                                     ms.Tensor([0, 0], ms.int32)),
    "sparse_segment_mean_oob": lambda ms: ms.ops.sparse_segment_mean(_f32(ms, np.ones((4, 3))),
                                                                     ms.Tensor([0, 9], ms.int32),
                                                                     ms.Tensor([0, 0], ms.int32)),
    "sparse_segment_mean_unsorted": lambda ms: ms.ops.sparse_segment_mean(_f32(ms, np.ones((4, 3))),
                                                                          ms.Tensor([0, 1, 2], ms.int32),
                                                                          ms.Tensor([1, 0, 1], ms.int32)),
    # COOTensor/CSRTensor methods and operators
    "method_coo_add_thresh": lambda ms: coo(ms, idx_dtype=ms.int64).add(
        ms.COOTensor(_i64(ms, [[0, 1], [0, 3]]), _f32(ms, [1.5, 0.5]), (3, 4)), ms.Tensor(1.0)),
    "method_coo_plus_coo": lambda ms: coo(ms, idx_dtype=ms.int64) + coo(ms, idx_dtype=ms.int64),
    "method_coo_minus_coo": lambda ms: coo(ms, idx_dtype=ms.int64) - coo(ms, idx_dtype=ms.int64),
    "method_coo_times_dense": lambda ms: coo(ms) * _f32(ms, np.arange(12).reshape(3, 4)),
    "method_coo_div_dense": lambda ms: coo(ms) / _f32(ms, np.arange(1, 13).reshape(3, 4)),
    "method_coo_plus_dense": lambda ms: coo(ms) + _f32(ms, np.ones((3, 4))),
    "method_coo_minus_dense": lambda ms: coo(ms) - _f32(ms, np.ones((3, 4))),
    "method_coo_neg": lambda ms: -coo(ms),
    "method_coo_abs": lambda ms: coo(ms).abs(),
    "method_coo_astype": lambda ms: coo(ms).astype(ms.float64),
    "method_coo_coalesce": lambda ms: ms.COOTensor(_i64(ms, [[1, 1], [0, 1], [1, 1]]), _f32(ms, [1, 2, 3]),
                                                   (2, 2)).coalesce(),
    "method_csr_plus_csr": lambda ms: csr(ms) + csr(ms),
    "method_csr_minus_csr": lambda ms: csr(ms) - csr(ms),
    "method_csr_add": lambda ms: csr(ms).add(csr(ms), ms.Tensor(1.0), ms.Tensor(2.0)),
    "method_csr_neg": lambda ms: -csr(ms),
    "method_csr_abs": lambda ms: csr(ms).abs(),
    "method_csr_astype": lambda ms: csr(ms).astype(ms.float64),
    "method_csr_to_dense": lambda ms: csr(ms).to_dense(),
    # primitives
    "SparseToDense": lambda ms: ms.ops.SparseToDense()(_i64(ms, [[0, 1], [1, 2]]), _f32(ms, [1, 2]), (3, 4)),
    "SparseToDense_int32_dup": lambda ms: ms.ops.SparseToDense()(ms.Tensor([[0, 1], [0, 1], [2, 3]], ms.int32),
                                                                 ms.Tensor([1, 2, 3], ms.int32), (3, 4)),
    "SparseToDense_int16": lambda ms: ms.ops.SparseToDense()(ms.Tensor([[0, 1]], ms.int16), _f32(ms, [1]), (3, 4)),
    "SparseToDense_oob": lambda ms: ms.ops.SparseToDense()(ms.Tensor([[0, 1], [5, 2]], ms.int32), _f32(ms, [1, 2]),
                                                           (3, 4)),
    "SparseTensorDenseMatmul": lambda ms: ms.ops.SparseTensorDenseMatmul()(
        _i64(ms, [[0, 1], [1, 2], [0, 3]]), _f32(ms, [1, 2, -1]), (3, 4), _f32(ms, np.arange(8).reshape(4, 2))),
    "SparseTensorDenseMatmul_adj_st": lambda ms: ms.ops.SparseTensorDenseMatmul(True, False)(
        _i64(ms, [[0, 1], [1, 2]]), _f32(ms, [1, 2]), (4, 3), _f32(ms, np.arange(8).reshape(4, 2))),
    "SparseTensorDenseMatmul_adj_dt": lambda ms: ms.ops.SparseTensorDenseMatmul(False, True)(
        ms.Tensor([[0, 1], [1, 2]], ms.int32), _f32(ms, [1, 2]), (3, 4), _f32(ms, np.arange(8).reshape(2, 4))),
    "SparseTensorDenseMatmul_int": lambda ms: ms.ops.SparseTensorDenseMatmul()(
        _i64(ms, [[0, 1], [1, 2]]), ms.Tensor([1, 2], ms.int32), (3, 4), ms.Tensor(np.ones((4, 2)), ms.int32)),
    "SparseTensorDenseMatmul_f64": lambda ms: ms.ops.SparseTensorDenseMatmul()(
        _i64(ms, [[0, 1], [1, 2]]), ms.Tensor([1, 2], ms.float64), (3, 4), ms.Tensor(np.ones((4, 2)), ms.float64)),
    "SparseTensorDenseMatmul_mixed": lambda ms: ms.ops.SparseTensorDenseMatmul()(
        _i64(ms, [[0, 1], [1, 2]]), ms.Tensor([1, 2], ms.float64), (3, 4), _f32(ms, np.ones((4, 2)))),
    "SparseTensorDenseMatmul_oob": lambda ms: ms.ops.SparseTensorDenseMatmul()(
        _i64(ms, [[0, 1], [1, 7]]), _f32(ms, [1, 2]), (3, 4), _f32(ms, np.ones((4, 2)))),
    "SparseTensorDenseAdd": lambda ms: ms.ops.SparseTensorDenseAdd()(
        _i64(ms, [[0, 1], [1, 2], [0, 1]]), _f32(ms, [1, 2, 3]), _i64(ms, [3, 4]), _f32(ms, np.ones((3, 4)))),
    "SparseTensorDenseAdd_int32": lambda ms: ms.ops.SparseTensorDenseAdd()(
        ms.Tensor([[0, 1]], ms.int32), _f32(ms, [1]), ms.Tensor([3, 4], ms.int32), _f32(ms, np.ones((3, 4)))),
    "SparseTensorDenseAdd_shape": lambda ms: ms.ops.SparseTensorDenseAdd()(
        _i64(ms, [[0, 1]]), _f32(ms, [1]), _i64(ms, [3, 4]), _f32(ms, np.ones((3, 5)))),
    "SparseTensorDenseAdd_oob": lambda ms: ms.ops.SparseTensorDenseAdd()(
        _i64(ms, [[0, 1], [1, 9]]), _f32(ms, [1, 2]), _i64(ms, [3, 4]), _f32(ms, np.ones((3, 4)))),
    "SparseSlice": lambda ms: ms.ops.SparseSlice()(
        _i64(ms, [[0, 1], [1, 2], [1, 3], [2, 2]]), _f32(ms, [1, 2, 3, 4]), _i64(ms, [3, 4]), _i64(ms, [1, 1]),
        _i64(ms, [2, 3])),
    "SparseSlice_clipped": lambda ms: ms.ops.SparseSlice()(
        _i64(ms, [[0, 1], [1, 2], [1, 3], [2, 2]]), _f32(ms, [1, 2, 3, 4]), _i64(ms, [3, 4]), _i64(ms, [1, 2]),
        _i64(ms, [5, 5])),
    "Coalesce": lambda ms: ms.ops.Coalesce()(_i64(ms, [[0, 0, 1], [1, 1, 2]]), ms.Tensor([1, 5, 4], ms.float64),
                                             _i64(ms, [3, 3])),
})
