"""``obfuscate_ckpt`` / ``load_obf_params_into_net`` against MindSpore 2.10: the same scenario (recorded by
``tests/fixtures/api_rest/record_obfuscate.py`` with the reference build) gives the same files, metadata and
obfuscated parameters, bit for bit (the random ratios come from ``np.random`` after the same seed)."""
import json
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "api_rest"
sys.path.insert(0, str(FIXTURES))
import record_obfuscate  # noqa: E402

WANT = json.loads((FIXTURES / "obfuscate_2.10.json").read_text())


@pytest.mark.parametrize("case", ["target_modules", "obf_config"])
def test_obfuscate_ckpt_matches_2_10(case):
    got = record_obfuscate.run(case)
    want = WANT[case]
    assert got["files"] == want["files"]
    assert got["metadata_dtype"] == want["metadata_dtype"] and got["param_dtype"] == want["param_dtype"]
    assert got["metadata"].keys() == want["metadata"].keys()
    for key, value in want["metadata"].items():
        np.testing.assert_array_equal(got["metadata"][key], value)
    for key, value in want["params"].items():
        np.testing.assert_array_equal(got["params"][key], value)


def test_subdirectories_and_checks(tmp_path):
    net = record_obfuscate.Net()
    (tmp_path / "src" / "rank_0").mkdir(parents=True)
    (tmp_path / "out").mkdir()
    ms.save_checkpoint(net, str(tmp_path / "src" / "rank_0" / "a.b.ckpt"))
    ms.obfuscate_ckpt(net, str(tmp_path / "src"), target_modules=["backbone", "fc1"], saved_path=str(tmp_path / "out"))
    assert [p.name for p in (tmp_path / "out" / "rank_0").iterdir()] == ["a_obf.ckpt"]
    with pytest.raises(ValueError, match="the path nothere does not exist"):
        ms.obfuscate_ckpt(net, str(tmp_path / "src"), target_modules=["nothere", "fc1"], saved_path=str(tmp_path))
    with pytest.raises(ValueError, match="obfuscate_scale must be float or int, and larger than 1"):
        ms.obfuscate_ckpt(net, str(tmp_path / "src"), target_modules=["backbone", "fc1"], saved_path=str(tmp_path),
                          obfuscate_scale=1)
    with pytest.raises(TypeError, match="network must be nn.Cell"):
        ms.obfuscate_ckpt(object(), str(tmp_path / "src"), target_modules=["backbone", "fc1"])


def test_load_obf_params_into_net_returns_the_network():
    net = record_obfuscate.Net()
    assert ms.load_obf_params_into_net(net, ["backbone", "fc1|fc2"]) is net
    with pytest.raises(ValueError, match="data_parallel_num must be positive"):
        ms.load_obf_params_into_net(net, ["backbone", "fc1"], data_parallel_num=0)
    with pytest.raises(TypeError, match="network must be nn.Cell"):
        ms.load_obf_params_into_net(nn, ["backbone", "fc1"])
