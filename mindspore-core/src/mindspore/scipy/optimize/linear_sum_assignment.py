"""Linear sum assignment (``mindspore.scipy.optimize.linear_sum_assignment``): one call of the
``LinearSumAssignment`` primitive."""
import sys

from mindspore.common import Tensor
from mindspore.common import dtype as mstype
from mindspore.ops._defs.array import cached_prim
from mindspore.scipy.ops import LinearSumAssignment


def linear_sum_assignment(cost_matrix, maximize, dimension_limit=None):
    r"""
    Solve the linear sum assignment problem.

    The assignment problem is represented as follows:

    .. math::
        min\sum_{i}^{} \sum_{j}^{} C_{i,j} X_{i,j}

    where :math:`C` is cost matrix, :math:`X_{i,j} = 1` means column :math:`j` is assigned to row :math:`i` .

    Args:
        cost_matrix (Tensor): 2-D cost matrix. Tensor of shape :math:`(M, N)` .
        maximize (bool): Calculate a maximum weight matching if true, otherwise calculate a minimum weight matching.
        dimension_limit (Tensor, optional): A scalar used to limit the actual size of the 2nd dimension of
            ``cost_matrix``. Default ``None``: ``Tensor(sys.maxsize)``, which means no limitation (made at each call,
            on the current device target). The type is 0-D int64 Tensor.

    Returns:
        A tuple of tensors containing 'row_idx' and 'col_idx'.

        - **row_idx** (Tensor) - Row indices of the problem, -1 padded at the end when `dimension_limit` leaves
          rows unassigned. The shape is :math:`(K, )`, K the minimum of the dimensions of `cost_matrix`.
        - **col_idx** (Tensor) - Column indices of the problem, padded the same way. The shape is :math:`(K, )`.

    Raises:
        TypeError: If the data type of `cost_matrix` is not the type in [float16, float32, float64,
                   int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool]
        TypeError: If the type of `maximize` is not bool.
        TypeError: If the data type of `dimension_limit` is not int64.
        ValueError: If the rank of `cost_matrix` is not 2.

    Supported Platforms:
        ``Ascend`` ``CPU``

    Examples:
        >>> import mindspore as ms
        >>> import numpy as np
        >>> from mindspore import Tensor
        >>> from mindspore.scipy.optimize import linear_sum_assignment
        >>> cost_matrix = Tensor(np.array([[2, 3, 3], [3, 2, 3], [3, 3, 2]])).astype(ms.float64)
        >>> a, b = linear_sum_assignment(cost_matrix, False, Tensor(2))
        >>> print(a)
        [ 0  1 -1]
        >>> print(b)
        [ 0  1 -1]
    """
    if dimension_limit is None:
        dimension_limit = Tensor(sys.maxsize, mstype.int64)
    return cached_prim(LinearSumAssignment)(cost_matrix, dimension_limit, maximize)
