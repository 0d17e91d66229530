"""MindSpore's recompute, memory-offload, parameter-server and graph-partition samples (mindspore-ai/docs
``docs/sample_code/{recompute,memory_offload,parameter_server,distributed_graph_partition}``) run as their pages and
run.sh run them, compared with MindSpore 2.10's behaviour and with single-process references
(``tests/fixtures/parallel_samples/reference_autoparallel.py``).

* recompute (``recompute.md``, ``python example.py``): ``Cell.recompute`` on each Block under
  ``AutoParallel(..., "semi_auto")``. Recomputation is a memory optimisation: on our CPU runtime it changes no value
  (GRAPH_MODE inlines the cell), so the test checks the whole gradient equals the reference's (no recompute, no
  AutoParallel, same seed), exactly.
* memory_offload (run.sh, 8 processes): DATA_PARALLEL training on CIFAR-10 (here a seeded synthetic file of the
  same format, see ``reference_autoparallel.write_cifar``). MindSpore 2.10 has no ``memory_offload`` context key
  (nor ``set_offload_context``): the run.sh setting ``--memory_offload ON`` raises its ValueError before training,
  which the test checks; with the default ``OFF`` every rank's loss equals the reference's to 1e-5.
* parameter_server and distributed_graph_partition: in MindSpore 2.10 ``Cell.set_param_ps`` and ``Cell.place`` no
  longer exist, so both stop with an AttributeError before training; the test checks ours stops with 2.10's message
  on every rank (2 workers: nothing runs after the error).

AutoParallel's file and norm settings also run under msrun here (``test_autoparallel_files_and_norms_msrun``, 2
ranks; the single-process checks are in ``test_auto_parallel_config.py``).

msrun master ports 8341-8344.
"""
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _sample_runs import SAMPLES, assert_losses_match, run_reference, run_sample, skip_unless_mpi  # noqa: E402

sys.path.insert(0, str(SAMPLES))
from reference_autoparallel import write_cifar  # noqa: E402
from _mpi_launch import OVERSUBSCRIBE_ENV  # noqa: E402

REFERENCE = "reference_autoparallel.py"
_MO_LOSS = r"step: (\d+), loss is ([-+0-9.eE]+)"


def _clean_env(**extra):
    drop = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "PMI_FD",
            "MS_WORKER_NUM", "RANK_ID", "RANK_SIZE", "MS_ROLE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(OVERSUBSCRIBE_ENV)
    env.update(extra)
    return env


def test_recompute_sample(tmp_path):
    shutil.copy(SAMPLES / "recompute_example.py", tmp_path)
    proc = subprocess.run([sys.executable, "recompute_example.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env=_clean_env())
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "[[[[" in proc.stdout        # the gradient printed, as the page shows
    ref = subprocess.run([sys.executable, str(SAMPLES / REFERENCE), "recompute", "1", str(tmp_path / "ref.npy")],
                         capture_output=True, text=True, timeout=120, env=_clean_env())
    assert ref.returncode == 0, ref.stdout[-2000:] + ref.stderr[-3000:]
    got, want = np.load(tmp_path / "grad.npy"), np.load(tmp_path / "ref.npy")
    assert got.shape == (8, 128, 16, 32)
    np.testing.assert_array_equal(got, want)


@skip_unless_mpi
def test_memory_offload_sample(tmp_path):
    import re
    data = write_cifar(str(tmp_path / "cifar"))
    # run.sh's --memory_offload ON: MindSpore 2.10 rejects the key before anything runs
    shutil.copy(SAMPLES / "memory_offload_train.py", tmp_path)
    proc = subprocess.run([sys.executable, "memory_offload_train.py", "--memory_offload", "ON"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env=_clean_env(DATA_PATH=data))
    assert proc.returncode != 0
    assert ("ValueError: For 'context.set_context', the keyword argument memory_offload is not recognized! For "
            "detailed usage of 'set_context', please refer to the Mindspore official website.") in proc.stderr
    # the default (OFF): 8 data-parallel workers, each on its shard
    run_sample(tmp_path, "memory_offload_train.py", 8, 8341, task=("memory_offload_train.py", "--batch_size", "2"),
               env={"DATA_PATH": data})
    got = {}
    for rank in range(8):
        text = (tmp_path / "log_output" / f"worker_{rank}.log").read_text()
        got[rank] = {(0, int(s)): float(v) for s, v in re.findall(_MO_LOSS, text)}
    assert sorted(got[0]) == [(0, 0), (0, 1), (0, 2)]
    assert_losses_match(got, run_reference("memory_offload", 1, script=REFERENCE))


def _run_failing(tmp_path, script, port, files=()):
    """msrun 2 workers on ``script`` (with ``files``: {name in tmp_path: fixture name}); return the worker logs."""
    shutil.copy(SAMPLES / script, tmp_path / script)
    for name, fixture in files:
        shutil.copy(SAMPLES / fixture, tmp_path / name)
    proc = subprocess.run([sys.executable, "-m", "mindspore.parallel.cluster.run", "--worker_num", "2",
                           "--local_worker_num", "2", "--master_addr", "127.0.0.1", "--master_port", str(port),
                           "--join", "True", "--log_dir", "log_output", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=_clean_env(DATA_PATH=str(tmp_path)))
    assert proc.returncode != 0, proc.stdout[-2000:]
    return [(tmp_path / "log_output" / f"worker_{r}.log").read_text() for r in range(2)]


@skip_unless_mpi
def test_parameter_server_sample_stops_as_in_2_10(tmp_path):
    logs = _run_failing(tmp_path, "parameter_server_train.py", 8342)
    # (the rank failing first stops the job: the other may be stopped before it reaches the line)
    assert any("AttributeError: The 'Network' object has no attribute 'set_param_ps'." in log for log in logs), \
        [log[-2000:] for log in logs]


@skip_unless_mpi
def test_graph_partition_sample_stops_as_in_2_10(tmp_path):
    logs = _run_failing(tmp_path, "graph_partition_train.py", 8343, files=[("lenet.py", "graph_partition_lenet.py")])
    assert any("AttributeError: The 'Dense' object has no attribute 'place'." in log for log in logs), \
        [log[-2000:] for log in logs]


def _local_norm_w1(rank):
    """The norm of rank ``rank``'s gradient of ``w1`` before the all-reduce in _autoparallel_config_worker.py: its
    rows' mean loss differentiated (data parallel, 2 ranks of 4 rows), computed here with NumPy."""
    rng = np.random.RandomState(0)
    w1 = rng.standard_normal((8, 16)).astype(np.float32) * 0.3
    w2 = rng.standard_normal((16, 4)).astype(np.float32) * 0.3
    rng = np.random.RandomState(1)
    x, y = rng.standard_normal((8, 8)).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32)
    x, y = x[4 * rank:4 * rank + 4].astype(np.float64), y[4 * rank:4 * rank + 4].astype(np.float64)
    h = x @ w1
    out = np.maximum(h, 0) @ w2 * 0.5
    d_out = 2 * (out - y) / out.size
    d_h = (d_out * 0.5) @ w2.T * (h > 0)
    return float(np.linalg.norm(x.T @ d_h))


@skip_unless_mpi
def test_autoparallel_files_and_norms_msrun(tmp_path):
    """AutoParallel's file and norm settings on 2 ranks (``_autoparallel_config_worker.py``): every rank writes its
    strategy file (MindSpore's keys ``"<PrimName>_<parameter>"``, the untrainable parameter included after
    ``disable_strategy_file_only_for_trainable_params``), its group file (the ranks holding its copy of every
    parameter: itself, as ``w2`` is split) and the TensorDump of its local norm of ``w1`` (the only parameter held
    as copies: the one with a mirror), equal to NumPy's; the device local norm is its square; the context is put
    back after the call. A network without strategies loading the file takes its strategies and gives the same
    loss, and ``print_local_norm`` prints the norm."""
    import re
    from mindspore.parallel import _strategy_file as sf
    import mindspore as ms
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(pathlib.Path(__file__).resolve().parent / "_autoparallel_config_worker.py", tmp_path)
    proc = subprocess.run([sys.executable, "-m", "mindspore.parallel.cluster.run", "--worker_num", "2",
                           "--local_worker_num", "2", "--master_addr", "127.0.0.1", "--master_port", "8344",
                           "--join", "True", "--log_dir", "log_output", "_autoparallel_config_worker.py", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=180, env=_clean_env())
    logs = [(tmp_path / "log_output" / f"worker_{r}.log").read_text() for r in range(2)]
    assert proc.returncode == 0, proc.stdout[-2000:] + "".join(log[-2000:] for log in logs)
    for rank, log in enumerate(logs):
        values = dict(re.findall(rf"rank {rank} (\w+) (.*)", log))
        assert values["restored"] == "False stand_alone"
        assert values["loss2"] == values["loss1"]
        assert values["loaded"] == "((2, 1), (1, 1)) ((1, 2), (2, 1))"
        smap = sf.ParallelStrategyMap.FromString((out / f"strategy_{rank}.ckpt").read_bytes())
        nodes = {item.node_name: [list(d.dim) for d in item.parallel_strategys.parallel_strategy]
                 for item in smap.parallel_strategy_item}
        assert nodes == {"MatMul_w1": [[2, 1], [1, 1]], "MatMul_w2": [[1, 2], [2, 1]]}
        layouts = sf.read_layouts(str(out / f"strategy_{rank}.ckpt"))
        assert layouts["w1"].tensor_map == (-1, -1) and layouts["w2"].strategy() == (2, 1) and "scale" in layouts
        assert ms.restore_group_info_list(str(out / f"group_{rank}.ckpt")) == [rank]
        groups = sf.ParallelGroupMap.FromString((out / f"group_{rank}.ckpt").read_bytes()).parallel_group_item
        assert [list(g.parallel_group_ranks.dim) for g in groups][:1] == [[0, 1]]   # the world group first
        dumped = list((out / "norm" / f"rank_{rank}").glob("local_norm__w1_float32_*.npy"))
        assert len(dumped) == 1
        norm = float(np.load(dumped[0]))
        np.testing.assert_allclose(norm, _local_norm_w1(rank), rtol=1e-5)
        np.testing.assert_allclose(float(values["device_norm"]), norm ** 2, rtol=1e-5)
        printed = re.search(r"dump local norm: \s*\nw1\n([-+0-9.eE]+)", log)
        np.testing.assert_allclose(float(printed.group(1)), norm, rtol=1e-5)
