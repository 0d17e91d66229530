"""The work behind the collective functions of ``mindspore.ops`` (core's ``mindspore.ops.function.comm_func``).

MindSpore 2.10's ``mindspore.ops.all_reduce`` & co. are ``torch.distributed``-style and write their results **in
place** (the conventions of ``mindspore.mint.distributed``) unless ``ops.set_comm_ops_inplace(False)`` switched a
function to the out-of-place form, which returns its results like ``mindspore.communication.comm_func``
(``all_reduce`` -> ``(tensor, handle)``, ``recv`` -> the tensor, ``irecv`` -> ``(tensor, handle)``,
``all_to_all`` -> ``(tuple of tensors, handle)``). Core checks the arguments and the switch, then calls the
function of the same name here with ``inplace`` set; this module is imported on the first call.
"""
import numpy as np

import mindspore.mint.distributed as dist
import mindspore.ops as ops
from mindspore.common.tensor import Tensor
from mindspore.communication import comm_func as cf
from mindspore.communication.management import GlobalComm, get_group_size, get_rank



def _group(group):
    return GlobalComm.WORLD_COMM_GROUP if group is None else group


def _handle(async_op):
    return cf.CommHandle() if async_op else None


def mint_function(name):
    """mint.distributed's function ``name`` (the in-place form of ``ops.<name>``)."""
    return getattr(dist, name)


def all_reduce(tensor, op, group, async_op, inplace):
    if inplace:
        return dist.all_reduce(tensor, op, group, async_op)
    out, _ = cf.all_reduce(tensor, op, _group(group))
    return out, _handle(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group, async_op, inplace):
    if inplace:
        return dist.all_gather_into_tensor(output_tensor, input_tensor, group, async_op)
    out, _ = cf.all_gather_into_tensor(input_tensor, _group(group))
    return out, _handle(async_op)


def reduce_scatter_tensor(output, input, op, group, async_op, inplace):  # noqa: A002 - MindSpore's name
    if inplace:
        return dist.reduce_scatter_tensor(output, input, op, group, async_op)
    out, _ = cf.reduce_scatter_tensor(input, op, _group(group))
    return out, _handle(async_op)


def send(tensor, dst, group, tag, inplace):
    dist.send(tensor, dst, group, tag)


def isend(tensor, dst, group, tag, inplace):
    if inplace:
        return dist.isend(tensor, dst, group, tag)
    return cf.isend(tensor, dst, _group(group), tag)


def recv(tensor, src, group, tag, inplace):
    if inplace:
        return dist.recv(tensor, src, group, tag)
    return cf.recv(tensor, src, _group(group), tag)


def irecv(tensor, src, group, tag, inplace):
    if inplace:
        return dist.irecv(tensor, src, group, tag)
    return cf.irecv(tensor, src, _group(group), tag)


def all_to_all(output_tensor_list, input_tensor_list, group, async_op, inplace):
    if inplace:
        return dist.all_to_all(output_tensor_list, input_tensor_list, group, async_op)
    # out of place, an entry of output_tensor_list is a tensor or just the shape to receive
    shapes = [tuple(t.shape) if isinstance(t, Tensor) else tuple(t) for t in output_tensor_list]
    got, _ = cf.all_to_all_with_output_shape(shapes, list(input_tensor_list), _group(group))
    return got, _handle(async_op)


def all_to_all_single(output, input, output_split_sizes, input_split_sizes, group, async_op,  # noqa: A002
                      inplace):
    if inplace:
        return dist.all_to_all_single(output, input, output_split_sizes, input_split_sizes, group, async_op)
    # out of place, ``output`` is unused: the result has sum(output_split_sizes) rows (or input's row count)
    group = _group(group)
    size = get_group_size(group)
    rows = sum(output_split_sizes) if output_split_sizes else input.shape[0]
    if not output_split_sizes and rows % size:
        raise ValueError(f"input shape at dim 0 must be divided by world_size, but got {rows} and {size}.")
    got, _ = cf.all_to_all_single_with_output_shape((rows,) + tuple(input.shape[1:]), input, output_split_sizes,
                                                    input_split_sizes, group)
    return got, _handle(async_op)


def all_to_all_v_c(output, input, send_count_matrix, group, async_op):  # noqa: A002 - MindSpore's name
    return cf.all_to_all_v_c(output, input, send_count_matrix, group, async_op)


def gather_into_tensor(output_tensor, input_tensor, dst, group, async_op):
    """Every rank's ``input_tensor`` concatenated along axis 0 into ``output_tensor`` of world rank ``dst`` (the
    others' ``output_tensor`` is left as it is)."""
    group = _group(group)
    size = get_group_size(group)
    if get_rank() == dst:
        want = (input_tensor.shape[0] * size,) + tuple(input_tensor.shape[1:]) if input_tensor.ndim else (size,)
        if tuple(output_tensor.shape) != want:
            raise ValueError(f"For 'gather_into_tensor', the output tensor shape must be {list(want)}, but got "
                             f"{list(output_tensor.shape)}.")
    out = cf.gather_into_tensor(input_tensor, dst, group)
    if get_rank() == dst:
        ops.assign(output_tensor, ops.reshape(ops.cast(out, output_tensor.dtype), output_tensor.shape))
    return _handle(async_op)


def scatter_tensor(output_tensor, input_tensor, src, group, async_op):
    """World rank ``src``'s ``input_tensor`` split along axis 0 into the group's ranks: this rank's piece into
    ``output_tensor``."""
    group = _group(group)
    size = get_group_size(group)
    if get_rank() == src and input_tensor.shape and input_tensor.shape[0] % size:
        raise ValueError(f"For 'scatter_tensor', the input tensor's dim 0 ({input_tensor.shape[0]}) must be "
                         f"divisible by the group size {size}.")
    if get_rank() != src:
        # the other ranks take part with a tensor of the source's shape (the primitive checks shapes)
        input_tensor = Tensor(np.zeros((output_tensor.shape[0] * size,) + tuple(output_tensor.shape[1:]),
                                       output_tensor.dtype.to_numpy()))
    out = cf.scatter_tensor(input_tensor, src, group)
    ops.assign(output_tensor, ops.reshape(ops.cast(out, output_tensor.dtype), output_tensor.shape))
    return _handle(async_op)

