"""MindSpore's parallel strategy file: the protobuf ``ParallelStrategyMap`` and its JSON variant.

A strategy file records, for one compiled parallel network, each operator's sharding strategy
(``parallel_strategy_item``: node name -> pipeline stage and one dimension list per input) and each
parameter's tensor layout (``parallel_layout_item``: parameter name -> ``ParallelLayouts``). It is what
``set_auto_parallel_context(strategy_ckpt_config={"save_file": ...})`` (or the older
``strategy_ckpt_save_file``) makes MindSpore write at compile time, and what the checkpoint tools read to
merge, re-slice and transform distributed checkpoints.

Schema (``node_strategy.proto``, proto2, package ``mindspore.straspb``; field numbers as upstream, read back
from the MindSpore 2.10 wheel's descriptor): ``ParallelStrategyMap{current_stage=1 (uint32),
parallel_strategy_item=2, parallel_layout_item=3}``, ``ParallelLayoutItem{param_name=1,
parallel_layouts=2}``, ``ParallelLayouts{dev_matrix=1, tensor_map=2, param_split_shape=3, indices_offset=4,
field=5, opt_weight_shard_step=6, opt_weight_shard_size=7}`` where the first four are repeated messages
holding one ``repeated dim`` each (uint32, int32, int64, int64), plus the group file's ``ParallelGroupMap``.
MindSpore writes exactly one of each repeated message per layout (an empty ``param_split_shape`` and
``indices_offset`` when the split is even); so do we. A multi-axis (``Layout``) tensor map is written as one
``TensorMap`` per tensor dimension (plus an empty one for a 1-D tensor, so it still reads back per dimension).
The descriptor is built in code below and added to a *private* descriptor pool, so a real MindSpore imported
in the same process (whose generated module owns the same full names in the default pool) never clashes
with it; the bytes are the same either way.

The JSON variant (file name ending in ``.json``) is MindSpore's ``StrategyCheckpointInfo::to_json``:
``{"current_stage", "parallel_strategy_item": {node: {"stage", "parallel_strategy"}},
"parallel_layout_item": {param: {"dev_matrix", "tensor_map", "tensor_shape", "field",
"opt_weight_shard_step", "opt_weight_shard_size"[, "param_split_shape", "indices_offset"]}}}``.

Pipeline-parallel files merged by ``merge_pipeline_strategys`` name every layout ``"<stage>-<param>"``;
:func:`read_layouts` folds those back into one :class:`ParamLayout` per parameter with its ``stages``.

Files are written atomically (temporary file in the target directory, fsync, rename), as checkpoints are.
"""
from __future__ import annotations

import glob
import json
import os
import tempfile

from google.protobuf.message import DecodeError

from mindspore.parallel._checkpoint_layout import ParamLayout, as_layout
from mindspore.train.node_strategy_pb2 import ParallelGroupMap, ParallelLayouts, ParallelStrategyMap

__all__ = ["ParallelStrategyMap", "ParallelLayouts", "ParallelGroupMap", "write_strategy_file", "read_layouts",
           "read_strategy_map", "build_searched_strategy", "merge_pipeline_strategys", "restore_group_info_list",
           "network_strategies", "save_network_strategy"]

# the messages (node_strategy.proto) are mindspore.train.node_strategy_pb2's, as in MindSpore

# ---------------------------------------------------------------------------------------------- writing

def _layout_message(layout, msg):
    """Fill a ``ParallelLayouts`` message from a :class:`ParamLayout`, as MindSpore's ``to_protobuf`` does."""
    msg.dev_matrix.add().dim.extend(layout.dev_matrix)
    if any(isinstance(axis, tuple) for axis in layout.tensor_map):
        # a multi-axis (Layout) map: one TensorMap per tensor dimension, as MindSpore's readers expect
        for axis in layout.tensor_map:
            msg.tensor_map.add().dim.extend(axis if isinstance(axis, tuple) else (axis,))
        if len(layout.tensor_map) == 1:
            # a lone TensorMap would read back as a flat map of a 2-D tensor: an empty one keeps it per
            # dimension (MindSpore's reader skips empty TensorMaps too)
            msg.tensor_map.add()
    else:
        msg.tensor_map.add().dim.extend(layout.tensor_map)
    msg.param_split_shape.add().dim.extend(layout.param_split_shape)
    msg.indices_offset.add().dim.extend(layout.indices_offset)
    msg.field = layout.field
    msg.opt_weight_shard_step = layout.opt_weight_shard_step
    msg.opt_weight_shard_size = layout.opt_weight_shard_size
    return msg


def _normal_strategies(strategies):
    """``{node: strategy}`` with strategy ``((dims...), ...)`` or ``(stage, ((dims...), ...))``."""
    out = {}
    for node, value in (strategies or {}).items():
        stage = 0
        if isinstance(value, dict):
            stage, value = value.get("stage", 0), value["parallel_strategy"]
        elif len(value) == 2 and isinstance(value[0], int) and isinstance(value[1], (list, tuple)) \
                and all(isinstance(v, (list, tuple)) for v in value[1]):
            stage, value = value
        out[str(node)] = (int(stage), [[int(d) for d in dims] for dims in value])
    return out


def _proto_bytes(layouts, strategies, current_stage):
    smap = ParallelStrategyMap()
    smap.current_stage = current_stage
    for node, (stage, dims_list) in strategies.items():
        item = smap.parallel_strategy_item.add(node_name=node)
        item.parallel_strategys.stage = stage
        for dims in dims_list:
            item.parallel_strategys.parallel_strategy.add().dim.extend(dims)
    for name, layout in layouts.items():
        item = smap.parallel_layout_item.add(param_name=name)
        _layout_message(layout, item.parallel_layouts)
    return smap.SerializeToString()


def _json_bytes(layouts, strategies, current_stage):
    doc = {"current_stage": current_stage,
           "parallel_strategy_item": {node: {"stage": stage, "parallel_strategy": dims}
                                      for node, (stage, dims) in strategies.items()},
           "parallel_layout_item": {}}
    for name, layout in layouts.items():
        item = {"dev_matrix": list(layout.dev_matrix),
                "tensor_map": [list(a) if isinstance(a, tuple) else a for a in layout.tensor_map],
                "tensor_shape": list(layout.tensor_shape) if layout.tensor_shape is not None else [],
                "field": layout.field, "opt_weight_shard_step": layout.opt_weight_shard_step,
                "opt_weight_shard_size": layout.opt_weight_shard_size}
        if layout.param_split_shape:
            item["param_split_shape"] = list(layout.param_split_shape)
            item["indices_offset"] = list(layout.indices_offset)
        doc["parallel_layout_item"][name] = item
    return json.dumps(doc).encode("utf-8")


def _atomic_write_bytes(path, data):
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o600)   # MindSpore leaves strategy files user read/write
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def write_strategy_file(file_name, layouts, strategies=None, current_stage=1):
    """Write a strategy file (protobuf, or JSON when ``file_name`` ends with ``.json``).

    Args:
        file_name (str): Target path; its directory is created when missing.
        layouts (dict): ``{param_name: layout}``; a layout is a :class:`ParamLayout`, a
            ``(dev_matrix, tensor_map, full_shape)`` tuple, a MindSpore layout list
            ``[dev_matrix, tensor_map, param_split_shape, field, opt_step, opt_size, ...]``, a dict with those
            keys, or a ``ParallelLayouts`` message.
        strategies (dict, optional): ``{node_name: ((dims...), ...)}`` or ``{node_name: (stage, ((dims...),))}``:
            the operator strategies (``parallel_strategy_item``). Default: none.
        current_stage (int): The ``current_stage`` field. MindSpore writes 1 after one compile. Default: 1.

    Returns:
        str, the real path written.
    """
    if not isinstance(file_name, str) or not file_name:
        raise TypeError(f"For 'write_strategy_file', the argument 'file_name' must be a non-empty str, but got "
                        f"{file_name!r}.")
    if not isinstance(layouts, dict):
        raise TypeError(f"For 'write_strategy_file', the argument 'layouts' must be a dict, but got "
                        f"{type(layouts).__name__}.")
    norm = {str(name): as_layout(value, name) for name, value in layouts.items()}
    strategies = _normal_strategies(strategies)
    encode = _json_bytes if file_name.endswith(".json") else _proto_bytes
    path = os.path.realpath(file_name)
    _atomic_write_bytes(path, encode(norm, strategies, int(current_stage)))
    return path


# ---------------------------------------------------------------------------------------------- reading

def _check_strategy_file(strategy_filename, api="build_searched_strategy"):
    if not isinstance(strategy_filename, str):
        raise TypeError(f"For '{api}', the argument 'strategy_filename' should be string, but got "
                        f"{type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For '{api}', no such strategy file: {strategy_filename}. Please check whether the "
                         f"'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For '{api}', the strategy file {strategy_filename} should not be empty. Please check "
                         f"whether the 'strategy_filename' is correct.")


def _parse_proto(strategy_filename):
    smap = ParallelStrategyMap()
    with open(strategy_filename, "rb") as f:
        data = f.read()
    try:
        smap.ParseFromString(data)
    except DecodeError as e:
        raise TypeError(f"The strategy file {strategy_filename} is not a valid strategy file: the strategy file "
                        f"type should be one of json or protobuf. When the file name extension is not '.json', "
                        f"the file is considered as a protobuf file.") from e
    return smap


def _message_from_json_item(name, item, path):
    msg = ParallelLayouts()
    try:
        msg.dev_matrix.add().dim.extend(int(d) for d in item["dev_matrix"])
        tmap = item["tensor_map"]
        if any(isinstance(a, list) for a in tmap):
            for a in tmap:
                msg.tensor_map.add().dim.extend(a if isinstance(a, list) else [a])
            if len(tmap) == 1:
                msg.tensor_map.add()   # keeps a 1-D multi-axis map per dimension (see _layout_message)
        else:
            msg.tensor_map.add().dim.extend(int(d) for d in tmap)
        msg.param_split_shape.add().dim.extend(int(d) for d in item.get("param_split_shape", []))
        msg.indices_offset.add().dim.extend(int(d) for d in item.get("indices_offset", []))
        msg.field = int(item.get("field", 0))
        msg.opt_weight_shard_step = int(item.get("opt_weight_shard_step", 0))
        msg.opt_weight_shard_size = int(item.get("opt_weight_shard_size", 0))
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"The strategy file {path} is not a valid strategy file: the layout of parameter "
                         f"'{name}' is malformed ({e!r}).") from e
    return msg


def _read_json(strategy_filename):
    try:
        with open(strategy_filename, "r", encoding="utf-8") as f:
            doc = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"The strategy file {strategy_filename} is not a valid JSON strategy file.") from e
    if not isinstance(doc, dict):
        raise ValueError(f"The strategy file {strategy_filename} is not a valid JSON strategy file.")
    return doc


def read_strategy_map(strategy_filename, api="build_searched_strategy"):
    """Read a strategy file into ``(messages, shapes, stage_of_nodes)``.

    ``messages`` is ``{param_name: ParallelLayouts}`` in file order (names as written, ``"<stage>-<name>"``
    for merged pipeline files), ``shapes`` ``{param_name: tensor_shape}`` where the file has it (JSON only),
    ``stage_of_nodes`` the pipeline stage of the operator strategies (the first one's, or None).
    """
    _check_strategy_file(strategy_filename, api)
    if strategy_filename.endswith(".json"):
        doc = _read_json(strategy_filename)
        items = doc.get("parallel_layout_item") or {}
        messages = {name: _message_from_json_item(name, item, strategy_filename) for name, item in items.items()}
        shapes = {name: tuple(item["tensor_shape"]) for name, item in items.items() if item.get("tensor_shape")}
        nodes = doc.get("parallel_strategy_item") or {}
        stage = next(iter(nodes.values())).get("stage") if nodes else None
        return messages, shapes, stage
    smap = _parse_proto(strategy_filename)
    messages = {item.param_name: item.parallel_layouts for item in smap.parallel_layout_item}
    stage = smap.parallel_strategy_item[0].parallel_strategys.stage if smap.parallel_strategy_item else None
    return messages, {}, stage


def _split_stage(name):
    head, sep, rest = name.partition("-")
    if sep and head.isdigit() and rest:
        return int(head), rest
    return 0, name


def read_layouts(strategy_filename, api="build_searched_strategy"):
    """``{param_name: ParamLayout}`` of a strategy file, pipeline-stage prefixes folded into ``stages``."""
    messages, shapes, _ = read_strategy_map(strategy_filename, api)
    out = {}
    for raw_name, msg in messages.items():
        stage, name = _split_stage(raw_name)
        try:
            layout = as_layout(msg, name, tensor_shape=shapes.get(raw_name))
        except (TypeError, ValueError) as e:
            raise ValueError(f"{e} Please check whether the strategy file {strategy_filename} is correct.") from e
        if name in out:
            # the same parameter in several stages (a shared weight): keep the first stage's layout
            prev = out[name]
            out[name] = prev.with_stages(tuple(sorted(set(prev.stages) | {stage})))
        else:
            out[name] = layout.with_stages((stage,))
    return out


def build_searched_strategy(strategy_filename):
    """
    Extract the sharding strategy for each parameter in the network from the strategy file
    for distributed inference scenarios.

    Args:
        strategy_filename (str): Name of strategy file (protobuf, or JSON when it ends with ``.json``).

    Returns:
        Dict, whose key is parameter name and value is slice strategy of this parameter (a ``ParallelLayouts``
        message: ``dev_matrix[0].dim``, ``tensor_map[0].dim``, ``param_split_shape[0].dim``, ``field``,
        ``opt_weight_shard_step``, ``opt_weight_shard_size``).

    Raises:
        ValueError: Strategy file is incorrect.
        TypeError: `strategy_filename` is not a string.

    Examples:
        >>> from mindspore.parallel import build_searched_strategy
        >>> strategy = build_searched_strategy("./strategy_train.ckpt")
    """
    if strategy_filename is None:
        return None
    messages, _, _ = read_strategy_map(strategy_filename)
    return messages


def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file):
    """
    Aggregate the sharding strategy files of all pipeline parallel subgraphs to the destination file.

    Every layout of stage ``s`` is renamed ``"s-<param_name>"``, as MindSpore does; the loaders here fold the
    stages back. A stage that appears twice (the same file copied per rank) is merged once.

    Args:
        src_strategy_dirs (str): The directory of strategy files including all pipeline stages (all ``.ckpt``
            protobuf files or all ``.json`` files).
        dst_strategy_file (str): The file merged strategy to save.

    Raises:
        NotADirectoryError: `src_strategy_dirs` is not a directory.
        ValueError: The directory mixes ``.ckpt`` and ``.json`` files, or a file has no strategy.

    Examples:
        >>> import mindspore as ms
        >>> ms.parallel.merge_pipeline_strategys("./src_strategy_dir", "./dst_strategy.ckpt")
    """
    if not isinstance(src_strategy_dirs, str) or not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    proto_files = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.ckpt")))
    json_files = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.json")))
    if proto_files and json_files:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    if not proto_files and not json_files:
        raise ValueError(f"For 'merge_pipeline_strategys', the directory {src_strategy_dirs} has no strategy file "
                         f"('*.ckpt' or '*.json').")
    dst = os.path.realpath(dst_strategy_file)
    if json_files:
        _atomic_write_bytes(dst, _merge_json(json_files))
    else:
        _atomic_write_bytes(dst, _merge_proto(proto_files))


def _merge_proto(files):
    merged = ParallelStrategyMap()
    merged.current_stage = 1
    seen_stages = set()
    for path in files:
        smap = _parse_proto(path)
        if not smap.parallel_strategy_item or not smap.parallel_layout_item:
            raise ValueError(f"The strategy file {path} is empty")
        stage = smap.parallel_strategy_item[0].parallel_strategys.stage
        if stage in seen_stages:
            continue
        seen_stages.add(stage)
        for item in smap.parallel_layout_item:
            item.param_name = f"{stage}-{item.param_name}"
        merged.parallel_strategy_item.extend(smap.parallel_strategy_item)
        merged.parallel_layout_item.extend(smap.parallel_layout_item)
    return merged.SerializeToString()


def _merge_json(files):
    merged = {"current_stage": 1, "parallel_strategy_item": {}, "parallel_layout_item": {}}
    seen_stages = set()
    for path in files:
        doc = _read_json(path)
        layouts, nodes = doc.get("parallel_layout_item"), doc.get("parallel_strategy_item")
        if not layouts or not nodes:
            raise ValueError(f"The strategy file {path} is empty")
        stage = next(iter(nodes.values())).get("stage")
        if stage in seen_stages:
            continue
        seen_stages.add(stage)
        merged["parallel_layout_item"].update({f"{stage}-{name}": item for name, item in layouts.items()})
        merged["parallel_strategy_item"].update(nodes)
    return json.dumps(merged).encode("utf-8")


def restore_group_info_list(group_info_file_name):
    """
    Extract rank list information from communication domain files (MindSpore's ``ParallelGroupMap``, written
    where ``GROUP_INFO_FILE`` points).

    Args:
        group_info_file_name (str): Name of group information file.

    Returns:
        List, the rank list.

    Raises:
        ValueError: group information file is incorrect.
        TypeError: `group_info_file_name` is not str.

    Examples:
        >>> from mindspore.parallel import restore_group_info_list
        >>> restore_list = restore_group_info_list("./group_info.pb")
    """
    if not isinstance(group_info_file_name, str):
        raise TypeError("For 'restore_group_info_list', the argument 'group_info_file_name' should be str, "
                        f"but got {type(group_info_file_name)}.")
    if not os.path.isfile(group_info_file_name):
        raise ValueError(f"For 'restore_group_info_list', no such group information file: {group_info_file_name}.")
    if os.path.getsize(group_info_file_name) == 0:
        raise ValueError("For 'restore_group_info_list', the group information file should not be empty.")
    gmap = ParallelGroupMap()
    with open(group_info_file_name, "rb") as f:
        data = f.read()
    try:
        gmap.ParseFromString(data)
    except DecodeError as e:
        raise ValueError(f"For 'restore_group_info_list', the file {group_info_file_name} is not a group "
                         f"information file.") from e
    if not gmap.HasField("ckpt_restore_rank_list"):
        raise ValueError("For 'restore_group_info_list', the group information file has no restore rank list.")
    return list(gmap.ckpt_restore_rank_list.dim)


# ------------------------------------------------------------------------------------- from a network

def _context_save_file():
    from mindspore import get_auto_parallel_context
    config = get_auto_parallel_context("strategy_ckpt_config") or {}
    return config.get("save_file") or get_auto_parallel_context("strategy_ckpt_save_file") or None


def _network_layouts(network):
    """The layouts of a sharded network's parameters (operator sharding's ``parameter_layouts``), or ``{}``."""
    try:
        from mindspore.parallel import _layouts
    except ImportError:
        return {}
    getter = getattr(_layouts, "parameter_layouts", None)
    return dict(getter(network)) if getter is not None else {}


def network_strategies(network):
    """``{node_name: strategy}`` of the sharded primitives held by ``network``'s cells (``Primitive.shard``).

    A primitive that ran on a parameter is named as MindSpore's ``CheckpointStrategy`` names it,
    ``"<PrimName>_<parameter name>"`` (its first parameter input, one entry per parameter it ran on; what a
    strategy file is loaded by, see :mod:`mindspore.parallel._compile_files`); one that did not, by MindSpore's
    scope form, ``Default/<attr>-<CellType>/.../<PrimName>-op<k>``.
    """
    out, counter = {}, 0
    types = {"": type(network).__name__}
    for path, cell in network.cells_and_names():
        types[path] = type(cell).__name__
        scope = "Default"
        if path:
            parts = path.split(".")
            for i in range(len(parts)):
                scope += f"/{parts[i]}-{types.get('.'.join(parts[:i + 1]), 'Cell')}"
        for value in vars(cell).values():
            strategy = getattr(value, "in_strategy", None) if hasattr(value, "add_prim_attr") else None
            if strategy is None and hasattr(value, "add_prim_attr"):
                strategy = value.__dict__.get("_layout_strategy")
            if strategy is not None:
                names = value.__dict__.get("_strategy_keys") or \
                    [f"{scope}/{getattr(value, 'name', type(value).__name__)}-op{counter}"]
                for name in names:
                    out[name] = tuple(tuple(int(d) for d in dims) for dims in strategy)
                counter += 1
    return out


def save_network_strategy(network, file_name=None, device_num=None, only_trainable_params=None,
                          strategies=None, parameters=()):
    """Write the strategy file of ``network``: every parameter's layout, replicated ones included.

    Sharded parameters take their layout from operator sharding
    (``mindspore.parallel._layouts.parameter_layouts(network)`` -> ``{name: (dev_matrix, tensor_map,
    full_shape)}``); the others are written replicated over ``device_num`` devices (``dev_matrix [device_num]``,
    ``tensor_map`` all ``-1``), which is how MindSpore records a parameter no operator splits.

    Args:
        network (Cell): The (sharded) network.
        file_name (str, optional): Target file; default: the context's ``strategy_ckpt_config["save_file"]``
            or ``strategy_ckpt_save_file``. Nothing is written when neither is set.
        device_num (int, optional): Devices of the stage; default: the communication group size (1 before
            ``init``).
        only_trainable_params (bool, optional): Only trainable parameters, as MindSpore's
            ``strategy_ckpt_config["only_trainable_params"]`` (its default, True, applies when not given).
        strategies (dict, optional): Operator strategies for ``parallel_strategy_item``; default: those of the
            sharded primitives in the network (:func:`network_strategies`).
        parameters (iterable of Parameter, optional): More parameters the network used without holding them (a
            network given as a function, e.g. ``AutoParallel(train_step)``); written after its own.

    Returns:
        str or None, the path written.
    """
    file_name = file_name or _context_save_file()
    if not file_name:
        return None
    if only_trainable_params is None:
        from mindspore import get_auto_parallel_context
        config = get_auto_parallel_context("strategy_ckpt_config") or {}
        only_trainable_params = config.get("only_trainable_params", True)
    if device_num is None:
        device_num = _group_size()
    sharded = _network_layouts(network)
    layouts = {}
    for param in [p for _, p in network.parameters_and_names()] + list(parameters):
        if param.name in layouts:
            continue
        if only_trainable_params and not param.requires_grad:
            continue
        if param.name in sharded:
            layouts[param.name] = sharded[param.name]
        elif param.__dict__.get("_ms_layout") is not None:     # one of ``parameters``, cut by operator sharding
            layouts[param.name] = param.__dict__["_ms_layout"].as_tuple()
        else:
            shape = tuple(param.shape)
            layouts[param.name] = ParamLayout((int(device_num),), (-1,) * len(shape), shape)
    if strategies is None:
        strategies = network_strategies(network)
    return write_strategy_file(file_name, layouts, strategies)


def _group_size():
    try:
        from mindspore.communication import get_group_size
        return get_group_size()
    except RuntimeError:    # not initialised: one process
        return 1
