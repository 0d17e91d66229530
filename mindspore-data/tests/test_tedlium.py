"""TedliumDataset against MindSpore 2.10's rows (``fixtures/tedlium_msref.json``) and the samples written."""
import importlib.util
import json
import os

import numpy as np
import pytest

import mindspore.dataset as ds

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("make_tedlium_fixture",
                                               os.path.join(HERE, "fixtures", "make_tedlium_fixture.py"))
maker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(maker)
with open(os.path.join(HERE, "fixtures", "tedlium_msref.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("tedlium"))
    return root, maker.write_tree(root)


@pytest.mark.parametrize("folder,release,usage", maker.CASES)
def test_rows_match_mindspore(tree, folder, release, usage):
    root, written = tree
    data = ds.TedliumDataset(os.path.join(root, folder), release, usage, shuffle=False)
    assert data.get_col_names() == ["waveform", "sample_rate", "transcript", "talk_id", "speaker_id", "identifier"]
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    want = RECORDED[f"{release}/{usage}"]
    assert data.get_dataset_size() == len(want) == len(rows)
    for row, expect in zip(rows, want):
        got = {k: (list(v.shape) if k == "waveform" else v.item() if k == "sample_rate" else str(v))
               for k, v in row.items()}
        assert got == expect
        assert row["waveform"].dtype == np.float32 and row["sample_rate"].dtype == np.int32


def test_waveform_is_the_segment_of_samples(tree):
    root, written = tree
    data = ds.TedliumDataset(os.path.join(root, "TEDLIUM_release1"), "release1", "test", shuffle=False)
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    samples = written[os.path.join(root, "TEDLIUM_release1", "test", "sph", "TalkA.sph")]
    np.testing.assert_allclose(rows[0]["waveform"][0], samples[:16000] / 32768.0, rtol=1e-6)
    np.testing.assert_allclose(rows[2]["waveform"][0], samples[24000:36000] / 32768.0, rtol=1e-6)


def test_errors(tree):
    root, _ = tree
    for args, (kind, message) in RECORDED["errors"].items():
        with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[kind]) as info:
            ds.TedliumDataset(os.path.join(root, "TEDLIUM_release1"), *eval(args))  # noqa: S307 - recorded tuples
        assert str(info.value) == message
    with pytest.raises(ValueError, match="extensions"):
        ds.TedliumDataset(os.path.join(root, "TEDLIUM_release1"), "release1", extensions=".wav")
    with pytest.raises(RuntimeError, match="failed to open folder"):
        list(ds.TedliumDataset(root, "release1").create_dict_iterator(num_epochs=1))
