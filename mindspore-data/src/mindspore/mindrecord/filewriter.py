"""``FileWriter``: write user data into MindRecord files (MindSpore's format, see :mod:`._format`).

Rows are validated against the schema as MindSpore does: a row whose field is missing or has the
wrong type is dropped with a warning, and the other rows are written. The rows of each
``write_raw_data`` call are split into contiguous runs, one per shard; when the rows do not divide
evenly, the extra rows go to the shards in turn across calls (MindSpore picks them at random), so
the split is deterministic and balanced even when rows are written one at a time.

Files are written under temporary names next to the targets and renamed at :meth:`FileWriter.commit`
(``open_for_append`` updates the file in place, writing the new header last).
"""
import logging
import os
import re

import numpy as np

from mindspore.mindrecord import _format, _msgpack
from mindspore.mindrecord._writer import ShardOutput
from mindspore.mindrecord.common.exceptions import (
    MRMAddSchemaError,
    MRMCommitError,
    MRMDefineIndexError,
    MRMInvalidHeaderSizeError,
    MRMInvalidPageSizeError,
    MRMInvalidSchemaError,
    MRMOpenError,
    MRMOpenForAppendError,
    MRMWriteDatasetError,
    ParamTypeError,
    ParamValueError,
)
from mindspore.mindrecord.config import _get_enc_key

__all__ = ["FileWriter"]

logger = logging.getLogger("mindspore")

# Python type name of a value -> the schema types it may fill (MindSpore's table).
VALUE_TYPE_MAP = {"int": ["int32", "int64"], "float": ["float32", "float64"], "str": ["string"], "bytes": ["bytes"],
                  "int32": ["int32"], "int64": ["int64"], "float32": ["float32"], "float64": ["float64"],
                  "ndarray": ["int32", "int64", "float32", "float64"]}
_FORBIDDEN = set('\\/:*?"<>|`&\';')


def check_filename(path, arg_name="File path"):
    """MindSpore's file-name rules; ``ParamValueError`` when ``path`` breaks one."""
    if not path:
        raise ParamValueError(f"{arg_name} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    name = os.path.basename(path)
    if set(name) & _FORBIDDEN:
        raise ParamValueError("File name should not contains \\/:*?\"<>|`&;'")
    if name.startswith(" ") or name.endswith(" "):
        raise ParamValueError("File name should not start/end with space.")
    return True


def _validate_schema(content):
    if not content:
        return "Schema content is empty."
    if not isinstance(content, dict):
        return "Schema content should be dict."
    for name, spec in content.items():
        if not isinstance(name, str) or not re.match(r"^[0-9a-zA-Z_]+$", name):
            return f"Field '{name}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
        if not spec or not isinstance(spec, dict):
            return f"Field '{name}' should be dict."
        if len(spec) == 1 and "type" in spec:
            if spec["type"] not in _format.SCALAR_TYPES:
                return f"Field '{name}' contain illegal attribute '{spec['type']}'."
        elif len(spec) == 2 and "type" in spec and "shape" in spec:
            if spec["type"] not in _format.ARRAY_TYPES:
                return f"Field '{name}' contain illegal attribute '{spec['type']}'."
            shape = spec["shape"]
            if not isinstance(shape, list) or not shape or not all(
                    isinstance(d, int) and not isinstance(d, bool) and (d > 0 or d == -1) for d in shape):
                return f"Field '{name}' contain illegal attribute '{shape}'."
            if shape.count(-1) > 1:
                return f"Field '{name}' has more than one -1 in its shape {shape}."
        else:
            return f"Field '{spec}' contains illegal attributes."
    return ""


class FileWriter:
    r"""Write user-defined rows into MindRecord files.

    Args:
        file_name (str): path of the MindRecord file. With ``shard_num > 1`` the files are
            ``file_name0`` ... ``file_name{shard_num-1}``; each gets an index ``<file>.db``.
        shard_num (int, optional): number of files, in [1, 1000]. Default: ``1``.
        overwrite (bool, optional): replace existing files of the same names. Default: ``False``.

    Raises:
        ParamValueError: If `file_name`, `shard_num` or `overwrite` is invalid.

    Examples:
        >>> from mindspore.mindrecord import FileWriter
        >>> writer = FileWriter(file_name="test.mindrecord", shard_num=1, overwrite=True)
        >>> writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
        ...                    "data": {"type": "bytes"}}, "test_schema")
        >>> writer.add_index(["file_name", "label"])
        >>> writer.write_raw_data([{"file_name": "0.jpg", "label": 0, "data": b"\x10c\xb3w"}])
        >>> writer.commit()
    """

    def __init__(self, file_name, shard_num=1, overwrite=False):
        check_filename(file_name)
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int) or isinstance(shard_num, bool):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not _format.MIN_SHARD_COUNT <= shard_num <= _format.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{_format.MIN_SHARD_COUNT} and {_format.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._file_name = file_name
        self._shard_num = shard_num
        if shard_num == 1:
            self._paths = [file_name]
        else:
            width = len(str(shard_num - 1))
            self._paths = [f"{file_name}{str(k).rjust(width, '0')}" for k in range(shard_num)]
        self._overwrite = overwrite
        self._append = False
        self._schema = None
        self._desc = ""
        self._index_fields = None
        self._header_size = _format.DEFAULT_HEADER_SIZE
        self._page_size = _format.DEFAULT_PAGE_SIZE
        self._outputs = None
        self._flushed = False
        self._parallel_writer = None
        self._compression_size = 0
        self._rotation = 0

    # -- setup --------------------------------------------------------------------------------------------

    @classmethod
    def open_for_append(cls, file_name):
        """Open existing MindRecord files to append rows to them; returns a FileWriter.

        `file_name` may be any shard of a set: every shard written with it is reopened, and new rows are
        spread over the shards as when they were written.

        Raises:
            ParamValueError: If `file_name` is invalid.
            MRMOpenError: If a file cannot be read as MindRecord.
            MRMOpenForAppendError: If an index file is missing.
        """
        check_filename(file_name)
        try:
            paths, headers = _format.resolve_files(file_name)
        except RuntimeError as exc:
            raise MRMOpenError(str(exc)) from None
        header = headers[file_name]
        for path in paths:
            if not os.path.exists(path + ".db"):
                raise MRMOpenForAppendError(f"the index file '{path}.db' does not exist.")
        writer = cls(file_name, 1, False)
        writer._paths = list(paths)
        writer._shard_num = len(paths)
        writer._append = True
        schema = header["schema"][0]
        writer._schema = schema["schema"]
        writer._desc = schema.get("desc", "")
        writer._index_fields = [f["index_field"] for f in header.get("index_fields") or []]
        writer._header_size = header["header_size"]
        writer._page_size = header["page_size"]
        writer._compression_size = int(header.get("compression_size") or 0)
        return writer

    def add_schema(self, content, desc=None):
        """Add the schema that describes the rows; returns the schema id (0).

        Field types: int32, int64, float32, float64, string, bytes; int32/int64/float32/float64 with a
        ``shape`` (one dimension may be -1) for numpy arrays.

        Raises:
            MRMInvalidSchemaError: If the schema is invalid.
            MRMAddSchemaError: If a schema was already added.
        """
        error = _validate_schema(content)
        if error:
            raise MRMInvalidSchemaError(error)
        if self._schema is not None:
            raise MRMAddSchemaError("The schema is added repeatedly. Please remove the redundant 'add_schema' call.")
        if desc is not None and not isinstance(desc, str):
            raise ParamTypeError("desc", "str")
        self._schema = {name: dict(spec) for name, spec in content.items()}
        self._desc = desc if desc else ""
        return 0

    def add_index(self, index_fields):
        """Select primitive fields (int, float, string) as index fields of the ``.db`` index.

        Without this call, every primitive field of the schema is an index field.

        Raises:
            ParamTypeError: If `index_fields` is not a non-empty list of str.
            MRMDefineIndexError: If a field is not in the schema or is not primitive.
        """
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        if self._schema is None:
            raise MRMDefineIndexError("add_schema must be called before add_index.")
        for field in index_fields:
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str")
            if field not in self._schema:
                raise MRMDefineIndexError(f"'index_fields': {field} can not found in schema.")
            if _format.is_blob_field(self._schema[field]):
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive type.")
        if self._outputs is not None:
            raise MRMDefineIndexError("add_index must be called before the first write_raw_data.")
        merged = list(self._index_fields or [])
        for field in index_fields:
            if field not in merged:
                merged.append(field)
        self._index_fields = merged

    def set_header_size(self, header_size):
        """Set the header area size in bytes, in [16 KB, 128 MB] and a multiple of 4. Default: 16 MB."""
        if (not isinstance(header_size, int) or isinstance(header_size, bool)
                or not _format.MIN_HEADER_SIZE <= header_size <= _format.MAX_HEADER_SIZE or header_size % 4):
            raise MRMInvalidHeaderSizeError(f"Header size should be a multiple of 4 between 16KB and 128MB, "
                                            f"but got {header_size}.")
        self._check_not_started("set_header_size")
        self._header_size = header_size

    def set_page_size(self, page_size):
        """Set the page size in bytes, in [32 KB, 256 MB] and a multiple of 4. Default: 32 MB.

        A single row (its raw or its blob part) must fit in one page.
        """
        if (not isinstance(page_size, int) or isinstance(page_size, bool)
                or not _format.MIN_PAGE_SIZE <= page_size <= _format.MAX_PAGE_SIZE or page_size % 4):
            raise MRMInvalidPageSizeError(f"Page size should be a multiple of 4 between 32KB and 256MB, "
                                          f"but got {page_size}.")
        self._check_not_started("set_page_size")
        self._page_size = page_size

    def _check_not_started(self, api):
        if self._outputs is not None or self._append:
            raise MRMOpenError(f"{api} must be called before writing data to new MindRecord files.")

    # -- writing ------------------------------------------------------------------------------------------

    def _open(self):
        if self._outputs is not None:
            return
        if self._schema is None:
            raise MRMOpenError("add_schema must be called before write_raw_data or commit.")
        if _get_enc_key() is not None:
            raise MRMOpenError("MindRecord encryption (set_enc_key) is not supported by this implementation; "
                               "call set_enc_key(None) to write plain files.")
        if self._index_fields is None:
            self._index_fields = _format.default_index_fields(self._schema)
        if not self._append:
            for path in self._paths:
                folder = os.path.dirname(os.path.abspath(path))
                if not os.path.isdir(folder):
                    raise MRMOpenError(f"the folder '{folder}' of '{path}' does not exist.")
                for p in (path, path + ".db"):
                    if os.path.exists(p) and not self._overwrite:
                        # a RuntimeError from MindSpore's C++ writer, not one of the MRM* errors
                        raise RuntimeError(f"Invalid file, mindrecord files already exist. Please check file path: "
                                           f"{p}.\nIf you do not want to keep the files, set the 'overwrite' "
                                           f"parameter to True and try again.")
        outputs = []
        try:
            for k, path in enumerate(self._paths):
                outputs.append(ShardOutput(path, k, self._schema, self._index_fields, self._header_size,
                                           self._page_size, append=self._append))
        except (OSError, RuntimeError) as exc:
            for out in outputs:
                out.discard()
            raise MRMOpenError(f"cannot create the files of '{self._file_name}': {exc}") from None
        self._outputs = outputs

    def _check_row(self, i, row):
        for field, spec in self._schema.items():
            if field not in row:
                return f"for schema, {i} th data is wrong, there is not field: '{field}' in the raw data."
            value = row[field]
            type_name = type(value).__name__
            if type_name not in VALUE_TYPE_MAP or spec["type"] not in VALUE_TYPE_MAP[type_name]:
                return (f"for schema, {i} th data is wrong, data type: '{type_name}' for field: '{field}' "
                        "is not matched.")
            if type_name == "ndarray":
                if "shape" not in spec:
                    return f"for schema, {i} th data is wrong, data shape for field: '{field}' is not specified."
                if spec["type"] != str(value.dtype):
                    return (f"for schema, {i} th data is wrong, data type: '{value.dtype}' for field: "
                            f"'{field}' is not matched.")
                try:
                    np.reshape(value, spec["shape"])
                except ValueError:
                    return (f"for schema, {i} th data is wrong, data shape: '{value.shape}' for field: "
                            f"'{field}' is not matched.")
            elif "shape" in spec:
                return f"for schema, {i} th data is wrong, field: '{field}' expects a numpy array."
            elif spec["type"] in ("int32", "int64"):
                low, high = _format._INT_LIMITS[spec["type"]]
                if not low <= int(value) <= high:
                    return f"for schema, {i} th data is wrong, value {value} of field '{field}' is out of range."
        return None

    def _serialize(self, row):
        raw = {}
        blobs = {}
        for field, spec in self._schema.items():
            value = row[field]
            if "shape" in spec:
                dtype = np.dtype(_format.NUMPY_TYPES[spec["type"]]).newbyteorder("<")
                blobs[field] = np.ascontiguousarray(value, dtype=dtype).tobytes()
            elif spec["type"] == "bytes":
                blobs[field] = value
            elif spec["type"] in ("int32", "int64"):
                raw[field] = int(value)
            elif spec["type"] in ("float32", "float64"):
                raw[field] = float(value)
            else:
                raw[field] = value
        if not raw:
            raw = dict(_format.DUMMY_RAW)
        original = sum(len(b) for b in blobs.values()) + (8 * len(blobs) if len(blobs) > 1 else 0)
        blob = _format.merge_blob(self._schema, self._blob_fields, blobs, self._compress)
        if self._compress:
            self._compression_size += original - len(blob)
        index_values = [row[f].item() if hasattr(row[f], "item") else row[f] for f in self._index_fields]
        return _msgpack.packb(raw), blob, index_values

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Validate rows against the schema and write them; rows that do not match are dropped with a warning.

        Args:
            raw_data (list[dict]): the rows.
            parallel_writer (bool, optional): MindSpore writes shards in parallel processes when ``True``;
                here the shards are written in order either way, with the same result. Default: ``False``.

        Raises:
            ParamTypeError: If `raw_data` is not a list of dict.
            MRMOpenError: If the files cannot be created.
            RuntimeError: If the files exist and `overwrite` is False, if a row is larger than a page, if no row is
                valid (or `raw_data` is empty), or if called after :meth:`commit`.
        """
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel_writer is None:
            self._parallel_writer = parallel_writer
        if self._parallel_writer != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        if self._flushed:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord files. When creating new "
                               "MindRecord files, please remove `commit` before `write_raw_data`. In other cases, "
                               "when appending to existing MindRecord files, please call `open_for_append` first "
                               "and then `write_raw_data`.")
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        self._open()
        self._blob_fields = _format.blob_fields_of(self._schema)
        self._compress = _format.compresses_integers(self._schema)
        records = []
        for i, row in enumerate(raw_data):
            problem = self._check_row(i, row)
            if problem:
                logger.warning(problem)
                continue
            records.append(self._serialize(row))
        if not records:
            raise RuntimeError("There is no valid data which can be written by 'write_raw_data' to mindrecord file. "
                               "Please check the abnormal input data indicated in the warning log above.")
        self._write_records(records)

    def _write_records(self, records):
        n, shards = len(records), len(self._outputs)
        base, extra = divmod(n, shards)
        bonus = {(self._rotation + k) % shards for k in range(extra)}
        self._rotation = (self._rotation + extra) % shards
        start = 0
        for k, out in enumerate(self._outputs):
            end = start + base + (1 if k in bonus else 0)
            chunk = records[start:end]
            start = end
            if not chunk:
                continue
            too_big = max(max(len(r[0]), len(r[1])) + 8 for r in chunk)
            if too_big > self._page_size:
                # a RuntimeError from MindSpore's C++ writer, not one of the MRM* errors
                raise RuntimeError(f"Invalid data, Page size: {self._page_size} is too small to save a blob row. "
                                   f"A row needs {too_big} bytes. Please try to use the mindrecord api "
                                   f"'set_page_size(value)' to enable larger page size, and the value range is in "
                                   f"[32768 bytes, 268435456 bytes].")
            try:
                out.write([r[0] for r in chunk], [r[1] for r in chunk], [r[2] for r in chunk])
            except OSError as exc:
                raise MRMWriteDatasetError(f"writing '{out.path}' failed: {exc}") from None

    def commit(self):
        """Write the headers and the ``.db`` indexes, and give the files their final names.

        Raises:
            MRMOpenError: If the files cannot be created.
            MRMCommitError: If the header does not fit or the files cannot be renamed.
        """
        if self._flushed:
            return
        self._open()
        addresses = [os.path.basename(p) for p in self._paths]
        blob_fields = _format.blob_fields_of(self._schema)
        try:
            for out in self._outputs:
                out.finish(index_fields=self._index_fields, compression_size=max(self._compression_size, 0),
                           desc=self._desc, blob_fields=blob_fields, addresses=addresses)
            for out in self._outputs:
                out.publish()
        except (OSError, OverflowError) as exc:
            for out in self._outputs:
                out.discard()
            self._flushed = True
            raise MRMCommitError(str(exc)) from None
        self._flushed = True

    def __del__(self):
        outputs = getattr(self, "_outputs", None)
        if outputs and not getattr(self, "_flushed", True):
            for out in outputs:
                out.discard()

    def check_all_worker_status(self):
        """Parallel-writer status check; shards are written in this process, so there is nothing to report."""
        return

    def check_worker_status(self, index):
        """Parallel-writer status check of one shard; see :meth:`check_all_worker_status`."""
        return
