"""SimNPU kernels of the math family: elementwise arithmetic, comparisons, unary functions, products.

Arithmetic casts its operands to the inferred output dtype first: core has already applied
MindSpore's type promotion (``int32 / int32`` is float32, ``float16 * 2.0`` is float16), so the kernel
only obeys ``out``. Comparisons return bool, so they compute in the dtype MindSpore's promotion gives
the operands (:func:`_comparison_dtype`).
"""
import numpy as np

from mindspore.common import dtype as mstype

from ms_simnpu.kernels._util import compute_dtype, device_array, is_buffer, new_buffer, operand


def _arithmetic(ufunc):
    def kernel(prim, x, y, *, out):
        dt = compute_dtype(out)
        with np.errstate(all="ignore"):   # inf/NaN propagate silently, as on MindSpore's devices
            return new_buffer(ufunc(operand(x, dt), operand(y, dt)), out)
    kernel.__name__ = ufunc.__name__
    return kernel


def _comparison_dtype(x, y):
    """The dtype MindSpore compares ``x`` and ``y`` in: its promotion of two tensors, or of a tensor and a
    Python number (weakly typed: ``int32 > 0.5`` compares in float32, ``float16 > 0.5`` in float16)."""
    if is_buffer(x) != is_buffer(y):
        tensor, number = (x, y) if is_buffer(x) else (y, x)
        return mstype.promote_with_scalar(mstype.to_ms_dtype(tensor.dtype), number).to_numpy()
    a = mstype.to_ms_dtype(x.dtype) if is_buffer(x) else mstype.default_scalar_dtype(x)
    b = mstype.to_ms_dtype(y.dtype) if is_buffer(y) else mstype.default_scalar_dtype(y)
    return mstype.promote_types(a, b).to_numpy()


def _comparison(ufunc):
    def kernel(prim, x, y, *, out):
        dt = _comparison_dtype(x, y)
        return new_buffer(ufunc(operand(x, dt), operand(y, dt)), out)
    kernel.__name__ = ufunc.__name__
    return kernel


def _unary(ufunc):
    def kernel(prim, x, *, out):
        with np.errstate(all="ignore"):
            return new_buffer(ufunc(operand(x, compute_dtype(out))), out)
    kernel.__name__ = ufunc.__name__
    return kernel


def power(prim, x, y, *, out):
    """``x ** y``; integers to negative powers truncate towards zero (``2 ** -1 == 0``) instead of raising."""
    dt = compute_dtype(out)
    base, exponent = operand(x, dt), operand(y, dt)
    with np.errstate(all="ignore"):
        if dt.kind in "iu" and np.any(exponent < 0):
            wide = np.power(base.astype(np.float64), exponent.astype(np.float64))
            return new_buffer(np.trunc(np.nan_to_num(wide)), out)
        return new_buffer(np.power(base, exponent), out)


def matmul(prim, x, y, *, out):
    """``x @ y`` with the primitive's ``transpose_a``/``transpose_b`` (MatMul and BatchMatMul)."""
    dt = compute_dtype(out)
    a, b = device_array(x).astype(dt, copy=False), device_array(y).astype(dt, copy=False)
    if prim.transpose_a:
        a = np.swapaxes(a, -1, -2)
    if prim.transpose_b:
        b = np.swapaxes(b, -1, -2)
    return new_buffer(np.matmul(a, b), out)


def add_n(prim, xs, *, out):
    """The sum of a tuple of buffers (a tuple argument arrives as a tuple of buffers)."""
    dt = compute_dtype(out)
    total = device_array(xs[0]).astype(dt, copy=True)
    for x in xs[1:]:
        total += device_array(x)
    return new_buffer(total, out)


KERNELS = {
    "Add": _arithmetic(np.add),
    "Sub": _arithmetic(np.subtract),
    "Mul": _arithmetic(np.multiply),
    "RealDiv": _arithmetic(np.true_divide),
    "Div": _arithmetic(np.true_divide),
    "Maximum": _arithmetic(np.maximum),
    "Minimum": _arithmetic(np.minimum),
    "Pow": power,
    "Equal": _comparison(np.equal),
    "NotEqual": _comparison(np.not_equal),
    "Greater": _comparison(np.greater),
    "GreaterEqual": _comparison(np.greater_equal),
    "Less": _comparison(np.less),
    "LessEqual": _comparison(np.less_equal),
    "Neg": _unary(np.negative),
    "Abs": _unary(np.abs),
    "Square": _unary(np.square),
    "Sqrt": _unary(np.sqrt),
    "Exp": _unary(np.exp),
    "Log": _unary(np.log),
    "Tanh": _unary(np.tanh),
    "MatMul": matmul,
    "BatchMatMul": matmul,
    "AddN": add_n,
}
