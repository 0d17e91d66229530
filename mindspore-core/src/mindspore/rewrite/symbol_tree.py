"""The SymbolTree: a network's ``construct`` as an ordered list of :class:`Node` s, and the code generator that
turns the edited list back into a network.

Parsing: each top-level statement of ``construct`` becomes one node. ``t = self.a(...)`` calls a Cell (CallCell;
Tree for a user-defined Cell, CellContainer for a SequentialCell/CellList) or a Primitive (CallPrimitive);
``t = f(...)`` a function (CallFunction) and ``t = v.m(...)`` a method (CallMethod); ``t = a + b`` a binary
operation (MathOps); ``if``/``for``/``while`` blocks are ControlFlow nodes and any other statement a Python
node, both kept verbatim; ``return`` is the Output node; each parameter is an Input node.

Data flow is by name: an argument reads the latest earlier node that assigns its name, which is how
:meth:`Node.get_inputs`/:meth:`Node.get_users` are answered after any edit.

Code generation: a subclass ``<Name>Opt`` of the network's class whose ``__init__(self, obj)`` takes over the
original network's attributes (and the Cells of inserted nodes) and whose ``construct`` is the nodes' source
in order; it is compiled under a registered file name so ``inspect.getsource`` (and graph mode) can read it.
"""
from __future__ import annotations

import ast
import inspect
import itertools
import linecache
import os
import textwrap

from mindspore.rewrite.node import _BINOPS, _CALL_TYPES, Node, NodeType, _names_in
from mindspore.rewrite.scoped_value import ScopedValue

__all__ = ["SymbolTree"]

_counter = itertools.count()
_CONTROL = (ast.If, ast.For, ast.While, ast.AsyncFor, ast.With, ast.Try)


class Position:
    """Where :meth:`SymbolTree.insert` puts a node: before or after a node of the tree."""

    def __init__(self, tree, node, before):
        self.tree = tree
        self.node = node
        self.before = before


class SymbolTree:
    """A network's ``construct`` as nodes; made by :meth:`create`.

    Examples:
        >>> from mindspore.rewrite import SymbolTree, Node, ScopedValue
        >>> stree = SymbolTree.create(net)
        >>> relu = stree.get_node("relu")
        >>> new = Node.create_call_cell(nn.Tanh(), ["x"], [ScopedValue.create_naming_value("x")], name="tanh")
        >>> stree.insert(stree.after(relu), new)
        >>> new_net = stree.get_network()
    """

    def __init__(self, handler=None):
        self._network = handler
        self._nodes = []
        self._new_cells = {}        # attribute name -> Cell/Primitive of inserted nodes
        self._functions = {}        # name -> function of inserted CallFunction nodes
        self._saved_file_name = "./network_define.py"
        self._globals = {}
        self._class_name = ""

    # -- creation -----------------------------------------------------------------------------------------------
    @classmethod
    def create(cls, network):
        """Parse ``network.construct`` into a SymbolTree."""
        from mindspore.nn.cell import Cell
        if not isinstance(network, Cell):
            raise TypeError(f"For 'SymbolTree.create', the 'network' must be Cell, but got {type(network)}.")
        construct = type(network).construct
        try:
            source = textwrap.dedent(inspect.getsource(construct))
        except (OSError, TypeError) as e:
            raise RuntimeError(f"For 'SymbolTree.create', the source of {type(network).__name__}.construct is not "
                               f"available: {e}") from e
        fdef = ast.parse(source).body[0]
        tree = cls(network)
        tree._globals = dict(construct.__globals__)
        tree._class_name = type(network).__name__
        for arg in fdef.args.args[1:]:
            tree._append(Node.create_input(arg.arg))
        defaults = fdef.args.defaults
        inputs = [n for n in tree._nodes if n.get_node_type() == NodeType.Input]
        for node, default in zip(inputs[len(inputs) - len(defaults):], defaults):
            node._default = ScopedValue._from_ast(default)
        for stmt in fdef.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value,
                                                                                                 str):
                continue   # the docstring
            for node in tree._nodes_of(stmt):
                tree._append(node)
        return tree

    def _nodes_of(self, stmt):
        """The node(s) of one statement: ``return <call>`` is the call, into a fresh variable, then the return."""
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, (ast.Call, ast.BinOp)):
            var = self.unique_name(_callee_name(stmt.value) + "_var")
            call = self._value_node(stmt.value, [ScopedValue.create_naming_value(var)])
            if call is not None:
                return [call, Node(NodeType.Output, "return", args=[ScopedValue.create_naming_value(var)])]
        return [self._node_of(stmt)]

    def _node_of(self, stmt):
        if isinstance(stmt, ast.Return):
            value = stmt.value
            args = [] if value is None else (
                [ScopedValue._from_ast(e) for e in value.elts] if isinstance(value, ast.Tuple)
                else [ScopedValue._from_ast(value)])
            return Node(NodeType.Output, "return", args=args)
        if isinstance(stmt, _CONTROL):
            test = getattr(stmt, "test", None) or getattr(stmt, "iter", None)
            name = {ast.If: "if_node", ast.For: "for_node", ast.While: "while_node"}.get(type(stmt), "control_node")
            args = [ScopedValue._from_ast(test)] if test is not None else []
            return Node(NodeType.ControlFlow, name, args=args, stmt=stmt)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _simple_targets(stmt.targets[0]):
            targets = _targets_of(stmt.targets[0])
            node = self._value_node(stmt.value, targets)
            if node is not None:
                return node
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            node = self._value_node(stmt.value, [])
            if node is not None and node.get_node_type() in _CALL_TYPES:
                return node
        return Node(NodeType.Python, type(stmt).__name__, stmt=stmt)

    def _value_node(self, value, targets):
        if isinstance(value, ast.BinOp) and type(value.op) in _BINOPS:
            node = Node(NodeType.MathOps, f"binop_{_BINOPS[type(value.op)][0]}", targets,
                        [ScopedValue._from_ast(value.left), ScopedValue._from_ast(value.right)])
            node._op = value.op
            return node
        if not isinstance(value, ast.Call) or any(isinstance(a, ast.Starred) for a in value.args) or any(
                k.arg is None for k in value.keywords):
            return None
        args = [ScopedValue._from_ast(a) for a in value.args]
        kwargs = {k.arg: ScopedValue._from_ast(k.value) for k in value.keywords}
        func = value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            inst = getattr(self._network, func.attr, None)
            kind = _kind_of(inst)
            if kind is not None:
                return Node(kind, func.attr, targets, args, kwargs, instance=inst)
            return Node(NodeType.CallMethod, func.attr, targets, args, kwargs, instance=inst,
                        func_source=ast.unparse(func))
        source = ast.unparse(func)
        fn = _resolve(func, self._globals)
        if fn is not None and not (isinstance(func, ast.Attribute) and _is_variable(func.value, self._globals)):
            return Node(NodeType.CallFunction, getattr(fn, "__name__", source.rsplit(".", 1)[-1]), targets, args,
                        kwargs, instance=fn, func_source=source)
        return Node(NodeType.CallMethod, source.rsplit(".", 1)[-1], targets, args, kwargs, func_source=source)

    def get_handler(self):
        return self

    # -- reading ------------------------------------------------------------------------------------------------
    def nodes(self, all_nodes: bool = False):
        """The nodes, in order (with ``all_nodes``, also those of the sub-trees already opened)."""
        for node in list(self._nodes):
            yield node
            if all_nodes and node._sub_tree is not None:
                yield from node._sub_tree.nodes(True)

    def all_nodes(self, subtree_nodes: bool = True):
        return list(self.nodes(subtree_nodes))

    def get_node(self, node_name: str):
        """The node named ``node_name``, or None."""
        if not isinstance(node_name, str):
            raise TypeError(f"For 'get_node', the 'node_name' must be str, but got {type(node_name)}.")
        return next((n for n in self._nodes if n.get_name() == node_name), None)

    def get_inputs(self):
        return [n for n in self._nodes if n.get_node_type() == NodeType.Input]

    def get_origin_network(self):
        return self._network

    def _reads(self, node):
        """(argument index, name) pairs a node reads."""
        if node.get_node_type() in (NodeType.Python, NodeType.ControlFlow):
            return [(0, n.id) for n in ast.walk(node._stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        values = node.get_args() + list(node.get_kwargs().values())
        return [(i, name) for i, v in enumerate(values) for name in _names_in(v)]

    @staticmethod
    def _writes(node):
        if node.get_node_type() in (NodeType.Python, NodeType.ControlFlow):
            return [n.id for n in ast.walk(node._stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        return [name for t in node.get_targets() for name in _names_in(t)]

    def _providers(self, node):
        index = self._nodes.index(node)
        out = {}
        for arg_idx, name in self._reads(node):
            for prev in reversed(self._nodes[:index]):
                writes = self._writes(prev)
                if name in writes:
                    out.setdefault(arg_idx, (prev, writes.index(name)))
                    break
        return out

    def _users(self, node):
        out = {}
        for user in self._nodes[self._nodes.index(node) + 1:]:
            for arg_idx, (provider, target_idx) in self._providers(user).items():
                if provider is node:
                    out.setdefault(target_idx, []).append((user, arg_idx))
        return out

    # -- editing ------------------------------------------------------------------------------------------------
    def _check_node(self, node, api):
        if isinstance(node, str):
            found = self.get_node(node)
            if found is None:
                raise RuntimeError(f"For '{api}', there is no node named '{node}' in the SymbolTree.")
            return found
        if not isinstance(node, Node):
            raise TypeError(f"For '{api}', the 'node' must be Node or str, but got {type(node)}.")
        if node not in self._nodes:
            raise RuntimeError(f"For '{api}', the node '{node.get_name()}' does not belong to this SymbolTree.")
        return node

    def before(self, node):
        """The position just before ``node`` (a Node or its name)."""
        return Position(self, self._check_node(node, "before"), True)

    def after(self, node):
        """The position just after ``node`` (a Node or its name)."""
        return Position(self, self._check_node(node, "after"), False)

    def unique_name(self, name: str = "output"):
        """A variable name like ``name`` that no node of the tree assigns."""
        used = {n for node in self._nodes for n in self._writes(node)}
        if name not in used:
            return name
        for i in itertools.count(1):
            if f"{name}_{i}" not in used:
                return f"{name}_{i}"
        return name

    def _unique_node_name(self, name):
        names = {n.get_name() for n in self._nodes} | set(vars(self._network)) | set(self._new_cells)
        names |= {n for n in dir(type(self._network))}
        if name not in names:
            return name
        for i in itertools.count(1):
            if f"{name}_{i}" not in names:
                return f"{name}_{i}"
        return name

    def _append(self, node):
        node._tree = self
        self._nodes.append(node)

    def insert(self, position, node: Node) -> Node:
        """Insert ``node`` at ``position`` (from :meth:`before`/:meth:`after`); returns it."""
        if not isinstance(position, Position) or position.tree is not self:
            raise TypeError(f"For 'insert', the 'position' must come from this SymbolTree's before() or after(), "
                            f"but got {position!r}.")
        if not isinstance(node, Node):
            raise TypeError(f"For 'insert', the 'node' must be Node, but got {type(node)}.")
        if node._tree is not None:
            raise RuntimeError(f"For 'insert', the node '{node.get_name()}' already belongs to a SymbolTree.")
        kind = node.get_node_type()
        if kind in _CALL_TYPES:
            node._name = self._unique_node_name(node.get_name())
            self._new_cells[node.get_name()] = node.get_instance()
        elif kind == NodeType.CallFunction:
            self._functions[node._func_source] = node.get_instance()
        elif kind == NodeType.Input and position.before is False and position.node.get_node_type() != NodeType.Input:
            raise RuntimeError("For 'insert', an input node must be inserted among the input nodes.")
        index = self._nodes.index(position.node) + (0 if position.before else 1)
        node._tree = self
        self._nodes.insert(index, node)
        return node

    def erase(self, node):
        """Remove ``node`` (a Node or its name); returns it."""
        node = self._check_node(node, "erase")
        self._nodes.remove(node)
        node._tree = None
        self._new_cells.pop(node.get_name(), None)
        return node

    def replace(self, old_node: Node, new_nodes) -> Node:
        """Put ``new_nodes`` (a list) where ``old_node`` is and remove it; returns the last new node."""
        old_node = self._check_node(old_node, "replace")
        if not isinstance(new_nodes, (list, tuple)) or not new_nodes or not all(isinstance(n, Node)
                                                                                for n in new_nodes):
            raise TypeError(f"For 'replace', the 'new_nodes' must be a non-empty list of Node, but got {new_nodes}.")
        position = self.before(old_node)
        for new in new_nodes:
            self.insert(position, new)
        self.erase(old_node)
        return new_nodes[-1]

    def set_output(self, index: int, return_value: str) -> Node:
        """Make value ``index`` of the return the variable ``return_value``; returns the Output node."""
        out = next((n for n in self._nodes if n.get_node_type() == NodeType.Output), None)
        if out is None:
            raise RuntimeError("For 'set_output', the SymbolTree has no return node.")
        out.set_arg(index, return_value)
        return out

    # -- output -------------------------------------------------------------------------------------------------
    def _construct_source(self):
        params = ["self"]
        for node in self.get_inputs():
            name = node.get_targets()[0].to_source()
            params.append(name if node._default is None else f"{name}={node._default.to_source()}")
        lines = [f"    def construct({', '.join(params)}):"]
        body = [n for n in self._nodes if n.get_node_type() != NodeType.Input]
        for node in body:
            lines += ["        " + line for line in node._statement().splitlines()]
        if not body:
            lines.append("        return None")
        return lines

    def get_code(self) -> str:
        """The source of the edited network's class."""
        name = self._class_name
        lines = [f"class {name}Opt({name}):", "", "    def __init__(self, obj):",
                 "        Cell.__init__(self)",
                 "        for key, value in obj.__dict__.items():",
                 "            object.__setattr__(self, key, value)"]
        lines += [f"        self.{attr} = obj.{attr}" for attr in self._new_cells]
        lines.append("")
        lines += self._construct_source()
        return "\n".join(lines) + "\n"

    def get_network(self):
        """A new network running the edited ``construct`` (its Cells and Parameters are the original's)."""
        from mindspore.nn.cell import Cell
        net = self._network
        for attr, cell in self._new_cells.items():
            setattr(net, attr, cell)
        for node in self._nodes:
            if node._sub_tree is not None:
                setattr(net, node.get_name(), node._sub_tree.get_network())
        code = self.get_code()
        filename = f"<mindspore.rewrite {self._class_name}Opt {next(_counter)}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        namespace = dict(self._globals)
        namespace.update(self._functions)
        namespace[self._class_name] = type(net)
        namespace["Cell"] = Cell
        exec(compile(code, filename, "exec"), namespace)   # noqa: S102 - the code generated just above
        return namespace[f"{self._class_name}Opt"](net)

    def dump(self):
        """Print the nodes (name, type, targets, arguments)."""
        for node in self._nodes:
            print(f"{node.get_name()}: {node.get_node_type()} {[str(t) for t in node.get_targets()]} = "
                  f"{[str(a) for a in node.get_args()]}")

    def print_node_tabulate(self, all_nodes: bool = False):
        """Print a table of the nodes: type, name, code, inputs and users."""
        rows = [("node type", "name", "codes", "arg providers", "target users")]
        for node in self.nodes(all_nodes):
            providers = {i: (p.get_name(), j) for i, (p, j) in node.get_arg_providers().items()}
            users = {i: [(u.get_name(), j) for u, j in us] for i, us in node.get_target_users().items()}
            rows.append((node.get_node_type().name, node.get_name(), node._statement().splitlines()[0]
                         if node.get_node_type() != NodeType.Input else node.get_targets()[0].to_source(),
                         str(providers), str(users)))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())

    def set_saved_file_name(self, file_name: str):
        if not isinstance(file_name, str):
            raise TypeError(f"For 'set_saved_file_name', the 'file_name' must be str, but got {type(file_name)}.")
        self._saved_file_name = file_name if file_name.endswith(".py") else file_name + ".py"

    def get_saved_file_name(self):
        return self._saved_file_name

    def save_network_to_file(self):
        """Write :meth:`get_code` to the saved file name."""
        path = os.path.abspath(self._saved_file_name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.get_code())


def _callee_name(expr):
    if isinstance(expr, ast.BinOp):
        return "binop"
    func = expr.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "call")


def _simple_targets(target):
    if isinstance(target, ast.Name):
        return True
    return isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)


def _targets_of(target):
    if isinstance(target, ast.Name):
        return [ScopedValue.create_naming_value(target.id)]
    return [ScopedValue.create_naming_value(e.id) for e in target.elts]


def _kind_of(inst):
    from mindspore._core.primitive import Primitive
    from mindspore.nn.cell import Cell, CellList, SequentialCell
    if isinstance(inst, Primitive):
        return NodeType.CallPrimitive
    if isinstance(inst, (SequentialCell, CellList)):
        return NodeType.CellContainer
    if isinstance(inst, Cell):
        module = type(inst).__module__ or ""
        return NodeType.CallCell if module.startswith("mindspore.") else NodeType.Tree
    return None


def _resolve(expr, namespace):
    """The object an expression of names and attributes (``ops.sin``) refers to in ``namespace``, or None."""
    if isinstance(expr, ast.Name):
        obj = namespace.get(expr.id)
        if obj is None:
            import builtins
            obj = getattr(builtins, expr.id, None)
        return obj
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, namespace)
        return None if base is None else getattr(base, expr.attr, None)
    return None


def _is_variable(expr, namespace):
    """Whether a callee's base is a local variable (``x.reshape``: a method call)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id not in namespace
