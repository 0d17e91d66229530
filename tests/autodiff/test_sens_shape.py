"""``GradOperation(sens_param=True)`` with a ``sens`` whose shape differs from the output's, as MindSpore 2.10 does
it (recorded by tests/fixtures/zoo_nlp/record_sens_shape.py): GRAPH_MODE broadcasts a lower-rank or size-1 ``sens``
up to the output (the zoo's BertTrainOneStepWithLossScaleCell passes its scalar loss scale for a (1,) loss; this
raised a raw IndexError), PYNATIVE refuses it with 2.10's errors and sums a ``sens`` down to a scalar output."""
import sys
from pathlib import Path

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "zoo_nlp"
sys.path.insert(0, str(FIX))
from record_sens_shape import Grad, Net  # noqa: E402

sys.path.remove(str(FIX))

CASES = [((1,), ()), ((), (1,)), ((3,), ()), ((3,), (1,)), ((1,), (1, 1))]
# 2.10: every case gives d/dw = x * 0.5 in GRAPH_MODE
GRAPH_GRAD = [0.5, 1.0, 1.5]
# 2.10 PYNATIVE: (error type, message start) or the gradient
PYNATIVE = {
    ((1,), ()): (RuntimeError, "For grad interface or custom function, grad tensor should be broadcast to expected "
                               "shape, but got [const vector]{} vs [const vector]{1}"),
    ((), (1,)): [0.5, 1.0, 1.5],
    ((3,), ()): (RuntimeError, "For grad interface or custom function, grad tensor should be broadcast to expected "
                               "shape, but got [const vector]{} vs [const vector]{3}"),
    ((3,), (1,)): (ValueError, "The shape should be [const vector]{3}, but got [const vector]{1}"),
    ((1,), (1, 1)): (ValueError, "The shape should be [const vector]{1}, but got [const vector]{1, 1}"),
}


def _run(mode, out_shape, sens_shape):
    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
        sens = Tensor((np.arange(1, 1 + int(np.prod(sens_shape))) * 0.5).reshape(sens_shape).astype(np.float32))
        return Grad(Net(out_shape))(x, sens)[0].asnumpy()
    finally:
        ms.set_context(mode=old)


@pytest.mark.parametrize("out_shape,sens_shape", CASES)
def test_graph_mode_broadcasts_the_sens(out_shape, sens_shape):
    np.testing.assert_allclose(_run(ms.GRAPH_MODE, out_shape, sens_shape), GRAPH_GRAD)


@pytest.mark.parametrize("out_shape,sens_shape", CASES)
def test_pynative_sens_shape(out_shape, sens_shape):
    want = PYNATIVE[(out_shape, sens_shape)]
    if isinstance(want, list):
        np.testing.assert_allclose(_run(ms.PYNATIVE_MODE, out_shape, sens_shape), want)
        return
    with pytest.raises(want[0]) as err:
        _run(ms.PYNATIVE_MODE, out_shape, sens_shape)
    assert str(err.value).startswith(want[1])
