"""``kernels/linalg.py`` on the CuPy stand-in (its RawModule runs the hand-written kernel's CUDA source, built with
g++ against ``cuda_emu.h``), called straight from the kernel table:

* ``MatrixInverse`` in one launch (``ms_matrix_inverse_real``/``_complex``) gives the CPU backend's C++ kernel's
  results: float32/float64 bit for bit (invertible or not, NaN and infinity, ``adjoint``, batches, sizes past a
  block of threads), complex64/complex128 to rounding (the two divide complex numbers differently), and the ranks;
* with the hand-written kernels off, the same steps as CuPy array operations give the same numbers;
* ``MatrixPower`` with a negative power refuses a matrix that is not invertible, as MindSpore 2.10 does;
* the determinants of complex matrices (``LogMatrixDeterminant``'s sign is the phase).
"""
import pathlib
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
from mindspore.ops._defs import linalg as linalg_defs, linalg_more as linalg_more_defs  # noqa: E402
from mindspore.plugin import MSValueError  # noqa: E402

cpu_linalg = pytest.importorskip("mindspore_cpu.kernels.linalg", reason="the CPU backend's C++ kernel is the reference")

pytestmark = cupy_sim.warning_marks()


@pytest.fixture(scope="module")
def sim():
    return cupy_sim.graph_families()


def _singular_cases(dtype):
    return np.array([[[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 2, 3], [2, 4, 6], [3, 6, 9]], np.zeros((3, 3)),
                     [[np.nan, 1, 0], [1, 0, 0], [0, 0, 1]], [[np.inf, 1, 0], [1, 0, 0], [0, 0, 1]],
                     [[1e-30, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [1, 0, 0], [0, 0, 1]]], dtype)


def _cases(dtype, seed=0):
    rng = np.random.default_rng(seed)
    complex_ = np.dtype(dtype).kind == "c"
    out = [_singular_cases(dtype)]
    for n, batch in ((1, 3), (2, 4), (5, 2), (17, 2), (300, 1)):     # 300: more rows than a block has threads
        a = rng.standard_normal((batch, n, n))
        if complex_:
            a = a + 1j * rng.standard_normal((batch, n, n))
        if n > 2:
            a[0, :, 1] = a[0, :, 0] * 2              # a rank-deficient one in each batch
        out.append(a.astype(dtype))
    return out


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_inverse_is_the_cpu_kernels_bit_for_bit(sim, dtype, adjoint):
    cp, fam = sim
    for a in _cases(dtype):
        (got, rank), kinds = cupy_sim.launch_kinds(lambda: fam["linalg"].inverse_with_rank(cp.asarray(a), adjoint))
        assert kinds.count("RawKernel ms_matrix_inverse_real") == 1 and not any("ufunc" in k for k in kinds), kinds
        want, want_rank = cpu_linalg.inverse_with_rank(a, adjoint)
        np.testing.assert_array_equal(cp.asnumpy(got), want, err_msg=f"n={a.shape[-1]}")
        np.testing.assert_array_equal(cp.asnumpy(rank), want_rank)
    got, rank = fam["linalg"].inverse_with_rank(cp.asarray(_singular_cases(dtype)))
    np.testing.assert_array_equal(cp.asnumpy(rank), [2, 1, 0, 0, 0, 2, 3])
    np.testing.assert_array_equal(cp.asnumpy(got)[1], [[0, 0, 0], [0, 0, 0], [0, 0, 1 / np.asarray(9, dtype)]])
    assert not cp.asnumpy(got)[2:5].any()       # zero, NaN and infinity: rank 0, zeros (MindSpore 2.10's result)


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_inverse_is_the_cpu_kernels(sim, dtype, adjoint):
    cp, fam = sim
    tol = 1e-4 if dtype == np.complex64 else 1e-11
    for a in _cases(dtype, seed=1):
        (got, rank), kinds = cupy_sim.launch_kinds(lambda: fam["linalg"].inverse_with_rank(cp.asarray(a), adjoint))
        assert kinds.count("RawKernel ms_matrix_inverse_complex") == 1, kinds
        want, want_rank = cpu_linalg.inverse_with_rank(a, adjoint)
        got = cp.asnumpy(got)
        assert got.dtype == dtype
        np.testing.assert_array_equal(cp.asnumpy(rank), want_rank)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        scale = np.maximum(np.nan_to_num(np.abs(want)).max(axis=(-1, -2), keepdims=True), 1)
        assert np.nanmax(np.abs(got - want) / scale, initial=0) < tol, a.shape


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_without_the_kernel_the_array_steps_give_the_same(sim, dtype, monkeypatch):
    cp, fam = sim
    linalg = fam["linalg"]
    for a in _cases(dtype, seed=2)[:4]:
        for adjoint in (False, True):
            kernel, rank = linalg.inverse_with_rank(cp.asarray(a), adjoint)
            with monkeypatch.context() as m:
                m.setattr(linalg._INVERSE, "enabled", lambda: False)
                (loop, loop_rank), kinds = cupy_sim.launch_kinds(
                    lambda: linalg.inverse_with_rank(cp.asarray(a), adjoint))
            assert not any("ms_matrix_inverse" in k for k in kinds)
            np.testing.assert_array_equal(cp.asnumpy(loop_rank), cp.asnumpy(rank))
            if dtype == np.float32:
                np.testing.assert_array_equal(cp.asnumpy(loop), cp.asnumpy(kernel))
            else:
                np.testing.assert_allclose(cp.asnumpy(loop), cp.asnumpy(kernel), rtol=1e-12, atol=1e-12)


def test_empty_batches_and_matrices(sim):
    cp, fam = sim
    for shape in ((0, 3, 3), (2, 0, 0), (0, 0)):
        got, rank = fam["linalg"].inverse_with_rank(cp.asarray(np.zeros(shape, np.float32)))
        assert got.shape == shape and rank.shape == shape[:-2]
        np.testing.assert_array_equal(cp.asnumpy(rank), np.full(shape[:-2], shape[-1]))


def test_the_primitive_kernels(sim):
    cp, fam = sim
    a = np.array([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [2.0, 4.0]]], np.float32)
    got = fam["linalg"].KERNELS["MatrixInverse"](linalg_defs.MatrixInverse(), cp.asarray(a), out=None)
    np.testing.assert_array_equal(cp.asnumpy(got), [[[-2, 1], [1.5, -0.5]], [[0, 0], [0, 0.25]]])
    power = fam["linalg_more"].KERNELS["MatrixPower"]
    np.testing.assert_allclose(cp.asnumpy(power(linalg_more_defs.MatrixPower(-2), cp.asarray(a[:1]), out=None)),
                               np.linalg.matrix_power(a[:1].astype(np.float64), -2), rtol=1e-5)
    with pytest.raises(MSValueError, match="negative power can not apply to singular matrix"):
        power(linalg_more_defs.MatrixPower(-1), cp.asarray(a), out=None)


def test_complex_determinants(sim):
    cp, fam = sim
    a = np.array([[[1 + 1j, 2], [3, 4j]], [[1 + 1j, 2 + 2j], [1, 2]]], np.complex64)
    det = cp.asnumpy(fam["linalg"].KERNELS["MatrixDeterminant"](linalg_defs.MatrixDeterminant(), cp.asarray(a),
                                                                  out=None))
    np.testing.assert_allclose(det, np.linalg.det(a), rtol=1e-6, atol=1e-6)
    sign, logabs = (cp.asnumpy(r) for r in fam["linalg"].KERNELS["LogMatrixDeterminant"](
        linalg_defs.LogMatrixDeterminant(), cp.asarray(a), out=None))
    want_sign, want_log = np.linalg.slogdet(a)
    assert sign.dtype == logabs.dtype == np.complex64
    np.testing.assert_allclose(sign, want_sign, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(logabs, want_log.astype(np.complex64), rtol=1e-6)   # -inf for the singular one
