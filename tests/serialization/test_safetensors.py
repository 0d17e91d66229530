"""safetensors: our writer/reader against the format and the `safetensors` package, CRC, converters."""
import io
import json
import struct

import ml_dtypes
import numpy as np
import pytest

import mindspore as ms
from mindspore.train import ckpt_to_safetensors, load_checkpoint, safetensors_to_ckpt, save_checkpoint
from mindspore.train import _safetensors_format

from ser_helpers import SmallNet, fixture, fixture_bytes, net_values


def _header(data):
    (n,) = struct.unpack_from("<Q", data, 0)
    assert n % 8 == 0
    return json.loads(data[8:8 + n])


def _mixed():
    return {"z_f32": np.arange(6, dtype=np.float32).reshape(2, 3), "a_i8": np.array([-1, 2, 3], np.int8),
            "m_f64": np.array([np.e]), "b_bool": np.array([True, False, True]), "s_i64": np.array(5, np.int64),
            "u16": np.array([1, 65535], np.uint16), "h_f16": np.array([0.5], np.float16),
            "c_i32": np.array([[1, -2]], np.int32), "u64": np.array([2 ** 64 - 1], np.uint64)}


def test_layout_orders_by_dtype_then_name_and_pads_header(tmp_path):
    data = dict(_mixed(), bf=np.array([1.0, 2.0], ml_dtypes.bfloat16))
    path = tmp_path / "mixed.safetensors"
    save_checkpoint({k: ms.Tensor(v) for k, v in data.items()}, str(path), format="safetensors")
    raw = path.read_bytes()
    header = _header(raw)
    assert list(header) == ["__metadata__", "u64", "s_i64", "m_f64", "z_f32", "c_i32", "bf", "h_f16", "u16", "a_i8",
                            "b_bool"]
    assert header["__metadata__"] == {"format": "ms"}
    assert header["s_i64"]["shape"] == [] and header["bf"]["dtype"] == "BF16"
    loaded = load_checkpoint(str(path), format="safetensors")
    assert list(loaded) == sorted(data)
    for k, v in data.items():
        assert loaded[k].asnumpy().dtype == v.dtype and loaded[k].asnumpy().tobytes() == v.tobytes()


def test_bytes_match_the_safetensors_package():
    st_numpy = pytest.importorskip("safetensors.numpy")
    data = _mixed()
    ours = io.BytesIO()
    _safetensors_format.write(ours, data, {"format": "ms"})
    assert ours.getvalue() == st_numpy.save(data, metadata={"format": "ms"})
    ours = io.BytesIO()
    _safetensors_format.write(ours, {"é/\"x\\y": np.ones(2, np.float32)})
    assert ours.getvalue() == st_numpy.save({"é/\"x\\y": np.ones(2, np.float32)})


def test_files_of_the_safetensors_package_load_and_ours_load_in_it(tmp_path):
    st_numpy = pytest.importorskip("safetensors.numpy")
    data = _mixed()
    theirs = tmp_path / "theirs.safetensors"
    st_numpy.save_file(data, str(theirs))  # no metadata, as third-party files often are
    loaded = load_checkpoint(str(theirs), format="safetensors")
    for k, v in data.items():
        np.testing.assert_array_equal(loaded[k].asnumpy(), v)
    ours = tmp_path / "ours.safetensors"
    save_checkpoint(SmallNet(net_values()), str(ours), format="safetensors", crc_check=True)
    back = st_numpy.load_file(str(ours))
    for k, v in net_values().items():
        np.testing.assert_array_equal(back[k], v)


def test_crc_metadata_is_written_and_checked(tmp_path):
    path = tmp_path / "crc.safetensors"
    save_checkpoint(SmallNet(net_values()), str(path), format="safetensors", crc_check=True,
                    remove_redundancy=False)
    raw = bytearray(path.read_bytes())
    meta = _header(bytes(raw))["__metadata__"]
    assert list(meta) == ["format", "remove_redundancy", "crc_num"] and meta["remove_redundancy"] == "False"
    load_checkpoint(str(path), format="safetensors", crc_check=True)
    raw[-3] ^= 0x10  # inside the data of the last tensor
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="crc check is failed"):
        load_checkpoint(str(bad), format="safetensors", crc_check=True)
    load_checkpoint(str(bad), format="safetensors")


def test_bytesio_and_str_values():
    buf = io.BytesIO(fixture_bytes("net.safetensors"))
    assert "fc.weight" in load_checkpoint(buf, format="safetensors")
    with pytest.raises(ValueError, match="str value 'note'"):
        save_checkpoint(SmallNet(), "/nonexistent/x.safetensors", format="safetensors", append_dict={"note": "x"})


@pytest.mark.parametrize("damage", ["truncate_data", "truncate_header", "bad_json", "overlap", "bad_dtype",
                                    "huge_header"])
def test_damaged_safetensors_give_clear_value_errors(tmp_path, damage):
    raw = fixture_bytes("net.safetensors")
    (n,) = struct.unpack_from("<Q", raw, 0)
    header = raw[8:8 + n]
    if damage == "truncate_data":
        raw = raw[:-4]
    elif damage == "truncate_header":
        raw = raw[:n // 2]
    elif damage == "bad_json":
        raw = raw[:8] + b"{" * n + raw[8 + n:]
    elif damage == "overlap":
        raw = raw[:8] + header.replace(b"[16,32]", b"[12,28]") + raw[8 + n:]
    elif damage == "bad_dtype":
        raw = raw[:8] + header.replace(b'"F32"', b'"X32"', 1) + raw[8 + n:]
    else:
        raw = struct.pack("<Q", 2 ** 40) + raw[8:]
    path = tmp_path / "bad.safetensors"
    path.write_bytes(raw)
    with pytest.raises(ValueError, match="Failed to read the safetensors file"):
        load_checkpoint(str(path), format="safetensors")


def _safetensors(header_text, data=b""):
    return struct.pack("<Q", len(header_text)) + header_text + data


# Found by tests/fuzz: each once escaped as RecursionError, or as NumPy's ValueError without the file's name (an
# int64 product of the shape wrapped to 0 and passed the size check).
@pytest.mark.parametrize("raw, match", [
    (_safetensors(b"[" * 100_000 + b"]" * 100_000), "nests JSON arrays or objects too deeply"),
    (_safetensors(b'{"a":{"dtype":"F32","shape":[0,4294967296,4294967296,4294967296],"data_offsets":[0,0]}}'),
     "the entry 'a' has a shape .* that no tensor can have"),
    (_safetensors(b'{"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,0]}}'),
     "the entry 'a' has a shape .* that no tensor can have"),
    (_safetensors(b'{"a":{"dtype":"F32","shape":[' + b",".join([b"1"] * 70) + b'],"data_offsets":[0,4]}}',
                  b"\x00" * 4), "the entry 'a' has an invalid shape"),
])
def test_hostile_headers_are_reported_with_the_file(tmp_path, raw, match):
    path = tmp_path / "hostile.safetensors"
    path.write_bytes(raw)
    with pytest.raises(ValueError, match=f"Failed to read the safetensors file .*hostile.safetensors: .*{match}"):
        load_checkpoint(str(path), format="safetensors")


def _assert_same_values(a, b):
    assert sorted(a) == sorted(b)
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        assert a[k].asnumpy().tobytes() == b[k].asnumpy().tobytes(), k


@pytest.mark.parametrize("fname", ["net.ckpt", "dtypes.ckpt"])
def test_ckpt_to_safetensors_and_back_round_trips(tmp_path, fname):
    src = tmp_path / fname
    src.write_bytes(fixture_bytes(fname))
    ckpt_to_safetensors(str(src), str(tmp_path / "st"))
    st = tmp_path / "st" / fname.replace(".ckpt", ".safetensors")
    converted = load_checkpoint(str(st), format="safetensors")
    original = load_checkpoint(str(src))
    _assert_same_values(original, converted)
    assert "__metadata__" not in _header(st.read_bytes())  # plain safetensors, as MindSpore writes it
    safetensors_to_ckpt(str(st), str(tmp_path / "back"))
    back = load_checkpoint(str(tmp_path / "back" / fname))
    _assert_same_values(original, back)
    assert list(back) == sorted(original)


def test_net_safetensors_converts_to_mindspore_net_ckpt_values(tmp_path):
    safetensors_to_ckpt(str(fixture("net.safetensors")), str(tmp_path))
    _assert_same_values(load_checkpoint(str(tmp_path / "net.ckpt")), load_checkpoint(str(fixture("net.ckpt"))))


def test_converters_on_rank_directories_with_name_map(tmp_path):
    for rank in (0, 1):
        (tmp_path / "src" / f"rank_{rank}").mkdir(parents=True)
        (tmp_path / "src" / f"rank_{rank}" / "net.ckpt").write_bytes(fixture_bytes("net.ckpt"))
    ckpt_to_safetensors(str(tmp_path / "src"), str(tmp_path / "dst"), name_map={"fc.weight": "head.weight"},
                        processes_num=2)
    for rank in (0, 1):
        got = load_checkpoint(str(tmp_path / "dst" / f"rank_{rank}" / "net.safetensors"), format="safetensors")
        assert "head.weight" in got and "fc.weight" not in got
    with pytest.raises(ValueError, match="no directories starting with 'rank'"):
        ckpt_to_safetensors(str(tmp_path / "dst" / "rank_0"))
    with pytest.raises(ValueError, match="must be a .ckpt file"):
        ckpt_to_safetensors(str(fixture("net.safetensors")))
    with pytest.raises(ValueError, match="str"):
        ckpt_to_safetensors(str(fixture("net_append.ckpt")), str(tmp_path / "x"))
