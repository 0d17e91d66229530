"""The flash attentions of MindSpore 2.10's LLM operators (Ascend-only there), as compositions of this build's
primitives: ``prompt_flash_attention`` (prefill) and ``incre_flash_attention`` (decode, dense or block-table keys),
``fused_infer_attention_score`` (either, by the query's length) and the training ``speed_fusion_attention``.

All compute ``softmax(scale * Q K^T + bias, masked) V`` in float32 and cast back to the query's dtype, the
key/value heads shared by ``num_heads / num_key_value_heads`` query heads. The masks (sequence lengths, the user's
mask, the sparse modes' bands) are built on the host from the lengths and modes, as MindSpore's kernels read them;
a query row that sees no key, or lies beyond its ``actual_seq_lengths``, gives zeros in the inference ones.
``speed_fusion_attention`` runs the composition of ``flash_attention_score``, so it is differentiable; 'TND' packs
sequences along T and masks across them.
"""
import numpy as np

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import nn_func as _nn
from mindspore.ops.function import reduce_func as _reduce
from mindspore.ops.function.llm_func import _check_bool, _check_int, _check_tensor

__all__ = ["prompt_flash_attention", "incre_flash_attention", "fused_infer_attention_score", "speed_fusion_attention"]


# --- inference flash attention -------------------------------------------------------------------------------------
_MAX = 2147483647
_INFER_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32)


def _to_bnsd(op, name, x, layout, heads):
    if layout == "BNSD":
        if x.ndim != 4:
            raise MSValueError(f"For '{op}', the '{name}' must be 4-D (B, N, S, D) for 'BNSD', but got {x.shape}.")
        return x
    if x.ndim != 3 or heads <= 0 or x.shape[-1] % heads:
        raise MSValueError(f"For '{op}', the '{name}' must be 3-D (B, S, H) with H a multiple of {heads} heads for "
                           f"'BSH', but got shape {x.shape}.")
    b, sq, h = x.shape
    return _array.transpose(_array.reshape(x, (b, sq, heads, h // heads)), (0, 2, 1, 3))


def _lengths(op, name, lengths, batch, limit):
    """``actual_seq_lengths``-like argument as an int64 NumPy (B,) array (``limit`` where None)."""
    if lengths is None:
        return np.full((batch,), limit, np.int64)
    arr = np.asarray(lengths.asnumpy() if isinstance(lengths, Tensor) else lengths, np.int64).reshape(-1)
    if arr.size == 1 and batch > 1:
        arr = np.full((batch,), arr[0], np.int64)
    if arr.shape != (batch,) or (arr < 0).any() or (arr > limit).any():
        raise MSValueError(f"For '{op}', the '{name}' must hold {batch} lengths in [0, {limit}], but got "
                           f"{arr.tolist()}.")
    return arr


def _infer_attention(op, q, k, v, scale, hidden, bias, q_lens):
    """``(softmax(scale * q k^T + bias, hidden keys excluded) v, lse)`` for (B, N, Sq, D) queries over
    (B, Nkv, Skv, D) keys (float32 in, float32 out); rows beyond ``q_lens`` or seeing no key are zeros; ``lse``
    (B, N, Sq, 1) is the log of the sum of ``exp`` of the masked scores."""
    b, n, sq, _ = q.shape
    if k.shape[1] == 0 or n % k.shape[1]:
        raise MSValueError(f"For '{op}', the query heads {n} must be a multiple of the key/value heads "
                           f"{k.shape[1]}.")
    k, v = (_array.repeat_interleave(t, n // k.shape[1], 1) for t in (k, v))
    scores = _math.mul(_math.matmul(q, _array.swapaxes(k, -1, -2)), float(scale))
    if bias is not None:
        scores = _math.add(scores, _array.cast(bias, mstype.float32))
    hidden = np.broadcast_to(hidden, (b, 1, sq, k.shape[2])) | (np.arange(sq)[:, None] >= q_lens[:, None, None, None])
    scores = _array.masked_fill(scores, Tensor(hidden), -1e30)
    out = _math.matmul(_nn.softmax(scores, -1), v)
    seen = Tensor((~hidden).any(-1, keepdims=True))
    top = _reduce.amax(scores, -1, True)
    lse = _math.add(top, _math.log(_reduce.sum(_math.exp(_math.sub(scores, top)), -1, True)))
    return _array.where(seen, out, _array.zeros_like(out)), lse


def _band(sq, skv, lo, hi):
    """(Sq, Skv) True where key j is outside ``i + lo <= j <= i + hi``."""
    diff = np.arange(skv)[None, :] - np.arange(sq)[:, None]
    return (diff < lo) | (diff > hi)


def _user_mask(op, attn_mask, batch):
    mask = _check_tensor(op, "attn_mask", attn_mask, (mstype.bool_, mstype.int8, mstype.uint8, mstype.float16))
    arr = mask.asnumpy().astype(bool)
    if arr.ndim == 4:
        arr = arr[:, 0]
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[0] not in (1, batch):
        raise MSValueError(f"For '{op}', the 'attn_mask' shape {mask.shape} is not one of (S, kv_S), (B, S, kv_S), "
                           f"(B, 1, S, kv_S).")
    return arr[:, None]


def _check_quant(op, **quant):
    for name, value in quant.items():
        if value is not None:
            raise MSValueError(f"For '{op}', the int8 quantisation ('{name}') is not supported on this backend; it "
                               f"must be None.")


def _check_attention_args(op, query, key, value, num_heads, scale_value, input_layout, num_key_value_heads):
    for name, x in (("query", query), ("key", key), ("value", value)):
        _check_tensor(op, name, x, _INFER_FLOATS)
    if key.dtype != query.dtype or value.dtype != query.dtype:
        raise MSTypeError(f"For '{op}', the 'query', 'key' and 'value' must have the same dtype, but got "
                          f"{query.dtype}, {key.dtype} and {value.dtype}.")
    _check_int(op, "num_heads", num_heads)
    _check_int(op, "num_key_value_heads", num_key_value_heads)
    if not isinstance(scale_value, (int, float)) or isinstance(scale_value, bool):
        raise MSTypeError(f"For '{op}', the 'scale_value' must be a float, but got {type(scale_value).__name__}.")
    if not isinstance(input_layout, str):
        raise MSTypeError(f"For '{op}', the 'input_layout' must be a str, but got {type(input_layout).__name__}.")
    if input_layout not in ("BSH", "BNSD"):
        raise MSValueError(f"For '{op}', the 'input_layout' must be 'BSH' or 'BNSD', but got '{input_layout}'.")
    if num_heads <= 0 or num_key_value_heads < 0 or (num_key_value_heads and num_heads % num_key_value_heads):
        raise MSRuntimeError(f"For '{op}', the num_heads should be divide by num_key_value_heads, but got num_heads: "
                             f"{num_heads}, and num_key_value_heads: {num_key_value_heads}")
    return num_key_value_heads or num_heads


def _from_bnsd(out, layout, dtype):
    if layout == "BSH":
        b, n, s, d = out.shape
        out = _array.reshape(_array.transpose(out, (0, 2, 1, 3)), (b, s, n * d))
    return _array.cast(out, dtype)


def _prompt_hidden(op, attn_mask, q_lens, kv_lens, sq, skv, sparse_mode, pre_tokens, next_tokens):
    """(B, 1, Sq, Skv) True where a prompt query may not see a key: beyond ``kv_lens``, the mask and the sparse
    mode's band (modes 2-4: causal from the top left, the bottom right, or the band there)."""
    b = q_lens.shape[0]
    hidden = np.arange(skv)[None, None, None, :] >= kv_lens[:, None, None, None]       # (B, 1, 1, Skv)
    if sparse_mode in (2, 3, 4):
        if attn_mask is None or tuple(attn_mask.shape[-2:]) != (2048, 2048):
            raise MSValueError(f"For '{op}', the 'attn_mask' must be the compressed (2048, 2048) mask when "
                               f"'sparse_mode' is {sparse_mode}, but got "
                               f"{None if attn_mask is None else attn_mask.shape}.")
        for i in range(b):
            shift = 0 if sparse_mode == 2 else int(kv_lens[i] - q_lens[i])
            lo, hi = (-_MAX, shift) if sparse_mode != 4 else (shift - pre_tokens, shift + next_tokens)
            hidden = hidden | (np.arange(b) == i)[:, None, None, None] & _band(sq, skv, lo, hi)[None, None]
    elif attn_mask is not None:
        hidden = hidden | _user_mask(op, attn_mask, b)
        if sparse_mode == 0:
            hidden = hidden | _band(sq, skv, -pre_tokens, next_tokens)[None, None]
    return hidden


def prompt_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, actual_seq_lengths_kv=None,
                           pse_shift=None, deq_scale1=None, quant_scale1=None, deq_scale2=None, quant_scale2=None,
                           quant_offset2=None, num_heads=1, scale_value=1.0, pre_tokens=2147483647, next_tokens=0,
                           input_layout="BSH", num_key_value_heads=0, sparse_mode=0, inner_precise=1):
    """Full (prefill) attention ``softmax(scale_value * Q K^T + pse_shift, masked) V`` in the 'BSH' / 'BNSD'
    layouts, the result in the query's layout and dtype. ``attn_mask`` (1/True: discard) with ``sparse_mode`` 0
    also applies the band ``-pre_tokens <= j - i <= next_tokens`` (without a mask nothing is masked); 1: the mask
    alone; 2: causal from the top left; 3: causal from the bottom right (the last query row sees every valid
    key); 4: the band aligned at the bottom right (for 2-4 the mask is MindSpore's compressed (2048, 2048) one,
    whose content is implied). Keys beyond ``actual_seq_lengths_kv[b]`` are excluded and query rows beyond
    ``actual_seq_lengths[b]`` are zeros; ``num_key_value_heads`` (0: ``num_heads``) shares each key/value head
    among ``num_heads / num_key_value_heads`` query heads.

    Examples:
        >>> q = ms.Tensor(np.ones((1, 4, 16), np.float16))
        >>> ops.prompt_flash_attention(q, q, q, num_heads=2).shape
        (1, 4, 16)
    """
    op = "PromptFlashAttention"
    kv_heads = _check_attention_args(op, query, key, value, num_heads, scale_value, input_layout,
                                     num_key_value_heads)
    _check_quant(op, deq_scale1=deq_scale1, quant_scale1=quant_scale1, deq_scale2=deq_scale2,
                 quant_scale2=quant_scale2, quant_offset2=quant_offset2)
    for name, value_ in (("pre_tokens", pre_tokens), ("next_tokens", next_tokens), ("sparse_mode", sparse_mode),
                         ("inner_precise", inner_precise)):
        _check_int(op, name, value_)
    if sparse_mode not in (0, 1, 2, 3, 4):
        raise MSValueError(f"For '{op}', the 'sparse_mode' must be in [0, 4], but got {sparse_mode}.")
    q = _array.cast(_to_bnsd(op, "query", query, input_layout, num_heads), mstype.float32)
    k = _array.cast(_to_bnsd(op, "key", key, input_layout, kv_heads), mstype.float32)
    v = _array.cast(_to_bnsd(op, "value", value, input_layout, kv_heads), mstype.float32)
    b, _, sq, _ = q.shape
    skv = k.shape[2]
    q_lens = _lengths(op, "actual_seq_lengths", actual_seq_lengths, b, sq)
    kv_lens = _lengths(op, "actual_seq_lengths_kv", actual_seq_lengths_kv, b, skv)
    hidden = _prompt_hidden(op, attn_mask, q_lens, kv_lens, sq, skv, sparse_mode, pre_tokens, next_tokens)
    out = _infer_attention(op, q, k, v, scale_value, hidden, pse_shift, q_lens)[0]
    return _from_bnsd(out, input_layout, query.dtype)


def _kv_bnsd(op, key, value, layout, kv_heads, block_table, block_size, batch):
    """The keys and values as float32 (B, Nkv, S, D); with ``block_table`` gathered from (num_blocks,
    ``block_size``, kvH) pages, each row's blocks in order."""
    if block_table is not None:
        _check_tensor(op, "block_table", block_table, (mstype.int32,))
        if key.ndim != 3 or key.shape[1] != block_size:
            raise MSValueError(f"For '{op}', with 'block_table' the 'key' must be (num_blocks, block_size={block_size},"
                               f" kvH), but got shape {key.shape}.")
        key, value = (_array.reshape(_array.gather(c, block_table, 0), (batch, -1, c.shape[-1])) for c in (key, value))
        layout = "BSH"
    return tuple(_array.cast(_to_bnsd(op, name, x, layout, kv_heads), mstype.float32)
                 for name, x in (("key", key), ("value", value)))


def _incre_hidden(op, attn_mask, kv_lengths, kv_padding_size, b, skv):
    """(B, 1, 1, Skv) True where the one query token of a row may not see a key: outside its ``kv_lengths`` keys
    (the last ones before ``kv_padding_size`` when that is given) or masked."""
    pad = 0 if kv_padding_size is None else max(int(_array.reshape(kv_padding_size, (-1,))[0]), 0)
    kv_lens = _lengths(op, "actual_seq_lengths", kv_lengths, b, skv - pad)
    pos = np.arange(skv)[None, :]
    start = (skv - pad - kv_lens)[:, None] if kv_padding_size is not None else 0
    hidden = ((pos < start) | (pos >= start + kv_lens[:, None]))[:, None, None, :]
    if attn_mask is not None:
        mask = _check_tensor(op, "attn_mask", attn_mask, (mstype.bool_, mstype.int8, mstype.uint8))
        hidden = hidden | mask.asnumpy().astype(bool).reshape(mask.shape[0], 1, 1, -1)[..., :skv]
    return hidden


def incre_flash_attention(query, key, value, attn_mask=None, actual_seq_lengths=None, pse_shift=None,
                          dequant_scale1=None, quant_scale1=None, dequant_scale2=None, quant_scale2=None,
                          quant_offset2=None, antiquant_scale=None, antiquant_offset=None, block_table=None,
                          num_heads=1, input_layout="BSH", scale_value=1.0, num_key_value_heads=0,
                          block_size=0, inner_precise=1, kv_padding_size=None):
    """Incremental (decode) attention of one query token per batch row, ``query`` (B, 1, H) / (B, N, 1, D), over
    ``key`` / ``value`` (lists holding one (B, S, kvH) / (B, kvN, S, D) tensor, or one such tensor per batch row),
    the first ``actual_seq_lengths[b]`` keys of row b (with ``kv_padding_size``: the ones just before the last
    ``kv_padding_size``), ``attn_mask`` (B, S) / (B, 1, S) / (B, 1, 1, S) discarding where 1/True, ``pse_shift``
    (1 or B, N, 1, S) added to the scores. With ``block_table`` (B, max_blocks) the keys are paged: ``key`` /
    ``value`` hold (num_blocks, ``block_size``, kvH) and row b's keys are its blocks in order.

    Examples:
        >>> q = ms.Tensor(np.ones((2, 1, 16), np.float16)); kv = ms.Tensor(np.ones((2, 5, 16), np.float16))
        >>> ops.incre_flash_attention(q, [kv], [kv], num_heads=2).shape
        (2, 1, 16)
    """
    op = "IncreFlashAttention"
    if not isinstance(key, (list, tuple)) or not isinstance(value, (list, tuple)) or not key or \
            len(key) != len(value):
        raise MSTypeError(f"For '{op}', the 'key' and 'value' must be non-empty lists of Tensors of one length, but "
                          f"got {type(key).__name__} and {type(value).__name__}.")
    key = key[0] if len(key) == 1 else _array.concat(tuple(key), 0)
    value = value[0] if len(value) == 1 else _array.concat(tuple(value), 0)
    kv_heads = _check_attention_args(op, query, key, value, num_heads, scale_value, input_layout,
                                     num_key_value_heads)
    _check_quant(op, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1, dequant_scale2=dequant_scale2,
                 quant_scale2=quant_scale2, quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
                 antiquant_offset=antiquant_offset)
    q = _array.cast(_to_bnsd(op, "query", query, input_layout, num_heads), mstype.float32)
    b = q.shape[0]
    if q.shape[2] != 1:
        raise MSValueError(f"For '{op}', the query must hold one token per batch row, but got shape {query.shape}.")
    k, v = _kv_bnsd(op, key, value, input_layout, kv_heads, block_table, block_size, b)
    skv = k.shape[2]
    hidden = _incre_hidden(op, attn_mask, actual_seq_lengths, kv_padding_size, b, skv)
    out = _infer_attention(op, q, k, v, scale_value, hidden, pse_shift, np.ones((b,), np.int64))[0]
    return _from_bnsd(out, input_layout, query.dtype)


def fused_infer_attention_score(query, key, value, *, pse_shift=None, atten_mask=None, actual_seq_lengths=None,
                                actual_seq_lengths_kv=None, dequant_scale1=None, quant_scale1=None, dequant_scale2=None,
                                quant_scale2=None, quant_offset2=None, antiquant_scale=None, antiquant_offset=None,
                                key_antiquant_scale=None, key_antiquant_offset=None, value_antiquant_scale=None,
                                value_antiquant_offset=None, block_table=None, query_padding_size=None,
                                kv_padding_size=None, key_shared_prefix=None, value_shared_prefix=None,
                                actual_shared_prefix_len=None, num_heads=1, scale=1.0, pre_tokens=2147483647,
                                next_tokens=2147483647, input_layout="BSH", num_key_value_heads=0, sparse_mode=0,
                                inner_precise=1, block_size=0, antiquant_mode=0, key_antiquant_mode=0,
                                value_antiquant_mode=0, softmax_lse_flag=False):
    """Inference attention, :func:`incre_flash_attention`'s when the query has one token (Q_S == 1, the keys'
    lengths ``actual_seq_lengths_kv``), :func:`prompt_flash_attention`'s otherwise, in the 'BSH', 'BNSD', 'BSND'
    and 'BNSD_BSND' (BNSD in, BSND out) layouts. Returns ``(attention_out, softmax_lse)``: the attention in the
    query's layout and dtype, and with ``softmax_lse_flag`` the float32 (B, N, Q_S, 1) log-sum-exp of the masked,
    scaled scores (else a float32 (1,) zero). ``key`` / ``value`` may be lists of per-batch tensors; quantised
    inputs, query padding and shared prefixes are not offered on this backend.

    Examples:
        >>> q = ms.Tensor(np.ones((1, 4, 16), np.float16))
        >>> ops.fused_infer_attention_score(q, q, q, num_heads=2)[0].shape
        (1, 4, 16)
    """
    op = "FusedInferAttentionScore"
    if isinstance(key, (list, tuple)):
        key = key[0] if len(key) == 1 else _array.concat(tuple(key), 0)
    if isinstance(value, (list, tuple)):
        value = value[0] if len(value) == 1 else _array.concat(tuple(value), 0)
    if input_layout not in ("BSH", "BNSD", "BSND", "BNSD_BSND"):
        raise MSValueError(f"For '{op}', the 'input_layout' must be one of ['BSH', 'BNSD', 'BSND', 'BNSD_BSND'], "
                           f"but got '{input_layout}'.")
    layout = "BSH" if input_layout == "BSH" else "BNSD"
    if input_layout == "BSND":
        query, key, value = ((_array.transpose(x, (0, 2, 1, 3)) if isinstance(x, Tensor) else x)
                             for x in (query, key, value))
    kv_heads = _check_attention_args(op, query, key, value, num_heads, scale, layout, num_key_value_heads)
    _check_quant(op, dequant_scale1=dequant_scale1, quant_scale1=quant_scale1, dequant_scale2=dequant_scale2,
                 quant_scale2=quant_scale2, quant_offset2=quant_offset2, antiquant_scale=antiquant_scale,
                 antiquant_offset=antiquant_offset, key_antiquant_scale=key_antiquant_scale,
                 key_antiquant_offset=key_antiquant_offset, value_antiquant_scale=value_antiquant_scale,
                 value_antiquant_offset=value_antiquant_offset)
    for name, x in (("query_padding_size", query_padding_size), ("key_shared_prefix", key_shared_prefix),
                    ("value_shared_prefix", value_shared_prefix),
                    ("actual_shared_prefix_len", actual_shared_prefix_len)):
        if x is not None:
            raise MSValueError(f"For '{op}', the '{name}' is not offered on this backend; it must be None.")
    _check_bool(op, "softmax_lse_flag", softmax_lse_flag)
    for name, x in (("pre_tokens", pre_tokens), ("next_tokens", next_tokens), ("sparse_mode", sparse_mode)):
        _check_int(op, name, x)
    if sparse_mode not in (0, 1, 2, 3, 4):
        raise MSValueError(f"For '{op}', the 'sparse_mode' must be in [0, 4], but got {sparse_mode}.")
    q = _array.cast(_to_bnsd(op, "query", query, layout, num_heads), mstype.float32)
    b, _, sq, _ = q.shape
    k, v = _kv_bnsd(op, key, value, layout, kv_heads, block_table, block_size, b)
    skv = k.shape[2]
    if sq == 1:
        hidden = _incre_hidden(op, atten_mask, actual_seq_lengths_kv, kv_padding_size, b, skv)
        q_lens = np.ones((b,), np.int64)
    else:
        q_lens = _lengths(op, "actual_seq_lengths", actual_seq_lengths, b, sq)
        kv_lens = _lengths(op, "actual_seq_lengths_kv", actual_seq_lengths_kv, b, skv)
        hidden = _prompt_hidden(op, atten_mask, q_lens, kv_lens, sq, skv, sparse_mode, pre_tokens, next_tokens)
    out, lse = _infer_attention(op, q, k, v, scale, hidden, pse_shift, q_lens)
    out = _array.cast(_array.transpose(out, (0, 2, 1, 3)), query.dtype) if input_layout in ("BSND", "BNSD_BSND") \
        else _from_bnsd(out, layout, query.dtype)
    return out, (lse if softmax_lse_flag else _array.zeros((1,), mstype.float32))


def speed_fusion_attention(query, key, value, head_num, input_layout, *, pse=None, padding_mask=None, atten_mask=None,
                           scale=1.0, keep_prob=1.0, pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                           prefix=None, actual_seq_qlen=None, actual_seq_kvlen=None, sparse_mode=0,
                           gen_mask_parallel=True, sync=False, pse_type=1, q_start_idx=None, kv_start_idx=None):
    """Training attention ``Dropout(Softmax(Mask(scale * (pse + Q K^T), atten_mask)), keep_prob) V`` (``pse_type``
    1; 0: ``scale * Q K^T + pse``), differentiable, in the 'BSH', 'BNSD', 'SBH' and 'BSND' layouts, with
    :func:`flash_attention_score`'s masks and sparse modes 0-4 (2-4 take the compressed (2048, 2048) mask; mode 0
    without a mask ignores ``pre_tokens`` / ``next_tokens``), and in 'TND': sequences packed along T, their ends
    ``actual_seq_qlen`` / ``actual_seq_kvlen`` (cumulative), each query seeing only its own sequence's keys (sparse
    mode 0 without a mask, or 2-4 inside each sequence; no ``pse``). Returns ``(attention_out, softmax_max,
    softmax_sum, softmax_out, seed, offset, numels)``: the attention in the query's layout and dtype, the scores'
    row maxima and sums of ``exp`` (float32 (B, N, S, 8), 'TND': (T, N, 8)), an empty ``softmax_out``, and int64
    (1,) zeros for the dropout seed, offset and mask length (the dropout here draws from MindSpore's global seed).

    Examples:
        >>> q = ms.Tensor(np.ones((1, 4, 16), np.float16))
        >>> ops.speed_fusion_attention(q, q, q, 2, "BSH")[0].shape
        (1, 4, 16)
    """
    op = "FlashAttentionScore"
    for name, x in (("query", query), ("key", key), ("value", value)):
        _check_tensor(op, name, x, _INFER_FLOATS)
    if key.dtype != query.dtype or value.dtype != query.dtype:
        raise MSTypeError(f"For '{op}', the 'query', 'key' and 'value' must have the same dtype, but got "
                          f"{query.dtype}, {key.dtype} and {value.dtype}.")
    _check_int(op, "head_num", head_num)
    for name, value_ in (("sparse_mode", sparse_mode), ("pse_type", pse_type), ("pre_tokens", pre_tokens),
                         ("next_tokens", next_tokens)):
        _check_int(op, name, value_)
    for name, value_ in (("scale", scale), ("keep_prob", keep_prob)):
        if not isinstance(value_, float):
            raise MSTypeError(f"For '{op}', the '{name}' must be a float, but got {type(value_).__name__}.")
    if not isinstance(input_layout, str):
        raise MSTypeError(f"For '{op}', the 'input_layout' must be a str, but got {type(input_layout).__name__}.")
    if input_layout not in ("BSH", "BNSD", "SBH", "BSND", "TND"):
        raise MSValueError(f"For '{op}', the 'input_layout' must be one of ['BSH', 'BNSD', 'SBH', 'BSND', 'TND'], "
                           f"but got '{input_layout}'.")
    if sparse_mode in (5, 6, 7, 8) or pse_type in (2, 3):
        raise MSValueError(f"For '{op}', the sparse modes 5-8 and the generated ALiBi 'pse_type' 2 and 3 are not "
                           f"offered on this backend, but got sparse_mode {sparse_mode} and pse_type {pse_type}.")
    if sparse_mode not in (0, 1, 2, 3, 4):
        raise MSValueError(f"For '{op}', the 'sparse_mode' must be in [0, 8], but got {sparse_mode}.")
    if pse_type not in (0, 1):
        raise MSValueError(f"For '{op}', the 'pse_type' must be in [0, 3], but got {pse_type}.")
    for name, x in (("pse", pse), ("padding_mask", padding_mask), ("atten_mask", atten_mask)):
        if x is not None:
            _check_tensor(op, name, x)
    if atten_mask is not None and atten_mask.dtype not in (mstype.bool_, mstype.uint8):   # a ValueError in 2.10
        raise MSValueError(f"For '{op}', the dtype of 'atten_mask' must be bool or uint8, but got {atten_mask.dtype}.")
    from mindspore.ops.function.nn_prims_func import _flash_attention   # the attention flash_attention_score runs
    if input_layout == "TND":
        return _tnd_attention(op, _flash_attention, query, key, value, head_num, pse, atten_mask, scale, keep_prob,
                              pre_tokens, next_tokens, actual_seq_qlen, actual_seq_kvlen, sparse_mode)
    swap = input_layout in ("SBH", "BSND")
    layout = {"SBH": "BSH", "BSND": "BNSD"}.get(input_layout, input_layout)
    perm = (1, 0, 2) if input_layout == "SBH" else (0, 2, 1, 3)
    q, k, v = ((_array.transpose(x, perm) if swap else x) for x in (query, key, value))
    if sparse_mode in (2, 3, 4):
        if atten_mask is None or tuple(atten_mask.shape[-2:]) != (2048, 2048):
            raise MSValueError(f"For '{op}', the 'atten_mask' must be the compressed (2048, 2048) mask when "
                               f"'sparse_mode' is {sparse_mode}.")
        atten_mask = None      # its lower triangle is what the mode's band already says
    elif atten_mask is None and sparse_mode == 0:
        pre_tokens = next_tokens = _MAX
    shift = None
    if pse is not None:
        shift = _math.mul(_array.cast(pse, mstype.float32), float(scale)) if pse_type == 1 else pse
    out, row_max, row_sum = _flash_attention(q, k, v, head_num, shift, None, None, atten_mask, None, None, None,
                                             float(keep_prob), float(scale), pre_tokens, next_tokens, layout,
                                             sparse_mode, True)
    if swap:
        out = _array.transpose(out, perm)
    eight = row_max.shape[:-1] + (8,)
    zero = Tensor(np.zeros((1,), np.int64))
    return (out, _array.broadcast_to(row_max, eight), _array.broadcast_to(row_sum, eight),
            _array.zeros((0,), query.dtype), zero, zero, zero)


def _tnd_attention(op, flash, query, key, value, head_num, pse, atten_mask, scale, keep_prob, pre_tokens,
                   next_tokens, actual_seq_qlen, actual_seq_kvlen, sparse_mode):
    """:func:`speed_fusion_attention` over packed sequences: one (1, N, T1, T2) attention whose mask keeps each
    query inside its own sequence (and the sparse mode's band there), through ``flash`` (the composition of
    ``flash_attention_score``)."""
    for name, x in (("query", query), ("key", key), ("value", value)):
        if x.ndim != 3:
            raise MSValueError(f"For '{op}', the '{name}' must be 3-D (T, N, D) in layout 'TND', but got {x.shape}.")
    if pse is not None:
        raise MSValueError(f"For '{op}', the 'pse' is not offered with layout 'TND' on this backend; it must be None.")
    if sparse_mode in (2, 3, 4):
        if atten_mask is None or tuple(atten_mask.shape[-2:]) != (2048, 2048):
            raise MSValueError(f"For '{op}', the 'atten_mask' must be the compressed (2048, 2048) mask when "
                               f"'sparse_mode' is {sparse_mode}.")
    elif sparse_mode != 0 or atten_mask is not None:
        raise MSValueError(f"For '{op}', layout 'TND' takes 'sparse_mode' 2, 3 or 4 with the compressed mask, or 0 "
                           f"without a mask, but got sparse_mode {sparse_mode}.")
    q_seq, q_pos, q_len = _packed(op, "actual_seq_qlen", actual_seq_qlen, query.shape[0])
    k_seq, k_pos, k_len = _packed(op, "actual_seq_kvlen", actual_seq_kvlen, key.shape[0])
    if q_len.size != k_len.size:
        raise MSValueError(f"For '{op}', the 'actual_seq_qlen' and 'actual_seq_kvlen' must describe as many "
                           f"sequences, but got {q_len.size} and {k_len.size}.")
    hidden = q_seq[:, None] != k_seq[None, :]
    diff = k_pos[None, :] - q_pos[:, None]
    shift = 0 if sparse_mode == 2 else (k_len - q_len)[q_seq][:, None]
    if sparse_mode in (2, 3):
        hidden |= diff > shift
    elif sparse_mode == 4:
        hidden |= (diff < shift - pre_tokens) | (diff > shift + next_tokens)
    q, k, v = (_array.expand_dims(_array.transpose(x, (1, 0, 2)), 0) for x in (query, key, value))
    out, row_max, row_sum = flash(q, k, v, head_num, None, None, None, Tensor(hidden[None, None]), None, None, None,
                                  float(keep_prob), float(scale), _MAX, _MAX, "BNSD", 1, True)
    stats = [_array.broadcast_to(_array.transpose(t[0], (1, 0, 2)), (query.shape[0], query.shape[1], 8))
             for t in (row_max, row_sum)]
    zero = Tensor(np.zeros((1,), np.int64))
    return (_array.transpose(out[0], (1, 0, 2)), stats[0], stats[1], _array.zeros((0,), query.dtype), zero, zero,
            zero)


def _packed(op, name, ends, total):
    """For cumulative sequence ends (non-decreasing, the last ``total``): each token's sequence, its place in it,
    and the sequences' lengths (NumPy int64)."""
    if ends is None:
        raise MSValueError(f"For '{op}', the '{name}' is required with layout 'TND'.")
    arr = np.asarray(ends.asnumpy() if isinstance(ends, Tensor) else ends, np.int64).reshape(-1)
    if arr.size == 0 or arr[-1] != total or (np.diff(arr) < 0).any() or arr[0] < 0:
        raise MSValueError(f"For '{op}', the '{name}' must be non-decreasing cumulative lengths ending at {total}, "
                           f"but got {arr.tolist()}.")
    starts = np.concatenate(([0], arr[:-1]))
    seq = np.searchsorted(arr, np.arange(total), side="right")
    return seq, np.arange(total) - starts[seq], arr - starts
