"""The kernels of the collective family (``mindspore/ops/_defs/comm.py``), bound
(:func:`mindspore_array_kernels.bind`) with:

* ``xp``, the array library, and ``dev``, an operand as an ``xp`` array;
* ``transport(prim, host)``, how a collective of a group of more than one process moves this backend's buffers:
  ``(communicator, put, get)``, the communicator whose methods it calls (``host``, the group's: mindspore-parallel's
  MPI communicator, or one it offers over the same ranks), ``put(x)`` an array as that communicator takes it and
  ``get(y)`` its result as an ``xp`` array;
* ``to_host(x)`` (an array as ``host`` takes it) and ``from_host(y)`` (what ``host`` gives, as an ``xp`` array): the
  exchanges with chosen peers (``AlltoAllV``/``AlltoAllVC``, ``NeighborExchange``, ``NeighborExchangeV2`` and its
  gradient, ``BatchISendIRecv``) always go through ``host``'s ``exchange`` (host memory over MPI).

A kernel asks :func:`mindspore.plugin.process_group` for its ``prim.group``. A group of one process (no
``communication.init()``, or a world of one) needs no communication: each collective is then what it means for a
single rank (a copy, mostly; ``Send`` to oneself is queued for the matching ``Receive``, and an exchange's messages
to oneself are matched locally, in order per tag). A larger group's communicator checks that every rank passed the
same shapes and dtypes.
"""
import collections
import itertools

import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError, process_group

BOUND = ("xp", "dev", "transport", "to_host", "from_host")

# Send to oneself in a group of one: (group, tag) -> queued arrays, taken by Receive in order.
_LOOPBACK = collections.defaultdict(collections.deque)


def _host(prim):
    """The group's (MPI) communicator, or None for a group of one process."""
    group = process_group(prim.group)
    if group.size == 1:
        return None
    if group.communicator is None:
        raise MSRuntimeError(f"For '{prim.name}', this process has no communicator for the group '{prim.group}' "
                             f"(it is not one of its members).")
    return group.communicator


def _link(prim):
    """``(communicator, put, get)`` of the group's collectives (see ``transport``), or None for a group of one."""
    host = _host(prim)
    return None if host is None else transport(prim, host)


def _run(prim, method, x, *args):
    """``method`` of the group's communicator on ``x`` (and ``args``); None in a group of one process."""
    link = _link(prim)
    if link is None:
        return None
    comm, put, get = link
    return get(getattr(comm, method)(put(x), *args, name=prim.name))


def _local_or(result, x):
    return dev(x).copy() if result is None else result


def _all_reduce(prim, x, out=None):
    return _local_or(_run(prim, "allreduce", x, prim.op), x)


def _all_gather(prim, x, out=None):
    return _local_or(_run(prim, "all_gather", x), x)


def _reduce_scatter(prim, x, out=None):
    return _local_or(_run(prim, "reduce_scatter", x, prim.op), x)


def _one_rank_v(prim, x, arg, sizes):
    """A V collective on one rank: ``x`` itself, which must have ``sizes[0]`` elements."""
    if x.size != sizes[0]:
        raise MSValueError(f"For '{prim.name}', the 'x' must have {arg}[0] = {sizes[0]} elements, but got shape "
                           f"{tuple(x.shape)}.")
    return dev(x).copy()


def _all_gather_v(prim, x, output_split_sizes, out=None):
    got = _run(prim, "all_gather_v", x, tuple(output_split_sizes))
    return _one_rank_v(prim, x, "output_split_sizes", output_split_sizes) if got is None else got


def _reduce_scatter_v(prim, x, input_split_sizes, out=None):
    got = _run(prim, "reduce_scatter_v", x, tuple(input_split_sizes), prim.op)
    return _one_rank_v(prim, x, "input_split_sizes", input_split_sizes) if got is None else got


def _broadcast(prim, xs, out=None):
    xs = tuple(dev(x) for x in xs)   # graph mode may pass a constant element as a Tensor
    link = _link(prim)
    if link is None:
        return tuple(x.copy() for x in xs)
    comm, put, get = link
    return tuple(get(g) for g in comm.broadcast_many(tuple(put(x) for x in xs), prim.root_rank, name=prim.name))


def _all_to_all(prim, x, out=None):
    nd = len(x.shape)
    return _local_or(_run(prim, "alltoall", x, prim.split_dim % nd, prim.concat_dim % nd), x)


def _barrier(prim, out=None):
    link = _link(prim)
    if link is not None:
        link[0].barrier()
    return xp.ones((1,), np.float32)


def _reduce(prim, x, out=None):
    return _local_or(_run(prim, "reduce", x, prim.dest_rank, prim.op), x)


def _collective_gather(prim, x, out=None):
    return _local_or(_run(prim, "gather", x, prim.dest_rank), x)


def _collective_scatter(prim, x, out=None):
    return _local_or(_run(prim, "scatter", x, prim.src_rank), x)


def _send(prim, x, out=None):
    link = _link(prim)
    if link is None:
        _LOOPBACK[(prim.group, prim.sr_tag)].append(dev(x).copy())
    else:
        comm, put, _ = link
        comm.send(put(x), prim.dest_rank, prim.sr_tag, name=prim.name)
    return dev(x).copy()


def _receive(prim, *dummy, out):
    link = _link(prim)
    dtype = out.dtype.to_numpy()
    if link is not None:
        comm, _, get = link
        return get(comm.recv(out.shape, dtype, prim.src_rank, prim.sr_tag, name=prim.name))
    queue = _LOOPBACK[(prim.group, prim.sr_tag)]
    if not queue:
        raise MSRuntimeError(f"For '{prim.name}', nothing was sent with tag {prim.sr_tag} in the group "
                             f"'{prim.group}' of one process, so there is nothing to receive (a Send must come first).")
    got = queue.popleft()
    if tuple(got.shape) != tuple(out.shape) or got.dtype != dtype:
        raise MSRuntimeError(f"For '{prim.name}', the tensor received must have shape {tuple(out.shape)} and dtype "
                             f"{out.dtype}, but the Send with tag {prim.sr_tag} sent shape {tuple(got.shape)} and "
                             f"dtype {got.dtype}.")
    return got


# --- exchanges with chosen peers (AlltoAllV/VC, NeighborExchange(V2), BatchISendIRecv) -----------------------
# These go through host memory over MPI (the communicator's ``exchange``; on a GPU NCCL's point-to-point calls are not
# used for them). Each primitive's messages carry its own tag range, so they never match a user's Send/Receive.
_TAGS = {"AlltoAllV": 0x7A00, "AlltoAllVC": 0x7A10, "NeighborExchange": 0x7A20, "NeighborExchangeV2": 0x7A30,
         "NeighborExchangeV2Grad": 0x7A40, "BatchISendIRecv": 0x7A50}


def exchange(prim, sends, recvs):
    """Send ``(array, peer, tag)`` of ``sends`` and receive ``(shape, dtype, peer, tag)`` of ``recvs`` (ranks of the
    group; tags offset per primitive), all started before any completes; the received arrays (``xp``) in ``recvs``
    order. In a group of one process every peer is this process: the messages are matched locally."""
    base = _TAGS[prim.name]
    host = _host(prim)
    if host is None:
        return local_exchange(prim.name, sends, recvs)
    got = host.exchange([(to_host(a), p, base + t) for a, p, t in sends],
                        [(tuple(sh), np.dtype(dt), p, base + t) for sh, dt, p, t in recvs], name=prim.name)
    return [from_host(g) for g in got]


def local_exchange(name, sends, recvs):
    """The messages of a process to itself, matched in order per tag."""
    queues = collections.defaultdict(collections.deque)
    for array, _, tag in sends:
        queues[tag].append(dev(array).copy())
    out = []
    for shape, dtype, _, tag in recvs:
        if not queues[tag]:
            raise MSRuntimeError(f"For '{name}', this process receives from itself more than it sends itself.")
        got = queues[tag].popleft()
        if tuple(got.shape) != tuple(shape) or got.dtype != np.dtype(dtype):
            raise MSRuntimeError(f"For '{name}', the tensor this process sends itself has shape {tuple(got.shape)} "
                                 f"dtype {got.dtype}, but it expects shape {tuple(shape)} dtype {np.dtype(dtype)}.")
        out.append(got)
    return out


def _v_exchange(prim, x, send, recv):
    """Counts ``send[j]`` elements of the flattened ``x`` (in order) to rank j, ``recv[j]`` from it; joined."""
    flat = dev(x).reshape(-1)
    if flat.size != sum(send):
        raise MSValueError(f"For '{prim.name}', the 'x' must have as many elements as it sends, {sum(send)}, but "
                           f"got {flat.size}.")
    pieces = xp.split(flat, list(itertools.accumulate(send))[:-1])
    got = exchange(prim, [(p, j, 0) for j, p in enumerate(pieces)],
                   [((n,), flat.dtype, j, 0) for j, n in enumerate(recv)])
    return xp.concatenate(got) if sum(recv) else xp.zeros((), flat.dtype)


def _all_to_all_v(prim, x, send_numel_list, recv_numel_list, out=None):
    return _v_exchange(prim, x, *prim.counts(send_numel_list, recv_numel_list))


def _all_to_all_v_c(prim, x, send_count_matrix, out=None):
    return _v_exchange(prim, x, *prim.counts(send_count_matrix))


def _neighbor_exchange(prim, xs, out=None):
    dtype = prim.recv_type.to_numpy()
    sends = [(dev(x), r, 0) for x, r in zip(xs, prim.send_rank_ids)]
    recvs = [(tuple(s), dtype, r, 0) for s, r in zip(prim.recv_shapes, prim.recv_rank_ids)]
    return tuple(exchange(prim, sends, recvs))


def _halo(prim, x, out=None):
    """NeighborExchangeV2 (``x`` framed by its neighbours' borders) and its gradient (the frame sent back and
    added onto the borders), as ``prim.plan`` lays them out."""
    x = dev(x)
    sends, recvs, out_shape, (rows, cols) = prim.plan(tuple(x.shape))
    n, c = x.shape[:2]
    got = exchange(prim, [(x[:, :, r, q], peer, tag) for r, q, peer, tag in sends],
                   [((n, c, r.stop - r.start, q.stop - q.start), x.dtype, peer, tag) for r, q, peer, tag in recvs])
    if prim.name == "NeighborExchangeV2":
        result = xp.zeros(out_shape, x.dtype)
        result[:, :, rows, cols] = x
        for (r, q, _, _), piece in zip(recvs, got):
            result[:, :, r, q] = piece
        return result
    result = x[:, :, rows, cols].copy()
    for (r, q, _, _), piece in zip(recvs, got):
        result[:, :, r, q] += piece
    return result


def _batch_isend_irecv(prim, xs=(), out=None):
    inputs, shapes, dtypes = iter(xs), iter(prim.receive_shapes), iter(prim.receive_dtypes)
    sends, recvs = [], []
    for kind, peer in zip(prim.op_types, prim.remote_ranks):
        if kind == "isend":
            sends.append((dev(next(inputs)), peer, 0))
        else:
            recvs.append((tuple(next(shapes)), next(dtypes).to_numpy(), peer, 0))
    got = iter(exchange(prim, sends, recvs))
    return tuple(next(got) if kind == "irecv" else xp.zeros((), np.float32) for kind in prim.op_types)


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
    "AlltoAllV": _all_to_all_v,
    "AlltoAllVC": _all_to_all_v_c,
    "NeighborExchange": _neighbor_exchange,
    "NeighborExchangeV2": _halo,
    "NeighborExchangeV2Grad": _halo,
    "BatchISendIRecv": _batch_isend_irecv,
}
