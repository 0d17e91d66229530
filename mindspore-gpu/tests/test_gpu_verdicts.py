"""``mindspore_gpu.verdicts``: checks passed, kept in one JSON file per machine (no CuPy needed). How the cuDNN path
uses it is tested in ``test_gpu_cudnn.py`` (the next process skips the checks passed)."""
import json
import os

import pytest

from mindspore_gpu import verdicts


@pytest.fixture
def folder(monkeypatch, tmp_path):
    monkeypatch.setenv(verdicts.CACHE_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(verdicts.ENV, raising=False)
    return tmp_path


def test_the_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(verdicts.CACHE_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert verdicts.cache_dir() == os.path.join(str(tmp_path), "mindspore", "gpu")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert verdicts.cache_dir() == os.path.join(str(tmp_path), "home", ".cache", "mindspore", "gpu")
    monkeypatch.setenv(verdicts.CACHE_DIR_ENV, str(tmp_path / "mine"))
    assert verdicts.cache_dir() == str(tmp_path / "mine")


def test_processes_writing_at_once_lose_nothing(folder):
    a, b = verdicts.Verdicts("checks.json"), verdicts.Verdicts("checks.json")
    assert not a.passed("env", "case", "k1") and not b.passed("env", "case", "k2")   # both read the empty file
    a.remember("env", "case", "k1")
    b.remember("env", "case", "k2")            # b had not seen k1: the write merges what the file holds
    b.remember("other env", "known-answer", "fprop 2-D float32")
    saved = json.loads((folder / "checks.json").read_text())
    assert saved == {"version": verdicts.VERSION, "environments": {
        "env": {"case": ["k1", "k2"]}, "other env": {"known-answer": ["fprop 2-D float32"]}}}
    assert b.passed("env", "case", "k1")       # (and b now knows k1)
    fresh = verdicts.Verdicts("checks.json")
    assert fresh.passed("env", "case", "k2") and not fresh.passed("other env", "case", "k2")
    assert not fresh.passed("env", "known-answer", "k1")
    assert [p.name for p in folder.iterdir()] == ["checks.json"]       # no temporary file left


def test_the_oldest_keys_go_past_the_limit(folder, monkeypatch):
    monkeypatch.setattr(verdicts, "LIMIT", 3)
    v = verdicts.Verdicts("checks.json")
    for i in range(5):
        v.remember("env", "case", f"k{i}")
    assert json.loads((folder / "checks.json").read_text())["environments"]["env"]["case"] == ["k2", "k3", "k4"]


def test_turned_off(folder, monkeypatch):
    monkeypatch.setenv(verdicts.ENV, "0")
    v = verdicts.Verdicts("checks.json")
    v.remember("env", "case", "k")
    assert v.path is None and not v.passed("env", "case", "k") and not list(folder.iterdir())
    monkeypatch.setenv(verdicts.ENV, "1")
    assert v.path is None                      # read once, until reset
    v.reset()
    v.remember("env", "case", "k")
    assert v.path == str(folder / "checks.json") and v.passed("env", "case", "k")
