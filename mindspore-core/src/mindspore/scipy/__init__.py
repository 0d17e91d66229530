"""SciPy-like interfaces of MindSpore (``mindspore.scipy``): ``linalg``, ``optimize``, ``fft``, with the helper
modules ``ops``, ``utils`` and ``utils_const`` that MindSpore 2.10 also exposes. Thin public modules over
primitives defined in ``mindspore.ops._defs`` (``linalg_scipy``, ``dct``, ``linalg_more``)."""
from mindspore.scipy import fft, linalg, ops, optimize, utils, utils_const  # noqa: F401

__all__ = ["fft", "linalg", "ops", "optimize", "utils", "utils_const"]
