"""``ops.TCPStore``: a key-value store over TCP for process rendezvous (``set``/``get``/``add``/``delete_key``).

The master (``is_master=True``) serves the store from a daemon thread; every store, the master's included,
talks to it through a socket. Each request and reply is a frame: a 4-byte big-endian length, then a JSON
header (the command, the key, an amount) and, for values, the raw bytes after it — no pickling, so nothing in a
frame is ever executed. ``get`` of a missing key waits for it until the store's ``timeout`` and then raises.
With ``world_size`` and ``wait_for_workers`` the master's constructor waits until that many stores connected.
"""
from __future__ import annotations

import datetime
import json
import socket
import struct
import threading
import time

from mindspore._errors import MSRuntimeError, MSTypeError

__all__ = ["TCPStore"]


def _send(sock, header, payload=b""):
    head = json.dumps(header).encode()
    sock.sendall(struct.pack(">II", len(head), len(payload)) + head + payload)


def _recv_exact(sock, n):
    chunks = []
    while n:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            raise ConnectionError("the TCPStore connection closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _recv(sock):
    head_len, payload_len = struct.unpack(">II", _recv_exact(sock, 8))
    header = json.loads(_recv_exact(sock, head_len))
    return header, _recv_exact(sock, payload_len) if payload_len else b""


class _Server:
    def __init__(self, host, port):
        self.data = {}
        self.cond = threading.Condition()
        self.clients = 0
        self.sock = socket.create_server((host, port), reuse_port=False)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self.cond:
                self.clients += 1
                self.cond.notify_all()
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        with conn:
            while True:
                try:
                    header, payload = _recv(conn)
                except (ConnectionError, OSError, ValueError):
                    return
                _send(conn, *self._handle(header, payload))

    def _handle(self, header, payload):
        cmd, key = header.get("cmd"), header.get("key")
        with self.cond:
            if cmd == "set":
                self.data[key] = payload
                self.cond.notify_all()
                return {"ok": True}, b""
            if cmd == "get":
                deadline = time.monotonic() + header["timeout"]
                while key not in self.data:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return {"ok": False, "error": f"Wait timeout for key(s): ['{key}']"}, b""
                    self.cond.wait(left)
                return {"ok": True}, self.data[key]
            if cmd == "add":
                try:
                    value = int(self.data.get(key, b"0").decode() or 0) + header["amount"]
                except ValueError:
                    return {"ok": False, "error": f"The value of key '{key}' is not an integer."}, b""
                self.data[key] = str(value).encode()
                self.cond.notify_all()
                return {"ok": True, "value": value}, b""
            if cmd == "delete":
                return {"ok": True, "deleted": self.data.pop(key, None) is not None}, b""
        return {"ok": False, "error": f"unknown command {cmd!r}"}, b""

    def close(self):
        self.sock.close()


class TCPStore:
    """A TCP key-value store: the master serves it, every store (master included) reads and writes it.

    Args:
        host_name (str): the master's address.
        port (int): its port (0 on the master: any free port, then read ``store.port``).
        world_size (int, optional): how many stores take part (clients + the master). Default: None (any).
        is_master (bool): whether this store serves. Default: False.
        timeout (datetime.timedelta): how long connecting and ``get`` wait. Default: 300 s.
        wait_for_workers (bool): the master waits for ``world_size`` stores to connect. Default: True.

    Examples:
        >>> store = ops.TCPStore("127.0.0.1", 0, is_master=True)
        >>> store.set("first_key", "first_value")
        >>> store.get("first_key")
        b'first_value'
    """

    def __init__(self, host_name, port, world_size=None, is_master=False, timeout=datetime.timedelta(seconds=300),
                 wait_for_workers=True, multi_tenant=False, master_listen_fd=None, use_libuv=True):
        if not isinstance(host_name, str):
            raise MSTypeError(f"For 'TCPStore', the 'host_name' must be str, but got {type(host_name).__name__}.")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port < 65536:
            raise MSTypeError(f"For 'TCPStore', the 'port' must be an int in [0, 65536), but got {port!r}.")
        if world_size is not None and (isinstance(world_size, bool) or not isinstance(world_size, int)
                                       or world_size < 1):
            raise MSTypeError(f"For 'TCPStore', the 'world_size' must be a positive int or None, but got "
                              f"{world_size!r}.")
        if not isinstance(timeout, datetime.timedelta):
            raise MSTypeError(f"For 'TCPStore', the 'timeout' must be datetime.timedelta, but got "
                              f"{type(timeout).__name__}.")
        self.host = host_name
        self.timeout = timeout.total_seconds()
        self.world_size = world_size
        self._server = _Server(host_name, port) if is_master else None
        self.port = self._server.port if is_master else port
        self._lock = threading.Lock()
        self._sock = self._connect()
        if self._server is not None and world_size is not None and wait_for_workers:
            self._wait_clients(world_size)

    def _connect(self):
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                return socket.create_connection((self.host, self.port), timeout=max(deadline - time.monotonic(), 1))
            except OSError as e:
                if time.monotonic() >= deadline:
                    raise MSRuntimeError(f"For 'TCPStore', connecting to {self.host}:{self.port} timed out after "
                                         f"{self.timeout} s: {e}") from e
                time.sleep(0.05)

    def _wait_clients(self, n):
        deadline = time.monotonic() + self.timeout
        with self._server.cond:
            while self._server.clients < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise MSRuntimeError(f"For 'TCPStore', only {self._server.clients} of {n} stores connected "
                                         f"within {self.timeout} s.")
                self._server.cond.wait(left)

    def _call(self, header, payload=b""):
        with self._lock:
            self._sock.settimeout(self.timeout + 5)
            _send(self._sock, header, payload)
            reply, data = _recv(self._sock)
        if not reply.get("ok"):
            raise MSRuntimeError(f"For 'TCPStore', {reply.get('error')}")
        return reply, data

    @staticmethod
    def _check_key(key, api):
        if not isinstance(key, str):
            raise MSTypeError(f"For 'TCPStore.{api}', the 'key' must be str, but got {type(key).__name__}.")

    def set(self, key, value):
        """Store ``value`` (str or bytes) under ``key``, overwriting."""
        self._check_key(key, "set")
        if isinstance(value, str):
            value = value.encode()
        if not isinstance(value, (bytes, bytearray)):
            raise MSTypeError(f"For 'TCPStore.set', the 'value' must be str or bytes, but got {type(value).__name__}.")
        self._call({"cmd": "set", "key": key}, bytes(value))

    def get(self, key):
        """The bytes under ``key``, waiting up to the timeout for another store to set it."""
        self._check_key(key, "get")
        return self._call({"cmd": "get", "key": key, "timeout": self.timeout})[1]

    def add(self, key, amount):
        """Add ``amount`` to the integer counter under ``key`` (created at 0); returns the new value."""
        self._check_key(key, "add")
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise MSTypeError(f"For 'TCPStore.add', the 'amount' must be int, but got {type(amount).__name__}.")
        return self._call({"cmd": "add", "key": key, "amount": amount})[0]["value"]

    def delete_key(self, key):
        """Remove ``key``; True when it was there."""
        self._check_key(key, "delete_key")
        return self._call({"cmd": "delete", "key": key})[0]["deleted"]

    def __del__(self):
        try:
            self._sock.close()
            if self._server is not None:
                self._server.close()
        except Exception:  # noqa: BLE001 - closing at interpreter exit
            pass
