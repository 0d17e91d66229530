"""``ops.function.nn_func``'s functional multi-head attention and the helpers MindSpore exposes there (MindOne's
``MultiheadAttention`` and WavLM import them), against numbers of real MindSpore 2.10 for the same seeded inputs."""
import numpy as np
import pytest

import mindspore as ms
from mindspore.ops.function import nn_func

# (sum |output|, sum |weights|, output's first 4 values) under MindSpore 2.10
WANT = {
    "self": (60.686940629035234, 5.9999989196658134, [-0.053807, -0.046622, -0.697972, -0.755347]),
    "masked": (55.39673785120249, 11.999997032362558, [3.571977, 1.354443, 4.704091, 13.596738]),
    "unbatched_separate": (43.56676375120878, 2.9999999683350325, [3.895089, 1.95372, 4.887474, 13.451913]),
}


def _inputs():
    rng = np.random.default_rng(0)

    def t(*shape):
        return ms.Tensor(rng.standard_normal(shape).astype(np.float32))
    q, k = t(3, 2, 4), t(5, 2, 4)
    w, b, ow, ob = t(12, 4), t(12), t(4, 4), t(4)
    bk, bv = t(1, 1, 4), t(1, 1, 4)
    kpm = ms.Tensor(np.array([[False, False, False, False, True], [False, True, False, False, False]]))
    return q, k, w, b, ow, ob, bk, bv, kpm, t(3, 5)


def _run(kind):
    q, k, w, b, ow, ob, bk, bv, kpm, am = _inputs()
    mha = nn_func.multi_head_attention_forward
    if kind == "self":
        return mha(q, q, q, 4, 2, w, b, None, None, False, 0.0, ow, ob, training=False)
    if kind == "masked":   # bias_k/bias_v, a zero attention row, a bool padding mask and a float mask, per head
        return mha(q, k, k, 4, 2, w, b, bk, bv, True, 0.0, ow, ob, training=False, key_padding_mask=kpm,
                   attn_mask=am, average_attn_weights=False)
    return mha(q[:, 0], k[:, 0], k[:, 0], 4, 2, w, None, None, None, False, 0.0, ow, None, training=False,
               use_separate_proj_weight=True, q_proj_weight=w[:4], k_proj_weight=w[4:8], v_proj_weight=w[8:])


@pytest.mark.parametrize("kind", list(WANT))
def test_multi_head_attention_forward_matches_2_10(kind):
    out, weights = _run(kind)
    total, weight_total, first = WANT[kind]
    np.testing.assert_allclose(np.abs(out.asnumpy()).sum(), total, rtol=1e-5)
    np.testing.assert_allclose(np.abs(weights.asnumpy()).sum(), weight_total, rtol=1e-5)
    np.testing.assert_allclose(out.asnumpy().ravel()[:4], first, atol=1e-4)


def test_shapes_and_errors():
    out, weights = _run("masked")
    assert out.shape == (3, 2, 4) and weights.shape == (2, 2, 3, 7)   # 5 keys + bias_k + the zero row
    out, weights = _run("unbatched_separate")
    assert out.shape == (3, 4) and weights.shape == (3, 5)
    q, k, w, b, ow, ob, *_ = _inputs()
    with pytest.raises(ValueError, match="does not match `value`"):
        nn_func.multi_head_attention_forward(q, k, q[:2], 4, 2, w, b, None, None, False, 0.0, ow, ob)
    with pytest.raises(ValueError, match="unbatched 2D or batched 3D"):
        nn_func._check_qkv_shape(4, 4, 4)
    with pytest.raises(ValueError, match="`key_padding_mask` must be `None` or 2D"):
        nn_func._check_kpm_shape(3, 1)


def test_helpers():
    rng = np.random.default_rng(1)
    x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((2, 3), (6, 3), (6,)))
    np.testing.assert_allclose(nn_func.linear(ms.Tensor(x), ms.Tensor(w), ms.Tensor(b)).asnumpy(), x @ w.T + b,
                               rtol=1e-6)
    q, k, v = nn_func._in_projection_packed(ms.Tensor(x[:, :2]), None, None, ms.Tensor(w[:, :2]), ms.Tensor(b),
                                            True, True)
    np.testing.assert_allclose(np.concatenate([t.asnumpy() for t in (q, k, v)], -1), x[:, :2] @ w[:, :2].T + b,
                               rtol=1e-6)
    padded = nn_func._inner_pad(ms.Tensor(np.array([[True, False]])), (0, 1))
    assert padded.dtype == ms.bool_ and padded.asnumpy().tolist() == [[True, False, False]]
    image = ms.Tensor(np.zeros((1, 2, 5, 7), np.float32))
    assert nn_func._interploate_ext_make_tuple(image, 2.0) == (2.0, 2.0)
    assert nn_func._interpolate_ext_scale_factor_convert_size(image, (1.5, 0.5)) == (7, 3)
    assert nn_func.pad_ext(ms.Tensor(np.ones((1, 2), np.float32)), (1, 1)).shape == (1, 4)
    assert nn_func.conv_transpose2d is ms.ops.conv_transpose2d
