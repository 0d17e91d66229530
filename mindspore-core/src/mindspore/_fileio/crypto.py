"""Checkpoint encryption (``enc_key``/``dec_key``) in MindSpore's block layout, on the ``cryptography`` package.

MindSpore encrypts the serialised checkpoint stream in blocks of at most 64 MiB of plaintext (its C++
``Encrypt``/``Decrypt`` in ``mindspore/core/utils/crypto.cc``). Each block is stored as (integers are int32
little-endian)::

    magic                        0x7F3A5ED8 AES-GCM, 0x7F3A5ED9 AES-CBC, 0x7F3A5EDA SM4-CBC
    tag[16]                      AES-GCM only: the GCM authentication tag
    block_len                    = 4 + 16 + 4 + cipher_len, the length of what follows
    iv_len (16), iv[16]          a fresh random IV per block (GCM uses its first 12 bytes as the nonce: OpenSSL's
                                 default GCM IV length, which MindSpore does not change)
    cipher_len, cipher[...]      GCM: no padding, no associated data; CBC: PKCS#7 padding

Keys are 16, 24 or 32 bytes for AES (AES-128/192/256) and 16 bytes for SM4. Because the IVs are random the
ciphertext differs on every save. The layout and the 12-byte GCM nonce were checked against MindSpore 2.10's own
``_encrypt`` (its output decrypts here, and real MindSpore loads MindIR files encrypted here).
"""
from __future__ import annotations

import os
import struct

from mindspore._errors import MSTypeError, MSValueError

__all__ = ["MODES", "BLOCK_SIZE", "is_cipher_data", "check_key", "Encryptor", "decrypt"]

MODES = {"AES-GCM": 0x7F3A5ED8, "AES-CBC": 0x7F3A5ED9, "SM4-CBC": 0x7F3A5EDA}
BLOCK_SIZE = 64 * 1024 * 1024
_IV_LEN = 16
_TAG_LEN = 16
_GCM_NONCE = 12


def is_cipher_data(data):
    """Whether ``data`` starts like a MindSpore-encrypted file."""
    return len(data) >= 4 and struct.unpack_from("<I", data, 0)[0] in MODES.values()


def check_key(func, key, mode, key_arg):
    """Validate ``key``/``mode`` as MindSpore does; returns the mode."""
    if not isinstance(key, bytes):
        raise MSTypeError(f"For '{func}', the '{key_arg}' must be bytes, but got {type(key).__name__}.")
    if not isinstance(mode, str):
        raise MSTypeError(f"For '{func}', the encryption mode must be str, but got {type(mode).__name__}.")
    if mode not in MODES:
        raise MSValueError(f"For '{func}', the encryption mode must be one of {list(MODES)}, but got '{mode}'.")
    sizes = (16,) if mode == "SM4-CBC" else (16, 24, 32)
    if len(key) not in sizes:
        raise MSValueError(f"For '{func}', the '{key_arg}' for {mode} must be {' or '.join(map(str, sizes))} bytes "
                           f"long, but got {len(key)} bytes.")
    return mode


def _backend():
    try:
        from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
        from cryptography.hazmat.primitives import padding
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    except ImportError:
        raise MSValueError("Encrypted checkpoints need the 'cryptography' package: pip install cryptography") from None
    return InvalidTag, UnsupportedAlgorithm, padding, Cipher, algorithms, modes, AESGCM


def _cbc_cipher(key, iv, mode):
    _, unsupported, _, cipher, algorithms, modes, _ = _backend()
    algo = algorithms.SM4(key) if mode == "SM4-CBC" else algorithms.AES(key)
    try:
        return cipher(algo, modes.CBC(iv))
    except unsupported:
        raise MSValueError(f"The OpenSSL behind the 'cryptography' package does not provide {mode}.") from None


def _encrypt_block(plain, key, mode):
    iv = os.urandom(_IV_LEN)
    _, _, padding, _, _, _, aesgcm = _backend()
    if mode == "AES-GCM":
        sealed = aesgcm(key).encrypt(iv[:_GCM_NONCE], plain, None)
        cipher, tag = sealed[:-_TAG_LEN], sealed[-_TAG_LEN:]
    else:
        padder = padding.PKCS7(128).padder()
        enc = _cbc_cipher(key, iv, mode).encryptor()
        cipher = enc.update(padder.update(plain) + padder.finalize()) + enc.finalize()
        tag = b""
    body = struct.pack("<i", _IV_LEN) + iv + struct.pack("<i", len(cipher)) + cipher
    return struct.pack("<I", MODES[mode]) + tag + struct.pack("<i", len(body)) + body


class Encryptor:
    """A write-only file wrapper: plaintext written to it goes to ``f`` as encrypted 64 MiB blocks."""

    def __init__(self, f, key, mode):
        self._f, self._key, self._mode = f, key, mode
        self._pending = bytearray()
        _backend()

    def write(self, data):
        self._pending += data
        while len(self._pending) >= BLOCK_SIZE:
            self._f.write(_encrypt_block(bytes(self._pending[:BLOCK_SIZE]), self._key, self._mode))
            del self._pending[:BLOCK_SIZE]

    def close(self):
        if self._pending:
            self._f.write(_encrypt_block(bytes(self._pending), self._key, self._mode))
            self._pending.clear()


def _fail(source, reason):
    return MSValueError(f"Failed to decrypt the checkpoint file {source}: {reason}. Please check whether the "
                        f"'dec_key' and 'dec_mode' are the ones it was saved with, and the file integrity.")


def _decrypt_block(body, key, mode, tag, source):
    invalid_tag, _, padding, _, _, _, aesgcm = _backend()
    if len(body) < 8 + _IV_LEN or struct.unpack_from("<i", body, 0)[0] != _IV_LEN:  # iv_len, iv, cipher_len
        raise _fail(source, "a block header is malformed")
    iv = body[4:4 + _IV_LEN]
    (cipher_len,) = struct.unpack_from("<i", body, 4 + _IV_LEN)
    cipher = body[8 + _IV_LEN:]
    if cipher_len <= 0 or cipher_len != len(cipher):
        raise _fail(source, "a block length is inconsistent")
    try:
        if mode == "AES-GCM":
            return aesgcm(key).decrypt(iv[:_GCM_NONCE], cipher + tag, None)
        dec = _cbc_cipher(key, iv, mode).decryptor()
        unpadder = padding.PKCS7(128).unpadder()
        return unpadder.update(dec.update(cipher) + dec.finalize()) + unpadder.finalize()
    except invalid_tag:
        raise _fail(source, "authentication failed (wrong key, or the file was tampered with)") from None
    except ValueError:
        raise _fail(source, "the padding is invalid (wrong key or mode, or a damaged file)") from None


def decrypt(data, key, mode, source="<memory>"):
    """The plaintext of MindSpore-encrypted ``data``; ``MSValueError`` when it cannot be decrypted."""
    magic = MODES[mode]
    view = memoryview(data)
    out = bytearray()
    pos = 0
    while pos < len(view):
        if pos + 4 > len(view) or struct.unpack_from("<I", view, pos)[0] != magic:
            raise _fail(source, f"it is not an {mode} encrypted file (bad block magic at byte {pos})")
        pos += 4
        tag = b""
        if mode == "AES-GCM":
            tag = bytes(view[pos:pos + _TAG_LEN])
            pos += _TAG_LEN
        if pos + 4 > len(view):
            raise _fail(source, "the file is truncated")
        (size,) = struct.unpack_from("<i", view, pos)
        pos += 4
        if size <= 0 or pos + size > len(view) or (mode == "AES-GCM" and len(tag) != _TAG_LEN):
            raise _fail(source, "the file is truncated or a block length is invalid")
        out += _decrypt_block(bytes(view[pos:pos + size]), key, mode, tag, source)
        pos += size
    return bytes(out)
