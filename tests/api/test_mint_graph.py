"""``mindspore.mint`` inside ``construct`` and ``@jit``: staged in GRAPH_MODE, the same numbers as PYNATIVE,
and gradients through it.

Every case of ``make_mint_fixture.py`` is also run staged: the functional ones inside one ``ms.jit`` function
taking the inputs as arguments, the layer, optimizer and gradient ones with the context in GRAPH_MODE (their Cells
and ``ms.grad`` compile); each must give what it gives in PYNATIVE mode (checked against MindSpore or NumPy in
``test_mint_values.py``).
"""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import mint, nn
from mindspore.mint.nn import functional as F

_spec = importlib.util.spec_from_file_location("mint_values", pathlib.Path(__file__).with_name("test_mint_values.py"))
VALUES = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(VALUES)
MAKER = VALUES.MAKER
STATEFUL = ("optim", "grad", "layer")
# their results are Python values or shapes that depend on the data: not stageable in MindSpore either
NOT_STAGEABLE = {"bincount": "the output length is the data's maximum + 1",
                 "allclose": "returns a Python bool", "extras": "mint.equal and mint.item return Python values"}
FUNCTIONAL = sorted(n for n in MAKER.cases() if not n.startswith(STATEFUL) and n not in NOT_STAGEABLE)
STAGED_CELLS = sorted(n for n in MAKER.cases() if n.startswith(STATEFUL))


class SmallNet(nn.Cell):
    """A model written the way MindSpore 2.3+ model code is: mint layers and functions only."""

    def __init__(self):
        super().__init__()
        self.conv = mint.nn.Conv2d(2, 4, 3, padding=1)
        self.bn = mint.nn.BatchNorm2d(4)
        self.pool = mint.nn.AdaptiveAvgPool2d((2, 2))
        self.flatten = mint.nn.Flatten()
        self.fc = mint.nn.Linear(16, 3)
        self.act = mint.nn.GELU()

    def construct(self, x):
        y = self.act(self.bn(self.conv(x)))
        y = F.max_pool2d(y, 2, 1, 0)
        y = self.flatten(self.pool(y))
        logits = self.fc(y)
        return mint.sum(mint.softmax(logits, 1) * mint.mean(logits, dim=1, keepdim=True), dim=-1)


def _fill(cell, seed=0):
    rng = np.random.default_rng(seed)
    for p in sorted(cell.get_parameters(), key=lambda q: q.name):
        if p.dtype != ms.int64:
            p.set_data(ms.Tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)))
    return cell


@pytest.fixture
def graph_mode():
    before = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=before)


def _x():
    return ms.Tensor(np.random.default_rng(1).normal(size=(2, 2, 5, 5)).astype(np.float32))


def test_cell_with_mint_matches_pynative(graph_mode):
    net = _fill(SmallNet())
    net.set_train(False)
    graph_out = net(_x()).asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager_out = net(_x()).asnumpy()
    assert graph_out.shape == (2,)
    np.testing.assert_allclose(graph_out, eager_out, rtol=1e-5, atol=1e-6)


def test_jit_function_with_mint_reductions_and_indexing():
    @ms.jit
    def fn(x, idx):
        values, indices = mint.max(x, 1)
        g = mint.gather(x, 1, idx)
        top = mint.topk(x, 2, dim=1)[0]
        return mint.sum(values) + mint.sum(g) + mint.mean(top), indices

    x = np.random.default_rng(2).uniform(size=(3, 4)).astype(np.float32)
    idx = np.array([[0, 1], [3, 3], [2, 0]], np.int64)
    total, indices = fn(ms.Tensor(x), ms.Tensor(idx))
    expected = x.max(1).sum() + np.take_along_axis(x, idx, 1).sum() + np.sort(x, 1)[:, -2:].mean()
    np.testing.assert_allclose(float(total), expected, rtol=1e-5)
    np.testing.assert_array_equal(indices.asnumpy(), x.argmax(1))
    assert indices.dtype == ms.int64


def test_gradients_through_mint_in_graph_mode(graph_mode):
    w = np.random.default_rng(3).uniform(-1, 1, (4, 3)).astype(np.float32)
    x = np.random.default_rng(4).uniform(-1, 1, (2, 3)).astype(np.float32)

    def loss(x_, w_):
        return mint.sum(F.silu(F.linear(x_, w_)) ** 2)

    gx, gw = ms.grad(loss, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(w))
    z = x @ w.T
    s = 1 / (1 + np.exp(-z))
    silu = z * s
    dz = 2 * silu * (s + z * s * (1 - s))
    np.testing.assert_allclose(gx.asnumpy(), dz @ w, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), dz.T @ x, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_training_step_with_mint_optimizer(mode):
    before = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        net = _fill(mint.nn.Linear(3, 1), 5)
        opt = mint.optim.AdamW(net.trainable_params(), lr=0.05)
        x = ms.Tensor(np.random.default_rng(6).normal(size=(16, 3)).astype(np.float32))
        y = mint.sum(x * ms.Tensor(np.array([1.0, -2.0, 0.5], np.float32)), dim=1, keepdim=True)

        def forward(a, b):
            return F.mse_loss(net(a), b)

        grad_fn = ms.value_and_grad(forward, None, opt.parameters)

        def step(a, b):
            loss, grads = grad_fn(a, b)
            opt(grads)
            return loss

        losses = [float(step(x, y)) for _ in range(30)]
    finally:
        ms.set_context(mode=before)
    assert losses[-1] < 0.5 * losses[0]
    assert int(opt.state_step) == 30


def test_batchnorm_running_stats_update_in_training_and_are_used_in_eval():
    bn = mint.nn.BatchNorm1d(2, momentum=0.5)
    x = ms.Tensor(np.array([[1.0, 10.0], [3.0, 30.0]], np.float32))
    bn.set_train(True)
    out = bn(x).asnumpy()
    np.testing.assert_allclose(out, [[-1.0, -1.0], [1.0, 1.0]], atol=1e-3)
    np.testing.assert_allclose(bn.running_mean.asnumpy(), [1.0, 10.0])
    np.testing.assert_allclose(bn.running_var.asnumpy(), [0.5 + 0.5 * 2.0, 0.5 + 0.5 * 200.0])
    assert int(bn.num_batches_tracked) == 1
    bn.set_train(False)
    np.testing.assert_allclose(bn(x).asnumpy()[:, 0], (np.array([1.0, 3.0]) - 1.0) / np.sqrt(1.5 + 1e-5),
                               rtol=1e-5)


@pytest.mark.parametrize("name", FUNCTIONAL)
def test_case_staged_in_jit_matches_pynative(name):
    eager = VALUES._run(name)
    data = MAKER.tensors(ms, MAKER.make_data())
    keys = sorted(data)
    case = MAKER.cases()[name]

    def fn(*values):
        return case(ms, mint, dict(zip(keys, values)))

    staged = MAKER.flatten(ms.jit(fn)(*[data[k] for k in keys]))
    VALUES._compare(name, staged, eager, check_dtype=True)


@pytest.mark.parametrize("name", STAGED_CELLS)
def test_layer_optimizer_and_gradient_cases_in_graph_mode(name, graph_mode):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    eager = VALUES._run(name)
    ms.set_context(mode=ms.GRAPH_MODE)
    VALUES._compare(name, VALUES._run(name), eager, check_dtype=True)


def test_data_dependent_functions_say_so_in_graph_mode():
    x = ms.Tensor(np.array([0, 2, 2]))
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        with pytest.raises(RuntimeError, match="graph mode"):
            ms.jit(lambda a: mint.bincount(a))(x)
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)
    # outside strict mode the call runs as Python (MindSpore's JIT fallback)
    with pytest.warns(RuntimeWarning, match="runs as Python"):
        assert ms.jit(lambda a: mint.bincount(a))(x).asnumpy().tolist() == [1, 0, 2]


class TinyAttention(nn.Cell):
    """The shape of transformer code written against mint: embedding, layer norm, causal attention, AdamW."""

    def __init__(self, d=8, heads=2):
        super().__init__()
        self.heads = heads
        self.emb = mint.nn.Embedding(10, d)
        self.norm = mint.nn.LayerNorm(d)
        self.qkv = mint.nn.Linear(d, 3 * d, bias=False)
        self.out = mint.nn.Linear(d, d)
        self.drop = mint.nn.Dropout(0.1)

    def construct(self, ids):
        x = self.emb(ids)
        b, t, d = x.shape
        q, k, v = (mint.transpose(mint.reshape(a, (b, t, self.heads, d // self.heads)), 1, 2)
                   for a in mint.chunk(self.qkv(self.norm(x)), 3, dim=-1))
        scores = mint.matmul(q, mint.transpose(k, -2, -1)) / (d // self.heads) ** 0.5
        causal = mint.triu(mint.ones((t, t)), diagonal=1) > 0
        scores = mint.where(causal, mint.full_like(scores, -1e9), scores)
        attn = mint.matmul(self.drop(F.softmax(scores, dim=-1)), v)
        return self.out(F.silu(mint.reshape(mint.transpose(attn, 1, 2), (b, t, d)))) + x


def test_jitted_train_step_of_a_mint_transformer_block():
    net = _fill(TinyAttention(), 7)
    net.set_train(False)   # no dropout noise: the loss must fall steadily
    opt = mint.optim.AdamW(net.trainable_params(), lr=3e-2)

    def forward(ids, labels):
        return F.cross_entropy(mint.reshape(net(ids), (-1, 8)), mint.reshape(labels, (-1,)))

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    @ms.jit
    def step(ids, labels):
        loss, grads = grad_fn(ids, labels)
        opt(grads)
        return loss

    ids = ms.Tensor(np.random.default_rng(0).integers(0, 10, (2, 5)))
    labels = ms.Tensor(np.random.default_rng(1).integers(0, 8, (2, 5)))
    losses = [float(step(ids, labels)) for _ in range(20)]
    assert all(b < a for a, b in zip(losses, losses[1:]))
    assert losses[-1] < 0.7 * losses[0]
