"""``ops.CastMany``: several Tensors cast in one operator call (amp's parameter casts), each output and each gradient
exactly what ``Cast`` gives, in both modes and on the session's device."""
import ml_dtypes
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

pytestmark = pytest.mark.both_modes


def _inputs():
    rng = np.random.default_rng(0)
    return (Tensor((rng.standard_normal((64, 80)) * 1e3).astype(np.float32)),   # large enough for the C++ path
            Tensor(rng.standard_normal((3,)).astype(np.float64)),
            Tensor(np.array([[1.5, -2.25]], np.float32)))


@pytest.mark.parametrize("dtypes", [ms.float16, (ms.float16, ms.float32, ms.int32), [ms.bfloat16] * 3])
def test_each_output_is_the_cast_of_its_input(dtypes):
    xs = _inputs()
    got = ops.CastMany()(xs, dtypes)
    wanted = dtypes if isinstance(dtypes, (tuple, list)) else (dtypes,) * 3
    assert isinstance(got, tuple) and len(got) == 3
    for x, y, d in zip(xs, got, wanted):
        expect = ops.cast(x, d)
        assert y.dtype == d and y.shape == x.shape
        a, b = y.asnumpy(), expect.asnumpy()
        view = np.uint16 if a.dtype.itemsize == 2 else a.dtype
        np.testing.assert_array_equal(a.view(view), b.view(view))
    if dtypes == ms.float16:    # NumPy's rounding, checked independently of Cast
        np.testing.assert_array_equal(got[0].asnumpy(), xs[0].asnumpy().astype(np.float16))
    if isinstance(dtypes, list):
        np.testing.assert_array_equal(got[1].asnumpy().view(np.uint16),
                                      xs[1].asnumpy().astype(ml_dtypes.bfloat16).view(np.uint16))


def test_gradients_are_cast_back_to_each_input_dtype():
    xs = _inputs()[:2]

    def f(a, b):
        p, q = ops.CastMany()((a, b), ms.float16)
        return (p * 3).sum() + (q * q).sum()
    ga, gb = ms.grad(f, grad_position=(0, 1))(*xs)
    assert ga.dtype == ms.float32 and gb.dtype == ms.float64
    np.testing.assert_array_equal(ga.asnumpy(), np.full((64, 80), 3, np.float32))
    q = xs[1].asnumpy().astype(np.float16)
    np.testing.assert_array_equal(gb.asnumpy(), (q * np.float16(2)).astype(np.float64))


def test_an_unused_output_gives_a_zero_gradient():
    xs = _inputs()[:2]
    ga, gb = ms.grad(lambda a, b: ops.CastMany()((a, b), ms.float16)[0].sum(), grad_position=(0, 1))(*xs)
    np.testing.assert_array_equal(ga.asnumpy(), np.ones((64, 80), np.float32))
    np.testing.assert_array_equal(gb.asnumpy(), np.zeros(3))


@pytest.mark.parametrize("inputs, dtypes, error, match", [
    ("two", (ms.float16,), ValueError, "one dtype or a tuple of 2 dtypes"),
    ("two", (ms.float16, 3), TypeError, "numeric MindSpore dtype, but got 3 at position 1"),
    ("none", ms.float16, TypeError, "'inputs' must be a tuple or list of Tensors"),
    ("tensor", ms.float16, TypeError, "'inputs' must be a tuple or list of Tensors"),
])
def test_bad_arguments_are_refused(inputs, dtypes, error, match):
    xs = {"two": _inputs()[:2], "none": (), "tensor": _inputs()[0]}[inputs]
    with pytest.raises(error, match=match):
        ops.CastMany()(xs, dtypes)
