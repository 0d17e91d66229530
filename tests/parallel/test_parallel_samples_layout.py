"""MindSpore's samples of Layout strategies, shard functions and dynamic shapes (mindspore-ai/docs
``docs/sample_code/{shard_function_parallel,high_dimension_tensor_parallel,parallel_support_dynamic_shape}``) run
under our msrun with 8 workers, and every number a worker prints equals the single-process reference's
(``tests/fixtures/parallel_samples/reference_layout.py``) to 1e-5, as in ``test_parallel_samples.py``.

The scripts are the samples with the few changes listed in each one's docstring; they run from a temporary folder
like their ``run.sh`` runs them (msrun master ports 8321-8329). Each reference runs in a thread while the workers
start (CI time).
"""
import concurrent.futures
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _sample_runs import assert_losses_match, run_reference, run_sample, skip_unless_mpi  # noqa: E402

REFERENCE = "reference_layout.py"


def _reference(sample, epochs):
    """The reference's numbers, computed in a thread (call ``.result()``)."""
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(run_reference, sample, epochs, script=REFERENCE)
    pool.shutdown(wait=False)
    return future


@skip_unless_mpi
def test_shard_function_sample(tmp_path):
    """shard_function_example.py: PYNATIVE, AUTO_PARALLEL, ``self.block1_shard = self.block1.shard(in_strategy=
    ((1, 8),), parameter_plan=...)`` called inside ``construct``. Before ``Cell.shard`` returned the sharded callable
    the script failed: "TypeError: 'NoneType' object is not callable"."""
    want = _reference("shard_function", 2)
    got = run_sample(tmp_path, "shard_function_example.py", 8, 8321)
    assert_losses_match(got, want.result())
    assert sorted(got[0]) == [(0, 0), (1, 0)]


@skip_unless_mpi
def test_dynamic_shape_sample(tmp_path):
    """parallel_support_dynamic_shape.py: GRAPH_MODE, SEMI_AUTO_PARALLEL with ``Primitive.shard`` strategies, the
    batch dimension declared ``Symbol(divisor=8)`` (``net.set_inputs``/``loss_fn.set_inputs``), ``Model.train`` with
    LossMonitor. Before ``Tensor(shape=[Symbol, ...])`` made a dynamic dimension the script failed: "TypeError: int()
    argument must be a string, a bytes-like object or a real number, not 'Symbol'"."""
    want = _reference("dynamic_shape", 1)
    got = run_sample(tmp_path, "parallel_support_dynamic_shape.py", 8, 8322)
    assert_losses_match(got, want.result())
    assert sorted(got[0]) == [(1, 1), (1, 2), (1, 3)]


@skip_unless_mpi
def test_high_dimension_tensor_parallel_sample(tmp_path):
    """high_dimension_tensor_parallel.py: 2D tensor parallel MatMuls (``enable_nd_tp``, ``x: ("None", ("x", "y"))``,
    ``w: ("x", "y")`` over ``Layout((2, 4), ("x", "y"))``), forward only; each rank prints its output (NumPy's
    summary: the corner numbers), which must show the reference's numbers. Before the 2D rule in ``_ops/matmul.py``:
    "For 'MatMul', the strategy is ((1, 8), (2, 4)): the cuts of the dimension 'k' shared by both inputs must be
    equal, but got 8 and 2"."""
    want = _reference("high_dimension", 1)
    run_sample(tmp_path, "high_dimension_tensor_parallel.py", 8, 8323)
    shown = re.compile(r"[-+]?\d+\.\d*(?:e[-+]?\d+)?")
    got = {}
    for rank in range(8):
        text = (tmp_path / "log_output" / f"worker_{rank}.log").read_text()
        printed = text[text.index("The output is:"):]
        got[rank] = {(0, k): float(v) for k, v in enumerate(shown.findall(printed))}
    assert_losses_match(got, want.result())
    assert len(got[0]) == 36     # 3 + 3 numbers of the first and last 3 rows
