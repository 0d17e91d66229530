"""Values of a rewrite node's targets and arguments: names (``x``, ``self.dense``), constants, tuples/lists/dicts
of them, and source text the rewrite can not represent otherwise (kept verbatim)."""
from __future__ import annotations

import ast
from enum import Enum

__all__ = ["ScopedValue", "ValueType"]


class ValueType(Enum):
    """Kinds of :class:`ScopedValue`."""

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


_CONSTANTS = (int, float, str, bool, type(None), complex, bytes)


class ScopedValue:
    """A value with a type and, for names, a scope: ``ScopedValue.create_naming_value("dense", "self")`` is
    ``self.dense``.

    Args:
        arg_type (ValueType): the kind of value.
        scope (str): the scope of a name (``"self"``, a module...). Default: ``""``.
        value: the name, the constant, or the elements.
    """

    def __init__(self, arg_type: ValueType, scope: str = "", value=None):
        if not isinstance(arg_type, ValueType):
            raise TypeError(f"For 'ScopedValue', the 'arg_type' must be ValueType, but got {type(arg_type)}.")
        if not isinstance(scope, str):
            raise TypeError(f"For 'ScopedValue', the 'scope' must be str, but got {type(scope)}.")
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value) -> "ScopedValue":
        """A constant (int, float, str, bool, None), or a tuple/list/dict of constants."""
        if isinstance(value, ScopedValue):
            return value
        if isinstance(value, _CONSTANTS):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(v) for v in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(v) for v in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {k: cls.create_variable_value(v) for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> "ScopedValue":
        """A name, ``scope.name`` when a scope is given."""
        if not isinstance(name, str):
            raise TypeError(f"For 'create_naming_value', the 'name' must be str, but got {type(name)}.")
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names, scopes=None):
        """Naming values for ``names`` (with ``scopes``, of the same length, when given)."""
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
            raise TypeError(f"For 'create_name_values', the 'names' must be a list or tuple of str, but got {names}.")
        if scopes is not None:
            if not isinstance(scopes, (list, tuple)) or len(scopes) != len(names):
                raise ValueError(f"For 'create_name_values', the 'scopes' must have the length of 'names' "
                                 f"{len(names)}, but got {scopes}.")
            return [ScopedValue.create_naming_value(n, s) for n, s in zip(names, scopes)]
        return [ScopedValue.create_naming_value(n) for n in names]

    # -- source form --------------------------------------------------------------------------------------------
    def to_source(self) -> str:
        """The Python source of this value."""
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else self.value
        if self.type == ValueType.ConstantValue:
            return repr(self.value)
        if self.type == ValueType.TupleValue:
            items = [v.to_source() for v in self.value]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if self.type == ValueType.ListValue:
            return "[" + ", ".join(v.to_source() for v in self.value) + "]"
        if self.type == ValueType.DictValue:
            return "{" + ", ".join(f"{k!r}: {v.to_source()}" for k, v in self.value.items()) + "}"
        if self.type == ValueType.UnsupportedValue:
            return self.value
        raise ValueError(f"For 'ScopedValue', a {self.type} value ({type(self.value).__name__}) has no source form.")

    @classmethod
    def _from_ast(cls, node) -> "ScopedValue":
        if isinstance(node, ast.Name):
            return cls.create_naming_value(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return cls.create_naming_value(node.attr, node.value.id)
        if isinstance(node, ast.Constant):
            return cls(ValueType.ConstantValue, "", node.value)
        if isinstance(node, (ast.Tuple, ast.List)):
            items = [cls._from_ast(e) for e in node.elts]
            if isinstance(node, ast.Tuple):
                return cls(ValueType.TupleValue, "", tuple(items))
            return cls(ValueType.ListValue, "", items)
        return cls(ValueType.UnsupportedValue, "", ast.unparse(node))

    def __str__(self):
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        return f"Illegal ValueType: {self.type}"

    def __repr__(self):
        return str(self)

    def __eq__(self, other):
        if not isinstance(other, ScopedValue):
            return NotImplemented
        return (self.type, self.scope, self.value) == (other.type, other.scope, other.value)

    def __hash__(self):
        return hash((self.type, self.scope, str(self.value)))
