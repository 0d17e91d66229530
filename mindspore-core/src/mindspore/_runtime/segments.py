"""A graph whose control flow is decided on the host, cut into straight-line graphs between the decisions.

A runtime that replays a whole graph as one recorded launch (``DeviceRuntime.graph_runner``: the GPU backend's CUDA
graphs) can not record a graph holding an ``If`` or a ``While``: which branch runs, and how often, is decided by
reading a device value back to the host. MindSpore's own loss-scaled training step is such a graph
(``TrainOneStepWithLossScaleCell``: ``if not overflow: optimizer(grads)``). A runtime that sets
``DeviceRuntime.graph_segments`` gets that graph in pieces instead: every stretch of its applies between two host
decisions, in the top graph and in every branch and loop body it runs, becomes a graph of its own, given to
``graph_runner`` like a top graph; the executor runs the host decisions between them as before.

A stretch (:func:`plan`) is a run of consecutive applies of primitives, of ``make_tuple``/``tuple_getitem``, and of
calls to graphs without host control flow. Its graph (:class:`Segment`) takes as parameters the tensors it reads
from before it, in first-use order (``weight`` set where the value always is a network Parameter, so a runtime can
write that Parameter's buffer in place, as it does in a top graph), and returns the tuple of the values used after
it. A ``tuple_getitem`` of a tuple made before the stretch moves just before it, and a ``make_tuple`` that only the
code after the stretch reads moves just after it, so that a segment's inputs and outputs are tensors; a stretch that
still reads or returns anything else, or that holds fewer than :data:`MIN_KERNELS` kernels, runs as it did.
"""
from __future__ import annotations

from mindspore._core.primitive import Primitive
from mindspore._infer.abstract import AbstractTensor, AbstractTuple
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Graph, Parameter, graphs_of
from mindspore._ir.ops import CustomCall

__all__ = ["HOST_DECISIONS", "MIN_KERNELS", "SEGMENT_FLAG", "Segment", "host_decided", "weights_through_calls",
           "plan"]

#: The IR ops whose effect is decided on the host.
HOST_DECISIONS = (irops.If, irops.While, irops.while_stack, irops.while_grad, irops.raise_runtime)
#: A stretch with fewer kernels than this runs kernel by kernel (a single kernel gains nothing from a replay).
MIN_KERNELS = 2
#: ``Graph.flags`` key set on a segment's graph (its value: the name of the graph it was cut from).
SEGMENT_FLAG = "segment_of"


def _is_host_decision(fn):
    return any(fn is op for op in HOST_DECISIONS)


def host_decided(root):
    """Whether ``root`` or a graph it reaches holds an ``If``, a ``While`` or a raise decided at run time."""
    return any(_is_host_decision(node.fn_value()) for g in graphs_of(root) for node in g.nodes)


def _graphs_directly_in(node):
    """The graphs ``node`` calls as a callee (``(graph, bindings)``: its parameters' arguments, None for a value that
    changes from call to call), and every other graph it holds as a value."""
    fn = node.fn_value()
    args = node.inputs[1:]
    called = []
    if fn is irops.If:
        for branch in args[1:3]:
            if isinstance(branch, Constant) and isinstance(branch.value, Graph):
                called.append((branch.value, list(args[3:])))
    elif fn is irops.While or fn is irops.while_stack:
        n = args[2].value
        for sub in args[0:2]:
            if isinstance(sub, Constant) and isinstance(sub.value, Graph):
                called.append((sub.value, [None] * n + list(args[3 + n:])))
    elif fn is irops.while_grad:
        n = args[1].value
        inv = list(args[3 + n:])
        if isinstance(args[0], Constant) and isinstance(args[0].value, Graph):
            called.append((args[0].value, [None] * n + inv + [None] * n))
    elif isinstance(fn, Graph):
        called.append((fn, list(args)))
    elif isinstance(fn, CustomCall):
        called.append((fn.graph, list(args)))
    return called


def weights_through_calls(root):
    """``{Parameter node: network Parameter}``: ``root``'s weight parameters, and every parameter of a graph it calls
    (a branch, a loop body's loop-invariant input, a called graph) that receives one and the same network Parameter
    at every call. A graph also held any other way (as a value) keeps no weights: its callers are not all known."""
    graphs = graphs_of(root)
    bindings = {}
    opaque = set()
    for g in graphs:
        for node in g.nodes:
            called = _graphs_directly_in(node)
            as_callee = {id(sub) for sub, _ in called}
            for sub, args in called:
                for param, arg in zip(sub.params, args):
                    bindings.setdefault(param, []).append(arg)
                for param in sub.params[len(args):]:
                    bindings.setdefault(param, []).append(None)
            for x in node.inputs:
                if isinstance(x, Constant) and isinstance(x.value, Graph) and id(x.value) not in as_callee:
                    opaque.add(id(x.value))
        if isinstance(g.output, Constant) and isinstance(g.output.value, Graph):
            opaque.add(id(g.output.value))
    weights = {p: p.weight for p in root.params if p.weight is not None}
    changed = True
    while changed:
        changed = False
        for param, args in bindings.items():
            if param in weights or id(param.graph) in opaque:
                continue
            found = {id(weights.get(a)) if isinstance(a, Parameter) and a in weights else None for a in args}
            if len(found) == 1 and None not in found:
                weights[param] = weights[args[0]]
                changed = True
    return weights


class Segment:
    """A stretch of ``nodes`` of a graph as ``graph`` (``graph(*inputs) -> tuple(outputs)``): ``inputs`` are the values
    of the enclosing graph it reads, ``outputs`` the nodes of the stretch used after it."""

    __slots__ = ("graph", "inputs", "outputs", "nodes")

    def __init__(self, graph, inputs, outputs, nodes):
        self.graph, self.inputs, self.outputs, self.nodes = graph, inputs, outputs, nodes

    def __repr__(self):
        return f"Segment({self.graph.name}, {len(self.nodes)} applies, {len(self.inputs)} in, {len(self.outputs)} out)"


def _kernels(node, seen=None):
    fn = node.fn_value()
    if isinstance(fn, Primitive):
        return 1
    if isinstance(fn, Graph):
        seen = set() if seen is None else seen
        if id(fn) in seen:
            return 0
        seen.add(id(fn))
        return sum(_kernels(n, seen) for n in fn.nodes)
    return 0


def _member(node, calls_host):
    fn = node.fn_value()
    if isinstance(fn, Primitive) or fn is irops.make_tuple or fn is irops.tuple_getitem:
        return True
    return isinstance(fn, Graph) and not calls_host(fn)


def _is_tensor(x):
    return isinstance(x.abstract, AbstractTensor)


def plan(g, weights, counter):
    """``g``'s applies in program order, each stretch worth replaying (see the module docstring) replaced by a
    :class:`Segment`; ``weights`` as from :func:`weights_through_calls`; ``counter`` a one-item list numbering the
    segments' graphs."""
    memo = {}

    def calls_host(sub):
        if id(sub) not in memo:
            memo[id(sub)] = host_decided(sub)
        return memo[id(sub)]

    users = {}
    for node in g.nodes:
        for x in node.inputs:
            users.setdefault(x, []).append(node)
    users.setdefault(g.output, []).append(None)
    steps, run = [], []
    for node in g.nodes:
        if _member(node, calls_host):
            run.append(node)
            continue
        steps.extend(_outline(g, run, users, weights, counter))
        run = []
        steps.append(node)
    steps.extend(_outline(g, run, users, weights, counter))
    return steps


def _outline(g, run, users, weights, counter):
    if sum(_kernels(n) for n in run) < MIN_KERNELS:
        return list(run)
    members = list(run)
    before, after = [], []
    while True:
        inside = set(members)
        inputs = []
        for node in members:
            for x in node.inputs[1:]:
                if not isinstance(x, Constant) and x not in inside and x not in inputs:
                    inputs.append(x)
        outputs = [n for n in members if any(u is None or u not in inside for u in users.get(n, ()))]
        bad_in = [x for x in inputs if not _is_tensor(x)]
        bad_out = [n for n in outputs if not _is_tensor(n)]
        if not bad_in and not bad_out:
            break
        moved = False
        for node in list(members):
            fn = node.fn_value()
            if fn is irops.tuple_getitem and node.inputs[1] in bad_in:
                members.remove(node)
                before.append(node)
                moved = True
            elif fn is irops.make_tuple and node in bad_out and all(u is None or u not in inside
                                                                     for u in users.get(node, ())):
                members.remove(node)
                after.append(node)
                moved = True
        if not moved:
            return list(run)
    if sum(_kernels(n) for n in members) < MIN_KERNELS:
        return list(run)
    before.sort(key=run.index)
    after.sort(key=run.index)
    counter[0] += 1
    seg = Graph(f"{g.name}_segment{counter[0]}", loc=g.loc)
    seg.flags[SEGMENT_FLAG] = g.name
    mapping = {}
    for i, x in enumerate(inputs):
        p = seg.add_param(f"in{i}", loc=x.loc, weight=weights.get(x) if isinstance(x, Parameter) else None)
        p.abstract = x.abstract
        mapping[x] = p
    for node in members:
        copy = Apply(seg, [mapping.get(x, x) for x in node.inputs], node.loc)
        copy.abstract, copy.debug = node.abstract, node.debug
        seg.nodes.append(copy)
        mapping[node] = copy
    out = Apply(seg, [Constant(irops.make_tuple)] + [mapping[n] for n in outputs])
    out.abstract = AbstractTuple(n.abstract for n in outputs)
    seg.nodes.append(out)
    seg.set_output(out)
    return before + [Segment(seg, inputs, outputs, members)] + after
