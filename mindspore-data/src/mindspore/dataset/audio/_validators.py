"""Argument checks of ``mindspore.dataset.audio`` with MindSpore's messages.

MindSpore's audio validators format types as a list (``[<class 'int'>]``) and print the value with
``str`` ("Argument n_fft with value 4.0 is not of type [<class 'int'>], but got <class 'float'>."), and
range errors as "Input NAME is not within the required interval of [LOW, HIGH]."; bool is never
accepted where a number is asked for.
"""
import numpy as np

from mindspore.plugin import MSTypeError, MSValueError

INT32_MIN = -2147483648
INT32_MAX = 2147483647
FLOAT_MAX_INTEGER = 16777216
FLOAT_MIN_INTEGER = -16777216


def type_check(value, types, name):
    """``value`` is an instance of ``types``; ``bool`` only where it is listed."""
    types = types if isinstance(types, tuple) else (types,)
    bad_bool = isinstance(value, bool) and bool not in types and int in types
    if bad_bool or not isinstance(value, types):
        shown = '""' if repr(value) == repr("") else value
        raise MSTypeError(f"Argument {name} with value {shown} is not of type {list(types)}, "
                          f"but got {type(value)}.")
    return value


def check_value(value, low, high, name, left_open=False, right_open=False):
    """``low <= value <= high`` (either end open on request)."""
    too_low = value <= low if left_open else value < low
    too_high = value >= high if right_open else value > high
    if too_low or too_high:
        left, right = ("(" if left_open else "["), (")" if right_open else "]")
        raise MSValueError(f"Input {name} is not within the required interval of {left}{low}, {high}{right}.")
    return value


def check_int32(value, name):
    type_check(value, (int,), name)
    return check_value(value, INT32_MIN, INT32_MAX, name)


def check_pos_int32(value, name):
    type_check(value, (int,), name)
    return check_value(value, 1, INT32_MAX, name)


def check_non_negative_int32(value, name):
    type_check(value, (int,), name)
    return check_value(value, 0, INT32_MAX, name)


def check_int32_not_zero(value, name):
    type_check(value, (int,), name)
    if value < INT32_MIN or value > INT32_MAX or value == 0:
        raise MSValueError(f"Input {name} is not within the required interval of [-2147483648, 0) and "
                           f"(0, 2147483647].")
    return value


def check_float32(value, name):
    type_check(value, (float, int), name)
    return check_value(value, FLOAT_MIN_INTEGER, FLOAT_MAX_INTEGER, name)


def check_pos_float32(value, name):
    type_check(value, (float, int), name)
    return check_value(value, 0, FLOAT_MAX_INTEGER, name, left_open=True)


def check_non_negative_float32(value, name):
    type_check(value, (float, int), name)
    return check_value(value, 0, FLOAT_MAX_INTEGER, name)


def check_float32_not_zero(value, name):
    type_check(value, (float, int), name)
    if value < FLOAT_MIN_INTEGER or value > FLOAT_MAX_INTEGER or value == 0:
        raise MSValueError(f"Input {name} is not within the required interval of [-16777216, 0) and "
                           f"(0, 16777216].")
    return value


def check_win_length(win_length, n_fft):
    if win_length is not None and win_length > n_fft:
        raise MSValueError(f"Input win_length should be no more than n_fft, but got win_length: {win_length} "
                           f"and n_fft: {n_fft}.")


def check_ndarray(value, name):
    return type_check(value, (np.ndarray,), name)
