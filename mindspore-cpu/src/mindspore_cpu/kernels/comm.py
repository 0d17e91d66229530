"""CPU kernels of the collective family (``mindspore/ops/_defs/comm.py``): mindspore-array-kernels' ``comm`` family
bound to NumPy (the GPU backend binds the same source to CuPy), with its transport: a group of more than one process
has the communicator its collective backend made (mindspore-parallel's MPI communicator), whose methods move host
arrays (``x`` as it is; an exchange's messages contiguous) and check that every rank passed the same shapes and
dtypes. A group of one process needs no communication (the family's single-rank semantics).
"""
import numpy as np

from mindspore_array_kernels import bind


def _same(a):
    return a


def _transport(prim, host):
    """The MPI communicator itself: it takes and gives NumPy arrays."""
    return host, np.asarray, _same


KERNELS = bind("comm", globals(), xp=np, dev=np.asarray, transport=_transport, to_host=np.ascontiguousarray,
               from_host=_same)["KERNELS"]
