"""mindspore-meta: the distribution named ``mindspore`` (no code; core and the CPU backend as dependencies), by which
libraries written for MindSpore find it (``importlib.metadata.version("mindspore")``: MindOne's
``is_mindspore_available()``)."""
import importlib.metadata
import pathlib
import tomllib

import pytest

import mindspore

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_meta_distribution_declares_mindspore_with_core_and_cpu():
    project = tomllib.loads((ROOT / "mindspore-meta" / "pyproject.toml").read_text())["project"]
    assert project["name"] == "mindspore" and project["version"] == mindspore.__version__
    assert sorted(project["dependencies"]) == [f"mindspore-core=={mindspore.__version__}",
                                               f"mindspore-cpu=={mindspore.__version__}"]
    setuptools = tomllib.loads((ROOT / "mindspore-meta" / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["packages"] == []   # the import package stays mindspore-core's alone


def test_installed_version_is_cores():
    try:
        version = importlib.metadata.version("mindspore")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("mindspore-meta is not installed")
    assert version == mindspore.__version__
