"""Repository-wide test switches.

``pytestmark = pytest.mark.both_modes`` in a test module (or the marker on one test) runs each of its
tests twice, in PYNATIVE_MODE and in GRAPH_MODE: one parametrised switch instead of copies of tests.
A test can read the mode it runs in from the ``ms_mode`` fixture. In GRAPH_MODE the IR verifier runs
after every compiler pass.
"""
import pytest

_MODES = ("pynative", "graph")


def pytest_configure(config):
    config.addinivalue_line("markers", "both_modes: run the test in PYNATIVE_MODE and in GRAPH_MODE")
    # every graph compiled by any test is checked by the IR verifier after every pass
    import os
    os.environ.setdefault("MS_VERIFY_IR", "1")


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
def ms_mode(_ms_mode_switch):
    """The mode the test runs in: ``"pynative"``, ``"graph"``, or ``None`` when it is not switched."""
    return _ms_mode_switch
