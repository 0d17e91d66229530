"""CPU kernels of the collective family (``mindspore/ops/_defs/comm.py``).

A kernel asks :func:`mindspore.plugin.process_group` for its ``prim.group``. A group of one process (no
``communication.init()``, or a world of one) needs no communication: each collective is then what it means for a
single rank (a copy, mostly; ``Send`` to oneself is queued for the matching ``Receive``). A larger group has the
communicator its collective backend made (mindspore-parallel's MPI communicator), whose methods move host arrays
and check that every rank passed the same shapes and dtypes.
"""
import collections

import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError, process_group

# Send to oneself in a group of one: (group, tag) -> queued arrays, taken by Receive in order.
_LOOPBACK = collections.defaultdict(collections.deque)


def _comm(prim):
    """The group's communicator, or None for a group of one process."""
    group = process_group(prim.group)
    if group.size == 1:
        return None
    if group.communicator is None:
        raise MSRuntimeError(f"For '{prim.name}', this process has no communicator for the group '{prim.group}' "
                             f"(it is not one of its members).")
    return group.communicator


def _all_reduce(prim, x, out=None):
    comm = _comm(prim)
    return x.copy() if comm is None else comm.allreduce(x, prim.op, name=prim.name)


def _all_gather(prim, x, out=None):
    comm = _comm(prim)
    return x.copy() if comm is None else comm.all_gather(x, name=prim.name)


def _reduce_scatter(prim, x, out=None):
    comm = _comm(prim)
    return x.copy() if comm is None else comm.reduce_scatter(x, prim.op, name=prim.name)


def _one_rank_v(prim, x, arg, sizes):
    """A V collective on one rank: ``x`` itself, which must have ``sizes[0]`` elements."""
    if x.size != sizes[0]:
        raise MSValueError(f"For '{prim.name}', the 'x' must have {arg}[0] = {sizes[0]} elements, but got shape "
                           f"{x.shape}.")
    return x.copy()


def _all_gather_v(prim, x, output_split_sizes, out=None):
    comm = _comm(prim)
    if comm is None:
        return _one_rank_v(prim, x, "output_split_sizes", output_split_sizes)
    return comm.all_gather_v(x, tuple(output_split_sizes), name=prim.name)


def _reduce_scatter_v(prim, x, input_split_sizes, out=None):
    comm = _comm(prim)
    if comm is None:
        return _one_rank_v(prim, x, "input_split_sizes", input_split_sizes)
    return comm.reduce_scatter_v(x, tuple(input_split_sizes), prim.op, name=prim.name)


def _broadcast(prim, xs, out=None):
    comm = _comm(prim)
    xs = tuple(np.asarray(x) for x in xs)   # graph mode may pass a constant element as a Tensor
    if comm is None:
        return tuple(x.copy() for x in xs)
    return comm.broadcast_many(xs, prim.root_rank, name=prim.name)


def _all_to_all(prim, x, out=None):
    comm = _comm(prim)
    if comm is None:
        return x.copy()
    return comm.alltoall(x, prim.split_dim % x.ndim, prim.concat_dim % x.ndim, name=prim.name)


def _barrier(prim, out=None):
    comm = _comm(prim)
    if comm is not None:
        comm.barrier()
    return np.ones((1,), np.float32)


def _reduce(prim, x, out=None):
    comm = _comm(prim)
    return x.copy() if comm is None else comm.reduce(x, prim.dest_rank, prim.op, name=prim.name)


def _collective_gather(prim, x, out=None):
    comm = _comm(prim)
    return x.copy() if comm is None else comm.gather(x, prim.dest_rank, name=prim.name)


def _collective_scatter(prim, x, out=None):
    comm = _comm(prim)
    return x.copy() if comm is None else comm.scatter(x, prim.src_rank, name=prim.name)


def _send(prim, x, out=None):
    comm = _comm(prim)
    if comm is None:
        _LOOPBACK[(prim.group, prim.sr_tag)].append(np.array(x, copy=True))
    else:
        comm.send(x, prim.dest_rank, prim.sr_tag, name=prim.name)
    return x.copy()


def _receive(prim, *dummy, out):
    comm = _comm(prim)
    if comm is not None:
        return comm.recv(out.shape, out.dtype.to_numpy(), prim.src_rank, prim.sr_tag, name=prim.name)
    queue = _LOOPBACK[(prim.group, prim.sr_tag)]
    if not queue:
        raise MSRuntimeError(f"For '{prim.name}', nothing was sent with tag {prim.sr_tag} in the group "
                             f"'{prim.group}' of one process, so there is nothing to receive (a Send must come first).")
    got = queue.popleft()
    if got.shape != tuple(out.shape) or got.dtype != out.dtype.to_numpy():
        raise MSRuntimeError(f"For '{prim.name}', the tensor received must have shape {tuple(out.shape)} and dtype "
                             f"{out.dtype}, but the Send with tag {prim.sr_tag} sent shape {got.shape} and dtype "
                             f"{got.dtype}.")
    return got


KERNELS = {
    "AllReduce": _all_reduce,
    "AllGather": _all_gather,
    "ReduceScatter": _reduce_scatter,
    "AllGatherV": _all_gather_v,
    "ReduceScatterV": _reduce_scatter_v,
    "Broadcast": _broadcast,
    "AlltoAll": _all_to_all,
    "Barrier": _barrier,
    "Reduce": _reduce,
    "CollectiveGather": _collective_gather,
    "CollectiveScatter": _collective_scatter,
    "Send": _send,
    "Receive": _receive,
}
