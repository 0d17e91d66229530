"""Running operators sharded: the hook core's ``Primitive.__call__`` hands every application to.

Design
------
Under SEMI_AUTO_PARALLEL (and AUTO_PARALLEL) a primitive application is one of:

* an operator with a strategy (``Primitive.shard`` or one chosen by AUTO_PARALLEL): its distributed rule
  (:mod:`mindspore.parallel._ops`) redistributes the inputs to the layouts the strategy asks for, runs the
  primitive on the local blocks, completes partial results with an all-reduce, and returns this rank's block of
  the output with its layout recorded;
* an operator without one whose inputs carry layouts or are network parameters: its inputs are made whole
  (gathered) and it runs unchanged, so any operator works on sharded values (MindSpore's "repeated
  calculation"); parameters pass through their mirror (gradient all-reduce over their copies);
* anything else runs as before.

The network's outermost Cell call takes its inputs as this rank's part of the global batch (unless
``full_batch``) and returns a scalar whole, so a loss is the global batch's on every rank; fed ``data_parallel``,
an output with rows is this rank's block of them (MindSpore's data-parallel default for operators without strategy),
otherwise whole. What a network returned is not new data: another outermost call (the loss function) takes it as
the rows it holds. While the network's
code runs, ``x.shape`` of a block carrying a layout is the global shape (as MindSpore shows it), so a reshape
written with ``x.shape[0]`` means the global batch in both modes; rules, kernels and bprops see the blocks' own.
Under pipeline parallel (``pipeline_stages`` > 1) a rank returns its stage's part of the outputs (zeros off the
last stage, :mod:`mindspore.parallel._pipeline`). Cells that are steps of a training graph rather than networks fed
data (a rule's Mirror, ``PipelineGradReducer``) do not take the outermost call's part.

Rules call primitives themselves; while a rule runs, the hook passes every application straight to the
interpreter stack, so a gradient tape records the rule's slices and collectives (PYNATIVE) and graph staging
stages them (GRAPH_MODE): both modes run the same rules and differentiate through them.
"""
from __future__ import annotations

import threading
import weakref

from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.parallel import _compile_files, _layouts, _pipeline
from mindspore.parallel._layouts import layout_of
from mindspore.parallel._redistribute import mirror, redistribute, to_whole
from mindspore.plugin import apply_primitive, set_cell_call_hook, set_primitive_call_hook, set_tensor_shape_view

__all__ = ["install", "active", "inside_rule"]

_MODES = ("semi_auto_parallel", "auto_parallel")


class _State(threading.local):
    depth = 0          # > 0 while a rule runs
    propagation = 0    # > 0 inside a Cell.shard / ms.shard body: operators without strategy propagate layouts
    cells = 0          # Cell calls in progress (0: the next one is the network's outermost call)


_state = _State()


#: the parallel mode, as the auto-parallel context last told :func:`sync`
_mode = ["stand_alone"]


def _auto_mode():
    return _mode[0] == "auto_parallel"


def active():
    return _mode[0] in _MODES


class propagating:   # noqa: N801 - used as a context manager
    """Inside a sharded Cell or function: sharding propagation for its operators without strategy."""

    def __enter__(self):
        _state.propagation += 1

    def __exit__(self, *exc):
        _state.propagation -= 1


class inside_rule:   # noqa: N801 - used as a context manager
    """While a rule runs: applications go straight to the interpreter stack."""

    def __enter__(self):
        _state.depth += 1

    def __exit__(self, *exc):
        _state.depth -= 1


def strategy_of(prim):
    """The cut counts a primitive was given: ``in_strategy`` or a Layout strategy's."""
    return prim.attrs.get("in_strategy") or prim.__dict__.get("_layout_strategy")


def _dispatch(prim, args):
    if _state.depth:
        return apply_primitive(prim, args)
    if _compile_files.RECORDING[0] is not None:     # a network's first call: the parameters it uses
        _compile_files.note_operands(args)
    strategy = strategy_of(prim)
    if strategy is None and _compile_files.LOADED[0]:    # a strategy file to load (AutoParallel, the context)
        strategy = _compile_files.loaded_strategy(prim, args)
    if strategy is None and (_state.propagation or _auto_mode()):
        from mindspore.parallel._auto import choose
        strategy = choose(prim, args, "sharding_propagation" if _state.propagation else None)
    if strategy is not None:
        _compile_files.note_strategy_param(prim, args, strategy)
        from mindspore.parallel._ops import rule_for
        rule = rule_for(prim)
        with inside_rule():
            return _note_elementwise(prim, rule(prim, args, strategy))
    if not any(isinstance(a, Tensor) and (layout_of(a) is not None or isinstance(a, Parameter)) for a in args):
        return _note_elementwise(prim, apply_primitive(prim, args))
    with inside_rule():
        from mindspore.parallel._ops import propagate
        out = propagate(prim, args)
        return _note_elementwise(prim, out if out is not None else _repeated(prim, args))


def _note_elementwise(prim, out):
    """AUTO_PARALLEL with ``elementwise_op_strategy_follow``: remember which values an elementwise operator made
    (the cost model keeps their layouts for the operators that use them, see ``_auto``)."""
    if _auto_mode() and isinstance(out, Tensor):
        from mindspore.parallel import _auto
        _auto.note_elementwise(prim, out)
    return out


def _repeated(prim, args):
    """An operator without strategy: on whole inputs, the same on every rank. A cut parameter is gathered for a
    MatMul or Gather, and used as its block elsewhere (optimizer updates, which work block by block)."""
    rank, device_num = _layouts.world()
    from mindspore.parallel._auto import FORWARD_ONLY
    side_effect = bool(getattr(prim, "side_effect", False))
    local = []
    for a in args:
        if isinstance(a, Parameter):
            layout = _layouts.parameter_layout(a)
            if a.requires_grad and not side_effect:
                a = mirror(a, layout, rank, device_num)
            if layout is not None and prim.name in FORWARD_ONLY:
                a = redistribute(a, layout, None, rank, device_num)
        elif isinstance(a, Tensor) and layout_of(a) is not None:
            a = to_whole(a, rank, device_num)
        local.append(a)
    return apply_primitive(prim, local)


def _cell_call(cell, run, args, kwargs):
    """Every Cell call under SEMI_AUTO/AUTO_PARALLEL: a cell given ``Cell.shard`` runs sharded; the network's
    outermost call takes its inputs as this rank's part of the batch (:func:`_dataset_layouts`) and returns
    its outputs as :func:`_network_output` says."""
    if _state.depth:
        return run(*args, **kwargs)   # a Cell a rule calls (a parameter's Mirror): part of that operator
    if _pipeline.is_grad_reducer(cell):
        # a step of the training graph on gradients, not a network fed data (MindSpore compiles the step whole)
        return _pipeline.reduce_grads(cell, *args) if _pipeline.active() else run(*args, **kwargs)
    shard_fn = cell.__dict__.get("_shard_fn")
    outermost = _state.cells == 0
    _state.cells += 1
    try:
        sharded = shard_fn is not None and not shard_fn.running
        if not outermost:
            return shard_fn(*args, **kwargs) if sharded else run(*args, **kwargs)
        _draw_deferred_once(cell)
        rank, device_num = _layouts.world()
        _compile_files.begin_call(cell, first=cell not in _STRATEGY_SAVED)
        args = _mirror_inputs(_dataset_layouts(args, device_num), rank, device_num)
        out = shard_fn(*args, **kwargs) if sharded else run(*args, **kwargs)
        _save_strategy_once(cell)
        with inside_rule():
            if isinstance(out, tuple):
                return tuple(_stage_output(_network_output(o, rank, device_num), rank, device_num) for o in out)
            return _stage_output(_network_output(out, rank, device_num), rank, device_num)
    finally:
        _state.cells -= 1


def _stage_output(value, rank, device_num):
    """Under pipeline parallel, what this rank's stage returns of the network's output (``_pipeline.stage_output``:
    zeros except on the last stage), still known as made by the network."""
    if not _pipeline.active():
        return value
    made, rows = _network_made_layout(value)
    out = _pipeline.stage_output(value, rank, device_num)
    if made and out is not value:
        _made_by_network(out, rows)
    return out


def _network_output(value, rank, device_num):
    """What the network's outermost call returns: whole (the same on every rank) under ``full_batch``, for a
    scalar (a loss) and for a dataset strategy of tuples; fed ``"data_parallel"``, an output with rows to cut is
    this rank's block of rows, as in MindSpore (where an operator without strategy takes the data-parallel one), so
    a network's forward output printed on each rank is its own batch's."""
    if not isinstance(value, Tensor):
        return value
    layout = layout_of(value)
    shape = tuple(layout.full_shape) if layout is not None else tuple(value.shape)
    from mindspore import context
    if (device_num <= 1 or not shape or shape[0] % device_num or context.get_auto_parallel_context("full_batch")
            or context.get_auto_parallel_context("dataset_strategy") != "data_parallel"):
        return _made_by_network(to_whole(value, rank, device_num), None)
    rows = _batch_layout((device_num,) + (1,) * (len(shape) - 1), (shape[0] // device_num,) + shape[1:], device_num)
    block = redistribute(value, layout, rows, rank, device_num)
    _layouts.set_layout(block, None)   # the caller holds a plain tensor: its rows, not a sharded value
    return _made_by_network(block, rows)


# values an outermost network call returned: id -> (weak reference, the layout of the rows it holds or None: whole)
_network_made: dict[int, tuple] = {}


def _made_by_network(value, layout):
    """Remember that a network call made ``value``. A later outermost call (the loss function after the network,
    both called from one ``jit`` train step or one PYNATIVE step) takes it as what it is (this rank's rows of
    ``layout``, or whole), not as new data: only data from outside the network is this rank's part of the global
    batch, as MindSpore cuts only its graph's inputs."""
    key = id(value)
    _network_made[key] = (weakref.ref(value, lambda _r, key=key: _network_made.pop(key, None)), layout)
    return value


def _network_made_layout(value):
    """(made by a network call, the layout of the rows it holds or None)."""
    hit = _network_made.get(id(value))
    if hit is None or hit[0]() is not value:
        return False, None
    return True, hit[1]


def _is_network_made(value):
    return _network_made_layout(value)[0]


_DRAWN = weakref.WeakSet()


def _draw_deferred_once(cell):
    """MindSpore draws the parameters a network made under ``no_init_parameters`` when it compiles the network, in
    the order of ``parameters_and_names``; here before the network's first parallel call runs. Left to their
    first use, the weights a rule cuts while the call is staged (a sharded MatMul's) would be drawn before the
    others (the biases, drawn when the compiled graph runs), each from another part of the seeded stream."""
    if cell in _DRAWN:
        return
    _DRAWN.add(cell)
    cell.init_parameters_data()


_STRATEGY_SAVED = weakref.WeakSet()


def _save_strategy_once(cell):
    """After a network's first sharded call (its parameters are cut by then), write the strategy file the context
    names (``strategy_ckpt_config["save_file"]`` / ``strategy_ckpt_save_file``) and the communication-group file
    (``group_ckpt_save_file``), as MindSpore does when it compiles the network; nothing when none is named."""
    if cell in _STRATEGY_SAVED:
        return
    _STRATEGY_SAVED.add(cell)
    from mindspore.parallel._strategy_file import network_strategies, save_network_strategy
    params, strategies = _compile_files.end_recording()
    save_network_strategy(cell, strategies={**strategies, **network_strategies(cell)}, parameters=params)
    _compile_files.save_group_file(cell, params)


def _dataset_layouts(args, device_num):
    """Without ``full_batch`` every rank feeds its own part of the global batch: with ``dataset_strategy``
    ``"data_parallel"`` the first dimension of each input is cut over all devices (rank ``r`` holds the ``r``-th
    block), with a tuple of strategies each input is cut as its strategy says. Inputs are marked with that
    layout; their global shape is the block's times the cuts."""
    from mindspore import context
    if device_num <= 1 or context.get_auto_parallel_context("full_batch"):
        return args
    strategy = context.get_auto_parallel_context("dataset_strategy")
    out = []
    for i, a in enumerate(args):
        made, rows = _network_made_layout(a)
        if made:
            _layouts.set_layout(a, rows)
        elif isinstance(a, Tensor) and not isinstance(a, Parameter) and a.ndim and layout_of(a) is None:
            cuts = (device_num,) + (1,) * (a.ndim - 1)
            if isinstance(strategy, tuple):
                cuts = tuple(strategy[i]) if i < len(strategy) else (1,) * a.ndim
            _layouts.set_layout(a, _batch_layout(cuts, a.shape, device_num))
        out.append(a)
    return tuple(out)


def _mirror_inputs(args, rank, device_num):
    """The network's floating-point inputs pass through their mirror, so gradients with respect to them (every
    rank seeds its copy of the loss) come out as one process's: all-reduced over the copies, divided by
    ``device_num``."""
    from mindspore.common import dtype as mstype
    if device_num <= 1:
        return args
    out = []
    with inside_rule():
        for a in args:
            if (isinstance(a, Tensor) and not isinstance(a, Parameter) and mstype.is_float(a.dtype)
                    and not _is_network_made(a)):
                layout = layout_of(a)
                a = _layouts.set_layout(mirror(a, layout, rank, device_num), layout)
            out.append(a)
    return tuple(out)


def _batch_layout(cuts, block_shape, device_num):
    from mindspore.parallel._layouts import TensorLayout
    prod = 1
    for c in cuts:
        prod *= c
    repeat = [device_num // prod] if device_num // prod > 1 else []
    dev = tuple(repeat + list(cuts))
    tmap = [len(cuts) - 1 - d for d in range(len(cuts))]
    return TensorLayout(dev, tmap, [s * c for s, c in zip(block_shape, cuts)])


def _global_shape(tensor):
    """What ``tensor.shape`` shows: inside a sharded network's code (a network call in progress, no rule running;
    autodiff's bprops run with this view suspended), a block carrying a layout shows the global shape, as in
    MindSpore, where ``x.shape`` in ``construct`` is the tensor's shape before it is cut; elsewhere None (its own)."""
    if _state.depth or not _state.cells:
        return None
    layout = layout_of(tensor)
    return None if layout is None else layout.full_shape


def sync(parallel_mode):
    """The auto-parallel context's ``parallel_mode`` changed: the hooks are installed only under
    SEMI_AUTO_PARALLEL and AUTO_PARALLEL, so other modes pay nothing for them."""
    _mode[0] = parallel_mode
    if parallel_mode in _MODES:
        set_primitive_call_hook(_dispatch)
        set_cell_call_hook(_cell_call)
        set_tensor_shape_view(_global_shape)
        return
    for setter, ours in ((set_primitive_call_hook, _dispatch), (set_cell_call_hook, _cell_call),
                         (set_tensor_shape_view, _global_shape)):
        old = setter(None)
        if old is not None and old is not ours:
            setter(old)   # someone else's hook: leave it


def install():
    """Called when a strategy is set: follow the current mode (idempotent)."""
    from mindspore import context
    sync(context.get_auto_parallel_context("parallel_mode"))

