"""The native random fills of initial weights (the CPU backend's C++, offered through ``ms_random_fills``) give
exactly the bits of core's NumPy fills (``mindspore.common._philox``, itself checked against MindSpore 2.10 in
``test_init_streams_2_10.py``), whatever the thread count; core falls back to NumPy for a kind no plugin offers.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore._plugin import manager
from mindspore.common import _philox
from mindspore.common import initializer as init

kernels = pytest.importorskip("mindspore_cpu._kernels")

SIZES = (1, 3, 4, 5, 1031, 4099, 50001)
SEEDS = (0, 1, 12345, 2**63 - 1, 2**64 - 1)
ARGS = {"uniform": (-0.3, 1.7), "normal": (0.25, 1.5), "truncated_normal": (-1.0, 3.0, 0.5, 2.0),
        "truncated_normal_tail": (3.0, 9.0, 0.0, 1.0)}


@pytest.fixture
def threads():
    before = kernels.num_threads()
    yield kernels.set_num_threads
    kernels.set_num_threads(before)


@pytest.mark.parametrize("case", sorted(ARGS))
def test_cxx_fill_equals_numpy_fill_for_every_thread_count(case, threads):
    kind = case.replace("_tail", "")
    fill = manager.random_fill(kind)
    assert fill is getattr(kernels, "philox_" + kind)
    for size in SIZES:
        for seed in SEEDS:
            want = getattr(_philox, kind)(seed, size, *ARGS[case]).view(np.uint32)
            for nt in (1, 2, 3):
                threads(nt)
                got = np.full(size, np.nan, np.float32)
                fill(seed, got, *ARGS[case])
                np.testing.assert_array_equal(got.view(np.uint32), want, err_msg=f"{case} {size} {seed} {nt}")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
def test_initializers_draw_the_same_with_and_without_the_native_fill(dtype, monkeypatch):
    inits = [init.Normal(0.02), init.Uniform(0.1), init.TruncatedNormal(0.02), init.HeUniform(), init.XavierNormal()]

    def draw():
        np.random.seed(5)
        out = []
        for i in inits:
            arr = np.zeros((64, 33), dtype)
            i(arr)
            out.append(arr)
        return out

    native = draw()
    monkeypatch.setattr(manager, "random_fill", lambda kind: None)
    for got, want in zip(native, draw()):
        assert got.dtype == dtype
        np.testing.assert_array_equal(got, want)


def test_a_strided_float32_array_is_filled_in_c_order():
    np.random.seed(3)
    whole = np.zeros((6, 8), np.float32)
    init.Normal(1.0)(whole[:, ::2])
    np.random.seed(3)
    want = np.zeros((6, 4), np.float32)
    init.Normal(1.0)(want)
    np.testing.assert_array_equal(whole[:, ::2], want)
    assert not whole[:, 1::2].any()


class _UniformOnly:
    """A plugin offering only a uniform fill (recording its calls)."""

    def __init__(self):
        self.calls = []

    @ms.plugin.hookimpl
    def ms_plugin_info(self):
        return {"name": "uniform-only", "version": "1.0", "api_version": ms.plugin.PLUGIN_API_VERSION}

    @ms.plugin.hookimpl
    def ms_random_fills(self):
        def uniform(seed, out, a, b):
            self.calls.append((seed, out.shape, a, b))
            out[...] = _philox.uniform(seed, out.size, a, b).reshape(out.shape)
        return {"uniform": uniform}


@pytest.fixture
def only_plugin(monkeypatch):
    """Plugin discovery with entry points off (no backend's fills) and one plugin registered in code."""
    plugin = _UniformOnly()
    monkeypatch.setenv("MINDSPORE_PLUGINS_AUTOLOAD", "0")
    ms.plugin.register_plugin(plugin, "uniform-only")
    yield plugin
    ms.plugin.unregister_plugin("uniform-only")
    monkeypatch.delenv("MINDSPORE_PLUGINS_AUTOLOAD")
    manager.reset()


def test_a_kind_no_plugin_offers_falls_back_to_numpy(only_plugin):
    assert manager.random_fill("normal") is None and manager.random_fill("truncated_normal") is None
    np.random.seed(11)
    arr = np.zeros((5, 3), np.float32)
    init.Uniform(0.5)(arr)
    (seed, shape, a, b), = only_plugin.calls
    assert shape == (5, 3) and (a, b) == (-0.5, 0.5)
    np.random.seed(11)
    assert seed == np.random.randint(1, 2**63, dtype=np.int64)
    np.random.seed(11)
    normal = np.zeros(7, np.float32)
    init.Normal(0.3)(normal)
    np.testing.assert_array_equal(normal, _philox.normal(seed, 7, 0.0, 0.3))
    assert len(only_plugin.calls) == 1
