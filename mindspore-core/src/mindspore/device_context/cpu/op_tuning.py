"""``mindspore.device_context.cpu.op_tuning``: CPU kernel settings."""
from mindspore._errors import MSTypeError, MSValueError

__all__ = ["threads_num"]


def threads_num(num):
    """Set the number of threads the CPU kernels use (the same setting as
    ``set_context(runtime_num_threads=num)``).

    Examples:
        >>> import mindspore as ms
        >>> ms.set_device("CPU")
        >>> ms.device_context.cpu.op_tuning.threads_num(2)
    """
    if isinstance(num, bool) or not isinstance(num, int):
        raise MSTypeError(f"For 'threads_num', the 'num' must be int, but got {type(num).__name__}.")
    if num < 1:
        raise MSValueError(f"For 'threads_num', the 'num' must be a positive int, but got {num}.")
    import mindspore.context as context
    context._set_context(runtime_num_threads=num)   # the new API: no deprecation warning
