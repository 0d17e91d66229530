"""Cell.recompute and Cell.offload (mindspore/nn/_cell_memory.py): MindSpore 2.10's arguments, checks and messages;
recompute changes no value (PYNATIVE runs the cell's forward again in the backward pass, GRAPH_MODE inlines it);
offload marks the cell's primitives."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore._autodiff import recompute as recompute_module


class _Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.dense(x)) * 2


class _Net(nn.Cell):
    def __init__(self, recompute):
        super().__init__()
        self.blocks = nn.CellList([_Block() for _ in range(3)])
        if recompute:
            for block in self.blocks:
                block.recompute()

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x.sum()


def _loss_and_grads(recompute):
    ms.set_seed(0)
    net = _Net(recompute)
    x = ms.Tensor(np.random.RandomState(0).randn(3, 4).astype(np.float32))
    loss, grads = ms.value_and_grad(net, None, net.trainable_params())(x)
    return [loss.asnumpy()] + [g.asnumpy() for g in grads]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_recompute_same_values(mode, monkeypatch):
    ms.set_context(mode=mode)
    try:
        calls = []
        original = recompute_module._Recompute.bprop
        monkeypatch.setattr(recompute_module._Recompute, "bprop",
                            lambda self, *a: calls.append(1) or original(self, *a))
        plain, recomputed = _loss_and_grads(False), _loss_and_grads(True)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for a, b in zip(plain, recomputed):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    # PYNATIVE: each of the 3 blocks is run again in the backward pass; GRAPH_MODE inlines them
    assert len(calls) == (3 if mode == ms.PYNATIVE_MODE else 0)


def test_recompute_checks():
    with pytest.raises(ValueError, match="For 'recompute', keyword 'foo' is not recognized! the key kwargs must be "
                                         "'mp_comm_recompute'"):
        nn.Dense(2, 2).recompute(foo=1)
    with pytest.raises(TypeError, match="The parameter 'mp_comm_recompute' must be <class 'bool'>, but got "
                                        "<class 'int'>"):
        nn.Dense(2, 2).recompute(mp_comm_recompute=1)
    with pytest.raises(TypeError, match="The input value must be a bool, but got int."):
        nn.Dense(2, 2).recompute(output_recompute=1)
    cell = nn.Dense(2, 2)
    assert cell.recompute(mp_comm_recompute=False, parallel_optimizer_comm_recompute=True) is None
    cell.recompute()       # configured once: a second call changes nothing, as in MindSpore
    assert cell.get_flags()["output_recompute"] is False


def test_offload_marks_primitives_and_checks():
    cell = nn.Dense(2, 2)
    cell.offload(3)
    assert cell.matmul.attrs["offload"] is True and cell.matmul.attrs["backward_prefetch"] == 3
    cell.offload()
    assert cell.matmul.attrs["backward_prefetch"] == "Auto"
    with pytest.raises(ValueError, match=r"For 'Dense', the 'backward_prefetch' must be str and must be in "
                                         r"'\['Auto'\]', but got 'x'."):
        cell.offload("x")
    with pytest.raises(ValueError, match="The input value must be int and must >= 0, but got '-1' with type 'int'."):
        cell.offload(-1)
    with pytest.raises(TypeError, match="The input value must be int, but got 'float'"):
        cell.offload(1.5)
    with pytest.raises(TypeError, match="must be int and must >= 0, but got 'True' with type 'bool'"):
        cell.offload(True)


def test_missing_attribute_message():
    """MindSpore 2.10's message, e.g. for the parameter-server sample's ``net.set_param_ps()``."""
    with pytest.raises(AttributeError, match=r"^The 'Dense' object has no attribute 'place'\.$"):
        nn.Dense(2, 2).place("MS_WORKER", 0)
