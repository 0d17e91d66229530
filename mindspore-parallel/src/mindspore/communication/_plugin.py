"""The plugin of mindspore-parallel: offers the collective backends to core and to ``init``.

``ms_collective_backends`` returns ``{"mpi": MPIBackend}`` when mpi4py is importable, ``{}``
otherwise (``pip install mindspore-parallel[mpi]`` provides it). Importing this module does not
import mpi4py, and so does not initialise MPI.
"""
import importlib.util
import os

from mindspore.plugin import PLUGIN_API_VERSION, hookimpl

__version__ = "2.10.0"


def mpi4py_available():
    try:
        return importlib.util.find_spec("mpi4py") is not None
    except (ImportError, ValueError):
        return False


def _mpi_factory():
    from mindspore.communication._mpi import MPIBackend
    return MPIBackend()


@hookimpl
def ms_plugin_info():
    return {"name": "parallel", "version": __version__, "api_version": PLUGIN_API_VERSION}


@hookimpl
def ms_collective_backends():
    return {"mpi": _mpi_factory} if mpi4py_available() else {}


@hookimpl
def ms_sharding():
    from mindspore.parallel import _dispatch, _layouts, _shard
    return {"primitive_shard": _shard.primitive_shard, "cell_shard": _shard.cell_shard, "sync": _dispatch.sync,
            "Layout": _shard.Layout, "parameter_layouts": _layouts.parameter_layouts}


def marked_grad_allreduce(node):
    """Whether IR node ``node`` applies an ``AllReduce`` that :class:`~mindspore.nn.DistributedGradReducer` marked
    (attribute ``grad_bucket``): the ones the overlap pass (``mindspore.parallel._overlap``) rewrites."""
    from mindspore.plugin import prim_of
    prim = prim_of(node)
    return prim is not None and prim.name == "AllReduce" and prim.attrs.get("grad_bucket", False)


def _overlap_grad_allreduce(graph):
    """The overlap pass, ``mindspore.parallel`` imported only for a graph that has a marked all-reduce (importing it
    took 50 ms of a program's first compilation on the development machine, for nothing in a single process)."""
    from mindspore.plugin import graphs_of
    if not any(marked_grad_allreduce(n) for g in graphs_of(graph) for n in g.nodes):
        return False
    from mindspore.parallel import _overlap
    return _overlap.overlap_grad_allreduce(graph)


@hookimpl
def ms_register_passes(registry):
    # after the CPU fusions (priorities 5-20): the packing applies are plain ones by then; on the GPU the starts are
    # NCCL on a stream of their own, and a graph with them is never captured as a CUDA graph
    for target in ("CPU", "GPU"):
        registry.register("parallel_overlap_grad_allreduce", _overlap_grad_allreduce, target=target, priority=40)


@hookimpl
def ms_environment_info():
    from mindspore.communication.management import launcher_world_size
    info = {"launcher_world_size": str(launcher_world_size())}
    if not mpi4py_available():
        info["mpi4py"] = "not installed (pip install mindspore-parallel[mpi])"
        return info
    try:
        from importlib.metadata import version
        info["mpi4py"] = version("mpi4py")
    except Exception:  # noqa: BLE001 - mpi4py importable from a path without metadata
        info["mpi4py"] = "installed"
    info["mpi_launcher_env"] = ",".join(v for v in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK")
                                        if v in os.environ) or "none"
    if "MS_WORKER_NUM" in os.environ:
        info["msrun_env"] = f"MS_WORKER_NUM={os.environ['MS_WORKER_NUM']},RANK_ID={os.environ.get('RANK_ID', '')}"
    return info
