"""The rendezvous of the msrun processes of a job over several hosts (nodes).

msrun of node 0 (``--node_rank=0``, or, without node ranks, the msrun that binds ``master_addr:master_port``
first) serves a small TCP service there; the msrun of every other node connects to it. Messages are JSON lines:

- node -> server ``{"op": "register", "node_rank", "worker_num", "local_worker_num"}``; once every node has come
  (the local worker numbers add up to ``worker_num``) the server answers each ``{"op": "start", "index",
  "offset", "nodes"}`` (``index``: the node's place in node-rank order, or join order without node ranks;
  ``offset``: the global rank of its local rank 0), or ``{"op": "error", "message"}`` (mismatched ``worker_num``,
  a duplicate node rank, numbers that do not add up, or nodes missing after ``--cluster_time_out`` seconds).
- then the connection stays open and the msruns watch each other over it: ``{"op": "fail", "rank", "error",
  "node"}`` (a rank of that node failed: every msrun ends its job), ``{"op": "done"}`` (that node's workers all
  ended well). A connection that closes without ``done`` means that node's msrun disappeared: the job ends.
- workers (short connections): rank 0 of node 0 ``{"op": "setport", "port"}`` (the names of its
  ``MPI.Open_port()`` ports, one per other node, as a list); local rank 0 of every other node ``{"op": "getport"}``,
  answered ``{"port"}`` once it is known.
"""
import json
import socket
import threading
import time


def send(sock, message):
    sock.sendall((json.dumps(message) + "\n").encode())


class LineReader:
    """Reads JSON lines from a socket; ``read()`` returns ``None`` at EOF (or on a broken connection)."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def read(self, timeout=None):
        self.sock.settimeout(timeout)
        while b"\n" not in self.buffer:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise
            except OSError:
                return None
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


class Server(threading.Thread):
    """Node 0's side. ``events`` receives ``("fail", record)`` / ``("lost", node)`` for msrun to act on."""

    def __init__(self, listener, me, worker_num, time_out):
        super().__init__(daemon=True)
        self.listener = listener
        self.me = me                       # node 0's own registration
        self.worker_num = worker_num
        self.time_out = time_out
        self.nodes = [me]                  # registrations: dict(node_rank, local_worker_num, conn, reader)
        self.lock = threading.Lock()
        self.port = None
        self.port_ready = threading.Condition(self.lock)
        self.started = threading.Event()
        self.error = None
        self.events = []
        self.closed = False

    # -- registration ---------------------------------------------------------------------------------------
    def gather(self):
        """Wait for every node; return ``(index, offset, nodes)`` of node 0 or raise ``RuntimeError``."""
        self.start()
        deadline = None if self.time_out < 0 else time.monotonic() + self.time_out
        while not self.started.wait(0.1):
            if self.error is None and deadline is not None and time.monotonic() > deadline:
                with self.lock:
                    have = sum(n["local_worker_num"] for n in self.nodes)
                    ranks = sorted(n["node_rank"] for n in self.nodes)
                    self._fail_all(f"the cluster of {self.worker_num} workers was not built within {self.time_out} "
                                   f"seconds (--cluster_time_out): {len(self.nodes)} node(s) (node_rank {ranks}) "
                                   f"with {have} worker(s) registered at the scheduler, "
                                   f"{self.worker_num - have} worker(s) are missing.")
            if self.error is not None:
                raise RuntimeError(self.error)
        return self.me["index"], self.me["offset"], len(self.nodes)

    def _fail_all(self, message):
        self.error = message
        for node in self.nodes[1:]:
            try:
                send(node["conn"], {"op": "error", "message": message})
                node["conn"].close()
            except OSError:
                pass

    def _register(self, conn, reader, msg):
        with self.lock:
            if self.started.is_set() or self.error is not None:
                send(conn, {"op": "error", "message": "the job's nodes have all registered already; this node "
                                                      "is one too many."})
                conn.close()
                return
            if msg["worker_num"] != self.worker_num:
                self._fail_all(f"node_rank {msg['node_rank']} was started with worker_num {msg['worker_num']} but "
                               f"the scheduler's node with worker_num {self.worker_num}: every node must be given "
                               f"the same worker_num.")
                send(conn, {"op": "error", "message": self.error})
                return
            ranks = [n["node_rank"] for n in self.nodes]
            if (msg["node_rank"] == -1) != (self.me["node_rank"] == -1):
                self._fail_all("either every node or no node must be given --node_rank, but node_rank "
                               f"{msg['node_rank']} registered with a scheduler of node_rank {self.me['node_rank']}.")
                send(conn, {"op": "error", "message": self.error})
                return
            if msg["node_rank"] != -1 and msg["node_rank"] in ranks:
                self._fail_all(f"two nodes were started with node_rank {msg['node_rank']}: every node needs its "
                               f"own node_rank.")
                send(conn, {"op": "error", "message": self.error})
                return
            self.nodes.append({"node_rank": msg["node_rank"], "local_worker_num": msg["local_worker_num"],
                               "conn": conn, "reader": reader})
            total = sum(n["local_worker_num"] for n in self.nodes)
            if total > self.worker_num:
                self._fail_all(f"the local_worker_num of the nodes add up to {total} (node ranks "
                               f"{[n['node_rank'] for n in self.nodes]}: "
                               f"{[n['local_worker_num'] for n in self.nodes]}), more than worker_num "
                               f"{self.worker_num}.")
                return
            if total < self.worker_num:
                return
            order = self.nodes if self.me["node_rank"] == -1 else sorted(self.nodes, key=lambda n: n["node_rank"])
            offset = 0
            for index, node in enumerate(order):
                node["index"], node["offset"] = index, offset
                offset += node["local_worker_num"]
            for node in self.nodes[1:]:
                send(node["conn"], {"op": "start", "index": node["index"], "offset": node["offset"],
                                    "nodes": len(self.nodes)})
                threading.Thread(target=self._watch, args=(node,), daemon=True).start()
            self.started.set()

    def run(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        reader = LineReader(conn)
        try:
            msg = reader.read(timeout=30)
        except (OSError, ValueError):
            conn.close()
            return
        if msg is None:
            conn.close()
            return
        if msg["op"] == "register":
            self._register(conn, reader, msg)
        elif msg["op"] == "setport":
            with self.lock:
                self.port = msg["port"]
                self.port_ready.notify_all()
            conn.close()
        elif msg["op"] == "getport":
            with self.lock:
                while self.port is None and not self.closed:
                    self.port_ready.wait(1)
            try:
                send(conn, {"port": self.port})
            except OSError:
                pass
            conn.close()

    # -- watching -------------------------------------------------------------------------------------------
    def _watch(self, node):
        while True:
            try:
                msg = node["reader"].read()
            except (OSError, ValueError):
                msg = None
            if msg is None:
                if not node.get("done") and not self.closed:
                    self.events.append(("lost", node["node_rank"] if node["node_rank"] != -1 else node["index"]))
                return
            if msg["op"] == "done":
                node["done"] = True
            elif msg["op"] == "fail":
                self.events.append(("fail", msg))
                self.broadcast(msg, skip=node)

    def broadcast(self, msg, skip=None):
        for node in self.nodes[1:]:
            if node is not skip and "conn" in node:
                try:
                    send(node["conn"], msg)
                except OSError:
                    pass

    def all_done(self):
        return all(n.get("done") for n in self.nodes[1:])

    def close(self):
        self.closed = True
        with self.lock:
            self.port_ready.notify_all()
        try:
            self.listener.close()
        except OSError:
            pass
        for node in self.nodes[1:]:
            try:
                node["conn"].close()
            except (OSError, KeyError):
                pass


class Client(threading.Thread):
    """Another node's side: registers, then watches the server connection."""

    def __init__(self, addr, port, node_rank, worker_num, local_worker_num, time_out):
        super().__init__(daemon=True)
        self.addr, self.port = addr, port
        self.node_rank, self.worker_num, self.local_worker_num = node_rank, worker_num, local_worker_num
        self.time_out = time_out
        self.sock = None
        self.reader = None
        self.events = []
        self.closed = False

    def register(self):
        deadline = None if self.time_out < 0 else time.monotonic() + self.time_out
        while True:
            try:
                self.sock = socket.create_connection((self.addr, self.port), timeout=5)
                break
            except OSError as e:
                if deadline is not None and time.monotonic() > deadline:
                    raise RuntimeError(f"the scheduler (msrun of node 0) at {self.addr}:{self.port} could not be "
                                       f"reached within {self.time_out} seconds (--cluster_time_out): {e}.") from None
                time.sleep(0.2)
        self.reader = LineReader(self.sock)
        send(self.sock, {"op": "register", "node_rank": self.node_rank, "worker_num": self.worker_num,
                         "local_worker_num": self.local_worker_num})
        wait = None if self.time_out < 0 else self.time_out + 10
        try:
            msg = self.reader.read(timeout=wait)
        except (socket.timeout, ValueError):
            msg = None
        if msg is None:
            raise RuntimeError(f"the scheduler (msrun of node 0) at {self.addr}:{self.port} did not start the job "
                               f"(it ended, or not all nodes came).")
        if msg["op"] == "error":
            raise RuntimeError(msg["message"])
        self.start()
        return msg["index"], msg["offset"], msg["nodes"]

    def run(self):
        while True:
            try:
                msg = self.reader.read()
            except (OSError, ValueError):
                msg = None
            if msg is None:
                if not self.closed:
                    self.events.append(("lost", 0))
                return
            if msg["op"] == "fail":
                self.events.append(("fail", msg))

    def tell(self, msg):
        try:
            send(self.sock, msg)
        except OSError:
            pass

    def close(self):
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass
