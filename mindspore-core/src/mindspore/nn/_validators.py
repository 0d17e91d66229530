"""Argument checks shared by the optimizers, the learning-rate helpers and the wrappers.

They raise MindSpore's error types with MindSpore-style messages ("For 'Adam', the 'beta1' must be ...").
``bool`` is never accepted where a number is expected, as in MindSpore's validator.
"""
from __future__ import annotations

from mindspore._errors import MSTypeError, MSValueError

__all__ = []


def _prefix(cls_name):
    return f"For '{cls_name}', the" if cls_name else "The"


def check_value_type(arg_name, value, types, cls_name=None):
    """``value`` must be an instance of ``types`` (bools are not ints or floats)."""
    types = tuple(types) if isinstance(types, (list, tuple)) else (types,)
    bad_bool = isinstance(value, bool) and bool not in types
    if bad_bool or not isinstance(value, types):
        names = ", ".join(t.__name__ for t in types)
        raise MSTypeError(f"{_prefix(cls_name)} '{arg_name}' must be of type [{names}], but got "
                          f"'{value!r}' with type '{type(value).__name__}'.")
    return value


def check_bool(arg_name, value, cls_name=None):
    if not isinstance(value, bool):
        raise MSTypeError(f"{_prefix(cls_name)} '{arg_name}' must be a bool, but got {type(value).__name__}.")
    return value


def check_is_float(arg_name, value, cls_name=None):
    if not isinstance(value, float):
        raise MSTypeError(f"{_prefix(cls_name)} '{arg_name}' must be a float, but got {type(value).__name__}.")
    return value


def _number(arg_name, value, cls_name, kind):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise MSTypeError(f"{_prefix(cls_name)} '{arg_name}' must be {kind}, but got {type(value).__name__}.")


def check_positive_int(arg_name, value, cls_name=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise MSTypeError(f"{_prefix(cls_name)} '{arg_name}' must be a positive int, but got "
                          f"{type(value).__name__}.")
    if value <= 0:
        raise MSValueError(f"{_prefix(cls_name)} '{arg_name}' must be a positive int, but got {value}.")
    return value


def check_non_negative_int(arg_name, value, cls_name=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise MSTypeError(f"{_prefix(cls_name)} '{arg_name}' must be a non-negative int, but got "
                          f"{type(value).__name__}.")
    if value < 0:
        raise MSValueError(f"{_prefix(cls_name)} '{arg_name}' must be a non-negative int, but got {value}.")
    return value


def check_positive_float(arg_name, value, cls_name=None):
    _number(arg_name, value, cls_name, "a positive float")
    if not value > 0:
        raise MSValueError(f"{_prefix(cls_name)} '{arg_name}' must be a positive float, but got {value}.")
    return value


def check_non_negative_float(arg_name, value, cls_name=None):
    _number(arg_name, value, cls_name, "a non-negative float")
    if not value >= 0:
        raise MSValueError(f"{_prefix(cls_name)} '{arg_name}' must be a non-negative float, but got {value}.")
    return value


def check_open_range(arg_name, value, low, high, cls_name=None):
    """``low < value < high`` (MindSpore's ``INC_NEITHER``)."""
    _number(arg_name, value, cls_name, "a float")
    if not low < value < high:
        raise MSValueError(f"{_prefix(cls_name)} '{arg_name}' must be in range ({low}, {high}), but got {value}.")
    return value
