"""MindSpore's loading helpers under their 2.10 names and signatures (MindOne's ``load_param_into_net_with_filter``
imports them from ``mindspore.train.serialization``): ``_update_param`` and ``_load_dismatch_prefix_params``."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
from mindspore.train.serialization import _load_dismatch_prefix_params, _update_param


def _net():
    return nn.SequentialCell(nn.Dense(2, 3), nn.Dense(3, 1))


def test_prefix_loading_updates_the_missing_list_in_place():
    net = _net()
    values = {n: np.full(p.shape, i + 1.0, np.float32) for i, (n, p) in enumerate(net.parameters_and_names())}
    ckpt = {"backbone." + n: ms.Parameter(ms.Tensor(v), name="backbone." + n) for n, v in values.items()}
    missing = [p.name for p in net.get_parameters()]
    _load_dismatch_prefix_params(net, ckpt, missing, False)
    assert missing == []
    for n, p in net.parameters_and_names():
        np.testing.assert_array_equal(p.asnumpy(), values[n])


def test_update_param_casts_or_raises():
    net = _net()
    weight = net[0].weight
    _update_param(weight, ms.Parameter(ms.Tensor(np.ones((3, 2), np.float16)), name="w"), False)
    assert weight.dtype == ms.float32 and weight.asnumpy().sum() == 6
    with pytest.raises(RuntimeError, match="should have the same shape"):
        _update_param(weight, ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w"), False)
    with pytest.raises(RuntimeError, match="should have the same type"):
        _update_param(weight, ms.Parameter(ms.Tensor(np.ones((3, 2), np.float16)), name="w"), True)
