"""Tensor methods of MindSpore 2.10 about storage, devices, hooks and flags (``mindspore._tensor_flags``)."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor


def _x():
    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))


def test_requires_grad_():
    x = _x()
    assert x.requires_grad is True
    assert x.requires_grad_(False) is None
    assert x.requires_grad is False
    x.requires_grad_()
    assert x.requires_grad is True
    p = ms.Parameter(_x(), "w")
    p.requires_grad_(False)
    assert p.requires_grad is False


def test_to_and_set_():
    x = _x()
    assert x.to_("CPU") is x
    y = Tensor(np.ones(4, np.float32))
    assert y.set_(x) is y
    assert y.shape == (2, 3) and y.asnumpy().tolist() == x.asnumpy().tolist()
    with pytest.raises(TypeError):
        y.set_(np.ones(2))


def test_untyped_storage():
    x = _x()
    s = x.untyped_storage()
    assert isinstance(s, ms.UntypedStorage) and isinstance(x.storage(), ms.UntypedStorage)
    assert s.nbytes() == s.size() == 24 and s.element_size() == 1
    buf = x._buffer()
    if isinstance(buf, np.ndarray) or hasattr(buf, "__cuda_array_interface__"):
        assert s.data_ptr() == x.data_ptr()
    else:   # a device whose buffers expose no address (the STRICT test device)
        with pytest.raises(RuntimeError, match="exposes no address"):
            s.data_ptr()
    y = Tensor(np.zeros((2, 3), np.float32))
    y.untyped_storage().copy_(s)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    with pytest.raises(RuntimeError, match="sizes must match"):
        Tensor(np.zeros(2, np.float32)).untyped_storage().copy_(s)
    z = _x()
    z.untyped_storage().resize_(0)
    assert z.untyped_storage().nbytes() == 0
    z.untyped_storage().resize_(24)
    assert z.shape == (2, 3) and z.asnumpy().sum() == 0


def test_dlpack_round_trip_and_numpy_exporters():
    x = _x()
    back = Tensor.from_dlpack(x.to_dlpack())
    np.testing.assert_array_equal(back.asnumpy(), x.asnumpy())
    arr = np.arange(4, dtype=np.int32)
    t = Tensor.from_dlpack(arr)
    assert t.dtype == ms.int32 and t.asnumpy().tolist() == [0, 1, 2, 3]
    with pytest.raises(TypeError):
        Tensor.from_dlpack(3)


def test_index_hooks_and_remove_hook():
    x = _x()
    np.testing.assert_array_equal(x.index((Tensor([1, 0]),)).asnumpy(), x.asnumpy()[[1, 0]])
    np.testing.assert_array_equal(x.index((Tensor([1]), Tensor([2]))).asnumpy(), [5.0])

    def hook(g):
        return g * 3
    w = Tensor(np.array([1.0, 2.0], np.float32))
    handle = w.register_hook(hook)
    assert w.hooks() == [hook]
    g = ms.grad(lambda a: (a * a).sum())(w)
    np.testing.assert_allclose(g.asnumpy(), [6.0, 12.0])
    Tensor.remove_hook(handle)
    assert w.hooks() == []
    g = ms.grad(lambda a: (a * a).sum())(w)
    np.testing.assert_allclose(g.asnumpy(), [2.0, 4.0])


def test_flags(tmp_path):
    x = _x()
    assert (x.init_flag, x.const_arg, x.param_info, x.virtual_flag, x.symbolic_shape, x.init) == \
        (False, False, None, False, None, None)
    x.set_init_flag(True)
    assert x.init_flag is True and x.is_init() is True
    assert x.set_const_arg().const_arg is True
    with pytest.raises(TypeError):
        x.set_const_arg(1)
    x.set_param_info("info")
    assert x.param_info == "info"
    path = str(tmp_path / "x.bin")
    assert x.offload(path) is True and x.offload_file_path() == path
    np.testing.assert_array_equal(np.fromfile(path, np.float32).reshape(2, 3), x.asnumpy())
    t = Tensor.convert_bytes_to_tensor(np.array([1.5, 2.5], np.float32).tobytes(), (2,), ms.float32)
    assert t.asnumpy().tolist() == [1.5, 2.5]
    from mindspore.common.initializer import One
    lazy = Tensor(shape=(2,), dtype=ms.float32, init=One())
    assert isinstance(lazy.init, One)
    assert x.data_sync(True) is None and x.wait_pipeline() is None
