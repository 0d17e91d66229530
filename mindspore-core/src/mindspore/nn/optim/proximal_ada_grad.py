"""ProximalAdagrad (MindSpore's ApplyProximalAdagrad), Adagrad followed by the proximal step of an L1 / L2 penalty::

    accum += g * g
    lr_t = lr / sqrt(accum)                          (per element, also for the penalties, as the kernel does)
    v = p - lr_t * g
    p = sign(v) / (1 + lr_t * l2) * max(|v| - lr_t * l1, 0)

State: ``accum.<name>``, initialised to ``accum`` (default 0.1).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["ProximalAdagrad"]


class ProximalAdagrad(Optimizer):
    r"""The ProximalAdagrad algorithm.

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        accum (float): starting value of the accumulator, >= 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        l1 (float): L1 strength, >= 0. Default: ``0.0``.
        l2 (float): L2 strength, >= 0. Default: ``0.0``.
        use_locking (bool): kept for compatibility (updates are not concurrent here). Default: ``False``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.ProximalAdagrad([w], accum=0.0, learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.array([3.0, -2.0], np.float32)),))
        >>> print(w.asnumpy().round(5))
        [0.9 1.1]
    """

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            validator.check_value_type(name, value, [float], self.cls_name)
            validator.check_non_negative_float(name, value, self.cls_name)
        validator.check_value_type("use_locking", use_locking, [bool], self.cls_name)
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self.l1 = Tensor(l1, mstype.float32)
        self.l2 = Tensor(l2, mstype.float32)
        self.use_locking = use_locking
        self._opt = ops.ApplyProximalAdagrad(use_locking)

    @jit
    def construct(self, grads):
        grads = self._prepare_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        return tuple(self._update(p, a, g, lr_i)
                     for lr_i, p, a, g in zip(self._lr_per_param(lr), self._parameters, self.accum, grads))

    def _update(self, param, accum, g, lr):
        dtype = param.dtype
        cast = lambda t: t if t.dtype == dtype else ops.cast(t, dtype)  # noqa: E731
        lr, l1, l2 = cast(ops.reshape(lr, ())), cast(self.l1), cast(self.l2)
        if dtype == mstype.float32:     # one primitive per parameter, as MindSpore's nn.ProximalAdagrad
            self._opt(param, accum, lr, l1, l2, cast(g))
            return True
        acc = ops.assign(accum, accum + g * g)
        lr_t = lr / ops.sqrt(acc)
        v = param - lr_t * g
        ops.assign(param, ops.sign(v) / (1 + lr_t * l2) * ops.relu(ops.abs(v) - lr_t * l1))
        return True
