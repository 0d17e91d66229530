"""The element-wise losses, the bilinear resize gradient, PReLU and L2Normalize on float16 inputs give float16
results, equal to their float32 results rounded (the CPU kernels computed them in float32 and returned float32, which the runtime refused:
"returned dtype float32, but the inferred output is float16")."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

RNG = np.random.default_rng(7)
X = RNG.uniform(0.05, 0.95, (3, 4))
Y = (RNG.uniform(size=(3, 4)) > 0.5).astype(np.float64)
W = RNG.uniform(0.5, 1.5, (3, 4))
LOGITS = RNG.normal(size=(3, 5))
LABELS = np.array([0, 3, 4], np.int32)
IMAGE = RNG.normal(size=(1, 2, 3, 4))
GRAD = RNG.normal(size=(1, 2, 6, 8))

CASES = {
    "BinaryCrossEntropy": lambda t: ops.BinaryCrossEntropy()(t(X), t(Y), t(W)),
    "BCEWithLogitsLoss": lambda t: ops.BCEWithLogitsLoss(reduction="sum")(t(X), t(Y), t(W), t(W)),
    "SigmoidCrossEntropyWithLogits": lambda t: ops.SigmoidCrossEntropyWithLogits()(t(X), t(Y)),
    "SmoothL1Loss": lambda t: ops.SmoothL1Loss(beta=0.5)(t(X), t(Y)),
    "NLLLoss": lambda t: ops.NLLLoss(reduction="mean")(t(LOGITS), Tensor(LABELS), t(np.ones(5))),
    "KLDivLoss": lambda t: ops.KLDivLoss(reduction="sum")(t(np.log(X)), t(Y)),
    # (its gradient runs ResizeBilinearGrad)
    "ResizeBilinearV2": lambda t: ms.grad(lambda x: (ops.ResizeBilinearV2()(x, (6, 8)) * t(GRAD)).sum())(t(IMAGE)),
    "PReLU": lambda t: ops.PReLU()(t(LOGITS - 0.5), t(np.full(5, 0.25))),
    "L2Normalize": lambda t: ops.L2Normalize(axis=1)(t(LOGITS)),
}


def _flat(out):
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("name", sorted(CASES))
def test_float16_in_gives_float16_out(name):
    def tensor(dtype):
        return lambda a: Tensor(np.asarray(a, dtype))
    half = _flat(CASES[name](tensor(np.float16)))
    full = _flat(CASES[name](tensor(np.float32)))
    for h, f in zip(half, full):
        assert h.dtype == ms.float16, (name, h.dtype)
        np.testing.assert_allclose(h.asnumpy().astype(np.float32), f.asnumpy(), rtol=2e-2, atol=2e-3)
