"""What the MindIR primitive table (:mod:`.from_ms`) is made of: rules, MindSpore's argument encodings, helpers.

A *rule* is a plain function whose signature is MindSpore's argument list for one primitive: its call inputs
and then its ``__init__`` arguments, in MindSpore's order and with MindSpore's names (PRIMITIVE_FUNCTION
nodes pass them all as inputs, in that order). Keyword-only parameters are configuration a node can only
carry as primitive attributes (the PRIMITIVE style, e.g. ``Conv2D``'s ``pad_list``); they are bound once at
load time. :meth:`Rule.bind` turns one node into ``(callable, argument slots)``: node inputs bind
positionally, the rest by name from the primitive's attributes, then from the rule's defaults.

MindSpore writes enumerations as integers in PRIMITIVE_FUNCTION arguments: dtypes as ``TypeId`` values
(``43`` is Float32), ``data_format`` and ``pad_mode`` as its ``Format``/``PadMode`` enums. The helpers here
turn them back into what our primitives take (and accept the string forms the PRIMITIVE style keeps).
"""
from __future__ import annotations

import functools
import inspect

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype

__all__ = ["MONAD", "Rule", "rule", "prim", "to_dtype", "to_format", "to_pad_mode", "to_reduction", "to_indexing",
           "to_scatter_reduction", "as_int", "as_tuple", "as_bool"]


class _Monad:
    """The value of a UMonad/IOMonad: MindSpore's token ordering side effects; a pure evaluation ignores it."""

    __slots__ = ()

    def __repr__(self):
        return "U"


MONAD = _Monad()
_EMPTY = inspect.Parameter.empty


class Rule:
    """One primitive's evaluation: ``fn`` and how a node's inputs and attributes bind to it."""

    __slots__ = ("fn", "positional", "variadic", "keyword", "keeps_monads", "monad_out", "check")

    def __init__(self, fn, keeps_monads=False, monad_out=False, check=None):
        self.fn = fn
        self.keeps_monads = keeps_monads
        self.monad_out = monad_out
        self.check = check
        params = inspect.signature(fn).parameters.values()
        self.positional = [(p.name, p.default) for p in params
                           if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self.variadic = any(p.kind == p.VAR_POSITIONAL for p in params)
        self.keyword = [(p.name, p.default) for p in params if p.kind == p.KEYWORD_ONLY]

    def bind(self, op, label, args, attrs, decode, const_slot):
        """``(callable, argument slots)`` for a node of primitive ``op`` with input slots ``args``.

        ``attrs`` are the primitive's attributes by name, ``decode(name)`` decodes one, ``const_slot(value)``
        gives the slot of a constant."""
        n = len(args)
        if not self.variadic and n > len(self.positional):
            raise MSRuntimeError(f"For 'load', the node '{label}' calls '{op}' with {n} inputs, but '{op}' takes at "
                                 f"most {len(self.positional)} ({', '.join(p for p, _ in self.positional)}): the file "
                                 "is corrupt or from an unsupported MindSpore version.")
        bound = list(args)
        for name, default in self.positional[n:]:
            if name in attrs:
                bound.append(const_slot(decode(name)))
            elif default is not _EMPTY:
                bound.append(const_slot(default))
            else:
                raise MSRuntimeError(f"For 'load', the node '{label}' calls '{op}' without its argument '{name}' (it "
                                     "is neither an input of the node nor an attribute of the primitive): the file "
                                     "is corrupt or from an unsupported MindSpore version.")
        kw = {}
        for name, default in self.keyword:
            if name in attrs:
                kw[name] = decode(name)
            elif default is _EMPTY:
                raise MSRuntimeError(f"For 'load', the primitive '{op}' of node '{label}' has no attribute '{name}': "
                                     "the file is corrupt or from an unsupported MindSpore version.")
        if self.check is not None:
            self.check(op, label, **kw)
        return (functools.partial(self.fn, **kw) if kw else self.fn), bound


def rule(fn=None, **options):
    """``Rule(fn, **options)``, usable as a decorator with or without options."""
    if fn is None:
        return lambda f: Rule(f, **options)
    return Rule(fn, **options)


# --- our primitives, built once per configuration ----------------------------------------------------------
_PRIMS = {}


def prim(cls, *args):
    """The primitive ``cls(*args)``, shared by every node with the same configuration."""
    key = (cls, args)
    try:
        p = _PRIMS.get(key)
    except TypeError:            # an unhashable configuration (a list): build it each time
        return cls(*args)
    if p is None:
        p = _PRIMS[key] = cls(*args)
    return p


# --- MindSpore's encodings -------------------------------------------------------------------------------------
#: MindSpore's ``TypeId`` numbers (what a PRIMITIVE_FUNCTION dtype argument holds) -> dtype
TYPE_IDS = {30: mstype.bool_, 32: mstype.int8, 33: mstype.int16, 34: mstype.int32, 35: mstype.int64,
            37: mstype.uint8, 38: mstype.uint16, 39: mstype.uint32, 40: mstype.uint64, 42: mstype.float16,
            43: mstype.float32, 44: mstype.float64, 45: mstype.bfloat16, 51: mstype.complex64,
            52: mstype.complex128}
_FORMATS = {0: "NCHW", 1: "NHWC", 14: "NCDHW", 20: "ND"}
_PAD_MODES = {0: "pad", 1: "same", 2: "valid"}
_REDUCTIONS = {0: "sum", 1: "mean", 2: "none"}
_INDEXINGS = {0: "ij", 1: "xy"}
#: TensorScatterElements numbers its ``reduce`` on its own (not with the loss reductions)
_SCATTER_REDUCTIONS = {0: "none", 1: "add"}


def to_dtype(op, value, allow_none=False):
    """A dtype from a ``TypeId`` number or a dtype."""
    if value is None and allow_none:
        return None
    if isinstance(value, mstype.Type):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value in TYPE_IDS:
        return TYPE_IDS[value]
    raise MSValueError(f"For '{op}' in a MindIR file, the dtype must be a MindSpore TypeId or dtype, but got "
                       f"{value!r}.")


def _enum(op, name, value, table):
    if isinstance(value, str):
        return value
    if isinstance(value, int) and value in table:
        return table[value]
    raise MSValueError(f"For '{op}' in a MindIR file, the '{name}' must be one of {sorted(table.values())} or its "
                       f"MindSpore enum number {sorted(table)}, but got {value!r}.")


def to_format(op, value):
    return _enum(op, "data_format", value, _FORMATS)


def to_pad_mode(op, value):
    return _enum(op, "pad_mode", value, _PAD_MODES).lower()


def to_reduction(op, value):
    return _enum(op, "reduction", value, _REDUCTIONS)


def to_indexing(op, value):
    return _enum(op, "indexing", value, _INDEXINGS)


def to_scatter_reduction(op, value):
    return _enum(op, "reduce", value, _SCATTER_REDUCTIONS)


def as_int(op, name, value):
    """A Python int from an int, a bool, or a 0-d integer Tensor with a value."""
    if isinstance(value, bool) or not isinstance(value, int):
        if hasattr(value, "asnumpy") and getattr(value, "_data", None) is not None and not value.shape:
            return int(value.asnumpy())
        raise MSTypeError(f"For '{op}' in a MindIR file, the '{name}' must be an int, but got {type(value).__name__}.")
    return value


def as_bool(value):
    return bool(value) if not hasattr(value, "asnumpy") else bool(value.asnumpy())


def as_tuple(value):
    """``value`` as a tuple (MindSpore writes a 1-tuple axis as a list, or a bare int)."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,)
