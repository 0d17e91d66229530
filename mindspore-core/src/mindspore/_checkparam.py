"""``mindspore._checkparam``: MindSpore 2.10's argument validators, for the outside libraries that import them.

Private in MindSpore, but MindSpore's own model libraries (MindOCR's transformer layers, MindFormers, MindNLP) use it
as ``from mindspore import _checkparam as Validator`` and call ``Validator.check_positive_int(value, "name",
"Cell")``, so the commonly used checks are here with 2.10's signatures (value first, then the argument's and the
operator's name) and messages. Each returns the value when it passes. Numbers: ``bool`` is never an ``int`` here, an
``int`` is not a ``float``, and inf/nan are rejected (``ValueError``); a wrong type raises ``TypeError``, a value out of
range ``ValueError``. ``EQ`` .. ``GE`` and ``INC_NEITHER`` .. ``INC_BOTH`` are 2.10's relation codes.
"""
import math
from collections.abc import Iterable

import numpy as np

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10

_RELATIONS = {EQ: ("=", lambda a, b: a == b), NE: ("!=", lambda a, b: a != b), LT: ("<", lambda a, b: a < b),
              LE: ("<=", lambda a, b: a <= b), GT: (">", lambda a, b: a > b), GE: (">=", lambda a, b: a >= b)}
_RANGES = {INC_NEITHER: ("(", ")", lambda lo, v, hi: lo < v < hi), INC_LEFT: ("[", ")", lambda lo, v, hi: lo <= v < hi),
           INC_RIGHT: ("(", "]", lambda lo, v, hi: lo < v <= hi), INC_BOTH: ("[", "]", lambda lo, v, hi: lo <= v <= hi)}


def _subject(arg_name, prim_name):
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    return f"{prefix} '{arg_name}'" if arg_name else f"{prefix} input value"


def _check_number(arg_value, value, rel, arg_type, arg_name=None, prim_name=None):
    subject = _subject(arg_name, prim_name)
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{subject} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{subject} must be a legal value, but got '{arg_value}'.")
    sign, holds = _RELATIONS[rel]
    if isinstance(arg_value, bool) or not holds(arg_value, value):
        error = TypeError if isinstance(arg_value, bool) else ValueError
        raise error(f"{subject} must be {arg_type.__name__} and must {sign} {value}, but got '{arg_value}' with type "
                    f"'{type(arg_value).__name__}'.")
    return arg_value


def _check_is_number(arg_value, arg_type, arg_name, prim_name):
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    arg_name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, arg_type) or isinstance(arg_value, bool):
        raise TypeError(f"{prefix} type of {arg_name} must be '{arg_type.__name__}', but got "
                        f"'{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{prefix} {arg_name} must be a legal float, but got '{arg_value}'.")
    return arg_value


def check_is_int(arg_value, arg_name=None, prim_name=None):
    return _check_is_number(arg_value, int, arg_name, prim_name)


def check_is_float(arg_value, arg_name=None, prim_name=None):
    return _check_is_number(arg_value, float, arg_name, prim_name)


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    return _check_number(arg_value, value, rel, int, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    return _check_number(arg_value, value, rel, float, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GT, int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GE, int, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GT, float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, GE, float, arg_name, prim_name)


def check_number_range(arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None, prim_name=None):
    """``arg_value`` (a ``value_type`` or NumPy number) within the interval ``rel`` of the two limits."""
    subject = _subject(arg_name, prim_name)
    if not isinstance(arg_value, (np.ndarray, np.generic, value_type)) or isinstance(arg_value, bool):
        raise TypeError(f"{subject} must be '{value_type.__name__}',  but got '{type(arg_value).__name__}'.")
    left, right, holds = _RANGES[rel]
    if not holds(lower_limit, arg_value, upper_limit):
        raise ValueError(f"{subject} must be in range of {left}{lower_limit}, {upper_limit}{right}, but got "
                         f"{arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower_limit, upper_limit, rel, int, arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    return check_number_range(arg_value, lower_limit, upper_limit, rel, float, arg_name, prim_name)


def check_bool(arg_value, arg_name=None, prim_name=None):
    if not isinstance(arg_value, bool):
        raise TypeError(f"{_subject(arg_name, prim_name)} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    if not (isinstance(arg_value, str) and arg_value in valid_values):
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise ValueError(f"{prefix} '{arg_name or 'parameter'}' must be str and must be in '{valid_values}', but got "
                         f"'{arg_value}'.")
    return arg_value


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """``arg_value`` is an instance of one of ``valid_types`` (``bool`` passes only where listed)."""
    valid_types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    if (isinstance(arg_value, bool) and bool not in valid_types) or not isinstance(arg_value, valid_types):
        names = [getattr(t, "__name__", str(t)) for t in valid_types]
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        wanted = f"one of '{names}'" if len(names) > 1 else f"'{names[0]}'"
        raise TypeError(f"{prefix} type of '{arg_name}' should be {wanted}, but got type "
                        f"'{type(arg_value).__name__}'.")
    return arg_value
