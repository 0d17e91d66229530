"""SummaryRecord, the summary operators and the event file format, against real MindSpore 2.10's files.

Fixtures (``make_train_more_summary_fixture.py``): ``train_more_summary/msref.summary`` written by MindSpore's
SummaryRecord, ``train_more_summary/ours.summary`` written by ours with the same calls, and both files parsed by
MindSpore's own protobuf classes (framing and CRCs checked) in ``train_more_summary_msref.json``.
"""
import base64
import json
import os
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from google.protobuf import descriptor_pb2
from google.protobuf.json_format import MessageToDict

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.train import SummaryRecord
from mindspore.train import _summary_pb2
from mindspore.train.summary import _event_io

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "api"
REF = json.loads((FIX / "train_more_summary_msref.json").read_text())
# the schema's source in the repository (an installed mindspore ships the compiled module, not the .proto)
PROTO_DIR = Path(__file__).resolve().parents[2] / "mindspore-core" / "src" / "mindspore" / "train"


def _events_as_dicts(path):
    out = []
    for event in _event_io.read_events(str(path)):
        d = MessageToDict(event, preserving_proto_field_name=True)
        d.pop("wall_time", None)
        out.append(d)
    return out


def _png_pixels(b64):
    """Decode an 8-bit RGB PNG (any filter types) to an (H, W, 3) array."""
    data = base64.b64decode(b64)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", None, None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert (depth, color) == (8, 2)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride, bpp = width * 3, 3
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return np.frombuffer(b"".join(rows), np.uint8).reshape(height, width, 3)


def _by_tag(events):
    """step -> tag -> value dict (images decoded), for order-independent comparison."""
    out = {}
    for e in events:
        if "summary" not in e:
            continue
        step = out.setdefault(e["step"], {})
        for v in e["summary"]["value"]:
            v = dict(v)
            if "image" in v:
                img = dict(v["image"])
                img["pixels"] = _png_pixels(img.pop("encoded_image")).tolist()
                v["image"] = img
            step[v.pop("tag")] = v
    return out


def test_schema_matches_proto_file(tmp_path):
    protoc = pytest.importorskip("grpc_tools.protoc")
    out = tmp_path / "summary.pb"
    rc = protoc.main(["protoc", f"-I{PROTO_DIR}", f"--descriptor_set_out={out}", str(PROTO_DIR / "_summary.proto")])
    assert rc == 0
    fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    assert fds.file[0] == _summary_pb2.FILE_DESCRIPTOR_PROTO


def test_reader_parses_msref_file_like_msref():
    # the file MindSpore wrote, read by our reader, gives exactly what MindSpore's own classes gave
    assert _events_as_dicts(FIX / "train_more_summary" / "msref.summary") == REF["msref"]
    assert REF["msref"][0] == {"version": "MindSpore.Event:1"}


def test_msref_parses_our_file():
    # the committed file of ours was parsed by MindSpore's classes (framing and CRCs checked there) ...
    ours = _events_as_dicts(FIX / "train_more_summary" / "ours.summary")
    assert ours == REF["ours"]
    # ... and holds the same data as MindSpore's file (PNG bytes differ in compression; pixels do not)
    assert _by_tag(REF["ours"]) == _by_tag(REF["msref"])


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_fresh_file_has_msref_content(tmp_path, mode):
    import importlib.util
    spec = importlib.util.spec_from_file_location("mk", Path(__file__).parent / "make_train_more_summary_fixture.py")
    mk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mk)
    path = tmp_path / "fresh.summary"
    try:
        name = mk.write_summary(ms, str(path), mode)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert name.startswith("events.out.events.summary.") and name.endswith("_MS")
    assert name.split(".")[5] == str(ms.get_context("device_id"))
    events = _events_as_dicts(path)
    assert events[0] == {"version": "MindSpore.Event:1"}
    assert _by_tag(events) == _by_tag(REF["msref"])


def test_framing_and_crc(tmp_path):
    path = tmp_path / "f"
    w = _event_io.EventFileWriter(str(path))
    w.write(b"abc")
    w.write(b"")
    w.close()
    assert _event_io.read_records(str(path)) == [b"abc", b""]
    # the CRC-32C check value of "123456789"
    assert _event_io.crc32c(b"123456789") == 0xE3069283
    blob = bytearray(path.read_bytes())
    blob[13] ^= 1
    os.chmod(path, 0o600)
    path.write_bytes(bytes(blob))
    with pytest.raises(ValueError, match="CRC mismatch"):
        _event_io.read_records(str(path))


def test_record_filters_modes_and_file_limits(tmp_path):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.s = ops.ScalarSummary()

        def construct(self, x):
            self.s("op", x.sum())
            return x

    with SummaryRecord(str(tmp_path / "a")) as rec:
        assert os.path.dirname(rec.log_dir) == os.path.realpath(tmp_path / "a")
        Net()(Tensor(np.ones(2, np.float32)))
        rec.set_mode("eval")                   # operator values are not taken in eval mode
        rec.add_value("scalar", "kept", Tensor(2.0))
        rec.add_value("tensor", "dropped", Tensor(np.ones(2)))
        assert rec.record(5, plugin_filter=lambda p: p != "tensor") is True
        rec.set_mode("train")
        assert rec.record(6) is True           # the operator value is still pending
        assert rec.record(7) is True           # nothing pending: no event
    events = _by_tag(_events_as_dicts(rec.log_dir))
    assert events == {"5": {"kept": {"scalar_value": 2.0}}, "6": {"op": {"scalar_value": 2.0}}}
    assert oct(os.stat(rec.log_dir).st_mode & 0o777) == "0o400"
    assert rec.record(8) is False              # closed
    with SummaryRecord(str(tmp_path / "b"), max_file_size=120) as rec:
        rec.add_value("tensor", "big", Tensor(np.ones(100, np.float32)))
        rec.record(1)                          # does not fit: dropped with a warning, the file stays valid
    assert [e.get("step") for e in _events_as_dicts(rec.log_dir)] == [None]


def test_export_npy(tmp_path):
    with SummaryRecord(str(tmp_path), export_options={"tensor_format": "npy"}) as rec:
        rec.add_value("tensor", "a/b", Tensor(np.arange(3, dtype=np.int32)))
        rec.record(4)
    (export_dir,) = [p for p in tmp_path.iterdir() if p.name.startswith("export_")]
    np.testing.assert_array_equal(np.load(export_dir / "tensor" / "a%2Fb_4.npy"), np.arange(3))


def test_summary_ops_outside_a_record_are_dropped(tmp_path):
    from mindspore.ops._defs.summary import take_summary_data
    ops.ScalarSummary()("early", Tensor(1.0))
    with SummaryRecord(str(tmp_path)) as rec:
        rec.record(1)
    assert [e.get("step") for e in _events_as_dicts(rec.log_dir)] == [None]
    assert take_summary_data() == []


def test_summary_op_errors_at_record(tmp_path):
    with SummaryRecord(str(tmp_path)) as rec:
        ops.ScalarSummary()("bad", Tensor(np.ones(3)))
        with pytest.raises(ValueError, match='For "ScalarSummary", the v rank must be less than or equal to 1'):
            rec.record(1)
        ops.TensorSummary()("t", 3)
        with pytest.raises(TypeError, match='the parameter "value" expect to be Tensor'):
            rec.record(2)
