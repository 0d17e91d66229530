"""The line-search descent loop shared by quasi-Newton methods (``GradientOptimizationAlgorithm``): from ``x_0``,
search along ``-d`` for the strong Wolfe step, move, and ask the method (``gen_search_vector``) for the next
``d`` from the step ``s`` and the gradient change ``y``; MindSpore 2.10's accounting of iterations, evaluations
and status (see ``_bfgs``)."""
from abc import abstractmethod
from typing import NamedTuple

from mindspore.common import Tensor
from mindspore.scipy.optimize.line_search import LineSearch
from mindspore.scipy.utils import _norm


class GradientOptimizationResults(NamedTuple):
    """Results from gradient optimization: ``converged``, ``failed`` (the line search failed), the counters
    ``k``, ``nfev``, ``ngev``, ``nhev``, the final ``x_k``, ``f_k``, ``g_k``, the inverse Hessian estimate ``H_k``
    (None when the method keeps none), ``old_old_fval``, ``status`` and ``line_search_status``."""
    converged: bool
    failed: bool
    k: int
    nfev: int
    ngev: int
    nhev: int
    x_k: Tensor
    f_k: float
    g_k: Tensor
    H_k: Tensor  # pylint: disable=invalid-name
    old_old_fval: float
    status: int
    line_search_status: int


def status_of(converged, k, maxiter, failed, line_search_status):
    """0 converged, 1 maximum iterations, 2 + the line search's status when it failed, else -1."""
    if converged:
        return 0
    if k == maxiter:
        return 1
    return 2 + line_search_status if failed else -1


class GradientOptimizationAlgorithm:
    """Base class of the line-search quasi-Newton methods; a method defines ``gen_search_vector``."""

    def __init__(self, func, jac):
        self.func = func
        self.jac = jac
        self.line_search = LineSearch(func, jac)

    @abstractmethod
    def gen_search_vector(self, s_k, y_k, state):
        """Set ``state["search_vector"]`` (the direction before negation) from the step and gradient change."""

    def construct(self, x_0, maxiter=None, norm=float("inf"), gtol=1e-5, line_search_maxiter=10):
        """Minimize from ``x_0``: the final state (a dict of the results' fields)."""
        if maxiter is None:
            maxiter = x_0.size * 200
        f_0, g_0 = self.func(x_0), self.jac(x_0)
        state = {"converged": bool(_norm(g_0, ord_=float("inf")) < gtol), "failed": False, "k": 0, "nfev": 1,
                 "ngev": 1, "nhev": 0, "x_k": x_0, "f_k": f_0, "g_k": g_0, "search_vector": g_0, "H_k": None,
                 "old_old_fval": f_0 + _norm(g_0) / 2, "line_search_status": 0}
        while state["k"] < maxiter:
            sdv = -1 * state["search_vector"]
            ls = self.line_search(state["x_k"], sdv, old_fval=state["f_k"], old_old_fval=state["old_old_fval"],
                                  gfk=state["g_k"], maxiter=line_search_maxiter)
            state["failed"] = bool(not ls["done"] or ls["failed"])
            state["nfev"] += ls["nfev"]
            state["ngev"] += ls["ngev"]
            state["line_search_status"] = ls["status"]
            if state["failed"]:
                break
            s_k = ls["a_star"] * sdv
            y_k = ls["g_star"] - state["g_k"]
            state["old_old_fval"] = state["f_k"]
            state.update(x_k=state["x_k"] + s_k, f_k=ls["phi_star"], g_k=ls["g_star"])
            state["converged"] = bool(_norm(state["g_k"], ord_=norm) < gtol)
            if state["converged"]:
                break
            self.gen_search_vector(s_k, y_k, state)
            state["k"] += 1
        state["status"] = status_of(state["converged"], state["k"], maxiter, state["failed"],
                                    state["line_search_status"])
        return state
