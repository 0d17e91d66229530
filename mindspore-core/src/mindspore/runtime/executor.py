"""MindSpore's ``mindspore.runtime.executor``."""
from mindspore.runtime import (  # noqa: F401
    dispatch_threads_num, launch_blocking, set_cpu_affinity, set_kernel_launch_capture, set_kernel_launch_group
)

__all__ = [
    "dispatch_threads_num", "launch_blocking", "set_cpu_affinity", "set_kernel_launch_capture",
    "set_kernel_launch_group"
]
