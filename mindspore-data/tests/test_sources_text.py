"""TextFileDataset and CSVDataset: order, shuffle modes, sharding, types, headers and malformed files."""
import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def texts(dataset, **kw):
    return [str(r[0]) for r in dataset.create_tuple_iterator(output_numpy=True, **kw)]


@pytest.fixture
def text_files(tmp_path):
    (tmp_path / "a.txt").write_text("a1\na2\n\na3\na4\na5")
    (tmp_path / "b.txt").write_text("b1\nb2\nb3\n")
    (tmp_path / "c.txt").write_text("c1\n")
    return tmp_path


ALL = ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "c1"]


def test_text_rows_in_sorted_file_order(text_files):
    files = [str(text_files / n) for n in ("c.txt", "a.txt", "b.txt")]
    data = ds.TextFileDataset(files, shuffle=False, num_parallel_workers=1)   # one reader: plain file order
    assert data.get_col_names() == ["text"]
    assert data.get_dataset_size() == 9
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [str(r[0]) for r in rows] == ALL
    assert rows[0][0].dtype.kind == "U" and rows[0][0].shape == ()
    assert texts(ds.TextFileDataset(str(text_files / "*.txt"), shuffle=False, num_parallel_workers=1)) == ALL


def test_text_keeps_carriage_returns_and_skips_empty_lines(tmp_path):
    (tmp_path / "w.txt").write_bytes("x1\r\ny2\r\n\r\n\nz3é".encode())
    assert texts(ds.TextFileDataset(str(tmp_path / "w.txt"), shuffle=False)) == ["x1\r", "y2\r", "\r", "z3é"]


@pytest.mark.parametrize("num_shards", [2, 3, 4])
def test_text_shards_are_equal_blocks_covering_every_row(text_files, num_shards):
    files = str(text_files / "*.txt")
    per = -(-9 // num_shards)
    seen = []
    for shard in range(num_shards):
        data = ds.TextFileDataset(files, shuffle=False, num_shards=num_shards, shard_id=shard, num_parallel_workers=1)
        rows = texts(data)
        assert data.get_dataset_size() == per == len(rows)
        assert rows == [ALL[(shard * per + k) % 9] for k in range(per)]
        seen += rows
    assert set(seen) == set(ALL)
    if 9 % num_shards == 0:
        assert sorted(seen) == sorted(ALL)


def test_text_num_samples(text_files):
    data = ds.TextFileDataset(str(text_files / "*.txt"), shuffle=False, num_samples=4, num_parallel_workers=1)
    assert data.get_dataset_size() == 4 and texts(data) == ALL[:4]


def _runs(rows):
    """Consecutive rows grouped by their file (the first letter)."""
    groups = []
    for r in rows:
        if not groups or groups[-1][0][0] != r[0]:
            groups.append([])
        groups[-1].append(r)
    return groups


def test_text_shuffle_modes(text_files):
    files = str(text_files / "*.txt")
    by_file = {"a": ALL[:5], "b": ALL[5:8], "c": ALL[8:]}
    config.set_seed(3)
    for mode in (ds.Shuffle.FILES, ds.Shuffle.INFILE, ds.Shuffle.GLOBAL, True):
        data = ds.TextFileDataset(files, shuffle=mode, num_parallel_workers=1)
        iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=3)
        epochs = [[str(r[0]) for r in iterator] for _ in range(3)]
        assert all(sorted(e) == sorted(ALL) for e in epochs)
        assert len({tuple(e) for e in epochs}) > 1 or mode in (ds.Shuffle.FILES, ds.Shuffle.INFILE)
        if mode == ds.Shuffle.FILES:      # whole files, each in its own order
            for epoch in epochs:
                assert all(run == by_file[run[0][0]] for run in _runs(epoch))
        if mode == ds.Shuffle.INFILE:     # 2.10's text reader does not shuffle inside files: the plain order
            assert epochs == [ALL] * 3
    config.set_seed(3)
    first = texts(ds.TextFileDataset(files, shuffle=True))
    config.set_seed(3)
    assert texts(ds.TextFileDataset(files, shuffle=True)) == first


def test_text_shuffled_shards_still_partition(text_files):
    config.set_seed(11)
    files = str(text_files / "*.txt")
    seen = []
    for shard in range(3):
        seen += texts(ds.TextFileDataset(files, shuffle=ds.Shuffle.GLOBAL, num_shards=3, shard_id=shard))
    assert sorted(seen) == sorted(ALL)


def test_text_errors(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ds.TextFileDataset(str(tmp_path / "missing.txt"))
    (tmp_path / "empty.txt").write_text("\n\n")
    with pytest.raises(TypeError):
        ds.TextFileDataset(str(tmp_path / "empty.txt"), shuffle="yes")
    with pytest.raises(RuntimeError, match="no data found"):
        ds.TextFileDataset(str(tmp_path / "empty.txt")).get_dataset_size()
    (tmp_path / "bad.txt").write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(RuntimeError, match="bad.txt.*UTF-8"):
        texts(ds.TextFileDataset(str(tmp_path / "bad.txt"), shuffle=False))


# ---------------------------------------------------------------------------------------------------------------
# CSV


def csv_rows(dataset):
    return [{k: (v.dtype, v.item() if v.dtype.kind != "U" else str(v)) for k, v in r.items()}
            for r in dataset.create_dict_iterator(output_numpy=True)]


@pytest.fixture
def csv_files(tmp_path):
    (tmp_path / "c.csv").write_text('h1,h2,h3\n1,2.5,x\n3,,y\n"q,1",4,"he said ""hi"""\n')
    (tmp_path / "d.csv").write_text("h1,h2,h3\n4,5.5,z\n")
    return tmp_path


def test_csv_headers_and_strings(csv_files):
    data = ds.CSVDataset([str(csv_files / "d.csv"), str(csv_files / "c.csv")], shuffle=False, num_parallel_workers=1)
    assert data.get_col_names() == ["h1", "h2", "h3"]
    assert data.get_dataset_size() == 4
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert [[str(r[c]) for c in ("h1", "h2", "h3")] for r in rows] == [
        ["1", "2.5", "x"], ["3", "", "y"], ["q,1", "4", 'he said "hi"'], ["4", "5.5", "z"]]
    assert all(r["h1"].dtype.kind == "U" for r in rows)


def test_csv_column_names_make_every_record_data(csv_files):
    data = ds.CSVDataset(str(csv_files / "d.csv"), column_names=["a", "b", "c"], shuffle=False)
    assert data.get_col_names() == ["a", "b", "c"]
    assert [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == ["h1", "4"]


def test_csv_column_defaults_set_types(tmp_path):
    (tmp_path / "t.csv").write_text("i,f,s,extra\n1,2.5,x,e\n-7,,y,f\n")
    data = ds.CSVDataset(str(tmp_path / "t.csv"), column_defaults=[0, 9.5, "d"], shuffle=False)
    assert csv_rows(data) == [
        {"i": (np.int32, 1), "f": (np.float32, 2.5), "s": (np.dtype("<U1"), "x"), "extra": (np.dtype("<U1"), "e")},
        {"i": (np.int32, -7), "f": (np.float32, 9.5), "s": (np.dtype("<U1"), "y"), "extra": (np.dtype("<U1"), "f")}]


def test_csv_delimiter_crlf_blank_lines_and_quoted_newlines(tmp_path):
    (tmp_path / "s.csv").write_bytes(b'a;b\r\n1;"two\r\nlines"\r\n\r\n3;4\r\n')
    data = ds.CSVDataset(str(tmp_path / "s.csv"), field_delim=";", shuffle=False)
    assert [[str(v) for v in r] for r in data.create_tuple_iterator(output_numpy=True)] == [
        ["1", "two\r\nlines"], ["3", "4"]]


def test_csv_shards_cover_every_row(tmp_path):
    (tmp_path / "n.csv").write_text("v\n" + "".join(f"{i}\n" for i in range(10)))
    seen = []
    for shard in range(5):
        data = ds.CSVDataset(str(tmp_path / "n.csv"), column_defaults=[0], num_shards=5, shard_id=shard)
        seen += [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert sorted(seen) == list(range(10))


@pytest.mark.parametrize("content, kwargs, match", [
    ("a,b\n1,2,3\n", {}, "line 2.*3 fields"),
    ("a,b\nx,2\n", {"column_defaults": [0, 0]}, "line 2, type does not match.*'x'"),
    ("a,b\n99999999999,2\n", {"column_defaults": [0, 0]}, "line 2.*out of range"),
    ('a,b\n"x"y,2\n', {}, "line 2"),
    ("a,b\n", {}, "no data found"),
    ("a,b\n1,2\n", {"column_defaults": [0, 0, 0]}, "column_defaults"),
])
def test_csv_malformed(tmp_path, content, kwargs, match):
    (tmp_path / "bad.csv").write_text(content)
    data = ds.CSVDataset(str(tmp_path / "bad.csv"), shuffle=False, **kwargs)
    with pytest.raises(RuntimeError, match=match):
        list(data.create_tuple_iterator(output_numpy=True))


def test_csv_header_mismatch_between_files(csv_files):
    (csv_files / "e.csv").write_text("x,y,z\n1,2,3\n")
    data = ds.CSVDataset(str(csv_files / "*.csv"), shuffle=False)
    with pytest.raises(RuntimeError, match="e.csv"):
        data.get_dataset_size()


def test_csv_argument_errors(csv_files):
    path = str(csv_files / "c.csv")
    with pytest.raises(ValueError):
        ds.CSVDataset(path, field_delim='"')
    with pytest.raises(TypeError):
        ds.CSVDataset(path, field_delim=",,")
    with pytest.raises(TypeError):
        ds.CSVDataset(path, column_defaults=[None])
    with pytest.raises(ValueError):
        ds.CSVDataset(path, column_names=["a", "a"])
