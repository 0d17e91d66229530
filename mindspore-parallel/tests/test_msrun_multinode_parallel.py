"""SEMI_AUTO / AUTO parallel, groups, point-to-point and distributed checkpoints on msrun's multi-node world.

One job script (``_multinode_parallel_worker.py``, see its docstring) runs per mode (PYNATIVE and GRAPH) on a
world of 4 ranks made by two msruns of 2 workers each (node 0: world ranks 0-1, node 1: 2-3), and once more under
one ``mpiexec -n 4``. The tests check the two-node job's results: sharded trainings equal to one process on the
global batch (the device-matrix sub-groups of a 2 x 2 split span both nodes), collectives on ``create_group``
groups spanning the nodes, Send/Receive between ranks on different nodes, AlltoAll, Barrier, and distributed
checkpoints that one process reloads; and that they are the same numbers as the one-mpiexec job's.
"""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms

HERE = pathlib.Path(__file__).resolve().parent
PARALLEL_TESTS = HERE.parents[1] / "tests" / "parallel"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(PARALLEL_TESTS))
from _mpi_launch import mpi_available, run_ranks  # noqa: E402
from _multinode import run_nodes  # noqa: E402
from _multinode_parallel_worker import BARRIER_SLEEP, CONFIGS, GROUPS, data  # noqa: E402

WORKER = HERE / "_multinode_parallel_worker.py"

pytestmark = pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")


@pytest.fixture(scope="module", params=["pynative", "graph"])
def job(request, tmp_path_factory):
    """``(mode, two_nodes_dir, one_mpiexec_dir)``: the worker's outputs from the two msruns and from one mpiexec."""
    mode = request.param
    base = tmp_path_factory.mktemp(f"multinode_{mode}")
    nodes, single = base / "msrun", base / "mpiexec"
    nodes.mkdir()
    single.mkdir()
    run_nodes(nodes, WORKER, [mode, nodes], timeout=150)
    try:
        proc = run_ranks(WORKER, 4, timeout=150, args=[mode, single])
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the one-mpiexec job did not finish in time:\n{exc.stderr}")
    assert proc.returncode == 0, proc.stderr[-4000:]
    for out in (nodes, single):
        assert sorted(p.name for p in out.glob("comm*.npz")) == [f"comm{r}.npz" for r in range(4)]
    return mode, nodes, single


def _comm(out, rank):
    with np.load(out / f"comm{rank}.npz") as f:
        return {k: f[k] for k in f.files}


def test_sharded_training_equals_one_process(job):
    """SEMI_AUTO 4-way and 2 x 2 MLP, 2 x 2 transformer and embedding, AUTO_PARALLEL sharding propagation and
    recursive programming, the parallel optimizer and full_batch=False over two nodes (the 2 x 2 splits'
    data-parallel groups, world ranks [0, 2] and [1, 3], span both): losses and weights those of one process on
    the global batch."""
    from _sharded_runs import check_results
    from test_semi_auto_parallel import _cuts
    _, nodes, _ = job
    results = check_results(4, CONFIGS, nodes)
    seen = set()
    for r in results:
        if r["case"] == "redistribute":
            continue
        seen.add(r["case"])
        np.testing.assert_allclose(r["losses"], r["ref_losses"], rtol=1e-5, atol=1e-6, err_msg=r["case"])
        case, dp, mp, level = r["case"].split(":")
        for name, full in r["full_shapes"].items():
            if level in ("semi", "opt", "batch") or r["case"] == "mlp:2:2:sp":
                cut = _cuts(case, name, int(dp), int(mp), level)
                assert int(np.prod(r["local_shapes"][name])) * cut == int(np.prod(full)), (r["case"], name, r)
        if r["case"] == "mlp:2:2:sp":   # propagated from MatMul ((2, 1), (1, 2)) as the semi case's strategies
            assert r["searched"]["relu"] == [[2, 2]] and r["searched"]["mm2"] == [[2, 2], [2, 1]], r["searched"]
        if r["case"] == "mlp:1:4:rp":   # the cost model found the Megatron split by itself
            assert r["searched"]["mm1"] == [[1, 1], [1, 4]] and r["searched"]["mm2"] == [[1, 4], [4, 1]], r
            assert r["local_shapes"]["w1"] == [8, 4], r
    assert seen == {c for c in CONFIGS if c != "redistribute"}
    mp4 = next(r for r in results if r["case"] == "mlp:1:4:semi")
    assert mp4["local_shapes"]["w1"] == [8, 4] and mp4["local_shapes"]["w2"] == [4, 4]


def test_groups_point_to_point_alltoall_and_barrier_across_nodes(job):
    mode, nodes, _ = job
    got = [_comm(nodes, r) for r in range(4)]
    # the world's AlltoAll: rank r's (2, 12) input cut in 4 along axis 1, piece j to rank j, stacked along axis 0
    for r in range(4):
        want = np.concatenate([np.split(data(j, (2, 12)), 4, axis=1)[r] for j in range(4)], axis=0)
        np.testing.assert_array_equal(got[r]["world_alltoall"], want)
        np.testing.assert_array_equal(got[r]["world_barrier"], [1.0])
    # rank 3 slept before the Barrier: every other rank waited for it there
    for r in range(3):
        assert got[r]["barrier_wait"] > 0.8 * BARRIER_SLEEP, (r, got[r]["barrier_wait"])
    for name, ranks in GROUPS.items():
        xs = [data(i, (4, 3)) for i in range(2)]
        for me, world in enumerate(ranks):
            g = got[world]
            # get_rank, get_group_size, get_world_rank_from_group_rank(1), get_group_rank_from_world_rank(ranks[0])
            np.testing.assert_array_equal(g[f"{name}_info"], [me, 2, ranks[1], 0], err_msg=name)
            np.testing.assert_array_equal(g[f"{name}_allreduce"], xs[0] + xs[1], err_msg=name)
            np.testing.assert_array_equal(g[f"{name}_allgather"], np.concatenate(xs), err_msg=name)
            a2a = np.concatenate([np.split(data(j, (2, 6)), 2, axis=1)[me] for j in range(2)], axis=0)
            np.testing.assert_array_equal(g[f"{name}_alltoall"], a2a, err_msg=name)
            np.testing.assert_array_equal(g[f"{name}_broadcast"], xs[1], err_msg=name)
            np.testing.assert_array_equal(g[f"{name}_barrier"], [1.0], err_msg=name)
            # group rank 0 sent its x to group rank 1, which returned twice what it received
            np.testing.assert_array_equal(g[f"{name}_p2p"], xs[0] * (2 if me == 0 else 1), err_msg=name)
        others = [r for r in range(4) if r not in ranks]
        assert all(f"{name}_allreduce" not in got[r] for r in others)
    np.testing.assert_array_equal(got[1]["swap"], data(2, (3, 5), seed=1))
    np.testing.assert_array_equal(got[2]["swap"], data(1, (3, 5), seed=1))
    # the sender's gradient is what the receiver's loss gave the received tensor; the receiver's input gets none
    np.testing.assert_array_equal(got[0]["p2p_grad"], data(3, (3,), seed=6))
    np.testing.assert_array_equal(got[3]["p2p_grad_recv"], np.zeros(3))
    if mode == "pynative":
        np.testing.assert_array_equal(got[2]["comm_func_recv"], data(0, (6,), seed=2))
        for r in range(4):
            np.testing.assert_array_equal(got[r]["comm_func_ring"], data((r - 1) % 4, (5,), seed=3))


@pytest.mark.parametrize("ckpt, mp, dp", [("ckpt_mp4", 4, 1), ("ckpt_opt", 2, 2)])
def test_distributed_checkpoint_reloads_into_one_process(job, ckpt, mp, dp):
    """The 4 ranks' blocks (4-way model parallel; 2 x 2 with the parallel optimizer cutting the weights over their
    data-parallel copies too) put together by load_distributed_checkpoint and by transform_checkpoints exactly,
    and equal to the same training in one process."""
    from _dist_ckpt_worker import train_step_cell
    _, nodes, _ = job
    src = nodes / ckpt
    strategy = str(src / "strategy.ckpt")
    files = [str(src / f"rank_{r}" / "net.ckpt") for r in range(4)]
    slices = [ms.load_checkpoint(f) for f in files]
    step = train_step_cell(mp, 0, dp)   # untrained and not sharded: one process
    ms.load_distributed_checkpoint(step, files, None, strategy)
    whole = {p.name: p.asnumpy() for p in step.get_parameters()}
    standalone = ms.load_checkpoint(str(src / "standalone.ckpt"))
    assert sorted(whole) == sorted(standalone)
    for name, value in whole.items():
        np.testing.assert_allclose(value, standalone[name].asnumpy(), rtol=1e-5, atol=1e-6, err_msg=name)
    if ckpt == "ckpt_mp4":   # the blocks of the column- and row-split weights, in rank order
        assert slices[3]["w1"].shape == (8, 4) and slices[3]["moments.w2"].shape == (4, 4)
        np.testing.assert_array_equal(whole["w1"], np.concatenate([d["w1"].asnumpy() for d in slices], axis=1))
        np.testing.assert_array_equal(whole["moments.w2"],
                                      np.concatenate([d["moments.w2"].asnumpy() for d in slices], axis=0))
    else:   # w1 (8, 16): columns over mp (ranks 0/1 and 2/3 hold the same), then rows over the dp copies
        assert slices[0]["w1"].shape == (4, 8)
        np.testing.assert_array_equal(whole["w1"][:4, :8], slices[0]["w1"].asnumpy())
        np.testing.assert_array_equal(whole["w1"][4:, 8:], slices[3]["w1"].asnumpy())
    ms.transform_checkpoints(str(src), str(nodes / f"{ckpt}_full"), "full", strategy, None)
    merged = ms.load_checkpoint(str(nodes / f"{ckpt}_full" / "rank_0" / "full0.ckpt"))
    for name, value in whole.items():
        np.testing.assert_array_equal(merged[name].asnumpy(), value, err_msg=name)
    for r in range(4):   # integrated_save=True: every rank wrote the whole parameters
        integrated = ms.load_checkpoint(str(src / f"rank_{r}" / "integrated.ckpt"))
        for name, value in whole.items():
            np.testing.assert_array_equal(integrated[name].asnumpy(), value, err_msg=f"rank {r}: {name}")


def test_two_msruns_give_the_numbers_of_one_mpiexec(job):
    """The same script, launched by two msruns or by one mpiexec: bit for bit the same results."""
    _, nodes, single = job
    for r in range(4):
        a = json.loads((nodes / f"rank{r}.json").read_text())
        b = json.loads((single / f"rank{r}.json").read_text())
        assert a == b, r
        ca, cb = _comm(nodes, r), _comm(single, r)
        ca.pop("barrier_wait")
        cb.pop("barrier_wait")
        assert sorted(ca) == sorted(cb)
        for k in ca:
            np.testing.assert_array_equal(ca[k], cb[k], err_msg=f"rank {r}: {k}")
        for ckpt in ("ckpt_mp4", "ckpt_opt"):
            da = ms.load_checkpoint(str(nodes / ckpt / f"rank_{r}" / "net.ckpt"))
            db = ms.load_checkpoint(str(single / ckpt / f"rank_{r}" / "net.ckpt"))
            assert sorted(da) == sorted(db)
            for k in da:
                if isinstance(da[k], ms.Parameter):
                    np.testing.assert_array_equal(da[k].asnumpy(), db[k].asnumpy(), err_msg=f"{ckpt} rank {r}: {k}")
    assert (nodes / "ckpt_opt" / "strategy.ckpt").read_bytes() == (single / "ckpt_opt" / "strategy.ckpt").read_bytes()
    assert os.path.getsize(nodes / "ckpt_mp4" / "strategy.ckpt") > 0
