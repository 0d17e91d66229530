"""Specialisation: one typed graph for a callable and one input signature.

:func:`specialize` makes the tensors among the call's arguments (at any depth of tuples, lists and
dicts) graph inputs, keeps every other argument a compile-time constant, evaluates the callable
under a fresh :class:`~mindspore._infer.staging.Builder`, and makes the output's tensors the graph's
output. Network Parameters the program reads become extra inputs (``weight`` parameters, read at
each run). :class:`Program` records how to feed the graph from call arguments and how to rebuild
the Python output (tuples, lists, dicts, constants) from the graph's results.
"""
from __future__ import annotations

import contextlib
import sys

import numpy as np

from mindspore._infer import staging
from mindspore._infer.abstract import AbstractTensor, AbstractTuple
from mindspore._infer.interpret import _Located
from mindspore._infer.staging import CTX, Builder, StagedRaise, flatten
from mindspore._ir import ops as irops
from mindspore._ir.nodes import UNDEFINED
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["specialize", "Program", "session"]

#: Python frames the interpreter uses for one nested call of the user's code (measured: at most 7)
_FRAMES_PER_CALL = 10


class Program:
    """A specialised graph and how it meets Python: ``inputs`` (argument leaf index of each graph
    input, in order), ``weights`` (the Parameters fed after them), the output tree and leaf plan."""

    def __init__(self, graph, input_leaves, weights, out_tree, out_plan, out_dtypes, state=(), state_plan=(),
                 number_writes=(), input_writes=()):
        self.graph = graph
        self.input_leaves = input_leaves
        self.weights = weights
        self.out_tree = out_tree
        self.out_plan = out_plan          # per output leaf: ("graph", k), ("input", arg leaf) or ("const", value)
        self.out_dtypes = out_dtypes      # dtype of each graph output
        self.state = tuple(state)         # (obj, name, python type): number attributes fed after the arguments
        self.state_plan = tuple(state_plan)   # per state entry: ("graph", k), ("const", value) or None (unchanged)
        self.number_writes = tuple(number_writes)  # [obj, name, value before] the function assigned at compile time
        self.guards = ()                  # (obj, name, value compiled with, value after a call): see the compiler
        self.input_writes = tuple(input_writes)  # (arg leaf, k): an in-place method updated that input (x.add_(y))
        self.scalar_outputs = {}          # k -> int/float/bool: a graph output computed from mutable scalars alone
        # it changed a caller's list in place, or replaced a tensor attribute at compile time: compiled again at
        # every call
        self.outer_writes = False


@contextlib.contextmanager
def session():
    """Compile-time isolation: a fresh position stack (no gradient tape records while staging: the builders
    sit above the tapes on the interpreter stack and hand constants to the eager base)."""
    saved_locs, saved_depth, saved_copies, saved_writes = CTX.locs, CTX.branch_depth, CTX.copies, CTX.outer_writes
    saved_constexpr, saved_cells, saved_attr_writes = CTX.constexpr_values, CTX.cells, CTX.tensor_attr_writes
    saved_attrs_set, saved_number_nodes = CTX.attrs_set, CTX.number_nodes
    CTX.locs, CTX.branch_depth, CTX.copies, CTX.outer_writes = [], 0, {}, {}
    CTX.tensor_attr_writes, CTX.attrs_set, CTX.number_nodes = False, set(), set()
    CTX.constexpr_values, CTX.cells = {}, []
    try:
        yield
    except _Located as located:
        raise located.error.with_traceback(None) from None
    except StagedRaise as r:
        raise r.exc from None
    finally:
        CTX.locs, CTX.branch_depth, CTX.copies, CTX.outer_writes = saved_locs, saved_depth, saved_copies, \
            saved_writes
        CTX.constexpr_values, CTX.cells, CTX.tensor_attr_writes = saved_constexpr, saved_cells, saved_attr_writes
        CTX.attrs_set, CTX.number_nodes = saved_attrs_set, saved_number_nodes


def _is_mutable_scalar(v):
    return getattr(v, "__ms_mutable__", False) and isinstance(v, (int, float)) and not isinstance(v, Tensor)


#: what a value computed from ``mutable`` numbers alone may go through and stay a Python number (as in MindSpore,
#: where such values are scalars: ``mutable(1) + mutable(2)`` returns 3, ``mutable(1) * tensor`` a Tensor)
_SCALAR_ARITHMETIC = frozenset((
    "Add", "Sub", "Mul", "Div", "RealDiv", "FloorDiv", "FloorMod", "Mod", "Pow", "Neg", "Abs", "Maximum", "Minimum",
    "Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr", "LogicalNot",
    "Cast", "ScalarAdd", "ScalarSub", "ScalarMul", "ScalarDiv", "ScalarFloorDiv", "ScalarMod", "ScalarPow"))


def _scalar_type(node, scalar_inputs, memo):
    """The Python type of ``node`` when it is computed from mutable-number inputs and number constants alone, by
    arithmetic (None otherwise: a tensor input, a weight or any other operation makes it a Tensor)."""
    from mindspore._ir.nodes import Apply, Constant
    if node in memo:
        return memo[node]
    memo[node] = None
    result = None
    if node in scalar_inputs:
        result = True
    elif isinstance(node, Constant):
        result = isinstance(node.value, (int, float, bool, np.generic)) or None
    elif isinstance(node, Apply) and isinstance(node.inputs[0], Constant):
        prim = node.inputs[0].value
        name = getattr(prim, "name", None)
        if name in _SCALAR_ARITHMETIC and all(_scalar_type(i, scalar_inputs, memo) for i in node.inputs[1:]
                                              if not (name == "Cast" and isinstance(i, Constant))):
            result = True
    if result and getattr(node, "abstract", None) is not None and not isinstance(node, Constant):
        spec = node.abstract
        if getattr(spec, "shape", None) != ():
            result = None
        else:
            result = bool if spec.dtype == mstype.bool_ else float if spec.dtype in mstype.float_type else int
    memo[node] = result
    return result


def _input_value(builder, v):
    if isinstance(v, Tensor) and not hasattr(v, "_name"):
        return builder.new_input(AbstractTensor(v.shape, v.dtype), "x")
    if _is_mutable_scalar(v):
        dtype = mstype.float32 if isinstance(v, float) else mstype.int64
        return builder.new_input(AbstractTensor((), dtype), "x")
    return None


@contextlib.contextmanager
def _carried(top, state):
    """Number attributes (``state``: ``(obj, name)`` pairs) hold graph inputs while ``fn`` is evaluated, and get
    their values back after; yields the ``(obj, name, python type)`` of each and the CTX records."""
    saved_state, saved_writes = staging.CTX.state, staging.CTX.number_writes
    staging.CTX.state, staging.CTX.number_writes = {}, {}
    entries, restore = [], []
    try:
        for obj, attr in state:
            value = getattr(obj, attr)
            kind = float if isinstance(value, float) else int
            restore.append((obj, attr, value))
            dtype = mstype.float32 if kind is float else mstype.int64
            object.__setattr__(obj, attr, top.new_input(AbstractTensor((), dtype), attr))
            staging.CTX.state[(id(obj), attr)] = (obj, attr)
            entries.append((obj, attr, kind))
        yield entries
    finally:
        writes = staging.CTX.number_writes
        for obj, attr, value in restore:
            object.__setattr__(obj, attr, value)
        staging.CTX.state, staging.CTX.number_writes = saved_state, saved_writes
        staging.CTX.last_number_writes = list(writes.values())


@contextlib.contextmanager
def _room_for_call_depth():
    """Room on Python's stack for ``max_call_depth`` (``ms.set_recursion_limit``) nested calls of the user's code,
    which the interpreter evaluates in Python: MindSpore's limit, not Python's, is the one a deep recursion meets
    (a recursion 500 calls deep compiles, as in MindSpore)."""
    import mindspore.context as context
    before = sys.getrecursionlimit()
    need = min(_FRAMES_PER_CALL * context.get_context("max_call_depth") + 2000, 200_000)
    if need <= before:
        yield
        return
    sys.setrecursionlimit(need)
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def check_unique_names(params):
    """A graph tells its Parameters apart by name (its checkpoint, its gradients): two with one name are an error,
    as in MindSpore."""
    from mindspore.common.parameter import first_shared_name
    same = first_shared_name(params)
    if same is not None:
        from mindspore._errors import MSRuntimeError
        raise MSRuntimeError(f"The parameter {same} , its name '{same.name}' already exists. Please set a unique "
                             f"name for the parameter.")


def specialize(fn, args, kwargs=None, name="graph", call=None, state=()):
    """The :class:`Program` of ``fn(*args, **kwargs)`` with tensors as inputs.

    ``call(fn, args, kwargs)`` evaluates the callable (default: the interpreter's ``call_value``). ``state``:
    ``(obj, name)`` pairs of number attributes the function assigns, carried through the graph as inputs and
    outputs (the program's ``state``; its ``number_writes`` lists the ones assigned when ``state`` is empty).
    """
    from mindspore._infer.interpret import call_value
    call = call or call_value
    top = Builder(name)
    leaves, tree = flatten((tuple(args), dict(kwargs or {})))
    staged, inputs = [], []
    with session(), _room_for_call_depth(), top:
        for i, v in enumerate(leaves):
            s = _input_value(top, v)
            if s is None:
                staged.append(v)
            else:
                staged.append(s)
                inputs.append(i)
        entry_nodes = {i: staged[i]._node for i in inputs if isinstance(staged[i], staging.StagedTensor)}
        with _carried(top, state) as carried:
            s_args, s_kwargs = staging.unflatten(tree, staged)
            out = call(fn, s_args, s_kwargs)
            finals = [getattr(obj, attr) for obj, attr, _ in carried]
        outer_writes = dict(CTX.outer_writes)
        recompile = bool(outer_writes) or CTX.tensor_attr_writes
        if outer_writes:
            out = _outer_lists(out, outer_writes)
        out_leaves, out_tree = flatten(out)
        out_tree = _plain_tree(out_tree)
        plan, nodes, dtypes, number_outputs = [], [], [], {}
        input_of = {node: i for i, node in entry_nodes.items()}
        for v in out_leaves:
            if isinstance(v, staging.StagedTensor) and v._builder is top and v._node in input_of and \
                    not _is_mutable_scalar(leaves[input_of[v._node]]):
                plan.append(("input", input_of[v._node]))      # returned unchanged: the caller's own object
            elif staging._is_param(v):
                plan.append(("const", v))                      # a Parameter returned as is
            elif staging._is_graph_value(v):
                node = top.localize(v)
                if isinstance(v, staging.StagedTensor) and staging.number_type(v) is not None:
                    number_outputs[len(nodes)] = staging.number_type(v)     # a number the graph computes
                plan.append(("graph", len(nodes)))
                nodes.append(node)
                dtypes.append(node.abstract.dtype)
            elif isinstance(v, staging.Conflict):
                v.fail()
            elif v is UNDEFINED:
                raise staging.unbound_error()       # returned where it has no value
            elif isinstance(v, np.generic):
                plan.append(("const", v.item()))              # a NumPy scalar leaves a graph as a Python one
            elif isinstance(v, _Outer):
                plan.append(("const", v.obj))                 # the caller's list an in-place method changed
            elif _is_mutable_scalar(v):
                plan.append(("const", type(v).__mro__[1](v)))  # ``mutable(2)`` leaves a graph as a plain number
            else:
                plan.append(("const", v))
        state_plan = []
        for (obj, attr, kind), v in zip(carried, finals):
            if isinstance(v, staging.StagedTensor):
                node = top.localize(v)
                if node in top.graph.params:
                    state_plan.append(None)                    # read, never assigned
                    continue
                state_plan.append(("graph", len(nodes)))
                nodes.append(node)
                dtypes.append(node.abstract.dtype)
            else:
                state_plan.append(("const", v))
        input_writes = []
        for i, node in entry_nodes.items():
            if staged[i]._node is not node:             # rebound by an in-place method: the caller's tensor too
                input_writes.append((i, len(nodes)))
                nodes.append(top.localize(staged[i]))
                dtypes.append(nodes[-1].abstract.dtype)
        scalar_inputs = {staged[i]._node for i in inputs if _is_mutable_scalar(leaves[i])}
        scalar_inputs |= {node for node in CTX.number_nodes if getattr(node, "graph", None) is top.graph}
        scalar_outputs = dict(number_outputs)
        if scalar_inputs:
            memo = {}
            for kind, k in plan:
                if kind == "graph":
                    pytype = _scalar_type(nodes[k], scalar_inputs, memo)
                    if pytype not in (None, True):
                        scalar_outputs[k] = pytype
        out_node = top.apply(irops.make_tuple, nodes, AbstractTuple(n.abstract for n in nodes))
        top.graph.set_output(out_node)
    weights = [p.weight for p in top.graph.params if p.weight is not None]
    check_unique_names(weights)
    program = Program(top.graph, inputs, weights, out_tree, plan, dtypes, carried, state_plan,
                      staging.CTX.last_number_writes, input_writes)
    program.scalar_outputs = scalar_outputs
    program.outer_writes = recompile
    return program


def _plain_tree(tree):
    """``tree`` (see staging.flatten) with the sequence types of ``mutable`` made plain: a graph returns a tuple or a
    list (MindSpore 2.10)."""
    if tree is None:
        return None
    kind = tree[0]
    if getattr(kind, "__ms_mutable__", False):
        kind = tuple if issubclass(kind, tuple) else list
    if kind is dict:
        return (dict, tree[1], [_plain_tree(c) for c in tree[2]])
    return (kind, [_plain_tree(c) for c in tree[1]])


class _Outer:
    """A caller's list returned by a graph (a leaf of the output, returned as that object)."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


def _outer_lists(out, writes):
    """``out`` with the graph-local copies of the caller's lists an in-place method changed replaced by
    :class:`_Outer` leaves of those lists (in tuples, lists and dicts)."""
    hit = writes.get(id(out))
    if hit is not None and hit[0] is out:
        return _Outer(hit[1])
    if type(out) in (tuple, list):
        return type(out)(_outer_lists(x, writes) for x in out)
    if type(out) is dict:
        return {k: _outer_lists(v, writes) for k, v in out.items()}
    return out

