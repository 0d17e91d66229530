"""Fuzzing ``load_checkpoint`` on damaged ``.ckpt`` (plain, CRC, encrypted) and safetensors files.

Valid files are written with ``save_checkpoint`` (parameters of several dtypes, a scalar, ``append_dict`` values),
then damaged byte by byte (``fuzz_mutations.mutated``), rebuilt from hostile protobuf messages (random tags, dtype
names, dims and contents, required fields missing, slices that disagree), or, for safetensors, rebuilt around a
damaged JSON header. Each file is loaded in the worker process; see ``fuzz_harness`` for the clean outcomes.
"""
import json
import struct

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mindspore as ms
from mindspore.train._checkpoint_pb2 import Checkpoint

from fuzz_harness import ValidFiles, check_outcome, fuzz_settings
from fuzz_mutations import SIGNED_INTS, dumps, json_mutated, mutated

KEY = b"0123456789abcdef"


def _parameters():
    return {
        "conv.weight": ms.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2)),
        "fc.bias": ms.Tensor(np.array([1.5, -2.0, np.inf], np.float64)),
        "steps": ms.Tensor(np.array([3, 4], np.int64)),
        "half": ms.Tensor(np.ones((2, 2), np.float16)),
        "bf": ms.Tensor(np.array([1.0, 2.5], ml_dtypes.bfloat16)),
        "mask": ms.Tensor(np.array([True, False, True])),
        "u8": ms.Tensor(np.arange(5, dtype=np.uint8)),
        "scalar": ms.Tensor(np.float32(0.25)),
    }


@pytest.fixture(scope="module")
def valid(tmp_path_factory):
    """``{name: bytes}`` of valid files written by save_checkpoint."""
    folder = tmp_path_factory.mktemp("valid-ckpt")
    out = ValidFiles()
    for name, kwargs in {"plain.ckpt": {"append_dict": {"epoch": 7, "optimizer": "Momentum"}},
                         "crc.ckpt": {"crc_check": True},
                         "enc.ckpt": {"enc_key": KEY},
                         "model.safetensors": {"format": "safetensors"}}.items():
        if "enc_key" in kwargs:
            pytest.importorskip("cryptography")
        path = folder / name
        ms.save_checkpoint(_parameters(), str(path), **kwargs)
        out[name] = path.read_bytes()
    return out


@fuzz_settings(share=2)
@given(data=st.data(), which=st.sampled_from(["plain.ckpt", "crc.ckpt"]), crc=st.booleans())
def test_mutated_ckpt(loader_worker, valid, data, which, crc):
    damaged = data.draw(mutated(valid[which]), label="file")
    result = loader_worker.load("ckpt", {"m.ckpt": damaged}, "m.ckpt", {"crc_check": crc})
    check_outcome(result, "ckpt", "m.ckpt")


@fuzz_settings()
@given(data=st.data(), mode=st.sampled_from(["AES-GCM", "AES-CBC"]))
def test_mutated_encrypted_ckpt(loader_worker, valid, data, mode):
    base = valid["enc.ckpt"]
    if mode == "AES-CBC":  # same layout, another magic: exercises the CBC path on a damaged stream
        base = struct.pack("<I", 0x7F3A5ED9) + base[4 + 16:]
    damaged = data.draw(mutated(base, focus=[(0, 64)]), label="file")
    result = loader_worker.load("ckpt", {"e.ckpt": damaged}, "e.ckpt", {"dec_key": KEY, "dec_mode": mode})
    check_outcome(result, "ckpt", "e.ckpt")


# --- structured: hostile protobuf messages ---------------------------------------------------------------------
TENSOR_TYPES = ("Float32", "Float16", "Float64", "BFloat16", "Int8", "UInt8", "Int32", "Int64", "Bool", "str",
                "Complex64", "Float8E4M3FN", "Int4", "float32", "", "Float32\x00")
_DIMS = st.lists(st.sampled_from((0, 1, 2, 3, 4)) | st.sampled_from(SIGNED_INTS).filter(lambda v: -2**63 <= v < 2**63),
                 max_size=6) | st.lists(st.just(1), min_size=60, max_size=80)


@st.composite
def _tensor_proto(draw, tensor):
    tensor.tensor_type = draw(st.sampled_from(TENSOR_TYPES) | st.text(max_size=10))
    dims = draw(_DIMS)
    tensor.dims.extend(dims)
    size = 1
    for d in dims:
        size *= d
    if draw(st.booleans()) and 0 <= size <= 4096:  # a content whose length fits the dims for some itemsize
        content = bytes(size * draw(st.sampled_from((1, 2, 4, 8))))
    else:
        content = draw(st.binary(max_size=64))
    if tensor.tensor_type == "str" and draw(st.booleans()):
        content = draw(st.sampled_from((b"\xff\xff\xff\xff", b"\x00\x00\x11\x00", b"\x00\xd8\x00\x00", b"a\x00\x00")))
    tensor.tensor_content = content


@st.composite
def _checkpoint(draw):
    msg = Checkpoint()
    tags = st.sampled_from(("w", "w", "b", "", "conv.weight")) | st.text(max_size=6)
    for _ in range(draw(st.integers(1, 4))):
        value = msg.value.add()
        if draw(st.integers(0, 9)):
            value.tag = draw(tags)
        kind = draw(st.sampled_from(("tensor", "tensor", "tensor", "maptensor", "none")))
        if kind == "tensor":
            draw(_tensor_proto(value.tensor))
        elif kind == "maptensor":
            for _ in range(draw(st.integers(0, 4))):
                draw(_tensor_proto(value.maptensor.tensor.add()))
    return msg.SerializePartialToString()  # required fields may be missing


@fuzz_settings(share=2)
@given(payload=_checkpoint(), trailer=st.sampled_from(["none", "crc", "bad crc"]))
def test_generated_checkpoint_messages(loader_worker, payload, trailer):
    import binascii
    if trailer == "crc":
        payload += b"crc_num" + binascii.crc32(payload).to_bytes(10, "big")
    elif trailer == "bad crc":
        payload += b"crc_num" + (2 ** 79).to_bytes(10, "big")
    result = loader_worker.load("ckpt", {"g.ckpt": payload}, "g.ckpt", {"crc_check": trailer != "none"})
    check_outcome(result, "ckpt", "g.ckpt")


# --- safetensors -----------------------------------------------------------------------------------------------
@fuzz_settings()
@given(data=st.data())
def test_mutated_safetensors(loader_worker, valid, data):
    base = valid["model.safetensors"]
    header_end = 8 + struct.unpack_from("<Q", base)[0]
    damaged = data.draw(mutated(base, focus=[(0, header_end), (0, len(base))]), label="file")
    result = loader_worker.load("safetensors", {"m.safetensors": damaged}, "m.safetensors")
    check_outcome(result, "safetensors", "m.safetensors")


@fuzz_settings(share=2)
@given(data=st.data(), length=st.sampled_from(["exact", "exact", "short", "long", "huge"]),
       body=st.sampled_from(["same", "same", "truncated", "extended"]), crc=st.booleans())
def test_safetensors_header_mutations(loader_worker, valid, data, length, body, crc):
    base = valid["model.safetensors"]
    n = struct.unpack_from("<Q", base)[0]
    header = json.loads(base[8:8 + n])
    text = dumps(data.draw(json_mutated(header), label="header"), separators=(",", ":")).encode("utf-8")
    declared = {"exact": len(text), "short": len(text) - 1, "long": len(text) + 1, "huge": 2 ** 63 + 5}[length]
    rest = base[8 + n:]
    rest = {"same": rest, "truncated": rest[:len(rest) // 2], "extended": rest + b"\x00" * 8}[body]
    result = loader_worker.load("safetensors", {"h.safetensors": struct.pack("<Q", declared) + text + rest},
                                "h.safetensors", {"crc_check": crc})
    check_outcome(result, "safetensors", "h.safetensors")
