"""Adadelta (MindSpore's ApplyAdadelta kernel)::

    accum = rho * accum + (1 - rho) * g^2
    update = sqrt(accum_update + epsilon) * g / sqrt(accum + epsilon)
    accum_update = rho * accum_update + (1 - rho) * update^2
    p -= lr * update

State: ``accum.<name>``, ``accum_update.<name>`` (zeros).
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register

__all__ = ["Adadelta"]


def _const(value, dtype):
    return Tensor(np.asarray(value, dtype.to_numpy()), dtype)


class Adadelta(Optimizer):
    r"""The Adadelta algorithm (`ADADELTA: An Adaptive Learning Rate Method <https://arxiv.org/abs/1212.5701>`_).

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1.0``.
        rho (float): the decay rate, in [0, 1]. Default: ``0.9``.
        epsilon (float): >= 0. Default: ``1e-6``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.Adadelta([w])
        >>> _ = opt((ms.Tensor(np.ones(2, np.float32)),))
        >>> [p.name for p in opt.accum_update]
        ['accum_update.w']
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("rho", rho, [float], self.cls_name)
        if not 0.0 <= rho <= 1.0:
            raise MSValueError(f"For '{self.cls_name}', the 'rho' must be in range [0.0, 1.0], but got {rho}.")
        validator.check_value_type("epsilon", epsilon, [float], self.cls_name)
        validator.check_non_negative_float("epsilon", epsilon, self.cls_name)
        self.accum = self.parameters.clone(prefix="accum", init=0)
        self.accum_update = self.parameters.clone(prefix="accum_update", init=0)
        self.rho = rho
        self.epsilon = epsilon

    def construct(self, grads):
        if not isinstance(grads, tuple) or not grads or not isinstance(grads[0], Tensor):
            raise MSTypeError("For 'Adadelta', the 'grads' must be a tuple of Tensor.")
        grads = self._prepare_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        return tuple(self._update(p, a, u, g, lr_i)
                     for lr_i, p, a, u, g in zip(self._lr_per_param(lr), self.parameters, self.accum,
                                                 self.accum_update, grads))

    def _update(self, param, accum, accum_update, g, lr):
        dtype = param.dtype
        rho = _const(self.rho, dtype)
        one_minus_rho = _const(np.asarray(1, dtype.to_numpy()) - np.asarray(self.rho, dtype.to_numpy()), dtype)
        eps = _const(self.epsilon, dtype)
        lr = lr if lr.dtype == dtype else ops.cast(lr, dtype)
        if dtype == mstype.float32:
            # 2.10's CPU ApplyAdadelta: rho * x in float32, (1.0 - rho) * (...) and the sum in double
            # (its `1.0` literal), rounded to float32; update = sqrt(accum_update + eps) * (g / sqrt(accum + eps))
            omr = _const(1.0 - np.float64(np.float32(self.rho)), mstype.float64)

            def blend(x, y):
                wide = ops.add(ops.cast(ops.mul(rho, x), mstype.float64), ops.mul(omr, ops.cast(y, mstype.float64)))
                return ops.cast(wide, dtype)

            next_accum = blend(accum, ops.mul(g, g))
            ops.assign(accum, next_accum)
            update = ops.mul(ops.sqrt(ops.add(accum_update, eps)), ops.div(g, ops.sqrt(ops.add(next_accum, eps))))
            ops.assign(accum_update, blend(accum_update, ops.mul(update, update)))
            ops.assign_sub(param, ops.mul(lr, update))
            return True
        next_accum = ops.add(ops.mul(rho, accum), ops.mul(one_minus_rho, ops.mul(g, g)))
        ops.assign(accum, next_accum)
        update = ops.div(ops.mul(ops.sqrt(ops.add(accum_update, eps)), g), ops.sqrt(ops.add(next_accum, eps)))
        ops.assign(accum_update, ops.add(ops.mul(rho, accum_update), ops.mul(one_minus_rho, ops.mul(update, update))))
        ops.assign_sub(param, ops.mul(lr, update))
        return True
