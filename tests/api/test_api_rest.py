"""The last public names of MindSpore 2.10: ``ops.GetNext`` / ``nn.GetNextSingleOp`` on the named data queue of
dataset sink mode, ``Tensor.delete_`` and the ``Tensor.data`` setter, ``ops.distribute``."""
import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops


def _helper():
    data = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.int32)}
    dataset = ds.NumpySlicesDataset(data, shuffle=False).batch(2)
    return ms.train.DatasetHelper(dataset, dataset_sink_mode=True)


def test_get_next_reads_the_sink_queue():
    helper = _helper()
    types, shapes = helper.types_shapes()
    name = helper.iter.dataset.__transfer_dataset__.queue_name
    x, y = ops.GetNext(types, shapes, len(types), name)()
    np.testing.assert_array_equal(x.asnumpy(), [[0, 1], [2, 3]])
    assert y.dtype == ms.int32
    x, y = nn.GetNextSingleOp(types, shapes, name)()          # the same stream: the next batch
    np.testing.assert_array_equal(y.asnumpy(), [2, 3])
    assert [b[1].asnumpy().tolist() for b in [next(helper.iter)]] == [[4, 5]]
    other = _helper()
    name = other.iter.dataset.__transfer_dataset__.queue_name
    with pytest.raises(RuntimeError, match="output 1 of the queue .* must be Float32 of shape"):
        ops.GetNext([ms.float32, ms.float32], [[2, 2], [2]], 2, name)()


def test_get_next_without_a_queue_and_bad_arguments():
    with pytest.raises(RuntimeError, match="there is no data queue named 'nowhere'"):
        ops.GetNext([ms.float32], [[2]], 1, "nowhere")()
    with pytest.raises(ValueError, match="types length"):
        ops.GetNext([ms.float32], [[2], [3]], 1, "q")
    assert ops.GetNext is ops.operations.GetNext


def test_delete_releases_until_new_data():
    x = ms.Tensor([1, 2, 3, 4])
    assert x.delete_() is x
    assert x.shape == (4,) and x.dtype == ms.int64
    with pytest.raises(ValueError, match="released by 'delete_'"):
        x.asnumpy()
    x.data = ms.Tensor([4.0, 5.0])                             # as in 2.10: data and dtype replaced
    assert x.dtype == ms.float32
    np.testing.assert_array_equal((x + 1).asnumpy(), [5.0, 6.0])
    with pytest.raises(ValueError, match="'non_blocking' must be bool"):
        x.delete_(non_blocking=1)


def test_distribute_broadcasts():
    out = ops.distribute(ms.Tensor([1.0, 2.0]), (3, 2))
    np.testing.assert_array_equal(out.asnumpy(), [[1, 2]] * 3)
    assert ops.functional.distribute is ops.distribute


def test_map_uniform_matches_2_10():
    # numbers printed by MindSpore 2.10's CPU kernel (C's truncating % and /)
    out = ops.MapUniform()(ms.Tensor(np.array([[0, 5], [7, 2]]), ms.int64), 3, 3)
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [[0, 7], [5, 6]]
    assert ops.MapUniform()(ms.Tensor(np.array([-3, 1, -1, -4, 2]), ms.int32), 4, 2).asnumpy().tolist() == \
        [-5, 4, -4, -2, 1]
    with pytest.raises(RuntimeError, match="all elements in output must be less than 8, but got 8"):
        ops.MapUniform()(ms.Tensor(np.array([0, 9]), ms.int32), 4, 2)
    with pytest.raises(TypeError, match=r"must be a type of .*Tensor\[Float32\]"):
        ops.MapUniform()(ms.Tensor([1.0, 2.0]), 3, 3)


def test_get_next_reads_at_every_run_of_a_compiled_graph():
    helper = _helper()
    types, shapes = helper.types_shapes()
    name = helper.iter.dataset.__transfer_dataset__.queue_name

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.get_next = ops.GetNext(types, shapes, 2, name)

        def construct(self):
            x, y = self.get_next()
            return x.sum() + y.sum()

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = Net()
        assert [float(net().asnumpy()) for _ in range(3)] == [7.0, 27.0, 47.0]   # 0+1+2+3 + 0+1, ...
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.cpu_backend      # an address is taken only where tensors live in host memory
def test_set_device_address_shares_host_memory():
    src = np.arange(6, dtype=np.float32)
    x = ms.Tensor(np.zeros(4, np.int32))
    assert x.set_device_address(src.ctypes.data, (2, 3), ms.float32) is None
    assert x.shape == (2, 3) and x.dtype == ms.float32
    src[0] = 100.0                                             # no copy: the tensor reads the caller's memory
    np.testing.assert_array_equal((x + 0).asnumpy(), [[100, 1, 2], [3, 4, 5]])
    with pytest.raises(TypeError, match="'addr' must be a positive int"):
        x.set_device_address("0x0", (2,), ms.float32)


def test_set_device_address_refuses_a_target_with_device_memory():
    if ms.get_context("device_target") == "CPU":
        pytest.skip("the CPU keeps tensors in host memory (test_set_device_address_shares_host_memory)")
    src = np.arange(6, dtype=np.float32)
    x = ms.Tensor(np.zeros(4, np.int32))
    with pytest.raises(RuntimeError, match="keeps tensor data in device memory"):
        x.set_device_address(src.ctypes.data, (2, 3), ms.float32)
    assert x.shape == (4,) and x.dtype == ms.int32
