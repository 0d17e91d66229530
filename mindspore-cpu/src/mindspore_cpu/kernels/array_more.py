"""CPU kernels of ``mindspore/ops/_defs/array_more.py`` (``Roll``, ``Diag``, ``IndexAdd``, ``IndexFill``,
``MaskedScatter``, the ``Inplace*`` row updates, ``UniqueConsecutive``, the ``BatchToSpace``/``SpaceToBatch``
forms, ...): mindspore-array-kernels' ``array_more`` family bound to NumPy (the GPU backend binds the same source to
CuPy), ``IndexAdd`` accumulating through ``np.add.at``."""
import numpy as np

from mindspore_array_kernels import bind

KERNELS = bind("array_more", globals(), xp=np, dev=np.asarray, host=np.asarray, add_at=np.add.at)["KERNELS"]
