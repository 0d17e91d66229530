"""A test-only device target, ``STRICT``, whose buffers refuse every implicit host conversion.

It behaves like a GPU backend as far as core can tell: its buffers are not NumPy arrays, expose only
``shape`` and ``dtype``, and raise on ``__array__``, ``__bool__``, ``float()``, indexing and
arithmetic, as CuPy's arrays refuse implicit conversion to NumPy. Data moves only through the
runtime's ``from_host``/``to_host``. Its kernels are the CPU backend's, called with the buffers unwrapped
explicitly and the results wrapped again; a host ``numpy.ndarray`` reaching a kernel is refused too,
since on a real device it would be a buffer core made without the runtime.

So a suite that passes with ``STRICT`` as the device target shows core never hands a device buffer to
NumPy except through the explicit transfers (``asnumpy``, printing, saving, Python scalars), and
never makes a device buffer with NumPy. Registered in-process by ``conftest.py`` when the test run
asks for it (``MS_TEST_DEVICE_TARGET=STRICT``); it is a plugin like any other, built on
:mod:`mindspore.plugin` alone, apart from borrowing the CPU backend's kernel tables.
"""
import numpy as np

from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe, DeviceRuntime, array_layout, hookimpl

TARGET = "STRICT"
_MESSAGE = "Implicit conversion to a NumPy array is not allowed (STRICT device buffer; use the runtime's to_host)."


class StrictBuffer:
    """A device buffer: a NumPy array only its own kernels and runtime may open."""

    __slots__ = ("_array",)

    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"a STRICT buffer wraps a numpy.ndarray, not {type(array).__name__}")
        self._array = array

    @property
    def shape(self):
        return self._array.shape

    @property
    def dtype(self):
        return self._array.dtype

    def __repr__(self):
        return f"StrictBuffer(shape={self._array.shape}, dtype={self._array.dtype})"

    def _refuse(self, *args, **kwargs):
        raise TypeError(_MESSAGE)

    __array__ = __bool__ = __float__ = __int__ = __index__ = __complex__ = __len__ = __iter__ = _refuse
    __getitem__ = __setitem__ = __contains__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = __matmul__ = __rmatmul__ = _refuse
    __neg__ = __pos__ = __abs__ = __invert__ = __and__ = __or__ = __xor__ = _refuse
    __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __array_ufunc__ = None      # NumPy ufuncs refuse it too (TypeError), instead of treating it as an object

    def __eq__(self, other):
        raise TypeError(_MESSAGE)

    __hash__ = object.__hash__


class StrictRuntime(DeviceRuntime):
    target = TARGET
    is_host = False
    buffer_types = (StrictBuffer,)

    def from_host(self, array):
        return StrictBuffer(np.array(array, copy=True))

    def to_host(self, buffer):
        if not isinstance(buffer, StrictBuffer):
            raise TypeError(f"to_host of a {type(buffer).__name__}: not a buffer of the STRICT device")
        return buffer._array.copy()

    def copy(self, buffer):
        return StrictBuffer(buffer._array.copy())

    def view(self, buffer, index):     # device buffers alias, as CuPy's do
        return StrictBuffer(buffer._array[index])

    def layout(self, buffer):
        return array_layout(buffer._array)

    def write(self, buffer, index, value):
        if not buffer._array.flags.writeable:
            return False
        buffer._array[index] = value._array if isinstance(value, StrictBuffer) else value
        return True

    def host_uploader(self, depth):
        return _Uploader(depth)


class _Uploader:
    """Dataset batches made device buffers on the feed's thread (where a GPU starts its copies); ``take`` checks
    that each batch is taken once, in order, on another thread, and that at most ``depth`` wait between."""

    def __init__(self, depth):
        self.depth = depth
        self.puts = self.takes = 0
        self.put_threads, self.closed = set(), False

    def put(self, arrays):
        import threading
        if self.closed:
            raise RuntimeError("a batch was put after the uploader was closed")
        self.put_threads.add(threading.get_ident())
        self.puts += 1
        return self.puts - 1, [StrictBuffer(np.array(a, copy=True)) for a in arrays]

    def take(self, token):
        import threading
        n, buffers = token
        if n != self.takes or threading.get_ident() in self.put_threads:
            raise RuntimeError(f"batch {n} taken out of order or on the feed's thread (next: {self.takes})")
        if self.puts - self.takes > self.depth + 2:
            raise RuntimeError(f"{self.puts - self.takes} batches uploaded ahead (depth {self.depth})")
        self.takes += 1
        return buffers

    def close(self):
        self.closed = True


def _down(x, where):
    if isinstance(x, StrictBuffer):
        return x._array
    if isinstance(x, np.ndarray):
        raise TypeError(f"{where}: a host numpy.ndarray {x.shape} {x.dtype} was passed where a STRICT device buffer "
                        f"belongs (a buffer made without the runtime's from_host)")
    if type(x) in (tuple, list):
        return type(x)(_down(e, where) for e in x)
    return x


def _up(y, where):
    if isinstance(y, np.ndarray):
        return StrictBuffer(y)
    if type(y) is tuple:
        return tuple(_up(e, where) for e in y)
    if isinstance(y, np.generic):
        raise TypeError(f"{where}: the kernel returned a NumPy scalar, not an array")
    return y


def _strict(name, fn):
    where = f"STRICT kernel of '{name}'"

    def kernel(prim, *inputs, out=None):
        return _up(fn(prim, *[_down(x, where) for x in inputs], out=out), where)
    kernel.__name__ = kernel.__qualname__ = f"strict_{name}"
    return kernel


@hookimpl
def ms_plugin_info():
    return {"name": "strict", "version": "0", "api_version": PLUGIN_API_VERSION}


@hookimpl
def ms_backend_probe():
    # below the CPU backend's priority: it is used only when selected
    return [BackendProbe(target=TARGET, available=True, priority=-100, device_count=1)]


@hookimpl
def ms_backend_create(target):
    return StrictRuntime() if target == TARGET else None


@hookimpl
def ms_register_kernels(registry):
    from mindspore_cpu.kernels import FAMILIES
    for family in FAMILIES:
        for name, fn in family.KERNELS.items():
            registry.register(name, TARGET, _strict(name, fn))
