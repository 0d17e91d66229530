"""Every primitive with an ONNX form: a small function of it exported, run in onnxruntime, and compared with
our own forward. One table; each row is a function and its inputs."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from _nets import leaves, max_diff, run_onnx  # noqa: E402

RNG = np.random.default_rng(7)


def f32(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape).astype(np.float32)


def i32(*shape, high=5):
    return RNG.integers(0, high, shape).astype(np.int32)


X = f32(2, 3, 6, 6)
V = f32(3, 4)
POS = f32(3, 4, low=0.2, high=3.0)

_LN = nn.LayerNorm((6, 6), begin_norm_axis=2, begin_params_axis=2)
_LN_SPLIT = nn.LayerNorm((6,), begin_norm_axis=2, begin_params_axis=3)
_BN1D = nn.BatchNorm1d(4)
_PRELU = nn.PReLU(3, 0.1)
for _cell in (_LN, _LN_SPLIT, _BN1D, _PRELU):
    _cell.set_train(False)
_BN1D.moving_mean.set_data(ms.Tensor(f32(4)))
_BN1D.moving_variance.set_data(ms.Tensor(f32(4, low=0.5, high=1.5)))
_LN_SPLIT.gamma.set_data(ms.Tensor(f32(6)))
_LN_PRIM, _LN_GAMMA, _LN_BETA = ops.LayerNorm(2, 2, 1e-5), ms.Tensor(f32(6, 6)), ms.Tensor(f32(6, 6))


def _ln_mean(x):     # ONNX LayerNormalization's two outputs
    y, mean, _ = _LN_PRIM(x, _LN_GAMMA, _LN_BETA)
    return y, mean


def _ln_variance(x):     # the variance read: the formula
    y, _, variance = _LN_PRIM(x, _LN_GAMMA, _LN_BETA)
    return y, variance

CASES = {
    # activations
    "relu": (ops.relu, [V]),
    "sigmoid_tanh": (lambda x: ops.sigmoid(x) + ops.tanh(x), [V]),
    "gelu_tanh_primitive": (lambda x: ops.gelu(x, approximate="tanh"), [V]),
    "gelu_erf": (lambda x: ops.gelu(x, approximate="none"), [V]),
    "fast_gelu_silu": (lambda x: ops.fast_gelu(x) + ops.silu(x), [V]),
    "softmax_negative_axis": (lambda x: ops.softmax(x, -2), [X]),
    "log_softmax": (lambda x: ops.log_softmax(x, 1), [V]),
    "elu_celu_selu": (lambda x: ops.elu(x, 0.7) + ops.celu(x, 1.3) + ops.selu(x), [V]),
    "hard_activations": (lambda x: ops.hardswish(x) + ops.hardsigmoid(x) + ops.relu6(x * 4), [V]),
    "softplus_softsign_mish": (lambda x: ops.softplus(x) + ops.softsign(x) + ops.mish(x), [V]),
    "shrinks": (lambda x: ops.hardshrink(x, 0.6) + ops.softshrink(x, 0.4), [V]),
    "leaky_relu": (lambda x: ops.leaky_relu(x, 0.1), [V]),
    "prelu_channels": (_PRELU, [X]),
    # elementwise math
    "exp_log_sqrt_rsqrt": (lambda x: ops.exp(x) + ops.log(x) + ops.sqrt(x) + ops.rsqrt(x), [POS]),
    "pow_square": (lambda x, y: ops.pow(x, 2.0) + ops.pow(x, y) + ops.square(y), [POS, V]),
    "arithmetic": (lambda x, y: (x + y) * 3 - x / y + ops.maximum(x, y) - ops.minimum(x, 1.0), [V, POS]),
    "neg_abs_sign_reciprocal": (lambda x: -ops.abs(x) + ops.sign(x) + ops.reciprocal(x), [V]),
    "erf_erfc_log1p_expm1": (lambda x: ops.erf(x) + ops.erfc(x) + ops.log1p(x) + ops.expm1(x), [POS]),
    "rounding": (lambda x: ops.floor(x) + ops.ceil(x) * 2 + ops.round(x) * 3 + ops.trunc(x) * 5, [V * 3]),
    "trigonometry": (lambda x: ops.sin(x) + ops.cos(x) + ops.atan(x) + ops.sinh(x) + ops.cosh(x), [V]),
    "floor_div_mod_float": (lambda x, y: ops.floor_divide(x, y) + ops.remainder(x, y) + ops.fmod(x, y),
                            [V * 3, POS]),
    "floor_div_mod_int": (lambda x, y: ops.floor_divide(x, y) * 100 + ops.remainder(x, y),
                          [np.array([[-7, 7, -8], [5, -1, 0]], np.int32),
                           np.array([[2, -3, 3], [-2, 4, 7]], np.int32)]),
    "int_to_float_division": (lambda x, y: x / y, [i32(3, 4) - 2, i32(3, 4) + 1]),
    "cast": (lambda x: ops.cast(x, ms.int32) + 1, [V * 4]),
    "addn_lerp_addcmul": (lambda x, y: ops.addn([x, y, x]) + ops.lerp(x, y, 0.3), [V, POS]),
    # comparisons, logic, selection
    "comparisons": (lambda x, y: ops.cast((x == y) | (x > y), ms.float32) + ops.cast(x >= 0.5, ms.float32) * 2
                    + ops.cast((x < y) ^ (x <= 1.0), ms.float32) * 4 + ops.cast(x != y, ms.float32) * 8,
                    [np.round(V), np.round(POS)]),
    "logical": (lambda a, b: ops.logical_and(a, b) | ops.logical_not(a) ^ ops.logical_or(a, b),
                [V > 0, POS > 1]),
    "where_masked_fill": (lambda x, y: ops.where(x > 0, x, y) + ops.masked_fill(x, x < 0.5, 2.0), [V, POS]),
    "isfinite": (lambda x: ops.isfinite(ops.log(x)), [V]),
    # reductions
    "reduce_sum_mean": (lambda x: (x.sum((1, 2)), x.mean(-1, keep_dims=True), x.sum()), [X]),
    "reduce_max_min_prod": (lambda x: (x.max(), x.min(1), x.prod(-1)), [X]),
    "reduce_all_any": (lambda x: (ops.all(x > 0, 1), ops.any(x > 1.5)), [V]),
    "argmax_argmin": (lambda x: (ops.argmax(x, 1), ops.argmin(x, -1)), [X]),
    "max_with_index": (lambda x: ops.max(x, 1), [X]),
    "topk": (lambda x: ops.topk(x, 3), [X]),
    "cumsum": (lambda x: ops.cumsum(x, 1), [V]),
    # matrix products
    "matmul_transposes": (lambda a, b: ops.MatMul(transpose_a=True)(a, b) + ops.MatMul(transpose_b=True)(b.T, a.T).T,
                          [f32(4, 3), f32(4, 5)]),
    "batch_matmul": (lambda a, b: ops.BatchMatMul(transpose_b=True)(a, b), [f32(2, 3, 4), f32(2, 5, 4)]),
    "matmul_nd_bias": (lambda a, w, b: ops.matmul(a, w) + b, [f32(2, 3, 4), f32(4, 5), f32(5)]),
    "einsum": (lambda a, b: ops.einsum("bij,bjk->bik", a, b), [f32(2, 3, 4), f32(2, 4, 5)]),
    "l2_normalize": (lambda x: ops.L2Normalize(axis=1)(x), [V]),
    # shapes
    "reshape_transpose": (lambda x: ops.transpose(x.reshape(6, -1), (1, 0)), [X]),
    "expand_squeeze_flatten": (lambda x: (ops.expand_dims(x, -1), ops.squeeze(x[:, :1]), ops.flatten(x)), [X]),
    "concat_stack": (lambda x, y: (ops.concat((x, y), -1), ops.stack((x, y), 1)), [V, POS]),
    "split_unstack": (lambda x: ops.split(x, (1, 2), 1) + ops.split(x, 3, -1) + ops.unstack(x, 0), [X]),
    "tile_broadcast": (lambda x: (ops.tile(x, (2, 1, 3)), ops.broadcast_to(x[:1], (5, 4))), [V]),
    "like_and_fill": (lambda x: ops.ones_like(x) * 2 + ops.zeros_like(x) + x, [V]),
    "gather_embedding": (lambda t, i: ops.gather(t, i, 0), [f32(10, 4), i32(2, 3, high=10)]),
    "gather_d_nd": (lambda x, i: (ops.gather_d(x, 1, i), ops.gather_nd(x, i[:, :2])), [V, i32(3, 4, high=3)]),
    "strided_slices": (lambda x: (x[:, -1, :], x[..., None, 1:3, ::2], x[::-1], x[:, ::-2, -4:-1], x[-1],
                                  x[1:, 1, 2:5:2]), [X]),
    "slice_flip": (lambda x: (ops.slice(x, (0, 1, 0, 2), (2, -1, 3, 4)), ops.flip(x, (1, 3))), [X]),
    "pads": (lambda x: (ops.pad(x, (1, 2, 0, 1)), ops.pad(x, (1, 1, 2, 0), mode="reflect"),
                        ops.pad(x, (2, 1), mode="replicate")), [X]),
    "one_hot": (lambda i: ops.one_hot(i, 5, ms.Tensor(2.0), ms.Tensor(-1.0)), [i32(2, 3)]),
    # nn layers as primitives
    "conv_same_group_dilation": (lambda x, w, b: ops.bias_add(ops.conv2d(x, w, None, 2, "same", 0, 2, 3), b),
                                 [X, f32(6, 1, 3, 3), f32(6)]),
    "conv_pad_asymmetric": (lambda x, w: ops.conv2d(x, w, None, 1, "pad", (1, 2, 0, 1)), [X, f32(4, 3, 2, 3)]),
    "conv_valid_stride": (lambda x, w: ops.conv2d(x, w, None, (2, 1), "valid"), [X, f32(4, 3, 3, 3)]),
    "bias_add_nd": (lambda x, b: ops.bias_add(x, b), [X, f32(3)]),
    "max_pools": (lambda x: (ops.MaxPool(3, 2, "same")(x), ops.MaxPool(2, 2, "valid")(x),
                             ops.max_pool2d(x, 3, 2, 1), ops.max_pool2d(x, 3, 2, 1, ceil_mode=True)), [X]),
    "avg_pools": (lambda x: (ops.AvgPool(3, 2, "same")(x), ops.AvgPool(2, 2, "valid")(x),
                             ops.avg_pool2d(x, 3, 2, 1), ops.avg_pool2d(x, 3, 2, 1, count_include_pad=False)), [X]),
    "adaptive_avg_pool": (lambda x: (ops.adaptive_avg_pool2d(x, (1, 1)), ops.adaptive_avg_pool2d(x, (3, 2))), [X]),
    "layer_norm": (_LN, [X]),
    "layer_norm_params_on_fewer_axes": (_LN_SPLIT, [X]),
    "layer_norm_mean": (_ln_mean, [X]),
    "layer_norm_variance": (_ln_variance, [X]),
    "layer_norm_all_outputs": (lambda x: _LN_PRIM(x, _LN_GAMMA, _LN_BETA), [X]),
    "batch_norm_1d": (_BN1D, [f32(5, 4)]),
    "dropout_in_inference": (lambda x: ops.dropout(x, 0.5, training=False) * 2, [V]),
    "conv_transpose_same": (nn.Conv2dTranspose(3, 4, 3, stride=2, pad_mode="same", has_bias=True), [X]),
    "conv_transpose_pad_group": (nn.Conv2dTranspose(3, 6, 4, stride=2, pad_mode="pad", padding=1, group=3), [X]),
    "conv_transpose_valid_dilation": (nn.Conv2dTranspose(3, 2, 3, stride=3, pad_mode="valid", dilation=2), [X]),
    "resize_nearest": (lambda x: (ops.ResizeNearestNeighbor((9, 4))(x), ops.ResizeNearestNeighbor((11, 13), True)(x)),
                       [X]),
    "resize_bilinear": (lambda x: (ops.ResizeBilinearV2()(x, (9, 4)), ops.ResizeBilinearV2(True)(x, (11, 13)),
                                   ops.ResizeBilinearV2(False, True)(x, (4, 10))), [X]),
    "interpolate": (lambda x: (ops.interpolate(x, size=(5, 7), mode="bilinear"),
                               ops.interpolate(x, scale_factor=2.0, mode="nearest")), [X]),
    "norms": (lambda x: (ops.norm(x, dim=1), ops.LpNorm(axis=(0, 1), p=1)(x), ops.LpNorm(axis=1, p=3)(x)), [V]),
    "sort": (lambda x: (ops.sort(x, 1), ops.sort(x, 0, descending=True)), [V]),
    "tril_triu": (lambda x: (ops.tril(x), ops.triu(x, 1), ops.tril(x, -1)), [V]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_primitive_matches_onnxruntime(case, tmp_path):
    import onnx
    fn, arrays = CASES[case]
    path = str(tmp_path / "op.onnx")
    ms.export(fn, *[ms.Tensor(a) for a in arrays], file_name=path, file_format="ONNX")
    onnx.checker.check_model(onnx.load(path), full_check=True)
    want = leaves(fn(*[ms.Tensor(a) for a in arrays]))
    got = run_onnx(path, *arrays)
    # 1e-5 relative to the outputs' magnitude: the CPU's float32 Exp is 2.10's nnacl polynomial (within 2.2e-6 of
    # onnxruntime's exp), so exp(3) + ... near 20 differs by 1.6e-5 absolute
    scale = max([1.0] + [float(np.abs(w).max()) for w in want if w.size and w.dtype.kind == "f"])
    assert max_diff(got, want) <= 1e-5 * scale
