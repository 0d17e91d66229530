"""The nn_prims family against MindSpore 2.10's recorded outputs and gradients, the distributions of its random
samplers, seeding, channel dropout's mask and gradient, and MindSpore-style errors.

The recorded values come from ``tests/fixtures/ops/make_nn_prims_fixture.py`` (run with real MindSpore 2.10);
the cases it lists that 2.10 cannot run on the CPU are checked by the conformance suite's NumPy oracles only.
"""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

FIXTURES = pathlib.Path(__file__).parents[1] / "fixtures" / "ops"


def _load_cases():
    spec = importlib.util.spec_from_file_location("make_nn_prims_fixture", FIXTURES / "make_nn_prims_fixture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIX = _load_cases()
RECORDED = np.load(FIXTURES / "nn_prims_2.10.npz")
RECORDED_NAMES = sorted({k.split("/")[0] for k in RECORDED.files if "/" in k})


def _case(name):
    return next(c for c in FIX.CASES if c[0] == name)


@pytest.mark.parametrize("name", RECORDED_NAMES)
def test_matches_mindspore_2_10(name):
    _, prim, attrs, inputs, grad = _case(name)
    op = getattr(ops, prim)(**attrs)
    args = FIX.as_args(inputs, ms.Tensor)
    res = op(*args)
    res = res if isinstance(res, tuple) else (res,)
    # LSTM's last two outputs are MindSpore's device workspaces (their size is oneDNN's): not compared
    for i, t in enumerate(res[:3] if prim == "LSTM" else res):
        want = RECORDED[f"{name}/out{i}"]
        assert t.shape == want.shape, f"{name} output {i}"
        np.testing.assert_allclose(t.asnumpy(), want, rtol=1e-5, atol=1e-5, err_msg=f"{name} output {i}")
    if grad:
        w = ms.Tensor(FIX.grad_weight(res[0].shape))
        positions = FIX.grad_positions(grad)

        def f(*xs):
            y = op(*xs)
            y = y[0] if isinstance(y, tuple) else y
            return (y * w).sum()
        grads = ms.grad(f, grad_position=positions)(*args)
        for i, g in zip(positions, grads if isinstance(grads, tuple) else (grads,)):
            got, want = g.asnumpy(), RECORDED[f"{name}/grad{i}"]
            if prim == "CTCLoss":
                # 2.10's CTCLoss bprop leaves stray values past a sequence's length (its own gradient output is 0
                # there, as ours is): compare the steps inside each sequence
                inside = np.arange(got.shape[0])[:, None] < inputs[3][None, :]
                got, want = got[inside], want[inside]
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4, err_msg=f"{name} grad {i}")


def test_fixture_records_what_2_10_runs():
    skipped = [s.split(":")[0] for s in RECORDED["skipped"]]
    assert set(skipped) == {"soft_margin_loss", "rms_norm"}    # GPU/Ascend-only kernels in 2.10
    assert len(RECORDED_NAMES) + len(skipped) == len(FIX.CASES)


# --- layers and functions share the primitive --------------------------------------------------------------
def test_conv3d_transpose_layer_function_and_primitive_agree():
    rng = np.random.default_rng(3)
    x = ms.Tensor(rng.normal(size=(1, 2, 3, 3, 2)).astype(np.float32))
    net = nn.Conv3dTranspose(2, 4, (2, 3, 2), stride=2, pad_mode="pad", padding=1, output_padding=1, group=2,
                             has_bias=True)
    ref = ops.Conv3DTranspose(2, 4, (2, 3, 2), pad_mode="pad", pad=1, stride=2, group=2, output_padding=1)
    want = ref(x, net.weight) + net.bias.reshape(1, 4, 1, 1, 1)
    np.testing.assert_allclose(net(x).asnumpy(), want.asnumpy(), rtol=1e-6, atol=1e-6)
    got = ops.conv3d_transpose(x, net.weight, "pad", 1, 2, 1, 2, 1)
    np.testing.assert_allclose(got.asnumpy(), ref(x, net.weight).asnumpy(), rtol=1e-6)


def test_layers_reuse_the_primitives():
    rng = np.random.default_rng(4)
    x = ms.Tensor(rng.normal(size=(2, 6, 3, 3)).astype(np.float32))
    np.testing.assert_allclose(nn.LRN(2, 1.0, 0.5, 0.7)(x).asnumpy(), ops.LRN(2, 1.0, 0.5, 0.7)(x).asnumpy())
    np.testing.assert_array_equal(nn.ChannelShuffle(3)(x).asnumpy(), ops.ChannelShuffle(3)(x).asnumpy())
    x5 = ms.Tensor(rng.normal(size=(1, 2, 4, 5, 6)).astype(np.float32))
    np.testing.assert_allclose(nn.AdaptiveAvgPool3d((2, 3, 2))(x5).asnumpy(),
                               ops.AdaptiveAvgPool3D((2, 3, 2))(x5).asnumpy())
    y, i = nn.AdaptiveMaxPool3d(2, return_indices=True)(x5)
    y2, i2 = ops.AdaptiveMaxPool3D()(x5, (2, 2, 2))
    np.testing.assert_array_equal(y.asnumpy(), y2.asnumpy())
    np.testing.assert_array_equal(i.asnumpy(), i2.asnumpy())
    logits = ms.Tensor(rng.normal(size=(3, 4)).astype(np.float32))
    target = ms.Tensor(np.array([1, 0, 3], np.int64))
    np.testing.assert_allclose(nn.MultiMarginLoss(p=2, margin=0.5)(logits, target).asnumpy(),
                               ops.MultiMarginLoss(2, 0.5)(logits, target).asnumpy())


# --- random samplers ------------------------------------------------------------------------------
N = 20000


def test_truncated_normal_is_within_two_sigma():
    z = ops.TruncatedNormal(seed=3)((N,)).asnumpy()
    assert np.abs(z).max() <= 2.0
    assert abs(z.mean()) < 0.03
    assert abs(z.std() - 0.8796) < 0.02          # the standard deviation of N(0, 1) truncated to [-2, 2]


def test_random_gamma_moments():
    alpha = ms.Tensor(np.array([0.5, 2.0, 5.0], np.float32))
    g = ops.RandomGamma(seed=1)((N,), alpha).asnumpy()
    assert g.shape == (N, 3)
    np.testing.assert_allclose(g.mean(0), [0.5, 2.0, 5.0], rtol=0.05)
    np.testing.assert_allclose(g.var(0), [0.5, 2.0, 5.0], rtol=0.1)


def test_random_poisson_moments_and_dtype():
    rate = ms.Tensor(np.array([1.0, 7.5], np.float32))
    p = ops.RandomPoisson(seed=2, dtype=ms.int32)((N,), rate)
    assert p.dtype == ms.int32
    np.testing.assert_allclose(p.asnumpy().mean(0), [1.0, 7.5], rtol=0.05)
    np.testing.assert_allclose(p.asnumpy().var(0), [1.0, 7.5], rtol=0.1)


def test_cauchy_quartiles():
    c = ops.Cauchy([N], median=1.0, sigma=2.0)().asnumpy()
    q1, q2, q3 = np.quantile(c, [0.25, 0.5, 0.75])   # median +- sigma
    assert abs(q2 - 1.0) < 0.1 and abs(q1 + 1.0) < 0.15 and abs(q3 - 3.0) < 0.15


def test_log_normal_reverse_log_moments():
    x = ms.Tensor(np.zeros((N,), np.float32))
    y = ops.LogNormalReverse(mean=0.5, std=0.3)(x).asnumpy()
    assert y.dtype == np.float32 and (y > 0).all()
    assert abs(np.log(y).mean() - 0.5) < 0.01 and abs(np.log(y).std() - 0.3) < 0.01


def test_parameterized_truncated_normal_bounds_per_row():
    mean, std = ms.Tensor(np.array([0.0, 10.0], np.float32)), ms.Tensor(np.array([1.0, 3.0], np.float32))
    lo, hi = ms.Tensor(np.array([-0.5, 9.0], np.float32)), ms.Tensor(np.array([2.0, 20.0], np.float32))
    z = ops.ParameterizedTruncatedNormal(seed=4)((2, N), mean, std, lo, hi).asnumpy()
    assert z[0].min() >= -0.5 and z[0].max() <= 2.0 and z[1].min() >= 9.0 and z[1].max() <= 20.0
    # the mean of N(0, 1) truncated to [-0.5, 2]: (phi(-0.5) - phi(2)) / (Phi(2) - Phi(-0.5))
    assert abs(z[0].mean() - 0.4458) < 0.02


def test_non_deterministic_ints_cover_the_range():
    v = ops.NonDeterministicInts(ms.int64)((N,)).asnumpy()
    assert v.dtype == np.int64
    assert v.min() < -(2 ** 61) and v.max() > 2 ** 61


def test_draws_are_reproducible_after_set_seed():
    def draw():
        ms.set_seed(11)
        a = ops.TruncatedNormal()((5,)).asnumpy()
        b = ops.RandomGamma()((5,), ms.Tensor(np.ones(2, np.float32))).asnumpy()
        op = ops.Cauchy([4])
        return a, b, op().asnumpy(), op().asnumpy()
    first, second = draw(), draw()
    for u, v in zip(first, second):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(first[2], first[3])       # each call advances the stream
    seeded = [ops.RandomPoisson(seed=5, seed2=6)((8,), ms.Tensor(np.array([3.0], np.float32))).asnumpy()
              for _ in range(2)]
    np.testing.assert_array_equal(*seeded)


# --- channel dropout ------------------------------------------------------------------------------
def test_dropout2d_drops_whole_channels_and_scales():
    x = ms.Tensor(np.ones((50, 40, 3, 3), np.float32))
    out, mask = ops.Dropout2D(keep_prob=0.7)(x)
    out, mask = out.asnumpy(), mask.asnumpy()
    assert mask.dtype == np.bool_
    per_channel = mask.reshape(50, 40, -1)
    assert (per_channel.all(-1) | ~per_channel.any(-1)).all()   # a channel is kept or dropped whole
    assert abs(per_channel[..., 0].mean() - 0.7) < 0.03
    np.testing.assert_allclose(out, np.where(mask, 1 / 0.7, 0.0), rtol=1e-6)


def test_dropout3d_gradient_uses_the_forward_mask():
    x = ms.Tensor(np.random.default_rng(0).normal(size=(4, 5, 2, 2, 2)).astype(np.float32))
    w = ms.Tensor(np.random.default_rng(1).uniform(0.5, 1.5, (4, 5, 2, 2, 2)).astype(np.float32))
    op = ops.Dropout3D(keep_prob=0.6)

    def f(v):
        out, mask = op(v)
        return (out * w).sum(), mask
    (_, mask), g = ms.value_and_grad(f, has_aux=True)(x)
    np.testing.assert_allclose(g.asnumpy(), w.asnumpy() * mask.asnumpy() / 0.6, rtol=1e-6)


def test_dropout_functions_use_the_primitives():
    x = ms.Tensor(np.ones((20, 30, 2, 2), np.float32))
    y = ops.dropout2d(x, p=0.25).asnumpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert 0.6 < kept.mean() < 0.9
    np.testing.assert_array_equal(ops.dropout2d(x, 0.5, training=False).asnumpy(), x.asnumpy())


# --- functions ------------------------------------------------------------------------------------
def test_bidense_matches_einsum():
    rng = np.random.default_rng(5)
    x1, x2 = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 3, 5))
    w, b = rng.normal(size=(6, 4, 5)), rng.normal(size=(6,))
    got = ops.bidense(ms.Tensor(x1), ms.Tensor(x2), ms.Tensor(w), ms.Tensor(b)).asnumpy()
    np.testing.assert_allclose(got, np.einsum("abi,oij,abj->abo", x1, w, x2) + b, rtol=1e-10)


def _np_attention(q, k, v, scale, mask=None):
    s = np.einsum("bnqd,bnkd->bnqk", q, k) * scale
    if mask is not None:
        s = np.where(mask, -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return np.einsum("bnqk,bnkd->bnqd", p, v)


def test_flash_attention_score_layouts_mask_and_gqa():
    rng = np.random.default_rng(6)
    b, n, s, d = 2, 4, 5, 3
    q, k, v = (rng.normal(size=(b, n, s, d)) for _ in range(3))
    mask = rng.uniform(size=(b, 1, s, s)) < 0.3
    mask[..., 0] = False
    want = _np_attention(q, k, v, 0.5, mask)
    got = ops.flash_attention_score(ms.Tensor(q), ms.Tensor(k), ms.Tensor(v), n, attn_mask=ms.Tensor(mask),
                                    scalar_value=0.5, input_layout="BNSD")
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)
    bsh = lambda t: t.transpose(0, 2, 1, 3).reshape(b, s, -1)  # noqa: E731
    got = ops.flash_attention_score(ms.Tensor(bsh(q)), ms.Tensor(bsh(k)), ms.Tensor(bsh(v)), n,
                                    attn_mask=ms.Tensor(mask), scalar_value=0.5)
    np.testing.assert_allclose(got.asnumpy(), bsh(want), rtol=1e-5, atol=1e-6)
    # grouped-query attention: 2 key/value heads shared by pairs of query heads; causal (sparse_mode 2)
    k2, v2 = k[:, :2], v[:, :2]
    causal = np.triu(np.ones((s, s), bool), 1)
    want = _np_attention(q, np.repeat(k2, 2, 1), np.repeat(v2, 2, 1), 1.0, causal)
    got = ops.flash_attention_score(ms.Tensor(bsh(q)), ms.Tensor(bsh(k2)), ms.Tensor(bsh(v2)), n, sparse_mode=2)
    np.testing.assert_allclose(got.asnumpy(), bsh(want), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("sparse_mode,pre,nxt,sq,skv", [
    (0, 2147483647, 2147483647, 5, 7), (0, 1, 2, 6, 6), (1, 2147483647, 0, 5, 5), (2, 2147483647, 2147483647, 6, 6),
    (3, 2147483647, 2147483647, 4, 6), (3, 2147483647, 2147483647, 6, 4), (4, 1, 1, 5, 7)])
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_flash_attention_score_fused_primitive_matches_the_composition(sparse_mode, pre, nxt, sq, skv, mode):
    """Without dropout, bias and attn_mask, flash_attention_score is the fused ScaledDotProductAttention; an all-False
    attn_mask forces the composition of primitives. Both give the same values and gradients (float32: both compute in
    float32) for every sparse mode (rows that see no key included: sparse_mode 3 with more queries than keys), BSH
    and grouped-query heads."""
    rng = np.random.default_rng(8)
    b, n, d = 2, 4, 8
    q, k, v = (rng.normal(size=shape).astype(np.float32) for shape in ((b, sq, n * d), (b, skv, 2 * d),
                                                                        (b, skv, 2 * d)))
    w = ms.Tensor(rng.normal(size=(b, sq, n * d)).astype(np.float32))
    kw = dict(scalar_value=0.3, pre_tokens=pre, next_tokens=nxt, sparse_mode=sparse_mode)
    none_masked = ms.Tensor(np.zeros((b, 1, sq, skv), bool))

    def loss(masked):
        def f(q, k, v):
            out = ops.flash_attention_score(q, k, v, n, attn_mask=none_masked if masked else None, **kw)
            return (out * w).sum()
        return ms.jit(f) if mode == "graph" else f
    args = [ms.Tensor(a) for a in (q, k, v)]
    fused, plain = loss(False), loss(True)
    np.testing.assert_allclose(fused(*args).asnumpy(), plain(*args).asnumpy(), rtol=1e-5, atol=1e-5)
    g_fused = ms.grad(fused, grad_position=(0, 1, 2))(*args)
    g_plain = ms.grad(plain, grad_position=(0, 1, 2))(*args)
    for name, a, c in zip("qkv", g_fused, g_plain):
        np.testing.assert_allclose(a.asnumpy(), c.asnumpy(), rtol=1e-4, atol=1e-5, err_msg=f"d{name}")


def test_flash_attention_score_runs_the_fused_primitive_only_without_dropout_bias_or_mask(monkeypatch):
    from mindspore.ops._defs import nn_prims_ext
    calls = []
    real = nn_prims_ext.ScaledDotProductAttention.__call__
    monkeypatch.setattr(nn_prims_ext.ScaledDotProductAttention, "__call__",
                        lambda self, *a: calls.append((self.scale, self.pre_tokens, self.next_tokens)) or real(self, *a))
    x = ms.Tensor(np.ones((1, 3, 8), np.float32))
    ops.flash_attention_score(x, x, x, 2, scalar_value=0.5, sparse_mode=2)
    assert calls == [(0.5, 2147483647, 0)]
    ops.flash_attention_score(x, x, x, 2, attn_mask=ms.Tensor(np.zeros((1, 1, 3, 3), bool)))
    ops.flash_attention_score(x, x, x, 2, real_shift=ms.Tensor(np.zeros((1, 2, 3, 3), np.float32)))
    ops.flash_attention_score(x, x, x, 2, keep_prob=0.5)
    assert len(calls) == 1


# --- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("make,exc,match", [
    (lambda: ops.LRN(depth_radius=-1), ValueError, "For 'LRN', the 'depth_radius'"),
    (lambda: ops.LRN(bias=1), TypeError, "For 'LRN', the 'bias' must be a float"),
    (lambda: ops.MultiMarginLoss(p=3), ValueError, "For 'MultiMarginLoss', the 'p' must be 1 or 2"),
    (lambda: ops.SoftMarginLoss("avg"), ValueError, "For 'SoftMarginLoss', the 'reduction'"),
    (lambda: ops.Conv3DTranspose(2, 3, 2, stride=2, output_padding=2), ValueError, "'output_padding' must be less"),
    (lambda: ops.Conv3DTranspose(2, 3, 2, pad=1), ValueError, "the 'pad' must be zero"),
    (lambda: ops.Dropout2D(keep_prob=1.5), ValueError, "For 'Dropout2D', the 'keep_prob'"),
    (lambda: ops.TruncatedNormal(dtype=ms.int32), TypeError, "For 'TruncatedNormal', the 'dtype'"),
    (lambda: ops.Cauchy([2], sigma=0.0), ValueError, "For 'Cauchy', the 'sigma'"),
])
def test_attribute_errors(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_shape_errors():
    x = ms.Tensor(np.ones((2, 3, 4), np.float32))
    with pytest.raises(ValueError, match="For 'LRN', the 'x' must be a 4-D tensor"):
        ops.LRN()(x)
    with pytest.raises(ValueError, match="For 'ChannelShuffle', the channels of 'x' must be divisible"):
        ops.ChannelShuffle(2)(x)
    with pytest.raises(ValueError, match="For 'Conv3DTranspose', the 'weight' shape must be"):
        ops.Conv3DTranspose(2, 3, 2)(ms.Tensor(np.ones((1, 2, 2, 2, 2), np.float32)),
                                     ms.Tensor(np.ones((2, 4, 2, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="For 'MaxUnpool2D', the 'argmax' values must be in"):
        ops.MaxUnpool2D(2)(ms.Tensor(np.ones((1, 1, 1, 1), np.float32)), ms.Tensor(np.array([[[[9]]]])))
    with pytest.raises(TypeError, match="For 'MultiMarginLoss', the type of 'target'"):
        ops.MultiMarginLoss()(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.array([0, 1], np.int32)))
    with pytest.raises(ValueError, match="For 'RmsNorm', the shape of 'gamma'"):
        ops.RmsNorm()(x, ms.Tensor(np.ones((3,), np.float32)))


# --- NHWC fractional pooling -------------------------------------------------------------------------------
@pytest.mark.parametrize("pseudo_random", [False, True])
@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("kind", ["FractionalMaxPool", "FractionalAvgPool"])
def test_fractional_pool_cells_follow_its_boundaries(kind, overlapping, pseudo_random):
    x = np.random.default_rng(8).normal(size=(2, 11, 9, 3)).astype(np.float32)
    y, row, col = getattr(ops, kind)([1.0, 1.7, 1.4, 1.0], pseudo_random, overlapping, seed=9)(ms.Tensor(x))
    y, row, col = y.asnumpy(), row.asnumpy(), col.asnumpy()
    assert y.shape == (2, 6, 6, 3) and row.shape == (7,) and col.shape == (7,)
    for seq, n in ((row, 11), (col, 9)):
        assert seq[0] == 0 and seq[-1] == n and (np.diff(seq) > 0).all()
        if not pseudo_random:        # random boundaries: cells of floor(n / out) or one more
            assert set(np.diff(seq)) <= {n // (len(seq) - 1), n // (len(seq) - 1) + 1}
    reduce = np.max if kind == "FractionalMaxPool" else np.mean
    extra = 1 if overlapping else 0
    for i, j in np.ndindex(6, 6):
        block = x[:, row[i]:min(row[i + 1] + extra, 11), col[j]:min(col[j + 1] + extra, 9), :]
        np.testing.assert_allclose(y[:, i, j], reduce(block, axis=(1, 2)), rtol=1e-6)


def test_fractional_pool_deterministic_and_seeded_streams():
    x = ms.Tensor(np.random.default_rng(9).normal(size=(1, 20, 20, 1)).astype(np.float32))
    fixed = ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0], deterministic=True, seed=5, seed2=2)
    np.testing.assert_array_equal(fixed(x)[1].asnumpy(), fixed(x)[1].asnumpy())
    streaming = ops.FractionalMaxPool([1.0, 1.5, 1.5, 1.0], seed=5)
    draws = [streaming(x)[1].asnumpy() for _ in range(6)]
    assert any(not np.array_equal(draws[0], d) for d in draws[1:])     # each call advances the stream
