"""ASGD (averaged stochastic gradient descent), as MindSpore 2.10's ``nn.ASGD`` computes it::

    eta = lr on the first step
    p = p * (1 - lambd * eta) - eta * g
    ax = p if mu == 1 else ax + (p - ax) * mu
    eta = lr / (1 + lambd * lr * step) ** alpha ;  mu = 1 / max(1, step - t0)

State: ``mu_<name>`` (1.0), ``eta_<name>`` (0.0) scalars and ``ax_.<name>`` (zeros), in float32.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["ASGD"]


class ASGD(Optimizer):
    r"""Averaged stochastic gradient descent; ``ax`` holds the running average of the parameters.

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        lambd (float): decay term. Default: ``1e-4``.
        alpha (float): power of the eta update. Default: ``0.75``.
        t0 (float): the step at which averaging starts. Default: ``1e6``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.ASGD([w], learning_rate=0.1, lambd=0.0)
        >>> _ = opt((ms.Tensor(np.array([3.0, -2.0], np.float32)),))
        >>> print(w.asnumpy().round(5))
        [0.7 1.2]
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        validator.check_value_type("lambd", lambd, [float], self.cls_name)
        validator.check_value_type("alpha", alpha, [float], self.cls_name)
        validator.check_value_type("t0", t0, [float], self.cls_name)
        self.lambd = lambd
        self.alpha = alpha
        self.t0 = Tensor([t0], dtype=mstype.float32)
        self.mu = ParameterTuple([Parameter(Tensor(1.0, mstype.float32), name=f"mu_{p.name}")
                                  for p in self._parameters])
        self.eta = ParameterTuple([Parameter(Tensor(0.0, mstype.float32), name=f"eta_{p.name}")
                                   for p in self._parameters])
        self.ax = self._parameters.clone(prefix="ax_", init="zeros")

    @jit
    def construct(self, gradients):
        gradients = self._prepare_gradients(gradients)
        lrs = self._lr_per_param(self.get_lr())
        step = ops.reshape(ops.cast(self._increase_global_step(), mstype.float32), ())
        return tuple(self._update(p, mu, eta, ax, g, lr, step)
                     for lr, p, mu, eta, ax, g in zip(lrs, self._parameters, self.mu, self.eta, self.ax, gradients))

    def _update(self, param, mu, eta, ax, grad, lr, step):
        lr = ops.reshape(ops.cast(lr, mstype.float32), ())
        eta_now = ops.assign(eta, ops.where(step == 1, lr, eta))
        p32 = ops.cast(param, mstype.float32) * (1.0 - self.lambd * eta_now) - eta_now * ops.cast(grad, mstype.float32)
        ops.assign(param, ops.cast(p32, param.dtype))
        ax32 = ops.cast(ax, mstype.float32)
        ops.assign(ax, ops.cast(ops.where(mu != 1, ax32 + (p32 - ax32) * mu, p32), ax.dtype))
        ops.assign(eta, lr / ops.pow(1.0 + self.lambd * lr * step, self.alpha))
        ops.assign(mu, 1.0 / ops.reshape(ops.maximum(Tensor(1.0, mstype.float32), step - self.t0), ()))
        return True
