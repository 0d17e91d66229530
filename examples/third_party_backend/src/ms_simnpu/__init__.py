"""SimNPU: an example third-party MindSpore backend with its own (simulated) device target.

Installed, it offers the device target ``"SimNPU"`` through MindSpore's plugin contract
(:mod:`mindspore.plugin`) alone. SimNPU is not hardware: its kernels are NumPy, and its device
memory is NumPy arrays hidden behind a buffer type that refuses implicit conversion to host data,
so that only the runtime's explicit transfers move data (see :mod:`ms_simnpu.runtime`).

Examples:
    >>> import mindspore as ms
    >>> ms.set_device("SimNPU")
    >>> (ms.Tensor([1.0, 2.0]) * 3).asnumpy()
    array([3., 6.], dtype=float32)
    >>> import ms_simnpu
    >>> ms_simnpu.kernel_calls()["Mul"]
    1
"""
__version__ = "0.1.0"

from ms_simnpu.runtime import TARGET  # noqa: E402

__all__ = ["TARGET", "kernel_calls", "transfers"]


def kernel_calls():
    """``{primitive name: runs}`` of this backend's kernels in this process."""
    from ms_simnpu.kernels import CALLS
    return dict(CALLS)


def transfers():
    """``{"from_host": n, "to_host": m}``: the copies the SimNPU runtimes of this process made."""
    from ms_simnpu.plugin import RUNTIMES
    total = {"from_host": 0, "to_host": 0}
    for runtime in RUNTIMES:
        for key in total:
            total[key] += runtime.transfers[key]
    return total
