"""``mindspore.parallel._utils``: MindSpore's small readers of the auto-parallel context, which libraries that write
their own training wrappers (MindArmour's DPModel, MindFormers) import by name.

Each one reads the public context (``mindspore.get_auto_parallel_context``) and the communication state, so it
gives what the wrappers of ``mindspore.nn`` see: stand-alone runs have one device, no gradient mean and no stages.
"""
from mindspore import context

__all__ = []


def _get_parallel_mode():
    """The parallel mode string: ``"stand_alone"``, ``"data_parallel"``, ``"semi_auto_parallel"``, ..."""
    return context.get_auto_parallel_context("parallel_mode")


def _is_in_auto_parallel_mode():
    """Whether the mode is semi-auto or auto parallel (operators are sharded)."""
    return _get_parallel_mode() in ("semi_auto_parallel", "auto_parallel")


def _is_sharding_propagation():
    """Whether strategies are found by sharding propagation (``search_mode="sharding_propagation"``)."""
    return context.get_auto_parallel_context("search_mode") == "sharding_propagation"


def _get_gradients_mean():
    """Whether data-parallel gradient reduction averages (``gradients_mean``) rather than sums."""
    return context.get_auto_parallel_context("gradients_mean")


def _get_device_num():
    """The number of devices the gradients are reduced over: 1 stand-alone, else the context's ``device_num``
    (the world size unless the user set it)."""
    if _get_parallel_mode() == "stand_alone":
        return 1
    return context.get_auto_parallel_context("device_num")


def _get_global_rank():
    """This process's rank in the world (0 before ``init()``)."""
    from mindspore.communication.management import GlobalComm, get_rank  # pylint: disable=import-outside-toplevel
    return get_rank() if GlobalComm.INITED else 0


def _get_pipeline_stages():
    """The number of pipeline stages (1 without pipeline parallelism)."""
    return context.get_auto_parallel_context("pipeline_stages")


def _get_enable_parallel_optimizer():
    """Whether the optimizer's states are sharded across data-parallel ranks."""
    return context.get_auto_parallel_context("enable_parallel_optimizer")
