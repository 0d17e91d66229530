"""The loss Cell of a Bayesian network: the backbone's loss plus the KL losses of its Bayesian layers."""
from __future__ import annotations

from mindspore._errors import MSTypeError, MSValueError
from mindspore.nn.cell import Cell
from mindspore.nn.probability.bnn_layers.conv_variational import _ConvVariational
from mindspore.nn.probability.bnn_layers.dense_variational import _DenseVariational

__all__ = ["WithBNNLossCell"]


def _check_factor(value, name, verb):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MSTypeError(f"The type of `{name}` must be `int` or `float`")
    if value < 0:
        raise MSValueError(f"The value of `{name}` {verb} >= 0")


class WithBNNLossCell(Cell):
    """``loss = loss_fn(backbone(x), label) * dnn_factor + sum of the Bayesian layers' KL losses * bnn_factor``.

    Args:
        backbone (Cell): The network.
        loss_fn (Cell): The loss of the network's output.
        dnn_factor (int, float): The weight of the backbone's loss, >= 0. Default: ``1``.
        bnn_factor (int, float): The weight of the KL losses, >= 0. Default: ``1``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> from mindspore.nn.probability import bnn_layers
        >>> net = bnn_layers.WithBNNLossCell(bnn_layers.DenseReparam(3, 1), nn.MSELoss(), 1, 0.001)
        >>> print(net(ms.Tensor(np.ones((2, 3)), ms.float32), ms.Tensor(np.ones((2, 1)), ms.float32)).shape)
        ()
    """

    def __init__(self, backbone, loss_fn, dnn_factor=1, bnn_factor=1):
        super().__init__(auto_prefix=False)
        _check_factor(dnn_factor, "dnn_factor", "should")
        _check_factor(bnn_factor, "bnn_factor", "must")
        self._backbone = backbone
        self._loss_fn = loss_fn
        self.dnn_factor = dnn_factor
        self.bnn_factor = bnn_factor
        self.kl_loss = []
        self._add_kl_loss(self._backbone)

    def construct(self, x, label):
        y_pred = self._backbone(x)
        backbone_loss = self._loss_fn(y_pred, label)
        kl_loss = 0
        for kl_loss_func in self.kl_loss:
            kl_loss = kl_loss + kl_loss_func()
        return backbone_loss * self.dnn_factor + kl_loss * self.bnn_factor

    def _add_kl_loss(self, net):
        for _, layer in net.name_cells().items():
            if isinstance(layer, (_DenseVariational, _ConvVariational)):
                self.kl_loss.append(layer.compute_kl_loss)
            else:
                self._add_kl_loss(layer)

    @property
    def backbone_network(self):
        """The backbone."""
        return self._backbone
