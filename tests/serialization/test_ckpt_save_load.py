"""save_checkpoint / load_checkpoint behaviour: names, suffixes, permissions, atomicity, errors, filters."""
import os
import stat

import ml_dtypes
import numpy as np
import pytest

import mindspore as ms
from mindspore.train import async_ckpt_thread_status, load_checkpoint, save_checkpoint
from mindspore.train import serialization
from mindspore.train._checkpoint_pb2 import Checkpoint

from ser_helpers import SmallNet, fixture, fixture_bytes, net_values


def _values(path, **kw):
    return {k: (v if isinstance(v, str) else v.asnumpy()) for k, v in load_checkpoint(str(path), **kw).items()}


def test_every_numeric_dtype_scalars_and_str_round_trip(tmp_path):
    data = {
        "b": np.array([True, False]), "i8": np.array([-3, 4], np.int8), "u8": np.array([250], np.uint8),
        "i16": np.array([-300], np.int16), "u16": np.array([65000], np.uint16), "i32": np.arange(6, dtype=np.int32),
        "u32": np.array([4e9], np.uint32), "i64": np.array([-2 ** 40], np.int64), "u64": np.array([2 ** 63], np.uint64),
        "f16": np.array([1.5, -2], np.float16), "f32": np.linspace(0, 1, 7, dtype=np.float32).reshape(7, 1),
        "f64": np.array([np.pi]), "bf16": np.array([1.5, -3.25], ml_dtypes.bfloat16),
        "scalar": np.array(7.5, np.float32),
    }
    path = tmp_path / "all.ckpt"
    save_checkpoint([{"name": k, "data": ms.Tensor(v)} for k, v in data.items()], str(path),
                    append_dict={"text": "ünïcode ✓", "empty": "", "big": 2 ** 40, "flag": False, "lr": 0.1})
    got = load_checkpoint(str(path))
    for k, v in data.items():
        assert got[k].asnumpy().dtype == v.dtype and got[k].shape == v.shape, k
        assert got[k].asnumpy().tobytes() == v.tobytes(), k
    assert got["text"] == "ünïcode ✓" and got["empty"] == ""
    assert str(got["big"].dtype) == "Int64" and got["big"].shape == () and int(got["big"].asnumpy()) == 2 ** 40
    assert str(got["flag"].dtype) == "Bool" and not bool(got["flag"].asnumpy())
    assert str(got["lr"].dtype) == "Float32" and got["lr"].asnumpy() == np.float32(0.1)


def test_scalars_have_no_dims_and_zero_size_tensors_are_dropped(tmp_path):
    path = tmp_path / "s.ckpt"
    save_checkpoint({"s": ms.Parameter(ms.Tensor(np.array(2.0, np.float32)), name="s"),
                     "empty": ms.Parameter(ms.Tensor(np.zeros((0, 3), np.float32)), name="empty")}, str(path))
    ckpt = Checkpoint()
    ckpt.ParseFromString(path.read_bytes())
    assert [v.tag for v in ckpt.value] == ["s"]
    assert list(ckpt.value[0].tensor.dims) == []


def test_suffix_is_appended_like_mindspore(tmp_path):
    net = SmallNet()
    save_checkpoint(net, str(tmp_path / "model"))
    assert (tmp_path / "model.ckpt").is_file()
    save_checkpoint(net, str(tmp_path / "model"), format="safetensors")
    assert (tmp_path / "model.safetensors").is_file()
    save_checkpoint(net, str(tmp_path / "model_ckpt"))  # MindSpore checks endswith(format), without the dot
    assert (tmp_path / "model_ckpt").is_file()
    assert load_checkpoint(str(tmp_path / "model_ckpt"))


def test_file_is_read_only_and_can_be_saved_over(tmp_path):
    path = tmp_path / "net.ckpt"
    save_checkpoint(SmallNet(), str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == stat.S_IRUSR
    save_checkpoint(SmallNet(net_values()), str(path))
    assert path.read_bytes() == fixture_bytes("net.ckpt")
    assert sorted(os.listdir(tmp_path)) == ["net.ckpt"]  # no temporary file left behind


def test_interrupted_save_leaves_the_previous_checkpoint_intact(tmp_path, monkeypatch):
    path = tmp_path / "net.ckpt"
    save_checkpoint(SmallNet(net_values()), str(path))
    real = serialization._messages
    calls = []

    def failing(entry):
        for i, msg in enumerate(real(entry)):
            calls.append(entry.name)
            if len(calls) == 3:
                raise KeyboardInterrupt("power cut")
            yield msg

    monkeypatch.setattr(serialization, "_messages", failing)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(SmallNet(), str(path))
    assert path.read_bytes() == fixture_bytes("net.ckpt")
    assert os.listdir(tmp_path) == ["net.ckpt"]


def test_large_tensors_are_split_into_consecutive_values_and_rejoined(tmp_path, monkeypatch):
    monkeypatch.setattr(serialization, "SLICE_BYTES", 100)
    w = np.arange(3 * 7 * 5, dtype=np.float32).reshape(3, 7, 5)  # 420 bytes: 5 slices, the last one 20 bytes
    path = tmp_path / "split.ckpt"
    save_checkpoint([{"name": "w", "data": ms.Tensor(w)}, {"name": "b", "data": ms.Tensor(np.ones(30, np.int8))}],
                    str(path))
    ckpt = Checkpoint()
    ckpt.ParseFromString(path.read_bytes())
    assert [v.tag for v in ckpt.value] == ["w"] * 5 + ["b"]
    assert [len(v.tensor.tensor_content) for v in ckpt.value] == [100, 100, 100, 100, 20, 30]
    assert all(list(v.tensor.dims) == [3, 7, 5] for v in ckpt.value[:5])
    got = _values(path)
    np.testing.assert_array_equal(got["w"], w)


def test_async_saves_split_by_rows_and_keep_zero_size_tensors_like_mindspore(tmp_path, monkeypatch):
    monkeypatch.setattr(serialization, "SLICE_BYTES", 100)
    w = np.arange(3 * 7 * 5, dtype=np.float32).reshape(3, 7, 5)
    path = tmp_path / "async_split.ckpt"
    save_checkpoint([{"name": "w", "data": ms.Tensor(w)}, {"name": "e", "data": ms.Tensor(np.zeros((0, 2)))}],
                    str(path), async_save="thread")
    serialization._wait_async()
    ckpt = Checkpoint()
    ckpt.ParseFromString(path.read_bytes())
    # MindSpore's NumPy path: np.array_split(w, ceil(420 / 100) = 5) along axis 0 gives rows 1, 1, 1, 0, 0
    assert [v.tag for v in ckpt.value] == ["w"] * 5 + ["e"]
    assert [len(v.tensor.tensor_content) for v in ckpt.value] == [140, 140, 140, 0, 0, 0]
    got = load_checkpoint(str(path))
    np.testing.assert_array_equal(got["w"].asnumpy(), w)
    assert got["e"].shape == (0, 2)


def test_save_obj_forms_and_choice_func(tmp_path):
    net = SmallNet(net_values())
    save_checkpoint(net.trainable_params(), str(tmp_path / "list.ckpt"))
    assert list(load_checkpoint(str(tmp_path / "list.ckpt"))) == [
        "conv.weight", "conv.bias", "bn.gamma", "bn.beta", "fc.weight", "fc.bias"]
    save_checkpoint(net, str(tmp_path / "conv.ckpt"), choice_func=lambda n: n.startswith("conv"))
    assert list(load_checkpoint(str(tmp_path / "conv.ckpt"))) == ["conv.weight", "conv.bias"]
    save_checkpoint({"a": np.arange(3, dtype=np.int16), "t": ms.Tensor([1.0, 2.0]), "s": "x"},
                    str(tmp_path / "dict.ckpt"))
    got = _values(tmp_path / "dict.ckpt")
    assert got["a"].dtype == np.int16 and got["s"] == "x" and got["t"].tolist() == [1.0, 2.0]


def test_load_filters(tmp_path):
    path = fixture("net_append.ckpt")
    assert list(load_checkpoint(str(path), specify_prefix="bn")) == [
        "bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]
    assert "conv.weight" not in load_checkpoint(str(path), filter_prefix=["conv", "fc"])
    assert list(load_checkpoint(str(path), choice_func=lambda n: n in ("lr", "note"))) == ["lr", "note"]
    with pytest.raises(ValueError, match="empty"):
        load_checkpoint(str(path), specify_prefix="nothing")
    with pytest.raises(TypeError):
        load_checkpoint(str(path), specify_prefix=3)


def test_async_save(tmp_path):
    net = SmallNet(net_values())
    path = tmp_path / "async.ckpt"
    save_checkpoint(net, str(path), async_save=True)
    for p in net.get_parameters():  # the save works on a snapshot: later updates do not leak in
        p.set_data(ms.Tensor(np.zeros(p.shape, np.float32)))
    serialization._wait_async()
    assert not async_ckpt_thread_status()
    assert path.read_bytes() == fixture_bytes("net.ckpt")


def test_two_parameters_with_one_name_is_an_error(tmp_path):
    class Clash(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(ms.Tensor([1.0]), name="w")
            self.b = ms.Parameter(ms.Tensor([2.0]), name="w")

    with pytest.raises(ValueError, match="'w' is used by two different Parameters"):
        save_checkpoint(Clash(), str(tmp_path / "clash.ckpt"))
    assert not list(tmp_path.iterdir())


def test_append_dict_key_named_like_a_parameter_replaces_it_in_place(tmp_path):
    """As MindSpore 2.10: the appended value takes the parameter's entry, at its position (the fault-recovery
    tutorial appends {"momentum": 0.9} beside Momentum's own 'momentum')."""
    net = ms.nn.Dense(2, 3)
    save_checkpoint(net, str(tmp_path / "x.ckpt"), append_dict={"weight": 1, "epoch": 2})
    loaded = load_checkpoint(str(tmp_path / "x.ckpt"))
    assert list(loaded) == ["weight", "bias", "epoch"]
    assert loaded["weight"].shape == () and str(loaded["weight"].dtype) == "Int64" and int(loaded["weight"]) == 1


@pytest.mark.parametrize("bad_value", [[1, 2], None, {"a": 1}])
def test_append_dict_rejects_other_types(tmp_path, bad_value):
    with pytest.raises(TypeError, match="append_info"):
        save_checkpoint(SmallNet(), str(tmp_path / "x.ckpt"), append_dict={"k": bad_value})


def test_bad_arguments(tmp_path):
    with pytest.raises(TypeError, match="save_obj"):
        save_checkpoint(ms.Tensor([1.0]), str(tmp_path / "x.ckpt"))
    with pytest.raises(ValueError, match="format"):
        save_checkpoint(SmallNet(), str(tmp_path / "x.ckpt"), format="pt")
    with pytest.raises(TypeError, match="crc_check"):
        save_checkpoint(SmallNet(), str(tmp_path / "x.ckpt"), crc_check=1)
    with pytest.raises(ValueError, match="async_save"):
        save_checkpoint(SmallNet(), str(tmp_path / "x.ckpt"), async_save="fork")
    with pytest.raises(IsADirectoryError):
        save_checkpoint(SmallNet(), str(tmp_path))
    with pytest.raises(ValueError, match="enc_key"):
        save_checkpoint(SmallNet(), str(tmp_path / "x.safetensors"), format="safetensors", enc_key=b"k" * 16)
    with pytest.raises(TypeError):
        save_checkpoint([{"name": "a", "data": np.ones(2)}], str(tmp_path / "x.ckpt"))


# ------------------------------------------------------------------------------------------------------------
# damaged files
# ------------------------------------------------------------------------------------------------------------
def _write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


@pytest.mark.parametrize("cut", [1, 17, 300, 5000, 11041])
def test_truncated_checkpoint_gives_a_clear_value_error(tmp_path, cut):
    data = fixture_bytes("net.ckpt")[:cut]
    with pytest.raises(ValueError, match="Failed to read the checkpoint file .*(truncated|corrupted)"):
        load_checkpoint(_write(tmp_path, "t.ckpt", data))


def test_truncated_crc_checkpoint_is_rejected(tmp_path):
    data = fixture_bytes("net_crc.ckpt")
    with pytest.raises(ValueError, match="Failed to read the checkpoint file"):
        load_checkpoint(_write(tmp_path, "t.ckpt", data[:-5]), crc_check=True)


def test_garbage_and_empty_files_give_clear_value_errors(tmp_path):
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="Failed to read the checkpoint file"):
        load_checkpoint(_write(tmp_path, "g.ckpt", rng.bytes(4096)))
    with pytest.raises(ValueError, match="empty"):
        load_checkpoint(_write(tmp_path, "e.ckpt", b""))
    with pytest.raises(ValueError, match="Failed to read the checkpoint file"):
        load_checkpoint(_write(tmp_path, "p.ckpt", b"\x80\x04\x95" + b"pickle" * 20))  # a pickle is not parsed


def test_corrupted_entries_are_reported(tmp_path):
    data = fixture_bytes("net.ckpt")
    bad_type = data.replace(b"Float32", b"Floaty2", 1)
    with pytest.raises(ValueError, match="tensor_type 'Floaty2'"):
        load_checkpoint(_write(tmp_path, "type.ckpt", bad_type))
    # the dims of conv.weight claim 5 output channels: the byte count no longer matches
    bad_dims = data.replace(b"\x08\x04\x08\x03\x08\x03\x08\x03", b"\x08\x05\x08\x03\x08\x03\x08\x03", 1)
    with pytest.raises(ValueError, match="conv.weight.*432 data bytes"):
        load_checkpoint(_write(tmp_path, "dims.ckpt", bad_dims))


def test_wrong_suffix_and_missing_file(tmp_path):
    with pytest.raises(ValueError, match="should end with '.ckpt'"):
        load_checkpoint(str(fixture("net.safetensors")))
    with pytest.raises(ValueError, match="should end with '.safetensors'"):
        load_checkpoint(str(fixture("net.ckpt")), format="safetensors")
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="format"):
        load_checkpoint(str(fixture("net.ckpt")), format="pth")


def test_encrypted_file_without_key_is_rejected(tmp_path):
    path = tmp_path / "enc.ckpt"
    save_checkpoint(SmallNet(), str(path), enc_key=b"0123456789abcdef")
    with pytest.raises(ValueError, match="encrypted"):
        load_checkpoint(str(path))


def _one_entry(tag, tensor_type, dims, content):
    msg = Checkpoint()
    value = msg.value.add()
    value.tag = tag
    value.tensor.tensor_type = tensor_type
    value.tensor.dims.extend(dims)
    value.tensor.tensor_content = content
    return msg.SerializeToString()


# Found by tests/fuzz: each once escaped as SystemError, or as a ValueError from NumPy or from Parameter that did
# not name the file.
@pytest.mark.parametrize("data, match", [
    (_one_entry("w", "Float32", [1] * 65, b"\x00" * 4), "the entry 'w' has 65 dims, more than the 64"),
    (_one_entry("w", "Float32", [0, 2 ** 62], b""), "the entry 'w' has dims \\[0, 4611686018427387904\\]"),
    (_one_entry("s", "str", [0], b"\xff\xff\xff\xff"), "the str entry 's' is not valid UTF-32"),
    (_one_entry("s", "str", [0], b"\x00\x00\x11\x00"), "the str entry 's' is not valid UTF-32"),
    (_one_entry("w", "Float32", [1], b"\x00" * 4).replace(b"\n\x01w", b"\n\x01\xff"),
     "the name of entry 0 .* is not valid UTF-8"),
])
def test_hostile_entries_are_reported_with_the_file(tmp_path, data, match):
    path = _write(tmp_path, "hostile.ckpt", data)
    with pytest.raises(ValueError, match=f"Failed to read the checkpoint file .*hostile.ckpt: {match}"):
        load_checkpoint(path)


def test_str_entries_keep_interior_nuls_and_drop_trailing_ones(tmp_path):
    text = "a\x00b\U0001F600\ud800"  # a lone surrogate loads, as NumPy's "<U" decoding lets it through
    content = (text + "\x00\x00").encode("utf-32-le", "surrogatepass")
    path = _write(tmp_path, "s.ckpt", _one_entry("s", "str", [0], content))
    assert load_checkpoint(path)["s"] == text


def test_map_parameter_entries_load_as_three_arrays(tmp_path):
    def part(keys, values):
        msg = Checkpoint()
        v = msg.value.add()
        v.tag = "emb"
        for arr in (keys, values, np.zeros(len(keys), np.int32)):
            t = v.maptensor.tensor.add()
            t.dims.extend(arr.shape)
            t.tensor_type = str(arr.dtype)
            t.tensor_content = arr.tobytes()
        return msg.SerializeToString()

    path = tmp_path / "map.ckpt"
    path.write_bytes(part(np.array([1, 2], np.int32), np.ones((2, 3), np.float32))
                     + part(np.array([7], np.int32), np.full((1, 3), 2, np.float32)))
    got = load_checkpoint(str(path))["emb"]
    assert isinstance(got, list) and len(got) == 3
    np.testing.assert_array_equal(got[0], [1, 2, 7])
    np.testing.assert_array_equal(got[1], [[1, 1, 1], [1, 1, 1], [2, 2, 2]])


def test_load_checkpoint_async():
    future = serialization.load_checkpoint_async(str(fixture("net.ckpt")))
    np.testing.assert_array_equal(future.result()["fc.bias"].asnumpy(), net_values()["fc.bias"])
