"""The graph IR shared by the parser, inference, autodiff, the pass pipeline and the executor.

See :mod:`mindspore._ir.nodes` for the design; :func:`print_graph` is the one text form and
:func:`verify` the invariant checker run after every pass in the test suite.
"""
from mindspore._ir.nodes import (Apply, Constant, Graph, Location, Node, Parameter, UNDEFINED, graphs_of,
                                 manager_nodes)
from mindspore._ir import ops
from mindspore._ir.printer import print_graph, print_module
from mindspore._ir.verifier import verify

__all__ = ["Apply", "Constant", "Graph", "Location", "Node", "Parameter", "UNDEFINED", "ops", "print_graph",
           "print_module", "verify", "graphs_of", "manager_nodes"]
