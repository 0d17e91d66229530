"""Linear algebra of ``mindspore.scipy`` (SciPy's ``scipy.linalg`` API, MindSpore 2.10's semantics).

Every function is a composition of primitives, so it runs in PYNATIVE and GRAPH_MODE and is differentiable
where its primitives are: ``inv`` (``MatrixInverse``), ``cholesky``/``cho_factor`` (``Cholesky``),
``solve_triangular``/``cho_solve`` (``MatrixTriangularSolve``; a unit diagonal is substituted before the
solve, a vector right-hand side solved as one column), ``eigh`` (``Eigh``), ``lstsq`` (``LstsqV2``);
``lu``/``lu_factor`` (``LU``) are not differentiable, as in 2.10. Integer input is computed in float64 (in
float32/float64 by ``solve_triangular``, as 2.10). Argument checks give 2.10's messages (``utils_const``).
"""
import numpy as np

from mindspore import ops
from mindspore.common import Tensor
from mindspore.common import dtype as mstype
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.ops._defs.linalg_more import Cholesky, MatrixTriangularSolve
from mindspore.ops._defs.linalg_scipy import Eigh, LstsqV2, LU
from mindspore.ops._defs.array import cached_prim
from mindspore.scipy.utils import _nd_transpose
from mindspore.scipy.utils_const import (_check_bool, _check_dtype, _check_int, _check_ndim,
                                         _check_not_implemented, _check_same_dtype, _check_solve_shapes,
                                         _check_square, _check_tensor, _raise_value_error)

__all__ = ['block_diag', 'inv', 'cho_factor', 'cholesky', 'cho_solve', 'eigh', 'lu_factor', 'lu',
           'solve_triangular', 'lstsq']

_INT_FLOAT = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)
_TRANS = {'N': 0, 'T': 1, 'C': 2}


def _float64_if_int(a):
    return ops.cast(a, mstype.float64) if a.dtype in (mstype.int32, mstype.int64) else a


def _check_square_input(func_name, a, *flags):
    """The common checks of the square-matrix functions: bool flags, a Tensor, its dtype, its shape."""
    for name, value in flags:
        _check_bool(func_name, value, name)
    _check_tensor(func_name, a)
    _check_dtype(func_name, a.dtype, _INT_FLOAT)
    _check_square(func_name, a.shape)
    return _float64_if_int(a)


def _shape_str(shape):
    """A shape as 2.10's C++ layer prints it in these messages."""
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"


def _solve_shapes(a_shape, b_shape):
    """2.10's shape rules of ``solve_triangular``: ``a`` (..., N, N), ``b`` (..., N, M) or (..., N) with the
    same batch. Returns whether ``b`` is a vector (batch)."""
    op = "SolveTriangular"
    if len(a_shape) < 2:
        raise MSValueError(f"For '{op}', dim of matrix a must greater or equal to 2, but got a at {len(a_shape)}-"
                           f"dimensional ")
    if a_shape[-1] != a_shape[-2]:
        raise MSValueError(f"For '{op}', the last two dimensions of `a` should be the same, but got shape of "
                           f"{_shape_str(a_shape)}. Please make sure that the shape of `a` be like [..., N, N].")
    if len(b_shape) not in (len(a_shape), len(a_shape) - 1):
        raise MSValueError(f"For '{op}', the dimension of `b` should be 'a.dim' or 'a.dim' - 1, which is "
                           f"{len(a_shape)} or {len(a_shape) - 1}, but got {len(b_shape)}-dimensions.")
    vector = len(b_shape) == len(a_shape) - 1
    rows = b_shape[-1] if vector else b_shape[-2]
    if rows != a_shape[-1]:
        raise MSValueError(f"For '{op}', the last two dimensions of `a` and `b` should be matched, but got shape of "
                           f"{_shape_str(a_shape)} and {_shape_str(b_shape)}. Please make sure that the shape of `a` "
                           f"and `b` be like [..., N, N] X [..., N, M] or [..., N, N ] X[..., N].")
    batch_b = b_shape[:-1] if vector else b_shape[:-2]
    if tuple(batch_b) != tuple(a_shape[:-2]):
        raise MSValueError(f"For '{op}', the batch dimensions of `a` and `b` should all be the same, but got shape of "
                           f"{_shape_str(a_shape)} and {_shape_str(b_shape)}. Please make sure that the shape of `a` "
                           f"and `b` be like [a, b, c, ..., N, N] X [a, b, c, ..., N, M] or [a, b, c, ..., N, N] X "
                           f"[a, b, c, ..., N].")
    return vector


def _trans_code(trans):
    if isinstance(trans, str):
        if trans not in _TRANS:
            raise MSValueError("For SolveTriangular, Augment[trans] must be one of [1, 2, 3,'N', 'T', 'C'].")
        return _TRANS[trans]
    if trans not in (0, 1, 2):
        raise MSRuntimeError(f"For 'SolveTriangular', 'trans' must be in [0, 1, 2, 'N', 'T', 'C'], but got "
                             f"[{trans}].")
    return trans


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, debug=None,
                     check_finite=True):
    """Solve the linear system :math:`a x = b` for `x`, assuming `a` is a triangular matrix.

    Args:
        a (Tensor): A triangular matrix of shape :math:`(*, M, M)`.
        b (Tensor): A Tensor of shape :math:`(*, M)` or :math:`(*, M, N)`, the right-hand side.
        trans (Union[int, str], optional): The system to solve: ``0``/``'N'`` :math:`a x = b`, ``1``/``'T'``
            :math:`a^T x = b`, ``2``/``'C'`` :math:`a^H x = b`. Default: ``0``.
        lower (bool, optional): Use only the lower triangle of `a`. Default: ``False``.
        unit_diagonal (bool, optional): Assume the diagonal of `a` is 1 (it is not read). Default: ``False``.
        overwrite_b (bool, optional): Not implemented. Default: ``False``.
        debug (Any, optional): Not implemented. Default: ``None``.
        check_finite (bool, optional): Not implemented. Default: ``True``.

    Returns:
        Tensor of the shape of `b`, the solution `x`. Integer input gives float32 (int32) or float64 (int64).

    Raises:
        ValueError: If `a` has fewer than 2 dimensions, is not square, or does not fit `b`.
        TypeError: If the dtypes of `a` and `b` differ.
        ValueError: If `trans` is not one of 0, 1, 2, 'N', 'T', 'C'.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> import mindspore
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import solve_triangular
        >>> a = Tensor(onp.array([[3, 0, 0, 0], [2, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1]], onp.float64))
        >>> b = Tensor(onp.array([3, 1, 3, 4], onp.float64))
        >>> x = solve_triangular(a, b, lower=True)
        >>> print(x)
        [ 1. -1.  2.  2.]
    """
    trans = _trans_code(trans)
    vector = _solve_shapes(a.shape, b.shape)
    if a.dtype != b.dtype:
        raise MSTypeError("For 'SolveTriangular' the type of a and b must be same, but got type of a is different "
                          "from that of b! ")
    dtype = a.dtype
    work = {mstype.int8: mstype.float32, mstype.int16: mstype.float32, mstype.int32: mstype.float32,
            mstype.int64: mstype.float64, mstype.float16: mstype.float32}.get(dtype, dtype)
    a, b = ops.cast(a, work), ops.cast(b, work)
    if unit_diagonal:
        n = a.shape[-1]
        eye = ops.eye(n, n, work)
        a = ops.tril(a, -1) + eye if lower else ops.triu(a, 1) + eye
    if vector:
        b = ops.expand_dims(b, -1)
    x = cached_prim(MatrixTriangularSolve, lower, trans != 0)(a, b)
    if vector:
        x = ops.squeeze(x, -1)
    return ops.cast(x, dtype) if dtype == mstype.float16 else x


def block_diag(*arrs):
    """Create a block diagonal matrix from the provided Tensors (each 0-D, 1-D or 2-D; a lower-rank one counts
    as a row).

    Args:
        arrs (list): One or more Tensors of at most 2 dimensions.

    Returns:
        Tensor with the inputs on its diagonal (dtype promoted over the inputs); ``zeros((1, 0))`` for none.

    Raises:
        ValueError: If a Tensor has more than 2 dimensions.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import block_diag
        >>> A = Tensor(onp.array([[1, 0], [0, 1]]))
        >>> B = Tensor(onp.array([[3, 4, 5], [6, 7, 8]]))
        >>> C = Tensor(onp.array([[7]]))
        >>> print(block_diag(A, B, C).shape)
        (5, 6)
    """
    if not arrs:
        return ops.zeros((1, 0), mstype.float32)
    if any(a.ndim > 2 for a in arrs):
        _raise_value_error("Arguments to mindspore.scipy.linalg.block_diag must have at most 2 dimensions.")
    rows = [ops.atleast_2d(a) for a in arrs]
    dtype = rows[0].dtype
    for r in rows[1:]:
        dtype = _promote(dtype, r.dtype)
    total = sum(r.shape[1] for r in rows)
    blocks, before = [], 0
    for r in rows:
        width = r.shape[1]
        blocks.append(ops.pad(ops.cast(r, dtype), (before, total - before - width)))
        before += width
    return ops.concat(blocks, 0)


def _promote(a, b):
    """The dtype MindSpore's arithmetic gives two tensors of dtypes ``a`` and ``b``."""
    return (ops.zeros((), a) + ops.zeros((), b)).dtype


def inv(a, overwrite_a=False, check_finite=True):
    """Compute the inverse of a matrix.

    Args:
        a (Tensor): Square matrix (M, M) to invert (int32/int64 computed in float64).
        overwrite_a (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        Tensor, the inverse of `a` (a singular matrix gives MatrixInverse's rank-limited result, as 2.10).

    Raises:
        TypeError: If `a` is not a Tensor of int32, int64, float32 or float64, or a flag is not bool.
        ValueError: If `a` is not 2-D square.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import inv
        >>> print(inv(Tensor(onp.array([[1., 2.], [3., 4.]]))))
        [[-2.   1. ]
         [ 1.5 -0.5]]
    """
    func_name = "inv"
    _check_bool(func_name, overwrite_a, 'overwrite_a')
    _check_bool(func_name, check_finite, 'check_finite')
    _check_tensor(func_name, a)
    _check_square(func_name, a.shape)
    _check_dtype(func_name, a.dtype, _INT_FLOAT)
    return ops.MatrixInverse(adjoint=False)(_float64_if_int(a))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """Compute the Cholesky decomposition of a matrix, to use in :func:`mindspore.scipy.linalg.cho_solve`.

    Args:
        a (Tensor): Square symmetric positive definite matrix (M, M).
        lower (bool, optional): Return the lower factor :math:`A = L L^*` (else the upper :math:`A = U^* U`).
            Default: ``False``.
        overwrite_a (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        - Tensor, the triangular Cholesky factor (the other triangle is zero here).
        - bool, `lower`.

    Raises:
        ValueError: If `a` is not 2-D square.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import cho_factor
        >>> c, low = cho_factor(Tensor(onp.array([[4., 2.], [2., 5.]])))
        >>> print(c)
        [[2. 1.]
         [0. 2.]]
    """
    return _cholesky("cho_factor", a, lower, overwrite_a, check_finite), lower


def _cholesky(func_name, a, lower, overwrite_a, check_finite):
    a = _check_square_input(func_name, a, ('overwrite_a', overwrite_a), ('check_finite', check_finite),
                            ('lower', lower))
    c = cached_prim(Cholesky)(a)
    return c if lower else _nd_transpose(c)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """Compute the Cholesky decomposition of a matrix.

    Args:
        a (Tensor): Square symmetric positive definite matrix (M, M) (int32/int64 computed in float64).
        lower (bool, optional): Return the lower factor :math:`A = L L^*` (else the upper :math:`A = U^* U`).
            Default: ``False``.
        overwrite_a (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        Tensor, the upper or lower triangular Cholesky factor of `a`.

    Raises:
        ValueError: If `a` is not 2-D square.
        RuntimeError: If `a` is not positive definite.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import cholesky
        >>> print(cholesky(Tensor(onp.array([[1., 2.], [2., 5.]])), lower=True))
        [[1. 0.]
         [2. 1.]]
    """
    return _cholesky("cholesky", a, lower, overwrite_a, check_finite)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """Solve :math:`A x = b` given the Cholesky factorization of :math:`A` (from ``cho_factor``).

    Args:
        c_and_lower ((Tensor, bool)): The factor of :math:`A` and whether it is the lower one.
        b (Tensor): The right-hand side, (M,) or (M, K).
        overwrite_b (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        Tensor, the solution `x`.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import cho_factor, cho_solve
        >>> a = Tensor(onp.array([[4., 2.], [2., 5.]]))
        >>> print(cho_solve(cho_factor(a), Tensor(onp.array([2., 1.]))))
        [0.5 0. ]
    """
    func_name = "cho_solve"
    c, lower = c_and_lower
    _check_bool(func_name, overwrite_b, 'overwrite_b')
    _check_bool(func_name, check_finite, 'check_finite')
    _check_bool(func_name, lower, 'lower')
    _check_tensor(func_name, c, 'c')
    _check_tensor(func_name, b, 'b')
    _check_dtype(func_name, c.dtype, _INT_FLOAT, 'c')
    _check_dtype(func_name, b.dtype, _INT_FLOAT, 'b')
    _check_solve_shapes(func_name, c.shape, b.shape, 'c', 'b')
    _check_same_dtype(func_name, c.dtype, b.dtype, 'c', 'b')
    if c.dtype in (mstype.int32, mstype.int64):
        c, b = ops.cast(c, mstype.float64), ops.cast(b, mstype.float64)
    # A = L L^T: L y = b, then L^T x = y (with the upper factor U = L^T the same two solves)
    first, second = (0, 1) if lower else (1, 0)
    y = solve_triangular(c, b, trans=first, lower=lower)
    return solve_triangular(c, y, trans=second, lower=lower)


def eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False, turbo=True,
         eigvals=None, type=1, check_finite=True):  # pylint: disable=redefined-builtin
    """Solve the standard eigenvalue problem of a complex Hermitian or real symmetric matrix.

    Args:
        a (Tensor): Square Hermitian matrix (M, M) (int32/int64 computed in float64).
        b (Tensor, optional): Not implemented: must be ``None``. Default: ``None``.
        lower (bool, optional): Read the lower triangle of `a` (else the upper). Default: ``True``.
        eigvals_only (bool, optional): Compute the eigenvalues only. Default: ``False``.
        overwrite_a (bool, optional): Not used. Default: ``False``.
        overwrite_b (bool, optional): Not used. Default: ``False``.
        turbo (bool, optional): Not used. Default: ``True``.
        eigvals (tuple, optional): Not implemented: must be ``None``. Default: ``None``.
        type (int, optional): Not used. Default: ``1``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        - Tensor, the eigenvalues (M,) in ascending order.
        - Tensor, the eigenvectors (M, M) as columns (not returned with `eigvals_only`).

    Raises:
        TypeError: If a flag is not bool, `type` not int, or `a` not a Tensor of a supported dtype.
        ValueError: If `a` is not 2-D square, or `b`/`eigvals` are given.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import eigh
        >>> w, v = eigh(Tensor(onp.array([[2., 1.], [1., 2.]])))
        >>> print(w)
        [1. 3.]
    """
    func_name = 'eigh'
    for name, value in (('lower', lower), ('eigvals_only', eigvals_only), ('overwrite_a', overwrite_a),
                        ('overwrite_b', overwrite_b), ('turbo', turbo)):
        _check_bool(func_name, value, name)
    _check_int(func_name, type, 'type')
    _check_bool(func_name, check_finite, 'check_finite')
    _check_tensor(func_name, a)
    _check_dtype(func_name, a.dtype, _INT_FLOAT + (mstype.complex64, mstype.complex128))
    _check_square(func_name, a.shape)
    _check_not_implemented(func_name, b, 'b')
    _check_not_implemented(func_name, eigvals, 'eigvals')
    return cached_prim(Eigh, not eigvals_only, lower)(_float64_if_int(a))


def lu_factor(a, overwrite_a=False, check_finite=True):
    """Compute the pivoted LU decomposition of a square matrix (for ``lu_solve``).

    Args:
        a (Tensor): Square matrix (M, M) (int32/int64 computed in float64).
        overwrite_a (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        - Tensor (M, M), `U` in its upper triangle and `L` (unit diagonal not stored) below.
        - Tensor (M,) int32, the 0-based pivots: row i was interchanged with row ``piv[i]``.

    Raises:
        ValueError: If `a` is not 2-D square.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import lu_factor
        >>> lu, piv = lu_factor(Tensor(onp.array([[1., 2.], [3., 4.]])))
        >>> print(piv)
        [1 1]
    """
    a = _check_square_input("lu_factor", a, ('overwrite_a', overwrite_a), ('check_finite', check_finite))
    m_lu, pivots, _ = cached_prim(LU)(a)
    return m_lu, pivots


def lu(a, permute_l=False, overwrite_a=False, check_finite=True):
    """Compute the pivoted LU decomposition :math:`A = P L U` of a general (M, N) matrix, M <= N.

    Args:
        a (Tensor): The (M, N) matrix (int32/int64 computed in float64).
        permute_l (bool, optional): Return :math:`P L` instead of `P` and `L`. Default: ``False``.
        overwrite_a (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        **If permute_l == False**: the permutation matrix `P` (M, M) (int32), `L` (M, K) with a unit diagonal,
        `U` (K, N) (K = min(M, N)). **If permute_l == True**: :math:`P L` (M, K) and `U` (K, N).

    Raises:
        ValueError: If `a` is not 2-D, or M > N.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import lu
        >>> p, l, u = lu(Tensor(onp.array([[1., 2.], [3., 4.]])))
        >>> print(p)
        [[0 1]
         [1 0]]
    """
    func_name = "lu"
    for name, value in (('permute_l', permute_l), ('overwrite_a', overwrite_a), ('check_finite', check_finite)):
        _check_bool(func_name, value, name)
    _check_tensor(func_name, a)
    _check_dtype(func_name, a.dtype, _INT_FLOAT)
    _check_ndim(func_name, a.ndim, 2)
    a = _float64_if_int(a)
    m, n = a.shape
    if m > n:
        _raise_value_error("last two dimensions of LU decomposition must be row less or equal to col.")
    m_lu, _, p = cached_prim(LU)(a)
    k = min(m, n)
    l = ops.tril(m_lu, -1)[..., :k] + ops.eye(m, k, a.dtype)
    u = ops.triu(m_lu)[:k, :]
    if permute_l:
        return ops.matmul(ops.cast(p, a.dtype), l), u
    return p, l, u


def lstsq(A, B, rcond=None, driver=None):  # pylint: disable=invalid-name
    r"""Compute a least-squares solution of :math:`AX = B`.

    Args:
        A (Tensor): LHS :math:`(*, M, N)`.
        B (Tensor): RHS :math:`(*, M, K)` or :math:`(*, M)`, the batch of `A`.
        rcond (number.Number, optional): Not implemented. Default: ``None``.
        driver (str, optional): LAPACK driver, one of ``"gels"``, ``"gelsy"``, ``"gelss"``, ``"gelsd"``.
            Default: ``None`` (``"gelsy"``).

    Returns:
        - **solution** (Tensor) :math:`(*, N, K)`.
        - **residual** (Tensor) :math:`(*, K)`: the squared 2-norm of each column of :math:`AX - B`, computed by
          ``"gels"``, ``"gelss"``, ``"gelsd"`` when :math:`M > N`; else empty.
        - **rank** (Tensor) :math:`(*)`: the effective rank of `A` (empty for ``"gels"``).
        - **singular_value** (Tensor) :math:`(*, min(M, N))`: computed by ``"gelss"``, ``"gelsd"``; else empty.

    Raises:
        TypeError: If the dtypes of `A` and `B` differ.
        ValueError: If `A` has fewer than 2 dimensions, the shapes do not match, or `driver` is unknown.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import lstsq
        >>> a = Tensor(onp.array([[1., 0.], [0., 1.], [1., 1.]]))
        >>> b = Tensor(onp.array([[1.], [2.], [4.]]))
        >>> print(lstsq(a, b)[0])
        [[1.33333333]
         [2.33333333]]
    """
    return cached_prim(LstsqV2)(A, B, driver)


def lu_pivots_to_permutation(pivots, permutation_size: int):
    """The row permutation (int32, of length `permutation_size`) that the 0-based row interchanges `pivots`
    (..., K) of ``lu_factor`` apply: row ``i`` of the permuted matrix is row ``perm[i]`` of the original."""
    piv = pivots.asnumpy()
    perm = np.broadcast_to(np.arange(permutation_size, dtype=np.int32), piv.shape[:-1] + (permutation_size,)).copy()
    for idx in np.ndindex(*piv.shape[:-1]):
        for i, p in enumerate(piv[idx]):
            perm[idx + (i,)], perm[idx + (p,)] = perm[idx + (p,)], perm[idx + (i,)]
    return Tensor(perm)


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
    """Solve :math:`a x = b` given the LU factorization of `a` from ``lu_factor``.

    Args:
        lu_and_piv ((Tensor, Tensor)): The factorization of the coefficient matrix, as ``lu_factor`` gives it.
        b (Tensor): The right-hand side, (M,) or (M, K).
        trans (int, optional): The system: ``0`` :math:`a x = b`, ``1`` :math:`a^T x = b`, ``2`` :math:`a^H x = b`.
            Default: ``0``.
        overwrite_b (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        Tensor, the solution `x` (of the shape of `b`).

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import lu_factor, lu_solve
        >>> a = Tensor(onp.array([[2., 1.], [1., 3.]]))
        >>> print(lu_solve(lu_factor(a), Tensor(onp.array([3., 4.]))))
        [1. 1.]
    """
    func_name = "lu_solve"
    lu_matrix, pivot = lu_and_piv
    _check_bool(func_name, overwrite_b, 'overwrite_b')
    _check_bool(func_name, check_finite, 'check_finite')
    _check_tensor(func_name, lu_matrix, 'lu_matrix')
    _check_tensor(func_name, b, 'b')
    _check_tensor(func_name, pivot, 'pivot')
    _check_dtype(func_name, lu_matrix.dtype, _INT_FLOAT, 'lu_matrix')
    _check_dtype(func_name, b.dtype, _INT_FLOAT, 'b')
    _check_dtype(func_name, pivot.dtype, (mstype.int32,), 'pivot')
    _check_solve_shapes(func_name, lu_matrix.shape, b.shape, 'lu_matrix', 'b')
    _check_ndim(func_name, pivot.ndim, 1, 'pivot')
    if trans not in (0, 1, 2):
        raise MSValueError(f"For '{func_name}', the value of 'trans' should be one of (0, 1, 2), but got {trans}.")
    lu_matrix, b = _float64_if_int(lu_matrix), _float64_if_int(b)
    x = ops.gather(b, lu_pivots_to_permutation(pivot, pivot.shape[0]), 0) if trans == 0 else b
    if trans == 0:
        x = solve_triangular(lu_matrix, x, lower=True, unit_diagonal=True)
        return solve_triangular(lu_matrix, x, lower=False)
    x = solve_triangular(lu_matrix, x, trans=1, lower=False)
    x = solve_triangular(lu_matrix, x, trans=1, lower=True, unit_diagonal=True)
    inverse = ops.argsort(lu_pivots_to_permutation(pivot, pivot.shape[0]))
    return ops.gather(x, inverse, 0)


def det(a, overwrite_a=False, check_finite=True):
    """Compute the determinant of a square matrix (int32/int64 computed in float64).

    Args:
        a (Tensor): The square matrix (M, M).
        overwrite_a (bool, optional): Not used. Default: ``False``.
        check_finite (bool, optional): Not used. Default: ``True``.

    Returns:
        Tensor, the determinant of `a`.

    Raises:
        ValueError: If `a` is not 2-D square.

    Examples:
        >>> import numpy as onp
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.linalg import det
        >>> print(det(Tensor(onp.array([[1., 2.], [3., 4.]]))))
        -2.0
    """
    func_name = "det"
    _check_bool(func_name, overwrite_a, 'overwrite_a')
    _check_bool(func_name, check_finite, 'check_finite')
    _check_tensor(func_name, a)
    _check_square(func_name, a.shape)
    _check_dtype(func_name, a.dtype, _INT_FLOAT)
    a = _float64_if_int(a)
    if a.shape[-1] == 2:
        return a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]
    if a.shape[-1] == 3:
        return (a[0, 0] * a[1, 1] * a[2, 2] + a[0, 1] * a[1, 2] * a[2, 0] + a[0, 2] * a[1, 0] * a[2, 1]
                - a[0, 2] * a[1, 1] * a[2, 0] - a[0, 0] * a[1, 2] * a[2, 1] - a[0, 1] * a[1, 0] * a[2, 2])
    m_lu, pivot = lu_factor(a)
    swaps = ops.reduce_sum(ops.cast(pivot != ops.arange(0, a.shape[-1], dtype=mstype.int32), mstype.float64))
    sign = 1.0 - 2.0 * ops.cast(ops.floor_mod(swaps, 2.0), a.dtype)
    return sign * ops.prod(ops.diagonal(m_lu, 0, -2, -1), -1)


class SolveTriangular:
    """``SolveTriangular(lower=False, unit_diagonal=False, trans='N')(a, b)``: the solution ``x`` of the
    triangular system ``a x = b`` (``trans`` 'T'/'C': ``a^T x = b``)."""

    def __init__(self, lower: bool = False, unit_diagonal: bool = False, trans: str = 'N'):
        self.lower = lower
        self.unit_diagonal = unit_diagonal
        self.trans = {'N': 0, 'T': 1, 'C': 2}.get(trans)

    def __call__(self, a, b):
        return solve_triangular(a, b, self.trans, self.lower, self.unit_diagonal)
