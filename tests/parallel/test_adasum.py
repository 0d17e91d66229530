"""AdaSum (``nn.AdaSumByGradWrapCell`` / ``nn.AdaSumByDeltaWeightWrapCell``) on 2 real ranks against a NumPy oracle
of MindSpore 2.10's formula (its per-rank scaling by the kept half's maximum, the 1e-12 terms, the halving on the
first axis longer than 1, the mean for tensors without one), plus the wrappers' checks in one process."""
import pathlib
import sys

import numpy as np
import pytest

from mindspore import nn

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "mindspore-parallel" / "tests"))
sys.path.insert(0, str(HERE))
from _mpi_launch import mpi_available, run_ranks  # noqa: E402
from _adasum_worker import SHAPES, _grads, _params  # noqa: E402

EPS = 1e-12


def _oracle(g0, g1):
    """AdaSum of rank 0's ``g0`` and rank 1's ``g1`` as 2.10 computes it (one step, 2 servers)."""
    if all(s <= 1 for s in g0.shape):
        return (g0 + g1) / 2
    a, b = np.squeeze(g0).astype(np.float64), np.squeeze(g1).astype(np.float64)
    h = a.shape[0] // 2
    a0, b0 = a[h:], b[h:]            # rank 0 keeps the right halves
    a1, b1 = b[:h], a[:h]            # rank 1 keeps the left halves (own, received)
    s0, s1 = a0.max() + EPS, a1.max() + EPS
    dot = np.sum(a0 / s0 * b0 / s0) + EPS + np.sum(a1 / s1 * b1 / s1) + EPS
    n0 = np.sum((a0 / s0) ** 2) + EPS + np.sum((b1 / s1) ** 2) + EPS      # |g0|^2, scaled per half
    n1 = np.sum((b0 / s0) ** 2) + EPS + np.sum((a1 / s1) ** 2) + EPS      # |g1|^2
    right = (1 - dot / (2 * n0)) * a0 + (1 - dot / (2 * n1)) * b0
    left = (1 - dot / (2 * n0)) * b1 + (1 - dot / (2 * n1)) * a1
    return np.concatenate([left.reshape(-1), right.reshape(-1)]).reshape(g0.shape)


@pytest.fixture(scope="module")
def ranks(tmp_path_factory):
    if not mpi_available():
        pytest.skip("mpi4py/mpiexec not installed (pip install mindspore-parallel[mpi])")
    out = tmp_path_factory.mktemp("adasum")
    proc = run_ranks(HERE / "_adasum_worker.py", 2, timeout=120, args=(out,))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [dict(np.load(out / f"rank{r}.npz")) for r in range(2)]


def test_combine_matches_oracle_on_both_ranks(ranks):
    g0, g1 = _grads(0), _grads(1)
    for i in range(len(SHAPES)):
        want = _oracle(g0[i], g1[i])
        for saved in ranks:
            assert saved[f"c{i}"].shape == SHAPES[i]
            np.testing.assert_allclose(saved[f"c{i}"], want, rtol=1e-5, atol=1e-6)


def test_wrappers_update_like_adasum(ranks):
    g0, g1 = _grads(0), _grads(1)
    start = [p.asnumpy() for p in _params()]
    for i in range(len(SHAPES)):
        by_grad = start[i] - 0.1 * _oracle(g0[i], g1[i])
        by_delta = start[i] - _oracle(np.float32(0.1) * g0[i], np.float32(0.1) * g1[i])
        for saved in ranks:
            for prefix in ("", "graph_"):
                np.testing.assert_allclose(saved[f"{prefix}grad{i}"], by_grad, rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(saved[f"{prefix}delta{i}"], by_delta, rtol=1e-5, atol=1e-6)


def test_wrappers_refuse_stand_alone_and_small_jobs():
    import mindspore as ms
    net = nn.Dense(3, 2)
    for wrap in (nn.AdaSumByGradWrapCell, nn.AdaSumByDeltaWeightWrapCell):
        with pytest.raises(RuntimeError, match="Stand alone mode is not supported to apply adasum"):
            wrap(nn.SGD(net.trainable_params()))
    ms.set_auto_parallel_context(parallel_mode="data_parallel")
    try:
        with pytest.raises(RuntimeError, match="at least 16 and must be the power of 2"):
            nn.AdaSumByGradWrapCell(nn.SGD(net.trainable_params()))
        ms.set_auto_parallel_context(pipeline_stages=2)
        with pytest.raises(RuntimeError, match="pipeline parallel is not supported"):
            nn.AdaSumByDeltaWeightWrapCell(nn.SGD(net.trainable_params()))
    finally:
        ms.reset_auto_parallel_context()
