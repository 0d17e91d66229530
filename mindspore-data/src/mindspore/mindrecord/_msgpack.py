"""A small MessagePack codec for the raw (non-blob) fields of MindRecord rows.

MindSpore stores the primitive fields of each row as one MessagePack map (its C++ writer uses
nlohmann::json::to_msgpack). This module covers the subset such maps use: nil, booleans, integers,
floats, strings, binary, arrays and maps. The encoder picks the smallest encoding as nlohmann does
(non-negative integers in the unsigned forms, a float in float32 form when float32 holds it exactly,
map keys sorted), so files match MindSpore's byte for byte. Decoding errors raise ``ValueError``.
"""
import math
import struct

__all__ = ["packb", "unpackb"]

_F32 = struct.Struct(">f")
MAX_DEPTH = 64  # raw fields are scalars; anything nested deeper is a damaged record (and would exhaust the stack)
_F64 = struct.Struct(">d")


def _pack_int(value, out):
    if value >= 0:
        if value < 0x80:
            out.append(value)
        elif value <= 0xFF:
            out += b"\xcc" + value.to_bytes(1, "big")
        elif value <= 0xFFFF:
            out += b"\xcd" + value.to_bytes(2, "big")
        elif value <= 0xFFFFFFFF:
            out += b"\xce" + value.to_bytes(4, "big")
        elif value <= 0xFFFFFFFFFFFFFFFF:
            out += b"\xcf" + value.to_bytes(8, "big")
        else:
            raise ValueError(f"integer {value} does not fit in 64 bits")
    elif value >= -32:
        out.append(value & 0xFF)
    elif value >= -0x80:
        out += b"\xd0" + value.to_bytes(1, "big", signed=True)
    elif value >= -0x8000:
        out += b"\xd1" + value.to_bytes(2, "big", signed=True)
    elif value >= -0x80000000:
        out += b"\xd2" + value.to_bytes(4, "big", signed=True)
    elif value >= -0x8000000000000000:
        out += b"\xd3" + value.to_bytes(8, "big", signed=True)
    else:
        raise ValueError(f"integer {value} does not fit in 64 bits")


def _pack_float(value, out):
    value = float(value)
    try:
        as_f32 = _F32.pack(value)
        exact = math.isnan(value) is False and _F32.unpack(as_f32)[0] == value
    except OverflowError:
        exact = False
    if exact:
        out += b"\xca" + as_f32
    else:
        out += b"\xcb" + _F64.pack(value)


def _pack_len(n, fix_tag, fix_max, tags, out):
    if n <= fix_max and fix_tag is not None:
        out.append(fix_tag | n)
    elif n <= 0xFF and tags[0] is not None:
        out += tags[0] + n.to_bytes(1, "big")
    elif n <= 0xFFFF:
        out += tags[1] + n.to_bytes(2, "big")
    else:
        out += tags[2] + n.to_bytes(4, "big")


def _pack(obj, out):
    if obj is None:
        out.append(0xC0)
    elif obj is True:
        out.append(0xC3)
    elif obj is False:
        out.append(0xC2)
    elif isinstance(obj, int):
        _pack_int(int(obj), out)
    elif isinstance(obj, float):
        _pack_float(obj, out)
    elif isinstance(obj, str):
        data = obj.encode("utf-8")
        _pack_len(len(data), 0xA0, 31, (b"\xd9", b"\xda", b"\xdb"), out)
        out += data
    elif isinstance(obj, (bytes, bytearray, memoryview)):
        data = bytes(obj)
        _pack_len(len(data), None, -1, (b"\xc4", b"\xc5", b"\xc6"), out)
        out += data
    elif isinstance(obj, (list, tuple)):
        _pack_len(len(obj), 0x90, 15, (None, b"\xdc", b"\xdd"), out)
        for item in obj:
            _pack(item, out)
    elif isinstance(obj, dict):
        _pack_len(len(obj), 0x80, 15, (None, b"\xde", b"\xdf"), out)
        for key in sorted(obj):
            _pack(key, out)
            _pack(obj[key], out)
    else:
        # numpy scalars and other number-likes
        if hasattr(obj, "dtype") and getattr(obj.dtype, "kind", "") in "iub":
            _pack(obj.item(), out)
        elif hasattr(obj, "dtype") and getattr(obj.dtype, "kind", "") == "f":
            _pack_float(float(obj), out)
        else:
            raise TypeError(f"cannot encode a value of type {type(obj).__name__} in MessagePack")


def packb(obj):
    """Encode ``obj`` (None, bool, int, float, str, bytes, list, dict) to MessagePack bytes."""
    out = bytearray()
    _pack(obj, out)
    return bytes(out)


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        end = self.pos + n
        if end > len(self.data):
            raise ValueError("truncated MessagePack data")
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def uint(self, n):
        return int.from_bytes(self.take(n), "big")

    def sint(self, n):
        return int.from_bytes(self.take(n), "big", signed=True)


def _unpack(r, depth=0):
    if depth > MAX_DEPTH:
        raise ValueError(f"MessagePack arrays or maps nested more than {MAX_DEPTH} deep")
    tag = r.uint(1)
    if tag <= 0x7F:
        return tag
    if tag >= 0xE0:
        return tag - 0x100
    if 0x80 <= tag <= 0x8F:
        return _unpack_map(r, tag & 0x0F, depth)
    if 0x90 <= tag <= 0x9F:
        return _unpack_array(r, tag & 0x0F, depth)
    if 0xA0 <= tag <= 0xBF:
        return _decode_str(r.take(tag & 0x1F))
    simple = {0xC0: None, 0xC2: False, 0xC3: True}
    if tag in simple:
        return simple[tag]
    sized = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}
    if tag in sized:
        return r.uint(sized[tag])
    signed = {0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8}
    if tag in signed:
        return r.sint(signed[tag])
    if tag == 0xCA:
        return _F32.unpack(r.take(4))[0]
    if tag == 0xCB:
        return _F64.unpack(r.take(8))[0]
    strs = {0xD9: 1, 0xDA: 2, 0xDB: 4}
    if tag in strs:
        return _decode_str(r.take(r.uint(strs[tag])))
    bins = {0xC4: 1, 0xC5: 2, 0xC6: 4}
    if tag in bins:
        return bytes(r.take(r.uint(bins[tag])))
    if tag in (0xDC, 0xDD):
        return _unpack_array(r, r.uint(2 if tag == 0xDC else 4), depth)
    if tag in (0xDE, 0xDF):
        return _unpack_map(r, r.uint(2 if tag == 0xDE else 4), depth)
    raise ValueError(f"unsupported MessagePack type byte 0x{tag:02x}")


def _decode_str(raw):
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"invalid UTF-8 in MessagePack string: {exc}") from None


def _check_count(r, n):
    # every element takes at least one byte: a count beyond the bytes left is a damaged record, not a reason
    # to loop billions of times
    if n > len(r.data) - r.pos:
        raise ValueError(f"truncated MessagePack data ({n} elements announced, {len(r.data) - r.pos} bytes left)")


def _unpack_array(r, n, depth):
    _check_count(r, n)
    return [_unpack(r, depth + 1) for _ in range(n)]


def _unpack_map(r, n, depth):
    _check_count(r, 2 * n)
    result = {}
    for _ in range(n):
        key = _unpack(r, depth + 1)
        if isinstance(key, (list, dict)):
            raise ValueError("MessagePack map key must not be an array or a map")
        result[key] = _unpack(r, depth + 1)
    return result


def unpackb(data):
    """Decode one MessagePack value that fills ``data`` exactly; ``ValueError`` when malformed."""
    r = _Reader(memoryview(data) if not isinstance(data, (bytes, memoryview)) else data)
    value = _unpack(r)
    if r.pos != len(r.data):
        raise ValueError(f"{len(r.data) - r.pos} trailing bytes after MessagePack value")
    return value
