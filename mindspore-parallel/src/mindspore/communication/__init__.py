"""``mindspore.communication``: collective communication (distribution ``mindspore-parallel``).

This subpackage lives in the ``mindspore`` namespace but is installed by ``mindspore-parallel``.
Call :func:`init` first; in a single process it is rank 0 of 1, and under ``mpiexec -n N`` the
processes are joined over MPI (``pip install mindspore-parallel[mpi]``).

Examples:
    >>> from mindspore.communication import init, get_rank, get_group_size
    >>> init()
    >>> get_rank(), get_group_size()
    (0, 1)

The collectives as functions are in :mod:`mindspore.communication.comm_func` (``all_reduce``, ``broadcast``,
``isend``/``irecv`` ...); as primitives they are ``mindspore.ops.AllReduce`` and its family.
"""
from mindspore.communication.management import (HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP,
                                                GlobalComm, create_group, destroy_group, get_comm_name,
                                                get_group_rank_from_world_rank, get_group_size, get_local_rank,
                                                get_local_rank_size, get_process_group_ranks, get_rank,
                                                get_world_rank_from_group_rank, init, release)
from mindspore.communication import comm_func  # noqa: E402,F401 - mindspore.communication.comm_func, as MindSpore

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "create_group", "destroy_group",
           "get_process_group_ranks", "get_comm_name", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]
