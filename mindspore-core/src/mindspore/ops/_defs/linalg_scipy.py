"""Linear algebra primitives behind ``mindspore.scipy`` in MindSpore 2.10: ``Eigh``
(``ops.operations.linalg_ops``), ``LU`` and ``LinearSumAssignment`` (``mindspore.scipy.ops``) and ``LstsqV2``
(``ops.auto_generate``).

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``). ``Eigh``'s derivative is MindSpore's (Boeddeker et al., "On the Computation of
Complex-valued Gradients with Application to Statistically Optimum Beamforming", 2017, eq. 4.71) for real input:
``dA = V (diag(dw) + F * (V^T dV)) V^T`` with ``F_ij = 1 / (w_j - w_i)`` (0 on the diagonal; a 1e-20 guard
for repeated eigenvalues), then symmetrised and kept on the triangle the factorisation read (diagonal halved).
``LstsqV2``'s derivative is that of the solution for ``A`` of full rank: ``X = (A^T A)^-1 A^T B`` when M >= N
(``Z = (A^T A)^-1 G``, ``dB = A Z``, ``dA = (B - A X) Z^T - A Z X^T``) and the minimum-norm
``X = A^T (A A^T)^-1 B`` when M < N (``W = (A A^T)^-1 B``, ``Y = (A A^T)^-1 A G``, ``dB = Y``,
``dA = W G^T - Y W^T A - W Y^T A``). ``LU`` and ``LinearSumAssignment`` are not differentiated (2.10 has no
bprop for them either). Kernels live in the backends' ``kernels/linalg_scipy.py`` (LAPACK through
NumPy/SciPy).
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.linalg_more import MatrixTriangularSolve, _phi, _t
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_FLOATS = (mstype.float32, mstype.float64)
_FLOATS_COMPLEX = _FLOATS + (mstype.complex64, mstype.complex128)
_REAL_OF = {mstype.float32: mstype.float32, mstype.float64: mstype.float64, mstype.complex64: mstype.float32,
            mstype.complex128: mstype.float64}


def _diag_embed(d):
    n = d.shape[-1]
    return fops.mul(fops.expand_dims(d, -2), fops.eye(n, n, fops.dtype(d)))


def _upper_halved(x):
    """The upper triangle of ``x`` with its diagonal halved."""
    return _t(_phi(_t(x)))


# --- Eigh --------------------------------------------------------------------------------------------------
class Eigh(Primitive):
    """``Eigh(compute_eigenvectors=True, lower=True)(a)``: the eigenvalues ``w`` (ascending) of each Hermitian
    matrix, reading its lower (upper) triangle, and with ``compute_eigenvectors`` the eigenvectors as the columns
    of ``v``: ``(w, v)``; else ``w`` alone. ``w`` has the dtype of ``a`` (complex input: complex values with
    zero imaginary parts, as 2.10)."""

    @prim_attr_register
    def __init__(self, compute_eigenvectors=True, lower=True):
        rules.check_bool(self.name, "compute_eigenvectors", compute_eigenvectors)
        rules.check_bool(self.name, "lower", lower)

    def infer_shape(self, a):
        rules.check_rank(self.name, "A", a, range(2, 9))
        if a[-1] != a[-2]:
            raise MSValueError(f"For '{self.name}', the last two dimensions of 'A' must be the same, but got shape "
                               f"{tuple(a)}.")
        return (tuple(a[:-1]), tuple(a)) if self.compute_eigenvectors else tuple(a[:-1])

    def infer_dtype(self, a):
        d = rules.check_dtype_in(self.name, "A", a, _FLOATS_COMPLEX)
        return (d, d) if self.compute_eigenvectors else d

    def bprop(self, a, out, dout):
        if fops.dtype(a) not in _FLOATS:
            raise MSTypeError("For 'Eigh' operation, the data type of input 'a' don't support the complex64 or "
                              "complex128.")
        if self.compute_eigenvectors:
            w, v = out
            dw, dv = dout
            diff = fops.sub(fops.expand_dims(w, -2), fops.expand_dims(w, -1))
            n = w.shape[-1]
            off = fops.sub(1.0, fops.eye(n, n, fops.dtype(w)))
            f = fops.mul(fops.div(diff, fops.add(fops.mul(diff, diff), 1e-20)), off)
            mid = fops.add(_diag_embed(dw), fops.mul(f, fops.matmul(_t(v), dv)))
        else:
            v = self._grad_prim(Eigh, True, self.lower)(a)[1]
            mid = _diag_embed(dout)
        grad = fops.matmul(fops.matmul(v, mid), _t(v))
        grad = fops.add(grad, _t(grad))
        return (_phi(grad) if self.lower else _upper_halved(grad),)


class SelfAdjointEig(Eigh):
    """``SelfAdjointEig(compute_v=True)(x)``: :class:`Eigh` of the lower triangles, ``(eigen_values,
    eigen_vectors)`` (2.10's ``math_ops.SelfAdjointEig``; its CPU kernel returns the vectors whatever
    ``compute_v`` says)."""

    @prim_attr_register
    def __init__(self, compute_v=True):
        rules.check_bool(self.name, "compute_v", compute_v)
        super().__init__(True, True)


# --- LU ----------------------------------------------------------------------------------------------------
class LU(Primitive):
    """``LU()(x)``: the partially pivoted LU factorisation ``x = P L U`` of each (M, N) matrix: ``lu`` (``U`` on
    and above the diagonal, ``L`` below it, its unit diagonal not stored), the 0-based row interchanges
    ``pivots`` (..., K) and the permutation matrix ``P`` (..., K, K) as int32 (K = min(M, N))."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["x"], outputs=["lu", "pivots", "permutation"])

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, range(2, 9))
        k = min(x[-1], x[-2])
        batch = tuple(x[:-2])
        return tuple(x), batch + (k,), batch + (k, k)

    def infer_dtype(self, x):
        d = rules.check_dtype_in(self.name, "x", x, _FLOATS_COMPLEX)
        return d, mstype.int32, mstype.int32

    bprop = NON_DIFFERENTIABLE


# --- LstsqV2 -----------------------------------------------------------------------------------------------
_DRIVERS = (None, "gels", "gelsy", "gelss", "gelsd")


def _shape_str(shape):
    """A shape as 2.10's C++ layer prints it in these messages."""
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"


def _lstsq_shapes(op, a, b):
    if len(a) < 2:
        raise MSValueError(f"For '{op}', dim of matrix a must greater or equal to 2, but got a at {len(a)}-"
                           f"dimensional ")
    vector = len(b) == len(a) - 1
    fits = (tuple(b) == tuple(a[:-1])) if vector else (len(b) == len(a) and b[-2] == a[-2])
    if not fits:
        raise MSValueError(f"For '{op}', the last two dimensions of `a` and `b` should be matched, but got shape of "
                           f"{_shape_str(a)} and {_shape_str(b)}. Please make sure that the shape of `a` and `b` be "
                           f"like [..., M, N] X [..., M, K] or [..., M, N] X[..., M].")
    if not vector and tuple(a[:-2]) != tuple(b[:-2]):
        raise MSValueError(f"For '{op}', the batch dimensions of `a` and `b` should all be the same, but got shape "
                           f"of {_shape_str(a)} and {_shape_str(b)}.")
    return vector


class LstsqV2(Primitive):
    """``LstsqV2()(A, B, driver=None)``: ``(solution, residual, rank, singular_value)`` of the least-squares
    problem ``A X = B`` (``B`` (..., M, K) or (..., M)) with LAPACK's ``driver`` (None: "gelsy"). ``residual``
    (..., K) is filled by "gels"/"gelss"/"gelsd" when M > N, ``rank`` (...) by every driver but "gels",
    ``singular_value`` (..., min(M, N)) by "gelss"/"gelsd"; the others are empty (0,)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["A", "B", "driver"], outputs=["solution", "residual", "rank",
                                                                       "singular_value"])

    def _driver(self, driver):
        if driver not in _DRIVERS:
            raise MSValueError(f"Failed to convert the value \"{driver}\" of input 'driver' of '{self.name}' to "
                               f"enum.")
        return driver or "gelsy"

    def infer_shape(self, a, b, driver):
        driver = self._driver(driver)
        vector = _lstsq_shapes(self.name, a, b)
        batch, (m, n) = tuple(a[:-2]), tuple(a[-2:])
        k = 1 if vector else b[-1]
        solution = batch + ((n,) if vector else (n, k))
        residual = batch + (k,) if driver in ("gels", "gelss", "gelsd") and m > n else (0,)
        rank = (0,) if driver == "gels" else batch
        singular = batch + (min(m, n),) if driver in ("gelss", "gelsd") else (0,)
        return solution, residual, rank, singular

    def infer_dtype(self, a, b, driver):
        if a != b:
            raise MSTypeError(f"For '{self.name}' the type of a and b must be same, but got type of a is different "
                              f"from that of b! ")
        d = rules.check_dtype_in(self.name, "a", a, _FLOATS_COMPLEX)
        return d, _REAL_OF[d], mstype.int64, _REAL_OF[d]

    def bprop(self, a, b, driver, out, dout):
        x, g = out[0], dout[0]
        vector = len(b.shape) == len(a.shape) - 1
        if vector:
            x, g, b = fops.expand_dims(x, -1), fops.expand_dims(g, -1), fops.expand_dims(b, -1)
        m, n = a.shape[-2], a.shape[-1]
        a_t = _t(a)
        if m >= n:
            z = fops.matmul(self._inv(fops.matmul(a_t, a)), g)
            db = fops.matmul(a, z)
            da = fops.sub(fops.matmul(fops.sub(b, fops.matmul(a, x)), _t(z)), fops.matmul(db, _t(x)))
        else:
            gram_inv = self._inv(fops.matmul(a, a_t))
            w = fops.matmul(gram_inv, b)
            db = fops.matmul(gram_inv, fops.matmul(a, g))
            da = fops.sub(fops.matmul(w, _t(g)),
                          fops.add(fops.matmul(fops.matmul(db, _t(w)), a), fops.matmul(fops.matmul(w, _t(db)), a)))
        if vector:
            db = fops.squeeze(db, -1)
        return da, db, None

    def _inv(self, gram):
        """The inverse of a symmetric positive definite Gram matrix, by two triangular solves on its Cholesky
        factor (the primitives of ``linalg_more``)."""
        n = gram.shape[-1]
        lower = fops.cholesky(gram)
        eye = fops.eye(n, n, fops.dtype(gram))
        inv_l = self._grad_prim(MatrixTriangularSolve, True, False)(lower, eye)
        return fops.matmul(_t(inv_l), inv_l)


# --- LinearSumAssignment -----------------------------------------------------------------------------------
_LSA_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.int8, mstype.int16, mstype.int32,
              mstype.int64, mstype.uint8, mstype.uint16, mstype.uint32, mstype.uint64, mstype.bool_)


class LinearSumAssignment(Primitive):
    """``LinearSumAssignment()(cost_matrix, dimension_limit, maximize)``: ``(row_ind, col_ind)`` (int64, length
    min(M, N)) of the optimal assignment of the (M, N) ``cost_matrix`` (its first ``dimension_limit`` columns;
    the pairs left over are -1)."""

    @prim_attr_register
    def __init__(self):
        self.init_prim_io_names(inputs=["cost_matrix", "dimension_limit", "maximize"], outputs=["row_ind",
                                                                                              "col_ind"])

    def infer_shape(self, cost_matrix, dimension_limit, maximize):
        if len(cost_matrix) != 2:
            raise MSValueError(f"For primitive[{self.name}], the cost_matrix rank must be equal to 2, but got "
                               f"{len(cost_matrix)}.")
        k = min(cost_matrix)
        return (k,), (k,)

    def infer_dtype(self, cost_matrix, dimension_limit, maximize):
        if not isinstance(maximize, bool):
            got = {int: "Int64", float: "Float32", str: "String"}.get(type(maximize), type(maximize).__name__)
            raise MSTypeError(f"For primitive[{self.name}], the input argument[maximize] must be a type of {{Bool}}, "
                              f"but got {got}.")
        rules.check_dtype_in(self.name, "cost_matrix", cost_matrix, _LSA_TYPES)
        rules.check_dtype_in(self.name, "dimension_limit", dimension_limit, (mstype.int64,))
        return mstype.int64, mstype.int64

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [Eigh, SelfAdjointEig, LU, LstsqV2, LinearSumAssignment]
