"""The C++ kernel extension (``mindspore_cpu._kernels``), loaded with OpenMP threads that sleep when idle.

Idle OpenMP threads either sleep (``OMP_WAIT_POLICY=PASSIVE``) or spin for a while before they do
(``GOMP_SPINCOUNT`` iterations of a pause, about 25 ns each on a current x86 core). Both extremes
cost:

* Sleeping makes every parallel region pay a wake-up of the other threads, tens of microseconds,
  more in a virtual machine. A training step runs a few hundred regions, spaced by the executor's
  few microseconds: on 2 cores the ResNet benchmark step took about 30 ms with sleeping threads
  against 25 ms with spinning ones, LeNet's 1.6 ms against 1.24 ms.
* Spinning threads starve other thread pools that run in between, and NumPy's OpenBLAS workers spin
  too: a LeNet convolution, a ``numpy.matmul`` and a convolution again took 6.6 ms with this module's
  spin (and 8 ms with libgomp's default of about 300,000 iterations, ~7 ms) against 2.2 ms with
  sleeping threads, while two convolutions alone took 1.1 ms against 2.1 ms.

* Spinning is catastrophic when other processes want the cores: two ResNet trainings sharing 2 cores
  ran 285 ms per step with spinning threads against 90 ms with sleeping ones.

So the default is ``OMP_WAIT_POLICY=PASSIVE``, the robust choice; a single process on an otherwise idle
machine may export ``GOMP_SPINCOUNT=30000`` (spin ~0.75 ms). libgomp reads both variables once, when it
loads, so the default is set here, before the extension is imported, and only when the user exported
neither. The kernels wake the team only for work worth it, with thresholds that follow the policy
(``parallel_scale()`` in ``_csrc/common.h``).
"""
import os

if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"

from mindspore_cpu import _kernels  # noqa: E402  (must follow the environment default above)

__all__ = ["_kernels"]
