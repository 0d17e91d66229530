"""``mindspore.nn.LARS``: layer-wise adaptive rate scaling (You et al. 2017, https://arxiv.org/abs/1708.03888)
around another optimizer.

For each parameter that ``lars_filter`` selects (by default: not a LayerNorm, not a bias), the gradient handed to
the wrapped optimizer is ``trust * (g + wd * w)`` with ``trust = coefficient * |w| / (|g| + wd * |w| + epsilon)``
(``1`` when ``|w|`` or ``|g|`` is 0; norms are L2 over the whole tensor). With ``use_clip``, ``trust`` becomes
``min(trust / lr, 1)`` (lr of the wrapped optimizer at this step). The gradients are divided by ``loss_scale``
first, and the weight decay (``wd``: the optimizer's ``weight_decay``, for the parameters it decays; the optimizer
stores it multiplied by ``loss_scale``, so it is divided back) moves into that formula: the wrapped optimizer's own
weight decay and loss-scale division are turned off, as in MindSpore. Unselected parameters pass their gradient
through.
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.common.api import jit

__all__ = ["LARS"]


def _default_filter(x):
    return "LayerNorm" not in x.name and "bias" not in x.name


class LARS(Optimizer):
    r"""Wraps ``optimizer`` so that each selected parameter's step is scaled by its layer-wise trust ratio.

    Args:
        optimizer (Optimizer): The optimizer to wrap.
        epsilon (float): Added to the denominator. Default ``1e-05``.
        coefficient (float): The trust coefficient. Default ``0.001``.
        use_clip (bool): Clip the trust ratio by the learning rate. Default ``False``.
        lars_filter (Callable): Which parameters LARS scales. Default: not LayerNorm, not bias.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of the optimizer's parameters.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.full(4, 2.0, np.float32)), name="w")
        >>> opt = nn.LARS(nn.Momentum([w], 0.1, 0.9), coefficient=0.1)
        >>> _ = opt((ms.Tensor(np.full(4, 1.0, np.float32)),))
        >>> w.asnumpy().astype(np.float64).round(5).tolist()
        [1.98, 1.98, 1.98, 1.98]
    """

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False, lars_filter=_default_filter):
        super().__init__(0.0, [Parameter(Tensor(0.0), name="fake_param")])
        if not isinstance(optimizer, Optimizer):
            raise MSTypeError(f"For 'LARS', the type of 'optimizer' must be Optimizer, but got "
                              f"{type(optimizer).__name__}.")
        for name, value in (("epsilon", epsilon), ("coefficient", coefficient)):
            if not isinstance(value, float) or isinstance(value, bool):
                raise MSTypeError(f"For 'LARS', the type of '{name}' must be float, but got "
                                  f"{type(value).__name__}.")
        if not isinstance(use_clip, bool):
            raise MSTypeError(f"For 'LARS', the type of 'use_clip' must be bool, but got {type(use_clip).__name__}.")
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise MSValueError("For 'LARS', if the argument 'use_clip' is set to True, then the dynamic learning rate "
                               "and group learning rate cannot both be true.")
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        self.parameters = optimizer.parameters
        self.global_step = optimizer.global_step
        self.lars_flag = tuple(bool(lars_filter(x)) for x in self.parameters)
        self.is_group = optimizer.is_group
        self.learning_rate = Parameter(Tensor(0.0, mstype.float32), name="fake_lr")
        self.decay_flags = optimizer.decay_flags
        self.opt_weight_decay = optimizer.weight_decay
        self.opt_dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.lars_reciprocal_scale = optimizer.reciprocal_scale
        self.lars_need_scale = optimizer.need_scale
        self.lars_loss_scale = optimizer.loss_scale
        # the wrapped optimizer no longer decays nor unscales: LARS folds both into its gradients
        optimizer.exec_weight_decay = False
        optimizer.need_scale = False
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)

    def _weight_decays(self):
        wd = self.opt_weight_decay
        if self.opt_dynamic_weight_decay:
            wd = self.opt.get_weight_decay()
        if self.is_group:
            return tuple(wd)
        return (wd,) * len(self.parameters)

    def _lrs(self):
        lr = self.opt.get_lr()
        return tuple(lr) if isinstance(lr, tuple) else (lr,) * len(self.parameters)

    def _scaled(self, w, g, wd, lr):
        w_norm = ops.sqrt(ops.reduce_sum(ops.square(w.astype(mstype.float32))))
        g_norm = ops.sqrt(ops.reduce_sum(ops.square(g.astype(mstype.float32))))
        trust = self.coefficient * w_norm / (g_norm + wd * w_norm + self.epsilon)
        usable = ops.logical_and(w_norm > 0, g_norm > 0)
        trust = ops.select(usable, trust, ops.ones_like(trust))
        if self.use_clip:
            trust = ops.minimum(trust / lr.astype(mstype.float32), ops.ones_like(trust))
        return ((g + wd.astype(g.dtype) * w) * trust.astype(g.dtype)).astype(g.dtype)

    @jit
    def construct(self, gradients):
        gradients = tuple(gradients)
        if self.lars_need_scale:
            gradients = tuple(g * self.lars_reciprocal_scale.astype(g.dtype) for g in gradients)
        decays, lrs = self._weight_decays(), self._lrs()
        out = ()
        for i, (w, g) in enumerate(zip(self.parameters, gradients)):
            if self.lars_flag[i]:
                wd = ops.cast(decays[i], mstype.float32) / self.lars_loss_scale if self.decay_flags[i] else \
                    Tensor(0.0, mstype.float32)
                g = self._scaled(w, g, wd, lrs[i])
            out = out + (g,)
        return self.opt(out)
