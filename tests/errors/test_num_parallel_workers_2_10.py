"""``num_parallel_workers`` above the host's CPU count (or below 1, or not an int) is refused as MindSpore 2.10
refuses it: by the sources, map, batch, padded_batch and filter ("num_parallel_workers exceeds the boundary between
1 and N!", before a file source looks at its files) and by ds.config.set_num_parallel_workers (its own messages).
Recorded by tests/fixtures/refusals_2_10/record_num_parallel_workers.py."""
import importlib.util
import json
import pathlib

import pytest

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("num_parallel_workers_cases", _DIR / "num_parallel_workers_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "num_parallel_workers.json").read_text())["cases"]
# a valid count reaches the missing files, whose message is another matter than this file's
_FILE_SOURCES = ("TFRecordDataset", "TextFileDataset", "CSVDataset")


@pytest.mark.parametrize("spelling", cases.VALUES)
@pytest.mark.parametrize("api", sorted(cases.BUILD))
def test_num_parallel_workers_as_2_10(api, spelling):
    want, got = REF[api][spelling], cases.run(api, spelling)
    if api in _FILE_SOURCES and spelling == "cpus":
        assert "error" in got and "num_parallel_workers" not in got["message"], got
        return
    assert got == want
