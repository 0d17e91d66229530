"""Wrapper cells: WithLossCell, TrainOneStepCell (against hand-computed NumPy steps), loss scaling with overflow,
the loss-scale update cells, DistributedGradReducer, WithEvalCell, WithGradCell, ForwardValueAndGrad,
ParameterUpdate."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, nn, ops

pytestmark = pytest.mark.both_modes

RNG = np.random.default_rng(7)
X = RNG.standard_normal((8, 3)).astype(np.float32)
Y = RNG.standard_normal((8, 2)).astype(np.float32)
W0 = RNG.standard_normal((3, 2)).astype(np.float32)
B0 = RNG.standard_normal((2,)).astype(np.float32)


class Linear(nn.Cell):
    """x @ w + b with its own Parameters (named by attribute path)."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(W0.copy()), name="w")
        self.b = Parameter(Tensor(B0.copy()), name="b")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = Linear()

    def construct(self, x):
        return self.fc(x)


class MSE(nn.Cell):
    def construct(self, out, label):
        return ops.mean((out - label) ** 2)


def numpy_loss_and_grads(w, b, x=X, y=Y):
    """loss = mean((x w + b - y)^2) and its exact gradients, in float64."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    r = x @ w + b - y
    loss = np.mean(r ** 2)
    d = 2 * r / r.size
    return loss, x.T @ d, d.sum(axis=0)


def train_net(optimizer_factory, **kwargs):
    net = Model()
    opt = optimizer_factory(net.trainable_params())
    return net, nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), opt, **kwargs)


# -- WithLossCell ---------------------------------------------------------------------------------------------
def test_with_loss_cell_adds_no_prefix():
    net = Model()
    with_loss = nn.WithLossCell(net, MSE())
    assert [p.name for p in with_loss.trainable_params()] == ["fc.w", "fc.b"]
    assert with_loss.backbone_network is net
    expected, _, _ = numpy_loss_and_grads(W0, B0)
    np.testing.assert_allclose(with_loss(Tensor(X), Tensor(Y)).asnumpy(), expected, rtol=1e-5)


# -- TrainOneStepCell ----------------------------------------------------------------------------------------
def test_train_one_step_sgd_matches_hand_computed_step():
    net, train = train_net(lambda ps: nn.SGD(ps, learning_rate=0.1))
    loss = train(Tensor(X), Tensor(Y))
    expected_loss, gw, gb = numpy_loss_and_grads(W0, B0)
    np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.1 * gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.fc.b.asnumpy(), B0 - 0.1 * gb, rtol=1e-5, atol=1e-6)


def test_train_one_step_momentum_three_steps():
    net, train = train_net(lambda ps: nn.Momentum(ps, learning_rate=0.05, momentum=0.9))
    w, b = W0.astype(np.float64), B0.astype(np.float64)
    vw, vb = np.zeros_like(w), np.zeros_like(b)
    for _ in range(3):
        loss = train(Tensor(X), Tensor(Y))
        expected_loss, gw, gb = numpy_loss_and_grads(w, b)
        np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
        vw, vb = 0.9 * vw + gw, 0.9 * vb + gb
        w, b = w - 0.05 * vw, b - 0.05 * vb
    np.testing.assert_allclose(net.fc.w.asnumpy(), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.fc.b.asnumpy(), b, rtol=1e-5, atol=1e-6)
    names = [p.name for p in train.get_parameters()]
    assert names == ["fc.w", "fc.b", "global_step", "learning_rate", "momentum", "moments.fc.w", "moments.fc.b"]


def test_train_one_step_adam_against_numpy():
    net, train = train_net(lambda ps: nn.Adam(ps, learning_rate=0.01))
    w, b = W0.astype(np.float64), B0.astype(np.float64)
    state = {k: np.zeros_like(v) for k, v in (("mw", w), ("vw", w), ("mb", b), ("vb", b))}
    beta1, beta2, eps = float(np.float32(0.9)), float(np.float32(0.999)), 1e-8
    for t in range(1, 4):
        loss = train(Tensor(X), Tensor(Y))
        expected_loss, gw, gb = numpy_loss_and_grads(w, b)
        np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
        lr_t = 0.01 * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        for key, g in (("w", gw), ("b", gb)):
            state["m" + key] = beta1 * state["m" + key] + (1 - beta1) * g
            state["v" + key] = beta2 * state["v" + key] + (1 - beta2) * g * g
        w = w - lr_t * state["mw"] / (np.sqrt(state["vw"]) + eps)
        b = b - lr_t * state["mb"] / (np.sqrt(state["vb"]) + eps)
    np.testing.assert_allclose(net.fc.w.asnumpy(), w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.fc.b.asnumpy(), b, rtol=1e-5, atol=1e-6)
    opt = train.optimizer
    np.testing.assert_allclose(opt.moment1[0].asnumpy(), state["mw"], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(opt.moment2[1].asnumpy(), state["vb"], rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("factory", [
    lambda ps: nn.SGD(ps, 0.05, momentum=0.9), lambda ps: nn.Adam(ps, 0.05), lambda ps: nn.RMSProp(ps, 0.01),
    lambda ps: nn.AdamWeightDecay(ps, 0.05), lambda ps: nn.Adagrad(ps, learning_rate=0.2),
    lambda ps: nn.Lamb(ps, 0.05), lambda ps: nn.Momentum(ps, 0.05, 0.9, use_nesterov=True),
])
def test_loss_decreases(factory):
    _, train = train_net(factory)
    losses = [float(train(Tensor(X), Tensor(Y)).asnumpy()) for _ in range(15)]
    assert losses[-1] < 0.8 * losses[0], losses


def test_sens_scales_the_gradients():
    net, train = train_net(lambda ps: nn.SGD(ps, learning_rate=0.1), sens=4.0)
    loss = train(Tensor(X), Tensor(Y))
    expected_loss, gw, _ = numpy_loss_and_grads(W0, B0)
    np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.4 * gw, rtol=1e-5, atol=1e-6)


def test_return_grad_gives_named_gradients():
    _, train = train_net(lambda ps: nn.SGD(ps, learning_rate=0.1), return_grad=True)
    loss, grads = train(Tensor(X), Tensor(Y))
    _, gw, gb = numpy_loss_and_grads(W0, B0)
    assert list(grads) == ["fc.w", "fc.b"]
    np.testing.assert_allclose(grads["fc.w"].asnumpy(), gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads["fc.b"].asnumpy(), gb, rtol=1e-5, atol=1e-6)
    assert loss.shape == ()


def test_forward_runs_once_per_step():
    class Counting(Model):
        def __init__(self):
            super().__init__()
            self.calls = Parameter(Tensor(0, ms.int32), name="calls", requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.calls, Tensor(1, ms.int32))
            return self.fc(x)

    net = Counting()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), nn.SGD(net.trainable_params(), 0.1))
    for _ in range(3):
        train(Tensor(X), Tensor(Y))
    assert int(net.calls.asnumpy()) == 3


def test_train_one_step_argument_errors():
    net = Model()
    opt = nn.SGD(net.trainable_params())
    with pytest.raises(TypeError):
        nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), opt, sens="1")
    with pytest.raises(TypeError):
        nn.TrainOneStepCell(lambda x: x, opt)
    with pytest.raises(TypeError):
        nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), opt, return_grad=1)


# -- loss scaling -------------------------------------------------------------------------------------------------
def loss_scale_net(scale_sense, lr=0.1):
    net = Model()
    opt = nn.SGD(net.trainable_params(), learning_rate=lr)
    return net, nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, MSE()), opt, scale_sense)


@pytest.mark.parametrize("shape", [(), (1,)])
def test_loss_scale_step_matches_unscaled_step(shape):
    """A scale of shape () or (1,) (MindSpore's tutorials use both): the loss as the network's, the update as an
    unscaled step's."""
    net, train = loss_scale_net(Tensor(np.full(shape, 1024.0, np.float32)))
    loss, overflow, scale = train(Tensor(X), Tensor(Y))
    expected_loss, gw, gb = numpy_loss_and_grads(W0, B0)
    assert loss.shape == () and scale.shape == shape
    np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
    assert overflow.dtype == ms.bool_ and not bool(overflow)
    np.testing.assert_allclose(scale.asnumpy(), 1024.0)
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.1 * gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(net.fc.b.asnumpy(), B0 - 0.1 * gb, rtol=1e-5, atol=1e-6)
    assert train.scale_sense.name == "scale_sense"
    train.set_sense_scale(Tensor(np.full(shape, 2.0, np.float32)))
    np.testing.assert_allclose(train.scale_sense.asnumpy(), 2.0)


def test_overflow_skips_update_and_lowers_dynamic_scale():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=1000)
    net, train = loss_scale_net(manager)
    bad = X.copy()
    bad[0, 0] = np.inf
    loss, overflow, scale = train(Tensor(bad), Tensor(Y))
    assert bool(overflow)
    np.testing.assert_allclose(scale.asnumpy(), 2.0 ** 9)
    np.testing.assert_array_equal(net.fc.w.asnumpy(), W0)    # the update was skipped
    np.testing.assert_array_equal(net.fc.b.asnumpy(), B0)
    loss, overflow, scale = train(Tensor(X), Tensor(Y))      # a clean step updates, scale unchanged
    assert not bool(overflow)
    np.testing.assert_allclose(scale.asnumpy(), 2.0 ** 9)
    _, gw, _ = numpy_loss_and_grads(W0, B0)
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.1 * gw, rtol=1e-5, atol=1e-6)


def test_nan_gradient_counts_as_overflow():
    net, train = loss_scale_net(nn.FixedLossScaleUpdateCell(8.0))
    bad = X.copy()
    bad[1, 2] = np.nan
    _, overflow, scale = train(Tensor(bad), Tensor(Y))
    assert bool(overflow)
    np.testing.assert_allclose(scale.asnumpy(), 8.0)          # a fixed scale never changes
    np.testing.assert_array_equal(net.fc.w.asnumpy(), W0)


def _pynative_calls(eager_calls, train, *args):
    """The primitives a PYNATIVE call of ``train`` dispatches, in order, and its result."""
    first = len(eager_calls)
    out = train(*args)
    return eager_calls[first:], out


class _OwnCheck(nn.TrainOneStepWithLossScaleCell):
    """A subclass with its own overflow check (MindSpore's pattern): the step must call it."""

    def get_overflow_status(self, status, compute_output):
        self.checked = getattr(self, "checked", 0) + 1
        return super().get_overflow_status(status, compute_output)


def test_pynative_unscale_and_check_are_one_operator(eager_calls):
    """A PYNATIVE loss-scaled step unscales and checks every gradient with one UnscaleAndCheckFinite (not a Mul per
    gradient, then an IsFinite, an all and a logical_and per gradient); a subclass with its own
    get_overflow_status gets it called, on gradients unscaled by a Mul each (no Cast of the float32 scale)."""
    if ms.get_context("mode") == ms.GRAPH_MODE:
        pytest.skip("counts the operators PYNATIVE dispatches")
    bad = X.copy()
    bad[3, 1] = np.nan
    net, train = loss_scale_net(Tensor(1024.0, ms.float32))
    calls, (_, overflow, _) = _pynative_calls(eager_calls, train, Tensor(bad), Tensor(Y))
    assert bool(overflow)
    after_backward = calls[len(calls) - calls[::-1].index("MatMul"):]     # (the last MatMul: w's gradient)
    assert after_backward.count("UnscaleAndCheckFinite") == 1, after_backward
    assert not {"Mul", "Cast", "AllFinite", "IsFinite", "ReduceAll"} & set(after_backward), after_backward
    np.testing.assert_array_equal(net.fc.w.asnumpy(), W0)
    loss, overflow, _ = train(Tensor(X), Tensor(Y))                      # a finite step updates with unscaled grads
    _, gw, gb = numpy_loss_and_grads(W0, B0)
    assert not bool(overflow)
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.1 * gw, rtol=1e-5, atol=1e-6)

    net = Model()
    own = _OwnCheck(nn.WithLossCell(net, MSE()), nn.SGD(net.trainable_params(), learning_rate=0.1),
                    Tensor(1024.0, ms.float32))
    calls, (_, overflow, _) = _pynative_calls(eager_calls, own, Tensor(bad), Tensor(Y))
    assert bool(overflow) and own.checked == 1
    after_backward = calls[len(calls) - calls[::-1].index("MatMul"):]
    assert after_backward.count("Mul") == 2 and after_backward.count("AllFinite") == 1, after_backward
    assert "Cast" not in after_backward and "UnscaleAndCheckFinite" not in after_backward, after_backward


class _ReadsStatus(_OwnCheck):
    """A subclass whose own check reads the status (Ascend's pattern)."""

    def get_overflow_status(self, status, compute_output):
        self.status = status
        return super().get_overflow_status(status, compute_output)


def test_the_status_is_made_only_when_a_subclass_reads_it(monkeypatch):
    """start_overflow_check's status is made when a subclass's own get_overflow_status (or start_overflow_check)
    may read it, not by the default step, which reads none (a Tensor made at every step was a host-to-device copy:
    on a GPU, a wait for the queued work)."""
    if ms.get_context("mode") == ms.GRAPH_MODE:
        pytest.skip("counts PYNATIVE calls")
    made = []
    plain = nn.TrainOneStepWithLossScaleCell.start_overflow_check

    def counted(self, pre_cond, compute_input):
        made.append(type(self).__name__)
        return plain(self, pre_cond, compute_input)
    monkeypatch.setattr(nn.TrainOneStepWithLossScaleCell, "start_overflow_check", counted)
    net, train = loss_scale_net(Tensor(1024.0, ms.float32))
    loss, overflow, _ = train(Tensor(X), Tensor(Y))
    assert made == [] and not bool(overflow)
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.1 * numpy_loss_and_grads(W0, B0)[1], rtol=1e-5, atol=1e-6)

    net = Model()
    own = _ReadsStatus(nn.WithLossCell(net, MSE()), nn.SGD(net.trainable_params(), learning_rate=0.1),
                       Tensor(1024.0, ms.float32))
    own(Tensor(X), Tensor(Y))
    assert made == ["_ReadsStatus"] and own.checked == 1
    assert own.status.shape == (8,) and own.status.dtype == ms.int32 and not own.status.asnumpy().any()

    class OwnStart(nn.TrainOneStepWithLossScaleCell):
        def start_overflow_check(self, pre_cond, compute_input):
            made.append("OwnStart")
            return Tensor([0] * 8, ms.int32), compute_input * 2      # its own scale: 2048
    net = Model()
    start = OwnStart(nn.WithLossCell(net, MSE()), nn.SGD(net.trainable_params(), learning_rate=0.1),
                     Tensor(1024.0, ms.float32))
    start(Tensor(X), Tensor(Y))
    assert made == ["_ReadsStatus", "OwnStart"]
    np.testing.assert_allclose(net.fc.w.asnumpy(), W0 - 0.1 * numpy_loss_and_grads(W0, B0)[1], rtol=1e-5, atol=1e-6)


def test_dynamic_scale_grows_after_scale_window_clean_steps():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=4.0, scale_factor=2, scale_window=2)
    _, train = loss_scale_net(manager, lr=0.0)
    scales = [float(train(Tensor(X), Tensor(Y))[2].asnumpy()) for _ in range(5)]
    assert scales == [4.0, 8.0, 8.0, 16.0, 16.0]


def dynamic_rule_oracle(scale, factor, window, overflows):
    cur, last, out = 1, 0, []
    for overflow in overflows:
        if overflow:
            scale = max(scale / factor, 1.0)
        inc = window <= cur - last
        if overflow or inc:
            last = cur
        if inc and not overflow:
            scale *= factor
        cur += 1
        out.append(scale)
    return out


def test_dynamic_loss_scale_update_cell_rule():
    overflows = [False, True, False, False, False, True, True, True, True, False, False, False, False]
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=8.0, scale_factor=2, scale_window=3)
    scale = Parameter(Tensor(8.0, ms.float32), name="scale_sense")
    got = []
    for overflow in overflows:
        assert manager(scale, Tensor(overflow)) is not None
        got.append(float(scale.asnumpy()))
    assert got == dynamic_rule_oracle(8.0, 2, 3, overflows)
    assert min(got) >= 1.0
    assert manager.get_loss_scale() == 8.0
    assert [p.name for p in manager.get_parameters()] == ["current_iterator_step", "last_overflow_iterator_step"]


def test_loss_scale_cell_argument_errors():
    net = Model()
    opt = nn.SGD(net.trainable_params())
    with pytest.raises(TypeError):
        nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, MSE()), opt, 1024.0)
    with pytest.raises(ValueError):
        nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, MSE()), opt, Tensor(np.ones(2, np.float32)))
    _, train = loss_scale_net(Tensor([8.0], ms.float32))
    with pytest.raises(TypeError):
        train.set_sense_scale(2.0)


# -- gradient reduction and other wrappers ----------------------------------------------------------------------
def test_distributed_grad_reducer_single_process():
    w = Parameter(Tensor(np.ones(3, np.float32)), name="w")
    g = Tensor(np.array([1.0, 2.0, 4.0], np.float32))
    (out,) = nn.DistributedGradReducer([w], mean=False)((g,))
    np.testing.assert_array_equal(out.asnumpy(), [1, 2, 4])
    (out,) = nn.DistributedGradReducer([w], mean=True, degree=2)((g,))
    np.testing.assert_allclose(out.asnumpy(), [0.5, 1, 2])
    with pytest.raises(ValueError):
        nn.DistributedGradReducer([w], degree=0)


def test_with_eval_cell():
    net = Model()
    loss, out, label = nn.WithEvalCell(net, MSE())(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(out.asnumpy(), X @ W0 + B0, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loss.asnumpy(), numpy_loss_and_grads(W0, B0)[0], rtol=1e-5)
    np.testing.assert_array_equal(label.asnumpy(), Y)
    class Half(nn.Cell):
        def construct(self, x):
            return ops.cast(x[:, :2], ms.float16)

    loss, out, label = nn.WithEvalCell(Half(), MSE(), add_cast_fp32=True)(Tensor(X), Tensor(Y.astype(np.float16)))
    assert out.dtype == ms.float32 and label.dtype == ms.float32 and loss.dtype == ms.float32
    with pytest.raises(TypeError):
        nn.WithEvalCell(net, MSE(), add_cast_fp32=1)


def test_with_grad_cell():
    grads = nn.WithGradCell(Model(), MSE())(Tensor(X), Tensor(Y))
    _, gw, gb = numpy_loss_and_grads(W0, B0)
    np.testing.assert_allclose(grads[0].asnumpy(), gw, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(grads[1].asnumpy(), gb, rtol=1e-5, atol=1e-6)


def test_forward_value_and_grad_layouts():
    net = nn.WithLossCell(Model(), MSE())
    weights = ParameterTuple(net.trainable_params())
    expected_loss, gw, gb = numpy_loss_and_grads(W0, B0)
    loss, grads = nn.ForwardValueAndGrad(net, weights=weights, get_by_list=True)(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(loss.asnumpy(), expected_loss, rtol=1e-5)
    np.testing.assert_allclose(grads[0].asnumpy(), gw, rtol=1e-5, atol=1e-6)
    loss, (in_grads, w_grads) = nn.ForwardValueAndGrad(net, weights=weights, get_all=True, get_by_list=True)(
        Tensor(X), Tensor(Y))
    assert len(in_grads) == 2 and len(w_grads) == 2
    np.testing.assert_allclose(w_grads[1].asnumpy(), gb, rtol=1e-5, atol=1e-6)
    _, dx = nn.ForwardValueAndGrad(net)(Tensor(X), Tensor(Y))
    r = X.astype(np.float64) @ W0 + B0 - Y
    np.testing.assert_allclose(dx.asnumpy(), (2 * r / r.size) @ W0.T, rtol=1e-5, atol=1e-6)
    _, grads = nn.ForwardValueAndGrad(net, weights=weights, get_by_list=True, sens_param=True)(
        Tensor(X), Tensor(Y), Tensor(3.0, ms.float32))
    np.testing.assert_allclose(grads[0].asnumpy(), 3 * gw, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError):
        nn.ForwardValueAndGrad(net, get_by_list=True)


def test_parameter_update():
    w = Parameter(Tensor(np.zeros(2, np.float32)), name="w")
    out = nn.ParameterUpdate(w)(Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_array_equal(w.asnumpy(), [1, 2])
    np.testing.assert_array_equal(out.asnumpy(), [1, 2])
    with pytest.raises(TypeError):
        nn.ParameterUpdate(Tensor(np.zeros(2, np.float32)))
