"""Fuzzing the MindRecord readers (``FileReader`` and ``MindDataset``) on damaged files.

The valid data set is written with ``FileWriter`` (small header and page sizes, every field type: int32, int64,
float32, float64, string, bytes, and int/float arrays, so that compressed integer blobs and several blob fields
are present). It is then damaged three ways: bytes of the header and of the pages (``fuzz_mutations.mutated``
focused on them: the file is mostly zeros), the header's JSON rebuilt with hostile values, and the SQLite index
``.db`` edited with hostile offsets or left out. Each file set is read to the end in the worker process.
"""
import json
import os
import sqlite3
import struct
import tempfile

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mindspore.mindrecord import FileWriter

from fuzz_harness import ValidFiles, check_outcome, fuzz_settings
from fuzz_mutations import SIGNED_INTS, dumps, json_mutated, mutated

NAME = "data.mindrecord"
SCHEMA = {"label": {"type": "int32"}, "id": {"type": "int64"}, "score": {"type": "float64"},
          "ratio": {"type": "float32"}, "name": {"type": "string"}, "raw": {"type": "bytes"},
          "ids": {"type": "int64", "shape": [-1]}, "pos": {"type": "int32", "shape": [2, 2]},
          "vec": {"type": "float32", "shape": [3]}}
LOADERS = ("filereader", "minddataset")


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    folder = tmp_path_factory.mktemp("valid-mindrecord")
    writer = FileWriter(str(folder / NAME), shard_num=1, overwrite=True)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(SCHEMA, "fuzz")
    rows = [{"label": i, "id": 2 ** 40 + i, "score": i / 3, "ratio": 0.5 * i, "name": f"row{i}",
             "raw": bytes(range(i, i + 6)), "ids": np.arange(i + 1, dtype=np.int64) * 70000 - 5,
             "pos": np.array([[i, -i], [300, 2 ** 20]], np.int32), "vec": np.array([i, np.inf, -0.0], np.float32)}
            for i in range(5)]
    writer.write_raw_data(rows)
    writer.commit()
    return ValidFiles({NAME: (folder / NAME).read_bytes(), NAME + ".db": (folder / (NAME + ".db")).read_bytes()})


def _layout(data):
    """(header dict, header end, [(start, end)] of the used part of every page)."""
    n = struct.unpack_from("<Q", data)[0]
    header = json.loads(data[8:8 + n])
    pages = [(header["header_size"] + p["page_id"] * header["page_size"],
              header["header_size"] + p["page_id"] * header["page_size"] + p["page_size"]) for p in header["page"]]
    return header, 8 + n, pages


def _files(valid, shard, index):
    files = {NAME: shard}
    if index == "kept":
        files[NAME + ".db"] = valid[NAME + ".db"]
    elif index is not None:
        files[NAME + ".db"] = index
    return files


@fuzz_settings(share=2)
@given(data=st.data(), loader=st.sampled_from(LOADERS), index=st.sampled_from(["kept", None]))
def test_mutated_shard_bytes(loader_worker, valid, data, loader, index):
    _, header_end, pages = _layout(valid[NAME])
    damaged = data.draw(mutated(valid[NAME], focus=[(0, header_end)] + pages), label="file")
    check_outcome(loader_worker.load(loader, _files(valid, damaged, index), NAME), loader, NAME)


@fuzz_settings(share=2)
@given(data=st.data(), loader=st.sampled_from(LOADERS), index=st.sampled_from(["kept", None]))
def test_mutated_header_json(loader_worker, valid, data, loader, index):
    base = valid[NAME]
    header, header_end, _ = _layout(base)
    text = dumps(data.draw(json_mutated(header), label="header"), separators=(",", ":")).encode("utf-8")
    if 8 + len(text) <= header["header_size"]:
        damaged = struct.pack("<Q", len(text)) + text + base[8 + len(text):]
    else:
        damaged = struct.pack("<Q", len(text)) + text
    check_outcome(loader_worker.load(loader, _files(valid, damaged, index), NAME), loader, NAME)


_INDEX_COLUMNS = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END", "ROW_GROUP_ID", "PAGE_ID_BLOB",
                  "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")
_SQL_VALUES = (st.sampled_from(SIGNED_INTS).filter(lambda v: -2 ** 63 <= v < 2 ** 63) | st.integers(-3, 300)
               | st.sampled_from((None, "x", b"\x00\x01", 1.5, float("inf"))))


def _edit(draw, conn):
    edit = draw(st.sampled_from(("set", "set", "set", "delete", "duplicate", "drop")))
    row = draw(st.integers(0, 5))
    if edit == "set":
        column = draw(st.sampled_from(_INDEX_COLUMNS))
        sql, args = f"UPDATE INDEXES SET {column} = ? WHERE ROW_ID = ?", (draw(_SQL_VALUES), row)
    elif edit == "delete":
        sql, args = "DELETE FROM INDEXES WHERE ROW_ID = ?", (row,)
    elif edit == "duplicate":  # refused when the index's unique constraint covers every column
        sql, args = "INSERT INTO INDEXES SELECT * FROM INDEXES WHERE ROW_ID = ?", (row,)
    else:
        sql, args = draw(st.sampled_from(("DROP TABLE INDEXES", "DROP TABLE SHARD_NAME"))), ()
    try:
        conn.execute(sql, args)
    except sqlite3.Error:
        pass  # an edit SQLite refuses (a constraint, a dropped table) is simply not made


@st.composite
def _edited_index(draw, db_bytes):
    """The ``.db`` index with one to three hostile edits (SQL), or damaged bytes."""
    if draw(st.integers(0, 3)) == 0:
        return draw(mutated(db_bytes))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "index.db")
        with open(path, "wb") as f:
            f.write(db_bytes)
        conn = sqlite3.connect(path)
        try:
            for _ in range(draw(st.integers(1, 3))):
                _edit(draw, conn)
            conn.commit()
        finally:
            conn.close()
        with open(path, "rb") as f:
            return f.read()


@fuzz_settings(share=2)
@given(data=st.data(), loader=st.sampled_from(LOADERS))
def test_mutated_index(loader_worker, valid, data, loader):
    index = data.draw(_edited_index(valid[NAME + ".db"]), label="index")
    check_outcome(loader_worker.load(loader, _files(valid, valid[NAME], index), NAME), loader, NAME)
