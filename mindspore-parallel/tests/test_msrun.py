"""msrun (``mindspore.parallel.cluster.run``): options as in MindSpore 2.10, workers started through mpiexec, one log
per rank, the environment of a worker, the job's result."""
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from importlib import metadata

import pytest

from mindspore.parallel.cluster import run as msrun

sys.path.insert(0, os.path.dirname(__file__))
from _mpi_launch import OVERSUBSCRIBE_ENV, skip_unless_mpi  # noqa: E402

MSRUN = [sys.executable, "-m", "mindspore.parallel.cluster.run"]
_LAUNCH_ENV = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "PMI_FD",
               "MS_WORKER_NUM", "RANK_ID", "RANK_SIZE", "MS_ROLE", "MS_TOPO_TIMEOUT", "MS_SIMULATION_LEVEL",
               "DEVICE_ID", "MS_NODE_ID")

WORKER = """
    import json, os, sys
    import numpy as np
    keys = ["RANK_ID", "RANK_SIZE", "DEVICE_ID", "MS_NODE_ID", "MS_WORKER_NUM", "MS_ROLE", "MS_SCHED_HOST",
            "MS_SCHED_PORT", "MS_TOPO_TIMEOUT", "RANK_TABLE_FILE"]
    print("env", json.dumps({k: os.environ.get(k) for k in keys}), flush=True)
    print("argv", json.dumps(sys.argv[1:]), flush=True)
    print("cpus", json.dumps(sorted(os.sched_getaffinity(0))), flush=True)
    from mindspore.communication import init, get_rank, get_group_size, get_local_rank
    from mindspore.communication.management import group_communicator
    init()
    rank, size = get_rank(), get_group_size()
    total = group_communicator().allreduce(np.array([rank + 1.0]))
    print(f"rank {rank} of {size}, local rank {get_local_rank()}, sum {total[0]:g}", flush=True)
    print(f"to stderr from rank {rank}", file=sys.stderr, flush=True)
"""


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCH_ENV}
    env.update(OVERSUBSCRIBE_ENV)
    env.update(extra)
    return env


def run_msrun(args, timeout=90, **env):
    return subprocess.run(MSRUN + [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                          env=_env(**env))


def log_fields(path):
    """{"env": ..., "argv": ..., "cpus": ...} and the other lines of one worker log."""
    fields, lines = {}, []
    for line in path.read_text().splitlines():
        key, _, rest = line.partition(" ")
        if key in ("env", "argv", "cpus"):
            fields[key] = json.loads(rest)
        else:
            lines.append(line)
    return fields, lines


@pytest.fixture
def worker(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(WORKER))
    return script


@skip_unless_mpi
@pytest.mark.parametrize("n", [2, 4])
def test_msrun_runs_the_workers_with_one_log_each(tmp_path, worker, n):
    logs = tmp_path / "logs"
    out = run_msrun([f"--worker_num={n}", f"--local_worker_num={n}", f"--log_dir={logs}", "--join=True",
                     "--master_port=9123", "--cluster_time_out=77", worker, "--lr", "0.1"])
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in logs.iterdir()) == sorted([f"worker_{r}.log" for r in range(n)] + ["scheduler.log"])
    total = n * (n + 1) / 2
    for rank in range(n):
        fields, lines = log_fields(logs / f"worker_{rank}.log")
        assert fields["env"] == {"RANK_ID": str(rank), "RANK_SIZE": str(n), "DEVICE_ID": str(rank),
                                 "MS_NODE_ID": str(rank), "MS_WORKER_NUM": str(n), "MS_ROLE": "MS_WORKER",
                                 "MS_SCHED_HOST": "127.0.0.1", "MS_SCHED_PORT": "9123", "MS_TOPO_TIMEOUT": "77",
                                 "RANK_TABLE_FILE": None}
        assert fields["argv"] == ["--lr", "0.1"]
        assert lines == [f"rank {rank} of {n}, local rank {rank}, sum {total:g}", f"to stderr from rank {rank}"]
        assert (f"Start worker process with rank id:{rank}, log file:{logs / f'worker_{rank}.log'}. Environment "
                f"variable [RANK_ID={rank}] is exported.") in out.stdout
        assert f"rank {rank} of {n}, local rank {rank}, sum {total:g}" in out.stdout  # --join shows every log
    assert "mpiexec" in (logs / "scheduler.log").read_text()


@skip_unless_mpi
def test_tail_worker_log_shows_only_the_chosen_ranks(tmp_path, worker):
    out = run_msrun(["--worker_num=2", "--local_worker_num=2", f"--log_dir={tmp_path}", "--join=True",
                     "--tail_worker_log=1", worker])
    assert out.returncode == 0, out.stderr
    assert "rank 1 of 2" in out.stdout and "rank 0 of 2" not in out.stdout
    assert "rank 0 of 2" in (tmp_path / "worker_0.log").read_text()


@skip_unless_mpi
def test_worker_log_name_and_rank_table_file(tmp_path, worker):
    out = run_msrun(["--worker_num=2", "--local_worker_num=2", f"--log_dir={tmp_path}", "--join=True",
                     "--worker_log_name=job_{hostname}", "--rank_table_file=/tmp/table.json", worker])
    assert out.returncode == 0, out.stderr
    import socket
    for rank in range(2):
        fields, _ = log_fields(tmp_path / f"job_{socket.gethostname()}_{rank}.log")
        assert fields["env"]["RANK_TABLE_FILE"] == "/tmp/table.json"


@skip_unless_mpi
def test_without_join_msrun_returns_and_the_job_goes_on(tmp_path, worker):
    out = run_msrun(["--worker_num=2", "--local_worker_num=2", f"--log_dir={tmp_path}", worker])
    assert out.returncode == 0, out.stderr
    assert "rank 0 of 2" not in out.stdout  # not joined: the logs are not shown
    deadline = time.monotonic() + 60
    logs = [tmp_path / f"worker_{r}.log" for r in range(2)]
    while time.monotonic() < deadline and not all("to stderr" in p.read_text() for p in logs if p.exists()):
        time.sleep(0.1)
    for rank, path in enumerate(logs):
        assert f"rank {rank} of 2, local rank {rank}, sum 3" in path.read_text()


@skip_unless_mpi
def test_bind_core_gives_each_worker_its_share(tmp_path, worker):
    available = sorted(os.sched_getaffinity(0))
    out = run_msrun(["--worker_num=2", "--local_worker_num=2", f"--log_dir={tmp_path}", "--join=True",
                     "--bind_core=True", worker])
    assert out.returncode == 0, out.stderr
    cpus = [log_fields(tmp_path / f"worker_{r}.log")[0]["cpus"] for r in range(2)]
    if len(available) >= 2:
        share = len(available) // 2
        assert cpus == [available[:share], available[share:2 * share]]
    first = str(available[0])
    out = run_msrun(["--worker_num=2", "--local_worker_num=2", f"--log_dir={tmp_path}", "--join=True",
                     f'--bind_core={{"device1": ["{first}"]}}', worker])
    assert out.returncode == 0, out.stderr
    assert log_fields(tmp_path / "worker_1.log")[0]["cpus"] == [available[0]]
    assert log_fields(tmp_path / "worker_0.log")[0]["cpus"] == available


@skip_unless_mpi
def test_failed_worker_fails_the_job(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(textwrap.dedent("""
        import time
        import numpy as np
        from mindspore.communication import init, get_rank
        from mindspore.communication.management import group_communicator
        init()
        step = 0
        while True:    # the other ranks never end by themselves: only msrun stopping them ends the job
            group_communicator().allreduce(np.ones(2))
            step += 1
            if get_rank() == 2 and step == 20:
                raise KeyError("label")
    """))
    # run_msrun's timeout fails the test if the job waits on the surviving ranks (no wall-clock bound here:
    # a loaded machine must not fail it)
    out = run_msrun(["--worker_num=4", "--local_worker_num=4", f"--log_dir={tmp_path}", "--join=True", script])
    assert out.returncode == 1
    assert "msrun: worker 2 " in out.stderr and "exited with code 1: KeyError: 'label'" in out.stderr, out.stderr
    assert "msrun: the job failed: rank(s) 2 failed first (KeyError: 'label')" in out.stderr
    assert f"Please check logs in directory: {tmp_path}" in out.stderr
    assert "[rank 2] KeyError: 'label'" in (tmp_path / "worker_2.log").read_text()


@skip_unless_mpi
def test_sim_level_runs_one_dry_run_worker(tmp_path, worker):
    out = run_msrun(["--worker_num=8", "--local_worker_num=8", f"--log_dir={tmp_path}", "--join=True",
                     "--sim_level=0", "--sim_rank_id=5", worker])
    assert out.returncode == 1  # on CPU, as in MindSpore, init() refuses a dry run
    assert "Dryrun is not supported on CPU device for a distributed job." in out.stderr
    fields, _ = log_fields(tmp_path / "worker_5.log")
    assert fields["env"]["RANK_ID"] == "5" and fields["env"]["RANK_SIZE"] == "8"
    assert fields["env"]["MS_ROLE"] is None and fields["env"]["MS_SCHED_HOST"] is None
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".log") == ["scheduler.log", "worker_5.log"]


@pytest.mark.parametrize("args, message", [
    (["--worker_num=0"], "worker_num must be greater than 0, but got 0."),
    (["--worker_num=2", "--local_worker_num=4"], "Total worker number is 2, but got exceeded local worker number: 4."),
    (["--worker_num=4", "--local_worker_num=2", "--node_rank=-2"], r"node_rank must be -1 or a rank >= 0, but "
                                                                   r"got -2."),
    (["--worker_num=2", "--local_worker_num=2", "--master_addr=192.0.2.7"],
     r"--master_addr 192.0.2.7 \(192.0.2.7\) is not an address of this host"),
    (["--worker_num=2", "--local_worker_num=2", "--master_port=70000"], r"master_port must be in \[1, 65535\]"),
    (["--worker_num=2", "--local_worker_num=2", '--bind_core={"device5": ["99999"]}'],
     r"--bind_core: CPUs \[99999\] of 'device5' are not available"),
    (["--worker_num=2", "--local_worker_num=2", "--tail_worker_log=a"], "--tail_worker_log must be -1 or"),
])
def test_bad_arguments_are_clear_errors(tmp_path, args, message):
    out = run_msrun(args + [f"--log_dir={tmp_path}", tmp_path / "never.py"], timeout=60)
    assert out.returncode == 1
    assert re.search(message, out.stderr), out.stderr
    assert not any(p.suffix == ".log" for p in tmp_path.iterdir())  # nothing was started


@pytest.mark.parametrize("option, message", [
    ("--join=maybe", "argument --join: invalid literal_eval value"),
    ("--bind_core=[1", "Failed to parse JSON into a dictionary"),
    ('--bind_core={"gpu0": ["1"]}', "Key gpu0 must be in format 'scheduler' or 'deviceX'."),
    ('--bind_numa={"device0": ["a"]}', "NUMA a in \\['a'\\] should be in format 'numaidX'"),
    ("--sim_level=7", "argument --sim_level: invalid choice: 7"),
])
def test_bad_option_values_are_argparse_errors(capsys, option, message):
    with pytest.raises(SystemExit) as exc:
        msrun.get_args([option, "train.py"])
    assert exc.value.code == 2
    assert re.search(message, capsys.readouterr().err)


def test_defaults_are_mindspores():
    args = msrun.get_args(["train.py", "--epochs", "3"])
    assert (args.worker_num, args.local_worker_num, args.master_addr, args.master_port, args.node_rank,
            args.log_dir, args.join, args.cluster_time_out, args.bind_core, args.bind_numa, args.sim_level,
            args.sim_rank_id, args.rank_table_file, args.worker_log_name, args.tail_worker_log) == \
        (8, 8, "127.0.0.1", 8118, -1, "", False, 600, False, False, -1, -1, "", "", "-1")
    assert (args.task_script, args.task_script_args) == ("train.py", ["--epochs", "3"])


def test_worker_command_is_python_unless_named(tmp_path):
    assert msrun._task_command("train.py", ["-x"]) == [sys.executable, "train.py", "-x"]
    assert msrun._task_command("python", ["-m", "pkg"]) == [sys.executable, "-m", "pkg"]
    assert msrun._task_command("pytest", ["t.py"]) == [sys.executable, "-m", "pytest", "t.py"]


def test_error_line_of_a_worker_log(tmp_path):
    log = tmp_path / "worker_3.log"
    log.write_text("step 1\nTraceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"
                   "    1/0\nZeroDivisionError: division by zero\nAbort(1) on node 3\n")
    assert msrun._error_line(log, 3) == "ZeroDivisionError: division by zero"
    log.write_text("Traceback (most recent call last):\nValueError: x\n[rank 3] ValueError: x in thread 'a'\nAbort\n")
    assert msrun._error_line(log, 3) == "ValueError: x in thread 'a'"
    log.write_text("loss 0.5\nSegmentation fault\n\n")
    assert msrun._error_line(log, 3) == "Segmentation fault"


def test_bind_numa_needs_numactl_or_is_honoured(tmp_path, monkeypatch):
    monkeypatch.setattr(msrun.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="--bind_numa binds memory with 'numactl', which is not installed"):
        msrun._numa_binding(True, 2)
    monkeypatch.setattr(msrun.shutil, "which", lambda name: "/usr/bin/numactl")
    monkeypatch.setattr(msrun, "_numa_nodes", lambda: {0: [0, 1], 1: [2, 3]})
    assert msrun._numa_binding(True, 3) == {0: "0", 1: "1", 2: "0"}
    assert msrun._numa_binding({"device1": ["1"], "scheduler": ["0"]}, 2) == {1: "1"}
    with pytest.raises(ValueError, match=r"NUMA nodes \[4\] of 'device0' do not exist"):
        msrun._numa_binding({"device0": ["4"]}, 2)


def test_msrun_is_a_console_script():
    scripts = {ep.name: ep.value for ep in metadata.entry_points(group="console_scripts")}
    assert scripts.get("msrun") == "mindspore.parallel.cluster.run:main"
