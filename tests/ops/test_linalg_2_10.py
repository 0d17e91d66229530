"""Matrix inverse and determinants as MindSpore 2.10 (CPU) gives them, through the public API.

The expected values were printed by real MindSpore 2.10.0 for the same calls:

* a matrix that is not invertible is not an error: ``ops.MatrixInverse``, ``ops.inverse`` and ``Tensor.inverse``
  give its rank-limited solution (LU with complete pivoting), in PYNATIVE and GRAPH mode, and so does the gradient;
* complex64/complex128 matrices: inverse, determinant, ``(sign, log|det|)`` (both complex), ``logdet`` (the
  complex logarithm), and the gradient;
* ``ops.matrix_power`` with a negative power refuses a matrix that is not invertible (ValueError);
* ``MatrixInverse`` takes float32/float64/complex64/complex128 only.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)
C = np.array([[1 + 1j, 2], [3, 4j]])


@pytest.mark.parametrize("call", [lambda x: ops.MatrixInverse()(x), ops.inverse, lambda x: x.inverse()],
                         ids=["MatrixInverse", "ops.inverse", "Tensor.inverse"])
@pytest.mark.parametrize("jit", [False, True])
def test_singular_matrices_give_the_rank_limited_solution(call, jit):
    fn = ms.jit(call) if jit else call
    x = np.array([SINGULAR, [[1.0, 0.0], [0.0, 2.0]], np.zeros((2, 2))], np.float32)
    np.testing.assert_array_equal(fn(Tensor(x)).asnumpy(),
                                  [[[0.0, 0.0], [0.0, 0.25]], [[1.0, 0.0], [0.0, 0.5]], [[0.0, 0.0], [0.0, 0.0]]])
    nines = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float64)
    np.testing.assert_allclose(fn(Tensor(nines)).asnumpy(),
                               [[-0.75, 0.0, 0.25], [0.0, 0.0, 0.0], [0.5833333333333333, 0.0, -0.0833333333333333]],
                               rtol=1e-15, atol=1e-16)


def test_gradient_at_a_singular_matrix():
    grad = ms.grad(lambda x: ops.MatrixInverse()(x).sum())(Tensor(SINGULAR))
    np.testing.assert_array_equal(grad.asnumpy(), [[0.0, 0.0], [0.0, -0.0625]])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_matrices(dtype):
    x = Tensor(C.astype(dtype))
    inv = ops.inverse(x)
    assert inv.dtype == (ms.complex64 if dtype == np.complex64 else ms.complex128)
    np.testing.assert_allclose(inv.asnumpy(), [[0.13793103396892548 - 0.3448275923728943j,
                                                0.17241379618644714 + 0.06896551698446274j],
                                               [0.2586206793785095 + 0.10344827175140381j,
                                                -0.051724135875701904 - 0.12068966031074524j]], rtol=1e-6)
    np.testing.assert_allclose(ops.det(x).asnumpy(), -10 + 4j, rtol=1e-6)
    sign, logabs = ops.slogdet(x)
    assert sign.dtype == logabs.dtype == inv.dtype
    np.testing.assert_allclose(sign.asnumpy(), -0.9284766908852594 + 0.3713906763541038j, rtol=1e-6)
    np.testing.assert_allclose(logabs.asnumpy(), 2.376795095553182 + 0j, rtol=1e-6)
    for logdet in (ops.logdet(x), x.logdet()):
        np.testing.assert_allclose(logdet.asnumpy(), 2.3768 + 2.76109j, rtol=1e-5)     # (2.10, printed to 5 places)
    sign, logabs = ops.LogMatrixDeterminant()(Tensor(np.array([[1 + 1j, 2 + 2j], [1, 2]], dtype)))
    assert sign.asnumpy() == 0 and logabs.asnumpy() == -np.inf
    np.testing.assert_allclose(ops.MatrixInverse()(Tensor(np.array([[1 + 1j, 2 + 2j], [1, 2]], dtype))).asnumpy(),
                               [[0, 0], [0.25 - 0.25j, 0]], atol=1e-7)


def test_complex_gradient():
    grad = ms.grad(lambda x: ops.MatrixInverse()(x).real().sum())(Tensor(C.astype(np.complex64)))
    np.testing.assert_allclose(grad.asnumpy(), [[-0.05648036673665047 + 0.1843044012784958j,
                                                 -0.07788345962762833 + 0.056777648627758026j],
                                                [-0.023186683654785156 + 0.04934602230787277j,
                                                 -0.024078477174043655 + 0.012782405130565166j]], rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_negative_matrix_power_of_a_singular_matrix_is_refused(dtype):
    good = np.array([[1.0, 2.0], [3.0, 4.0]], dtype)
    np.testing.assert_allclose(ops.matrix_power(Tensor(good), -1).asnumpy(), [[-2.0, 1.0], [1.5, -0.5]], rtol=1e-6)
    for bad in (SINGULAR, [[np.nan, 1.0], [1.0, 0.0]], [[1e-30, 0.0], [0.0, 1.0]] if dtype == np.float32 else
                np.zeros((2, 2))):
        with pytest.raises(ValueError, match="negative power can not apply to singular matrix"):
            ops.matrix_power(Tensor(np.array(bad, dtype)), -2)
    with pytest.raises(ValueError, match="negative power can not apply to singular matrix"):
        ops.MatrixPower(-1)(Tensor(SINGULAR[None]))


def test_matrix_inverse_dtypes():
    for dtype in (np.float16, np.int32):
        with pytest.raises(TypeError, match="MatrixInverse"):
            ops.MatrixInverse()(Tensor(np.eye(2, dtype=dtype)))


def test_cholesky_of_a_matrix_not_positive_definite_is_a_runtime_error():
    # 2.10's CPU kernel fails at run time (RuntimeError), with this message
    with pytest.raises(RuntimeError, match="Cholesky expects symmetric positive definite matrices as inputs."):
        ops.Cholesky()(Tensor(-np.eye(3)))


@pytest.mark.parametrize("lower", [True, False])
def test_triangular_solve_with_a_zero_on_the_diagonal_substitutes(lower):
    # 2.10 substitutes regardless (inf/nan where a pivot is 0) instead of failing
    got = ops.MatrixTriangularSolve(lower=lower)(Tensor(np.zeros((3, 3))), Tensor(np.ones((3, 1)))).asnumpy()
    first = 0 if lower else 2
    assert np.isinf(got[first, 0]) and np.isnan(np.delete(got[:, 0], first)).all()
    part = np.array([[1.0, 0, 0], [1, 0, 0], [1, 1, 1]])
    got = ops.MatrixTriangularSolve()(Tensor(part), Tensor(np.ones((3, 1)))).asnumpy()
    assert got[0, 0] == 1.0 and np.isnan(got[1:, 0]).all()


@pytest.mark.parametrize("k", [0, (0, 0), [1, 1]])
def test_matrix_set_diag_v3_pair_naming_one_diagonal(k):
    # k = (d, d) names one diagonal, like k = d: the diagonal tensor has one dimension less (2.10, TensorFlow)
    d = k if isinstance(k, int) else k[0]
    x = np.full((2, 3, 4), 7)
    diag = np.array([[1, 2, 3], [4, 5, 6]])
    got = ops.MatrixSetDiagV3()(Tensor(x), Tensor(diag), Tensor(np.array(k, np.int32))).asnumpy()
    want = x.copy()
    for i in range(3):
        want[:, i, i + d] = diag[:, i]
    np.testing.assert_array_equal(got, want)
    part = ops.MatrixDiagPartV3()(Tensor(got.astype(np.float64)), Tensor(np.array(k, np.int32)),
                                  Tensor(0.0, ms.float64))
    np.testing.assert_array_equal(part.asnumpy(), diag)
