"""``mindspore.nn.AdaFactor``: Adafactor (Shazeer & Stern 2018, https://arxiv.org/abs/1804.04235).

Per step ``t`` (``afactor_step``), with ``beta2t = 1 - t ** -decay_rate`` and, under ``relative_step``, the
learning rate ``rho_t = min(1e-2, 1 / sqrt(t))`` (``min(1e-6 * t, 1 / sqrt(t))`` with ``warmup_init``):

- ``alpha = rho_t * max(eps2, RMS(w))`` with ``scale_parameter``, else ``rho_t``;
- ``u = g ** 2 + eps1``; for a parameter of rank >= 2 the second moment is factored: row means ``R`` (over the last
  axis) and column means ``C`` (over the one before) are averaged with ``beta2t``, and
  ``update = g * rsqrt(R / mean(R)) * rsqrt(C)``; for a vector, ``V = beta2t * V + (1 - beta2t) * u`` and
  ``update = g / sqrt(V)``;
- ``update /= max(1, RMS(update) / clip_threshold)``, ``update *= alpha``; with ``beta1 > 0`` the first moment
  ``exp_avg = beta1 * exp_avg + (1 - beta1) * update`` becomes the update;
- ``w = w - weight_decay * alpha * w`` (when ``weight_decay`` is not 0), then ``w -= update``.

The state Parameters are named as MindSpore names them (``exp_avg.<name>``, ``exp_avg_sq_row_<name>``,
``exp_avg_sq_col_<name>``, ``exp_avg_sq_<name>``, ``afactor_step``), so checkpoints load either way. As in
MindSpore, the gradients are used as given (no loss-scale division, no weight-decay term in the gradient).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.common.api import jit

__all__ = ["AdaFactor"]


def _rms(x):
    return ops.sqrt(ops.reduce_mean(ops.square(x)))


class AdaFactor(Optimizer):
    r"""Adafactor: Adam-like steps with a factored (row x column) second moment and relative step sizes.

    Args:
        params (Union[list[Parameter], list[dict]]): The parameters to update.
        learning_rate (Union[float, int, Tensor, LearningRateSchedule, None]): ``None`` (default) with
            ``relative_step``; required otherwise.
        eps (tuple[float]): (eps1 added to the squared gradient, eps2 lower bound of the parameter scale).
            Default ``(1e-30, 1e-3)``.
        clip_threshold (float): Threshold of the update's RMS. Default ``1.0``.
        decay_rate (float): Exponent of the second-moment decay, in (0, 1). Default ``0.8``.
        beta1 (float): First-moment decay; 0 turns the first moment off. Default ``0.9``.
        weight_decay (float): In [0, 1). Default ``0.0``.
        scale_parameter (bool): Scale the step by the parameter's RMS. Default ``True``.
        relative_step (bool): Use the step-count learning rate. Default ``True``.
        warmup_init (bool): Warm the relative step up from 0. Default ``False``.
        compression (bool): Keep a vector's second moment in float16. Default ``False``.
        loss_scale (float): Default ``1.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="w")
        >>> opt = nn.AdaFactor([w])
        >>> _ = opt((ms.Tensor(np.full((3, 2), 0.5, np.float32)),))
        >>> w.asnumpy()[0].astype(np.float64).round(4).tolist()
        [0.999, 0.999]
    """

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8, beta1=0.9,
                 weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False, compression=False,
                 loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise MSValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise MSValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise MSValueError("Cannot learning_rate is None and relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self.scale_lr = isinstance(learning_rate, (float, int))
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        validator.check_value_type("eps", eps, [list, tuple], name)
        if len(eps) != 2:
            raise MSValueError("eps must have 2 value: (eps1, eps2).")
        for i, ele in enumerate(eps):
            validator.check_value_type(f"eps{i}", ele, [float], name)
            validator.check_non_negative_float(f"eps{i}", ele, name)
        validator.check_value_type("clip_threshold", clip_threshold, [float], name)
        validator.check_non_negative_float("clip_threshold", clip_threshold, name)
        validator.check_value_type("decay_rate", decay_rate, [float], name)
        validator.check_open_range("decay_rate", decay_rate, 0, 1, name)
        if not 0 <= weight_decay < 1:
            raise MSValueError(f"For '{name}', the 'weight_decay' must be in range [0, 1), but got {weight_decay}.")
        for arg, value in (("scale_parameter", scale_parameter), ("relative_step", relative_step),
                           ("compression", compression)):
            validator.check_value_type(arg, value, [bool], name)
        validator.check_value_type("beta1", beta1, [int, float], name)
        validator.check_non_negative_float("beta1", float(beta1), name)
        self.eps = tuple(float(e) for e in eps)
        self.clip_threshold = float(clip_threshold)
        self.decay_rate = float(decay_rate)
        self.beta1 = float(beta1)
        self.weight_decay = Tensor(weight_decay, mstype.float32)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self._init_state()
        self.step = Parameter(initializer(0, [1], mstype.float32), name="afactor_step")
        # on the CPU, MindSpore runs the fused kernel (its own order of operations; see FusedAdaFactor)
        self._fused = ops.FusedAdaFactor(enable_scale_parameter=self.scale_parameter,
                                         enable_first_moment=self.use_first_moment,
                                         enable_weight_decay=self.weight_decay_flag)
        self._eps_tensor = Tensor(list(self.eps), mstype.float32)

    def _init_state(self):
        self.use_first_moment = self.beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._parameters.clone(prefix="exp_avg", init="zeros")
        else:
            # MindSpore keeps one shared, unused scalar in place of the first moments
            self.exp_avg = ParameterTuple([Parameter(Tensor(0.0, mstype.float32))] * len(self._parameters))
        rows, cols, sqs = [], [], []
        for p in self._parameters:
            shape, dtype, name = tuple(p.shape), p.dtype, p.name
            if len(shape) > 1:
                rows.append(Parameter(initializer(0, list(shape[:-1]), dtype), name=f"exp_avg_sq_row_{name}"))
                cols.append(Parameter(initializer(0, list(shape[:-2] + shape[-1:]), dtype),
                                      name=f"exp_avg_sq_col_{name}"))
                sqs.append(Parameter(initializer(0, [1], dtype), name=f"exp_avg_sq_{name}"))
            else:
                rows.append(Parameter(initializer(0, [1], dtype), name=f"exp_avg_sq_row_{name}"))
                cols.append(Parameter(initializer(0, [1], dtype), name=f"exp_avg_sq_col_{name}"))
                sq_dtype = mstype.float16 if self.compression else dtype
                sqs.append(Parameter(initializer(0, list(shape), sq_dtype), name=f"exp_avg_sq_{name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(sqs)

    def _second_moment(self, i, grad, beta2t):
        update = ops.square(grad) + self.eps[0]
        if grad.ndim >= 2:
            row, col = self.exp_avg_sq_row[i], self.exp_avg_sq_col[i]
            new_row = row.astype(grad.dtype) * beta2t + ops.reduce_mean(update, -1) * (1.0 - beta2t)
            new_col = col.astype(grad.dtype) * beta2t + ops.reduce_mean(update, -2) * (1.0 - beta2t)
            ops.assign(row, new_row.astype(row.dtype))
            ops.assign(col, new_col.astype(col.dtype))
            r_factor = ops.rsqrt(new_row / ops.reduce_mean(new_row, -1, keep_dims=True)).expand_dims(-1)
            c_factor = ops.rsqrt(new_col).expand_dims(-2)
            return r_factor * c_factor * grad
        sq = self.exp_avg_sq[i]
        new_sq = sq.astype(grad.dtype) * beta2t + update * (1.0 - beta2t)
        ops.assign(sq, new_sq.astype(sq.dtype))
        return ops.rsqrt(new_sq) * grad

    def _update_one(self, i, grad, param, lr, beta2t):
        if param.dtype == mstype.float32 and param.ndim >= 1 and self.target == "CPU":
            self._fused(self._eps_tensor, Tensor(self.clip_threshold, mstype.float32),
                        Tensor(self.beta1, mstype.float32), beta2t, self.weight_decay, lr,
                        grad.astype(mstype.float32), param, self.exp_avg[i], self.exp_avg_sq_row[i],
                        self.exp_avg_sq_col[i], self.exp_avg_sq[i])
            return True
        grad = grad.astype(mstype.float32)
        w = param.astype(mstype.float32)
        alpha = lr * ops.maximum(Tensor(self.eps[1], mstype.float32), _rms(w)) if self.scale_parameter else lr
        update = self._second_moment(i, grad, beta2t)
        update = update / ops.maximum(_rms(update) / self.clip_threshold, Tensor(1.0, mstype.float32)) * alpha
        if self.use_first_moment:
            avg = self.exp_avg[i]
            update = avg.astype(mstype.float32) * self.beta1 + update * (1 - self.beta1)
            ops.assign(avg, update.astype(avg.dtype))
        if self.weight_decay_flag:
            w = w - w * self.weight_decay * alpha
        ops.assign(param, (w - update).astype(param.dtype))
        return True

    @jit
    def construct(self, gradients):
        lr = self.get_lr()
        self._increase_global_step()
        ops.assign_add(self.step, Tensor([1.0], mstype.float32))
        step = self.step.reshape(())
        if self.scale_lr and self.relative_step:
            min_step = 1e-6 * step if self.warmup_init else Tensor(1e-2, mstype.float32)
            lr = ops.minimum(min_step, 1.0 / ops.sqrt(step))
        beta2t = 1.0 - ops.pow(step, -self.decay_rate)
        lr = lr.astype(mstype.float32) if isinstance(lr, Tensor) else Tensor(lr, mstype.float32)
        out = ()
        for i, (grad, param) in enumerate(zip(gradients, self._parameters)):
            out = out + (self._update_one(i, grad, param, lr, beta2t),)
        return out
