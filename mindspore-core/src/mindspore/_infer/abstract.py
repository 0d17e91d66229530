"""Abstract values: what inference knows of a value without computing it.

* :class:`AbstractTensor` - a tensor's shape and dtype, the same :class:`~mindspore._core.primitive.TensorSpec`
  rules and kernels see (the IR is statically shaped: one compiled specialisation per input signature);
* :class:`AbstractTuple` - a tuple of abstract values (multi-output primitives, graph outputs);
* :class:`AbstractStack` - the per-iteration states a differentiated ``While`` keeps for its
  backward loop (an executor-private object).

Python values known at compile time (numbers, tuples of ints, Cells, primitives, dtypes) are not
wrapped: inference carries them as themselves, and :func:`signature` puts their value into the
compile-cache key, as MindSpore does (API.md 5.9).
"""
from __future__ import annotations

from mindspore._core.primitive import TensorSpec, short_dtype
from mindspore.common import dtype as mstype

__all__ = ["AbstractTensor", "AbstractTuple", "AbstractStack", "short_dtype", "signature"]

#: A tensor's abstract value is its spec (shape and dtype): one class for rules, kernels and the IR.
AbstractTensor = TensorSpec


class AbstractTuple:
    __slots__ = ("elements",)

    def __init__(self, elements):
        self.elements = tuple(elements)

    def short(self):
        inner = ", ".join(e.short() if hasattr(e, "short") else repr(e) for e in self.elements)
        return f"({inner},)" if len(self.elements) == 1 else f"({inner})"

    def __eq__(self, other):
        return isinstance(other, AbstractTuple) and self.elements == other.elements

    def __hash__(self):
        return hash(self.elements)

    def __repr__(self):
        return f"AbstractTuple{self.short()}"


class AbstractStack:
    __slots__ = ()

    def short(self):
        return "stack"

    def __eq__(self, other):
        return isinstance(other, AbstractStack)

    def __hash__(self):
        return 7


_CLASSES = []      # (Tensor, Parameter), imported at the first call (they import this module's package)


def _freeze(v):
    if not _CLASSES:
        from mindspore.common.parameter import Parameter
        from mindspore.common.tensor import Tensor
        _CLASSES.extend((Tensor, Parameter))
    if isinstance(v, _CLASSES[0]):
        return ("P" if isinstance(v, _CLASSES[1]) else "T", tuple(v.shape), v.dtype)
    t = type(v)
    if getattr(v, "__ms_mutable__", False):
        if t in (tuple, list) or isinstance(v, (tuple, list)):
            return ("Mut", tuple(_freeze(x) for x in v))
        return ("Var", t.__mro__[1] if len(t.__mro__) > 2 else t)
    if isinstance(v, (tuple, list)):
        return (t, tuple(_freeze(x) for x in v))
    if isinstance(v, dict):
        return (t, tuple((k, _freeze(x)) for k, x in v.items()))
    if isinstance(v, (int, float, bool, str, complex, type(None))) or v is Ellipsis:
        return (t, v)
    if isinstance(v, mstype.Type):
        return ("dtype", str(v))
    try:
        hash(v)
        return ("obj", t, v) if t.__hash__ is not object.__hash__ else ("id", id(v))
    except TypeError:
        return ("id", id(v))


def signature(args, kwargs=None):
    """The compile-cache key of call arguments: tensors by shape and dtype, Python values by value,
    ``ms.mutable`` values by type only."""
    key = tuple(_freeze(a) for a in args)
    if kwargs:
        key += (tuple((k, _freeze(v)) for k, v in sorted(kwargs.items())),)
    return key
