"""``mindspore.parallel``: parallel training (distribution ``mindspore-parallel``).

This subpackage lives in the ``mindspore`` namespace but is installed by ``mindspore-parallel``.
The parallel modes themselves are chosen with ``mindspore.set_auto_parallel_context`` (core), and
processes are joined with :mod:`mindspore.communication`. SEMI_AUTO_PARALLEL: operator strategies
(``Primitive.shard``), :func:`shard` for Cells and functions, :class:`Layout`.
"""
__all__ = []

# --- operator sharding (SEMI_AUTO_PARALLEL / AUTO_PARALLEL) ---
from mindspore.parallel.shard import Layout, shard  # noqa: E402

__all__ += ["Layout", "shard"]

# --- the AUTO_PARALLEL search's parameters, and keeping parameter copies equal ---
from mindspore.parallel.algo_parameter_config import (get_algo_parameters, reset_algo_parameters,  # noqa: E402
                                                      set_algo_parameters, set_op_strategy_config)
from mindspore.parallel.parameter_broadcast import parameter_broadcast  # noqa: E402
from mindspore.parallel._param_sync import sync_pipeline_shared_parameters  # noqa: E402

__all__ += ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "set_op_strategy_config",
            "parameter_broadcast", "sync_pipeline_shared_parameters"]

# --- distributed checkpoints and the strategy file (checkpoint_transform.py, _strategy_file.py) ---
from mindspore.parallel.checkpoint_transform import (build_searched_strategy, load_distributed_checkpoint,  # noqa: E402
                                                     load_segmented_checkpoints, merge_pipeline_strategys,
                                                     merge_sliced_parameter, rank_list_for_transform,
                                                     restore_group_info_list, transform_checkpoint_by_rank,
                                                     transform_checkpoints, unified_safetensors)
from mindspore.parallel.checkpoint_convert import (convert_checkpoint_by_rank, convert_checkpoints,  # noqa: E402
                                                   rank_list_for_convert)

__all__ += ["build_searched_strategy", "load_distributed_checkpoint", "load_segmented_checkpoints",
            "merge_pipeline_strategys", "merge_sliced_parameter", "rank_list_for_transform",
            "restore_group_info_list", "transform_checkpoint_by_rank", "transform_checkpoints",
            "convert_checkpoint_by_rank", "convert_checkpoints", "rank_list_for_convert", "unified_safetensors"]
# --- end distributed checkpoints ---

# --- the parallel Cells: ``mindspore.parallel.nn`` is an attribute of the package, as in MindSpore (a script writes
# ``ms.parallel.nn.MicroBatchInterleaved`` after ``import mindspore as ms``) ---
from mindspore.parallel import nn  # noqa: E402,F401
