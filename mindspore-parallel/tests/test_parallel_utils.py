"""``mindspore.parallel._utils``: MindSpore 2.10's readers of the parallel context that libraries writing their own
training wrappers import by name (MindArmour's DPModel: ``_get_parallel_mode``, ``_get_gradients_mean``,
``_get_device_num``), with 2.10's values stand-alone and in data parallel."""
import mindspore as ms
from mindspore.parallel import _utils


def test_stand_alone_values():
    ms.reset_auto_parallel_context()
    assert _utils._get_parallel_mode() == "stand_alone"
    assert _utils._get_gradients_mean() is False
    assert _utils._get_device_num() == 1
    assert _utils._get_global_rank() == 0
    assert _utils._get_pipeline_stages() == 1
    assert _utils._is_in_auto_parallel_mode() is False
    assert _utils._get_enable_parallel_optimizer() is False


def test_values_follow_the_auto_parallel_context():
    try:
        ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, device_num=4)
        assert _utils._get_parallel_mode() == "data_parallel"
        assert _utils._get_gradients_mean() is True
        assert _utils._get_device_num() == 4
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
        assert _utils._is_in_auto_parallel_mode() is True
    finally:
        ms.reset_auto_parallel_context()
