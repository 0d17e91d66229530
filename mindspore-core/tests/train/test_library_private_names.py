"""MindSpore 2.10's private training names that outside libraries import and call (MindArmour's DPModel and neuron
coverage, MindPet's checkpoint callback), with 2.10's shapes and behaviour."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn, ops


def test_amp_config_level_is_a_dict_of_level_settings():
    """2.10's ``_config_level`` is a dict indexed by level (DPModel does ``dict(_config_level[level], **kwargs)``)."""
    from mindspore.train.amp import _config_level

    assert sorted(_config_level) == ["O0", "O1", "O2", "O3", "auto"]
    assert _config_level["O0"] == {"keep_batchnorm_fp32": False, "cast_model_type": ms.float32,
                                   "loss_scale_manager": None}
    assert _config_level["O2"]["keep_batchnorm_fp32"] is True and _config_level["O2"]["cast_model_type"] == ms.float16
    assert isinstance(_config_level["O2"]["loss_scale_manager"], ms.DynamicLossScaleManager)
    assert _config_level["O3"]["loss_scale_manager"] is None


def test_amp_add_loss_network_and_keep_batchnorm_fp32():
    from mindspore.train.amp import _add_loss_network, _do_keep_batchnorm_fp32

    net = nn.SequentialCell([nn.Dense(3, 4), nn.BatchNorm1d(4)])
    net.to_float(ms.float16)
    _do_keep_batchnorm_fp32(net)
    x = Tensor(np.ones((2, 3), np.float32))
    loss_net = _add_loss_network(net, nn.MSELoss(), ms.float16)
    loss = loss_net(x, Tensor(np.zeros((2, 4), np.float32)))
    assert loss.dtype == ms.float32 and loss.shape == ()
    assert isinstance(_add_loss_network(nn.Dense(3, 4), nn.MSELoss(), ms.float32), nn.WithLossCell)
    with pytest.raises(TypeError):
        _add_loss_network(net, "mse", ms.float32)


def test_parallel_mode_is_importable_from_train_model():
    from mindspore.train.model import ParallelMode

    assert ParallelMode.DATA_PARALLEL == "data_parallel" and ParallelMode is ms.ParallelMode


def test_model_check_kwargs_is_a_method_subclasses_call():
    class MyModel(ms.Model):
        def __init__(self, network, **kwargs):
            self._check_kwargs(kwargs)
            super().__init__(network, **kwargs)

    MyModel(nn.Dense(2, 2), keep_batchnorm_fp32=False)
    with pytest.raises(ValueError, match="The argument in 'kwargs' should be 'loss_scale_manager'"):
        MyModel(nn.Dense(2, 2), unknown=1)


def test_get_summary_tensor_data_drains_the_graph_summaries():
    """2.10: ``{"<tag>[:Tensor]": Tensor, ...}`` of what networks produced under GRAPH_MODE (no SummaryRecord
    needed), emptied by the call; PYNATIVE values are not in it (MindArmour's coverage metrics read it)."""
    from mindspore.train.summary.summary_record import _get_summary_tensor_data

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.tensor_summary = ops.TensorSummary()
            self.scalar_summary = ops.ScalarSummary()

        def construct(self, x):
            self.tensor_summary("hidden", x * 2)
            self.scalar_summary("total", x.sum())
            return x

    old = ms.get_context("mode")
    _get_summary_tensor_data()   # what graphs of earlier tests in this process left
    try:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        Net()(Tensor(np.array([1.0, 2.0], np.float32)))
        assert _get_summary_tensor_data() == {}
        ms.set_context(mode=ms.GRAPH_MODE)
        net = Net()
        net(Tensor(np.array([5.0, 5.0], np.float32)))
        net(Tensor(np.array([1.0, 2.0], np.float32)))   # the newest value of a tag wins
        data = _get_summary_tensor_data()
    finally:
        ms.set_context(mode=old)
    assert sorted(data) == ["hidden[:Tensor]", "total[:Scalar]"]
    np.testing.assert_array_equal(data["hidden[:Tensor]"].asnumpy(), [2.0, 4.0])
    assert float(data["total[:Scalar]"].asnumpy()) == 3.0
    assert _get_summary_tensor_data() == {}


def test_set_cur_net_and_get_merged_param_data_on_one_device():
    from mindspore.train.callback import _callback
    from mindspore.train.serialization import _get_merged_param_data

    net = nn.Dense(2, 3)
    _callback.set_cur_net(net)
    assert _callback.CUR_NET is net
    _callback.set_cur_net(None)
    data = Tensor(net.weight.asnumpy())
    # one device: nothing is sharded, this rank's value is the whole one
    assert _get_merged_param_data(net, {"weight": [[1], [-1, -1]]}, "weight", data, False) is data
    assert _get_merged_param_data(net, {"weight": [[1], [-1, -1]]}, "weight", data, True) is data


def test_model_checkpoint_subclass_with_its_own_save_ckpt(tmp_path):
    """MindPet's TrainableParamsCheckPoint overrides ``_save_ckpt`` with MindSpore's internals: the flush-from-cache
    flag and step, ``_check_save_ckpt``, ``_manager``, and ``get_context("enable_ge")`` (False off Ascend's GE)."""
    from mindspore import context

    saved = []

    class OnlyTrainable(ms.ModelCheckpoint):
        def _save_ckpt(self, cb_params, force_to_save=False):
            if self._need_flush_from_cache:
                self._flush_from_cache(cb_params)
            if not self._check_save_ckpt(cb_params, force_to_save) or context.get_context("enable_ge"):
                return
            self._last_triggered_step = cb_params.cur_step_num
            net = cb_params.train_network
            assert net.parameter_layout_dict == {}
            name = str(tmp_path / f"{self._prefix}-{cb_params.cur_step_num}.ckpt")
            ms.save_checkpoint([{"name": p.name, "data": p} for p in net.trainable_params()], name)
            saved.append(name)

    class Cb:   # the cb_params a training loop hands over
        cur_step_num = 1
        train_network = nn.Dense(2, 2)

    cb = OnlyTrainable("only", str(tmp_path), ms.CheckpointConfig(save_checkpoint_steps=1))
    assert cb._need_flush_from_cache is True
    cb._save_ckpt(Cb())
    assert cb._need_flush_from_cache is False   # no parameter keeps a device cache: not looked at again
    assert [sorted(ms.load_checkpoint(f)) for f in saved] == [["bias", "weight"]]


def test_cell_parameter_layout_dict_is_a_dict_property():
    net = nn.Dense(2, 2)
    assert net.parameter_layout_dict == {}
    net.parameter_layout_dict = {"weight": [[1], [-1, -1]]}
    assert net.parameter_layout_dict == {"weight": [[1], [-1, -1]]}
    with pytest.raises(TypeError, match="'parameter_layout_dict' must be dict type"):
        net.parameter_layout_dict = 3
