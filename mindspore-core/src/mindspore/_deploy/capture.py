"""Capturing a network for export: one flat, typed graph of primitives, with dynamic dimensions made symbolic.

``capture(net, *inputs)`` compiles ``net`` (a Cell, in its current train/eval mode, or a function) the way
GRAPH_MODE does - parse, infer, then the target-independent passes ``inline``, ``unread_writes``,
``constant_fold``, ``simplify``, ``cse`` and ``dce`` - and hands exporters a :class:`Captured`: the graph, its inputs (named
after ``construct``'s arguments), its weights (named by ``Parameter.name``) and its outputs. Python
scalars among the inputs are folded into the graph as constants, as MindSpore's export does.

Dynamic dimensions. An input given as ``Tensor(shape=[None, 3, 32, 32], dtype=ms.float32)`` has a
dimension of unknown size. The graph compiler is statically shaped, so the network is captured several
times with different sizes for it, and every number of the graph that changes with them - a ``Reshape``
target, a ``Tile`` multiple, a node's output shape - is fitted as a polynomial in the unknown sizes, a
:class:`Sym` (``B``, ``5*B``, ``B*S``), checked on one more capture. Exporters write a ``Sym`` as a shape
computation (ONNX ``Shape``/``Gather``/``Mul``) or as ``-1``. Unknown dimensions at the same axis of
different inputs are one symbol (a batch of ids and its mask share ``B``). A network whose structure
changes with the size (a Python ``if`` on ``x.shape[0]``) is refused with a clear error.

Composite layers. With ``composites=True`` a Cell that has an exchange-format form (``nn.LSTM``,
``nn.GRU``, ``nn.RNN``: ``Cell._export_composite``) stays one call whose payload is an
:class:`~mindspore._ir.ops.Composite` naming the form and its attributes.
"""
from __future__ import annotations

import contextlib
import inspect
import itertools

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore._infer import staging
from mindspore._infer.abstract import AbstractTensor, AbstractTuple
from mindspore._infer.specialize import specialize
from mindspore._ir import ops as irops
from mindspore._ir.nodes import Apply, Constant, Graph, Parameter
from mindspore._pipeline import cse, dce, fold, simplify, unread_writes
from mindspore._pipeline._util import each_graph
from mindspore._pipeline.inline import inline_graph
from mindspore.common.tensor import Tensor

__all__ = ["capture", "Captured", "Input", "Weight", "Sym", "SymFill", "TensorShape"]

#: Sizes tried for an unknown dimension: the base size, the step between captures.
_BASE, _STEP = 7, 4
#: Unknown dimensions allowed (2 ** n captures are made).
MAX_SYMBOLS = 4


class Sym:
    """An integer that depends on unknown dimension sizes: ``sum(coef * prod(symbols))``, multilinear.

    ``terms`` maps a sorted tuple of symbol names (``()`` for the constant) to its integer coefficient.
    """

    __slots__ = ("terms",)

    def __init__(self, terms):
        self.terms = {k: int(v) for k, v in sorted(terms.items()) if v}

    @classmethod
    def symbol(cls, name):
        return cls({(name,): 1})

    @property
    def symbols(self):
        return sorted({s for key in self.terms for s in key})

    def evaluate(self, sizes):
        """Its value for ``sizes`` (symbol name -> int)."""
        total = 0
        for key, coef in self.terms.items():
            v = coef
            for s in key:
                v *= sizes[s]
            total += v
        return total

    def is_symbol(self):
        """``Sym`` is exactly one symbol (``B``), not an expression of it."""
        return len(self.terms) == 1 and next(iter(self.terms.items()))[1] == 1 and \
            len(next(iter(self.terms))) == 1

    def __eq__(self, other):
        return isinstance(other, Sym) and self.terms == other.terms

    def __hash__(self):
        return hash(tuple(self.terms.items()))

    def __repr__(self):
        parts = []
        for key, coef in self.terms.items():
            if not key:
                parts.append(str(coef))
            else:
                prod = "*".join(key)
                parts.append(prod if coef == 1 else f"{coef}*{prod}")
        return " + ".join(parts).replace("+ -", "- ") or "0"


class SymFill:
    """A constant tensor filled with one value whose shape depends on unknown sizes (zeros of
    ``(1, B, H)``): ``value`` (a NumPy scalar of its dtype), ``dtype`` (MindSpore's), ``shape``."""

    __slots__ = ("value", "dtype", "shape")

    def __init__(self, value, dtype, shape):
        self.value = value
        self.dtype = dtype
        self.shape = tuple(shape)

    def __eq__(self, other):
        return isinstance(other, SymFill) and (self.value, self.dtype, self.shape) == \
            (other.value, other.dtype, other.shape)

    def __hash__(self):
        return hash((float(self.value), str(self.dtype), self.shape))

    def __repr__(self):
        return f"SymFill({self.value!r}, {self.dtype}, {self.shape})"


class TensorShape(tuple):
    """The shape of a node: ints, and :class:`Sym` for dimensions that depend on unknown sizes."""

    __slots__ = ()

    @property
    def static(self):
        return all(isinstance(d, int) for d in self)

    def with_unknown(self, unknown=-1):
        """The shape with every symbolic dimension written as ``unknown``."""
        return tuple(d if isinstance(d, int) else unknown for d in self)


class Input:
    """One graph input: ``name`` (from ``construct``'s signature), its parameter ``node``, ``dtype`` and
    ``shape`` (a :class:`TensorShape`; unknown dimensions are their :class:`Sym` symbol)."""

    __slots__ = ("name", "node", "dtype", "shape")

    def __init__(self, name, node, dtype, shape):
        self.name, self.node, self.dtype, self.shape = name, node, dtype, shape

    def __repr__(self):
        return f"Input({self.name}, {self.dtype}, {list(self.shape)})"


class Weight:
    """One network Parameter the graph reads: ``name`` (``Parameter.name``), its parameter ``node`` and
    the ``parameter`` itself (its value is what an exporter writes)."""

    __slots__ = ("name", "node", "parameter")

    def __init__(self, name, node, parameter):
        self.name, self.node, self.parameter = name, node, parameter

    def __repr__(self):
        return f"Weight({self.name}, {self.parameter.dtype}, {list(self.parameter.shape)})"


class Captured:
    """A captured network. ``graph`` is flat (no graph calls but :class:`~mindspore._ir.ops.Composite`
    ones when asked for) and typed; ``graph.params`` are the ``inputs``' nodes then the ``weights'``.

    ``outputs`` are the nodes of the output leaves, in order (``graph.output`` is their ``make_tuple``);
    ``out_tree`` their structure (:func:`mindspore._infer.staging.unflatten`). ``symbols`` maps each
    unknown size's name to the (input index, axis) pairs it is the size of.

    Values that depend on unknown sizes are read through :meth:`shape`, :meth:`arg` and :meth:`attr`,
    which return them with :class:`Sym` (and :class:`SymFill` for filled tensors) in place.
    """

    def __init__(self, name, graph, inputs, weights, outputs, out_tree, symbols, sym_args, sym_attrs,
                 sym_shapes):
        self.name = name
        self.graph = graph
        self.inputs = inputs
        self.weights = weights
        self.outputs = outputs
        self.out_tree = out_tree
        self.symbols = symbols
        self._sym_args = sym_args        # (id(apply), input index) -> value with Syms
        self._sym_attrs = sym_attrs      # (id(apply), attr name) -> value with Syms
        self._sym_shapes = sym_shapes    # id(node) -> TensorShape or tuple of them
        self.training = False            # the Cell's train/eval mode when it was captured

    @property
    def dynamic(self):
        return bool(self.symbols)

    def shape(self, node):
        """The output shape of ``node`` (a :class:`TensorShape`, or a tuple of them for a tuple value)."""
        hit = self._sym_shapes.get(id(node))
        if hit is not None:
            return hit
        return _static_shape(node.abstract)

    def arg(self, node, index):
        """Input ``index`` (1-based, as in ``node.inputs``) of apply ``node``: a node, or its constant
        value with :class:`Sym` where it depends on unknown sizes."""
        hit = self._sym_args.get((id(node), index))
        if hit is not None:
            return hit
        x = node.inputs[index]
        return x.value if isinstance(x, Constant) else x

    def attr(self, node, name, default=None):
        """Primitive attribute ``name`` of apply ``node``, with :class:`Sym` where it depends on unknown sizes."""
        hit = self._sym_attrs.get((id(node), name))
        if hit is not None:
            return hit
        prim = node.inputs[0].value
        return getattr(prim, "attrs", {}).get(name, default)

    def applies(self):
        """The graph's applies in program order."""
        return list(self.graph.nodes)


def _static_shape(abstract):
    if isinstance(abstract, AbstractTensor):
        return TensorShape(abstract.shape)
    if isinstance(abstract, AbstractTuple):
        return tuple(_static_shape(e) for e in abstract.elements)
    return None


# --- capturing ----------------------------------------------------------------------------------------------
@contextlib.contextmanager
def _composites(on):
    """Export's capture: Cells with an exchange-format form kept whole when ``on``; primitives MindSpore lacks
    staged as their ``export_expand`` always."""
    saved = staging.CTX.composites, staging.CTX.exporting
    staging.CTX.composites, staging.CTX.exporting = on, True
    try:
        yield
    finally:
        staging.CTX.composites, staging.CTX.exporting = saved


def _optimize(graph):
    each_graph(graph, lambda g: inline_graph(g, keep_composite=True))
    for p in (unread_writes.run, fold.run, simplify.run, cse.run, dce.run):
        p(graph)
    return graph


def _arg_names(net, n_leaves, args):
    """Input names from ``construct``'s (or the function's) parameters; ``x_1`` ... for nested inputs."""
    fn = net.construct if hasattr(net, "construct") and hasattr(net, "cells_and_names") else net
    try:
        params = [p for p in inspect.signature(fn).parameters.values()]
    except (TypeError, ValueError):
        params = []
    names = []
    pos = 0
    for p in params:
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            while pos < len(args):
                names.extend(_leaf_names(f"{p.name}_{pos}", args[pos]))
                pos += 1
            break
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD) or pos >= len(args):
            break
        names.extend(_leaf_names(p.name, args[pos]))
        pos += 1
    while pos < len(args):
        names.extend(_leaf_names(f"input_{pos}", args[pos]))
        pos += 1
    return names


def _leaf_names(name, value):
    leaves, _ = staging.flatten(value)
    if len(leaves) == 1 and not isinstance(value, (tuple, list, dict)):
        return [name]
    return [f"{name}_{i}" for i in range(len(leaves))]


def _symbols_of(args, dim_names):
    """name -> [(leaf index, axis)] of the unknown dimensions among the tensor leaves of ``args``: ``-1``
    dimensions of data-less inputs and the (leaf index, axis) keys of ``dim_names``, which name them."""
    leaves, _ = staging.flatten(tuple(args))
    symbols = {}
    for i, v in enumerate(leaves):
        if not isinstance(v, Tensor) or hasattr(v, "_name"):
            continue
        for axis, d in enumerate(v.shape):
            name = dim_names.get((i, axis))
            if name is None and d == -1 and v._data is None:
                name = "B" if axis == 0 else f"D{axis}"
            if name is not None:
                symbols.setdefault(str(name), []).append((i, axis))
    return symbols


def _concrete(args, sizes, symbols):
    """``args`` with each tensor leaf replaced by a data-less stand-in of the given sizes."""
    leaves, tree = staging.flatten(tuple(args))
    where = {(i, axis): name for name, places in symbols.items() for i, axis in places}
    out = []
    for i, v in enumerate(leaves):
        if isinstance(v, Tensor) and not hasattr(v, "_name"):
            shape = [sizes[where[(i, a)]] if (i, a) in where else d for a, d in enumerate(v.shape)]
            out.append(Tensor._placeholder(shape, v.dtype))
        else:
            out.append(v)
    return staging.unflatten(tree, out)


def _trace(fn, args, name, composites):
    with _composites(composites):
        program = specialize(fn, tuple(args), {}, name=name)
    _optimize(program.graph)
    return program


def capture(net, *inputs, name=None, composites=False, dim_names=None):
    """Capture ``net(*inputs)`` as a :class:`Captured` (see the module's documentation).

    ``dim_names`` ({(input leaf index, axis): name}) makes those dimensions unknown too, named (ONNX's
    ``dynamic_axes``); ``composites`` keeps layers with an exchange-format form whole.
    """
    if not inputs:
        raise MSValueError("For 'export', at least one input must be given to capture the network's graph.")
    is_cell = hasattr(net, "cells_and_names") and hasattr(net, "construct")
    if not is_cell and not callable(net):
        raise MSTypeError(f"For 'export', the 'net' must be a Cell or a function, but got {type(net).__name__}.")
    fn = net._call_eagerly_or_staged if is_cell else net
    graph_name = name or (f"{type(net).__name__}_construct" if is_cell else getattr(net, "__name__", "graph"))
    symbols = _symbols_of(inputs, dim_names or {})
    if len(symbols) > MAX_SYMBOLS:
        raise MSValueError(f"For 'export', at most {MAX_SYMBOLS} distinct unknown dimensions are supported, but the "
                           f"inputs have {len(symbols)}: {sorted(symbols)}.")
    order = sorted(symbols)
    corners = list(itertools.product((0, 1), repeat=len(order)))
    traces = []
    for corner in corners:
        sizes = {s: _BASE + _STEP * c for s, c in zip(order, corner)}
        traces.append((sizes, _trace(fn, _concrete(inputs, sizes, symbols), graph_name, composites)))
    base = traces[0][1]
    leaves, _ = staging.flatten(tuple(inputs))
    names = _arg_names(net, len(leaves), inputs)
    g = base.graph
    n_inputs = len(base.input_leaves)
    sym_args, sym_attrs, sym_shapes = {}, {}, {}
    if symbols:
        check_sizes = {s: _BASE + 3 * _STEP for s in order}
        check = _trace(fn, _concrete(inputs, check_sizes, symbols), graph_name, composites)
        _Fitter(order, traces, (check_sizes, check), graph_name).fit(sym_args, sym_attrs, sym_shapes)
    input_nodes = g.params[:n_inputs]
    input_syms = {(i, axis): Sym.symbol(s) for s, places in symbols.items() for i, axis in places}
    ins = []
    for k, (leaf, node) in enumerate(zip(base.input_leaves, input_nodes)):
        shape = TensorShape(input_syms.get((leaf, a), d) for a, d in enumerate(node.abstract.shape))
        node.name = names[leaf] if leaf < len(names) else f"input_{k}"
        sym_shapes[id(node)] = shape
        ins.append(Input(node.name, node, node.abstract.dtype, shape))
    weights = [Weight(p.weight.name, p, p.weight) for p in g.params[n_inputs:]]
    for w in weights:
        w.node.name = w.name
    outputs = []
    param_of_leaf = dict(zip(base.input_leaves, input_nodes))
    for kind, k in base.out_plan:
        # an input returned as it is (``return logits, probs, labels``) is an output of the graph, as in 2.10
        node = g.output.inputs[1 + k] if kind == "graph" else param_of_leaf.get(k) if kind == "input" else None
        if kind == "const" and isinstance(k, Tensor) or isinstance(node, Constant) and isinstance(node.value, Tensor):
            # a Tensor made in construct (``return Tensor(...)``, ``ops.ones(...)``): a constant output, which
            # 2.10 writes as a Constant node of the file's graph
            node = _constant_output(k if kind == "const" else node.value)
        elif kind == "const" and _python_constant(k):
            node = Constant(k)      # ``return 3``, ``return (x, 2)``: 2.10 writes it as a Constant node too
        if node is None or isinstance(node, Constant) and not (isinstance(node.value, Tensor) or
                                                               _python_constant(node.value)):
            what = "an input returned unchanged" if kind == "input" else "a constant (it does not depend on the inputs)"
            raise MSValueError(f"For 'export', every output of the network must be computed by its graph, but output "
                               f"{len(outputs)} is {what}.")
        outputs.append(node)
    captured = Captured(graph_name, g, ins, weights, outputs, base.out_tree, symbols, sym_args, sym_attrs, sym_shapes)
    captured.training = bool(getattr(net, "training", False)) if is_cell else False
    return captured


def _python_constant(v):
    """A Python value MindSpore 2.10 writes as a MindIR Constant output (and loads back as that value)."""
    if v is None or type(v) in (bool, int, float, str):
        return True
    return type(v) in (tuple, list) and all(_python_constant(e) for e in v)


def _constant_output(value):
    node = Constant(value)
    node.abstract = AbstractTensor(tuple(value.shape), value.dtype)
    return node


# --- fitting the values that change with the unknown sizes ------------------------------------------------------
class _Fitter:
    """Walks the captures in step and fits every value that differs between them."""

    def __init__(self, order, traces, check, name):
        self.order = order
        self.traces = traces
        self.check = check
        self.name = name

    def _structure_error(self, what):
        return MSValueError(
            f"For 'export', the graph of '{self.name}' changes with the size of its unknown dimensions "
            f"({', '.join(self.order)}): {what}. Export it with a static input shape, or make the network's "
            "structure independent of that size.")

    def fit(self, sym_args, sym_attrs, sym_shapes):
        graphs = [t.graph for _, t in self.traces] + [self.check[1].graph]
        sizes = [s for s, _ in self.traces] + [self.check[0]]
        first = graphs[0]
        for g in graphs[1:]:
            if len(g.nodes) != len(first.nodes) or len(g.params) != len(first.params):
                raise self._structure_error(f"{len(first.nodes)} nodes with one size, {len(g.nodes)} with another")
        for i, node in enumerate(first.nodes):
            others = [g.nodes[i] for g in graphs]
            self._same_callee(node, [o.inputs[0] for o in others])
            for j in range(1, len(node.inputs)):
                xs = [o.inputs[j] for o in others]
                if isinstance(node.inputs[j], Constant):
                    if not all(isinstance(x, Constant) for x in xs):
                        raise self._structure_error(f"input {j} of {_describe(node)} is not always a constant")
                    v = self._value([x.value for x in xs], sizes, f"input {j} of {_describe(node)}")
                    if v is not _SAME:
                        sym_args[(id(node), j)] = v
            prim = node.inputs[0].value if isinstance(node.inputs[0], Constant) else None
            attrs = getattr(prim, "attrs", None)
            if isinstance(attrs, dict):
                for key in attrs:
                    vals = [getattr(o.inputs[0].value, "attrs", {}).get(key) for o in others]
                    v = self._value(vals, sizes, f"attribute '{key}' of {_describe(node)}")
                    if v is not _SAME:
                        sym_attrs[(id(node), key)] = v
            shapes = [_static_shape(o.abstract) for o in others]
            v = self._value(shapes, sizes, f"the shape of {_describe(node)}")
            if v is not _SAME:
                sym_shapes[id(node)] = _as_shape(v)

    def _same_callee(self, node, callees):
        f0 = callees[0]
        if isinstance(f0, Constant):
            v0 = f0.value
            for f in callees[1:]:
                v = f.value if isinstance(f, Constant) else None
                if type(v) is not type(v0) or getattr(v, "name", None) != getattr(v0, "name", None):
                    raise self._structure_error(f"{_describe(node)} calls something else with another size")

    def _value(self, values, sizes, what):
        """The common value, ``_SAME`` when all are equal, else the fitted value with Syms."""
        if all(_equal(values[0], v) for v in values[1:]):
            return _SAME
        return self._fit(values, sizes, what)

    def _fit(self, values, sizes, what):
        v0 = values[0]
        if isinstance(v0, bool) or v0 is None or isinstance(v0, (str, float)):
            raise self._structure_error(f"{what} is {values[0]!r} with one size and {values[1]!r} with another")
        if isinstance(v0, (int, np.integer)):
            if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
                raise self._structure_error(f"{what} changes type with the size")
            return self._poly([int(v) for v in values], sizes, what)
        if isinstance(v0, (tuple, list)):
            if not all(type(v) is type(v0) and len(v) == len(v0) for v in values):
                raise self._structure_error(f"{what} changes length with the size")
            parts = []
            for k in range(len(v0)):
                items = [v[k] for v in values]
                parts.append(items[0] if all(_equal(items[0], x) for x in items[1:])
                             else self._fit(items, sizes, f"{what}[{k}]"))
            return type(v0)(parts) if not isinstance(v0, TensorShape) else TensorShape(parts)
        if isinstance(v0, Tensor):
            arrays = [v.asnumpy() for v in values]
            fills = [a.reshape(-1)[0] if a.size and (a == a.reshape(-1)[0]).all() else None for a in arrays]
            if any(f is None for f in fills) or any(f != fills[0] for f in fills[1:]):
                raise self._structure_error(f"{what} is a constant tensor whose values change with the size")
            shape = self._fit([tuple(a.shape) for a in arrays], sizes, f"the shape of {what}")
            return SymFill(fills[0], v0.dtype, shape)
        raise self._structure_error(f"{what} is {values[0]!r} with one size and {values[1]!r} with another")

    def _poly(self, values, sizes, what):
        """Fit the multilinear polynomial through the 2**n corner captures, check it on the last capture."""
        order = self.order
        n = len(order)
        corners = list(itertools.product((0, 1), repeat=n))
        # the corner values of symbol s are _BASE and _BASE + _STEP; solve in the basis prod(size_s)
        rows = []
        for c in corners:
            row = []
            for subset in corners:
                term = 1
                for s, bit, use in zip(order, c, subset):
                    if use:
                        term *= _BASE + _STEP * bit
                row.append(term)
            rows.append(row)
        coefs = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(values[:len(corners)], dtype=np.float64))
        terms = {}
        for subset, coef in zip(corners, coefs):
            r = round(float(coef))
            if abs(coef - r) > 1e-6:
                raise self._structure_error(f"{what} ({values}) is not a whole-number function of the sizes")
            terms[tuple(s for s, use in zip(order, subset) if use)] = r
        sym = Sym(terms)
        if sym.evaluate(sizes[-1]) != values[-1]:
            raise self._structure_error(f"{what} ({values}) is not a polynomial of degree one in each size")
        return sym


_SAME = object()


def _equal(a, b):
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
            return False
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        return bool(np.array_equal(a.asnumpy(), b.asnumpy(), equal_nan=True))
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return type(a) is type(b) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (Graph, Apply, Parameter)):
        return True
    try:
        return bool(a == b) and type(a) is type(b)
    except Exception:   # noqa: BLE001 - values without a usable ==
        return a is b


def _as_shape(v):
    if isinstance(v, tuple) and v and all(isinstance(e, tuple) for e in v) and not isinstance(v, TensorShape):
        return tuple(TensorShape(e) for e in v)
    return TensorShape(v)


def _describe(node):
    f = node.inputs[0]
    v = f.value if isinstance(f, Constant) else f
    where = f" at {node.loc.short()}" if node.loc is not None else ""
    return f"'{getattr(v, 'name', v)}'{where}"


def composite_of(node):
    """The :class:`~mindspore._ir.ops.Composite` an apply calls, or ``None``."""
    f = node.inputs[0]
    return f.value if isinstance(f, Constant) and isinstance(f.value, irops.Composite) else None
