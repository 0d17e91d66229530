"""The fused attention's cuDNN path (``mindspore_gpu/cudnn_attention.py``) on the CuPy stand-in, with a fake ``cudnn``
whose ``sdpa``/``sdpa_backward`` graphs compute with NumPy from the variant pack's addresses, each operand read with
the dims and strides the path declared (so a wrong declaration gives wrong numbers or an out-of-bounds read):

* float16/bfloat16 attention, plain and causal, runs on cuDNN (one graph per case, built once), operands read with
  their strides (a BSH tensor's heads view is not copied), results equal to the CuPy computation; its gradient too;
* what cuDNN does not take runs on CuPy: float32, a head size not a multiple of 8, other bands, the log-sum-exp's
  own cotangent, an engine-less case (silently);
* a case answered wrongly is caught by the per-case check when built (a warning; CuPy from then on), an execute
  error likewise; nothing is built while the stream captures;
* built plans are kept on disk once checked, and the next process loads them instead of building (still checked);
  a loaded plan that answers wrongly or fails is thrown away and the case built again, without a warning.

The real cuDNN is checked on a GPU by ``test_gpu_plugin.py::test_cudnn_attention_matches_cupy``.
"""
import ctypes
import json
import pathlib
import sys
import types

import ml_dtypes
import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
from test_gpu_cudnn import _Tensor as _T, _device  # noqa: E402  (the frontend's tensor attributes, chained setters)
from mindspore.ops._defs import nn_prims_ext  # noqa: E402
from mindspore.plugin import TensorSpec  # noqa: E402
import mindspore as ms  # noqa: E402

pytestmark = cupy_sim.warning_marks()

BF16 = np.dtype(ml_dtypes.bfloat16)
_NP = {"HALF": np.dtype(np.float16), "BFLOAT16": BF16, "FLOAT": np.dtype(np.float32)}
SDPA, SDPA_GRAD, NO_BAND = (nn_prims_ext.ScaledDotProductAttention, nn_prims_ext.ScaledDotProductAttentionGrad,
                            nn_prims_ext.NO_BAND)


class cudnnGraphNotSupportedError(Exception):  # noqa: N801 - the frontend's name
    pass


class FakeCudnn(types.ModuleType):
    """``mode``: None (right), 'wrong' (outputs off by one), 'unsupported', 'execute_error', 'unserializable'
    (``serialize`` raises), 'loaded wrong' and 'loaded execute_error' (only graphs loaded by ``deserialize``)."""

    __sim__ = True

    def __init__(self):
        super().__init__("cudnn")
        self.__version__ = "1.14.0"
        self.mode = None
        self.cudnnGraphNotSupportedError = cudnnGraphNotSupportedError
        self.data_type = types.SimpleNamespace(HALF="HALF", BFLOAT16="BFLOAT16", FLOAT="FLOAT", DOUBLE="DOUBLE")
        self.heur_mode = types.SimpleNamespace(A="A", FALLBACK="FALLBACK")
        self.diagonal_alignment = types.SimpleNamespace(TOP_LEFT="TOP_LEFT", BOTTOM_RIGHT="BOTTOM_RIGHT")
        self.builds, self.executes, self.streams, self.arrays = [], 0, [], {}
        self.loads = []

    def backend_version(self):
        return 91900

    def backend_version_string(self):
        return "9.19.0"

    def create_handle(self):
        return 0x7000

    def set_stream(self, handle, stream):
        self.streams.append(stream)

    def pygraph(self, **kwargs):
        return _Graph(self, kwargs)

    def pointer(self, a):
        addr = a.__array_interface__["data"][0]
        self.arrays[addr] = a
        return addr

    def view(self, addr, t, writeable=False):
        base = self.arrays[addr]
        dtype = _NP[t.data_type]
        assert base.dtype == dtype, f"{t.name}: {t.data_type} declared for a {base.dtype} buffer"
        span = (1 + sum((d - 1) * s for d, s in zip(t.dim, t.stride))) * dtype.itemsize
        root = base.view(np.ndarray)
        while isinstance(root.base, np.ndarray):
            root = root.base
        assert addr + span <= root.__array_interface__["data"][0] + root.nbytes, f"{t.name} read past its buffer"
        flat = np.frombuffer((ctypes.c_char * span).from_address(addr), dtype=dtype)
        return np.lib.stride_tricks.as_strided(flat, tuple(t.dim), tuple(s * dtype.itemsize for s in t.stride),
                                               writeable=writeable)


def _np_attention(q, k, v, scale, causal):
    s = np.einsum("bnid,bnjd->bnij", q, k) * scale
    if causal:
        s = np.where(np.triu(np.ones(s.shape[-2:], bool), 1), -np.inf, s)
    top = s.max(-1, keepdims=True)
    e = np.exp(s - top)
    z = e.sum(-1, keepdims=True)
    return e / z, top + np.log(z)


def _tensor_json(t):
    return [t.name, t.dim, t.stride, t.data_type, t.uid]


class _Graph:
    def __init__(self, fake, kwargs):
        self.fake, self.kwargs, self.tensors, self.node, self.built = fake, kwargs, [], None, False
        self.loaded = False

    def tensor(self, name, dim, stride, data_type, uid):
        t = _T(name, list(dim), list(stride), data_type, uid)
        self.tensors.append(t)
        return t

    def _causal(self, kw):
        if not kw:
            return False
        assert kw == dict(diagonal_alignment="TOP_LEFT", diagonal_band_right_bound=0), kw
        return True

    def sdpa(self, name, q, k, v, generate_stats, attn_scale, **mask):
        assert generate_stats is True
        o, stats = _T("O"), _T("stats")
        self.tensors += [o, stats]
        self.node = ("fwd", dict(q=q, k=k, v=v), dict(o=o, stats=stats), attn_scale, self._causal(mask))
        return o, stats

    def sdpa_backward(self, name, q, k, v, o, dO, stats, attn_scale, **mask):
        grads = (_T("dQ"), _T("dK"), _T("dV"))
        self.tensors += list(grads)
        self.node = ("bwd", dict(q=q, k=k, v=v, o=o, dO=dO, stats=stats), dict(zip(("dq", "dk", "dv"), grads)),
                     attn_scale, self._causal(mask))
        return grads

    def validate(self):
        pass

    def build_operation_graph(self):
        self.fake.builds.append(self.node[0])

    def create_execution_plans(self, modes):
        pass

    def check_support(self):
        if self.fake.mode == "unsupported":
            raise cudnnGraphNotSupportedError("no engine")

    def build_plans(self):
        self.built = True

    def get_workspace_size(self):
        assert self.built
        return 256

    def serialize(self):
        assert self.built
        if self.fake.mode == "unserializable":
            raise RuntimeError("CUDNN_STATUS_NOT_SUPPORTED")
        kind, ins, outs, scale, causal = self.node
        return list(json.dumps([kind, {n: _tensor_json(t) for n, t in ins.items()},
                                {n: _tensor_json(t) for n, t in outs.items()}, scale, causal]).encode())

    def deserialize(self, pyobj):
        assert isinstance(pyobj, list) and self.kwargs.get("handle") is not None
        kind, ins, outs, scale, causal = json.loads(bytes(pyobj).decode())
        self.node = (kind, {n: _T(*t) for n, t in ins.items()}, {n: _T(*t) for n, t in outs.items()}, scale, causal)
        self.built = self.loaded = True
        self.fake.loads.append(kind)

    def execute(self, pack, workspace, handle=None):
        fake = self.fake
        assert self.built and handle is not None and workspace
        if fake.mode == "execute_error" or (fake.mode == "loaded execute_error" and self.loaded):
            raise RuntimeError("CUDNN_STATUS_EXECUTION_FAILED")
        fake.executes += 1
        kind, ins, outs, scale, causal = self.node
        a = {n: fake.view(pack[t.uid], t).astype(np.float64) for n, t in ins.items()}
        res = {n: fake.view(pack[t.uid], t, writeable=True) for n, t in outs.items()}
        p, lse = _np_attention(a["q"], a["k"], a["v"], scale, causal)
        off = 1.0 if fake.mode == "wrong" or (fake.mode == "loaded wrong" and self.loaded) else 0.0
        if kind == "fwd":
            res["o"][...] = (np.einsum("bnij,bnjd->bnid", p, a["v"]) + off).astype(res["o"].dtype)
            res["stats"][...] = lse
            return
        do = a["dO"]
        dp = np.einsum("bnid,bnjd->bnij", do, a["v"])
        ds = p * (dp - (p * dp).sum(-1, keepdims=True))
        res["dq"][...] = (np.einsum("bnij,bnjd->bnid", ds, a["k"]) * scale + off).astype(res["dq"].dtype)
        res["dk"][...] = (np.einsum("bnij,bnid->bnjd", ds, a["q"]) * scale).astype(res["dk"].dtype)
        res["dv"][...] = np.einsum("bnij,bnid->bnjd", p, do).astype(res["dv"].dtype)


@pytest.fixture(scope="module")
def loaded():
    return cupy_sim.load_kernel_families()


@pytest.fixture
def fake(loaded, monkeypatch):
    from mindspore_gpu import cudnn as mscudnn, cudnn_attention
    f = FakeCudnn()
    monkeypatch.setitem(sys.modules, "cudnn", f)
    monkeypatch.delenv(mscudnn.ENV, raising=False)
    conv = mscudnn.for_cupy(loaded.cupy)
    conv.reset()
    conv.pointer = f.pointer
    attention = cudnn_attention.for_cupy(loaded.cupy)
    attention.reset()
    assert attention.convolutions is conv and conv.status() is True
    yield f, attention
    conv.reset()
    conv.pointer = mscudnn._device_pointer
    attention.reset()


def _operands(cp, dt, rng, b=2, n=3, sq=5, skv=7, d=8, dv=None, bsh=False):
    def make(s, dd):
        if bsh:      # a (B, S, N * D) tensor's heads: a strided view, no copy
            return cp.asarray(rng.standard_normal((b, s, n * dd)).astype(dt)).reshape(b, s, n, dd).transpose(0, 2, 1, 3)
        return cp.asarray(rng.standard_normal((b, n, s, dd)).astype(dt))
    return make(sq, d), make(skv, d), make(skv, dv or d)


def _forward(loaded, prim, q, k, v):
    kernel = loaded.modules["nn_prims"].KERNELS["ScaledDotProductAttention"]
    dt = ms.float16 if q.dtype == np.float16 else ms.bfloat16 if q.dtype == BF16 else ms.float32
    spec = (TensorSpec(q.shape[:3] + (v.shape[-1],), dt), TensorSpec(q.shape[:3] + (1,), ms.float32))
    return kernel(prim, q, k, v, out=spec)


def _backward(loaded, prim, q, k, v, o, dout, lse):
    kernel = loaded.modules["nn_prims"].KERNELS["ScaledDotProductAttentionGrad"]
    dt = ms.float16 if q.dtype == np.float16 else ms.bfloat16 if q.dtype == BF16 else ms.float32
    spec = tuple(TensorSpec(a.shape, dt) for a in (q, k, v))
    return kernel(prim, q, k, v, o, dout, lse, loaded.cupy.zeros_like(lse), out=spec)


def _close(cp, got, want, dt):
    tol = 1e-2 if dt == np.float16 else 4e-2
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(cp.asnumpy(g).astype(np.float64), cp.asnumpy(w).astype(np.float64), rtol=tol,
                                   atol=tol)


@pytest.mark.parametrize("dt", [np.dtype(np.float16), BF16], ids=str)
@pytest.mark.parametrize("causal", [False, True])
def test_half_attention_and_its_gradient_run_on_cudnn(loaded, fake, dt, causal):
    f, attention = fake
    cp = loaded.cupy
    nn_prims = loaded.modules["nn_prims"]
    rng = np.random.default_rng(3)
    sq = skv = 6 if causal else None
    q, k, v = _operands(cp, dt, rng, sq=sq or 5, skv=skv or 7, bsh=True)
    prim = SDPA(0.4, NO_BAND, 0) if causal else SDPA(0.4)
    o, lse = _forward(loaded, prim, q, k, v)
    want = nn_prims._sdpa_plain(prim, q, k, v)
    _close(cp, (o, lse), want, dt)
    assert attention.stats[("forward", "cudnn")] == 1 and f.builds == ["fwd"] and f.executes == 1
    _forward(loaded, prim, q, k, v)                  # built once
    assert f.builds == ["fwd"] and f.executes == 2
    dout = cp.asarray(rng.standard_normal(o.shape).astype(dt))
    grad = SDPA_GRAD(prim.scale, prim.pre_tokens, prim.next_tokens, False)
    got = _backward(loaded, grad, q, k, v, o, dout, lse)
    _close(cp, got, nn_prims._sdpa_grad_plain(grad, q, k, v, o, dout, lse), dt)
    assert attention.stats[("backward", "cudnn")] == 1 and f.builds == ["fwd", "bwd"]


def test_what_cudnn_does_not_take_runs_on_cupy(loaded, fake):
    f, attention = fake
    cp = loaded.cupy
    rng = np.random.default_rng(4)
    f16 = np.dtype(np.float16)
    cases = [("float32", SDPA(0.5), _operands(cp, np.float32, rng)),
             ("head size 12", SDPA(0.5), _operands(cp, f16, rng, d=12)),
             ("value head size differs", SDPA(0.5), _operands(cp, f16, rng, dv=16)),
             ("a band", SDPA(0.5, 1, 2), _operands(cp, f16, rng)),
             ("bottom-right causal", SDPA(0.5, NO_BAND, 2), _operands(cp, f16, rng))]
    for name, prim, (q, k, v) in cases:
        o, lse = _forward(loaded, prim, q, k, v)
        want = loaded.modules["nn_prims"]._sdpa_plain(prim, q, k, v)
        np.testing.assert_array_equal(cp.asnumpy(o), cp.asnumpy(want[0]), err_msg=name)
    assert f.builds == [] and attention.stats[("forward", "cudnn")] == 0
    q, k, v = _operands(cp, f16, rng)
    o, lse = _forward(loaded, SDPA(0.5), q, k, v)
    with_lse = SDPA_GRAD(0.5, NO_BAND, NO_BAND, True)      # the log-sum-exp's cotangent: cuDNN's gradient lacks it
    _backward(loaded, with_lse, q, k, v, o, o, lse)
    assert f.builds == ["fwd"] and attention.stats[("backward", "cupy")] == 1


def test_an_engine_less_case_runs_on_cupy_silently(loaded, fake, recwarn):
    f, attention = fake
    f.mode = "unsupported"
    cp = loaded.cupy
    q, k, v = _operands(cp, np.float16, np.random.default_rng(5))
    _forward(loaded, SDPA(0.5), q, k, v)
    _forward(loaded, SDPA(0.5), q, k, v)
    assert f.executes == 0 and f.builds == ["fwd"] and attention.stats[("forward", "cupy")] == 2
    assert not [w for w in recwarn if "cuDNN" in str(w.message)]


@pytest.mark.parametrize("mode,match", [("wrong", "answered .* wrongly"), ("execute_error", "execute failed")])
def test_a_wrong_answer_or_an_execute_error_falls_back_with_a_warning(loaded, fake, mode, match):
    f, attention = fake
    f.mode = mode
    cp = loaded.cupy
    nn_prims = loaded.modules["nn_prims"]
    q, k, v = _operands(cp, np.float16, np.random.default_rng(6))
    prim = SDPA(0.5)
    with pytest.warns(RuntimeWarning, match=match):
        o, lse = _forward(loaded, prim, q, k, v)
    want = nn_prims._sdpa_plain(prim, q, k, v)
    np.testing.assert_array_equal(cp.asnumpy(o), cp.asnumpy(want[0]))
    executes = f.executes
    _forward(loaded, prim, q, k, v)                   # that case is on CuPy from now on: no second try
    assert f.executes == executes and attention.stats[("forward", "cupy")] == 2


def test_nothing_is_built_while_the_stream_captures(loaded, fake, monkeypatch):
    f, attention = fake
    cp = loaded.cupy
    q, k, v = _operands(cp, np.float16, np.random.default_rng(7))
    monkeypatch.setattr(attention.convolutions, "capturing", lambda: True)
    _forward(loaded, SDPA(0.5), q, k, v)
    assert f.builds == [] and attention.stats[("forward", "cupy")] == 1
    monkeypatch.undo()
    _forward(loaded, SDPA(0.5), q, k, v)
    assert f.builds == ["fwd"]


@pytest.fixture
def keeping(loaded, fake, monkeypatch, tmp_path):
    """``fake`` with a device to key plans by and a cache folder of the test's own; ``next_process()`` forgets the
    built graphs and the plans' state, as a new process would."""
    from mindspore_gpu import cudnn as mscudnn
    f, attention = fake
    _device(monkeypatch, loaded.cupy)
    monkeypatch.setenv("MS_GPU_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MS_GPU_CUDNN_PLAN_CACHE", raising=False)
    mscudnn.PLANS.reset()

    def next_process():
        pointer = attention.convolutions.pointer
        attention.convolutions.reset()
        attention.convolutions.pointer = pointer
        attention.reset()
        mscudnn.PLANS.reset()
        f.builds.clear()
        f.loads.clear()
    yield f, attention, next_process, tmp_path / "cudnn_plans"
    mscudnn.PLANS.reset()


def _attention_and_gradient(loaded, q, k, v, dout):
    prim = SDPA(0.4)
    o, lse = _forward(loaded, prim, q, k, v)
    grads = _backward(loaded, SDPA_GRAD(prim.scale, prim.pre_tokens, prim.next_tokens, False), q, k, v, o, dout, lse)
    return (o, lse) + tuple(grads)


def test_plans_are_kept_and_loaded_by_the_next_process(loaded, keeping):
    f, attention, next_process, folder = keeping
    cp = loaded.cupy
    rng = np.random.default_rng(8)
    q, k, v = _operands(cp, np.float16, rng)
    dout = cp.asarray(rng.standard_normal(q.shape).astype(np.float16))
    first = _attention_and_gradient(loaded, q, k, v, dout)
    assert f.builds == ["fwd", "bwd"] and len(list(folder.glob("*.plan"))) == 2
    header = json.loads((sorted(folder.glob("*.plan"))[0]).read_bytes().partition(b"\n")[0])
    assert header["key"].startswith("attention (") and "NVIDIA H200" in header["environment"]
    next_process()
    again = _attention_and_gradient(loaded, q, k, v, dout)
    assert f.builds == [] and f.loads == ["fwd", "bwd"]
    assert attention.stats[("forward", "cudnn")] == 1 and attention.stats[("backward", "cudnn")] == 1
    for a, b in zip(first, again):
        np.testing.assert_array_equal(cp.asnumpy(a), cp.asnumpy(b))


@pytest.mark.parametrize("mode", ["loaded wrong", "loaded execute_error"])
def test_a_loaded_plan_that_fails_is_thrown_away_and_built_again(loaded, keeping, mode, recwarn):
    f, attention, next_process, folder = keeping
    cp = loaded.cupy
    nn_prims = loaded.modules["nn_prims"]
    q, k, v = _operands(cp, np.float16, np.random.default_rng(9))
    prim = SDPA(0.5)
    _forward(loaded, prim, q, k, v)
    next_process()
    f.mode = mode
    o, lse = _forward(loaded, prim, q, k, v)          # loaded, failed: this call on CuPy, the plan thrown away
    np.testing.assert_array_equal(cp.asnumpy(o), cp.asnumpy(nn_prims._sdpa_plain(prim, q, k, v)[0]))
    assert f.loads == ["fwd"] and f.builds == [] and not list(folder.glob("*.plan"))
    assert not [w for w in recwarn if "cuDNN" in str(w.message)] and not attention.wrong
    f.mode = None
    o, lse = _forward(loaded, prim, q, k, v)          # built afresh, checked, kept again
    assert f.builds == ["fwd"] and attention.stats[("forward", "cudnn")] == 1
    assert len(list(folder.glob("*.plan"))) == 1


def test_an_unserializable_plan_is_not_kept(loaded, keeping):
    f, attention, next_process, folder = keeping
    f.mode = "unserializable"
    q, k, v = _operands(loaded.cupy, np.float16, np.random.default_rng(10))
    _forward(loaded, SDPA(0.5), q, k, v)
    assert attention.stats[("forward", "cudnn")] == 1 and not folder.exists()
    next_process()
    _forward(loaded, SDPA(0.5), q, k, v)
    assert f.builds == ["fwd"] and f.loads == []
