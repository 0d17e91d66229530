"""The fuzz suite: Hypothesis-driven robustness tests of the file loaders and the operators.

``MS_FUZZ_EXAMPLES`` sets the number of examples per target (default 20: the folder runs in well under a minute
on two cores, for ``.ci/run``); ``nox -s fuzz`` runs it with thousands. The examples are derandomized, so a run
is reproducible from the source alone, and no example database is written. The terminal summary lists how many
examples each target ran and how they ended.
"""
import atexit
import importlib.util
import pathlib
import shutil
import sys
import tempfile

import pytest

if importlib.util.find_spec("hypothesis") is None:
    # a developer's environment without it: say so instead of failing collection (CI, nox and tox install it)
    collect_ignore_glob = ["test_*.py"]
    fuzz_harness = None
else:
    import hypothesis.configuration

    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    import fuzz_harness

    # Hypothesis caches (the constants it mines from source) in ./.hypothesis even without an example database:
    # keep the checkout clean
    _HOME = tempfile.mkdtemp(prefix="ms-fuzz-hypothesis-")
    hypothesis.configuration.set_hypothesis_home_dir(_HOME)
    atexit.register(shutil.rmtree, _HOME, ignore_errors=True)


def pytest_report_header():
    if fuzz_harness is None:
        return "tests/fuzz: not collected, hypothesis is not installed (pip install hypothesis)"
    return None


@pytest.fixture(scope="session")
def loader_worker(tmp_path_factory):
    worker = fuzz_harness.LoaderWorker(str(tmp_path_factory.mktemp("fuzz-loader")))
    yield worker
    worker.close()


def pytest_terminal_summary(terminalreporter):
    if fuzz_harness is None:
        return
    counts = fuzz_harness.COUNTS
    if not counts:
        return
    terminalreporter.section(f"fuzz examples (MS_FUZZ_EXAMPLES={fuzz_harness.EXAMPLES})")
    targets = sorted({target for target, _ in counts} - {"misbehave"})  # the harness's own tests
    for target in targets:
        outcomes = {o: n for (t, o), n in counts.items() if t == target}
        detail = ", ".join(f"{o} {n}" for o, n in sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])))
        terminalreporter.write_line(f"{target:<28} {sum(outcomes.values()):>6}  ({detail})")
