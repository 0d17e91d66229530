"""mindspore.mindrecord: FileWriter / FileReader / MindPage, the on-disk format, and malformed files."""
import json
import logging
import os
import sqlite3
import struct
import subprocess
import sys

import numpy as np
import pytest

from mindspore.mindrecord import (
    FAILED,
    SUCCESS,
    FileReader,
    FileWriter,
    MindPage,
    MRMAddSchemaError,
    MRMCommitError,
    MRMDefineIndexError,
    MRMInvalidPageSizeError,
    MRMInvalidSchemaError,
    MRMOpenError,
    ParamTypeError,
    ParamValueError,
    _format,
    _msgpack,
)

SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int32"}, "name": {"type": "string"},
          "score": {"type": "float32"}, "weight": {"type": "float64"}, "data": {"type": "bytes"},
          "ids": {"type": "int32", "shape": [-1]}, "mat": {"type": "float64", "shape": [2, 3]}}


def make_rows(n, start=0):
    rows = []
    for i in range(start, start + n):
        rows.append({"id": i, "label": i % 7 - 3, "name": f"name-{i}", "score": i * 0.25, "weight": i / 3.0,
                     "data": bytes([i % 256]) * (i % 5 + 1) + b"\x00",
                     "ids": np.arange(i % 4 + 1, dtype=np.int32) * (1000 * i - 70000),
                     "mat": np.arange(6, dtype=np.float64).reshape(2, 3) + i})
    return rows


def write(path, rows, shard_num=1, schema=SCHEMA, index=None, **kw):
    writer = FileWriter(str(path), shard_num=shard_num, overwrite=kw.pop("overwrite", False))
    for key, value in kw.items():
        getattr(writer, key)(value)
    writer.add_schema(schema, "test schema")
    if index:
        writer.add_index(index)
    writer.write_raw_data(rows)
    writer.commit()
    return writer


def assert_row_equal(got, want):
    assert set(got) == set(want)
    for key, value in want.items():
        if isinstance(value, np.ndarray):
            assert isinstance(got[key], np.ndarray) and got[key].dtype == value.dtype
            np.testing.assert_array_equal(got[key], value)
        elif isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-6)
        else:
            assert got[key] == value and type(got[key]) is type(value)


def read_all(path, **kw):
    reader = FileReader(str(path), **kw)
    try:
        return list(reader.get_next())
    finally:
        reader.close()


# ---------------------------------------------------------------------------------------------------------------
# round trips


def test_roundtrip_all_types(tmp_path):
    rows = make_rows(12)
    write(tmp_path / "a.mindrecord", rows)
    assert sorted(os.listdir(tmp_path)) == ["a.mindrecord", "a.mindrecord.db"]
    got = read_all(tmp_path / "a.mindrecord")
    assert len(got) == 12
    for g, w in zip(got, rows):
        assert_row_equal(g, w)
    reader = FileReader(str(tmp_path / "a.mindrecord"), columns=["name", "ids"])
    assert reader.len() == 12
    assert reader.schema() == SCHEMA
    first = next(reader.get_next())
    assert list(first) == ["name", "ids"] and first["name"] == "name-0"
    reader.close()


def test_shards_names_and_coverage(tmp_path):
    rows = make_rows(25)
    write(tmp_path / "s.mr", rows, shard_num=12)
    names = sorted(n for n in os.listdir(tmp_path) if not n.endswith(".db"))
    assert names == [f"s.mr{k:02d}" for k in range(12)]
    assert all(os.path.exists(tmp_path / (n + ".db")) for n in names)
    counts = [FileReader([str(tmp_path / n)]).len() for n in names]
    assert sum(counts) == 25 and max(counts) - min(counts) <= 1
    # one shard's name finds all the others, in shard order
    got = read_all(tmp_path / "s.mr07")
    assert sorted(r["id"] for r in got) == list(range(25))
    # each shard holds a contiguous run of the rows of one write call, in order
    for n in names:
        ids = [r["id"] for r in FileReader([str(tmp_path / n)]).get_next()]
        assert ids == list(range(ids[0], ids[0] + len(ids)))


def test_rows_split_across_write_calls_stay_balanced(tmp_path):
    writer = FileWriter(str(tmp_path / "b.mr"), shard_num=3)
    writer.add_schema({"x": {"type": "int32"}})
    for i in range(10):
        writer.write_raw_data([{"x": i}])
    writer.commit()
    counts = [FileReader([str(tmp_path / f"b.mr{k}")]).len() for k in range(3)]
    assert sorted(counts) == [3, 3, 4]


def test_default_index_fields_and_index_db(tmp_path):
    write(tmp_path / "i.mr", make_rows(3))
    header = _format.read_header(str(tmp_path / "i.mr"))
    assert [f["index_field"] for f in header["index_fields"]] == ["id", "label", "name", "score", "weight"]
    conn = sqlite3.connect(str(tmp_path / "i.mr.db"))
    assert list(conn.execute("SELECT NAME FROM SHARD_NAME")) == [("i.mr",)]
    assert [r[0] for r in conn.execute("SELECT name_0 FROM INDEXES ORDER BY ROW_ID")] == ["name-0", "name-1",
                                                                                         "name-2"]
    conn.close()


def test_all_blob_and_no_blob_schemas(tmp_path):
    write(tmp_path / "ab.mr", [{"v": np.array([1, -2, 2 ** 40])}, {"v": np.array([5, 6, 7])}],
          schema={"v": {"type": "int64", "shape": [3]}})
    got = read_all(tmp_path / "ab.mr")
    np.testing.assert_array_equal(got[0]["v"], [1, -2, 2 ** 40])
    assert _format.read_header(str(tmp_path / "ab.mr"))["index_fields"] is None
    write(tmp_path / "nb.mr", [{"x": 1.5, "s": "a"}, {"x": 2.0, "s": "bb"}],
          schema={"x": {"type": "float32"}, "s": {"type": "string"}})
    assert read_all(tmp_path / "nb.mr") == [{"s": "a", "x": 1.5}, {"s": "bb", "x": 2.0}]


def test_commit_without_rows(tmp_path):
    writer = FileWriter(str(tmp_path / "empty.mr"))
    writer.add_schema({"a": {"type": "int32"}})
    writer.commit()
    header = _format.read_header(str(tmp_path / "empty.mr"))
    assert header["page"] is None
    assert os.path.getsize(tmp_path / "empty.mr") < header["header_size"]      # no pages: header only, as MindSpore
    assert FileReader(str(tmp_path / "empty.mr")).len() == 0


def test_small_pages_many_row_groups(tmp_path):
    schema = {"id": {"type": "int64"}, "blob": {"type": "bytes"}, "txt": {"type": "string"}}
    writer = FileWriter(str(tmp_path / "p.mr"))
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(schema)
    expected = []
    for k in range(20):
        rows = [{"id": k * 10 + j, "blob": bytes([j]) * (3000 + 97 * j), "txt": "t" * (450 * j)} for j in range(10)]
        writer.write_raw_data(rows)
        expected += rows
    writer.commit()
    header = _format.read_header(str(tmp_path / "p.mr"))
    kinds = [p["page_type"] for p in header["page"]]
    assert kinds.count("BLOB_DATA") > 10 and kinds.count("RAW_DATA") > 5
    for got, want in zip(read_all(tmp_path / "p.mr"), expected):
        assert got == want


def test_row_larger_than_page_is_rejected(tmp_path):
    writer = FileWriter(str(tmp_path / "big.mr"))
    writer.set_page_size(1 << 15)
    writer.add_schema({"blob": {"type": "bytes"}})
    with pytest.raises(RuntimeError, match="Page size: .* is too small to save a blob row.*set_page_size"):
        writer.write_raw_data([{"blob": bytes(40000)}])


def test_header_overflow_is_reported(tmp_path):
    writer = FileWriter(str(tmp_path / "h.mr"))
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema({"blob": {"type": "bytes"}})
    writer.write_raw_data([{"blob": bytes(20000)} for _ in range(120)])
    with pytest.raises(MRMCommitError, match="set_header_size"):
        writer.commit()
    assert os.listdir(tmp_path) == []


def test_open_for_append_to_shards(tmp_path):
    write(tmp_path / "sh.mr", make_rows(6), shard_num=3)
    writer = FileWriter.open_for_append(str(tmp_path / "sh.mr1"))
    writer.write_raw_data(make_rows(4, start=6))
    writer.commit()
    assert sorted(os.listdir(tmp_path)) == sorted(f"sh.mr{k}{e}" for k in range(3) for e in ("", ".db"))
    assert sorted(r["id"] for r in read_all(tmp_path / "sh.mr0")) == list(range(10))
    counts = [FileReader([str(tmp_path / f"sh.mr{k}")]).len() for k in range(3)]
    assert sorted(counts) == [3, 3, 4]


def test_open_for_append(tmp_path):
    path = str(tmp_path / "app.mr")
    write(path, make_rows(4))
    writer = FileWriter.open_for_append(path)
    writer.write_raw_data(make_rows(3, start=4))
    writer.commit()
    got = read_all(path)
    assert [r["id"] for r in got] == list(range(7))
    assert_row_equal(got[5], make_rows(1, start=5)[0])


# ---------------------------------------------------------------------------------------------------------------
# writer behaviour and errors


def test_existing_files_need_overwrite(tmp_path):
    path = tmp_path / "o.mr"
    write(path, make_rows(2))
    writer = FileWriter(str(path))
    writer.add_schema(SCHEMA)
    with pytest.raises(RuntimeError, match="Invalid file, mindrecord files already exist"):
        writer.write_raw_data(make_rows(1))
    write(path, make_rows(5), overwrite=True)
    assert len(read_all(path)) == 5


def test_commit_is_atomic(tmp_path):
    path = tmp_path / "t.mr"
    writer = FileWriter(str(path), shard_num=2)
    writer.add_schema(SCHEMA)
    writer.write_raw_data(make_rows(4))
    assert not os.path.exists(str(path) + "0") and not os.path.exists(str(path) + "0.db")
    writer.commit()
    assert sorted(os.listdir(tmp_path)) == ["t.mr0", "t.mr0.db", "t.mr1", "t.mr1.db"]
    with pytest.raises(RuntimeError, match="flushed"):
        writer.write_raw_data(make_rows(1))


def test_uncommitted_writer_leaves_nothing(tmp_path):
    writer = FileWriter(str(tmp_path / "u.mr"))
    writer.add_schema(SCHEMA)
    writer.write_raw_data(make_rows(2))
    del writer
    assert os.listdir(tmp_path) == []


def test_invalid_rows_are_dropped_with_warning(tmp_path, caplog):
    rows = make_rows(4)
    rows[1]["label"] = 1.5                       # float for int32
    del rows[2]["name"]                          # missing field
    rows[3]["ids"] = np.arange(3, dtype=np.int64)  # wrong array dtype
    with caplog.at_level(logging.WARNING, logger="mindspore"):
        write(tmp_path / "w.mr", rows)
    assert [r["id"] for r in read_all(tmp_path / "w.mr")] == [0]
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "label" in messages and "name" in messages and "ids" in messages


@pytest.mark.parametrize("rows", [[{"label": "abc"}], [{"label": 1.5}], []])
def test_a_write_without_one_valid_row_is_an_error(tmp_path, rows):
    """2.10 (tutorial "Data Processing Debugging Methods", "The User-defined Data Type Is Incorrect")."""
    writer = FileWriter(str(tmp_path / "w.mr"), 1)
    writer.add_schema({"label": {"type": "int32"}}, "s")
    with pytest.raises(RuntimeError, match="^There is no valid data which can be written by 'write_raw_data' to "
                                           "mindrecord file. Please check the abnormal input data"):
        writer.write_raw_data(rows)


@pytest.mark.parametrize("schema, match", [
    ({}, "empty"),
    ({"bad-name": {"type": "int32"}}, "composed"),
    ({"a": {"type": "int8"}}, "illegal"),
    ({"a": {"type": "bytes", "shape": [2]}}, "illegal"),
    ({"a": {"type": "int32", "shape": 3}}, "illegal"),
    ({"a": {"type": "int32", "shape": [-1, -1]}}, "more than one"),
    ({"a": {"type": "int32", "foo": 1}}, "illegal"),
])
def test_invalid_schemas(tmp_path, schema, match):
    writer = FileWriter(str(tmp_path / "x.mr"))
    with pytest.raises(MRMInvalidSchemaError, match=match):
        writer.add_schema(schema)


def test_schema_and_index_errors(tmp_path):
    writer = FileWriter(str(tmp_path / "x.mr"))
    writer.add_schema(SCHEMA)
    with pytest.raises(MRMAddSchemaError):
        writer.add_schema(SCHEMA)
    with pytest.raises(MRMDefineIndexError, match="not primitive"):
        writer.add_index(["data"])
    with pytest.raises(MRMDefineIndexError, match="not found|can not found"):
        writer.add_index(["nope"])
    with pytest.raises(ParamTypeError):
        writer.add_index("label")


@pytest.mark.parametrize("args", [{"shard_num": 0}, {"shard_num": 1001}, {"shard_num": "2"}, {"overwrite": 1}])
def test_writer_argument_errors(tmp_path, args):
    with pytest.raises(ParamValueError):
        FileWriter(str(tmp_path / "x.mr"), **args)


def test_page_size_bounds(tmp_path):
    writer = FileWriter(str(tmp_path / "x.mr"))
    with pytest.raises(MRMInvalidPageSizeError):
        writer.set_page_size(1 << 10)
    with pytest.raises(MRMInvalidPageSizeError):
        writer.set_page_size((1 << 15) + 2)


def test_status_constants():
    assert SUCCESS == 0 and FAILED == 1


# ---------------------------------------------------------------------------------------------------------------
# format pieces against independent oracles


def _oracle_uncompress(data, type_name):
    n = int.from_bytes(data[:4], "big")
    nbitmap = (n + 3) // 4
    pos = 4 + nbitmap
    out = []
    for i in range(n):
        code = (data[4 + i // 4] >> (6 - 2 * (i % 4))) & 3
        width = 1 << code
        out.append(int.from_bytes(data[pos:pos + width], "little", signed=True))
        pos += width
    assert pos == len(data)
    return np.array(out, np.int32 if type_name == "int32" else np.int64)


@pytest.mark.parametrize("type_name", ["int32", "int64"])
def test_integer_compression(type_name):
    edges = [0, 1, -1, 127, 128, -128, -129, 32767, 32768, -32768, -32769, 2 ** 31 - 1, -2 ** 31]
    if type_name == "int64":
        edges += [2 ** 31, -2 ** 31 - 1, 2 ** 63 - 1, -2 ** 63]
    values = np.array(edges, np.int32 if type_name == "int32" else np.int64)
    packed = _format.compress_ints(values.tobytes(), type_name)
    np.testing.assert_array_equal(_oracle_uncompress(packed, type_name), values)
    assert _format.uncompress_ints(packed, type_name) == values.tobytes()
    # 2-bit width codes, MSB first: elements 0..3 fit int8; 128 needs int16; 32768 needs int32
    assert packed[4] == 0 and packed[5] >> 6 == 1 and packed[6] >> 6 == 2
    assert _format.compress_ints(b"", type_name) == b"\x00\x00\x00\x00"


@pytest.mark.parametrize("value, encoded", [
    (0, b"\x00"), (127, b"\x7f"), (128, b"\xcc\x80"), (-1, b"\xff"), (-33, b"\xd0\xdf"),
    (65536, b"\xce\x00\x01\x00\x00"),
    (1.5, b"\xca\x3f\xc0\x00\x00"), (0.1, b"\xcb" + struct.pack(">d", 0.1)), ("ab", b"\xa2ab"), (None, b"\xc0"),
    (True, b"\xc3"), ({"b": 1, "a": 2}, b"\x82\xa1a\x02\xa1b\x01"), ([1, 2], b"\x92\x01\x02"),
])
def test_msgpack_encodings(value, encoded):
    assert _msgpack.packb(value) == encoded
    assert _msgpack.unpackb(encoded) == value


def test_msgpack_rejects_garbage():
    with pytest.raises(ValueError):
        _msgpack.unpackb(b"\xa5ab")
    with pytest.raises(ValueError):
        _msgpack.unpackb(b"\x01\x02")


def test_header_layout(tmp_path):
    write(tmp_path / "h.mr", make_rows(2), index=["label"])
    with open(tmp_path / "h.mr", "rb") as f:
        length = struct.unpack("<Q", f.read(8))[0]
        text = f.read(length).decode()
    assert list(json.loads(text)) == ["header_size", "index_fields", "page", "page_size", "compression_size",
                                      "schema", "shard_addresses", "shard_id", "statistics", "version"]
    assert '"version":"3.0"' in text and " " not in text.replace("test schema", "")
    assert os.path.getsize(tmp_path / "h.mr") >= json.loads(text)["header_size"]


# ---------------------------------------------------------------------------------------------------------------
# malformed files


def _corrupt(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def test_truncated_file_is_reported(tmp_path):
    path = str(tmp_path / "c.mr")
    write(path, make_rows(5))
    size = os.path.getsize(path)
    os.truncate(path, size - 10)
    with pytest.raises(MRMOpenError, match="c.mr.*truncated"):
        FileReader(path)


def test_header_garbage_is_reported(tmp_path):
    path = str(tmp_path / "g.mr")
    write(path, make_rows(2))
    _corrupt(path, 8, b"}}}}")
    with pytest.raises(MRMOpenError, match="g.mr.*not valid JSON"):
        FileReader(path)


def test_not_a_mindrecord_file(tmp_path):
    path = tmp_path / "n.mr"
    path.write_bytes(b"\x89PNG not a mindrecord at all")
    with pytest.raises(MRMOpenError, match="n.mr"):
        FileReader(str(path))
    (tmp_path / "e.mr").write_bytes(b"")
    with pytest.raises(MRMOpenError, match="e.mr"):
        FileReader(str(tmp_path / "e.mr"))


def test_missing_shard_is_reported(tmp_path):
    write(tmp_path / "m.mr", make_rows(4), shard_num=2)
    os.remove(tmp_path / "m.mr1")
    with pytest.raises(MRMOpenError, match="m.mr1"):
        FileReader(str(tmp_path / "m.mr0"))


def test_index_mismatch_is_reported(tmp_path):
    write(tmp_path / "x.mr", make_rows(4))
    write(tmp_path / "y.mr", make_rows(6))
    os.replace(tmp_path / "y.mr.db", tmp_path / "x.mr.db")
    with pytest.raises(MRMOpenError, match="do not belong together"):
        FileReader(str(tmp_path / "x.mr"))


def test_corrupted_record_is_reported(tmp_path):
    path = str(tmp_path / "r.mr")
    write(path, make_rows(3))
    header = _format.read_header(path)
    raw_page = next(p for p in header["page"] if p["page_type"] == "RAW_DATA")
    _corrupt(path, header["header_size"] + raw_page["page_id"] * header["page_size"] + 8, b"\xc1\xc1")
    reader = FileReader(path)
    with pytest.raises(RuntimeError, match="r.mr.*corrupted raw record"):
        list(reader.get_next())


def _rewrite_header(path, edit):
    """Apply ``edit`` to the header dict of ``path`` and write it back (as hostile JSON text when ``edit``
    returns bytes)."""
    with open(path, "rb") as f:
        data = bytearray(f.read())
    length = struct.unpack_from("<Q", data)[0]
    header = json.loads(data[8:8 + length])
    text = edit(header)
    text = text if isinstance(text, bytes) else json.dumps(header).encode()
    data[:8 + length] = struct.pack("<Q", len(text)) + text + b"\x00" * max(0, length - len(text))
    with open(path, "wb") as f:
        f.write(data)


def _set(*keys_and_value):
    *keys, value = keys_and_value

    def edit(header):
        node = header
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return edit


# Found by tests/fuzz: each once escaped as OverflowError, KeyError, TypeError, OSError ("Invalid argument"),
# RecursionError or a ParamValueError that did not name the file.
@pytest.mark.parametrize("edit, match", [
    (lambda h: b"[" * 100_000 + b"]" * 100_000, "nests JSON arrays or objects too deeply"),
    (_set("page", 0, "end_row_id", float("inf")), "'end_row_id' of page record 0 is inf"),
    (_set("page", 0, "end_row_id", float("nan")), "'end_row_id' of page record 0 is nan"),
    (_set("page", 1, "page_id", -5), "'page_id' of page record 1 is -5"),
    (_set("page", 0, "page_id", 10 ** 20), "past the end of the file"),
    (_set("page", 0, "page_type_id", [1]), "'page_type_id' of page record 0"),
    (_set("page", 1, "row_group_ids", None), "'row_group_ids' of page record 1"),
    (_set("page", 1, "row_group_ids", [{"id": [], "offset": 0}]), "'row_group_ids' of page record 1"),
    (_set("page", 0, "start_row_id", 7), "before its start row"),
    (_set("page", 0, 1), "page record 0 is 1, not an object"),
    (_set("header_size", 10 ** 30), "'header_size' is 1000000000000000000000000000000"),
    (_set("page_size", 2 ** 62), "'page_size' is 4611686018427387904"),
    (_set("index_fields", [1]), "'index_fields'"),
    (_set("shard_addresses", [[1], {"a": 1}]), "'shard_addresses'"),
    (_set("schema", 0, "blob_fields", [1, "data"]), "blob_fields"),
    (_set("schema", 0, "schema", "mat", "shape", ["a"]), "field 'mat' has an invalid shape"),
    (_set("schema", 0, "schema", "mat", "shape", [1] * 70), "field 'mat' has an invalid shape"),
    (_set("schema", 0, "schema", "mat", "shape", [[2], 3]), "field 'mat' has an invalid shape"),
])
@pytest.mark.parametrize("index", ["with index", "without index"])
def test_hostile_header_values_are_reported_with_the_field(tmp_path, edit, match, index):
    path = str(tmp_path / "h.mr")
    write(path, make_rows(3))
    if index == "without index":
        os.remove(path + ".db")
    _rewrite_header(path, edit)
    with pytest.raises(MRMOpenError, match=f"h.mr.*{match}"):
        FileReader(path)


def test_pages_that_cannot_hold_their_rows_are_reported_without_the_index(tmp_path):
    # the row table is rebuilt from the pages: it must stay inside them, whatever the header claims
    path = str(tmp_path / "p.mr")
    write(path, make_rows(3))
    os.remove(path + ".db")
    _rewrite_header(path, _set("page", 0, "end_row_id", 10 ** 9))
    with pytest.raises(MRMOpenError, match="p.mr.*announces 1000000000 rows but uses only"):
        FileReader(path)
    write(path, make_rows(3), overwrite=True)
    os.remove(path + ".db")
    header = _format.read_header(path)
    blob_page = next(p for p in header["page"] if p["page_type"] == "BLOB_DATA")
    _corrupt(path, header["header_size"] + blob_page["page_id"] * header["page_size"], struct.pack("<Q", 2 ** 40))
    with pytest.raises(MRMOpenError, match="p.mr.*overruns the"):
        FileReader(path)


def test_an_index_with_a_damaged_schema_text_is_reported(tmp_path):
    # found by tests/fuzz: SQLite's message quotes the damaged (non-UTF-8) schema text, which escaped as
    # UnicodeDecodeError
    path = str(tmp_path / "d.mr")
    write(path, make_rows(2))
    with open(path + ".db", "rb") as f:
        data = f.read()
    assert b"tableSHARD_NAMESHARD_NAME" in data  # the sqlite_master row: type, name, table name
    with open(path + ".db", "wb") as f:
        f.write(data.replace(b"tableSHARD_NAMESHARD_NAME", b"table\x81HARD_NAMESHARD_NAME", 1))
    with pytest.raises(MRMOpenError, match="Invalid MindRecord index file .*d.mr.db"):
        FileReader(path)


def test_msgpack_rejects_hostile_nesting_and_counts():
    with pytest.raises(ValueError, match="nested more than"):
        _msgpack.unpackb(b"\x91" * 100_000 + b"\x00")   # was RecursionError
    with pytest.raises(ValueError, match="must not be an array or a map"):
        _msgpack.unpackb(b"\x81\x80\x01")              # a map as a map key: was TypeError (unhashable)
    with pytest.raises(ValueError, match="truncated"):
        _msgpack.unpackb(b"\xdd\xff\xff\xff\xff")        # 2**32 - 1 elements announced, none present


def test_missing_index_falls_back_to_pages(tmp_path):
    path = str(tmp_path / "f.mr")
    rows = make_rows(9)
    write(path, rows)
    os.remove(path + ".db")
    for got, want in zip(read_all(path), rows):
        assert_row_equal(got, want)


# ---------------------------------------------------------------------------------------------------------------
# MindPage


def test_mindpage(tmp_path):
    rows = [{"file_name": f"{i % 3}.jpg", "label": 10 - i % 4, "data": bytes([i])} for i in range(10)]
    write(tmp_path / "mp.mr", rows, schema={"file_name": {"type": "string"}, "label": {"type": "int32"},
                                            "data": {"type": "bytes"}}, index=["file_name", "label"])
    page = MindPage(str(tmp_path / "mp.mr"))
    assert page.candidate_fields == ["file_name", "label"]
    page.category_field = "label"
    info = json.loads(page.read_category_info())
    assert info["key"] == "label_0"
    assert [(c["name"], c["count"]) for c in info["categories"]] == [("10", 3), ("7", 2), ("8", 2), ("9", 3)]
    got = page.read_at_page_by_id(1, 0, 2)
    assert [r["data"] for r in got] == [b"\x03", b"\x07"]
    assert [r["data"] for r in page.read_at_page_by_name("9", 1, 2)] == [b"\x09"]
    with pytest.raises(RuntimeError):
        page.read_at_page_by_id(1, 1, 2)


def test_a_writer_removes_temporaries_that_killed_writers_left(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    path = tmp_path / "data.mindrecord"
    stale = [tmp_path / f".data.mindrecord.{dead.pid}.0badf00d.tmp", tmp_path / f".data.mindrecord.db.{dead.pid}.1.tmp"]
    alive = tmp_path / f".data.mindrecord.{os.getpid()}.feedbeef.tmp"       # a concurrent writer of this process
    for p in stale + [alive]:
        p.write_bytes(b"partial")
    writer = FileWriter(str(path), 1)
    writer.add_schema({"label": {"type": "int32"}}, "s")
    writer.write_raw_data([{"label": 1}])
    writer.commit()
    assert not any(p.exists() for p in stale) and alive.exists()
    assert [int(row["label"]) for row in read_all(path)] == [1]
