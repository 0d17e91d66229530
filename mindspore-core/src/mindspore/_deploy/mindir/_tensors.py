"""Tensors in MindIR files: ``TensorProto.data_type`` codes <-> MindSpore dtypes, and tensor bytes in and out.

A tensor's data is ``raw_data`` (little-endian, C order), one of the legacy typed arrays (``float_data``,
``int32_data``, ``int64_data``, ``double_data``, ``uint64_data``), or ``external_data`` (``location``,
``offset``, ``length`` into a file of the ``<name>_variables/`` folder, for models over 1 GiB). Reading
never executes anything: bytes become arrays through ``numpy.frombuffer`` only, after their length is
checked against the dims, and an external location must stay inside the model's folder.
"""
from __future__ import annotations

import os

import numpy as np

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype

__all__ = ["DATA_TYPES", "code_of", "dtype_of", "to_array", "fill_tensor_proto"]

#: ``TensorProto.DataType`` code -> MindSpore dtype (FLOAT64 is 2.10's own code for float64; DOUBLE is read too).
DATA_TYPES = {
    1: mstype.float32, 2: mstype.uint8, 3: mstype.int8, 4: mstype.uint16, 5: mstype.int16, 6: mstype.int32,
    7: mstype.int64, 9: mstype.bool_, 10: mstype.float16, 11: mstype.float64, 12: mstype.uint32,
    13: mstype.uint64, 14: mstype.complex64, 15: mstype.complex128, 16: mstype.bfloat16, 17: mstype.float64,
}
_CODES = {dtype: code for code, dtype in DATA_TYPES.items() if code != 17}


def code_of(dtype):
    """The ``TensorProto.DataType`` code MindSpore writes for ``dtype``."""
    code = _CODES.get(mstype.to_ms_dtype(dtype))
    if code is None:
        raise MSValueError(f"For 'export', a tensor of dtype {dtype} can not be stored in a MindIR file.")
    return code


def dtype_of(code, what="a tensor"):
    dtype = DATA_TYPES.get(int(code))
    if dtype is None:
        raise MSValueError(f"For 'load', {what} has data type code {code}, which is not a MindIR tensor type.")
    return dtype


def _check_dims(dims, what):
    for d in dims:
        if d < 0:
            raise MSValueError(f"For 'load', {what} has a negative dimension in its shape {list(dims)}.")
    n = 1
    for d in dims:
        n *= d
    if n > 1 << 40:
        raise MSValueError(f"For 'load', {what} claims {n} elements: the file is corrupt.")
    return n


def to_array(t, what=None, base_dir=None):
    """The NumPy array of a ``TensorProto`` (its dtype is the MindSpore dtype's NumPy dtype)."""
    what = what or f"the tensor '{t.name or t.ref_key}'"
    dtype = dtype_of(t.data_type, what)
    np_dtype = np.dtype(dtype.to_numpy()).newbyteorder("<")
    dims = tuple(int(d) for d in t.dims)
    n = _check_dims(dims, what)
    if t.HasField("external_data"):
        data = _read_external(t.external_data, base_dir, what)
    elif t.raw_data or n == 0:
        data = t.raw_data
    else:
        for field in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
            values = getattr(t, field)
            if len(values):
                if len(values) != n:
                    raise MSValueError(f"For 'load', {what} has {len(values)} values in '{field}' for shape "
                                       f"{list(dims)} ({n} values): the file is corrupt.")
                return np.asarray(list(values)).astype(dtype.to_numpy()).reshape(dims)
        data = b""
    if len(data) != n * np_dtype.itemsize:
        raise MSValueError(f"For 'load', {what} has {len(data)} bytes of data for shape {list(dims)} and dtype "
                           f"{dtype} ({n * np_dtype.itemsize} bytes expected): the file is truncated or corrupt.")
    return np.frombuffer(data, dtype=np_dtype).astype(dtype.to_numpy(), copy=True).reshape(dims)


def _read_external(ext, base_dir, what):
    if base_dir is None:
        raise MSValueError(f"For 'load', {what} keeps its data in an external file, but the model was not read from "
                           "a file.")
    location = ext.location
    if isinstance(location, bytes):     # protobuf gives bytes for a string that is not UTF-8 (a corrupt file)
        location = location.decode("utf-8", errors="replace")
    path = os.path.realpath(os.path.join(base_dir, location))
    root = os.path.realpath(base_dir)
    if os.path.isabs(location) or not path.startswith(root + os.sep):
        raise MSValueError(f"For 'load', {what} points at external data '{location}' outside the model's folder.")
    if ext.offset < 0 or ext.length < 0:
        raise MSValueError(f"For 'load', {what} has a negative external data offset or length.")
    try:
        size = os.path.getsize(path)
        if ext.offset + ext.length > size:
            raise MSValueError(f"For 'load', {what} reads bytes {ext.offset}..{ext.offset + ext.length} of '{location}', "
                               f"which has {size}: the file is truncated.")
        with open(path, "rb") as f:
            f.seek(ext.offset)
            return f.read(ext.length)
    except OSError as exc:
        raise MSValueError(f"For 'load', the external data '{location}' of {what} can not be read: {exc}.") from None


def fill_tensor_proto(t, array, dtype):
    """Set ``data_type``, ``dims`` and ``raw_data`` of the ``TensorProto`` ``t`` from an array of ``dtype``."""
    array = np.asarray(array, dtype=mstype.to_ms_dtype(dtype).to_numpy())
    array = np.ascontiguousarray(array).reshape(array.shape)   # ascontiguousarray makes a 0-d array 1-d
    t.data_type = code_of(dtype)
    del t.dims[:]
    t.dims.extend(int(d) for d in array.shape)
    t.raw_data = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    return t
