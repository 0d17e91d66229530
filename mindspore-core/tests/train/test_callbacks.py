"""Built-in callbacks: exact LossMonitor/TimeMonitor output, History, Lambda, LR schedules, EarlyStopping."""
import re

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.train import (Callback, EarlyStopping, History, LambdaCallback, LearningRateScheduler, LossMonitor,
                             Model, ReduceLROnPlateau, RunContext, TimeMonitor)
from mindspore.train.callback._callback import _InternalCallbackParam

pytestmark = pytest.mark.both_modes


def _model(mlp_factory, lr=0.1, metrics=None):
    net = mlp_factory()
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, opt, Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                           metrics=metrics)


class LossLog(Callback):
    def __init__(self):
        self.losses = []

    def on_train_step_end(self, ctx):
        self.losses.append(float(ctx.original_args().net_outputs.asnumpy()))


def test_loss_monitor_prints_mindspore_format_exactly(mlp_factory, dataset_factory, classification_data, capsys):
    x, y = classification_data
    _, _, model = _model(mlp_factory)
    log = LossLog()
    model.train(2, dataset_factory(x[:12], y[:12], batch_size=4), callbacks=[log, LossMonitor(2)])
    out = capsys.readouterr().out.splitlines()
    # per_print_times=2 over global steps 1..6: printed at steps 2, 4, 6
    assert out == [f"epoch: 1 step: 2, loss is {log.losses[1]}",
                   f"epoch: 2 step: 1, loss is {log.losses[3]}",
                   f"epoch: 2 step: 3, loss is {log.losses[5]}"]
    assert re.fullmatch(r"epoch: 1 step: 2, loss is \d+\.\d+", out[0])


def test_loss_monitor_with_tuple_output_and_nan_and_zero(capsys):
    cb_params = _InternalCallbackParam(cur_epoch_num=1, cur_step_num=1, batch_num=5,
                                       net_outputs=(ms.Tensor(np.float32(2.5)), ms.Tensor(False)))
    LossMonitor().step_end(RunContext(cb_params))
    assert capsys.readouterr().out == "epoch: 1 step: 1, loss is 2.5\n"
    cb_params.net_outputs = ms.Tensor(np.float32(np.nan))
    cb_params.cur_step_num = 7
    with pytest.raises(ValueError, match="In epoch: 1 step: 2, loss is NAN or INF"):
        LossMonitor().step_end(RunContext(cb_params))
    cb_params.net_outputs = ms.Tensor(np.float32(1.0))
    LossMonitor(0).step_end(RunContext(cb_params))
    assert capsys.readouterr().out == ""
    with pytest.raises(ValueError):
        LossMonitor(-1)


def test_time_monitor_format(mlp_factory, dataset_factory, classification_data, capsys):
    x, y = classification_data
    _, _, model = _model(mlp_factory)
    model.train(2, dataset_factory(x[:8], y[:8]), callbacks=[TimeMonitor(data_time=True)])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    pattern = r"Train epoch time: +\d+\.\d{3} ms, per step time: +\d+\.\d{3} ms \(data time: +\d+\.\d{3} ms\)"
    assert all(re.fullmatch(pattern, line) for line in lines)
    with pytest.raises(TypeError):
        TimeMonitor(data_time=1)


def test_history_records_outputs_and_fit_metrics(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, _, model = _model(mlp_factory, metrics={"acc"})
    history, log = History(), LossLog()
    model.fit(3, dataset_factory(x[:8], y[:8]), dataset_factory(x[8:16], y[8:16]), callbacks=[log, history])
    assert history.epoch == {"epoch": [1, 2, 3]}
    assert history.history["net_output"] == pytest.approx([log.losses[1], log.losses[3], log.losses[5]])
    assert len(history.history["acc"]) == 3


def test_lambda_callback_calls_only_given_stages(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, _, model = _model(mlp_factory)
    calls = []
    cb = LambdaCallback(on_train_begin=lambda ctx: calls.append("begin"),
                        on_train_epoch_end=lambda ctx: calls.append(ctx.original_args().cur_epoch_num))
    model.train(2, dataset_factory(x[:8], y[:8]), callbacks=cb)
    assert calls == ["begin", 1, 2]


def test_learning_rate_scheduler_sets_lr_after_each_step(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, opt, model = _model(mlp_factory, lr=0.1)
    seen = []

    def schedule(lr, step):
        seen.append((lr, step))
        return lr * 0.5 if step % 2 == 0 else lr

    model.train(1, dataset_factory(x[:16], y[:16]), callbacks=[LearningRateScheduler(schedule)])
    assert seen == [(0.1, 1), (0.1, 2), (0.05, 3), (0.05, 4)]
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.025)


def _ctx(values, train_network=None, optimizer=None):
    params = _InternalCallbackParam(cur_epoch_num=0, train_network=train_network, optimizer=optimizer)
    return params, RunContext(params)


def _drive(cb, values, key="eval_results", monitor="eval_loss", train_network=None, optimizer=None):
    """Feed ``values`` as consecutive epoch-end monitor values; return the epochs at which a stop was asked."""
    params, ctx = _ctx(values, train_network, optimizer)
    cb.on_train_begin(ctx)
    stops = []
    for epoch, value in enumerate(values, 1):
        params.cur_epoch_num = epoch
        params[key] = {monitor: value} if key == "eval_results" else value
        cb.on_train_epoch_end(ctx)
        if ctx.get_stop_requested():
            stops.append(epoch)
            break
    return stops


def test_early_stopping_counts_like_mindspore():
    assert _drive(EarlyStopping(), [1.0, 0.5]) == [1]  # patience=0 stops after the first epoch
    assert _drive(EarlyStopping(patience=2), [1.0, 0.9, 0.95, 0.96, 0.8]) == [4]
    assert _drive(EarlyStopping(patience=2, min_delta=0.2), [1.0, 0.9, 0.85]) == [3]
    assert _drive(EarlyStopping(monitor="acc", patience=1), [0.5, 0.6, 0.6], monitor="acc") == [3]
    assert _drive(EarlyStopping(monitor="acc", patience=1, mode="min"), [0.5, 0.6], monitor="acc") == [2]
    # improvements that do not beat the baseline do not reset the counter
    assert _drive(EarlyStopping(patience=2, baseline=0.5), [1.0, 0.9, 0.8]) == [2]
    with pytest.raises(ValueError, match="mode"):
        EarlyStopping(mode="up")


def test_early_stopping_on_training_loss_and_restore_best(mlp_factory, dataset_factory, classification_data,
                                                          capsys):
    net = mlp_factory()
    cb = EarlyStopping(monitor="loss", patience=1, restore_best_weights=True, verbose=True)
    params, ctx = _ctx(None, train_network=net)
    cb.on_train_begin(ctx)
    best = None
    for epoch, loss in enumerate([3.0, 1.0, 2.0], 1):
        params.cur_epoch_num = epoch
        params.net_outputs = ms.Tensor(np.float32(loss))
        if epoch == 2:
            best = net.fc1.weight.asnumpy().copy()
        cb.on_train_epoch_end(ctx)
        if ctx.get_stop_requested():
            break
        net.fc1.weight.set_data(ms.Tensor(net.fc1.weight.asnumpy() + 1.0))
    assert ctx.get_stop_requested() and cb.stopped_epoch == 3
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), best)
    cb.on_train_end(ctx)
    assert capsys.readouterr().out.splitlines() == ["Restoring model weights from the end of the best epoch.",
                                                     "Epoch 00003: early stopping"]


def test_early_stopping_stops_model_fit(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, _, model = _model(mlp_factory, lr=0.0, metrics={"acc"})
    history = History()
    model.fit(10, dataset_factory(x[:8], y[:8]), dataset_factory(x[8:16], y[8:16]),
              callbacks=[history, EarlyStopping(monitor="eval_loss", patience=2, min_delta=1e-4)])
    # lr 0: eval_loss never improves after epoch 1 (min_delta: on a GPU the evaluation graph is replayed as a CUDA
    # graph from its third call, whose matrix products may round differently in the last bits)
    assert history.epoch["epoch"] == [1, 2, 3]


def test_reduce_lr_on_plateau(mlp_factory):
    net = mlp_factory()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    cb = ReduceLROnPlateau(patience=1, factor=0.5, cooldown=1, min_lr=0.02)
    _drive(cb, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], train_network=net, optimizer=opt)
    # epoch 2: reduce to 0.05, cooldown; 3: cooldown; 4: reduce to 0.025; 5: cooldown; 6: reduce to max(0.0125, 0.02)
    assert float(opt.learning_rate.asnumpy()) == pytest.approx(0.02)
    lrs = []
    cb2 = ReduceLROnPlateau(monitor="loss", patience=0, factor=0.1, verbose=False)
    params, ctx = _ctx(None, train_network=net, optimizer=opt)
    cb2.on_train_begin(ctx)
    for loss in (1.0, 1.0):
        params.net_outputs = ms.Tensor(np.float32(loss))
        cb2.on_train_epoch_end(ctx)
        lrs.append(float(opt.learning_rate.asnumpy()))
    assert lrs == pytest.approx([0.02, 0.002])
    with pytest.raises(ValueError, match="factor"):
        ReduceLROnPlateau(factor=1.5)


def test_run_context_and_cb_params():
    ctx = RunContext({"cur_epoch_num": 4})
    assert ctx.original_args() == {"cur_epoch_num": 4}
    assert not ctx.get_stop_requested()
    ctx.request_stop()
    assert ctx.get_stop_requested()
    with pytest.raises(TypeError, match="dict"):
        RunContext([1])
    params = _InternalCallbackParam()
    params.batch_num = 3
    assert params["batch_num"] == 3 and params.batch_num == 3
    assert not hasattr(params, "missing")
