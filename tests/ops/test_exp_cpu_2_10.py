"""float32 Exp on the CPU is MindSpore 2.10's bit for bit: nnacl's polynomial exp (input clamped to [log(FLT_MIN),
log(FLT_MAX)], n = floor(x log2(e) + 1/2), a degree-5 polynomial of d = x - n ln2 in fused multiply-adds, then
(2^(n-1) t) * 2; NaN kept), which differs from NumPy's correctly rounded exp by an ulp in most values and flushes
results below about 2**-126 to 0. 17,014 values recorded on 2.10 (``tests/fixtures/exp_f32/record.py``), through the
operator, a fused GRAPH_MODE chain, and the C++ kernel's vector and portable paths on 1-3 threads."""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

pytestmark = pytest.mark.cpu_backend

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "exp_f32" / "exp_f32_2.10.npz"


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURE) as z:
        return z["x"], z["y"]


def _same_bits(got, want):
    return np.array_equal(got.view(np.uint32)[~np.isnan(want)], want.view(np.uint32)[~np.isnan(want)]) and \
        np.array_equal(np.isnan(got), np.isnan(want))


def test_exp_is_2_10s(recorded):
    x, want = recorded
    got = ops.exp(ms.Tensor(x)).asnumpy()
    assert _same_bits(got, want)
    with np.errstate(over="ignore"):
        assert not _same_bits(np.exp(x), want)      # NumPy's exp is not 2.10's: the test can tell


def test_exp_in_a_fused_graph_chain_is_the_kernels(recorded):
    x, want = recorded
    before = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = ms.jit(lambda a: ops.exp(a * 1.0) + 0.0)(ms.Tensor(x)).asnumpy()
    finally:
        ms.set_context(mode=before)
    assert _same_bits(got, want)


@pytest.mark.parametrize("isa", ["auto", "portable"])
def test_every_path_and_thread_count_gives_the_same_bits(recorded, isa):
    x, want = recorded
    code = ("import numpy as np, sys\n"
            "from mindspore_cpu.kernels._native import _kernels\n"
            "x, want = np.load(sys.argv[1])['x'], np.load(sys.argv[1])['y']\n"
            "big = np.tile(x, 4)\n"
            "for t in (1, 2, 3):\n"
            "    _kernels.set_num_threads(t)\n"
            "    got = _kernels.exp_f32(big)\n"
            "    ok = np.array_equal(np.isnan(got), np.isnan(np.tile(want, 4)))\n"
            "    ok &= np.array_equal(got[~np.isnan(got)].view(np.uint32), np.tile(want, 4)[~np.isnan(got)].view(np.uint32))\n"
            "    assert ok, t\n"
            "print('ok')\n")
    env = dict(os.environ)
    env.pop("MINDSPORE_CPU_ORDERED_ISA", None)
    if isa == "portable":
        env["MINDSPORE_CPU_ORDERED_ISA"] = "portable"
    out = subprocess.run([sys.executable, "-c", code, str(FIXTURE)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_a_0d_and_a_strided_input_keep_their_shapes(recorded):
    x, want = recorded
    assert _same_bits(ops.exp(ms.Tensor(x[5])).asnumpy().reshape(1), want[5:6])
    assert ops.exp(ms.Tensor(x[5])).shape == ()
    grid = ms.Tensor(x[:1000].reshape(20, 50))[:, ::3]
    assert _same_bits(ops.exp(grid).asnumpy(), want[:1000].reshape(20, 50)[:, ::3].copy())


def test_other_dtypes_keep_numpys_exp():
    x = np.array([0.5, -3.0, 20.0], np.float64)
    np.testing.assert_array_equal(ops.exp(ms.Tensor(x)).asnumpy(), np.exp(x))
