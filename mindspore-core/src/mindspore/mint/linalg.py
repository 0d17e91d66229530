"""``mindspore.mint.linalg``: ``inv``, ``qr``, ``norm``, ``vector_norm``, ``matrix_norm``.

``inv`` and ``qr`` are compositions of elementwise ops and matmuls unrolled over the (static) matrix size:
Gauss-Jordan elimination with partial pivoting (row swaps as permutation matmuls), and Householder QR with LAPACK's
sign convention (``R[k, k] = -sign(x_k) * ||x||``, no reflection when the column below the diagonal is already
zero). The nuclear and spectral norms are ``ops.norm``'s, from the ``Svd`` primitive. Both are differentiable through the composition and are
staged like any other library function in GRAPH_MODE. Cost is O(n) ops of O(n^3) each: meant for the small
matrices model code inverts, not for large dense solvers.
"""
import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["inv", "matrix_norm", "norm", "qr", "vector_norm"]

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)


def _check_float(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    if x.dtype not in _FLOATS:
        raise MSTypeError(f"For '{op}', the '{name}' must be a float tensor, but got {x.dtype}.")


def _basis(n, k, dtype):
    """The k-th unit column vector e_k, shape (n, 1)."""
    return ops.reshape(ops.one_hot(Tensor([k], mstype.int32), n, Tensor(1, dtype), Tensor(0, dtype)), (n, 1))


def inv(input):
    """The inverse of each square matrix in the last two dimensions of ``input``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import mint
        >>> print(mint.linalg.inv(ms.Tensor([[2.0, 0.0], [0.0, 4.0]])))
        [[0.5  0.  ]
         [0.   0.25]]
    """
    _check_float("inv", "input", input)
    if input.ndim < 2 or input.shape[-1] != input.shape[-2]:
        raise MSValueError(f"For 'inv', the 'input' must be square matrices (..., n, n), but got shape "
                           f"{input.shape}.")
    n = input.shape[-1]
    dtype = input.dtype
    eye = ops.eye(n, n, dtype)
    a, b = input, ops.broadcast_to(eye, input.shape)
    rows = ops.arange(n, dtype=mstype.int32)
    for k in range(n):
        e_k = _basis(n, k, dtype)
        col = ops.squeeze(ops.narrow(a, -1, k, 1), -1)  # (..., n)
        score = ops.where(ops.ge(rows, k), ops.abs(col), ops.full(col.shape, -1.0, dtype=dtype))
        e_p = ops.expand_dims(ops.one_hot(ops.cast(ops.argmax(score, -1), mstype.int32), n,
                                          Tensor(1, dtype), Tensor(0, dtype)), -1)  # (..., n, 1)
        e_kt, e_pt = ops.swapaxes(e_k, -1, -2), ops.swapaxes(e_p, -1, -2)
        swap = ops.add(ops.sub(ops.sub(eye, ops.matmul(e_k, e_kt)), ops.matmul(e_p, e_pt)),
                       ops.add(ops.matmul(e_k, e_pt), ops.matmul(e_p, e_kt)))
        a, b = ops.matmul(swap, a), ops.matmul(swap, b)
        pivot = ops.narrow(ops.narrow(a, -2, k, 1), -1, k, 1)  # (..., 1, 1)
        a_row = ops.div(ops.narrow(a, -2, k, 1), pivot)
        b_row = ops.div(ops.narrow(b, -2, k, 1), pivot)
        factor = ops.sub(ops.narrow(a, -1, k, 1), e_k)  # row k becomes pivot - 1, so a_k - f_k a_row = a_row
        a = ops.sub(a, ops.mul(factor, a_row))
        b = ops.sub(b, ops.mul(factor, b_row))
    return b


def _triangular_solve(b, A, upper, transpose, unitriangular):
    """X with ``A X = b`` (``A^T X = b`` when ``transpose``) for triangular ``A`` by substitution."""
    _check_float("triangular_solve", "A", A)
    if transpose:
        A, upper = ops.swapaxes(A, -1, -2), not upper
    n = A.shape[-1]
    order = range(n - 1, -1, -1) if upper else range(n)
    solved = {}
    for i in order:
        rhs = ops.narrow(b, -2, i, 1)
        for j, x_j in solved.items():
            rhs = ops.sub(rhs, ops.mul(ops.narrow(ops.narrow(A, -2, i, 1), -1, j, 1), x_j))
        if not unitriangular:
            rhs = ops.div(rhs, ops.narrow(ops.narrow(A, -2, i, 1), -1, i, 1))
        solved[i] = rhs
    return ops.cat([solved[i] for i in range(n)], -2)


def qr(A, mode="reduced"):
    """QR decomposition ``A = Q R`` of each matrix in the last two dimensions.

    ``mode``: ``'reduced'`` (Q (..., m, k), R (..., k, n), k = min(m, n)), ``'complete'`` (Q (..., m, m),
    R (..., m, n)) or ``'r'`` (R only; Q is an empty tensor).
    """
    _check_float("qr", "A", A)
    if mode not in ("reduced", "complete", "r"):
        raise MSValueError(f"For 'qr', the 'mode' must be 'reduced', 'complete' or 'r', but got {mode!r}.")
    if A.ndim < 2:
        raise MSValueError(f"For 'qr', the 'A' must have at least 2 dimensions, but got shape {A.shape}.")
    m, n = A.shape[-2], A.shape[-1]
    dtype = A.dtype
    k = min(m, n)
    r = A
    q = ops.broadcast_to(ops.eye(m, m, dtype), A.shape[:-2] + (m, m))
    rows = ops.reshape(ops.arange(m, dtype=mstype.int32), (m, 1))
    for j in range(k):
        col = ops.narrow(r, -1, j, 1)  # (..., m, 1)
        x = ops.where(ops.ge(rows, j), col, ops.zeros_like(col))
        x_j = ops.narrow(x, -2, j, 1)
        tail = ops.sum(ops.square(ops.where(ops.gt(rows, j), x, ops.zeros_like(x))), -2, True)
        norm_x = ops.sqrt(ops.add(tail, ops.square(x_j)))
        alpha = ops.mul(ops.neg(ops.where(ops.ge(x_j, 0), ops.ones_like(x_j), ops.neg(ops.ones_like(x_j)))),
                        norm_x)
        v = ops.sub(x, ops.mul(alpha, _basis(m, j, dtype)))
        vtv = ops.sum(ops.square(v), -2, True)
        reflect = ops.gt(tail, 0)
        coef = ops.where(reflect, ops.div(2.0, ops.where(reflect, vtv, ops.ones_like(vtv))), ops.zeros_like(vtv))
        vt = ops.swapaxes(v, -1, -2)
        r = ops.sub(r, ops.mul(coef, ops.matmul(v, ops.matmul(vt, r))))
        q = ops.sub(q, ops.mul(coef, ops.matmul(ops.matmul(q, v), vt)))
    r = ops.triu(r) if r.ndim == 2 else ops.mul(r, ops.triu(ops.ones((m, n), dtype)))
    if mode == "complete":
        return q, r
    if mode == "r":
        return ops.zeros((0,), dtype), ops.narrow(r, -2, 0, k)
    return ops.narrow(q, -1, 0, k), ops.narrow(r, -2, 0, k)


def _dims(x, dim):
    if dim is None:
        return tuple(range(x.ndim))
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """The vector ``ord``-norm over ``dim`` (every element when None): ``ord`` a number, ``inf`` or ``-inf``; of
    complex ``x``, the norm of its magnitudes (the 2-norm in the complex dtype, as MindSpore 2.10's ``ops.norm``)."""
    if isinstance(x, Tensor) and dtype is None and mstype.is_complex(x.dtype):
        out = vector_norm(ops.ComplexAbs()(x), ord, dim, keepdim)
        return ops.cast(out, x.dtype) if ord == 2 else out
    _check_float("vector_norm", "x", x if dtype is None else ops.cast(x, dtype))
    if isinstance(ord, (str, bool)) or ord is None:
        raise MSTypeError(f"For 'vector_norm', the 'ord' must be a number, but got {ord!r}.")
    if dtype is not None:
        x = ops.cast(x, dtype)
    dims = _dims(x, dim)
    absx = ops.abs(x)
    if ord == float("inf"):
        return ops.amax(absx, dims, keepdim)
    if ord == float("-inf"):
        return ops.amin(absx, dims, keepdim)
    if ord == 0:
        return ops.sum(ops.cast(ops.ne(x, 0), x.dtype), dims, keepdim)
    if ord == 1:
        return ops.sum(absx, dims, keepdim)
    if ord == 2:
        return ops.sqrt(ops.sum(ops.square(x), dims, keepdim))
    return ops.pow(ops.sum(ops.pow(absx, ord), dims, keepdim), 1.0 / ord)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """The matrix norm over the two dimensions ``dim``: ``'fro'``, ``'nuc'``, 1, -1, 2, -2, ``inf`` or ``-inf``.

    ``'nuc'`` and 2/-2 (the sum, largest and smallest singular value) are ``ops.norm``'s, from the ``Svd``
    primitive (of complex ``A``: its complex singular values, in the real dtype).
    """
    if dtype is not None:
        A = ops.cast(A, dtype)
    if ord in ("nuc", 2, -2):
        if A.ndim < 2:
            raise MSValueError(f"For 'matrix_norm', the 'A' must have at least 2 dimensions, but got shape "
                               f"{A.shape}.")
        return ops.norm(A, ord, tuple(dim), keepdim)
    if isinstance(A, Tensor) and mstype.is_complex(A.dtype):
        out = matrix_norm(ops.ComplexAbs()(A), ord, dim, keepdim)      # of the magnitudes
        return ops.cast(out, A.dtype) if ord == "fro" else out
    _check_float("matrix_norm", "A", A)
    if A.ndim < 2:
        raise MSValueError(f"For 'matrix_norm', the 'A' must have at least 2 dimensions, but got shape {A.shape}.")
    if ord == "fro":
        return ops.sqrt(ops.sum(ops.square(A), tuple(dim), keepdim))
    if ord not in (1, -1, float("inf"), float("-inf")):
        raise MSValueError(f"For 'matrix_norm', the 'ord' must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but got "
                           f"{ord!r}.")
    return ops.norm(A, ord, tuple(dim), keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm (``dim`` an int, or a 1-D input) or a matrix norm (``dim`` a pair, or a 2-D input)."""
    if dtype is not None:
        A = ops.cast(A, dtype)
    if dim is None and ord is None:
        return vector_norm(A, 2, None, keepdim)
    if isinstance(ord, str) or (dim is None and A.ndim == 2) or (dim is not None and not isinstance(dim, int)
                                                                  and len(dim) == 2):
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim)
