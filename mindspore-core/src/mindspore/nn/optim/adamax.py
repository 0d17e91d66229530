"""AdaMax (MindSpore's ApplyAdaMax), the infinity-norm variant of Adam::

    beta1_power *= beta1
    m = beta1 * m + (1 - beta1) * g
    v = max(beta2 * v, |g|)
    p -= lr / (1 - beta1_power) * m / (v + eps)

State: ``beta1_power`` (shape [1], starts at 1), ``moment1.<name>`` and ``moment2.<name>`` (zeros).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    r"""The AdaMax algorithm (Adam with the infinity norm).

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        beta1 (float): first-moment decay, in (0, 1). Default: ``0.9``.
        beta2 (float): infinity-norm decay, in (0, 1). Default: ``0.999``.
        eps (float): added to the denominator, > 0. Default: ``1e-08``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.AdaMax([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.array([3.0, -2.0], np.float32)),))
        >>> print(w.asnumpy().round(5))
        [0.9 1.1]
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
            validator.check_value_type(name, value, [float], self.cls_name)
        validator.check_open_range("beta1", beta1, 0.0, 1.0, self.cls_name)
        validator.check_open_range("beta2", beta2, 0.0, 1.0, self.cls_name)
        validator.check_positive_float("eps", eps, self.cls_name)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.beta2 = Tensor(beta2, mstype.float32)
        self.beta1_power = Parameter(initializer(1, [1], mstype.float32), name="beta1_power")
        self.eps = Tensor(eps, mstype.float32)
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")

    @jit
    def construct(self, gradients):
        gradients = self._prepare_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        beta1_power = ops.assign(self.beta1_power, self.beta1_power * self.beta1)
        return tuple(self._update(p, m, v, g, lr_i, beta1_power)
                     for lr_i, p, m, v, g in zip(self._lr_per_param(lr), self._parameters, self.moment1,
                                                 self.moment2, gradients))

    def _update(self, param, m, v, g, lr, beta1_power):
        dtype = param.dtype
        cast = lambda t: t if t.dtype == dtype else ops.cast(t, dtype)  # noqa: E731
        beta1, beta2, eps, lr, power = cast(self.beta1), cast(self.beta2), cast(self.eps), cast(lr), cast(beta1_power)
        m_new = ops.assign(m, beta1 * m + (1 - beta1) * g)
        v_new = ops.assign(v, ops.maximum(beta2 * v, ops.abs(g)))
        # 2.10's CPU ApplyAdaMax: var - (lr / (1 - beta1_power)) * (m / (v + eps)), in that grouping
        ops.assign_sub(param, ops.reshape(lr / (1 - power), ()) * (m_new / (v_new + eps)))
        return True
