"""``get_ckpt_path_with_strategy``: find a usable checkpoint of the current rank among the ``rank_<id>`` copies of
the ranks that hold the same parameter slices (its data-parallel replicas), from a parallel strategy file.

The strategy file is read by mindspore-parallel (the add-on distribution that writes them); the rank comes from
``mindspore.communication`` (initialised first, as MindSpore requires). Replica groups are derived from each
parameter's device matrix and tensor map, and split further by optimizer weight sharding, as MindSpore does.
"""
from __future__ import annotations

import importlib
import math
import os
import re

__all__ = ["get_ckpt_path_with_strategy", "parameter_redundancy"]


def _parallel(module, what):
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise ModuleNotFoundError(f"For 'get_ckpt_path_with_strategy', {what} is provided by the add-on "
                                  f"distribution 'mindspore-parallel'. Install it with 'pip install "
                                  f"mindspore-parallel'.") from e


def _replica_groups(dev_matrix, tensor_map, initial_rank):
    """Ranks grouped by the slice they hold: ranks whose coordinates agree on every device axis the tensor is split
    along hold the same data."""
    dev_matrix = list(dev_matrix)
    deployed = set()   # tensor-map values: device axes counted from the right
    for entry in tensor_map:
        for i in (entry if isinstance(entry, (tuple, list)) else (entry,)):
            if i != -1:
                deployed.add(i)
    groups = {}
    for rank in range(math.prod(dev_matrix) if dev_matrix else 1):
        coord_from_right, rest = [], rank
        for size in reversed(dev_matrix):
            coord_from_right.append(rest % size)
            rest //= size
        # the slice a rank holds is named by its coordinates on the deployed axes, listed by tensor-map value
        # (MindSpore orders the groups by this key)
        key = tuple(c if i in deployed else 0 for i, c in enumerate(coord_from_right))
        groups.setdefault(key, []).append(rank + initial_rank)
    return tuple(tuple(v) for _, v in sorted(groups.items()))


def _split_by_optimizer_shard(groups, step, size):
    if size == 0:
        return groups
    if size != -1:
        parts = size
    elif groups:
        parts = len(groups) * len(groups[0]) // step
    else:
        raise ValueError("For get_parameter_redundancy, the format of the parallel communication domain for the "
                         "optimizer is incorrect.")
    out = []
    for ranks in groups:
        if len(ranks) % parts == 0:
            out.extend(ranks[i::parts] for i in range(parts))
    return tuple(out)


def parameter_redundancy(strategy_file, rank):
    """``{param_name: ((ranks holding one slice), ...)}`` of a strategy file, for the pipeline stage of ``rank``."""
    read_layouts = _parallel("mindspore.parallel._strategy_file", "reading strategy files").read_layouts
    layouts = read_layouts(strategy_file, api="get_ckpt_path_with_strategy")
    if not layouts:
        return {}
    first = next(iter(layouts.values()))
    dev_num = math.prod(first.dev_matrix) if first.dev_matrix else 1
    initial_rank = (rank // dev_num) * dev_num
    out = {}
    for name, layout in layouts.items():
        groups = _replica_groups(layout.dev_matrix, layout.tensor_map, initial_rank)
        out[name] = _split_by_optimizer_shard(groups, layout.opt_weight_shard_step, layout.opt_weight_shard_size)
    return dict(sorted(out.items()))


def _cur_rank_dp(strategy_file, rank):
    """The ranks replicating every parameter slice of ``rank`` (just ``rank`` when the groups disagree)."""
    best, best_set = (), set()
    for name, groups in parameter_redundancy(strategy_file, rank).items():
        if name.startswith("accu_grads") or name.startswith("inputs"):
            continue
        for group in groups:
            if rank not in group:
                continue
            if not best_set or len(group) < len(best):
                if best_set and not set(group).issubset(best_set):
                    return (rank,)
                best, best_set = group, set(group)
            elif not best_set.issubset(set(group)):
                return (rank,)
    return best


def get_ckpt_path_with_strategy(cur_ckpt_path, cur_strategy_path):
    """Find an existing checkpoint for the current rank among its replicas' ``rank_<id>`` copies.

    Args:
        cur_ckpt_path (str): the checkpoint path the current rank needs; ``rank_<id>`` in it names the rank.
        cur_strategy_path (str): the strategy file of the current rank.

    Returns:
        str, an existing checkpoint path (``cur_ckpt_path`` itself if it exists), or ``None``.

    Examples:
        >>> from mindspore import get_ckpt_path_with_strategy
        >>> # after mindspore.communication.init():
        >>> # get_ckpt_path_with_strategy("./rank_5/iteration-1_40.ckpt", "./strategy/src_strategy_5.ckpt")
    """
    cur_rank = _parallel("mindspore.communication", "the communication service").get_rank()
    if f"rank_{cur_rank}" in cur_ckpt_path and os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    for rank in _cur_rank_dp(cur_strategy_path, cur_rank):
        candidate = re.sub(r"rank_\d+", f"rank_{rank}", cur_ckpt_path)
        if os.path.isfile(candidate):
            return candidate
    return None
