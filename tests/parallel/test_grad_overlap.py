"""GRAPH_MODE gradient all-reduces overlapping the backward pass (``mindspore.parallel._overlap``): each bucket's
all-reduce starts right after its last gradient and is waited for before its first use, and training gives
bitwise the numbers of the blocking all-reduce at the end (``MS_DISABLE_GRAD_OVERLAP=1``), on 2 ranks (where the
start is an ``MPI_Iallreduce``) and 4 (a communication thread)."""
import json
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "mindspore-parallel" / "tests"))
from _mpi_launch import mpi_available, run_ranks  # noqa: E402


def _job(tmp_path, n, env):
    out = tmp_path / ("off" if env else "on")
    out.mkdir()
    proc = run_ranks(HERE / "_overlap_worker.py", n, timeout=180, env=env, args=[out, 64, 4, 0])
    assert proc.returncode == 0, proc.stderr[-4000:]
    return [json.loads((out / f"rank{r}.json").read_text()) for r in range(n)]


@pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")
@pytest.mark.parametrize("n", [2, 4])
def test_overlapped_buckets_give_bitwise_the_blocking_results(tmp_path, n):
    on, off = _job(tmp_path, n, {}), _job(tmp_path, n, {"MS_DISABLE_GRAD_OVERLAP": "1"})
    for a, b in zip(on, off):
        assert a["losses"] == b["losses"] and a["weights"] == b["weights"]
    assert len({r["weights"] for r in on}) == 1   # every rank applied the same reduced gradients
    assert off[0]["orders"] == [] and on[0]["orders"], on[0]
    assert on[0]["buckets"] >= 3
    order = on[0]["orders"][0]
    starts = [i for i, n in enumerate(order) if n == "AllReduceStart"]
    waits = [i for i, n in enumerate(order) if n == "AllReduceWait"]
    assert len(starts) == len(waits) == on[0]["buckets"] and "AllReduce" not in order
    # the first buckets started while backward MatMuls were still to run; every wait comes after every start
    assert any(n == "MatMul" for n in order[starts[0]:starts[-1]]), order
    assert max(starts) < min(waits)


def test_the_pass_in_one_process_keeps_the_reducer_exact():
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        w = Parameter(Tensor(np.ones((3, 2), np.float32)), name="w")
        b = Parameter(Tensor(np.ones((2,), np.float16)), name="b")
        reducer = nn.DistributedGradReducer([w, b], mean=True, degree=2)
        g = (Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)), Tensor(np.array([1, 3], np.float16)))
        out = reducer(g)
        np.testing.assert_array_equal(out[0].asnumpy(), np.arange(6, dtype=np.float32).reshape(3, 2) * 0.5)
        assert out[1].dtype == ms.float16
        np.testing.assert_array_equal(out[1].asnumpy(), np.array([0.5, 1.5], np.float16))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
