"""``mindspore.mint.distributed``: every function on 2 MPI ranks (``test_mint_dist_worker.py``), the state queries
before initialisation, and the error when mindspore-parallel is not installed."""
import builtins
import importlib
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from mindspore.mint import distributed as dist

WORKER = pathlib.Path(__file__).with_name("test_mint_dist_worker.py")


def _mpiexec():
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    return here if os.access(here, os.X_OK) else shutil.which("mpiexec")


def _mpi_available():
    try:
        importlib.import_module("mpi4py")
        importlib.import_module("mindspore.communication")
    except ImportError:
        return False
    return _mpiexec() is not None


def test_state_before_init():
    assert dist.is_available()
    assert not dist.is_initialized()
    # as 2.10 (checked with it): RANK_ID and RANK_SIZE from the environment, else 0 and 1 (not PyTorch's -1)
    assert (dist.get_rank(), dist.get_world_size()) == (0, 1)


def test_rank_and_size_before_init_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("RANK_ID", "2")
    monkeypatch.setenv("RANK_SIZE", "4")
    assert (dist.get_rank(), dist.get_world_size()) == (2, 4)


def test_missing_addon_names_the_pip_install(monkeypatch):
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("mindspore.communication"):
            raise ModuleNotFoundError(f"No module named '{name}'", name=name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(importlib, "import_module", lambda name, *a: fake_import(name))
    with pytest.raises(ImportError, match="pip install mindspore-parallel"):
        dist.all_reduce(None)
    assert not dist.is_available()


def test_p2pop_checks_its_arguments():
    with pytest.raises(TypeError, match="isend or irecv"):
        dist.P2POp("send", None, 0)


@pytest.mark.skipif(not _mpi_available(), reason="mpi4py/mpiexec or mindspore-parallel not installed")
def test_every_function_on_two_ranks():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PMI_", "OMPI_", "PMIX_"))}
    env.update({"MPIR_CVAR_CH4_PROGRESS_THROTTLE": "1", "MPIR_CVAR_POLLS_BEFORE_YIELD": "10",
                "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"})
    proc = subprocess.run([_mpiexec(), "-n", "2", sys.executable, str(WORKER)], capture_output=True, text=True,
                          timeout=240, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert sorted(re.findall(r"OK \d", proc.stdout)) == ["OK 0", "OK 1"]
