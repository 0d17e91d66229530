"""``mindspore.train.amp``: MindSpore's module path of mixed precision, with the names libraries import from it
(MindOne: ``AMP_WHITE_LIST``, ``AMP_BLACK_LIST``, ``_auto_black_list``, ``_auto_mixed_precision_rewrite``)."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.train import amp as train_amp


def test_module_names_as_in_2_10():
    assert [c.__name__ for c in train_amp.AMP_BLACK_LIST] == ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
                                                                "LayerNorm"]
    assert [c.__name__ for c in train_amp.AMP_WHITE_LIST] == [
        "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense", "LSTMCell",
        "RNNCell", "GRUCell", "Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput",
        "MatMul", "BatchMatMul", "PReLU", "ReLU", "Ger"]
    assert train_amp.auto_mixed_precision is ms.amp.auto_mixed_precision
    assert not hasattr(train_amp, "_auto_white_list")   # as in 2.10, which MindOne tests to pick the rewrite path


def _net():
    net = nn.SequentialCell(nn.Dense(3, 4), nn.LayerNorm((4,)), nn.Dense(4, 2))
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.linspace(-1, 1, int(np.prod(p.shape))).reshape(p.shape).astype(np.float32)))
    return net


def test_rewrite_by_white_list_and_black_list():
    x = ms.Tensor(np.array([[0.5, -1.0, 2.0]], np.float32))
    want = _net()(x).asnumpy()
    white = train_amp._auto_mixed_precision_rewrite(_net(), ms.float16, white_list=train_amp.AMP_WHITE_LIST)
    out = white(x)
    assert out.dtype == ms.float32      # a white-list cell hands float32 on
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-2, atol=1e-2)
    black = train_amp._auto_black_list(_net(), train_amp.AMP_BLACK_LIST, ms.float16)
    assert black(x).dtype == ms.float16
    with pytest.raises(ValueError, match="one of white_list and black_list must be provided"):
        train_amp._auto_mixed_precision_rewrite(_net(), ms.float16)


def test_amp_strategy_values_as_in_2_10():
    from mindspore._c_expression.amp import AmpLevel, create_amp_strategy   # where MindOne's diffusers import them
    assert create_amp_strategy is train_amp.create_amp_strategy
    assert [m.name for m in AmpLevel] == ["AmpO0", "AmpO1", "AmpO2", "AmpO3", "AmpAuto"]
    assert AmpLevel.AmpO3.value == 3
    strategy = create_amp_strategy(AmpLevel.AmpO1, ms.bfloat16, [("MatMul", [0, 1])], [("Exp", [0])])
    assert strategy.get_amp_level() is AmpLevel.AmpO1 and strategy.get_amp_dtype() == ms.bfloat16
    assert strategy.get_white_list() == [("MatMul", [0, 1])] and strategy.get_black_list() == [("Exp", [0])]
    assert create_amp_strategy(AmpLevel.AmpO3, None, [], []).get_amp_dtype() is None
    for bad in (("O3", ms.float16, [], []), (AmpLevel.AmpO3, ms.float16, None, None)):
        with pytest.raises(TypeError, match="incompatible function arguments"):
            create_amp_strategy(*bad)
