"""``mindspore.mint.optim``: PyTorch-style optimizers (``SGD``, ``Adam``, ``AdamW``, ``FusedAdamW``).

As in MindSpore, an optimizer is a :class:`~mindspore.nn.Cell` built from ``params`` (Parameters or a list of
``{"params": [...], "lr": ...}`` groups) and called with the gradients, in the order of the parameters of
``param_groups``: ``optimizer(grads)``. Each group's ``lr`` is a float32 Parameter (``optimizer.lrs``) so a
schedule can change it in place. The update rules are PyTorch's (bias-corrected Adam, decoupled weight
decay for AdamW, SGD momentum buffers that start at the first gradient), written with ``ops.assign``.
"""
import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]


def _check_range(op, name, value, low, high=None, low_open=False):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MSTypeError(f"For '{op}', the '{name}' must be a float, but got {type(value).__name__}.")
    if value < low or (low_open and value == low) or (high is not None and value >= high):
        bound = f"[{low}, {high})" if high is not None else (f"({low}, inf)" if low_open else f"[{low}, inf)")
        raise MSValueError(f"For '{op}', the '{name}' must be in {bound}, but got {value}.")
    return value


class Optimizer(Cell):
    """The base of the mint optimizers: parameter groups, per-group learning rates and the step counter."""

    def __init__(self, params, defaults):
        super().__init__(auto_prefix=False)
        if isinstance(params, Parameter) or isinstance(params, Tensor):
            raise MSTypeError(f"For '{type(self).__name__}', the 'params' must be an iterable of Parameters or "
                              f"dicts, but got a {type(params).__name__}.")
        params = list(params)
        if not params:
            raise MSValueError(f"For '{type(self).__name__}', the 'params' got an empty parameter list.")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults = dict(defaults)
        self.param_groups = []
        lrs, all_params = [], []
        for i, group in enumerate(groups):
            group = dict(group)
            group["params"] = list(group["params"])
            for key, value in self.defaults.items():
                group.setdefault(key, value)
            lr = group["lr"]
            lr_value = float(lr.asnumpy()) if isinstance(lr, Tensor) else lr
            _check_range(type(self).__name__, "lr", lr_value, 0.0)
            group["lr"] = Parameter(Tensor(lr_value, mstype.float32), name=f"learning_rate_group_{i}",
                                    requires_grad=False)
            lrs.append(group["lr"])
            all_params += group["params"]
            self.param_groups.append(group)
        self.lrs = ParameterTuple(lrs)
        self.parameters = ParameterTuple(all_params)
        self.state_step = Parameter(Tensor(0, mstype.int32), name="state_step", requires_grad=False)

    def _groups(self, gradients):
        """Yields (group, [(param, grad, index)]) in parameter order."""
        if len(gradients) != len(self.parameters):
            raise MSValueError(f"For '{type(self).__name__}', expected {len(self.parameters)} gradients (one per "
                               f"parameter), but got {len(gradients)}.")
        start = 0
        for group in self.param_groups:
            n = len(group["params"])
            yield group, [(p, gradients[start + k], start + k) for k, p in enumerate(group["params"])]
            start += n

    def _step(self):
        return ops.cast(ops.assign_add(self.state_step, Tensor(1, mstype.int32)), mstype.float32)


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, dampening, Nesterov momentum and weight decay."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False):
        _check_range("SGD", "momentum", momentum, 0.0)
        _check_range("SGD", "weight_decay", weight_decay, 0.0)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise MSValueError("For 'SGD', Nesterov momentum needs a momentum > 0 and zero dampening.")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize))
        self.momentum_buffers = self.parameters.clone(prefix="momentum_buffer", init="zeros")

    def construct(self, gradients):
        step = self._step()
        for group, items in self._groups(gradients):
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            for param, grad, i in items:
                g = ops.neg(grad) if group["maximize"] else grad
                if group["weight_decay"]:
                    g = ops.add(g, ops.mul(param, group["weight_decay"]))
                if momentum:
                    buf = self.momentum_buffers[i]
                    later = ops.add(ops.mul(buf, momentum), ops.mul(g, 1 - dampening))
                    new_buf = ops.where(ops.equal(step, 1.0), g, later)
                    ops.assign(buf, new_buf)
                    g = ops.add(g, ops.mul(new_buf, momentum)) if group["nesterov"] else new_buf
                ops.assign(param, ops.sub(param, ops.mul(g, ops.cast(lr, param.dtype))))
        return True


class Adam(Optimizer):
    """Adam with bias correction, optional AMSGrad and L2 weight decay added to the gradient."""

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        name = type(self).__name__
        _check_range(name, "eps", eps, 0.0)
        _check_range(name, "betas[0]", betas[0], 0.0, 1.0)
        _check_range(name, "betas[1]", betas[1], 0.0, 1.0)
        _check_range(name, "weight_decay", weight_decay, 0.0)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize))
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")

    def construct(self, gradients):
        step = self._step()
        for group, items in self._groups(gradients):
            beta1, beta2 = group["betas"]
            lr, eps, wd = group["lr"], group["eps"], group["weight_decay"]
            bias1 = ops.sub(1.0, ops.pow(Tensor(beta1, mstype.float32), step))
            bias2_sqrt = ops.sqrt(ops.sub(1.0, ops.pow(Tensor(beta2, mstype.float32), step)))
            step_size = ops.div(lr, bias1)
            for param, grad, i in items:
                dtype = param.dtype
                g = ops.neg(grad) if group["maximize"] else grad
                if wd and self._decoupled:
                    ops.assign(param, ops.mul(param, ops.sub(1.0, ops.cast(ops.mul(lr, wd), dtype))))
                elif wd:
                    g = ops.add(g, ops.mul(param, wd))
                m = ops.add(ops.mul(self.exp_avg[i], beta1), ops.mul(g, 1 - beta1))
                v = ops.add(ops.mul(self.exp_avg_sq[i], beta2), ops.mul(ops.mul(g, g), 1 - beta2))
                ops.assign(self.exp_avg[i], m)
                ops.assign(self.exp_avg_sq[i], v)
                if group["amsgrad"]:
                    v = ops.maximum(self.max_exp_avg_sq[i], v)
                    ops.assign(self.max_exp_avg_sq[i], v)
                denom = ops.add(ops.div(ops.sqrt(v), ops.cast(bias2_sqrt, dtype)), eps)
                ops.assign(param, ops.sub(param, ops.mul(ops.cast(step_size, dtype), ops.div(m, denom))))
        return True


class AdamW(Adam):
    """Adam with decoupled weight decay (``param *= 1 - lr * weight_decay`` before the update)."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """:class:`AdamW` (one fused kernel on Ascend in MindSpore; the same arithmetic here)."""
