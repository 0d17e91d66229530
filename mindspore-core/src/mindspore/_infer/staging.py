"""Staging: abstract interpretation that builds typed graphs.

Design
------
Inference runs the program on *abstract* tensors. A :class:`StagedTensor` is a Tensor whose value
is not known at compile time, only its shape and dtype, and which stands for one node of the typed
graph being built by a :class:`Builder`. Everything else stays an ordinary Python value and is
computed at compile time (MindSpore's constant folding and "JIT Fallback").

A builder entered (``with builder:``) pushes a staging interpreter on the interpreter stack
(:mod:`mindspore._core.interpreters`), so primitive applications reach :func:`emit`: when an
argument is a staged tensor or a network Parameter (whose value changes between runs), the one
abstract evaluation (:func:`mindspore._core.evaluate.evaluate`, the same as eager dispatch) gives the
output's abstract value and an apply is appended to the current graph; when all arguments are
constants and the primitive is pure, the bottom (eager) interpreter computes it right away (constant
folding at compile time). Side-effecting and random primitives are always staged.

Builders nest: the branches of an ``if`` on a tensor and the condition and body of a ``while``
with a tensor condition are built by child builders. A child that uses a value of an enclosing
builder *lifts* it: the value becomes a parameter of the child graph and an argument of the
``If``/``While`` apply in the parent, so every typed graph is closed. Network Parameters are graph
inputs of the outermost builder (``weight`` nodes), read afresh at every run.

Control flow on tensors (:func:`build_if`, :func:`build_while`) joins the values of the two paths
(two iterations) leaf by leaf: tensors must agree in shape and dtype; equal constants stay
constants; different Python scalars become 0-d tensors; any other disagreement makes a value that
raises when used (so a variable no later code reads costs nothing).
"""
from __future__ import annotations

import numpy as np

from mindspore._core import interpreters as _interpreters
from mindspore._core.evaluate import abstract_args, evaluate
from mindspore._errors import InternalError, MSRuntimeError, MSTypeError, MSValueError
from mindspore._ir import ops as irops
from mindspore._ir.nodes import UNDEFINED, Apply, Constant, Graph
from mindspore._infer.abstract import AbstractTensor, AbstractTuple
from mindspore.common import dtype as mstype
from mindspore.common.tensor import SHAPE_VIEW, Tensor

__all__ = ["Builder", "StagedTensor", "emit", "build_if", "build_while", "current", "active",
           "StagedRaise", "Conflict", "flatten", "unflatten", "CTX", "is_effectful", "inplace_update", "inplace_root",
           "bool_shape_message", "unbound_error", "number_type"]

MAX_UNROLL = 100000


class _Staging(_interpreters.Interpreter):
    """The interpreter a builder pushes: primitive applications are staged into its graph."""

    kind = "staging"

    def __init__(self, builder):
        self.builder = builder

    def apply(self, prim, args):
        if not _is_graph_value(args) and not is_effectful(prim) and not CTX.stage_constants:
            out = _interpreters.STACK[0].apply(prim, args)   # constants: computed now (folded)
            if isinstance(out, Tensor) and not _is_param(out):
                _mark_folded(prim, args, out)
            return out
        if CTX.exporting:
            expand = getattr(prim, "export_expand", None)
            if expand is not None:      # a primitive MindSpore lacks: staged as the ones it has
                return expand(*args)
        return emit(prim, args, self.builder)


class _Context:
    """Per-compilation state: the user's source positions being evaluated (innermost last)."""

    def __init__(self):
        self.locs = []
        self.branch_depth = 0
        self.copies = {}        # id(outer list/dict/set) -> (object, its graph-local copy), per compilation
        # id(graph-local copy) -> (copy, outer list) for the outer lists an in-place method changed (see
        # interpret._list_in_place): the graph returns the outer list itself, compiled again at every call
        self.outer_writes = {}
        # a tensor attribute this compilation replaced by a tensor it computed at compile time (``self.t = self.t * 2``
        # on a constant ``self.t``; see interpret._setattr): MindSpore sets it at each call, so the program is
        # compiled again at every call
        self.tensor_attr_writes = False
        # (id(obj), name) of the attributes this compilation set (``self.l = []``): reads of them give the object set
        # (MindSpore 2.10 reads an attribute set in the function from the object), not a copy (see read_copy)
        self.attrs_set = set()
        # the nodes of 0-d tensors that stand for Python numbers (see NUMBER_KEY): a graph output computed from them
        # by arithmetic alone is returned as a number (specialize's scalar outputs)
        self.number_nodes = set()
        # a ``constexpr`` function's results in this compilation, by call site, Cell instance and arguments (None
        # outside one): as in MindSpore, a call site is evaluated once per Cell instance and arguments, so the
        # gradient of a Cell sees the value its forward saw (a constexpr drawing random numbers gives one draw)
        self.constexpr_values = None
        self.cells = []         # the Cells whose construct is being evaluated (innermost last)
        self.composites = False  # export's capture: Cells with an exchange-format form stay one call
        # export's capture: a primitive of this implementation that MindSpore lacks (the fused attention) is staged
        # as its ``export_expand``, a composition of primitives MindSpore and ONNX have
        self.exporting = False
        # Python number attributes a compiled function assigns (``self.calls += 1``): (id(obj), name) ->
        # [obj, name, value before the first write]. A first compilation collects them; the compiler then
        # compiles again with each carried through the graph (``state``: (id(obj), name) -> entry), so that
        # the assignment happens at every call, as in MindSpore.
        self.number_writes = {}
        self.state = {}
        self.last_number_writes = []
        # > 0 while an augmented assignment computes the new value of a tensor it updates in place: applies on
        # constants are staged (read at each run), not folded (see :func:`inplace_update`)
        self.stage_constants = 0

    def graph_local(self, value):
        """The compilation's own copy of a list, dict or set the function reads from outside (a global or a
        closure variable): as in MindSpore, a graph mutates its copy, never the caller's object."""
        hit = self.copies.get(id(value))
        if hit is None or hit[0] is not value:
            hit = self.copies[id(value)] = (value, type(value)(value))
        return hit[1]

    def read_copy(self, value):
        """A new copy of a Cell's list attribute at each read (MindSpore 2.10 converts ``self.l`` afresh wherever it is
        read: ``self.l.append(v)`` changes a copy no later read sees); :meth:`outer_of` knows its original."""
        local = type(value)(value)
        self.copies[id(local)] = (value, local)
        return local

    def outer_of(self, copy):
        """The caller's list whose graph-local copy ``copy`` is (None for any other list)."""
        for original, local in self.copies.values():
            if local is copy:
                return original
        return None

    def loc(self):
        for loc in reversed(self.locs):
            if loc is not None:
                return loc
        return None


CTX = _Context()


def current():
    """The innermost builder (a compilation is in progress)."""
    return _interpreters.STACK[-1].builder


def active():
    """Whether a graph is being built: the top interpreter stages."""
    return _interpreters.STACK[-1].kind == "staging"


class StagedRaise(Exception):
    """A ``raise`` reached inside a branch on a tensor condition: it happens at run time, if ever."""

    def __init__(self, exc, loc):
        super().__init__(exc)
        self.exc = exc
        self.loc = loc


class Conflict:
    """A variable whose value differs between the paths of a tensor ``if`` in a way a graph cannot
    carry (two different objects), or is bound on one path only. Using it raises."""

    __slots__ = ("why",)

    def __init__(self, why):
        self.why = why

    def fail(self):
        if self.why == "undefined":
            raise unbound_error()
        from mindspore._errors import MSBranchValueError
        raise MSBranchValueError(f"A variable is used whose value differs between the branches of an 'if' on a "
                                 f"tensor in a way a graph can not represent: {self.why}.")


def unbound_error():
    """The error for a variable used where it has no value (MindSpore 2.10 raises UnboundLocalError: "The local
    variable 'z' is not defined in false branch, but defined in true branch.")."""
    from mindspore._errors import MSUnboundLocalError
    return MSUnboundLocalError("The local variable is not defined in one branch, but defined in the other: it is "
                               "assigned on some paths of an 'if' (or a loop) only, and used after it.")


def _compile_time_only(what):
    from mindspore._errors import MSValueUnavailableError
    return MSValueUnavailableError(
        f"{what} is not available while compiling in graph mode: the tensor is computed by the graph. "
        "Use tensor operations (e.g. ops.select, ops.where) instead, or run this code in PYNATIVE mode.")


class StagedTensor(Tensor):
    """A tensor of a graph being compiled: known shape and dtype, value computed at run time."""

    __slots__ = ("_node", "_builder", "_shape")

    def __init__(self, *args, **kwargs):  # noqa: D107 - never constructed by users
        raise InternalError("StagedTensor is made by the graph compiler only.")

    @classmethod
    def _new(cls, node, builder, abstract):
        t = object.__new__(cls)
        t._data = None
        t._dtype = abstract.dtype
        t._ad = None
        t._init = None
        t._init_shape = None
        t._node = node
        t._builder = builder
        t._shape = abstract.shape
        return t

    @property
    def shape(self):
        view = SHAPE_VIEW[0]
        if view is not None:    # mindspore-parallel: a sharded block's global shape (see Tensor.shape)
            shown = view(self)
            if shown is not None:
                return shown
        return self._shape

    @property
    def has_init(self):
        return False

    def init_data(self, *args, **kwargs):
        return self

    def _buffer(self):
        raise _compile_time_only("The value of a tensor")

    def __bool__(self):
        raise _compile_time_only("The truth value of a tensor (in library code or a function that is not parsed)")

    def __int__(self):
        raise _compile_time_only("int() of a tensor")

    def __float__(self):
        raise _compile_time_only("float() of a tensor")

    def __index__(self):
        raise _compile_time_only("Using a tensor as a Python index")

    def __array__(self, dtype=None, copy=None):
        raise _compile_time_only("Converting a tensor to NumPy")

    def rebind(self, new):
        """Make this value stand for ``new``'s node (item assignment ``x[i] = v`` in graph mode: the
        functional update's result takes the variable's place; ``ops`` installs ``__setitem__``)."""
        self._node, self._builder, self._shape, self._dtype = new._node, new._builder, new._shape, new._dtype

    def assign_value(self, value):
        raise _compile_time_only("Tensor.assign_value")

    def __repr__(self):
        return f"Tensor(shape={list(self._shape)}, dtype={self._dtype}, value=<computed by the graph>)"

    __str__ = __repr__

    def abstract(self):
        return AbstractTensor(self._shape, self._dtype)


class Opaque:
    """A graph value that is neither a tensor nor a tuple (the state stack of a differentiated loop)."""

    __slots__ = ("node", "builder")

    def __init__(self, node, builder):
        self.node = node
        self.builder = builder


def _is_param(v):
    return isinstance(v, Tensor) and hasattr(v, "_name") and not isinstance(v, StagedTensor)


def _is_graph_value(v):
    if isinstance(v, StagedTensor) or _is_param(v):
        return True
    if type(v) in (tuple, list):
        return any(_is_graph_value(x) for x in v)
    return False


def is_effectful(prim):
    """Side effects (in-place writes, printing) or random draws: never folded, merged or dropped."""
    return bool(getattr(prim, "side_effect", False)) or hasattr(prim, "_random_state")


class Builder:
    """Builds one typed graph; ``parent`` is the builder whose values this one may lift."""

    def __init__(self, name, parent=None):
        self.graph = Graph(name)
        self.graph.flags["typed"] = True
        self.parent = parent
        self.lifted = {}        # node of the parent builder's graph -> parameter of this graph
        self.outer = []         # those parent nodes, in lifting order
        self.weights = {}       # id(Parameter) -> weight parameter node (outermost builder only)
        self.consts = {}        # id(Tensor) -> Constant node
        self._const_refs = []
        self._interps = []      # the staging interpreters this builder pushed, innermost last

    def __enter__(self):
        interp = _Staging(self)
        self._interps.append(interp)      # a builder may be entered again while it is active
        _interpreters.push(interp)
        return self

    def __exit__(self, *exc):
        _interpreters.pop(self._interps.pop())

    # -- values <-> nodes ----------------------------------------------------------------------------
    def add_param(self, abstract, name="x"):
        p = self.graph.add_param(name)
        p.abstract = abstract
        return p

    def lift(self, outer_node, abstract, name="x"):
        p = self.lifted.get(outer_node)
        if p is None:
            p = self.add_param(abstract, name)
            self.lifted[outer_node] = p
            self.outer.append(outer_node)
        return p

    def owns(self, builder):
        b = self
        while b is not None:
            if b is builder:
                return True
            b = b.parent
        return False

    def localize(self, v):
        """The node of this graph holding value ``v`` (lifting values of enclosing builders)."""
        if isinstance(v, StagedTensor):
            if v._builder is self:
                return v._node
            if self.parent is None or not self.parent.owns(v._builder):
                raise MSRuntimeError(
                    "A tensor computed inside a branch or loop body on a tensor condition (or inside another "
                    "compiled function) is used outside of it. Return it from the branch or loop instead.")
            outer = self.parent.localize(v)
            return self.lift(outer, outer.abstract, getattr(outer, "name", "x") if not isinstance(outer, Apply)
                             else "x")
        if _is_param(v):
            if self.parent is not None:
                outer = self.parent.localize(v)
                return self.lift(outer, outer.abstract, v.name)
            node = self.weights.get(id(v))
            if node is None:
                node = self.graph.add_param(v.name, weight=v)
                node.abstract = AbstractTensor(v.shape, v.dtype)
                self.weights[id(v)] = node
            return node
        if isinstance(v, Tensor):
            node = self.consts.get(id(v))
            if node is None:
                node = Constant(v)
                node.abstract = AbstractTensor(v.shape, v.dtype)
                self.consts[id(v)] = node
                self._const_refs.append(v)
            return node
        if type(v) in (tuple, list) and _is_graph_value(v):
            items = [self.localize(x) for x in v]
            node = self.graph.apply(Constant(irops.make_tuple), *items, loc=CTX.loc())
            node.abstract = AbstractTuple(_abstract_of_node(x) for x in items)
            return node
        if isinstance(v, Opaque):
            if v.builder is not self:
                raise InternalError("an opaque graph value is used outside its graph")
            return v.node
        if isinstance(v, Conflict):
            v.fail()
        if v is UNDEFINED:
            Conflict("undefined").fail()
        return Constant(v)

    def wrap(self, node):
        """The value standing for ``node``: a StagedTensor, or a tuple of them."""
        ab = node.abstract
        if isinstance(ab, AbstractTensor):
            return StagedTensor._new(node, self, ab)
        if isinstance(ab, AbstractTuple):
            out = []
            for i, e in enumerate(ab.elements):
                item = self.graph.apply(Constant(irops.tuple_getitem), node, Constant(i), loc=node.loc)
                item.abstract = e
                out.append(self.wrap(item))
            return tuple(out)
        return Opaque(node, self)

    def apply(self, fn, inputs, abstract, loc=None, debug=None):
        node = self.graph.apply(fn if isinstance(fn, Constant) else Constant(fn), *inputs,
                                loc=loc if loc is not None else CTX.loc())
        node.abstract = abstract
        if debug is not None:
            node.debug = debug
        return node

    def new_input(self, abstract, name="x"):
        """A fresh graph parameter and its value."""
        return self.wrap(self.add_param(abstract, name))


def _abstract_of_node(node):
    ab = node.abstract
    if ab is None and isinstance(node, Constant):
        return node.value
    return ab


# --- primitives --------------------------------------------------------------------------------------
def emit(prim, args, b):
    """Stage ``prim(*args)`` in builder ``b``: an apply of the primitive, its output's abstract value
    from the one abstract evaluation; a compile-time value (``infer_value``) is returned as it is."""
    from mindspore._runtime import backend
    ev = evaluate(prim, abstract_args(args), backend.current().target, need_shape=True)
    if ev.has_value:
        return ev.value
    abstract = AbstractTuple(ev.out) if ev.multi else ev.out
    node = b.apply(prim, [b.localize(a) for a in args], abstract)
    return b.wrap(node)


# --- augmented assignment in place ----------------------------------------------------------------------
_ROOT_KEY = "inplace_root"


def inplace_root(v):
    """The tensor whose storage ``v`` (the result of an augmented assignment made in place) was written into, or
    None for any other value."""
    ext = getattr(v, "_ext", None) if isinstance(v, StagedTensor) else None
    return ext.get(_ROOT_KEY) if ext else None


def inplace_update(fn, cur, value):
    """``cur op= value`` on a tensor in graph mode, done in place as MindSpore 2.10 does (its default
    ``JIT_ENABLE_AUGASSIGN_INPLACE``): the new value ``fn(cur, value)``, in ``cur``'s dtype and of ``cur``'s shape, is
    written into ``cur``'s storage at each run, so every name for that tensor sees it: an alias, the Cell attribute,
    the caller's argument, a constant tensor of the network (whose next runs read the written value, while what the
    compiler computed from it before stays as computed). A tensor the compiler computed from constants is a value
    of the run (2.10 computes it at each run), unless it only views a constant (:func:`_mark_folded`), which is
    then written. The result is the new value, ordered after the write; gradients flow through it as through
    ``fn``."""
    from mindspore._core.primitive import instance     # (the primitives by name: mindspore.ops imports this module)
    root = inplace_root(cur)
    if root is None:
        root = cur
        while True:
            ext = getattr(root, "_ext", None) if not isinstance(root, StagedTensor) else None
            if not ext or _FOLDED_KEY not in ext:
                break
            src = ext[_FOLDED_KEY]      # the constant it views, None (a value of the run) or itself (kept)
            if src is _OWN:
                break
            root = src
            if root is None:
                break
    CTX.stage_constants += 1        # a constant is read when the graph runs, not at compile time
    try:
        if root is not None and root is not cur and inplace_root(cur) is None:   # a view: read what it views
            cur = root if tuple(root.shape) == tuple(cur.shape) else instance("Reshape")(root, tuple(cur.shape))
        new = fn(cur, value)
    finally:
        CTX.stage_constants -= 1
    if tuple(new.shape) != tuple(cur.shape):
        if len(new.shape) != len(cur.shape):
            raise MSRuntimeError(f"For 'Assign', the 'x' and 'y' must have the same dimension, but got the dimension "
                                 f"of 'x': {len(cur.shape)} and the dimension of 'y': {len(new.shape)}")
        shown = [", ".join(str(d) for d in s) for s in (cur.shape, new.shape)]
        raise MSRuntimeError(f"For 'Assign', the 'x' and 'y' must have the same shape, but got the shape of 'x': "
                             f"[const vector]{{{shown[0]}}} and the shape of 'y': [const vector]{{{shown[1]}}}")
    if new.dtype != cur.dtype:
        new = instance("Cast")(new, cur.dtype)
    if root is None:
        return new
    written = new if tuple(root.shape) == tuple(cur.shape) else instance("Reshape")(new, tuple(root.shape))
    out = instance("Depend")(new, instance("Assign")(root, written))
    if isinstance(out, StagedTensor):
        ext = getattr(out, "_ext", None)
        if ext is None:
            ext = out._ext = {}
        ext[_ROOT_KEY] = root
    return out


# ``Tensor._ext`` key of a tensor computed at compile time from constants: the constant it is a view of (what
# MindSpore 2.10's graph keeps as the same tensor: a reshape to the same shape, a cast to its own dtype, ``+ 0``),
# _OWN (a constant of the graph itself), or None (a value of the run); see :func:`_mark_folded`
_FOLDED_KEY = FOLDED_KEY = "folded_view_of"
_VIEWS = frozenset(("Reshape", "ExpandDims", "Squeeze", "Flatten", "Identity", "Depend", "StopGradient"))
_OWN = object()     # the folded tensor is a constant of the graph in its own right: written, it stays written


def _mark_folded(prim, args, out):
    """Note on ``out``, a tensor computed at compile time from constants, what an in-place update of it writes
    (measured on 2.10, tests/fixtures/graph_syntax/augassign_cases.py and the model zoo's GAT): a reshape to the
    same shape, ``+ 0`` and a cast of a network constant to its own dtype are that constant (written through); a
    cast to its own dtype of a computed constant is a constant of the graph (written, it stays so from call to
    call); anything else, a reshape to another shape included, is a value of the run."""
    src = None
    first = args[0] if args else None
    if isinstance(first, Tensor) and first is not out and first.dtype == out.dtype and first.size == out.size:
        name = type(prim).__name__
        same_shape = tuple(first.shape) == tuple(out.shape)
        if name == "Cast":
            ext = getattr(first, "_ext", None)
            src = _OWN if ext and _FOLDED_KEY in ext else first
        elif (name in _VIEWS and same_shape) or (name == "Add" and len(args) == 2 and _is_zero(args[1])):
            src = first
        elif name == "Add" and len(args) == 2 and _is_zero(first) and isinstance(args[1], Tensor):
            src = args[1]
    if first is out:
        return
    ext = getattr(out, "_ext", None)
    if ext is None:
        ext = out._ext = {}
    ext.setdefault(_FOLDED_KEY, src)


def _is_zero(v):
    if type(v) in (int, float):
        return v == 0
    if isinstance(v, Tensor) and not isinstance(v, StagedTensor) and v.size == 1:
        try:
            return float(v.asnumpy().reshape(-1)[0]) == 0.0
        except Exception:  # noqa: BLE001 - a value that has no number
            return False
    return False


# --- structure helpers -----------------------------------------------------------------------------------
def flatten(v):
    """(leaves, tree) of nested tuples/lists/dicts; other values are leaves."""
    leaves = []
    return leaves, _flatten_into(v, leaves)


def _flatten_into(x, leaves):
    # (module-level, not a closure calling itself: a recursive closure is a reference cycle, which would keep the
    # leaves, a compiled call's tensors, alive until the cyclic garbage collector runs)
    t = type(x)
    if t is tuple or t is list or isinstance(x, (tuple, list)):
        return (t, [_flatten_into(e, leaves) for e in x])
    if t is dict:
        return (dict, list(x.keys()), [_flatten_into(e, leaves) for e in x.values()])
    leaves.append(x)
    return None


def unflatten(tree, leaves):
    return _build(tree, iter(leaves))


def _build(t, it):
    if t is None:
        return next(it)
    if t[0] is dict:
        return dict(zip(t[1], [_build(c, it) for c in t[2]]))
    items = [_build(c, it) for c in t[1]]
    if t[0] is tuple or t[0] is list:
        return t[0](items)
    return t[0](*items) if hasattr(t[0], "_fields") else t[0](items)


def _tensor_like(v):
    return isinstance(v, Tensor)


def _scalar(v):
    return isinstance(v, (bool, int, float)) and not isinstance(v, np.ndarray)


def _abstract_value(v):
    return AbstractTensor(v.shape, v.dtype)


def _scalar_dtype(a, b):
    if isinstance(a, bool) and isinstance(b, bool):
        return mstype.bool_
    if isinstance(a, float) or isinstance(b, float):
        return mstype.float32
    return mstype.int64


def _same_const(a, b):
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects whose == is not a bool
        return False


def _join_plan(left, right, where):
    """Per leaf: ('out', abstract) for a runtime value, ('const', v), or ('conflict', why)."""
    plan = []
    for a, b in zip(left, right):
        if isinstance(a, Conflict) or isinstance(b, Conflict):
            plan.append(("conflict", (a if isinstance(a, Conflict) else b).why))
        elif a is UNDEFINED or b is UNDEFINED:
            plan.append(("const", a) if a is b else ("conflict", "undefined"))
        elif _tensor_like(a) and _tensor_like(b):
            aa, ab = _abstract_value(a), _abstract_value(b)
            if aa.dtype != ab.dtype:
                raise MSTypeError(f"Cannot join the return values of different branches, perhaps you need to make "
                                  f"them equal.\nType Join Failed: dtype1 = {aa.dtype}, dtype2 = {ab.dtype}.\n"
                                  f"In graph mode, the {where} give a tensor of dtype {aa.dtype} and one of "
                                  f"dtype {ab.dtype} for the same variable; they must be the same.")
            if aa.shape != ab.shape:
                if len(aa.shape) != len(ab.shape):
                    from mindspore._errors import MSRankJoinError
                    raise MSRankJoinError(f"In graph mode, the {where} give a tensor of shape {aa.shape} and one "
                                          f"of shape {ab.shape} for the same variable; they must be the same.")
                # as in MindSpore, the joined shape is dynamic where they differ: known when the graph runs
                aa = AbstractTensor(tuple(x if x == y else -1 for x, y in zip(aa.shape, ab.shape)), aa.dtype)
            plan.append(("out", aa))
        elif _tensor_like(a) and _scalar(b) and a.shape == ():
            plan.append(("out", _abstract_value(a)))    # a number the graph computes (a loop's counter) and a number
        elif _tensor_like(b) and _scalar(a) and b.shape == ():
            plan.append(("out", _abstract_value(b)))
        elif (_tensor_like(a) and _scalar(b)) or (_tensor_like(b) and _scalar(a)):
            # MindSpore 2.10 joins no tensor with a Python number (measured, tests/fixtures/graph_syntax/
            # syntax_probe_cases.py); a 0-d tensor still joins one here, as it may stand for a number the graph
            # computes (2.10's variable scalars, e.g. a counter of a loop on a tensor condition)
            kinds = ["AbstractTensor" if _tensor_like(v) else "AbstractScalar" for v in (a, b)]
            number = type(b if _tensor_like(a) else a).__name__
            raise MSTypeError(f"Cannot join the return values of different branches, perhaps you need to make them "
                              f"equal.\nType Join Failed: Abstract type {kinds[0]} cannot join with {kinds[1]}.\n"
                              f"In graph mode, the {where} give a tensor and a Python {number} for the same "
                              f"variable; make both tensors or both numbers.")
        elif _same_const(a, b):
            plan.append(("const", a))
        elif _scalar(a) and _scalar(b) and {type(a), type(b)} == {int, float}:
            # MindSpore 2.10 joins no int with a float (measured, syntax_probe_cases.py)
            raise MSTypeError(f"Cannot join the return values of different branches, perhaps you need to make them "
                              f"equal.\nType Join Failed: Abstract type AbstractScalar cannot join with "
                              f"AbstractScalar ({type(a).__name__} and {type(b).__name__}).\nIn graph mode, the "
                              f"{where} give an int and a float for the same variable; make both floats.")
        elif _scalar(a) and _scalar(b):
            plan.append(("out", AbstractTensor((), _scalar_dtype(a, b))))
        else:
            plan.append(("conflict", f"{type(a).__name__} and {type(b).__name__}"))
    return plan


def _leaf_node(builder, v, abstract):
    """``v`` as a node of ``abstract`` in ``builder``'s graph (scalars become tensor constants)."""
    if _tensor_like(v):
        return builder.localize(v)
    arr = np.full(abstract.shape, v, dtype=abstract.dtype.to_numpy())
    t = Tensor._make(_from_host(arr), abstract.dtype)
    return builder.localize(t)


def _from_host(arr):
    from mindspore._runtime import backend
    return backend.from_host(arr)


def _finish_outputs(builder, leaves, plan, raises=False):
    # a branch that raises never returns: its outputs are placeholders of the joined abstract (the other
    # branch's values belong to the other graph and can not be used here)
    nodes = [_leaf_node(builder, 0 if raises else v, p[1]) for v, p in zip(leaves, plan) if p[0] == "out"]
    out = builder.apply(irops.make_tuple, nodes, AbstractTuple(p[1] for p in plan if p[0] == "out"))
    builder.graph.set_output(out)


def _align_params(builders, shared_first=0):
    """Give every builder's graph the same lifted parameters, in one order; returns the outer nodes."""
    order, seen = [], set()
    for b in builders:
        for n in b.outer:
            if n not in seen:
                seen.add(n)
                order.append(n)
    for b in builders:
        head = b.graph.params[:shared_first]
        for n in order:
            b.lift(n, n.abstract, getattr(n, "name", "x") if not isinstance(n, Apply) else "x")
        b.graph.params = head + [b.lifted[n] for n in order]
    return order


# ``Tensor._ext`` key of a 0-d tensor that stands for a Python number the graph computes (a number carried through
# a loop on a tensor condition, or two numbers joined by an ``if`` on one): MindSpore 2.10 keeps it a number, and a
# graph returns it as one (int, float or bool; see specialize)
NUMBER_KEY = "python_number"


def number_type(v):
    """The Python number type ``v`` stands for: its own for a Python number, the tagged one for a 0-d tensor the graph
    computes from numbers; None otherwise."""
    if _scalar(v):
        return type(v)
    ext = getattr(v, "_ext", None) if isinstance(v, StagedTensor) else None
    return ext.get(NUMBER_KEY) if ext else None


def _tag_number(v, kind):
    if isinstance(v, StagedTensor) and kind is not None:
        if getattr(v, "_ext", None) is None:
            v._ext = {}
        v._ext[NUMBER_KEY] = kind
        CTX.number_nodes.add(v._node)


def _joined_number(a, b):
    ka, kb = number_type(a), number_type(b)
    if ka is None or kb is None:
        return None
    if ka is kb:
        return ka
    return float if float in (ka, kb) else int


def _rebuild(parent, node, leaves, plan, tree, others=None):
    values = parent.wrap(node) if any(p[0] == "out" for p in plan) else ()
    it = iter(values)
    out = []
    for i, (v, p) in enumerate(zip(leaves, plan)):
        if p[0] == "out":
            out.append(next(it))
            if others is not None:
                _tag_number(out[-1], _joined_number(v, others[i]))
        elif p[0] == "const":
            out.append(p[1])
        else:
            out.append(Conflict(p[1]))
    return unflatten(tree, out)


# --- if on a tensor --------------------------------------------------------------------------------------
def _cond_node(builder, cond, loop=False):
    # MindSpore 2.10's words (measured): an 'if' takes a tensor of shape () or (1,), a 'while' one of one element
    if loop and cond.size != 1:
        raise MSValueError("The truth value of an array with more than one element is ambiguous.")
    if not loop and tuple(cond.shape) not in ((), (1,)):
        raise MSValueError(bool_shape_message(cond.shape))
    return builder.localize(cond)


def bool_shape_message(shape):
    """MindSpore 2.10's error for the truth value of a tensor of another shape than () or (1,)."""
    return (f"Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape is "
            f"({', '.join(str(d) for d in shape)})")


def _run_branch(builder, thunk):
    with builder:
        CTX.branch_depth += 1
        try:
            return thunk(), None
        except StagedRaise as r:
            return None, r
        finally:
            CTX.branch_depth -= 1


def build_if(cond, then_thunk, else_thunk):
    """``then_thunk() if cond else else_thunk()`` for a staged tensor ``cond``: an ``If`` apply."""
    parent = current()
    loc = CTX.loc()
    cond_node = _cond_node(parent, cond)
    bt, bf = Builder("if_true", parent), Builder("if_false", parent)
    vt, rt = _run_branch(bt, then_thunk)
    vf, rf = _run_branch(bf, else_thunk)
    if rt is not None and rf is not None:
        raise rt.exc
    if rt is not None:
        vt = vf
    if rf is not None:
        vf = vt
    vt, vf = _undefined_on_either(vt, vf)
    lt, tree = flatten(vt)
    lf, tree_f = flatten(vf)
    if tree != tree_f:
        if _none_against_structure(vt, vf):
            # None on one path and a value on the other (``ret = None`` then ``ret = (x, 1)`` in a loop on a tensor
            # condition): MindSpore 2.10 picks the value when the graph runs; here the call runs as Python
            from mindspore._errors import MSBranchValueError
            raise MSBranchValueError(f"A variable is None on one path of an 'if' on a tensor and {_describe(vt)} "
                                     f"or {_describe(vf)} on the other.")
        raise MSTypeError("Cannot join the return values of different branches, perhaps you need to make them "
                          "equal.\nIn graph mode, the two branches of an 'if' on a tensor must give values of the same "
                          f"structure, but got {_describe(vt)} and {_describe(vf)}.")
    plan = _join_plan(lt, lf, "two branches of an 'if' on a tensor")
    for b, leaves, r in ((bt, lt, rt), (bf, lf, rf)):
        if r is not None:
            b.apply(irops.raise_runtime, [Constant(r.exc)], AbstractTuple(()), loc=r.loc)
        _finish_outputs(b, leaves, plan, raises=r is not None)
    outer = _align_params([bt, bf])
    args = [cond_node, Constant(bt.graph), Constant(bf.graph)] + outer
    node = parent.apply(irops.If, args, bt.graph.output.abstract, loc=loc)
    return _rebuild(parent, node, lt, plan, tree, lf)


def _undefined_on_either(a, b):
    """``a`` and ``b`` (two branches' values) with a variable that one branch leaves undefined undefined in both:
    after the ``if`` it has no value (a tuple the other branch assigned must not make the two structures differ)."""
    if a is UNDEFINED or b is UNDEFINED:
        return UNDEFINED, UNDEFINED
    if type(a) is type(b) and type(a) in (tuple, list) and len(a) == len(b):
        pairs = [_undefined_on_either(x, y) for x, y in zip(a, b)]
        return type(a)(x for x, _ in pairs), type(b)(y for _, y in pairs)
    return a, b


def _none_against_structure(a, b):
    """Whether the first place where ``a`` and ``b`` differ in structure has None on one side."""
    if type(a) in (tuple, list) and type(b) is type(a) and len(a) == len(b):
        for x, y in zip(a, b):
            if flatten(x)[1] != flatten(y)[1]:
                return _none_against_structure(x, y)
        return False
    if type(a) is dict and type(b) is dict and list(a) == list(b):
        return any(flatten(a[k])[1] != flatten(b[k])[1] and _none_against_structure(a[k], b[k]) for k in a)
    return a is None or b is None


def _describe(v):
    if isinstance(v, (tuple, list)):
        return f"a {type(v).__name__} of {len(v)}"
    return type(v).__name__


# --- while on a tensor -----------------------------------------------------------------------------------
def _to_tensor_leaf(v):
    if _tensor_like(v):
        return v
    dtype = mstype.bool_ if isinstance(v, bool) else (mstype.float32 if isinstance(v, float) else mstype.int64)
    return Tensor._make(_from_host(np.array(v, dtype=dtype.to_numpy())), dtype)


def build_while(cond_fn, body_fn, state):
    """The loop ``while cond_fn(*s): s = body_fn(*s)`` from ``state``, for a tensor condition."""
    parent = current()
    loc = CTX.loc()
    leaves, tree = flatten(tuple(state))
    variable = [_tensor_like(v) for v in leaves]
    numbers = [number_type(v) for v in leaves]
    for _ in range(len(leaves) + 1):
        leaves = [_to_tensor_leaf(v) if var else v for v, var in zip(leaves, variable)]
        bb = Builder("while_body", parent)
        inputs = _loop_inputs(bb, leaves, variable)
        with bb:
            new_state = body_fn(*unflatten(tree, inputs))
        new_leaves, new_tree = flatten(tuple(new_state))
        if new_tree != tree:
            raise MSTypeError("In graph mode, a loop with a tensor condition must keep the structure of its "
                              "variables (tuple lengths, dict keys) from one iteration to the next.")
        widened = False
        for i, (old, new) in enumerate(zip(leaves, new_leaves)):
            if variable[i]:
                continue
            if _tensor_like(new) or (not _same_const(old, new) and _scalar(old) and _scalar(new)):
                if not _scalar(old) and not _tensor_like(old):
                    raise MSTypeError(f"In graph mode, a loop with a tensor condition changes a variable holding "
                                      f"{type(old).__name__}; only tensors and numbers can change in such a loop.")
                variable[i] = True
                widened = True
        if not widened:
            break
    else:
        raise InternalError("the loop state did not settle")
    abstracts = []
    for i, (old, new) in enumerate(zip(leaves, new_leaves)):
        if not variable[i]:
            continue
        ab = _abstract_value(old)
        if _tensor_like(new) and _abstract_value(new) != ab:
            raise MSValueError(f"In graph mode, a variable of a loop with a tensor condition changes from "
                               f"{ab.short()} to {_abstract_value(new).short()} in one iteration; its shape and "
                               f"dtype must stay the same.")
        abstracts.append(ab)
    outs = [_leaf_node(bb, new, ab) for new, ab in zip([n for n, v in zip(new_leaves, variable) if v], abstracts)]
    bb.graph.set_output(bb.apply(irops.make_tuple, outs, AbstractTuple(abstracts)))
    bc = Builder("while_cond", parent)
    inputs = _loop_inputs(bc, leaves, variable)
    with bc:
        c = cond_fn(*unflatten(tree, inputs))
        if not isinstance(c, StagedTensor):
            raise MSTypeError("In graph mode, the condition of a loop became a constant after its variables were "
                              "made tensors; write the condition on tensors.")
        bc.graph.set_output(_cond_node(bc, c, loop=True))
    n_state = len(abstracts)
    outer = _align_params([bc, bb], shared_first=n_state)
    init = [parent.localize(v) for v, var in zip(leaves, variable) if var]
    node = parent.apply(irops.While, [Constant(bc.graph), Constant(bb.graph), Constant(n_state)] + init + outer,
                        AbstractTuple(abstracts), loc=loc)
    values = iter(parent.wrap(node))
    final = [next(values) if var else v for v, var in zip(leaves, variable)]
    for v, kind in zip(final, numbers):
        _tag_number(v, kind)        # a number the loop carries stays a number (MindSpore 2.10)
    return unflatten(tree, final)


def _loop_inputs(builder, leaves, variable):
    out = []
    for v, var in zip(leaves, variable):
        out.append(builder.new_input(_abstract_value(v), "state") if var else v)
    return out
