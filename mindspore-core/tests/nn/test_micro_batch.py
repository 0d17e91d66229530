"""The micro-batch wrappers' slices (what a parallel backend needs from them), ``Cell.compile`` and the pipeline keys of
the auto-parallel context."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, nn


def test_micro_batches_are_strided_slices_marked_skip_redistribution():
    """MindSpore's pipeline compiler marks the micro-batch StridedSlice ``skip_redistribution`` (each rank slices
    its own rows); mindspore-parallel reads the same attribute. The sums are unchanged in both modes."""
    dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    net = nn.PipelineCell(nn.WithLossCell(dense, nn.MSELoss()), 2)
    slicer = net.micro_inputs[0].strided_slice
    assert slicer.name == "StridedSlice" and slicer.attrs["skip_redistribution"] is True
    x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    y = Tensor(np.zeros((4, 2), np.float32))
    want = sum(float(np.mean((x.asnumpy()[2 * i:2 * i + 2].sum(1, keepdims=True) * np.ones((1, 2))) ** 2))
               for i in range(2))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            assert float(net(x, y)) == pytest.approx(want, rel=1e-6)
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


def test_cell_compile_compiles_without_running_and_the_call_reuses_it():
    from mindspore._pipeline import compiler
    net = nn.Dense(3, 2)
    x = Tensor(np.ones((4, 3), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        before = compiler.STATS["compiles"]
        assert net.compile(x) is None
        assert compiler.STATS["compiles"] > before
        compiled = compiler.STATS["compiles"]
        net(x)
        assert compiler.STATS["compiles"] == compiled
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    before = compiler.STATS["compiles"]
    net.compile(x)                     # PYNATIVE: nothing to compile
    assert compiler.STATS["compiles"] == before


def test_pipeline_result_broadcast_and_full_batch_dataset_strategy():
    """``pipeline_result_broadcast`` is a bool key; ``dataset_strategy="full_batch"`` sets ``full_batch`` as MindSpore's
    set_dataset_strategy does, and ``"data_parallel"`` clears it again."""
    try:
        assert ms.get_auto_parallel_context("pipeline_result_broadcast") is False
        ms.set_auto_parallel_context(pipeline_stages=4, pipeline_result_broadcast=True)
        assert ms.get_auto_parallel_context("pipeline_result_broadcast") is True
        with pytest.raises(TypeError, match="pipeline_result_broadcast"):
            ms.set_auto_parallel_context(pipeline_result_broadcast=1)
        ms.set_auto_parallel_context(dataset_strategy="full_batch")
        assert ms.get_auto_parallel_context("full_batch") is True
        ms.set_auto_parallel_context(dataset_strategy="data_parallel")
        assert ms.get_auto_parallel_context("full_batch") is False
    finally:
        ms.reset_auto_parallel_context()
