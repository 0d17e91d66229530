"""The CPU's trigonometric, hyperbolic, error-function, log1p/expm1 and atan2 kernels give MindSpore 2.10's bits:
float32 the C library's double function rounded once (erf: erff; log1p: logf(x + 1); expm1: expf(x) - 1), float64
the double one, float16 through the float32 kernel (log1p/expm1: 2.10's float16 steps), as 2.10's CPU kernels call
them (``_csrc/libm_unary.cpp``); Pow is Eigen's vectorised pow in float32 and float64 (our own code of its steps, found
in 2.10's binary). NumPy's float32 functions (SIMD approximations) differed from 2.10's in 5-30% of
the values, its float64 ones in the last bit now and then. About 2,000 values per function recorded on 2.10
(``tests/fixtures/float32_trig/record.py``), special values included."""
import pathlib

import numpy as np
import pytest
from scipy import special

import mindspore as ms
from mindspore import ops

pytestmark = pytest.mark.cpu_backend

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "float32_trig" / "trig_2.10.npz"
UNARY = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc",
         "log1p", "expm1"]
_NUMPY = {"asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "asinh": np.arcsinh, "acosh": np.arccosh,
          "atanh": np.arctanh, "erf": special.erf, "erfc": special.erfc}


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURE) as z:
        return {k: z[k] for k in z.files}


def _same(got, want):
    """Equal bits, NaN where NaN (a NaN's sign and payload aside)."""
    nan = np.isnan(want)
    return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(np.isnan(got), nan) and \
        np.array_equal(got[~nan], want[~nan]) and np.array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))


@pytest.mark.parametrize("name", UNARY)
def test_unary_gives_2_10s_bits_in_every_float_dtype(recorded, name):
    fn = getattr(ops, name)
    x, halves = recorded[name + "_x"], recorded["f16_x"]
    assert _same(fn(ms.Tensor(x)).asnumpy(), recorded[name + "_y"])
    assert _same(fn(ms.Tensor(x.astype(np.float64))).asnumpy(), recorded[name + "_y64"])
    assert _same(fn(ms.Tensor(halves)).asnumpy(), recorded[name + "_y16"])
    # NumPy's (SciPy's) functions, which the kernels were, differ in at least one dtype: the test can tell
    ref = _NUMPY.get(name) or getattr(np, name)
    with np.errstate(all="ignore"):
        numpy_results = [(ref(x).astype(np.float32), "_y"), (ref(x.astype(np.float64)), "_y64"),
                         (ref(halves).astype(np.float16), "_y16")]
    assert not all(_same(got, recorded[name + key]) for got, key in numpy_results)


def test_atan2_gives_2_10s_bits(recorded):
    y, x = recorded["atan2_x"], recorded["atan2_other"]
    assert _same(ops.atan2(ms.Tensor(y), ms.Tensor(x)).asnumpy(), recorded["atan2_y"])
    assert _same(ops.atan2(ms.Tensor(y.astype(np.float64)), ms.Tensor(x.astype(np.float64))).asnumpy(),
                 recorded["atan2_y64"])
    assert not _same(np.arctan2(y, x), recorded["atan2_y"])
    # broadcast operands and a 0-d pair keep their shapes and values
    got = ops.atan2(ms.Tensor(y[:12].reshape(3, 4)), ms.Tensor(x[:4])).asnumpy()
    assert _same(got, np.stack([ops.atan2(ms.Tensor(r), ms.Tensor(x[:4])).asnumpy() for r in y[:12].reshape(3, 4)]))
    assert ops.atan2(ms.Tensor(y[3]), ms.Tensor(x[3])).shape == ()


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_sin_and_cos_gradients_give_2_10s_bits(recorded, name):
    fn, x, w = getattr(ops, name), recorded["sin_x"], ms.Tensor(recorded["grad_w"])
    got = ms.grad(lambda t: (fn(t) * w).sum())(ms.Tensor(x)).asnumpy()
    # 2.10's multiply flushes a subnormal product to zero (its CPU threads run flush-to-zero): not modelled here
    normal = ~(np.abs(x) < np.finfo(np.float32).tiny)
    assert _same(got[normal], recorded["grad_" + name][normal])


@pytest.mark.parametrize("tag", ["2.5", "2", "0.5", "3", "-2", "-0.7"])
def test_pow_by_one_exponent_gives_2_10s_bits(recorded, tag):
    """2.10: Eigen's vectorised pow (repeated squaring for integer exponents in [-3, 7], 1/x first when negative)."""
    x, want = recorded["pow_x"], recorded["pow_s" + tag]
    got = ops.pow(ms.Tensor(x), float(tag)).asnumpy()
    # 2.10 read a subnormal base as 0 here (its CPU threads' denormals-are-zero state varies): not modelled
    normal = ~((np.abs(x) < np.finfo(np.float32).tiny) & (x != 0))
    assert _same(got[normal], want[normal])
    assert _same((ms.Tensor(x[:400]) ** float(tag)).asnumpy()[normal[:400]], want[:400][normal[:400]])
    if tag != "2":   # NumPy squares as 2.10 does; its other powers differ from Eigen's
        with np.errstate(all="ignore"):
            assert not _same(np.power(x, np.float32(tag)), want)


def test_pow_by_a_tensor_and_exp2_give_2_10s_bits(recorded):
    x, e = recorded["pow_x"], recorded["pow_e"]
    assert _same(ops.pow(ms.Tensor(x), ms.Tensor(e)).asnumpy(), recorded["pow_t"])
    # a broadcast base (exp2 is Pow(2, x)) computes in double, rounded once
    assert _same(ops.exp2(ms.Tensor(recorded["sinh_x"])).asnumpy(), recorded["exp2_y"])
    with np.errstate(all="ignore"):
        assert not _same(np.power(x, e), recorded["pow_t"])
    # the values after the last whole packet of four take the C library's powf, as in 2.10
    assert _same(ops.pow(ms.Tensor(x[:7]), ms.Tensor(e[:7])).asnumpy(), recorded["pow_t7"])
    assert _same(ops.pow(ms.Tensor(x[:7]), 2.5).asnumpy(), recorded["pow_s7"])
    assert _same(ops.pow(ms.Tensor(x[:7]), 3.0).asnumpy(), recorded["pow_i7"])   # (squared in packets only)


@pytest.mark.parametrize("tag", ["2.5", "3", "-0.7"])
def test_float64_pow_gives_2_10s_bits(recorded, tag):
    """float64: Eigen's double pow too, a Python float exponent held as float32 (so ** -0.7 is ** -0.699999988)."""
    x = recorded["pow_x"].astype(np.float64)
    want = recorded["pow_s%s_64" % tag]
    assert _same(ops.pow(ms.Tensor(x), float(tag)).asnumpy(), want)
    with np.errstate(all="ignore"):
        assert not _same(np.power(x, float(tag)), want)
    if tag == "2.5":
        e = recorded["pow_e"].astype(np.float64)
        assert _same(ops.pow(ms.Tensor(x), ms.Tensor(e)).asnumpy(), recorded["pow_t64"])


def test_shapes_and_layouts():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) * np.float32(0.37)
    assert ops.sin(ms.Tensor(x[1, 2])).shape == ()
    assert _same(ops.cos(ms.Tensor(x).T).asnumpy(), ops.cos(ms.Tensor(x)).asnumpy().T.copy())
    assert _same(ops.log1p(ms.Tensor(np.float16(0.5))).asnumpy(), np.array(np.log(np.float32(1.5)), np.float16))
    # 2.10's Log1p and Expm1 are log(x + 1) and exp(x) - 1, step for step: tiny x is lost in float32
    assert ops.log1p(ms.Tensor(np.float32(1e-8))).asnumpy() == 0
    assert ops.expm1(ms.Tensor(np.float32(1e-8))).asnumpy() == 0
