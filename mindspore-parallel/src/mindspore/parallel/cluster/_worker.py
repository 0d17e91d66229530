"""One msrun worker: the process ``mpiexec`` starts for each rank; it runs the user's command.

msrun starts ``mpiexec -n N python _worker.py`` with the job described in the ``MSRUN_WORKER_SPEC``
environment variable (JSON). For its rank (``PMI_RANK``, or ``OMPI_COMM_WORLD_RANK`` under Open MPI)
this process exports the variables MindSpore's msrun gives a worker (``RANK_ID``, ``MS_NODE_ID``: the
global rank, i.e. the node's rank offset plus the launcher's rank; ``DEVICE_ID``: the rank on this host), applies the CPU binding, and runs the command with stdout and stderr in the rank's log
file. It stays as the command's parent so that it learns how the command ended (exit code or signal),
which it writes to ``<status_dir>/<rank>.json`` for msrun, and then ends the same way (same code, or
same signal), so that the MPI launcher sees the worker's own exit status.

No process may outlive the job: this process asks the kernel to kill it when its parent (hydra's
proxy) dies, and the command to be killed when this process dies (``PR_SET_PDEATHSIG``). Signals a
launcher forwards (SIGINT, SIGTERM, ...) go on to the command.

This file is run by path, not as a module, so that it does not import ``mindspore``.
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

_PR_SET_PDEATHSIG = 1
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1, signal.SIGUSR2)


def _die_with_parent():
    """Have the kernel SIGKILL this process when its parent dies (Linux; elsewhere nothing)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _launcher_rank():
    for var in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    raise SystemExit("msrun worker: no rank from the MPI launcher (PMI_RANK / OMPI_COMM_WORLD_RANK not set)")


def _local_rank(rank):
    for var in ("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    return rank


def _write_status(status_dir, rank, record):
    if not status_dir:
        return
    path = os.path.join(status_dir, f"{rank}.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(record, f)
    os.replace(path + ".tmp", path)


def main():
    _die_with_parent()
    spec = json.loads(os.environ.pop("MSRUN_WORKER_SPEC"))
    parent = os.getppid()
    if parent == 1:  # the launcher died before the death signal was armed
        raise SystemExit(1)
    rank = _launcher_rank()
    local_rank = _local_rank(rank)
    # over several hosts (nodes), the global rank: this node's first rank (msrun's rendezvous) + the local one
    rank_id = spec["rank_id"] if spec.get("rank_id") is not None else spec.get("rank_offset", 0) + rank
    os.environ["RANK_ID"] = str(rank_id)
    os.environ["MS_NODE_ID"] = str(rank_id)
    os.environ["DEVICE_ID"] = str(local_rank)
    cpus = spec.get("cpus") or {}
    if str(local_rank) in cpus:
        os.sched_setaffinity(0, cpus[str(local_rank)])
    log_path = f"{spec['log_prefix']}_{rank_id}.log"
    status_dir = spec.get("status_dir")
    cmd = spec["cmds"][str(local_rank)]
    if status_dir:
        os.environ["MSRUN_JOB_DIR"] = status_dir  # lets msrun recognise the job's processes
    with open(log_path, "a", encoding="utf-8") as log:  # msrun created it empty
        # close_fds=False: the command must inherit the PMI connection (PMI_FD) this process inherited.
        child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                 close_fds=False, preexec_fn=_die_with_parent)
    if status_dir:
        with open(os.path.join(status_dir, f"{rank}.pid"), "w", encoding="utf-8") as f:
            f.write(f"{child.pid}\n")
    for sig in _FORWARDED:
        signal.signal(sig, lambda signum, _frame: child.send_signal(signum))
    code = child.wait()
    _write_status(status_dir, rank, {"rank": rank_id, "local_rank": local_rank, "pid": child.pid,
                                     "returncode": code, "time": time.time(), "log": os.path.abspath(log_path)})
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        time.sleep(1)
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
