"""Wrappers of array operators used by ``mindspore.scipy``."""
from mindspore import ops
from mindspore.common import Tensor
from mindspore.common import dtype as mstype
from mindspore.scipy.utils_const import _raise_value_error


def matrix_set_diag(input_x, diagonal, k=0, alignment="RIGHT_LEFT"):
    """``input_x`` (..., M, N) with its diagonal(s) ``k`` (an int or a ``(low, high)`` pair) replaced by
    ``diagonal``; ``alignment`` places diagonals shorter than the longest (see ``ops.MatrixSetDiagV3``)."""
    if isinstance(k, int):
        k_vec = (k, k)
    elif isinstance(k, (list, tuple)):
        k_vec = tuple(k)
    else:
        _raise_value_error("input k to indicate diagonal region is invalid.")
    return ops.MatrixSetDiagV3(alignment)(input_x, diagonal, Tensor(k_vec, mstype.int32))
