"""``mindspore.scipy.optimize.minimize``: the BFGS, L-BFGS and augmented Lagrangian solvers behind SciPy's
``minimize`` API, with MindSpore 2.10's result record ``OptimizeResults``."""
from typing import NamedTuple, Optional

from mindspore.common import Tensor
from mindspore.scipy.optimize._bfgs import minimize_bfgs
from mindspore.scipy.optimize._lagrange import minimize_lagrange
from mindspore.scipy.optimize._lbfgs import minimize_lbfgs


class OptimizeResults(NamedTuple):
    """Object holding optimization results.

    Args:
        x (Tensor): final solution.
        success (bool): ``True`` if optimization succeeded.
        status (int): solver specific return code. 0 means converged (nominal),
            1=max BFGS iters reached, 3=zoom failed, 4=saddle point reached,
            5=max line search iters reached, -1=undefined
        fun (float): final function value.
        jac (Tensor): final jacobian array.
        hess_inv (Tensor, optional): final inverse Hessian estimate.
        nfev (int): number of function calls used.
        njev (int): number of gradient evaluations.
        nit (int): number of iterations of the optimization algorithm.
    """
    x: Tensor
    success: bool
    status: int
    fun: float
    jac: Tensor
    hess_inv: Optional[Tensor]
    nfev: int
    njev: int
    nit: int


def lagrange_para_check(func, constraints, options, tol):
    """Check the arguments of the Lagrange method."""
    if not callable(func):
        raise TypeError("'func' must be of type function, but got {}".format(type(func)))
    coincide = options.get('coincide_fun')
    if coincide is not None and not callable(coincide):
        raise TypeError("'coincide_fun' must be of type function, but got {}".format(type(coincide)))
    for constraint in constraints:
        if not callable(constraint):
            raise TypeError("'constraint' must be of type function, but got {}".format(type(constraint)))
    if tol is not None and len(tol) != len(constraints):
        raise ValueError("The len of tol must be same as the len of constraints")


def minimize(func, x0, args=(), method=None, jac=None, hess=None, hessp=None, bounds=None, constraints=(),
             tol=None, callback=None, options=None):
    r"""Minimization of scalar function of one or more variables.

    This API matches SciPy's with some deviations: gradients of ``func`` are computed by MindSpore's autodiff
    when `jac` is None; ``method`` is required; `hess`, `hessp`, `bounds`, `callback` are not implemented.

    Args:
        func (Callable): the objective function to be minimized, :math:`fun(x, *args) -> float`, where `x` is a
            1-D Tensor of shape :math:`(n,)` and `args` a tuple of fixed parameters. `fun` must be
            differentiable if jac is None.
        x0 (Tensor): initial guess, of shape :math:`(n,)`.
        args (Tuple): extra arguments passed to the objective function. Default: ``()`` .
        method (str): solver type, one of ``"BFGS"``, ``"LBFGS"``, ``"LAGRANGE"``.
        jac (Callable, optional): the gradient :math:`jac(x, *args)` (``"BFGS"``/``"LBFGS"`` only); None: by
            automatic differentiation. Default: ``None``.
        hess (Callable, optional): Not implemented. Default: ``None``.
        hessp (Callable, optional): Not implemented. Default: ``None``.
        bounds (Sequence, optional): Not implemented. Default: ``None``.
        constraints (Callable, optional): the inequality constraints ``c(x) < 0`` of ``"LAGRANGE"``.
            Default: ``()``.
        tol (float, optional): ``"LAGRANGE"``: the saving tolerance of each constraint. Default: ``None`` .
        callback (Callable, optional): Not implemented. Default: ``None``.
        options (Mapping[str, Any], optional): solver options. Default: ``None`` . ``"BFGS"``/``"LBFGS"``:
            ``maxiter`` (int), ``norm``, ``gtol`` (float), ``line_search_maxiter`` (int), ``history_size`` (int,
            ``"LBFGS"``, default 20). ``"LAGRANGE"``: ``obj_weight`` (float), ``lower``/``upper`` (Tensor bounds of
            the variables), ``learning_rate`` (float, of Adam), ``coincide_fun`` (Callable, the part common to the
            objective and the constraints), ``rounds`` (int), ``steps`` (int, Adam steps per round), ``log_sw``
            (bool).

    Returns:
        OptimizeResults, object holding optimization results (``"LAGRANGE"``: its own record with
        ``succeeded``, ``best_value``, ``object_value``, ``loss_value``).

    Raises:
        ValueError: If `method` is None or unknown.
        TypeError: If `args` is not a tuple.

    Supported Platforms:
        ``GPU`` ``CPU``

    Examples:
        >>> import numpy as onp
        >>> from mindspore.scipy.optimize import minimize
        >>> from mindspore import Tensor
        >>> x0 = Tensor(onp.zeros(2).astype(onp.float32))
        >>> def func(p):
        ...     x, y = p
        ...     return (x ** 2 + y - 11.) ** 2 + (x + y ** 2 - 7.) ** 2
        >>> res = minimize(func, x0, method='BFGS', options=dict(maxiter=None, gtol=1e-6))
        >>> print(res.x)
        [3. 2.]
    """
    if method is None:
        raise ValueError("You must specify a solver.")
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise TypeError("args argument to mindspore.scipy.optimize.minimize must be a tuple, got {}".format(args))

    def fun_with_args(x):
        return func(x, *args)

    if method.lower() in ('bfgs', 'lbfgs'):
        solve = minimize_bfgs if method.lower() == 'bfgs' else minimize_lbfgs
        results = solve(fun_with_args, x0, jac, **options)
        return OptimizeResults(x=results.x_k, success=results.converged and not results.failed,
                               status=results.status, fun=results.f_k, jac=results.g_k, hess_inv=results.H_k,
                               nfev=results.nfev, njev=results.ngev, nit=results.k)
    if method.lower() == 'lagrange':
        lagrange_para_check(func, constraints, options, tol)
        return minimize_lagrange(func, x0, constraints, tol, **options)
    raise ValueError("Method {} not recognized".format(method))
