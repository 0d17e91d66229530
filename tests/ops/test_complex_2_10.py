"""Complex numbers as MindSpore 2.10 (CPU) computes and differentiates them, on its recorded results
(``tests/fixtures/ops/complex_2.10.json``, made by ``make_complex_2_10.py`` next to it):

* elementwise functions of complex64 input: ``Abs`` keeps the complex dtype (``|z| + 0j``), ``Sign`` is ``z / |z|``,
  ``Sigmoid``, ``Log1p`` and ``Expm1`` take complex input;
* gradients follow the conjugate convention (PyTorch's): ``d real(f(z)) = conj(f'(z))``, for every function, the
  quotient and the matrix product;
* ``repr``/``str`` of complex tensors.

At ``atan``'s pole (z = -i) 2.10's gradient is 0, this project's not finite; 2.10's ``Sinc`` gradient of the
imaginary part has the other sign (it conjugates the incoming gradient as well). Where 2.10 raises for a complex gradient (``Tan``, ``Atanh``, ``Mul``, ``Square``) this project computes it by the
same convention; those are not compared here.
"""
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

_DATA = json.loads((pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ops" / "complex_2.10.json").read_text())


def dec(d):
    out = np.empty(len(d["re"]), d["dtype"])
    out.real, out.imag = d["re"], d["im"]
    return out.reshape(d["shape"])


Z, W, M = dec(_DATA["Z"]), dec(_DATA["W"]), dec(_DATA["M"])
MATRIX = {
    "adjoint": lambda m: ops.adjoint(m), "Tensor.adjoint": lambda m: m.adjoint(), "mH": lambda m: m.mH,
    "norm": lambda m: ops.norm(m), "norm_fro": lambda m: ops.norm(m, "fro"), "vector_norm": lambda m: ops.vector_norm(m),
    "matrix_norm": lambda m: ops.matrix_norm(m),
}


@pytest.mark.parametrize("name", sorted(_DATA["forward"]))
def test_forward(name):
    got = getattr(ops, name)(Tensor(Z))
    want = dec(_DATA["forward"][name])
    assert got.asnumpy().dtype == want.dtype
    np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("part", ["real", "imag"])
@pytest.mark.parametrize("name", sorted(_DATA["grad_real"]))
def test_gradient(name, part):
    if part == "imag" and name not in _DATA["grad_imag"]:
        pytest.skip("recorded for the real part only")
    if part == "imag" and name == "sinc":
        # 2.10's Sinc conjugates the incoming gradient too (the negative of i * its own real-part gradient); this
        # project keeps the convention of every other function: grad(imag) = i * grad(real)
        got_re = ms.grad(lambda z: ops.real(ops.sinc(z)).sum())(Tensor(Z)).asnumpy()
        got_im = ms.grad(lambda z: ops.imag(ops.sinc(z)).sum())(Tensor(Z)).asnumpy()
        np.testing.assert_allclose(got_im, 1j * got_re, rtol=1e-6)
        np.testing.assert_allclose(got_im, -dec(_DATA["grad_imag"]["sinc"]), rtol=2e-5, atol=1e-6)
        return
    want = _DATA["grad_real" if part == "real" else "grad_imag"][name]
    take = getattr(ops, part)
    if name in ("div", "add", "sub", "matmul"):
        fn = ops.matmul if name == "matmul" else getattr(ops, name)
        args = (Tensor(Z.reshape(2, 2)), Tensor(W.reshape(2, 2))) if name == "matmul" else (Tensor(Z), Tensor(W))
        got = ms.grad(lambda a, b: take(fn(a, b)).sum(), grad_position=(0, 1))(*args)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), dec(w), rtol=1e-5, atol=1e-6)
        return
    fn = getattr(ops, name)
    got, want = ms.grad(lambda z: take(fn(z)).sum())(Tensor(Z)).asnumpy(), dec(want)
    if name == "atan":      # z = -i is atan's pole: 2.10 gives 0 there, this project the infinite slope's inf/nan
        assert not np.isfinite(got[1])
        got, want = np.delete(got, 1), np.delete(want, 1)
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_matrix_functions(name):
    """The conjugate transpose, and norms (of the magnitudes; the 2-norm and Frobenius norm in the complex dtype)."""
    got, want = MATRIX[name](Tensor(M)).asnumpy(), dec(_DATA["matrix"][name])
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("ord_", ["nuc", 2, -2])
def test_singular_value_norms(ord_):
    """From the complex singular values, as NumPy: 2.10 takes those of the real part only (nuc 5.099 for this M, whose
    singular values 5.304 and 1.731 its own ops.svd gives), which is not copied. Real input: 2.10's values."""
    m64 = M.astype(np.complex128)
    for fn in (lambda m: ops.norm(m, ord_), lambda m: ops.matrix_norm(m, ord_)):
        got = fn(Tensor(M))
        assert got.dtype == ms.float32
        np.testing.assert_allclose(got.asnumpy(), np.linalg.norm(m64, ord_), rtol=1e-5)
    real = Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], np.float32))
    want = {"nuc": 10.507280349731445, 2: 9.838859558105469, -2: 0.6684200167655945}[ord_]   # 2.10's
    np.testing.assert_allclose(ops.norm(real, ord_).asnumpy(), want, rtol=1e-5)
    np.testing.assert_allclose(ops.norm(Tensor(np.ones((2, 2, 3), np.float32)), ord_, dim=(1, 2), keepdim=True)
                               .asnumpy(), np.linalg.norm(np.ones((2, 2, 3)), ord_, axis=(1, 2), keepdims=True),
                               rtol=1e-5, atol=1e-6)
    s, u, v = ops.svd(Tensor(M), full_matrices=False, compute_uv=True)
    assert s.dtype == ms.complex64
    np.testing.assert_allclose((u.asnumpy() * s.asnumpy()[None]) @ v.asnumpy().conj().T, M, atol=1e-5)


def test_nuclear_norm_gradient_of_a_real_matrix():
    got = ms.grad(lambda m: ops.norm(m, "nuc"))(Tensor(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]], np.float32)))
    np.testing.assert_allclose(got.asnumpy(), [[-0.6392599940299988, 0.17587000131607056, 0.7486100196838379],
                                               [0.7063000202178955, 0.5192800164222717, 0.48113998770713806]],
                               rtol=1e-4, atol=1e-5)     # 2.10's


def test_norm_gradient_is_z_over_the_norm():
    got = ms.grad(lambda m: ops.real(ops.norm(m)))(Tensor(M)).asnumpy()
    np.testing.assert_allclose(got, M / np.sqrt((np.abs(M.astype(np.complex128)) ** 2).sum()), rtol=1e-5)


def test_gradient_in_graph_mode():
    fn = ms.jit(lambda z: ops.real(ops.exp(ops.sigmoid(z))).sum())
    want = ms.grad(lambda z: ops.real(ops.exp(ops.sigmoid(z))).sum())(Tensor(Z))
    np.testing.assert_allclose(ms.grad(fn)(Tensor(Z)).asnumpy(), want.asnumpy(), rtol=1e-6)


def test_repr():
    got = [repr(Tensor(np.array([1.5 + 2.25j, -3.5 - 1j, 1e-8 + 1e10j, np.nan + np.inf * 1j], np.complex64))),
           repr(Tensor(np.array([[1.5 + 2.25j, -3.5 - 1j], [0j, 1 / 3 - 2j / 3]], np.complex128))),
           repr(Tensor(np.complex64(2 - 1j))),
           repr(Tensor(np.arange(30).astype(np.complex64))),
           str(Tensor(np.array([1 + 2j, -3.5 - 1j], np.complex64)))]
    assert got == _DATA["repr"]
