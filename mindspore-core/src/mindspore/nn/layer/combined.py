"""``Conv2dBnAct`` and ``DenseBnAct``: a convolution / dense layer, an optional BatchNorm and an optional
activation in sequence, with MindSpore 2.10's child names (``conv``/``dense``, ``batchnorm``, ``activation``,
so checkpoints load) and defaults (``weight_init='normal'``, BatchNorm ``momentum`` 0.997 / 0.9).
``activation='leakyrelu'`` uses ``alpha``; ``after_fake`` is checked and kept (it only matters for
quantisation-aware training, which is not provided).
"""
from __future__ import annotations

from mindspore._errors import MSTypeError
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk
from mindspore.nn.layer.activation import LeakyReLU, get_activation
from mindspore.nn.layer.basic import Dense
from mindspore.nn.layer.conv import Conv2d
from mindspore.nn.layer.normalization import BatchNorm1d, BatchNorm2d
from mindspore.ops.primitive import Primitive

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _activation(owner, activation, alpha):
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation, owner) if isinstance(activation, str) else activation
    if activation is not None and not isinstance(act, (Cell, Primitive)):
        raise MSTypeError(f"For '{owner}', the 'activation' must be str or Cell or Primitive, but got "
                          f"{type(activation).__name__}.")
    return act


class Conv2dBnAct(Cell):
    """``Conv2d`` -> ``BatchNorm2d`` (if ``has_bn``) -> activation (if given).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Conv2dBnAct(3, 8, 3, has_bn=True, activation='relu')
        >>> net(ms.Tensor(np.ones((1, 3, 5, 5), np.float32))).shape
        (1, 8, 5, 5)
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_init="normal", bias_init="zeros", has_bn=False, momentum=0.997,
                 eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self.has_bn = chk.check_bool("Conv2dBnAct", "has_bn", has_bn)
        self.after_fake = chk.check_bool("Conv2dBnAct", "after_fake", after_fake)
        self.has_act = activation is not None
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation("Conv2dBnAct", activation, alpha)

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """``Dense`` -> ``BatchNorm1d`` (if ``has_bn``) -> activation (if given).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.DenseBnAct(3, 4, has_bn=True, activation='relu')(ms.Tensor(np.ones((2, 3), np.float32))).shape
        (2, 4)
    """

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True,
                 has_bn=False, momentum=0.9, eps=1e-5, activation=None, alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = chk.check_bool("DenseBnAct", "has_bn", has_bn)
        self.after_fake = chk.check_bool("DenseBnAct", "after_fake", after_fake)
        self.has_act = activation is not None
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation("DenseBnAct", activation, alpha)

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
