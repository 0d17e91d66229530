"""CPU kernels of ``mindspore/ops/_defs/indexing.py`` (gather/scatter, strided slicing, padding, selection,
sorting): mindspore-array-kernels' ``indexing`` family bound to NumPy (the GPU backend binds the same source to
CuPy), with ``TensorScatterElements``' sums through ``np.add.at`` and this backend's N-D scatter-add, which sorts the
flat positions once and reduces them with ``np.add.reduceat`` (much faster than ``np.add.at``).
"""
import numpy as np

from mindspore_array_kernels import bind


def _extremes(idx):
    return int(idx.min()), int(idx.max())


def _add_rows(rows, pos, updates):
    """``rows[pos] += updates`` in place, repeated positions summed."""
    order = np.argsort(pos, kind="stable")
    uniq, starts = np.unique(pos[order], return_index=True)
    rows[uniq] += np.add.reduceat(updates[order], starts, axis=0)


def _same(x):
    return x


KERNELS = bind("indexing", globals(), xp=np, dev=np.asarray, host=np.asarray, extremes=_extremes, add_at=np.add.at,
               add_rows=_add_rows, sortable=_same)["KERNELS"]
