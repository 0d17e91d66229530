"""CPU float32 LogSoftmax (``ops.log_softmax``, ``nn.LogSoftmax``) and its gradient (LogSoftmaxGrad, which 2.10's
bprop calls), bit for bit as MindSpore 2.10's CPU computes them.

2.10 runs oneDNN 3.10's softmax_log primitive and then sets positive outputs to 0; the gradient is oneDNN's backward
primitive. oneDNN compiles its kernels for the CPU, so 2.10's bits depend on the machine: the sums run over 16 lanes
with AVX-512 and over 8 on an AVX2-only CPU (or under ``ONEDNN_MAX_CPU_ISA=AVX2``), and the gradient has a JIT kernel
only with AVX-512 over the last axis (oneDNN's reference kernel elsewhere). Ours takes the width of the CPU it runs
on, as 2.10 would (``mindspore_cpu/_csrc/log_softmax.cpp``), and computes either on any CPU. Outputs recorded with
2.10 for both widths by ``tests/fixtures/log_softmax/record_log_softmax.py``, which this test imports for the cases.

2.10's ``ops.cross_entropy`` and ``nn.CrossEntropyLoss`` do not call LogSoftmax (they compute ``x - logsumexp(x)``
from Exp, ReduceSum and Log, nnacl's float32 kernels all three, as ours are): recorded with the rest."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore_cpu import _kernels as K
from mindspore_cpu.kernels import nn as cpu_nn

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "log_softmax"
_spec = importlib.util.spec_from_file_location("record_log_softmax", _DIR / "record_log_softmax.py")
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)
RECORDED = dict(np.load(_DIR / "log_softmax_2.10.npz"))
CASES = {case: (x, axis) for case, x, axis in rec.cases()}
LOSSES = {case: (kind, x, t) for case, kind, x, t in rec.loss_cases()}
GRADS = {case: (kind, x, dy, axis) for case, kind, x, dy, axis in rec.grad_cases()}


def _want(case, lanes):
    return RECORDED.get(f"out{lanes}:{case}", RECORDED[f"out16:{case}"])   # out8 only where it differs


def _same_bits(got, want):
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    assert bad.size == 0, f"{bad.size} of {got.size} differ, e.g. {got.ravel()[bad[:3]]} vs 2.10's " \
                          f"{want.ravel()[bad[:3]]}"


def test_cases_are_the_recorded_ones():
    for case, (x, axis) in CASES.items():
        np.testing.assert_array_equal(x, RECORDED[f"in:{case}"])
        assert int(RECORDED[f"axis:{case}"]) == axis
    assert len(CASES) == 100
    for case, (kind, x, dy, axis) in GRADS.items():
        np.testing.assert_array_equal(x, RECORDED[f"in:{case}"])
        np.testing.assert_array_equal(dy, RECORDED[f"dy:{case}"])
        assert int(RECORDED[f"axis:{case}"]) == axis


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_log_softmax_matches_2_10_on_this_cpu(mode, cpu_mode):
    cpu_mode(mode)
    lanes = cpu_nn._log_softmax_lanes()
    for case, (x, axis) in CASES.items():
        got = ops.log_softmax(Tensor(x), axis).asnumpy()
        _same_bits(got, _want(case, lanes))
        if case.startswith(("special", "last_3", "axis")):
            _same_bits(nn.LogSoftmax(axis)(Tensor(x)).asnumpy(), _want(case, lanes))


@pytest.mark.parametrize("lanes", [16, 8])
def test_both_widths_match_2_10(lanes):
    # 17 of the cases have different bits in 8 lanes (AVX2) than in 16 (AVX-512)
    for case, (x, axis) in CASES.items():
        _same_bits(K.log_softmax_f32(x, axis, lanes), _want(case, lanes))
    assert sum(f"out8:{case}" in RECORDED for case in CASES) == 17


@pytest.mark.parametrize("lanes", [16, 8])
def test_log_softmax_grad_both_widths_match_2_10(lanes):
    for case, (kind, y, dy, axis) in GRADS.items():
        if kind == "grad":
            _same_bits(K.log_softmax_grad_f32(y, dy, axis, lanes), _want(case, lanes))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_log_softmax_grad_matches_2_10_on_this_cpu(mode, cpu_mode):
    from mindspore.ops.operations import _grad_ops
    cpu_mode(mode)
    lanes = cpu_nn._log_softmax_lanes()
    for case, (kind, x, dy, axis) in GRADS.items():
        if kind == "grad":
            got = _grad_ops.LogSoftmaxGrad(axis)(Tensor(x), Tensor(dy))
        else:
            got = ms.grad(lambda v: (ops.log_softmax(v, axis) * Tensor(dy)).sum())(Tensor(x))
        _same_bits(got.asnumpy(), _want(case, lanes))


def test_log_softmax_grad_second_order():
    # LogSoftmaxGrad's own bprop against central differences in float64
    from mindspore.ops.operations import _grad_ops
    rng = np.random.RandomState(4)
    y, dy, a = rng.randn(3, 5) * 0.5, rng.randn(3, 5), rng.randn(3, 5)
    prim = _grad_ops.LogSoftmaxGrad(-1)

    def loss(y_, dy_):
        return (prim(y_, dy_) * Tensor(a)).sum()
    g_y, g_dy = ms.grad(loss, grad_position=(0, 1))(Tensor(y), Tensor(dy))

    def f(y_, dy_):
        return float((a * (dy_ - np.exp(y_) * dy_.sum(-1, keepdims=True))).sum())
    eps = 1e-6
    for got, which in ((g_y.asnumpy(), 0), (g_dy.asnumpy(), 1)):
        num = np.zeros_like(y)
        for idx in np.ndindex(y.shape):
            args = [y.copy(), dy.copy()]
            args[which][idx] += eps
            hi = f(*args)
            args[which][idx] -= 2 * eps
            num[idx] = (hi - f(*args)) / (2 * eps)
        np.testing.assert_allclose(got, num, rtol=1e-6, atol=1e-8)


def test_cross_entropy_losses_match_2_10(cpu_mode):
    # 2.10 composes x - logsumexp(x) from its Exp, ReduceSum and Log kernels (nnacl's), not LogSoftmax
    cpu_mode(ms.PYNATIVE_MODE)
    lanes = cpu_nn._log_softmax_lanes()
    for case, (kind, x, t) in LOSSES.items():
        if kind == "smooth":
            got = nn.CrossEntropyLoss(label_smoothing=0.1)(Tensor(x), Tensor(t))
        else:
            got = ops.cross_entropy(Tensor(x), Tensor(t))
        _same_bits(got.asnumpy(), _want(case, lanes))


def test_lanes_follow_the_cpu_and_onednn_cap(monkeypatch):
    cached = list(cpu_nn._LOG_SOFTMAX_LANES)
    try:
        for cap, want in (("AVX2", 8), ("avx2_vnni", 8), ("AVX512_CORE", K.onednn_lanes()), ("ALL", K.onednn_lanes()),
                          ("", K.onednn_lanes())):
            monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", cap)
            cpu_nn._LOG_SOFTMAX_LANES.clear()
            assert cpu_nn._log_softmax_lanes() == want, cap
    finally:
        cpu_nn._LOG_SOFTMAX_LANES[:] = cached
    assert K.onednn_lanes() in (8, 16)


def test_thread_count_does_not_change_the_bits():
    rng = np.random.RandomState(3)
    xs = [((rng.randn(64, 1000) * 5).astype(np.float32), -1), ((rng.randn(8, 50, 300) * 5).astype(np.float32), 1)]

    def grad(y, axis, lanes):
        return K.log_softmax_grad_f32(y, np.cos(y), axis, lanes)
    old = K.num_threads()
    try:
        K.set_num_threads(1)
        one = [f(x, a, lanes) for x, a in xs for lanes in (8, 16) for f in (K.log_softmax_f32, grad)]
        K.set_num_threads(3)
        three = [f(x, a, lanes) for x, a in xs for lanes in (8, 16) for f in (K.log_softmax_f32, grad)]
    finally:
        K.set_num_threads(old)
    for a, b in zip(one, three):
        assert a.tobytes() == b.tobytes()


_PORTABLE_SCRIPT = """
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import record_log_softmax as rec
from mindspore_cpu import _kernels as K
out = []
for case, x, axis in rec.cases():
    for lanes in (8, 16):
        out.append(K.log_softmax_f32(x, axis, lanes).tobytes().hex())
for case, kind, y, dy, axis in rec.grad_cases():
    for lanes in (8, 16):
        out.append(K.log_softmax_grad_f32(y, dy, axis, lanes).tobytes().hex())
print(json.dumps(out))
"""


def test_portable_path_gives_the_same_bits():
    def run(env):
        res = subprocess.run([sys.executable, "-c", _PORTABLE_SCRIPT, str(_DIR)], capture_output=True, text=True,
                             check=True, env={**os.environ, **env})
        return json.loads(res.stdout)
    fast, portable = run({}), run({"MINDSPORE_CPU_ORDERED_ISA": "portable"})
    assert len(fast) == len(portable) == 2 * (len(CASES) + len(GRADS))
    assert fast == portable


def test_other_dtypes_and_empty_inputs_keep_the_family_kernel(cpu_mode):
    cpu_mode(ms.PYNATIVE_MODE)
    x = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 4.0]])
    got = ops.log_softmax(Tensor(x), -1).asnumpy()
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, x - np.log(np.exp(x).sum(-1, keepdims=True)), rtol=1e-13)
    assert ops.log_softmax(Tensor(np.zeros((0, 3), np.float32)), -1).shape == (0, 3)


@pytest.mark.parametrize("call", [
    lambda: K.log_softmax_f32(np.zeros((2, 3), np.float64), -1, 16),
    lambda: K.log_softmax_f32(np.zeros((2, 3), np.float32), 2, 16),
    lambda: K.log_softmax_f32(np.zeros((2, 3), np.float32), -1, 4),
    lambda: K.log_softmax_grad_f32(np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32), -1, 16),
    lambda: K.log_softmax_grad_f32(np.zeros((2, 3), np.float32), np.zeros((2, 3), np.float64), -1, 16),
])
def test_bad_arguments_raise_value_error(call):
    with pytest.raises(ValueError):
        call()
