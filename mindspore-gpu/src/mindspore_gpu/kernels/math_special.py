"""GPU kernels of ``mindspore/ops/_defs/math_special.py`` (the Bessel functions, ``Lgamma``, ``Digamma``,
``Polygamma``, ``Mvlgamma``, ``Igamma``, ``Igammac``, ``IgammaGradA``, ``Zeta``, ``NextAfter``, ``Betainc``):
mindspore-array-kernels' ``math_special`` family bound to CuPy and ``cupyx.scipy.special`` (the same functions as the
CPU backend's SciPy ones), with ``_common.dev`` (no copy for a CuPy array already on the device).
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, special as _cupyx_special


def _special():
    return _cupyx_special


KERNELS = bind("math_special", globals(), xp=cupy, dev=dev, special=_special)["KERNELS"]
