"""``LessBN``: MindSpore's "less batch normalization" boost, and its feature-normalised head
:class:`CommonHeadLastFN`.

``LessBN(network, fn_flag=True)`` replaces the network's last ``Dense`` layer by a :class:`CommonHeadLastFN` of
the same shape and weights: the features and each class's weight vector are L2-normalised and the logits scaled
by a learned multiplier (feature normalisation, which lets training converge with fewer normalisation layers).
The network is marked with the ``less_bn`` flag (``network.get_flags()``). MindSpore's graph compiler also drops
some BatchNorm layers of a flagged network; this implementation does not (the network's BatchNorm layers all
run), so the flag's only effect here is the head.
"""
import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer.basic import Dense

__all__ = ["CommonHeadLastFN", "LessBN"]


class CommonHeadLastFN(Cell):
    """A classifier head on normalised features: ``multiplier * normalize(x) @ normalize(weight).T + bias``.

    Args:
        in_channels (int): input features.
        out_channels (int): classes.
        weight_init (Union[str, Tensor]): Default ``"normal"``.
        bias_init (Union[str, Tensor]): Default ``"zeros"``.
        has_bias (bool): Default ``True``.
    """

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros", has_bias=True):
        super().__init__()
        self.weight = Parameter(initializer(weight_init, [out_channels, in_channels], mstype.float32), name="weight")
        self.multiplier = Parameter(Tensor(np.ones([1]), mstype.float32), name="multiplier")
        self.has_bias = has_bias
        if has_bias:
            self.bias = Parameter(initializer(bias_init, [out_channels], mstype.float32), name="bias")

    def construct(self, x):
        x = ops.L2Normalize(axis=1)(x)
        w = ops.L2Normalize(axis=1)(self.weight)
        x = ops.matmul(x, ops.transpose(w, (1, 0)))
        if self.has_bias:
            x = ops.bias_add(x, self.bias)
        return self.multiplier * x


class LessBN(Cell):
    """Wrap ``network`` for less-BN training (see the module docstring).

    Args:
        network (Cell): the network.
        fn_flag (bool): replace the last ``Dense`` layer by a :class:`CommonHeadLastFN`. Default ``False``.
    """

    def __init__(self, network, fn_flag=False):
        super().__init__()
        self.network = network
        if "less_bn" not in self.network.get_flags():
            self.network.add_flags(less_bn=True)
            if fn_flag:
                self._convert_to_less_bn_net(self.network)
            self.network.add_flags(defer_inline=True)

    @staticmethod
    def _convert_dense(dense):
        head = CommonHeadLastFN(dense.in_channels, dense.out_channels, dense.weight.value(),
                                has_bias=False)
        return head

    def _convert_to_less_bn_net(self, net):
        last = None
        for name, cell in net.name_cells().items():
            if cell is net:
                continue
            if isinstance(cell, Dense):
                last = name
            else:
                self._convert_to_less_bn_net(cell)
        if last is not None:
            net.insert_child_to_cell(last, LessBN._convert_dense(net.name_cells()[last]))

    def construct(self, *inputs):
        return self.network(*inputs)
