"""Binary-mask geometry shared by ``HausdorffDistance``, ``MeanSurfaceDistance`` and ``RootMeanSquareDistance``.

MindSpore computes these with SciPy's ``ndimage`` (binary erosion, then a distance transform of the other mask's
edge). mindspore-core does not depend on SciPy, so the same quantities are computed directly with NumPy:

* the edge of a mask is ``mask XOR erode(mask)``, the erosion using the face-connected cross (connectivity 1) with
  everything outside the array counted as background -- SciPy's ``binary_erosion`` defaults;
* the distance transform is only ever read at the other mask's edge voxels, so it is the distance from each of those
  voxels to the nearest edge voxel of this mask: Euclidean (``distance_transform_edt``), Chebyshev
  (``distance_transform_cdt(metric='chessboard')``) or Manhattan (``'taxicab'``). The chamfer transforms are exact
  for these two metrics on a grid, so a pairwise minimum gives the same numbers.
"""
from __future__ import annotations

import numpy as np

__all__ = []

DISTANCE_METRICS = ("euclidean", "chessboard", "taxicab")

_CHUNK = 4096


def binary_erosion(mask):
    """Erosion of a boolean array by the connectivity-1 cross; voxels next to the array border erode away."""
    mask = np.asarray(mask, dtype=bool)
    if mask.ndim == 0:
        return mask.copy()
    padded = np.pad(mask, 1, mode="constant", constant_values=False)
    out = padded.copy()
    core = tuple(slice(1, -1) for _ in range(mask.ndim))
    for axis in range(mask.ndim):
        for shift in (1, -1):
            out &= np.roll(padded, shift, axis=axis)
    return out[core]


def edges(mask):
    """The boundary voxels of a boolean mask."""
    mask = np.asarray(mask, dtype=bool)
    return binary_erosion(mask) ^ mask


def surface_distance(from_edges, to_edges, metric):
    """Distances from every voxel of ``from_edges`` to the nearest voxel of ``to_edges`` (1-D, in the C order of
    ``from_edges``); empty if ``from_edges`` has none, ``inf`` everywhere if ``to_edges`` has none. Euclidean
    distances are float64, chessboard/taxicab ones int32 (as SciPy's chamfer transform returns)."""
    from_edges = np.asarray(from_edges, dtype=bool)
    to_edges = np.asarray(to_edges, dtype=bool)
    if not np.any(from_edges):
        return np.array([])
    src = np.argwhere(from_edges)
    if not np.any(to_edges):
        return np.full(len(src), np.inf)
    dst = np.argwhere(to_edges).astype(np.int64)
    out = np.empty(len(src), dtype=np.float64 if metric == "euclidean" else np.int32)
    for start in range(0, len(src), _CHUNK):
        diff = np.abs(src[start:start + _CHUNK, None, :].astype(np.int64) - dst[None, :, :])
        if metric == "euclidean":
            d = np.sqrt((diff.astype(np.float64) ** 2).sum(axis=-1)).min(axis=1)
        elif metric == "chessboard":
            d = diff.max(axis=-1).min(axis=1)
        else:
            d = diff.sum(axis=-1).min(axis=1)
        out[start:start + _CHUNK] = d
    return out


def check_update_inputs(name, inputs, convert, label_type_error=ValueError, wording=None, compare_bool=False):
    """The shared front half of ``update(y_pred, y, label_idx)``: returns the two boolean masks.

    ``wording`` selects the per-class message variants MindSpore uses (they differ slightly between the three);
    ``compare_bool`` compares boolean inputs with the label too (``HausdorffDistance`` does: its dtype test never
    matches a NumPy bool dtype), otherwise boolean inputs are the masks themselves."""
    w = wording or {}
    if len(inputs) != 3:
        raise ValueError(w.get("count", f"For '{name}.update', it needs 3 inputs (predicted value, true value, "
                                        f"label index), but got {{}}.").format(len(inputs)))
    y_pred = convert(inputs[0])
    y = convert(inputs[1])
    label_idx = inputs[2]
    if not isinstance(label_idx, (int, float)):
        raise label_type_error(w.get("label_type", f"For '{name}.update', the label index (input[2]) must be int or "
                                                   f"float, but got {{}}.").format(type(label_idx)))
    if label_idx not in y_pred and label_idx not in y:
        raise ValueError(w.get("label_in", f"For '{name}.update', the label index (input[2]) must be in predicted "
                                           f"value (input[0]) or true value (input[1]), but {{}} is not.")
                         .format(label_idx))
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(w.get("shape", f"For '{name}.update', the size of predicted value (input[0]) and true value "
                                        f"(input[1]) must be greater than 0, in addition to that, predicted value and "
                                        f"true value must have the same shape, but got predicted value size: {{}}, "
                                        f"shape: {{}}, true value size: {{}}, shape: {{}}.")
                         .format(y_pred.size, y_pred.shape, y.size, y.shape))
    if compare_bool or y_pred.dtype != bool:
        y_pred = y_pred == label_idx
    if compare_bool or y.dtype != bool:
        y = y == label_idx
    return y_pred, y
