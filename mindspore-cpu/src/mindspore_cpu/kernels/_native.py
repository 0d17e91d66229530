"""The C++ kernel extension (``mindspore_cpu._kernels``), loaded with OpenMP threads that spin briefly.

Idle OpenMP threads either sleep (``OMP_WAIT_POLICY=PASSIVE``) or spin for a while before they do
(``GOMP_SPINCOUNT`` iterations of a pause, about 25 ns each on a current x86 core). Both extremes
cost:

* Sleeping makes every parallel region pay a wake-up of the other threads, tens of microseconds,
  more in a virtual machine. A training step runs a few hundred regions, spaced by the executor's
  few microseconds.
* Spinning threads starve other thread pools that run in between (NumPy's OpenBLAS workers spin
  too) and other processes: two ResNet trainings sharing 2 cores ran 272 ms per step with threads
  spinning 30,000 iterations (~0.75 ms) against 42 ms with sleeping ones; a single one ran 22 ms
  against 28.

A short spin takes most of the gain and little of the risk. Measured on 2 cores (ResNet benchmark
step, GRAPH_MODE, median ms; alone / each of two processes sharing the cores):

=================  ======  ===========
GOMP_SPINCOUNT     alone   two at once
=================  ======  ===========
(PASSIVE)          27-28   42
300                25.7-26 44
3,000              22.6    62
10,000             21.9    121
30,000             21.9    272
=================  ======  ===========

So the default is ``GOMP_SPINCOUNT=300``. libgomp reads the variables once, when it loads, so the
default is set here, before the extension is imported, and only when the user exported neither
``OMP_WAIT_POLICY`` nor ``GOMP_SPINCOUNT``. The kernels wake the team only for work worth it, with
thresholds that follow the spin (``parallel_scale()`` in ``_csrc/common.h``).
"""
import os

if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["GOMP_SPINCOUNT"] = "300"

from mindspore_cpu import _kernels  # noqa: E402  (must follow the environment default above)

__all__ = ["_kernels"]
