"""The ``mindspore.nn`` / ``mindspore.train`` names added for issue 16 against real MindSpore 2.10.

Values: ``tests/fixtures/api/nn_reference.npz``, recorded by ``tests/api/make_nn_fixture.py`` from real
MindSpore 2.10 (CPU); the cases MindSpore cannot run on CPU (listed in the fixture's ``__failed__``: Roll,
MatInverse, InstanceNorm) are checked against NumPy oracles instead. Signatures: ``nn_signatures.json``.
Each value test runs in PYNATIVE_MODE and in GRAPH_MODE; gradients are checked by central differences.
"""
import json
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1] / "mindspore-core" / "tests" / "nn"))
import make_nn_fixture as fx  # noqa: E402
import _nn_ref as ref  # noqa: E402

REF = np.load(fx.FIXTURE)
FAILED = json.loads(str(REF["__failed__"]))
DATA = fx.make_data()
CASES = fx.cases()


def _instance_norm(x, gamma=None, beta=None, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    x = x.astype(np.float64)
    y = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + eps)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if gamma is not None:
        y = y * gamma.reshape(shape) + beta.reshape(shape)
    return y


def _triplet(d, p=2, swap=False, margin=1.0, reduction="mean", eps=1e-6):
    a, pos, neg = (d[k].astype(np.float64) for k in ("anc", "pos", "neg"))
    dist = lambda u, v: (np.abs(u - v + eps) ** p).sum(1) ** (1 / p)  # noqa: E731
    d_neg = np.minimum(dist(a, neg), dist(pos, neg)) if swap else dist(a, neg)
    loss = np.maximum(dist(a, pos) - d_neg + margin, 0)
    return {"mean": loss.mean(), "sum": loss.sum(), "none": loss}[reduction]


def _multilabel_margin(x, target):
    """Loop form of the multi-label margin loss (targets up to the first -1)."""
    x = x.astype(np.float64)
    out = np.zeros(x.shape[0])
    for n in range(x.shape[0]):
        labels = []
        for t in target[n]:
            if t < 0:
                break
            labels.append(int(t))
        others = [i for i in range(x.shape[1]) if i not in labels]
        out[n] = sum(max(0.0, 1 - (x[n, j] - x[n, i])) for j in labels for i in others) / x.shape[1]
    return out


def _set_diag(x, diag):
    out = x.astype(np.float64).copy()
    k = min(x.shape[-2:])
    out[..., np.arange(k), np.arange(k)] = diag
    return out


def _psnr(a, b, max_val=1.0, scale=1.0):
    mse = (((a.astype(np.float64) - b.astype(np.float64)) * scale) ** 2).mean((-3, -2, -1))
    return 10 * np.log10((max_val * scale) ** 2 / mse)


def _ssim(a, b, max_val=1.0, size=11, sigma=1.5, k1=0.01, k2=0.03):
    from numpy.lib.stride_tricks import sliding_window_view
    x, y = np.mgrid[-size // 2 + 1:size // 2 + 1, -size // 2 + 1:size // 2 + 1]
    g = np.exp(-(x ** 2 + y ** 2) / (2 * sigma ** 2))
    g = g / g.sum()
    blur = lambda t: (sliding_window_view(t.astype(np.float64), (size, size), axis=(2, 3)) * g).sum((-2, -1))  # noqa
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    mu1, mu2 = blur(a), blur(b)
    s1, s2, s12 = blur(a * a) - mu1 ** 2, blur(b * b) - mu2 ** 2, blur(a * b) - mu1 * mu2
    ssim = (2 * mu1 * mu2 + c1) * (2 * s12 + c2) / ((mu1 ** 2 + mu2 ** 2 + c1) * (s1 + s2 + c2))
    return ssim.mean((1, 2, 3))


ORACLES = {
    # MindSpore 2.10's SSIM fails on CPU like its PSNR (ScalarCast): NumPy oracle
    "SSIM": lambda d: [_ssim(d["ssim_a"], d["ssim_b"])],
    "SSIM_params": lambda d: [_ssim(d["ssim_a"], d["ssim_b"], 2.0, 5, 1.0, 0.02, 0.05)],
    # MindSpore 2.10's CPU build has no MatrixDiag/MatrixDiagPart/MatrixSetDiag kernels, and its PSNR fails
    # in PYNATIVE mode ("For 'ScalarCast', the supported type is ..."): NumPy oracles
    "MatrixDiag": lambda d: [np.stack([np.diag(r) for r in d["m34"]])],
    "MatrixDiagPart_wide": lambda d: [np.diagonal(d["x3"][..., :5], axis1=-2, axis2=-1)],
    "MatrixDiagPart_tall": lambda d: [np.diagonal(d["img"][0, :, :5, :3], axis1=-2, axis2=-1)],
    "MatrixSetDiag_wide": lambda d: [_set_diag(d["x3"], d["m34"][:2, :3])],
    "MatrixSetDiag_tall": lambda d: [_set_diag(d["img"][0, :3, :5, :3], d["m34"][:, :3])],
    "PSNR": lambda d: [_psnr(d["img"], d["img"] * 0.9 + 0.05)],
    "PSNR_uint8": lambda d: [_psnr(d["u8a"], d["u8b"], 255.0, 1 / 255.0)],
    "TripletMarginLoss": lambda d: [np.asarray(_triplet(d))],
    "TripletMarginLoss_p1_swap_none": lambda d: [_triplet(d, p=1, swap=True, margin=2.0, reduction="none")],
    "TripletMarginLoss_margin_sum": lambda d: [np.asarray(_triplet(d, margin=3.0, reduction="sum"))],
    "MultilabelMarginLoss": lambda d: [np.asarray(_multilabel_margin(d["sc"], d["mlt"]).mean())],
    "MultilabelMarginLoss_none": lambda d: [_multilabel_margin(d["sc"], d["mlt"])],
    "Roll_2axes": lambda d: [np.roll(d["m34"], (1, -2), (0, 1))],
    "Roll_1": lambda d: [np.roll(d["m34"], 2, 1)],
    # MindSpore's CPU build has no Roll / MatrixInverse / InstanceNorm / TripletMarginLoss / MultilabelMarginLoss
    "MatInverse": lambda d: [np.linalg.inv(d["m44"].astype(np.float64))],
    "InstanceNorm1d": lambda d: [_instance_norm(d["x3"], d["b4"][:3], d["b4"][1:])],
    "InstanceNorm2d": lambda d: [_instance_norm(d["img"])],
    "InstanceNorm3d": lambda d: [_instance_norm(d["x5"], eps=0.1)],
}


def test_fixture_covers_every_case():
    recorded = {k.split("/")[0] for k in REF.files if k != "__failed__"}
    assert recorded | set(FAILED) == set(CASES)
    assert set(FAILED) == set(ORACLES)


@pytest.mark.both_modes
@pytest.mark.parametrize("name", sorted(CASES))
def test_values_match_mindspore(name):
    got = fx.flatten(CASES[name](ms, nn, DATA), ms)
    if name in FAILED:
        want = ORACLES[name](DATA)
    else:
        want = [REF[f"{name}/{i}"] for i in range(sum(k.startswith(name + "/") for k in REF.files))]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape, (name, g.shape, w.shape)
        if w.dtype.kind in "iub":
            assert g.dtype.kind == w.dtype.kind
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=2e-5, atol=2e-5)
            if name not in FAILED:
                assert g.dtype == w.dtype, (name, g.dtype, w.dtype)


def test_signatures_match_mindspore():
    want = json.loads(fx.SIGNATURES.read_text())
    got = {key: fx.signature_of(getattr(getattr(ms, key.split(".")[0]), key.split(".", 1)[1])) for key in want}
    assert {k: v for k, v in got.items() if v != want[k]} == {}


def test_optimizer_signatures():
    # MindSpore's opt_init_args_register hides these behind (*args, **kwargs); read from its source
    import inspect
    assert str(inspect.signature(nn.AdaMax.__init__)) == (
        "(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08, weight_decay=0.0, loss_scale=1.0)")
    assert str(inspect.signature(nn.Rprop.__init__)) == (
        "(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-06, 50.0), weight_decay=0.0)")
    w = ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")
    # recorded from MindSpore 2.10 (checkpoints of the optimizer state load by these names)
    assert [p.name for p in nn.AdaMax([w]).get_parameters()] == [
        "global_step", "learning_rate", "w", "beta1_power", "moment1.w", "moment2.w"]
    assert [p.name for p in nn.Rprop([w]).get_parameters()] == [
        "global_step", "learning_rate", "w", "prev.w", "step_size.w"]
    assert [p.name for p in nn.ASGD([w]).get_parameters()] == [
        "global_step", "learning_rate", "w", "mu_w", "eta_w", "ax_.w"]
    assert [p.name for p in nn.ProximalAdagrad([w]).get_parameters()] == [
        "global_step", "learning_rate", "w", "accum.w"]
    assert str(inspect.signature(nn.ASGD.__init__)) == (
        "(self, params, learning_rate=0.1, lambd=0.0001, alpha=0.75, t0=1000000.0, weight_decay=0.0)")
    assert str(inspect.signature(nn.ProximalAdagrad.__init__)) == (
        "(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0, use_locking=False, loss_scale=1.0, "
        "weight_decay=0.0)")
    with pytest.raises(ValueError, match="For Rprop, etaplus must be greater than 1.0"):
        nn.Rprop([w], etas=(0.5, 1.0))
    with pytest.raises(ValueError, match="For Rprop, maximal step size should not be less than minimal step size"):
        nn.Rprop([w], step_sizes=(1.0, 0.1))
    with pytest.raises(TypeError, match="beta1"):
        nn.AdaMax([w], beta1=1)


def test_reexports_are_mindspores_objects():
    from mindspore import mint, train
    for name in ("Accuracy", "Metric", "Loss", "MAE", "MSE", "F1", "Fbeta", "Precision", "Recall", "ConfusionMatrix",
                 "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy", "names",
                 "get_metric_fn", "rearrange_inputs", "auc", "Perplexity", "Dice", "CosineSimilarity", "ROC",
                 "BleuScore"):
        assert getattr(nn, name) is getattr(train, name), name
    assert nn.get_metrics is train.metrics.get_metrics
    for ours, theirs in (("Linear", "Linear"), ("DropoutExt", "Dropout"), ("L1LossExt", "L1Loss"),
                         ("MaxPool2dExt", "MaxPool2d"), ("LayerNormExt", "LayerNorm"), ("EmbeddingExt", "Embedding")):
        assert getattr(nn, ours) is getattr(mint.nn, theirs)
    assert {"Accuracy", "Linear", "PReLUExt"} <= set(dir(nn))
    with pytest.raises(AttributeError):
        nn.NoSuchLayer  # noqa: B018
    for name in ("perplexity", "dice", "cosine_similarity", "auc", "roc", "bleu_score"):
        assert name in train.names()
    assert isinstance(train.get_metric_fn("dice"), nn.Dice)


def test_parameter_names_load_mindspore_checkpoints():
    net = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="relu")
    assert [n for n, _ in net.parameters_and_names()] == [
        "conv.weight", "batchnorm.moving_mean", "batchnorm.moving_variance", "batchnorm.gamma", "batchnorm.beta"]
    assert [n for n, _ in net.cells_and_names()] == ["", "conv", "batchnorm", "activation"]
    net = nn.DenseBnAct(3, 4, has_bn=True)
    assert [n for n, _ in net.parameters_and_names()][:2] == ["dense.weight", "dense.bias"]
    norm = nn.InstanceNorm2d(3, affine=False)
    assert [(n, p.name, p.requires_grad) for n, p in norm.parameters_and_names()] == [
        ("moving_mean", "mean", False), ("moving_variance", "variance", False), ("gamma", "gamma", False),
        ("beta", "beta", False)]
    conv = nn.Conv1dTranspose(3, 4, 3, has_bias=True)
    assert [(n, tuple(p.shape)) for n, p in conv.parameters_and_names()] == [("weight", (3, 4, 1, 3)),
                                                                            ("bias", (4,))]


def test_instance_norm_parameter_gradients():
    rng = np.random.default_rng(3)
    net = nn.InstanceNorm2d(3, gamma_init=Tensor(rng.standard_normal(3)), beta_init=Tensor(rng.standard_normal(3)),
                            dtype=ms.float64)
    ref.check_param_grads(net, [Tensor(rng.standard_normal((2, 3, 4, 5)))], rtol=1e-5, atol=1e-7)


def test_bidense_parameter_gradients():
    rng = np.random.default_rng(6)
    net = nn.BiDense(3, 4, 2, dtype=ms.float64)
    ref.check_param_grads(net, [Tensor(rng.standard_normal((5, 3))), Tensor(rng.standard_normal((5, 4)))],
                          rtol=1e-5, atol=1e-7)


def test_attention_and_transformer_parameter_gradients():
    rng = np.random.default_rng(7)
    mha = nn.MultiheadAttention(4, 2, add_bias_kv=True, dtype=ms.float64)
    q, k = Tensor(rng.standard_normal((3, 2, 4))), Tensor(rng.standard_normal((5, 2, 4)))
    mask = Tensor(np.array([[False, False, True, False, False], [False, True, False, False, False]]))
    ref.check_param_grads(_Kw(mha, key_padding_mask=mask), [q, k, k], rtol=1e-5, atol=1e-7)
    layer = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=True, dtype=ms.float64)
    ref.check_param_grads(layer, [k], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("kwargs,batched", [({}, True), ({"batch_first": True}, True), ({}, False),
                                             ({"add_bias_kv": True, "add_zero_attn": True}, True),
                                             ({"kdim": 3, "vdim": 5}, True)])
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_multihead_attention_without_weights_runs_the_fused_attention(kwargs, batched, mode, monkeypatch):
    """need_weights=False without masks or dropout (what the transformer layers ask) runs the fused
    ScaledDotProductAttention; its output and every gradient equal the composition need_weights=True computes."""
    from mindspore.ops._defs import nn_prims_ext
    calls = []
    real = nn_prims_ext.ScaledDotProductAttention.__call__
    monkeypatch.setattr(nn_prims_ext.ScaledDotProductAttention, "__call__",
                        lambda self, *a: calls.append(1) or real(self, *a))
    ms.set_seed(5)
    mha = nn.MultiheadAttention(6, 2, dtype=ms.float64, **kwargs)
    rng = np.random.default_rng(9)
    lead = ((2, 3) if kwargs.get("batch_first") else (3, 2)) if batched else (3,)
    kv_lead = ((2, 4) if kwargs.get("batch_first") else (4, 2)) if batched else (4,)
    q = Tensor(rng.standard_normal(lead + (6,)))
    k = Tensor(rng.standard_normal(kv_lead + (kwargs.get("kdim", 6),)))
    v = Tensor(rng.standard_normal(kv_lead + (kwargs.get("vdim", 6),)))
    fused = _Kw(mha, need_weights=False)
    plain = _Kw(mha, need_weights=True)
    run = (lambda f: ms.jit(f)) if mode == "graph" else (lambda f: f)
    out_fused = run(lambda *a: fused(*a)[0])(q, k, v)
    assert calls, "the fused attention did not run"
    n = len(calls)
    out_plain = run(lambda *a: plain(*a)[0])(q, k, v)
    assert len(calls) == n, "need_weights=True must compute the weights (the composition)"
    np.testing.assert_allclose(out_fused.asnumpy(), out_plain.asnumpy(), rtol=1e-12, atol=1e-12)
    w = Tensor(rng.standard_normal(out_plain.shape))
    g_fused = ms.grad(lambda *a: (fused(*a)[0] * w).sum(), grad_position=(0, 1, 2))(q, k, v)
    g_plain = ms.grad(lambda *a: (plain(*a)[0] * w).sum(), grad_position=(0, 1, 2))(q, k, v)
    for name, a, b in zip("qkv", g_fused, g_plain):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-10, atol=1e-12, err_msg=f"d{name}")


class _Kw(nn.Cell):
    def __init__(self, net, **kwargs):
        super().__init__()
        self.net, self.kwargs = net, kwargs

    def construct(self, *args):
        return self.net(*args, **self.kwargs)


def test_conv1d_transpose_matches_numpy_and_its_gradients():
    rng = np.random.default_rng(4)
    w = rng.standard_normal((3, 4, 3))
    x = rng.standard_normal((2, 3, 6))
    net = nn.Conv1dTranspose(3, 4, 3, stride=2, pad_mode="pad", padding=1, weight_init=Tensor(w), dtype=ms.float64)
    out = net(Tensor(x)).asnumpy()
    # scatter form of the transposed convolution, then crop the padding
    full = np.zeros((2, 4, (6 - 1) * 2 + 3))
    for i in range(6):
        full[:, :, 2 * i:2 * i + 3] += np.einsum("nc,cok->nok", x[:, :, i], w)
    np.testing.assert_allclose(out, full[:, :, 1:-1], rtol=1e-10, atol=1e-10)
    ref.check_param_grads(net, [Tensor(x)], rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("make", [lambda: nn.Moments(axis=1), lambda: _LossOf(nn.TripletMarginLoss(swap=True)),
                                  lambda: _LossOf(nn.MultiMarginLoss(p=2)), lambda: _LossOf(nn.MultilabelMarginLoss()),
                                  lambda: _LossOf(nn.MultiLabelSoftMarginLoss()), lambda: nn.ImageGradients(),
                                  lambda: nn.ChannelShuffle(2),
                                  lambda: nn.CentralCrop(0.5), lambda: nn.LPPool2d(2, 2), lambda: nn.PixelShuffle(2),
                                  lambda: nn.ReduceLogSumExp((2, 3)), lambda: nn.InstanceNorm2d(4, dtype=ms.float64)])
def test_input_gradients(make):
    net = make()
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 4, 4, 4))

    def total(a):
        out = net(a)
        outs = out if isinstance(out, tuple) else (out,)
        result = 0
        for k, o in enumerate(outs):
            result = result + (o * (k + 1.5)).sum()
        return result

    grad = ms.grad(total)(Tensor(x)).asnumpy()
    eps = 1e-6
    for idx in [(0, 0, 0, 0), (1, 3, 2, 1), (0, 2, 3, 3), (1, 1, 1, 2)]:
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        num = (float(total(Tensor(plus)).asnumpy()) - float(total(Tensor(minus)).asnumpy())) / (2 * eps)
        assert abs(grad[idx] - num) < 1e-5 * max(1.0, abs(num)), (idx, grad[idx], num)


class _LossOf(nn.Cell):
    """A loss applied to slices of one (2, 4, 4, 4) input, with fixed labels, for the gradient check."""

    def __init__(self, loss):
        super().__init__()
        self.loss = loss

    def construct(self, x):
        flat = x.reshape(8, 16)
        if isinstance(self.loss, nn.TripletMarginLoss):
            return self.loss(flat[:, :5], flat[:, 5:10], flat[:, 10:15])
        if isinstance(self.loss, nn.MultiMarginLoss):
            return self.loss(flat, Tensor(np.arange(8) % 16))
        if isinstance(self.loss, nn.MultilabelMarginLoss):
            return self.loss(flat[:, :4], Tensor(np.array([[0, 2, -1, 1]] * 8)))
        return self.loss(flat, Tensor((np.arange(128).reshape(8, 16) % 3 == 0).astype(np.float64)))


def test_cells_under_jit():
    x = Tensor(DATA["img"])
    crop, shuffle = nn.CentralCrop(0.5), nn.ChannelShuffle(4)

    @ms.jit
    def f(a):
        return shuffle(crop(a)), nn.Moments(axis=(2, 3))(a)

    got, (mean, var) = f(x)
    np.testing.assert_allclose(got.asnumpy(), REF["ChannelShuffle/0"][:, :, 1:4, 1:5], rtol=1e-6)
    np.testing.assert_allclose(mean.asnumpy(), DATA["img"].mean((2, 3)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), DATA["img"].var((2, 3)), rtol=1e-5, atol=1e-6)


def test_errors_in_mindspores_words():
    with pytest.raises(TypeError, match="For 'CentralCrop', the type of 'central_fraction' must be float"):
        nn.CentralCrop(1)
    with pytest.raises(ValueError, match=r"For 'CentralCrop', the 'central_fraction' must be in range"):
        nn.CentralCrop(0.0)
    with pytest.raises(ValueError, match="For ChannelShuffle, the param `groups` must be larger than 0"):
        nn.ChannelShuffle(0)
    with pytest.raises(ValueError, match="For 'InstanceNorm2d', the 'num_features' must be at least 1"):
        nn.InstanceNorm2d(0)
    with pytest.raises(TypeError, match="For 'InstanceNorm1d', the type of 'eps' must be float"):
        nn.InstanceNorm1d(3, eps=1)
    with pytest.raises(ValueError, match="For 'InstanceNorm2d', the 'x' shape\\[1\\] must be equal"):
        nn.InstanceNorm2d(3)(Tensor(np.ones((1, 2, 3, 3), np.float32)))
    with pytest.raises(ValueError, match="For 'Conv1dTranspose', the 'weight_init_shape' must be int and must = 3"):
        nn.Conv1dTranspose(3, 4, 3, weight_init=Tensor(np.ones((3, 4, 1, 3), np.float32)))
    with pytest.raises(TypeError, match="For 'Conv1dTranspose', the 'kernel_size' must be an int"):
        nn.Conv1dTranspose(3, 4, (1, 3))
    with pytest.raises(TypeError, match="For 'Conv2dBnAct', the 'activation' must be str or Cell or Primitive"):
        nn.Conv2dBnAct(3, 4, 3, activation=3)
    with pytest.raises(ValueError, match="For 'Roll', the shape of 'shift' and the shape of 'axis' must be the same"):
        nn.Roll((1, 2), (0, 1, 2))
    with pytest.raises(ValueError, match="For 'Range', the 'delta' can not be zero"):
        nn.Range(0, 5, 0)
    with pytest.raises(TypeError, match="For 'auc', the argument 'x' and 'y' must all be np.ndarray"):
        nn.auc([0, 1], [0, 1])
    with pytest.raises(ValueError, match="For 'auc', if the argument is False, the argument 'x' array must be"):
        nn.auc(np.array([0., 1., 0.5]), np.array([0., 1., 1.]))
    with pytest.raises(RuntimeError, match="The 'Perplexity' can not be calculated"):
        nn.Perplexity().eval()
    with pytest.raises(ValueError, match="For 'Dice.update', predicted value"):
        nn.Dice().update(np.ones((2, 3)), np.ones((3, 2)))
    with pytest.raises(RuntimeError, match="Please call the 'update' method"):
        nn.CosineSimilarity().eval()
    with pytest.raises(ValueError, match="For 'CosineSimilarity', the 'reduction' must be in"):
        nn.CosineSimilarity(reduction="max")


@pytest.mark.both_modes
def test_cell_dict_registers_children_and_parameter_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.CellDict([("a", nn.Dense(2, 3, weight_init="ones", bias_init="zeros")),
                                  ("b", nn.Dense(3, 1, weight_init="ones", bias_init="ones"))])

        def construct(self, x):
            return self.d["b"](self.d["a"](x))

    net = Net()
    # recorded from MindSpore 2.10: parameters_and_names() and get_parameters() names
    assert [n for n, _ in net.parameters_and_names()] == ["d.a.weight", "d.a.bias", "d.b.weight", "d.b.bias"]
    assert [p.name for p in net.get_parameters()] == ["d.a.weight", "d.a.bias", "d.b.weight", "d.b.bias"]
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), 3 * x.sum(1, keepdims=True) + 1)
    d = nn.CellDict({"conv": nn.Conv2d(1, 2, 3), "relu": nn.ReLU()})
    assert list(d.keys()) == ["conv", "relu"] and len(d) == 2 and "relu" in d
    assert [n for n, _ in d.parameters_and_names()] == ["conv.weight"]
    relu = d.pop("relu")
    assert isinstance(relu, nn.ReLU) and list(d) == ["conv"]
    d.update({"act": nn.Tanh()})
    assert [k for k, _ in d.items()] == ["conv", "act"]
    d.clear()
    assert len(d) == 0
    with pytest.raises(TypeError, match="For 'CellDict', the type of key should be string"):
        d[1] = nn.ReLU()
    with pytest.raises(KeyError, match="key can not contain"):
        d["a.b"] = nn.ReLU()
    with pytest.raises(TypeError, match="the type of cell can not be CellDict, CellList or SequentialCell"):
        d["x"] = nn.CellList([nn.ReLU()])
    with pytest.raises(TypeError, match="For 'CellDict', cell can not be None"):
        d["x"] = None
    with pytest.raises(ValueError, match="length should be 2"):
        d.update([("a", nn.ReLU(), 3)])
    with pytest.raises(TypeError, match="For 'CellDict', it has no 'construct'"):
        d(Tensor(x))


def test_roc_multiclass_is_one_binary_curve_per_class():
    rng = np.random.default_rng(9)
    scores, labels = rng.uniform(0, 1, (7, 3)), np.array([0, 1, 2, 0, 1, 2, 2])
    metric = nn.ROC(class_num=3)
    metric.update(Tensor(scores), Tensor(labels))
    fpr, tpr, thresholds = metric.eval()
    for c in range(3):
        binary = nn.ROC(pos_label=c)
        binary.update(scores[:, c], labels)
        for got, want in zip((fpr[c], tpr[c], thresholds[c]), binary.eval()):
            np.testing.assert_allclose(got, want)
        # oracle: at each distinct threshold t (descending), rates of score >= t
        for f, t_rate, th in zip(fpr[c][1:], tpr[c][1:], thresholds[c][1:]):
            chosen = scores[:, c] >= th
            assert f == pytest.approx((chosen & (labels != c)).sum() / (labels != c).sum())
            assert t_rate == pytest.approx((chosen & (labels == c)).sum() / (labels == c).sum())
    with pytest.raises(ValueError, match="For 'ROC', the 'class_num' must equal the number of classes"):
        nn.ROC(class_num=2).update(Tensor(scores), Tensor(labels))
    with pytest.raises(RuntimeError, match="Please call the 'update' method"):
        nn.ROC().eval()


def test_max_unpool_gradient_gathers_at_indices():
    x, idx = DATA["up2"], DATA["up2i"]
    weights = np.random.default_rng(11).standard_normal((2, 3, 6, 4)).astype(np.float32)
    net = nn.MaxUnpool2d(2)
    grad = ms.grad(lambda a: (net(a, Tensor(idx)) * Tensor(weights)).sum())(Tensor(x)).asnumpy()
    want = np.take_along_axis(weights.reshape(2, 3, -1), idx.reshape(2, 3, -1), 2).reshape(x.shape)
    np.testing.assert_allclose(grad, want, rtol=1e-6)
