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
