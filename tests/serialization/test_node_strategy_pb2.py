"""``mindspore.train.node_strategy_pb2``: MindSpore's strategy-file messages under their 2.10 module name, writing
2.10's bytes (the hex below was serialized by real MindSpore 2.10 from the same calls), and read back by the parallel
add-on's reader, as the LLM weight-splitting tutorial's ``save_strategy_file`` uses them."""
import pytest

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
