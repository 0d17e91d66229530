"""``TFRecordDataset``: ``tf.train.Example`` records in TFRecord files, read without TensorFlow.

A TFRecord file is a sequence of ``uint64 length, uint32 masked CRC-32C of the length, data, uint32 masked
CRC-32C of the data`` records (both CRCs are checked); each record's data is a serialized ``Example``
protobuf, decoded here with a small wire-format reader. Columns are the features in name order (of the
first record, or of the schema); an ``int64_list`` is an int64 array, a ``float_list`` a float32 array, a
``bytes_list`` of one value a uint8 array of its bytes (several values: a bytes array). A schema's type and
shape are applied (``shape`` reshapes the values; a missing feature raises ``RuntimeError``).
GZIP/ZLIB-compressed files are read through ``gzip``/``zlib``. File order, shuffle modes and sharding are
those of the other file sources (:mod:`mindspore.dataset.engine.datasets_text`).
"""
import gzip
import json
import os
import struct
import zlib

import numpy as np

from mindspore.dataset.engine.datasets import Schema, Shuffle
from mindspore.dataset.engine.datasets_text import FileSource

__all__ = ["TFRecordDataset"]

_CRC_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ (0x82F63B78 if _c & 1 else 0)
    _CRC_TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(data, pos):
    result = shift = 0
    while True:
        if pos >= len(data):
            raise ValueError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _fields(data):
    """(field number, wire type, value) of a protobuf message (value: int for varints, bytes otherwise)."""
    pos = 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 2:
            length, pos = _varint(data, pos)
            value = data[pos:pos + length]
            if len(value) != length:
                raise ValueError("truncated field")
            pos += length
        elif wire == 5:
            value = data[pos:pos + 4]
            pos += 4
        elif wire == 1:
            value = data[pos:pos + 8]
            pos += 8
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield number, wire, value


def _signed64(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def parse_feature(data):
    """('int64' | 'float32' | 'bytes', values) of a serialized ``Feature``."""
    for number, _, payload in _fields(data):
        if number == 1:       # BytesList
            return "bytes", [bytes(v) for n, _, v in _fields(payload) if n == 1]
        if number == 2:       # FloatList (packed or not)
            values = []
            for n, wire, v in _fields(payload):
                if n == 1:
                    values.extend(struct.unpack(f"<{len(v) // 4}f", v) if wire == 2 else struct.unpack("<f", v))
            return "float32", values
        if number == 3:       # Int64List
            values = []
            for n, wire, v in _fields(payload):
                if n == 1:
                    if wire == 2:
                        pos = 0
                        while pos < len(v):
                            item, pos = _varint(v, pos)
                            values.append(_signed64(item))
                    else:
                        values.append(_signed64(v))
            return "int64", values
    return "bytes", []


def parse_example(data):
    """{feature name: (kind, values)} of a serialized ``tf.train.Example``."""
    features = {}
    for number, _, payload in _fields(data):
        if number != 1:
            continue
        for n, _, entry in _fields(payload):
            if n != 1:
                continue
            name, feature = None, b""
            for k, _, v in _fields(entry):
                if k == 1:
                    name = bytes(v).decode("utf-8")
                elif k == 2:
                    feature = v
            if name is not None:
                features[name] = parse_feature(bytes(feature))
    return features


def read_records(path, compression_type=""):
    """The data of every record of a TFRecord file (CRCs checked)."""
    try:
        if compression_type == "GZIP":
            with gzip.open(path, "rb") as f:
                content = f.read()
        else:
            with open(path, "rb") as f:
                content = f.read()
            if compression_type == "ZLIB":
                content = zlib.decompress(content)
    except (OSError, zlib.error) as exc:
        raise RuntimeError(f"Invalid file, failed to read TFRecord file '{path}': {exc}") from None
    records, pos = [], 0
    while pos < len(content):
        if pos + 12 > len(content):
            raise RuntimeError(f"Invalid TFRecord file '{path}': a record header is truncated at byte {pos}.")
        header = content[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", content[pos + 8:pos + 12])
        if header_crc != masked_crc32c(header):
            raise RuntimeError(f"Invalid TFRecord file '{path}': the length CRC of the record at byte {pos} does not "
                               f"match; the file is corrupted or not a TFRecord file.")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > len(content):
            raise RuntimeError(f"Invalid TFRecord file '{path}': the record at byte {pos} is truncated.")
        data = content[start:end]
        (data_crc,) = struct.unpack("<I", content[end:end + 4])
        if data_crc != masked_crc32c(data):
            raise RuntimeError(f"Invalid TFRecord file '{path}': the data CRC of the record at byte {pos} does not "
                               f"match; the file is corrupted.")
        records.append(data)
        pos = end + 4
    return records


def _load_schema(schema):
    if schema is None or isinstance(schema, Schema):
        return schema
    if not isinstance(schema, str):
        raise TypeError(f"Argument schema with value {schema!r} is not of type [<class 'str'>, Schema].")
    if not os.path.isfile(schema):
        raise ValueError(f"The file {schema} does not exist or permission denied!")
    try:
        with open(schema, "r", encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError as exc:
        raise RuntimeError(f"Schema file '{schema}' failed to load: {exc}") from None
    if isinstance(doc.get("columns"), dict):      # MindSpore's JSON reader keeps object keys in name order
        doc["columns"] = dict(sorted(doc["columns"].items()))
    loaded = Schema()
    loaded.from_json(doc)
    return loaded


class TFRecordDataset(FileSource):
    """Rows of ``tf.train.Example`` records in TFRecord files.

    Args:
        dataset_files (Union[str, list[str]]): files or glob patterns, read in name order.
        schema (Union[str, Schema], optional): a schema JSON file or :class:`Schema`: the columns, their types and
            shapes (``numRows`` limits the rows). Default: None (the features of the first record).
        columns_list (list[str], optional): the columns to read, in this order. Default: None (all).
        num_samples (int, optional): rows to read (per shard). Default: None (all).
        num_parallel_workers (int, optional): reader threads. Default: None.
        shuffle (Union[bool, Shuffle], optional): Default: Shuffle.GLOBAL.
        num_shards (int, optional): number of shards. Default: None.
        shard_id (int, optional): the shard to read. Default: None.
        shard_equal_rows (bool, optional): False: shard ``k`` reads whole files, those at positions ``k,
            k + num_shards, ...`` of the epoch's file order (shards may differ in rows, from epoch to epoch too);
            True: shards split the rows into equal blocks, as the other file sources do. Default: False.
        cache (DatasetCache, optional): Default: None.
        compression_type (str, optional): '', 'GZIP' or 'ZLIB'. Default: None ('').

    Raises:
        ValueError: a file does not exist, or `compression_type` is invalid.
        RuntimeError: (when rows are read) a file is corrupted, or a record lacks a column.

    Examples:
        >>> import mindspore.dataset as ds
        >>> dataset = ds.TFRecordDataset(["/path/to/a.tfrecord"], columns_list=["image", "label"], shuffle=False)
    """

    _api = "TFRecordDataset"

    def __init__(self, dataset_files, schema=None, columns_list=None, num_samples=None, num_parallel_workers=None,
                 shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, shard_equal_rows=False, cache=None,
                 compression_type=None):
        compression_type = compression_type or ""
        if compression_type not in ("", "GZIP", "ZLIB"):
            raise ValueError("Input compression_type can only be either '' (no compression), 'ZLIB', or 'GZIP'.")
        if columns_list is not None and (not isinstance(columns_list, list) or not all(
                isinstance(c, str) for c in columns_list)):
            raise TypeError(f"Argument columns_list with value {columns_list!r} is not of type [<class 'list'>].")
        if not isinstance(shard_equal_rows, bool):
            raise TypeError(f"Argument shard_equal_rows with value {shard_equal_rows!r} is not of type "
                            f"[<class 'bool'>].")
        self.schema = _load_schema(schema)
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)
        self.columns_list = list(columns_list) if columns_list is not None else None
        self.shard_equal_rows = shard_equal_rows
        # 2.10's TFRecordOp shards whole files unless shard_equal_rows asks for equal row blocks
        self.sampler.file_sharded = not shard_equal_rows
        self.compression_type = compression_type
        self._records = None
        self.column_names = self._columns()

    def _schema_columns(self):
        return [c["name"] for c in self.schema.columns] if self.schema is not None and self.schema.columns else None

    def _columns(self):
        names = self._schema_columns()
        if names is None:
            records = read_records(self.dataset_files[0], self.compression_type)
            if not records:
                raise RuntimeError(f"Invalid TFRecord file '{self.dataset_files[0]}': it holds no record to take "
                                   f"the columns from.")
            names = sorted(parse_example(records[0]))
        if self.columns_list is not None:
            missing = [c for c in self.columns_list if c not in names]
            if missing:
                raise RuntimeError(f"Invalid columns_list, column name: {missing[0]} does not exist in the "
                                   f"TFRecord columns {names}.")
            names = list(self.columns_list)
        return names

    def _load(self):
        records = [read_records(path, self.compression_type) for path in self.dataset_files]
        limit = self.schema.num_rows if self.schema is not None and self.schema.num_rows else None
        if limit is not None:
            kept, left = [], int(limit)
            for recs in records:
                kept.append(recs[:left])
                left -= len(kept[-1])
            records = kept
        self._records = records
        self._specs = {}
        if self.schema is not None:
            self._specs = {c["name"]: c for c in self.schema.columns}
        self._set_file_rows(len(r) for r in records)

    def _num_rows(self):
        return int(self._starts[-1])

    def _column(self, name, feature, path):
        kind, values = feature
        spec = self._specs.get(name)
        if kind == "bytes":
            if len(values) == 1 and (spec is None or np.dtype(spec["type"]).kind in "ui"):
                array = np.frombuffer(values[0], np.uint8).copy()
            else:
                array = np.array(values, dtype=np.bytes_)
        else:
            array = np.array(values, dtype=np.int64 if kind == "int64" else np.float32)
        if spec is not None:
            dtype = spec["type"]
            if array.dtype.kind != "S" and np.dtype(dtype).kind in "iufb":
                array = array.astype(dtype)
            if spec.get("shape") is not None:
                shape = [int(v) for v in spec["shape"]]
                if int(np.prod(shape)) != array.size:
                    raise RuntimeError(f"Invalid data, the column '{name}' of a record in {path} has {array.size} "
                                       f"values, which does not match the schema shape {shape}.")
                array = array.reshape(shape)
        return array

    def _get_row(self, index):
        k, local = self._locate(index)
        path = self.dataset_files[k]
        try:
            features = parse_example(self._records[k][local])
        except (ValueError, UnicodeDecodeError) as exc:
            raise RuntimeError(f"Invalid TFRecord file '{path}': record {local} is not a tf.train.Example ({exc}).") \
                from None
        row = []
        for name in self.column_names:
            if name not in features:
                raise RuntimeError(f"Invalid data, column name: {name} does not exist in the record {local} of "
                                   f"{path}.")
            row.append(self._column(name, features[name], path))
        return tuple(row)
