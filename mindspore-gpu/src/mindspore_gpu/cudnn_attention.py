"""The fused attention (``ScaledDotProductAttention`` and its gradient) on cuDNN's scaled-dot-product-attention
graphs, through NVIDIA's cuDNN frontend (``graph.sdpa`` / ``graph.sdpa_backward``, frontend 1.14, cuDNN 9).

:class:`Attention` (one per CuPy module, :func:`for_cupy`) shares :mod:`mindspore_gpu.cudnn`'s probe, handles and
stream binding (``MS_GPU_CUDNN=0`` turns both off). Each method returns its results, or ``None`` when cuDNN does not
take the case: the caller then computes it with CuPy (the whole score matrix).

* **What it takes**: float16 and bfloat16 (cuDNN's fused attention has no float32), 4-D ``(B, N, S, D)`` operands with
  the value's head size equal to the query's, ``D`` a multiple of 8 up to 128, and no band or the causal one
  (``next_tokens == 0``, no ``pre_tokens`` bound: each query sees the keys up to its own position). Operands are read
  with their strides (the last axis contiguous, else copied).
* **Numbers**: the scores and the softmax in float32 (``compute_data_type`` FLOAT), rounded once into the half
  output; ``softmax_lse`` is cuDNN's softmax statistics (the log-sum-exp of each row, float32), which is what the
  primitive defines.
* **One built graph per case**: (direction, dtype, each operand's dims and strides, scale, causal, device) keys a
  dict of built graphs; building takes about half a second per graph (an H200, cuDNN 9.19), so a network's first
  step pays it once per distinct shape; afterwards a call is two or three ``cupy.empty`` and ``execute``. The
  plans are kept on disk (:mod:`mindspore_gpu.plans`, as the convolutions' are) once a case passed its check, and a
  later process on the machine loads them instead of building (checked again, as a built case); a loaded plan that
  fails to run or its check is thrown away, silently, and the case built at its next call.
* **Per-case check**: when a case's graph is built, its first result is compared with the CuPy computation of the
  same operands (relative to the result's largest value; 2e-2 for float16, 6e-2 for bfloat16: a wrong mask or a
  wrong scale is off by far more). A case answered wrongly runs on CuPy from then on, with a ``RuntimeWarning``
  naming it; a case no engine takes does so silently.
* **Streams and CUDA graphs**: as the convolutions: the handle is bound to the current stream, the workspace comes
  from CuPy's pool on it, and a built case's execute is capturable; building never happens while capturing (that
  call runs on CuPy).

cuDNN frontend calls used beyond :mod:`mindspore_gpu.cudnn`'s: ``graph.sdpa(name=, q=, k=, v=, generate_stats=True,
attn_scale=, diagonal_alignment=, diagonal_band_right_bound=)`` returning ``(O, Stats)`` and
``graph.sdpa_backward(name=, q=, k=, v=, o=, dO=, stats=, attn_scale=, ...)`` returning ``(dQ, dK, dV)``, as the
frontend 1.14 documents them (``python/pygraph/pygraph.cpp``); checked on an H200 against NumPy (forward to 3e-4,
statistics to 1e-6, gradients to 5e-4 relative in float16).
"""
import collections
import threading
import warnings

import numpy

from mindspore_gpu import cudnn as _cudnn
from mindspore_gpu._per_cupy import PerCupy

__all__ = ["Attention", "for_cupy", "CASE_RTOL", "MAX_HEAD_DIM"]

#: The largest head size taken.
MAX_HEAD_DIM = 128
#: The per-case check's tolerance, relative to the reference result's largest value.
CASE_RTOL = {"float16": 2e-2, "bfloat16": 6e-2}
_IO = {"float16": "HALF", "bfloat16": "BFLOAT16"}
Q, K, V, O, STATS, DO, DQ, DK, DV = range(1, 10)
#: A built case: ``plan`` is ``(environment, key)`` of its plan on disk (:data:`mindspore_gpu.cudnn.PLANS`), or
#: ``None`` when plans are not kept; ``loaded`` whether it was loaded from there (else built).
_Entry = collections.namedtuple("_Entry", ["graph", "workspace", "device", "plan", "loaded"])


def _strides(a):
    item = a.itemsize
    return [s // item for s in a.strides]


class Attention:
    """cuDNN's fused attention for one CuPy module (see the module docstring)."""

    def __init__(self, cupy):
        self.cupy = cupy
        self.convolutions = _cudnn.for_cupy(cupy)       # the probe, the handles, the stream binding
        self._lock = threading.RLock()
        self.reset()

    def reset(self):
        """Forget the built graphs, the refused cases and the counters."""
        self._graphs = {}
        self.wrong = []
        self.stats = collections.Counter()

    # --- which cases ---------------------------------------------------------------------------------------------
    def _causal(self, prim):
        lo, hi = prim.band()
        if lo is None and hi is None:
            return False
        if lo is None and hi == 0:
            return True
        return None

    def _name(self, q, k, v):
        dt = q.dtype
        name = "float16" if dt == numpy.float16 else "bfloat16" if dt.name == "bfloat16" else None
        if name is None or k.dtype != dt or v.dtype != dt:
            return None
        if q.ndim != 4 or v.shape[-1] != q.shape[-1] or q.shape[-1] % 8 or q.shape[-1] > MAX_HEAD_DIM:
            return None
        if not (q.size and k.size and v.size):
            return None
        return name

    def _contiguous_last(self, *arrays):
        cupy = self.cupy
        return [a if a.strides[-1] == a.itemsize else cupy.ascontiguousarray(a) for a in arrays]

    # --- the two directions ----------------------------------------------------------------------------------------
    def forward(self, prim, q, k, v, reference):
        """``(attention_out, softmax_lse)`` of ``prim`` on cuDNN, or ``None``. ``reference(prim, q, k, v)`` is the
        caller's CuPy computation (the per-case check's)."""
        causal = self._causal(prim)
        name = self._name(q, k, v) if causal is not None else None
        if name is None or not self.convolutions.usable():
            self.stats[("forward", "cupy")] += 1
            return None
        q, k, v = self._contiguous_last(q, k, v)
        shape_o = q.shape[:3] + (v.shape[-1],)
        key = ("forward", name, tuple(q.shape), tuple(k.shape), tuple(v.shape), tuple(q.strides), tuple(k.strides),
               tuple(v.strides), float(prim.scale), causal, self.cupy.cuda.runtime.getDevice())
        what = f"a {name} attention forward of {tuple(q.shape)} by {tuple(k.shape)} (causal={causal})"
        return self._run(key, what, "forward",
                         lambda handle: self._describe_forward(name, q, k, v, prim.scale, causal, handle),
                         lambda entry: self._run_forward(entry, q, k, v, shape_o),
                         lambda: reference(prim, q, k, v), name)

    def backward(self, prim, q, k, v, o, dout, lse, reference):
        """``(dquery, dkey, dvalue)`` on cuDNN (the ``lse_grad=False`` gradient), or ``None``.
        ``reference(prim, q, k, v, o, dout, lse)`` is the caller's CuPy computation."""
        causal = self._causal(prim)
        name = self._name(q, k, v) if causal is not None and not prim.lse_grad else None
        if name is None or o.dtype != q.dtype or dout.dtype != q.dtype or lse.dtype != numpy.float32 \
                or not self.convolutions.usable():
            self.stats[("backward", "cupy")] += 1
            return None
        q, k, v, o, dout = self._contiguous_last(q, k, v, o, dout)
        lse = self.cupy.ascontiguousarray(lse)
        key = ("backward", name) + tuple(tuple(a.shape) for a in (q, k, v)) + \
            tuple(tuple(a.strides) for a in (q, k, v, o, dout)) + (float(prim.scale), causal,
                                                                   self.cupy.cuda.runtime.getDevice())
        what = f"a {name} attention gradient of {tuple(q.shape)} by {tuple(k.shape)} (causal={causal})"
        return self._run(key, what, "backward",
                         lambda handle: self._describe_backward(name, q, k, v, o, dout, prim.scale, causal, handle),
                         lambda entry: self._run_backward(entry, q, k, v, o, dout, lse),
                         lambda: reference(prim, q, k, v, o, dout, lse), name)

    def _run(self, key, what, direction, describe, run, reference, name):
        """The results of ``run(entry)`` on the built graph of ``key`` (built by ``describe(handle)`` and checked
        against ``reference()`` the first time), or ``None`` (refused, answered wrongly, or failed)."""
        entry = self._graphs.get(key)
        fresh = entry is None
        if fresh:
            entry = self._build(key, describe)
        if not entry:
            self.stats[(direction, "cupy")] += 1
            return None
        try:
            result = run(entry)
        except Exception as exc:  # noqa: BLE001 - an execute error: that case runs on CuPy from now on
            self.stats[(direction, "cupy")] += 1
            if entry.loaded:
                return self._forget(key, entry)
            return self._refuse(key, what, f"execute failed ({type(exc).__name__}: {exc})")
        if fresh:
            reason = self._check(result, reference(), name)
            if reason is not None:
                self.stats[(direction, "cupy")] += 1
                if entry.loaded:
                    return self._forget(key, entry)
                return self._refuse(key, what, reason)
            if entry.plan is not None and not entry.loaded:
                _cudnn.PLANS.keep(*entry.plan, entry.graph)    # (checked: the next process loads it)
        self.stats[(direction, "cudnn")] += 1
        return result

    def _forget(self, key, entry):
        """A plan loaded from disk that failed to run or its check: thrown away, and the case built afresh at its
        next call (this one runs on CuPy)."""
        _cudnn.PLANS.discard(*entry.plan)
        with self._lock:
            if self._graphs.get(key) is entry:
                del self._graphs[key]
        return None

    # --- graphs --------------------------------------------------------------------------------------------------
    def _graph(self, name, handle):
        cudnn = self.convolutions.module
        io = getattr(cudnn.data_type, _IO[name])
        graph = cudnn.pygraph(io_data_type=io, intermediate_data_type=cudnn.data_type.FLOAT,
                              compute_data_type=cudnn.data_type.FLOAT, handle=handle)
        return cudnn, io, graph

    @staticmethod
    def _tensor(graph, label, a, io, uid):
        return graph.tensor(name=label, dim=list(a.shape), stride=_strides(a), data_type=io, uid=uid)

    @staticmethod
    def _mask(cudnn, causal):
        if not causal:
            return {}
        return dict(diagonal_alignment=cudnn.diagonal_alignment.TOP_LEFT, diagonal_band_right_bound=0)

    def _describe_forward(self, name, q, k, v, scale, causal, handle):
        cudnn, io, graph = self._graph(name, handle)
        tq, tk, tv = (self._tensor(graph, n, a, io, u) for n, a, u in (("Q", q, Q), ("K", k, K), ("V", v, V)))
        out, stats = graph.sdpa(name="sdpa", q=tq, k=tk, v=tv, generate_stats=True, attn_scale=float(scale),
                                **self._mask(cudnn, causal))
        dims_o = list(q.shape[:3]) + [v.shape[-1]]
        out.set_output(True).set_dim(dims_o).set_stride(list(_cudnn.packed(dims_o))).set_data_type(io)
        out.set_uid(O)
        dims_s = list(q.shape[:3]) + [1]
        stats.set_output(True).set_dim(dims_s).set_stride(list(_cudnn.packed(dims_s))).set_data_type(
            cudnn.data_type.FLOAT)
        stats.set_uid(STATS)
        return graph

    def _describe_backward(self, name, q, k, v, o, dout, scale, causal, handle):
        cudnn, io, graph = self._graph(name, handle)
        tq, tk, tv, to, tdo = (self._tensor(graph, n, a, io, u) for n, a, u in (
            ("Q", q, Q), ("K", k, K), ("V", v, V), ("O", o, O), ("dO", dout, DO)))
        dims_s = list(q.shape[:3]) + [1]
        ts = graph.tensor(name="stats", dim=dims_s, stride=list(_cudnn.packed(dims_s)),
                          data_type=cudnn.data_type.FLOAT, uid=STATS)
        grads = graph.sdpa_backward(name="sdpa_backward", q=tq, k=tk, v=tv, o=to, dO=tdo, stats=ts,
                                    attn_scale=float(scale), **self._mask(cudnn, causal))
        for g, a, uid in zip(grads, (q, k, v), (DQ, DK, DV)):
            g.set_output(True).set_dim(list(a.shape)).set_stride(list(_cudnn.packed(a.shape))).set_data_type(io)
            g.set_uid(uid)
        return graph

    def _build(self, key, describe):
        """The built graph of ``key`` (remembered), ``False`` when cuDNN refuses it, ``None`` (not remembered) while
        the current stream captures."""
        conv = self.convolutions
        if conv.capturing():
            return None
        with self._lock:
            entry = self._graphs.get(key)
            if entry is not None:
                return entry
            device = key[-1]
            environment = conv.environment(device)
            plan = None if environment is None else (environment, "attention " + repr(key[:-1]))
            try:
                handle = conv.handle(device)
                with self.cupy.cuda.Device(device):
                    loaded = _cudnn.PLANS.restore(*plan, conv.module, handle) if plan is not None else None
                    if loaded is not None:
                        graph, workspace = loaded
                    else:
                        graph = describe(handle)
                        graph.validate()
                        graph.build_operation_graph()
                        cudnn = conv.module
                        graph.create_execution_plans([cudnn.heur_mode.A, cudnn.heur_mode.FALLBACK])
                        graph.check_support()
                        graph.build_plans()
                        workspace = int(graph.get_workspace_size())
                entry = _Entry(graph, workspace, device, plan, loaded is not None)
            except Exception as exc:  # noqa: BLE001 - no engine for this case: CuPy computes it
                if not isinstance(exc, getattr(conv.module, "cudnnGraphNotSupportedError", ())):
                    warnings.warn(f"cuDNN could not build an attention graph {key[:5]} ({type(exc).__name__}: "
                                  f"{exc}); such cases run on CuPy", RuntimeWarning, stacklevel=4)
                entry = False
            if len(self._graphs) >= _cudnn.GRAPH_LIMIT:
                del self._graphs[next(iter(self._graphs))]
            self._graphs[key] = entry
            return entry

    def _execute(self, entry, pointers):
        cupy = self.cupy
        ws = cupy.empty(entry.workspace, numpy.uint8) if entry.workspace else None
        handle = self.convolutions.bound_handle(entry.device)
        entry.graph.execute(pointers, self.convolutions.pointer(ws) if ws is not None else 0, handle=handle)

    def _run_forward(self, entry, q, k, v, shape_o):
        cupy, ptr = self.cupy, self.convolutions.pointer
        o = cupy.empty(shape_o, q.dtype)
        lse = cupy.empty(q.shape[:3] + (1,), numpy.float32)
        self._execute(entry, {Q: ptr(q), K: ptr(k), V: ptr(v), O: ptr(o), STATS: ptr(lse)})
        return o, lse

    def _run_backward(self, entry, q, k, v, o, dout, lse):
        cupy, ptr = self.cupy, self.convolutions.pointer
        dq, dk, dv = cupy.empty(q.shape, q.dtype), cupy.empty(k.shape, k.dtype), cupy.empty(v.shape, v.dtype)
        self._execute(entry, {Q: ptr(q), K: ptr(k), V: ptr(v), O: ptr(o), DO: ptr(dout), STATS: ptr(lse),
                              DQ: ptr(dq), DK: ptr(dk), DV: ptr(dv)})
        return dq, dk, dv

    # --- the per-case check --------------------------------------------------------------------------------------
    def _check(self, got, want, name):
        cupy = self.cupy
        for i, (g, w) in enumerate(zip(got, want)):
            g64, w64 = cupy.asnumpy(g).astype(numpy.float64), cupy.asnumpy(w).astype(numpy.float64)
            if g64.shape != w64.shape:
                return f"output {i}: shape {g64.shape} instead of {w64.shape}"
            tol = CASE_RTOL[name] * max(1.0, float(numpy.abs(w64).max(initial=0.0)))
            bad = ~(numpy.abs(g64 - w64) <= tol)       # a NaN too
            if bad.any():
                j = tuple(int(x) for x in numpy.argwhere(bad)[0])
                return f"output {i} at {j}: {g64[j]!r} instead of {w64[j]!r}"
        return None

    def _refuse(self, key, what, reason):
        with self._lock:
            self._graphs[key] = False
            self.wrong.append((what, reason))
        warnings.warn(f"cuDNN answered {what} wrongly ({reason}); that case runs on CuPy", RuntimeWarning,
                      stacklevel=4)
        return None


_PATHS = PerCupy(Attention)


def for_cupy(cupy):
    """The :class:`Attention` of CuPy module ``cupy`` (the real one, or the test stand-in), made once."""
    return _PATHS(cupy)
