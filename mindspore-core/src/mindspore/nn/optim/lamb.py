"""LAMB (Layer-wise Adaptive Moments for Batch training), MindSpore's Lamb kernel.

``global_step`` is incremented first (after :meth:`get_lr`), then with ``t = global_step``::

    m = beta1 * m + (1 - beta1) * g;   v = beta2 * v + (1 - beta2) * g^2
    m_hat = m / (1 - beta1^t);          v_hat = v / (1 - beta2^t)
    update = m_hat / (sqrt(v_hat) + eps) + wd * p
    g_hat  = m_hat / sqrt(v_hat + eps) + wd * p          (only for the trust ratio, as the kernel computes it)
    trust  = clip(|p| / |g_hat|, 0, 10), or 1 when |p| == 0 or |g| == 0
    p -= trust * lr * update

``wd`` is 0 for parameters that do not decay (``beta``/``gamma`` names when ungrouped). The gradients are not
divided by a loss scale (LAMB has no ``loss_scale``). State: ``lamb_m.<name>``, ``lamb_v.<name>``.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["Lamb"]


def _f32(value):
    return Tensor(np.float32(value), mstype.float32)


def _check_param_value(beta1, beta2, eps, prim_name):
    validator.check_value_type("beta1", beta1, [float], prim_name)
    validator.check_value_type("beta2", beta2, [float], prim_name)
    validator.check_value_type("eps", eps, [float], prim_name)
    validator.check_open_range("beta1", beta1, 0.0, 1.0, prim_name)
    validator.check_open_range("beta2", beta2, 0.0, 1.0, prim_name)
    validator.check_positive_float("eps", eps, prim_name)


class Lamb(Optimizer):
    r"""The LAMB algorithm (`LARGE BATCH OPTIMIZATION FOR DEEP LEARNING <https://arxiv.org/abs/1904.00962>`_).

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): the learning rate.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(4, np.float32)), name="w")
        >>> opt = nn.Lamb([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.ones(4, np.float32)),))
        >>> print(w.asnumpy().round(4))
        [0.9 0.9 0.9 0.9]
    """

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = _f32(beta1)
        self.beta2 = _f32(beta2)
        self.one_minus_beta1 = _f32(np.float32(1.0) - np.float32(beta1))
        self.one_minus_beta2 = _f32(np.float32(1.0) - np.float32(beta2))
        self.eps = _f32(eps)
        self.params = self._parameters
        self.moments1 = self.params.clone(prefix="lamb_m", init="zeros")
        self.moments2 = self.params.clone(prefix="lamb_v", init="zeros")

    @jit
    def construct(self, gradients):
        gradients = tuple(gradients) if isinstance(gradients, (tuple, list)) else (gradients,)
        if len(gradients) != self.param_length:
            raise MSValueError(f"For 'Lamb', the number of gradients must equal the number of parameters "
                               f"{self.param_length}, but got {len(gradients)}.")
        weight_decay = self.get_weight_decay()
        lr = self.get_lr()
        self._increase_global_step()
        gradients = self.gradients_centralization(self.flatten_gradients(gradients))
        step = ops.cast(self.global_step, mstype.float32)
        correction1 = ops.sub(1.0, ops.pow(self.beta1, step))
        correction2 = ops.sub(1.0, ops.pow(self.beta2, step))
        decays = weight_decay if self.is_group else (weight_decay,) * self.param_length
        return tuple(self._update(p, m, v, g, lr_i, wd if flag else None, correction1, correction2)
                     for lr_i, wd, flag, g, p, m, v in zip(self._lr_per_param(lr), decays, self.decay_flags,
                                                           gradients, self.params, self.moments1, self.moments2))

    def _update(self, param, m, v, gradient, lr, weight_decay, correction1, correction2):
        dtype = param.dtype
        p32 = ops.cast(param, mstype.float32)
        g32 = ops.cast(gradient, mstype.float32)
        next_m = ops.add(ops.mul(self.beta1, ops.cast(m, mstype.float32)), ops.mul(self.one_minus_beta1, g32))
        next_v = ops.add(ops.mul(self.beta2, ops.cast(v, mstype.float32)),
                         ops.mul(self.one_minus_beta2, ops.square(g32)))
        next_mm = ops.div(next_m, correction1)
        next_vv = ops.div(next_v, correction2)
        update = ops.div(next_mm, ops.add(ops.sqrt(next_vv), self.eps))
        g_hat = ops.div(next_mm, ops.sqrt(ops.add(next_vv, self.eps)))
        if weight_decay is not None:
            decayed = ops.mul(ops.cast(weight_decay, mstype.float32), p32)
            update = ops.add(update, decayed)
            g_hat = ops.add(g_hat, decayed)
        w_norm = ops.norm(p32)
        g_norm = ops.norm(g32)
        g_hat_norm = ops.norm(g_hat)
        ones = ops.ones_like(w_norm)
        ratio = ops.div(w_norm, ops.select(ops.greater(g_hat_norm, 0), g_hat_norm, ones))
        trust = ops.select(ops.greater(w_norm, 0), ops.select(ops.greater(g_norm, 0), ratio, ones), ones)
        trust = ops.clip_by_value(trust, 0.0, 10.0)
        next_param = ops.sub(p32, ops.mul(ops.mul(trust, ops.cast(lr, mstype.float32)), update))
        ops.assign(m, ops.cast(next_m, m.dtype))
        ops.assign(v, ops.cast(next_v, v.dtype))
        ops.assign(param, ops.cast(next_param, dtype))
        return True
