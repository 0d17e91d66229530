"""The Optimizer base: parameter groups, learning-rate kinds, global_step, weight decay, loss scale, errors."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

pytestmark = pytest.mark.both_modes


def param(name, value=1.0, shape=(3,)):
    return Parameter(Tensor(np.full(shape, value, np.float32)), name=name)


def ones_grads(params, value=1.0):
    return tuple(Tensor(np.full(p.shape, value, np.float32)) for p in params)


def step_of(opt):
    return int(opt.global_step.asnumpy()[0])


# -- learning rates -----------------------------------------------------------------------------------------
def test_fixed_learning_rate_is_a_parameter():
    w = param("w")
    opt = nn.SGD([w], learning_rate=1)
    assert isinstance(opt.learning_rate, Parameter) and opt.learning_rate.name == "learning_rate"
    assert opt.learning_rate.dtype == ms.float32 and opt.learning_rate.shape == ()
    assert opt.get_lr() is opt.learning_rate
    opt(ones_grads([w]))
    assert step_of(opt) == 1          # every step counts, whatever the kind of learning rate
    np.testing.assert_allclose(w.asnumpy(), 0.0)


def test_scalar_tensor_learning_rate():
    w = param("w")
    opt = nn.SGD([w], learning_rate=Tensor(0.5, ms.float64))
    assert opt.learning_rate.dtype == ms.float32 and not opt.dynamic_lr
    opt(ones_grads([w]))
    np.testing.assert_allclose(w.asnumpy(), 0.5)


def test_learning_rate_set_data_changes_next_step():
    w = param("w")
    opt = nn.SGD([w], learning_rate=0.5)
    opt.learning_rate.set_data(Tensor(0.25, ms.float32))
    opt(ones_grads([w]))
    np.testing.assert_allclose(w.asnumpy(), 0.75)


@pytest.mark.parametrize("lr", [[0.1, 0.2, 0.3], (0.1, 0.2, 0.3), Tensor(np.array([0.1, 0.2, 0.3], np.float32)),
                                np.array([0.1, 0.2, 0.3])])
def test_dynamic_learning_rate_list(lr):
    w = param("w", 0.0)
    opt = nn.SGD([w], learning_rate=lr)
    assert opt.dynamic_lr
    assert opt.learning_rate.learning_rate.name == "learning_rate"   # _IteratorLearningRate's Parameter
    np.testing.assert_allclose(opt.get_lr().asnumpy(), 0.1, rtol=1e-6)
    np.testing.assert_allclose(opt.get_lr().asnumpy(), 0.1, rtol=1e-6)    # get_lr does not advance the step
    assert step_of(opt) == 0
    seen = []
    for _ in range(3):
        seen.append(float(opt.get_lr().asnumpy()))
        opt(ones_grads([w]))
    np.testing.assert_allclose(seen, [0.1, 0.2, 0.3], rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), -0.6, rtol=1e-6)
    assert step_of(opt) == 3
    opt(ones_grads([w]))                  # past the end of the list the rate is 0
    np.testing.assert_allclose(w.asnumpy(), -0.6, rtol=1e-6)


def test_learning_rate_schedule_called_with_global_step():
    w = param("w", 0.0)
    schedule = nn.ExponentialDecayLR(0.1, 0.5, 1)
    opt = nn.Momentum([w], learning_rate=schedule, momentum=0.0)
    assert opt.learning_rate is schedule and opt.dynamic_lr
    for _ in range(3):
        opt(ones_grads([w]))
    np.testing.assert_allclose(w.asnumpy(), -(0.1 + 0.05 + 0.025), rtol=1e-6)
    assert step_of(opt) == 3


def test_adam_with_schedule_matches_manual_rates():
    rates = [0.1 * 0.9 ** (t / 2) for t in range(3)]
    w1, w2 = param("a", 2.0), param("b", 2.0)
    grads = [Tensor(np.array([0.3, -1.0, 2.0], np.float32)) for _ in range(3)]
    opt1 = nn.Adam([w1], learning_rate=nn.ExponentialDecayLR(0.1, 0.9, 2))
    opt2 = nn.Adam([w2], learning_rate=rates)
    for g in grads:
        opt1((g,))
        opt2((g,))
    np.testing.assert_allclose(w1.asnumpy(), w2.asnumpy(), rtol=1e-6)


def test_bad_learning_rates():
    w = param("w")
    with pytest.raises(TypeError):
        nn.SGD([w], learning_rate="0.1")
    with pytest.raises(TypeError):
        nn.SGD([w], learning_rate=True)
    with pytest.raises(ValueError):
        nn.SGD([w], learning_rate=-0.1)
    with pytest.raises(ValueError):
        nn.SGD([w], learning_rate=Tensor(np.ones((2, 2), np.float32)))


# -- parameter groups ---------------------------------------------------------------------------------------
def test_group_learning_rates_and_weight_decay():
    conv, fc = param("conv.weight", 1.0), param("fc.weight", 1.0)
    groups = [{"params": [conv], "lr": 0.05, "weight_decay": 0.1}, {"params": [fc], "lr": 0.01}]
    opt = nn.Momentum(groups, learning_rate=0.1, momentum=0.9, weight_decay=0.0)
    assert opt.is_group and opt.is_group_lr
    assert [p.name for p in opt.learning_rate] == ["learning_rate_group_0", "learning_rate_group_1"]
    assert opt.decay_flags == (True, False)
    np.testing.assert_allclose(opt.get_lr_parameter(conv).asnumpy(), 0.05)
    np.testing.assert_allclose([p.asnumpy() for p in opt.get_lr_parameter([conv, fc])], [0.05, 0.01])
    opt(ones_grads([conv, fc], 0.0))
    # conv: g = 0 + 0.1 * 1 -> v = 0.1 -> w = 1 - 0.05 * 0.1
    np.testing.assert_allclose(conv.asnumpy(), 1 - 0.005, rtol=1e-6)
    np.testing.assert_allclose(fc.asnumpy(), 1.0)


def test_group_default_learning_rate_is_shared():
    a, b = param("a"), param("b")
    opt = nn.SGD([{"params": [a]}, {"params": [b], "lr": 0.5}], learning_rate=0.1)
    assert opt.get_lr_parameter(a).name == "learning_rate"
    opt(ones_grads([a, b]))
    np.testing.assert_allclose(a.asnumpy(), 0.9, rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), 0.5, rtol=1e-6)
    names = [p.name for p in opt.get_parameters()]
    assert names[:3] == ["global_step", "learning_rate", "learning_rate_group_1"]


def test_group_dynamic_and_fixed_rates_mix():
    a, b = param("a", 0.0), param("b", 0.0)
    opt = nn.SGD([{"params": [a], "lr": [0.1, 0.2]}, {"params": [b]}], learning_rate=0.5)
    assert opt.dynamic_lr and isinstance(opt.learning_rate, nn.CellList)
    opt(ones_grads([a, b]))
    opt(ones_grads([a, b]))
    np.testing.assert_allclose(a.asnumpy(), -0.3, rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), -1.0, rtol=1e-6)


def test_order_params_reorders():
    a, b, c = param("a"), param("b"), param("c")
    opt = nn.SGD([{"params": [c, a], "lr": 0.5}, {"params": [b]}, {"order_params": [a, b, c]}], learning_rate=0.1)
    assert [p.name for p in opt.parameters] == ["a", "b", "c"]
    opt(ones_grads([a, b, c]))
    np.testing.assert_allclose([a.asnumpy()[0], b.asnumpy()[0], c.asnumpy()[0]], [0.5, 0.9, 0.5], rtol=1e-6)


def test_grad_centralization_on_conv_shaped_gradients():
    w = param("conv.weight", 0.0, shape=(2, 16, 1, 1))
    v = param("fc.weight", 0.0, shape=(2, 3))
    rng = np.random.default_rng(0)
    gw = rng.standard_normal((2, 16, 1, 1)).astype(np.float32)
    gv = rng.standard_normal((2, 3)).astype(np.float32)
    opt = nn.SGD([{"params": [w, v], "grad_centralization": True}], learning_rate=1.0)
    opt((Tensor(gw), Tensor(gv)))
    centred = gw - gw.mean(axis=(1, 2, 3), keepdims=True)
    np.testing.assert_allclose(w.asnumpy(), -centred, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(v.asnumpy(), -gv, rtol=1e-6)  # shape[1] % 16 != 0: unchanged


def test_group_errors():
    a, b = param("a"), param("b")
    with pytest.raises(KeyError):
        nn.SGD([{"params": [a], "momentum": 0.9}])
    with pytest.raises(RuntimeError):
        nn.SGD([{"params": [a]}, {"params": [a]}])
    with pytest.raises(ValueError):
        nn.SGD([{"params": [a, b]}, {"order_params": [a]}])
    with pytest.raises(TypeError):
        nn.SGD([{"params": [a, 3]}])
    with pytest.raises(TypeError):
        nn.SGD([a, {"params": [b]}])
    with pytest.raises(ValueError):
        nn.SGD([])
    with pytest.raises(ValueError):
        nn.SGD(None)


# -- weight decay and loss scale ---------------------------------------------------------------------------
def test_dynamic_weight_decay_cell_uses_step_before_increment():
    class Decay(nn.Cell):
        def construct(self, global_step):
            return 0.1 * (ops.cast(global_step, ms.float32) + 1.0)

    w = param("w", 1.0)
    opt = nn.Momentum([w], learning_rate=1.0, momentum=0.0, weight_decay=Decay())
    assert opt.dynamic_weight_decay
    opt(ones_grads([w], 0.0))          # wd = 0.1 at step 0
    np.testing.assert_allclose(w.asnumpy(), 0.9, rtol=1e-6)
    opt(ones_grads([w], 0.0))          # wd = 0.2 at step 1
    np.testing.assert_allclose(w.asnumpy(), 0.9 - 0.2 * 0.9, rtol=1e-6)
    assert step_of(opt) == 2


def test_loss_scale_divides_gradients():
    w = param("w", 0.0)
    opt = nn.SGD([w], learning_rate=1.0, loss_scale=8)
    assert opt.loss_scale == 8.0
    opt(ones_grads([w], 8.0))
    np.testing.assert_allclose(w.asnumpy(), -1.0)


@pytest.mark.parametrize("kwargs, error", [
    (dict(loss_scale=0.0), ValueError), (dict(loss_scale="1"), TypeError), (dict(weight_decay=-1.0), ValueError),
    (dict(weight_decay="0"), TypeError),
])
def test_bad_base_arguments(kwargs, error):
    with pytest.raises(error):
        nn.Momentum([param("w")], 0.1, 0.9, **kwargs)


def test_optimizer_specific_argument_errors():
    w = param("w")
    with pytest.raises(ValueError):
        nn.Momentum([w], 0.1, -0.9)
    with pytest.raises(TypeError):
        nn.Momentum([w], 0.1, 1)
    with pytest.raises(ValueError):
        nn.SGD([w], nesterov=True)
    with pytest.raises(ValueError):
        nn.Adam([w], beta1=1.0)
    with pytest.raises(TypeError):
        nn.Adam([w], eps=1)
    with pytest.raises(ValueError):
        nn.RMSProp([w], epsilon=0.0)
    with pytest.raises(TypeError):
        nn.Adagrad([w], accum=1)
    with pytest.raises(TypeError):
        nn.SGD([w], weight_decay=nn.WarmUpLR(0.1, 2))


def test_wrong_number_of_gradients():
    opt = nn.Adam([param("a"), param("b")])
    with pytest.raises(ValueError):
        opt(ones_grads([param("x")]))


# -- bookkeeping ---------------------------------------------------------------------------------------------
def test_state_parameters_are_registered_and_checkpointable():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(3, 2)

        def construct(self, x):
            return self.fc(x)

    net = Net()
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    names = [p.name for p in train.get_parameters()]
    assert names == ["fc.weight", "fc.bias", "global_step", "learning_rate", "momentum", "moments.fc.weight",
                     "moments.fc.bias"]
    assert opt.parameters[0] is net.fc.weight


def test_init_args_recorded():
    w = param("w")
    opt = nn.Momentum([w], learning_rate=0.1, momentum=0.9)
    assert opt.init_params["params"] == [w]
    assert opt.init_learning_rate == 0.1
    assert opt.init_args["momentum"] == 0.9 and opt.init_args["use_nesterov"] is False


def test_target_property():
    opt = nn.Adam([param("w")])
    assert opt.target == ms.get_context("device_target")
    opt.target = "CPU"
    assert opt.target == "CPU"
    with pytest.raises(ValueError):
        opt.target = "TPU"
    with pytest.raises(TypeError):
        opt.target = 1


def test_get_lr_parameter_errors():
    w = param("w")
    opt = nn.SGD([w])
    with pytest.raises(ValueError):
        opt.get_lr_parameter(param("other"))
    with pytest.raises(TypeError):
        opt.get_lr_parameter("w")


def test_user_defined_optimizer():
    def sgd_update(lr, grad, param):
        return ops.assign_sub(param, lr * grad)

    class Custom(nn.Optimizer):
        def __init__(self, params):
            super().__init__([0.1, 0.05], params)

        def construct(self, gradients):
            lr = self.get_lr()
            self.assignadd(self.global_step, self.global_step_increase_tensor)
            return self.hyper_map(ops.partial(sgd_update, lr), gradients, self.parameters)

    w = param("w")
    opt = Custom([w])
    opt(ones_grads([w]))
    opt(ones_grads([w]))
    np.testing.assert_allclose(w.asnumpy(), 0.85, rtol=1e-6)
    assert step_of(opt) == 2


def test_optimizer_base_construct_is_abstract():
    w = param("w")
    with pytest.raises(TypeError):
        nn.Optimizer(0.1, [param("v")])(ones_grads([w]))


def test_public_names_exported_from_nn():
    from mindspore.nn import dynamic_lr, learning_rate_schedule, optim, wrap
    for module in (optim, wrap, learning_rate_schedule, dynamic_lr):
        for name in module.__all__:
            assert getattr(nn, name) is getattr(module, name), name


# -- compiled updates -----------------------------------------------------------------------------------------
#: The optimizers whose ``construct`` MindSpore 2.10 decorates with ``@jit`` (read from its installed sources): in
#: PYNATIVE_MODE their update runs as one compiled graph, as in GRAPH_MODE.
JIT_CONSTRUCT = ("Adagrad", "AdaFactor", "Adam", "AdamWeightDecay", "AdamOffload", "AdaMax", "ASGD", "FTRL", "Lamb",
                 "LARS", "LazyAdam", "Momentum", "ProximalAdagrad", "RMSProp", "Rprop", "SGD")


@pytest.mark.parametrize("name", JIT_CONSTRUCT)
def test_update_is_compiled_as_in_mindspore(name):
    assert getattr(getattr(nn, name).construct, "__ms_jit__", False), f"nn.{name}.construct is not @jit"


def test_an_update_left_eager_in_mindspore_stays_eager():
    assert not getattr(nn.Adadelta.construct, "__ms_jit__", False)


def test_a_compiled_update_sees_each_instance_and_the_new_learning_rate():
    """One compiled graph per optimizer instance: two Momentum optimizers with other rates and parameters, and a
    rate changed between steps, give their own updates."""
    w1, w2 = param("w1", 1.0), param("w2", 1.0, shape=(2, 2))
    a = nn.Momentum([w1], learning_rate=0.5, momentum=0.0)
    b = nn.Momentum([w2], learning_rate=0.25, momentum=0.0)
    a(ones_grads([w1]))
    b(ones_grads([w2]))
    b(ones_grads([w2]))
    np.testing.assert_allclose(w1.asnumpy(), np.full((3,), 0.5))
    np.testing.assert_allclose(w2.asnumpy(), np.full((2, 2), 0.5))
    a.learning_rate.set_data(Tensor(np.float32(0.125)))
    a(ones_grads([w1]))
    np.testing.assert_allclose(w1.asnumpy(), np.full((3,), 0.375))
