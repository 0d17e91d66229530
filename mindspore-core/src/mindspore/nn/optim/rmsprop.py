"""RMSProp, plain and centered: the ``ApplyRMSProp`` / ``ApplyCenteredRMSProp`` primitive per parameter, as
MindSpore's nn.RMSProp (in the parameter's dtype; ``1 - decay``, ``momentum``, ``epsilon``, ``lr`` cast to it)::

    ms += (g * g - ms) * (1 - decay)
    centered:  mg += (g - mg) * (1 - decay);  denom = ms - mg * mg + epsilon   (elements with denom <= 0 skip)
    plain:     denom = ms + epsilon
    mom = mom * momentum + g * lr / sqrt(denom);  p -= mom

State: ``mean_square.<name>`` (ones), ``moment.<name>`` (zeros), ``mean_grad.<name>`` (zeros, centered only).
``global_step`` is incremented every step.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["RMSProp"]


_RMSPROP_TYPES = (mstype.float16, mstype.float32, mstype.float64)   # what ApplyRMSProp takes


def _const(value, dtype):
    return Tensor(np.asarray(value, dtype.to_numpy()), dtype)


class RMSProp(Optimizer):
    r"""Root Mean Square Propagation.

    .. math::
        s_{t+1} = \rho s_{t} + (1 - \rho) g^2, \quad
        m_{t+1} = \beta m_{t} + \frac{\eta}{\sqrt{s_{t+1} + \epsilon}} g, \quad w_{t+1} = w_{t} - m_{t+1}

    Centered: :math:`m_{t+1} = \beta m_{t} + \frac{\eta}{\sqrt{s_{t+1} - g_{t+1}^2 + \epsilon}} g` with
    :math:`g_{t+1} = \rho g_{t} + (1 - \rho) g` the mean gradient.

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        decay (float): the decay rate, >= 0. Default: ``0.9``.
        momentum (float): >= 0. Default: ``0.0``.
        epsilon (float): > 0. Default: ``1e-10``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        centered (bool): centered RMSProp. Default: ``False``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.RMSProp([w], learning_rate=0.1, decay=0.0)
        >>> _ = opt((ms.Tensor(np.full(2, 2.0, np.float32)),))
        >>> print(w.asnumpy())
        [0.9 0.9]
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        validator.check_value_type("decay", decay, [float], name)
        validator.check_non_negative_float("decay", decay, name)
        validator.check_value_type("momentum", momentum, [float], name)
        validator.check_non_negative_float("momentum", momentum, name)
        validator.check_value_type("epsilon", epsilon, [float], name)
        validator.check_positive_float("epsilon", epsilon, name)
        validator.check_value_type("use_locking", use_locking, [bool], name)
        validator.check_value_type("centered", centered, [bool], name)
        self.centered = centered
        if centered:
            self.mg = self._parameters.clone(prefix="mean_grad", init="zeros")
        self.momentum = momentum
        self.ms = self._parameters.clone(prefix="mean_square", init="ones")
        self.moment = self._parameters.clone(prefix="moment", init="zeros")
        self.epsilon = epsilon
        self.decay = decay
        # (1 - decay, momentum, epsilon) in each parameter dtype, made once (not uploaded at every step)
        self._consts = {dt: self._constants(dt) for dt in {p.dtype for p in self._parameters}}
        self._opt = ops.ApplyRMSProp(use_locking)
        self._centered_opt = ops.ApplyCenteredRMSProp(use_locking)

    def _constants(self, dt):
        return (_const(np.asarray(1.0, dt.to_numpy()) - np.asarray(self.decay, dt.to_numpy()), dt),
                _const(self.momentum, dt), _const(self.epsilon, dt))

    @jit
    def construct(self, gradients):
        gradients = self._prepare_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        mgs = self.mg if self.centered else (None,) * self.param_length
        return tuple(self._update(p, mg, ms, mom, g, lr_i)
                     for lr_i, p, mg, ms, mom, g in zip(self._lr_per_param(lr), self._parameters, mgs, self.ms,
                                                        self.moment, gradients))

    def _update(self, param, mean_grad, mean_square, moment, g, lr):
        dtype = param.dtype
        if dtype in _RMSPROP_TYPES:     # one primitive per parameter, as MindSpore's nn.RMSProp
            g = g if g.dtype == dtype else ops.cast(g, dtype)
            if mean_grad is None:
                self._opt(param, mean_square, moment, lr, g, self.decay, self.momentum, self.epsilon)
            else:
                self._centered_opt(param, mean_grad, mean_square, moment, g, lr, self.decay, self.momentum,
                                   self.epsilon)
            return True
        consts = self._consts.get(dtype)
        one_minus_decay, momentum, epsilon = consts if consts is not None else self._constants(dtype)
        lr = lr if lr.dtype == dtype else ops.cast(lr, dtype)
        next_ms = ops.add(mean_square, ops.mul(ops.sub(ops.mul(g, g), mean_square), one_minus_decay))
        ops.assign(mean_square, next_ms)
        if mean_grad is None:
            next_mom = ops.add(ops.mul(moment, momentum), ops.div(ops.mul(g, lr), ops.sqrt(ops.add(next_ms, epsilon))))
            ops.assign(moment, next_mom)
            ops.assign_sub(param, next_mom)
            return True
        next_mg = ops.add(mean_grad, ops.mul(ops.sub(g, mean_grad), one_minus_decay))
        ops.assign(mean_grad, next_mg)
        denom = ops.add(ops.sub(next_ms, ops.mul(next_mg, next_mg)), epsilon)
        valid = ops.greater(denom, 0)
        safe = ops.select(valid, denom, ops.ones_like(denom))
        next_mom = ops.add(ops.mul(moment, momentum), ops.div(ops.mul(g, lr), ops.sqrt(safe)))
        next_mom = ops.select(valid, next_mom, moment)
        ops.assign(moment, next_mom)
        ops.assign_sub(param, ops.select(valid, next_mom, ops.zeros_like(next_mom)))
        return True
