"""The C++ kernel extension (``mindspore_cpu._kernels``).

Its kernels split their work over a team of threads of their own (``_csrc/team.h``), not OpenMP's: an
idle worker stays awake ``MS_CPU_SPIN_US`` microseconds (default 100) after its last task, yielding its
core to other runnable threads, then sleeps. libgomp's threads either spun for a count fixed when the
library loaded (``GOMP_SPINCOUNT``: long spins took the cores from other processes even while this one
was idle; two ResNet trainings sharing 2 cores ran 272 ms per step with 30,000 against 42 ms sleeping)
or slept and cost tens of microseconds to wake for each kernel, about what a LeNet layer takes.
"""
from mindspore_cpu import _kernels  # noqa: E402

__all__ = ["_kernels"]
