"""The files a sharded network reads and writes when it first runs, as MindSpore does when it compiles one: the
operator strategies of a strategy file (``strategy_ckpt_config["load_file"]`` / ``strategy_ckpt_load_file``,
``AutoParallel.load_param_strategy_file``) and the communication-group file (``group_ckpt_save_file``,
``AutoParallel.set_group_ckpt_save_file``). The strategy file itself is written by
:func:`mindspore.parallel._strategy_file.save_network_strategy`.

Strategy keys are MindSpore's: an operator with a parameter among its inputs is ``"<PrimitiveName>_<parameter
name>"`` (the first parameter input, e.g. ``"MatMul_fc1.weight"``), the key MindSpore's ``CheckpointStrategy``
writes and its ``ExtractStrategyAndInit`` looks up. Loading: an operator given no strategy (``Primitive.shard``)
takes the file's strategy for its key when it first runs, as MindSpore's compiler takes it for an operator without
one; an operator with its own strategy keeps it (semi-auto's order in MindSpore). The keys are known only when an
operator runs (its operands), so the lookup happens where operators are dispatched (``_dispatch``), while the file
named by the context at the network's outermost call is in effect.

The group file (``ParallelGroupMap``) lists the communication groups of this rank (name and world ranks: the
world group, then those operator sharding made) and ``ckpt_restore_rank_list``: the ranks holding the same copy of
every parameter as this one (the intersection of the parameters' copy groups, MindSpore's
``FindCommonMirrorGroup``), from which this rank's checkpoint can be restored (read back by
``mindspore.restore_group_info_list``).
"""
from __future__ import annotations

import os

from mindspore.common.parameter import Parameter

__all__ = ["LOADED", "RECORDING", "begin_call", "end_recording", "loaded_strategy", "note_operands",
           "note_strategy_param", "strategy_key", "save_group_file"]

#: the operator strategies of the strategy file named by the context for the network running now ({} or None)
LOADED = [None]
#: while a network's first sharded call runs: the parameters its operators use and the strategies they run with (a
#: network given as a function, e.g. ``AutoParallel(train_step)``, holds no parameter of its own)
RECORDING = [None]
_read = {}     # path -> (mtime, {key: strategy})


def strategy_key(prim, args):
    """MindSpore's strategy key of ``prim`` applied to ``args`` (None: no parameter among them)."""
    for a in args:
        if isinstance(a, Parameter):
            return f"{prim.name}_{a.name}"
    return None


def note_strategy_param(prim, args, strategy):
    """Remember the keys of an operator that runs with a strategy (the strategy file names it so; one primitive
    used on several parameters, e.g. one ``MatMul`` for every layer, has one key per parameter, as MindSpore has
    one node per use)."""
    key = strategy_key(prim, args)
    if key is not None:
        keys = prim.__dict__.setdefault("_strategy_keys", [])
        if key not in keys:
            keys.append(key)
    if RECORDING[0] is not None and key is not None and key not in RECORDING[0]["strategies"]:
        RECORDING[0]["strategies"][key] = tuple(tuple(int(d) for d in dims) for dims in strategy)


def note_operands(args):
    for a in args:
        if isinstance(a, Parameter):
            RECORDING[0]["params"].setdefault(id(a), a)


def end_recording():
    """The parameters and the strategies (``{key: strategy}``) the first call recorded; recording stops."""
    record, RECORDING[0] = RECORDING[0], None
    if record is None:
        return [], {}
    return list(record["params"].values()), record["strategies"]


def _load_file():
    from mindspore import context
    config = context.get_auto_parallel_context("strategy_ckpt_config") or {}
    return config.get("load_file") or context.get_auto_parallel_context("strategy_ckpt_load_file") or ""


def _read_strategies(path):
    from mindspore.parallel._strategy_file import _parse_proto, _read_json
    if path.endswith(".json"):
        items = _read_json(path).get("parallel_strategy_item") or {}
        return {name: tuple(tuple(int(d) for d in dims) for dims in item["parallel_strategy"])
                for name, item in items.items()}
    return {item.node_name: tuple(tuple(int(d) for d in s.dim) for s in item.parallel_strategys.parallel_strategy)
            for item in _parse_proto(path).parallel_strategy_item}


def begin_call(network, first=False):
    """At a sharded network's outermost call: put the operator strategies of the context's strategy file in
    effect (none when no file is named; a named file that does not exist is an error, as in MindSpore); at its
    ``first`` call, record what it uses (:func:`end_recording`)."""
    RECORDING[0] = {"params": {}, "strategies": {}} if first else None
    path = _load_file()
    if not path:
        LOADED[0] = None
        return
    if not os.path.isfile(path):
        raise RuntimeError(f"For '{type(network).__name__}', the strategy checkpoint file to load is not found: "
                           f"{path}.")
    mtime = os.path.getmtime(path)
    hit = _read.get(path)
    if hit is None or hit[0] != mtime:
        hit = (mtime, _read_strategies(path))
        _read[path] = hit
    LOADED[0] = hit[1]


def loaded_strategy(prim, args):
    """The loaded file's strategy for ``prim`` (which has none of its own), set on it as ``Primitive.shard`` would
    (so it keeps it, as a compiled graph does); None when the file has none for it."""
    key = strategy_key(prim, args)
    strategy = LOADED[0].get(key) if key is not None else None
    if strategy is None:
        return None
    prim.shard(strategy)
    return prim.attrs.get("in_strategy")


def _restore_ranks(params, rank, device_num):
    from mindspore.parallel._layouts import axes_group, parameter_layout
    ranks = set(range(device_num))
    for param in params:
        layout = parameter_layout(param)
        if layout is not None:
            ranks &= set(axes_group(layout.dev_matrix, layout.copy_axes(), rank))
    return sorted(ranks)


def save_group_file(network, used=()):
    """Write the group file the context names (``group_ckpt_save_file``) for ``network`` (and the parameters
    ``used`` by its first call), after its first sharded call; nothing when none is named."""
    from mindspore import context
    path = context.get_auto_parallel_context("group_ckpt_save_file")
    if not path:
        return None
    from mindspore.parallel._layouts import world
    from mindspore.parallel._redistribute import _groups_made
    from mindspore.parallel._strategy_file import ParallelGroupMap, _atomic_write_bytes
    from mindspore.communication.management import GlobalComm
    rank, device_num = world()
    gmap = ParallelGroupMap()
    groups = [(tuple(range(device_num)), GlobalComm.WORLD_COMM_GROUP)] if device_num > 1 else []
    for ranks, name in groups + sorted(_groups_made.items(), key=lambda kv: kv[1]):
        if rank in ranks:
            item = gmap.parallel_group_item.add(group_name=name)
            item.parallel_group_ranks.dim.extend(ranks)
    params = {id(p): p for p in network.trainable_params()}
    params.update((id(p), p) for p in used if p.requires_grad)
    gmap.ckpt_restore_rank_list.dim.extend(_restore_ranks(params.values(), rank, device_num))
    _atomic_write_bytes(path, gmap.SerializeToString())
    return path
