"""Shared launcher for the multi-process tests: ``run_ranks(script, n)`` runs ``mpiexec -n N sys.executable script``.

CI machines have 2 cores and these tests routinely start 4 ranks, so the ranks are oversubscribed. MPICH busy-polls
while waiting; without yielding a waiting rank burns its whole time slice and a 4-rank job on 2 cores crawls. The
environment set here makes a waiting rank give the core back quickly:

* ``MPIR_CVAR_CH4_PROGRESS_THROTTLE=1`` with ``..._NO_PROGRESS_COUNT=64``: after 64 progress polls that found
  nothing, MPICH sleeps (``usleep(1)``), which is a real yield to the scheduler;
* ``MPIR_CVAR_POLLS_BEFORE_YIELD``/``MPIR_CVAR_POSIX_POLL_FREQUENCY`` lowered from 1000 so the shared-memory wait
  loops yield sooner;
* ``OMP_NUM_THREADS=1`` (and the BLAS equivalents) so N ranks do not each start a thread per core.

Measured on the 2-core CI machine: 4 ranks doing 40 all-reduces with unbalanced work between them (one rank
busy ten times longer each step) took 14.4 s with MPICH's defaults and 0.74 s with these settings; a balanced
job is unchanged (0.80 s / 0.74 s).

``skip_unless_mpi`` is a pytest mark for tests that need mpi4py and an ``mpiexec``; ``mpiexec()`` finds the
launcher next to the interpreter first (the ``mpich`` wheel installs it into the venv's ``bin``) and then on PATH.
"""
import os
import shutil
import subprocess
import sys

__all__ = ["OVERSUBSCRIBE_ENV", "mpiexec", "mpi_available", "run_ranks", "skip_unless_mpi"]

OVERSUBSCRIBE_ENV = {
    "MPIR_CVAR_CH4_PROGRESS_THROTTLE": "1",
    "MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT": "64",
    "MPIR_CVAR_POLLS_BEFORE_YIELD": "10",
    "MPIR_CVAR_POSIX_POLL_FREQUENCY": "10",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    # Open MPI, when that is the launcher found: allow more ranks than cores and yield while idle.
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_mpi_yield_when_idle": "1",
    "PRTE_MCA_rmaps_default_mapping_policy": ":oversubscribe",
}

# Set by a launcher in the parent (e.g. a test run itself under mpiexec): a child must not believe it is a rank
# of the parent's job.
_LAUNCH_VARS = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMI_FD", "PMI_PORT",
                "PMIX_RANK", "PMI_HOSTNAME")


def mpiexec():
    """Path of the ``mpiexec`` to use, or None: the one beside ``sys.executable`` first, then PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.path.isfile(here) and os.access(here, os.X_OK):
        return here
    return shutil.which("mpiexec")


def mpi_available():
    """True when mpi4py imports and an ``mpiexec`` exists."""
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return mpiexec() is not None


def _skip_mark():
    import pytest
    return pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")


try:
    skip_unless_mpi = _skip_mark()
except ImportError:  # used outside pytest (e.g. from a benchmark)
    skip_unless_mpi = None


def run_ranks(script_path, n, timeout=60, env=None, args=()):
    """Run ``mpiexec -n n sys.executable script_path *args`` and return the ``CompletedProcess`` (text output).

    ``env`` entries are added to (and override) this process's environment plus ``OVERSUBSCRIBE_ENV``. A job that
    outlives ``timeout`` seconds raises ``subprocess.TimeoutExpired`` after its process group is killed, so nothing
    is left running.
    """
    launcher = mpiexec()
    if launcher is None:
        raise RuntimeError("run_ranks needs an mpiexec: pip install mindspore-parallel[mpi]")
    full_env = {k: v for k, v in os.environ.items() if k not in _LAUNCH_VARS}
    full_env.update(OVERSUBSCRIBE_ENV)
    if env:
        full_env.update({k: str(v) for k, v in env.items()})
    cmd = [launcher, "-n", str(int(n)), sys.executable, str(script_path), *map(str, args)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full_env,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        raise subprocess.TimeoutExpired(cmd, timeout, output=out, stderr=err) from None
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
