"""``mindspore.mint.distributed``: ``torch.distributed``-style collectives over ``mindspore.communication``.

The collectives live in the add-on distribution mindspore-parallel: it is imported on the first call (never at
``import mindspore``), and a missing add-on gives an ImportError naming ``pip install mindspore-parallel``.

Conventions are PyTorch's, as in MindSpore's mint: results are written **in place** into the given tensors
(``all_reduce(tensor)`` changes ``tensor``; ``all_gather(tensor_list, tensor)`` fills ``tensor_list``); a call
returns ``None``, or a handle with ``wait()`` when ``async_op=True``; ranks (``src``, ``dst``, ``peer``) are world
ranks. The ``*_object`` functions pickle Python objects into uint8 tensors, padded to the longest.
"""
import importlib
import os
import pickle

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = [
    "P2POp", "all_gather", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_gather_object",
    "all_reduce", "all_to_all", "all_to_all_single", "barrier", "batch_isend_irecv", "broadcast",
    "broadcast_object_list", "destroy_process_group", "gather", "gather_object", "get_backend", "get_global_rank",
    "get_group_rank", "get_process_group_ranks", "get_rank", "get_world_size", "init_process_group", "irecv",
    "is_available", "is_initialized", "isend", "new_group", "recv", "recv_object_list", "reduce", "reduce_scatter",
    "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "scatter", "scatter_object_list", "send",
    "send_object_list",
]

_HINT = "pip install mindspore-parallel"
_BACKENDS = {"hccl", "nccl", "mccl"}
_groups = {}   # name -> world ranks of the groups new_group created


def _comm(api="mindspore.mint.distributed"):
    """``mindspore.communication``, imported on first use."""
    try:
        return importlib.import_module("mindspore.communication")
    except ModuleNotFoundError as e:
        raise ImportError(f"For '{api}', the collectives are provided by the add-on distribution "
                          f"'mindspore-parallel', which is not installed. Install it with '{_HINT}'.") from e


def _func(api):
    """``mindspore.communication.comm_func`` (the functional collectives), imported on first use."""
    _comm(api)
    return importlib.import_module("mindspore.communication.comm_func")


def _group(group):
    return _comm().GlobalComm.WORLD_COMM_GROUP if group is None else group


class _Handle:
    """The handle an ``async_op=True`` call returns: ``wait()`` finishes the transfer and writes the result."""

    def __init__(self, inner=None, finish=None):
        self._inner, self._finish = inner, finish

    def wait(self):
        if self._inner is not None:
            self._inner.wait()
            self._inner = None
        if self._finish is not None:
            self._finish()
            self._finish = None
        return True

    def is_completed(self):
        return self._inner is None and self._finish is None


def _done(async_op):
    return _Handle() if async_op else None


def _write(dst, value):
    ops.assign(dst, ops.cast(value, dst.dtype) if value.dtype != dst.dtype else value)


# --- process groups ---------------------------------------------------------------------------------------
def is_available():
    """Whether the collectives (mindspore-parallel) are installed."""
    try:
        importlib.import_module("mindspore.communication")
    except ModuleNotFoundError:
        return False
    return True


def is_initialized():
    """Whether :func:`init_process_group` ran."""
    return is_available() and bool(_comm().GlobalComm.INITED)


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Initialise the collectives and the world group (``backend`` 'hccl', 'nccl' or 'mccl'); a ``world_size``
    or ``rank`` given must agree with the launcher's."""
    if backend not in _BACKENDS:
        raise ValueError(f"For 'init_process_group', the 'backend' must be one of {sorted(_BACKENDS)}, but got "
                         f"{backend!r}.")
    comm = _comm("init_process_group")
    import mindspore.context as context
    target = context.get_context("device_target")
    # the default 'hccl' names Ascend's library: each target initialises its own (as MindSpore does off Ascend)
    comm.init({"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}.get(target, backend))
    if world_size not in (-1, comm.get_group_size()):
        raise ValueError(f"For 'init_process_group', 'world_size' {world_size} does not match the launched "
                         f"{comm.get_group_size()} processes.")
    if rank not in (-1, comm.get_rank()):
        raise ValueError(f"For 'init_process_group', 'rank' {rank} does not match this process's rank "
                         f"{comm.get_rank()}.")


def destroy_process_group(group=None):
    """Destroy ``group``, or every group and the collectives when None."""
    comm = _comm("destroy_process_group")
    if group is None or group == comm.GlobalComm.WORLD_COMM_GROUP:
        comm.release()
    else:
        comm.destroy_group(group)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None):
    """Create a group of the world ranks ``ranks`` (the world when None); returns its name."""
    comm = _comm("new_group")
    if ranks is None:
        return comm.GlobalComm.WORLD_COMM_GROUP
    ranks = sorted(int(r) for r in ranks)
    name = group_desc or "mint_group_" + "_".join(str(r) for r in ranks)
    if name not in _groups:
        comm.create_group(name, ranks)
        _groups[name] = ranks
    return name


def get_backend(group=None):
    """The backend name of ``group`` ('hccl', 'nccl' or 'mccl')."""
    return _comm("get_backend").GlobalComm.BACKEND


def get_rank(group=None):
    """This process's rank in ``group``; before initialisation, as 2.10: the ``RANK_ID`` environment variable, or 0."""
    if not is_initialized():
        return int(os.getenv("RANK_ID", "0"))
    return _comm().get_rank(_group(group))


def get_world_size(group=None):
    """The number of processes in ``group``; before initialisation, as 2.10: ``RANK_SIZE`` from the environment,
    or 1."""
    if not is_initialized():
        return int(os.getenv("RANK_SIZE", "1"))
    return _comm().get_group_size(_group(group))


def get_global_rank(group, group_rank):
    """The world rank of rank ``group_rank`` of ``group``."""
    comm = _comm("get_global_rank")
    if group == comm.GlobalComm.WORLD_COMM_GROUP:
        return group_rank
    return comm.get_world_rank_from_group_rank(group, group_rank)


def get_group_rank(group, global_rank):
    """The rank in ``group`` of world rank ``global_rank``."""
    comm = _comm("get_group_rank")
    if group == comm.GlobalComm.WORLD_COMM_GROUP:
        return global_rank
    return comm.get_group_rank_from_world_rank(global_rank, group)


def get_process_group_ranks(group=None):
    """The world ranks of ``group``, in group-rank order."""
    return _comm("get_process_group_ranks").get_process_group_ranks(_group(group))


# --- collectives ------------------------------------------------------------------------------------------
def all_reduce(tensor, op="sum", group=None, async_op=False):
    """``tensor`` reduced over ``group`` (in place on every rank)."""
    out, _ = _func("all_reduce").all_reduce(tensor, op, _group(group))
    _write(tensor, out)
    return _done(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Every rank's ``input_tensor`` concatenated along dim 0 into ``output_tensor``."""
    out, _ = _func("all_gather_into_tensor").all_gather_into_tensor(input_tensor, _group(group))
    _write(output_tensor, out)
    return _done(async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Rank ``i``'s ``tensor`` written into ``tensor_list[i]`` on every rank."""
    out, _ = _func("all_gather").all_gather_into_tensor(ops.expand_dims(tensor, 0), _group(group))
    if len(tensor_list) != out.shape[0]:
        raise ValueError(f"For 'all_gather', the 'tensor_list' must have {out.shape[0]} tensors (one per rank), but "
                         f"got {len(tensor_list)}.")
    for i, dst in enumerate(tensor_list):
        _write(dst, out[i])
    return _done(async_op)


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None, async_op=False):
    """Ranks' ``input`` with different row counts (``output_split_sizes``) concatenated along dim 0."""
    group = _group(group)
    size = _comm().get_group_size(group)
    sizes = list(output_split_sizes) if output_split_sizes else [input.shape[0]] * size
    longest = max(sizes)
    padded = input if input.shape[0] == longest else ops.cat(
        (input, ops.zeros((longest - input.shape[0],) + tuple(input.shape[1:]), input.dtype)), 0)
    gathered, _ = _func("all_gather_into_tensor_uneven").all_gather_into_tensor(padded, group)
    pieces = [ops.narrow(gathered, 0, i * longest, n) for i, n in enumerate(sizes)]
    _write(output, ops.cat(pieces, 0))
    return _done(async_op)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    """``input`` reduced over the ranks and split along dim 0; this rank's piece into ``output``."""
    out, _ = _func("reduce_scatter_tensor").reduce_scatter_tensor(input, op, _group(group))
    _write(output, out)
    return _done(async_op)


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """``input_list[i]`` reduced over the ranks into rank ``i``'s ``output``."""
    return reduce_scatter_tensor(output, ops.cat(list(input_list), 0), op, group, async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op="sum", group=None, async_op=False):
    """``input`` reduced over the ranks and split along dim 0 into ``input_split_sizes`` rows per rank."""
    group = _group(group)
    comm = _comm()
    size, rank = comm.get_group_size(group), comm.get_rank(group)
    sizes = list(input_split_sizes) if input_split_sizes else [input.shape[0] // size] * size
    total, _ = _func("reduce_scatter_tensor_uneven").all_reduce(input, op, group)
    _write(output, ops.narrow(total, 0, sum(sizes[:rank]), sizes[rank]))
    return _done(async_op)


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """``tensor`` reduced over ``group`` onto world rank ``dst`` (in place there)."""
    group = _group(group)
    out = _func("reduce").reduce(tensor, dst, op, group)
    if _comm().get_rank() == dst:
        _write(tensor, out)
    return _done(async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """World rank ``src``'s ``tensor`` copied into ``tensor`` on every rank."""
    _write(tensor, _func("broadcast").broadcast(tensor, src, _group(group)))
    return _done(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank of ``group`` got here."""
    _func("barrier").barrier(_group(group))
    return _done(async_op)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """Every rank's ``tensor`` into ``gather_list`` on world rank ``dst``."""
    group = _group(group)
    out = _func("gather").gather_into_tensor(ops.expand_dims(tensor, 0), dst, group)
    if _comm().get_rank() == dst:
        for i, t in enumerate(gather_list):
            _write(t, out[i])
    return _done(async_op)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """``scatter_list[i]`` of world rank ``src`` into rank ``i``'s ``tensor``."""
    group = _group(group)
    comm = _comm("scatter")
    if comm.get_rank() == src:
        stacked = ops.stack(list(scatter_list), 0)
    else:
        stacked = ops.zeros((comm.get_group_size(group),) + tuple(tensor.shape), tensor.dtype)
    out = _func("scatter").scatter_tensor(stacked, src, group)
    _write(tensor, ops.reshape(out, tensor.shape))
    return _done(async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """``input_tensor_list[j]`` of rank ``i`` into ``output_tensor_list[i]`` of rank ``j``."""
    shapes = [tuple(t.shape) for t in output_tensor_list]
    got, _ = _func("all_to_all").all_to_all_with_output_shape(shapes, list(input_tensor_list), _group(group))
    for dst, value in zip(output_tensor_list, got):
        _write(dst, value)
    return _done(async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None, async_op=False):
    """``input`` split along dim 0, piece ``j`` to rank ``j``; received pieces joined into ``output``."""
    got, _ = _func("all_to_all_single").all_to_all_single_with_output_shape(
        tuple(output.shape), input, output_split_sizes, input_split_sizes, _group(group))
    _write(output, got)
    return _done(async_op)


# --- point to point ---------------------------------------------------------------------------------------
def send(tensor, dst=0, group=None, tag=0):
    """Send ``tensor`` to world rank ``dst``."""
    _func("send").send(tensor, dst, _group(group), tag)


def recv(tensor, src=0, group=None, tag=0):
    """Receive into ``tensor`` from world rank ``src``; returns 0."""
    _write(tensor, _func("recv").recv(tensor, src, _group(group), tag))
    return 0


def isend(tensor, dst=0, group=None, tag=0):
    """Start sending ``tensor`` to world rank ``dst``; returns a handle."""
    return _Handle(_func("isend").isend(tensor, dst, _group(group), tag))


def irecv(tensor, src=0, group=None, tag=0):
    """Start receiving into ``tensor`` from world rank ``src``; the data is in ``tensor`` after ``wait()``."""
    out, handle = _func("irecv").irecv(tensor, src, _group(group), tag)
    return _Handle(handle, lambda: _write(tensor, out))


class P2POp:
    """One send or receive for :func:`batch_isend_irecv`: ``op`` is :func:`isend` or :func:`irecv` (or their
    names), ``peer`` a world rank."""

    def __init__(self, op, tensor, peer, group=None, tag=0):
        name = op if isinstance(op, str) else getattr(op, "__name__", None)
        if name not in ("isend", "irecv"):
            raise TypeError(f"For 'P2POp', the 'op' must be isend or irecv, but got {op!r}.")
        if not isinstance(tensor, Tensor):
            raise TypeError(f"For 'P2POp', the 'tensor' must be a Tensor, but got {type(tensor).__name__}.")
        if isinstance(peer, bool) or not isinstance(peer, int):
            raise TypeError(f"For 'P2POp', the 'peer' must be an int, but got {type(peer).__name__}.")
        self.op, self.tensor, self.peer, self.group, self.tag = name, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list):
    """Start every operation of ``p2p_op_list`` together; returns a list with one handle (received tensors are
    written once it is waited on)."""
    if not isinstance(p2p_op_list, list) or not p2p_op_list or not all(isinstance(p, P2POp) for p in p2p_op_list):
        raise TypeError("For 'batch_isend_irecv', the 'p2p_op_list' must be a non-empty list of P2POp.")
    handles = [isend(p.tensor, p.peer, p.group, p.tag) if p.op == "isend" else irecv(p.tensor, p.peer, p.group,
                                                                                      p.tag)
               for p in p2p_op_list]

    def finish():
        for h in handles:
            h.wait()
    return [_Handle(None, finish)]


# --- Python objects -----------------------------------------------------------------------------------------
def _to_bytes(obj):
    data = np.frombuffer(pickle.dumps(obj), np.uint8)
    return Tensor(data.copy()), data.size


def _from_bytes(tensor, size):
    return pickle.loads(tensor.asnumpy()[:size].tobytes())  # noqa: S301 - objects the user's own ranks sent


def _gather_bytes(obj, group):
    """(padded bytes of every rank (world, longest), the sizes) via two all-gathers."""
    data, size = _to_bytes(obj)
    fn = _func("all_gather_object")
    sizes, _ = fn.all_gather_into_tensor(Tensor(np.array([size], np.int64)), group)
    sizes = [int(s) for s in sizes.asnumpy()]
    longest = max(sizes)
    padded = ops.cat((data, ops.zeros((longest - size,), mstype.uint8)), 0) if longest > size else data
    gathered, _ = fn.all_gather_into_tensor(ops.expand_dims(padded, 0), group)
    return gathered, sizes


def all_gather_object(object_list, obj, group=None):
    """Every rank's ``obj`` into ``object_list`` (a list of the group's size) on every rank."""
    gathered, sizes = _gather_bytes(obj, _group(group))
    for i, n in enumerate(sizes):
        object_list[i] = _from_bytes(gathered[i], n)


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """Every rank's ``obj`` into ``object_gather_list`` on world rank ``dst``."""
    gathered, sizes = _gather_bytes(obj, _group(group))
    if _comm().get_rank() == dst:
        for i, n in enumerate(sizes):
            object_gather_list[i] = _from_bytes(gathered[i], n)


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """World rank ``src``'s ``object_list`` entries copied into ``object_list`` on every rank."""
    group = _group(group)
    gathered, sizes = _gather_bytes(list(object_list), group)
    src_rank = get_group_rank(group, src)
    object_list[:] = _from_bytes(gathered[src_rank], sizes[src_rank])


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0, group=None):
    """``scatter_object_input_list[i]`` of world rank ``src`` into ``scatter_object_output_list[0]`` of rank ``i``."""
    group = _group(group)
    payload = list(scatter_object_input_list) if _comm().get_rank() == src else None
    gathered, sizes = _gather_bytes(payload, group)
    src_rank = get_group_rank(group, src)
    scatter_object_output_list[0] = _from_bytes(gathered[src_rank], sizes[src_rank])[_comm().get_rank(group)]


def send_object_list(object_list, dst, group=None, device=None):
    """Send the objects of ``object_list`` to world rank ``dst`` (size first, then the bytes)."""
    data, size = _to_bytes(list(object_list))
    send(Tensor(np.array([size], np.int64)), dst, group)
    send(data, dst, group)


def recv_object_list(object_list, src=0, group=None, device=None):
    """Receive into ``object_list`` the objects world rank ``src`` sent with :func:`send_object_list`."""
    size = Tensor(np.zeros((1,), np.int64))
    recv(size, src, group)
    data = Tensor(np.zeros((int(size.asnumpy()[0]),), np.uint8))
    recv(data, src, group)
    objects = _from_bytes(data, data.shape[0])
    object_list[:len(objects)] = objects
