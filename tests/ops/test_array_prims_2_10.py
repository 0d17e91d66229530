"""The array_prims family against MindSpore 2.10's recorded CPU outputs, errors and memory sharing
(``tests/fixtures/ops/array_prims_2.10.json``, made by ``make_array_prims_2_10.py`` next to it)."""
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, ops

REF = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "ops" / "array_prims_2.10.json").read_text())
X = np.arange(12, dtype=np.float32).reshape(4, 3)
XC = (np.arange(12) + 1j).astype(np.complex64).reshape(3, 4)
XR = np.arange(12, dtype=np.float32).reshape(3, 4)
IDX = np.array([[5, 2], [8, 5], [-1, 4]], np.int32)


def dec(e):
    if "re" in e:
        a = np.array(e["re"]) + 1j * np.array(e["im"])
    else:
        a = np.array(e["data"])
    return a.astype(e["dtype"]).reshape(e["shape"])


def check(got, e, rtol=1e-5, atol=1e-5):
    got = got.asnumpy() if isinstance(got, Tensor) else np.asarray(got)
    want = dec(e)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def raises(f, e):
    with pytest.raises({"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": RuntimeError,
                        "IndexError": IndexError}[e["type"]]) as info:
        r = f()
        if isinstance(r, Tensor):
            r.asnumpy()
    return str(info.value)


@pytest.mark.parametrize("i", range(len(REF["embedding_lookup"])))
def test_embedding_lookup(i):
    e = REF["embedding_lookup"][i]
    check(ops.EmbeddingLookup()(Tensor(X.astype(e["dtype"])), Tensor(IDX), e["offset"]), e["out"])


def test_embedding_lookup_errors():
    errs = REF["embedding_lookup_errors"]
    assert raises(lambda: ops.EmbeddingLookup()(Tensor(X), Tensor(IDX.astype(np.float32)), 1),
                  errs["float_indices"]) == errs["float_indices"]["message"]
    assert raises(lambda: ops.EmbeddingLookup()(Tensor(X), Tensor(IDX), 1.5),
                  errs["float_offset"]) == errs["float_offset"]["message"]
    assert raises(lambda: ops.EmbeddingLookup()(Tensor(np.ones((2, 2, 2), np.float32)), Tensor(IDX), 0),
                  errs["rank3_params"]) == errs["rank3_params"]["message"]


@pytest.mark.parametrize("i", range(len(REF["fft_with_size"])))
def test_fft_with_size(i):
    e = REF["fft_with_size"][i]
    x = XC if e["input"] == "XC" else XR
    kw = {k: tuple(v) if isinstance(v, list) else v for k, v in e["kwargs"].items()}
    check(ops.FFTWithSize(*e["args"], **kw)(Tensor(x)), e["out"], rtol=1e-4, atol=1e-4)


def test_fft_with_size_errors():
    errs = REF["fft_with_size_errors"]
    assert raises(lambda: ops.FFTWithSize(1, False, False)(Tensor(XR)), errs["c2c_real_input"]) == \
        errs["c2c_real_input"]["message"]
    assert raises(lambda: ops.FFTWithSize(1, False, True)(Tensor(XC)), errs["r2c_complex_input"]) == \
        errs["r2c_complex_input"]["message"]
    assert errs["signal_ndim_too_big"]["message"] in raises(lambda: ops.FFTWithSize(4, False, False)(Tensor(XC)),
                                                            errs["signal_ndim_too_big"])


def test_views_values_and_errors():
    v = REF["views"]
    check(ops.TransposeView()(Tensor(X), (1, 0)), v["transpose_view"])
    check(ops.TransposeExtView()(Tensor(X), -1, 0), v["transpose_ext_view"])
    check(ops.SelectView()(Tensor(X), 1, 0), v["select_view"])
    check(ops.SelectView()(Tensor(X), 2, 1), v["select_view_dim1"])
    assert v["select_view_negative_index"]["message"] in raises(lambda: ops.SelectView()(Tensor(X), -1, 1),
                                                               v["select_view_negative_index"])
    assert v["select_view_dim_out_of_range"]["message"] in raises(lambda: ops.SelectView()(Tensor(X), 0, 2),
                                                                 v["select_view_dim_out_of_range"])
    raises(lambda: ops.CopyWithSlice()(Tensor(X), Tensor(np.ones(3, np.float32))), v["copy_with_slice_shape"])
    raises(lambda: ops.CopyWithSlice()(Tensor(X), Tensor(np.ones((4, 3), np.int32))), v["copy_with_slice_dtype"])


def test_views_share_memory_in_pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    want = REF["views"]["sharing"]
    x = Tensor(X.copy())
    y = ops.TransposeView()(x, (1, 0))
    y[0, 1] = 100.0
    assert float(x.asnumpy()[1, 0]) == want["transpose_view_write_seen"]
    x = Tensor(X.copy())
    y = ops.SelectView()(x, 1, 0)
    y[0] = 100.0
    assert float(x.asnumpy()[1, 0]) == want["select_view_write_seen"]
    x = Tensor(X.copy())
    y = ops.TransposeExtView()(x, 0, 1)
    x[0, 1] = -5.0
    assert float(y.asnumpy()[1, 0]) == -5.0
    x = Tensor(X.copy())
    r = ops.CopyWithSlice()(x, Tensor(np.full((4, 3), 7, np.float32)))
    assert float(x.asnumpy()[0, 0]) == want["copy_with_slice_self_after"]
    np.testing.assert_array_equal(r.asnumpy(), np.full((4, 3), 7, np.float32))


def test_tensor_to_tuple():
    want = REF["tensor_to_tuple"]
    got = ops.TensorToTuple()(Tensor(np.array([1, 2, 3], np.int32)))
    assert got == tuple(want["int"]) and all(type(v) is int for v in got)
    got = ops.TensorToTuple()(Tensor(np.array([1.5, 2.0], np.float32)))
    assert got == tuple(want["float"]) and all(type(v) is float for v in got)


def test_tensor_to_tuple_in_graph_mode_runs_as_python_as_2_10():
    # 2.10 returns (1, 2) from a jit function too (its JIT fallback); ours runs the function as Python, with a warning
    with pytest.warns(RuntimeWarning, match="JIT fallback"):
        got = ms.jit(lambda a: ops.TensorToTuple()(a))(Tensor(np.array([1, 2], np.int32)))
    assert got == (1, 2) and all(type(v) is int for v in got)
    ms.set_context(jit_syntax_level=ms.STRICT)
    try:
        with pytest.raises((TypeError, RuntimeError), match="graph"):
            ms.jit(lambda a: ops.TensorToTuple()(a))(Tensor(np.array([1, 2], np.int32)))
    finally:
        ms.set_context(jit_syntax_level=ms.LAX)


def test_grads():
    g = REF["grads"]
    check(ms.grad(lambda a: ops.SelectView()(a, 1, 0).sum() * 2)(Tensor(X)), g["select_view"])
    check(ms.grad(lambda a: (ops.TransposeView()(a, (1, 0)) * Tensor(XR)).sum())(Tensor(X)), g["transpose_view"])
    check(ms.grad(lambda a: ops.FFTWithSize(1, True, True)(a).sum())(Tensor(XC)), g["fft_c2r"])


def test_embedding_lookup_grad_sums_rows_read():
    # 2.10 hands back a row-sparse gradient; the dense one: dout summed into the rows that were read
    g = ms.grad(lambda p: ops.EmbeddingLookup()(p, Tensor(np.array([[5, 2], [2, 5]], np.int32)), 1).sum())(Tensor(X))
    want = np.zeros((4, 3), np.float32)
    want[1] = 2.0
    np.testing.assert_array_equal(g.asnumpy(), want)


@pytest.mark.parametrize("i", range(len(REF["batch_to_space_nd"])))
def test_batch_to_space_nd_v2_equals_2_10_batch_to_space_nd(i):
    # 2.10 has no CPU kernel for BatchToSpaceNDV2 (cpu_unsupported in the fixture): its values are BatchToSpaceND's
    e = REF["batch_to_space_nd"][i]
    x = np.arange(48, dtype=np.float32).reshape(8, 1, 3, 2)
    got = ops.BatchToSpaceNDV2()(Tensor(x), Tensor(np.array(e["block"], np.int64)),
                                 Tensor(np.array(e["crops"], np.int32).reshape(-1, 2)))
    check(got, e["out"])


def test_batch_to_space_nd_v2_errors():
    x = Tensor(np.zeros((8, 1, 3, 2), np.float32))
    with pytest.raises(TypeError, match="block_shape"):
        ops.BatchToSpaceNDV2()(x, (2, 2), Tensor(np.zeros((2, 2), np.int32)))
    with pytest.raises(ValueError, match="crops"):
        ops.BatchToSpaceNDV2()(x, Tensor(np.array([2, 2], np.int32)), Tensor(np.zeros((3, 2), np.int32)))
    with pytest.raises(ValueError, match="divisible"):
        ops.BatchToSpaceNDV2()(x, Tensor(np.array([3, 1], np.int32)), Tensor(np.zeros((2, 2), np.int32))).asnumpy()
    with pytest.raises(ValueError, match=">= 1"):
        ops.BatchToSpaceNDV2()(x, Tensor(np.array([0, 1], np.int32)), Tensor(np.zeros((2, 2), np.int32))).asnumpy()


def test_rnnt_loss_and_confusion_matrix_errors():
    acts = Tensor(np.zeros((1, 2, 3, 4), np.float32))
    lab, tl, ul = Tensor(np.array([[1, 2]], np.int32)), Tensor(np.array([2], np.int32)), Tensor(np.array([2], np.int32))
    with pytest.raises(TypeError, match="labels"):
        ops.RNNTLoss()(acts, Tensor(np.array([[1, 2]], np.int64)), tl, ul)
    with pytest.raises(ValueError, match="U - 1"):
        ops.RNNTLoss()(acts, Tensor(np.array([[1]], np.int32)), tl, ul)
    with pytest.raises(ValueError, match="blank_label"):
        ops.RNNTLoss(blank_label=4)(acts, lab, tl, ul)
    with pytest.raises(ValueError, match="label_lengths"):
        ops.RNNTLoss()(acts, lab, tl, Tensor(np.array([3], np.int32)))[0].asnumpy()
    with pytest.raises(TypeError, match="num_classes"):
        ops.ConfusionMatrix(2.0)
    with pytest.raises(ValueError, match=r"labels' must be in \[0, 3\)"):
        ops.ConfusionMatrix(3)(Tensor(np.array([0, 3], np.int32)), Tensor(np.array([1, 1], np.int32))).asnumpy()


def test_cast_of_complex_keeps_the_real_part_without_warning():
    """2.10: complex -> float, int or bool takes the real part (NumPy warns, and its bool tests both parts)."""
    import warnings

    x = Tensor(np.array([1 + 2j, -3.5 - 1j, 0 + 1j], np.complex64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for dtype, want in ((ms.float32, [1.0, -3.5, 0.0]), (ms.float16, [1.0, -3.5, 0.0]), (ms.int32, [1, -3, 0]),
                            (ms.bool_, [True, True, False])):
            np.testing.assert_array_equal(ops.cast(x, dtype).asnumpy(), want)


def test_tuple_to_array_takes_a_range_and_the_first_numbers_type():
    """``ops.tuple_to_array(range(n))`` (MindYOLO's YOLOv4 head builds its grid so) works as in 2.10, and the first
    number decides the dtype, as 2.10 documents and does: (1, 2.5) -> Int32 [1, 2], (True, False) -> Int32."""
    cases = [(range(2, 5), ms.int32, [2, 3, 4]), ((1, 2.5), ms.int32, [1, 2]), ((1.5, 2), ms.float32, [1.5, 2.0]),
             ((True, False), ms.int32, [1, 0])]
    for value, dtype, want in cases:
        out = ops.tuple_to_array(value)
        assert out.dtype == dtype and out.asnumpy().tolist() == want, value
    with pytest.raises(TypeError, match="must be a tuple"):
        ops.tuple_to_array(5)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_cast_of_a_python_number_is_a_0d_tensor(mode):
    """2.10: ``Cast()(2.0, float16)`` is ``Tensor(2.0, float16)`` of shape () (MindPet's LoRADense casts its Python
    float scaling so, in construct); before, ours raised TypeError. Values recorded under 2.10."""
    class Scale(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.cast = ops.Cast()
            self.scaling = 2.0

        def construct(self, x):
            return x * self.cast(self.scaling, ms.float16)

    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        for value, dtype, want in ((2.0, ms.float16, 2.0), (3, ms.float32, 3.0), (True, ms.int32, 1),
                                   (2.7, ms.int32, 2)):
            out = ops.Cast()(value, dtype)
            assert isinstance(out, Tensor) and out.dtype == dtype and out.shape == () and out.asnumpy() == want
        y = Scale()(Tensor(np.array([1.0, 2.0], np.float16)))
        assert y.dtype == ms.float16
        np.testing.assert_array_equal(y.asnumpy(), [2.0, 4.0])
    finally:
        ms.set_context(mode=old)
