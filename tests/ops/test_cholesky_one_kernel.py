"""``ops.cholesky`` is the ``Cholesky`` kernel, not a composition of O(n^3) scalar operators: the model zoo's
ResNet ``thor`` optimizer factors 256-wide matrices in GRAPH_MODE, which took minutes to stage (2.10 runs one
Cholesky kernel). Values against 2.10 are in tests/ops/test_linalg_2_10.py; this checks the size it now handles."""
import time

import numpy as np

import mindspore as ms
from mindspore import ops


def test_cholesky_96_graph_mode_is_one_kernel_fast():
    r = np.random.RandomState(0)
    a = r.randn(96, 96)
    a = (a @ a.T + 96 * np.eye(96)).astype(np.float32)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        t0 = time.perf_counter()
        lower = ms.jit(lambda x: ops.cholesky(x))(ms.Tensor(a)).asnumpy()
        upper = ms.jit(lambda x: ops.cholesky(x, upper=True))(ms.Tensor(a)).asnumpy()
        took = time.perf_counter() - t0
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    want = np.linalg.cholesky(a.astype(np.float64))
    np.testing.assert_allclose(lower, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(upper, want.T, rtol=1e-5, atol=1e-5)
    assert took < 10, f"staging and running two 96x96 Cholesky factors took {took:.1f} s"
