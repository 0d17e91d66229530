"""Shared by the tests of msrun over several nodes (``test_msrun_multinode.py``,
``test_msrun_multinode_parallel.py``): two msrun processes on 127.0.0.1 stand for two hosts.

``start_node`` starts one node's msrun (``--join=True``; its workers' logs under ``<log_root>/node<node_rank>``);
``finish`` waits for msruns and returns their ``(returncode, stdout, stderr)``; ``run_nodes`` starts every node of
a job and waits for it; ``job_processes`` lists the live processes of a test's job (to check none outlive it).
"""
import os
import socket
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_msrun import MSRUN, _env  # noqa: E402

__all__ = ["MSRUN", "free_port", "start_node", "finish", "run_nodes", "job_processes"]

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "_multinode_worker.py")


def free_port():
    """A TCP port of 127.0.0.1 free at the time of the call (the job's rendezvous port)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_node(tmp_path, node_rank, port, *extra, worker_num=4, local_worker_num=2, script=WORKER,
               script_args=None, **env):
    """Start the msrun of node ``node_rank`` (a ``subprocess.Popen``): ``extra`` are more msrun options,
    ``script_args`` the script's arguments (``[tmp_path]`` when not given), ``env`` extra environment variables."""
    log_dir = tmp_path / f"node{node_rank}"
    args = [f"--worker_num={worker_num}", f"--local_worker_num={local_worker_num}", "--master_addr=127.0.0.1",
            f"--master_port={port}", f"--node_rank={node_rank}", f"--log_dir={log_dir}", "--join=True", *extra,
            script, *([tmp_path] if script_args is None else script_args)]
    return subprocess.Popen(MSRUN + [str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env(**env))


def finish(procs, timeout=60):
    """Wait for the msruns ``procs``; their ``(returncode, stdout, stderr)``. One that outlives ``timeout``
    seconds is killed (with the others) and the test fails with its output."""
    outs = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            out, err = p.communicate()
            pytest.fail(f"msrun did not end within {timeout} s: {out}\n{err}")
        outs.append((p.returncode, out, err))
    return outs


def run_nodes(tmp_path, script, script_args, local_worker_nums=(2, 2), timeout=90, **env):
    """Run ``script`` over one msrun per entry of ``local_worker_nums`` (node n starts that many workers; the last
    node first, as a host whose msrun comes before the master's may be) and fail the test, with every node's
    output and worker logs, unless each msrun ends with 0. Returns the msruns' ``(returncode, stdout, stderr)``
    in node order."""
    port = free_port()
    total = sum(local_worker_nums)
    procs = [start_node(tmp_path, n, port, worker_num=total, local_worker_num=local_worker_nums[n], script=script,
                        script_args=script_args, **env) for n in reversed(range(len(local_worker_nums)))]
    outs = finish(procs, timeout)[::-1]
    if any(code != 0 for code, _, _ in outs):
        logs = "".join(f"--- {p}\n{p.read_text()[-3000:]}\n" for p in sorted(tmp_path.glob("node*/worker_*.log")))
        pytest.fail("the job failed:\n" + "".join(f"node {n}: exit {code}\n{err[-3000:]}\n"
                                                  for n, (code, _, err) in enumerate(outs)) + logs)
    return outs


def job_processes(tmp_path):
    """Live processes whose command line names this test's directory (the workers and their launchers)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(tmp_path) in cmd and state not in "ZX":
            found.append((int(entry), cmd))
    return found
