"""MindSpore's distributed-training sample scripts (mindspore-ai/docs ``docs/sample_code/distributed_*``, run by the
tutorial pages ``tutorials/source_en/parallel/{data_parallel,operator_parallel,optimizer_parallel,
distributed_gradient_accumulation,msrun_launcher}.md``) run under our msrun with the page's worker count, and every
loss a worker prints equals the loss of a single-process reference (``tests/fixtures/parallel_samples/reference.py``:
the same network, seed and data on the global batch, no parallel setting) to 1e-5.

Why they must be equal: data, operator and optimizer parallelism change where a computation runs, not what is
computed. Under DATA_PARALLEL with ``gradients_mean=True`` the mean of the ranks' mean gradients on equal-sized
shards is the mean gradient of the global batch, so every rank takes the reference's SGD step and its loss on its
own shard is the reference weights' loss on that shard. Under operator parallel (semi-auto) a sharded MatMul's
partial sums are all-reduced into the whole product and the loss is the global batch's; the optimizer parallel
only splits who updates which slice of a weight. What differs is the order of float32 additions (an all-reduce
adds the partial sums in another order than one MatMul), a few ulps per step, hence the 1e-5 tolerance.

The mint samples run forward only and print each rank's output sum (its own rows, as MindSpore returns a
data-parallel-fed output); the gradient-accumulation sample prints the sum of its 4 micro-batches' losses. Neither
sum depends on how the rows are grouped, so both equal the reference's to float32 rounding as well.

The scripts are the samples with the few changes listed in each one's docstring (fewer epochs or steps, the
repository's MNIST-format digits through DATA_PATH); they run from a temporary folder like ``run.sh`` runs them, and
msrun writes ``worker_<rank>.log`` there. Each keeps its page's 8 workers and strategies: on a 2-core machine one
run takes 20-30 s (8 interpreters starting take about 10 s of it), about 3 minutes for the file.
"""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _sample_runs import assert_losses_match, run_reference, run_sample, skip_unless_mpi  # noqa: E402


@skip_unless_mpi
def test_data_parallel_sample(tmp_path):
    """distributed_data_parallel.py (data_parallel.md): 8 workers, each on its shard of the dataset, gradients
    averaged by DistributedGradReducer; rank r prints its shard's loss at step 0 of each epoch."""
    got = run_sample(tmp_path, "distributed_data_parallel.py", 8, 8301)
    assert_losses_match(got, run_reference("data_parallel", 3))
    assert len(got[0]) == 3


@skip_unless_mpi
def test_optimizer_parallel_sample(tmp_path):
    """distributed_optimizer_parallel.py (optimizer_parallel.md): SEMI_AUTO_PARALLEL with the parallel optimizer,
    a ``jit`` train step calling the network and then the loss function; every rank reads the whole dataset.
    Before the fix in ``_dispatch._cell_call`` the loss function's call cut the network's (already whole) logits
    again as a batch part: "For 'NLLLoss', the 'labels' shape must be (2048,) ..., but got (256,)"."""
    got = run_sample(tmp_path, "distributed_optimizer_parallel.py", 8, 8302)
    assert_losses_match(got, run_reference("optimizer_parallel", 1))
    assert sorted(got[0]) == [(0, 0), (0, 10), (0, 20)]


@skip_unless_mpi
@pytest.mark.parametrize("script", ["distributed_operator_parallel.py", "advanced_distributed_operator_parallel.py"])
def test_operator_parallel_sample(tmp_path, script):
    """distributed_operator_parallel.py / advanced_...py (operator_parallel.md, run.sh / run_advanced.sh: msrun
    runs ``pytest -s -v script::test``): ``AutoParallel(train_step, "semi_auto")`` with MatMul/ReLU strategies
    over 8 devices (tuples, or Layouts in the advanced variant); every rank reads the whole dataset."""
    test = "test_advanced_distributed_operator_parallel" if script.startswith("advanced") else \
        "test_distributed_operator_parallel"
    got = run_sample(tmp_path, script, 8, 8303, task=("pytest", "-s", "-v", f"{script}::{test}"))
    assert_losses_match(got, run_reference("operator_parallel", 1))
    assert sorted(got[0]) == [(0, 0), (0, 10), (0, 20)]


@skip_unless_mpi
@pytest.mark.parametrize("script", ["distributed_mint_operator_parallel.py",
                                    "advanced_distributed_mint_operator_parallel.py"])
def test_mint_operator_parallel_sample(tmp_path, script):
    """distributed_mint_operator_parallel.py / advanced_...py (run_mint.sh / run_advanced_mint.sh):
    ``ms.parallel.shard`` on mint functions (tuples, or Layouts), forward only; each rank prints the sum of its
    output, which MindSpore returns as this rank's rows (the last MatMul has no strategy: data parallel). Before
    ``_dispatch._network_output`` ours returned the 8 ranks' rows whole: 8 times the reference's sum."""
    test = "test_advanced_distributed_mint_operator_parallel" if script.startswith("advanced") else \
        "test_distributed_mint_operator_parallel"
    got = run_sample(tmp_path, script, 8, 8304, task=("pytest", "-s", "-v", f"{script}::{test}"))
    assert_losses_match(got, run_reference("mint_operator_parallel", 1))
    assert sorted(got[0]) == [(0, 0), (0, 10), (0, 20)]


@skip_unless_mpi
def test_gradient_accumulation_sample(tmp_path):
    """distributed_gradient_accumulation/train.py (distributed_gradient_accumulation.md): ``GradAccumulation`` of 4
    micro-batches around ``WithLossCell``, ``AutoParallel`` with ``hsdp()``, trained by ``Model`` with LossMonitor.
    run.sh starts it as ``pytest -s train.py``, which trains while importing the module and then exits 5 (no test
    collected); the test runs the script itself. Before ``mindspore.parallel.nn`` existed the sample stopped at its
    import."""
    got = run_sample(tmp_path, "distributed_gradient_accumulation_train.py", 8, 8305)
    assert_losses_match(got, run_reference("gradient_accumulation", 1))
    assert sorted(got[0]) == [(1, 10), (1, 20)]
