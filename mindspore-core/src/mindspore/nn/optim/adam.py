"""Adam, LazyAdam and AdamWeightDecay: one update primitive per parameter, as MindSpore's nn optimizers call.

Adam calls the ``Adam`` primitive per parameter (``ApplyAdamWithAmsgrad`` with ``use_amsgrad``), after
``beta1_power *= beta1``, ``beta2_power *= beta2``; the kernels compute, in the parameter's dtype and in MindSpore's
CPU order of operations, with float32 scalars::

    m += (g - m) * (1 - beta1);  v += (g * g - v) * (1 - beta2)
    lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
    p -= lr_t * m / (sqrt(v) + eps)                                  (or (m * beta1 + (1 - beta1) * g) with nesterov)
    amsgrad: vhat = max(vhat, v); p -= lr_t * m / (sqrt(vhat) + eps)

(Where no update primitive computes it, AMSGrad with ``use_nesterov`` or of a float64 parameter, or a dtype the
primitives do not take, the same formula runs as a chain of primitives.)
State: ``beta1_power``, ``beta2_power`` (float32 scalars, start at 1), ``moment1.<name>``, ``moment2.<name>``
(and ``vhat.<name>`` with amsgrad). Weight decay is added to the gradient before the loss-scale division.

AdamWeightDecay calls the ``AdamWeightDecay`` primitive per parameter (decoupled decay, no bias correction; decay
0.0 for the parameters that do not decay)::

    m += (g - m) * (1 - beta1);  v += (g * g - v) * (1 - beta2)
    p -= lr * (m / (sqrt(v) + eps) + weight_decay * p)

State: ``adam_m.<name>``, ``adam_v.<name>``; the decay skips ``beta``/``gamma`` parameters when ungrouped.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["Adam", "AdamWeightDecay", "LazyAdam"]


def _check_param_value(beta1, beta2, eps, prim_name):
    validator.check_value_type("beta1", beta1, [float], prim_name)
    validator.check_value_type("beta2", beta2, [float], prim_name)
    validator.check_value_type("eps", eps, [float], prim_name)
    validator.check_open_range("beta1", beta1, 0.0, 1.0, prim_name)
    validator.check_open_range("beta2", beta2, 0.0, 1.0, prim_name)
    validator.check_positive_float("eps", eps, prim_name)


_ADAM_TYPES = (mstype.float16, mstype.float32, mstype.float64)     # what the update primitives take
_AMSGRAD_TYPES = (mstype.float16, mstype.float32)


def _f32(value):
    return Tensor(np.float32(value), mstype.float32)


def _one_minus(value):
    """``1 - value`` computed in float32, as the kernels do with their float32 hyper-parameters."""
    return _f32(np.float32(1.0) - np.float32(value))


def _as_dtype(x, dtype):
    return x if x.dtype == dtype else ops.cast(x, dtype)


def _adam_moments(m, v, g, one_minus_beta1, one_minus_beta2):
    """``m += (g - m)(1 - beta1)``, ``v += (g^2 - v)(1 - beta2)``, written in place; returns the new values."""
    dtype = m.dtype
    next_m = ops.add(m, ops.mul(ops.sub(g, m), _as_dtype(one_minus_beta1, dtype)))
    next_v = ops.add(v, ops.mul(ops.sub(ops.mul(g, g), v), _as_dtype(one_minus_beta2, dtype)))
    ops.assign(m, next_m)
    ops.assign(v, next_v)
    return next_m, next_v


class Adam(Optimizer):
    r"""The Adam algorithm (`Adam: A Method for Stochastic Optimization <https://arxiv.org/abs/1412.6980>`_).

    .. math::
        m_{t} = \beta_1 m_{t-1} + (1 - \beta_1) g, \quad v_{t} = \beta_2 v_{t-1} + (1 - \beta_2) g^2, \quad
        w_{t} = w_{t-1} - lr \frac{\sqrt{1-\beta_2^t}}{1-\beta_1^t} \frac{m_t}{\sqrt{v_t} + \epsilon}

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): added to the denominator, > 0. Default: ``1e-8``.
        use_locking (bool): accepted for compatibility. Default: ``False``.
        use_nesterov (bool): Nesterov-style first moment. Default: ``False``.
        weight_decay (Union[float, int, Cell]): L2 penalty added to the gradients. Default: ``0.0``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.
        use_amsgrad (bool): the AMSGrad variant. Default: ``False``.
        kwargs: ``use_lazy`` and ``use_offload`` (bool): with dense gradients they compute the same update.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.Adam([w], learning_rate=0.1)
        >>> _ = opt((ms.Tensor(np.ones(2, np.float32)),))
        >>> print(w.asnumpy().round(6))
        [0.9 0.9]
        >>> sorted(name for name, _ in opt.parameters_and_names())
        ['beta1_power', 'beta2_power', 'global_step', 'learning_rate', 'moment1.w', 'moment2.w', 'w']
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0, use_amsgrad=False, **kwargs):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        unknown = [k for k in kwargs if k not in ("use_lazy", "use_offload")]
        if unknown:
            raise MSTypeError(f"For '{self.cls_name}', got unexpected keyword arguments {unknown}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                            ("use_amsgrad", use_amsgrad), ("use_lazy", use_lazy), ("use_offload", use_offload)):
            validator.check_value_type(name, value, [bool], self.cls_name)
        if use_lazy and use_offload:
            raise MSValueError(f"For lazy Adam and Adam with offload, the arguments 'use_lazy' and 'use_offload' "
                               f"cannot both be True, but got use_lazy={use_lazy}, use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise MSValueError(f"For lazy Adam and Adam with offload, there is no parameter named 'use_amsgrad', but "
                               f"got 'use_amsgrad'={use_amsgrad}.")
        self.beta1 = _f32(beta1)
        self.beta2 = _f32(beta2)
        self.one_minus_beta1 = _one_minus(beta1)
        self.one_minus_beta2 = _one_minus(beta2)
        self.beta1_power = Parameter(initializer(1, (), mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(initializer(1, (), mstype.float32), name="beta2_power")
        self.eps = _f32(eps)
        self.use_nesterov = use_nesterov
        self.use_locking = use_locking
        self.use_amsgrad = use_amsgrad
        self.use_lazy = use_lazy
        self.use_offload = use_offload
        self.moment1 = self._parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self._parameters.clone(prefix="moment2", init="zeros")
        if use_amsgrad:
            self.vhat = self._parameters.clone(prefix="vhat", init="zeros")
        self._adam_opt = ops.Adam(use_locking, use_nesterov)
        self._amsgrad_opt = ops.ApplyAdamWithAmsgrad(beta1, beta2, eps, use_locking)

    @jit
    def construct(self, gradients):
        gradients = self._prepare_gradients(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        beta1_power = ops.mul(self.beta1_power, self.beta1)
        ops.assign(self.beta1_power, beta1_power)
        beta2_power = ops.mul(self.beta2_power, self.beta2)
        ops.assign(self.beta2_power, beta2_power)
        lrs = self._lr_per_param(lr)
        vhats = self.vhat if self.use_amsgrad else (None,) * self.param_length
        corrected = []      # lr * sqrt(1 - beta2_power) / (1 - beta1_power), for the composite formula only

        def lr_t(lr_i):
            if not corrected:
                corrected.append((ops.sqrt(ops.sub(1.0, beta2_power)), ops.sub(1.0, beta1_power)))
            return ops.div(ops.mul(lr_i, corrected[0][0]), corrected[0][1])
        results = []
        for lr_i, g, p, m, v, vh in zip(lrs, gradients, self._parameters, self.moment1, self.moment2, vhats):
            if vh is not None and not self.use_nesterov and p.dtype in _AMSGRAD_TYPES:
                self._amsgrad_opt(p, m, v, vh, beta1_power, beta2_power, lr_i, _as_dtype(g, p.dtype))
            elif vh is None and p.dtype in _ADAM_TYPES:
                self._adam_opt(p, m, v, beta1_power, beta2_power, lr_i, self.beta1, self.beta2, self.eps,
                               _as_dtype(g, p.dtype))
            else:
                self._update(p, m, v, vh, g, lr_t(lr_i))
            results.append(True)
        return tuple(results)

    def _update(self, param, m, v, vhat, g, lr_t):
        """The update as a chain of primitives, where no update primitive computes it: AMSGrad with a Nesterov
        first moment, AMSGrad of a float64 parameter, dtypes the primitives do not take."""
        dtype = param.dtype
        next_m, next_v = _adam_moments(m, v, g, self.one_minus_beta1, self.one_minus_beta2)
        eps = _as_dtype(self.eps, dtype)
        lr_t = _as_dtype(lr_t, dtype)
        if vhat is not None:
            next_vhat = ops.maximum(vhat, next_v)
            ops.assign(vhat, next_vhat)
            denom = ops.add(ops.sqrt(next_vhat), eps)
        else:
            denom = ops.add(ops.sqrt(next_v), eps)
        if self.use_nesterov:
            numer = ops.add(ops.mul(next_m, _as_dtype(self.beta1, dtype)),
                            ops.mul(_as_dtype(self.one_minus_beta1, dtype), g))
        else:
            numer = next_m
        ops.assign_sub(param, ops.div(ops.mul(lr_t, numer), denom))
        return True


class LazyAdam(Adam):
    """Adam that, for sparse gradients, only updates the rows present; with the dense gradients of this
    implementation it computes exactly :class:`Adam`'s update.

    Args:
        params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay, loss_scale: as Adam.
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay,
                         loss_scale)


class AdamWeightDecay(Optimizer):
    r"""Adam with decoupled weight decay and no bias correction.

    .. math::
        m_{t} = \beta_1 m_{t-1} + (1 - \beta_1) g, \quad v_{t} = \beta_2 v_{t-1} + (1 - \beta_2) g^2, \quad
        w_{t} = w_{t-1} - lr \left(\frac{m_t}{\sqrt{v_t} + \epsilon} + \lambda w_{t-1}\right)

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or parameter groups.
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``1e-3``.
        beta1 (float): in (0, 1). Default: ``0.9``.
        beta2 (float): in (0, 1). Default: ``0.999``.
        eps (float): > 0. Default: ``1e-6``.
        weight_decay (Union[float, int, Cell]): the decoupled decay. Default: ``0.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.AdamWeightDecay([w], learning_rate=0.1, weight_decay=0.5)
        >>> _ = opt((ms.Tensor(np.zeros(2, np.float32)),))
        >>> print(w.asnumpy())
        [0.95 0.95]
    """

    _support_parallel_optimizer = True

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_param_value(beta1, beta2, eps, self.cls_name)
        self.beta1 = _f32(beta1)
        self.beta2 = _f32(beta2)
        self._beta1, self._beta2 = beta1, beta2
        self.eps = _f32(eps)
        self.moments1 = self._parameters.clone(prefix="adam_m", init="zeros")
        self.moments2 = self._parameters.clone(prefix="adam_v", init="zeros")
        self._opt = ops.AdamWeightDecay()

    @jit
    def construct(self, gradients):
        gradients = tuple(gradients) if isinstance(gradients, (tuple, list)) else (gradients,)
        if len(gradients) != self.param_length:
            raise MSValueError(f"For '{self.cls_name}', the number of gradients must equal the number of "
                               f"parameters {self.param_length}, but got {len(gradients)}.")
        gradients = self.flatten_gradients(gradients)
        weight_decay = self.get_weight_decay()
        lr = self.get_lr()
        self._increase_global_step()
        decays = weight_decay if self.is_group else (weight_decay,) * self.param_length
        # a zero decay (exec_weight_decay False) is passed as the number 0.0: the kernels then skip the term
        return tuple(self._update(p, m, v, g, lr_i, wd if flag and self.exec_weight_decay else None)
                     for lr_i, wd, flag, g, p, m, v in zip(self._lr_per_param(lr), decays, self.decay_flags,
                                                           gradients, self._parameters, self.moments1,
                                                           self.moments2))

    def _update(self, param, m, v, g, lr, weight_decay):
        dtype = param.dtype
        g = _as_dtype(g, dtype)
        if dtype in _ADAM_TYPES:
            self._opt(param, m, v, lr, self.beta1, self.beta2, self.eps, 0.0 if weight_decay is None else weight_decay,
                      g)
            return True
        # a dtype the primitive does not take: the same formula as a chain of primitives
        next_m, next_v = _adam_moments(m, v, g, _one_minus(self._beta1), _one_minus(self._beta2))
        update = ops.div(next_m, ops.add(ops.sqrt(next_v), _as_dtype(self.eps, dtype)))
        if weight_decay is not None:
            update = ops.add(update, ops.mul(_as_dtype(weight_decay, dtype), param))
        ops.assign_sub(param, ops.mul(_as_dtype(lr, dtype), update))
        return True
