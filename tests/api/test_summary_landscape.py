"""SummaryLandscape: loss landscapes from SummaryCollector's checkpoints, written into a summary file.

Grid values are checked against a NumPy evaluation of the loss at the perturbed weights, and the PCA landscape of a
fixed trajectory against the one real MindSpore 2.10 computed (``tests/fixtures/train/make_landscape_2_10.py``);
argument errors against 2.10's messages.
"""
import ast
import builtins
import glob
import json
import os
from pathlib import Path

import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.train import Loss, Model, SummaryCollector, SummaryLandscape
from mindspore.train.summary._event_io import read_events

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "train"
REF = np.load(FIXTURES / "landscape_2.10.npz")
X, Y = REF["X"], REF["Y"]


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 1)

    def construct(self, x):
        return self.fc(x)


def _data():
    return ds.NumpySlicesDataset((X, Y), ["x", "y"], shuffle=False).batch(4)


def _callback_fn():
    net = _Net()
    metrics = {"Loss": Loss()}
    return Model(net, nn.MSELoss(), metrics=metrics), net, _data(), metrics


def _np_loss(weight, bias):
    # two batches of four: the Loss metric's mean of batch means is the mean over all eight samples
    return float(np.mean((X @ weight.reshape(1, 3).T + bias - Y) ** 2))


def _landscapes(summary_dir):
    found = {}
    for path in glob.glob(os.path.join(summary_dir, "events.out.events.summary.*")):
        for event in read_events(path):
            for value in event.summary.value:
                if value.HasField("loss_landscape"):
                    found[value.tag] = value.loss_landscape
    return found


def _arr(tensor):
    return np.array(tensor.float_data, np.float64).reshape(tuple(tensor.dims))


def _filter_normalized(direction, params):
    # Li et al. 2018: every parameter's block of the direction rescaled to that parameter's norm
    out, start = [], 0
    for p in params:
        block = direction[start:start + p.size]
        out.append(block * np.linalg.norm(p) / np.linalg.norm(block))
        start += p.size
    return np.concatenate(out)


def _pca_oracle(trajectory):
    diffs = (trajectory[:-1] - trajectory[-1]).T
    diffs = diffs - diffs.mean(axis=0)
    u, s, _ = np.linalg.svd(diffs, full_matrices=False)
    u = u * np.sign(u[np.abs(u).argmax(axis=0), range(u.shape[1])]) * s
    return u[:, 0], u[:, 1]


def _train(summary_dir, landscape):
    net = _Net()
    net.fc.weight.set_data(ms.Tensor(np.array([[0.2, -0.1, 0.4]], np.float32)))
    net.fc.bias.set_data(ms.Tensor(np.array([0.05], np.float32)))
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    model.train(2, _data(), callbacks=[SummaryCollector(summary_dir, collect_specified_data={
        "collect_landscape": landscape})], dataset_sink_mode=False)


def _final_and_trajectory(summary_dir, steps):
    meta = json.loads(Path(summary_dir, "ckpt_dir", "train_metadata.json").read_text())
    params = [ms.load_checkpoint(meta["model_params_file_map"][str(s)]) for s in steps]
    flat = [(p["fc.weight"].asnumpy().ravel(), p["fc.bias"].asnumpy().ravel()) for p in params]
    return flat[-1], np.vstack([np.concatenate(f) for f in flat])


def test_end_to_end_grids_match_numpy(tmp_path, monkeypatch):
    summary_dir = str(tmp_path)
    _train(summary_dir, {"landscape_size": 4, "unit": "step", "num_samples": 8,
                         "create_landscape": {"train": True, "result": True}, "intervals": [[1, 2, 3, 4]]})
    draws = []
    real_normal = np.random.normal

    def recording_normal(*args, **kwargs):
        out = real_normal(*args, **kwargs)
        if kwargs.get("size") == 4:
            draws.append(out)
        return out
    monkeypatch.setattr(np.random, "normal", recording_normal)
    # a separate output directory: a summary file opened in the same second as the training's would get its name
    out_dir = str(tmp_path / "landscape")
    SummaryLandscape(summary_dir).gen_landscapes_with_multi_process(_callback_fn, device_ids=[0], output=out_dir)
    found = _landscapes(out_dir)
    assert sorted(found) == ["landscape_[1, 4]", "landscape_[4]"]
    (w_final, b_final), trajectory = _final_and_trajectory(summary_dir, [1, 2, 3, 4])
    parts = [w_final, b_final]

    # train landscape: PCA directions of the trajectory
    pca = found["landscape_[1, 4]"]
    assert (pca.metadata.decomposition, pca.metadata.unit, pca.metadata.step_per_epoch) == ("PCA", "step", 2)
    v, w = (_filter_normalized(d, parts) for d in _pca_oracle(trajectory))
    coefs = np.linalg.lstsq(np.vstack([v, w]).T, (trajectory - trajectory[-1]).T, rcond=None)[0].T
    np.testing.assert_allclose(_arr(pca.loss_path.points.x), coefs[:, 0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(_arr(pca.loss_path.points.y), coefs[:, 1], rtol=1e-5, atol=1e-6)
    assert list(pca.loss_path.intervals) == [1, 2, 3, 4]
    xs, ys, z = _arr(pca.landscape.x), _arr(pca.landscape.y), _arr(pca.landscape.z)
    span = coefs[:, 0].max() - coefs[:, 0].min()
    np.testing.assert_allclose(xs, np.linspace(coefs[:, 0].min() - 0.2 * span, coefs[:, 0].max() + 0.2 * span, 4),
                               rtol=1e-5, atol=1e-6)
    assert z.shape == (4, 4)
    final = trajectory[-1]
    expect = [[_np_loss(*np.split(final + x * v + y * w, [3])) for x in xs] for y in ys]
    np.testing.assert_allclose(z, expect, rtol=1e-4)
    path = [_np_loss(*np.split(final + a * v + b * w, [3])) for a, b in coefs]
    np.testing.assert_allclose(_arr(pca.loss_path.points.z), path, rtol=1e-4)
    np.testing.assert_allclose(_arr(pca.convergence_point.z), [_np_loss(w_final, b_final)], rtol=1e-5)

    # result landscape: two standard normal draws, filter normalised, on [-1, 1]^2
    rnd = found["landscape_[4]"]
    assert rnd.metadata.decomposition == "Random" and not rnd.HasField("loss_path")
    assert len(draws) == 2
    v, w = (_filter_normalized(d, parts) for d in draws)
    xs, ys, z = _arr(rnd.landscape.x), _arr(rnd.landscape.y), _arr(rnd.landscape.z)
    np.testing.assert_allclose(xs, np.linspace(-1, 1, 4), rtol=1e-6)
    np.testing.assert_allclose(ys, np.linspace(-1, 1, 4), rtol=1e-6)
    expect = [[_np_loss(*np.split(final + x * v + y * w, [3])) for x in xs] for y in ys]
    np.testing.assert_allclose(z, expect, rtol=1e-4)
    np.testing.assert_allclose(_arr(rnd.convergence_point.z), [expect[2][2]], rtol=1e-6)


def _fixture_run(summary_dir):
    """The 2.10 fixture's checkpoints and metadata, as SummaryCollector leaves them."""
    ckpt_dir = Path(summary_dir, "ckpt_dir")
    ckpt_dir.mkdir(parents=True)
    files = {}
    for step in (1, 2, 3, 4):
        path = str(ckpt_dir / f"_Net_{step}_step.ckpt")
        ms.save_checkpoint([{"name": name, "data": ms.Tensor(REF[f"step{step}/{name}"])}
                            for name in ("fc.weight", "fc.bias")], path)
        files[str(step)] = path
    meta = {"epoch_group": {"0": [1, 2, 3, 4]}, "model_params_file_map": files, "step_per_epoch": 2,
            "unit": "step", "num_samples": 8, "landscape_size": 5,
            "create_landscape": {"train": True, "result": False}}
    (ckpt_dir / "train_metadata.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("device_ids", [[0], [0, 1]])
def test_pca_landscape_matches_mindspore(tmp_path, device_ids):
    # [0, 1]: the rows are computed in a pool of two worker processes
    _fixture_run(str(tmp_path))
    SummaryLandscape(str(tmp_path)).gen_landscapes_with_multi_process(_callback_fn, device_ids=device_ids)
    (tag, msg), = _landscapes(str(tmp_path)).items()
    assert tag == str(REF["tag"])
    assert msg.metadata.decomposition == str(REF["decomposition"]) and msg.metadata.unit == str(REF["unit"])
    assert list(msg.loss_path.intervals) == list(REF["intervals"])
    for part, point in (("grid", msg.landscape), ("path", msg.loss_path.points), ("convergence", msg.convergence_point)):
        for axis in "xyz":
            tensor = getattr(point, axis)
            assert tensor.data_type == int(REF[f"{part}_{axis}_dtype"]), (part, axis)
            np.testing.assert_allclose(_arr(tensor), REF[f"{part}_{axis}"], rtol=2e-5, atol=1e-7,
                                       err_msg=f"{part}_{axis}")


def test_collect_landscape_overrides_metadata(tmp_path):
    _fixture_run(str(tmp_path))
    SummaryLandscape(str(tmp_path)).gen_landscapes_with_multi_process(
        _callback_fn, collect_landscape={"landscape_size": 3, "intervals": [[2, 3, 4]]}, device_ids=[0])
    (tag, msg), = _landscapes(str(tmp_path)).items()
    assert tag == "landscape_[2, 4]" and list(msg.landscape.z.dims) == [3, 3]
    meta = json.loads(Path(tmp_path, "ckpt_dir", "train_metadata.json").read_text())
    assert meta["landscape_size"] == 3 and meta["epoch_group"] == {"0": [2, 3, 4]}


def test_output_dir_and_clean_ckpt(tmp_path):
    _fixture_run(str(tmp_path / "run"))
    landscape = SummaryLandscape(str(tmp_path / "run"))
    landscape.gen_landscapes_with_multi_process(_callback_fn, device_ids=[0], output=str(tmp_path / "out"))
    assert list(_landscapes(str(tmp_path / "out"))) == [str(REF["tag"])]
    landscape.clean_ckpt()
    assert not (tmp_path / "run" / "ckpt_dir").exists()


ERRORS = json.loads((FIXTURES / "landscape_errors_2.10.json").read_text())


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_errors_match_mindspore(tmp_path, case):
    kwargs = _error_cases()[case]
    kind, message = ERRORS[case]
    root = os.path.realpath(str(tmp_path))
    with pytest.raises(getattr(builtins, kind)) as info:
        SummaryLandscape(root).gen_landscapes_with_multi_process(_callback_fn, **kwargs)
    if case != "device_ids_none":      # 2.10 fails on len(None) there; ours says a list is expected
        assert str(info.value).replace(root, "<dir>") == message


def _error_cases():
    # the cases are data in the fixture script; read them without running it (it imports MindSpore 2.10's names)
    tree = ast.parse((FIXTURES / "make_landscape_2_10.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "ERROR_CASES":
            return ast.literal_eval(node.value)
    raise AssertionError("ERROR_CASES not found in the fixture script")
