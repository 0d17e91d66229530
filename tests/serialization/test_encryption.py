"""Encrypted checkpoints (enc_key / dec_key) in MindSpore's block layout."""
import struct

import numpy as np
import pytest

pytest.importorskip("cryptography")

import mindspore as ms  # noqa: E402
from mindspore._fileio import crypto as _ckpt_crypto  # noqa: E402
from mindspore.train import load_checkpoint, save_checkpoint  # noqa: E402

from ser_helpers import SmallNet, fixture_bytes, net_values  # noqa: E402

KEY16, KEY32 = b"0123456789abcdef", bytes(range(32))


def _sm4_available():
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    try:
        Cipher(algorithms.SM4(KEY16), modes.CBC(b"\0" * 16)).encryptor()
    except Exception:
        return False
    return True


MODES = [("AES-GCM", KEY16), ("AES-GCM", KEY32), ("AES-CBC", bytes(range(24))),
         pytest.param("SM4-CBC", KEY16, marks=pytest.mark.skipif(not _sm4_available(), reason="no SM4 in OpenSSL"))]


@pytest.mark.parametrize("mode,key", MODES)
def test_round_trip_and_block_layout(tmp_path, mode, key):
    path = tmp_path / "enc.ckpt"
    save_checkpoint(SmallNet(net_values()), str(path), enc_key=key, enc_mode=mode, append_dict={"note": "x"})
    raw = path.read_bytes()
    magic, = struct.unpack_from("<I", raw, 0)
    assert magic == _ckpt_crypto.MODES[mode]
    pos = 4 + (16 if mode == "AES-GCM" else 0)
    block_len, iv_len = struct.unpack_from("<ii", raw, pos)
    cipher_len, = struct.unpack_from("<i", raw, pos + 8 + iv_len)
    assert iv_len == 16 and block_len == 4 + 16 + 4 + cipher_len and pos + 4 + block_len == len(raw)
    plain = len(fixture_bytes("net.ckpt")) + 23  # + the "note" entry
    assert cipher_len == (plain if mode == "AES-GCM" else (plain // 16 + 1) * 16)
    loaded = load_checkpoint(str(path), dec_key=key, dec_mode=mode)
    for name, value in net_values().items():
        np.testing.assert_array_equal(loaded[name].asnumpy(), value)
    assert loaded["note"] == "x"


def test_wrong_key_mode_or_tampering_is_a_value_error(tmp_path):
    path = tmp_path / "enc.ckpt"
    save_checkpoint(SmallNet(), str(path), enc_key=KEY16)
    with pytest.raises(ValueError, match="authentication failed"):
        load_checkpoint(str(path), dec_key=b"x" * 16)
    with pytest.raises(ValueError, match="not an AES-CBC encrypted file"):
        load_checkpoint(str(path), dec_key=KEY16, dec_mode="AES-CBC")
    raw = bytearray(path.read_bytes())
    raw[200] ^= 1
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="Failed to decrypt"):
        load_checkpoint(str(bad), dec_key=KEY16)
    bad.write_bytes(bytes(raw[:-10]))
    with pytest.raises(ValueError, match="truncated"):
        load_checkpoint(str(bad), dec_key=KEY16)
    with pytest.raises(ValueError, match="not an AES-GCM encrypted file"):
        _ckpt_crypto.decrypt(fixture_bytes("net.ckpt"), KEY16, "AES-GCM")


def test_a_block_too_short_for_its_iv_is_a_value_error(tmp_path):
    # found by tests/fuzz: a block whose length field leaves no room for the IV and cipher length escaped as
    # struct.error
    body = struct.pack("<i", 16) + b"\x00" * 4  # iv_len 16, then 4 bytes where 16 + 4 are needed
    bad = tmp_path / "short.ckpt"
    bad.write_bytes(struct.pack("<Ii", _ckpt_crypto.MODES["AES-CBC"], len(body)) + body)
    with pytest.raises(ValueError, match="Failed to decrypt the checkpoint file .*short.ckpt: a block header is"):
        load_checkpoint(str(bad), dec_key=KEY16, dec_mode="AES-CBC")


def test_multi_block_stream(tmp_path, monkeypatch):
    monkeypatch.setattr(_ckpt_crypto, "BLOCK_SIZE", 1000)
    path = tmp_path / "enc.ckpt"
    save_checkpoint(SmallNet(net_values()), str(path), enc_key=KEY16)
    raw = path.read_bytes()
    blocks, pos = 0, 0
    while pos < len(raw):
        assert struct.unpack_from("<I", raw, pos)[0] == _ckpt_crypto.MODES["AES-GCM"]
        pos += 4 + 16
        pos += 4 + struct.unpack_from("<i", raw, pos)[0]
        blocks += 1
    assert blocks == -(-len(fixture_bytes("net.ckpt")) // 1000)
    assert load_checkpoint(str(path), dec_key=KEY16)["fc.weight"].shape == (10, 256)


def test_key_checks(tmp_path):
    with pytest.raises(ValueError, match="16 or 24 or 32 bytes"):
        save_checkpoint(SmallNet(), str(tmp_path / "a.ckpt"), enc_key=b"short")
    with pytest.raises(ValueError, match="encryption mode"):
        save_checkpoint(SmallNet(), str(tmp_path / "a.ckpt"), enc_key=KEY16, enc_mode="DES-ECB")
    with pytest.raises(TypeError, match="enc_key"):
        save_checkpoint(SmallNet(), str(tmp_path / "a.ckpt"), enc_key="a string")
    with pytest.raises(ValueError, match="mutually exclusive"):
        save_checkpoint(SmallNet(), str(tmp_path / "a.ckpt"), enc_key=KEY16, crc_check=True)
    assert not list(tmp_path.iterdir())
    assert ms.train.load_checkpoint  # the package exports stay importable
