"""Argument checks of the added callbacks, worded as MindSpore's validators word them (the callbacks use three
different validators there, so three styles)."""
from __future__ import annotations

import os

__all__ = []


def check_isinstance(arg_name, value, cls):
    """MindSpore's ``Validator.check_isinstance``: a ValueError."""
    if not isinstance(value, cls):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {cls}, but got {value}.")
    return value


def check_positive_int(value, arg_name=None):
    """MindSpore's ``Validator.check_positive_int`` (bools refused)."""
    who = f"The '{arg_name}'" if arg_name else "The input value"
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{who} must be int, but got '{type(value).__name__}'")
    if value <= 0:
        raise ValueError(f"{who} must be int and must > 0, but got '{value}' with type '{type(value).__name__}'.")
    return value


def check_bool(value, arg_name=None):
    """MindSpore's ``Validator.check_bool``."""
    if not isinstance(value, bool):
        who = f"The '{arg_name}'" if arg_name else "The input value"
        raise TypeError(f"{who} must be a bool, but got {type(value).__name__}.")
    return value


def check_value_type(arg_name, value, valid_types):
    """``mindspore.train._utils.check_value_type``: ``For `name` the type should be a valid type of [...]``."""
    if not isinstance(valid_types, (list, tuple)):
        valid_types = [valid_types]
    valid_types = tuple(valid_types)
    if isinstance(value, bool) and bool not in valid_types:
        ok = False
    else:
        ok = isinstance(value, valid_types)
    if not ok:
        names = [t.__name__ for t in valid_types]
        raise TypeError(f"For `{arg_name}` the type should be a valid type of {names}, but got "
                        f"{type(value).__name__}.")
    return value


def make_directory(path, arg_name="path"):
    """Create ``path`` (0o700) if needed and return its real path; a non-string path is a TypeError."""
    if not isinstance(path, str) or not path.strip():
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    path = os.path.realpath(path)
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path
