"""float32 <-> float16/bfloat16 in C++ (``_csrc/halfcast.cpp``, ``kernels/_half.py``) and the float16 paths built on
it: every result bit for bit NumPy's (float16) and ml_dtypes' (bfloat16), NaN payloads and signed zeros included.

Widening is checked on all 65,536 bit patterns; narrowing on random float32 bit patterns and on the values around
every 16-bit number and every rounding midpoint (ties to even), where a wrong rounding would show.
"""
import ml_dtypes
import numpy as np
import pytest

k = pytest.importorskip("mindspore_cpu._kernels")
from mindspore_cpu.kernels import _half  # noqa: E402
from mindspore_cpu.kernels import math as cpu_math  # noqa: E402
from mindspore_cpu.kernels import nn as cpu_nn  # noqa: E402

BF16 = np.dtype(ml_dtypes.bfloat16)
KINDS = [pytest.param("float16", np.dtype(np.float16), id="float16"), pytest.param("bfloat16", BF16, id="bfloat16")]
ALL16 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)


def _f16c(kind):
    if kind == "float16" and not k.has_f16c():
        pytest.skip("this CPU has no F16C")


def _bits(a):
    return a.view(np.uint16 if a.dtype.itemsize == 2 else np.uint32)


def _narrow_cases(dtype):
    """float32 bit patterns: random ones, and for every 16-bit value its float32 neighbours and those of the
    midpoint to the next value (float16's midpoints lie 2**12 float32 ulps above, bfloat16's 2**15)."""
    rng = np.random.default_rng(0)
    exact = ALL16.view(dtype).astype(np.float32).view(np.uint32).astype(np.int64)
    half_gap = 1 << (12 if dtype == np.float16 else 15)
    near = [exact + d for d in range(-2, 3)] + [exact + half_gap + d for d in range(-2, 3)]
    cases = np.concatenate([rng.integers(0, 1 << 32, 1 << 20, dtype=np.uint64).astype(np.int64)] + near)
    return (cases % (1 << 32)).astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("kind, dtype", KINDS)
def test_widening_every_16_bit_pattern_is_numpys(kind, dtype):
    _f16c(kind)
    src = ALL16.view(dtype)
    dst = np.empty(src.size, np.float32)
    k.convert_half(src, dst, kind)
    np.testing.assert_array_equal(_bits(dst), _bits(src.astype(np.float32)))


@pytest.mark.parametrize("kind, dtype", KINDS)
def test_narrowing_rounds_ties_to_even_and_keeps_nan_bits(kind, dtype):
    _f16c(kind)
    x = _narrow_cases(dtype)
    dst = np.empty(x.size, dtype)
    k.convert_half(x, dst, kind)
    with np.errstate(all="ignore"):
        expect = x.astype(dtype)
    np.testing.assert_array_equal(_bits(dst), _bits(expect))


@pytest.mark.parametrize("kind, dtype", KINDS)
@pytest.mark.parametrize("n", [1, 7, 8, 9, 4099])
def test_tails_shorter_than_a_vector_are_converted(kind, dtype, n):
    _f16c(kind)
    # NaN (signalling and quiet), infinities, subnormals, signed zeros in the tail lanes too
    pool = np.array([0x7f800001, 0xffc01234, 0x7f800000, 0xff800000, 0x00000001, 0x80000000, 0x33800000,
                     0x477fe000, 0x3f800000], np.uint32).view(np.float32)
    x = np.resize(pool, n)
    narrow = np.empty(n, dtype)
    k.convert_half(x, narrow, kind)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(_bits(narrow), _bits(x.astype(dtype)))
    wide = np.empty(n, np.float32)
    k.convert_half(narrow, wide, kind)
    np.testing.assert_array_equal(_bits(wide), _bits(narrow.astype(np.float32)))


def test_bad_arguments_raise_value_errors():
    x = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match="differ"):
        k.convert_half(x, np.zeros(7, np.float16), "float16")
    with pytest.raises(ValueError, match="float32 and the other 16-bit"):
        k.convert_half(x, np.zeros(8, np.float64), "float16")
    with pytest.raises(ValueError, match="'kind'"):
        k.convert_half(x, np.zeros(8, np.float16), "half")
    with pytest.raises(ValueError, match="C-contiguous"):
        k.convert_half(np.zeros(16, np.float32)[::2], np.zeros(8, np.float16), "float16")
    with pytest.raises(ValueError, match="writeable"):
        ro = np.zeros(8, np.float16)
        ro.flags.writeable = False
        k.convert_half(x, ro, "float16")


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("layout", ["c", "transposed", "fortran", "strided", "small"])
def test_astype_is_numpys_in_value_and_layout(dtype, layout):
    rng = np.random.default_rng(1)
    base = (rng.standard_normal((6, 64, 48)) * 300).astype(np.float32)
    x = {"c": base, "transposed": np.swapaxes(base, -1, -2), "fortran": base.T, "strided": base[:, ::2, 1:],
         "small": base[0, :3]}[layout]
    narrow = _half.astype(x, dtype)
    expect = x.astype(dtype)
    assert narrow.dtype == dtype and narrow.shape == expect.shape
    np.testing.assert_array_equal(_bits(np.ascontiguousarray(narrow)), _bits(np.ascontiguousarray(expect)))
    if layout != "strided":   # a strided source is copied first: its result is C-contiguous, not NumPy's layout
        assert narrow.strides == expect.strides
    for wide_dtype in (np.float32, np.float64):
        wide = _half.astype(narrow, wide_dtype)
        assert wide.dtype == wide_dtype
        np.testing.assert_array_equal(wide, narrow.astype(wide_dtype))


def test_as_c_gives_c_contiguous_arrays():
    x = np.arange(4096 * 3, dtype=np.float16).reshape(64, 192).T
    got = _half.as_c(x, np.float32)
    assert got.flags.c_contiguous and got.dtype == np.float32
    np.testing.assert_array_equal(got, x.astype(np.float32))
    same = np.zeros((64, 64), np.float32)
    assert _half.as_c(same, np.float32) is same


def _halves(seed, n=1 << 16):
    """Random float16 bit patterns, with every special value paired with every other at the end."""
    special = np.array([0, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 1, 0x8001, 0x3c00, 0x7bff, 0x0400],
                       np.uint16)
    rand = np.random.default_rng(seed).integers(0, 1 << 16, n).astype(np.uint16)
    return rand, special


@pytest.mark.parametrize("name, ufunc", [("Add", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
                                         ("RealDiv", np.true_divide), ("Div", np.true_divide)])
def test_float16_arithmetic_through_float32_gives_numpys_values(name, ufunc):
    """Large float16 operands compute in float32 and round once, as NumPy's float16 loops do: the same values (a
    NaN stays a NaN; which operand's payload it carries is not compared), signed zeros included."""
    rand_x, special = _halves(2)
    rand_y, _ = _halves(3)
    x = np.concatenate([rand_x, np.repeat(special, special.size)]).view(np.float16)
    y = np.concatenate([rand_y, np.tile(special, special.size)]).view(np.float16)
    kernel = cpu_math.KERNELS[name]
    for a, b in ((x, y), (x, y[:1].copy()), (x, 0.1), (x.reshape(-1, 8), y.reshape(-1, 8)[:1])):
        got = kernel(None, a, b)
        with np.errstate(all="ignore"):
            expect = ufunc(a, np.float16(b) if isinstance(b, float) else b)
        assert got.dtype == np.float16 and got.shape == expect.shape
        nan = np.isnan(expect)
        np.testing.assert_array_equal(np.isnan(got), nan)
        np.testing.assert_array_equal(_bits(got)[~nan], _bits(expect)[~nan])


@pytest.mark.parametrize("dtype", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
def test_relu_grad_on_16_bit_floats_is_the_select(dtype):
    rand_x, _ = _halves(4)
    rand_y, _ = _halves(5)
    specials = np.array([0, 0x8000, 1, 0x8001, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x7f80, 0xff80, 0x7fc0, 0x7f81],
                        np.uint16)
    dy = np.concatenate([rand_x, np.repeat(specials, specials.size)]).view(dtype)
    y = np.concatenate([rand_y, np.tile(specials, specials.size)]).view(dtype)
    got = cpu_nn.KERNELS["ReluGrad"](None, dy, y)
    with np.errstate(invalid="ignore"):
        expect = np.where(y > 0, dy, dtype.type(0))
    assert got.dtype == dtype
    np.testing.assert_array_equal(_bits(got), _bits(expect))
    with pytest.raises(ValueError, match="16-bit floats of one dtype"):
        k.relu_grad16(dy, y.astype(np.float32), "float16")


def test_float16_matmul_is_float32_products_rounded_once():
    rng = np.random.default_rng(6)
    a = rng.standard_normal((3, 40, 64)).astype(np.float16)
    b = rng.standard_normal((3, 64, 48)).astype(np.float16)

    class Prim:
        transpose_a, transpose_b = False, True
    got = cpu_math.KERNELS["BatchMatMul"](Prim(), a, np.swapaxes(b, -1, -2))
    exact = np.matmul(a.astype(np.float64), b.astype(np.float64))
    assert got.dtype == np.float16
    # one rounding of a float32 sum: within half an ulp of float16, plus float32's error on the sum
    np.testing.assert_allclose(got.astype(np.float64), exact, rtol=2 ** -11, atol=1e-3)


def test_float_to_integer_out_of_range_is_silent_with_mindspores_values():
    """inf, nan and out-of-range floats cast to integers give MindSpore 2.10's values (the smallest integer; 0 for
    uint8) with no NumPy warning (T5's relative position buckets cast log(0) = -inf and discard it)."""
    import warnings
    x = np.array([-np.inf, np.inf, np.nan, 1e30, -2.5], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _half.astype(x, np.int64).tolist() == [np.iinfo(np.int64).min] * 4 + [-2]
        assert _half.astype(x, np.uint8).tolist() == [0, 0, 0, 0, 254]
