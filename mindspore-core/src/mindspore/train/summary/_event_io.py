"""Summary event files: the record framing MindSpore's ``EventWriter`` uses, and a reader for it.

A file is a sequence of records: ``uint64 length`` (little endian), ``uint32 masked CRC-32C`` of those 8 bytes,
``length`` bytes of one serialised ``Event`` (``_summary.proto``), ``uint32 masked CRC-32C`` of the event bytes --
the TFRecord framing, which MindInsight and MindSpore's own summary tooling read.
"""
from __future__ import annotations

import os
import stat
import struct

__all__ = ["EventFileWriter", "read_records", "read_events", "masked_crc32c"]


def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ (0x82F63B78 if c & 1 else 0)
        table.append(c)
    return tuple(table)


_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of ``data``."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """The masked CRC the record framing stores (rotate right by 15, add 0xa282ead8)."""
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One framed record holding ``data``."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + data + struct.pack("<I", masked_crc32c(data))


class EventFileWriter:
    """Appends framed records to one file (created owner read/write; read-only for the owner once closed, as
    MindSpore leaves its summary files)."""

    def __init__(self, path, max_file_size=None):
        self.path = path
        self._remaining = max_file_size
        with open(path, "xb"):   # a new file: an existing summary file is never truncated
            pass
        os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
        self._file = open(path, "ab")  # noqa: SIM115 -- kept open until close()

    def write(self, data: bytes):
        """Append one record; raises ``RuntimeWarning`` when ``max_file_size`` would be exceeded (as MindSpore)."""
        record = frame(data)
        if self._remaining is not None:
            if self._remaining < len(record):
                raise RuntimeWarning(f"'max_file_size' reached: There are {self._remaining} bytes remaining, but the "
                                     f"'{self.path}' requires to write {len(record)} bytes.")
            self._remaining -= len(record)
        self._file.write(record)

    def flush(self):
        if not self._file.closed:
            self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.close()
        try:
            os.chmod(self.path, stat.S_IRUSR)
        except FileNotFoundError:
            pass


def read_records(path, check_crc=True):
    """The payloads of every record in ``path`` (bytes), checking both CRCs.

    Raises:
        ValueError: a truncated record or a CRC mismatch.
    """
    with open(path, "rb") as f:
        blob = f.read()
    out, pos = [], 0
    while pos < len(blob):
        if pos + 12 > len(blob):
            raise ValueError(f"Truncated record header at offset {pos} of '{path}'.")
        header = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", blob[pos + 8:pos + 12])
        end = pos + 12 + length
        if end + 4 > len(blob):
            raise ValueError(f"Truncated record at offset {pos} of '{path}'.")
        data = blob[pos + 12:end]
        (data_crc,) = struct.unpack("<I", blob[end:end + 4])
        if check_crc and (masked_crc32c(header) != header_crc or masked_crc32c(data) != data_crc):
            raise ValueError(f"CRC mismatch in the record at offset {pos} of '{path}'.")
        out.append(data)
        pos = end + 4
    return out


def read_events(path, check_crc=True):
    """Every ``Event`` message (``mindspore.train._summary_pb2.Event``) of a summary file, in order."""
    from mindspore.train._summary_pb2 import Event
    events = []
    for data in read_records(path, check_crc):
        event = Event()
        event.ParseFromString(data)
        events.append(event)
    return events
