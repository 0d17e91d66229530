"""Distributed checkpoints: merge per-rank slices, load them into one process, re-shard them.

A distributed training run saves one checkpoint per rank (each holding that rank's slice of every
parameter) and one strategy file (each parameter's layout, see :mod:`mindspore.parallel._strategy_file`).
The functions here follow MindSpore 2.10's ``mindspore.parallel`` API:

* :func:`merge_sliced_parameter` joins the slices of one parameter (given in rank order);
* :func:`load_distributed_checkpoint` rebuilds every parameter of a network from all ranks' files, and
  either loads the full tensors (one process, ``predict_strategy=None``) or this rank's slice of another
  layout;
* :func:`transform_checkpoints` / :func:`transform_checkpoint_by_rank` write the checkpoints of a different
  sharding (``dst_strategy_file``; ``None`` means "not sharded": one full checkpoint), reading for each
  destination rank only the source ranks :func:`rank_list_for_transform` names.

All of it works on *boxes* (:mod:`mindspore.parallel._checkpoint_layout`): a destination slice is assembled
by copying the intersections of the distinct source slices, so replicated dimensions, repeated device axes,
optimizer-sharded (``opt_weight_shard_size``) slices, multi-axis tensor maps and pipeline stages need no
special cases, and a missing slice is detected as a hole. Of several replicas of one source slice the rank
chosen is the destination rank itself when it holds it, else the replica whose device coordinates differ
least from it (MindSpore makes the same choice). MindSpore's own redistribution sometimes asks for more
ranks than needed (e.g. all 4 source ranks for a 4-way to 2-way row split); we list only the ones read.

Parameters absent from the source strategy (learning rate, step counters, strings of ``append_dict``) are
copied from the source rank ``rank_id % source_device_num``, as MindSpore does; a parameter sharded in the
source but absent from a given destination strategy is written whole. Checkpoints are written through
``mindspore.save_checkpoint``, so every file is written atomically.
"""
from __future__ import annotations

import glob
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor
from mindspore.parallel._checkpoint_layout import LayoutError, ParamLayout, as_layout, assemble
from mindspore.parallel._strategy_file import (build_searched_strategy, merge_pipeline_strategys, read_layouts,
                                                restore_group_info_list)
from mindspore.parallel._unified_load import unified_safetensors

__all__ = ["merge_sliced_parameter", "load_distributed_checkpoint", "rank_list_for_transform",
           "transform_checkpoint_by_rank", "transform_checkpoints", "load_segmented_checkpoints",
           "build_searched_strategy", "merge_pipeline_strategys", "restore_group_info_list", "unified_safetensors"]

logger = logging.getLogger("mindspore")


# ------------------------------------------------------------------------------------------- helpers

def _array(value):
    """Host array of a Parameter/Tensor (dtype kept: bfloat16 stays bfloat16)."""
    return value.asnumpy() if hasattr(value, "asnumpy") else np.asarray(value)


def _param(name, array, requires_grad=True, layerwise_parallel=False):
    if not array.flags.c_contiguous:   # (np.ascontiguousarray would turn a scalar into shape (1,))
        array = array.copy(order="C")
    return Parameter(Tensor(array), name, requires_grad, layerwise_parallel)


def _check_dtypes(name, arrays, api):
    dtypes = {a.dtype for a in arrays}
    if len(dtypes) > 1:
        raise ValueError(f"For '{api}', the slices of parameter '{name}' have different dtypes "
                         f"{sorted(str(d) for d in dtypes)}.")


def _check_slice(layout, name, full_shape, rank, array, api, source=""):
    """Whether ``array`` is ``rank``'s slice with (True) or without (False) the optimizer split; else raise."""
    with_opt = tuple(b - a for a, b in layout.box(rank, full_shape, True))
    if tuple(array.shape) == with_opt:
        return True
    if layout.opt_size() > 1 and tuple(array.shape) == tuple(b - a for a, b in layout.box(rank, full_shape, False)):
        return False
    where = f" in {source}" if source else ""
    raise LayoutError(f"For '{api}', the slice of parameter '{name}' of rank {rank}{where} has shape "
                      f"{tuple(array.shape)}, but the strategy ({layout.describe()}) of a parameter of shape "
                      f"{tuple(full_shape)} gives rank {rank} a slice of shape {with_opt}.")


def _merge(layout, name, full_shape, arrays, api, sources=None):
    """The full parameter from ``{rank: slice}`` (all slices checked against the layout)."""
    layout.check_shape(name, full_shape, api)
    pieces = {}
    for rank in sorted(arrays):
        opt = _check_slice(layout, name, full_shape, rank, arrays[rank], api, (sources or {}).get(rank, ""))
        box = layout.box(rank, full_shape, opt)
        pieces.setdefault(box, (box, arrays[rank], rank))
    _check_dtypes(name, [a for _, a, _ in pieces.values()], api)
    region = tuple((0, d) for d in full_shape)
    dtype = next(iter(pieces.values()))[1].dtype
    try:
        return assemble(region, list(pieces.values()), dtype, name, api)
    except LayoutError:
        missing = sorted(set(range(layout.device_num)) - set(arrays))
        raise LayoutError(f"For '{api}', the slices of parameter '{name}' do not make the whole parameter "
                          f"(shape {tuple(full_shape)}, {layout.describe()}): the slices of ranks {missing} are "
                          f"missing.") from None


# ------------------------------------------------------------------------------ merge_sliced_parameter

def _merge_with_field(data, layout, name):
    """MindSpore's ``field`` layout (EmbeddingLookup field split): each slice holds ``field`` row groups."""
    if len({a.shape for a in data}) != 1:
        raise ValueError("For 'merge_sliced_parameter', the shape of every parameter in 'sliced_parameters' "
                         "should be the same when slice manner is even.")
    field = layout.field
    rows, rest = data[0].shape[0], data[0].shape[1:]
    if rows % field:
        raise ValueError(f"For 'merge_sliced_parameter', the slices of '{name}' have {rows} rows, which can not "
                         f"be divided into 'field' {field} groups.")
    stacked = np.stack([a.reshape((field, rows // field) + rest) for a in data], axis=1)
    return stacked.reshape((-1,) + rest)


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """
    Merge parameter slices into one parameter. Used in the case of distributed inference.

    Args:
        sliced_parameters (list[Parameter]): Parameter slices in order of rank id.
        strategy (Optional[dict], optional): Parameter slice strategy, whose key is parameter name and
            value is slice strategy of this parameter (as :func:`build_searched_strategy` returns it, or a list
            ``[dev_matrix, tensor_map, ...]``). If strategy is None, just merge parameter slices in 0 axis
            order. Default: ``None``.

    Returns:
        Parameter, the merged parameter which has the whole data (in the slices' dtype: bfloat16 slices give a
        bfloat16 parameter, where MindSpore casts them to float32 first).

    Raises:
        ValueError: Failed to merge.
        TypeError: The sliced_parameters is incorrect or strategy is not dict.
        KeyError: The parameter name is not in keys of strategy.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import Tensor, Parameter
        >>> sliced_parameters = [
        ...     Parameter(Tensor(np.array([0.00023915, 0.00013939, -0.00098059])), "network.embedding_table"),
        ...     Parameter(Tensor(np.array([0.00015815, 0.00015458, -0.00012125])), "network.embedding_table")]
        >>> merged_parameter = ms.merge_sliced_parameter(sliced_parameters)
        >>> print(merged_parameter)
        Parameter (name=network.embedding_table, shape=(6,), dtype=Float64, requires_grad=True)
    """
    api = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(f"For '{api}', the argument 'sliced_parameters' should be list, but got "
                        f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"For '{api}', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"For '{api}', the argument 'strategy' should be dict, but got {type(strategy)}.")
    first = sliced_parameters[0]
    if not isinstance(first, Parameter):
        raise TypeError(f"For '{api}', the element in 'sliced_parameters' should be 'Parameter', but got "
                        f"{type(first)} at index 0.")
    name, shape = first.name, tuple(first.shape)
    for index, param in enumerate(sliced_parameters):
        if not isinstance(param, Parameter):
            raise TypeError(f"For '{api}', the element in 'sliced_parameters' should be 'Parameter', but got "
                            f"{type(param)} at index {index}.")
        pshape = tuple(param.shape)
        if param.name != name or len(pshape) != len(shape) or pshape[1:] != shape[1:]:
            raise ValueError(f"For '{api}', please make sure that the elements in 'slice_parameters' have the same "
                             f"name, dimension length and shape except 0 axis. The name, dimension length, shape "
                             f"except 0 axis should be {name}, {len(shape)}, {shape[1:]}, but got name: "
                             f"{param.name}, dimension length: {len(pshape)}, shape except 0 axis: {pshape[1:]} "
                             f"at index {index}.")
    data = [_array(p) for p in sliced_parameters]
    _check_dtypes(name, data, api)
    if not strategy:
        merged = np.concatenate(data)
    else:
        if name not in strategy:
            raise KeyError(f"For '{api}', the parameter name {name} should be a key in the 'strategy'. Please check "
                           f"'sliced_parameter' and 'strategy'.")
        merged = _merge_by_strategy(data, name, strategy[name], api)
    return _param(name, merged, first.requires_grad, first.layerwise_parallel)


def _merge_by_strategy(data, name, layout_value, api):
    try:
        layout = as_layout(layout_value, name)
        layout.validate(name, api)
    except (TypeError, ValueError, IndexError) as e:
        raise ValueError(f"{e}. For '{api}', please make sure that 'strategy' is correct.") from e
    if len(data) != layout.device_num:
        raise ValueError(f"For '{api}', the length of 'sliced_parameters' should be equal to device_count. The "
                         f"length of 'sliced_parameters' is {len(data)}, but device_count is {layout.device_num}.")
    if layout.field > 0 and not layout.param_split_shape:
        return _merge_with_field(data, layout, name)
    # the slices are model-parallel slices (MindSpore ignores the optimizer-shard fields here)
    layout = ParamLayout(layout.dev_matrix, layout.tensor_map, param_split_shape=layout.param_split_shape)
    strat = layout.strategy()
    if layout.param_split_shape:
        if len(layout.param_split_shape) != int(np.prod(strat)):
            raise ValueError(f"For '{api}', the param_split_shape length in 'strategy' should be "
                             f"{int(np.prod(strat))}, but got {len(layout.param_split_shape)}.")
        for rank, array in enumerate(data):
            flat = int(np.ravel_multi_index(layout.slice_index(rank), strat))
            if array.shape[0] != layout.param_split_shape[flat]:
                raise ValueError(f"For '{api}', the slice {flat} should be {layout.param_split_shape[flat]} in 0 "
                                 f"axis, but got {array.shape[0]}.")
        full0 = sum(layout.param_split_shape[int(np.ravel_multi_index((k,) + (0,) * (len(strat) - 1), strat))]
                    for k in range(strat[0])) if strat else 0
        full_shape = (full0,) + tuple(d * s for d, s in zip(data[0].shape[1:], strat[1:]))
    else:
        if len({a.shape for a in data}) != 1:
            raise ValueError(f"For '{api}', the shape of every parameter in 'sliced_parameters' should be the same "
                             f"when slice manner is even.")
        full_shape = layout.full_shape_from_slice(data[0].shape, opt=False)
    return _merge(layout, name, full_shape, dict(enumerate(data)), api)


# ------------------------------------------------------------------------ load_distributed_checkpoint

def _check_checkpoint_files(checkpoint_filenames, fmt):
    if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames:
        raise TypeError(f"For 'load_distributed_checkpoint', the argument 'checkpoint_filenames' must be a non-empty "
                        f"list of str, but got {checkpoint_filenames!r}.")
    suffix = "." + fmt
    for index, filename in enumerate(checkpoint_filenames):
        if not isinstance(filename, str) or not os.path.exists(filename) \
                or not filename.endswith(suffix) or os.path.getsize(filename) == 0:
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make sure "
                             f"the {filename} at index {index} is a valid checkpoint file, it must be a string ending "
                             f"with '{suffix}', and the checkpoint file it represents must be exist and not empty.")


def _predict_layouts(predict_strategy):
    """``{name: (ParamLayout, opt_shard_group or None)}`` from a predict strategy (dict or strategy file)."""
    if predict_strategy is None:
        return None
    if isinstance(predict_strategy, str):
        return {name: (layout, None) for name, layout in read_layouts(predict_strategy).items()}
    if not isinstance(predict_strategy, dict):
        raise TypeError(f"For 'load_distributed_checkpoint', the argument 'predict_strategy' must be dict, str or "
                        f"None, but got {type(predict_strategy).__name__}.")
    out = {}
    for key, value in predict_strategy.items():
        ok = isinstance(key, str) and isinstance(value, (list, tuple)) and len(value) >= 4
        if ok:
            dev, tmap, split, field = value[:4]
            ok = isinstance(dev, (list, tuple)) and all(isinstance(v, int) for v in dev) and \
                isinstance(tmap, (list, tuple)) and all(isinstance(v, int) for v in tmap) and \
                (not split or all(isinstance(v, int) for v in split)) and isinstance(field, int) and field == 0
        if not ok:
            raise ValueError("For 'load_distributed_checkpoint', the argument 'predict_strategy' is dict, the key of "
                             "it must be string, and the value of it must be list or tuple that the first four "
                             "elements must be dev_matrix (list[int]), tensor_map (list[int]), param_split_shape "
                             "(list[int]) and field_size (int, which value is 0).Please check whether "
                             "'predict_strategy' is correct.")
        group = value[5] if len(value) > 5 and isinstance(value[5], str) and value[5] else None
        out[key] = (as_layout(list(value[:2]), key), group)
    return out


def _train_strategy_file(network, train_strategy_filename):
    if train_strategy_filename is not None:
        return train_strategy_filename
    path = getattr(network, "_save_strategy_file_path", None)
    if path:
        return path
    config = ms.get_auto_parallel_context("strategy_ckpt_config") or {}
    return config.get("load_file") or ms.get_auto_parallel_context("strategy_ckpt_load_file") or None


def _read_all(filenames, dec_key=None, dec_mode="AES-GCM"):
    """``{rank: {name: Parameter or str}}`` of the checkpoint files (index = rank)."""
    out = {}
    for rank, filename in enumerate(filenames):
        out[rank] = ms.load_checkpoint(os.path.abspath(filename), dec_key=dec_key, dec_mode=dec_mode)
    return out


def _predict_slice(full, name, layout, group, rank, api):
    layout.validate(name, api)
    layout.check_shape(name, full.shape, api)
    local = layout.take(full, rank % layout.device_num, opt=True)
    if group:
        from mindspore.communication import get_group_size, get_rank
        size, index = get_group_size(group), get_rank(group)
        if local.shape and local.shape[0] % size:
            raise RuntimeError(f"For '{api}', failed to load opt shard slice in load distributed checkpoint for "
                               f"{name}. Data shape is {local.shape} and group is {group}.")
        local = np.split(local, size)[index]
    return local


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode='AES-GCM',
                                format='ckpt', unified_safetensors_dir=None, dst_safetensors_dir=None,  # noqa: A002
                                rank_id=None, output_format='safetensors', name_map=None, max_process_num=64,
                                return_param_dict=False):
    """
    Load checkpoint into net for distributed predication. Used in the case of distributed inference.

    Every parameter of `network` is rebuilt from the slices of all ranks' checkpoints by its layout in the
    training strategy file; with ``predict_strategy=None`` the full tensors are loaded (one process), otherwise
    this rank's slice of the predict layout.

    Args:
        network (Cell): Network for distributed predication.
        checkpoint_filenames (list[str]): The name of Checkpoint files in order of rank id. Default: ``None``.
        predict_strategy (Union[dict, str]): Strategy of predication process: ``{name: [dev_matrix, tensor_map,
            param_split_shape, field_size(0), ..., opt_shard_group (index 5), ...]}`` as
            ``Model.infer_predict_layout`` gives it, or a strategy file. ``None``: one device predicts (full
            parameters). Default: ``None``.
        train_strategy_filename (str): The filename of training strategy protocol buffer file. When it is
            ``None``, the context's ``strategy_ckpt_config["load_file"]`` / ``strategy_ckpt_load_file`` is used.
            Default: ``None``.
        strict_load (bool): Whether to strict load the parameter into net (see ``load_param_into_net``).
            Default: ``False``.
        dec_key (Union[None, bytes]): Byte type key used for decryption. Default: ``None``.
        dec_mode (str): Decryption mode, ``'AES-GCM'``, ``'AES-CBC'`` or ``'SM4-CBC'``. Default: ``'AES-GCM'``.
        format (str): Input weight format, ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.
        unified_safetensors_dir (str): With ``format="safetensors"``, the directory of the unified (full)
            safetensors files to slice. Default: ``None``.
        dst_safetensors_dir (str): With ``format="safetensors"`` and ``network=None``, where the sliced files of
            each rank are saved (``rank_<id>/``). Default: ``None``.
        rank_id (int): The rank whose slice is loaded (default: this process's rank) or, in save mode, saved
            (default: every rank of the predict strategy). Default: ``None``.
        output_format (str): In save mode, the format of the saved files, ``"ckpt"`` or ``"safetensors"``.
            Default: ``"safetensors"``.
        name_map (dict): ``{name in the network: name in the files}`` applied before loading or saving.
            Default: ``None``.
        max_process_num (int): Maximum number of processes in save mode. Default: ``64``.
        return_param_dict (bool): Whether to return the param_dict instead of ``True``. Default: ``False``.

    Returns:
        ``True``, or the loaded ``{name: Parameter}`` when `return_param_dict` is ``True``.

    Raises:
        TypeError: The type of inputs do not match the requirements.
        ValueError: Failed to load checkpoint into net (a missing or empty rank file, a slice whose shape does
            not match the strategy, a file count that differs from the training device count).

    Examples:
        >>> import mindspore as ms
        >>> files = [f"./rank_{i}/net.ckpt" for i in range(4)]
        >>> ms.load_distributed_checkpoint(net, files, None, "./train_strategy.ckpt")
    """
    api = "load_distributed_checkpoint"
    if format not in ("safetensors", "ckpt") or output_format not in ("safetensors", "ckpt"):
        raise ValueError(f"For '{api}', 'format' and 'output_format' must be 'ckpt' or 'safetensors', but got "
                         f"{format}.")
    if name_map is not None and not isinstance(name_map, dict):
        raise TypeError(f"For '{api}', the argument 'name_map' must be dict or None, but got "
                        f"{type(name_map).__name__}.")
    if format == "safetensors":
        from mindspore.parallel._unified_load import load_unified_safetensors
        return load_unified_safetensors(network, predict_strategy, unified_safetensors_dir, dst_safetensors_dir,
                                        rank_id, output_format, name_map, max_process_num, return_param_dict,
                                        (checkpoint_filenames, train_strategy_filename, dec_key, strict_load,
                                         dec_mode))
    if not isinstance(network, ms.nn.Cell):
        raise TypeError(f"For '{api}', the argument 'network' must be a Cell, but got {type(network).__name__}.")
    _check_checkpoint_files(checkpoint_filenames, "ckpt")
    predict = _predict_layouts(predict_strategy)
    if dec_key is not None and not isinstance(dec_key, bytes):
        raise TypeError(f"For '{api}', the argument 'dec_key' must be bytes or None, but got "
                        f"{type(dec_key).__name__}.")
    if not isinstance(dec_mode, str):
        raise TypeError(f"For '{api}', the argument 'dec_mode' must be str, but got {type(dec_mode).__name__}.")
    strategy_file = _train_strategy_file(network, train_strategy_filename)
    if not strategy_file:
        logger.warning("For '%s', no training strategy file was given ('train_strategy_filename' or the "
                       "context's 'strategy_ckpt_load_file'): nothing is loaded.", api)
        return {} if return_param_dict else True
    train = read_layouts(strategy_file, api)
    if not train:
        return {} if return_param_dict else True
    device_num = next(iter(train.values())).device_num
    if device_num != len(checkpoint_filenames):
        raise ValueError(f"For 'Load_distributed_checkpoint', the length of 'checkpoint_filenames' should be equal to "
                         f"the device count of training process. But got the length of 'checkpoint_filenames' is "
                         f"{len(checkpoint_filenames)} and the device count is {device_num}.")
    per_rank = _read_all(checkpoint_filenames, dec_key, dec_mode)
    if name_map:   # {name in the network: name in the files}, as MindSpore's safetensors path reads it
        to_net = {v: k for k, v in name_map.items()}
        per_rank = {r: {to_net.get(k, k): v for k, v in d.items()} for r, d in per_rank.items()}
    rank = None
    if predict is not None:
        rank = rank_id if rank_id is not None else _current_rank(api)
    param_dict = _rebuild_params(network, train, per_rank, checkpoint_filenames, predict, rank, api)
    ms.load_param_into_net(network, param_dict, strict_load=strict_load)
    return param_dict if return_param_dict else True


def _current_rank(api):
    from mindspore.communication import get_rank
    try:
        return get_rank()
    except RuntimeError as e:
        raise RuntimeError(f"For '{api}', a 'predict_strategy' needs this process's rank: call "
                           f"mindspore.communication.init() first or pass 'rank_id'.") from e


def _rebuild_params(network, train, per_rank, filenames, predict, rank, api):
    param_dict, not_in_strategy, not_in_ckpt = {}, [], []
    for _, param in network.parameters_and_names():
        name = param.name
        if name not in train:
            not_in_strategy.append(name)
            continue
        arrays = {r: _array(d[name]) for r, d in per_rank.items() if name in d and not isinstance(d[name], str)}
        if not arrays:
            not_in_ckpt.append(name)
            continue
        layout = train[name]
        layout.validate(name, api)
        if len(arrays) != len(per_rank):
            missing = sorted(set(per_rank) - set(arrays))
            raise ValueError(f"For '{api}', the parameter '{name}' is missing from the checkpoint files of ranks "
                             f"{missing} ({[filenames[r] for r in missing]}).")
        full_shape = _full_shape_for(layout, name, param, arrays, predict)
        full = _merge(layout, name, full_shape, arrays, api, dict(enumerate(filenames)))
        if predict is not None and name in predict:
            p_layout, group = predict[name]
            full = _predict_slice(full, name, p_layout, group, rank, api)
        first = per_rank[min(arrays)][name]
        param_dict[name] = _param(name, full, first.requires_grad, first.layerwise_parallel)
    if not_in_strategy:
        logger.warning("For '%s', %s parameters in network are not in the slice strategy, you can check whether "
                       "'predict_strategy' or 'train_strategy_filename' is correct.", api, not_in_strategy)
    if not_in_ckpt:
        logger.warning("For '%s', %s parameters in network and slice strategy but not in the checkpoint file, "
                       "please check whether 'checkpoint_filenames' is correct.", api, not_in_ckpt)
    return param_dict


def _full_shape_for(layout, name, param, arrays, predict):
    """The full shape of ``name``: the file's, the network's (when it holds the whole parameter) or inferred."""
    if layout.tensor_shape:
        return tuple(layout.tensor_shape)
    if predict is None or name not in predict:
        return tuple(param.shape)
    # the network holds a predict slice: the training slices tell the full shape (as MindSpore, the slices of an
    # optimizer-sharded layout are taken to be optimizer-sharded)
    return layout.full_shape_from_slice(tuple(arrays[min(arrays)].shape), opt=True)


# -------------------------------------------------------------------------------------- transforms

class _Side:
    """One side (source or destination) of a transform: its layouts, or "not sharded" when no file."""

    def __init__(self, strategy_file, api, arg):
        if strategy_file is not None and not isinstance(strategy_file, str):
            raise TypeError(f"For '{api}', the argument '{arg}' should be str or None, but got "
                            f"{type(strategy_file).__name__}.")
        self.layouts = read_layouts(strategy_file, api) if strategy_file is not None else None
        if self.layouts is not None and not self.layouts:
            raise ValueError(f"For '{api}', the {arg} {strategy_file} has no parameter layout.")
        if self.layouts:
            for name, layout in self.layouts.items():
                layout.validate(name, api)
            self.stage_device_num = next(iter(self.layouts.values())).device_num
            stages = sorted({s for layout in self.layouts.values() for s in layout.stages})
            if stages != list(range(len(stages))):
                raise ValueError("The strategy file for pipeline parallel does not contains all stages.")
            self.stage_num = len(stages)
        else:
            self.stage_device_num, self.stage_num = 1, 1

    @property
    def device_num(self):
        return self.stage_device_num * self.stage_num

    def layout(self, name, ndim):
        if self.layouts is None:
            return ParamLayout((1,), (-1,) * ndim)
        return self.layouts.get(name)

    def sharded(self):
        return self.layouts is not None


def _choose(holders, self_rank, layout):
    """The rank to read a slice from among ``holders`` (its replicas): the one whose device coordinates differ
    least from the destination rank's (itself when it holds the slice), the lowest on a tie."""
    mine = layout.coord(self_rank % layout.device_num)
    return min(holders, key=lambda h: (sum(a != b for a, b in zip(layout.coord(h), mine)), h))


def _plan(src_layout, dst_layout, full_shape, dst_local, src_self):
    """``(region, [(box, local src rank)])``: the destination box and the source slices to read for it."""
    region = dst_layout.box(dst_local, full_shape, True)
    groups = {}
    for r in range(src_layout.device_num):
        groups.setdefault(src_layout.box(r, full_shape, True), []).append(r)
    plan = []
    for box, holders in groups.items():
        if all(max(a, c) < min(b, d) for (a, b), (c, d) in zip(box, region)):
            plan.append((box, _choose(holders, src_self, src_layout)))
    return region, plan


def _stage_of(side, dst_rank):
    return dst_rank // side.stage_device_num if side.sharded() else 0


def _needed_params(src, dst, dst_rank):
    """``{name: (src_layout, dst_layout)}`` for the layouts a destination rank transforms."""
    dst_stage = _stage_of(dst, dst_rank)
    if src.layouts is None:   # an unsharded source: every parameter the destination strategy slices
        return {name: (src.layout(name, len(d.tensor_map)), d) for name, d in (dst.layouts or {}).items()
                if dst_stage in d.stages}
    out = {}
    for name, s_layout in src.layouts.items():
        d_layout = dst.layout(name, len(s_layout.tensor_map))
        if d_layout is None:
            if dst.stage_num > 1:
                continue
            d_layout = ParamLayout((1,), (-1,) * len(s_layout.tensor_map))
        elif dst.sharded() and dst_stage not in d_layout.stages:
            continue
        out[name] = (s_layout, d_layout)
    return out


def _src_global(src, layout, local_rank):
    return layout.stages[0] * src.stage_device_num + local_rank


def _fake_shape(s_layout, d_layout):
    size = max(1, s_layout.device_num) * max(1, d_layout.device_num)
    return (size,) * len(s_layout.tensor_map)


def _rank_list(rank_id, src, dst):
    dst_local = rank_id % dst.stage_device_num if dst.sharded() else rank_id
    needed = set()
    for name, (s_layout, d_layout) in _needed_params(src, dst, rank_id).items():
        shape = tuple(s_layout.tensor_shape) if s_layout.tensor_shape else _fake_shape(s_layout, d_layout)
        _, plan = _plan(s_layout, d_layout, shape, dst_local % d_layout.device_num,
                        dst_local % s_layout.device_num)
        for stage in s_layout.stages:
            needed.update(stage * src.stage_device_num + r for _, r in plan)
    return sorted(needed, reverse=True)


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """
    List of original distributed checkpoint rank index for obtaining the target checkpoint of a rank_id during the
    distributed checkpoint conversion.

    Args:
        rank_id (int): The rank of which distributed checkpoint needs to be obtained after conversion.
        src_strategy_file (str): Name of source sharding strategy file. ``None`` means that the source parameters
            are not sharded. Default: ``None``.
        dst_strategy_file (str): Name of destination sharding strategy file. ``None`` means that the destination
            parameters are not sharded. Default: ``None``.

    Returns:
        List, the rank list required for converting the distributed checkpoint of rank_id (descending, as
        MindSpore returns it).

    Raises:
        ValueError: `src_strategy_file` or `dst_strategy_file` is incorrect.
        TypeError: `src_strategy_file` or `dst_strategy_file` is not a string.
        TypeError: `rank_id` is not an int.

    Examples:
        >>> import mindspore as ms
        >>> rank_list = ms.rank_list_for_transform(0, "./src_strategy.ckpt", "./dst_strategy.ckpt")
    """
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    api = "rank_list_for_transform"
    return _rank_list(rank_id, _Side(src_strategy_file, api, "src_strategy_file"),
                      _Side(dst_strategy_file, api, "dst_strategy_file"))


def _transform_rank(rank_id, src, dst, per_rank, api, files=None):
    """``{name: Parameter or str}`` of destination rank ``rank_id`` from ``{src global rank: {name: value}}``."""
    dst_local = rank_id % dst.stage_device_num if dst.sharded() else rank_id
    out = {}
    for name, (s_layout, d_layout) in _needed_params(src, dst, rank_id).items():
        holders = {r: d[name] for r, d in per_rank.items() if name in d}
        if not holders:
            continue
        full_shape = _transform_full_shape(name, s_layout, d_layout, holders, api, files)
        s_layout.check_shape(name, full_shape, api)
        d_layout.check_shape(name, full_shape, api)
        region, plan = _plan(s_layout, d_layout, full_shape, dst_local % d_layout.device_num,
                             dst_local % s_layout.device_num)
        pieces = []
        for box, local in plan:
            g = _src_global(src, s_layout, local)
            if g not in holders:
                raise ValueError(f"The checkpoint of rank {g} is missing: it is needed for parameter '{name}' of "
                                 f"rank {rank_id}.")
            array = _array(holders[g])
            if not _check_slice(s_layout, name, full_shape, local, array, api, (files or {}).get(g, "")):
                box = s_layout.box(local, full_shape, False)   # a whole model-parallel slice, not its opt shard
            pieces.append((box, array, g))
        _check_dtypes(name, [a for _, a, _ in pieces], api)
        data = assemble(region, pieces, pieces[0][1].dtype, name, api)
        first = holders[min(holders)]
        out[name] = _param(name, data, first.requires_grad, first.layerwise_parallel)
    _copy_unsharded(out, rank_id, src, per_rank)
    return out


def _transform_full_shape(name, s_layout, d_layout, holders, api, files):
    for layout in (s_layout, d_layout):
        if layout.tensor_shape:
            return tuple(layout.tensor_shape)
    g0 = min(holders)
    shape = tuple(_array(holders[g0]).shape)
    if len(shape) != len(s_layout.tensor_map):
        raise LayoutError(f"For '{api}', the slice of parameter '{name}' of rank {g0}"
                          f"{' in ' + files[g0] if files and g0 in files else ''} has shape {shape}, but its "
                          f"strategy ({s_layout.describe()}) is for a {len(s_layout.tensor_map)}-D tensor.")
    if s_layout.param_split_shape:
        raise LayoutError(f"For '{api}', the parameter '{name}' is split unevenly (param_split_shape): it can not "
                          f"be transformed.")
    # no shape in a protobuf strategy: the source slices tell it (optimizer-sharded ones, as MindSpore reads them)
    return s_layout.full_shape_from_slice(shape, opt=True)


def _copy_unsharded(out, rank_id, src, per_rank):
    """Entries the source strategy does not describe: copied from rank ``rank_id % source devices``."""
    src_rank = rank_id % src.device_num
    sharded = set(src.layouts or ())
    donor_order = [src_rank] + sorted(r for r in per_rank if r != src_rank)
    names = []
    for r in donor_order:
        for name in per_rank.get(r, {}):
            if name not in names:
                names.append(name)
    for name in names:
        if name in out or name in sharded:
            continue
        for r in donor_order:
            if name in per_rank.get(r, {}):
                value = per_rank[r][name]
                out[name] = value if isinstance(value, str) else \
                    _param(name, _array(value), value.requires_grad, value.layerwise_parallel)
                break


def _save(params, path, output_format):
    ms.save_checkpoint(params, path, format=output_format)


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file=None, dst_strategy_file=None):
    """
    Transform distributed checkpoint from source sharding strategy to destination sharding strategy by rank
    for a network.

    Args:
        rank_id (int): The rank of which distributed checkpoint needs to be obtained after conversion.
        checkpoint_files_map (dict): The checkpoint files map whose key is the rank id and the value is
            the checkpoint file name (at least the ranks :func:`rank_list_for_transform` lists).
        save_checkpoint_file_name (str): The file name to save the converted checkpoint (ends with ``.ckpt``).
        src_strategy_file (str): Name of source sharding strategy file; ``None``: the source is not sharded.
            Default: ``None``.
        dst_strategy_file (str): Name of destination sharding strategy file; ``None``: the destination is not
            sharded. Default: ``None``.

    Raises:
        ValueError: `src_strategy_file` or `dst_strategy_file` is incorrect.
        ValueError: item in `checkpoint_files_map` is incorrect, or a needed rank's file is missing.
        ValueError: `save_checkpoint_file_name` is not end with ".ckpt".
        TypeError: `checkpoint_files_map` is not a dict.
        TypeError: `src_strategy_file` or `dst_strategy_file` is not a string.
        TypeError: `rank_id` is not an int.
        TypeError: `save_checkpoint_file_name` is not a string.

    Examples:
        >>> import mindspore as ms
        >>> rank_list = ms.rank_list_for_transform(0, "./src_strategy.ckpt", "./dst_strategy.ckpt")
        >>> files = {rank: f"./src/rank_{rank}/net.ckpt" for rank in rank_list}
        >>> ms.transform_checkpoint_by_rank(0, files, "./dst/rank_0/net0.ckpt", "./src_strategy.ckpt",
        ...                                 "./dst_strategy.ckpt")
    """
    api = "transform_checkpoint_by_rank"
    if not isinstance(checkpoint_files_map, dict):
        raise TypeError("The checkpoint_files_map should be a dict.")
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    if not isinstance(save_checkpoint_file_name, str):
        raise TypeError("The save_checkpoint_file_name should be a str.")
    if not save_checkpoint_file_name.endswith(".ckpt"):
        raise ValueError(f"The save_checkpoint_file_name {save_checkpoint_file_name} should end with .ckpt")
    if dst_strategy_file and os.path.dirname(dst_strategy_file) and \
            not os.path.exists(os.path.dirname(dst_strategy_file)):
        raise ValueError(f"The director of dst_strategy_file: {os.path.dirname(dst_strategy_file)} is not exists.")
    for rank, local_file in checkpoint_files_map.items():
        if not isinstance(local_file, str) or not os.path.exists(local_file):
            raise ValueError(f"Checkpoint file {local_file} in rank {rank} not exits: ")
    src = _Side(src_strategy_file, api, "src_strategy_file")
    dst = _Side(dst_strategy_file, api, "dst_strategy_file")
    needed = [0] if not src.sharded() else _rank_list(rank_id, src, dst)
    missing = [r for r in needed if r not in checkpoint_files_map]
    if missing:
        raise ValueError(f"For '{api}', the checkpoint files of ranks {sorted(missing)} are needed for converting "
                         f"rank{rank_id}'s checkpoint, but they are missing from 'checkpoint_files_map'.")
    files = {int(r): checkpoint_files_map[r] for r in needed}
    per_rank = {r: ms.load_checkpoint(f) for r, f in files.items()}
    os.makedirs(os.path.dirname(os.path.abspath(save_checkpoint_file_name)), exist_ok=True)
    _save(_transform_rank(rank_id, src, dst, per_rank, api, files), save_checkpoint_file_name, "ckpt")


def _collect_rank_files(src_checkpoints_dir, fmt):
    """``{rank: file}``: the last ``*.<fmt>`` (lexicographic) of every ``rank_<N>`` sub-directory."""
    files = {}
    for directory in glob.glob(os.path.join(src_checkpoints_dir, "rank_[0-9]*")):
        rank = os.path.basename(directory)[len("rank_"):]
        if not os.path.isdir(directory) or not rank.isdigit():
            continue
        found = sorted(f for f in glob.glob(os.path.join(directory, f"*.{fmt}")) if os.path.isfile(f))
        if found:
            files[int(rank)] = found[-1]
    return files


def _transform_job(job):
    """One destination rank of :func:`transform_checkpoints` (a top-level function: picklable for a pool)."""
    rank, needed_files, src_file, dst_file, fmt, out_path, output_format = job
    api = "transform_checkpoints"
    src = _Side(src_file, api, "src_strategy_file")
    dst = _Side(dst_file, api, "dst_strategy_file")
    per_rank = {r: ms.load_checkpoint(f, format=fmt) for r, f in needed_files.items()}
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    _save(_transform_rank(rank, src, dst, per_rank, api, needed_files), out_path, output_format)
    return out_path


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file=None,
                          dst_strategy_file=None, process_num=1, output_format="ckpt"):
    """
    Transform distributed checkpoint from source sharding strategy to destination sharding strategy for a rank.

    Note:
        The `src_checkpoints_dir` directory structure should be organized like "src_checkpoints_dir/rank_0/a.ckpt",
        the rank number should be set to a subdirectory and the checkpoint file is stored in this subdirectory. If
        multiple files exist in a rank directory, the last file in the lexicographic order would be selected.
        The result of destination rank ``r`` is ``dst_checkpoints_dir/rank_r/{ckpt_prefix}{r}.ckpt``.

    Args:
        src_checkpoints_dir (str): The source checkpoints directory.
        dst_checkpoints_dir (str): The destination checkpoints directory to save the converted checkpoints.
        ckpt_prefix (str): The destination checkpoint name prefix.
        src_strategy_file (str, optional): Name of source sharding strategy file; ``None``: the source is not
            sharded. Default: ``None``.
        dst_strategy_file (str, optional): Name of destination sharding strategy file; ``None``: the destination
            is not sharded. Default: ``None``.
        process_num (int, optional): Number of processes to use for parallel processing. Default: ``1``.
        output_format (str, optional): The format of the output checkpoints, ``"ckpt"`` or ``"safetensors"``
            (the latter only from safetensors sources, as MindSpore). Default: ``"ckpt"``.

    Raises:
        ValueError: `src_strategy_file` or `dst_strategy_file` is incorrect.
        NotADirectoryError: `src_checkpoints_dir` or `dst_checkpoints_dir` is not a directory.
        ValueError: The checkpoint file is missing in `src_checkpoints_dir`.
        TypeError: `src_strategy_file` or `dst_strategy_file` is not a string.

    Examples:
        >>> import mindspore as ms
        >>> ms.transform_checkpoints("./src", "./dst", "dst_checkpoint", "./src_strategy.ckpt", "./dst_strategy.ckpt")
    """
    api = "transform_checkpoints"
    if not isinstance(src_checkpoints_dir, str) or not os.path.isdir(src_checkpoints_dir):
        raise NotADirectoryError(f"src_checkpoints_dir {src_checkpoints_dir} is not a directory.")
    safetensors_files = _collect_rank_files(src_checkpoints_dir, "safetensors")
    ckpt_files = _collect_rank_files(src_checkpoints_dir, "ckpt")
    if safetensors_files and ckpt_files:
        raise ValueError(f"For '{api}', the 'src_checkpoints_dir' cannot contain both ckpt file and safetensors file "
                         f"simultaneously")
    if not safetensors_files and not ckpt_files:
        raise ValueError(f"For '{api}', the 'src_checkpoints_dir' can not be empty.")
    if output_format not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{api}', 'output_format' must be 'ckpt' or 'safetensors', but got {output_format}.")
    if ckpt_files and output_format == "safetensors":
        raise ValueError(f"For '{api}', 'output_format' can not be 'safetensors' when 'src_checkpoints_dir' only "
                         f"contains ckpt file.")
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    if not isinstance(process_num, int) or isinstance(process_num, bool) or process_num < 1:
        raise ValueError(f"For '{api}', 'process_num' must be a positive int, but got {process_num!r}.")
    for arg, path in (("src_strategy_file", src_strategy_file), ("dst_strategy_file", dst_strategy_file)):
        if path and os.path.dirname(path) and not os.path.exists(os.path.dirname(path)):
            raise ValueError(f"The director of {arg}: {os.path.dirname(path)} is not exists.")
    if os.path.exists(dst_checkpoints_dir) and not os.path.isdir(dst_checkpoints_dir):
        raise NotADirectoryError(f"The path({dst_checkpoints_dir}) is a file path, it should be a directory path.")
    os.makedirs(dst_checkpoints_dir, exist_ok=True)
    fmt, files = ("safetensors", safetensors_files) if safetensors_files else ("ckpt", ckpt_files)
    src = _Side(src_strategy_file, api, "src_strategy_file")
    dst = _Side(dst_strategy_file, api, "dst_strategy_file")
    jobs = []
    for rank in range(dst.device_num):
        needed = [0] if not src.sharded() else _rank_list(rank, src, dst)
        for r in needed:
            if r not in files:
                raise ValueError(f"The checkpoint file of rank{r} is needed for converting rank{rank}'s checkpoint, "
                                 f"but it is missing.")
        suffix = "safetensors" if output_format == "safetensors" else "ckpt"
        out_path = os.path.join(os.path.realpath(dst_checkpoints_dir), f"rank_{rank}", f"{ckpt_prefix}{rank}.{suffix}")
        jobs.append((rank, {r: files[r] for r in needed}, src_strategy_file, dst_strategy_file, fmt, out_path,
                     output_format))
    if process_num > 1 and len(jobs) > 1:
        # spawned, not forked: a fork of a process whose kernels run threads can deadlock
        with ProcessPoolExecutor(max_workers=min(process_num, len(jobs)),
                                 mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(_transform_job, jobs))
    else:
        for job in jobs:
            _transform_job(job)


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None,
                               dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """
    Load checkpoint info from a specified file. If the specified ckpt_file_dir path contains multiple
    checkpoint files, all checkpoint files will be loaded one by one and the combined dictionary will be returned.

    Args:
        ckpt_file_dir (str): Checkpoint file directory.
        net (Cell): The network where the parameters will be loaded. Default: ``None``.
        strict_load (bool): Whether to strict load the parameter into net. Default: ``False``.
        filter_prefix (Union[str, list[str], tuple[str]]): Parameters starting with it are not loaded.
            Default: ``None``.
        dec_key (Union[None, bytes]): Byte type key used for decryption. Default: ``None``.
        dec_mode (str): Decryption mode. Default: ``"AES-GCM"``.
        specify_prefix (Union[str, list[str], tuple[str]]): Only parameters starting with it are loaded.
            Default: ``None``.
        choice_func (Union[None, function]): ``name -> bool``, whether a parameter is loaded. Default: ``None``.

    Returns:
        Dict, key is parameter name, value is a Parameter or string.

    Raises:
        TypeError: Input ckpt_file_dir is not a string.
        ValueError: Checkpoint file directory doesn't exist. Or it's not a directory.
    """
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    parameter_dict = {}
    for checkpoint_file in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        parameter_dict.update(ms.load_checkpoint(checkpoint_file, net, strict_load, filter_prefix, dec_key,
                                                 dec_mode, specify_prefix, choice_func))
    return parameter_dict

