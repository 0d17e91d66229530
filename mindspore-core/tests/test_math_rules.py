"""Rules of the math family: MindSpore 2.10's dtype promotion (API.md 5.1), error messages, and
gradients that the table-driven conformance suite does not reach (higher order, scalar operands).
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops
from mindspore._errors import MindSporeError


def t(values, dtype):
    return Tensor(np.array(values), dtype)


# --- promotion with Python scalars (API.md 5.1) ---------------------------------------------
@pytest.mark.parametrize("dtype,scalar,expected", [
    (ms.int32, 1, ms.int32),
    (ms.int32, 1.5, ms.float32),
    (ms.float16, 1.5, ms.float16),
    (ms.int64, 2.0, ms.float32),
    (ms.bool_, 1, ms.int64),
    (ms.uint8, 1, ms.uint8),
    (ms.float64, 2, ms.float64),
    (ms.int8, True, ms.int8),
])
def test_scalar_never_widens_within_category(dtype, scalar, expected):
    x = t([1, 0, 1], dtype)
    for out in (x + scalar, scalar + x, x * scalar, scalar * x, x - scalar, ops.maximum(x, scalar)):
        assert out.dtype == expected


def test_scalar_promotion_values():
    np.testing.assert_array_equal((t([1, 2], ms.int32) + 1.5).asnumpy(), np.array([2.5, 3.5], np.float32))
    np.testing.assert_array_equal((t([True, False], ms.bool_) + 1).asnumpy(), np.array([2, 1]))
    h = t([1.0, 2.0], ms.float16) + 1.5
    assert h.asnumpy().dtype == np.float16
    np.testing.assert_array_equal(h.asnumpy(), np.array([2.5, 3.5], np.float16))


# --- promotion between tensors --------------------------------------------------------------
@pytest.mark.parametrize("a,b,expected", [
    (ms.float16, ms.float32, ms.float32),
    (ms.int32, ms.int64, ms.int64),
    (ms.int32, ms.float16, ms.float16),
    (ms.int64, ms.float16, ms.float16),
    (ms.bool_, ms.bool_, ms.bool_),
    (ms.bool_, ms.int8, ms.int8),
    (ms.uint8, ms.int8, ms.int16),
    (ms.float32, ms.float64, ms.float64),
])
def test_tensor_promotion(a, b, expected):
    x, y = t([1, 0], a), t([1, 1], b)
    assert (x + y).dtype == expected
    assert (y + x).dtype == expected
    assert ops.mul(x, y).dtype == expected


def test_int32_plus_float16_computes_in_float16():
    out = t([1, 2049], ms.int32) + t([0.5, 0.0], ms.float16)
    assert out.dtype == ms.float16
    # 2049 is not a float16: computed in float16 (as MindSpore), not in float32 then rounded
    np.testing.assert_array_equal(out.asnumpy(), np.array([1.5, 2048.0], np.float16))


def test_bool_plus_bool_is_logical_or():
    a, b = Tensor([True, False]), Tensor([True, False])
    out = a + b
    assert out.dtype == ms.bool_
    np.testing.assert_array_equal(out.asnumpy(), [True, False])
    np.testing.assert_array_equal((Tensor([True, False]) + Tensor([False, False])).asnumpy(), [True, False])
    np.testing.assert_array_equal((Tensor([True, True]) * Tensor([True, False])).asnumpy(), [True, False])


def test_division_dtypes():
    a, b = t([7, -7], ms.int32), t([2, 2], ms.int32)
    q = a / b
    assert q.dtype == ms.float32
    np.testing.assert_array_equal(q.asnumpy(), np.array([3.5, -3.5], np.float32))
    f = a // b
    assert f.dtype == ms.int32
    np.testing.assert_array_equal(f.asnumpy(), [3, -4])
    m = a % b
    assert m.dtype == ms.int32
    np.testing.assert_array_equal(m.asnumpy(), [1, 1])
    assert ops.div(a, b, rounding_mode="trunc").dtype == ms.int32
    assert ops.div(t([1.0], ms.float16), 2).dtype == ms.float16
    assert ops.DivNoNan()(a, b).dtype == ms.float32


@pytest.mark.parametrize("op", [ops.equal, ops.not_equal, ops.greater, ops.greater_equal, ops.less, ops.less_equal,
                                ops.logical_and, ops.logical_or, ops.logical_xor])
def test_comparisons_and_logic_return_bool(op):
    out = op(t([1, 2, 3], ms.int32), t([2.0, 2.0, 2.0], ms.float16))
    assert out.dtype == ms.bool_
    # (the logical ops take a bool, not an int, as in 2.10: tests/ops/test_number_first_refusals.py)
    number = True if op in (ops.logical_and, ops.logical_or, ops.logical_xor) else 2
    assert op(t([1, 2, 3], ms.int32), number).dtype == ms.bool_


def test_float_functions_of_integers_give_float32():
    x = t([1, 4], ms.int32)
    for op in (ops.sqrt, ops.exp, ops.log, ops.sin, ops.tanh, ops.erf, ops.reciprocal, ops.rsqrt):
        assert op(x).dtype == ms.float32
    for op in (ops.abs, ops.neg, ops.square, ops.floor, ops.ceil, ops.round, ops.sign):
        assert op(x).dtype == ms.int32
    assert ops.sqrt(t([4.0], ms.float16)).dtype == ms.float16


def test_operators_use_the_functional_ops():
    x = t([3, -3], ms.int32)
    np.testing.assert_array_equal((x ** 2).asnumpy(), [9, 9])
    np.testing.assert_array_equal((2 ** t([1.0, 3.0], ms.float32)).asnumpy(), [2.0, 8.0])
    np.testing.assert_array_equal((-x).asnumpy(), [-3, 3])
    np.testing.assert_array_equal(abs(x).asnumpy(), [3, 3])
    np.testing.assert_array_equal((~t([0, 5], ms.int8)).asnumpy(), [-1, -6])
    np.testing.assert_array_equal((t([6], ms.int32) & t([3], ms.int32)).asnumpy(), [2])
    np.testing.assert_array_equal((x == -3).asnumpy(), [False, True])
    np.testing.assert_array_equal((1 < x).asnumpy(), [True, False])


def test_clamp_keeps_input_dtype_and_min_above_max():
    x = t([1, 5, 9], ms.int32)
    assert ops.clip_by_value(x, 2.5, 6.5).dtype == ms.int32
    out = ops.clamp(x, 2.5, 6.5)  # MindSpore 2.10: clamp promotes with a float bound
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [2.5, 5.0, 6.5])
    out = ops.clip_by_value(t([0.0, 2.0], ms.float32), 1.0, 0.5)
    np.testing.assert_array_equal(out.asnumpy(), [0.5, 0.5])
    outs = ops.clip_by_value([t([3.0], ms.float32), t([-3.0], ms.float32)], -1.0, 1.0)
    assert isinstance(outs, list) and [o.asnumpy()[0] for o in outs] == [1.0, -1.0]


def test_cumsum_keeps_small_integer_dtype():
    out = ops.cumsum(t([1, 2, 3], ms.int8), 0)
    assert out.dtype == ms.int8
    np.testing.assert_array_equal(out.asnumpy(), [1, 3, 6])


# --- error messages -------------------------------------------------------------------------
def _raises(exc, match, fn, *args, **kwargs):
    with pytest.raises(exc, match=match) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, MindSporeError), f"not a framework error: {type(info.value)}"
    return str(info.value)


def test_matmul_inner_dimension_message():
    a, b = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 5), np.float32))
    msg = _raises(ValueError, r"For 'MatMul', the input dimensions must be equal, but got 'x1_col': 3 and "
                              r"'x2_row': 4\.", ops.MatMul(), a, b)
    assert "(2, 3)" in msg and "(4, 5)" in msg
    _raises(ValueError, r"For 'MatMul', .*'x1_col': 2 and 'x2_row': 4", ops.MatMul(transpose_a=True), a, b)
    _raises(ValueError, r"For 'MatMul', the input dimensions must be equal", lambda: a @ b)


def test_matmul_rank_and_dtype_errors():
    a = Tensor(np.ones((2, 3, 4), np.float32))
    _raises(ValueError, r"For 'MatMul', the 'x' must be a 2-D tensor", ops.MatMul(), a, a)
    _raises(TypeError, r"For 'MatMul', the type of 'y' should be same as 'x'", ops.MatMul(),
            Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float16)))
    _raises(TypeError, r"For 'MatMul', the 'transpose_a' must be a bool", ops.MatMul, 1)
    _raises(ValueError, r"For 'BatchMatMul', the input dimensions must be equal, but got 'x1_col': 4 and "
                        r"'x2_row': 3", ops.BatchMatMul(), a, a)
    _raises(ValueError, r"For 'BatchMatMul', x.shape and y.shape need to broadcast", ops.BatchMatMul(),
            Tensor(np.ones((2, 3, 4), np.float32)), Tensor(np.ones((3, 4, 5), np.float32)))
    _raises(ValueError, r"For 'matmul', the inputs must be at least 1-D", ops.matmul, Tensor(1.0), a)
    _raises(ValueError, r"For 'mm', the 'input' must be a 2-D tensor", ops.mm, a, a)


def test_broadcast_and_operand_errors():
    a, b = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4,), np.float32))
    _raises(ValueError, r"For 'Add', x.shape and y.shape need to broadcast", ops.add, a, b)
    _raises(ValueError, r"For 'Maximum', x.shape and y.shape need to broadcast", ops.maximum, a, b)
    _raises(TypeError, r"For 'Add', the input 'y' must be a Tensor, int, float or bool, but got str", ops.add, a, "1")
    _raises(TypeError, r"For 'Mul', the input 'x' must be a Tensor, int, float or bool, but got NoneType",
            ops.mul, None, a)
    _raises(TypeError, r"For 'Exp', the input 'x' must be a Tensor, but got float", ops.exp, 1.0)


def test_dtype_errors():
    f, i = Tensor(np.ones((2,), np.float32)), t([1, 2], ms.int32)
    _raises(TypeError, r"For 'BitwiseAnd', the type of the inputs must be in", ops.bitwise_and, f, i)
    _raises(TypeError, r"For 'Invert', the type of 'x' must be in", ops.bitwise_not, f)
    _raises(TypeError, r"For 'Sub', the type of the inputs must be in", ops.sub, Tensor([True]), Tensor([False]))
    _raises(TypeError, r"For 'Neg', the type of 'x' must be in", ops.neg, Tensor([True]))
    _raises(TypeError, r"For 'Lerp'", ops.lerp, i, i, 0.5)
    _raises(TypeError, r"For 'AddN', the inputs must have the same dtype", ops.addn, [f, ops.cast(f, ms.float16)])
    assert ops.positive(Tensor([True])).dtype == ms.bool_   # MindSpore 2.10 returns a bool tensor as it is
    _raises(TypeError, r"For 'Gcd', the type of the inputs must be in", ops.gcd, f, i)
    _raises(TypeError, r"For 'IsClose', the 'rtol' must be a float", ops.isclose, f, f, rtol="big")


def test_value_errors():
    x = Tensor(np.ones((2, 3), np.float32))
    _raises(ValueError, r"For 'div', 'rounding_mode' must be None, 'floor' or 'trunc', but got 'round'",
            ops.div, x, 2, rounding_mode="round")
    _raises(ValueError, r"For 'clamp', at least one of 'min' and 'max' must not be None", ops.clamp, x)
    _raises(ValueError, r"For 'CumSum', the 'axis' must be in range \[-2, 2\), but got 2", ops.cumsum, x, 2)
    _raises(TypeError, r"For 'CumSum', the 'axis' must be an int", ops.cumsum, x, 0.5)
    _raises(ValueError, r"For 'AddN', the inputs must have the same shape", ops.addn, [x, ops.reshape(x, (3, 2))])
    _raises(TypeError, r"For 'AddN', the input 'x' must be a non-empty tuple", ops.AddN(), ())
    _raises(TypeError, r"For 'Round', the 'decimals' must be an int", ops.Round(), x, 1.5)


def test_einsum_errors():
    a, b = Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 5), np.float32))
    _raises(ValueError, r"For 'Einsum', the subscript 'j' indexes dimensions of different sizes 3 and 4",
            ops.einsum, "ij,jk->ik", a, b)
    _raises(ValueError, r"For 'Einsum', the number of operands in 'equation' must be equal", ops.einsum, "ij->i", a, b)
    _raises(ValueError, r"must match the rank", ops.einsum, "ijk->i", a)
    _raises(ValueError, r"output subscripts of 'equation' must be distinct and appear", ops.einsum, "ij->iz", a)
    _raises(ValueError, r"repeated subscript 'i'", ops.einsum, "ii->i", a)
    _raises(ValueError, r"letters or '...'", ops.einsum, "i1->i", a)
    _raises(TypeError, r"For 'Einsum', the 'equation' must be a str", ops.Einsum, 3)


# --- gradients the conformance table does not cover ---------------------------------------
def test_second_order_gradients():
    x = Tensor(np.array([0.3, -1.2, 2.0]))
    d2 = ms.grad(ms.grad(lambda v: ops.reduce_sum(ops.sin(v))))(x)
    np.testing.assert_allclose(d2.asnumpy(), -np.sin(x.asnumpy()), rtol=1e-12)
    d2 = ms.grad(ms.grad(lambda v: ops.reduce_sum(v ** 3)))(x)
    np.testing.assert_allclose(d2.asnumpy(), 6 * x.asnumpy(), rtol=1e-12)
    d2 = ms.grad(ms.grad(lambda v: ops.reduce_sum(ops.tanh(v))))(x)
    th = np.tanh(x.asnumpy())
    np.testing.assert_allclose(d2.asnumpy(), -2 * th * (1 - th ** 2), rtol=1e-12)
    d2 = ms.grad(ms.grad(lambda v: ops.reduce_sum(ops.sqrt(ops.exp(v)))))(x)
    np.testing.assert_allclose(d2.asnumpy(), 0.25 * np.exp(x.asnumpy() / 2), rtol=1e-12)


def test_second_order_matmul_and_einsum():
    rng = np.random.default_rng(0)
    a, b = Tensor(rng.normal(size=(2, 3))), Tensor(rng.normal(size=(3, 2)))

    def f(x):  # sum((x @ b) ** 2): d2/dx2 applied to ones is 2 * ones @ (b b^T)
        return ops.reduce_sum(ops.square(ops.matmul(x, b)))

    d2 = ms.grad(lambda x: ops.reduce_sum(ms.grad(f)(x)))(a)
    bn = b.asnumpy()
    np.testing.assert_allclose(d2.asnumpy(), 2 * np.ones((2, 3)) @ (bn @ bn.T), rtol=1e-12)

    def g(x):
        return ops.reduce_sum(ops.square(ops.einsum("ij,jk->ik", x, b)))

    d2 = ms.grad(lambda x: ops.reduce_sum(ms.grad(g)(x)))(a)
    np.testing.assert_allclose(d2.asnumpy(), 2 * np.ones((2, 3)) @ (bn @ bn.T), rtol=1e-12)


def test_gradient_with_scalar_operands_and_int_inputs():
    x = Tensor(np.array([1.0, 2.0, 4.0]))
    g = ms.grad(lambda v: ops.reduce_sum(3.0 / v + 2 - v * 0.5))(x)
    np.testing.assert_allclose(g.asnumpy(), -3.0 / x.asnumpy() ** 2 - 0.5)
    g = ms.grad(lambda v: ops.reduce_sum(ops.maximum(v, 2.0)))(x)
    np.testing.assert_array_equal(g.asnumpy(), [0.0, 0.5, 1.0])  # a tie is split in halves, as in MindSpore 2.10
    gi = ms.grad(lambda v: ops.reduce_sum(v * 3))(t([1, 2], ms.int32))
    assert gi.dtype == ms.int32


def test_pow_gradient_wrt_exponent_with_nonpositive_base():
    x, y = Tensor(np.array([-2.0, 0.0, 3.0])), Tensor(np.array([2.0, 2.0, 2.0]))
    gx, gy = ms.grad(lambda a, b: ops.reduce_sum(ops.pow(a, b)), grad_position=(0, 1))(x, y)
    np.testing.assert_allclose(gx.asnumpy(), [-4.0, 0.0, 6.0])
    np.testing.assert_allclose(gy.asnumpy(), [0.0, 0.0, 9.0 * np.log(3.0)])
    assert np.isfinite(gy.asnumpy()).all()


def test_cumprod_exclusive_gradient_matches_finite_differences():
    x = np.array([1.5, 0.5, 2.0, 3.0])
    prim = ops.CumProd(exclusive=True)
    g = ms.grad(lambda v: ops.reduce_sum(prim(v, 0)))(Tensor(x)).asnumpy()
    eps = 1e-6
    num = [(np.sum(np.cumprod(np.r_[1, (x + eps * e)[:-1]])) - np.sum(np.cumprod(np.r_[1, (x - eps * e)[:-1]])))
           / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(g, num, rtol=1e-7)
