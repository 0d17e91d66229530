"""PYNATIVE reverse-mode autodiff: a tape over primitive applications.

Algorithm
---------
A :class:`Tape` is an interpreter (:mod:`mindspore._core.interpreters`) pushed for the duration of one
``grad``/``value_and_grad`` call. The tensors we differentiate with respect to are *watched*
(``t._ad[tape] = None``, a leaf). The tape hands every primitive application to the interpreter below
it and, when one of its inputs is tracked by the tape, records it as a :class:`Node` (primitive, the
input objects, the output Tensors); its outputs become tracked (``out._ad[tape] = (node, index)``).
Primitives marked ``NON_DIFFERENTIABLE`` are never recorded, which is also how ``stop_gradient`` cuts
the graph.

:func:`backward` walks the nodes in reverse recording order (a valid reverse topological order,
since a node is recorded after all its inputs exist), calls each primitive's ``bprop(*inputs, out,
dout)`` and accumulates the input gradients. Gradients are summed back to each input's shape over
broadcast axes and cast to the input's dtype here, once, so no bprop handles broadcasting.

Higher order: the tape being differentiated is taken off the stack while its bprops run, but outer
tapes stay on it, so the bprop computations are themselves recorded on the outer tapes:
``grad(grad(f))`` needs nothing more.

Hooks (``Tensor.register_hook``): a tensor's gradient is complete when the walk reaches the node that made
it (every use of it was recorded later), or at the end for a leaf; its hooks then see it, in registration
order, and one that returns a tensor replaces it.

Saved-tensor hooks (``ms.saved_tensors_hooks``): while a (pack, unpack) pair is in force, a recorded node keeps
``pack(t)`` of each tensor input (run untraced); backward hands the bprop ``unpack`` of those, while the node's
``inputs`` still route the gradient to the original tensors.

Final-gradient callbacks (:class:`on_gradient_final`, used by data-parallel gradient reduction to start a bucket's
all-reduce while the walk goes on): the walk counts, per watched tensor, the recorded uses of it not walked yet; at
zero its gradient will not be accumulated into again and the callback sees it, during the walk. Without a
callback in force the walk does none of this (one test per node).
"""
from __future__ import annotations

import itertools
import weakref

from mindspore._core import interpreters as _interpreters
from mindspore._core import primitive as _primitive
from mindspore._core.primitive import NON_DIFFERENTIABLE, hook_suspended, mark_zero
from mindspore.common.tensor import Tensor

__all__ = ["Tape", "Node", "record", "backward", "tracked", "active", "sum_to", "rebind", "register_hook",
           "on_gradient_final", "multi_cotangent", "check_bprop_result"]

#: False while ``mindspore._no_grad`` (or ``_pynative_executor.set_enable_grad(False)``) is in force: tapes record
#: nothing, so what runs then is a constant to every differentiation around it
GRAD_ENABLED = [True]

_HOOKS = {}     # id(tensor) -> {handle id: hook}, dropped when the tensor is collected (tensors compare elementwise,
#                so they can not be dictionary keys themselves)
_hook_ids = itertools.count()


class HookHandle:
    """What ``Tensor.register_hook`` returns: :meth:`remove` unregisters the hook."""

    __slots__ = ("_key", "_id", "__weakref__")

    def __init__(self, key, hook_id):
        self._key = key
        self._id = hook_id

    def remove(self):
        hooks = _HOOKS.get(self._key)
        if hooks is not None:
            hooks.pop(self._id, None)


def register_hook(tensor, hook):
    """Call ``hook(grad)`` with ``tensor``'s gradient when PYNATIVE autodiff has computed it; a tensor it returns
    replaces the gradient. Returns a :class:`HookHandle`."""
    if not callable(hook):
        from mindspore._errors import MSTypeError
        raise MSTypeError(f"Expected a callable hook function, but got {type(hook).__name__}.")
    key = id(tensor)
    hooks = _HOOKS.get(key)
    if hooks is None:
        hooks = _HOOKS[key] = {}
        weakref.finalize(tensor, _HOOKS.pop, key, None)
    hook_id = next(_hook_ids)
    hooks[hook_id] = hook
    return HookHandle(key, hook_id)


def _run_hooks(grads, t):
    k = id(t)
    hooks = _HOOKS.get(k)
    if not hooks:
        return
    g = grads.get(k)
    if g is None:
        return
    for hook in list(hooks.values()):
        out = hook(g)
        if out is not None:
            g = out
    grads[k] = g


_FINAL = []     # on_gradient_final in force, innermost last: (tape depth, callback)
#: How many Cell backward hooks are registered (nn/_cell_hooks.py); while any are, ``grad`` with a ``grad_position``
#: differentiates every tensor input, as MindSpore 2.10 always does, so that the hooks see their gradients.
CELL_BACKWARD_HOOKS = [0]


class on_gradient_final:
    """A context manager: while in force, the backward pass (:func:`backward`) of the first tape opened inside it
    (the tape at this depth of the tape stack; the tapes of gradients taken inside the differentiated function are
    deeper and are not watched) calls ``callback(key, grad)`` for each watched tensor once its gradient is final:
    every recorded use of it has been walked (nothing will be accumulated into it again) and its tensor hooks have
    run. ``key`` is the ``id`` under which the result of :func:`backward` holds it (a watched tensor updated in place:
    its own id, not its stand-in's) and ``grad`` that very object (None: no gradient reached it). Tensors without a
    walked use (or with tensor hooks) are reported at the end of the walk, in watch order."""

    __slots__ = ("callback", "_entry")

    def __init__(self, callback):
        self.callback = callback
        self._entry = None

    def __enter__(self):
        self._entry = (len(active()), self.callback)
        _FINAL.append(self._entry)
        return self

    def __exit__(self, *exc):
        if _FINAL and _FINAL[-1] is self._entry:
            _FINAL.pop()
        elif self._entry in _FINAL:
            _FINAL.remove(self._entry)


def _final_callback(tape):
    depth, callback = _FINAL[-1]
    tapes = active()
    return callback if len(tapes) > depth and tapes[depth] is tape else None


class _FinalCounter:
    """The uses of each watched tensor of ``tape`` still to be walked, and the callback told at zero."""

    __slots__ = ("callback", "uses", "leaves", "keys", "told")

    def __init__(self, tape, callback):
        self.callback = callback
        self.uses = {}     # id(watched tensor) -> recorded uses not walked yet
        self.leaves = {}   # id(node) -> the watched tensors among its inputs (once per use)
        self.keys = {id(proxy): key for key, proxy in tape.aliases.items()}
        self.told = set()
        uses = self.uses
        for node in tape.nodes:
            if node is None:
                continue
            mine = []
            for inp in node.inputs:
                if _is_tensor(inp):
                    if _watched_leaf(inp, tape):
                        mine.append(inp)
                elif type(inp) in (tuple, list):
                    mine.extend(x for x in inp if _is_tensor(x) and _watched_leaf(x, tape))
            if mine:
                self.leaves[id(node)] = mine
                for t in mine:
                    uses[id(t)] = uses.get(id(t), 0) + 1

    def walked(self, node, grads):
        mine = self.leaves.get(id(node))
        if mine is None:
            return
        uses = self.uses
        for t in mine:
            k = id(t)
            uses[k] -= 1
            if uses[k] == 0 and k not in _HOOKS:   # a tensor with hooks is final once they ran, at the end
                self.tell(t, grads)

    def tell(self, t, grads):
        k = id(t)
        if k not in self.told:
            self.told.add(k)
            self.callback(self.keys.get(k, k), grads.get(k))


def _watched_leaf(t, tape):
    ad = t._ad
    return bool(ad) and tape in ad and ad[tape] is None


def active():
    """The tapes on the interpreter stack, innermost last (empty: nothing records)."""
    return [i for i in _interpreters.STACK if i.kind == "tape"]


#: ``ms.saved_tensors_hooks`` in force, innermost last: (pack_hook, unpack_hook) pairs.
SAVED_TENSORS_HOOKS = []


class Node:
    __slots__ = ("prim", "inputs", "outputs", "multi", "packed")

    def __init__(self, prim, inputs, outputs, multi):
        self.prim = prim
        self.inputs = inputs
        self.outputs = outputs
        self.multi = multi
        # Under saved-tensors hooks the bprop sees the unpacked form of each tensor input (the tensors a
        # bprop saves); ``inputs`` keeps only routing the gradient back to the right tensor.
        self.packed = _pack(inputs) if SAVED_TENSORS_HOOKS else None

    def saved_inputs(self):
        if self.packed is None:
            return self.inputs
        unpack, packed = self.packed
        return tuple(unpack(p) if kind else p for kind, p in packed)


def _pack(inputs):
    pack, unpack = SAVED_TENSORS_HOOKS[-1]
    out = []
    for x in inputs:
        if _is_tensor(x):
            hooks = SAVED_TENSORS_HOOKS[:]
            SAVED_TENSORS_HOOKS.clear()
            try:
                with _interpreters.untraced():   # what the hook computes is no part of the differentiated program
                    p = pack(x)
            finally:
                SAVED_TENSORS_HOOKS[:] = hooks
            if p is x:   # the hook returned the tensor itself: keep it as the saved value
                p = Tensor._make(x._data, x._dtype)
            out.append((True, p))
        else:
            out.append((False, x))
    return unpack, tuple(out)


class Tape(_interpreters.Interpreter):
    """One differentiation scope: an interpreter that records what the one below it runs."""

    kind = "tape"

    def __init__(self):
        self.nodes = []
        self.watched = []
        self.aliases = {}   # id(watched tensor updated in place) -> the proxy standing for its original value

    def apply(self, prim, args):
        result = self.below.apply(prim, args)
        if prim.bprop is not NON_DIFFERENTIABLE and GRAD_ENABLED[0]:
            for a in args:
                if isinstance(a, Tensor):
                    ad = a._ad
                    if ad and self in ad:
                        break
                elif type(a) in (tuple, list) and any(isinstance(x, Tensor) and x._ad and self in x._ad for x in a):
                    break
            else:
                return result
            multi = type(result) is tuple
            self._record(Node(prim, tuple(args), result if multi else (result,), multi))
        return result

    def _record(self, node):
        self.nodes.append(node)
        for i, o in enumerate(node.outputs):
            if _is_tensor(o):
                if o._ad is None:
                    o._ad = {}
                o._ad[self] = (node, i)

    def watch(self, t):
        if t._ad is None:
            t._ad = {}
        if self not in t._ad:
            t._ad[self] = None
            self.watched.append(t)

    # (hashed and compared by identity, object's own C slots: a tape is the key of every tracked tensor's ``_ad``)

    def __exit__(self, *exc):
        _interpreters.pop(self)
        self.release()

    def release(self):
        """Forget this tape on every tensor it touched (watched leaves and recorded outputs)."""
        for t in self.watched:
            if t._ad:
                t._ad.pop(self, None)
        for node in self.nodes:
            for o in node.outputs:
                if o._ad:
                    o._ad.pop(self, None)
        self.watched = []
        self.nodes = []
        self.aliases = {}


def tracked(t, tape):
    ad = getattr(t, "_ad", None)
    return bool(ad) and tape in ad


def _is_tensor(x):
    return isinstance(x, Tensor)


def _differentiated(x, tape):
    """Whether ``tape`` differentiates the input ``x`` (a tensor it tracks, or a tuple or list holding one)."""
    if type(x) in (tuple, list):
        return any(tracked(e, tape) for e in x)
    return tracked(x, tape)


def _iter_tensors(args):
    for a in args:
        if _is_tensor(a):
            yield a
        elif type(a) in (tuple, list):
            for x in a:
                if _is_tensor(x):
                    yield x


def record(prim, args, result):
    """Record ``prim(*args) -> result`` (already computed) on every tape that tracks one of ``args``."""
    if not GRAD_ENABLED[0]:
        return
    multi = type(result) is tuple
    outputs = result if multi else (result,)
    for tape in active():
        for a in _iter_tensors(args):
            ad = a._ad
            if ad and tape in ad:
                tape._record(Node(prim, tuple(args), outputs, multi))
                break


def _swap(items, target, proxy):
    out = []
    for x in items:
        if x is target:
            out.append(proxy)
        elif type(x) in (tuple, list):
            out.append(type(x)(_swap(x, target, proxy)))
        else:
            out.append(x)
    return tuple(out)


def rebind(target, result):
    """``target[...] = v`` while tapes record: ``target`` (the same Python object) now holds ``result``, the
    recorded functional update, so later uses of it are differentiated through the update.

    Its previous value moves to a proxy tensor that takes its place in every node recorded so far (their
    bprops read the value they saw, and the gradient reaches the nodes that made it); a watched input
    updated in place keeps its gradient with respect to its original value.
    """
    old_ad = target._ad
    if old_ad:
        proxy = Tensor._make(target._data, target._dtype)
        proxy._ad = dict(old_ad)
        for tape, entry in old_ad.items():
            for node in tape.nodes:
                if node is not None:
                    node.inputs = _swap(node.inputs, target, proxy)
                    node.outputs = _swap(node.outputs, target, proxy)
            if entry is None:   # a watched leaf: its gradient is the one of its original value
                tape.watched = [proxy if t is target else t for t in tape.watched]
                tape.aliases.setdefault(id(target), proxy)
    target._data = result._data
    target._ad = dict(result._ad) if result._ad else None
    for tape, entry in (result._ad or {}).items():
        if entry is not None:
            node, i = entry
            node.outputs = node.outputs[:i] + (target,) + node.outputs[i + 1:]
    result._ad = None


# The primitives the tape itself runs, found by name in the operator registry (which sits above the tape).
def _reduce_sum(x, axes):
    return _primitive.instance("ReduceSum", keep_dims=True)(x, axes)


def _reshape(x, shape):
    return _primitive.instance("Reshape")(x, shape)


def _cast(x, dtype):
    return _primitive.instance("Cast")(x, dtype)


def _fill(dtype, shape, value):
    return _primitive.instance("Fill")(dtype, shape, value)


def _add(x, y):
    return _primitive.instance("Add")(x, y)


def _zeros_like(x):
    return _primitive.instance("ZerosLike")(x)


def sum_to(grad, like):
    """``grad`` summed over the axes broadcasting added to ``like``, reshaped and cast to ``like``."""
    if not _is_tensor(grad):
        grad = _fill(like.dtype, tuple(like.shape), grad)
    shape, gshape = tuple(like.shape), tuple(grad.shape)
    if gshape != shape:
        lead = len(gshape) - len(shape)
        if lead < 0 or any(g == 1 != s for g, s in zip(gshape[lead:], shape)):
            # a seed of lower rank or with size-1 axes (a scalar loss scale for a (1,) loss): broadcast it up
            # first, as MindSpore's graph mode does; shapes that do not broadcast fall through to the Reshape error
            up = _broadcast_shape(gshape, shape)
            if up is not None:
                grad = _primitive.instance("BroadcastTo", shape=up)(grad)
                gshape, lead = up, len(up) - len(shape)
        axes = tuple(range(lead)) + tuple(
            i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1)
        if axes:
            grad = _reduce_sum(grad, axes)
        grad = _reshape(grad, shape)
    if grad.dtype != like.dtype:
        grad = _cast(grad, like.dtype)
    return grad


def _broadcast_shape(a, b):
    """The NumPy broadcast of shapes ``a`` and ``b``, or ``None`` where they do not broadcast."""
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
        return None
    return tuple(max(x, y) for x, y in zip(a, b))


def _shape_text(shape):
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"


def _abstract_text(t):
    """MindSpore's text of a tensor's abstract value, as its errors print it (less the buffer's address and
    contents)."""
    shape = "(" + ", ".join(str(d) for d in t.shape) + ")"
    return f"AbstractTensor(shape: {shape}, element: AbstractScalar(Type: {t.dtype}, Value: ValueAny, Shape: NoShape))"


def check_seed(out, sens):
    """PYNATIVE: MindSpore 2.10's checks of one ``sens`` against its output, before the backward pass. A scalar
    output takes any ``sens`` (summed down to it and cast); a scalar ``sens`` (a 0-d tensor or a Python number)
    can not be broadcast up to a non-scalar output; otherwise the shapes, then the dtypes must be equal (a
    ``sens`` of another dtype is refused, never cast)."""
    oshape = tuple(out.shape)
    if not oshape:
        return
    is_number = isinstance(sens, (bool, int, float))
    if not _is_tensor(sens) and not is_number:
        return
    sshape = () if is_number else tuple(sens.shape)
    from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
    if not sshape:
        raise MSRuntimeError("For grad interface or custom function, grad tensor should be broadcast to expected "
                             f"shape, but got {_shape_text(sshape)} vs {_shape_text(oshape)}")
    abstracts = f", , sens gradient abs {_abstract_text(sens)}, out abs{_abstract_text(out)}"
    if oshape != sshape:
        raise MSValueError(f"The shape should be {_shape_text(oshape)}, but got {_shape_text(sshape)}{abstracts}")
    if sens.dtype != out.dtype:
        raise MSTypeError(f"The dtype should be {out.dtype}, but got {sens.dtype}{abstracts}")


def _accumulate(grads, t, g):
    if g is None:
        return
    gd, td = getattr(g, "_data", None), t._data
    # (already of t's shape and dtype, the usual case, read off the buffers: no shape property, no tuple made)
    if gd is None or td is None or g._dtype is not t._dtype or gd.shape != td.shape \
            or _primitive.SHAPE_VIEW[0] is not None:
        g = sum_to(g, t)
    k = id(t)
    prev = grads.get(k)
    grads[k] = g if prev is None else _add(prev, g)


def multi_cotangent(prim, douts, outputs):
    """The ``dout`` of a multi-output node's bprop from its outputs' gradients ``douts`` (``None``: none reached that
    output): zeros (marked) for those, or ``None`` itself where the bprop reads it as the zero cotangent (BatchNorm's
    statistics, LayerNorm's mean and variance: ``bprop_none_douts``, no zeros made)."""
    if getattr(prim, "bprop_none_douts", False):
        return tuple(douts)
    return tuple(d if d is not None else mark_zero(_zeros_like(o)) for d, o in zip(douts, outputs))


def check_bprop_result(prim, in_grads):
    if not isinstance(in_grads, (tuple, list)):
        raise TypeError(f"The bprop of '{prim.name}' must return a tuple, but got {type(in_grads)}.")


def backward(tape, outputs, sens):
    """Gradients of ``outputs`` (weighted by ``sens``) w.r.t. every tensor tracked on ``tape``.

    Returns a dict ``id(tensor) -> gradient``; callers look up their watched tensors.
    """
    grads = {}
    final = None
    if _FINAL:
        callback = _final_callback(tape)
        if callback is not None:
            final = _FinalCounter(tape, callback)
    with _interpreters.suspended(tape), hook_suspended():
        for o, s in zip(outputs, sens):
            if _is_tensor(o) and tracked(o, tape):
                _accumulate(grads, o, s)
        for node in reversed(tape.nodes):
            if _HOOKS:
                for o in node.outputs:
                    _run_hooks(grads, o)
            if node.multi:
                douts = [grads.get(id(o)) for o in node.outputs]
                skip = all(d is None for d in douts)
            else:
                douts = [grads.get(id(node.outputs[0]))]
                skip = douts[0] is None
            if skip:
                if final is not None:
                    final.walked(node, grads)
                continue
            if node.multi:
                dout, out = multi_cotangent(node.prim, douts, node.outputs), node.outputs
            else:
                dout, out = douts[0], node.outputs[0]
            # which inputs this walk differentiates: the bprop may leave out the others (Primitive._grads_needed)
            needed = [_differentiated(inp, tape) for inp in node.inputs]
            prim = node.prim
            if all(needed):
                in_grads = prim.bprop(*node.saved_inputs(), out, dout)
            else:
                _primitive.GRADS_NEEDED[0] = (prim, needed)
                try:
                    in_grads = prim.bprop(*node.saved_inputs(), out, dout)
                finally:
                    _primitive.GRADS_NEEDED[0] = None
            check_bprop_result(prim, in_grads)
            for inp, need, g in zip(node.inputs, needed, in_grads):
                if not need or g is None:
                    continue
                if type(inp) in (tuple, list):
                    for x, gx in zip(inp, g):
                        if tracked(x, tape):
                            _accumulate(grads, x, gx)
                else:
                    _accumulate(grads, inp, g)
            if final is not None:
                final.walked(node, grads)
        if _HOOKS:
            for t in tape.watched:
                _run_hooks(grads, t)
        if final is not None:
            for t in tape.watched:
                final.tell(t, grads)
    for key, proxy in tape.aliases.items():   # watched inputs updated in place: their original value's gradient
        grads[key] = grads.get(id(proxy))
    return grads
