"""BinaryCrossEntropy (``nn.BCELoss``, ``ops.binary_cross_entropy``) against MindSpore 2.10's numbers near 0 and 1.

2.10's kernel adds its epsilon inside the logarithms, ``-log(x + 1e-12)``, where ours clamped, ``-log(max(x, 1e-12))``:
the MNIST GAN tutorial's discriminator losses drifted by ~1e-3 once a probability fell under 1e-9. The gradient for
the labels is ``weight (log(1 - x) - log(x))`` without the epsilon. The numbers were printed by MindSpore 2.10 (CPU).
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

X = np.array([0., 1e-13, 1e-9, 0.3, 1.], np.float32)
Y = np.array([1., 0.3, 1., 0.3, 0.], np.float32)
W = np.array([2., 2., 0.5, 3., 1.], np.float32)

# MindSpore 2.10 gives zeros for d(loss)/d(weight); the loss is linear in the weight and ours gives its true
# gradient, the element losses.
KEPT = {"weight_grad": "2.10 returns zeros for the weight's gradient; ours returns the element losses"}


def test_loss_adds_the_epsilon_inside_the_log():
    loss = ops.binary_cross_entropy(Tensor(X), Tensor(Y), Tensor(W), reduction='none')
    want = [55.262043, 16.521427, 10.361134, 1.832593, 27.631021]
    np.testing.assert_allclose(loss.asnumpy(), want, rtol=2e-6)
    x = np.array([1e-13, 1e-9, 1 - 1e-7], np.float32)
    got = nn.BCELoss(reduction='none')(Tensor(x), Tensor(np.ones(3, np.float32))).asnumpy()
    np.testing.assert_allclose(got, [27.535711, 20.722267, 1.1920929e-07], rtol=2e-6)
    got = nn.BCELoss(reduction='mean')(Tensor(np.array([1e-9, 1., .5], np.float32)),
                                       Tensor(np.array([1., 0., 1.], np.float32)))
    np.testing.assert_allclose(got.asnumpy(), 16.348812, rtol=1e-6)


def test_gradients_for_logits_and_labels():
    def f(a, b, c):
        return ops.binary_cross_entropy(a, b, c, reduction='mean')

    dx, dy, dw = ms.grad(f, grad_position=(0, 1, 2))(Tensor(X), Tensor(Y), Tensor(W))
    np.testing.assert_allclose(dx.asnumpy(), [-3.9999999e+11, -1.2000001e+11, -1.0000000e+08, 0., 2.0000000e+11],
                               rtol=1e-6)
    np.testing.assert_allclose(dy.asnumpy(), [np.inf, 11.97344, 2.0723262, 0.5083786, -np.inf], rtol=2e-6)
    elem = ops.binary_cross_entropy(Tensor(X), Tensor(Y), reduction='none').asnumpy()
    np.testing.assert_allclose(dw.asnumpy(), elem / X.size, rtol=1e-6)
