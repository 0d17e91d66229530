"""Argument checks and CPU behaviour of the added callbacks, ``SummaryRecord`` and ``data_sink``, shared by
``make_train_more_fixture.py`` (real MindSpore 2.10) and ``test_train_more_callbacks.py`` (ours). Every case gets
a fresh temporary directory; results are JSON-able (errors as type name + message, with the directory replaced
by ``<DIR>``)."""
from __future__ import annotations

import os
import shutil
import signal

import numpy as np


def _with_env(name, value, fn):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        return fn()
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


def _cases(ms, d):
    t = ms.train
    out = {
        "ore|save_ckpt": lambda: t.OnRequestExit(save_ckpt=1, directory=d),
        "ore|save_mindir": lambda: t.OnRequestExit(save_mindir="x", directory=d),
        "ore|sigkill": lambda: t.OnRequestExit(sig=signal.SIGKILL, directory=d),
        "ore|sig_type": lambda: t.OnRequestExit(sig="a", directory=d),
        "ore|paths": lambda: [os.path.relpath(p, d) for p in
                              (lambda cb: (cb.train_name, cb.eval_name))(t.OnRequestExit(file_name="LeNet",
                                                                                          directory=d))],
        "bar|freq0": lambda: t.BackupAndRestore(d, save_freq=0),
        "bar|freq_str": lambda: t.BackupAndRestore(d, save_freq="x"),
        "bar|delete": lambda: t.BackupAndRestore(d, delete_checkpoint=1),
        "bar|dir_type": lambda: t.BackupAndRestore(1),
        "bar|file": lambda: os.path.relpath(t.BackupAndRestore(d, save_freq=2).backup_file, d),
        "tft|no_path": lambda: t.TrainFaultTolerance(),
        "tft|no_env": lambda: t.TrainFaultTolerance(ckpt_save_path=d),
        "tft|tre_only": lambda: _with_env("MS_ENABLE_TFT", "{TRE:1}",
                                          lambda: type(t.TrainFaultTolerance(ckpt_save_path=d)).__name__),
        "tft|tsp_only": lambda: _with_env("MS_ENABLE_TFT", "{TSP:1}", lambda: t.TrainFaultTolerance()),
        "tft|ttp": lambda: _with_env("MS_ENABLE_TFT", "{TTP:1}", lambda: t.TrainFaultTolerance(ckpt_save_path=d)),
        "tft|arf": lambda: _with_env("MS_ENABLE_TFT", "{ARF:1}", lambda: t.TrainFaultTolerance(ckpt_save_path=d)),
        "flops|ok": lambda: type(t.FlopsUtilizationCollector(10)).__name__,
        "flops|zero": lambda: t.FlopsUtilizationCollector(0),
        "flops|str": lambda: t.FlopsUtilizationCollector("a"),
        "flops|full_flops": lambda: t.FlopsUtilizationCollector(2, full_flops=1),
        "sc|freq0": lambda: t.SummaryCollector(d, collect_freq=0),
        "sc|freq_float": lambda: t.SummaryCollector(d, collect_freq=1.0),
        "sc|keys": lambda: t.SummaryCollector(d, collect_specified_data={"x": 1}),
        "sc|metric_type": lambda: t.SummaryCollector(d, collect_specified_data={"collect_metric": 1}),
        "sc|regex": lambda: t.SummaryCollector(d, collect_specified_data={"histogram_regular": "("}),
        "sc|keep": lambda: t.SummaryCollector(d, keep_default_action=1),
        "sc|lineage": lambda: t.SummaryCollector(d, custom_lineage_data={"a": [1]}),
        "sc|tensor_freq": lambda: t.SummaryCollector(d, collect_tensor_freq=0),
        "sc|max_size": lambda: t.SummaryCollector(d, max_file_size=-1),
        "sc|landscape_size": lambda: t.SummaryCollector(d, collect_specified_data={
            "collect_landscape": {"landscape_size": 2, "intervals": [[1, 2, 3]]}}),
        "sc|landscape_unit": lambda: t.SummaryCollector(d, collect_specified_data={
            "collect_landscape": {"unit": "day", "intervals": [[1, 2, 3]]}}),
        "sc|landscape_interval": lambda: t.SummaryCollector(d, collect_specified_data={
            "collect_landscape": {"intervals": [[1, 2]]}}),
        "sc|export": lambda: t.SummaryCollector(d, export_options={"x": None}),
        "sink|size_type": lambda: t.data_sink(lambda x: x, None, sink_size=1.0),
        "sink|size0": lambda: t.data_sink(lambda x: x, None, sink_size=0),
        "sink|cpu": lambda: t.data_sink(lambda x: x, None, sink_size=2),
    }
    return out


def _record_cases(ms, d):
    SummaryRecord = ms.train.SummaryRecord
    Tensor = ms.Tensor
    out = {
        "sr|prefix_type": lambda: SummaryRecord(d, file_prefix=1),
        "sr|prefix_bad": lambda: SummaryRecord(d, file_prefix="a b"),
        "sr|max_file_size": lambda: SummaryRecord(d, max_file_size="1"),
        "sr|raise_exception": lambda: SummaryRecord(d, raise_exception=1),
        "sr|log_dir": lambda: SummaryRecord(1),
        "sr|export": lambda: SummaryRecord(d, export_options={"x": None}),
        # (the message for an unsupported export format lists a set, in MindSpore in hash order: not recorded)
    }

    def with_record(fn):
        def run():
            rec = SummaryRecord(d)
            try:
                return fn(rec)
            finally:
                rec.close()
        return run

    out.update({
        "sr|second": with_record(lambda r: SummaryRecord(d)),
        "sr|empty_name": with_record(lambda r: r.add_value("scalar", "", Tensor(1.0))),
        "sr|not_tensor": with_record(lambda r: r.add_value("scalar", "a", 1.0)),
        "sr|scalar_rank": with_record(lambda r: r.add_value("scalar", "a", Tensor(np.ones(3)))),
        "sr|image_rank": with_record(lambda r: r.add_value("image", "a", Tensor(np.ones(3)))),
        "sr|tensor_rank": with_record(lambda r: r.add_value("tensor", "a", Tensor(1.0))),
        "sr|histogram_rank": with_record(lambda r: r.add_value("histogram", "a", Tensor(1.0))),
        "sr|plugin": with_record(lambda r: r.add_value("foo", "a", Tensor(1.0))),
        "sr|mode": with_record(lambda r: r.set_mode("x")),
        "sr|step_type": with_record(lambda r: r.record(1.0)),
        "sr|network_type": with_record(lambda r: r.record(1, train_network=1)),
        "sr|file_name": with_record(lambda r: os.path.basename(r.log_dir).split(".")[:4]),
        "sr|record_ok": with_record(lambda r: (r.add_value("scalar", "a", Tensor(1.0)), r.record(3))[1]),
    })

    def closed(kind):
        def run():
            rec = SummaryRecord(d)
            rec.close()
            return rec.record(2) if kind == "record" else rec.__enter__()
        return run
    out["sr|closed_record"] = closed("record")
    out["sr|closed_enter"] = closed("enter")
    return out


def run_all(ms, tmp_factory):
    import tempfile
    results = {}
    names = []
    for builder in (_cases, _record_cases):
        names.extend((builder, key) for key in builder(ms, "/unused"))
    for builder, key in names:
        d = tmp_factory() if tmp_factory else tempfile.mkdtemp()
        fn = builder(ms, d)[key]
        try:
            value = fn()
            results[key] = value if isinstance(value, (str, int, float, bool, list, type(None))) else repr(value)
        except Exception as e:  # noqa: BLE001 -- recorded
            results[key] = {"error": type(e).__name__, "message": str(e).replace(os.path.realpath(d), "<DIR>")
                            .replace(d, "<DIR>")}
        finally:
            if not tmp_factory:
                shutil.rmtree(d, ignore_errors=True)
    return results


def flops_cases(ms):
    """Model FLOPs FlopsUtilizationCollector finds for small networks trained one epoch in GRAPH_MODE."""
    import mindspore.dataset as ds
    from mindspore import nn
    from mindspore.train import FlopsUtilizationCollector, Model

    def conv_net():
        return nn.SequentialCell([nn.Conv2d(3, 4, 3, pad_mode="valid"), nn.ReLU(),
                                  nn.Conv2d(4, 2, 3, stride=2, pad_mode="same", has_bias=True), nn.Flatten(),
                                  nn.Dense(2 * 3 * 3, 5)])

    nets = {
        "dense": (lambda: nn.Dense(10, 5), (10,)),
        "mlp": (lambda: nn.SequentialCell([nn.Dense(10, 8), nn.ReLU(), nn.Dense(8, 5)]), (10,)),
        "conv": (conv_net, (3, 7, 7)),
    }
    out = {}
    old_mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        for name, (make, shape) in nets.items():
            rng = np.random.RandomState(0)
            data = {"x": rng.rand(64, *shape).astype(np.float32), "y": rng.randint(0, 5, (64,)).astype(np.int32)}
            dataset = ds.NumpySlicesDataset(data=data, shuffle=False).batch(32)
            net = make()
            model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                          nn.Momentum(net.trainable_params(), 0.01, 0.9))
            cb = FlopsUtilizationCollector(dataset.get_dataset_size(), computility=10e6)
            model.train(1, dataset, callbacks=[cb])
            out[name] = [cb.full_model_flops, cb.full_hardware_flops, cb.shard_model_flops, cb.shard_hardware_flops]
    finally:
        ms.set_context(mode=old_mode)
    return out


STRATEGY_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "api",
                             "train_more_strategy.ckpt")


def ckpt_strategy_cases(ms, set_rank):
    """``get_ckpt_path_with_strategy`` for each of 8 ranks over ``train_more_strategy.ckpt`` (written by
    mindspore-parallel's writer: parameters replicated along the left device axis, so ranks r and r +- 4 are
    replicas), with checkpoints present only for ranks 2 and 5; ``set_rank(r)`` makes ``r`` the current rank."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        return _ckpt_strategy_cases(ms, set_rank, d)


def _ckpt_strategy_cases(ms, set_rank, d):
    for r in (2, 5):
        os.makedirs(os.path.join(d, f"rank_{r}"))
        open(os.path.join(d, f"rank_{r}", "net.ckpt"), "wb").close()
    out = {}
    for r in range(8):
        set_rank(r)
        found = ms.get_ckpt_path_with_strategy(os.path.join(d, f"rank_{r}", "net.ckpt"), STRATEGY_FILE)
        out[str(r)] = None if found is None else os.path.relpath(found, d)
    set_rank(0)
    plain = os.path.join(d, "plain.ckpt")
    open(plain, "wb").close()
    out["no_rank_in_path"] = os.path.relpath(ms.get_ckpt_path_with_strategy(plain, STRATEGY_FILE), d)
    out["missing"] = ms.get_ckpt_path_with_strategy(os.path.join(d, "gone.ckpt"), STRATEGY_FILE)
    return out


STRATEGY_OPT_FILE = STRATEGY_FILE.replace("train_more_strategy", "train_more_strategy_opt")


def redundancy_case(get_parameter_redundancy):
    """Replica groups of ``train_more_strategy_opt.ckpt`` (a 3-axis device matrix, and optimizer sharding)."""
    return {k: [list(g) for g in v] for k, v in get_parameter_redundancy(STRATEGY_OPT_FILE, 0).items()}
