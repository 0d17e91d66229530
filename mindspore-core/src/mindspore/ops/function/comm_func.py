"""The collective functions of ``mindspore.ops`` (MindSpore 2.10's ``mindspore.ops.function.comm_func``).

``torch.distributed``-style: by default every function writes its result **in place** into the tensors it is given
and returns ``None`` (or a handle with ``wait()`` when ``async_op=True``). :func:`set_comm_ops_inplace` switches
functions to their out-of-place forms, which return the results (``all_reduce``, ``all_gather_into_tensor``,
``reduce_scatter_tensor`` -> ``(tensor, handle)``; ``recv`` -> the tensor; ``irecv``, ``all_to_all``,
``all_to_all_single`` -> ``(result, handle)``); the functions MindSpore has only in place then raise ValueError.
Ranks (``src``, ``dst``) are world ranks.

The collectives themselves are in the add-on distribution mindspore-parallel: core checks the arguments here and
hands the call to ``mindspore.communication`` (imported on the first call, never at ``import mindspore``); a
missing add-on is an ImportError naming ``pip install mindspore-parallel``.
"""
import importlib

from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.comm import AllGather, ReduceScatter, group_of
from mindspore.ops.function.math_func import matmul

__all__ = [
    "init_process_group", "destroy_process_group", "get_rank", "get_world_size", "new_group", "get_backend",
    "get_global_rank", "get_process_group_ranks", "get_group_rank", "all_reduce", "all_gather_into_tensor",
    "all_gather_into_tensor_uneven", "all_to_all", "all_to_all_single", "reduce_scatter_tensor",
    "reduce_scatter_tensor_uneven", "isend", "irecv", "send", "recv", "all_gather", "reduce_scatter", "barrier",
    "broadcast", "reduce", "batch_isend_irecv", "send_object_list", "recv_object_list", "all_gather_object",
    "broadcast_object_list", "gather_object", "scatter_object_list", "is_available", "is_initialized",
    "gather_into_tensor", "scatter_tensor", "set_comm_ops_inplace", "all_to_all_v_c", "all_gather_matmul",
    "matmul_reduce_scatter",
]

_COMM_FUNCS = ("all_reduce", "all_gather_into_tensor", "all_gather_into_tensor_uneven", "all_to_all",
               "all_to_all_single", "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "isend", "irecv", "send",
               "recv", "gather", "scatter", "all_gather", "reduce_scatter", "barrier", "broadcast", "reduce",
               "batch_isend_irecv", "all_gather_object", "broadcast_object_list", "gather_object",
               "scatter_object_list", "send_object_list", "recv_object_list", "gather_into_tensor", "scatter_tensor",
               "all_to_all_v_c")
_inplace = {name: True for name in _COMM_FUNCS}   # set_comm_ops_inplace's switches
_OPS = ("sum", "prod", "min", "max", "avg")


def _impl(api):
    """mindspore-parallel's implementation (``mindspore.communication._ops_comm``), imported on first use."""
    try:
        importlib.import_module("mindspore.communication")
    except ModuleNotFoundError as e:
        raise ImportError(f"For '{api}', the collectives are provided by the add-on distribution "
                          f"'mindspore-parallel', which is not installed. Install it with "
                          f"'pip install mindspore-parallel'.") from e
    return importlib.import_module("mindspore.communication._ops_comm")


def set_comm_ops_inplace(is_enable, func_list=None):
    """Switch the collective functions of ``func_list`` (all of them when None) to their in-place
    (``is_enable=True``, the default state) or out-of-place forms."""
    if not isinstance(is_enable, bool):
        raise TypeError("For 'set_comm_ops_inplace', the argument 'is_enable' must be type of bool, "
                        f"but got 'is_enable' type : {type(is_enable)}.")
    if func_list is None:
        for name in _inplace:
            _inplace[name] = is_enable
        return
    if not isinstance(func_list, (list, tuple)):
        raise TypeError(f"Expected list or tuple, but got {type(func_list)}.")
    for name in func_list:
        if name not in _inplace:
            raise ValueError(f"The function name in `func_list` must be correct, but got {name}.")
    for name in func_list:
        _inplace[name] = is_enable


def _only_inplace(api):
    if not _inplace[api]:
        raise ValueError("Non-inplace mode is currently not supported.")


def _tensor(api, value, what="input tensor"):
    if not isinstance(value, Tensor):
        raise TypeError(f"For {api}, the {what} must be tensor")


def _int(api, name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"For {api}, the {name} must be int")


def _op(api, op):
    if not isinstance(op, str):
        raise TypeError(f"For {api}, the input op type must be str")
    if op not in _OPS:
        raise TypeError(f"For {api}, the input op value must be one of sum, prod, min, max, avg")


def _group(group, async_op=False):
    if group is not None and not isinstance(group, str):
        raise TypeError(f"The argument 'group' must be type of string, but got 'group' type : {type(group)}.")
    if not isinstance(async_op, bool):
        raise TypeError(f"The argument 'async_op' must be a bool, but got {type(async_op)}.")


def _tensors(values):
    if not isinstance(values, (list, tuple)) or not all(isinstance(t, Tensor) for t in values):
        raise TypeError(f"Expected list or tuple of tensors, but got {type(values)}.")


# --- process groups ----------------------------------------------------------------------------------------
def is_available():
    """Whether the collectives (mindspore-parallel) are installed."""
    try:
        importlib.import_module("mindspore.communication")
    except ModuleNotFoundError:
        return False
    return True


def is_initialized():
    """Whether the collectives were initialised (:func:`init_process_group` or ``communication.init``)."""
    return is_available() and _impl("is_initialized").mint_function("is_initialized")()


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1, store=None,
                       group_name="", pg_options=None, device_id=None):
    """Initialise the collectives and the world group; a ``world_size`` or ``rank`` given must match the launch."""
    return _impl("init_process_group").mint_function("init_process_group")(
        backend, init_method, timeout, world_size, rank, store, group_name, pg_options, device_id)


def destroy_process_group(group=None):
    """Destroy ``group``, or every group and the collectives when None."""
    return _impl("destroy_process_group").mint_function("destroy_process_group")(group)


def new_group(ranks=None, timeout=None, backend=None, pg_options=None, use_local_synchronization=False,
              group_desc=None):
    """Create a group of the world ranks ``ranks`` (the world when None); returns its name."""
    return _impl("new_group").mint_function("new_group")(ranks, timeout, backend, pg_options,
                                                         use_local_synchronization, group_desc)


def get_backend(group=None):
    """The backend name of ``group``."""
    if group is not None and not isinstance(group, str):
        raise TypeError("For 'get_backend', the argument 'group' must be type of string or None, but got 'group' "
                        f"type : {type(group)}.")
    return _impl("get_backend").mint_function("get_backend")(group)


def get_rank(group=None):
    """This process's rank in ``group`` (-1 before initialisation)."""
    if group is not None and not isinstance(group, str):
        raise TypeError("For 'get_rank', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return _impl("get_rank").mint_function("get_rank")(group)


def get_world_size(group=None):
    """The number of processes in ``group`` (-1 before initialisation)."""
    if group is not None and not isinstance(group, str):
        raise TypeError("For 'get_world_size', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")
    return _impl("get_world_size").mint_function("get_world_size")(group)


def get_global_rank(group, group_rank):
    """The world rank of rank ``group_rank`` of ``group``."""
    return _impl("get_global_rank").mint_function("get_global_rank")(group, group_rank)


def get_group_rank(group, global_rank):
    """The rank in ``group`` of world rank ``global_rank``."""
    return _impl("get_group_rank").mint_function("get_group_rank")(group, global_rank)


def get_process_group_ranks(group=None):
    """The world ranks of ``group``, in group-rank order."""
    return _impl("get_process_group_ranks").mint_function("get_process_group_ranks")(group)


# --- collectives -------------------------------------------------------------------------------------------
def all_reduce(tensor, op="sum", group=None, async_op=False):
    """``tensor`` reduced over ``group``: in place on every rank (returns a handle or None), or out of place
    ``(tensor, handle)``."""
    _tensor("all_reduce", tensor)
    _op("all_reduce", op)
    _group(group, async_op)
    return _impl("all_reduce").all_reduce(tensor, op, group, async_op, _inplace["all_reduce"])


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """Every rank's ``input_tensor`` concatenated along dim 0 (into ``output_tensor`` when in place)."""
    _tensor("all_gather_into_tensor", input_tensor)
    if _inplace["all_gather_into_tensor"]:
        _tensor("all_gather_into_tensor", output_tensor, "output tensor")
    _group(group, async_op)
    return _impl("all_gather_into_tensor").all_gather_into_tensor(output_tensor, input_tensor, group, async_op,
                                                                  _inplace["all_gather_into_tensor"])


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None, async_op=False):  # noqa: A002
    """Ranks' ``input`` with different row counts (``output_split_sizes``) concatenated along dim 0 into
    ``output``."""
    _only_inplace("all_gather_into_tensor_uneven")
    _group(group, async_op)
    return _impl("all_gather_into_tensor_uneven").mint_function("all_gather_into_tensor_uneven")(
        output, input, output_split_sizes, group, async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """Rank ``i``'s ``tensor`` written into ``tensor_list[i]`` on every rank."""
    _only_inplace("all_gather")
    _tensors(tensor_list)
    _tensor("all_gather_into_tensor", tensor)
    _group(group, async_op)
    return _impl("all_gather").mint_function("all_gather")(tensor_list, tensor, group, async_op)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):  # noqa: A002 - MindSpore's name
    """``input`` reduced over the ranks and split along dim 0: this rank's piece (into ``output`` when in
    place)."""
    _tensor("reduce_scatter_tensor", input)
    if _inplace["reduce_scatter_tensor"]:
        _tensor("reduce_scatter_tensor", output, "output tensor")
    _op("reduce_scatter_tensor", op)
    _group(group, async_op)
    return _impl("reduce_scatter_tensor").reduce_scatter_tensor(output, input, op, group, async_op,
                                                                _inplace["reduce_scatter_tensor"])


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op="sum", group=None,  # noqa: A002
                                 async_op=False):
    """``input`` reduced over the ranks and split along dim 0 into ``input_split_sizes`` rows per rank."""
    _only_inplace("reduce_scatter_tensor_uneven")
    _op("reduce_scatter_tensor_uneven", op)
    _group(group, async_op)
    return _impl("reduce_scatter_tensor_uneven").mint_function("reduce_scatter_tensor_uneven")(
        output, input, input_split_sizes, op, group, async_op)


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """``input_list[i]`` reduced over the ranks into rank ``i``'s ``output``."""
    _only_inplace("reduce_scatter")
    _tensor("reduce_scatter", output, "output tensor")
    _tensors(input_list)
    _op("reduce_scatter", op)
    _group(group, async_op)
    return _impl("reduce_scatter").mint_function("reduce_scatter")(output, input_list, op, group, async_op)


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """``tensor`` reduced over ``group`` onto world rank ``dst`` (in place there)."""
    _only_inplace("reduce")
    _tensor("reduce", tensor)
    _int("reduce", "dst", dst)
    _op("reduce", op)
    _group(group, async_op)
    return _impl("reduce").mint_function("reduce")(tensor, dst, op, group, async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """World rank ``src``'s ``tensor`` copied into ``tensor`` on every rank."""
    _only_inplace("broadcast")
    _tensor("broadcast", tensor)
    _int("broadcast", "src", src)
    _group(group, async_op)
    return _impl("broadcast").mint_function("broadcast")(tensor, src, group, async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank of ``group`` got here."""
    _group(group, async_op)
    return _impl("barrier").mint_function("barrier")(group, async_op, device_ids)


def gather_into_tensor(output_tensor, input_tensor, dst=0, group=None, async_op=False):
    """Every rank's ``input_tensor`` concatenated along dim 0 into ``output_tensor`` on world rank ``dst``."""
    _only_inplace("gather_into_tensor")
    _tensor("gather_into_tensor", input_tensor)
    _tensor("gather_into_tensor", output_tensor, "output tensor")
    _int("gather_into_tensor", "dst", dst)
    _group(group, async_op)
    return _impl("gather_into_tensor").gather_into_tensor(output_tensor, input_tensor, dst, group, async_op)


def scatter_tensor(output_tensor, input_tensor, src=0, group=None, async_op=False):
    """World rank ``src``'s ``input_tensor`` split along dim 0: this rank's piece into ``output_tensor``."""
    _only_inplace("scatter_tensor")
    _tensor("scatter_tensor", input_tensor)
    _tensor("scatter_tensor", output_tensor, "output tensor")
    _int("scatter_tensor", "src", src)
    _group(group, async_op)
    return _impl("scatter_tensor").scatter_tensor(output_tensor, input_tensor, src, group, async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """``input_tensor_list[j]`` of rank ``i`` into ``output_tensor_list[i]`` of rank ``j`` (out of place, the
    entries of ``output_tensor_list`` may be shapes, and the received tensors are returned)."""
    _group(group, async_op)
    _tensors(input_tensor_list)
    if _inplace["all_to_all"]:
        _tensors(output_tensor_list)
    return _impl("all_to_all").all_to_all(output_tensor_list, input_tensor_list, group, async_op,
                                          _inplace["all_to_all"])


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None, group=None,  # noqa: A002
                      async_op=False):
    """``input`` split along dim 0, piece ``j`` to rank ``j``; the received pieces joined (into ``output`` when in
    place)."""
    _tensors([input])
    _group(group, async_op)
    if _inplace["all_to_all_single"]:
        _tensors([output])
    return _impl("all_to_all_single").all_to_all_single(output, input, output_split_sizes, input_split_sizes,
                                                        group, async_op, _inplace["all_to_all_single"])


def all_to_all_v_c(output, input, send_count_matrix, group=None, async_op=False):  # noqa: A002 - MindSpore's name
    """All-to-all with counts: ``send_count_matrix[i * size + j]`` elements of rank ``i``'s flattened ``input`` go
    to rank ``j``; the received ones, in rank order, into ``output``."""
    _only_inplace("all_to_all_v_c")
    _tensors([input])
    _tensors([output])
    _group(group, async_op)
    return _impl("all_to_all_v_c").all_to_all_v_c(output, input, send_count_matrix, group, async_op)


# --- point to point ----------------------------------------------------------------------------------------
def send(tensor, dst=0, group=None, tag=0):
    """Send ``tensor`` to world rank ``dst``."""
    _tensor("send", tensor)
    _int("send", "dst", dst)
    _group(group)
    _impl("send").send(tensor, dst, group, tag, _inplace["send"])


def recv(tensor, src=0, group=None, tag=0):
    """Receive from world rank ``src``: into ``tensor`` (returns 0), or out of place the received tensor."""
    _tensor("recv", tensor)
    _int("recv", "src", src)
    _group(group)
    return _impl("recv").recv(tensor, src, group, tag, _inplace["recv"])


def isend(tensor, dst=0, group=None, tag=0):
    """Start sending ``tensor`` to world rank ``dst``; returns a handle."""
    _tensor("isend", tensor)
    _int("isend", "dst", dst)
    _group(group)
    return _impl("isend").isend(tensor, dst, group, tag, _inplace["isend"])


def irecv(tensor, src=0, group=None, tag=0):
    """Start receiving from world rank ``src``: into ``tensor`` (returns a handle), or out of place
    ``(tensor, handle)``; the data is there once the handle's ``wait()`` returned."""
    _tensor("irecv", tensor)
    _int("irecv", "src", src)
    _group(group)
    return _impl("irecv").irecv(tensor, src, group, tag, _inplace["irecv"])


def batch_isend_irecv(p2p_op_list):
    """Start the sends and receives of ``p2p_op_list`` (``mint.distributed.P2POp``) together; returns a list with
    one handle."""
    _only_inplace("batch_isend_irecv")
    return _impl("batch_isend_irecv").mint_function("batch_isend_irecv")(p2p_op_list)


# --- Python objects ----------------------------------------------------------------------------------------
def all_gather_object(object_list, obj, group=None):
    """Every rank's ``obj`` into ``object_list`` on every rank."""
    return _impl("all_gather_object").mint_function("all_gather_object")(object_list, obj, group)


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """Every rank's ``obj`` into ``object_gather_list`` on world rank ``dst``."""
    return _impl("gather_object").mint_function("gather_object")(obj, object_gather_list, dst, group)


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """World rank ``src``'s ``object_list`` entries into ``object_list`` on every rank."""
    return _impl("broadcast_object_list").mint_function("broadcast_object_list")(object_list, src, group, device)


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0, group=None):
    """``scatter_object_input_list[i]`` of world rank ``src`` into ``scatter_object_output_list[0]`` of rank
    ``i``."""
    return _impl("scatter_object_list").mint_function("scatter_object_list")(
        scatter_object_output_list, scatter_object_input_list, src, group)


def send_object_list(object_list, dst, group=None, device=None):
    """Send the objects of ``object_list`` to world rank ``dst``."""
    return _impl("send_object_list").mint_function("send_object_list")(object_list, dst, group, device)


def recv_object_list(object_list, src=0, group=None, device=None):
    """Receive into ``object_list`` the objects world rank ``src`` sent with :func:`send_object_list`."""
    return _impl("recv_object_list").mint_function("recv_object_list")(object_list, src, group, device)


# --- fused matmul collectives (MindSpore's Ascend fusion operators, here a collective then a MatMul) ------------
def _fused_checks(api, input, x2, group, world_size, **zero):  # noqa: A002 - MindSpore's name
    for name, value in (("input", input), ("x2", x2)):
        if not isinstance(value, Tensor):
            raise TypeError(f"For '{api}', the '{name}' must be a Tensor, but got {type(value).__name__}.")
    if input.dtype != x2.dtype:
        raise RuntimeError(f"For '{api}', the dtypes of 'input' and 'x2' must be the same, but got {input.dtype} "
                           f"and {x2.dtype}.")
    if input.dtype not in (mstype.float16, mstype.bfloat16, mstype.float32):
        raise RuntimeError(f"For '{api}', the dtype of 'input' must be float16, bfloat16 or float32, but got "
                           f"{input.dtype}.")
    if input.ndim != 2 or x2.ndim != 2:
        raise RuntimeError(f"For '{api}', the 'input' and 'x2' must be 2-D, but got shapes {input.shape} and "
                           f"{x2.shape}.")
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the 'group' must be a str, but got {type(group).__name__}.")
    if isinstance(world_size, bool) or not isinstance(world_size, int):
        raise TypeError(f"For '{api}', the 'world_size' must be an int, but got {type(world_size).__name__}.")
    size = group_of(api, group).size
    if world_size != size:
        raise RuntimeError(f"For '{api}', the 'world_size' must be the size of the group '{group}', {size}, but got "
                           f"{world_size}.")
    for name, (value, supported) in zero.items():
        if value != supported:
            raise RuntimeError(f"For '{api}', only {name}={supported!r} is supported, but got {value!r}.")


def all_gather_matmul(input, x2, group, world_size, *, bias=None, gather_index=0,  # noqa: A002 - MindSpore's name
                      gather_output=True, comm_turn=0, trans_input=False, trans_x2=False):
    """``(allgather(input) @ x2, allgather(input))``: every rank's ``(m, k)`` ``input`` gathered along dim 0 (an
    empty tensor in place of the gathered one when ``gather_output`` is False), times ``x2`` (``(k, n)``, or
    ``(n, k)`` with ``trans_x2``)."""
    _fused_checks("all_gather_matmul", input, x2, group, world_size, bias=(bias, None),
                  gather_index=(gather_index, 0), comm_turn=(comm_turn, 0), trans_input=(trans_input, False))
    right = x2.T if trans_x2 else x2
    if input.shape[1] != right.shape[0]:
        raise RuntimeError(f"For 'all_gather_matmul', the k axis of 'input' {input.shape} and 'x2' {x2.shape} must "
                           f"be equal.")
    gathered = AllGather(group)(input)
    out = matmul(gathered, right)
    return out, (gathered if gather_output else Tensor([], input.dtype))


def matmul_reduce_scatter(input, x2, group, world_size, *, reduce_op="sum", bias=None,  # noqa: A002
                          comm_turn=0, trans_input=False, trans_x2=False):
    """``reducescatter(input @ x2)``: the ``(m, n)`` products summed over the ranks and split along dim 0 (``m`` a
    multiple of ``world_size``): this rank's ``(m / world_size, n)`` rows."""
    _fused_checks("matmul_reduce_scatter", input, x2, group, world_size, reduce_op=(reduce_op, "sum"),
                  bias=(bias, None), comm_turn=(comm_turn, 0), trans_input=(trans_input, False))
    right = x2.T if trans_x2 else x2
    if input.shape[1] != right.shape[0]:
        raise RuntimeError(f"For 'matmul_reduce_scatter', the k axis of 'input' {input.shape} and 'x2' {x2.shape} "
                           f"must be equal.")
    if input.shape[0] % world_size:
        raise RuntimeError(f"For 'matmul_reduce_scatter', the m axis of 'input' ({input.shape[0]}) must be a "
                           f"multiple of 'world_size' {world_size}.")
    return ReduceScatter("sum", group)(matmul(input, right))


# MindSpore's `comm_func` also holds the process-group collectives `gather` and `scatter` (not the array
# functions of mindspore.ops of those names) and `P2POp`: here they are mindspore.mint.distributed's
from mindspore._module_paths import reexport as _reexport  # noqa: E402

__getattr__ = _reexport(__name__, {"mindspore.mint.distributed": "gather scatter P2POp"})
