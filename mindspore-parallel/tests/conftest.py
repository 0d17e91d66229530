"""mindspore-parallel's tests run on a device target with a collective backend."""
import pytest

import mindspore as ms


@pytest.fixture(autouse=True)
def _collective_target():
    """The CPU target while a test runs, when the session's device has no collective backend: ``init`` picks its
    backend from the device target (mccl for CPU) and refuses one without (as MindSpore does), and the test-only
    STRICT device (``MS_TEST_DEVICE_TARGET=STRICT``) has none."""
    target = ms.get_context("device_target")
    if target in ("CPU", "GPU", "Ascend"):
        yield
        return
    ms.set_context(device_target="CPU")
    try:
        yield
    finally:
        ms.set_context(device_target=target)
