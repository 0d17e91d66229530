"""mindspore.common.initializer: formulas, defaults, statistics, laziness, seeding and errors."""
import math

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor
from mindspore.common import initializer as init_mod
from mindspore.common.initializer import (Constant, Dirac, HeNormal, HeUniform, Identity, Initializer, Normal, One,
                                          Orthogonal, Sparse, TruncatedNormal, Uniform, VarianceScaling, XavierNormal,
                                          XavierUniform, Zero, initializer)

BIG = (400, 500)            # 200k draws: sample std of the std estimate is ~0.16%


def draw(init, shape=BIG, dtype=ms.float32):
    return initializer(init, shape, dtype).init_data().asnumpy()


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(1234)


def test_public_names():
    assert set(init_mod.__all__) == {
        "Initializer", "initializer", "TruncatedNormal", "Normal", "Uniform", "HeUniform", "HeNormal",
        "XavierUniform", "XavierNormal", "One", "Zero", "Constant", "Identity", "Sparse", "Dirac", "Orthogonal",
        "VarianceScaling"}


def test_defaults_match_mindspore():
    assert Normal().sigma == 0.01 and Normal().mean == 0.0
    assert Uniform().scale == 0.07
    t = TruncatedNormal()
    assert (t.sigma, t.mean, t.a, t.b) == (0.01, 0.0, -2.0, 2.0)
    for cls in (HeUniform, HeNormal):
        h = cls()
        assert (h.negative_slope, h.mode, h.nonlinearity) == (0, "fan_in", "leaky_relu")
    assert XavierUniform().gain == 1 and XavierNormal().gain == 1 and Orthogonal().gain == 1.
    assert Dirac().groups == 1 and Sparse(0.2).sigma == 0.01
    v = VarianceScaling()
    assert (v.scale, v.mode, v.distribution) == (1.0, "fan_in", "truncated_normal")


# -- laziness and the Tensor contract ---------------------------------------------------------------------
def test_initializer_is_lazy_until_init_data():
    t = initializer("ones", (2, 3), ms.float16)
    assert isinstance(t, Tensor) and t.has_init
    assert t.shape == (2, 3) and t.dtype == ms.float16
    assert t.init_data() is t and not t.has_init
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 3), np.float16))
    assert t.asnumpy().dtype == np.float16


def test_tensor_with_init_object():
    t = Tensor(shape=(1, 3), dtype=ms.float32, init=One())
    assert t.has_init and t.shape == (1, 3)
    t.init_data()
    assert str(t) == "[[1. 1. 1.]]"


def test_generate_returns_host_array_of_dtype():
    for dtype, np_dtype in ((ms.float32, np.float32), (ms.float64, np.float64), (ms.int32, np.int32),
                            (ms.float16, np.float16)):
        arr = Normal(sigma=1.0)._generate((3, 4), dtype)
        assert isinstance(arr, np.ndarray) and arr.dtype == np_dtype and arr.shape == (3, 4)


def test_bfloat16_initializer():
    t = initializer(Constant(1.5), (2, 2), ms.bfloat16).init_data()
    assert t.dtype == ms.bfloat16
    np.testing.assert_array_equal(t.asnumpy().astype(np.float32), np.full((2, 2), 1.5, np.float32))


def test_shape_forms():
    assert initializer("zeros", 4).shape == (4,)
    assert initializer("zeros", [2, 3]).shape == (2, 3)
    assert initializer("zeros", (2, 3)).init_data().asnumpy().dtype == np.float32   # default dtype float32


@pytest.mark.parametrize("shape", [(0, 2), (-1, 2), (2.0,), "ab", (True, 2)])
def test_invalid_shape(shape):
    with pytest.raises(ValueError, match="shape"):
        initializer("ones", shape)


def test_bad_init_type():
    with pytest.raises(TypeError, match="'init'"):
        initializer([1, 2], (2,))
    with pytest.raises(TypeError):
        initializer(None, (2,))


def test_unknown_name():
    with pytest.raises(ValueError, match="not found"):
        initializer("no_such_init", (2, 2))


def test_string_names_case_insensitive():
    for name, cls in (("normal", Normal), ("ones", One), ("zeros", Zero), ("one", One), ("zero", Zero),
                      ("uniform", Uniform), ("truncatedNormal", TruncatedNormal), ("TruncatedNormal", TruncatedNormal),
                      ("xavier_uniform", XavierUniform), ("xavier_normal", XavierNormal), ("he_uniform", HeUniform),
                      ("he_normal", HeNormal), ("HeUniform", HeUniform), ("identity", Identity),
                      ("orthogonal", Orthogonal), ("varianceScaling", VarianceScaling), ("dirac", Dirac)):
        assert isinstance(initializer(name, (3, 3, 3))._init, cls), name


def test_number_means_constant():
    np.testing.assert_array_equal(draw(3, (2, 2)), np.full((2, 2), 3, np.float32))
    np.testing.assert_array_equal(draw(2.5, (2,), ms.int32), np.array([2, 2], np.int32))


def test_tensor_init_is_returned_and_shape_checked():
    data = Tensor(np.zeros([1, 2, 3]), ms.float32)
    assert initializer(data, [1, 2, 3], ms.float32) is data
    assert initializer(data) is data
    with pytest.raises(ValueError, match="shape"):
        initializer(data, [2, 3])


def test_numpy_init():
    t = initializer(np.arange(6).reshape(2, 3), (2, 3), ms.float32)
    assert t.dtype == ms.float32
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))
    with pytest.raises(ValueError):
        initializer(np.zeros(3), (4,))


def test_custom_subclass():
    class Twos(Initializer):
        def _initialize(self, arr):
            arr.fill(2)

    np.testing.assert_array_equal(draw(Twos(), (3,)), [2, 2, 2])
    arr = np.zeros(3, np.float32)
    Twos()(arr)                     # an initializer called on an array fills it in place
    np.testing.assert_array_equal(arr, [2, 2, 2])


def test_base_class_without_initialize_fails_cleanly():
    with pytest.raises(TypeError, match="_initialize"):
        initializer(Initializer(), (2,)).init_data()


# -- reproducibility --------------------------------------------------------------------------------------
@pytest.mark.parametrize("init", [Normal(1.0), Uniform(1.0), TruncatedNormal(1.0, a=-1, b=1), HeUniform(),
                                  HeNormal(), XavierUniform(), XavierNormal(), Orthogonal(), Sparse(0.3, 1.0),
                                  VarianceScaling()])
def test_set_seed_reproducible(init):
    ms.set_seed(7)
    a = draw(init, (6, 5))
    b = draw(init, (6, 5))
    ms.set_seed(7)
    np.testing.assert_array_equal(draw(init, (6, 5)), a)
    assert not np.array_equal(a, b)          # the stream advances between draws
    ms.set_seed(8)
    assert not np.array_equal(draw(init, (6, 5)), a)


def test_draw_happens_at_init_data_time():
    ms.set_seed(3)
    lazy = initializer(Normal(1.0), (4,))
    first = draw(Normal(1.0), (4,))         # draws before the lazy tensor is materialised
    ms.set_seed(3)
    np.testing.assert_array_equal(draw(Normal(1.0), (4,)), first)
    assert lazy.has_init


# -- statistics ---------------------------------------------------------------------------------------------
def test_zero_one_constant():
    assert not draw(Zero(), (3, 4)).any()
    assert (draw(One(), (3, 4)) == 1).all()
    np.testing.assert_array_equal(draw(Constant(-2), (2, 2)), np.full((2, 2), -2.0))
    np.testing.assert_array_equal(draw(Constant(np.array([1., 2., 3.])), (2, 3)), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(draw(Constant(True), (2,), ms.bool_), [True, True])


def test_normal_statistics():
    x = draw(Normal())
    assert abs(x.mean()) < 1e-4 and abs(x.std() - 0.01) < 1e-4
    x = draw(Normal(sigma=2.0, mean=3.0))
    assert abs(x.mean() - 3.0) < 0.02 and abs(x.std() - 2.0) < 0.02
    with pytest.raises(ValueError, match="sigma"):
        draw(Normal(sigma=-1.0), (2,))


def test_uniform_statistics():
    x = draw(Uniform())
    assert x.min() >= -0.07 and x.max() <= 0.07
    assert abs(x.std() - 0.07 / math.sqrt(3)) < 2e-4 and abs(x.mean()) < 5e-4
    assert x.min() < -0.069 and x.max() > 0.069


def test_truncated_normal_default_is_untruncated_at_sigma_001():
    x = draw(TruncatedNormal())                      # bounds [-2, 2] are absolute: 200 sigma away
    assert abs(x.std() - 0.01) < 1e-4 and abs(x.mean()) < 1e-4


def test_truncated_normal_bounds_and_moments():
    a, b, mu, sigma = -0.5, 1.5, 0.0, 1.0
    x = draw(TruncatedNormal(sigma=sigma, mean=mu, a=a, b=b))
    assert x.min() >= a and x.max() <= b
    # moments of the truncated normal
    phi = lambda z: math.exp(-z * z / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    cdf = lambda z: 0.5 * math.erfc(-z / math.sqrt(2))  # noqa: E731
    al, be = (a - mu) / sigma, (b - mu) / sigma
    z = cdf(be) - cdf(al)
    mean = mu + sigma * (phi(al) - phi(be)) / z
    var = sigma ** 2 * (1 + (al * phi(al) - be * phi(be)) / z - ((phi(al) - phi(be)) / z) ** 2)
    assert abs(x.mean() - mean) < 5e-3 and abs(x.std() - math.sqrt(var)) < 5e-3


def test_truncated_normal_far_tail_stays_in_bounds():
    x = draw(TruncatedNormal(sigma=1.0, a=5.0, b=6.0), (1000,))
    assert x.min() >= 5.0 and x.max() <= 6.0 and np.isfinite(x).all()


def test_truncated_normal_bad_sigma():
    # as 2.10: reversed bounds still draw (tests/api/test_init_streams_2_10.py pins the values); a zero sigma is
    # the kernel's RuntimeError, a negative one the Python check's ValueError
    assert np.isfinite(draw(TruncatedNormal(sigma=1.0, a=1.0, b=-1.0), (3,))).all()
    with pytest.raises(RuntimeError, match="invalid sigma"):
        draw(TruncatedNormal(sigma=0.0), (3,))
    with pytest.raises(ValueError, match="sigma < 0"):
        draw(TruncatedNormal(sigma=-1.0), (3,))


def test_fan_in_fan_out():
    fan = init_mod._calculate_fan_in_and_fan_out
    assert fan((3, 5)) == (5, 3)                             # Dense weight (out, in)
    assert fan((16, 8, 3, 3)) == (8 * 9, 16 * 9)             # Conv2d weight (out, in, kh, kw)
    assert fan((4, 2, 5)) == (10, 20)
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        fan((5,))


def test_he_uniform_conv_weight_bound():
    shape = (32, 16, 3, 3)                                   # fan_in = 16 * 9
    bound = math.sqrt(6.0 / (16 * 9))                        # gain sqrt(2) for leaky_relu with slope 0
    x = draw(HeUniform(), shape)
    assert x.min() >= -bound and x.max() <= bound and x.max() > 0.97 * bound
    assert abs(x.std() - bound / math.sqrt(3)) < 0.01 * bound


def test_he_uniform_sqrt5_is_torch_default():
    shape = (64, 32)
    x = draw(HeUniform(negative_slope=math.sqrt(5)), shape)
    bound = 1 / math.sqrt(32)
    assert x.min() >= -bound and x.max() <= bound and x.max() > 0.97 * bound


def test_he_mode_and_nonlinearity():
    shape = (40, 10)
    x = draw(HeUniform(mode="fan_out", nonlinearity="relu"), shape)
    bound = math.sqrt(2.0) * math.sqrt(3.0 / 40)
    assert x.max() <= bound and x.max() > 0.95 * bound
    for nl, gain in (("tanh", 5 / 3), ("sigmoid", 1.0), ("linear", 1.0), ("conv2d", 1.0)):
        x = draw(HeNormal(nonlinearity=nl), (500, 400))
        assert abs(x.std() - gain / math.sqrt(400)) < 0.01 * gain / math.sqrt(400), nl
    with pytest.raises(ValueError, match="mode"):
        draw(HeUniform(mode="fan_avg"), (2, 2))
    with pytest.raises(ValueError, match="nonlinearity"):
        draw(HeUniform(nonlinearity="softmax"), (2, 2))
    with pytest.raises(ValueError, match="negative_slope"):
        draw(HeUniform(negative_slope="a"), (2, 2))


def test_he_normal_std():
    x = draw(HeNormal(), (300, 20, 3, 3))
    std = math.sqrt(2.0) / math.sqrt(20 * 9)
    assert abs(x.std() - std) < 0.01 * std and abs(x.mean()) < 0.01 * std


def test_xavier():
    shape = (300, 700)
    bound = math.sqrt(6.0 / 1000)
    x = draw(XavierUniform(), shape)
    assert x.min() >= -bound and x.max() <= bound and abs(x.std() - bound / math.sqrt(3)) < 0.01 * bound
    x = draw(XavierUniform(gain=2), shape)
    assert x.max() <= 2 * bound and x.max() > 1.95 * bound
    x = draw(XavierNormal(gain=3), shape)
    assert abs(x.std() - 3 * math.sqrt(2.0 / 1000)) < 0.01 * 3 * math.sqrt(2.0 / 1000)
    with pytest.raises(ValueError):
        draw(XavierUniform(), (5,))


def test_identity():
    np.testing.assert_array_equal(draw(Identity(), (2, 3)), np.eye(2, 3))
    np.testing.assert_array_equal(draw("identity", (3, 3), ms.int32), np.eye(3, dtype=np.int32))
    with pytest.raises(ValueError, match="dimension"):
        draw(Identity(), (2, 2, 2))


@pytest.mark.parametrize("shape", [(3, 7), (7, 3), (4, 2, 3)])
def test_orthogonal(shape):
    x = draw(Orthogonal(gain=2.0), shape).astype(np.float64).reshape(shape[0], -1)
    rows, cols = x.shape
    gram = x @ x.T if rows <= cols else x.T @ x
    np.testing.assert_allclose(gram, 4.0 * np.eye(min(rows, cols)), atol=1e-5)
    with pytest.raises(ValueError):
        draw(Orthogonal(), (4,))


def test_dirac_preserves_input_under_convolution():
    w = draw(Dirac(), (4, 4, 3, 3))
    expected = np.zeros((4, 4, 3, 3))
    for i in range(4):
        expected[i, i, 1, 1] = 1
    np.testing.assert_array_equal(w, expected)
    w = draw(Dirac(groups=2), (6, 4, 3))
    expected = np.zeros((6, 4, 3))
    for g in range(2):
        for d in range(3):
            expected[g * 3 + d, d, 1] = 1
    np.testing.assert_array_equal(w, expected)
    assert draw(Dirac(), (2, 3, 3, 3, 3))[1, 1, 1, 1, 1] == 1
    with pytest.raises(ValueError, match="divisible"):
        draw(Dirac(groups=4), (6, 4, 3, 3))
    with pytest.raises(ValueError, match="dimension"):
        draw(Dirac(), (4, 4))


def test_sparse():
    x = draw(Sparse(sparsity=0.3, sigma=1.0), (20, 50))
    zeros_per_col = (x == 0).sum(axis=0)
    assert (zeros_per_col == math.ceil(0.3 * 20)).all()
    nz = x[x != 0]
    assert abs(nz.std() - 1.0) < 0.1
    with pytest.raises(ValueError, match="dimension"):
        draw(Sparse(0.1), (2, 2, 2))


def test_variance_scaling():
    shape = (200, 1000)                       # fan_in 1000, fan_out 200
    x = draw(VarianceScaling(scale=2.0, mode="fan_in", distribution="untruncated_normal"), shape)
    assert abs(x.std() - math.sqrt(2.0 / 1000)) < 0.01 * math.sqrt(2.0 / 1000)
    x = draw(VarianceScaling(scale=1.0, mode="fan_out", distribution="uniform"), shape)
    limit = math.sqrt(3.0 / 200)
    assert x.max() <= limit and x.max() > 0.99 * limit and x.min() >= -limit
    x = draw(VarianceScaling(scale=1.0, mode="fan_avg", distribution="truncated_normal"), shape)
    std = math.sqrt(1.0 / 600)
    assert abs(x.std() - std) < 0.01 * std                  # the truncation correction keeps the target std
    assert np.abs(x).max() <= 2 * std / 0.87962566103423978 + 1e-7
    for kwargs in ({"scale": 0.0}, {"mode": "fan"}, {"distribution": "normal"}):
        with pytest.raises(ValueError):
            VarianceScaling(**kwargs)


def test_float16_and_int_casting():
    x = draw(Normal(sigma=1.0), (100, 100), ms.float16)
    assert x.dtype == np.float16 and abs(float(x.std()) - 1.0) < 0.05
    x = draw(Uniform(scale=5.0), (1000,), ms.int32)
    assert x.dtype == np.int32 and x.min() >= -5 and x.max() <= 5


def test_parameter_from_initializer():
    p = ms.Parameter(initializer("normal", (3, 4), ms.float32), name="w")
    assert p.shape == (3, 4) and p.dtype == ms.float32
    assert abs(float(p.asnumpy().std()) - 0.01) < 0.01


def test_float32_draws_fill_in_place_with_the_right_distribution_and_seed():
    """float32 weights are drawn in float32 straight into the array; their range, moments and seeding hold, and a
    non-contiguous float32 array or a float16 one takes the cast path."""
    import mindspore as ms
    from mindspore.common.initializer import HeUniform, Normal, Uniform, initializer

    ms.set_seed(3)
    u = initializer(Uniform(0.5), (400, 500), ms.float32).init_data().asnumpy()
    assert u.dtype == np.float32 and u.min() >= -0.5 and u.max() <= 0.5
    assert abs(u.mean()) < 0.005 and abs(u.std() - 0.5 / np.sqrt(3)) < 0.002
    n = initializer(Normal(0.2, 1.5), (400, 500), ms.float32).init_data().asnumpy()
    assert abs(n.mean() - 1.5) < 0.003 and abs(n.std() - 0.2) < 0.002
    ms.set_seed(3)
    again = initializer(Uniform(0.5), (400, 500), ms.float32).init_data().asnumpy()
    np.testing.assert_array_equal(u, again)
    strided = np.zeros((6, 8), np.float32)[:, ::2]
    HeUniform()(strided)
    half = np.zeros((30, 40), np.float16)
    Normal(0.1)(half)
    assert np.all(strided != 0) and half.std() > 0.05


def test_random_fill_takes_one_draw_from_numpy_global_generator():
    """As in MindSpore 2.10 (which seeds each random fill with ``np.random.randint``), building layers advances
    NumPy's global stream by one draw per randomly initialised parameter and not at all for constant ones, so a
    script's ``np.random`` numbers after building its network are 2.10's (values recorded under 2.10)."""
    from mindspore import nn

    ms.set_seed(0)
    nn.Dense(3, 4)            # HeUniform weight + Uniform bias: two draws
    assert round(np.random.rand(), 6) == 0.602763
    ms.set_seed(0)
    nn.BatchNorm2d(3)         # constants only: no draw
    assert round(np.random.rand(), 6) == 0.548814
    ms.set_seed(0)
    nn.LSTM(3, 4)
    assert round(np.random.rand(), 6) == 0.806194
