"""Process groups: ``init``, ranks and sizes, user groups (``mindspore.communication.management``).

Design
------
One module-level :class:`_World` records what :func:`init` found: this process's rank and the
number of processes, the local (same-host) rank and size, and the collective backend joining the
processes (``None`` when there is a single process). User groups created by :func:`create_group`
are ordered lists of world ranks; a process's rank in a group is its index in that list.

How ``init`` finds its world (:func:`launcher_world`): the MPI launcher that started the process says
the rank and size (Open MPI ``OMPI_COMM_WORLD_RANK``/``_SIZE``, MPICH and Intel MPI ``PMI_RANK``/
``PMI_SIZE``); msrun (:mod:`mindspore.parallel.cluster.run`) starts its workers
through that launcher and adds MindSpore's variables (``MS_WORKER_NUM``, ``RANK_ID``), which must
agree with it. With more than one process ``init`` asks the plugins' ``ms_collective_backends`` hook
for the ``"mpi"`` backend, which mindspore-parallel's own plugin provides when mpi4py is installed.
Under msrun over several hosts (``MSRUN_NODES`` > 1) each node's launcher started only that node's
workers: the rank is ``MSRUN_RANK_OFFSET`` + the launcher's rank and the size ``MS_WORKER_NUM``, and the
``"mpi"`` backend merges the nodes' MPI worlds into one world (``_mpi.msrun_world``).
Outside any launcher the process is alone: rank 0 of 1. MindSpore's variables without an MPI
launcher (a job started by another launcher, which would meet over TCP) are an error.

Joining waits for every process; ``MS_TOPO_TIMEOUT`` (msrun's ``--cluster_time_out``, seconds,
negative: forever) bounds that wait: a process still waiting then reports it and exits. Under a plain MPI
launcher (its proxy is the rank's parent: hydra's ``hydra_pmi_proxy``, Open MPI's ``prted``) the join is also
watched for the other ranks of the host: one that ended before joining (the join can never complete) ends the
waiting ranks at once, naming it and, when it had imported ``mindspore.communication``, its exit code (each
launched rank records ``sys.exit``'s status or an uncaught exception at exit, in a folder of the launch).

Faults: once several processes are joined, one that dies must not leave the others waiting in a
collective forever. ``init`` therefore installs ``sys.excepthook`` and ``threading.excepthook``
hooks: an uncaught exception prints its traceback and ``[rank N] ExcType: message`` on stderr and
aborts the whole job through the backend (``MPI_Abort``), and the launcher then stops every rank. A
rank killed outright (SIGKILL) is noticed by the launcher itself, which stops the others. A rank that ends with
status n != 0 after ``init`` aborts the job too, with code n, naming the rank and n (MPI's finalize would otherwise
wait for ranks still waiting for it in a collective):

* ``sys.exit(n)``: ``sys.exit`` is wrapped to note n;
* ``raise SystemExit(n)`` written out (or a ``sys.exit`` bound before the wrap) reaching the top of the main
  script: no Python hook sees it in CPython 3.11 (``sys.excepthook`` is skipped for SystemExit, the status is
  computed in C), but the interpreter flushes ``sys.stderr`` between the end of the script and handling the
  exception, with the exception still alive; ``init`` therefore puts a thin proxy in front of ``sys.stderr``
  whose ``flush``, when called from no Python frame at all (that flush alone), looks among the live objects for
  a SystemExit that only the interpreter holds (no referrer: one caught and kept is referred to by a variable,
  a frame or a container) and notes its status. That flush happens for
  ``python script.py`` (mpiexec's and msrun's way of running a script), not for ``python -m`` or ``-c``; a
  program that replaces ``sys.stderr`` after ``init`` loses it too. Then the ``atexit`` handler aborts the job;
* ``os._exit(n)``: wrapped (in the process that called ``init``, not in a forked child) to report the rank and
  abort with n; unwrapped, MPICH's launcher ends the job with n as well, but without naming the rank.

:func:`release` removes the hooks.

The three world-group names (``hccl_world_group``, ``nccl_world_group``, ``mccl_world_group``) all
denote the world group, as in MindSpore, where the default argument ``GlobalComm.WORLD_COMM_GROUP``
is bound before ``init`` chooses the backend.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
import traceback

from mindspore.plugin import ProcessGroup, collective_backends, set_group_creator, set_process_groups

__all__ = ["GlobalComm", "init", "release", "get_rank", "get_local_rank", "get_group_size", "get_local_rank_size",
           "get_world_rank_from_group_rank", "get_group_rank_from_world_rank", "create_group", "destroy_group",
           "get_process_group_ranks", "get_comm_name", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
           "MCCL_WORLD_COMM_GROUP"]

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
_WORLD_GROUPS = (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)
_BACKEND_OF_TARGET = {"Ascend": "hccl", "GPU": "nccl", "CPU": "mccl"}
MPI_HINT = "pip install mindspore-parallel[mpi]"


class GlobalComm:
    """World communication information: ``BACKEND`` (``"hccl"``, ``"nccl"`` or ``"mccl"``),
    ``WORLD_COMM_GROUP`` (its world group's name), ``INITED`` and ``CHECK_ENVS``."""

    BACKEND = "hccl"
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


class _World:
    def __init__(self, rank, size, local_rank, local_size, collective=None):
        self.rank = rank
        self.size = size
        self.local_rank = local_rank
        self.local_size = local_size
        self.collective = collective
        self.groups: dict[str, tuple[int, ...]] = {}
        self.group_comms: dict[str, object] = {}


_lock = threading.RLock()
_world: _World | None = None


def _publish_groups():
    """Tell the backends' collective kernels each group's size, this process's rank in it and its
    communicator (no groups: one process)."""
    groups = []
    if _world is not None:
        for name in _WORLD_GROUPS:
            groups.append(ProcessGroup(name, _world.size, _world.rank, _world.collective))
        for name, ranks in _world.groups.items():
            rank = ranks.index(_world.rank) if _world.rank in ranks else -1
            groups.append(ProcessGroup(name, len(ranks), rank, _world.group_comms.get(name)))
    set_process_groups(groups, world=GlobalComm.WORLD_COMM_GROUP if _world is not None else None)


# (rank, size) variables of the MPI launchers: Open MPI (also under PMIx), MPICH / Intel MPI (hydra, PMI).
_LAUNCHER_VARS = (("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), ("PMI_RANK", "PMI_SIZE"))


def _int_env(name):
    value = os.environ.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise RuntimeError(f"For 'init', the environment variable {name} must be an integer, but got "
                           f"{value!r}.") from None


def launcher_world():
    """``(rank, size, launcher)`` of this process as its launcher says: the MPI launcher's variables, checked
    against msrun's; ``(0, 1, None)`` outside any launcher.

    Raises:
        RuntimeError: the variables are not integers, contradict each other, or name a job of several processes
            without an MPI launcher.
    """
    rank = size = None
    launcher = None
    for rank_var, size_var in _LAUNCHER_VARS:
        size = _int_env(size_var)
        if size is not None:
            rank = _int_env(rank_var) or 0
            launcher = f"mpiexec ({rank_var}/{size_var})"
            break
    worker_num = _int_env("MS_WORKER_NUM")
    if launcher is None:
        if worker_num is not None and worker_num > 1:
            raise RuntimeError(f"For 'init', MS_WORKER_NUM={worker_num} says this process is one of {worker_num} "
                               f"workers, but it was not started by an MPI launcher, which mindspore-parallel needs "
                               f"to join the processes. Start the job with msrun of mindspore-parallel (it runs the "
                               f"workers through mpiexec) or with 'mpiexec -n {worker_num} python <script>'.")
        return 0, 1, None
    if not 0 <= rank < size:
        raise RuntimeError(f"For 'init', the launcher's rank {rank} is not in [0, {size}).")
    nodes = _int_env("MSRUN_NODES")
    if nodes is not None and nodes > 1:
        # msrun over several hosts: each node's launcher started its local workers; the worlds are merged in
        # node order (see mindspore.parallel.cluster.run), so the global rank is the node's offset + the local one.
        rank += _int_env("MSRUN_RANK_OFFSET") or 0
        size = worker_num if worker_num is not None else size
        launcher = f"msrun over {nodes} nodes ({launcher})"
    if worker_num is not None and worker_num != size and not os.environ.get("MS_SIMULATION_LEVEL"):
        raise RuntimeError(f"For 'init', MS_WORKER_NUM is {worker_num} but the MPI launcher started {size} "
                           f"processes; msrun's --worker_num must equal the number of processes.")
    rank_id = _int_env("RANK_ID")
    if os.environ.get("MS_ROLE") == "MS_WORKER" and rank_id is not None and rank_id != rank:
        raise RuntimeError(f"For 'init', RANK_ID is {rank_id} but the MPI launcher gave this process rank {rank}.")
    return rank, size, launcher


def launcher_world_size():
    """Number of processes the launcher started (1 when not launched by ``mpiexec``)."""
    try:
        return launcher_world()[1]
    except RuntimeError:
        return 1


def _collective_factory(name):
    return collective_backends().get(name)


def _join_processes(size):
    factory = _collective_factory("mpi")
    if factory is not None:
        return factory()
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        raise RuntimeError(f"For 'init', this program was launched by mpiexec with {size} processes, but mpi4py is "
                           f"not installed, so the processes cannot be joined. Install it with "
                           f"'{MPI_HINT}'.") from None
    raise RuntimeError(f"For 'init', this program was launched by mpiexec with {size} processes, but no plugin "
                       f"offers the 'mpi' collective backend; check that the 'parallel' plugin of "
                       f"mindspore-parallel is not blocked (python -m mindspore.info).")


# The watcher of a join. MPI_Init blocks holding the GIL, so no Python thread of the joining process can act: this
# small process does. It waits on its stdin for the end of the join (EOF). Meanwhile, past the timeout (if any)
# it reports it and kills the joining process; and when the launcher's proxy is this process's parent, it watches
# the other ranks the proxy started on this host: one that ended before the join completed (it never will) is
# reported, with the exit code it recorded, and the joining process killed, so that the launcher ends the job.
_JOIN_WATCHER = """
import json, os, select, signal, sys, time
pid, timeout, message, proxy, local_n, size, records, me = sys.argv[1:9]
pid, timeout, proxy, local_n, size = int(pid), float(timeout), int(proxy), int(local_n), int(size)

def ranks_alive():
    # (live processes the proxy started, the ranks among them whose environment could be read)
    pids, alive = 0, set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) != proxy or fields[0] in "ZX":
                continue
            pids += 1
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = dict(v.split(b"=", 1) for v in f.read().split(b"\\0") if b"=" in v)
        except (OSError, ValueError):
            continue
        rank = env.get(b"PMI_RANK", env.get(b"OMPI_COMM_WORLD_RANK"))
        if rank is not None:
            alive.add(int(rank))
    return pids, alive

def describe(rank):
    try:
        with open(os.path.join(records, f"{rank}.exit.json")) as f:
            record = json.load(f)
    except (OSError, ValueError):
        return (f"rank {rank} ended before joining (its exit code is unknown here: it did not import "
                f"mindspore.communication)")
    error = f" ({record['error']})" if record.get("error") else ""
    return f"rank {rank} exited with code {record['code']}{error} before joining"

start, seen = time.monotonic(), set()
while not select.select([sys.stdin], [], [], 0.2)[0]:
    if timeout >= 0 and time.monotonic() - start > timeout:
        sys.stderr.write(message + "\\n")
        break
    if proxy > 0:
        live, alive = ranks_alive()
        seen |= alive
        if live < local_n:
            gone = sorted(set(range(size)) - alive) if local_n == size else sorted(seen - alive)
            what = "; ".join(describe(r) for r in gone) or f"{local_n - live} rank(s) of this host ended"
            sys.stderr.write(f"[rank {me}] RuntimeError: For 'init', {what}, so the cluster of {size} processes "
                             f"cannot be built; ending the job.\\n")
            break
else:
    sys.exit(0)
sys.stderr.flush()
os.kill(pid, signal.SIGKILL)
"""

_PROXIES = ("hydra_pmi_proxy", "prted", "orted")   # the launcher processes that start the ranks of a host


def _process_started(pid):
    """The start time (clock ticks after boot) of process ``pid``, or ``None`` when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            stat = f.read()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2:].split()[19])


def _launcher_proxy():
    """``(pid, start time)`` of the MPI launcher's proxy when it is this process's parent, else ``(0, 0)``."""
    ppid = os.getppid()
    try:
        with open(f"/proc/{ppid}/comm", encoding="utf-8") as f:
            name = f.read().strip()
    except OSError:
        return 0, 0
    started = _process_started(ppid) if name in _PROXIES else None
    return (ppid, started) if started is not None else (0, 0)


_RECORDS_PREFIX = "mindspore-launch-"


def _records_dir():
    """Where the ranks of this launch on this host record how they ended before joining (see :func:`_at_exit`)."""
    proxy, started = _launcher_proxy()
    if not proxy:
        return None
    import tempfile
    return os.path.join(tempfile.gettempdir(), f"{_RECORDS_PREFIX}{os.getuid()}-{proxy}-{started}")


def _sweep_stale_records(folder):
    """Remove the record folders (next to ``folder``) of this user's launches whose launcher proxy is gone: nothing
    reads them once their job ended, and nothing else would remove them. A folder is known as its job's by the
    proxy's pid and start time in its name (a reused pid starts at another time)."""
    import shutil
    parent, prefix = os.path.dirname(folder), f"{_RECORDS_PREFIX}{os.getuid()}-"
    try:
        names = [n for n in os.listdir(parent) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        try:
            proxy, started = (int(v) for v in name[len(prefix):].split("-"))
        except ValueError:
            continue
        if _process_started(proxy) != started:
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)


def _local_ranks():
    for var in ("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"):
        value = os.environ.get(var, "").strip()
        if value.isdigit():
            return int(value)
    return 0


def _join_with_timeout(size, rank):
    """Join the processes under a watcher (see ``_JOIN_WATCHER``): past ``MS_TOPO_TIMEOUT`` seconds of waiting, or
    once another rank of this host ended without joining, it reports it and ends this process."""
    timeout = _int_env("MS_TOPO_TIMEOUT")
    proxy, _ = _launcher_proxy()
    local_n = _local_ranks() if proxy else 0
    if (timeout is None or timeout < 0) and not local_n or not sys.executable:
        return _join_processes(size)
    message = (f"[rank {rank}] RuntimeError: For 'init', the cluster of {size} processes was not built within "
               f"{timeout} seconds (MS_TOPO_TIMEOUT, msrun's --cluster_time_out): some processes did not start, "
               f"failed before init() or are stuck.")
    import subprocess
    watcher = subprocess.Popen([sys.executable, "-I", "-S", "-c", _JOIN_WATCHER, str(os.getpid()),
                                str(-1 if timeout is None or timeout < 0 else timeout), message,
                                str(proxy if local_n else 0), str(local_n), str(size), _records_dir() or "",
                                str(rank)], stdin=subprocess.PIPE)
    try:
        return _join_processes(size)
    finally:
        watcher.stdin.close()
        watcher.wait()


# --- how a rank ends -------------------------------------------------------------------------------------------
_exit = {"code": None, "error": None}   # sys.exit's status, or 1 and the uncaught exception


def _status(arg):
    """The exit status of ``SystemExit(arg)``."""
    if arg is None:
        return 0
    return arg if isinstance(arg, int) and not isinstance(arg, bool) else 1


def _at_exit():
    """At the end of a launched rank: after ``init``, ``sys.exit(n)`` with n != 0 aborts the job (the other ranks
    may be waiting for this one in a collective, and MPI's finalize would wait for them: a hang); before it, a
    failure is recorded for the ranks waiting in ``init`` (their join watchers read it)."""
    code = _exit["code"]
    world = _world
    if world is not None and world.collective is not None and world.size > 1:
        if code and _can_abort(world.collective):
            _report_exit(world, code, "")
        return
    records = _records_dir()
    if world is None and code and records:
        try:
            rank = launcher_world()[0]
            if not os.path.isdir(records):      # (the first record of this launch: the ended launches' go)
                _sweep_stale_records(records)
            os.makedirs(records, exist_ok=True)
            path = os.path.join(records, f"{rank}.exit.json")
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                json.dump({"rank": rank, "code": code, "error": _exit["error"]}, f)
            os.replace(path + ".tmp", path)
        except (OSError, RuntimeError):
            pass


def _install_exit_recording():
    """In a rank of a launched job (several processes): note ``sys.exit``'s status and an uncaught exception,
    for :func:`_at_exit`."""
    if getattr(sys.exit, "_ms_records", False) or launcher_world_size() <= 1:
        return
    exit_ = sys.exit
    previous_hook = sys.excepthook

    def recording_exit(status=None):
        _exit["code"] = _status(status)
        exit_(status)

    def recording_excepthook(exc_type, exc, tb):
        if _world is None:
            text = "".join(traceback.format_exception_only(exc_type, exc)).strip().splitlines()
            _exit.update(code=1, error=text[-1] if text else exc_type.__name__)
        previous_hook(exc_type, exc, tb)

    recording_exit._ms_records = True
    sys.exit = recording_exit
    sys.excepthook = recording_excepthook
    import atexit
    atexit.register(_at_exit)


_hooks = {}
_real_os_exit = os._exit
_aborting = []


def _abort_job(collective, code=1):
    """End every process of the job: the backend's abort (``MPI_Abort``), else this process alone."""
    _aborting.append(code)
    try:
        abort = getattr(collective, "abort", None)
        if abort is not None:
            abort(code)
        else:
            collective.comm.Abort(code)
    finally:
        _real_os_exit(code)


def _uncaught_system_exit():
    """The status of the SystemExit that ended the main script (see the module docstring), or None. The
    interpreter holds it in C alone: no referrer among the live objects."""
    import gc
    candidates = [obj for obj in gc.get_objects() if isinstance(obj, SystemExit)]
    for obj in candidates:
        if not [ref for ref in gc.get_referrers(obj) if ref is not candidates]:
            return _status(obj.code)
    return None


class _StderrWatch:
    """``sys.stderr`` after ``init`` in a job of several processes: the stream itself, except that the flush the
    interpreter makes after the main script ended (the only one called from no Python frame) notes the status of
    a SystemExit that ended it."""

    def __init__(self, stream):
        object.__setattr__(self, "_stream", stream)

    def flush(self):
        self._stream.flush()
        if _exit["code"] is None and sys._getframe().f_back is None:
            code = _uncaught_system_exit()
            if code is not None:
                _exit["code"] = code

    def write(self, text):
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)

    def __setattr__(self, name, value):
        setattr(self._stream, name, value)


def _report_exit(world, code, how):
    """Say on stderr (and to msrun) that this rank ended with ``code`` after ``init`` and abort the job with it."""
    line = f"SystemExit: exit code {code}"
    sys.stderr.write(f"[rank {world.rank}] {line}\nAborting the job of {world.size} processes: rank "
                     f"{world.rank} exited with code {code} after init(){how}.\n")
    sys.stderr.flush()
    _leave_msrun_record(world.rank, line, code)
    time.sleep(0.2)
    _abort_job(world.collective, code)


def _leave_msrun_record(rank, error, returncode=1):
    """Under msrun, tell it which rank failed and why: the launcher kills this process before the worker
    process that watches it could."""
    job_dir = os.environ.get("MSRUN_JOB_DIR")
    if not job_dir or not os.path.isdir(job_dir):
        return
    path = os.path.join(job_dir, f"{rank}.fault.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump({"rank": rank, "pid": os.getpid(), "returncode": returncode, "time": time.time(), "error": error},
                  f)
    os.replace(path + ".tmp", path)


def _can_abort(collective):
    return getattr(collective, "abort", None) is not None or hasattr(getattr(collective, "comm", None), "Abort")


def _install_fault_hooks(world):
    """Make an uncaught exception in any thread of this rank end the whole job (see the module docstring); not
    for a backend that cannot abort a job."""
    if _hooks or not _can_abort(world.collective):
        return

    def report(exc_type, exc, tb, thread=None):
        where = f" in thread {thread.name!r}" if thread is not None else ""
        text = "".join(traceback.format_exception_only(exc_type, exc)).strip().splitlines()
        line = f"{text[-1] if text else exc_type.__name__}{where}"
        try:
            # one write, then a moment for the launcher to forward it: MPI_Abort makes it stop forwarding output
            sys.stderr.write("".join(traceback.format_exception(exc_type, exc, tb)) + f"[rank {world.rank}] {line}\n"
                             f"Aborting the job of {world.size} processes: rank {world.rank} raised an uncaught "
                             f"exception.\n")
            sys.stderr.flush()
            _leave_msrun_record(world.rank, line)
            time.sleep(0.2)
        finally:
            _abort_job(world.collective, 1)

    def excepthook(exc_type, exc, tb):
        report(exc_type, exc, tb)

    def thread_excepthook(args):
        if args.exc_type is SystemExit:
            return
        report(args.exc_type, args.exc_value, args.exc_traceback, args.thread)

    pid = os.getpid()

    def os_exit(status):
        # os._exit skips every hook: report here, in the process that joined (a forked child only exits)
        if status and os.getpid() == pid and not _aborting and _world is world:
            _report_exit(world, status, " (os._exit)")
        _real_os_exit(status)

    _hooks["sys"] = sys.excepthook
    _hooks["threading"] = threading.excepthook
    _hooks["os._exit"] = os._exit
    sys.excepthook = excepthook
    threading.excepthook = thread_excepthook
    os._exit = os_exit
    if not isinstance(sys.stderr, _StderrWatch) and sys.stderr is not None:
        _hooks["stderr"] = sys.stderr
        sys.stderr = _StderrWatch(sys.stderr)


def _remove_fault_hooks():
    if "sys" in _hooks:
        sys.excepthook = _hooks.pop("sys")
    if "threading" in _hooks:
        threading.excepthook = _hooks.pop("threading")
    if "os._exit" in _hooks:
        os._exit = _hooks.pop("os._exit")
    if "stderr" in _hooks:
        stream = _hooks.pop("stderr")
        if isinstance(sys.stderr, _StderrWatch):
            sys.stderr = stream


def _device_target():
    from mindspore import context
    return context.get_context("device_target")


def _default_backend_name():
    target = _device_target()
    name = _BACKEND_OF_TARGET.get(target)
    if name is None:
        raise RuntimeError(f"For 'init', the 'device_target' {target!r} is not supported in parallel "
                           f"initialization, please use Ascend, GPU or CPU.")
    return name


def init(backend_name=None):
    """Initialize the collective communication service and the world group.

    In a single process this is rank 0 of a world of 1. Launched by ``mpiexec -n N`` (N > 1), the
    processes are joined over MPI (``pip install mindspore-parallel[mpi]``).

    Args:
        backend_name (str, optional): ``"hccl"``, ``"nccl"`` or ``"mccl"``; by default chosen from the
            device target (Ascend, GPU, CPU).

    Raises:
        TypeError: ``backend_name`` is not a string.
        RuntimeError: the backend name or device target is not supported, or the launched processes
            cannot be joined.

    Examples:
        >>> from mindspore.communication import init, get_rank
        >>> init()
        >>> get_rank()
        0
    """
    global _world
    if backend_name is None:
        backend_name = _default_backend_name()
    if not isinstance(backend_name, str):
        raise TypeError(f"For 'init', the argument 'backend_name' must be a string, but got the type : "
                        f"{type(backend_name)}")
    name = backend_name.lower()
    if name not in _BACKEND_OF_TARGET.values():
        raise RuntimeError(f"For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           f"but got 'backend_name' : {backend_name}")
    target = _device_target()
    expected = _BACKEND_OF_TARGET.get(target)
    if expected is not None and name != expected:
        raise RuntimeError(f"For 'init', the argument 'backend_name' should be '{expected}' to init '{target}', "
                           f"but got '{backend_name}'.")
    with _lock:
        if _world is not None:
            if name != GlobalComm.BACKEND:
                raise RuntimeError(f"For 'init', the communication service is already initialized with backend "
                                   f"'{GlobalComm.BACKEND}'; call release() before init('{name}').")
            return
        if os.environ.get("MS_SIMULATION_LEVEL"):
            raise RuntimeError(f"Dryrun is not supported on {target} device for a distributed job.")
        rank, size, launcher = launcher_world()
        if size > 1:
            comm = _join_with_timeout(size, rank)
            if (comm.rank, comm.size) != (rank, size):   # e.g. msrun's nodes merged out of their order
                raise RuntimeError(f"For 'init', the joined world gives this process rank {comm.rank} of "
                                   f"{comm.size}, but {launcher} says rank {rank} of {size}.")
            world = _World(comm.rank, comm.size, comm.local_rank, comm.local_size, comm)
            _install_fault_hooks(world)
        else:
            world = _World(0, 1, 0, 1)
        _world = world
        GlobalComm.BACKEND = name
        GlobalComm.WORLD_COMM_GROUP = f"{name}_world_group"
        GlobalComm.INITED = True
        _publish_groups()


def release():
    """Release the communication service: the world and every user group.

    Raises:
        RuntimeError: :func:`init` was not called.
    """
    global _world
    with _lock:
        world = _check_inited("release")
        for comm in world.group_comms.values():
            if comm is not None:
                comm.free()
        if world.collective is not None:
            _remove_fault_hooks()
            world.collective.finalize()
        _world = None
        GlobalComm.INITED = False
        _publish_groups()


def _check_inited(api):
    if _world is None:
        raise RuntimeError(f"For '{api}', the communication service is not initialized. Call "
                           f"mindspore.communication.init() first.")
    return _world


def _check_group(api, group):
    if not isinstance(group, str):
        raise TypeError(f"For '{api}', the argument 'group' must be type of string, but got 'group' type : "
                        f"{type(group)}.")


def _before_init(api, group, env, default):
    """What the rank and size queries answer before :func:`init`, as MindSpore 2.10 does: the launcher's
    variable ``env`` if set, else ``default`` (a lone process: rank 0 of 1), whatever ``group`` names."""
    _check_group(api, group)
    value = os.environ.get(env, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"For '{api}', the environment variable '{env}' must be an integer, but got "
                         f"'{value}'.") from None


def _group_ranks(api, group):
    """The world ranks of ``group`` (world group: all of them)."""
    world = _check_inited(api)
    _check_group(api, group)
    if group in _WORLD_GROUPS:
        return tuple(range(world.size))
    if group not in world.groups:
        raise ValueError(f"For '{api}', the group '{group}' does not exist; create it with create_group() first.")
    return world.groups[group]


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank of this process in ``group`` (the world by default).

    Before :func:`init`: ``RANK_ID`` from the environment, 0 if unset (as MindSpore 2.10).

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` does not exist or does not contain this process.

    Examples:
        >>> from mindspore.communication import init, get_rank
        >>> init()
        >>> get_rank()
        0
    """
    if _world is None:
        return _before_init("get_rank", group, "RANK_ID", 0)
    ranks = _group_ranks("get_rank", group)
    if _world.rank not in ranks:
        raise ValueError(f"For 'get_rank', this process (world rank {_world.rank}) is not a member of group "
                         f"'{group}' {list(ranks)}.")
    return ranks.index(_world.rank)


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes in ``group`` (the world by default).

    Before :func:`init`: ``RANK_SIZE`` from the environment, 1 if unset.

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` does not exist.
    """
    if _world is None:
        return _before_init("get_group_size", group, "RANK_SIZE", 1)
    return len(_group_ranks("get_group_size", group))


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of the processes in ``group`` (the world by default), in group-rank order.

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` does not exist.
        RuntimeError: :func:`init` was not called.
    """
    return list(_group_ranks("get_process_group_ranks", group))


def get_comm_name(group=GlobalComm.WORLD_COMM_GROUP):
    """The name of the communicator of ``group``: the group's name, with the world group under its
    backend's name (``mccl_world_group`` after ``init("mccl")``).

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` does not exist.
        RuntimeError: :func:`init` was not called.
    """
    _group_ranks("get_comm_name", group)
    return GlobalComm.WORLD_COMM_GROUP if group in _WORLD_GROUPS else group


def _world_only(api, group):
    world = _check_inited(api)
    _check_group(api, group)
    if group not in _WORLD_GROUPS:
        raise ValueError(f"For '{api}', only the world group is supported, but got 'group' : {group}.")
    return world


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank of this process among the processes of its host.

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` is not the world group.

    Before :func:`init`: ``LOCAL_RANK`` from the environment, 0 if unset.
    """
    if _world is None:
        return _before_init("get_local_rank", group, "LOCAL_RANK", 0)
    return _world_only("get_local_rank", group).local_rank


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of processes on this process's host.

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` is not the world group.

    Before :func:`init`: ``LOCAL_RANK_SIZE`` from the environment, 1 if unset.
    """
    if _world is None:
        return _before_init("get_local_rank_size", group, "LOCAL_RANK_SIZE", 1)
    return _world_only("get_local_rank_size", group).local_size


def _check_rank_id(api, name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{api}', the argument '{name}' must be type of int, but got type : {type(value)}.")


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of the process whose rank in user group ``group`` is ``group_rank_id``.

    Raises:
        TypeError: ``group`` is not a string or ``group_rank_id`` not an int.
        ValueError: ``group`` is the world group or does not exist, or the rank is out of range.
        RuntimeError: :func:`init` was not called.
    """
    api = "get_world_rank_from_group_rank"
    _check_rank_id(api, "group_rank_id", group_rank_id)
    if group in _WORLD_GROUPS:
        raise ValueError(f"For '{api}', the argument 'group' should not be the world group '{group}'.")
    ranks = _group_ranks(api, group)
    if not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"For '{api}', the 'group_rank_id' must be in [0, {len(ranks)}), but got {group_rank_id}.")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in user group ``group`` of the process with world rank ``world_rank_id``.

    Raises:
        TypeError: ``world_rank_id`` is not an int or ``group`` not a string.
        ValueError: ``group`` is the world group or does not exist, or does not contain that rank.
        RuntimeError: :func:`init` was not called.
    """
    api = "get_group_rank_from_world_rank"
    _check_rank_id(api, "world_rank_id", world_rank_id)
    if group in _WORLD_GROUPS:
        raise ValueError(f"For '{api}', the argument 'group' should not be the world group '{group}'.")
    ranks = _group_ranks(api, group)
    if world_rank_id not in ranks:
        raise ValueError(f"For '{api}', world rank {world_rank_id} is not a member of group '{group}' "
                         f"{list(ranks)}.")
    return ranks.index(world_rank_id)


def create_group(group, rank_ids, options=None):
    """Create user group ``group`` of the processes with world ranks ``rank_ids`` (in that order).

    Args:
        group (str): the group's name.
        rank_ids (list[int]): at least two distinct world ranks.
        options: backend options (accepted for compatibility; unused by the MPI backend).

    Raises:
        TypeError: ``group`` is not a string or ``rank_ids`` not a list of ints.
        ValueError: fewer than two ranks, duplicates, a rank outside the world, or the name is taken.
        RuntimeError: :func:`init` was not called.

    Examples:
        >>> from mindspore.communication import init, create_group
        >>> init()                                    # under mpiexec -n 4
        >>> create_group("0-2", [0, 2])
    """
    world = _check_inited("create_group")
    _check_group("create_group", group)
    if not isinstance(rank_ids, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in rank_ids):
        raise TypeError(f"For 'create_group', the argument 'rank_ids' must be a list of int, but got {rank_ids!r}.")
    if len(rank_ids) <= 1:
        raise ValueError(f"For 'create_group', the size of 'rank_ids' must be larger than 1, but got {rank_ids}.")
    if len(set(rank_ids)) != len(rank_ids):
        raise ValueError(f"For 'create_group', the 'rank_ids' must not have duplicate data, but got {rank_ids}.")
    bad = [r for r in rank_ids if not 0 <= r < world.size]
    if bad:
        raise ValueError(f"For 'create_group', every rank id must be in [0, {world.size}) (the world size), "
                         f"but got {rank_ids}.")
    with _lock:
        if group in _WORLD_GROUPS or group in world.groups:
            raise ValueError(f"For 'create_group', the group '{group}' already exists.")
        comm = None
        if world.collective is not None and world.rank in rank_ids:
            comm = world.collective.create_group(list(rank_ids))
        world.groups[group] = tuple(rank_ids)
        world.group_comms[group] = comm
        _publish_groups()


def destroy_group(group):
    """Destroy user group ``group``.

    Raises:
        TypeError: ``group`` is not a string.
        ValueError: ``group`` is the world group or does not exist.
        RuntimeError: :func:`init` was not called.
    """
    world = _check_inited("destroy_group")
    _check_group("destroy_group", group)
    if group in _WORLD_GROUPS:
        raise ValueError(f"For 'destroy_group', the world group '{group}' cannot be destroyed.")
    with _lock:
        if group not in world.groups:
            raise ValueError(f"For 'destroy_group', the group '{group}' does not exist.")
        comm = world.group_comms.pop(group)
        del world.groups[group]
        if comm is not None:
            comm.free()
        _publish_groups()


def group_communicator(group=GlobalComm.WORLD_COMM_GROUP):
    """The collective backend object of ``group`` for this process (``None`` in a single process).

    Used by the collective primitives; a process outside ``group`` gets ``None``.
    """
    world = _check_inited("group_communicator")
    if group in _WORLD_GROUPS:
        return world.collective
    _group_ranks("group_communicator", group)
    return world.group_comms.get(group)


_install_exit_recording()
set_group_creator(lambda name, ranks: create_group(name, ranks))   # SyncBatchNorm's process_groups (core)
