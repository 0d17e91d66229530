"""More dense linear algebra primitives of MindSpore 2.10: ``Svd``, ``MatrixExp``, ``MatrixSolve``, ``Eig``,
``Geqrf``, ``Orgqr``, ``LuUnpack``, ``MatrixTriangularSolve``, ``MatrixPower``, ``Cholesky``, ``CholeskyInverse``,
``CholeskySolve``.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``); all take batches of matrices (..., M, N). Derivatives: ``Svd`` (real, reduced) by
Townsend's formula ("Differentiating the singular value decomposition", 2016) with ``F_ij = 1/(s_j^2 - s_i^2)``
(distinct singular values assumed, as every implementation does); ``MatrixExp`` by the block identity
``exp([[A^T, G], [0, A^T]]) = [[., D], [0, .]]`` (``D`` the adjoint derivative); ``MatrixSolve``: ``dB =
solve(A^T, G)``, ``dA = -dB X^T``; ``LuUnpack``: the gradient of ``L`` below the diagonal and of ``U`` on and
above it; ``Cholesky`` by Murray's ("Differentiation of the Cholesky decomposition", 2016) ``sym(L^-T phi(L^T G)
L^-1)``; the triangular, power and Cholesky solves by the matrix-product rule. ``Eig`` (complex results),
``Geqrf`` and ``Orgqr`` (Householder representations) are not differentiated. Kernels live in the backends'
``kernels/linalg_more.py`` (LAPACK through NumPy/SciPy, cuSOLVER through CuPy).
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, constexpr, prim_attr_register

_FLOATS = (mstype.float32, mstype.float64)
_FLOATS_COMPLEX = _FLOATS + (mstype.complex64, mstype.complex128)
_COMPLEX_OF = {mstype.float32: mstype.complex64, mstype.float64: mstype.complex128,
               mstype.complex64: mstype.complex64, mstype.complex128: mstype.complex128}


def _matrices(op, name, shape):
    if len(shape) < 2:
        raise MSValueError(f"For '{op}', the '{name}' must be at least 2-D (..., M, N), but got shape {tuple(shape)}.")
    return tuple(shape)


def _square(op, name, shape):
    _matrices(op, name, shape)
    if shape[-1] != shape[-2] and -1 not in (shape[-1], shape[-2]):
        raise MSValueError(f"For '{op}', the '{name}' must be square matrices (..., M, M), but got shape "
                           f"{tuple(shape)}.")
    return tuple(shape)


def _t(x):
    return fops.swapaxes(x, -1, -2)


@constexpr
def _k_of(shape):
    return min(shape[-1], shape[-2])


# --- Svd -------------------------------------------------------------------------------------
class Svd(Primitive):
    """``Svd(full_matrices=False, compute_uv=True)(a)``: ``(s, u, v)`` with ``a = u diag(s) v^H``, the singular
    values in descending order (``u``/``v`` zero-sized when not computed). Complex input gives its singular values in
    the complex dtype too (zero imaginary parts), as MindSpore 2.10; its gradient is refused."""

    @prim_attr_register
    def __init__(self, full_matrices=False, compute_uv=True):
        rules.check_bool(self.name, "full_matrices", full_matrices)
        rules.check_bool(self.name, "compute_uv", compute_uv)

    def infer_shape(self, a):
        _matrices(self.name, "a", a)
        m, n = a[-2], a[-1]
        k = min(m, n)
        batch = tuple(a[:-2])
        if not self.compute_uv:
            return batch + (k,), (0,), (0,)
        if self.full_matrices:
            return batch + (k,), batch + (m, m), batch + (n, n)
        return batch + (k,), batch + (m, k), batch + (n, k)

    def infer_dtype(self, a):
        d = rules.check_dtype_in(self.name, "a", a, _FLOATS_COMPLEX)
        return d, d, d

    def bprop(self, a, out, dout):
        if mstype.is_complex(fops.dtype(a)):
            raise MSTypeError(f"For 'Svd', the gradient of a complex input is not supported (Townsend's backward "
                              f"here is the real one), but got {fops.dtype(a)}.")
        if self.compute_uv and self.full_matrices:
            s, u, v = self._grad_prim(Svd, False, True)(a)
            k = _k_of(a.shape)
            gu = fops.narrow(dout[1], -1, 0, k)
            gv = fops.narrow(dout[2], -1, 0, k)
            return (_svd_grad(a, s, u, v, dout[0], gu, gv),)
        if not self.compute_uv:
            s, u, v = self._grad_prim(Svd, False, True)(a)
            return (_svd_grad(a, s, u, v, dout[0], None, None),)
        return (_svd_grad(a, out[0], out[1], out[2], dout[0], dout[1], dout[2]),)


def _svd_grad(a, s, u, v, gs, gu, gv):
    """Townsend's backward of the reduced SVD ``a = u diag(s) v^T``."""
    k = _k_of(a.shape)
    eye = fops.eye(k, k, fops.dtype(s))
    core = fops.mul(fops.expand_dims(gs, -1), eye)                               # diag(gS)
    if gu is not None:
        s2 = fops.square(s)
        diff = fops.sub(fops.expand_dims(s2, -2), fops.expand_dims(s2, -1))    # s_j^2 - s_i^2 at [i, j]
        safe = fops.add(diff, eye)
        f = fops.mul(fops.div(fops.ones_like(diff), safe), fops.sub(1.0, eye))
        utgu = fops.matmul(_t(u), gu)
        vtgv = fops.matmul(_t(v), gv)
        j = fops.mul(f, fops.sub(utgu, _t(utgu)))
        kk = fops.mul(f, fops.sub(vtgv, _t(vtgv)))
        core = fops.add(core, fops.add(fops.mul(j, fops.expand_dims(s, -2)), fops.mul(fops.expand_dims(s, -1), kk)))
    grad = fops.matmul(fops.matmul(u, core), _t(v))
    if gu is not None:
        inv_s = fops.reciprocal(s)
        m, n = a.shape[-2], a.shape[-1]
        if m > k:
            proj_u = fops.sub(gu, fops.matmul(u, fops.matmul(_t(u), gu)))
            grad = fops.add(grad, fops.matmul(fops.mul(proj_u, fops.expand_dims(inv_s, -2)), _t(v)))
        if n > k:
            proj_v = fops.sub(gv, fops.matmul(v, fops.matmul(_t(v), gv)))
            grad = fops.add(grad, fops.matmul(fops.mul(u, fops.expand_dims(inv_s, -2)), _t(proj_v)))
    return grad


# --- MatrixExp -------------------------------------------------------------------------------
class MatrixExp(Primitive):
    """``MatrixExp()(x)``: the matrix exponential of each square matrix."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return _square(self.name, "x", x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, (mstype.float16,) + _FLOATS_COMPLEX)

    def bprop(self, x, out, dout):
        n = x.shape[-1]
        xt = _t(x)
        top = fops.concat((xt, dout), -1)
        bottom = fops.concat((fops.zeros_like(xt), xt), -1)
        big = self._grad_prim(MatrixExp)(fops.concat((top, bottom), -2))
        return (fops.narrow(fops.narrow(big, -2, 0, n), -1, n, n),)


# --- MatrixSolve ---------------------------------------------------------------------------------
class MatrixSolve(Primitive):
    """``MatrixSolve(adjoint=False)(matrix, rhs)``: ``X`` with ``matrix @ X = rhs`` (``adjoint``: with the
    matrix transposed)."""

    @prim_attr_register
    def __init__(self, adjoint=False):
        rules.check_bool(self.name, "adjoint", adjoint)

    def infer_shape(self, matrix, rhs):
        _square(self.name, "matrix", matrix)
        _matrices(self.name, "rhs", rhs)
        if rhs[-2] != matrix[-1] or tuple(rhs[:-2]) != tuple(matrix[:-2]):
            raise MSValueError(f"For '{self.name}', the 'rhs' must be (..., {matrix[-1]}, K) with the batch of "
                               f"'matrix' {tuple(matrix)}, but got {tuple(rhs)}.")
        return tuple(rhs)

    def infer_dtype(self, matrix, rhs):
        rules.check_dtype_in(self.name, "matrix", matrix, (mstype.float16,) + _FLOATS_COMPLEX)
        return rules.check_same_dtype(self.name, ("matrix", "rhs"), (matrix, rhs))

    def bprop(self, matrix, rhs, out, dout):
        drhs = self._grad_prim(MatrixSolve, not self.adjoint)(matrix, dout)
        dmat = fops.neg(fops.matmul(drhs, _t(out)))
        return (_t(dmat) if self.adjoint else dmat), drhs


# --- Eig / Geqrf / Orgqr / LuUnpack --------------------------------------------------------------
class Eig(Primitive):
    """``Eig(compute_v=False)(x)``: the (complex) eigenvalues of each square matrix and, with ``compute_v``,
    the eigenvectors as columns (else a zero-sized tensor)."""

    @prim_attr_register
    def __init__(self, compute_v=False):
        rules.check_bool(self.name, "compute_v", compute_v)

    def infer_shape(self, x):
        _square(self.name, "x", x)
        return tuple(x[:-1]), (tuple(x) if self.compute_v else (0,))

    def infer_dtype(self, x):
        d = _COMPLEX_OF[rules.check_dtype_in(self.name, "x", x, _FLOATS_COMPLEX)]
        return d, d

    bprop = NON_DIFFERENTIABLE


class Geqrf(Primitive):
    """``Geqrf()(x)``: LAPACK's QR factorisation ``(a, tau)``: ``R`` on and above the diagonal of ``a``, the
    Householder vectors below it, their scales ``tau`` (..., min(M, N))."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        _matrices(self.name, "x", x)
        return tuple(x), tuple(x[:-2]) + (min(x[-1], x[-2]),)

    def infer_dtype(self, x):
        d = rules.check_dtype_in(self.name, "x", x, _FLOATS_COMPLEX)
        return d, d

    bprop = NON_DIFFERENTIABLE


class Orgqr(Primitive):
    """``Orgqr()(x, tau)``: the first N columns of the product of the Householder reflections ``(x, tau)``
    that ``Geqrf`` gives (the Q of the QR factorisation)."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, tau):
        _matrices(self.name, "x", x)
        if x[-2] < x[-1]:
            raise MSValueError(f"For '{self.name}', x.shape[-2] must be >= x.shape[-1], but got {tuple(x)}.")
        if tau[-1] > x[-1] or tuple(tau[:-1]) != tuple(x[:-2]):
            raise MSValueError(f"For '{self.name}', the shape of 'tau' {tuple(tau)} does not fit x's {tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, x, tau):
        rules.check_dtype_in(self.name, "x", x, _FLOATS_COMPLEX)
        return rules.check_same_dtype(self.name, ("x", "tau"), (x, tau))

    bprop = NON_DIFFERENTIABLE


class LuUnpack(Primitive):
    """``LuUnpack(unpack_data=True, unpack_pivots=True)(LU_data, LU_pivots)``: ``(P, L, U)`` of a packed LU
    factorisation (1-based LAPACK pivots)."""

    @prim_attr_register
    def __init__(self, unpack_data=True, unpack_pivots=True):
        rules.check_bool(self.name, "unpack_data", unpack_data)
        rules.check_bool(self.name, "unpack_pivots", unpack_pivots)

    def infer_shape(self, lu_data, lu_pivots):
        _matrices(self.name, "LU_data", lu_data)
        m, n = lu_data[-2], lu_data[-1]
        k = min(m, n)
        batch = tuple(lu_data[:-2])
        if tuple(lu_pivots) != batch + (k,):
            raise MSValueError(f"For '{self.name}', the shape of 'LU_pivots' must be {batch + (k,)}, but got "
                               f"{tuple(lu_pivots)}.")
        return batch + (m, m), batch + (m, k), batch + (k, n)

    def infer_dtype(self, lu_data, lu_pivots):
        d = rules.check_dtype_in(self.name, "LU_data", lu_data, rules.NUMBER_TYPES)
        rules.check_dtype_in(self.name, "LU_pivots", lu_pivots, (mstype.int8, mstype.int16, mstype.int32,
                                                                 mstype.int64, mstype.uint8))
        return d, d, d

    def bprop(self, lu_data, lu_pivots, out, dout):
        m, n = lu_data.shape[-2], lu_data.shape[-1]
        k = _k_of(lu_data.shape)
        dl = fops.tril(dout[1], -1)
        du = fops.triu(dout[2])
        dl_full = dl if n == k else fops.pad(dl, (0, n - k))            # L is (M, K): widen to N columns
        du_full = du if m == k else fops.pad(du, (0, 0, 0, m - k))      # U is (K, N): lengthen to M rows
        return fops.add(dl_full, du_full), fops.zeros_like(lu_pivots)


# --- MatrixTriangularSolve / MatrixPower ---------------------------------------------------------------------
def _triangle(x, lower):
    return fops.tril(x) if lower else fops.triu(x)


class MatrixTriangularSolve(Primitive):
    """``MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: ``X`` with ``T @ X = rhs``, ``T`` the
    lower (upper) triangle of ``matrix`` (``adjoint``: transposed); the other triangle is not read."""

    @prim_attr_register
    def __init__(self, lower=True, adjoint=False):
        rules.check_bool(self.name, "lower", lower)
        rules.check_bool(self.name, "adjoint", adjoint)

    def infer_shape(self, matrix, rhs):
        _square(self.name, "matrix", matrix)
        _matrices(self.name, "rhs", rhs)
        if rhs[-2] != matrix[-1]:
            raise MSValueError(f"For '{self.name}', rhs.shape[-2] must be {matrix[-1]}, but got {tuple(rhs)}.")
        return rules.broadcast_shapes(self.name, tuple(matrix[:-2]), tuple(rhs[:-2])) + tuple(rhs[-2:])

    def infer_dtype(self, matrix, rhs):
        rules.check_dtype_in(self.name, "matrix", matrix, _FLOATS_COMPLEX)
        return rules.check_same_dtype(self.name, ("matrix", "rhs"), (matrix, rhs))

    def bprop(self, matrix, rhs, out, dout):
        drhs = self._grad_prim(MatrixTriangularSolve, self.lower, not self.adjoint)(matrix, dout)
        if self.adjoint:
            dmat = fops.neg(fops.matmul(out, _t(drhs)))
        else:
            dmat = fops.neg(fops.matmul(drhs, _t(out)))
        return _triangle(dmat, self.lower), drhs


class MatrixPower(Primitive):
    """``MatrixPower(n)(x)``: each square matrix of the batch ``x`` (B, M, M) to the integer power ``n`` (a
    negative ``n`` inverts first)."""

    @prim_attr_register
    def __init__(self, n):
        rules.check_int(self.name, "n", n)

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, 3)
        return _square(self.name, "x", x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, (mstype.float16,) + _FLOATS)

    def bprop(self, x, out, dout):
        m = self.n if self.n >= 0 else -self.n
        if m == 0:
            return (fops.zeros_like(x),)
        base = x if self.n > 0 else self._grad_prim(MatrixPower, -1)(x)
        base_t = _t(base)
        grad = fops.zeros_like(x)
        for k in range(m):
            left = self._grad_prim(MatrixPower, k)(base_t)
            right = self._grad_prim(MatrixPower, m - 1 - k)(base_t)
            grad = fops.add(grad, fops.matmul(fops.matmul(left, dout), right))
        if self.n < 0:
            grad = fops.neg(fops.matmul(fops.matmul(base_t, grad), base_t))
        return (grad,)


# --- Cholesky family -------------------------------------------------------------------------------------------
def _phi(x):
    """The lower triangle of ``x`` with its diagonal halved."""
    return fops.sub(fops.tril(x), fops.mul(fops.tril(fops.triu(x)), 0.5))


def _sym(x):
    return fops.mul(fops.add(x, _t(x)), 0.5)


class Cholesky(Primitive):
    """``Cholesky(upper=False)(input_x)``: the Cholesky factor ``L`` (``A = L L^T``) of each symmetric positive
    definite matrix, or ``U = L^T`` with ``upper``."""

    @prim_attr_register
    def __init__(self, upper=False):
        rules.check_bool(self.name, "upper", upper)

    def infer_shape(self, x):
        return _square(self.name, "input_x", x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, _FLOATS)

    def bprop(self, x, out, dout):
        # Murray (2016): with L the factor and G its gradient, dA = sym(L^-T phi(L^T G) L^-1)
        lower = _t(out) if self.upper else out
        g = _t(dout) if self.upper else dout
        eye = fops.eye(x.shape[-1], x.shape[-1], fops.dtype(x))
        inv = self._grad_prim(MatrixTriangularSolve, True, False)(lower, eye)
        p = _phi(fops.matmul(_t(lower), g))
        return (_sym(fops.matmul(fops.matmul(_t(inv), p), inv)),)


class CholeskyInverse(Primitive):
    """``CholeskyInverse(upper=False)(input_x)``: ``(L L^T)^-1`` of a lower Cholesky factor (``(U^T U)^-1`` of an
    upper one)."""

    @prim_attr_register
    def __init__(self, upper=False):
        rules.check_bool(self.name, "upper", upper)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, 2)
        return _square(self.name, "input_x", x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, _FLOATS)

    def bprop(self, x, out, dout):
        da = fops.neg(fops.matmul(fops.matmul(_t(out), dout), _t(out)))
        both = fops.add(da, _t(da))
        return (fops.matmul(x, both) if self.upper else fops.matmul(both, x),)


class CholeskySolve(Primitive):
    """``CholeskySolve(upper=False)(x1, x2)``: ``X`` with ``(L L^T) X = x1`` for the lower Cholesky factor ``x2``
    (``(U^T U) X = x1`` for an upper one)."""

    @prim_attr_register
    def __init__(self, upper=False):
        rules.check_bool(self.name, "upper", upper)

    def infer_shape(self, x1, x2):
        _square(self.name, "x2", x2)
        _matrices(self.name, "x1", x1)
        if x1[-2] != x2[-1] or tuple(x1[:-2]) != tuple(x2[:-2]):
            raise MSValueError(f"For '{self.name}', the shapes of 'x1' {tuple(x1)} and 'x2' {tuple(x2)} do not fit.")
        return tuple(x1)

    def infer_dtype(self, x1, x2):
        rules.check_dtype_in(self.name, "x1", x1, _FLOATS)
        return rules.check_same_dtype(self.name, ("x1", "x2"), (x1, x2))

    def bprop(self, x1, x2, out, dout):
        dx1 = self._grad_prim(CholeskySolve, self.upper)(dout, x2)
        da = fops.neg(fops.matmul(dx1, _t(out)))
        both = fops.add(da, _t(da))
        return dx1, (fops.matmul(x2, both) if self.upper else fops.matmul(both, x2))


PRIMITIVES = [Svd, MatrixExp, MatrixSolve, Eig, Geqrf, Orgqr, LuUnpack, MatrixTriangularSolve, MatrixPower, Cholesky,
              CholeskyInverse, CholeskySolve]
