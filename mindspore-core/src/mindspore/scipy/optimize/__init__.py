"""Optimization of ``mindspore.scipy``: ``minimize`` (BFGS, L-BFGS, augmented Lagrangian), ``line_search``
(strong Wolfe) and ``linear_sum_assignment``."""
from mindspore.scipy.optimize import gradient_optimization_algorithm  # noqa: F401  (a 2.10 module path)
from mindspore.scipy.optimize.line_search import line_search
from mindspore.scipy.optimize.linear_sum_assignment import linear_sum_assignment
from mindspore.scipy.optimize.minimize import minimize

__all__ = ["minimize", "line_search", "linear_sum_assignment"]
