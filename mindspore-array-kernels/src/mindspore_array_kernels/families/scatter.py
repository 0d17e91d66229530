"""The kernels of ``mindspore/ops/_defs/scatter.py``: the in-place row/N-D scatters (``ScatterAdd`` ...
``ScatterNonAliasingAdd``), which write into their first input's buffer and return it, and the functional
``TensorScatterSub``/``Mul``/``Div``/``Max``/``Min``, which work on a copy. Bound (:func:`mindspore_array_kernels.bind`)
with ``xp``, the array library; ``dev``, an operand as an ``xp`` array (the very buffer when it is one: the in-place
scatters write into it); ``host``, an array as NumPy (a small read); ``scan_max``, the running maximum along axis 0
(NumPy's ``maximum.accumulate``; CuPy's ``maximum`` has none).

Updates go through flat positions over the addressed leading axes; repeated positions are applied one occurrence
after the other (in rounds holding each position once, in the order of the updates), so sums, products, quotients
and extrema accumulate and an update keeps the last value, as NumPy's ``ufunc.at`` would. Each round is one
vectorised read-modify-write: the result does not depend on atomics.
"""
import numpy as np

BOUND = ("xp", "dev", "host", "scan_max")


def _positions(x, indices, nd):
    """Flat positions (M,) into ``x`` viewed as (P, R...) and that view's P: rows for the row scatters, the
    first K axes for the N-D ones."""
    indices = indices.astype(xp.int64)
    k = indices.shape[-1] if nd else 1
    lead = x.shape[:k]
    idx = indices.reshape(-1, k) if nd else indices.reshape(-1, 1)
    bounds = xp.asarray(lead, dtype=xp.int64)
    idx = xp.where(idx < 0, idx + bounds, idx)
    pos = xp.zeros(idx.shape[0], dtype=xp.int64)
    for axis in range(k):
        pos = pos * lead[axis] + idx[:, axis]
    size = 1
    for s in lead:
        size *= s
    return pos, size, k


def _rounds(pos):
    """Split the update positions into rounds in which no position repeats (in their order): a list of index
    arrays into ``pos``. The i-th occurrence of a position goes into round i."""
    order = xp.argsort(pos, kind="stable")
    sorted_pos = pos[order]
    n = pos.shape[0]
    if n == 0:
        return []
    starts = xp.concatenate([xp.ones(1, dtype=bool), sorted_pos[1:] != sorted_pos[:-1]])
    group_start = scan_max(xp.where(starts, xp.arange(n), 0))
    rank = xp.arange(n) - group_start
    rounds = int(host(rank.max())) + 1
    return [order[rank == r] for r in range(rounds)]


_OPS = {"sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "div": lambda a, b: a / b,
        "max": lambda a, b: xp.maximum(a, b), "min": lambda a, b: xp.minimum(a, b), "update": lambda a, b: b,
        "add": lambda a, b: a + b}


def _apply(prim, target, indices, updates):
    """``target`` (written in place) with the updates applied, every repeat of a position in turn."""
    pos, size, k = _positions(target, indices, prim.nd)
    if pos.size and bool(host(xp.any((pos < 0) | (pos >= size)))):
        raise ValueError(f"For '{prim.name}', the indices are out of range for the shape {target.shape}.")
    view = target.reshape((size,) + target.shape[k:])
    upd = updates.astype(target.dtype).reshape((pos.shape[0],) + target.shape[k:])
    fn = _OPS[prim.kind]
    for sel in _rounds(pos):
        rows = pos[sel]
        view[rows] = fn(view[rows], upd[sel])
    return target


def _in_place(prim, input_x, indices, updates, out=None):
    with np.errstate(all="ignore"):
        return _apply(prim, dev(input_x), dev(indices), dev(updates))   # x is the Parameter's buffer


def _functional(prim, input_x, indices, updates, out=None):
    with np.errstate(all="ignore"):
        return _apply(prim, dev(input_x).copy(), dev(indices), dev(updates))


_IN_PLACE = ("ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterUpdate",
             "ScatterNdAdd", "ScatterNdSub", "ScatterNdMul", "ScatterNdDiv", "ScatterNdMax", "ScatterNdMin",
             "ScatterNonAliasingAdd")
_FUNCTIONAL = ("TensorScatterSub", "TensorScatterMul", "TensorScatterDiv", "TensorScatterMax", "TensorScatterMin")

KERNELS = {**{name: _in_place for name in _IN_PLACE}, **{name: _functional for name in _FUNCTIONAL}}
