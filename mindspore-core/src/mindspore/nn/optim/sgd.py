"""SGD with optional momentum, dampening, Nesterov and weight decay: the ``SGD`` primitive per parameter, as
MindSpore's nn.SGD calls it (a float64 parameter, which the primitive does not take, runs the same formula as a
chain of primitives).

Per element, in the parameter's dtype, with ``g`` the gradient divided by the loss scale::

    g' = g + weight_decay * p                     (if weight_decay > 0)
    if momentum > 0:
        accum = g'                                (first step: stat == 1, then stat = 0)
        accum = momentum * accum + (1 - dampening) * g'   (later steps)
        g' = g' + momentum * accum  (nesterov)  or  g' = accum
    p -= lr * g'

State: ``momentum`` (float32 Parameter), ``accum.<name>`` (zeros), ``stat.<name>`` (ones). The decay applies to
every parameter (no ``beta``/``gamma`` filter), with the raw ``weight_decay`` of the constructor (the per-group
values are multiplied by ``loss_scale``), as MindSpore does.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.optim.optimizer import Optimizer, opt_init_args_register
from mindspore.common.api import jit

__all__ = ["SGD"]


_SGD_TYPES = (mstype.float16, mstype.float32)     # what the SGD primitive takes


def _const(value, dtype):
    return Tensor(np.asarray(value, dtype.to_numpy()), dtype)


def _apply_sgd(param, gradient, lr, accum, momentum, stat, weight_decay, dampening, nesterov):
    """One SGD kernel application; ``momentum`` is a float32 Parameter read at run time, as the kernel does."""
    dtype = param.dtype
    lr = lr if lr.dtype == dtype else ops.cast(lr, dtype)
    grad_new = gradient
    if weight_decay > 0.0:
        grad_new = ops.add(grad_new, ops.mul(param, _const(weight_decay, dtype)))
    if float(momentum.asnumpy()) > 0.0:
        mu = momentum if momentum.dtype == dtype else ops.cast(momentum, dtype)
        one_minus_d = _const(np.asarray(1, dtype.to_numpy()) - np.asarray(dampening, dtype.to_numpy()), dtype)
        later = ops.add(ops.mul(accum, mu), ops.mul(one_minus_d, grad_new))
        new_accum = ops.select(ops.greater(stat, 0), grad_new, later)
        ops.assign(accum, new_accum)
        ops.assign(stat, ops.zeros_like(stat))
        grad_new = ops.add(grad_new, ops.mul(new_accum, mu)) if nesterov else new_accum
    ops.assign_sub(param, ops.mul(lr, grad_new))
    return True


class SGD(Optimizer):
    r"""Stochastic gradient descent, momentum optional.

    .. math::
        v_{t+1} = u \ast v_{t} + gradient \ast (1-dampening)

    If nesterov is True: :math:`p_{t+1} = p_{t} - lr \ast (gradient + u \ast v_{t+1})`, else
    :math:`p_{t+1} = p_{t} - lr \ast v_{t+1}`. For the first step :math:`v_{t+1} = gradient`.

    Args:
        params (Union[list[Parameter], list[dict]]): the parameters or groups (keys "params", "lr",
            "weight_decay", "grad_centralization", "order_params").
        learning_rate (Union[float, int, Tensor, Iterable, LearningRateSchedule]): Default: ``0.1``.
        momentum (float): at least 0.0. Default: ``0.0``.
        dampening (float): at least 0.0. Default: ``0.0``.
        weight_decay (float): at least 0.0 (a Cell is not supported). Default: ``0.0``.
        nesterov (bool): Nesterov momentum (needs momentum > 0 and dampening 0). Default: ``False``.
        loss_scale (float): gradients are divided by it. Default: ``1.0``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.SGD([w], learning_rate=0.5)
        >>> _ = opt((ms.Tensor(np.ones(2, np.float32)),))
        >>> print(w.asnumpy())
        [0.5 0.5]
    """

    @opt_init_args_register
    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False,
                 loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, int) and not isinstance(momentum, bool):
            momentum = float(momentum)
        if not isinstance(momentum, float):
            raise MSTypeError(f"For 'SGD', the argument 'momentum' must be float type, but got {type(momentum)}.")
        if momentum < 0.0:
            raise MSValueError(f"For 'SGD', the argument 'momentum' must be at least 0.0, but got {momentum}.")
        if isinstance(dampening, int) and not isinstance(dampening, bool):
            dampening = float(dampening)
        if not isinstance(dampening, float):
            raise MSTypeError(f"For 'SGD', the argument 'dampening' must be float type, but got {type(dampening)}.")
        if dampening < 0.0:
            raise MSValueError(f"For 'SGD', the argument 'dampening' must be at least 0.0, but got 'dampening' "
                               f"{dampening}")
        self.dampening = dampening
        validator.check_value_type("nesterov", nesterov, [bool], self.cls_name)
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise MSValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                               f"equal to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}")
        self.nesterov = nesterov
        if self.dynamic_weight_decay:
            raise MSTypeError("For 'SGD', dynamic weight decay is currently not supported, the argument "
                              "'weight_decay' or 'weight_decay' set in grouped 'params' must be float or int type.")
        if self.is_group:
            self.opt_weight_decay = tuple(float(wd) for wd in self.group_weight_decay)
        else:
            self.opt_weight_decay = (float(weight_decay),) * self.param_length
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.accum = self._parameters.clone(prefix="accum", init="zeros")
        self.stat = self._parameters.clone(prefix="stat", init="ones")
        opts = {wd: ops.SGD(dampening, wd, nesterov) for wd in set(self.opt_weight_decay)}
        self.opt = tuple(opts[wd] for wd in self.opt_weight_decay)

    @jit
    def construct(self, gradients):
        gradients = tuple(gradients) if isinstance(gradients, (tuple, list)) else (gradients,)
        if len(gradients) != self.param_length:
            raise MSValueError(f"For 'SGD', the number of gradients must equal the number of parameters "
                               f"{self.param_length}, but got {len(gradients)}.")
        gradients = self.gradients_centralization(self.flatten_gradients(gradients))
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        self._increase_global_step()
        results = []
        for lr_i, g, p, a, s, wd, opt in zip(self._lr_per_param(lr), gradients, self._parameters, self.accum,
                                             self.stat, self.opt_weight_decay, self.opt):
            if p.dtype in _SGD_TYPES:
                opt(p, g if g.dtype == p.dtype else ops.cast(g, p.dtype), lr_i, a, self.momentum, s)
                results.append(True)
            else:   # a dtype the SGD primitive does not take: its formula as a chain of primitives
                results.append(_apply_sgd(p, g, lr_i, a, self.momentum, s, wd, self.dampening, self.nesterov))
        return tuple(results)
