"""GPU kernels of the collective family (``mindspore/ops/_defs/comm.py``).

A group of one process needs no communication (each collective is what it means for one rank, as on the CPU).
A larger group's communicator (mindspore-parallel's MPI communicator) offers a NCCL communicator over the same
ranks (``communicator.nccl()``): device buffers go through NCCL and never leave the GPU. Only when NCCL is
unavailable on some rank do the buffers go through host memory over MPI, and the first such collective says so
with a warning.
"""
import collections
import itertools
import warnings

import cupy

from mindspore.plugin import MSRuntimeError, MSValueError, process_group
from mindspore_gpu.kernels._common import dev

_dev = dev  # (_common.dev: no copy for a CuPy array already on the device)
_LOOPBACK = collections.defaultdict(collections.deque)   # Send to oneself in a group of one
_WARNED = []


def _comm(prim):
    """(device communicator or None, host communicator or None); both None for a group of one process."""
    group = process_group(prim.group)
    if group.size == 1:
        return None, None
    host = group.communicator
    if host is None:
        raise MSRuntimeError(f"For '{prim.name}', this process has no communicator for the group '{prim.group}' "
                             f"(it is not one of its members).")
    device = host.nccl() if hasattr(host, "nccl") else None
    if device is None and not _WARNED:
        _WARNED.append(True)
        warnings.warn("NCCL is unavailable (CuPy's cupy.cuda.nccl did not import on every rank): collectives on GPU "
                      "tensors copy them to host memory and go over MPI.", RuntimeWarning, stacklevel=2)
    return device, host


def _run(prim, method, x, *args):
    """``method`` of the NCCL communicator on device ``x``, or of the MPI one on a host copy; None: one rank."""
    device, host = _comm(prim)
    if device is not None:
        return getattr(device, method)(_dev(x), *args, name=prim.name)
    if host is not None:
        return _dev(getattr(host, method)(cupy.asnumpy(x), *args, name=prim.name))
    return None


def _local_or(result, x):
    return _dev(x).copy() if result is None else result


def _all_reduce(prim, x, *, out):
    return _local_or(_run(prim, "allreduce", x, prim.op), x)


def _all_gather(prim, x, *, out):
    return _local_or(_run(prim, "all_gather", x), x)


def _reduce_scatter(prim, x, *, out):
    return _local_or(_run(prim, "reduce_scatter", x, prim.op), x)


def _one_rank_v(prim, x, arg, sizes):
    """A V collective on one rank: ``x`` itself, which must have ``sizes[0]`` elements."""
    if x.size != sizes[0]:
        raise MSValueError(f"For '{prim.name}', the 'x' must have {arg}[0] = {sizes[0]} elements, but got shape "
                           f"{tuple(x.shape)}.")
    return _dev(x).copy()


def _all_gather_v(prim, x, output_split_sizes, *, out):
    got = _run(prim, "all_gather_v", x, tuple(output_split_sizes))
    return _one_rank_v(prim, x, "output_split_sizes", output_split_sizes) if got is None else got


def _reduce_scatter_v(prim, x, input_split_sizes, *, out):
    got = _run(prim, "reduce_scatter_v", x, tuple(input_split_sizes), prim.op)
    return _one_rank_v(prim, x, "input_split_sizes", input_split_sizes) if got is None else got


def _broadcast(prim, xs, *, out):
    device, host = _comm(prim)
    if device is not None:
        return device.broadcast_many(tuple(_dev(x) for x in xs), prim.root_rank, name=prim.name)
    if host is not None:
        got = host.broadcast_many(tuple(cupy.asnumpy(x) for x in xs), prim.root_rank, name=prim.name)
        return tuple(_dev(g) for g in got)
    return tuple(_dev(x).copy() for x in xs)


def _all_to_all(prim, x, *, out):
    nd = len(x.shape)
    return _local_or(_run(prim, "alltoall", x, prim.split_dim % nd, prim.concat_dim % nd), x)


def _barrier(prim, *, out):
    device, host = _comm(prim)
    if device is not None:
        device.barrier()
    elif host is not None:
        host.barrier()
    return cupy.ones((1,), cupy.float32)


def _reduce(prim, x, *, out):
    return _local_or(_run(prim, "reduce", x, prim.dest_rank, prim.op), x)


def _collective_gather(prim, x, *, out):
    return _local_or(_run(prim, "gather", x, prim.dest_rank), x)


def _collective_scatter(prim, x, *, out):
    return _local_or(_run(prim, "scatter", x, prim.src_rank), x)


def _send(prim, x, *, out):
    device, host = _comm(prim)
    if device is not None:
        device.send(_dev(x), prim.dest_rank, prim.sr_tag, name=prim.name)
    elif host is not None:
        host.send(cupy.asnumpy(x), prim.dest_rank, prim.sr_tag, name=prim.name)
    else:
        _LOOPBACK[(prim.group, prim.sr_tag)].append(_dev(x).copy())
    return _dev(x).copy()


def _receive(prim, *dummy, out):
    device, host = _comm(prim)
    dtype = out.dtype.to_numpy()
    if device is not None:
        return device.recv(out.shape, dtype, prim.src_rank, prim.sr_tag, name=prim.name)
    if host is not None:
        return _dev(host.recv(out.shape, dtype, prim.src_rank, prim.sr_tag, name=prim.name))
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
# These go through host memory over MPI (the communicator's ``exchange``): NCCL's point-to-point calls are not
# used for them. Each primitive's messages carry its own tag range, as on the CPU.
_TAGS = {"AlltoAllV": 0x7A00, "AlltoAllVC": 0x7A10, "NeighborExchange": 0x7A20, "NeighborExchangeV2": 0x7A30,
         "NeighborExchangeV2Grad": 0x7A40, "BatchISendIRecv": 0x7A50}


def _exchange(prim, sends, recvs):
    """Send ``(array, peer, tag)`` and receive ``(shape, dtype, peer, tag)`` (group ranks); the received arrays on
    the device, in ``recvs`` order. A group of one process matches its messages to itself locally."""
    base = _TAGS[prim.name]
    group = process_group(prim.group)
    host = group.communicator if group.size > 1 else None
    if group.size > 1 and host is None:
        raise MSRuntimeError(f"For '{prim.name}', this process has no communicator for the group '{prim.group}' "
                             f"(it is not one of its members).")
    if host is not None:
        got = host.exchange([(cupy.asnumpy(a), p, base + t) for a, p, t in sends],
                            [(tuple(sh), cupy.dtype(dt), p, base + t) for sh, dt, p, t in recvs], name=prim.name)
        return [_dev(g) for g in got]
    queues = collections.defaultdict(collections.deque)
    for array, _, tag in sends:
        queues[tag].append(_dev(array).copy())
    out = []
    for shape, dtype, _, tag in recvs:
        if not queues[tag]:
            raise MSRuntimeError(f"For '{prim.name}', this process receives from itself more than it sends itself.")
        got = queues[tag].popleft()
        if tuple(got.shape) != tuple(shape) or got.dtype != cupy.dtype(dtype):
            raise MSRuntimeError(f"For '{prim.name}', the tensor this process sends itself has shape "
                                 f"{tuple(got.shape)} dtype {got.dtype}, but it expects shape {tuple(shape)} dtype "
                                 f"{cupy.dtype(dtype)}.")
        out.append(got)
    return out


def _v_exchange(prim, x, send, recv):
    flat = _dev(x).reshape(-1)
    if flat.size != sum(send):
        raise MSValueError(f"For '{prim.name}', the 'x' must have as many elements as it sends, {sum(send)}, but "
                           f"got {flat.size}.")
    pieces = cupy.split(flat, list(itertools.accumulate(send))[:-1])
    got = _exchange(prim, [(p, j, 0) for j, p in enumerate(pieces)],
                    [((n,), flat.dtype, j, 0) for j, n in enumerate(recv)])
    return cupy.concatenate(got) if sum(recv) else cupy.zeros((), flat.dtype)


def _all_to_all_v(prim, x, send_numel_list, recv_numel_list, *, out):
    return _v_exchange(prim, x, *prim.counts(send_numel_list, recv_numel_list))


def _all_to_all_v_c(prim, x, send_count_matrix, *, out):
    return _v_exchange(prim, x, *prim.counts(send_count_matrix))


def _neighbor_exchange(prim, xs, *, out):
    dtype = prim.recv_type.to_numpy()
    sends = [(_dev(x), r, 0) for x, r in zip(xs, prim.send_rank_ids)]
    recvs = [(tuple(s), dtype, r, 0) for s, r in zip(prim.recv_shapes, prim.recv_rank_ids)]
    return tuple(_exchange(prim, sends, recvs))


def _halo(prim, x, *, out):
    """NeighborExchangeV2 and its gradient, as ``prim.plan`` lays them out (see the CPU kernel)."""
    x = _dev(x)
    sends, recvs, out_shape, (rows, cols) = prim.plan(tuple(x.shape))
    n, c = x.shape[:2]
    got = _exchange(prim, [(x[:, :, r, q], peer, tag) for r, q, peer, tag in sends],
                    [((n, c, r.stop - r.start, q.stop - q.start), x.dtype, peer, tag) for r, q, peer, tag in recvs])
    if prim.name == "NeighborExchangeV2":
        result = cupy.zeros(out_shape, x.dtype)
        result[:, :, rows, cols] = x
        for (r, q, _, _), piece in zip(recvs, got):
            result[:, :, r, q] = piece
        return result
    result = x[:, :, rows, cols].copy()
    for (r, q, _, _), piece in zip(recvs, got):
        result[:, :, r, q] += piece
    return result


def _batch_isend_irecv(prim, xs=(), *, out):
    inputs, shapes, dtypes = iter(xs), iter(prim.receive_shapes), iter(prim.receive_dtypes)
    sends, recvs = [], []
    for kind, peer in zip(prim.op_types, prim.remote_ranks):
        if kind == "isend":
            sends.append((_dev(next(inputs)), peer, 0))
        else:
            recvs.append((tuple(next(shapes)), next(dtypes).to_numpy(), peer, 0))
    got = iter(_exchange(prim, sends, recvs))
    return tuple(next(got) if kind == "irecv" else cupy.zeros((), cupy.float32) for kind in prim.op_types)

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
