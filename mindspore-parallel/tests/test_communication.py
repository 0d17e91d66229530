"""mindspore.communication: single process, a simulated multi-process world, and real MPI when present."""
import os
import shutil
import subprocess
import sys
import textwrap
from importlib import metadata

import numpy as np
import pytest

import mindspore as ms
import mindspore.parallel
from mindspore import ops
from mindspore.plugin import process_group
from mindspore._plugin import manager
import mindspore.communication as communication
from mindspore.communication import (HCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, GlobalComm,
                                     create_group, destroy_group, get_comm_name, get_group_rank_from_world_rank,
                                     get_group_size, get_local_rank, get_local_rank_size, get_process_group_ranks,
                                     get_rank, get_world_rank_from_group_rank, init, management, release)
from mindspore.communication import _plugin

LAUNCH_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE")


@pytest.fixture(autouse=True)
def fresh_world(monkeypatch):
    for var in LAUNCH_VARS:
        monkeypatch.delenv(var, raising=False)
    saved = dict(vars(GlobalComm))
    management._world = None
    management._publish_groups()
    yield
    management._world = None
    management._publish_groups()
    for key in ("BACKEND", "WORLD_COMM_GROUP", "INITED"):
        setattr(GlobalComm, key, saved[key])


def test_public_names_match_mindspore():
    assert set(communication.__all__) == {
        "create_group", "destroy_group", "get_comm_name", "get_group_rank_from_world_rank", "get_group_size",
        "get_local_rank", "get_local_rank_size", "get_process_group_ranks", "get_rank",
        "get_world_rank_from_group_rank", "init", "release", "HCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP",
        "NCCL_WORLD_COMM_GROUP", "GlobalComm"}
    assert all(hasattr(communication, name) for name in communication.__all__)
    assert (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP) == (
        "hccl_world_group", "nccl_world_group", "mccl_world_group")


def test_groups_need_init_first():
    for call in (release, lambda: create_group("g", [0, 1]), lambda: destroy_group("g")):
        with pytest.raises(RuntimeError, match=r"not initialized\. Call mindspore\.communication\.init\(\) first"):
            call()


def test_rank_and_size_before_init_are_the_launchers_or_a_lone_process(monkeypatch):
    # as MindSpore 2.10 (the model-migration tutorial's Trainer calls get_group_size() without init()): the
    # launcher's RANK_ID / RANK_SIZE / LOCAL_RANK / LOCAL_RANK_SIZE, else rank 0 of 1
    for var in ("RANK_ID", "RANK_SIZE", "LOCAL_RANK", "LOCAL_RANK_SIZE"):
        monkeypatch.delenv(var, raising=False)
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    assert get_group_size("any_group") == 1
    monkeypatch.setenv("RANK_ID", "3")
    monkeypatch.setenv("RANK_SIZE", "8")
    assert (get_rank(), get_group_size()) == (3, 8)
    with pytest.raises(TypeError, match="'group' must be type of string"):
        get_group_size(1)
    monkeypatch.setenv("RANK_SIZE", "eight")
    with pytest.raises(ValueError, match="'RANK_SIZE' must be an integer"):
        get_group_size()


def test_single_process_world():
    init()
    assert GlobalComm.INITED and GlobalComm.BACKEND == "mccl"  # the CPU target's backend
    assert GlobalComm.WORLD_COMM_GROUP == MCCL_WORLD_COMM_GROUP
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (0, 1, 0, 1)
    for world in (HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP):
        assert get_rank(world) == 0 and get_group_size(world) == 1
        assert get_process_group_ranks(world) == [0] and get_comm_name(world) == MCCL_WORLD_COMM_GROUP
    init()  # again, same backend: nothing changes
    assert get_group_size() == 1
    release()
    assert not GlobalComm.INITED
    with pytest.raises(RuntimeError):
        get_process_group_ranks()


def test_single_process_all_reduce_after_init():
    init()
    x = ms.Tensor(np.array([1.0, -2.0], np.float32))
    np.testing.assert_array_equal(ops.AllReduce()(x).asnumpy(), [1.0, -2.0])


def test_backend_name_checks():
    with pytest.raises(TypeError, match="'backend_name' must be a string"):
        init(3)
    with pytest.raises(RuntimeError, match="must be one of 'hccl', 'nccl' and 'mccl'"):
        init("gloo")
    # the backend must be the device target's, as MindSpore checks (the CPU's is mccl)
    target = ms.get_context("device_target")
    if target == "CPU":
        for wrong in ("nccl", "hccl"):
            with pytest.raises(RuntimeError, match=f"should be 'mccl' to init 'CPU', but got '{wrong}'"):
                init(wrong)
        assert not GlobalComm.INITED
    init()
    assert GlobalComm.BACKEND == {"CPU": "mccl", "GPU": "nccl", "Ascend": "hccl"}.get(target, GlobalComm.BACKEND)
    assert process_group(GlobalComm.WORLD_COMM_GROUP).size == 1
    init(GlobalComm.BACKEND)   # again with the same backend: nothing to do
    assert GlobalComm.INITED


def test_group_checks_in_a_world_of_one():
    init()
    with pytest.raises(TypeError, match="'group' must be type of string"):
        get_rank(5)
    with pytest.raises(TypeError, match="'rank_ids' must be a list of int"):
        create_group("g", (0, 1))
    with pytest.raises(ValueError, match="larger than 1"):
        create_group("g", [0])
    with pytest.raises(ValueError, match="duplicate"):
        create_group("g", [0, 0])
    with pytest.raises(ValueError, match=r"in \[0, 1\) \(the world size\)"):
        create_group("g", [0, 1])
    with pytest.raises(ValueError, match="does not exist"):
        get_group_size("g")
    with pytest.raises(ValueError, match="cannot be destroyed"):
        destroy_group(MCCL_WORLD_COMM_GROUP)
    with pytest.raises(ValueError, match="does not exist"):
        destroy_group("g")
    with pytest.raises(ValueError, match="only the world group"):
        get_local_rank("g")


class FakeComm:
    def __init__(self, rank, size, local_rank=0, local_size=1):
        self.rank, self.size, self.local_rank, self.local_size = rank, size, local_rank, local_size
        self.groups, self.freed, self.finalized = [], 0, False

    def create_group(self, rank_ids):
        self.groups.append(rank_ids)
        return self

    def free(self):
        self.freed += 1

    def finalize(self):
        self.finalized = True


def test_launched_world_with_groups(monkeypatch):
    comm = FakeComm(rank=2, size=4, local_rank=0, local_size=2)
    monkeypatch.setenv("PMI_RANK", "2")
    monkeypatch.setenv("PMI_SIZE", "4")
    monkeypatch.setattr(management, "_collective_factory", lambda name: (lambda: comm) if name == "mpi" else None)
    init("mccl")
    assert (get_rank(), get_group_size(), get_local_rank(), get_local_rank_size()) == (2, 4, 0, 2)
    create_group("odd-even", [3, 2])
    create_group("low", [0, 1])  # this process is not a member
    assert comm.groups == [[3, 2]]
    assert (get_rank("odd-even"), get_group_size("odd-even")) == (1, 2)
    assert get_world_rank_from_group_rank("odd-even", 0) == 3
    assert get_group_rank_from_world_rank(2, "odd-even") == 1
    assert get_process_group_ranks("odd-even") == [3, 2] and get_process_group_ranks() == [0, 1, 2, 3]
    assert get_comm_name("odd-even") == "odd-even"
    assert management.group_communicator("odd-even") is comm
    assert management.group_communicator("low") is None
    with pytest.raises(ValueError, match="not a member"):
        get_rank("low")
    with pytest.raises(ValueError, match="already exists"):
        create_group("low", [1, 3])
    with pytest.raises(ValueError, match="should not be the world group"):
        get_world_rank_from_group_rank(MCCL_WORLD_COMM_GROUP, 0)
    with pytest.raises(ValueError, match=r"in \[0, 2\)"):
        get_world_rank_from_group_rank("low", 2)
    assert process_group(MCCL_WORLD_COMM_GROUP).size == process_group(HCCL_WORLD_COMM_GROUP).size == 4
    assert process_group("odd-even").size == 2
    assert process_group("odd-even").rank == 1 and process_group("odd-even").communicator is comm
    destroy_group("odd-even")
    assert comm.freed == 1
    assert process_group("odd-even").size == 1  # unknown again
    release()
    assert comm.finalized


@pytest.mark.parametrize("env, launcher, rank", [
    ({"PMI_RANK": "1", "PMI_SIZE": "4"}, r"mpiexec \(PMI_RANK/PMI_SIZE\)", 1),
    ({"PMI_RANK": "1", "PMI_SIZE": "2", "MSRUN_NODES": "2", "MSRUN_RANK_OFFSET": "0", "MS_WORKER_NUM": "4"},
     r"msrun over 2 nodes \(mpiexec \(PMI_RANK/PMI_SIZE\)\)", 1),
])
def test_a_joined_world_that_contradicts_the_launcher_is_refused(monkeypatch, env, launcher, rank):
    # e.g. msrun's nodes merged out of their order: this process would compute with another rank's share
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    comm = FakeComm(rank=2, size=4, local_rank=1, local_size=2)
    monkeypatch.setattr(management, "_collective_factory", lambda name: (lambda: comm) if name == "mpi" else None)
    with pytest.raises(RuntimeError, match=rf"For 'init', the joined world gives this process rank 2 of 4, but "
                                           rf"{launcher} says rank {rank} of 4\.$"):
        init()
    assert not GlobalComm.INITED


def test_msrun_node_offset_gives_the_joined_worlds_rank(monkeypatch):
    for key, value in {"PMI_RANK": "0", "PMI_SIZE": "2", "MSRUN_NODES": "2", "MSRUN_RANK_OFFSET": "2",
                       "MS_WORKER_NUM": "4"}.items():
        monkeypatch.setenv(key, value)
    comm = FakeComm(rank=2, size=4, local_rank=0, local_size=2)
    monkeypatch.setattr(management, "_collective_factory", lambda name: (lambda: comm) if name == "mpi" else None)
    init()
    assert (get_rank(), get_group_size(), get_local_rank()) == (2, 4, 0)
    release()


def test_launched_without_mpi4py_names_the_install(monkeypatch):
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "2")
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pytest.raises(RuntimeError, match=r"mpiexec with 2 processes.*pip install mindspore-parallel\[mpi\]"):
        init()
    assert not GlobalComm.INITED


def test_plugin_offers_mpi_only_with_mpi4py(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)
    assert _plugin.ms_collective_backends() == {}
    assert "pip install mindspore-parallel[mpi]" in _plugin.ms_environment_info()["mpi4py"]


def test_plugin_is_discovered():
    rec = {r.name: r for r in manager.plugins()}["parallel"]
    assert rec.distribution == "mindspore-parallel" and rec.status == "loaded", rec.error
    assert rec.probes == []


def test_only_the_subpackages_are_shipped():
    assert all(hasattr(mindspore.parallel, name) for name in mindspore.parallel.__all__)
    shipped = [str(f).replace("\\", "/") for f in (metadata.files("mindspore-parallel") or [])]
    assert "mindspore/__init__.py" not in shipped
    assert all(not f.startswith("mindspore/") or f.startswith(("mindspore/communication/", "mindspore/parallel/"))
               for f in shipped)


MPI_SCRIPT = textwrap.dedent("""
    import numpy as np
    from mindspore.communication import init, get_rank, get_group_size, create_group, get_rank as rank_in, management
    init("mccl")
    r, n = get_rank(), get_group_size()
    world = management.group_communicator()
    total = world.allreduce(np.array([r + 1.0, 2.0]), "sum")
    gathered = world.allgather(np.array([r], np.int64))
    root = world.broadcast(np.array([r * 10]), root=1)
    create_group("pair", [1, 0])
    print(r, n, total.tolist(), gathered.ravel().tolist(), root.tolist(), rank_in("pair"), flush=True)
""")


@pytest.mark.skipif(not (_plugin.mpi4py_available() and shutil.which("mpiexec")), reason="mpi4py/mpiexec not installed")
def test_two_real_mpi_processes(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(MPI_SCRIPT)
    env = {k: v for k, v in os.environ.items() if k not in LAUNCH_VARS}
    out = subprocess.run(["mpiexec", "-n", "2", sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    lines = sorted(out.stdout.strip().splitlines())
    assert lines == ["0 2 [3.0, 4.0] [0, 1] [10] 1", "1 2 [3.0, 4.0] [0, 1] [10] 0"]
