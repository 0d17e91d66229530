"""``mindspore.numpy.fft`` against real MindSpore 2.10 (values recorded by ``make_numpy_fft_fixture.py``),
its gradients against finite differences, and GRAPH_MODE against PYNATIVE."""
import json
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
import mindspore.numpy as mnp

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from make_numpy_fft_fixture import CASES, inputs  # noqa: E402

FIXTURE = np.load(pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "numpy_fft_msref.npz")
ERRORS = json.loads(str(FIXTURE["__errors__"]))
F = mnp.fft


def _env():
    env = {"F": F, "T": ms.Tensor, "ms": ms, "np": np}
    env.update(inputs())
    return env


#: cases where we keep the right answer: MindSpore 2.10's ``mindspore.numpy.fft.ihfftn`` calls ``ops.hfftn`` (its
#: source returns ``ops.hfftn(a, s, axes, norm)``), so it answers hfftn's real numbers instead of the inverse
IHFFTN = sorted(c[0] for c in CASES if c[0].startswith("ihfftn"))
#: MindSpore 2.10's rfft of a complex (3, 4, 5) input returns the first 36 values of the flattened (3, 4, 5) full
#: FFT reshaped to (3, 4, 3) (a buffer misread): we raise TypeError (a real input is needed, as in NumPy/PyTorch)
KEPT = set(IHFFTN) | {"rfft_complex"}


def test_rfft_of_complex_input_is_refused_where_mindspore_misreads_its_buffer():
    z = inputs()["z"]
    with pytest.raises(TypeError):
        F.rfft(ms.Tensor(z))
    np.testing.assert_allclose(FIXTURE["rfft_complex"], np.fft.fft(z).ravel()[:36].reshape(3, 4, 3),
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("case_id,expr", [c for c in CASES if c[0] in IHFFTN], ids=IHFFTN)
def test_ihfftn_is_the_inverse_of_hfftn_where_mindspore_answers_hfftn(case_id, expr):
    env = _env()
    norm = {"None": None}.get(case_id.rsplit("_", 1)[1], case_id.rsplit("_", 1)[1])
    swapped = {None: "forward", "forward": "backward", "ortho": "ortho"}[norm]
    x = env["x"].astype(np.float64)
    kw = {"s": (2, 6), "axes": (1, 2)} if "_s_" in case_id else {}
    np.testing.assert_allclose(eval(expr, env).asnumpy(), np.conj(np.fft.rfftn(x, norm=swapped, **kw)),  # noqa: S307
                               rtol=1e-4, atol=1e-4)
    # what MindSpore recorded is hfftn of the same arguments
    np.testing.assert_allclose(FIXTURE[case_id], F.hfftn(ms.Tensor(env["x"]), norm=norm, **kw).asnumpy(),
                               rtol=1e-4, atol=1e-4)
    y = eval(expr, env)  # noqa: S307
    if not kw:
        np.testing.assert_allclose(F.hfftn(y, s=env["x"].shape, norm=norm).asnumpy(), env["x"], atol=1e-4)


@pytest.mark.parametrize("case_id,expr", [c for c in CASES if c[0] not in KEPT],
                         ids=[c[0] for c in CASES if c[0] not in KEPT])
def test_against_mindspore(case_id, expr):
    env = _env()
    if case_id in ERRORS:
        with pytest.raises(getattr(__import__("builtins"), ERRORS[case_id])):
            eval(expr, env)  # noqa: S307 - our own case table
        return
    out = eval(expr, env)  # noqa: S307
    want = FIXTURE[case_id]
    assert str(out.dtype) == str(FIXTURE[case_id + "__dtype"])
    got = out.asnumpy()
    assert got.shape == want.shape
    tol = 2e-2 if "f16" in case_id else (1e-9 if want.dtype in (np.float64, np.complex128) and "freq" not in case_id
                                         else 1e-4)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def test_every_name_is_covered():
    called = {expr.split("(")[0][2:] for _, expr in CASES}
    assert called == set(F.__all__)


def test_fft_is_the_numpy_fft_for_every_length():
    rng = np.random.default_rng(3)
    for n in range(1, 12):
        x = rng.standard_normal(n).astype(np.float32)
        np.testing.assert_allclose(F.fft(ms.Tensor(x)).asnumpy(), np.fft.fft(x), atol=1e-4)
        np.testing.assert_allclose(F.irfft(F.rfft(ms.Tensor(x)), n=n).asnumpy(), x, atol=1e-5)


def _numeric_grad(f, x, eps=1e-3):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[i] += eps
        xm[i] -= eps
        g[i] = (f(xp) - f(xm)) / (2 * eps)
    return g


@pytest.mark.parametrize("name", ["fft", "rfft", "ihfft", "fft2"])
def test_gradient_of_power_spectrum_matches_finite_differences(name):
    x = np.random.default_rng(4).standard_normal((3, 4)).astype(np.float64)
    w = np.linspace(0.5, 1.5, 12).reshape(3, 4)

    def loss(t):
        y = getattr(F, name)(t)
        re, im = ops.real(y), ops.imag(y)
        k = y.shape[-1]
        return ((re * re + im * im) * ms.Tensor(w[:, :k] if y.ndim == 2 else w)).sum()

    got = ms.grad(loss)(ms.Tensor(x)).asnumpy()
    want = _numeric_grad(lambda a: float(loss(ms.Tensor(a)).asnumpy()), x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_gradient_of_irfft_matches_finite_differences():
    x = np.random.default_rng(5).standard_normal((2, 6)).astype(np.float64)

    def loss(t):
        y = F.irfft(ops.cast(t, ms.complex128), n=8)
        return (y * y * ms.Tensor(np.arange(8.0))).sum()

    got = ms.grad(loss)(ms.Tensor(x)).asnumpy()
    want = _numeric_grad(lambda a: float(loss(ms.Tensor(a)).asnumpy()), x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_graph_mode_matches_pynative():
    x = ms.Tensor(inputs()["x"])

    class Net(ms.nn.Cell):
        def construct(self, a):
            return F.irfftn(F.rfftn(a), s=a.shape[-3:]), F.fftshift(a, axes=1)

    want = [o.asnumpy() for o in Net()(x)]
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = [o.asnumpy() for o in Net()(x)]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, atol=1e-5)
    np.testing.assert_allclose(want[0], inputs()["x"], atol=1e-5)


def test_error_messages():
    x = ms.Tensor(inputs()["x"])
    with pytest.raises(ValueError, match="'dim' must be in"):
        F.fft(x, axis=5)
    with pytest.raises(ValueError):
        F.fft(x, n=0)
    with pytest.raises(TypeError, match="For 'fft', the type of 'input' must be in"):
        F.fft(ms.Tensor(np.ones(3, bool)))
    with pytest.raises(TypeError, match="the signal size must be int, but got float"):
        F.fft(x, n=2.0)
