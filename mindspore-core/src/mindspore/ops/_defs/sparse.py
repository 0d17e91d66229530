"""Sparse-tensor primitives: a sparse operand is given by its parts (indices, values, dense shape).

* ``SparseToDense()(indices (N, R), values (N,), sparse_shape tuple)``: the dense tensor, zero elsewhere; an
  index given twice keeps its last value, as MindSpore 2.10's CPU kernel.
* ``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices (N, 2), values (N,), sparse_shape,
  dense)``: ``op(A) @ op(B)``, ``A`` the sparse (M, K) matrix, ``op`` transposing when the flag is set; dense.
* ``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: ``A + x2``, dense.
* ``SparseSlice()(indices, values, shape, start, size)``: the entries inside the box ``[start, start + size)``
  (clipped to ``shape``), indices made relative to ``start``: ``(y_indices, y_values, y_shape)``.
* ``SparseGatherV2()(params, indices, axis)``: ``Gather``'s forward (MindSpore gives its gradient in row-sparse
  form; here it is the dense scatter-add of ``Gather``).
* ``Coalesce()(x_indices (R, N), x_values (N,), x_shape (R,))``: duplicates merged (values summed), entries
  sorted by index: ``(y_indices (R, Z), y_values (Z,), y_shape)``.
* ``SparseSegmentMean()(x, indices, segment_ids)``: ``out[s] = mean(x[indices[i]] for i with segment_ids[i] == s)``
  over ``segment_ids[-1] + 1`` segments (ids sorted, empty segments zero).

Gradients flow to the values and the dense operands (never to indices or shapes); ``SparseSlice`` and
``Coalesce`` find each input entry's output position again in their bprops (the box test; a ``searchsorted``
of row-major positions in the sorted output). Sizes that depend on the data (the number of entries a slice or
a coalesce keeps, the segment count) are inferred as ``-1`` and known when the kernel runs. Index values are
checked by the kernels (``ValueError`` with MindSpore's messages); ``CSRTensor``/``COOTensor`` functions of
``ops`` are compositions over these and the general operators (see :mod:`mindspore.ops.function.sparse_func`).
Kernels live in the backends' ``kernels/sparse.py``.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.array import cached_prim, check_shape_arg
from mindspore.ops._defs.indexing import Gather, GatherNd, gather_grad
from mindspore._core.primitive import Primitive, prim_attr_register

_IDX = (mstype.int32, mstype.int64)
_I64 = (mstype.int64,)
_VALUES = (mstype.int8, mstype.int16, mstype.int32, mstype.int64, mstype.uint8, mstype.uint16, mstype.float16,
           mstype.float32, mstype.float64, mstype.bool_)
_MATMUL_VALUES = (mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64, mstype.complex64,
                  mstype.complex128)


def _check_nnz(op, indices, values, idx_name="indices", val_name="values", axis=0):
    rules.check_rank(op, val_name, values, 1)
    n, v = indices[axis], values[0]
    if -1 not in (n, v) and n != v:
        raise MSValueError(f"For '{op}', the number of '{idx_name}' ({n}) must equal the length of '{val_name}' "
                           f"({v}).")


# --- SparseToDense ----------------------------------------------------------------------------------------
class SparseToDense(Primitive):
    """``SparseToDense()(indices, values, sparse_shape)``: the dense tensor of ``sparse_shape``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, indices, values, sparse_shape):
        shape = check_shape_arg(self.name, "sparse_shape", sparse_shape)
        rules.check_rank(self.name, "indices", indices, 2)
        _check_nnz(self.name, indices, values)
        if indices[1] not in (-1, len(shape)):
            raise MSValueError(f"For '{self.name}', the 'indices' must have {len(shape)} columns (the rank of "
                               f"'sparse_shape' {shape}), but got shape {tuple(indices)}.")
        return shape

    def infer_dtype(self, indices, values, sparse_shape):
        rules.check_dtype_in(self.name, "indices", indices, _IDX)
        return rules.check_dtype_in(self.name, "values", values, _VALUES)

    def bprop(self, indices, values, sparse_shape, out, dout):
        return None, cached_prim(GatherNd)(dout, indices), None


# --- SparseTensorDenseMatmul ------------------------------------------------------------------------------
class SparseTensorDenseMatmul(Primitive):
    """``SparseTensorDenseMatmul(adjoint_st=False, adjoint_dt=False)(indices, values, sparse_shape, dense)``."""

    @prim_attr_register
    def __init__(self, adjoint_st=False, adjoint_dt=False):
        rules.check_bool(self.name, "adjoint_st", adjoint_st)
        rules.check_bool(self.name, "adjoint_dt", adjoint_dt)

    def infer_shape(self, indices, values, sparse_shape, dense):
        shape = check_shape_arg(self.name, "sparse_shape", sparse_shape)
        if len(shape) != 2:
            raise MSValueError(f"For '{self.name}', the 'sparse_shape' must have 2 elements, but got {shape}.")
        rules.check_rank(self.name, "indices", indices, 2)
        if indices[1] not in (-1, 2):
            raise MSValueError(f"For '{self.name}', the 'indices' must have shape (N, 2), but got {tuple(indices)}.")
        _check_nnz(self.name, indices, values)
        rules.check_rank(self.name, "dense", dense, 2)
        m, k = shape[::-1] if self.adjoint_st else shape
        k2, n = tuple(dense)[::-1] if self.adjoint_dt else tuple(dense)
        if -1 not in (k, k2) and k != k2:
            raise MSValueError(f"For '{self.name}', the sparse matrix's columns ({k}) must equal the dense matrix's "
                               f"rows ({k2}), but got sparse_shape {shape} and dense shape {tuple(dense)}.")
        return m, n

    def infer_dtype(self, indices, values, sparse_shape, dense):
        rules.check_dtype_in(self.name, "indices", indices, _IDX)
        rules.check_dtype_in(self.name, "values", values, _MATMUL_VALUES)
        if values != dense:
            raise MSTypeError(f"For '{self.name}', the 'values' and 'dense' must have the same dtype, but got "
                              f"{values} and {dense}.")
        return values

    def bprop(self, indices, values, sparse_shape, dense, out, dout):
        rows, cols = fops.gather(indices, 0, 1), fops.gather(indices, 1, 1)
        if self.adjoint_st:
            rows, cols = cols, rows
        b = fops.transpose(dense, (1, 0)) if self.adjoint_dt else dense        # op(B), (K, N)
        d_values = fops.reduce_sum(fops.mul(fops.gather(dout, rows, 0), fops.gather(b, cols, 0)), 1)
        d_b = cached_prim(SparseTensorDenseMatmul, not self.adjoint_st, False)(indices, values, sparse_shape, dout)
        d_dense = fops.transpose(d_b, (1, 0)) if self.adjoint_dt else d_b
        return None, d_values, None, d_dense


# --- SparseTensorDenseAdd ---------------------------------------------------------------------------------
class SparseTensorDenseAdd(Primitive):
    """``SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: the dense sum."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x1_indices, x1_values, x1_shape, x2):
        rules.check_rank(self.name, "x1_indices", x1_indices, 2)
        _check_nnz(self.name, x1_indices, x1_values, "x1_indices", "x1_values")
        rules.check_rank(self.name, "x1_shape", x1_shape, 1)
        for name, n in (("x1_indices", x1_indices[1]), ("x1_shape", x1_shape[0])):
            if -1 not in (n,) and n != len(x2):
                raise MSValueError(f"For '{self.name}', the rank of 'x2' ({len(x2)}) must equal the number of "
                                   f"columns of '{name}', but got {n}.")
        return tuple(x2)

    def infer_dtype(self, x1_indices, x1_values, x1_shape, x2):
        rules.check_dtype_in(self.name, "x1_indices", x1_indices, _IDX)
        rules.check_dtype_in(self.name, "x1_shape", x1_shape, _IDX)
        if x1_indices != x1_shape:
            raise MSTypeError(f"For '{self.name}', the 'x1_indices' and 'x1_shape' must have the same dtype, but got "
                              f"{x1_indices} and {x1_shape}.")
        rules.check_dtype_in(self.name, "x1_values", x1_values, _MATMUL_VALUES + (mstype.int8, mstype.int16))
        return rules.check_same_dtype(self.name, ("x1_values", "x2"), (x1_values, x2))

    def bprop(self, x1_indices, x1_values, x1_shape, x2, out, dout):
        return None, cached_prim(GatherNd)(dout, x1_indices), None, dout


# --- SparseSlice ------------------------------------------------------------------------------------------
class SparseSlice(Primitive):
    """``SparseSlice()(indices, values, shape, start, size)``: ``(y_indices, y_values, y_shape)``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, indices, values, shape, start, size):
        rules.check_rank(self.name, "indices", indices, 2)
        _check_nnz(self.name, indices, values)
        for name, s in (("shape", shape), ("start", start), ("size", size)):
            rules.check_rank(self.name, name, s, 1)
            if -1 not in (s[0], indices[1]) and s[0] != indices[1]:
                raise MSValueError(f"For '{self.name}', the length of '{name}' must be the rank {indices[1]}, but got "
                                   f"{s[0]}.")
        return (-1, indices[1]), (-1,), (indices[1],)

    def infer_dtype(self, indices, values, shape, start, size):
        for name, d in (("indices", indices), ("shape", shape), ("start", start), ("size", size)):
            rules.check_dtype_in(self.name, name, d, _I64)
        rules.check_dtype_in(self.name, "values", values, _VALUES)
        return mstype.int64, values, mstype.int64

    def bprop(self, indices, values, shape, start, size, out, dout):
        lo = fops.expand_dims(start, 0)
        hi = fops.expand_dims(fops.minimum(fops.add(start, size), shape), 0)
        inside = fops.logical_and(fops.ge(indices, lo), fops.less(indices, hi))
        kept = fops.nonzero(fops.all(inside, 1))                               # (K, 1) positions in values
        return None, fops.scatter_nd(kept, dout[1], values.shape), None, None, None


# --- SparseGatherV2 ---------------------------------------------------------------------------------------
class SparseGatherV2(Gather):
    """``SparseGatherV2()(params, indices, axis)``: ``Gather``'s forward."""

    @prim_attr_register
    def __init__(self):
        self.batch_dims = 0

    def bprop(self, params, indices, axis, out, dout):
        return gather_grad(dout, indices, params.shape, axis, 0), None, None


# --- Coalesce ---------------------------------------------------------------------------------------------
class Coalesce(Primitive):
    """``Coalesce()(x_indices, x_values, x_shape)``: ``(y_indices, y_values, y_shape)``, duplicates summed."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x_indices, x_values, x_shape):
        rules.check_rank(self.name, "x_indices", x_indices, 2)
        rules.check_rank(self.name, "x_shape", x_shape, 1)
        _check_nnz(self.name, x_indices, x_values, "x_indices", "x_values", axis=1)
        if -1 not in (x_indices[0], x_shape[0]) and x_indices[0] != x_shape[0]:
            raise MSValueError(f"For '{self.name}', sizes of first dimension of 'x_indices' and 'x_shape' must be the "
                               f"same, but got {x_indices[0]} and {x_shape[0]}.")
        return (x_indices[0], -1), (-1,), tuple(x_shape)

    def infer_dtype(self, x_indices, x_values, x_shape):
        rules.check_dtype_in(self.name, "x_indices", x_indices, _I64)
        rules.check_dtype_in(self.name, "x_shape", x_shape, _I64)
        return mstype.int64, rules.check_dtype_in(self.name, "x_values", x_values, (mstype.float16, mstype.float32,
                                                                                      mstype.float64)), mstype.int64

    def bprop(self, x_indices, x_values, x_shape, out, dout):
        # each input entry's gradient is its merged entry's: find it by row-major position (the output is sorted)
        ones = fops.ones((1,), mstype.int64)
        sizes = fops.flip(fops.concat((x_shape[1:], ones)), (0,))
        strides = fops.expand_dims(fops.flip(fops.cumprod(sizes, 0), (0,)), 1)      # (R, 1)
        lin_in = fops.reduce_sum(fops.mul(x_indices, strides), 0)
        lin_out = fops.reduce_sum(fops.mul(out[0], strides), 0)
        return None, fops.gather(dout[1], fops.searchsorted(lin_out, lin_in), 0), None


# --- SparseSegmentMean ------------------------------------------------------------------------------------
class SparseSegmentMean(Primitive):
    """``SparseSegmentMean()(x, indices, segment_ids)``: the means of the rows ``x[indices]`` per segment."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, indices, segment_ids):
        rules.check_rank(self.name, "x", x, range(1, 9))
        rules.check_rank(self.name, "indices", indices, 1)
        rules.check_rank(self.name, "segment_ids", segment_ids, 1)
        if -1 not in (indices[0], segment_ids[0]) and indices[0] != segment_ids[0]:
            raise MSValueError(f"For '{self.name}', the 'indices' and 'segment_ids' must have the same length, but got "
                               f"{indices[0]} and {segment_ids[0]}.")
        return (-1,) + tuple(x[1:])

    def infer_dtype(self, x, indices, segment_ids):
        rules.check_dtype_in(self.name, "indices", indices, _IDX)
        rules.check_dtype_in(self.name, "segment_ids", segment_ids, _IDX)
        if indices != segment_ids:
            raise MSTypeError(f"For '{self.name}', the 'indices' and 'segment_ids' must have the same dtype, but got "
                              f"{indices} and {segment_ids}.")
        return rules.check_dtype_in(self.name, "x", x, (mstype.float16, mstype.float32, mstype.float64))

    def bprop(self, x, indices, segment_ids, out, dout):
        num = dout.shape[0]
        ones = fops.ones(segment_ids.shape, dout.dtype)
        counts = fops.maximum(fops.unsorted_segment_sum(ones, segment_ids, num), fops.ones((num,), dout.dtype))
        scale = fops.reshape(fops.div(ones, fops.gather(counts, segment_ids, 0)), (-1,) + (1,) * (len(x.shape) - 1))
        rows = fops.mul(fops.gather(dout, segment_ids, 0), scale)
        return fops.unsorted_segment_sum(rows, indices, x.shape[0]), None, None


PRIMITIVES = [SparseToDense, SparseTensorDenseMatmul, SparseTensorDenseAdd, SparseSlice, SparseGatherV2, Coalesce,
              SparseSegmentMean]
