"""Fixtures of the operator tests."""
import pytest

import mindspore as ms


@pytest.fixture
def cpu_mode():
    """``use(mode)`` runs the test on the CPU target in ``mode``; the context is restored afterwards."""
    old_mode, old_target = ms.get_context("mode"), ms.get_context("device_target")

    def use(mode):
        ms.set_context(mode=mode, device_target="CPU")
    yield use
    ms.set_context(mode=old_mode, device_target=old_target)
