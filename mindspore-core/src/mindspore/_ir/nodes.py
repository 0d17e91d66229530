"""Graph IR nodes: ``Graph``, ``Apply``, ``Constant``, ``Parameter``.

Design
------
The IR is functional (MindIR-like). A :class:`Graph` is a function: its ``params`` are
:class:`Parameter` nodes, its ``output`` is the node it returns, and ``nodes`` lists its
:class:`Apply` nodes **in program order**. Program order is an invariant every pass keeps: the
executor runs a graph's applies in that order, which is what orders side effects (``Assign``,
``Print``, random draws) without extra tokens; passes only delete, replace or append-in-place.

An :class:`Apply` calls ``inputs[0]`` (a :class:`Constant` holding a primitive, an IR op of
:mod:`mindspore._ir.ops` or a graph, or any node whose value is callable) on ``inputs[1:]``.

Closures: a graph whose applies use nodes of an enclosing graph (``parent``) is a closure; those
nodes are its *free variables*. The parser produces closures (branches, loop bodies, lambdas,
nested ``def``); inference turns them into closed graphs whose captured values are explicit
parameters, so every graph the pipeline and the executor see is closed.

Two stages use the same classes:

* **untyped** graphs come from the parser: applies of Python-level IR ops (``getattr``,
  ``switch``, ``while_loop`` ...) on nodes without abstract values;
* **typed** graphs come from inference: applies of primitives and a few structural ops, every node
  carrying its ``abstract`` (:mod:`mindspore._infer.abstract`).

Every node keeps its source :class:`Location` through every transform; nodes made by autodiff also
carry ``debug`` naming the bprop rule they came from.
"""
from __future__ import annotations

import linecache
import os

__all__ = ["Location", "Node", "Constant", "Parameter", "Apply", "Graph", "UNDEFINED", "graphs_of",
           "manager_nodes"]


class _Undefined:
    """The value of a variable not bound on the path taken (reading it is a NameError)."""

    def __repr__(self):
        return "UNDEFINED"

    def __reduce__(self):
        return "UNDEFINED"


UNDEFINED = _Undefined()


class Location:
    """A span of user source: file, 1-based line, 0-based column, and the function it is in."""

    __slots__ = ("filename", "line", "col", "end_line", "end_col", "func")

    def __init__(self, filename, line, col, end_line=None, end_col=None, func=""):
        self.filename = filename
        self.line = line
        self.col = col
        self.end_line = end_line if end_line is not None else line
        self.end_col = end_col
        self.func = func

    @classmethod
    def of(cls, ast_node, filename, line_offset=0, func=""):
        if ast_node is None or not hasattr(ast_node, "lineno"):
            return None
        return cls(filename, ast_node.lineno + line_offset, ast_node.col_offset,
                   (getattr(ast_node, "end_lineno", None) or ast_node.lineno) + line_offset,
                   getattr(ast_node, "end_col_offset", None), func)

    def short(self):
        return f"{os.path.basename(self.filename)}:{self.line}"

    def __str__(self):
        return f"{self.filename}:{self.line}:{self.col + 1}"

    def __repr__(self):
        return f"Location({self})"

    def source_line(self):
        return linecache.getline(self.filename, self.line).rstrip("\n")

    def excerpt(self):
        """The source line and a caret under the span, as compilers print them."""
        text = self.source_line()
        if not text:
            return ""
        end = self.end_col if (self.end_line == self.line and self.end_col) else len(text)
        width = max(1, end - self.col)
        return f"{text}\n{' ' * self.col}^{'~' * (width - 1)}"


class Node:
    """Base of IR nodes: an abstract value (after inference), a source location, debug notes."""

    __slots__ = ("abstract", "loc", "debug", "__weakref__")

    def __init__(self, loc=None):
        self.abstract = None
        self.loc = loc
        self.debug = None


class Constant(Node):
    """A compile-time value: a Python object, a Tensor, a primitive, an IR op or a graph."""

    __slots__ = ("value",)

    def __init__(self, value, loc=None):
        super().__init__(loc)
        self.value = value

    @property
    def graph(self):
        return None

    def __repr__(self):
        return f"Constant({self.value!r})"


class Parameter(Node):
    """A graph input. ``weight`` is set for the node standing for a network Parameter."""

    __slots__ = ("graph", "name", "weight")

    def __init__(self, graph, name, loc=None, weight=None):
        super().__init__(loc)
        self.graph = graph
        self.name = name
        self.weight = weight

    def __repr__(self):
        return f"Parameter({self.name})"


class Apply(Node):
    """``inputs[0](*inputs[1:])`` in ``graph``."""

    __slots__ = ("graph", "inputs")

    def __init__(self, graph, inputs, loc=None):
        super().__init__(loc)
        self.graph = graph
        self.inputs = list(inputs)

    @property
    def fn(self):
        return self.inputs[0]

    @property
    def args(self):
        return self.inputs[1:]

    def fn_value(self):
        """The callee when it is a constant (a primitive, IR op or graph), else ``None``."""
        f = self.inputs[0]
        return f.value if isinstance(f, Constant) else None

    def __repr__(self):
        return f"Apply({self.fn_value()!r}, {len(self.inputs) - 1} args)"


class Graph:
    """A function of the IR. ``nodes`` holds its applies in program order."""

    _counter = [0]

    def __init__(self, name, parent=None, loc=None):
        self.name = name
        self.parent = parent
        self.loc = loc
        self.params = []
        self.output = None
        self.nodes = []
        self.flags = {}
        self.pyfunc = None      # untyped graphs: the Python function parsed (argument binding, globals)
        self.signature = None   # untyped graphs: positional names, vararg, kwonly, kwarg (see the parser)
        Graph._counter[0] += 1
        self.uid = Graph._counter[0]

    def add_param(self, name, loc=None, weight=None):
        p = Parameter(self, name, loc, weight)
        self.params.append(p)
        return p

    def apply(self, fn, *args, loc=None):
        """Append ``fn(*args)`` (``fn``/``args`` given as nodes or raw values made constants)."""
        node = Apply(self, [a if isinstance(a, Node) else Constant(a) for a in (fn,) + args], loc)
        self.nodes.append(node)
        return node

    def set_output(self, node):
        self.output = node if isinstance(node, Node) else Constant(node)

    def __repr__(self):
        return f"Graph({self.name})"


def graphs_of(root):
    """``root`` and every graph reachable from it through graph constants, in a stable order."""
    seen = {id(root): root}
    order = [root]
    i = 0
    while i < len(order):
        g = order[i]
        i += 1
        for node in g.nodes + [g.output]:
            inputs = node.inputs if isinstance(node, Apply) else [node]
            for x in inputs:
                if isinstance(x, Constant):
                    for sub in _graphs_in(x.value):
                        if id(sub) not in seen:
                            seen[id(sub)] = sub
                            order.append(sub)
    return order


def _graphs_in(value):
    if isinstance(value, Graph):
        yield value
    elif type(value) is tuple:
        for v in value:
            yield from _graphs_in(v)
    else:
        inner = getattr(value, "graphs", None)     # IR op payloads that carry graphs (custom bprop calls)
        if inner is not None and not callable(inner):
            for v in inner:
                yield from _graphs_in(v)


def manager_nodes(graph):
    """``users``: node -> list of (apply, input index) over ``graph``'s applies and output."""
    users = {}
    for node in graph.nodes:
        for i, x in enumerate(node.inputs):
            users.setdefault(x, []).append((node, i))
    users.setdefault(graph.output, []).append((None, -1))
    return users
