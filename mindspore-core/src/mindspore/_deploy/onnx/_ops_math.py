"""ONNX forms of the math family: elementwise arithmetic, comparisons, logic, reductions, matrix products.

Binary arithmetic computes in the node's output dtype (MindSpore's promotion has already happened in
the shape/dtype rules: both operands are cast to it, Python scalars are made constants of it).
Comparisons compare in the operands' common dtype. Opset 17 reductions: ``ReduceSum`` takes its axes
as an input, the others as an attribute. An integer quotient or remainder follows MindSpore's floor
or truncation semantics, composed where ONNX's ``Div``/``Mod`` differ.
"""
from __future__ import annotations

import numpy as np

from mindspore._deploy.onnx._emitter import no_form, np_dtype, onnx_dtype

# --- unary ---------------------------------------------------------------------------------------------
_UNARY = {
    "Neg": "Neg", "Abs": "Abs", "Sqrt": "Sqrt", "Exp": "Exp", "Log": "Log", "Sign": "Sign", "Floor": "Floor",
    "Ceil": "Ceil", "Sin": "Sin", "Cos": "Cos", "Tan": "Tan", "Asin": "Asin", "ACos": "Acos", "Atan": "Atan",
    "Sinh": "Sinh", "Cosh": "Cosh", "Tanh": "Tanh", "Asinh": "Asinh", "Acosh": "Acosh", "Atanh": "Atanh",
    "Erf": "Erf", "Reciprocal": "Reciprocal", "LogicalNot": "Not", "IsNan": "IsNaN", "IsInf": "IsInf",
}


def _unary(op_type):
    def convert(em, node):
        return em.op(op_type, [em.x(node, 1, em.out_dtype(node) if op_type not in _PREDICATES else None)])
    return convert


_PREDICATES = ("IsNaN", "IsInf", "Not")


def _one(em, node):
    return em.scalar(1, em.out_dtype(node))


def _rsqrt(em, node):
    return em.op("Reciprocal", [em.op("Sqrt", [em.x(node, 1, em.out_dtype(node))])])


def _square(em, node):
    x = em.x(node, 1, em.out_dtype(node))
    return em.op("Mul", [x, x])


def _log1p(em, node):
    return em.op("Log", [em.op("Add", [em.x(node, 1, em.out_dtype(node)), _one(em, node)])])


def _expm1(em, node):
    return em.op("Sub", [em.op("Exp", [em.x(node, 1, em.out_dtype(node))]), _one(em, node)])


def _erfc(em, node):
    return em.op("Sub", [_one(em, node), em.op("Erf", [em.x(node, 1, em.out_dtype(node))])])


def _trunc_of(em, x, dtype):
    zero = em.scalar(0, dtype)
    return em.op("Where", [em.op("Less", [x, zero]), em.op("Ceil", [x]), em.op("Floor", [x])])


def _trunc(em, node):
    dtype = em.out_dtype(node)
    x = em.x(node, 1, dtype)
    return _trunc_of(em, x, dtype) if np_dtype(dtype).kind == "f" else em.op("Identity", [x])


def _round(em, node):
    dtype = em.out_dtype(node)
    x = em.x(node, 1, dtype)
    decimals = int(em.cap.arg(node, 2)) if len(node.inputs) > 2 else 0
    if np_dtype(dtype).kind != "f":
        return em.op("Identity", [x])
    if decimals == 0:
        return em.op("Round", [x])
    scale = em.scalar(10.0 ** decimals, dtype)
    return em.op("Div", [em.op("Round", [em.op("Mul", [x, scale])]), scale])


def _is_finite(em, node):
    x = em.x(node, 1)
    return em.op("Not", [em.op("Or", [em.op("IsNaN", [x]), em.op("IsInf", [x])])])


# --- binary --------------------------------------------------------------------------------------------
_ARITH = {"Add": "Add", "Sub": "Sub", "Mul": "Mul", "RealDiv": "Div", "Div": "Div", "Maximum": "Max",
          "Minimum": "Min"}


def _arith(op_type):
    def convert(em, node):
        dtype = em.out_dtype(node)
        return em.op(op_type, [em.x(node, 1, dtype), em.x(node, 2, dtype)])
    return convert


def _pow(em, node):
    dtype = em.out_dtype(node)
    return em.op("Pow", [em.x(node, 1, dtype), em.x(node, 2, dtype)])


def _squared_difference(em, node):
    d = _arith("Sub")(em, node)
    return em.op("Mul", [d, d])


def _operands(em, node):
    dtype = em.out_dtype(node)
    return dtype, em.x(node, 1, dtype), em.x(node, 2, dtype)


def _floor_div(em, node):
    dtype, a, b = _operands(em, node)
    if np_dtype(dtype).kind == "f":
        return em.op("Floor", [em.op("Div", [a, b])])
    # a - floor_mod(a, b) is an exact multiple of b, so ONNX's truncating Div gives the floor quotient
    return em.op("Div", [em.op("Sub", [a, em.op("Mod", [a, b], fmod=0)]), b])


def _floor_mod(em, node):
    dtype, a, b = _operands(em, node)
    if np_dtype(dtype).kind == "f":
        return em.op("Sub", [a, em.op("Mul", [em.op("Floor", [em.op("Div", [a, b])]), b])])
    return em.op("Mod", [a, b], fmod=0)


def _mod(em, node):
    _, a, b = _operands(em, node)
    return em.op("Mod", [a, b], fmod=1)


def _truncate_div(em, node):
    dtype, a, b = _operands(em, node)
    q = em.op("Div", [a, b])
    return _trunc_of(em, q, dtype) if np_dtype(dtype).kind == "f" else q


def _div_no_nan(em, node):
    dtype, a, b = _operands(em, node)
    zero = em.scalar(0, dtype)
    return em.op("Where", [em.op("Equal", [b, zero]), zero, em.op("Div", [a, b])])


def _common_dtype(em, node, indices):
    dtypes = [em.dtype(node, i) for i in indices]
    known = [np_dtype(d) for d in dtypes if d is not None]
    if not known:
        return np.dtype(np.float32)
    return np.result_type(*known) if len(set(known)) > 1 else known[0]


_COMPARE = {"Equal": "Equal", "Greater": "Greater", "GreaterEqual": "GreaterOrEqual", "Less": "Less",
            "LessEqual": "LessOrEqual"}


def _compare(op_type, negate=False):
    def convert(em, node):
        dtype = _common_dtype(em, node, (1, 2))
        out = em.op(op_type, [em.x(node, 1, dtype), em.x(node, 2, dtype)])
        return em.op("Not", [out]) if negate else out
    return convert


def _logical(op_type):
    def convert(em, node):
        return em.op(op_type, [em.x(node, 1, np.bool_), em.x(node, 2, np.bool_)])
    return convert


# --- reductions ----------------------------------------------------------------------------------------
def _axes(em, node, rank):
    axis = em.cap.arg(node, 2)
    if axis is None or axis == () or axis == []:
        return None
    axes = [axis] if isinstance(axis, int) else list(axis)
    return [int(a) % rank if rank else int(a) for a in axes]


def _reduce(op_type):
    def convert(em, node):
        keep = int(bool(em.cap.attr(node, "keep_dims", False)))
        rank = len(em.shape(node.inputs[1]))
        axes = _axes(em, node, rank)
        x = em.x(node, 1)
        if axes is None and op_type == "ReduceSum" and em.cap.attr(node, "skip_mode", False):
            return em.op("Identity", [x])
        kind = np_dtype(em.dtype(node, 1)).kind
        if kind == "b":   # ONNX reduces no bools: all/any/min/max of 0/1 integers
            x = em.op("Cast", [x], to=onnx_dtype(np.int32))
            op = {"ReduceAll": "ReduceMin", "ReduceAny": "ReduceMax", "ReduceMin": "ReduceMin",
                  "ReduceMax": "ReduceMax"}.get(op_type)
            if op is None:
                raise no_form(node, " for bool tensors")
            return em.cast(_reduce_op(em, op, x, axes, keep), np.bool_)
        return _reduce_op(em, op_type, x, axes, keep)
    return convert


def _reduce_op(em, op_type, x, axes, keep):
    if op_type == "ReduceSum":
        return em.op(op_type, [x] + ([em.ints(axes)] if axes is not None else []), keepdims=keep)
    return em.op(op_type, [x], axes=axes, keepdims=keep)


def _lp_norm(em, node):
    axis = em.cap.attr(node, "axis", ())
    rank = len(em.shape(node.inputs[1]))
    axes = [int(a) % rank for a in ([axis] if isinstance(axis, int) else axis)] or list(range(rank))
    keep = int(bool(em.cap.attr(node, "keep_dims", False)))
    p = float(em.cap.attr(node, "p", 2))
    dtype = em.out_dtype(node)
    x = em.x(node, 1, dtype)
    if p in (1.0, 2.0):
        return em.op("ReduceL1" if p == 1.0 else "ReduceL2", [x], axes=axes, keepdims=keep)
    if p == 0.0:
        nonzero = em.cast(em.op("Not", [em.op("Equal", [x, em.scalar(0, dtype)])]), dtype)
        return em.op("ReduceSum", [nonzero, em.ints(axes)], keepdims=keep)
    powered = em.op("Pow", [em.op("Abs", [x]), em.scalar(p, dtype)])
    return em.op("Pow", [em.op("ReduceSum", [powered, em.ints(axes)], keepdims=keep), em.scalar(1.0 / p, dtype)])


def _arg(op_type):
    def convert(em, node):
        axis = int(em.cap.attr(node, "axis", -1))
        idx = em.op(op_type, [em.x(node, 1)], axis=axis, keepdims=0)
        dtype = em.out_dtype(node)
        return idx if np_dtype(dtype) == np.int64 else em.cast(idx, dtype)
    return convert


def _arg_with_value(op_type, reduce_type):
    def convert(em, node):
        axis = int(em.cap.attr(node, "axis", 0))
        keep = int(bool(em.cap.attr(node, "keep_dims", False)))
        x = em.x(node, 1)
        idx = em.op(op_type, [x], axis=axis, keepdims=keep)
        idx_dtype = node.abstract.elements[0].dtype
        if np_dtype(idx_dtype) != np.int64:
            idx = em.cast(idx, idx_dtype)
        return [idx, em.op(reduce_type, [x], axes=[axis], keepdims=keep)]
    return convert


# --- matrix products -----------------------------------------------------------------------------------
def _swap_last(em, x, rank):
    perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    return em.op("Transpose", [x], perm=perm)


def _matmul(em, node):
    ta = bool(em.cap.attr(node, "transpose_a", False))
    tb = bool(em.cap.attr(node, "transpose_b", False))
    dtype = em.out_dtype(node)
    a, b = em.x(node, 1, dtype), em.x(node, 2, dtype)
    bias_add = em.only_user(node, "BiasAdd")
    if (bias_add is not None and bias_add.inputs[1] is node and len(em.shape(node)) == 2
            and np_dtype(dtype) in (np.float32, np.float64)):
        # Dense: MatMul + BiasAdd is one Gemm
        em.vals[id(bias_add)] = em.op("Gemm", [a, b, em.x(bias_add, 2, dtype)], name="Gemm",
                                      transA=int(ta), transB=int(tb))
        return em.vals[id(bias_add)]
    if ta:
        a = _swap_last(em, a, len(em.shape(node.inputs[1])))
    if tb:
        b = _swap_last(em, b, len(em.shape(node.inputs[2])))
    return em.op("MatMul", [a, b])


def _add_n(em, node):
    dtype = em.out_dtype(node)
    xs = em.value(node.inputs[1])
    xs = [em.cast(x, dtype) if np_dtype(em.dtype(node.inputs[1], i + 1) or dtype) != np_dtype(dtype) else x
          for i, x in enumerate(xs)]
    return em.op("Sum", xs) if len(xs) > 1 else em.op("Identity", xs)


def _cumsum(em, node):
    axis = em.cap.arg(node, 2)
    return em.op("CumSum", [em.x(node, 1), em.const(np.asarray(int(axis), np.int64), "axis")],
                 exclusive=int(bool(em.cap.attr(node, "exclusive", False))),
                 reverse=int(bool(em.cap.attr(node, "reverse", False))))


def _einsum(em, node):
    return em.op("Einsum", list(em.value(node.inputs[1])), equation=str(em.cap.attr(node, "equation")))


def _lerp(em, node):
    dtype = em.out_dtype(node)
    start, end, w = em.x(node, 1, dtype), em.x(node, 2, dtype), em.x(node, 3, dtype)
    return em.op("Add", [start, em.op("Mul", [w, em.op("Sub", [end, start])])])


def _addc(op_type):
    def convert(em, node):
        dtype = em.out_dtype(node)
        base, x1, x2, value = (em.x(node, i, dtype) for i in (1, 2, 3, 4))
        return em.op("Add", [base, em.op("Mul", [value, em.op(op_type, [x1, x2])])])
    return convert


def converters():
    table = {name: _unary(op) for name, op in _UNARY.items()}
    table.update({name: _arith(op) for name, op in _ARITH.items()})
    table.update({name: _compare(op) for name, op in _COMPARE.items()})
    table.update({
        "Rsqrt": _rsqrt, "Square": _square, "Log1p": _log1p, "Expm1": _expm1, "Erfc": _erfc, "Trunc": _trunc,
        "Round": _round, "IsFinite": _is_finite, "Pow": _pow, "SquaredDifference": _squared_difference,
        "FloorDiv": _floor_div, "FloorMod": _floor_mod, "Mod": _mod, "TruncateDiv": _truncate_div,
        "DivNoNan": _div_no_nan, "NotEqual": _compare("Equal", negate=True),
        "LogicalAnd": _logical("And"), "LogicalOr": _logical("Or"), "LogicalXor": _logical("Xor"),
        "ReduceSum": _reduce("ReduceSum"), "ReduceMean": _reduce("ReduceMean"), "ReduceMax": _reduce("ReduceMax"),
        "ReduceMin": _reduce("ReduceMin"), "ReduceProd": _reduce("ReduceProd"), "ReduceAll": _reduce("ReduceAll"),
        "ReduceAny": _reduce("ReduceAny"), "Argmax": _arg("ArgMax"), "Argmin": _arg("ArgMin"),
        "ArgMaxWithValue": _arg_with_value("ArgMax", "ReduceMax"),
        "ArgMinWithValue": _arg_with_value("ArgMin", "ReduceMin"),
        "LpNorm": _lp_norm, "MatMul": _matmul, "BatchMatMul": _matmul, "AddN": _add_n, "CumSum": _cumsum,
        "Einsum": _einsum,
        "Lerp": _lerp, "Addcmul": _addc("Mul"), "Addcdiv": _addc("Div"),
    })
    return table
