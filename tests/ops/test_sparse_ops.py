"""The sparse-tensor operators of ``mindspore.ops`` (``ops/function/sparse_func.py``, ``ops/_defs/sparse.py``).

* against MindSpore 2.10: every call of ``sparse_cases.py`` gives what 2.10's CPU build gave (recorded by
  ``tests/fixtures/ops/make_sparse_ops_fixture.py``): the kind of result (Tensor, COOTensor, CSRTensor, tuple),
  dtypes, shapes and values, or the builtin exception type (and, where we word it as 2.10 does, the message);
* against NumPy oracles on the dense equivalents: the operations 2.10's CPU build refuses (AKG/GPU-only kernels:
  ``csr_mul``, ``csr_div``, ``csr_gather``, ``csr_mv``, ``csr_mm``, ``csr_reduce_sum``, ``csr2coo``, ``coo2csr``;
  the ``make_*``/``row_tensor_*`` primitives run there only inside graphs);
* gradients (``csr_mv``, ``csr_mm``, ``csr_mul``, ``csr_softmax``, ``SparseTensorDenseMatmul`` through the functional
  API) against NumPy's analytic ones;
* ``@ms.jit``: the functions compile when the sparse tensors are built from their parts inside the function.
"""
import json
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from sparse_cases import CASES, UNARY, coo, csr  # noqa: E402

FIXTURE = json.loads((HERE.parent / "fixtures" / "ops" / "sparse_ops_2.10.json").read_text())["cases"]

# Cases whose error message is 2.10's word for word (the others are worded in this project's style).
EXACT_MESSAGES = {
    "coo_abs_not_coo", "csr_abs_not_csr", "csr_add_float_alpha", "csr_add_not_csr", "csr_mm_dense_operand",
    "csr_mv_1d", "csr_reduce_sum_axis0", "csr_to_coo_not_csr", "dense_to_sparse_coo_3d", "dense_to_sparse_coo_list",
    "coo_concat_one", "coalesce_negative", "coalesce_oob", "SparseToDense_oob", "SparseTensorDenseMatmul_oob",
    "SparseTensorDenseAdd_oob", "SparseTensorDenseAdd_shape",
}
_BUILTIN = (IndexError, TypeError, ValueError, RuntimeError, AttributeError)


def _encode(r):
    if isinstance(r, ms.COOTensor):
        return {"kind": "coo", "indices": _encode(r.indices), "values": _encode(r.values), "shape": list(r.shape)}
    if isinstance(r, ms.CSRTensor):
        return {"kind": "csr", "indptr": _encode(r.indptr), "indices": _encode(r.indices),
                "values": _encode(r.values), "shape": list(r.shape)}
    if isinstance(r, ms.Tensor):
        a = r.asnumpy()
        return {"kind": "tensor", "dtype": str(r.dtype), "shape": list(a.shape), "values": a}
    if isinstance(r, (tuple, list)) and any(isinstance(x, ms.Tensor) for x in r):
        return {"kind": "tuple", "items": [_encode(x) for x in r]}
    return {"kind": "value", "value": list(r) if isinstance(r, tuple) else r}


def _compare(mine, ref, where):
    assert mine["kind"] == ref["kind"], f"{where}: {mine['kind']} != {ref['kind']}"
    kind = ref["kind"]
    if kind == "tensor":
        assert (mine["dtype"], mine["shape"]) == (ref["dtype"], ref["shape"]), where
        np.testing.assert_allclose(np.asarray(mine["values"], np.float64), np.asarray(ref["values"], np.float64),
                                   rtol=1e-5, atol=1e-6, equal_nan=True, err_msg=where)
    elif kind in ("coo", "csr"):
        assert mine["shape"] == ref["shape"], where
        for part in ("indptr", "indices", "values"):
            if part in ref:
                _compare(mine[part], ref[part], f"{where}.{part}")
    elif kind == "tuple":
        assert len(mine["items"]) == len(ref["items"]), where
        for i, (a, b) in enumerate(zip(mine["items"], ref["items"])):
            _compare(a, b, f"{where}[{i}]")
    else:
        assert mine["value"] == ref["value"], where


def test_the_fixture_covers_every_case():
    assert set(FIXTURE) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_as_mindspore_2_10(name):
    ref = FIXTURE[name]
    if ref["kind"] == "error":
        with pytest.raises(_BUILTIN) as info:
            CASES[name](ms)
        kind = next(t.__name__ for t in _BUILTIN if isinstance(info.value, t))
        assert kind == ref["type"], f"{name}: {info.value!r}"
        if name in EXACT_MESSAGES:
            assert str(info.value).strip().splitlines()[0].strip() == ref["message"].strip()
        return
    _compare(_encode(CASES[name](ms)), ref, name)


# -- NumPy oracles ----------------------------------------------------------------------------------------
IDX = np.array([[0, 1], [1, 2], [2, 0]])
VALS = np.array([-1.5, 0.25, 2.0], np.float32)


def dense(idx=IDX, vals=VALS, shape=(3, 4)):
    out = np.zeros(shape, vals.dtype)
    for (i, j), v in zip(idx, vals):
        out[i, j] += v
    return out


def csr_of(d, idx_dtype=ms.int32):
    """A CSRTensor of the nonzeros of a NumPy matrix (NumPy builds the structure)."""
    rows, cols = np.nonzero(d)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=d.shape[0]))])
    return ms.CSRTensor(ms.Tensor(indptr, idx_dtype), ms.Tensor(cols, idx_dtype), ms.Tensor(d[rows, cols]), d.shape)


def test_unary_maps_keep_the_structure():
    x = np.array([-1.5, 0.25, 2.0], np.float32)
    numpy_of = {"inv": lambda v: 1 / v, "neg": np.negative, "relu": lambda v: np.maximum(v, 0),
                "relu6": lambda v: np.clip(v, 0, 6), "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
                "softsign": lambda v: v / (1 + np.abs(v)), "round": np.rint, "acos": np.arccos, "asin": np.arcsin,
                "atan": np.arctan, "acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh}
    for name in UNARY:
        vals = np.abs(x) / 2 if name in ("acos", "asin", "atanh") else np.abs(x) + 1 if name == "acosh" else x
        fn = numpy_of.get(name, getattr(np, name, None))
        with np.errstate(all="ignore"):
            want = fn(vals)
        for kind, sp in (("coo", coo(ms, tuple(vals))), ("csr", csr(ms, tuple(vals)))):
            got = getattr(ops, f"{kind}_{name}")(sp)
            assert type(got) is type(sp) and got.shape == sp.shape
            np.testing.assert_array_equal(got.indices.asnumpy(), sp.indices.asnumpy())
            np.testing.assert_allclose(got.values.asnumpy(), want, rtol=1e-6, atol=1e-7, equal_nan=True,
                                       err_msg=f"{kind}_{name}")


@pytest.mark.parametrize("y", [np.arange(1, 13, dtype=np.float32).reshape(3, 4), np.array([1., 2., 3., 4.], np.float32),
                               np.array([[2.], [3.], [4.]], np.float32)])
def test_csr_mul_div_by_dense(y):
    d = dense()
    x = csr_of(d)
    mask = d != 0
    for fn, ref in ((ops.csr_mul, d * y), (ops.csr_div, np.where(mask, d / np.broadcast_to(y, d.shape), 0))):
        out = fn(x, ms.Tensor(y))
        assert isinstance(out, ms.CSRTensor)
        np.testing.assert_array_equal(out.indptr.asnumpy(), x.indptr.asnumpy())
        np.testing.assert_allclose(out.to_dense().asnumpy(), ref, rtol=1e-6)


def test_csr_mul_by_one_element_gives_dense_values():
    out = ops.csr_mul(csr_of(dense()), ms.Tensor([[2.0]]))
    assert isinstance(out, ms.Tensor) and out.shape == (3,)
    np.testing.assert_allclose(out.asnumpy(), dense()[np.nonzero(dense())] * 2)
    np.testing.assert_allclose(ops.csr_div(csr_of(dense()), 4).asnumpy(), dense()[np.nonzero(dense())] / 4)
    with pytest.raises(ValueError, match="cannot broadcast"):
        ops.csr_mul(csr_of(dense()), ms.Tensor(np.ones((1, 1, 1), np.float32)))
    with pytest.raises(ValueError, match="cannot broadcast"):
        ops.csr_mul(csr_of(dense()), ms.Tensor(np.ones((2, 4), np.float32)))


def test_csr_gather_mv_reduce_sum():
    d = dense()
    x = csr_of(d)
    full = np.arange(12, dtype=np.float32).reshape(3, 4)
    rows, cols = np.nonzero(d)
    np.testing.assert_array_equal(ops.csr_gather(x.indptr, x.indices, ms.Tensor(full), (3, 4)).asnumpy(),
                                  full[rows, cols])
    v = np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)
    np.testing.assert_allclose(ops.csr_mv(x, ms.Tensor(v)).asnumpy(), d @ v)
    assert ops.csr_mv(x, ms.Tensor(v.astype(np.float64))).dtype == ms.float64      # promoted as 2.10
    with pytest.raises(ValueError):
        ops.csr_mv(x, ms.Tensor(np.ones((3, 1), np.float32)))
    np.testing.assert_allclose(ops.csr_reduce_sum(x, 1).asnumpy(), d.sum(1, keepdims=True))
    np.testing.assert_allclose(ops.csr_reduce_sum(x, -1).asnumpy(), d.sum(1, keepdims=True))


@pytest.mark.parametrize("flags", [{}, {"trans_a": True}, {"trans_b": True}, {"adjoint_a": True, "adjoint_b": True}])
def test_csr_mm_of_two_csr_tensors(flags):
    rng = np.random.default_rng(0)
    a = np.where(rng.random((4, 3)) < 0.5, rng.standard_normal((4, 3)), 0).astype(np.float32)
    b = np.where(rng.random((3, 5)) < 0.5, rng.standard_normal((3, 5)), 0).astype(np.float32)
    a = a.T.copy() if flags.get("trans_a") or flags.get("adjoint_a") else a
    b = b.T.copy() if flags.get("trans_b") or flags.get("adjoint_b") else b
    out = ops.csr_mm(csr_of(a), csr_of(b), **flags)
    op_a = a.T if flags.get("trans_a") or flags.get("adjoint_a") else a
    op_b = b.T if flags.get("trans_b") or flags.get("adjoint_b") else b
    assert isinstance(out, ms.CSRTensor) and out.shape == (4, 5)
    np.testing.assert_allclose(out.to_dense().asnumpy(), op_a @ op_b, rtol=1e-5, atol=1e-6)
    structure = ((op_a != 0).astype(int) @ (op_b != 0).astype(int)) > 0
    assert out.values.shape[0] == structure.sum()       # every structurally reachable position is stored
    with pytest.raises(ValueError):
        ops.csr_mm(csr_of(np.eye(3, dtype=np.float32)), csr_of(np.eye(4, dtype=np.float32)))


def test_csr_structure_conversions():
    assert ops.csr2coo(ms.Tensor([0, 1, 1, 3], ms.int64), 3).asnumpy().tolist() == [0, 2, 2]
    assert ops.csr2coo(ms.Tensor([0, 1, 1, 3], ms.int32), 3).dtype == ms.int32
    out = ops.coo2csr(ms.Tensor([0, 2, 2], ms.int32), 4)
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [0, 1, 1, 3, 3]
    with pytest.raises(TypeError):
        ops.coo2csr(ms.Tensor([0.0]), 2)


def test_make_and_get():
    i, v = ms.Tensor([[0, 1]], ms.int32), ms.Tensor([1.0])
    for fn in (ops.make_coo_tensor, ops.make_sparse_tensor):
        c = fn(i, v, (2, 2))
        assert isinstance(c, ms.COOTensor) and ops.coo_tensor_get_dense_shape(c) == (2, 2)
    r = ops.make_csr_tensor(ms.Tensor([0, 1, 1], ms.int32), ms.Tensor([1], ms.int32), v, (2, 2))
    assert ops.csr_tensor_get_indptr(r).asnumpy().tolist() == [0, 1, 1]
    assert ops.csr_tensor_get_indices(r).asnumpy().tolist() == [1]
    assert ops.csr_tensor_get_values(r).asnumpy().tolist() == [1.0]
    for fn in (ops.make_row_tensor, ops.make_row_tensor_inner):
        row = fn(ms.Tensor([1], ms.int32), ms.Tensor([[1.0, 2.0]]), (3, 2))
        assert isinstance(row, ms.RowTensor)
        assert ops.row_tensor_get_indices(row).asnumpy().tolist() == [1]
        assert ops.row_tensor_get_values(row).asnumpy().tolist() == [[1.0, 2.0]]
        assert ops.row_tensor_get_dense_shape(row) == (3, 2)
    with pytest.raises(TypeError, match="should be RowTensor"):
        ops.row_tensor_get_indices(ms.Tensor([1]))


def test_row_tensor_add():
    row = ms.RowTensor(ms.Tensor([1, 1], ms.int32), ms.Tensor([[1.0, 2.0], [3.0, 4.0]]), (3, 2))
    y = np.arange(6, dtype=np.float32).reshape(3, 2)
    want = y.copy()
    want[1] += [4.0, 6.0]
    out = ops.row_tensor_add(row, ms.Tensor(y))
    assert isinstance(out, ms.RowTensor)
    np.testing.assert_allclose(out.to_dense().asnumpy(), want)
    np.testing.assert_allclose(ops.row_tensor_add(row, row).to_dense().asnumpy(), 2 * (want - y))
    with pytest.raises(ValueError):
        ops.row_tensor_add(row, ms.Tensor(np.ones((2, 2), np.float32)))
    with pytest.raises(TypeError):
        ops.row_tensor_add(ms.Tensor(y), row)


def test_dense_to_sparse_round_trips():
    d = np.array([[0, 1.5, 0], [-2, 0, 3], [0, 0, 0]], np.float32)
    for fn in (ops.dense_to_sparse_coo, ops.dense_to_sparse_csr, lambda t: t.to_coo(), lambda t: t.to_csr()):
        sp = fn(ms.Tensor(d))
        assert sp.indices.dtype == ms.int32
        np.testing.assert_array_equal(sp.to_dense().asnumpy(), d)


def test_coo_concat_and_add_values_by_dense_oracle():
    a = ms.COOTensor(ms.Tensor([[0, 1], [2, 3]], ms.int64), ms.Tensor([1.0, 2.0]), (3, 4))
    b = ms.COOTensor(ms.Tensor([[1, 0]], ms.int64), ms.Tensor([5.0]), (3, 2))
    out = ops.coo_concat([a, (b.indices, b.values, b.shape)], -1)
    want = np.concatenate([a.to_dense().asnumpy(), b.to_dense().asnumpy()], 1)
    assert out.shape == (3, 6)
    np.testing.assert_array_equal(out.to_dense().asnumpy(), want)
    lin = out.indices.asnumpy() @ np.array([6, 1])
    assert (np.diff(lin) > 0).all()                      # row-major order
    with pytest.raises(ValueError):
        ops.coo_concat([a, b], 0)                        # widths differ
    s = ops.coo_add(a, ms.COOTensor(ms.Tensor([[2, 3]], ms.int64), ms.Tensor([-2.0]), (3, 4)), ms.Tensor(0.5))
    assert s.indices.asnumpy().tolist() == [[0, 1]]      # the sum 2 - 2 falls below the threshold


# -- gradients ----------------------------------------------------------------------------------------------
def test_csr_mv_and_mm_gradients():
    d = dense()
    rows, cols = np.nonzero(d)
    indptr, indices = csr_of(d).indptr, csr_of(d).indices
    v = np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)

    def mv(values, vec):
        return ops.csr_mv(ms.CSRTensor(indptr, indices, values, (3, 4)), vec).sum()
    gv, gvec = ms.grad(mv, grad_position=(0, 1))(ms.Tensor(d[rows, cols]), ms.Tensor(v))
    np.testing.assert_allclose(gv.asnumpy(), v[cols, 0])                       # d(sum A v)/dA_ij = v_j
    np.testing.assert_allclose(gvec.asnumpy(), d.sum(0)[:, None])              # A^T 1

    b = np.array([[1.0, 0, 2.0], [0, 3.0, 0], [4.0, 0, 0], [0, 0, -1.0]], np.float32)
    brows, bcols = np.nonzero(b)
    bcsr = csr_of(b)
    w = np.random.default_rng(1).standard_normal((3, 3)).astype(np.float32)

    def mm(av, bv):
        out = ops.csr_mm(ms.CSRTensor(indptr, indices, av, (3, 4)), ms.CSRTensor(bcsr.indptr, bcsr.indices, bv, (4, 3)))
        return (out.to_dense() * ms.Tensor(w)).sum()
    ga, gb = ms.grad(mm, grad_position=(0, 1))(ms.Tensor(d[rows, cols]), ms.Tensor(b[brows, bcols]))
    np.testing.assert_allclose(ga.asnumpy(), (w @ b.T)[rows, cols], rtol=1e-5)   # dL/dA = W B^T at A's entries
    np.testing.assert_allclose(gb.asnumpy(), (d.T @ w)[brows, bcols], rtol=1e-5)


def test_sparse_tensor_dense_matmul_gradients_and_csr_softmax_gradient():
    idx = np.array([[0, 1], [1, 2], [0, 3]], np.int64)
    vals = np.array([1.0, 2.0, -1.0], np.float32)
    m = np.arange(8, dtype=np.float32).reshape(4, 2)
    a = np.zeros((3, 4), np.float32)
    a[idx[:, 0], idx[:, 1]] = vals
    gv, gm = ms.grad(lambda v, x: ops.SparseTensorDenseMatmul()(ms.Tensor(idx), v, (3, 4), x).sum(),
                     grad_position=(0, 1))(ms.Tensor(vals), ms.Tensor(m))
    np.testing.assert_allclose(gv.asnumpy(), m.sum(1)[idx[:, 1]])
    np.testing.assert_allclose(gm.asnumpy(), a.T @ np.ones((3, 2), np.float32))

    x = csr(ms, (1.0, 2.0, -1.0))
    w = ms.Tensor([0.5, 2.0, -1.0])

    def soft(values):
        return (ops.csr_softmax(ms.CSRTensor(x.indptr, x.indices, values, x.shape), ms.float32).values * w).sum()
    g = ms.grad(soft)(x.values).asnumpy()
    # rows: {1.0} alone, {2.0, -1.0} together: d softmax = s * (w - sum(s w))
    s = np.exp([2.0, -1.0]) / np.exp([2.0, -1.0]).sum()
    np.testing.assert_allclose(g, [0.0, *(s * (np.array([2.0, -1.0]) - (s * [2.0, -1.0]).sum()))], atol=1e-6)


def test_csr_mul_gradient_reaches_values_and_dense():
    d = dense()
    x = csr_of(d)
    rows, cols = np.nonzero(d)
    y = np.arange(1, 13, dtype=np.float32).reshape(3, 4)

    def f(values, dense_y):
        return ops.csr_mul(ms.CSRTensor(x.indptr, x.indices, values, (3, 4)), dense_y).values.sum()
    gv, gy = ms.grad(f, grad_position=(0, 1))(x.values, ms.Tensor(y))
    np.testing.assert_allclose(gv.asnumpy(), y[rows, cols])
    np.testing.assert_allclose(gy.asnumpy(), d)


# -- graph mode ---------------------------------------------------------------------------------------------
def test_functions_compile_when_sizes_are_static():
    d = dense()
    x = csr_of(d)
    v = np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)

    @ms.jit
    def mv(indptr, indices, values, vec):
        return ops.csr_mv(ops.make_csr_tensor(indptr, indices, values, (3, 4)), vec)

    @ms.jit
    def softmax_values(indptr, indices, values):
        return ops.csr_softmax(ms.CSRTensor(indptr, indices, values, (3, 4)), ms.float32).values

    @ms.jit
    def relu_dense(indices, values):
        return ops.coo_relu(ms.COOTensor(indices, values, (3, 4))).to_dense()

    np.testing.assert_allclose(mv(x.indptr, x.indices, x.values, ms.Tensor(v)).asnumpy(), d @ v)
    got = softmax_values(x.indptr, x.indices, x.values).asnumpy()
    np.testing.assert_allclose(got, [1.0, 1.0, 1.0])          # one value per row
    np.testing.assert_array_equal(relu_dense(ms.Tensor(IDX, ms.int32), ms.Tensor(VALS)).asnumpy(),
                                  np.maximum(d, 0))


def test_functions_with_run_time_sizes_compile():
    """Results whose number of entries depends on the data (sums, products, conversions) compile too: built from
    the dynamic-shaped primitives (``Coalesce``, ``NonZero``) and static-shaped segment sums."""
    d = dense()
    x = csr_of(d)
    idx64 = ms.Tensor(IDX, ms.int64)

    @ms.jit
    def parts(indptr, indices, values, idx, vals, dense_in):
        a = ms.CSRTensor(indptr, indices, values, (3, 4))
        s = ops.csr_add(a, a, ms.Tensor(1.0), ms.Tensor(2.0))
        p = ops.csr_mm(a, a, trans_b=True)
        c = ops.coo_add(ms.COOTensor(idx, vals, (3, 4)), ms.COOTensor(idx, vals, (3, 4)), ms.Tensor(0.0))
        cat = ops.coo_concat((ms.COOTensor(idx, vals, (3, 4)), ms.COOTensor(idx, vals, (3, 4))), 1)
        return s.to_dense(), p.to_dense(), c.to_dense(), cat.to_dense(), ops.dense_to_sparse_csr(dense_in).to_dense()

    s, p, c, cat, back = parts(x.indptr, x.indices, x.values, idx64, ms.Tensor(VALS), ms.Tensor(d))
    np.testing.assert_allclose(s.asnumpy(), 3 * d)
    np.testing.assert_allclose(p.asnumpy(), d @ d.T, rtol=1e-6)
    np.testing.assert_allclose(c.asnumpy(), 2 * d)
    np.testing.assert_allclose(cat.asnumpy(), np.concatenate([d, d], 1))
    np.testing.assert_allclose(back.asnumpy(), d)
