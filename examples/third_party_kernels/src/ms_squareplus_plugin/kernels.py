"""CPU kernels of the plugin (NumPy): the counting ``Add`` override and ``SquarePlus``."""
import collections

import numpy as np

#: Calls of this plugin's kernels in this process, by primitive name.
CALLS = collections.Counter()


def counting_add(prim, x, y, *, out):
    """``x + y`` computed in the inferred output dtype (``out`` is the TensorSpec core inferred)."""
    CALLS["Add"] += 1
    dt = out.dtype.to_numpy()
    return np.asarray(np.add(np.asarray(x, dtype=dt), np.asarray(y, dtype=dt)))


def squareplus(prim, x, *, out):
    CALLS["SquarePlus"] += 1
    return np.asarray((x + np.sqrt(x * x + np.asarray(prim.b, dtype=x.dtype))) / 2)
