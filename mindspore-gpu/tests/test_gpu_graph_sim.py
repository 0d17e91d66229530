"""GRAPH_MODE on the GPU backend without a GPU: the fused elementwise kernels of ``mindspore_gpu.passes`` and the
CUDA-graph replay of ``mindspore_gpu.capture``, on the NumPy stand-in for CuPy (``cupy_sim``).

The stand-in runs the generated ``ElementwiseKernel`` sources (their CUDA C read and evaluated with NumPy), and
its streams capture as CUDA's do: captured work is recorded and not run, ``Graph.launch`` replays it from the
arrays' current contents, and what CUDA/CuPy refuse while capturing (reads back, cuRAND, CuPy 14's cuBLAS) raises.
So these tests show that the fused kernels give the plain kernels' numbers, that replays recompute from new
inputs and from Parameters updated in place, and that refused or failing graphs run kernel by kernel.
"""
import pathlib
import sys
import warnings

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn, ops

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

TARGET = "GPUSIMG"
G = cupy_sim.load_graph_modules()

pytestmark = cupy_sim.warning_marks()


@pytest.fixture(scope="module")
def sim_plugin():
    with cupy_sim.registered(TARGET, G.families, graph=G) as plugin:
        yield plugin


@pytest.fixture
def on_sim(sim_plugin, monkeypatch):
    before = ms.get_context("device_target_requested")
    mode = ms.get_context("mode")
    ms.set_context(device_target=TARGET, mode=ms.GRAPH_MODE)
    monkeypatch.setitem(cupy_sim.CAPTURE_CUBLAS, "enabled", False)
    yield TARGET
    ms.set_context(mode=mode)
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


@pytest.fixture(autouse=True)
def _no_ctypes_gemm(monkeypatch):
    """The capture-safe GEMM (on by default) calls libcublas through ctypes, which the stand-in lacks: the tests
    that capture products with it set ``MS_GPU_CAPTURE_GEMM=1`` and the stand-in's GEMM factory themselves."""
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")


def _switches(monkeypatch, fuse, capture):
    monkeypatch.setenv("MS_GPU_FUSED_KERNELS", "1" if fuse else "0")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1" if capture else "0")


def _t(a):
    return ms.Tensor(np.asarray(a))


# --- fused elementwise kernels --------------------------------------------------------------------
_X = np.array([[-2.5, -1.0, -0.0, 0.0, 0.3], [0.7, 1.5, 3.0, 20.0, -30.0]])
_Y = np.array([[0.5, 2.0, -1.5, 4.0, 0.25], [1.0, -0.5, 3.0, 2.0, 1.5]])

# op name -> f(a, b): a chain a*2 - b followed by the op (so that every op is inside a chain of 3)
_CHAINS = {
    "Add": lambda a, b: ops.add(a, b), "Sub": lambda a, b: ops.sub(b, a), "Mul": lambda a, b: ops.mul(a, b),
    "RealDiv": lambda a, b: ops.div(a, b), "Maximum": lambda a, b: ops.maximum(a, b),
    "Minimum": lambda a, b: ops.minimum(a, b), "Neg": lambda a, b: ops.neg(a), "Square": lambda a, b: ops.square(a),
    "Exp": lambda a, b: ops.exp(a), "Log": lambda a, b: ops.log(ops.abs(a) + 0.5) if False else ops.log(a),
    "Sqrt": lambda a, b: ops.sqrt(a), "Rsqrt": lambda a, b: ops.rsqrt(a), "Tanh": lambda a, b: ops.tanh(a),
    "ReLU": lambda a, b: ops.relu(a), "Sigmoid": lambda a, b: ops.sigmoid(a), "GeLU": lambda a, b: ops.gelu(a),
    "Pow": lambda a, b: ops.pow(a, 3.0), "ScalarAdd": lambda a, b: a + 0.1,
    "ReluGrad": lambda a, b: ops.ReluGrad()(b, a), "Cast": lambda a, b: ops.cast(a, ms.float64) * 3.0,
}


def test_fused_kernel_names_depend_on_their_source_alone(monkeypatch):
    """CuPy's on-disk kernel cache is keyed by the whole source, name included: a generated kernel's name must not
    depend on the order the process met its chains in, or a warm machine compiles it again."""
    passes = G.passes
    source = ("float32 x0, float32 x1", "float32 y", "float v0 = x0 * x1; y = v0;")
    other = ("float32 x0", "float32 y", "y = x0;")
    monkeypatch.setattr(passes, "_KERNELS", {})
    first = passes._get_kernel(*source)
    monkeypatch.setattr(passes, "_KERNELS", {})
    passes._get_kernel(*other)
    again = passes._get_kernel(*source)
    assert first is not again and first.name == again.name == passes.kernel_name(*source)
    assert first.name.startswith("ms_fused_") and passes.kernel_name(*other) != first.name


def _run(fn, *args):
    out = ms.jit(fn)(*args)
    return out.asnumpy()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op", sorted(_CHAINS))
def test_a_fused_chain_gives_the_unfused_numbers(on_sim, monkeypatch, op, dtype):
    def f(a, b):
        return _CHAINS[op](a * 2.0 - b, b)
    x, y = _t(_X.astype(dtype)), _t(_Y.astype(dtype))
    _switches(monkeypatch, fuse=False, capture=False)
    plain = _run(lambda a, b: f(a, b), x, y)
    _switches(monkeypatch, fuse=True, capture=False)
    before = G.passes.STATS["chains"]
    fused = _run(lambda a, b: f(a, b), x, y)
    assert G.passes.STATS["chains"] > before, "the chain was not fused"
    assert fused.dtype == plain.dtype
    if dtype == np.float16:     # each step rounded to float16 where its plain kernel stores it: the same bits
        np.testing.assert_array_equal(fused.view(np.uint16), plain.view(np.uint16))
        return
    tol = 1e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(fused, plain, rtol=tol, atol=0, equal_nan=True)


def test_bias_add_activation_chain_is_one_kernel_with_the_bias_broadcast(on_sim, monkeypatch):
    rng = np.random.default_rng(0)
    x = _t(rng.standard_normal((2, 3, 4, 4)).astype(np.float32))
    b = _t(rng.standard_normal(3).astype(np.float32))
    _switches(monkeypatch, fuse=True, capture=False)

    def f(x, b):
        return ops.sigmoid(ops.relu(ops.bias_add(x * 0.5, b)) + 1.0)
    jf = ms.jit(f)
    out = jf(x, b).asnumpy()
    ref = x.asnumpy() * 0.5 + b.asnumpy().reshape(1, 3, 1, 1)
    ref = 1 / (1 + np.exp(-(np.maximum(ref, 0) + 1.0)))
    np.testing.assert_allclose(out, ref, rtol=1e-6)
    sources = [k[2] for k in G.passes._KERNELS]
    assert any("fmax" in s and "log1p" in s and "+" in s for s in sources), sources


class _CastsAroundAWrite(nn.Cell):
    """A parameter cast to float16 before and after a write into it, the input cast to float16 and a product to
    bfloat16, all four handed to the branches of an ``If``."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.array([1.0, 2.5, -3.0], np.float32)), name="w")

    def construct(self, x):
        before = ops.cast(self.w, ms.float16)
        ops.assign(self.w, self.w * 2.0)
        after = ops.cast(self.w, ms.float16)
        xh = ops.cast(x, ms.float16)
        s = ops.cast(x * 3.0, ms.bfloat16)
        if x.sum() > 0:
            return before, after, xh * 2.0, s
        return before, after, xh, s


def test_grouped_casts_read_parameters_where_their_casts_did(on_sim, monkeypatch):
    """``gpu_group_casts`` moves a parameter's cast past no write into it: the cast before the write stays, the three
    after it (the parameter's, the input's, the product's: two pairs of dtypes) share one ``CastMany``, which stands
    after the product it reads, and each value is what its ``Cast`` gave."""
    _switches(monkeypatch, fuse=True, capture=False)
    net = _CastsAroundAWrite()
    grouped = G.passes.STATS["casts_grouped"]
    before, after, xh, s = net(_t(np.array([0.5, 1.0, 4.0], np.float32)))
    assert G.passes.STATS["casts_grouped"] - grouped == 3, G.passes.STATS["casts_grouped"] - grouped
    np.testing.assert_array_equal(before.asnumpy(), np.array([1.0, 2.5, -3.0], np.float16))
    np.testing.assert_array_equal(after.asnumpy(), np.array([2.0, 5.0, -6.0], np.float16))
    np.testing.assert_array_equal(xh.asnumpy(), np.array([1.0, 2.0, 8.0], np.float16))
    assert s.dtype == ms.bfloat16 and s.asnumpy().astype(np.float32).tolist() == [1.5, 3.0, 12.0]
    np.testing.assert_array_equal(net.w.asnumpy(), np.array([2.0, 5.0, -6.0], np.float32))


def test_casts_are_grouped_sixteen_at_most(on_sim, monkeypatch):
    """A group of casts is a launch's worth at most (so that casts moved after a late input keep at most 16 values
    alive): 20 inputs cast to float16 are two ``CastMany`` applies, 16 and 4, each value what its Cast gives."""
    _switches(monkeypatch, fuse=True, capture=False)
    xs = [_t(np.full((3,), 0.1 * k, np.float32)) for k in range(20)]
    grouped = G.passes.STATS["casts_grouped"]
    sizes = []
    real = G.passes._cast_many_kernel
    monkeypatch.setattr(G.passes, "_cast_many_kernel", lambda specs: sizes.append(len(specs)) or real(specs))
    out = ms.jit(lambda *a: ops.stack([ops.cast(x, ms.float16) for x in a]))(*xs).asnumpy()
    assert G.passes.STATS["casts_grouped"] - grouped == 20 and sizes == [16, 4], sizes
    np.testing.assert_array_equal(out, np.stack([x.asnumpy().astype(np.float16) for x in xs]))


def test_kernel_source_is_generated_per_chain_and_cached(on_sim, monkeypatch):
    _switches(monkeypatch, fuse=True, capture=False)
    x = _t(np.ones((3, 4), np.float32))
    n0 = len(G.passes._KERNELS)
    ms.jit(lambda a: ops.tanh(a * 3.0 + 1.0))(x).asnumpy()
    ms.jit(lambda a: ops.tanh(a * 3.0 + 1.0))(x).asnumpy()        # the same chain: the cached kernel
    assert len(G.passes._KERNELS) == n0 + 1
    ms.jit(lambda a: ops.tanh(a * 3.0 + 1.0))(_t(np.ones((3, 4)))).asnumpy()   # float64: another kernel
    assert len(G.passes._KERNELS) == n0 + 2
    src = list(G.passes._KERNELS)[-1]
    assert src[0] == "float64 x0" and src[1] == "float64 y" and "tanh(" in src[2]
    # parameters carry NumPy's names (CuPy reads "float" as float64): a float32 chain declares float32
    f32 = list(G.passes._KERNELS)[-2]
    assert f32[0] == "float32 x0" and f32[1] == "float32 y" and "float v0" in f32[2]


def test_float16_chains_compute_in_float_and_round_where_the_plain_kernels_store(on_sim, monkeypatch):
    """amp's chains: a float16 step reads its operands widened to float and is rounded to float16 after it, a cast
    to float32 ends the chain in float32; float64 -> float16 (rounded once from float64 by the plain Cast) and
    bfloat16 (no CuPy kernels) stay out of fused chains."""
    import ml_dtypes
    _switches(monkeypatch, fuse=True, capture=False)
    monkeypatch.setattr(G.passes, "_KERNELS", {})
    x = np.array([[-2.5, 0.1, 1.0, 3.3e4], [6.1e-5, -0.0, 0.7, 1e-8]])

    def amp_tail(a):
        return ops.cast(ops.relu(a * 0.3 + 1.0), ms.float32)
    got = _run(amp_tail, _t(x.astype(np.float16)))
    h = x.astype(np.float16)
    want = np.fmax((h * np.float16(0.3)) + np.float16(1.0), np.float16(0)).astype(np.float32)   # float16 rounding each
    np.testing.assert_array_equal(got, want)
    (params, out, body), = list(G.passes._KERNELS)
    assert params == "float16 x0" and out == "float32 y", (params, out)
    assert body.count("(float16)") == 3 and "((float)x0)" in body, body

    monkeypatch.setattr(G.passes, "_KERNELS", {})
    _run(lambda a: ops.relu(ops.cast(a * 3.0, ms.float16) + 1.0), _t(x))                 # float64 -> float16
    assert all("float64" not in k[0] or "float16" not in k[1] for k in G.passes._KERNELS), list(G.passes._KERNELS)
    monkeypatch.setattr(G.passes, "_KERNELS", {})
    _run(lambda a: ops.relu(a * 3.0 + 1.0), _t(x.astype(ml_dtypes.bfloat16)))
    assert not G.passes._KERNELS, list(G.passes._KERNELS)


def test_a_failing_fused_kernel_runs_its_operators_with_one_warning(on_sim, monkeypatch):
    _switches(monkeypatch, fuse=True, capture=False)

    def broken(*args):
        raise RuntimeError("nvrtc: error: simulated compiler failure")
    monkeypatch.setattr(G.passes, "_get_kernel", broken)
    monkeypatch.setattr(G.passes, "_BROKEN", {})
    monkeypatch.setattr(G.passes, "_WARNED", set())
    x = _t(np.array([[-1.0, 0.5, 2.0]], np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f = ms.jit(lambda a: ops.relu(a * 2.0 - 0.5) * 3.0)
        outs = [f(x).asnumpy() for _ in range(3)]
    for out in outs:
        np.testing.assert_allclose(out, [[0.0, 1.5, 10.5]], rtol=1e-6)
    mine = [w for w in caught if "fused kernel" in str(w.message)]
    assert len(mine) == 1 and "simulated compiler failure" in str(mine[0].message)


# --- CUDA-graph replay ----------------------------------------------------------------------------
class _Accumulate(nn.Cell):
    """An elementwise step that updates a Parameter in place: w = w * 0.5 + x; returns w * 2 + 1."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="w")

    def construct(self, x):
        ops.assign(self.w, self.w * 0.5 + x)
        return self.w * 2.0 + 1.0


def test_replays_recompute_from_new_inputs_and_updated_parameters(on_sim, monkeypatch):
    _switches(monkeypatch, fuse=True, capture=True)
    net = _Accumulate()
    st = dict(G.capture.STATS)
    w = np.zeros((2, 3), np.float32)
    rng = np.random.default_rng(1)
    for step in range(6):
        x = rng.standard_normal((2, 3)).astype(np.float32)
        out = net(_t(x)).asnumpy()
        w = w * 0.5 + x
        np.testing.assert_allclose(out, w * 2 + 1, rtol=1e-6, err_msg=f"step {step}")
        np.testing.assert_allclose(net.w.asnumpy(), w, rtol=1e-6)
    assert G.capture.STATS["captured"] == st["captured"] + 1
    assert G.capture.STATS["replays"] == st["replays"] + 4, "calls 3 to 6 are launches of the captured graph"


def test_replacing_a_parameter_buffer_captures_again(on_sim, monkeypatch):
    _switches(monkeypatch, fuse=True, capture=True)
    net = _Accumulate()
    x = np.ones((2, 3), np.float32)
    st = dict(G.capture.STATS)
    for _ in range(3):
        net(_t(x))
    net.w.set_data(ms.Tensor(np.full((2, 3), 10.0, np.float32)))
    w = np.full((2, 3), 10.0, np.float32)
    for _ in range(4):
        out = net(_t(x)).asnumpy()
        w = w * 0.5 + x
        np.testing.assert_allclose(out, w * 2 + 1, rtol=1e-6)
    assert G.capture.STATS["captured"] >= st["captured"] + 2


class _Noisy(nn.Cell):
    """x plus standard Laplace noise: a random operator drawing from cuRAND."""

    def __init__(self):
        super().__init__()
        self.noise = ops.StandardLaplace(seed=3)

    def construct(self, x):
        return x + self.noise((64,))


def test_graphs_drawing_from_curand_are_never_captured(on_sim, monkeypatch):
    _switches(monkeypatch, fuse=True, capture=True)
    st = dict(G.capture.STATS)
    net = _Noisy()
    outs = [net(_t(np.ones((64,), np.float32))).asnumpy() for _ in range(4)]
    assert G.capture.STATS["captured"] == st["captured"] and G.capture.STATS["refused"] > st["refused"]
    assert any((a != b).any() for a, b in zip(outs, outs[1:])), "every call draws new numbers"


class _Dropped(nn.Cell):
    """A Dense layer, ReLU and dropout (as a transformer's feed-forward block has them)."""

    def __init__(self, channel=False):
        super().__init__()
        self.dense = nn.Dense(6, 8)
        self.drop = nn.Dropout2d(p=0.5) if channel else nn.Dropout(p=0.4)
        self.channel = channel

    def construct(self, x):
        y = ops.relu(self.dense(x)) + 1.0
        return self.drop(ops.reshape(y, (4, 8, 1, 1)) if self.channel else y)


class _Reparameterized(nn.Cell):
    """A variational autoencoder's sampling: mean + exp(log_var / 2) * standard normal noise, dropped out."""

    def __init__(self):
        super().__init__()
        self.mean, self.log_var = nn.Dense(6, 8), nn.Dense(6, 8)
        self.normal = ops.StandardNormal(seed=2)
        self.uniform = ops.UniformReal(seed=4)
        self.drop = nn.Dropout(p=0.25)

    def construct(self, x):
        z = self.mean(x) + ops.exp(self.log_var(x) * 0.5) * self.normal((4, 8))
        return self.drop(z) * (self.uniform((4, 8)) < 0.9)


def _dropout_steps(monkeypatch, capture, channel=False, calls=6, reseed_at=None):
    """The outputs of ``calls`` calls of a fresh :class:`_Dropped` (seeded), capture on or off (the Dense's product
    captured by CuPy's matmul, as a capture-safe GEMM would run it)."""
    _switches(monkeypatch, fuse=True, capture=capture)
    monkeypatch.setitem(cupy_sim.CAPTURE_CUBLAS, "enabled", True)
    ms.set_seed(11)
    net = _Reparameterized() if channel == "reparameterized" else _Dropped(channel)
    net.set_train(True)
    x = _t(np.random.default_rng(0).standard_normal((4, 6)).astype(np.float32))
    outs = []
    for i in range(calls):
        if i == reseed_at:
            ms.set_seed(11)
        outs.append(net(x).asnumpy())
    return outs


@pytest.mark.parametrize("channel", [False, True, "reparameterized"], ids=["dropout", "dropout2d", "normal_uniform"])
def test_dropout_graphs_are_captured_and_replays_draw_the_plain_runs_numbers(on_sim, monkeypatch, channel):
    """The dropouts, UniformReal and StandardNormal draw from a counter-based stream on the device
    (``_common.counter_uniform``), so their graphs are captured, and each replay draws new numbers: the very numbers
    of the same calls run kernel by kernel."""
    plain = _dropout_steps(monkeypatch, capture=False, channel=channel)
    st = dict(G.capture.STATS)
    captured = _dropout_steps(monkeypatch, capture=True, channel=channel)
    assert G.capture.STATS["captured"] == st["captured"] + 1 and G.capture.STATS["refused"] == st["refused"]
    assert G.capture.STATS["replays"] >= st["replays"] + len(captured) - G.capture.WARMUP_RUNS
    for a, b in zip(plain, captured):
        np.testing.assert_array_equal(a, b)
    zeros = [o == 0 for o in captured]
    assert all(z.any() and not z.all() for z in zeros), "each call drops some and keeps some"
    assert len({z.tobytes() for z in zeros}) == len(zeros), "every call, replays too, draws new numbers"


class _Encoder(nn.Cell):
    """A transformer encoder layer with its default-style dropout (0.1), as users train it, and a classifier head."""

    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(16, 2, dim_feedforward=32, dropout=0.1, batch_first=True)
        self.head = nn.Dense(16, 4)

    def construct(self, x):
        return self.head(self.layer(x).mean(1))


def test_a_transformer_training_step_with_dropout_is_captured_whole(on_sim, monkeypatch):
    """A TransformerEncoderLayer's GRAPH_MODE training step (dropout 0.1, Adam) is one CUDA graph, replayed with the
    losses of the plain runs (it was refused for its dropouts)."""
    monkeypatch.setitem(cupy_sim.CAPTURE_CUBLAS, "enabled", True)

    def losses(capture):
        _switches(monkeypatch, fuse=True, capture=capture)
        ms.set_seed(1)
        net = _Encoder()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Adam(net.trainable_params(), 1e-3))
        step.set_train()
        x = _t(np.random.default_rng(0).standard_normal((4, 5, 16)).astype(np.float32))
        y = ms.Tensor(np.array([0, 1, 2, 3], np.int32))
        return [float(step(x, y).asnumpy()) for _ in range(5)]
    plain = losses(False)
    st = dict(G.capture.STATS)
    captured = losses(True)
    stats = {k: G.capture.STATS[k] - st[k] for k in st}
    assert stats["captured"] == 1 and stats["refused"] == 0 and stats["failed"] == 0, stats
    assert stats["replays"] == 5 - G.capture.WARMUP_RUNS, stats
    np.testing.assert_array_equal(captured, plain)
    assert len(set(plain)) == len(plain)


def test_set_seed_between_replays_rekeys_the_captured_stream(on_sim, monkeypatch):
    """set_seed while a dropout graph is captured: the next replay draws what the first call after the seed drew."""
    outs = _dropout_steps(monkeypatch, capture=True, calls=8, reseed_at=5)
    for i in range(3):
        np.testing.assert_array_equal(outs[5 + i], outs[i])
    assert not np.array_equal(outs[3], outs[0])


def test_set_seed_just_before_the_capture(on_sim, monkeypatch):
    """set_seed before the call that captures: the stream is rekeyed before the capture begins (a rekey during it
    would be a host copy, which a capture refuses), so the graph is captured and draws as the plain runs do."""
    at = G.capture.WARMUP_RUNS
    plain = _dropout_steps(monkeypatch, capture=False, reseed_at=at)
    st = dict(G.capture.STATS)
    captured = _dropout_steps(monkeypatch, capture=True, reseed_at=at)
    assert G.capture.STATS["captured"] == st["captured"] + 1 and G.capture.STATS["failed"] == st["failed"]
    for a, b in zip(plain, captured):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(captured[at], captured[0])


def test_capture_debugging_says_why_a_graph_is_not_captured_or_not_replayed(on_sim, monkeypatch):
    """Refusals and calls not replayed are silent by design; MS_GPU_CAPTURE_DEBUG=1 says why, once per reason."""
    import types
    _switches(monkeypatch, fuse=True, capture=True)
    monkeypatch.setenv("MS_GPU_CAPTURE_DEBUG", "1")
    monkeypatch.setattr(G.capture, "_WARNED", set())
    noisy = _Noisy()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            noisy(_t(np.ones((64,), np.float32)))
    notes = [str(w.message) for w in caught if "CUDA-graph" in str(w.message)]
    assert len(notes) == 1 and "refused: a random operator ('StandardLaplace')" in notes[0], notes
    cp = G.cupy
    graph = types.SimpleNamespace(name="step", params=[types.SimpleNamespace(weight=None)])
    runner = G.capture.GraphRunner(graph, lambda v: cp.add(v, 1.0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            runner(cp.asarray(np.zeros(3, np.float32)))
        out = runner(cp.asarray(np.zeros(5, np.float32)))
    np.testing.assert_array_equal(cp.asnumpy(out), np.ones(5))
    notes = [str(w.message) for w in caught if "CUDA-graph" in str(w.message)]
    assert len(notes) == 1 and "not replayed: its input 0 is a" in notes[0] and "(3,) float32" in notes[0], notes


def test_graphs_with_host_control_flow_are_never_captured_whole(on_sim, monkeypatch):
    """Only in stretches between the host decisions (test_gpu_optim_capture_sim.py), and not these: the condition's two
    kernels would be replaced by two copies and a launch, the branches have one kernel each."""
    _switches(monkeypatch, fuse=True, capture=True)

    @ms.jit
    def f(x):
        if x.sum() > 0:
            return x * 2.0
        return x - 1.0
    st = dict(G.capture.STATS)
    for sign in (1, -1, 1, -1):
        x = np.full((3,), sign, np.float32)
        np.testing.assert_allclose(f(_t(x)).asnumpy(), x * 2 if sign > 0 else x - 1)
    assert G.capture.STATS["captured"] == st["captured"] and G.capture.STATS["refused"] > st["refused"]


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Dense(20, 32)
        self.l2 = nn.Dense(32, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.l2(self.relu(self.l1(x)))


class _LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _train_losses(make_net, shape, steps=5, *, draw=None, scale=0.1, seed=3, nets=None):
    """The losses of ``steps`` momentum steps on random batches of ``shape`` (``draw(rng)``: another input), from
    seeded weights; the network is appended to ``nets`` when given."""
    ms.set_seed(7)
    net = make_net()
    if nets is not None:
        nets.append(net)
    rng = np.random.default_rng(seed)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * scale).astype(np.float32)))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    losses = []
    for _ in range(steps):
        x = _t(draw(rng) if draw is not None else rng.standard_normal(shape).astype(np.float32))
        y = _t(rng.integers(0, 10, shape[0]).astype(np.int32))
        losses.append(float(step(x, y).asnumpy()))
    return np.array(losses)


@pytest.mark.parametrize("gemm", ["capture-gemm", "cublas-capturable"])
@pytest.mark.parametrize("workload", ["mlp", "lenet"])
def test_training_steps_give_the_same_losses_with_capture_on_and_off(on_sim, monkeypatch, workload, gemm):
    """Matrix products while capturing: by the capture-safe GEMM (``MS_GPU_CAPTURE_GEMM=1``, the stand-in's cuBLAS
    reading the operands' memory as the real one would), or by CuPy's matmul on a CuPy that could capture cuBLAS."""
    make, shape = {"mlp": (_MLP, (16, 20)), "lenet": (_LeNet, (4, 1, 32, 32))}[workload]
    _switches(monkeypatch, fuse=False, capture=False)
    plain = _train_losses(make, shape)
    _switches(monkeypatch, fuse=True, capture=False)
    fused = _train_losses(make, shape)
    made = []
    if gemm == "capture-gemm":
        monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "1")
        monkeypatch.setitem(G.capture.GEMM_FACTORY, "make", lambda stream: made.append(cupy_sim.SimCublasGemm(stream))
                            or made[-1])
    else:
        monkeypatch.setitem(cupy_sim.CAPTURE_CUBLAS, "enabled", True)
    _switches(monkeypatch, fuse=True, capture=True)
    st = dict(G.capture.STATS)
    captured = _train_losses(make, shape)
    if gemm == "capture-gemm":
        assert len(made) == 1 and made[0].calls >= 3, "the products of the captured step go through the GEMM"
    assert G.capture.STATS["captured"] == st["captured"] + 1
    assert G.capture.STATS["replays"] == st["replays"] + 3, "steps 3 to 5 replay the captured step"
    assert np.all(np.diff(plain[:2]) != 0)
    np.testing.assert_allclose(fused, plain, rtol=1e-5)
    np.testing.assert_allclose(captured, fused, rtol=1e-6)


class _EmbedBN(nn.Cell):
    """An embedding (Gather, whose bounds check reads back to the host outside a capture), a convolution with
    batch norm (the fused training kernels, moving statistics written in place) and a Dense head."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 6)
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="pad", padding=1, has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 5 * 6, 10)

    def construct(self, ids):
        x = self.embed(ids).expand_dims(1)                   # (N, 1, 5, 6)
        return self.fc(self.flatten(self.relu(self.bn(self.conv(x)))))


def _embed_bn_losses():
    nets = []
    losses = _train_losses(_EmbedBN, (4,), draw=lambda rng: rng.integers(0, 10, (4, 5)).astype(np.int32), scale=0.3,
                           seed=5, nets=nets)
    return losses, nets[0].bn.moving_mean.asnumpy()


def test_a_step_with_gather_and_batch_norm_is_captured_and_replays_the_plain_numbers(on_sim, monkeypatch):
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "1")
    monkeypatch.setitem(G.capture.GEMM_FACTORY, "make", cupy_sim.SimCublasGemm)
    _switches(monkeypatch, fuse=True, capture=False)
    plain, plain_mean = _embed_bn_losses()
    _switches(monkeypatch, fuse=True, capture=True)
    st = dict(G.capture.STATS)
    captured, captured_mean = _embed_bn_losses()
    assert G.capture.STATS["captured"] == st["captured"] + 1 and G.capture.STATS["failed"] == st["failed"]
    assert G.capture.STATS["replays"] == st["replays"] + 3
    np.testing.assert_allclose(captured, plain, rtol=1e-6)
    np.testing.assert_allclose(captured_mean, plain_mean, rtol=1e-6)     # moving statistics updated by each replay
    assert np.any(plain_mean != 0)


def test_a_capture_cupy_refuses_falls_back_with_one_warning(on_sim, monkeypatch):
    """CuPy 14 refuses cuBLAS while a stream captures: the MLP step is run kernel by kernel, with one warning."""
    _switches(monkeypatch, fuse=True, capture=False)
    reference = _train_losses(_MLP, (16, 20))
    _switches(monkeypatch, fuse=True, capture=True)
    monkeypatch.setattr(G.capture, "_WARNED", set())
    st = dict(G.capture.STATS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        losses = _train_losses(_MLP, (16, 20))
    mine = [w for w in caught if "CUDA-graph capture" in str(w.message)]
    assert len(mine) == 1 and "cuBLAS" in str(mine[0].message), [str(w.message) for w in caught]
    assert G.capture.STATS["failed"] == st["failed"] + 1 and G.capture.STATS["replays"] == st["replays"]
    np.testing.assert_allclose(losses, reference, rtol=1e-6)


def test_the_switch_turns_capture_off(on_sim, monkeypatch):
    _switches(monkeypatch, fuse=True, capture=False)
    st = dict(G.capture.STATS)
    net = _Accumulate()
    for _ in range(4):
        net(_t(np.ones((2, 3), np.float32)))
    assert G.capture.STATS == st


# --- the stand-in's capture itself ----------------------------------------------------------------
def test_the_stand_in_records_and_refuses_like_cuda():
    cp = G.cupy
    s = cp.cuda.Stream(non_blocking=True)
    a = cp.asarray(np.arange(4, dtype=np.float32))
    out = cp.asarray(np.zeros(4, np.float32))
    with s:
        s.begin_capture()
        b = cp.multiply(a, 2.0)
        cp.copyto(out, b + 1.0)
        g = s.end_capture()
    np.testing.assert_array_equal(cp.asnumpy(out), 0.0)     # captured work does not run
    g.launch()
    np.testing.assert_array_equal(cp.asnumpy(out), [1, 3, 5, 7])
    a[...] = cp.asarray(np.ones(4, np.float32))
    g.launch()
    np.testing.assert_array_equal(cp.asnumpy(out), 3.0)     # recomputed from the new contents
    with s:
        s.begin_capture()
        with pytest.raises(cupy_sim.CUDARuntimeError, match="capturing"):
            float(a.sum())
        with pytest.raises(cupy_sim.CUDARuntimeError, match="Invalidated"):
            s.end_capture()
    with s:
        s.begin_capture()
        with pytest.raises(NotImplementedError, match="cuBLAS"):
            cp.matmul(a.reshape(2, 2), a.reshape(2, 2))
        s.end_capture()


def _breaks_the_capture(x):
    """A call that invalidates the capture without an error of its own (as another thread's synchronisation does)."""
    G.cupy.cuda.get_current_stream()._invalidate_capture("a test's call")
    return x


@pytest.mark.parametrize("debug", [False, True])
def test_a_capture_invalidated_silently_names_its_culprit_when_debugging(monkeypatch, debug):
    """CUDA fails the operation after the one that broke a capture; MS_GPU_CAPTURE_DEBUG=1 names the one that broke it
    (and without it the warning says how to find it). Either way the call's results come from the plain run."""
    import types
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")
    monkeypatch.setenv("MS_GPU_CAPTURE_DEBUG", "1" if debug else "0")
    monkeypatch.setattr(G.capture, "_WARNED", set())
    profiler = sys.getprofile()     # (a coverage or profiling tool's, if one runs the tests: put back afterwards)
    cp = G.cupy
    graph = types.SimpleNamespace(name="step", params=[types.SimpleNamespace(weight=None)])
    runner = G.capture.GraphRunner(graph, lambda x: cp.multiply(_breaks_the_capture(x + 1.0), 2.0))
    x = cp.asarray(np.arange(3, dtype=np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [cp.asnumpy(runner(x)) for _ in range(3)]
    for r in results:
        np.testing.assert_array_equal(r, [2, 4, 6])
    assert runner.state == "plain"
    [w] = [str(w.message) for w in caught if "CUDA-graph capture" in str(w.message)]
    assert "Invalidated" in w
    if debug:
        assert "first found invalid after _invalidate_capture" in w, w      # the innermost call, and its callers
        assert "test_gpu_graph_sim.py:" in w and "in _breaks_the_capture" in w, w
    else:
        assert "MS_GPU_CAPTURE_DEBUG=1 names the call" in w, w
    assert sys.getprofile() is profiler


def test_a_graph_dropped_during_another_capture_frees_its_memory_after_it(monkeypatch):
    """Freeing device memory synchronises the device and so invalidates a capture in progress: a runner collected
    while another graph captures keeps its private pool until that capture has ended, and the capture succeeds."""
    import gc
    import types
    import weakref
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")
    cp = G.cupy
    graph = types.SimpleNamespace(name="step", params=[types.SimpleNamespace(weight=None)])
    x = cp.asarray(np.arange(3, dtype=np.float32))
    first = G.capture.GraphRunner(graph, lambda v: cp.multiply(v, 3.0))
    for _ in range(3):
        first(x)
    assert first.state == "captured"
    pool = weakref.ref(first.pool)
    held = [first]
    del first
    seen = {}

    def second_step(v):
        if held and cp.cuda.get_current_stream().is_capturing():
            held.clear()        # the last reference to the first runner goes while this graph captures
            gc.collect()
            seen["pool during the capture"] = pool() is not None
        return cp.add(v, 1.0) * 2.0
    second = G.capture.GraphRunner(graph, second_step)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = [cp.asnumpy(second(x)) for _ in range(3)]
    for r in results:
        np.testing.assert_array_equal(r, [2, 4, 6])
    assert seen == {"pool during the capture": True}
    assert second.state == "captured" and pool() is None
    # and without the deferral, the stand-in's capture would have been invalidated by that pool's cudaFree
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        s.begin_capture()
        doomed = cp.cuda.MemoryPool()
        doomed.malloc(512).release()         # a block, cached by the pool
        del doomed
        gc.collect()
        with pytest.raises(cupy_sim.CUDARuntimeError, match="Invalidated"):
            cp.add(x, 1.0)
        with pytest.raises(cupy_sim.CUDARuntimeError, match="Invalidated"):
            s.end_capture()


def test_garbage_is_collected_before_a_capture_and_not_during_it(monkeypatch):
    """A reference cycle holding device memory (a pool of a graph dropped earlier, say) is collected before the capture
    begins, not by a collection in its middle (which would free that memory and so invalidate the capture); the
    collector is back on afterwards."""
    import gc
    import types
    import weakref
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")
    cp = G.cupy

    class Holder:
        pass
    cycle = Holder()
    cycle.self = cycle
    cycle.pool = cp.cuda.MemoryPool()
    cycle.pool.malloc(1024).release()
    pool = weakref.ref(cycle.pool)
    del cycle
    seen = []

    def step(v):
        if cp.cuda.get_current_stream().is_capturing():
            seen.append((pool() is None, gc.isenabled()))
        return cp.add(v, 1.0)
    graph = types.SimpleNamespace(name="step", params=[types.SimpleNamespace(weight=None)])
    runner = G.capture.GraphRunner(graph, step)
    x = cp.asarray(np.arange(3, dtype=np.float32))
    assert gc.isenabled()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            np.testing.assert_array_equal(cp.asnumpy(runner(x)), [1, 2, 3])
    assert runner.state == "captured" and seen == [(True, False)]
    assert gc.isenabled()


# --- the op conformance suite in GRAPH_MODE with the passes and capture on --------------------------
def _load_conformance():
    import importlib.util
    conformance = pathlib.Path(__file__).parents[2] / "tests" / "conformance"
    if not (conformance / "test_ops.py").exists():
        return None
    if str(conformance) not in sys.path:
        sys.path.insert(0, str(conformance))
    spec = importlib.util.spec_from_file_location("gpusimg_conformance_ops", conformance / "test_ops.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SUITE = _load_conformance()
needs_suite = pytest.mark.skipif(SUITE is None, reason="the conformance suite is not here")


@needs_suite
@pytest.mark.parametrize("family,case", SUITE.GRAD_CASES if SUITE else [],
                         ids=[f"{f}-{c.name}" for f, c in (SUITE.GRAD_CASES if SUITE else [])])
def test_conformance_gradients_in_graph_mode_with_fusion(on_sim, monkeypatch, family, case):
    """Backward graphs are where elementwise chains are (the gradient of every op, expanded into primitives)."""
    _switches(monkeypatch, fuse=True, capture=True)
    SUITE.test_gradient(target=TARGET, family=family, case=case, mode="graph", numeric_target="CPU")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sa,sb,transpose_b", [((3, 4), (4, 5), False), ((2, 3, 4), (4, 5), False),
                                               ((3, 4), (2, 4, 5), False), ((2, 1, 3, 4), (1, 3, 4, 2), False),
                                               ((6, 4), (5, 4), True), ((1, 3, 4), (2, 4, 1), False)])
def test_the_capture_gemm_computes_cupy_matmul(sa, sb, transpose_b, dtype):
    """The row-major products as column-major cuBLAS calls (the stand-in's cuBLAS reads the operands' memory with
    the leading dimensions and batch strides given, as the real one does)."""
    cp = G.cupy
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal(sa).astype(dtype), rng.standard_normal(sb).astype(dtype)
    gemm = cupy_sim.SimCublasGemm(None)
    matmul = G.capture._capture_matmul(gemm, cp.matmul)
    db = cp.asarray(b).swapaxes(-1, -2) if transpose_b else cp.asarray(b)
    ref = np.matmul(a, b.swapaxes(-1, -2) if transpose_b else b)
    got = matmul(cp.asarray(a), db)
    assert gemm.calls == 1 and got.shape == ref.shape and got.dtype == dtype
    np.testing.assert_allclose(cp.asnumpy(got), ref, rtol=1e-5 if dtype == np.float32 else 1e-12)
    with pytest.raises(ValueError):       # not a product the GEMM takes: CuPy's matmul, and its error
        matmul(cp.asarray(a), cp.asarray(np.ones((7, 7), dtype)))


@pytest.mark.parametrize("half", ["float16", "bfloat16"])
def test_the_capture_gemm_takes_half_precision_as_float32_products(half):
    """float16/bfloat16 products while capturing (amp's MatMul calls cupy.matmul with them, which CuPy refuses while a
    stream captures): the half operands themselves go to the GEMM (no captured casts around it), which computes them
    in float32 and rounds once to the half type."""
    import ml_dtypes
    dt = np.dtype(np.float16) if half == "float16" else np.dtype(ml_dtypes.bfloat16)
    cp = G.cupy
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((2, 3, 5)).astype(dt), rng.standard_normal((5, 4)).astype(dt)
    gemm = cupy_sim.SimCublasGemm(None)
    seen = []
    real_gemm = gemm.gemm
    gemm.gemm = lambda a_, b_, c_, *rest: seen.append((a_.dtype, b_.dtype, c_.dtype)) or real_gemm(a_, b_, c_, *rest)
    got = G.capture._capture_matmul(gemm, cp.matmul)(cp.asarray(a), cp.asarray(b))
    want = np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(dt)
    assert gemm.calls == 1 and got.dtype == dt and seen == [(dt, dt, dt)]
    np.testing.assert_array_equal(cp.asnumpy(got).astype(np.float32), want.astype(np.float32))


def test_the_lenet_fixture_reproduces_with_fusion_and_capture():
    """The LeNet fixture (losses recorded from MindSpore 2.10) on the stand-in GPU, with the GRAPH_MODE passes and the
    CUDA-graph replay (matrix products by the capture-safe GEMM), in a process of its own (gpusim_session.py)."""
    import os
    import subprocess
    repo = pathlib.Path(__file__).parents[2]
    fixture = repo / "tests" / "e2e" / "test_lenet_fixture.py"
    if not fixture.exists():
        pytest.skip("the LeNet fixture test is not here")
    env = dict(os.environ, MS_GPUSIM_GRAPH="1", MS_GPU_CAPTURE_GEMM="1", MS_GPU_GRAPH_CAPTURE="1",
               MS_GPU_FUSED_KERNELS="1")
    proc = subprocess.run([sys.executable, str(pathlib.Path(__file__).parent / "gpusim_session.py"), str(fixture),
                           "-q", "-p", "no:cacheprovider"], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout and " failed" not in proc.stdout


class _Joined(nn.Cell):
    """Concat and Stack between two Dense branches (CuPy's joins upload pointers from the host: refused while
    capturing)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Dense(20, 8)
        self.b = nn.Dense(20, 8)
        self.head = nn.Dense(32, 10)

    def construct(self, x):
        a, b = self.a(x), self.b(x)
        joined = ops.concat((a, b, ops.stack((a, b), axis=1).reshape(x.shape[0], 16)), axis=1)
        return self.head(joined)


def test_a_step_with_concat_and_stack_is_captured(on_sim, monkeypatch):
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "1")
    monkeypatch.setitem(G.capture.GEMM_FACTORY, "make", cupy_sim.SimCublasGemm)
    _switches(monkeypatch, fuse=True, capture=False)
    plain = _train_losses(_Joined, (16, 20))
    _switches(monkeypatch, fuse=True, capture=True)
    st = dict(G.capture.STATS)
    captured = _train_losses(_Joined, (16, 20))
    assert G.capture.STATS["captured"] == st["captured"] + 1 and G.capture.STATS["failed"] == st["failed"]
    np.testing.assert_allclose(captured, plain, rtol=1e-6)
