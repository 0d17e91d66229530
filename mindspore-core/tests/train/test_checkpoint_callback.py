"""ModelCheckpoint / CheckpointConfig: file names, save policy, keep_checkpoint_max, prefix collisions."""
import os

import numpy as np
import pytest

from mindspore import nn
from mindspore.train import Callback, CheckpointConfig, Model, ModelCheckpoint, load_checkpoint

pytestmark = pytest.mark.both_modes


def _model(mlp_factory):
    net = mlp_factory()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)


def _ckpts(directory):
    return sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))


def test_saves_every_n_steps_with_mindspore_names(tmp_path, mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    net, model = _model(mlp_factory)
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=10)
    cb = ModelCheckpoint(prefix="mlp", directory=str(tmp_path), config=config)
    model.train(2, dataset_factory(x[:12], y[:12]), callbacks=[cb])
    # 3 steps per epoch; global steps 2, 4, 6 -> epoch/step-in-epoch 1_2, 2_1, 2_3 (the end save is step 6 again)
    assert _ckpts(tmp_path) == ["mlp-1_2.ckpt", "mlp-2_1.ckpt", "mlp-2_3.ckpt"]
    assert not any(f.endswith(".meta") for f in os.listdir(tmp_path))
    assert cb.latest_ckpt_file_name == os.path.join(str(tmp_path), "mlp-2_3.ckpt")
    saved = load_checkpoint(cb.latest_ckpt_file_name)
    np.testing.assert_array_equal(saved["fc1.weight"].asnumpy(), net.fc1.weight.asnumpy())
    assert "moments.fc1.weight" in saved and "learning_rate" in saved  # the optimizer state is saved too


def test_final_save_at_train_end_when_not_on_a_save_step(tmp_path, mlp_factory, dataset_factory,
                                                          classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    cb = ModelCheckpoint(directory=str(tmp_path), config=CheckpointConfig(save_checkpoint_steps=4))
    model.train(1, dataset_factory(x[:20], y[:20]), callbacks=cb)
    assert _ckpts(tmp_path) == ["CKP-1_4.ckpt", "CKP-1_5.ckpt"]


def test_keep_checkpoint_max_removes_oldest(tmp_path, mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    order = []

    class Spy(Callback):
        def on_train_step_end(self, ctx):
            order.append(_ckpts(tmp_path))

    cb = ModelCheckpoint(prefix="k", directory=str(tmp_path),
                         config=CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2))
    model.train(3, dataset_factory(x[:8], y[:8]), callbacks=[cb, Spy()])
    assert _ckpts(tmp_path) == ["k-3_1.ckpt", "k-3_2.ckpt"]
    assert all(len(files) <= 2 for files in order)


def test_prefix_collision_gets_numbered_suffix(tmp_path, mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=1)
    model.train(1, dataset_factory(x[:8], y[:8]), callbacks=ModelCheckpoint("net", str(tmp_path), config))
    model.train(1, dataset_factory(x[:8], y[:8]), callbacks=ModelCheckpoint("net", str(tmp_path), config))
    model.train(1, dataset_factory(x[:8], y[:8]), callbacks=ModelCheckpoint("net", str(tmp_path), config))
    assert _ckpts(tmp_path) == ["net-1_2.ckpt", "net_1-1_2.ckpt", "net_2-1_2.ckpt"]


def test_default_directory_is_cwd_and_append_info(tmp_path, monkeypatch, mlp_factory, dataset_factory,
                                                  classification_data):
    x, y = classification_data
    monkeypatch.chdir(tmp_path)
    _, model = _model(mlp_factory)
    config = CheckpointConfig(save_checkpoint_steps=2, append_info=["epoch_num", "step_num", {"lr": 0.5}])
    model.train(2, dataset_factory(x[:8], y[:8]), callbacks=ModelCheckpoint(config=config))
    assert _ckpts(tmp_path) == ["CKP-1_2.ckpt", "CKP-2_2.ckpt"]
    saved = load_checkpoint(str(tmp_path / "CKP-2_2.ckpt"))
    assert int(saved["epoch_num"].asnumpy()) == 2
    assert int(saved["step_num"].asnumpy()) == 4
    assert float(saved["lr"].asnumpy()) == pytest.approx(0.5)


def test_saved_network_and_safetensors_format(tmp_path, mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    net, model = _model(mlp_factory)
    config = CheckpointConfig(save_checkpoint_steps=2, saved_network=net, format="safetensors")
    model.train(1, dataset_factory(x[:8], y[:8]), callbacks=ModelCheckpoint("st", str(tmp_path), config))
    assert sorted(os.listdir(tmp_path)) == ["st-1_2.safetensors"]
    saved = load_checkpoint(str(tmp_path / "st-1_2.safetensors"), format="safetensors")
    assert sorted(saved) == sorted(p.name for p in net.get_parameters())


def test_exception_save_writes_breakpoint(tmp_path, mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)

    class Fail(Callback):
        def on_train_step_end(self, ctx):
            if ctx.original_args().cur_step_num == 3:
                raise RuntimeError("stop here")

    config = CheckpointConfig(save_checkpoint_steps=10, exception_save=True)
    with pytest.raises(RuntimeError, match="stop here"):
        model.train(2, dataset_factory(x[:8], y[:8]), callbacks=[ModelCheckpoint("b", str(tmp_path), config),
                                                                   Fail()])
    assert _ckpts(tmp_path) == ["b-2_1_breakpoint.ckpt"]


def test_config_validation_and_policy():
    config = CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=30, keep_checkpoint_max=0,
                              keep_checkpoint_per_n_minutes=5)
    assert config.get_checkpoint_policy() == {"save_checkpoint_steps": 0, "save_checkpoint_seconds": 30,
                                              "keep_checkpoint_max": 0, "keep_checkpoint_per_n_minutes": 5,
                                              "saved_network": None}
    assert CheckpointConfig(save_checkpoint_steps=5, save_checkpoint_seconds=30).save_checkpoint_seconds is None
    assert CheckpointConfig(keep_checkpoint_max=0).keep_checkpoint_max == 1
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(0, 0, 0, 0)
    with pytest.raises(ValueError):
        CheckpointConfig(save_checkpoint_steps=-1)
    with pytest.raises(TypeError, match="saved_network"):
        CheckpointConfig(saved_network=1)
    with pytest.raises(ValueError, match="append_info"):
        CheckpointConfig(append_info=["epochs"])
    with pytest.raises(TypeError, match="only one dict"):
        CheckpointConfig(append_info=[{"a": 1}, {"b": 2}])
    with pytest.raises(ValueError, match="prefix"):
        ModelCheckpoint(prefix="a/b")
    with pytest.raises(TypeError, match="CheckpointConfig"):
        ModelCheckpoint(config={"save_checkpoint_steps": 1})
