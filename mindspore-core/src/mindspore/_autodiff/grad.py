"""The user-facing gradient transforms over the PYNATIVE tape.

``grad``, ``value_and_grad``, ``GradOperation``, ``vjp`` and ``jvp`` all reduce to one routine,
:func:`_differentiate`: watch the requested inputs and weights on a fresh tape, run the function,
pick the differentiated output(s), seed them with the sensitivity (ones, or the user's ``sens``),
and run :func:`mindspore._autodiff.tape.backward` (compiled once the same walk repeats:
:mod:`mindspore._autodiff.compiled_backward`). Result packing follows MindSpore 2.10 exactly
(API.md 5.10): an int ``grad_position`` gives one Tensor, a tuple gives a tuple, weights add a
second tuple, a multi-output function without ``has_aux`` is differentiated as the sum of its
outputs, and ``has_aux`` differentiates only the first output.

Forward mode (``jvp``) uses the linearity of the vector-Jacobian product: ``u -> vjp(u)`` is
linear, so its own vjp applied to ``v`` is ``J v``. It costs one extra reverse pass and needs
nothing beyond reverse mode, which already supports higher order.
"""
from __future__ import annotations

from mindspore._autodiff import compiled_backward as _compiled_backward
from mindspore._autodiff import forward_reuse as _forward_reuse
from mindspore._autodiff import tape as _tape
from mindspore._core import interpreters as _interpreters
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError, MSValueRuntimeError
from mindspore._infer import staging as _staging
from mindspore.common.tensor import Tensor

__all__ = ["grad", "value_and_grad", "GradOperation", "vjp", "jvp", "get_grad"]


def _F():
    from mindspore.ops import functional
    return functional


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _weights_tuple(weights):
    if weights is None:
        return None
    from mindspore.common.parameter import Parameter
    if isinstance(weights, Parameter):
        return (weights,)
    if isinstance(weights, (list, tuple)) or hasattr(weights, "__iter__"):
        ws = tuple(weights)
        for w in ws:
            if not isinstance(w, Tensor):
                raise MSTypeError(f"For 'grad', the 'weights' must be a Parameter, list or ParameterTuple of "
                                  f"Parameters, but got an element of type {type(w).__name__}.")
        return ws
    raise MSTypeError(f"For 'grad', the 'weights' must be a Parameter, list or ParameterTuple, but got "
                      f"{type(weights).__name__}.")


def _zeros_like(t):
    return _F().zeros_like(t)


def _grad_of(grads, t):
    g = grads.get(id(t))
    return g if g is not None else _zeros_like(t)


def _ones_like(t):
    return _F().ones_like(t)


def _differentiate(fn, args, positions, weights, has_aux, sens=None):
    """Run ``fn(*args)`` on a tape; returns (full output, input grads, weight grads)."""
    for p in positions:
        if p >= len(args) or p < -len(args):
            # RuntimeError as in MindSpore 2.10 ("Position index 1 is exceed input size.")
            raise MSRuntimeError(f"For 'grad', the 'grad_position' {p} is out of range for {len(args)} inputs: "
                                 f"position index {p} is exceed input size.")
    if _staging.active():
        from mindspore._autodiff.graph_grad import differentiate
        return differentiate(fn, args, tuple(p % len(args) for p in positions), weights, has_aux, sens)
    if not _tape.GRAD_ENABLED[0]:
        raise MSRuntimeError("In no_grad context, you can not calculate gradient")
    recorded = _forward_reuse.take(fn, args, weights)
    if recorded is not None:
        tp, out = recorded
        try:
            in_grads, w_grads = _backward(tp, fn, out, args, positions, weights, has_aux, sens)
        finally:
            tp.release()
    else:
        with _tape.Tape() as tp:
            # MindSpore 2.10 differentiates every input and selects afterwards: Cell backward hooks see all of them
            watch = range(len(args)) if positions and _tape.CELL_BACKWARD_HOOKS[0] else positions
            for p in watch:
                a = args[p]
                if isinstance(a, Tensor):
                    tp.watch(a)
                elif isinstance(a, (tuple, list)):
                    for x in a:
                        if isinstance(x, Tensor):
                            tp.watch(x)
            for w in weights or ():
                tp.watch(w)
            out = fn(*args)
            in_grads, w_grads = _backward(tp, fn, out, args, positions, weights, has_aux, sens)
    if has_aux:
        out = (out[0],) + tuple(_F().stop_gradient(o) if isinstance(o, Tensor) else o for o in out[1:])
    return out, in_grads, w_grads


def _backward(tp, fn, out, args, positions, weights, has_aux, sens):
    """The gradients of ``out`` (recorded on ``tp``) w.r.t. ``args[positions]`` and ``weights``."""
    if has_aux:
        if not isinstance(out, tuple) or len(out) < 2:
            raise MSValueError("For 'grad', when 'has_aux' is True, the function must return more than one "
                               f"output, but got {type(out).__name__}.")
        diff_outs = (out[0],)
    else:
        diff_outs = _as_tuple(out)
    # every tensor of the output is seeded, also inside nested tuples, lists and dicts
    diff_outs = tuple(_tensor_leaves(diff_outs))
    if sens is None:
        seeds = tuple(_ones_like(o) for o in diff_outs)
    else:
        seeds = _pynative_seeds(diff_outs, sens)
    grads = _compiled_backward.backward(tp, diff_outs, seeds, fn)

    def input_grad(p):
        a = args[p]
        if isinstance(a, Tensor):
            return _grad_of(grads, a)
        if isinstance(a, (tuple, list)):
            return tuple(_grad_of(grads, x) if isinstance(x, Tensor) else x for x in a)
        return a

    in_grads = tuple(input_grad(p) for p in positions)
    w_grads = tuple(_grad_of(grads, w) for w in weights) if weights is not None else None
    return in_grads, w_grads


def _pynative_seeds(outs, sens):
    """The user's ``sens``, one per tensor of the output, checked as MindSpore 2.10's PYNATIVE checks it: its
    tensors (a lone Python number stands for a scalar tensor) pair off with the output's tensors, each of its
    output's shape and dtype (:func:`mindspore._autodiff.tape.check_seed`)."""
    if isinstance(sens, (bool, int, float)):
        seeds = (sens,)
    else:
        seeds = tuple(_tensor_leaves(sens))
    if len(seeds) != len(outs):
        raise MSValueRuntimeError("Failure info [The given sens gradient's size should be same as out of network!].")
    for o, s in zip(outs, seeds):
        _tape.check_seed(o, s)
    return seeds


def _tensor_leaves(v):
    if isinstance(v, Tensor):
        yield v
    elif isinstance(v, (tuple, list)):
        for x in v:
            yield from _tensor_leaves(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _tensor_leaves(x)


def _differentiable(a):
    """Whether a gradient is returned for an input: tensors and sequences of tensors, not Python scalars."""
    return isinstance(a, Tensor) or (isinstance(a, (tuple, list)) and any(isinstance(x, Tensor) for x in a))


def _pack(grad_position, in_grads, w_grads, return_ids, weights, args):
    """MindSpore 2.10's result layout: the inputs' gradients, positions of non-tensor inputs (Python scalars)
    left out; exactly one left gives it bare (``grad_position=(0,)`` too), none gives ``()``, several a tuple;
    with weights, ``(input gradients, weight gradients)``."""
    positions = _as_tuple(grad_position) if grad_position is not None else ()
    kept = [(p, g) for p, g in zip(positions, in_grads) if _differentiable(args[p])]
    if return_ids:
        kept = [(p, (p, g)) for p, g in kept]
        if w_grads is not None:
            w_grads = tuple(zip((w.name for w in weights), w_grads))
    if grad_position is None:
        return w_grads
    ig = kept[0][1] if len(kept) == 1 else tuple(g for _, g in kept)
    if w_grads is None:
        return ig
    return ig, w_grads


def _positions(grad_position):
    if grad_position is None:
        return ()
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple, list)):
        raise MSTypeError(f"For 'grad', the 'grad_position' must be int, tuple or None, but got "
                          f"{type(grad_position).__name__}.")
    if isinstance(grad_position, int):
        return (grad_position,)
    if not grad_position:
        raise MSValueError("For 'grad', the 'grad_position' must not be empty.")
    return tuple(grad_position)


def _graph_call(fn, body, args, key):
    """In GRAPH_MODE, a gradient function called from Python runs compiled (forward, backward and
    whatever else ``body`` does in one graph), cached per differentiated function and settings."""
    import mindspore.context as context
    if _interpreters.current().kind != "eager" or context.get_context("mode") != context.GRAPH_MODE:
        return None
    from mindspore._pipeline.compiler import cache_for, cache_for_call, compiled_call
    owner = getattr(fn, "__func__", fn)
    bound = getattr(fn, "__self__", None)
    # a bound method's graphs are kept with its object (see cache_for_call)
    cache = cache_for(owner) if bound is None else cache_for_call(owner, (bound,))
    return (compiled_call(cache, body, args, extra_key=(key, id(bound)),
                          name=f"grad_{getattr(owner, '__name__', type(owner).__name__)}"),)


def _weights_key(ws):
    return tuple(id(w) for w in ws) if ws is not None else None


def _check_grad_args(fn, grad_position, weights):
    if not callable(fn):
        raise MSTypeError(f"For 'grad', the 'fn' must be callable, but got {type(fn).__name__}.")
    if grad_position is None and weights is None:
        raise MSValueError("For 'grad', 'grad_position' and 'weights' can not both be None.")


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function returning ``(fn(*args), gradients)``; see :func:`grad` for the gradient layout.

    Examples:
        >>> import mindspore as ms
        >>> f = lambda x: (x * x).sum()
        >>> value, g = ms.value_and_grad(f)(ms.Tensor([1.0, 2.0]))
        >>> print(value, g)
        5.0 [2. 4.]
    """
    _check_grad_args(fn, grad_position, weights)
    positions = _positions(grad_position)
    ws = _weights_tuple(weights)

    def body(*args):
        sens = None
        if sens_param:
            if not args:
                raise MSValueError("For 'value_and_grad', 'sens_param' is True, so the last input must be the sens.")
            args, sens = args[:-1], args[-1]
        out, ig, wg = _differentiate(fn, args, positions, ws, has_aux, sens)
        return out, _pack(grad_position, ig, wg, return_ids, ws, args)

    key = ("value_and_grad", grad_position if not isinstance(grad_position, list) else tuple(grad_position),
           _weights_key(ws), has_aux, return_ids, sens_param)

    def wrapper(*args):
        compiled = _graph_call(fn, body, args, key)
        return compiled[0] if compiled is not None else body(*args)

    return wrapper


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function computing the gradients of ``fn``.

    Args:
        fn: the function or Cell to differentiate.
        grad_position: index (int) or indices (tuple) of the inputs to differentiate; ``None`` for
            weights only.
        weights: Parameters (or a ParameterTuple) to differentiate.
        has_aux: differentiate only the first output; the others are returned unchanged.
        return_ids: pair every gradient with its position or parameter name.
        sens_param: the last input is the sensitivity (upstream gradient) of the output(s).

    Returns:
        One Tensor (int ``grad_position``), a tuple (tuple ``grad_position`` or weights only),
        or ``(input_grads, weight_grads)``; with ``has_aux``, ``(gradients, aux)``.

    Examples:
        >>> import mindspore as ms
        >>> ms.grad(lambda x, y: (x * y).sum(), grad_position=(0, 1))(ms.Tensor([3.0]), ms.Tensor([5.0]))
        (Tensor(shape=[1], dtype=Float32, value= [ 5.00000000e+00]), Tensor(shape=[1], dtype=Float32, value= [ 3.00000000e+00]))
    """
    _check_grad_args(fn, grad_position, weights)
    positions = _positions(grad_position)
    ws = _weights_tuple(weights)

    def body(*args):
        sens = None
        if sens_param:
            args, sens = args[:-1], args[-1]
        out, ig, wg = _differentiate(fn, args, positions, ws, has_aux, sens)
        g = _pack(grad_position, ig, wg, return_ids, ws, args)
        if has_aux:
            return g, tuple(out[1:])   # MindSpore returns the auxiliary outputs as a tuple, even just one
        return g

    key = ("grad", grad_position if not isinstance(grad_position, list) else tuple(grad_position),
           _weights_key(ws), has_aux, return_ids, sens_param)

    def wrapper(*args):
        compiled = _graph_call(fn, body, args, key)
        return compiled[0] if compiled is not None else body(*args)

    return wrapper


def get_grad(gradients, identifier):
    """Pick one gradient out of the output of ``grad(..., return_ids=True)`` by position or name."""
    def walk(g):
        if isinstance(g, tuple) and len(g) == 2 and isinstance(g[0], (int, str)) and not isinstance(g[0], bool):
            return g[1] if g[0] == identifier else None
        if isinstance(g, tuple):
            for x in g:
                r = walk(x)
                if r is not None:
                    return r
        return None
    found = walk(gradients)
    if found is None:
        raise MSValueError(f"For 'get_grad', can not find the gradient for identifier {identifier!r}.")
    return found


class GradOperation:
    """The legacy higher-order gradient function: ``GradOperation(get_all, get_by_list, sens_param)(net)``.

    * default: the gradient w.r.t. the first input (a Tensor);
    * ``get_all``: a tuple over all inputs;
    * ``get_by_list``: a tuple over the ``params`` passed with the network;
    * both: ``(input_grads, param_grads)``;
    * ``sens_param``: the last call argument is the sensitivity.
    """

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        for name, v in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(v, bool):
                raise MSTypeError(f"For 'GradOperation', the '{name}' must be bool, but got {type(v).__name__}.")
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param

    def __call__(self, fn, weights=None):
        if self.get_by_list and weights is None:
            raise MSValueError("For 'GradOperation', 'get_by_list' is True, so 'weights' must be given.")
        ws = _weights_tuple(weights) if self.get_by_list else None
        key = ("GradOperation", self.get_all, self.get_by_list, self.sens_param, _weights_key(ws))

        def wrapper(*args):
            compiled = _graph_call(fn, body, args, key)
            return compiled[0] if compiled is not None else body(*args)

        def body(*args):
            sens = None
            if self.sens_param:
                args, sens = args[:-1], args[-1]
            if self.get_all:
                positions = tuple(i for i, a in enumerate(args) if _differentiable(a))
            elif self.get_by_list:
                positions = ()
            else:
                positions = (0,) if args else ()
            _, ig, wg = _differentiate(fn, args, positions, ws, False, sens)
            if self.get_all and self.get_by_list:
                return ig, wg
            if self.get_all:
                return ig
            if self.get_by_list:
                return wg
            return ig[0] if args and _differentiable(args[0]) else ()   # a Python scalar first input: ()

        return wrapper


def vjp(fn, *inputs, weights=None, has_aux=False):
    """``(fn(*inputs), vjp_fn[, aux])`` where ``vjp_fn(v)`` gives the vector-Jacobian products."""
    _check_vjp_tensors(inputs)
    if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)):
        inputs = tuple(inputs[0])
    ws = _weights_tuple(weights)
    F = _F()
    raw = fn(*inputs)
    if has_aux:
        if not isinstance(raw, tuple) or len(raw) < 2:
            raise MSValueError("For 'vjp', when 'has_aux' is True, 'fn' must return more than one output.")
        net_out, aux = raw[0], (raw[1] if len(raw) == 2 else raw[1:])
    else:
        net_out, aux = raw, None

    def vjp_fn(*v):
        _check_vjp_tensors(v)
        sens = v[0] if len(v) == 1 else v
        if _graph_mode_eager():
            # MindSpore 2.10 compiles vjp_fn in GRAPH_MODE: its compiler's checks of the sens against the output
            from mindspore._autodiff.graph_grad import check_sens_joins
            for o, s in zip(_staging.flatten(net_out)[0], _staging.flatten(sens)[0]):
                check_sens_joins(o, s)
        positions = tuple(range(len(inputs)))
        _, ig, wg = _differentiate(fn, inputs, positions, ws, has_aux, sens)
        # a tuple, one gradient per input, also for a single input (MindSpore 2.10's layout)
        return (ig, wg) if ws is not None else ig

    if has_aux:
        return net_out, vjp_fn, (F.stop_gradient(aux) if isinstance(aux, Tensor) else aux)
    return net_out, vjp_fn


def _check_vjp_tensors(values):
    """``vjp``'s inputs and ``vjp_fn``'s vectors: tensors (or sequences of them), as MindSpore 2.10 checks them."""
    if any(not isinstance(x, (Tensor, tuple, list)) for x in values):
        raise MSTypeError("The inputs type must be Tensor.")


def _graph_mode_eager():
    """Called from Python (not while compiling) in GRAPH_MODE, where MindSpore compiles a gradient's call."""
    import mindspore.context as context
    return not _staging.active() and context.get_context("mode") == context.GRAPH_MODE


def jvp(fn, inputs, v, has_aux=False):
    """``(fn(inputs), J v)``: the Jacobian-vector product (forward mode) of ``fn`` at ``inputs``."""
    ins = _as_tuple(inputs)
    vs = _as_tuple(v)
    if len(ins) != len(vs):
        raise MSValueError(f"For 'jvp', 'v' must have one tensor per input ({len(ins)}), but got {len(vs)}.")
    for x, t in zip(ins, vs):
        if not isinstance(x, Tensor) or not isinstance(t, Tensor):
            raise MSTypeError("The inputs type must be a Tensor, tuple or list of Tensors.")
        if t.dtype != x.dtype:
            # MindSpore 2.10 runs jvp compiled (both modes): 'v' seeds a gradient of its input's dtype, joined with it
            from mindspore._autodiff.graph_grad import type_join_failed
            raise type_join_failed(t.dtype, x.dtype)
        if tuple(x.shape) != tuple(t.shape):
            raise MSValueError(f"For 'jvp', each 'v' must have its input's shape, but got {t.shape} for an input "
                               f"of shape {x.shape}.")
    F = _F()
    raw = fn(*ins)
    outs = _as_tuple(raw[0] if has_aux else raw)
    us = tuple(F.zeros_like(o) for o in outs)

    def linear_vjp(*u):
        primal = lambda *a: (fn(*a)[0] if has_aux else fn(*a))  # noqa: E731
        _, ig, _ = _differentiate(primal, ins, tuple(range(len(ins))), None, False, u if len(u) > 1 else u[0])
        return ig

    _, jv, _ = _differentiate(linear_vjp, us, tuple(range(len(us))), None, False, vs if len(vs) > 1 else vs[0])
    jv = jv[0] if not isinstance(raw[0] if has_aux else raw, tuple) else jv
    if has_aux:
        return raw[0], jv, raw[1] if len(raw) == 2 else raw[1:]
    return raw, jv


def _install():
    """Re-export the transforms where MindSpore has them: ``ops.GradOperation``, ``ops.grad``, ...,
    ``ops.composite.GradOperation``. They sit above the operators, so they install themselves there."""
    import mindspore.ops as ops
    from mindspore.ops import composite
    for name in ("GradOperation", "grad", "value_and_grad", "vjp", "jvp"):
        setattr(ops, name, globals()[name])
    composite.GradOperation = GradOperation
    if "GradOperation" not in composite.__all__:
        composite.__all__.insert(0, "GradOperation")


_install()
