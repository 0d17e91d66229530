"""L-BFGS: BFGS with the inverse Hessian applied implicitly by the two-loop recursion (Algorithm 7.4 of Wright
and Nocedal, "Numerical Optimization", 1999) over the last ``history_size`` pairs ``(s, y)``, scaled by
``gamma = s^T y / y^T y``; a pair with ``y^T s <= 1e-10`` (too little curvature) is not stored and the
gradient itself becomes the search direction, as in MindSpore 2.10."""
from collections import deque

from mindspore import ops
from mindspore.scipy.optimize.gradient_optimization_algorithm import (GradientOptimizationAlgorithm,
                                                                      GradientOptimizationResults)
from mindspore.scipy.utils import _to_scalar, grad


class AlgorithmLbfgs(GradientOptimizationAlgorithm):
    """L-BFGS's search direction over the last ``history_size`` curvature pairs."""

    def __init__(self, func, jac, history_size):
        super().__init__(func, jac)
        self.pairs = deque(maxlen=history_size)

    def gen_search_vector(self, s_k, y_k, state):
        q = state["g_k"]
        y_s = ops.tensor_dot(y_k, s_k, 1)
        if y_s <= 1e-10:
            state["search_vector"] = q
            return
        rho = ops.reciprocal(y_s)
        self.pairs.append((s_k, y_k, rho * s_k, rho * y_k))
        alphas = []
        for _, y, alpha_rate, _ in reversed(self.pairs):
            alpha = ops.tensor_dot(alpha_rate, q, 1)
            q = q - alpha * y
            alphas.append(alpha)
        r = y_s / ops.tensor_dot(y_k, y_k, 1) * q
        for (s, _, _, beta_rate), alpha in zip(self.pairs, reversed(alphas)):
            beta = ops.tensor_dot(beta_rate, r, 1)
            r = r + alpha * s - beta * s
        state["search_vector"] = r


def minimize_lbfgs(func, x_0, jac=None, history_size=20, maxiter=None, norm=float("inf"), gtol=1e-5,
                   line_search_maxiter=10):
    """Minimize ``func`` from ``x_0`` by L-BFGS; ``jac`` defaults to its gradient by automatic differentiation.
    Returns :class:`GradientOptimizationResults` (``H_k`` None)."""
    if jac is None:
        jac = grad(func)
    state = AlgorithmLbfgs(func, jac, history_size).construct(x_0, maxiter, norm, gtol, line_search_maxiter)
    return GradientOptimizationResults(
        converged=state["converged"], failed=state["failed"], k=state["k"], nfev=state["nfev"], ngev=state["ngev"],
        nhev=state["nhev"], x_k=state["x_k"], f_k=_to_scalar(state["f_k"]), g_k=state["g_k"], H_k=None,
        old_old_fval=_to_scalar(state["old_old_fval"]), status=state["status"],
        line_search_status=state["line_search_status"])
