"""The MatMul kernels' cuBLASLt path (``mindspore_gpu/gemm.py``) on the CuPy stand-in, with ``cupy_sim.SimCublasLt``
as the library: it reads each operand from memory by the layout's leading dimensions, operations and batch strides
as cuBLASLt would (a read past an allocation raises), so a wrong layout gives wrong numbers or an error here.

* every view the kernels hand over (row-major, transposed views, sliced rows, batches, a 2-D operand beside a batch,
  offsets from the allocation's start) gives NumPy's product, and a layout is planned once;
* what it does not take (broadcast batches, strided last axes, float64, integers, empty products) goes to
  ``cupy.matmul``;
* an error from the library turns the path off with a warning, and the product is still right;
* while a CUDA-graph capture has replaced ``cupy.matmul``, the capture's GEMM runs instead;
* ``MatMul``/``BatchMatMul`` on the stand-in device take it, transposes and all.

The real library is checked on a GPU by ``test_gpu_plugin.py::test_cublaslt_products_match_cupy``.
"""
import pathlib
import sys
import warnings

import ml_dtypes
import numpy as np
import pytest

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import cupy_sim  # noqa: E402
from mindspore.plugin import TensorSpec  # noqa: E402

pytestmark = cupy_sim.warning_marks()

BF16 = np.dtype(ml_dtypes.bfloat16)


@pytest.fixture(scope="module")
def loaded():
    return cupy_sim.load_kernel_families()


@pytest.fixture
def lt(loaded):
    """The stand-in math module's cuBLASLt path, bound to a fresh :class:`cupy_sim.SimCublasLt`."""
    products = loaded.modules["math"]._LT
    lib = cupy_sim.SimCublasLt()
    products.library = lambda: lib
    products.pointer = lambda a: a.__array_interface__["data"][0]
    products.reset()
    assert products.status() is True
    yield products, lib, loaded.cupy
    products.library = None
    products.reset()


def _host(dt, shape, rng):
    return rng.standard_normal(shape).astype(dt)


def _want(x, y):
    wide = np.float32 if x.dtype.itemsize <= 4 else x.dtype
    return np.matmul(x.astype(wide), y.astype(wide)).astype(x.dtype)


# (name, x, y) as device views made from host arrays by ``cp``
def _cases(cp, dt, rng):
    h = lambda *shape: _host(dt, shape, rng)     # noqa: E731
    d = cp.asarray
    yield "row-major", d(h(5, 7)), d(h(7, 3))
    yield "x transposed", d(h(7, 5)).T, d(h(7, 3))
    yield "y transposed (Dense)", d(h(5, 7)), d(h(3, 7)).T
    yield "both transposed", d(h(7, 5)).T, d(h(3, 7)).T
    yield "sliced rows (ld > cols)", d(h(5, 11))[:, 2:9], d(h(7, 6))[:, 1:4]
    yield "offset view", d(h(6, 7))[1:], d(h(8, 3))[1:]
    yield "batched", d(h(4, 5, 7)), d(h(4, 7, 3))
    yield "batched, y swapaxes", d(h(4, 5, 7)), d(h(4, 3, 7)).swapaxes(-1, -2)
    yield "batch beside a matrix", d(h(2, 3, 5, 7)), d(h(7, 3))
    yield "matrix beside a batch", d(h(5, 7)), d(h(2, 3, 7, 4))
    yield "4-D batch with one stride", d(h(2, 3, 6, 4)), d(h(6, 3, 4)).transpose(1, 2, 0)[None].repeat(2, 0)
    yield "k = 1", d(h(5, 1)), d(h(1, 3))
    yield "n = 1 (matrix by vector column)", d(h(5, 7)), d(h(7, 1))


@pytest.mark.parametrize("dt", [np.dtype(np.float32), np.dtype(np.float16), BF16], ids=str)
def test_every_view_gives_numpys_product_and_is_planned_once(lt, dt):
    products, lib, cp = lt
    rng = np.random.default_rng(1)
    for name, x, y in _cases(cp, dt, rng):
        before_plans, before_runs = lib.plans, lib.runs
        got = products.matmul(x, y)
        assert got is not None, name
        assert lib.runs == before_runs + 1 and lib.plans == before_plans + 1, name
        want = _want(cp.asnumpy(x), cp.asnumpy(y))
        assert got.dtype == dt and got.shape == want.shape and got.flags.c_contiguous, name
        np.testing.assert_array_equal(cp.asnumpy(got).astype(np.float32), want.astype(np.float32), err_msg=name)
        again = products.matmul(x, y)       # the same layout: the plan is reused
        assert lib.plans == before_plans + 1 and lib.runs == before_runs + 2, name
        np.testing.assert_array_equal(cp.asnumpy(again).astype(np.float32), want.astype(np.float32), err_msg=name)


def test_what_it_does_not_take_goes_to_cupy_matmul(lt):
    products, lib, cp = lt
    rng = np.random.default_rng(2)
    f32 = lambda *shape: cp.asarray(_host(np.float32, shape, rng))    # noqa: E731
    declined = [
        ("broadcast batches", f32(2, 1, 5, 7), f32(1, 3, 7, 4)),
        ("batch axes of two strides (heads of BSND)", f32(2, 6, 3, 4).transpose(0, 2, 1, 3), f32(2, 3, 4, 5)),
        ("strided last axis", f32(5, 14)[:, ::2], f32(7, 3)),
        ("float64", cp.asarray(_host(np.float64, (5, 7), rng)), cp.asarray(_host(np.float64, (7, 3), rng))),
        ("int32", cp.asarray(rng.integers(0, 5, (5, 7)).astype(np.int32)),
         cp.asarray(rng.integers(0, 5, (7, 3)).astype(np.int32))),
        ("mixed dtypes", f32(5, 7), cp.asarray(_host(np.float16, (7, 3), rng))),
        ("empty", f32(0, 7), f32(7, 3)),
        ("vector", f32(7), f32(7, 3)),
    ]
    for name, x, y in declined:
        assert products.matmul(x, y) is None, name
    assert lib.runs == 0 and lib.plans == 0


def test_a_library_error_turns_the_path_off_and_the_product_is_still_right(loaded, lt):
    products, lib, cp = lt
    import mindspore as ms
    from mindspore import ops
    math = loaded.modules["math"]
    rng = np.random.default_rng(3)
    x, y = _host(np.float32, (4, 6), rng), _host(np.float32, (6, 5), rng)
    lib.fail = RuntimeError("cublasLtMatmul returned cuBLAS status 13")
    out = TensorSpec((4, 5), ms.float32)
    with pytest.warns(RuntimeWarning, match="cuBLASLt failed"):
        got = math.KERNELS["MatMul"](ops.MatMul(), cp.asarray(x), cp.asarray(y), out=out)
    np.testing.assert_allclose(cp.asnumpy(got), x @ y, rtol=1e-6)
    assert products.status() != True and "status 13" in products.status()     # noqa: E712
    lib.fail = None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert products.matmul(cp.asarray(x), cp.asarray(y)) is None      # off for the process, no second warning


def test_a_capture_in_progress_keeps_its_own_gemm(lt, monkeypatch):
    """While ``mindspore_gpu.capture`` has replaced ``cupy.matmul`` by its capture-safe GEMM, the kernels' products
    go there: a plan is never made (nor the shared path's workspace taken) during a capture."""
    products, lib, cp = lt
    monkeypatch.setattr(cp, "matmul", lambda a, b, **kw: "the capture's GEMM")
    x = cp.asarray(np.ones((3, 4), np.float32))
    assert products.matmul(x, x.T) is None and lib.runs == 0


def test_switched_off_by_the_environment(lt, monkeypatch):
    products, lib, cp = lt
    monkeypatch.setenv("MS_GPU_CUBLASLT", "0")
    products.reset()
    assert products.status() == "turned off by MS_GPU_CUBLASLT=0"
    assert "unused" in products.describe_status()
    x = cp.asarray(np.ones((3, 4), np.float32))
    assert products.matmul(x, x.T) is None and lib.runs == 0


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=str)
def test_matmul_kernels_take_it_with_their_transposes(loaded, lt, dt):
    import mindspore as ms
    from mindspore import ops
    products, lib, cp = lt
    math = loaded.modules["math"]
    rng = np.random.default_rng(4)
    ms_dt = ms.float32 if dt == np.float32 else ms.float16
    a, b = _host(dt, (3, 6, 5), rng), _host(dt, (3, 5, 4), rng)
    for ta, tb in ((False, False), (True, False), (False, True), (True, True)):
        x = a.swapaxes(-1, -2).copy() if ta else a
        y = b.swapaxes(-1, -2).copy() if tb else b
        xx, yy = (x.swapaxes(-1, -2) if ta else x), (y.swapaxes(-1, -2) if tb else y)
        runs = lib.runs
        want = _want(xx, yy)
        for name, prim, operands in (
                ("BatchMatMul", ops.BatchMatMul(transpose_a=ta, transpose_b=tb), (x, y)),
                ("MatMul", ops.MatMul(transpose_a=ta, transpose_b=tb), (x[0], y[0]))):
            expect = want if name == "BatchMatMul" else want[0]
            out = TensorSpec(expect.shape, ms_dt)
            got = math.KERNELS[name](prim, *(cp.asarray(o) for o in operands), out=out)
            np.testing.assert_array_equal(cp.asnumpy(got).astype(np.float32), expect.astype(np.float32),
                                          err_msg=f"{name} transpose_a={ta} transpose_b={tb}")
        assert lib.runs == runs + 2
