"""Repository-wide test switches.

``MS_TEST_DEVICE_TARGET=STRICT`` runs the session on the test-only ``STRICT`` device
(``tests/strict_device``): buffers that refuse implicit conversion to NumPy, as CuPy's do, so the
suites run that way prove core computes only through kernels and moves data only through the
runtime (``.ci/run`` does this for the conformance, nn, optimizer, Model, amp and LeNet suites).

``pytestmark = pytest.mark.both_modes`` in a test module (or the marker on one test) runs each of its
tests twice, in PYNATIVE_MODE and in GRAPH_MODE: one parametrised switch instead of copies of tests.
A test can read the mode it runs in from the ``ms_mode`` fixture. In GRAPH_MODE the IR verifier runs
after every compiler pass.
"""
import pytest

_MODES = ("pynative", "graph")


def pytest_configure(config):
    config.addinivalue_line("markers", "both_modes: run the test in PYNATIVE_MODE and in GRAPH_MODE")
    config.addinivalue_line("markers", "cpu_backend: checks the CPU backend's own behaviour (host-memory buffers, "
                                       "its fusion passes, its threads): skipped when the session runs on another "
                                       "device (MS_TEST_DEVICE_TARGET)")
    # every graph compiled by any test is checked by the IR verifier after every pass
    import os
    os.environ.setdefault("MS_VERIFY_IR", "1")
    target = os.environ.get("MS_TEST_DEVICE_TARGET")
    if target:
        _use_test_target(target)


def _use_test_target(target):
    """Make ``target`` the device of the whole session (``STRICT``: register the test-only plugin first)."""
    import pathlib
    import sys
    import mindspore as ms
    if target.upper() == "STRICT":
        sys.path.insert(0, str(pathlib.Path(__file__).parent / "tests" / "strict_device"))
        import ms_strict_device
        ms.plugin.register_plugin(ms_strict_device, "strict")
    ms.set_context(device_target=target)


def pytest_collection_modifyitems(config, items):
    import os
    target = os.environ.get("MS_TEST_DEVICE_TARGET")
    if not target or target.upper() == "CPU":
        return
    skip = pytest.mark.skip(reason=f"checks the CPU backend itself; this session runs on {target}")
    for item in items:
        if item.get_closest_marker("cpu_backend") is not None:
            item.add_marker(skip)


def pytest_generate_tests(metafunc):
    if metafunc.definition.get_closest_marker("both_modes") is not None:
        if "_ms_mode_param" not in metafunc.fixturenames:
            metafunc.fixturenames.append("_ms_mode_param")
        metafunc.parametrize("_ms_mode_param", _MODES, ids=_MODES, indirect=True)


@pytest.fixture
def _ms_mode_param(request):
    return getattr(request, "param", None)


@pytest.fixture(autouse=True)
def _ms_mode_switch(request):
    callspec = getattr(request.node, "callspec", None)
    mode = callspec.params.get("_ms_mode_param") if callspec is not None else None
    if mode is None:
        yield None
        return
    import mindspore as ms
    from mindspore._pipeline import passes
    previous, verify = ms.get_context("mode"), passes.VERIFY
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    passes.VERIFY = True
    try:
        yield mode
    finally:
        ms.set_context(mode=previous)
        passes.VERIFY = verify


@pytest.fixture
def restore_mode():
    """Put the execution mode and the device target back after the test (for tests that set them themselves, or run
    code that does, such as MindSpore's docstring examples: under MS_TEST_DEVICE_TARGET=STRICT a target left on CPU
    would hand later tests' STRICT tensors to CPU kernels): a module uses it with
    ``pytestmark = pytest.mark.usefixtures("restore_mode")``."""
    import mindspore as ms
    mode, target = ms.get_context("mode"), ms.get_context("device_target")
    yield
    ms.set_context(mode=mode)
    if ms.get_context("device_target") != target:
        ms.set_device(target)


@pytest.fixture
def ms_mode(_ms_mode_switch):
    """The mode the test runs in: ``"pynative"``, ``"graph"``, or ``None`` when it is not switched."""
    return _ms_mode_switch


@pytest.fixture
def eager_calls(monkeypatch):
    """The names of the primitives dispatched eagerly from here on, in order, a list that grows as they run (a
    PYNATIVE backward pass is walked on the tape, not compiled as a repeated one would be, so that its primitives
    are dispatched and counted too: mindspore._autodiff.compiled_backward)."""
    from mindspore._runtime import dispatch
    calls = []
    plain = dispatch.Eager.apply

    def counted(self, prim, inputs):
        calls.append(prim.name)
        return plain(self, prim, inputs)
    monkeypatch.setattr(dispatch.Eager, "apply", counted)
    monkeypatch.setenv("MS_PYNATIVE_COMPILED_BACKWARD", "0")
    return calls
