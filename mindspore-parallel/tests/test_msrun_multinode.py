"""msrun over several hosts (nodes): two msrun processes on 127.0.0.1 (node_rank 0 and 1, 2 workers each) form one
world of 4 ranks through the rendezvous at master_addr:master_port; a failure on one node ends the job on both; a
node that never comes, and inconsistent arguments, are clear errors."""
import os
import re
import socket
import subprocess
import sys
import time

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from _mpi_launch import skip_unless_mpi  # noqa: E402
from _multinode import MSRUN, WORKER, finish, free_port, job_processes, start_node  # noqa: E402
from test_msrun import _env  # noqa: E402


@skip_unless_mpi
def test_two_nodes_form_one_world_and_train_like_one_process(tmp_path):
    port = free_port()
    outs = finish([start_node(tmp_path, 1, port), start_node(tmp_path, 0, port)])
    for code, out, err in outs:
        assert code == 0, out + err
    for node in (0, 1):
        logs = sorted(p.name for p in (tmp_path / f"node{node}").iterdir())
        assert logs == ["scheduler.log", f"worker_{2 * node}.log", f"worker_{2 * node + 1}.log"]
        for rank in (2 * node, 2 * node + 1):
            text = (tmp_path / f"node{node}" / f"worker_{rank}.log").read_text()
            assert f"rank {rank} of 4, local rank {rank - 2 * node} of 2, sum 10" in text, text
    subprocess.run([sys.executable, WORKER, str(tmp_path)], check=True, env=_env(), timeout=60)
    ref = np.load(tmp_path / "reference.npz")
    ranks = [np.load(tmp_path / f"rank{r}.npz") for r in range(4)]
    # every rank's loss is the MSE of its quarter of the batch: their mean is the global batch's loss
    np.testing.assert_allclose(np.mean([r["loss"] for r in ranks], axis=0), ref["loss"], rtol=1e-5, atol=1e-6)
    names = [k for k in ref.files if k.startswith("w:")]
    assert len(names) == 4
    for r in ranks:
        for name in names:
            np.testing.assert_allclose(r[name], ref[name], rtol=1e-5, atol=1e-6)


@skip_unless_mpi
def test_three_nodes_of_unequal_sizes_form_one_world(tmp_path):
    """Nodes of 1, 2 and 1 workers, node 1 late to init(): node 2 waits in MPI's Connect before node 1 does, yet each
    node is merged in its own turn (world rank = node offset + local rank); the data-parallel training is one
    process's."""
    port = free_port()
    outs = finish([start_node(tmp_path, n, port, local_worker_num=k, INIT_DELAY="1.5" if n == 1 else "0")
                   for n, k in ((2, 1), (1, 2), (0, 1))])
    for code, out, err in outs:
        assert code == 0, out + err
    for node, ranks in enumerate([[0], [1, 2], [3]]):
        for local, rank in enumerate(ranks):
            text = (tmp_path / f"node{node}" / f"worker_{rank}.log").read_text()
            assert f"rank {rank} of 4, local rank {local} of {len(ranks)}, sum 10" in text, text
    subprocess.run([sys.executable, WORKER, str(tmp_path)], check=True, env=_env(), timeout=60)
    ref = np.load(tmp_path / "reference.npz")
    for r in range(4):
        got = np.load(tmp_path / f"rank{r}.npz")
        for name in ref.files:
            if name.startswith("w:"):
                np.testing.assert_allclose(got[name], ref[name], rtol=1e-5, atol=1e-6)


@skip_unless_mpi
def test_a_rank_killed_on_node_1_ends_the_job_on_both_nodes(tmp_path):
    port = free_port()
    start = time.monotonic()
    procs = [start_node(tmp_path, 0, port, KILL="3"), start_node(tmp_path, 1, port, KILL="3")]
    outs = finish(procs)
    elapsed = time.monotonic() - start
    (code0, _, err0), (code1, _, err1) = outs
    assert code0 == 1 and code1 == 1
    assert "the job failed on node 1: rank 3 failed (was killed by signal SIGKILL" in err0, err0
    assert re.search(r"worker 3 \(pid \d+\) was killed by signal SIGKILL", err1), err1
    killed = (tmp_path / "node1" / "worker_3.log").read_text()
    assert "rank 3 kills itself" in killed
    # the others sleep 60 s in that step; the job ended long before (start-up included)
    assert elapsed < 40, elapsed
    time.sleep(0.5)
    assert job_processes(tmp_path) == []


@skip_unless_mpi
def test_a_node_whose_msrun_disappears_ends_the_job(tmp_path):
    port = free_port()
    procs = [start_node(tmp_path, 0, port, KILL="99"), start_node(tmp_path, 1, port, KILL="99")]
    # wait until node 1's workers run, then kill its msrun (its launcher and workers die with it)
    deadline = time.monotonic() + 30
    log = tmp_path / "node1" / "worker_3.log"
    while time.monotonic() < deadline and not (log.exists() and "sum 10" in log.read_text()):
        time.sleep(0.1)
    procs[1].kill()
    killed_at = time.monotonic()
    code0, _, err0 = finish(procs[:1])[0]
    assert time.monotonic() - killed_at < 10
    procs[1].wait()
    assert code0 == 1
    assert "the msrun process of node 1 disappeared" in err0, err0
    time.sleep(0.5)
    assert job_processes(tmp_path) == []


@skip_unless_mpi
def test_a_node_that_never_comes_is_a_clear_error(tmp_path):
    port = free_port()
    start = time.monotonic()
    code, out, err = finish([start_node(tmp_path, 0, port, "--cluster_time_out=3")])[0]
    assert time.monotonic() - start < 20
    assert code == 1
    assert re.search(r"the cluster of 4 workers was not built within 3 seconds \(--cluster_time_out\): 1 node\(s\) "
                     r"\(node_rank \[0\]\) with 2 worker\(s\) registered at the scheduler, 2 worker\(s\) are "
                     r"missing", err), err
    assert not (tmp_path / "node0" / "worker_0.log").exists()  # nothing was started


@skip_unless_mpi
def test_a_scheduler_that_never_comes_is_a_clear_error(tmp_path):
    code, _, err = finish([start_node(tmp_path, 1, free_port(), "--cluster_time_out=2")])[0]
    assert code == 1
    assert "could not be reached within 2 seconds (--cluster_time_out)" in err, err


@pytest.mark.parametrize("node1, message", [
    ({"worker_num": 6}, r"node_rank 1 was started with worker_num 6 but the scheduler's node with worker_num 4"),
    ({"node_rank": 0}, r"node_rank 0 serves the job's rendezvous .* cannot listen there"),
    ({"local_worker_num": 3}, r"the local_worker_num of the nodes add up to 5 .* more than worker_num 4"),
])
@skip_unless_mpi
def test_inconsistent_nodes_are_clear_errors(tmp_path, node1, message):
    port = free_port()
    first = start_node(tmp_path, 0, port, "--cluster_time_out=8")
    time.sleep(1.5)  # node 0 listens first
    kwargs = {"worker_num": 4, "local_worker_num": 2, "node_rank": 1, **node1}
    second = start_node(tmp_path / "b", kwargs.pop("node_rank"), port, "--cluster_time_out=8", **kwargs)
    outs = finish([first, second])
    assert all(code == 1 for code, _, _ in outs)
    errors = outs[0][2] + outs[1][2]
    assert re.search(message, errors), errors
    assert not list(tmp_path.glob("**/worker_*.log"))  # nothing was started


def test_duplicate_node_rank_is_a_clear_error(tmp_path):
    import threading
    from mindspore.parallel.cluster import _rendezvous as rdzv
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    server = rdzv.Server(listener, {"node_rank": 0, "local_worker_num": 1}, 3, 10)
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("server", pytest.raises(RuntimeError, server.gather)))
    thread.start()
    clients = [rdzv.Client("127.0.0.1", port, 1, 3, 1, 10) for _ in range(2)]
    errors = []

    def register(client):
        try:
            client.register()
        except RuntimeError as e:
            errors.append(str(e))
    threads = [threading.Thread(target=register, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads + [thread]:
        t.join(20)
    server.close()
    assert errors == ["two nodes were started with node_rank 1: every node needs its own node_rank."] * 2
    assert "two nodes were started with node_rank 1" in str(result["server"].value)


@skip_unless_mpi
def test_without_join_both_msruns_return_and_the_job_runs_on(tmp_path):
    port = free_port()
    start = time.monotonic()
    for node in (0, 1):
        args = ["--worker_num=4", "--local_worker_num=2", "--master_addr=127.0.0.1", f"--master_port={port}",
                f"--node_rank={node}", f"--log_dir={tmp_path / f'node{node}'}", "--join=False", WORKER, tmp_path]
        out = subprocess.run(MSRUN + [str(a) for a in args], capture_output=True, text=True, timeout=30, env=_env())
        assert out.returncode == 0, out.stderr
    assert time.monotonic() - start < 15
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (len(list(tmp_path.glob("rank*.npz"))) < 4 or job_processes(tmp_path)):
        time.sleep(0.2)
    assert sorted(p.name for p in tmp_path.glob("rank*.npz")) == [f"rank{r}.npz" for r in range(4)]
    assert job_processes(tmp_path) == []
    assert "global ranks 2-3 of 4" in (tmp_path / "node1" / "scheduler.log.msrun").read_text()
