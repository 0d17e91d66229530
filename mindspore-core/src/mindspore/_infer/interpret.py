"""Inference: evaluating untyped graphs on abstract values, which builds the typed graph.

Algorithm
---------
:func:`call_graph` evaluates a parsed graph's applies in program order in a :class:`Frame` (values
by node; a closure's frame links to the frame it was made in, where its free variables live). The
values are ordinary Python objects and :class:`~mindspore._infer.staging.StagedTensor` s, so the IR's
Python-level ops are Python itself (``getattr``, ``+``, indexing...), with the language's own
dispatch: an operator on a staged tensor calls the Tensor method, which applies a primitive, which
:func:`~mindspore._infer.staging.emit` stages. What only the compiler can do is done here:

* ``switch`` on a staged tensor gives a value that, called, builds an ``If`` (both branches are
  evaluated in child builders); on anything else it picks the branch now, so constant conditions
  fold and the other branch is never even evaluated;
* ``while_loop`` unrolls while its condition is a constant and builds a ``While`` when it is a
  tensor; ``for_loop`` unrolls over a sequence of static length (a range, tuple, list, CellList,
  the first axis of a tensor, zip/enumerate of those);
* calls: closures and the user's own functions, methods and Cells are evaluated from their parsed
  graphs (so tensor control flow in them works); MindSpore's library, NumPy, builtins, ``constexpr``
  functions and primitives are called directly (library code is written as compositions of
  primitives around compile-time Python, so calling it on staged tensors stages its primitives).
* Python ``float`` values are float32 in a graph, as in MindSpore 2.10 (its ``FP32Imm``): every float
  constant, argument and computed value is rounded to float32 (:func:`_f32`), so ``0.1 + 0.2 == 0.3``
  holds, ``1 / 3`` is 0.3333333432674408, and ``x * (1.0 / self.d ** 0.5)`` scales a tensor by 2.10's
  float32 factor (a float64 tensor too). Rounding after each double operation of float32 operands is
  float32 arithmetic for ``+ - * /`` (a double holds the exact sum or product of two float32s to
  well within one rounding).

Each evaluated user node's source position is kept on a stack, so every staged apply carries the
innermost user position, and any error is reported at the user's file:line:col with a caret.
"""
from __future__ import annotations

import builtins
import functools
import itertools
import operator
import types

import mindspore.context as _context
from mindspore._core.primitive import float32_number
from mindspore._errors import InternalError, MSRuntimeError, MSTypeError, MSValueError, locate_error
from mindspore._ir import ops as irops
from mindspore._ir.nodes import UNDEFINED, Constant, Graph
from mindspore._infer import staging
from mindspore._infer.staging import CTX, Conflict, StagedRaise, StagedTensor, build_if, build_while
from mindspore._parse import parser as _parser
from mindspore._parse.resolve import SourceUnavailable, Symbol, is_library_function
from mindspore.common.tensor import Tensor

__all__ = ["Closure", "call_value", "call_graph", "construct_cell", "custom_bprop", "parseable"]

_MAX_ITERATIONS = staging.MAX_UNROLL


class Frame:
    __slots__ = ("graph", "values", "parent")

    def __init__(self, graph, values, parent):
        self.graph = graph
        self.values = values
        self.parent = parent


class Closure:
    """A parsed graph with the frame its free variables live in; callable from Python too."""

    __slots__ = ("graph", "frame", "defaults", "kwdefaults", "__weakref__")

    def __init__(self, graph, frame=None, defaults=(), kwdefaults=()):
        self.graph = graph
        self.frame = frame
        self.defaults = tuple(defaults)
        self.kwdefaults = tuple(kwdefaults)

    def __call__(self, *args, **kwargs):
        return call_graph(self, args, kwargs)

    def __repr__(self):
        return f"<graph function {self.graph.name}>"


class _TensorSwitch:
    """``switch`` on a staged condition: calling it builds the ``If``."""

    __slots__ = ("cond", "on_true", "on_false")

    def __init__(self, cond, on_true, on_false):
        self.cond, self.on_true, self.on_false = cond, on_true, on_false

    def __call__(self):
        return build_if(self.cond, lambda: self.on_true(), lambda: self.on_false())


# --- frames and values -------------------------------------------------------------------------------
def _frame_of(graph, frame):
    f = frame
    while f is not None and f.graph is not graph:
        f = f.parent
    if f is None:
        raise InternalError(f"no frame of @{graph.name} is live for a closure")
    return f


def _f32(v):
    """A Python number as a graph holds it (MindSpore 2.10): a float rounded to float32, and a tuple's floats;
    anything else as it is."""
    t = type(v)
    if t is float:
        return float32_number(v)
    if t is tuple and v and any(type(x) in (float, tuple) for x in v):
        return tuple(_f32(x) for x in v)
    return v


def _lookup(node, frame):
    if type(node) is Constant:
        v = node.value
        t = type(v)
        if t is float or t is tuple:
            return _f32(v)
        if t is Graph:
            return Closure(v, _frame_of(v.parent, frame) if v.parent is not None else None)
        if t is Symbol:
            found, value = v.resolve()
            if not found:
                from mindspore._errors import graph_syntax_error
                locs = [loc for loc in CTX.locs[:-1] if loc is not None] + [node.loc]
                err = graph_syntax_error(f"The name '{v.name}' is not defined, or not supported in graph mode.",
                                         None, "name")
                raise _Located(locate_error(err, locs)) from None
            if type(value) in (list, dict, set):
                return CTX.graph_local(value)   # a graph never mutates the caller's containers
            return _f32(value)
        return v
    f = frame
    while f is not None:
        vals = f.values
        if node in vals:
            return vals[node]
        f = f.parent
    raise InternalError(f"{node!r} has no value in this frame")


def _bind(closure, args, kwargs, bound=False):
    g = closure.graph
    sig = g.signature
    if sig is None:   # a block of the parser (branch, loop body): positional parameters only
        if len(args) != len(g.params) or kwargs:
            raise InternalError(f"@{g.name} takes {len(g.params)} arguments, got {len(args)}")
        return list(args)
    fn = g.pyfunc if closure.frame is None else None
    defaults = closure.defaults
    kwdefaults = dict(zip(sig.kw_defaults, closure.kwdefaults))
    if fn is not None:
        defaults = fn.__defaults__ or ()
        kwdefaults = fn.__kwdefaults__ or {}
    name = g.pyfunc.__name__ if g.pyfunc is not None else g.name
    names = sig.names
    # MindSpore 2.10's words first (it does not count a method's ``self``), then Python's; the compiled function
    # itself (not a call inside it) is worded differently again
    top = not CTX.locs
    qualname = g.pyfunc.__qualname__ if g.pyfunc is not None else g.name
    n_given = len(args) + len(kwargs or {}) - bound
    values = {}
    if len(args) > len(names) and sig.vararg is None:
        python = f"{qualname}() takes {len(names)} positional arguments but {len(args)} were given."
        if top:
            raise MSTypeError(f"Function {name} needs {len(names) - len(defaults)} positional argument and "
                              f"{len(defaults)} default argument, total {len(names)}, but got {len(args)}.\n{python}")
        if not defaults:
            raise MSTypeError(f"The parameters number of the function is {len(names) - bound}, but the number of "
                              f"provided arguments is {n_given}.\n{python}")
        raise MSRuntimeError(f"Function:{name} takes {len(names)} positional arguments, but {len(args)} were "
                             f"given.\n{python}")
    for n, a in zip(names, args):
        values[n] = a
    extra = {}
    for k, v in (kwargs or {}).items():
        if k in values:
            raise MSTypeError(f"Multiply values for specific argument: {k}\n{qualname}() got multiple values for "
                              f"argument '{k}'.")
        if k in names or k in sig.kwonly:
            values[k] = v
        elif sig.kwarg is not None:
            extra[k] = v
        elif top:
            raise MSTypeError(f"got an unexpected keyword argument '{k}'\n{qualname}() got an unexpected keyword "
                              f"argument '{k}'.")
        else:
            raise MSRuntimeError(f"Got an unexpected keyword argument '{k}'\n{qualname}() got an unexpected "
                                 f"keyword argument '{k}'.")
    first_default = len(names) - len(defaults)
    out = []
    for i, n in enumerate(names):
        if n in values:
            out.append(values[n])
        elif i >= first_default:
            out.append(defaults[i - first_default])
        elif top:
            raise MSTypeError(f"Function {name} needs {first_default} positional argument, but got {len(args)}.\n"
                              f"{qualname}() missing required argument: '{n}'.")
        elif not defaults and sig.vararg is None and not sig.kwonly:
            raise MSTypeError(f"The parameters number of the function is {len(names) - bound}, but the number of "
                              f"provided arguments is {n_given}.\n{qualname}() missing required argument: '{n}'.")
        else:
            raise MSTypeError(f"{qualname}() missing required argument: '{n}'.")
    if sig.vararg is not None:
        out.append(tuple(args[len(names):]))
    for n in sig.kwonly:
        if n in values:
            out.append(values[n])
        elif n in kwdefaults:
            out.append(kwdefaults[n])
        else:
            raise MSRuntimeError(f"Miss argument input for parameter:{n}\n{qualname}() missing required keyword-only "
                                 f"argument: '{n}'.")
    if sig.kwarg is not None:
        out.append(extra)
    return out


def call_graph(closure, args, kwargs=None, bound=False):
    """Evaluate a parsed graph on ``args``; returns its value."""
    g = closure.graph
    frame = Frame(g, dict(zip(g.params, map(_f32, _bind(closure, args, kwargs, bound)))), closure.frame)
    locs = CTX.locs
    locs.append(None)
    depth = len(locs)
    if depth > _context.get_context("max_call_depth"):   # ms.set_recursion_limit
        locs.pop()
        _call_depth_exceeded(depth)
    try:
        for node in g.nodes:
            locs[depth - 1] = node.loc
            v = _eval(node, frame)
            frame.values[node] = _f32(v) if type(v) is float or type(v) is tuple else v
        locs[depth - 1] = g.output.loc if g.output.loc is not None else locs[depth - 1]
        return _lookup(g.output, frame)
    except (StagedRaise, _Located):
        raise
    except Exception as exc:  # noqa: BLE001 - every failure is reported at the user's position
        located = locate_error(exc, [loc for loc in locs if loc is not None])
        if located is exc:
            raise
        raise _Located(located) from None
    finally:
        locs.pop()


def _call_depth_exceeded(depth):
    limit = _context.get_context("max_call_depth")
    msg = (f"Exceed function call depth limit {limit}, (function call depth: {depth}).\n"
           "It's always happened with complex construction of code or infinite recursion or loop.\n"
           "Please check the code if it's has the infinite recursion or call "
           "'mindspore.set_recursion_limit(recursion_limit=value)' to adjust this value.")
    if staging.current().parent is not None:     # inside an 'if'/'while' on a tensor: its value may end the recursion
        from mindspore._errors import MSCallDepthError
        raise MSCallDepthError(msg)
    raise MSRuntimeError(msg)


class _Located(Exception):
    """Carries an error already reported at the user's position up through the interpreter frames."""

    def __init__(self, error):
        super().__init__(error)
        self.error = error


def _eval(node, frame):
    inputs = node.inputs
    fn = _lookup(inputs[0], frame)
    args = [_lookup(x, frame) for x in inputs[1:]]
    if type(fn) is irops.IROp:
        impl = _PYOPS.get(fn)
        if impl is None:
            raise InternalError(f"no inference rule for IR op {fn.name}")
        if fn not in _PASS_THROUGH:
            _check_defined(args)
        return impl(*args)
    _check_defined(args)
    return call_value(fn, args)


def _check_defined(args):
    for a in args:
        if a is UNDEFINED:
            raise staging.unbound_error()
        if type(a) is Conflict:
            a.fail()


# --- calls -----------------------------------------------------------------------------------------------
def parseable(fn):
    """Whether ``fn`` is the user's own Python function (evaluated from its parsed graph)."""
    return (isinstance(fn, types.FunctionType) and not getattr(fn, "__ms_constexpr__", False)
            and not getattr(fn, "__ms_jit__", False) and not is_library_function(fn))


def _parsed(fn):
    try:
        return _parser.parse(fn)
    except SourceUnavailable:
        return None


def call_value(fn, args, kwargs=None):
    """Call ``fn`` during inference (parsed when it is user code, directly otherwise)."""
    t = type(fn)
    if t is Closure:
        return call_graph(fn, args, kwargs)
    if t is _TensorSwitch:
        return fn()
    if fn is builtins.print:
        return _staged_print(args, kwargs or {})
    if fn is bool and len(args) == 1 and isinstance(args[0], StagedTensor):
        return _tensor_truth(args[0])
    if fn is round and args and type(args[0]) is StagedTensor and not kwargs:
        return _round_tensor(*args)
    if fn is type and len(args) == 1 and type(args[0]) is StagedTensor and not kwargs:
        return Tensor       # a tensor the graph computes is a Tensor to the user's code (as in MindSpore 2.10)
    seq_builtin = _SEQUENCE_BUILTINS.get(fn) if t is type else None
    if seq_builtin is not None:
        return seq_builtin(*args, **(kwargs or {}))
    if t is types.MethodType:
        func = fn.__func__
        if parseable(func):
            g = _parsed(func)
            if g is not None:
                return call_graph(Closure(g), (fn.__self__,) + tuple(args), kwargs, bound=True)
    elif t is types.FunctionType and parseable(fn):
        g = _parsed(fn)
        if g is not None:
            return call_graph(Closure(g), tuple(args), kwargs)
    inner = getattr(fn, "__ms_jit_fn__", None)
    if inner is not None:
        if t is types.MethodType:    # a @jit method of a plain object: the raw function still takes ``self``
            args = (fn.__self__,) + tuple(args)
        return call_value(inner, args, kwargs)
    if not callable(fn):
        from mindspore._errors import MSTypeValueError
        raise MSTypeValueError(f"The object is not callable. Please check code.\n'{type(fn).__name__}' object is not "
                               f"callable: it has no __call__ function.")
    if getattr(fn, "__ms_constexpr__", False) and CTX.constexpr_values is not None:
        return _constexpr_value(fn, args, kwargs)
    return fn(*args, **(kwargs or {}))


def _round_tensor(x, ndigits=None):
    """``round(x)`` of a tensor the graph computes: MindSpore 2.10 rounds it (halves to even); a number of digits
    other than 0 is its error."""
    if ndigits not in (None, 0):
        raise MSRuntimeError(f"For Round only support decimals equal 0, but got decimals equal {ndigits}")
    from mindspore.ops import functional as F
    return F.round(x)


def _constexpr_value(fn, args, kwargs):
    """A ``constexpr`` call during a compilation: evaluated once per call site, Cell instance and arguments (see
    ``CTX.constexpr_values``); arguments that cannot be keyed are evaluated at every call."""
    cell = CTX.cells[-1] if CTX.cells else None
    kw = tuple(sorted((kwargs or {}).items()))
    key = (fn, CTX.loc(), id(cell), tuple(args), kw, tuple(type(a) for a in args))   # the types: 1 == True
    try:
        hit = CTX.constexpr_values.get(key)
    except TypeError:       # an unhashable argument
        return fn(*args, **(kwargs or {}))
    if hit is None:
        # the Cell is kept with the value, so that its id is not reused by another Cell during the compilation
        hit = CTX.constexpr_values[key] = (fn(*args, **(kwargs or {})), cell)
    return hit[0]


# In graph mode ``map``/``zip``/``enumerate``/``range`` give tuples (``map`` a list on a list) and ``filter`` a
# list, computed when called (python_builtin_functions.md); the function ``map``/``filter`` apply is parsed.
def _graph_map(fn, *seqs):
    out = [call_value(fn, items) for items in zip(*seqs)]
    return out if seqs and isinstance(seqs[0], list) else tuple(out)


def _graph_filter(fn, seq):
    return [x for x in seq if _truth(x if fn is None else call_value(fn, (x,)))]


_SEQUENCE_BUILTINS = {
    builtins.map: _graph_map, builtins.filter: _graph_filter,
    builtins.zip: lambda *seqs: tuple(zip(*seqs)),
    builtins.enumerate: lambda seq, start=0: tuple(enumerate(seq, start)),
    builtins.range: lambda *bounds: tuple(range(*bounds)),
}


def construct_cell(cell, args, kwargs):
    """A Cell's ``construct`` on staged values: evaluated from its parsed graph if it is user code."""
    construct = getattr(type(cell), "construct", None)
    if isinstance(construct, types.FunctionType) and (parseable(construct) or
                                                      getattr(type(cell), "_ms_parse_construct", False)):
        g = _parsed(construct)
        if g is not None:
            CTX.cells.append(cell)
            try:
                return call_graph(Closure(g), (cell,) + tuple(args), kwargs)
            finally:
                CTX.cells.pop()
    return cell.construct(*args, **(kwargs or {}))


def custom_bprop(cell):
    """The ``bprop`` a Cell class defines (``None``: autodiff differentiates its construct)."""
    for klass in type(cell).__mro__:
        if "bprop" in klass.__dict__:
            return klass.__dict__["bprop"]
        if klass.__module__.startswith("mindspore.nn.cell"):
            return None
    return None


def _staged_print(args, kwargs):
    from mindspore.ops import operations as P
    items = []
    for a in args:
        if isinstance(a, (Tensor, str)) or (isinstance(a, (int, float, bool)) and not isinstance(a, Tensor)):
            items.append(a)
        elif isinstance(a, (tuple, list)) and a and all(isinstance(x, Tensor) for x in a):
            items.extend(a)
        else:
            items.append(str(a))
    if not items:
        items = [""]
    P.Print()(*items)
    return None


# --- the Python-level IR ops -------------------------------------------------------------------------
def _truth(v):
    if type(v) is Conflict:
        v.fail()
    return bool(v)


def _switch(cond, on_true, on_false):
    if isinstance(cond, StagedTensor):
        return _TensorSwitch(cond, on_true, on_false)
    return on_true if _truth(cond) else on_false


def _static_items(seq):
    if isinstance(seq, (tuple, list)):
        return tuple(seq)
    if isinstance(seq, dict):
        return tuple(seq.keys())
    try:
        return tuple(seq)
    except TypeError:
        # MindSpore 2.10's words, with its names of Python's number types
        shown = {int: "int64", float: "float32", type(None): "none"}.get(type(seq), type(seq).__name__)
        raise MSTypeError(f"'{shown}' object is not iterable\nIn graph mode, a for loop needs a sequence of static "
                          f"length (a range, tuple, list, dict, CellList or tensor), but got "
                          f"{type(seq).__name__}.") from None


def _while_loop(cond_c, body_c, init):
    state = tuple(init)
    for _ in range(_MAX_ITERATIONS):
        c = cond_c(*state)
        if isinstance(c, StagedTensor):
            return build_while(lambda *s: cond_c(*s), lambda *s: body_c(*s), state)
        if not _truth(c):
            return state
        state = tuple(body_c(*state))
    raise MSRuntimeError(f"In graph mode, a while loop on a compile-time condition ran more than {_MAX_ITERATIONS} "
                         f"iterations while compiling; use a tensor condition for a loop that long.")


def _for_loop(body_c, seq, init):
    state = tuple(init)
    for item in _static_items(seq):
        state = tuple(body_c(item, *state))
    return state


def _unpack(seq, n, star):
    items = _static_items(seq)
    if star < 0:
        if len(items) != n:
            word = "not enough" if len(items) < n else "too many"
            raise MSValueError(f"{word} values to unpack (expected {n}, got {len(items)})")
        return items
    after = n - star - 1
    if len(items) < n - 1:
        raise MSValueError(f"not enough values to unpack (expected at least {n - 1}, got {len(items)})")
    return items[:star] + (list(items[star:len(items) - after]),) + items[len(items) - after:]


def _setitem(obj, index, value):
    if isinstance(obj, (list, dict)):
        obj[index] = value
        return obj
    if isinstance(obj, Tensor):
        from mindspore.ops.function._indexing import tensor_setitem_value
        new = tensor_setitem_value(obj, index, value)
        if staging._is_param(obj):
            # ``p[i] = v`` (``p[i] += v``) on a network Parameter writes it, as MindSpore 2.10's graph mode does
            from mindspore.ops import functional as F
            F.assign(obj, new)
            return obj
        return new
    obj[index] = value
    return obj


def _getitem(obj, index):
    """``obj[index]``, with MindSpore 2.10's errors for an index out of a tuple or list and a key not in a dict."""
    t = type(obj)
    if (t is tuple or t is list) and type(index) is int:
        n = len(obj)
        if not -n <= index < n:
            from mindspore._errors import MSIndexError
            raise MSIndexError(f"{'TupleGetItem' if t is tuple else 'list_getitem'} evaluator index should be in "
                               f"range[{-n}, {n}), but got {index}.")
    elif t is dict:
        try:
            found = index in obj
        except TypeError:       # an unhashable key: Python's error
            found = True
        if not found:
            raise MSValueError(f"The key {index} does not exist in the dict:{obj}")
    return obj[index]


def _number_division(op, zero):
    def divide(a, b):
        try:
            return op(a, b)
        except ZeroDivisionError:
            raise MSValueError(zero) from None      # MindSpore 2.10's words for a Python number divided by zero
    return divide


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _setattr(obj, name, value):
    import mindspore.context as context
    if context._ctx["jit_syntax_level"] == context.STRICT and not staging._is_param(value):
        raise MSTypeError(f"In JIT strict mode, an attribute set in graph mode must be of the Parameter type, but "
                          f"'{name}' of {type(obj).__name__} is set to {type(value).__name__}.")
    current = getattr(obj, name, None) if not isinstance(obj, type) else None
    key = (id(obj), name)
    staging.CTX.attrs_set.add(key)
    if current is not None and staging.inplace_root(value) is current and key not in staging.CTX.state:
        return None     # ``self.t += x`` on a tensor attribute (or Parameter): written in place already
    if staging._is_param(current) and not staging._is_param(value):
        # ``self.weight = x`` on a Parameter attribute updates the Parameter (MindSpore's graph mode: Assign)
        _assign_parameter(current, value)
        return None
    if key in staging.CTX.state:
        # a number attribute carried through the graph: the staged value (or a Python number) is its new value
        if not (_is_number(value) or (isinstance(value, staging.StagedTensor) and value.shape == ())):
            raise MSTypeError(f"In graph mode, the attribute '{name}' of {type(obj).__name__} holds a number that "
                              f"the graph updates at each call; it can not be set to {type(value).__name__}.")
        object.__setattr__(obj, name, value)
        return None
    if _is_number(value) and not isinstance(obj, type) and _is_number(getattr(obj, name, None)):
        staging.CTX.number_writes.setdefault(key, [obj, name, getattr(obj, name)])
    if staging._is_graph_value(value) and not isinstance(value, (tuple, list)) and not staging._is_param(value):
        from mindspore._errors import MSTensorAttributeError
        raise MSTensorAttributeError(
            f"In graph mode, a tensor computed by the graph can not be stored in the attribute '{name}' of "
            f"{type(obj).__name__}; return it instead (or update a Parameter with ops.assign).")
    if isinstance(value, Tensor) and isinstance(current, Tensor) and not staging._is_param(current):
        # a tensor attribute replaced by a tensor computed at compile time (``self.t = self.t * 2``): MindSpore 2.10
        # sets it at every call, and the next call reads the new value; here the program is compiled again then
        staging.CTX.tensor_attr_writes = True
    setattr(obj, name, value)
    return None


def _assign_parameter(param, value):
    from mindspore.ops import functional as F
    if not isinstance(value, Tensor):
        import numpy as np
        value = Tensor(np.asarray(value, dtype=param.dtype.to_numpy()))
    if value.dtype != param.dtype:
        value = F.cast(value, param.dtype)
    F.assign(param, value)


def _tensor_truth(v, negated=False):
    """``bool(x)`` (``not x``) of a staged tensor: a boolean tensor (MindSpore's graph-mode truth value); other
    shapes than one element raise 2.10's error for each."""
    from mindspore.ops import functional as F
    from mindspore.common import dtype as mstype
    if negated and tuple(v.shape) not in ((), (1,)):
        raise MSValueError(staging.bool_shape_message(v.shape))
    if v.size != 1:
        raise MSValueError("The truth value of an array with more than one element is ambiguous.")
    return v if v.dtype == mstype.bool_ else F.not_equal(v, 0)


def _not(v):
    if isinstance(v, StagedTensor):
        from mindspore.ops import functional as F
        return F.logical_not(_tensor_truth(v, negated=True))
    return not _truth(v)


def _raise(exc):
    if exc is None:
        raise MSRuntimeError("In graph mode, a bare 'raise' (re-raise) is not supported.")
    if isinstance(exc, type) and issubclass(exc, BaseException):
        exc = exc()
    if CTX.branch_depth > 0:
        raise StagedRaise(exc, CTX.loc())
    raise exc


def _assert(cond, msg):
    exc = AssertionError(msg) if msg is not None else AssertionError()
    if isinstance(cond, StagedTensor):
        build_if(cond, lambda: None, lambda: _raise(exc))
        return None
    if not _truth(cond):
        _raise(exc)
    return None


def _holds_staged(v):
    if isinstance(v, StagedTensor):
        return True
    if type(v) in (tuple, list):
        return any(_holds_staged(x) for x in v)
    if type(v) is dict:
        return any(_holds_staged(x) for x in v.values())
    return False


def _format_value(v, conversion, spec):
    if _holds_staged(v):
        # f"{x}" on a tensor the graph computes: MindSpore 2.10 formats its value when the graph runs (JIT fallback);
        # here the call runs as Python
        raise staging._compile_time_only("The value of a tensor formatted in an f-string")
    if conversion == 115:
        v = str(v)
    elif conversion == 114:
        v = repr(v)
    elif conversion == 97:
        v = ascii(v)
    return format(v, spec)


def _make_function(closure, defaults, kwdefaults):
    return Closure(closure.graph, closure.frame, defaults, kwdefaults)


def _dict_merge(*ds):
    out = {}
    for d in ds:
        out.update(d)
    return out


def _list_append(lst, v):
    lst.append(v)


def _call_ex(fn, args, kwargs):
    return call_value(fn, tuple(args), dict(kwargs))


def _getattr(obj, name, *default):
    if type(obj) is StagedTensor and name in ("shape", "size") and -1 in obj.shape:
        # a shape known only when the graph runs (the branches of an 'if' on a tensor gave it different shapes):
        # MindSpore reads it at run time; here the call runs as Python, where it is known (JIT fallback)
        from mindspore._errors import MSValueUnavailableError
        raise MSValueUnavailableError(f"In graph mode, the {name} of this tensor, {obj.shape}, is known only when "
                                      f"the graph runs.")
    if isinstance(obj, dict) and name in _DICT_METHODS:
        return functools.partial(_DICT_METHODS[name], obj)
    if type(obj) is list and name in _LIST_IN_PLACE:
        return functools.partial(_list_in_place, obj, name)
    value = builtins.getattr(obj, name, *default)
    if type(value) is list and hasattr(obj, "_cells") and (id(obj), name) not in CTX.attrs_set:
        # a Cell's list attribute is a copy made at each read (MindSpore 2.10): ``self.l.append(v)``, ``.clear()`` and
        # ``self.l[i] = v`` leave the attribute as it was (the last rebinds ``self.l`` in the function: see the
        # parser's rebind_item); extend, pop, reverse and insert change it, as they do a global list (_list_in_place)
        return CTX.read_copy(value)
    return value


# static_graph.md, "Supporting List Inplace Modification Operations": with JIT_SYNTAX_LEVEL LAX, these methods
# change a global or closure list itself (the graph returns that very object); append, clear and item assignment
# change the graph's copy only, as does every method under STRICT
_LIST_IN_PLACE = frozenset(("extend", "pop", "reverse", "insert"))


def _list_in_place(local, name, *args):
    result = builtins.getattr(local, name)(*args)
    original = CTX.outer_of(local)
    if original is not None and _context._ctx["jit_syntax_level"] != _context.STRICT and \
            not staging._is_graph_value(list(args)) and not staging._is_graph_value(local):
        builtins.getattr(original, name)(*args)
        CTX.outer_writes[id(local)] = (local, original)
    return result


# graph-mode dicts (static_graph.md, "Dictionary"): ``has_key``; ``keys()``/``values()`` give tuples and
# ``items()`` a list of pairs, snapshots taken when called (not live views)
_DICT_METHODS = {"has_key": dict.__contains__, "keys": lambda d: tuple(d.keys()),
                 "values": lambda d: tuple(d.values()), "items": lambda d: list(d.items())}


def _is(a, b):
    return a is b


def _is_not(a, b):
    return a is not b


def _in(a, b):
    if isinstance(a, StagedTensor) and isinstance(b, (tuple, list)):
        return _tensor_in_sequence(a, b)
    return a in b


def _not_in(a, b):
    if isinstance(a, StagedTensor) and isinstance(b, (tuple, list)):
        found = _tensor_in_sequence(a, b)
        return not found if isinstance(found, bool) else ~found
    return a not in b


def _tensor_in_sequence(x, seq):
    """``x in seq`` for a one-element tensor known at run time only: Python's ``any(e is x or e == x)``, as a
    0-d bool tensor of the graph (MindSpore's ``in`` on a sequence does the same)."""
    if x.size != 1:
        raise MSValueError(f"In graph mode, 'in' on a sequence needs a tensor with one element, but got shape "
                           f"{x.shape}.")
    if any(e is x for e in seq):
        return True
    found = None
    for e in seq:
        hit = (x == e).reshape(())
        found = hit if found is None else found | hit
    return False if found is None else found


_PYOPS = {
    irops.getattr_: _getattr, irops.setattr_: _setattr, irops.getitem: _getitem,
    irops.setitem: _setitem, irops.make_tuple: lambda *a: a, irops.make_list: list,
    irops.make_dict: lambda keys, *vals: dict(zip(keys, vals)), irops.make_slice: slice,
    irops.tuple_getitem: operator.getitem, irops.unpack: _unpack, irops.call_ex: _call_ex,
    irops.not_: _not, irops.switch: _switch, irops.while_loop: _while_loop, irops.for_loop: _for_loop,
    irops.raise_: _raise, irops.assert_: _assert, irops.format_value: _format_value,
    irops.join_str: lambda *parts: "".join(parts), irops.super_: builtins.super, irops.truth: _truth,
    _parser.MAKE_FUNCTION: _make_function, _parser.STAR_CONCAT: lambda *parts: tuple(itertools.chain(*parts)),
    _parser.DICT_MERGE: _dict_merge, _parser.LIST_APPEND: _list_append,
}
_BIN = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
        "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "matmul": operator.matmul,
        "lshift": operator.lshift, "rshift": operator.rshift, "bitand": operator.and_, "bitor": operator.or_,
        "bitxor": operator.xor, "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
        "gt": operator.gt, "ge": operator.ge, "is": _is, "is_not": _is_not, "in": _in, "not_in": _not_in}
_BIN["truediv"] = _number_division(operator.truediv, "The divisor could not be zero. But the divisor is zero now.")
_BIN["floordiv"] = _number_division(operator.floordiv, "The divisor could not be zero. But the divisor is zero now.")
_BIN["mod"] = _number_division(operator.mod, "Cannot perform modulo operation on zero.")
for _name, _op in irops.BINARY.items():
    _PYOPS[_op] = _BIN[_name]
# the operators MindSpore 2.10 applies in place to a tensor target (its ``augassign_*`` with an Inplace* primitive)
_IN_PLACE = frozenset(("add", "sub", "mul", "truediv", "floordiv", "mod"))


def _augassign_op(name):
    op = _BIN[name]
    if name not in _IN_PLACE:
        return op

    def augassign(cur, value):
        if isinstance(cur, Tensor) and (isinstance(value, Tensor) or type(value) in (bool, int, float)):
            return staging.inplace_update(op, cur, value)
        return op(cur, value)
    return augassign


for _name, _op in irops.AUGASSIGN.items():
    _PYOPS[_op] = _augassign_op(_name)
_PYOPS[irops.UNARY["neg"]] = operator.neg
_PYOPS[irops.UNARY["pos"]] = operator.pos
_PYOPS[irops.UNARY["invert"]] = operator.invert
# ops that carry values along without using them (a variable unbound on one path may pass through)
_PASS_THROUGH = frozenset([irops.make_tuple, irops.tuple_getitem, irops.while_loop, irops.for_loop, irops.make_list])
