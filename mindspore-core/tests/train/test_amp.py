"""Mixed precision: computation dtypes per level, float32 parameters, loss scalers and managers."""
import functools

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, amp, nn, ops
from mindspore.train import Model

pytestmark = pytest.mark.both_modes

F16, F32 = np.float16, np.float32


def _fp16_exact(a):
    """True when every value of the float32 array ``a`` went through float16 rounding."""
    return np.array_equal(a, a.astype(F16).astype(F32))


class Probe(nn.Cell):
    """A user cell that records the dtypes it sees: its input and its parameter, inside construct. In PYNATIVE, as in
    MindSpore 2.10, a converted cell's input and Parameters are not cast on entry: its operators cast them (the
    input as given, the Parameter float32 as read; recorded on 2.10 with this cell)."""

    def __init__(self, features=4, log=None):
        super().__init__()
        self.w = Parameter(Tensor(np.linspace(-1, 1, features * features, dtype=F32).reshape(features, features)),
                           name="w")
        self.log = [] if log is None else log

    def construct(self, x):
        # extend, not append: in GRAPH_MODE (as in MindSpore 2.10) ``self.log.append`` changes a copy of the list
        # attribute, ``self.log.extend`` the attribute itself
        self.log.extend([(str(x.dtype), str(self.w.dtype))])
        return ops.matmul(x, self.w)


class PrimNet(nn.Cell):
    """A user cell holding white-list primitives as attributes."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.default_rng(0).normal(size=(4, 3)).astype(F32)), name="w")
        self.matmul = ops.MatMul()
        self.relu = ops.ReLU()

    def construct(self, x):
        return self.relu(self.matmul(x, self.w)) + 1.0


def _pynative():
    return ms.get_context("mode") == ms.PYNATIVE_MODE


def _x(n=8, f=4, seed=0):
    return Tensor(np.random.default_rng(seed).normal(size=(n, f)).astype(F32))


def test_o1_dense_computes_in_float16_and_returns_float32(mlp_factory):
    net = mlp_factory()
    x = _x()
    w, b = net.fc1.weight.asnumpy(), net.fc1.bias.asnumpy()
    converted = amp.auto_mixed_precision(net, "O1")
    assert converted is net and net._amp_level == "O1"
    hidden = net.fc1(x)
    assert hidden.dtype == ms.float32
    h = hidden.asnumpy()
    assert _fp16_exact(h)
    x16 = x.asnumpy().astype(F16).astype(F32)
    oracle = ((x16 @ w.astype(F16).astype(F32).T).astype(F16).astype(F32) + b.astype(F16).astype(F32))
    np.testing.assert_allclose(h, oracle.astype(F16).astype(F32), rtol=2e-3, atol=2e-3)
    assert not np.allclose(h, x.asnumpy() @ w.T + b, rtol=1e-6, atol=1e-6)
    assert all(p.dtype == ms.float32 for p in net.get_parameters())
    assert net(x).dtype == ms.float32


def test_o1_white_list_primitives_on_user_cells():
    net = PrimNet()
    x = _x()
    plain = net(x).asnumpy()
    amp.auto_mixed_precision(net, "O1")
    assert type(net.matmul).__name__ == "MatMul" and isinstance(net.matmul, ops.MatMul)
    out = net(x)
    assert out.dtype == ms.float32
    relu_out = out.asnumpy() - 1.0
    assert _fp16_exact(relu_out) and not _fp16_exact(plain - 1.0)
    np.testing.assert_allclose(out.asnumpy(), plain, rtol=5e-3, atol=5e-3)


def test_o2_runs_float16_with_black_list_in_float32():
    log = []
    net = nn.SequentialCell(Probe(log=log), Probe(log=log))
    converted = amp.custom_mixed_precision(net, black_list=[type(net[1])])
    out = converted(_x())
    # both probes are the same class: black-listed, so float32 inside, and its output handed on in float16
    assert log == ([("Float32", "Float32"), ("Float16", "Float32")] if _pynative() else
                   [("Float32", "Float32"), ("Float32", "Float32")])
    assert out.dtype == ms.float32
    log.clear()
    net2 = nn.SequentialCell(Probe(log=log), nn.BatchNorm1d(4), Probe(log=log))
    net2.set_train(True)
    converted = amp.auto_mixed_precision(net2, "O2")
    assert type(converted).__name__ == "_OutputTo32"
    assert converted(_x()).dtype == ms.float32
    assert log == ([("Float32", "Float32"), ("Float16", "Float32")] if _pynative() else
                   [("Float16", "Float16"), ("Float16", "Float16")])
    assert net2[1](_x().astype(ms.float16)).dtype == ms.float16  # BatchNorm: float32 inside, float16 out
    assert net2[1]._mixed_precision_type == ms.float32 and net2[0]._mixed_precision_type == ms.float16
    assert all(p.dtype == ms.float32 for p in net2.get_parameters())


def test_o3_runs_everything_in_float16_with_float32_parameters_and_gradients():
    log = []
    net = nn.SequentialCell(Probe(log=log), nn.BatchNorm1d(4), nn.ReLU(), Probe(log=log))
    net.set_train(True)
    names = [p.name for p in net.get_parameters()]
    converted = amp.auto_mixed_precision(net, "O3")
    out = converted(_x())
    assert out.dtype == ms.float32 and _fp16_exact(out.asnumpy())
    assert log == ([("Float32", "Float32"), ("Float16", "Float32")] if _pynative() else
                   [("Float16", "Float16"), ("Float16", "Float16")])
    assert net[1](_x().astype(ms.float32)).dtype == ms.float16
    weights = net.trainable_params()
    grads = ms.grad(lambda data: converted(data).sum(), grad_position=None, weights=weights)(_x())
    assert [g.dtype for g in grads] == [ms.float32] * len(weights)
    assert all(np.isfinite(g.asnumpy()).all() for g in grads)
    assert [p.dtype for p in net.get_parameters()] == [ms.float32] * 6
    assert [p.name for p in net.get_parameters()] == names  # names unchanged: nothing was wrapped
    assert [p.name for p in converted.get_parameters()] == names
    assert net[0].w is weights[0]  # outside a call the attribute is the float32 Parameter again


def test_model_trains_with_amp_levels(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    on_cpu = ms.get_context("device_target") == "CPU"
    for level in ("O1", "O2", "O3"):
        net = mlp_factory()
        # (on CPU 2.10 refuses a manager that updates the scale: test_o2_dynamic_loss_scale_refused_on_cpu)
        manager = (amp.FixedLossScaleManager(2 ** 8, drop_overflow_update=False) if on_cpu
                   else amp.DynamicLossScaleManager(2 ** 8, 2, 50))
        kwargs = {"loss_scale_manager": manager} if level == "O2" else {}
        # (a fixed scale scales the gradients: the optimizer divides it out)
        scale = 2.0 ** 8 if level == "O2" and on_cpu else 1.0
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=scale), metrics={"acc"},
                      amp_level=level, **kwargs)
        before = model.eval(dataset_factory(x, y, batch_size=16))["acc"]
        model.train(4, dataset_factory(x, y, batch_size=16))
        after = model.eval(dataset_factory(x, y, batch_size=16))["acc"]
        assert after > max(before, 0.85), level
        assert all(p.dtype == ms.float32 for p in net.get_parameters())
        if level == "O2":
            assert type(model.train_network).__name__ == ("TrainOneStepCell" if on_cpu
                                                          else "TrainOneStepWithLossScaleCell")


def test_build_train_network_structure_and_loss_dtype(mlp_factory):
    x, y = _x(), Tensor(np.array([0, 1] * 4, dtype=np.int32))
    on_cpu = ms.get_context("device_target") == "CPU"
    # (level O2's default DynamicLossScaleManager is refused on CPU, as 2.10 refuses it: a fixed scale there)
    o2_cpu = {"loss_scale_manager": amp.FixedLossScaleManager(2 ** 8, drop_overflow_update=False)} if on_cpu else {}
    for level, kind, kwargs in (("O0", "TrainOneStepCell", {}), ("O3", "TrainOneStepCell", {}),
                                ("O2", "TrainOneStepCell" if on_cpu else "TrainOneStepWithLossScaleCell", o2_cpu)):
        net = mlp_factory()
        opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
        train = amp.build_train_network(net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                                        level=level, **kwargs)
        assert type(train).__name__ == kind and train.training
        out = train(x, y)
        loss = out[0] if isinstance(out, tuple) else out
        assert loss.dtype == ms.float32
    net = mlp_factory()
    train = amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.01, 0.9), nn.MSELoss(), level="O2",
                                    loss_scale_manager=None, keep_batchnorm_fp32=False)
    assert type(train).__name__ == "TrainOneStepCell"
    with pytest.raises(ValueError, match="Unsupported arg"):
        amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.01, 0.9), level="O2", bad=1)
    with pytest.raises(TypeError, match="Optimizer"):
        amp.build_train_network(net, None)
    if ms.get_context("device_target") in ("GPU", "Ascend"):
        # level "auto" is O2 on a GPU (O3 on Ascend): a loss-scaled step, as MindSpore builds it there
        train = amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.01, 0.9), level="auto")
        assert type(train).__name__ == ("TrainOneStepWithLossScaleCell" if ms.get_context("device_target") == "GPU"
                                        else "TrainOneStepCell")
    else:
        with pytest.raises(ValueError, match="auto"):
            amp.build_train_network(net, nn.Momentum(net.trainable_params(), 0.01, 0.9), level="auto")


def test_lists_and_argument_errors(mlp_factory):
    white, black = amp.get_white_list(), amp.get_black_list()
    for cls in (nn.Dense, nn.Conv2d, ops.MatMul, ops.BatchMatMul, ops.ReLU, ops.Conv2D):
        assert cls in white
    assert nn.BatchNorm2d in black and nn.LayerNorm in black and nn.Dense not in black
    white.append(nn.ReLU)
    assert nn.ReLU not in amp.get_white_list()  # a copy
    net = mlp_factory()
    assert amp.auto_mixed_precision(net, "O0") is net
    with pytest.raises(ValueError, match="not supported"):
        amp.auto_mixed_precision(net, "O4")
    with pytest.raises(TypeError, match="Cell"):
        amp.auto_mixed_precision(lambda v: v, "O1")
    with pytest.raises(ValueError, match="dtype"):
        amp.auto_mixed_precision(net, "O3", dtype=ms.float32)
    with pytest.raises(ValueError, match="one of white_list and black_list"):
        amp.custom_mixed_precision(net)
    with pytest.raises(ValueError, match="at the same time"):
        amp.custom_mixed_precision(net, white_list=[nn.Dense], black_list=[nn.BatchNorm1d])
    with pytest.raises(TypeError, match="Cell"):
        amp.custom_mixed_precision(net, black_list=[ops.MatMul])
    with pytest.raises(TypeError, match="class"):
        amp.custom_mixed_precision(net, white_list=["Dense"])


def test_custom_white_list_of_user_cell(mlp_factory):
    log = []
    outer = nn.SequentialCell(Probe(log=log), nn.ReLU())
    amp.custom_mixed_precision(outer, white_list=[Probe])
    out = outer(_x())
    assert log == ([("Float32", "Float32")] if _pynative() else [("Float16", "Float16")]) and out.dtype == ms.float32


def test_all_finite():
    assert bool(amp.all_finite((Tensor([1.0, 2.0]), Tensor(np.array([3.0], F16)))).asnumpy())
    assert not bool(amp.all_finite([Tensor([1.0]), Tensor(np.array([np.inf], F32))]).asnumpy())
    assert not bool(amp.all_finite((Tensor(np.array([np.nan, 1.0], F32)),)).asnumpy())
    assert amp.all_finite((Tensor([1.0]),)).dtype == ms.bool_


def test_overflow_check_operators_and_their_errors():
    """amp.all_finite is one AllFinite: integer inputs are finite, a single Tensor is taken as one input, an empty
    tuple has no overflow; UnscaleAndCheckFinite keeps each gradient's dtype and shape. Bad inputs are refused in
    MindSpore's words."""
    from mindspore import ops
    assert bool(amp.all_finite((Tensor(np.array([1, 2], np.int32)), Tensor(np.array([0.5], F16)))).asnumpy())
    assert not bool(amp.all_finite(Tensor(np.array([np.inf], F16))).asnumpy())
    assert bool(ops.AllFinite()(()).asnumpy())
    *grads, finite = ops.UnscaleAndCheckFinite()((Tensor(np.float32(3.0)), Tensor(np.full((2, 1), 8.0, F16))),
                                                 Tensor([0.25], ms.float32))
    assert bool(finite.asnumpy()) and grads[0].shape == () and grads[1].shape == (2, 1)
    assert grads[1].dtype == ms.float16 and grads[1].asnumpy().tolist() == [[2.0], [2.0]]
    with pytest.raises(TypeError, match=r"For 'AllFinite', every element of 'inputs' must be a Tensor, but got int "
                                        r"at position 1"):
        ops.AllFinite()((Tensor([1.0]), 3))
    with pytest.raises(TypeError, match=r"For 'AllFinite', the input 'inputs' must be a tuple or list of Tensors, "
                                        r"but got Tensor"):
        ops.AllFinite()(Tensor([1.0]))
    with pytest.raises(TypeError, match=r"For 'UnscaleAndCheckFinite', the type of 'grads\[0\]' must be in"):
        ops.UnscaleAndCheckFinite()((Tensor(np.array([1], np.int32)),), Tensor(1.0, ms.float32))
    with pytest.raises(ValueError, match=r"the shape of 'scale_inv' must be \(\) or \(1,\), but got \(2,\)"):
        ops.UnscaleAndCheckFinite()((Tensor([1.0]),), Tensor([1.0, 2.0], ms.float32))


def test_static_loss_scaler():
    scaler = amp.StaticLossScaler(scale_value=2 ** 10)
    scaled = scaler.scale(Tensor([1.0], ms.float32))
    assert scaled.asnumpy().tolist() == [1024.0]
    grads = (Tensor(np.array([1.5, 1.0]), ms.float16), Tensor(np.array([1.2]), ms.float16))
    unscaled = scaler.unscale(grads)
    assert [g.dtype for g in unscaled] == [ms.float16, ms.float16]
    np.testing.assert_array_equal(unscaled[0].asnumpy(), (np.array([1.5, 1.0], F16) * F16(1 / 1024)))
    assert scaler.adjust(Tensor(True)) is False
    with pytest.raises(ValueError):
        amp.StaticLossScaler(0.5)


def test_dynamic_loss_scaler_matches_reference():
    scaler = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=3)
    scale, counter = 2.0 ** 10, 0
    for finite in (True, True, False, True, True, True, True, False, False):
        assert scaler.adjust(Tensor(finite)) is True
        if finite:
            if counter == 2:
                scale *= 2
            counter = (counter + 1) % 3
        else:
            scale, counter = max(1.0, scale / 2), 0
        assert float(scaler.scale_value.asnumpy()) == scale
        assert int(scaler.counter.asnumpy()) == counter
    doc = amp.DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=1)
    grads = (Tensor(np.array([np.nan, 1.0]), ms.float16),
             Tensor(np.array([0.2]), ms.float16))
    assert doc.adjust(amp.all_finite(doc.unscale(grads)))
    assert float(doc.scale_value.asnumpy()) == 512.0


def test_loss_scale_managers():
    fixed = amp.FixedLossScaleManager()
    assert fixed.get_loss_scale() == 128.0 and fixed.get_drop_overflow_update()
    assert type(fixed.get_update_cell()).__name__ == "FixedLossScaleUpdateCell"
    assert amp.FixedLossScaleManager(1024.0, False).get_update_cell() is None
    with pytest.raises(ValueError, match=">= 1"):
        amp.FixedLossScaleManager(0.5)
    dyn = amp.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    assert type(dyn.get_update_cell()).__name__ == "DynamicLossScaleUpdateCell"
    scales = []
    for overflow in (False, False, True, False, False, False):
        dyn.update_loss_scale(overflow)
        scales.append(dyn.get_loss_scale())
    # iterations 1..6: grow when (iter - last_overflow_iter) % 2 == 0, halve on overflow
    assert scales == [16, 32, 16, 16, 32, 32]
    assert dyn.get_drop_overflow_update() is True
    assert amp.DynamicLossScaleManager().get_loss_scale() == 2 ** 24
    with pytest.raises(ValueError):
        amp.DynamicLossScaleManager(scale_window=0)
    assert isinstance(dyn, amp.LossScaleManager) and amp.LossScaleManager().get_loss_scale() is None


def test_model_updates_dynamic_manager_on_host(mlp_factory, dataset_factory, classification_data):
    x, y = classification_data
    net = mlp_factory()
    manager = amp.DynamicLossScaleManager(init_loss_scale=4, scale_factor=2, scale_window=3)
    build = functools.partial(Model, net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                              nn.Momentum(net.trainable_params(), 0.1, 0.9), loss_scale_manager=manager)
    if ms.get_context("device_target") == "CPU":
        with pytest.raises(ValueError, match="are supported on device `CPU`"):   # as 2.10
            build()
        return
    model = build()
    model.train(1, dataset_factory(x, y, batch_size=8))  # 8 clean steps: grows at iterations 3 and 6
    assert manager.get_loss_scale() == 16


def test_bfloat16_level_o3(mlp_factory):
    net = mlp_factory()
    converted = amp.auto_mixed_precision(net, "O3", dtype=ms.bfloat16)
    assert net.fc1(_x()).dtype == ms.bfloat16
    out = converted(_x())
    assert out.dtype == ms.float32
    assert np.array_equal(out.asnumpy(), ms.Tensor(out.asnumpy()).astype(ms.bfloat16).astype(ms.float32).asnumpy())


class SmallConvNet(nn.Cell):
    """Convolutions, max pooling, a Dense head and a scaled attention-like product: what amp O2 runs in half
    precision in a LeNet, a ResNet or a transformer (their backward kernels included)."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid")
        self.conv2 = nn.Conv2d(4, 4, 3, pad_mode="pad", padding=1, has_bias=False)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 3 * 3, 3)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.relu(self.bn(self.conv2(x)))
        y = self.flatten(x)
        y = y * 0.5 + ops.matmul(y, ops.transpose(y, (1, 0))).mean() * 0.125
        return self.fc(y)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_o2_trains_a_conv_net_in_half_precision(dtype):
    """Every kernel of the step returns the half-precision dtype the rules infer (amp O2 of a conv net failed on
    the CPU in Conv2DBackpropInput/Filter, MaxPoolGrad and bfloat16 Mul by a Python float), and the losses
    follow float32's."""
    def losses(level, half=None):
        ms.set_seed(3)
        net = SmallConvNet()
        rng = np.random.default_rng(1)
        for p in net.trainable_params():
            p.set_data(Tensor((rng.standard_normal(p.shape) * 0.3).astype(F32)))
        if level != "O0":
            net = amp.auto_mixed_precision(net, level, dtype=getattr(ms, half))
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
        if half == "float16":
            step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss), opt,
                                                    scale_sense=Tensor(np.float32(1024)))
        else:
            step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        step.set_train()
        x = Tensor(rng.standard_normal((4, 1, 8, 8)).astype(F32))
        y = Tensor(np.array([0, 1, 2, 1], np.int32))
        out = [step(x, y) for _ in range(4)]
        return np.array([float((o[0] if isinstance(o, tuple) else o).asnumpy()) for o in out]), net

    full, _ = losses("O0")
    half, net = losses("O2", dtype)
    assert np.all(np.isfinite(half))
    assert all(p.dtype == ms.float32 for p in net.trainable_params()), "O2 keeps float32 parameters"
    np.testing.assert_allclose(half, full, rtol=0.05, atol=0.02)


def test_bfloat16_tensor_times_a_python_float_stays_bfloat16():
    x = Tensor(np.array([1.5, -2.0, 3.0], F32)).astype(ms.bfloat16)
    for y in (x * 0.125, 0.125 * x, x + 1.0, x / 2.0, x - 0.5):
        assert y.dtype == ms.bfloat16
    np.testing.assert_array_equal((x * 0.125).astype(ms.float32).asnumpy(), [0.1875, -0.25, 0.375])


def _o2_steps(monkeypatch, eager_calls, dtype="float16", **patches):
    """Three O2 training steps of a SmallConvNet with ``patches`` set on ``mindspore.amp``: (the primitives
    dispatched eagerly, the losses, every parameter after them, the moving statistics included)."""
    with monkeypatch.context() as m:
        for name, value in patches.items():
            m.setattr(amp, name, value)
        ms.set_seed(3)
        net = SmallConvNet()
        rng = np.random.default_rng(2)
        for p in net.trainable_params():
            p.set_data(Tensor((rng.standard_normal(p.shape) * 0.3).astype(F32)))
        net = amp.auto_mixed_precision(net, "O2", dtype=getattr(ms, dtype))
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                       reduction="mean")),
                                   nn.Momentum(net.trainable_params(), 0.05, 0.9))
        step.set_train()
        x = Tensor(rng.standard_normal((4, 1, 8, 8)).astype(F32))
        y = Tensor(np.array([0, 1, 2, 1], np.int32))
        first = len(eager_calls)
        losses = [step(x, y).asnumpy() for _ in range(3)]
        return eager_calls[first:], losses, [p.asnumpy() for p in net.get_parameters()]


def _assert_same_numbers(run, other):
    assert len(run[2]) == len(other[2]) == 8
    for a, b in zip(run[1] + run[2], other[1] + other[2]):
        np.testing.assert_array_equal(a, b)


def test_pynative_o2_casts_all_parameters_in_one_operator(monkeypatch, eager_calls):
    """Under PYNATIVE the outermost converted cell casts the float32 parameters of every converted cell under it
    with one CastMany (a Cast per parameter cost an operator call each), the backward pass casts their gradients
    back as one too; losses and updated parameters are bit for bit those of a Cast per parameter."""
    if ms.get_context("mode") == ms.GRAPH_MODE:
        pytest.skip("counts the operators PYNATIVE dispatches")
    batched = _o2_steps(monkeypatch, eager_calls)
    plain = _o2_steps(monkeypatch, eager_calls, _cast_subtree_params=lambda root: {})
    _assert_same_numbers(batched, plain)
    calls, plain_calls = batched[0], plain[0]
    per_step = len(calls) // 3
    fewer_casts = sum(1 for c in plain_calls[:len(plain_calls) // 3] if c == "Cast") - \
        sum(1 for c in calls[:per_step] if c == "Cast")
    assert fewer_casts == 2 * 4          # conv1.weight, conv2.weight, fc.weight, fc.bias and their gradients (the
    #                                      convolutions have no bias; BatchNorm stays float32)
    assert calls[:per_step].count("CastMany") == 2     # the parameters, then their gradients
    assert len(plain_calls) - len(calls) == 3 * (fewer_casts - 2)
    assert amp._has_cast_many()
    # a target without a CastMany kernel of its own (a third party's) keeps a Cast per parameter
    without = _o2_steps(monkeypatch, eager_calls, _has_cast_many=lambda: False)
    assert without[0] == plain_calls
    _assert_same_numbers(without, plain)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_o2_batch_norm_takes_the_half_precision_input(monkeypatch, eager_calls, dtype):
    """Under O2 a BatchNorm cell (float32 inside) is given its float16 input as it is: its kernels compute in
    float32 and round the output once, so losses, updated parameters and moving statistics are bit for bit those of
    casting its input to float32 and its output back, with two Casts fewer per call (and per gradient)."""
    half_input = _o2_steps(monkeypatch, eager_calls, dtype)
    plain = _o2_steps(monkeypatch, eager_calls, dtype, _takes_half_input=lambda cell: False)
    _assert_same_numbers(half_input, plain)
    if ms.get_context("mode") == ms.PYNATIVE_MODE:   # one BatchNorm: its two Casts and their two gradients, per step
        assert plain[0].count("Cast") - half_input[0].count("Cast") == 3 * 4
        assert half_input[0].count("BatchNorm") == 3
