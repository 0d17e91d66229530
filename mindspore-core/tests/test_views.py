"""PYNATIVE views, as in MindSpore 2.10: slices, ``view`` and ``from_numpy`` share memory with their source.

The expected results were read off real MindSpore 2.10 (CPU) for the same statements, including where it
does not alias: an assignment through a boolean mask, an integer-tensor index or a lone ``...`` makes a new
buffer, so earlier views keep the old values. Under a gradient tape or in GRAPH_MODE nothing aliases.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
from mindspore._runtime import backend as _backend


def arange(*shape, dtype=np.float32):
    return ms.Tensor(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))


def test_writes_through_a_slice_reach_the_source_and_back():
    x = arange(6)
    y = x[1:3]
    y[0] = 99
    assert x.asnumpy().tolist() == [0, 99, 2, 3, 4, 5]
    x[2] = -1
    assert y.asnumpy().tolist() == [99, -1]
    z = y[1:]                       # a view of a view
    z[0] = 7
    assert x.asnumpy().tolist() == [0, 99, 7, 3, 4, 5]


@pytest.mark.parametrize("make, written", [
    (lambda x: x[0], (0, 0)),
    (lambda x: x[1], (1, 0)),
    (lambda x: x[:, 1:], (0, 1)),
    (lambda x: x[..., None], (0, 0)),
    (lambda x: x[None], (0, 0)),
    (lambda x: x.view(6), (0, 0)),
    (lambda x: x.reshape(6), (0, 0)),
    (lambda x: ops.reshape(x, (3, 2)), (0, 0)),
    (lambda x: x.flatten(), (0, 0)),
    (lambda x: x.expand_dims(0), (0, 0)),
    (lambda x: x.unsqueeze(0), (0, 0)),
    (lambda x: x[None].squeeze(0), (0, 0)),
    (lambda x: ops.split(x, 1, 0)[0], (0, 0)),
    (lambda x: ops.chunk(x, 2, 0)[0], (0, 0)),
], ids=["x[0]", "x[1]", "x[:,1:]", "x[...,None]", "x[None]", "view", "reshape", "ops.reshape", "flatten",
        "expand_dims", "unsqueeze", "squeeze", "split", "chunk"])
def test_view_results_alias_their_input(make, written):
    x = arange(2, 3)
    y = make(x)
    y[(0,) * y.ndim] = -7
    expected = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected[written] = -7
    np.testing.assert_array_equal(x.asnumpy(), expected)


@pytest.mark.parametrize("make", [lambda x: x + 0, lambda x: x.copy(), lambda x: x[ms.Tensor([0, 1])],
                                  lambda x: ms.Tensor(x.asnumpy())], ids=["add", "copy", "int-tensor", "Tensor(nd)"])
def test_computed_results_do_not_alias(make):
    x = arange(2, 3)
    y = make(x)
    y[(0,) * y.ndim] = -7
    np.testing.assert_array_equal(x.asnumpy(), np.arange(6, dtype=np.float32).reshape(2, 3))


def test_from_numpy_shares_both_ways_and_tensor_of_an_array_copies():
    if not _backend.data_runtime().is_host:
        pytest.skip("from_numpy shares memory with its array only where tensors live in host memory")
    a = np.arange(6, dtype=np.float32)
    t = ms.Tensor.from_numpy(a)
    a[0] = 100
    assert t.asnumpy()[0] == 100
    t[1] = 50
    assert a[1] == 50
    t[2:4] = ms.Tensor([7.0, 8.0])
    assert a.tolist() == [100, 50, 7, 8, 4, 5]
    b = np.arange(3, dtype=np.float32)
    u = ms.Tensor(b)
    u[0] = 9
    assert b.tolist() == [0, 1, 2]


def test_a_read_only_array_is_not_written_but_the_assignment_still_happens():
    a = np.arange(4, dtype=np.float32)
    a.flags.writeable = False
    t = ms.Tensor.from_numpy(a)
    t[0] = 5
    assert t.asnumpy().tolist() == [5, 1, 2, 3]
    assert a.tolist() == [0, 1, 2, 3]


def test_assignments_that_rebind_as_in_mindspore():
    for assign in (lambda x: x.__setitem__(x > 2, 0), lambda x: x.__setitem__(ms.Tensor([0]), 5),
                   lambda x: x.__setitem__(Ellipsis, 5), lambda x: x.add_(1)):
        x = arange(2, 3)
        y = x[0]
        assign(x)
        assert y.asnumpy().tolist() == [0, 1, 2]
    x = arange(2, 3)
    y = x[0]
    x[:] = 1                        # a slice assignment writes in place
    assert y.asnumpy().tolist() == [1, 1, 1]
    x = arange(4)
    y = x[1:3]
    x.copy_(ms.Tensor(np.zeros(4, np.float32)))
    assert y.asnumpy().tolist() == [0, 0]


def test_scalar_and_zero_d_views():
    x = arange(2, 3)
    s = x[0, 1]
    assert s.shape == () and isinstance(s, ms.Tensor)
    x[0, 1] = 42
    assert float(s.asnumpy()) == 42
    x = arange(5, dtype=np.int32)
    x[0] = 2.7                      # cast to the tensor's dtype, as MindSpore
    assert x.asnumpy().tolist() == [2, 1, 2, 3, 4]
    assert x.dtype == ms.int32


def test_overlapping_assignment_reads_before_it_writes():
    x = arange(5)
    x[1:] = x[:-1]
    assert x.asnumpy().tolist() == [0, 0, 1, 2, 3]


def test_broadcast_value_and_its_errors():
    x = arange(2, 3)
    x[:, 1:] = ms.Tensor([[5.0, 6.0]])
    assert x.asnumpy().tolist() == [[0, 5, 6], [3, 5, 6]]
    x[0] = ms.Tensor([[[1.0, 2.0, 3.0]]])   # leading size-1 dimensions are dropped
    assert x.asnumpy()[0].tolist() == [1, 2, 3]
    with pytest.raises(ValueError, match=r"value of shape \(3,\) could not be broadcast .* shape \(2,\)"):
        x[0, 0:2] = ms.Tensor([1.0, 2.0, 3.0])
    with pytest.raises(IndexError):
        x[2] = 0


def test_parameter_slices_are_tensor_views():
    p = ms.Parameter(arange(4), name="p")
    v = p[1:3]
    assert type(v) is ms.Tensor
    v[0] = -3
    assert p.asnumpy().tolist() == [0, -3, 2, 3]


def test_layout_of_views():
    x = arange(3, 4)
    v = x[1:, ::2]
    assert (v.is_contiguous(), v.stride(), v.storage_offset()) == (False, [4, 2], 4)
    assert (x.is_contiguous(), x.stride(), x.storage_offset()) == (True, [4, 1], 0)
    assert (x[1].is_contiguous(), x[1].storage_offset()) == (True, 4)
    c = v.contiguous()
    assert c.is_contiguous() and c.stride() == [2, 1]
    c[0, 0] = -1
    assert x.asnumpy()[1, 0] == 4          # contiguous() of a strided view is a copy
    assert x.contiguous() is x


def test_strided_views_compute_like_their_values():
    base = np.random.default_rng(0).standard_normal((4, 6, 8)).astype(np.float32)
    x = ms.Tensor(base.copy())
    v, ref = x[1:, ::2, 1::3], base[1:, ::2, 1::3]
    np.testing.assert_allclose((v + 1).asnumpy(), ref + 1, rtol=1e-6)
    np.testing.assert_allclose(ops.exp(v).asnumpy(), np.exp(ref), rtol=1e-5)
    np.testing.assert_allclose(v.sum(axis=1).asnumpy(), ref.sum(axis=1), rtol=1e-5)
    np.testing.assert_allclose(ops.matmul(v, ops.transpose(v, (0, 2, 1))).asnumpy(), ref @ ref.transpose(0, 2, 1),
                               rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(ops.softmax(v, -1).asnumpy(),
                               np.exp(ref) / np.exp(ref).sum(-1, keepdims=True), rtol=1e-5)
    img = x[None, :, ::2, ::2]                       # (1, 4, 3, 4), strided
    w = ms.Tensor(np.ones((2, 4, 2, 2), np.float32))
    out = ops.conv2d(img, w)
    ref_img = base[None, :, ::2, ::2]
    expected = np.array([[ref_img[0, :, i:i + 2, j:j + 2].sum() for j in range(3)] for i in range(2)])
    np.testing.assert_allclose(out.asnumpy()[0, 0], expected, rtol=1e-5)
    np.testing.assert_allclose(out.asnumpy()[0, 1], expected, rtol=1e-5)


def test_gradients_never_see_a_view_written_behind_the_tape():
    def f(x):
        z = ops.exp(x)
        w = z[0:2]                  # a copy under the tape
        z[0] = 0                    # rebinds z: w and the saved exp(x) keep their values
        return w.sum() + (z * z).sum()
    x = ms.Tensor(np.array([0.5, 1.0, 2.0], np.float32))
    g = ms.grad(f)(x)
    e = np.exp(x.asnumpy())
    # w = [e0, e1] and z = [0, e1, e2]: d/dx = [e0, e1 + 2 e1^2, 2 e2^2]
    np.testing.assert_allclose(g.asnumpy(), [e[0], e[1] + 2 * e[1] ** 2, 2 * e[2] ** 2], rtol=1e-5)

    def h(x):
        y = x * 1
        y[0] = y[1] * 5
        return y.sum()
    np.testing.assert_allclose(ms.grad(h)(ms.Tensor([1.0, 2.0, 3.0])).asnumpy(), [0, 6, 1])


def test_graph_mode_slices_are_values():
    @ms.jit
    def f(x):
        y = x[1:3]
        x[1] = 10
        return y + 0, x
    x = arange(4)
    y, out = f(x)
    assert y.asnumpy().tolist() == [1, 2]
    assert out.asnumpy().tolist() == [0, 10, 2, 3]
