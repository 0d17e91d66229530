"""Tensor indexing: ``x[index]`` and ``x[index] = value`` against NumPy, gradients, errors."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

X = np.arange(60, dtype=np.float64).reshape(3, 4, 5) - 17.5
MASK3 = np.array([True, False, True])
MASK34 = (np.arange(12).reshape(3, 4) % 3) == 1


def _as_ms(index):
    """The same index with its NumPy arrays turned into Tensors."""
    if isinstance(index, tuple):
        return tuple(_as_ms(i) for i in index)
    if isinstance(index, np.ndarray):
        return ms.Tensor(index)
    return index


GETITEM = [
    1, -1, (0, 1), (0, 1, 2), (-1, -4, -5), slice(1, None), slice(None, None, -1), slice(None, None, 2),
    (slice(1, 3), slice(None, None, -2)), (slice(-2, None), 1, slice(4, 0, -3)), slice(5, 10), slice(-10, 2),
    None, (None, 0), (Ellipsis, 1), (0, Ellipsis), (Ellipsis, None), (1, None, slice(1, 3), Ellipsis),
    Ellipsis, (), (slice(None),), (Ellipsis, slice(None), None, 2),
    [0, 2], [-1, 0, -1], [], np.array([[0, 1], [2, 0]]), ([0, 2], [1, 3]), ([0, 2], slice(None), [1, 3]),
    (slice(None), [0, 2], [1, 3]), (0, slice(None), [1, 2]), (Ellipsis, [0, -1]), ([[0], [2]], [1, 3]),
    (None, [0, 1]), (slice(None), None, [0, 3], 1), (1, [0, 3], slice(None, None, 2)),
    True, False, (0, True), (True, slice(1, 2)),
    MASK3, (MASK3, slice(None, 2)), MASK34, (slice(None), np.array([True, False, False, True])),
    (MASK34, [1, 2, 0, 4]), (Ellipsis, np.array([False, True, True, False, True])),
    np.int64(2), (np.int32(1), np.array([0, 3], np.int32)), np.array([2], np.uint8),
]


@pytest.mark.parametrize("index", GETITEM, ids=[repr(i)[:40] for i in GETITEM])
def test_getitem_matches_numpy(index):
    expected = X[index]
    got = ms.Tensor(X)[_as_ms(index)]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.asnumpy(), expected)


@pytest.mark.parametrize("index", GETITEM, ids=[repr(i)[:40] for i in GETITEM])
def test_getitem_gradient(index):
    w = np.random.default_rng(0).uniform(0.5, 1.5, X[index].shape)

    def f(x):
        return ops.reduce_sum(x[_as_ms(index)] * ms.Tensor(w))

    got = ms.grad(f)(ms.Tensor(X)).asnumpy()
    positions = np.arange(X.size).reshape(X.shape)[index]
    expected = np.bincount(positions.ravel(), weights=w.ravel(), minlength=X.size).reshape(X.shape)
    np.testing.assert_allclose(got, expected)


def test_getitem_with_tensor_indices_and_zero_d_tensor_index():
    x = ms.Tensor(X)
    np.testing.assert_array_equal(x[ms.Tensor(1)].asnumpy(), X[1])
    np.testing.assert_array_equal(x[ms.Tensor([2, 0], ms.int32), 1].asnumpy(), X[[2, 0], 1])
    np.testing.assert_array_equal(x[ms.Tensor(True)].asnumpy(), X[np.True_])
    np.testing.assert_array_equal(x[ms.Tensor(False)].asnumpy(), X[np.False_])
    np.testing.assert_array_equal(x[ms.Tensor(1):].asnumpy(), X[1:])


def test_getitem_of_0d_and_1d():
    s = ms.Tensor(3.5)
    assert s[()].asnumpy() == 3.5 and s[...].shape == () and s[None].shape == (1,)
    v = ms.Tensor(np.arange(6))
    assert v[-2].asnumpy() == 4 and v[-2].dtype == ms.int64
    np.testing.assert_array_equal(v[::-2].asnumpy(), np.arange(6)[::-2])


def test_getitem_result_is_a_view_of_the_input():
    # MindSpore 2.10's PYNATIVE basic indexing aliases (more in test_views.py); an int-tensor index copies
    x = ms.Tensor(np.zeros((2, 3), np.float32))
    y, z = x[0], x[ms.Tensor([0])]
    x[0] = 7.0
    np.testing.assert_array_equal(y.asnumpy(), np.full(3, 7.0))
    np.testing.assert_array_equal(z.asnumpy(), np.zeros((1, 3)))


def test_gradient_of_strided_slice_sum():
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    g = ms.grad(lambda t: ops.reduce_sum(t[1:, ::2]))(x)
    expected = np.zeros((3, 4), np.float32)
    expected[1:, ::2] = 1
    np.testing.assert_array_equal(g.asnumpy(), expected)


def test_second_order_gradient_through_getitem():
    x = ms.Tensor(np.array([1.0, 2.0, 3.0]))

    def f(t):
        y = t[[0, 2, 2]]
        return ops.reduce_sum(y * y * y)

    gg = ms.grad(lambda t: ops.reduce_sum(ms.grad(f)(t)))(x)
    np.testing.assert_allclose(gg.asnumpy(), [6.0, 0.0, 36.0])


@pytest.mark.parametrize("index,exc,message", [
    (5, IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
    ((0, -5), IndexError, "index -5 is out of bounds for dimension 1 with size 4"),
    ((0, 0, 0, 0), IndexError, "too many indices"),
    ((Ellipsis, 0, Ellipsis), IndexError, "single ellipsis"),
    (1.5, TypeError, "float"),
    ("a", TypeError, "str"),
    (np.array([True, False]), IndexError, "boolean index did not match"),
    (([0, 1], [0, 1, 2]), IndexError, "could not be broadcast"),
    (slice(None, None, 0), ValueError, "step cannot be zero"),
    (np.array([0.5]), TypeError, "index"),
])
def test_getitem_errors(index, exc, message):
    with pytest.raises(exc, match=message.replace("(", r"\(").replace(".", r"\.")):
        ms.Tensor(X)[_as_ms(index)]


def test_getitem_tensor_index_out_of_range():
    with pytest.raises(IndexError, match="out of bounds"):
        ms.Tensor(X)[ms.Tensor([0, 3])]


# --- setitem ----------------------------------------------------------------------------------
SETITEM = [
    ((0, 0), 5.0), ((0, 0, 0), -2.0), (1, 3.0), (slice(1, 3), None), ((slice(None), slice(None, None, 2)), None),
    ((Ellipsis, -1), None), ([0, 2], None), (([0, 2], [1, 3]), None), (MASK34, 0.0), (MASK3, None),
    (Ellipsis, 1.0), ((slice(None), None, 1), None), ((slice(None, None, -1), 0), None), ((0, [1, 1]), None),
]


@pytest.mark.parametrize("index,value", SETITEM, ids=[repr(i)[:40] for i, _ in SETITEM])
def test_setitem_matches_numpy(index, value):
    expected = X.copy()
    if value is None:  # a tensor value of the selected shape (broadcast from its last axis when possible)
        shape = expected[index].shape
        value = np.random.default_rng(1).normal(size=shape[-1:] if shape else ())
    expected[index] = value
    x = ms.Tensor(X)
    before = id(x)
    x[_as_ms(index)] = ms.Tensor(value) if isinstance(value, np.ndarray) else value
    assert id(x) == before and x.dtype == ms.float64
    np.testing.assert_array_equal(x.asnumpy(), expected)


def test_setitem_casts_value_to_tensor_dtype():
    x = ms.Tensor(np.zeros((2, 3), np.int32))
    x[0] = 2.7
    x[1, 1:] = ms.Tensor([1.9, -3.2])
    assert x.dtype == ms.int32
    np.testing.assert_array_equal(x.asnumpy(), [[2, 2, 2], [0, 1, -3]])


def test_setitem_with_mask_tensor_and_tensor_value():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = ms.Tensor(a)
    mask = ms.Tensor(a > 2.5)
    x[mask] = ms.Tensor([10.0, 20.0, 30.0], ms.float32)
    expected = a.copy()
    expected[a > 2.5] = [10, 20, 30]
    np.testing.assert_array_equal(x.asnumpy(), expected)
    x[mask] = 0
    expected[a > 2.5] = 0
    np.testing.assert_array_equal(x.asnumpy(), expected)


def test_setitem_on_parameter_updates_in_place():
    p = ms.Parameter(ms.Tensor(np.zeros((2, 2), np.float32)), name="p")
    p[1, 0] = 4.0
    assert isinstance(p, ms.Parameter) and p.name == "p"
    np.testing.assert_array_equal(p.asnumpy(), [[0, 0], [4, 0]])


def test_setitem_list_and_numpy_values():
    x = ms.Tensor(np.zeros((2, 3), np.float32))
    x[0] = [1, 2, 3]
    x[1] = np.array([4, 5, 6])
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2, 3], [4, 5, 6]])


def test_setitem_errors():
    x = ms.Tensor(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="could not be broadcast"):
        x[0] = ms.Tensor(np.ones(4, np.float32))
    with pytest.raises(IndexError, match="index 2 is out of bounds for dimension 0 with size 2"):
        x[2] = 1.0
    with pytest.raises(TypeError):
        x[0] = "a"
