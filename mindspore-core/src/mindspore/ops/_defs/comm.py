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
