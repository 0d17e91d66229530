"""A rewrite node: one statement of a ``construct`` (an input, a call of a Cell/Primitive/function/method, a binary
operation, control flow, other Python, the return), with its targets and arguments as :class:`ScopedValue` s."""
from __future__ import annotations

import ast
from enum import Enum

from mindspore.rewrite.scoped_value import ScopedValue, ValueType

__all__ = ["Node", "NodeType"]


class NodeType(Enum):
    """Kinds of :class:`Node`."""

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12


_BINOPS = {ast.Add: ("add", "+"), ast.Sub: ("sub", "-"), ast.Mult: ("mult", "*"), ast.Div: ("div", "/"),
           ast.FloorDiv: ("floordiv", "//"), ast.Mod: ("mod", "%"), ast.Pow: ("pow", "**"),
           ast.MatMult: ("matmul", "@"), ast.BitAnd: ("bitand", "&"), ast.BitOr: ("bitor", "|"),
           ast.BitXor: ("bitxor", "^"), ast.LShift: ("lshift", "<<"), ast.RShift: ("rshift", ">>")}

_CALL_TYPES = (NodeType.CallCell, NodeType.CallPrimitive, NodeType.Tree, NodeType.CellContainer)


def _as_value(v, what):
    if isinstance(v, ScopedValue):
        return v
    if isinstance(v, str):
        return ScopedValue.create_naming_value(v)
    raise TypeError(f"For 'Node', each of '{what}' must be ScopedValue or str, but got {type(v)}.")


def _values(items, what):
    if items is None:
        return []
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"For 'Node', the '{what}' must be a list, but got {type(items)}.")
    return [_as_value(v, what) for v in items]


def _kw_values(kwargs):
    if kwargs is None:
        return {}
    if not isinstance(kwargs, dict):
        raise TypeError(f"For 'Node', the 'kwargs' must be a dict, but got {type(kwargs)}.")
    return {k: _as_value(v, "kwargs") for k, v in kwargs.items()}


class Node:
    """One statement of a network's ``construct``. Made by :meth:`SymbolTree.create` when it parses a network, or
    by :meth:`create_call_cell`, :meth:`create_call_function` and :meth:`create_input` to insert."""

    def __init__(self, node_type=NodeType.Unknown, name="", targets=None, args=None, kwargs=None, instance=None,
                 func_source=None, stmt=None):
        self._type = node_type
        self._name = name
        self._targets = list(targets or [])
        self._args = list(args or [])
        self._kwargs = dict(kwargs or {})
        self._instance = instance
        self._func_source = func_source    # the callee's source (CallFunction, CallMethod)
        self._stmt = stmt                  # the statement kept verbatim (Python, ControlFlow)
        self._op = None                    # MathOps: the ast operator
        self._default = None               # Input: the default value
        self._tree = None
        self._sub_tree = None
        self._attributes = {}

    # -- construction -------------------------------------------------------------------------------------------
    @staticmethod
    def create_call_cell(cell, targets, args=None, kwargs=None, name: str = "", is_sub_net: bool = False) -> "Node":
        """A node ``targets = self.<name>(*args, **kwargs)`` calling ``cell`` (a Cell or a Primitive)."""
        from mindspore._core.primitive import Primitive
        from mindspore.nn.cell import Cell
        if not isinstance(cell, (Cell, Primitive)):
            raise TypeError(f"For 'create_call_cell', the 'cell' must be Cell or Primitive, but got {type(cell)}.")
        if not isinstance(name, str):
            raise TypeError(f"For 'create_call_cell', the 'name' must be str, but got {type(name)}.")
        if not isinstance(targets, (list, tuple)) or not targets:
            raise TypeError(f"For 'create_call_cell', the 'targets' must be a non-empty list, but got {targets}.")
        kind = NodeType.CallPrimitive if isinstance(cell, Primitive) else (
            NodeType.Tree if is_sub_net else NodeType.CallCell)
        return Node(kind, name or type(cell).__name__.lower(), _values(targets, "targets"), _values(args, "args"),
                    _kw_values(kwargs), instance=cell)

    @staticmethod
    def create_call_function(function, targets, args=None, kwargs=None) -> "Node":
        """A node ``targets = function(*args, **kwargs)``."""
        if not callable(function):
            raise TypeError(f"For 'create_call_function', the 'function' must be callable, but got {type(function)}.")
        if not isinstance(targets, (list, tuple)) or not targets:
            raise TypeError(f"For 'create_call_function', the 'targets' must be a non-empty list, but got {targets}.")
        name = getattr(function, "__name__", "function")
        return Node(NodeType.CallFunction, name, _values(targets, "targets"), _values(args, "args"),
                    _kw_values(kwargs), instance=function, func_source=name)

    @staticmethod
    def create_input(param_name: str, default=None) -> "Node":
        """An input (a parameter of ``construct``) named ``param_name``, with an optional default value."""
        if not isinstance(param_name, str):
            raise TypeError(f"For 'create_input', the 'param_name' must be str, but got {type(param_name)}.")
        if default is not None and not isinstance(default, ScopedValue):
            raise TypeError(f"For 'create_input', the 'default' must be ScopedValue, but got {type(default)}.")
        node = Node(NodeType.Input, f"input_{param_name}", [ScopedValue.create_naming_value(param_name)])
        node._default = default
        return node

    # -- reading ------------------------------------------------------------------------------------------------
    def get_handler(self):
        return self

    def get_name(self) -> str:
        return self._name

    def get_node_type(self) -> NodeType:
        return self._type

    def get_instance(self):
        return self._instance

    def get_instance_type(self):
        """The type of the callee (the function itself for a CallFunction node)."""
        if self._type == NodeType.CallFunction:
            return self._instance
        return type(self._instance)

    def get_targets(self):
        return list(self._targets)

    def get_args(self):
        return list(self._args)

    def get_kwargs(self):
        return dict(self._kwargs)

    def get_symbol_tree(self):
        return self._tree

    def get_sub_tree(self):
        """The SymbolTree of the user-defined Cell this node calls (a Tree node), made on first use."""
        if self._type != NodeType.Tree:
            raise TypeError(f"For 'get_sub_tree', the node must be of type NodeType.Tree, but got {self._type}.")
        if self._sub_tree is None:
            if self._tree is None:
                raise RuntimeError(f"For 'get_sub_tree', the node '{self._name}' does not belong to a SymbolTree.")
            self._sub_tree = type(self._tree).create(self._instance)
        return self._sub_tree

    def get_inputs(self):
        """The nodes providing this node's arguments."""
        if self._tree is None:
            return []
        out = []
        for provider, _ in self._tree._providers(self).values():
            if provider not in out:
                out.append(provider)
        return out

    def get_users(self):
        """The nodes using this node's targets."""
        if self._tree is None:
            return []
        out = []
        for users in self._tree._users(self).values():
            for user, _ in users:
                if user not in out:
                    out.append(user)
        return out

    def get_arg_providers(self) -> dict:
        """``{argument index: (providing node, index of its target)}``."""
        return {} if self._tree is None else self._tree._providers(self)

    def get_target_users(self, index=-1):
        """``{target index: [(user node, argument index), ...]}``, or the list of one target's users."""
        users = {} if self._tree is None else self._tree._users(self)
        if index == -1:
            return users
        if not 0 <= index < len(self._targets):
            raise ValueError(f"For 'get_target_users', the 'index' must be in [-1, {len(self._targets)}), but got "
                             f"{index}.")
        return users.get(index, [])

    # -- editing ------------------------------------------------------------------------------------------------
    def set_arg(self, index: int, arg):
        """Set argument ``index`` to ``arg`` (a ScopedValue, or a str naming a variable)."""
        if not 0 <= index < len(self._args):
            raise ValueError(f"For 'set_arg', the 'index' must be in [0, {len(self._args)}), but got {index}.")
        self._args[index] = _as_value(arg, "arg")
        self._stmt = None if self._type not in (NodeType.Python, NodeType.ControlFlow) else self._stmt

    def set_arg_by_node(self, arg_idx: int, src_node: "Node", out_idx=None):
        """Make argument ``arg_idx`` the target ``out_idx`` (default: the only one) of ``src_node``."""
        if not isinstance(src_node, Node):
            raise TypeError(f"For 'set_arg_by_node', the 'src_node' must be Node, but got {type(src_node)}.")
        targets = src_node.get_targets()
        if out_idx is None:
            if len(targets) != 1:
                raise RuntimeError(f"For 'set_arg_by_node', the 'out_idx' must be given when 'src_node' has "
                                   f"{len(targets)} targets.")
            out_idx = 0
        if not 0 <= out_idx < len(targets):
            raise ValueError(f"For 'set_arg_by_node', the 'out_idx' must be in [0, {len(targets)}), but got {out_idx}.")
        self.set_arg(arg_idx, targets[out_idx])

    def set_attribute(self, key: str, value):
        if not isinstance(key, str):
            raise TypeError(f"For 'set_attribute', the 'key' must be str, but got {type(key)}.")
        self._attributes[key] = value

    def get_attributes(self):
        return dict(self._attributes)

    def get_attribute(self, key: str):
        return self._attributes.get(key)

    # -- source -------------------------------------------------------------------------------------------------
    def _call_source(self, callee):
        parts = [a.to_source() for a in self._args] + [f"{k}={v.to_source()}" for k, v in self._kwargs.items()]
        return f"{callee}({', '.join(parts)})"

    def _statement(self) -> str:
        """This node as one line (or block) of Python."""
        if self._type in (NodeType.Python, NodeType.ControlFlow):
            return ast.unparse(self._stmt)
        if self._type == NodeType.Output:
            return "return " + ", ".join(a.to_source() for a in self._args)
        if self._type == NodeType.MathOps:
            expr = f"{self._args[0].to_source()} {_BINOPS[type(self._op)][1]} {self._args[1].to_source()}"
        elif self._type in _CALL_TYPES:
            expr = self._call_source(f"self.{self._name}")
        else:
            expr = self._call_source(self._func_source)
        if not self._targets:
            return expr
        return ", ".join(t.to_source() for t in self._targets) + " = " + expr

    def __repr__(self):
        return f"Node({self._name}, {self._type.name})"


def _names_in(value):
    """The unscoped names a ScopedValue reads."""
    if value.type == ValueType.NamingValue:
        return [value.value] if not value.scope else []
    if value.type in (ValueType.TupleValue, ValueType.ListValue):
        return [n for v in value.value for n in _names_in(v)]
    if value.type == ValueType.DictValue:
        return [n for v in value.value.values() for n in _names_in(v)]
    return []
