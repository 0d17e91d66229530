"""``ops.reshard`` / ``ops.Reshard``: the identity in one process and outside parallel modes (as in MindSpore 2.10);
under SEMI_AUTO_PARALLEL on 2 real ranks, the tensor moved to the named layout (each rank's block, the layout its
result carries) and a network with a reshard inside computing what it computes stand-alone."""
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops
from mindspore.parallel import Layout

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "mindspore-parallel" / "tests"))
sys.path.insert(0, str(HERE))
from _mpi_launch import mpi_available, run_ranks  # noqa: E402
from _reshard_worker import X  # noqa: E402


def test_identity_in_one_process():
    x = ms.Tensor(X)
    lay = Layout((2, 1), ("dp", "mp"))
    assert ops.reshard(x, lay("dp", "mp")) is x
    assert ops.reshard(x, "not a layout") is x        # 2.10 returns before checking in a world of one
    prim = ops.Reshard((lay("dp", "mp"),), (lay("dp", "mp"),), ((2, 1),))
    assert prim(x) is x
    assert prim.in_strategy == ((2, 1),)
    assert prim.attrs["in_layout"][0]["tensor_map"] == (1, 0)
    assert ops.operations.Reshard is ops.Reshard and ops.functional.reshard is ops.reshard


@pytest.fixture(scope="module")
def ranks(tmp_path_factory):
    if not mpi_available():
        pytest.skip("mpi4py/mpiexec not installed (pip install mindspore-parallel[mpi])")
    out = tmp_path_factory.mktemp("reshard")
    proc = run_ranks(HERE / "_reshard_worker.py", 2, timeout=120, args=(out,))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return [dict(np.load(out / f"rank{r}.npz")) for r in range(2)]


def test_blocks_follow_the_layout(ranks):
    for r, saved in enumerate(ranks):
        np.testing.assert_array_equal(saved["rows"], X[2 * r:2 * r + 2])
        np.testing.assert_array_equal(saved["cols"], X[:, 4 * r:4 * r + 4])
        assert saved["rows_map"].tolist() == [1, -1] and saved["cols_map"].tolist() == [-1, 1]


def test_network_with_reshard_matches_stand_alone(ranks):
    for saved in ranks:
        np.testing.assert_allclose(saved["net"], saved["ref"], rtol=1e-6, atol=1e-6)
