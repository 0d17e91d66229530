"""The base class of the audio transforms and the dtype rule of their outputs."""
import numpy as np

from mindspore.plugin import MSRuntimeError, MSTypeError
from mindspore.dataset.transforms._base import TensorOperation


def _dtype_name(dtype):
    """The type name MindSpore's messages use."""
    dtype = np.dtype(dtype)
    if dtype.kind in "USO":
        return "string"
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


class AudioTensorOperation(TensorOperation):
    """Base class of the audio transforms: checks the inputs are NumPy arrays and runs ``_apply``."""

    _min_rank = 1

    def __call__(self, *arrays):
        for array in arrays:
            if not isinstance(array, np.ndarray):
                raise MSTypeError(f"Input should be NumPy audio, got {type(array)}.")
        return self._apply(*arrays)

    def _name(self):
        return type(self).__name__

    def _error(self, message):
        return MSRuntimeError(f"{self._name()}: {message}")

    def _real(self, x, min_rank=None, keep_half=False):
        """The input as a float array (float64 kept, float16 kept only where ``keep_half``)."""
        min_rank = self._min_rank if min_rank is None else min_rank
        if x.dtype.kind not in "iufb" or x.dtype.kind == "b":
            raise self._error(f"the data type of input tensor does not match the requirement of operator. "
                              f"Expecting tensor in type of [int, float, double]. But got type "
                              f"{_dtype_name(x.dtype)}.")
        if x.ndim < min_rank:
            layout = "<..., time>" if min_rank == 1 else "<..., freq, time>"
            raise self._error(f"the shape of input tensor does not match the requirement of operator. Expecting "
                              f"tensor in shape of {layout}. But got tensor with dimension {x.ndim}.")
        if x.dtype == np.float64 or (keep_half and x.dtype == np.float16):
            return x
        return x.astype(np.float32)

    def _float_only(self, x):
        """The IIR filters accept float16/32/64 only."""
        if x.dtype not in (np.float16, np.float32, np.float64):
            raise self._error(f"the data type of input tensor does not match the requirement of operator. "
                              f"Expecting tensor in type of [float, double]. But got type {_dtype_name(x.dtype)}.")
        return self._real(x, keep_half=True)

    def _complex(self, x, min_rank=2):
        x = self._real(x, min_rank)
        if x.shape[-1] != 2:
            raise self._error("the shape of input tensor does not match the requirement of operator. Expecting "
                              "tensor in shape of <..., complex=2>.")
        return x


def _out(values, like):
    return np.asarray(values).astype(like.dtype if like.dtype == np.float64 else np.float32)
