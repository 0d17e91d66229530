"""Momentum: ``v = momentum * v + g; p -= lr * v``, one ``ops.ApplyMomentum`` per parameter (no dampening).

With ``use_nesterov``: ``p -= g * lr + v * momentum * lr``. State: ``momentum`` (a float32 Parameter) and
``moments.<param name>`` (zeros).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["Momentum"]


class Momentum(Optimizer):
    r"""The Momentum algorithm.

    .. math::
        v_{t+1} = v_{t} \ast u + grad

    If use_nesterov is True: :math:`p_{t+1} = p_{t} - (grad \ast lr + v_{t+1} \ast u \ast lr)`, else
    :math:`p_{t+1} = p_{t} - lr \ast v_{t+1}`.

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups (see :class:`Optimizer`).
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): the learning rate.
        momentum (float): the momentum, at least 0.0.
        weight_decay (Union[float, int, Cell]): weight decay (L2 penalty). Default: ``0.0``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        use_nesterov (bool): Nesterov momentum. Default: ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of `params`.

    Outputs:
        tuple[bool], all True.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.Momentum([w], learning_rate=0.1, momentum=0.9)
        >>> g = (ms.Tensor(np.ones(2, np.float32)),)
        >>> _ = opt(g); _ = opt(g)
        >>> print(w.asnumpy())
        [0.71 0.71]
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0, use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("momentum", momentum, [float], self.cls_name)
        if momentum < 0.0:
            raise MSValueError(f"For 'Momentum', the argument 'momentum' must be at least 0.0, but got {momentum}")
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool("use_nesterov", use_nesterov, self.cls_name)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.apply_momentum = ops.ApplyMomentum(use_nesterov=self.use_nesterov)

    @jit
    def construct(self, gradients):
        gradients = self._prepare_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        for lr_i, g, p, m in zip(self._lr_per_param(lr), gradients, self.params, self.moments):
            self.apply_momentum(p, m, lr_i, g, self.momentum)
        return (True,) * len(self.params)   # MindSpore's Momentum returns a success flag per parameter
