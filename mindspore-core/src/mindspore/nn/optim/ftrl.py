"""FTRL (MindSpore's ApplyFtrl kernel), with ``p`` = ``lr_power`` and ``alpha`` the learning rate::

    accum_new = accum + g^2
    linear += g - (accum_new^(-p) - accum^(-p)) / alpha * w
    w = (sign(linear) * l1 - linear) / (accum_new^(-p) / alpha + 2 * l2)   if |linear| > l1, else 0
    accum = accum_new

State: ``moments.<name>`` (``initial_accum``), ``linear.<name>`` (zeros). The learning rate must be fixed and
shared (no groups with their own ``lr``); weight decay applies to every parameter when ungrouped.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore._errors import MSValueError
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["FTRL"]


def _const(value, dtype):
    return Tensor(np.asarray(value, dtype.to_numpy()), dtype)


def _check_param(initial_accum, learning_rate, lr_power, l1, l2, use_locking, prim_name):
    validator.check_value_type("initial_accum", initial_accum, [float], prim_name)
    validator.check_non_negative_float("initial_accum", initial_accum, prim_name)
    validator.check_value_type("learning_rate", learning_rate, [float], prim_name)
    validator.check_non_negative_float("learning_rate", learning_rate, prim_name)
    validator.check_value_type("lr_power", lr_power, [float], prim_name)
    if lr_power > 0.0:
        raise MSValueError(f"For '{prim_name}', the 'lr_power' must be less than or equal to 0, but got {lr_power}.")
    validator.check_value_type("l1", l1, [float], prim_name)
    validator.check_non_negative_float("l1", l1, prim_name)
    validator.check_value_type("l2", l2, [float], prim_name)
    validator.check_non_negative_float("l2", l2, prim_name)
    validator.check_value_type("use_locking", use_locking, [bool], prim_name)


class FTRL(Optimizer):
    r"""The FTRL algorithm (`Adaptive Bound Optimization for Online Convex Optimization
    <https://arxiv.org/abs/1002.4908>`_).

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or groups (no per-group ``lr``).
        initial_accum (float): the starting accumulator value, >= 0. Default: ``0.1``.
        learning_rate (float): the fixed learning rate, >= 0. Default: ``0.001``.
        lr_power (float): <= 0; 0 means a fixed rate. Default: ``-0.5``.
        l1 (float): l1 regularization, >= 0. Default: ``0.0``.
        l2 (float): l2 regularization, >= 0. Default: ``0.0``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.FTRL([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.ones(2, np.float32)),))
        >>> [p.name for p in opt.get_parameters()][-2:]
        ['moments.w', 'linear.w']
    """

    @opt_init_args_register
    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale=loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise MSValueError(f"For 'FTRL', dynamic learning rate and group learning rate are currently not "
                               f"supported in FTRL, they should all be false, but got dynamic learning rate "
                               f"{self.dynamic_lr} and group learning rate {self.is_group_lr}.")
        _check_param(initial_accum, learning_rate, lr_power, l1, l2, use_locking, self.cls_name)
        self.moments = self._parameters.clone(prefix="moments", init=initial_accum)
        self.linear = self._parameters.clone(prefix="linear", init="zeros")
        self.l1 = l1
        self.l2 = l2
        self.lr = learning_rate
        self.lr_power = lr_power
        if not self.is_group:
            self.decay_flags = (True,) * self.param_length
        self.use_locking = use_locking
        self._opt = ops.ApplyFtrl(use_locking)

    @jit
    def construct(self, grads):
        grads = self._prepare_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        return tuple(self._update(p, m, lin, g, lr)
                     for p, m, lin, g in zip(self._parameters, self.moments, self.linear, grads))

    def _update(self, param, accum, linear, g, lr):
        dtype = param.dtype
        lr = lr if lr.dtype == dtype else ops.cast(lr, dtype)
        if dtype == mstype.float32:     # one primitive per parameter, as MindSpore's nn.FTRL
            self._opt(param, accum, linear, g if g.dtype == dtype else ops.cast(g, dtype), ops.reshape(lr, ()),
                      _const(self.l1, dtype), _const(self.l2, dtype), _const(self.lr_power, dtype))
            return True
        neg_power = _const(-self.lr_power, dtype)
        accum_new = ops.add(accum, ops.mul(g, g))
        new_pow = ops.pow(accum_new, neg_power)
        sigma = ops.div(ops.sub(new_pow, ops.pow(accum, neg_power)), lr)
        next_linear = ops.add(linear, ops.sub(g, ops.mul(sigma, param)))   # 2.10's CPU ApplyFtrl: linear += g - ...
        quadratic = ops.add(ops.div(new_pow, lr), _const(2 * self.l2, dtype))
        l1 = _const(self.l1, dtype)
        shrunk = ops.div(ops.sub(ops.mul(ops.sign(next_linear), l1), next_linear), quadratic)
        next_param = ops.select(ops.greater(ops.abs(next_linear), l1), shrunk, ops.zeros_like(shrunk))
        ops.assign(linear, next_linear)
        ops.assign(accum, accum_new)
        ops.assign(param, next_param)
        return True
