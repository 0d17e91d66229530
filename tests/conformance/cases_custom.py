"""Conformance cases of ``ops.Custom`` (``func_type="pyfunc"``): NumPy functions as kernels, one with a bprop."""
import numpy as np

from mindspore import ops

from case import Case, rand


def _sin_bprop(x, out, dout):
    return (dout * ops.cos(x),)


_SIN = ops.Custom(np.sin, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pyfunc", bprop=_sin_bprop)
_SPLIT = ops.Custom(lambda x, y: (x * y, x - y), out_shape=lambda a, b: [a, a], out_dtype=lambda a, b: (a, a),
                    func_type="pyfunc")

CASES = [
    Case("custom_pyfunc_sin", lambda x: _SIN(x), [rand(2, 3)], oracle=np.sin, prims=["Custom"],
         dtypes=(np.float32, np.float64), grad=True),
    Case("custom_pyfunc_two_outputs", lambda x, y: _SPLIT(x, y), [rand(3), rand(3, seed=1)],
         oracle=lambda x, y: (x * y, x - y), prims=["Custom"]),
]
