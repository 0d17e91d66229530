"""CPU kernels of ``mindspore/ops/_defs/sparse.py``: mindspore-array-kernels' ``sparse`` family bound to NumPy (the
GPU backend binds the same source to CuPy), with ``np.add.at`` for the sums (repeated indices sum) and this backend's
``Gather`` for ``SparseGatherV2``."""
import numpy as np

from mindspore_array_kernels import bind
from mindspore_cpu.kernels.indexing import KERNELS as _INDEXING

KERNELS = bind("sparse", globals(), xp=np, dev=np.asarray, host=np.asarray, back=np.asarray, add_at=np.add.at,
               indexing=_INDEXING)["KERNELS"]
