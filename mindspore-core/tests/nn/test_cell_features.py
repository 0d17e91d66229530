"""Cell features: to_float casts parameters in use, no_init_parameters keeps weights lazy, repr."""
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

pytestmark = pytest.mark.both_modes


def test_to_float_computes_in_float16_and_keeps_float32_parameters():
    net = nn.Dense(4, 2).to_float(ms.float16)
    x = ms.Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    out = net(x)
    assert out.dtype == ms.float16 and net.weight.dtype == ms.float32
    w, b = net.weight.asnumpy().astype(np.float16), net.bias.asnumpy().astype(np.float16)
    expected = (x.asnumpy().astype(np.float16) @ w.T + b).astype(np.float32)
    np.testing.assert_allclose(out.asnumpy().astype(np.float32), expected, rtol=2e-3, atol=2e-3)
    grads = ms.grad(lambda t: net(t).sum(), None, net.trainable_params())(x)
    assert [g.dtype for g in grads] == [ms.float32, ms.float32]


def test_to_float_rejects_integer_types():
    with pytest.raises(ValueError, match="dst_type"):
        nn.Dense(2, 2).to_float(ms.int32)


def test_no_init_parameters_defers_the_draw():
    with nn.no_init_parameters():
        net = nn.SequentialCell(nn.Dense(3, 4), nn.Dense(4, 2))
    assert all(p.has_init for p in net.get_parameters())
    net.init_parameters_data()
    assert not any(p.has_init for p in net.get_parameters())
    assert net(ms.Tensor(np.ones((1, 3), np.float32))).shape == (1, 2)


def test_no_init_parameters_then_load_never_needs_the_draw():
    src = nn.Dense(3, 2)
    with nn.no_init_parameters():
        dst = nn.Dense(3, 2)
    ms.load_param_into_net(dst, {p.name: p for p in src.get_parameters()})
    np.testing.assert_array_equal(dst.weight.asnumpy(), src.weight.asnumpy())


def test_seeded_draws_are_the_same_with_deferred_initialisation():
    ms.set_seed(3)
    eager = nn.Dense(3, 2).weight.asnumpy()
    ms.set_seed(3)
    with nn.no_init_parameters():
        lazy = nn.Dense(3, 2)
    np.testing.assert_array_equal(lazy.weight.init_data().asnumpy(), eager)


def test_an_optimizer_made_under_no_init_parameters_draws_nothing():
    """MindSpore's ``Parameter.clone`` of a parameter not drawn yet draws nothing: before, the optimizer's state
    clones drew the network's weights where the optimizer was made (outside the parallel network's run)."""
    with nn.no_init_parameters():
        net = nn.Dense(3, 2)
        optimizer = nn.SGD(net.trainable_params(), 1e-2, momentum=0.9)
    assert net.weight.has_init and net.bias.has_init
    accum = [p for p in optimizer.get_parameters() if p.name == "accum.weight"][0]
    assert accum.has_init
    same = net.weight.clone()
    assert same.has_init and same.shape == (2, 3) and same.name == "weight"
    np.testing.assert_array_equal(accum.asnumpy(), np.zeros((2, 3), np.float32))
    assert net.weight.has_init      # drawing a clone does not draw the original


def test_unseeded_deferred_draw_is_seeded_by_the_slice_in_parallel_modes(monkeypatch):
    """Without a global seed, a deferred parameter drawn while the auto-parallel context is SEMI_AUTO_PARALLEL
    (where MindSpore draws it, compiling the parallel network) is seeded by its slice index (0: whole) and
    ``Tensor.delta_seed``, so every rank of a job draws the same weights; outside those modes it is random."""
    seed_module = sys.modules["mindspore.common.seed"]   # (mindspore.common.seed is the function `seed`)
    monkeypatch.setattr(seed_module, "_global_seed", None)

    def draws(slice_index):
        monkeypatch.setattr(ms.Tensor, "delta_seed", 5)
        with nn.no_init_parameters():
            net = nn.SequentialCell(nn.Dense(3, 4), nn.Dense(4, 2))
        if slice_index is None:
            net.init_parameters_data()
        else:
            for p in net.get_parameters():
                ms.Tensor.init_data(p, slice_index)
        return [p.asnumpy() for p in net.get_parameters()]

    first, again = draws(0), draws(0)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    assert ms.Tensor.delta_seed == 5 + 4
    assert not np.array_equal(first[0], draws(1)[0])
    assert not np.array_equal(first[0], draws(None)[0])     # stand-alone: the unseeded stream
    mode = ms.get_auto_parallel_context("parallel_mode")
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    try:
        in_parallel = draws(None)
    finally:
        ms.set_auto_parallel_context(parallel_mode=mode)
    for a, b in zip(first, in_parallel):
        np.testing.assert_array_equal(a, b)


def test_repr_and_cls_name():
    net = nn.SequentialCell(nn.Dense(3, 4), nn.ReLU())
    assert net.cls_name == "SequentialCell"
    # MindSpore 2.10's layout (printed by its own tutorials' print(model))
    assert repr(net) == ("SequentialCell(\n  (0): Dense(input_channels=3, output_channels=4, has_bias=True)\n"
                         "  (1): ReLU()\n)")
    nested = nn.SequentialCell(nn.SequentialCell(nn.ReLU()), nn.Dense(2, 2, activation="relu"))
    assert repr(nested) == ("SequentialCell(\n  (0): SequentialCell(\n    (0): ReLU()\n  )\n"
                            "  (1): Dense(\n    input_channels=2, output_channels=2, has_bias=True, activation=ReLU()\n"
                            "    (activation): ReLU()\n  )\n)")
    conv = nn.Conv2d(1, 2, 3, pad_mode="pad", padding=1, weight_init="normal")
    assert repr(conv) == ("Conv2d(input_channels=1, output_channels=2, kernel_size=(3, 3), stride=(1, 1), "
                          "pad_mode=pad, padding=1, dilation=(1, 1), group=1, has_bias=False, weight_init=normal, "
                          "bias_init=None, format=NCHW)")
    assert repr(nn.MaxPool2d(2)) == "MaxPool2d(kernel_size=2, stride=1, pad_mode=VALID)"
    assert repr(nn.Softmax()) == "Softmax()"
    assert repr(ms.mint.nn.Linear(4, 5)) == "Linear(input_features=4, output_features=5, has_bias=True)"


def test_parameter_tuple_attributes_are_the_cells_own_parameters():
    """As in MindSpore 2.10: a ParameterTuple attribute's Parameters are trained and saved with the cell (keyed by
    their names; unnamed ones become Parameter$1, Parameter$2, ...)."""
    from mindspore import Parameter, ParameterTuple

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(2, 2)
            self.ws = ParameterTuple([Parameter(ms.Tensor([1.0]), name="w1"), Parameter(ms.Tensor([2.0]), name="w2")])
            self.same = ParameterTuple(self.d.trainable_params())      # already the cell's: listed once

        def construct(self, x):
            return self.d(x) * self.ws[0] + self.ws[1]

    net = Net()
    assert [p.name for p in net.trainable_params()] == ["w1", "w2", "d.weight", "d.bias"]

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Net()
            self.anon = ParameterTuple([Parameter(ms.Tensor([1.0])), Parameter(ms.Tensor([2.0]))])

    assert [k for k, _ in Outer().parameters_and_names()] == [
        "Parameter$1", "Parameter$2", "inner.w1", "inner.w2", "inner.d.weight", "inner.d.bias"]


def test_mint_layers_carry_mindspores_class_names():
    """2.10's mint.nn.Dropout is nn.DropoutExt, mint.nn.Hardshrink is nn.HShrink ...: print(model) shows those."""
    import pickle
    from mindspore import mint
    assert repr(mint.nn.Dropout(0.1)) == "DropoutExt()"
    assert type(mint.nn.Hardshrink()).__name__ == "HShrink" and nn.DropoutExt is mint.nn.Dropout
    assert repr(mint.nn.LayerNorm(4)) == "LayerNormExt(normalized_shape=(4,), eps=1e-05, elementwise_affine=True)"
    assert type(pickle.loads(pickle.dumps(mint.nn.Softmax(dim=1)))).__name__ == "SoftmaxExt"


def test_set_comm_fusion_sets_the_trainable_parameters_fusion_id():
    """The optimizer-parallel sample calls ``net.layer1.set_comm_fusion(0)``; 2.10's default id is 1 and its
    validator's messages are kept."""
    net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
    assert [p.comm_fusion for p in net.trainable_params()] == [1] * 4
    assert net[0].set_comm_fusion(0) is net[0]
    assert [p.comm_fusion for p in net.trainable_params()] == [0, 0, 1, 1]
    net.set_comm_fusion(2, recurse=False)   # the SequentialCell holds no parameters of its own
    assert [p.comm_fusion for p in net.trainable_params()] == [0, 0, 1, 1]
    with pytest.raises(ValueError, match=r"must be int and must >= 0, but got '-1' with type 'int'"):
        net.set_comm_fusion(-1)
    with pytest.raises(TypeError, match="The input value must be int, but got 'float'"):
        net[1].weight.comm_fusion = 1.5


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_assigning_a_tensor_to_a_parameter_attribute_updates_the_parameter(mode):
    """``self.p = tensor`` (MindCV's AdamW: ``self.beta1_power = beta1_power``), also in a cell called from another
    cell and in a method the construct calls: the Parameter takes the value and stays the cell's, as in 2.10 (PYNATIVE:
    ``set_data``; GRAPH: an Assign). Other values are refused with 2.10's message."""
    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(ms.Tensor(np.ones(1, np.float32)), name="p")
            self.u = ms.Parameter(ms.Tensor(0.0, ms.float32), name="u")

        def bump(self):
            self.u += 1
            return self.u

        def construct(self, x):
            v = self.p * 2
            self.p = v
            return x + v + self.bump()

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()

        def construct(self, x):
            return self.inner(x)

    old = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        net = Outer()
        got = [float(net(ms.Tensor(1.0)).asnumpy()[0]) for _ in range(2)]
    finally:
        ms.set_context(mode=old)
    assert got == [4.0, 7.0]
    assert isinstance(net.inner.p, ms.Parameter) and net.inner.p.asnumpy().tolist() == [4.0]
    assert float(net.inner.u.asnumpy()) == 2.0 and net.inner.trainable_params()[0] is net.inner.p
    with pytest.raises(TypeError, match=r"^Parameter 'p' already exists in network, can not assign this type: "
                                        r"'<class 'int'>' as a parameter\.$"):
        net.inner.p = 3
    with pytest.raises(TypeError, match=r"^Sub cell 'inner' already exists in network, can not assign this type: "
                                        r"'<class 'int'>' as a cell\.$"):
        net.inner = 3


def test_loss_scale_cell_has_mindspores_attributes_for_subclasses():
    """Subclasses of TrainOneStepWithLossScaleCell written for MindSpore (MindCV's TrainStep) use its
    ``hyper_map`` and primitives; boost.GradientAccumulation subclasses use ``hyper_map`` and the module's
    ``gradient_accumulation_op`` / ``gradient_clear_op``."""
    from mindspore.boost.grad_accumulation import GradientAccumulation, gradient_accumulation_op, gradient_clear_op
    net = nn.Dense(2, 1)
    opt = nn.SGD(net.trainable_params(), 0.1)
    cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt, ms.Tensor(1.0))
    for name in ("hyper_map", "reduce_sum", "reduce_all", "less_equal", "equal", "logic_not"):
        assert callable(getattr(cell, name)), name
    acc = GradientAccumulation(2, opt)
    grads = tuple(ms.Tensor(np.full(p.shape, 2.0, np.float32)) for p in net.trainable_params())
    acc.hyper_map(ops.partial(gradient_accumulation_op, 2), acc._grad_accumulation, grads)
    assert [a.asnumpy().tolist() for a in acc._grad_accumulation] == [[[1.0, 1.0]], [1.0]]
    acc.hyper_map(ops.partial(gradient_clear_op), acc._grad_accumulation)
    assert all(not a.asnumpy().any() for a in acc._grad_accumulation)


def test_apply_visits_children_first_then_the_cell():
    net = nn.SequentialCell(nn.Dense(2, 2), nn.SequentialCell(nn.ReLU(), nn.Dense(2, 1)))
    seen = []

    def init(cell):
        seen.append(type(cell).__name__)
        if isinstance(cell, nn.Dense):
            cell.weight.set_data(ms.Tensor(np.ones(cell.weight.shape, np.float32)))

    assert net.apply(init) is net
    assert seen == ["Dense", "ReLU", "Dense", "SequentialCell", "SequentialCell"]   # as in MindSpore 2.10
    assert net[1][1].weight.asnumpy().tolist() == [[1.0, 1.0]]


def test_register_buffer_as_in_2_10():
    class Rotary(nn.Cell):
        def __init__(self):
            super().__init__()
            self.register_buffer("inv_freq", ms.Tensor(np.array([1.0, 0.5], np.float32)), persistent=False)
            self.register_buffer("scale", ms.Tensor(2.0))

        def construct(self, x):
            return x * self.inv_freq * self.scale

    net = nn.SequentialCell(Rotary())
    assert net(ms.Tensor(np.ones(2, np.float32))).asnumpy().tolist() == [2.0, 1.0]
    assert [n for n, _ in net.named_buffers()] == ["0.inv_freq", "0.scale"]
    assert len(list(net.buffers())) == 2 and not list(net.get_parameters())
    assert net.get_buffer("0.scale").asnumpy() == 2.0
    assert net[0]._non_persistent_buffers_set == {"inv_freq"}
    with pytest.raises(TypeError, match="Buffer 'scale' already exists"):
        net[0].scale = ms.Tensor(3.0)
    with pytest.raises(KeyError, match="buffer name can"):
        net[0].register_buffer("a.b", None)
    with pytest.raises(AttributeError, match="is not a buffer"):
        net.get_buffer("0.training")
    net[0].register_buffer("scale", ms.Tensor(3.0))       # registering again replaces it
    assert float(net[0].scale.asnumpy()) == 3.0
    del net[0].scale
    assert [n for n, _ in net.named_buffers()] == ["0.inv_freq"]
