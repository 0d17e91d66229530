"""GRAPH_MODE training steps whose optimizer is one update primitive per parameter (nn.Adam, nn.AdamWeightDecay,
nn.SGD, nn.RMSProp, nn.Adagrad) on the GPU backend without a GPU (the CuPy stand-in ``cupy_sim``): the plain
kernels, the fused ones and the captured CUDA graph (replayed from the Parameters the updates wrote in place) give
the CPU's losses, and the step is captured: the update kernels read nothing back to the host. (A learning rate
from a list is picked for the step by elementwise kernels.) In PYNATIVE_MODE the update alone is such a graph (the
optimizers' ``construct`` is ``@jit``, as in MindSpore 2.10).

The float16 loss-scaled step of ``amp.build_train_network`` (``if not overflow: optimizer(grads)``) was refused whole:
its control flow is decided on the host. Now the kernels before the branch and the optimizer's branch are two CUDA
graphs, replayed with the overflow flag read in between. Overflowing and finite steps give the plain kernels' results,
and a steady step launches a fraction of what it launched kernel by kernel.
"""
import collections
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

TARGET = "GPUSIMOPT"
G = cupy_sim.load_graph_modules()

pytestmark = cupy_sim.warning_marks() + [pytest.mark.filterwarnings("ignore:overflow encountered"),
                                         pytest.mark.filterwarnings("ignore:invalid value encountered")]

OPTIMIZERS = {
    "adam": lambda ps: nn.Adam(ps, 0.01),
    "adam_lr_list": lambda ps: nn.Adam(ps, [0.01, 0.02, 0.005, 0.01]),    # step 5 is past the list: rate 0
    "adam_nesterov_groups_loss_scale": lambda ps: nn.Adam([{"params": ps[:2], "lr": 0.02}, {"params": ps[2:]}], 0.01,
                                                       use_nesterov=True, loss_scale=4.0),
    "amsgrad": lambda ps: nn.Adam(ps, 0.01, use_amsgrad=True, weight_decay=0.01),
    "adam_weight_decay": lambda ps: nn.AdamWeightDecay(ps, 0.01, weight_decay=0.05),
    "sgd": lambda ps: nn.SGD(ps, 0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
    "rmsprop": lambda ps: nn.RMSProp(ps, 0.01, momentum=0.9),
    "rmsprop_centered": lambda ps: nn.RMSProp(ps, 0.01, centered=True),
    "adagrad": lambda ps: nn.Adagrad(ps, learning_rate=0.05),
    "momentum": lambda ps: nn.Momentum(ps, 0.05, 0.9),
    "momentum_nesterov_groups": lambda ps: nn.Momentum([{"params": ps[:2], "lr": 0.02}, {"params": ps[2:]}], 0.05,
                                                       0.9, use_nesterov=True),
}


@pytest.fixture(scope="module")
def sim_plugin():
    with cupy_sim.registered(TARGET, G.families, graph=G) as plugin:
        yield plugin


@pytest.fixture
def graph_mode(monkeypatch):
    before = ms.get_context("device_target_requested")
    mode = ms.get_context("mode")
    monkeypatch.setenv("MS_GPU_CAPTURE_GEMM", "0")
    monkeypatch.setitem(cupy_sim.CAPTURE_CUBLAS, "enabled", True)     # products captured by CuPy's matmul
    yield
    ms.set_context(mode=mode)
    ms.context.store("device_target", before)
    _generation.bump(plugins=False)


class _MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Dense(12, 16)
        self.l2 = nn.Dense(16, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.l2(self.relu(self.l1(x)))


def _losses(target, optimizer, steps=5, mode=ms.GRAPH_MODE):
    ms.set_context(device_target=target, mode=mode)
    net = _MLP()
    rng = np.random.default_rng(3)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.2).astype(np.float32)))
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), OPTIMIZERS[optimizer](net.trainable_params()))
    step.set_train()
    out = []
    for _ in range(steps):
        x = ms.Tensor(rng.standard_normal((8, 12)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        out.append(float(step(x, y).asnumpy()))
    return np.array(out)


@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_graph_steps_plain_fused_and_captured_give_the_cpu_losses(sim_plugin, graph_mode, monkeypatch, optimizer):
    cpu = _losses("CPU", optimizer)
    monkeypatch.setenv("MS_GPU_FUSED_KERNELS", "0")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain = _losses(TARGET, optimizer)
    monkeypatch.setenv("MS_GPU_FUSED_KERNELS", "1")
    fused = _losses(TARGET, optimizer)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    st = dict(G.capture.STATS)
    captured = _losses(TARGET, optimizer)
    assert G.capture.STATS["captured"] == st["captured"] + 1, "the training step is captured"
    assert G.capture.STATS["replays"] == st["replays"] + 3, "steps 3 to 5 replay the captured step"
    assert np.all(np.diff(cpu) != 0)
    np.testing.assert_allclose(plain, cpu, rtol=1e-5)
    np.testing.assert_allclose(fused, cpu, rtol=1e-5)
    np.testing.assert_allclose(captured, fused, rtol=1e-6)


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_pynative_steps_replay_the_compiled_update(sim_plugin, graph_mode, monkeypatch, optimizer):
    """In PYNATIVE_MODE the optimizer's update is one compiled graph (``@jit`` on its construct, as in MindSpore
    2.10), so on the GPU it is captured at its third call and replayed: one launch for every parameter's update. So is
    the backward pass once it repeats (``mindspore._autodiff.compiled_backward``: walked on the tape at steps 1 and 2,
    compiled from step 3, captured at its third compiled run, step 5)."""
    cpu = _losses("CPU", optimizer, mode=ms.PYNATIVE_MODE)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain = _losses(TARGET, optimizer, mode=ms.PYNATIVE_MODE)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    st = dict(G.capture.STATS)
    captured = _losses(TARGET, optimizer, mode=ms.PYNATIVE_MODE)
    assert G.capture.STATS["captured"] == st["captured"] + 2, "the update and the backward pass are captured"
    assert G.capture.STATS["replays"] == st["replays"] + 4, "steps 3 to 5 replay the update, step 5 the backward"
    np.testing.assert_allclose(plain, cpu, rtol=1e-5)
    np.testing.assert_allclose(captured, plain, rtol=1e-6)


def test_the_memory_share_counts_the_static_copies_only(monkeypatch):
    """capture._too_large: the inputs that are not Parameters against MEMORY_SHARE of the free memory (the driver's
    and the default pool's free blocks)."""
    cupy = G.capture.cupy
    pool = cupy.get_default_memory_pool()
    monkeypatch.setattr(cupy.cuda.runtime, "memGetInfo", lambda: (1000 - pool.free_bytes(), 1 << 30), raising=False)
    small, big = cupy.zeros(50, np.float32), cupy.zeros(70, np.float32)     # 200 and 280 bytes
    assert G.capture._too_large((small,), (False,)) is None
    assert "280 bytes" in G.capture._too_large((big,), (False,))
    assert G.capture._too_large((big, small), (True, False)) is None       # a Parameter is read in place
    monkeypatch.delattr(cupy.cuda.runtime, "memGetInfo")
    assert G.capture._too_large((big,), (False,)) is None                  # no memory information: no limit


def test_a_graph_whose_static_inputs_would_not_fit_is_not_captured(sim_plugin, graph_mode, monkeypatch):
    """A graph whose static input copies would take more than capture.MEMORY_SHARE of the free device memory runs
    kernel by kernel (the same losses); with room, the same steps are captured."""
    cupy = G.capture.cupy
    plain = _losses(TARGET, "sgd", mode=ms.PYNATIVE_MODE)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    monkeypatch.setattr(cupy.cuda.runtime, "memGetInfo", lambda: (2048, 1 << 30), raising=False)
    monkeypatch.setattr(G.capture, "MEMORY_SHARE", 0.0)     # (the pool's free blocks count too: none may be taken)
    st = dict(G.capture.STATS)
    tight = _losses(TARGET, "sgd", mode=ms.PYNATIVE_MODE)
    assert G.capture.STATS["captured"] == st["captured"] and G.capture.STATS["refused"] == st["refused"] + 2
    np.testing.assert_allclose(tight, plain, rtol=1e-6)
    monkeypatch.setattr(cupy.cuda.runtime, "memGetInfo", lambda: (1 << 30, 1 << 30), raising=False)
    monkeypatch.setattr(G.capture, "MEMORY_SHARE", 0.25)
    st = dict(G.capture.STATS)
    _losses(TARGET, "sgd", mode=ms.PYNATIVE_MODE)
    assert G.capture.STATS["captured"] == st["captured"] + 2 and G.capture.STATS["refused"] == st["refused"]


# --- the float16 loss-scaled step: captured in pieces around its overflow branch -------------------------------
class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(4 * 6 * 6, 10)

    def construct(self, x):
        return self.dense(self.flatten(self.relu(self.bn(self.conv(x)))))


def _updates_one_by_one(monkeypatch):
    """Each parameter's ApplyMomentum an apply of its own (as an optimizer without ``gpu_group_updates``'s grouping
    has them): grouped, a small network's whole update branch is one multi-tensor apply, which runs as it is rather
    than as a captured graph replayed from copies of its inputs, and these tests are about capturing that branch."""
    monkeypatch.setattr(G.passes, "_update_key", lambda node: None)


def _step(target, init_scale, scale_window):
    ms.set_context(device_target=target, mode=ms.GRAPH_MODE)
    net = _Net()
    rng = np.random.default_rng(3)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.2).astype(np.float32)))
    manager = ms.amp.DynamicLossScaleManager(init_loss_scale=init_scale, scale_factor=4, scale_window=scale_window)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = ms.amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.01, 0.9), loss, level="O2",
                                      loss_scale_manager=manager)
    return net, step, rng


def _train(target, steps=12):
    """(loss, overflow, scale) per step and the weights after, the scale starting high enough to overflow float16
    and growing back every 3 finite steps."""
    net, step, rng = _step(target, 2.0 ** 20, 3)
    out = []
    for _ in range(steps):
        x = ms.Tensor(rng.standard_normal((8, 1, 8, 8)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        loss, overflow, scale = step(x, y)
        out.append((float(loss.asnumpy()), bool(overflow.asnumpy()), float(scale.asnumpy())))
    return out, [p.asnumpy().copy() for p in net.trainable_params()]


@pytest.mark.parametrize("grouped", [False, True], ids=["updates_one_by_one", "updates_grouped"])
def test_loss_scaled_steps_captured_in_pieces_give_the_plain_results(sim_plugin, graph_mode, monkeypatch, grouped):
    """The stretch before the overflow branch and the optimizer's branch are captured apart. With the updates grouped,
    the branch is one multi-tensor launch, run as it is (its replay would copy more buffers than it has kernels)."""
    if not grouped:
        _updates_one_by_one(monkeypatch)
    # the CPU reference: MindSpore 2.10 builds no loss-scale-updating train cell for the CPU target, so the check
    # that refuses it is lifted for this one build (the CPU kernels run the cell the GPU target builds)
    with monkeypatch.context() as m:
        m.setattr(ms.amp, "_refuse_update_cell_on_cpu", lambda: None)
        cpu, _ = _train("CPU")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain, plain_w = _train(TARGET)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    before = dict(G.capture.STATS)
    captured, captured_w = _train(TARGET)
    stats = {k: G.capture.STATS[k] - before[k] for k in before}
    flags = [o for _, o, _ in plain]
    assert True in flags[4:] and False in flags[4:], "steps after the warm-up both overflow and update"
    assert stats["captured"] == (1 if grouped else 2) and stats["failed"] == 0, stats
    assert stats["refused"] == (1 if grouped else 0), stats
    assert stats["replays"] >= (10 if grouped else 12), "the stretch before the branch from step 3, and the branch"
    assert [o[1:] for o in captured] == [o[1:] for o in plain], "the same overflows and loss scales"
    np.testing.assert_allclose([o[0] for o in captured], [o[0] for o in plain], rtol=1e-6)
    for a, b in zip(captured_w, plain_w):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
    assert [o[1:] for o in plain] == [o[1:] for o in cpu]
    np.testing.assert_allclose([o[0] for o in plain], [o[0] for o in cpu], rtol=1e-4)


def test_a_steady_loss_scaled_step_launches_two_graphs_and_the_copies(sim_plugin, graph_mode, monkeypatch):
    """Host launches of a finite step, a replayed graph counting one (its own kernels are not the host's)."""
    _updates_one_by_one(monkeypatch)
    launch = cupy_sim.Graph.launch

    def counted_launch(graph, stream=None):
        cupy_sim.LAUNCHES.add("graph launch")
        cupy_sim.LAUNCHES.nested += 1
        try:
            return launch(graph, stream)
        finally:
            cupy_sim.LAUNCHES.nested -= 1
    monkeypatch.setattr(cupy_sim.Graph, "launch", counted_launch)

    def launches(capture):
        monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", capture)
        _, step, rng = _step(TARGET, 2.0 ** 10, 1000)
        x = ms.Tensor(rng.standard_normal((8, 1, 8, 8)).astype(np.float32))
        y = ms.Tensor(rng.integers(0, 10, 8).astype(np.int32))
        for _ in range(4):
            step(x, y)
        kinds = []
        monkeypatch.setattr(cupy_sim.LAUNCHES, "listener", kinds.append)
        overflow = step(x, y)[1]
        monkeypatch.setattr(cupy_sim.LAUNCHES, "listener", None)
        assert not overflow.asnumpy()
        return collections.Counter(kinds)

    plain = launches("0")
    captured = launches("1")
    assert captured["graph launch"] == 2 and captured["d2h"] == 1, captured
    assert sum(plain.values()) > 60, plain       # (87 since half MatMul went to cuBLAS without float32 copies)
    assert sum(captured.values()) <= 20, captured    # the graphs' input copies in, output copies out


# --- a replay's inputs copied in by one kernel per COPY_SLOTS buffers ------------------------------------------------
def test_copy_many_copies_every_pair_in_few_launches():
    """Contiguous pairs of one dtype and shape go COPY_SLOTS to a launch (four-byte words, byte tails: float16 of odd
    length, bool, an unaligned uint8 view); anything else (a strided source, a dtype to convert) through copyto."""
    cp = G.cupy
    rng = np.random.default_rng(0)
    arrays = [rng.normal(size=n).astype(np.float32) for n in range(1, 30)]
    arrays += [rng.normal(size=7).astype(np.float16), rng.normal(size=(3, 5)), rng.integers(0, 2, 13).astype(bool),
               rng.integers(0, 9, 11).astype(np.int64)]
    srcs = [cp.asarray(a) for a in arrays]
    dsts = [cp.zeros_like(s) for s in srcs]
    raw_u8 = cp.asarray(np.arange(40, dtype=np.uint8))
    unaligned_src, unaligned_dst = raw_u8[1:18], cp.zeros(23, np.uint8)[3:20]
    strided = cp.asarray(rng.normal(size=(6, 4)).astype(np.float32))[:, ::2]
    strided_dst = cp.zeros((6, 2), np.float32)
    convert_src, convert_dst = cp.asarray(np.arange(5, dtype=np.int32)), cp.zeros(5, np.float32)
    pairs = list(zip(dsts, srcs)) + [(unaligned_dst, unaligned_src), (strided_dst, strided), (convert_dst, convert_src)]
    kinds = []
    prev, cupy_sim.LAUNCHES.listener = cupy_sim.LAUNCHES.listener, kinds.append
    try:
        G.capture.copy_many(pairs)
    finally:
        cupy_sim.LAUNCHES.listener = prev
    raw = len(srcs) + 1
    assert kinds.count("RawKernel ms_copy_many") == -(-raw // G.capture.COPY_SLOTS), kinds
    assert len(kinds) == kinds.count("RawKernel ms_copy_many") + 2, kinds      # the strided and the converted pairs
    for dst, src in pairs:
        np.testing.assert_array_equal(cp.asnumpy(dst), cp.asnumpy(src).astype(dst.dtype))
    np.testing.assert_array_equal(cp.asnumpy(raw_u8), np.arange(40))          # nothing around the views written


def test_a_pynative_update_replay_copies_its_gradients_in_few_launches(sim_plugin, graph_mode, monkeypatch):
    """The compiled update of a PYNATIVE step, replayed: its gradients (not Parameters) go in with ms_copy_many, one
    launch per COPY_SLOTS of them, then one graph launch."""
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    ms.set_context(device_target=TARGET, mode=ms.PYNATIVE_MODE)
    net = nn.SequentialCell([nn.Dense(4, 4) for _ in range(10)])       # 20 Parameters
    opt = nn.SGD(net.trainable_params(), 0.01)
    grads = tuple(ms.Tensor(np.full(p.shape, 0.5, np.float32)) for p in net.trainable_params())
    for _ in range(3):
        opt(grads)
    launch = cupy_sim.Graph.launch
    kinds = []

    def counted(graph, stream=None):
        kinds.append("graph launch")
        return launch(graph, stream)
    monkeypatch.setattr(cupy_sim.Graph, "launch", counted)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    prev, cupy_sim.LAUNCHES.listener = cupy_sim.LAUNCHES.listener, kinds.append
    try:
        opt(grads)
    finally:
        cupy_sim.LAUNCHES.listener = prev
    assert kinds.count("graph launch") == 1, kinds
    assert kinds.count("RawKernel ms_copy_many") == -(-20 // G.capture.COPY_SLOTS), kinds
    assert "cupy.copyto" not in kinds, kinds
    for b, p in zip(before, net.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), b - 0.01 * 0.5, rtol=1e-6)


# --- Model.train: amp O2, a dynamic loss scale and dropout, captured ------------------------------------------------
class _Dropped(nn.Cell):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Dense(16, 32), nn.Dense(32, 4)
        self.relu, self.drop = nn.ReLU(), nn.Dropout(p=0.2)

    def construct(self, x):
        return self.l2(self.drop(self.relu(self.l1(x))))


def _model_losses(mode):
    """The step losses of ``Model.train`` (2 epochs of 8 batches, not sunk) of a seeded network with dropout, amp O2
    and a dynamic loss scale."""
    import mindspore.dataset as ds
    ms.set_context(device_target=TARGET, mode=mode)
    ms.set_seed(3)
    net = _Dropped()
    rng = np.random.default_rng(0)
    data = ds.NumpySlicesDataset({"x": rng.standard_normal((64, 16)).astype(np.float32),
                                  "y": rng.integers(0, 4, 64).astype(np.int32)}, shuffle=False).batch(8)
    model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                           nn.Momentum(net.trainable_params(), 0.05, 0.9), amp_level="O2",
                           loss_scale_manager=ms.amp.DynamicLossScaleManager(2 ** 10, 2, 4))
    losses = []
    record = ms.train.LambdaCallback(
        on_train_step_end=lambda ctx: losses.append(float(ctx.original_args().net_outputs[0].asnumpy())))
    model.train(2, data, callbacks=[record], dataset_sink_mode=False)
    return losses


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def test_model_train_with_amp_loss_scale_and_dropout_is_captured(sim_plugin, graph_mode, monkeypatch, mode):
    """``Model.train`` with amp O2, a dynamic loss scale and dropout: GRAPH_MODE's step is captured in its two pieces
    around the overflow branch (unscaling, the overflow check and the dropouts inside), PYNATIVE's update as one
    graph, and its backward pass once it repeats (compiled, its dropouts' masks its inputs); the losses are the plain
    runs', and the two modes' the same."""
    _updates_one_by_one(monkeypatch)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    plain = _model_losses(mode)
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "1")
    before = dict(G.capture.STATS)
    captured = _model_losses(mode)
    stats = {k: G.capture.STATS[k] - before[k] for k in before}
    assert stats["captured"] == 2, stats
    assert stats["refused"] == 0 and stats["failed"] == 0 and stats["replays"] >= 14, stats
    assert len(plain) == 16 and len(set(plain)) > 8
    np.testing.assert_allclose(captured, plain, rtol=1e-5)
    other = _model_losses(ms.PYNATIVE_MODE if mode == ms.GRAPH_MODE else ms.GRAPH_MODE)
    np.testing.assert_allclose(other, plain, rtol=1e-5)


# --- Momentum's updates as multi-tensor launches ----------------------------------------------------------------------
@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_momentum_updates_many_parameters_per_launch_with_the_per_parameter_bits(nesterov, scale):
    """``apply_momentum_many``: 16 float32 parameters (and their accumulations) updated per launch, float64 apart, a
    strided one and an empty one one by one; every array is what ``ApplyMomentum`` of each parameter gives (its fused
    kernel), bit for bit."""
    cp, fam = cupy_sim.graph_families()
    nn_k = fam["nn"]
    prim = ms.ops.ApplyMomentum(use_nesterov=nesterov, gradient_scale=scale)
    rng = np.random.default_rng(11)
    shapes = [(rng.integers(1, 40), rng.integers(1, 9)) for _ in range(20)] + [(3, 5), (4,), (0, 3)]
    dtypes = [np.float32] * 20 + [np.float64, np.float64, np.float32]

    def arrays():
        r = np.random.default_rng(5)
        return [tuple(cp.asarray(r.standard_normal(s).astype(d)) for _ in range(3)) for s, d in zip(shapes, dtypes)]
    lr, mu = cp.asarray(np.float32(0.05)), cp.asarray(np.float32(0.9))
    many = arrays()
    strided = cp.asarray(np.random.default_rng(6).standard_normal((6, 4)).astype(np.float32))[:, ::2]
    many.append((strided, cp.asarray(np.ones((6, 2), np.float32)), cp.asarray(np.full((6, 2), 0.25, np.float32))))
    one = arrays() + [(strided.copy(), many[-1][1].copy(), many[-1][2].copy())]
    _, kinds = cupy_sim.launch_kinds(lambda: nn_k.apply_momentum_many(
        prim, [v for v, _, _ in many], [a for _, a, _ in many], lr, [g for _, _, g in many], mu))
    for v, a, g in one:
        nn_k.KERNELS["ApplyMomentum"](prim, v, a, lr, g, mu, out=None)
    for (v, a, _), (v1, a1, _) in zip(many, one):
        np.testing.assert_array_equal(cp.asnumpy(v), cp.asnumpy(v1))
        np.testing.assert_array_equal(cp.asnumpy(a), cp.asnumpy(a1))
    assert kinds.count("RawKernel ms_momentum_many") == 3, kinds      # 20 float32: 16 + 4; the two float64: 1
    # the strided parameter and the empty one: ApplyMomentum's kernel each
    assert kinds.count("ElementwiseKernel ms_apply_momentum" + ("_nesterov" if nesterov else "")) == 2, kinds


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
@pytest.mark.parametrize("optimizer", ["momentum", "momentum_nesterov_groups", "adam",
                                       "adam_nesterov_groups_loss_scale", "adam_weight_decay"])
def test_optimizer_steps_group_their_updates_into_the_same_bits(sim_plugin, graph_mode, monkeypatch, mode, optimizer):
    """``gpu_group_updates``: an optimizer's run of ApplyMomentum, Adam or AdamWeightDecay applies sharing their scalars
    and attributes is one multi-tensor apply (two runs with two learning rates), in GRAPH_MODE's step and in
    PYNATIVE's compiled update: five steps give the losses of an apply per parameter, bit for bit."""
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    grouped = G.passes.STATS["updates_grouped"]
    (losses, kinds) = cupy_sim.launch_kinds(lambda: _losses(TARGET, optimizer, mode=mode))
    assert G.passes.STATS["updates_grouped"] - grouped == 4, "the four parameters' updates are grouped"
    with monkeypatch.context() as m:
        m.setattr(G.passes, "_update_key", lambda node: None)
        _generation.bump()
        (want, want_kinds) = cupy_sim.launch_kinds(lambda: _losses(TARGET, optimizer, mode=mode))
    _generation.bump()
    np.testing.assert_array_equal(losses, want)
    many = {k for k in kinds if k.startswith("RawKernel ms_") and k.endswith("_many")} - {"RawKernel ms_copy_many"}
    assert many and not many & set(want_kinds), (many, set(want_kinds))
    assert len(kinds) < len(want_kinds), (len(kinds), len(want_kinds))


@pytest.mark.parametrize("name", ["adam", "adam_nesterov", "adam_weight_decay"])
def test_adam_updates_many_parameters_per_launch_with_the_per_parameter_bits(name):
    """``update_many``: Adam (and with Nesterov's momentum) and AdamWeightDecay of 16 float32 parameters per launch, the
    float64 ones apart (float64 scalars too), a strided one and one whose scalars are host numbers one by one, members
    with scalars of their own apart: every state is what the primitive's fused kernel gives each parameter, bit for
    bit."""
    cp, fam = cupy_sim.graph_families()
    optim = fam["optim"]
    adam = name.startswith("adam_n") or name == "adam"
    prim = ms.ops.Adam(use_nesterov=name == "adam_nesterov") if adam else ms.ops.AdamWeightDecay()
    rng = np.random.default_rng(12)
    shapes = [(int(rng.integers(1, 40)), int(rng.integers(1, 9))) for _ in range(18)] + [(3, 5), (7,)]
    dtypes = [np.float32] * 18 + [np.float64, np.float64]

    def scalars(dt):
        values = (0.9 ** 3, 0.999 ** 3, 0.01, 0.9, 0.999, 1e-8) if adam else (0.01, 0.9, 0.999, 1e-8, 0.05)
        return [cp.asarray(np.array(v, dt)) for v in values]

    def members():
        r = np.random.default_rng(2)
        shared = {dt: scalars(dt) for dt in (np.float32, np.float64)}       # (an optimizer's: one set for all)
        out = []
        for shape, dt in zip(shapes, dtypes):
            var, m, g = (cp.asarray(r.standard_normal(shape).astype(dt)) for _ in range(3))
            v = cp.asarray(r.uniform(0, 1, shape).astype(dt))
            out.append([var, m, v] + shared[dt] + [g])      # (both primitives: the states, the scalars, the gradient)
        strided = cp.asarray(r.standard_normal((6, 4)).astype(np.float32))[:, ::2]
        out.append([strided, cp.zeros((6, 2), np.float32), cp.ones((6, 2), np.float32)] + shared[np.float32]
                   + [cp.asarray(np.full((6, 2), 0.5, np.float32))])
        host = [cp.asarray(r.standard_normal(5).astype(np.float32)) for _ in range(3)]
        values = (0.9, 0.999, 0.01, 0.9, 0.999, 1e-8) if adam else (0.01, 0.9, 0.999, 1e-8, 0.05)
        out.append(host + list(values) + [cp.asarray(r.standard_normal(5).astype(np.float32))])
        return out
    many, one = members(), members()
    _, kinds = cupy_sim.launch_kinds(lambda: optim.update_many(prim, many))
    for inputs in one:
        optim.KERNELS[type(prim).__name__](prim, *inputs)
    for a, b in zip(many, one):
        for k in range(3):
            np.testing.assert_array_equal(cp.asnumpy(a[k]), cp.asnumpy(b[k]))
    launches = [k for k in kinds if k.startswith("RawKernel") and k.endswith("_many")]
    assert len(launches) == 3, kinds        # 18 float32: 16 + 2; the two float64: 1
    assert sum(k.startswith("ElementwiseKernel ms_adam") for k in kinds) == 2, kinds   # the strided one, the host one
    # members given scalars of their own are grouped apart: two float32 parameters with two sets, two launches
    pair = members()[:2]
    pair[1][3:3 + len(scalars(np.float32))] = scalars(np.float32)
    _, kinds = cupy_sim.launch_kinds(lambda: optim.update_many(prim, pair))
    assert sum(k.startswith("RawKernel") and k.endswith("_many") for k in kinds) == 2, kinds
