"""Higher-order composites: MultitypeFuncGraph, HyperMap, Map, partial.

``MultitypeFuncGraph`` dispatches on the MindSpore type names of its arguments (``"Tensor"``,
``"Number"``, ``"Tuple"``, ...), as optimizers in model-zoo code use it with ``HyperMap``:

    _momentum_opt = MultitypeFuncGraph("momentum_opt")

    @_momentum_opt.register("Function", "Tensor", "Tensor", "Tensor")
    def _update(opt, lr, grad, weight): ...

    hyper_map(partial(_momentum_opt, opt, lr), grads, weights)
"""
from __future__ import annotations

import functools
import numbers

from mindspore._errors import MSTypeError, MSValueError
from mindspore.ops.function.misc2_func import tail, zip_operation  # noqa: F401 - re-exported

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "partial", "type_name", "tail", "zip_operation"]


def type_name(value):
    """MindSpore's type name of a Python value, as ``MultitypeFuncGraph.register`` spells it."""
    from mindspore.common.parameter import Parameter
    from mindspore.common.tensor import Tensor
    from mindspore.common import dtype as mstype
    if isinstance(value, Parameter):
        return "Tensor"
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, numbers.Number):
        return "Number"
    if isinstance(value, str):
        return "String"
    if value is None:
        return "None"
    if isinstance(value, tuple):
        return "Tuple"
    if isinstance(value, list):
        return "List"
    if isinstance(value, dict):
        return "Dictionary"
    if isinstance(value, mstype.Type):
        return "TypeType"
    if callable(value):
        return "Function"
    return type(value).__name__


_ALIASES = {
    "Number": {"Number", "Int", "Float", "Bool", "Int32", "Int64", "Float32", "Float64", "Float16", "UInt8"},
    "Bool": {"Bool", "Number"},
    "Tensor": {"Tensor", "RowTensor", "COOTensor", "CSRTensor", "MapTensor"},
    "Function": {"Function", "Func"},
}


def _matches(declared, value_name):
    if declared == value_name:
        return True
    return declared in _ALIASES.get(value_name, ())


class MultitypeFuncGraph:
    """A function overloaded by argument type names; ``register(*type_names)`` adds an overload."""

    def __init__(self, name, read_value=False, doc_url=""):
        self.name = name
        self.read_value = read_value
        self.entries = []

    def register(self, *type_names):
        def deco(fn):
            self.entries.append((tuple(type_names), fn))
            return fn
        return deco

    def __call__(self, *args):
        names = [type_name(a) for a in args]
        for types, fn in self.entries:
            if len(types) == len(args) and all(_matches(t, n) for t, n in zip(types, names)):
                return fn(*args)
        raise MSTypeError(f"For 'MultitypeFuncGraph' '{self.name}', there is no registered function for input "
                          f"types ({', '.join(names)}); registered: {[list(t) for t, _ in self.entries]}.")


class HyperMap:
    """Apply ``ops`` elementwise over (nested) tuples/lists; leaves are passed as they are."""

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def _map(self, fn, args):
        first = args[0]
        if isinstance(first, (tuple, list)):
            n = len(first)
            for a in args[1:]:
                if not isinstance(a, (tuple, list)) or len(a) != n:
                    raise MSValueError(f"For 'HyperMap', the sequence inputs must have the same length, but got "
                                       f"{[len(x) if isinstance(x, (tuple, list)) else type(x).__name__ for x in args]}.")
            idx = range(n - 1, -1, -1) if self.reverse else range(n)
            out = [None] * n
            for i in idx:
                out[i] = self._map(fn, [a[i] for a in args])
            return tuple(out) if isinstance(first, tuple) else out
        return fn(*args)

    def __call__(self, *args):
        if self.ops is None:
            fn, args = args[0], args[1:]
        else:
            fn = self.ops
        if not args:
            raise MSValueError("For 'HyperMap', at least one sequence input is required.")
        if not any(isinstance(a, (tuple, list)) for a in args):
            return fn(*args)
        seqs = [a for a in args if isinstance(a, (tuple, list))]
        if len(seqs) != len(args):
            raise MSTypeError("For 'HyperMap', all inputs must be tuples or lists when one of them is.")
        return self._map(fn, list(args))


class Map(HyperMap):
    """Apply ``ops`` over the top level of tuples/lists (no recursion into nested sequences)."""

    def _map(self, fn, args):
        first = args[0]
        n = len(first)
        idx = range(n - 1, -1, -1) if self.reverse else range(n)
        out = [None] * n
        for i in idx:
            out[i] = fn(*[a[i] for a in args])
        return tuple(out) if isinstance(first, tuple) else out


def partial(func, *args, **kwargs):
    """``func`` with its first arguments (and keyword arguments) fixed (``ops.partial``).

    MindSpore's graph mode binds keyword arguments too (``ops.partial(add, x=2)``, statements.md).
    """
    return functools.partial(func, *args, **kwargs)


# tail and zip_operation are ops functions too: one definition, in ops.function.misc2_func

