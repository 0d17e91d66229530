"""Operators of ``mindspore.scipy`` (the public path ``mindspore.scipy.ops`` of MindSpore 2.10): the
primitives ``Eig``, ``LU``, ``LinearSumAssignment`` (defined with their rules in ``ops/_defs``) and
``SolveTriangular``, a callable binding ``solve_triangular``'s options."""
from mindspore.common import dtype as mstype  # noqa: F401  (2.10 exposes it here)
from mindspore.ops._defs.linalg_more import Eig as _Eig
from mindspore.ops._defs.linalg_scipy import LU, LinearSumAssignment
from mindspore.ops.primitive import Primitive, PrimitiveWithInfer, prim_attr_register  # noqa: F401  (as 2.10)
from mindspore.scipy.linalg import SolveTriangular, solve_triangular  # noqa: F401  (2.10 exposes them here)


class Eig(_Eig):
    """``Eig(compute_v=True)(a)``: the (complex) eigenvalues of each square matrix and, with ``compute_v`` (the
    default here, as 2.10's ``mindspore.scipy.ops.Eig``), its eigenvectors as columns."""

    def __init__(self, compute_v=True):
        super().__init__(compute_v)


__all__ = ["Eig", "LU", "LinearSumAssignment", "SolveTriangular", "solve_triangular"]
