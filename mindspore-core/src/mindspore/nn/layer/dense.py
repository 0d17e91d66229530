"""``BiDense``: the bilinear layer ``y_k = x1^T W_k x2 + b_k`` with MindSpore 2.10's Parameters ``weight``
(out_channels, in1_channels, in2_channels) and ``bias`` (out_channels,), both ``Uniform(1 / sqrt(in1_channels))``
by default.
"""
from __future__ import annotations

import math

import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import Uniform, initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["BiDense"]


class BiDense(Cell):
    r"""Bilinear transformation of two inputs (\*, in1_channels) and (\*, in2_channels) -> (\*, out_channels).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.BiDense(5, 6, 7)
        >>> net(ms.Tensor(np.ones((2, 3, 5), np.float32)), ms.Tensor(np.ones((2, 3, 6), np.float32))).shape
        (2, 3, 7)
    """

    def __init__(self, in1_channels, in2_channels, out_channels, weight_init=None, bias_init=None, has_bias=True,
                 dtype=mstype.float32):
        super().__init__()
        self.in1_channels = chk.check_positive_int("BiDense", "in1_channels", in1_channels)
        self.in2_channels = chk.check_positive_int("BiDense", "in2_channels", in2_channels)
        self.out_channels = chk.check_positive_int("BiDense", "out_channels", out_channels)
        self.has_bias = chk.check_bool("BiDense", "has_bias", has_bias)
        bound = 1 / math.sqrt(in1_channels)
        if weight_init is None:
            weight_init = Uniform(bound)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != (out_channels, in1_channels, in2_channels):
            raise MSValueError(f"For 'BiDense', weight init shape error. The ndim of 'weight_init' must be equal to 3, "
                               f"the first dim must be equal to 'out_channels', the second dim must be equal to "
                               f"'in1_channels', and the third dim must be equal to 'in2_channels'. But got "
                               f"'weight_init': {weight_init}, 'out_channels': {out_channels}, 'in_channels': "
                               f"{in1_channels}, 'in2_channels': {in2_channels}")
        self.weight = Parameter(initializer(weight_init, (out_channels, in1_channels, in2_channels), dtype=dtype),
                                name="weight")
        self.bias = None
        if has_bias:
            if bias_init is None:
                bias_init = Uniform(bound)
            if isinstance(bias_init, Tensor) and tuple(bias_init.shape) != (out_channels,):
                raise MSValueError(f"For 'BiDense', bias init shape error. The ndim of 'bias_init' should be equal to "
                                   f"1, and the first dim must be equal to 'out_channels'. But got 'bias_init': "
                                   f"{bias_init}, 'out_channels': {out_channels}.")
            self.bias = Parameter(initializer(bias_init, [out_channels], dtype=dtype), name="bias")

    def construct(self, input1, input2):
        chk.check_tensor("BiDense", "input1", input1)
        chk.check_tensor("BiDense", "input2", input2)
        for name, x, want, arg in (("input1", input1, self.in1_channels, "in1_channels"),
                                   ("input2", input2, self.in2_channels, "in2_channels")):
            if x.shape[-1] != want:
                raise MSValueError(f"For 'BiDense', the last dimension of '{name}' must be equal to '{arg}', but got "
                                   f"{x.shape[-1]} and {want}.")
        if input1.shape[:-1] != input2.shape[:-1]:
            raise MSValueError(f"For 'BiDense', the shape of 'input1' and 'input2' must be the same except the last "
                               f"dimension, but got {input1.shape} and {input2.shape}.")
        lead = input1.shape[:-1]
        x1 = ops.reshape(input1, (-1, self.in1_channels))
        x2 = ops.reshape(input2, (-1, self.in2_channels))
        # (B, in1) @ (in1, out * in2) -> (B, out, in2), then contract with x2
        w = ops.reshape(ops.transpose(ops.cast(self.weight, x1.dtype), (1, 0, 2)), (self.in1_channels, -1))
        t = ops.reshape(ops.matmul(x1, w), (-1, self.out_channels, self.in2_channels))
        out = ops.sum(t * ops.expand_dims(x2, 1), 2)
        if self.has_bias:
            out = out + ops.cast(self.bias, out.dtype)
        return ops.reshape(out, lead + (self.out_channels,))

    def extend_repr(self):
        s = f"in1_channels={self.in1_channels}, in2_channels={self.in2_channels}, output_channels={self.out_channels}"
        if self.has_bias:
            s += f", has_bias={self.has_bias}"
        return s
