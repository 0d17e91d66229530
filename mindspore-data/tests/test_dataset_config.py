"""mindspore.dataset.config, the namespace install, and the data plugin."""
import os
import pathlib
import random
import subprocess
import sys
from importlib import metadata

import numpy as np
import pytest

import mindspore
import mindspore.dataset as ds
from mindspore._plugin import manager
from mindspore.dataset import config


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def test_defaults_are_mindspores():
    code = ("import mindspore.dataset as ds; c = ds.config; "
            "print(c.get_seed(), c.get_num_parallel_workers(), c.get_prefetch_size())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["5489", str(min(8, os.cpu_count() or 1)), "16"]   # 2.10: 2 on a 2-CPU host


def test_mindspore_set_seed_seeds_the_pipelines_too():
    """As MindSpore's set_seed, before mindspore.dataset is loaded and after."""
    code = ("import mindspore as ms; ms.set_seed(7); import mindspore.dataset as ds; print(ds.config.get_seed()); "
            "ms.set_seed(9); print(ds.config.get_seed())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["7", "9"]


@pytest.mark.parametrize("setter, getter, value", [
    (ds.config.set_seed, ds.config.get_seed, 1234),
    (ds.config.set_seed, ds.config.get_seed, 0),
    (ds.config.set_seed, ds.config.get_seed, 4294967295),
    (ds.config.set_num_parallel_workers, ds.config.get_num_parallel_workers, 1),
    (ds.config.set_prefetch_size, ds.config.get_prefetch_size, 1),
])
def test_set_then_get(setter, getter, value):
    setter(value)
    assert getter() == value


@pytest.mark.parametrize("setter, bad, exc", [
    (ds.config.set_seed, -1, ValueError),
    (ds.config.set_seed, 4294967296, ValueError),
    (ds.config.set_seed, 1.5, TypeError),
    (ds.config.set_seed, True, TypeError),
    (ds.config.set_prefetch_size, -3, ValueError),
    (ds.config.set_prefetch_size, None, TypeError),
])
def test_invalid_values_are_rejected_and_not_stored(setter, bad, exc):
    before = dict(config._config)
    with pytest.raises(exc, match=f"For '{setter.__name__}'"):
        setter(bad)
    assert config._config == before


@pytest.mark.parametrize("bad, exc", [(0, ValueError), ("4", TypeError), (os.cpu_count() + 1, RuntimeError)])
def test_invalid_worker_counts_are_rejected_and_not_stored(bad, exc):
    """(2.10's messages: tests/errors/test_num_parallel_workers_2_10.py)"""
    before = dict(config._config)
    with pytest.raises(exc):
        ds.config.set_num_parallel_workers(bad)
    assert config._config == before


def test_set_seed_makes_python_and_numpy_random_reproducible():
    ds.config.set_seed(42)
    first = (random.random(), np.random.rand(3))
    ds.config.set_seed(42)
    second = (random.random(), np.random.rand(3))
    assert first[0] == second[0]
    np.testing.assert_array_equal(first[1], second[1])


def test_subpackage_comes_from_mindspore_data_and_core_keeps_init():
    data_dir = pathlib.Path(ds.__file__).resolve().parent
    assert data_dir.name == "dataset" and pathlib.Path(mindspore.__file__).name == "__init__.py"
    # mindspore/__init__.py is core's: mindspore-data ships only mindspore/dataset/
    shipped = [str(f) for f in (metadata.files("mindspore-data") or [])]
    assert not any(f.replace("\\", "/") == "mindspore/__init__.py" for f in shipped)
    own = ("mindspore/dataset/", "mindspore/mindrecord/")
    assert all(not f.startswith("mindspore/") or f.startswith(own) for f in shipped)


def test_plugin_is_discovered_and_offers_no_backend():
    rec = {r.name: r for r in manager.plugins()}["data"]
    assert rec.distribution == "mindspore-data"
    assert rec.status == "loaded", rec.error
    assert rec.probes == []


def test_plugin_reports_pipeline_settings():
    from mindspore.dataset import _plugin
    ds.config.set_num_parallel_workers(1)   # (at most the host's CPU count)
    info = _plugin.ms_environment_info()
    assert info["dataset_num_parallel_workers"] == "1"
    assert info["dataset_seed"] == str(ds.config.get_seed())
