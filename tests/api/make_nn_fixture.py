"""Records what real MindSpore 2.10 gives for the ``mindspore.nn`` / ``mindspore.train`` names added for issue 16:
``tests/fixtures/api/nn_reference.npz`` (values) and ``nn_signatures.json`` (constructor / function parameters).

Run with real MindSpore (CPU): ``/path/to/msref/bin/python tests/api/make_nn_fixture.py``.

``cases()`` is shared with ``tests/api/test_nn_added.py``: each case is ``name -> fn(ms, nn, data)`` returning a
Tensor, a number, an ndarray or a (nested) tuple/list of them; ``data`` holds deterministic inputs.
"""
import json
import pathlib
import sys

import numpy as np

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "api" / "nn_reference.npz"
SIGNATURES = FIXTURE.with_name("nn_signatures.json")
NAMES = {
    "nn": ["Tril", "Triu", "Roll", "Range", "Moments", "ReduceLogSumExp", "MatInverse", "PixelShuffle",
           "PixelUnshuffle", "ChannelShuffle", "CentralCrop", "ImageGradients", "InstanceNorm1d", "InstanceNorm2d",
           "InstanceNorm3d", "Conv1dTranspose", "Conv2dBnAct", "DenseBnAct", "Linear", "Perplexity", "Dice",
           "CosineSimilarity", "auc", "TripletMarginLoss", "MultiMarginLoss", "MultiLabelSoftMarginLoss",
           "MultilabelMarginLoss", "LPPool1d", "LPPool2d", "BiDense",
           "MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer", "TransformerEncoder",
           "TransformerDecoder", "Transformer", "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "PSNR",
           "TripletMarginWithDistanceLoss", "CellDict", "ROC", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
           "TimeDistributed", "Jvp", "Vjp", "SSIM"],
    "train": ["Perplexity", "Dice", "CosineSimilarity", "auc", "ROC", "BleuScore"],
}


def _pool_indices(rng, batch_shape, out_spatial, k=2):
    """Flat output positions of one element inside each k-wide window (stride k, no padding)."""
    nd = len(out_spatial)
    full = tuple(o * k for o in out_spatial)
    grids = np.meshgrid(*[np.arange(o) for o in out_spatial], indexing="ij")
    idx = np.zeros(batch_shape + tuple(out_spatial), np.int64)
    coords = [g * k + rng.integers(0, k, batch_shape + tuple(out_spatial)) for g in grids]
    for a in range(nd):
        idx = idx * full[a] + coords[a]
    return idx


def make_data():
    rng = np.random.default_rng(16)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    return {
        "m34": f(3, 4), "m44": f(4, 4) + 4 * np.eye(4, dtype=np.float32), "img": f(2, 8, 5, 6), "img3": f(3, 6, 7),
        "x3": f(2, 3, 7), "x5": f(2, 3, 3, 4, 5), "w1t": f(3, 4, 3), "b4": f(4), "wc": f(4, 3, 3, 3),
        "wd": f(4, 3), "xd": f(5, 3), "probs": rng.uniform(0.05, 1, (6, 5)), "labels": rng.integers(0, 5, 6),
        "seg_p": rng.uniform(0, 1, (3, 4)), "seg_y": rng.integers(0, 2, (3, 4)).astype(np.float64),
        "rows": rng.standard_normal((4, 3)), "sc": f(4, 5), "cls": rng.integers(0, 5, 4), "w5": rng.uniform(0.5, 2, 5),
        "ml": rng.integers(0, 2, (4, 5)).astype(np.float32),
        "mlt": np.array([[3, 0, -1, 2, 1], [1, 1, 4, -1, 0], [0, 1, 2, 3, 4], [-1, 2, 3, 0, 0]], np.int32),
        "anc": f(4, 6), "bw": f(4, 3, 5), "q": f(3, 4, 6), "k": f(4, 4, 6), "v": f(4, 4, 6),
        "kpm": np.array([[False] * 4, [False, False, True, True], [False, True, False, False],
                         [True, False, False, False]]),
        "am": np.array([[False, True, False, False], [False, False, False, True], [True, False, False, False]]),
        "fm": rng.standard_normal((3, 4)).astype(np.float32),
        "w_opt1": f(3, 2), "w_opt2": f(4),
        "up1": f(2, 3, 4), "up1i": _pool_indices(rng, (2, 3), (4,)), "up2": f(2, 3, 3, 2),
        "up2i": _pool_indices(rng, (2, 3), (3, 2)), "up3": f(1, 2, 2, 2, 3),
        "up3i": _pool_indices(rng, (1, 2), (2, 2, 3)),
        "u8a": rng.integers(0, 256, (2, 3, 4, 4)).astype(np.uint8),
        "u8b": rng.integers(0, 256, (2, 3, 4, 4)).astype(np.uint8),
        "pos": f(4, 6), "neg": f(4, 6), "ax": np.sort(rng.uniform(0, 1, 7)), "ay": rng.uniform(0, 1, 7),
        "ssim_a": rng.random((2, 3, 16, 14)).astype(np.float32),
        "ssim_b": rng.random((2, 3, 16, 14)).astype(np.float32),
    }


def _metric(cls, *inputs, **kw):
    m = cls(**kw)
    m.clear()
    m.update(*inputs)
    return m.eval()


def _seeded(net, seed):
    """``net`` with every Parameter set, in ``parameters_and_names`` order, to seeded normal values * 0.3."""
    import mindspore as ms
    rng = np.random.default_rng(seed)
    for _, p in net.parameters_and_names():
        p.set_data(ms.Tensor((0.3 * rng.standard_normal(p.shape)).astype(np.float32)))
    return net


def _optim_run(ms, nn, cls, d, steps=5, **kwargs):
    """``steps`` updates of two Parameters on f(w) = sum((w - target)^3 / 3 + w^2) (sign changes included); the
    final Parameters and the optimizer's state, by name."""
    w1 = ms.Parameter(ms.Tensor(d["w_opt1"]), name="w1")
    w2 = ms.Parameter(ms.Tensor(d["w_opt2"]), name="w2")
    opt = cls([w1, w2], **kwargs)
    for _ in range(steps):
        grads = tuple(ms.Tensor(((w.asnumpy() - t) ** 2 + 2 * w.asnumpy()).astype(np.float32))
                      for w, t in ((w1, 0.3), (w2, -0.2)))
        opt(grads)
    return [p.asnumpy() for p in opt.get_parameters() if p.name not in ("learning_rate",)] + [w1, w2]


def _poly2(x, y):
    return x ** 3 * y + y * y


def _poly1(x):
    return x * x * x - 2 * x


_CANDIDATES = [["the", "cat", "sat", "on", "the", "mat"], ["a", "b", "c", "d"],
               ["i", "have", "a", "pen", "on", "my", "desk"]]
_REFERENCES = [[["the", "cat", "is", "on", "the", "mat", "today"]], [["a", "b", "c", "e", "f"], ["a", "b"]],
               [["i", "have", "a", "pen", "in", "my", "desk"], ["there", "is", "a", "pen", "on", "the", "desk"]]]


def _bleu(nn, **kwargs):
    m = nn.BleuScore(**kwargs)
    m.update(_CANDIDATES[:2], _REFERENCES[:2])
    m.update(_CANDIDATES[2:], _REFERENCES[2:])
    return m.eval()


def cases():
    T = lambda ms, a: ms.Tensor(a)  # noqa: E731
    return {
        "Tril_k1": lambda ms, nn, d: nn.Tril()(T(ms, d["m34"]), 1),
        "Triu_km1": lambda ms, nn, d: nn.Triu()(T(ms, d["m34"]), -1),
        "Roll_2axes": lambda ms, nn, d: nn.Roll((1, -2), (0, 1))(T(ms, d["m34"])),
        "Roll_1": lambda ms, nn, d: nn.Roll(2, 1)(T(ms, d["m34"])),
        "Range_int": lambda ms, nn, d: nn.Range(1, 9, 3)(),
        "Range_float": lambda ms, nn, d: nn.Range(0.5, 3.0, 0.75)(),
        "Range_one": lambda ms, nn, d: nn.Range(4)(),
        "Moments_all": lambda ms, nn, d: nn.Moments()(T(ms, d["m34"])),
        "Moments_axis_keep": lambda ms, nn, d: nn.Moments(axis=1, keep_dims=True)(T(ms, d["m34"])),
        "Moments_tuple": lambda ms, nn, d: nn.Moments(axis=(0, 2))(T(ms, d["x3"])),
        "ReduceLogSumExp": lambda ms, nn, d: nn.ReduceLogSumExp(1)(T(ms, d["m34"])),
        "ReduceLogSumExp_keep": lambda ms, nn, d: nn.ReduceLogSumExp((0, 1), True)(T(ms, d["m34"])),
        "MatInverse": lambda ms, nn, d: nn.MatInverse()(T(ms, d["m44"])),
        "PixelShuffle": lambda ms, nn, d: nn.PixelShuffle(2)(T(ms, d["img"])),
        "PixelUnshuffle": lambda ms, nn, d: nn.PixelUnshuffle(2)(T(ms, d["img"][:, :, :4, :6])),
        "ChannelShuffle": lambda ms, nn, d: nn.ChannelShuffle(4)(T(ms, d["img"])),
        "CentralCrop_4d": lambda ms, nn, d: nn.CentralCrop(0.5)(T(ms, d["img"])),
        "CentralCrop_3d": lambda ms, nn, d: nn.CentralCrop(0.7)(T(ms, d["img3"])),
        "ImageGradients": lambda ms, nn, d: nn.ImageGradients()(T(ms, d["img"])),
        "InstanceNorm1d": lambda ms, nn, d: nn.InstanceNorm1d(3, gamma_init=T(ms, d["b4"][:3]),
                                                              beta_init=T(ms, d["b4"][1:]))(T(ms, d["x3"])),
        "InstanceNorm2d": lambda ms, nn, d: nn.InstanceNorm2d(8)(T(ms, d["img"])),
        "InstanceNorm3d": lambda ms, nn, d: nn.InstanceNorm3d(3, eps=0.1)(T(ms, d["x5"])),
        "Conv1dTranspose_same": lambda ms, nn, d: nn.Conv1dTranspose(3, 4, 3, weight_init=T(ms, d["w1t"]),
                                                                     has_bias=True, bias_init=T(ms, d["b4"]))(
            T(ms, d["x3"])),
        "Conv1dTranspose_pad_s2": lambda ms, nn, d: nn.Conv1dTranspose(3, 4, 3, stride=2, pad_mode="pad", padding=1,
                                                                       weight_init=T(ms, d["w1t"]))(T(ms, d["x3"])),
        "Conv1dTranspose_valid_d2": lambda ms, nn, d: nn.Conv1dTranspose(3, 4, 3, stride=2, pad_mode="valid",
                                                                         dilation=2, weight_init=T(ms, d["w1t"]))(
            T(ms, d["x3"])),
        "Conv2dBnAct": lambda ms, nn, d: nn.Conv2dBnAct(3, 4, 3, weight_init=T(ms, d["wc"]), has_bn=True,
                                                        activation="relu")(T(ms, d["img"][:, :3])),
        "Conv2dBnAct_leaky_train": lambda ms, nn, d: nn.Conv2dBnAct(3, 4, 3, weight_init=T(ms, d["wc"]), has_bn=True,
                                                                    activation="leakyrelu", alpha=0.3).set_train()(
            T(ms, d["img"][:, :3])),
        "DenseBnAct": lambda ms, nn, d: nn.DenseBnAct(3, 4, weight_init=T(ms, d["wd"]), bias_init=T(ms, d["b4"]),
                                                      activation="tanh")(T(ms, d["xd"])),
        "DenseBnAct_bn_train": lambda ms, nn, d: nn.DenseBnAct(3, 4, weight_init=T(ms, d["wd"]), has_bn=True,
                                                               activation="sigmoid").set_train()(T(ms, d["xd"])),
        "Linear": lambda ms, nn, d: nn.Linear(3, 4, weight_init=T(ms, d["wd"]), bias_init=T(ms, d["b4"]))(
            T(ms, d["xd"])),
        "TripletMarginLoss": lambda ms, nn, d: nn.TripletMarginLoss()(T(ms, d["anc"]), T(ms, d["pos"]),
                                                                      T(ms, d["neg"])),
        "TripletMarginLoss_p1_swap_none": lambda ms, nn, d: nn.TripletMarginLoss(p=1, swap=True, reduction="none")(
            T(ms, d["anc"]), T(ms, d["pos"]), T(ms, d["neg"]), 2.0),
        "TripletMarginLoss_margin_sum": lambda ms, nn, d: nn.TripletMarginLoss(margin=3.0, reduction="sum")(
            T(ms, d["anc"]), T(ms, d["pos"]), T(ms, d["neg"]), 0.5),
        "MultiMarginLoss": lambda ms, nn, d: nn.MultiMarginLoss()(T(ms, d["sc"]), T(ms, d["cls"])),
        "MultiMarginLoss_p2_w_none": lambda ms, nn, d: nn.MultiMarginLoss(p=2, margin=0.7, reduction="none")(
            T(ms, d["sc"]), T(ms, d["cls"]), T(ms, d["w5"].astype(np.float32))),
        "MultiLabelSoftMarginLoss": lambda ms, nn, d: nn.MultiLabelSoftMarginLoss()(T(ms, d["sc"]), T(ms, d["ml"])),
        "MultiLabelSoftMarginLoss_w_none": lambda ms, nn, d: nn.MultiLabelSoftMarginLoss(
            weight=T(ms, d["w5"].astype(np.float32)), reduction="none")(T(ms, d["sc"]), T(ms, d["ml"])),
        "MultilabelMarginLoss": lambda ms, nn, d: nn.MultilabelMarginLoss()(T(ms, d["sc"]), T(ms, d["mlt"])),
        "MultilabelMarginLoss_none": lambda ms, nn, d: nn.MultilabelMarginLoss("none")(T(ms, d["sc"]),
                                                                                       T(ms, d["mlt"])),
        "LPPool1d": lambda ms, nn, d: nn.LPPool1d(2, 3, 2)(T(ms, d["x3"])),
        "LPPool1d_2d_ceil": lambda ms, nn, d: nn.LPPool1d(3.0, 2, ceil_mode=True)(T(ms, d["x3"][0])),
        "LPPool2d": lambda ms, nn, d: nn.LPPool2d(2, 3)(T(ms, d["img"])),
        "LPPool2d_tuple_p1": lambda ms, nn, d: nn.LPPool2d(1, (2, 3), stride=(1, 2))(T(ms, d["img"])),
        "BiDense": lambda ms, nn, d: nn.BiDense(3, 5, 4, weight_init=T(ms, d["bw"]), bias_init=T(ms, d["b4"]))(
            T(ms, d["xd"][:4]), T(ms, d["sc"])),
        "BiDense_3d_nobias": lambda ms, nn, d: nn.BiDense(3, 5, 4, weight_init=T(ms, d["bw"]), has_bias=False)(
            T(ms, d["xd"][:4].reshape(2, 2, 3)), T(ms, d["sc"].reshape(2, 2, 5))),
        "MHA": lambda ms, nn, d: _seeded(nn.MultiheadAttention(6, 2), 1)(
            T(ms, d["q"]), T(ms, d["k"]), T(ms, d["v"])),
        "MHA_masks": lambda ms, nn, d: _seeded(nn.MultiheadAttention(6, 3), 2)(
            T(ms, d["q"]), T(ms, d["k"]), T(ms, d["v"]), key_padding_mask=T(ms, d["kpm"]),
            attn_mask=T(ms, d["am"])),
        "MHA_float_mask_heads": lambda ms, nn, d: _seeded(nn.MultiheadAttention(6, 2), 3)(
            T(ms, d["q"]), T(ms, d["k"]), T(ms, d["v"]), attn_mask=T(ms, d["fm"]), average_attn_weights=False),
        "MHA_batch_first_self": lambda ms, nn, d: (lambda m, x: m(x, x, x, need_weights=False))(
            _seeded(nn.MultiheadAttention(6, 2, batch_first=True), 4), T(ms, d["k"])),
        "MHA_kdim_vdim": lambda ms, nn, d: _seeded(nn.MultiheadAttention(6, 2, kdim=4, vdim=5), 5)(
            T(ms, d["q"]), T(ms, d["k"][..., :4]), T(ms, d["v"][..., :5])),
        "MHA_bias_kv_zero_attn": lambda ms, nn, d: _seeded(nn.MultiheadAttention(6, 2, add_bias_kv=True,
                                                                                add_zero_attn=True), 6)(
            T(ms, d["q"]), T(ms, d["k"]), T(ms, d["v"]), key_padding_mask=T(ms, d["kpm"])),
        "MHA_unbatched_nobias": lambda ms, nn, d: _seeded(nn.MultiheadAttention(6, 2, has_bias=False), 7)(
            T(ms, d["q"][:, 0]), T(ms, d["k"][:, 0]), T(ms, d["v"][:, 0])),
        "EncoderLayer": lambda ms, nn, d: _seeded(nn.TransformerEncoderLayer(6, 2, 10), 8)(T(ms, d["k"])),
        "EncoderLayer_norm_first_gelu": lambda ms, nn, d: _seeded(
            nn.TransformerEncoderLayer(6, 3, 10, activation="gelu", norm_first=True, batch_first=True), 9)(
            T(ms, d["k"]), src_key_padding_mask=T(ms, d["kpm"][:, :4])),
        "DecoderLayer": lambda ms, nn, d: _seeded(nn.TransformerDecoderLayer(6, 2, 10), 10)(
            T(ms, d["q"]), T(ms, d["k"]), tgt_mask=T(ms, d["fm"][:3, :3])),
        "Encoder_2": lambda ms, nn, d: _seeded(nn.TransformerEncoder(nn.TransformerEncoderLayer(6, 2, 10), 2,
                                                                     nn.LayerNorm((6,))), 11)(T(ms, d["k"])),
        "Transformer": lambda ms, nn, d: _seeded(nn.Transformer(6, 2, 1, 2, 10), 12)(T(ms, d["k"]), T(ms, d["q"])),
        "MatrixDiag": lambda ms, nn, d: nn.MatrixDiag()(T(ms, d["m34"])),
        "MatrixDiagPart_wide": lambda ms, nn, d: nn.MatrixDiagPart()(T(ms, d["x3"][..., :5])),
        "MatrixDiagPart_tall": lambda ms, nn, d: nn.MatrixDiagPart()(T(ms, d["img"][0, :, :5, :3])),
        "MatrixSetDiag_wide": lambda ms, nn, d: nn.MatrixSetDiag()(T(ms, d["x3"]), T(ms, d["m34"][:2, :3])),
        "MatrixSetDiag_tall": lambda ms, nn, d: nn.MatrixSetDiag()(T(ms, d["img"][0, :3, :5, :3]),
                                                                   T(ms, d["m34"][:, :3])),
        "PSNR": lambda ms, nn, d: nn.PSNR()(T(ms, d["img"]), T(ms, d["img"] * 0.9 + 0.05)),
        "PSNR_uint8": lambda ms, nn, d: nn.PSNR(255)(T(ms, d["u8a"]), T(ms, d["u8b"])),
        "TripletMarginWithDistanceLoss": lambda ms, nn, d: nn.TripletMarginWithDistanceLoss()(
            T(ms, d["anc"]), T(ms, d["pos"]), T(ms, d["neg"])),
        "TripletMarginWithDistanceLoss_swap_none": lambda ms, nn, d: nn.TripletMarginWithDistanceLoss(
            swap=True, reduction="none", margin=2.5)(T(ms, d["anc"]), T(ms, d["pos"]), T(ms, d["neg"])),
        "ROC_binary": lambda ms, nn, d: _metric(nn.ROC, T(ms, d["ax"]), T(ms, np.arange(7) % 2)),
        "ROC_pos_label": lambda ms, nn, d: _metric(nn.ROC, T(ms, np.array([3, 1, 4, 2])), T(ms, np.array([0, 1, 2, 3])),
                                                   pos_label=2),
        "ROC_multiclass": lambda ms, nn, d: _metric(nn.ROC, T(ms, d["probs"][:5]), T(ms, np.array([2, 0, 4, 1, 3])),
                                                    class_num=5),
        "AdaMax": lambda ms, nn, d: _optim_run(ms, nn, nn.AdaMax, d, learning_rate=0.05),
        "AdaMax_wd_betas": lambda ms, nn, d: _optim_run(ms, nn, nn.AdaMax, d, learning_rate=0.1, beta1=0.8, beta2=0.9,
                                                        eps=1e-3, weight_decay=0.1, loss_scale=2.0),
        "Rprop": lambda ms, nn, d: _optim_run(ms, nn, nn.Rprop, d, steps=7),
        "Rprop_etas": lambda ms, nn, d: _optim_run(ms, nn, nn.Rprop, d, steps=6, learning_rate=0.3, etas=(0.3, 1.5),
                                                   step_sizes=(0.01, 0.4)),
        "MaxUnpool1d": lambda ms, nn, d: nn.MaxUnpool1d(2)(T(ms, d["up1"]), T(ms, d["up1i"])),
        "MaxUnpool1d_output_size": lambda ms, nn, d: nn.MaxUnpool1d(2)(T(ms, d["up1"]), T(ms, d["up1i"]), (2, 3, 9)),
        "MaxUnpool2d": lambda ms, nn, d: nn.MaxUnpool2d(2)(T(ms, d["up2"]), T(ms, d["up2i"])),
        "MaxUnpool2d_unbatched": lambda ms, nn, d: nn.MaxUnpool2d(2, stride=2)(T(ms, d["up2"][0]), T(ms, d["up2i"][0])),
        "MaxUnpool3d": lambda ms, nn, d: nn.MaxUnpool3d(2)(T(ms, d["up3"]), T(ms, d["up3i"])),
        "TimeDistributed_dense": lambda ms, nn, d: nn.TimeDistributed(
            nn.Dense(3, 4, weight_init=T(ms, d["wd"]), bias_init=T(ms, d["b4"])), time_axis=1)(
            T(ms, d["img3"][:, :, :3])),
        "TimeDistributed_reshape": lambda ms, nn, d: nn.TimeDistributed(
            nn.Dense(3, 4, weight_init=T(ms, d["wd"]), bias_init=T(ms, d["b4"])), time_axis=1, reshape_with_axis=0)(
            T(ms, d["img3"][:, :, :3])),
        "TimeDistributed_conv_time0": lambda ms, nn, d: nn.TimeDistributed(
            nn.Conv2d(3, 4, 3, weight_init=T(ms, d["wc"])), time_axis=0)(T(ms, d["img"][:, :6].reshape(2, 2, 3, 5, 6))),
        "TimeDistributed_reshape_last": lambda ms, nn, d: nn.TimeDistributed(nn.ReLU(), time_axis=0,
                                                                             reshape_with_axis=-1)(T(ms, d["x3"])),
        "ASGD": lambda ms, nn, d: _optim_run(ms, nn, nn.ASGD, d, learning_rate=0.05),
        "ASGD_t0": lambda ms, nn, d: _optim_run(ms, nn, nn.ASGD, d, steps=6, learning_rate=0.05, lambd=0.1, alpha=0.5,
                                                t0=2.0, weight_decay=0.01),
        "ProximalAdagrad": lambda ms, nn, d: _optim_run(ms, nn, nn.ProximalAdagrad, d, learning_rate=0.1),
        "ProximalAdagrad_l1_l2": lambda ms, nn, d: _optim_run(ms, nn, nn.ProximalAdagrad, d, accum=0.5,
                                                              learning_rate=0.2, l1=0.05, l2=0.1, loss_scale=2.0),
        "Jvp_two_inputs": lambda ms, nn, d: nn.Jvp(_poly2)(
            T(ms, d["m34"]), T(ms, d["fm"]), (T(ms, d["m34"] * 0 + 1), T(ms, d["fm"] * 0.5))),
        "Jvp_one_input": lambda ms, nn, d: nn.Jvp(_poly1)(T(ms, d["m34"]), T(ms, d["fm"])),
        "Vjp_two_inputs": lambda ms, nn, d: nn.Vjp(_poly2)(
            T(ms, d["m34"]), T(ms, d["fm"]), T(ms, d["m34"] * 0.5)),
        "Vjp_one_input": lambda ms, nn, d: nn.Vjp(_poly1)(T(ms, d["m34"]), T(ms, d["fm"])),
        "BleuScore": lambda ms, nn, d: _bleu(nn),
        "BleuScore_2gram": lambda ms, nn, d: _bleu(nn, n_gram=2),
        "BleuScore_smooth_3gram": lambda ms, nn, d: _bleu(nn, n_gram=3, smooth=True),
        "BleuScore_no_match": lambda ms, nn, d: _bleu(nn, n_gram=4, smooth=False) * 0 + _metric(
            nn.BleuScore, [["x", "y"]], [[["z", "w"]]]),
        "SSIM": lambda ms, nn, d: nn.SSIM()(T(ms, d["ssim_a"]), T(ms, d["ssim_b"])),
        "SSIM_params": lambda ms, nn, d: nn.SSIM(max_val=2.0, filter_size=5, filter_sigma=1.0, k1=0.02, k2=0.05)(
            T(ms, d["ssim_a"]), T(ms, d["ssim_b"])),
        "Perplexity": lambda ms, nn, d: _metric(nn.Perplexity, T(ms, d["probs"]), T(ms, d["labels"])),
        "Perplexity_ignore": lambda ms, nn, d: _metric(nn.Perplexity, T(ms, d["probs"]), T(ms, d["labels"]),
                                                       ignore_label=int(d["labels"][0])),
        "Dice": lambda ms, nn, d: _metric(nn.Dice, T(ms, d["seg_p"]), T(ms, d["seg_y"])),
        "CosineSimilarity": lambda ms, nn, d: _metric(nn.CosineSimilarity, d["rows"]),
        "CosineSimilarity_dot_mean": lambda ms, nn, d: _metric(nn.CosineSimilarity, d["rows"], similarity="dot",
                                                               reduction="mean", zero_diagonal=False),
        "CosineSimilarity_sum": lambda ms, nn, d: _metric(nn.CosineSimilarity, d["rows"], reduction="sum"),
        "auc": lambda ms, nn, d: nn.auc(d["ax"], d["ay"]),
        "auc_decreasing": lambda ms, nn, d: nn.auc(d["ax"][::-1].copy(), d["ay"]),
        "auc_reorder": lambda ms, nn, d: nn.auc(d["ay"], d["ax"], reorder=True),
    }


def flatten(value, ms):
    """A result as a list of float64/int64 arrays (Tensors converted, tuples flattened)."""
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flatten(v, ms)]
    if isinstance(value, ms.Tensor):
        return [value.asnumpy()]
    return [np.asarray(value)]


def signature_of(obj):
    import inspect
    import mindspore as ms
    sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)

    def text(default):
        if default is inspect.Parameter.empty:
            return None
        if isinstance(default, type(ms.float32)):  # dtypes print differently: compare their names
            return "mindspore." + str(default).lower()
        return repr(default)
    return [[p.name, str(p.kind), text(p.default)] for p in sig.parameters.values() if p.name != "self"]


def main():
    import mindspore as ms
    from mindspore import nn
    ms.set_context(mode=ms.PYNATIVE_MODE)
    data = make_data()
    out, failed = {}, {}
    only = sys.argv[1:]
    for name, fn in cases().items():
        if only and name not in only:
            continue
        try:
            arrays = flatten(fn(ms, nn, data), ms)
        except Exception as exc:  # noqa: BLE001 (a kernel real MindSpore lacks on CPU: the test uses an oracle)
            failed[name] = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
            continue
        for i, arr in enumerate(arrays):
            out[f"{name}/{i}"] = arr
    out["__failed__"] = np.array(json.dumps(failed, sort_keys=True))
    np.savez(FIXTURE, **out)
    print("failed on CPU:", failed, file=sys.stderr)
    sigs = {}
    for mod, names in NAMES.items():
        module = getattr(ms, mod)
        for n in names:
            sigs[f"{mod}.{n}"] = signature_of(getattr(module, n))
    SIGNATURES.write_text(json.dumps(sigs, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} arrays to {FIXTURE} and {len(sigs)} signatures to {SIGNATURES}", file=sys.stderr)


if __name__ == "__main__":
    main()
