"""On a GPU (CuPy and a device; skipped elsewhere): the fused kernels (ElementwiseKernels, ReductionKernels and the
hand-written RawKernels) of LayerNorm, LayerNormGrad, SoftmaxGrad, float32 last-axis Softmax and
SparseSoftmaxCrossEntropyWithLogits compile with CUDA and give their plain-CuPy twins' results (the stand-in runs the
same comparisons in ``test_gpu_norm_grads_sim.py`` and ``test_gpu_launches_sim.py``)."""
import pathlib
import sys

import numpy as np
import pytest

from mindspore import ops
from mindspore.ops._defs.nn import LayerNormGrad, SoftmaxGrad
from mindspore_gpu import plugin

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402  (COMPILE_FAILURES_FAIL)

needs_gpu = pytest.mark.skipif(not plugin.probe().available,
                               reason=f"GPU target unavailable: {plugin.probe().reason}")
# a fused or hand-written kernel NVRTC refuses fails these tests, instead of turning fusion off so that both sides of
# a comparison take the plain path
pytestmark = pytest.mark.filterwarnings(cupy_sim.COMPILE_FAILURES_FAIL)


def _fused_and_plain(monkeypatch, fn):
    from mindspore_gpu.kernels import _common
    fused = fn()
    monkeypatch.setattr(_common, "FUSED", False)
    try:
        plain = fn()
    finally:
        monkeypatch.setattr(_common, "FUSED", True)
    as_tuple = (lambda r: r if isinstance(r, tuple) else (r,))
    return as_tuple(fused), as_tuple(plain)


def _families():
    from mindspore_gpu.kernels import families
    return {f.__name__.rsplit(".", 1)[-1]: f for f in families()}


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,bna,bpa", [((64, 33), 1, 1), ((4, 16, 24), 2, 1), ((4, 16, 24), 1, 2)])
def test_layer_norm_grad_fused_matches_plain(monkeypatch, dtype, shape, bna, bpa):
    import cupy
    rng = np.random.default_rng(1)
    stat = shape[:bna] + (1,) * (len(shape) - bna)
    args = [cupy.asarray(a.astype(dtype)) for a in (rng.normal(1, 2, shape), rng.normal(size=shape),
                                                    rng.uniform(0.5, 2, stat), rng.normal(size=stat),
                                                    rng.normal(size=shape[bpa:]))]
    kernel = _families()["nn"].KERNELS["LayerNormGrad"]
    fused, plain = _fused_and_plain(monkeypatch, lambda: kernel(LayerNormGrad(bna, bpa, 0.25), *args))
    for a, b in zip(fused, plain):
        assert a.dtype == b.dtype == dtype and a.shape == b.shape
        np.testing.assert_allclose(cupy.asnumpy(a), cupy.asnumpy(b), rtol=1e-5, atol=1e-5)


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape,axis", [((64, 33), 1), ((4, 16, 24), 2), ((4, 16, 24), 1)])
def test_layer_norm_fused_matches_plain(monkeypatch, dtype, shape, axis):
    import cupy
    rng = np.random.default_rng(5)
    args = [cupy.asarray(a.astype(dtype)) for a in (rng.normal(1, 2, shape), rng.normal(size=shape[axis:]),
                                                    rng.normal(size=shape[axis:]))]
    kernel = _families()["nn"].KERNELS["LayerNorm"]
    fused, plain = _fused_and_plain(monkeypatch, lambda: kernel(ops.LayerNorm(axis, axis, 1e-5), *args))
    for a, b in zip(fused, plain):
        assert a.dtype == b.dtype == dtype and a.shape == b.shape
        np.testing.assert_allclose(cupy.asnumpy(a), cupy.asnumpy(b), rtol=1e-5, atol=1e-5)


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_grad_fused_matches_plain(monkeypatch, dtype):
    import cupy
    rng = np.random.default_rng(2)
    y = cupy.asarray(rng.uniform(0, 1, (64, 33)).astype(dtype))
    dy = cupy.asarray(rng.normal(size=(64, 33)).astype(dtype))
    kernel = _families()["nn"].KERNELS["SoftmaxGrad"]
    fused, plain = _fused_and_plain(monkeypatch, lambda: kernel(SoftmaxGrad(), y, dy))
    np.testing.assert_allclose(cupy.asnumpy(fused[0]), cupy.asnumpy(plain[0]), rtol=1e-6, atol=1e-6)


@needs_gpu
def test_softmax_fused_matches_plain_with_nan_and_infinities(monkeypatch):
    import cupy
    x = np.random.default_rng(3).normal(0, 3, (8, 40)).astype(np.float32)
    x[0, 1] = np.nan
    x[1, 2] = np.inf
    x[2] = -np.inf
    x[3, 0] = -np.inf
    x[4, 3], x[4, 5] = np.nan, np.inf
    kernel = _families()["nn"].KERNELS["Softmax"]
    fused, plain = _fused_and_plain(monkeypatch, lambda: kernel(ops.Softmax(-1), cupy.asarray(x)))
    got, want = cupy.asnumpy(fused[0]), cupy.asnumpy(plain[0])
    # NaN and zero where the plain path has them; other values to the last bits (the raw kernel sums a row as a
    # tree, CuPy's reduction in another order: one value of the H200's run differed by 1.3e-7 relative)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(got == 0, want == 0)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=0)


@needs_gpu
def test_sparse_cross_entropy_fused_matches_plain_with_a_bad_label(monkeypatch):
    import cupy
    rng = np.random.default_rng(4)
    x = cupy.asarray(rng.normal(size=(16, 10)).astype(np.float32))
    labels = cupy.asarray(np.array([3, 12, -1] + [1] * 13, np.int32))   # two out of range: no error on the GPU
    kernel = _families()["loss"].KERNELS["SparseSoftmaxCrossEntropyWithLogits"]
    for is_grad in (False, True):
        prim = ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=is_grad)
        fused, plain = _fused_and_plain(monkeypatch, lambda: kernel(prim, x, labels))
        np.testing.assert_allclose(cupy.asnumpy(fused[0]), cupy.asnumpy(plain[0]), rtol=1e-6, atol=1e-7)
