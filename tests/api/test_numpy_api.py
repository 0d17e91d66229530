"""``mindspore.numpy``: the names MindSpore 2.10 exports, defaults, errors, gradients, GRAPH_MODE.

Values against NumPy are in ``test_numpy_values.py``.
"""
import doctest
import math
import os

import numpy as np
import pytest

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import nn

NAMES_FILE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "api", "numpy_names.txt")


def _names():
    with open(NAMES_FILE, encoding="utf-8") as fh:
        return [line.strip() for line in fh if line.strip()]


def test_every_mindspore_numpy_name_exists():
    names = _names()
    assert len(names) == 249
    missing = [n for n in names if not hasattr(mnp, n)]
    assert not missing, f"mindspore.numpy lacks {missing}"
    assert set(names) <= set(mnp.__all__)


@pytest.mark.parametrize("module", [mnp.array_creations, mnp.array_ops, mnp.dtypes, mnp.logic_ops, mnp.math_ops,
                                    mnp._reductions, mnp._linalg, mnp._math_extra], ids=lambda m: m.__name__)
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_dtypes_and_constants():
    assert mnp.float32 is ms.float32 and mnp.int_ is ms.int32 and mnp.float_ is ms.float32
    assert mnp.bool_ is ms.bool_ and mnp.uint8 is ms.uint8 and mnp.float64 is ms.float64
    assert mnp.pi == math.pi and mnp.inf == math.inf and math.isnan(mnp.nan)
    assert mnp.PINF == math.inf and mnp.NINF == -math.inf
    assert mnp.promote_types("int32", "float64") == ms.float64
    assert mnp.promote_types(mnp.int8, mnp.uint8) == ms.int16
    assert mnp.result_type(mnp.array([1, 2]), True) == ms.int32


def test_mindspore_defaults():
    # Python ints are Int32 and floats Float32; NumPy arrays and Tensors keep their dtype
    assert mnp.array([1, 2]).dtype == ms.int32
    assert mnp.array([1.0, 2]).dtype == ms.float32
    assert mnp.array(np.array([1.0, 2.0])).dtype == ms.float64
    assert mnp.arange(3).dtype == ms.int32 and mnp.arange(3.0).dtype == ms.float32
    assert mnp.ones(2).dtype == ms.float32 and mnp.eye(2).dtype == ms.float32
    assert mnp.add(mnp.array(np.array([1.0])), 1.5).dtype == ms.float64
    assert mnp.divide(mnp.arange(3), 2).dtype == ms.float32
    x = ms.Tensor(np.ones(3, np.float32))
    assert mnp.asarray(x) is x
    copied = mnp.array(x)
    assert copied is not x and copied.asnumpy().tolist() == [1.0, 1.0, 1.0]


def test_results_are_tensors_and_dtype_argument_casts():
    out = mnp.add([1, 2], [3, 4], dtype=mnp.float16)
    assert isinstance(out, ms.Tensor) and out.dtype == ms.float16
    assert out.asnumpy().tolist() == [4.0, 6.0]
    assert mnp.equal(mnp.arange(3), 1, dtype=mnp.int32).asnumpy().tolist() == [0, 1, 0]


def test_random_creation_shapes_dtypes_and_ranges():
    r = mnp.rand(2, 3)
    assert r.shape == (2, 3) and r.dtype == ms.float32
    assert ((r.asnumpy() >= 0) & (r.asnumpy() < 1)).all()
    assert mnp.randn((4, 5), dtype=mnp.float64).dtype == ms.float64
    k = mnp.randint(2, 5, (1000,))
    assert k.dtype == ms.int32 and set(np.unique(k.asnumpy())) == {2, 3, 4}
    assert mnp.randint(3).shape == ()
    with pytest.raises(ValueError, match="minval"):
        mnp.randint(5, 2)
    with pytest.raises(TypeError, match="float type"):
        mnp.rand(2, dtype=mnp.int32)


def test_value_dependent_functions_in_pynative():
    # MindSpore's own raise/fail on these inputs (take mode='raise', one-argument where); ours work
    x = mnp.array([1.0, 0.0, 3.0])
    with pytest.raises(ValueError, match=r"For 'take', the indices must be in range \[-3, 3\)"):
        mnp.take(x, mnp.array([0, 3]), mode="raise")
    assert mnp.take(x, mnp.array([-1]), mode="raise").asnumpy().tolist() == [3.0]
    (rows,) = mnp.where(x)
    assert rows.asnumpy().tolist() == [0, 2]
    assert mnp.bincount(mnp.array([0, 2]), length=4).asnumpy().tolist() == [1.0, 0.0, 1.0, 0.0]
    assert mnp.array_str(mnp.array([1, 2])) == "[1 2]"
    assert mnp.size(mnp.ones((2, 3))) == 6


def test_pad_with_a_function():
    def pad_with(vector, pad_width, iaxis, kwargs):
        vector[:pad_width[0]] = kwargs.get("padder", 10)
        vector[vector.shape[0] - pad_width[1]:] = kwargs.get("padder", 10)

    out = mnp.pad(mnp.arange(3), 1, pad_with, padder=7)
    assert out.asnumpy().tolist() == [7, 0, 1, 2, 7]


@pytest.mark.parametrize("call,err,pattern", [
    (lambda: mnp.split(mnp.arange(5), 2), ValueError, "equal division"),
    (lambda: mnp.reshape(mnp.arange(6), (4, -1)), ValueError, "For 'Reshape'"),
    (lambda: mnp.sum(mnp.ones((2, 2)), axis=2), ValueError, r"For 'sum', the 'axis' must be in range \[-2, 2\)"),
    (lambda: mnp.amax(mnp.ones(2), where=mnp.array([True, False])), ValueError, "initial"),
    (lambda: mnp.matmul(mnp.ones((2, 3)), mnp.ones((2, 3))), ValueError, "For 'matmul'"),
    (lambda: mnp.pad(mnp.ones(2), 1, mode="bogus"), ValueError, "For 'pad', the 'mode'"),
    (lambda: mnp.gcd(mnp.ones(2), 2), TypeError, "For 'gcd'"),
    (lambda: mnp.array("abc"), TypeError, "For 'array'"),
    (lambda: mnp.squeeze(mnp.ones((2, 1)), 0), ValueError, "For 'squeeze'"),
    (lambda: mnp.norm(mnp.ones((2, 2)), "nuc"), ValueError, "For 'norm'"),
])
def test_errors_in_mindspore_style(call, err, pattern):
    with pytest.raises(err, match=pattern):
        call()


def _numeric_grad(fn, x, eps=1e-3):
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[idx] += eps
        lo[idx] -= eps
        g[idx] = (fn(hi) - fn(lo)) / (2 * eps)
    return g


@pytest.mark.parametrize("name,mnp_fn,np_fn", [
    ("std_of_cbrt", lambda x: mnp.std(mnp.cbrt(x)), lambda x: np.std(np.cbrt(x))),
    ("logaddexp_sum", lambda x: mnp.sum(mnp.logaddexp(x, mnp.flip(x))),
     lambda x: np.sum(np.logaddexp(x, np.flip(x)))),
    ("interp_and_pad", lambda x: mnp.sum(mnp.pad(x, (2, 1), mode="reflect") ** 2)
     + mnp.sum(mnp.interp(mnp.array([0.5, 2.5]), mnp.arange(4.0), x)),
     lambda x: np.sum(np.pad(x, (2, 1), mode="reflect") ** 2) + np.sum(np.interp([0.5, 2.5], np.arange(4.0), x))),
    ("tensordot_trace", lambda x: mnp.trace(mnp.tensordot(mnp.reshape(x, (2, 2)), mnp.reshape(x, (2, 2)), 1)),
     lambda x: np.trace(np.tensordot(x.reshape(2, 2), x.reshape(2, 2), 1))),
    ("norm_cumsum_convolve", lambda x: mnp.norm(mnp.cumsum(x)) + mnp.sum(mnp.convolve(x, mnp.array([1.0, -2.0]))),
     lambda x: np.linalg.norm(np.cumsum(x)) + np.sum(np.convolve(x, [1.0, -2.0]))),
    ("nanmean_where", lambda x: mnp.nanmean(mnp.where(x > 0.5, x, mnp.nan)),
     lambda x: np.nanmean(np.where(x > 0.5, x, np.nan))),
])
def test_gradients_against_finite_differences(name, mnp_fn, np_fn):
    x = np.array([0.3, 1.2, 2.0, 0.7], np.float32)
    grad = ms.grad(mnp_fn)(ms.Tensor(x))
    np.testing.assert_allclose(grad.asnumpy(), _numeric_grad(np_fn, x), rtol=1e-2, atol=1e-3, err_msg=name)


class _NumpyNet(nn.Cell):
    """A construct written with mindspore.numpy only (shape logic runs at compile time)."""

    def construct(self, x, y):
        z = mnp.concatenate((x, mnp.flip(y, 0)), 1)
        z = mnp.where(z > 0, mnp.sqrt(mnp.abs(z)), mnp.exp(z))
        s = mnp.split(z, 2, axis=1)
        m = mnp.matmul(s[0], mnp.transpose(s[1]))
        out = mnp.mean(m, axis=0) + mnp.std(z) + mnp.trace(mnp.tril(m))
        return mnp.pad(out, (1, 1), mode="edge") + mnp.searchsorted(mnp.arange(3.0), mnp.sum(x))


class _Spy:
    """Records the type of the tensors a library function is called with (an object, not a function,
    so the compiler calls it directly instead of parsing it as user code)."""

    def __init__(self, fn):
        self.fn = fn
        self.seen = []

    def __call__(self, arrays, axis=0):
        self.seen.append(type(arrays[0]).__name__)
        return self.fn(arrays, axis)


@pytest.fixture
def graph_mode():
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=previous)


def test_graph_mode_matches_pynative_and_numpy(graph_mode, monkeypatch):  # noqa: ARG001 - fixture sets the mode
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 2)).astype(np.float32)
    y = rng.standard_normal((3, 2)).astype(np.float32)
    spy = _Spy(mnp.concatenate)
    monkeypatch.setattr(mnp, "concatenate", spy)
    graph_out = _NumpyNet()(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    assert spy.seen == ["StagedTensor"]  # called once, while the graph was compiled, on abstract tensors
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager_out = _NumpyNet()(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    z = np.concatenate((x, np.flip(y, 0)), 1)
    z = np.where(z > 0, np.sqrt(np.abs(z)), np.exp(z))
    a, b = np.split(z, 2, axis=1)
    m = a @ b.T
    out = m.mean(0) + z.std() + np.trace(np.tril(m))
    expected = np.pad(out, (1, 1), mode="edge") + np.searchsorted(np.arange(3.0), x.sum())
    np.testing.assert_allclose(eager_out, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(graph_out, expected, rtol=1e-5, atol=1e-5)


def test_graph_mode_gradient_through_jit(graph_mode):  # noqa: ARG001
    @ms.jit
    def loss(x):
        return mnp.sum(mnp.square(mnp.diff(mnp.cumsum(x), prepend=0.0)) * mnp.linspace(1, 2, 4))

    x = np.array([0.5, -1.0, 2.0, 3.0], np.float32)
    grad = ms.grad(loss)(ms.Tensor(x))
    # diff(cumsum(x), prepend=0) is x itself
    np.testing.assert_allclose(grad.asnumpy(), 2 * x * np.linspace(1, 2, 4), rtol=1e-5)
