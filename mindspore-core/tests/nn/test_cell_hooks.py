"""Cell hooks (register_forward_pre_hook / forward_hook / backward_pre_hook / backward_hook): the values, call
order and gradients MindSpore 2.10 gives for the hook-programming tutorial's examples and a few more."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


class AddRelu(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x, y):
        return self.relu(x + y)


class MulRelu2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()

    def construct(self, x, y):
        return self.relu(x * y) * 2


def ones():
    return ms.Tensor(np.ones([1], np.float32))


def vals(grads):
    return [g.asnumpy().tolist() for g in grads]


def test_forward_pre_hook_sees_inputs_tuple_and_can_replace_them():
    seen = []
    net = AddRelu()
    handle = net.relu.register_forward_pre_hook(lambda cell, inputs: seen.append((cell, inputs)))
    assert net(ones(), ones()).asnumpy().tolist() == [2.0]
    assert seen[0][0] is net.relu and isinstance(seen[0][1], tuple) and seen[0][1][0].asnumpy().tolist() == [2.0]
    handle.remove()
    net.relu.register_forward_pre_hook(lambda cell, inputs: ms.Tensor(np.ones([1], np.float32)))
    # the input replaced by a constant: no gradient reaches x and y (the tutorial's second example)
    assert vals(ms.grad(net, grad_position=(0, 1))(ones(), ones())) == [[0.0], [0.0]]


def test_forward_hook_replaces_outputs_until_removed():
    net = AddRelu()
    handle = net.relu.register_forward_hook(lambda cell, inputs, outputs: outputs + outputs)
    grad_net = ms.grad(net, grad_position=(0, 1))
    assert vals(grad_net(ones(), ones())) == [[2.0], [2.0]]
    handle.remove()
    assert vals(grad_net(ones(), ones())) == [[1.0], [1.0]]


def test_backward_hooks_see_the_cell_region_in_order():
    seen = []
    net = AddRelu()
    net.relu.register_forward_pre_hook(lambda c, i: seen.append(("pre", i[0].asnumpy()[0])))
    net.relu.register_forward_hook(lambda c, i, o: (seen.append(("fwd", o.asnumpy()[0])), o + o)[1])
    net.relu.register_backward_pre_hook(lambda c, go: seen.append(("bwd_pre", len(go), go[0].asnumpy()[0])))
    net.relu.register_backward_hook(
        lambda c, gi, go: seen.append(("bwd", len(gi), gi[0].asnumpy()[0], go[0].asnumpy()[0])))
    assert vals(ms.grad(net, grad_position=(0, 1))(ones(), ones())) == [[2.0], [2.0]]
    # the output a forward hook doubled is inside the region: grad_input is 2, grad_output 1 (MindSpore 2.10)
    assert seen == [("pre", 2.0), ("fwd", 2.0), ("bwd_pre", 1, 1.0), ("bwd", 1, 2.0, 1.0)]


def test_backward_hooks_can_replace_gradients():
    x = ms.Tensor(np.array([1., -1., 2.], np.float32))
    y = ms.Tensor(np.array([3., 3., -1.], np.float32))
    net = MulRelu2()
    handle = net.relu.register_backward_hook(lambda c, gi, go: (gi[0] * 3,))
    assert vals(ms.grad(net, grad_position=(0, 1))(x, y)) == [[18.0, 0.0, 0.0], [6.0, 0.0, 0.0]]
    handle.remove()
    seen = []
    net.relu.register_backward_pre_hook(lambda c, go: (go[0] + 1,))
    net.relu.register_backward_hook(lambda c, gi, go: seen.append((gi[0].asnumpy().tolist(), go[0].asnumpy().tolist())))
    assert vals(ms.grad(net, grad_position=(0, 1))(x, y)) == [[9.0, 0.0, 0.0], [3.0, 0.0, 0.0]]
    assert seen == [([3.0, 0.0, 0.0], [3.0, 3.0, 3.0])]


def test_backward_hook_on_batchnorm_sees_input_and_output_gradients():
    seen = []

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones", pad_mode="valid")
            self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
            self.bn.register_backward_hook(lambda c, gi, go: seen.append((gi, go)))
            self.relu = nn.ReLU()

        def construct(self, x):
            return self.relu(self.bn(self.conv(x)))

    out = ms.grad(Net())(ms.Tensor(np.ones([1, 1, 2, 2], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.full((1, 1, 2, 2), 1.99999), rtol=1e-6)
    (grad_input, grad_output), = seen
    assert len(grad_input) == 1 and len(grad_output) == 1 and grad_input[0].shape == (1, 2, 1, 1)
    np.testing.assert_allclose(grad_input[0].asnumpy().ravel(), [0.999995] * 2, rtol=1e-6)
    np.testing.assert_allclose(grad_output[0].asnumpy().ravel(), [1.0] * 2)


def test_graph_mode_traces_forward_hooks_and_skips_backward_hooks():
    seen = []

    def triple_input(cell, inputs):
        return inputs[0] * 3

    def add_one(cell, inputs, outputs):
        return outputs + 1

    def record(cell, grad_input, grad_output):
        seen.append("bwd")

    net = MulRelu2()
    net.relu.register_forward_pre_hook(triple_input)
    net.relu.register_forward_hook(add_one)
    handle = net.relu.register_backward_hook(record)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert net(ones(), ones()).asnumpy().tolist() == [8.0]
        assert vals(ms.grad(net, grad_position=(0, 1))(ones(), ones())) == [[6.0], [6.0]]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert seen == []
    assert ms.jit(net)(ones(), ones()).asnumpy().tolist() == [8.0]
    # a registered backward hook turns PYNATIVE forward reuse off process-wide until removed (or the cell is
    # collected, which the compiled graphs' caches may delay): later tests must not inherit it
    handle.remove()


def test_register_rejects_non_callables():
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int"):
        nn.ReLU().register_forward_hook(3)


class Mul(nn.Cell):
    def construct(self, x, y):
        return x * y


class DenseMul(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
        self.mul = Mul()

    def construct(self, x, y):
        return self.mul(self.inner(x), y)


def test_backward_hook_grad_input_follows_what_is_differentiated():
    seen = {}

    def hook(tag):
        def fn(cell, grad_input, grad_output):
            seen[tag] = [None if g is None else g.asnumpy().ravel().tolist() for g in grad_input]
        return fn

    net = DenseMul()
    handles = [c.register_backward_hook(hook(tag)) for tag, c in (("outer", net), ("inner", net.inner),
                                                                  ("mul", net.mul))]
    x = ms.Tensor(np.array([[1., 2.]], np.float32))
    y = ms.Tensor(np.array([[3., 4.]], np.float32))
    # only the weights: a cell none of whose inputs is differentiated gets (None,); one with a differentiated
    # input gets every input's gradient (MindSpore 2.10)
    ms.grad(net, None, net.trainable_params())(x, y)
    assert seen == {"outer": [None], "inner": [None], "mul": [[3.0, 4.0], [3.0, 3.0]]}
    # a grad_position: every input of the call is differentiated, as in MindSpore 2.10
    seen.clear()
    assert ms.grad(net, 1)(x, y).asnumpy().tolist() == [[3.0, 3.0]]
    assert seen == {"outer": [[7.0, 7.0], [3.0, 3.0]], "inner": [[7.0, 7.0]], "mul": [[3.0, 4.0], [3.0, 3.0]]}
    for h in handles:
        h.remove()
