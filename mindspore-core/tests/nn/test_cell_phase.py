"""``Cell.phase`` and ``Cell._phase`` as in MindSpore 2.10 (recorded by tests/fixtures/zoo_nlp3/record_cell_phase.py):
'train' at creation, ``set_train`` sets only the cell's own phase ('train' / 'predict'), ``construct`` may branch on
it. The zoo's TinyBERT ``BertModelCLS`` does (AttributeError before).

Not matched on purpose: 2.10's GRAPH reuses the graph compiled for the outer cell's phase when only an inner cell's
phase changed (it returned 10 and 1 below where its PYNATIVE returns -10 and -1); ours recompiles, as PYNATIVE runs."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn


class _Inner(nn.Cell):
    def construct(self, x):
        if self._phase == 'train':
            return x + 1
        return x - 1


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = _Inner()

    def construct(self, x):
        if self._phase == 'predict':
            return self.inner(x) * 10
        return self.inner(x)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_phase_follows_set_train_of_the_cell_itself(mode):
    ms.set_context(mode=mode)
    x = ms.Tensor(np.zeros(2, np.float32))
    net = _Outer()
    assert (net.phase, net.inner.phase) == ('train', 'train')
    np.testing.assert_array_equal(net(x).asnumpy(), [1, 1])
    net.set_train(False)
    assert (net.phase, net.inner.phase, net.inner.training) == ('predict', 'train', False)
    np.testing.assert_array_equal(net(x).asnumpy(), [10, 10])
    net.inner.set_train(False)
    assert net.inner.phase == 'predict'
    np.testing.assert_array_equal(net(x).asnumpy(), [-10, -10])    # 2.10 PYNATIVE (2.10 GRAPH: stale 10)
    net.set_train(True)
    assert (net.phase, net.inner.phase) == ('train', 'predict')
    np.testing.assert_array_equal(net(x).asnumpy(), [-1, -1])      # 2.10 PYNATIVE (2.10 GRAPH: stale 1)
    net.inner.phase = 'train'
    np.testing.assert_array_equal(net(x).asnumpy(), [1, 1])


def test_phase_must_be_a_string():
    with pytest.raises(TypeError, match=r"^For 'Cell', the property 'phase' must be string type, but got type "
                                        r"<class 'int'>\.$"):
        _Inner().phase = 1
