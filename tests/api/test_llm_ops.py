"""MindSpore 2.10's LLM operators (Ascend-only there: its CPU build raises "The kernel ... unregistered"):
``ops.moe_token_permute`` / ``moe_token_unpermute``, ``ops.ring_attention_update``, ``ops.ReshapeAndCache``,
``ops.PagedAttention`` / ``PagedAttentionMask``, against NumPy oracles written from the operators' formulas, their
gradients against finite differences, and their argument checks."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, ops

RNG = np.random.default_rng(7)


# --- MoE token permutation -------------------------------------------------------------------------------------------
def np_permute(tokens, indices, num_out_tokens=None):
    flat = indices.reshape(-1)
    topk = 1 if indices.ndim == 1 else indices.shape[1]
    order = np.argsort(flat, kind="stable")
    rows = order // topk
    if num_out_tokens:
        rows = rows[:num_out_tokens]
    return tokens[rows], np.argsort(order).astype(np.int32)


def np_unpermute(permuted, sorted_indices, probs=None):
    topk = 1 if probs is None else probs.shape[1]
    picked = np.zeros((sorted_indices.size, permuted.shape[1]), np.float64)
    for i, r in enumerate(sorted_indices):
        if r < permuted.shape[0]:
            picked[i] = permuted[r]
    picked = picked.reshape(-1, topk, permuted.shape[1])
    if probs is not None:
        picked = picked * probs[..., None]
    return picked.sum(1)


def test_moe_token_permute_docstring_example():
    tokens = Tensor([[1, 1, 1], [7, 7, 7], [2, 2, 2], [1, 1, 1], [2, 2, 2], [3, 3, 3]], ms.bfloat16)
    out, idx = ops.moe_token_permute(tokens, Tensor([5, 0, 3, 1, 2, 4], ms.int32))
    assert out.dtype == ms.bfloat16 and idx.dtype == ms.int32
    np.testing.assert_array_equal(out.float().asnumpy()[:, 0], [7, 1, 2, 2, 3, 1])
    np.testing.assert_array_equal(idx.asnumpy(), [5, 0, 3, 1, 2, 4])


@pytest.mark.parametrize("num_out_tokens", [None, 0, 7, -2])
def test_moe_token_permute_topk_with_ties(num_out_tokens):
    tokens = RNG.standard_normal((5, 4)).astype(np.float32)
    indices = RNG.integers(0, 3, (5, 2)).astype(np.int64)      # repeated experts: the order of ties matters
    out, idx = ops.moe_token_permute(Tensor(tokens), Tensor(indices), num_out_tokens)
    want_out, want_idx = np_permute(tokens, indices, num_out_tokens)
    np.testing.assert_array_equal(out.asnumpy(), want_out)
    np.testing.assert_array_equal(idx.asnumpy(), want_idx)


def test_moe_token_unpermute_inverts_permute_with_probs():
    tokens = RNG.standard_normal((4, 3)).astype(np.float32)
    indices = RNG.integers(0, 4, (4, 2)).astype(np.int32)
    probs = RNG.uniform(0, 1, (4, 2)).astype(np.float32)
    permuted, idx = ops.moe_token_permute(Tensor(tokens), Tensor(indices))
    got = ops.moe_token_unpermute(permuted, idx, Tensor(probs)).asnumpy()
    np.testing.assert_allclose(got, np_unpermute(permuted.asnumpy(), idx.asnumpy(), probs), rtol=1e-6)
    np.testing.assert_allclose(got, tokens * probs.sum(1, keepdims=True), rtol=1e-5)
    dropped, idx = ops.moe_token_permute(Tensor(tokens), Tensor(indices), 5)     # 3 of the 8 copies dropped
    np.testing.assert_allclose(ops.moe_token_unpermute(dropped, idx, Tensor(probs)).asnumpy(),
                               np_unpermute(dropped.asnumpy(), idx.asnumpy(), probs), rtol=1e-6)


def test_moe_permute_and_unpermute_gradients():
    tokens = RNG.standard_normal((3, 2)).astype(np.float32)
    indices = Tensor(np.array([[1, 0], [0, 2], [1, 1]], np.int32))
    probs = RNG.uniform(0, 1, (3, 2)).astype(np.float32)
    weight = RNG.standard_normal((6, 2)).astype(np.float32)

    def loss(t, p):
        permuted, idx = ops.moe_token_permute(t, indices)
        return (ops.moe_token_unpermute(permuted * Tensor(weight), idx, p) ** 2).sum()

    gt, gp = ms.grad(loss, grad_position=(0, 1))(Tensor(tokens), Tensor(probs))

    def np_loss(t, p):
        permuted, idx = np_permute(t, indices.asnumpy())
        return (np_unpermute(permuted * weight, idx, p) ** 2).sum()
    for got, x, f in ((gt, tokens, lambda v: np_loss(v, probs)), (gp, probs, lambda v: np_loss(tokens, v))):
        x64, num = x.astype(np.float64), np.zeros(x.shape)
        for i in np.ndindex(x.shape):
            d = np.zeros(x.shape)
            d[i] = 1e-6
            num[i] = (f(x64 + d) - f(x64 - d)) / 2e-6
        np.testing.assert_allclose(got.asnumpy(), num, rtol=1e-4, atol=1e-4)


def test_moe_token_permute_argument_errors():
    tokens = Tensor(np.ones((6, 3), np.float32))
    with pytest.raises(TypeError, match="indices"):
        ops.moe_token_permute(tokens, Tensor(np.zeros(6, np.float32)))
    with pytest.raises(ValueError, match="padded_mode"):
        ops.moe_token_permute(tokens, Tensor(np.zeros(6, np.int32)), padded_mode=True)
    with pytest.raises(ValueError, match="512"):
        ops.moe_token_permute(tokens, Tensor(np.zeros((6, 513), np.int32)))
    with pytest.raises(RuntimeError, match="first dim"):
        ops.moe_token_permute(tokens, Tensor(np.zeros(5, np.int32)))
    with pytest.raises(TypeError, match="sorted_indices"):
        ops.moe_token_unpermute(tokens, Tensor(np.zeros(6, np.int64)))


# --- ring attention ------------------------------------------------------------------------------------------------
def np_attention_parts(q, k, v):
    """Attention of (S, B, N, D) queries over keys: output, and the row max and sum of exp as (B, N, S, 8)."""
    scores = np.einsum("sbnd,tbnd->bnst", q, k)
    m = scores.max(-1, keepdims=True)
    e = np.exp(scores - m)
    out = np.einsum("bnst,tbnd->sbnd", e / e.sum(-1, keepdims=True), v)
    return out, np.repeat(m, 8, -1), np.repeat(e.sum(-1, keepdims=True), 8, -1)


def test_ring_attention_update_merges_two_key_halves_sbh():
    s, b, n, d = 3, 2, 2, 4
    q, k, v = (RNG.standard_normal((s if i == 0 else 6, b, n, d)) for i in range(3))
    o1, m1, s1 = np_attention_parts(q, k[:3], v[:3])
    o2, m2, s2 = np_attention_parts(q, k[3:], v[3:])
    want, wm, ws = np_attention_parts(q, k, v)
    args = [Tensor(o1.reshape(s, b, n * d).astype(np.float32)), Tensor(m1.astype(np.float32)),
            Tensor(s1.astype(np.float32)), Tensor(o2.reshape(s, b, n * d).astype(np.float32)),
            Tensor(m2.astype(np.float32)), Tensor(s2.astype(np.float32))]
    out, m, sm = ops.ring_attention_update(*args)
    assert out.shape == (s, b, n * d) and m.shape == (b, n, s, 8)
    np.testing.assert_allclose(out.asnumpy(), want.reshape(s, b, n * d), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(m.asnumpy(), wm, rtol=1e-6)
    np.testing.assert_allclose(sm.asnumpy(), ws, rtol=1e-5)


def test_ring_attention_update_tnd_and_errors():
    t, n, d = 4, 2, 64
    o1, o2 = (RNG.standard_normal((t, n, d)).astype(np.float32) for _ in range(2))
    m1, m2 = (np.repeat(RNG.standard_normal((t, n, 1)), 8, -1).astype(np.float32) for _ in range(2))
    s1, s2 = (np.repeat(RNG.uniform(0.5, 2, (t, n, 1)), 8, -1).astype(np.float32) for _ in range(2))
    seq = Tensor(np.array([0, 1, 4], np.int64))
    out, m, s = ops.ring_attention_update(*(Tensor(x) for x in (o1, m1, s1, o2, m2, s2)), seq, "TND")
    mm = np.maximum(m1, m2)
    w1, w2 = s1 * np.exp(m1 - mm), s2 * np.exp(m2 - mm)
    want = o1 * (w1 / (w1 + w2))[..., :1] + o2 * (w2 / (w1 + w2))[..., :1]
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s.asnumpy(), w1 + w2, rtol=1e-6)
    with pytest.raises(RuntimeError, match="actual_seq_qlen"):
        ops.ring_attention_update(*(Tensor(x) for x in (o1, m1, s1, o2, m2, s2)), None, "TND")
    with pytest.raises(ValueError, match="rank"):
        ops.ring_attention_update(*(Tensor(x) for x in (o1, m1, s1, o2, m2, s2)))    # SBH wants (B, N, S, 8)
    with pytest.raises(ValueError, match="layout"):
        ops.ring_attention_update(*(Tensor(x) for x in (o1, m1, s1, o2, m2, s2)), seq, "BSH")


# --- paged key/value cache -----------------------------------------------------------------------------------------
def test_reshape_and_cache_writes_slots_in_place():
    blocks, size, heads, dim = 3, 2, 2, 4
    key = RNG.standard_normal((4, heads, dim)).astype(np.float16)
    value = RNG.standard_normal((4, heads * dim)).astype(np.float16)
    kc = Parameter(Tensor(np.zeros((blocks, size, heads, dim), np.float16)), name="kc")
    vc = Parameter(Tensor(np.zeros((blocks, size, heads * dim), np.float16)), name="vc")
    slots = np.array([5, -1, 0, 2], np.int32)
    out = ops.ReshapeAndCache()(Tensor(key), Tensor(value), kc, vc, Tensor(slots))
    np.testing.assert_array_equal(out.asnumpy(), key)
    want_k = np.zeros((blocks * size, heads, dim), np.float16)
    want_v = np.zeros((blocks * size, heads * dim), np.float16)
    for t, slot in enumerate(slots):
        if slot >= 0:
            want_k[slot], want_v[slot] = key[t], value[t]
    np.testing.assert_array_equal(kc.asnumpy().reshape(want_k.shape), want_k)
    np.testing.assert_array_equal(vc.asnumpy().reshape(want_v.shape), want_v)
    with pytest.raises(RuntimeError, match="num_tokens of slot mapping"):
        ops.ReshapeAndCache()(Tensor(key), None, kc, None, Tensor(slots[:3]))


def np_paged_attention(q, kc, vc, tables, lens, scale, kv_heads, q_counts=None, mask=None, alibi=None,
                       trapezoidal=False):
    """Token by token: gather the sequence's blocks, keep its first lens[b] keys, softmax attention."""
    tokens, heads, _ = q.shape
    batch = tables.shape[0]
    q_counts = np.full(batch, tokens // batch) if q_counts is None else q_counts
    seq = np.repeat(np.arange(batch), q_counts)
    out = np.zeros(q.shape[:2] + (vc.shape[-1],))
    for t in range(tokens):
        b = seq[t]
        later = np.cumsum(q_counts)[b] - t - 1
        n_keys = lens[b] - (later if trapezoidal else 0)
        k = np.concatenate([kc[blk] for blk in tables[b]])[:n_keys]
        v = np.concatenate([vc[blk] for blk in tables[b]])[:n_keys]
        for h in range(heads):
            kh = h // (heads // kv_heads)
            sc = scale * k[:, kh] @ q[t, h]
            if alibi is not None:
                sc = sc + alibi[t, h, -1, :n_keys]
            if mask is not None:
                sc = sc + mask[t, :n_keys]
            p = np.exp(sc - sc.max())
            out[t, h] = (p / p.sum()) @ v[:, kh]
    return out


def _paged_inputs(tokens=3, heads=4, kv_heads=2, dim=8, blocks=6, size=4):
    q = RNG.standard_normal((tokens, heads, dim)).astype(np.float32)
    kc = RNG.standard_normal((blocks, size, kv_heads, dim)).astype(np.float32)
    vc = RNG.standard_normal((blocks, size, kv_heads, dim)).astype(np.float32)
    tables = np.array([[2, 0], [5, 1], [3, 4]], np.int32)
    lens = np.array([5, 8, 1], np.int32)
    return q, kc, vc, tables, lens


def test_paged_attention_decode_grouped_heads():
    q, kc, vc, tables, lens = _paged_inputs()
    pa = ops.PagedAttention(4, 0.35, 2)
    got = pa(Tensor(q), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(lens))
    assert got.shape == q.shape and got.dtype == ms.float32
    want = np_paged_attention(q, kc, vc, tables, lens, 0.35, 2)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-6)
    # the (tokens, hidden) layout with (blocks, block_size, hidden) caches, in float16
    got16 = pa(Tensor(q.reshape(3, -1).astype(np.float16)), Tensor(kc.reshape(6, 4, -1).astype(np.float16)),
               Tensor(vc.reshape(6, 4, -1).astype(np.float16)), Tensor(tables), Tensor(lens))
    assert got16.shape == (3, 32) and got16.dtype == ms.float16
    np.testing.assert_allclose(got16.asnumpy().astype(np.float32), want.reshape(3, -1), rtol=2e-2, atol=2e-2)


def test_paged_attention_q_seq_lens_mask_and_trapezoidal():
    q, kc, vc, tables, lens = _paged_inputs(tokens=4)
    counts = np.array([2, 1, 1], np.int32)
    mask = np.where(RNG.uniform(size=(4, 8)) < 0.3, -10000.0, 0.0).astype(np.float32)
    mask[:, 0] = 0
    got = ops.PagedAttention(4, 0.35, 2)(Tensor(q), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(lens), None,
                                          None, Tensor(mask), Tensor(counts))
    np.testing.assert_allclose(got.asnumpy(), np_paged_attention(q, kc, vc, tables, lens, 0.35, 2, counts, mask),
                               rtol=1e-5, atol=1e-6)
    trap = ops.PagedAttention(4, 0.35, 2, mask_mode="TRAPEZOIDAL")
    got = trap(Tensor(q), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(lens), q_seq_lens=Tensor(counts))
    np.testing.assert_allclose(got.asnumpy(), np_paged_attention(q, kc, vc, tables, lens, 0.35, 2, counts,
                                                                 trapezoidal=True), rtol=1e-5, atol=1e-6)


def test_paged_attention_mask_alibi_and_errors():
    q, kc, vc, tables, lens = _paged_inputs()
    alibi = RNG.standard_normal((3, 4, 1, 8)).astype(np.float32)
    got = ops.PagedAttentionMask(4, 0.35, 2)(Tensor(q), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(lens), None,
                                             None, Tensor(alibi))
    np.testing.assert_allclose(got.asnumpy(), np_paged_attention(q, kc, vc, tables, lens, 0.35, 2, alibi=alibi),
                               rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="kv_head_num"):      # built as in 2.10; the call checks
        ops.PagedAttention(4, 0.35, 3)(Tensor(q), Tensor(kc), Tensor(vc), Tensor(tables), Tensor(lens))
    with pytest.raises(ValueError, match="mask_mode"):
        ops.PagedAttention(4, 0.35, 2, mask_mode="CAUSAL")
    with pytest.raises(TypeError, match="block_tables"):
        ops.PagedAttention(4, 0.35, 2)(Tensor(q), Tensor(kc), Tensor(vc), Tensor(tables.astype(np.float32)),
                                       Tensor(lens))


def test_llm_operators_are_in_their_2_10_namespaces():
    from mindspore.ops.operations import nn_ops
    for name in ("ApplyRotaryPosEmb", "GroupTopk", "PagedAttention", "PagedAttentionMask", "ReshapeAndCache"):
        assert getattr(ops, name) is getattr(nn_ops, name)
    for name in ("moe_token_permute", "moe_token_unpermute", "ring_attention_update", "prompt_flash_attention",
                 "incre_flash_attention", "fused_infer_attention_score", "speed_fusion_attention",
                 "moe_init_routing_v2"):
        assert callable(getattr(ops, name))


# --- inference flash attention -------------------------------------------------------------------------------------
def np_attention(q, k, v, scale, hidden, bias=None):
    """(B, N, Sq, D) queries over (B, Nkv, Skv, D) keys; ``hidden`` (broadcast to (B, N, Sq, Skv)) True where a key
    is excluded; a row seeing no key gives zeros."""
    rep = q.shape[1] // k.shape[1]
    k, v = np.repeat(k, rep, 1), np.repeat(v, rep, 1)
    sc = scale * np.einsum("bnqd,bnkd->bnqk", q, k) + (0 if bias is None else bias)
    hidden = np.broadcast_to(hidden, sc.shape)
    sc = np.where(hidden, -np.inf, sc)
    top = np.where(np.isfinite(sc.max(-1, keepdims=True)), sc.max(-1, keepdims=True), 0)
    e = np.where(hidden, 0, np.exp(sc - top))
    tot = e.sum(-1, keepdims=True)
    return np.einsum("bnqk,bnkd->bnqd", np.divide(e, tot, out=np.zeros_like(e), where=tot > 0), v)


def bsh(x):     # (B, N, S, D) -> (B, S, N * D)
    return x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1)


def test_prompt_flash_attention_gqa_mask_band_and_lengths():
    b, n, nkv, sq, skv, d = 2, 4, 2, 5, 6, 8
    q = RNG.standard_normal((b, n, sq, d)).astype(np.float32)
    k, v = (RNG.standard_normal((b, nkv, skv, d)).astype(np.float32) for _ in range(2))
    mask = RNG.uniform(size=(b, sq, skv)) < 0.2
    pse = RNG.standard_normal((1, n, sq, skv)).astype(np.float32)
    q_lens, kv_lens = np.array([5, 3]), np.array([6, 4])
    got = ops.prompt_flash_attention(Tensor(bsh(q)), Tensor(bsh(k)), Tensor(bsh(v)), Tensor(mask), q_lens.tolist(),
                                     Tensor(kv_lens), Tensor(pse), num_heads=n, scale_value=0.3, pre_tokens=2,
                                     next_tokens=1, num_key_value_heads=nkv)
    diff = np.arange(skv)[None, :] - np.arange(sq)[:, None]
    hidden = mask[:, None] | ((diff < -2) | (diff > 1)) | (np.arange(skv) >= kv_lens[:, None, None, None])
    want = np_attention(q, k, v, 0.3, hidden, pse)
    want[np.arange(sq)[None, None, :, None] >= q_lens[:, None, None, None] + np.zeros_like(want, bool)] = 0
    assert got.shape == (b, sq, n * d)
    np.testing.assert_allclose(got.asnumpy(), bsh(want), rtol=1e-5, atol=1e-6)
    # without a mask sparse mode 0 ignores the band; BNSD in float16
    got = ops.prompt_flash_attention(Tensor(q.astype(np.float16)), Tensor(k.astype(np.float16)),
                                     Tensor(v.astype(np.float16)), num_heads=n, input_layout="BNSD",
                                     num_key_value_heads=nkv)
    assert got.dtype == ms.float16
    np.testing.assert_allclose(got.asnumpy(), np_attention(q, k, v, 1.0, np.zeros((1, 1, 1, 1), bool)), atol=1e-2)


@pytest.mark.parametrize("sparse_mode", [2, 3, 4])
def test_prompt_flash_attention_causal_sparse_modes(sparse_mode):
    b, n, sq, skv, d = 1, 2, 3, 5, 4
    q = RNG.standard_normal((b, n, sq, d)).astype(np.float32)
    k, v = (RNG.standard_normal((b, n, skv, d)).astype(np.float32) for _ in range(2))
    compressed = Tensor(np.triu(np.ones((2048, 2048), bool), 1))
    got = ops.prompt_flash_attention(Tensor(q), Tensor(k), Tensor(v), compressed, num_heads=n, input_layout="BNSD",
                                     sparse_mode=sparse_mode, pre_tokens=1, next_tokens=0)
    diff = np.arange(skv)[None, :] - np.arange(sq)[:, None]
    shift = 0 if sparse_mode == 2 else skv - sq
    hidden = (diff > shift) | ((diff < shift - 1) if sparse_mode == 4 else False)
    np.testing.assert_allclose(got.asnumpy(), np_attention(q, k, v, 1.0, hidden), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="2048"):
        ops.prompt_flash_attention(Tensor(q), Tensor(k), Tensor(v), num_heads=n, input_layout="BNSD",
                                   sparse_mode=sparse_mode)


def test_incre_flash_attention_lengths_mask_padding_and_pages():
    b, n, nkv, s, d = 2, 4, 2, 6, 8
    q = RNG.standard_normal((b, n, 1, d)).astype(np.float32)
    k, v = (RNG.standard_normal((b, nkv, s, d)).astype(np.float32) for _ in range(2))
    mask = RNG.uniform(size=(b, 1, 1, s)) < 0.2
    mask[:, ..., 0] = False
    lens = np.array([6, 3])
    got = ops.incre_flash_attention(Tensor(bsh(q)), [Tensor(bsh(k))], [Tensor(bsh(v))], Tensor(mask), lens.tolist(),
                                    num_heads=n, scale_value=0.4, num_key_value_heads=nkv)
    hidden = mask | (np.arange(s) >= lens[:, None, None, None])
    np.testing.assert_allclose(got.asnumpy(), bsh(np_attention(q, k, v, 0.4, hidden)), rtol=1e-5, atol=1e-6)
    # left padding: row 1's 3 keys are the ones just before the last kv_padding_size=1
    got = ops.incre_flash_attention(Tensor(q), [Tensor(k[:1]), Tensor(k[1:])], [Tensor(v[:1]), Tensor(v[1:])],
                                    actual_seq_lengths=[5, 3], num_heads=n, input_layout="BNSD",
                                    num_key_value_heads=nkv, kv_padding_size=Tensor([1], ms.int64))
    pos = np.arange(s)
    hidden = np.stack([(pos < 6 - 1 - ln) | (pos >= 6 - 1) for ln in (5, 3)])[:, None, None, :]
    np.testing.assert_allclose(got.asnumpy(), np_attention(q, k, v, 1.0, hidden), rtol=1e-5, atol=1e-6)
    # paged keys: blocks of 2 tokens, each row's 3 blocks listed in block_table
    table = np.array([[4, 0, 2], [1, 5, 3]], np.int32)
    kb, vb = (np.zeros((6, 2, nkv * d), np.float32) for _ in range(2))
    for r in range(b):
        for j, blk in enumerate(table[r]):
            kb[blk], vb[blk] = bsh(k)[r, 2 * j:2 * j + 2], bsh(v)[r, 2 * j:2 * j + 2]
    got = ops.incre_flash_attention(Tensor(bsh(q)), [Tensor(kb)], [Tensor(vb)], actual_seq_lengths=lens.tolist(),
                                    block_table=Tensor(table), num_heads=n, num_key_value_heads=nkv, block_size=2)
    hidden = np.arange(s) >= lens[:, None, None, None]
    np.testing.assert_allclose(got.asnumpy(), bsh(np_attention(q, k, v, 1.0, hidden)), rtol=1e-5, atol=1e-6)


def test_inference_attention_argument_errors():
    q = Tensor(np.ones((1, 2, 8), np.float16))
    with pytest.raises(TypeError, match="same dtype"):
        ops.prompt_flash_attention(q, Tensor(np.ones((1, 2, 8), np.float32)), q, num_heads=2)
    with pytest.raises(ValueError, match="input_layout"):
        ops.prompt_flash_attention(q, q, q, num_heads=2, input_layout="TND")
    with pytest.raises(RuntimeError, match="num_key_value_heads"):
        ops.prompt_flash_attention(q, q, q, num_heads=2, num_key_value_heads=3)
    with pytest.raises(ValueError, match="quantisation"):
        ops.prompt_flash_attention(q, q, q, num_heads=2, quant_scale2=Tensor([1.0]))
    with pytest.raises(TypeError, match="lists"):
        ops.incre_flash_attention(q[:, :1], q, q, num_heads=2)
    with pytest.raises(ValueError, match="one token"):
        ops.incre_flash_attention(q, [q], [q], num_heads=2)


# --- speed_fusion_attention ----------------------------------------------------------------------------------------
def test_speed_fusion_attention_layouts_pse_and_statistics():
    b, n, sq, skv, d = 2, 2, 3, 4, 4
    q = RNG.standard_normal((b, n, sq, d)).astype(np.float32)
    k, v = (RNG.standard_normal((b, n, skv, d)).astype(np.float32) for _ in range(2))
    pse = RNG.standard_normal((1, n, sq, skv)).astype(np.float32)
    mask = RNG.uniform(size=(b, 1, sq, skv)) < 0.25
    mask[..., 0] = False
    for pse_type, bias in ((1, 0.5 * pse), (0, pse)):
        want = np_attention(q, k, v, 0.5, mask, bias)
        sbh = lambda x: bsh(x).transpose(1, 0, 2)     # noqa: E731
        out = ops.speed_fusion_attention(Tensor(sbh(q)), Tensor(sbh(k)), Tensor(sbh(v)), n, "SBH", pse=Tensor(pse),
                                         atten_mask=Tensor(mask), scale=0.5, pse_type=pse_type)
        assert len(out) == 7 and out[1].shape == (b, n, sq, 8) and out[4].dtype == ms.int64
        np.testing.assert_allclose(out[0].asnumpy(), sbh(want), rtol=1e-5, atol=1e-6)
    scores = np.where(mask, -1e30, 0.5 * np.einsum("bnqd,bnkd->bnqk", q, k) + 0.5 * pse)
    top = scores.max(-1, keepdims=True)
    out = ops.speed_fusion_attention(Tensor(q.transpose(0, 2, 1, 3)), Tensor(k.transpose(0, 2, 1, 3)),
                                     Tensor(v.transpose(0, 2, 1, 3)), n, "BSND", pse=Tensor(pse),
                                     atten_mask=Tensor(mask), scale=0.5)
    np.testing.assert_allclose(out[0].asnumpy(), np_attention(q, k, v, 0.5, mask, 0.5 * pse).transpose(0, 2, 1, 3),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out[1].asnumpy(), np.repeat(top, 8, -1), rtol=1e-5)
    np.testing.assert_allclose(out[2].asnumpy(), np.repeat(np.exp(scores - top).sum(-1, keepdims=True), 8, -1),
                               rtol=1e-5)


def test_speed_fusion_attention_causal_gradient_and_errors():
    b, n, s, d = 1, 2, 3, 4
    q, k, v = (RNG.standard_normal((b, n, s, d)) for _ in range(3))
    compressed = Tensor(np.triu(np.ones((2048, 2048), bool), 1))
    causal = np.triu(np.ones((s, s), bool), 1)

    def f(qq, kk, vv):
        return ops.speed_fusion_attention(qq, kk, vv, n, "BNSD", atten_mask=compressed, scale=0.7,
                                          sparse_mode=2)[0].sum()
    grads = ms.grad(f, grad_position=(0, 1, 2))(*(Tensor(x.astype(np.float32)) for x in (q, k, v)))
    for i, x in enumerate((q, k, v)):
        num = np.zeros(x.shape)
        for idx in np.ndindex(x.shape):
            hi, lo = [a.copy() for a in (q, k, v)], [a.copy() for a in (q, k, v)]
            hi[i][idx] += 1e-6
            lo[i][idx] -= 1e-6
            num[idx] = (np_attention(*hi, 0.7, causal).sum() - np_attention(*lo, 0.7, causal).sum()) / 2e-6
        np.testing.assert_allclose(grads[i].asnumpy(), num, rtol=1e-3, atol=1e-4)
    x = Tensor(q.astype(np.float32))
    with pytest.raises(ValueError, match="2048"):
        ops.speed_fusion_attention(x, x, x, n, "BNSD", sparse_mode=3)
    with pytest.raises(ValueError, match="input_layout"):
        ops.speed_fusion_attention(x, x, x, n, "NSD")
    with pytest.raises(TypeError, match="scale"):
        ops.speed_fusion_attention(x, x, x, n, "BNSD", scale=1)
    with pytest.raises(ValueError, match="atten_mask"):       # 2.10 raises ValueError (its docs say TypeError)
        ops.speed_fusion_attention(x, x, x, n, "BNSD", atten_mask=Tensor(np.zeros((s, s), np.float32)))


# --- moe_init_routing_v2 -------------------------------------------------------------------------------------------
def np_init_routing(x, expert_idx, active_num, capacity, experts, drop_pad):
    flat = expert_idx.reshape(-1)
    order = np.argsort(flat, kind="stable")
    back = np.argsort(order)
    rows = order // expert_idx.shape[1]
    counts = np.bincount(flat, minlength=experts)
    if not drop_pad:
        return x[rows[:active_num] if active_num else rows], back, counts
    out = np.zeros((experts, capacity, x.shape[1]), x.dtype)
    dest = np.full(flat.size, -1)
    for j, (copy, row) in enumerate(zip(order, rows)):
        e = flat[copy]
        rank = j - counts[:e].sum()
        if rank < capacity:
            out[e, rank] = x[row]
            dest[copy] = e * capacity + rank
    return out, dest, counts


def test_moe_init_routing_v2_docstring_example_and_modes():
    x = np.array([[0.1, 0.2, 0.3], [0.2, 0.7, 0.8], [0.3, 0.3, 0.5]], np.float16)
    idx = np.array([[0, 1, 1], [2, 1, 1], [0, 0, 0]], np.int32)
    out, row_idx, before = ops.moe_init_routing_v2(Tensor(x), Tensor(idx), 3, 2, 3, 1, 0, True)
    np.testing.assert_array_equal(row_idx.asnumpy(), [0, 2, 3, 4, -1, -1, 1, -1, -1])
    np.testing.assert_array_equal(out.asnumpy(), np_init_routing(x, idx, 3, 2, 3, True)[0])
    np.testing.assert_array_equal(before.asnumpy(), [4, 4, 1])
    assert len(ops.moe_init_routing_v2(Tensor(x), Tensor(idx), 3, 2, 3, 1, 0, False)) == 2
    xs = RNG.standard_normal((5, 4)).astype(np.float32)
    ids = RNG.integers(0, 4, (5, 3)).astype(np.int32)
    for active, flag in ((0, 0), (7, 1), (0, 2)):
        got = ops.moe_init_routing_v2(Tensor(xs), Tensor(ids), active, 0, 4, 0, flag, False)
        want_x, want_idx, counts = np_init_routing(xs, ids, active, 0, 4, False)
        np.testing.assert_array_equal(got[0].asnumpy(), want_x)
        np.testing.assert_array_equal(got[1].asnumpy(), want_idx)
        assert len(got) == (3 if flag else 2) and got[1].dtype == ms.int32
        if flag:
            assert got[2].dtype == ms.int32
            np.testing.assert_array_equal(got[2].asnumpy(), np.cumsum(counts) if flag == 1 else counts)
    got = ops.moe_init_routing_v2(Tensor(xs), Tensor(ids), 0, 3, 4, 1, 0, False)
    want = np_init_routing(xs, ids, 0, 3, 4, True)
    np.testing.assert_array_equal(got[0].asnumpy(), want[0])
    np.testing.assert_array_equal(got[1].asnumpy(), want[1])
    grad = ms.grad(lambda t: (ops.moe_init_routing_v2(t, Tensor(ids), 0, 3, 4, 1, 0, False)[0] ** 2).sum())(
        Tensor(xs))
    kept = np.zeros(5)
    for copy, dest in enumerate(want[1]):
        kept[copy // 3] += dest >= 0
    np.testing.assert_allclose(grad.asnumpy(), 2 * xs * kept[:, None], rtol=1e-6)
    with pytest.raises(ValueError, match="expert_capacity"):
        ops.moe_init_routing_v2(Tensor(xs), Tensor(ids), 0, 0, 4, 1, 0, False)
    with pytest.raises(TypeError, match="expert_idx"):
        ops.moe_init_routing_v2(Tensor(xs), Tensor(ids.astype(np.int64)), 0, 0, 4, 0, 0, False)


# --- GroupTopk -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype,groups,k,k_inner",
                         [(np.float16, 4, 2, 2), (np.float32, 8, 3, 1), (np.float16, 1, 1, 3)])
def test_group_topk_keeps_the_best_groups_in_place(dtype, groups, k, k_inner):
    token = RNG.uniform(-2, 2, (5, 16)).astype(dtype)
    token[0, :] = 1.0                                   # all groups tie: the lower groups win
    t = Tensor(token)
    out = ops.GroupTopk()(t, Tensor(np.arange(1024, dtype=np.int32)), groups, k, k_inner)
    grouped = token.astype(np.float32).reshape(5, groups, -1)
    score = -np.sort(-grouped, -1)[..., :k_inner].sum(-1)
    want = token.reshape(5, groups, -1).copy()
    for r in range(5):
        for g in np.argsort(-score[r], kind="stable")[k:]:
            want[r, g] = 0
    np.testing.assert_array_equal(t.asnumpy(), want.reshape(5, 16))
    assert out is t
    with pytest.raises(ValueError, match="group_num"):
        ops.GroupTopk()(t, Tensor(np.arange(1024, dtype=np.int32)), 3, 1)
    with pytest.raises(ValueError, match="'k'"):
        ops.GroupTopk()(t, Tensor(np.arange(1024, dtype=np.int32)), 4, 5)


# --- ApplyRotaryPosEmb ---------------------------------------------------------------------------------------------
def np_rope(x, cos, sin, interleaved):
    """x (T, N, D), cos/sin (T, D): x * cos + rotate(x) * sin."""
    if interleaved:
        rot = np.stack((-x[..., 1::2], x[..., 0::2]), -1).reshape(x.shape)
    else:
        half = x.shape[-1] // 2
        rot = np.concatenate((-x[..., half:], x[..., :half]), -1)
    return x * cos[:, None] + rot * sin[:, None]


@pytest.mark.parametrize("cos_format", [0, 2, 3])
def test_apply_rotary_pos_emb_per_token_and_position_table(cos_format):
    d, lens = 8, np.array([3, 2])
    t = lens.sum()
    q = RNG.standard_normal((t, 4 * d)).astype(np.float32)
    k = RNG.standard_normal((t, 2 * d)).astype(np.float16)
    angles = np.outer(np.arange(16), 1.0 / 10000 ** (np.arange(0, d, 2) / d))
    table = np.repeat(angles, 2, -1) if cos_format == 3 else np.concatenate((angles, angles), -1)
    cos, sin = np.cos(table).astype(np.float32), np.sin(table).astype(np.float32)
    pos = np.concatenate([np.arange(n) for n in lens])
    op = ops.ApplyRotaryPosEmb(cos_format)
    want_q = np_rope(q.reshape(t, 4, d), cos[pos], sin[pos], cos_format == 3).reshape(t, -1)
    want_k = np_rope(k.astype(np.float32).reshape(t, 2, d), cos[pos], sin[pos], cos_format == 3).reshape(t, -1)
    for c, s in ((cos[pos], sin[pos]), (cos, sin)):        # per-token rows, or the table indexed by position
        got_q, got_k = op(Tensor(q), Tensor(k), Tensor(c), Tensor(s), Tensor(lens.astype(np.int32)))
        assert got_q.dtype == ms.float32 and got_k.dtype == ms.float16 and got_k.shape == k.shape
        np.testing.assert_allclose(got_q.asnumpy(), want_q, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got_k.asnumpy().astype(np.float32), want_k, rtol=1e-2, atol=1e-2)


def test_apply_rotary_pos_emb_errors():
    q = Tensor(np.ones((3, 16), np.float32))
    cos = Tensor(np.ones((3, 8), np.float32))
    with pytest.raises(ValueError, match="cos_format"):      # built as in 2.10; the call checks
        ops.ApplyRotaryPosEmb(4)(q, q, cos, cos, Tensor([3], ms.int32))
    with pytest.raises(ValueError, match="head_dim"):
        ops.ApplyRotaryPosEmb()(q, q, Tensor(np.ones((3, 7), np.float32)), Tensor(np.ones((3, 7), np.float32)),
                                Tensor([3], ms.int32))
    with pytest.raises(ValueError, match="sum"):
        ops.ApplyRotaryPosEmb()(q, q, Tensor(np.ones((9, 8), np.float32)), Tensor(np.ones((9, 8), np.float32)),
                                Tensor([2], ms.int32))
    with pytest.raises(TypeError, match="position_ids"):
        ops.ApplyRotaryPosEmb()(q, q, cos, cos, Tensor([3.0]))


# --- fused_infer_attention_score -----------------------------------------------------------------------------------
def test_fused_infer_attention_score_prompt_and_incre_branches_with_lse():
    b, n, nkv, sq, skv, d = 2, 4, 2, 3, 5, 8
    q = RNG.standard_normal((b, n, sq, d)).astype(np.float32)
    k, v = (RNG.standard_normal((b, nkv, skv, d)).astype(np.float32) for _ in range(2))
    mask = RNG.uniform(size=(b, 1, sq, skv)) < 0.3
    mask[..., 0] = False
    out, lse = ops.fused_infer_attention_score(Tensor(q), Tensor(k), Tensor(v), atten_mask=Tensor(mask), num_heads=n,
                                               scale=0.3, input_layout="BNSD_BSND", num_key_value_heads=nkv,
                                               sparse_mode=1, softmax_lse_flag=True)
    np.testing.assert_allclose(out.asnumpy(), np_attention(q, k, v, 0.3, mask).transpose(0, 2, 1, 3), rtol=1e-5,
                               atol=1e-6)
    scores = np.where(mask, -np.inf, 0.3 * np.einsum("bnqd,bnkd->bnqk", q, np.repeat(k, 2, 1)))
    top = scores.max(-1, keepdims=True)
    np.testing.assert_allclose(lse.asnumpy(), top + np.log(np.exp(scores - top).sum(-1, keepdims=True)), rtol=1e-5)
    # one query token: the incremental branch, BSND, keys as per-batch lists, without the lse
    kv_lens = [5, 2]
    out, lse = ops.fused_infer_attention_score(
        Tensor(q[:, :, :1].transpose(0, 2, 1, 3)), [Tensor(k[i:i + 1].transpose(0, 2, 1, 3)) for i in range(b)],
        [Tensor(v[i:i + 1].transpose(0, 2, 1, 3)) for i in range(b)], actual_seq_lengths_kv=kv_lens, num_heads=n,
        input_layout="BSND", num_key_value_heads=nkv)
    hidden = np.arange(skv) >= np.array(kv_lens)[:, None, None, None]
    np.testing.assert_allclose(out.asnumpy(), np_attention(q[:, :, :1], k, v, 1.0, hidden).transpose(0, 2, 1, 3),
                               rtol=1e-5, atol=1e-6)
    assert lse.shape == (1,) and lse.dtype == ms.float32 and float(lse.asnumpy()[0]) == 0
    with pytest.raises(ValueError, match="query_padding_size"):
        ops.fused_infer_attention_score(Tensor(q), Tensor(k), Tensor(v), num_heads=n, input_layout="BNSD",
                                        num_key_value_heads=nkv, query_padding_size=Tensor([1], ms.int64))
    with pytest.raises(ValueError, match="input_layout"):
        ops.fused_infer_attention_score(Tensor(q), Tensor(k), Tensor(v), num_heads=n, input_layout="TND")


def test_speed_fusion_attention_tnd_packed_sequences():
    n, d = 2, 4
    q_ends, kv_ends = [2, 5], [3, 7]
    q = RNG.standard_normal((5, n, d)).astype(np.float32)
    k, v = (RNG.standard_normal((7, n, d)).astype(np.float32) for _ in range(2))
    compressed = Tensor(np.triu(np.ones((2048, 2048), bool), 1))
    out = ops.speed_fusion_attention(Tensor(q), Tensor(k), Tensor(v), n, "TND", atten_mask=compressed, scale=0.5,
                                     sparse_mode=3, actual_seq_qlen=q_ends, actual_seq_kvlen=kv_ends)
    assert out[0].shape == (5, n, d) and out[1].shape == (5, n, 8)
    for (q0, q1), (k0, k1) in zip(((0, 2), (2, 5)), ((0, 3), (3, 7))):     # each sequence alone, causal bottom-right
        qs, ks, vs = (x.transpose(1, 0, 2)[None] for x in (q[q0:q1], k[k0:k1], v[k0:k1]))
        diff = np.arange(k1 - k0)[None, :] - np.arange(q1 - q0)[:, None]
        want = np_attention(qs, ks, vs, 0.5, diff > (k1 - k0) - (q1 - q0))[0].transpose(1, 0, 2)
        np.testing.assert_allclose(out[0].asnumpy()[q0:q1], want, rtol=1e-5, atol=1e-6)
    g = ms.grad(lambda x: ops.speed_fusion_attention(x, Tensor(k), Tensor(v), n, "TND", actual_seq_qlen=q_ends,
                                                     actual_seq_kvlen=kv_ends)[0].sum())(Tensor(q))
    assert g.shape == q.shape and np.isfinite(g.asnumpy()).all()
    with pytest.raises(ValueError, match="actual_seq_qlen"):
        ops.speed_fusion_attention(Tensor(q), Tensor(k), Tensor(v), n, "TND", actual_seq_qlen=[2, 4],
                                   actual_seq_kvlen=kv_ends)
