"""The large-language-model operators of MindSpore 2.10 (Ascend-only there), as compositions of this build's
primitives: MoE token permutation and routing, the ring-attention merge, the paged key/value cache (its write,
``ReshapeAndCache``, and its attention, ``PagedAttention`` / ``PagedAttentionMask``), rotary position embedding and
DeepSeek's group-limited routing (``GroupTopk``). The flash attentions of inference and training are in
:mod:`mindspore.ops.function.llm_attention_func`.

``moe_token_permute`` groups the routed copies of the tokens by expert::

    flat = indices.reshape(-1)                     # (num_tokens * topk,), copy i is token i // topk
    order = stable_argsort(flat)                   # the copies, expert by expert
    permuted_tokens = tokens[order // topk][:num_out_tokens]
    sorted_indices = argsort(order)                # where copy i went (int32)

and ``moe_token_unpermute`` undoes it: ``out[t] = sum_k probs[t, k] * permuted_tokens[sorted_indices[t * topk + k]]``
(a copy dropped by ``num_out_tokens`` adds nothing). Both are gathers, so their gradients are the scatters the
autodiff of ``Gather`` gives (MindSpore's ``MoeTokenPermuteGrad`` / ``MoeTokenUnpermuteGrad``).
``moe_init_routing_v2`` is the same grouping with per-expert capacities.

``ring_attention_update`` merges two partial attentions from their softmax statistics (``m``: row maxima, ``s``:
row sums of ``exp(score - m)``)::

    m = max(m1, m2),  s = s1 * exp(m1 - m) + s2 * exp(m2 - m),
    out = out1 * (s1 * exp(m1 - m) / s) + out2 * (s2 * exp(m2 - m) / s)

The paged cache stores token ``t`` of the key/value at slot ``slot_mapping[t]``: row ``slot % block_size`` of block
``slot // block_size`` (a negative slot is not stored). ``PagedAttention`` gathers each sequence's blocks through
its row of ``block_tables``, keeps its first ``context_lens[b]`` keys and attends them with
``softmax(scale * q k^T + attn_mask + alibi) v``, the key/value heads shared by ``head_num / kv_head_num`` query
heads, in float32, cast back to the query's dtype as ``flash_attention_score`` does.
"""
import numpy as np

from mindspore._core.primitive import prim_attr_register
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.control_prims import _CallOnly
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import nn_func as _nn
from mindspore.ops.function import reduce_func as _reduce

__all__ = ["moe_token_permute", "moe_token_unpermute", "moe_init_routing_v2", "ring_attention_update"]

_INTS = (mstype.int32, mstype.int64)
_FLOATS = (mstype.float16, mstype.bfloat16, mstype.float32)


def _check_tensor(op, name, value, dtypes=None):
    if not isinstance(value, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    if dtypes is not None and value.dtype not in dtypes:
        raise MSTypeError(f"For '{op}', the '{name}' dtype must be in {[str(d) for d in dtypes]}, but got "
                          f"{value.dtype}.")
    return value


def _check_int(op, name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise MSTypeError(f"For '{op}', the '{name}' must be an int, but got {type(value).__name__}.")
    return value


def _check_bool(op, name, value):
    if not isinstance(value, bool):
        raise MSTypeError(f"For '{op}', the '{name}' must be a bool, but got {type(value).__name__}.")
    return value


# --- MoE token permutation -------------------------------------------------------------------------------------------
def moe_token_permute(tokens, indices, num_out_tokens=None, padded_mode=False):
    """Group the ``topk`` routed copies of each token by expert: ``(permuted_tokens, sorted_indices)``, where
    ``permuted_tokens`` (``tokens``' dtype) lists the copies in ascending expert order (ties in token order), cut
    to the first ``num_out_tokens`` rows when that is given and non-zero (a negative one counts from the end, as a
    slice), and ``sorted_indices`` (int32, one per copy) is the row each copy went to.

    Args:
        tokens (Tensor): (num_tokens, hidden_size), bfloat16, float16 or float32.
        indices (Tensor): (num_tokens, topk) or (num_tokens,) expert indices, int32 or int64; topk <= 512.
        num_out_tokens (int, optional): the number of copies kept. Default: ``None`` (all).
        padded_mode (bool, optional): must be ``False``. Default: ``False``.

    Examples:
        >>> tokens = ms.Tensor([[1, 1, 1], [7, 7, 7], [2, 2, 2], [1, 1, 1], [2, 2, 2], [3, 3, 3]], ms.float32)
        >>> out, order = ops.moe_token_permute(tokens, ms.Tensor([5, 0, 3, 1, 2, 4], ms.int32))
        >>> out[:, 0], order        # [7. 1. 2. 2. 3. 1.], [5 0 3 1 2 4]
    """
    op = "MoeTokenPermute"
    _check_tensor(op, "tokens", tokens, _FLOATS)
    _check_tensor(op, "indices", indices, _INTS)
    if num_out_tokens is not None:
        _check_int(op, "num_out_tokens", num_out_tokens)
    _check_bool(op, "padded_mode", padded_mode)
    if padded_mode:
        raise MSValueError(f"For '{op}', the 'padded_mode' only supports False, but got True.")
    if tokens.ndim != 2:
        raise MSValueError(f"For '{op}', the 'tokens' must be a 2-D tensor, but got shape {tokens.shape}.")
    if indices.ndim not in (1, 2):
        raise MSValueError(f"For '{op}', the 'indices' must be a 1-D or 2-D tensor, but got shape {indices.shape}.")
    topk = 1 if indices.ndim == 1 else indices.shape[1]
    if topk > 512:
        raise MSValueError(f"For '{op}', the second dim of 'indices' must be less than or equal to 512, but got "
                           f"{topk}.")
    if indices.shape[0] != tokens.shape[0]:
        raise MSRuntimeError(f"For '{op}', the first dim of 'tokens' and 'indices' must be the same, but got "
                             f"{tokens.shape[0]} and {indices.shape[0]}.")
    n = indices.shape[0] * topk
    flat = _array.cast(_array.reshape(indices, (n,)), mstype.int64)
    # (expert, position) as one int64 key: a stable order whatever the backend's sort
    order = _array.argsort(_math.add(_math.mul(flat, n), _array.arange(0, n, dtype=mstype.int64)))
    sorted_indices = _array.cast(_array.argsort(order), mstype.int32)
    rows = _math.floor_divide(order, topk)
    if num_out_tokens:
        rows = rows[:num_out_tokens]
    return _array.gather(tokens, rows, 0), sorted_indices


def moe_token_unpermute(permuted_tokens, sorted_indices, probs=None, padded_mode=False, restore_shape=None):
    """Undo :func:`moe_token_permute`: token ``t`` of the result is the sum over its ``topk`` copies of
    ``probs[t, k] * permuted_tokens[sorted_indices[t * topk + k]]`` (``topk`` is ``probs``' second dim, 1 without
    ``probs``; a copy whose row is beyond ``permuted_tokens``, dropped by ``num_out_tokens``, adds nothing).
    The result has ``permuted_tokens``' dtype and shape (num_tokens, hidden_size).

    Examples:
        >>> x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
        >>> ops.moe_token_unpermute(x, ms.Tensor([3, 0, 2, 1], ms.int32))[:, 0]     # [6. 0. 4. 2.]
    """
    op = "MoeTokenUnpermute"
    _check_tensor(op, "permuted_tokens", permuted_tokens, _FLOATS)
    _check_tensor(op, "sorted_indices", sorted_indices, (mstype.int32,))
    _check_bool(op, "padded_mode", padded_mode)
    if padded_mode:
        raise MSValueError(f"For '{op}', the 'padded_mode' only supports False, but got True.")
    if permuted_tokens.ndim != 2 or sorted_indices.ndim != 1:
        raise MSValueError(f"For '{op}', the 'permuted_tokens' must be 2-D and the 'sorted_indices' 1-D, but got "
                           f"shapes {permuted_tokens.shape} and {sorted_indices.shape}.")
    n = sorted_indices.shape[0]
    topk = 1
    if probs is not None:
        _check_tensor(op, "probs", probs, _FLOATS)
        if probs.ndim != 2 or probs.shape[0] * probs.shape[1] != n:
            raise MSValueError(f"For '{op}', the 'probs' must be 2-D (num_tokens, topk) with num_tokens * topk "
                               f"equal to the length {n} of 'sorted_indices', but got shape {probs.shape}.")
        topk = probs.shape[1]
    rows, hidden = permuted_tokens.shape
    idx = _array.cast(sorted_indices, mstype.int64)
    kept = _math.less(idx, rows)
    picked = _array.gather(permuted_tokens, _math.minimum(idx, rows - 1), 0)
    picked = _array.where(_array.expand_dims(kept, -1), picked, _array.zeros_like(picked))
    picked = _array.reshape(picked, (n // topk, topk, hidden))
    if probs is not None:
        picked = _math.mul(picked, _array.expand_dims(_array.cast(probs, picked.dtype), -1))
    return _reduce.sum(picked, 1)


def moe_init_routing_v2(x, expert_idx, active_num, expert_capacity, expert_num, drop_pad_mode,
                        expert_tokens_count_or_cumsum_flag, expert_tokens_before_capacity_flag):
    """Route the ``K`` expert choices of each row of ``x`` (NUM_ROWS, H): the copies (copy ``i`` is row
    ``i // K`` bound for expert ``expert_idx.ravel()[i]``) in ascending expert order, ties in copy order.

    ``drop_pad_mode`` 0: ``expanded_x`` (NUM_ROWS * K, H) lists the copies in that order (only the first
    ``active_num`` when it is positive) and ``expanded_row_idx[i]`` (int32) is the row copy ``i`` went to; 1: each
    expert keeps its first ``expert_capacity`` copies, ``expanded_x`` is (expert_num, expert_capacity, H) zero
    padded, and a dropped copy's ``expanded_row_idx`` is -1. The third output, when asked for: the copies per expert
    (int32 (expert_num,)) before the drop (``drop_pad_mode`` 1 and ``expert_tokens_before_capacity_flag``), or their
    running sum (``expert_tokens_count_or_cumsum_flag`` 1) or counts (2) with ``drop_pad_mode`` 0.

    Examples:
        >>> x = ms.Tensor(np.array([[0.1, 0.2, 0.3], [0.2, 0.7, 0.8], [0.3, 0.3, 0.5]]), ms.float16)
        >>> idx = ms.Tensor(np.array([[0, 1, 1], [2, 1, 1], [0, 0, 0]]), ms.int32)
        >>> ops.moe_init_routing_v2(x, idx, 3, 2, 3, 1, 0, False)[1]     # [0 2 3 4 -1 -1 1 -1 -1]
    """
    op = "MoeInitRoutingV2"
    _check_tensor(op, "x", x, _FLOATS)
    _check_tensor(op, "expert_idx", expert_idx, (mstype.int32,))
    for name, value in (("active_num", active_num), ("expert_capacity", expert_capacity), ("expert_num", expert_num),
                        ("drop_pad_mode", drop_pad_mode),
                        ("expert_tokens_count_or_cumsum_flag", expert_tokens_count_or_cumsum_flag)):
        if _check_int(op, name, value) < 0:
            raise MSValueError(f"For '{op}', the '{name}' must be non-negative, but got {value}.")
    _check_bool(op, "expert_tokens_before_capacity_flag", expert_tokens_before_capacity_flag)
    if drop_pad_mode not in (0, 1) or expert_tokens_count_or_cumsum_flag not in (0, 1, 2):
        raise MSValueError(f"For '{op}', the 'drop_pad_mode' must be 0 or 1 and the "
                           f"'expert_tokens_count_or_cumsum_flag' 0, 1 or 2, but got {drop_pad_mode} and "
                           f"{expert_tokens_count_or_cumsum_flag}.")
    if x.ndim != 2 or expert_idx.ndim != 2 or expert_idx.shape[0] != x.shape[0]:
        raise MSValueError(f"For '{op}', the 'x' must be (NUM_ROWS, H) and the 'expert_idx' (NUM_ROWS, K), but got "
                           f"shapes {x.shape} and {expert_idx.shape}.")
    counted = drop_pad_mode == 1 or expert_tokens_count_or_cumsum_flag > 0
    if counted and expert_num <= 0:
        raise MSValueError(f"For '{op}', the 'expert_num' must be positive in the Drop/Pad scenario or when the "
                           f"expert token counts are asked for, but got {expert_num}.")
    if drop_pad_mode == 1 and not 0 < expert_capacity <= x.shape[0]:
        raise MSValueError(f"For '{op}', the 'expert_capacity' must be in (0, {x.shape[0]}] in the Drop/Pad "
                           f"scenario, but got {expert_capacity}.")
    topk = expert_idx.shape[1]
    n = x.shape[0] * topk
    flat = _array.cast(_array.reshape(expert_idx, (n,)), mstype.int64)
    order = _array.argsort(_math.add(_math.mul(flat, n), _array.arange(0, n, dtype=mstype.int64)))
    back = _array.argsort(order)                      # the position of copy i in the sorted order
    rows = _math.floor_divide(order, topk)
    counts = None
    if counted:
        hits = _math.equal(_array.expand_dims(flat, 1), _array.arange(0, expert_num, dtype=mstype.int64))
        counts = _array.cast(_reduce.sum(_array.cast(hits, mstype.int32), 0), mstype.int32)
    if drop_pad_mode == 0:
        kept = rows[:min(active_num, n)] if active_num > 0 else rows
        outs = (_array.gather(x, kept, 0), _array.cast(back, mstype.int32))
        if expert_tokens_count_or_cumsum_flag:
            cumsum = _array.cast(_math.cumsum(counts, 0), mstype.int32)
            outs += (cumsum if expert_tokens_count_or_cumsum_flag == 1 else counts,)
        return outs
    sorted_expert = _array.gather(flat, order, 0)
    start = _math.sub(_math.cumsum(_array.cast(counts, mstype.int64), 0), _array.cast(counts, mstype.int64))
    rank = _math.sub(_array.arange(0, n, dtype=mstype.int64), _array.gather(start, sorted_expert, 0))
    keep = _math.less(rank, expert_capacity)
    slots = expert_num * expert_capacity
    dest = _math.add(_math.mul(sorted_expert, expert_capacity), rank)
    dest = _array.where(keep, dest, _array.full_like(rank, slots))
    padded = _array.zeros((slots + 1, x.shape[1]), x.dtype)
    padded = _array.tensor_scatter_update(padded, _array.expand_dims(dest, -1), _array.gather(x, rows, 0))
    expanded_x = _array.reshape(padded[:slots], (expert_num, expert_capacity, x.shape[1]))
    row_idx = _array.cast(_array.gather(_array.where(keep, dest, _array.full_like(dest, -1)), back, 0), mstype.int32)
    if expert_tokens_before_capacity_flag:
        return expanded_x, row_idx, counts
    return expanded_x, row_idx


class GroupTopk(_CallOnly):
    """``GroupTopk()(token, idx_arr, group_num, k, k_inner=1)``: DeepSeek's group-limited routing, in place. The
    experts (columns) of ``token`` (num_tokens, expert_num) form ``group_num`` equal groups; a group's score is the
    sum of its ``k_inner`` largest values (in float32); each row keeps its ``k`` best groups (ties: the lower group)
    and the values of the other groups become 0. ``token`` is updated and returned; ``idx_arr`` (int32, MindSpore's
    ``arange(1024)`` work array of the Ascend kernel) is only checked.

    Examples:
        >>> t = ms.Parameter(ms.Tensor(np.array([[1., 5., 2., 2., 0., 9.]], np.float16)))
        >>> ops.GroupTopk()(t, ms.Tensor(np.arange(1024, dtype=np.int32)), 3, 1)     # [[0. 0. 0. 0. 0. 9.]]
    """

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, token, idx_arr, group_num, k, k_inner=1):
        op = "GroupTopk"
        _check_tensor(op, "token", token, _FLOATS)
        _check_tensor(op, "idx_arr", idx_arr, (mstype.int32,))
        group_num, k, k_inner = (int(v) if isinstance(v, Tensor) else _check_int(op, name, v)
                                 for name, v in (("group_num", group_num), ("k", k), ("k_inner", k_inner)))
        if token.ndim != 2:
            raise MSValueError(f"For '{op}', the 'token' must be 2-D (num_tokens, expert_num), but got shape "
                               f"{token.shape}.")
        tokens, experts = token.shape
        if group_num <= 0 or experts % group_num:
            raise MSValueError(f"For '{op}', the 'group_num' must be a positive divisor of the expert number "
                               f"{experts}, but got {group_num}.")
        if not 0 < k <= group_num or not 0 < k_inner <= experts // group_num:
            raise MSValueError(f"For '{op}', the 'k' must be in [1, {group_num}] and the 'k_inner' in "
                               f"[1, {experts // group_num}], but got {k} and {k_inner}.")
        grouped = _array.reshape(_array.cast(token, mstype.float32), (tokens, group_num, experts // group_num))
        score = _reduce.sum(_array.topk(grouped, k_inner)[0], -1)                       # (T, G)
        g = _array.arange(0, group_num, dtype=mstype.int64)
        ahead = _math.logical_or(                                                          # (T, G, G): h before g
            _math.greater(_array.expand_dims(score, 1), _array.expand_dims(score, 2)),
            _math.logical_and(_math.equal(_array.expand_dims(score, 1), _array.expand_dims(score, 2)),
                              _math.less(_array.expand_dims(g, 0), _array.expand_dims(g, 1))))
        keep = _math.less(_reduce.sum(_array.cast(ahead, mstype.int32), -1), k)
        keep = _array.reshape(_array.broadcast_to(_array.expand_dims(keep, -1), grouped.shape), token.shape)
        _array.assign(token, _array.where(keep, token, _array.zeros_like(token)))
        return token


class ApplyRotaryPosEmb(_CallOnly):
    """``ApplyRotaryPosEmb(cos_format=0)(query, key, cos, sin, position_ids)`` -> ``(query_embed, key_embed)``:
    rotary position embedding of the tokens of ``query`` and ``key`` (each (..., heads * head_dim), a row per
    token; the heads may differ), ``x * cos + rotate(x) * sin`` per head, computed in float32 and returned in the
    inputs' shapes and dtypes. ``rotate`` is NeoX's rotate-half (``cos_format`` 0, 1, 2: ``(-x2, x1)`` of the two
    halves) or GPT-J's interleaved rotation (3: each pair ``(x0, x1)`` becomes ``(-x1, x0)``). ``cos`` / ``sin`` are
    (num_tokens, head_dim), one row per token; with more rows they are position tables and a token takes the row of
    its position in its sequence, the sequences being ``position_ids`` (int32 (batch,): their lengths, summing to
    num_tokens) of consecutive tokens.

    Examples:
        >>> q = ms.Tensor(np.ones((3, 16), np.float16)); k = ms.Tensor(np.ones((3, 8), np.float16))
        >>> cos = ms.Tensor(np.ones((3, 8), np.float16)); sin = ms.Tensor(np.zeros((3, 8), np.float16))
        >>> ops.ApplyRotaryPosEmb()(q, k, cos, sin, ms.Tensor([3], ms.int32))[0].shape
        (3, 16)
    """

    @prim_attr_register
    def __init__(self, cos_format=0):
        _check_int(self.name, "cos_format", cos_format)

    def __call__(self, query, key, cos, sin, position_ids):
        op = self.name
        if self.cos_format not in (0, 1, 2, 3):       # checked by the call, as 2.10's kernel does
            raise MSValueError(f"For '{op}', the 'cos_format' must be in [0, 3], but got {self.cos_format}.")
        for name, x in (("query", query), ("key", key), ("cos", cos), ("sin", sin)):
            _check_tensor(op, name, x, _FLOATS)
        _check_tensor(op, "position_ids", position_ids, _INTS)
        if cos.ndim != 2 or sin.shape != cos.shape or cos.shape[1] % 2:
            raise MSValueError(f"For '{op}', the 'cos' and 'sin' must be 2-D of one shape with an even head_dim, "
                               f"but got {cos.shape} and {sin.shape}.")
        dim = cos.shape[1]
        tokens = query.size // query.shape[-1] if query.ndim else 0
        for name, x in (("query", query), ("key", key)):
            if x.ndim < 2 or x.shape[-1] % dim or x.size // x.shape[-1] != tokens:
                raise MSValueError(f"For '{op}', the '{name}' must be (..., heads * {dim}) with {tokens} tokens, but "
                                   f"got shape {x.shape}.")
        cos, sin = (_array.cast(t, mstype.float32) for t in (cos, sin))
        if cos.shape[0] != tokens:       # position tables: each token's place in its sequence
            lens = position_ids.asnumpy().astype(np.int64).reshape(-1)
            if lens.sum() != tokens or (lens < 0).any() or lens.max(initial=0) > cos.shape[0]:
                raise MSValueError(f"For '{op}', the sequence lengths 'position_ids' {lens.tolist()} must sum to the "
                                   f"{tokens} tokens and fit the {cos.shape[0]} rows of 'cos'.")
            pos = Tensor(np.concatenate([np.arange(n) for n in lens]).astype(np.int64) if lens.size else
                         np.zeros((0,), np.int64))
            cos, sin = _array.gather(cos, pos, 0), _array.gather(sin, pos, 0)
        cos, sin = (_array.expand_dims(t, 1) for t in (cos, sin))
        return tuple(_rope(x, cos, sin, tokens, dim, self.cos_format == 3) for x in (query, key))


def _rope(x, cos, sin, tokens, dim, interleaved):
    """``x * cos + rotate(x) * sin`` over (tokens, heads, dim), back in ``x``'s shape and dtype."""
    xf = _array.reshape(_array.cast(x, mstype.float32), (tokens, -1, dim))
    if interleaved:
        pairs = _array.reshape(xf, (tokens, -1, dim // 2, 2))
        rotated = _array.reshape(_array.stack((_math.neg(pairs[..., 1]), pairs[..., 0]), -1), xf.shape)
    else:
        rotated = _array.concat((_math.neg(xf[..., dim // 2:]), xf[..., :dim // 2]), -1)
    out = _math.add(_math.mul(xf, cos), _math.mul(rotated, sin))
    return _array.cast(_array.reshape(out, x.shape), x.dtype)


# --- ring attention ------------------------------------------------------------------------------------------------
def ring_attention_update(prev_attn_out, prev_softmax_max, prev_softmax_sum, cur_attn_out, cur_softmax_max,
                          cur_softmax_sum, actual_seq_qlen=None, layout="SBH"):
    """Merge two attentions over disjoint keys from their softmax row maxima and sums (the module docstring's
    formula): ``(attn_out, softmax_max, softmax_sum)``, each with the shape and dtype of its ``prev_`` input.
    ``layout`` ``'SBH'``: outputs (S, B, H), statistics (B, N, S, 8); ``'TND'``: (T, N, D) and (T, N, 8) (then
    ``actual_seq_qlen``, the cumulative query lengths from 0 to T, is required and only checked: the merge is per
    row).

    Examples:
        >>> o, m, s = ops.ring_attention_update(o1, m1, s1, o2, m2, s2)
    """
    op = "RingAttentionUpdate"
    outs = (prev_attn_out, cur_attn_out)
    stats = (prev_softmax_max, prev_softmax_sum, cur_softmax_max, cur_softmax_sum)
    for name, value in zip(("prev_attn_out", "cur_attn_out"), outs):
        _check_tensor(op, name, value, _FLOATS)
    for name, value in zip(("prev_softmax_max", "prev_softmax_sum", "cur_softmax_max", "cur_softmax_sum"), stats):
        _check_tensor(op, name, value, (mstype.float32,))
    if layout not in ("SBH", "TND"):
        raise MSValueError(f"For '{op}', the 'layout' must be 'SBH' or 'TND', but got {layout!r}.")
    stat_rank = 4 if layout == "SBH" else 3
    if prev_attn_out.ndim != 3 or prev_softmax_max.ndim != stat_rank:
        raise MSValueError(f"For '{op}', the rank of 'prev_attn_out' must be 3 and of 'prev_softmax_max' "
                           f"{stat_rank} while layout is '{layout}', but got {prev_attn_out.ndim} and "
                           f"{prev_softmax_max.ndim}.")
    if cur_attn_out.shape != prev_attn_out.shape or any(s.shape != prev_softmax_max.shape for s in stats):
        raise MSValueError(f"For '{op}', the 'cur_' inputs must have the shapes of the 'prev_' inputs.")
    if layout == "TND" and actual_seq_qlen is None:
        raise MSRuntimeError(f"For '{op}', the 'actual_seq_qlen' is required while layout is 'TND'.")
    m1, s1, m2, s2 = stats
    m = _math.maximum(m1, m2)
    w1 = _math.mul(s1, _math.exp(_math.sub(m1, m)))
    w2 = _math.mul(s2, _math.exp(_math.sub(m2, m)))
    s = _math.add(w1, w2)
    f1, f2 = _math.div(w1, s)[..., :1], _math.div(w2, s)[..., :1]     # the 8 copies are equal: one per row
    if layout == "SBH":   # (B, N, S, 1) -> (S, B, N, 1), against the output's (S, B, N, D)
        f1, f2 = (_array.transpose(f, (2, 0, 1, 3)) for f in (f1, f2))
        sq, b, h = prev_attn_out.shape
        heads = prev_softmax_max.shape[1]
        split = (sq, b, heads, h // heads)
    else:
        split = prev_attn_out.shape
    o1, o2 = (_array.reshape(_array.cast(o, mstype.float32), split) for o in outs)
    out = _math.add(_math.mul(o1, f1), _math.mul(o2, f2))
    return _array.cast(_array.reshape(out, prev_attn_out.shape), prev_attn_out.dtype), m, s


# --- paged key/value cache -----------------------------------------------------------------------------------------
class ReshapeAndCache(_CallOnly):
    """``ReshapeAndCache()(key, value=None, key_cache=None, value_cache=None, slot_mapping=None)``: write token
    ``t`` of ``key`` (and ``value``) into ``key_cache`` (``value_cache``) at slot ``slot_mapping[t]`` (row
    ``slot % block_size`` of block ``slot // block_size``; a negative slot is skipped), in place; returns ``key``.

    ``key``/``value``: (num_tokens, num_head, head_dim), or (..., hidden) with ``hidden = num_head * head_dim``;
    caches: (num_blocks, block_size, num_head, head_dim) or (num_blocks, block_size, hidden); ``slot_mapping``:
    (num_tokens,) int32.

    Examples:
        >>> cache = ms.Parameter(ms.Tensor(np.zeros((2, 4, 8), np.float16)))
        >>> ops.ReshapeAndCache()(ms.Tensor(np.ones((3, 8), np.float16)), None, cache, None,
        ...                       ms.Tensor([5, -1, 0], ms.int32))     # rows 0 and 5 of the 8 slots now ones
    """

    @prim_attr_register
    def __init__(self):
        self.add_prim_attr("side_effect_mem", True)

    def __call__(self, key, value=None, key_cache=None, value_cache=None, slot_mapping=None):
        op = "ReshapeAndCache"
        _check_tensor(op, "key", key)
        _check_tensor(op, "key_cache", key_cache)
        _check_tensor(op, "slot_mapping", slot_mapping, _INTS)
        if slot_mapping.ndim != 1:
            raise MSValueError(f"For '{op}', the 'slot_mapping' must be 1-D, but got shape {slot_mapping.shape}.")
        _write_cache(op, "key", key, key_cache, slot_mapping)
        if value is not None:
            _check_tensor(op, "value", value)
            _check_tensor(op, "value_cache", value_cache)
            _write_cache(op, "value", value, value_cache, slot_mapping)
        return key


def _write_cache(op, name, tokens, cache, slot_mapping):
    if cache.ndim not in (3, 4):
        raise MSValueError(f"For '{op}', the '{name}_cache' must be 3-D or 4-D, but got shape {cache.shape}.")
    slots = cache.shape[0] * cache.shape[1]
    row = int(np.prod(cache.shape[2:]))
    n = slot_mapping.shape[0]
    if tokens.size != n * row:
        raise MSRuntimeError(f"The num_tokens of slot mapping and {name} must be the same, but got slot mapping "
                             f"num_tokens: {n}, {name} num_tokens: {tokens.size // max(row, 1)}")
    if tokens.dtype != cache.dtype:
        raise MSTypeError(f"For '{op}', the '{name}' and '{name}_cache' must have the same dtype, but got "
                          f"{tokens.dtype} and {cache.dtype}.")
    # a negative slot writes to an extra row, dropped afterwards
    slot = _array.cast(slot_mapping, mstype.int64)
    slot = _array.where(_math.less(slot, 0), _array.full_like(slot, slots), slot)
    flat = _array.concat((_array.reshape(cache, (slots, row)), _array.zeros((1, row), cache.dtype)), 0)
    flat = _array.tensor_scatter_update(flat, _array.expand_dims(slot, -1), _array.reshape(tokens, (n, row)))
    _array.assign(cache, _array.reshape(flat[:slots], cache.shape))


class PagedAttention(_CallOnly):
    """``PagedAttention(head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT',
    mask_mode='MASK_DEFAULT', mla_v_dim=0)(query, key_cache, value_cache=None, block_tables=None,
    context_lens=None, antiquant_scale=None, antiquant_offset=None, attn_mask=None, q_seq_lens=None,
    alibi_mask=None)``: attention of each query token over its sequence's cached keys (module docstring).

    ``query``: (num_tokens, head_num, head_dim) or (..., head_num * head_dim), the result in its shape and dtype;
    caches as :class:`ReshapeAndCache`'s; ``block_tables`` (batch, max_num_blocks_per_batch) int32;
    ``context_lens`` (batch,) int32; ``q_seq_lens`` (batch,) int32: the query tokens of each sequence, in order
    (without it each sequence has num_tokens / batch of them); ``attn_mask`` (num_tokens, max_context_len) added
    to the scores; ``alibi_mask`` (num_tokens, max_context_len), or (num_tokens, head_num, q_len, kv_len) for
    :class:`PagedAttentionMask`, added before it. Key/value caches quantised to int8 (``antiquant_*``) are not
    supported here.

    Examples:
        >>> pa = ops.PagedAttention(2, 0.5, 2)
        >>> pa(q, key_cache, value_cache, block_tables, context_lens).shape == q.shape
    """

    @prim_attr_register
    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode="DEFAULT", mask_mode="MASK_DEFAULT",
                 mla_v_dim=0):
        _check_paged_attrs(self.name, head_num, scale_value, kv_head_num, kv_cache_quant_mode, mask_mode, mla_v_dim)

    def __call__(self, query, key_cache, value_cache=None, block_tables=None, context_lens=None, antiquant_scale=None,
                 antiquant_offset=None, attn_mask=None, q_seq_lens=None, alibi_mask=None):
        return _paged_attention(self, query, key_cache, value_cache, block_tables, context_lens, antiquant_scale,
                                antiquant_offset, attn_mask, q_seq_lens, alibi_mask, per_head_alibi=False)


class PagedAttentionMask(PagedAttention):
    """``PagedAttentionMask(head_num, scale_value, kv_head_num, kv_cache_quant_mode='DEFAULT')(query, key_cache,
    value_cache, block_tables, context_lens, antiquant_scale=None, antiquant_offset=None, alibi_mask=None)``:
    :class:`PagedAttention` with a per-head bias ``alibi_mask`` (num_tokens, head_num, 1, kv_len) added to the
    scaled scores.

    Examples:
        >>> ops.PagedAttentionMask(2, 0.5, 2)(q, key_cache, value_cache, block_tables, context_lens, None, None, alibi)
    """

    @prim_attr_register
    def __init__(self, head_num, scale_value, kv_head_num, kv_cache_quant_mode="DEFAULT"):
        _check_paged_attrs(self.name, head_num, scale_value, kv_head_num, kv_cache_quant_mode, "MASK_DEFAULT", 0)

    def __call__(self, query, key_cache, value_cache=None, block_tables=None, context_lens=None, antiquant_scale=None,
                 antiquant_offset=None, alibi_mask=None):
        return _paged_attention(self, query, key_cache, value_cache, block_tables, context_lens, antiquant_scale,
                                antiquant_offset, None, None, alibi_mask, per_head_alibi=True)


def _check_paged_attrs(op, head_num, scale_value, kv_head_num, kv_cache_quant_mode, mask_mode, mla_v_dim):
    for name, value in (("head_num", head_num), ("kv_head_num", kv_head_num), ("mla_v_dim", mla_v_dim)):
        _check_int(op, name, value)
    if not isinstance(scale_value, (int, float)) or isinstance(scale_value, bool):
        raise MSTypeError(f"For '{op}', the 'scale_value' must be a float, but got {type(scale_value).__name__}.")
    if kv_cache_quant_mode not in ("DEFAULT", "PERTOKEN"):
        raise MSValueError(f"For '{op}', the 'kv_cache_quant_mode' must be 'DEFAULT' or 'PERTOKEN', but got "
                           f"{kv_cache_quant_mode!r}.")
    if mask_mode not in ("MASK_DEFAULT", "TRAPEZOIDAL"):
        raise MSValueError(f"For '{op}', the 'mask_mode' must be 'MASK_DEFAULT' or 'TRAPEZOIDAL', but got "
                           f"{mask_mode!r}.")


def _paged_attention(prim, query, key_cache, value_cache, block_tables, context_lens, antiquant_scale,
                     antiquant_offset, attn_mask, q_seq_lens, alibi_mask, per_head_alibi):
    op, heads, kv_heads = prim.name, prim.head_num, prim.kv_head_num
    if heads <= 0 or kv_heads <= 0 or heads % kv_heads:      # checked by the call, as 2.10's kernel does
        raise MSValueError(f"For '{op}', the 'head_num' must be a positive multiple of the positive 'kv_head_num', "
                           f"but got {heads} and {kv_heads}.")
    for name, value in (("query", query), ("key_cache", key_cache), ("value_cache", value_cache)):
        _check_tensor(op, name, value, _FLOATS)
    _check_tensor(op, "block_tables", block_tables, _INTS)
    _check_tensor(op, "context_lens", context_lens, _INTS)
    if antiquant_scale is not None or antiquant_offset is not None:
        raise MSValueError(f"For '{op}', the int8 key/value cache ('antiquant_scale', 'antiquant_offset') is not "
                           f"supported on this backend; they must be None.")
    if key_cache.ndim not in (3, 4) or value_cache.ndim != key_cache.ndim:
        raise MSValueError(f"For '{op}', the caches must be 3-D or 4-D, but got shapes {key_cache.shape} and "
                           f"{value_cache.shape}.")
    head_dim = key_cache.shape[-1] if key_cache.ndim == 4 else key_cache.shape[-1] // kv_heads
    v_dim = value_cache.shape[-1] if value_cache.ndim == 4 else value_cache.shape[-1] // kv_heads
    if query.size % (heads * head_dim):
        raise MSValueError(f"For '{op}', the 'query' must hold num_tokens x {heads} heads x {head_dim}, but got "
                           f"shape {query.shape}.")
    tokens = query.size // (heads * head_dim)
    batch, max_blocks = block_tables.shape
    block = key_cache.shape[1]
    length = max_blocks * block
    # each sequence's keys: its blocks in order, (B, N, L, D) with the kv heads repeated for their query heads
    k, v = (_array.reshape(_array.gather(c, _array.cast(block_tables, mstype.int32), 0), (batch, length, kv_heads, d))
            for c, d in ((key_cache, head_dim), (value_cache, v_dim)))
    k, v = (_array.repeat_interleave(_array.transpose(_array.cast(t, mstype.float32), (0, 2, 1, 3)),
                                     heads // kv_heads, 1) for t in (k, v))
    seq, later = _token_sequences(op, tokens, batch, q_seq_lens)
    q = _array.expand_dims(_array.reshape(_array.cast(query, mstype.float32), (tokens, heads, head_dim)), 2)
    k, v = _array.gather(k, seq, 0), _array.gather(v, seq, 0)       # (T, N, L, D) per query token
    scores = _math.mul(_math.matmul(q, _array.swapaxes(k, -1, -2)), float(prim.scale_value))    # (T, N, 1, L)
    for bias, per_head in ((alibi_mask, per_head_alibi), (attn_mask, False)):
        if bias is not None:
            scores = _math.add(scores, _bias(op, bias, tokens, length, per_head))
    lens = _array.gather(_array.cast(context_lens, mstype.int64), seq, 0)
    if getattr(prim, "mask_mode", "MASK_DEFAULT") == "TRAPEZOIDAL":   # causal among a sequence's query tokens
        lens = _math.sub(lens, later)
    hidden = _math.greater_equal(_array.arange(0, length, dtype=mstype.int64), _array.expand_dims(lens, -1))
    scores = _array.masked_fill(scores, _array.reshape(hidden, (tokens, 1, 1, length)), -1e30)
    out = _math.matmul(_nn.softmax(scores, -1), v)                   # (T, N, 1, Dv)
    shape = query.shape if v_dim == head_dim else query.shape[:-1] + (heads * v_dim,)
    return _array.cast(_array.reshape(out, shape), query.dtype)


def _token_sequences(op, tokens, batch, q_seq_lens):
    """The sequence of each query token and the number of its sequence's query tokens after it (int64 (T,) each):
    consecutive runs of ``q_seq_lens`` tokens, or of T / B tokens."""
    if q_seq_lens is None:
        if batch == 0 or tokens % batch:
            raise MSValueError(f"For '{op}', the {tokens} query tokens must split evenly over the {batch} rows of "
                               f"'block_tables' when 'q_seq_lens' is None.")
        counts = np.full((batch,), tokens // batch, np.int64)
    else:
        counts = _check_tensor(op, "q_seq_lens", q_seq_lens, _INTS).asnumpy().astype(np.int64)
        if counts.shape != (batch,) or counts.sum() != tokens or (counts < 0).any():
            raise MSValueError(f"For '{op}', the 'q_seq_lens' must have one non-negative length per row of "
                               f"'block_tables' summing to the {tokens} query tokens, but got {counts.tolist()}.")
    seq = np.repeat(np.arange(batch), counts)
    ends = np.cumsum(counts)[seq]
    return Tensor(seq), Tensor(ends - np.arange(tokens) - 1)


def _bias(op, bias, tokens, length, per_head):
    """``bias`` as (T, 1 or N, 1, L): its key columns padded with zeros (or cut) to the gathered length."""
    bias = _array.cast(bias, mstype.float32)
    if per_head:
        if bias.ndim != 4 or bias.shape[0] != tokens:
            raise MSValueError(f"For '{op}', the 'alibi_mask' must be (num_tokens, head_num, q_len, kv_len), but "
                               f"got shape {bias.shape}.")
        bias = bias[:, :, -1:, :]
    else:
        if bias.ndim != 2 or bias.shape[0] != tokens:
            raise MSValueError(f"For '{op}', the mask must be (num_tokens, max_context_lens), but got shape "
                               f"{bias.shape}.")
        bias = _array.reshape(bias, (tokens, 1, 1, bias.shape[1]))
    cols = bias.shape[-1]
    if cols >= length:
        return bias[..., :length]
    pad = _array.zeros(bias.shape[:-1] + (length - cols,), mstype.float32)
    return _array.concat((bias, pad), -1)
