"""The Adam family of ``mindspore.experimental.optim``: Adam, AdamW, Adamax, NAdam, RAdam.

Each keeps its first moment ``exp_avg`` (and second moment ``exp_avg_sq`` / infinity norm ``exp_inf``) per
parameter, and an int32 step counter ``state_step``/``step_t`` shared by all groups (counted once per call).
The formulas are MindSpore 2.10's; Adam's differs from PyTorch's in where epsilon goes (see :class:`Adam`).
"""
import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.experimental.optim.optimizer import (Optimizer, check_greater_than, check_in_range,
                                                    check_not_less_than, f32)

__all__ = ["Adam", "AdamW", "Adamax", "NAdam", "RAdam"]


def _check_adam_args(lr, betas, eps, weight_decay):
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _pow(base, step):
    return ops.pow(f32(base), step)


def _moments(exp_avg, exp_avg_sq, grad, beta1, beta2):
    """Update and return the first and second moments."""
    m = ops.add(ops.mul(exp_avg, beta1), ops.mul(grad, 1 - beta1))
    v = ops.addcmul(ops.mul(exp_avg_sq, beta2), grad, grad, f32(1 - beta2))
    ops.assign(exp_avg, m)
    ops.assign(exp_avg_sq, v)
    return m, v


class Adam(Optimizer):
    r"""Adam (`Adam: A Method for Stochastic Optimization <https://arxiv.org/abs/1412.6980>`_), as MindSpore's
    ``Adam`` kernel computes it:

    .. math::
        m_t = \beta_1 m_{t-1} + (1-\beta_1) g_t,\quad v_t = \beta_2 v_{t-1} + (1-\beta_2) g_t^2,\quad
        \theta_t = \theta_{t-1} - \gamma \frac{\sqrt{1-\beta_2^t}}{1-\beta_1^t} \frac{m_t}{\sqrt{v_t} + \epsilon}

    (PyTorch adds epsilon to the bias-corrected :math:`\sqrt{\hat v_t}` instead), with
    :math:`g_t = \nabla f + \lambda \theta_{t-1}` for ``weight_decay`` :math:`\lambda` (negated first for
    ``maximize``). With ``amsgrad`` the running maximum of :math:`v_t` is used in the denominator (MindSpore 2.10
    accepts the flag and ignores it).

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): learning rate. Default ``1e-3``.
        betas (Tuple[float, float], optional): the moments' decay rates. Default ``(0.9, 0.999)``.
        eps (float, optional): added to the denominator. Default ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.
        amsgrad (bool, optional): use AMSGrad. Default ``False``.

    Keyword Args:
        maximize (bool, optional): maximize the objective instead. Default ``False``.

    Inputs:
        - **gradients** (tuple[Tensor]) - the gradients of ``params``.

    Raises:
        ValueError: ``lr``, ``eps`` or ``weight_decay`` is negative, or a beta is not in [0, 1).

    Examples:
        >>> import mindspore
        >>> from mindspore import nn
        >>> from mindspore.experimental import optim
        >>> net = nn.Dense(4, 2)
        >>> optimizer = optim.Adam(net.trainable_params(), lr=0.1)
        >>> grad_fn = mindspore.value_and_grad(lambda x: net(x).sum(), None, optimizer.parameters)
        >>> loss, grads = grad_fn(mindspore.ops.ones((3, 4), mindspore.float32))
        >>> optimizer(grads)
        True
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "amsgrad": amsgrad, "maximize": maximize})
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self.state_step = Parameter(Tensor(0, mstype.int32), "state_step", requires_grad=False)

    def construct(self, gradients):
        step = self._next_step(self.state_step)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr_t = ops.div(ops.mul(group["lr"], ops.sqrt(ops.sub(1.0, _pow(beta2, step)))),
                           ops.sub(1.0, _pow(beta1, step)))
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], group["weight_decay"]):
                m, v = _moments(self.exp_avg[i], self.exp_avg_sq[i], grad, beta1, beta2)
                if group["amsgrad"]:
                    v = ops.maximum(self.max_exp_avg_sq[i], v)
                    ops.assign(self.max_exp_avg_sq[i], v)
                update = ops.div(m, ops.add(ops.sqrt(v), group["eps"]))
                ops.assign(param, ops.sub(param, ops.mul(ops.cast(lr_t, param.dtype), update)))
        return True


class AdamW(Optimizer):
    r"""AdamW: Adam with decoupled weight decay (`Decoupled Weight Decay Regularization
    <https://arxiv.org/abs/1711.05101>`_), PyTorch's formulation:

    .. math::
        \theta \leftarrow \theta (1 - \gamma\lambda),\quad
        \theta_t = \theta - \frac{\gamma}{1-\beta_1^t} \frac{m_t}{\sqrt{v_t}/\sqrt{1-\beta_2^t} + \epsilon}

    (with ``amsgrad``, the running maximum of :math:`v_t`). Arguments as :class:`Adam`, except
    ``weight_decay`` defaults to ``1e-2`` and is not added to the gradient.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        _check_adam_args(lr, betas, eps, weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "amsgrad": amsgrad, "maximize": maximize})
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self.parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self.state_step = Parameter(Tensor(0, mstype.int32), "state_step", requires_grad=False)

    def construct(self, gradients):
        step = self._next_step(self.state_step)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr = group["lr"]
            decay = ops.sub(1.0, ops.mul(lr, group["weight_decay"]))
            step_size = ops.div(lr, ops.sub(1.0, _pow(beta1, step)))
            bias2_sqrt = ops.sqrt(ops.sub(1.0, _pow(beta2, step)))
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"]):
                decayed = ops.mul(param, ops.cast(decay, param.dtype))
                m, v = _moments(self.exp_avg[i], self.exp_avg_sq[i], grad, beta1, beta2)
                if group["amsgrad"]:
                    v = ops.maximum(self.max_exp_avg_sq[i], v)
                    ops.assign(self.max_exp_avg_sq[i], v)
                denom = ops.add(ops.div(ops.sqrt(v), bias2_sqrt), group["eps"])
                ops.assign(param, ops.sub(decayed, ops.mul(ops.div(m, denom), ops.cast(step_size, param.dtype))))
        return True


class Adamax(Optimizer):
    r"""Adamax, Adam's infinity-norm variant:

    .. math::
        m_t = \beta_1 m_{t-1} + (1-\beta_1) g_t,\quad u_t = \max(\beta_2 u_{t-1}, |g_t| + \epsilon),\quad
        \theta_t = \theta_{t-1} - \frac{\gamma}{1-\beta_1^t} \frac{m_t}{u_t}

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``2e-3``.
        betas (Tuple[float, float], optional): Default ``(0.9, 0.999)``.
        eps (float, optional): Default ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.

    Keyword Args:
        maximize (bool, optional): Default ``False``.

    Raises:
        ValueError: ``lr`` or ``eps`` is not positive, ``weight_decay`` is negative, or a beta is not in [0, 1).
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, *, maximize=False):
        check_greater_than(lr, "lr", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        check_greater_than(eps, "eps", self.cls_name)
        check_in_range(betas[0], "betas[0]", self.cls_name, 0.0, 1.0)
        check_in_range(betas[1], "betas[1]", self.cls_name, 0.0, 1.0)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "maximize": maximize})
        self.step_t = Parameter(Tensor(0, mstype.int32), "step_t", requires_grad=False)
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_inf = self.parameters.clone(prefix="exp_inf", init="zeros")

    def construct(self, gradients):
        step = self._next_step(self.step_t)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            clr = ops.div(group["lr"], ops.sub(1.0, _pow(beta1, step)))
            for i, param, grad in self._group_items(gradients, group_id, group["maximize"], group["weight_decay"]):
                m = ops.add(ops.mul(self.exp_avg[i], beta1), ops.mul(grad, 1 - beta1))
                ops.assign(self.exp_avg[i], m)
                u = ops.maximum(ops.mul(self.exp_inf[i], beta2), ops.add(ops.abs(grad), group["eps"]))
                ops.assign(self.exp_inf[i], u)
                ops.assign(param, ops.sub(param, ops.div(ops.mul(ops.cast(clr, param.dtype), m), u)))
        return True


class NAdam(Optimizer):
    r"""NAdam, Adam with Nesterov momentum (`Incorporating Nesterov Momentum into Adam
    <https://openreview.net/forum?id=OM0jvwB8jIp57ZJjtNEZ>`_), with the momentum schedule
    :math:`\mu_t = \beta_1 (1 - 0.5 \cdot 0.96^{t \psi})` for ``momentum_decay`` :math:`\psi`.

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``2e-3``.
        betas (Tuple[float, float], optional): Default ``(0.9, 0.999)``.
        eps (float, optional): Default ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.
        momentum_decay (float, optional): Default ``4e-3``.

    Raises:
        ValueError: ``lr`` or ``eps`` is not positive, ``weight_decay`` or ``momentum_decay`` is negative, or a
            beta is not in [0, 1).
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, momentum_decay=4e-3):
        check_greater_than(lr, "lr", self.cls_name)
        check_greater_than(eps, "eps", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        check_not_less_than(momentum_decay, "momentum_decay", self.cls_name)
        check_in_range(betas[0], "betas[0]", self.cls_name, 0.0, 1.0)
        check_in_range(betas[1], "betas[1]", self.cls_name, 0.0, 1.0)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "momentum_decay": momentum_decay})
        self.step_t = Parameter(Tensor(0, mstype.int32), "step_t", requires_grad=False)
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.mu_product = [Parameter(f32(1.0), "mu_product_" + p.name, requires_grad=False) for p in self.parameters]

    def construct(self, gradients):
        step = self._next_step(self.step_t)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            psi, lr, eps = group["momentum_decay"], group["lr"], group["eps"]
            bias2 = ops.sub(1.0, _pow(beta2, step))
            mu = ops.mul(ops.sub(1.0, ops.mul(_pow(0.96, ops.mul(step, psi)), 0.5)), beta1)
            mu_next = ops.mul(ops.sub(1.0, ops.mul(_pow(0.96, ops.mul(ops.add(step, 1.0), psi)), 0.5)), beta1)
            for i, param, grad in self._group_items(gradients, group_id, False, group["weight_decay"]):
                mu_product = ops.mul(self.mu_product[i], mu)
                ops.assign(self.mu_product[i], mu_product)
                m, v = _moments(self.exp_avg[i], self.exp_avg_sq[i], grad, beta1, beta2)
                denom = ops.add(ops.sqrt(ops.div(v, bias2)), eps)
                mu_product_next = ops.mul(mu_product, mu_next)
                step1 = ops.div(ops.mul(lr, ops.sub(1.0, mu)), ops.sub(1.0, mu_product))
                p = ops.sub(param, ops.div(ops.mul(step1, grad), denom))
                step2 = ops.div(ops.mul(lr, mu_next), ops.sub(1.0, mu_product_next))
                ops.assign(param, ops.sub(p, ops.div(ops.mul(step2, m), denom)))
        return True


class RAdam(Optimizer):
    r"""RAdam, Adam with a rectified adaptive learning rate (`On the Variance of the Adaptive Learning Rate and
    Beyond <https://arxiv.org/abs/1908.03265>`_): while the variance estimate is unreliable
    (:math:`\rho_t \le 5`) the step is plain momentum SGD, afterwards the adaptive step scaled by the
    rectification term.

    Args:
        params (Union[list(Parameter), list(dict)]): the parameters, or parameter groups.
        lr (Union[int, float, Tensor], optional): Default ``1e-3``.
        betas (Tuple[float, float], optional): Default ``(0.9, 0.999)``.
        eps (float, optional): Default ``1e-8``.
        weight_decay (float, optional): L2 penalty. Default ``0.``.

    Raises:
        ValueError: ``lr`` or ``eps`` is not positive, ``weight_decay`` is negative, or a beta is not in [0, 1).
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
        check_greater_than(lr, "lr", self.cls_name)
        check_not_less_than(weight_decay, "weight_decay", self.cls_name)
        check_greater_than(eps, "eps", self.cls_name)
        check_in_range(betas[0], "betas[0]", self.cls_name, 0.0, 1.0)
        check_in_range(betas[1], "betas[1]", self.cls_name, 0.0, 1.0)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay})
        self.step_t = Parameter(Tensor(0, mstype.int32), "step_t", requires_grad=False)
        self.exp_avg = self.parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self.parameters.clone(prefix="exp_avg_sq", init="zeros")

    def construct(self, gradients):
        step = self._next_step(self.step_t)
        for group_id, group in enumerate(self.param_groups):
            beta1, beta2 = group["betas"]
            lr = group["lr"]
            bias1 = ops.sub(1.0, _pow(beta1, step))
            beta2_pow = _pow(beta2, step)
            bias2 = ops.sub(1.0, beta2_pow)
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = ops.sub(rho_inf, ops.div(ops.mul(ops.mul(step, 2.0), beta2_pow), bias2))
            # where rho_t <= 5 the square root below is of a negative number; ops.where discards it
            rect = ops.sqrt(ops.div(ops.mul(ops.mul(ops.sub(rho_t, 4.0), ops.sub(rho_t, 2.0)), rho_inf),
                                    ops.mul(rho_t, (rho_inf - 4) * (rho_inf - 2))))
            rectified = ops.greater(rho_t, 5.0)
            for i, param, grad in self._group_items(gradients, group_id, False, group["weight_decay"]):
                m, v = _moments(self.exp_avg[i], self.exp_avg_sq[i], grad, beta1, beta2)
                corrected = ops.div(m, bias1)
                adaptive_lr = ops.div(ops.sqrt(bias2), ops.add(ops.sqrt(v), group["eps"]))
                adaptive = ops.mul(ops.mul(ops.mul(corrected, lr), adaptive_lr), rect)
                plain = ops.mul(corrected, lr)
                ops.assign(param, ops.sub(param, ops.where(rectified, adaptive, plain)))
        return True
