"""Checkpoint obfuscation: ``obfuscate_ckpt`` and ``load_obf_params_into_net`` (MindSpore 2.10).

Semantics (2.10's ``mindspore.safeguard``)
------------------------------------------
An obfuscation config has three lists. ``obf_metadata_config`` makes the secret tensors: each entry's ``name``
(with ``${layer}`` filled in for each of its ``layers``) gets a tensor of its ``shape``, ``'random'``
(``np.random.randint(1, obfuscate_scale, shape)`` as float16) or ``'rearrange'`` (a permutation of the indices; in
2-D a permuted identity matrix); with ``save_metadata`` the returned metadata holds it after its ``metadata_op``
(``'invert'``: 1/x in float16), which is what the owner of the model keeps to undo the obfuscation.
``weight_obf_config`` names the checkpoint entries to change (``target``: the parameter name with ``/`` for ``.``,
``${layer}`` filled in per ``layers``) and the operations applied in order: ``mul`` by a metadata tensor (cast to
the parameter's dtype), ``permuate`` (MindSpore's spelling: index the parameter's first axis by a metadata
permutation) or ``matmul`` (operands the parameter or metadata tensors, optionally transposed).
``network_obf_config`` describes the matching change of the network; in 2.10 ``load_obf_params_into_net`` only
validates it and returns the network as it is.

``obfuscate_ckpt`` reads every ``.ckpt`` file of ``ckpt_files`` (and of its direct subdirectories, written to a
subdirectory of the same name under ``saved_path``) and writes ``<stem>_obf.ckpt`` (the stem: the file name up to its
first dot), atomically through ``save_checkpoint``. The legacy ``target_modules`` form (``['A/B', 'fc1|fc2']``, an
optional ``'obfuscate_layers:all|N'``) is turned into a config exactly as 2.10 turns it: one random metadata
tensor of shape ``[1]`` multiplied into each target's ``weight`` and ``bias``.
"""
from __future__ import annotations

import copy
import os
import re
from pathlib import Path
from string import Template

import numpy as np

import mindspore.log as logger
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell, CellList
from mindspore.ops.function import array_func as _array
from mindspore.ops.function import math_func as _math

__all__ = ["obfuscate_ckpt", "load_obf_params_into_net"]

_CONFIG_TYPES = ("obf_metadata_config", "weight_obf_config", "network_obf_config")
_METADATA_TYPES = ("random", "rearrange")
_METADATA_TEMPLATE = {"name": "obf_metadata", "shape": [1], "type": "random", "save_metadata": True,
                      "metadata_op": "invert"}


# --- the legacy target_modules form -----------------------------------------------------------------------------
def _check_target_modules(network, target_modules):
    """2.10's checks of ``target_modules`` against ``network``."""
    if not isinstance(target_modules, list):
        raise TypeError(f"target_modules type should be list, but got {type(target_modules)}.")
    if len(target_modules) < 2:
        raise ValueError(f"target_modules should contain at least two string values, in the form of "
                         f"['A/B/C', 'D1|D2'],but got {target_modules}.")
    path, names = target_modules[0], target_modules[1]
    if not isinstance(path, str) or not isinstance(names, str):
        raise TypeError(f"The values of target_modules should be string, but got {type(path)} and {type(names)}.")
    if not names:
        raise ValueError(f"{names} should be a non-empty string value, in the form of 'D1|D2'")
    if not re.fullmatch(r"[A-Za-z0-9_/]*", path) or not re.fullmatch(r"[A-Za-z0-9_|]*", names):
        raise ValueError(f"please check the input 'target_modules'{target_modules},it should be in the form of "
                         f"['A/B/C', 'D1|D2'].target_modules[0] can only contain uppercase and lowercase letters, "
                         f"numbers, '_' and '/',target_modules[1] can only contain uppercase and lowercase letters, "
                         f"numbers, '_' and '|'")
    net, found = network, 0
    parts = path.split("/")
    stack = [net]
    while stack and found < len(parts):
        net = stack.pop()
        if hasattr(net, parts[found]):
            net = getattr(net, parts[found])
            found += 1
            if isinstance(net, CellList):
                stack.extend(net)
            elif isinstance(net, Cell):
                stack.append(net)
            else:
                raise TypeError(f"Target_modules[0] should be a subgraph and it's type should be "
                                f"nn.Cell(nn.CellList),but got type {type(net)}")
    if path != "" and found != len(parts):
        raise ValueError(f"the path {path} does not exist.")
    present = [name for name in names.split("|") if hasattr(net, name)]
    for name in names.split("|"):
        if name not in present:
            logger.warning(f"{name} does not exist in the path {path}")
    if not present:
        raise ValueError(f"all targets {names.split('|')} do not exist in the path {path}.")
    if len(target_modules) >= 3:
        layers = target_modules[2].split(":")
        if len(layers) != 2 or layers[0] != "obfuscate_layers" or not (layers[1] == "all" or layers[1].isdigit()):
            raise ValueError("The third value of target_modules should be in the format of 'obfuscate_layers:all' "
                             "or'obfuscate_layers:int'")


def _config_from_target_modules(target_modules):
    """The obfuscation config 2.10 derives from ``target_modules``."""
    path, names = target_modules[0], target_modules[1].split("|")
    metadata = dict(_METADATA_TEMPLATE)
    layers = []
    input_y = "obf_metadata"
    if len(target_modules) >= 3:
        count = target_modules[2].split(":")[1]
        layers = list(range(12 if count == "all" else int(count)))
        path = path.replace("blocks", "blocks/${layer}")
        input_y = "obf_metadata_${layer}"
        metadata["layers"] = layers
    config = {"obf_metadata_config": [metadata], "weight_obf_config": [], "network_obf_config": []}
    for name in names:
        op = [{"name": "mul", "input_x": "weight", "input_y": input_y}]
        for kind in ("weight", "bias"):
            entry = {"target": "/".join([path, name, kind]), "weight_obf_ops": copy.deepcopy(op)}
            if not layers:      # 2.10 gives the entries their layers only when there are none
                entry["layers"] = layers
            config["weight_obf_config"].append(entry)
        network = {"module": "/" + path, "target": name, "insert_new_input": [{"name": "obf_metadata"}],
                   "insert_ops": copy.deepcopy(op)}
        if not layers:
            network["layers"] = layers
        config["network_obf_config"].append(network)
    return config


# --- config checks ---------------------------------------------------------------------------------------------------
def _check_type(value, kind, what):
    if not isinstance(value, kind):
        raise TypeError(f"{what} type should be {kind.__name__ if isinstance(kind, type) else kind}, but got "
                        f"{type(value)}.")


def _check_ops(ops_info):
    for op in ops_info:
        for key in ("name", "input_x", "input_y"):
            _check_type(op.get(key), str, f"{'op_name' if key == 'name' else key + '_name'}")
        for key in ("transpose_a", "transpose_b"):
            _check_type(op.get(key, False), bool, key)


def _check_entry(config_type, config):
    if config_type == "obf_metadata_config":
        if not config.get("name") or not isinstance(config.get("name"), str):
            raise TypeError(f"obf_config[][]['name'] type should be str, but got {type(config.get('name'))}.")
        shape = config.get("shape")
        if not shape or not isinstance(shape, list) or not all(isinstance(s, int) for s in shape):
            raise TypeError(f"obf_config[][]['shape'] type should be list, but got {type(shape)}.")
        _check_type(config.get("save_metadata", True), bool, "obf_config[][]['save_metadata']")
        kind = config.get("type")
        if kind is not None and kind not in _METADATA_TYPES:
            raise TypeError(f"obf_config[][]['type'] should be str and must in {list(_METADATA_TYPES)}, but got "
                            f"{type(kind)}.")
        return
    if not config.get("target") or not isinstance(config.get("target"), str):
        raise TypeError(f"obf_config[][]['target'] type should be str, but got {type(config.get('target'))}.")
    if config_type == "weight_obf_config":
        _check_type(config.get("weight_obf_ops", []), list, "obf_config[][]['weight_obf_ops']")
        _check_ops(config.get("weight_obf_ops", []))
        return
    if not config.get("module") or not isinstance(config.get("module"), str):
        raise TypeError(f"obf_config[][]['module'] type should be str, but got {type(config.get('module'))}.")
    inputs = config.get("insert_new_input", [])
    _check_type(inputs, list, "obf_config[][]['insert_new_input']")
    for item in inputs:
        _check_type(item.get("name"), str, "obf_config[][]['insert_new_input'][]['name']")
    _check_type(config.get("insert_ops", []), list, "obf_config[][]['insert_ops']")
    _check_ops(config.get("insert_ops", []))


def _check_config(obf_config, config_type):
    for key in obf_config:
        if key not in _CONFIG_TYPES:
            raise TypeError(f"config_type must be str, and in {list(_CONFIG_TYPES)}, but got {key}.")
    entries = obf_config.get(config_type)
    _check_type(entries, list, "obf_config[]")
    for config in entries:
        _check_type(config, dict, "obf_config[][]")
        _check_entry(config_type, config)
        layers = config.get("layers")
        if layers is not None and (not isinstance(layers, list) or not all(isinstance(i, int) for i in layers)):
            raise TypeError(f"obf_config[][]['layers'] type should be list of int, but got {layers!r}.")


def _resolve_config(network, target_modules, obf_config, needed):
    if not isinstance(network, Cell):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    if obf_config is None:
        _check_target_modules(network, target_modules)
        logger.warning("'target_modules and obf_ratios' will be deprecated and removed in a future version, use "
                       "'obf_config' instead.")
        obf_config = _config_from_target_modules(target_modules)
    if not isinstance(obf_config, dict):
        raise TypeError(f"obf_config type should be dict, but got {type(obf_config)}.")
    if not obf_config:
        raise ValueError("'obf_config' is empty or not valid, please check the input.")
    for config_type in needed:
        _check_config(obf_config, config_type)
    return obf_config


def _check_dir(name, path):
    if not isinstance(path, str):
        raise TypeError(f"{name} must be string, but got {type(path)}.")
    if not os.path.exists(path):
        raise ValueError(f"{path} is not exist, please check the input {name}.")
    if not Path(path).is_dir():
        raise TypeError(f"{name} must be a directory path, but got {path}.")


# --- obfuscation -----------------------------------------------------------------------------------------------------
def _layer_names(name, layers):
    return [Template(name).safe_substitute(layer=str(i)) for i in layers] if layers else [name]


def _metadata(configs, scale):
    """``(tensors by name, saved metadata by name)`` for the ``obf_metadata_config`` entries."""
    tensors, saved = {}, {}
    for config in configs:
        for name in _layer_names(config["name"], config.get("layers")):
            if name in tensors and not config.get("layers"):
                continue
            shape, kind = list(config["shape"]), config.get("type")
            value = None
            if kind == "rearrange" and len(shape) == 1:
                value = np.random.permutation(shape[0]).astype(np.int32)
            elif kind == "rearrange" and len(shape) == 2:
                value = np.identity(shape[0], np.int32)[:, np.random.permutation(shape[1])]
            elif kind == "random":
                value = np.random.randint(1, scale, size=shape).astype(np.float16)
            tensors[name] = value
            if config.get("save_metadata", False) and value is not None:
                op = config.get("metadata_op")
                if op not in (None, "invert", "mul", "matmul"):
                    raise KeyError(f"'op name' must be in ['mul', 'matmul', 'invert'], but got {op}.")
                saved[name] = (np.float16(1) / value).astype(value.dtype) if op == "invert" else value
    return tensors, saved


def _apply_ops(param, ops_info, metadata, layer):
    """The parameter after the config's operations (a Tensor), or None when an operand is missing."""
    dtype = param.dtype

    def operand(key, op):
        name = Template(op.get(key, "")).safe_substitute(layer=str(layer))
        return Tensor(metadata[name]) if name.startswith("obf_metadata") and name in metadata else None

    for op in ops_info:
        kind = op.get("name")
        if kind == "mul":
            factor = operand("input_y", op)
            if factor is None:
                logger.error("input_x or input_y is None")
                return None
            param = _math.mul(param, _array.cast(factor, dtype))
        elif kind == "permuate":
            perm = operand("input_x", op)
            if perm is None:
                logger.error("input_x or param is None")
                return None
            param = param[perm]
        elif kind == "matmul":
            x = operand("input_x", op)
            y = operand("input_y", op)
            x = param if x is None else x
            y = param if y is None else y
            x = _array.transpose(x, (1, 0)) if op.get("transpose_a", False) else x
            y = _array.transpose(y, (1, 0)) if op.get("transpose_b", False) else y
            param = _math.matmul(_array.cast(x, dtype), _array.cast(y, dtype))
        else:
            logger.error(f"unsupported op, op must be matmul or permuate or mul, but got {kind}.")
            return None
    return param


def _obfuscate_file(path, metadata, obf_config, saved_path):
    from mindspore.train.serialization import load_checkpoint, save_checkpoint
    try:
        params = load_checkpoint(path)
    except (ValueError, TypeError, OSError):
        logger.error(f"Load checkpoint failed for file {path}.")
        return False
    for name, param in params.items():
        param_path = "/".join(name.split("."))
        for target in obf_config.get("weight_obf_config", []):
            ops_info = target.get("weight_obf_ops")
            if not target.get("target") or not ops_info:
                raise KeyError("target or obf_ops is None.")
            layers = target.get("layers", [])
            for layer, target_path in zip(layers or [0], _layer_names(target["target"], layers)):
                if target_path != param_path:
                    continue
                value = _apply_ops(param.value(), ops_info, metadata, layer)
                if value is None:
                    logger.error(f"obfuscate weight {name} failed.")
                    return False
                param.set_data(value)
    stem = os.path.basename(path).split(".")[0]
    save_checkpoint([{"name": n, "data": p} for n, p in params.items()],
                    os.path.join(os.path.realpath(saved_path), stem + "_obf.ckpt"))
    return True


def obfuscate_ckpt(network, ckpt_files, target_modules=None, obf_config=None, saved_path="./", obfuscate_scale=100):
    """Obfuscate the plaintext checkpoint files of a directory by an obfuscation config (see the module docstring).

    Args:
        network (nn.Cell): the network the checkpoints belong to.
        ckpt_files (str): the directory of the ``.ckpt`` files (its direct subdirectories are processed too).
        target_modules (list[str], optional): the legacy form, ``['A/B/C', 'D|E|F']`` plus optionally
            ``'obfuscate_layers:all'`` or ``'obfuscate_layers:N'``. Default: ``None``.
        obf_config (dict, optional): the obfuscation config. Default: ``None``.
        saved_path (str, optional): the directory for the ``<stem>_obf.ckpt`` files. Default: ``'./'``.
        obfuscate_scale (Union[float, int], optional): random metadata lies in ``[1, obfuscate_scale)``.
            Default: ``100``.

    Returns:
        dict[str, numpy.ndarray], the saved metadata (e.g. the inverted ratios) needed to run the obfuscated network.

    Raises:
        TypeError: If `network` is not a Cell, a path is not a string or not a directory, or the config is malformed.
        ValueError: If a path does not exist, `target_modules` is invalid, the config is empty, or
            `obfuscate_scale` is not larger than 1.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.SequentialCell([nn.Dense(3, 2)])
        >>> ms.save_checkpoint(net, "./ckpts/net.ckpt")  # doctest: +SKIP
        >>> metadata = ms.obfuscate_ckpt(net, "./ckpts", target_modules=["", "0"], saved_path="./obf")  # doctest: +SKIP
    """
    _check_dir("ckpt_files", ckpt_files)
    _check_dir("saved_path", saved_path)
    obf_config = _resolve_config(network, target_modules, obf_config, ("obf_metadata_config", "weight_obf_config"))
    if isinstance(obfuscate_scale, bool) or not isinstance(obfuscate_scale, (float, int)) or obfuscate_scale <= 1:
        raise ValueError(f"obfuscate_scale must be float or int, and larger than 1, but got {obfuscate_scale}.")
    metadata, saved = _metadata(obf_config.get("obf_metadata_config", []), obfuscate_scale)
    for entry in sorted(os.listdir(ckpt_files)):
        full = os.path.join(os.path.realpath(ckpt_files), entry)
        if Path(full).is_dir():
            out_dir = os.path.join(os.path.realpath(saved_path), entry)
            os.makedirs(out_dir, mode=0o700, exist_ok=True)
            for name in sorted(os.listdir(full)):
                if name.endswith(".ckpt"):
                    _obfuscate_file(os.path.join(full, name), metadata, obf_config, out_dir)
        elif entry.endswith(".ckpt"):
            _obfuscate_file(full, metadata, obf_config, saved_path)
    return saved


def load_obf_params_into_net(network, target_modules=None, obf_ratios=None, obf_config=None, data_parallel_num=1,
                             **kwargs):
    r"""Check the obfuscation config of a network whose obfuscated checkpoint is loaded, and return the network.

    As in MindSpore 2.10 the network is returned as it is, after the checks: the obfuscated weights are loaded with
    ``load_checkpoint``, and undoing the obfuscation is the model owner's part (the metadata ``obfuscate_ckpt``
    returned).

    Args:
        network (nn.Cell): the network.
        target_modules (list[str], optional): the legacy form (see :func:`obfuscate_ckpt`). Default: ``None``.
        obf_ratios (Tensor, optional): the ratios of the legacy form (unused). Default: ``None``.
        obf_config (dict, optional): the obfuscation config; its ``network_obf_config`` is checked. Default: ``None``.
        data_parallel_num (int, optional): the data-parallel number, positive. Default: ``1``.
        \*\*kwargs (dict): ``ignored_func_decorators`` / ``ignored_class_decorators`` (lists of str).

    Returns:
        nn.Cell, the network.

    Raises:
        TypeError: If `network` is not a Cell or the config is malformed.
        ValueError: If `target_modules` is invalid, the config is empty, or `data_parallel_num` is not positive.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.SequentialCell([nn.Dense(3, 2)])
        >>> ms.load_obf_params_into_net(net, ["", "0"]) is net
        True
    """
    obf_config = _resolve_config(network, target_modules, obf_config, ("network_obf_config",))
    if isinstance(data_parallel_num, bool) or not isinstance(data_parallel_num, int) or data_parallel_num <= 0:
        raise ValueError(f"data_parallel_num must be positive number, but got {data_parallel_num}.")
    for key in ("ignored_func_decorators", "ignored_class_decorators"):
        value = kwargs.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError(f"{key} should be list[str], but got {value!r}.")
    return network
