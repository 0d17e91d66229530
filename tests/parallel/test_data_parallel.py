"""DATA_PARALLEL training over real processes equals one process trained on the global batch.

Three jobs of ``_dp_worker.py`` run every scenario once: one process on the global batch (the reference), 2 ranks
and 4 ranks under ``mpiexec`` (each rank trains on its slice of every global batch). The tests compare what the
ranks saved with the reference: the mean of the ranks' losses and every rank's final Parameters to 1e-5 in
float32, for an MLP and a small transformer, SGD/Momentum/Adam, PYNATIVE and GRAPH_MODE; ``Model.train`` on a
dataset sharded with ``num_shards``/``shard_id`` (also with amp O2 and a loss scale manager), the
loss-scale step with an overflow on one rank only, SyncBatchNorm against BatchNorm on the global batch,
``parameter_broadcast`` and ModelCheckpoint files per rank. A job without DATA_PARALLEL must NOT match (the
comparison can fail). The bucketing rules of ``DistributedGradReducer`` and the auto-parallel context checks
are tested in this process.
"""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "mindspore-parallel" / "tests"))
from _mpi_launch import mpi_available, run_ranks  # noqa: E402

WORKER = HERE / "_dp_worker.py"
TRAIN = [f"{net}-{opt}-{mode}" for net in ("mlp", "tfm") for opt in ("sgd", "momentum", "adam")
         for mode in ("py", "graph")]
SPECIAL = ["lossscale-py", "lossscale-graph", "syncbn-py", "syncbn-graph", "syncbn-groups", "broadcast-py",
           "broadcast-graph", "tutorial-py", "tutorial-jit", "model", "model-amp", "nodp"]
SCENARIOS = TRAIN + SPECIAL
TOL = {"rtol": 1e-5, "atol": 1e-5}
LAUNCH_VARS = ("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "PMI_SIZE", "PMI_RANK", "PMI_FD", "PMI_PORT")

needs_mpi = pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed "
                                                           "(pip install mindspore-parallel[mpi])")


def _load(folder, scenario, rank):
    with np.load(folder / f"{scenario}.rank{rank}.npz") as f:
        return {k: f[k] for k in f.files}


class _Job:
    def __init__(self, folder, n):
        self.folder, self.n = folder, n

    def ranks(self, scenario):
        return [_load(self.folder, scenario, r) for r in range(self.n)]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("dp_single")
    env = {k: v for k, v in os.environ.items() if k not in LAUNCH_VARS}
    proc = subprocess.run([sys.executable, str(WORKER), str(out), *SCENARIOS], capture_output=True, text=True,
                          timeout=180, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return _Job(out, 1)


@pytest.fixture(scope="module", params=[2, 4], ids=["2ranks", "4ranks"])
def job(request, tmp_path_factory):
    """One mpiexec job of N ranks running every scenario (module scope: once per N)."""
    if not mpi_available():
        pytest.skip("mpi4py/mpiexec not installed (pip install mindspore-parallel[mpi])")
    n = request.param
    out = tmp_path_factory.mktemp(f"dp_{n}")
    proc = run_ranks(WORKER, n, timeout=240, args=(out, *SCENARIOS))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return _Job(out, n)


def _weights(saved):
    return {k: v for k, v in saved.items() if k.startswith("w:")}


def _assert_matches(job, reference, scenario, **tol):
    tol = tol or TOL
    ref = _load(reference.folder, scenario, 0)
    ranks = job.ranks(scenario)
    mean_loss = np.mean([r["loss"] for r in ranks], axis=0)
    np.testing.assert_allclose(mean_loss, ref["loss"], err_msg=f"{scenario}: mean loss over ranks", **tol)
    for rank, saved in enumerate(ranks):
        assert _weights(saved).keys() == _weights(ref).keys()
        for name, value in _weights(ref).items():
            np.testing.assert_allclose(saved[name], value, err_msg=f"{scenario}: {name} on rank {rank}", **tol)
    return ref, ranks


# --- multi-process equality ----------------------------------------------------------------------------------
@needs_mpi
@pytest.mark.parametrize("scenario", TRAIN)
def test_training_equals_one_process_on_the_global_batch(job, reference, scenario):
    _, ranks = _assert_matches(job, reference, scenario)
    for saved in ranks:   # exactly one all-reduce per bucket per step, as many buckets on every rank
        assert saved["buckets"] >= 1
        np.testing.assert_array_equal(saved["allreduce_calls"], [saved["buckets"]] * len(saved["loss"]))


@needs_mpi
@pytest.mark.parametrize("variant", ["py", "jit"])
def test_tutorial_loop_with_distributed_grad_reducer(job, reference, variant):
    """value_and_grad + nn.DistributedGradReducer + optimizer (eager or @ms.jit), weights from ms.set_seed."""
    _assert_matches(job, reference, f"tutorial-{variant}")


@needs_mpi
def test_fusion_settings_make_several_buckets(job):
    # mlp-sgd runs with a 1 KB size threshold, tfm-momentum with all_reduce_fusion_config=[3, 9]
    assert all(int(r["buckets"]) == 2 for r in job.ranks("mlp-sgd-py"))
    assert all(int(r["buckets"]) == 3 for r in job.ranks("tfm-momentum-graph"))
    assert all(int(r["buckets"]) == 1 for r in job.ranks("mlp-adam-py"))   # default: one 64 MB bucket


@needs_mpi
def test_without_data_parallel_the_ranks_diverge(job, reference):
    """The negative control: each rank trains on its shard alone, so the comparison must fail."""
    with pytest.raises(AssertionError):
        _assert_matches(job, reference, "nodp")
    assert all(int(r["buckets"]) == -1 and not r["allreduce_calls"].any() for r in job.ranks("nodp"))


@needs_mpi
@pytest.mark.parametrize("mode", ["py", "graph"])
def test_overflow_on_one_rank_skips_the_step_everywhere(job, reference, mode):
    ref, ranks = _assert_matches(job, reference, f"lossscale-{mode}")
    for saved in ranks:
        # step 1 holds an inf on the last rank only: every rank reports the overflow, keeps its weights,
        # and halves the scale; the scale doubles again after two clean steps (scale_window=2)
        np.testing.assert_array_equal(saved["overflow"], [False, True, False, False])
        np.testing.assert_array_equal(saved["scales"], ref["scales"])
        np.testing.assert_array_equal(saved["fc1_history"][1], saved["fc1_history"][0])
        assert not np.array_equal(saved["fc1_history"][2], saved["fc1_history"][1])
    np.testing.assert_array_equal(ref["scales"], [1024.0, 512.0, 512.0, 1024.0])


@needs_mpi
@pytest.mark.parametrize("mode", ["py", "graph"])
def test_syncbatchnorm_equals_batchnorm_on_the_global_batch(job, reference, mode):
    ref, ranks = _assert_matches(job, reference, f"syncbn-{mode}")
    assert any("moving_mean" in k or k.endswith(".mean") for k in _weights(ref))
    # evaluation with the moving statistics: the ranks' slices of batch 0 put together are the reference's
    np.testing.assert_allclose(np.concatenate([r["eval_out"] for r in ranks]), ref["eval_out"], **TOL)


@needs_mpi
def test_syncbatchnorm_process_groups(job, reference):
    """Sync groups of consecutive ranks holding half of the batch each (2 ranks: ``[[0], [1]]``, 4 ranks:
    ``[[0, 1], [2, 3]]``): output, input gradient and moving statistics are BatchNorm's on each half."""
    ref = _load(reference.folder, "syncbn-groups", 0)
    ranks = job.ranks("syncbn-groups")
    np.testing.assert_allclose(np.concatenate([r["out"] for r in ranks]), ref["out"], **TOL)
    np.testing.assert_allclose(np.concatenate([r["grad"] for r in ranks]), ref["grad"], **TOL)
    for rank, saved in enumerate(ranks):
        np.testing.assert_allclose(saved["stats"][0], ref["stats"][rank * 2 // job.n], **TOL)
    assert not np.allclose(ref["stats"][0], ref["stats"][1])   # the halves differ: the groups are real


@needs_mpi
@pytest.mark.parametrize("mode", ["py", "graph"])
def test_parameter_broadcast_starts_every_rank_from_rank_0(job, reference, mode):
    # each rank builds its network with its own seed; the reference is seed 0
    _assert_matches(job, reference, f"broadcast-{mode}")


@needs_mpi
def test_model_train_on_a_sharded_dataset_with_checkpoints(job, reference):
    _, ranks = _assert_matches(job, reference, "model")
    assert len(ranks[0]["loss"]) == 6   # 2 epochs of 3 steps on every rank
    final = _weights(ranks[0])
    names = None
    for rank in range(job.n):
        folder = job.folder / f"ckpt_{rank}"
        files = sorted(p.name for p in folder.iterdir())
        assert files == ["dp-1_3.ckpt", "dp-2_3.ckpt"]
        loaded = ms.load_checkpoint(str(folder / "dp-2_3.ckpt"))
        names = names or set(loaded)
        assert set(loaded) == names
        for key, value in final.items():
            np.testing.assert_array_equal(loaded[key[2:]].asnumpy(), value)
    # remove_redundancy: every Parameter in exactly one rank's file, rank k % N of the sorted names
    seen = []
    for rank in range(job.n):
        loaded = ms.load_checkpoint(str(job.folder / f"dedup_{rank}" / "dedup-2_3.ckpt"))
        params = sorted(set(loaded) - {"epoch_num"})
        assert params == [n for k, n in enumerate(sorted(names)) if k % job.n == rank]
        seen += params
    assert sorted(seen) == sorted(names)


@needs_mpi
def test_model_with_amp_and_a_loss_scale_manager(job, reference):
    # float16 compute (amp O2): the global batch is summed in another order, so float16 rounding differs
    _assert_matches(job, reference, "model-amp", rtol=2e-3, atol=2e-3)


# --- in this process: the reducer's buckets and the context --------------------------------------------------
@pytest.fixture
def clean_context():
    ms.reset_auto_parallel_context()
    yield
    ms.reset_auto_parallel_context()


def _params(*shapes, layerwise=()):
    return [ms.Parameter(Tensor(np.zeros(s, np.float32)), name=f"p{i}", layerwise_parallel=i in layerwise)
            for i, s in enumerate(shapes)]


SHAPES = [(16, 8), (16,), (4, 16), (4,), (3, 3, 3)]


def test_bucket_plans(clean_context):
    params = _params(*SHAPES)
    assert nn.DistributedGradReducer(params, True, 1).bucket_plan == [[0, 1, 2, 3, 4]]
    assert nn.DistributedGradReducer(params, True, 1, fusion_type=0).bucket_plan == [[0], [1], [2], [3], [4]]
    ms.set_auto_parallel_context(all_reduce_fusion_config=[1, 3])   # MindSpore: index i closes a bucket
    assert nn.DistributedGradReducer(params, True, 1).bucket_plan == [[0, 1], [2, 3], [4]]
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 300 / 2 ** 20}})
    # float32 bytes 512, 64, 256, 16, 108 packed in order into buckets of at most 300 bytes (a larger gradient
    # is a bucket of its own)
    assert nn.DistributedGradReducer(params, True, 1).bucket_plan == [[0], [1], [2, 3], [4]]
    ms.set_auto_parallel_context(comm_fusion={"openstate": False})
    assert nn.DistributedGradReducer(params, True, 1).bucket_plan == [[0], [1], [2], [3], [4]]
    ms.reset_auto_parallel_context()
    layerwise = _params(*SHAPES, layerwise=(1, 3))
    assert nn.DistributedGradReducer(layerwise, True, 1).bucket_plan == [[0, 2, 4]]
    for param, fusion in zip(params, (1, 2, 1, 0, 2)):   # the parameters' own fusion ids win; 0: alone
        param.comm_fusion = fusion
    assert nn.DistributedGradReducer(params, True, 1).bucket_plan == [[0, 2], [1, 4], [3]]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_reducer_in_one_process(clean_context, mode):
    previous = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        params = _params(*SHAPES, layerwise=(2,))
        grads = tuple(Tensor(np.arange(np.prod(s), dtype=np.float16 if i == 1 else np.float32).reshape(s) + 1)
                      for i, s in enumerate(SHAPES))
        out = nn.DistributedGradReducer(params, mean=True, degree=4)(grads)
        for i, (g, o) in enumerate(zip(grads, out)):
            assert o.dtype == g.dtype and o.shape == g.shape
            scale = 1.0 if i == 2 else 0.25   # layerwise-parallel gradients are left alone
            np.testing.assert_allclose(o.asnumpy().astype(np.float32), g.asnumpy().astype(np.float32) * scale,
                                       rtol=1e-3)
    finally:
        ms.set_context(mode=previous)


def test_reducer_argument_errors(clean_context):
    params = _params((2,))
    with pytest.raises(ValueError, match="parameter 'degree' in DistributedGradReducer should large than 0"):
        nn.DistributedGradReducer(params, True, 0)
    with pytest.raises(TypeError, match="'mean' must be a bool"):
        nn.DistributedGradReducer(params, 1, 1)
    with pytest.raises(ValueError, match="the number of gradients must be the number of parameters"):
        nn.DistributedGradReducer(params, True, 1)((Tensor(np.ones(2, np.float32)),) * 2)


def test_auto_parallel_context_checks(clean_context):
    with pytest.raises(ValueError, match="'parallel_mode' only support 'stand_alone', 'data_parallel'"):
        ms.set_auto_parallel_context(parallel_mode="dp")
    with pytest.raises(TypeError, match="The parameter 'gradients_mean' must be <class 'bool'>"):
        ms.set_auto_parallel_context(gradients_mean=1)
    with pytest.raises(ValueError, match="must be sorted in ascending order"):
        ms.set_auto_parallel_context(all_reduce_fusion_config=[3, 1])
    with pytest.raises(KeyError, match="fusion method mode must be auto, index or size"):
        ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "x", "config": 1}})
    with pytest.raises(KeyError, match="comm fusion type must be openstate"):
        ms.set_auto_parallel_context(comm_fusion={"allscatter": {}})
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                                 comm_fusion={"allreduce": {"mode": "index", "config": [2, 5]}})
    assert ms.get_auto_parallel_context("parallel_mode") == "data_parallel"
    assert ms.get_auto_parallel_context("all_reduce_fusion_config") == [2, 5]
    assert ms.get_auto_parallel_context("comm_fusion")["allreduce"] == {"mode": "index", "config": [2, 5]}
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("comm_fusion")["allreduce"] == {"mode": "auto", "config": None}


def test_train_step_in_a_world_of_one(clean_context):
    """DATA_PARALLEL in one process: the step reduces over a world of one (degree 1) and trains as stand-alone."""
    ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, parameter_broadcast=True)
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    assert isinstance(step.grad_reducer, nn.DistributedGradReducer) and step.degree == 1
    step(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 2), np.float32)))
    np.testing.assert_allclose(net.weight.asnumpy(), np.full((2, 3), 0.7), rtol=1e-6)


def test_remove_redundancy_needs_several_ranks(tmp_path):
    from mindspore.train.callback._checkpoint import _redundancy_choice
    with pytest.raises(TypeError, match="can only be used in parallel scenarios, but got 'stand_alone'"):
        _redundancy_choice(nn.Dense(2, 2))
