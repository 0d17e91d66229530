"""The cuDNN convolution path (``mindspore_gpu/cudnn.py``), in three layers:

(a) the graph descriptions it builds, given to the real ``cudnn`` package (the frontend and the cuDNN library; skipped
    when they are not installed) on a deviceless graph: accepted by ``validate()`` and, read back from the graph's
    JSON, the dims, strides, dtypes, uids, padding, stride and dilation meant;
(b) the plumbing on the CuPy stand-in with a fake ``cudnn`` module whose ``execute`` reads and writes raw memory at
    the pointers and with the dims and strides of the graph, as cuDNN does, and computes the convolution with NumPy
    from the graph's own JSON (with ``real`` set, the graph itself is the real frontend's, deviceless): results equal
    to the im2col kernels, one build per case (cache hits rebuild nothing), ``MS_GPU_CUDNN=0``, the known-answer
    check (a wrong result turns the op off with one warning and the im2col result is returned), errors falling back,
    nothing built while a stream captures, and the reasons for being unusable;
(c) on a real GPU with cuDNN (skipped otherwise): cuDNN's forward, data and filter gradients against the im2col path
    and the CPU backend, float32 and float16, groups, depthwise, stride 2, dilation 2, 2-D and 3-D.
"""
import ctypes
import itertools
import json
import pathlib
import sys
import types
import warnings

import numpy as np
import pytest

import mindspore_gpu.cudnn as mscudnn
from mindspore_gpu import verdicts
from mindspore.ops._defs import conv as defs

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - ml_dtypes is a dependency of mindspore-core
    BF16 = None


def _real_cudnn():
    try:
        import cudnn
        return cudnn
    except Exception:  # noqa: BLE001 - not installed, or its cuDNN library missing
        return None


REAL = _real_cudnn()
needs_frontend = pytest.mark.skipif(REAL is None, reason="nvidia-cudnn-frontend (with the cuDNN library) not installed")


# --- NumPy convolutions with cuDNN's parameters (pre/post padding, groups from the channel ratio) -------------------
def _windows(out, kernel_offset, stride, dilation):
    return tuple(slice(j * d, j * d + (o - 1) * s + 1, s) for j, d, o, s in zip(kernel_offset, dilation, out, stride))


def np_fprop(x, w, pre, post, stride, dilation, out):
    n, c = x.shape[:2]
    k, cg = w.shape[:2]
    g = c // cg
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + list(zip(pre, post)))
    y = np.zeros((n, g, k // g) + tuple(out))
    for off in itertools.product(*(range(e) for e in w.shape[2:])):
        win = xp[(slice(None), slice(None)) + _windows(out, off, stride, dilation)].reshape((n, g, cg) + tuple(out))
        wk = w[(slice(None), slice(None)) + off].astype(np.float64).reshape(g, k // g, cg)
        y += np.einsum("gkc,ngc...->ngk...", wk, win)
    return y.reshape((n, k) + tuple(out))


def np_dgrad(dy, w, pre, post, stride, dilation, x_dim):
    n, k = dy.shape[:2]
    cg = w.shape[1]
    c = x_dim[1]
    g = c // cg
    out = dy.shape[2:]
    dxp = np.zeros((n, c) + tuple(s + a + b for s, a, b in zip(x_dim[2:], pre, post)))
    d = dy.astype(np.float64).reshape((n, g, k // g) + tuple(out))
    for off in itertools.product(*(range(e) for e in w.shape[2:])):
        wk = w[(slice(None), slice(None)) + off].astype(np.float64).reshape(g, k // g, cg)
        dxp[(slice(None), slice(None)) + _windows(out, off, stride, dilation)] += np.einsum(
            "gkc,ngk...->ngc...", wk, d).reshape((n, c) + tuple(out))
    return dxp[(slice(None), slice(None)) + tuple(slice(a, a + s) for a, s in zip(pre, x_dim[2:]))]


def np_wgrad(x, dy, pre, post, stride, dilation, w_dim):
    n, c = x.shape[:2]
    k, cg = w_dim[:2]
    g = c // cg
    out = dy.shape[2:]
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + list(zip(pre, post)))
    d = dy.astype(np.float64).reshape((n, g, k // g) + tuple(out))
    dw = np.zeros(tuple(w_dim))
    for off in itertools.product(*(range(e) for e in w_dim[2:])):
        win = xp[(slice(None), slice(None)) + _windows(out, off, stride, dilation)].reshape((n, g, cg) + tuple(out))
        dw[(slice(None), slice(None)) + off] = np.einsum("ngkl,ngcl->gkc", d.reshape(n, g, k // g, -1),
                                                         win.reshape(n, g, cg, -1)).reshape(k, cg)
    return dw


# --- a fake cudnn module --------------------------------------------------------------------------------------------
_NP_OF = {"HALF": np.float16, "FLOAT": np.float32, "DOUBLE": np.float64, "BFLOAT16": BF16}


class _Tensor:
    """The frontend's tensor attributes (chained setters, as pybind returns them)."""

    def __init__(self, name, dim=None, stride=None, data_type=None, uid=-1):
        self.name, self.dim, self.stride, self.data_type, self.uid = name, dim, stride, data_type, uid
        self.output = False

    def set_output(self, v):
        self.output = v
        return self

    def set_dim(self, v):
        self.dim = list(v)
        return self

    def set_stride(self, v):
        self.stride = list(v)
        return self

    def set_data_type(self, v):
        self.data_type = v
        return self

    def set_uid(self, v):
        self.uid = v
        return self

    def get_uid(self):
        return self.uid


class cudnnGraphNotSupportedError(Exception):  # noqa: N801 - the frontend's name
    pass


class FakeCudnn(types.ModuleType):
    """A stand-in for the ``cudnn`` package. With ``real`` (the real package), graphs are the real frontend's,
    described without a device (``create_device_properties(-1)``) and validated by it; building is skipped.
    ``execute`` computes from the graph's JSON. ``mode``: None (right), 'wrong' (results off by one),
    'accumulate' (results added to what the output held), 'execute_error', 'unsupported' (``check_support`` raises
    cudnnGraphNotSupportedError),
    'unserializable' (``serialize`` raises, as for an engine that is not runtime-compiled), 'bad plan' (``deserialize``
    raises), 'loaded wrong' and 'loaded execute_error' (a graph loaded by ``deserialize`` answers off by one, or
    fails to execute). ``serialize`` gives a list of byte values (as the binding does) of the graph's JSON;
    ``deserialize`` takes such a list (the binding refuses ``bytes``) into an empty graph, which then executes."""

    __sim__ = True

    def __init__(self, real=None, version=92801):
        super().__init__("cudnn")
        self.real, self.version, self.mode = real, version, None
        self.__version__ = "1.14.0"
        self.cudnnGraphNotSupportedError = real.cudnnGraphNotSupportedError if real else cudnnGraphNotSupportedError
        names = ("HALF", "FLOAT", "DOUBLE", "BFLOAT16")
        self.data_type = real.data_type if real else types.SimpleNamespace(**{n: n for n in names})
        self.heur_mode = real.heur_mode if real else types.SimpleNamespace(A="A", B="B", FALLBACK="FALLBACK")
        self.numerical_note = real.numerical_note if real else types.SimpleNamespace(
            TENSOR_CORE="TENSOR_CORE", NONDETERMINISTIC="NONDETERMINISTIC")
        self.handles, self.streams, self.builds, self.executes, self.graphs = 0, [], [], 0, []
        self.serialized, self.loads = 0, 0
        self.arrays = {}
        self.handle_error = None

    # module functions
    def backend_version(self):
        return self.version

    def backend_version_string(self):
        v = self.version
        return f"{v // 10000}.{v % 10000 // 100}.{v % 100}"

    def create_handle(self):
        if self.handle_error:
            raise RuntimeError(self.handle_error)
        self.handles += 1
        return 0x5000 + self.handles

    def set_stream(self, handle, stream):
        self.streams.append((handle, stream))

    def pygraph(self, **kwargs):
        graph = _FakeGraph(self, kwargs)
        self.graphs.append(graph)
        return graph

    def pointer(self, a):
        """The path's ``pointer``: the host address of the stand-in array's data (remembered, to check bounds)."""
        addr = a.__array_interface__["data"][0]
        self.arrays[addr] = a
        return addr

    def view(self, addr, dim, stride, data_type, writeable=False):
        """What cuDNN reads at ``addr``: ``dim`` elements ``stride`` apart, of ``data_type``."""
        base = self.arrays[addr]
        dtype = np.dtype(_NP_OF[data_type])
        assert base.dtype == dtype, f"{data_type} declared for a {base.dtype} buffer"
        span = (1 + sum((d - 1) * s for d, s in zip(dim, stride))) * dtype.itemsize
        assert all(s > 0 for s in stride) and span <= base.nbytes, (dim, stride, base.shape, base.strides)
        raw = (ctypes.c_char * span).from_address(addr)
        flat = np.frombuffer(raw, dtype=dtype)
        return np.lib.stride_tricks.as_strided(flat, tuple(dim), tuple(s * dtype.itemsize for s in stride),
                                               writeable=writeable)


class _FakeGraph:
    def __init__(self, fake, kwargs):
        self.fake, self.kwargs, self.built, self.deselected = fake, kwargs, False, []
        self.loaded = None          # the JSON of a graph loaded by deserialize
        if fake.real is not None:
            args = {k: v for k, v in kwargs.items() if k != "handle"}
            self.inner = fake.real.pygraph(device_property=fake.real.create_device_properties(-1), **args)
        else:
            self.inner, self.tensors, self.node = None, {}, None

    def tensor(self, name, dim, stride, data_type, uid):
        if self.inner is not None:
            return self.inner.tensor(name=name, dim=dim, stride=stride, data_type=data_type, uid=uid)
        t = self.tensors[name] = _Tensor(name, list(dim), list(stride), data_type, uid)
        return t

    def _conv(self, tag, inputs, out_name, **attrs):
        if self.inner is not None:
            method = {"CONV_FPROP": "conv_fprop", "CONV_DGRAD": "conv_dgrad", "CONV_WGRAD": "conv_wgrad"}[tag]
            names = {"CONV_FPROP": ("image", "weight"), "CONV_DGRAD": ("loss", "filter"),
                     "CONV_WGRAD": ("image", "loss")}[tag]
            return getattr(self.inner, method)(**dict(zip(names, inputs.values())), **attrs)
        out = self.tensors[f"{attrs['name']}::{out_name}"] = _Tensor(f"{attrs['name']}::{out_name}")
        self.node = dict(tag=tag, inputs={k: t.name for k, t in inputs.items()}, outputs={out_name: out.name},
                         **{k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in attrs.items()})
        return out

    def conv_fprop(self, image, weight, **attrs):
        return self._conv("CONV_FPROP", {"X": image, "W": weight}, "Y", **attrs)

    def conv_dgrad(self, loss, filter, **attrs):  # noqa: A002 - the frontend's name
        return self._conv("CONV_DGRAD", {"DY": loss, "W": filter}, "DX", **attrs)

    def conv_wgrad(self, image, loss, **attrs):
        return self._conv("CONV_WGRAD", {"X": image, "DY": loss}, "DW", **attrs)

    def validate(self):
        if self.inner is not None:
            self.inner.validate()

    def as_json(self):
        """The graph as the frontend prints it (``str(graph)``): nodes and tensors by name."""
        if self.loaded is not None:
            return self.loaded
        if self.inner is not None:
            return json.loads(str(self.inner))
        name = lambda v: getattr(v, "name", str(v))  # noqa: E731
        tensors = {t.name: dict(dim=t.dim, stride=t.stride, data_type=name(t.data_type), uid=t.uid)
                   for t in self.tensors.values()}
        node = {k: (name(v) if k == "compute_data_type" else v) for k, v in self.node.items()}
        return {"nodes": [node], "tensors": tensors}

    # building
    def build_operation_graph(self):
        self.fake.builds.append(self)

    def create_execution_plans(self, modes):
        assert list(modes) == [self.fake.heur_mode.A, self.fake.heur_mode.FALLBACK]

    def deselect_numeric_notes(self, notes):
        self.deselected.extend(notes)

    def check_support(self):
        node = self.as_json()["nodes"][0]
        uneven = node["pre_padding"] != node["post_padding"]
        if self.fake.mode == "unsupported" or (self.fake.mode == "even" and uneven):
            raise self.fake.cudnnGraphNotSupportedError("no engine")

    def build_plans(self):
        self.built = True

    def get_workspace_size(self):
        assert self.built
        return 4096

    def serialize(self):
        assert self.built
        if self.fake.mode == "unserializable":
            raise RuntimeError("CUDNN_STATUS_NOT_SUPPORTED: the engine is not serializable")
        self.fake.serialized += 1
        return list(json.dumps(self.as_json()).encode())

    def deserialize(self, pyobj):
        assert isinstance(pyobj, list), "the binding takes a sequence of byte values, not bytes"
        assert self.kwargs.get("handle") is not None
        if self.fake.mode == "bad plan":
            raise RuntimeError("[cudnn_frontend] Error: deserialization failed")
        self.loaded = json.loads(bytes(pyobj).decode())
        self.built = True
        self.fake.loads += 1

    def execute(self, pack, workspace, handle=None):
        fake = self.fake
        assert self.built and handle is not None
        if fake.mode == "execute_error" or (fake.mode == "loaded execute_error" and self.loaded is not None):
            raise RuntimeError("CUDNN_STATUS_EXECUTION_FAILED")
        if workspace:
            assert fake.arrays[workspace].nbytes >= 4096
        fake.executes += 1
        graph = self.as_json()
        node = graph["nodes"][0]
        by_uid = {t["uid"]: (n, t) for n, t in graph["tensors"].items()}
        views = {}
        for uid, addr in pack.items():
            n, t = by_uid[uid]
            views[n] = fake.view(addr, t["dim"], t["stride"], t["data_type"], writeable=n in node["outputs"].values())
        geo = [node[k] for k in ("pre_padding", "post_padding", "stride", "dilation")]
        ins = {k: views[v] for k, v in node["inputs"].items()}
        (out_key, out_name), = node["outputs"].items()
        out = views[out_name]
        if node["tag"] == "CONV_FPROP":
            r = np_fprop(ins["X"], ins["W"], *geo, out.shape[2:])
        elif node["tag"] == "CONV_DGRAD":
            r = np_dgrad(ins["DY"], ins["W"], *geo, out.shape)
        else:
            r = np_wgrad(ins["X"], ins["DY"], *geo, out.shape)
        if fake.mode == "wrong" or (fake.mode == "loaded wrong" and self.loaded is not None):
            r = r + 1
        if fake.mode == "accumulate":        # an engine that adds into its output, as one did on an H200
            r = out + r
        out[...] = r.astype(out.dtype)


# --- fixtures ---------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sim():
    loaded = cupy_sim.load_kernel_families()
    return loaded.cupy, loaded.modules["conv"]


@pytest.fixture(autouse=True)
def _fresh_stand_in_paths():
    """The stand-in's shared path (the conv kernels' ``_CUDNN``) forgets a fake cuDNN after each test."""
    yield
    for cupy, path in list(mscudnn._PATHS.values()):
        if getattr(cupy, "__sim__", False):
            path.reset()
            path.pointer = mscudnn._device_pointer
    mscudnn.VERDICTS.reset()
    mscudnn.PLANS.reset()


def _path(cp, fake, monkeypatch):
    """The stand-in's path (the one the conv kernels ask) on ``fake``."""
    monkeypatch.setitem(sys.modules, "cudnn", fake)
    monkeypatch.delenv(mscudnn.ENV, raising=False)
    monkeypatch.delenv("CUPY_TF32", raising=False)
    path = mscudnn.for_cupy(cp)
    path.reset()
    path.pointer = fake.pointer
    return path


CASES = [  # (nd, x shape, out channels, kernel, pad_mode, pad, stride, dilation, group)
    (2, (2, 4, 7, 6), 8, 3, "valid", 0, 1, 1, 1),
    (2, (2, 4, 9, 8), 6, (3, 2), "pad", (1, 2, 0, 1), (2, 1), (1, 2), 2),
    (2, (1, 4, 8, 8), 4, 3, "same", 0, 2, 2, 4),          # depthwise, stride 2, dilation 2
    (2, (2, 2, 6, 7), 4, (2, 3), "same", 0, (3, 2), 1, 1),  # odd 'same' padding: more after than before
    (3, (1, 4, 5, 6, 5), 4, (2, 3, 2), "pad", (1, 0, 0, 1, 1, 1), (1, 2, 1), (2, 1, 1), 2),
    (3, (2, 2, 4, 5, 6), 4, 3, "same", 0, 2, 1, 1),
]


def _prims(nd, cout, k, pad_mode, pad, stride, dilation, group):
    kw = dict(pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation, group=group)
    if nd == 2:
        return (defs.Conv2D(cout, k, **kw), defs.Conv2DBackpropInput(cout, k, **kw),
                defs.Conv2DBackpropFilter(cout, k, **kw))
    return defs.Conv3D(cout, k, **kw), defs.Conv3DBackpropInput(cout, k, **kw), defs.Conv3DBackpropFilter(cout, k, **kw)


def _operands(case, dtype, seed=3):
    nd, shape, cout, k, pad_mode, pad, stride, dilation, group = case
    k = (k,) * nd if isinstance(k, int) else k
    rng = np.random.default_rng(seed)
    fwd = _prims(*case[:1], cout, k, pad_mode, pad, stride, dilation, group)[0]
    _, _, _, win = fwd.geometry_for(shape)
    x = rng.normal(size=shape).astype(dtype)
    w = rng.normal(size=(cout, shape[1] // group) + tuple(k)).astype(dtype)
    dout = rng.normal(size=(shape[0], cout) + tuple(win.out)).astype(dtype)
    return _prims(nd, cout, k, pad_mode, pad, stride, dilation, group), x, w, dout


def _three(path, conv, cp, prims, x, w, dout):
    """(y, dx, dw) by the path (each None where it declined)."""
    fwd, bin_, bfil = prims
    xd, wd, dd = cp.asarray(x), cp.asarray(w), cp.asarray(dout)
    return (path.forward(fwd, xd, wd, conv._forward),
            path.backward_input(bin_, dd, wd, x.shape, conv._backward_input),
            path.backward_filter(bfil, dd, xd, w.shape, conv._backward_filter))


def _plain(kernel, *args):
    """``kernel(*args)`` with every cuDNN path declining: the im2col result."""
    mscudnn._LOCAL.bypass = True
    try:
        return kernel(*args)
    finally:
        mscudnn._LOCAL.bypass = False


def _im2col(conv, cp, prims, x, w, dout):
    """(y, dx, dw) by the conv kernels with every cuDNN path declining."""
    fwd, bin_, bfil = prims
    xd, wd, dd = cp.asarray(x), cp.asarray(w), cp.asarray(dout)
    mscudnn._LOCAL.bypass = True
    try:
        return (conv._forward(fwd, xd, wd), conv._backward_input(bin_, dd, wd, x.shape),
                conv._backward_filter(bfil, dd, xd, w.shape))
    finally:
        mscudnn._LOCAL.bypass = False


TOL = {np.dtype(np.float64): 1e-10, np.dtype(np.float32): 1e-4, np.dtype(np.float16): 2e-2}


# --- (b) the plumbing on the stand-in ------------------------------------------------------------------------------
@pytest.mark.parametrize("real", [False, pytest.param(True, marks=needs_frontend)], ids=["fake", "real-frontend"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_results_equal_im2col(sim, monkeypatch, case, dtype, real):
    cp, conv = sim
    fake = FakeCudnn(REAL if real else None)
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[case], dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no check may fail, nothing may fall back with a warning
        got = _three(path, conv, cp, prims, x, w, dout)
    want = _im2col(conv, cp, prims, x, w, dout)
    tol = TOL[np.dtype(dtype)]
    for name, g, o in zip(("y", "dx", "dw"), got, want):
        assert g is not None, name
        assert g.dtype == np.dtype(dtype) and g.shape == o.shape, name
        np.testing.assert_allclose(cp.asnumpy(g).astype(np.float64), cp.asnumpy(o).astype(np.float64), rtol=tol,
                                   atol=tol, err_msg=name)
    nd = CASES[case][0]
    assert path._checked == {(op, nd, np.dtype(dtype).name) for op in mscudnn.OPS}
    # float32 keeps full precision: the TF32 engines are deselected (only for float32)
    deselected = [g.deselected for g in fake.builds]
    assert all(d == ([fake.numerical_note.TENSOR_CORE] if dtype == np.float32 else []) for d in deselected)


def test_deterministic_context_deselects_nondeterministic_engines(sim, monkeypatch):
    import mindspore as ms
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    monkeypatch.setenv("CUPY_TF32", "1")
    prims, x, w, dout = _operands(CASES[0], np.float32)
    before = ms.get_context("deterministic")
    ms.set_context(deterministic="ON")
    try:
        assert all(g is not None for g in _three(path, conv, cp, prims, x, w, dout))
    finally:
        ms.set_context(deterministic=before)
    assert fake.builds and all(g.deselected == [fake.numerical_note.NONDETERMINISTIC] for g in fake.builds)


def test_bfloat16_and_its_check(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    x, w, dout = (a.astype(BF16) for a in (x, w, dout))
    got = _three(path, conv, cp, prims, x, w, dout)
    want = _im2col(conv, cp, prims, x, w, dout)
    for g, o in zip(got, want):
        assert g is not None and g.dtype == BF16
        np.testing.assert_allclose(cp.asnumpy(g).astype(np.float64), cp.asnumpy(o).astype(np.float64), rtol=2e-2,
                                   atol=5e-2)
    assert fake.graphs[0].as_json()["tensors"]["X"]["data_type"] == "BFLOAT16"


def test_a_cache_hit_rebuilds_nothing(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    xd, wd = cp.asarray(x), cp.asarray(w)
    y1 = path.forward(prims[0], xd, wd, conv._forward)
    assert len(fake.builds) == 3 and fake.handles == 1          # the two known-answer cases, then this case
    graphs, executes = len(fake.graphs), fake.executes
    y2 = path.forward(prims[0], xd, wd, conv._forward)
    assert len(fake.graphs) == graphs and len(fake.builds) == 3 and fake.executes == executes + 1
    np.testing.assert_array_equal(cp.asnumpy(y1), cp.asnumpy(y2))
    # the handle was bound to the current stream once, and again only when the stream changed
    assert len(fake.streams) == 1 and fake.streams[0][1] == cp.cuda.get_current_stream().ptr
    s = cp.cuda.Stream()
    with s:
        path.forward(prims[0], xd, wd, conv._forward)
    assert fake.streams[-1][1] == s.ptr and len(fake.builds) == 3
    # another shape, another graph (the check is not repeated)
    path.forward(prims[0], cp.asarray(np.concatenate([x, x])), wd, conv._forward)
    assert len(fake.builds) == 4
    assert path.stats[("fprop", 2, "float32", "cudnn")] == 4
    assert "fprop 2-D float32: 4 on cuDNN" in path.summary()


def test_the_output_and_strided_operands(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    want = cp.asnumpy(_plain(conv._forward, prims[0], cp.asarray(x), cp.asarray(w)))
    # channels-last storage: read in place with its strides
    xl = cp.asarray(np.ascontiguousarray(x.transpose(0, 2, 3, 1))).transpose(0, 3, 1, 2)
    y = path.forward(prims[0], xl, cp.asarray(w), conv._forward)
    np.testing.assert_allclose(cp.asnumpy(y), want, rtol=1e-5, atol=1e-5)
    described = fake.graphs[-1].as_json()["tensors"]
    assert described["X"]["stride"] == [s // 4 for s in xl.strides]
    # the output: packed NCHW, set explicitly
    assert described["fprop::Y"]["dim"] == list(want.shape)
    assert described["fprop::Y"]["stride"] == list(mscudnn.packed(want.shape))
    # a view with gaps is copied first
    xg = cp.asarray(np.concatenate([x, x], axis=3))[:, :, :, ::2]
    y = path.forward(prims[0], xg, cp.asarray(w), conv._forward)
    np.testing.assert_allclose(cp.asnumpy(y), cp.asnumpy(_plain(conv._forward, prims[0], xg, cp.asarray(w))), rtol=1e-5,
                               atol=1e-5)
    assert fake.graphs[-1].as_json()["tensors"]["X"]["stride"] == list(mscudnn.packed(xg.shape))


def test_turned_off_by_the_environment(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    monkeypatch.setenv(mscudnn.ENV, "0")
    path.reset()
    prims, x, w, dout = _operands(CASES[0], np.float32)
    assert _three(path, conv, cp, prims, x, w, dout) == (None, None, None)
    assert path.status() == mscudnn.OFF and fake.handles == 0 and not fake.graphs
    assert "MS_GPU_CUDNN=0" in path.describe_status()


def test_a_wrong_answer_turns_the_op_off_with_one_warning(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    fake.mode = "wrong"
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    with pytest.warns(RuntimeWarning, match=r"cuDNN fprop \(2-D, float32\) is turned off.*known-answer check"):
        assert path.forward(prims[0], cp.asarray(x), cp.asarray(w), conv._forward) is None
    builds = len(fake.builds)
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # one warning only
        assert path.forward(prims[0], cp.asarray(x), cp.asarray(w), conv._forward) is None
    assert len(fake.builds) == builds           # nothing built for a disabled op
    assert ("fprop", 2, "float32") in path._disabled and path.stats[("fprop", 2, "float32", "fallback")] == 2
    # the other ops have their own checks (and fail them too, on this fake); float64 is checked apart
    fake.mode = None
    y = path.forward(prims[0], cp.asarray(x.astype(np.float64)), cp.asarray(w.astype(np.float64)), conv._forward)
    assert y is not None and ("fprop", 2, "float64") in path._checked


def test_an_engine_reading_its_output_is_caught_and_its_cases_run_im2col(sim, monkeypatch):
    """Memory from CuPy's pool holds old values: an engine that adds into its output fails the known-answer check
    (run twice, the second time over the first result), and a case found wrong when built runs im2col."""
    cp, conv = sim
    fake = FakeCudnn()
    fake.mode = "accumulate"
    path = _path(cp, fake, monkeypatch)
    empty = cp.empty

    def dirty_empty(shape, dtype=np.float32, *args, **kwargs):
        a = empty(shape, dtype, *args, **kwargs)
        a.fill(np.nan if np.dtype(dtype).kind == "f" else 7)
        return a
    monkeypatch.setattr(cp, "empty", dirty_empty)
    prims, x, w, dout = _operands(CASES[0], np.float32)
    with pytest.warns(RuntimeWarning, match=r"cuDNN fprop \(2-D, float32\) is turned off.*known-answer check"):
        assert path.forward(prims[0], cp.asarray(x), cp.asarray(w), conv._forward) is None
    # a case wrong when built (the op's own check passed: here the known-answer check is taken as done)
    path._checked.add(("wgrad", 2, "float32"))
    with pytest.warns(RuntimeWarning, match=r"cuDNN answered a wgrad \(2-D, float32\) of dims .* wrongly"):
        assert path.backward_filter(prims[2], cp.asarray(dout), cp.asarray(x), w.shape, conv._backward_filter) is None
    assert len(path.wrong[("wgrad", 2, "float32")]) == 1 and "answered wrongly" in path.summary()
    dw = conv._backward_filter(prims[2], cp.asarray(dout), cp.asarray(x), w.shape)      # the kernel: im2col
    np.testing.assert_allclose(cp.asnumpy(dw), cp.asnumpy(_im2col(conv, cp, prims, x, w, dout)[2]), rtol=1e-6)


# --- checks passed, remembered on disk -----------------------------------------------------------------------------
def _device(monkeypatch, cp, name=b"NVIDIA H200", driver=13000):
    """The stand-in's device with properties and versions (without them nothing is remembered)."""
    runtime = cp.cuda.runtime
    monkeypatch.setattr(runtime, "getDeviceProperties", lambda i: {"name": name, "major": 9, "minor": 0},
                        raising=False)
    monkeypatch.setattr(runtime, "driverGetVersion", lambda: driver, raising=False)
    monkeypatch.setattr(runtime, "runtimeGetVersion", lambda: 13020, raising=False)


@pytest.fixture
def remembering(sim, monkeypatch, tmp_path):
    """The fake cuDNN on the stand-in with a device to key verdicts by, and a cache folder of the test's own (plans
    are not kept: ``keeping_plans`` keeps them); the path's ``next_process()`` forgets what a process forgets (the
    built graphs, the checks, what was read)."""
    cp, conv = sim
    _device(monkeypatch, cp)
    monkeypatch.setenv("MS_GPU_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("MS_GPU_CUDNN_CHECK_CACHE", raising=False)
    monkeypatch.setenv("MS_GPU_CUDNN_PLAN_CACHE", "0")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    mscudnn.VERDICTS.reset()
    mscudnn.PLANS.reset()

    def next_process():
        path.reset()
        path.pointer = fake.pointer
        mscudnn.VERDICTS.reset()
        mscudnn.PLANS.reset()
    path.next_process = next_process
    return cp, conv, fake, path, tmp_path / "cudnn_checks.json"


def _forward(path, conv, cp, case=1, dtype=np.float32):
    prims, x, w, _ = _operands(CASES[case], dtype)
    return path.forward(prims[0], cp.asarray(x), cp.asarray(w), conv._forward), prims, x, w


def test_checks_passed_are_remembered_by_the_next_process(remembering):
    cp, conv, fake, path, file = remembering
    first, prims, x, w = _forward(path, conv, cp)
    # the known-answer check built its two cases, then the case itself was built and checked
    assert len(fake.builds) == 3 and fake.executes == 2 * 2 + 1 + 1 and not path.remembered
    saved = json.loads(file.read_text())
    assert saved["version"] == verdicts.VERSION
    (environment, kinds), = saved["environments"].items()
    assert environment == ("cuDNN 92801 frontend 1.14.0; NVIDIA H200 sm_90; driver 13000 runtime 13020; tf32 0 "
                           "deterministic 0")
    assert kinds["known-answer"] == ["fprop 2-D float32"] and len(kinds["case"]) == 1
    assert kinds["case"][0].startswith("op=fprop dtype=float32 a_dim=2,4,9,8 a_stride=288,72,8,1 b_dim=6,2,3,2")

    path.next_process()
    builds, executes = len(fake.builds), fake.executes
    again, *_ = _forward(path, conv, cp)
    # this case alone was built, and run once: no known-answer build, no per-case check
    assert len(fake.builds) == builds + 1 and fake.executes == executes + 1
    assert path.remembered == {"known-answer": 1, "case": 1}
    assert "fprop 2-D float32: 1 on cuDNN, 0 on im2col, known-answer check passed (in an earlier process)" in \
        path.summary()
    np.testing.assert_array_equal(cp.asnumpy(again), cp.asnumpy(first))
    np.testing.assert_allclose(cp.asnumpy(again), cp.asnumpy(_plain(conv._forward, prims[0], cp.asarray(x),
                                                                    cp.asarray(w))), rtol=1e-5, atol=1e-5)
    # another case of the same op: its own check runs (the op's known-answer check is remembered)
    _, prims, x, w = _forward(path, conv, cp, case=0)
    assert path.remembered == {"known-answer": 1, "case": 1} and fake.executes == executes + 1 + 2
    assert len(json.loads(file.read_text())["environments"][environment]["case"]) == 2


def _change_environment(monkeypatch, cp, fake, change):
    """Another cuDNN, driver, device, ``CUPY_TF32`` or ``deterministic`` than the test began with."""
    if change == "cudnn":
        fake.version = 92900
    elif change == "driver":
        _device(monkeypatch, cp, driver=13010)
    elif change == "device":
        _device(monkeypatch, cp, name=b"NVIDIA H100 80GB HBM3")
    elif change == "tf32":
        monkeypatch.setenv("CUPY_TF32", "1")
    else:
        from mindspore import context
        monkeypatch.setattr(context, "get_context", lambda key: "ON" if key == "deterministic" else None)


def test_failures_are_not_remembered(remembering, monkeypatch):
    cp, conv, fake, path, file = remembering
    fake.mode = "wrong"
    with pytest.warns(RuntimeWarning, match="known-answer check"):
        assert _forward(path, conv, cp)[0] is None
    assert not file.exists()
    path.next_process()
    with pytest.warns(RuntimeWarning, match="known-answer check"):      # checked (and refused) again
        assert _forward(path, conv, cp)[0] is None
    # a case found wrong when built: its op's check passed and is remembered, the case is not
    fake.mode = "accumulate"
    path.next_process()
    path._checked.add(("wgrad", 2, "float32"))
    prims, x, w, dout = _operands(CASES[0], np.float32)
    empty = cp.empty
    monkeypatch.setattr(cp, "empty", lambda shape, dtype=np.float32, *a, **k: empty(shape, dtype, *a, **k) + 1)
    with pytest.warns(RuntimeWarning, match="wrongly"):
        assert path.backward_filter(prims[2], cp.asarray(dout), cp.asarray(x), w.shape, conv._backward_filter) is None
    assert not file.exists()


def test_turned_off_corrupt_or_unwritable(remembering, monkeypatch, tmp_path):
    cp, conv, fake, path, file = remembering
    monkeypatch.setenv("MS_GPU_CUDNN_CHECK_CACHE", "0")
    mscudnn.VERDICTS.reset()
    _forward(path, conv, cp)
    assert not file.exists() and mscudnn.VERDICTS.path is None
    # a file of another version, or not JSON: read as empty, then rewritten
    monkeypatch.delenv("MS_GPU_CUDNN_CHECK_CACHE")
    for text in ("{not json", json.dumps({"version": -1, "environments": {"x": {"case": ["y"]}}})):
        file.write_text(text)
        path.next_process()
        builds = len(fake.builds)
        _forward(path, conv, cp)
        assert len(fake.builds) == builds + 3 and not path.remembered
        assert json.loads(file.read_text())["version"] == verdicts.VERSION
    # a folder that cannot be made (a file stands in its way): the checks run, nothing raises
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("MS_GPU_CACHE_DIR", str(blocker / "gpu"))
    path.next_process()
    builds = len(fake.builds)
    assert _forward(path, conv, cp)[0] is not None
    assert len(fake.builds) == builds + 3 and mscudnn.VERDICTS.path is None


def test_nothing_is_remembered_without_device_properties(sim, monkeypatch, tmp_path):
    cp, conv = sim
    monkeypatch.setenv("MS_GPU_CACHE_DIR", str(tmp_path))
    path = _path(cp, FakeCudnn(), monkeypatch)
    assert _forward(path, conv, cp)[0] is not None
    assert not list(tmp_path.iterdir())


# --- plans built, kept on disk --------------------------------------------------------------------------------------
@pytest.fixture
def keeping_plans(remembering, monkeypatch):
    """``remembering`` with the plans kept too (in its folder's ``cudnn_plans``)."""
    cp, conv, fake, path, file = remembering
    monkeypatch.delenv("MS_GPU_CUDNN_PLAN_CACHE")
    mscudnn.PLANS.reset()
    return cp, conv, fake, path, file.parent / "cudnn_plans"


def _plans(folder):
    return sorted(folder.glob("*.plan")) if folder.exists() else []


def _plan_of(folder, kind="fprop"):
    """The plan file of the ``kind`` convolution (the header names its case)."""
    found = [f for f in _plans(folder) if f'"key": "op={kind} ' in f.read_bytes().partition(b"\n")[0].decode()]
    assert len(found) == 1, found
    return found[0]


def test_plans_are_loaded_by_the_next_process_not_built(keeping_plans):
    cp, conv, fake, path, folder = keeping_plans
    first, prims, x, w = _forward(path, conv, cp)
    # the case's plan is kept once its check passed; the known-answer check's own cases are not kept
    assert fake.serialized == 1 and len(_plans(folder)) == 1
    header = json.loads(_plans(folder)[0].read_bytes().partition(b"\n")[0])
    assert header["version"] == 1 and header["key"].startswith("op=fprop dtype=float32 a_dim=2,4,9,8")
    assert header["environment"].startswith("cuDNN 92801 frontend 1.14.0; NVIDIA H200 sm_90")
    assert "plans on disk: 1 stored" in path.summary()

    path.next_process()
    builds, executes = len(fake.builds), fake.executes
    again, *_ = _forward(path, conv, cp)
    # loaded, not built; its check runs once (a plan loaded is checked by the first process that loads it)
    assert len(fake.builds) == builds and fake.loads == 1 and fake.executes == executes + 2
    assert "plans on disk: 1 loaded" in path.summary()
    np.testing.assert_array_equal(cp.asnumpy(again), cp.asnumpy(first))
    assert fake.serialized == 1                                    # (not stored again)

    path.next_process()
    executes = fake.executes
    third, *_ = _forward(path, conv, cp)
    assert len(fake.builds) == builds and fake.loads == 2 and fake.executes == executes + 1
    assert path.remembered == {"known-answer": 1, "stored plan": 1}
    np.testing.assert_allclose(cp.asnumpy(third), cp.asnumpy(_plain(conv._forward, prims[0], cp.asarray(x),
                                                                    cp.asarray(w))), rtol=1e-5, atol=1e-5)
    # the plan is a cache hit: further calls neither load nor build
    _forward(path, conv, cp)
    assert fake.loads == 2 and len(fake.builds) == builds


@pytest.mark.parametrize("change", ["cudnn", "driver", "device", "tf32", "deterministic"])
def test_another_environment_checks_and_builds_again(keeping_plans, monkeypatch, change):
    cp, conv, fake, path, folder = keeping_plans
    _forward(path, conv, cp)
    path.next_process()
    _change_environment(monkeypatch, cp, fake, change)
    builds = len(fake.builds)
    assert _forward(path, conv, cp)[0] is not None
    # no check passed nor plan built elsewhere counts: both checks and the case are built again, and kept apart
    assert len(fake.builds) == builds + 3 and not path.remembered and fake.loads == 0
    assert len(json.loads((folder.parent / "cudnn_checks.json").read_text())["environments"]) == 2
    assert len(_plans(folder)) == 2


def test_an_engine_that_cannot_be_serialized_is_built_each_time(keeping_plans):
    cp, conv, fake, path, folder = keeping_plans
    fake.mode = "unserializable"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _forward(path, conv, cp)[0] is not None
    assert not _plans(folder) and "plans on disk: 1 not serializable" in path.summary()
    path.next_process()
    builds = len(fake.builds)
    assert _forward(path, conv, cp)[0] is not None
    assert len(fake.builds) == builds + 1 and fake.loads == 0


@pytest.mark.parametrize("damage", ["bad plan", "truncated", "another header", "loaded wrong",
                                    "loaded execute_error"])
def test_a_stored_plan_that_fails_is_thrown_away_and_built(keeping_plans, monkeypatch, damage):
    cp, conv, fake, path, folder = keeping_plans
    _forward(path, conv, cp)
    plan = _plan_of(folder)
    if damage == "truncated":
        plan.write_bytes(plan.read_bytes().partition(b"\n")[0])
    elif damage == "another header":       # a hash collision, or a file of another version
        head, _, body = plan.read_bytes().partition(b"\n")
        plan.write_bytes(head.replace(b"op=fprop", b"op=dgrad") + b"\n" + body)
    else:
        fake.mode = damage
    path.next_process()
    builds = len(fake.builds)
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # no warning, and the op is not turned off
        got, prims, x, w = _forward(path, conv, cp)
    want = _plain(conv._forward, prims[0], cp.asarray(x), cp.asarray(w))
    np.testing.assert_allclose(cp.asnumpy(got), cp.asnumpy(want), rtol=1e-5, atol=1e-5)
    assert len(fake.builds) == builds + 1 and not path._disabled
    if damage in ("loaded wrong", "loaded execute_error"):
        # loaded, checked, thrown away, built afresh and kept again
        assert fake.loads == 1 and mscudnn.PLANS.stats["discarded"] == 1
        fake.mode = None
        path.next_process()
        builds = len(fake.builds)
        _forward(path, conv, cp)
        assert len(fake.builds) == builds and fake.loads == 2
    elif damage == "bad plan":
        assert mscudnn.PLANS.stats["discarded"] == 1
    # whichever way: the file now holds the freshly built plan
    assert json.loads(_plan_of(folder).read_bytes().partition(b"\n")[0])["key"].startswith("op=fprop")


def test_a_loaded_plan_that_fails_to_run_later_is_built_again(keeping_plans):
    cp, conv, fake, path, folder = keeping_plans
    _forward(path, conv, cp)
    path.next_process()
    _forward(path, conv, cp)                      # loaded and checked
    fake.mode = "loaded execute_error"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _forward(path, conv, cp)[0] is None    # this call: im2col; the op stays on
        builds = len(fake.builds)
        assert _forward(path, conv, cp)[0] is not None
    assert len(fake.builds) == builds + 1 and not path._disabled and fake.loads == 1


def test_plans_turned_off_or_unwritable(keeping_plans, monkeypatch, tmp_path):
    cp, conv, fake, path, folder = keeping_plans
    monkeypatch.setenv("MS_GPU_CUDNN_PLAN_CACHE", "0")
    path.next_process()
    _forward(path, conv, cp)
    assert not folder.exists() and fake.serialized == 0 and mscudnn.PLANS.folder is None
    monkeypatch.delenv("MS_GPU_CUDNN_PLAN_CACHE")
    folder.write_text("")                          # a file where the folder belongs
    path.next_process()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _forward(path, conv, cp)[0] is not None
    assert mscudnn.PLANS.folder is None and folder.is_file()


def test_errors_fall_back(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    xd, wd = cp.asarray(x), cp.asarray(w)
    assert path.forward(prims[0], xd, wd, conv._forward) is not None
    # an error at execute: off for the process, one warning
    fake.mode = "execute_error"
    with pytest.warns(RuntimeWarning, match="execute failed.*EXECUTION_FAILED"):
        assert path.forward(prims[0], xd, wd, conv._forward) is None
    assert path.forward(prims[0], xd, wd, conv._forward) is None
    # refused at its first call: the check's case was refused too, which turns the op off
    fake.mode = "unsupported"
    dd = cp.asarray(dout)
    with pytest.warns(RuntimeWarning, match=r"dgrad \(2-D, float32\) is turned off.*refused the check's case"):
        assert path.backward_input(prims[1], dd, wd, x.shape, conv._backward_input) is None
    # a case no engine takes: remembered as refused, silently, and only that case
    fake.mode = None
    builds = len(fake.builds)
    assert path.backward_filter(prims[2], dd, xd, w.shape, conv._backward_filter) is not None
    assert len(fake.builds) == builds + 3
    fake.mode = "unsupported"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert path.backward_filter(prims[2], dd[:1], xd[:1], w.shape, conv._backward_filter) is None
    fake.mode = None
    assert path.backward_filter(prims[2], dd[:1], xd[:1], w.shape, conv._backward_filter) is None   # remembered
    assert path.backward_filter(prims[2], dd, xd, w.shape, conv._backward_filter) is not None


def test_uneven_padding_may_be_refused(sim, monkeypatch):
    """A cuDNN refusing uneven before/after padding: the check's even case passes, uneven cases run im2col."""
    cp, conv = sim
    fake = FakeCudnn()
    fake.mode = "even"
    path = _path(cp, fake, monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for case, on_cudnn in ((1, False), (0, True), (2, False), (3, True)):
            prims, x, w, dout = _operands(CASES[case], np.float32)
            got = _three(path, conv, cp, prims, x, w, dout)
            assert all((g is not None) == on_cudnn for g in got), case
    assert path._checked == {(op, 2, "float32") for op in mscudnn.OPS} and not path._disabled


def test_nothing_is_built_while_the_stream_captures(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    xd, wd = cp.asarray(x), cp.asarray(w)
    s = cp.cuda.Stream()
    with s:
        s.begin_capture()
        assert path.forward(prims[0], xd, wd, conv._forward) is None      # not even probed: im2col this time
        assert path._status is None and fake.handles == 0
        s.end_capture()
    assert path.status() is True and fake.handles == 1
    with s:
        s.begin_capture()
        assert path.forward(prims[0], xd, wd, conv._forward) is None      # unchecked, unbuilt: im2col this time
        s.end_capture()
    assert not fake.graphs and not path._checked
    assert path.forward(prims[0], xd, wd, conv._forward) is not None
    builds, executes = len(fake.builds), fake.executes
    with s:
        s.begin_capture()
        assert path.forward(prims[0], xd, wd, conv._forward) is not None  # built: executes on the capturing stream
        s.end_capture()
    assert len(fake.builds) == builds and fake.executes == executes + 1 and fake.streams[-1][1] == s.ptr


def test_cases_declined_without_cudnn(sim, monkeypatch):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    prims, x, w, dout = _operands(CASES[1], np.float32)
    # mixed dtypes, integers and host arrays stay with im2col
    assert path.forward(prims[0], cp.asarray(x), cp.asarray(w.astype(np.float64)), conv._forward) is None
    assert path.forward(prims[0], cp.asarray(x.astype(np.int32)), cp.asarray(w.astype(np.int32)), conv._forward) is None
    assert path.forward(prims[0], x, w, conv._forward) is None
    assert path.forward(prims[0], cp.asarray(x[:0]), cp.asarray(w), conv._forward) is None
    assert not fake.graphs


@pytest.mark.parametrize("setup, reason", [
    (lambda m, fake: m.setitem(sys.modules, "cudnn", None), "the cuDNN frontend is not installed"),
    (lambda m, fake: setattr(fake, "version", 8907), "cuDNN 0.89.7 is too old"),
    (lambda m, fake: setattr(fake, "handle_error", "cudnnHandle Create failed"),
     "no cuDNN handle on the current device (RuntimeError: cudnnHandle Create failed)"),
    (lambda m, fake: setattr(fake, "__sim__", False), mscudnn.STAND_IN),
])
def test_reasons_when_unusable(sim, monkeypatch, setup, reason):
    cp, conv = sim
    fake = FakeCudnn()
    path = _path(cp, fake, monkeypatch)
    setup(monkeypatch, fake)
    path.reset()
    assert reason in path.status()
    assert path.forward(*_operands(CASES[0], np.float32)[0][:1], cp.asarray(np.ones((1, 4, 5, 5), np.float32)),
                        cp.asarray(np.ones((8, 4, 3, 3), np.float32)), conv._forward) is None
    assert path.describe_status().startswith("unused (") and "im2col" in path.describe_status()


def test_environment_info_line(sim, monkeypatch):
    cp, _ = sim
    fake = FakeCudnn()
    monkeypatch.setitem(sys.modules, "cudnn", fake)
    path = mscudnn.for_cupy(cp)
    path.reset()
    assert mscudnn.for_cupy(cp) is path
    line = mscudnn.environment_info(cp)
    assert line.startswith("9.28.1 (frontend 1.14.0): convolutions on cuDNN")
    monkeypatch.setitem(sys.modules, "cudnn", None)
    path.reset()
    assert mscudnn.environment_info(cp).startswith("unused (the cuDNN frontend is not installed")
    path.reset()
    assert mscudnn.environment_info(types.SimpleNamespace()).startswith("unused (")   # never raises


def test_plugin_reports_cudnn(monkeypatch):
    from mindspore_gpu import plugin

    def props(i):
        return {"name": b"NVIDIA H100 80GB HBM3", "totalGlobalMem": 80 * 2**30, "major": 9, "minor": 0}
    runtime = types.SimpleNamespace(runtimeGetVersion=lambda: 13020, driverGetVersion=lambda: 13000,
                                    getDeviceCount=lambda: 1, getDeviceProperties=props)
    fake_cupy = types.SimpleNamespace(__version__="14.2.0", cuda=types.SimpleNamespace(runtime=runtime))
    monkeypatch.setattr(plugin, "import_cupy", lambda: (fake_cupy, None))
    monkeypatch.setenv(mscudnn.ENV, "0")
    mscudnn.for_cupy(fake_cupy).reset()
    assert plugin.ms_environment_info()["cudnn"] == f"unused ({mscudnn.OFF}); convolutions are im2col + cuBLAS"


# --- (a) the descriptions against the real frontend ----------------------------------------------------------------
@needs_frontend
@pytest.mark.parametrize("op", mscudnn.OPS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_descriptions_the_real_frontend_validates(op, dtype):
    a, b, out = {"fprop": ((2, 4, 7, 8), (6, 2, 3, 2), (2, 6, 4, 9)),
                 "dgrad": ((2, 6, 4, 9), (6, 2, 3, 2), (2, 4, 7, 8)),
                 "wgrad": ((2, 4, 7, 8), (2, 6, 4, 9), (6, 2, 3, 2))}[op]
    a_stride = (224, 1, 32, 4)   # channels-last storage of `a`
    spec = mscudnn.Spec(op, dtype, a, a_stride, b, mscudnn.packed(b), out, (1, 2), (0, 1), (2, 1), (1, 2))
    graph = mscudnn.describe(REAL, spec, device_property=REAL.create_device_properties(-1))
    j = json.loads(str(graph))
    io, compute = mscudnn.DTYPES[dtype]
    assert j["context"]["io_data_type"] == io and j["context"]["compute_data_type"] == compute
    (node,) = j["nodes"]
    assert node["tag"] == "CONV_" + op.upper() and node["math_mode"] == "CROSS_CORRELATION"
    assert (node["pre_padding"], node["post_padding"], node["stride"], node["dilation"]) == ([1, 2], [0, 1], [2, 1],
                                                                                              [1, 2])
    assert node["compute_data_type"] == compute
    names = {"fprop": ("X", "W", "Y"), "dgrad": ("DY", "W", "DX"), "wgrad": ("X", "DY", "DW")}[op]
    ins = list(node["inputs"].items())
    assert {k for k, _ in ins} == set(names[:2]) and list(node["outputs"]) == [names[2]]
    tensors = j["tensors"]
    for name, dim, stride, uid in ((node["inputs"][names[0]], a, a_stride, mscudnn.UID_A),
                                   (node["inputs"][names[1]], b, mscudnn.packed(b), mscudnn.UID_B),
                                   (node["outputs"][names[2]], out, mscudnn.packed(out), mscudnn.UID_OUT)):
        t = tensors[name]
        assert (t["dim"], t["stride"], t["uid"], t["data_type"]) == (list(dim), list(stride), uid, io), name
        assert not t["is_virtual"]


@needs_frontend
def test_real_frontend_reports_a_version_and_refuses_a_bad_description():
    assert REAL.backend_version() >= mscudnn.MIN_VERSION
    spec = mscudnn.Spec("fprop", "float32", (1, 2, 5, 5), mscudnn.packed((1, 2, 5, 5)), (2, 2, 3, 3),
                        mscudnn.packed((2, 2, 3, 3)), (1, 2, 3, 3), (0, 0), (0, 0), (1, 1), ())
    with pytest.raises(ValueError, match="dilation not set"):
        mscudnn.describe(REAL, spec, device_property=REAL.create_device_properties(-1))


# --- (c) on a real GPU ------------------------------------------------------------------------------------------------
def _gpu_path():
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None, "no CUDA device"
    except Exception as exc:  # noqa: BLE001
        return None, f"no CuPy/GPU ({type(exc).__name__})"
    path = mscudnn.for_cupy(cupy)
    status = path.status()
    return (path, None) if status is True else (None, f"cuDNN unusable: {status}")


def _gpu_status():
    path, reason = _gpu_path()
    return reason or ""


needs_gpu_cudnn = pytest.mark.skipif(bool(_gpu_status()), reason=_gpu_status() or "ok")

GPU_CASES = CASES + [
    (2, (4, 16, 15, 17), 32, 3, "pad", 1, 2, 1, 1),
    (2, (2, 8, 16, 16), 8, 3, "same", 0, 1, 2, 8),        # depthwise, dilation 2
    (2, (2, 8, 12, 12), 16, (3, 5), "pad", (2, 1, 0, 3), 2, 2, 2),
]


@needs_gpu_cudnn
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("case", range(len(GPU_CASES)))
def test_gpu_cudnn_against_im2col_and_the_cpu(case, dtype):
    import cupy
    from mindspore_cpu.kernels import conv as cpu_conv
    from mindspore_gpu.kernels import conv
    path, _ = _gpu_path()
    prims, x, w, dout = _operands(GPU_CASES[case], dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = _three(path, conv, cupy, prims, x, w, dout)
    off = [str(c.message) for c in caught if "turned off" in str(c.message)]
    assert not off, off                    # no known-answer check may fail
    path._local.bypass = True              # the im2col path (even where the kernels call cuDNN first)
    try:
        want = _im2col(conv, cupy, prims, x, w, dout)
    finally:
        path._local.bypass = False
    nd = GPU_CASES[case][0]
    names = ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter") if nd == 2 else (
        "Conv3D", "Conv3DBackpropInput", "Conv3DBackpropFilter")
    cpu = cpu_conv.KERNELS
    fwd, bin_, bfil = prims
    host = (cpu[names[0]](fwd, x, w), cpu[names[1]](bin_, dout, w, x.shape) if nd == 2 else
            cpu[names[1]](bin_, w, dout, x.shape), cpu[names[2]](bfil, dout, x, w.shape) if nd == 2 else
            cpu[names[2]](bfil, x, dout, w.shape))
    tol = 1e-4 if dtype == np.float32 else 2e-2
    for name, op, g, o, h in zip(("y", "dx", "dw"), ("fprop", "dgrad", "wgrad"), got, want, host):
        if g is None:     # only where the per-case check found cuDNN's answer wrong: then the kernels run im2col
            assert path.wrong.get((op, nd, np.dtype(dtype).name)), f"{name}: cuDNN declined ({path.summary()})"
            g = o
        g64 = cupy.asnumpy(g).astype(np.float64)
        scale = max(1.0, float(np.abs(g64).max()))
        np.testing.assert_allclose(g64, cupy.asnumpy(o).astype(np.float64), rtol=tol, atol=tol * scale, err_msg=name)
        np.testing.assert_allclose(g64, np.asarray(h, np.float64), rtol=tol, atol=tol * scale, err_msg=name)


# --- through the conv kernels (kernels/conv.py asks this path first) ------------------------------------------------
@pytest.fixture
def wired(sim, monkeypatch):
    """The conv kernels' own path (``conv._CUDNN``, the stand-in's :func:`mscudnn.for_cupy`) on a fake cuDNN."""
    cp, conv = sim
    fake = FakeCudnn()
    monkeypatch.setitem(sys.modules, "cudnn", fake)
    monkeypatch.delenv(mscudnn.ENV, raising=False)
    monkeypatch.delenv("CUPY_TF32", raising=False)
    path = mscudnn.for_cupy(cp)
    assert conv._CUDNN is path
    path.reset()
    path.pointer = fake.pointer
    yield cp, conv, fake, path
    path.reset()
    path.pointer = mscudnn._device_pointer


def _kernels(conv, prims, nd, xd, wd, dd, x_shape, w_shape):
    k = conv.KERNELS
    if nd == 2:
        return (k["Conv2D"](prims[0], xd, wd), k["Conv2DBackpropInput"](prims[1], dd, wd, x_shape),
                k["Conv2DBackpropFilter"](prims[2], dd, xd, w_shape))
    return (k["Conv3D"](prims[0], xd, wd), k["Conv3DBackpropInput"](prims[1], wd, dd, x_shape, out=None),
            k["Conv3DBackpropFilter"](prims[2], xd, dd, w_shape, out=None))


@pytest.mark.parametrize("case", [1, 4])
def test_the_kernels_run_on_cudnn_and_fall_back_to_im2col(wired, case):
    cp, conv, fake, path = wired
    nd = CASES[case][0]
    prims, x, w, dout = _operands(CASES[case], np.float32)
    xd, wd, dd = cp.asarray(x), cp.asarray(w), cp.asarray(dout)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = _kernels(conv, prims, nd, xd, wd, dd, x.shape, w.shape)
    assert all(path.stats[(op, nd, "float32", "cudnn")] == 1 for op in mscudnn.OPS), path.summary()
    path._local.bypass = True
    try:
        want = _kernels(conv, prims, nd, xd, wd, dd, x.shape, w.shape)
    finally:
        path._local.bypass = False
    for g, o in zip(got, want):
        np.testing.assert_allclose(cp.asnumpy(g), cp.asnumpy(o), rtol=1e-4, atol=1e-4)
    # a cuDNN giving wrong numbers: every op fails its check (one warning each) and the kernels give im2col's result
    fake.mode = "wrong"
    path.reset()
    path.pointer = fake.pointer
    with pytest.warns(RuntimeWarning) as record:
        again = _kernels(conv, prims, nd, xd, wd, dd, x.shape, w.shape)
    messages = [str(r.message) for r in record]
    assert sorted(m.split(" (")[0] for m in messages) == [f"cuDNN {op}" for op in sorted(mscudnn.OPS)], messages
    assert all("known-answer check against im2col failed" in m for m in messages)
    for g, o in zip(again, want):
        np.testing.assert_array_equal(cp.asnumpy(g), cp.asnumpy(o))
    assert all(path.stats[(op, nd, "float32", "fallback")] == 1 for op in mscudnn.OPS)
