"""Checks and helpers shared by the distributions and the bijectors.

Construction-time checks (a negative ``sd``, probabilities outside (0, 1), ...) look at concrete values with NumPy
and raise at once, as MindSpore 2.10 does; a ``Parameter`` is not checked (it is trained, its value changes). The
call-time checks (``_check_tensor``, ``_check_tuple``, ``_check_dist_name``) are plain Python on values that are
constants in graph mode, so they raise while the graph is built. Messages are 2.10's, word for word.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor

__all__ = []

_INT_TYPES = tuple(mstype.int_type) + tuple(mstype.uint_type)


def _type_list(valid):
    return "[" + ", ".join(repr(t) for t in valid) + "]"


def check_dtype(dtype, valid, cls_name, arg_name="dtype"):
    """``dtype`` must be one of ``valid`` (MindSpore's ``check_type_name``)."""
    if dtype not in valid:
        raise MSTypeError(f"For '{cls_name}', the '{arg_name}' should be one of {_type_list(valid)}, "
                          f"but got '{dtype!r}'.")
    return dtype


def check_instance(arg_name, value, cls, cls_name):
    """``value`` must be an instance of ``cls`` (MindSpore's ``check_value_type`` with one type)."""
    if isinstance(value, bool) and cls is not bool or not isinstance(value, cls):
        raise MSTypeError(f"For '{cls_name}', the type of '{arg_name}' should be '{cls.__name__}', "
                          f"but got type '{type(value).__name__}'.")
    return value


def check_seed(seed, name):
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise MSTypeError(f"For '{name}', the 'seed' must be int, but got '{type(seed).__name__}'")
    if seed < 0:
        raise MSValueError(f"For '{name}', the 'seed' must be int and must >= 0, but got '{seed}' with type 'int'.")
    return seed


def cast_to_tensor(value, dtype=mstype.float32):
    """A distribution's or bijector's default parameter as a Tensor of ``dtype`` (a Parameter is kept as is)."""
    if value is None:
        raise MSValueError("Input cannot be None in cast_to_tensor")
    if isinstance(value, Parameter):
        return value
    if isinstance(value, bool):
        raise MSTypeError("Input cannot be Type Bool")
    if isinstance(value, (Tensor, np.ndarray, list, int, float)):
        return Tensor(value.asnumpy() if isinstance(value, Tensor) else value, dtype=dtype)
    raise MSTypeError(f"Unable to convert input of type {type(value)} to a Tensor of type {dtype}")


def param_type(params, hint):
    """The dtype the parameters compute in: their common float dtype, float32 for ints, float64, or no dtype."""
    if hint is None or hint in _INT_TYPES:
        hint = mstype.float32
    common = None
    for name, value in params.items():
        if not hasattr(value, "dtype"):
            continue
        cur = mstype.pytype_to_dtype(value.dtype) if isinstance(value, np.ndarray) else value.dtype
        if common is None:
            common = cur
        elif cur != common:
            raise MSTypeError(f"{name} should have the same dtype as other arguments.")
    if common in _INT_TYPES or common == mstype.float64:
        return mstype.float32
    return hint if common is None else common


def batch_shape_of(params):
    """The broadcast shape of the initial parameters, or None when one of them is left for the calls."""
    shapes = []
    for value in params.values():
        if value is None:
            return None
        shapes.append(np.shape(value.asnumpy() if isinstance(value, Tensor) else value))
    return tuple(np.broadcast_shapes(*shapes)) if shapes else ()


def is_scalar_batch(params):
    return all(value is None or isinstance(value, (int, float)) for value in params.values())


def _host(value):
    """The concrete value to check, or None for a Parameter (trained, so never checked)."""
    if isinstance(value, Parameter):
        return None
    return value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)


def check_greater_zero(value, name):
    data = _host(value)
    if data is not None and not np.all(data > 0):
        raise MSValueError(f"{name} must be greater than zero.")


def check_greater_equal_zero(value, name):
    data = _host(value)
    if data is not None and np.any(data < 0):
        raise MSValueError(f"{name} must be greater than or equal to zero.")


def check_greater(low, high, name_low, name_high):
    if isinstance(low, Parameter) or isinstance(high, Parameter):
        return
    if not np.all(_host(low) < _host(high)):
        raise MSValueError(f"{name_low} must be less than {name_high}")


def check_prob(probs):
    data = _host(probs)
    if data is None:
        return
    if not np.all(data > 0):
        raise MSValueError("Probabilities must be greater than zero")
    if not np.all(data < 1):
        raise MSValueError("Probabilities must be less than one")


def check_categorical_probs(probs):
    data = _host(probs)
    if data is None:
        return
    if data.ndim == 0:
        raise MSValueError("probs for Categorical distribution must have rank >= 1.")
    check_prob(probs)
    total = np.sum(data, axis=-1)
    eps = np.finfo(total.dtype).eps
    if not np.allclose(total, np.ones(total.shape), rtol=eps * 10, atol=eps):
        raise MSValueError("Probabilities for each category should sum to one for Categorical distribution.")


def check_scalar_free(cls_name, **params):
    """Gamma, Beta and Poisson take tensors only (2.10 refuses Python numbers for them)."""
    for name, value in params.items():
        if isinstance(value, float) or (cls_name != "Beta" and isinstance(value, int)):
            raise MSTypeError(f"Input {name} can't be scalar")


# ---- call-time checks (graph mode: on compile-time constants) ---------------------------------------------------
def check_tensor(value, name):
    if value is not None and not isinstance(value, Tensor):
        raise MSTypeError(f"For {name}, input type must be a Tensor or Parameter.")
    return value


def check_tuple(value, name):
    if not isinstance(value, tuple):
        raise MSTypeError(f"For {name}, input type must be a tuple.")
    return value


def check_dist_name(name, expected):
    if name is None:
        raise MSValueError("Input dist must be a constant which is not None.")
    if name != expected:
        raise MSValueError(f"Expected dist input is {expected}, but got {name}.")


def raise_none_error(name):
    raise MSTypeError(f"the type {name} must be subclass of Tensor. It can not be None since it is not specified "
                      f"during initialization.")


def raise_not_implemented(func_name, dist_name):
    raise NotImplementedError(f"{func_name} is not implemented for {dist_name} distribution.")


def raise_not_defined(func_name, dist_name):
    raise MSValueError(f"{func_name} is undefined for {dist_name} distribution.")


# ---- numerics shared by the distributions and the bijectors ----------------------------------------------------
_SOFTPLUS_THRESHOLD = float(np.log(np.finfo(np.float32).eps) + 1.0)


def log(x):
    """log that takes integer input as float32 (2.10's ``log_generic``; log(0) = -inf, log(x < 0) = nan)."""
    if x.dtype not in mstype.float_type:
        x = ops.cast(x, mstype.float32)
    return ops.log(x)


def stable_softplus(x):
    """log(1 + exp(x)): exp(x) below the float32 threshold and x above its negative (2.10's formulation)."""
    too_small = x < _SOFTPLUS_THRESHOLD
    too_large = x > -_SOFTPLUS_THRESHOLD
    safe_x = ops.select(ops.logical_or(too_small, too_large), ops.ones_like(x), x)
    y = log(ops.exp(safe_x) + 1.0)
    return ops.select(too_small, ops.exp(x), ops.select(too_large, x, y))
