"""``ops.Custom`` with ``func_type="pyfunc"``: a NumPy function as the kernel, in PYNATIVE and GRAPH_MODE."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops


def _np_add(a, b):
    return a + b


def _sq_bprop(a, out, dout):
    return (dout * 2 * a,)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_custom_pyfunc_forward_backward(mode):
    ms.set_context(mode=mode)
    try:
        add = ops.Custom(_np_add, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="pyfunc")
        sq = ops.Custom(np.square, out_shape=(2, 3), out_dtype=ms.float32, func_type="pyfunc", bprop=_sq_bprop)

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.add = add
                self.sq = sq

            def construct(self, a, b):
                return self.add(self.sq(a), b)

        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        b = np.ones((2, 3), np.float32)
        np.testing.assert_allclose(Net()(ms.Tensor(a), ms.Tensor(b)).asnumpy(), a * a + b)
        g = ms.grad(lambda v: sq(v).sum())(ms.Tensor(a))
        np.testing.assert_allclose(g.asnumpy(), 2 * a)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_custom_multiple_outputs_and_dtypes():
    two = ops.Custom(lambda a: (a + 1, (a * 2).astype(np.int64)), out_shape=[(3,), (3,)],
                     out_dtype=(ms.float32, ms.int32), func_type="pyfunc")
    x, y = two(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert x.asnumpy().tolist() == [2.0, 3.0, 4.0] and y.dtype == ms.int32 and y.asnumpy().tolist() == [2, 4, 6]


def test_custom_errors():
    x = ms.Tensor(np.ones(3, np.float32))
    bad = ops.Custom(lambda a: np.ones(4), out_shape=(3,), out_dtype=ms.float32, func_type="pyfunc")
    with pytest.raises(RuntimeError, match="returned shape"):
        bad(x)
    no_grad = ops.Custom(np.sin, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pyfunc")
    with pytest.raises(RuntimeError, match="needs the 'bprop' argument"):
        ms.grad(lambda v: no_grad(v).sum())(x)
    with pytest.raises(ValueError, match="func_type"):
        ops.Custom(np.sin, (3,), ms.float32, func_type="akg")
    with pytest.raises(TypeError, match="'func' must be of type str"):     # an AOT kernel is "library:function"
        ops.Custom(np.sin, (3,), ms.float32, func_type="aot")
    with pytest.raises(ValueError, match="func_type"):
        ops.Custom(np.sin, (3,), ms.float32, func_type="cuda")
    with pytest.raises(ValueError, match="'out_shape' and 'out_dtype'"):
        ops.Custom(np.sin, func_type="pyfunc")
    with pytest.raises(TypeError):
        ops.Custom(3, (3,), ms.float32, func_type="pyfunc")


@ops.kernel
def _outer_product(a, b):
    c = output_tensor((a.shape[0], b.shape[1]), a.dtype)  # noqa: F821 - a Hybrid DSL name
    with block_realize(c):  # noqa: F821
        for i0 in range(a.shape[0]):
            for i1 in range(b.shape[1]):
                c[i0, i1] = 0.0
                for i2 in range(a.shape[1]):
                    c[i0, i1] = c[i0, i1] + (a[i0, i2] * b[i2, i1])
    return c


@ops.kernel
def _sqrt_plus_one(x):
    y = output_tensor(x.shape, x.dtype)  # noqa: F821
    for i in serial(x.shape[0]):  # noqa: F821
        y[i] = sqrt(x[i]) + float32(1)  # noqa: F821
    return y


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_hybrid_kernel_runs_as_python_and_as_custom(mode):
    ms.set_context(mode=mode)
    try:
        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        b = np.arange(6, dtype=np.float32).reshape(3, 2) / 2
        np.testing.assert_allclose(_outer_product(a, b), a @ b)   # a plain Python call on NumPy arrays
        assert _outer_product.ms_kernel_flag and ops.ms_kernel is ops.kernel
        op = ops.Custom(_outer_product, out_shape=lambda x, y: (x[0], y[1]), func_type="hybrid")
        np.testing.assert_allclose(ms.jit(op)(ms.Tensor(a), ms.Tensor(b)).asnumpy(), a @ b, rtol=1e-6)
        x = np.array([4.0, 9.0, 16.0], np.float32)
        np.testing.assert_allclose(ops.Custom(_sqrt_plus_one, func_type="hybrid")(ms.Tensor(x)).asnumpy(),
                                   [3.0, 4.0, 5.0])
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    with pytest.raises(TypeError, match="decorated by ops.kernel"):
        ops.Custom(np.sin, func_type="hybrid")
