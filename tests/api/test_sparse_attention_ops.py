"""MindSpore 2.10's Ascend-only sparse-attention operators, run here as compositions, against NumPy oracles written
from 2.10's documented formulas: multi_scale_deformable_attn_function, nsa_compress, nsa_select_attention,
lightning_indexer, sparse_flash_attention."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

RNG = np.random.default_rng(3)


def _bilinear(img, x, y):
    """img (C, H, W) sampled at pixel coordinates (x, y), zeros outside (align_corners=False convention)."""
    c, h, w = img.shape
    x0, y0 = int(np.floor(x)), int(np.floor(y))
    out = np.zeros(c)
    for yy, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
        for xx, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
            if 0 <= yy < h and 0 <= xx < w:
                out += wy * wx * img[:, yy, xx]
    return out


def test_multi_scale_deformable_attn_matches_oracle():
    bs, heads, dims, nq, points = 2, 2, 8, 3, 2
    sizes = [(3, 4), (2, 2)]
    starts = [0, 12]
    value = RNG.standard_normal((bs, 16, heads, dims)).astype(np.float32)
    loc = RNG.uniform(-0.1, 1.1, (bs, nq, heads, 2, points, 2)).astype(np.float32)
    weight = RNG.random((bs, nq, heads, 2, points)).astype(np.float32)
    got = ops.multi_scale_deformable_attn_function(Tensor(value), Tensor(np.array(sizes, np.int32)),
                                                   Tensor(np.array(starts, np.int64)), Tensor(loc), Tensor(weight))
    want = np.zeros((bs, nq, heads, dims))
    for b in range(bs):
        for q in range(nq):
            for h in range(heads):
                for lvl, ((hh, ww), s) in enumerate(zip(sizes, starts)):
                    img = value[b, s:s + hh * ww, h].T.reshape(dims, hh, ww)
                    for p in range(points):
                        x, y = loc[b, q, h, lvl, p]
                        want[b, q, h] += weight[b, q, h, lvl, p] * _bilinear(img, x * ww - 0.5, y * hh - 0.5)
    assert got.shape == (bs, nq, heads * dims) and got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), want.reshape(bs, nq, -1), rtol=1e-5, atol=1e-5)


def test_multi_scale_deformable_attn_checks_embed_dims():
    with pytest.raises(RuntimeError, match="multiple of 8"):
        ops.multi_scale_deformable_attn_function(Tensor(np.zeros((1, 4, 1, 6), np.float32)),
                                                 Tensor(np.array([[2, 2]], np.int32)), Tensor(np.array([0], np.int32)),
                                                 Tensor(np.zeros((1, 1, 1, 1, 1, 2), np.float32)),
                                                 Tensor(np.zeros((1, 1, 1, 1, 1), np.float32)))


def test_nsa_compress_matches_oracle():
    n, d, block, stride = 2, 16, 32, 16
    segments = (48, 80, 100)                                   # lengths 48, 32, 20
    x = RNG.standard_normal((100, n, d)).astype(np.float16)
    w = RNG.standard_normal((block, n)).astype(np.float16)
    got = ops.nsa_compress(Tensor(x), Tensor(w), block, stride, actual_seq_len=segments)
    want = []
    start = 0
    for end in segments:
        for s in range(start, end - block + 1, stride):
            want.append(np.einsum("in,ind->nd", w.astype(np.float32), x[s:s + block].astype(np.float32)))
        start = end
    assert got.shape == (len(want), n, d) == (3, n, d) and got.dtype == ms.float16
    np.testing.assert_allclose(got.asnumpy().astype(np.float32), np.stack(want), rtol=2e-3, atol=2e-2)
    with pytest.raises(RuntimeError, match="last element"):
        ops.nsa_compress(Tensor(x), Tensor(w), block, stride, actual_seq_len=(48, 90))


def _softmax_rows(scores, visible):
    s = np.where(visible, scores, -np.inf)
    mx = s.max(-1, keepdims=True)
    p = np.exp(s - mx)
    return p / p.sum(-1, keepdims=True), mx[..., 0], p.sum(-1)


def test_nsa_select_attention_matches_oracle():
    n1, n2, d1, d2, block, count = 4, 2, 16, 8, 4, 2
    qlen, kvlen = (3, 5), (10, 18)                             # two batches: 3 queries over 10 keys, 2 over 8
    q = RNG.standard_normal((5, n1, d1)).astype(np.float16)
    k = RNG.standard_normal((18, n2, d1)).astype(np.float16)
    v = RNG.standard_normal((18, n2, d2)).astype(np.float16)
    ids = RNG.integers(0, 3, (5, n2, count)).astype(np.int32)
    out, mx, sm = ops.nsa_select_attention(Tensor(q), Tensor(k), Tensor(v), Tensor(ids), 0.3, n1, block, count,
                                           actual_seq_qlen=qlen, actual_seq_kvlen=kvlen)
    qf, kf, vf = (a.astype(np.float32) for a in (q, k, v))
    want = np.zeros((5, n1, d2))
    want_max = np.zeros((5, n1))
    for (qa, qb), (ka, kb) in (((0, 3), (0, 10)), ((3, 5), (10, 18))):
        for t in range(qa, qb):
            for h in range(n1):
                g = h // (n1 // n2)
                keys = sorted({j for i in ids[t, g] for j in range(i * block, i * block + block) if j < kb - ka})
                vis = np.zeros(kb - ka, bool)
                vis[keys] = True
                p, m, _ = _softmax_rows(0.3 * kf[ka:kb, g] @ qf[t, h], vis)
                want[t, h] = p @ vf[ka:kb, g]
                want_max[t, h] = m
    assert out.shape == (5, n1, d2) and mx.shape == sm.shape == (5, n1, 8)
    np.testing.assert_allclose(out.asnumpy().astype(np.float32), want, rtol=2e-3, atol=3e-3)
    np.testing.assert_allclose(mx.asnumpy(), np.repeat(want_max[..., None], 8, -1), rtol=1e-5, atol=1e-5)


def _index_scores(q, k, w):
    return np.einsum("hs,h->s", np.maximum(k @ q.T, 0).T, w)


def test_lightning_indexer_matches_oracle_bsnd_causal():
    b, s1, s2, n1, d, count = 2, 3, 6, 4, 8, 5
    q = RNG.standard_normal((b, s1, n1, d)).astype(np.float16)
    k = RNG.standard_normal((b, s2, 1, d)).astype(np.float16)
    w = RNG.standard_normal((b, s1, n1)).astype(np.float16)
    idx, val = ops.lightning_indexer(Tensor(q), Tensor(k), Tensor(w), sparse_count=count, return_value=True)
    assert idx.shape == val.shape == (b, s1, 1, count) and idx.dtype == ms.int32 and val.dtype == ms.float16
    qf, kf, wf = (a.astype(np.float32) for a in (q, k, w))
    for bb in range(b):
        for r in range(s1):
            score = np.einsum("sh,h->s", np.maximum(kf[bb, :, 0] @ qf[bb, r].T, 0), wf[bb, r])
            seen = r + s2 - s1 + 1                               # sparse_mode 3: lower-right causal
            order = np.argsort(-score[:seen], kind="stable")[:count]
            want_idx = np.full(count, -1)
            want_idx[:len(order)] = order
            want_val = np.full(count, -np.inf)
            want_val[:len(order)] = score[order]
            assert idx.asnumpy()[bb, r, 0].tolist() == want_idx.tolist()
            np.testing.assert_allclose(val.asnumpy()[bb, r, 0].astype(np.float32), want_val, rtol=3e-3, atol=3e-3)


def test_lightning_indexer_tnd_mode0_and_values_off():
    q = RNG.standard_normal((5, 2, 8)).astype(np.float16)
    k = RNG.standard_normal((7, 1, 8)).astype(np.float16)
    w = RNG.standard_normal((5, 2)).astype(np.float16)
    lens_q, lens_k = Tensor(np.array([2, 5], np.int32)), Tensor(np.array([3, 7], np.int32))
    idx, val = ops.lightning_indexer(Tensor(q), Tensor(k), Tensor(w), actual_seq_lengths_query=lens_q,
                                     actual_seq_lengths_key=lens_k, layout_query="TND", layout_key="TND",
                                     sparse_count=4, sparse_mode=0)
    assert idx.shape == (5, 1, 4) and not val.asnumpy().any()
    qf, kf, wf = (a.astype(np.float32) for a in (q, k, w))
    for t, (ka, kb) in zip(range(5), [(0, 3)] * 2 + [(3, 7)] * 3):
        score = np.einsum("sh,h->s", np.maximum(kf[ka:kb, 0] @ qf[t].T, 0), wf[t])
        order = np.argsort(-score, kind="stable")[:4]
        want = np.full(4, -1)
        want[:len(order)] = order
        assert idx.asnumpy()[t, 0].tolist() == want.tolist()


def test_sparse_flash_attention_matches_oracle_with_rope_and_blocks():
    b, s1, s2, n1, d, dr, count, blk = 1, 2, 8, 2, 16, 4, 3, 2
    q = RNG.standard_normal((b, s1, n1, d)).astype(np.float16)
    k = RNG.standard_normal((b, s2, 1, d)).astype(np.float16)
    v = RNG.standard_normal((b, s2, 1, d)).astype(np.float16)
    qr = RNG.standard_normal((b, s1, n1, dr)).astype(np.float16)
    kr = RNG.standard_normal((b, s2, 1, dr)).astype(np.float16)
    ids = np.array([[[[0, 3, -1]], [[1, 3, 2]]]], np.int32)
    out, mx, sm = ops.sparse_flash_attention(Tensor(q), Tensor(k), Tensor(v), Tensor(ids), 0.2, query_rope=Tensor(qr),
                                             key_rope=Tensor(kr), sparse_block_size=blk, attention_mode=2,
                                             return_softmax_lse=True)
    assert out.shape == q.shape and mx.shape == sm.shape == (b, 1, s1, n1)
    qf, kf, vf, qrf, krf = (a.astype(np.float32) for a in (q, k, v, qr, kr))
    for r in range(s1):
        vis = np.zeros(s2, bool)
        for i in ids[0, r, 0]:
            if i >= 0:
                vis[i * blk:i * blk + blk] = True
        vis[r + s2 - s1 + 1:] = False                            # sparse_mode 3
        for h in range(n1):
            scores = 0.2 * (kf[0, :, 0] @ qf[0, r, h] + krf[0, :, 0] @ qrf[0, r, h])
            p, m, total = _softmax_rows(scores, vis)
            np.testing.assert_allclose(out.asnumpy()[0, r, h].astype(np.float32), p @ vf[0, :, 0], rtol=3e-3,
                                       atol=3e-3)
            np.testing.assert_allclose(mx.asnumpy()[0, 0, r, h], m, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(sm.asnumpy()[0, 0, r, h], total, rtol=1e-5, atol=1e-5)


def test_sparse_flash_attention_checks():
    x = Tensor(np.zeros((1, 1, 1, 16), np.float16))
    idx = Tensor(np.zeros((1, 1, 1, 1), np.int32))
    with pytest.raises(RuntimeError, match="power of 2"):
        ops.sparse_flash_attention(x, x, x, idx, 0.1, sparse_block_size=3)
    with pytest.raises(TypeError, match="Float16"):
        ops.sparse_flash_attention(Tensor(np.zeros((1, 1, 1, 16), np.float32)), x, x, idx, 0.1)


def test_paged_keys_give_the_dense_result():
    """PA_BSND: the keys gathered from the blocks of block_table give what the same keys laid out BSND give."""
    b, s1, s2, n1, d, block = 2, 2, 8, 4, 8, 4
    q = Tensor(RNG.standard_normal((b, s1, n1, d)).astype(np.float16))
    w = Tensor(RNG.standard_normal((b, s1, n1)).astype(np.float16))
    k = RNG.standard_normal((b, s2, 1, d)).astype(np.float16)
    table = np.array([[3, 0], [1, 2]], np.int32)                 # batch 0 lives in blocks 3, 0; batch 1 in 1, 2
    paged = np.zeros((4, block, 1, d), np.float16)
    for bb in range(b):
        for j, blk in enumerate(table[bb]):
            paged[blk] = k[bb, j * block:(j + 1) * block]
    lens = Tensor(np.array([s2, s2], np.int32))
    dense_idx, _ = ops.lightning_indexer(q, Tensor(k), w, sparse_count=3)
    paged_idx, _ = ops.lightning_indexer(q, Tensor(paged), w, actual_seq_lengths_key=lens, block_table=Tensor(table),
                                         layout_key="PA_BSND", sparse_count=3)
    np.testing.assert_array_equal(paged_idx.asnumpy(), dense_idx.asnumpy())
    ids = Tensor(RNG.integers(-1, s2, (b, s1, 1, 3)).astype(np.int32))
    dense = ops.sparse_flash_attention(q, Tensor(k), Tensor(k), ids, 0.3, return_softmax_lse=True)
    paged_out = ops.sparse_flash_attention(q, Tensor(paged), Tensor(paged), ids, 0.3, block_table=Tensor(table),
                                           actual_seq_lengths_kv=lens, layout_kv="PA_BSND", return_softmax_lse=True)
    for got, want in zip(paged_out, dense):
        np.testing.assert_array_equal(got.asnumpy(), want.asnumpy())
