"""``ops.jacrev``, ``ops.jacfwd`` and ``ops.vmap``: function transforms built on the gradient transforms.

``jacrev`` takes one vector-Jacobian product per output element (a one-hot cotangent), ``jacfwd`` one
Jacobian-vector product per input element (a one-hot tangent); both return ``output.shape + input.shape``
Jacobians laid out as MindSpore 2.10 lays them out (a tuple over inputs for a tuple ``grad_position``, a tuple
over outputs for a function with several outputs, outputs outermost; ``(jacobian, aux)`` with ``has_aux``).
``vmap`` maps a function over an axis of its inputs by calling it on each slice and stacking the results
along ``out_axes``: the same values as MindSpore's batching rules (the cost of a loop, and a random op inside
draws once per slice). All three work in PYNATIVE and inside compiled functions.
"""
from __future__ import annotations

import numbers

import numpy as np

from mindspore._autodiff import grad as _grad
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.tensor import Tensor

__all__ = ["jacrev", "jacfwd", "vmap"]


def _F():
    from mindspore.ops import functional
    return functional


def _positions(op, grad_position, n):
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple)):
        raise MSTypeError(f"For '{op}', the 'grad_position' must be int or tuple, but got "
                          f"{type(grad_position).__name__}.")
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in positions:
        if not -n <= p < n:
            raise MSValueError(f"For '{op}', the 'grad_position' {p} is out of range for {n} inputs.")
    return tuple(p % n for p in positions), isinstance(grad_position, int)


def _split_aux(op, out, has_aux):
    if not has_aux:
        return out, None
    if not isinstance(out, tuple) or len(out) < 2:
        raise MSValueError(f"For '{op}', when 'has_aux' is True, the function must return more than one output.")
    return out[0], (out[1] if len(out) == 2 else out[1:])


def _one_hot(shape, dtype, k):
    flat = np.zeros(int(np.prod(shape, dtype=np.int64)), dtype.to_numpy())
    flat[k] = 1
    return Tensor(flat.reshape(tuple(shape)), dtype)


def _layout(per_output, single_position, single_output):
    """Nest ``per_output[o][i]`` (o over outputs, i over inputs) as MindSpore does."""
    rows = [row[0] if single_position else tuple(row) for row in per_output]
    return rows[0] if single_output else tuple(rows)


def jacrev(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` by reverse mode (one vector-Jacobian product per output element).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.jacrev(lambda x: x * x)(ms.Tensor([1.0, 2.0])).asnumpy().tolist()
        [[2.0, 0.0], [0.0, 4.0]]
    """
    if not callable(fn):
        raise MSTypeError(f"For 'jacrev', the 'fn' must be callable, but got {type(fn).__name__}.")

    def jac(*args):
        positions, single_position = _positions("jacrev", grad_position, len(args))
        raw = fn(*args)
        out, aux = _split_aux("jacrev", raw, has_aux)
        outs = out if isinstance(out, tuple) else (out,)
        F = _F()
        per_output = []
        for j, o in enumerate(outs):
            rows = [[] for _ in positions]
            for k in range(o.size):
                sens = tuple(_one_hot(o.shape, x.dtype, k) if i == j else F.zeros(x.shape, x.dtype)
                             for i, x in enumerate(outs))
                target = (lambda *a: _split_aux("jacrev", fn(*a), has_aux)[0])
                _, in_grads, _ = _grad._differentiate(target, args, positions, None, False,
                                                      sens if isinstance(out, tuple) else sens[0])
                for r, g in zip(rows, in_grads):
                    r.append(g)
            jac_o = []
            for p, r in zip(positions, rows):
                x = args[p]
                stacked = F.stack(r, 0) if r else F.zeros((0,) + tuple(x.shape), x.dtype)
                jac_o.append(F.reshape(stacked, tuple(o.shape) + tuple(x.shape)))
            per_output.append(jac_o)
        result = _layout(per_output, single_position, not isinstance(out, tuple))
        return (result, aux) if has_aux else result
    return jac


def jacfwd(fn, grad_position=0, has_aux=False):
    """The Jacobian of ``fn`` by forward mode (one Jacobian-vector product per input element).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.jacfwd(lambda x: x * x)(ms.Tensor([1.0, 2.0])).asnumpy().tolist()
        [[2.0, 0.0], [0.0, 4.0]]
    """
    if not callable(fn):
        raise MSTypeError(f"For 'jacfwd', the 'fn' must be callable, but got {type(fn).__name__}.")

    def jac(*args):
        positions, single_position = _positions("jacfwd", grad_position, len(args))
        raw = fn(*args)
        out, aux = _split_aux("jacfwd", raw, has_aux)
        outs = out if isinstance(out, tuple) else (out,)
        F = _F()
        columns = {}          # (input position) -> list over its elements of per-output tangents
        for p in positions:
            x = args[p]
            cols = []
            for k in range(x.size):

                def along(xp, p=p):
                    full = list(args)
                    full[p] = xp
                    o = _split_aux("jacfwd", fn(*full), has_aux)[0]
                    return o
                _, tangent = _grad.jvp(along, args[p], _one_hot(x.shape, x.dtype, k))
                cols.append(tangent if isinstance(out, tuple) else (tangent,))
            columns[p] = cols
        per_output = []
        for j, o in enumerate(outs):
            jac_o = []
            for p in positions:
                x = args[p]
                cols = [c[j] for c in columns[p]]
                stacked = F.stack(cols, 0) if cols else F.zeros((0,) + tuple(o.shape), o.dtype)
                moved = F.reshape(stacked, tuple(x.shape) + tuple(o.shape))
                perm = tuple(range(x.ndim, x.ndim + o.ndim)) + tuple(range(x.ndim))
                jac_o.append(F.transpose(moved, perm) if perm else moved)
            per_output.append(jac_o)
        result = _layout(per_output, single_position, not isinstance(out, tuple))
        return (result, aux) if has_aux else result
    return jac


# --- vmap -------------------------------------------------------------------------------------------------------
def _axis_size(arg, axis, sizes):
    if axis is None:
        return
    if isinstance(arg, (tuple, list)):
        axes = axis if isinstance(axis, (tuple, list)) else (axis,) * len(arg)
        if len(axes) != len(arg):
            raise MSValueError(f"For 'vmap', the 'in_axes' {axis} does not match an input of {len(arg)} elements.")
        for a, ax in zip(arg, axes):
            _axis_size(a, ax, sizes)
        return
    if not isinstance(arg, Tensor):
        raise MSValueError(f"For 'vmap', an input mapped along axis {axis} must be a Tensor, but got "
                           f"{type(arg).__name__}.")
    if not isinstance(axis, numbers.Integral) or not -arg.ndim <= axis < max(arg.ndim, 1):
        raise MSValueError(f"For 'vmap', the axis {axis} is out of range for an input of shape {arg.shape}.")
    sizes.append(arg.shape[axis % arg.ndim])


def _slice(arg, axis, i):
    if axis is None:
        return arg
    if isinstance(arg, (tuple, list)):
        axes = axis if isinstance(axis, (tuple, list)) else (axis,) * len(arg)
        return type(arg)(_slice(a, ax, i) for a, ax in zip(arg, axes))
    index = (slice(None),) * (axis % arg.ndim) + (i,)
    return arg[index]


def _stack(results, axis):
    first = results[0]
    if isinstance(first, (tuple, list)):
        axes = axis if isinstance(axis, (tuple, list)) else (axis,) * len(first)
        if len(axes) != len(first):
            raise MSValueError(f"For 'vmap', the 'out_axes' {axis} does not match an output of {len(first)} "
                               "elements.")
        return type(first)(_stack([r[k] for r in results], ax) for k, ax in enumerate(axes))
    if axis is None:
        return first
    F = _F()
    values = [r if isinstance(r, Tensor) else Tensor(r) for r in results]
    ndim = values[0].ndim + 1
    if not -ndim <= axis < ndim:
        raise MSValueError(f"For 'vmap', the 'out_axes' {axis} is out of range for an output of rank {ndim}.")
    return F.stack(values, axis)


def vmap(fn, in_axes=0, out_axes=0):
    """``fn`` mapped over axis ``in_axes`` of its inputs (an int, ``None`` for an unmapped input, or a tuple per
    input, nested like the inputs), its results stacked along ``out_axes``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> ops.vmap(lambda a: a.sum(), in_axes=1)(ms.Tensor([[1.0, 2.0], [3.0, 4.0]])).asnumpy().tolist()
        [4.0, 6.0]
    """
    if not callable(fn):
        raise MSTypeError(f"For 'vmap', the 'fn' must be callable, but got {type(fn).__name__}.")

    def mapped(*args):
        axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
        if len(axes) != len(args):
            raise MSValueError(f"For 'vmap', the 'in_axes' {in_axes} must have one entry per input ({len(args)}).")
        sizes = []
        for a, ax in zip(args, axes):
            _axis_size(a, ax, sizes)
        if not sizes:
            raise MSValueError("For 'vmap', at least one input must be mapped (an 'in_axes' entry that is not None).")
        if any(s != sizes[0] for s in sizes):
            raise MSValueError(f"For 'vmap', the mapped axes must have one size, but got sizes {sizes}.")
        results = [fn(*(_slice(a, ax, i) for a, ax in zip(args, axes))) for i in range(sizes[0])]
        if not results:
            raise MSValueError("For 'vmap', the mapped axis has size 0.")
        return _stack(results, out_axes)
    return mapped


def _install():
    """``ops.jacrev``, ``ops.jacfwd``, ``ops.vmap``: above the operators, so they install themselves there."""
    import mindspore.ops as ops
    for name in __all__:
        setattr(ops, name, globals()[name])


_install()
