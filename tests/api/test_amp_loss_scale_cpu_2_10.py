"""On CPU, as in MindSpore 2.10, ``amp.build_train_network`` and ``Model`` refuse a loss scale manager that updates
the scale (DynamicLossScaleManager, FixedLossScaleManager dropping overflowed steps, level O2's default) with 2.10's
ValueError, at every amp level and in both modes; no manager or FixedLossScaleManager(drop_overflow_update=False)
builds a TrainOneStepCell. Recorded by tests/fixtures/refusals_2_10/record_amp_loss_scale.py."""
import importlib.util
import json
import pathlib

import pytest

import mindspore as ms

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "refusals_2_10"
_spec = importlib.util.spec_from_file_location("amp_loss_scale_cases", _DIR / "amp_loss_scale_cases.py")
cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cases)
REF = json.loads((_DIR / "amp_loss_scale.json").read_text())["cases"]

pytestmark = [pytest.mark.skipif(ms.get_context("device_target") != "CPU", reason="2.10's refusal is CPU's"),
              pytest.mark.usefixtures("restore_mode")]


@pytest.mark.parametrize("case", cases.all_cases(), ids="/".join)
def test_loss_scale_manager_on_cpu_as_2_10(case):
    assert cases.run(*case) == REF["/".join(case)]


def test_hand_made_loss_scale_cell_still_builds_on_cpu():
    """2.10 refuses only the amp builders' loss-scaled cell; one made by hand builds on CPU (2.10 then fails running
    it, on its Ascend-only overflow status op; ours runs it)."""
    from mindspore import nn
    net = nn.WithLossCell(nn.Dense(3, 2), nn.MSELoss())
    step = nn.TrainOneStepWithLossScaleCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                            nn.DynamicLossScaleUpdateCell(2.0 ** 10, 2, 100))
    assert isinstance(step, nn.TrainOneStepWithLossScaleCell)
