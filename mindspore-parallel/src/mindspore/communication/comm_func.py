"""``mindspore.communication.comm_func``: the collectives as functions (MindSpore 2.10's names and returns).

Design
------
Every function is a composition of the collective primitives of ``mindspore.ops`` (``AllReduce``, ``AllGather``,
``ReduceScatter``, ``Broadcast``, ``Reduce``, ``CollectiveGather``, ``CollectiveScatter``, ``Barrier``, ``Send``,
``Receive``), so it runs on every backend, checks shapes and groups as they do, and is differentiable where they
are. Ranks given to these functions (``src``, ``dst``, ``peer``) are **world** ranks, as in MindSpore; they are
turned into ranks of ``group`` here.

Return conventions follow MindSpore 2.10: ``all_reduce``, ``all_gather_into_tensor`` and ``reduce_scatter_tensor``
return ``(tensor, handle)`` with ``handle`` None unless ``async_op=True`` (the primitives complete before they
return, so the handle's ``wait()`` has nothing left to do); ``isend`` returns a :class:`CommHandle`, ``irecv`` a
``(tensor, CommHandle)`` whose tensor holds the data once ``wait()`` returned.

``isend``/``irecv`` and ``batch_isend_irecv`` are truly nonblocking on the CPU target: they post MPI requests on
host buffers shared with the returned tensors, so the usual exchange (every rank ``isend`` then ``irecv``) cannot
deadlock. On other targets they run the ``Send``/``Receive`` primitives (NCCL), completing before they return.
The ``all_to_all_*`` functions exchange their (differently sized) pieces with nonblocking MPI sends and receives
of host copies.
"""
import numpy as np

from mindspore import context, ops
from mindspore.common.tensor import Tensor
from mindspore.communication.management import (GlobalComm, _WORLD_GROUPS, get_group_rank_from_world_rank,
                                                get_group_size, get_rank)
from mindspore.ops import ReduceOp
from mindspore.plugin import process_group

__all__ = ["all_reduce", "all_gather_into_tensor", "all_to_all_with_output_shape",
           "all_to_all_single_with_output_shape", "barrier", "broadcast", "gather_into_tensor", "isend", "irecv",
           "reduce_scatter_tensor", "reduce", "scatter_tensor", "send", "recv", "P2POp", "batch_isend_irecv",
           "all_to_all_v_c"]

_A2A_TAG = 0x3A2A   # the tag of the messages all_to_all_* exchanges


class CommHandle:
    """The handle of an asynchronous communication: :meth:`wait` blocks until it completed."""

    def __init__(self, handle=None, exec_sync=False):
        self.handle = handle
        self.exec_sync = exec_sync

    def wait(self):
        """Block until the communication completed (a handle of a completed one returns at once)."""
        if self.handle is not None:
            self.handle.wait()

    def __repr__(self):
        return f"CommHandle(handle={self.handle})" if self.handle is not None else "CommHandle(handle=None)"


def _outputs(output, async_op):
    return (output, CommHandle() if async_op else None)


def _check_tensor(api, tensor):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"For {api}, the input tensor must be tensor")


def _check_int(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For {api}, the {name} must be int")


def _check_group(group):
    if not isinstance(group, str):
        raise TypeError(f"group must be type of string, but got {type(group)}")


def _group_rank(world_rank, group):
    """Rank ``world_rank`` of the world as a rank of ``group``."""
    if group in _WORLD_GROUPS:
        return world_rank
    return get_group_rank_from_world_rank(world_rank, group)


def _world_group(group):
    return GlobalComm.WORLD_COMM_GROUP if group is None else group


def _check_op(api, op):
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in ("sum", "prod", "min", "max"):
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max")


# --- collectives ------------------------------------------------------------------------------------------
def all_reduce(tensor, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Reduce ``tensor`` element-wise over the ranks of ``group``; every rank gets the result.

    Returns:
        Tuple(Tensor, CommHandle): the result, and a handle when ``async_op`` is True (else None).

    Examples:
        >>> output, _ = all_reduce(ms.Tensor(np.ones([2, 8]).astype(np.float32)))   # 2 ranks: all 2.0
    """
    _check_tensor("all_reduce", tensor)
    _check_op("all_reduce", op)
    return _outputs(ops.AllReduce(op, group)(tensor), async_op)


def all_gather_into_tensor(tensor, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """Every rank's ``tensor`` concatenated along axis 0, in rank order; returns ``(tensor, handle)``."""
    _check_tensor("all_gather_into_tensor", tensor)
    return _outputs(ops.AllGather(group)(tensor), async_op)


def reduce_scatter_tensor(tensor, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP, async_op=False):
    """``tensor`` reduced over the ranks and split along axis 0 (this rank's piece); returns ``(tensor, handle)``."""
    _check_tensor("reduce_scatter_tensor", tensor)
    _check_op("reduce_scatter_tensor", op)
    return _outputs(ops.ReduceScatter(op, group)(tensor), async_op)


def reduce(tensor, dst, op=ReduceOp.SUM, group=GlobalComm.WORLD_COMM_GROUP):
    """``tensor`` reduced onto world rank ``dst`` (the other ranks get zeros)."""
    _check_tensor("reduce", tensor)
    _check_int("reduce", "dst", dst)
    return ops.Reduce(_group_rank(dst, group), op, group)(tensor)


def scatter_tensor(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """World rank ``src``'s ``tensor`` split along axis 0: this rank's piece."""
    _check_tensor("scatter_tensor", tensor)
    _check_int("scatter_tensor", "src", src)
    return ops.CollectiveScatter(_group_rank(src, group), group)(tensor)


def gather_into_tensor(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP):
    """Every rank's ``tensor`` concatenated along axis 0 on world rank ``dst`` (zeros on the other ranks)."""
    _check_tensor("gather_into_tensor", tensor)
    _check_int("gather_into_tensor", "dst", dst)
    return ops.CollectiveGather(_group_rank(dst, group), group)(tensor)


def broadcast(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP):
    """World rank ``src``'s ``tensor``, on every rank of ``group``."""
    _check_tensor("broadcast", tensor)
    _check_int("broadcast", "src", src)
    return ops.Broadcast(_group_rank(src, group), group)((tensor,))[0]


def barrier(group=GlobalComm.WORLD_COMM_GROUP):
    """Wait until every rank of ``group`` reached this barrier."""
    _check_group(group)
    ops.Barrier(group)()


# --- point to point ---------------------------------------------------------------------------------------
def _host_p2p(group):
    """The MPI communicator for nonblocking host transfers, or None (one process, or not the CPU target)."""
    if context.get_context("device_target") != "CPU":
        return None
    comm = process_group(group).communicator
    return comm if comm is not None and hasattr(comm, "isend") else None


def send(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Send ``tensor`` to world rank ``dst`` (matched by a ``recv`` with the same ``tag``)."""
    _check_tensor("send", tensor)
    _check_int("send", "dst", dst)
    ops.Send(tag, _group_rank(dst, group), group)(tensor)


def recv(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Receive a tensor of ``tensor``'s shape and dtype from world rank ``src``."""
    _check_tensor("recv", tensor)
    _check_int("recv", "src", src)
    return ops.Receive(tag, _group_rank(src, group), tuple(tensor.shape), tensor.dtype, group)()


def isend(tensor, dst=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Start sending ``tensor`` to world rank ``dst``; returns a :class:`CommHandle`."""
    _check_tensor("isend", tensor)
    _check_int("isend", "dst", dst)
    peer = _group_rank(dst, group)
    comm = _host_p2p(group)
    if comm is None:
        send(tensor, dst, group, tag)
        return CommHandle()
    return CommHandle(comm.isend(tensor.asnumpy(), peer, tag, name="isend"))


def irecv(tensor, src=0, group=GlobalComm.WORLD_COMM_GROUP, tag=0):
    """Start receiving a tensor of ``tensor``'s shape and dtype from world rank ``src``; returns
    ``(tensor, CommHandle)``: the tensor holds the data once the handle's ``wait()`` returned."""
    _check_tensor("irecv", tensor)
    _check_int("irecv", "src", src)
    peer = _group_rank(src, group)
    comm = _host_p2p(group)
    if comm is None:
        return recv(tensor, src, group, tag), CommHandle()
    request = comm.irecv(tuple(tensor.shape), tensor.dtype.to_numpy(), peer, tag, name="irecv")
    out = Tensor.from_numpy(request.buffer)
    return out, CommHandle(request)


class P2POp:
    """One point-to-point operation for :func:`batch_isend_irecv`: ``op`` is ``isend``/``irecv`` (the functions
    or their names), ``tensor`` the tensor to send or the template (shape, dtype) to receive, ``peer`` a world
    rank."""

    def __init__(self, op, tensor, peer, group=None, tag=0, recv_dtype=None):
        if not isinstance(peer, int):
            raise TypeError(f"peer must be type of int, but got type of {type(peer)}")
        if isinstance(op, str):
            name = op
        elif callable(op):
            name = op.__name__
        else:
            raise TypeError(f"op must be type of string or function, but got type of {type(op)}")
        if name not in ("isend", "irecv"):
            raise ValueError(f"Expected ``op`` to be of type ``isend`` or `irecv``, but got {name}")
        if not isinstance(tensor, (Tensor, tuple)):
            raise TypeError(f"Expected ``tensor`` to be type of tuple or Tensor, but got {type(tensor)}.")
        self.op = name
        self.tensor = tensor
        self.peer = peer
        self.group = group
        self.tag = tag
        self.recv_dtype = recv_dtype


def batch_isend_irecv(p2p_op_list):
    """Run the sends and receives of ``p2p_op_list`` together; returns one tensor per operation (the received
    tensor for an ``irecv``, a scalar placeholder for an ``isend``)."""
    if not isinstance(p2p_op_list, list):
        raise TypeError(f"p2p_op_list must be type of list, but got type of {p2p_op_list}.")
    if not p2p_op_list:
        raise TypeError("p2p_op_list can not be empty list.")
    for p in p2p_op_list:
        if not isinstance(p, P2POp):
            raise TypeError("must be type of P2POp")
    started = []
    for p in p2p_op_list:
        group = _world_group(p.group)
        if p.op == "isend":
            started.append((isend(p.tensor, p.peer, group, p.tag), None))
        else:
            template = p.tensor
            if isinstance(template, tuple):
                if p.recv_dtype is None:
                    raise ValueError("'recv_dtype' of P2POp is None but op is irecv and tensor is a shape")
                template = Tensor(np.zeros(template, p.recv_dtype.to_numpy()))
            out, handle = irecv(template, p.peer, group, p.tag)
            started.append((handle, out))
    results = []
    for handle, out in started:
        handle.wait()
        results.append(out if out is not None else Tensor(np.zeros((), np.float32)))
    return tuple(results)


# --- all-to-all -------------------------------------------------------------------------------------------
def _exchange(pieces, out_shapes, group, dtype):
    """Send ``pieces[j]`` to group rank ``j`` and receive a tensor of ``out_shapes[j]`` from each; the received
    host arrays in rank order."""
    rank, size = get_rank(group), get_group_size(group)
    comm = process_group(group).communicator
    if size == 1 or comm is None:
        return [np.array(pieces[0].asnumpy(), copy=True).reshape(out_shapes[0])]
    recvs = [comm.irecv(tuple(out_shapes[j]), dtype, j, _A2A_TAG, name="all_to_all") if j != rank else None
             for j in range(size)]
    sends = [comm.isend(pieces[j].asnumpy(), j, _A2A_TAG, name="all_to_all") for j in range(size) if j != rank]
    out = [recvs[j].wait() if j != rank else pieces[rank].asnumpy().reshape(out_shapes[j]) for j in range(size)]
    for s in sends:
        s.wait()
    return out


def all_to_all_with_output_shape(output_shape_list, input_tensor_list, group=None, async_op=False):
    """Rank ``i`` sends ``input_tensor_list[j]`` to rank ``j`` and receives a tensor of ``output_shape_list[j]``
    from each rank ``j``; returns ``(tuple of received tensors, handle)``."""
    group = _world_group(group)
    _check_group(group)
    if not isinstance(input_tensor_list, (list, tuple)) or not all(isinstance(t, Tensor) for t in input_tensor_list):
        raise TypeError(f"Expected list or tuple of tensors, but got {type(input_tensor_list)}.")
    size = get_group_size(group)
    if len(input_tensor_list) != size or len(output_shape_list) != size:
        raise ValueError(f"For all_to_all_with_output_shape, the input and output lists must have one entry per "
                         f"rank of the group ({size}), but got {len(input_tensor_list)} and {len(output_shape_list)}.")
    dtypes = {t.dtype for t in input_tensor_list}
    if len(dtypes) != 1:
        raise TypeError("all_to_all input dtype must be the same, but got different dtypes.")
    dtype = input_tensor_list[0].dtype
    shapes = [tuple(s.shape) if isinstance(s, Tensor) else tuple(s) for s in output_shape_list]
    got = _exchange(list(input_tensor_list), shapes, group, dtype.to_numpy())
    return tuple(Tensor(g) for g in got), (CommHandle() if async_op else None)


def all_to_all_single_with_output_shape(output_shape, tensor, output_split_sizes=None, input_split_sizes=None,
                                        group=None, async_op=False):
    """``tensor`` split along axis 0 (by ``input_split_sizes``, or evenly), piece ``j`` to rank ``j``; the pieces
    received (``output_split_sizes`` rows each, or even) joined along axis 0 into ``output_shape``; returns
    ``(tensor, handle)``."""
    group = _world_group(group)
    _check_group(group)
    _check_tensor("all_to_all_single_with_output_shape", tensor)
    size = get_group_size(group)
    out_shape = tuple(output_shape.shape) if isinstance(output_shape, Tensor) else tuple(output_shape)
    in_sizes = _split_sizes(input_split_sizes, tensor.shape[0], size, "input")
    out_sizes = _split_sizes(output_split_sizes, out_shape[0], size, "output")
    rows = tuple(tensor.shape[1:])
    if tuple(out_shape[1:]) != rows:
        raise ValueError(f"The input and output dimensions except 0 must be of equal size, but got {tensor.shape} "
                         f"and {out_shape}.")
    bounds = np.cumsum(in_sizes)[:-1].tolist()
    pieces = [Tensor(p) for p in np.split(tensor.asnumpy(), bounds, axis=0)]
    got = _exchange(pieces, [(n,) + rows for n in out_sizes], group, tensor.dtype.to_numpy())
    return Tensor(np.concatenate(got, axis=0).reshape(out_shape)), (CommHandle() if async_op else None)


def _split_sizes(sizes, total, size, which):
    if sizes is None or not sizes:
        if total % size:
            raise ValueError(f"{which} shape at dim 0 must be divided by world_size, but got {total} and {size}.")
        return [total // size] * size
    if len(sizes) != size or sum(sizes) != total:
        raise ValueError(f"The {which}_split_sizes must have one entry per rank ({size}) summing to {total}, but got "
                         f"{list(sizes)}.")
    return list(sizes)


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):  # noqa: A002 - MindSpore's name
    """All-to-all with counts: ``send_count_matrix[i][j]`` elements (of the flattened ``input``, in order) go from
    rank ``i`` to rank ``j``; the received ones, in rank order, are written into ``output``. Returns a handle when
    ``async_op`` is True, else None."""
    group = _world_group(group)
    _check_group(group)
    if not isinstance(input, Tensor) or not isinstance(output, Tensor):
        raise TypeError("For all_to_all_v_c, the 'input' and 'output' must be Tensors.")
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")
    if not isinstance(send_count_matrix, list):
        raise TypeError("send_count_matrix must be list, but got {}".format(type(send_count_matrix)))
    if not all(isinstance(v, int) for v in send_count_matrix):
        raise TypeError("send_count_matrix elements must be of type int")
    size, rank = get_group_size(group), get_rank(group)
    if len(send_count_matrix) != size * size:
        raise TypeError(f"send_count_matrix must be square matrix, but got {len(send_count_matrix)}.")
    counts = np.array(send_count_matrix).reshape(size, size)
    flat = input.asnumpy().reshape(-1)
    bounds = np.cumsum(counts[rank])[:-1].tolist()
    pieces = [Tensor(p) for p in np.split(flat, bounds)]
    got = _exchange(pieces, [(int(counts[j, rank]),) for j in range(size)], group, flat.dtype)
    output.assign_value(Tensor(np.concatenate(got).reshape(output.shape).astype(flat.dtype)))
    return CommHandle() if async_op else None
