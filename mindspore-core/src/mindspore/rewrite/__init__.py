"""``mindspore.rewrite``: edit a network's forward computation as a graph of nodes, then get the edited network.

:meth:`SymbolTree.create` parses a Cell's ``construct`` (Python's :mod:`ast`) into one :class:`Node` per
statement (inputs, Cell/Primitive/function/method calls, binary operations, control flow, other Python,
the return); nodes can be listed, inserted, erased and replaced, their arguments rewired, and
:meth:`SymbolTree.get_network` builds a new Cell of a generated subclass whose ``construct`` is the edited
code (shown by :meth:`SymbolTree.get_code`).
"""
from mindspore.rewrite.node import Node, NodeType
from mindspore.rewrite.scoped_value import ScopedValue, ValueType
from mindspore.rewrite.symbol_tree import SymbolTree

__all__ = ["SymbolTree", "Node", "NodeType", "ScopedValue", "ValueType"]
