"""THOR: the layers' recorded Kronecker factors, the preconditioned update against a NumPy oracle, and training."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


def _inv(m, d):
    return np.linalg.inv(m + np.sqrt(d) * np.eye(m.shape[0]))


def test_dense_thor_records_factors_and_update_matches_numpy():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 4)).astype(np.float32)
    y = rng.standard_normal((8, 3)).astype(np.float32)
    w0 = rng.standard_normal((3, 4)).astype(np.float32)
    net = nn.SequentialCell([nn.Dense(4, 3, weight_init=ms.Tensor(w0), has_bias=False)])
    lr, damping, batch = 0.5, 0.1, 8
    opt = nn.thor(net, ms.Tensor(np.full(4, lr, np.float32)), ms.Tensor(np.full(4, damping, np.float32)), 0.0,
                  batch_size=batch)
    assert type(net[0]).__name__ == "DenseThor" and net[0].weight.asnumpy().tolist() == w0.tolist()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    train(ms.Tensor(x), ms.Tensor(y))
    # oracle: MSE mean over 8*3 elements
    out = x @ w0.T
    dout = 2 * (out - y) / out.size
    grad = dout.T @ x
    a = x.T @ x / batch
    g = dout.T @ dout / batch
    np.testing.assert_allclose(net[0].matrix_a.asnumpy(), a, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net[0].matrix_g.asnumpy(), g, rtol=1e-4, atol=1e-9)
    a_inv, g_inv = _inv(a, damping), _inv(g * batch * batch, damping)
    expect = w0 - lr * (g_inv @ grad @ a_inv)
    np.testing.assert_allclose(net[0].weight.asnumpy(), expect, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(opt.matrix_a[0].asnumpy(), a_inv, rtol=1e-4, atol=1e-5)


def test_conv2d_thor_factor_a_is_the_patch_second_moment():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 1, 4, 4)).astype(np.float32)
    conv = nn.Conv2dThor(1, 2, 3, pad_mode="valid")
    assert conv(ms.Tensor(x)).shape == (2, 2, 2, 2)
    patches = np.stack([x[n, 0, i:i + 3, j:j + 3].reshape(-1) for n in range(2) for i in range(2) for j in range(2)])
    np.testing.assert_allclose(conv.matrix_a_cov.asnumpy(), patches.T @ patches / 8, rtol=1e-5, atol=1e-6)
    assert conv.a_normalizer.asnumpy().tolist() == [8.0]
    same = nn.Conv2dThor(1, 2, 3)   # pad_mode 'same': a zero border of 1
    assert same(ms.Tensor(x)).shape == (2, 2, 4, 4)
    assert same.a_normalizer.asnumpy().tolist() == [32.0]


def test_embedding_thor_counts_ids():
    emb = nn.EmbeddingThor(5, 2)
    out = emb(ms.Tensor(np.array([[1, 1, 3]], np.int32)))
    assert out.shape == (1, 3, 2)
    assert emb.matrix_a.asnumpy().tolist() == [0, 2, 0, 1, 0]


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.dense = nn.Dense(4 + 2 * 4 * 4, 1)

    def construct(self, ids, img):
        a = self.emb(ids).sum(1)
        b = self.conv(img).reshape((img.shape[0], -1))
        return self.dense(ms.ops.concat((a, b), 1))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_thor_training_loss_falls(mode):
    ms.set_context(mode=mode)
    try:
        rng = np.random.default_rng(2)
        ids = rng.integers(0, 10, (16, 3)).astype(np.int32)
        img = rng.standard_normal((16, 1, 4, 4)).astype(np.float32)
        target = (ids.sum(1, keepdims=True) / 10 + img.mean((1, 2, 3))[:, None]).astype(np.float32)
        ms.set_seed(0)
        net = _Net()
        opt = nn.thor(net, ms.Tensor(np.full(50, 0.05, np.float32)), ms.Tensor(np.full(50, 0.05, np.float32)), 0.9,
                      batch_size=16)
        assert {type(c).__name__ for c in (net.emb, net.conv, net.dense)} == {"EmbeddingThor", "Conv2dThor",
                                                                               "DenseThor"}

        class WithLoss(nn.Cell):
            def __init__(self, n):
                super().__init__()
                self.n = n
                self.loss = nn.MSELoss()

            def construct(self, i, m, t):
                return self.loss(self.n(i, m), t)

        train = nn.TrainOneStepCell(WithLoss(net), opt)
        losses = [float(train(ms.Tensor(ids), ms.Tensor(img), ms.Tensor(target)).asnumpy()) for _ in range(15)]
        assert losses[-1] < 0.2 * losses[0], losses
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_thor_model_alternates_second_and_first_order_steps():
    import mindspore.dataset as ds
    rng = np.random.default_rng(3)
    x = rng.standard_normal((32, 4)).astype(np.float32)
    y = (x @ rng.standard_normal((4, 2))).astype(np.float32)
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(4, 8), nn.Tanh(), nn.Dense(8, 2)])
    opt = nn.thor(net, ms.Tensor(np.full(100, 0.05, np.float32)), ms.Tensor(np.full(100, 0.3, np.float32)), 0.9,
                  batch_size=8, frequency=3)
    loss = nn.MSELoss()
    model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
    model = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss, optimizer=opt)
    assert type(model).__name__ == "ModelThor"
    seen = []

    class Record(ms.train.Callback):
        def on_train_step_end(self, run_context):
            seen.append((opt.thor, net[0].thor, float(run_context.original_args().net_outputs.asnumpy())))

    ms.set_seed(0)
    model.train(10, ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8), callbacks=[Record()])
    assert [s[0] for s in seen[:6]] == [True, False, False, True, False, False]
    assert [s[1] for s in seen[:6]] == [True, False, False, True, False, False]
    first, last = np.mean([s[2] for s in seen[:4]]), np.mean([s[2] for s in seen[-4:]])   # epoch means
    assert last < 0.3 * first, (first, last)
    plain = ms.train.Model(net, loss_fn=loss, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    assert ms.train.ConvertModelUtils.convert_to_thor_model(plain, network=net, optimizer=plain._optimizer) is plain


def test_thor_checks():
    net = nn.Dense(2, 2)
    lr = ms.Tensor(np.full(2, 0.1, np.float32))
    with pytest.raises(ValueError, match="'frequency' must be at least 2"):
        nn.thor(net, lr, lr, 0.9, frequency=1)
    with pytest.raises(ValueError, match="'momentum' must be at least 0.0"):
        nn.thor(nn.Dense(2, 2), lr, lr, -0.1)
    with pytest.raises(TypeError):
        nn.thor(nn.Dense(2, 2), 0.1, lr, 0.9)
