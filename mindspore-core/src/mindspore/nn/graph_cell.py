"""``nn.GraphCell``: a Cell that runs a graph loaded from a MindIR file (``mindspore.load``).

Like MindSpore's, a GraphCell is always a compiled graph, whatever the context's mode: each call goes through
:func:`~mindspore._pipeline.compiler.compiled_call`, which traces the loaded graph's ``run`` (it calls only
primitives and functional ops) once per input signature and then runs the optimised schedule. Shapes are
re-inferred for each signature, so a model exported for a batch of 2 runs with a batch of 5 when its
operations allow it, and ``-1`` (dynamic) dimensions take any size. Two cases run the graph in place instead:
inside another graph being compiled (the loaded graph becomes part of it) and under a PYNATIVE gradient tape
(so gradients reach the graph's inputs and weights).
"""
from __future__ import annotations

from mindspore._autodiff import tape as _tape
from mindspore._deploy.mindir.reader import MindIRGraph
from mindspore._errors import MSTypeError, MSValueError
from mindspore._infer import staging as _staging
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """Run the graph of a MindIR file loaded with :func:`mindspore.load`.

    Args:
        graph (MindIRGraph): the graph ``mindspore.load`` returned.
        params_init (dict, optional): ``{parameter name: Tensor}`` values to give the graph's parameters (they
            must keep their shape and dtype); names the graph does not have are ignored. Default: ``None``.
        obf_random_seed (int, optional): the seed of MindSpore's dynamic obfuscation, which is not supported:
            must be ``None``.

    Inputs:
        - **inputs** (Tensor) - as many Tensors as the exported network took, with the exported ranks and dtypes
          (any size for a dimension exported as dynamic; other sizes are re-inferred).

    Outputs:
        The graph's output: a Tensor, or a tuple of them.

    Raises:
        TypeError: If ``graph`` is not a loaded MindIR graph, ``params_init`` is not a dict of str to Tensor.
        ValueError: If ``obf_random_seed`` is given, or a ``params_init`` value changes a parameter's shape or
            dtype.
        RuntimeError: If the number of inputs differs from the graph's.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Conv2d(1, 1, kernel_size=3, weight_init="ones")
        >>> x = ms.Tensor(np.ones([1, 1, 3, 3]).astype(np.float32))
        >>> ms.export(net, x, file_name="net", file_format="MINDIR")
        >>> graph = ms.load("net.mindir")
        >>> print(nn.GraphCell(graph)(x))
        [[[[4. 6. 4.]
           [6. 9. 6.]
           [4. 6. 4.]]]]
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=True)
        if obf_random_seed is not None:
            raise MSValueError("For 'GraphCell', dynamic structure obfuscation is not supported now: "
                               "'obf_random_seed' must be None.")
        if not isinstance(graph, MindIRGraph):
            raise MSTypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph loaded from MindIR, but got "
                              f"type {type(graph)}.")
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise MSTypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but got "
                              f"{type(params_init)}.")
        for name, value in params_init.items():
            if not isinstance(name, str) or not isinstance(value, Tensor):
                raise MSTypeError("For 'GraphCell', the key of the 'params_init' must be str, and the value must be "
                                  f"Tensor or Parameter, but got the key type: {type(name)}, and the value type: "
                                  f"{type(value)}")
        object.__setattr__(self, "graph", graph)
        graph.update_parameters(params_init)
        for name, param in graph.parameters.items():
            self.insert_param_to_cell(name, param, check_name_contain_dot=False)

    def construct(self, *inputs):
        return self.graph.run(*inputs)

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise MSTypeError(f"For 'GraphCell', the inputs must be given by position, but got keyword arguments "
                              f"{sorted(kwargs)}.")
        self.graph.check_inputs(args)
        if _staging.active() or _tape.active():
            return self.graph.run(*args)
        from mindspore._pipeline.compiler import cache_for, compiled_call
        return compiled_call(cache_for(self), self.graph.run, args, name="GraphCell")

    def extend_repr(self):
        ins = ", ".join(f"{i.name}: {i.dtype}{list(i.shape)}" for i in self.graph.inputs)
        return f"graph={self.graph.name}, inputs=({ins})"
