"""The Tensor: a device buffer owned by a backend, its dtype, and its place on autodiff tapes.

Design
------
A Tensor holds ``_data`` (the backend's buffer: a ``numpy.ndarray`` on the CPU backend), ``_dtype``
(a :class:`mindspore.common.dtype.Type`) and ``_ad`` (``None``, or a dict mapping each active tape
that tracks this tensor to the node that produced it; see :mod:`mindspore._autodiff.tape`).
Core code never computes on ``_data`` with NumPy: every computation goes through a primitive and
the interpreters, which pick the backend's kernel. NumPy is used here only for host-side data
(construction from Python/NumPy values, ``asnumpy``, printing), and buffers move only through the
backend runtime's ``from_host``/``to_host``. This module imports no operator: the methods that
compute are installed by :mod:`mindspore.ops.tensor_methods`.

Construction follows MindSpore 2.10 dtype inference: Python ``float`` -> Float32, ``int`` -> Int64,
``bool`` -> Bool, NumPy input keeps its dtype, ``2**63`` -> UInt64, ``Tensor(None)`` -> TypeError.
``Tensor(ndarray)`` copies; :meth:`Tensor.from_numpy` shares memory; ``asnumpy()`` returns a view.
"""
from __future__ import annotations

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore._runtime import backend as _backend
from mindspore._core.primitive import SHAPE_VIEW
from mindspore.common import dtype as mstype

__all__ = ["Tensor", "tensor", "from_numpy", "is_tensor", "frombuffer", "swap_tensors"]

#: The ``init`` of a tensor of dynamic shape (``Tensor(shape=[None, 3], dtype=...)``): it never has data.
_DYNAMIC = object()
#: The ``init`` of a tensor whose memory ``Tensor.delete_`` released: no data until new data is assigned.
_RELEASED = object()


def _infer_list_dtype(arr: np.ndarray, data):
    """MindSpore's dtype for a Python (nested) list/tuple already converted by NumPy.

    As 2.10: NumPy's float64 becomes float32 and its int32 int64; any other dtype NumPy found stays, so a list of
    NumPy scalars or arrays keeps theirs (``[np.int8(1)]`` is Int8, ``[np.float16(1)]`` Float16, ``[1j]``
    Complex128)."""
    if arr.dtype == np.float64:
        return mstype.float32
    if arr.dtype == np.int32:
        return mstype.int64
    if arr.dtype.kind in "biufc":
        return mstype.to_ms_dtype(arr.dtype)
    raise MSTypeError(f"For 'Tensor', the input data contains values of an unsupported type, but got {data!r}.")


def _check_dtype_arg(dtype):
    """MindSpore 2.10's Tensor takes only a MindSpore dtype (``ms.float32``), not a name or a NumPy/Python type."""
    if not isinstance(dtype, mstype.Type) or dtype not in mstype.all_types:
        allowed = ", ".join(f"mindspore.{t}" for t in ("bool_",) + tuple(str(x).lower() for x in mstype.number_type))
        raise MSTypeError(f"For 'Tensor', the 'dtype' should be one of [{allowed}], but got {dtype!r} "
                          f"({type(dtype).__name__}); use a MindSpore dtype such as mindspore.float32.")


def _to_host_array(input_data, dtype):
    """Host NumPy array for ``input_data`` with MindSpore's dtype inference, cast to ``dtype`` if given."""
    if isinstance(input_data, Tensor):
        arr = input_data.asnumpy().copy()
        inferred = input_data.dtype
    elif isinstance(input_data, np.ndarray):
        arr = np.array(input_data, copy=True)
        if arr.dtype.kind in "OUS":
            raise MSTypeError(f"For 'Tensor', the numpy array of dtype {arr.dtype} is not supported.")
        inferred = mstype.to_ms_dtype(arr.dtype)
    elif isinstance(input_data, (bool, int, float, complex, np.generic)):
        if isinstance(input_data, np.generic):
            inferred = mstype.to_ms_dtype(input_data.dtype)
            arr = np.array(input_data)
        else:
            inferred = mstype.default_scalar_dtype(input_data)
            # with a dtype the number goes to it directly (Tensor(0.1, float64) is the double 0.1, as in 2.10), not
            # through the default float32
            arr = np.array(input_data, dtype=inferred.to_numpy()) if dtype is None else np.array(input_data)
    elif isinstance(input_data, (list, tuple)):
        if any(isinstance(x, Tensor) for x in input_data):
            input_data = [x.asnumpy() if isinstance(x, Tensor) else x for x in input_data]
        try:
            arr = np.array(input_data)
        except ValueError:  # a ragged list: MindSpore reports it as a TypeError
            arr = None
        if arr is None or arr.dtype == object:
            raise MSTypeError(f"For Tensor, the input_data is {input_data!r} that contain unsupported element "
                              f"(a ragged or non-numeric list).")
        inferred = _infer_list_dtype(arr, input_data)
    else:
        raise MSTypeError(
            "For 'Tensor', the type of 'input_data' should be one of Tensor, numpy.ndarray, list, tuple, "
            f"bool, int, float, complex, but got {type(input_data).__name__}.")
    target = inferred if dtype is None else mstype.to_ms_dtype(dtype)
    np_dt = target.to_numpy()
    if arr.dtype != np_dt:
        arr = arr.astype(np_dt)
    return arr, target


def _symbolic_dims(shape):
    """``Tensor(shape=...)``'s dimensions and ``symbolic_shape``, as MindSpore's ``_set_symbolic_shape``: a
    :class:`~mindspore.Symbol` dimension is dynamic (None), and ``symbolic_shape`` lists the symbols' ``to_dict()``
    with the static dimensions (a bare Symbol as the shape: ``[symbol]``); None without symbols."""
    if shape is None:
        return None, None
    if isinstance(shape, int):
        return (shape,), None
    from mindspore.common.symbol import Symbol
    if isinstance(shape, Symbol):
        return (None,), [shape]
    dims = tuple(shape)
    if not any(isinstance(d, Symbol) for d in dims):
        return dims, None
    symbolic = [d.to_dict() if isinstance(d, Symbol) else d for d in dims]
    return tuple(None if isinstance(d, Symbol) else d for d in dims), symbolic


class Tensor:
    """A multi-dimensional array of one dtype, computed on by MindSpore's operators.

    Args:
        input_data: a Tensor, ``numpy.ndarray``, Python scalar, or (nested) list/tuple.
        dtype: the MindSpore dtype to store; inferred from ``input_data`` when ``None``.
        shape: with ``init``, the shape of an uninitialised tensor.
        init: an :class:`~mindspore.common.initializer.Initializer` filling the tensor lazily
            (call :meth:`init_data`).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> x = ms.Tensor(np.ones((2, 2), np.float32))
        >>> x.shape, x.dtype
        ((2, 2), Float32)
    """

    # _ext: None or a dict of the rarely set flags (requires_grad_, init_flag, const_arg, ...: mindspore._tensor_flags)
    __slots__ = ("_data", "_dtype", "_ad", "_init", "_init_shape", "_ext", "__weakref__")

    #: Marks tensor types for the layers below (abstract evaluation recognises tensors by it).
    __ms_tensor__ = True

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None,
                 internal=False):
        self._ad = None
        self._init = None
        self._init_shape = None
        if dtype is not None:
            _check_dtype_arg(dtype)
        if input_data is None:
            dims, symbolic = _symbolic_dims(shape)
            if symbolic is not None:
                self._ext = {"symbolic_shape": symbolic}
            if dims is None and dtype is not None and init is None:
                dims = (-2,)    # a dtype alone: a placeholder of dynamic rank, as MindSpore's Tensor(dtype=...)
            if dims is not None and any(d is None or d == -1 or d == -2 for d in dims):
                # a placeholder of dynamic shape (export's inputs, set_inputs): a shape and a dtype, no data
                if dtype is None or init is not None:
                    raise MSValueError("If setting dynamic shape, dtype must not be None, init must be None")
                self._dtype = mstype.to_ms_dtype(dtype)
                self._init = _DYNAMIC
                self._init_shape = tuple(-1 if d is None else int(d) for d in dims)
                self._data = None
                return
            if dims is None or dtype is None:
                raise MSTypeError(
                    "For 'Tensor', 'input_data' can not be None unless 'shape' and 'dtype' are given, "
                    "but got input_data=None.")
            self._dtype = mstype.to_ms_dtype(dtype)
            self._init_shape = tuple(int(s) for s in dims)
            if init is None:    # MindSpore fills a tensor given only a shape and a dtype with zeros
                self._data = _from_host(np.zeros(self._init_shape, self._dtype.to_numpy()))
                return
            self._init = init
            self._data = None
            return
        if shape is not None:
            raise MSValueError(f"When initializing a tensor with 'input_data', 'shape' should be set to None. "
                               f"But got shape: {shape}.")
        if isinstance(input_data, Tensor) and input_data._init is _DYNAMIC:   # a placeholder's copy: a placeholder
            self._dtype = input_data._dtype if dtype is None else mstype.to_ms_dtype(dtype)
            self._init, self._init_shape, self._data = _DYNAMIC, input_data._init_shape, None
            return
        arr, self._dtype = _to_host_array(input_data, dtype)
        self._data = _from_host(arr)

    def _init_from(self, other):
        """Initialise this (new) tensor to hold ``other``'s buffer and dtype (subclasses' constructors)."""
        self._ad = None
        self._init = None
        self._init_shape = None
        self._data = other._data
        self._dtype = other._dtype

    @classmethod
    def _make(cls, data, dtype):
        """Wrap a backend buffer without copying (the dispatcher's fast path)."""
        t = object.__new__(cls)
        t._data = data
        t._dtype = dtype
        t._ad = None
        t._init = None
        return t

    @classmethod
    def _placeholder(cls, shape, dtype):
        """A tensor with a shape and a dtype but no data (export's stand-ins for its inputs)."""
        t = object.__new__(cls)
        t._ad = None
        t._data = None
        t._dtype = dtype
        t._init = _DYNAMIC
        t._init_shape = tuple(int(d) for d in shape)
        return t

    @staticmethod
    def from_numpy(array):
        """A Tensor sharing memory with the NumPy array ``array``."""
        if not isinstance(array, np.ndarray):
            raise MSTypeError(f"For 'Tensor.from_numpy', the input must be a numpy.ndarray, but got {type(array)}.")
        # (np.ascontiguousarray makes a 0-d array 1-d; the reshape keeps the shape and still shares memory)
        return Tensor._make(_from_host(np.ascontiguousarray(array).reshape(array.shape)),
                            mstype.to_ms_dtype(array.dtype))

    # -- lazy initialisation ------------------------------------------------------------------
    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """Materialise a tensor created with ``init``; returns ``self``.

        ``slice_index`` (a parallel rank's slice of a parameter): the draw is seeded, as in MindSpore, by
        ``slice_index`` plus the global seed, or without one plus ``Tensor.delta_seed`` (advanced by every such
        draw), so every rank holding that slice draws the same numbers, run after run."""
        if self._data is None:
            if self._init is _RELEASED:
                raise MSValueError(
                    f"For 'Tensor', the memory of this tensor (shape {list(self._init_shape)}) was released by "
                    "'delete_'; assign new data ('tensor.data = other') before using it.")
            if self._init is _DYNAMIC:
                raise MSValueError(
                    f"For 'Tensor', a tensor of dynamic shape {list(self._init_shape)} holds no data: it only "
                    "describes an input (of 'export' or 'Cell.set_inputs'); give a Tensor with data instead.")
            if slice_index is None:
                arr = self._init._generate(self._init_shape, self._dtype)
            else:
                from mindspore.common.seed import get_seed, initializer_stream
                base = get_seed()
                if base is None:
                    base = Tensor.delta_seed
                    Tensor.delta_seed = base + 1
                with initializer_stream(int(slice_index) + base):
                    arr = self._init._generate(self._init_shape, self._dtype)
            self._data = _from_host(arr)
            self._init = None
        return self

    def _copy(self):
        """A new Tensor holding a copy of this one's data, copied on the device (no host round trip)."""
        return Tensor._make(_backend.copy_buffer(self._buffer()), self._dtype)

    def _buffer(self):
        if self._data is None:
            self.init_data()
        return self._data

    # -- properties -----------------------------------------------------------------------------
    @property
    def shape(self):
        """The shape, a tuple of ints."""
        view = SHAPE_VIEW[0]
        if view is not None:    # mindspore-parallel: a sharded network's code sees a block's global shape
            shown = view(self)
            if shown is not None:
                return shown
        if self._data is None:
            return self._init_shape
        return tuple(self._data.shape)

    @property
    def dtype(self):
        """The MindSpore dtype."""
        return self._dtype

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self._dtype.itemsize

    @property
    def strides(self):
        return tuple(self.asnumpy().strides)

    @property
    def has_init(self):
        return self._data is None

    @property
    def requires_grad(self):
        ext = getattr(self, "_ext", None)
        if ext and "requires_grad" in ext:
            return ext["requires_grad"]
        return getattr(self, "_requires_grad", True)

    @requires_grad.setter
    def requires_grad(self, value):
        # settable on any tensor, as in 2.10 (MindNLP's own Parameter, a Tensor subclass, sets it in __init__)
        if getattr(self, "_ext", None) is None:
            self._ext = {}
        self._ext["requires_grad"] = value

    # -- host access ----------------------------------------------------------------------------
    def asnumpy(self):
        """The data as a NumPy array (a view of the buffer on the CPU backend)."""
        return _to_host(self._buffer())

    def numpy(self):
        return self.asnumpy()

    def item(self, index=None):
        arr = self.asnumpy()
        if index is None:
            if arr.size != 1:
                raise MSValueError(
                    f"For 'Tensor.item', only a tensor with one element can be converted to a Python scalar, "
                    f"but got shape {arr.shape}.")
            return arr.reshape(()).item()
        return arr.item(index)

    def tolist(self):
        return self.asnumpy().tolist()

    def __array__(self, dtype=None, copy=None):
        arr = self.asnumpy()
        return arr if dtype is None else arr.astype(dtype)

    def __bool__(self):
        arr = self.asnumpy()
        if arr.size != 1:
            raise MSValueError(
                f"The truth value of a Tensor with more than one element is ambiguous, but got shape {arr.shape}.")
        return bool(arr.reshape(()))

    def __contains__(self, element):
        """``element in tensor``: whether an element equals ``element`` (a number, or a Tensor compared with
        broadcasting); anything else is never in a tensor."""
        if isinstance(element, (Tensor, int, float, complex, np.number)):
            return bool((self == element).any())
        return False

    def __int__(self):
        return int(self.item())

    def __float__(self):
        return float(self.item())

    def __index__(self):
        if not mstype.is_int(self._dtype):
            raise MSTypeError(f"Only an integer tensor can be used as an index, but got {self._dtype}.")
        return int(self.item())

    def __len__(self):
        shape = self.shape
        if not shape:
            raise MSTypeError("Not support len of a 0-D tensor")      # MindSpore 2.10's words
        return shape[0]

    def __iter__(self):
        if not self.shape:
            raise MSTypeError("iteration over a 0-d tensor is not supported.")
        for i in range(self.shape[0]):
            yield self[i]

    __hash__ = object.__hash__

    # -- printing -------------------------------------------------------------------------------
    def __str__(self):
        if self._data is None:
            return _tensor_repr(self, str_form=True)
        arr = self.asnumpy()
        if self._dtype is mstype.bfloat16:
            arr = arr.astype(np.float32)
        return str(arr)

    def __repr__(self):
        return _tensor_repr(self)

    # Methods that compute (operators, ``astype``, indexing, ``x.exp()``...) are not spelled here: this
    # module sits below the operators, and :mod:`mindspore.ops.tensor_methods` installs them onto the
    # class when ``mindspore.ops`` is imported.


_EDGE = 3               # MindSpore's kThreshold >> 1: items kept at each end of a summarised dimension
_THRESHOLD = 6          # kThreshold: longer dimensions are summarised (innermost of a 1-D tensor: 1000)
_THRESHOLD_1D = 1000


def _repr_item(v, dtype):
    """One element of a non-scalar tensor as MindSpore's C++ TensorStringifier writes it."""
    if dtype in (mstype.float16, mstype.float32, mstype.float64):
        return format(float(v), "11.4e" if dtype is mstype.float16 else "15.8e")
    if dtype is mstype.bool_:
        return "True".rjust(5) if v else "False"
    if mstype.is_complex(dtype):
        return _repr_complex(v)
    if mstype.is_int(dtype):
        return str(int(v))
    return format(float(v), "g")  # bfloat16 / float8: stream-printed as floats, padded like integers


def _repr_complex(v):
    """``1.5+2.25j``, ``nan+infj``: MindSpore 2.10's complex element (6 significant digits, not padded)."""
    return f"{v.real:g}{v.imag:+g}j"


def _repr_scalar(v, dtype):
    if dtype is mstype.bool_:
        return "True" if v else "False"
    if mstype.is_int(dtype):
        return str(int(v))
    if mstype.is_complex(dtype):
        return _repr_complex(v)
    return format(float(v), "g")


def _repr_value(arr, dtype):
    """The value part of ``repr(tensor)``: MindSpore 2.10's TensorStringifier (comma-separated, summarised
    beyond 6 items per dimension, or 1000 for a 1-D tensor; 1-D tensors wrap every 12 floats/bools or 24 others;
    floats in %.8e (float16 %.4e) at fixed width; other numbers right-aligned to the widest printed one)."""
    if arr.size == 0:
        return ""
    flat = arr.reshape(-1)
    if arr.ndim == 0:
        return _repr_scalar(flat[0], dtype)
    padded = not (dtype is mstype.bool_ or dtype in (mstype.float16, mstype.float32, mstype.float64)
                  or mstype.is_complex(dtype))
    per_line = 12 if (dtype is mstype.bool_ or dtype in (mstype.float16, mstype.float32, mstype.float64)) else 24
    shape, ndim = arr.shape, arr.ndim
    tokens = []                  # str pieces and int flat indices (formatted at the end, to pad to one width)
    cursor = 0

    def run(start, end):
        for i in range(start, end):
            tokens.append(cursor + i)
            if i != end - 1:
                tokens.append(", ")
            if ndim == 1 and end - start > _EDGE and (i + 1) % per_line == 0:
                tokens.append("\n ")

    def rec(depth):
        nonlocal cursor
        tokens.append("[")
        num = shape[depth]
        if depth == ndim - 1:
            if num > (_THRESHOLD if ndim > 1 else _THRESHOLD_1D):
                run(0, _EDGE)
                tokens.append(" ... ")
                run(num - _EDGE, num)
            else:
                run(0, num)
            cursor += num
        else:
            indent = "\n" + " " * (depth + 1)
            for i in range(min(_EDGE, num)):
                tokens.append("," + indent if i else "")
                rec(depth + 1)
            if num > _THRESHOLD:
                tokens.append("," + indent + "...")
                skipped = num - _THRESHOLD
                for s in shape[depth + 1:]:
                    skipped *= s
                cursor += skipped
            for i in range(min(num - _EDGE, _EDGE)):
                tokens.append(("," if i or num <= _THRESHOLD else "") + indent)
                rec(depth + 1)
        tokens.append("]")

    rec(0)
    items = {t: _repr_item(flat[t], dtype) for t in tokens if isinstance(t, int)}
    width = max(map(len, items.values())) if padded else 0
    return "".join(items[t].rjust(width) if isinstance(t, int) else t for t in tokens)


def _tensor_repr(t, str_form=False):
    """``Tensor(shape=[2, 2], dtype=Float32, value=\\n[[ 1.00000000e+00, ...]])``, as MindSpore 2.10's repr prints it
    (``str_form``: the C++ ``__str__`` form MindSpore uses for an uninitialised tensor, no space before a 1-D value)."""
    shape = list(t.shape)
    sep = "\n" if len(shape) > 1 else ("" if str_form else " ")
    head = f"Tensor(shape={shape}, dtype={t.dtype}, value={sep}"
    if t._data is None:
        return head + "<uninitialized>)"
    return head + _repr_value(t.asnumpy(), t.dtype) + ")"


def _from_host(arr):
    return _backend.data_runtime().from_host(arr)


def _to_host(buf):
    return _backend.to_host(buf)


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """Create a :class:`Tensor` (``mindspore.tensor``)."""
    return Tensor(input_data, dtype, shape, init, const_arg, device)


def from_numpy(array):
    """A Tensor sharing memory with ``array``."""
    return Tensor.from_numpy(array)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def frombuffer(buffer, dtype, count=-1, offset=0):
    """A 1-D Tensor of ``dtype`` from the bytes of ``buffer`` (``count`` elements after ``offset`` bytes; -1: all).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> ms.frombuffer(np.arange(3, dtype=np.float32).tobytes(), ms.float32)
        Tensor(shape=[3], dtype=Float32, value= [ 0.00000000e+00,  1.00000000e+00,  2.00000000e+00])
    """
    dtype = mstype.to_ms_dtype(dtype)
    np_dtype = np.dtype(dtype.to_numpy())
    size = memoryview(buffer).nbytes
    if offset < 0 or offset > size:
        raise MSValueError(f"For 'frombuffer', the 'offset' must be in [0, {size}], but got {offset}.")
    if count == -1:
        if (size - offset) % np_dtype.itemsize:
            raise MSValueError(f"For 'frombuffer', the buffer length ({size} bytes) after offset ({offset} bytes) must "
                               f"be a multiple of element size ({np_dtype.itemsize}).")
    elif count <= 0 or offset + count * np_dtype.itemsize > size:
        raise MSValueError(f"For 'frombuffer', the buffer of {size} bytes after offset ({offset} bytes) does not "
                           f"hold 'count' = {count} elements of {np_dtype.itemsize} bytes.")
    return Tensor(np.frombuffer(buffer, np_dtype, count, offset).copy(), dtype)


def swap_tensors(t1, t2):
    """Exchange the contents (data, dtype, shape) of two tensors in place; each keeps its identity."""
    if not isinstance(t1, Tensor) or not isinstance(t2, Tensor):
        raise MSTypeError(f"For 'swap_tensors', both inputs must be Tensors, but got {type(t1).__name__} and "
                          f"{type(t2).__name__}.")
    if t1 is t2:
        return
    for slot in ("_data", "_dtype", "_init", "_init_shape", "_ad"):
        a, b = getattr(t1, slot, None), getattr(t2, slot, None)
        setattr(t1, slot, b)
        setattr(t2, slot, a)
