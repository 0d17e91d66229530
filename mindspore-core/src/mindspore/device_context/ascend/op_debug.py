"""``mindspore.device_context.ascend.op_debug``: Ascend operator debugging settings (see :mod:`._conf`)."""
from mindspore.device_context.ascend import _conf

__all__ = ["execute_timeout", "debug_option", "aclinit_config"]

_ACLINIT_KEYS = ["max_opqueue_num", "err_msg_mode", "dump"]


def execute_timeout(op_timeout):
    """The longest an operator may run, in seconds (0: no limit).

    Examples:
        >>> ms.device_context.ascend.op_debug.execute_timeout(100)
    """
    if not _conf.supported():
        return
    if not isinstance(op_timeout, int) or isinstance(op_timeout, bool) or op_timeout < 0:
        raise ValueError("The num of execute_timeout must bigger than or equal to 0.")
    _conf.store("execute_timeout", op_timeout)


def debug_option(option_value):
    """Ascend operator debugging; only ``"oom"`` (memory access violation detection).

    Examples:
        >>> ms.device_context.ascend.op_debug.debug_option("oom")
    """
    if not _conf.supported():
        return
    if not isinstance(option_value, str):
        raise TypeError(f"For 'device_context.ascend.op_debug.debug_option(option_value)', the type of "
                        f"'option_value' must be str, but got {type(option_value)}.")
    if option_value != "oom":
        raise ValueError(f"For 'device_context.ascend.op_debug.debug_option(option_value)', the value of "
                         f"'option_value' must be one of ['oom'], but got {option_value}.")
    _conf.store("debug_option", option_value)


def aclinit_config(config):
    """Options for aclInit: ``max_opqueue_num`` and ``err_msg_mode`` (str), ``dump`` (dict).

    Examples:
        >>> ms.device_context.ascend.op_debug.aclinit_config({"max_opqueue_num": "20000", "err_msg_mode": "1"})
    """
    if not _conf.supported():
        return
    for key, value in config.items():
        if key not in _ACLINIT_KEYS:
            raise ValueError(f"For 'ms.device_context.ascend.op_debug.aclinit_config', the key must be one of "
                             f"{_ACLINIT_KEYS}, but got {key}.")
        want = dict if key == "dump" else str
        if not isinstance(value, want):
            raise TypeError(f"For 'ms.device_context.ascend.op_debug.aclinit_config', the type of argument {key} "
                            f"must be {want.__name__}, but got {type(value).__name__}.")
    _conf.store("aclinit_config", dict(config))
