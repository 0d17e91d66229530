"""Summary-file fixtures for ``test_train_more_summary.py``.

1. ``/tmp/w/venv/bin/python tests/api/make_train_more_summary_fixture.py --ours`` writes
   ``tests/fixtures/api/train_more_summary/ours.summary`` with this implementation's SummaryRecord.
2. ``/tmp/w/msref/bin/python tests/api/make_train_more_summary_fixture.py`` (real MindSpore 2.10) writes
   ``msref.summary`` with MindSpore's SummaryRecord (same values, same network), then parses both files with
   MindSpore's own ``summary_pb2.Event`` after checking every record's framing and CRCs, and stores the parsed
   events as JSON in ``train_more_summary_msref.json``.
"""
import glob
import json
import os
import shutil
import struct
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "fixtures", "api", "train_more_summary")


def write_summary(ms, path, mode):
    """The same records with whichever MindSpore ``ms`` is: add_value of all four kinds, then the summary
    operators of a network run in ``mode``."""
    from mindspore import Tensor, nn, ops
    from mindspore.train import SummaryRecord

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.s = ops.ScalarSummary()
            self.t = ops.TensorSummary()
            self.h = ops.HistogramSummary()
            self.i = ops.ImageSummary()

        def construct(self, x, img):
            y = x * 2
            self.s("x_sum", y.sum())
            self.t("y_tensor", y)
            self.h("y_hist", y)
            self.i("img_op", img)
            return y

    ms.set_context(mode=mode)
    d = tempfile.mkdtemp()
    with SummaryRecord(d) as rec:
        rec.add_value("scalar", "loss", Tensor(1.5, ms.float32))
        rec.add_value("tensor", "w", Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
        rec.add_value("histogram", "h", Tensor(np.array([0.1, 0.5, 0.5, 2.0, np.nan, np.inf, -1e3], np.float32)))
        rec.add_value("histogram", "hi", Tensor(np.arange(40, dtype=np.int32)))
        rec.add_value("image", "img", Tensor(np.linspace(0, 1, 2 * 3 * 4 * 5).reshape(2, 3, 4, 5).astype(np.float32)))
        rec.record(1)
        Net()(Tensor(np.array([1.0, 2.0, 3.5], np.float32)),
              Tensor(np.linspace(-2, 5, 3 * 1 * 2 * 3).reshape(3, 1, 2, 3).astype(np.float32)))
        rec.record(2)
        rec.add_value("scalar", "loss", Tensor(0.75, ms.float32))
        rec.record(3)
    (written,) = glob.glob(os.path.join(d, "*"))
    shutil.copyfile(written, path)
    shutil.rmtree(d, ignore_errors=True)
    return os.path.basename(written)


def _masked_crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    crc ^= 0xFFFFFFFF
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def parse_with_msref(path):
    """Events of ``path`` parsed by MindSpore's own protobuf classes, as dicts (wall times dropped)."""
    from google.protobuf.json_format import MessageToDict
    from mindspore.train.summary_pb2 import Event
    blob = open(path, "rb").read()
    pos, events = 0, []
    while pos < len(blob):
        header = blob[pos:pos + 8]
        (n,) = struct.unpack("<Q", header)
        assert struct.unpack("<I", blob[pos + 8:pos + 12])[0] == _masked_crc32c(header), "header CRC"
        data = blob[pos + 12:pos + 12 + n]
        assert struct.unpack("<I", blob[pos + 12 + n:pos + 16 + n])[0] == _masked_crc32c(data), "data CRC"
        event = Event()
        event.ParseFromString(data)
        d = MessageToDict(event, preserving_proto_field_name=True)
        d.pop("wall_time", None)
        events.append(d)
        pos += 16 + n
    return events


if __name__ == "__main__":
    import mindspore as ms
    os.makedirs(OUT_DIR, exist_ok=True)
    if "--ours" in sys.argv:
        name = write_summary(ms, os.path.join(OUT_DIR, "ours.summary"), ms.GRAPH_MODE)
        print("ours ->", name)
    else:
        name = write_summary(ms, os.path.join(OUT_DIR, "msref.summary"), ms.GRAPH_MODE)
        result = {"mindspore_version": ms.__version__, "msref_file_name": name,
                  "msref": parse_with_msref(os.path.join(OUT_DIR, "msref.summary"))}
        ours = os.path.join(OUT_DIR, "ours.summary")
        if os.path.exists(ours):
            result["ours"] = parse_with_msref(ours)
        with open(os.path.join(OUT_DIR, "..", "train_more_summary_msref.json"), "w") as f:
            json.dump(result, f, indent=1, sort_keys=True)
        print("msref ->", name)
