"""``matrix_inverse`` (C++, LU with complete pivoting): MindSpore 2.10's CPU results, invertible or not.

* the values real MindSpore 2.10 (CPU) printed for matrices that are not invertible, for NaN and infinity, for
  ``adjoint`` and for complex input;
* bit for bit the per-matrix oracle of the conformance suite (``tests/conformance/cases_math_ext.py``), which writes
  the same steps out in NumPy, on random matrices with and without full rank;
* LAPACK's inverse (``numpy.linalg.inv``) to rounding on invertible ones, every dtype;
* the same bits on one thread and on the team (a batch split across it, a lone large matrix's updates split);
* the ranks, and bad arguments refused.
"""
import pathlib
import sys

import numpy as np
import pytest

k = pytest.importorskip("mindspore_cpu._kernels")
from mindspore_cpu.kernels.linalg import inverse_with_rank  # noqa: E402

_CONFORMANCE = pathlib.Path(__file__).resolve().parents[2] / "tests" / "conformance"
if not _CONFORMANCE.is_dir():
    pytest.skip("the monorepo's conformance oracles are not here", allow_module_level=True)
sys.path.insert(0, str(_CONFORMANCE))
from cases_math_ext import _full_pivot_inverse  # noqa: E402

# What MindSpore 2.10.0 (CPU, float32) returned: ops.MatrixInverse()(x).asnumpy().tolist()
MS210 = [
    ([[1.0, 2.0], [2.0, 4.0]], False, [[0.0, 0.0], [0.0, 0.25]]),
    ([[0.0, 0.0], [0.0, 0.0]], False, [[0.0, 0.0], [0.0, 0.0]]),
    ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], False,
     [[-0.7499999403953552, 0.0, 0.2499999701976776], [-0.0, 0.0, 0.0], [0.5833333134651184, 0.0, -0.0833333358168602]]),
    ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], True,
     [[-0.7499999403953552, 0.0, 0.5833333134651184], [-0.0, 0.0, 0.0], [0.2499999850988388, 0.0, -0.083333320915699]]),
    ([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 6.0, 9.0]], False,
     [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.1111111119389534]]),
    ([[0.0, 1.0], [1.0, 0.0]], False, [[0.0, 1.0], [1.0, 0.0]]),
    ([[1e-30, 0.0], [0.0, 1.0]], False, [[0.0, 0.0], [0.0, 1.0]]),
    ([[np.nan, 1.0], [1.0, 0.0]], False, [[0.0, 0.0], [0.0, 0.0]]),
    ([[np.inf, 1.0], [1.0, 0.0]], False, [[0.0, 0.0], [0.0, 0.0]]),
    ([[1e30, 2e30], [3e30, 4e30]], False,
     [[-2.00000019442125e-30, 1.000000097210625e-30], [1.5000000047566153e-30, -5.000000015855384e-31]]),
    ([[1.0, 2.0], [3.0, 4.0]], True, [[-2.0, 1.5], [1.0, -0.5]]),
]
MS210_COMPLEX = [   # complex64 / complex128
    ([[1 + 1j, 2], [3, 4j]], False, [[0.13793103396892548 - 0.3448275923728943j, 0.17241379618644714 + 0.06896551698446274j],
                                     [0.2586206793785095 + 0.10344827175140381j, -0.051724135875701904 - 0.12068966031074524j]]),
    ([[1 + 1j, 2], [3, 4j]], True, [[0.13793103396892548 + 0.3448275923728943j, 0.2586206793785095 - 0.10344827175140381j],
                                    [0.17241379618644714 - 0.06896551698446274j, -0.051724135875701904 + 0.12068966031074524j]]),
    ([[1 + 1j, 2 + 2j], [1, 2]], False, [[0j, 0j], [0.25 - 0.25j, 0j]]),
]


@pytest.mark.parametrize("x,adjoint,want", MS210)
def test_mindspore_210_float32_results(x, adjoint, want):
    got, _ = k.matrix_inverse(np.array(x, np.float32), adjoint)
    np.testing.assert_array_equal(got, np.array(want, np.float32))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("x,adjoint,want", MS210_COMPLEX)
def test_mindspore_210_complex_results(x, adjoint, want, dtype):
    got, _ = k.matrix_inverse(np.array(x, dtype), adjoint)
    assert got.dtype == dtype
    np.testing.assert_allclose(got, np.array(want), rtol=1e-6, atol=1e-7)


def _random(dtype, n, batch, seed, deficient):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((batch, n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((batch, n, n))
    if deficient and n > 1:
        a[:, :, -1] = a[:, :, 0] - a[:, :, 1 % n]      # rank n - 1 (up to rounding)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("deficient", [False, True])
def test_bit_for_bit_the_oracle(dtype, adjoint, deficient):
    for n in (1, 2, 3, 7):
        a = _random(dtype, n, 5, seed=n, deficient=deficient)
        got, _ = k.matrix_inverse(a, adjoint)
        np.testing.assert_array_equal(got, _full_pivot_inverse(a, adjoint), err_msg=f"n={n}")


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-4), (np.float64, 1e-11), (np.complex64, 1e-4),
                                       (np.complex128, 1e-11)])
@pytest.mark.parametrize("adjoint", [False, True])
def test_invertible_matrices_match_lapack(dtype, tol, adjoint):
    for n, batch in ((1, 4), (4, 6), (33, 2), (150, 1)):
        a = _random(dtype, n, batch, seed=10 + n, deficient=False) + 4 * np.eye(n, dtype=dtype)
        got, rank = k.matrix_inverse(a, adjoint)
        want = np.linalg.inv(np.conj(np.swapaxes(a, -1, -2)) if adjoint else a)
        assert got.dtype == dtype and got.shape == a.shape
        np.testing.assert_array_equal(rank, np.full((batch,), n))
        assert np.abs(got - want).max() / np.abs(want).max() < tol


def test_ranks():
    a = np.array([np.eye(3), np.zeros((3, 3)), [[1, 2, 3], [2, 4, 6], [1, 1, 1]], [[np.nan, 0, 0], [0, 1, 0],
                                                                                   [0, 0, 1]]])
    _, rank = k.matrix_inverse(a, False)
    assert rank.dtype == np.int64
    np.testing.assert_array_equal(rank, [3, 0, 2, 0])
    got, rank = k.matrix_inverse(np.zeros((2, 4, 0, 0), np.float32), False)
    assert got.shape == (2, 4, 0, 0) and rank.shape == (2, 4) and not rank.any()


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_the_team_gives_the_same_bits(dtype):
    batched = _random(dtype, 6, 12000, seed=5, deficient=False)       # split across the team
    lone = _random(dtype, 360, 1, seed=6, deficient=True)              # its trailing updates and solves split
    before = k.num_threads()
    try:
        k.set_num_threads(1)
        serial = [k.matrix_inverse(a, adj)[0] for a in (batched, lone) for adj in (False, True)]
        k.set_num_threads(2)
        team = [k.matrix_inverse(a, adj)[0] for a in (batched, lone) for adj in (False, True)]
    finally:
        k.set_num_threads(before)
    for s, t in zip(serial, team):
        np.testing.assert_array_equal(s, t)


def test_inverse_with_rank_takes_any_layout():
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float64)
    for view in (np.asfortranarray(a), a.astype(a.dtype.newbyteorder(">")), np.stack([a, a], -1)[..., 0]):
        got, rank = inverse_with_rank(view)
        np.testing.assert_array_equal(got, [[-2.0, 1.0], [1.5, -0.5]])
        assert rank == 2


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="float32, float64, complex64 or complex128"):
        k.matrix_inverse(np.eye(2, dtype=np.int32), False)
    with pytest.raises(ValueError, match="square"):
        k.matrix_inverse(np.zeros((2, 3)), False)
    with pytest.raises(ValueError, match="C-contiguous"):
        k.matrix_inverse(np.asfortranarray(np.arange(4.0).reshape(2, 2)), False)
