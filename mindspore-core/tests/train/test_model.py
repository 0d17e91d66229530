"""Model.train / eval / predict / fit: loss goes down, callback order and cb_params, epochs, sink mode."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.train import Model
from mindspore.train.callback import Callback, LossMonitor

pytestmark = pytest.mark.both_modes


def _model(mlp_factory, metrics=None, lr=0.1, **kwargs):
    net = mlp_factory()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), lr, 0.9)
    return net, Model(net, loss, opt, metrics=metrics, **kwargs)


class Recorder(Callback):
    """Records every hook with the fields of cb_params that matter at that point."""

    def __init__(self):
        self.events = []

    def _rec(self, name, ctx):
        p = ctx.original_args()
        self.events.append((name, p.get("cur_epoch_num"), p.get("cur_step_num")))

    def on_train_begin(self, ctx):
        self._rec("train_begin", ctx)

    def on_train_epoch_begin(self, ctx):
        self._rec("epoch_begin", ctx)

    def on_train_step_begin(self, ctx):
        self._rec("step_begin", ctx)

    def on_train_step_end(self, ctx):
        self._rec("step_end", ctx)

    def on_train_epoch_end(self, ctx):
        self._rec("epoch_end", ctx)

    def on_train_end(self, ctx):
        self._rec("train_end", ctx)

    def on_eval_begin(self, ctx):
        self._rec("eval_begin", ctx)

    def on_eval_step_end(self, ctx):
        self._rec("eval_step_end", ctx)

    def on_eval_end(self, ctx):
        self._rec("eval_end", ctx)


def _mean_loss(net, x, y):
    logits = net(ms.Tensor(x)).asnumpy().astype(np.float64)
    logits -= logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(y)), y].mean()


def test_train_reduces_loss_and_updates_parameters(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    net, model = _model(mlp_factory, metrics={"acc", "loss"})
    before = _mean_loss(net, x, y)
    w0 = net.fc1.weight.asnumpy().copy()
    model.train(5, dataset_factory(x, y, batch_size=16))
    assert _mean_loss(net, x, y) < 0.5 * before
    assert not np.allclose(net.fc1.weight.asnumpy(), w0)
    result = model.eval(dataset_factory(x, y, batch_size=16))
    assert set(result) == {"acc", "loss"}
    assert type(result["acc"]) is float  # prints as MindSpore does: {'acc': 0.96875}
    assert result["acc"] > 0.9
    assert result["loss"] == pytest.approx(_mean_loss(net, x, y), rel=1e-5)


def test_train_sets_training_mode_and_eval_predict_unset_it(mlp_factory, dataset_factory, classification_data,
                                                             ms_mode):
    # construct's Python code runs at every call in PYNATIVE mode, once per compilation in GRAPH mode
    calls = 2 if ms_mode == "pynative" else 1
    x, y = classification_data

    class Seen(list):
        """(a list subclass: a graph copies plain lists it reads from outside, as MindSpore does)"""
    seen = Seen()

    class Probe(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = mlp_factory()

        def construct(self, data):
            seen.append(self.training)
            return self.body(data)

    net = Probe()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.1, 0.9), metrics={"acc"})
    model.train(1, dataset_factory(x[:8], y[:8]))
    assert seen == [True] * calls
    model.eval(dataset_factory(x[:8], y[:8]))
    assert seen[calls:] == [False] * calls
    out = model.predict(ms.Tensor(x[:3]))
    assert seen[-1] is False and out.shape == (3, 2)
    np.testing.assert_allclose(out.asnumpy(), net(ms.Tensor(x[:3])).asnumpy())


def test_callback_order_and_cb_params(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    rec = Recorder()
    checked = {}

    class Fields(Callback):
        def on_train_step_end(self, ctx):
            p = ctx.original_args()
            checked.update(epoch_num=p.epoch_num, batch_num=p.batch_num, mode=p.mode, sink=p.dataset_sink_mode,
                           out=type(p.net_outputs).__name__, has_net=p.train_network is model.train_network,
                           opt=p.optimizer, element=len(p.train_dataset_element), network=p.network,
                           callbacks=list(p.list_callback))

    fields = Fields()
    model.train(2, dataset_factory(x[:12], y[:12], batch_size=4), callbacks=[rec, fields])
    expected = [("train_begin", None, 0)]
    step = 0
    for epoch in (1, 2):
        expected.append(("epoch_begin", epoch, step))
        for _ in range(3):
            expected.append(("step_begin", epoch, step + 1))
            step += 1
            expected.append(("step_end", epoch, step))
        expected.append(("epoch_end", epoch, step))
    expected.append(("train_end", 2, 6))
    assert rec.events == expected
    assert checked == dict(epoch_num=2, batch_num=3, mode="train", sink=False, out="Tensor", has_net=True,
                           opt=model._optimizer, element=2, network=model.predict_network, callbacks=[rec, fields])


def test_legacy_hooks_are_called_through_on_methods(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    calls = []

    class Legacy(Callback):
        def begin(self, ctx):
            calls.append("begin")

        def epoch_end(self, ctx):
            calls.append("epoch_end")

        def step_end(self, ctx):
            calls.append("step_end")

        def end(self, ctx):
            calls.append("end")

    model.train(1, dataset_factory(x[:8], y[:8]), callbacks=Legacy())
    assert calls == ["begin", "step_end", "step_end", "epoch_end", "end"]
    with pytest.raises(ValueError, match="on_train"):
        model.fit(1, dataset_factory(x[:8], y[:8]), callbacks=[Legacy()])


def test_callbacks_are_entered_and_exited(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    log = []

    class Ctx(Callback):
        def __enter__(self):
            log.append("enter")
            return self

        def __exit__(self, *err):
            log.append(("exit", err[0]))

        def on_train_step_end(self, ctx):
            raise KeyError("boom")

    with pytest.raises(KeyError):
        model.train(1, dataset_factory(x[:8], y[:8]), callbacks=[Ctx()])
    assert log == ["enter", ("exit", KeyError)]
    with pytest.raises(TypeError, match="Callback"):
        model.train(1, dataset_factory(x[:8], y[:8]), callbacks=[object()])


def test_request_stop_ends_training_after_the_step(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    rec = Recorder()

    class StopAt(Callback):
        def on_train_step_end(self, ctx):
            if ctx.original_args().cur_step_num == 2:
                ctx.request_stop()

    model.train(3, dataset_factory(x[:16], y[:16]), callbacks=[rec, StopAt()])
    names = [e[0] for e in rec.events]
    assert names == ["train_begin", "epoch_begin", "step_begin", "step_end", "step_begin", "step_end", "epoch_end",
                     "train_end"]


def test_initial_epoch_and_epoch_counting(mlp_factory, dataset_factory, classification_data, capsys):
    x, y = classification_data
    _, model = _model(mlp_factory)
    data = dataset_factory(x[:8], y[:8])
    model.train(4, data, callbacks=[LossMonitor()], initial_epoch=2)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["epoch: 3 step: 1", "epoch: 3 step: 2", "epoch: 4 step: 1",
                                                      "epoch: 4 step: 2"]
    assert data.iterators == [2]  # one iterator for the two remaining epochs, as MindSpore
    with pytest.raises(ValueError, match="bigger than"):
        model.train(2, data, initial_epoch=2)
    with pytest.raises(ValueError, match="sink_size"):
        model.train(1, data, sink_size=0)
    with pytest.raises(ValueError, match="no valid data"):
        model.train(1, dataset_factory(x[:2], y[:2], batch_size=4))


@pytest.fixture
def device_sink(monkeypatch):
    """Sink mode as on a device target (GPU/Ascend): a CPU target does not sink, as in MindSpore."""
    import mindspore.train.model as model_module
    monkeypatch.setattr(model_module, "_sinks_to_device", lambda: True)


def test_sink_mode_on_cpu_trains_step_by_step_as_mindspore(mlp_factory, dataset_factory, classification_data,
                                                          graph_mode, monkeypatch):
    """MindSpore on CPU: 'The CPU cannot support dataset sink mode currently. So the training process will be performed
    with dataset not sink.' Every step's callbacks run (ModelCheckpoint saves per step, the fault-recovery page)."""
    import mindspore.train.model as model_module
    assert model_module._sinks_to_device() == (ms.get_context("device_target") != "CPU")
    monkeypatch.setattr(model_module, "_sinks_to_device", lambda: False)   # a CPU target (also under the GPU suite)
    x, y = classification_data
    _, model = _model(mlp_factory)
    rec = Recorder()
    data = dataset_factory(x[:12], y[:12], batch_size=4)
    model.train(2, data, callbacks=[rec], dataset_sink_mode=True)
    assert [e for e in rec.events if e[0] == "step_end"] == [
        ("step_end", 1, 1), ("step_end", 1, 2), ("step_end", 1, 3), ("step_end", 2, 4), ("step_end", 2, 5),
        ("step_end", 2, 6)]
    assert data.batches_served == 6


def test_sink_mode_runs_sink_size_steps_per_epoch(mlp_factory, dataset_factory, classification_data, ms_mode,
                                                  device_sink):
    x, y = classification_data
    _, model = _model(mlp_factory)
    rec = Recorder()
    data = dataset_factory(x[:12], y[:12], batch_size=4)  # 3 batches per dataset epoch
    model.train(3, data, callbacks=[rec], dataset_sink_mode=True, sink_size=2)
    steps = [e for e in rec.events if e[0] == "step_end"]
    if ms_mode == "graph":  # one step callback per sink, as MindSpore's graph mode reports them
        assert steps == [("step_end", 1, 2), ("step_end", 2, 4), ("step_end", 3, 6)]
    else:
        assert steps == [("step_end", 1, 1), ("step_end", 1, 2), ("step_end", 2, 3), ("step_end", 2, 4),
                         ("step_end", 3, 5), ("step_end", 3, 6)]
    assert data.batches_served == 6  # the stream ran on into the dataset's second epoch
    assert data.iterators == [2]  # ceil(3 * 2 / 3) dataset epochs requested


def test_sink_mode_in_graph_mode_calls_step_hooks_once_per_sink(mlp_factory, dataset_factory, classification_data,
                                                                 graph_mode, capsys, device_sink):
    x, y = classification_data
    _, model = _model(mlp_factory)
    rec = Recorder()
    data = dataset_factory(x[:16], y[:16], batch_size=4)
    model.train(2, data, callbacks=[rec, LossMonitor()], dataset_sink_mode=True)
    assert [e for e in rec.events if e[0].startswith("step")] == [
        ("step_begin", 1, 4), ("step_end", 1, 4), ("step_begin", 2, 8), ("step_end", 2, 8)]
    assert data.batches_served == 8
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["epoch: 1 step: 4", "epoch: 2 step: 4"]


def test_loss_fn_needs_two_columns_and_network_without_loss_takes_all(mlp_factory, dataset_factory,
                                                                      classification_data):
    x, y = classification_data
    _, model = _model(mlp_factory)
    with pytest.raises(ValueError, match="two elements"):
        model.train(1, dataset_factory(x[:8], y[:8], y[:8]))

    net = mlp_factory()
    with_loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    model = Model(with_loss, optimizer=nn.Momentum(net.trainable_params(), 0.1, 0.9))
    w0 = net.fc2.weight.asnumpy().copy()
    model.train(1, dataset_factory(x[:8], y[:8]))
    assert not np.allclose(net.fc2.weight.asnumpy(), w0)


def test_eval_network_with_indexes_and_without(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    net = mlp_factory()

    class EvalNet(nn.Cell):
        def __init__(self, backbone):
            super().__init__(auto_prefix=False)
            self.backbone = backbone

        def construct(self, data, label):
            return label, self.backbone(data), ms.ops.ones((), ms.float32)

    model = Model(net, eval_network=EvalNet(net), eval_indexes=[2, 1, 0], metrics={"acc", "loss"})
    result = model.eval(dataset_factory(x, y, batch_size=16))
    logits = net(ms.Tensor(x)).asnumpy()
    assert result["acc"] == np.mean(logits.argmax(1) == y)
    assert result["loss"] == 1.0
    acc = ms.train.Accuracy().set_indexes([1, 0])
    model = Model(net, eval_network=EvalNet(net), metrics={"acc": acc})
    assert model.eval(dataset_factory(x, y, batch_size=16))["acc"] == np.mean(logits.argmax(1) == y)
    with pytest.raises(ValueError, match="eval_indexes"):
        Model(net, eval_network=EvalNet(net), eval_indexes=[0, 1], metrics={"acc"})
    # fit with an eval network but no indexes: metrics are reported, there is no eval_loss to add
    results = []

    class Results(Callback):
        def on_train_epoch_end(self, ctx):
            results.append(dict(ctx.original_args().eval_results))

    acc = ms.train.Accuracy().set_indexes([1, 0])
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.0, 0.9), eval_network=EvalNet(net), metrics={"acc": acc})
    model.fit(1, dataset_factory(x[:8], y[:8]), dataset_factory(x, y, batch_size=16), callbacks=Results())
    assert results == [{"acc": float(np.mean(logits.argmax(1) == y))}]


def test_constructor_and_eval_errors(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    net = mlp_factory()
    with pytest.raises(ValueError, match="eval_network"):
        Model(net, metrics={"acc"})
    with pytest.raises(ValueError, match="kwargs"):
        Model(net, nonsense=1)
    with pytest.raises(ValueError, match="optimizer"):
        Model(net, amp_level="O2")
    with pytest.raises(ValueError, match="metrics"):
        Model(net).eval(dataset_factory(x, y))
    with pytest.raises(TypeError, match="Cell"):
        Model(lambda data: data)
    with pytest.raises(TypeError):
        Model(net).predict([object()])


def test_fit_evaluates_each_valid_frequency_epoch(mlp_factory, dataset_factory, classification_data, capsys):
    x, y = classification_data
    _, model = _model(mlp_factory, metrics={"acc"})
    rec = Recorder()
    seen = []

    class EvalResults(Callback):
        def on_train_epoch_end(self, ctx):
            p = ctx.original_args()
            seen.append((p.cur_epoch_num, sorted(p.get("eval_results", {})), p.mode, p.cur_step_num))

    model.fit(4, dataset_factory(x[:16], y[:16]), dataset_factory(x[16:32], y[16:32]), valid_frequency=2,
              callbacks=[rec, EvalResults(), LossMonitor(100)])
    assert seen == [(1, [], "train", 4), (2, ["acc", "eval_loss"], "train", 8), (3, [], "train", 12),
                    (4, ["acc", "eval_loss"], "train", 16)]
    evals = [e for e in rec.events if e[0].startswith("eval")]
    assert [e[0] for e in evals] == ["eval_begin"] + ["eval_step_end"] * 4 + ["eval_end"] + \
        ["eval_begin"] + ["eval_step_end"] * 4 + ["eval_end"]
    out = capsys.readouterr().out
    assert out.count("Eval result: epoch 2, metrics: {'acc': ") == 1
    assert out.count("Eval result: epoch 4") == 1
    with pytest.raises(TypeError, match="valid_frequency"):
        model.fit(1, dataset_factory(x[:8], y[:8]), valid_frequency=1.5)


def test_progress_bar_forced_on_shows_tqdm_and_keeps_prints(mlp_factory, dataset_factory, classification_data,
                                                           capsys, monkeypatch):
    x, y = classification_data
    _, model = _model(mlp_factory)
    model.train(2, dataset_factory(x[:8], y[:8]), callbacks=[LossMonitor()], progress_bar=True)
    captured = capsys.readouterr()
    text = captured.out
    assert "Epoch 1/2" in text and "Epoch 2/2" in text and "2/2" in text and "loss=" in text
    assert "epoch: 2 step: 2, loss is " in text
    monkeypatch.setenv("MS_PROGRESS_BAR", "1")
    model.train(1, dataset_factory(x[:8], y[:8]))
    assert "Epoch 1/1" in capsys.readouterr().out
    monkeypatch.setenv("MS_PROGRESS_BAR", "0")
    model.train(1, dataset_factory(x[:8], y[:8]))
    assert capsys.readouterr().out == ""
    monkeypatch.delenv("MS_PROGRESS_BAR")
    model.train(1, dataset_factory(x[:8], y[:8]))  # captured stdout is not a terminal: quiet
    assert capsys.readouterr().out == ""
    import sys
    assert type(sys.stdout).__name__ != "_LineWriter"  # stdout is restored after a run with a bar


def test_real_mindspore_dataset_when_installed(mlp_factory, classification_data):
    ds = pytest.importorskip("mindspore.dataset")
    if not hasattr(ds, "NumpySlicesDataset"):
        pytest.skip("mindspore.dataset has no NumpySlicesDataset yet")
    x, y = classification_data
    net, model = _model(mlp_factory, metrics={"accuracy"})
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(16)
    before = _mean_loss(net, x, y)
    model.train(3, data)
    assert _mean_loss(net, x, y) < before
    assert model.eval(data)["accuracy"] > 0.8
