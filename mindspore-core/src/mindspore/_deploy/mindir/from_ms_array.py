"""MindIR primitives -> ours: the graph's plumbing, scalar (shape) arithmetic, math, array and reduction ops.

Each entry of :data:`RULES` maps a MindSpore primitive name to a :class:`~.from_ms_base.Rule` whose function
has MindSpore's argument list (see :mod:`.from_ms_base`). Plumbing (``Load``, ``UpdateState``, ``Depend``,
``MakeTuple``, ``TupleGetItem``, ``Partial``, ``Switch``) is plain Python on values; shape queries give
Python ints (a shape is static in each compilation, so ``Shape`` -> ``TupleGetItem`` -> ``ScalarMul`` is
compile-time arithmetic, as MindSpore's own dynamic-shape graphs are before they run); every tensor op
calls one of our primitives or functional ops. Enumerations MindSpore numbers on their own: ``Meshgrid``'s
``indexing`` (ij 0, xy 1), ``TensorScatterElements``' ``reduce`` (none 0, add 1). ``SplitWithSize(input,
split_size, dim)`` is MindSpore's CPU form of ``SplitV`` (what our unrolled ``nn.LSTM`` exports).
"""
from __future__ import annotations

import builtins
import functools
import math
import operator

import numpy as np

import mindspore.ops as ops
from mindspore._deploy.mindir.from_ms_base import (MONAD, as_bool, as_int, as_tuple, prim, rule, to_dtype, to_indexing,
                                                   to_scatter_reduction)
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore._infer import staging
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["RULES"]


def _known(op, value):
    """``value``, refusing a tensor whose value is only known when the graph runs."""
    if isinstance(value, staging.StagedTensor):
        raise MSRuntimeError(f"For '{op}' in a MindIR file, the value depends on the data of the graph's inputs, "
                             "which a compiled graph can not turn into a Python number (only shapes can be).")
    return value


def _concrete(op, value):
    """The Python number in ``value`` (a number or a 0-d Tensor whose value is known now)."""
    if isinstance(_known(op, value), Tensor):
        return value.asnumpy().item()
    return value


def _concrete_ints(op, name, value):
    """``value`` (ints, or an int Tensor whose value is known now) as a tuple of Python ints."""
    if isinstance(_known(op, value), Tensor):
        value = value.asnumpy().reshape(-1).tolist()
    return _ints(op, name, value)


# --- plumbing ---------------------------------------------------------------------------------------------
def _load(param, *monads):
    return param


def _update_state(*values):
    return MONAD


def _depend(value, *deps):
    return value


def _make_tuple(*items):
    return tuple(items)


def _make_list(*items):
    return list(items)


def _tuple_getitem(input, index):
    return input[as_int("TupleGetItem", "index", index)]


def _partial(fn, *args):
    return functools.partial(fn, *args)


def _switch(cond, true_branch, false_branch):
    return true_branch if as_bool(_concrete("Switch", cond)) else false_branch


def _stop_gradient(input):
    return ops.stop_gradient(input)


def _joined_str(*parts):
    return "".join(str(p) for p in parts)


_RAISED = {"ValueError": MSValueError, "TypeError": MSTypeError}


def _raise(*args):
    """MindSpore's ``raise`` node: (exception type name, message parts...). The type is only a name: the error
    raised is ours (a ValueError, TypeError or RuntimeError) carrying the file's message."""
    args = [a for a in args if a is not MONAD]
    kind = str(args[0]) if args else "RuntimeError"
    message = " ".join(str(a) for a in args[1:] if a is not None)
    raise _RAISED.get(kind, MSRuntimeError)(f"The MindIR graph raised {kind}: {message}")


# --- shapes and scalars ---------------------------------------------------------------------------------------
def _shape(input_x):
    return tuple(int(d) for d in input_x.shape)


def _tensor_shape(input_x):
    return Tensor(np.array(input_x.shape, np.int64))


def _rank(input_x):
    return len(input_x.shape)


def _seq_len(input):
    return len(input)


def _scalar_to_tensor(input_x, dtype=43):
    return Tensor(_concrete("ScalarToTensor", input_x), to_dtype("ScalarToTensor", dtype))


def _tensor_to_scalar(input_x):
    return _concrete("TensorToScalar", input_x)


def _scalar_cast(input_x, input_y):
    dtype = to_dtype("ScalarCast", input_y)
    value = _concrete("ScalarCast", input_x)
    if dtype == mstype.bool_:
        return bool(value)
    return float(value) if dtype in mstype.float_type else int(value)


def _tuple_to_tensor(input_tuple, dtype=None):
    values = [_concrete("TupleToTensor", v) for v in input_tuple]
    return Tensor(np.array(values), to_dtype("TupleToTensor", dtype, allow_none=True))


def _tensor_to_tuple(input_x):
    value = _concrete("TensorToTuple", input_x)
    return tuple(np.asarray(value).reshape(-1).tolist())


def _scalar(fn, name):
    def run(x, y):
        return fn(_concrete(name, x), _concrete(name, y))
    return rule(run)


def _scalar_unary(fn, name):
    def run(x):
        return fn(_concrete(name, x))
    return rule(run)


def _true_div(x, y):
    return x / y


_SCALAR = {
    "ScalarAdd": operator.add, "ScalarSub": operator.sub, "ScalarMul": operator.mul, "ScalarDiv": _true_div,
    "ScalarFloorDiv": operator.floordiv, "ScalarMod": operator.mod, "ScalarPow": operator.pow,
    "ScalarEq": operator.eq, "ScalarLt": operator.lt, "ScalarGt": operator.gt, "ScalarLe": operator.le,
    "ScalarGe": operator.ge, "ScalarMax": builtins.max, "ScalarMin": builtins.min,
    "tuple_equal": operator.eq, "list_equal": operator.eq,
}
_SCALAR_UNARY = {"ScalarUadd": operator.pos, "ScalarUsub": operator.neg, "ScalarBool": bool, "BoolNot": operator.not_,
                 "ScalarLog": math.log}
# older files spell the scalar ops in snake case
_SNAKE = {"scalar_add": "ScalarAdd", "scalar_sub": "ScalarSub", "scalar_mul": "ScalarMul", "scalar_div": "ScalarDiv",
          "scalar_floordiv": "ScalarFloorDiv", "scalar_mod": "ScalarMod", "scalar_pow": "ScalarPow",
          "scalar_eq": "ScalarEq", "scalar_lt": "ScalarLt", "scalar_gt": "ScalarGt", "scalar_le": "ScalarLe",
          "scalar_ge": "ScalarGe", "scalar_uadd": "ScalarUadd", "scalar_usub": "ScalarUsub", "bool_not": "BoolNot"}


# --- math -------------------------------------------------------------------------------------------------
def _binary(cls):
    def run(input, other):
        return prim(cls)(input, other)
    return rule(run)


def _unary(cls):
    def run(input):
        return prim(cls)(input)
    return rule(run)


def _muls(input, other):
    return prim(ops.Mul)(input, other)


def _add_ext(input, other, alpha=1):
    return prim(ops.Add)(input, other if alpha == 1 else prim(ops.Mul)(other, alpha))


def _sub_ext(input, other, alpha=1):
    return prim(ops.Sub)(input, other if alpha == 1 else prim(ops.Mul)(other, alpha))


def _div_mod(x, y, rounding_mode=None):
    out = prim(ops.Div)(x, y)
    mode = {1: "trunc", 2: "floor"}.get(rounding_mode, rounding_mode)
    if mode is None:
        return out
    if mode == "trunc":
        return prim(ops.Trunc)(out)
    if mode == "floor":
        return prim(ops.Floor)(out)
    raise MSValueError(f"For 'DivMod' in a MindIR file, the 'rounding_mode' must be None, 'trunc' or 'floor', but got "
                       f"{rounding_mode!r}.")


def _cast(input_x, dtype):
    return prim(ops.Cast)(input_x, to_dtype("Cast", dtype))


def _select(condition, input, other):
    return prim(ops.Select)(condition, input, other)


def _clamp_scalar(input, min=None, max=None):
    return ops.clamp(input, min, max)


def _add_n(x):
    return prim(ops.AddN)(tuple(x))


def _matmul(input, mat2, transpose_a=False, transpose_b=False):
    return prim(ops.MatMul, bool(transpose_a), bool(transpose_b))(input, mat2)


def _batch_matmul(x, y, transpose_a=False, transpose_b=False):
    return prim(ops.BatchMatMul, bool(transpose_a), bool(transpose_b))(x, y)


def _matmul_ext(input, other):
    return ops.matmul(input, other)


def _bmm_ext(input, mat2):
    return ops.bmm(input, mat2)


def _dense(input, weight, bias=None):
    out = ops.matmul(input, prim(ops.Transpose)(weight, (1, 0)) if len(weight.shape) == 2 else weight)
    return out if bias is None else prim(ops.Add)(out, bias)


def _addcdiv(input, tensor1, tensor2, value):
    return prim(ops.Addcdiv)(input, tensor1, tensor2, value)


def _addcmul(input, tensor1, tensor2, value):
    return prim(ops.Addcmul)(input, tensor1, tensor2, value)


def _lerp(input, end, weight):
    return prim(ops.Lerp)(input, end, weight)


def _is_close(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return prim(ops.IsClose, float(rtol), float(atol), as_bool(equal_nan))(input, other)


def _nan_to_num(input, nan=None, posinf=None, neginf=None):
    """MindSpore's ``nan=None`` is 0.0; ``posinf``/``neginf`` None are the dtype's extremes."""
    return prim(ops.NanToNum, 0.0 if nan is None else float(nan), None if posinf is None else float(posinf),
                None if neginf is None else float(neginf))(input)


def _round(input, decimals=0):
    return prim(ops.Round)(input, as_int("Round", "decimals", decimals))


def _einsum(x, *, equation):
    return prim(ops.Einsum, str(equation))(tuple(x))


# --- arrays -------------------------------------------------------------------------------------------------
#: The most elements an op may create from sizes the file gives (a corrupt size must fail, not exhaust memory).
MAX_CREATED_ELEMENTS = 1 << 32


def _ints(op, name, value):
    return tuple(as_int(op, name, v) for v in as_tuple(value))


def _size(op, name, value, scale=1):
    """``value`` as a shape whose tensor (``scale`` times its elements) stays under :data:`MAX_CREATED_ELEMENTS`."""
    shape = _ints(op, name, value)
    n = scale
    for d in shape:
        n *= max(d, 1)
    if n > MAX_CREATED_ELEMENTS:
        raise MSValueError(f"For '{op}' in a MindIR file, the '{name}' {shape} asks for {n} elements, more than "
                           f"{MAX_CREATED_ELEMENTS}: the file is corrupt.")
    return shape


def _reshape(input, shape):
    return prim(ops.Reshape)(input, _ints("Reshape", "shape", shape))


def _transpose(input, input_perm):
    return prim(ops.Transpose)(input, _ints("Transpose", "input_perm", input_perm))


def _flatten(input_x):
    return prim(ops.Flatten)(input_x)


def _expand_dims(input_x, axis):
    return prim(ops.ExpandDims)(input_x, as_int("ExpandDims", "axis", axis))


def _squeeze(input, axis=()):
    return prim(ops.Squeeze, _ints("Squeeze", "axis", axis))(input)


def _concat(tensors, axis=0):
    return prim(ops.Concat, as_int("Concat", "axis", axis))(tuple(tensors))


def _stack(*x, axis=0, N=None, num=None):
    items = tuple(x[0]) if len(x) == 1 and isinstance(x[0], (tuple, list)) else x
    return prim(ops.Stack, axis)(items)


def _split(input_x, axis=0, output_num=1):
    return prim(ops.Split, as_int("Split", "axis", axis), as_int("Split", "output_num", output_num))(input_x)


def _gather(input_params, input_indices, axis, batch_dims=0):
    return prim(ops.Gather, batch_dims)(input_params, input_indices, as_int("Gather", "axis", axis))


def _gather_d(x, dim, index):
    return prim(ops.GatherD)(x, as_int("GatherD", "dim", dim), index)


def _strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                   shrink_axis_mask=0):
    p = prim(ops.StridedSlice, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask)
    op = "StridedSlice"
    return p(input_x, _ints(op, "begin", begin), _ints(op, "end", end), _ints(op, "strides", strides))


def _slice(input, begin, size):
    return prim(ops.Slice)(input, _ints("Slice", "begin", begin), _ints("Slice", "size", size))


def _tile(input, dims):
    size = 1
    for d in input.shape:
        size *= max(d, 1)
    return prim(ops.Tile)(input, _size("Tile", "dims", dims, size))


def _broadcast_to(input, shape):
    return prim(ops.BroadcastTo, _size("BroadcastTo", "shape", shape))(input)


def _zeros(size, dtype=None):
    return prim(ops.Zeros)(_size("Zeros", "size", size), to_dtype("Zeros", dtype, allow_none=True))


def _ones(shape, dtype=None):
    return prim(ops.Ones)(_size("Ones", "shape", shape), to_dtype("Ones", dtype, allow_none=True))


def _zeros_like(input):
    return prim(ops.ZerosLike)(input)


def _ones_like(input):
    return prim(ops.OnesLike)(input)


def _fill_v2(shape, value):
    return prim(ops.BroadcastTo, _size("FillV2", "shape", shape))(value)


def _fill(type, shape, value):
    return prim(ops.Fill)(to_dtype("Fill", type), _size("Fill", "shape", shape), _concrete("Fill", value))


def _range(start, end, step, maxlen=1000000):
    op = "Range"
    return prim(ops.Range, maxlen)(_concrete(op, start), _concrete(op, end), _concrete(op, step))


def _one_hot(indices, depth, on_value, off_value, axis=-1):
    return prim(ops.OneHot, axis)(indices, as_int("OneHot", "depth", depth), on_value, off_value)


def _reverse_v2(input, axis):
    return prim(ops.ReverseV2, _ints("ReverseV2", "axis", axis))(input)


def _tensor_scatter_update(input_x, indices, updates):
    return prim(ops.TensorScatterUpdate)(input_x, indices, updates)


def _masked_fill(input, mask, value):
    return prim(ops.MaskedFill)(input, mask, value)


def _eye(n, m, dtype):
    n, m = _size("Eye", "(n, m)", (n, m))
    return prim(ops.Eye)(n, m, to_dtype("Eye", dtype))


def _argmax(input_x, axis=-1, output_type=34):
    return prim(ops.Argmax, as_int("Argmax", "axis", axis), to_dtype("Argmax", output_type))(input_x)


def _argmin(input_x, axis=-1, output_type=34):
    return prim(ops.Argmin, as_int("Argmin", "axis", axis), to_dtype("Argmin", output_type))(input_x)


def _arg_max_with_value(input, axis=0, keep_dims=False):
    return prim(ops.ArgMaxWithValue, as_int("ArgMaxWithValue", "axis", axis), bool(keep_dims))(input)


def _arg_min_with_value(input, axis=0, keep_dims=False):
    return prim(ops.ArgMinWithValue, as_int("ArgMinWithValue", "axis", axis), bool(keep_dims))(input)


def _top_k(input_x, k, sorted=True):
    return prim(ops.TopK, bool(sorted))(input_x, as_int("TopK", "k", k))


def _sort(x, axis=-1, descending=False):
    return prim(ops.Sort, as_int("Sort", "axis", axis), bool(descending))(x)


def _cum_sum(x, axis, exclusive=False, reverse=False):
    return prim(ops.CumSum, bool(exclusive), bool(reverse))(x, as_int("CumSum", "axis", axis))


def _tril(input_x, diagonal=0):
    return prim(ops.Tril, as_int("Tril", "diagonal", diagonal))(input_x)


def _triu(input_x, diagonal=0):
    return prim(ops.Triu, as_int("Triu", "diagonal", diagonal))(input_x)


def _cum_prod(x, axis, exclusive=False, reverse=False):
    return prim(ops.CumProd, as_bool(exclusive), as_bool(reverse))(x, as_int("CumProd", "axis", axis))


def _cummax(input, axis):
    return prim(ops.Cummax, as_int("Cummax", "axis", axis))(input)


def _cummin(input, axis):
    return prim(ops.Cummin, as_int("Cummin", "axis", axis))(input)


def _split_with_size(input, split_size, dim=0):
    """MindSpore's CPU form of ``SplitV``: pieces of the sizes ``split_size`` along ``dim``."""
    sizes = _ints("SplitWithSize", "split_size", split_size)
    return prim(ops.SplitV, sizes, as_int("SplitWithSize", "dim", dim), len(sizes))(input)


def _unstack(x, *, axis=0, num=None):
    return prim(ops.Unstack, as_int("Unstack", "axis", axis), None if num is None else as_int("Unstack", "num", num))(x)


def _meshgrid(inputs, indexing=1):
    return prim(ops.Meshgrid, to_indexing("Meshgrid", indexing))(tuple(inputs))


def _pad(input_x, *, paddings):
    pairs = tuple(_ints("Pad", "paddings", p) for p in as_tuple(paddings))
    return prim(ops.Pad, pairs)(input_x)


def _pad_v3(x, paddings, constant_value=None, *, mode="constant", paddings_contiguous=True):
    """MindSpore's own files give ``paddings`` as a 1-D int tensor (a constant), ours as a tuple."""
    paddings = _concrete_ints("PadV3", "paddings", paddings)
    p = prim(ops.PadV3, str(mode), as_bool(paddings_contiguous))
    return p(x, paddings) if constant_value is None else p(x, paddings, constant_value)


def _gather_nd(input_x, indices):
    return prim(ops.GatherNd)(input_x, indices)


def _scatter_nd(indices, updates, shape):
    return prim(ops.ScatterNd)(indices, updates, _size("ScatterNd", "shape", shape))


def _tensor_scatter_add(input_x, indices, updates):
    return prim(ops.TensorScatterAdd)(input_x, indices, updates)


def _tensor_scatter_elements(data, indices, updates, axis=0, reduce=0):
    op = "TensorScatterElements"
    p = prim(ops.TensorScatterElements, as_int(op, "axis", axis), to_scatter_reduction(op, reduce))
    return p(data, indices, updates)


def _masked_select(input, mask):
    return prim(ops.MaskedSelect)(input, mask)


# --- reductions -----------------------------------------------------------------------------------------------
def _reduce(cls):
    def run(x, axis=(), keep_dims=False):
        return prim(cls, bool(keep_dims))(x, _ints(cls.__name__, "axis", axis))
    return rule(run)


def _reduce_sum(x, axis=(), keep_dims=False, skip_mode=False):
    axis = _ints("ReduceSum", "axis", axis)
    if skip_mode and not axis:
        return x
    return prim(ops.ReduceSum, bool(keep_dims))(x, axis)


def _sum_ext(input, dim=None, keepdim=False, dtype=None):
    dim = None if dim is None else _ints("SumExt", "dim", dim)
    return ops.sum(input, dim, bool(keepdim), dtype=to_dtype("SumExt", dtype, allow_none=True))


def _prod_ext(input, dim=None, keepdim=False, dtype=None):
    if dtype is not None:
        input = prim(ops.Cast)(input, to_dtype("ProdExt", dtype))
    dim = () if dim is None else _ints("ProdExt", "dim", dim)
    return prim(ops.ReduceProd, bool(keepdim))(input, dim)


def _mean_ext(input, dim=None, keepdim=False, dtype=None):
    if dtype is not None:
        input = prim(ops.Cast)(input, to_dtype("MeanExt", dtype))
    dim = () if dim is None else _ints("MeanExt", "dim", dim)
    return prim(ops.ReduceMean, bool(keepdim))(input, dim)


def _reduce_std(x, axis=(), unbiased=True, keep_dims=False):
    return prim(ops.ReduceStd, _ints("ReduceStd", "axis", axis), as_bool(unbiased), as_bool(keep_dims))(x)


def _lp_norm(input, *, axis, p=2, keep_dims=False, epsilon=1e-12):
    op = "LpNorm"
    return prim(ops.LpNorm, _ints(op, "axis", axis), as_int(op, "p", p), as_bool(keep_dims), float(epsilon))(input)


RULES = {
    # plumbing
    "Load": rule(_load, keeps_monads=True),
    "UpdateState": rule(_update_state, keeps_monads=True, monad_out=True),
    "Depend": rule(_depend, keeps_monads=True),
    "MakeTuple": rule(_make_tuple, keeps_monads=True),
    "make_tuple": rule(_make_tuple, keeps_monads=True),
    "RealMakeTuple": rule(_make_tuple, keeps_monads=True),
    "MakeList": rule(_make_list, keeps_monads=True),
    "make_list": rule(_make_list, keeps_monads=True),
    "RealMakeList": rule(_make_list, keeps_monads=True),
    "TupleGetItem": rule(_tuple_getitem, keeps_monads=True),
    "tuple_getitem": rule(_tuple_getitem, keeps_monads=True),
    "RealTupleGetItem": rule(_tuple_getitem, keeps_monads=True),
    "ListGetItem": rule(_tuple_getitem, keeps_monads=True),
    "list_getitem": rule(_tuple_getitem, keeps_monads=True),
    "Partial": rule(_partial, keeps_monads=True),
    "Switch": rule(_switch, keeps_monads=True),
    "StopGradient": rule(_stop_gradient), "stop_gradient": rule(_stop_gradient),
    "JoinedStr": rule(_joined_str),
    "raise": rule(_raise),
    # shapes and scalars
    "Shape": rule(_shape), "TensorShape": rule(_tensor_shape), "Rank": rule(_rank),
    "sequence_len": rule(_seq_len), "tuple_len": rule(_seq_len), "list_len": rule(_seq_len),
    "ScalarToTensor": rule(_scalar_to_tensor), "TensorToScalar": rule(_tensor_to_scalar),
    "ScalarCast": rule(_scalar_cast), "TupleToTensor": rule(_tuple_to_tensor), "ListToTensor": rule(_tuple_to_tensor),
    "TensorToTuple": rule(_tensor_to_tuple), "TensorToList": rule(_tensor_to_tuple),
    # math
    "Add": _binary(ops.Add), "Sub": _binary(ops.Sub), "Mul": _binary(ops.Mul), "Div": _binary(ops.Div),
    "RealDiv": _binary(ops.RealDiv), "Maximum": _binary(ops.Maximum), "Minimum": _binary(ops.Minimum),
    "Pow": _binary(ops.Pow), "FloorDiv": _binary(ops.FloorDiv), "FloorMod": _binary(ops.FloorMod),
    "Mod": _binary(ops.Mod), "SquaredDifference": _binary(ops.SquaredDifference), "Atan2": _binary(ops.Atan2),
    "DivNoNan": _binary(ops.DivNoNan), "Xlogy": _binary(ops.Xlogy),
    "Equal": _binary(ops.Equal), "NotEqual": _binary(ops.NotEqual), "Less": _binary(ops.Less),
    "LessEqual": _binary(ops.LessEqual), "Greater": _binary(ops.Greater), "GreaterEqual": _binary(ops.GreaterEqual),
    "LogicalAnd": _binary(ops.LogicalAnd), "LogicalOr": _binary(ops.LogicalOr), "LogicalXor": _binary(ops.LogicalXor),
    "BitwiseAnd": _binary(ops.BitwiseAnd), "BitwiseOr": _binary(ops.BitwiseOr), "BitwiseXor": _binary(ops.BitwiseXor),
    "Gcd": _binary(ops.Gcd), "Lcm": _binary(ops.Lcm), "Hypot": _binary(ops.Hypot), "Heaviside": _binary(ops.Heaviside),
    "TruncateDiv": _binary(ops.TruncateDiv), "TruncateMod": _binary(ops.TruncateMod),
    "Muls": rule(_muls), "Divs": _binary(ops.Div), "AddExt": rule(_add_ext), "SubExt": rule(_sub_ext), "AddScalar": rule(_add_ext),
    "SubScalar": rule(_sub_ext), "DivMod": rule(_div_mod),
    "Neg": _unary(ops.Neg), "Abs": _unary(ops.Abs), "Exp": _unary(ops.Exp), "Log": _unary(ops.Log),
    "Log1p": _unary(ops.Log1p), "Expm1": _unary(ops.Expm1), "Sqrt": _unary(ops.Sqrt), "Rsqrt": _unary(ops.Rsqrt),
    "Square": _unary(ops.Square), "Reciprocal": _unary(ops.Reciprocal), "Sin": _unary(ops.Sin),
    "Cos": _unary(ops.Cos), "Tan": _unary(ops.Tan), "Asin": _unary(ops.Asin), "ACos": _unary(ops.ACos),
    "Atan": _unary(ops.Atan), "Sinh": _unary(ops.Sinh), "Cosh": _unary(ops.Cosh), "Tanh": _unary(ops.Tanh),
    "Asinh": _unary(ops.Asinh), "Acosh": _unary(ops.Acosh), "Atanh": _unary(ops.Atanh), "Erf": _unary(ops.Erf),
    "Erfc": _unary(ops.Erfc), "Floor": _unary(ops.Floor), "Ceil": _unary(ops.Ceil), "Trunc": _unary(ops.Trunc),
    "Sign": _unary(ops.Sign), "LogicalNot": _unary(ops.LogicalNot), "IsNan": _unary(ops.IsNan),
    "IsInf": _unary(ops.IsInf), "IsFinite": _unary(ops.IsFinite), "Identity": _unary(ops.Identity),
    "Erfinv": _unary(ops.Erfinv), "Sinc": _unary(ops.Sinc), "Invert": _unary(ops.Invert),
    "Addcdiv": rule(_addcdiv), "Addcmul": rule(_addcmul), "Lerp": rule(_lerp), "IsClose": rule(_is_close),
    "NanToNum": rule(_nan_to_num), "Round": rule(_round), "Einsum": rule(_einsum),
    "Cast": rule(_cast), "Select": rule(_select), "ClampScalar": rule(_clamp_scalar),
    "ClampTensor": rule(_clamp_scalar), "AddN": rule(_add_n),
    "MatMul": rule(_matmul), "BatchMatMul": rule(_batch_matmul), "MatMulExt": rule(_matmul_ext),
    "BatchMatMulExt": rule(_bmm_ext), "Dense": rule(_dense),
    # arrays
    "Reshape": rule(_reshape), "Transpose": rule(_transpose), "Flatten": rule(_flatten),
    "ExpandDims": rule(_expand_dims), "Squeeze": rule(_squeeze), "Concat": rule(_concat), "Stack": rule(_stack),
    "Split": rule(_split), "Gather": rule(_gather), "GatherD": rule(_gather_d), "StridedSlice": rule(_strided_slice),
    "Slice": rule(_slice), "Tile": rule(_tile), "BroadcastTo": rule(_broadcast_to), "Zeros": rule(_zeros),
    "Ones": rule(_ones), "ZerosLike": rule(_zeros_like), "OnesLike": rule(_ones_like), "FillV2": rule(_fill_v2),
    "Fill": rule(_fill), "Range": rule(_range), "OneHot": rule(_one_hot), "ReverseV2": rule(_reverse_v2),
    "TensorScatterUpdate": rule(_tensor_scatter_update), "MaskedFill": rule(_masked_fill), "Eye": rule(_eye),
    "Argmax": rule(_argmax), "Argmin": rule(_argmin), "ArgMaxWithValue": rule(_arg_max_with_value),
    "ArgMinWithValue": rule(_arg_min_with_value), "TopK": rule(_top_k), "Sort": rule(_sort),
    "CumSum": rule(_cum_sum), "Tril": rule(_tril), "Triu": rule(_triu),
    "CumProd": rule(_cum_prod), "Cummax": rule(_cummax), "Cummin": rule(_cummin),
    "SplitWithSize": rule(_split_with_size), "Unstack": rule(_unstack), "Meshgrid": rule(_meshgrid),
    "Pad": rule(_pad), "PadV3": rule(_pad_v3), "GatherNd": rule(_gather_nd), "ScatterNd": rule(_scatter_nd),
    "TensorScatterAdd": rule(_tensor_scatter_add), "TensorScatterElements": rule(_tensor_scatter_elements),
    "MaskedSelect": rule(_masked_select), "NonZero": _unary(ops.NonZero), "Unique": _unary(ops.Unique),
    # reductions
    "ReduceMean": _reduce(ops.ReduceMean), "ReduceMax": _reduce(ops.ReduceMax), "ReduceMin": _reduce(ops.ReduceMin),
    "ReduceProd": _reduce(ops.ReduceProd), "ReduceAll": _reduce(ops.ReduceAll), "ReduceAny": _reduce(ops.ReduceAny),
    "ReduceSum": rule(_reduce_sum), "SumExt": rule(_sum_ext), "MeanExt": rule(_mean_ext),
    "ProdExt": rule(_prod_ext), "ReduceStd": rule(_reduce_std), "LpNorm": rule(_lp_norm),
    "L2Loss": _unary(ops.L2Loss),
}
RULES.update({name: _scalar(fn, name) for name, fn in _SCALAR.items()})
RULES.update({name: _scalar_unary(fn, name) for name, fn in _SCALAR_UNARY.items()})
RULES.update({snake: RULES[camel] for snake, camel in _SNAKE.items()})
