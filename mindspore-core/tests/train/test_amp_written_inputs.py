"""Mixed precision never casts an input an operator writes in place (MindSpore's RW_WRITE inputs).

Under ``Cell.to_float(float16)`` (and amp O2/O3 with ``keep_batchnorm_fp32=False``, as model-zoo VGG16 trains) a
cell's float parameters are read in float16, but BatchNorm's moving statistics and an Assign's variable are written
by the operator: MindSpore leaves those inputs uncast, so the writes reach the float32 Parameters. Expected numbers
were recorded from MindSpore 2.10 (CPU).
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops

MODES = [ms.GRAPH_MODE, ms.PYNATIVE_MODE]
X = np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2)
# 2.10: moving = 0.9 * moving + 0.1 * batch (unbiased variance)
MEAN, VAR = [0.55, 0.95], [2.8714287, 2.8714287]


@pytest.fixture(params=MODES, ids=["graph", "pynative"])
def mode(request):
    old = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=old)


def test_batchnorm_to_float16_updates_moving_statistics(mode):
    bn = nn.BatchNorm2d(2)
    bn.to_float(ms.float16)
    bn.set_train()
    y = bn(Tensor(X))
    assert y.dtype == ms.float16
    np.testing.assert_allclose(y.asnumpy().ravel()[:4], [-1.324, -1.083, -0.843, -0.602], atol=1e-3)
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), MEAN, rtol=1e-6)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), VAR, rtol=1e-6)
    assert bn.moving_mean.dtype == ms.float32


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Dense(8, 3)
        self.flat = nn.Flatten()
        self.fc.weight.set_data(Tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(3, 8)))
        self.fc.bias.set_data(Tensor(np.array([0.1, -0.2, 0.3], np.float32)))

    def construct(self, x):
        return self.fc(self.flat(self.bn(x)))


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_amp_without_fp32_batchnorm_trains_moving_statistics(mode, level):
    net = _Net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    train = ms.amp.build_train_network(net, opt, loss, level=level, keep_batchnorm_fp32=False,
                                       loss_scale_manager=None)
    train.set_train()
    out = train(Tensor(X), Tensor(np.array([0, 2], np.int32)))
    # 2.10: 0.0031843693 (GRAPH), 0.0031775506 (PYNATIVE); float16 rounding apart
    np.testing.assert_allclose(out.asnumpy(), 0.00318, atol=2e-5)
    np.testing.assert_allclose(net.bn.moving_mean.asnumpy(), MEAN, rtol=1e-6)
    np.testing.assert_allclose(net.bn.moving_variance.asnumpy(), VAR, rtol=1e-6)


class _Acc(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = Parameter(Tensor(np.zeros(3, np.float32)), name="total", requires_grad=False)
        self.w = Parameter(Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, x):
        ops.assign_add(self.total, x)
        return x * self.w


def test_assign_in_float16_cell_writes_the_parameter(mode):
    cell = _Acc()
    cell.to_float(ms.float16)
    x = Tensor(np.array([1.5, 2.25, -3.0], np.float32))
    cell(x)
    y = cell(x)
    assert y.dtype == ms.float16
    np.testing.assert_array_equal(cell.total.asnumpy(), [3.0, 4.5, -6.0])
    assert cell.total.dtype == ms.float32
