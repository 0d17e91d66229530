"""The added callbacks (OnRequestExit, BackupAndRestore, TrainFaultTolerance, FlopsUtilizationCollector,
SummaryCollector), SummaryRecord's argument checks and data_sink: messages and FLOP counts against real MindSpore
2.10 (``train_more_callbacks_msref.json``, from ``train_more_callback_cases.py``), behaviour in training runs."""
import glob
import json
import os
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops
from mindspore.train import (BackupAndRestore, Callback, FlopsUtilizationCollector, Model, OnRequestExit,
                             SummaryCollector, TrainFaultTolerance, data_sink)
from mindspore.train.summary._event_io import read_events

sys.path.insert(0, str(Path(__file__).parent))
import train_more_callback_cases  # noqa: E402

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "api" / "train_more_callbacks_msref.json"
REF = json.loads(FIX.read_text())["cases"]


@pytest.fixture(scope="module")
def ours():
    return train_more_callback_cases.run_all(ms, None)


@pytest.mark.parametrize("key", sorted(k for k in REF if k not in ("flops", "ckpt_strategy", "redundancy")))
def test_case_matches_mindspore(ours, key):
    expected = REF[key]
    target = ms.get_context("device_target")
    if key == "sink|cpu" and target in ("GPU", "Ascend"):
        pytest.skip("data sinking runs on this target")
    if target != "CPU" and isinstance(expected, dict) and "message" in expected:
        # recorded on CPU: the messages that name the device target name this one
        message = expected["message"].replace("device target is CPU.", f"device target is {target}.")
        expected = dict(expected, message=message.replace("got device CPU!", f"got device {target}!"))
    assert ours[key] == expected


def test_flops_match_mindspore(capsys):
    assert train_more_callback_cases.flops_cases(ms) == REF["flops"]
    printed = capsys.readouterr().out
    assert "Full model flops is 6400.000000000001, Full hardware flops is 6400.000000000001, Shard model flops is " \
           "6400.0, Shard hardware flops is 6400.0." in printed
    assert "Train per step time: " in printed and " mfu:" in printed and " hfu:" in printed


def _dataset(n=64, batch=16, seed=0):
    rng = np.random.RandomState(seed)
    data = {"x": rng.rand(n, 10).astype(np.float32), "y": rng.randint(0, 5, (n,)).astype(np.int32)}
    return ds.NumpySlicesDataset(data=data, shuffle=False).batch(batch)


def _model(net=None):
    net = net or nn.Dense(10, 5)
    return net, Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.01, 0.9))


def _weights(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def test_flops_collector_refuses_pynative_and_writes_ma_files(tmp_path, monkeypatch):
    _, model = _model()
    with pytest.raises(ValueError, match="FlopsUtilizationCollector now only support graph mode."):
        model.train(1, _dataset(), callbacks=[FlopsUtilizationCollector(4)])
    monkeypatch.setenv("MA_LOG_DIR", str(tmp_path))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _, model = _model()
        cb = FlopsUtilizationCollector(4, enable_ma_collector=True)   # computility 1 + ma: quiet
        model.train(1, _dataset(), callbacks=[cb])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert cb.full_model_flops == 2 * 16 * 10 * 5 * 2
    lines = (tmp_path / "flops_rank_0.txt").read_text().splitlines()
    assert lines[0].startswith('flops{type="model_flops", rank_id="0"} 3200.0 ')
    assert (tmp_path / "time_step_rank_0.txt").read_text().startswith('time_monitor{type="per_step_time"')


def test_backup_and_restore(tmp_path):
    net, model = _model()
    cb = BackupAndRestore(str(tmp_path), delete_checkpoint=False)
    model.train(2, _dataset(), callbacks=[cb])
    assert os.path.isfile(cb.backup_file)
    trained = _weights(net)
    fresh, model2 = _model()

    class Check(Callback):
        def on_train_begin(self, run_context):
            self.seen = _weights(fresh)

    check = Check()
    model2.train(1, _dataset(), callbacks=[BackupAndRestore(str(tmp_path)), check])
    for name, value in trained.items():   # restored before any later callback's train begin
        np.testing.assert_array_equal(check.seen[name], value)
    assert not os.path.exists(cb.backup_file)   # deleted at the end (delete_checkpoint=True)


def test_on_request_exit_signal_saves_and_resumes(tmp_path):
    class Kill(Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                os.kill(os.getpid(), signal.SIGUSR1)

    net, model = _model()
    seen = []

    class Count(Callback):
        def on_train_step_end(self, run_context):
            seen.append(run_context.original_args().cur_step_num)

    previous = signal.getsignal(signal.SIGUSR1)
    cb = OnRequestExit(file_name="Net", directory=str(tmp_path), sig=signal.SIGUSR1)
    model.train(3, _dataset(), callbacks=[Kill(), cb, Count()])
    assert seen == [1, 2]                      # the step in progress finished, then the run stopped
    assert signal.getsignal(signal.SIGUSR1) == previous
    assert os.path.isfile(cb.train_name + ".ckpt") and os.path.isfile(cb.train_name + ".mindir")
    saved = _weights(net)
    fresh, model2 = _model()

    class Check(Callback):
        def on_train_begin(self, run_context):
            self.seen = _weights(fresh)

    check = Check()
    model2.train(1, _dataset(n=16), callbacks=[OnRequestExit(directory=str(tmp_path), save_mindir=False), check])
    for name, value in saved.items():
        np.testing.assert_array_equal(check.seen[name], value)


@pytest.mark.parametrize("enabled", [True, False])
def test_on_request_exit_config_file(tmp_path, monkeypatch, enabled):
    """As MindSpore: the config file is read with MS_ENABLE_GRACEFUL_EXIT=1 only; the train cell then carries the
    request in 'graceful_exit'/'graceful_init' and the checkpoint saved at that step end holds the step's position."""
    if enabled:
        monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    else:
        monkeypatch.delenv("MS_ENABLE_GRACEFUL_EXIT", raising=False)
    config = tmp_path / "exit.json"
    config.write_text(json.dumps({"GracefulExit": 1}))
    _, model = _model()
    seen = []

    class Count(Callback):
        def on_train_step_end(self, run_context):
            seen.append(run_context.original_args().cur_step_num)

    cb = OnRequestExit(directory=str(tmp_path), config_file=str(config), save_mindir=False)
    model.train(2, _dataset(), callbacks=[cb, Count()])
    if not enabled:
        assert seen == [1, 2, 3, 4, 5, 6, 7, 8] and not os.path.exists(cb.train_name + ".ckpt")
        return
    assert seen == [1] and os.path.isfile(cb.train_name + ".ckpt")
    saved = ms.load_checkpoint(cb.train_name + ".ckpt")
    assert [int(saved[k].asnumpy()) for k in ("epoch_num", "step_num", "batch_num", "global_step")] == [1, 1, 4, 1]
    assert bool(saved["graceful_exit"].asnumpy()) and saved["graceful_init"].asnumpy().tolist() == [0]


def test_train_fault_tolerance_tre_only(tmp_path, monkeypatch):
    monkeypatch.setenv("MS_ENABLE_TFT", "{TRE:1}")
    cb = TrainFaultTolerance(ckpt_save_path=str(tmp_path))
    _, model = _model()
    model.train(1, _dataset(), callbacks=[cb])
    assert (cb.cur_step_num, cb.cur_epoch_num) == (4, 1)
    monkeypatch.setenv("MS_ENABLE_TFT", "{TRE:2}")
    with pytest.raises(RuntimeError, match="only supported on Ascend"):
        TrainFaultTolerance(ckpt_save_path=str(tmp_path))


class _SummaryNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(10, 5)
        self.scalar = ops.ScalarSummary()
        self.tensor = ops.TensorSummary()

    def construct(self, x):
        y = self.fc(x)
        self.scalar("ymean", y.mean())
        self.tensor("y", y)
        return y


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_summary_collector_training_run(tmp_path, mode):
    ms.set_context(mode=mode)
    try:
        net, model = _model(_SummaryNet())
        cb = SummaryCollector(str(tmp_path), collect_freq=2, collect_specified_data={
            "collect_landscape": {"intervals": [[1, 2, 3]], "unit": "step"}, "histogram_regular": "fc.weight"})
        model.train(2, _dataset(), callbacks=[cb])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    (path,) = glob.glob(str(tmp_path / "events.out.events.summary.*_MS"))
    events = read_events(path)
    steps = {e.step: sorted(v.tag for v in e.summary.value) for e in events if e.HasField("summary")}
    # first step, then every collect_freq steps (the tensor schedule coincides here)
    assert steps == {s: ["fc.weight/auto", "loss/auto", "y", "ymean"] for s in (1, 2, 4, 6, 8)}
    loss = [v.scalar_value for e in events for v in e.summary.value if v.tag == "loss/auto"]
    assert len(loss) == 5 and all(np.isfinite(loss))
    ckpts = sorted(os.path.basename(p) for p in glob.glob(str(tmp_path / "ckpt_dir" / "*.ckpt")))
    assert ckpts == [f"_SummaryNet_{i}_step.ckpt" for i in (1, 2, 3)]
    meta = json.loads((tmp_path / "ckpt_dir" / "train_metadata.json").read_text())
    assert meta["step_per_epoch"] == 4 and meta["unit"] == "step" and sorted(meta["model_params_file_map"]) == \
        ["1", "2", "3"]


def test_summary_collector_single_instance(tmp_path):
    # as in MindSpore 2.10: entering the second collector opens a second SummaryRecord, which is refused
    _, model = _model()
    with pytest.raises(RuntimeError, match="For 'SummaryRecord', only one instance is supported"):
        model.train(1, _dataset(), callbacks=[SummaryCollector(str(tmp_path / "a")),
                                              SummaryCollector(str(tmp_path / "b"))])
    _, model = _model()
    model.train(1, _dataset(), callbacks=[SummaryCollector(str(tmp_path / "c"))])   # the first one was closed


def test_data_sink_feeds_batches(monkeypatch):
    from mindspore import context
    real = context.get_context
    monkeypatch.setattr(context, "get_context", lambda key: "GPU" if key == "device_target" else real(key))
    dataset = _dataset(n=8, batch=2)
    seen = []
    sink = data_sink(lambda x, y: seen.append(x.asnumpy()[:, 0].copy()) or x.sum(), dataset, sink_size=3)
    out = sink()
    sink()
    expect = np.random.RandomState(0).rand(8, 10).astype(np.float32)
    np.testing.assert_array_equal(np.concatenate(seen), np.concatenate([expect[:, 0], expect[:4, 0]]))
    assert float(out.asnumpy()) == pytest.approx(float(expect[4:6].sum()), rel=1e-5)
    with pytest.raises(ValueError, match="The dataset has been used with network."):
        data_sink(lambda x, y: x, dataset)


def test_get_ckpt_path_with_strategy_matches_mindspore(monkeypatch):
    communication = pytest.importorskip("mindspore.communication")
    pytest.importorskip("mindspore.parallel._strategy_file")
    from mindspore.train import _ckpt_strategy

    def set_rank(r):
        monkeypatch.setattr(communication, "get_rank", lambda: r)
    assert ms.get_ckpt_path_with_strategy is ms.train.get_ckpt_path_with_strategy
    assert train_more_callback_cases.ckpt_strategy_cases(ms, set_rank) == REF["ckpt_strategy"]
    assert train_more_callback_cases.redundancy_case(_ckpt_strategy.parameter_redundancy) == REF["redundancy"]


def test_two_summary_records_in_one_second_keep_both_files(tmp_path, monkeypatch):
    """The file name holds the time in seconds: a record opened in the same directory within the second the last
    one was opened (a SummaryLandscape run right after training) must not truncate that one's file (it did: 'wb'
    on the same name)."""
    from mindspore.train import SummaryRecord
    from mindspore.train.summary import summary_record as sr
    monkeypatch.setattr(sr.time, "time", lambda: 1_700_000_000.5)
    for value in (1.5, 2.5):
        with SummaryRecord(str(tmp_path)) as record:
            record.add_value("scalar", "loss", ms.Tensor(value, ms.float32))
            record.record(1)
    files = sorted(glob.glob(str(tmp_path / "*.summary.*")))
    assert len(files) == 2 and ".1700000000." in files[0] and ".1700000001." in files[1]
    for path, value in zip(files, (1.5, 2.5)):
        values = [v.scalar_value for e in read_events(path) for v in e.summary.value]
        assert values == [value]
