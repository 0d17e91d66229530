"""``AdaSum``: combine the weight updates of several data-parallel groups with adaptive summation
(`Maleki et al., Scaling Distributed Training with Adaptive Summation <https://arxiv.org/abs/2006.02924>`_).

Two updates ``a`` and ``b`` combine to ``(1 - a.b / (2|a|^2)) a + (1 - a.b / (2|b|^2)) b``: orthogonal updates
add, parallel ones average. The ``group_number`` groups' updates (group ``g`` holds ranks ``g * device_number``
to ``(g + 1) * device_number - 1``; the updates combined are those of the ranks with this rank's position in
their group) are combined pairwise in a binary tree (``group_number`` a power of two), the same result on every
rank, and each parameter becomes ``old_parameter - combined update``. With one group the update is applied as
it is.
"""
import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.nn.cell import Cell

__all__ = ["AdaSum"]

_EPS = 1e-12


def adasum_pair(a, b):
    """The adaptive sum of the updates ``a`` and ``b`` (tensors of one shape)."""
    dot = ops.sum(a * b) + _EPS
    return (1 - dot / (2 * (ops.sum(a * a) + _EPS))) * a + (1 - dot / (2 * (ops.sum(b * b) + _EPS))) * b


class AdaSum(Cell):
    """Adaptive summation of the updates of ``group_number`` data-parallel groups.

    Args:
        rank (int): this process's rank.
        device_number (int): ranks per group.
        group_number (int): groups (a power of two).
        parameter_tuple (tuple[Parameter]): the parameters whose updates are combined.

    Inputs:
        - **delta_weights** (tuple[Tensor]) - this rank's updates (old - new).
        - **parameters** (tuple[Parameter]) - the parameters to set.
        - **old_parameters** (tuple[Parameter]) - their values before the update.

    Raises:
        ValueError: ``group_number`` is not a power of two.
    """

    def __init__(self, rank, device_number, group_number, parameter_tuple):
        super().__init__()
        if group_number < 1 or group_number & (group_number - 1):
            raise MSValueError(f"For 'AdaSum', the 'group_number' must be a power of 2, but got {group_number}.")
        self.rank, self.device_number, self.group_number = rank, device_number, group_number
        self.parameter_tuple = parameter_tuple
        self.calc_times = group_number.bit_length() - 1
        if group_number > 1:
            self.allgather = ops.AllGather()

    def _combine(self, delta):
        if self.group_number == 1:
            return delta
        gathered = self.allgather(ops.expand_dims(delta, 0))
        position = self.rank % self.device_number
        updates = [gathered[g * self.device_number + position] for g in range(self.group_number)]
        while len(updates) > 1:
            updates = [adasum_pair(updates[i], updates[i + 1]) for i in range(0, len(updates), 2)]
        return updates[0]

    def construct(self, delta_weights, parameters, old_parameters):
        out = []
        for delta, param, old in zip(delta_weights, parameters, old_parameters):
            combined = self._combine(delta)
            ops.assign(param, old - ops.reshape(combined, delta.shape))
            out.append(param)
        return tuple(out)
