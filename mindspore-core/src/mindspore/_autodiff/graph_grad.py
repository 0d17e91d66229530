"""GRAPH_MODE autodiff: reverse mode as a transformation of typed graphs.

Algorithm
---------
``grad(fn)(*args)`` met while a graph is being compiled (:func:`differentiate`) first builds the
forward graph ``G`` of ``fn`` in a child builder: the differentiated arguments are its parameters,
and every other value it reads from outside (network Parameters included) is lifted into a
parameter too. :func:`reverse` then transforms ``G`` into the enclosing graph:

1. **forward**: ``G``'s applies are cloned in order (a ``While`` is cloned as ``while_stack``,
   which also keeps every iteration's state); a network Parameter read before a later in-place
   write of it (``ops.assign``) is read through a copy made at that point, which the read's bprop
   uses (MindSpore's Load);
2. **backward**: the applies that depend on a differentiated parameter are visited in reverse
   order; each primitive's ``bprop(*inputs, out, dout)`` - the same bprop PYNATIVE uses, parsed into
   IR by the same parser as user code - is evaluated on the cloned values, which stages its
   primitives; tuples route adjoints by index. Gradients are summed back over broadcast axes and
   cast to each input's dtype here, once (:func:`~mindspore._autodiff.tape.sum_to`).

Control flow: the adjoint of ``If(c, T, F, *args)`` is ``If(c, vjp(T), vjp(F), *args, *dout)``
where ``vjp(g)`` is the standalone graph ``(*params, *dout) -> grads`` made by the same transform
(it recomputes the branch, so nothing of the forward branch has to be kept); the adjoint of a
``while_stack`` is a ``while_grad`` running ``vjp(body)`` over the saved states in reverse order.
A Cell with a user ``bprop`` is one ``CustomCall`` apply whose adjoint is that bprop. Higher order
needs nothing more: the backward applies are primitives with bprops, so the transform applies to
its own output (except through ``while_grad``, which has no derivative and says so).

Outside compiled code, a ``@jit`` function called under a PYNATIVE tape (:func:`call_on_tape`)
is recorded as one tape node whose bprop runs the compiled vjp of the function.
"""
from __future__ import annotations

import inspect
import weakref

from mindspore._errors import InternalError, MSRuntimeError, MSTypeError
from mindspore._infer import staging
from mindspore._infer.abstract import AbstractStack, AbstractTensor, AbstractTuple
from mindspore._infer.interpret import Closure, call_graph, call_value, construct_cell, custom_bprop
from mindspore._infer.staging import Builder, StagedTensor, current as _current_builder
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant
from mindspore._parse.resolve import SourceUnavailable
from mindspore.common.tensor import Tensor
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, hook_suspended, mark_zero

__all__ = ["differentiate", "reverse", "vjp_graph", "stage_construct", "stage_custom_bprop_call"]


def _F():
    from mindspore.ops import functional
    return functional


_IDENTITY = []


def _is_weight(v):
    """A network Parameter, or its node in the graph being built."""
    return staging._is_param(v) or (isinstance(v, StagedTensor) and getattr(v._node, "weight", None) is not None)


def _identity():
    if not _IDENTITY:
        from mindspore.ops.operations import Identity
        _IDENTITY.append(Identity())
    return _IDENTITY[0]


# --- bprops ------------------------------------------------------------------------------------------------
_BPROP_GRAPHS = {}


def _bprop_graph(func):
    """The parsed graph of a bprop function (``None`` when it can not be parsed: it is then called)."""
    if func in _BPROP_GRAPHS:
        return _BPROP_GRAPHS[func]
    from mindspore._parse.parser import parse
    try:
        g = parse(func)
    except (SourceUnavailable, MSRuntimeError):
        g = None
    _BPROP_GRAPHS[func] = g
    return g


def run_bprop(prim, inputs, out, dout):
    """``prim``'s bprop on staged values, evaluated from its parsed graph."""
    func = getattr(type(prim), "bprop", None)
    if func is None or func is NON_DIFFERENTIABLE:
        return None
    g = _bprop_graph(func) if hasattr(func, "__code__") else None
    if g is not None:
        grads = call_graph(Closure(g), (prim,) + tuple(inputs) + (out, dout))
    else:
        grads = prim.bprop(*inputs, out, dout)
    if not isinstance(grads, (tuple, list)):
        raise MSTypeError(f"The bprop of '{prim.name}' must return a tuple, but got {type(grads).__name__}.")
    return grads


# --- value helpers ---------------------------------------------------------------------------------------
def _zeros_like_abstract(ab):
    if isinstance(ab, AbstractTensor):
        return mark_zero(_F().zeros(ab.shape, ab.dtype))
    if isinstance(ab, AbstractTuple):
        return tuple(_zeros_like_abstract(e) for e in ab.elements)
    raise InternalError(f"no zero for {ab!r}")


def _sum_to(g, like_abstract):
    from mindspore._autodiff.tape import sum_to
    if g is None:
        return None
    return sum_to(g, _Like(like_abstract))


class _Like:
    """What ``sum_to`` needs of the value a gradient is for: its shape and dtype."""

    __slots__ = ("shape", "dtype")

    def __init__(self, ab):
        self.shape = ab.shape
        self.dtype = ab.dtype


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, tuple):
        return tuple(_add(x, y) for x, y in zip(a, b))
    return _F().add(a, b)


def _is_tensor_abstract(ab):
    return isinstance(ab, AbstractTensor)


# --- the transform ---------------------------------------------------------------------------------------
class _Reverse:
    """One application of the transform: clone ``graph`` into the current builder, then backprop."""

    def __init__(self, graph, builder):
        self.graph = graph
        self.b = builder
        self.env = {}
        self.adj = {}
        self.snapshots = {}     # (apply, input position) -> the copy of a Parameter that apply read (see clone)
        self.loads = {}         # (Parameter node, index of the write before) -> that copy

    def value(self, x):
        if isinstance(x, Constant):
            return x.value
        return self.env[x]

    def clone_forward(self, inputs):
        g = self.graph
        for p, v in zip(g.params, inputs):
            self.env[p] = v
        # a network Parameter read before a later in-place write (ops.assign in a loop): the read gets a copy, made
        # in program order, which its bprop then uses (as MindSpore's Load); other reads use the Parameter itself
        last_write, writes_before = {}, {}
        for i, node in enumerate(g.nodes):
            fn = node.fn_value()
            if isinstance(fn, Primitive) and staging.is_effectful(fn):
                for k, x in enumerate(node.inputs[1:]):
                    # also any other value written in place (``y *= x`` in graph mode): its bprops read the copy
                    if (x in self.env and _is_weight(self.env[x])) or (
                            k in fn.written_inputs and (x in self.env or isinstance(x.abstract, AbstractTensor))):
                        last_write[x] = i
        for i, node in enumerate(g.nodes):
            self.env[node] = self.clone(node, i, last_write, writes_before)
            fn = node.fn_value()
            if isinstance(fn, Primitive) and staging.is_effectful(fn):
                for x in node.inputs[1:]:
                    if x in last_write:
                        writes_before[x] = i
        return self.value(g.output)

    def _snapshot(self, x, epoch):
        key = (x, epoch)
        snap = self.loads.get(key)
        if snap is None:
            param = self.value(x)
            snap = self.loads[key] = self.b.wrap(self.b.apply(_identity(), [self.b.localize(param)],
                                                                  AbstractTensor(param.shape, param.dtype),
                                                                  debug="Load"))
        return snap

    def clone(self, node, index=0, last_write=None, writes_before=None):
        fn = node.fn_value()
        args = [self.value(x) for x in node.inputs[1:]]
        if last_write and isinstance(fn, Primitive) and not staging.is_effectful(fn):
            for k, x in enumerate(node.inputs[1:]):
                if last_write.get(x, -1) > index:
                    args[k] = self.snapshots[(node, k)] = self._snapshot(x, writes_before.get(x, -1))
        if fn is irops.make_tuple:
            return tuple(args)
        if fn is irops.tuple_getitem:
            return args[0][args[1]]
        if fn is irops.While:
            return self.b.wrap(self.b.apply(irops.while_stack, [Constant(node.inputs[1].value),
                                                              Constant(node.inputs[2].value),
                                                              Constant(node.inputs[3].value)]
                                            + [self.b.localize(a) for a in args[3:]],
                                            AbstractTuple(tuple(node.abstract.elements) + (AbstractStack(),)),
                                            loc=node.loc))
        if fn in (irops.while_stack, irops.while_grad):
            raise MSRuntimeError("Higher-order gradients through a while loop with a tensor condition are not "
                                 "supported in graph mode; unroll the loop (a constant condition) instead.")
        inputs = [node.inputs[0]] + [self._node_of(x, a) for x, a in zip(node.inputs[1:], args)]
        new = self.b.apply(inputs[0], inputs[1:], node.abstract, loc=node.loc, debug=node.debug)
        if isinstance(node.abstract, (AbstractTensor, AbstractTuple)):
            return self.b.wrap(new)
        return new

    def _node_of(self, x, value):
        if isinstance(x, Constant):
            return x
        if isinstance(value, (StagedTensor, Tensor, tuple, list)):
            return self.b.localize(value)
        return Constant(value)

    # -- adjoints ---------------------------------------------------------------------------------------------
    def active_nodes(self, wrt):
        active = set(wrt)
        for node in self.graph.nodes:
            fn = node.fn_value()
            if isinstance(fn, Primitive) and fn.bprop is NON_DIFFERENTIABLE:
                continue
            if any(x in active for x in node.inputs[1:]):
                active.add(node)
        return active

    def accumulate(self, node, g):
        if g is None:
            return
        ab = node.abstract
        if isinstance(ab, AbstractTuple):
            prev = self.adj.get(node)
            if prev is None:
                prev = [None] * len(ab.elements)
            items = list(g) if isinstance(g, (tuple, list)) else None
            if items is None or len(items) != len(ab.elements):
                raise InternalError(f"a gradient for a tuple of {len(ab.elements)} has {type(g)}")
            self.adj[node] = [_add(p, _sum_leaf(x, e)) for p, x, e in zip(prev, items, ab.elements)]
            return
        if not _is_tensor_abstract(ab):
            return
        self.adj[node] = _add(self.adj.get(node), _sum_to(g, ab))

    def seed(self, output_node, sens):
        self.accumulate(output_node, sens)

    def dout_of(self, node):
        ab = node.abstract
        a = self.adj.get(node)
        if isinstance(ab, AbstractTuple):
            if a is None:
                return None
            return tuple(x if x is not None else _zeros_like_abstract(e) for x, e in zip(a, ab.elements))
        return a

    def backward(self, wrt):
        active = self.active_nodes(wrt)
        with hook_suspended():   # bprops stage plain local computations, as the tape runs them
            for node in reversed(self.graph.nodes):
                if node not in active:
                    continue
                dout = self.dout_of(node)
                if dout is None:
                    continue
                self.backprop(node, dout, active)

    def backprop(self, node, dout, active):
        fn = node.fn_value()
        inputs = node.inputs[1:]
        if fn is irops.make_tuple:
            for x, d in zip(inputs, dout):
                if x in active:
                    self.accumulate(x, d)
            return
        if fn is irops.tuple_getitem:
            src, i = inputs[0], inputs[1].value
            if src in active:
                ab = src.abstract
                grads = [None] * len(ab.elements)
                grads[i] = dout
                self.accumulate(src, tuple(grads))
            return
        if isinstance(fn, Primitive):
            first = len(self.b.graph.nodes)
            grads = run_bprop(fn, [self.snapshots.get((node, k), self.value(x)) for k, x in enumerate(inputs)],
                              self.value(node), dout)
            _mark_backward(self.b.graph.nodes[first:], node, fn.name)
            if grads is None:
                return
            self.spread(inputs, grads, active)
            return
        if fn is irops.If:
            self.backprop_if(node, inputs, dout, active)
            return
        if fn is irops.While:
            self.backprop_while(node, inputs, dout, active)
            return
        if isinstance(fn, irops.CustomCall):
            self.backprop_custom(fn, node, inputs, dout, active)
            return
        if isinstance(fn, irops.IROp):
            return
        raise InternalError(f"reverse mode met {fn!r}")

    def spread(self, inputs, grads, active):
        for x, gx in zip(inputs, grads):
            if x not in active or gx is None:
                continue
            ab = x.abstract
            if isinstance(ab, AbstractTuple) and isinstance(gx, (tuple, list)):
                self.accumulate(x, tuple(gx))
            elif _is_tensor_abstract(ab):
                self.accumulate(x, gx)

    def backprop_if(self, node, inputs, dout, active):
        cond, t, f = inputs[0], inputs[1].value, inputs[2].value
        args = inputs[3:]
        douts = _leaves(dout, node.abstract)
        vt, vf = vjp_graph(t), vjp_graph(f)
        b = self.b
        arg_nodes = [b.localize(self.value(a)) for a in args] + [b.localize(d) for d in douts]
        out_ab = vt.output.abstract
        res = b.apply(irops.If, [b.localize(self.value(cond)), Constant(vt), Constant(vf)] + arg_nodes, out_ab,
                      loc=node.loc, debug="bprop of If")
        grads = b.wrap(res)
        self.spread(args, _regroup(grads, [a.abstract for a in args]), active)

    def backprop_while(self, node, inputs, dout, active):
        body, n = inputs[1].value, inputs[2].value
        state_in, inv = inputs[3:3 + n], inputs[3 + n:]
        stack = self.value(node)[-1]
        vb = vjp_graph(body)
        b = self.b
        args = [Constant(vb), Constant(n), b.localize(stack)] + [b.localize(d) for d in dout] + \
            [b.localize(self.value(x)) for x in inv]
        out_ab = AbstractTuple([x.abstract for x in state_in] + [x.abstract for x in inv])
        res = b.wrap(b.apply(irops.while_grad, args, out_ab, loc=node.loc, debug="bprop of While"))
        self.spread(list(state_in) + list(inv), res, active)

    def backprop_custom(self, call, node, inputs, dout, active):
        n = call.n_args
        args = [self.value(x) for x in inputs[:n]]
        out = self.value(node)
        out_v = _custom_output(call, out)
        dout_v = _custom_output(call, dout)
        bprop = type(call.cell).bprop.__get__(call.cell, type(call.cell))
        grads = call_value(bprop, tuple(args) + (out_v, dout_v))
        if not isinstance(grads, tuple):
            grads = (grads,)
        self.spread(inputs[:n], grads, active)


def _mark_backward(new_nodes, fwd, name):
    """Backward applies keep the user's position of the forward apply and name the bprop they came from."""
    note = f"bprop of {name}"
    for n in new_nodes:
        if n.loc is None or fwd.loc is not None:
            n.loc = fwd.loc
        n.debug = note


def _sum_leaf(g, ab):
    if g is None:
        return None
    if isinstance(ab, AbstractTensor):
        return _sum_to(g, ab)
    return g


def _leaves(value, ab):
    if isinstance(ab, AbstractTuple):
        vals = value if isinstance(value, (tuple, list)) else (value,)
        out = []
        for v, e in zip(vals, ab.elements):
            out.extend(_leaves(v, e))
        return out
    return [value]


def _regroup(flat, abstracts):
    it = iter(flat)
    return [_take(ab, it) for ab in abstracts]


def _take(ab, it):
    # (not a closure calling itself: that would be a reference cycle keeping ``flat``'s values alive)
    if isinstance(ab, AbstractTuple):
        return tuple(_take(e, it) for e in ab.elements)
    return next(it)


def _custom_output(call, value):
    return value[0] if getattr(call, "single", False) and isinstance(value, tuple) else value


def _ab_leaves(ab):
    if isinstance(ab, AbstractTuple):
        out = []
        for e in ab.elements:
            out.extend(_ab_leaves(e))
        return out
    return [ab]


_VJP_CACHE = weakref.WeakKeyDictionary()   # graph -> its vjp graph, as long as the graph lives


def vjp_graph(g):
    """The closed graph ``(*g.params, *dout_leaves) -> (*grad_leaves)`` of ``g`` (cached per graph)."""
    cached = _VJP_CACHE.get(g)
    if cached is not None:
        return cached
    b = Builder(f"{g.name}_vjp")
    with b:
        inputs = [b.new_input(p.abstract, p.name) for p in g.params]
        dout_abs = _ab_leaves(g.output.abstract)
        douts = [b.new_input(ab, "dout") for ab in dout_abs]
        rev = _Reverse(g, b)
        rev.clone_forward(inputs)
        rev.seed(g.output, _regroup(douts, [g.output.abstract])[0])
        rev.backward(set(g.params))
        grads = []
        for p in g.params:
            d = rev.dout_of(p)
            if d is None:
                d = _zeros_like_abstract(p.abstract)
            grads.extend(_leaves(d, p.abstract))
        nodes = [b.localize(x) for x in grads]
        b.graph.set_output(b.apply(irops.make_tuple, nodes, AbstractTuple(n.abstract for n in nodes)))
    _VJP_CACHE[g] = b.graph
    return b.graph


#: a seed of ``reverse``: ones shaped like the output, for an output whose shape is known only when the graph runs
_ONES_LIKE = object()


def reverse(graph, inputs, wrt, sens, marks=None):
    """Clone ``graph`` into the current builder on ``inputs`` and backpropagate ``sens`` from its
    output; returns (output value, {parameter: gradient or None} for ``wrt``). ``marks``, a list, gets the
    number of applies of the builder's graph once the forward is cloned."""
    rev = _Reverse(graph, _current_builder())
    out = rev.clone_forward(inputs)
    if marks is not None:
        marks.append(len(rev.b.graph.nodes))
    if any(s is _ONES_LIKE for s in sens):    # an output of dynamic shape: seeded with ones of its run-time shape
        sens = tuple(_F().ones_like(o) if s is _ONES_LIKE else s for s, o in zip(sens, out))
    rev.seed(graph.output, sens)
    rev.backward(set(wrt))
    return out, {p: rev.dout_of(p) for p in wrt}


# --- grad/value_and_grad inside compiled code --------------------------------------------------------------
def _param_input(builder, v):
    if isinstance(v, Tensor):
        return builder.new_input(AbstractTensor(v.shape, v.dtype), "x")
    return None


def differentiate(fn, args, positions, weights, has_aux, sens):
    """The graph-mode counterpart of the tape's ``_differentiate``: (output, input grads, weight grads)."""
    if weights:
        from mindspore._infer.specialize import check_unique_names
        check_unique_names(weights)
    cur = _current_builder()
    fwd = Builder("grad_forward", cur)
    new_args = list(args)
    explicit = []                  # (position, element index or None, param node)
    with fwd:
        for p in positions:
            a = args[p]
            if isinstance(a, Tensor):
                s = _param_input(fwd, a)
                new_args[p] = s
                explicit.append((p, None, s._node))
            elif isinstance(a, (tuple, list)):
                items = list(a)
                for i, x in enumerate(a):
                    if isinstance(x, Tensor):
                        s = _param_input(fwd, x)
                        items[i] = s
                        explicit.append((p, i, s._node))
                new_args[p] = type(a)(items)
        out = call_value(fn, tuple(new_args))
        if has_aux:
            if not isinstance(out, tuple) or len(out) < 2:
                from mindspore._errors import MSValueError
                raise MSValueError("For 'grad', when 'has_aux' is True, the function must return more than one "
                                   f"output, but got {type(out).__name__}.")
        out_leaves, out_tree = staging.flatten(out)
        node_leaves = [fwd.localize(v) if staging._is_graph_value(v) else None for v in out_leaves]
        carried = _carried_writes(fwd)
        graph_outs = [n for n in node_leaves if n is not None] + [fwd.localize(v) for _, _, v in carried]
        fwd.graph.set_output(fwd.apply(irops.make_tuple, graph_outs, AbstractTuple(n.abstract for n in graph_outs)))
    g = fwd.graph
    from mindspore._pipeline.inline import inline_graph
    inline_graph(g, keep_custom=True)
    # values of the enclosing graph the forward read: its lifted parameters
    weight_params = []
    for w in weights or ():
        outer = cur.localize(w) if staging._is_param(w) or isinstance(w, StagedTensor) else None
        weight_params.append(fwd.lifted.get(outer) if outer is not None else None)
    wrt = [e[2] for e in explicit] + [p for p in weight_params if p is not None]
    outer_of = {param: outer for outer, param in fwd.lifted.items()}
    inputs = [_outer_value(cur, args, explicit, outer_of, p) for p in g.params]
    seeds = _seeds(out, out_leaves, node_leaves, has_aux, sens) + (None,) * len(carried)
    start, marks = len(cur.graph.nodes), []
    with cur:
        value, grads = reverse(g, inputs, wrt, seeds, marks)
    value_leaves = list(value)
    if carried:     # the number attributes the forward assigned take their values in the enclosing graph
        kept = len(value_leaves) - len(carried)
        for (obj, attr, _), v in zip(carried, value_leaves[kept:]):
            object.__setattr__(obj, attr, v)
        value_leaves = value_leaves[:kept]
    it = iter(value_leaves)
    rebuilt = [next(it) if n is not None else v for v, n in zip(out_leaves, node_leaves)]
    out_value = staging.unflatten(out_tree, rebuilt)
    in_grads = _input_grads(args, positions, explicit, grads)
    w_grads = None
    if weights is not None:
        w_grads = tuple(_grad_or_zeros(grads.get(p) if p is not None else None, w)
                        for p, w in zip(weight_params, weights))
    if has_aux:
        out_value = (out_value[0],) + tuple(_F().stop_gradient(o) if isinstance(o, Tensor) else o
                                            for o in out_value[1:])
    _note(cur, "grad", fn, args, None, start, marks[0], len(cur.graph.nodes))
    return out_value, in_grads, w_grads


def _carried_writes(fwd):
    """``(obj, name, value)`` of the number attributes carried through the compiled graph (see
    :mod:`mindspore._infer.specialize`) that the differentiated function assigned: extra, undifferentiated
    outputs of its forward graph."""
    found = []
    for obj, attr in staging.CTX.state.values():
        v = getattr(obj, attr)
        if isinstance(v, StagedTensor) and v._builder is fwd:
            found.append((obj, attr, v))
    return found


def _outer_value(cur, args, explicit, outer_of, param):
    """The value in the enclosing graph that parameter ``param`` of the forward graph stands for."""
    for p, i, node in explicit:
        if node is param:
            return args[p] if i is None else args[p][i]
    outer = outer_of.get(param)
    if outer is None:
        raise InternalError(f"the forward graph's parameter {param.name} has no value outside")
    return cur.wrap(outer)


def _seeds(out, out_leaves, node_leaves, has_aux, sens):
    F = _F()
    n_seeded = len(staging.flatten(out[0])[0]) if has_aux else len(out_leaves)
    diff_mask = [n is not None and i < n_seeded for i, n in enumerate(node_leaves)]
    if sens is None:
        seeds = [(_ONES_LIKE if -1 in v.shape else F.ones(v.shape, v.dtype)) if m else None
                 for v, m, n in zip(out_leaves, diff_mask, node_leaves) if n is not None]
    else:
        # one sens per output leaf, also for outputs the graph does not compute (constants: no seed to give)
        sens_leaves = staging.flatten(sens)[0]
        if any(-1 in getattr(s, "shape", ()) for s in sens_leaves):
            from mindspore._errors import MSValueError
            raise MSValueError("The shape of sense must not be dynamic shape.")
        if len(sens_leaves) != n_seeded:
            # MindSpore's compiler reports this as a type join of the sens with the output (a TypeError)
            from mindspore._errors import MSTypeValueError
            raise MSTypeValueError(f"For 'grad', the 'sens' must match the {n_seeded} output(s) of the function, "
                                   f"but got {len(sens_leaves)} (Type Join Failed: the sens cannot join with the "
                                   f"output).")
        for o, s in zip(out_leaves, sens_leaves):
            check_sens_joins(o, s)
        seeds = [sens_leaves[i] if m else None
                 for i, (m, n) in enumerate(zip(diff_mask, node_leaves)) if n is not None]
    return tuple(seeds)


def check_sens_joins(out, sens):
    """GRAPH_MODE: MindSpore 2.10's compiler joins each ``sens`` with its output's abstract value, so a tensor
    ``sens`` of another dtype than its output's (also a scalar one, also for an output the graph does not
    compute), or a Python number for a tensor output, is refused as a failed type join (never cast)."""
    if not isinstance(out, Tensor):
        return
    if isinstance(sens, (bool, int, float)):
        # a Python number's abstract value is a scalar: its type against a tensor's, which a scalar's join reads as Any
        sens_type = "Bool" if isinstance(sens, bool) else "Int64" if isinstance(sens, int) else "Float32"
        out_type = "Any"
    elif isinstance(sens, Tensor) and sens.dtype != out.dtype:
        sens_type, out_type = sens.dtype, out.dtype
    else:
        return
    raise type_join_failed(sens_type, out_type)


def type_join_failed(dtype1, dtype2):
    """MindSpore 2.10's error for two abstract values of different element types that must join."""
    return MSTypeError(f"Type Join Failed: dtype1 = {dtype1}, dtype2 = {dtype2}.\nFor more details, please refer to "
                       f"https://www.mindspore.cn/search?inputValue=Type%20Join%20Failed")


def _grad_or_zeros(g, like):
    if g is not None:
        return g
    return _F().zeros_like(like)


def _input_grads(args, positions, explicit, grads):
    by = {}
    for p, i, node in explicit:
        by[(p, i)] = grads.get(node)
    out = []
    for p in positions:
        a = args[p]
        if isinstance(a, Tensor):
            out.append(_grad_or_zeros(by.get((p, None)), a))
        elif isinstance(a, (tuple, list)):
            out.append(tuple(_grad_or_zeros(by.get((p, i)), x) if isinstance(x, Tensor) else x
                             for i, x in enumerate(a)))
        else:
            out.append(a)
    return tuple(out)


# --- Cells with a user bprop ---------------------------------------------------------------------------------
def _check_bprop_params(cell, n_inputs):
    """A Cell's ``bprop`` takes the forward inputs, ``out`` and ``dout`` (checked when compiling, as MindSpore
    does; its message names the ``bprop`` definition)."""
    bprop = custom_bprop(cell)
    try:
        inspect.signature(bprop.__get__(cell)).bind(*range(n_inputs + 2))
    except TypeError:
        code = getattr(bprop, "__code__", None)
        where = f"\nIn file {code.co_filename}:{code.co_firstlineno}" if code is not None else ""
        raise MSTypeError("The params of function 'bprop' of Primitive or Cell requires the forward inputs as well "
                          f"as the 'out' and 'dout'.{where}") from None


def stage_custom_bprop_call(cell, args, kwargs):
    """A Cell with ``bprop`` called in compiled code: one ``CustomCall`` apply (forward = its construct)."""
    if kwargs:
        raise MSTypeError(f"For '{type(cell).__name__}', a Cell with a custom bprop takes positional inputs only in "
                          f"graph mode.")
    _check_bprop_params(cell, len(args))
    cur = _current_builder()
    b = Builder(f"{type(cell).__name__}_forward", cur)
    new_args = []
    with b:
        for a in args:
            s = _param_input(b, a)
            new_args.append(s if s is not None else a)
        out = construct_cell(cell, tuple(new_args), None)
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        nodes = [b.localize(o) for o in outs]
        b.graph.set_output(b.apply(irops.make_tuple, nodes, AbstractTuple(n.abstract for n in nodes)))
    explicit = [cur.localize(a) for a in args]
    call = irops.CustomCall(b.graph, cell, len(args))
    call.single = single
    node = cur.apply(Constant(call), explicit + list(b.outer), b.graph.output.abstract)
    res = cur.wrap(node)
    return res[0] if single else res


def stage_composite_call(cell, args, kwargs, name, attrs):
    """Export's capture: a Cell with an exchange-format form (``nn.LSTM``) becomes one ``Composite`` call
    whose graph is its construct, so that an exporter sees the whole layer."""
    cur = _current_builder()
    b = Builder(f"{type(cell).__name__}_{name}", cur)
    leaves, tree = staging.flatten((tuple(args), dict(kwargs or {})))
    inner, explicit, tensor_leaves = [], [], []
    with b:
        for i, a in enumerate(leaves):
            s = _param_input(b, a)
            if s is not None:
                explicit.append(a)
                tensor_leaves.append(i)
            inner.append(s if s is not None else a)
        in_args, in_kwargs = staging.unflatten(tree, inner)
        out = construct_cell(cell, in_args, in_kwargs)
        out_leaves, out_tree = staging.flatten(out)
        if not all(isinstance(o, StagedTensor) for o in out_leaves):
            raise InternalError(f"the composite '{name}' of {type(cell).__name__} must return tensors only")
        nodes = [b.localize(o) for o in out_leaves]
        b.graph.set_output(b.apply(irops.make_tuple, nodes, AbstractTuple(n.abstract for n in nodes)))
    call = irops.Composite(b.graph, name, attrs, cell, tree, leaves, tensor_leaves, out_tree)
    node = cur.apply(Constant(call), [cur.localize(a) for a in explicit] + list(b.outer),
                     b.graph.output.abstract)
    res = cur.wrap(node)
    return staging.unflatten(out_tree, list(res))


def stage_construct(cell, args, kwargs):
    """A Cell called during inference: its ``construct`` evaluated from its parsed graph if it is user
    code (custom ``bprop`` cells become one call autodiff differentiates with that bprop; under export's
    capture, a cell with an exchange-format form becomes one ``Composite`` call)."""
    if custom_bprop(cell) is not None:
        return stage_custom_bprop_call(cell, args, kwargs)
    if staging.CTX.composites:
        form = getattr(cell, "_export_composite", None)
        form = form() if form is not None else None
        if form is not None:
            return stage_composite_call(cell, args, kwargs, *form)
    cur = _current_builder()
    start = len(cur.graph.nodes)
    out = construct_cell(cell, args, kwargs)
    _note(cur, "call", cell, args, kwargs, start, len(cur.graph.nodes), len(cur.graph.nodes))
    return out


# --- forward reuse: what the pipeline's merge (mindspore._pipeline.forward_reuse) reads ------------------------
#: ``graph.flags[FORWARD_CALLS]``: the staged calls and gradients of Cells in that graph, in staging order
FORWARD_CALLS = "forward_calls"


class StagedUse:
    """A call (``kind == "call"``) or a gradient (``"grad"``) of ``fn`` staged in a graph: ``forward`` are the
    applies of its forward (for a gradient, the clone of the differentiated graph), ``backward`` the applies
    its gradient added; ``args`` identifies its arguments (the same graph values give equal keys), ``sig``
    their types (calls of one Cell on other types are calls of another specialization in MindSpore)."""
    __slots__ = ("kind", "fn", "args", "sig", "forward", "backward")

    def __init__(self, kind, fn, args, sig, forward, backward):
        self.kind, self.fn, self.args, self.sig = kind, fn, args, sig
        self.forward, self.backward = forward, backward


def _uncast(node):
    """The value a ``Cast`` apply casts (a Cell run in another dtype, ``to_float``, casts its inputs on the way in)."""
    fn = node.fn_value() if isinstance(node, Apply) else None
    return node.inputs[1] if isinstance(fn, Primitive) and fn.name == "Cast" else node


def _arg_key(b, v, uncast=False):
    if isinstance(v, StagedTensor):
        node = _uncast(v._node) if uncast else v._node
        return ("node", node) if v._builder is b else ("outer", id(v._builder), node)
    if isinstance(v, Tensor):
        return ("tensor", id(v))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__,) + tuple(_arg_key(b, x, uncast) for x in v)
    try:
        hash(v)
    except TypeError:
        return ("id", id(v))
    return ("value", type(v).__name__, v)


def _arg_sig(v, uncast=False):
    if isinstance(v, StagedTensor) and uncast:
        ab = _uncast(v._node).abstract
        return ("tensor", tuple(ab.shape), str(ab.dtype))
    if isinstance(v, Tensor):
        return ("tensor", tuple(v.shape), str(v.dtype))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__,) + tuple(_arg_sig(x, uncast) for x in v)
    return _arg_key(None, v)


def _note(b, kind, fn, args, kwargs, start, mid, end):
    """Keep on ``b``'s graph that ``fn`` was called (or differentiated) on ``args``: nodes ``[start, mid)`` are
    its forward, ``[mid, end)`` its backward."""
    if b is None or not hasattr(fn, "construct"):
        return
    nodes = b.graph.nodes
    uncast = kind == "call" and fn.__dict__.get("_running_cast", False)   # its inputs were cast on the way in
    key = None if kwargs else tuple(_arg_key(b, a, uncast) for a in args)
    sig = tuple(_arg_sig(a, uncast) for a in args) + tuple(sorted(kwargs or ()))
    b.graph.flags.setdefault(FORWARD_CALLS, []).append(
        StagedUse(kind, fn, key, sig, list(nodes[start:mid]), list(nodes[mid:end])))
