"""MindSpore data types.

Every dtype is a singleton :class:`Type` object whose ``str()`` is MindSpore's name (``Float32``).
Each numeric dtype maps one-to-one onto a NumPy dtype; ``bfloat16`` maps onto ``ml_dtypes.bfloat16``
so that host buffers of every dtype are plain ``numpy.ndarray`` objects.

Promotion follows MindSpore 2.x (checked against the 2.10 wheel):

* between tensors, the higher *category* wins (bool < int < float < complex); within a category the
  wider type wins, except that any int combined with a float keeps the float's width
  (``int32 + float16 -> float16``);
* a Python scalar never widens a tensor within its category: ``int32 + 1 -> int32``,
  ``float16 + 1.5 -> float16``, but ``int64 * 2.0 -> float32`` and ``bool + 1 -> int64``.
"""
from __future__ import annotations

import enum

import numpy as np
import ml_dtypes

__all__ = [
    "Type", "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "bfloat16", "complex64", "complex128", "string", "type_none",
    "number", "tensor_type", "list_", "tuple_", "half", "single", "double", "float_", "int_", "uint",
    "byte", "ubyte", "short", "ushort", "intc", "uintc", "intp", "uintp", "long", "cfloat", "cdouble",
    "float8_e4m3fn", "float8_e5m2", "hifloat8", "qint4x2",
    "dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype", "get_py_obj_dtype", "to_ms_dtype",
    "is_float", "is_int", "is_complex", "int_type", "uint_type", "float_type", "signed_type",
    "number_type", "complex_type", "all_types", "Int", "QuantDtype",
]

_BOOL, _INT, _FLOAT, _COMPLEX, _OTHER = 0, 1, 2, 3, 9


class Type:
    """A MindSpore data type. Compare with ``==``; ``str()`` gives MindSpore's name."""

    __slots__ = ("_name", "_np", "_category", "_bits", "_signed")

    def __init__(self, name, np_dtype, category, bits, signed=True):
        self._name = name
        self._np = np.dtype(np_dtype) if np_dtype is not None else None
        self._category = category
        self._bits = bits
        self._signed = signed

    def __str__(self):
        return self._name

    def __repr__(self):
        # MindSpore's repr is the Python name, so a list of dtypes prints as [mindspore.float32, ...]
        return _REPRS.get(self._name, self._name)

    def __reduce__(self):
        return (to_ms_dtype, (self._name,))

    @property
    def name(self):
        return self._name

    @property
    def itemsize(self):
        return self._bits // 8 if self._bits else 0

    def to_numpy(self):
        return self._np

    # -- MindSpore 2.10's Number-type queries (C++ ``Number``: bool, the ints, floats and complexes, ``Number``); the
    # other types (String, List, Tensor...) do not have them, so ``hasattr`` is False there as in 2.10
    def _number_kind(self):
        if self._category == _OTHER and self._name not in _OTHER_NUMBERS:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute for the type {self._name}")
        return self._category

    @property
    def is_floating_point(self):
        """Whether this number type is a floating point type (float16/32/64, bfloat16, the float8s)."""
        return self._number_kind() == _FLOAT or self._name in ("HiFloat8",)

    @property
    def is_signed(self):
        """Whether this number type is signed (False for bool and the unsigned integers)."""
        return self._number_kind() != _BOOL and self._signed and self._name != "Number"

    @property
    def is_complex(self):
        """Whether this number type is complex."""
        return self._number_kind() == _COMPLEX

    def _short_name(self):
        return _REPRS.get(self._name, "mindspore." + self._name.lower())[len("mindspore."):].rstrip("_")

    def to_complex(self):
        """The complex type of this type's precision (float32 and bfloat16: complex64; float64: complex128)."""
        self._number_kind()
        if self._category == _COMPLEX:
            return self
        target = {"Float32": "Complex64", "BFloat16": "Complex64", "Float64": "Complex128"}.get(self._name)
        if target is None:
            raise TypeError(f"Cannot convert type {self._short_name()} to complex type.")
        return to_ms_dtype(target)

    def to_real(self):
        """The real type of this complex type (complex64: float32); a real type of known width is its own."""
        self._number_kind()
        if self._category == _COMPLEX:
            return to_ms_dtype("Float32" if self._name == "Complex64" else "Float64")
        if not self._bits:
            raise TypeError(f"Cannot convert type {self._short_name()} to real type.")
        return self


_OTHER_NUMBERS = ("Number", "HiFloat8", "QInt4x2")


class TensorType(Type):
    """``mindspore.tensor_type(dtype)``: the type of a tensor with element type ``element_type``."""

    __slots__ = ("element_type",)

    def __init__(self, element_type=None):
        super().__init__("Tensor" if element_type is None else f"Tensor[{element_type}]", None, _OTHER, 0)
        self.element_type = element_type

    def element_type_(self):
        return self.element_type

    def __eq__(self, other):
        return isinstance(other, TensorType) and other.element_type == self.element_type

    def __hash__(self):
        return hash(("TensorType", self.element_type))


def _define(cls, name, np_dtype, category, bits, signed=True):
    """A dtype singleton of class ``cls`` (``Type`` or one of its kind classes below)."""
    obj = object.__new__(cls)
    Type.__init__(obj, name, np_dtype, category, bits, signed)
    return obj


class _Sized(Type):
    """A kind of dtype with a width, as MindSpore's ``Int`` and ``Float``: its dtypes are instances of it (so a
    method set on the class reaches them: MindNLP 0.4.1 sets ``Float.__str__ = Float.__repr__``), ``Kind(bits)``
    is the dtype of that width and ``Kind()`` the kind's dtype of unspecified width."""

    __slots__ = ()
    _widths = {}

    def __new__(cls, nbits=None):
        widths = cls._widths
        if nbits not in widths:
            sizes = [f"{b}bits" for b in widths if b is not None]
            sizes = ", ".join(sizes[:-1]) + " and " + sizes[-1]
            raise _runtime_error(f"For {cls.__name__} type only support number of {sizes}, but got {nbits}bits")
        return widths[nbits]

    def __init__(self, nbits=None):  # noqa: ARG002 - the singleton is made by _define
        pass


class Int(_Sized):
    """MindSpore's class of the signed integer dtypes: ``Int(32)`` is ``mindspore.int32``, ``Int()`` the
    integer type of unspecified width, and ``isinstance(mindspore.int64, mindspore.Int)`` holds."""

    __slots__ = ()


class Float(_Sized):
    """MindSpore's class of the dtypes float16, float32 and float64 (not bfloat16, a kind of its own in 2.10):
    ``Float(32)`` is ``mindspore.float32``, ``Float()`` the float type of unspecified width."""

    __slots__ = ()


def _runtime_error(message):
    from mindspore._errors import MSRuntimeError
    return MSRuntimeError(message)


bool_ = Type("Bool", np.bool_, _BOOL, 8, False)
int8 = _define(Int, "Int8", np.int8, _INT, 8)
int16 = _define(Int, "Int16", np.int16, _INT, 16)
int32 = _define(Int, "Int32", np.int32, _INT, 32)
int64 = _define(Int, "Int64", np.int64, _INT, 64)
uint8 = Type("UInt8", np.uint8, _INT, 8, False)
uint16 = Type("UInt16", np.uint16, _INT, 16, False)
uint32 = Type("UInt32", np.uint32, _INT, 32, False)
uint64 = Type("UInt64", np.uint64, _INT, 64, False)
float16 = _define(Float, "Float16", np.float16, _FLOAT, 16)
float32 = _define(Float, "Float32", np.float32, _FLOAT, 32)
float64 = _define(Float, "Float64", np.float64, _FLOAT, 64)
bfloat16 = Type("BFloat16", ml_dtypes.bfloat16, _FLOAT, 16)
float8_e4m3fn = Type("Float8E4M3FN", ml_dtypes.float8_e4m3fn, _FLOAT, 8)
float8_e5m2 = Type("Float8E5M2", ml_dtypes.float8_e5m2, _FLOAT, 8)
hifloat8 = Type("HiFloat8", None, _OTHER, 8)
qint4x2 = Type("QInt4x2", None, _OTHER, 8)
complex64 = Type("Complex64", np.complex64, _COMPLEX, 64)
complex128 = Type("Complex128", np.complex128, _COMPLEX, 128)
string = Type("String", None, _OTHER, 0)
type_none = Type("NoneType", None, _OTHER, 0)
number = Type("Number", None, _OTHER, 0)
list_ = Type("List", None, _OTHER, 0)
tuple_ = Type("Tuple", None, _OTHER, 0)
tensor_type = TensorType

_REPRS = {t.name: "mindspore." + n for n, t in (
    ("bool", bool_), ("int8", int8), ("int16", int16), ("int32", int32), ("int64", int64), ("uint8", uint8),
    ("uint16", uint16), ("uint32", uint32), ("uint64", uint64), ("float16", float16), ("float32", float32),
    ("float64", float64), ("bfloat16", bfloat16), ("complex64", complex64), ("complex128", complex128),
    ("string_", string), ("type_none", type_none), ("list_", list_))}
_REPRS.update({"Int": "mindspore.int", "Float": "mindspore.float", "Float8E4M3FN": "mindspore.float8_e4m3fn",
               "Float8E5M2": "mindspore.float8_e5m2", "HiFloat8": "mindspore.hifloat8", "QInt4x2": "mindspore.int4"})



def __getattr__(name):
    # 2.10's `dtype.bool`/`int`/`float` (bool_, int32, float32): module attributes that do not shadow the builtins
    # inside this module
    aliases = {"bool": bool_, "int": int32, "float": float32}
    if name in aliases:
        return aliases[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# aliases, as exported by MindSpore
half, single, double, float_ = float16, float32, float64, float32
int_, uint, byte, ubyte, short, ushort = int32, uint32, int8, uint8, int16, uint16
intc, uintc, intp, uintp, long = int32, uint32, int64, uint64, int64
cfloat, cdouble = complex64, complex128

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
complex_type = (complex64, complex128)
signed_type = int_type + float_type + complex_type
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type

Int._widths = {None: _define(Int, "Int", None, _INT, 0), 8: int8, 16: int16, 32: int32, 64: int64}
Float._widths = {None: _define(Float, "Float", None, _FLOAT, 0), 16: float16, 32: float32, 64: float64}


class QuantDtype(enum.Enum):
    """The data types of quantization (``mindspore.QuantDtype``): INT1 ... INT16, UINT1 ... UINT16."""

    INT1, INT2, INT3, INT4, INT5, INT6, INT7, INT8 = range(8)
    INT9, INT10, INT11, INT12, INT13, INT14, INT15, INT16 = range(8, 16)
    UINT1, UINT2, UINT3, UINT4, UINT5, UINT6, UINT7, UINT8 = range(100, 108)
    UINT9, UINT10, UINT11, UINT12, UINT13, UINT14, UINT15, UINT16 = range(108, 116)

    def num_bits(self):
        """The width in bits (``QuantDtype.INT4.num_bits() == 4``)."""
        return int(self.name.lstrip("UINT"))

    def is_signed(self):
        return not self.name.startswith("U")


_NP_TO_MS = {t._np: t for t in (bool_,) + number_type + (float8_e4m3fn, float8_e5m2)}
_NAME_TO_MS = {t._name: t for t in all_types + (string, type_none, float8_e4m3fn, float8_e5m2)}
_NAME_TO_MS.update({t._name.lower(): t for t in all_types})
_NAME_TO_MS.update({"bool": bool_, "float": float32, "int": int64, "half": float16, "double": float64})


def to_ms_dtype(value) -> Type:
    """Convert a MindSpore type, NumPy dtype, Python type or name into a MindSpore :class:`Type`."""
    if isinstance(value, Type):
        return value
    if isinstance(value, str):
        try:
            return _NAME_TO_MS[value]
        except KeyError:
            raise TypeError(f"The data type '{value}' is not supported by MindSpore.") from None
    if value is bool:
        return bool_
    if value is int:
        return int64
    if value is float:
        return float32
    if value is complex:
        return complex64
    try:
        return _NP_TO_MS[np.dtype(value)]
    except (TypeError, KeyError):
        raise TypeError(f"The data type '{value}' is not supported by MindSpore.") from None


def dtype_to_nptype(type_):
    """The NumPy dtype (a scalar type, like MindSpore) for a MindSpore dtype."""
    t = to_ms_dtype(type_)
    if t._np is None:
        raise TypeError(f"The data type '{t}' has no NumPy equivalent.")
    return t._np.type


def dtype_to_pytype(type_):
    """The Python type for a MindSpore dtype: bool, int, float or complex."""
    t = to_ms_dtype(type_)
    return {_BOOL: bool, _INT: int, _FLOAT: float, _COMPLEX: complex}.get(t._category, type(None))


def pytype_to_dtype(obj):
    """The MindSpore dtype for a Python or NumPy type."""
    return to_ms_dtype(obj)


def get_py_obj_dtype(obj):
    """The MindSpore dtype of a Python object (a Tensor's dtype, or the type of a scalar)."""
    if hasattr(obj, "dtype") and isinstance(getattr(obj, "dtype"), Type):
        return TensorType(obj.dtype)
    return to_ms_dtype(type(obj))


def is_float(t: Type) -> bool:
    return t._category == _FLOAT


def is_int(t: Type) -> bool:
    return t._category == _INT


def is_complex(t: Type) -> bool:
    return t._category == _COMPLEX


def category(t: Type) -> int:
    return t._category


def _promote_same_category(a: Type, b: Type) -> Type:
    if a._category == _INT and a._signed != b._signed:
        # MindSpore follows NumPy here: uint8 + int8 -> int16, uint64 + int64 -> ... (no int128)
        return _NP_TO_MS.get(np.promote_types(a._np, b._np), int64)
    if a is bfloat16 and b is float16 or a is float16 and b is bfloat16:
        return float32
    return a if a._bits >= b._bits else b


def promote_types(a: Type, b: Type) -> Type:
    """The result dtype of a binary op between two tensors of dtypes ``a`` and ``b``."""
    if a is b:
        return a
    ca, cb = a._category, b._category
    if ca == cb:
        return _promote_same_category(a, b)
    return a if ca > cb else b


def scalar_kind(value) -> int:
    """Category of a Python or NumPy scalar (bool, int, float, complex)."""
    if isinstance(value, (bool, np.bool_)):
        return _BOOL
    if isinstance(value, (int, np.integer)):
        return _INT
    if isinstance(value, (float, np.floating)):
        return _FLOAT
    return _COMPLEX


def promote_with_scalar(t: Type, value) -> Type:
    """The result dtype of a binary op between a tensor of dtype ``t`` and a Python scalar."""
    kind = scalar_kind(value)
    if kind <= t._category:
        return t
    return {_INT: int64, _FLOAT: float32, _COMPLEX: complex64}[kind]


def default_scalar_dtype(value) -> Type:
    """The dtype MindSpore gives to ``Tensor(value)`` for a Python scalar."""
    kind = scalar_kind(value)
    if kind == _INT and int(value) >= 2 ** 63:
        return uint64
    return {_BOOL: bool_, _INT: int64, _FLOAT: float32, _COMPLEX: complex64}[kind]
