"""``mindspore.boost`` against real MindSpore 2.10 (the scenarios of ``make_boost_fixture.py``, run here on ours),
plus what MindSpore 2.10 cannot run on a CPU (its loss-scaled boost step and its accumulation config), checked
against the plain ``mindspore.nn`` cells they must agree with."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import boost, nn, ops

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import make_boost_fixture as scenarios  # noqa: E402

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "boost_msref.npz")


@pytest.fixture(autouse=True)
def fresh_autoboost():
    boost.AutoBoost._reset()
    yield
    boost.AutoBoost._reset()


@pytest.mark.parametrize("name", scenarios.SCENARIOS)
def test_scenario_matches_mindspore(name):
    got = scenarios.run(name, ms, nn, boost)
    for key, value in got.items():
        want = FIXTURE[f"{name}__{key}"]
        assert np.asarray(value).shape == want.shape, key
        np.testing.assert_allclose(np.asarray(value, dtype=np.float64), want.astype(np.float64), rtol=2e-5,
                                   atol=2e-6, err_msg=key)


def test_loss_scaled_boost_step_is_the_loss_scaled_train_step():
    def run(cls):
        net = scenarios._net(ms, nn)
        manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=2)
        step = cls(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.05), manager)
        outs = [step(ms.Tensor(scenarios.X), ms.Tensor(scenarios.Y)) for _ in range(4)]
        return [(float(o[0].asnumpy()), bool(o[1].asnumpy()), float(o[2].asnumpy())) for o in outs], \
            scenarios._params(net)
    boost.AutoBoost("O0")
    got, got_params = run(boost.BoostTrainOneStepWithLossScaleCell)
    want, want_params = run(nn.TrainOneStepWithLossScaleCell)
    assert [v for row in got for v in row] == pytest.approx([v for row in want for v in row])
    assert [s for _, _, s in got] == [1024.0, 2048.0, 2048.0, 4096.0]
    np.testing.assert_allclose(got_params, want_params, rtol=1e-6)
    with pytest.raises(TypeError, match="must be Cell or Tensor"):
        boost.BoostTrainOneStepWithLossScaleCell(nn.WithLossCell(scenarios._net(ms, nn), nn.MSELoss()),
                                                 nn.SGD(scenarios._net(ms, nn).trainable_params(), 0.1), 3)


def test_accumulation_config_updates_every_second_step_with_the_mean_gradient():
    boost.AutoBoost("O0", {"boost": {"mode": "manual", "grad_accumulation": True},
                           "grad_accumulation": {"grad_accumulation_step": 2}})
    net = scenarios._net(ms, nn)
    step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    assert step.use_grad_accumulation and step.max_accumulation_step == 2
    x, y = ms.Tensor(scenarios.X), ms.Tensor(scenarios.Y)
    before = scenarios._params(net)
    step(x, y)
    np.testing.assert_array_equal(scenarios._params(net), before)   # accumulated, not applied
    ref = scenarios._net(ms, nn)
    grads = ms.value_and_grad(nn.WithLossCell(ref, nn.MSELoss()), None, ref.trainable_params())(x, y)[1]
    step(x, y)
    np.testing.assert_allclose(scenarios._params(net),
                               before - 0.1 * np.concatenate([g.asnumpy().ravel() for g in grads]), rtol=1e-5)


def test_boost_step_without_sens_returns_the_loss():
    # MindSpore 2.10 returns None here (its _no_sens_impl forgets to return): we return the loss
    boost.AutoBoost("O0")
    net = scenarios._net(ms, nn)
    step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(),
                                                                                        0.05, 0.9))
    losses = scenarios._train(ms, nn, step)
    np.testing.assert_allclose(losses, FIXTURE["plain_step__losses"], rtol=2e-5)


def test_autoboost_configuration():
    ab = boost.AutoBoost("O2")
    assert boost.AutoBoost("O0") is ab and ab.level == "O2"
    assert ab.boost_config["adasum"] and ab.boost_config["less_bn"] and not ab.boost_config["dim_reduce"]
    boost.AutoBoost._reset()
    ab = boost.AutoBoost("O5", {"boost": {"mode": "enable_all"}, "common": {"device_number": 4}})
    assert ab.level == "O0" and all(ab.boost_config.values()) and ab.device_number == 4
    boost.AutoBoost._reset()
    with pytest.raises(ValueError, match="The boost mode must be in"):
        boost.AutoBoost("O1", {"boost": {"mode": "fast"}})


def test_adasum_single_group_and_pair_rule():
    p = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="p")
    old = ms.Tensor(np.full(3, 2.0, np.float32))
    delta = ms.Tensor(np.array([0.5, 0.0, -0.5], np.float32))
    boost.AdaSum(0, 1, 1, (p,))((delta,), (p,), (old,))
    np.testing.assert_allclose(p.asnumpy(), [1.5, 2.0, 2.5])
    from mindspore.boost.adasum import adasum_pair
    a = ms.Tensor(np.array([1.0, 0.0], np.float32))
    b = ms.Tensor(np.array([0.0, 1.0], np.float32))
    np.testing.assert_allclose(adasum_pair(a, b).asnumpy(), [1.0, 1.0], atol=1e-6)   # orthogonal: summed
    np.testing.assert_allclose(adasum_pair(a, a).asnumpy(), [1.0, 0.0], atol=1e-6)   # parallel: averaged
    with pytest.raises(ValueError, match="power of 2"):
        boost.AdaSum(0, 1, 3, (p,))


def test_dim_reduce_descends_in_the_subspace(tmp_path):
    net = scenarios._net(ms, nn)
    n = sum(int(np.prod(p.shape)) for p in net.trainable_params())
    pca = np.linalg.qr(np.random.default_rng(0).standard_normal((n, 4)))[0].T.astype(np.float32)
    np.save(tmp_path / "pca.npy", pca)
    ab = boost.AutoBoost("O0", {"boost": {"mode": "manual", "dim_reduce": True},
                                "dim_reduce": {"n_components": 4, "pca_mat_path": str(tmp_path / "pca.npy")}})
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    with_loss, opt = ab.network_auto_process_train(with_loss, nn.SGD(net.trainable_params(), 0.1))
    assert opt.dim_reduce
    step = boost.BoostTrainOneStepCell(with_loss, opt, sens=1.0)
    losses = scenarios._train(ms, nn, step, 6)
    assert losses[-1] < losses[0]


def test_group_loss_scale_manager():
    manager = boost.GroupLossScaleManager(4096, [["fc1"], ["fc2"]])
    manager.set_loss_scale_status(2, 1024.0)
    assert manager.get_loss_scale() == 4096 and manager.get_update_cell() is manager
    assert float(manager.update_loss_scale_status(0, 2.0).asnumpy()) == 2048.0
    out = manager(ms.Tensor([1.0]), 1, 2)
    assert float(out.asnumpy()[0]) == pytest.approx(2.0)   # x * scale[1] / scale[2] = 2048 / 1024


def test_freeze_opt_and_processes():
    net = scenarios._net(ms, nn)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    with pytest.raises(TypeError, match="must be an Optimizer"):
        boost.FreezeOpt(object())
    with pytest.raises(ValueError, match="must also be specified"):
        boost.FreezeOpt(opt, None, [0, 1])
    params = net.trainable_params()
    frozen = boost.FreezeOpt(opt, [params, params[2:]], [0, 1, 1])
    assert [len(o.parameters) for o in frozen.opts] == [4, 2] and frozen.train_strategy == [0, 1, 1]
    groups = boost.ParameterProcess.generate_group_params(params[2:], [{"params": params[:2], "lr": 0.5},
                                                                       {"params": params[2:]}])
    assert [len(g["params"]) for g in groups] == [0, 2] and groups[0]["lr"] == 0.5
    process = boost.OptimizerProcess(nn.Momentum([{"params": params}], 0.1, 0.9))
    process.add_grad_centralization(net)
    assert [g.get("grad_centralization", False) for g in process.origin_params] == [True, False]
    assert isinstance(process.generate_new_optimizer(), nn.Momentum)
    x = ops.ones((2, 4), ms.float32)
    assert boost.LessBN(scenarios._net(ms, nn))(x).shape == (2, 3)


def test_boost_step_in_graph_mode_matches_pynative():
    def run(mode):
        ms.set_context(mode=mode)
        try:
            boost.AutoBoost._reset()
            boost.AutoBoost("O0")
            net = scenarios._net(ms, nn)
            step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                               nn.Momentum(net.trainable_params(), 0.05, 0.9), sens=1.0)
            return scenarios._train(ms, nn, step)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(run(ms.GRAPH_MODE), run(ms.PYNATIVE_MODE), rtol=1e-6)
