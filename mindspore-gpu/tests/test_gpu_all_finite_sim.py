"""The overflow checks' GPU kernels (``kernels/debug.py``) on the CuPy stand-in with its ``RawModule`` (hand-written
CUDA C run by g++ on the host, as a GPU runs it). AllFinite: the overflow check of a loss-scaled step as one launch per
16 float32/float64 gradients of a dtype raising one flag, and CuPy's ``isfinite(x).all()`` for the other dtypes.
UnscaleAndCheckFinite: 16 gradients of a dtype unscaled and checked in one launch (float32/float64), the products
those of CuPy's multiply bit for bit, in the gradients' order.

* an inf or a NaN anywhere (first, middle, last element; in the first, a middle or the last input; past what one
  grid covers, so a thread's stride loop reaches it) is seen, and finite inputs give True;
* the launches: one zeroed flag, one ``ms_nonfinite_many`` per 16 float32/float64 inputs of a dtype, one comparison;
  integer and empty inputs take none; a float16 input, a strided view and fusion off take CuPy's path, with the same
  answers; 40 gradients of two dtypes, interleaved, take one launch per 16 of a dtype, a non-finite value in any of
  them is seen and each product lands in its gradient's place.

Its conformance cases (``tests/conformance/cases_core.py``) run on the stand-in without ``RawModule`` (the plain path)
in ``test_gpu_kernels_sim.py``; NVRTC compiles the kernel's source in ``test_gpu_conv_bn_pool_fused_sim.py``.
"""
import pathlib
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
from mindspore import ops  # noqa: E402
from mindspore.common import dtype as mstype  # noqa: E402
from mindspore.plugin import TensorSpec  # noqa: E402

pytestmark = cupy_sim.warning_marks()
OUT = TensorSpec((), mstype.bool_)


@pytest.fixture(scope="module")
def sim():
    graph = cupy_sim.load_graph_modules()
    families = {f.__name__.rsplit(".", 1)[-1]: f for f in graph.families}
    return graph.cupy, families["debug"]


def _run(debug, inputs):
    """(the kernel's answer as a Python bool, the launch kinds it took)."""
    kinds = []
    counter = cupy_sim.LAUNCHES
    prev, counter.listener = counter.listener, kinds.append
    try:
        y = debug.KERNELS["AllFinite"](ops.AllFinite(), inputs, out=OUT)
    finally:
        counter.listener = prev
    assert y.shape == () and y.dtype == np.bool_
    return bool(y.item()), kinds


def _inputs(cp, dtype, bad=None):
    """Three inputs (a small matrix, one of 2000 elements, one of 70) in ``dtype``; ``bad`` = (input, flat index,
    value) puts an inf or NaN there."""
    rng = np.random.default_rng(3)
    arrays = [rng.normal(0, 2, s).astype(dtype) for s in ((3, 4), (40, 50), (70,))]
    if bad is not None:
        which, index, value = bad
        arrays[which].flat[index] = value
    return tuple(cp.asarray(a) for a in arrays)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("bad", [None, (0, 0, np.inf), (1, 1000, np.nan), (1, 1999, -np.inf), (2, 69, np.nan)])
def test_one_launch_for_the_gradients_of_a_dtype(sim, dtype, bad):
    cp, debug = sim
    got, kinds = _run(debug, _inputs(cp, dtype, bad))
    assert got is (bad is None)
    assert kinds == ["cupy.zeros", "RawKernel ms_nonfinite_many", "ufunc equal"], kinds


def _many(cp, count=40):
    """``count`` gradients of sizes 1..., float32 and float64 interleaved (every third float64)."""
    rng = np.random.default_rng(5)
    return [cp.asarray(rng.normal(0, 1, (i % 7 + 1, 3 * i + 1)).astype(np.float64 if i % 3 == 0 else np.float32))
            for i in range(count)]


@pytest.mark.parametrize("bad", [None, 0, 17, 38, 39])
def test_many_gradients_one_launch_per_sixteen_of_a_dtype(sim, bad):
    """40 gradients: 26 float32 (2 launches) and 14 float64 (1 launch); an inf in the first, a middle, the last
    float64 (39) or the last float32 (38) gradient is seen."""
    cp, debug = sim
    grads = _many(cp)
    if bad is not None:
        grads[bad][-1, -1] = np.inf
    got, kinds = _run(debug, tuple(grads))
    assert got is (bad is None), bad
    assert kinds.count("RawKernel ms_nonfinite_many") == 3 and len(kinds) == 5, kinds


def test_a_value_past_one_grid_is_seen(sim, monkeypatch):
    """With two blocks for 2000 elements each thread strides over four: the last element is still read."""
    cp, debug = sim
    monkeypatch.setattr(debug, "_MAX_BLOCKS", 2)
    assert _run(debug, _inputs(cp, np.float32, (1, 1999, np.inf)))[0] is False
    assert _run(debug, _inputs(cp, np.float32, (1, 1500, np.nan)))[0] is False
    assert _run(debug, _inputs(cp, np.float32))[0] is True


def test_integers_and_empty_inputs_launch_nothing(sim):
    cp, debug = sim
    inputs = (cp.asarray(np.arange(6, dtype=np.int32)), cp.asarray(np.zeros((0, 3), np.float32)),
              cp.asarray(np.array([True, False])))
    got, kinds = _run(debug, inputs)
    assert got is True and kinds == ["cupy.zeros", "ufunc equal"], kinds
    assert _run(debug, ())[0] is True


@pytest.mark.parametrize("case", ["float16", "strided", "fusion off"])
def test_other_inputs_take_cupys_path(sim, monkeypatch, case):
    cp, debug = sim
    if case == "fusion off":
        monkeypatch.setitem(debug.RawKernels.usable.__globals__, "FUSED", False)
    for bad, want in ((None, True), ((1, 1234, np.inf), False), ((2, 0, np.nan), False)):
        inputs = _inputs(cp, np.float16 if case == "float16" else np.float32, bad)
        if case == "strided":
            inputs = (inputs[0], inputs[1].T, inputs[2])
        got, kinds = _run(debug, inputs)
        assert got is want, (case, bad)
        assert kinds.count("RawKernel ms_nonfinite_many") == {"float16": 0, "strided": 1, "fusion off": 0}[case], kinds
        assert "ufunc isfinite" in kinds, kinds


# --- UnscaleAndCheckFinite --------------------------------------------------------------------------------------------
def _unscale(cp, debug, grads, scale):
    """(the products as NumPy arrays, the flag as a bool, the launch kinds)."""
    kinds = []
    counter = cupy_sim.LAUNCHES
    prev, counter.listener = counter.listener, kinds.append
    try:
        outs = debug.KERNELS["UnscaleAndCheckFinite"](ops.UnscaleAndCheckFinite(), grads, scale, out=None)
    finally:
        counter.listener = prev
    assert outs[-1].shape == () and outs[-1].dtype == np.bool_
    return [cp.asnumpy(o) for o in outs[:-1]], bool(outs[-1].item()), kinds


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("bad", [None, (0, 0, np.inf), (1, 1999, np.nan)])
def test_unscale_and_check_in_one_launch(sim, dtype, bad):
    cp, debug = sim
    grads = _inputs(cp, dtype, bad)
    scale = cp.asarray(np.array([1.0 / 1024], dtype))      # (shape (1,): a loss scale Parameter of that shape)
    got, finite, kinds = _unscale(cp, debug, grads, scale)
    assert finite is (bad is None)
    assert kinds == ["cupy.zeros", "RawKernel ms_unscale_check_many", "ufunc equal"], kinds
    for y, g in zip(got, grads):
        want = cp.asnumpy(g) * dtype(1.0 / 1024)
        assert y.dtype == want.dtype and y.shape == want.shape
        np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("bad", [None, 0, 20, 38, 39])
def test_many_gradients_unscaled_in_their_places(sim, bad):
    """40 gradients of two dtypes, interleaved: 3 launches; each product (float32 by the float32 scale, float64 by
    the float64 one) lands in its own gradient's place; a NaN in any chunk is seen."""
    cp, debug = sim
    grads = _many(cp)
    if bad is not None:
        grads[bad][0, 0] = np.nan
    scale = cp.asarray(np.float32(1.0 / 3))
    got, finite, kinds = _unscale(cp, debug, tuple(grads), scale)
    assert finite is (bad is None), bad
    assert kinds.count("RawKernel ms_unscale_check_many") == 3, kinds
    for y, g in zip(got, grads):
        g = cp.asnumpy(g)
        np.testing.assert_array_equal(y, g * g.dtype.type(np.float32(1.0 / 3)))
        assert y.dtype == g.dtype


def test_unscale_overflow_made_by_the_product_past_one_grid(sim, monkeypatch):
    """Finite gradients whose product overflows (a scale above 1) count, where a thread's stride loop reaches them."""
    cp, debug = sim
    monkeypatch.setattr(debug, "_MAX_BLOCKS", 2)
    grads = _inputs(cp, np.float32, (1, 1999, 3e38))
    got, finite, _ = _unscale(cp, debug, grads, cp.asarray(np.float32(2.0)))
    assert finite is False and np.isinf(got[1][-1, -1]) and np.isfinite(got[0]).all()
    _, finite, _ = _unscale(cp, debug, grads, cp.asarray(np.float32(0.5)))
    assert finite is True


def test_unscale_of_other_gradients_takes_cupys_path(sim):
    """float16 gradients (the scale cast once per dtype), a strided view, a 0-d and an empty one: CuPy's multiply,
    the same products."""
    cp, debug = sim
    half = cp.asarray(np.array([[1.5, -2.0], [65504.0, 4.0]], np.float16))
    view = cp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4)).T
    scalar = cp.asarray(np.float32(6.0))
    empty = cp.asarray(np.zeros((0, 2), np.float32))
    scale = cp.asarray(np.float32(0.25))
    got, finite, kinds = _unscale(cp, debug, (half, view, scalar, empty), scale)
    assert finite is True
    np.testing.assert_array_equal(got[0], cp.asnumpy(half) * np.float16(0.25))
    assert got[0].dtype == np.float16 and got[2].shape == () and got[3].shape == (0, 2)
    np.testing.assert_array_equal(got[1], cp.asnumpy(view) * np.float32(0.25))
    assert kinds.count("RawKernel ms_unscale_check_many") == 1, kinds    # the 0-d one (view and empty: CuPy)
    _, finite, _ = _unscale(cp, debug, (half,), cp.asarray(np.float32(4.0)))      # 65504 * 4 overflows float16
    assert finite is False
