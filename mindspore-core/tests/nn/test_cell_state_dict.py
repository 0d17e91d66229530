"""Cell.state_dict / Cell.load_state_dict as in MindSpore 2.10 (the model-migration tutorial's
``ms_model.load_state_dict(ms.load_checkpoint(path))``); the expected values are what 2.10 gave for this code."""
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 3)
        self.w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")


def test_state_dict_keys_are_attribute_paths_of_references():
    net = Net()
    sd = net.state_dict()
    assert type(sd).__name__ == "OrderedDict" and list(sd) == ["w", "fc.weight", "fc.bias"] and sd["w"] is net.w
    # under an auto_prefix=False wrapper the path differs from the parameter's name
    wrapped = nn.WithLossCell(net, nn.MSELoss())
    assert list(wrapped.state_dict()) == ["_backbone.w", "_backbone.fc.weight", "_backbone.fc.bias"]
    assert [p.name for p in wrapped.trainable_params()] == ["w", "fc.weight", "fc.bias"]
    with pytest.warns(FutureWarning, match="Positional args are being deprecated"):
        assert list(net.state_dict(None, "pre.")) == ["pre.w", "pre.fc.weight", "pre.fc.bias"]


def test_load_state_dict_copies_casts_and_reports_keys():
    net = Net()
    res = net.load_state_dict({"fc.weight": ms.Tensor(np.full((3, 2), 2.0, np.float64)),
                               "fc.bias": ms.Tensor(np.zeros(3, np.float32)), "w": ms.Tensor(np.zeros(2, np.float32))})
    assert repr(res) == "<All keys matched successfully>" and res == ([], [])
    assert net.fc.weight.dtype == ms.float32
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), np.full((3, 2), 2.0, np.float32))
    # not strict: loaded what matches; missing and unexpected keys are still reported
    res = net.load_state_dict({"fc.weight": ms.Tensor(np.ones((3, 2), np.float32)), "extra": ms.Tensor(1.0)},
                              strict=False)
    assert repr(res) == "_IncompatibleKeys(missing_keys=['w', 'fc.bias'], unexpected_keys=['extra'])"
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), np.ones((3, 2), np.float32))
    wrapped = nn.WithLossCell(net, nn.MSELoss())
    res = wrapped.load_state_dict({"_backbone.w": ms.Tensor(np.full(2, 5.0, np.float32))}, strict=False)
    assert res.missing_keys == ["_backbone.fc.weight", "_backbone.fc.bias"] and not res.unexpected_keys
    np.testing.assert_array_equal(net.w.asnumpy(), [5.0, 5.0])


def test_load_state_dict_errors():
    net = Net()
    with pytest.raises(RuntimeError) as e:
        net.load_state_dict({"fc.weight": ms.Tensor(np.zeros((2, 2), np.float32)), "extra": ms.Tensor(1.0),
                             "fc.x.y": 1})
    assert str(e.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "w", "fc.bias". \n\tUnexpected '
        'key(s) in state_dict: "extra", "fc.x.y". \n\tsize mismatch for fc.weight: copying a param with shape (2, 2) '
        'from checkpoint, the shape in current model is (3, 2).')
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like, got <class 'list'>."):
        net.load_state_dict([1])
    with pytest.raises(RuntimeError, match='While copying the parameter named "w", expected Tensor or Tensor-like'):
        net.load_state_dict({"w": np.zeros(2)}, strict=False)


def test_load_state_dict_from_checkpoint(tmp_path):
    src, dst = Net(), Net()
    src.fc.weight.set_data(ms.Tensor(np.arange(6, dtype=np.float32).reshape(3, 2)))
    path = os.path.join(tmp_path, "net.ckpt")
    ms.save_checkpoint(src, path)
    assert repr(dst.load_state_dict(ms.load_checkpoint(path))) == "<All keys matched successfully>"
    for a, b in zip(src.trainable_params(), dst.trainable_params()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_persistent_buffers_are_in_the_state_dict_as_in_2_10():
    import mindspore as ms
    from mindspore import nn

    class WithBuffers(nn.Cell):
        def __init__(self):
            super().__init__()
            self.d = nn.Dense(2, 1)
            self.register_buffer("a", ms.Tensor(1.0))
            self.register_buffer("b", ms.Tensor(2.0), persistent=False)

    net = WithBuffers()
    state = net.state_dict()
    assert list(state) == ["a", "d.weight", "d.bias"]          # 2.10's order; the non-persistent 'b' left out
    state["a"] = ms.Tensor(5.0)
    assert net.load_state_dict(state) == ([], [])
    assert float(net.a.asnumpy()) == 5.0
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "a"'):
        net.load_state_dict({k: v for k, v in state.items() if k != "a"})
