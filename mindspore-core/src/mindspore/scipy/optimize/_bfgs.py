"""BFGS (Algorithm 6.1 of Wright and Nocedal, "Numerical Optimization", 1999, pp. 136-143): the dense inverse
Hessian estimate ``H`` updated by ``H <- (I - rho s y^T) H (I - rho y s^T) + rho s s^T`` after each strong-Wolfe
line search along ``-H g``; MindSpore 2.10's iteration and status accounting (the loop runs at least one line
search; a converged step ends it before ``k`` is counted)."""
from typing import NamedTuple

from mindspore import ops
from mindspore.common import Tensor
from mindspore.scipy.optimize.gradient_optimization_algorithm import status_of
from mindspore.scipy.optimize.line_search import LineSearch
from mindspore.scipy.utils import _norm, _to_scalar, grad


class _BFGSResults(NamedTuple):
    """Results from BFGS optimization: ``converged``, ``failed`` (the line search failed), the counters ``k``,
    ``nfev``, ``ngev``, ``nhev``, the final ``x_k``, ``f_k``, ``g_k``, the inverse Hessian estimate ``H_k``,
    ``old_old_fval`` (the value at the point before ``x_k``), ``status`` and ``line_search_status``."""
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


def _outer(a, b):
    return ops.expand_dims(a, 1) * ops.expand_dims(b, 0)


def minimize_bfgs(func, x0, jac=None, maxiter=None, norm=float("inf"), gtol=1e-5, line_search_maxiter=10):
    """Minimize ``func`` from ``x0`` by BFGS; ``jac`` defaults to its gradient by automatic differentiation.
    Returns :class:`_BFGSResults`."""
    if jac is None:
        jac = grad(func)
    if maxiter is None:
        maxiter = x0.size * 200
    line_search = LineSearch(func, jac)
    identity = ops.eye(x0.shape[0], x0.shape[0], x0.dtype)
    f_k, g_k = func(x0), jac(x0)
    converged, failed = bool(_norm(g_k, ord_=float("inf")) < gtol), False
    k, nfev, ngev, x_k, h_k = 0, 1, 1, x0, identity
    old_old_fval = f_k + _norm(g_k) / 2
    ls_status = 0
    while k < maxiter:
        p_k = -1 * ops.matmul(h_k, g_k)
        ls = line_search(x_k, p_k, old_fval=f_k, old_old_fval=old_old_fval, gfk=g_k, maxiter=line_search_maxiter)
        nfev += ls["nfev"]
        ngev += ls["ngev"]
        failed = bool(ls["failed"] or not ls["done"])
        ls_status = ls["status"]
        if failed:
            break
        s_k = ls["a_star"] * p_k
        y_k = ls["g_star"] - g_k
        old_old_fval = f_k
        x_k, f_k, g_k = x_k + s_k, ls["phi_star"], ls["g_star"]
        converged = bool(_norm(g_k, ord_=norm) < gtol)
        if converged:
            break
        rho_k = ops.reciprocal(ops.tensor_dot(y_k, s_k, 1))
        left = ops.matmul(identity - rho_k * _outer(s_k, y_k), h_k)
        h_k = ops.matmul(left, identity - rho_k * _outer(y_k, s_k)) + rho_k * _outer(s_k, s_k)
        k += 1
    return _BFGSResults(converged=converged, failed=failed, k=k, nfev=nfev, ngev=ngev, nhev=0, x_k=x_k,
                        f_k=_to_scalar(f_k), g_k=g_k, H_k=h_k, old_old_fval=_to_scalar(old_old_fval),
                        status=status_of(converged, k, maxiter, failed, ls_status), line_search_status=ls_status)
