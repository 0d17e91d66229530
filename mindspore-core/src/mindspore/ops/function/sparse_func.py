"""The sparse-tensor functions of MindSpore 2.10's ``mindspore.ops``: the ``coo_*``/``csr_*`` unary maps, sums,
products, conversions and accessors, ``make_*_tensor``, ``row_tensor_*``, ``dense_to_sparse_*``, ``coalesce`` and
``sparse_segment_mean``.

Design
------
A ``COOTensor``/``CSRTensor``/``RowTensor`` (:mod:`mindspore.common.sparse_tensor`) is a Python object over
ordinary Tensors. Its module sits above ``mindspore.ops`` (it computes with the functional ops), so this module
does not import it: the module registers itself with :mod:`mindspore.ops._higher` when it is imported (as part of
``import mindspore``) and the functions here look the classes up there.

Everything is a composition of primitives, so it runs on every backend and is differentiable with respect to the
values and dense operands: the unary maps apply the dense op to ``values`` and keep the indices; products gather
the dense operand at the stored positions and sum per row (``csr_mv``, ``csr_mm``'s dense product); results whose
sparsity depends on the data (``coo_add``, ``coo_concat``, ``csr_add``, ``csr_mm``, ``dense_to_sparse_*``) sort
their entries by (row, column) as MindSpore's kernels do. Sparse tensors are Python objects: inside ``@ms.jit``
build them from their parts (``ms.CSRTensor(indptr, indices, values, shape)``, ``ops.make_csr_tensor``) and these
functions compile. To that end they keep shapes static where the data does not decide them (a CSR row index
is a ``searchsorted`` of the value positions in the row pointers, not a ``repeat``), and sizes known only at run
time come from the dynamic-shaped primitives (``Coalesce``, ``NonZero``) followed by gathers and segment sums.

Where MindSpore 2.10 restricts an operation to one backend (``csr_mm`` of two CSRTensors, ``csr_to_dense``,
``dense_to_sparse_*`` are GPU-only there; ``csr_mul``/``csr_div``/``csr_mv``/``csr_gather``/``csr2coo``/``coo2csr``
need AKG on its CPU build), these run everywhere. ``coo_add`` and ``coo_concat`` keep 2.10's int64-only indices.
"""
import numbers

import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops import _higher
from mindspore.ops._defs import sparse as _defs
from mindspore.ops._defs._lazy import functional as F

_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
          "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round", "sigmoid", "sin",
          "sinh", "softsign", "sqrt", "square", "tan", "tanh")

__all__ = (["coo_" + n for n in _UNARY] + ["csr_" + n for n in _UNARY] + [
    "coo_add", "coo_concat", "csr_add", "csr_mul", "csr_div", "csr_gather", "csr_mm", "csr_mv", "csr_reduce_sum",
    "csr_softmax", "csr_to_coo", "csr_to_dense", "csr2coo", "coo2csr",
    "coo_tensor_get_indices", "coo_tensor_get_values", "coo_tensor_get_dense_shape",
    "csr_tensor_get_indptr", "csr_tensor_get_indices", "csr_tensor_get_values", "csr_tensor_get_dense_shape",
    "make_coo_tensor", "make_csr_tensor", "make_row_tensor", "make_row_tensor_inner", "make_sparse_tensor",
    "row_tensor_add", "row_tensor_get_indices", "row_tensor_get_values", "row_tensor_get_dense_shape",
    "dense_to_sparse_coo", "dense_to_sparse_csr", "coalesce", "sparse_segment_mean"])


def _classes():
    return _higher.get("sparse_tensor")


def _coo(op, x, msg=None):
    if not isinstance(x, _classes().COOTensor):
        raise MSTypeError(msg or f"Expects COOTensor for {op}")
    return x


def _csr(op, x, msg=None):
    if not isinstance(x, _classes().CSRTensor):
        raise MSTypeError(msg or f"Expects CSRTensor for {op}")
    return x


# -- unary maps on the values -------------------------------------------------------------------------------
def _unary(kind, name):
    def fn(x):
        cls = _classes()
        if kind == "coo":
            _coo(fn.__name__, x)
            return cls.COOTensor(x.indices, getattr(F, name)(x.values), x.shape)
        _csr(fn.__name__, x)
        return cls.CSRTensor(x.indptr, x.indices, getattr(F, name)(x.values), x.shape)
    fn.__name__ = fn.__qualname__ = f"{kind}_{name}"
    fn.__doc__ = (f"``{name}`` of the values of a {kind.upper()}Tensor: a {kind.upper()}Tensor with the same "
                  f"indices.\n\n    Args:\n        x ({kind.upper()}Tensor): the input.\n\n    Raises:\n        "
                  f"TypeError: If `x` is not a {kind.upper()}Tensor.\n")
    return fn


for _kind in ("coo", "csr"):
    for _name in _UNARY:
        globals()[f"{_kind}_{_name}"] = _unary(_kind, _name)
del _kind, _name


# -- helpers ------------------------------------------------------------------------------------------------
def _promote(a, b):
    dtype = mstype.promote_types(a.dtype, b.dtype)
    return F.cast(a, dtype), F.cast(b, dtype)


def _sorted_coo(indices, values, shape):
    """The entries ordered by their row-major position (MindSpore's kernels return them so)."""
    strides = [int(_np.prod(shape[i + 1:])) for i in range(len(shape))]
    lin = F.reduce_sum(F.mul(F.cast(indices, mstype.int64), Tensor(strides, mstype.int64)), 1)
    order = F.argsort(lin)
    return F.gather(indices, order, 0), F.gather(values, order, 0)


def _require_int64(op, name, t):
    if t.dtype != mstype.int64:
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor[Int64], but got Tensor[{t.dtype}].")


def _rows_of(indptr, indices):
    return _classes().csr_rows(indptr, indices)


def _csr_from_coo(indices, values, shape, index_dtype):
    """A CSRTensor of 2-D COO parts already sorted by (row, column)."""
    rows = F.cast(F.gather(indices, 0, 1), mstype.int64)
    counts = F.unsorted_segment_sum(F.cast(F.ge(rows, 0), mstype.int64), rows, shape[0])   # ones (of a run-time size)
    indptr = F.concat((F.zeros((1,), mstype.int64), F.cumsum(counts, 0)))
    cols = F.cast(F.gather(indices, 1, 1), index_dtype)
    return _classes().CSRTensor(F.cast(indptr, index_dtype), cols, values, shape)


# -- COO ----------------------------------------------------------------------------------------------------
def coo_add(x1, x2, thresh):
    """The sum of two COOTensors of the same shape; a position both hold is dropped when its sum's magnitude is
    below ``thresh`` (a position only one holds is always kept).

    Args:
        x1 (COOTensor): the first addend (int64 indices).
        x2 (COOTensor): the second addend, same shape (int64 indices).
        thresh (Tensor): a 0-D magnitude threshold.

    Returns:
        COOTensor, entries sorted by position.

    Raises:
        TypeError: If the inputs are not COOTensors with int64 indices, or `thresh` is not a Tensor.
        ValueError: If the shapes differ.
    """
    _coo("coo_add", x1)
    _coo("coo_add", x2)
    _require_int64("SparseAdd", "x1_indices", x1.indices)
    _require_int64("SparseAdd", "x2_indices", x2.indices)
    if not isinstance(thresh, Tensor):
        raise MSTypeError(f"For 'SparseAdd', the 'thresh' must be a Tensor, but got {type(thresh).__name__}.")
    if x1.shape != x2.shape:
        raise MSValueError(f"For 'SparseAdd', the shapes of 'x1' and 'x2' must be the same, but got {x1.shape} and "
                           f"{x2.shape}.")
    v1, v2 = _promote(x1.values, x2.values)
    cls = _classes()
    return cls.COOTensor(x1.indices, v1, x1.shape).add(cls.COOTensor(x2.indices, v2, x2.shape), thresh)


def coo_concat(sp_input, concat_dim=0):
    """Concatenates COOTensors (or ``(indices, values, shape)`` tuples) along ``concat_dim``.

    Args:
        sp_input (Union[list, tuple]): two or more COOTensors of the same rank, int64 indices.
        concat_dim (int): the axis, in ``[-rank, rank)``. Default: ``0``.

    Returns:
        COOTensor, entries sorted by position.

    Raises:
        ValueError: If fewer than two inputs are given, `concat_dim` is out of range or the other dimensions
            differ.
        TypeError: If the indices are not int64.
    """
    if not isinstance(sp_input, (list, tuple)) or len(sp_input) < 2:
        raise MSValueError("For coo_concat, not support COOTensor input number < 2.")
    parts = []
    for i, el in enumerate(sp_input):
        if isinstance(el, tuple) and len(el) == 3:
            el = _classes().COOTensor(*el)
        _coo("coo_concat", el, f"For coo_concat, the inputs must be COOTensors, but got {type(el).__name__}.")
        _require_int64("SparseConcat", f"indices{i}", el.indices)
        parts.append(el)
    rank = parts[0].ndim
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, numbers.Integral) or not -rank <= concat_dim < rank:
        raise MSValueError(f"For 'SparseConcat', the 'concat_dim' must be in [{-rank}, {rank}), but got {concat_dim}.")
    axis = concat_dim % rank
    out_shape, offset, indices, values = list(parts[0].shape), 0, [], []
    for el in parts:
        if el.ndim != rank or any(a != b for d, (a, b) in enumerate(zip(el.shape, out_shape)) if d != axis):
            raise MSValueError(f"For 'SparseConcat', the input shapes must match outside 'concat_dim' {axis}, but got "
                               f"{parts[0].shape} and {el.shape}.")
        shift = Tensor([offset if d == axis else 0 for d in range(rank)], mstype.int64)
        indices.append(F.add(el.indices, shift))
        values.append(el.values)
        offset += el.shape[axis]
    out_shape[axis] = offset
    dtype = values[0].dtype
    idx, vals = _sorted_coo(F.concat(indices), F.concat([F.cast(v, dtype) for v in values]), tuple(out_shape))
    return _classes().COOTensor(idx, vals, tuple(out_shape))


# -- CSR ----------------------------------------------------------------------------------------------------
def csr_add(a, b, alpha, beta):
    """``alpha * a + beta * b`` for CSRTensors of the same shape.

    Args:
        a (CSRTensor): the first operand.
        b (CSRTensor): the second operand.
        alpha (Tensor): the factor of `a` (one element).
        beta (Tensor): the factor of `b` (one element).

    Returns:
        CSRTensor, each row's entries sorted by column.

    Raises:
        TypeError: If `a`/`b` are not CSRTensors or `alpha`/`beta` not Tensors.
        ValueError: If the shapes differ.
    """
    msg = "For functional operator csr_add, both inputs a and b must be type of CSRTensor."
    _csr("csr_add", a, msg)
    _csr("csr_add", b, msg)
    if not isinstance(alpha, Tensor) or not isinstance(beta, Tensor):
        raise MSTypeError("For functional operator csr_add, both inputs alpha and beta must be Tensor.")
    if a.shape != b.shape:
        raise MSValueError(f"For 'SparseMatrixAdd', the shapes of 'a' and 'b' must be the same, but got {a.shape} and "
                           f"{b.shape}.")
    va, vb = _promote(a.values, b.values)
    va = F.mul(va, F.reshape(F.cast(alpha, va.dtype), ()))
    vb = F.mul(vb, F.reshape(F.cast(beta, vb.dtype), ()))
    ia, ib = a.to_coo().indices, F.cast(b.to_coo().indices, a.indices.dtype)
    both = _classes().COOTensor(F.concat((ia, ib)), F.concat((va, vb)), a.shape).coalesce()
    return _csr_from_coo(both.indices, both.values, a.shape, a.indptr.dtype)


def _csr_elementwise(op, x, y, fn):
    _csr(op, x, f"For functional operator {op}, the 'x' must be a CSRTensor, but got {type(x).__name__}.")
    if isinstance(y, (bool, int, float)):
        y = Tensor(y)
    if not isinstance(y, Tensor):
        raise MSTypeError(f"For functional operator {op}, the 'y' must be a Tensor, but got {type(y).__name__}.")
    if y.size == 1 and y.ndim <= 2:
        if y.ndim > x.ndim:
            raise MSValueError("dense tensor cannot broadcast to the sparse tensor.")
        return F.reshape(fn(x.values, y), x.values.shape)      # MindSpore gives the values here, a dense Tensor
    values, y = _promote(x.values, y)
    try:
        dense = F.broadcast_to(y, x.shape)
    except ValueError:
        raise MSValueError(f"For functional operator {op}, dense tensor cannot broadcast to the sparse tensor: "
                           f"{y.shape} vs {x.shape}.") from None
    coords = F.stack((F.cast(_rows_of(x.indptr, x.indices), mstype.int64), F.cast(x.indices, mstype.int64)), 1)
    return _classes().CSRTensor(x.indptr, x.indices, fn(values, F.gather_nd(dense, coords)), x.shape)


def csr_mul(x, y):
    """``x * y`` for a CSRTensor ``x`` and a dense ``y`` broadcastable to its shape: a CSRTensor with the same
    sparsity (a one-element ``y`` gives the product's values as a dense Tensor, as MindSpore does).

    Args:
        x (CSRTensor): the sparse operand.
        y (Tensor): the dense operand.

    Returns:
        CSRTensor (or Tensor for a one-element `y`).
    """
    return _csr_elementwise("csr_mul", x, y, F.mul)


def csr_div(x, y):
    """``x / y`` for a CSRTensor ``x`` and a dense ``y`` broadcastable to its shape (see :func:`csr_mul`).

    Args:
        x (CSRTensor): the sparse operand.
        y (Tensor): the dense operand.

    Returns:
        CSRTensor (or Tensor for a one-element `y`).
    """
    return _csr_elementwise("csr_div", x, y, F.div)


def csr_gather(indptr, indices, dense, sparse_shape):
    """The elements of ``dense`` at the positions of a CSR structure: a Tensor of ``indices``' length.

    Args:
        indptr (Tensor): row pointers (``sparse_shape[0] + 1``), int32/int64.
        indices (Tensor): column indices.
        dense (Tensor): the dense tensor, of `sparse_shape`.
        sparse_shape (tuple[int]): the 2-D shape.

    Returns:
        Tensor, of `dense`'s dtype.
    """
    for name, t in (("indptr", indptr), ("indices", indices), ("dense", dense)):
        if not isinstance(t, Tensor):
            raise MSTypeError(f"For 'CSRGather', the '{name}' must be a Tensor, but got {type(t).__name__}.")
    shape = tuple(sparse_shape)
    if len(shape) != 2 or tuple(dense.shape) != shape:
        raise MSValueError(f"For 'CSRGather', the 'dense' must have the 2-D shape 'sparse_shape' {shape}, but got "
                           f"{dense.shape}.")
    _classes().CSRTensor(indptr, indices, F.zeros(indices.shape, dense.dtype), shape)     # checks the structure
    coords = F.stack((_rows_of(indptr, indices), F.cast(indices, mstype.int64)), 1)
    return F.gather_nd(dense, coords)


def csr_mv(csr_tensor, dense):
    """The product of a CSRTensor (M, N) and a dense column (N, 1): a dense (M, 1) Tensor.

    Args:
        csr_tensor (CSRTensor): the matrix.
        dense (Tensor): a 2-D (N, 1) Tensor.

    Returns:
        Tensor of shape (M, 1).

    Raises:
        TypeError: If the inputs are not a CSRTensor and a Tensor.
        ValueError: If `dense` is not 2-D of shape (N, 1).
    """
    _csr("csr_mv", csr_tensor, "For functional operator csr_mv, the 'csr_tensor' must be a CSRTensor.")
    if not isinstance(dense, Tensor):
        raise MSTypeError(f"For functional operator csr_mv, the 'dense' must be a Tensor, but got "
                          f"{type(dense).__name__}.")
    if dense.ndim != 2:
        raise MSValueError(f"Currently, only support 2-D inputs! But csr tensor has {csr_tensor.ndim} dimensions, and "
                           f"dense tensor has {dense.ndim} dimension(s). ")
    if tuple(dense.shape) != (csr_tensor.shape[1], 1):
        raise MSValueError(f"For 'CSRMV', the 'dense' must have shape ({csr_tensor.shape[1]}, 1), but got "
                           f"{dense.shape}.")
    values, dense = _promote(csr_tensor.values, dense)
    return _classes().CSRTensor(csr_tensor.indptr, csr_tensor.indices, values, csr_tensor.shape).mv(dense)


def _csr_dense(x, transpose, adjoint):
    d = x.to_dense()
    if adjoint:
        d = F.conj(d) if d.dtype in (mstype.complex64, mstype.complex128) else d
    return F.transpose(d, (1, 0)) if (transpose or adjoint) else d


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """The product of two CSRTensors (each optionally transposed or adjoint): a CSRTensor.

    The result stores every position some pair of stored entries contributes to (zeros included, as
    cuSPARSE's SpGEMM); it is differentiable with respect to both operands' values.

    Args:
        a (CSRTensor): the left matrix.
        b (CSRTensor): the right matrix.
        trans_a (bool): transpose `a`. Default: ``False``.
        trans_b (bool): transpose `b`. Default: ``False``.
        adjoint_a (bool): conjugate-transpose `a`. Default: ``False``.
        adjoint_b (bool): conjugate-transpose `b`. Default: ``False``.

    Returns:
        CSRTensor.

    Raises:
        TypeError: If `a` or `b` is not a CSRTensor.
        ValueError: If the inner dimensions differ.
    """
    msg = "For functional operator csr_mm, inputs a and b must be type of CSRTensor currently."
    _csr("csr_mm", a, msg)
    _csr("csr_mm", b, msg)
    da, db = _csr_dense(a, trans_a, adjoint_a), _csr_dense(b, trans_b, adjoint_b)
    if da.shape[1] != db.shape[0]:
        raise MSValueError(f"For 'SparseMatrixSparseMatMul', the inner dimensions of 'a' {tuple(da.shape)} and 'b' "
                           f"{tuple(db.shape)} must be equal.")
    da, db = _promote(da, db)
    cls = _classes()
    ones_a = cls.CSRTensor(a.indptr, a.indices, F.ones(a.values.shape, mstype.float32), a.shape)
    ones_b = cls.CSRTensor(b.indptr, b.indices, F.ones(b.values.shape, mstype.float32), b.shape)
    structure = F.matmul(_csr_dense(ones_a, trans_a, adjoint_a), _csr_dense(ones_b, trans_b, adjoint_b))
    coords = F.nonzero(F.gt(structure, 0))                               # row-major order
    shape = (da.shape[0], db.shape[1])
    return _csr_from_coo(coords, F.gather_nd(F.matmul(da, db), coords), shape, a.indptr.dtype)


def csr_reduce_sum(csr_tensor, axis):
    """The sums of a CSRTensor's rows (``axis`` 1 or -1): a dense (M, 1) Tensor.

    Args:
        csr_tensor (CSRTensor): the input.
        axis (int): 1 or -1.

    Returns:
        Tensor of shape (M, 1).

    Raises:
        ValueError: If `axis` is not 1 or -1.
    """
    _csr("csr_reduce_sum", csr_tensor, "For functional operator csr_reduce_sum, the input must be a CSRTensor.")
    if axis not in (1, -1) or isinstance(axis, bool):
        raise MSValueError(f"For CSRReduceSum, `axis` should be 1 or 1-dim. But got `axis`: {axis}and `1- dim`: -1.")
    return csr_tensor.sum(1)


def csr_softmax(logits, dtype):
    """The softmax over each row's stored values of a CSRTensor (absent entries count as absent, not zero).

    Args:
        logits (CSRTensor): the input, float32 or float64 values.
        dtype (mindspore.dtype): the result's dtype, float32 or float64.

    Returns:
        CSRTensor with the same sparsity.

    Raises:
        TypeError: If `logits` is not a CSRTensor or a dtype is not float32/float64.
    """
    _csr("csr_softmax", logits, "For functional operator sparse_matrix_softmax, logits must be type of CSRTensor.")
    for name, d in (("dtype", dtype), ("logits", logits.dtype)):
        if d not in (mstype.float32, mstype.float64):
            raise MSTypeError(f"For 'SparseMatrixSoftmax', the '{name}' must be float32 or float64, but got {d}.")
    rows, m = _rows_of(logits.indptr, logits.indices), logits.shape[0]
    values = logits.values
    top = F.gather(F.unsorted_segment_max(values, rows, m), rows, 0)
    e = F.exp(F.sub(values, F.stop_gradient(top)))
    total = F.gather(F.unsorted_segment_sum(e, rows, m), rows, 0)
    return _classes().CSRTensor(logits.indptr, logits.indices, F.cast(F.div(e, total), dtype), logits.shape)


def csr_to_coo(tensor):
    """The COOTensor of a 2-D CSRTensor.

    Raises:
        TypeError: If `tensor` is not a CSRTensor.
    """
    _csr("csr_to_coo", tensor, "For functional operator csr_to_coo, input argument must be a CSRTensor.")
    return tensor.to_coo()


def csr_to_dense(csr_tensor):
    """The dense Tensor of a 2-D CSRTensor.

    Raises:
        TypeError: If `csr_tensor` is not a CSRTensor.
    """
    _csr("csr_to_dense", csr_tensor, "For functional operator csr_to_dense, input argument must be a CSRTensor.")
    return csr_tensor.to_dense()


def csr2coo(indptr, nnz):
    """The row index of each of the ``nnz`` stored values of a CSR structure (its row pointers ``indptr``).

    Args:
        indptr (Tensor): 1-D int32/int64 row pointers.
        nnz (int): the number of stored values (``indptr[-1]``).

    Returns:
        Tensor of shape (nnz,), `indptr`'s dtype.
    """
    if not isinstance(indptr, Tensor) or indptr.ndim != 1 or indptr.dtype not in (mstype.int32, mstype.int64):
        raise MSTypeError(f"For 'CSR2COO', the 'indptr' must be a 1-D int32 or int64 Tensor, but got {indptr!r}.")
    if isinstance(nnz, bool) or not isinstance(nnz, numbers.Integral) or nnz < 0:
        raise MSTypeError(f"For 'CSR2COO', the 'nnz' must be a non-negative int, but got {nnz!r}.")
    return F.cast(_rows_of(indptr, int(nnz)), indptr.dtype)


def coo2csr(row_indices, height):
    """The row pointers (``height + 1``) of sorted row indices.

    Args:
        row_indices (Tensor): 1-D int32/int64 row index of each value, sorted.
        height (int): the number of rows.

    Returns:
        Tensor of shape (height + 1,), `row_indices`' dtype.
    """
    if not isinstance(row_indices, Tensor) or row_indices.ndim != 1 or \
            row_indices.dtype not in (mstype.int32, mstype.int64):
        raise MSTypeError(f"For 'COO2CSR', the 'row_indices' must be a 1-D int32 or int64 Tensor, but got "
                          f"{row_indices!r}.")
    rows = F.cast(row_indices, mstype.int64)
    counts = F.unsorted_segment_sum(F.cast(F.ge(rows, 0), mstype.int64), rows, height)
    return F.cast(F.concat((F.zeros((1,), mstype.int64), F.cumsum(counts, 0))), row_indices.dtype)


# -- accessors and constructors -----------------------------------------------------------------------------
def coo_tensor_get_indices(coo_tensor):
    """The indices of a COOTensor."""
    return _coo("COOTensorGetIndices", coo_tensor).indices


def coo_tensor_get_values(coo_tensor):
    """The values of a COOTensor."""
    return _coo("COOTensorGetValues", coo_tensor).values


def coo_tensor_get_dense_shape(coo_tensor):
    """The dense shape (a tuple) of a COOTensor."""
    return _coo("COOTensorGetDenseShape", coo_tensor).shape


def csr_tensor_get_indptr(csr_tensor):
    """The row pointers of a CSRTensor."""
    return _csr("CSRTensorGetIndptr", csr_tensor).indptr


def csr_tensor_get_indices(csr_tensor):
    """The column indices of a CSRTensor."""
    return _csr("CSRTensorGetIndices", csr_tensor).indices


def csr_tensor_get_values(csr_tensor):
    """The values of a CSRTensor."""
    return _csr("CSRTensorGetValues", csr_tensor).values


def csr_tensor_get_dense_shape(csr_tensor):
    """The dense shape (a tuple) of a CSRTensor."""
    return _csr("CSRTensorGetDenseShape", csr_tensor).shape


def _row(op, x):
    if not isinstance(x, _classes().RowTensor):
        raise MSTypeError(f"For '{op}', input[0] should be RowTensor, but got {type(x).__name__}.")
    return x


def row_tensor_get_indices(row_tensor):
    """The row indices of a RowTensor."""
    return _row("RowTensorGetIndices", row_tensor).indices


def row_tensor_get_values(row_tensor):
    """The rows (values) of a RowTensor."""
    return _row("RowTensorGetValues", row_tensor).values


def row_tensor_get_dense_shape(row_tensor):
    """The dense shape (a tuple) of a RowTensor."""
    return _row("RowTensorGetDenseShape", row_tensor).dense_shape


def make_coo_tensor(indices, values, dense_shape):
    """``COOTensor(indices, values, dense_shape)``."""
    return _classes().COOTensor(indices, values, tuple(dense_shape))


def make_sparse_tensor(indices, values, dense_shape):
    """``COOTensor(indices, values, dense_shape)`` (MindSpore 1.x's name)."""
    return make_coo_tensor(indices, values, dense_shape)


def make_csr_tensor(indptr, indices, values, dense_shape):
    """``CSRTensor(indptr, indices, values, dense_shape)``."""
    return _classes().CSRTensor(indptr, indices, values, tuple(dense_shape))


def make_row_tensor_inner(indices, values, dense_shape):
    """``RowTensor(indices, values, dense_shape)``."""
    return _classes().RowTensor(indices, values, tuple(dense_shape))


def make_row_tensor(indices, values, dense_shape):
    """``RowTensor(indices, values, dense_shape)``."""
    return make_row_tensor_inner(indices, values, dense_shape)


def row_tensor_add(x, y):
    """``x + y`` for a RowTensor ``x`` and a dense Tensor of its dense shape (or another RowTensor of that
    shape), as a RowTensor (rows given twice add up).

    Raises:
        TypeError: If `x` is not a RowTensor or `y` neither a Tensor nor a RowTensor.
        ValueError: If the dense shapes differ.
    """
    cls = _classes()
    _row("RowTensorAdd", x)
    if isinstance(y, cls.RowTensor):
        idx, rows, shape = y.indices, y.values, y.dense_shape
    elif isinstance(y, Tensor):
        shape = tuple(y.shape)
        idx, rows = F.arange(0, shape[0] if shape else 0, 1, dtype=x.indices.dtype), y
    else:
        raise MSTypeError(f"For 'RowTensorAdd', input[1] should be a Tensor or a RowTensor, but got "
                          f"{type(y).__name__}.")
    if shape != x.dense_shape:
        raise MSValueError(f"For 'RowTensorAdd', the dense shapes must be the same, but got {x.dense_shape} and "
                           f"{shape}.")
    values, rows = _promote(x.values, rows)
    return cls.RowTensor(F.concat((x.indices, F.cast(idx, x.indices.dtype))), F.concat((values, rows)),
                         x.dense_shape)


# -- dense <-> sparse ---------------------------------------------------------------------------------------
def _dense_parts(op, kind, tensor):
    if not isinstance(tensor, Tensor):
        raise MSTypeError(f"For functional operator {op}, input argument must be a Tensor.")
    if tensor.ndim > 2:
        raise MSValueError(f"Currently only support 2-D Tensor when converting to {kind}.")
    indices = F.cast(F.nonzero(tensor), mstype.int32)
    return indices, F.gather_nd(tensor, indices)


def dense_to_sparse_coo(tensor):
    """The COOTensor of a dense Tensor of rank at most 2 (its nonzero entries, int32 indices).

    Raises:
        TypeError: If `tensor` is not a Tensor.
        ValueError: If `tensor` has more than 2 dimensions.
    """
    indices, values = _dense_parts("dense_to_sparse_coo", "COOTensor", tensor)
    return _classes().COOTensor(indices, values, tuple(tensor.shape))


def dense_to_sparse_csr(tensor):
    """The CSRTensor of a 2-D dense Tensor (its nonzero entries, int32 indices).

    Raises:
        TypeError: If `tensor` is not a Tensor.
        ValueError: If `tensor` has more than 2 dimensions.
    """
    indices, values = _dense_parts("dense_to_sparse_csr", "CSRTensor", tensor)
    return _csr_from_coo(indices, values, tuple(tensor.shape), mstype.int32)


# -- primitives' functional forms ---------------------------------------------------------------------------
def coalesce(x_indices, x_values, x_shape):
    """Merges the duplicate entries of a sparse tensor given by parts (values summed, entries sorted).

    Args:
        x_indices (Tensor): (R, N) int64 indices.
        x_values (Tensor): (N,) float16/float32/float64 values.
        x_shape (Tensor): (R,) int64 dense shape.

    Returns:
        tuple of Tensors ``(y_indices (R, Z), y_values (Z,), y_shape (R,))``.

    Raises:
        TypeError: If the dtypes are not as above.
        ValueError: If an index is negative or outside `x_shape`, or the shapes disagree.
    """
    return _defs.Coalesce()(x_indices, x_values, x_shape)


def sparse_segment_mean(x, indices, segment_ids):
    """The mean of the rows ``x[indices[i]]`` per segment ``segment_ids[i]`` (sorted ids; ``segment_ids[-1] + 1``
    segments, empty ones zero).

    Args:
        x (Tensor): float16/float32/float64, rank >= 1.
        indices (Tensor): 1-D int32/int64 rows of `x`.
        segment_ids (Tensor): 1-D, same length and dtype as `indices`, sorted.

    Returns:
        Tensor of shape ``(segment_ids[-1] + 1,) + x.shape[1:]``.
    """
    return _defs.SparseSegmentMean()(x, indices, segment_ids)


# MindSpore cuts mindspore.ops into its own families: a function imported from its `sparse_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
