"""Collective communication primitives: AllReduce, AllGather, ReduceScatter, Broadcast, AlltoAll, Send/Receive,
Barrier, Reduce, CollectiveGather, CollectiveScatter, AllGatherV, ReduceScatterV.

Design
------
Each primitive names a communication ``group``; its shape rule asks :func:`mindspore.plugin.process_group` for the
group as this process takes part in it (size, rank), so ``AllGather`` on a group of 4 infers a 4x longer axis 0
before any data moves. Before ``mindspore.communication.init()`` (or without mindspore-parallel) every group is this
process alone, so model code written for several devices runs unchanged on one. The shape rule also refuses a group
this process is not a member of, and a group name that was never created, in both modes, before any kernel runs.

The kernels (CPU: over MPI, GPU: over NCCL) live in the backends' ``comm`` families and reach the group's
communicator through the same ``process_group``; they check that every rank passes the same shape and dtype, so a
mismatch is an error on every rank, not a hang.

Collectives are **side effects**: every rank must run the same collectives in the same order, whether or not this
rank uses the result. ``side_effect = True`` makes the GRAPH_MODE compiler keep each one where the program put it:
never constant-folded (a collective on constants still communicates at every run), never merged by CSE (two equal
``AllReduce`` calls are two collectives), never dropped by DCE (an unused ``Barrier`` still synchronises), and run in
program order like ``Print``.

Gradients (the loss is the sum of every rank's loss, as in data-parallel training):

* ``AllReduce`` sum: all-reduce the gradient; max/min: all-reduced gradient where ``x`` is the extremum; prod:
  all-reduce of ``dout * out`` divided by ``x``;
* ``AllGather`` <-> ``ReduceScatter`` (sum), ``AllGatherV`` <-> ``ReduceScatterV``; ReduceScatter max/min/prod as
  AllReduce's, gathered;
* ``AlltoAll``: the AlltoAll with ``split_dim`` and ``concat_dim`` swapped;
* ``Broadcast``: the gradients of every rank summed onto the root (``Reduce``), zero on the others;
* ``Reduce`` <-> ``Broadcast`` from the destination; ``CollectiveGather`` <-> ``CollectiveScatter``;
* ``Send``: receives its gradient from the destination; ``Receive``: sends its gradient back to the source (the
  pair MindSpore's pipeline parallelism relies on).
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore._plugin.collective import process_group, process_groups
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.array import Split, cached_prim
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, constexpr, prim_attr_register

WORLD_GROUP = "hccl_world_group"
_DATA_TYPES = rules.ALL_TYPES
_REDUCE_TYPES = rules.NUMBER_TYPES + (mstype.bool_,)


class ReduceOp:
    """Reduction kinds of the collectives."""

    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


_REDUCE_OPS = (ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN, ReduceOp.PROD)


def _check_group(name, group):
    if not isinstance(group, str):
        raise MSTypeError(f"For '{name}', the 'group' must be a str, but got {type(group).__name__}.")


def _check_op(name, op):
    if op not in _REDUCE_OPS:
        raise MSValueError(f"For '{name}', the 'op' must be one of sum, max, min, prod, but got {op!r}.")


def group_of(name, group):
    """The :class:`~mindspore.plugin.ProcessGroup` ``group`` for primitive ``name``; an error when the group was never
    created or this process is not one of its members."""
    g = process_group(group)
    if g.rank < 0:
        raise MSValueError(f"For '{name}', this process is not a member of the group '{group}', so it cannot take "
                           f"part in a collective on it; call it only on the group's ranks.")
    known = process_groups()
    if known and group not in known:
        raise MSValueError(f"For '{name}', the group '{group}' does not exist; create it with "
                           f"mindspore.communication.create_group() first.")
    return g


def _check_rank_arg(name, arg, value, size):
    rules.check_int(name, arg, value)
    if not 0 <= value < size:
        raise MSValueError(f"For '{name}', the '{arg}' must be a rank of the group, in [0, {size}), but got {value}.")


@constexpr
def _group_rank(group):
    return process_group(group).rank


@constexpr
def _group_size(group):
    return process_group(group).size



def _split_rows(name, x, size):
    """The shape of one of ``size`` equal parts of ``x`` along its first dimension."""
    rules.check_rank(name, "x", x, range(1, 9))
    if x[0] % size:
        raise MSValueError(f"For '{name}', the first dimension of 'x' must be divisible by the group size {size}, "
                           f"but got shape {tuple(x)}.")
    return (x[0] // size,) + tuple(x[1:])

# --- AllReduce ------------------------------------------------------------------------------
class AllReduce(Primitive):
    """``AllReduce(op='sum', group)(x)``: ``x`` reduced element-wise over every rank of ``group``; every rank gets
    the result."""

    side_effect = True

    @prim_attr_register
    def __init__(self, op=ReduceOp.SUM, group=WORLD_GROUP):
        _check_op(self.name, op)
        _check_group(self.name, group)

    def infer_shape(self, x):
        group_of(self.name, self.group)
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _REDUCE_TYPES)

    def bprop(self, x, out, dout):
        if self.op == ReduceOp.SUM:
            return (cached_prim(AllReduce, ReduceOp.SUM, self.group)(dout),)
        if self.op == ReduceOp.PROD:
            return (fops.div(cached_prim(AllReduce, ReduceOp.SUM, self.group)(fops.mul(dout, out)), x),)
        summed = cached_prim(AllReduce, ReduceOp.SUM, self.group)(dout)
        return (fops.mul(summed, fops.cast(fops.equal(x, out), summed.dtype)),)


# --- AllGather ------------------------------------------------------------------------------
class AllGather(Primitive):
    """``AllGather(group)(x)``: every rank's ``x`` concatenated along axis 0, in group-rank order."""

    side_effect = True

    @prim_attr_register
    def __init__(self, group=WORLD_GROUP):
        _check_group(self.name, group)

    def infer_shape(self, x):
        size = group_of(self.name, self.group).size
        rules.check_rank(self.name, "x", x, range(1, 9))
        return (x[0] * size,) + tuple(x[1:])

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, out, dout):
        return (cached_prim(ReduceScatter, ReduceOp.SUM, self.group)(dout),)


# --- ReduceScatter --------------------------------------------------------------------------
class ReduceScatter(Primitive):
    """``ReduceScatter(op='sum', group)(x)``: ``x`` reduced over the ranks, then split along axis 0; rank ``i`` gets
    piece ``i``."""

    side_effect = True

    @prim_attr_register
    def __init__(self, op=ReduceOp.SUM, group=WORLD_GROUP):
        _check_op(self.name, op)
        _check_group(self.name, group)

    def infer_shape(self, x):
        size = group_of(self.name, self.group).size
        return _split_rows(self.name, x, size)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _REDUCE_TYPES)

    def bprop(self, x, out, dout):
        gather = cached_prim(AllGather, self.group)
        if self.op == ReduceOp.SUM:
            return (gather(dout),)
        if self.op == ReduceOp.PROD:
            return (fops.div(gather(fops.mul(dout, out)), x),)
        full = gather(dout)
        return (fops.mul(full, fops.cast(fops.equal(x, gather(out)), full.dtype)),)


# --- Broadcast ------------------------------------------------------------------------------
class Broadcast(Primitive):
    """``Broadcast(root_rank, group)((x1, x2, ...))``: the root's tensors, on every rank (a tuple, like the input)."""

    side_effect = True

    @prim_attr_register
    def __init__(self, root_rank, group=WORLD_GROUP):
        rules.check_int(self.name, "root_rank", root_rank)
        _check_group(self.name, group)

    def infer_shape(self, xs):
        size = group_of(self.name, self.group).size
        _check_rank_arg(self.name, "root_rank", self.root_rank, size)
        if not isinstance(xs, (tuple, list)) or not xs or not all(rules.is_shape(s) for s in xs):
            raise MSTypeError(f"For '{self.name}', the input must be a non-empty tuple of Tensors, but got {xs!r}.")
        return tuple(tuple(s) for s in xs)

    def infer_dtype(self, xs):
        if not isinstance(xs, (tuple, list)) or not all(isinstance(d, mstype.Type) for d in xs):
            raise MSTypeError(f"For '{self.name}', the input must be a non-empty tuple of Tensors, but got {xs!r}.")
        return tuple(rules.check_dtype_in(self.name, "x", d, _DATA_TYPES) for d in xs)

    def bprop(self, xs, out, dout):
        reduce = cached_prim(Reduce, self.root_rank, ReduceOp.SUM, self.group)
        return (tuple(reduce(d) for d in dout),)


# --- AlltoAll -------------------------------------------------------------------------------
class AlltoAll(Primitive):
    """``AlltoAll(split_count, split_dim, concat_dim, group)(x)``: ``x`` cut into ``split_count`` pieces along
    ``split_dim``; piece ``j`` goes to rank ``j``, and the pieces received are joined along ``concat_dim`` in rank
    order."""

    side_effect = True

    @prim_attr_register
    def __init__(self, split_count, split_dim, concat_dim, group=WORLD_GROUP):
        rules.check_positive_int(self.name, "split_count", split_count)
        rules.check_int(self.name, "split_dim", split_dim)
        rules.check_int(self.name, "concat_dim", concat_dim)
        _check_group(self.name, group)

    def infer_shape(self, x):
        size = group_of(self.name, self.group).size
        if self.split_count != size:
            raise MSValueError(f"For '{self.name}', the 'split_count' must be equal to the group size {size}, but got "
                               f"{self.split_count}.")
        rules.check_rank(self.name, "x", x, range(1, 9))
        split = rules.check_axis(self.name, self.split_dim, len(x), "split_dim")
        concat = rules.check_axis(self.name, self.concat_dim, len(x), "concat_dim")
        if x[split] % self.split_count:
            raise MSValueError(f"For '{self.name}', the 'x' shape[{split}] must be divisible by 'split_count' "
                               f"{self.split_count}, but got shape {tuple(x)}.")
        shape = list(x)
        shape[split] //= self.split_count
        shape[concat] *= self.split_count
        return tuple(shape)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, out, dout):
        return (cached_prim(AlltoAll, self.split_count, self.concat_dim, self.split_dim, self.group)(dout),)


# --- Send -----------------------------------------------------------------------------------
class Send(Primitive):
    """``Send(sr_tag, dest_rank, group, group_back)(x)``: send ``x`` to rank ``dest_rank`` of ``group`` (blocking
    until it is received or buffered); returns a copy of ``x``. Its gradient is received from ``dest_rank``."""

    side_effect = True

    @prim_attr_register
    def __init__(self, sr_tag, dest_rank, group=WORLD_GROUP, group_back=WORLD_GROUP):
        rules.check_int(self.name, "sr_tag", sr_tag)
        rules.check_int(self.name, "dest_rank", dest_rank)
        _check_group(self.name, group)
        _check_group(self.name, group_back)

    def infer_shape(self, x):
        _check_rank_arg(self.name, "dest_rank", self.dest_rank, group_of(self.name, self.group).size)
        return tuple(x)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, out, dout):
        receive = cached_prim(Receive, self.sr_tag, self.dest_rank, _shape_of(x), x.dtype, self.group_back)
        return (receive(),)


@constexpr
def _shape_of(x):
    return tuple(x.shape)


# --- Receive --------------------------------------------------------------------------------
class Receive(Primitive):
    """``Receive(sr_tag, src_rank, shape, dtype, group, group_back)()``: the tensor rank ``src_rank`` of ``group``
    sent with tag ``sr_tag``. An optional input only orders the receive after it (GRAPH_MODE's data dependence);
    the gradient is sent back to ``src_rank``."""

    side_effect = True

    @prim_attr_register
    def __init__(self, sr_tag, src_rank, shape, dtype, group=WORLD_GROUP, group_back=WORLD_GROUP):
        rules.check_int(self.name, "sr_tag", sr_tag)
        rules.check_int(self.name, "src_rank", src_rank)
        rules.check_int_tuple(self.name, "shape", tuple(shape) if isinstance(shape, list) else shape)
        if not isinstance(dtype, mstype.Type) or dtype not in _DATA_TYPES:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be a mindspore dtype, but got {dtype!r}.")
        _check_group(self.name, group)
        _check_group(self.name, group_back)

    def infer_shape(self, x=None):
        _check_rank_arg(self.name, "src_rank", self.src_rank, group_of(self.name, self.group).size)
        return tuple(self.shape)

    def infer_dtype(self, x=None):
        return self.dtype

    def bprop(self, *args):
        dout = args[-1]
        sent = cached_prim(Send, self.sr_tag, self.src_rank, self.group_back)(dout)
        if len(args) == 2:       # no input: nothing to differentiate, but the gradient still goes back
            return ()
        return (fops.depend(fops.zeros_like(args[0]), sent),)


# --- Barrier --------------------------------------------------------------------------------
class Barrier(Primitive):
    """``Barrier(group)()``: wait until every rank of ``group`` reaches it; returns ``[1.]`` (float32, shape (1,))."""

    side_effect = True

    @prim_attr_register
    def __init__(self, group=WORLD_GROUP):
        _check_group(self.name, group)

    def infer_shape(self):
        group_of(self.name, self.group)
        return (1,)

    def infer_dtype(self):
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


# --- Reduce ---------------------------------------------------------------------------------
class Reduce(Primitive):
    """``Reduce(dest_rank, op='sum', group)(x)``: ``x`` reduced over the ranks onto rank ``dest_rank``; the other
    ranks get zeros of the same shape."""

    side_effect = True

    @prim_attr_register
    def __init__(self, dest_rank, op=ReduceOp.SUM, group=WORLD_GROUP):
        rules.check_int(self.name, "dest_rank", dest_rank)
        _check_op(self.name, op)
        _check_group(self.name, group)

    def infer_shape(self, x):
        _check_rank_arg(self.name, "dest_rank", self.dest_rank, group_of(self.name, self.group).size)
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _REDUCE_TYPES)

    def bprop(self, x, out, dout):
        bcast = cached_prim(Broadcast, self.dest_rank, self.group)
        if self.op == ReduceOp.SUM:
            return (bcast((dout,))[0],)
        if self.op == ReduceOp.PROD:
            return (fops.div(bcast((fops.mul(dout, out),))[0], x),)
        grad, result = bcast((dout, out))
        return (fops.mul(grad, fops.cast(fops.equal(x, result), grad.dtype)),)


# --- CollectiveGather -----------------------------------------------------------------------
class CollectiveGather(Primitive):
    """``CollectiveGather(dest_rank, group)(x)``: every rank's ``x`` concatenated along axis 0 on rank
    ``dest_rank``; the other ranks get zeros of that shape."""

    side_effect = True

    @prim_attr_register
    def __init__(self, dest_rank, group=WORLD_GROUP):
        rules.check_int(self.name, "dest_rank", dest_rank)
        _check_group(self.name, group)

    def infer_shape(self, x):
        size = group_of(self.name, self.group).size
        _check_rank_arg(self.name, "dest_rank", self.dest_rank, size)
        rules.check_rank(self.name, "x", x, range(1, 9))
        return (x[0] * size,) + tuple(x[1:])

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, out, dout):
        full = cached_prim(Broadcast, self.dest_rank, self.group)((dout,))[0]
        pieces = cached_prim(Split, 0, _group_size(self.group))(full)
        return (pieces[_group_rank(self.group)],)


# --- CollectiveScatter ----------------------------------------------------------------------
class CollectiveScatter(Primitive):
    """``CollectiveScatter(src_rank=0, group)(x)``: rank ``src_rank``'s ``x`` split along axis 0; rank ``i`` gets
    piece ``i`` (the other ranks' ``x`` only gives the shape)."""

    side_effect = True

    @prim_attr_register
    def __init__(self, src_rank=0, group=WORLD_GROUP):
        rules.check_int(self.name, "src_rank", src_rank)
        _check_group(self.name, group)

    def infer_shape(self, x):
        size = group_of(self.name, self.group).size
        _check_rank_arg(self.name, "src_rank", self.src_rank, size)
        return _split_rows(self.name, x, size)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, out, dout):
        return (cached_prim(CollectiveGather, self.src_rank, self.group)(dout),)


# --- AllGatherV -----------------------------------------------------------------------------
def _split_sizes(name, arg, sizes, group_size):
    if isinstance(sizes, list):
        sizes = tuple(sizes)
    if not isinstance(sizes, tuple) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                                 for v in sizes):
        raise MSTypeError(f"For '{name}', the '{arg}' must be a tuple or list of non-negative ints, but got "
                          f"{sizes!r}.")
    if len(sizes) != group_size:
        raise MSValueError(f"For '{name}', the '{arg}' must have one entry per rank of the group ({group_size}), "
                           f"but got {len(sizes)}.")
    return sizes


class AllGatherV(Primitive):
    """``AllGatherV(group)(x, output_split_sizes)``: every rank's 1-D ``x`` (rank ``i``'s has
    ``output_split_sizes[i]`` elements) concatenated in group-rank order."""

    side_effect = True

    @prim_attr_register
    def __init__(self, group=WORLD_GROUP):
        _check_group(self.name, group)

    def infer_shape(self, x, output_split_sizes):
        # x's length is checked by the kernel, on every rank at once: an error raised here on one rank only
        # would leave the others waiting in the collective
        sizes = _split_sizes(self.name, "output_split_sizes", output_split_sizes, group_of(self.name, self.group).size)
        rules.check_rank(self.name, "x", x, (1,))
        return (sum(sizes),)

    def infer_dtype(self, x, output_split_sizes):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, output_split_sizes, out, dout):
        return (cached_prim(ReduceScatterV, ReduceOp.SUM, self.group)(dout, output_split_sizes), output_split_sizes)


# --- ReduceScatterV -------------------------------------------------------------------------
class ReduceScatterV(Primitive):
    """``ReduceScatterV(op='sum', group)(x, input_split_sizes)``: the 1-D ``x`` reduced over the ranks and cut into
    pieces of ``input_split_sizes``; rank ``i`` gets piece ``i``."""

    side_effect = True

    @prim_attr_register
    def __init__(self, op=ReduceOp.SUM, group=WORLD_GROUP):
        _check_op(self.name, op)
        _check_group(self.name, group)

    def infer_shape(self, x, input_split_sizes):
        g = group_of(self.name, self.group)
        sizes = _split_sizes(self.name, "input_split_sizes", input_split_sizes, g.size)
        rules.check_rank(self.name, "x", x, (1,))     # its length: checked by the kernel, on every rank at once
        return (sizes[g.rank],)

    def infer_dtype(self, x, input_split_sizes):
        return rules.check_dtype_in(self.name, "x", x, _REDUCE_TYPES)

    def bprop(self, x, input_split_sizes, out, dout):
        gather = cached_prim(AllGatherV, self.group)
        if self.op == ReduceOp.SUM:
            return (gather(dout, input_split_sizes), input_split_sizes)
        if self.op == ReduceOp.PROD:
            return (fops.div(gather(fops.mul(dout, out), input_split_sizes), x), input_split_sizes)
        full = gather(dout, input_split_sizes)
        return (fops.mul(full, fops.cast(fops.equal(x, gather(out, input_split_sizes)), full.dtype)),
                input_split_sizes)


PRIMITIVES = [AllReduce, AllGather, ReduceScatter, Broadcast, AlltoAll, Send, Receive, Barrier, Reduce,
              CollectiveGather, CollectiveScatter, AllGatherV, ReduceScatterV]


# --- AlltoAllV / AlltoAllVC -----------------------------------------------------------------
def _counts(name, arg, value, length=None):
    """A list/tuple of non-negative ints (``length`` of them when given) as a tuple."""
    if isinstance(value, list):
        value = tuple(value)
    if not isinstance(value, tuple) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                               for v in value):
        raise MSTypeError(f"For '{name}', the '{arg}' must be a tuple or list of non-negative ints, but got "
                          f"{value!r}.")
    if length is not None and len(value) != length:
        raise MSValueError(f"For '{name}', the '{arg}' must have {length} entries, but got {len(value)}.")
    return value


def _flat_out(total):
    """MindSpore's output shape of a V all-to-all: (total,), or () when nothing is received."""
    return (total,) if total else ()


class AlltoAllV(Primitive):
    """``AlltoAllV(group, block_size=1)(x, send_numel_list, recv_numel_list)``: the 1-D ``x`` cut in order into
    pieces of ``send_numel_list[j] * block_size`` elements, piece ``j`` to rank ``j``; the pieces received
    (``recv_numel_list[j] * block_size`` from rank ``j``) joined in rank order. Shape ``()`` when nothing is
    received. Gradient: the AlltoAllV with the two lists swapped."""

    side_effect = True

    @prim_attr_register
    def __init__(self, group=WORLD_GROUP, block_size=1):
        _check_group(self.name, group)
        rules.check_int(self.name, "block_size", block_size)

    def infer_shape(self, x, send_numel_list, recv_numel_list):
        size = group_of(self.name, self.group).size
        _counts(self.name, "send_numel_list", send_numel_list, size)
        recv = _counts(self.name, "recv_numel_list", recv_numel_list, size)
        rules.check_rank(self.name, "x", x, (0, 1))   # the length is checked by the kernel, on every rank at once
        return _flat_out(sum(recv) * self.block_size)

    def infer_dtype(self, x, send_numel_list, recv_numel_list):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def counts(self, send_numel_list, recv_numel_list):
        """(elements to send to each rank, elements to receive from each), for the kernels."""
        return ([n * self.block_size for n in send_numel_list], [n * self.block_size for n in recv_numel_list])

    def bprop(self, x, send_numel_list, recv_numel_list, out, dout):
        dx = cached_prim(AlltoAllV, self.group, self.block_size)(dout, recv_numel_list, send_numel_list)
        return (dx, send_numel_list, recv_numel_list)


def vc_counts(matrix, size, rank, transpose):
    """(elements this rank sends to each rank, elements it receives from each) of a send-count matrix."""
    rows = [list(matrix[i * size:(i + 1) * size]) for i in range(size)]
    if transpose:
        rows = [list(col) for col in zip(*rows)]
    return [rows[rank][j] for j in range(size)], [rows[j][rank] for j in range(size)]


class AlltoAllVC(Primitive):
    """``AlltoAllVC(group, block_size=1, transpose=False)(x, send_count_matrix)``: ``send_count_matrix[i * size +
    j] * block_size`` elements of rank ``i``'s 1-D ``x`` (cut in order) go to rank ``j``; the received ones joined
    in rank order (shape ``()`` when none). ``transpose=True`` reads the matrix transposed (the gradient's
    exchange)."""

    side_effect = True

    @prim_attr_register
    def __init__(self, group=WORLD_GROUP, block_size=1, transpose=False):
        _check_group(self.name, group)
        rules.check_int(self.name, "block_size", block_size)
        rules.check_bool(self.name, "transpose", transpose)

    def infer_shape(self, x, send_count_matrix):
        g = group_of(self.name, self.group)
        matrix = _counts(self.name, "send_count_matrix", send_count_matrix, g.size * g.size)
        rules.check_rank(self.name, "x", x, (0, 1))
        _, recv = vc_counts(matrix, g.size, g.rank, self.transpose)
        return _flat_out(sum(recv) * self.block_size)

    def infer_dtype(self, x, send_count_matrix):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def counts(self, send_count_matrix):
        """(elements to send to each rank, elements to receive from each) of this rank, for the kernels."""
        g = process_group(self.group)
        send, recv = vc_counts(list(send_count_matrix), g.size, g.rank, self.transpose)
        return [n * self.block_size for n in send], [n * self.block_size for n in recv]

    def bprop(self, x, send_count_matrix, out, dout):
        grad = cached_prim(AlltoAllVC, self.group, self.block_size, not self.transpose)
        return (grad(dout, send_count_matrix), send_count_matrix)


# --- NeighborExchange -----------------------------------------------------------------------
def _rank_ids(name, arg, ids, size, allow_none=False):
    if not isinstance(ids, (list, tuple)) or not all(isinstance(r, int) and not isinstance(r, bool) for r in ids):
        raise MSTypeError(f"For '{name}', the '{arg}' must be a list of ints, but got {ids!r}.")
    for r in ids:
        if (r != -1 or not allow_none) and not 0 <= r < size:
            raise MSValueError(f"For '{name}', the value of 'rank_id in {arg}' must be in [0, {size}), but got {r}.")
    return tuple(ids)


class NeighborExchange(Primitive):
    """``NeighborExchange(send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type, group)(xs)``: tensor
    ``xs[k]`` (of ``send_shapes[k]``) goes to rank ``send_rank_ids[k]``; returns the tuple of the tensors received
    from ``recv_rank_ids`` (``recv_shapes``, dtype ``recv_type``). Gradient: the exchange reversed."""

    side_effect = True

    @prim_attr_register
    def __init__(self, send_rank_ids, recv_rank_ids, recv_shapes, send_shapes, recv_type, group=WORLD_GROUP):
        _check_group(self.name, group)
        for arg, ids in (("send_rank_ids", send_rank_ids), ("recv_rank_ids", recv_rank_ids)):
            if not isinstance(ids, (list, tuple)):
                raise MSTypeError(f"For '{self.name}', the '{arg}' must be a list, but got {type(ids).__name__}.")
        for arg, shapes, ids in (("recv_shapes", recv_shapes, recv_rank_ids),
                                 ("send_shapes", send_shapes, send_rank_ids)):
            if not isinstance(shapes, (list, tuple)) or len(shapes) != len(ids):
                raise MSValueError(f"For '{self.name}', the '{arg}' must have one shape per rank id ({len(ids)}), "
                                   f"but got {shapes!r}.")
        if not isinstance(recv_type, mstype.Type) or recv_type not in _DATA_TYPES:
            raise MSTypeError(f"For '{self.name}', the 'recv_type' must be a mindspore dtype, but got {recv_type!r}.")

    def infer_shape(self, xs):
        size = group_of(self.name, self.group).size
        _rank_ids(self.name, "send_rank_ids", self.send_rank_ids, size)
        _rank_ids(self.name, "recv_rank_ids", self.recv_rank_ids, size)
        xs = tuple(xs) if isinstance(xs, (list, tuple)) else ()
        want = tuple(tuple(s) for s in self.send_shapes)
        if tuple(tuple(s) for s in xs) != want:
            raise MSValueError(f"For '{self.name}', the input shapes must be the 'send_shapes' {list(want)}, but got "
                               f"{[tuple(s) for s in xs]}.")
        return tuple(tuple(s) for s in self.recv_shapes)

    def infer_dtype(self, xs):
        for d in xs:
            rules.check_dtype_in(self.name, "x", d, _DATA_TYPES)
        return tuple(self.recv_type for _ in self.recv_shapes)

    def bprop(self, xs, out, dout):
        dtype = xs[0].dtype if xs else self.recv_type
        back = cached_prim(NeighborExchange, tuple(self.recv_rank_ids), tuple(self.send_rank_ids),
                           tuple(tuple(s) for s in self.send_shapes), tuple(tuple(s) for s in self.recv_shapes),
                           dtype, self.group)
        return (back(tuple(dout)),)


# --- NeighborExchangeV2 ---------------------------------------------------------------------
# the 8 directions of send_rank_ids/recv_rank_ids, as (row side, column side): -1 top/left, 1 bottom/right, 0 centre
HALO_DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


def _span(side, before, after, inner, framed=False):
    """One axis of a halo region. Unframed (an axis of ``inner`` elements): side -1 its first ``before``, 1 its last
    ``after``, 0 all of it. Framed (``before`` + ``inner`` + ``after`` elements): side -1 the leading frame, 1 the
    trailing frame, 0 the ``inner`` centre."""
    if side < 0:
        return slice(0, before)
    if framed:
        return slice(before + inner, before + inner + after) if side > 0 else slice(before, before + inner)
    return slice(inner - after, inner) if side > 0 else slice(0, inner)


def halo_plan(send_rank_ids, send_lens, recv_rank_ids, recv_lens, shape, grad):
    """How a NeighborExchangeV2 (or, ``grad=True``, its gradient) moves data, for the kernels: ``(sends, recvs,
    out_shape, centre)``. ``sends``: ``(rows, cols, peer, tag)``, the region of the input to send; ``recvs``:
    ``(rows, cols, peer, tag)``, the region of the output that receives (forward: it is written; gradient: it is
    added onto); ``centre``: ``(rows, cols)``, the region of the input that is the output's body (forward: the
    output's centre; gradient: the input's). A piece sent towards direction ``d`` is tagged ``d``; the receiver
    from direction ``d`` expects tag ``(d + 4) % 8``."""
    n, c, h, w = shape
    if grad:                            # input: the framed dout; output: its centre
        ft, fb, fl, fr = send_lens      # the frame sent back
        bt, bb, bl, br = recv_lens      # the borders of the centre it lands on
        ch, cw = h - ft - fb, w - fl - fr
        send_area = lambda dy, dx: (_span(dy, ft, fb, ch, True), _span(dx, fl, fr, cw, True))  # noqa: E731
        recv_area = lambda dy, dx: (_span(dy, bt, bb, ch), _span(dx, bl, br, cw))  # noqa: E731
        out_shape, centre = (n, c, ch, cw), (slice(ft, ft + ch), slice(fl, fl + cw))
    else:
        st, sb, sl, sr = send_lens
        rt, rb, rl, rr = recv_lens
        send_area = lambda dy, dx: (_span(dy, st, sb, h), _span(dx, sl, sr, w))  # noqa: E731
        recv_area = lambda dy, dx: (_span(dy, rt, rb, h, True), _span(dx, rl, rr, w, True))  # noqa: E731
        out_shape, centre = (n, c, h + rt + rb, w + rl + rr), (slice(rt, rt + h), slice(rl, rl + w))
    sends, recvs = [], []
    for d, (dy, dx) in enumerate(HALO_DIRECTIONS):
        if send_rank_ids[d] != -1:
            sends.append(send_area(dy, dx) + (send_rank_ids[d], d))
        if recv_rank_ids[d] != -1:
            recvs.append(recv_area(dy, dx) + (recv_rank_ids[d], (d + 4) % 8))
    return sends, recvs, out_shape, centre


def _check_v2(prim):
    for arg in ("send_rank_ids", "recv_rank_ids", "send_lens", "recv_lens"):
        if not isinstance(getattr(prim, arg), list):
            raise MSTypeError(f"For '{prim.name}', the '{arg}' must be a list, but got "
                              f"{type(getattr(prim, arg)).__name__}.")
    for arg, n in (("send_rank_ids", 8), ("recv_rank_ids", 8), ("send_lens", 4), ("recv_lens", 4)):
        value = getattr(prim, arg)
        if len(value) != n or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise MSValueError(f"For '{prim.name}', the '{arg}' must be a list of {n} ints, but got {value}.")
    for arg in ("send_rank_ids", "recv_rank_ids"):
        ids = [r for r in getattr(prim, arg) if r != -1]
        if any(r < -1 for r in getattr(prim, arg)) or len(set(ids)) != len(ids):
            raise MSValueError(f"For '{prim.name}', the '{arg}' must hold -1 or distinct ranks, but got "
                               f"{getattr(prim, arg)}.")
    for arg in ("send_lens", "recv_lens"):
        if any(v < 0 for v in getattr(prim, arg)):
            raise MSValueError(f"For '{prim.name}', the '{arg}' must be >= 0, but got {getattr(prim, arg)}.")
    if prim.data_format != "NCHW":
        raise MSValueError(f"For '{prim.name}', the 'data_format' must be 'NCHW', but got {prim.data_format!r}.")


class NeighborExchangeV2(Primitive):
    """``NeighborExchangeV2(send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format='NCHW', group)(x)``:
    halo exchange of an NCHW tensor over a 2-D grid of ranks. The 8 entries of the rank lists are the directions
    top, top-right, right, bottom-right, bottom, bottom-left, left, top-left (-1: none); ``send_lens`` /
    ``recv_lens`` are the [top, bottom, left, right] widths. The border of ``x`` facing each direction (corners:
    both widths) goes to that neighbour; the output is ``x`` framed by what was received, shape ``(N, C, H +
    recv_top + recv_bottom, W + recv_left + recv_right)`` (zeros where nothing came). Gradient:
    ``NeighborExchangeV2Grad``."""

    side_effect = True

    @prim_attr_register
    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format, group=WORLD_GROUP):
        _check_group(self.name, group)
        _check_v2(self)

    def infer_shape(self, x):
        size = group_of(self.name, self.group).size
        _rank_ids(self.name, "send_rank_ids", self.send_rank_ids, size, allow_none=True)
        _rank_ids(self.name, "recv_rank_ids", self.recv_rank_ids, size, allow_none=True)
        rules.check_rank(self.name, "x", x, (4,))
        top, bottom, left, right = self.recv_lens
        return (x[0], x[1], x[2] + top + bottom, x[3] + left + right)

    def plan(self, shape):
        """The data movement of this exchange on an input of ``shape`` (see :func:`halo_plan`)."""
        return halo_plan(self.send_rank_ids, self.send_lens, self.recv_rank_ids, self.recv_lens, shape, False)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, _DATA_TYPES)

    def bprop(self, x, out, dout):
        grad = cached_prim(NeighborExchangeV2Grad, list(self.recv_rank_ids), list(self.recv_lens),
                           list(self.send_rank_ids), list(self.send_lens), self.data_format, self.group)
        return (grad(dout),)


class NeighborExchangeV2Grad(Primitive):
    """The gradient of :class:`NeighborExchangeV2` (its arguments with send and receive swapped): the frame of
    ``dout`` (``send_lens`` wide) goes back to the ranks that sent it, and each rank adds what it receives onto the
    border of the centre of ``dout`` it had sent; output shape ``(N, C, H - top - bottom, W - left - right)``."""

    side_effect = True

    @prim_attr_register
    def __init__(self, send_rank_ids, send_lens, recv_rank_ids, recv_lens, data_format, group=WORLD_GROUP):
        _check_group(self.name, group)
        _check_v2(self)

    def infer_shape(self, dout):
        group_of(self.name, self.group)
        rules.check_rank(self.name, "dout", dout, (4,))
        top, bottom, left, right = self.send_lens
        if dout[2] - top - bottom < 0 or dout[3] - left - right < 0:
            raise MSValueError(f"For '{self.name}', the 'dout' shape {tuple(dout)} is smaller than its frame "
                               f"{self.send_lens}.")
        return (dout[0], dout[1], dout[2] - top - bottom, dout[3] - left - right)

    def plan(self, shape):
        """The data movement of this exchange on an input of ``shape`` (see :func:`halo_plan`)."""
        return halo_plan(self.send_rank_ids, self.send_lens, self.recv_rank_ids, self.recv_lens, shape, True)

    def infer_dtype(self, dout):
        return rules.check_dtype_in(self.name, "dout", dout, _DATA_TYPES)

    bprop = NON_DIFFERENTIABLE


# --- BatchISendIRecv ------------------------------------------------------------------------
class BatchISendIRecv(Primitive):
    """``BatchISendIRecv(op_types, remote_ranks, receive_shapes, receive_dtypes, group)(xs)``: the sends and
    receives of ``op_types`` ('isend'/'irecv', with the peer ``remote_ranks[k]``) started together; ``xs`` holds
    the tensors of the 'isend' entries in order. Returns one tensor per entry: the tensor received at an 'irecv'
    (``receive_shapes``/``receive_dtypes`` in order), a float32 scalar 0 at an 'isend'. Not differentiable."""

    side_effect = True

    @prim_attr_register
    def __init__(self, op_types, remote_ranks, receive_shapes=None, receive_dtypes=None, group=WORLD_GROUP):
        self.receive_shapes = () if receive_shapes is None else receive_shapes
        self.receive_dtypes = () if receive_dtypes is None else receive_dtypes
        for arg in ("receive_shapes", "receive_dtypes", "op_types", "remote_ranks"):
            if not isinstance(getattr(self, arg), (tuple, list)):
                raise MSTypeError(f"For '{self.name}', the '{arg}' must be a tuple or list, but got "
                                  f"{type(getattr(self, arg)).__name__}.")
        if len(self.receive_shapes) != len(self.receive_dtypes):
            raise MSValueError(f"length of receive_shapes and receive_shapes must be the same, but got receive_shapes:"
                               f" {len(self.receive_shapes)}  and receive_shapes: {self.receive_dtypes}")
        if len(op_types) != len(remote_ranks):
            raise MSValueError("length of op_types and remote_ranks must be the same.")
        if any(t not in ("isend", "irecv") for t in op_types):
            raise MSValueError(f"For '{self.name}', the 'op_types' must hold 'isend' or 'irecv', but got {op_types}.")
        if sum(t == "irecv" for t in op_types) != len(self.receive_shapes):
            raise MSValueError(f"For '{self.name}', the 'receive_shapes' must have one shape per 'irecv' "
                               f"({sum(t == 'irecv' for t in op_types)}), but got {len(self.receive_shapes)}.")
        _check_group(self.name, "hccl_world_group" if group is None else group)
        if group is None:
            self.group = WORLD_GROUP
            self.add_prim_attr("group", WORLD_GROUP)

    def infer_shape(self, xs=()):
        size = group_of(self.name, self.group).size
        _rank_ids(self.name, "remote_ranks", self.remote_ranks, size)
        sends = sum(t == "isend" for t in self.op_types)
        if len(xs) != sends:
            raise MSValueError(f"For '{self.name}', the input must hold one tensor per 'isend' ({sends}), but got "
                               f"{len(xs)}.")
        shapes = iter(self.receive_shapes)
        return tuple(tuple(next(shapes)) if t == "irecv" else () for t in self.op_types)

    def infer_dtype(self, xs=()):
        dtypes = iter(self.receive_dtypes)
        return tuple(next(dtypes) if t == "irecv" else mstype.float32 for t in self.op_types)

    bprop = NON_DIFFERENTIABLE


PRIMITIVES += [AlltoAllV, AlltoAllVC, NeighborExchange, NeighborExchangeV2, NeighborExchangeV2Grad, BatchISendIRecv]
