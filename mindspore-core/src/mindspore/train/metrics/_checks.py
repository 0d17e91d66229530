"""Argument checks of the metrics added with the segmentation/sensitivity family, worded as MindSpore's
validator words them ("The type of 'percentile' should be 'float', but got type 'int'.")."""
from __future__ import annotations

__all__ = []


def check_value_type(arg_name, value, valid_types):
    """``value`` must be an instance of one of ``valid_types`` (a bool is not an int here, as in MindSpore)."""
    valid_types = tuple(valid_types)
    ok = isinstance(value, valid_types) and not (isinstance(value, bool) and bool not in valid_types)
    if not ok:
        names = [t.__name__ for t in valid_types]
        shown = f"'{names[0]}'" if len(names) == 1 else f"'{names}'"
        raise TypeError(f"The type of '{arg_name}' should be {'one of ' if len(names) > 1 else ''}{shown}, "
                        f"but got type '{type(value).__name__}'.")
    return value


def check_string(value, valid_values, arg_name):
    """``value`` must be one of the strings ``valid_values``."""
    if not isinstance(value, str) or value not in valid_values:
        raise ValueError(f"The '{arg_name}' must be str and must be in '{list(valid_values)}', but got '{value}'.")
    return value
