"""``msrun``: start the workers of a distributed job on this host (``mindspore.parallel.cluster.run``).

Design
------
MindSpore's msrun spawns one scheduler process and ``local_worker_num`` worker processes, which
meet over TCP at ``master_addr:master_port``. Here the processes meet through MPI instead: msrun
runs ``mpiexec -n local_worker_num python _worker.py`` with the installed MPI's launcher (the
``mpich`` wheel's ``mpiexec`` beside ``sys.executable``, else the one on PATH), and each rank's
``_worker.py`` runs the user's command with the environment MindSpore's msrun gives a worker:

=================  ==================================================================
``MS_WORKER_NUM``  ``--worker_num``
``MS_SCHED_HOST``  ``--master_addr`` as an IP address (not in dry-run mode)
``MS_SCHED_PORT``  ``--master_port`` (not in dry-run mode)
``MS_TOPO_TIMEOUT`` ``--cluster_time_out``: ``init()`` gives up joining after so many seconds
``MS_ROLE``        ``MS_WORKER`` (not in dry-run mode)
``RANK_SIZE``      ``--worker_num``
``RANK_ID``, ``MS_NODE_ID``  the worker's rank
``DEVICE_ID``      the worker's rank on this host
``RANK_TABLE_FILE`` ``--rank_table_file`` when given
``MS_SIMULATION_LEVEL`` ``--sim_level`` when given
=================  ==================================================================

Each worker writes stdout and stderr to ``<log_dir>/worker_<rank>.log``; the MPI launcher's own
output goes to ``<log_dir>/scheduler.log`` (the launcher stands where MindSpore's scheduler stands).
With ``--join=True`` msrun shows the workers' logs (``--tail_worker_log``) and waits; when a worker
fails the launcher stops the others, and msrun prints which rank failed first with the last line of
its error and exits with status 1. Without ``--join`` msrun returns at once, as MindSpore's does,
and the job goes on in the background.

Several hosts (nodes)
---------------------
With ``worker_num > local_worker_num`` the job spans several msrun processes (one per node; MindSpore's way:
``msrun --worker_num=8 --local_worker_num=4 --master_addr=<node 0> --master_port=8118 --node_rank=<0|1> ...``).
Node 0 (``--node_rank=0``; without node ranks, the msrun that can listen at ``master_addr:master_port``) serves a
small TCP rendezvous there (:mod:`mindspore.parallel.cluster._rendezvous`); every other node's msrun registers.
Once the local worker numbers add up to ``worker_num`` each node learns its place (node-rank order, else join
order) and starts its workers with its own ``mpiexec -n local_worker_num``; ``_worker.py`` exports the global
rank (node offset + local rank) as ``RANK_ID``/``MS_NODE_ID``, plus ``MSRUN_RDZV``, ``MSRUN_NODE_INDEX``,
``MSRUN_NODES`` and ``MSRUN_RANK_OFFSET``, from which ``init()`` merges the nodes' MPI worlds into one
communicator (:func:`mindspore.communication._mpi.msrun_world`). Mismatched ``worker_num``, a duplicate
``node_rank``, local numbers adding up to more than ``worker_num``, or nodes still missing after
``--cluster_time_out`` seconds: every msrun that came stops with an error saying so, before any worker starts.

The msruns then watch each other over their rendezvous connections: a rank failing on one node is reported to
every node, whose msrun stops its workers and names the failed rank and node; a node's msrun that disappears
(connection closed without its ``done``) ends the job too. Node 0's msrun ends after every node's workers ended.
Without ``--join`` a background msrun process (output in ``scheduler.log.msrun``) does the rendezvous and the
watching, and msrun returns at once. A one-host job (``worker_num == local_worker_num``) needs ``master_addr`` to
be this host.
"""
import argparse
import ast
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

__all__ = ["get_args", "run", "main"]

_WORKER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_worker.py")
_MPI_HINT = "pip install mindspore-parallel[mpi]"
# MPICH busy-polls while it waits; with more ranks than cores these let a waiting rank yield the core.
_OVERSUBSCRIBE_ENV = {
    "MPIR_CVAR_CH4_PROGRESS_THROTTLE": "1",
    "MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT": "64",
    "MPIR_CVAR_POLLS_BEFORE_YIELD": "10",
    "MPIR_CVAR_POSIX_POLL_FREQUENCY": "10",
    "OMPI_MCA_rmaps_base_oversubscribe": "1",
    "OMPI_MCA_mpi_yield_when_idle": "1",
}
# A launcher's variables in msrun's own environment (msrun itself started by mpiexec) must not reach
# the job it starts.
_LAUNCH_VARS = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "PMI_SIZE",
                "PMI_RANK", "PMI_FD", "PMI_PORT", "PMIX_RANK", "PMI_HOSTNAME", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
                "MSRUN_JOB_DIR")


def _warn(message):
    print(f"[WARNING] msrun: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------
# Arguments (the options, defaults and checks of MindSpore 2.10's msrun)
# ---------------------------------------------------------------------------------------------------------

_CPU_LIST = re.compile(r"^(\d+-\d+|\d+(?:,\d+)*)$")


def _parse_bind(value, resource):
    """``--bind_core``/``--bind_numa``: ``True``/``False`` or a JSON dict ``{"deviceX": ["0-3", ...]}``."""
    desc = "cpuidX" if resource == "CPU" else "numaidX"
    if isinstance(value, str):
        if value.lower() == "true":
            return True
        if value.lower() == "false":
            return False
        if resource == "NUMA" and os.path.isfile(value):
            raise argparse.ArgumentTypeError(f"bind_numa json file '{value}': bind files are not supported by this "
                                             f"msrun; pass True or a dict such as '{{\"device0\": [\"0\"]}}'.")
        try:
            value = json.loads(value)
        except json.JSONDecodeError as e:
            raise argparse.ArgumentTypeError("Failed to parse JSON into a dictionary") from e
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"Type of {value} should be bool or dict, but got {type(value)}.")
    if any(k in value for k in ("bind_config", "bind_cpu", "bind_memory")):
        raise argparse.ArgumentTypeError("bind files ('bind_config', 'bind_cpu', 'bind_memory') are not supported "
                                         "by this msrun; pass True or a dict such as '{\"device0\": [\"0-3\"]}'.")
    for device, affinity in value.items():
        if not re.fullmatch(r"device\d+|scheduler", device):
            raise argparse.ArgumentTypeError(f"Key {device} must be in format 'scheduler' or 'deviceX'.")
        if not isinstance(affinity, list):
            raise argparse.ArgumentTypeError(f"Type of value for {device}:{affinity} should be a list, but got "
                                             f"{type(affinity)}.")
        cleaned = []
        for item in affinity:
            if not isinstance(item, str):
                raise argparse.ArgumentTypeError(f"{resource} {item} in {affinity} should be a string.")
            item = re.sub(r"\s+", "", item)
            if not _CPU_LIST.match(item):
                raise argparse.ArgumentTypeError(f"{resource} {item} in {affinity} should be in format '{desc}', "
                                                 f"'{desc},{desc[:-1]}Y' or '{desc}-{desc[:-1]}Y'.")
            cleaned.append(item)
        value[device] = cleaned
    return value


def _parse_bind_core(value):
    return _parse_bind(value, "CPU")


def _parse_bind_numa(value):
    return _parse_bind(value, "NUMA")


def _parser():
    parser = argparse.ArgumentParser(prog="msrun", description="Start the workers of a distributed MindSpore job on "
                                     "this host (node) through the MPI launcher (mpiexec).")
    add = parser.add_argument
    add("--worker_num", type=int, default=8, help="the total number of workers of the job (default: 8).")
    add("--local_worker_num", type=int, default=8, help="the number of workers on this host (default: 8).")
    add("--master_addr", default="127.0.0.1", type=str,
        help="IP address or host name of node 0, whose msrun serves the rendezvous of a job over several hosts "
        "(default: 127.0.0.1).")
    add("--master_port", default=8118, type=int, help="port of the rendezvous of a job over several hosts, "
        "exported to the workers as MS_SCHED_PORT (default: 8118).")
    add("--node_rank", default=-1, type=int, help="rank of this host among the hosts of the job (default: -1).")
    add("--log_dir", default="", type=str, help="directory of the log files (default: the current directory).")
    add("--join", default=False, type=ast.literal_eval, choices=[True, False],
        help="whether msrun waits for the workers, shows their logs and returns the job's result (default: False).")
    add("--cluster_time_out", default=600, type=int,
        help="seconds a worker waits in init() for the others before it exits; negative: forever (default: 600).")
    add("--bind_core", default=False, type=_parse_bind_core,
        help="bind each worker to CPU cores: True (an equal share each) or a dict '{\"device0\": [\"0-3\"]}'.")
    add("--bind_numa", default=False, type=_parse_bind_numa,
        help="bind each worker to a NUMA node (with numactl): True or a dict '{\"device0\": [\"0\"]}'.")
    add("--sim_level", default=-1, type=int, choices=[0, 1, 2, 3],
        help="simulation (dry-run) level, exported as MS_SIMULATION_LEVEL.")
    add("--sim_rank_id", default=-1, type=int,
        help="in dry-run mode, start only the worker of this rank (exported as RANK_ID).")
    add("--rank_table_file", default="", type=str, help="rank table file path, exported as RANK_TABLE_FILE.")
    add("--worker_log_name", default="", type=str,
        help="worker log file name instead of 'worker' ({ip} and {hostname} are replaced); '_<rank>.log' follows.")
    add("--tail_worker_log", default="-1", type=str,
        help="with --join=True, the ranks whose logs are shown on the console, e.g. '0,1' (default: -1, all).")
    add("task_script", type=str, help="the script to run in every worker (or python/python3/pytest followed by "
        "its arguments).")
    add("task_script_args", nargs=argparse.REMAINDER, help="arguments of the script.")
    return parser


def get_args(argv=None):
    """Parse msrun's command line (``sys.argv[1:]`` by default)."""
    return _parser().parse_args(argv)


# ---------------------------------------------------------------------------------------------------------
# Host, launcher, binding
# ---------------------------------------------------------------------------------------------------------

def _to_ip(addr):
    addr = addr.strip()
    if addr.startswith("[") and addr.endswith("]"):
        addr = addr[1:-1]
    try:
        infos = socket.getaddrinfo(addr, None, socket.AF_UNSPEC, socket.SOCK_STREAM)
        ipv4 = [info for info in infos if info[0] == socket.AF_INET]
        return (ipv4 or infos)[0][4][0]
    except (socket.gaierror, UnicodeError, IndexError, OSError) as e:
        raise RuntimeError("DNS resolution has failed. Please verify that the correct hostname has been specified "
                           "in the '--master_addr' parameter") from e


def _is_local_ip(ip):
    """Whether ``ip`` is an address of this host: a socket can be bound to it."""
    family = socket.AF_INET6 if ":" in ip else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((ip, 0))
        return True
    except OSError:
        return False


def _mpiexec():
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.path.isfile(here) and os.access(here, os.X_OK):
        return here
    found = shutil.which("mpiexec")
    if found is None:
        raise RuntimeError(f"msrun starts the workers with the MPI launcher 'mpiexec', which was found neither "
                           f"beside {sys.executable} nor on PATH. Install it with '{_MPI_HINT}'.")
    return found


def _expand(items):
    out = []
    for item in items:
        for part in item.split(","):
            if "-" in part:
                lo, hi = map(int, part.split("-"))
                out.extend(range(lo, hi + 1))
            else:
                out.append(int(part))
    return out


def _numa_nodes():
    """``{node: [cpu, ...]}`` from /sys (empty where the kernel does not say)."""
    base = "/sys/devices/system/node"
    nodes = {}
    if os.path.isdir(base):
        for name in os.listdir(base):
            if re.fullmatch(r"node\d+", name):
                with open(os.path.join(base, name, "cpulist"), encoding="utf-8") as f:
                    text = f.read().strip()
                nodes[int(name[4:])] = _expand([text]) if text else []
    return nodes


def _core_binding(bind_core, local_worker_num):
    """``{local_rank: [cpu, ...]}``: True shares this process's CPUs out in equal consecutive blocks."""
    available = sorted(os.sched_getaffinity(0))
    if bind_core is True:
        if local_worker_num > len(available):
            _warn(f"--bind_core: {local_worker_num} workers share {len(available)} CPUs, so workers share cores.")
            return {i: [available[i % len(available)]] for i in range(local_worker_num)}
        share = len(available) // local_worker_num
        return {i: available[i * share:(i + 1) * share] for i in range(local_worker_num)}
    binding = {}
    for device, items in bind_core.items():
        if device == "scheduler":
            continue
        cpus = _expand(items)
        bad = sorted(set(cpus) - set(available))
        if bad:
            raise ValueError(f"--bind_core: CPUs {bad} of '{device}' are not available to this process "
                             f"(available: {available}).")
        binding[int(device[len("device"):])] = cpus
    return binding


def _numa_binding(bind_numa, local_worker_num):
    """``{local_rank: node}``: True deals the NUMA nodes out in turn."""
    nodes = _numa_nodes()
    if not nodes:
        raise RuntimeError("--bind_numa: this system does not report NUMA nodes (/sys/devices/system/node).")
    if shutil.which("numactl") is None:
        raise RuntimeError("--bind_numa binds memory with 'numactl', which is not installed; install it or use "
                           "--bind_core.")
    if bind_numa is True:
        order = sorted(nodes)
        return {i: str(order[i % len(order)]) for i in range(local_worker_num)}
    binding = {}
    for device, items in bind_numa.items():
        if device == "scheduler":
            continue
        ids = _expand(items)
        bad = sorted(set(ids) - set(nodes))
        if bad:
            raise ValueError(f"--bind_numa: NUMA nodes {bad} of '{device}' do not exist (nodes: {sorted(nodes)}).")
        binding[int(device[len("device"):])] = ",".join(map(str, ids))
    return binding


def _task_command(script, script_args):
    """The command each worker runs: ``python script args`` (with this interpreter) unless the script names
    the program (python, python3, pytest), as in MindSpore."""
    if script in ("python", "python3"):
        return [sys.executable, *script_args]
    if script == "pytest":
        return [sys.executable, "-m", "pytest", *script_args]
    return [sys.executable, script, *script_args]


# ---------------------------------------------------------------------------------------------------------
# Logs
# ---------------------------------------------------------------------------------------------------------

def _error_line(log_path, rank):
    """The line of ``log_path`` that says how the worker failed: the ``[rank N]`` line of
    ``init()``'s fault hook, else the exception line of the last traceback, else the last line."""
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            lines = [line.rstrip("\n") for line in f]
    except OSError:
        return ""
    marker = f"[rank {rank}] "
    hooked = [line for line in lines if line.startswith(marker)]
    if hooked:
        return hooked[-1][len(marker):]
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")]
    if starts:
        for line in lines[starts[-1] + 1:]:
            if line.strip() and not line[0].isspace():
                return line
    nonblank = [line for line in lines if line.strip()]
    return nonblank[-1] if nonblank else ""


class _Tail(threading.Thread):
    """Copies a log file to stdout as it grows (``tail -f``) until :meth:`finish`."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path = path
        self._done = threading.Event()

    def finish(self):
        self._done.set()
        self.join(timeout=5)

    def run(self):
        f = None
        try:
            while f is None:
                try:
                    f = open(self.path, encoding="utf-8", errors="replace")  # noqa: SIM115 - closed below
                except FileNotFoundError:
                    if self._done.wait(0.05):
                        return
            while True:
                done = self._done.is_set()
                chunk = f.read()
                if chunk:
                    sys.stdout.write(chunk)
                    sys.stdout.flush()
                elif done:
                    return
                else:
                    self._done.wait(0.1)
        finally:
            if f is not None:
                f.close()


# ---------------------------------------------------------------------------------------------------------
# The process manager
# ---------------------------------------------------------------------------------------------------------

class _ProcessManager:
    """Checks the arguments, starts the job through ``mpiexec`` and, with ``--join``, waits for it."""

    def __init__(self, args):
        self.worker_num = args.worker_num
        if self.worker_num <= 0:
            raise ValueError(f"worker_num must be greater than 0, but got {self.worker_num}.")
        self.local_worker_num = args.local_worker_num
        if self.local_worker_num <= 0:
            raise ValueError(f"local_worker_num must be greater than 0, but got {self.local_worker_num}.")
        if self.local_worker_num > self.worker_num:
            raise ValueError(f"Total worker number is {self.worker_num}, but got exceeded local worker number: "
                             f"{self.local_worker_num}.")
        self.master_addr = _to_ip(args.master_addr)
        self.master_port = args.master_port
        if not 0 < self.master_port < 65536:
            raise ValueError(f"master_port must be in [1, 65535], but got {self.master_port}.")
        self.node_rank = args.node_rank
        self.log_dir = args.log_dir
        self.join = args.join
        self.cluster_time_out = args.cluster_time_out
        self.rank_table_file = args.rank_table_file
        self.worker_log_name = args.worker_log_name
        self.tail_worker_log = args.tail_worker_log
        self.sim_level = args.sim_level
        self.sim_rank_id = args.sim_rank_id
        self.is_simulation = self.sim_level != -1 or bool(os.getenv("MS_SIMULATION_LEVEL"))
        self.exported_rank_size = str(self.worker_num)
        if self.is_simulation:
            if self.sim_level == -1 and os.getenv("RANK_SIZE"):
                self.exported_rank_size = os.getenv("RANK_SIZE")
            if self.sim_rank_id == -1:
                self.sim_rank_id = int(os.getenv("RANK_ID", "-1"))
            if self.sim_rank_id != -1:
                self.local_worker_num = 1
        self.multi = not self.is_simulation and self.local_worker_num < self.worker_num
        if not self.is_simulation and not self.multi and not _is_local_ip(self.master_addr):
            raise RuntimeError(f"msrun of mindspore-parallel starts every worker of a one-host job on this host, but "
                               f"--master_addr {args.master_addr} ({self.master_addr}) is not an address of this "
                               f"host. For a job over several hosts give worker_num > local_worker_num.")
        if self.node_rank < -1:
            raise ValueError(f"node_rank must be -1 or a rank >= 0, but got {self.node_rank}.")
        if not self.multi and self.node_rank not in (0, -1):
            _warn(f"All workers will be spawned on this node, so 'node_rank': [{self.node_rank}] will be ignored.")
        self.rdzv = None
        self.told = False   # whether the other nodes were told of a failure here
        self.rank_offset, self.node_index, self.node_count = 0, 0, 1
        self.tail_ranks = self._tail_ranks()
        self.cpus = _core_binding(args.bind_core, self.local_worker_num) if args.bind_core else {}
        self.numa = _numa_binding(args.bind_numa, self.local_worker_num) if args.bind_numa else {}
        self.cmd = _task_command(args.task_script, args.task_script_args)
        self.launcher = _mpiexec()
        self.process = None
        self.status_dir = None
        self.log_prefix = None
        self.killed_at = None

    def _tail_ranks(self):
        if self.tail_worker_log == "-1":
            return None
        try:
            ranks = {int(part) for part in self.tail_worker_log.split(",")}
        except ValueError:
            raise ValueError(f"--tail_worker_log must be -1 or a comma-separated list of ranks, but got "
                             f"'{self.tail_worker_log}'.") from None
        return ranks

    def _log_prefix(self):
        name = self.worker_log_name or "worker"
        if self.worker_log_name:
            name = name.replace("{ip}", self.master_addr).replace("{hostname}", socket.gethostname())
        return os.path.abspath(os.path.join(self.log_dir, name))

    def _environment(self, spec):
        env = {k: v for k, v in os.environ.items() if k not in _LAUNCH_VARS}
        env["MS_WORKER_NUM"] = str(self.worker_num)
        env["RANK_SIZE"] = self.exported_rank_size
        if self.is_simulation:
            if self.sim_level != -1:
                env["MS_SIMULATION_LEVEL"] = str(self.sim_level)
        else:
            env["MS_SCHED_HOST"] = self.master_addr
            env["MS_SCHED_PORT"] = str(self.master_port)
            env["MS_TOPO_TIMEOUT"] = str(self.cluster_time_out)
            env["MS_ROLE"] = "MS_WORKER"
        if self.rank_table_file:
            env["RANK_TABLE_FILE"] = self.rank_table_file
        if self.local_worker_num > len(os.sched_getaffinity(0)):
            for key, value in _OVERSUBSCRIBE_ENV.items():
                env.setdefault(key, value)
        if self.multi:
            env["MSRUN_RDZV"] = f"{self.master_addr}:{self.master_port}"
            env["MSRUN_NODE_INDEX"] = str(self.node_index)
            env["MSRUN_NODES"] = str(self.node_count)
            env["MSRUN_RANK_OFFSET"] = str(self.rank_offset)
        env["MSRUN_WORKER_SPEC"] = json.dumps(spec)
        return env

    def _rendezvous(self):
        """Meet the msruns of the other nodes at ``master_addr:master_port`` (see ``_rendezvous``): node 0 serves,
        the others register; sets this node's place (index, rank offset) in the job."""
        from mindspore.parallel.cluster import _rendezvous as rdzv
        listener = None
        if self.node_rank == 0 or (self.node_rank == -1 and _is_local_ip(self.master_addr)):
            family = socket.AF_INET6 if ":" in self.master_addr else socket.AF_INET
            listener = socket.socket(family, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                listener.bind((self.master_addr, self.master_port))
                listener.listen(64)
            except OSError as e:
                listener.close()
                listener = None
                if self.node_rank == 0:
                    raise RuntimeError(f"node_rank 0 serves the job's rendezvous at {self.master_addr}:"
                                       f"{self.master_port}, but it cannot listen there: {e}.") from None
        if listener is not None:
            me = {"node_rank": self.node_rank, "local_worker_num": self.local_worker_num}
            self.rdzv = rdzv.Server(listener, me, self.worker_num, self.cluster_time_out)
            try:
                self.node_index, self.rank_offset, self.node_count = self.rdzv.gather()
            except RuntimeError:
                self.rdzv.close()
                raise
        else:
            self.rdzv = rdzv.Client(self.master_addr, self.master_port, self.node_rank, self.worker_num,
                                    self.local_worker_num, self.cluster_time_out)
            self.node_index, self.rank_offset, self.node_count = self.rdzv.register()
        print(f"msrun: node {self.node_index} of {self.node_count} (node_rank {self.node_rank}): global ranks "
              f"{self.rank_offset}-{self.rank_offset + self.local_worker_num - 1} of {self.worker_num}.", flush=True)

    def _worker_command(self, local_rank):
        """The command the worker of ``local_rank`` runs: the task, under numactl for ``--bind_numa``."""
        prefix = []
        if local_rank in self.numa:
            node = self.numa[local_rank]
            prefix = ["numactl", f"--membind={node}"] + ([] if local_rank in self.cpus else
                                                         [f"--cpunodebind={node}"])
        return prefix + self.cmd

    def run(self):
        """Start the job; with ``--join`` wait for it and raise ``RuntimeError`` when a worker failed."""
        if self.log_dir:
            os.makedirs(self.log_dir, mode=0o700, exist_ok=True)
        log_prefix = self.log_prefix = self._log_prefix()
        sched_log = os.path.join(os.path.dirname(log_prefix), "scheduler.log")
        if self.multi and not self.join:
            # Not joined, msrun returns at once; the nodes' msruns must still meet and watch each other, so a
            # process of its own (output in scheduler.log) does that for the job.
            if os.fork():
                _warn(f"Distributed job is spawned in the background; see {sched_log}.")
                return
            os.setsid()
            fd = os.open(sched_log + ".msrun", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            self.join, self.tail_ranks = True, set()
            code = 0
            try:
                self.run()
            except BaseException as e:  # noqa: BLE001 - the background msrun reports everything in its log
                print(f"msrun: error: {e}", file=sys.stderr, flush=True)
                code = 1
            os._exit(code)
        if self.multi:
            self._rendezvous()
        if self.join:
            self.status_dir = tempfile.mkdtemp(prefix="msrun-")
        rank_id = self.sim_rank_id if self.is_simulation and self.sim_rank_id != -1 else None
        cmds = {str(i): self._worker_command(i) for i in range(self.local_worker_num)}
        spec = {"log_prefix": log_prefix, "cmds": cmds, "status_dir": self.status_dir, "rank_id": rank_id,
                "rank_offset": self.rank_offset,
                "cpus": {str(k): v for k, v in self.cpus.items()}}
        launch = [self.launcher, "-n", str(self.local_worker_num), sys.executable, _WORKER_SCRIPT]
        print(f"Start scheduler process, log file:{sched_log}. Execute command: {shlex.join(launch)}", flush=True)
        for i in range(self.local_worker_num):
            rank = rank_id if rank_id is not None else self.rank_offset + i
            print(f"Start worker process with rank id:{rank}, log file:{log_prefix}_{rank}.log. Environment variable "
                  f"[RANK_ID={rank}] is exported. Execute command: {shlex.join(cmds[str(i)])}", flush=True)
        for rank in self._ranks():  # start the logs empty, so that no one reads a previous job's
            with open(f"{log_prefix}_{rank}.log", "w", encoding="utf-8"):
                pass
        with open(sched_log, "w", encoding="utf-8") as log:
            log.write(f"msrun: {shlex.join(launch)}\n")
            log.flush()
            # Joined, the launcher dies with msrun (and its workers with it); not joined, it runs on alone.
            self.process = subprocess.Popen(launch, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                            env=self._environment(spec), start_new_session=True,
                                            preexec_fn=_die_with_parent if self.join else None)
        if self.join:
            _warn("Distributed job is spawned. Waiting all processes to exit...")
            try:
                self.join_processes(log_prefix, sched_log)
            finally:
                shutil.rmtree(self.status_dir, ignore_errors=True)
                if self.rdzv is not None:
                    self.rdzv.close()

    def join_processes(self, log_prefix, sched_log):
        """Wait for the job, show the chosen workers' logs, and report the workers that failed."""
        tails = [_Tail(f"{log_prefix}_{rank}.log") for rank in self._ranks()
                 if self.tail_ranks is None or rank in self.tail_ranks]
        for tail in tails:
            tail.start()

        def stop(signum, _frame):
            _warn(f"msrun process received {signal.Signals(signum).name}, terminating all workers.")
            self.kill_all_processes()
            for tail in tails:
                tail.finish()
            sys.exit(0 if signum == signal.SIGINT else 128 + signum)

        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            # The launcher stops the job when a rank that joined fails, but not when one fails before it joined
            # (an ImportError before init(), say): the others would wait for it forever. So, as MindSpore's msrun
            # does, watch the workers and stop the job at the first failure.
            while True:
                try:
                    code = self.process.wait(timeout=0.2)
                    break
                except subprocess.TimeoutExpired:
                    failures = self._failures()
                    if failures:
                        self._tell_failure(failures[0])
                        self.kill_all_processes()
                    elif self._remote_failure() is not None:
                        self.kill_all_processes()
            failures = self._failures()
            if self.rdzv is not None:
                if failures or code != 0:
                    if self._remote_failure() is None:   # (told once: _tell_failure says nothing twice)
                        self._tell_failure(failures[0] if failures else
                                           {"rank": None, "error": f"the MPI launcher exited with code {code}"})
                else:
                    self._finish_nodes()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for tail in tails:
                tail.finish()
            self.kill_all_processes()
        failures = self._failures()
        remote = self._remote_failure()
        if code == 0 and not failures and remote is None:
            return
        if remote is not None and (not failures or remote.get("time", 0) < failures[0]["time"]):
            print(f"msrun: the job failed on node {remote['node']}: "
                  + (f"rank {remote['rank']} failed ({remote['error']})" if remote.get("rank") is not None
                     else remote["error"]) + "; the workers of this node were stopped.", file=sys.stderr, flush=True)
            raise RuntimeError(f"Distributed job exited with exception. Please check the logs of node "
                               f"{remote['node']} (and this node's in {os.path.dirname(log_prefix)}).")
        for record in failures:
            print(f"msrun: worker {record['rank']} (pid {record['pid']}) {_how(record)}"
                  + (f": {record['error']}" if record["error"] else "") + f". Log: {record['log']}",
                  file=sys.stderr, flush=True)
        if failures:
            ranks = ", ".join(str(r["rank"]) for r in failures)
            print(f"msrun: the job failed: rank(s) {ranks} failed first "
                  f"({failures[0]['error'] or _how(failures[0])}); the other workers were stopped.",
                  file=sys.stderr, flush=True)
        else:
            print(f"msrun: the MPI launcher exited with code {code}; see {sched_log}.", file=sys.stderr, flush=True)
        raise RuntimeError(f"Distributed job exited with exception. Please check logs in directory: "
                           f"{os.path.dirname(log_prefix)}.")

    def _ranks(self):
        if self.is_simulation and self.sim_rank_id != -1:
            return [self.sim_rank_id]
        return list(range(self.rank_offset, self.rank_offset + self.local_worker_num))

    def _tell_failure(self, record):
        """Tell the other nodes' msruns that a rank of this node failed (they end their workers)."""
        if self.rdzv is None or self.told:
            return
        self.told = True
        how = _how(record) if "returncode" in record else ""
        error = "; ".join(part for part in (how, record.get("error") or "") if part)
        msg = {"op": "fail", "rank": record["rank"], "error": error,
               "node": self.node_index, "time": record.get("time", time.time())}
        if hasattr(self.rdzv, "broadcast"):
            self.rdzv.broadcast(msg)
        else:
            self.rdzv.tell(msg)

    def _remote_failure(self):
        """The first failure another node reported (or the loss of another node's msrun), else ``None``."""
        if self.rdzv is None:
            return None
        for kind, what in list(self.rdzv.events):
            if kind == "fail":
                return what
            if kind == "lost":
                return {"rank": None, "node": what, "time": time.time(),
                        "error": f"the msrun process of node {what} disappeared"}
        return None

    def _finish_nodes(self):
        """This node's workers ended well: say so; node 0 waits for the other nodes (or their failure)."""
        if hasattr(self.rdzv, "tell"):
            self.rdzv.tell({"op": "done"})
            return
        while not self.rdzv.all_done() and self._remote_failure() is None:
            time.sleep(0.1)

    def _failures(self):
        """The workers that ended badly by themselves, first failure first, each with its error line. Those the
        launcher killed after the first failure leave no record; those that failed within a moment of it failed
        with it (the same bad input, say)."""
        by_rank = {}
        for name in sorted(os.listdir(self.status_dir)):  # "<rank>.fault.json" (init's fault hook) before
            if not name.endswith(".json"):                  # "<rank>.json" (the worker process)
                continue
            with open(os.path.join(self.status_dir, name), encoding="utf-8") as f:
                record = json.load(f)
            if record["returncode"] != 0 and record["rank"] not in by_rank:
                record.setdefault("error", None)
                by_rank[record["rank"]] = record
        # Records made after msrun began to stop the job tell of its stopping, not of a failure.
        records = sorted((r for r in by_rank.values() if self.killed_at is None or r["time"] < self.killed_at),
                         key=lambda r: r["time"])
        for record in records:
            record["log"] = f"{self.log_prefix}_{record['rank']}.log"
            if not record["error"]:
                record["error"] = _error_line(record["log"], record["rank"])
        return [r for r in records if r["time"] - records[0]["time"] < 0.5]

    def kill_all_processes(self):
        """Kill the launcher and every worker still running (the workers' commands die with their workers)."""
        if self.killed_at is None:
            self.killed_at = time.time()
        if self.process is not None and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
        if self.status_dir and os.path.isdir(self.status_dir):
            for name in os.listdir(self.status_dir):
                if name.endswith(".pid"):
                    with open(os.path.join(self.status_dir, name), encoding="utf-8") as f:
                        pid = int(f.read().strip() or 0)
                    _kill_if_ours(pid, self.status_dir)


def _how(record):
    code = record["returncode"]
    if code < 0:
        return f"was killed by signal {signal.Signals(-code).name}"
    return f"exited with code {code}"


def _kill_if_ours(pid, status_dir):
    """SIGKILL ``pid`` when it is still a command of this job (its environment names this job's spec)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            ours = b"MSRUN_JOB_DIR=" + status_dir.encode() + b"\0" in f.read()
    except OSError:
        return
    if ours:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _die_with_parent():
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run(args):
    """Run msrun with parsed arguments (see :func:`get_args`)."""
    _ProcessManager(args).run()


def main(argv=None):
    """The ``msrun`` console script."""
    args = get_args(argv)
    try:
        run(args)
    except (ValueError, RuntimeError, OSError) as e:
        print(f"msrun: error: {e}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
