"""The one text form of the IR, deterministic so that tests can assert on it.

::

    graph @construct(%x: f32[3], %y: f32[3]) {
      %1 = Mul(%x, %y) : f32[3]  # net.py:8
      return %1
    }

Nodes are numbered in print order across the whole module (so a closure's use of an enclosing
graph's node prints that node's number); graphs print in discovery order from the root, each name
made unique with a suffix. Constants print by value (no object addresses): numbers, strings,
tuples, ``Tensor(f32[2,2])``, ``@graph``, ``Mul[attr=v]`` for a primitive, ``$name`` for a
resolved global, ``<Dense>`` for any other object.
"""
from __future__ import annotations

import types

from mindspore._ir.nodes import Apply, Constant, Graph, Parameter, graphs_of
from mindspore._ir.ops import CustomCall, IROp

__all__ = ["print_graph", "print_module", "format_value"]


def _short_abstract(abstract):
    if abstract is None:
        return ""
    short = getattr(abstract, "short", None)
    return short() if short is not None else str(abstract)


def _prim_text(prim):
    attrs = getattr(prim, "attrs", None) or {}
    shown = [(k, v) for k, v in attrs.items() if k not in ("input_names", "output_names") and not k.startswith("_")]
    if not shown:
        return prim.name
    return f"{prim.name}[" + ", ".join(f"{k}={format_value(v)}" for k, v in shown) + "]"


def format_value(value, names=None):
    """A constant's text (``names`` maps graphs to their printed names)."""
    from mindspore.common.tensor import Tensor
    from mindspore._core.primitive import Primitive
    if isinstance(value, Graph):
        return "@" + (names.get(value, value.name) if names else value.name)
    if isinstance(value, CustomCall):
        return f"CustomCall[{type(value.cell).__name__}.bprop, {format_value(value.graph, names)}]"
    if isinstance(value, IROp):
        return repr(value)
    if isinstance(value, Primitive):
        return _prim_text(value)
    if value is None or isinstance(value, (bool, int, float, complex)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if type(value) is tuple:
        inner = ", ".join(format_value(v, names) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if type(value) is list:
        return "[" + ", ".join(format_value(v, names) for v in value) + "]"
    if type(value) is slice:
        return f"slice({format_value(value.start)}, {format_value(value.stop)}, {format_value(value.step)})"
    if value is Ellipsis:
        return "..."
    if isinstance(value, Tensor):
        from mindspore._infer.abstract import short_dtype
        shape = ",".join(str(s) for s in value.shape)
        kind = "Parameter" if hasattr(value, "_name") else "Tensor"
        return f"{kind}({short_dtype(value.dtype)}[{shape}])"
    symbol = getattr(value, "__ms_symbol__", None)
    if symbol is not None:
        return "$" + symbol
    if isinstance(value, types.ModuleType):
        return f"module({value.__name__})"
    if isinstance(value, type):
        return f"class({value.__qualname__})"
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        return f"fn({getattr(value, '__qualname__', value.__name__)})"
    if isinstance(value, types.MethodType):
        return f"method({value.__func__.__qualname__})"
    if type(value).__module__.startswith("mindspore.common.dtype") or type(value).__name__ in ("Type", "TensorType"):
        return str(value)
    return f"<{type(value).__name__}>"


class _Namer:
    def __init__(self, graphs):
        self.graph_names = {}
        used = {}
        for g in graphs:
            n = used.get(g.name, 0)
            used[g.name] = n + 1
            self.graph_names[g] = g.name if n == 0 else f"{g.name}.{n}"
        self.ids = {}
        self.counter = 0

    def number(self, node):
        self.counter += 1
        self.ids[node] = f"%{self.counter}"

    def name_param(self, p):
        base = f"%{p.name}" if p.name else "%param"
        taken = set(self.ids.values())
        name, k = base, 1
        while name in taken:
            name = f"{base}.{k}"
            k += 1
        self.ids[p] = name

    def ref(self, node):
        if isinstance(node, Constant):
            return format_value(node.value, self.graph_names)
        return self.ids.get(node, f"%<{type(node).__name__} of @{getattr(node.graph, 'name', '?')}>")


def _apply_text(node, namer):
    fn = node.inputs[0]
    if isinstance(fn, Constant):
        callee = format_value(fn.value, namer.graph_names)
    else:
        callee = namer.ref(fn)
    args = ", ".join(namer.ref(x) for x in node.inputs[1:])
    text = f"{namer.ids[node]} = {callee}({args})"
    ab = _short_abstract(node.abstract)
    if ab:
        text += f" : {ab}"
    notes = []
    if node.loc is not None:
        notes.append(node.loc.short())
    if node.debug:
        notes.append(str(node.debug))
    if notes:
        text += "  # " + " ".join(notes)
    return text


def _graph_lines(g, namer):
    for p in g.params:
        namer.name_param(p)
    for node in g.nodes:
        namer.number(node)
    params = []
    for p in g.params:
        t = namer.ids[p]
        ab = _short_abstract(p.abstract)
        if ab:
            t += f": {ab}"
        if p.weight is not None:
            t += " <weight>"
        params.append(t)
    head = f"graph @{namer.graph_names[g]}({', '.join(params)})"
    if g.parent is not None:
        head += f"  # closure in @{namer.graph_names.get(g.parent, g.parent.name)}"
    lines = [head + " {"]
    for node in g.nodes:
        lines.append("  " + _apply_text(node, namer))
    out = g.output
    lines.append("  return " + (namer.ref(out) if out is not None else "<no output>"))
    lines.append("}")
    return lines


def print_module(root):
    """The text of ``root`` and every graph it reaches, parents before their closures."""
    graphs = graphs_of(root)
    namer = _Namer(graphs)
    # number parents first so closures can name free variables
    ordered = sorted(graphs, key=lambda g: _depth(g))
    texts = {}
    for g in ordered:
        texts[g] = _graph_lines(g, namer)
    lines = []
    for g in graphs:
        lines.extend(texts[g])
    return "\n".join(lines) + "\n"


def print_graph(graph):
    """The text of one graph and the graphs it uses."""
    return print_module(graph)


def _depth(g):
    d = 0
    while g.parent is not None:
        g = g.parent
        d += 1
    return d


def describe_node(node):
    if isinstance(node, Parameter):
        return f"parameter '{node.name}' of @{node.graph.name}"
    if isinstance(node, Apply):
        return f"apply of {node.inputs[0]!r} in @{node.graph.name}"
    return repr(node)
