"""More sources (MNIST family, SVHN, CelebA, VOC, COCO, Places365, text and audio corpora, ...) compared row by
row with what real MindSpore 2.10 yields on the same files.

The files are written by ``fixtures/data/sources_more_cases.py``; ``fixtures/data/sources_more.npz`` holds the
rows real MindSpore read from them (recorded by ``fixtures/data/make_sources_more.py``).
"""
import builtins
import sys
from pathlib import Path

import numpy as np
import pytest

import mindspore.dataset as ds

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "data"
sys.path.insert(0, str(FIXTURES))
import sources_more_cases  # noqa: E402  pylint: disable=wrong-import-position

_RECORDED = np.load(FIXTURES / "sources_more.npz")
_KEYS = set(_RECORDED.files)


def _expected(name):
    if f"{name}|error" in _KEYS:
        return None, None
    columns = list(_RECORDED[f"{name}|columns"])
    rows = []
    i = 0
    while f"{name}|{i}|0" in _KEYS:
        rows.append([_RECORDED[f"{name}|{i}|{j}"] for j in range(len(columns))])
        i += 1
    return columns, rows


@pytest.mark.parametrize("name", sorted(sources_more_cases.CASES))
def test_rows_match_mindspore(name, tmp_path):
    builder, factory = sources_more_cases.CASES[name]
    builder(tmp_path)
    columns, rows = _expected(name)
    if columns is None:
        error_type = getattr(builtins, str(_RECORDED[f"{name}|error"][0]))
        with pytest.raises(error_type):
            data = factory(ds, tmp_path)
            list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
        return
    data = factory(ds, tmp_path)
    assert data.get_col_names() == columns
    got = list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert len(got) == len(rows)
    assert data.get_dataset_size() == len(rows)
    if name in sources_more_cases.UNORDERED:
        got = sorted(got, key=lambda r: [np.asarray(v).tolist() for v in r][::-1])
        rows = sorted(rows, key=lambda r: [np.asarray(v).tolist() for v in r][::-1])
    for i, (row, want) in enumerate(zip(got, rows)):
        assert len(row) == len(want)
        for j, (value, expected) in enumerate(zip(row, want)):
            value = np.asarray(value)
            where = f"row {i} column {columns[j]}"
            assert value.shape == expected.shape, where
            if expected.dtype.kind in "US":
                assert value.dtype.kind == expected.dtype.kind, where
                assert value.tolist() == expected.tolist(), where
            else:
                assert value.dtype == expected.dtype, where
                np.testing.assert_allclose(value, expected, rtol=1e-6, atol=1e-6, err_msg=where)
