"""More of MindSpore 2.10's functional API over the primitives of ``ops/_defs/array_more.py``,
``math_misc.py`` and ``complex_ops.py`` and compositions: ``ops.index_add``, the ``inplace_*`` row updates, the
in-place Tensor forms (``ops.zero_``, ``ops.clamp_``, ``ops.uniform_``...), ``ops.matrix_diag``/``_part``/
``matrix_set_diag``, ``ops.batch_to_space_nd``/``space_to_batch_nd``, ``ops.batch_dot``, ``ops.matrix_solve``,
``ops.lstsq``, the complex views (``ops.real``, ``ops.imag``, ``ops.conj``, ``ops.angle``, ``ops.view_as_real``)
and the ``*_ext`` aliases of ``mindspore.mint`` functions.

The diagonal functions gather through index tables computed from shapes and ``k`` alone (constants), with
MindSpore's alignment rule: ``align`` names where a superdiagonal (first word) and a subdiagonal (second word)
shorter than the longest one sit in its row of the packed diagonals ("RIGHT": at the end). A ``k`` given as a
tensor is read back (a small, explicit transfer), as MindSpore's shape inference reads it.
"""
import numpy as _np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.ops import _higher
from mindspore.ops._defs import array_more as _arr
from mindspore.ops._defs import complex_ops as _cplx
from mindspore.ops._defs import linalg as _linalg
from mindspore.ops._defs import linalg_more as _linalg_more
from mindspore.ops._defs import math_prims as _math_prims
from mindspore.ops._defs.array import cached_prim
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import reduce_func as _reduce

__all__ = [
    "index_add", "inplace_add", "inplace_sub", "inplace_update", "inplace_index_add", "zero_", "tanh_", "clamp_",
    "uniform_", "normal_", "random_", "exponential_", "bernoulli_", "put_", "erfinv_", "inplace_sigmoid",
    "matrix_diag", "matrix_diag_part", "matrix_set_diag", "batch_to_space_nd", "space_to_batch_nd", "batch_dot",
    "accumulate_n", "take", "matrix_solve", "lstsq", "svd", "pinv", "matrix_exp", "eig", "eigvals", "geqrf", "orgqr",
    "lu_unpack", "lu_solve", "ormqr", "real", "imag", "conj", "angle", "view_as_real",
    "baddbmm_ext", "diff_ext", "adaptive_avg_pool2d_ext", "bernoulli_ext", "polar",
]


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")


from mindspore.ops.function.misc_func import _write_back  # noqa: E402 - a Parameter written, its values returned


# --- index_add and the Inplace* row updates --------------------------------------------------------------
def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """Add the slices of ``y`` along ``axis`` into the slices ``indices`` of ``x`` (a Parameter is updated in
    place; its new values are returned).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="x")
        >>> print(ops.index_add(x, ms.Tensor([0, 2], ms.int32), ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), 0))
        [[2. 3.]
         [1. 1.]
         [4. 5.]]
    """
    _check_tensor("IndexAdd", "x", x)
    return _write_back(x, cached_prim(_arr.IndexAdd, axis, use_lock, check_index_bound)(x, indices, y))


def inplace_index_add(var, indices, updates, axis):
    """``var`` (a Parameter, updated in place; its new values are returned) gets ``updates`` added at ``indices``
    along ``axis`` (primitive ``InplaceIndexAdd``)."""
    _check_tensor("InplaceIndexAdd", "var", var)
    return _write_back(var, cached_prim(_math_prims.InplaceIndexAdd, axis)(var, indices, updates))


def _rows(indices):
    return tuple(indices) if isinstance(indices, (tuple, list)) else indices


def inplace_add(x, v, indices):
    """``x`` with ``v[k]`` added to row ``indices[k]`` (``indices`` an int or a tuple of ints).

    Examples:
        >>> print(ops.inplace_add(ms.Tensor(np.ones((3, 2), np.float32)), ms.Tensor([[1.0, 2.0]]), 1))
        [[1. 1.]
         [2. 3.]
         [1. 1.]]
    """
    return cached_prim(_arr.InplaceAdd, _rows(indices))(x, v)


def inplace_sub(x, v, indices):
    """``x`` with ``v[k]`` subtracted from row ``indices[k]``."""
    return cached_prim(_arr.InplaceSub, _rows(indices))(x, v)


def inplace_update(x, v, indices):
    """``x`` with row ``indices[k]`` replaced by ``v[k]`` (``indices`` an int, a tuple or an int tensor)."""
    if isinstance(indices, Tensor):
        return cached_prim(_arr.InplaceUpdateV2)(x, indices, v)
    return cached_prim(_arr.InplaceUpdate, _rows(indices))(x, v)


# --- the in-place Tensor methods as functions --------------------------------------------------------------
def zero_(input):
    """Fill ``input`` with zeros in place and return it."""
    return input.zero_()


def tanh_(input):
    """``input = tanh(input)`` in place."""
    return input.tanh_()


def clamp_(input, min=None, max=None):  # noqa: A002 - MindSpore's names
    """``input = clamp(input, min, max)`` in place."""
    return input.clamp_(min, max)


def uniform_(input, from_=0, to=1, *, generator=None):
    """Fill ``input`` in place with values drawn uniformly from ``[from_, to)``."""
    return input.uniform_(from_, to, generator=generator)


def normal_(input, mean=0, std=1, *, generator=None):
    """Fill ``input`` in place with normal samples of ``mean`` and ``std``."""
    return input.normal_(mean, std, generator=generator)


def random_(input, from_=0, to=None, *, generator=None):
    """Fill ``input`` in place with integers drawn uniformly from ``[from_, to)``."""
    return input.random_(from_, to, generator=generator)


def exponential_(input, lambd=1, *, generator=None):
    """Fill ``input`` in place with exponential samples of rate ``lambd``."""
    return input.exponential_(lambd, generator=generator)


def bernoulli_(input, p=0.5, *, generator=None):
    """Fill ``input`` in place with Bernoulli(``p``) samples (0 or 1)."""
    return input.bernoulli_(p, generator=generator)


def put_(input, index, source, accumulate=False):
    """Write (``accumulate``: add) ``source`` into the flattened ``input`` at ``index``, in place."""
    return input.put_(index, source, accumulate)


def erfinv_(input):
    """``input = erfinv(input)`` in place."""
    return input.erfinv_()


def inplace_sigmoid(input):
    """``input = sigmoid(input)`` in place."""
    return input.sigmoid_()


# --- diagonals --------------------------------------------------------------------------------------------
_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _k_pair(op, k):
    if isinstance(k, Tensor):
        k = k.asnumpy().reshape(-1).tolist()
    ks = list(k) if isinstance(k, (list, tuple)) else [k]
    if not 1 <= len(ks) <= 2 or any(isinstance(v, bool) or not isinstance(v, (int, _np.integer)) for v in ks):
        raise MSValueError(f"For '{op}', 'k' must be an int or a pair of ints, but got {k}.")
    lo, hi = int(ks[0]), int(ks[-1])
    if lo > hi:
        raise MSValueError(f"For '{op}', k[0] must not be greater than k[1], but got k = {ks}.")
    return lo, hi, len(ks) == 1


def _check_align(op, align):
    if align not in _ALIGNS:
        raise MSValueError(f"For '{op}', 'align' must be one of {list(_ALIGNS)}, but got {align!r}.")


def _pad_value(value, dtype):
    return _array.cast(value if isinstance(value, Tensor) else Tensor(value), dtype)


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices with the diagonals ``k`` (an int, or ``(low, high)``) taken from ``x`` and ``padding_value``
    elsewhere; ``num_rows``/``num_cols`` of -1 give the smallest fitting (square) size (primitive
    ``MatrixDiagV3``).

    Examples:
        >>> print(ops.matrix_diag(ms.Tensor([[1.0, 2.0]]), k=1))
        [[[0. 1. 0.]
          [0. 0. 2.]
          [0. 0. 0.]]]
    """
    _check_tensor("MatrixDiagV3", "x", x)
    _check_align("MatrixDiagV3", align)
    lo, hi, single = _k_pair("MatrixDiagV3", k)
    return cached_prim(_math_prims.MatrixDiagV3, align)(x, lo if single else (lo, hi), int(_scalar(num_rows)),
                                                        int(_scalar(num_cols)), _pad_value(padding_value, x.dtype))


def _scalar(v):
    return v.asnumpy().reshape(-1)[0] if isinstance(v, Tensor) else v


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """The diagonals ``k`` (an int or ``(low, high)``) of the innermost matrices of ``x``, packed into rows of
    the longest diagonal's length and filled with ``padding_value`` (primitive ``MatrixDiagPartV3``).

    Examples:
        >>> x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
        >>> print(ops.matrix_diag_part(x, ms.Tensor(1, ms.int32), ms.Tensor(0.0)))
        [ 1.  6. 11.]
    """
    _check_tensor("MatrixDiagPartV3", "x", x)
    _check_align("MatrixDiagPartV3", align)
    lo, hi, single = _k_pair("MatrixDiagPartV3", k)
    return cached_prim(_math_prims.MatrixDiagPartV3, align)(x, lo if single else (lo, hi),
                                                            _pad_value(padding_value, x.dtype))


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    """``x`` with its diagonals ``k`` replaced by the packed ``diagonal`` (as ``matrix_diag_part`` gives them;
    primitive ``MatrixSetDiagV3``).

    Examples:
        >>> print(ops.matrix_set_diag(ms.Tensor(np.zeros((2, 2), np.float32)), ms.Tensor([1.0, 2.0])))
        [[1. 0.]
         [0. 2.]]
    """
    _check_tensor("MatrixSetDiagV3", "x", x)
    _check_tensor("MatrixSetDiagV3", "diagonal", diagonal)
    _check_align("MatrixSetDiagV3", align)
    lo, hi, single = _k_pair("MatrixSetDiagV3", k)
    return cached_prim(_math_prims.MatrixSetDiagV3, align)(x, _array.cast(diagonal, x.dtype),
                                                           lo if single else (lo, hi))


# --- batch <-> space ---------------------------------------------------------------------------------------
def _block(op, block, spatial):
    blocks = (block,) * spatial if isinstance(block, int) else tuple(block)
    if len(blocks) != spatial or any(isinstance(b, bool) or not isinstance(b, int) or b < 1 for b in blocks):
        raise MSValueError(f"For '{op}', the block shape must be {spatial} positive ints, but got {block}.")
    return blocks


def _pairs(op, value, spatial, name):
    if isinstance(value, Tensor):
        value = value.asnumpy().tolist()
    pairs = [tuple(int(v) for v in p) for p in value]
    if len(pairs) != spatial or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise MSValueError(f"For '{op}', the '{name}' must be {spatial} pairs of non-negative ints, but got "
                           f"{value}.")
    return pairs


def batch_to_space_nd(input_x, block_shape, crops):
    """Move blocks of the batch into the spatial dimensions (NC + spatial layout), then crop.

    Examples:
        >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(4, 1, 1, 2))
        >>> print(ops.batch_to_space_nd(x, (2, 2), [[0, 0], [0, 1]]))
        [[[[0. 2. 1.]
           [4. 6. 5.]]]]
    """
    _check_tensor("BatchToSpaceND", "input_x", input_x)
    spatial = input_x.ndim - 2
    blocks = _block("BatchToSpaceND", block_shape, spatial)
    crop = _pairs("BatchToSpaceND", crops, spatial, "crops")
    prod = int(_np.prod(blocks))
    if input_x.shape[0] % prod:
        raise MSValueError(f"For 'BatchToSpaceND', the batch {input_x.shape[0]} must be divisible by the product of "
                           f"'block_shape' {prod}.")
    batch, channels, sizes = input_x.shape[0] // prod, input_x.shape[1], input_x.shape[2:]
    y = _array.reshape(input_x, blocks + (batch, channels) + tuple(sizes))
    perm = [spatial, spatial + 1]
    for i in range(spatial):
        perm += [spatial + 2 + i, i]
    y = _array.transpose(y, tuple(perm))
    full = tuple(s * b for s, b in zip(sizes, blocks))
    y = _array.reshape(y, (batch, channels) + full)
    for i, (before, after) in enumerate(crop):
        if before + after > full[i]:
            raise MSValueError(f"For 'BatchToSpaceND', the crops {crop[i]} exceed the size {full[i]}.")
        y = _array.narrow(y, 2 + i, before, full[i] - before - after)
    return y


def space_to_batch_nd(input_x, block_size, paddings):
    """Zero-pad the spatial dimensions (NC + spatial layout), then move their blocks into the batch.

    Examples:
        >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4))
        >>> print(ops.space_to_batch_nd(x, (2, 2), [[0, 0], [0, 2]]).shape)
        (4, 1, 1, 3)
    """
    _check_tensor("SpaceToBatchND", "input_x", input_x)
    spatial = input_x.ndim - 2
    blocks = _block("SpaceToBatchND", block_size, spatial)
    pads = _pairs("SpaceToBatchND", paddings, spatial, "paddings")
    flat_pads = []
    for before, after in reversed(pads):
        flat_pads += [before, after]
    y = _array.pad(input_x, tuple(flat_pads)) if any(flat_pads) else input_x
    batch, channels, sizes = y.shape[0], y.shape[1], y.shape[2:]
    for s, b in zip(sizes, blocks):
        if s % b:
            raise MSValueError(f"For 'SpaceToBatchND', the padded spatial size {s} must be divisible by the block "
                               f"size {b}.")
    split = []
    for s, b in zip(sizes, blocks):
        split += [s // b, b]
    y = _array.reshape(y, (batch, channels) + tuple(split))
    perm = [3 + 2 * i for i in range(spatial)] + [0, 1] + [2 + 2 * i for i in range(spatial)]
    y = _array.transpose(y, tuple(perm))
    return _array.reshape(y, (batch * int(_np.prod(blocks)), channels) + tuple(s // b for s, b in zip(sizes, blocks)))


# --- products and solves -------------------------------------------------------------------------------------
def batch_dot(x1, x2, axes=None):
    """Per-batch-row dot products contracting ``axes`` (an int or a pair; default the last axis of ``x1`` with
    the last of a 2-D ``x2``, else its second last); a 1-D result gets a trailing axis of size 1.

    Examples:
        >>> x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
        >>> print(ops.batch_dot(x, x))
        [[ 5.]
         [50.]]
    """
    _check_tensor("batch_dot", "x1", x1)
    _check_tensor("batch_dot", "x2", x2)
    if x1.ndim < 2 or x2.ndim < 2 or x1.shape[0] != x2.shape[0]:
        raise MSValueError(f"For 'batch_dot', the inputs must be at least 2-D with the same batch size, but got "
                           f"{x1.shape} and {x2.shape}.")
    if axes is None:
        axes = (x1.ndim - 1, x2.ndim - 1 if x2.ndim == 2 else x2.ndim - 2)
    elif isinstance(axes, int):
        axes = (axes, axes)
    a1, a2 = (a % x.ndim for a, x in zip(axes, (x1, x2)))
    if 0 in (a1, a2) or x1.shape[a1] != x2.shape[a2]:
        raise MSValueError(f"For 'batch_dot', the contracted axes {tuple(axes)} must not be the batch axis and must "
                           f"have the same size, but got shapes {x1.shape} and {x2.shape}.")
    y1 = _array.moveaxis(x1, a1, -1)
    y2 = _array.moveaxis(x2, a2, 1)
    rest1, rest2 = y1.shape[1:-1], y2.shape[2:]
    k = x1.shape[a1]
    m = int(_np.prod(rest1)) if rest1 else 1
    n = int(_np.prod(rest2)) if rest2 else 1
    out = _math.bmm(_array.reshape(y1, (x1.shape[0], m, k)), _array.reshape(y2, (x1.shape[0], k, n)))
    out = _array.reshape(out, (x1.shape[0],) + tuple(rest1) + tuple(rest2))
    return _array.expand_dims(out, 1) if out.ndim == 1 else out


def accumulate_n(x):
    """The elementwise sum of a list or tuple of tensors of one shape (primitive ``AccumulateNV2``)."""
    if not isinstance(x, (list, tuple)):
        raise MSTypeError(f"For 'AccumulateNV2', the 'x' must be a list or tuple of Tensors, but got "
                          f"{type(x).__name__}.")
    return cached_prim(_math_prims.AccumulateNV2)(tuple(x))


def take(input, index):
    """The elements of the flattened ``input`` at ``index`` (any shape).

    Examples:
        >>> print(ops.take(ms.Tensor([[4.0, 3.0], [5.0, 6.0]]), ms.Tensor([[0, 3]])))
        [[4. 6.]]
    """
    _check_tensor("take", "input", input)
    return _array.gather(_array.reshape(input, (-1,)), index, 0)


def _solve_inverse(a):
    return cached_prim(_linalg.MatrixInverse)(a)


def matrix_solve(matrix, rhs, adjoint=False):
    """``X`` with ``matrix @ X = rhs`` (``adjoint``: with the matrix transposed) for batches of square systems.

    Examples:
        >>> print(ops.matrix_solve(ms.Tensor([[2.0, 1.0], [1.0, 3.0]]), ms.Tensor([[1.0], [2.0]])))
        [[0.2]
         [0.6]]
    """
    _check_tensor("MatrixSolve", "matrix", matrix)
    _check_tensor("MatrixSolve", "rhs", rhs)
    return cached_prim(_linalg_more.MatrixSolve, adjoint)(matrix, rhs)


def svd(input, full_matrices=False, compute_uv=True):
    """The singular value decomposition ``input = U diag(S) V^T``: ``(S, U, V)``, or ``S`` alone when
    ``compute_uv`` is False.

    Examples:
        >>> s = ops.svd(ms.Tensor([[3.0, 0.0], [0.0, 4.0]]), compute_uv=False)
        >>> print(s)
        [4. 3.]
    """
    _check_tensor("Svd", "input", input)
    s, u, v = cached_prim(_linalg_more.Svd, full_matrices, compute_uv)(input)
    return (s, u, v) if compute_uv else s


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse through the SVD: singular values at most ``max(atol, rtol * s_max)``
    are dropped (default ``rtol``: ``max(M, N)`` times the dtype's epsilon when ``atol`` is not given).

    Examples:
        >>> print(ops.pinv(ms.Tensor([[2.0, 0.0], [0.0, 0.0]])))
        [[0.5 0. ]
         [0.  0. ]]
    """
    _check_tensor("pinv", "x", x)
    if x.dtype not in (mstype.float32, mstype.float64):
        raise MSTypeError(f"For 'pinv', the 'x' must be float32 or float64, but got {x.dtype}.")
    s, u, v = cached_prim(_linalg_more.Svd, False, True)(x)
    if rtol is None:
        rtol = 0.0 if atol is not None else max(x.shape[-2:]) * float(_np.finfo(mstype.dtype_to_nptype(x.dtype)).eps)
    cut = _math.mul(_reduce.reduce_max(s, -1, True), rtol)
    if atol is not None:
        cut = _math.maximum(cut, _array.cast(atol if isinstance(atol, Tensor) else Tensor(float(atol)), s.dtype))
    keep = _math.greater(s, cut)
    safe = _array.select(keep, s, _array.ones_like(s))
    inv_s = _array.select(keep, _math.reciprocal(safe), _array.zeros_like(s))
    return _math.matmul(_math.mul(v, _array.expand_dims(inv_s, -2)), _array.swapaxes(u, -1, -2))


def matrix_exp(input):
    """The matrix exponential of each square matrix.

    Examples:
        >>> print(ops.matrix_exp(ms.Tensor([[0.0, 0.0], [0.0, 1.0]])))
        [[1.        0.       ]
         [0.        2.7182817]]
    """
    _check_tensor("MatrixExp", "input", input)
    return cached_prim(_linalg_more.MatrixExp)(input)


def eig(A):
    """The eigenvalues and right eigenvectors (columns) of each square matrix, both complex."""
    _check_tensor("Eig", "A", A)
    return cached_prim(_linalg_more.Eig, True)(A)


def eigvals(A):
    """The (complex) eigenvalues of each square matrix."""
    _check_tensor("Eig", "A", A)
    return cached_prim(_linalg_more.Eig, False)(A)[0]


def geqrf(input):
    """LAPACK's QR factorisation ``(a, tau)``: R on and above the diagonal of ``a``, the Householder vectors
    below it and their scales ``tau``."""
    _check_tensor("Geqrf", "input", input)
    return cached_prim(_linalg_more.Geqrf)(input)


def orgqr(input, input2):
    """The Q of a QR factorisation from ``geqrf``'s Householder representation ``(input, input2 = tau)``."""
    _check_tensor("Orgqr", "input", input)
    return cached_prim(_linalg_more.Orgqr)(input, input2)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` of a packed LU factorisation with 1-based LAPACK pivots, ``A = P @ L @ U``.

    Examples:
        >>> p, l, u = ops.lu_unpack(ms.Tensor([[3.0, 4.0], [0.5, 1.0]]), ms.Tensor([2, 2], ms.int32))
        >>> print(p)
        [[0. 1.]
         [1. 0.]]
    """
    _check_tensor("LuUnpack", "LU_data", LU_data)
    return cached_prim(_linalg_more.LuUnpack, unpack_data, unpack_pivots)(LU_data, LU_pivots)


def lstsq(input, A):
    """The least-squares solution ``X`` of ``input @ X = A`` for a full-column-rank ``input`` (M, N)
    (primitive ``Lstsq``).

    Examples:
        >>> x = ms.Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]])
        >>> print(ops.lstsq(x, ms.Tensor([[1.0], [2.0], [3.0]])).shape)
        (2, 1)
    """
    _check_tensor("Lstsq", "input", input)
    _check_tensor("Lstsq", "A", A)
    return cached_prim(_math_prims.Lstsq)(input, A)


def lu_solve(b, LU_data, LU_pivots):
    """``X`` with ``A @ X = b`` for the packed LU factorisation ``(LU_data, LU_pivots)`` of ``A`` (1-based
    pivots; primitive ``LuSolve``).

    Examples:
        >>> lu = ms.Tensor([[2.0, 1.0], [0.5, 2.5]])
        >>> print(ops.lu_solve(ms.Tensor([[3.0], [4.0]]), lu, ms.Tensor([1, 2], ms.int32)))
        [[1.]
         [1.]]
    """
    _check_tensor("LuSolve", "b", b)
    _check_tensor("LuSolve", "LU_data", LU_data)
    _check_tensor("LuSolve", "LU_pivots", LU_pivots)
    return cached_prim(_math_prims.LuSolve)(b, LU_data, LU_pivots)


def ormqr(input, tau, other, left=True, transpose=False):
    """``Q @ other`` (``left``; else ``other @ Q``, ``transpose``: with ``Q^H``) for the full ``Q`` (M, M) of the
    Householder representation ``(input, tau)`` that ``geqrf`` gives (primitive ``Ormqr``)."""
    _check_tensor("Ormqr", "input", input)
    _check_tensor("Ormqr", "tau", tau)
    _check_tensor("Ormqr", "other", other)
    return cached_prim(_math_prims.Ormqr, left, transpose)(input, tau, other)


# --- complex views ---------------------------------------------------------------------------------------------
def _is_complex(x):
    return x.dtype in (mstype.complex64, mstype.complex128)


def real(input):
    """The real part of a complex tensor (the tensor itself for a real one).

    Examples:
        >>> print(ops.real(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [1.]
    """
    _check_tensor("Real", "input", input)
    return cached_prim(_cplx.Real)(input) if _is_complex(input) else input


def imag(input):
    """The imaginary part of a complex tensor.

    Examples:
        >>> print(ops.imag(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [2.]
    """
    _check_tensor("Imag", "input", input)
    return cached_prim(_cplx.Imag)(input)


def conj(input):
    """The complex conjugate (the tensor itself for a real one).

    Examples:
        >>> print(ops.conj(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [1.-2.j]
    """
    _check_tensor("Conj", "input", input)
    return cached_prim(_cplx.Conj)(input) if _is_complex(input) else input


def angle(input):
    """The argument ``atan2(imag, real)`` of each element of a complex tensor.

    Examples:
        >>> print(ops.angle(ms.Tensor(np.array([1j], np.complex64))))
        [1.5707964]
    """
    _check_tensor("Angle", "input", input)
    return cached_prim(_cplx.Angle)(input)


def view_as_real(input):
    """A complex tensor as a real one with a trailing axis of size 2 (real, imaginary).

    Examples:
        >>> print(ops.view_as_real(ms.Tensor(np.array([1 + 2j], np.complex64))))
        [[1. 2.]]
    """
    _check_tensor("view_as_real", "input", input)
    if not _is_complex(input):
        raise MSTypeError(f"For 'view_as_real', the 'input' must be a complex tensor, but got {input.dtype}.")
    return _array.stack((real(input), imag(input)), -1)


# --- MindSpore's *_ext names of mint functions ----------------------------------------------------------------
def baddbmm_ext(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * (batch1 @ batch2)`` over batches (``mint.baddbmm``)."""
    return _higher.get("mint").baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``mint.diff``)."""
    return _higher.get("mint").diff(input, n, dim, prepend, append)


def adaptive_avg_pool2d_ext(input, output_size):
    """2-D adaptive average pooling (``mint.nn.functional.adaptive_avg_pool2d``)."""
    return _higher.get("mint_functional").adaptive_avg_pool2d(input, output_size)


def bernoulli_ext(input, *, generator=None):
    """0/1 samples with the probabilities ``input`` (``mint.bernoulli``)."""
    return _higher.get("mint").bernoulli(input, generator=generator)


def polar(abs, angle):  # noqa: A002 - MindSpore's names
    """The complex tensor ``abs * (cos(angle) + i sin(angle))`` (primitive ``Polar``).

    Examples:
        >>> print(ops.polar(ms.Tensor([2.0]), ms.Tensor([0.0])))
        [2.+0.j]
    """
    _check_tensor("Polar", "abs", abs)
    _check_tensor("Polar", "angle", angle)
    return cached_prim(_math_prims.Polar)(abs, angle)
