"""The ``mindspore.ops`` functions of ``ops/function/math_ext_func.py``, ``segment_func.py`` and
``misc_func.py`` beyond the conformance cases (``tests/conformance/cases_math_ext.py``, ``cases_segment.py``,
``cases_misc.py``): signatures as recorded from MindSpore 2.10
(``tests/fixtures/api/ops_ext_signatures.json``, made by ``make_ops_ext_fixture.py``), results that are not
tensors of tensor inputs (index tables, predicates, ``logspace``), and MindSpore-style errors.
"""
import inspect
import json
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "ops_ext_signatures.json"
SIGNATURES = json.loads(FIXTURE.read_text())["signatures"]


def _describe(fn):
    out = []
    for p in inspect.signature(fn).parameters.values():
        d = p.default
        if d is inspect.Parameter.empty:
            default = None
        elif isinstance(d, ms.dtype.Type):
            default = "dtype:" + str(d).lower()
        else:
            default = repr(d)
        out.append([p.name, p.kind.name, default])
    return out


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_signature_matches_mindspore_2_10(name):
    assert _describe(getattr(ops, name)) == SIGNATURES[name]


@pytest.mark.parametrize("fn, lower", [(ops.tril_indices, True), (ops.triu_indices, False)])
@pytest.mark.parametrize("row, col, offset", [(3, 4, 1), (4, 3, -1), (3, 3, 0), (0, 2, 0), (2, 5, -3)])
def test_tri_indices(fn, lower, row, col, offset):
    ref = np.tril_indices(row, offset, col) if lower else np.triu_indices(row, offset, col)
    out = fn(row, col, offset)
    assert out.dtype == ms.int64 and out.shape == (2, len(ref[0]))
    np.testing.assert_array_equal(out.asnumpy(), np.stack(ref))
    assert fn(row, col, offset, dtype=ms.int32).dtype == ms.int32


def test_tri_indices_errors():
    with pytest.raises(TypeError, match="For 'TrilIndices', the 'dtype' must be int32 or int64"):
        ops.tril_indices(2, 2, dtype=ms.float32)
    with pytest.raises(ValueError, match="'row' and 'col' must be non-negative"):
        ops.triu_indices(-1, 2)


def test_logspace():
    out = ops.logspace(0.0, 2.0, 3)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [1.0, 10.0, 100.0], rtol=1e-6)
    np.testing.assert_allclose(ops.logspace(1, 3, 3, base=2, dtype=ms.float64).asnumpy(), [2.0, 4.0, 8.0])
    with pytest.raises(TypeError, match="For 'LogSpace', the 'dtype' should be one of"):
        ops.logspace(0.0, 2.0, 3, dtype=ms.int32)


def test_predicates():
    x = ms.Tensor(np.ones(3, np.float32))
    i = ms.Tensor(np.ones(3, np.int32))
    assert ops.is_tensor(x) and not ops.is_tensor(np.ones(3)) and not ops.is_tensor(1.0)
    assert ops.is_floating_point(x) is True and ops.is_floating_point(i) is False
    assert ops.is_complex(x) is False


def test_under_jit_matches_eager():
    @ms.jit
    def f(a, v):
        return ops.det(a), ops.diag_embed(v, 1), ops.cross(a, a[::-1]), ops.nansum(a, 0), ops.rot90(a, 1, (0, 1))

    a = ms.Tensor(np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], np.float32))
    v = ms.Tensor(np.array([1.0, 2.0], np.float32))
    got = f(a, v)
    want = (ops.det(a), ops.diag_embed(v, 1), ops.cross(a, a[::-1]), ops.nansum(a, 0), ops.rot90(a, 1, (0, 1)))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(got[0].asnumpy(), np.linalg.det(a.asnumpy()), rtol=1e-5)


def test_det_grad_is_cofactor_matrix():
    a = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    g = ms.grad(ops.det)(ms.Tensor(a))
    np.testing.assert_allclose(g.asnumpy(), np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-10)


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: ops.det(ms.Tensor(np.ones((3, 2), np.float32))), ValueError,
     r"For 'MatrixDeterminant', the 'input' must be square matrices"),
    (lambda: ops.det(ms.Tensor(np.ones((2, 2), np.int32))), TypeError,
     "For 'MatrixDeterminant', the 'input' must be a float or complex tensor"),
    (lambda: ops.matrix_power(ms.Tensor(np.ones((2, 2), np.float32)), 1.5), TypeError,
     "For 'MatrixPower', the 'n' must be an int"),
    (lambda: ops.diag_embed(ms.Tensor(np.ones(3, np.float32)), 0, 0, -2), ValueError,
     "For 'diag_embed', 'dim1' must not be equal to 'dim2'"),
    (lambda: ops.tensor_split(ms.Tensor(np.ones(3, np.float32)), 0), ValueError,
     "For 'tensor_split', the 'indices_or_sections' must be greater than 0"),
    (lambda: ops.vsplit(ms.Tensor(np.ones(3, np.float32)), 1), ValueError,
     "For 'vsplit', the dimension of 'input' must be at least 2"),
    (lambda: ops.hsplit(ms.Tensor(np.ones((2, 3), np.float32)), 2), ValueError,
     "For 'hsplit', the size 3 of dimension 1 must be divisible"),
    (lambda: ops.rot90(ms.Tensor(np.ones((2, 3), np.float32)), 1, (0, 0)), ValueError,
     "For 'rot90', the 'dims' must be different"),
    (lambda: ops.nanmean(ms.Tensor(np.ones(3, np.int32))), TypeError,
     "For 'nanmean', the 'input' must be a float tensor"),
    (lambda: ops.Xdivy()(ms.Tensor(np.ones(3, np.int32)), ms.Tensor(np.ones(3, np.int32))), TypeError,
     r"For primitive\[Xdivy\], the input argument\[x\] must be a type of"),
    (lambda: ops.Rint()(ms.Tensor(np.ones(3, np.int32))), TypeError,
     r"For primitive\[Rint\], the input argument\[x\] must be a type of"),
    (lambda: ops.LeftShift()(ms.Tensor(np.ones(3, np.int32)), ms.Tensor(np.ones(3, np.int64))), TypeError,
     "For 'LeftShift', the dtype of two args should be same"),
    (lambda: ops.RightShift()(ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.ones(3, np.float32))), TypeError,
     "For 'RightShift', the dtype of input should be one of"),
    (lambda: ops.clamp(ms.Tensor(np.ones(3, np.int32))), ValueError,
     "For 'clamp', at least one of 'min' and 'max' must not be None"),
])
def test_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_sequence_mask_default_maxlen_is_longest():
    out = ops.sequence_mask(ms.Tensor(np.array([[1, 3], [2, 0]], np.int32)))
    assert out.shape == (2, 2, 3) and out.dtype == ms.bool_
    np.testing.assert_array_equal(out.asnumpy(), np.arange(3) < np.array([[1, 3], [2, 0]])[..., None])


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: ops.unsorted_segment_sum(ms.Tensor(np.ones((3, 2), np.float32)), ms.Tensor(np.zeros(2, np.int32)), 2),
     ValueError, "For 'UnsortedSegmentSum', the shape of 'segment_ids' must be a prefix"),
    (lambda: ops.unsorted_segment_max(ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.zeros(3, np.int32)), 0),
     ValueError, "For 'UnsortedSegmentMax', the 'num_segments' must be a positive int"),
    (lambda: ops.tensor_scatter_max(ms.Tensor(np.ones((3, 2), np.float32)), ms.Tensor(np.zeros((2, 1), np.int32)),
                                    ms.Tensor(np.ones(2, np.float32))),
     ValueError, r"For 'TensorScatterMax', the shape of 'updates' must be \(2, 2\)"),
    (lambda: ops.channel_shuffle(ms.Tensor(np.ones((1, 4, 2), np.float32)), 2), TypeError,
     "For ChannelShuffle, expect input with > 3 dims, but got 3."),
    (lambda: ops.slice_scatter(ms.Tensor(np.ones((4, 2), np.float32)), ms.Tensor(np.ones((3, 2), np.float32)),
                               0, 0, 4, 2), ValueError, r"For 'slice_scatter', the shape of 'src' must be \(2, 2\)"),
    (lambda: ops.population_count(ms.Tensor(np.ones(2, np.float32))), TypeError,
     "For 'PopulationCount', the 'input_x' must be an integer tensor"),
])
def test_segment_errors(call, exc, msg):
    with pytest.raises(exc, match=msg):
        call()


def test_scatter_updates_a_parameter_in_place_eager_and_jit():
    p = ms.Parameter(ms.Tensor(np.zeros((3, 2), np.float32)), name="p")
    idx = ms.Tensor(np.array([0, 0, 2], np.int32))
    upd = ms.Tensor(np.ones((3, 2), np.float32))
    out = ops.scatter_add(p, idx, upd)
    assert type(out) is ms.Tensor      # 2.10: the Parameter's new values, not the Parameter itself
    np.testing.assert_array_equal(p.asnumpy(), [[2, 2], [0, 0], [1, 1]])
    np.testing.assert_array_equal(out.asnumpy(), p.asnumpy())

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones((3, 2), np.float32)), name="w")

        def construct(self, i, u):
            return ops.scatter_nd_max(self.w, i, u)

    net = Net()
    ms.jit(net.construct)(ms.Tensor(np.array([[0], [0]], np.int32)), ms.Tensor(np.array([[2.0, 0.0], [3.0, -1.0]],
                                                                                          np.float32)))
    np.testing.assert_array_equal(net.w.asnumpy(), [[3, 1], [1, 1], [1, 1]])


def test_windows_and_misc_scalars():
    assert ops.hann_window(5).dtype == ms.float64 and ops.hamming_window(4).dtype == ms.float32
    assert ops.hann_window(0).shape == (0,)
    assert ops.is_nonzero(ms.Tensor(np.array([0.5], np.float32))) is True
    assert ops.is_nonzero(ms.Tensor(np.array([[0]], np.int32))) is False
    with pytest.raises(ValueError, match="For 'is_nonzero', the 'input' must have exactly one element"):
        ops.is_nonzero(ms.Tensor(np.ones(2, np.float32)))
    values, idx = ops.unique_with_pad(ms.Tensor(np.array([1, 1, 5, 5, 4, 4, 3, 3, 2, 2], np.int32)), 0)
    np.testing.assert_array_equal(values.asnumpy(), [1, 5, 4, 3, 2, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(idx.asnumpy(), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4])
    assert idx.dtype == ms.int32
