"""Hypothesis strategies that damage valid files: byte-level mutations and structured (JSON) mutations.

``mutated(base, focus)`` applies one to four byte-level operations to ``base``: truncation, bit flips, bytes set to
edge values, integers written over the data (little- or big-endian, 1 to 8 bytes, from a list of lengths that
break naive readers: 0, 2**31, 2**63 - 1, 2**64 - 1, ...), insertions, deletions, splices that duplicate a part
of the file elsewhere, runs of 0xFF (protobuf varints that never end) and trailing garbage. ``focus`` is a list
of ``(start, end)`` byte ranges where positions are drawn (the header and the pages of a MindRecord file, whose
mostly-zero body would otherwise absorb the mutations).

``json_mutated(obj)`` damages a parsed JSON header: it walks to a random place and replaces a value with hostile
JSON (huge, negative, fractional or non-finite numbers, strings, nulls, lists, objects, deep nesting), deletes a
key, or adds one.
"""
from __future__ import annotations

import copy

from hypothesis import strategies as st

INTERESTING_INTS = (0, 1, 2, 3, 7, 8, 15, 16, 127, 128, 255, 256, 4095, 65535, 65536, 2 ** 31 - 1, 2 ** 31,
                    2 ** 32 - 1, 2 ** 32, 2 ** 40, 2 ** 53, 2 ** 62, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1)
SIGNED_INTS = INTERESTING_INTS + tuple(-v for v in INTERESTING_INTS[1:]) + (-(2 ** 63), 10 ** 30, -(10 ** 30))


def _position(draw, data, focus, end_inclusive=False):
    extra = 1 if end_inclusive else 0
    ranges = [(max(0, lo), min(len(data) - 1 + extra, hi)) for lo, hi in focus or []]
    ranges = [(lo, hi) for lo, hi in ranges if lo <= hi]
    if not ranges:
        ranges = [(0, len(data) - 1 + extra)]
    lo, hi = draw(st.sampled_from(ranges))
    return draw(st.integers(lo, hi))


def _int_bytes(draw):
    width = draw(st.sampled_from((1, 2, 4, 8)))
    value = draw(st.sampled_from(INTERESTING_INTS) | st.integers(0, 2 ** 64 - 1)) % (1 << (8 * width))
    return value.to_bytes(width, draw(st.sampled_from(("little", "big"))))


def _one_mutation(draw, data, focus):
    if not data:
        return bytearray(draw(st.binary(min_size=1, max_size=16)))
    kind = draw(st.sampled_from(("truncate", "flip", "set", "int", "insert", "delete", "splice", "varint",
                                 "append")))
    pos = _position(draw, data, focus, end_inclusive=kind in ("truncate", "insert", "splice"))
    if kind == "truncate":
        return data[:pos]
    if kind == "flip":
        data[pos] ^= 1 << draw(st.integers(0, 7))
    elif kind == "set":
        data[pos] = draw(st.sampled_from((0, 1, 0x7F, 0x80, 0xFF)) | st.integers(0, 255))
    elif kind == "int":
        raw = _int_bytes(draw)
        data[pos:pos + len(raw)] = raw
    elif kind == "insert":
        data[pos:pos] = draw(st.binary(min_size=1, max_size=16))
    elif kind == "delete":
        del data[pos:pos + draw(st.integers(1, 64))]
    elif kind == "splice":
        start = draw(st.integers(0, len(data) - 1))
        chunk = data[start:start + draw(st.integers(1, 256))]
        data[pos:pos] = chunk
    elif kind == "varint":
        data[pos:pos] = b"\xff" * draw(st.integers(1, 12))
    else:
        data += draw(st.binary(min_size=1, max_size=64))
    return data


@st.composite
def mutated(draw, base, focus=None):
    """``base`` after one to four byte-level mutations (drawn in ``focus`` ranges when given)."""
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 4))):
        data = _one_mutation(draw, data, focus)
    return bytes(data)


def _finite_or_not():
    return st.sampled_from((float("inf"), float("-inf"), float("nan"), 1e300, -0.0, 0.5, 1e-300))


def hostile_json():
    """JSON values a reader might trip over."""
    scalars = (st.sampled_from(SIGNED_INTS) | st.integers() | _finite_or_not() | st.booleans() | st.none()
               | st.text(max_size=8) | st.sampled_from(("", "BLOB_DATA", "RAW_DATA", "F32", "int32", "bytes")))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6),
                                                                                         inner, max_size=3),
                        max_leaves=8)


def _children(node):
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


@st.composite
def json_mutated(draw, obj):
    """A deep copy of ``obj`` with one to three structural mutations."""
    obj = copy.deepcopy(obj)
    for _ in range(draw(st.integers(1, 3))):
        parent, key = None, None
        node = obj
        # walk down a random path; stop anywhere
        while _children(node) and draw(st.booleans()):
            parent, key = node, draw(st.sampled_from(_children(node)))
            node = node[key]
        action = draw(st.sampled_from(("replace", "replace", "delete", "add", "wrap", "deep")))
        if parent is None:
            if isinstance(obj, dict) and action == "add":
                obj[draw(st.text(max_size=8))] = draw(hostile_json())
            elif action in ("replace", "wrap") and draw(st.booleans()):
                obj = [obj] if action == "wrap" else draw(hostile_json())
            continue
        if action == "replace":
            parent[key] = draw(hostile_json())
        elif action == "delete":
            del parent[key]
        elif action == "add" and isinstance(node, dict):
            node[draw(st.text(max_size=8))] = draw(hostile_json())
        elif action == "add" and isinstance(node, list):
            node.append(copy.deepcopy(node[0]) if node and draw(st.booleans()) else draw(hostile_json()))
        elif action == "wrap":
            parent[key] = [node]
        else:
            depth = draw(st.sampled_from((50, 1000, 100_000)))
            parent[key] = _Deep(depth)
    return obj


class _Deep:
    """A placeholder serialised by :func:`dumps` as ``depth`` nested lists (json.dumps itself would recurse)."""

    def __init__(self, depth):
        self.depth = depth


def dumps(obj, **kwargs):
    """``json.dumps`` that writes :class:`_Deep` placeholders as deeply nested lists, and NaN/Infinity as Python
    writes them (a reader must cope with both)."""
    import json

    marks = []

    def default(o):
        if isinstance(o, _Deep):
            marks.append(o.depth)
            return f"\x00deep{len(marks) - 1}\x00"
        raise TypeError(type(o).__name__)

    text = json.dumps(obj, default=default, **kwargs)
    for i, depth in enumerate(marks):
        text = text.replace(f'"\\u0000deep{i}\\u0000"', "[" * depth + "]" * depth, 1)
    return text
