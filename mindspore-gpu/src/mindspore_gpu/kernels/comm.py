"""GPU kernels of the collective family (``mindspore/ops/_defs/comm.py``): mindspore-array-kernels' ``comm`` family
bound to CuPy (the CPU backend binds the same source to NumPy), with ``_common.dev`` (no copy for a CuPy array already
on the device) and its transport: a larger group's communicator (mindspore-parallel's MPI communicator) offers a NCCL
communicator over the same ranks (``communicator.nccl()``): device buffers go through NCCL and never leave the GPU.
Only when NCCL is unavailable on some rank do the buffers go through host memory over MPI, and the first such
collective says so with a warning. The exchanges with chosen peers (``AlltoAllV``/``AlltoAllVC``,
``NeighborExchange(V2)``, ``BatchISendIRecv``) always go through host memory over MPI (``cupy.asnumpy`` there, the
results moved back). A group of one process needs no communication (the family's single-rank semantics, on the
device).
"""
import warnings

import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev

_WARNED = []


def _same(a):
    return a


def _transport(prim, host):
    """The NCCL communicator on device buffers, else (with one warning) the MPI one on host copies."""
    device = host.nccl() if hasattr(host, "nccl") else None
    if device is not None:
        return device, dev, _same
    if not _WARNED:
        _WARNED.append(True)
        warnings.warn("NCCL is unavailable (CuPy's cupy.cuda.nccl did not import on every rank): collectives on GPU "
                      "tensors copy them to host memory and go over MPI.", RuntimeWarning, stacklevel=3)
    return host, cupy.asnumpy, dev


KERNELS = bind("comm", globals(), xp=cupy, dev=dev, transport=_transport, to_host=cupy.asnumpy,
               from_host=dev)["KERNELS"]
