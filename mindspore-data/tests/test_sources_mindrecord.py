"""MindDataset over MindRecord shards written with FileWriter."""
import copy
import itertools
import json
import os
import pickle
import struct

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config
from mindspore.mindrecord import FileWriter

SCHEMA = {"id": {"type": "int64"}, "label": {"type": "int32"}, "name": {"type": "string"},
          "score": {"type": "float32"}, "data": {"type": "bytes"}, "vec": {"type": "float64", "shape": [-1, 2]},
          "ids": {"type": "int64", "shape": [3]}}


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def make_row(i):
    return {"id": i, "label": i % 4, "name": f"n{i}", "score": i / 4, "data": bytes([i, 0, 255 - i]),
            "vec": np.arange(2 * (i % 3 + 1), dtype=np.float64).reshape(-1, 2) * i,
            "ids": np.array([i, -i, 2 ** 40 + i], np.int64)}


@pytest.fixture
def shards(tmp_path):
    writer = FileWriter(str(tmp_path / "set.mindrecord"), shard_num=3)
    writer.add_schema(SCHEMA, "minddataset test")
    writer.write_raw_data([make_row(i) for i in range(12)])
    writer.write_raw_data([make_row(i) for i in range(12, 20)])
    writer.commit()
    return [str(tmp_path / f"set.mindrecord{k}") for k in range(3)]


def ids_of(dataset, **kw):
    return [int(r["id"]) for r in dataset.create_dict_iterator(output_numpy=True, num_epochs=1, **kw)]


def test_columns_types_and_shapes(shards):
    data = ds.MindDataset(shards[1], shuffle=False)
    assert data.get_col_names() == sorted(SCHEMA)
    assert data.get_dataset_size() == 20
    for row in data.create_dict_iterator(output_numpy=True):
        want = make_row(int(row["id"]))
        assert row["id"].dtype == np.int64 and row["id"].shape == ()
        assert row["label"].dtype == np.int32 and int(row["label"]) == want["label"]
        assert row["name"].dtype.kind == "U" and str(row["name"]) == want["name"]
        assert row["score"].dtype == np.float32 and float(row["score"]) == want["score"]
        assert row["data"].dtype.kind == "S" and row["data"].shape == (1,)
        assert row["data"].tobytes() == want["data"]
        assert row["vec"].dtype == np.float64 and row["vec"].shape == want["vec"].shape
        np.testing.assert_array_equal(row["vec"], want["vec"])
        np.testing.assert_array_equal(row["ids"], want["ids"])


def test_one_file_loads_all_shards_in_order(shards):
    order = ids_of(ds.MindDataset(shards[2], shuffle=False))
    assert sorted(order) == list(range(20))
    per_file = [ids_of(ds.MindDataset([f], shuffle=False)) for f in shards]
    assert order == per_file[0] + per_file[1] + per_file[2]
    assert ids_of(ds.MindDataset([shards[2], shards[0]], shuffle=False)) == per_file[2] + per_file[0]


def test_columns_list(shards):
    data = ds.MindDataset(shards[0], columns_list=["name", "label"], shuffle=False)
    assert data.get_col_names() == ["name", "label"]
    row = next(data.create_tuple_iterator(output_numpy=True))
    assert len(row) == 2 and row[0].dtype.kind == "U"
    with pytest.raises(RuntimeError, match="nope"):
        ds.MindDataset(shards[0], columns_list=["nope"]).get_dataset_size()


@pytest.mark.parametrize("num_shards", [2, 4, 5])
def test_shards_cover_every_row_once(shards, num_shards):
    seen = []
    for shard in range(num_shards):
        seen += ids_of(ds.MindDataset(shards[0], num_shards=num_shards, shard_id=shard))
    assert sorted(seen) == list(range(20))


def test_sharding_is_strided_like_mindspore(shards):
    order = ids_of(ds.MindDataset(shards[0], shuffle=False))
    assert ids_of(ds.MindDataset(shards[0], shuffle=False, num_shards=2, shard_id=1)) == order[1::2]


def test_padded_samples(shards):
    pad = {"id": -1, "label": -1, "name": "pad", "score": 0.0, "data": b"", "vec": np.zeros((1, 2)),
           "ids": np.zeros(3, np.int64)}
    seen = []
    for shard in range(3):
        data = ds.MindDataset(shards[0], columns_list=["id", "name"], padded_sample=pad, num_padded=1, num_shards=3,
                              shard_id=shard, shuffle=False)
        assert data.get_dataset_size() == 7
        rows = list(data.create_tuple_iterator(output_numpy=True))
        assert rows[0][0].dtype == np.int64
        seen += [int(r[0]) for r in rows]
    assert sorted(seen) == [-1] + list(range(20))
    bad = ds.MindDataset(shards[0], columns_list=["id"], padded_sample=pad, num_padded=2, num_shards=3, shard_id=0)
    with pytest.raises(RuntimeError, match="divisible"):
        bad.get_dataset_size()
    with pytest.raises(RuntimeError, match="columns_list"):
        ds.MindDataset(shards[0], padded_sample=pad, num_padded=1)
    with pytest.raises(RuntimeError, match="padded_sample"):
        ds.MindDataset(shards[0], num_padded=1)


def test_shuffle_modes(shards):
    config.set_seed(5)
    per_file = [ids_of(ds.MindDataset([f], shuffle=False)) for f in shards]
    iterator = ds.MindDataset(shards[0], shuffle=ds.Shuffle.FILES).create_dict_iterator(output_numpy=True,
                                                                                       num_epochs=4)
    # as 2.10's ShardShuffle: each epoch reorders the slices the files' rows held in the previous epoch's order
    # (epoch 1: whole files in some order; later epochs: slices of the previous order, of the files' lengths)
    previous = sum(per_file, [])
    bounds = np.cumsum([0] + [len(rows) for rows in per_file])
    for _ in range(4):
        order = [int(r["id"]) for r in iterator]
        slices = [previous[bounds[k]:bounds[k + 1]] for k in range(3)]
        assert any(order == slices[a] + slices[b] + slices[c] for a, b, c in itertools.permutations(range(3)))
        previous = order
    data = ds.MindDataset(shards[0], shuffle=ds.Shuffle.INFILE)
    order = ids_of(data)
    start = 0
    for rows in per_file:
        assert sorted(order[start:start + len(rows)]) == sorted(rows)
        start += len(rows)
    with pytest.raises(ValueError, match="num_samples"):
        ds.MindDataset(shards[0], shuffle=ds.Shuffle.FILES, num_samples=3)
    iterator = ds.MindDataset(shards[0]).create_dict_iterator(output_numpy=True, num_epochs=2)
    first, second = ([int(r["id"]) for r in iterator] for _ in range(2))
    assert sorted(first) == sorted(second) == list(range(20)) and first != second


def test_getitem(shards):
    data = ds.MindDataset(shards[0], columns_list=["id", "data"])
    order = ids_of(ds.MindDataset(shards[0], shuffle=False))
    row = data[5]
    assert int(row[0]) == order[5] and row[1].tobytes() == make_row(order[5])["data"]
    with pytest.raises(ValueError):
        data[-1]


def test_num_samples_and_workers(shards):
    assert ds.MindDataset(shards[0], shuffle=False, num_samples=7).get_dataset_size() == 7
    serial = ids_of(ds.MindDataset(shards[0], shuffle=False, num_parallel_workers=1))
    assert ids_of(ds.MindDataset(shards[0], shuffle=False, num_parallel_workers=min(4, os.cpu_count()))) == serial


def test_pickle_and_deepcopy(shards):
    data = ds.MindDataset(shards[0], shuffle=False)
    reference = ids_of(data)
    assert ids_of(pickle.loads(pickle.dumps(data))) == reference
    assert ids_of(copy.deepcopy(data)) == reference
    train, test = data.split([0.5, 0.5], randomize=False)
    assert ids_of(train) + ids_of(test) == reference


def test_errors_name_the_file(shards, tmp_path):
    with pytest.raises(ValueError, match="missing.mindrecord"):
        ds.MindDataset(str(tmp_path / "missing.mindrecord"))
    os.truncate(shards[1], os.path.getsize(shards[1]) - 3)
    with pytest.raises(RuntimeError, match="set.mindrecord1.*truncated"):
        ds.MindDataset(shards[0]).get_dataset_size()
    (tmp_path / "junk.mindrecord").write_bytes(b"\x00" * 7)
    with pytest.raises(RuntimeError, match="junk.mindrecord"):
        ds.MindDataset(str(tmp_path / "junk.mindrecord")).get_dataset_size()
    os.remove(shards[2])
    with pytest.raises(RuntimeError, match="set.mindrecord2"):
        ds.MindDataset(shards[0]).get_col_names()


def test_hostile_header_values_are_runtime_errors_naming_the_file(shards):
    # found by tests/fuzz: an infinite row count and a deeply nested header once escaped as OverflowError and
    # RecursionError
    with open(shards[1], "rb") as f:
        data = bytearray(f.read())
    length = struct.unpack_from("<Q", data)[0]
    header = json.loads(data[8:8 + length])
    header["page"][0]["end_row_id"] = float("inf")
    text = json.dumps(header).encode()
    data[:8 + length] = struct.pack("<Q", len(text)) + text + b"\x00" * (length - len(text))
    with open(shards[1], "wb") as f:
        f.write(data)
    with pytest.raises(RuntimeError, match="set.mindrecord1.*'end_row_id' of page record 0 is inf"):
        list(ds.MindDataset(shards, shuffle=False).create_tuple_iterator(output_numpy=True))
    with open(shards[2], "r+b") as f:
        f.write(struct.pack("<Q", 20_000) + b"[" * 10_000 + b"]" * 10_000)
    with pytest.raises(RuntimeError, match="set.mindrecord2.*too deeply"):
        list(ds.MindDataset([shards[2]], shuffle=False).create_tuple_iterator(output_numpy=True))


def test_dataset_save_writes_mindrecord_with_2_10_schema(tmp_path):
    from mindspore.mindrecord import FileReader

    def gen():
        for i in range(3):
            yield (np.int64(i), np.ones((2, 3), np.float32) * i, np.array([1, 2, i], np.uint8), np.array(f"s{i}"),
                   np.float16(i))

    path = str(tmp_path / "x.mindrecord")
    ds.GeneratorDataset(gen, ["a", "c", "d", "e", "f"], shuffle=False).save(path)
    assert FileReader(path).schema() == {"a": {"type": "int64"}, "c": {"type": "float32", "shape": [-1, 3]},
                                         "d": {"type": "int32", "shape": [-1]}, "e": {"type": "string"},
                                         "f": {"type": "float32"}}
    rows = list(ds.MindDataset(path, shuffle=False).create_dict_iterator(output_numpy=True))
    assert [r["a"].item() for r in rows] == [0, 1, 2] and rows[2]["d"].dtype == np.int32
    np.testing.assert_array_equal(rows[2]["c"], np.full((2, 3), 2, np.float32))
    with pytest.raises(ValueError, match="file_type"):
        ds.NumpySlicesDataset([1], ["x"]).save(str(tmp_path / "y.mindrecord"), file_type="tfrecord")
