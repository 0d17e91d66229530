"""Gradient-descent optimizers of ``mindspore.experimental.optim``: SGD (momentum, Nesterov), ASGD (averaged),
Rprop (resilient backpropagation). The formulas are MindSpore 2.10's; each class says where they differ from
PyTorch's."""
import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.experimental.optim.optimizer import (Optimizer, check_greater_than, check_in_range,
                                                    check_not_less_than, f32)

__all__ = ["SGD", "ASGD", "Rprop"]


def _check_type(value, name, types, op):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise MSTypeError(f"For '{op}', the type of '{name}' must be "
                          f"{' or '.join(t.__name__ for t in types)}, but got {type(value).__name__}.")


class SGD(Optimizer):
    r"""Stochastic gradient descent, with optional momentum, dampening, Nesterov momentum and L2 weight decay:

    .. math::
        g_t = \nabla f + \lambda\theta,\quad b_t = \mu b_{t-1} + (1-\tau) g_t\ (b_1 = g_1),\quad
        \theta_t = \theta_{t-1} - \gamma (g_t + \mu b_t \text{ if nesterov else } b_t)

    (without momentum, :math:`\theta_t = \theta_{t-1} - \gamma g_t`). As in MindSpore's ``SGD`` kernel, weight
    decay is applied only when positive.

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor]): learning rate.
        momentum (Union[int, float], optional): Default ``0``.
        dampening (Union[int, float], optional): Default ``0``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.
        nesterov (bool, optional): Nesterov momentum. Default ``False``.

    Keyword Args:
        maximize (bool, optional): Default ``False``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``lr`` or ``momentum`` is negative, or ``nesterov`` without positive ``momentum`` and zero
            ``dampening``.
    """

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0, nesterov=False, *, maximize=False):
        _check_type(lr, "lr", (float, int, Tensor), "SGD")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        _check_type(momentum, "momentum", (int, float), "SGD")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        momentum = float(momentum)
        _check_type(nesterov, "nesterov", (bool,), "SGD")
        _check_type(maximize, "maximize", (bool,), "SGD")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, grad_centralization=False))
        for group in self.param_groups:
            _check_type(group["dampening"], "dampening", (int, float), "SGD")
            group["dampening"] = float(group["dampening"])
        if nesterov and (momentum <= 0.0 or dampening != 0.0):
            raise MSValueError(f"For 'SGD', if 'nesterov' is true, 'momentum' must be > 0.0 and 'dampening' must "
                               f"equal to 0.0, but got 'momentum' {momentum}, 'dampening' {dampening}")
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.stat = self.parameters.clone(prefix="stat", init="ones")

    def construct(self, gradients):
        for group_id, group in enumerate(self.param_groups):
            momentum, dampening, lr = group["momentum"], group["dampening"], group["lr"]
            wd = group["weight_decay"] if group["weight_decay"] > 0 else 0.0
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], wd):
                if momentum > 0:
                    accum, stat = self.accum[i], self.stat[i]
                    later = ops.add(ops.mul(accum, momentum), ops.mul(grad, 1.0 - dampening))
                    new_accum = ops.where(ops.greater(stat, 0), grad, later)
                    ops.assign(accum, new_accum)
                    ops.assign(stat, ops.zeros_like(stat))
                    grad = ops.add(grad, ops.mul(new_accum, momentum)) if group["nesterov"] else new_accum
                ops.assign(param, ops.sub(param, ops.mul(ops.cast(lr, param.dtype), grad)))
        return True


class ASGD(Optimizer):
    r"""Averaged stochastic gradient descent (`Acceleration of Stochastic Approximation by Averaging
    <https://dl.acm.org/citation.cfm?id=131098>`_):

    .. math::
        \theta_t = \theta_{t-1}(1 - \lambda\eta_t) - \eta_t g_t,\quad
        \bar\theta_t = \bar\theta_{t-1} + \mu_t(\theta_t - \bar\theta_{t-1}),\quad
        \eta_{t+1} = \frac{\gamma}{(1 + \lambda\gamma t)^\alpha},\quad \mu_{t+1} = \frac{1}{\max(1, t - t_0)}

    with :math:`\eta_1 = \gamma`; the average is ``ax``.

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``1e-2``.
        lambd (float, optional): decay term. Default ``1e-4``.
        alpha (float, optional): power of the eta update. Default ``0.75``.
        t0 (float, optional): the step averaging starts at. Default ``1e6``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.
        maximize (bool, optional): Default ``False``.

    Raises:
        TypeError: ``lambd`` or ``t0`` is not a float.
        ValueError: ``lr`` is not positive or ``weight_decay`` is negative.
    """

    def __init__(self, params, lr=0.01, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0.0, maximize=False):
        check_greater_than(lr, "lr", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        if not isinstance(lambd, float):
            raise MSTypeError(f"For 'ASGD', the type of lambd must be float, but got {type(lambd)}.")
        if not isinstance(t0, float):
            raise MSTypeError(f"For 'ASGD', the type of t0 must be float, but got {type(t0)}.")
        super().__init__(params, {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                                  "maximize": maximize})
        self.mu = [Parameter(f32(1.0), "mu_" + p.name, requires_grad=False) for p in self.parameters]
        self.eta = [Parameter(f32(0.0), "eta_" + p.name, requires_grad=False) for p in self.parameters]
        self.ax = self.parameters.clone(prefix="ax", init="zeros")
        self.step_t = Parameter(Tensor(0, mstype.int32), "step_t", requires_grad=False)

    def construct(self, gradients):
        step = self._next_step(self.step_t)
        first = ops.equal(step, 1.0)
        for group_id, group in enumerate(self.param_groups):
            lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], group["weight_decay"]):
                eta = ops.where(first, lr, self.eta[i])
                mu = self.mu[i]
                dtype = param.dtype
                new = ops.sub(ops.mul(param, ops.cast(ops.sub(1.0, ops.mul(eta, lambd)), dtype)),
                              ops.mul(ops.cast(eta, dtype), grad))
                ops.assign(param, new)
                ax = self.ax[i]
                averaged = ops.add(ax, ops.cast(ops.mul(ops.sub(new, ax), ops.cast(mu, dtype)), ax.dtype))
                ops.assign(ax, ops.where(ops.not_equal(mu, 1.0), averaged, new))
                ops.assign(self.eta[i], ops.div(lr, ops.pow(ops.add(ops.mul(ops.mul(lr, lambd), step), 1.0), alpha)))
                ops.assign(mu, ops.div(1.0, ops.maximum(f32(1.0), ops.sub(step, t0))))
        return True


class Rprop(Optimizer):
    r"""Resilient backpropagation: each weight moves by its own step size in the direction against its
    gradient's sign; the step grows by ``etas[1]`` while the sign holds and shrinks by ``etas[0]`` when it flips
    (then that step skips the weight and forgets its gradient), within ``step_sizes``. Every step size starts at
    ``lr``.

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): the initial step size. Default ``1e-2``.
        etas (tuple[float, float], optional): (decrease, increase) factors. Default ``(0.5, 1.2)``.
        step_sizes (tuple[float, float], optional): (minimal, maximal) step size. Default ``(1e-6, 50)``.

    Keyword Args:
        maximize (bool, optional): Default ``False``.

    Raises:
        ValueError: ``lr`` is not positive, ``etas[1]`` is not above 1 or ``etas[0]`` not in (0, 1).
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False):
        check_greater_than(lr, "lr", self.cls_name)
        check_greater_than(etas[1], "etas[1]", self.cls_name, 1.0)
        check_in_range(etas[0], "etas[0]", self.cls_name, 0.0, 1.0, low_inc=False)
        super().__init__(params, {"lr": lr, "etas": etas, "step_sizes": step_sizes, "maximize": maximize})
        self.prev = self.parameters.clone(prefix="prev", init="zeros")
        self.step_size = self.parameters.clone(prefix="step_size", init="zeros")
        self.step_t = Parameter(Tensor(0, mstype.int32), "step_t", requires_grad=False)

    def construct(self, gradients):
        step = self._next_step(self.step_t)
        first = ops.equal(step, 1.0)
        for group_id, group in enumerate(self.param_groups):
            etaminus, etaplus = f32(group["etas"][0]), f32(group["etas"][1])
            low, high = group["step_sizes"]
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"]):
                step_size, prev = self.step_size[i], self.prev[i]
                current = ops.where(first, ops.mul(ops.ones_like(step_size), ops.cast(group["lr"], step_size.dtype)),
                                    step_size)
                sign = ops.sign(ops.mul(grad, prev))
                factor = ops.where(ops.greater(sign, 0), ops.cast(etaplus, sign.dtype),
                                   ops.where(ops.less(sign, 0), ops.cast(etaminus, sign.dtype), ops.ones_like(sign)))
                clipped = ops.clip_by_value(ops.mul(current, factor), f32(low), f32(high))
                ops.assign(step_size, clipped)
                kept = ops.where(ops.equal(factor, ops.cast(etaminus, factor.dtype)), ops.zeros_like(grad), grad)
                ops.assign(prev, kept)
                ops.assign(param, ops.sub(param, ops.mul(ops.sign(kept), clipped)))
        return True
