"""mindspore.dataset.config beyond seed/workers/prefetch, and the random generator of transforms."""
import json

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


@pytest.mark.parametrize("setter, getter, value", [
    (ds.config.set_enable_shared_mem, ds.config.get_enable_shared_mem, False),
    (ds.config.set_numa_enable, ds.config.get_numa_enable, True),
    (ds.config.set_monitor_sampling_interval, ds.config.get_monitor_sampling_interval, 50),
    (ds.config.set_callback_timeout, ds.config.get_callback_timeout, 9),
    (ds.config.set_auto_num_workers, ds.config.get_auto_num_workers, True),
    (ds.config.set_enable_autotune, ds.config.get_enable_autotune, True),
    (ds.config.set_autotune_interval, ds.config.get_autotune_interval, 3),
    (ds.config.set_auto_offload, ds.config.get_auto_offload, True),
    (ds.config.set_enable_watchdog, ds.config.get_enable_watchdog, False),
    (ds.config.set_multiprocessing_timeout_interval, ds.config.get_multiprocessing_timeout_interval, 7),
    (ds.config.set_debug_mode, ds.config.get_debug_mode, True),
    (ds.config.set_error_samples_mode, ds.config.get_error_samples_mode, ds.config.ErrorSamplesMode.SKIP),
])
def test_setters_and_getters(setter, getter, value):
    setter(value)
    assert getter() == value


@pytest.mark.parametrize("setter, bad, exc", [
    (ds.config.set_enable_shared_mem, 1, TypeError),
    (ds.config.set_numa_enable, "yes", TypeError),
    (ds.config.set_callback_timeout, 0, ValueError),
    (ds.config.set_multiprocessing_timeout_interval, 1.5, TypeError),
    (ds.config.set_error_samples_mode, "drop", ValueError),
])
def test_invalid_values(setter, bad, exc):
    with pytest.raises(exc):
        setter(bad)


def test_autotune_and_offload_setters_say_what_mindspore_says():
    with pytest.raises(TypeError, match="^enable must be of type bool.$"):
        ds.config.set_enable_autotune(1)
    with pytest.raises(TypeError, match="^json_filepath must be a str value but was: 123.$"):
        ds.config.set_enable_autotune(True, 123)
    with pytest.raises(RuntimeError, match="cannot be the empty string"):
        ds.config.set_enable_autotune(True, "")
    with pytest.raises(TypeError, match="^interval must be of type int.$"):
        ds.config.set_autotune_interval(1.5)
    with pytest.raises(ValueError, match=r"^Interval given is not within the required range \[0, "
                                         r"INT32_MAX\(2147483647\)\].$"):
        ds.config.set_autotune_interval(-1)
    with pytest.raises(TypeError, match="^offload must be a bool dtype$"):
        ds.config.set_auto_offload(1)


def test_autotune_saves_the_pipeline_and_deserialize_rebuilds_it(tmp_path):
    """The dataset AutoTune page: with a file prefix, the run saves ``<prefix>_0.json`` (remark, summary, tree);
    ``ds.deserialize(json_filepath=...)`` gives the same pipeline."""
    prefix = str(tmp_path / "autotune_out")
    ds.config.set_enable_autotune(True, prefix)
    data = ds.NumpySlicesDataset({"x": np.arange(12, dtype=np.int32)}, shuffle=False).batch(4)
    rows = [r["x"].tolist() for r in data.create_dict_iterator(num_epochs=1, output_numpy=True)]
    ds.config.set_enable_autotune(False)
    saved = json.loads((tmp_path / "autotune_out_0.json").read_text())
    assert sorted(saved) == ["remark", "summary", "tree"] and saved["tree"]["op_type"] == "Batch"
    assert [line.split("(")[0] for line in saved["summary"]] == ["NumpySlicesOp", "BatchOp"]
    again = ds.deserialize(json_filepath=str(tmp_path / "autotune_out_0.json"))
    assert [r["x"].tolist() for r in again.create_dict_iterator(num_epochs=1, output_numpy=True)] == rows
    assert not (tmp_path / "autotune_out_1.json").exists()


def test_load_reads_mindspores_keys(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"seed": 77, "numParallelWorkers": 1, "prefetchSize": 5}))   # (<= the CPU count)
    ds.config.load(str(path))
    assert (ds.config.get_seed(), ds.config.get_num_parallel_workers(), ds.config.get_prefetch_size()) == (77, 1, 5)
    with pytest.raises(RuntimeError, match="cannot be read"):
        ds.config.load(str(tmp_path / "missing.json"))


def test_transform_rng_outside_a_pipeline_follows_set_seed():
    ds.config.set_seed(12)
    first = config._transform_rng().random(4)
    ds.config.set_seed(12)
    np.testing.assert_array_equal(config._transform_rng().random(4), first)


def test_transform_rng_inside_a_row_context_depends_only_on_the_row():
    config._set_row_context((1, 2, 0, 5))
    try:
        a = config._transform_rng().random(3)
        b = config._transform_rng().random(3)       # the same generator goes on within a row
        config._set_row_context((1, 2, 0, 5))
        again = config._transform_rng().random(3)
        config._set_row_context((1, 2, 0, 6))
        other = config._transform_rng().random(3)
    finally:
        config._clear_row_context()
    np.testing.assert_array_equal(a, again)
    assert not np.array_equal(a, b) and not np.array_equal(a, other)


def test_stopped_iterator_raises_and_exhausted_one_stops():
    data = ds.NumpySlicesDataset([1, 2], shuffle=False)
    iterator = data.create_tuple_iterator(output_numpy=True)
    next(iterator)
    iterator.stop()
    with pytest.raises(RuntimeError, match="stopped"):
        next(iterator)
    done = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    assert len(list(done)) == 2 and list(done) == []
