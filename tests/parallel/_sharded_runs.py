"""Shared by test_semi_auto_parallel.py and test_auto_parallel.py: runs ``_semi_auto_worker.py`` on N ranks."""
import json
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "mindspore-parallel" / "tests"))
from _mpi_launch import mpi_available, run_ranks  # noqa: E402

__all__ = ["check_results", "mpi_available", "run_configs"]


def run_configs(n, mode, configs, tmp_path):
    """Run the worker on ``n`` ranks in ``mode`` over ``configs``; every rank's results, after
    :func:`check_results`."""
    try:
        proc = run_ranks(HERE / "_semi_auto_worker.py", n, timeout=120, args=[mode, 3, tmp_path] + configs)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the {n}-rank job did not finish in time:\n{exc.stderr}")
    assert proc.returncode == 0, proc.stderr[-4000:]
    return check_results(n, configs, tmp_path, proc.stdout + proc.stderr[-4000:])


def check_results(n, configs, out_dir, output=""):
    """The ``n`` ranks' results of ``configs`` (``out_dir/rank<r>.json``), after the checks every case must pass:
    losses and gathered weights equal to one process to 1e-5, the same losses on every rank (the
    ``redistribute`` case: blocks and gradients of layout changes as NumPy slices say). ``output``: the job's,
    shown when results are missing."""
    results = []
    for r in range(n):
        results += json.loads((out_dir / f"rank{r}.json").read_text())
    assert len(results) == n * len(configs), output
    by_case = {}
    for r in results:
        if r["case"] == "redistribute":
            assert r["bad"] == [], r
            continue
        assert r["size"] == n
        assert len(r["losses"]) == 3
        assert r["loss_diff"] <= 1e-5, r
        assert r["weight_diff"] <= 1e-5, r
        by_case.setdefault(r["case"], set()).add(tuple(r["losses"]))
    assert all(len(v) == 1 for v in by_case.values()), by_case
    return results
