"""``mindspore_cpu._kernels.matmul`` (the packed GEMM behind MatMul / BatchMatMul) against NumPy.

The reference is NumPy's float64 ``matmul`` (OpenBLAS), an independent implementation. float32
results must agree to 1e-5 of the output's scale, float64 to 1e-12. Shapes cover every path of
_csrc/matmul.cpp: serial and parallel, batch-parallel and block-parallel (split along M and along N),
the narrow-N transposed path, transposed operands, edge tiles, and empty dimensions.
"""
import pickle

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

k = pytest.importorskip("mindspore_cpu._kernels")

RNG = np.random.default_rng(7)


def _close(got, want, dtype):
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    tol = 1e-5 if dtype == np.float32 else 1e-12
    assert got.dtype == dtype
    assert got.shape == want.shape
    assert np.max(np.abs(got.astype(np.float64) - want), initial=0.0) <= tol * scale


def _operands(batch, m, kk, n, ta, tb, dtype):
    a = RNG.standard_normal(batch + ((kk, m) if ta else (m, kk))).astype(dtype)
    b = RNG.standard_normal(batch + ((n, kk) if tb else (kk, n))).astype(dtype)
    ref = np.matmul(np.swapaxes(a, -1, -2) if ta else a, np.swapaxes(b, -1, -2) if tb else b, dtype=np.float64)
    return a, b, ref


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("batch,m,kk,n", [
    ((), 1, 1, 1),
    ((), 7, 13, 5),          # smaller than one register tile
    ((), 37, 300, 70),       # edge tiles, K over one packed slice
    ((), 128, 512, 10),      # narrow N: computed transposed
    ((), 300, 64, 260),      # parallel, split along M
    ((), 64, 200, 700),      # parallel, split along N
    ((3,), 40, 50, 60),      # batch, serial
    ((2, 3), 64, 96, 128),   # batch >= threads: whole items per thread
    ((1,), 256, 128, 256),   # one big item: split inside it
])
def test_matmul_matches_numpy(batch, m, kk, n, ta, tb, dtype):
    a, b, ref = _operands(batch, m, kk, n, ta, tb, dtype)
    _close(k.matmul(a, b, ta, tb), ref, dtype)


def test_matmul_empty_dimensions():
    assert k.matmul(np.ones((0, 3), np.float32), np.ones((3, 4), np.float32)).shape == (0, 4)
    out = k.matmul(np.ones((2, 0), np.float32), np.ones((0, 4), np.float32))
    assert out.shape == (2, 4) and not out.any()


def test_matmul_propagates_inf_and_nan():
    a = np.array([[np.inf, 1.0], [np.nan, 0.0], [1.0, 2.0]], np.float32)
    b = np.array([[1.0, 0.0], [1.0, 1.0]], np.float32)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(k.matmul(a, b), a @ b)


def test_matmul_accepts_equal_but_distinct_dtypes_and_rejects_others():
    a = pickle.loads(pickle.dumps(np.ones((3, 4), np.float32)))   # its own dtype object
    np.testing.assert_array_equal(k.matmul(a, np.ones((4, 2), np.float32)), np.full((3, 2), 4.0, np.float32))
    with pytest.raises(ValueError, match="float32 and float64"):
        k.matmul(np.ones((3, 4), ">f4"), np.ones((4, 2), ">f4"))
    with pytest.raises(ValueError, match="same dtype"):
        k.matmul(np.ones((3, 4), np.float32), np.ones((4, 2), np.float64))
    with pytest.raises(ValueError, match="inner dimensions"):
        k.matmul(np.ones((3, 4), np.float32), np.ones((5, 2), np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        k.matmul(np.ones((4, 3), np.float32).T, np.ones((4, 2), np.float32))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
def test_matmul_primitives_use_every_operand_layout(dtype):
    """MatMul / BatchMatMul through the kernel registry: transposed views, broadcast batches and a
    2-D weight under a 3-D input give NumPy's numbers in every dtype (half and ints stay on NumPy)."""
    x = RNG.standard_normal((4, 6, 5)).astype(dtype)
    w = RNG.standard_normal((7, 5)).astype(dtype)
    want = np.matmul(x.astype(np.float64), w.T.astype(np.float64))
    got = ops.matmul(ms.Tensor(x), ms.Tensor(w).T).asnumpy()
    tol = 1e-2 if dtype == np.float16 else 1e-5
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)
    y = RNG.standard_normal((1, 5, 3)).astype(dtype)
    got = ops.BatchMatMul()(ms.Tensor(x), ms.Tensor(y)).asnumpy()   # batch 1 broadcasts to 4
    np.testing.assert_allclose(got.astype(np.float64), np.matmul(x.astype(np.float64), y.astype(np.float64)),
                               rtol=tol, atol=tol)
    got = ops.MatMul(transpose_a=True)(ms.Tensor(x[0].T.copy()), ms.Tensor(w.T.copy())).asnumpy()
    np.testing.assert_allclose(got.astype(np.float64), x[0].astype(np.float64) @ w.T.astype(np.float64),
                               rtol=tol, atol=tol)
