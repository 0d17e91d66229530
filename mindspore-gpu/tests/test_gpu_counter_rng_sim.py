"""The counter-based random streams of the GPU kernels (``kernels/_common.py`` ``counter_uniform``) and the dropouts
drawing from them, on the CuPy stand-in with its ``RawModule`` (the CUDA C built by g++ and run on the host):

* Philox4x32-10 as written here gives Random123's known-answer vectors, and the kernel's uniforms are that cipher's
  words (24 bits each) of consecutive counters from the stream's device state: one call continues where the last
  ended, past a grid's worth too (a thread's stride loop), and a size not a multiple of four drops the rest of its
  last group;
* the stream's position lives on the device (nothing read back), and ``set_seed`` rekeys the same buffer in place;
* Dropout is three launches (the draw, the counter's advance, one fused kernel: output and mask), its mask the draws
  below ``keep_prob``, in float16/32/64; bfloat16 and fusion off take CuPy's plain path (fusion off: cuRAND).

That graphs holding dropouts are captured, and replay the plain runs' numbers, is in ``test_gpu_graph_sim.py``.
"""
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
import mindspore as ms  # noqa: E402
from mindspore import ops  # noqa: E402
from mindspore.plugin import TensorSpec  # noqa: E402

pytestmark = cupy_sim.warning_marks()
_M32 = (1 << 32) - 1


def philox4x32_10(counter, key):
    """The Philox4x32-10 block cipher of four 32-bit counter words under two key words (Python integers)."""
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c0, 0xCD9E8D57 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0) & _M32, p1 & _M32, ((p0 >> 32) ^ c3 ^ k1) & _M32, p0 & _M32
        k0, k1 = (k0 + 0x9E3779B9) & _M32, (k1 + 0xBB67AE85) & _M32
    return c0, c1, c2, c3


def reference_uniforms(key, offset, n):
    """The stream's ``n`` uniforms from counter ``offset`` under the 64-bit ``key``."""
    out = []
    for q in range((n + 3) // 4):
        ctr = offset + q
        words = philox4x32_10((ctr & _M32, ctr >> 32, 0, 0), (key & _M32, key >> 32))
        out.extend((w >> 8) / 16777216.0 for w in words)
    return np.array(out[:n], np.float32)


def test_philox_gives_random123s_known_answers():
    assert philox4x32_10((0, 0, 0, 0), (0, 0)) == (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)
    assert philox4x32_10((_M32,) * 4, (_M32, _M32)) == (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)
    assert philox4x32_10((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0)) == \
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)


@pytest.fixture(scope="module")
def sim():
    graph = cupy_sim.load_graph_modules()
    families = {f.__name__.rsplit(".", 1)[-1]: f for f in graph.families}
    return graph.cupy, graph.common, families


def _kinds(fn):
    kinds = []
    prev, cupy_sim.LAUNCHES.listener = cupy_sim.LAUNCHES.listener, kinds.append
    try:
        return fn(), kinds
    finally:
        cupy_sim.LAUNCHES.listener = prev


def test_draws_continue_the_stream_on_the_device(sim, monkeypatch):
    cp, common, _ = sim
    ms.set_seed(5)
    prim = ops.Dropout(keep_prob=0.5)
    u1, kinds = _kinds(lambda: common.counter_uniform(prim, (3, 5)))       # 15: the last group's fourth word unused
    assert kinds == ["h2d", "RawKernel ms_philox_uniform", "RawKernel ms_philox_advance"], kinds   # (h2d: the key)
    state = common._COUNTERS[prim][1]
    key = int(cp.asnumpy(state)[0])
    assert u1.shape == (3, 5) and u1.dtype == np.float32
    np.testing.assert_array_equal(cp.asnumpy(u1).reshape(-1), reference_uniforms(key, 0, 15))
    monkeypatch.setattr(common, "_PHILOX_BLOCKS", 2)             # 2 blocks of 256 threads for 750 groups
    u2, kinds = _kinds(lambda: common.counter_uniform(prim, (3000,)))
    assert kinds == ["RawKernel ms_philox_uniform", "RawKernel ms_philox_advance"], kinds
    np.testing.assert_array_equal(cp.asnumpy(u2), reference_uniforms(key, 4, 3000))
    assert int(cp.asnumpy(state)[1]) == 4 + 750
    u = cp.asnumpy(u2)
    assert 0.0 <= u.min() and u.max() < 1.0 and abs(u.mean() - 0.5) < 0.03


def test_set_seed_rekeys_the_same_buffer(sim):
    cp, common, _ = sim
    ms.set_seed(7)
    prim = ops.Dropout(keep_prob=0.5)
    first = cp.asnumpy(common.counter_uniform(prim, (8,)))
    state = common._COUNTERS[prim][1]
    common.counter_uniform(prim, (8,))
    ms.set_seed(7)
    again, kinds = _kinds(lambda: common.counter_uniform(prim, (8,)))
    assert common._COUNTERS[prim][1] is state, "the buffer a captured graph reads is kept"
    assert kinds[0] == "h2d", kinds                                         # the new key and counter 0 written
    np.testing.assert_array_equal(cp.asnumpy(again), first)
    ms.set_seed(8)
    common.refresh_counter_stream(prim)                                      # (what a replay does first)
    assert int(cp.asnumpy(state)[1]) == 0
    assert not np.array_equal(cp.asnumpy(common.counter_uniform(prim, (8,))), first)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_dropout_is_three_launches(sim, dtype):
    cp, common, fams = sim
    ms.set_seed(3)
    prim = ops.Dropout(keep_prob=0.7)
    x = np.random.default_rng(1).standard_normal((16, 9)).astype(dtype)
    spec = (TensorSpec(x.shape, _ms_dtype(dtype)),) * 2
    xd = cp.asarray(x)
    fams["nn"].KERNELS["Dropout"](prim, xd, out=spec)                      # (the first call writes the key)
    (y, mask), kinds = _kinds(lambda: fams["nn"].KERNELS["Dropout"](prim, xd, out=spec))
    assert kinds == ["RawKernel ms_philox_uniform", "RawKernel ms_philox_advance", "ElementwiseKernel ms_dropout"], \
        kinds
    key = int(cp.asnumpy(common._COUNTERS[prim][1])[0])
    groups = (x.size + 3) // 4
    want_mask = (reference_uniforms(key, groups, x.size).reshape(x.shape) < np.float32(0.7)).astype(dtype)
    y, mask = cp.asnumpy(y), cp.asnumpy(mask)
    assert y.dtype == mask.dtype == dtype
    np.testing.assert_array_equal(mask, want_mask)
    np.testing.assert_array_equal(y, (x * want_mask * dtype(1 / 0.7)).astype(dtype))
    assert 0.5 < mask.mean() < 0.9


def _ms_dtype(dtype):
    return {np.float16: ms.float16, np.float32: ms.float32, np.float64: ms.float64}.get(dtype, ms.bfloat16)


@pytest.mark.parametrize("case", ["bfloat16", "fusion off"])
def test_dropout_plain_paths(sim, monkeypatch, case):
    """bfloat16: the counter stream's draws, CuPy's compare and products; fusion off: cuRAND's draws (no raw
    kernels), the same shapes, dtypes and keep rule."""
    cp, common, fams = sim
    dtype = np.dtype(ml_dtypes.bfloat16) if case == "bfloat16" else np.dtype(np.float32)
    if case == "fusion off":
        monkeypatch.setattr(common, "FUSED", False)
    ms.set_seed(4)
    prim = ops.Dropout(keep_prob=0.6)
    x = np.random.default_rng(2).standard_normal((32, 8)).astype(dtype)
    spec = (TensorSpec(x.shape, ms.bfloat16 if case == "bfloat16" else ms.float32),) * 2
    xd = cp.asarray(x)
    (y, mask), kinds = _kinds(lambda: fams["nn"].KERNELS["Dropout"](prim, xd, out=spec))
    assert ("RawKernel ms_philox_uniform" in kinds) is (case == "bfloat16"), kinds
    assert "ElementwiseKernel ms_dropout" not in kinds, kinds
    y, mask = cp.asnumpy(y), cp.asnumpy(mask)
    assert y.dtype == mask.dtype == dtype and set(np.unique(mask.astype(np.float32))) <= {0.0, 1.0}
    np.testing.assert_array_equal(y.astype(np.float32), (x * mask * dtype.type(1 / 0.6)).astype(np.float32))
    if case == "bfloat16":
        key = int(cp.asnumpy(common._COUNTERS[prim][1])[0])
        want = reference_uniforms(key, 0, x.size).reshape(x.shape) < np.float32(0.6)
        np.testing.assert_array_equal(mask.astype(np.float32), want.astype(np.float32))


def test_uniform_real_and_standard_normal_draw_from_the_counter_stream(sim):
    """UniformReal: the stream's uniforms; StandardNormal: Box-Muller on two halves of one draw (one fused kernel),
    mean 0 and standard deviation 1, no infinity (1 - u is never 0)."""
    cp, common, fams = sim
    random = fams["random"]
    ms.set_seed(6)
    uniform, normal = ops.UniformReal(seed=1), ops.StandardNormal(seed=2)
    u = cp.asnumpy(random.KERNELS["UniformReal"](uniform, (5, 7), out=TensorSpec((5, 7), ms.float32)))
    key = int(cp.asnumpy(common._COUNTERS[uniform][1])[0])
    np.testing.assert_array_equal(u.reshape(-1), reference_uniforms(key, 0, 35))
    z, kinds = _kinds(lambda: random.KERNELS["StandardNormal"](normal, (100, 100), out=TensorSpec((100, 100),
                                                                                                 ms.float32)))
    assert kinds == ["h2d", "RawKernel ms_philox_uniform", "RawKernel ms_philox_advance",
                     "ElementwiseKernel ms_box_muller"], kinds
    z = cp.asnumpy(z)
    key = int(cp.asnumpy(common._COUNTERS[normal][1])[0])
    a, b = reference_uniforms(key, 0, 20000).reshape(2, 100, 100)
    want = np.sqrt(np.float32(-2) * np.log(np.float32(1) - a)) * np.cos(np.float32(6.283185307179586) * b)
    np.testing.assert_allclose(z, want, rtol=1e-6, atol=1e-6)
    assert np.isfinite(z).all() and abs(z.mean()) < 0.03 and abs(z.std() - 1) < 0.03
