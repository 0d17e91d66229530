"""Sparse tensors: ``COOTensor``, ``CSRTensor``, ``RowTensor`` (and the deprecated ``SparseTensor``).

Each holds ordinary Tensors (indices, values, the dense shape as a tuple) and computes with the operators:
``to_dense`` is a ``ScatterNd`` (duplicates add up), ``CSRTensor.mv``/``mm`` gather the dense operand's rows
by column index and sum the products per row with ``UnsortedSegmentSum``. So everything works on any
backend, in PYNATIVE and GRAPH_MODE, and is differentiable with respect to the values and the dense
operands, as MindSpore's sparse operators are.
"""
from __future__ import annotations

import numbers
import sys

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops import _higher
from mindspore.ops import functional as F

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "SparseTensor"]


def _shape(op, shape, ndim=None):
    if not isinstance(shape, (tuple, list)) or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool)
                                                      for s in shape):
        raise MSTypeError(f"For '{op}', the 'shape' must be a tuple of int, but got {shape!r}.")
    shape = tuple(int(s) for s in shape)
    if any(s <= 0 for s in shape):
        raise MSValueError(f"For '{op}', the elements of 'shape' must be positive, but got {shape}.")
    if ndim is not None and len(shape) != ndim:
        raise MSValueError(f"For '{op}', the 'shape' must have {ndim} dimensions, but got {shape}.")
    return shape


def _int_tensor(op, name, t, ndim):
    if not isinstance(t, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(t).__name__}.")
    if t.dtype not in (mstype.int16, mstype.int32, mstype.int64):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int16, int32 or int64 Tensor, but got {t.dtype}.")
    if t.ndim != ndim:
        raise MSValueError(f"For '{op}', the '{name}' must be a {ndim}-D Tensor, but got shape {t.shape}.")
    return t


def _values(op, values, n):
    if not isinstance(values, Tensor):
        raise MSTypeError(f"For '{op}', the 'values' must be a Tensor, but got {type(values).__name__}.")
    if values.ndim != 1 or values.shape[0] != n:
        raise MSValueError(f"For '{op}', the 'values' must be a 1-D Tensor of {n} elements (one per index), but "
                           f"got shape {values.shape}.")
    return values


def csr_rows(indptr, indices):
    """The row (int64) of each value of a CSR structure: ``indices`` its column indices (or their number)."""
    ends = F.cast(indptr[1:], mstype.int64)
    nnz = indices if isinstance(indices, int) else indices.shape[0]
    if nnz >= 0:
        positions = F.arange(0, nnz, 1, dtype=mstype.int64)
    else:    # a size known only when a compiled graph runs: count the entries instead
        positions = F.sub(F.cumsum(F.cast(F.equal(indices, indices), mstype.int64), 0), 1)
    return F.searchsorted(ends, positions, right=True)



def _part(t):
    """A component tensor as 2.10's COOTensor/CSRTensor reprs write it: the Tensor's repr without the commas, a 1-D
    one's values right after ``value=`` (``Tensor(shape=[3], dtype=Int32, value=[0 4 6])``)."""
    head, _, value = repr(t).partition("value=")
    value = value.replace(",", "")
    return f"{head}value={value[1:] if value.startswith(' [') else value}"

class COOTensor:
    """A sparse tensor in coordinate format: ``indices`` (N, ndim) int, ``values`` (N,), the dense ``shape``.

    Examples:
        >>> import mindspore as ms
        >>> c = ms.COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0]), (3, 4))
        >>> c.to_dense().asnumpy().tolist()
        [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    """

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            if not isinstance(coo_tensor, COOTensor):
                raise MSTypeError(f"For 'COOTensor', the 'coo_tensor' must be a COOTensor, but got "
                                  f"{type(coo_tensor).__name__}.")
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        shape = _shape("COOTensor", shape)
        indices = _int_tensor("COOTensor", "indices", indices, 2)
        if indices.shape[1] != len(shape):
            raise MSValueError(f"For 'COOTensor', the 'indices' must have one column per dimension of 'shape' "
                               f"{shape}, but got shape {indices.shape}.")
        self._indices, self._values, self._shape = indices, _values("COOTensor", values, indices.shape[0]), shape

    # -- properties ---------------------------------------------------------------------------------------------
    indices = property(lambda self: self._indices, doc="The (N, ndim) indices.")
    values = property(lambda self: self._values, doc="The (N,) values.")
    shape = property(lambda self: self._shape, doc="The dense shape.")
    dtype = property(lambda self: self._values.dtype, doc="The values' dtype.")
    size = property(lambda self: self._values.shape[0], doc="The number of stored values.")
    itemsize = property(lambda self: self._values.dtype.itemsize)
    ndim = property(lambda self: len(self._shape))

    def __repr__(self):
        return f"COOTensor(shape={list(self._shape)}, dtype={self.dtype}, indices={_part(self._indices)}, " \
               f"values={_part(self._values)})"

    # -- conversions ---------------------------------------------------------------------------------------------
    def to_tuple(self):
        return self._indices, self._values, self._shape

    def to_dense(self):
        """The dense Tensor (values at repeated indices add up)."""
        return F.scatter_nd(self._indices, self._values, self._shape)

    def to_csr(self):
        """The CSRTensor of a 2-D COOTensor (entries sorted by row, then column)."""
        if self.ndim != 2:
            raise MSValueError(f"For 'COOTensor.to_csr', the COOTensor must be 2-D, but got shape {self._shape}.")
        idx = F.cast(self._indices, mstype.int64)
        rows, cols = F.gather(idx, 0, 1), F.gather(idx, 1, 1)      # (a slice needs static sizes)
        order = F.argsort(F.add(F.mul(rows, self._shape[1]), cols))
        rows, cols, vals = F.gather(rows, order, 0), F.gather(cols, order, 0), F.gather(self._values, order, 0)
        counts = F.unsorted_segment_sum(F.cast(F.ge(rows, 0), mstype.int64), rows, self._shape[0])
        indptr = F.concat((F.zeros((1,), mstype.int64), F.cumsum(counts, 0)))
        dtype = self._indices.dtype
        return CSRTensor(F.cast(indptr, dtype), F.cast(cols, dtype), vals, self._shape)

    def coalesce(self):
        """The COOTensor with duplicate indices merged (their values summed), sorted by index."""
        if self.dtype in (mstype.float16, mstype.float32, mstype.float64):      # the primitive (also compiles)
            idx, vals, _ = F.coalesce(F.transpose(F.cast(self._indices, mstype.int64), (1, 0)), self._values,
                                      Tensor(self._shape, mstype.int64))
            return COOTensor(F.cast(F.transpose(idx, (1, 0)), self._indices.dtype), vals, self._shape)
        strides = [int(np.prod(self._shape[i + 1:])) for i in range(self.ndim)]
        lin = F.reduce_sum(F.mul(F.cast(self._indices, mstype.int64), Tensor(strides, mstype.int64)), 1)
        uniq, inverse = F.unique(lin)
        order = F.argsort(uniq)
        rank = F.argsort(order)                          # where each unique index lands once sorted
        n = uniq.shape[0]
        vals = F.unsorted_segment_sum(self._values, F.gather(rank, inverse, 0), n)
        lin_sorted = F.gather(uniq, order, 0)
        cols = []
        for s in strides:
            cols.append(F.floor_div(lin_sorted, s))
            lin_sorted = F.sub(lin_sorted, F.mul(cols[-1], s))
        return COOTensor(F.cast(F.stack(cols, 1), self._indices.dtype), vals, self._shape)

    # -- arithmetic ---------------------------------------------------------------------------------------------
    def abs(self):
        return COOTensor(self._indices, F.abs(self._values), self._shape)

    def astype(self, dtype):
        return COOTensor(self._indices, F.cast(self._values, dtype), self._shape)

    def add(self, other, thresh):
        """``self + other`` (a COOTensor of the same shape), entries sorted by index. As TensorFlow's ``SparseAdd``
        (MindSpore's kernel), a position both operands hold is dropped when its sum's magnitude is below
        ``thresh``; a position only one holds is kept."""
        if not isinstance(other, COOTensor) or other.shape != self._shape:
            raise MSValueError(f"For 'COOTensor.add', the other operand must be a COOTensor of shape {self._shape}.")
        idx = F.concat((self._indices, F.cast(other.indices, self._indices.dtype)))
        both = COOTensor(idx, F.concat((self._values, F.cast(other.values, self.dtype))), self._shape).coalesce()
        n1, n2 = self.size, other.size

        def holds(first):    # per merged position: whether ``self`` (first) or ``other`` holds it
            flags = (F.ones((n1,), mstype.float32), F.zeros((n2,), mstype.float32)) if first else \
                (F.zeros((n1,), mstype.float32), F.ones((n2,), mstype.float32))
            return F.gt(COOTensor(idx, F.concat(flags), self._shape).coalesce().values, 0)
        magnitude = F.abs(both.values)
        thresh = F.abs(F.cast(thresh if isinstance(thresh, Tensor) else Tensor(thresh), magnitude.dtype))
        keep = F.logical_or(F.ge(magnitude, thresh), F.logical_not(F.logical_and(holds(True), holds(False))))
        where = F.reshape(F.nonzero(keep), (-1,))
        return COOTensor(F.gather(both.indices, where, 0), F.gather(both.values, where, 0), self._shape)

    def __neg__(self):
        return COOTensor(self._indices, F.neg(self._values), self._shape)

    def __add__(self, other):
        if isinstance(other, COOTensor):
            return self.add(other, 0)
        if isinstance(other, Tensor):
            return F.add(self.to_dense(), other)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, COOTensor):
            return self.add(-other, 0)
        if isinstance(other, Tensor):
            return F.sub(self.to_dense(), other)
        return NotImplemented

    def __mul__(self, other):
        """Elementwise by a dense Tensor or a number: a COOTensor with the same indices."""
        if isinstance(other, Tensor):
            dense = F.broadcast_to(other, self._shape) if tuple(other.shape) != self._shape else other
            return COOTensor(self._indices, F.mul(self._values, F.gather_nd(dense, self._indices)), self._shape)
        if isinstance(other, numbers.Number):
            return COOTensor(self._indices, F.mul(self._values, other), self._shape)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Tensor):
            dense = F.broadcast_to(other, self._shape) if tuple(other.shape) != self._shape else other
            return COOTensor(self._indices, F.div(self._values, F.gather_nd(dense, self._indices)), self._shape)
        if isinstance(other, numbers.Number):
            return COOTensor(self._indices, F.div(self._values, other), self._shape)
        return NotImplemented


class CSRTensor:
    """A 2-D (or batched) sparse matrix in compressed-row format: ``indptr`` (rows + 1,), ``indices`` (N,) column
    indices, ``values`` (N,), the dense ``shape``.

    Examples:
        >>> import mindspore as ms
        >>> m = ms.CSRTensor(ms.Tensor([0, 1, 2, 2], ms.int32), ms.Tensor([1, 2], ms.int32),
        ...                  ms.Tensor([1.0, 2.0]), (3, 4))
        >>> m.mv(ms.Tensor([1.0, 1.0, 1.0, 1.0])).asnumpy().tolist()
        [1.0, 2.0, 0.0]
    """

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise MSTypeError(f"For 'CSRTensor', the 'csr_tensor' must be a CSRTensor, but got "
                                  f"{type(csr_tensor).__name__}.")
            indptr, indices, values, shape = (csr_tensor.indptr, csr_tensor.indices, csr_tensor.values,
                                              csr_tensor.shape)
        shape = _shape("CSRTensor", shape, 2)
        indptr = _int_tensor("CSRTensor", "indptr", indptr, 1)
        indices = _int_tensor("CSRTensor", "indices", indices, 1)
        if indptr.shape[0] != shape[0] + 1:
            raise MSValueError(f"For 'CSRTensor', the 'indptr' must have shape[0] + 1 = {shape[0] + 1} elements, but "
                               f"got {indptr.shape[0]}.")
        if indptr.dtype != indices.dtype:
            raise MSTypeError(f"For 'CSRTensor', the 'indptr' and 'indices' must have the same dtype, but got "
                              f"{indptr.dtype} and {indices.dtype}.")
        self._indptr, self._indices = indptr, indices
        self._values, self._shape = _values("CSRTensor", values, indices.shape[0]), shape

    indptr = property(lambda self: self._indptr, doc="Row pointers: row i's entries are [indptr[i], indptr[i+1]).")
    indices = property(lambda self: self._indices, doc="The column index of each value.")
    values = property(lambda self: self._values)
    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._values.dtype)
    size = property(lambda self: self._values.shape[0])
    itemsize = property(lambda self: self._values.dtype.itemsize)
    ndim = property(lambda self: len(self._shape))

    def __repr__(self):
        return f"CSRTensor(shape={list(self._shape)}, dtype={self.dtype}, indptr={_part(self._indptr)}, " \
               f"indices={_part(self._indices)}, values={_part(self._values)})"

    def _rows(self):
        """The row of each stored value (int64): how many rows end at or before it (static shapes, so it also
        compiles in GRAPH_MODE)."""
        return csr_rows(self._indptr, self._indices)

    def to_tuple(self):
        return self._indptr, self._indices, self._values, self._shape

    def to_coo(self):
        rows = F.cast(self._rows(), self._indices.dtype)
        return COOTensor(F.stack((rows, self._indices), 1), self._values, self._shape)

    def to_dense(self):
        return self.to_coo().to_dense()

    def mv(self, dense_vector):
        """The matrix-vector product with a dense vector of ``shape[1]`` (or (shape[1], 1)) elements."""
        column = dense_vector.ndim == 2
        vec = F.reshape(dense_vector, (-1,)) if column else dense_vector
        if vec.ndim != 1 or vec.shape[0] != self._shape[1]:
            raise MSValueError(f"For 'CSRTensor.mv', the dense vector must have {self._shape[1]} elements, but got "
                               f"shape {dense_vector.shape}.")
        prod = F.mul(self._values, F.gather(vec, F.cast(self._indices, mstype.int64), 0))
        out = F.unsorted_segment_sum(prod, self._rows(), self._shape[0])
        return F.reshape(out, (-1, 1)) if column else out

    def mm(self, matrix):
        """The product with a dense (shape[1], K) matrix: a dense (shape[0], K) Tensor."""
        if not isinstance(matrix, Tensor) or matrix.ndim != 2 or matrix.shape[0] != self._shape[1]:
            raise MSValueError(f"For 'CSRTensor.mm', the dense matrix must be 2-D with {self._shape[1]} rows, but got "
                               f"{getattr(matrix, 'shape', type(matrix).__name__)}.")
        rows_of = F.gather(matrix, F.cast(self._indices, mstype.int64), 0)        # (N, K)
        prod = F.mul(F.expand_dims(self._values, 1), rows_of)
        return F.unsorted_segment_sum(prod, self._rows(), self._shape[0])

    def sum(self, axis):
        """The sums along ``axis`` (0 or 1, negatives allowed) as a dense Tensor keeping that axis (size 1)."""
        if axis not in (0, 1, -1, -2):
            raise MSValueError(f"For 'CSRTensor.sum', the 'axis' must be in [-2, 2), but got {axis}.")
        if axis % 2 == 1:
            return F.reshape(F.unsorted_segment_sum(self._values, self._rows(), self._shape[0]), (-1, 1))
        cols = F.unsorted_segment_sum(self._values, F.cast(self._indices, mstype.int64), self._shape[1])
        return F.reshape(cols, (1, -1))

    def abs(self):
        return CSRTensor(self._indptr, self._indices, F.abs(self._values), self._shape)

    def astype(self, dtype):
        return CSRTensor(self._indptr, self._indices, F.cast(self._values, dtype), self._shape)

    def add(self, b, alpha, beta):
        """``alpha * self + beta * b`` for a CSRTensor ``b`` of the same shape (a CSRTensor)."""
        if not isinstance(b, CSRTensor) or b.shape != self._shape:
            raise MSValueError(f"For 'CSRTensor.add', the other operand must be a CSRTensor of shape {self._shape}.")
        left, right = self.to_coo(), b.to_coo()
        both = COOTensor(F.concat((left.indices, F.cast(right.indices, left.indices.dtype))),
                         F.concat((F.mul(left.values, alpha), F.cast(F.mul(right.values, beta), self.dtype))),
                         self._shape)
        return both.coalesce().to_csr()

    def __neg__(self):
        return CSRTensor(self._indptr, self._indices, F.neg(self._values), self._shape)

    def __add__(self, other):
        if isinstance(other, CSRTensor):
            return self.add(other, 1, 1)
        if isinstance(other, Tensor):
            return F.add(self.to_dense(), other)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, CSRTensor):
            return self.add(other, 1, -1)
        if isinstance(other, Tensor):
            return F.sub(self.to_dense(), other)
        return NotImplemented

    def __mul__(self, other):
        """Elementwise by a dense Tensor (broadcast to the shape) or a number: a CSRTensor, same sparsity."""
        if isinstance(other, Tensor):
            coo = self.to_coo() * other
            return CSRTensor(self._indptr, self._indices, coo.values, self._shape)
        if isinstance(other, numbers.Number):
            return CSRTensor(self._indptr, self._indices, F.mul(self._values, other), self._shape)
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, Tensor):
            coo = self.to_coo() / other
            return CSRTensor(self._indptr, self._indices, coo.values, self._shape)
        if isinstance(other, numbers.Number):
            return CSRTensor(self._indptr, self._indices, F.div(self._values, other), self._shape)
        return NotImplemented


class RowTensor:
    """A tensor given by some of its rows (slices along the first axis): ``indices`` (N,), ``values`` (N, ...) the
    rows, ``dense_shape``. Gradients of embedding lookups take this form.

    Examples:
        >>> import mindspore as ms
        >>> r = ms.RowTensor(ms.Tensor([1], ms.int32), ms.Tensor([[1.0, 2.0]]), (3, 2))
        >>> r.to_dense().asnumpy().tolist()
        [[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]]
    """

    def __init__(self, indices=None, values=None, dense_shape=None, row_tensor=None):
        if row_tensor is not None:
            if not isinstance(row_tensor, RowTensor):
                raise MSTypeError(f"For 'RowTensor', the 'row_tensor' must be a RowTensor, but got "
                                  f"{type(row_tensor).__name__}.")
            indices, values, dense_shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        dense_shape = _shape("RowTensor", dense_shape)
        indices = _int_tensor("RowTensor", "indices", indices, 1)
        if not isinstance(values, Tensor) or tuple(values.shape) != (indices.shape[0],) + dense_shape[1:]:
            raise MSValueError(f"For 'RowTensor', the 'values' must be a Tensor of shape "
                               f"{(indices.shape[0],) + dense_shape[1:]}, but got "
                               f"{getattr(values, 'shape', type(values).__name__)}.")
        self._indices, self._values, self._dense_shape = indices, values, dense_shape

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)

    def __repr__(self):
        return f"RowTensor(dense_shape={list(self._dense_shape)}, indices={self._indices!r}, values={self._values!r})"

    def to_dense(self):
        """The dense Tensor (rows given twice add up)."""
        return F.scatter_nd(F.expand_dims(self._indices, 1), self._values, self._dense_shape)


class SparseTensor(COOTensor):
    """The name MindSpore 1.x had for :class:`COOTensor` (``SparseTensor(indices, values, shape)``)."""

    def __init__(self, indices, values, shape):
        super().__init__(indices, values, shape)


# ``mindspore.ops``' sparse functions (``ops.csr_mv``, ``ops.coo_add``, ...) sit below this module: hand it down.
_higher.provide(sparse_tensor=sys.modules[__name__])
