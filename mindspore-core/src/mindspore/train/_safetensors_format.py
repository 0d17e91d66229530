"""Reading and writing the safetensors format, byte-compatible with the ``safetensors`` package.

Layout (https://github.com/huggingface/safetensors): ``u64`` little-endian header length ``N``, then ``N``
bytes of UTF-8 JSON, then the raw tensor bytes (C order, little-endian). The JSON maps each name to
``{"dtype", "shape", "data_offsets": [begin, end]}`` (offsets relative to the end of the header), plus an optional
``"__metadata__"`` object of string values.

We write it ourselves instead of through ``safetensors.numpy``, which has no bfloat16 (or float8). To produce the
same bytes as the Rust writer MindSpore goes through:

* tensors are laid out by dtype rank, largest first (the order of the Rust ``Dtype`` enum, reversed), then by
  name; the header lists them in that order;
* the JSON is compact (``serde_json``: no spaces, non-ASCII kept as UTF-8) and padded with spaces to a multiple of
  8 bytes;
* ``__metadata__`` comes first. The Rust writer keeps metadata in a ``HashMap``, so with several keys its order
  changes from run to run; we keep the caller's order (one of the orders it can produce).

The reader validates everything (header bounds, JSON shape, dtypes, offsets contiguous from 0 and covering the
whole data section, byte counts matching the shapes) and raises ``ValueError`` with the reason; it never
executes anything from the file.
"""
from __future__ import annotations

import json
import math
import struct

import ml_dtypes
import numpy as np

__all__ = ["DTYPES", "dumps_header", "write", "read"]

# safetensors dtype name -> numpy dtype; the order is the Rust ``Dtype`` enum's (layout rank ascending)
DTYPES = {
    "BOOL": np.dtype(np.bool_), "U8": np.dtype(np.uint8), "I8": np.dtype(np.int8),
    "F8_E5M2": np.dtype(ml_dtypes.float8_e5m2), "F8_E4M3": np.dtype(ml_dtypes.float8_e4m3fn),
    "I16": np.dtype("<i2"), "U16": np.dtype("<u2"), "F16": np.dtype("<f2"),
    "BF16": np.dtype(ml_dtypes.bfloat16), "I32": np.dtype("<i4"), "U32": np.dtype("<u4"),
    "F32": np.dtype("<f4"), "C64": np.dtype("<c8"), "F64": np.dtype("<f8"), "I64": np.dtype("<i8"),
    "U64": np.dtype("<u8"),
}
_RANK = {name: i for i, name in enumerate(["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3",
                                           "F8_E8M0", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64",
                                           "F64", "I64", "U64"])}
_MAX_HEADER = 100_000_000  # the Rust reader's limit
_MAX_RANK = 64  # NumPy's maximum number of dims


def dtype_name(np_dtype):
    """The safetensors name of a NumPy dtype (either byte order), or None when the format has none."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype.kind in "iufc" and np_dtype.itemsize > 1:
        np_dtype = np_dtype.newbyteorder("<")
    for name, dt in DTYPES.items():
        if dt == np_dtype:
            return name
    return None


def _layout(arrays):
    """[(name, safetensors dtype, little-endian C-contiguous array)] in the Rust writer's order."""
    items = []
    for name, arr in arrays.items():
        arr = np.asarray(arr)
        st_name = dtype_name(arr.dtype)
        if st_name is None:
            raise ValueError(f"For 'safetensors', the tensor '{name}' has dtype {arr.dtype}, which the safetensors "
                             f"format cannot store.")
        le = DTYPES[st_name]
        if arr.dtype != le:
            arr = arr.astype(le)
        items.append((name, st_name, np.asarray(arr, order="C")))  # not ascontiguousarray: it makes 0-d 1-d
    items.sort(key=lambda item: (-_RANK[item[1]], item[0]))
    return items


def dumps_header(items, metadata=None):
    """The padded JSON header for ``items`` as laid out by :func:`_layout`."""
    header = {}
    if metadata:
        for k, v in metadata.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError(f"For 'safetensors', the metadata must map str to str, but got {k!r}: {v!r}.")
        header["__metadata__"] = dict(metadata)
    offset = 0
    for name, st_name, arr in items:
        header[name] = {"dtype": st_name, "shape": [int(d) for d in arr.shape],
                        "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return text + b" " * (-len(text) % 8)


def write(f, arrays, metadata=None):
    """Write ``arrays`` (an ordered ``{name: ndarray}``) to the binary file object ``f``; returns bytes written."""
    if "__metadata__" in arrays:
        raise ValueError("For 'safetensors', a tensor can not be named '__metadata__'.")
    items = _layout(arrays)
    header = dumps_header(items, metadata)
    f.write(struct.pack("<Q", len(header)))
    f.write(header)
    total = 8 + len(header)
    for _, _, arr in items:
        if arr.nbytes:
            f.write(arr.reshape(-1).view(np.uint8).data)
        total += arr.nbytes
    return total


def _bad(source, reason):
    return ValueError(f"Failed to read the safetensors file {source}: {reason}.")


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key '{k}' in the header")
        out[k] = v
    return out


def _parse_header(buf, source):
    if len(buf) < 8:
        raise _bad(source, f"the file has {len(buf)} bytes, fewer than the 8-byte header length")
    (n,) = struct.unpack_from("<Q", buf, 0)
    if n > _MAX_HEADER or 8 + n > len(buf):
        raise _bad(source, f"the header length {n} does not fit in the file of {len(buf)} bytes (truncated?)")
    try:
        header = json.loads(bytes(buf[8:8 + n]).decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError) as e:
        raise _bad(source, f"the header is not valid JSON ({e})") from None
    except RecursionError:
        raise _bad(source, "the header nests JSON arrays or objects too deeply") from None
    if not isinstance(header, dict):
        raise _bad(source, "the header is not a JSON object")
    metadata = header.pop("__metadata__", None)
    if metadata is not None and not (isinstance(metadata, dict)
                                     and all(isinstance(v, str) for v in metadata.values())):
        raise _bad(source, "'__metadata__' must map strings to strings")
    return 8 + n, header, metadata


def _check_entry(name, info, source):
    if not isinstance(info, dict) or set(info) != {"dtype", "shape", "data_offsets"}:
        raise _bad(source, f"the entry '{name}' must have exactly 'dtype', 'shape' and 'data_offsets'")
    dt = DTYPES.get(info["dtype"]) if isinstance(info["dtype"], str) else None
    if dt is None:
        raise _bad(source, f"the entry '{name}' has an unsupported dtype {info['dtype']!r}")
    shape, offs = info["shape"], info["data_offsets"]
    if not (isinstance(shape, list) and len(shape) <= _MAX_RANK and all(type(d) is int and d >= 0 for d in shape)):
        raise _bad(source, f"the entry '{name}' has an invalid shape {shape!r:.200}")
    if not (isinstance(offs, list) and len(offs) == 2 and all(type(o) is int and o >= 0 for o in offs)):
        raise _bad(source, f"the entry '{name}' has invalid data_offsets {offs!r:.200}")
    nbytes = math.prod(shape) * dt.itemsize  # Python ints: a product that overflows int64 must not wrap to 0
    if math.prod(d for d in shape if d) * dt.itemsize >= 2 ** 63:
        raise _bad(source, f"the entry '{name}' has a shape {tuple(shape)} that no tensor can have")
    if offs[1] - offs[0] != nbytes:
        raise _bad(source, f"the entry '{name}' has {offs[1] - offs[0]} bytes but its shape {tuple(shape)} and dtype "
                           f"{info['dtype']} need {nbytes}")
    return dt, tuple(shape), offs[0], offs[1]


def read(buf, source="<memory>"):
    """Parse a whole safetensors file held in ``buf`` (bytes-like).

    Returns ``(arrays, metadata)``: ``{name: ndarray}`` in sorted name order (each array a copy, writable) and the
    metadata dict or None.
    """
    buf = memoryview(buf).cast("B")
    start, header, metadata = _parse_header(buf, source)
    entries = {name: _check_entry(name, info, source) for name, info in header.items()}
    end = 0
    for name, (_, _, begin, stop) in sorted(entries.items(), key=lambda kv: (kv[1][2], kv[1][3])):
        if begin != end:
            raise _bad(source, f"the data of '{name}' starts at byte {begin}, expected {end} (gap or overlap)")
        end = stop
    if start + end != len(buf):
        raise _bad(source, f"the header describes {end} data bytes but the file holds {len(buf) - start} "
                           f"(truncated or trailing garbage)")
    arrays = {}
    for name in sorted(entries):
        dt, shape, begin, stop = entries[name]
        arr = np.frombuffer(buf[start + begin:start + stop], dtype=dt).reshape(shape).copy()
        arrays[name] = arr
    return arrays, metadata
