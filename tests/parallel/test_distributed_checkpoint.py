"""Distributed checkpoints: per-rank slices + MindSpore's strategy file, merged, loaded and re-sharded.

The sliced checkpoints here are built *by hand*: each rank's slice is cut from a full network's parameters with
plain NumPy indexing (:func:`hand_slice`, written independently of the library's box arithmetic), then the
library must merge / load / transform them back exactly. ``tests/fixtures/parallel`` holds files written by
the real MindSpore 2.10 (see its ``make_fixtures.py``): its strategy file, per-rank checkpoints and the outputs
of its ``transform_checkpoints``, which ours must reproduce byte for byte. One test runs 2 real ranks under
``mpiexec``; one asks the real MindSpore (when ``/tmp/w/msref`` exists) to read the strategy files we write.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn

pytest.importorskip("mindspore.parallel")

from mindspore.parallel import _strategy_file as sf  # noqa: E402
from mindspore.parallel._checkpoint_layout import LayoutError  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "parallel"
MS_PYTHON = pathlib.Path("/tmp/w/msref/bin/python")
sys.path.insert(0, str(ROOT / "mindspore-parallel" / "tests"))


# ------------------------------------------------------------------------------------------ helpers

def hand_slice(full, dev, tmap, rank, opt_size=0):
    """``rank``'s slice of ``full``: ranks row-major over ``dev``; ``tmap`` counts device axes from the right;
    a tuple entry splits one dimension over several axes (first outermost); ``opt_size`` cuts the rows of the
    slice once more over the repeated axes (innermost first)."""
    coord = np.unravel_index(rank, dev)
    index, used = [], set()
    for d, entry in enumerate(tmap):
        axes = [len(dev) - 1 - a for a in (entry if isinstance(entry, tuple) else (entry,)) if a != -1]
        used.update(axes)
        parts, k = 1, 0
        for ax in axes:
            parts, k = parts * dev[ax], k * dev[ax] + coord[ax]
        n = full.shape[d] // parts
        index.append(slice(k * n, (k + 1) * n))
    part = full[tuple(index)]
    if opt_size:
        rep_axes = [a for a in range(len(dev)) if a not in used and dev[a] > 1]
        rep = 0
        for ax in rep_axes:
            rep = rep * dev[ax] + coord[ax]
        size = int(np.prod([dev[a] for a in rep_axes])) if opt_size == -1 else opt_size
        n = part.shape[0] // size
        part = part[(rep % size) * n:(rep % size + 1) * n]
    return part


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.fc2 = nn.Dense(8, 4)
        self.table = Parameter(Tensor(np.zeros((8, 6), np.float32)), name="table")

    def construct(self, x):
        return self.fc2(self.fc1(x))


def seeded_mlp(seed):
    net = MLP()
    rng = np.random.default_rng(seed)
    for _, p in net.parameters_and_names():
        p.set_data(Tensor(rng.standard_normal(p.shape).astype(np.float32)))
    return net


def full_params(net):
    return {p.name: p.asnumpy() for _, p in net.parameters_and_names()}


def save_ranks(directory, full, layouts, ranks, extra=None):
    """Write ``directory/rank_<r>/net.ckpt`` with every rank's hand-cut slices (plus ``extra`` entries)."""
    files = []
    for r in range(ranks):
        path = directory / f"rank_{r}" / "net.ckpt"
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = [{"name": k, "data": Tensor(hand_slice(v, *_dev_map(layouts[k]), r, _opt(layouts[k])))}
                   for k, v in full.items()]
        ms.save_checkpoint(entries, str(path), append_dict=extra)
        files.append(str(path))
    return files


def _dev_map(layout):
    if isinstance(layout, dict):
        return layout["dev_matrix"], tuple(tuple(e) if isinstance(e, list) else e for e in layout["tensor_map"])
    return layout[0], tuple(tuple(e) if isinstance(e, list) else e for e in layout[1])


def _opt(layout):
    return layout.get("opt_weight_shard_size", 0) if isinstance(layout, dict) else 0


# Layout sets over the MLP's parameters (fc1.weight (8, 6), fc1.bias (8,), fc2.weight (4, 8), fc2.bias (4,),
# table (8, 6)).
LAYOUTS = {
    "2-col-row": {"fc1.weight": ([2], [0, -1]), "fc1.bias": ([2], [0]), "fc2.weight": ([2], [-1, 0]),
                  "fc2.bias": ([2], [-1]), "table": ([2], [-1, 0])},
    "4-2d": {"fc1.weight": ([2, 2], [1, 0]), "fc1.bias": ([2, 2], [-1]), "fc2.weight": ([2, 2], [-1, 1]),
             "fc2.bias": ([2, 2], [0]), "table": ([2, 2], [0, 1])},
    "4-repeated": {"fc1.weight": ([2, 2], [0, -1]), "fc1.bias": ([2, 2], [1]), "fc2.weight": ([2, 2], [-1, -1]),
                   "fc2.bias": ([4], [-1]), "table": ([4], [0, -1])},
    "4-multi-axis": {"fc1.weight": ([2, 2], [(1, 0), -1]), "fc1.bias": ([2, 2], [(0, 1)]),  # 1-D, 2 axes
                     "fc2.weight": ([2, 2], [-1, (1, 0)]), "fc2.bias": ([2, 2], [-1]),
                     "table": ([2, 2], [-1, -1])},
    "4-opt-shard": {
        "fc1.weight": {"dev_matrix": [2, 2], "tensor_map": [-1, 0], "opt_weight_shard_step": 2,
                       "opt_weight_shard_size": 2},
        "fc1.bias": {"dev_matrix": [2, 2], "tensor_map": [-1], "opt_weight_shard_step": 1,
                     "opt_weight_shard_size": -1},
        "fc2.weight": {"dev_matrix": [2, 2], "tensor_map": [1, -1], "opt_weight_shard_step": 1,
                       "opt_weight_shard_size": 2},
        "fc2.bias": {"dev_matrix": [2, 2], "tensor_map": [-1], "opt_weight_shard_step": 1,
                     "opt_weight_shard_size": 2},
        "table": {"dev_matrix": [4], "tensor_map": [0, -1]}},
}


def _n_ranks(layouts):
    return int(np.prod(_dev_map(next(iter(layouts.values())))[0]))


def _strategy_layouts(layouts, full):
    out = {}
    for k, v in layouts.items():
        if isinstance(v, dict):
            out[k] = v
        else:
            out[k] = (v[0], v[1], full[k].shape)
    return out


@pytest.fixture
def distributed(tmp_path, request):
    name = request.param
    layouts = LAYOUTS[name]
    net = seeded_mlp(7)
    full = full_params(net)
    files = save_ranks(tmp_path / "src", full, layouts, _n_ranks(layouts),
                       extra={"global_step": Tensor(np.array(11, np.int32)), "note": "run 3"})
    strategy = sf.write_strategy_file(str(tmp_path / "strategy.ckpt"), _strategy_layouts(layouts, full))
    return tmp_path, layouts, full, files, strategy


ALL = sorted(LAYOUTS)


# ----------------------------------------------------------------------------------- strategy file

def test_reads_mindspore_strategy_file():
    strategy = ms.build_searched_strategy(str(FIX / "src_strategy.ckpt"))
    assert list(strategy) == ["w1", "w2", "b", "e", "m"]
    m = strategy["m"]
    assert list(m.dev_matrix[0].dim) == [2, 2] and list(m.tensor_map[0].dim) == [-1, 0]
    assert list(m.param_split_shape[0].dim) == [] and m.field == 0
    assert (m.opt_weight_shard_step, m.opt_weight_shard_size) == (2, 2)


def test_writer_reproduces_mindspore_bytes(tmp_path):
    layouts = {"w1": ([2, 2], [-1, 0], None), "w2": ([2, 2], [0, -1], None), "b": ([2, 2], [-1], None),
               "e": ([2, 2], [1, -1], None),
               "m": {"dev_matrix": [2, 2], "tensor_map": [-1, 0], "opt_weight_shard_step": 2,
                     "opt_weight_shard_size": 2}}
    path = sf.write_strategy_file(str(tmp_path / "s.ckpt"), layouts,
                                  {"Default/network-Net/MatMul-op0": (0, ((2, 1), (1, 2)))})
    assert pathlib.Path(path).read_bytes() == (FIX / "src_strategy.ckpt").read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["s.ckpt"]   # atomic write: no temporary left


def test_json_strategy_round_trip(tmp_path):
    layouts = {"a": ([2, 2], [1, -1], (8, 4)),
               "b": {"dev_matrix": [4], "tensor_map": [-1], "tensor_shape": [6], "opt_weight_shard_step": 1,
                     "opt_weight_shard_size": -1},
               "c": ([2, 2], [(1, 0), -1], (8, 2))}
    path = tmp_path / "s.json"
    sf.write_strategy_file(str(path), layouts, {"MatMul-op0": ((2, 1), (1, 2))})
    doc = json.loads(path.read_text())
    assert doc["parallel_layout_item"]["a"] == {"dev_matrix": [2, 2], "tensor_map": [1, -1], "tensor_shape": [8, 4],
                                                "field": 0, "opt_weight_shard_step": 0, "opt_weight_shard_size": 0}
    assert doc["parallel_strategy_item"]["MatMul-op0"] == {"stage": 0, "parallel_strategy": [[2, 1], [1, 2]]}
    read = sf.read_layouts(str(path))
    assert read["a"].tensor_shape == (8, 4) and read["b"].opt_weight_shard_size == -1
    assert read["c"].tensor_map == ((1, 0), -1)
    msg = ms.build_searched_strategy(str(path))["b"]
    assert list(msg.dev_matrix[0].dim) == [4] and msg.opt_weight_shard_step == 1


def test_merge_pipeline_strategys(tmp_path):
    stages = tmp_path / "stages"
    stages.mkdir()
    sf.write_strategy_file(str(stages / "s0.ckpt"), {"w1": ([2], [0, -1], None), "shared": ([2], [-1], None)},
                           {"op0": (0, ((2, 1),))})
    sf.write_strategy_file(str(stages / "s1.ckpt"), {"w2": ([2], [-1, 0], None), "shared": ([2], [-1], None)},
                           {"op1": (1, ((1, 2),))})
    shutil.copy(stages / "s1.ckpt", stages / "s1_copy.ckpt")   # the same stage twice is merged once
    ms.merge_pipeline_strategys(str(stages), str(tmp_path / "merged.ckpt"))
    names = list(ms.build_searched_strategy(str(tmp_path / "merged.ckpt")))
    assert names == ["0-w1", "0-shared", "1-w2", "1-shared"]
    read = sf.read_layouts(str(tmp_path / "merged.ckpt"))
    assert read["w1"].stages == (0,) and read["w2"].stages == (1,) and read["shared"].stages == (0, 1)
    (stages / "x.json").write_text("{}")
    with pytest.raises(ValueError, match="all '.ckpt' or all '.json'"):
        ms.merge_pipeline_strategys(str(stages), str(tmp_path / "m2.ckpt"))
    with pytest.raises(NotADirectoryError):
        ms.merge_pipeline_strategys(str(tmp_path / "nope"), str(tmp_path / "m3.ckpt"))


def test_strategy_file_errors(tmp_path):
    with pytest.raises(ValueError, match="no such strategy file"):
        ms.build_searched_strategy(str(tmp_path / "missing.ckpt"))
    (tmp_path / "empty.ckpt").write_bytes(b"")
    with pytest.raises(ValueError, match="should not be empty"):
        ms.build_searched_strategy(str(tmp_path / "empty.ckpt"))
    (tmp_path / "bad.ckpt").write_bytes(b"\xff\xff\xff not protobuf")
    with pytest.raises(TypeError, match="json or protobuf"):
        ms.build_searched_strategy(str(tmp_path / "bad.ckpt"))
    with pytest.raises(TypeError, match="should be string"):
        ms.build_searched_strategy(3)
    assert ms.build_searched_strategy(None) is None


def test_restore_group_info_list(tmp_path):
    gmap = sf.ParallelGroupMap()
    item = gmap.parallel_group_item.add(group_name="mp_group")
    item.parallel_group_ranks.dim.extend([0, 1])
    gmap.ckpt_restore_rank_list.dim.extend([0, 2])
    (tmp_path / "group_info.pb").write_bytes(gmap.SerializeToString())
    assert ms.restore_group_info_list(str(tmp_path / "group_info.pb")) == [0, 2]
    with pytest.raises(ValueError, match="no such group information file"):
        ms.restore_group_info_list(str(tmp_path / "none.pb"))


def test_save_network_strategy(tmp_path, monkeypatch):
    from mindspore.parallel import _layouts
    net = seeded_mlp(1)
    net.fc1.bias.requires_grad = False
    monkeypatch.setattr(_layouts, "parameter_layouts",
                        lambda network: {"fc1.weight": ((2,), (0, -1), (8, 6))}, raising=False)
    path = sf.save_network_strategy(net, str(tmp_path / "net_strategy.ckpt"), device_num=2)
    read = sf.read_layouts(path)
    assert list(read) == ["table", "fc1.weight", "fc2.weight", "fc2.bias"]   # trainable ones only, by default
    assert read["fc1.weight"].tensor_map == (0, -1) and read["fc2.weight"].tensor_map == (-1, -1)
    assert read["fc2.bias"].dev_matrix == (2,)
    ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": str(tmp_path / "ctx.json"),
                                                       "only_trainable_params": False})
    try:
        assert sf.save_network_strategy(net, device_num=2) == os.path.realpath(tmp_path / "ctx.json")
    finally:
        ms.reset_auto_parallel_context()
    assert "fc1.bias" in json.loads((tmp_path / "ctx.json").read_text())["parallel_layout_item"]
    assert sf.save_network_strategy(net) is None   # nothing configured: nothing written


# -------------------------------------------------------------------------- against MindSpore's files

def _copy_fixture_src(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(FIX / "src", src)
    return src


def test_transform_reproduces_mindspore_bytes(tmp_path):
    src = _copy_fixture_src(tmp_path)
    ms.transform_checkpoints(str(src), str(tmp_path / "dst2"), "t", str(FIX / "src_strategy.ckpt"),
                             str(FIX / "dst_strategy.ckpt"))
    ms.transform_checkpoints(str(src), str(tmp_path / "full"), "f", str(FIX / "src_strategy.ckpt"), None)
    for r in range(2):
        assert (tmp_path / "dst2" / f"rank_{r}" / f"t{r}.ckpt").read_bytes() == \
            (FIX / "ms_dst2" / f"rank_{r}" / f"t{r}.ckpt").read_bytes()
    assert (tmp_path / "full" / "rank_0" / "f0.ckpt").read_bytes() == \
        (FIX / "ms_full" / "rank_0" / "f0.ckpt").read_bytes()


def test_rank_lists_and_transform_by_rank_against_mindspore(tmp_path):
    expected = json.loads((FIX / "rank_lists.json").read_text())
    src_s, dst_s = str(FIX / "src_strategy.ckpt"), str(FIX / "dst_strategy.ckpt")
    for rank in range(2):
        ours = ms.rank_list_for_transform(rank, src_s, dst_s)
        # MindSpore's redistribution reads every rank here; the slices needed are a subset, listed descending
        assert set(ours) <= set(expected["src_to_dst"][rank]) and ours == sorted(ours, reverse=True)
        files = {r: str(FIX / "src" / f"rank_{r}" / "net.ckpt") for r in ours}
        out = tmp_path / f"t{rank}.ckpt"
        ms.transform_checkpoint_by_rank(rank, files, str(out), src_s, dst_s)
        assert out.read_bytes() == (FIX / "ms_dst2" / f"rank_{rank}" / f"t{rank}.ckpt").read_bytes()
    assert ms.rank_list_for_transform(0, src_s, None) == expected["src_to_full"][0]
    assert ms.rank_list_for_transform(0, None, dst_s) == [0]
    assert ms.rank_list_for_transform(0, src_s, dst_s) == [2, 1, 0]


def test_load_distributed_checkpoint_from_mindspore_files():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            for name, shape in (("w1", (8, 6)), ("w2", (6, 8)), ("b", (8,)), ("e", (8, 4)), ("m", (8, 6))):
                setattr(self, name, Parameter(Tensor(np.zeros(shape, np.float32)), name=name))

        def construct(self, x):
            return x

    net = Net()
    files = [str(FIX / "src" / f"rank_{r}" / "net.ckpt") for r in range(4)]
    assert ms.load_distributed_checkpoint(net, files, None, str(FIX / "src_strategy.ckpt")) is True
    full = np.load(FIX / "full.npz")
    for name in full.files:
        np.testing.assert_array_equal(getattr(net, name).asnumpy(), full[name])
    # without 'train_strategy_filename': the context's strategy_ckpt_config["load_file"]
    net = Net()
    ms.set_auto_parallel_context(strategy_ckpt_config={"load_file": str(FIX / "src_strategy.ckpt")})
    try:
        ms.load_distributed_checkpoint(net, files)
    finally:
        ms.reset_auto_parallel_context()
    np.testing.assert_array_equal(net.m.asnumpy(), full["m"])


# ---------------------------------------------------------------------------- hand-sliced networks

@pytest.mark.parametrize("distributed", ALL, indirect=True)
def test_load_distributed_checkpoint_into_one_process(distributed):
    tmp_path, _, full, files, strategy = distributed
    net = seeded_mlp(99)                      # different values: everything must come from the files
    params = ms.load_distributed_checkpoint(net, files, None, strategy, return_param_dict=True)
    assert sorted(params) == sorted(full)
    for name, value in full_params(net).items():
        np.testing.assert_array_equal(value, full[name])
    x = Tensor(np.random.default_rng(3).standard_normal((5, 6)).astype(np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), seeded_mlp(7)(x).asnumpy())


@pytest.mark.parametrize("distributed", ALL, indirect=True)
def test_merge_sliced_parameter_by_strategy(distributed):
    _, layouts, full, files, strategy = distributed
    strat = ms.build_searched_strategy(strategy)
    per_rank = [ms.load_checkpoint(f) for f in files]
    for name, layout in layouts.items():
        if _opt(layout):
            continue   # merge_sliced_parameter takes model-parallel slices (MindSpore ignores the opt fields)
        merged = ms.merge_sliced_parameter([d[name] for d in per_rank], strat)
        assert merged.name == name
        np.testing.assert_array_equal(merged.asnumpy(), full[name])


@pytest.mark.parametrize("distributed", ALL, indirect=True)
def test_transform_to_full_and_back(distributed):
    tmp_path, layouts, full, _, strategy = distributed
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "full"), "net", strategy, None)
    merged = ms.load_checkpoint(str(tmp_path / "full" / "rank_0" / "net0.ckpt"))
    for name in full:
        np.testing.assert_array_equal(merged[name].asnumpy(), full[name])
    assert int(merged["global_step"].asnumpy()) == 11 and merged["note"] == "run 3"
    # and from the single file back to the sharded layout
    (tmp_path / "one" / "rank_0").mkdir(parents=True)
    shutil.copy(tmp_path / "full" / "rank_0" / "net0.ckpt", tmp_path / "one" / "rank_0" / "net0.ckpt")
    ms.transform_checkpoints(str(tmp_path / "one"), str(tmp_path / "again"), "r", None, strategy)
    for r in range(_n_ranks(layouts)):
        d = ms.load_checkpoint(str(tmp_path / "again" / f"rank_{r}" / f"r{r}.ckpt"))
        for name, layout in layouts.items():
            np.testing.assert_array_equal(d[name].asnumpy(), hand_slice(full[name], *_dev_map(layout), r,
                                                                       _opt(layout)))


RESHARD = [("2-col-row", "4-2d"), ("4-2d", "2-col-row"), ("4-repeated", "4-opt-shard"),
           ("4-opt-shard", "4-multi-axis"), ("4-multi-axis", "2-col-row")]


@pytest.mark.parametrize("pair", RESHARD, ids=["->".join(p) for p in RESHARD])
def test_transform_between_shardings(tmp_path, pair):
    src_name, dst_name = pair
    full = full_params(seeded_mlp(5))
    save_ranks(tmp_path / "src", full, LAYOUTS[src_name], _n_ranks(LAYOUTS[src_name]))
    src_s = sf.write_strategy_file(str(tmp_path / "src.ckpt"), _strategy_layouts(LAYOUTS[src_name], full))
    dst_s = sf.write_strategy_file(str(tmp_path / "dst.json"), _strategy_layouts(LAYOUTS[dst_name], full))
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "p", src_s, dst_s)
    for r in range(_n_ranks(LAYOUTS[dst_name])):
        d = ms.load_checkpoint(str(tmp_path / "dst" / f"rank_{r}" / f"p{r}.ckpt"))
        for name, layout in LAYOUTS[dst_name].items():
            np.testing.assert_array_equal(d[name].asnumpy(), hand_slice(full[name], *_dev_map(layout), r,
                                                                       _opt(layout)))
        # by rank, from the listed source ranks only
        needed = ms.rank_list_for_transform(r, src_s, dst_s)
        files = {k: str(tmp_path / "src" / f"rank_{k}" / "net.ckpt") for k in needed}
        ms.transform_checkpoint_by_rank(r, files, str(tmp_path / f"by_rank{r}.ckpt"), src_s, dst_s)
        assert (tmp_path / f"by_rank{r}.ckpt").read_bytes() == \
            (tmp_path / "dst" / f"rank_{r}" / f"p{r}.ckpt").read_bytes()


def test_whole_model_parallel_slices_under_an_optimizer_shard_strategy(tmp_path):
    """With the full shape known (JSON ``tensor_shape``), slices saved whole (no optimizer split) still merge."""
    full = np.arange(48, dtype=np.float32).reshape(8, 6)
    files = []
    for r in range(4):
        path = tmp_path / "src" / f"rank_{r}" / "n.ckpt"
        path.parent.mkdir(parents=True)
        ms.save_checkpoint([{"name": "a", "data": Tensor(hand_slice(full, [2, 2], (-1, 0), r))}], str(path))
        files.append(str(path))
    strategy = sf.write_strategy_file(str(tmp_path / "s.json"), {"a": {
        "dev_matrix": [2, 2], "tensor_map": [-1, 0], "tensor_shape": [8, 6], "opt_weight_shard_step": 2,
        "opt_weight_shard_size": 2}})
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "x", strategy, None)
    np.testing.assert_array_equal(ms.load_checkpoint(str(tmp_path / "dst" / "rank_0" / "x0.ckpt"))["a"].asnumpy(),
                                  full)

    class One(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Parameter(Tensor(np.zeros((8, 6), np.float32)), name="a")

        def construct(self, x):
            return x

    net = One()
    ms.load_distributed_checkpoint(net, files, None, strategy)
    np.testing.assert_array_equal(net.a.asnumpy(), full)


def test_transform_with_process_pool(tmp_path):
    full = full_params(seeded_mlp(5))
    save_ranks(tmp_path / "src", full, LAYOUTS["2-col-row"], 2)
    src_s = sf.write_strategy_file(str(tmp_path / "src.ckpt"), _strategy_layouts(LAYOUTS["2-col-row"], full))
    dst_s = sf.write_strategy_file(str(tmp_path / "dst.ckpt"), _strategy_layouts(LAYOUTS["4-2d"], full))
    ms.parallel.convert_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "p", src_s, dst_s, process_num=2)
    for r in range(4):
        d = ms.load_checkpoint(str(tmp_path / "dst" / f"rank_{r}" / f"p{r}.ckpt"))
        np.testing.assert_array_equal(d["table"].asnumpy(), hand_slice(full["table"], [2, 2], (0, 1), r))


def test_transform_safetensors_sources(tmp_path):
    full = full_params(seeded_mlp(9))
    layouts = LAYOUTS["4-repeated"]
    for r in range(4):
        path = tmp_path / "src" / f"rank_{r}" / "net.safetensors"
        path.parent.mkdir(parents=True)
        ms.save_checkpoint([{"name": k, "data": Tensor(hand_slice(v, *_dev_map(layouts[k]), r))}
                            for k, v in full.items()], str(path), format="safetensors")
    src_s = sf.write_strategy_file(str(tmp_path / "src.ckpt"), _strategy_layouts(layouts, full))
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "s", src_s, None,
                             output_format="safetensors")
    merged = ms.load_checkpoint(str(tmp_path / "dst" / "rank_0" / "s0.safetensors"), format="safetensors")
    for name in full:
        np.testing.assert_array_equal(merged[name].asnumpy(), full[name])
    (tmp_path / "src" / "rank_0" / "x.ckpt").write_bytes(b"")
    with pytest.raises(ValueError, match="cannot contain both ckpt file and safetensors file"):
        ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst2"), "s", src_s, None)


def test_pipeline_stages_transform_to_full(tmp_path):
    full = full_params(seeded_mlp(8))
    stage_of = {"fc1.weight": 0, "fc1.bias": 0, "table": 0, "fc2.weight": 1, "fc2.bias": 1}
    stages = tmp_path / "stages"
    stages.mkdir()
    for stage in (0, 1):
        names = [k for k, s in stage_of.items() if s == stage]
        sf.write_strategy_file(str(stages / f"s{stage}.ckpt"), {k: ([2], [0] + [-1] * (full[k].ndim - 1),
                                                                     full[k].shape) for k in names},
                               {f"op{stage}": (stage, ((2, 1),))})
        for local in range(2):
            rank = stage * 2 + local
            path = tmp_path / "src" / f"rank_{rank}" / "net.ckpt"
            path.parent.mkdir(parents=True)
            ms.save_checkpoint([{"name": k, "data": Tensor(hand_slice(full[k], [2], [0] + [-1] * (full[k].ndim - 1),
                                                                      local))} for k in names], str(path))
    ms.merge_pipeline_strategys(str(stages), str(tmp_path / "merged.ckpt"))
    assert ms.rank_list_for_transform(0, str(tmp_path / "merged.ckpt"), None) == [3, 2, 1, 0]
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "full"), "f", str(tmp_path / "merged.ckpt"))
    merged = ms.load_checkpoint(str(tmp_path / "full" / "rank_0" / "f0.ckpt"))
    for name in full:
        np.testing.assert_array_equal(merged[name].asnumpy(), full[name])


def test_predict_strategy_loads_this_ranks_slice(tmp_path):
    full = full_params(seeded_mlp(4))
    files = save_ranks(tmp_path / "src", full, LAYOUTS["4-2d"], 4)
    strategy = sf.write_strategy_file(str(tmp_path / "s.ckpt"), _strategy_layouts(LAYOUTS["4-2d"], full))
    net = seeded_mlp(0)
    net.fc1.weight = Parameter(Tensor(np.zeros((4, 6), np.float32)), name="fc1.weight")
    predict = {"fc1.weight": [[2], [0, -1], [], 0, 0, ""]}
    ms.load_distributed_checkpoint(net, files, predict, strategy, rank_id=1)
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), full["fc1.weight"][4:])
    np.testing.assert_array_equal(net.fc2.weight.asnumpy(), full["fc2.weight"])   # not in the predict strategy
    with pytest.raises(ValueError, match="the first four elements must be dev_matrix"):
        ms.load_distributed_checkpoint(net, files, {"fc1.weight": [[2], [0, -1], [], 1]}, strategy, rank_id=0)


def test_predict_strategy_file_with_optimizer_shard(tmp_path):
    full = full_params(seeded_mlp(4))
    files = save_ranks(tmp_path / "src", full, LAYOUTS["2-col-row"], 2)
    train = sf.write_strategy_file(str(tmp_path / "train.ckpt"), _strategy_layouts(LAYOUTS["2-col-row"], full))
    predict = sf.write_strategy_file(str(tmp_path / "predict.ckpt"), _strategy_layouts(LAYOUTS["4-opt-shard"], full))

    class Sliced(nn.Cell):
        def __init__(self, shapes):
            super().__init__()
            for i, (name, shape) in enumerate(shapes.items()):
                setattr(self, f"p{i}", Parameter(Tensor(np.zeros(shape, np.float32)), name=name))

        def construct(self, x):
            return x

    for rank in range(4):
        expected = {k: hand_slice(v, *_dev_map(LAYOUTS["4-opt-shard"][k]), rank, _opt(LAYOUTS["4-opt-shard"][k]))
                    for k, v in full.items()}
        net = Sliced({k: v.shape for k, v in expected.items()})
        ms.load_distributed_checkpoint(net, files, predict, train, rank_id=rank)
        for _, p in net.parameters_and_names():
            np.testing.assert_array_equal(p.asnumpy(), expected[p.name])


def test_unified_safetensors_sliced_per_rank(tmp_path):
    full = full_params(seeded_mlp(6))
    (tmp_path / "unified").mkdir()
    ms.save_checkpoint([{"name": k, "data": Tensor(v)} for k, v in full.items()],
                       str(tmp_path / "unified" / "model.safetensors"), format="safetensors")
    predict = sf.write_strategy_file(str(tmp_path / "p.ckpt"), _strategy_layouts(LAYOUTS["2-col-row"], full))
    assert ms.load_distributed_checkpoint(None, predict_strategy=predict, format="safetensors",
                                          unified_safetensors_dir=str(tmp_path / "unified"),
                                          dst_safetensors_dir=str(tmp_path / "out"), max_process_num=1) is True
    for r in range(2):
        d = ms.load_checkpoint(str(tmp_path / "out" / f"rank_{r}" / "net.safetensors"), format="safetensors")
        for name, layout in LAYOUTS["2-col-row"].items():
            np.testing.assert_array_equal(d[name].asnumpy(), hand_slice(full[name], *_dev_map(layout), r))
    params = ms.load_distributed_checkpoint(seeded_mlp(0), predict_strategy=None, format="safetensors",
                                            unified_safetensors_dir=str(tmp_path / "unified"), rank_id=0,
                                            return_param_dict=True)
    np.testing.assert_array_equal(params["table"].asnumpy(), full["table"])
    with pytest.raises(ValueError, match="'unified_safetensors_dir' can not be None"):
        ms.load_distributed_checkpoint(None, format="safetensors")


def test_unified_safetensors_then_sliced_load(tmp_path):
    full = full_params(seeded_mlp(12))
    layouts = LAYOUTS["4-opt-shard"]
    for r in range(4):
        path = tmp_path / "dist" / f"rank_{r}" / "net.safetensors"
        path.parent.mkdir(parents=True)
        entries = [{"name": k, "data": Tensor(hand_slice(v, *_dev_map(layouts[k]), r, _opt(layouts[k])))}
                   for k, v in full.items()]
        entries.append({"name": "global_step", "data": Tensor(np.array(5, np.int32))})
        ms.save_checkpoint(entries, str(path), format="safetensors")
    strategy = sf.write_strategy_file(str(tmp_path / "train.ckpt"), _strategy_layouts(layouts, full))
    ms.unified_safetensors(str(tmp_path / "dist"), strategy, str(tmp_path / "unified"),
                           choice_func=lambda name: "renamed.table" if name == "table" else name != "fc2.bias")
    weight_map = json.loads((tmp_path / "unified" / "param_name_map.json").read_text())["weight_map"]
    assert weight_map == {"fc1.weight": "part0.safetensors", "fc1.bias": "part0.safetensors",
                          "fc2.weight": "part0.safetensors", "renamed.table": "part0.safetensors"}
    unified = ms.load_checkpoint(str(tmp_path / "unified" / "part0.safetensors"), format="safetensors")
    np.testing.assert_array_equal(unified["renamed.table"].asnumpy(), full["table"])
    for name in ("fc1.weight", "fc1.bias", "fc2.weight"):
        np.testing.assert_array_equal(unified[name].asnumpy(), full[name])
    hyper = ms.load_checkpoint(str(tmp_path / "unified" / "hyper_param.safetensors"), format="safetensors")
    assert int(hyper["global_step"].asnumpy()) == 5
    # and sliced again for rank 1 of a 2-way predict layout
    predict = {"fc1.weight": [[2], [0, -1], [], 0], "fc2.weight": [[2], [-1, 0], [], 0]}
    params = ms.load_distributed_checkpoint(seeded_mlp(0), predict_strategy=predict, format="safetensors",
                                            unified_safetensors_dir=str(tmp_path / "unified"), rank_id=1,
                                            return_param_dict=True)
    np.testing.assert_array_equal(params["fc1.weight"].asnumpy(), full["fc1.weight"][4:])
    np.testing.assert_array_equal(params["fc2.weight"].asnumpy(), full["fc2.weight"][:, 4:])


def test_unified_safetensors_without_redundancy_and_missing_slices(tmp_path):
    full = full_params(seeded_mlp(13))
    layouts = LAYOUTS["4-repeated"]
    keep = {}   # each distinct slice in one rank's file only (remove_redundancy)
    for r in range(4):
        path = tmp_path / "dist" / f"rank_{r}" / "net.safetensors"
        path.parent.mkdir(parents=True)
        entries = []
        for k, v in full.items():
            part = hand_slice(v, *_dev_map(layouts[k]), r)
            key = (k, part.tobytes())
            if key not in keep:
                keep[key] = r
                entries.append({"name": k, "data": Tensor(part)})
        ms.save_checkpoint(entries, str(path), format="safetensors")
    strategy = sf.write_strategy_file(str(tmp_path / "train.ckpt"), _strategy_layouts(layouts, full))
    ms.unified_safetensors(str(tmp_path / "dist"), strategy, str(tmp_path / "unified"), merge_with_redundancy=False)
    unified = ms.load_checkpoint(str(tmp_path / "unified" / "part0.safetensors"), format="safetensors")
    for name in full:
        np.testing.assert_array_equal(unified[name].asnumpy(), full[name])
    shutil.rmtree(tmp_path / "dist" / "rank_3")
    with pytest.raises(ValueError, match="The safetensor file of rank3 is needed"):
        ms.unified_safetensors(str(tmp_path / "dist"), strategy, str(tmp_path / "u2"))


# ------------------------------------------------------------------------ merge_sliced_parameter

def test_merge_sliced_parameter_plain_and_errors():
    parts = [Parameter(Tensor(np.arange(3, dtype=np.float64) + 3 * i), "network.embedding_table")
             for i in range(4)]
    merged = ms.merge_sliced_parameter(parts)
    assert merged.name == "network.embedding_table" and merged.shape == (12,)
    np.testing.assert_array_equal(merged.asnumpy(), np.arange(12, dtype=np.float64))
    with pytest.raises(TypeError, match="'sliced_parameters' should be list"):
        ms.merge_sliced_parameter(tuple(parts))
    with pytest.raises(ValueError, match="should not be empty"):
        ms.merge_sliced_parameter([])
    with pytest.raises(TypeError, match="should be 'Parameter'"):
        ms.merge_sliced_parameter([parts[0], Tensor(np.zeros(3))])
    with pytest.raises(ValueError, match="have the same name"):
        ms.merge_sliced_parameter([parts[0], Parameter(Tensor(np.zeros(3)), "other")])
    with pytest.raises(TypeError, match="'strategy' should be dict"):
        ms.merge_sliced_parameter(parts, [1])
    with pytest.raises(KeyError, match="should be a key in the 'strategy'"):
        ms.merge_sliced_parameter(parts, {"x": [[4], [0]]})
    with pytest.raises(ValueError, match="device_count is 2"):
        ms.merge_sliced_parameter(parts, {"network.embedding_table": [[2], [0]]})


def test_merge_sliced_parameter_uneven_field_and_bfloat16():
    a = np.arange(12, dtype=np.float32).reshape(6, 2)
    parts = [Parameter(Tensor(a[:4]), "w"), Parameter(Tensor(a[4:]), "w")]
    strat = {"w": {"dev_matrix": [2], "tensor_map": [0, -1], "param_split_shape": [4, 2]}}
    np.testing.assert_array_equal(ms.merge_sliced_parameter(parts, strat).asnumpy(), a)
    with pytest.raises(ValueError, match="should be 4 in 0 axis"):
        ms.merge_sliced_parameter(parts[::-1], strat)
    # field: every slice holds `field` row groups; merged rows are group by group, device by device
    f = np.arange(16, dtype=np.float32).reshape(8, 2)
    s0, s1 = f[[0, 1, 4, 5]], f[[2, 3, 6, 7]]
    merged = ms.merge_sliced_parameter([Parameter(Tensor(s0), "f"), Parameter(Tensor(s1), "f")],
                                       {"f": {"dev_matrix": [2], "tensor_map": [-1, -1], "field": 2}})
    np.testing.assert_array_equal(merged.asnumpy(), f)
    b = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2), ms.bfloat16)
    merged = ms.merge_sliced_parameter([Parameter(Tensor(b.asnumpy()[:2]), "b"), Parameter(Tensor(b.asnumpy()[2:]),
                                                                                          "b")],
                                       {"b": [[2], [0, -1]]})
    assert merged.dtype == ms.bfloat16
    np.testing.assert_array_equal(merged.asnumpy().astype(np.float32), b.asnumpy().astype(np.float32))


# -------------------------------------------------------------------------------------- errors

def test_missing_rank_file_errors(tmp_path):
    full = full_params(seeded_mlp(2))
    files = save_ranks(tmp_path / "src", full, LAYOUTS["4-2d"], 4)
    strategy = sf.write_strategy_file(str(tmp_path / "s.ckpt"), _strategy_layouts(LAYOUTS["4-2d"], full))
    shutil.rmtree(tmp_path / "src" / "rank_2")
    with pytest.raises(ValueError, match=r"The checkpoint file of rank2 is needed for converting rank0's"):
        ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "p", strategy, None)
    with pytest.raises(ValueError, match=r"make sure the .*rank_2/net.ckpt at index 2 is a valid checkpoint file"):
        ms.load_distributed_checkpoint(seeded_mlp(0), files, None, strategy)
    with pytest.raises(ValueError, match="should be equal to the device count of training process"):
        ms.load_distributed_checkpoint(seeded_mlp(0), files[:2], None, strategy)
    with pytest.raises(ValueError, match=r"checkpoint files of ranks \[2\] are needed"):
        ms.transform_checkpoint_by_rank(0, {0: files[0], 1: files[1], 3: files[3]}, str(tmp_path / "o.ckpt"),
                                        strategy, None)
    with pytest.raises(ValueError, match="should end with .ckpt"):
        ms.transform_checkpoint_by_rank(0, {}, str(tmp_path / "o.bin"), strategy, None)
    with pytest.raises(ValueError, match="can not be empty"):
        (tmp_path / "empty").mkdir()
        ms.transform_checkpoints(str(tmp_path / "empty"), str(tmp_path / "dst"), "p", strategy, None)


def test_shape_not_matching_strategy(tmp_path):
    full = full_params(seeded_mlp(2))
    files = save_ranks(tmp_path / "src", full, LAYOUTS["2-col-row"], 2)
    wrong = dict(_strategy_layouts(LAYOUTS["2-col-row"], full))
    wrong["fc1.weight"] = ([2], [-1, 0], (8, 6))        # the files are row slices (4, 6)
    strategy = sf.write_strategy_file(str(tmp_path / "wrong.ckpt"), wrong)
    with pytest.raises(ValueError, match=r"the slice of parameter 'fc1.weight' of rank 0 in .*rank_0/net.ckpt has "
                                         r"shape \(4, 6\), but the strategy \(dev_matrix \[2\], tensor_map "
                                         r"\[-1, 0\]\) of a parameter of shape \(8, 6\) gives rank 0 a slice of "
                                         r"shape \(8, 3\)"):
        ms.load_distributed_checkpoint(seeded_mlp(0), files, None, strategy)
    # a protobuf strategy has no full shape: the transform can only tell from the JSON variant's tensor_shape
    wrong_json = sf.write_strategy_file(str(tmp_path / "wrong.json"), wrong)
    with pytest.raises(ValueError, match="slice of parameter 'fc1.weight' of rank 0"):
        ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "dst"), "p", wrong_json,
                                 sf.write_strategy_file(str(tmp_path / "d.ckpt"), {"fc1.weight": ([2], [0, -1], None)}))
    odd = sf.write_strategy_file(str(tmp_path / "odd.ckpt"), {"fc1.weight": ([3], [0, -1], None)})
    with pytest.raises(ValueError, match=r"dimension 0 of parameter 'fc1.weight' \(shape \(8, 6\)\) can not be "
                                         r"split into 3 slices"):
        ms.load_distributed_checkpoint(seeded_mlp(0), [files[0], files[1], files[0]], None, odd)
    bad_map = sf.write_strategy_file(str(tmp_path / "bad_map.ckpt"), {"fc1.weight": ([2], [1, -1], None)})
    with pytest.raises(ValueError, match="tensor_map of parameter 'fc1.weight' is invalid"):
        ms.load_distributed_checkpoint(seeded_mlp(0), files, None, bad_map)
    assert isinstance(LayoutError("x"), ValueError)


def test_top_level_names_and_train_reexports():
    import mindspore.parallel as par
    for name in ("build_searched_strategy", "load_distributed_checkpoint", "load_segmented_checkpoints",
                 "merge_pipeline_strategys", "merge_sliced_parameter", "rank_list_for_transform",
                 "restore_group_info_list", "transform_checkpoint_by_rank", "transform_checkpoints",
                 "unified_safetensors"):
        assert getattr(ms, name) is getattr(par, name), name
        assert name in par.__all__
    for name in ("convert_checkpoint_by_rank", "convert_checkpoints", "rank_list_for_convert"):
        assert name in par.__all__
    for name in ("build_searched_strategy", "merge_sliced_parameter", "load_distributed_checkpoint",
                 "restore_group_info_list"):
        assert getattr(ms.train, name) is getattr(par, name), name
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        getattr(ms, "not_a_name")


def test_missing_parallel_addon_names_the_install(tmp_path):
    code = ("import sys, importlib.abc\n"
            "class Block(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'mindspore.parallel': raise ModuleNotFoundError(name)\n"
            "import mindspore as ms\n"
            "sys.meta_path.insert(0, Block())\n"
            "try:\n"
            "    ms.load_distributed_checkpoint\n"
            "except AttributeError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "pip install mindspore-parallel" in out.stdout, out.stderr


def test_load_segmented_checkpoints(tmp_path):
    (tmp_path / "seg").mkdir()
    ms.save_checkpoint([{"name": "a", "data": Tensor(np.ones(2, np.float32))}], str(tmp_path / "seg" / "p0.ckpt"))
    ms.save_checkpoint([{"name": "b", "data": Tensor(np.zeros(3, np.float32))}], str(tmp_path / "seg" / "p1.ckpt"))
    d = ms.load_segmented_checkpoints(str(tmp_path / "seg"))
    assert sorted(d) == ["a", "b"] and d["b"].shape == (3,)
    with pytest.raises(ValueError, match="doesn't exist"):
        ms.load_segmented_checkpoints(str(tmp_path / "nope"))


# ------------------------------------------------------------------------- real MindSpore reads ours

@pytest.mark.skipif(not MS_PYTHON.exists(), reason="the real MindSpore 2.10 (/tmp/w/msref) is not installed")
def test_real_mindspore_reads_our_strategy_files(tmp_path):
    layouts = {"a": ([2, 2], [1, -1], (8, 4)), "b": {"dev_matrix": [4], "tensor_map": [-1], "tensor_shape": [6],
                                                     "opt_weight_shard_step": 1, "opt_weight_shard_size": -1}}
    for name in ("s.ckpt", "s.json"):
        sf.write_strategy_file(str(tmp_path / name), layouts, {"MatMul-op0": (0, ((2, 1), (1, 2)))})
    code = ("import json, sys, mindspore as ms\n"
            "out = {}\n"
            "for f in sys.argv[1:]:\n"
            "    s = ms.build_searched_strategy(f)\n"
            "    out[f] = {k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim), v.opt_weight_shard_step,\n"
            "                  v.opt_weight_shard_size] for k, v in s.items()}\n"
            "print(json.dumps(out))\n")
    proc = subprocess.run([str(MS_PYTHON), "-c", code, str(tmp_path / "s.ckpt"), str(tmp_path / "s.json")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in ("s.ckpt", "s.json"):
        assert got[str(tmp_path / name)] == {"a": [[2, 2], [1, -1], 0, 0], "b": [[4], [-1], 1, -1]}


# ------------------------------------------------------------------------ two real ranks (mpiexec)

WORKER = pathlib.Path(__file__).with_name("_dist_ckpt_worker.py")


def _run_two_ranks(mode, out):
    launch = pytest.importorskip("_mpi_launch")
    if not launch.mpi_available():
        pytest.skip("mpi4py/mpiexec not installed")
    proc = launch.run_ranks(WORKER, 2, timeout=120, args=(mode, out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "rank 0/2 saved" in proc.stdout and "rank 1/2 saved" in proc.stdout
    return [str(out / f"rank_{r}" / "net.ckpt") for r in range(2)]


def test_two_ranks_save_slices_and_one_process_reloads(tmp_path):
    files = _run_two_ranks("hand", tmp_path / "ckpt")
    assert ms.load_checkpoint(files[1])["fc1.weight"].shape == (4, 6)
    net = seeded_mlp(123)
    ms.load_distributed_checkpoint(net, files, None, str(tmp_path / "ckpt" / "strategy.ckpt"))
    reference = seeded_mlp(7)
    for name, value in full_params(reference).items():
        np.testing.assert_array_equal(full_params(net)[name], value)
    x = Tensor(np.random.default_rng(0).standard_normal((3, 6)).astype(np.float32))
    np.testing.assert_array_equal(net(x).asnumpy(), reference(x).asnumpy())


def test_semi_auto_parallel_training_reloads_into_one_process(tmp_path):
    """2 ranks train a column/row-split MLP under SEMI_AUTO_PARALLEL, each saves its blocks (weights and
    Momentum states) and rank 0 the network's strategy file; one process rebuilds the whole TrainOneStepCell."""
    pytest.importorskip("mindspore.parallel._layouts")
    files = _run_two_ranks("semi_auto", tmp_path / "ckpt")
    strategy = str(tmp_path / "ckpt" / "strategy.ckpt")
    layouts = sf.read_layouts(strategy)
    assert layouts["w1"].strategy() == (1, 2) and layouts["w2"].strategy() == (2, 1)
    assert layouts["moments.w1"].strategy() == (1, 2) and layouts["b1"].strategy() == (2,)
    smap = sf.ParallelStrategyMap.FromString(pathlib.Path(strategy).read_bytes())
    nodes = {item.node_name: [list(d.dim) for d in item.parallel_strategys.parallel_strategy]
             for item in smap.parallel_strategy_item}
    # MindSpore's keys: "<PrimName>_<first parameter input>" (the ReLU, on no parameter, keeps its scope name)
    assert nodes["MatMul_w1"] == [[1, 1], [1, 2]] and nodes["Add_b1"] == [[1, 2], [2]]
    assert nodes["MatMul_w2"] == [[1, 2], [2, 1]]
    assert nodes["Default/network-WithLossCell/_backbone-ShardedMLP/ReLU-op2"] == [[1, 2]]
    slices = [ms.load_checkpoint(f) for f in files]
    assert slices[0]["w1"].shape == (8, 8) and slices[1]["w2"].shape == (8, 4)
    sys.path.insert(0, str(WORKER.parent))
    from _dist_ckpt_worker import train_step_cell
    step = train_step_cell(2, 0)   # untrained, not sharded: one process
    ms.load_distributed_checkpoint(step, files, None, strategy)
    whole = {p.name: p.asnumpy() for p in step.get_parameters()}
    # exactly the ranks' blocks, put together
    np.testing.assert_array_equal(whole["w1"], np.concatenate([d["w1"].asnumpy() for d in slices], axis=1))
    np.testing.assert_array_equal(whole["moments.w2"],
                                  np.concatenate([d["moments.w2"].asnumpy() for d in slices], axis=0))
    np.testing.assert_array_equal(whole["b1"], np.concatenate([d["b1"].asnumpy() for d in slices]))
    # and the same as training the whole network in one process
    standalone = ms.load_checkpoint(str(tmp_path / "ckpt" / "standalone.ckpt"))
    for name, value in whole.items():
        np.testing.assert_allclose(value, standalone[name].asnumpy(), rtol=1e-5, atol=1e-6, err_msg=name)
    # integrated_save=True (the default): each rank's file holds the full parameters, as one process saves them
    for r in range(2):
        integrated = ms.load_checkpoint(str(tmp_path / "ckpt" / f"rank_{r}" / "integrated.ckpt"))
        assert sorted(integrated) == sorted(standalone)
        for name, value in standalone.items():
            assert integrated[name].shape == value.shape, name
            np.testing.assert_allclose(integrated[name].asnumpy(), value.asnumpy(), rtol=1e-5, atol=1e-6,
                                       err_msg=f"rank {r}: {name}")
