"""Kernel launches of PYNATIVE training steps on the GPU backend, counted on the CuPy stand-in, and the kernels whose
launches were cut, against the CPU kernels.

On a GPU a small PYNATIVE step is bound by the host (about 10 us of Python per CuPy launch, measured on an H200), so:

* each benchmark workload's PYNATIVE ``TrainOneStepCell`` step (``tests/gpu/launch_count.py``, on the stand-in with
  ``ElementwiseKernel`` offered, as a GPU has it) takes at most the launches it was brought down to (a regression
  fails here), and its losses are the CPU's;
* the kernels rewritten to launch less (Softmax's float32 last-axis path, LayerNorm, BatchNormGrad,
  SparseSoftmaxCrossEntropyWithLogits, ApplyMomentum, AssignAdd/AssignSub, Conv2DBackpropFilter; MaxPool and
  MaxPoolGrad are checked bit for bit by ``test_gpu_fused_kernels_sim.py``) give the CPU kernels' results, forward
  and gradient, in float16/float32/float64 where the op takes them, with NaN, infinities, broadcasting and empty
  tensors, and their fused kernels (or single launches) are what ran;
* the update primitives nn.Adam, nn.AdamWeightDecay, nn.SGD, nn.RMSProp and nn.Adagrad call per parameter (Adam,
  ApplyAdamWithAmsgrad, AdamWeightDecay, SGD, ApplyRMSProp, ApplyCenteredRMSProp, ApplyAdagrad) are one
  ElementwiseKernel each, give the CPU kernels' results, and their plain-CuPy twins
  (no ElementwiseKernel, fusion off, Parameters on the host) give the fused kernels'.
"""
import functools
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms

HERE = pathlib.Path(__file__).parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "tests" / "gpu"))
import cupy_sim  # noqa: E402
import launch_count  # noqa: E402
from mindspore import _generation, ops  # noqa: E402

pytestmark = cupy_sim.warning_marks()

#: launches per PYNATIVE step reached (batch 2; before the fused kernels: mlp 69, lenet 139, resnet 674, transformer
#: 488; before nn.Adam's one primitive per parameter and the tape's None cotangents: resnet 507, transformer 437;
#: before LayerNormGrad, SoftmaxGrad and the sparse loss without its label check: mlp 44, lenet 100, resnet 447,
#: transformer 146; before the conv columns and col2im, MaxPool's and batch norm's one-kernel paths: lenet 95,
#: resnet 442; resnet then had 298, and three more per batch norm layer since its per-channel sums ran in two
#: stages, which an H200 ran many times faster than one reduction over N, H and W: mlp 35, lenet 63, resnet 343,
#: transformer 105; before the hand-written kernels of batch norm, LayerNorm and its gradient, Softmax, SoftmaxGrad and
#: the sparse loss; lenet 60, 53 with capture, before MaxPoolGrad's one kernel)
LIMITS = {"mlp": 32, "lenet": 56, "resnet": 265, "transformer": 92}
#: with CUDA-graph capture on, as a GPU runs the step (the compiled optimizer update: one graph launch, its gradients
#: copied in 16 to a launch)
LIMITS_CAPTURED = {"mlp": 27, "lenet": 49, "resnet": 221, "transformer": 72}
#: ... once the backward pass repeats: compiled (``mindspore._autodiff.compiled_backward``) and replayed as one graph
#: too, its saved tensors copied in and its gradients out by ms_copy_many (with it walked on the tape: the above)
LIMITS_BACKWARD_CAPTURED = {"mlp": 17, "lenet": 26, "resnet": 102, "transformer": 42}
SLACK = 2

needs_benchmarks = pytest.mark.skipif(not (REPO / "benchmarks" / "workloads_mindspore.py").exists(),
                                      reason="the benchmark workloads are not here")


_on = functools.partial(launch_count.run_on, ms)          # (target, thunk) -> NumPy arrays
_kinds = functools.partial(launch_count.kinds_of, ms)     # (thunk, primitive) -> launch kinds


@pytest.fixture(scope="module")
def target():
    name, _, _ = launch_count.install(ms)
    yield name
    launch_count.uninstall(ms)


def _same(got, want, rtol, what=""):
    assert len(got) == len(want), what
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what} output {i}: {g.dtype} {g.shape}, {w.dtype} {w.shape}"
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{what} output {i}: NaN positions")
        if rtol == 0:
            np.testing.assert_array_equal(g, w, err_msg=f"{what} output {i}")
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, equal_nan=True, err_msg=f"{what} output {i}")


def _tol(dtype):
    return {np.float16: 1e-3, np.float32: 2e-6, np.float64: 1e-12}[dtype]


# --- launches per step ----------------------------------------------------------------------------------------------
@needs_benchmarks
@pytest.mark.parametrize("workload", sorted(LIMITS))
def test_a_pynative_step_takes_at_most_the_launches_reached(target, workload):
    total, per, calls, kinds, loss = launch_count.measure(workload, batch=2, steps=1, warmup=1)
    assert total <= LIMITS[workload] + SLACK, (
        f"{workload}: {total:.0f} launches per step, more than the {LIMITS[workload]} reached; the top: "
        + ", ".join(f"{k} {v:.0f}" for k, v in sorted(per.items(), key=lambda kv: -kv[1])[:8]))
    assert sum(per.values()) == total
    assert any(k.startswith("ElementwiseKernel") for c in kinds.values() for k in c), "fused kernels ran"
    # the same two steps on the CPU give the same loss
    before, mode = ms.get_context("device_target_requested"), ms.get_context("mode")
    ms.set_context(device_target="CPU", mode=ms.PYNATIVE_MODE)
    try:
        step = launch_count.train_step(ms, workload, 2)
        step()
        want = step()
    finally:
        ms.set_context(mode=mode)
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)
    np.testing.assert_allclose(loss, want, rtol=2e-4, atol=2e-5)


@needs_benchmarks
@pytest.mark.parametrize("workload", ["mlp"])
def test_a_captured_pynative_update_takes_one_graph_launch_and_few_copies(target, workload):
    """With capture on (a GPU's default), the optimizer's compiled update replays as one graph launch after its
    gradients are copied in by ms_copy_many, not one launch per parameter."""
    total, per, calls, kinds, _ = launch_count.measure(workload, batch=2, steps=1, capture=True)
    outside = kinds.get(launch_count.OUTSIDE, {})
    assert outside.get("graph launch") == 1, outside
    assert outside.get("RawKernel ms_copy_many", 0) >= 1 and "cupy.copyto" not in outside, outside
    assert total <= LIMITS_CAPTURED[workload] + SLACK, (workload, total, outside)


@needs_benchmarks
@pytest.mark.parametrize("workload", sorted(LIMITS_BACKWARD_CAPTURED))
def test_a_repeated_pynative_backward_pass_replays_as_one_graph(target, workload, monkeypatch):
    """Once a PYNATIVE step's backward pass repeats it runs compiled, and on a GPU replays as one CUDA graph: a step
    is then the forward's launches, two graph launches (the backward, the update) and the copies in and out, with the
    losses of the tape's walk."""
    # warm-up: two walks of the tape, the compiled backward's first call, its capture at the third: the sixth step
    # replays it (each emulated step costs seconds: no more steps than that)
    monkeypatch.setenv("MS_PYNATIVE_COMPILED_BACKWARD", "0")
    walked = launch_count.measure(workload, batch=2, steps=1, warmup=5, capture=True)
    monkeypatch.delenv("MS_PYNATIVE_COMPILED_BACKWARD")
    total, per, calls, kinds, loss = launch_count.measure(workload, batch=2, steps=1, warmup=5, capture=True)
    outside = kinds.get(launch_count.OUTSIDE, {})
    assert outside.get("graph launch") == 2, outside
    assert "ndarray.copy" not in outside, outside          # (the gradients out: ms_copy_many, not a copy each)
    assert total <= LIMITS_BACKWARD_CAPTURED[workload] + SLACK, (workload, total, outside)
    assert total < walked[0] - 3, (total, walked[0])
    assert not any(p.endswith("Grad") or p.startswith("Conv2DBackprop") for p in per), per   # no bprop kernel alone
    np.testing.assert_allclose(loss, walked[4], rtol=1e-5, atol=1e-6)


def test_the_counter_counts_launches_and_not_views(target):
    cp = cupy_sim.make_modules(elementwise=True)["cupy"]
    counter = cupy_sim.LAUNCHES
    x = cp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    start = counter.total
    views = [x.reshape(4, 3), x.T, x[1:], x[0], cp.expand_dims(x, 0), x.transpose(1, 0), cp.reshape(x, (12,))]
    assert counter.total == start, "views launch nothing"
    y = x + 1
    s = cp.sum(y, axis=0)
    z = y.astype(np.float64)
    y.astype(np.float32, copy=False)
    x.T.reshape(12)            # a copy: not contiguous
    x[cp.asarray(np.array([0, 2]))]
    float(s[0])
    assert counter.total == start + 7   # add, sum, astype, reshape copy, h2d of the index, gather, d2h
    assert z.dtype == np.float64 and len(views) == 7


def test_the_stand_in_computes_an_elementwise_kernels_index_arithmetic_once_per_geometry(target, monkeypatch):
    """The stand-in evaluates what reads only ``i`` and scalar arguments (a gather's index arithmetic) once per body,
    types, shape and scalar values, and reuses it: the numbers of every call stay those of the body, outputs written
    from that arithmetic alone included, while the data and any changed scalar or shape are read afresh."""
    cp = cupy_sim.make_modules(elementwise=True)["cupy"]
    # y (m, n) = s * the transpose of x (n, m), read through a flat raw index; z the index arithmetic alone; w the
    # running index redefined from data halfway (a name static first, data-dependent after)
    kernel = cp.ElementwiseKernel(
        "raw T x, T s, int32 n, int32 m", "T y, int64 z, T w",
        "ptrdiff_t a = i / n; ptrdiff_t b = i % n; ptrdiff_t src = b * m + a; y = x[src] * s; z = a * 100 + b; "
        "T acc = (T)1; acc = acc + x[src]; w = acc;", "t_memo_transpose")
    evals = []
    real_eval = cupy_sim._c_eval
    monkeypatch.setattr(cupy_sim, "_c_eval", lambda *a: evals.append(1) or real_eval(*a))

    def call(x, s):
        n, m = x.shape
        y, z, w = (cp.empty((m, n), dt) for dt in (x.dtype, np.int64, x.dtype))
        before = len(evals)
        kernel(cp.asarray(x), x.dtype.type(s), np.int32(n), np.int32(m), y, z, w)
        a, b = np.divmod(np.arange(m * n).reshape(m, n), n)
        np.testing.assert_array_equal(cp.asnumpy(y), x.T * x.dtype.type(s))
        np.testing.assert_array_equal(cp.asnumpy(z), a * 100 + b)
        np.testing.assert_array_equal(cp.asnumpy(w), x.T + 1)
        return len(evals) - before
    rng = np.random.default_rng(0)
    first = call(rng.normal(size=(3, 5)).astype(np.float32), 2)
    again = call(rng.normal(size=(3, 5)).astype(np.float32), 2)          # new data, same geometry: memoized
    assert again < first / 2, (first, again)
    assert call(rng.normal(size=(3, 5)).astype(np.float32), 3) == first  # another scalar: all evaluated again
    call(rng.normal(size=(5, 3)).astype(np.float32), 2)                   # another geometry
    call(rng.normal(size=(4, 6)).astype(np.float64), -1)                  # another type map


# --- Softmax (float32, last axis: fused) ----------------------------------------------------------------------------
def _softmax_inputs(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 3, shape).astype(dtype)
    if x.size and x.ndim >= 2 and x.shape[-1] >= 3 and x.shape[0] >= 4:
        x[0, ..., 1] = np.nan            # NaN in a row
        x[1, ..., 2] = np.inf            # +inf in a row
        x[2] = -np.inf                   # a row of -inf
        x[3, ..., 0] = -np.inf
    return x


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6, 7), (4, 3, 5), (1, 1), (0, 5), (5, 0)])
def test_softmax_gives_the_cpu_kernels_results(target, dtype, shape):
    x = _softmax_inputs(dtype, shape)
    w = np.random.default_rng(1).normal(size=shape).astype(dtype)

    def run():
        t = ms.Tensor(x)
        y = ops.softmax(t, axis=-1)
        g = ms.grad(lambda a: (ops.softmax(a, axis=-1) * ms.Tensor(w)).sum())(t)
        return [y, g]
    want = _on("CPU", run)
    got = _on(target, run)
    # (float32's one-launch kernel sums a row as a block's tree, CuPy as its reduction: the last bit may differ)
    _same(got[:1], want[:1], _tol(dtype), f"softmax {dtype.__name__} {shape}")
    _same(got[1:], want[1:], _tol(dtype) * 10, f"softmax grad {dtype.__name__} {shape}")


def test_softmax_float32_last_axis_runs_in_one_launch(target):
    x = _softmax_inputs(np.float32, (8, 16))
    assert _kinds(lambda: [ops.softmax(ms.Tensor(x), axis=-1)], "Softmax") == ["RawKernel ms_softmax_rows"]
    # other dtypes over the last axis: the plain formula in one launch (float16 read and written as it is, computed
    # in float32: no casts)
    x64 = _softmax_inputs(np.float64, (8, 16))
    assert _kinds(lambda: [ops.softmax(ms.Tensor(x64), axis=-1)], "Softmax") == ["RawKernel ms_softmax_rows_plain"]
    kinds16 = _kinds(lambda: [ops.softmax(ms.Tensor(x.astype(np.float16)), axis=-1)], "Softmax")
    assert kinds16 == ["RawKernel ms_softmax_rows_plain"], kinds16
    wide = _softmax_inputs(np.float32, (3, 700))      # rows longer than a block: each thread takes several values
    want = _on("CPU", lambda: [ops.softmax(ms.Tensor(wide), axis=-1)])
    _same(_on(target, lambda: [ops.softmax(ms.Tensor(wide), axis=-1)]), want, _tol(np.float32), "softmax (3, 700)")


# --- LayerNorm ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((4, 6), 1), ((2, 3, 5), 1), ((2, 3, 5), 2), ((0, 5), 1)])
@pytest.mark.parametrize("special", [False, True])
def test_layer_norm_gives_the_cpu_kernels_results(target, dtype, shape, axis, special):
    rng = np.random.default_rng(2)
    x = rng.normal(1, 2, shape).astype(dtype)
    if special and x.size:
        x.reshape(-1)[0] = np.nan
        x.reshape(-1)[-1] = np.inf
    pshape = shape[axis:]
    gamma, beta = rng.normal(size=pshape).astype(dtype), rng.normal(size=pshape).astype(dtype)
    w = rng.normal(size=shape).astype(dtype)

    def run():
        ln = ops.LayerNorm(begin_norm_axis=axis, begin_params_axis=axis, epsilon=1e-5)
        xs = [ms.Tensor(x), ms.Tensor(gamma), ms.Tensor(beta)]
        outs = list(ln(*xs))
        grads = ms.grad(lambda a, g, b: (ln(a, g, b)[0] * ms.Tensor(w)).sum(), grad_position=(0, 1, 2))(*xs)
        return outs + list(grads)
    want = _on("CPU", run)
    got = _on(target, run)
    tol = {np.float16: 2e-3, np.float32: 2e-5, np.float64: 1e-11}[dtype]
    _same(got[:3], want[:3], tol, f"layer norm {dtype.__name__} {shape} {axis}")
    _same(got[3:], want[3:], tol * 10, f"layer norm grads {dtype.__name__} {shape} {axis}")


@pytest.mark.parametrize("shape,bna,bpa", [((3, 4, 300), 1, 2), ((3, 4, 300), 2, 1), ((2, 600), 1, 1)])
def test_layer_norm_over_rows_wider_than_a_block_gives_the_cpus(target, shape, bna, bpa):
    """The one-block-per-row kernels over rows of more values than threads, gamma spanning part of a row, a whole row,
    or several rows (its index carried along each thread's values): forward and gradients as the CPU's."""
    rng = np.random.default_rng(8)
    x, w = rng.normal(1, 2, shape).astype(np.float32), rng.normal(size=shape).astype(np.float32)
    gamma, beta = rng.normal(size=shape[bpa:]).astype(np.float32), rng.normal(size=shape[bpa:]).astype(np.float32)

    def run():
        ln = ops.LayerNorm(begin_norm_axis=bna, begin_params_axis=bpa, epsilon=1e-5)
        xs = [ms.Tensor(x), ms.Tensor(gamma), ms.Tensor(beta)]
        grads = ms.grad(lambda a, g, b: (ln(a, g, b)[0] * ms.Tensor(w)).sum(), grad_position=(0, 1, 2))(*xs)
        return list(ln(*xs)) + list(grads)
    assert "RawKernel ms_ln_rows" in _kinds(lambda: run()[:1], "LayerNorm")
    _same(_on(target, run), _on("CPU", run), 2e-5, f"layer norm {shape} {bna} {bpa}")


# --- BatchNormGrad (rstd folded into the fused gradient kernels) ---------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("special", [False, True])
def test_batch_norm_gradient_gives_the_cpu_kernels_results(target, dtype, special):
    rng = np.random.default_rng(4)
    shape = (3, 4, 2, 5)
    x = rng.normal(1, 2, shape).astype(dtype)
    if special:
        x[0, 1, 0, 0] = np.nan
        x[1, 2, 1, 3] = np.inf
    scale, bias = rng.normal(size=4).astype(dtype), rng.normal(size=4).astype(dtype)
    w = rng.normal(size=shape).astype(dtype)
    pdt = np.float32 if dtype == np.float16 else dtype

    def run():
        bn = ops.BatchNorm(is_training=True, epsilon=1e-3, momentum=0.1)
        mean, var = ms.Tensor(np.zeros(4, pdt)), ms.Tensor(np.ones(4, pdt))
        xs = [ms.Tensor(x), ms.Tensor(scale.astype(pdt)), ms.Tensor(bias.astype(pdt))]
        return list(ms.grad(lambda a, s, b: (bn(a, s, b, mean, var)[0] * ms.Tensor(w)).sum(),
                            grad_position=(0, 1, 2))(*xs))
    want = _on("CPU", run)
    got = _on(target, run)
    tol = {np.float16: 5e-3, np.float32: 2e-5, np.float64: 1e-11}[dtype]
    _same(got, want, tol, f"batch norm grads {dtype.__name__} special={special}")


# --- SparseSoftmaxCrossEntropyWithLogits --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("special", [False, True])
def test_sparse_cross_entropy_gives_the_cpu_kernels_results(target, dtype, label_dtype, special):
    rng = np.random.default_rng(5)
    logits = rng.normal(0, 3, (6, 5)).astype(dtype)
    labels = rng.integers(0, 5, 6).astype(label_dtype)
    if special:
        logits[0, 1] = np.nan
        logits[1, 2] = np.inf
        logits[2] = -np.inf
        logits[3, labels[3]] = -np.inf

    def run():
        x, y = ms.Tensor(logits), ms.Tensor(labels)
        return [ops.SparseSoftmaxCrossEntropyWithLogits()(x, y),
                ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(x, y)]
    want = _on("CPU", run)
    got = _on(target, run)
    _same(got, want, {np.float16: 1e-3, np.float32: 1e-6, np.float64: 1e-13}[dtype],
          f"sparse cross entropy {dtype.__name__}")


@pytest.mark.parametrize("path", ["raw", "plain"])
@pytest.mark.parametrize("bad", [-1, 5, 7])
@pytest.mark.parametrize("label_dtype", [np.int32, np.int64])
def test_sparse_cross_entropy_takes_a_label_out_of_range_without_a_host_sync(graph_modules, monkeypatch, bad, path,
                                                                             label_dtype):
    """As MindSpore's GPU kernel, no range check (it would read a flag back every step): the bad label's row adds
    0 to the loss's sum and gets no -1/N, on the raw kernels and the plain path; the CPU kernels still raise."""
    loss_family = next(f for f in graph_modules.families if f.__name__.endswith(".loss"))
    if path == "plain":
        monkeypatch.setattr(loss_family._SPARSE_RAW, "available", False)
    cp = graph_modules.cupy
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(3, 5)).astype(np.float32)
    labels = np.array([0, bad, 1], label_dtype)
    kernel = loss_family.KERNELS["SparseSoftmaxCrossEntropyWithLogits"]
    x, y = cp.asarray(logits), cp.asarray(labels)
    kinds = []
    counter = cupy_sim.LAUNCHES
    prev, counter.listener = counter.listener, kinds.append
    try:
        loss = kernel(ops.SparseSoftmaxCrossEntropyWithLogits(), x, y)
        grad = kernel(ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True), x, y)
    finally:
        counter.listener = prev
    assert "d2h" not in kinds
    assert ("RawKernel ms_sparse_ce_rows" in kinds) == (path == "raw"), kinds
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    p = e / e.sum(axis=1, keepdims=True)
    want_loss = -np.log(p[[0, 2], [0, 1]].astype(np.float64)).sum() / 3
    want_grad = p / 3
    want_grad[0, 0] -= 1 / 3
    want_grad[2, 1] -= 1 / 3
    np.testing.assert_allclose(cp.asnumpy(loss), want_loss, rtol=1e-6)
    np.testing.assert_allclose(cp.asnumpy(grad), want_grad, rtol=1e-6, atol=1e-7)
    with pytest.raises((ValueError, RuntimeError), match="got error label"):
        _on("CPU", lambda: ops.SparseSoftmaxCrossEntropyWithLogits()(ms.Tensor(logits), ms.Tensor(labels)))


def test_sparse_cross_entropy_launches(target):
    rng = np.random.default_rng(0)
    labels = np.arange(8, dtype=np.int32)

    def run(is_grad, logits):
        return lambda: [ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=is_grad)(ms.Tensor(logits),
                                                                                 ms.Tensor(labels))]
    # a block per row (maximum, sum of exponentials; no label check read back): each row's loss, then their mean;
    # the gradient in one
    logits = rng.normal(size=(8, 10)).astype(np.float32)
    assert _kinds(run(False, logits), "SparseSoftmaxCrossEntropyWithLogits") == [
        "RawKernel ms_sparse_ce_rows", "RawKernel ms_sparse_ce_mean"]
    assert _kinds(run(True, logits), "SparseSoftmaxCrossEntropyWithLogits") == ["RawKernel ms_sparse_ce_grad"]
    wide = rng.normal(0, 4, size=(8, 600)).astype(np.float32)     # rows longer than a block
    for is_grad in (False, True):
        _same(_on(target, run(is_grad, wide)), _on("CPU", run(is_grad, wide)), 1e-6, f"wide rows, grad {is_grad}")


# --- ApplyMomentum, AssignAdd, AssignSub --------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("lr_tensor", [False, True])
def test_apply_momentum_gives_the_cpu_kernels_results(target, dtype, nesterov, lr_tensor):
    rng = np.random.default_rng(6)
    v0, a0, g = (rng.normal(size=(3, 4)).astype(dtype) for _ in range(3))
    g[0, 0], g[1, 1] = np.nan, np.inf

    def run():
        var, acc = ms.Parameter(ms.Tensor(v0), name="v"), ms.Parameter(ms.Tensor(a0), name="a")
        lr = ms.Tensor(np.array(0.1, dtype)) if lr_tensor else 0.1
        mom = ms.Tensor(np.array(0.9, dtype)) if lr_tensor else 0.9
        ops.ApplyMomentum(use_nesterov=nesterov)(var, acc, lr, ms.Tensor(g), mom)
        return [var.value(), acc.value()]
    want = _on("CPU", run)
    got = _on(target, run)
    _same(got, want, 0 if dtype == np.float64 else _tol(dtype), f"momentum {dtype.__name__}")


def test_apply_momentum_is_one_launch_per_parameter(target):
    v0 = np.ones((4, 4), np.float32)

    def run():
        var, acc = ms.Parameter(ms.Tensor(v0), name="v"), ms.Parameter(ms.Tensor(v0), name="a")
        lr, mom = ms.Tensor(np.array(0.1, np.float32)), ms.Tensor(np.array(0.9, np.float32))
        ops.ApplyMomentum()(var, acc, lr, ms.Tensor(v0), mom)
        return [var.value()]
    assert _kinds(run, "ApplyMomentum") == ["ElementwiseKernel ms_apply_momentum"]


@pytest.mark.parametrize("op,ufunc", [("AssignAdd", "add"), ("AssignSub", "subtract")])
def test_assign_add_sub_are_one_launch(target, op, ufunc):
    def run():
        var = ms.Parameter(ms.Tensor(np.ones((4, 4), np.float32)), name="v")
        getattr(ops, op)()(var, ms.Tensor(np.ones((4,), np.float32)))
        return [var.value()]
    assert _kinds(run, op) == [f"ufunc {ufunc}"]


@pytest.mark.parametrize("op", ["AssignAdd", "AssignSub"])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int32])
@pytest.mark.parametrize("value_shape", [(3, 4), (1, 4), (4,), ()])
def test_assign_add_sub_give_the_cpu_kernels_results(target, op, dtype, value_shape):
    rng = np.random.default_rng(7)
    v0 = (rng.normal(size=(3, 4)) * 10).astype(dtype)
    value = (rng.normal(size=value_shape) * 10).astype(dtype)
    if dtype != np.int32:
        v0[0, 0], value.reshape(-1)[0] = np.inf, np.nan

    def run():
        var = ms.Parameter(ms.Tensor(v0), name="v")
        out = getattr(ops, op)()(var, ms.Tensor(value))
        return [out, var.value()]
    want = _on("CPU", run)
    got = _on(target, run)
    _same(got, want, 0, f"{op} {np.dtype(dtype).name} {value_shape}")


@pytest.mark.parametrize("op", ["AssignAdd", "AssignSub"])
def test_assign_add_sub_on_empty_and_python_scalar_values(target, op):
    def run():
        var = ms.Parameter(ms.Tensor(np.zeros((0, 3), np.float32)), name="v")
        var2 = ms.Parameter(ms.Tensor(np.arange(4, dtype=np.float32)), name="w")
        getattr(ops, op)()(var2, 2.5)
        return [getattr(ops, op)()(var, ms.Tensor(np.ones((3,), np.float32))), var2.value()]
    want = _on("CPU", run)
    got = _on(target, run)
    _same(got, want, 0, op)


# --- Conv2DBackpropFilter (columns made in the product's layout) ---------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("group,stride,dilation,pad_mode,pad", [(1, 1, 1, "valid", 0), (1, 2, 1, "pad", 1),
                                                                 (2, 1, 2, "same", 0), (4, 2, 1, "pad", 2)])
def test_conv_filter_gradient_gives_the_cpu_kernels_results(target, dtype, group, stride, dilation, pad_mode, pad):
    rng = np.random.default_rng(8)
    x = rng.normal(size=(2, 4, 7, 6)).astype(dtype)
    w = rng.normal(size=(8, 4 // group, 3, 3)).astype(dtype)
    x[0, 0, 0, 0] = np.nan
    x[1, 1, 2, 3] = np.inf

    def run(dt):
        def thunk():
            conv = ops.Conv2D(8, 3, pad_mode=pad_mode, pad=pad, stride=stride, dilation=dilation, group=group)
            xs = [ms.Tensor(x.astype(dt)), ms.Tensor(w.astype(dt))]
            y = conv(*xs)
            sens = ms.Tensor(np.random.default_rng(9).normal(size=y.shape).astype(dt))
            return [y] + list(ms.grad(lambda a, b: (conv(a, b) * sens).sum(), grad_position=(0, 1))(*xs))
        return thunk
    # (float16: the CPU kernels' Conv2DBackpropInput refuses it, so the oracle is their float32 result)
    want = [a.astype(dtype) for a in _on("CPU", run(np.float32 if dtype == np.float16 else dtype))]
    got = _on(target, run(dtype))
    tol = {np.float16: 3e-2, np.float32: 2e-5, np.float64: 1e-12}[dtype]
    _same(got, want, tol, f"conv {np.dtype(dtype).name} group {group}")


def test_conv_filter_gradient_on_an_empty_batch(target):
    # (the CPU kernels are not the oracle here: an empty batch stops them with a floating point exception)
    def run():
        conv = ops.Conv2D(2, 3, pad_mode="same")
        x, w = ms.Tensor(np.zeros((0, 1, 5, 5), np.float32)), ms.Tensor(np.ones((2, 1, 3, 3), np.float32))
        return list(ms.grad(lambda a, b: conv(a, b).sum(), grad_position=(0, 1))(x, w))
    dx, dw = _on(target, run)
    assert dx.shape == (0, 1, 5, 5) and dx.dtype == np.float32
    np.testing.assert_array_equal(dw, np.zeros((2, 1, 3, 3), np.float32))


# --- the update primitives nn.Adam, AdamWeightDecay, SGD, RMSProp and Adagrad call per parameter ------------------
def _update_call(op, dtype, tensors, nesterov=False, decay=0.0):
    """A thunk calling ``op`` on fresh Parameters; scalars as float32 tensors (as nn.Adam passes them) or numbers."""
    rng = np.random.default_rng(11)
    v0, m0, g = (rng.normal(size=(3, 4)).astype(dtype) for _ in range(3))
    s0 = np.abs(rng.normal(size=(3, 4))).astype(dtype)

    def s(x):
        return ms.Tensor(np.array(x, np.float32)) if tensors else x

    def run():
        var, m, v, vh = (ms.Parameter(ms.Tensor(a), name=n) for a, n in ((v0, "var"), (m0, "m"), (s0, "v"),
                                                                          (s0 * 0.5, "vh")))
        if op == "Adam":
            ops.Adam(use_nesterov=nesterov)(var, m, v, s(0.81), s(0.998), s(0.1), s(0.9), s(0.999), s(1e-8),
                                            ms.Tensor(g))
            return [var.value(), m.value(), v.value()]
        if op == "ApplyAdamWithAmsgrad":
            ops.ApplyAdamWithAmsgrad(0.9, 0.999, 1e-8)(var, m, v, vh, s(0.81), s(0.998), s(0.1), ms.Tensor(g))
            return [var.value(), m.value(), v.value(), vh.value()]
        if op == "ApplyRMSProp":
            ops.ApplyRMSProp()(var, v, m, s(0.1), ms.Tensor(g), 0.8, 0.9, 1e-6)
            return [var.value(), v.value(), m.value()]
        if op == "ApplyCenteredRMSProp":     # mean_gradient m, mean_square v: some denominators not positive
            ops.ApplyCenteredRMSProp()(var, m, v, vh, ms.Tensor(g), s(0.1), 0.8, 0.9, 1e-6)
            return [var.value(), m.value(), v.value(), vh.value()]
        if op in ("ApplyAdagrad", "ApplyAdagrad0"):
            ops.ApplyAdagrad(update_slots=op == "ApplyAdagrad")(var, v, s(0.1), ms.Tensor(g))
            return [var.value(), v.value()]
        if op in ("SGD", "SGD0"):
            stat = ms.Parameter(ms.Tensor((np.arange(12).reshape(3, 4) % 2).astype(dtype)), name="stat")
            ops.SGD(0.0 if nesterov else 0.1, decay, nesterov)(var, ms.Tensor(g), s(0.1), m,
                                                               s(0.0 if op == "SGD0" else 0.9), stat)
            return [var.value(), m.value(), stat.value()]
        ops.AdamWeightDecay()(var, m, v, s(0.1), s(0.8), s(0.95), s(1e-6), s(decay), ms.Tensor(g))
        return [var.value(), m.value(), v.value()]
    return run


UPDATE_OPS = [("Adam", False, 0.0), ("Adam", True, 0.0), ("ApplyAdamWithAmsgrad", False, 0.0),
            ("AdamWeightDecay", False, 0.0), ("AdamWeightDecay", False, 0.01), ("SGD", False, 0.0),
            ("SGD", True, 0.01), ("SGD0", False, 0.01), ("ApplyRMSProp", False, 0.0),
            ("ApplyCenteredRMSProp", False, 0.0), ("ApplyAdagrad", False, 0.0), ("ApplyAdagrad0", False, 0.0)]


@pytest.mark.parametrize("tensors", [True, False])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op,nesterov,decay", UPDATE_OPS)
def test_update_primitives_give_the_cpu_kernels_results(target, op, nesterov, decay, dtype, tensors):
    if op in ("ApplyAdamWithAmsgrad", "SGD", "SGD0") and dtype == np.float64:
        pytest.skip(f"{op} takes float16 and float32, as MindSpore's")
    run = _update_call(op, dtype, tensors, nesterov, decay)
    want = _on("CPU", run)
    got = _on(target, run)
    _same(got, want, _tol(dtype), f"{op} {np.dtype(dtype).name}")


@pytest.fixture(scope="module")
def graph_modules():
    return cupy_sim.load_graph_modules()


@pytest.mark.parametrize("host_buffers", [False, True])
@pytest.mark.parametrize("tensors", [True, False])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op,nesterov,decay", UPDATE_OPS)
def test_update_primitives_plain_path_equals_the_fused_kernel(graph_modules, monkeypatch, op, nesterov, decay, dtype,
                                                        tensors, host_buffers):
    """The plain-CuPy twin (no ElementwiseKernel, fusion off, or Parameters still on the host) computes the same."""
    optim = next(f for f in graph_modules.families if f.__name__.endswith(".optim"))
    cp = graph_modules.cupy
    rng = np.random.default_rng(5)
    arrays = [rng.normal(size=(3, 4)).astype(dtype) for _ in range(2)] + \
        [np.abs(rng.normal(size=(3, 4))).astype(dtype) for _ in range(2)]
    g = cp.asarray(rng.normal(size=(3, 4)).astype(dtype))

    def s(x):
        return cp.asarray(np.array(x, np.float32)) if tensors else x
    prim = {"Adam": lambda: ops.Adam(use_nesterov=nesterov),
            "ApplyAdamWithAmsgrad": lambda: ops.ApplyAdamWithAmsgrad(0.9, 0.999, 1e-8),
            "AdamWeightDecay": ops.AdamWeightDecay,
            "SGD": lambda: ops.SGD(0.0 if nesterov else 0.1, decay, nesterov),
            "SGD0": lambda: ops.SGD(0.0 if nesterov else 0.1, decay, nesterov),
            "ApplyRMSProp": ops.ApplyRMSProp, "ApplyCenteredRMSProp": ops.ApplyCenteredRMSProp,
            "ApplyAdagrad": ops.ApplyAdagrad, "ApplyAdagrad0": lambda: ops.ApplyAdagrad(update_slots=False)}[op]()
    arrays[3] = (np.arange(12).reshape(3, 4) % 2).astype(dtype)      # SGD's stat: first step where 1
    results = []
    for fused in (True, False):
        monkeypatch.setattr(optim._common, "FUSED", fused)
        states = [a.copy() if host_buffers and not fused else cp.asarray(a) for a in arrays]
        var, m, v, vh = states
        if op == "Adam":
            args = (var, m, v, s(0.81), s(0.998), s(0.1), s(0.9), s(0.999), s(1e-8), g)
        elif op == "ApplyAdamWithAmsgrad":
            args = (var, m, v, vh, s(0.81), s(0.998), s(0.1), g)
        elif op == "AdamWeightDecay":
            args = (var, m, v, s(0.1), s(0.8), s(0.95), s(1e-6), s(decay), g)
        elif op == "ApplyRMSProp":
            args = (var, v, m, s(0.1), g, 0.8, 0.9, 1e-6)
        elif op == "ApplyCenteredRMSProp":
            args = (var, m, v, vh, g, s(0.1), 0.8, 0.9, 1e-6)
        elif op.startswith("ApplyAdagrad"):
            args = (var, v, s(0.1), g)
        else:
            args = (var, g, s(0.1), m, s(0.0 if op == "SGD0" else 0.9), vh)
        optim.KERNELS[op.rstrip("0")](prim, *args)
        results.append([cp.asnumpy(x) if isinstance(x, cp.ndarray) else np.asarray(x) for x in states])
    _same(results[1], results[0], _tol(dtype), f"{op} {np.dtype(dtype).name} plain")


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("op,nesterov,decay", UPDATE_OPS)
def test_update_primitives_are_one_launch_per_parameter(target, op, nesterov, decay, dtype):
    sgd = "ms_sgd" + ("_nesterov" if nesterov else "") + ("_decay" if decay else "")
    name = {"Adam": "ms_adam_nesterov" if nesterov else "ms_adam", "ApplyAdamWithAmsgrad": "ms_adam_amsgrad",
            "AdamWeightDecay": "ms_adam_weight_decay", "SGD": sgd, "SGD0": sgd, "ApplyRMSProp": "ms_rmsprop",
            "ApplyCenteredRMSProp": "ms_centered_rmsprop", "ApplyAdagrad": "ms_adagrad",
            "ApplyAdagrad0": "ms_adagrad_no_update"}[op]
    assert _kinds(_update_call(op, dtype, True, nesterov, decay), op.rstrip("0")) == [f"ElementwiseKernel {name}"]
    if op == "AdamWeightDecay":     # a decay given as a number 0 skips the decay term; with every scalar a host number
        # the kernel declares them float32 (CuPy decides a type placeholder from device arrays only)
        assert _kinds(_update_call(op, dtype, False, nesterov, 0.0), op) == [
            "ElementwiseKernel ms_adam_no_decay_S_float32"]


# --- LogSoftmax over the last axis: one hand-written kernel -----------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6, 7), (4, 3, 5), (2, 600)])
def test_log_softmax_gives_the_cpu_kernels_results_in_one_launch(target, dtype, shape):
    """The plain formula, (x - max) - log(sum(exp(x - max))), a block per row (rows wider than a block too), NaN and
    infinities in rows as the CPU gives them; its gradient through the same kernels. The CPU's float32 kernel is
    2.10's oneDNN one, where a NaN or +inf stays in its vector lane (a row comes out partly -inf) and a row of -inf
    gets a finite gradient: those rows are compared in float16 and float64 only."""
    x = _softmax_inputs(dtype, shape)
    if dtype == np.float32 and x.shape[0] >= 4:
        x = x[3:]
    w = np.random.default_rng(2).normal(size=x.shape).astype(dtype)

    def run():
        t = ms.Tensor(x)
        return [ops.log_softmax(t, -1), ms.grad(lambda a: (ops.log_softmax(a, -1) * ms.Tensor(w)).sum())(t)]
    kinds = _kinds(lambda: [ops.log_softmax(ms.Tensor(x), -1)], "LogSoftmax")
    assert kinds == ["RawKernel ms_log_softmax_rows"], kinds      # (float16 too: no casts)
    _same(_on(target, run), _on("CPU", run), _tol(dtype) * 10, f"log_softmax {np.dtype(dtype).name} {shape}")
