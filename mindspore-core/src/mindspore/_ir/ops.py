"""The IR's own operations: Python semantics (parser output) and structure (typed graphs).

Primitives (``ops.Mul()``...) are the IR's computations; these ops are the glue around them.

Untyped graphs (parser output) use the Python-level ops: attribute and item access, the
operators, tuple/list/dict/slice construction, calls with ``*args``/``**kwargs`` (``call_ex``),
and the control-flow ops:

* ``switch(cond, g_true, g_false)`` picks a graph; the parser calls the result with no
  arguments (the branches are closures);
* ``while_loop(g_cond, g_body, state)``: ``state`` is the tuple of loop-carried variables,
  ``g_cond(*state)`` the test and ``g_body(*state)`` the next state;
* ``for_loop(g_body, seq, state)``: ``g_body(item, *state)`` for each item of a sequence of
  static length (unrolled by inference).

Typed graphs (inference output) use only the structural ops below, around primitive applies:
``make_tuple``/``tuple_getitem``, ``If(cond, g_true, g_false, *args)`` (closed branch graphs with
the same parameters), ``While(g_cond, g_body, n_state, *state, *invariants)``, and the two ops
reverse mode makes of a ``While``: ``while_stack`` (the forward loop, also returning the stack of
per-iteration states) and ``while_grad`` (the backward loop over that stack).
"""
from __future__ import annotations

__all__ = ["IROp", "BY_NAME"]

BY_NAME = {}


class IROp:
    """One IR-level operation. ``pure``: no side effect, so CSE/DCE/folding may touch it."""

    __slots__ = ("name", "pure", "doc")

    def __init__(self, name, pure=True, doc=""):
        self.name = name
        self.pure = pure
        self.doc = doc
        BY_NAME[name] = self

    def __repr__(self):
        return self.name

    def __reduce__(self):
        return (BY_NAME.__getitem__, (self.name,))


# --- Python semantics (untyped graphs) ------------------------------------------------------------
getattr_ = IROp("getattr")
setattr_ = IROp("setattr", pure=False)
getitem = IROp("getitem")
setitem = IROp("setitem", pure=False)
make_list = IROp("make_list")
make_dict = IROp("make_dict")
make_slice = IROp("make_slice")
unpack = IROp("unpack", doc="unpack(seq, n, star_index): the n targets of an unpacking assignment")
call_ex = IROp("call_ex", pure=False, doc="call_ex(fn, args_tuple, kwargs_dict)")
truth = IROp("truth", doc="the truth value of a condition")
not_ = IROp("not")
switch = IROp("switch")
while_loop = IROp("while_loop", pure=False)
for_loop = IROp("for_loop", pure=False)
raise_ = IROp("raise", pure=False)
assert_ = IROp("assert", pure=False)
format_value = IROp("format_value")
join_str = IROp("join_str")
super_ = IROp("super")

BINARY = {name: IROp(name) for name in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lshift", "rshift", "bitand",
    "bitor", "bitxor", "eq", "ne", "lt", "le", "gt", "ge", "is", "is_not", "in", "not_in")}
UNARY = {name: IROp(name) for name in ("neg", "pos", "invert")}
# ``x op= y`` on a name or an attribute: the operator, done in place when ``x`` is a tensor (see
# :func:`mindspore._infer.staging.inplace_update`); impure, as it may write ``x``'s storage
AUGASSIGN = {name: IROp("augassign_" + name, pure=False) for name in (
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lshift", "rshift", "bitand", "bitor",
    "bitxor")}

# --- structure (both stages) -------------------------------------------------------------------------
make_tuple = IROp("make_tuple")
tuple_getitem = IROp("tuple_getitem")

# --- control flow and autodiff (typed graphs) ------------------------------------------------------
If = IROp("If", pure=False)
While = IROp("While", pure=False)
while_stack = IROp("while_stack", pure=False)
while_grad = IROp("while_grad", pure=False)
raise_runtime = IROp("raise_runtime", pure=False, doc="raise a prepared exception when executed")


class CustomCall:
    """Payload of a call whose derivative is user-given (a Cell with ``bprop``): ``graph`` computes the
    forward on the call's arguments; autodiff runs ``bprop`` instead of differentiating ``graph``."""

    __slots__ = ("graph", "cell", "n_args", "single")

    def __init__(self, graph, cell, n_args, single=False):
        self.graph = graph
        self.cell = cell
        self.n_args = n_args
        self.single = single    # the cell returns one tensor (not a tuple)

    @property
    def graphs(self):
        return (self.graph,)

    def __repr__(self):
        return f"CustomCall[{type(self.cell).__name__}.bprop]"


class Composite:
    """Payload of a call kept whole for an exporter: a Cell that has a single-node form in an exchange format
    (``nn.LSTM`` as ONNX ``LSTM``). Only export's capture makes these (``Cell._export_composite``); ``graph``
    computes the call on its arguments, and every compile for running inlines it like any graph call."""

    __slots__ = ("graph", "name", "attrs", "cell", "in_tree", "in_leaves", "tensor_leaves", "out_tree")

    def __init__(self, graph, name, attrs, cell, in_tree, in_leaves, tensor_leaves, out_tree):
        self.graph = graph
        self.name = name
        self.attrs = dict(attrs)
        self.cell = cell
        self.in_tree = in_tree              # the call's (args, kwargs) structure (``staging.flatten``)
        self.in_leaves = in_leaves          # its leaves: the tensor leaves are the call's first inputs, in order
        self.tensor_leaves = tensor_leaves  # indices of those tensor leaves
        self.out_tree = out_tree            # the structure of its result; the graph returns the leaves

    @property
    def graphs(self):
        return (self.graph,)

    def __repr__(self):
        return f"Composite[{self.name}]"
