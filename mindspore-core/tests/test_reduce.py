"""Reductions beyond the conformance table: errors, tie rules, zeros in products, higher-order gradients."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops


def _grad(f, x):
    return ms.grad(f)(ms.Tensor(np.asarray(x, np.float64))).asnumpy()


# --- errors -----------------------------------------------------------------------------------
X = ms.Tensor(np.ones((2, 3), np.float32))


@pytest.mark.parametrize("call, exc, text", [
    (lambda: ops.ReduceSum()(X, 2), ValueError, "For 'ReduceSum', the 'axis' must be in range [-2, 2), but got 2"),
    (lambda: ops.ReduceMean(keep_dims=True)(X, (0, -3)), ValueError, "For 'ReduceMean'"),
    (lambda: ops.ReduceMax()(X, (1, -1)), ValueError, "duplicate"),
    (lambda: ops.ReduceMin()(X, 0.5), TypeError, "For 'ReduceMin'"),
    (lambda: ops.ReduceProd(keep_dims=1), TypeError, "'keep_dims' must be a bool"),
    (lambda: ops.ReduceAll()(X, 0), TypeError, "For 'ReduceAll'"),
    (lambda: ops.ReduceSum()(np.ones(3), 0), TypeError, "must be a Tensor"),
    (lambda: ops.Argmax(axis=5)(X), ValueError, "For 'Argmax'"),
    (lambda: ops.Argmax(output_type=ms.float32), TypeError, "output_type"),
    (lambda: ops.ArgMaxWithValue(axis=-3)(X), ValueError, "For 'ArgMaxWithValue'"),
    (lambda: ops.sum(X, 3), ValueError, "range"),
    (lambda: ops.mean(X, axis=[0, 4]), ValueError, "range"),
    (lambda: ops.max(X, 2), ValueError, "range"),
    (lambda: ops.max(X, (0, 1)), TypeError, "'axis' must be an int"),
    (lambda: ops.argmax(X, dim=2), ValueError, "range"),
    (lambda: ops.cummax(X, 2), ValueError, "range"),
    (lambda: ops.median(X, -3), ValueError, "range"),
    (lambda: ops.std(ms.Tensor([1, 2, 3])), TypeError, "Float"),
    (lambda: ops.norm(X, "spectral"), ValueError, "For 'norm'"),
    (lambda: ops.norm(X, dim=(0, 1, 1)), ValueError, "For 'norm'"),
    (lambda: ops.LpNorm(axis=0, p=-1), ValueError, "'p'"),
])
def test_errors_are_mindspore_style(call, exc, text):
    with pytest.raises(exc) as info:
        call()
    assert text in str(info.value)


# --- gradient rules ---------------------------------------------------------------------------
def test_max_min_gradient_splits_ties_equally():
    np.testing.assert_allclose(_grad(lambda x: ops.amax(x), [1.0, 3.0, 3.0]), [0.0, 0.5, 0.5])
    row_min = _grad(lambda x: ops.reduce_sum(ops.ReduceMin()(x, 1)), [[2.0, 2.0, 2.0], [0.0, 1.0, 0.0]])
    np.testing.assert_allclose(row_min, [[1 / 3, 1 / 3, 1 / 3], [0.5, 0.0, 0.5]])


def test_arg_with_value_gradient_goes_to_the_returned_index():
    np.testing.assert_allclose(_grad(lambda x: ops.max(x, 0)[0], [1.0, 3.0, 3.0]), [0.0, 1.0, 0.0])
    np.testing.assert_allclose(_grad(lambda x: ops.reduce_sum(ops.ArgMinWithValue(1)(x)[1]), [[2.0, 1.0, 1.0]]),
                               [[0.0, 1.0, 0.0]])
    np.testing.assert_allclose(_grad(lambda x: ops.reduce_sum(ops.cummax(x, 0)[0]), [1.0, 3.0, 2.0, 3.0]),
                               [1.0, 2.0, 0.0, 1.0])


@pytest.mark.parametrize("x, expected", [
    ([0.0, 2.0, 3.0], [6.0, 0.0, 0.0]),
    ([0.0, 0.0, 3.0], [0.0, 0.0, 0.0]),
    ([1.0, 2.0, 3.0], [6.0, 3.0, 2.0]),
])
def test_prod_gradient_is_exact_with_zeros(x, expected):
    np.testing.assert_allclose(_grad(lambda t: ops.prod(t), x), expected)


def test_norm_gradient_at_zero_is_zero():
    # 2.10's default norm is Sqrt(ReduceSum(Square)), whose gradient at zero is 0/0 (NaN in 2.10): ours is 0, as
    # ord=2 (LpNorm) gives there; the values elsewhere keep 2.10's composition
    assert np.array_equal(_grad(lambda x: ops.norm(x), [0.0, 0.0]), [0.0, 0.0])
    assert np.array_equal(_grad(lambda x: ops.norm(x, 2, dim=0), [0.0, 0.0]), [0.0, 0.0])
    np.testing.assert_allclose(_grad(lambda x: ops.norm(x), [3.0, 4.0]), [0.6, 0.8], rtol=1e-6)


def _numeric_second(f, x, eps=1e-4):
    """Finite-difference Hessian-vector with ones: d/dx sum(df/dx)."""
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    g = ms.grad(f)
    for idx in np.ndindex(x.shape):
        p, m = x.copy(), x.copy()
        p[idx] += eps
        m[idx] -= eps
        out[idx] = (g(ms.Tensor(p)).asnumpy().sum() - g(ms.Tensor(m)).asnumpy().sum()) / (2 * eps)
    return out


@pytest.mark.parametrize("f", [
    lambda x: ops.reduce_sum(ops.prod(x, 1)),
    lambda x: ops.reduce_sum(ops.ReduceMean()(x * x, 0)),
    lambda x: ops.reduce_sum(ops.std(x, 1)),
    lambda x: ops.reduce_sum(ops.LpNorm(axis=1)(x)),
    lambda x: ops.reduce_sum(ops.max(x * x, 1)[0]),
    lambda x: ops.reduce_sum(ops.amax(x * x, 0)),
    lambda x: ops.reduce_sum(ops.logsumexp(x, 1)),
], ids=["prod", "mean", "std", "lpnorm", "max_with_value", "amax", "logsumexp"])
def test_second_order_gradients(f):
    x = np.array([[0.5, -1.25, 2.0], [1.5, 0.75, -0.5]])

    def first(t):
        return ops.reduce_sum(ms.grad(f)(t))

    analytic = ms.grad(first)(ms.Tensor(x)).asnumpy()
    np.testing.assert_allclose(analytic, _numeric_second(f, x), rtol=1e-4, atol=1e-5)


# --- values -----------------------------------------------------------------------------------
def test_functional_forms_and_dtypes():
    x = ms.Tensor(np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 6.0]], np.float32))
    values, index = ops.max(x)
    assert float(values) == 6.0 and int(index) == 0 and index.dtype == ms.int64
    assert ops.argmax(x).dtype == ms.int64 and int(ops.argmax(x)) == 5
    assert ops.argmin(x, 1, keepdims=True).shape == (2, 1)
    assert ops.all(ms.Tensor([1, 2])).dtype == ms.bool_
    assert ops.mean(ms.Tensor([1, 2], ms.int32)).dtype == ms.int32
    assert ops.count_nonzero(x).dtype == ms.int32 and int(ops.count_nonzero(x)) == 5
    med, idx = ops.median(ms.Tensor([4.0, 1.0, 3.0, 2.0]))
    assert float(med) == 2.0 and int(idx) == 3
    np.testing.assert_allclose(ops.std(x, 1, ddof=1).asnumpy(), np.std(x.asnumpy(), 1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(ops.norm(x, 0, dim=1).asnumpy(), [3.0, 2.0])
    np.testing.assert_allclose(ops.norm(x, float("-inf"), dim=0).asnumpy(), [1.0, 0.0, 2.0])
    np.testing.assert_allclose(ops.norm(x, -1, dim=(0, 1)).asnumpy(), 5.0)
