"""``mindspore_gpu.plans``: serialized cuDNN plans, one file per (environment, case) in the GPU cache folder (no CuPy
needed). How the cuDNN paths use it is tested in ``test_gpu_cudnn.py`` and ``test_gpu_cudnn_attention_sim.py`` (the
next process loads instead of building)."""
import json
import os
import types

import pytest

from mindspore_gpu import plans, verdicts


@pytest.fixture
def store(monkeypatch, tmp_path):
    monkeypatch.setenv(verdicts.CACHE_DIR_ENV, str(tmp_path))
    monkeypatch.delenv(plans.ENV, raising=False)
    return plans.Plans()


def test_stored_bytes_come_back_for_their_environment_and_key_only(store, tmp_path):
    payload = bytes(range(256)) + b"\n\x00 after a newline"
    store.store("env A", "case 1", payload)
    (file,) = (tmp_path / plans.FOLDER).iterdir()
    assert file.suffix == ".plan"
    assert json.loads(file.read_bytes().partition(b"\n")[0]) == {"environment": "env A", "key": "case 1",
                                                                 "version": plans.VERSION}
    assert plans.Plans().load("env A", "case 1") == payload          # (another process)
    assert store.load("env B", "case 1") is None and store.load("env A", "case 2") is None
    assert store.stats == {"stored": 1}


def test_a_file_whose_header_does_not_match_is_a_miss(store, tmp_path, monkeypatch):
    store.store("env", "case", b"plan")
    (file,) = (tmp_path / plans.FOLDER).iterdir()
    head, _, body = file.read_bytes().partition(b"\n")
    for text in (head.replace(b'"case"', b'"other"') + b"\n" + body,       # a hash collision
                 head.replace(b'"version": 1', b'"version": 99') + b"\n" + body,
                 b"not json\n" + body, head, head + b"\n", b""):
        file.write_bytes(text)
        assert store.load("env", "case") is None
    # another version of the format names other files: what version 1 wrote is not even looked at
    store.store("env", "case", b"plan")
    monkeypatch.setattr(plans, "VERSION", 2)
    assert store.load("env", "case") is None


def test_the_least_recently_used_go_past_the_limit(store, tmp_path, monkeypatch):
    monkeypatch.setattr(plans, "LIMIT", 3)
    for i in range(3):
        store.store("env", f"case {i}", b"plan %d" % i)
        os.utime(store._file("env", f"case {i}"), (1000 + i, 1000 + i))
    assert store.load("env", "case 0") == b"plan 0"      # used: now the most recent
    store.store("env", "case 3", b"plan 3")
    assert [store.load("env", f"case {i}") is not None for i in range(4)] == [True, False, True, True]


def test_the_least_recently_used_go_past_the_byte_limit(store, monkeypatch):
    monkeypatch.setattr(plans, "LIMIT_BYTES", 3000)
    for i in range(3):
        store.store("env", f"case {i}", bytes(900))
        os.utime(store._file("env", f"case {i}"), (1000 + i, 1000 + i))
    store.store("env", "big", bytes(1500))             # over by one file and more: the two oldest go
    assert [store.load("env", f"case {i}") is not None for i in range(3)] == [False, False, True]
    assert store.load("env", "big") == bytes(1500)


def test_discard_removes_the_file(store, tmp_path):
    store.store("env", "case", b"plan")
    store.discard("env", "case")
    store.discard("env", "case")                          # (already gone: nothing raises)
    assert store.load("env", "case") is None and store.stats == {"stored": 1, "discarded": 1}


def test_turned_off_or_unwritable(store, tmp_path, monkeypatch):
    monkeypatch.setenv(plans.ENV, "0")
    store.reset()
    store.store("env", "case", b"plan")
    assert store.folder is None and not (tmp_path / plans.FOLDER).exists()
    monkeypatch.delenv(plans.ENV)
    (tmp_path / plans.FOLDER).write_text("")              # a file where the folder belongs
    store.reset()
    store.store("env", "case", b"plan")                   # nothing raises; plans are no longer kept
    assert store.folder is None and store.load("env", "case") is None


class _Graph:
    """A frontend graph: ``serialize`` gives a list of byte values, ``deserialize`` takes one (not ``bytes``)."""

    def __init__(self, payload=None, fail=None):
        self.payload, self.fail, self.handle = payload, fail, None

    def serialize(self):
        if self.fail == "serialize":
            raise RuntimeError("CUDNN_STATUS_NOT_SUPPORTED")
        return list(self.payload)

    def deserialize(self, pyobj):
        assert isinstance(pyobj, list)
        if self.fail == "deserialize":
            raise RuntimeError("deserialization failed")
        self.payload = bytes(pyobj)

    def get_workspace_size(self):
        return 64


def test_keep_and_restore_through_the_frontend(store):
    made = []

    def pygraph(handle=None, fail=None):
        graph = _Graph(fail=fail)
        graph.handle = handle
        made.append(graph)
        return graph
    module = types.SimpleNamespace(pygraph=pygraph)
    store.keep("env", "case", _Graph(b"serialized plan"))
    graph, workspace = store.restore("env", "case", module, 0x5001)
    assert graph.payload == b"serialized plan" and graph.handle == 0x5001 and workspace == 64
    assert store.restore("env", "other", module, 0x5001) is None
    store.keep("env", "unserializable", _Graph(fail="serialize"))
    assert store.load("env", "unserializable") is None
    module.pygraph = lambda handle=None: _Graph(fail="deserialize")
    assert store.restore("env", "case", module, 0x5001) is None and store.load("env", "case") is None   # discarded
    assert store.stats == {"stored": 1, "loaded": 1, "not serializable": 1, "discarded": 1}
