"""Inexact line search satisfying the strong Wolfe conditions (``mindspore.scipy.optimize.line_search``).

Algorithms 3.5 (the bracketing phase) and 3.6 (``_zoom``: cubic, then quadratic interpolation, then bisection,
with the safeguards of SciPy/JAX ``delta1 = 0.2``, ``delta2 = 0.1``, at most 10 zoom steps) of Wright and
Nocedal, "Numerical Optimization", 1999, pp. 59-61, on 0-d tensors of the search's dtype, as MindSpore 2.10
computes them: the objective and its gradient are the user's MindSpore functions, evaluated eagerly, and the
loop is plain Python (PYNATIVE). Two float32 details of 2.10 are kept because they decide which step is
taken: the cubic interpolation's 2x2 system is solved in float32, and the zoom's curvature bound
``-c2 * dphi_0`` uses ``c2`` as a float32 constant.
"""
from typing import NamedTuple

from mindspore import ops
from mindspore.common import Tensor
from mindspore.common import dtype as mstype
from mindspore.scipy.utils import _to_scalar, grad


class _LineSearchResults(NamedTuple):
    """Results of the line search.

    Args:
        failed (bool): ``True`` if the strong Wolfe conditions were not satisfied.
        nit (int): number of iterations.
        nfev (int): number of function evaluations.
        ngev (int): number of gradient evaluations.
        k (int): the iteration counter at the end (``nit + 1``).
        a_k (float): step size.
        f_k (float): final function value.
        g_k (Tensor): final gradient value.
        status (int): end status (0 passed, 1 zoom failed, 3 maximum iterations reached).
    """
    failed: bool
    nit: int
    nfev: int
    ngev: int
    k: int
    a_k: float
    f_k: float
    g_k: Tensor
    status: int


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    """The minimiser of the cubic through (a, fa), (b, fb), (c, fc) with slope ``fpa`` at ``a``."""
    db = b - a
    dc = c - a
    denom = (db * dc) ** 2 * (db - dc)
    f32 = mstype.float32
    d1 = ops.cast(ops.stack([ops.stack([dc ** 2, -db ** 2]), ops.stack([-dc ** 3, db ** 3])]), f32)
    d2 = ops.cast(ops.stack([fb - fa - fpa * db, fc - fa - fpa * dc]), f32)
    coef = ops.matmul(d1, d2) / denom
    a2, b2 = coef[0], coef[1]
    radical = b2 * b2 - 3. * a2 * fpa
    return a + (-b2 + ops.sqrt(radical)) / (3. * a2)


def _quadmin(a, fa, fpa, b, fb):
    """The minimiser of the quadratic through (a, fa), (b, fb) with slope ``fpa`` at ``a``."""
    db = b - a
    b2 = (fb - fa - fpa * db) / (db ** 2)
    return a - fpa / (2. * b2)


def _zoom(fn, low, high, phi_0, g_0, dphi_0, c1, c2):
    """Algorithm 3.6: shrink the bracket [low, high] (each ``(a, phi, dphi)``) to a step meeting the strong
    Wolfe conditions. Returns a dict with ``failed``, ``a_star``, ``phi_star``, ``g_star``, ``nfev``."""
    a_low, phi_low, dphi_low = low
    a_high, phi_high, _ = high                      # the slope at the high end is never needed
    a_rec, phi_rec = (a_low + a_high) / 2., (phi_low + phi_high) / 2.
    res = {"a_star": ops.ones((), a_low.dtype), "phi_star": phi_low, "g_star": g_0, "nfev": 0}
    curvature = ops.neg(Tensor(c2, mstype.float32)) * dphi_0
    maxiter, j, done = 10, 0, False
    while not done and j < maxiter:
        dalpha = a_high - a_low
        a = ops.minimum(a_low, a_high)
        b = ops.maximum(a_low, a_high)
        cchk, qchk = 0.2 * dalpha, 0.1 * dalpha
        a_j = (a_low + a_high) / 2.0
        cubic = _cubicmin(a_low, phi_low, dphi_low, a_high, phi_high, a_rec, phi_rec)
        quad = _quadmin(a_low, phi_low, dphi_low, a_high, phi_high)
        if j > 0 and ops.isfinite(cubic) and a + cchk < cubic < b - cchk:
            a_j = cubic
        elif ops.isfinite(quad) and a + qchk < quad < b - qchk:
            a_j = quad
        phi_j, g_j, dphi_j = fn(a_j)
        res["nfev"] += 1
        if (phi_j > phi_0 + c1 * a_j * dphi_0) or (phi_j >= phi_low):
            a_rec, phi_rec = a_high, phi_high
            a_high, phi_high = a_j, phi_j
        elif ops.abs(dphi_j) <= curvature:
            done = True
            res.update(a_star=a_j, phi_star=phi_j, g_star=g_j)
        else:
            if dphi_j * (a_high - a_low) >= 0.:
                a_high, phi_high = a_low, phi_low
            a_rec, phi_rec = a_low, phi_low
            a_low, phi_low, dphi_low = a_j, phi_j, dphi_j
        j += 1
    res["failed"] = j == maxiter
    return res


class LineSearch:
    """Line search satisfying the strong Wolfe conditions for the function ``func`` with gradient ``jac``."""

    def __init__(self, func, jac):
        self.func = func
        self.jac = jac

    def _fval_and_grad(self, xk, pk):
        def fn(alpha):
            x = xk + alpha * pk
            g = self.jac(x)
            return self.func(x), g, ops.tensor_dot(g, pk, 1)
        return fn

    def __call__(self, xk, pk, old_fval=None, old_old_fval=None, gfk=None, c1=1e-4, c2=0.9, maxiter=20):
        """Search along ``pk`` from ``xk``: a dict with ``done``, ``failed``, ``i``, ``a_star``, ``phi_star``,
        ``g_star``, ``nfev``, ``ngev``, ``status``."""
        fn = self._fval_and_grad(xk, pk)
        zero, one = ops.zeros((), xk.dtype), ops.ones((), xk.dtype)
        if old_fval is None or gfk is None:
            nfev = 1
            phi_0, g_0, dphi_0 = fn(zero)
        else:
            nfev = 0
            phi_0, g_0, dphi_0 = old_fval, gfk, ops.tensor_dot(gfk, pk, 1)
        start = one
        if old_old_fval is not None:
            candidate = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
            start = ops.minimum(candidate, one) if ops.isfinite(candidate) else one
        st = {"done": False, "failed": False, "i": 1, "a_star": zero, "phi_star": phi_0, "g_star": g_0}
        a_prev, phi_prev, dphi_prev = zero, phi_0, dphi_0
        while not st["done"] and st["i"] <= maxiter:
            a_i = a_prev * 2.0 if st["i"] > 1 else start
            phi_i, g_i, dphi_i = fn(a_i)
            nfev += 1
            found = None
            if (phi_i > phi_0 + c1 * a_i * dphi_0) or (phi_i >= phi_prev and st["i"] > 1):
                found = _zoom(fn, (a_prev, phi_prev, dphi_prev), (a_i, phi_i, dphi_i), phi_0, g_0, dphi_0, c1, c2)
            elif ops.abs(dphi_i) <= -c2 * dphi_0:
                found = {"failed": False, "a_star": a_i, "phi_star": phi_i, "g_star": g_i, "nfev": 0}
            elif dphi_i >= 0.:
                found = _zoom(fn, (a_i, phi_i, dphi_i), (a_prev, phi_prev, dphi_prev), phi_0, g_0, dphi_0, c1, c2)
            if found is not None:
                nfev += found["nfev"]
                st.update(done=True, failed=found["failed"], a_star=found["a_star"], phi_star=found["phi_star"],
                          g_star=found["g_star"])
            st["i"] += 1
            a_prev, phi_prev, dphi_prev = a_i, phi_i, dphi_i
        st["status"] = 1 if st["failed"] else (3 if st["i"] > maxiter else 0)
        if st["a_star"].dtype != mstype.float64 and ops.abs(st["a_star"]) < 1e-8:
            st["a_star"] = ops.sign(st["a_star"]) * 1e-8
        st["nfev"] = st["ngev"] = nfev
        return st


def line_search(f, xk, pk, jac=None, gfk=None, old_fval=None, old_old_fval=None, c1=1e-4, c2=0.9, maxiter=20):
    """Inexact line search that satisfies strong Wolfe conditions.

    Algorithm 3.5 from Wright and Nocedal, 'Numerical Optimization', 1999, pg. 59-61.

    Args:
        f (function): function of the form f(x) where x is a flat Tensor and returns a real scalar. The function
            should be composed of operations with vjp defined.
        xk (Tensor): initial guess.
        pk (Tensor): direction to search in. Assumes the direction is a descent direction.
        jac (function): the gradient function at x where x is a flat Tensor and returns a Tensor. ``None``: the
            gradient of `f` by automatic differentiation. Default: ``None``.
        gfk (Tensor): initial value of the gradient at `xk`. Default: ``None``.
        old_fval (Tensor): initial value of `f` at `xk`. Default: ``None``.
        old_old_fval (Tensor): the value of `f` at the point preceding `xk`, for the initial step. Default:
            ``None``.
        c1 (float): Wolfe criteria constant, see ref. Default: ``1e-4``.
        c2 (float): The same as `c1`. Default: ``0.9``.
        maxiter (int): maximum number of iterations to search. Default: ``20``.

    Returns:
        LineSearchResults, results of line search.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore.scipy.optimize import line_search
        >>> from mindspore import Tensor
        >>> x0 = Tensor(onp.ones(2).astype(onp.float32))
        >>> p0 = Tensor(onp.array([-1, -1]).astype(onp.float32))
        >>> def func(x):
        ...     return x[0] ** 2 - x[1] ** 3
        >>> res = line_search(func, x0, p0)
        >>> print(res.a_k)
        1.0
    """
    if jac is None:
        jac = grad(f)
    st = LineSearch(f, jac)(xk, pk, old_fval, old_old_fval, gfk, c1, c2, maxiter)
    return _LineSearchResults(failed=bool(st["failed"] or not st["done"]), nit=st["i"] - 1, nfev=st["nfev"],
                              ngev=st["ngev"], k=st["i"], a_k=_to_scalar(st["a_star"]),
                              f_k=_to_scalar(st["phi_star"]), g_k=st["g_star"], status=st["status"])
