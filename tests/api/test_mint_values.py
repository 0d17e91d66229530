"""Values of ``mindspore.mint`` calls: every case of ``make_mint_fixture.py`` is compared with the numbers real
MindSpore 2.10 gave (``tests/fixtures/api/mint_reference.npz``), or, where its CPU build has no kernel for the
call, with the NumPy oracle of ``test_mint_oracles.py``. Every case has one or the other.
"""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import mint

HERE = pathlib.Path(__file__).resolve().parent


def _load(name):
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKER = _load("make_mint_fixture")
ORACLES = _load("test_mint_oracles").oracles()
CASES = MAKER.cases()
REFERENCE = np.load(MAKER.FIXTURE)
RECORDED = sorted({k.rsplit("__", 1)[0] for k in REFERENCE.files if not k.startswith("__")})
# tolerances: float32 kernels against MindSpore's, or against float64 NumPy oracles
RTOL, ATOL = 1e-4, 1e-5
LOOSE = {"grad_conv_pool": (1e-3, 1e-3), "qr": (1e-4, 1e-4), "qr_complete": (1e-4, 1e-4),
         "grad_inverse": (1e-4, 1e-4), "inverse": (1e-4, 1e-5)}


def _run(name):
    ms.set_seed(1)
    data = MAKER.tensors(ms, MAKER.make_data())
    return MAKER.flatten(CASES[name](ms, mint, data))


def _compare(name, got, expected, check_dtype):
    assert len(got) == len(expected), f"{name}: {len(got)} outputs, expected {len(expected)}"
    rtol, atol = LOOSE.get(name, (RTOL, ATOL))
    for i, (g, e) in enumerate(zip(got, expected)):
        e = np.asarray(e)
        assert g.shape == e.shape, f"{name}[{i}]: shape {g.shape}, expected {e.shape}"
        if check_dtype:
            assert g.dtype == e.dtype, f"{name}[{i}]: dtype {g.dtype}, expected {e.dtype}"
        if e.dtype == bool or g.dtype == bool:
            np.testing.assert_array_equal(g, e, err_msg=f"{name}[{i}]")
        else:
            np.testing.assert_allclose(g.astype(np.float64), e.astype(np.float64), rtol, atol, equal_nan=True,
                                       err_msg=f"{name}[{i}]")


def test_every_case_is_checked():
    assert sorted(set(CASES) - set(RECORDED) - set(ORACLES)) == []
    assert len(RECORDED) >= 50


@pytest.mark.parametrize("name", RECORDED)
def test_matches_mindspore(name):
    n = int(REFERENCE[f"{name}__n"])
    _compare(name, _run(name), [REFERENCE[f"{name}__{i}"] for i in range(n)], check_dtype=True)


@pytest.mark.parametrize("name", sorted(set(ORACLES) - set(RECORDED)))
def test_matches_numpy_oracle(name):
    expected = ORACLES[name](MAKER.make_data())
    _compare(name, _run(name), expected, check_dtype=False)


@pytest.mark.parametrize("name", sorted(set(ORACLES) & set(RECORDED)))
def test_oracle_agrees_with_mindspore(name):
    """Where both exist the oracle must agree with MindSpore too (keeps the oracles honest)."""
    n = int(REFERENCE[f"{name}__n"])
    _compare(name, [np.asarray(a) for a in ORACLES[name](MAKER.make_data())],
             [REFERENCE[f"{name}__{i}"] for i in range(n)], check_dtype=False)


def test_integer_outputs_are_int64():
    x = ms.Tensor(np.array([[3.0, 1.0, 2.0]], np.float32))
    for out in (mint.argmax(x, 1), mint.sort(x)[1], mint.topk(x, 2)[1], mint.argsort(x), mint.max(x, 1)[1],
                mint.kthvalue(x, 1)[1], mint.median(x, 1)[1], mint.cummax(x, 1)[1], mint.count_nonzero(x)):
        assert out.dtype == ms.int64


def test_overloads():
    x = ms.Tensor(np.array([[1.0, 5.0], [4.0, 2.0]], np.float32))
    y = ms.Tensor(np.array([[2.0, 2.0], [2.0, 2.0]], np.float32))
    assert float(mint.max(x)) == 5.0 and float(mint.min(x)) == 1.0
    np.testing.assert_array_equal(mint.max(x, y).asnumpy(), np.maximum(x.asnumpy(), 2.0))
    np.testing.assert_array_equal(mint.min(x, 1)[0].asnumpy(), [1.0, 2.0])
    rows, cols = mint.where(x > 3)
    np.testing.assert_array_equal(rows.asnumpy(), [0, 1])
    np.testing.assert_array_equal(cols.asnumpy(), [1, 0])
    assert mint.any(x > 4) and not mint.all(x > 4)
    np.testing.assert_array_equal(mint.any(x > 3, 1).asnumpy(), [True, True])
    np.testing.assert_array_equal(mint.clamp(x, max=3.0).asnumpy(), np.minimum(x.asnumpy(), 3.0))
    assert mint.squeeze(ms.Tensor(np.zeros((1, 2, 1), np.float32))).shape == (2,)
    assert mint.squeeze(ms.Tensor(np.zeros((1, 2, 1), np.float32)), (0, 1)).shape == (2, 1)
    assert mint.randint(5, (3, 2)).shape == (3, 2) and mint.randint(5, (3, 2)).dtype == ms.int64
    low = mint.randint(2, 4, (50,)).asnumpy()
    assert low.min() >= 2 and low.max() < 4
    assert mint.rand(2, 3).shape == (2, 3) and mint.randn((4,)).shape == (4,)
    assert mint.empty(2, 3).shape == (2, 3) and mint.empty_like(x, dtype=ms.int32).dtype == ms.int32
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    assert mint.normal(0.0, 1.0, (3,)).shape == (3,)
    assert mint.normal(ms.Tensor(np.zeros((2, 2), np.float32)), 1.0).shape == (2, 2)


def test_repeat_interleave_with_counts_and_bernoulli():
    x = ms.Tensor(np.array([1, 2, 3], np.int64))
    np.testing.assert_array_equal(mint.repeat_interleave(x, ms.Tensor(np.array([1, 0, 2], np.int64))).asnumpy(),
                                  [1, 3, 3])
    p = ms.Tensor(np.array([0.0, 1.0, 0.0, 1.0], np.float32))
    np.testing.assert_array_equal(mint.bernoulli(p).asnumpy(), [0, 1, 0, 1])
    probs = ms.Tensor(np.array([[0.0, 1.0, 0.0]], np.float32))
    np.testing.assert_array_equal(mint.multinomial(probs, 2, True).asnumpy(), [[1, 1]])


def test_inplace_functions_write_their_input():
    F = mint.nn.functional
    x = ms.Tensor(np.array([-1.0, 0.5, 2.0], np.float32))
    assert F.relu_(x) is x
    np.testing.assert_array_equal(x.asnumpy(), [0.0, 0.5, 2.0])
    F.hardtanh_(x, -0.25, 1.0)
    np.testing.assert_array_equal(x.asnumpy(), [0.0, 0.5, 1.0])
    F.threshold_(x, 0.6, -3.0)
    np.testing.assert_array_equal(x.asnumpy(), [-3.0, -3.0, 1.0])
    y = ms.Tensor(np.zeros((2, 3), np.float32))
    mint.addr_(y, ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([1.0, 0.0, 3.0], np.float32)),
               alpha=2)
    np.testing.assert_array_equal(y.asnumpy(), [[2.0, 0.0, 6.0], [4.0, 0.0, 12.0]])


def test_dropout_in_training_scales_kept_values():
    x = ms.Tensor(np.ones((200, 50), np.float32))
    out = mint.nn.functional.dropout(x, 0.25).asnumpy()
    kept = out[out != 0]
    np.testing.assert_allclose(kept, 1 / 0.75, rtol=1e-6)
    assert 0.2 < 1 - kept.size / out.size < 0.3


def test_fold_is_the_adjoint_of_unfold():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.normal(size=(1, 2, 5, 5)).astype(np.float32))
    cols = mint.nn.functional.unfold(x, 3, 1, 1, 2)
    c = ms.Tensor(rng.normal(size=cols.shape).astype(np.float32))
    back = mint.nn.functional.fold(c, (5, 5), 3, 1, 1, 2)
    np.testing.assert_allclose((cols.asnumpy() * c.asnumpy()).sum(), (x.asnumpy() * back.asnumpy()).sum(),
                               rtol=1e-4)


def test_errors_name_the_function():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="For 'clamp'"):
        mint.clamp(x)
    with pytest.raises(ValueError, match="For 'inv'"):
        mint.linalg.inv(x)
    with pytest.raises(ValueError, match="For 'cross'"):
        mint.cross(ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.ones((2, 4), np.float32)))
    with pytest.raises(ValueError, match="For 'Linear'"):
        mint.nn.Linear(0, 2)
    with pytest.raises(ValueError, match="For 'SGD'"):
        mint.optim.SGD([ms.Parameter(x, name="p")], lr=0.1, nesterov=True)


def test_complex_polar_real_imag():
    r = ms.Tensor(np.array([2.0, 1.0], np.float32))
    theta = ms.Tensor(np.array([0.5, -1.0], np.float32))
    z = mint.polar(r, theta)
    assert z.dtype == ms.complex64
    np.testing.assert_allclose(z.asnumpy(), 2.0 ** np.array([1, 0]) * np.exp(1j * np.array([0.5, -1.0])), rtol=1e-6)
    np.testing.assert_allclose(mint.real(z).asnumpy(), [2 * np.cos(0.5), np.cos(-1.0)], rtol=1e-6)
    np.testing.assert_allclose(mint.imag(z).asnumpy(), [2 * np.sin(0.5), np.sin(-1.0)], rtol=1e-6)
    assert mint.real(r) is r


def test_less_common_arguments():
    t = ms.Tensor
    uc = mint.unique_consecutive(t(np.array([[1, 1], [1, 1], [2, 3]])), True, True, 0)
    np.testing.assert_array_equal(uc[0].asnumpy(), [[1, 1], [2, 3]])
    np.testing.assert_array_equal(uc[1].asnumpy(), [0, 0, 1])
    np.testing.assert_array_equal(uc[2].asnumpy(), [2, 1])
    seq = t(np.array([5.0, 1.0, 3.0], np.float32))
    found = mint.searchsorted(seq, t(np.array([2.0, 3.0], np.float32)), side="right", sorter=t(np.array([1, 2, 0])))
    np.testing.assert_array_equal(found.asnumpy(), [1, 2])
    x = t(np.array([0.0, 1.0, 1.0, 4.0], np.float32))
    np.testing.assert_array_equal(mint.histc(x, 4).asnumpy(), [1, 2, 0, 1])
    np.testing.assert_allclose(mint.bincount(t(np.array([0, 2, 2])), t(np.array([0.5, 1.0, 2.0], np.float32)),
                                             5).asnumpy(), [0.5, 0, 3.0, 0, 0])
    assert mint.randint_like(t(np.zeros(3, np.float32)), 4).dtype == ms.float32
    assert mint.diag(t(np.array([1.0, 2.0], np.float32)), -1).asnumpy().tolist() == [[0, 0, 0], [1, 0, 0], [0, 2, 0]]


def test_embedding_padding_idx_gets_no_gradient_and_max_norm_renormalises():
    F = mint.nn.functional
    idx = ms.Tensor(np.array([0, 1, 1]))
    grad = ms.grad(lambda w: mint.sum(F.embedding(idx, w, padding_idx=1)))(ms.Tensor(np.ones((3, 2), np.float32)))
    np.testing.assert_array_equal(grad.asnumpy(), [[1, 1], [0, 0], [0, 0]])
    table = ms.Tensor(np.full((3, 2), 3.0, np.float32))
    out = F.embedding(ms.Tensor(np.array([0, 2])), table, max_norm=1.0)
    np.testing.assert_allclose(np.linalg.norm(out.asnumpy(), axis=1), [1.0, 1.0], rtol=1e-5)
    np.testing.assert_allclose(table.asnumpy()[1], [3.0, 3.0])   # rows not looked up keep their norm


def test_softmax_implicit_dim_is_pytorchs():
    F = mint.nn.functional
    x3 = ms.Tensor(np.random.default_rng(0).normal(size=(2, 3, 4)).astype(np.float32))
    np.testing.assert_allclose(F.softmax(x3).asnumpy().sum(0), np.ones((3, 4)), rtol=1e-5)
    x2 = ms.Tensor(np.random.default_rng(1).normal(size=(2, 3)).astype(np.float32))
    np.testing.assert_allclose(np.exp(F.log_softmax(x2).asnumpy()).sum(1), np.ones(2), rtol=1e-5)
    assert float(F.softmax(ms.Tensor(np.float32(3.0)))) == 1.0


def test_public_layers_and_functions_outside_all():
    oracle = _load("test_mint_oracles")
    F = mint.nn.functional
    rng = np.random.default_rng(3)
    a = rng.normal(size=(3, 4)).astype(np.float32)
    x = ms.Tensor(a)
    checks = [
        (F.hardshrink(x, 0.3), np.where(np.abs(a) > 0.3, a, 0)),
        (F.softshrink(x, 0.3), np.where(a > 0.3, a - 0.3, np.where(a < -0.3, a + 0.3, 0))),
        (mint.nn.Softshrink(0.3)(x), np.where(a > 0.3, a - 0.3, np.where(a < -0.3, a + 0.3, 0))),
        (F.hardsigmoid(x), oracle.hardsigmoid(a)), (F.hardswish(x), a * oracle.hardsigmoid(a)),
        (F.mish(x), a * np.tanh(np.log1p(np.exp(a)))), (F.selu(x), oracle.selu(a)),
        (F.softplus(x, 2.0), np.log1p(np.exp(2 * a)) / 2),
        (F.l1_loss(x, ms.Tensor(a * 0)), np.abs(a).mean()),
        (F.smooth_l1_loss(x, ms.Tensor(a * 0), beta=0.5),
         np.where(np.abs(a) < 0.5, 0.5 * a ** 2 / 0.5, np.abs(a) - 0.25).mean()),
        (mint.nn.GLU()(x), a[:, :2] * oracle.sigmoid(a[:, 2:])),
        (mint.nn.CrossEntropyLoss(label_smoothing=0.2)(x, ms.Tensor(np.array([0, 3, 1]))),
         oracle.cross_entropy(a, np.array([0, 3, 1]), 0.2)),
        (mint.nn.NLLLoss(reduction="sum")(x, ms.Tensor(np.array([0, 3, 1]))), -(a[0, 0] + a[1, 3] + a[2, 1])),
        (mint.nn.LayerNorm(4)(x), oracle.layer_norm(a, -1)),
        (mint.nn.Dropout(0.4)(x), a), (mint.nn.Dropout2d()(x), a),
        (mint.nn.MaxPool2d(2, 1)(ms.Tensor(a[None, None])), oracle.pool(a[None, None], 2, 1, 0, "max")),
    ]
    for i, (got, want) in enumerate(checks):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6, err_msg=str(i))
    emb = mint.nn.Embedding(5, 2, padding_idx=-1, _weight=ms.Tensor(np.arange(10, dtype=np.float32).reshape(5, 2)))
    assert emb.padding_idx == 4
    np.testing.assert_array_equal(emb(ms.Tensor(np.array([[4, 1]]))).asnumpy(), [[[8, 9], [2, 3]]])
    fresh = mint.nn.Embedding(50, 40, padding_idx=3)
    table = fresh.weight.asnumpy()
    assert np.all(table[3] == 0) and 0.9 < table.std() < 1.1


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (6, 2), (2, 3, 4)])
@pytest.mark.parametrize("ord_", ["nuc", 2, -2])
def test_spectral_and_nuclear_norms(shape, ord_):
    a = np.random.default_rng(sum(shape)).normal(size=shape).astype(np.float32)
    got = mint.linalg.matrix_norm(ms.Tensor(a), ord_).asnumpy()
    np.testing.assert_allclose(got, np.linalg.norm(a.astype(np.float64), ord_, axis=(-2, -1)), rtol=2e-5)


def test_nuclear_norm_gradient_and_keepdim():
    grad = ms.grad(lambda x: mint.linalg.matrix_norm(x, "nuc"))(ms.Tensor(np.diag([3.0, -2.0]).astype(np.float32)))
    np.testing.assert_allclose(grad.asnumpy(), [[1.0, 0.0], [0.0, -1.0]], atol=1e-6)
    x = ms.Tensor(np.random.default_rng(0).normal(size=(3, 2, 4)).astype(np.float32))
    assert mint.linalg.matrix_norm(x, 2, (0, 2), True).shape == (1, 2, 1)
    assert float(mint.norm(ms.Tensor(np.eye(3, dtype=np.float32)), "nuc")) == pytest.approx(3.0, rel=1e-6)


@pytest.mark.parametrize("dim", [0, 1])
def test_unique_along_a_dimension(dim):
    a = np.array([[2, 1], [1, 3], [2, 1], [1, 0]])
    a = a if dim == 0 else a.T
    values, inverse, counts = mint.unique(ms.Tensor(a), return_inverse=True, return_counts=True, dim=dim)
    want = np.unique(a, axis=dim, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.asnumpy(), want[0])
    np.testing.assert_array_equal(inverse.asnumpy(), want[1].reshape(-1))
    np.testing.assert_array_equal(counts.asnumpy(), want[2])


@pytest.mark.parametrize("align", [True, False])
def test_grid_sample_reflection_padding(align):
    img = ms.Tensor(np.arange(4, dtype=np.float32).reshape(1, 1, 1, 4))   # the value at x is x
    gx = np.array([1.5, -1.5, 3.0, 0.2], np.float32)
    grid = ms.Tensor(np.stack([gx, np.zeros(4, np.float32)], -1).reshape(1, 1, 4, 2))
    out = mint.nn.functional.grid_sample(img, grid, padding_mode="reflection", align_corners=align)
    if align:       # x = (g + 1) * 3 / 2, reflected about 0 and 3
        want = [2.25, 0.75, 0.0, 1.8]
    else:           # x = ((g + 1) * 4 - 1) / 2, reflected about -0.5 and 3.5, then clipped to [0, 3]
        want = [2.5, 0.5, 0.0, 1.9]   # 4.5 -> 2.5, -1.5 -> 0.5, 7.5 -> -0.5 -> 0, 1.9
    np.testing.assert_allclose(out.asnumpy().reshape(-1), want, rtol=1e-6, atol=1e-6)


def test_conv_transpose_output_size():
    layer = mint.nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1)
    x = ms.Tensor(np.ones((1, 3, 4, 4), np.float32))
    assert layer(x).shape == (1, 2, 7, 7)
    assert layer(x, (8, 7)).shape == (1, 2, 8, 7)
    w = layer.weight.asnumpy()
    full = mint.nn.functional.conv_transpose2d(x, layer.weight, layer.bias, 2, 1, 1).asnumpy()
    np.testing.assert_allclose(layer(x, (8, 8)).asnumpy(), full, rtol=1e-6)
    assert w.shape == (3, 2, 3, 3)
    with pytest.raises(ValueError, match="output_size"):
        layer(x, (10, 10))
