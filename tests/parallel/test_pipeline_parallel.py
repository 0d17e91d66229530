"""Pipeline parallel in one process (``mindspore.parallel._pipeline``, ``AutoParallel.pipeline``,
``mindspore.parallel.nn.Pipeline``); the 8-rank runs of the docs' samples are in test_parallel_samples_pipeline.py."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, context, nn
from mindspore.parallel import _pipeline
from mindspore.parallel.auto_parallel import AutoParallel
from mindspore.parallel.nn import Pipeline


@pytest.fixture
def stages2():
    context.set_auto_parallel_context(pipeline_stages=2)
    yield
    context.reset_auto_parallel_context()


def test_stages_are_blocks_of_consecutive_ranks(stages2):
    assert [_pipeline.stage_of(r, 8) for r in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [_pipeline.is_last_stage(r, 8) for r in (3, 4)] == [False, True]
    context.set_auto_parallel_context(pipeline_stages=3)
    with pytest.raises(ValueError, match="device_num 8 must be divisible by the pipeline_stages 3"):
        _pipeline.stage_of(0, 8)


def test_other_stages_return_zeros_with_the_networks_gradient(stages2):
    """MindSpore's zero outputs off the last stage; the gradient of a step taken through them is unchanged."""
    w = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def loss(rank):
        return _pipeline.stage_output((w * w).sum(), rank, 8)

    for rank, value in ((0, 0.0), (7, 5.0)):
        out, grad = ms.value_and_grad(lambda: loss(rank), None, [w])()
        assert float(out) == value
        np.testing.assert_allclose(grad[0].asnumpy(), [2.0, 4.0])
    ints = _pipeline.stage_output((Tensor(np.array([3], np.int32)), 1.5), 0, 8)
    assert ints[0].asnumpy().tolist() == [0] and ints[1] == 1.5
    context.set_auto_parallel_context(pipeline_result_broadcast=True)
    assert float(loss(0)) == 5.0


def test_grad_reducer_returns_the_accumulated_gradients_over_scale_sense():
    net = nn.Dense(2, 1)
    reducer = nn.PipelineGradReducer(net.trainable_params(), scale_sense=2.0)
    grads = (Tensor(np.full((1, 2), 4.0, np.float32)), Tensor(np.array([6.0], np.float32)))
    out = _pipeline.reduce_grads(reducer, grads)
    assert [o.asnumpy().tolist() for o in out] == [[[2.0, 2.0]], [3.0]]


def test_auto_parallel_pipeline_sets_the_context_for_its_call():
    seen = {}

    class Probe(nn.Cell):
        def construct(self, x):
            seen.update({key: context.get_auto_parallel_context(key) for key in
                         ("pipeline_stages", "pipeline_result_broadcast", "pipeline_config")})
            return x

    net = AutoParallel(Probe(), parallel_mode="semi_auto")
    assert net.get_pipeline_stages() == 1
    net.pipeline(stages=1, output_broadcast=True, interleave=True, scheduler="gpipe")
    assert net.get_pipeline_stages() == 1
    net(Tensor(np.ones(2, np.float32)))
    assert seen == {"pipeline_stages": 1, "pipeline_result_broadcast": True,
                    "pipeline_config": {"pipeline_interleave": True, "pipeline_scheduler": "gpipe"}}
    assert context.get_auto_parallel_context("pipeline_result_broadcast") is False   # put back after the call
    context.reset_auto_parallel_context()


@pytest.mark.parametrize("kwargs, error, match", [
    ({"stages": 2.0}, TypeError, "'stages' must be int type"),
    ({"stages": 0}, ValueError, "'stages' must be larger than zero, but got value: 0"),
    ({"output_broadcast": 1}, TypeError, "'output_broadcast' must be bool type"),
    ({"interleave": "yes"}, TypeError, "'interleave' must be bool type"),
    ({"scheduler": 1}, TypeError, "'scheduler' must be str type"),
    ({"scheduler": "fifo"}, ValueError, "'scheduler' must be '1f1b'/'gpipe'/'seqpipe'"),
])
def test_auto_parallel_pipeline_checks_its_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        AutoParallel(nn.Dense(2, 2)).pipeline(**kwargs)


def test_pipeline_cell_tags_stages_and_sums_micro_batches():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer1 = nn.Dense(3, 3, weight_init="ones", bias_init="zeros")
            self.layer2 = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")

        def construct(self, x):
            return self.layer2(self.layer1(x))

    net = Net()
    wrapped = Pipeline(nn.WithLossCell(net, nn.L1Loss()), 2, stage_config={"_backbone.layer1": 0,
                                                                           "_backbone.layer2": 1})
    assert (net.layer1.pipeline_stage, net.layer2.pipeline_stage) == (0, 1)
    x = Tensor(np.ones((4, 3), np.float32))
    assert float(wrapped(x, Tensor(np.zeros((4, 1), np.float32)))) == pytest.approx(18.0)
    with pytest.raises(KeyError, match="is not found in 'network'"):
        Pipeline(nn.WithLossCell(Net(), nn.L1Loss()), 2, stage_config={"_backbone.layer9": 0})
