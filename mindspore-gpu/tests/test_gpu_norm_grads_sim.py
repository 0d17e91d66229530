"""The GPU kernels of LayerNormGrad and SoftmaxGrad (the primitives the bprops of LayerNorm and Softmax call) on the
CuPy stand-in with ``ElementwiseKernel`` offered, against the CPU kernels:

* each gives the CPU kernel's results in float16/float32/float64, with NaN and infinities, the normalised and the
  parameter axes apart, and empty tensors, and its fused kernels are what ran (LayerNormGrad in two launches, a
  hand-written row kernel and one reduction, SoftmaxGrad in one over the last axis and two over others);
* the paths without ReductionKernel, and the plain-CuPy twins (fusion off), give the fused kernels' results;
* grad of grad through LayerNorm and Softmax (a gradient penalty) gives the CPU's, so their bprops run on the GPU's
  kernels too.
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
from mindspore import ops  # noqa: E402
from mindspore.ops._defs.nn import LayerNormGrad, SoftmaxGrad  # noqa: E402

pytestmark = cupy_sim.warning_marks()

TOL = {np.float16: 2e-3, np.float32: 2e-5, np.float64: 1e-11}


_on = functools.partial(launch_count.run_on, ms)          # (target, thunk) -> NumPy arrays
_kinds = functools.partial(launch_count.kinds_of, ms)     # (thunk, primitive) -> launch kinds


@pytest.fixture(scope="module")
def target():
    name, _, _ = launch_count.install(ms)
    yield name
    launch_count.uninstall(ms)


@pytest.fixture(scope="module")
def graph():
    return cupy_sim.load_graph_modules()


@pytest.fixture(scope="module")
def nn_family(graph):
    return next(f for f in graph.families if f.__name__.endswith(".nn"))


def _same(got, want, tol, what):
    assert len(got) == len(want), what
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{what} output {i}: {g.dtype} {g.shape}, {w.dtype} {w.shape}"
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=f"{what} output {i}: NaN positions")
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True, err_msg=f"{what} output {i}")


# --- LayerNormGrad --------------------------------------------------------------------------------------------------
LN_LAYOUTS = [((4, 6), 1, 1), ((2, 3, 5), 2, 2), ((2, 3, 5), 1, 2), ((2, 3, 2, 2), 2, 1), ((3, 4), 1, 0),
              ((0, 5), 1, 1)]


def _ln_grad_inputs(dtype, shape, bna, bpa, special):
    rng = np.random.default_rng(1)
    stat = shape[:bna] + (1,) * (len(shape) - bna)
    x, dy = rng.normal(1, 2, shape).astype(dtype), rng.normal(size=shape).astype(dtype)
    # the mean is x's own, as LayerNorm gives it (MindSpore's CPU float16/float32 kernels centre x - mean on its row
    # sum, which the GPU's fused kernels leave out: 0 for the forward's mean)
    var = rng.uniform(0.5, 2, stat).astype(dtype)
    mean = x.astype(np.float64).mean(axis=tuple(range(bna, len(shape))), keepdims=True).astype(dtype) \
        if x.size else np.zeros(stat, dtype)
    gamma = rng.normal(size=shape[bpa:]).astype(dtype)
    if special and x.size:
        x.reshape(-1)[0] = np.nan
        dy.reshape(-1)[-1] = np.inf
    return [x, dy, var, mean, gamma]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,bna,bpa", LN_LAYOUTS)
@pytest.mark.parametrize("special", [False, True])
def test_layer_norm_grad_gives_the_cpu_kernels_results(target, dtype, shape, bna, bpa, special):
    arrays = _ln_grad_inputs(dtype, shape, bna, bpa, special)

    def run():     # an epsilon far from the default, so a kernel that dropped it would show
        return LayerNormGrad(bna, bpa, 0.25)(*[ms.Tensor(a) for a in arrays])
    what = f"LayerNormGrad {np.dtype(dtype).name} {shape} {bna} {bpa}"
    got, want = _on(target, run), _on("CPU", run)
    if dtype in (np.float16, np.float32) and special:
        # the CPU's float16/float32 kernels are MindSpore 2.10's, whose row sums turn the whole row of an infinite dy
        # into NaN:
        # the GPU's NaNs are among those, and the other values equal
        for i, (g, w) in enumerate(zip(got, want)):
            assert not (np.isnan(g) & ~np.isnan(w)).any(), f"{what} output {i}: NaN positions"
            both = ~np.isnan(g) & ~np.isnan(w)
            np.testing.assert_allclose(g[both], w[both], rtol=TOL[dtype], atol=TOL[dtype], err_msg=f"{what} output {i}")
        return
    _same(got, want, TOL[dtype], what)


def test_layer_norm_grad_runs_in_two_launches(target):
    """A block per row (its sums and its dx, a hand-written kernel), then dgamma and dbeta as one reduction; rows
    longer than a block too."""
    for shape in ((8, 16), (3, 700)):
        arrays = _ln_grad_inputs(np.float32, shape, 1, 1, False)

        def run():
            return LayerNormGrad(1, 1)(*[ms.Tensor(a) for a in arrays])
        assert _kinds(run, "LayerNormGrad") == ["RawKernel ms_ln_grad_rows", "ReductionKernel ms_ln_grad_param_sums"]
        _same(_on(target, run), _on("CPU", run), TOL[np.float32], f"LayerNormGrad {shape}")


def test_layer_norm_grad_with_no_axis_before_the_parameters_runs_in_four_launches(target):
    arrays = _ln_grad_inputs(np.float32, (8, 16), 1, 0, False)
    assert _kinds(lambda: LayerNormGrad(1, 0)(*[ms.Tensor(a) for a in arrays]), "LayerNormGrad") == [
        "ElementwiseKernel ms_ln_grad_terms", "cupy.sum", "cupy.sum", "ElementwiseKernel ms_ln_grad_dx"]


@pytest.mark.parametrize("path", ["terms", "plain"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,bna,bpa", LN_LAYOUTS[:-1])
def test_layer_norm_grad_other_paths_equal_the_reductions(graph, nn_family, monkeypatch, dtype, shape, bna, bpa,
                                                          path):
    """The four-launch path (no ReductionKernel) and the plain-CuPy one (fusion off) give the three-launch path's
    results, and so does the two-launch one (the hand-written row kernel) where the parameters have batch axes."""
    cp = graph.cupy
    arrays = [cp.asarray(a) for a in _ln_grad_inputs(dtype, shape, bna, bpa, True)]
    kernel = nn_family.KERNELS["LayerNormGrad"]
    raw = kernel(LayerNormGrad(bna, bpa, 0.25), *arrays)
    monkeypatch.setattr(nn_family._LN_GRAD_RAW, "available", False)
    rows, params = nn_family._ln_grad_reductions()
    before = (nn_family._LN_GRAD_DX.kernel.calls, rows.kernel.calls)
    fused = kernel(LayerNormGrad(bna, bpa, 0.25), *arrays)
    assert (nn_family._LN_GRAD_DX.kernel.calls, rows.kernel.calls) == (before[0] + 1, before[1] + (bpa > 0))
    _same([cp.asnumpy(a) for a in raw], [cp.asnumpy(a) for a in fused], TOL[dtype], "raw LayerNormGrad")
    monkeypatch.setattr(rows, "kernel", None)
    if path == "plain":
        monkeypatch.setattr(nn_family._LN_GRAD_DX, "kernel", None)
    other = kernel(LayerNormGrad(bna, bpa, 0.25), *arrays)
    _same([cp.asnumpy(a) for a in other], [cp.asnumpy(a) for a in fused], TOL[dtype], f"{path} LayerNormGrad")


# --- SoftmaxGrad ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((6, 7), -1), ((4, 3, 5), 1), ((4, 3, 5), (0, 2)), ((0, 5), -1)])
@pytest.mark.parametrize("special", [False, True])
def test_softmax_grad_gives_the_cpu_kernels_results(target, dtype, shape, axis, special):
    rng = np.random.default_rng(2)
    y, dy = rng.uniform(0, 1, shape).astype(dtype), rng.normal(size=shape).astype(dtype)
    if special and y.size:
        y.reshape(-1)[0] = np.nan
        dy.reshape(-1)[-1] = -np.inf

    def run():
        return SoftmaxGrad(axis)(ms.Tensor(y), ms.Tensor(dy))
    _same(_on(target, run), _on("CPU", run), TOL[dtype], f"SoftmaxGrad {np.dtype(dtype).name} {shape} {axis}")


def test_softmax_grad_runs_in_one_launch_over_the_last_axis_and_two_over_others(target):
    y = np.random.default_rng(3).uniform(0, 1, (8, 16)).astype(np.float32)
    assert _kinds(lambda: SoftmaxGrad()(ms.Tensor(y), ms.Tensor(y)), "SoftmaxGrad") == [
        "RawKernel ms_softmax_grad_rows"]
    assert _kinds(lambda: SoftmaxGrad(0)(ms.Tensor(y), ms.Tensor(y)), "SoftmaxGrad") == [
        "ReductionKernel ms_softmax_grad_sum", "ElementwiseKernel ms_softmax_grad"]


@pytest.mark.parametrize("path", ["no reduction", "plain"])
@pytest.mark.parametrize("axis", [-1, 0, (0, 1)])
def test_softmax_grad_other_paths_equal_the_reduction(graph, nn_family, monkeypatch, path, axis):
    cp = graph.cupy
    rng = np.random.default_rng(4)
    y, dy = cp.asarray(rng.uniform(0, 1, (5, 600))), cp.asarray(rng.normal(size=(5, 600)))
    raw = nn_family.KERNELS["SoftmaxGrad"](SoftmaxGrad(axis), y, dy)      # (the last axis: the raw kernel)
    monkeypatch.setattr(nn_family._SOFTMAX_GRAD_RAW, "available", False)
    reduction = nn_family._softmax_grad_sum()
    before = reduction.kernel.calls
    fused = nn_family.KERNELS["SoftmaxGrad"](SoftmaxGrad(axis), y, dy)
    assert reduction.kernel.calls == before + 1
    np.testing.assert_allclose(cp.asnumpy(raw), cp.asnumpy(fused), rtol=1e-12, atol=1e-12)
    monkeypatch.setattr(reduction, "kernel", None)
    if path == "plain":
        monkeypatch.setattr(nn_family._SOFTMAX_GRAD, "kernel", None)
    other = nn_family.KERNELS["SoftmaxGrad"](SoftmaxGrad(axis), y, dy)
    np.testing.assert_allclose(cp.asnumpy(other), cp.asnumpy(fused), rtol=1e-12, atol=1e-12)


# --- grad of grad ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [1, 2])
def test_a_gradient_penalty_through_layer_norm_and_softmax_gives_the_cpus(target, axis):
    rng = np.random.default_rng(5)
    shape = (3, 4, 5)
    x, w = rng.normal(1, 2, shape).astype(np.float32), rng.normal(size=shape).astype(np.float32)
    gamma, beta = rng.normal(size=shape[axis:]).astype(np.float32), rng.normal(size=shape[axis:]).astype(np.float32)

    def run():
        ln = ops.LayerNorm(axis, axis, 1e-5)
        wt = ms.Tensor(w)

        def f(a, g, b):
            return (ops.softmax(ln(a, g, b)[0], axis=-1) * wt).sum()

        def penalty(a, g, b):
            ga, gg, gb = ms.grad(f, grad_position=(0, 1, 2))(a, g, b)
            return (ga * ga).sum() + (gg * gg).sum() + (gb * ga.sum()).sum()
        return ms.grad(penalty, grad_position=(0, 1, 2))(ms.Tensor(x), ms.Tensor(gamma), ms.Tensor(beta))
    _same(_on(target, run), _on("CPU", run), 1e-4, f"gradient penalty, axis {axis}")
