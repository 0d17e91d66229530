"""The protobuf modules MindSpore 2.10 has under ``mindspore.train``: ``node_strategy_pb2`` (strategy files, writing
2.10's bytes: the hex below was serialized by real MindSpore 2.10 from the same calls; read back by the parallel
add-on's reader, as the LLM weight-splitting tutorial's ``save_strategy_file`` uses them), ``checkpoint_pb2`` (a
``.ckpt`` file parses with it) and ``mind_ir_pb2`` (2.10's message and enum names)."""
import numpy as np
import pytest

import mindspore as ms

from mindspore.train import node_strategy_pb2 as pb

MS_2_10_HEX = ("0800120d0a0177120808001204080208011a1d0a017712180a04080208011204080108001a0408200820280030003800")


def _strategy_map():
    stra = pb.ParallelStrategyMap()
    stra.current_stage = 0
    item = stra.parallel_strategy_item.add()
    item.node_name = "w"
    item.parallel_strategys.stage = 0
    item.parallel_strategys.parallel_strategy.add().dim.extend([2, 1])
    layout = stra.parallel_layout_item.add()
    layout.param_name = "w"
    pl = layout.parallel_layouts
    pl.field, pl.opt_weight_shard_step, pl.opt_weight_shard_size = 0, 0, 0
    pl.dev_matrix.add().dim.extend([2, 1])
    pl.tensor_map.add().dim.extend([1, 0])
    pl.param_split_shape.add().dim.extend([32, 32])
    return stra


def test_messages_serialize_as_mindspore_2_10():
    assert _strategy_map().SerializeToString().hex() == MS_2_10_HEX
    assert pb.ParallelStrategyMap.DESCRIPTOR.full_name == "mindspore.straspb.ParallelStrategyMap"
    for name in pb.__all__[1:]:
        assert getattr(pb, name).DESCRIPTOR.name == name


def test_the_parallel_reader_reads_a_file_written_with_them(tmp_path):
    strategy_file = pytest.importorskip("mindspore.parallel._strategy_file")
    path = tmp_path / "strategy.ckpt"
    path.write_bytes(_strategy_map().SerializeToString())
    layouts = strategy_file.read_layouts(str(path))
    assert list(layouts) == ["w"]
    assert tuple(layouts["w"].dev_matrix) == (2, 1) and tuple(layouts["w"].tensor_map) == (1, 0)


# dir() of 2.10's mindspore.train.mind_ir_pb2, its upper-case names
MIND_IR_2_10 = ['AttributeProto', 'DESCRIPTOR', 'FunctorProto', 'GraphProto', 'IR_VERSION', 'IR_VERSION_START',
                'IR_VERSION_WITH_PRIM_FUNCTION', 'IR_VERSION_WITH_SCALAR_GRAPH_HOLDER', 'LayoutProto',
                'MapTensorProto', 'ModelProto', 'NodeProto', 'ParallelProto', 'PreprocessOpProto',
                'PreprocessorProto', 'PrimitiveProto', 'ScalarGraphHolderProto', 'ScalarNodeProto', 'TensorProto',
                'ValueInfoProto', 'Version']


def test_mind_ir_checkpoint_and_summary_modules(tmp_path):
    from mindspore.train import checkpoint_pb2, mind_ir_pb2, summary_pb2
    event = summary_pb2.Event(wall_time=1.5, step=3)
    event.summary.value.add(tag="loss").scalar_value = 0.25
    back = summary_pb2.Event.FromString(event.SerializeToString())
    assert (back.step, back.summary.value[0].tag, back.summary.value[0].scalar_value) == (3, "loss", 0.25)
    assert sorted(n for n in dir(mind_ir_pb2) if n[0].isupper()) == MIND_IR_2_10
    assert (mind_ir_pb2.IR_VERSION, mind_ir_pb2.Version.Name(mind_ir_pb2.IR_VERSION_START)) == (1, "IR_VERSION_START")
    path = str(tmp_path / "w.ckpt")
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.arange(3, dtype=np.float32))}], path)
    ckpt = checkpoint_pb2.Checkpoint()
    with open(path, "rb") as f:
        ckpt.ParseFromString(f.read())
    (value,) = ckpt.value
    assert value.tag == "w" and list(value.tensor.dims) == [3] and value.tensor.tensor_type == "Float32"
    np.testing.assert_array_equal(np.frombuffer(value.tensor.tensor_content, np.float32), [0, 1, 2])
