"""``convert_*``: MindSpore 2.10's names for the checkpoint transforms (same behaviour, see
:mod:`mindspore.parallel.checkpoint_transform`)."""
from __future__ import annotations

from mindspore.parallel.checkpoint_transform import (rank_list_for_transform, transform_checkpoint_by_rank,
                                                     transform_checkpoints)

__all__ = ["rank_list_for_convert", "convert_checkpoint_by_rank", "convert_checkpoints"]


def rank_list_for_convert(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """
    List of original distributed checkpoint rank index for obtaining the target checkpoint of a rank_id during the
    distributed checkpoint conversion. Same as :func:`mindspore.parallel.rank_list_for_transform`.

    Args:
        rank_id (int): The rank of which distributed checkpoint needs to be obtained after conversion.
        src_strategy_file (str): Name of source sharding strategy file. Default: ``None``.
        dst_strategy_file (str): Name of destination sharding strategy file. Default: ``None``.

    Returns:
        List, the rank list required for converting the distributed checkpoint of rank_id.

    Examples:
        >>> from mindspore.parallel import rank_list_for_convert
        >>> rank_list = rank_list_for_convert(0, "./src_strategy.ckpt", "./dst_strategy.ckpt")
    """
    return rank_list_for_transform(rank_id, src_strategy_file, dst_strategy_file)


def convert_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                               src_strategy_file=None, dst_strategy_file=None):
    """
    Convert distributed checkpoint from source sharding strategy to destination sharding strategy by rank
    for a network. Same as :func:`mindspore.parallel.transform_checkpoint_by_rank`.

    Args:
        rank_id (int): The rank of which distributed checkpoint needs to be obtained after conversion.
        checkpoint_files_map (dict): ``{rank id: checkpoint file name}``.
        save_checkpoint_file_name (str): The file name to save the converted checkpoint.
        src_strategy_file (str): Name of source sharding strategy file. Default: ``None``.
        dst_strategy_file (str): Name of destination sharding strategy file. Default: ``None``.

    Examples:
        >>> from mindspore.parallel import convert_checkpoint_by_rank
        >>> convert_checkpoint_by_rank(0, {0: "./rank_0/a.ckpt"}, "./new_rank0.ckpt", None, None)
    """
    transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file, dst_strategy_file)


def convert_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file=None,
                        dst_strategy_file=None, process_num=1, output_format="ckpt"):
    """
    Convert distributed checkpoint from source sharding strategy to destination sharding strategy.
    Same as :func:`mindspore.parallel.transform_checkpoints`.

    Args:
        src_checkpoints_dir (str): The source checkpoints directory (``rank_<N>/*.ckpt``).
        dst_checkpoints_dir (str): The destination checkpoints directory.
        ckpt_prefix (str): The destination checkpoint name prefix.
        src_strategy_file (str, optional): Name of source sharding strategy file. Default: ``None``.
        dst_strategy_file (str, optional): Name of destination sharding strategy file. Default: ``None``.
        process_num (int, optional): Number of processes to use. Default: ``1``.
        output_format (str, optional): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Examples:
        >>> from mindspore.parallel import convert_checkpoints
        >>> convert_checkpoints("./src", "./dst", "dst_checkpoint", "./src_strategy.ckpt", "./dst_strategy.ckpt")
    """
    transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file,
                          dst_strategy_file, process_num, output_format)
