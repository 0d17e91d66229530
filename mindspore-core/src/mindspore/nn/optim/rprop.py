"""Rprop (resilient backpropagation), as MindSpore 2.10's ``nn.Rprop`` computes it::

    s = sign(g * prev)  ->  etaplus where > 0, etaminus where < 0, 1 where 0
    step = clip(step * s, step_min, step_max)       (step starts at lr on the first update)
    g' = 0 where s == etaminus else g
    p -= sign(g') * step ;  prev = g'

State: ``prev.<name>`` and ``step_size.<name>`` (zeros).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["Rprop"]


class Rprop(Optimizer):
    r"""The Rprop algorithm: per-element step sizes grown by ``etaplus`` while the gradient keeps its sign and
    shrunk by ``etaminus`` when it flips.

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): the first step size.
            Default: ``0.1``.
        etas (tuple[float, float]): (etaminus in (0, 1), etaplus > 1). Default: ``(0.5, 1.2)``.
        step_sizes (tuple[float, float]): (min, max) step size. Default: ``(1e-6, 50.)``.
        weight_decay (Union[float, int, Cell]): L2 penalty. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.Rprop([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.array([3.0, -2.0], np.float32)),))
        >>> print(w.asnumpy().round(5))
        [0.9 1.1]
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.), weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise MSTypeError(f"For Rprop, etas must be a tuple, but got {type(etas)}.")
        if len(etas) != 2:
            raise MSValueError(f"For Rprop, etas must be a tuple with the size of 2, but got {len(etas)}.")
        if not isinstance(step_sizes, tuple):
            raise MSTypeError(f"For Rprop, step_sizes must be a tuple, but got {type(etas)}.")
        if len(step_sizes) != 2:
            raise MSValueError(f"For Rprop, step_sizes must be a tuple with the size of 2, but got "
                               f"{len(step_sizes)}.")
        if step_sizes[0] > step_sizes[1]:
            raise MSValueError(f"For Rprop, maximal step size should not be less than minimal step size, but got "
                               f"{step_sizes[0]} > {step_sizes[1]}.")
        validator.check_open_range("etaminus", etas[0], 0.0, 1.0, self.cls_name)
        validator.check_value_type("etaplus", etas[1], [float], self.cls_name)
        if etas[1] <= 1.0:
            raise MSValueError(f"For Rprop, etaplus must be greater than 1.0, but got etaplus {etas[1]}.")
        validator.check_value_type("min_step_sizes", step_sizes[0], [float], self.cls_name)
        validator.check_value_type("max_step_sizes", step_sizes[1], [float], self.cls_name)
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self._parameters.clone(prefix="prev", init="zeros")
        self.step_size = self._parameters.clone(prefix="step_size", init="zeros")

    @jit
    def construct(self, gradients):
        gradients = self._prepare_gradients(gradients)
        lrs = self._lr_per_param(self.get_lr())
        step = self._increase_global_step()
        first = ops.reshape(step, ()) == 1
        return tuple(self._update(p, prev, s, g, lr, first)
                     for lr, p, prev, s, g in zip(lrs, self._parameters, self.prev, self.step_size, gradients))

    def _update(self, param, prev, step_size, grad, lr, first):
        dtype = param.dtype if param.dtype in (mstype.float16, mstype.bfloat16) else mstype.float32
        cast = lambda t: ops.cast(t, dtype)  # noqa: E731
        step = ops.where(first, ops.ones_like(cast(step_size)) * cast(lr), cast(step_size))
        g = cast(grad)
        sign = ops.sign(g * cast(prev))
        factor = ops.where(sign > 0, ops.full_like(sign, self.etaplus),
                           ops.where(sign < 0, ops.full_like(sign, self.etaminus), ops.ones_like(sign)))
        step = ops.clamp(step * factor, self.step_size_min, self.step_size_max)
        g = ops.where(sign < 0, ops.zeros_like(g), g)
        ops.assign(param, ops.cast(cast(param) - ops.sign(g) * step, param.dtype))
        ops.assign(prev, ops.cast(g, prev.dtype))
        ops.assign(step_size, ops.cast(step, step_size.dtype))
        return True
