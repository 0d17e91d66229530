"""NCCL communicators (CuPy's ``cupy.cuda.nccl``) for collectives on GPU buffers.

Design
------
One :class:`NCCLCommunicator` per MPI communicator, made on the first GPU collective of its group by
:meth:`mindspore.communication._mpi.MPICommunicator.nccl`: rank 0 draws NCCL's unique id and broadcasts it over the
group's MPI communicator (as CuPy returns it: bytes in CuPy 14), then every rank joins ``NcclCommunicator(size,
id, rank)`` on its current device. All ranks first agree (one MPI all-reduce of a flag) on whether NCCL imports
everywhere, so that either every rank uses NCCL or every rank falls back to MPI over host copies (the GPU kernels
warn once when they do).

Data never leaves the device: operations run on the current CuPy stream on device pointers, except the gradient
all-reduces started while the backward pass runs (``allreduce_start``), which run on the communicator's own stream.
Reductions use the array's own NCCL type (bool reduces in int32); everything that only moves data goes as bytes.
Shapes and dtypes are checked across the ranks over MPI before the data moves (``MPICommunicator.check``), so a
mismatch is an error on every rank. ``alltoall``, ``gather`` and ``scatter`` are grouped NCCL sends and receives.
A point-to-point send first sends its shape/dtype header over MPI and waits for the receiver's verdict, so a
mismatch is an error on both ranks and never leaves a NCCL send waiting on the device.
"""
import numpy as np

_NCCL_TYPES = {"int8": "NCCL_INT8", "uint8": "NCCL_UINT8", "int32": "NCCL_INT32", "uint32": "NCCL_UINT32",
               "int64": "NCCL_INT64", "uint64": "NCCL_UINT64", "float16": "NCCL_FLOAT16", "float32": "NCCL_FLOAT32",
               "float64": "NCCL_FLOAT64", "bfloat16": "NCCL_BFLOAT16"}
_NCCL_OPS = {"sum": "NCCL_SUM", "prod": "NCCL_PROD", "max": "NCCL_MAX", "min": "NCCL_MIN"}


def nccl_module():
    """CuPy's NCCL binding, or None when CuPy or its NCCL support is missing."""
    try:
        from cupy.cuda import nccl
    except Exception:  # noqa: BLE001 - no CuPy, no CUDA, or CuPy built without NCCL
        return None
    return nccl if getattr(nccl, "available", True) else None


class NCCLCommunicator:
    """NCCL over the ranks of one MPI communicator (``mpi``): methods take and return CuPy arrays."""

    def __init__(self, comm, mpi, nccl, cupy):
        self.comm = comm
        self.mpi = mpi
        self.rank = mpi.rank
        self.size = mpi.size
        self._nccl = nccl
        self._cupy = cupy
        self._start_stream = None   # allreduce_start's stream, made by the first start
        self._last_start = None     # the event after the last started reduction

    @classmethod
    def create(cls, mpi):
        """Join NCCL over ``mpi``'s ranks (collective over them); None when any rank lacks NCCL."""
        from mpi4py import MPI
        nccl = nccl_module()
        ok = np.array([1 if nccl is not None else 0], np.int32)
        mpi.comm.Allreduce(MPI.IN_PLACE, ok, op=MPI.MIN)
        if not ok[0]:
            return None
        import cupy
        # the id as CuPy gives it (128 bytes in CuPy 14, a tuple of ints before), passed on unchanged: every rank
        # runs the same CuPy
        uid = mpi.comm.bcast(nccl.get_unique_id() if mpi.rank == 0 else None, root=0)
        comm = nccl.NcclCommunicator(mpi.size, uid, mpi.rank)
        return cls(comm, mpi, nccl, cupy)

    # -- helpers ----------------------------------------------------------------------------------
    def _stream(self):
        """The current stream's handle, made to wait for the reductions started on the start stream first (NCCL
        runs the collectives of one communicator one at a time, in the order every rank enqueues them)."""
        stream = self._cupy.cuda.get_current_stream()
        if self._last_start is not None:
            stream.wait_event(self._last_start)
        return stream.ptr

    @staticmethod
    def _ptr(a):
        return a.data.ptr

    def _type(self, dtype, name):
        key = np.dtype(dtype).name
        attr = _NCCL_TYPES.get(key)
        if attr is None or not hasattr(self._nccl, attr):
            from mindspore.plugin import MSTypeError
            raise MSTypeError(f"For '{name}', NCCL cannot reduce dtype {key}.")
        return getattr(self._nccl, attr)

    def _typed(self, x):
        """``x`` in a type NCCL reduces (bool -> int32), and the way back."""
        x = self._cupy.asarray(x, order="C")
        if x.dtype == np.bool_:
            return x.astype(np.int32), lambda r: r != 0
        return x, None

    def _bytes(self, x):
        return self._cupy.asarray(x, order="C").reshape(-1).view(np.uint8)

    # -- collectives ------------------------------------------------------------------------------
    def allreduce(self, x, op="sum", name="AllReduce"):
        self.mpi.check(name, (x,), f"op={op}")
        src, back = self._typed(x)
        out = self._cupy.empty_like(src)
        self.comm.allReduce(self._ptr(src), self._ptr(out), src.size, self._type(src.dtype, name),
                            getattr(self._nccl, _NCCL_OPS[op]), self._stream())
        return back(out) if back else out

    def allreduce_start(self, x, op="sum", name="AllReduce", check=True):
        """Start :meth:`allreduce` of ``x`` on this communicator's own stream, so that the reduction runs while the
        caller's stream goes on (the rest of the backward pass); returns ``(receive buffer, wait)``, where ``wait()``
        makes the caller's current stream wait for the reduction and returns the result. ``check`` as for the MPI
        communicator's start. The start stream first waits for the work queued on the caller's stream (``x``'s
        producers); ``x`` is kept alive until ``wait`` (freed earlier, its memory could be reused by the caller's
        stream while NCCL still reads it). The receive buffer is allocated on the caller's stream before that wait,
        so its previous users are done before NCCL writes it. Collectives of this communicator issued later on
        other streams wait for the started ones (:meth:`_stream`). Results are bitwise :meth:`allreduce`'s: the
        same NCCL call on the same buffers."""
        if check:
            self.mpi.check(name, (x,), f"op={op}")
        cp = self._cupy
        src, back = self._typed(x)
        out = cp.empty_like(src)
        caller = cp.cuda.get_current_stream()
        if self._start_stream is None:
            self._start_stream = cp.cuda.Stream(non_blocking=True)
        stream = self._start_stream
        stream.wait_event(caller.record())
        self.comm.allReduce(self._ptr(src), self._ptr(out), src.size, self._type(src.dtype, name),
                            getattr(self._nccl, _NCCL_OPS[op]), stream.ptr)
        done = stream.record()
        self._last_start = done
        keep = [src]

        def wait():
            cp.cuda.get_current_stream().wait_event(done)
            keep.clear()
            return back(out) if back else out
        return out, wait

    def all_gather(self, x, name="AllGather"):
        self.mpi.check(name, (x,))
        src = self._bytes(x)
        out = self._cupy.empty((self.size,) + x.shape, x.dtype)
        self.comm.allGather(src.data.ptr, out.data.ptr, src.size, self._nccl.NCCL_UINT8, self._stream())
        return out.reshape((self.size * x.shape[0],) + x.shape[1:])

    def reduce_scatter(self, x, op="sum", name="ReduceScatter"):
        self.mpi.check(name, (x,), f"op={op}")
        src, back = self._typed(x)
        out = self._cupy.empty((src.shape[0] // self.size,) + src.shape[1:], src.dtype)
        self.comm.reduceScatter(src.data.ptr, out.data.ptr, out.size, self._type(src.dtype, name),
                                getattr(self._nccl, _NCCL_OPS[op]), self._stream())
        return back(out) if back else out

    def all_gather_v(self, x, sizes, name="AllGatherV"):
        from mindspore.communication._mpi import _v_args
        src = self._cupy.asarray(x, order="C").reshape(-1)
        self.mpi.check(name, (np.empty(0, src.dtype),), _v_args("output_split_sizes", sizes, src.size,
                                                                 sizes[self.rank], self.rank))
        out = self._cupy.empty(sum(sizes), src.dtype)
        offs = np.cumsum([0] + list(sizes)).tolist()
        sends = [(j, src.view(np.uint8)) for j in range(self.size)] if src.size else []
        recvs = [(j, out[offs[j]:offs[j + 1]].view(np.uint8)) for j in range(self.size) if sizes[j]]
        self._exchange(sends, recvs)
        return out

    def reduce_scatter_v(self, x, sizes, op="sum", name="ReduceScatterV"):
        from mindspore.plugin import MSValueError
        self.mpi.check(name, (x,), f"op={op}, input_split_sizes={list(sizes)}")
        if x.size != sum(sizes):
            raise MSValueError(f"For '{name}', the 'x' must have sum(input_split_sizes) = {sum(sizes)} elements, "
                               f"but got shape {tuple(x.shape)}.")
        src, back = self._typed(x)
        src = src.reshape(-1)
        out = self._cupy.empty(sizes[self.rank], src.dtype)
        offs = np.cumsum([0] + list(sizes)).tolist()
        dtype, nccl_op, stream = self._type(src.dtype, name), getattr(self._nccl, _NCCL_OPS[op]), self._stream()
        self._nccl.groupStart()
        try:
            for j in range(self.size):
                if sizes[j]:
                    piece = src[offs[j]:offs[j + 1]]
                    self.comm.reduce(piece.data.ptr, out.data.ptr, sizes[j], dtype, nccl_op, j, stream)
        finally:
            self._nccl.groupEnd()
        return back(out) if back else out

    def broadcast_many(self, xs, root=0, name="Broadcast"):
        self.mpi.check(name, xs, f"root={root}")
        out = []
        for x in xs:
            buf = self._cupy.array(x, copy=True, order="C")
            flat = buf.reshape(-1).view(np.uint8)
            self.comm.bcast(flat.data.ptr, flat.size, self._nccl.NCCL_UINT8, root, self._stream())
            out.append(buf)
        return tuple(out)

    def reduce(self, x, root=0, op="sum", name="Reduce"):
        self.mpi.check(name, (x,), f"op={op}, root={root}")
        src, back = self._typed(x)
        out = self._cupy.empty_like(src)
        self.comm.reduce(src.data.ptr, out.data.ptr, src.size, self._type(src.dtype, name),
                         getattr(self._nccl, _NCCL_OPS[op]), root, self._stream())
        if self.rank != root:
            return self._cupy.zeros_like(x)
        return back(out) if back else out

    def _exchange(self, sends, recvs):
        """Grouped NCCL sends ``(peer, bytes)`` and receives ``(peer, bytes)``, on the current stream."""
        stream = self._stream()
        self._nccl.groupStart()
        try:
            for peer, buf in sends:
                self.comm.send(buf.data.ptr, buf.size, self._nccl.NCCL_UINT8, peer, stream)
            for peer, buf in recvs:
                self.comm.recv(buf.data.ptr, buf.size, self._nccl.NCCL_UINT8, peer, stream)
        finally:
            self._nccl.groupEnd()

    def alltoall(self, x, split_dim, concat_dim, name="AlltoAll"):
        self.mpi.check(name, (x,), f"split_dim={split_dim}, concat_dim={concat_dim}")
        cp = self._cupy
        send = cp.ascontiguousarray(cp.stack(cp.split(x, self.size, axis=split_dim)))
        recv = cp.empty_like(send)
        self._exchange([(j, send[j].reshape(-1).view(np.uint8)) for j in range(self.size)],
                       [(j, recv[j].reshape(-1).view(np.uint8)) for j in range(self.size)])
        return cp.concatenate(list(recv), axis=concat_dim)

    def gather(self, x, root=0, name="CollectiveGather"):
        self.mpi.check(name, (x,), f"root={root}")
        cp = self._cupy
        out = cp.zeros((self.size,) + x.shape, x.dtype)
        sends = [(root, self._bytes(x))]
        recvs = [(j, out[j].reshape(-1).view(np.uint8)) for j in range(self.size)] if self.rank == root else []
        self._exchange(sends, recvs)
        return out.reshape((self.size * x.shape[0],) + x.shape[1:])

    def scatter(self, x, root=0, name="CollectiveScatter"):
        self.mpi.check(name, (x,), f"root={root}")
        cp = self._cupy
        out = cp.empty((x.shape[0] // self.size,) + x.shape[1:], x.dtype)
        pieces = cp.ascontiguousarray(x).reshape((self.size,) + out.shape)
        sends = [(j, pieces[j].reshape(-1).view(np.uint8)) for j in range(self.size)] if self.rank == root else []
        self._exchange(sends, [(root, out.reshape(-1).view(np.uint8))])
        return out

    def barrier(self):
        self._cupy.cuda.get_current_stream().synchronize()
        self.mpi.barrier()

    def send(self, x, dest, tag=0, name="Send"):
        """Send ``x`` to ``dest``: its shape/dtype header over MPI, the receiver's verdict back, then the data."""
        from mindspore.communication._mpi import _describe, _Meta
        from mindspore.plugin import MSValueError
        self.mpi._check_peer(name, "dest_rank", dest)
        header = _Meta.row("p2p", [x], None, self.rank)
        self.mpi.comm.Send(header, dest=dest, tag=tag)
        verdict = np.zeros(len(header), np.int64)
        self.mpi.comm.Recv(verdict, source=dest, tag=tag)
        if verdict[0]:
            raise MSValueError(f"For '{name}', rank {dest} of {self.mpi.label} expected {_describe(verdict)} with tag "
                               f"{tag}, but this rank sent {_describe(header)}.")
        self._exchange([(dest, self._bytes(x))], [])

    def recv(self, shape, dtype, src, tag=0, name="Receive"):
        """Receive an array of ``shape``/``dtype`` from ``src`` (checked against the sender's header first)."""
        from mindspore.communication._mpi import _describe, _Meta
        from mindspore.plugin import MSValueError
        self.mpi._check_peer(name, "src_rank", src)
        out = self._cupy.empty(tuple(shape), dtype)
        expect = _Meta.row("p2p", [out], None, src)
        header = np.zeros(len(expect), np.int64)
        self.mpi.comm.Recv(header, source=src, tag=tag)
        fields = [2] + list(range(4, 13))
        bad = not np.array_equal(header[fields], expect[fields])
        verdict = expect.copy()
        verdict[0] = 1 if bad else 0
        self.mpi.comm.Send(verdict, dest=src, tag=tag)
        if bad:
            raise MSValueError(f"For '{name}', the tensor received from rank {src} of {self.mpi.label} (tag {tag}) "
                               f"must have the shape and dtype the receiver expects, {_describe(expect)}, but the "
                               f"sender sent {_describe(header)}.")
        self._exchange([], [(src, out.reshape(-1).view(np.uint8))])
        return out
