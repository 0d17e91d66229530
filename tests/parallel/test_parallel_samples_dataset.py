"""MindSpore's parallel samples on dataset slicing, multiple copies and manual parallel (mindspore-ai/docs
``docs/sample_code/{dataset_slice,multiple_copy,manual_parallel}``, pages ``tutorials/source_en/parallel/
{dataset_slice,multiple_copy}.md``) run under our msrun with 8 workers, and every loss a worker prints equals the
loss of a single-process reference (``tests/fixtures/parallel_samples/reference_dataset.py``) to 1e-5, as in
``test_parallel_samples.py``.

The first two build their network under ``no_init_parameters`` and set no global seed: MindSpore then draws each
weight, when it compiles the parallel network, seeded by its slice, so all ranks start from the same weights (before
``Parameter.init_data`` did so here, every rank drew its own and each printed another loss). The scripts run as
``python train.py`` (run.sh's ``pytest -s train.py`` only adds pytest's exit code 5: the module has no test).
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _sample_runs import assert_losses_match, run_reference, run_sample, skip_unless_mpi  # noqa: E402


def test_auto_parallel_draws_deferred_weights_as_every_rank_does(monkeypatch):
    """``AutoParallel(cell)`` without a global seed draws the cell's deferred parameters when it is made, seeded
    by their slice (0: whole) and ``Tensor.delta_seed``, so every rank draws the same (before, a ``Model`` around the
    wrapper drew them in stand-alone mode from each process's own random stream); with a global seed it leaves them
    to their first use, and the context is left as it was."""
    import numpy as np

    import mindspore as ms
    from mindspore import nn
    seed_module = sys.modules["mindspore.common.seed"]   # (mindspore.common.seed is the function `seed`)
    from mindspore.parallel.auto_parallel import AutoParallel

    monkeypatch.setattr(seed_module, "_global_seed", None)

    def wrapped():
        monkeypatch.setattr(ms.Tensor, "delta_seed", 0)
        with nn.no_init_parameters():
            net = nn.Dense(3, 2)
        AutoParallel(net)
        return net

    first, again = wrapped(), wrapped()
    assert not first.weight.has_init and not first.bias.has_init
    np.testing.assert_array_equal(first.weight.asnumpy(), again.weight.asnumpy())
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    monkeypatch.setattr(seed_module, "_global_seed", 1)
    with nn.no_init_parameters():
        seeded = nn.Dense(3, 2)
    AutoParallel(seeded)
    assert seeded.weight.has_init


@skip_unless_mpi
def test_dataset_slice_sample(tmp_path):
    """dataset_slice/train.py: ``SlicePatches(1, 4)`` in a ``map`` with 4 ``output_columns`` (before the fix in
    ``vision.SlicePatches`` the map failed: "... the number of columns returned in 'map' operations: 1, the number
    of 'output_columns': 4"), rank r feeds patch r % 4 and ``dataset_strategy(((1, 1, 1, 4), (1,)))`` makes them
    the 4 blocks of the last axis of one global batch: every rank prints that batch's loss."""
    got = run_sample(tmp_path, "dataset_slice_train.py", 8, 8331)
    assert_losses_match(got, run_reference("dataset_slice", 1, script="reference_dataset.py"))
    assert sorted(got[0]) == [(0, 0), (0, 10), (0, 20)]


@skip_unless_mpi
def test_multiple_copy_sample(tmp_path):
    """multiple_copy/train.py: ``ms.parallel.nn.MicroBatchInterleaved`` (an attribute of ``mindspore.parallel``
    after ``import mindspore as ms``, as in MindSpore) under ``AutoParallel`` and ``Model``; each rank's rows are
    cut in 2 interleaved micro-batches and the loss is the sum of theirs. The weights are drawn when the
    ``AutoParallel`` wrapper is made (``Model``'s step reads them before the wrapper's call)."""
    got = run_sample(tmp_path, "multiple_copy_train.py", 8, 8332)
    assert_losses_match(got, run_reference("multiple_copy", 1, script="reference_dataset.py"))
    assert sorted(got[0]) == [(1, 5), (1, 10)]


@skip_unless_mpi
def test_manual_parallel_sample(tmp_path):
    """manual_parallel/train.py: no parallel mode; each rank slices its 4 rows of the batch in ``construct`` and
    the loss is ``AllReduce``d and divided by 8, so every rank prints the mean of the ranks' losses. On full
    batches (the fixture's ``take``; a final batch of 5 rows leaves ranks 2-7 an empty slice, whose cross entropy is
    NaN in MindSpore 2.10 as here)."""
    got = run_sample(tmp_path, "manual_parallel_train.py", 8, 8333)
    assert_losses_match(got, run_reference("manual_parallel", 1, script="reference_dataset.py"))
    assert sorted(got[0]) == [(1, 20), (1, 40)]
