"""The functional multi-head attention of MindSpore's ``ops.function.nn_func`` and the helpers that module exposes
under its own names (``linear``, ``_in_projection(_packed)``, the ``_check_*`` shape checks, ``_inner_pad``,
``_inner_dropout``, the ``interpolate`` size helpers): libraries written for MindSpore (MindOne's
``MultiheadAttention``, its WavLM) import them from ``nn_func``, which re-exports this module.

``multi_head_attention_forward`` follows 2.10 (PyTorch's convention): inputs (L, N, E) or unbatched (L, E); the
packed ``in_proj_weight`` (3E, E) or separate q/k/v weights; a bool mask (``True`` = not attended, uint8 read as
bool) or a float mask added to the scores, 2-D (L, S) or 3-D (N * heads, L, S); ``key_padding_mask`` (N, S);
optional ``bias_k``/``bias_v`` rows and a zero attention row appended to the keys; the scores scaled by
``d ** -0.25`` on each side; dropout on the weights while training. Returns ``(output, weights)``, the weights
averaged over heads unless ``average_attn_weights=False``.
"""
from __future__ import annotations

import math

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs._lazy import functional as _functional

__all__ = ["multi_head_attention_forward"]


def _ops():
    """The functional API (``mindspore.ops.functional``, which imports this module's family through nn_func)."""
    return _functional


def linear(x, w, b):
    """``x @ w^T + b`` (``b`` may be None)."""
    out = _ops().matmul(x, w.swapaxes(-1, -2))
    return out if b is None else out + b


def _check_qkv_shape(query_ndim, key_ndim, value_ndim):
    """Whether the inputs are batched (3-D) or not (2-D); anything else raises ValueError."""
    if query_ndim not in (2, 3):
        raise MSValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got `query` with "
                           f"{query_ndim}D.")
    if key_ndim != query_ndim or value_ndim != query_ndim:
        kind = "batched" if query_ndim == 3 else "unbatched"
        raise MSValueError(f"For {kind} `query`, the `key` and `value` must be {query_ndim}D tensor, but got `key` "
                           f"with {key_ndim}D and `value` with {value_ndim}D.")
    return query_ndim == 3


def _check_kpm_shape(query_ndim, kmp_ndim):
    """``key_padding_mask`` must be 2-D for a batched query, 1-D for an unbatched one."""
    want = 2 if query_ndim == 3 else 1
    if query_ndim in (2, 3) and kmp_ndim != want:
        kind = "batched" if query_ndim == 3 else "unbatched"
        raise MSValueError(f"For {kind} `query`, the `key_padding_mask` must be `None` or {want}D, but got "
                           f"`key_padding_mask` with {kmp_ndim}D.")


def _check_attn_mask_shape(query_ndim, query_shape, key_shape, attn_mask_ndim, attn_mask_shape, num_heads):
    """``attn_mask`` must be 2-D or 3-D; a 3-D mask of an unbatched query is (heads, L, S)."""
    if query_ndim not in (2, 3):
        return
    if attn_mask_ndim not in (2, 3):
        kind = "batched" if query_ndim == 3 else "unbatched"
        raise MSValueError(f"For {kind} `query`, the `attn_mask` must be `None`, 2-D or 3-D, but got `attn_mask` "
                           f"with{attn_mask_ndim}D.")
    if query_ndim == 2 and attn_mask_ndim == 3:
        expected = (num_heads, query_shape[0], key_shape[0])
        if tuple(attn_mask_shape) != expected:
            raise MSValueError(f"The shape of `attn_mask` must to be {expected}, but got {attn_mask_shape}.")


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """Project ``q, k, v`` with their own weights (E, E), (E, Ek), (E, Ev) and biases (E,)."""
    e = q.shape[-1]
    for what, w, want in (("query", w_q, (e, e)), ("key", w_k, (e, k.shape[-1])), ("value", w_v, (e, v.shape[-1]))):
        if tuple(w.shape) != want:
            raise MSValueError(f"Expecting {what} weights shape of {want}, but got {tuple(w.shape)}")
    for what, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and tuple(b.shape) != (e,):
            raise MSValueError(f"Expecting {what} bias shape of {(e,)}, but got {tuple(b.shape)}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection_packed(q, k, v, w, b, k_is_v, q_is_k):
    """Project ``q, k, v`` with the packed weight (3E, E) and bias (3E,), in one product where they are the same
    tensor (self-attention) or two where only ``k`` is ``v``."""
    e = q.shape[-1]
    if k_is_v:
        if q_is_k:
            return tuple(linear(q, w, b).tensor_split(3, axis=-1))
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        return (linear(q, w_q, b_q),) + tuple(linear(k, w_kv, b_kv).tensor_split(2, axis=-1))
    w_q, w_k, w_v = w.tensor_split(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.tensor_split(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _inner_dropout(x, p, training):
    """Dropout with probability ``p`` while training (``0 < p <= 1``); ``x`` otherwise."""
    if training and 0.0 < p <= 1.0:
        return _ops().dropout(x, p=p, training=True)
    return x


def _inner_pad(x, padding, value=None):
    """``ops.pad`` that also takes a bool tensor (padded with False, or ``value``)."""
    if x.dtype != mstype.bool_:
        return _ops().pad(x, padding, value=value)
    return _ops().pad(x.astype(mstype.int32), padding, value=value).astype(mstype.bool_)


def _interploate_ext_make_tuple(input, value):  # noqa: A002 - MindSpore's names (and spelling)
    """``value`` as one entry per spatial dim of ``input`` (N, C, *spatial); a list or tuple as it is."""
    if isinstance(value, (list, tuple)):
        return value
    return tuple(value for _ in range(input.ndim - 2))


def _interpolate_ext_scale_factor_convert_size(input, scale_factor):  # noqa: A002
    """The output size ``floor(in * scale)`` of each spatial dim of ``input``."""
    shape = input.shape
    return tuple(int(math.floor(shape[i + 2] * scale_factor[i]))
                 for i in range(min(len(shape) - 2, len(scale_factor))))


def _sdpa(q, k, v, attn_mask, dropout_p, is_causal, training):
    """Attention of (N, H, L, d) heads; the scores scaled by ``d ** -0.25`` on each side as 2.10 does."""
    ops = _ops()
    scale = math.sqrt(math.sqrt(q.shape[-1]))
    q = q / scale
    if is_causal:
        attn_mask = ops.ones((q.shape[-2], k.shape[-2]), mstype.bool_).tril()
    attn = ops.matmul(q, k.swapaxes(-2, -1) / scale)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = _inner_dropout(ops.softmax(attn, -1), dropout_p, training)
    return ops.matmul(attn, v), attn


def _prepare_attn_mask(attn_mask, tgt_len, src_len, bsz, num_heads):
    """A 3-D bool or float mask of (1 or N * heads, L, S)."""
    if attn_mask.dtype == mstype.uint8:
        attn_mask = attn_mask.astype(mstype.bool_)
    elif attn_mask.dtype != mstype.bool_ and not _ops().is_floating_point(attn_mask):
        raise MSValueError(f"`attn_mask` only support float, byte, and bool types, but got not {attn_mask.dtype}.")
    if attn_mask.ndim not in (2, 3):
        raise MSValueError(f"The ndim of `attn_mask` only support 2 or 3, but got {attn_mask.ndim}.")
    want = (tgt_len, src_len) if attn_mask.ndim == 2 else (bsz * num_heads, tgt_len, src_len)
    if tuple(attn_mask.shape) != want:
        raise MSValueError(f"The shape of the `attn_mask` should be {want}, but got {tuple(attn_mask.shape)}.")
    return attn_mask.expand_dims(0) if attn_mask.ndim == 2 else attn_mask


def _heads(x, static, bsz, num_heads, head_dim, what):
    """(S, N, E) as (N * heads, S, d), or the given ``static`` keys/values of that shape."""
    if static is None:
        return x.view((x.shape[0], bsz * num_heads, head_dim)).swapaxes(0, 1)
    if static.shape[0] != bsz * num_heads:
        raise MSValueError(f"The shape[0] of `{what}` should be {bsz * num_heads}, but got {static.shape[0]}")
    if static.shape[2] != head_dim:
        raise MSValueError(f"The shape[2] of `{what}` should be {head_dim}, but got {static.shape[2]}")
    return static


def _project(query, key, value, in_proj_weight, in_proj_bias, use_separate_proj_weight, separate, k_is_v, q_is_k):
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise MSValueError("`use_separate_proj_weight` is ``False`` but `in_proj_weight` got ``None``.")
        return _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias, k_is_v, q_is_k)
    for what, w in zip("qkv", separate):
        if w is None:
            raise MSValueError(f"`use_separate_proj_weight` is ``True`` but `{what}_proj_weight` got ``None``.")
    biases = (None, None, None) if in_proj_bias is None else in_proj_bias.tensor_split(3)
    return _in_projection(query, key, value, *separate, *biases)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False, k_is_v=False, q_is_k=False, dtype=mstype.float32):
    """Multi-head attention of ``query`` (L, N, E) over ``key``/``value`` (S, N, E) (see the module docstring).

    Returns:
        ``(output, weights)``: (L, N, E) and (N, L, S) (or (N, heads, L, S) without averaging); unbatched
        inputs give (L, E) and (L, S).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore.ops.function.nn_func import multi_head_attention_forward
        >>> x = ms.Tensor(np.ones((3, 2, 4), np.float32))
        >>> w = ms.Tensor(np.tile(np.eye(4, dtype=np.float32), (3, 1)))
        >>> b = ms.Tensor(np.zeros(12, np.float32))
        >>> out, weights = multi_head_attention_forward(x, x, x, 4, 2, w, b, None, None, False, 0.0,
        ...                                             ms.Tensor(np.eye(4, dtype=np.float32)), None)
        >>> out.shape, weights.shape
        ((3, 2, 4), (2, 3, 3))
    """
    del dtype   # 2.10 scales in this dtype; the scale is a Python float here, exact in any
    ops = _ops()
    is_batched = _check_qkv_shape(query.ndim, key.ndim, value.ndim)
    if key_padding_mask is not None:
        _check_kpm_shape(query.ndim, key_padding_mask.ndim)
    if attn_mask is not None:
        _check_attn_mask_shape(query.ndim, query.shape, key.shape, attn_mask.ndim, attn_mask.shape, num_heads)
    if not is_batched:
        query, key, value = query.expand_dims(1), key.expand_dims(1), value.expand_dims(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.expand_dims(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    if key_padding_mask is not None and key_padding_mask.dtype != mstype.bool_ and \
            not ops.is_floating_point(key_padding_mask):
        raise MSValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if embed_dim != embed_dim_to_check:
        raise MSValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got {embed_dim}.")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise MSValueError(f"The `embed_dim` {embed_dim} can not be divisible by `num_heads` {num_heads}.")
    if use_separate_proj_weight and key.shape[:2] != value.shape[:2]:
        raise MSValueError(f"The sequence length and batch dims of `key`: {key.shape[:2]} do not match `value`: "
                           f"{value.shape[:2]}.")
    if not use_separate_proj_weight and key.shape != value.shape:
        raise MSValueError(f"The shape of `key` {key.shape} does not match `value` {value.shape}.")
    q, k, v = _project(query, key, value, in_proj_weight, in_proj_bias, use_separate_proj_weight,
                       (q_proj_weight, k_proj_weight, v_proj_weight), k_is_v, q_is_k)
    if attn_mask is not None:
        attn_mask = _prepare_attn_mask(attn_mask, tgt_len, src_len, bsz, num_heads)
    if (bias_k is None) != (bias_v is None):
        raise MSValueError("The bias_k and bias_v should be ``None``at the same time.")
    if bias_k is not None:
        if static_k is not None or static_v is not None:
            raise MSValueError(f"The bias_{'k' if static_k is not None else 'v'} cannot be added to "
                               f"static_{'k' if static_k is not None else 'v'}.")
        k = ops.cat([k, bias_k.tile((1, bsz, 1))])
        v = ops.cat([v, bias_v.tile((1, bsz, 1))])
        attn_mask = None if attn_mask is None else _inner_pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _inner_pad(key_padding_mask, (0, 1))
    q = q.view((tgt_len, bsz * num_heads, head_dim)).swapaxes(0, 1)
    k = _heads(k, static_k, bsz, num_heads, head_dim, "static_k")
    v = _heads(v, static_v, bsz, num_heads, head_dim, "static_v")
    if add_zero_attn:
        zeros = ops.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype)
        k, v = ops.cat([k, zeros], axis=1), ops.cat([v, zeros.astype(v.dtype)], axis=1)
        attn_mask = None if attn_mask is None else _inner_pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else _inner_pad(key_padding_mask, (0, 1))
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise MSValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but got "
                               f"{tuple(key_padding_mask.shape)}.")
        key_padding_mask = key_padding_mask.view((bsz, 1, 1, src_len)).tile((1, num_heads, 1, 1)) \
            .reshape(bsz * num_heads, 1, src_len)
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == mstype.bool_:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask + key_padding_mask
    if attn_mask is not None and attn_mask.dtype == mstype.bool_:
        attn_mask = ops.zeros_like(attn_mask, dtype=q.dtype).masked_fill(attn_mask, float("-inf"))
    if attn_mask is not None:
        attn_mask = attn_mask.expand_dims(0) if attn_mask.shape[0] == 1 else \
            attn_mask.view((bsz, num_heads, -1, src_len))
    out, weights = _sdpa(q.view((bsz, num_heads, tgt_len, head_dim)), k.view((bsz, num_heads, src_len, head_dim)),
                         v.view((bsz, num_heads, src_len, head_dim)), attn_mask, dropout_p, is_causal, training)
    out = linear(out.transpose(2, 0, 1, 3).view((bsz * tgt_len, embed_dim)), out_proj_weight, out_proj_bias)
    out = out.view((tgt_len, bsz, out.shape[1]))
    weights = weights.view((bsz, num_heads, tgt_len, src_len))
    if average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not is_batched:
        return out.squeeze(1), weights.squeeze(0)
    return out, weights
