"""MindSpore 2.10's sparse-attention operators (Ascend-only there), as compositions of this build's primitives:
``multi_scale_deformable_attn_function`` (Deformable DETR), ``nsa_compress`` and ``nsa_select_attention`` (Native
Sparse Attention, arXiv:2502.11089), ``lightning_indexer`` and ``sparse_flash_attention`` (DeepSeek Sparse
Attention, DeepSeek-V3.2).

All compute in float32 and return the inputs' dtype. The metadata that shapes the work (sequence lengths, level
shapes, block tables) is read on the host, as the Ascend kernels read it; the tensors themselves are only touched by
operators. Where the 2.10 documentation leaves a case open, the choice made here is stated in the function's
docstring (keys a query may not see score ``-inf``; an index slot with nothing to select is ``-1``).

Semantics
---------
* ``multi_scale_deformable_attn_function``: per level ``l`` of size ``(H_l, W_l)`` starting at ``offset[l]`` in the
  keys, bilinear samples (zeros outside, pixel centres at half-integers: ``align_corners=False``) at
  ``locations`` in ``[0, 1]`` (x, y), weighted by ``weight`` and summed over levels and points.
* ``nsa_compress``: per segment of ``actual_seq_len`` (prefix sums), windows of ``compress_block_size`` tokens every
  ``compress_stride``; a window's output is ``sum_i weight[i, n] * input[start + i, n, :]``.
* ``lightning_indexer``: ``score[s2] = sum_h weights[h] * relu(q_h . k[s2])``; its ``sparse_count`` best keys,
  sorted by score; with ``sparse_mode=3`` a query at row ``s1`` sees keys ``s2 <= s1 + S2 - S1`` (lower-right
  causal); keys not seen, and slots beyond the keys there are, give index ``-1`` and value ``-inf``.
* ``sparse_flash_attention``: ``softmax(scale * (q k^T + q_rope k_rope^T)) v`` over the keys ``sparse_indices``
  selects (blocks of ``sparse_block_size`` keys; ``-1`` selects nothing), with the causal bound of ``sparse_mode=3``;
  also the softmax's row maximum and sum of ``exp(score - max)``.
* ``nsa_select_attention``: attention of each query token over the ``select_block_count`` blocks of
  ``select_block_size`` keys its ``topk_indices`` name (keys past the batch's length left out), the ``N1 / N2``
  query heads of a group sharing their key head; the softmax statistics are repeated 8 times, as Ascend stores them.
"""
import numpy as np

from mindspore._errors import MSRuntimeError, MSTypeError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math
from mindspore.ops.function import misc_func as _misc
from mindspore.ops.function import nn_func as _nn
from mindspore.ops.function.llm_func import _check_int, _check_tensor

__all__ = ["multi_scale_deformable_attn_function", "nsa_compress", "nsa_select_attention", "lightning_indexer",
           "sparse_flash_attention"]

_F32 = mstype.float32
_HALF = (mstype.float16, mstype.bfloat16)
_MSDA_FLOATS = (mstype.float16, mstype.float32)
_INTS = (mstype.int32, mstype.int64)


def _host_ints(op, name, value):
    """Metadata (a Tensor or a sequence of ints) as a 1-D int64 NumPy array."""
    if isinstance(value, Tensor):
        return value.asnumpy().astype(np.int64).reshape(-1)
    if isinstance(value, (tuple, list)) and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                for v in value):
        return np.asarray(value, np.int64).reshape(-1)
    raise MSTypeError(f"For '{op}', the '{name}' must be a tuple or list of ints, but got {type(value).__name__}.")


def _prefix_segments(op, name, ends, total):
    """``[(start, stop)]`` of prefix-sum lengths ``ends`` covering ``total`` rows."""
    ends = _host_ints(op, name, ends)
    if ends.size == 0:
        raise MSRuntimeError(f"For '{op}', the '{name}' must not be empty.")
    if (np.diff(ends) < 0).any() or (ends < 0).any():
        raise MSRuntimeError(f"For '{op}', the '{name}' must be a non-decreasing sequence of non-negative ints, but "
                             f"got {ends.tolist()}.")
    if ends[-1] != total:
        raise MSRuntimeError(f"For '{op}', the last element of '{name}' must equal {total}, but got {ends[-1]}.")
    starts = np.concatenate([[0], ends[:-1]])
    return [(int(a), int(b)) for a, b in zip(starts, ends)]


# --- multi-scale deformable attention --------------------------------------------------------------------------
def _check_msda(value, shape, offset, locations, weight):
    op = "multi_scale_deformable_attn_function"
    for name, x, dtypes in (("value", value, _MSDA_FLOATS), ("shape", shape, _INTS), ("offset", offset, _INTS),
                            ("locations", locations, _MSDA_FLOATS), ("weight", weight, _MSDA_FLOATS)):
        _check_tensor(op, name, x, dtypes)
    if value.ndim != 4 or value.shape[-1] % 8:
        raise MSRuntimeError(f"For '{op}', the 'value' must be 4-D (bs, num_keys, num_heads, embed_dims) with "
                             f"embed_dims a multiple of 8, but got shape {value.shape}.")
    bs, _, heads, _ = value.shape
    if locations.ndim != 6 or locations.shape[-1] != 2 or locations.shape[0] != bs or locations.shape[2] != heads:
        raise MSRuntimeError(f"For '{op}', the 'locations' must have shape (bs, num_queries, num_heads, num_levels, "
                             f"num_points, 2) with bs={bs} and num_heads={heads}, but got {locations.shape}.")
    if tuple(weight.shape) != tuple(locations.shape[:-1]):
        raise MSRuntimeError(f"For '{op}', the 'weight' must have shape {tuple(locations.shape[:-1])}, but got "
                             f"{weight.shape}.")
    levels = locations.shape[3]
    if tuple(shape.shape) != (levels, 2) or tuple(offset.shape) != (levels,):
        raise MSRuntimeError(f"For '{op}', the 'shape' must be ({levels}, 2) and the 'offset' ({levels},), but got "
                             f"{shape.shape} and {offset.shape}.")


def multi_scale_deformable_attn_function(value, shape, offset, locations, weight):
    r"""Multi-scale deformable attention: fuse the feature maps of several levels at learned sampling points.

    Args:
        value (Tensor): (bs, num_keys, num_heads, embed_dims), float16 or float32; embed_dims a multiple of 8.
        shape (Tensor): (num_levels, 2), int32 or int64: each level's (H, W).
        offset (Tensor): (num_levels,), int32 or int64: where each level starts along num_keys.
        locations (Tensor): (bs, num_queries, num_heads, num_levels, num_points, 2), the sampling points (x, y) in
            [0, 1] of each level.
        weight (Tensor): (bs, num_queries, num_heads, num_levels, num_points), the points' attention weights.

    Returns:
        Tensor of shape (bs, num_queries, num_heads * embed_dims), in `value`'s dtype.

    Raises:
        TypeError: If an input is not a Tensor of the dtypes above.
        RuntimeError: If the shapes do not agree or embed_dims is not a multiple of 8.

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> value = ms.Tensor(np.random.randn(1, 6, 2, 8), ms.float32)
        >>> shape, offset = ms.Tensor([[2, 2], [1, 2]], ms.int32), ms.Tensor([0, 4], ms.int32)
        >>> loc = ms.Tensor(np.random.rand(1, 3, 2, 2, 4, 2), ms.float32)
        >>> w = ms.Tensor(np.random.rand(1, 3, 2, 2, 4), ms.float32)
        >>> ops.multi_scale_deformable_attn_function(value, shape, offset, loc, w).shape
        (1, 3, 16)
    """
    _check_msda(value, shape, offset, locations, weight)
    bs, _, heads, dims = value.shape
    _, queries, _, levels, points, _ = locations.shape
    sizes = _host_ints("multi_scale_deformable_attn_function", "shape", shape).reshape(levels, 2)
    starts = _host_ints("multi_scale_deformable_attn_function", "offset", offset)
    v = _array.cast(value, _F32)
    grid_all = _array.cast(locations, _F32) * 2 - 1
    w_all = _array.cast(weight, _F32)
    total = None
    for lvl in range(levels):
        h, w_ = int(sizes[lvl, 0]), int(sizes[lvl, 1])
        start = int(starts[lvl])
        feat = v[:, start:start + h * w_]                                  # (bs, H*W, heads, dims)
        feat = _array.reshape(_array.transpose(feat, (0, 2, 3, 1)), (bs * heads, dims, h, w_))
        grid = _array.transpose(grid_all[:, :, :, lvl], (0, 2, 1, 3, 4))   # (bs, heads, nq, P, 2)
        grid = _array.reshape(grid, (bs * heads, queries, points, 2))
        sampled = _misc.grid_sample(feat, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
        wl = _array.reshape(_array.transpose(w_all[:, :, :, lvl], (0, 2, 1, 3)), (bs * heads, 1, queries, points))
        part = (sampled * wl).sum(-1)                                      # (bs*heads, dims, nq)
        total = part if total is None else total + part
    out = _array.transpose(_array.reshape(total, (bs, heads, dims, queries)), (0, 3, 1, 2))
    return _array.cast(_array.reshape(out, (bs, queries, heads * dims)), value.dtype)


# --- NSA compress ----------------------------------------------------------------------------------------------------
def _check_multiple(op, name, value, unit, low, high):
    _check_int(op, name, value)
    if value % unit or not low <= value <= high:
        raise MSRuntimeError(f"For '{op}', the '{name}' must be a multiple of {unit} in [{low}, {high}], but got "
                             f"{value}.")


def nsa_compress(input, weight, compress_block_size, compress_stride, *, actual_seq_len):  # noqa: A002
    r"""Compress the KV sequence (layout TND) by weighted sliding windows, as Native Sparse Attention does.

    Within each segment of ``actual_seq_len`` (prefix sums, the last equal to T), windows of
    ``compress_block_size`` tokens start every ``compress_stride`` tokens (no window crosses a segment); each gives
    one output token ``sum_i weight[i, n] * input[start + i, n, :]``. Outputs keep the segments' order.

    Args:
        input (Tensor): (T, N, D), float16 or bfloat16; D a multiple of 16 at most 256, 1 <= N <= 128.
        weight (Tensor): (compress_block_size, N), `input`'s dtype.
        compress_block_size (int): window size, a multiple of 16 in [16, 128].
        compress_stride (int): window step, a multiple of 16 in [16, compress_block_size].

    Keyword Args:
        actual_seq_len (Union[tuple[int], list[int]]): the segment ends (prefix sums).

    Returns:
        Tensor (T', N, D) in `input`'s dtype, T' the sum over segments of
        ``max(0, 1 + (L_i - compress_block_size) // compress_stride)``.

    Raises:
        TypeError: If `input` or `weight` is not a float16/bfloat16 Tensor, their dtypes differ, or an argument has
            the wrong type.
        RuntimeError: If a shape or value constraint above is broken.

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor, ops
        >>> x = Tensor(np.random.randn(80, 2, 16).astype(np.float16))
        >>> w = Tensor(np.random.randn(32, 2).astype(np.float16))
        >>> ops.nsa_compress(x, w, 32, 16, actual_seq_len=(48, 80)).shape
        (3, 2, 16)
    """
    op = "nsa_compress"
    _check_tensor(op, "input", input, _HALF)
    _check_tensor(op, "weight", weight, _HALF)
    if input.dtype != weight.dtype:
        raise MSTypeError(f"For '{op}', the 'input' and 'weight' must have the same dtype, but got {input.dtype} and "
                          f"{weight.dtype}.")
    if input.ndim != 3 or weight.ndim != 2:
        raise MSRuntimeError(f"For '{op}', the 'input' must be 3-D and the 'weight' 2-D, but got shapes "
                             f"{input.shape} and {weight.shape}.")
    t, n, d = input.shape
    if d % 16 or d > 256 or not 1 <= n <= 128:
        raise MSRuntimeError(f"For '{op}', D must be a multiple of 16 at most 256 and N in [1, 128], but got "
                             f"N={n}, D={d}.")
    _check_multiple(op, "compress_block_size", compress_block_size, 16, 16, 128)
    _check_multiple(op, "compress_stride", compress_stride, 16, 16, compress_block_size)
    if tuple(weight.shape) != (compress_block_size, n):
        raise MSRuntimeError(f"For '{op}', the 'weight' must have shape ({compress_block_size}, {n}), but got "
                             f"{weight.shape}.")
    rows = []
    for start, stop in _prefix_segments(op, "actual_seq_len", actual_seq_len, t):
        count = max(0, 1 + (stop - start - compress_block_size) // compress_stride)
        for j in range(count):
            rows.append(start + j * compress_stride + np.arange(compress_block_size))
    if not rows:
        return _array.zeros((0, n, d), input.dtype)
    index = Tensor(np.stack(rows).astype(np.int32))                         # (T', block)
    windows = _array.gather(_array.cast(input, _F32), index, 0)             # (T', block, N, D)
    w = _array.reshape(_array.cast(weight, _F32), (1, compress_block_size, n, 1))
    return _array.cast((windows * w).sum(1), input.dtype)


# --- attention over selected keys ------------------------------------------------------------------------------------
def _attend(q, k, v, visible, scale):
    """``softmax(scale * q k^T) v`` per row of ``visible`` (rows, keys) bools, float32 (G, rows, D) queries over
    (keys, D) keys; returns ``(out, max, sum)``; a row seeing nothing gives zeros, max ``-inf`` and sum 0."""
    scores = _math.matmul(q, _array.transpose(k, (1, 0))) * scale           # (G, rows, keys)
    mask = Tensor(visible)
    scores = _array.masked_fill(scores, ~mask, float("-inf"))
    row_max = scores.max(axis=-1, keepdims=True)
    safe_max = _array.masked_fill(row_max, Tensor(~visible.any(-1, keepdims=True)), 0.0)
    p = _math.exp(scores - safe_max)
    total = p.sum(-1, keepdims=True)
    out = _math.matmul(p / _array.masked_fill(total, total == 0, 1.0), v)
    return out, row_max, total


def _selected_keys(ids, block, limit, bound=None):
    """The key positions the block ids ``ids`` select (ids < 0 select nothing), below ``limit`` and ``bound``."""
    keep = np.zeros(limit, bool)
    for i in np.asarray(ids).reshape(-1):
        if i >= 0:
            keep[int(i) * block:min(int(i) * block + block, limit)] = True
    if bound is not None:
        keep[bound + 1:] = False
    return keep


def nsa_select_attention(query, key, value, topk_indices, scale_value, head_num, select_block_size,
                         select_block_count, *, atten_mask=None, actual_seq_qlen, actual_seq_kvlen):
    r"""Native Sparse Attention's selected-block attention (layout TND).

    Each query token attends to the ``select_block_count`` blocks of ``select_block_size`` keys that
    ``topk_indices[t, g]`` names for its key head ``g`` (shared by ``N1 / N2`` query heads); keys beyond the batch's
    length are left out, and a block id repeated counts once.

    Args:
        query (Tensor): (T1, N1, D1), float16 or bfloat16.
        key (Tensor): (T2, N2, D1), `query`'s dtype.
        value (Tensor): (T2, N2, D2), `query`'s dtype, D2 <= D1.
        topk_indices (Tensor): (T1, N2, select_block_count), int32 block ids.
        scale_value (float): the scores' scale.
        head_num (int): N1.
        select_block_size (int): keys per block (2.10's kernel: 64).
        select_block_count (int): blocks per query token.

    Keyword Args:
        atten_mask (Tensor, optional): not supported (must be None), as in 2.10.
        actual_seq_qlen (Union[tuple[int], list[int]]): query segment ends (prefix sums, the last equal to T1).
        actual_seq_kvlen (Union[tuple[int], list[int]]): key segment ends (prefix sums, the last equal to T2).

    Returns:
        Tuple of ``attention_out`` (T1, N1, D2) in `query`'s dtype, ``softmax_max`` and ``softmax_sum`` (T1, N1, 8)
        float32 (the statistics repeated 8 times).

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor, ops
        >>> q = Tensor(np.random.randn(4, 2, 16).astype(np.float16))
        >>> k = Tensor(np.random.randn(8, 1, 16).astype(np.float16))
        >>> idx = Tensor(np.zeros((4, 1, 2), np.int32))
        >>> out, mx, sm = ops.nsa_select_attention(q, k, k, idx, 0.25, 2, 4, 2, actual_seq_qlen=[4],
        ...                                        actual_seq_kvlen=[8])
        >>> out.shape, mx.shape
        ((4, 2, 16), (4, 2, 8))
    """
    op = "nsa_select_attention"
    for name, x in (("query", query), ("key", key), ("value", value)):
        _check_tensor(op, name, x, _HALF)
    _check_tensor(op, "topk_indices", topk_indices, (mstype.int32,))
    if not isinstance(scale_value, float):
        raise MSTypeError(f"For '{op}', the 'scale_value' must be a float, but got {type(scale_value).__name__}.")
    for name, v in (("head_num", head_num), ("select_block_size", select_block_size),
                    ("select_block_count", select_block_count)):
        _check_int(op, name, v)
    if atten_mask is not None:
        raise MSRuntimeError(f"For '{op}', the 'atten_mask' is not supported; it must be None.")
    if not query.dtype == key.dtype == value.dtype:
        raise MSRuntimeError(f"For '{op}', the 'query', 'key' and 'value' must have the same dtype, but got "
                             f"{query.dtype}, {key.dtype} and {value.dtype}.")
    t1, n1, d1 = query.shape
    t2, n2, dk = key.shape
    dv = value.shape[-1]
    if head_num != n1 or dk != d1 or dv > dk or n1 % n2 or tuple(value.shape[:2]) != (t2, n2):
        raise MSRuntimeError(f"For '{op}', the shapes must be query (T1, head_num={head_num}, D1), key (T2, N2, D1), "
                             f"value (T2, N2, D2<=D1) with N1 a multiple of N2, but got {query.shape}, {key.shape} "
                             f"and {value.shape}.")
    if tuple(topk_indices.shape) != (t1, n2, select_block_count):
        raise MSRuntimeError(f"For '{op}', the 'topk_indices' must have shape ({t1}, {n2}, {select_block_count}), "
                             f"but got {topk_indices.shape}.")
    q_segs = _prefix_segments(op, "actual_seq_qlen", actual_seq_qlen, t1)
    kv_segs = _prefix_segments(op, "actual_seq_kvlen", actual_seq_kvlen, t2)
    if len(q_segs) != len(kv_segs):
        raise MSRuntimeError(f"For '{op}', the batch sizes of the query and the key must be equal, but got "
                             f"{len(q_segs)} and {len(kv_segs)}.")
    ids = topk_indices.asnumpy()
    group = n1 // n2
    qf, kf, vf = (_array.cast(x, _F32) for x in (query, key, value))
    outs, maxes, sums = [], [], []
    for (qa, qb), (ka, kb) in zip(q_segs, kv_segs):
        s2 = kb - ka
        if ids[qa:qb].size and (ids[qa:qb].max() > s2 // select_block_size or ids[qa:qb].min() < 0):
            raise MSRuntimeError(f"For '{op}', every 'topk_indices' value must be in [0, {s2 // select_block_size}] "
                                 f"for a key length of {s2}.")
        heads_out, heads_max, heads_sum = [], [], []
        for g in range(n2):
            visible = np.stack([_selected_keys(ids[t, g], select_block_size, s2) for t in range(qa, qb)])
            q = _array.transpose(qf[qa:qb, g * group:(g + 1) * group], (1, 0, 2))     # (group, rows, D1)
            out, mx, sm = _attend(q, kf[ka:kb, g], vf[ka:kb, g], visible, scale_value)
            heads_out.append(out)
            heads_max.append(mx)
            heads_sum.append(sm)
        outs.append(_array.transpose(_array.concat(heads_out, 0), (1, 0, 2)))
        maxes.append(_array.transpose(_array.concat(heads_max, 0), (1, 0, 2)))
        sums.append(_array.transpose(_array.concat(heads_sum, 0), (1, 0, 2)))
    out = _array.cast(_array.concat(outs, 0), query.dtype)
    return out, _array.tile(_array.concat(maxes, 0), (1, 1, 8)), _array.tile(_array.concat(sums, 0), (1, 1, 8))


# --- DeepSeek sparse attention: lightning indexer and sparse flash attention ---------------------------------------
def _batches(op, x, layout, lengths, name):
    """The batches of ``x`` as ``[(rows (S, N, D) Tensor, valid length)]`` for layouts BSND and TND."""
    if layout == "BSND":
        if x.ndim != 4:
            raise MSRuntimeError(f"For '{op}', the '{name}' must be 4-D for 'BSND', but got shape {x.shape}.")
        b, s = x.shape[:2]
        lens = np.full(b, s, np.int64) if lengths is None else _host_ints(op, f"actual_seq_lengths_{name}", lengths)
        if lens.shape != (b,) or (lens < 0).any() or (lens > s).any():
            raise MSRuntimeError(f"For '{op}', the lengths of '{name}' must be {b} values in [0, {s}], but got "
                                 f"{lens.tolist()}.")
        return [(x[i], int(lens[i])) for i in range(b)]
    if layout == "TND":
        if x.ndim != 3 or lengths is None:
            raise MSRuntimeError(f"For '{op}', the '{name}' must be 3-D for 'TND' with its prefix-sum lengths given, "
                                 f"but got shape {x.shape}.")
        return [(x[a:b], b - a) for a, b in _prefix_segments(op, f"actual_seq_lengths_{name}", lengths, x.shape[0])]
    raise MSRuntimeError(f"For '{op}', the layout of '{name}' must be 'BSND' or 'TND', but got {layout!r}.")


def _paged_keys(op, key, block_table, lengths, batch):
    """PA_BSND: each batch's keys gathered from the blocks its row of ``block_table`` lists."""
    if block_table is None or lengths is None or key.ndim != 4:
        raise MSRuntimeError(f"For '{op}', the 'PA_BSND' layout needs a 4-D key (block_num, block_size, N2, D), a "
                             f"'block_table' and the key lengths.")
    table = block_table.asnumpy().astype(np.int64)
    lens = _host_ints(op, "actual_seq_lengths_key", lengths)
    block = key.shape[1]
    out = []
    for b in range(batch):
        need = -(-int(lens[b]) // block)
        rows = _array.gather(key, Tensor(table[b, :need].astype(np.int32)), 0)
        out.append((_array.reshape(rows, (need * block,) + tuple(key.shape[2:])), int(lens[b])))
    return out


def _causal_bound(sparse_mode, s1, s2, row):
    """The last key row ``row`` of ``s1`` query rows may see among ``s2`` keys (None: all)."""
    return row + s2 - s1 if sparse_mode == 3 else None


def lightning_indexer(query, key, weights, *, actual_seq_lengths_query=None, actual_seq_lengths_key=None,
                      block_table=None, layout_query="BSND", layout_key="BSND", sparse_count=2048, sparse_mode=3,
                      pre_tokens=2 ** 63 - 1, next_tokens=2 ** 63 - 1, return_value=False):
    r"""The top-k keys of each query token by DeepSeek Sparse Attention's index score.

    ``score[s2] = sum_h weights[h] * relu(query_h . key[s2])`` (float32); the ``sparse_count`` best keys in
    descending score (ties: the lower index). With ``sparse_mode=3`` a query row ``s1`` of ``S1`` sees the keys
    ``s2 <= s1 + S2 - S1`` of ``S2``; ``0`` sees all valid keys. Slots with no key to fill, and rows past the query's
    length, hold index ``-1`` and value ``-inf``.

    Args:
        query (Tensor): (B, S1, N1, D) or (T1, N1, D), float16 or bfloat16.
        key (Tensor): (B, S2, N2, D), (T2, N2, D), or (block_count, block_size, N2, D) for ``"PA_BSND"``; N2 = 1.
        weights (Tensor): (B, S1, N1) or (T1, N1), `query`'s dtype.

    Keyword Args:
        actual_seq_lengths_query (Tensor, optional): per-batch query lengths (prefix sums for ``"TND"``).
        actual_seq_lengths_key (Tensor, optional): per-batch key lengths (prefix sums for ``"TND"``).
        block_table (Tensor, optional): (B, max_blocks) int32, for ``"PA_BSND"``.
        layout_query (str): ``"BSND"`` or ``"TND"``. Default ``"BSND"``.
        layout_key (str): ``"BSND"``, ``"TND"`` or ``"PA_BSND"``. Default ``"BSND"``.
        sparse_count (int): keys kept per query token, in [1, 2048]. Default ``2048``.
        sparse_mode (int): ``0`` or ``3``. Default ``3``.
        pre_tokens (int): only the default is supported.
        next_tokens (int): only the default is supported.
        return_value (bool): also return the scores. Default ``False`` (the values returned are then zeros).

    Returns:
        Tuple ``(sparse_indices, sparse_values)``: int32 indices (B, S1, N2, sparse_count) or (T1, N2, sparse_count)
        and the scores in `query`'s dtype, same shape.

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor, ops
        >>> q = Tensor(np.random.randn(1, 2, 4, 8).astype(np.float16))
        >>> k = Tensor(np.random.randn(1, 5, 1, 8).astype(np.float16))
        >>> w = Tensor(np.random.randn(1, 2, 4).astype(np.float16))
        >>> idx, val = ops.lightning_indexer(q, k, w, sparse_count=3, return_value=True)
        >>> idx.shape
        (1, 2, 1, 3)
    """
    op = "lightning_indexer"
    for name, x in (("query", query), ("key", key), ("weights", weights)):
        _check_tensor(op, name, x, _HALF)
    if not query.dtype == key.dtype == weights.dtype:
        raise MSTypeError(f"For '{op}', the 'query', 'key' and 'weights' must have the same dtype, but got "
                          f"{query.dtype}, {key.dtype} and {weights.dtype}.")
    _check_int(op, "sparse_count", sparse_count)
    if not 1 <= sparse_count <= 2048 or sparse_mode not in (0, 3):
        raise MSRuntimeError(f"For '{op}', the 'sparse_count' must be in [1, 2048] and the 'sparse_mode' 0 or 3, "
                             f"but got {sparse_count} and {sparse_mode}.")
    if pre_tokens != 2 ** 63 - 1 or next_tokens != 2 ** 63 - 1:
        raise MSRuntimeError(f"For '{op}', the 'pre_tokens' and 'next_tokens' only support their defaults.")
    queries = _batches(op, query, layout_query, actual_seq_lengths_query, "query")
    w_batches = _batches(op, _array.expand_dims(weights, -1), layout_query, actual_seq_lengths_query, "query")
    if layout_key == "PA_BSND":
        keys = _paged_keys(op, key, block_table, actual_seq_lengths_key, len(queries))
    else:
        keys = _batches(op, key, layout_key, actual_seq_lengths_key, "key")
    if len(keys) != len(queries) or key.shape[-2] != 1:
        raise MSRuntimeError(f"For '{op}', the key must have 1 head and as many batches as the query, but got "
                             f"{key.shape[-2]} heads and {len(keys)} batches for {len(queries)}.")
    all_idx, all_val = [], []
    for (q, s1_valid), (w, _), (k, s2) in zip(queries, w_batches, keys):
        s1 = q.shape[0]
        kf = _array.cast(k[:s2, 0], _F32)                                         # (S2, D)
        logits = _nn.relu(_math.matmul(_array.cast(q, _F32), _array.transpose(kf, (1, 0))))   # (S1, N1, S2)
        score = (logits * _array.cast(w, _F32)).sum(1)                            # (S1, S2)
        visible = np.zeros((s1, max(s2, 1)), bool)
        for row in range(min(s1, s1_valid)):
            bound = _causal_bound(sparse_mode, s1_valid, s2, row)
            visible[row, :s2 if bound is None else max(0, min(s2, bound + 1))] = True
        visible = visible[:, :s2]
        width = min(sparse_count, s2)
        if width:
            masked = _array.masked_fill(score, Tensor(~visible), float("-inf"))
            val, idx = _array.topk(masked, width, dim=-1, largest=True, sorted=True)
            idx = _array.masked_fill(_array.cast(idx, mstype.int32), val == float("-inf"), -1)
        else:
            val, idx = _array.zeros((s1, 0), _F32), _array.zeros((s1, 0), mstype.int32)
        if width < sparse_count:
            val = _array.concat([val, _array.full((s1, sparse_count - width), float("-inf"), dtype=_F32)], -1)
            idx = _array.concat([idx, _array.full((s1, sparse_count - width), -1, dtype=mstype.int32)], -1)
        all_idx.append(_array.expand_dims(idx, 1))
        all_val.append(_array.expand_dims(val, 1))
    stack = _array.stack if layout_query == "BSND" else _array.concat
    indices, values = stack(all_idx, 0), _array.cast(stack(all_val, 0), query.dtype)
    if not return_value:
        values = _array.zeros(values.shape, query.dtype)
    return indices, values


def _check_sfa(op, query, key, value, sparse_indices, scale_value, sparse_block_size, layout_query, layout_kv,
               sparse_mode, attention_mode, query_rope, key_rope):
    for name, x in (("query", query), ("key", key), ("value", value)):
        _check_tensor(op, name, x, _HALF)
    _check_tensor(op, "sparse_indices", sparse_indices, (mstype.int32,))
    if not query.dtype == key.dtype == value.dtype:
        raise MSTypeError(f"For '{op}', the 'query', 'key' and 'value' must have the same dtype, but got "
                          f"{query.dtype}, {key.dtype} and {value.dtype}.")
    if not isinstance(scale_value, (float, int)) or isinstance(scale_value, bool):
        raise MSTypeError(f"For '{op}', the 'scale_value' must be a float, but got {type(scale_value).__name__}.")
    if layout_query not in ("BSND", "TND"):
        raise MSRuntimeError(f"For '{op}', the 'layout_query' must be 'BSND' or 'TND', but got {layout_query!r}.")
    if layout_kv not in ("BSND", "TND", "PA_BSND") or (layout_kv != "PA_BSND" and layout_kv != layout_query):
        raise MSRuntimeError(f"For '{op}', the 'layout_kv' must be 'PA_BSND' or the same as 'layout_query', but got "
                             f"{layout_kv!r}.")
    _check_int(op, "sparse_block_size", sparse_block_size)
    if not 1 <= sparse_block_size <= 128 or sparse_block_size & (sparse_block_size - 1):
        raise MSRuntimeError(f"For '{op}', the 'sparse_block_size' must be a power of 2 in [1, 128], but got "
                             f"{sparse_block_size}.")
    if sparse_mode not in (0, 3):
        raise MSRuntimeError(f"For '{op}', the 'sparse_mode' must be 0 or 3, but got {sparse_mode}.")
    if attention_mode == 2 and (query_rope is None or key_rope is None):
        raise MSRuntimeError(f"For '{op}', 'attention_mode' 2 (MLA-absorb) needs 'query_rope' and 'key_rope'.")


def sparse_flash_attention(query, key, value, sparse_indices, scale_value, *, block_table=None,
                           actual_seq_lengths_query=None, actual_seq_lengths_kv=None, query_rope=None, key_rope=None,
                           sparse_block_size=1, layout_query="BSND", layout_kv="BSND", sparse_mode=3,
                           pre_tokens=2 ** 63 - 1, next_tokens=2 ** 63 - 1, attention_mode=0,
                           return_softmax_lse=False):
    r"""Attention of each query token over the keys ``sparse_indices`` selects (DeepSeek Sparse Attention).

    ``softmax(scale_value * (Q K~^T + Q_rope K_rope~^T)) V~`` where ``K~, V~`` are the keys and values of the blocks
    of ``sparse_block_size`` keys named by ``sparse_indices`` (``-1`` names nothing; a block named twice counts
    once); with ``sparse_mode=3`` a query row ``s1`` of ``S1`` sees only keys ``s2 <= s1 + S2 - S1``. The ``N1``
    query heads share the one key head. Computed in float32.

    Args:
        query (Tensor): (B, S1, N1, D) or (T1, N1, D), float16 or bfloat16.
        key (Tensor): (B, S2, 1, D), (T2, 1, D) or (block_num, block_size, 1, D) for ``"PA_BSND"``.
        value (Tensor): `key`'s shape but the last dimension.
        sparse_indices (Tensor): (B, S1, 1, K) or (T1, 1, K) int32 block ids.
        scale_value (float): the scores' scale.

    Keyword Args:
        block_table (Tensor, optional): (B, max_blocks) int32, for ``"PA_BSND"``.
        actual_seq_lengths_query (Tensor, optional): per-batch query lengths (prefix sums for ``"TND"``).
        actual_seq_lengths_kv (Tensor, optional): per-batch key lengths (prefix sums for ``"TND"``).
        query_rope (Tensor, optional): `query`'s rotary part (last dimension D_rope).
        key_rope (Tensor, optional): `key`'s rotary part.
        sparse_block_size (int): keys per selected block, a power of 2 in [1, 128]. Default ``1``.
        layout_query (str): ``"BSND"`` or ``"TND"``. Default ``"BSND"``.
        layout_kv (str): ``"BSND"``, ``"TND"`` or ``"PA_BSND"``. Default ``"BSND"``.
        sparse_mode (int): ``0`` or ``3``. Default ``3``.
        pre_tokens (int): unused (MindSpore's reserved bound).
        next_tokens (int): unused (MindSpore's reserved bound).
        attention_mode (int): ``2`` is MLA-absorb (needs the rope parts); rope parts are added whenever given.
        return_softmax_lse (bool): return the softmax statistics; otherwise they are zeros. Default ``False``.

    Returns:
        Tuple ``(attention_out, softmax_max, softmax_sum)``: `query`'s shape and dtype; float32 (B, N2, S1, N1/N2)
        or (N2, T1, N1/N2).

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import numpy as np
        >>> from mindspore import Tensor, ops
        >>> q = Tensor(np.random.randn(1, 2, 4, 16).astype(np.float16))
        >>> k = Tensor(np.random.randn(1, 6, 1, 16).astype(np.float16))
        >>> idx = Tensor(np.array([[[[0, 1, -1]], [[2, 5, 4]]]], np.int32))
        >>> out, mx, sm = ops.sparse_flash_attention(q, k, k, idx, 0.25, return_softmax_lse=True)
        >>> out.shape, mx.shape
        ((1, 2, 4, 16), (1, 1, 2, 4))
    """
    op = "sparse_flash_attention"
    _check_sfa(op, query, key, value, sparse_indices, scale_value, sparse_block_size, layout_query, layout_kv,
               sparse_mode, attention_mode, query_rope, key_rope)
    queries = _batches(op, query, layout_query, actual_seq_lengths_query, "query")
    ids_batches = _batches(op, sparse_indices, layout_query, actual_seq_lengths_query, "query")
    rope_q = None if query_rope is None else _batches(op, query_rope, layout_query, actual_seq_lengths_query, "query")
    if layout_kv == "PA_BSND":
        keys = _paged_keys(op, key, block_table, actual_seq_lengths_kv, len(queries))
        values = _paged_keys(op, value, block_table, actual_seq_lengths_kv, len(queries))
        rope_k = None if key_rope is None else _paged_keys(op, key_rope, block_table, actual_seq_lengths_kv,
                                                           len(queries))
    else:
        keys = _batches(op, key, layout_kv, actual_seq_lengths_kv, "kv")
        values = _batches(op, value, layout_kv, actual_seq_lengths_kv, "kv")
        rope_k = None if key_rope is None else _batches(op, key_rope, layout_kv, actual_seq_lengths_kv, "kv")
    if len(keys) != len(queries):
        raise MSRuntimeError(f"For '{op}', the key must have as many batches as the query, but got {len(keys)} and "
                             f"{len(queries)}.")
    outs, maxes, sums = [], [], []
    for b, ((q, s1_valid), (ids, _), (k, s2), (v, _)) in enumerate(zip(queries, ids_batches, keys, values)):
        s1 = q.shape[0]
        host_ids = ids.asnumpy()[:, 0]
        visible = np.zeros((s1, s2), bool)
        for row in range(min(s1, s1_valid)):
            visible[row] = _selected_keys(host_ids[row], sparse_block_size, s2,
                                          _causal_bound(sparse_mode, s1_valid, s2, row))
        qf = _array.transpose(_array.cast(q, _F32), (1, 0, 2))                     # (N1, S1, D)
        kf = _array.cast(k[:s2, 0], _F32)
        if rope_q is not None and rope_k is not None:
            qf = _array.concat([qf, _array.transpose(_array.cast(rope_q[b][0], _F32), (1, 0, 2))], -1)
            kf = _array.concat([kf, _array.cast(rope_k[b][0][:s2, 0], _F32)], -1)
        out, mx, sm = _attend(qf, kf, _array.cast(v[:s2, 0], _F32), visible, float(scale_value))
        outs.append(_array.transpose(out, (1, 0, 2)))                              # (S1, N1, Dv)
        maxes.append(_array.transpose(mx[..., 0], (1, 0)))                         # (S1, N1)
        sums.append(_array.transpose(sm[..., 0], (1, 0)))
    if layout_query == "BSND":
        out = _array.stack(outs, 0)
        mx = _array.expand_dims(_array.stack(maxes, 0), 1)                         # (B, 1, S1, N1)
        sm = _array.expand_dims(_array.stack(sums, 0), 1)
    else:
        out = _array.concat(outs, 0)
        mx, sm = _array.expand_dims(_array.concat(maxes, 0), 0), _array.expand_dims(_array.concat(sums, 0), 0)
    if not return_softmax_lse:
        mx, sm = _array.zeros(mx.shape, _F32), _array.zeros(sm.shape, _F32)
    return _array.cast(out, query.dtype), mx, sm
