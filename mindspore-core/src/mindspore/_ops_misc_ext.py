"""``mindspore.ops``' higher-order differentiation (``derivative``, ``jet``, ``linearize``) and the names built on
autodiff (``get_grad``, ``recompute_block``, ``J``'s vjp; ``grad``/``jvp``/``vmap``... in ``ops.functional`` as in
``ops``), installed into ``mindspore.ops`` and ``mindspore.ops.functional`` by
``import mindspore`` (autodiff sits above the operators, so ``ops`` can not import it); also fills
``ops.tensor_operator_registry`` with the functional ops that Tensor methods of the same name stand for.

Algorithm (``derivative``, ``jet``): the input is moved along a curve ``x(t) = x + sum_k s_k t^k / k!`` (``s_1 = 1``
and the others 0 for ``derivative``; the given ``series`` for ``jet``), and the k-th derivative of
``fn(x(t))`` at ``t = 0`` is k nested forward-mode products (``ops.jvp``) of the function of the scalar ``t``:
by Faa di Bruno this is the k-th Taylor-mode output coefficient. Cost grows as 2^k in the order, fine for the
small orders these are used with.
"""
from __future__ import annotations

import functools
import math

import mindspore.ops as ops
import mindspore.ops.functional as functional
from mindspore._autodiff import grad as _grad
from mindspore._autodiff import recompute as _recompute
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops.function import misc2_func

__all__ = ["derivative", "jet", "linearize", "recompute_block", "install"]


def _as_tuple(primals, api):
    if isinstance(primals, Tensor):
        return (primals,), True
    if isinstance(primals, (tuple, list)) and all(isinstance(p, Tensor) for p in primals):
        return tuple(primals), False
    raise MSTypeError(f"For '{api}', the inputs must be a Tensor or a tuple of Tensors, but got {type(primals)}.")


def _float(t):
    return t if mstype.is_float(t.dtype) else ops.cast(t, mstype.float32)


def _nth_derivative(curve, order):
    """The ``order``-th derivative at 0 of ``curve``, a function of one scalar Tensor."""
    one = Tensor(1.0, mstype.float32)
    fns = [curve]
    for _ in range(order):
        prev = fns[-1]
        fns.append(lambda t, prev=prev: ops.jvp(prev, (t,), (one,))[1])
    return fns[-1](Tensor(0.0, mstype.float32))


def derivative(fn, primals, order):
    """``(fn(primals), the order-th derivative of fn's output)`` when every input moves with derivative 1.

    Examples:
        >>> out, d3 = ops.derivative(ops.sin, ms.Tensor([1.0]), 3)   # d3 = -cos(1)
    """
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise MSValueError(f"For 'derivative', the 'order' must be a positive int, but got {order}.")
    xs, single = _as_tuple(primals, "derivative")
    xs = tuple(_float(x) for x in xs)

    def curve(t):
        return fn(*(x + t for x in xs))
    return fn(*xs), _nth_derivative(curve, order)


def jet(fn, primals, series):
    """Taylor-mode derivatives: with the input moving as ``x + sum_k series[k-1] t^k / k!``, returns
    ``(fn(primals), out_series)`` whose row k-1 is the k-th derivative of the output at ``t = 0``.

    Examples:
        >>> out, s = ops.jet(ops.sin, ms.Tensor([1.0]), ms.Tensor([[1.0], [0.0]]))   # s = [cos(1), -sin(1)]
    """
    xs, single = _as_tuple(primals, "jet")
    ss, _ = _as_tuple(series, "jet") if not single else ((series,), True)
    if len(ss) != len(xs):
        raise MSValueError(f"For 'jet', the number of series {len(ss)} must equal the number of inputs {len(xs)}.")
    xs = tuple(_float(x) for x in xs)
    ss = tuple(_float(s) for s in ss)
    order = ss[0].shape[0]
    for x, s in zip(xs, ss):
        if tuple(s.shape[1:]) != tuple(x.shape) or s.shape[0] != order:
            raise MSValueError(f"For 'jet', each series must have shape (order, *input.shape) = ({order}, "
                               f"{', '.join(map(str, x.shape))}), but got {s.shape}.")

    def curve(t):
        moved = []
        for x, s in zip(xs, ss):
            for k in range(order):
                x = x + s[k] * _power(t, k + 1) / math.factorial(k + 1)
            moved.append(x)
        return fn(*moved)
    out_series = ops.stack([_nth_derivative(curve, k + 1) for k in range(order)])
    return fn(*xs), out_series


def _power(t, n):
    """``t ** n`` as a product (Pow's gradient takes log(t), NaN at t = 0)."""
    out = t
    for _ in range(n - 1):
        out = out * t
    return out


def _jvp_at(fn, inputs, single, v):
    vs = (v,) if isinstance(v, Tensor) else tuple(v)
    if len(vs) != len(inputs):
        raise MSValueError(f"For 'linearize', the number of tangents {len(vs)} must equal the number of inputs "
                           f"{len(inputs)}.")
    return ops.jvp(fn, inputs[0] if single else inputs, vs[0] if single else vs)[1]


def linearize(fn, inputs):
    """``(fn(inputs), jvp_fn)`` where ``jvp_fn(v)`` is the Jacobian of ``fn`` at ``inputs`` times ``v``."""
    xs, single = _as_tuple(inputs, "linearize")
    out = fn(*xs)
    return out, functools.partial(_jvp_at, fn, xs, single)


class _RecomputeBlock:
    """``recompute_block(block, *args)``: ``block(*args)`` whose activations are recomputed in the backward pass
    instead of kept (``mindspore.recompute``)."""

    def __call__(self, block, *args, **kwargs):
        from mindspore.nn.cell import Cell
        if not isinstance(block, Cell):
            kwargs.setdefault("use_reentrant", False)   # a plain function: the non-reentrant form takes any callable
        return _recompute.recompute(block, *args, **kwargs)

    def __repr__(self):
        return "recompute_block"


recompute_block = _RecomputeBlock()


def install():
    composite = ops.composite
    if not hasattr(composite, "recompute_block"):
        composite.recompute_block = recompute_block
    for name, value in (("derivative", derivative), ("jet", jet), ("linearize", linearize),
                        ("get_grad", _grad.get_grad), ("recompute_block", recompute_block)):
        for module in (ops, functional):
            if not hasattr(module, name):
                setattr(module, name, value)
    for name in ("grad", "value_and_grad", "jvp", "vjp", "jacfwd", "jacrev", "vmap", "partial"):
        if hasattr(ops, name) and not hasattr(functional, name):   # MindSpore's ops.functional has them too
            setattr(functional, name, getattr(ops, name))
    misc2_func._VJP[0] = ops.vjp
    registry = misc2_func.tensor_operator_registry
    from mindspore.ops import tensor_methods
    methods = set(tensor_methods.method_names()) | {n for n in dir(Tensor) if not n.startswith("_")}
    for name in functional.__all__:
        if name not in registry and name in methods:
            registry.register(name, getattr(functional, name))


install()
