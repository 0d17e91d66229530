"""``mindspore.utils``: DLPack, dispatch modes, execution-order checks, and the answers MindSpore 2.10 gives on a
CPU for the Ascend-only checks (probed with real MindSpore: ``sdc_detect_*`` do nothing and report False,
``stress_detect('aic')`` raises RuntimeError("Stress detection is not supported."), an unknown type returns 1)."""
import csv
import os

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops, plugin, utils


def test_ascend_checks_answer_as_mindspore_on_cpu():
    assert utils.sdc_detect_start() is None
    assert utils.get_sdc_detect_result() is False
    assert utils.sdc_detect_stop() is None
    with pytest.raises(RuntimeError, match="^Stress detection is not supported.$"):
        utils.stress_detect()
    assert utils.stress_detect("x") == 1


@pytest.mark.skipif(plugin.current_target() != "CPU", reason="host DLPack exchange (the CPU runtime's default)")
def test_dlpack_shares_memory_both_ways():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = utils.from_dlpack(utils.to_dlpack(x))
    assert y.dtype == ms.float32 and y.shape == (2, 3)
    np.testing.assert_array_equal(y.asnumpy(), x.asnumpy())
    a = np.arange(4, dtype=np.int64)
    t = utils.from_dlpack(a)
    a[0] = 42
    assert t.dtype == ms.int64 and int(t.asnumpy()[0]) == 42
    back = np.from_dlpack(type("Wrap", (), {"__dlpack__": lambda s, **k: utils.to_dlpack(t),
                                            "__dlpack_device__": lambda s: (1, 0)})())
    assert back[0] == 42
    capsule = utils.to_dlpack(x)
    utils.from_dlpack(capsule)
    with pytest.raises(RuntimeError, match="consumed only once"):
        utils.from_dlpack(capsule)
    with pytest.raises(TypeError):
        utils.to_dlpack(np.arange(3))


def test_dispatch_modes_nest_and_restore_the_hook():
    seen = []

    class Record(utils.MsDispatchMode):
        def __init__(self, tag):
            self.tag = tag

        def __ms_dispatch__(self, func, args, kwargs=None):
            seen.append((self.tag, func.name))
            return func(*args)

    class Double(utils.MsDispatchMode):
        def __ms_dispatch__(self, func, args, kwargs=None):
            out = func(*args)
            return out * 2 if func.name == "Add" else out

    before = plugin.set_primitive_call_hook(None)
    plugin.set_primitive_call_hook(before)
    with Record("outer"):
        with Double():
            with Record("inner"):
                out = ops.add(ms.Tensor([1.0]), 1.0)
    assert float(out.asnumpy()[0]) == 4.0
    assert seen[0] == ("inner", "Add") and ("outer", "Add") in seen and ("outer", "Mul") in seen
    after = plugin.set_primitive_call_hook(None)
    plugin.set_primitive_call_hook(after)
    assert after is before

    @Record("deco")
    def f():
        return ops.mul(ms.Tensor([2.0]), 3.0)
    seen.clear()
    assert float(f().asnumpy()[0]) == 6.0 and seen == [("deco", "Mul")]


def _write_rank(root, rank, rows):
    folder = root / f"rank_{rank}" / "execute_order"
    folder.mkdir(parents=True)
    from mindspore.utils.execution_order import COLUMNS
    with open(folder / "comm_execute_order.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        for i, (prim, extra) in enumerate(rows):
            row = dict.fromkeys(COLUMNS, "")
            row.update(index=str(i), group="g", comm_rank="0 1", primitive=prim, **extra)
            writer.writerow(row)


def test_execution_order_check_finds_a_deadlock(tmp_path):
    ok, bad = tmp_path / "ok", tmp_path / "bad"
    for rank in (0, 1):
        _write_rank(ok, rank, [("AllReduce", {}), ("AllGather", {})])
    _write_rank(bad, 0, [("AllReduce", {}), ("AllGather", {})])
    _write_rank(bad, 1, [("AllGather", {}), ("AllReduce", {})])
    assert utils.runtime_execution_order_check(str(ok)) is None
    cycle, ranks = utils.runtime_execution_order_check(str(bad))
    assert cycle[0] == cycle[-1] and {c.split("_")[0] for c in cycle} == {"AllReduce", "AllGather"}
    assert {r.split()[0] for r in ranks} == {"0", "1"}
    with pytest.raises(ValueError, match="Please provide an absolute path"):
        utils.runtime_execution_order_check("relative/path")
    with pytest.raises(ValueError, match="No rank_x folders found"):
        utils.runtime_execution_order_check(str(tmp_path))


def test_comm_exec_order_check_records_this_ranks_collectives(tmp_path, monkeypatch):
    monkeypatch.setenv("MS_EXEC_ORDER_DIR", str(tmp_path))
    utils.comm_exec_order_check("start")
    x = ms.Tensor(np.ones(3, np.float32))
    ops.AllReduce()(x)
    ops.add(x, 1.0)
    ops.AllGather()(x)
    utils.comm_exec_order_check("end")
    with open(tmp_path / "rank_0" / "execute_order" / "comm_execute_order.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["primitive"] for r in rows] == ["AllReduce", "AllGather"]
    assert rows[0]["input_shape"] == "3" and rows[0]["input_type"] == "Float32"
    with pytest.raises(ValueError, match="Invalid action"):
        utils.comm_exec_order_check("middle")
    with pytest.raises(TypeError):
        utils.comm_exec_order_check(1)


def test_fault_tolerance_helpers(monkeypatch):
    grad = ms.Tensor([1.0])
    exit_value = ms.Parameter(ms.Tensor(False), name="exit")
    assert utils.ExitByRequest().exit_by_request(grad, ms.Tensor([1], ms.int32), exit_value) is grad
    assert "RSC:1" in utils.TFTCommValue.ENABLE_MINDX
    monkeypatch.setenv("MS_ENABLE_TFT", "{TTP:1}")
    handle = utils.RSCPluginHandle()
    assert handle.check_enable()
    assert handle.register_callback({"stop": print}) is False   # no MindX task daemon here
    with pytest.raises(RuntimeError, match="Mindx unavailable"):
        handle.start()
    with pytest.raises(ValueError, match="should be a dict"):
        handle.register_callback([])
    monkeypatch.delenv("MS_ENABLE_TFT")
    assert not utils.RSCPluginHandle().check_enable()
    assert os.environ.get("MS_ENABLE_TFT") is None


def test_dryrun_mock_and_set_simulation(monkeypatch, caplog):
    """``mindspore.utils.dryrun`` (the DryRun page's mock interface): the real value without MS_SIMULATION_LEVEL,
    the mock value with it; set_simulation sets the level and warns once per call stack on a value fetch."""
    from mindspore.utils import dryrun
    monkeypatch.delenv("MS_SIMULATION_LEVEL", raising=False)
    a = ms.Tensor(np.ones((3, 3), np.float32))
    assert bool(dryrun.mock(False, (a > 0.5).any)) and dryrun.mock(0, lambda x, y: x + y, 2, 3) == 5
    assert dryrun.mock(5, "5") == "5"
    monkeypatch.setenv("MS_SIMULATION_LEVEL", "0")
    assert dryrun.mock(7, lambda: 1 / 0) == 7
    for name in ("asnumpy", "__getitem__", "tolist", "__int__", "__float__", "is_contiguous", "flush_from_cache"):
        if hasattr(ms.Tensor, name):
            monkeypatch.setattr(ms.Tensor, name, getattr(ms.Tensor, name))   # restored afterwards
    dryrun.set_simulation()
    assert os.environ["MS_SIMULATION_LEVEL"] == "1"
    with caplog.at_level("WARNING"):
        for _ in range(2):
            np.testing.assert_array_equal(a.asnumpy(), np.ones((3, 3)))   # one line: one stack, one warning
    assert sum("In dryrun mode, you cannot obtain real tensor value" in r.getMessage() for r in caplog.records) == 1
