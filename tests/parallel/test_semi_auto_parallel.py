"""SEMI_AUTO_PARALLEL: operator strategies, layouts, distributed rules, sharded training equal to one process.

The multi-process tests run ``_semi_auto_worker.py`` under ``mpiexec`` with 2 and 4 ranks (one launch per
world size and mode runs every case): each rank trains a Megatron MLP, a transformer layer and a vocabulary-split
embedding sharded by ``Primitive.shard`` strategies, and the same networks in one process on the global batch,
and reports both loss sequences, the whole weights gathered from the ranks' blocks, and the blocks' shapes.
"""
import pathlib
import sys

import numpy as np
import pytest

from mindspore import Parameter, Tensor, context, nn, ops

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _sharded_runs import mpi_available, run_configs  # noqa: E402

from mindspore.parallel import Layout, shard  # noqa: E402
from mindspore.parallel._layouts import TensorLayout, parameter_layouts  # noqa: E402


@pytest.fixture
def semi_auto():
    """SEMI_AUTO_PARALLEL over ``device_num`` devices in this one process (enough to check strategies)."""
    def setup(device_num):
        context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=device_num, full_batch=True)
    yield setup
    context.reset_auto_parallel_context()


# --- strategies and layouts ------------------------------------------------------------------------------------
def test_shard_records_strategy_as_mindspore():
    prim = ops.MatMul().shard(((2, 1), (1, 2)))
    assert prim.in_strategy == ((2, 1), (1, 2))
    assert "in_strategy=((2, 1), (1, 2))" in repr(prim)
    assert ops.Add().shard(None) is not None
    assert "out_strategy=((2, 2),)" in repr(ops.MatMul().shard(((2, 1), (1, 2)), ((2, 2),)))


@pytest.mark.parametrize("in_strategy, out_strategy, exc, message", [
    ([(2, 1)], None, TypeError, "in_strategy must be tuple type, but got:<class 'list'>"),
    (((2.0, 1), (1, 2)), None, TypeError, "the value of strategy must be int type, but got:<class 'float'>"),
    ((1, 2), None, TypeError, "The element of strategy must be tuple/Layout type, but got:<class 'int'>"),
    (None, ((2, 2),), ValueError, "need to set in_strategy, but got none"),
])
def test_shard_type_errors(in_strategy, out_strategy, exc, message):
    with pytest.raises(exc, match=pytest.importorskip("re").escape(message)):
        ops.MatMul().shard(in_strategy, out_strategy)


def test_layout_to_dict_and_errors():
    layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
    d = layout("dp", "mp").to_dict()
    assert d["device_matrix"] == (2, 2, 2) and d["tensor_map"] == (2, 0)
    assert layout("None", ("dp", "sp")).to_dict()["tensor_map"] == (-1, (2, 1))
    with pytest.raises(ValueError, match="The axis xx is not found"):
        layout("xx")
    with pytest.raises(ValueError, match="has been set more than one"):
        layout("dp", "dp")
    with pytest.raises(ValueError, match="should be equal to alias_name length"):
        Layout((2, 2), ("dp",))
    with pytest.raises(ValueError, match="can not set 'None'"):
        Layout((2,), ("None",))
    prim = ops.MatMul().shard((layout("dp", "sp"), layout("sp", "mp")))
    assert prim.in_layout[0]["tensor_map"] == (2, 1) and prim.in_layout[1]["tensor_map"] == (1, 0)


def test_tensor_layout_blocks_and_copies():
    # dev_matrix (2, 2): rank = 2 * row + col; dimension 0 cut by axis 0 (tensor_map 1), dimension 1 whole
    layout = TensorLayout((2, 2), (1, -1), (8, 6))
    assert layout.slice_shape == (4, 6)
    assert [layout.box(r) for r in range(4)] == [((0, 4), (0, 6))] * 2 + [((4, 8), (0, 6))] * 2
    assert layout.copy_axes() == [1]


def test_tensor_layout_of_a_dimension_cut_by_several_axes():
    """``Layout((2, 4), ("x", "y"))("None", ("x", "y"))`` (high_dimension_tensor_parallel.py): dimension 1 is cut
    into 8 by both axes, x major, so rank ``4 * cx + cy`` holds block ``4 * cx + cy``; written ``("y", "x")`` it
    holds block ``2 * cy + cx``. It was flattened to cut counts and the axes were lost."""
    lay = Layout((2, 4), ("x", "y"))
    xy = TensorLayout((2, 4), lay("None", ("x", "y")).to_dict()["tensor_map"], (4, 16))
    yx = TensorLayout((2, 4), lay("None", ("y", "x")).to_dict()["tensor_map"], (4, 16))
    assert xy.tensor_map == (-1, (1, 0)) and xy.axes(1) == (0, 1) and xy.splits(1) == 8
    assert [xy.box(r)[1] for r in range(8)] == [(2 * r, 2 * r + 2) for r in range(8)]
    assert [yx.box(r)[1][0] // 2 for r in range(8)] == [0, 2, 4, 6, 1, 3, 5, 7]
    assert xy.copy_axes() == [] and not xy.is_whole() and xy.slice_shape == (4, 2)
    assert xy.with_axes(1, (0,)) == TensorLayout((2, 4), (-1, 1), (4, 16))


@pytest.mark.parametrize("strategy, message", [
    (((2, 1),), "strategy len: 1 is not equal to inputs size: 2"),
    (((2, 1, 1), (1, 2)), "the size of the strategy of input 0: 3 is not equal to the dimension of the input: 2"),
    (((1, 1), (1, 3)), "shape 4 of dimension 1 of input 1 can not be divisible by strategy value 3"),
    (((2, 2), (2, 2)), "the product of the strategy of input 0 is 4, which must divide the device num 2"),
    (((2, 1), (2, 1)), "the cuts of the dimension 'k' shared by both inputs must be equal, but got 1 and 2"),
])
def test_bad_strategies_are_refused_in_mindspore_words(semi_auto, strategy, message):
    semi_auto(2)
    matmul = ops.MatMul().shard(strategy)
    x, w = Tensor(np.ones((6, 4), np.float32)), Tensor(np.ones((4, 4), np.float32))
    with pytest.raises(ValueError, match=pytest.importorskip("re").escape(message)) as info:
        matmul(x, w)
    assert str(info.value).startswith("For 'MatMul', the strategy is")


def test_nd_tp_matmul_layouts_are_checked_in_mindspore_words(semi_auto):
    """2D tensor parallel (``enable_nd_tp``) runs its Layouts as written: their device matrix must be the world's."""
    semi_auto(2)
    lay = Layout((2, 4), ("x", "y"))
    matmul = ops.MatMul()
    matmul.add_prim_attr("enable_nd_tp", True)
    matmul.shard(in_strategy=(lay("None", ("x", "y")), lay("x", "y")))
    x, w = Tensor(np.ones((4, 8), np.float32)), Tensor(np.ones((8, 4), np.float32))
    with pytest.raises(ValueError, match=r"For 'MatMul', the device_matrix \(2, 4\) of the layouts uses 8 devices, "
                                         r"but the device num is 2\."):
        matmul(x, w)


def test_softmax_axis_and_broadcast_dimension_cannot_be_cut(semi_auto):
    semi_auto(2)
    x = Tensor(np.ones((4, 6), np.float32))
    with pytest.raises(ValueError, match="the axis 1 it normalises over can not be split"):
        ops.Softmax(-1).shard(((1, 2),))(x)
    with pytest.raises(ValueError, match=r"the normalised axes \(from 1\) and 'gamma'/'beta' can not be split"):
        gamma = Tensor(np.ones(6, np.float32))
        ops.LayerNorm(1, 1).shard(((1, 2), (2,), (2,)))(x, gamma, gamma)
    with pytest.raises(ValueError, match="shape 1 of dimension 1 of input 1 can not be divisible by strategy value 2"):
        ops.Add().shard(((1, 2), (1, 2)))(x, Tensor(np.ones((4, 1), np.float32)))


def test_shard_comes_from_the_parallel_plugin():
    from mindspore._plugin import manager
    from mindspore.parallel import _dispatch, _layouts, _shard
    offer = manager.sharding()
    assert offer == {"primitive_shard": _shard.primitive_shard, "cell_shard": _shard.cell_shard,
                     "sync": _dispatch.sync, "Layout": _shard.Layout,
                     "parameter_layouts": _layouts.parameter_layouts}   # (Model.infer_train_layout's)


def test_shard_without_the_parallel_package_names_the_install(monkeypatch):
    from mindspore._plugin import manager
    monkeypatch.setattr(manager, "sharding", lambda: None)     # no plugin offers ms_sharding
    with pytest.raises(ImportError, match="pip install mindspore-parallel"):
        ops.MatMul().shard(((2, 1), (1, 2)))
    with pytest.raises(ImportError, match="pip install mindspore-parallel"):
        nn.Dense(2, 2).shard(((2, 1),))


def test_strategies_are_ignored_outside_semi_auto_parallel():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = ops.MatMul().shard(((3, 1), (1, 2)))(Tensor(x), Tensor(x.T))
    np.testing.assert_allclose(out.asnumpy(), x @ x.T)


def test_one_device_runs_whole_and_records_layouts(semi_auto):
    semi_auto(1)
    w = Parameter(Tensor(np.ones((4, 2), np.float32)), name="w")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w
            self.mm = ops.MatMul().shard(((1, 1), (1, 1)))

        def construct(self, x):
            return self.mm(x, self.w)

    out = Net()(Tensor(np.ones((3, 4), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.full((3, 2), 4.0))
    assert parameter_layouts(Net()) == {}


def test_shard_function_and_parameter_plan(semi_auto):
    semi_auto(1)
    x = Tensor(np.ones((4, 2), np.float32))
    assert shard(lambda a, b: a + b, in_strategy=((1, 1), (1, 1)))(x, x).shape == (4, 2)
    net = nn.Dense(2, 2)
    with pytest.raises(ValueError, match=r"The param_shape\[0\]: 2 cannot be divisible by param_strategy\[0\]: 4"):
        shard(net, in_strategy=((1, 1),), parameter_plan={"self.weight": (4, 1)})
    with pytest.raises(TypeError, match="type of fn must be mindspore.nn.Cell"):
        shard(lambda a: a, in_strategy=((1, 1),), parameter_plan={"w": (1, 1)})


def test_cell_shard_returns_the_sharded_callable(semi_auto):
    """The docs' shard_function_example.py keeps ``self.block1.shard(...)`` and calls it in ``construct``."""
    semi_auto(1)
    net = nn.Dense(2, 3)
    block_shard = net.shard(in_strategy=((1, 1),), parameter_plan={"self.weight": (1, 1)})
    assert callable(block_shard)
    x = Tensor(np.ones((4, 2), np.float32))
    np.testing.assert_allclose(block_shard(x).asnumpy(), net(x).asnumpy())


# --- multi-process training equal to one process --------------------------------------------------------------
# level semi: Primitive.shard on every operator; opt: the same with enable_parallel_optimizer; cell: no operator
# strategy, Cell.shard cuts the batch and parameter_plan the first weight, the rest propagates; layout: semi's
# strategies written as mindspore.parallel.Layout; batch: semi with full_batch=False (each rank feeds its rows;
# the transformer reshapes with x.shape[0], which must be the global batch although x holds this rank's rows)
_CONFIGS = {2: ["redistribute", "mlp:1:2:semi", "transformer:1:2:semi", "embed:1:2:semi", "mlp:2:1:opt", "mlp:1:2:cell",
                "transformer:1:2:batch"],
            4: ["redistribute", "mlp:1:4:semi", "mlp:2:2:semi", "transformer:1:4:semi", "transformer:2:2:semi",
                "embed:1:4:semi", "embed:2:2:semi", "mlp:2:2:opt", "transformer:2:2:opt", "mlp:2:2:cell",
                "transformer:2:2:cell", "embed:2:2:cell", "mlp:2:2:layout", "mlp:2:2:batch", "transformer:1:4:batch"]}


def _cuts(case, name, dp, mp, level):
    """How many blocks each parameter is cut into by the worker's strategies (with the parallel optimizer, the
    weights whose first dimension the strategy leaves whole are also cut over their dp copies)."""
    if level == "cell":
        return {"mlp": {"w1": mp, "b1": mp, "w2": mp}, "embed": {"table": mp},
                "transformer": {"wq": mp, "wo": mp}}[case].get(name, 1)
    opt = dp if level == "opt" else 1   # semi, layout, batch: the strategies' cuts only
    row = mp if mp > 1 else opt    # cut along the first dimension by the strategy, else by the optimizer
    cut = {"mlp": {"w1": mp * opt, "b1": row, "w2": row},
           "embed": {"table": mp, "w": mp},
           "transformer": {"wq": mp * opt, "wk": mp * opt, "wv": mp * opt, "wo": row, "w1": mp * opt, "w2": row}}
    return cut[case].get(name, 1)


@pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")
@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("n", [2, 4])
def test_sharded_training_equals_one_process(n, mode, tmp_path):
    """Megatron MLP, transformer layer, vocabulary-split embedding; 2-way and 4-way MatMul splits (model
    parallel alone, and 2 x 2 with data parallel); the parallel optimizer cutting weights over their copies."""
    for r in run_configs(n, mode, _CONFIGS[n], tmp_path):
        if r["case"] == "redistribute":
            continue
        case, dp, mp, level = r["case"].split(":")
        if r["case"] == "mlp:1:2:semi":   # what the strategy file and distributed checkpoints record
            assert r["layouts"]["w1"] == [[1, 1, 2], [1, 0], [8, 16]]      # MatMul ((1, 1), (1, 2)): dev (i, k, j)
            assert r["layouts"]["w2"] == [[1, 2, 1], [1, 0], [16, 4]]      # MatMul ((1, 2), (2, 1))
            assert r["layouts"]["b1"] == [[1, 2], [0], [16]] and "b2" not in r["layouts"]
        for name, full in r["full_shapes"].items():
            cut = _cuts(case, name, int(dp), int(mp), level)
            assert int(np.prod(r["local_shapes"][name])) * cut == int(np.prod(full)), (r["case"], name, r)


def test_values_a_network_returned_are_not_cut_again_as_a_batch_part():
    """A jit train step calls the network, then the loss function on its logits (distributed_optimizer_parallel.py):
    both are outermost Cell calls, but only data from outside (the step's inputs) is this rank's part of the global
    batch; the network's whole logits were cut again (labels (256,) against logits (2048,) on 8 ranks)."""
    from mindspore.parallel import _dispatch
    from mindspore.parallel._layouts import layout_of
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=4, full_batch=False)
    try:
        logits = _dispatch._made_by_network(Tensor(np.ones((8, 3), np.float32)), None)
        labels = Tensor(np.ones((2,), np.int32))
        out = _dispatch._dataset_layouts((logits, labels), 4)
        assert layout_of(out[0]) is None
        assert tuple(layout_of(out[1]).full_shape) == (8,)
        assert _dispatch._mirror_inputs((logits,), 0, 4)[0] is logits
    finally:
        context.reset_auto_parallel_context()


def test_outermost_output_is_this_ranks_rows_when_fed_data_parallel():
    """MindSpore returns a data_parallel-fed network's output as this rank's rows (the mint operator-parallel
    sample prints each rank's forward sum); a scalar (a loss) and full_batch outputs stay whole."""
    from mindspore.parallel import _dispatch
    from mindspore.parallel._layouts import layout_of
    whole = np.arange(24, dtype=np.float32).reshape(8, 3)
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=4, full_batch=False)
    try:
        rows = _dispatch._network_output(Tensor(whole), 2, 4)
        np.testing.assert_array_equal(rows.asnumpy(), whole[4:6])
        assert layout_of(rows) is None
        made, layout = _dispatch._network_made_layout(rows)
        assert made and tuple(layout.full_shape) == (8, 3)
        assert _dispatch._network_output(Tensor(np.float32(3.0)), 2, 4).shape == ()
        context.set_auto_parallel_context(full_batch=True)
        assert _dispatch._network_output(Tensor(whole), 2, 4).shape == (8, 3)
    finally:
        context.reset_auto_parallel_context()


def test_auto_parallel_wrapper_runs_its_network_in_its_mode_and_puts_the_context_back():
    """``mindspore.parallel.auto_parallel.AutoParallel`` (the operator-parallel samples wrap a train-step function,
    the gradient-accumulation sample a Cell): its configuration is the context only while it runs."""
    from mindspore.parallel.auto_parallel import AutoParallel
    seen = {}

    def step(x):
        seen.update({k: context.get_auto_parallel_context(k) for k in ("parallel_mode", "full_batch",
                                                                       "enable_parallel_optimizer", "search_mode")})
        return x * 2

    net = AutoParallel(step, parallel_mode="sharding_propagation")
    net.dataset_strategy("full_batch")
    net.hsdp()
    out = net(Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.full((2, 2), 2.0))
    assert seen == {"parallel_mode": "auto_parallel", "full_batch": True, "enable_parallel_optimizer": True,
                    "search_mode": "sharding_propagation"}
    assert context.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert context.get_auto_parallel_context("full_batch") is False
    with pytest.raises(ValueError, match="'parallel_mode' must be one of"):
        AutoParallel(step, parallel_mode="semi")
    with pytest.raises(ValueError, match="must be 'full_batch' or 'data_parallel'"):
        net.dataset_strategy("rows")
    with pytest.raises(TypeError, match="must be tuple or Layout"):
        net.dataset_strategy(([1, 2],))
    with pytest.raises(ValueError, match="shard_size must be a positive integer or -1"):
        net.hsdp(shard_size=0)


def test_parallel_nn_grad_accumulation_sums_the_micro_batches():
    from mindspore.parallel.nn import GradAccumulation
    dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    net = GradAccumulation(nn.WithLossCell(dense, nn.MSELoss()), 2)
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    want = sum(float(np.mean((x[i:i + 2] @ np.ones((3, 2))) ** 2)) for i in (0, 2))
    np.testing.assert_allclose(float(net(Tensor(x), Tensor(np.zeros((4, 2), np.float32))).asnumpy()), want,
                               rtol=1e-6)
    with pytest.raises(ValueError, match="For 'GradAccumulation', the argument 'micro_size' must be large than 0"):
        GradAccumulation(dense, 0)
    with pytest.raises(TypeError, match="For 'GradAccumulation', the argument 'network' must cell type"):
        GradAccumulation(lambda x: x, 2)
