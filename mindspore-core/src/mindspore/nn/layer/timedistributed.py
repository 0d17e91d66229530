"""``TimeDistributed``: applies a layer to every time slice of an input of rank >= 3 (MindSpore 2.10 semantics).

Without ``reshape_with_axis`` the input is split along ``time_axis``, the layer runs on each slice and the results
are stacked back on ``time_axis``. With ``reshape_with_axis``, the time axis is moved next to that axis and merged
with it, the layer runs once on the merged batch, and the result is split back (the layer must keep the merged
axis' position and size), which is faster for layers such as ``Dense``.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.ops.primitive import Primitive

__all__ = ["TimeDistributed"]


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _generate_perm(axis_a, axis_b, length):
    perm = tuple(range(length))
    axis_a, axis_b = (axis_a, axis_b) if axis_a < axis_b else (axis_b, axis_a)
    return perm[:axis_a] + (perm[axis_b],) + perm[axis_a:axis_b] + perm[axis_b + 1:]


class TimeDistributed(Cell):
    """Applies ``layer`` to every temporal slice of ``inputs``.

    Args:
        layer (Union[Cell, Primitive]): the layer applied to each slice.
        time_axis (int): the time axis of the inputs.
        reshape_with_axis (int): the axis merged with the time axis for one batched call. Default: ``None``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.TimeDistributed(nn.Dense(3, 5), time_axis=1, reshape_with_axis=0)
        >>> net(ms.Tensor(np.ones((4, 6, 3), np.float32))).shape
        (4, 6, 5)
    """

    def __init__(self, layer, time_axis, reshape_with_axis=None):
        if not isinstance(layer, (Cell, Primitive)):
            raise MSTypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive instance, but got type: "
                              f"{type(layer).__name__}.")
        super().__init__()
        if not _is_int(time_axis):
            raise MSTypeError(f"For 'TimeDistributed', the type of 'time_axis' must be int, but got "
                              f"{type(time_axis).__name__}.")
        if reshape_with_axis is not None and not _is_int(reshape_with_axis):
            raise MSTypeError(f"For 'TimeDistributed', the type of 'reshape_with_axis' must be int, but got "
                              f"{type(reshape_with_axis).__name__}.")
        self.layer = layer
        self.time_axis = time_axis
        self.reshape_with_axis = reshape_with_axis

    @staticmethod
    def _check_tensor(value):
        if not isinstance(value, Tensor):
            raise MSTypeError("For 'TimeDistributed', the inputs and outputs must be a Tensor.")

    def construct(self, inputs):
        self._check_tensor(inputs)
        ndim = inputs.ndim
        if ndim < 3:
            raise MSValueError(f"For 'TimeDistributed', the inputs shape must be at least 3D, but got {ndim}.")
        time_axis = self.time_axis % ndim
        if self.reshape_with_axis is not None:
            reshape_axis = self.reshape_with_axis % ndim
            if reshape_axis == ndim - 1:
                time_axis_new = ndim - 2
            elif time_axis > reshape_axis:
                time_axis_new = reshape_axis + 1
            else:
                time_axis_new = reshape_axis - 1
            reshape_pos = min(time_axis_new, reshape_axis)
            inputs = ops.transpose(inputs, _generate_perm(time_axis_new, time_axis, ndim))
            shape_new = inputs.shape
            inputs = ops.reshape(inputs, shape_new[:reshape_pos] + (-1,) + shape_new[reshape_pos + 2:])
            outputs = self.layer(inputs)
            self._check_tensor(outputs)
            if reshape_pos >= outputs.ndim or inputs.shape[reshape_pos] != outputs.shape[reshape_pos]:
                raise MSValueError(f"For 'TimeDistributed', the 'reshape_with_axis' is invalid in the input and "
                                   f"output. The 'reshape_pos' must be less than the length of 'outputs_shape', and "
                                   f"the 'inputs_shape[reshape_pos]' must be equal to 'outputs_shape[reshape_pos]', "
                                   f"but got 'reshape_pos': {reshape_pos}, 'inputs_shape': {inputs.shape}, "
                                   f"'outputs_shape': {outputs.shape}. You may try pass parameters without "
                                   f"'reshape_with_axis'.")
            out_shape = outputs.shape[:reshape_pos] + shape_new[reshape_pos:reshape_pos + 2]
            if reshape_pos + 1 < outputs.ndim:
                out_shape += outputs.shape[reshape_pos + 1:]
            return ops.reshape(outputs, (-1,) + out_shape[1:])
        y = []
        for i in range(inputs.shape[time_axis]):
            item = ops.squeeze(ops.narrow(inputs, time_axis, i, 1), time_axis)
            out = self.layer(item)
            self._check_tensor(out)
            if time_axis > out.ndim:
                raise MSValueError(f"For 'TimeDistributed', the value of 'time_axis' must be in range of "
                                   f"[{-out.ndim - 1}, {out.ndim}], but got {time_axis}.")
            y.append(out)
        return ops.stack(y, time_axis)
