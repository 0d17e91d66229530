"""Sparse Cells of ``mindspore.nn``: ``SparseToDense`` and ``SparseTensorDenseMatmul``.

A COO sparse matrix is ``indices`` (N, 2) int, ``values`` (N,) and its dense shape. Both Cells are compositions of
dense primitives, so they differentiate (with respect to ``values`` and ``dense``) and trace under ``@jit``:

- ``SparseToDense`` scatters the values into zeros (``ops.scatter_nd``; repeated indices add up). It takes any
  COO tensor object with ``indices`` / ``values`` / ``shape`` attributes (MindSpore's ``COOTensor``).
- ``SparseTensorDenseMatmul`` is ``A @ B`` with ``A`` sparse: the rows of ``B`` at ``A``'s column indices, scaled
  by ``A``'s values, summed per row index (``ops.unsorted_segment_sum``), never densifying ``A``.
  ``adjoint_st`` / ``adjoint_dt`` transpose ``A`` / ``B`` first (real dtypes: adjoint = transpose).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["SparseToDense", "SparseTensorDenseMatmul"]


class SparseToDense(Cell):
    """The dense Tensor of a COO sparse tensor (zeros where no value is stored).

    Inputs:
        - **sparse_tensor** (COOTensor) - with ``indices`` (N, R) int32/int64, ``values`` (N,) and ``shape``
          (an R-tuple).

    Outputs:
        Tensor of shape ``sparse_tensor.shape`` and the values' dtype.

    Raises:
        TypeError: If ``sparse_tensor`` is not a COO tensor.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> from types import SimpleNamespace
        >>> coo = SimpleNamespace(indices=ms.Tensor(np.array([[0, 1], [1, 2]], np.int32)),
        ...                       values=ms.Tensor(np.array([1.0, 2.0], np.float32)), shape=(3, 4))
        >>> nn.SparseToDense()(coo).asnumpy().tolist()
        [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    """

    def __init__(self):
        super().__init__()

    def construct(self, sparse_tensor):
        if not all(hasattr(sparse_tensor, a) for a in ("indices", "values", "shape")):
            raise MSTypeError(f"For 'SparseToDense', the 'sparse_tensor' must be a COOTensor, but got "
                              f"{type(sparse_tensor).__name__}.")
        return ops.scatter_nd(sparse_tensor.indices, sparse_tensor.values, tuple(sparse_tensor.shape))


class SparseTensorDenseMatmul(Cell):
    """``A @ B`` for a 2-D COO sparse ``A`` (``indices``, ``values``, ``sparse_shape``) and a dense ``B``.

    Args:
        adjoint_st (bool): Transpose ``A`` first. Default ``False``.
        adjoint_dt (bool): Transpose ``B`` first. Default ``False``.

    Inputs:
        - **indices** (Tensor) - (N, 2), int32 or int64: the (row, column) of each value.
        - **values** (Tensor) - (N,): the stored values.
        - **sparse_shape** (tuple(int)) - ``A``'s dense shape (2 ints).
        - **dense** (Tensor) - 2-D, of ``values``' dtype.

    Outputs:
        Tensor (rows of op(A), columns of op(B)).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> out = nn.SparseTensorDenseMatmul()(ms.Tensor(np.array([[0, 1], [1, 2]], np.int32)),
        ...                                    ms.Tensor(np.array([1.0, 2.0], np.float32)), (3, 4),
        ...                                    ms.Tensor(np.ones((4, 2), np.float32)))
        >>> out.asnumpy().tolist()
        [[1.0, 1.0], [2.0, 2.0], [0.0, 0.0]]
    """

    def __init__(self, adjoint_st=False, adjoint_dt=False):
        super().__init__()
        self.adj_st = chk.check_bool("SparseTensorDenseMatmul", "adjoint_st", adjoint_st)
        self.adj_dt = chk.check_bool("SparseTensorDenseMatmul", "adjoint_dt", adjoint_dt)

    def construct(self, indices, values, sparse_shape, dense):
        op = "SparseTensorDenseMatmul"
        if len(sparse_shape) != 2:
            raise MSValueError(f"For '{op}', the length of 'sparse_shape' must be 2, but got {len(sparse_shape)}.")
        if dense.ndim != 2:
            raise MSValueError(f"For '{op}', the 'dense' must be a 2-D tensor, but got {dense.ndim}-D.")
        rows, cols = indices[:, 0], indices[:, 1]
        n_rows, n_inner = sparse_shape[0], sparse_shape[1]
        if self.adj_st:
            rows, cols = cols, rows
            n_rows, n_inner = n_inner, n_rows
        if self.adj_dt:
            dense = dense.transpose(1, 0)
        if dense.shape[0] != n_inner:
            raise MSValueError(f"For '{op}', the inner dimensions of the sparse matrix and 'dense' must match, but "
                               f"got {n_inner} and {dense.shape[0]}.")
        picked = ops.gather(dense, cols, 0) * values.reshape(-1, 1).astype(dense.dtype)
        return ops.unsorted_segment_sum(picked, rows, n_rows)
