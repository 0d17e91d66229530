"""PYNATIVE gradient all-reduces overlapping the backward pass (``DistributedGradReducer.overlap`` over the tape's
``on_gradient_final``): with ``TrainOneStepCell`` and ``TrainOneStepWithLossScaleCell`` each bucket's all-reduce
starts during the backward pass, as soon as its gradients are final, and training gives bitwise the numbers of the
blocking all-reduces after it (``MS_DISABLE_GRAD_OVERLAP=1``) on 2 ranks (``MPI_Iallreduce``) and 4 (a
communication thread), and the numbers of one process on the global batch."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore._autodiff import tape as _tape

HERE = pathlib.Path(__file__).resolve().parent
WORKER = HERE / "_overlap_pynative_worker.py"
sys.path.insert(0, str(HERE.parents[1] / "mindspore-parallel" / "tests"))
from _mpi_launch import _LAUNCH_VARS, mpi_available, run_ranks  # noqa: E402

ARGS = [64, 4, 0]   # width, steps, timed steps


def _read(out, n):
    return [json.loads((out / f"rank{r}.json").read_text()) for r in range(n)]


def _job(tmp_path, n, env):
    out = tmp_path / f"{n}-{'off' if env else 'on'}"
    out.mkdir()
    # the blocking path walks its tape too (a repeated backward pass would otherwise run compiled, which the
    # overlapping one never does: the same results, not always to the bit)
    env = dict(env, MS_PYNATIVE_COMPILED_BACKWARD="0")
    proc = run_ranks(WORKER, n, timeout=240, env=env, args=[out, *ARGS])
    assert proc.returncode == 0, proc.stderr[-4000:]
    return _read(out, n)


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    out = tmp_path_factory.mktemp("overlap_single")
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCH_VARS}
    env["MS_PYNATIVE_COMPILED_BACKWARD"] = "0"      # (its bprops record events as they run: walked on the tape)
    proc = subprocess.run([sys.executable, str(WORKER), str(out), *map(str, ARGS)], capture_output=True, text=True,
                          timeout=180, env=env)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return _read(out, 1)[0]


@pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")
@pytest.mark.parametrize("n", [2, 4])
def test_buckets_start_during_the_backward_pass_with_bitwise_the_blocking_results(tmp_path, single, n):
    on, off = _job(tmp_path, n, {}), _job(tmp_path, n, {"MS_DISABLE_GRAD_OVERLAP": "1"})
    for kind in ("plain", "lossscale"):
        for a, b in zip(on, off):
            assert a[kind]["losses"] == b[kind]["losses"], kind
            assert a[kind]["weights"] == b[kind]["weights"], kind
        assert len({r[kind]["weights"] for r in on}) == 1, kind   # every rank applied the same update
        buckets = on[0][kind]["buckets"]
        assert buckets >= 3, buckets
        events = on[0][kind]["events"]
        starts = [i for i, (e, _) in enumerate(events) if e == "start"]
        # every bucket started inside the backward pass, with MatMul gradients still to compute after the first
        assert len(starts) == buckets and all(events[i][1] for i in starts), events
        assert any(e == "matmul_bprop" for e, _ in events[starts[0]:]), events
        # the blocking path: no start, one all-reduce per bucket after the backward pass
        blocking = off[0][kind]["events"]
        assert not any(e == "start" for e, _ in blocking)
        assert sum(e == "allreduce" and not during for e, during in blocking) >= buckets
        # one process on the global batch (mean loss over the ranks, the same weights)
        np.testing.assert_allclose(np.mean([r[kind]["losses"] for r in on], axis=0), single[kind]["losses"],
                                   rtol=1e-5, atol=1e-6, err_msg=kind)
        for mine, ref in zip(on[0][kind]["values"], single[kind]["values"]):
            np.testing.assert_allclose(mine, ref, rtol=1e-5, atol=1e-6, err_msg=kind)
    assert single["plain"]["events"] and not any(e in ("start", "allreduce") for e, _ in single["plain"]["events"])


def test_gradient_final_callback_order_and_values():
    """The tape reports each watched tensor once, as soon as no walked use is left, with the gradient it returns."""
    w1 = Parameter(Tensor(np.full((2, 2), 0.5, np.float32)), name="w1")
    w2 = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w2")
    w3 = Parameter(Tensor(np.ones(2, np.float32)), name="w3")   # unused: reported at the end, without gradient
    seen = []

    def f(x):
        h = ops.matmul(x, w1) + w2     # w2: used twice, final after its first (in recording order) use is walked
        return (h * w2).sum()

    with _tape.on_gradient_final(lambda key, g: seen.append((key, g))):
        _, grads = ms.value_and_grad(f, None, [w1, w2, w3])(Tensor(np.ones((1, 2), np.float32)))
    assert [k for k, _ in seen] == [id(w2), id(w1), id(w3)]
    assert seen[0][1] is grads[1] and seen[1][1] is grads[0] and seen[2][1] is None
    np.testing.assert_array_equal(grads[1].asnumpy(), [3.0, 5.0])
    assert not _tape._FINAL


def test_gradient_final_skips_nested_tapes_and_waits_for_tensor_hooks():
    w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    seen = []

    def inner(v):
        return (v * w).sum()

    def f(x):
        g = ms.grad(inner, 0)(x)     # a gradient inside the function: its tape is deeper, not reported
        return (g * w * x).sum()

    with _tape.on_gradient_final(lambda key, grad: seen.append((key, grad.asnumpy().copy()))):
        _, grads = ms.value_and_grad(f, None, [w])(Tensor(np.array([3.0, 4.0], np.float32)))
    assert [k for k, _ in seen] == [id(w)]
    np.testing.assert_array_equal(seen[0][1], grads[0].asnumpy())
    # a tensor hook replaces the gradient: the callback sees the replaced one
    seen.clear()
    x = Tensor(np.array([3.0, 4.0], np.float32))
    handle = w.register_hook(lambda g: g * 10)
    try:
        with _tape.on_gradient_final(lambda key, grad: seen.append((key, grad))):
            _, grads = ms.value_and_grad(lambda v: (v * w).sum(), None, [w])(x)
    finally:
        handle.remove()
    assert seen[0][1] is grads[0]
    np.testing.assert_array_equal(grads[0].asnumpy(), [30.0, 40.0])


def test_one_process_overlap_changes_nothing():
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
    try:
        w = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="w")
        reducer = nn.DistributedGradReducer([w], mean=True, degree=2)
        with reducer.overlap() as starts:
            assert not _tape._FINAL   # no communicator: no callback, the tape walks as before
        assert type(starts).__name__ == "_NoOverlap"
        net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
        step(Tensor(np.ones((1, 2), np.float32)), Tensor(np.zeros((1, 1), np.float32)))
        np.testing.assert_allclose(net.weight.asnumpy(), [[0.6, 0.6]], rtol=1e-6)
    finally:
        ms.reset_auto_parallel_context()
