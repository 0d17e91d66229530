"""``COOTensor``, ``CSRTensor``, ``RowTensor``: dense forms, products and gradients against NumPy."""
import numpy as np
import pytest

import mindspore as ms

IDX = np.array([[0, 1], [1, 2], [0, 1], [2, 0]], np.int32)
VAL = np.array([1.0, 2.0, 3.0, -1.5], np.float32)


def dense_of(idx, val, shape):
    d = np.zeros(shape, np.float32)
    for (i, j), v in zip(idx, val):
        d[i, j] += v
    return d


def coo():
    return ms.COOTensor(ms.Tensor(IDX), ms.Tensor(VAL), (3, 4))


def test_coo_properties_dense_and_coalesce():
    c = coo()
    assert (c.shape, c.dtype, c.size, c.itemsize, c.ndim) == ((3, 4), ms.float32, 4, 4, 2)
    expected = dense_of(IDX, VAL, (3, 4))
    np.testing.assert_array_equal(c.to_dense().asnumpy(), expected)
    m = c.coalesce()
    assert m.indices.asnumpy().tolist() == [[0, 1], [1, 2], [2, 0]] and m.values.asnumpy().tolist() == [4, 2, -1.5]
    np.testing.assert_array_equal((c + c).to_dense().asnumpy(), 2 * expected)
    np.testing.assert_array_equal((c - c).to_dense().asnumpy(), 0 * expected)
    np.testing.assert_array_equal(c.abs().to_dense().asnumpy(), dense_of(IDX, np.abs(VAL), (3, 4)))
    assert c.astype(ms.float16).dtype == ms.float16
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal((c * ms.Tensor(w)).to_dense().asnumpy(), expected * w)
    np.testing.assert_array_equal((c + ms.Tensor(w)).asnumpy(), expected + w)
    kept = c.add(ms.COOTensor(ms.Tensor([[2, 0]], ms.int32), ms.Tensor([1.5]), (3, 4)), 0.5)
    assert kept.indices.asnumpy().tolist() == [[0, 1], [1, 2]]       # the -1.5 + 1.5 entry is dropped


def test_csr_from_coo_products_and_sums():
    r = coo().to_csr()
    assert r.indptr.asnumpy().tolist() == [0, 2, 3, 4] and r.indices.asnumpy().tolist() == [1, 1, 2, 0]
    expected = dense_of(IDX, VAL, (3, 4))
    np.testing.assert_array_equal(r.to_dense().asnumpy(), expected)
    np.testing.assert_array_equal(r.to_coo().to_dense().asnumpy(), expected)
    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    np.testing.assert_allclose(r.mv(ms.Tensor(x)).asnumpy(), expected @ x)
    np.testing.assert_allclose(r.mv(ms.Tensor(x[:, None])).asnumpy(), (expected @ x)[:, None])
    m = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)
    np.testing.assert_allclose(r.mm(ms.Tensor(m)).asnumpy(), expected @ m, rtol=1e-6)
    np.testing.assert_allclose(r.sum(1).asnumpy(), expected.sum(1, keepdims=True))
    np.testing.assert_allclose(r.sum(0).asnumpy(), expected.sum(0, keepdims=True))
    np.testing.assert_allclose(r.add(r, 1.0, 2.0).to_dense().asnumpy(), 3 * expected)
    np.testing.assert_allclose((r * 2.0).to_dense().asnumpy(), 2 * expected)


def test_products_are_differentiable_and_compile():
    r = coo().to_csr()
    x = ms.Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))

    def f(values, vec):
        return ms.CSRTensor(r.indptr, r.indices, values, (3, 4)).mv(vec).sum()
    gv, gx = ms.grad(f, (0, 1))(r.values, x)
    np.testing.assert_allclose(gv.asnumpy(), x.asnumpy()[r.indices.asnumpy()])        # d/dv: x at each column
    np.testing.assert_allclose(gx.asnumpy(), dense_of(IDX, VAL, (3, 4)).sum(0))       # d/dx: column sums
    compiled = ms.jit(lambda values, m: ms.CSRTensor(r.indptr, r.indices, values, (3, 4)).mm(m))
    m = np.ones((4, 2), np.float32)
    np.testing.assert_allclose(compiled(r.values, ms.Tensor(m)).asnumpy(), dense_of(IDX, VAL, (3, 4)) @ m)


def test_row_tensor_and_sparse_tensor():
    rt = ms.RowTensor(ms.Tensor([1, 1], ms.int32), ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), (3, 2))
    assert rt.to_dense().asnumpy().tolist() == [[0, 0], [4, 6], [0, 0]]
    s = ms.SparseTensor(ms.Tensor(IDX), ms.Tensor(VAL), (3, 4))
    assert isinstance(s, ms.COOTensor)


def test_validation():
    with pytest.raises(TypeError, match="'indices' must be an int16, int32 or int64 Tensor"):
        ms.COOTensor(ms.Tensor(IDX.astype(np.float32)), ms.Tensor(VAL), (3, 4))
    with pytest.raises(ValueError, match="one column per dimension"):
        ms.COOTensor(ms.Tensor(IDX), ms.Tensor(VAL), (3, 4, 5))
    with pytest.raises(ValueError, match="'values' must be a 1-D Tensor of 4 elements"):
        ms.COOTensor(ms.Tensor(IDX), ms.Tensor(VAL[:3]), (3, 4))
    with pytest.raises(ValueError, match="'indptr' must have shape\\[0\\] \\+ 1 = 4 elements"):
        ms.CSRTensor(ms.Tensor([0, 1], ms.int32), ms.Tensor([1], ms.int32), ms.Tensor([1.0]), (3, 4))
    with pytest.raises(ValueError, match="dense matrix must be 2-D with 4 rows"):
        coo().to_csr().mm(ms.Tensor(np.ones((3, 2), np.float32)))
