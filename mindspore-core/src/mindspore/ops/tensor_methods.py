"""Tensor methods with MindSpore 2.10's signatures, mapped onto the functional ops.

Design
------
``Tensor.__getattr__`` asks :func:`lookup_method` for every attribute the class does not define, so
``x.exp()``, ``x.sum(axis=1)``, ``x.reshape(2, 3)`` need no method spelled on the class. There are three kinds
of entry:

* ``_SAME``: the method is the functional op with the tensor as first argument (``x.exp()`` is ``ops.exp(x)``).
* adapters: small functions for methods whose signature differs from the functional op
  (``x.reshape(2, 3)``, ``x.transpose()``, ``x.repeat(2, 3)``, in-place ``x.add_(y)``...).
* overloads: MindSpore 2.10 gives many methods two signatures, a new torch-style one and a deprecated
  numpy-style one (``x.sum(dim, keepdim, *, dtype)`` and ``x.sum(axis, dtype, keepdims, initial)``). MindSpore
  tries them in the documented order and runs the first one whose parameters bind and whose argument types
  match; :func:`_overload` does the same, and reports every valid calling form when none matches.

Each adapter names the functional ops it needs; when one is missing from ``mindspore.ops.functional``,
:func:`lookup_method` returns ``None`` and the attribute simply does not exist (a clean ``AttributeError``).
Results are cached per name: the functional module's contents are fixed once imported.
"""
from __future__ import annotations

import inspect
import numbers

import numpy as np

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore._autodiff import tape as _tape
from mindspore._core.primitive import mixed_precision_input
from mindspore._infer.staging import StagedTensor
from mindspore.common.generator import drawing_from
from mindspore.common.tensor import Tensor
from mindspore.ops import _higher as _higher_modules
from mindspore.ops import functional as F
from mindspore._runtime import backend as _backend
from mindspore.ops.function import _indexing
from mindspore.ops.function._indexing import tensor_setitem_value

__all__ = ["lookup_method", "method_names", "provide"]

# method name -> functional name (same signature, the tensor as first argument)
_SAME = {
    # unary
    "abs": "abs", "absolute": "abs", "neg": "neg", "negative": "neg", "exp": "exp", "exp2": "exp2",
    "expm1": "expm1", "log": "log", "log1p": "log1p", "log2": "log2", "log10": "log10", "sqrt": "sqrt",
    "rsqrt": "rsqrt", "square": "square", "reciprocal": "reciprocal", "sign": "sign", "sin": "sin", "cos": "cos",
    "tan": "tan", "tanh": "tanh", "sinh": "sinh", "cosh": "cosh", "asin": "asin", "arcsin": "asin", "acos": "acos",
    "arccos": "acos", "atan": "atan", "arctan": "atan", "asinh": "asinh", "arcsinh": "asinh", "acosh": "acosh",
    "arccosh": "acosh", "atanh": "atanh", "arctanh": "atanh", "erf": "erf", "erfc": "erfc", "erfinv": "erfinv",
    "sigmoid": "sigmoid", "relu": "relu", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "fix": "trunc",
    "frac": "frac", "sinc": "sinc", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
    "logical_not": "logical_not", "bitwise_not": "bitwise_not", "t": "t", "deg2rad": "deg2rad",
    "rad2deg": "rad2deg",
    # binary
    "mul": "mul", "multiply": "mul", "div": "div", "divide": "div", "true_divide": "div",
    "floor_divide": "floor_divide", "remainder": "remainder", "fmod": "fmod", "pow": "pow",
    "float_power": "float_power", "maximum": "maximum", "minimum": "minimum", "fmax": "fmax", "fmin": "fmin",
    "equal": "equal", "eq": "equal", "not_equal": "not_equal", "ne": "not_equal", "greater": "greater",
    "gt": "greater", "greater_equal": "greater_equal", "ge": "greater_equal", "less": "less", "lt": "less",
    "less_equal": "less_equal", "le": "less_equal", "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor", "atan2": "atan2", "arctan2": "atan2", "matmul": "matmul", "mm": "mm",
    "bmm": "bmm", "dot": "dot", "outer": "outer", "inner": "inner", "kron": "kron", "xlogy": "xlogy",
    "hypot": "hypot", "copysign": "copysign", "logaddexp": "logaddexp", "logaddexp2": "logaddexp2",
    "gcd": "gcd", "lcm": "lcm", "heaviside": "heaviside", "isclose": "isclose", "lerp": "lerp",
    "addcmul": "addcmul", "addcdiv": "addcdiv",
    # others with the functional signature
    "masked_fill": "masked_fill", "masked_select": "masked_select", "nan_to_num": "nan_to_num",
    "tril": "tril", "triu": "triu", "roll": "roll", "flip": "flip", "diag": "diag", "narrow": "narrow",
    "broadcast_to": "broadcast_to", "log_softmax": "log_softmax", "logsumexp": "logsumexp",
    "cummax": "cummax", "cummin": "cummin", "bincount": "bincount", "hardshrink": "hardshrink",
    "median": "median", "count_nonzero": "count_nonzero", "topk": "topk",
    # special functions and linear algebra (the same arguments as the ops functions, the tensor first)
    "digamma": "digamma", "lgamma": "lgamma", "i0": "i0", "igamma": "igamma", "igammac": "igammac",
    "mvlgamma": "mvlgamma", "nextafter": "nextafter", "svd": "svd", "lstsq": "lstsq", "lu_solve": "lu_solve",
    "geqrf": "geqrf", "orgqr": "orgqr", "ormqr": "ormqr", "eigvals": "eigvals", "fold": "fold", "unfold": "unfold",
    "col2im": "col2im",
    "to_coo": "dense_to_sparse_coo", "to_csr": "dense_to_sparse_csr",     # sparse forms (ops/function/sparse_func)
}

_METHODS = {}     # name -> (function, needs)
_CACHE = {}


def _register(name, needs=(), *aliases):
    """Register the decorated adapter as Tensor method ``name`` (and ``aliases``) needing functional ``needs``."""
    def deco(fn):
        for n in (name,) + aliases:
            _METHODS[n] = (fn, tuple(needs))
        return fn
    return deco


def lookup_method(name):
    """The function implementing ``Tensor.<name>`` (the tensor as first argument), or ``None``."""
    try:
        return _CACHE[name]
    except KeyError:
        pass
    fn = None
    entry = _METHODS.get(name)
    if entry is not None:
        if all(hasattr(F, n) for n in entry[1]):
            fn = entry[0]
    elif name in _SAME:
        fn = getattr(F, _SAME[name], None)
    _CACHE[name] = fn
    return fn


def method_names():
    """Every Tensor method name this table can provide (some need functional ops that may be missing)."""
    return sorted(set(_METHODS) | set(_SAME))


# -- argument kinds for overload resolution ---------------------------------------------------------------
def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_bool(v):
    return isinstance(v, (bool, np.bool_))


def _is_ints(v):
    return _is_int(v) or (isinstance(v, (tuple, list)) and all(_is_int(a) for a in v))


def _opt(check):
    def opt(v):
        return v is None or check(v)
    opt.__name__ = f"None|{_KIND_NAMES.get(check, check.__name__)}"   # (_KIND_NAMES: defined below, read here)
    return opt


def _is_dtype(v):
    return isinstance(v, mstype.Type)


def _is_tensor(v):
    return isinstance(v, Tensor)


def _is_number(v):
    return isinstance(v, numbers.Number) and not isinstance(v, Tensor)


def _is_tensor_or_number(v):
    return isinstance(v, (Tensor, numbers.Number))


def _is_str(v):
    return isinstance(v, str)


_KIND_NAMES = {_is_int: "int", _is_bool: "bool", _is_ints: "int|tuple[int]", _is_dtype: "mindspore.dtype",
               _is_tensor: "Tensor", _is_number: "number", _is_tensor_or_number: "Tensor|number", _is_str: "str"}


def _kinds(**checks):
    """Attach argument-kind checks to an overload candidate."""
    def deco(fn):
        fn._checks = checks
        fn._sig = inspect.signature(fn)
        return fn
    return deco


def _describe(fn):
    params = list(fn._sig.parameters.values())[1:]
    out, star = [], False
    for p in params:
        if p.kind is p.KEYWORD_ONLY and not star:
            out.append("*")
            star = True
        check = fn._checks.get(p.name)
        kind = _KIND_NAMES.get(check, getattr(check, "__name__", "any")) if check else "any"
        prefix = "*" if p.kind is p.VAR_POSITIONAL else ""
        out.append(f"{prefix}{p.name}=<{kind}>")
    return ", ".join(out)


def _type_name(v):
    return "Tensor" if isinstance(v, Tensor) else type(v).__name__


def _kind_key(v):
    """What overload resolution looks at in an argument: its type (and its items' types for a sequence)."""
    t = type(v)
    return (t, tuple(map(type, v))) if t is tuple or t is list else t


def _overload(name, *candidates, needs=()):
    """Register Tensor method ``name`` dispatching to the first candidate whose arguments bind and match.

    The checks look only at argument types, so the choice is cached per (argument kinds, keyword names).
    """
    chosen = {}

    def resolve(args, kwargs):
        for fn in candidates:
            try:
                bound = fn._sig.bind(*args, **kwargs)
            except TypeError:
                continue
            if all(_arg_ok(fn._checks.get(k), v, fn._sig.parameters[k]) for k, v in bound.arguments.items()):
                return fn
        got = ", ".join([_type_name(a) for a in args[1:]] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
        valid = "\n".join(f'    "Tensor.{name}({_describe(fn)})"' for fn in candidates)
        raise MSTypeError(f'Failed calling Tensor.{name} with "{name}({got})".\nThe valid calling should be:\n{valid}')

    def dispatch(*args, **kwargs):
        key = (tuple(map(_kind_key, args[1:])), tuple((k, _kind_key(v)) for k, v in kwargs.items()))
        fn = chosen.get(key)
        if fn is None:
            fn = resolve(args, kwargs)
            if len(chosen) < 512:
                chosen[key] = fn
        return fn(*args, **kwargs)
    dispatch.__name__ = name
    dispatch.__qualname__ = f"Tensor.{name}"
    dispatch.__doc__ = f"Tensor.{name}: one of\n" + "\n".join(f"    {name}({_describe(fn)})" for fn in candidates)
    _METHODS[name] = (dispatch, tuple(needs))
    return dispatch


def _arg_ok(check, value, param):
    if check is None:
        return True
    if param.kind is param.VAR_POSITIONAL:
        return all(check(v) for v in value)
    return check(value)


# -- helpers ----------------------------------------------------------------------------------------------
def _shape_arg(op, shape):
    """``(2, 3)`` from ``reshape(2, 3)``, ``reshape((2, 3))`` or ``reshape([2, 3])``."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    if not all(_is_int(s) for s in shape):
        raise MSTypeError(f"For 'Tensor.{op}', the shape must be ints or a tuple/list of ints, but got {shape}.")
    return tuple(int(s) for s in shape)


def _axis(op, axis, ndim):
    if not _is_int(axis):
        raise MSTypeError(f"For 'Tensor.{op}', the axis must be int, but got {type(axis).__name__}.")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise MSValueError(f"For 'Tensor.{op}', the axis must be in range [{-max(ndim, 1)}, {max(ndim, 1)}), "
                           f"but got {axis}.")
    return axis % max(ndim, 1)


def _perm(op, axes, ndim):
    """A full permutation from ``transpose(*axes)`` arguments: none -> reversed, else ints or one tuple."""
    if not axes or (len(axes) == 1 and axes[0] is None):
        return tuple(range(ndim - 1, -1, -1))
    if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    if not all(_is_int(a) for a in axes):
        raise MSTypeError(f"For 'Tensor.{op}', the axes must be ints or a tuple of ints, but got {axes}.")
    if len(axes) != ndim:
        raise MSValueError(f"For 'Tensor.{op}', the length of 'axes' must equal the rank of the tensor {ndim}, "
                           f"but got {len(axes)}.")
    perm = tuple(_axis(op, a, ndim) for a in axes)
    if len(set(perm)) != ndim:
        raise MSValueError(f"For 'Tensor.{op}', the axes must not repeat, but got {axes}.")
    return perm


def _swap(x, op, a, b):
    perm = list(range(x.ndim))
    a, b = _axis(op, a, x.ndim), _axis(op, b, x.ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return F.transpose(x, tuple(perm))


def _all_axes(x):
    return tuple(range(x.ndim))


def _inplace(x, out, op):
    """Write ``out`` into ``x`` (MindSpore's in-place methods return the updated tensor itself)."""
    if tuple(out.shape) != tuple(x.shape):
        raise MSValueError(f"For 'Tensor.{op}', the in-place result shape {tuple(out.shape)} must equal the tensor "
                           f"shape {tuple(x.shape)}.")
    if isinstance(x, StagedTensor):   # inside @jit: the updated value takes the variable's place
        x.rebind(out if out.dtype is x.dtype else F.cast(out, x.dtype))
        return x
    return _write(x, out)  # an in-place method keeps the tensor's dtype


# -- shape and layout -------------------------------------------------------------------------------------
@_register("reshape", ("reshape",))
def _reshape(self, *shape):
    """``x.reshape(2, 3)`` or ``x.reshape((2, 3))``; one dimension may be -1."""
    return F.reshape(self, _shape_arg("reshape", shape))


@_kinds(shape=_is_int)
def _view_shape(self, *shape):
    return F.reshape(self, _shape_arg("view", shape))


@_kinds(shape=_is_ints)
def _view_seq(self, shape):
    return F.reshape(self, _shape_arg("view", (shape,)))


@_kinds(dtype=_is_dtype)
def _view_dtype(self, dtype):
    """The same bytes read as ``dtype`` (the last dimension rescaled by the itemsize ratio), as torch/MindSpore.

    The bytes go through the host: no kernel reinterprets memory, and this is a debugging view, not a hot path.
    """
    dtype = mstype.to_ms_dtype(dtype)
    data = self.asnumpy()
    try:
        viewed = np.ascontiguousarray(data).view(dtype.to_numpy())
    except ValueError as exc:
        raise MSValueError(f"For 'Tensor.view', the data of shape {tuple(self.shape)} and dtype {self.dtype} "
                           f"can not be viewed as {dtype}: {exc}") from None
    return Tensor(viewed, dtype)


_overload("view", _view_shape, _view_seq, _view_dtype, needs=("reshape",))


@_register("view_as", ("reshape",))
def _view_as(self, other):
    return F.reshape(self, tuple(other.shape))


@_register("ravel", ("reshape",))
def _ravel(self):
    return F.reshape(self, (-1,))


def _flatten_dims(self, op, start_dim, end_dim):
    ndim = self.ndim
    if ndim == 0:
        return F.reshape(self, (1,))
    start, end = _axis(op, start_dim, ndim), _axis(op, end_dim, ndim)
    if start > end:
        raise MSValueError(f"For 'Tensor.{op}', 'start_dim' {start_dim} must not be after 'end_dim' {end_dim}.")
    shape = self.shape
    merged = 1
    for s in shape[start:end + 1]:
        merged *= s
    return F.reshape(self, tuple(shape[:start]) + (merged,) + tuple(shape[end + 1:]))


@_kinds(start_dim=_is_int, end_dim=_is_int)
def _flatten_new(self, start_dim=0, end_dim=-1):
    return _flatten_dims(self, "flatten", start_dim, end_dim)


@_kinds(order=_is_str, start_dim=_is_int, end_dim=_is_int)
def _flatten_old(self, order="C", *, start_dim=0, end_dim=-1):
    if order not in ("C", "F"):
        raise MSValueError(f"For 'Tensor.flatten', 'order' must be 'C' or 'F', but got '{order}'.")
    x = self if order == "C" or self.ndim < 2 else F.transpose(self, tuple(range(self.ndim - 1, -1, -1)))
    return _flatten_dims(x, "flatten", start_dim, end_dim)


_overload("flatten", _flatten_new, _flatten_old, needs=("reshape", "transpose"))


@_kinds(dim0=_is_int, dim1=_is_int)
def _transpose_pair(self, dim0, dim1):
    return _swap(self, "transpose", dim0, dim1)


def _transpose_axes(self, *axes):
    return F.transpose(self, _perm("transpose", axes, self.ndim))


_kinds()(_transpose_axes)
_overload("transpose", _transpose_pair, _transpose_axes, needs=("transpose",))


@_register("permute", ("transpose",))
def _permute(self, *axis):
    """``x.permute(2, 0, 1)`` or ``x.permute((2, 0, 1))``."""
    return F.transpose(self, _perm("permute", axis, self.ndim))


@_register("swapaxes", ("transpose",))
def _swapaxes(self, axis0, axis1):
    return _swap(self, "swapaxes", axis0, axis1)


@_register("swapdims", ("transpose",))
def _swapdims(self, dim0, dim1):
    return _swap(self, "swapdims", dim0, dim1)


@_register("moveaxis", ("transpose",), "movedim")
def _moveaxis(self, source, destination):
    src = (source,) if _is_int(source) else tuple(source)
    dst = (destination,) if _is_int(destination) else tuple(destination)
    if len(src) != len(dst):
        raise MSValueError("For 'Tensor.moveaxis', 'source' and 'destination' must have the same number of axes, "
                           f"but got {source} and {destination}.")
    nd = self.ndim
    src = [_axis("moveaxis", a, nd) for a in src]
    dst = [_axis("moveaxis", a, nd) for a in dst]
    rest = [a for a in range(nd) if a not in src]
    perm = [None] * nd
    for s, d in zip(src, dst):
        perm[d] = s
    it = iter(rest)
    perm = tuple(p if p is not None else next(it) for p in perm)
    return F.transpose(self, perm)


@_register("expand_dims", ("expand_dims",))
def _expand_dims(self, axis):
    return F.expand_dims(self, axis)


@_register("unsqueeze", ("expand_dims",))
def _unsqueeze(self, dim=None, *, axis=None):
    """``dim`` (or MindSpore's older keyword ``axis``) is where the new size-1 dimension goes."""
    if dim is None:
        if axis is None:
            raise MSTypeError("For 'Tensor.unsqueeze', the 'dim' must be an int, but got None.")
        dim = axis
    return F.expand_dims(self, dim)


@_kinds(dim=_is_ints)
def _squeeze_dim(self, dim):
    return F.squeeze(self, tuple(dim) if isinstance(dim, list) else dim)


@_kinds(axis=_opt(_is_ints))
def _squeeze_axis(self, axis=None):
    return F.squeeze(self, tuple(axis) if isinstance(axis, list) else axis)


_overload("squeeze", _squeeze_dim, _squeeze_axis, needs=("squeeze",))


def _is_int_or_tensor(v):
    return _is_int(v) or isinstance(v, Tensor)


_KIND_NAMES[_is_int_or_tensor] = "int|Tensor"


@_kinds(dim=_is_int_or_tensor, index=_is_tensor, src=_is_tensor_or_number, reduce=_opt(_is_str))
def _scatter_dim(self, dim, index, src, *, reduce=None):
    """2.10's ``x.scatter(dim, index, src|value, *, reduce)``: ``src`` may be a number; ``reduce='add'`` adds a
    Tensor ``src`` (2.10's CPU kernel writes a number ``value`` whatever ``reduce`` says, and fails on a Tensor
    ``src`` with ``reduce='multiply'``)."""
    dim = int(dim)
    if reduce is None or not isinstance(src, Tensor):
        return _mint().scatter(self, dim, index, src)
    if reduce != "add":
        raise MSRuntimeError(f"For 'Scatter', the 'reduce' {reduce!r} is not supported on CPU, only 'add'.")
    return _mint().scatter_add(self, dim, index, src)


@_kinds(axis=_is_int, index=_is_tensor, src=_is_tensor_or_number)
def _scatter_axis(self, axis, index, src):
    return _mint().scatter(self, axis, index, src)


_overload("scatter", _scatter_dim, _scatter_axis)


@_register("expand_as", ("broadcast_to",))
def _expand_as(self, other):
    return F.broadcast_to(self, tuple(other.shape))


@_register("expand", ("broadcast_to",))
def _expand(self, *size):
    """``x.expand(3, -1)``: broadcast to ``size``; -1 keeps a dimension."""
    size = _shape_arg("expand", size)
    lead = len(size) - self.ndim
    shape = tuple(self.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(size))
    return F.broadcast_to(self, shape)


@_kinds(split_size=_is_ints, dim=_is_int)
def _split_new(self, split_size, dim=0):
    return F.split(self, split_size, dim)


@_kinds(split_size_or_sections=_is_ints, axis=_is_int)
def _split_old(self, split_size_or_sections, axis=0):
    return F.split(self, split_size_or_sections, axis)


_overload("split", _split_new, _split_old, needs=("split",))


@_kinds(chunks=_is_int, dim=_is_int)
def _chunk_new(self, chunks, dim=0):
    return F.chunk(self, chunks, dim)


@_kinds(chunks=_is_int, axis=_is_int)
def _chunk_old(self, chunks, axis=0):
    return F.chunk(self, chunks, axis)


_overload("chunk", _chunk_new, _chunk_old, needs=("chunk",))


@_kinds(dims=_is_ints)
def _tile_new(self, dims):
    return F.tile(self, (dims,) if _is_int(dims) else tuple(dims))


@_kinds(reps=_is_ints)
def _tile_old(self, reps):
    return F.tile(self, (reps,) if _is_int(reps) else tuple(reps))


@_kinds(dims=_is_int)
def _tile_varargs(self, *dims):
    """``x.tile(2, 3)``: the repetitions as separate ints, as torch and MindSpore 2.10 allow."""
    return F.tile(self, tuple(dims))


_overload("tile", _tile_new, _tile_old, _tile_varargs, needs=("tile",))


def _repeat_tile(self, sizes):
    """MindSpore 2.10's ``Tensor.repeat(*repeats)`` (PyTorch's): the tensor tiled ``sizes[i]`` times along each dim,
    leading dims of size 1 added when ``sizes`` is longer than the rank."""
    sizes = tuple(int(s) for s in sizes)
    if len(sizes) < self.ndim:
        raise MSRuntimeError(f"For 'repeat', the number of elements of 'repeats' {len(sizes)} must be greater than or "
                             f"equal to the number of dimensions of the input {self.ndim}.")
    if any(s < 0 for s in sizes):
        raise MSRuntimeError(f"For 'repeat', the elements of 'repeats' must be non-negative, but got {sizes}.")
    x = F.reshape(self, (1,) * (len(sizes) - self.ndim) + tuple(self.shape))
    return F.tile(x, sizes)


@_kinds(repeats=_is_ints)
def _repeat_new(self, repeats):
    """``x.repeat((2, 3))``: 2.10's form with the repetitions as one tuple."""
    return _repeat_tile(self, (repeats,) if _is_int(repeats) else repeats)


@_kinds(repeats=_is_int)
def _repeat_varargs(self, *repeats):
    """``x.repeat(2, 3)``: 2.10's form with the repetitions as separate ints."""
    return _repeat_tile(self, repeats)


@_kinds(repeats=_is_ints, axis=_is_int)
def _repeat_numpy(self, repeats, *, axis):
    """``x.repeat(2, axis=0)``: the NumPy-style repeat of MindSpore before 2.3 (2.10 raises TypeError for ``axis``);
    kept for the code written then."""
    return _repeat_elements_along(self, repeats, axis)


_overload("repeat", _repeat_numpy, _repeat_new, _repeat_varargs, needs=("repeat_elements", "reshape", "tile"))


def _repeat_elements_along(self, repeats, axis=None):
    """NumPy-style repeat: every element (along ``axis``; of the flattened tensor when None) ``repeats`` times."""
    x = self
    if axis is None:
        x = F.reshape(self, (-1,))
        axis = 0
    axis = _axis("repeat", axis, x.ndim)
    if x.ndim == 0:
        x = F.reshape(x, (1,))
    if _is_int(repeats):
        repeats = (repeats,)
    if not isinstance(repeats, (tuple, list)) or not all(_is_int(r) and r >= 0 for r in repeats):
        raise MSTypeError(f"For 'Tensor.repeat', 'repeats' must be a non-negative int or a tuple/list of them, "
                          f"but got {repeats}.")
    if len(repeats) == 1:
        return F.repeat_elements(x, int(repeats[0]), axis)
    if len(repeats) != x.shape[axis]:
        raise MSValueError(f"For 'Tensor.repeat', the number of 'repeats' {len(repeats)} must be 1 or equal the size "
                           f"{x.shape[axis]} of axis {axis}.")
    pieces = [F.repeat_elements(part, int(r), axis)
              for part, r in zip(F.split(x, 1, axis), repeats) if r > 0]
    return F.concat(tuple(pieces), axis)


@_register("resize", ("reshape", "concat", "zeros"))
def _resize(self, *new_shape):
    """A tensor of ``new_shape`` with this tensor's elements in order, zero-padded or truncated."""
    if not new_shape:
        return self
    shape = _shape_arg("resize", new_shape)
    flat = F.reshape(self, (-1,))
    size = 1
    for s in shape:
        size *= s
    diff = size - flat.shape[0]
    if diff > 0:
        flat = F.concat((flat, F.zeros((diff,), self.dtype)), 0)
    elif diff < 0:
        flat = flat[:size]
    return F.reshape(flat, shape)


# -- indexing-style ops -----------------------------------------------------------------------------------
@_kinds(dim=_is_int, index=_is_tensor)
def _gather_new(self, dim, index):
    return F.gather_elements(self, dim, index)


@_kinds(axis=_is_int, batch_dims=_is_int)
def _gather_old(self, input_indices, axis, batch_dims=0):
    return F.gather(self, input_indices, axis, batch_dims)


_overload("gather", _gather_new, _gather_old, needs=("gather",))


@_register("gather_elements", ("gather_elements",))
def _gather_elements(self, dim, index):
    return F.gather_elements(self, dim, index)


@_kinds(dim=_is_int, index=_is_tensor)
def _index_select_new(self, dim, index):
    return F.index_select(self, dim, index)


@_kinds(axis=_is_int, index=_is_tensor)
def _index_select_old(self, axis, index):
    return F.index_select(self, axis, index)


_overload("index_select", _index_select_new, _index_select_old, needs=("index_select",))


@_kinds(dim=_is_int, index=_is_int)
def _select_new(self, dim, index):
    dim = _axis("select", dim, self.ndim)
    return self[(slice(None),) * dim + (index,)]


@_kinds(condition=_is_tensor, y=_is_tensor_or_number)
def _select_old(self, condition, y):
    if not isinstance(y, (Tensor, int, float)):
        raise MSTypeError(f"For 'Tensor.select', the argument 'y' should be Tensor, int or float, but got {type(y)}.")
    if isinstance(y, int) and self.dtype is not mstype.int32:
        raise MSTypeError("For 'Tensor.select', if the argument 'y' is int, then the tensor type should be int32 "
                          f"but got {self.dtype}")
    if isinstance(y, float) and self.dtype is not mstype.float32:
        raise MSTypeError("For 'Tensor.select', if the argument 'y' is float, then the tensor type should be float32 "
                          f"but got {self.dtype}")
    if not isinstance(y, Tensor):
        y = F.fill(self.dtype, tuple(self.shape), y)
    return F.select(condition, self, y)


_overload("select", _select_new, _select_old, needs=("select", "fill"))


@_register("where", ("where",))
def _where(self, condition, y):
    """``condition ? self : y`` elementwise."""
    return F.where(condition, self, y)


@_register("nonzero", ("nonzero",))
def _nonzero(self, as_tuple=False):
    return F.nonzero(self, as_tuple=as_tuple) if as_tuple else F.nonzero(self)


@_kinds(dim=_is_int, descending=_is_bool, stable=_is_bool)
def _sort_new(self, dim=-1, descending=False, stable=False):
    return F.sort(self, dim, descending)


@_kinds(axis=_is_int, descending=_is_bool)
def _sort_old(self, axis=-1, descending=False):
    return F.sort(self, axis, descending)


_overload("sort", _sort_new, _sort_old, needs=("sort",))


@_kinds(dim=_is_int, descending=_is_bool, stable=_is_bool)
def _argsort_new(self, dim=-1, descending=False, stable=False):
    return F.argsort(self, dim, descending)


@_kinds(axis=_is_int, descending=_is_bool)
def _argsort_old(self, axis=-1, descending=False):
    return F.argsort(self, axis, descending)


_overload("argsort", _argsort_new, _argsort_old, needs=("argsort",))


@_register("median", ("median",))
def _median(self, axis=-1, keepdims=False, *, dim=None, keepdim=None):
    """``(values, indices)`` of the median along ``axis`` (or torch's keywords ``dim``/``keepdim``, as 2.10)."""
    return F.median(self, axis if dim is None else dim, keepdims if keepdim is None else keepdim)


@_register("unbind", ("unstack",))
def _unbind(self, dim=0):
    return F.unstack(self, dim)


@_register("scatter_add", ("tensor_scatter_add",))
def _scatter_add(self, indices, updates):
    return F.tensor_scatter_add(self, indices, updates)


# -- arithmetic with MindSpore's method-only keywords -----------------------------------------------------
def _operand(other):
    """A tuple or list operand becomes a Tensor (MindSpore 2.10's ``x.add((1, 2, 3, 4))`` broadcasts it)."""
    return Tensor(other) if isinstance(other, (tuple, list)) else other


@_register("add", ("add",))
def _add(self, other, *, alpha=1):
    """``self + alpha * other``."""
    other = _operand(other)
    return F.add(self, other if alpha == 1 else F.mul(other, alpha))


@_register("sub", ("sub",))
def _sub(self, other, *, alpha=1):
    """``self - alpha * other``."""
    other = _operand(other)
    return F.sub(self, other if alpha == 1 else F.mul(other, alpha))


@_register("subtract", ("sub",))
def _subtract(self, other, alpha=1):
    """``self - alpha * other`` (``alpha`` may be positional here, as in MindSpore 2.10)."""
    return _sub(self, other, alpha=alpha)


@_register("round", ("round",))
def _round(self, decimals=0):
    return F.round(self) if decimals == 0 else F.round(self, decimals=decimals)


@_kinds(min=_opt(_is_tensor_or_number), max=_opt(_is_tensor_or_number))
def _clamp(self, min=None, max=None):  # noqa: A002 - MindSpore's argument names
    if min is None and max is None:
        raise MSValueError("For 'Tensor.clamp', at least one of 'min' and 'max' must not be None.")
    return F.clamp(self, min, max)


@_kinds(xmin=_opt(_is_tensor_or_number), xmax=_opt(_is_tensor_or_number), dtype=_opt(_is_dtype))
def _clip_old(self, xmin, xmax, dtype=None):
    return _cast_in(_clamp(self, xmin, xmax), dtype)


_overload("clamp", _clamp, needs=("clamp",))
_overload("clip", _clamp, _clip_old, needs=("clamp",))


@_register("softmax", ("softmax",))
def _softmax(self, axis=-1, dtype=None, *, dim=None):
    """``softmax`` along ``axis`` (``dim`` is accepted as its torch-style name)."""
    axis = dim if dim is not None else axis
    x = self if dtype is None else self.astype(dtype)
    return F.softmax(x, axis)


@_register("addmm", ("matmul",))
def _addmm(self, mat1, mat2, *, beta=1, alpha=1):
    """``beta * self + alpha * (mat1 @ mat2)``."""
    prod = F.matmul(mat1, mat2)
    if alpha != 1:
        prod = prod * alpha
    return prod + (self if beta == 1 else self * beta)


@_register("type_as")
def _type_as(self, other):
    return self.astype(other.dtype)


@_register("detach", ("stop_gradient",))
def _detach(self):
    return F.stop_gradient(self)


@_register("isneginf", ("isinf", "logical_and"))
def _isneginf(self):
    return F.logical_and(F.isinf(self), self < 0)


@_register("isposinf", ("isinf", "logical_and"))
def _isposinf(self):
    return F.logical_and(F.isinf(self), self > 0)


# -- reductions -------------------------------------------------------------------------------------------
@_kinds(dim=_opt(_is_ints), keepdim=_is_bool, dtype=_opt(_is_dtype))
def _sum_new(self, dim=None, keepdim=False, *, dtype=None):
    return F.sum(self, dim, keepdim, dtype=dtype)


@_kinds(axis=_opt(_is_ints), dtype=_opt(_is_dtype), keepdims=_is_bool, initial=_opt(_is_number))
def _sum_old(self, axis=None, dtype=None, keepdims=False, initial=None):
    res = F.sum(self, axis, keepdims, dtype=dtype)
    if initial is not None:
        res = res + initial
    if dtype is mstype.bool_:
        res = res.astype(mstype.bool_)
    return res


_overload("sum", _sum_new, _sum_old, needs=("sum",))


def _cast_in(x, dtype):
    return x if dtype is None else x.astype(dtype)


@_kinds(axis=_opt(_is_ints), keep_dims=_is_bool, dtype=_opt(_is_dtype))
def _mean_axis(self, axis=None, keep_dims=False, *, dtype=None):
    return F.mean(_cast_in(self, dtype), axis, keep_dims)


@_kinds(dim=_opt(_is_ints), keepdim=_is_bool, dtype=_opt(_is_dtype))
def _mean_dim(self, dim=None, keepdim=False, *, dtype=None):
    return F.mean(_cast_in(self, dtype), dim, keepdim)


_overload("mean", _mean_axis, _mean_dim, needs=("mean",))


@_kinds(axis=_opt(_is_ints), keep_dims=_is_bool, dtype=_opt(_is_dtype))
def _prod_axis(self, axis=None, keep_dims=False, dtype=None):
    return F.prod(_cast_in(self, dtype), axis, keep_dims)


@_kinds(dim=_opt(_is_ints), keepdim=_is_bool, dtype=_opt(_is_dtype))
def _prod_dim(self, dim=None, keepdim=False, dtype=None):
    return F.prod(_cast_in(self, dtype), dim, keepdim)


_overload("prod", _prod_axis, _prod_dim, needs=("prod",))


def _reduce_any_all(fn, self, axis, keep):
    return fn(self, _all_axes(self) if axis is None else axis, keep)


@_kinds(axis=_opt(_is_ints), keep_dims=_is_bool)
def _all_axis(self, axis=None, keep_dims=False):
    return _reduce_any_all(F.all, self, axis, keep_dims)


@_kinds(dim=_opt(_is_ints), keepdim=_is_bool)
def _all_dim(self, dim=None, keepdim=False):
    return _reduce_any_all(F.all, self, dim, keepdim)


@_kinds(axis=_opt(_is_ints), keep_dims=_is_bool)
def _any_axis(self, axis=None, keep_dims=False):
    return _reduce_any_all(F.any, self, axis, keep_dims)


@_kinds(dim=_opt(_is_ints), keepdim=_is_bool)
def _any_dim(self, dim=None, keepdim=False):
    return _reduce_any_all(F.any, self, dim, keepdim)


_overload("all", _all_axis, _all_dim, needs=("all",))
_overload("any", _any_axis, _any_dim, needs=("any",))


@_kinds(dim=_opt(_is_int), keepdim=_is_bool)
def _argmax_dim(self, dim=None, keepdim=False):
    return F.argmax(self, dim, keepdim)


@_kinds(axis=_opt(_is_int), keepdims=_is_bool)
def _argmax_axis(self, axis=None, keepdims=False):
    return F.argmax(self, axis, keepdims)


@_kinds(dim=_opt(_is_int), keepdim=_is_bool)
def _argmin_dim(self, dim=None, keepdim=False):
    return F.argmin(self, dim, keepdim)


@_kinds(axis=_opt(_is_int), keepdims=_is_bool)
def _argmin_axis(self, axis=None, keepdims=False):
    return F.argmin(self, axis, keepdims)


_overload("argmax", _argmax_dim, _argmax_axis, needs=("argmax",))
_overload("argmin", _argmin_dim, _argmin_axis, needs=("argmin",))


def _extreme(kind, x, axis, keepdims):
    """Values of the max/min over ``axis`` (None: all elements; a tuple: several axes)."""
    fn = F.amax if kind == "max" else F.amin
    return fn(x, _all_axes(x) if axis is None else axis, keepdims)


def _extreme_index(kind, x, axis, keepdims):
    fn = F.argmax if kind == "max" else F.argmin
    return fn(x, axis, keepdims).astype(mstype.int64)


def _make_extreme(kind):
    other = F.maximum if kind == "max" else F.minimum

    def whole(self):
        return _extreme(kind, self, None, False)

    def along_dim(self, dim, keepdim=False):
        return _extreme(kind, self, dim, keepdim), _extreme_index(kind, self, dim, keepdim)

    def deprecated(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        if axis is None:  # MindSpore: keepdims and everything after it have no effect, the index is 0
            value = _extreme(kind, self, None, False)
            return (value, Tensor(0, mstype.int64)) if return_indices else value
        x = self
        if not (isinstance(where, bool) and where):
            if initial is None:
                raise MSValueError(f"For 'Tensor.{kind}', 'initial' must be given when 'where' is given.")
            x = F.where(where, self, F.fill(self.dtype, tuple(self.shape), initial))
        value = _extreme(kind, x, axis, keepdims)
        if initial is not None:
            value = other(value, F.cast(Tensor(initial), self.dtype))
        if not return_indices:
            return value
        if not _is_int(axis):
            raise MSValueError(f"For 'Tensor.{kind}', 'return_indices' must be False when 'axis' is a tuple or list, "
                               f"but got axis={axis}.")
        return value, _extreme_index(kind, x, axis, keepdims)

    _kinds()(whole)
    _kinds(dim=_is_int, keepdim=_is_bool)(along_dim)
    _kinds(axis=_opt(_is_ints), keepdims=_is_bool, initial=_opt(_is_number), return_indices=_is_bool)(deprecated)
    return whole, along_dim, deprecated


_overload("max", *_make_extreme("max"), needs=("amax", "argmax"))
_overload("min", *_make_extreme("min"), needs=("amin", "argmin"))


@_register("amax", ("amax",))
def _amax(self, axis=None, keepdims=False):
    return _extreme("max", self, axis, keepdims)


@_register("amin", ("amin",))
def _amin(self, axis=None, keepdims=False):
    return _extreme("min", self, axis, keepdims)


def _variance(self, axes, ddof, keepdims):
    """``sum((x - mean)^2) / (N - ddof)`` over ``axes`` (None: all), the deprecated numpy-style variance."""
    if not _is_int(ddof):
        raise MSTypeError(f"For 'Tensor.var', the type of the argument 'ddof' must be int, but got {type(ddof)}.")
    if not isinstance(keepdims, bool):
        raise MSTypeError(f"For 'Tensor.var', the type of the argument 'keepdims' must be bool, but got "
                          f"{type(keepdims)}.")
    nd = self.ndim
    if axes is None or axes == ():
        axes = _all_axes(self)
    axes = (axes,) if _is_int(axes) else tuple(axes)
    axes = tuple(sorted(_axis("var", a, nd) for a in axes))
    x = self if mstype.is_float(self.dtype) else self.astype(mstype.float32)
    centred = x - F.mean(x, axes, True)
    total = F.sum(centred * centred, axes, keepdims)
    count = 1
    for a in axes:
        count *= self.shape[a]
    return total / (count - ddof)


@_kinds(axis=_opt(_is_ints), ddof=_is_int, keepdims=_is_bool)
def _var_old(self, axis=None, ddof=0, keepdims=False):
    return _variance(self, axis, ddof, keepdims)


@_kinds(dim=_opt(_is_ints), correction=_is_int, keepdim=_is_bool)
def _var_new(self, dim=None, *, correction=1, keepdim=False):
    return _variance(self, dim, correction, keepdim)


@_kinds(axis=_opt(_is_ints), ddof=_is_int, keepdims=_is_bool)
def _std_old(self, axis=None, ddof=0, keepdims=False):
    return F.sqrt(_variance(self, axis, ddof, keepdims))


@_kinds(dim=_opt(_is_ints), correction=_is_int, keepdim=_is_bool)
def _std_new(self, dim=None, *, correction=0, keepdim=False):
    # MindSpore 2.10: x.std(dim=1) divides by N like x.std(1); only an explicit correction=1 gives N - 1
    return F.sqrt(_variance(self, dim, correction, keepdim))


_overload("var", _var_old, _var_new, needs=("mean", "sum"))
_overload("std", _std_old, _std_new, needs=("mean", "sum", "sqrt"))


def _cumsum(self, axis, dtype):
    x = self
    if x.dtype in (mstype.bool_, mstype.int8, mstype.int16, mstype.uint8):
        x = x.astype(mstype.int32)
    if axis is None:
        x = F.reshape(x, (-1,))
        axis = 0
    out = F.cumsum(x, _axis("cumsum", axis, x.ndim))
    return out if dtype is None or out.dtype is mstype.to_ms_dtype(dtype) else out.astype(dtype)


@_kinds(dim=_is_int, dtype=_opt(_is_dtype))
def _cumsum_new(self, dim, *, dtype=None):
    return _cumsum(self, dim, dtype)


@_kinds(axis=_opt(_is_int), dtype=_opt(_is_dtype))
def _cumsum_old(self, axis=None, dtype=None):
    return _cumsum(self, axis, dtype)


_overload("cumsum", _cumsum_new, _cumsum_old, needs=("cumsum", "reshape"))


@_register("cumprod", ("cumprod",))
def _cumprod(self, dim, dtype=None):
    return F.cumprod(_cast_in(self, dtype), dim)


@_register("norm", ("norm", "reshape"))
def _norm(self, ord=None, dim=None, keepdim=False, *, dtype=None, p=None):  # noqa: A002 - MindSpore's name
    """The vector/matrix norm (``p`` is the torch-style name of ``ord``; 'fro' over all elements is the 2-norm)."""
    order = p if p is not None else ord
    x = _cast_in(self, dtype)
    if dim is None and order is not None and self.ndim in (1, 2):
        return F.norm(x, order, None, keepdim)  # as ops.norm: x.norm(1) of a matrix is its matrix 1-norm
    if dim is None and (order is None or order == "fro" or _is_number(order)):
        x = F.reshape(x, (-1,))
        order = None if order == "fro" else order
        out = F.norm(x, order, None, False) if order is not None else F.norm(x)
        return F.reshape(out, (1,) * self.ndim) if keepdim else out
    return F.norm(x, order, dim, keepdim)


# -- construction of new tensors --------------------------------------------------------------------------
def _size_arg(op, size):
    return _shape_arg(op, size) if size else ()


@_register("fill", ("fill",))
def _fill(self, value):
    """A new tensor of this shape and dtype filled with ``value`` (``None``: NaN, for float tensors)."""
    if value is None:
        if not mstype.is_float(self.dtype):
            raise MSTypeError(f"For 'Tensor.fill', if None is used as value, the tensor's dtype must be float, "
                              f"but got {self.dtype}.")
        value = float("nan")
    if isinstance(value, Tensor):
        value = value.item()
    return F.fill(self.dtype, tuple(self.shape), value)


def _new_size(op, size, size_kw):
    """``*size`` or the keyword ``size=`` (MindSpore 2.10 takes both), as a shape."""
    if size_kw is not None:
        if size:
            raise MSTypeError(f"For 'Tensor.{op}', the 'size' was given both positionally and as a keyword.")
        size = (size_kw,)
    return _size_arg(op, size)


@_register("new_ones", ("fill",))
def _new_ones(self, *size, dtype=None, **kwargs):
    return F.fill(dtype or self.dtype, _new_size("new_ones", size, _size_kw("new_ones", kwargs)), 1)


@_register("new_zeros", ("fill",))
def _new_zeros(self, *size, dtype=None, **kwargs):
    return F.fill(dtype or self.dtype, _new_size("new_zeros", size, _size_kw("new_zeros", kwargs)), 0)


def _size_kw(op, kwargs):
    size = kwargs.pop("size", None)
    if kwargs:
        raise TypeError(f"Tensor.{op}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return size


@_register("new_full", ("fill",))
def _new_full(self, size, fill_value, *, dtype=None):
    return F.fill(dtype or self.dtype, _size_arg("new_full", (size,)), fill_value)


# -- in-place methods: compute, then write into this tensor's buffer ----------------------------------------
@_register("fill_", ("fill",))
def _fill_(self, value):
    return _inplace(self, _fill(self, value), "fill_")


@_register("zero_", ("fill",))
def _zero_(self):
    return _inplace(self, F.fill(self.dtype, tuple(self.shape), 0), "zero_")


@_register("register_hook")
def _register_hook(self, hook):
    """Call ``hook(grad)`` with this tensor's gradient when PYNATIVE autodiff computes it (a tensor it returns
    replaces the gradient); returns a handle whose ``remove()`` unregisters it."""
    if isinstance(self, StagedTensor):
        raise MSRuntimeError("Tensor.register_hook works in PYNATIVE mode only: in graph mode, register the hook "
                             "on a tensor outside the compiled function, or use a Cell with a custom 'bprop'.")
    return _tape.register_hook(self, hook)


@_register("copy_", ("broadcast_to",))
def _copy_(self, src, non_blocking=False):
    src = src if isinstance(src, Tensor) else Tensor(src, self.dtype)
    if not isinstance(self, StagedTensor) and _indexing._fits(tuple(src.shape), tuple(self.shape)) \
            and _indexing._write_in_place(self, Ellipsis, src):
        return self    # into the tensor's memory, as MindSpore's copy_: its views see the new values
    return _inplace(self, F.broadcast_to(src, tuple(self.shape)), "copy_")


def _inplace_of(name, needs):
    entry = _METHODS.get(name)

    def method(self, *args, **kwargs):
        fn = entry[0] if entry is not None else getattr(F, _SAME[name])
        return _inplace(self, fn(self, *args, **kwargs), name + "_")
    method.__name__ = name + "_"
    _METHODS[name + "_"] = (method, needs)


for _name, _needs in (("add", ("add",)), ("sub", ("sub",)), ("mul", ("mul",)), ("div", ("div",)),
                      ("masked_fill", ("masked_fill",)), ("clamp", ("clamp",)), ("exp", ("exp",)),
                      ("log", ("log",)), ("floor", ("floor",)), ("sigmoid", ("sigmoid",)),
                      ("pow", ("pow",)), ("neg", ("neg",)), ("abs", ("abs",))):
    _inplace_of(_name, _needs)
del _name, _needs


@_register("uniform_", ("uniform",))
def _uniform_(self, from_=0, to=1, *, generator=None):
    """Fill with values drawn uniformly from ``[from_, to)`` (reproducible under ``mindspore.set_seed``)."""
    low, high = Tensor(from_, mstype.float32), Tensor(to, mstype.float32)
    with drawing_from("uniform_", generator):
        draws = F.uniform(tuple(self.shape), low, high)
    return _inplace(self, draws.astype(self.dtype), "uniform_")


@_register("normal_", ("normal",))
def _normal_(self, mean=0, std=1, *, generator=None):
    """Fill with values drawn from ``N(mean, std^2)`` (reproducible under ``mindspore.set_seed``)."""
    with drawing_from("normal_", generator):
        draws = F.normal(tuple(self.shape), mean, std)
    return _inplace(self, draws.astype(self.dtype), "normal_")


# -- plain properties spelled as methods ------------------------------------------------------------------
@_register("dim", (), "ndimension")
def _dim(self, *_ignored, **_ignored_kw):
    """The number of dimensions (MindSpore 2.10's C++ ``Tensor.dim`` ignores any arguments; so do we)."""
    return self.ndim


@_register("numel", (), "nelement")
def _numel(self):
    return self.size


@_register("element_size")
def _element_size(self):
    return self.itemsize


@_register("is_floating_point")
def _is_floating_point(self):
    return mstype.is_float(self.dtype)


@_register("is_complex")
def _is_complex(self):
    return mstype.is_complex(self.dtype)


@_register("is_signed")
def _is_signed(self):
    return self.dtype not in (mstype.bool_,) + mstype.uint_type


def _contiguous_strides(shape):
    strides, step = [], 1
    for s in reversed(shape):
        strides.append(step)
        step *= s
    return list(reversed(strides))


def _layout(self):
    """``(element strides, offset)``: a view's own (``x[:, ::2]`` is strided), else the contiguous layout."""
    found = None if self._data is None else _backend.buffer_layout(self._data)
    if found is None:
        return _contiguous_strides(self.shape), 0
    return list(found[0]), found[1]


@_register("is_contiguous")
def _is_contiguous(self):
    strides = _layout(self)[0]
    want = _contiguous_strides(self.shape)
    return all(s == w for s, w, n in zip(strides, want, self.shape) if n > 1)


@_register("contiguous")
def _contiguous(self):
    """The tensor itself when its memory is contiguous, else a contiguous copy (as MindSpore's)."""
    return self if _is_contiguous(self) else self._copy()


@_register("stride")
def _stride(self, dim=None):
    """Element strides of the tensor's memory layout (a list, as MindSpore 2.10's); one of them when ``dim``
    is given."""
    strides = _layout(self)[0]
    return strides if dim is None else strides[_axis("stride", dim, self.ndim)]


@_register("storage_offset")
def _storage_offset(self):
    """The element offset of a view into its base's memory (0 for a tensor that owns its memory)."""
    return _layout(self)[1]


# -- methods built on mindspore.mint and mindspore.numpy compositions ---------------------------------------
# Both packages sit above mindspore.ops (they import it), so they are not imported here: the layer above
# hands them down through provide() (mindspore._tensor_methods_ext, imported by ``import mindspore``).
def provide(**modules):
    """Register the higher-layer modules these methods call (see :mod:`mindspore.ops._higher`)."""
    _higher_modules.provide(**modules)


def _higher(name):
    return _higher_modules.get(name)


def _mint():
    return _higher("mint")


def _np():
    return _higher("numpy")


def _delegate(name, module, target=None):
    """Register ``Tensor.<name>`` as ``module().<target>(self, ...)`` (same arguments after the tensor)."""
    target = target or name

    def method(self, *args, **kwargs):
        return getattr(module(), target)(self, *args, **kwargs)
    method.__name__ = name
    _METHODS[name] = (method, ())


for _name in ("addbmm", "addmv", "baddbmm", "allclose", "histc", "kthvalue", "real", "imag",
              "unique_consecutive", "triangular_solve"):
    _delegate(_name, _mint)
for _name in ("fliplr", "flipud", "ptp", "hsplit", "vsplit", "dsplit", "diff", "searchsorted", "choose"):
    _delegate(_name, _np)
del _name


@_register("bincount")
def _bincount(self, weights=None, minlength=0):
    """Occurrences of each value (summed ``weights``); float32 without weights, as MindSpore 2.10's method."""
    out = _mint().bincount(self, weights, minlength)
    return out.astype(mstype.float32) if weights is None else out


@_register("diagonal")
def _diagonal(self, offset=0, axis1=0, axis2=1):
    return _np().diagonal(self, offset, axis1, axis2)


@_register("trace")
def _trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    return _np().trace(self, offset, axis1, axis2, dtype)


@_register("diagflat")
def _diagflat(self, offset=0):
    return _np().diagflat(self, offset)


@_register("rot90")
def _rot90(self, k, dims):
    return _np().rot90(self, k, tuple(dims))


@_register("nanmean")
def _nanmean(self, axis=None, keepdims=False, *, dtype=None):
    return _np().nanmean(self, axis=axis, dtype=dtype, keepdims=keepdims)


@_register("tensor_split")
def _tensor_split(self, indices_or_sections, axis=0):
    return tuple(_np().array_split(self, indices_or_sections, axis))


@_register("cross")
def _cross(self, other, dim=None):
    return _mint().cross(self, other, dim)


@_kinds(dim=_opt(_is_int), keepdim=_is_bool, dtype=_opt(_is_dtype))
def _nansum_dim(self, dim=None, keepdim=False, *, dtype=None):
    return _mint().nansum(self, dim, keepdim, dtype=dtype)


@_kinds(axis=_opt(_is_ints), keepdims=_is_bool, dtype=_opt(_is_dtype))
def _nansum_axis(self, axis=None, keepdims=False, *, dtype=None):
    return _mint().nansum(self, axis, keepdims, dtype=dtype)


_overload("nansum", _nansum_dim, _nansum_axis)


@_kinds(index=_is_tensor)
def _take_new(self, index):
    return _mint().take(self, index)


@_kinds(indices=_is_tensor, axis=_opt(_is_int), mode=_is_str)
def _take_old(self, indices, axis=None, mode="clip"):
    return _np().take(self, indices, axis, mode)


_overload("take", _take_new, _take_old)


@_kinds(dim=_is_int, index=_is_tensor, source=_is_tensor, alpha=_is_number)
def _index_add_new(self, dim, index, source, *, alpha=1):
    return _mint().index_add(self, dim, index, source, alpha=alpha)


@_kinds(indices=_is_tensor, y=_is_tensor, axis=_is_int, use_lock=_is_bool, check_index_bound=_is_bool)
def _index_add_old(self, indices, y, axis, use_lock=True, check_index_bound=True):
    return _mint().index_add(self, axis, indices, y)


_overload("index_add", _index_add_new, _index_add_old)


@_register("index_add_")
def _index_add_(self, dim, index, source, *, alpha=1):
    return _inplace(self, _mint().index_add(self, dim, index, source, alpha=alpha), "index_add_")


@_register("unique")
def _unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    return _mint().unique(self, sorted, return_inverse, return_counts, dim)


@_register("repeat_interleave")
def _repeat_interleave(self, repeats, dim=None, *, output_size=None):
    return _mint().repeat_interleave(self, repeats, dim, output_size=output_size)


@_register("new_empty", ("fill",))
def _new_empty(self, size, *, dtype=None, device=None):
    """A new tensor of ``size`` (zero-filled: MindSpore leaves it uninitialised, any content is valid)."""
    return F.fill(dtype or self.dtype, _size_arg("new_empty", (size,)), 0)


@_register("addmm_", ("matmul",))
def _addmm_(self, mat1, mat2, *, beta=1, alpha=1):
    return _inplace(self, _addmm(self, mat1, mat2, beta=beta, alpha=alpha), "addmm_")


@_register("addr", ("outer",))
def _addr(self, vec1, vec2, beta=1, alpha=1):
    """``beta * self + alpha * outer(vec1, vec2)``."""
    prod = F.outer(vec1, vec2)
    return F.add(self if beta == 1 else F.mul(self, beta), prod if alpha == 1 else F.mul(prod, alpha))


# -- casts, views and small compositions --------------------------------------------------------------------
@_register("reshape_as", ("reshape",))
def _reshape_as(self, other):
    return F.reshape(self, tuple(other.shape))


@_register("type")
def _type(self, dtype=None):
    """The dtype's name (``'Float32'``) without ``dtype``; otherwise this tensor cast to ``dtype``."""
    if dtype is None:
        return str(self.dtype)
    return _astype(self, dtype)


@_register("positive", ("positive",))
def _positive(self):
    return F.positive(self)


@_register("invert", ("invert",))
def _invert_method(self):
    return F.invert(self)


@_register("signbit", ("signbit",))
def _signbit(self):
    return F.signbit(self)


@_register("sgn", ("sign",))
def _sgn(self):
    """``sign`` for real tensors; ``x / |x|`` (0 at 0) for complex ones, as MindSpore's ``sgn``."""
    if not mstype.is_complex(self.dtype):
        return F.sign(self)
    mag = F.abs(self)
    zero = F.equal(mag, 0)
    safe = F.masked_fill(mag, zero, 1).astype(self.dtype)
    return F.masked_fill(F.div(self, safe), zero, 0)


@_register("argwhere", ("argwhere",))
def _argwhere(self):
    return F.argwhere(self)


@_register("gather_nd", ("gather_nd",))
def _gather_nd(self, indices):
    return F.gather_nd(self, indices)


@_register("reverse", ("reverse",))
def _reverse(self, axis):
    return F.reverse(self, axis)


@_register("aminmax", ("aminmax",))
def _aminmax(self, *, axis=0, keepdims=False):
    return F.aminmax(self, axis=axis, keepdims=keepdims)


@_register("msort", ("sort",))
def _msort(self):
    """Sorted along the first dimension (ascending)."""
    return F.sort(self, axis=0)[0]


@_register("top_k", ("topk",))
def _top_k(self, k, sorted=True):  # noqa: A002 - MindSpore's argument name
    """The ``k`` largest entries along the last dimension and their indices."""
    return F.topk(self, k, -1, True, sorted)


@_register("xdivy", ("div", "equal", "masked_fill", "where", "ones_like"))
def _xdivy(self, y):
    """``self / y``, and 0 where ``self`` is 0."""
    y = y if isinstance(y, Tensor) else Tensor(y, self.dtype)
    zero = F.equal(self, 0)
    q = F.div(self, F.where(zero, F.ones_like(y), y))     # no 0/0 in the value or its gradient
    return F.masked_fill(q, F.broadcast_to(zero, tuple(q.shape)), 0)


@_register("ldexp", ("mul", "pow"))
def _ldexp(self, other):
    """``self * 2 ** other``."""
    other = other if isinstance(other, Tensor) else Tensor(other)
    two = Tensor(2.0, self.dtype if mstype.is_float(self.dtype) else mstype.float32)
    return F.mul(self, F.pow(two, other.astype(two.dtype)))


@_register("logit", ("log", "sub", "div", "clamp"))
def _logit(self, eps=None):
    """``log(x / (1 - x))``, ``x`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given."""
    x = self if eps is None else F.clamp(self, eps, 1 - eps)
    return F.log(F.div(x, F.sub(1, x)))


@_register("matrix_power", ("matmul",))
def _matrix_power(self, n):
    """``self`` multiplied by itself ``n`` times (``n < 0``: the inverse's power; ``n == 0``: identity)."""
    if not _is_int(n):
        raise MSTypeError(f"For 'Tensor.matrix_power', the 'n' must be an int, but got {type(n).__name__}.")
    if self.ndim < 2 or self.shape[-1] != self.shape[-2]:
        raise MSValueError(f"For 'Tensor.matrix_power', the input must be a square matrix or a batch of them, "
                           f"but got shape {tuple(self.shape)}.")
    base = self if n >= 0 else _mint().inverse(self)
    n = abs(n)
    if n == 0:
        eye = np.broadcast_to(np.eye(self.shape[-1]), tuple(self.shape))
        return Tensor(np.ascontiguousarray(eye), self.dtype)
    result = None
    while n:
        if n & 1:
            result = base if result is None else F.matmul(result, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    return result


@_register("sum_to_size", ("sum", "reshape"))
def _sum_to_size(self, *size):
    """Sum the dimensions that ``size`` broadcasts over, giving a tensor of shape ``size``."""
    size = _shape_arg("sum_to_size", size)
    lead = self.ndim - len(size)
    if lead < 0 or any(s not in (1, d) for s, d in zip(size, self.shape[lead:])):
        raise MSValueError(f"For 'Tensor.sum_to_size', the size {size} is not expandable to the tensor shape "
                           f"{tuple(self.shape)}.")
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(size) if s == 1 and self.shape[lead + i] != 1)
    out = F.sum(self, axes) if axes else self
    return F.reshape(out, size)


@_register("adjoint", ("transpose",))
def _adjoint(self):
    """The conjugate transpose of the last two dimensions."""
    out = _swap(self, "adjoint", -1, -2)
    return _conj(out) if mstype.is_complex(self.dtype) else out


def _conj(x):
    mint = _mint()
    re, im = mint.real(x), mint.imag(x)
    return F.sub(F.cast(re, x.dtype), F.mul(F.cast(im, x.dtype), Tensor(1j, x.dtype)))


@_register("conj")
def _conj_method(self):
    """The complex conjugate (the tensor itself for a real dtype)."""
    return _conj(self) if mstype.is_complex(self.dtype) else self


def _H(self):
    """The conjugate transpose of a 2-D tensor (``Tensor.H``)."""
    if self.ndim != 2:
        raise MSValueError(f"For tensor.H, only 2-D Tensor is supported, but got {self.ndim}-D.")
    return _adjoint(self)


# -- in-place forms ---------------------------------------------------------------------------------------------
@_register("scatter_", ("tensor_scatter_elements",))
def _scatter_(self, dim, index, src=None, *, value=None, reduce="none"):
    """Write ``src`` (a tensor, or a number ``value``) into this tensor at ``index`` along ``dim``.

    ``reduce``: ``'none'`` (replace), ``'add'`` or ``'multiply'`` as MindSpore 2.10.
    """
    src = value if src is None else src
    if src is None:
        raise MSTypeError("For 'Tensor.scatter_', one of 'src' and 'value' must be given.")
    if not isinstance(src, Tensor):
        src = F.fill(self.dtype, tuple(index.shape), src)
    reduction = {"none": "none", "add": "add"}.get(reduce)
    if reduction is None:   # 'multiply' too: the scatter kernel (TensorScatterElements) sums or replaces only
        raise MSValueError(f"For 'Tensor.scatter_', the 'reduce' must be 'add' (or left out), but got {reduce!r}.")
    out = F.tensor_scatter_elements(self, index, src.astype(self.dtype), axis=dim, reduction=reduction)
    return _inplace(self, out, "scatter_")


@_register("scatter_add_", ("tensor_scatter_elements",))
def _scatter_add_(self, dim, index, src):
    out = F.tensor_scatter_elements(self, index, src.astype(self.dtype), axis=dim, reduction="add")
    return _inplace(self, out, "scatter_add_")


def _index_mask(self, op, dim, index):
    """A bool tensor of this shape, True at positions whose ``dim`` coordinate is in ``index``."""
    dim = _axis(op, dim, self.ndim)
    idx = index if isinstance(index, Tensor) else Tensor(index, mstype.int64)
    size = self.shape[dim]
    hit = F.any(F.equal(F.reshape(idx.astype(mstype.int64) % size, (-1, 1)),
                               Tensor(np.arange(size), mstype.int64)), 0) if idx.size else \
        Tensor(np.zeros(size, bool))
    shape = [1] * self.ndim
    shape[dim] = size
    return F.broadcast_to(F.reshape(hit, tuple(shape)), tuple(self.shape))


@_register("index_fill", ("masked_fill", "equal", "any"))
def _index_fill(self, axis, index, value):
    """``value`` written at the ``index`` positions along ``axis`` (a new tensor)."""
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise MSValueError(f"For 'Tensor.index_fill', the 'value' must be a 0-D tensor or a number, "
                               f"but got shape {tuple(value.shape)}.")
        value = value.astype(self.dtype)
    elif isinstance(value, float):     # the number itself in self's dtype (2.10), not MaskedFill's float32 number
        value = F.full((), value, dtype=self.dtype)
    return F.masked_fill(self, _index_mask(self, "index_fill", axis, index), value)


@_register("index_fill_", ("masked_fill", "equal", "any"))
def _index_fill_(self, dim, index, value):
    return _inplace(self, _index_fill(self, dim, index, value), "index_fill_")


@_register("masked_scatter", ("masked_select", "cumsum", "gather", "where"))
def _masked_scatter(self, mask, source):
    """The elements of ``source`` (in order) written where ``mask`` (broadcast to this shape) is True."""
    mask = F.broadcast_to(mask, tuple(self.shape)).astype(mstype.int32)
    pos = F.sub(F.cumsum(F.reshape(mask, (-1,)), 0), 1)
    pos = F.maximum(pos, 0)
    picked = F.gather(F.reshape(source, (-1,)), pos.astype(mstype.int64), 0)
    return F.where(F.reshape(mask, tuple(self.shape)).astype(mstype.bool_),
                   F.reshape(picked, tuple(self.shape)).astype(self.dtype), self)


@_register("masked_scatter_", ("masked_select", "cumsum", "gather", "where"))
def _masked_scatter_(self, mask, source):
    return _inplace(self, _masked_scatter(self, mask, source), "masked_scatter_")


@_register("index_copy_", ("tensor_scatter_elements",))
def _index_copy_(self, dim, index, tensor):
    """Rows (along ``dim``) of ``tensor`` copied to the positions ``index`` of this tensor."""
    dim = _axis("index_copy_", dim, self.ndim)
    shape = [1] * self.ndim
    shape[dim] = -1
    idx = F.broadcast_to(F.reshape(index.astype(mstype.int64), tuple(shape)), tuple(tensor.shape))
    out = F.tensor_scatter_elements(self, idx, tensor.astype(self.dtype), axis=dim)
    return _inplace(self, out, "index_copy_")


@_register("put_", ("tensor_scatter_elements",))
def _put_(self, index, source, accumulate=False):
    """``source`` written at the flat positions ``index`` (added when ``accumulate``)."""
    flat = F.reshape(self, (-1,))
    idx = F.reshape(index.astype(mstype.int64), (-1,)) % max(self.size, 1)
    out = F.tensor_scatter_elements(flat, idx, F.reshape(source, (-1,)).astype(self.dtype), axis=0,
                                    reduction="add" if accumulate else "none")
    return _inplace(self, F.reshape(out, tuple(self.shape)), "put_")


@_register("fill_diagonal_", ("masked_fill",))
def _fill_diagonal_(self, fill_value, wrap=False):
    """``fill_value`` written on the main diagonal (of a 2-D tensor; all dims equal otherwise)."""
    return _inplace(self, _diag_fill(self, "fill_diagonal_", fill_value, wrap), "fill_diagonal_")


def _diag_fill(self, op, fill_value, wrap):
    if self.ndim < 2:
        raise MSValueError(f"For 'Tensor.{op}', the dimension of the tensor must be at least 2, "
                           f"but got {self.ndim}.")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise MSValueError(f"For 'Tensor.{op}', all dimensions of the tensor must be equal when it has "
                           f"more than 2 dimensions, but got shape {tuple(self.shape)}.")
    mask = np.zeros(tuple(self.shape), bool)
    if self.ndim == 2:
        rows, cols = self.shape
        step = cols + 1
        end = rows * cols if wrap else min(rows, cols) * cols
        mask.reshape(-1)[0:end:step] = True
    else:
        mask[(np.arange(self.shape[0]),) * self.ndim] = True
    return F.masked_fill(self, Tensor(mask), fill_value)


for _name, _needs in (("floor_divide", ("floor_divide",)), ("remainder", ("remainder",)), ("sign", ("sign",)),
                      ("tanh", ("tanh",)), ("erfinv", ("erfinv",))):
    _inplace_of(_name, _needs)
del _name, _needs


# -- scatters into views: positions computed on the (static) shape, one TensorScatterElements ---------------
def _scatter_positions(self, op, positions, src):
    """This tensor with ``src`` written at the flat ``positions`` (a NumPy index array of ``src``'s shape)."""
    src = src if isinstance(src, Tensor) else Tensor(src, self.dtype)
    if tuple(src.shape) != positions.shape:
        raise MSValueError(f"For 'Tensor.{op}', the 'src' shape must be {positions.shape}, but got "
                           f"{tuple(src.shape)}.")
    flat = F.reshape(self, (-1,))
    out = F.tensor_scatter_elements(flat, Tensor(positions.reshape(-1).astype(np.int64)),
                                    F.reshape(src.astype(self.dtype), (-1,)), axis=0)
    return F.reshape(out, tuple(self.shape))


def _positions(self):
    return np.arange(int(np.prod(self.shape, dtype=np.int64))).reshape(tuple(self.shape))


@_register("diagonal_scatter", ("tensor_scatter_elements",))
def _diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    """``src`` written on the diagonal that ``self.diagonal(offset, dim1, dim2)`` reads."""
    pos = np.diagonal(_positions(self), offset, _axis("diagonal_scatter", dim1, self.ndim),
                      _axis("diagonal_scatter", dim2, self.ndim))
    return _scatter_positions(self, "diagonal_scatter", pos, src)


@_register("select_scatter", ("tensor_scatter_elements",))
def _select_scatter(self, src, axis, index):
    """``src`` written at ``index`` along ``axis`` (``src`` has this shape without ``axis``)."""
    axis = _axis("select_scatter", axis, self.ndim)
    if not -self.shape[axis] <= index < self.shape[axis]:
        raise MSValueError(f"For 'Tensor.select_scatter', the 'index' must be in [{-self.shape[axis]}, "
                           f"{self.shape[axis]}), but got {index}.")
    pos = np.take(_positions(self), index, axis)
    return _scatter_positions(self, "select_scatter", pos, src)


@_register("slice_scatter", ("tensor_scatter_elements",))
def _slice_scatter(self, src, axis=0, start=None, end=None, step=1):
    """``src`` written into the slice ``start:end:step`` along ``axis``."""
    axis = _axis("slice_scatter", axis, self.ndim)
    sl = [slice(None)] * self.ndim
    sl[axis] = slice(start, end, step)
    return _scatter_positions(self, "slice_scatter", _positions(self)[tuple(sl)], src)


def _index_put(self, op, indices, values, accumulate):
    """``self[indices] = values`` (``+=`` when ``accumulate``; repeated positions then add up)."""
    if not isinstance(indices, (tuple, list)) or not indices or len(indices) > self.ndim:
        raise MSTypeError(f"For 'Tensor.{op}', the 'indices' must be a tuple or list of 1 to {self.ndim} tensors, "
                          f"but got {type(indices).__name__}.")
    strides = np.cumprod((tuple(self.shape) + (1,))[:0:-1])[::-1]
    lin = None
    for idx, stride, size in zip(indices, strides, self.shape):
        idx = (idx if isinstance(idx, Tensor) else Tensor(idx)).astype(mstype.int64)
        term = F.mul(F.add(idx, size) % size, int(stride))     # negative indices count from the end
        lin = term if lin is None else F.add(lin, term)
    rest = tuple(self.shape[len(indices):])
    inner = int(np.prod(rest, dtype=np.int64))
    lin_shape = tuple(lin.shape)
    if rest:   # each indexed position addresses a whole sub-block
        lin = F.add(F.reshape(lin, lin_shape + (1,)), Tensor(np.arange(inner, dtype=np.int64)))
    values = values if isinstance(values, Tensor) else Tensor(values, self.dtype)
    values = F.broadcast_to(values.astype(self.dtype), lin_shape + rest)
    out = F.tensor_scatter_elements(F.reshape(self, (-1,)), F.reshape(lin, (-1,)), F.reshape(values, (-1,)),
                                    axis=0, reduction="add" if accumulate else "none")
    return F.reshape(out, tuple(self.shape))


@_register("index_put", ("tensor_scatter_elements",))
def _index_put_method(self, indices, values, accumulate=False):
    return _index_put(self, "index_put", indices, values, accumulate)


@_register("index_put_", ("tensor_scatter_elements",))
def _index_put_(self, indices, values, accumulate=False):
    return _inplace(self, _index_put(self, "index_put_", indices, values, accumulate), "index_put_")


@_register("inplace_update", ("tensor_scatter_elements",))
def _inplace_update(self, v, indices):
    """Rows ``indices`` (along the first dimension) replaced by ``v``; a new tensor, as MindSpore 2.10."""
    idx = indices if isinstance(indices, Tensor) else Tensor(np.atleast_1d(np.asarray(indices, np.int64)))
    return _index_put(self, "inplace_update", (F.reshape(idx, (-1,)),), v, False)


@_register("fill_diagonal", ("masked_fill",))
def _fill_diagonal(self, fill_value, wrap=False):
    """A copy with ``fill_value`` on the main diagonal (see ``fill_diagonal_``)."""
    return _diag_fill(self, "fill_diagonal", fill_value, wrap)


@_register("fills", ("fill",))
def _fills(self, value):
    """A new tensor of this shape and dtype filled with ``value`` (a number or a 0-D tensor)."""
    return _fill(self, value)


# -- linear algebra -----------------------------------------------------------------------------------------
@_register("det", ("det",), "matrix_determinant")
def _det(self):
    return F.det(self)


@_register("inverse", ("inverse",))
def _inverse(self):
    """``ops.inverse`` (as MindSpore 2.10's method: a matrix that is not invertible gives ``MatrixInverse``'s
    rank-limited solution)."""
    return F.inverse(self)


@_register("slogdet", ("slogdet",), "log_matrix_determinant")
def _slogdet(self):
    return F.slogdet(self)


@_register("logdet", ("slogdet", "log"))
def _logdet(self):
    """``log(det(self))``: NaN where the determinant is negative, -inf where it is 0."""
    sign, logabs = F.slogdet(self)
    return F.add(logabs, F.log(sign))


@_register("qr")
def _qr(self, some=True):
    return _higher("linalg").qr(self, "reduced" if some else "complete")


@_register("inv", ("reciprocal",))
def _inv(self):
    """The elementwise reciprocal (``ops.inv``; the matrix inverse is ``inverse``)."""
    return F.reciprocal(self)


# -- elementwise compositions ---------------------------------------------------------------------------------
@_register("approximate_equal", ("abs", "sub", "less"))
def _approximate_equal(self, other, tolerance=1e-05):
    """``|self - other| < tolerance``."""
    return F.less(F.abs(F.sub(self, other)), tolerance)


@_register("soft_shrink", ("softshrink",))
def _soft_shrink(self, lambd=0.5):
    return F.softshrink(self, lambd)


@_register("isreal", ("equal", "fill"))
def _isreal(self):
    """True where the imaginary part is 0 (everywhere for a real dtype)."""
    if mstype.is_complex(self.dtype):
        return F.equal(_mint().imag(self), 0)
    return F.fill(mstype.bool_, tuple(self.shape), True)


@_register("angle", ("atan2",))
def _angle(self):
    """The argument of each element (0 or pi for real numbers)."""
    if mstype.is_complex(self.dtype):
        return F.atan2(_mint().imag(self), _mint().real(self))
    x = self if mstype.is_float(self.dtype) else self.astype(mstype.float32)
    return F.atan2(F.zeros_like(x), x)


def _shift_check(self, other, op):
    if not mstype.is_int(self.dtype):
        raise MSTypeError(f"For 'Tensor.{op}', the input must be an integer tensor, but got {self.dtype}.")
    other = other if isinstance(other, Tensor) else Tensor(other, self.dtype)
    return F.pow(Tensor(2, self.dtype), other.astype(self.dtype))


@_register("bitwise_left_shift", ("pow", "mul"))
def _bitwise_left_shift(self, other):
    """``self << other`` (as a product with ``2 ** other``, wrapping like the shift)."""
    return F.mul(self, _shift_check(self, other, "bitwise_left_shift"))


@_register("bitwise_right_shift", ("pow", "floor_divide"))
def _bitwise_right_shift(self, other):
    """``self >> other`` (arithmetic: a floor division by ``2 ** other``)."""
    return F.floor_divide(self, _shift_check(self, other, "bitwise_right_shift"))


@_register("logcumsumexp", ("cumsum", "exp", "log", "amax"))
def _logcumsumexp(self, axis):
    """``log(cumsum(exp(self), axis))``, shifted by the maximum along ``axis`` for stability."""
    m = F.stop_gradient(F.amax(self, axis, True))
    return F.add(F.log(F.cumsum(F.exp(F.sub(self, m)), axis)), m)


@_register("renorm", ("pow", "sum", "where"))
def _renorm(self, p, axis, maxnorm):
    """Each sub-tensor along ``axis`` rescaled to a ``p``-norm of at most ``maxnorm``."""
    axis = _axis("renorm", axis, self.ndim)
    if p <= 0:
        raise MSValueError(f"For 'Tensor.renorm', the 'p' must be greater than 0, but got {p}.")
    others = tuple(i for i in range(self.ndim) if i != axis)
    norm = F.pow(F.sum(F.pow(F.abs(self), p), others, True), 1.0 / p)
    scale = F.where(F.greater(norm, maxnorm), F.div(maxnorm, F.add(norm, 1e-7)), F.ones_like(norm))
    return F.mul(self, scale)


@_register("argmax_with_value", ("argmax", "amax", "zeros"))
def _argmax_with_value(self, axis=0, keep_dims=False):
    """``(value, index)`` of the maximum along ``axis`` (this order, as MindSpore 2.10's method). With ``axis``
    None: the maximum of all elements and the index 0, both 0-D whatever ``keep_dims`` says (2.10's documented
    and actual result)."""
    if axis is None:
        return F.amax(self, None, False), F.zeros((), mstype.int64)
    return F.amax(self, axis, keep_dims), F.argmax(self, axis, keep_dims).astype(mstype.int64)


@_register("argmin_with_value", ("argmin", "amin", "zeros"))
def _argmin_with_value(self, axis=0, keep_dims=False):
    """``(value, index)`` of the minimum along ``axis`` (this order, as MindSpore 2.10's method). With ``axis``
    None: the minimum of all elements and the index 0, both 0-D whatever ``keep_dims`` says (2.10's documented
    and actual result)."""
    if axis is None:
        return F.amin(self, None, False), F.zeros((), mstype.int64)
    return F.amin(self, axis, keep_dims), F.argmin(self, axis, keep_dims).astype(mstype.int64)


@_register("cov")
def _cov(self, *, correction=1, fweights=None, aweights=None):
    """Covariance of the rows (variables) over the columns (observations)."""
    return _np().cov(self, ddof=correction, fweights=fweights, aweights=aweights)


@_register("quantile", ("sort", "gather", "moveaxis"))
def _quantile(self, q, axis=None, keepdims=False):
    """The ``q``-quantiles (linear interpolation between order statistics) along ``axis`` (all if None)."""
    qs = q.asnumpy() if isinstance(q, Tensor) else np.asarray(q, np.float64)
    if np.any((qs < 0) | (qs > 1)):
        raise MSValueError(f"For 'Tensor.quantile', the 'q' must be in [0, 1], but got {q}.")
    x = F.reshape(self, (-1,)) if axis is None else self
    ax = 0 if axis is None else _axis("quantile", axis, self.ndim)
    srt = F.sort(x, axis=ax)[0]
    n = x.shape[ax]
    pos = qs.reshape(-1) * (n - 1)
    lo, hi = np.floor(pos).astype(np.int64), np.ceil(pos).astype(np.int64)
    w = Tensor((pos - lo).astype(mstype.dtype_to_nptype(self.dtype)))
    a, b = F.gather(srt, Tensor(lo), ax), F.gather(srt, Tensor(hi), ax)
    wshape = [1] * srt.ndim
    wshape[ax] = -1
    out = F.add(a, F.mul(F.sub(b, a), F.reshape(w, tuple(wshape))))    # the q values sit on axis ``ax``
    out = F.moveaxis(out, ax, 0)
    if keepdims:
        kshape = [1] * self.ndim if axis is None else list(self.shape)
        if axis is not None:
            kshape[ax] = 1
        out = F.reshape(out, (out.shape[0],) + tuple(kshape))
    if np.ndim(qs) == 0:
        out = out[0]
    return out


@_register("ger", ("outer",))
def _ger(self, vec2):
    """The outer product of two 1-D tensors."""
    if self.ndim != 1 or getattr(vec2, "ndim", 0) != 1:
        raise MSValueError(f"For 'Tensor.ger', the input and 'vec2' must be 1-D, but got {self.ndim}-D and "
                           f"{getattr(vec2, 'ndim', 0)}-D.")
    return F.outer(self, vec2)


@_register("scatter_sub", ("tensor_scatter_add", "neg"))
def _scatter_sub(self, indices, updates):
    """A new tensor with ``updates`` subtracted at the N-D ``indices`` (repeated indices subtract each time)."""
    return F.tensor_scatter_add(self, indices, F.neg(updates.astype(self.dtype)))


@_register("reverse_sequence", ("gather_elements", "where", "less"))
def _reverse_sequence(self, seq_lengths, seq_dim=0, batch_dim=0):
    """The first ``seq_lengths[b]`` elements along ``seq_dim`` reversed, for each ``b`` along ``batch_dim``."""
    seq_dim = _axis("reverse_sequence", seq_dim, self.ndim)
    batch_dim = _axis("reverse_sequence", batch_dim, self.ndim)
    if seq_dim == batch_dim:
        raise MSValueError(f"For 'Tensor.reverse_sequence', the 'seq_dim' and 'batch_dim' must differ, but both "
                           f"are {seq_dim}.")
    lens = seq_lengths if isinstance(seq_lengths, Tensor) else Tensor(seq_lengths)
    if lens.shape != (self.shape[batch_dim],):
        raise MSValueError(f"For 'Tensor.reverse_sequence', the 'seq_lengths' shape must be "
                           f"({self.shape[batch_dim]},), but got {tuple(lens.shape)}.")
    shape_i = [1] * self.ndim
    shape_i[seq_dim] = self.shape[seq_dim]
    shape_l = [1] * self.ndim
    shape_l[batch_dim] = self.shape[batch_dim]
    i = Tensor(np.arange(self.shape[seq_dim], dtype=np.int64).reshape(shape_i))
    length = F.reshape(lens.astype(mstype.int64), tuple(shape_l))
    src = F.where(F.less(i, length), F.sub(F.sub(length, 1), i), i)
    return F.gather_elements(self, seq_dim, F.broadcast_to(src, tuple(self.shape)))


@_register("itemset", ("tensor_scatter_elements",))
def _itemset(self, *args):
    """A copy with one element replaced: ``itemset(value)`` (one-element tensor), ``itemset(flat_index, value)``
    or ``itemset((i, j, ...), value)``; as MindSpore 2.10 the tensor itself is left unchanged."""
    if len(args) == 1:
        if self.size != 1:
            raise MSValueError("For 'Tensor.itemset', a tensor of more than one element needs an index, "
                               f"but got only the value for a tensor of size {self.size}.")
        pos, value = 0, args[0]
    elif len(args) == 2:
        index, value = args
        if isinstance(index, (tuple, list)):
            if len(index) != self.ndim:
                raise MSValueError(f"For 'Tensor.itemset', the index must have {self.ndim} entries, but got "
                                   f"{len(index)}.")
            pos = int(np.ravel_multi_index(tuple(int(i) for i in index), tuple(self.shape)))
        else:
            pos = int(index) % self.size
    else:
        raise MSTypeError(f"For 'Tensor.itemset', 1 or 2 arguments are expected, but got {len(args)}.")
    return _scatter_positions(self, "itemset", np.array([pos]), F.reshape(Tensor(value, self.dtype), (1,)))


@_register("is_pinned")
def _is_pinned(self):
    """False: a tensor here lives in pageable memory (``pin_memory`` returns an equal tensor)."""
    return False


@_register("pin_memory")
def _pin_memory(self):
    """This tensor's data (pageable memory; transfers need no pinned staging on this backend)."""
    return _copy(self)


@_register("move_to")
def _move_to(self, to, blocking=True):
    """A copy on ``to`` ('CPU' or 'Ascend' as MindSpore 2.10; the data stays with this build's backend)."""
    if to not in ("Ascend", "CPU"):
        raise MSValueError(f"For 'Tensor.move_to', the 'to' must be 'Ascend' or 'CPU', but got {to!r}.")
    return _copy(self)


def _nan_order(self, op, axis):
    """(sorted values, their indices, count of non-NaN values with keepdims) along ``axis`` (NaN sort last)."""
    vals, idx = F.sort(self, axis=axis)
    count = F.sum(F.logical_not(F.isnan(self)).astype(mstype.int64), axis, True)
    return vals, idx, count


@_register("nanmedian", ("sort", "isnan", "gather_elements"))
def _nanmedian(self, axis=-1, keepdims=False):
    """``(values, indices)``: the lower median of the non-NaN values along ``axis`` (NaN if all are NaN)."""
    axis = _axis("nanmedian", axis, max(self.ndim, 1))
    x = self if self.ndim else F.reshape(self, (1,))
    vals, idx, count = _nan_order(x, "nanmedian", axis)
    k = F.floor_divide(F.maximum(F.sub(count, 1), 0), 2)
    v, i = F.gather_elements(vals, axis, k), F.gather_elements(idx.astype(mstype.int64), axis, k)
    if not keepdims or not self.ndim:
        v, i = F.squeeze(v, axis), F.squeeze(i, axis)
    return v, i


@_register("nanquantile", ("sort", "isnan", "gather_elements"))
def _nanquantile(self, q, axis=None, keepdims=False):
    """The ``q``-quantiles of the non-NaN values along ``axis`` (all if None; NaN where all are NaN)."""
    qs = q.asnumpy() if isinstance(q, Tensor) else np.asarray(q, np.float64)
    if np.any((qs < 0) | (qs > 1)):
        raise MSValueError(f"For 'Tensor.nanquantile', the 'q' must be in [0, 1], but got {q}.")
    x = F.reshape(self, (-1,)) if axis is None else self
    ax = 0 if axis is None else _axis("nanquantile", axis, self.ndim)
    vals, _, count = _nan_order(x, "nanquantile", ax)
    outs = []
    for qv in qs.reshape(-1):
        pos = F.mul(F.maximum(F.sub(count, 1), 0).astype(mstype.float64), float(qv))
        lo, hi = F.floor(pos), F.ceil(pos)
        a = F.gather_elements(vals, ax, lo.astype(mstype.int64))
        b = F.gather_elements(vals, ax, hi.astype(mstype.int64))
        v = F.add(a, F.mul(F.sub(b, a), F.sub(pos, lo).astype(self.dtype)))
        v = F.masked_fill(v, F.equal(count, 0), float("nan"))
        if axis is None:
            v = F.reshape(v, (1,) * self.ndim) if keepdims else F.reshape(v, ())
        elif not keepdims:
            v = F.squeeze(v, ax)
        outs.append(v)
    return outs[0] if np.ndim(qs) == 0 else F.stack(outs, 0)


def _cholesky_lower(a, op):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise MSValueError(f"For 'Tensor.{op}', the input must be a square matrix or a batch of them, but got "
                           f"shape {tuple(a.shape)}.")
    n = a.shape[-1]
    cols = []     # column j of L, shape (..., n), zero above the diagonal
    for j in range(n):
        col = a[..., :, j]
        for k in range(j):
            col = F.sub(col, F.mul(cols[k], cols[k][..., j:j + 1]))
        mask = Tensor(np.arange(n) >= j)
        pivot = F.sqrt(col[..., j:j + 1])
        cols.append(F.where(mask, F.div(col, pivot), F.zeros_like(col)))
    return F.stack(cols, -1)


@_register("cholesky", ("sqrt", "stack", "where"))
def _cholesky(self, upper=False):
    """The Cholesky factor of a symmetric positive-definite matrix (batch): lower ``L`` (``L @ L^T = self``),
    or upper ``U = L^T`` when ``upper``."""
    low = _cholesky_lower(self, "cholesky")
    return _swap(low, "cholesky", -1, -2) if upper else low


@_register("cholesky_solve", ("matmul",))
def _cholesky_solve(self, input2, upper=False):
    """``X`` with ``A @ X = self`` where ``A = L @ L^T`` (``input2`` is ``L``, or ``U`` with ``A = U^T U``)."""
    mint = _mint()
    if upper:
        y = mint.triangular_solve(self, input2, upper=True, transpose=True)[0]
        return mint.triangular_solve(y, input2, upper=True)[0]
    y = mint.triangular_solve(self, input2, upper=False)[0]
    return mint.triangular_solve(y, input2, upper=False, transpose=True)[0]


@_register("cholesky_inverse", ("matmul",))
def _cholesky_inverse(self, upper=False):
    """The inverse of ``A = L @ L^T`` (or ``U^T @ U`` when ``upper``) from its Cholesky factor ``self``."""
    eye = Tensor(np.eye(self.shape[-1]), self.dtype)
    return _cholesky_solve(eye, self, upper)


# -- segment and N-D scatter reductions: one-hot membership masks, then one reduction -----------------------
def _identity_of(dtype, reduce):
    np_dtype = mstype.dtype_to_nptype(dtype)
    info = np.finfo(np_dtype) if mstype.is_float(dtype) else np.iinfo(np_dtype)
    return {"max": info.min, "min": info.max, "prod": 1}[reduce]


def _masked_reduce(values, mask, reduce, dtype):
    """Reduce ``values`` (``(1, N) + rest``) over axis 1 where ``mask`` (``(S, N)``) holds: ``(S,) + rest``."""
    fill = _identity_of(dtype, reduce)
    mask = F.reshape(mask, tuple(mask.shape) + (1,) * (values.ndim - 2))
    picked = F.where(mask, values, F.fill(dtype, (1,), fill))
    if reduce == "max":
        return F.amax(picked, 1)
    if reduce == "min":
        return F.amin(picked, 1)
    return F.prod(picked, 1)


def _unsorted_segment(self, op, reduce, segment_ids, num_segments):
    """``num_segments`` rows: the ``reduce`` of this tensor's rows whose ``segment_ids`` equal the row's number
    (the dtype's lowest/highest value, or 1, for an empty segment; negative ids are dropped)."""
    ids = segment_ids if isinstance(segment_ids, Tensor) else Tensor(segment_ids)
    if tuple(self.shape[:ids.ndim]) != tuple(ids.shape):
        raise MSValueError(f"For 'Tensor.{op}', the 'segment_ids' shape must be a prefix of the input shape "
                           f"{tuple(self.shape)}, but got {tuple(ids.shape)}.")
    rest = tuple(self.shape[ids.ndim:])
    flat_ids = F.reshape(ids.astype(mstype.int64), (1, -1))
    mask = F.equal(F.reshape(Tensor(np.arange(int(num_segments), dtype=np.int64)), (-1, 1)), flat_ids)
    values = F.reshape(self, (1, -1) + rest)
    return _masked_reduce(values, mask, reduce, self.dtype)


def _segment_method(name, reduce):
    def method(self, segment_ids, num_segments):
        return _unsorted_segment(self, name, reduce, segment_ids, num_segments)
    method.__name__ = name
    method.__doc__ = f"The {reduce} of this tensor's rows per segment (see ``unsorted_segment_*``)."
    _METHODS[name] = (method, ("equal", "where", "amax", "amin", "prod", "fill"))


for _name, _reduce in (("unsorted_segment_max", "max"), ("unsorted_segment_min", "min"),
                       ("unsorted_segment_prod", "prod")):
    _segment_method(_name, _reduce)
del _name, _reduce


def _scatter_nd_reduce(self, op, reduce, indices, updates):
    """``tensor_scatter_<reduce>``: each ``updates`` slice combined into this tensor at its N-D index."""
    idx = (indices if isinstance(indices, Tensor) else Tensor(indices)).astype(mstype.int64)
    depth = idx.shape[-1]
    if depth > self.ndim:
        raise MSValueError(f"For 'Tensor.{op}', the last dimension of 'indices' must be at most {self.ndim}, "
                           f"but got {depth}.")
    rest = tuple(self.shape[depth:])
    strides = np.cumprod((tuple(self.shape[:depth]) + (1,))[:0:-1])[::-1].astype(np.int64)
    lin = F.reshape(F.sum(F.mul(idx, Tensor(strides)), -1), (1, -1))
    rows = int(np.prod(self.shape[:depth], dtype=np.int64))
    mask = F.equal(F.reshape(Tensor(np.arange(rows, dtype=np.int64)), (-1, 1)), lin)
    upd = F.reshape(updates.astype(self.dtype), (1, -1) + rest)
    base = F.reshape(self, (rows,) + rest)
    if reduce in ("max", "min"):
        combined = _masked_reduce(upd, mask, reduce, self.dtype)
        out = (F.maximum if reduce == "max" else F.minimum)(base, combined)
    else:
        factor = _masked_reduce(upd, mask, "prod", self.dtype)
        out = F.mul(base, factor) if reduce == "mul" else F.div(base, factor)
    return F.reshape(out, tuple(self.shape))


def _scatter_nd_method(name, reduce):
    def method(self, indices, updates):
        return _scatter_nd_reduce(self, name, reduce, indices, updates)
    method.__name__ = name
    method.__doc__ = f"A new tensor with ``updates`` combined by {reduce} at the N-D ``indices``."
    _METHODS[name] = (method, ("equal", "where", "amax", "amin", "prod", "fill", "maximum", "minimum"))


for _name, _reduce in (("scatter_max", "max"), ("scatter_min", "min"), ("scatter_mul", "mul"),
                       ("scatter_div", "div")):
    _scatter_nd_method(_name, _reduce)
del _name, _reduce


@_register("value")
def _value(self):
    """The tensor itself (MindSpore 2.10's ``value()`` of a plain Tensor)."""
    return self


@_register("is_shared")
def _is_shared(self):
    """False: no tensor here lives in shared (inter-process) memory."""
    return False


@_register("get_bytes")
def _get_bytes(self):
    """The raw bytes of the data, C order (``asnumpy().tobytes()``)."""
    return self.asnumpy().tobytes()


def _device(self):
    """Where the data lives: 'GPU' for a buffer in CUDA memory (``__cuda_array_interface__``), else 'CPU'."""
    return "GPU" if hasattr(self._buffer(), "__cuda_array_interface__") else "CPU"


@_register("unique_with_pad", ("unique", "concat", "fill"))
def _unique_with_pad(self, pad_num):
    """``(y, idx)``: the distinct values of a 1-D tensor in order of first appearance, padded with ``pad_num``
    to the input's length, and each element's position in ``y``."""
    if self.ndim != 1:
        raise MSValueError(f"For 'Tensor.unique_with_pad', the input must be 1-D, but got {self.ndim}-D.")
    y, idx = F.unique(self)
    pad = F.fill(self.dtype, (self.shape[0] - y.shape[0],), pad_num)
    return F.concat((y, pad), 0), idx


@_register("data_ptr")
def _data_ptr(self):
    """The address of the first element of the data buffer (host or device memory)."""
    buf = self._buffer()
    for protocol in ("__cuda_array_interface__", "__array_interface__"):   # never a conversion of the buffer
        interface = getattr(buf, protocol, None)
        if interface is not None:
            return int(interface["data"][0])
    raise MSRuntimeError(f"For 'Tensor.data_ptr', the buffer of this tensor ({type(buf).__name__}) exposes no "
                         f"address.")


# -- random ------------------------------------------------------------------------------------------------------
def _float_of(self):
    return self.dtype if mstype.is_float(self.dtype) else mstype.float32


def _uniform01(self, generator=None, op="uniform"):
    with drawing_from(op, generator):
        return F.uniform(tuple(self.shape), Tensor(0.0, mstype.float32), Tensor(1.0, mstype.float32))


@_register("bernoulli")
def _bernoulli(self, *, generator=None):
    """0/1 samples, 1 with probability ``self`` (elementwise)."""
    return _mint().bernoulli(self, generator=generator)


@_register("bernoulli_", ("uniform", "less"))
def _bernoulli_(self, p=0.5, *, generator=None):
    """Fill with 0/1 samples, 1 with probability ``p`` (a number or a tensor broadcast to this shape)."""
    return _inplace(self, F.less(_uniform01(self, generator, "bernoulli_"), p).astype(self.dtype), "bernoulli_")


@_register("exponential_", ("uniform", "log"))
def _exponential_(self, lambd=1, *, generator=None):
    """Fill with samples of the exponential distribution of rate ``lambd``."""
    u = _uniform01(self, generator, "exponential_")
    return _inplace(self, F.div(F.neg(F.log(F.sub(1.0, u))), lambd).astype(self.dtype), "exponential_")


@_register("random_", ("uniform", "floor"))
def _random_(self, from_=0, to=None, *, generator=None):
    """Fill with integers drawn uniformly from ``[from_, to)`` (``to`` None: up to the dtype's maximum + 1)."""
    if to is None:
        to = (2 ** 24 if mstype.is_float(self.dtype) else int(np.iinfo(mstype.dtype_to_nptype(self.dtype)).max)
              + 1) if self.dtype is not mstype.bool_ else 2
    if to <= from_:
        raise MSValueError(f"For 'Tensor.random_', the 'from_' must be less than 'to', but got from_={from_}, "
                           f"to={to}.")
    span = float(to - from_)
    draw = F.minimum(F.floor(F.mul(_uniform01(self, generator, "random_"), span)), span - 1)    # float32 rounding may reach ``span``
    return _inplace(self, F.add(draw.astype(mstype.float64), float(from_)).astype(self.dtype), "random_")


@_register("uniform", ("uniform",))
def _uniform(self, from_=0.0, to=1.0, generator=None):
    """A new tensor of this shape with samples drawn uniformly from ``[from_, to)``."""
    if from_ > to:
        raise MSValueError(f"For 'Tensor.uniform', the 'from_' must not exceed 'to', but got from_={from_}, "
                           f"to={to}.")
    u = _uniform01(self, generator, "uniform")
    return F.add(F.mul(u, float(to - from_)), float(from_)).astype(_float_of(self))


@_register("cauchy", ("uniform", "tan"))
def _cauchy(self, median=0.0, sigma=1.0):
    """A new tensor of this shape with Cauchy(``median``, ``sigma``) samples."""
    u = _uniform01(self)
    return F.add(F.mul(F.tan(F.mul(F.sub(u, 0.5), float(np.pi))), sigma), median).astype(_float_of(self))


@_register("log_normal", ("normal", "exp"))
def _log_normal(self, mean=1.0, std=2.0):
    """A new tensor of this shape with samples whose logarithm is N(``mean``, ``std``^2)."""
    z = F.normal(tuple(self.shape), Tensor(float(mean), mstype.float32), Tensor(float(std), mstype.float32))
    return F.exp(z).astype(_float_of(self))


@_register("multinomial", ("multinomial",))
def _multinomial(self, num_samples, replacement=True, seed=None):
    return F.multinomial(self, num_samples, replacement, seed)


@_register("random_categorical", ("random_categorical",))
def _random_categorical(self, num_sample, seed=0, dtype=mstype.int64):
    return F.random_categorical(self, num_sample, seed, dtype)


# -- methods installed onto the Tensor class ---------------------------------------------------------------
# Tensor (mindspore.common.tensor) sits below the operators and defines only what needs no kernel; the
# operators, conversions and indexing below are put on the class when mindspore.ops is imported.
def _astype(self, dtype, copy=True):
    """This tensor cast to ``dtype`` (in a PYNATIVE ``to_float`` cell, from its value in the cell's dtype, as 2.10)."""
    return F.cast(mixed_precision_input(self), mstype.to_ms_dtype(dtype))


_TO_DEVICES = ("cpu", "CPU", "Ascend", "npu")


def to_arguments(owner, args, kwargs, ignored):
    """``(device, dtype)`` of a ``to(...)`` call of ``owner`` ('Tensor.to', 'Cell.to'): a string positional is the
    device, a Tensor gives its dtype, anything else but a bool or None is the dtype; keywords ``device``/``dtype``,
    and those in ``ignored``, which are dropped. Any other keyword is a TypeError, as Python's own."""
    kwargs = dict(kwargs)
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    for name in ignored:
        kwargs.pop(name, None)
    if kwargs:
        raise MSTypeError(f"{owner}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    for arg in args:
        if isinstance(arg, Tensor):
            dtype = arg.dtype
        elif isinstance(arg, str):
            device = arg
        elif not isinstance(arg, bool) and arg is not None:
            dtype = arg
    return device, dtype


def _to(self, *args, **kwargs):
    """``x.to(dtype)``, ``x.to(other)`` (``other``'s dtype), or ``x.to()`` (``x``).

    A string is a device, as in MindSpore 2.10 (``'CPU'``/``'cpu'``, ``'Ascend'``/``'npu'``; anything else is a
    ValueError): accepted and ignored, a tensor lives where its backend keeps it. ``non_blocking``/``copy`` too.
    """
    device, dtype = to_arguments("Tensor.to", args, kwargs, ("non_blocking", "copy"))
    if device is not None and device not in _TO_DEVICES:
        raise MSValueError(f"For 'Tensor.to', the 'device' must be one of {list(_TO_DEVICES)}, but got {device!r}.")
    return self if dtype is None else _astype(self, dtype)


def _caster(dtype):
    def method(self):
        return _astype(self, dtype)
    return method


def _copy(self):
    read = mixed_precision_input(self)
    if read is not self:   # in a PYNATIVE to_float cell MindSpore 2.10's copy keeps the dtype, rounded to the cell's
        return F.cast(read, self.dtype)
    return F.identity(self)


def _write(self, value):
    """Replace this tensor's data with ``value``'s, cast to this tensor's dtype; returns ``self``."""
    if not isinstance(value, Tensor):
        value = Tensor(value, dtype=self._dtype)
    data = value._buffer()
    if value._dtype is not self._dtype:
        data = F.cast(value, self._dtype)._data
    self._data = data
    return self


def _assign_value(self, value):
    """Replace this tensor's data with ``value``'s, dtype included (as MindSpore 2.10); returns ``self``.

    A Parameter keeps its dtype (the value is cast): its dtype is part of the network's contract.
    """
    from mindspore.common.parameter import Parameter
    if isinstance(self, Parameter) or not isinstance(value, Tensor):
        return _write(self, value)
    self._data = value._buffer()
    self._dtype = value._dtype
    self._init = None
    return self


def _delete_(self, non_blocking=False):
    """Release this tensor's memory (MindSpore 2.10's ``Tensor.delete_``); returns ``self``, which keeps its shape
    and dtype but holds no data until new data is assigned (``tensor.data = other``); reading it before is an
    error. The release is immediate here (``non_blocking`` only has to be a bool)."""
    from mindspore.common.tensor import _RELEASED
    if not isinstance(non_blocking, bool):
        raise MSValueError(f"The type of 'non_blocking' must be bool, but got {non_blocking}")
    self._init_shape = tuple(self.shape)
    self._init = _RELEASED
    self._data = None
    return self


def _set_device_address(self, addr, shape, dtype):
    """Make this tensor the ``shape``/``dtype`` data at memory address ``addr`` (MindSpore 2.10's
    ``Tensor.set_device_address``, Ascend-only there), without a copy: the memory is the caller's and must outlive
    the tensor's use. Supported where the target keeps tensor data in host memory (CPU): ``addr`` is then a host
    address (e.g. ``numpy_array.ctypes.data``)."""
    import ctypes
    if isinstance(addr, bool) or not isinstance(addr, int) or addr <= 0:
        raise MSTypeError(f"For 'Tensor.set_device_address', the 'addr' must be a positive int, but got {addr!r}.")
    if not isinstance(shape, (tuple, list)) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                                       for d in shape):
        raise MSTypeError(f"For 'Tensor.set_device_address', the 'shape' must be a tuple of non-negative ints, but "
                          f"got {shape!r}.")
    dtype = mstype.to_ms_dtype(dtype)
    runtime = _backend.data_runtime()
    if not runtime.is_host:
        raise MSRuntimeError(f"For 'Tensor.set_device_address', the target '{runtime.target}' keeps tensor data in "
                             f"device memory; only a target with host-memory buffers (CPU) takes an address here.")
    count = 1
    for d in shape:
        count *= d
    np_dtype = np.dtype(dtype.to_numpy())
    raw = (ctypes.c_char * (count * np_dtype.itemsize)).from_address(addr)
    self._data = runtime.from_host(np.frombuffer(raw, dtype=np_dtype).reshape(tuple(shape)))
    self._dtype = dtype
    self._init = None


def _set_dtype(self, dtype):
    """Convert this tensor's data to ``dtype`` in place; returns the dtype, as MindSpore 2.10."""
    dtype = mstype.to_ms_dtype(dtype)
    self._data = F.cast(self, dtype)._data
    self._dtype = dtype
    return dtype


def _invert(self):
    if self._dtype is mstype.bool_:
        return F.logical_not(self)
    return F.bitwise_not(self)


def _bitwise(logical, bitwise):
    def method(self, other):
        return (logical if self._dtype is mstype.bool_ else bitwise)(self, other)
    return method


def _eq(self, other):
    # as 2.10: only a Tensor or a Python int, float or bool is compared elementwise; anything else (None, a list, a
    # NumPy array or scalar, a str) is simply not equal (MindNLP's cache tests ``key_cache[i] == []``)
    if not isinstance(other, (int, float, Tensor)):
        return False
    return F.equal(self, other)


def _ne(self, other):
    if not isinstance(other, (int, float, Tensor)):
        return True
    return F.not_equal(self, other)


def _getitem(self, index):
    return F._tensor_getitem(self, index)


def _setitem(self, index, value):
    F._tensor_setitem(self, index, value)


def _getattr(self, name):
    # Tensor methods that are plain functional ops (x.exp(), x.sum(axis)...) come from the tables above,
    # so the Tensor class does not re-spell every op.
    if name.startswith("__"):
        raise AttributeError(name)
    method = lookup_method(name)
    if method is None:
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")
    return method.__get__(self, type(self))


def _binary(fn, reflected=False):
    if reflected:
        def method(self, other):
            return fn(other, self)
    else:
        def method(self, other):
            return fn(self, other)
    return method


def _rtruediv(self, other):
    """``other / self`` for a non-Tensor ``other``: ``self.reciprocal() * other``, as MindSpore 2.10 computes it (in
    GRAPH_MODE too), which is not always the correctly rounded quotient (``0.3 / x`` differs from ``div`` in the
    last bit for about a quarter of float32 ``x``)."""
    return F.mul(F.reciprocal(self), other)


_INSTALLED = {
    "astype": _astype, "to": _to, "float": _caster(mstype.float32), "half": _caster(mstype.float16),
    "int": _caster(mstype.int32), "long": _caster(mstype.int64), "bool": _caster(mstype.bool_),
    "double": _caster(mstype.float64), "byte": _caster(mstype.uint8), "short": _caster(mstype.int16),
    "bfloat16": _caster(mstype.bfloat16), "copy": _copy, "clone": _copy, "assign_value": _assign_value,
    "set_dtype": _set_dtype,
    "T": property(lambda self: self.transpose()), "mT": property(lambda self: self.swapaxes(-1, -2)),
    "H": property(_H),
    "mH": property(lambda self: self.adjoint()),
    "data": property(lambda self: self, _assign_value), "delete_": _delete_, "set_device_address": _set_device_address, "device": property(_device), "is_meta": property(lambda self: False),
    "__add__": _binary(F.add), "__radd__": _binary(F.add, True), "__sub__": _binary(F.sub),
    "__rsub__": _binary(F.sub, True), "__mul__": _binary(F.mul), "__rmul__": _binary(F.mul, True),
    "__truediv__": _binary(F.div), "__rtruediv__": _rtruediv,
    "__floordiv__": _binary(F.floor_divide), "__rfloordiv__": _binary(F.floor_divide, True),
    "__mod__": _binary(F.floor_mod), "__rmod__": _binary(F.floor_mod, True), "__pow__": _binary(F.pow),
    "__rpow__": _binary(F.pow, True), "__matmul__": _binary(F.matmul), "__rmatmul__": _binary(F.matmul, True),
    "__neg__": F.neg, "__pos__": lambda self: self, "__abs__": F.abs, "__invert__": _invert,
    "__and__": _bitwise(F.logical_and, F.bitwise_and), "__rand__": _bitwise(F.logical_and, F.bitwise_and),
    "__or__": _bitwise(F.logical_or, F.bitwise_or), "__ror__": _bitwise(F.logical_or, F.bitwise_or),
    "__xor__": _bitwise(F.logical_xor, F.bitwise_xor), "__rxor__": _bitwise(F.logical_xor, F.bitwise_xor),
    "__eq__": _eq, "__ne__": _ne, "__lt__": _binary(F.less), "__le__": _binary(F.less_equal),
    "__gt__": _binary(F.greater), "__ge__": _binary(F.greater_equal),
    "__getitem__": _getitem, "__setitem__": _setitem,
    "__iadd__": _binary(F.add), "__isub__": _binary(F.sub), "__imul__": _binary(F.mul),
    "__itruediv__": _binary(F.div),
    "__getattr__": _getattr,
}


def _staged_setitem(self, index, value):
    self.rebind(tensor_setitem_value(self, index, value))


def install(cls=Tensor):
    """Put the computing methods onto ``cls`` (Tensor; done once, when this module is imported)."""
    for name, fn in _INSTALLED.items():
        setattr(cls, name, fn)
    cls.__hash__ = object.__hash__
    StagedTensor.__setitem__ = _staged_setitem   # graph mode: x[i] = v rebinds x to the updated value


def install_on_class(cls=Tensor):
    """Also put the table's methods onto the class, so ``Tensor.argsort(x)`` and ``Tensor.sum(x, 1)`` work as in
    MindSpore 2.10 (whose methods are class attributes). Called once ``import mindspore`` has imported every
    functional op (a missing one would be cached as absent); a name the class or a base already defines (the
    storage/flag methods of ``mindspore._tensor_flags``...) is left alone."""
    for name in method_names():
        if any(name in vars(k) for k in cls.__mro__):
            continue
        fn = lookup_method(name)
        if fn is not None:
            setattr(cls, name, fn)


install()
