"""Helpers for the packaging tests: wheels of this repository and fresh virtual environments.

The environments are plain ``venv``s without the test run's site-packages, so that only what a test
installs there is visible (an editable or installed ``mindspore-cpu`` of the test run must not be).
Third-party dependencies (numpy, pluggy, ml_dtypes) come from the package index pip is configured
with (PyPI by default; pip's cache makes repeated runs fast).
"""
import os
import pathlib
import shutil
import subprocess
import sys
import venv

REPO = pathlib.Path(__file__).resolve().parents[2]
_CLEAN = ("MINDSPORE_PLUGINS_AUTOLOAD", "MINDSPORE_DISABLE_PLUGINS", "MINDSPORE_DEVICE_TARGET", "PYTHONPATH",
          "PYTHONHOME")


def _env():
    env = {k: v for k, v in os.environ.items() if k not in _CLEAN}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(cmd, timeout=600, cwd=None):
    out = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=_env(), timeout=timeout, cwd=cwd)
    assert out.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{out.stdout}\n{out.stderr}"
    return out


class Env:
    """A fresh virtual environment; ``pip`` is the test run's own pip acting on it (``pip --python``)."""

    def __init__(self, root):
        venv.EnvBuilder(with_pip=False).create(root)
        self.root = pathlib.Path(root)
        self.python = self.root / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

    def pip(self, *args):
        # no byte-compiling at install: each environment imports its packages once or twice, and compiling all of
        # numpy and mindspore up front took half of an install's time
        extra = ["--no-compile"] if args[:1] == ("install",) else []
        return _run([sys.executable, "-m", "pip", "--python", self.python, *args[:1], *extra, *args[1:]])

    def run(self, *args, check=True, cwd=None):
        """Run this environment's Python (from ``cwd``, a folder outside the repository by default)."""
        out = subprocess.run([str(self.python), *map(str, args)], capture_output=True, text=True, env=_env(),
                             timeout=300, cwd=cwd or self.root)
        if check:
            assert out.returncode == 0, f"{args} failed:\n{out.stdout}\n{out.stderr}"
        return out


def has_setuptools():
    try:
        import setuptools  # noqa: F401
        return True
    except ImportError:
        return False


def build_wheels(out, *folders):
    """Wheels of the distributions in ``folders``, built from clean copies (no stale ``build/``)."""
    out = pathlib.Path(out)
    sources = []
    for folder in folders:
        copy = out / "src" / folder
        shutil.copytree(REPO / folder, copy, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        sources.append(copy)
    isolation = ["--no-build-isolation"] if has_setuptools() else []
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "--quiet", "-w", out, *sources])
    return out


def wheel(wheelhouse, dist):
    (path,) = pathlib.Path(wheelhouse).glob(f"{dist.replace('-', '_')}-*.whl")
    return path
