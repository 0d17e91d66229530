"""CPU kernels of ``mindspore/ops/_defs/math_special.py`` (the Bessel functions, ``Lgamma``, ``Digamma``,
``Polygamma``, ``Mvlgamma``, ``Igamma``, ``Igammac``, ``IgammaGradA``, ``Zeta``, ``NextAfter``, ``Betainc``):
mindspore-array-kernels' ``math_special`` family bound to NumPy and SciPy's ``scipy.special`` ufuncs (vectorised C,
accurate to a few ulps), imported on first use as ``kernels/math.py`` does (the GPU backend binds the same source to
CuPy and ``cupyx.scipy.special``).
"""
import functools

import numpy as np

from mindspore_array_kernels import bind


@functools.cache
def _special():
    from scipy import special

    return special


KERNELS = bind("math_special", globals(), xp=np, dev=np.asarray, special=_special)["KERNELS"]
