"""GRAPH_MODE forward reuse: a gradient of a Cell takes the forward the graph already computes (MindSpore 2.10).

A hand-written train step stages ``loss = net(x)`` and then ``GradOperation(...)(net, weights)(x, sens)``. The
gradient's forward is a clone of ``net``'s body (:mod:`mindspore._autodiff.graph_grad`), so every effect of the
forward - BatchNorm's moving statistics, Dropout's mask, ``Assign`` - would happen twice. MindSpore 2.10 replaces
the call by the gradient's forward when, in one graph, the Cell (of one specialization: same argument types) is
called exactly once and differentiated exactly once, on the very same graph values (``ad::DFunctor::
EliminatePrimalGraph`` followed by CSE). Measured on 2.10 (tests/fixtures/zoo_research/record_forward_reuse_2_10.py):

- reused: ``net(x)`` then a gradient of ``net`` on ``x`` (GradOperation with or without sens or weights,
  ``ops.grad``, ``ops.value_and_grad``), also when ``net(x)`` runs inside a wrapper Cell or its value is unused;
  calls of other Cells, or of ``net`` on arguments of other shapes, do not matter;
- not reused: other values (``x + 1``, another tensor of equal contents, ``ops.depend(x, loss)``), two calls of
  ``net`` in the graph, two gradients of ``net`` in the graph, a gradient of a wrapper of ``net``, a call inside a
  branch on a tensor condition (another graph).

The merge runs once, before the pass pipeline: each apply of the gradient's forward clone is matched, in order, to
an apply of the call computing the same thing from the same inputs (effectful ones in the same order); when all
match, the clone's uses are redirected to the call and the clone is dropped. The gradient then reads the network
Parameters as the forward read them: a Parameter that an apply between the two writes in place (an optimizer step)
is read by the backward through a copy made right after the call (as 2.10's forward loads it). When anything does
not match (control flow, a Cell whose forward differs between the two stagings), the gradient keeps its own forward.

2.10 also drops the ordering between a reused call and the next effect (``RemovePrimalUpdateStates``), so when the
next Cell call begins with the very effects the reused call made, on the same values, CSE merges them: the model
zoo's Pix2Pix moves its generator's BatchNorm statistics once a step although both losses run the generator on
``realA`` (tests/fixtures/zoo_research/record_pix2pix_step_2_10.py). That merge is done here too.
Not followed: a gradient staged before the call on the same values (2.10 fails compiling it, "Graph cycle exists").
"""
from __future__ import annotations

from mindspore._autodiff.graph_grad import FORWARD_CALLS
from mindspore._infer.abstract import AbstractTensor
from mindspore._infer.staging import FOLDED_KEY
from mindspore.common.tensor import Tensor
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Graph, Parameter, graphs_of
from mindspore._pipeline._util import is_effectful_apply, prim_of, substitute
from mindspore._pipeline.cse import _callee_key, _input_key

__all__ = ["run"]

_IDENTITY = []


def _identity():
    if not _IDENTITY:
        from mindspore.ops.operations import Identity
        _IDENTITY.append(Identity())
    return _IDENTITY[0]


def run(root):
    """Merge every reusable gradient forward of ``root`` and the graphs it reaches; whether any was merged."""
    changed = False
    for g in graphs_of(root):
        uses = g.flags.pop(FORWARD_CALLS, None)
        if uses:
            changed |= _merge_graph(g, uses)
    return changed


def _merge_graph(g, uses):
    groups = {}
    for u in uses:
        groups.setdefault((id(u.fn), u.sig), []).append(u)
    reused = []
    for group in groups.values():
        calls = [u for u in group if u.kind == "call"]
        grads = [u for u in group if u.kind == "grad"]
        if len(calls) != 1 or len(grads) != 1:
            continue
        call, grad = calls[0], grads[0]
        if call.args is None or grad.args is None or not call.forward or not grad.forward:
            continue
        seed = _same_args(call, grad)
        if seed is None:
            continue
        if _merge(g, call, grad, seed):
            reused.append(call)
    order = {n: i for i, n in enumerate(g.nodes)}
    for call in sorted(reused, key=lambda u: order.get(u.forward[0], -1)):
        _merge_next_call(g, call, [u for u in uses if u.kind == "call"])
    return bool(reused)


def _merge_next_call(g, call, calls):
    """2.10 drops the ordering after a reused call (``RemovePrimalUpdateStates``): the effects that the next
    call begins with, when they are the reused call's on the same values, are merged into them by CSE (the
    model zoo's Pix2Pix: the generator's BatchNorm in the discriminator's loss and in the generator's loss,
    both on ``realA``, moves its statistics once a step)."""
    position = {n: i for i, n in enumerate(g.nodes)}
    if any(n not in position for n in call.forward):
        return
    end = position[call.forward[-1]]
    first = next((n for n in g.nodes[end + 1:] if is_effectful_apply(n)), None)
    if first is None:
        return
    nxt = [u for u in calls if u.forward and u.forward[0] in position and position[u.forward[0]] > end and
           first in u.forward]
    if not nxt:
        return
    later = max(nxt, key=lambda u: len(u.forward))       # the outermost call that begins with that effect
    if any(n not in position for n in later.forward):
        return
    effects = [n for n in call.forward if is_effectful_apply(n)]
    mapped, _, k, _ = _match(later.forward, effects, _pure_of(call.forward))
    if k == 0:
        return
    g.nodes = [n for n in g.nodes if n not in mapped]
    substitute(g, mapped)


def _pure_before(g, call, position):
    """The pure applies that compute the same values as the gradient's clone may: those of the call, and those
    staged after the last effect before it (the casts of a Cell run in another dtype, ``to_float``)."""
    first = position[call.forward[0]]
    while first > 0 and not is_effectful_apply(g.nodes[first - 1]):
        first -= 1
    return _pure_of(g.nodes[first:position[call.forward[-1]] + 1])


def _pure_of(nodes):
    """``nodes``' pure applies by what they compute."""
    pure = {}
    for n in nodes:
        if not is_effectful_apply(n):
            pure.setdefault(_key(n, {}), []).append(n)
    return pure


def _key(node, mapped, alias=None):
    if alias:
        return (_callee_key(node), tuple(_value_key(mapped.get(x, alias.get(x, x))) for x in node.inputs[1:]))
    return (_callee_key(node), tuple(_value_key(mapped.get(x, x)) for x in node.inputs[1:]))


def _value_key(x):
    """CSE's key of an input, except that a tensor the compiler computed from constants (``Reshape(self.label)``)
    is known by its contents: each staging of the Cell (the call, the gradient's clone) computes its own."""
    if isinstance(x, Constant) and isinstance(x.value, Tensor):
        ext = getattr(x.value, "_ext", None)
        if ext and FOLDED_KEY in ext and x.value.size <= _FOLDED_BY_VALUE:
            v = x.value
            return ("folded", str(v.dtype), tuple(v.shape), v.asnumpy().tobytes())
    return _input_key(x)


_FOLDED_BY_VALUE = 1 << 16


def _is_load(node):
    """The copy of a value read before an in-place write that the gradient's forward clone makes for its bprops
    (``graph_grad``'s ``Load``): it computes nothing the call does not."""
    return getattr(node, "debug", None) == "Load" and getattr(prim_of(node), "name", None) == "Identity"


def _match(nodes, effects, pure, seed=None):
    """Map ``nodes`` onto the earlier applies they compute again: their effects, in order, onto ``effects``, their
    pure applies onto equal ones of ``pure`` (taken from it). Stops at the first effect that differs; returns
    ``(mapped, the pure applies left unmatched, how many effects matched, whether every node was read)``. ``seed``:
    values known to be the same as others (a gradient's argument ``x * 1`` is the call's ``x``)."""
    mapped, kept, k = dict(seed or {}), [], 0
    alias = {}      # the copies (Load) of values written in place, matched as what they copy
    for n in nodes:
        if _is_load(n):
            alias[n] = mapped.get(n.inputs[1], n.inputs[1])
            kept.append(n)
            continue
        key = _key(n, mapped, alias)
        if is_effectful_apply(n):
            if k >= len(effects) or _key(effects[k], {}) != key:
                return mapped, kept, k, False
            mapped[n] = effects[k]
            k += 1
            continue
        same = pure.get(key)
        if same:
            mapped[n] = same.pop(0)
        else:
            kept.append(n)
    return mapped, kept, k, True


def _merge(g, call, grad, seed=None):
    position = {n: i for i, n in enumerate(g.nodes)}
    if any(n not in position for n in call.forward + grad.forward + grad.backward):
        return False
    if position[call.forward[-1]] >= position[grad.forward[0]]:
        return False   # the gradient comes first (MindSpore 2.10 fails compiling it: "Graph cycle exists")
    if any(isinstance(n.inputs[0], Constant) and isinstance(n.inputs[0].value, (Graph, irops.CustomCall))
           for n in grad.forward):
        return False
    effects = [n for n in call.forward if is_effectful_apply(n)]
    # the unmatched pure applies are computed again from the call's values (a tuple the clone packs itself)
    mapped, kept, k, whole = _match(grad.forward, effects, _pure_before(g, call, position), seed)
    if not whole or k != len(effects):
        return False
    for x in seed or ():
        mapped.pop(x, None)     # the arguments stay as they are (their values are the same)
    _read_weights_as_the_call(g, call, grad, kept + grad.backward, position)
    dropped = set(mapped)
    g.nodes = [n for n in g.nodes if n not in dropped]
    substitute(g, mapped)
    _load_before_the_calls_writes(g, call, [n for n in kept if _is_load(n)])
    return True


def _load_before_the_calls_writes(g, call, loads):
    """The gradient's copies of values its forward writes in place (``y *= x`` in graph mode) are made where the
    call's forward, which the gradient now uses, still holds the value: right before the call's write of it."""
    for load in loads:
        src = load.inputs[1]
        write = next((n for n in call.forward if is_effectful_apply(n) and src in n.inputs[1:]), None)
        if write is None or write not in g.nodes:
            continue
        g.nodes.remove(load)
        g.nodes.insert(g.nodes.index(write), load)


def _same_args(call, grad):
    """Whether the gradient's arguments are the call's values, after the rewrites 2.10 makes before it merges the
    two (measured, tests/fixtures/zoo_research/record_forward_reuse_2_10.py): ``x * 1`` (an int 1, or
    ``ones_like(x)``), ``x + 0`` (an int 0), ``Reshape`` to ``x``'s shape and ``Cast`` to its dtype are ``x``, and so
    is ``ops.depend(x, y)`` unless ``y`` is computed from the call; not ``x * 1.0``, ``x - 0``, ``x / 1``,
    ``Identity``, ``stop_gradient`` nor an ``ExpandDims``/``Squeeze`` round trip. Returns the gradient's argument
    nodes mapped to the call's that they equal ({} when the keys are the same), or None."""
    if call.args == grad.args:
        return {}
    if len(call.args) != len(grad.args):
        return None
    inside = set(call.forward)
    seed = {}
    for a, b in zip(call.args, grad.args):
        if not _same_key(a, b, inside, seed):
            return None
    return seed


def _same_key(a, b, inside, seed):
    if a == b:
        return True
    if type(a) is not tuple or type(b) is not tuple or len(a) != len(b) or not a or a[0] != b[0]:
        return False
    if a[0] in ("node", "outer"):
        if a[:-1] != b[:-1]:
            return False
        x, y = _canonical(a[-1], inside), _canonical(b[-1], inside)
        if x is not y:
            return False
        if b[-1] is not a[-1]:
            seed[b[-1]] = a[-1]
        return True
    if a[0] in ("tuple", "list"):
        return all(_same_key(u, v, inside, seed) for u, v in zip(a[1:], b[1:]))
    return False


def _canonical(node, inside):
    """``node`` with 2.10's value-preserving rewrites of a Cell's argument undone (see :func:`_same_args`)."""
    while isinstance(node, Apply) and node.inputs[1:]:
        f = node.inputs[0]
        prim = f.value if isinstance(f, Constant) else None
        name = getattr(prim, "name", None)
        args = node.inputs[1:]
        x = args[0]
        same = getattr(x, "abstract", None) == node.abstract
        if name == "Depend" and len(args) == 2 and not _computed_from(args[1], inside):
            node = x
        elif same and name in ("Reshape", "Cast"):
            node = x
        elif same and name == "Add" and len(args) == 2 and _is_int(args[1], 0):
            node = x
        elif same and name == "Mul" and len(args) == 2 and (_is_int(args[1], 1) or _ones_like_of(args[1], x)):
            node = x
        else:
            break
    return node


def _is_int(c, value):
    return isinstance(c, Constant) and type(c.value) is int and c.value == value


def _ones_like_of(c, x):
    f = c.inputs[0] if isinstance(c, Apply) else None
    return isinstance(f, Constant) and getattr(f.value, "name", None) == "OnesLike" and c.inputs[1] is x


def _computed_from(node, inside):
    """Whether ``node`` is one of ``inside`` or computed from one of them (in its graph)."""
    seen, todo = set(), [node]
    while todo:
        n = todo.pop()
        if n in inside:
            return True
        if not isinstance(n, Apply) or n in seen:
            continue
        seen.add(n)
        todo.extend(n.inputs[1:])
    return False


def _read_weights_as_the_call(g, call, grad, readers, position):
    """``readers`` (the gradient's applies that stay) read a network Parameter that is written in place between
    the call and the gradient through a copy made right after the call."""
    between = g.nodes[position[call.forward[-1]] + 1:position[grad.forward[0]]]
    written, everything = set(), False
    for n in between:
        if not is_effectful_apply(n):
            continue
        f = n.inputs[0]
        if isinstance(f, Constant) and not isinstance(f.value, (Graph, irops.CustomCall)) and \
                f.value not in (irops.If, irops.While, irops.while_stack):
            written.update(x for x in n.inputs[1:] if isinstance(x, Parameter) and x.weight is not None)
        else:
            everything = True     # a branch, loop or call writing who knows what
    read = {x for n in readers for x in n.inputs[1:] if isinstance(x, Parameter) and x.weight is not None}
    stale = [w for w in g.params if w in read and (everything or w in written)]
    if not stale:
        return
    copies = {}
    for w in stale:
        c = Apply(g, [Constant(_identity()), w], call.forward[-1].loc)
        c.abstract = AbstractTensor(w.abstract.shape, w.abstract.dtype)
        c.debug = "Load"
        copies[w] = c
    at = position[call.forward[-1]] + 1
    g.nodes[at:at] = list(copies.values())
    for n in readers:
        n.inputs = [n.inputs[0]] + [copies.get(x, x) for x in n.inputs[1:]]
