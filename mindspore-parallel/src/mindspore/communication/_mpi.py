"""The MPI collective backend (mpi4py): joins the processes started by ``mpiexec``.

Design
------
Collectives work on host NumPy arrays and return new arrays. Data moves through mpi4py's buffer interface
(``Allreduce``, ``Allgather``, ``Reduce_scatter_block``, ``Alltoall``, ``Bcast``, ``Send``/``Recv`` ...), never
by pickling: reductions use the typed buffer (float16, bfloat16 and bool reduce in a wider type, which MPI has
ops for), everything that only moves data goes as raw bytes, so every dtype (bfloat16 included) works.

**Mismatch check.** A collective whose ranks pass different shapes, dtypes or reductions, or call different
collectives, would hang or return garbage in MPI. Before the data moves, every rank contributes one row of 14
int64 (collective, reduction, dtype, rank, shape, a digest of the whole argument list) to one small ``Allgather``
on the same communicator; every rank compares all rows and, on a difference, raises the same error naming the
ranks and what they passed. It costs one latency-bound collective of 112 bytes per rank (a few microseconds on
one host; ``benchmarks/bench_allreduce.py`` measures it), and :data:`CHECK` (environment ``MS_COMM_CHECK=0``)
turns it off. Point-to-point messages carry the same row as a header message before the data (ordered, same tag);
the receiver compares it with what it expects and raises on a mismatch (a message longer than expected is
consumed truncated, so the sender is never left blocked).

The world is ``MPI.COMM_WORLD``, or under msrun over several nodes the nodes' worlds merged into one
(:func:`msrun_world`). The local (same-node) rank and size come from splitting the node's launcher world
(``MPI.COMM_WORLD``) by shared memory. GPU buffers use the NCCL
communicator of the same group (:meth:`MPICommunicator.nccl`), created on first use with its unique id
broadcast over this communicator.
"""
import collections
import os
import queue
import sys
import threading
import zlib

import numpy as np

from mindspore.plugin import MSRuntimeError, MSValueError

_OPS = ("sum", "max", "min", "prod")

#: Check shapes/dtypes/collective across the ranks before every collective (``MS_COMM_CHECK=0``: off).
CHECK = os.environ.get("MS_COMM_CHECK", "1") != "0"

_META = 14          # kind, op, dtype, rank, ndim, 8 dims, digest
_MAX_DIMS = 8
_NAMES = {}         # code -> dtype name, for the point-to-point error messages


def _code(text):
    return zlib.crc32(text.encode()) & 0x7FFFFFFF


for _name in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
              "float32", "float64", "bfloat16", "complex64", "complex128"):
    _NAMES[_code(_name)] = _name
del _name


def _bytes(a):
    """A contiguous uint8 view of array ``a`` (any dtype, 0-d included)."""
    return np.asarray(a, order="C").reshape(-1).view(np.uint8)


def _describe(row):
    ndim = int(row[4])
    shape = tuple(int(d) for d in row[5:5 + min(ndim, _MAX_DIMS)])
    return f"shape {shape} dtype {_NAMES.get(int(row[2]), '?')}"


def _v_args(arg, sizes, have, want, rank):
    """The check's arguments of a ``V`` collective: the sizes, and this rank's own length when it is wrong (so that
    the ranks' rows differ and every rank reports it)."""
    text = f"{arg}={list(sizes)}"
    return text if have == want else f"{text}, but rank {rank} passed {have} elements instead of {want}"


def _signature(arrays):
    return ", ".join(f"shape {tuple(a.shape)} dtype {np.dtype(a.dtype).name}" for a in arrays)


class _BufferPool:
    """Output buffers of the collectives, reused once nothing refers to them any more.

    A collective returns a new array, and a fresh large array costs page faults on every call (on 2 cores a
    1 MB all-reduce into a new buffer runs at a fraction of the speed of one into a reused buffer). Training
    all-reduces the same shapes every step, so outputs of 64 KiB and more are kept here (at most ``LIMIT``
    bytes, least recently used dropped first) and handed out again when CPython's reference count says that
    only this pool holds them: every view, Tensor or exported buffer of an array holds a reference to it, so
    a count at the pool's own baseline means no one can see the data being overwritten.
    """

    MIN_BYTES = 1 << 16
    LIMIT = 1 << 30
    PER_KEY = 4

    def __init__(self):
        self._pool = collections.OrderedDict()   # (shape, dtype) -> [arrays]
        self._bytes = 0
        self._lock = threading.Lock()
        probe = [np.empty(1)]
        self._free_count = next(sys.getrefcount(a) for a in probe)   # list + loop variable + the call's argument

    def empty(self, shape, dtype):
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape)) * dtype.itemsize
        if nbytes < self.MIN_BYTES:
            return np.empty(shape, dtype)
        with self._lock:
            return self._take(tuple(shape), dtype, nbytes)

    def _take(self, shape, dtype, nbytes):
        key = (shape, dtype.str)
        arrays = self._pool.get(key)
        if arrays is not None:
            self._pool.move_to_end(key)
            for a in arrays:
                if sys.getrefcount(a) == self._free_count:
                    return a
        if arrays is None:
            arrays = self._pool[key] = []
        out = np.empty(shape, dtype)
        if len(arrays) < self.PER_KEY and nbytes <= self.LIMIT:
            arrays.append(out)
            self._bytes += nbytes
            while self._bytes > self.LIMIT:
                old_key, old = self._pool.popitem(last=False)
                self._bytes -= sum(a.nbytes for a in old)
        return out


_BUFFERS = _BufferPool()
_ROWS = {}


def _row_of(name, arrays, args):
    """This rank's row of the check for a collective (cached: the same call signature gives the same row)."""
    key = (name, args, tuple((a.shape, a.dtype) for a in arrays))
    row = _ROWS.get(key)
    if row is None:
        if len(_ROWS) > 4096:
            _ROWS.clear()
        row = _ROWS[key] = _Meta.row(name, list(arrays), args)
    return row


class _Meta:
    """One rank's row of the mismatch check."""

    @staticmethod
    def row(name, arrays, args=None, rank=-1):
        """The row (``rank`` only set in point-to-point headers, so that a collective's rows are all equal)."""
        row = np.zeros(_META, np.int64)
        first = arrays[0] if arrays else None
        row[0] = _code(name)
        row[1] = _code(args or "-")
        row[3] = rank
        if first is not None:
            row[2] = _code(np.dtype(first.dtype).name)
            row[4] = first.ndim
            dims = first.shape[:_MAX_DIMS]
            row[5:5 + len(dims)] = dims
        row[13] = _code(_signature(arrays))
        return row


class MPIRequest:
    """A nonblocking send or receive: :meth:`wait` completes it (a receive returns the array)."""

    def __init__(self, requests, finish=None, keep=()):
        self._requests = requests
        self._finish = finish
        self._keep = keep            # buffers that must live until the transfer completes
        self._result = None
        self._done = False

    def wait(self):
        if not self._done:
            from mpi4py import MPI
            error = None
            try:
                MPI.Request.Waitall(self._requests)
            except MPI.Exception as exc:   # a receive truncated by a longer message: reported by finish
                error = exc
            self._done = True
            self._keep = ()
            if self._finish is not None:
                self._result = self._finish(error)
            elif error is not None:
                raise error
        return self._result

    def is_completed(self):
        from mpi4py import MPI
        return self._done or MPI.Request.Testall(self._requests)


class _CommThread:
    """A thread running blocking all-reduces on its own communicator, in the order they were queued."""

    def __init__(self, comm):
        self.comm = comm
        self.jobs = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="ms-allreduce", daemon=True)
        self.thread.start()

    def _run(self):
        while True:
            src, out, op, done = self.jobs.get()
            try:
                self.comm.Allreduce(src, out, op=op)
                done.append(None)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting kernel
                done.append(exc)
            done[0].set()


class MPICommunicator:
    """One MPI communicator: the world, or a user group made by :meth:`create_group`."""

    def __init__(self, comm, owns=False, label="the world group"):
        from mpi4py import MPI
        self._mpi = MPI
        self.comm = comm
        self._owns = owns
        self.label = label           # how the error messages name the group
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self._nccl = None
        self._rows = None            # the check's receive buffer
        self._comm_thread = None     # allreduce_start's thread, made by the first start
        self._inflight = []          # allreduce_start's requests not seen complete yet (a group of 2)

    # -- helpers ----------------------------------------------------------------------------------
    def _op(self, op, name="AllReduce"):
        if op not in _OPS:
            raise MSValueError(f"For '{name}', the 'op' must be one of {list(_OPS)}, but got {op!r}.")
        return getattr(self._mpi, op.upper())

    def check(self, name, arrays, args=None):
        """The mismatch check: raise the same error on every rank when the ranks' rows differ (``args``: the
        collective's arguments that must agree, as text, e.g. ``"op=sum"``)."""
        if not CHECK:
            return
        mine = _row_of(name, arrays, args)
        rows = self._rows
        if rows is None:
            rows = self._rows = np.empty((self.size, _META), np.int64)
        self.comm.Allgather(mine, rows)
        if rows.tobytes() == mine.tobytes() * self.size:
            return
        # Every rank saw the same rows, so every rank is here: one more (pickled, error-path only) allgather
        # brings each rank's own description for the message.
        said = self.comm.allgather((name, args or "", _signature(arrays)))
        j = next(r for r in range(1, self.size) if (rows[r] != rows[0]).any())
        if said[j][0] != said[0][0]:
            raise MSRuntimeError(f"For '{name}', every rank of {self.label} must call the same collective, but rank 0 "
                                 f"called '{said[0][0]}' and rank {j} called '{said[j][0]}'.")
        if said[j][1] != said[0][1]:
            raise MSValueError(f"For '{name}', the arguments must be the same on every rank of {self.label}, but got "
                               f"'{said[0][1]}' on rank 0 and '{said[j][1]}' on rank {j}.")
        raise MSValueError(f"For '{name}', the 'x' shape and dtype must be the same on every rank of {self.label}, "
                           f"but got {said[0][2]} on rank 0 and {said[j][2]} on rank {j}.")

    def _typed(self, array):
        """``array`` in a type MPI reduces (float16/bfloat16 -> float32, bool -> int32), and the way back."""
        src = np.asarray(array, order="C")
        kind = src.dtype.name
        if kind in ("float16", "bfloat16"):
            return src.astype(np.float32), lambda r: r.astype(src.dtype)
        if kind == "bool":
            return src.astype(np.int32), lambda r: r != 0
        return src, None

    # -- collectives ------------------------------------------------------------------------------
    def allreduce(self, array, op="sum", name="AllReduce"):
        mpi_op = self._op(op, name)
        self.check(name, (array,), f"op={op}")
        src, back = self._typed(array)
        out = _BUFFERS.empty(src.shape, src.dtype)
        self.comm.Allreduce(src, out, op=mpi_op)
        return back(out) if back else out

    def allreduce_start(self, array, op="sum", name="AllReduce", check=True):
        """Start :meth:`allreduce` of ``array``; returns ``(receive buffer, wait)``, ``wait()`` giving the result
        once done. The call is checked here, like :meth:`allreduce` (``check=False``: the caller has made sure that
        every rank starts the same shapes in the same order, e.g. once for a fixed plan of buffers; a check is a
        blocking allgather, a point where every rank waits for the slowest). Each start also lets MPI progress the
        reductions started before (a test of their requests), so that they advance while the caller computes.
        Results are bitwise :meth:`allreduce`'s:

        * in a group of 2, an ``MPI_Iallreduce`` that ``wait`` completes: a reduction of two values does not depend
          on the order of its operands (IEEE addition, max, min and multiplication commute exactly). (MPICH's
          nonblocking one cost about twice its blocking one on the 2-core development machine: 25-45 ms against
          15-28 ms for ten 4 MB buffers with nothing else to do; an exchange of the buffers with nonblocking sends
          and receives plus a local addition cost about the blocking one's time alone, but no less than this in
          training, so the simpler call stayed);
        * in a larger group, where a nonblocking algorithm may sum in another order, the same blocking
          ``MPI_Allreduce``, run by this communicator's communication thread on a duplicate of the communicator
          (made by the first start: every rank makes it at the same point of the same program), in the order
          the jobs were started.

        (See ``mindspore.parallel._overlap`` for what each gave on 2 ranks.)
        """
        mpi_op = self._op(op, name)
        if check:
            self.check(name, (array,), f"op={op}")
        src, back = self._typed(array)
        src = np.ascontiguousarray(src)
        out = _BUFFERS.empty(src.shape, src.dtype)   # held by ``wait`` (and its caller) until the result is used
        if self.size == 2:
            inflight = self._inflight
            if inflight:   # progress the reductions started before (MPICH advances them inside MPI calls only)
                self._mpi.Request.Testall(inflight)
                inflight[:] = [r for r in inflight if r != self._mpi.REQUEST_NULL]
            request = self.comm.Iallreduce(src, out, op=mpi_op)
            inflight.append(request)
            keep = (request, src)   # the send buffer lives until the reduction is done

            def wait_request():
                keep[0].Wait()
                return back(out) if back else out
            return out, wait_request
        done = [threading.Event()]
        if self._comm_thread is None:
            self._comm_thread = _CommThread(self.comm.Dup())
        self._comm_thread.jobs.put((src, out, mpi_op, done))

        def wait_thread():
            done[0].wait()
            if done[1] is not None:
                raise done[1]
            return back(out) if back else out
        return out, wait_thread

    def allgather(self, array):
        """Every process's ``array`` stacked along a new leading axis of length ``size`` (no check)."""
        src = np.asarray(array, order="C")
        out = _BUFFERS.empty((self.size,) + src.shape, src.dtype)
        self.comm.Allgather(_bytes(src), _bytes(out))
        return out

    def all_gather(self, array, name="AllGather"):
        """Every process's ``array`` concatenated along axis 0, in rank order."""
        self.check(name, (array,))
        out = self.allgather(array)
        return out.reshape((self.size * out.shape[1],) + out.shape[2:])

    def reduce_scatter(self, array, op="sum", name="ReduceScatter"):
        """``array`` reduced over the ranks and split along axis 0: this rank's piece."""
        mpi_op = self._op(op, name)
        self.check(name, (array,), f"op={op}")
        src, back = self._typed(array)
        out = _BUFFERS.empty((src.shape[0] // self.size,) + src.shape[1:], src.dtype)
        self.comm.Reduce_scatter_block(src, out, op=mpi_op)
        return back(out) if back else out

    def all_gather_v(self, array, sizes, name="AllGatherV"):
        """Every rank's 1-D ``array`` (rank ``i``'s of ``sizes[i]`` elements) concatenated in rank order."""
        src = np.asarray(array, order="C").reshape(-1)
        self.check(name, (np.empty(0, src.dtype),), _v_args("output_split_sizes", sizes, src.size,
                                                             sizes[self.rank], self.rank))
        out = np.empty(sum(sizes), src.dtype)
        counts = [int(s) * src.dtype.itemsize for s in sizes]
        displs = np.cumsum([0] + counts[:-1]).tolist()
        self.comm.Allgatherv(_bytes(src), [_bytes(out), counts, displs, self._mpi.BYTE])
        return out

    def reduce_scatter_v(self, array, sizes, op="sum", name="ReduceScatterV"):
        """The 1-D ``array`` reduced over the ranks, cut into pieces of ``sizes``: this rank's piece."""
        mpi_op = self._op(op, name)
        self.check(name, (array,), f"op={op}, input_split_sizes={list(sizes)}")
        if array.size != sum(sizes):    # the same on every rank: the check compared the shapes
            raise MSValueError(f"For '{name}', the 'x' must have sum(input_split_sizes) = {sum(sizes)} elements, "
                               f"but got shape {tuple(array.shape)}.")
        src, back = self._typed(array)
        out = np.empty(sizes[self.rank], src.dtype)
        self.comm.Reduce_scatter(src.reshape(-1), out, recvcounts=[int(s) for s in sizes], op=mpi_op)
        return back(out) if back else out

    def alltoall(self, array, split_dim, concat_dim, name="AlltoAll"):
        """Piece ``j`` of ``array`` along ``split_dim`` to rank ``j``; the received pieces joined along
        ``concat_dim`` in rank order."""
        self.check(name, (array,), f"split_dim={split_dim}, concat_dim={concat_dim}")
        send = np.stack(np.split(np.asarray(array), self.size, axis=split_dim))
        recv = np.empty_like(send)
        self.comm.Alltoall(_bytes(send), _bytes(recv))
        return np.concatenate(list(recv), axis=concat_dim)

    def broadcast(self, array, root=0, name="Broadcast"):
        """``root``'s ``array`` on every rank (a new array)."""
        self.check(name, (array,), f"root={root}")
        buf = np.array(array, copy=True, order="C")
        self.comm.Bcast(_bytes(buf), root=root)
        return buf

    def broadcast_many(self, arrays, root=0, name="Broadcast"):
        """``root``'s arrays on every rank (new arrays), checked once for the whole list."""
        self.check(name, arrays, f"root={root}")
        out = []
        for a in arrays:
            buf = np.array(a, copy=True, order="C")
            self.comm.Bcast(_bytes(buf), root=root)
            out.append(buf)
        return tuple(out)

    def reduce(self, array, root=0, op="sum", name="Reduce"):
        """``array`` reduced onto ``root``; zeros on the other ranks."""
        mpi_op = self._op(op, name)
        self.check(name, (array,), f"op={op}, root={root}")
        src, back = self._typed(array)
        out = np.empty_like(src) if self.rank == root else None
        self.comm.Reduce(src, out, op=mpi_op, root=root)
        if self.rank != root:
            return np.zeros_like(np.asarray(array))
        return back(out) if back else out

    def gather(self, array, root=0, name="CollectiveGather"):
        """Every rank's ``array`` concatenated along axis 0 on ``root``; zeros of that shape elsewhere."""
        self.check(name, (array,), f"root={root}")
        src = np.asarray(array, order="C")
        out = np.zeros((self.size * src.shape[0],) + src.shape[1:], src.dtype)
        self.comm.Gather(_bytes(src), _bytes(out) if self.rank == root else None, root=root)
        return out

    def scatter(self, array, root=0, name="CollectiveScatter"):
        """``root``'s ``array`` split along axis 0; this rank's piece."""
        self.check(name, (array,), f"root={root}")
        src = np.asarray(array, order="C")
        out = np.empty((src.shape[0] // self.size,) + src.shape[1:], src.dtype)
        self.comm.Scatter(_bytes(src) if self.rank == root else None, _bytes(out), root=root)
        return out

    def barrier(self):
        self.comm.Barrier()

    # -- point to point ---------------------------------------------------------------------------
    def _check_peer(self, name, arg, peer):
        if not 0 <= peer < self.size or (peer == self.rank and self.size > 1):
            raise MSValueError(f"For '{name}', the '{arg}' must be another rank of {self.label}, in "
                               f"[0, {self.size}) and not this process's rank {self.rank}, but got {peer}.")

    def _tag(self, tag):
        """``tag`` folded into MPI's tag range: MindSpore's ``sr_tag`` may be any int32 (AdaSum hashes its tags to
        ``[0, 2**31)``), while MPI only guarantees ``[0, MPI_TAG_UB]`` (MPICH: 2**29 - 1). Both peers fold alike."""
        upper = self.comm.Get_attr(self._mpi.TAG_UB) or 32767
        return int(tag) % (upper + 1)

    def isend(self, array, dest, tag=0, name="Send"):
        """Start sending ``array`` to ``dest``; returns an :class:`MPIRequest`."""
        self._check_peer(name, "dest_rank", dest)
        tag = self._tag(tag)
        src = np.asarray(array, order="C")
        header = _Meta.row("p2p", [src], None, self.rank)
        data = _bytes(src)
        reqs = [self.comm.Isend(header, dest=dest, tag=tag), self.comm.Isend(data, dest=dest, tag=tag)]
        return MPIRequest(reqs, keep=(header, data, src))

    def send(self, array, dest, tag=0, name="Send"):
        self.isend(array, dest, tag, name).wait()

    def irecv(self, shape, dtype, src, tag=0, name="Receive"):
        """Start receiving an array of ``shape``/``dtype`` from ``src``; ``wait()`` returns it."""
        self._check_peer(name, "src_rank", src)
        tag = self._tag(tag)
        out = np.empty(tuple(shape), dtype)
        header = np.zeros(_META, np.int64)
        expect = _Meta.row("p2p", [out], None, src)
        data = _bytes(out)
        reqs = [self.comm.Irecv(header, source=src, tag=tag), self.comm.Irecv(data, source=src, tag=tag)]
        fields = [2, 4] + list(range(5, 13))

        def finish(error):
            if error is not None or not np.array_equal(header[fields], expect[fields]):
                raise MSValueError(f"For '{name}', the tensor received from rank {src} of {self.label} (tag {tag}) "
                                   f"must have the shape and dtype the receiver expects, {_describe(expect)}, but "
                                   f"the sender sent {_describe(header)}.")
            return out

        request = MPIRequest(reqs, finish, keep=(header, data))
        request.buffer = out         # filled once wait() returned
        return request

    def recv(self, shape, dtype, src, tag=0, name="Receive"):
        return self.irecv(shape, dtype, src, tag, name).wait()

    def exchange(self, sends, recvs, name="Exchange"):
        """Send ``(array, peer, tag)`` of ``sends`` and receive ``(shape, dtype, peer, tag)`` of ``recvs``, all
        posted before any is waited on (so any pattern of neighbours completes); returns the received arrays in
        ``recvs`` order. Messages to this rank itself are matched locally, in order per tag; messages between two
        ranks with the same tag are matched in the order posted."""
        local = {}
        for array, peer, tag in sends:
            if peer == self.rank:
                local.setdefault(tag, []).append(np.array(array, copy=True))
        posted = []
        for shape, dtype, peer, tag in recvs:
            if peer == self.rank:
                mine = local.get(tag)
                if not mine:
                    raise MSValueError(f"For '{name}', rank {self.rank} receives from itself (tag {tag}) more than "
                                       f"it sends itself.")
                posted.append(mine.pop(0))
            else:
                posted.append(self.irecv(shape, dtype, peer, tag, name))
        outgoing = [self.isend(array, peer, tag, name) for array, peer, tag in sends if peer != self.rank]
        out = [p if isinstance(p, np.ndarray) else p.wait() for p in posted]
        for request in outgoing:
            request.wait()
        for (shape, dtype, _, _), got in zip(recvs, out):
            if got.shape != tuple(shape) or got.dtype != np.dtype(dtype):
                raise MSValueError(f"For '{name}', rank {self.rank} sends itself shape {got.shape} dtype {got.dtype}, "
                                   f"but expects shape {tuple(shape)} dtype {np.dtype(dtype)}.")
        return out

    # -- devices ----------------------------------------------------------------------------------
    def nccl(self):
        """The NCCL communicator over the same ranks (made on first use; collective over this group), or None
        when NCCL (CuPy's ``cupy.cuda.nccl``) is unavailable."""
        if self._nccl is None:
            from mindspore.communication import _nccl
            self._nccl = _nccl.NCCLCommunicator.create(self) or False
        return self._nccl or None

    def free(self):
        if self._owns and self.comm != self._mpi.COMM_NULL:
            self.comm.Free()


def _rendezvous(addr, message, timeout=None):
    """One request to msrun's rendezvous service (``mindspore.parallel.cluster._rendezvous``)."""
    import json
    import socket
    host, port = addr.rsplit(":", 1)
    with socket.create_connection((host.strip("[]"), int(port)), timeout=30) as sock:
        sock.sendall((json.dumps(message) + "\n").encode())
        if message["op"] != "getport":
            return None
        sock.settimeout(timeout)
        data = b""
        while not data.endswith(b"\n"):
            chunk = sock.recv(65536)
            if not chunk:
                raise MSRuntimeError(f"For 'init', msrun's rendezvous at {addr} closed before it gave the MPI port "
                                     f"of node 0.")
            data += chunk
    return json.loads(data)["port"]


def msrun_world(MPI):
    """The world communicator: ``MPI.COMM_WORLD``, or, under msrun over several nodes (``MSRUN_NODES`` > 1), the
    launchers' worlds of the nodes merged in node order with MPI's dynamic-process calls. Rank 0 of node 0 opens
    one MPI port per other node and gives their names to msrun's rendezvous; local rank 0 of every other node
    gets them there. Then, for n = 1, 2, ...: every rank already merged takes part in ``Accept`` on node n's port,
    node n's ranks in ``Connect`` to it, and ``Merge`` puts node n's ranks after them, so that world rank = node
    offset + local rank. (One port per node: the nodes not merged yet all wait in ``Connect`` at once, and on a
    shared port the ``Accept`` of node n's turn could take node n + 1.)"""
    nodes = int(os.environ.get("MSRUN_NODES", "1") or 1)
    addr = os.environ.get("MSRUN_RDZV")
    if nodes <= 1 or not addr:
        return MPI.COMM_WORLD
    node = int(os.environ["MSRUN_NODE_INDEX"])
    local = MPI.COMM_WORLD
    ports = None
    if local.Get_rank() == 0:
        if node == 0:
            ports = [MPI.Open_port() for _ in range(1, nodes)]
            _rendezvous(addr, {"op": "setport", "port": ports})
        else:
            ports = _rendezvous(addr, {"op": "getport"})
            if ports is None:
                raise MSRuntimeError(f"For 'init', msrun's rendezvous at {addr} ended before node 0 gave its MPI "
                                     f"ports.")
    ports = local.bcast(ports, root=0)
    comm = local
    for n in range(1, nodes):
        if node < n:
            inter = comm.Accept(ports[n - 1], root=0)
        elif node == n:
            inter = local.Connect(ports[n - 1], root=0)
        else:
            continue
        merged = inter.Merge(high=node == n)
        inter.Disconnect()
        if comm is not local:
            comm.Free()
        comm = merged
    if node == 0 and local.Get_rank() == 0:
        for port in ports:
            MPI.Close_port(port)
    return comm


class MPIBackend(MPICommunicator):
    """The world communicator, with local rank/size and user-group creation."""

    def __init__(self):
        from mpi4py import MPI
        world = msrun_world(MPI)
        super().__init__(world, owns=world is not MPI.COMM_WORLD)
        # the node-local group: this node's launcher's world split by shared memory (several msrun nodes on one
        # host stay separate nodes)
        local = MPI.COMM_WORLD.Split_type(MPI.COMM_TYPE_SHARED, key=MPI.COMM_WORLD.Get_rank())
        self.local_rank = local.Get_rank()
        self.local_size = local.Get_size()
        local.Free()

    def create_group(self, rank_ids, name=None):
        """A communicator over world ranks ``rank_ids`` (call on the member processes only)."""
        group = self.comm.Get_group().Incl(list(rank_ids))
        sub = self.comm.Create_group(group)
        group.Free()
        label = f"the group '{name}'" if name else f"the group of world ranks {list(rank_ids)}"
        return MPICommunicator(sub, owns=True, label=label)

    def finalize(self):
        """Nothing to do: mpi4py finalizes MPI at interpreter exit."""
