"""Records what real MindSpore 2.10 gives for the ``mindspore.nn`` names added for issue 16, item 3:
``tests/fixtures/api/nn_more_reference.npz`` (values) and ``nn_more_signatures.json`` (constructor parameters).

Run with real MindSpore (CPU): ``/path/to/msref/bin/python tests/api/make_nn_more_fixture.py``.

``cases()`` is shared with ``tests/api/test_nn_more.py``: each case is ``name -> fn(ms, nn, data)`` returning a
Tensor, a number, an ndarray or a (nested) tuple/list of them; ``data`` holds deterministic inputs. The cases that
MindSpore's CPU build cannot run are recorded in ``__failed__`` with the reason; the test checks those against
NumPy oracles. ``GRAPH_MODE_CASES`` are recorded in GRAPH_MODE, the others in PYNATIVE_MODE.
"""
import json
import pathlib
import sys
from types import SimpleNamespace

import numpy as np

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "api" / "nn_more_reference.npz"
SIGNATURES = FIXTURE.with_name("nn_more_signatures.json")
# MindSpore 2.10's MSSSIM fails in PYNATIVE mode on CPU ("For 'ScalarCast' ..."), but runs staged
GRAPH_MODE_CASES = ("MSSSIM", "MSSSIM_params")
NAMES = ["CTCLoss", "Conv3dTranspose", "AdaptiveMaxPool3d", "FractionalMaxPool2d", "FractionalMaxPool3d", "Unfold",
         "LGamma", "DiGamma", "IGamma", "LBeta", "MatDet", "MSSSIM", "SampledSoftmaxLoss", "EmbeddingLookup",
         "MultiFieldEmbeddingLookup", "SparseToDense", "SparseTensorDenseMatmul", "AdamOffload",
         "GradAccumulationCell", "MicroBatchInterleaved", "PipelineCell", "PipelineGradReducer",
         "VirtualDatasetCellTriple"]


def make_data():
    rng = np.random.default_rng(163)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    spd = f(2, 3, 3)
    return {
        "pos": rng.uniform(0.05, 6.0, (3, 4)).astype(np.float32),
        "mixed": np.array([[-2.5, -0.7, 0.3, 1.0], [2.0, 4.5, 9.0, 30.0], [0.01, -3.3, 0.5, 12.0]], np.float32),
        "a": rng.uniform(0.2, 8.0, (3, 4)).astype(np.float32),
        "xg": rng.uniform(0.0, 10.0, (3, 4)).astype(np.float32),
        "lb_y": rng.uniform(0.3, 20.0, (3, 4)).astype(np.float32),
        "spd": (spd @ spd.transpose(0, 2, 1) + 3 * np.eye(3, dtype=np.float32)).astype(np.float32),
        "v3": f(2, 4, 3, 4, 3), "w3": f(4, 3, 3, 2, 3), "b3": f(3), "w3g": f(4, 2, 2, 3, 2),
        "w3k1": f(4, 2, 1, 1, 1),
        "p3": f(2, 3, 5, 6, 7),
        "fx": rng.random((2, 3, 7, 9)).astype(np.float32), "fs": rng.random((2, 3, 2)).astype(np.float32),
        "fx3": rng.random((2, 2, 6, 7, 8)).astype(np.float32), "fs3": rng.random((2, 2, 3)).astype(np.float32),
        "img": f(2, 3, 7, 8),
        "ctc_lp": np.log(rng.dirichlet(np.ones(5), (8, 3))).astype(np.float32),
        "ctc_t": np.array([[1, 2, 2, 3], [4, 1, 0, 0], [3, 3, 3, 0]], np.int32),
        "ms_a": rng.random((2, 3, 48, 44)).astype(np.float32),
        "ms_b": rng.random((2, 3, 48, 44)).astype(np.float32),
        "ssl_w": f(9, 4), "ssl_b": f(9), "ssl_x": f(3, 4),
        "ssl_l1": np.array([[1], [5], [7]], np.int32), "ssl_l2": np.array([[1, 2], [5, 0], [7, 8]], np.int64),
        "ssl_s": np.array([0, 3, 4, 6], np.int32), "ssl_te": rng.uniform(0.2, 0.9, (3, 1)).astype(np.float32),
        "ssl_te2": rng.uniform(0.2, 0.9, (3, 2)).astype(np.float32),
        "ssl_se": rng.uniform(0.2, 0.9, (4,)).astype(np.float32),
        "tab": f(10, 3),
        "mf_idx": np.array([[1, 2, 3, 0], [4, 9, 9, 2]], np.int32),
        "mf_val": np.array([[1., 1., 0.5, 0.], [2., -1., 0.5, 1.]], np.float32),
        "mf_fid": np.array([[0, 1, 1, 2], [0, 0, 2, 2]], np.int32),
        "sp_idx": np.array([[0, 1], [1, 2], [2, 0], [1, 2]], np.int64), "sp_val": f(4),
        "dense43": f(4, 3), "dense34": f(3, 4), "dense23": f(2, 3),
        "w_opt1": f(3, 2), "w_opt2": f(4), "w_mat": f(3, 5),
        "mb_x": f(6, 3), "mb_y": f(6, 2), "mb_w": f(2, 3),
    }


def _triple(ms, nn, d):
    class Net(nn.Cell):
        def construct(self, a, b, c):
            return a * b - c

    t = ms.Tensor
    return nn.VirtualDatasetCellTriple(Net())(t(d["pos"]), t(d["mixed"]), t(d["a"]))


def _micro(ms, nn, d, wrapper, count):
    dense = nn.Dense(3, 2, weight_init=ms.Tensor(d["mb_w"]), bias_init="zeros")
    net = wrapper(nn.WithLossCell(dense, nn.MSELoss()), count)
    return net(ms.Tensor(d["mb_x"]), ms.Tensor(d["mb_y"]))


def _reducer(ms, nn, d):
    dense = nn.Dense(3, 2, weight_init=ms.Tensor(d["mb_w"]), bias_init="zeros")
    reducer = nn.PipelineGradReducer(ms.ParameterTuple(dense.trainable_params()), scale_sense=2.0)
    return reducer((ms.Tensor(d["mb_w"]), ms.Tensor(d["mb_y"][0])))


def _optim_run(ms, cls, d, steps=4, **kwargs):
    """``steps`` updates of a matrix, a vector and another matrix Parameter on a cubic objective; the final
    Parameters and the optimizer's state."""
    ws = [ms.Parameter(ms.Tensor(d[k]), name=n) for k, n in (("w_opt1", "w1"), ("w_opt2", "w2"), ("w_mat", "w3"))]
    opt = cls(ws, **kwargs)
    for _ in range(steps):
        grads = tuple(ms.Tensor(((w.asnumpy() - 0.3) ** 2 + 2 * w.asnumpy()).astype(np.float32)) for w in ws)
        opt(grads)
    return [p.asnumpy() for p in opt.get_parameters() if p.name != "learning_rate"]


def _coo(ms, d, shape):
    indices, values = ms.Tensor(d["sp_idx"][:3]), ms.Tensor(d["sp_val"][:3])
    if hasattr(ms, "COOTensor"):
        return ms.COOTensor(indices, values, shape)
    return SimpleNamespace(indices=indices, values=values, shape=shape)


def _ctc(ms, nn, d, lengths=(8, 7, 6), targets=(4, 2, 3), **kwargs):
    t = ms.Tensor
    return nn.CTCLoss(**kwargs)(t(d["ctc_lp"]), t(d["ctc_t"]), t(np.array(lengths, np.int32)),
                                t(np.array(targets, np.int32)))


def _ssl(ms, nn, d, labels, true_expected, **kwargs):
    t = ms.Tensor
    sampled = (t(d["ssl_s"]), t(d[true_expected]), t(d["ssl_se"]))
    num_true = d[labels].shape[1]
    loss = nn.SampledSoftmaxLoss(4, 9, num_true=num_true, sampled_values=sampled, **kwargs)
    return loss(t(d["ssl_w"]), t(d["ssl_b"]), t(d[labels]), t(d["ssl_x"]))


def cases():
    T = lambda ms, a: ms.Tensor(a)  # noqa: E731
    return {
        "LGamma": lambda ms, nn, d: nn.LGamma()(T(ms, d["mixed"])),
        "LGamma_pos": lambda ms, nn, d: nn.LGamma()(T(ms, d["pos"])),
        "DiGamma": lambda ms, nn, d: nn.DiGamma()(T(ms, d["mixed"])),
        "IGamma": lambda ms, nn, d: nn.IGamma()(T(ms, d["a"]), T(ms, d["xg"])),
        "IGamma_broadcast": lambda ms, nn, d: nn.IGamma()(T(ms, d["a"][:1]), T(ms, d["xg"])),
        "LBeta": lambda ms, nn, d: nn.LBeta()(T(ms, d["a"]), T(ms, d["lb_y"])),
        "MatDet": lambda ms, nn, d: nn.MatDet()(T(ms, d["spd"])),
        "Conv3dTranspose_same_bias": lambda ms, nn, d: nn.Conv3dTranspose(
            4, 3, (3, 2, 3), stride=2, weight_init=T(ms, d["w3"]), has_bias=True, bias_init=T(ms, d["b3"]))(
            T(ms, d["v3"])),
        "Conv3dTranspose_pad_outpad": lambda ms, nn, d: nn.Conv3dTranspose(
            4, 3, (3, 2, 3), stride=(2, 1, 2), pad_mode="pad", padding=(1, 0, 0, 1, 1, 1), output_padding=(1, 0, 1),
            weight_init=T(ms, d["w3"]))(T(ms, d["v3"])),
        "Conv3dTranspose_valid_group_dil": lambda ms, nn, d: nn.Conv3dTranspose(
            4, 4, (2, 3, 2), stride=1, pad_mode="valid", dilation=(1, 2, 2), group=2, weight_init=T(ms, d["w3g"]))(
            T(ms, d["v3"])),
        "Conv3dTranspose_stride_gt_kernel": lambda ms, nn, d: nn.Conv3dTranspose(
            4, 2, 1, stride=3, pad_mode="valid", weight_init=T(ms, d["w3k1"]))(T(ms, d["v3"])),
        "AdaptiveMaxPool3d": lambda ms, nn, d: nn.AdaptiveMaxPool3d((2, 4, 3), return_indices=True)(T(ms, d["p3"])),
        "AdaptiveMaxPool3d_int": lambda ms, nn, d: nn.AdaptiveMaxPool3d(3)(T(ms, d["p3"])),
        "AdaptiveMaxPool3d_4d": lambda ms, nn, d: nn.AdaptiveMaxPool3d((5, 2, 2), True)(T(ms, d["p3"][0])),
        "FractionalMaxPool2d": lambda ms, nn, d: nn.FractionalMaxPool2d(
            (2, 3), output_size=(4, 3), return_indices=True, _random_samples=T(ms, d["fs"]))(T(ms, d["fx"])),
        "FractionalMaxPool2d_ratio": lambda ms, nn, d: nn.FractionalMaxPool2d(
            2, output_ratio=(0.5, 0.6), return_indices=True, _random_samples=T(ms, d["fs"]))(T(ms, d["fx"])),
        "FractionalMaxPool3d": lambda ms, nn, d: nn.FractionalMaxPool3d(
            (2, 2, 3), output_size=(3, 4, 3), return_indices=True, _random_samples=T(ms, d["fs3"]))(T(ms, d["fx3"])),
        "FractionalMaxPool3d_ratio": lambda ms, nn, d: nn.FractionalMaxPool3d(
            2, output_ratio=0.5, _random_samples=T(ms, d["fs3"]))(T(ms, d["fx3"])),
        "Unfold_valid": lambda ms, nn, d: nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1])(T(ms, d["img"])),
        "Unfold_same": lambda ms, nn, d: nn.Unfold([1, 3, 2, 1], [1, 2, 3, 1], [1, 1, 1, 1], "same")(
            T(ms, d["img"])),
        "CTCLoss_mean": lambda ms, nn, d: _ctc(ms, nn, d),
        "CTCLoss_sum_blank4": lambda ms, nn, d: _ctc(ms, nn, d, blank=4, reduction="sum", targets=(3, 2, 3)),
        "CTCLoss_none_zero_inf": lambda ms, nn, d: _ctc(ms, nn, d, lengths=(8, 2, 6), reduction="none",
                                                       zero_infinity=True),
        "CTCLoss_2d": lambda ms, nn, d: nn.CTCLoss(reduction="none")(
            T(ms, d["ctc_lp"][:, 0]), T(ms, d["ctc_t"][0]), T(ms, np.array([8], np.int32)),
            T(ms, np.array([4], np.int32))),
        "MSSSIM": lambda ms, nn, d: nn.MSSSIM(power_factors=(0.2, 0.3, 0.5), filter_size=7)(
            T(ms, d["ms_a"]), T(ms, d["ms_b"])),
        "MSSSIM_params": lambda ms, nn, d: nn.MSSSIM(max_val=2.0, power_factors=(0.4, 0.6), filter_size=5,
                                                     filter_sigma=1.0, k1=0.02, k2=0.05)(
            T(ms, d["ms_a"]), T(ms, d["ms_a"] * 0.5 + d["ms_b"] * 0.5)),
        "SampledSoftmaxLoss": lambda ms, nn, d: _ssl(ms, nn, d, "ssl_l1", "ssl_te"),
        "SampledSoftmaxLoss_num_true2": lambda ms, nn, d: _ssl(ms, nn, d, "ssl_l2", "ssl_te2"),
        "EmbeddingLookup": lambda ms, nn, d: nn.EmbeddingLookup(10, 3, param_init=T(ms, d["tab"]))(
            T(ms, np.array([[1, 12], [3, -1], [9, 0]], np.int32))),
        "MultiFieldEmbeddingLookup_SUM": lambda ms, nn, d: nn.MultiFieldEmbeddingLookup(
            10, 3, 3, param_init=T(ms, d["tab"]))(T(ms, d["mf_idx"]), T(ms, d["mf_val"]), T(ms, d["mf_fid"])),
        "MultiFieldEmbeddingLookup_MEAN": lambda ms, nn, d: nn.MultiFieldEmbeddingLookup(
            10, 3, 3, param_init=T(ms, d["tab"]), operator="MEAN")(
            T(ms, d["mf_idx"]), T(ms, d["mf_val"]), T(ms, d["mf_fid"])),
        "MultiFieldEmbeddingLookup_MAX": lambda ms, nn, d: nn.MultiFieldEmbeddingLookup(
            10, 3, 3, param_init=T(ms, d["tab"]), operator="MAX")(
            T(ms, d["mf_idx"]), T(ms, d["mf_val"]), T(ms, d["mf_fid"])),
        "SparseToDense": lambda ms, nn, d: nn.SparseToDense()(_coo(ms, d, (3, 4))),
        "SparseTensorDenseMatmul": lambda ms, nn, d: nn.SparseTensorDenseMatmul()(
            T(ms, d["sp_idx"]), T(ms, d["sp_val"]), (3, 4), T(ms, d["dense43"])),
        "SparseTensorDenseMatmul_adj_st": lambda ms, nn, d: nn.SparseTensorDenseMatmul(adjoint_st=True)(
            T(ms, d["sp_idx"]), T(ms, d["sp_val"]), (3, 4), T(ms, d["dense34"])),
        "SparseTensorDenseMatmul_adj_both": lambda ms, nn, d: nn.SparseTensorDenseMatmul(True, True)(
            T(ms, d["sp_idx"]), T(ms, d["sp_val"]), (3, 4), T(ms, d["dense23"])),
        "AdamOffload": lambda ms, nn, d: _optim_run(ms, nn.AdamOffload, d, learning_rate=0.05),
        "AdamOffload_wd_nesterov": lambda ms, nn, d: _optim_run(ms, nn.AdamOffload, d, learning_rate=0.05,
                                                                weight_decay=0.1, use_nesterov=True, loss_scale=2.0),
        "AdaFactor": lambda ms, nn, d: _optim_run(ms, nn.AdaFactor, d),
        "AdaFactor_lr_no_beta1_wd": lambda ms, nn, d: _optim_run(
            ms, nn.AdaFactor, d, learning_rate=0.05, relative_step=False, beta1=0.0, weight_decay=0.1,
            scale_parameter=False, clip_threshold=0.5),
        "AdaFactor_warmup": lambda ms, nn, d: _optim_run(ms, nn.AdaFactor, d, steps=3, warmup_init=True,
                                                         decay_rate=0.5, eps=(1e-20, 1e-2)),
        "LARS_momentum": lambda ms, nn, d: _lars(ms, nn, d),
        "LARS_clip": lambda ms, nn, d: _lars(ms, nn, d, use_clip=True, epsilon=1e-3, coefficient=0.02),
        "GradAccumulationCell": lambda ms, nn, d: _micro(ms, nn, d, nn.GradAccumulationCell, 3),
        "PipelineCell": lambda ms, nn, d: _micro(ms, nn, d, nn.PipelineCell, 2),
        "MicroBatchInterleaved": lambda ms, nn, d: _micro(ms, nn, d, nn.MicroBatchInterleaved, 2),
        "PipelineGradReducer": lambda ms, nn, d: _reducer(ms, nn, d),
        "VirtualDatasetCellTriple": lambda ms, nn, d: _triple(ms, nn, d),
    }


def _lars(ms, nn, d, **kwargs):
    """LARS around Momentum (weight decay 0.1, loss scale 2) on a weight, a bias and another weight."""
    ws = [ms.Parameter(ms.Tensor(d[k]), name=n) for k, n in (("w_opt1", "w1"), ("w_opt2", "fc.bias"),
                                                              ("w_mat", "w3"))]
    opt = nn.LARS(nn.Momentum(ws, 0.1, 0.9, weight_decay=0.1, loss_scale=2.0), **kwargs)
    for _ in range(3):
        opt(tuple(ms.Tensor(((w.asnumpy() - 0.3) ** 2 + 2 * w.asnumpy()).astype(np.float32)) for w in ws))
    return [w.asnumpy() for w in ws]


def flatten(value, ms):
    """A result as a list of arrays (Tensors converted, tuples flattened)."""
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
        if isinstance(default, type(ms.float32)):
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
        ms.set_context(mode=ms.GRAPH_MODE if name in GRAPH_MODE_CASES else ms.PYNATIVE_MODE)
        try:
            arrays = flatten(fn(ms, nn, data), ms)
        except Exception as exc:  # noqa: BLE001 (a kernel real MindSpore lacks on CPU: the test uses an oracle)
            lines = [ln for ln in str(exc).splitlines() if ln.strip() and not set(ln.strip()) <= set("-")]
            unsupported = [ln for ln in lines if "Unsupported op" in ln]
            failed[name] = f"{type(exc).__name__}: {(unsupported or lines or [''])[0].strip()[:160]}"
            continue
        for i, arr in enumerate(arrays):
            out[f"{name}/{i}"] = arr
    out["__failed__"] = np.array(json.dumps(failed, sort_keys=True))
    np.savez(FIXTURE, **out)
    print("failed on CPU:", json.dumps(failed, indent=1), file=sys.stderr)
    sigs = {n: signature_of(getattr(nn, n)) for n in NAMES}
    SIGNATURES.write_text(json.dumps(sigs, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} arrays to {FIXTURE} and {len(sigs)} signatures to {SIGNATURES}", file=sys.stderr)


if __name__ == "__main__":
    main()
