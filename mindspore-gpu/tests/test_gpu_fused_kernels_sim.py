"""Max pooling's fused steps (one ``ElementwiseKernel`` per kernel offset, ``kernels/pooling.py`` ``_STEPS``) on the
stand-in, whose ``ElementwiseKernel`` evaluates their CUDA C with NumPy: every pooling edge case of
``test_gpu_kernels_sim.py`` (NaN under each of MindSpore 2.10's rules, ties, signed zeros, +-inf, windows in the
padding, 2-D and 3-D, gradients) gives the CPU kernels' values and indices bit for bit, through the fused kernels.
"""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
import test_gpu_kernels_sim as base  # noqa: E402

TARGET = "GPUSIMF"
GRAPH = cupy_sim.load_graph_modules()
POOLING = {f.__name__.rsplit(".", 1)[-1]: f for f in GRAPH.families}["pooling"]
CASES = sorted(name for name in base.EDGE_CASES if "maxpool" in name and "adaptive" not in name)

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.fixture(scope="module")
def fused_plugin():
    plugin = cupy_sim.make_plugin(TARGET, GRAPH.families)
    ms.plugin.register_plugin(plugin, TARGET.lower())
    yield plugin
    ms.plugin.unregister_plugin(TARGET.lower())


def _calls():
    return sum(step.kernel.calls for step in POOLING._STEPS.values())


def test_the_steps_are_elementwise_kernels_on_this_stand_in():
    assert CASES and all(step.kernel is not None for step in POOLING._STEPS.values())


@pytest.mark.parametrize("name", CASES)
def test_fused_max_pooling_gives_the_cpu_kernels_bits(fused_plugin, name):
    fn, arrays = base.EDGE_CASES[name]
    want = base._on("CPU", fn, arrays)
    before = _calls()
    got = base._on(TARGET, fn, arrays)
    assert _calls() > before, "the fused steps ran"
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, f"{name} output {i}"
        if w.dtype.kind == "f" and "grad" not in name:
            # values picked from the input: the same numbers, NaN where NaN, the same zero's sign
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {i}")
            assert np.array_equal(np.signbit(g), np.signbit(w)), f"{name} output {i}: the sign of a zero"
        elif w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6, equal_nan=True, err_msg=f"{name} output {i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {i}")
