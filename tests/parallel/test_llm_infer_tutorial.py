"""The LLM inference tutorial (tutorials/source_en/model_infer/ms_infer/model_dev.md) runs unchanged with msrun and
two workers: its tensor-parallel layers (column/row parallel linear, vocabulary-parallel embedding, attention through
``ops.operations.nn_ops.FlashAttentionScore``, MLP, transformer) print the page's shapes on every rank, for the
fixture's small model (see its header)."""
import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "mindspore-parallel" / "tests"))
from _mpi_launch import OVERSUBSCRIBE_ENV, skip_unless_mpi  # noqa: E402

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "llm_infer" / "model_dev.py"
_LAUNCH = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "PMI_FD",
           "MS_WORKER_NUM", "RANK_ID", "RANK_SIZE", "MS_ROLE")


@skip_unless_mpi
def test_model_dev_runs_tensor_parallel_with_msrun(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in _LAUNCH}
    env.update(OVERSUBSCRIBE_ENV)
    proc = subprocess.run([sys.executable, "-m", "mindspore.parallel.cluster.run", "--worker_num", "2",
                           "--local_worker_num", "2", "--master_port", "8124", "--log_dir", str(tmp_path / "log"),
                           "--join", "True", "--cluster_time_out", "120", str(SCRIPT)],
                          capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    # column-parallel output (hidden / 2 per rank), then gathered, row-parallel, embedding, attention, MLP,
    # transformer and one transformer layer: (batch, sequence, hidden)
    want = ["(2, 8, 16)"] + ["(2, 8, 32)"] * 7
    for rank in range(2):
        lines = (tmp_path / "log" / f"worker_{rank}.log").read_text().splitlines()
        shapes = [line.strip() for line in lines if line.strip().startswith("(")]
        assert shapes == want, (rank, lines[-20:])
