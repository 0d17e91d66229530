"""Coverage of real MindSpore 2.10's public names cannot drop silently.

``tests/fixtures/api/mindspore-2.10-names.json`` holds real 2.10's public names per namespace (made by
``scripts/api_names_from_ms.py`` with real MindSpore); ``coverage_floor.json`` the number of them each
namespace had when last recorded. A namespace with fewer now fails; when coverage grows, raise the floor
(``python scripts/api_coverage.py --json`` prints today's numbers).
"""
import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "api"


def _load_script():
    spec = importlib.util.spec_from_file_location("api_coverage", ROOT / "scripts" / "api_coverage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


api_coverage = _load_script()
REFERENCE = api_coverage.load_reference(FIXTURES / "mindspore-2.10-names.json")
FLOOR = json.loads((FIXTURES / "coverage_floor.json").read_text())


@pytest.fixture(scope="module")
def coverage():
    return api_coverage.coverage(REFERENCE)


def test_every_namespace_has_a_floor():
    assert sorted(FLOOR) == sorted(REFERENCE)
    for namespace, floor in FLOOR.items():
        assert 0 <= floor <= len(REFERENCE[namespace]), namespace


def test_reference_is_real_210():
    # a few anchors: the fixture is the real 2.10 surface, not ours
    assert "mint.nn.functional" in "".join(REFERENCE)
    assert "conv2d" in REFERENCE["mindspore.ops:functions"]
    assert "Conv2D" in REFERENCE["mindspore.ops:primitives"]
    assert "Conv2d" in REFERENCE["mindspore.nn"]
    assert len(REFERENCE["mindspore.numpy"]) == 249
    assert len(REFERENCE["mindspore.Tensor"]) == 430


@pytest.mark.parametrize("namespace", sorted(FLOOR))
def test_coverage_does_not_drop(coverage, namespace):
    names, missing = coverage[namespace]
    ours = len(names) - len(missing)
    assert ours >= FLOOR[namespace], (
        f"{namespace}: {ours} of real 2.10's {len(names)} public names resolve, fewer than the recorded floor "
        f"{FLOOR[namespace]}; now missing: {missing}")


def test_missing_lists_exactly_what_does_not_resolve(capsys):
    api_coverage.main(["--missing", "mindspore.ops:functions"])
    printed = capsys.readouterr().out.split()
    import mindspore.ops as ops
    assert printed, "the fixture has names we lack"
    assert all(not hasattr(ops, name) for name in printed)
    present = set(REFERENCE["mindspore.ops:functions"]) - set(printed)
    assert all(hasattr(ops, name) for name in present)
