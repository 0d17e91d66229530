"""The augmented Lagrangian method of ``minimize(method='LAGRANGE')`` (MindSpore 2.10's), for inequality
constraints ``c_i(x) < 0``.

Each of ``rounds`` rounds takes ``steps`` Adam steps on the augmented Lagrangian
``L(x) = w f(x) + sigma / 2 * sum_i (relu(mu_i / sigma + c_i(x))^2 - (mu_i / sigma)^2)`` (PHR penalty), the
variable first mapped into the bounds (``(ub - lb) sigmoid(x) + lb``, ``ub - x^2``, ``x^2 + lb``); then the
multipliers grow (``mu_i <- max(mu_i + sigma c_i, 0)``) when the constraint violation
``v = sqrt(sum_i max(c_i, -mu_i / sigma)^2)`` is below the tolerance ``epsilon``, else the penalty ``sigma``
grows by 1.1. The best point seen (every constraint below its ``save_tol``, the objective below the first one)
is returned. The bookkeeping (``sigma``, ``mu``, ``epsilon``, ``eta``) is float32 as in 2.10.

Two deliberate differences from 2.10, whose numbers are wrong there: 2.10 reads each constraint value back
from a Parameter it has just written, which cuts the penalty out of the gradient (the constraints never steer
the Adam steps); and its ``best_value`` aliases the trained Parameter, so it is the point one update after the
one ``object_value``/``loss_value`` describe. Here the penalty is differentiated and ``best_value`` is the point
that was checked.
"""
import logging
from typing import NamedTuple

import numpy as np

from mindspore import nn, ops
from mindspore.common import Parameter, Tensor
from mindspore.common import dtype as mstype
from mindspore.ops import value_and_grad
from mindspore.scipy.utils import _to_scalar


class _LagrangeResults(NamedTuple):
    """Results of the Lagrange method.

    Args:
        succeeded (bool): whether a solution satisfied every constraint within ``save_tol``.
        best_value (numpy.ndarray): the best solution, of the shape of ``x0``.
        object_value (numpy.ndarray): the objective at ``best_value``.
        loss_value (numpy.ndarray): the constraint functions at ``best_value``.
    """
    succeeded: bool
    best_value: float
    object_value: float
    loss_value: Tensor


def _f32(v):
    return Tensor(v, mstype.float32)


class _AugmentedLagrangian:
    """The augmented Lagrangian of ``objective`` under ``constraints`` and its multiplier updates."""

    def __init__(self, objective, constraints, x0, lower, upper, obj_weight, coincide_fun):
        self.objective, self.constraints, self.coincide_fun = objective, constraints, coincide_fun
        self.lower = None if lower is None else Tensor(lower)
        self.upper = None if upper is None else Tensor(upper)
        self.param = Parameter(x0, name="param")
        self.obj_weight = _f32(obj_weight)
        self.sigma = _f32(1.0)
        self.alpha, self.beta, self.rho = _f32(0.1), _f32(0.9), _f32(1.1)
        self.epsilon = 1.0 / ops.pow(self.sigma, self.alpha)
        self.eta = 1.0 / self.sigma
        self.mul = [_f32(1.0) for _ in constraints]
        self.loss_list = np.ones((len(constraints),), np.float32)
        self.object_value, self.best_value = None, None

    def normalize(self, x):
        """``x`` mapped into the bounds."""
        if self.lower is None and self.upper is None:
            return x
        if self.lower is None:
            return (-x) * x + self.upper
        if self.upper is None:
            return x * x + self.lower
        return (self.upper - self.lower) * ops.sigmoid(x) + self.lower

    def __call__(self, param):
        """The augmented Lagrangian at ``param``; the constraint values, objective and point are kept."""
        x = self.normalize(param)
        extra = () if self.coincide_fun is None else (self.coincide_fun(x),)
        penalty, losses = 0, []
        for cons, mul in zip(self.constraints, self.mul):
            loss = cons(x, *extra)
            losses.append(loss)
            penalty += ops.pow(ops.relu(mul / self.sigma + loss), 2.0) - ops.pow(mul / self.sigma, 2.0)
        objective = self.objective(x, *extra)
        self.loss_list = np.array([np.asarray(ops.stop_gradient(v).asnumpy(), np.float32).reshape(())
                                   for v in losses], np.float32)
        self.object_value = ops.stop_gradient(objective).asnumpy()
        # a copy: without bounds ``x`` is the Parameter itself, which the optimizer updates in place
        self.best_value = np.array(ops.stop_gradient(x).asnumpy(), copy=True)
        return self.obj_weight * objective + self.sigma / 2 * penalty

    def update(self):
        """The end of a round: the multipliers or the penalty grow."""
        v_k = 0
        for loss, mul in zip(self.loss_list, self.mul):
            v_k = v_k + ops.pow(ops.maximum(_f32(loss), -mul / self.sigma), 2.0)
        v_k = ops.pow(v_k, 0.5)
        if v_k <= self.epsilon:
            self.mul = [ops.maximum(mul + self.sigma * _f32(loss), _f32(0.0))
                        for loss, mul in zip(self.loss_list, self.mul)]
            self.eta = self.eta / self.sigma
            self.epsilon = self.epsilon / (self.sigma ** self.beta)
        else:
            self.sigma = self.rho * self.sigma
            self.eta = 1.0 / self.sigma
            self.epsilon = 1.0 / (self.sigma ** self.alpha)


def _within_tolerance(f0, object_value, save_tol, loss_list):
    return bool((np.asarray(loss_list) - np.asarray(save_tol)).max() < 0 and object_value < f0)


def minimize_lagrange(func, x0, constraints, save_tol=None, obj_weight=1.0, lower=None, upper=None,
                      learning_rate=0.1, coincide_fun=None, rounds=10, steps=1000, log_sw=False):
    """Minimize ``func`` from ``x0`` under ``constraints`` (each ``c(x) < 0``) by the augmented Lagrangian
    method with Adam; see the module docstring."""
    lagrangian = _AugmentedLagrangian(func, constraints, x0, lower, upper, obj_weight, coincide_fun)
    optimizer = nn.Adam(params=[lagrangian.param], learning_rate=learning_rate, use_locking=True,
                        use_nesterov=False)
    step = value_and_grad(lagrangian, None, optimizer.parameters)
    cons_num = len(constraints)
    save_tol = np.ones((cons_num,), np.float32) if save_tol is None else np.asarray(save_tol, np.float32)
    f0, best_value, succeeded = 0, x0.asnumpy(), False
    loss_list = np.ones((cons_num,), np.float32)
    for j in range(rounds):
        for i in range(steps):
            lang_val, grads = step(lagrangian.param)
            optimizer(grads)
            if log_sw:
                logging.info("round:%d, step:%d", j, i)
                logging.info("object_value:%s, loss_value:%s, lagrange_value:%s", lagrangian.object_value,
                             lagrangian.loss_list, lang_val)
            if i == 0 and j == 0:
                f0 = lagrangian.object_value
            if _within_tolerance(f0, lagrangian.object_value, save_tol, lagrangian.loss_list):
                succeeded = True
                loss_list, best_value = lagrangian.loss_list, lagrangian.best_value
                f0 = lagrangian.object_value
        lagrangian.update()
    return _LagrangeResults(succeeded=_to_scalar(succeeded), best_value=best_value, object_value=f0,
                            loss_value=loss_list)
