"""What the parallel sample tests share (``test_parallel_samples*.py``): run a sample script under our msrun from a
temporary folder, run its single-process reference, and compare the losses the two print.

A sample prints its losses as the docs' samples do (``epoch: E, step: S, loss is L``, or LossMonitor's ``epoch: E
step: S, loss is L``); a reference script (``tests/fixtures/parallel_samples/reference*.py``) prints ``rank R epoch E
step S loss L`` for every loss rank R prints.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import numpy as np

__all__ = ["SAMPLES", "assert_losses_match", "run_reference", "run_sample", "skip_unless_mpi"]

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "mindspore-parallel" / "tests"))
from _mpi_launch import OVERSUBSCRIBE_ENV, skip_unless_mpi  # noqa: E402

SAMPLES = ROOT / "tests" / "fixtures" / "parallel_samples"
DATA_PATH = str(ROOT / "examples" / "data" / "digits") + os.sep
_LAUNCH = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "PMI_FD",
           "MS_WORKER_NUM", "RANK_ID", "RANK_SIZE", "MS_ROLE")
# the samples' own prints ("epoch: 0, step: 10, loss is ...") and LossMonitor's ("epoch: 1 step: 10, loss is ...")
_SAMPLE_LOSS = re.compile(r"epoch: (\d+),? step: (\d+), (?:loss|forward_sum) is ([-+0-9.eE]+|nan|inf)")
_REF_LOSS = re.compile(r"rank (\d+) epoch (\d+) step (\d+) loss (\S+)")
TOL = 1e-5


def _env():
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCH}
    env.update(OVERSUBSCRIBE_ENV)
    env["DATA_PATH"] = DATA_PATH
    return env


def run_sample(tmp_path, script, workers, port, task=(), extra_files=(), env=None):
    """Run ``msrun --worker_num N --local_worker_num N ... script`` (or ``task``, e.g. ``pytest -s -v script::test``)
    from ``tmp_path``, with ``extra_files`` of the samples folder beside it and ``env`` added to the environment;
    return {rank: {(epoch, step): loss}} read from the worker logs."""
    for name in (script, *extra_files):
        shutil.copy(SAMPLES / name, tmp_path / name)
    logs = tmp_path / "log_output"
    command = list(task) if task else [script]
    proc = subprocess.run([sys.executable, "-m", "mindspore.parallel.cluster.run", "--worker_num", str(workers),
                           "--local_worker_num", str(workers), "--master_addr", "127.0.0.1", "--master_port",
                           str(port), "--join", "True", "--log_dir", str(logs), *command],
                          capture_output=True, text=True, timeout=240, env={**_env(), **(env or {})}, cwd=tmp_path)
    tails = "".join(f"\n--- worker_{r}.log\n" + (logs / f"worker_{r}.log").read_text()[-2000:]
                    for r in range(workers) if (logs / f"worker_{r}.log").exists())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:] + tails
    losses = {}
    for rank in range(workers):
        text = (logs / f"worker_{rank}.log").read_text()
        losses[rank] = {(int(e), int(s)): float(v) for e, s, v in _SAMPLE_LOSS.findall(text)}
    return losses


def run_reference(sample, epochs, script="reference.py"):
    """Run ``script`` (of the samples folder) for ``sample``; return {rank: {(epoch, step): loss}}."""
    proc = subprocess.run([sys.executable, str(SAMPLES / script), sample, str(epochs)], capture_output=True,
                          text=True, timeout=120, env={**_env(), "OMP_NUM_THREADS": "2"})
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    losses = {}
    for rank, e, s, v in _REF_LOSS.findall(proc.stdout):
        losses.setdefault(int(rank), {})[(int(e), int(s))] = float(v)
    return losses


def assert_losses_match(got, want):
    assert sorted(got) == sorted(want), (sorted(got), sorted(want))
    for rank in want:
        assert sorted(got[rank]) == sorted(want[rank]), (rank, sorted(got[rank]), sorted(want[rank]))
        steps = sorted(want[rank])
        np.testing.assert_allclose([got[rank][k] for k in steps], [want[rank][k] for k in steps], rtol=TOL,
                                   atol=TOL, err_msg=f"rank {rank}, (epoch, step) {steps}")
