"""Functional forms of the nn_prims family (transposed 3-D convolution, 3-D adaptive max pooling) and two
compositions MindSpore exposes as functions: the bilinear ``bidense`` and the attention of
``flash_attention_score``.

``flash_attention_score`` computes ``softmax(Q K^T * scalar_value + real_shift + mask) V`` with the layouts
``'BSH'`` (``H = head_num * D``) and ``'BNSD'``, grouped-query attention when the key/value have fewer heads,
masked positions (``attn_mask`` True/1, the ``sparse_mode`` causal bands, ``pre_tokens``/``next_tokens``)
excluded, and attention dropout with ``keep_prob``. It is the math of MindSpore 2.10's fused kernel, in
float32 whatever the input precision, cast back to the query's dtype. Without dropout, bias (``real_shift``) and
``attn_mask`` it is one primitive, ``ScaledDotProductAttention`` (the band of the sparse mode its attributes), which
backends fuse (cuDNN's fused attention on a GPU); otherwise the composition of primitives.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import conv as _conv_defs
from mindspore.ops._defs import nn as _nn_defs
from mindspore.ops._defs import nn_prims as _defs
from mindspore.ops._defs import nn_prims_ext as _defs_ext
from mindspore.ops._defs.control_prims import _CallOnly
from mindspore._core.primitive import prim_attr_register
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import nn_func as _nn
from mindspore.ops.function import random_func as _random
from mindspore.ops.function import reduce_func as _reduce

__all__ = ["conv3d_transpose", "adaptive_max_pool3d", "bidense", "flash_attention_score", "fractional_max_pool2d",
           "fractional_max_pool3d", "uniform_candidate_sampler", "log_uniform_candidate_sampler", "deformable_conv2d"]

_MAX_TOKENS = 2147483647


def _check_tensor(op, name, value):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    return value


def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1, output_padding=0):
    """3-D transposed convolution of (N, C_in, D, H, W) ``inputs`` with ``weight`` (C_in, C_out / group, kd, kh, kw)
    (:class:`mindspore.ops.Conv3DTranspose`).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.ones((1, 2, 3, 3, 3), np.float32))
        >>> w = ms.Tensor(np.ones((2, 4, 2, 2, 2), np.float32))
        >>> ops.conv3d_transpose(x, w, stride=2).shape
        (1, 4, 6, 6, 6)
    """
    _check_tensor("conv3d_transpose", "inputs", inputs)
    _check_tensor("conv3d_transpose", "weight", weight)
    if weight.ndim != 5:
        raise MSValueError(f"For 'conv3d_transpose', the 'weight' must be a 5-D tensor, but got shape "
                           f"{weight.shape}.")
    prim = _defs.Conv3DTranspose(weight.shape[0], weight.shape[1] * group, tuple(weight.shape[2:]), mode=1,
                                 pad_mode=pad_mode, pad=padding, stride=stride, dilation=dilation, group=group,
                                 output_padding=output_padding)
    return prim(inputs, weight)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """3-D adaptive max pooling of (C, D, H, W) or (N, C, D, H, W) into ``output_size`` (an int or a 3-tuple,
    None keeping an axis); with ``return_indices`` also the int32 flat argmax into ``D * H * W``
    (:class:`mindspore.ops.AdaptiveMaxPool3D`).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.arange(64, dtype=np.float32).reshape(1, 1, 4, 4, 4))
        >>> ops.adaptive_max_pool3d(x, 2).shape
        (1, 1, 2, 2, 2)
    """
    _check_tensor("AdaptiveMaxPool3D", "input", input)
    if isinstance(output_size, int) and not isinstance(output_size, bool):
        output_size = (output_size,) * 3
    output_size = tuple(output_size) if isinstance(output_size, list) else output_size
    y, argmax = _defs.AdaptiveMaxPool3D()(input, output_size)
    return (y, argmax) if return_indices else y


def max_unpool_nd(cls, spatial, x, indices, kernel_size, stride, padding, output_size):
    """``cls`` (MaxUnpool2D or MaxUnpool3D) on ``x`` with or without its batch axis; ``output_size`` may give the
    spatial sizes only."""
    name = cls.__name__
    _check_tensor(name, "x", x)
    _check_tensor(name, "indices", indices)
    if x.ndim not in (spatial + 1, spatial + 2):
        raise MSValueError(f"For '{name}', the 'x' must be a {spatial + 1}-D or {spatial + 2}-D tensor, but got "
                           f"shape {x.shape}.")
    batched = x.ndim == spatial + 2
    if not batched:
        x, indices = _array.expand_dims(x, 0), _array.expand_dims(indices, 0)
    if output_size is None or len(output_size) == 0:
        shape = ()
    else:
        shape = tuple(x.shape[:2]) + tuple(int(v) for v in tuple(output_size)[-spatial:])
    stride = 0 if stride is None else stride
    y = cls(kernel_size, stride, padding, shape)(x, indices)
    return y if batched else _array.squeeze(y, 0)


def bidense(input1, input2, weight, bias=None):
    """Bilinear map ``y_o = sum_ij input1_i weight_oij input2_j (+ bias_o)`` over the last axis of ``input1``
    (*, in1) and ``input2`` (*, in2) with ``weight`` (out, in1, in2); the result is (*, out).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x1 = ms.Tensor(np.ones((3, 2), np.float32))
        >>> x2 = ms.Tensor(np.ones((3, 4), np.float32))
        >>> ops.bidense(x1, x2, ms.Tensor(np.ones((5, 2, 4), np.float32))).shape
        (3, 5)
    """
    for name, value in (("input1", input1), ("input2", input2), ("weight", weight)):
        _check_tensor("bidense", name, value)
    if weight.ndim != 3 or input1.shape[-1] != weight.shape[1] or input2.shape[-1] != weight.shape[2]:
        raise MSValueError(f"For 'bidense', the 'weight' must be (out, {input1.shape[-1]}, {input2.shape[-1]}), but "
                           f"got {weight.shape}.")
    if tuple(input1.shape[:-1]) != tuple(input2.shape[:-1]):
        raise MSValueError(f"For 'bidense', the leading dimensions of 'input1' {input1.shape} and 'input2' "
                           f"{input2.shape} must be equal.")
    out, in1, in2 = weight.shape
    lead = tuple(input1.shape[:-1])
    x1 = _array.reshape(input1, (-1, in1))
    x2 = _array.reshape(input2, (-1, in2))
    w = _array.reshape(_array.transpose(weight, (1, 0, 2)), (in1, out * in2))
    t = _array.reshape(_math.matmul(x1, w), (-1, out, in2))
    y = _reduce.reduce_sum(_math.mul(t, _array.expand_dims(x2, 1)), -1)
    if bias is not None:
        y = _math.add(y, bias)
    return _array.reshape(y, lead + (out,))


def _to_bnsd(op, name, x, layout, heads):
    if layout == "BNSD":
        if x.ndim != 4:
            raise MSValueError(f"For '{op}', the '{name}' must be 4-D in layout 'BNSD', but got shape {x.shape}.")
        return x
    if x.ndim != 3:
        raise MSValueError(f"For '{op}', the '{name}' must be 3-D in layout 'BSH', but got shape {x.shape}.")
    b, s, h = x.shape
    if h % heads:
        raise MSValueError(f"For '{op}', the hidden size of '{name}' {h} must be divisible by the head number "
                           f"{heads}.")
    return _array.transpose(_array.reshape(x, (b, s, heads, h // heads)), (0, 2, 1, 3))


def _band(sq, skv, sparse_mode, pre_tokens, next_tokens):
    """``(lo, hi)``: query ``i`` sees key ``j`` when ``lo <= j - i <= hi`` (``None``: unbounded), per sparse mode."""
    if sparse_mode == 2:      # leftUpCausal
        return None, 0
    if sparse_mode == 3:      # rightDownCausal
        return None, skv - sq
    if sparse_mode == 4:      # band, aligned at the bottom right
        return skv - sq - pre_tokens, skv - sq + next_tokens
    # 0 / 1: pre_tokens, next_tokens around the diagonal
    return (-pre_tokens if pre_tokens < _MAX_TOKENS else None, next_tokens if next_tokens < _MAX_TOKENS else None)


def _band_mask(sq, skv, sparse_mode, pre_tokens, next_tokens):
    """True where query ``i`` may not see key ``j`` (the masks the sparse modes build), or None."""
    lo, hi = _band(sq, skv, sparse_mode, pre_tokens, next_tokens)
    if lo is None and hi is None:
        return None
    i = _array.reshape(_array.arange(sq, dtype=mstype.int32), (sq, 1))
    j = _array.reshape(_array.arange(skv, dtype=mstype.int32), (1, skv))
    diff = _math.sub(j, i)
    mask = None
    if hi is not None:
        mask = _math.greater(diff, hi)
    if lo is not None:
        below = _math.less(diff, lo)
        mask = below if mask is None else _math.logical_or(mask, below)
    return mask


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None, padding_mask=None,
                          attn_mask=None, prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, keep_prob=1.0,
                          scalar_value=1.0, pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """Scaled dot-product attention in MindSpore 2.10's FlashAttentionScore layouts: ``softmax(Q K^T *
    scalar_value + real_shift, masked) V``, with dropout ``keep_prob`` (``drop_mask``: 1 keeps); the result has the
    query's layout and dtype. ``attn_mask`` is True (or 1) where a query must not see a key.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> q = ms.Tensor(np.ones((1, 4, 8), np.float16))
        >>> ops.flash_attention_score(q, q, q, head_num=2).shape
        (1, 4, 8)
    """
    return _flash_attention(query, key, value, head_num, real_shift, drop_mask, padding_mask, attn_mask, prefix,
                            actual_seq_qlen, actual_seq_kvlen, keep_prob, scalar_value, pre_tokens, next_tokens,
                            input_layout, sparse_mode, False)


def _flash_attention(query, key, value, head_num, real_shift, drop_mask, padding_mask, attn_mask, prefix,
                     actual_seq_qlen, actual_seq_kvlen, keep_prob, scalar_value, pre_tokens, next_tokens,
                     input_layout, sparse_mode, stats):
    """The attention (``stats``: and the row maxima and sums of ``exp`` of the scaled, masked scores, float32,
    of shape (B, N, S)) shared by :func:`flash_attention_score` and :class:`FlashAttentionScore`."""
    op = "FlashAttentionScore"
    for name, v in (("query", query), ("key", key), ("value", value)):
        _check_tensor(op, name, v)
    if input_layout not in ("BSH", "BNSD"):
        raise MSValueError(f"For '{op}', the 'input_layout' must be 'BSH' or 'BNSD' on this backend, but got "
                           f"'{input_layout}'.")
    if sparse_mode not in (0, 1, 2, 3, 4):
        raise MSValueError(f"For '{op}', the 'sparse_mode' must be in [0, 4], but got {sparse_mode}.")
    if not 0 < keep_prob <= 1:
        raise MSValueError(f"For '{op}', the 'keep_prob' must be in (0, 1], but got {keep_prob}.")
    for name, v in (("padding_mask", padding_mask), ("prefix", prefix), ("actual_seq_qlen", actual_seq_qlen),
                    ("actual_seq_kvlen", actual_seq_kvlen)):
        if v is not None:
            raise MSValueError(f"For '{op}', the '{name}' is only used by the 'TND' layout and the prefix sparse "
                               f"mode, which this backend does not offer; it must be None.")
    q = _to_bnsd(op, "query", query, input_layout, head_num)
    d = q.shape[-1]
    kv_heads = head_num if input_layout == "BNSD" else key.shape[-1] // d
    k = _to_bnsd(op, "key", key, input_layout, kv_heads)
    v = _to_bnsd(op, "value", value, input_layout, kv_heads)
    if q.shape[1] != k.shape[1]:
        if k.shape[1] == 0 or q.shape[1] % k.shape[1]:
            raise MSValueError(f"For '{op}', the query heads {q.shape[1]} must be a multiple of the key heads "
                               f"{k.shape[1]}.")
        rep = q.shape[1] // k.shape[1]
        k, v = _array.repeat_interleave(k, rep, 1), _array.repeat_interleave(v, rep, 1)
    if keep_prob == 1 and real_shift is None and attn_mask is None and not stats:
        # no dropout, bias or explicit mask: the fused primitive (the backend's fused attention, cuDNN's on a GPU)
        lo, hi = _band(q.shape[2], k.shape[2], sparse_mode, pre_tokens, next_tokens)
        out = _defs_ext.ScaledDotProductAttention(
            float(scalar_value), _MAX_TOKENS if lo is None else -lo, _MAX_TOKENS if hi is None else hi)(q, k, v)[0]
        return _from_bnsd(out, input_layout)
    qf, kf, vf = (_array.cast(t, mstype.float32) for t in (q, k, v))
    scores = _math.mul(_math.matmul(qf, _array.swapaxes(kf, -1, -2)), float(scalar_value))
    if real_shift is not None:
        scores = _math.add(scores, _array.cast(real_shift, mstype.float32))
    masked = None if attn_mask is None else _array.cast(attn_mask, mstype.bool_)
    band = _band_mask(q.shape[2], k.shape[2], sparse_mode, pre_tokens, next_tokens)
    if band is not None:
        masked = band if masked is None else _math.logical_or(masked, band)
    if masked is not None:
        scores = _array.masked_fill(scores, masked, -1e30)
    probs = _nn.softmax(scores, -1)
    if keep_prob < 1:
        if drop_mask is not None:
            probs = _math.mul(probs, _math.mul(_array.cast(drop_mask, mstype.float32), 1.0 / keep_prob))
        else:
            probs = _nn.dropout(probs, 1.0 - keep_prob)
    out = _from_bnsd(_array.cast(_math.matmul(probs, vf), query.dtype), input_layout)
    if not stats:
        return out
    row_max = _reduce.amax(scores, -1, True)
    row_sum = _reduce.sum(_math.exp(_math.sub(scores, row_max)), -1, True)
    return out, row_max, row_sum


class FlashAttentionScore(_CallOnly):
    """``FlashAttentionScore(head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
    next_tokens=2147483647, inner_precise=0, input_layout="BSH", sparse_mode=0)(query, key, value,
    real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None, prefix=None, actual_seq_qlen=None,
    actual_seq_kvlen=None)``: MindSpore's fused-attention primitive (``mindspore.ops.operations.nn_ops``), as its four
    outputs ``(softmax_max, softmax_sum, softmax_out, attention_out)``: the row maxima and sums of ``exp`` of the
    scaled, masked scores (float32, (B, N, S, 8): each value repeated 8 times, as 2.10 lays them out), an empty
    ``softmax_out`` (2.10: "useless output") and :func:`flash_attention_score`'s attention. It runs by its call, its
    operations dispatched and differentiated, in PYNATIVE and in graphs (2.10 offers it on Ascend only).

    Examples:
        >>> fa = ops.operations.nn_ops.FlashAttentionScore(head_num=2, scale_value=0.5, next_tokens=0)
        >>> q = ms.Tensor(np.ones((1, 4, 8), np.float16))
        >>> fa(q, q, q)[3].shape
        (1, 4, 8)
    """

    @prim_attr_register
    def __init__(self, head_num, keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647, next_tokens=2147483647,
                 inner_precise=0, input_layout="BSH", sparse_mode=0):
        op = "FlashAttentionScore"
        if not isinstance(head_num, int) or isinstance(head_num, bool) or head_num <= 0:
            raise MSValueError(f"For '{op}', the 'head_num' must be a positive int, but got {head_num!r}.")
        for name, value in (("keep_prob", keep_prob), ("scale_value", scale_value)):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise MSTypeError(f"For '{op}', the '{name}' must be a float, but got {type(value).__name__}.")
        if input_layout not in ("BSH", "BNSD", "SBH", "BSND", "TND"):
            raise MSValueError(f"For '{op}', the 'input_layout' must be one of ['BSH', 'BNSD', 'SBH', 'BSND', "
                               f"'TND'], but got '{input_layout}'.")

    def __call__(self, query, key, value, real_shift=None, drop_mask=None, padding_mask=None, attn_mask=None,
                 prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None):
        out, row_max, row_sum = _flash_attention(
            query, key, value, self.head_num, real_shift, drop_mask, padding_mask, attn_mask, prefix,
            actual_seq_qlen, actual_seq_kvlen, float(self.keep_prob), float(self.scale_value), self.pre_tokens,
            self.next_tokens, self.input_layout, self.sparse_mode, True)
        eight = row_max.shape[:-1] + (8,)
        softmax_out = _array.zeros((), query.dtype)
        return _array.broadcast_to(row_max, eight), _array.broadcast_to(row_sum, eight), softmax_out, out


def _from_bnsd(out, layout):
    if layout == "BSH":
        b, n, s, dd = out.shape
        out = _array.reshape(_array.transpose(out, (0, 2, 1, 3)), (b, s, n * dd))
    return out


def _fractional(nd, input, kernel_size, output_size, output_ratio, return_indices, random_samples):
    fn = f"fractional_max_pool{nd}d"
    _check_tensor(fn, "input", input)
    if input.ndim not in (nd + 1, nd + 2):
        raise MSValueError(f"For '{fn}', the 'input' must be a {nd + 1}-D or {nd + 2}-D tensor, but got "
                           f"{input.ndim}-D.")
    if output_size is None and output_ratio is None:
        raise MSValueError(f"For {fn}, 'output_size' and 'output_ratio' can not be None at the same time.")
    if not isinstance(return_indices, bool):
        raise MSTypeError(f"For '{fn}', the 'return_indices' must be bool, but got {type(return_indices).__name__}.")
    spatial = input.shape[-nd:]
    if output_size is None:
        if isinstance(output_ratio, int) and not isinstance(output_ratio, bool):
            raise MSTypeError(f"For '{fn}', the type of 'output_ratio' must be float, but got int.")
        ratio = (output_ratio,) * nd if isinstance(output_ratio, float) else tuple(output_ratio)
        for i, r in enumerate(ratio):
            if not 0.0 < r < 1.0:
                raise MSValueError(f"For '{fn}', the 'output_ratio[{i}]' must be in range (0.0, 1.0), but got {r}.")
        output_size = tuple(int(s * r) for s, r in zip(spatial, ratio))
    lead = (1, input.shape[0]) if input.ndim == nd + 1 else tuple(input.shape[:2])
    if random_samples is None:
        random_samples = _random.rand(*(lead + (nd,)), dtype=mstype.float32)
    cls = _defs_ext.FractionalMaxPoolWithFixedKsize if nd == 2 else _defs_ext.FractionalMaxPool3DWithFixedKsize
    y, argmax = cls(kernel_size, output_size)(input, _array.cast(random_samples, mstype.float32))
    return (y, argmax) if return_indices else y


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """2-D fractional max pooling of (N, C, H, W) or (C, H, W) (Graham 2014): windows of ``kernel_size`` at
    pseudo-random starts from ``_random_samples`` (N, C, 2) in [0, 1), ordered (W, H), drawn when None
    (:class:`mindspore.ops.FractionalMaxPoolWithFixedKsize`). ``output_size`` wins over ``output_ratio``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.random.rand(1, 1, 6, 6).astype(np.float32))
        >>> ops.fractional_max_pool2d(x, 2, output_size=(3, 3)).shape
        (1, 1, 3, 3)
    """
    return _fractional(2, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """3-D fractional max pooling of (N, C, D, H, W) or (C, D, H, W), ``_random_samples`` (N, C, 3) ordered
    (D, H, W) (:class:`mindspore.ops.FractionalMaxPool3DWithFixedKsize`).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.random.rand(1, 1, 4, 6, 6).astype(np.float32))
        >>> ops.fractional_max_pool3d(x, 2, output_ratio=0.5).shape
        (1, 1, 2, 3, 3)
    """
    return _fractional(3, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=0,
                              remove_accidental_hits=False):
    """``(sampled_candidates, true_expected_count, sampled_expected_count)`` of
    :class:`mindspore.ops.UniformCandidateSampler`.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> out = ops.uniform_candidate_sampler(ms.Tensor(np.array([[1], [3]]), ms.int64), 1, 3, True, 5)
        >>> out[0].shape
        (3,)
    """
    _check_tensor("UniformCandidateSampler", "true_classes", true_classes)
    prim = _defs_ext.UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed, remove_accidental_hits)
    return prim(true_classes)


def log_uniform_candidate_sampler(true_classes, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
    """``(sampled_candidates, true_expected_count, sampled_expected_count)`` of
    :class:`mindspore.ops.LogUniformCandidateSampler`.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> out = ops.log_uniform_candidate_sampler(ms.Tensor(np.array([[1], [3]]), ms.int64), num_sampled=3)
        >>> out[1].shape
        (2, 1)
    """
    _check_tensor("LogUniformCandidateSampler", "true_classes", true_classes)
    return _defs_ext.LogUniformCandidateSampler(num_true, num_sampled, unique, range_max, seed)(true_classes)


def deformable_conv2d(x, weight, offsets, kernel_size, strides, padding, bias=None, dilations=(1, 1, 1, 1), groups=1,
                      deformable_groups=1, modulated=True):
    """Deformable convolution v2 of (N, C_in, H, W) ``x``: the samples of
    :class:`mindspore.ops.DeformableOffsets` (``offsets`` (N, 3 * deformable_groups * kh * kw, H_out, W_out): x
    offsets, y offsets, masks), convolved with ``weight`` (C_out, C_in / groups, kh, kw) at stride ``kernel_size``,
    plus ``bias``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> x = ms.Tensor(np.ones((1, 2, 4, 4), np.float32))
        >>> w = ms.Tensor(np.ones((3, 2, 2, 2), np.float32))
        >>> off = ms.Tensor(np.zeros((1, 12, 3, 3), np.float32))
        >>> ops.deformable_conv2d(x, w, off, (2, 2), (1, 1, 1, 1), (0, 0, 0, 0)).shape
        (1, 3, 3, 3)
    """
    for name, value in (("x", x), ("weight", weight), ("offsets", offsets)):
        _check_tensor("deformable_conv2d", name, value)
    kernel = tuple(kernel_size)
    if weight.ndim != 4 or tuple(weight.shape[2:]) != kernel:
        raise MSValueError(f"For 'deformable_conv2d', the 'weight' must be (C_out, C_in / groups, "
                           f"{kernel[0]}, {kernel[1]}), but got {weight.shape}.")
    samples = _defs_ext.DeformableOffsets(strides, padding, kernel, dilations, "NCHW", deformable_groups,
                                      modulated)(x, offsets)
    conv = _conv_defs.Conv2D(weight.shape[0], kernel, mode=1, pad_mode="valid", stride=kernel, group=groups)
    out = conv(samples, weight)
    if bias is not None:
        out = _nn_defs.BiasAdd()(out, bias)
    return out
