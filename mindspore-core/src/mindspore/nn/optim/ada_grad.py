"""Adagrad: the ``ApplyAdagrad`` primitive per parameter, as MindSpore's nn.Adagrad (its CPU kernel's formula, in
the parameter's dtype; other dtypes run the same formula as a chain of primitives)::

    accum += g * g                   (if update_slots)
    p -= lr * g * (1 / sqrt(accum + 1e-6))

State: ``accum.<name>``, initialised to ``accum`` (default 0.1).
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

_ADAGRAD_TYPES = (mstype.float16, mstype.float32, mstype.float64)   # ApplyAdagrad's real dtypes

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    r"""The Adagrad algorithm.

    .. math::
        h_{t} = h_{t-1} + g^2, \quad w_{t} = w_{t-1} - lr \frac{g}{\sqrt{h_{t}}}

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        accum (float): the starting value of the accumulator, >= 0. Default: ``0.1``.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.001``.
        update_slots (bool): whether the accumulator is updated. Default: ``True``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.Adagrad([w], accum=0.0, learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.full(2, 3.0, np.float32)),))
        >>> print(w.asnumpy().round(5))
        [0.9 0.9]
    """

    @opt_init_args_register
    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        validator.check_value_type("accum", accum, [float], self.cls_name)
        validator.check_value_type("update_slots", update_slots, [bool], self.cls_name)
        validator.check_non_negative_float("accum", accum, self.cls_name)
        self.update_slots = update_slots
        self.accum = self._parameters.clone(prefix="accum", init=accum)
        self._eps = {dt: Tensor(np.asarray(1e-6, dt.to_numpy()), dt) for dt in {p.dtype for p in self._parameters}}
        self._opt = ops.ApplyAdagrad(update_slots)

    @jit
    def construct(self, grads):
        grads = self._prepare_gradients(grads)
        lr = self.get_lr()
        self._increase_global_step()
        return tuple(self._update(p, a, g, lr_i)
                     for lr_i, p, a, g in zip(self._lr_per_param(lr), self._parameters, self.accum, grads))

    def _update(self, param, accum, g, lr):
        dtype = param.dtype
        if dtype in _ADAGRAD_TYPES:     # one primitive per parameter, as MindSpore's nn.Adagrad
            self._opt(param, accum, lr, g if g.dtype == dtype else ops.cast(g, dtype))
            return True
        lr = lr if lr.dtype == dtype else ops.cast(lr, dtype)
        if self.update_slots:
            accum = ops.assign(accum, ops.add(accum, ops.mul(g, g)))
        eps = self._eps.get(dtype)
        eps = eps if eps is not None else Tensor(np.asarray(1e-6, dtype.to_numpy()), dtype)
        inv = ops.div(ops.ones_like(accum), ops.sqrt(ops.add(accum, eps)))
        ops.assign_sub(param, ops.mul(ops.mul(lr, g), inv))
        return True
