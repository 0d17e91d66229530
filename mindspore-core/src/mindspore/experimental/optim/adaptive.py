"""Per-coordinate adaptive optimizers of ``mindspore.experimental.optim``: Adadelta, Adagrad, RMSprop
(MindSpore 2.10's formulas: its ``ApplyAdadelta`` and ``ApplyAdagradV2`` kernels, and its RMSprop)."""
import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.experimental.optim.optimizer import Optimizer, check_greater_than, check_in_range, check_not_less_than

__all__ = ["Adadelta", "Adagrad", "RMSprop"]


class Adadelta(Optimizer):
    r"""Adadelta (`ADADELTA: An Adaptive Learning Rate Method <https://arxiv.org/abs/1212.5701>`_):

    .. math::
        v_t = \rho v_{t-1} + (1-\rho) g_t^2,\quad
        \Delta_t = \frac{\sqrt{u_{t-1} + \epsilon}}{\sqrt{v_t + \epsilon}} g_t,\quad
        u_t = \rho u_{t-1} + (1-\rho)\Delta_t^2,\quad \theta_t = \theta_{t-1} - \gamma\Delta_t

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``1.0``.
        rho (float, optional): decay rate, in [0, 1]. Default ``0.9``.
        eps (float, optional): Default ``1e-6``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.

    Keyword Args:
        maximize (bool, optional): Default ``False``.

    Raises:
        ValueError: ``lr`` or ``eps`` is not positive, ``weight_decay`` is negative, ``rho`` not in [0, 1].
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, *, maximize=False):
        check_greater_than(lr, "lr", self.cls_name)
        check_greater_than(eps, "eps", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        check_in_range(rho, "rho", self.cls_name, 0.0, 1.0, high_inc=True)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize))
        self.accum = self.parameters.clone(prefix="accum", init="zeros")
        self.accum_update = self.parameters.clone(prefix="accum_update", init="zeros")

    def construct(self, gradients):
        for group_id, group in enumerate(self.param_groups):
            rho, eps, lr = group["rho"], group["eps"], group["lr"]
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], group["weight_decay"]):
                accum = ops.add(ops.mul(self.accum[i], rho), ops.mul(ops.mul(grad, grad), 1 - rho))
                ops.assign(self.accum[i], accum)
                update = ops.mul(ops.div(ops.sqrt(ops.add(self.accum_update[i], eps)), ops.sqrt(ops.add(accum, eps))),
                                 grad)
                ops.assign(self.accum_update[i], ops.add(ops.mul(self.accum_update[i], rho),
                                                         ops.mul(ops.mul(update, update), 1 - rho)))
                ops.assign(param, ops.sub(param, ops.mul(ops.cast(lr, param.dtype), update)))
        return True


class Adagrad(Optimizer):
    r"""Adagrad (`Adaptive Subgradient Methods for Online Learning and Stochastic Optimization
    <https://jmlr.org/papers/v12/duchi11a.html>`_):

    .. math::
        \tilde\gamma = \frac{\gamma}{1 + (t-1)\eta},\quad s_t = s_{t-1} + g_t^2,\quad
        \theta_t = \theta_{t-1} - \tilde\gamma \frac{g_t}{\sqrt{s_t} + \epsilon}

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``1e-2``.
        lr_decay (float, optional): :math:`\eta`. Default ``0.``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.
        initial_accumulator_value (float, optional): :math:`s_0`. Default ``0.``.
        eps (float, optional): Default ``1e-10``.

    Keyword Args:
        maximize (bool, optional): Default ``False``.

    Raises:
        ValueError: ``lr`` or ``eps`` is not positive, or another argument is negative.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0.0, weight_decay=0.0, initial_accumulator_value=0.0, eps=1e-10, *,
                 maximize=False):
        check_greater_than(lr, "lr", self.cls_name)
        check_not_less_than(lr_decay, "lr_decay", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        check_not_less_than(initial_accumulator_value, "initial_accumulator_value", self.cls_name)
        check_greater_than(eps, "eps", self.cls_name)
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, maximize=maximize))
        self.accum = self.parameters.clone(prefix="accum", init=initial_accumulator_value)
        self.step_t = Parameter(Tensor(0, mstype.int32), "step_t", requires_grad=False)

    def construct(self, gradients):
        done = ops.cast(self.step_t, mstype.float32)
        for group_id, group in enumerate(self.param_groups):
            decay_lr = ops.div(group["lr"], ops.add(ops.mul(done, group["lr_decay"]), 1.0))
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], group["weight_decay"]):
                accum = ops.add(self.accum[i], ops.mul(grad, grad))
                ops.assign(self.accum[i], accum)
                update = ops.div(grad, ops.add(ops.sqrt(accum), group["eps"]))
                ops.assign(param, ops.sub(param, ops.mul(ops.cast(decay_lr, param.dtype), update)))
        ops.assign_add(self.step_t, Tensor(1, mstype.int32))
        return True


class RMSprop(Optimizer):
    r"""RMSprop:

    .. math::
        v_t = \alpha v_{t-1} + (1-\alpha) g_t^2,\quad
        d_t = \sqrt{v_t - \bar g_t^2} + \epsilon \text{ (centered, } \bar g_t = \alpha\bar g_{t-1} + (1-\alpha)g_t
        \text{) else } \sqrt{v_t} + \epsilon,

    then with momentum :math:`b_t = \mu b_{t-1} + g_t/d_t,\ \theta_t = \theta_{t-1} - \gamma b_t`, without it
    :math:`\theta_t = \theta_{t-1} - \gamma g_t / d_t`.

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``1e-2``.
        alpha (float, optional): smoothing constant. Default ``0.99``.
        eps (float, optional): Default ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.
        momentum (float, optional): Default ``0.``.
        centered (bool, optional): normalise by the gradient's estimated variance. Default ``False``.
        maximize (bool, optional): Default ``False``.

    Raises:
        ValueError: ``lr`` or ``eps`` is not positive, or another argument is negative.
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0, centered=False,
                 maximize=False):
        check_greater_than(lr, "lr", self.cls_name)
        check_not_less_than(alpha, "alpha", self.cls_name)
        check_greater_than(eps, "eps", self.cls_name)
        check_not_less_than(momentum, "momentum", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, maximize=maximize))
        self.mean_grad = self.parameters.clone(prefix="mean_grad", init="zeros")
        self.mean_square = self.parameters.clone(prefix="mean_square", init="zeros")
        self.moment = self.parameters.clone(prefix="moment", init="zeros")

    def construct(self, gradients):
        for group_id, group in enumerate(self.param_groups):
            alpha, eps, momentum, lr = group["alpha"], group["eps"], group["momentum"], group["lr"]
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], group["weight_decay"]):
                square = ops.add(ops.mul(self.mean_square[i], alpha), ops.mul(ops.mul(grad, grad), 1 - alpha))
                ops.assign(self.mean_square[i], square)
                if group["centered"]:
                    mean = ops.add(ops.mul(self.mean_grad[i], alpha), ops.mul(grad, 1 - alpha))
                    ops.assign(self.mean_grad[i], mean)
                    avg = ops.add(ops.sqrt(ops.sub(square, ops.mul(mean, mean))), eps)
                else:
                    avg = ops.add(ops.sqrt(square), eps)
                lr_p = ops.cast(lr, param.dtype)
                if momentum > 0:
                    mom = ops.add(ops.mul(self.moment[i], momentum), ops.div(grad, avg))
                    ops.assign(self.moment[i], mom)
                    ops.assign(param, ops.sub(param, ops.mul(mom, lr_p)))
                else:
                    ops.assign(param, ops.sub(param, ops.div(ops.mul(lr_p, grad), avg)))
        return True
