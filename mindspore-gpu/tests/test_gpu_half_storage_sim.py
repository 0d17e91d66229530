"""Half-precision data in the hand-written CUDA kernels (``kernels/_common.py`` ``RAW_STORAGE``: float16 and
bfloat16 read as float and rounded back, in integer arithmetic), run on the CuPy stand-in's ``RawModule`` (g++ and
``cuda_emu.h``):

* the conversions, through ``CastMany``'s multi-array kernel (``kernels/array.py``): every float16 and bfloat16 bit
  pattern widened, and float32 narrowed (a million random bit patterns, every 16-bit value's float32 neighbours, the
  midpoints between 16-bit neighbours and theirs, subnormals, overflow, infinities and NaNs with payloads), bit for bit
  NumPy's (float16) and ml_dtypes' (bfloat16) casts;
* ``CastMany``: one launch per 16 contiguous float32 <-> float16/bfloat16 casts of a pair of dtypes, the others
  (float64, integers, strided views, empty arrays, a lone cast of its pair) as ``Cast`` casts them, every result a
  fresh array in its input's place; with fusion off, ``Cast``'s casts alone;
* training batch norm and its gradient, and inference, with float16/bfloat16 data and float32 parameters: the same
  two launches (one) as float32, without casts, and the bits of widening the data, running the float32 kernels and
  casting the result back (moving statistics included); float16 parameters keep the widened path;
* Softmax, LogSoftmax and SoftmaxGrad over the last axis on float16/bfloat16 data: one launch each, the bits of the
  float32 kernels between casts (rows holding an infinity or a NaN included); over another axis, the widened path;
* LayerNorm with float16/bfloat16 data and parameters (amp O3, a network cast whole): one launch, no casts, float32
  statistics, the bits of the float32 kernel between casts;
* (MaxPool and MaxPoolGrad on half-precision data: ``test_gpu_conv_bn_pool_fused_sim.py``.)
* an amp O2 training step (conv, batch norm, ReLU, max pooling, dense; float16 with a loss scale, bfloat16) in both
  modes: the losses and parameters of the casts the half-precision storage replaced, bit for bit, in fewer launches.

NVRTC compiles every binding of these kernels in ``test_gpu_conv_bn_pool_fused_sim.py``; on a GPU,
``test_gpu_plugin.py`` compares them with CuPy's casts around the float32 kernels.
"""
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
from mindspore.common import dtype as mstype  # noqa: E402
from mindspore.ops._defs import nn as nn_defs  # noqa: E402
from mindspore.ops._defs.array import CastMany  # noqa: E402
from mindspore.plugin import TensorSpec  # noqa: E402

pytestmark = cupy_sim.warning_marks()
BF16 = np.dtype(ml_dtypes.bfloat16)
_MS = {np.dtype(np.float16): mstype.float16, BF16: mstype.bfloat16, np.dtype(np.float32): mstype.float32,
       np.dtype(np.float64): mstype.float64, np.dtype(np.int32): mstype.int32}


@pytest.fixture(scope="module")
def sim():
    return cupy_sim.graph_families()


_kinds = cupy_sim.launch_kinds      # (result, the launch kinds ``fn()`` took)


def _cast_many(cp, array, inputs, dtypes):
    """(the results of ``CastMany`` on the stand-in, the launch kinds)."""
    dtypes = tuple(np.dtype(d) for d in dtypes)
    out = tuple(TensorSpec(x.shape, _MS[d]) for x, d in zip(inputs, dtypes))
    return _kinds(lambda: array.KERNELS["CastMany"](CastMany(), tuple(inputs), tuple(_MS[d] for d in dtypes),
                                                    out=out))


def _convert(cp, array, values, dtype):
    """``values`` (a NumPy array) cast to ``dtype`` by ``ms_cast_many``, as the bits of the result; checks it took
    one launch of it (a second, small array beside it: a lone cast goes to ``Cast``)."""
    x = cp.asarray(values)
    (y, _), kinds = _cast_many(cp, array, [x, cp.asarray(values[:3])], [dtype, dtype])
    assert kinds == ["RawKernel ms_cast_many"], kinds
    y = cp.asnumpy(y)
    assert y.dtype == dtype and y.shape == values.shape
    return y


def _bits(a):
    return a.view(np.uint16 if a.itemsize == 2 else np.uint32)


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
def test_every_16_bit_pattern_widens_as_numpy_casts_it(sim, half):
    cp, fam = sim
    values = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(half)
    got = _convert(cp, fam["array"], values, np.float32)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(_bits(got), _bits(values.astype(np.float32)))


def _narrowing_cases(half):
    """float32 bit patterns: random ones, and around every 16-bit value (its float32 image, one float32 step either
    side, the midpoints to its 16-bit neighbours and one step either side of those)."""
    rng = np.random.default_rng(7)
    pieces = [rng.integers(0, 2 ** 32, 1_000_000, dtype=np.uint64).astype(np.uint32)]
    with np.errstate(invalid="ignore", over="ignore"):
        exact = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(half).astype(np.float32)
    finite = exact[np.isfinite(exact)].astype(np.float64)
    finite = np.unique(finite)
    mids = ((finite[1:] + finite[:-1]) / 2).astype(np.float32)       # (exact in float32: one more bit)
    for base in (exact, mids):
        b = base.view(np.uint32).astype(np.int64)
        for step in (-1, 0, 1):
            pieces.append(((b + step) % 2 ** 32).astype(np.uint32))
    special = np.array([0x7f800000, 0xff800000, 0x7f800001, 0xff800001, 0x7fc00000, 0xffc00000, 0x7fa00000,
                        0x7f802000, 0x7fffffff, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x33000000,
                        0x33000001, 0x32ffffff, 0x38800000, 0x387fffff, 0x80000000, 0x00000001, 0x7f7fffff,
                        0x7f7f8000, 0x7f7f7fff], np.uint32)
    return np.concatenate(pieces + [special]).view(np.float32)


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
def test_float32_narrows_as_numpy_and_ml_dtypes_round(sim, half):
    cp, fam = sim
    values = _narrowing_cases(half)
    got = _convert(cp, fam["array"], values, half)
    with np.errstate(invalid="ignore", over="ignore"):
        want = values.astype(half)
    bad = np.flatnonzero(_bits(got) != _bits(want))
    assert bad.size == 0, [(hex(values.view(np.uint32)[i]), hex(_bits(got)[i]), hex(_bits(want)[i]))
                           for i in bad[:8]]


def test_cast_many_takes_sixteen_of_a_pair_to_a_launch(sim):
    """40 float32 arrays to float16 (three launches), 17 float16 arrays to float32 (two, the last holding one), and
    beside them casts the kernel does not take: float64 to float16, an integer one, a strided view, an empty array,
    one bfloat16 array alone (a ``Cast`` each). Each result is its input's cast, a fresh array, in its place."""
    cp, fam = sim
    rng = np.random.default_rng(3)
    hosts, dtypes = [], []
    for i in range(40):
        hosts.append(rng.normal(0, 100, (i % 5 + 1, 37 * i + 1)).astype(np.float32))
        dtypes.append(np.float16)
    for i in range(17):
        hosts.append(rng.normal(0, 3, (i + 2, 3)).astype(np.float16))
        dtypes.append(np.float32)
    others = [(rng.normal(size=(4, 5)), np.float16), (np.arange(6, dtype=np.int32), np.float32),
              (np.zeros((0, 3), np.float32), np.float16), (rng.normal(size=9).astype(BF16), np.float32)]
    for h, d in others:
        hosts.append(h)
        dtypes.append(d)
    inputs = [cp.asarray(h) for h in hosts]
    strided = cp.asarray(rng.normal(size=(6, 8)).astype(np.float32))[:, ::2]
    inputs.insert(5, strided)
    hosts.insert(5, cp.asnumpy(strided))
    dtypes.insert(5, np.float16)
    ys, kinds = _cast_many(cp, fam["array"], inputs, dtypes)
    assert kinds.count("RawKernel ms_cast_many") == 3 + 2, kinds
    assert sorted(set(kinds)) == ["RawKernel ms_cast_many", "ndarray.astype"] and len(kinds) == 5 + 5, kinds
    assert len(ys) == len(inputs)
    for x, h, d, y in zip(inputs, hosts, dtypes, ys):
        y = cp.asnumpy(y)
        assert y.dtype == np.dtype(d) and y.shape == h.shape
        np.testing.assert_array_equal(_bits(y) if y.dtype.kind != "i" else y, _bits(h.astype(d)))
    for x, y in zip(inputs, ys):
        assert not cp.may_share_memory(x, y)


def test_cast_many_with_fusion_off_casts_each(sim, monkeypatch):
    cp, fam = sim
    array = fam["array"]
    monkeypatch.setitem(array.RawKernels.enabled.__globals__, "FUSED", False)
    hosts = [np.arange(5, dtype=np.float32) / 3, np.arange(7, dtype=np.float32) * 1e5]
    ys, kinds = _cast_many(cp, array, [cp.asarray(h) for h in hosts], [np.float16, np.float16])
    assert "RawKernel ms_cast_many" not in kinds and len(kinds) == 2, kinds
    for h, y in zip(hosts, ys):
        np.testing.assert_array_equal(_bits(cp.asnumpy(y)), _bits(h.astype(np.float16)))


# --- batch norm on half-precision data ------------------------------------------------------------------------------
_SHAPES = {"NCHW": [(4, 3, 5, 6), (9, 3, 15, 17), (6, 5)], "NHWC": [(4, 5, 6, 3)]}


def _bn_inputs(shape, data_format, half, seed=5):
    rng = np.random.default_rng(seed)
    c = shape[-1] if data_format == "NHWC" else shape[1]
    x = rng.normal(1.0, 2.0, shape).astype(half)
    x.flat[3] = np.inf if half == BF16 else 0.0
    dy = rng.normal(0, 1, shape).astype(half)
    vectors = [rng.normal(size=c).astype(np.float32) for _ in range(3)] + [rng.uniform(0.5, 2, c).astype(np.float32)]
    return x, dy, vectors


def _bn_run(cp, nn, shape, data_format, half, training, widened):
    """BatchNorm then BatchNormGrad on the stand-in: (host outputs, forward kinds, backward kinds). ``widened``: the
    data cast to float32 before the kernels and their data results cast back (what amp's Casts around the cell did)."""
    x, dy, (scale, bias, mean0, var0) = _bn_inputs(shape, data_format, half)
    bn = nn_defs.BatchNorm(is_training=training, epsilon=1e-3, momentum=0.3, data_format=data_format)
    bng = nn_defs.BatchNormGrad(is_training=training, epsilon=1e-3, data_format=data_format)
    xd, dyd = cp.asarray(x), cp.asarray(dy)
    if widened:
        xd, dyd = xd.astype(np.float32), dyd.astype(np.float32)
    m, v = cp.asarray(mean0), cp.asarray(var0)
    s, b = cp.asarray(scale), cp.asarray(bias)
    outs, fwd = _kinds(lambda: nn.KERNELS["BatchNorm"](bn, xd, s, b, m, v))
    grads, bwd = _kinds(lambda: nn.KERNELS["BatchNormGrad"](bng, dyd, xd, s, outs[3], outs[4], outs[4]))
    outs, grads = list(outs), list(grads)
    if widened:
        outs[0], grads[0] = outs[0].astype(half), grads[0].astype(half)
    return [cp.asnumpy(a) for a in outs + [m, v] + grads], fwd, bwd


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("data_format", ["NCHW", "NHWC"])
def test_batch_norm_reads_and_writes_half_data_as_it_is(sim, half, data_format):
    cp, fam = sim
    nn = fam["nn"]
    for shape in _SHAPES[data_format]:
        got, fwd, bwd = _bn_run(cp, nn, shape, data_format, half, True, widened=False)
        want, _, _ = _bn_run(cp, nn, shape, data_format, half, True, widened=True)
        assert fwd == ["RawKernel ms_bn_stats", "RawKernel ms_bn_forward"], fwd
        assert bwd == ["RawKernel ms_bn_grad_sums", "RawKernel ms_bn_grad_dx"], bwd
        names = ("y", "mean", "variance", "saved mean", "saved variance", "moving mean", "moving variance", "dx",
                 "dscale", "dbias")
        for name, g, w in zip(names, got, want):
            assert g.dtype == w.dtype and g.shape == w.shape, (shape, name)
            assert g.dtype == (half if name in ("y", "dx") else np.float32), (shape, name)
            np.testing.assert_array_equal(_bits(g), _bits(w), err_msg=f"{shape}: {name}")


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
def test_batch_norm_inference_on_half_data_in_one_launch(sim, half):
    cp, fam = sim
    nn = fam["nn"]
    got, fwd, _ = _bn_run(cp, nn, (4, 3, 5, 6), "NCHW", half, False, widened=False)
    want, _, _ = _bn_run(cp, nn, (4, 3, 5, 6), "NCHW", half, False, widened=True)
    assert fwd == ["RawKernel ms_bn_infer"], fwd
    for i, (g, w) in enumerate(zip(got[:7], want[:7])):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(_bits(g), _bits(w), err_msg=f"output {i}")


def test_batch_norm_with_half_parameters_keeps_the_widened_path(sim):
    """float16 data with float16 parameters (a network cast whole, no amp): the kernels compute in the parameters'
    dtype, so the data are widened and the float32 kernels run as before, the results the CPU's dtypes."""
    cp, fam = sim
    nn = fam["nn"]
    x, _, vectors = _bn_inputs((4, 3, 5, 6), "NCHW", np.float16)
    bn = nn_defs.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.3)
    args = [cp.asarray(a) for a in [x] + [v.astype(np.float16) for v in vectors]]
    out = (TensorSpec(x.shape, mstype.float16),) + (TensorSpec((3,), mstype.float16),) * 4
    outs, kinds = _kinds(lambda: nn.KERNELS["BatchNorm"](bn, *args, out=out))
    assert "RawKernel ms_bn_stats" not in kinds and "ndarray.astype" in kinds, kinds
    assert [o.dtype for o in outs] == [np.float16] * 5


# --- softmax on half-precision data ---------------------------------------------------------------------------------
def _softmax_run(cp, nn, x, dy, axis, widened):
    """Softmax, LogSoftmax and SoftmaxGrad of ``x`` (host, float16/bfloat16): (host results, launch kinds of each).
    ``widened``: the data cast to float32 before each kernel and the results cast back, Softmax over the last axis
    by the plain formula's float32 kernel (half-precision data's formula: float32's own has other rules for a row
    holding a NaN or an infinity)."""
    half = x.dtype
    xd, dyd = cp.asarray(x), cp.asarray(dy)
    if widened:
        xd, dyd = xd.astype(np.float32), dyd.astype(np.float32)
    spec = TensorSpec(x.shape, _MS[np.dtype(np.float32) if widened else half])
    if widened and axis == -1:
        y, k1 = _kinds(lambda: nn._softmax_rows_plain(xd))
    else:
        y, k1 = _kinds(lambda: nn.KERNELS["Softmax"](nn_defs.Softmax(axis), xd, out=spec))
    ly, k2 = _kinds(lambda: nn.KERNELS["LogSoftmax"](nn_defs.LogSoftmax(axis), xd, out=spec))
    yd = y.astype(half).astype(np.float32) if widened else y        # (the gradient's y: Softmax's half result)
    dx, k3 = _kinds(lambda: nn.KERNELS["SoftmaxGrad"](nn_defs.SoftmaxGrad(axis), yd, dyd, out=spec))
    results = [y, ly, dx]
    if widened:
        results = [r.astype(half) for r in results]
    return [cp.asnumpy(r) for r in results], (k1, k2, k3)


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(4, 10), (3, 2, 300), (5, 1)])
def test_softmax_over_the_last_axis_reads_and_writes_half_data_as_it_is(sim, half, shape):
    """Softmax, LogSoftmax and SoftmaxGrad over the last axis: one launch each on float16/bfloat16 data (no casts),
    the bits of the float32 kernels between casts; a row holding an infinity or a NaN included."""
    cp, fam = sim
    nn = fam["nn"]
    rng = np.random.default_rng(2)
    x = (rng.normal(0, 4, shape)).astype(half)
    x.flat[-1] = np.inf
    if x.size > 12:
        x.flat[7] = np.nan
    dy = rng.normal(0, 1, shape).astype(half)
    with np.errstate(invalid="ignore"):
        got, kinds = _softmax_run(cp, nn, x, dy, -1, widened=False)
        want, _ = _softmax_run(cp, nn, x, dy, -1, widened=True)
    assert kinds == (["RawKernel ms_softmax_rows_plain"], ["RawKernel ms_log_softmax_rows"],
                     ["RawKernel ms_softmax_grad_rows"]), kinds
    for name, g, w in zip(("softmax", "log_softmax", "softmax_grad"), got, want):
        assert g.dtype == half and g.shape == shape
        np.testing.assert_array_equal(_bits(g), _bits(w), err_msg=name)


def test_softmax_over_another_axis_widens_half_data(sim):
    """Over a leading axis the half data go through the widened plain path, as before: the same values."""
    cp, fam = sim
    nn = fam["nn"]
    rng = np.random.default_rng(4)
    x, dy = rng.normal(0, 3, (6, 5)).astype(np.float16), rng.normal(0, 1, (6, 5)).astype(np.float16)
    got, kinds = _softmax_run(cp, nn, x, dy, 0, widened=False)
    want, _ = _softmax_run(cp, nn, x, dy, 0, widened=True)
    assert not any(k.startswith("RawKernel") for k in kinds[0] + kinds[1]), kinds
    for g, w in zip(got, want):
        assert g.dtype == np.float16
        np.testing.assert_array_equal(_bits(g), _bits(w))


# --- layer norm on half-precision data ------------------------------------------------------------------------------
@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("shape,axis", [((4, 6), 1), ((2, 3, 300), 2), ((2, 3, 5), 1)])
def test_layer_norm_reads_and_writes_half_data_as_it_is(sim, half, shape, axis):
    cp, fam = sim
    nn = fam["nn"]
    rng = np.random.default_rng(8)
    x = rng.normal(1, 3, shape).astype(half)
    g, b = rng.normal(size=shape[axis:]).astype(half), rng.normal(size=shape[axis:]).astype(half)
    prim = nn_defs.LayerNorm(begin_norm_axis=axis, begin_params_axis=axis, epsilon=1e-5)
    stat = shape[:axis] + (1,) * (len(shape) - axis)

    def run(dt):
        out = (TensorSpec(shape, _MS[dt]), TensorSpec(stat, mstype.float32), TensorSpec(stat, mstype.float32))
        args = [cp.asarray(a).astype(dt) for a in (x, g, b)]
        return _kinds(lambda: nn.KERNELS["LayerNorm"](prim, *args, out=out))
    got, kinds = run(half)
    want, _ = run(np.dtype(np.float32))
    assert kinds == ["RawKernel ms_ln_rows"], kinds
    assert [a.dtype for a in got] == [half, np.float32, np.float32]
    np.testing.assert_array_equal(_bits(cp.asnumpy(got[0])), _bits(cp.asnumpy(want[0].astype(half))))
    for g_, w_ in zip(got[1:], want[1:]):
        np.testing.assert_array_equal(cp.asnumpy(g_), cp.asnumpy(w_))
    # half data with float32 parameters: widened, then the same one kernel in float32
    out = (TensorSpec(shape, _MS[half]), TensorSpec(stat, mstype.float32), TensorSpec(stat, mstype.float32))
    args = (cp.asarray(x), cp.asarray(g.astype(np.float32)), cp.asarray(b.astype(np.float32)))
    mixed, kinds = _kinds(lambda: nn.KERNELS["LayerNorm"](prim, *args, out=out))
    assert kinds == ["ndarray.astype", "RawKernel ms_ln_rows", "ndarray.astype"], kinds
    np.testing.assert_array_equal(_bits(cp.asnumpy(mixed[0])), _bits(cp.asnumpy(got[0])))


# --- an amp O2 training step end to end -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def amp_target():
    """A test-only target on the stand-in with the GPU backend's kernels, passes and capture (its own load of them,
    which the test below patches)."""
    graph = cupy_sim.load_graph_modules()
    with cupy_sim.registered("GPUSIMHALF", graph.families, graph=graph):
        yield "GPUSIMHALF", {f.__name__.rsplit(".", 1)[-1]: f for f in graph.families}, graph.passes


def _half_storage_off(monkeypatch, fam):
    """The kernels as they were before half-precision storage: half data widened and cast back around every hand-written
    kernel, MaxPool's fold widened, ``CastMany`` a ``Cast`` per input."""
    common = fam["nn"].RawKernels.takes_data.__globals__
    monkeypatch.setitem(common, "RAW_COMPUTE", {k: v for k, v in common["RAW_COMPUTE"].items() if v == k})
    monkeypatch.delitem(fam["nn"]._bn_raw_usable.__globals__["RAW_COMPUTE"], np.dtype(np.float16))
    monkeypatch.delitem(fam["nn"]._bn_raw_usable.__globals__["RAW_COMPUTE"], BF16)
    monkeypatch.setattr(fam["pooling"], "F16", np.dtype(np.complex64))       # (no half input is ever this)
    monkeypatch.setattr(fam["pooling"], "_WINDOW_KERNELS", {})
    monkeypatch.setattr(fam["array"], "_CAST_PAIRS", ())


def _amp_losses(target, half, mode, steps=4):
    """Losses and final parameters of a small convolutional network (Conv2d, BatchNorm2d, ReLU, MaxPool2d, Dense)
    trained with amp O2 in ``half`` (float16: a fixed loss scale; None: float32, no amp) on ``target``, with the
    launches of the last step."""
    import mindspore as ms
    from mindspore import nn
    ms.set_context(device_target=target, mode=mode)
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Conv2d(3, 8, 3, pad_mode="same"), nn.BatchNorm2d(8), nn.ReLU(),
                            nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(8 * 4 * 4, 10))
    rng = np.random.default_rng(3)
    for p in net.trainable_params():
        p.set_data(ms.Tensor((rng.standard_normal(p.shape) * 0.3).astype(np.float32)))
    if half is not None:            # (None: float32, no amp)
        net = ms.amp.auto_mixed_precision(net, "O2", dtype=ms.float16 if half == np.float16 else ms.bfloat16)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    if half == np.float16:
        step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss), opt,
                                                scale_sense=ms.Tensor(np.float32(256.0)))
    else:
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
    step.set_train()
    x = ms.Tensor(rng.standard_normal((4, 3, 8, 8)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, 4).astype(np.int32))
    losses = []
    for i in range(steps):
        out, kinds = _kinds(lambda: step(x, y))
        losses.append((out[0] if isinstance(out, tuple) else out).asnumpy())
    return np.array(losses), [p.asnumpy() for p in net.trainable_params()], kinds


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_amp_training_gives_the_bits_of_the_casts_around_the_kernels(amp_target, monkeypatch, half, mode):
    """Four amp O2 steps (conv, batch norm, ReLU, max pooling, dense; float16 with a loss scale) give the same losses
    and parameters, bit for bit, with half-precision storage as with the casts it replaced, in fewer launches."""
    import mindspore as ms
    target, fam, _ = amp_target
    from mindspore import _generation
    ms_mode = ms.PYNATIVE_MODE if mode == "pynative" else ms.GRAPH_MODE
    before, before_mode = ms.get_context("device_target_requested"), ms.get_context("mode")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")          # (every launch counted, none replayed)
    try:
        losses, params, kinds = _amp_losses(target, half, ms_mode)
        with monkeypatch.context() as m:
            _half_storage_off(m, fam)
            want_losses, want_params, want_kinds = _amp_losses(target, half, ms_mode)
    finally:
        ms.set_context(mode=before_mode)
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)
    assert np.isfinite(losses).all() and len(set(losses.tolist())) > 1, losses
    np.testing.assert_array_equal(losses, want_losses)
    for p, w in zip(params, want_params):
        np.testing.assert_array_equal(p, w)
    assert len(kinds) < len(want_kinds) and "ndarray.astype" in want_kinds, (len(kinds), len(want_kinds))


def test_amp_graphs_fuse_their_float16_chains_into_the_same_bits(amp_target, monkeypatch):
    """GRAPH_MODE's fusion pass takes float16 chains (amp's output cast after the dense layer's bias add, the
    gradient's casts): each step rounded to float16 where its plain kernel stores it, so four amp O2 steps give the
    losses and parameters of the chains run op by op, bit for bit, in fewer launches."""
    import mindspore as ms
    from mindspore import _generation
    from mindspore.common import dtype as mstype
    target, _, passes = amp_target
    before, before_mode = ms.get_context("device_target_requested"), ms.get_context("mode")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    monkeypatch.setattr(passes, "_KERNELS", {})
    try:
        losses, params, kinds = _amp_losses(target, np.float16, ms.GRAPH_MODE)
        half = [body for _, _, body in passes._KERNELS if "(float16)" in body]
        with monkeypatch.context() as m:
            m.setattr(passes, "_FLOATS", (mstype.float32, mstype.float64))     # float16 chains not fused
            want_losses, want_params, want_kinds = _amp_losses(target, np.float16, ms.GRAPH_MODE)
    finally:
        ms.set_context(mode=before_mode)
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)
    assert half, list(passes._KERNELS)
    np.testing.assert_array_equal(losses, want_losses)
    for p, w in zip(params, want_params):
        np.testing.assert_array_equal(p, w)
    assert len(kinds) < len(want_kinds), (len(kinds), len(want_kinds))


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16], ids=["float16", "bfloat16"])
def test_amp_graphs_cast_parameters_and_gradients_as_cast_many(amp_target, monkeypatch, half):
    """GRAPH_MODE's ``gpu_group_casts``: amp's parameter casts (and the network input's) and their gradients' casts back
    to float32 become ``CastMany`` applies, 16 casts to a launch: four amp O2 steps give the losses and parameters of a
    Cast per tensor, bit for bit, in fewer launches."""
    import mindspore as ms
    from mindspore import _generation
    target, _, passes = amp_target
    before, before_mode = ms.get_context("device_target_requested"), ms.get_context("mode")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    try:
        grouped = passes.STATS["casts_grouped"]
        losses, params, kinds = _amp_losses(target, half, ms.GRAPH_MODE)
        grouped = passes.STATS["casts_grouped"] - grouped
        with monkeypatch.context() as m:
            m.setattr(passes, "_CAST_MANY_PAIRS", set())          # a Cast per tensor
            want_losses, want_params, want_kinds = _amp_losses(target, half, ms.GRAPH_MODE)
    finally:
        ms.set_context(mode=before_mode)
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)
    # the input and the three parameters cast down, their three gradients cast back: one CastMany each way
    assert grouped == 7, grouped
    np.testing.assert_array_equal(losses, want_losses)
    for p, w in zip(params, want_params):
        np.testing.assert_array_equal(p, w)
    assert "RawKernel ms_cast_many" in kinds and "RawKernel ms_cast_many" not in want_kinds, kinds
    assert len(kinds) < len(want_kinds), (len(kinds), len(want_kinds))


@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16, None], ids=["float16", "bfloat16", "float32"])
def test_graphs_put_a_relu_after_batch_norm_in_its_launch(amp_target, monkeypatch, half):
    """``gpu_fuse_batchnorm_relu``: BatchNorm's output 0 through a ReLU, in its normalising launch, and
    ``gpu_fuse_relu_grad_batchnorm_grad``: that ReLU's ReluGrad read in BatchNormGrad's launches (amp O2 steps in
    float16 and bfloat16, and float32 ones): four training steps give the losses and parameters of the kernels one
    by one, bit for bit, in fewer launches."""
    import mindspore as ms
    from mindspore import _generation
    target, fam, passes = amp_target
    before, before_mode = ms.get_context("device_target_requested"), ms.get_context("mode")
    monkeypatch.setenv("MS_GPU_GRAPH_CAPTURE", "0")
    fused = []
    for name in ("_batch_norm_relu_kernel", "_relu_grad_batch_norm_grad_kernel"):
        monkeypatch.setattr(passes, name, lambda prim, real=getattr(passes, name), name=name:
                            fused.append(name) or real(prim))
    try:
        losses, params, kinds = _amp_losses(target, half, ms.GRAPH_MODE)
        made = sorted(fused)
        with monkeypatch.context() as m:
            m.setattr(passes, "fuse_batchnorm_relu", lambda graph: False)
            m.setattr(passes, "fuse_relu_grad_batchnorm_grad", lambda graph: False)
            want_losses, want_params, want_kinds = _amp_losses(target, half, ms.GRAPH_MODE)
    finally:
        ms.set_context(mode=before_mode)
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)
    assert made == ["_batch_norm_relu_kernel", "_relu_grad_batch_norm_grad_kernel"], made
    np.testing.assert_array_equal(losses, want_losses)
    for p, w in zip(params, want_params):
        np.testing.assert_array_equal(p, w)
    assert len(kinds) < len(want_kinds), (len(kinds), len(want_kinds))


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16, np.dtype(np.float32)], ids=["float16", "bfloat16",
                                                                                          "float32"])
def test_batch_norm_relu_gives_batch_norm_then_relu(sim, half, training, monkeypatch):
    """``batch_norm_relu`` on the raw kernels and on the plain path (the raw kernels refused) gives BatchNorm's
    kernel then ReLU's, bit for bit (a NaN input's output +0), in training and inference."""
    cp, fam = sim
    nn = fam["nn"]
    shape = (4, 3, 5, 5)
    x, _, _ = _bn_inputs(shape, "NCHW", half)
    x[0, 0, 0, 0] = np.nan
    prim = nn_defs.BatchNorm(is_training=training, epsilon=1e-3, momentum=0.2)
    ct = np.dtype(np.float32)
    out = (TensorSpec(shape, mstype.float32 if half == np.float32 else (mstype.float16 if half == np.float16
                                                                         else mstype.bfloat16)),) \
        + (TensorSpec((3,), mstype.float32),) * 4
    rng = np.random.default_rng(4)
    vec = [cp.asarray(rng.normal(size=3).astype(ct)) for _ in range(2)]

    def run(fn):
        m, v = cp.zeros(3, ct), cp.ones(3, ct)
        return [cp.asnumpy(a) for a in fn(cp.asarray(x), *vec, m, v)] + [cp.asnumpy(m), cp.asnumpy(v)]
    for raw in (True, False):
        with monkeypatch.context() as mp:
            if not raw:
                mp.setattr(nn, "_bn_raw_usable", lambda *a, **k: False)
            got = run(lambda *a: nn.batch_norm_relu(prim, *a, out=out))
            bn = run(lambda *a: nn.KERNELS["BatchNorm"](prim, *a, out=out))
        want = [cp.asnumpy(nn.KERNELS["ReLU"](None, cp.asarray(bn[0]), out=out[0]))] + bn[1:]
        for g, w in zip(got, want):
            np.testing.assert_array_equal(_bits(g), _bits(w))
        nan_out = got[0][0, 0, 0, 0].astype(np.float32)      # (the NaN input's output: ReLU makes it +0)
        assert nan_out == 0 and not np.signbit(nan_out)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("half", [np.dtype(np.float16), BF16, np.dtype(np.float32)], ids=["float16", "bfloat16",
                                                                                          "float32"])
def test_relu_grad_batch_norm_grad_gives_relu_grad_then_batch_norm_grad(sim, half, training, monkeypatch):
    """``relu_grad_batch_norm_grad`` on the raw kernels and on the plain path (the raw kernels refused; inference's
    gradient takes it too) gives ReluGrad's kernel then BatchNormGrad's, bit for bit (a NaN of the ReLU's output
    selects 0)."""
    cp, fam = sim
    nn = fam["nn"]
    shape = (4, 3, 5, 5)
    x, dy, _ = _bn_inputs(shape, "NCHW", half)
    y = np.random.default_rng(8).normal(0, 1, shape).astype(half)
    y[0, 0, 0, 0] = np.nan
    y[0, 0, 0, 1] = -0.0
    prim = nn_defs.BatchNormGrad(is_training=training, epsilon=1e-3)
    mdt = mstype.float32 if half == np.float32 else (mstype.float16 if half == np.float16 else mstype.bfloat16)
    out = (TensorSpec(shape, mdt),) + (TensorSpec((3,), mstype.float32),) * 2
    rng = np.random.default_rng(4)
    sc, sm = (cp.asarray(rng.normal(size=3).astype(np.float32)) for _ in range(2))
    sv = cp.asarray(rng.uniform(0.5, 2, 3).astype(np.float32))
    args = (cp.asarray(x), sc, sm, sv, sv)
    for raw in (True, False):
        with monkeypatch.context() as mp:
            if not raw:
                mp.setattr(nn, "_bn_raw_usable", lambda *a, **k: False)
            got = nn.relu_grad_batch_norm_grad(prim, cp.asarray(dy), cp.asarray(y), *args, out=out)
            masked = nn.KERNELS["ReluGrad"](None, cp.asarray(dy), cp.asarray(y), out=out[0])
            want = nn.KERNELS["BatchNormGrad"](prim, masked, *args, out=out)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(_bits(cp.asnumpy(g)), _bits(cp.asnumpy(w)))


def test_bfloat16_relu_and_its_gradient_are_one_launch_with_the_widened_bits(sim):
    """bfloat16 ReLU and ReluGrad (CuPy's generated kernels are not given bfloat16) by the hand-written selects: one
    launch each where widening took three, the bits of the widened path (NaN and -0 to +0, infinities, subnormals);
    strided data keeps the widened path."""
    cp, fam = sim
    nn = fam["nn"]
    special = np.array([np.nan, -np.nan, -0.0, 0.0, np.inf, -np.inf, 1e-40, -1e-40, 3.0, -2.5], np.float32)
    rng = np.random.default_rng(6)
    x = np.concatenate([special, rng.normal(0, 3, 990).astype(np.float32)]).astype(BF16).reshape(20, 50)
    dy = np.concatenate([special[::-1], rng.normal(0, 3, 990).astype(np.float32)]).astype(BF16).reshape(20, 50)
    spec = TensorSpec(x.shape, mstype.bfloat16)
    x, dy = cp.asarray(x), cp.asarray(dy)
    y, kinds = _kinds(lambda: nn.KERNELS["ReLU"](None, x, out=spec))
    want = nn._PLAIN["ReLU"](None, x, out=spec)
    assert kinds == ["RawKernel ms_relu_raw"], kinds
    np.testing.assert_array_equal(_bits(cp.asnumpy(y)), _bits(cp.asnumpy(want)))
    dx, kinds = _kinds(lambda: nn.KERNELS["ReluGrad"](None, dy, y, out=spec))
    want_dx = nn._PLAIN["ReluGrad"](None, dy, y, out=spec)
    assert kinds == ["RawKernel ms_relu_grad_raw"], kinds
    np.testing.assert_array_equal(_bits(cp.asnumpy(dx)), _bits(cp.asnumpy(want_dx)))
    strided = x[:, ::2]
    got, kinds = _kinds(lambda: nn.KERNELS["ReLU"](None, strided, out=TensorSpec(strided.shape, mstype.bfloat16)))
    assert "RawKernel ms_relu_raw" not in kinds and len(kinds) > 1, kinds
    np.testing.assert_array_equal(_bits(cp.asnumpy(got)), _bits(cp.asnumpy(y)[:, ::2]))
