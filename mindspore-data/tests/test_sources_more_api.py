"""DSCallback / WaitedDSCallback (events compared with those real MindSpore calls, recorded in
``fixtures/data/callbacks.json`` by ``fixtures/data/make_callbacks.py``) and DatasetCache."""
import json
import os
import socket
import threading
from pathlib import Path

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import DSCallback

RECORDED = json.loads((Path(__file__).resolve().parent / "fixtures" / "data" / "callbacks.json").read_text())


class Recorder(DSCallback):
    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.events = []
        self._lock = threading.Lock()

    def _add(self, name, ctx):
        with self._lock:
            self.events.append([name, ctx.cur_epoch_num, ctx.cur_step_num, ctx.cur_step_num_in_epoch])

    def ds_begin(self, ds_run_context):
        self._add("ds_begin", ds_run_context)

    def ds_epoch_begin(self, ds_run_context):
        self._add("ds_epoch_begin", ds_run_context)

    def ds_epoch_end(self, ds_run_context):
        self._add("ds_epoch_end", ds_run_context)

    def ds_step_begin(self, ds_run_context):
        self._add("ds_step_begin", ds_run_context)

    def ds_step_end(self, ds_run_context):
        self._add("ds_step_end", ds_run_context)


def _run(rows, step_size, epochs, batch=None, workers=None):
    recorder = Recorder(step_size)
    data = ds.NumpySlicesDataset({"x": list(range(rows))}, shuffle=False).map(
        lambda x: x, callbacks=[recorder], num_parallel_workers=workers)
    if batch:
        data = data.batch(batch)
    iterator = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    for _ in range(epochs):
        for _ in iterator:
            pass
    return recorder.events


def _by_kind(events):
    """Events of each kind in call order (steps may interleave differently across threads)."""
    kinds = {}
    for event in events:
        kinds.setdefault(event[0], []).append(event)
    return kinds


@pytest.mark.parametrize("key", sorted(RECORDED))
@pytest.mark.parametrize("workers", [1, min(3, os.cpu_count())])
def test_callback_events_match_mindspore(key, workers):
    params = dict(item.split("=") for item in key.split(","))
    events = _run(int(params["rows"]), int(params["step_size"]), int(params["epochs"]),
                  int(params["batch"]) if "batch" in params else None, workers)
    expected = RECORDED[key]
    assert _by_kind(events) == _by_kind(expected)
    # epoch boundaries in the same places: everything of epoch e between its begin and end
    for epoch in range(1, int(params["epochs"]) + 1):
        begin = events.index([e for e in events if e[0] == "ds_epoch_begin" and e[1] == epoch][0])
        end = events.index([e for e in events if e[0] == "ds_epoch_end" and e[1] == epoch][0])
        steps = [k for k, e in enumerate(events) if e[0].startswith("ds_step") and e[1] == epoch]
        assert all(begin < k < end for k in steps)
    # a step ends after it begins
    for event in events:
        if event[0] == "ds_step_end":
            assert events.index(["ds_step_begin", *event[1:]]) < events.index(event)


def test_callback_only_overridden_hooks_and_validation():
    class EpochsOnly(DSCallback):
        def __init__(self):
            super().__init__()
            self.ends = []

        def ds_epoch_end(self, ds_run_context):
            self.ends.append(ds_run_context.cur_step_num)

    cb = EpochsOnly()
    assert set(cb.create_runtime_obj()) == {"ds_epoch_end"}
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(lambda x: x * 2, callbacks=cb)
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [2, 4, 6]
    assert cb.ends == [3]
    with pytest.raises(TypeError, match="callbacks"):
        ds.NumpySlicesDataset([1], shuffle=False).map(lambda x: x, callbacks=[object()])
    with pytest.raises(ValueError, match="step_size"):
        DSCallback(step_size=0)
    with pytest.raises(TypeError, match="step_size"):
        DSCallback(step_size=1.5)


def test_waited_callback_waits_for_training_events():
    synced = []

    class Sync(ds.WaitedDSCallback):
        def sync_epoch_begin(self, train_run_context, ds_run_context):
            synced.append(("epoch", train_run_context, ds_run_context.cur_epoch_num))

        def sync_step_begin(self, train_run_context, ds_run_context):
            synced.append(("step", train_run_context, ds_run_context.cur_step_num))

    from mindspore.train import Callback
    cb = Sync()
    assert isinstance(cb, Callback) and isinstance(cb, DSCallback)
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(lambda x: x, callbacks=cb, num_parallel_workers=1)
    iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    got = []
    done = threading.Event()

    def consume():
        for _ in range(2):
            for row in iterator:
                got.append(int(row[0]))
        done.set()

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()

    def wait_for(count):
        for _ in range(500):
            if len(synced) >= count:
                return
            done.wait(0.01)
        raise AssertionError(f"the pipeline did not sync {count} times: {synced}")

    # step 2 cannot begin before training reports the end of step 1
    assert not done.wait(0.3)
    assert synced == []
    cb.step_end("train-step-1")
    wait_for(1)
    cb.step_end("train-step-2")
    wait_for(2)
    assert not done.is_set()
    cb.step_end("train-step-3")
    cb.epoch_end("train-epoch-1")
    wait_for(4)
    cb.step_end("train-step-4")
    wait_for(5)
    cb.step_end("train-step-5")
    assert done.wait(10)
    thread.join(10)
    assert got == [1, 2, 3, 1, 2, 3]
    assert synced == [("step", "train-step-1", 2), ("step", "train-step-2", 3), ("epoch", "train-epoch-1", 2),
                      ("step", "train-step-3", 4), ("step", "train-step-4", 5), ("step", "train-step-5", 6)]


def test_waited_callback_end_releases_pipeline():
    cb = ds.WaitedDSCallback()
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(lambda x: x, callbacks=cb, num_parallel_workers=1)
    cb.end(None)
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True, num_epochs=1)] == [1, 2, 3]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_dataset_cache_arguments_and_errors(tmp_path):
    cache = ds.DatasetCache(session_id=1, size=0)
    assert (cache.session_id, cache.size, cache.spilling) == (1, 0, False)
    with pytest.raises(ValueError, match=r"session_id is not within the required interval of \[1, 4294967295\]"):
        ds.DatasetCache(session_id=0)
    with pytest.raises(ValueError, match=r"port is not within the required interval of \[1025, 65535\]"):
        ds.DatasetCache(session_id=1, port=80)
    with pytest.raises(ValueError, match="size must be greater than 0"):
        ds.DatasetCache(session_id=1, size=-1)
    with pytest.raises(TypeError, match="session_id"):
        ds.DatasetCache(session_id="a")
    port = _free_port()
    unreachable = ds.DatasetCache(session_id=1, port=port)
    (tmp_path / "a.txt").write_text("x\ny\n")
    data = ds.TextFileDataset(str(tmp_path / "a.txt"), shuffle=False, cache=unreachable)
    with pytest.raises(RuntimeError, match=f"Cache server with port {port} is unreachable"):
        list(data.create_tuple_iterator(output_numpy=True))
    with pytest.raises(RuntimeError, match="unreachable"):
        unreachable.get_stat()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        listening = ds.DatasetCache(session_id=1, port=server.getsockname()[1])
        data = ds.NumpySlicesDataset(np.arange(3), shuffle=False).map(lambda x: x, cache=listening)
        with pytest.raises(RuntimeError, match="no client for MindSpore's dataset cache protocol"):
            list(data.create_tuple_iterator(output_numpy=True))


# ---------------------------------------------------------------------------------------------------------------
# serialize / deserialize / show / compare


def _rows(data):
    return [[np.asarray(v).tolist() for v in row] for row in data.create_tuple_iterator(output_numpy=True,
                                                                                         num_epochs=1)]


def test_serialize_round_trip(tmp_path):
    from mindspore.dataset import vision
    ds.config.set_seed(5)
    data = ds.NumpySlicesDataset({"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": [1, 2, 3, 4, 5, 6]},
                                 shuffle=False)
    data = data.map(vision.Rescale(2.0, 1.0), input_columns=["x"]).rename(["y"], ["z"]).project(["z", "x"])
    data = data.skip(1).take(4).repeat(2).batch(3, drop_remainder=False)
    tree = ds.serialize(data)
    assert tree["op_type"] == "Batch" and tree["children"][0]["op_type"] == "Repeat"
    path = tmp_path / "pipeline.json"
    ds.serialize(data, str(path))
    assert json.loads(path.read_text()) == tree
    for copy in (ds.deserialize(input_dict=json.loads(json.dumps(tree))), ds.deserialize(json_filepath=str(path))):
        assert ds.compare(data, copy)
        assert _rows(copy) == _rows(data)
    assert data.to_json() == tree


def test_serialize_sources_and_zip(tmp_path):
    (tmp_path / "a.txt").write_text("x\ny\n")
    text_data = ds.TextFileDataset(str(tmp_path / "a.txt"), shuffle=False)
    numbers = ds.NumpySlicesDataset({"n": [1, 2]}, shuffle=False)
    data = ds.zip((text_data, numbers))
    copy = ds.deserialize(input_dict=ds.serialize(data))
    assert _rows(copy) == [["x", 1], ["y", 2]]
    assert ds.compare(data, copy)
    assert not ds.compare(data, ds.zip((ds.TextFileDataset(str(tmp_path / "a.txt"), shuffle=True), numbers)))


def test_serialize_python_function_cannot_come_back(capsys):
    data = ds.NumpySlicesDataset([1, 2], shuffle=False).map(lambda x: x + 1)
    tree = ds.serialize(data)
    assert tree["operations"] == {"tensor_op_name": "<lambda>", "python_module": __name__}
    with pytest.raises(RuntimeError, match="tensor_op_params"):
        ds.deserialize(input_dict=tree)
    ds.show(data, indentation=None)
    assert json.loads(capsys.readouterr().out) == tree
    with pytest.raises(ValueError):
        ds.deserialize()
    with pytest.raises(TypeError):
        ds.serialize("not a dataset")
    with pytest.raises(RuntimeError, match="unknown op_type"):
        ds.deserialize(input_dict={"op_type": "NoSuchDataset", "children": []})


# ---------------------------------------------------------------------------------------------------------------
# FakeImageDataset / RandomDataset (random values: MindSpore's generator differs, so shapes, types, counts and
# reproducibility are checked; columns and types as real MindSpore yields them)


def test_fake_image_dataset():
    data = ds.FakeImageDataset(num_images=5, image_size=(4, 5, 3), num_classes=3, base_seed=2, shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    rows = list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert len(rows) == data.get_dataset_size() == 5
    assert all(r[0].dtype == np.uint8 and r[0].shape == (4, 5, 3) for r in rows)
    assert all(r[1].dtype == np.uint32 and r[1].shape == () and 0 <= int(r[1]) < 3 for r in rows)
    again = list(ds.FakeImageDataset(num_images=5, image_size=(4, 5, 3), num_classes=3, base_seed=2,
                                     shuffle=False).create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(rows, again))
    other = next(ds.FakeImageDataset(num_images=5, image_size=(4, 5, 3), base_seed=3, shuffle=False)
                 .create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert not np.array_equal(other[0], rows[0][0])
    assert ds.FakeImageDataset(num_images=10, num_shards=2, shard_id=1).get_dataset_size() == 5
    with pytest.raises(ValueError):
        ds.FakeImageDataset(num_images=0)


def test_random_dataset():
    from mindspore import dtype as mstype
    schema = ds.Schema()
    schema.add_column("image", de_type=mstype.uint8, shape=[2])
    schema.add_column("f", de_type=mstype.float32, shape=[2, 3])
    data = ds.RandomDataset(schema=schema, total_rows=4)
    assert data.get_col_names() == ["image", "f"]
    rows = list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert len(rows) == 4
    assert all(r[0].dtype == np.uint8 and r[0].shape == (2,) for r in rows)
    assert all(r[1].dtype == np.float32 and r[1].shape == (2, 3) for r in rows)
    assert ds.RandomDataset(schema=schema, total_rows=4, columns_list=["f"]).get_col_names() == ["f"]
    free = ds.RandomDataset(total_rows=3)
    assert free.get_dataset_size() == 3 and len(free.get_col_names()) >= 1
    with pytest.raises(ValueError):
        ds.RandomDataset(schema=schema, columns_list=["nope"])
