"""``mindspore.device_context.ascend.op_tuning``: Ascend operator compilation and tuning settings (see
:mod:`._conf`)."""
from mindspore.device_context.ascend import _conf

__all__ = ["op_compile", "aoe_tune_mode", "aoe_job_type", "aclnn_cache"]


def op_compile(value):
    """Whether online compilation of operators is preferred.

    Examples:
        >>> ms.device_context.ascend.op_tuning.op_compile(True)
    """
    if not _conf.supported():
        return
    if value not in [True, False]:
        raise TypeError(f"For 'op_compile', the type of input value must be one of [True, False], but got {value}.")
    _conf.store("op_compile", bool(value))


def aoe_tune_mode(tune_mode):
    """The AOE tuning mode, ``"online"`` or ``"offline"``.

    Examples:
        >>> ms.device_context.ascend.op_tuning.aoe_tune_mode("online")
    """
    if not _conf.supported():
        return
    if tune_mode not in ["online", "offline"]:
        raise ValueError(f"For 'aoe_tune_mode', the value of tune_mode must be one of ['online', 'offline'], but got "
                         f"{tune_mode}.")
    _conf.store("aoe_tune_mode", tune_mode)


def aoe_job_type(config):
    """The AOE job type, ``"1"`` (subgraph tuning) or ``"2"`` (operator tuning).

    Examples:
        >>> ms.device_context.ascend.op_tuning.aoe_job_type("1")
    """
    if not _conf.supported():
        return
    if config not in ["1", "2"]:
        raise ValueError(f"For 'aoe_job_type', the value of config must be one of ['1', '2'], but got {config}.")
    _conf.store("aoe_job_type", config)


def aclnn_cache(enable_global_cache=False, cache_queue_length=10000):
    """The aclnn cache: global in GRAPH_MODE or not, and its queue length.

    Examples:
        >>> ms.device_context.ascend.op_tuning.aclnn_cache(True, 10000)
    """
    if not _conf.supported():
        return
    if not isinstance(enable_global_cache, bool):
        raise TypeError(f"For 'aclnn_cache', the type of enable_global_cache must be bool, but got "
                        f"{type(enable_global_cache).__name__}.")
    if not isinstance(cache_queue_length, int) or isinstance(cache_queue_length, bool) or cache_queue_length < 0:
        raise ValueError(f"For 'aclnn_cache', the cache_queue_length must be a non-negative int, but got "
                         f"{cache_queue_length}.")
    _conf.store("aclnn_cache", (enable_global_cache, cache_queue_length))
