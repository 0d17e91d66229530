"""AUTO_PARALLEL: sharding propagation from a few strategies, and the recursive-programming cost model choosing
strategies for MatMuls nobody annotated; training equal to one process on 2 and 4 ranks, in both modes."""
import pathlib
import sys

import numpy as np
import pytest

from mindspore import Parameter, Tensor, context, ops

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from _sharded_runs import mpi_available, run_configs  # noqa: E402
from mindspore.parallel import _auto  # noqa: E402

# sp: only the first MatMul(s) have strategies; rp: no strategy at all
_CONFIGS = {2: ["mlp:1:2:sp", "mlp:1:2:rp", "transformer:1:2:sp", "transformer:1:2:rp", "embed:1:2:rp"],
            4: ["mlp:2:2:sp", "mlp:1:4:rp", "transformer:2:2:sp", "transformer:1:4:rp", "embed:2:2:sp"]}


@pytest.fixture
def auto(request):
    def setup(device_num, search_mode):
        context.set_auto_parallel_context(parallel_mode="auto_parallel", device_num=device_num, full_batch=True,
                                          search_mode=search_mode)
    yield setup
    context.reset_auto_parallel_context()


def test_cost_model_picks_megatron_for_an_mlp(auto):
    auto(4, "recursive_programming")
    x = Tensor(np.ones((8, 8), np.float32))
    w1 = Parameter(Tensor(np.ones((8, 16), np.float32)), name="w1")
    mm = ops.MatMul()
    # whole input, uncut weight: cutting the output columns moves nothing
    assert _auto._search_matmul(mm, (x, w1), 4) == ((1, 1), (1, 4))
    # the contracted dimension is cut by the previous MatMul: an all-reduce of the small output beats a gather
    order, sizes = ["i", "k", "j"], {"i": 8, "k": 16, "j": 4}
    operands = [(["i", "k"], (1, 4), False, False), (["k", "j"], (1, 1), True, False)]
    row = _auto.matmul_cost(order, sizes, {"i": 1, "k": 4, "j": 1}, operands, 4)
    col = _auto.matmul_cost(order, sizes, {"i": 1, "k": 1, "j": 4}, operands, 4)
    data = _auto.matmul_cost(order, sizes, {"i": 4, "k": 1, "j": 1}, operands, 4)
    assert row < col and row < data
    # strategies using fewer devices compute more
    half = _auto.matmul_cost(order, sizes, {"i": 1, "k": 2, "j": 1}, operands, 4)
    assert half > row


def test_propagation_follows_the_input_layouts():
    from mindspore.parallel._layouts import TensorLayout, set_layout
    x = set_layout(Tensor(np.ones((8, 4), np.float32)), TensorLayout((2, 2), (1, 0), (8, 8)))
    w = Parameter(Tensor(np.ones((8, 4), np.float32)), name="w")
    assert _auto._propagate_matmul(ops.MatMul(), [x, w], [(8, 8), (8, 4)]) == ((2, 2), (2, 1))
    b = Tensor(np.ones((8,), np.float32))
    assert _auto._propagate_elementwise([x, b], [(8, 8), (8,)]) == ((2, 2), (2,))


def test_search_mode_without_layouts_runs_whole(auto):
    auto(2, "sharding_propagation")
    add = ops.Add()
    out = add(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.full((2, 2), 2.0))
    assert "auto_strategy" not in add.attrs


@pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")
@pytest.mark.parametrize("mode", ["pynative", "graph"])
@pytest.mark.parametrize("n", [2, 4])
def test_auto_parallel_training_equals_one_process(n, mode, tmp_path):
    results = run_configs(n, mode, _CONFIGS[n], tmp_path)
    for r in results:
        case, dp, mp, level = r["case"].split(":")
        searched = {k: tuple(tuple(s) for s in v) for k, v in r["searched"].items()}
        if case == "mlp" and level == "rp":      # the cost model found the Megatron split by itself
            assert searched["mm1"] == ((1, 1), (1, n)) and searched["mm2"] == ((1, n), (n, 1)), searched
        if case == "mlp" and level == "sp":      # propagated from mm1's strategy
            assert searched["mm2"] == ((int(dp), int(mp)), (int(mp), 1)), searched
        if level == "rp":
            assert any(v != (1,) * len(v) for s in searched.values() for v in s), searched
            assert any(np.prod(r["local_shapes"][k]) < np.prod(full) for k, full in r["full_shapes"].items()), r


@pytest.mark.skipif(not mpi_available(), reason="mpi4py/mpiexec not installed")
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_elementwise_op_strategy_follow_keeps_the_activation_layout(mode, tmp_path):
    # rp: the cost model gathers the narrow hidden activation and cuts the wide output's columns; rpf (the flag):
    # the MatMul after ReLU takes its output as cut (identity edge), so the hidden dimension stays cut (row split)
    results = run_configs(2, mode, ["mlpwide:1:2:rp", "mlpwide:1:2:rpf"], tmp_path)
    searched = {r["case"]: {k: tuple(tuple(s) for s in v) for k, v in r["searched"].items()} for r in results}
    plain, follow = searched["mlpwide:1:2:rp"], searched["mlpwide:1:2:rpf"]
    assert plain["mm1"] == follow["mm1"] == ((1, 1), (1, 2))
    assert plain["relu"] == follow["relu"] == ((1, 2),)
    assert plain["mm2"] == ((1, 1), (1, 2)) and follow["mm2"] == ((1, 2), (2, 1)), searched
    losses = {r["case"]: r["losses"] for r in results}
    np.testing.assert_allclose(losses["mlpwide:1:2:rp"], losses["mlpwide:1:2:rpf"], rtol=0, atol=1e-5)


def test_follow_narrows_the_matmul_candidates(auto, algo):
    from mindspore.parallel._layouts import TensorLayout, set_layout
    auto(2, "recursive_programming")
    h = set_layout(Tensor(np.ones((8, 2), np.float32)), TensorLayout((1, 2), (-1, 0), (8, 4)))
    w = Parameter(Tensor(np.ones((4, 32), np.float32)), name="w")
    relu = ops.ReLU()
    assert _auto._search_matmul(ops.MatMul(), (h, w), 2) == ((1, 1), (1, 2))   # gather h, cut the columns
    algo.set_algo_parameters(elementwise_op_strategy_follow=True)
    _auto.note_elementwise(ops.MatMul(), h)                                      # not elementwise: nothing kept
    assert _auto._search_matmul(ops.MatMul(), (h, w), 2) == ((1, 1), (1, 2))
    _auto.note_elementwise(relu, h)
    assert _auto._search_matmul(ops.MatMul(), (h, w), 2) == ((1, 2), (2, 1))   # h as it is: row split
    algo.set_algo_parameters(elementwise_op_strategy_follow=False)
    assert _auto._search_matmul(ops.MatMul(), (h, w), 2) == ((1, 1), (1, 2))


# --- set_algo_parameters: the knobs of the search ---------------------------------------------------------------
@pytest.fixture
def algo():
    from mindspore import parallel
    from mindspore.parallel import algo_parameter_config
    yield parallel
    parallel.reset_algo_parameters()
    algo_parameter_config._op_strategy["mode"] = None    # no strategy file outlives a test


def test_algo_parameters_have_mindspore_210s_defaults_and_checks(algo):
    assert algo.get_algo_parameters("fully_use_devices") is False
    assert algo.get_algo_parameters("elementwise_op_strategy_follow") is False
    assert algo.get_algo_parameters("algo_approxi_epsilon") == pytest.approx(0.1)
    assert algo.get_algo_parameters("tensor_slice_align_size") == 16
    algo.set_algo_parameters(fully_use_devices=True, tensor_slice_align_size=8)
    assert algo.get_algo_parameters("fully_use_devices") is True
    algo.reset_algo_parameters()
    assert algo.get_algo_parameters("fully_use_devices") is False
    assert algo.get_algo_parameters("tensor_slice_align_size") == 16
    with pytest.raises(ValueError, match="Set context keyword foo is not recognized!"):
        algo.set_algo_parameters(foo=1)
    with pytest.raises(ValueError, match="Get context keyword foo is not recognized!"):
        algo.get_algo_parameters("foo")
    with pytest.raises(TypeError, match="The parameter 'fully_use_devices' must be <class 'bool'>, but got <class "
                                        "'int'>"):
        algo.set_algo_parameters(fully_use_devices=1)
    with pytest.raises(TypeError, match="'algo_approxi_epsilon' must be <class 'float'>"):
        algo.set_algo_parameters(algo_approxi_epsilon=1)
    with pytest.raises(RuntimeError, match=r"'epsilon' must be in \(0, 1\]"):
        algo.set_algo_parameters(algo_approxi_epsilon=1.5)
    with pytest.raises(ValueError, match=r"Align_size must be in \[1, 1024\], but got 0"):
        algo.set_algo_parameters(tensor_slice_align_size=0)


def test_algo_parameters_steer_the_cost_model(auto, algo):
    auto(4, "recursive_programming")
    order, sizes = ["i", "k", "j"], {"i": 8, "k": 8, "j": 16}
    uses = {c["i"] * c["k"] * c["j"] for c in _auto._candidates(order, sizes, 4)}
    assert uses == {1, 2, 4}
    algo.set_algo_parameters(fully_use_devices=True)
    assert {c["i"] * c["k"] * c["j"] for c in _auto._candidates(order, sizes, 4)} == {4}
    # a shape that cannot use all 4 devices keeps its other candidates
    assert {c["i"] * c["k"] * c["j"] for c in _auto._candidates(order, {"i": 2, "k": 3, "j": 3}, 4)} == {1, 2}
    algo.reset_algo_parameters()
    x = Tensor(np.ones((8, 8), np.float32))
    w = Parameter(Tensor(np.ones((8, 16), np.float32)), name="w")
    assert _auto._search_matmul(ops.MatMul(), (x, w), 4) == ((1, 1), (1, 4))
    # 16 columns over 4 ranks is a slice of 4: not a multiple of 8, so the columns are cut in 2 only
    algo.set_algo_parameters(tensor_slice_align_enable=True, tensor_slice_align_size=8)
    assert _auto._search_matmul(ops.MatMul(), (x, w), 4) == ((2, 1), (1, 2))
    algo.reset_algo_parameters()
    # approximation: only the first 1/epsilon = 2 candidates are costed
    algo.set_algo_parameters(enable_algo_approxi=True, algo_approxi_epsilon=0.5)
    assert len(_auto._candidates(order, sizes, 4)) == 2
    assert _auto._search_matmul(ops.MatMul(), (x, w), 4) == ((1, 1), (1, 2))


def test_op_strategy_config_saves_and_loads_the_chosen_strategies(auto, algo, tmp_path):
    import json
    auto(4, "recursive_programming")
    path = str(tmp_path / "strategies.json")
    with pytest.raises(KeyError, match="File path must be an absolute path"):
        algo.set_op_strategy_config("SAVE", "strategies.json")
    with pytest.raises(KeyError, match="File type must be .json"):
        algo.set_op_strategy_config("SAVE", str(tmp_path / "s.txt"))
    with pytest.raises(KeyError, match="Type must be 'SAVE' or 'LOAD'"):
        algo.set_op_strategy_config("KEEP", path)
    x = Tensor(np.ones((8, 8), np.float32))
    w = Parameter(Tensor(np.ones((8, 16), np.float32)), name="w")
    algo.set_op_strategy_config("SAVE", path)
    assert _auto.choose(ops.MatMul(), (x, w)) == ((1, 1), (1, 4))
    assert json.loads(open(path).read()) == {"MatMul-0": [[1, 1], [1, 4]]}
    with open(path, "w") as f:
        json.dump({"MatMul-0": [[4, 1], [1, 1]]}, f)
    algo.set_op_strategy_config("LOAD", path)
    assert _auto.choose(ops.MatMul(), (x, w)) == ((4, 1), (1, 1))


def test_parallel_names_are_also_top_level_and_sync_pipeline_checks_its_net(algo):
    import mindspore as ms
    from mindspore import nn
    for name in ("set_algo_parameters", "get_algo_parameters", "reset_algo_parameters", "parameter_broadcast",
                 "sync_pipeline_shared_parameters"):
        assert getattr(ms, name) is getattr(algo, name), name
    with pytest.raises(TypeError, match="the argument 'net' should be a Cell"):
        algo.sync_pipeline_shared_parameters(object())
    algo.sync_pipeline_shared_parameters(nn.Dense(2, 2))     # one pipeline stage: nothing to synchronise
    context.set_auto_parallel_context(pipeline_stages=2)
    try:   # every rank runs every stage (mindspore.parallel._pipeline): a shared parameter is already one copy
        algo.sync_pipeline_shared_parameters(nn.Dense(2, 2))
    finally:
        context.reset_auto_parallel_context()
    # one process: nothing to broadcast
    algo.parameter_broadcast(nn.Dense(2, 2), {"weight": ([2], [-1, -1])})
