"""Dense linear algebra primitives: ``MatrixInverse``, ``MatrixDeterminant``, ``LogMatrixDeterminant``.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``. They take
batches of square float or complex matrices (..., M, M). The bprops are MindSpore's: ``d inv(A) = -inv(A)^T g
inv(A)^T`` (plain transposes, complex included), ``d det(A) = g det(A) inv(A^H)``, ``d log|det(A)| = g inv(A^H)``
(the sign has no gradient). ``MatrixInverse`` follows MindSpore's CPU kernel (LU with complete pivoting): a
matrix that is not invertible gives its rank-limited solution, not an error. Kernels live in the backends'
``kernels/linalg.py``.
The functional forms ``ops.det``/``ops.inverse``/``ops.slogdet`` are compositions of their own
(``ops/function/math_ext_func.py``); these primitives are MindSpore's ``ops.MatrixInverse`` etc.
"""
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import Primitive, prim_attr_register



def _check_square(op, x):
    if len(x) < 2 or (x[-1] != x[-2] and -1 not in (x[-1], x[-2])):
        raise MSValueError(f"For '{op}', the input must be square matrices of shape (..., M, M), but got "
                           f"shape {tuple(x)}.")
    return tuple(x)


def _inv_t(x):
    return MatrixInverse(adjoint=True)(x)


class _SquareFloat(Primitive):
    allowed = (mstype.float16, mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, self.allowed)


# --- MatrixInverse --------------------------------------------------------------------------
class MatrixInverse(_SquareFloat):
    """Inverse of each square matrix (``adjoint=True``: of its conjugate transpose)."""

    allowed = (mstype.float32, mstype.float64, mstype.complex64, mstype.complex128)

    @prim_attr_register
    def __init__(self, adjoint=False):
        rules.check_bool(self.name, "adjoint", adjoint)
        self.adjoint = adjoint

    def infer_shape(self, x):
        return _check_square(self.name, x)

    def bprop(self, x, out, dout):
        out_t = fops.swapaxes(out, -1, -2)
        dx = fops.neg(fops.matmul(fops.matmul(out_t, dout), out_t))
        return (fops.swapaxes(dx, -1, -2) if self.adjoint else dx,)


# --- MatrixDeterminant ----------------------------------------------------------------------
class MatrixDeterminant(_SquareFloat):
    """Determinant of each square matrix, shape ``x.shape[:-2]``."""

    def infer_shape(self, x):
        return _check_square(self.name, x)[:-2]

    def bprop(self, x, out, dout):
        scale = fops.expand_dims(fops.expand_dims(fops.mul(dout, out), -1), -1)
        return (fops.mul(scale, _inv_t(x)),)


# --- LogMatrixDeterminant -------------------------------------------------------------------
class LogMatrixDeterminant(_SquareFloat):
    """``(sign, log|det|)`` of each square matrix, both of shape ``x.shape[:-2]``."""

    def infer_shape(self, x):
        batch = _check_square(self.name, x)[:-2]
        return batch, batch

    def infer_dtype(self, x):
        d = super().infer_dtype(x)
        return d, d

    def bprop(self, x, out, dout):
        scale = fops.expand_dims(fops.expand_dims(dout[1], -1), -1)
        return (fops.mul(scale, _inv_t(x)),)


PRIMITIVES = [MatrixInverse, MatrixDeterminant, LogMatrixDeterminant]
