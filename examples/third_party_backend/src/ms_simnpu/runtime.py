"""The simulated device: its buffer type and its :class:`~mindspore.plugin.DeviceRuntime`.

SimNPU is not hardware. Its "device memory" is a NumPy array hidden inside a :class:`SimBuffer`,
which behaves like the array of a real accelerator library (CuPy, for instance) in the one way that
matters to core: it cannot be converted to host data implicitly. ``np.asarray(buffer)``,
``bool(buffer)``, ``float(buffer)``, ``len(buffer)``, iteration, indexing, comparisons and arithmetic
all raise ``TypeError``. Core may read only ``buffer.shape`` and ``buffer.dtype`` and must move data
through :meth:`SimNPURuntime.from_host` and :meth:`SimNPURuntime.to_host`, as the plugin contract
says; anything else fails loudly instead of silently working on host memory.

The kernels (:mod:`ms_simnpu.kernels`) are the device side: they take the array out of a buffer
with :func:`device_array` ("read device memory"), compute with NumPy, and put results into fresh
buffers with :func:`new_buffer`.
"""
import numpy as np

from mindspore.plugin import DeviceRuntime, MSRuntimeError

__all__ = ["TARGET", "SimBuffer", "SimNPURuntime", "device_array", "new_buffer"]

#: The device target this package offers (``ms.set_device("SimNPU")``).
TARGET = "SimNPU"

_IMPLICIT = ("Implicit conversion of a SimNPU buffer to host data is not allowed: use the runtime's "
             "to_host() (or Tensor.asnumpy()) to copy it explicitly.")


def _refuse(self, *args, **kwargs):
    raise TypeError(_IMPLICIT)


class SimBuffer:
    """A block of simulated device memory holding one array: only ``shape`` and ``dtype`` are public."""

    __slots__ = ("_array",)

    def __init__(self, array):
        self._array = array

    @property
    def shape(self):
        """The shape, a tuple of ints."""
        return self._array.shape

    @property
    def dtype(self):
        """The NumPy dtype of the elements."""
        return self._array.dtype

    def __repr__(self):
        return f"SimBuffer(shape={self.shape}, dtype={self.dtype})"

    # Everything that would read the data implicitly raises, as a real device array does.
    __array__ = __bool__ = __float__ = __int__ = __index__ = __complex__ = __len__ = __iter__ = _refuse
    __getitem__ = __setitem__ = __contains__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = __matmul__ = __rmatmul__ = _refuse
    __neg__ = __pos__ = __abs__ = __invert__ = _refuse
    __and__ = __rand__ = __or__ = __ror__ = __xor__ = __rxor__ = _refuse
    __hash__ = object.__hash__   # identity, as for any device allocation (defining __eq__ would unset it)
    #: NumPy ufuncs (np.add(buffer, 1), ...) refuse the buffer instead of converting it.
    __array_ufunc__ = None


def device_array(buffer):
    """The array inside ``buffer``: what a kernel computes on (the device side of the simulation)."""
    if type(buffer) is not SimBuffer:
        raise MSRuntimeError(f"A SimNPU kernel was given {type(buffer).__name__} instead of a SimNPU buffer.")
    return buffer._array


def new_buffer(result, spec):
    """A fresh buffer holding ``result`` in the dtype of ``spec`` (the ``TensorSpec`` core inferred).

    The copy keeps buffers independent: a kernel's result never aliases one of its inputs, which an
    in-place kernel (``Assign``, ``ApplyMomentum``) might later overwrite.
    """
    return SimBuffer(np.array(result, dtype=spec.dtype.to_numpy(), order="C", copy=True))


class SimNPURuntime(DeviceRuntime):
    """Host transfers of the simulated device: explicit copies in and out."""

    target = TARGET
    is_host = False
    buffer_types = (SimBuffer,)   # a tensor made here is still read through this runtime after a target switch

    def __init__(self):
        self.transfers = {"from_host": 0, "to_host": 0}

    def from_host(self, array):
        self.transfers["from_host"] += 1
        return SimBuffer(np.array(array, order="C", copy=True))

    def to_host(self, buffer):
        self.transfers["to_host"] += 1
        return device_array(buffer).copy()

    def copy(self, buffer):
        """A device-side copy (a Parameter made from a tensor): no trip through the host."""
        return SimBuffer(device_array(buffer).copy())

    def synchronize(self):
        """Kernels run synchronously on the simulated device: nothing to wait for."""
