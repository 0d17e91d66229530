"""``mindspore.ops.operations``' submodules as in MindSpore 2.10 (``nn_ops``, ``array_ops``, ``_grad_ops``, ...):
each holds the 2.10 classes of its list that this build has, as the same objects, reachable without importing the
submodule; and ``nn_ops.FlashAttentionScore``, MindSpore's fused-attention primitive, as a call-only primitive
checked against NumPy."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.ops.operations import _layout


def test_every_submodule_holds_its_classes_as_the_same_objects():
    for module, names in _layout.MODULES.items():
        sub = getattr(ops.operations, module)         # imported by the package, as in 2.10
        have = [n for n in names if hasattr(ops.operations, n)]
        assert set(have) <= set(sub.__all__), module
        for name in have:
            assert getattr(sub, name) is getattr(ops.operations, name), (module, name)
    assert len(ops.operations.nn_ops.__all__) > 100 and ops.operations.math_ops.MatMul is ops.MatMul
    from mindspore.ops.operations._grad_ops import ReluGrad        # noqa: F401 - imports as 2.10's
    from mindspore.ops.operations.nn_ops import Conv2D
    assert Conv2D is ops.Conv2D


def _reference(q, k, v, heads, scale, mask):
    """(softmax_max, softmax_sum, attention) in float64 for BSH inputs; ``mask`` True where a key is hidden."""
    b, s, h = q.shape
    d = h // heads
    split = lambda x: x.reshape(b, -1, heads, d).transpose(0, 2, 1, 3).astype(np.float64)   # noqa: E731
    scores = split(q) @ split(k).transpose(0, 1, 3, 2) * scale
    scores = np.where(mask, -1e30, scores)
    row_max = scores.max(-1, keepdims=True)
    e = np.exp(scores - row_max)
    out = (e / e.sum(-1, keepdims=True)) @ split(v)
    return row_max[..., 0], e.sum(-1), out.transpose(0, 2, 1, 3).reshape(b, s, h)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_flash_attention_score_primitive_outputs(mode):
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 5, 8)).astype(np.float32) for _ in range(3))
    mask = np.triu(np.ones((5, 5), np.uint8), 1)

    class Attention(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fa = ops.operations.nn_ops.FlashAttentionScore(head_num=2, scale_value=0.5, next_tokens=0)

        def construct(self, q, k, v, mask):
            return self.fa(q, k, v, attn_mask=mask)

    ms.set_context(mode=mode)
    try:
        smax, ssum, sout, out = Attention()(Tensor(q), Tensor(k), Tensor(v), Tensor(mask))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    want_max, want_sum, want_out = _reference(q, k, v, 2, 0.5, mask.astype(bool))
    assert smax.shape == ssum.shape == (2, 2, 5, 8) and smax.dtype == ms.float32
    np.testing.assert_allclose(smax.asnumpy(), np.repeat(want_max[..., None], 8, -1), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ssum.asnumpy(), np.repeat(want_sum[..., None], 8, -1), rtol=1e-5)
    assert sout.shape == () and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), want_out, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), ops.flash_attention_score(
        Tensor(q), Tensor(k), Tensor(v), 2, attn_mask=Tensor(mask), scalar_value=0.5, next_tokens=0).asnumpy(),
        rtol=1e-6, atol=1e-7)


def test_flash_attention_score_primitive_gradient_and_arguments():
    rng = np.random.default_rng(1)
    q, k, v = (Tensor(rng.standard_normal((1, 4, 4)).astype(np.float32)) for _ in range(3))
    fa = ops.operations.nn_ops.FlashAttentionScore(head_num=1)
    grads = ms.grad(lambda a: fa(a, k, v)[3].sum())(q)
    want = ms.grad(lambda a: ops.flash_attention_score(a, k, v, 1).sum())(q)
    np.testing.assert_allclose(grads.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="'head_num' must be a positive int"):
        ops.operations.nn_ops.FlashAttentionScore(head_num=0)
    with pytest.raises(ValueError, match="'input_layout' must be one of"):
        ops.operations.nn_ops.FlashAttentionScore(head_num=1, input_layout="XYZ")
    with pytest.raises(ValueError, match="'input_layout' must be 'BSH' or 'BNSD' on this backend"):
        ops.operations.nn_ops.FlashAttentionScore(head_num=1, input_layout="TND")(q, k, v)
