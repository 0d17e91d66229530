"""CPU kernels of ``mindspore/ops/_defs/indexing.py`` (gather/scatter, strided slicing, padding, selection,
sorting): mindspore-array-kernels' ``indexing`` family bound to NumPy (the GPU backend binds the same source to
CuPy), with the scatter-adds through ``np.add.at``: it adds the updates in their order, as MindSpore 2.10's CPU
ScatterNd and TensorScatterAdd do (and so ``Gather``'s gradient, an embedding's), which decides the last bits where
an index repeats. (Sorting the positions and summing each run with ``np.add.reduceat`` was 1.1-3.5x slower on
NumPy 2.4 and gave other bits: 138 of 160 float32 ScatterNd values with 3,000 updates onto 20 rows.)
"""
import numpy as np

from mindspore_array_kernels import bind


def _extremes(idx):
    return int(idx.min()), int(idx.max())


def _same(x):
    return x


KERNELS = bind("indexing", globals(), xp=np, dev=np.asarray, host=np.asarray, extremes=_extremes, add_at=np.add.at,
               add_rows=np.add.at, sortable=_same)["KERNELS"]
