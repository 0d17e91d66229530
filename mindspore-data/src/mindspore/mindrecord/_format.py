"""The MindRecord on-disk format: MindSpore's own layout, read and written byte-compatibly.

A MindRecord data set is one file per shard (``name`` when ``shard_num == 1``, else ``name0`` ...
``name{N-1}``, zero-padded to the same width), each with a SQLite index ``<file>.db``.

Shard file::

    [0, 8)                       header length L, uint64 little-endian
    [8, 8 + L)                   header, UTF-8 JSON (below); the rest of the header area is zero
    header_size + k * page_size  page k (k = 0, 1, ...); a page holds ``page_size`` bytes at most and
                                 the file is written sparsely (unused page tails are holes)

Header JSON keys, in this order: ``header_size``, ``index_fields`` (``[{"index_field", "schema_id"}]``
or null), ``page`` (list of page records), ``page_size``, ``compression_size``, ``schema``
(``[{"blob_fields": [...], "desc": str, "schema": {field: {"type": t[, "shape": [...]]}}}]``, one
schema), ``shard_addresses`` (base names of all shard files), ``shard_id``, ``statistics`` (null),
``version`` ("3.0"). Page record: ``end_row_id``, ``page_id``, ``page_size`` (bytes used),
``page_type`` ("BLOB_DATA" or "RAW_DATA"), ``page_type_id``, ``row_group_ids`` (``[{"id", "offset"}]``),
``shard_id``, ``start_row_id``.

Rows. Fields of type ``bytes`` and fields with a ``shape`` are *blob* fields; the others are *raw*.
Each blob page is one row group (its ``page_type_id`` is the group id) and holds, for each of its
rows, ``uint64-LE length + blob``. A row's blob is the single blob field's bytes when there is one
blob field, else, for each blob field in sorted order, ``uint64-BE length + bytes``; with no blob
field it is 4 zero bytes. When the schema has an int32/int64 array field, every int32/int64 blob
field is stored compressed: ``uint32-BE count``, a bitmap of 2 bits per element (MSB first; 0..3 =
int8/16/32/64), then each element little-endian in its own width. Raw pages hold, for each row,
``uint64-LE length + MessagePack map`` of the raw fields (``{"id": 0}`` when there is none); a row
group's raw records are contiguous, starting at the offset its ``row_group_ids`` entry gives.

Index ``<file>.db``: table ``INDEXES(ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END,
ROW_GROUP_ID, PAGE_ID_BLOB, PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END, [INC_k, <field>_0]...)`` with one
row per record (offsets are within the page, the record's length prefix included) and the index
fields' values; table ``SHARD_NAME(NAME)`` holds the shard file's base name.

This module holds the codecs shared by the writer and the reader, and the reader. Every problem in
a file is raised as ``RuntimeError`` naming the file, never as a struct/numpy/sqlite traceback.
"""
import json
import os
import sqlite3
import struct
import threading
from pathlib import Path

import numpy as np

from mindspore.mindrecord import _msgpack

VERSION = "3.0"
SUPPORTED_VERSIONS = ("2.0", "3.0")
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000
MAX_RANK = 64  # NumPy's maximum number of dims
PAGE_BLOB, PAGE_RAW = "BLOB_DATA", "RAW_DATA"
SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
NUMPY_TYPES = {"int32": np.int32, "int64": np.int64, "float32": np.float32, "float64": np.float64}
INDEX_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}
DUMMY_RAW = {"id": 0}
EMPTY_BLOB = bytes(4)
_U64 = struct.Struct("<Q")
_INT_LIMITS = {"int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1)}


class MindRecordFormatError(RuntimeError):
    """A MindRecord file (or its index) is missing, malformed or truncated."""


# ----------------------------------------------------------------------------------------------------------------
# schema helpers


def is_blob_field(spec):
    return spec["type"] == "bytes" or "shape" in spec


def blob_fields_of(schema):
    return [name for name in sorted(schema) if is_blob_field(schema[name])]


def compresses_integers(schema):
    return any("shape" in spec and spec["type"] in ("int32", "int64") for spec in schema.values())


def default_index_fields(schema):
    return [name for name in sorted(schema) if not is_blob_field(schema[name])]


# ----------------------------------------------------------------------------------------------------------------
# integer array compression

_CODE_DTYPES = (np.dtype("<i1"), np.dtype("<i2"), np.dtype("<i4"), np.dtype("<i8"))
_CODE_SIZES = np.array([1, 2, 4, 8], np.int64)


def compress_ints(raw, type_name):
    """Compress the little-endian int32/int64 array bytes ``raw`` as MindSpore does."""
    values = np.frombuffer(raw, dtype="<i4" if type_name == "int32" else "<i8").astype(np.int64)
    n = values.size
    codes = np.full(n, 3, np.uint8)
    codes[(values >= -(1 << 31)) & (values < (1 << 31))] = 2
    codes[(values >= -(1 << 15)) & (values < (1 << 15))] = 1
    codes[(values >= -(1 << 7)) & (values < (1 << 7))] = 0
    padded = np.zeros((n + 3) // 4 * 4, np.uint8)
    padded[:n] = codes
    quads = padded.reshape(-1, 4)
    bitmap = (quads[:, 0] << 6) | (quads[:, 1] << 4) | (quads[:, 2] << 2) | quads[:, 3]
    sizes = _CODE_SIZES[codes]
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])) if n else np.zeros(0, np.int64)
    body = np.zeros(int(sizes.sum()), np.uint8)
    for code in range(4):
        sel = np.nonzero(codes == code)[0]
        if sel.size:
            width = int(_CODE_SIZES[code])
            pieces = values[sel].astype(_CODE_DTYPES[code]).view(np.uint8).reshape(-1, width)
            body[starts[sel][:, None] + np.arange(width)] = pieces
    return struct.pack(">I", n) + bitmap.astype(np.uint8).tobytes() + body.tobytes()


def uncompress_ints(data, type_name):
    """Inverse of :func:`compress_ints`; returns little-endian int32/int64 bytes. ``ValueError`` if malformed."""
    if len(data) < 4:
        raise ValueError("compressed integer array shorter than its 4-byte element count")
    n = struct.unpack(">I", bytes(data[:4]))[0]
    nbitmap = (n + 3) // 4
    if len(data) < 4 + nbitmap:
        raise ValueError("compressed integer array shorter than its type bitmap")
    bitmap = np.frombuffer(data, np.uint8, nbitmap, 4)
    codes = np.stack([(bitmap >> 6) & 3, (bitmap >> 4) & 3, (bitmap >> 2) & 3, bitmap & 3], axis=1).reshape(-1)[:n]
    sizes = _CODE_SIZES[codes]
    body = np.frombuffer(data, np.uint8, len(data) - 4 - nbitmap, 4 + nbitmap)
    if int(sizes.sum()) != body.size:
        raise ValueError(f"compressed integer array holds {body.size} data bytes, its bitmap describes {sizes.sum()}")
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])) if n else np.zeros(0, np.int64)
    values = np.empty(n, np.int64)
    for code in range(4):
        sel = np.nonzero(codes == code)[0]
        if sel.size:
            width = int(_CODE_SIZES[code])
            chunk = body[starts[sel][:, None] + np.arange(width)]
            values[sel] = np.ascontiguousarray(chunk).view(_CODE_DTYPES[code]).reshape(-1)
    out_dtype = "<i4" if type_name == "int32" else "<i8"
    return values.astype(out_dtype).tobytes()


# ----------------------------------------------------------------------------------------------------------------
# blob merge / split


def merge_blob(schema, blob_fields, values, compress):
    """One row's blob bytes from ``values`` (field -> bytes, already in storage byte order)."""
    if not blob_fields:
        return EMPTY_BLOB
    parts = []
    for name in blob_fields:
        data = values[name]
        if compress and schema[name]["type"] in ("int32", "int64"):
            data = compress_ints(data, schema[name]["type"])
        parts.append(data)
    if len(blob_fields) == 1:
        return parts[0]
    return b"".join(struct.pack(">Q", len(p)) + p for p in parts)


def split_blob(schema, blob_fields, blob, compress, wanted):
    """Field -> bytes for the blob fields in ``wanted`` (decompressed). ``ValueError`` if malformed."""
    out = {}
    if not blob_fields:
        return out
    if len(blob_fields) == 1:
        pieces = {blob_fields[0]: blob}
    else:
        pieces, pos = {}, 0
        for name in blob_fields:
            if pos + 8 > len(blob):
                raise ValueError(f"blob ends before the length of field '{name}'")
            size = struct.unpack(">Q", bytes(blob[pos:pos + 8]))[0]
            pos += 8
            if pos + size > len(blob):
                raise ValueError(f"blob ends inside field '{name}' ({size} bytes announced)")
            pieces[name] = blob[pos:pos + size]
            pos += size
    for name in wanted:
        if name in pieces:
            data = pieces[name]
            if compress and schema[name]["type"] in ("int32", "int64"):
                data = uncompress_ints(data, schema[name]["type"])
            out[name] = bytes(data)
    return out


# ----------------------------------------------------------------------------------------------------------------
# header


def page_record(page):
    groups = page["row_group_ids"] or [(0, 0)]
    return {"end_row_id": page["end_row_id"], "page_id": page["page_id"], "page_size": page["page_size"],
            "page_type": page["page_type"], "page_type_id": page["page_type_id"],
            "row_group_ids": [{"id": gid, "offset": off} for gid, off in groups],
            "shard_id": page["shard_id"], "start_row_id": page["start_row_id"]}


def serialize_header(*, header_size, page_size, index_fields, pages, compression_size, schema, desc, blob_fields,
                     addresses, shard_id):
    """The header bytes of one shard, with MindSpore's key order and compact separators."""
    def dump(obj):
        return json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    index = [{"index_field": f, "schema_id": 0} for f in index_fields] if index_fields else None
    page_list = [page_record(p) for p in pages] if pages else None
    schema_list = [{"blob_fields": list(blob_fields), "desc": desc, "schema": schema}]
    text = ("{" + f'"header_size":{header_size},"index_fields":{dump(index)},"page":{dump(page_list)},'
            f'"page_size":{page_size},"compression_size":{compression_size},"schema":{dump(schema_list)},'
            f'"shard_addresses":{dump(list(addresses))},"shard_id":{shard_id},"statistics":null,'
            f'"version":{dump(VERSION)}' + "}")
    return text.encode("utf-8")


def _fail(path, what):
    raise MindRecordFormatError(f"Invalid MindRecord file '{path}': {what}")


def read_header(path):
    """Parse and validate the header of one shard file; returns the header dict."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(8)
            if len(head) < 8:
                _fail(path, f"the file has {size} bytes, fewer than the 8-byte header length")
            length = _U64.unpack(head)[0]
            if length == 0 or length > MAX_HEADER_SIZE or 8 + length > size:
                _fail(path, f"header length {length} does not fit in the file ({size} bytes); the file is "
                            "truncated or not a MindRecord file")
            raw = f.read(length)
    except FileNotFoundError:
        raise MindRecordFormatError(f"MindRecord file '{path}' does not exist.") from None
    except IsADirectoryError:
        raise MindRecordFormatError(f"MindRecord path '{path}' is a directory, not a file.") from None
    except PermissionError:
        raise MindRecordFormatError(f"MindRecord file '{path}' cannot be read (permission denied).") from None
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        _fail(path, f"the header is not valid JSON ({exc}); the file is corrupted or not a MindRecord file")
    except RecursionError:
        _fail(path, "the header nests JSON arrays or objects too deeply; the file is corrupted")
    _check_header(path, header, length)
    return header


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _check_sizes(path, header, length):
    limits = {"header_size": (8 + length, MAX_HEADER_SIZE), "page_size": (1, MAX_PAGE_SIZE)}
    for key, (low, high) in limits.items():
        value = header[key]
        if not _is_int(value) or not low <= value <= high:
            _fail(path, f"'{key}' is {value!r:.40}, not an integer in [{low}, {high}]")


def _valid_shape(shape):
    return (isinstance(shape, list) and 0 < len(shape) <= MAX_RANK and shape.count(-1) <= 1
            and all(_is_int(d) and (d > 0 or d == -1) for d in shape))


def _check_schema(path, schemas):
    if not isinstance(schemas, list) or len(schemas) != 1 or not isinstance(schemas[0], dict):
        _fail(path, "the header must hold exactly one schema")
    schema = schemas[0].get("schema")
    if not isinstance(schema, dict) or not schema:
        _fail(path, "the schema is empty")
    for name, spec in schema.items():
        if not isinstance(spec, dict) or not isinstance(spec.get("type"), str) or spec["type"] not in SCALAR_TYPES:
            _fail(path, f"field '{name}' has an invalid schema entry {spec!r:.80}")
        if "shape" in spec and (spec["type"] not in ARRAY_TYPES or not _valid_shape(spec["shape"])):
            _fail(path, f"field '{name}' has an invalid shape {spec['shape']!r:.80}")
    blob = schemas[0].get("blob_fields")
    if (not isinstance(blob, list) or not all(isinstance(b, str) for b in blob)
            or sorted(blob) != blob_fields_of(schema)):
        _fail(path, f"blob_fields {blob!r:.80} do not match the schema")


def _check_index_fields(path, fields):
    if fields is None:
        return
    if not isinstance(fields, list) or not all(isinstance(f, dict) and isinstance(f.get("index_field"), str)
                                               for f in fields):
        _fail(path, f"'index_fields' {fields!r:.80} is not a list of {{\"index_field\": name}} objects")


def _check_page(path, k, rec, page_size):
    """One page record of the header: integer fields in range, a known type, row groups inside the page."""
    if not isinstance(rec, dict):
        _fail(path, f"page record {k} is {rec!r:.40}, not an object")
    for key in ("page_id", "start_row_id", "end_row_id", "page_size", "page_type_id"):
        value = rec.get(key)
        if not _is_int(value) or value < 0:
            _fail(path, f"'{key}' of page record {k} is {value!r:.40}, not a non-negative integer")
    if rec["end_row_id"] < rec["start_row_id"]:
        _fail(path, f"page record {k} ends at row {rec['end_row_id']}, before its start row {rec['start_row_id']}")
    if rec["page_size"] > page_size:
        _fail(path, f"page record {k} uses {rec['page_size']} bytes, more than the page size {page_size}")
    if rec.get("page_type") not in (PAGE_BLOB, PAGE_RAW):
        _fail(path, f"'page_type' of page record {k} is {rec.get('page_type')!r:.40}")
    groups = rec.get("row_group_ids")
    if not isinstance(groups, list) or not all(
            isinstance(g, dict) and _is_int(g.get("id")) and g["id"] >= 0 and _is_int(g.get("offset"))
            and 0 <= g["offset"] <= rec["page_size"] for g in groups):
        _fail(path, f"'row_group_ids' of page record {k} is {groups!r:.80}, not a list of row groups "
                    f"({{\"id\", \"offset\"}}) inside the page")


def _check_header(path, header, length):
    """Check every header field the readers use, so that nothing later trips over a hostile value."""
    if not isinstance(header, dict):
        _fail(path, "the header is not a JSON object")
    for key in ("header_size", "page_size", "schema", "shard_addresses", "page", "version"):
        if key not in header:
            _fail(path, f"the header lacks '{key}'")
    if header["version"] not in SUPPORTED_VERSIONS:
        _fail(path, f"format version {header['version']!r:.40} is not supported (supported: {SUPPORTED_VERSIONS})")
    _check_sizes(path, header, length)
    _check_schema(path, header["schema"])
    _check_index_fields(path, header.get("index_fields"))
    addresses = header["shard_addresses"]
    if not isinstance(addresses, list) or not addresses or not all(isinstance(a, str) and a for a in addresses):
        _fail(path, f"'shard_addresses' {addresses!r:.80} is not a non-empty list of file names")
    if header["page"] is not None and not isinstance(header["page"], list):
        _fail(path, "'page' is not a list")
    for k, rec in enumerate(header["page"] or []):
        _check_page(path, k, rec, header["page_size"])


# ----------------------------------------------------------------------------------------------------------------
# reading


class _Shard:
    """One shard file: its header and the absolute byte ranges of each row's raw and blob record."""

    def __init__(self, path, header):
        self.path = path
        self.header = header
        self.header_size = header["header_size"]
        self.page_size = header["page_size"]
        self.file_size = os.path.getsize(path)
        self.pages = {}
        for rec in header["page"] or []:  # fields checked by read_header; their place is checked here
            end = self.header_size + rec["page_id"] * self.page_size + rec["page_size"]
            if rec["page_size"] and end > self.file_size:
                _fail(path, f"page {rec['page_id']} ends at byte {end}, past the end of the file ({self.file_size} "
                            "bytes); the file is truncated")
            if rec["page_id"] in self.pages:
                _fail(path, f"two page records have the page id {rec['page_id']}")
            self.pages[rec["page_id"]] = rec
        db = path + ".db"
        if os.path.exists(db):
            arrays = self._rows_from_db(db)
        else:
            arrays = self._rows_from_pages()
        self.n = arrays[0].size
        self.raw_start, self.raw_end, self.blob_start, self.blob_end = arrays
        if self.n:
            last = max(int(self.raw_end.max()), int(self.blob_end.max()))
            if last > self.file_size:
                _fail(path, f"the file has {self.file_size} bytes but its rows extend to byte {last}; "
                            "the file is truncated")
            if (self.raw_end - self.raw_start < 8).any() or (self.blob_end - self.blob_start < 8).any():
                _fail(path, "a record is shorter than its 8-byte length prefix")

    def _page(self, page_id, kind):
        rec = self.pages.get(int(page_id))
        if rec is None or rec.get("page_type") != kind:
            _fail(self.path, f"the index names page {page_id} as a {kind} page, the header does not")
        return rec

    def _absolute(self, page_ids, starts, ends, kind):
        page_ids = np.asarray(page_ids, np.int64)
        starts, ends = np.asarray(starts, np.int64), np.asarray(ends, np.int64)
        used = {pid: int(self._page(pid, kind)["page_size"]) for pid in np.unique(page_ids).tolist()}
        limit = np.array([used[p] for p in page_ids.tolist()], np.int64) if page_ids.size else page_ids
        if ((starts < 0) | (ends < starts) | (ends > limit)).any():
            _fail(self.path, f"a row's {kind} record lies outside its page")
        base = self.header_size + page_ids * self.page_size
        return base + starts, base + ends

    def _rows_from_db(self, db):
        query = ("SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, PAGE_ID_BLOB, PAGE_OFFSET_BLOB, "
                 "PAGE_OFFSET_BLOB_END FROM INDEXES ORDER BY ROW_ID")
        try:
            conn = sqlite3.connect(Path(db).resolve().as_uri() + "?mode=ro", uri=True)
            try:
                rows = conn.execute(query).fetchall()
            finally:
                conn.close()
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # a damaged schema text makes SQLite's message non-UTF-8
            raise MindRecordFormatError(f"Invalid MindRecord index file '{db}': {exc}") from None
        try:
            table = np.array(rows, np.int64).reshape(-1, 7)
        except (TypeError, ValueError, OverflowError):
            raise MindRecordFormatError(f"Invalid MindRecord index file '{db}': non-integer offsets") from None
        if table.size:
            table = table[np.unique(table[:, 0], return_index=True)[1]]
            if not np.array_equal(table[:, 0], np.arange(table.shape[0])):
                raise MindRecordFormatError(f"Invalid MindRecord index file '{db}': row ids are not 0..n-1")
        expected = self._rows_in_header()
        if table.shape[0] != expected:
            raise MindRecordFormatError(f"MindRecord index file '{db}' lists {table.shape[0]} rows, but the header "
                                        f"of '{self.path}' has {expected}; the files do not belong together")
        raw = self._absolute(table[:, 1], table[:, 2], table[:, 3], PAGE_RAW)
        blob = self._absolute(table[:, 4], table[:, 5], table[:, 6], PAGE_BLOB)
        return raw[0], raw[1], blob[0], blob[1]

    def _rows_in_header(self):
        return sum(int(p["end_row_id"]) - int(p["start_row_id"]) for p in self.pages.values()
                   if p.get("page_type") == PAGE_BLOB)

    def _rows_from_pages(self):
        """Rebuild the row table from the pages when the ``.db`` index is missing (reads length prefixes)."""
        groups = {}
        for rec in self.pages.values():
            if rec["page_type"] == PAGE_RAW:
                for g in rec["row_group_ids"]:
                    groups[g["id"]] = (rec, g["offset"])
        cols = [[], [], [], []]
        with open(self.path, "rb") as f:
            blob_pages = sorted((p for p in self.pages.values() if p["page_type"] == PAGE_BLOB),
                                key=lambda p: p["page_type_id"])
            for page in blob_pages:
                count = page["end_row_id"] - page["start_row_id"]
                gid = page["page_type_id"]
                if count and gid not in groups:
                    _fail(self.path, f"row group {gid} has no raw data page")
                if count * 8 > page["page_size"]:
                    _fail(self.path, f"blob page {page['page_id']} announces {count} rows but uses only "
                                     f"{page['page_size']} bytes")
                raw_page, raw_off = groups.get(gid, (page, 0))
                blob_off = 0
                for _ in range(count):
                    blob = self._record_at(f, page, blob_off)
                    raw = self._record_at(f, raw_page, raw_off)
                    cols[0].append(raw[0])
                    cols[1].append(raw[1])
                    cols[2].append(blob[0])
                    cols[3].append(blob[1])
                    raw_off = raw[1] - self._page_base(raw_page)
                    blob_off = blob[1] - self._page_base(page)
        return tuple(np.array(c, np.int64) for c in cols)

    def _page_base(self, page):
        return self.header_size + page["page_id"] * self.page_size

    def _record_at(self, f, page, offset):
        """(start, end) in the file of the length-prefixed record at ``offset`` in ``page``, checked to lie in
        the page's used bytes."""
        base = self._page_base(page)
        used = page["page_size"]
        if offset + 8 > used:
            _fail(self.path, f"a record length at byte {offset} of page {page['page_id']} lies past the {used} "
                             "bytes the page uses")
        f.seek(base + offset)
        data = f.read(8)
        if len(data) < 8:
            _fail(self.path, f"a record length at byte {base + offset} lies past the end of the file; the file is "
                             "truncated")
        length = _U64.unpack(data)[0]
        if offset + 8 + length > used:
            _fail(self.path, f"a record of {length} bytes at byte {offset} of page {page['page_id']} overruns the "
                             f"{used} bytes the page uses")
        return base + offset, base + offset + 8 + length


def resolve_files(dataset_files):
    """The shard paths to load: all shards of a set when one path is given, else the list as given."""
    if isinstance(dataset_files, (str, os.PathLike)):
        first = os.fspath(dataset_files)
        header = read_header(first)
        addresses = header["shard_addresses"]
        if not isinstance(addresses, list) or not addresses:
            _fail(first, "'shard_addresses' is empty")
        if len(addresses) == 1:
            return [first], {first: header}
        folder = os.path.dirname(first)
        paths = [os.path.join(folder, os.path.basename(str(a))) for a in addresses]
        for p in paths:
            if not os.path.exists(p):
                raise MindRecordFormatError(f"MindRecord file '{p}' (a shard of '{first}') does not exist.")
        return paths, {first: header}
    if isinstance(dataset_files, (list, tuple)) and dataset_files:
        paths = []
        for item in dataset_files:
            if not isinstance(item, (str, os.PathLike)):
                raise TypeError(f"dataset_files must be a str or a list of str, but got an item of type "
                                f"{type(item).__name__}.")
            paths.append(os.fspath(item))
        return paths, {}
    raise TypeError(f"dataset_files must be a str or a non-empty list of str, but got {dataset_files!r}.")


class MindRecordReader:
    """Random access to the rows of one or more MindRecord shard files (thread-safe, picklable)."""

    def __init__(self, dataset_files, columns=None):
        paths, headers = resolve_files(dataset_files)
        self.paths = paths
        self.shards = []
        for p in paths:
            header = headers.get(p) or read_header(p)
            self.shards.append(_Shard(p, header))
        first = self.shards[0].header["schema"][0]
        self.schema = first["schema"]
        self.desc = first.get("desc", "")
        for shard in self.shards[1:]:
            if shard.header["schema"][0]["schema"] != self.schema:
                raise MindRecordFormatError(f"MindRecord file '{shard.path}' has a different schema from "
                                            f"'{self.shards[0].path}'; they cannot be read together.")
        self.blob_fields = blob_fields_of(self.schema)
        self.compress = compresses_integers(self.schema)
        self.index_fields = [f["index_field"] for f in (self.shards[0].header.get("index_fields") or [])]
        all_columns = sorted(self.schema)
        if columns is None:
            self.columns = all_columns
        else:
            if isinstance(columns, str) or not isinstance(columns, (list, tuple)) or not columns:
                raise TypeError(f"columns_list must be a non-empty list of str, but got {columns!r}.")
            for c in columns:
                if c not in self.schema:
                    raise ValueError(f"Column '{c}' in columns_list is not in the MindRecord schema; "
                                     f"the columns are {all_columns}.")
            if len(set(columns)) != len(columns):
                raise ValueError(f"columns_list {list(columns)} has duplicate columns.")
            self.columns = list(columns)
        counts = [s.n for s in self.shards]
        self.offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        self.num_rows = int(self.offsets[-1])
        self._fds = {}
        self._lock = threading.Lock()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_fds"] = {}
        state["_lock"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def close(self):
        with self._lock:
            for fd in self._fds.values():
                os.close(fd)
            self._fds = {}

    def __del__(self):
        try:
            for fd in self._fds.values():
                os.close(fd)
        except (OSError, AttributeError, TypeError):
            pass

    def _fd(self, k):
        fd = self._fds.get(k)
        if fd is None:
            with self._lock:
                fd = self._fds.get(k)
                if fd is None:
                    try:
                        fd = os.open(self.shards[k].path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
                    except OSError as exc:
                        raise MindRecordFormatError(f"MindRecord file '{self.shards[k].path}' cannot be "
                                                    f"opened: {exc.strerror}") from None
                    self._fds[k] = fd
        return fd

    def _read(self, k, start, end):
        fd = self._fd(k)
        n = int(end - start)
        if hasattr(os, "pread"):
            data = os.pread(fd, n, int(start))
        else:
            with self._lock:
                os.lseek(fd, int(start), os.SEEK_SET)
                data = os.read(fd, n)
        if len(data) != n:
            _fail(self.shards[k].path, f"read {len(data)} of {n} bytes at offset {start}; the file is truncated")
        return data

    def _record(self, k, start, end, what):
        data = self._read(k, start, end)
        length = _U64.unpack_from(data)[0]
        if length != len(data) - 8:
            _fail(self.shards[k].path, f"a {what} record announces {length} bytes but its slot holds {len(data) - 8}")
        return memoryview(data)[8:]

    def locate(self, index):
        if not 0 <= index < self.num_rows:
            raise IndexError(f"row {index} out of range [0, {self.num_rows})")
        k = int(np.searchsorted(self.offsets, index, side="right")) - 1
        return k, index - int(self.offsets[k])

    def read_fields(self, index, columns=None):
        """Field -> value of row ``index``: raw fields as Python values, blob fields as bytes."""
        columns = self.columns if columns is None else columns
        k, local = self.locate(index)
        shard = self.shards[k]
        out = {}
        raw_wanted = [c for c in columns if c not in self.blob_fields]
        blob_wanted = [c for c in columns if c in self.blob_fields]
        if raw_wanted:
            payload = self._record(k, shard.raw_start[local], shard.raw_end[local], "raw")
            try:
                raw = _msgpack.unpackb(payload)
            except ValueError as exc:
                _fail(shard.path, f"row {local} has a corrupted raw record ({exc})")
            if not isinstance(raw, dict):
                _fail(shard.path, f"row {local} has a raw record that is not a map")
            for c in raw_wanted:
                if c not in raw:
                    _fail(shard.path, f"row {local} lacks field '{c}'")
                out[c] = raw[c]
        if blob_wanted:
            payload = self._record(k, shard.blob_start[local], shard.blob_end[local], "blob")
            try:
                out.update(split_blob(self.schema, self.blob_fields, payload, self.compress, blob_wanted))
            except ValueError as exc:
                _fail(shard.path, f"row {local} has a corrupted blob record ({exc})")
        return out

    def column_array(self, name, value, index):
        """MindDataset's numpy value for field ``name`` of row ``index``."""
        spec = self.schema[name]
        kind = spec["type"]
        try:
            if "shape" in spec:
                arr = np.frombuffer(value, dtype=np.dtype(NUMPY_TYPES[kind]).newbyteorder("<"))
                return arr.astype(NUMPY_TYPES[kind]).reshape(spec["shape"])
            if kind == "bytes":
                return np.array([bytes(value)])
            if kind == "string":
                return np.array(value if isinstance(value, str) else json.dumps(value))
            if kind in _INT_LIMITS:
                low, high = _INT_LIMITS[kind]
                number = int(value)
                if not low <= number <= high:
                    raise ValueError(f"value {number} is out of the {kind} range")
                return np.array(number, NUMPY_TYPES[kind])
            return np.array(float(value), NUMPY_TYPES[kind])
        except (TypeError, ValueError) as exc:
            k, local = self.locate(index)
            _fail(self.shards[k].path, f"field '{name}' of row {local} cannot be read as {kind}"
                                       f"{' with shape ' + str(spec['shape']) if 'shape' in spec else ''} ({exc})")

    def read_row(self, index):
        """Row ``index`` as a tuple of numpy arrays, one per column."""
        fields = self.read_fields(index)
        return tuple(self.column_array(c, fields[c], index) for c in self.columns)

    def python_value(self, name, value, index):
        """FileReader's value for field ``name`` of row ``index``: Python scalars, bytes, or numpy arrays for
        array fields."""
        spec = self.schema[name]
        if "shape" in spec:
            return self.column_array(name, value, index)
        if spec["type"] in ("float32", "float64") and isinstance(value, int):
            return float(value)
        return value
