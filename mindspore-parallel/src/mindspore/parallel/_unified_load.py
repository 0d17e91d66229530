"""Unified (whole-parameter) safetensors: :func:`unified_safetensors` writes them from distributed ones, and
``load_distributed_checkpoint(format="safetensors")`` slices them again.

:func:`unified_safetensors` merges every parameter of the strategy from the ranks' ``rank_<N>/*.safetensors``
files into ``part<i>.safetensors`` files of at most 3 GiB each, lists them in ``param_name_map.json``
(``{"metadata": {"total_size"}, "weight_map": {name: file}}``) and keeps the entries the strategy does not
describe (step counters, learning rate) in ``hyper_param.safetensors``, the layout MindSpore 2.10 writes.
Slices saved with ``remove_redundancy`` (each distinct slice in one rank's file only) merge the same way.

Loading: with a network, this rank's slice of every parameter of the predict strategy is loaded into it;
without one, the slices of one rank (``rank_id``) or of every rank of the strategy are saved to
``dst_safetensors_dir/rank_<r>/net.<output_format>``. ``name_map`` maps a network (strategy) name to the name
in the files.
"""
from __future__ import annotations

import glob
import json
import logging
import os
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import mindspore as ms

__all__ = ["load_unified_safetensors", "unified_safetensors"]

_PART_BYTES = 3 * 1024 ** 3   # MindSpore splits unified weights into files of about 3 GiB

logger = logging.getLogger("mindspore")
_API = "load_distributed_checkpoint"


def _check_args(unified_dir, unsupported):
    if unified_dir is None:
        raise ValueError(f"For '{_API}', 'unified_safetensors_dir' can not be None when format is 'safetensors'.")
    if not isinstance(unified_dir, str) or not os.path.isdir(unified_dir):
        raise ValueError(f"For '{_API}', 'unified_safetensors_dir' {unified_dir} is not a directory.")
    checkpoint_filenames, train_strategy_filename, dec_key, strict_load, dec_mode = unsupported
    for value in (checkpoint_filenames, train_strategy_filename, dec_key):
        if value is not None:
            raise ValueError(f"For '{_API}', {value} must be None when format is 'safetensors'.")
    if strict_load or dec_mode != "AES-GCM":
        raise ValueError(f"For '{_API}', strict_load and dec_mode must be default when format is 'safetensors'.")


def _read_unified(unified_dir):
    files = sorted(glob.glob(os.path.join(unified_dir, "*.safetensors")))
    if not files:
        raise ValueError(f"For '{_API}', the 'unified_safetensors_dir' {unified_dir} has no '.safetensors' file.")
    params = {}
    for path in files:
        params.update(ms.load_checkpoint(path, format="safetensors"))
    return params


def _rank_params(full_params, layouts, rank, name_map):
    from mindspore.parallel.checkpoint_transform import _array, _param, _predict_slice
    out = {}
    names = list(layouts) if layouts is not None else [k for k in full_params]
    for name in names:
        key = name_map.get(name, name) if name_map else name
        if key not in full_params or isinstance(full_params[key], str):
            continue
        value = full_params[key]
        data = _array(value)
        if layouts is not None:
            layout, group = layouts[name]
            data = _predict_slice(data, name, layout, group, rank, _API)
        out[name] = _param(name, data, value.requires_grad, value.layerwise_parallel)
    return out


def _save_job(job):
    unified_dir, predict_strategy, dst_dir, rank, output_format, name_map = job
    from mindspore.parallel.checkpoint_transform import _predict_layouts
    params = _rank_params(_read_unified(unified_dir), _predict_layouts(predict_strategy), rank, name_map)
    target = os.path.join(dst_dir, f"rank_{rank}")
    os.makedirs(target, exist_ok=True)
    ms.save_checkpoint(params, os.path.join(target, f"net.{output_format}"), format=output_format)


def load_unified_safetensors(network, predict_strategy, unified_dir, dst_dir, rank_id, output_format, name_map,
                             max_process_num, return_param_dict, unsupported):
    """The ``format="safetensors"`` branch of :func:`load_distributed_checkpoint` (see the module docstring)."""
    from mindspore.parallel.checkpoint_transform import _predict_layouts
    _check_args(unified_dir, unsupported)
    layouts = _predict_layouts(predict_strategy)
    if network is not None:
        if rank_id is None:
            try:
                from mindspore.communication import get_rank
                rank_id = get_rank()
            except RuntimeError:
                rank_id = 0
                logger.warning("Get rank failed, default loading weight for rank 0.")
        params = _rank_params(_read_unified(unified_dir), layouts, rank_id, name_map)
        if return_param_dict:
            return params
        return ms.load_param_into_net(network, params)
    if dst_dir is None:
        raise ValueError(f"For '{_API}', 'dst_safetensors_dir' can not be None when network is None.")
    if rank_id is not None:
        ranks = [rank_id]
    elif layouts:
        first = next(iter(layouts.values()))[0]
        stages = {s for layout, _ in layouts.values() for s in layout.stages}
        ranks = list(range(first.device_num * len(stages)))
    else:
        ranks = [0]
    jobs = [(unified_dir, predict_strategy, dst_dir, r, output_format, name_map) for r in ranks]
    workers = min(int(max_process_num), len(jobs))
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(_save_job, jobs))
    else:
        for job in jobs:
            _save_job(job)
    return True


# ------------------------------------------------------------------------------------ unified_safetensors

def _rank_files(src_dir, file_suffix):
    files = {}
    for directory in glob.glob(os.path.join(src_dir, "rank_[0-9]*")):
        rank = os.path.basename(directory)[len("rank_"):]
        if not rank.isdigit() or not os.path.isdir(directory):
            continue
        pattern = f"*{file_suffix}.safetensors" if file_suffix else "*.safetensors"
        found = sorted(glob.glob(os.path.join(directory, pattern)))
        if found:
            files[int(rank)] = found[-1]
    return files


def _split_parts(sizes, part_bytes):
    """Greedy split of ``{name: bytes}`` (in order) into lists of names of at most ``part_bytes`` each."""
    parts, current, used = [], [], 0
    for name, size in sizes.items():
        if current and used + size > part_bytes:
            parts.append(current)
            current, used = [], 0
        current.append(name)
        used += size
    if current:
        parts.append(current)
    return parts


def unified_safetensors(src_dir, src_strategy_file, dst_dir, merge_with_redundancy=True, file_suffix=None,
                        max_process_num=64, choice_func=None, split_dst_file=()):
    """
    Merge multiple safetensor files into a unified safetensor file.

    Every parameter the strategy describes is rebuilt whole from the ranks' slices and written to
    ``dst_dir/part<i>.safetensors`` (files of about 3 GiB), with ``param_name_map.json`` naming the file of
    each parameter and ``hyper_param.safetensors`` holding rank 0's entries the strategy does not describe.

    Args:
        src_dir (str): Source weight saving directory (``rank_<N>/*.safetensors``).
        src_strategy_file (str): Source weight segmentation strategy file.
        dst_dir (str): Target save directory.
        merge_with_redundancy (bool, optional): Whether the source files are complete (``True``) or were saved
            with ``remove_redundancy`` (each distinct slice in one rank's file). Both merge the same way here:
            every distinct slice is taken from a rank that has it. Default: ``True``.
        file_suffix (str, optional): Only merge files whose name ends with ``<file_suffix>.safetensors``.
            Default: ``None``.
        max_process_num (int, optional): Maximum number of processes; the parts are merged in memory and written
            by this process, so it is only checked. Default: ``64``.
        choice_func (callable, optional): ``name -> bool or str``: ``False`` leaves a parameter out, a string
            renames it in the unified files. Default: ``None``.
        split_dst_file (tuple, optional): ``(k, n)``: write only the k-th (1-based) of n shares of the part
            files, to spread the work over machines. Default: ``()``.

    Raises:
        ValueError: If the safetensors file of rank is missing.

    Examples:
        >>> import mindspore as ms
        >>> ms.parallel.unified_safetensors("./4p_safetensors", "./strategy_4p.ckpt", "./unified")
    """
    api = "unified_safetensors"
    from mindspore.parallel._strategy_file import read_layouts
    if not isinstance(src_dir, str) or os.path.isfile(src_dir):
        raise ValueError(f"For '{api}', the 'src_dir' can not be a file.")
    if split_dst_file and (len(split_dst_file) != 2 or not 1 <= split_dst_file[0] <= split_dst_file[1]):
        raise ValueError(f"For '{api}', 'split_dst_file' must be (current, total) with 1 <= current <= total, but "
                         f"got {split_dst_file}.")
    if not isinstance(merge_with_redundancy, bool):
        raise TypeError(f"For '{api}', 'merge_with_redundancy' must be bool, but got "
                        f"{type(merge_with_redundancy).__name__}.")
    if not isinstance(max_process_num, int) or isinstance(max_process_num, bool) or max_process_num < 1:
        raise ValueError(f"For '{api}', 'max_process_num' must be a positive int, but got {max_process_num!r}.")
    layouts = read_layouts(src_strategy_file, api)
    files = _rank_files(src_dir, file_suffix)
    if glob.glob(os.path.join(src_dir, "rank_[0-9]*", "*.ckpt")) and files:
        raise ValueError(f"For '{api}', the 'src_dir' cannot contain both ckpt file and safetensors file "
                         f"simultaneously")
    device_num = next(iter(layouts.values())).device_num if layouts else 1
    missing = [r for r in range(device_num) if r not in files]
    if missing:
        raise ValueError(f"The safetensor file of rank{missing[0]} is needed for converting rank0's safetensor, "
                         f"but it is missing.")
    per_rank = {r: ms.load_checkpoint(f, format="safetensors") for r, f in files.items()}
    names, renamed = [], {}
    present = set().union(*(d.keys() for d in per_rank.values()))
    for name in layouts:
        if name not in present or name.startswith("accu_grads"):
            continue
        choice = choice_func(name) if choice_func is not None else True
        if choice is False:
            continue
        names.append(name)
        renamed[name] = choice if isinstance(choice, str) else name
    os.makedirs(dst_dir, exist_ok=True)
    merged = {name: _merged(name, layouts[name], per_rank, api) for name in names}
    sizes = {name: int(a.nbytes) for name, a in merged.items()}
    parts = _split_parts(sizes, _PART_BYTES)
    first = not split_dst_file or split_dst_file[0] == 1
    if first:
        _write_maps(dst_dir, parts, renamed, sizes, per_rank.get(0, {}), set(names))
    chosen = range(len(parts))
    if split_dst_file:
        k, n = split_dst_file
        share = [i for i in chosen if i * n // max(len(parts), 1) == k - 1]
        chosen = share
    from mindspore.parallel.checkpoint_transform import _param
    for i in chosen:
        params = {renamed[name]: _param(renamed[name], merged[name]) for name in parts[i]}
        ms.save_checkpoint(params, os.path.join(dst_dir, f"part{i}.safetensors"), format="safetensors")


def _merged(name, layout, per_rank, api):
    from mindspore.parallel.checkpoint_transform import _array, _merge
    arrays = {r: _array(d[name]) for r, d in per_rank.items() if name in d}
    full_shape = layout.tensor_shape or layout.full_shape_from_slice(arrays[min(arrays)].shape, opt=True)
    return _merge(layout, name, tuple(full_shape), arrays, api)


def _write_maps(dst_dir, parts, renamed, sizes, rank0, merged_names):
    weight_map = {renamed[name]: f"part{i}.safetensors" for i, part in enumerate(parts) for name in part}
    doc = {"metadata": {"total_size": int(sum(sizes.values()))}, "weight_map": weight_map}
    with open(os.path.join(dst_dir, "param_name_map.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=4))
    hyper = {k: v for k, v in rank0.items() if k not in merged_names and not isinstance(v, str)}
    if hyper:
        ms.save_checkpoint(hyper, os.path.join(dst_dir, "hyper_param.safetensors"), format="safetensors")
