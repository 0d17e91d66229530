"""Helpers for the packaging tests: wheels of this repository and fresh virtual environments.

The environments are plain ``venv``s without the test run's site-packages, so that only what a test
installs there is visible (an editable or installed ``mindspore-cpu`` of the test run must not be).
Third-party dependencies (numpy, pluggy, ml_dtypes) come from the package index pip is configured
with (PyPI by default; pip's cache makes repeated runs fast).
"""
import getpass
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
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


_SKIP = ("build", "*.egg-info", "__pycache__")      # what a clean copy leaves out


def _source_key(folder):
    """A hash of what a wheel of ``folder`` is built from: the files of its clean copy (paths and contents) and the
    Python, pip and setuptools building it."""
    from importlib import metadata
    h = hashlib.sha256()
    tools = [sys.version]
    for dist in ("pip", "setuptools", "wheel"):
        try:
            tools.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            tools.append(f"no {dist}")
    h.update("\0".join(tools).encode())
    root = REPO / folder
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not any(pathlib.PurePath(d).match(p) for p in _SKIP))
        for name in sorted(filenames):
            if any(pathlib.PurePath(name).match(p) for p in _SKIP):
                continue
            path = pathlib.Path(dirpath) / name
            h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:24]


def _project_name(folder):
    return re.search(r'^name\s*=\s*"([^"]+)"', (REPO / folder / "pyproject.toml").read_text(), re.M).group(1)


def build_wheels(out, *folders):
    """Wheels of the distributions in ``folders``, built from clean copies (no stale ``build/``).

    Each wheel is built once per source: kept in the temporary folder, keyed on :func:`_source_key`, and copied
    from there while its sources are unchanged (the packaging tests and the plugin tests, in each test process,
    all want mindspore-core's)."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cache = pathlib.Path(tempfile.gettempdir()) / f"mindspore-test-wheels-{getpass.getuser()}"
    cache.mkdir(exist_ok=True)
    kept = {folder: cache / f"{pathlib.PurePath(folder).name}-{_source_key(folder)}" for folder in folders}
    missing = [folder for folder in folders if not kept[folder].is_dir()]
    if missing:
        sources = []
        for folder in missing:
            copy = out / "src" / folder
            shutil.copytree(REPO / folder, copy, ignore=shutil.ignore_patterns(*_SKIP))
            sources.append(copy)
        built = out / "src" / "wheels"
        isolation = ["--no-build-isolation"] if has_setuptools() else []
        _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "--quiet", "-w", built, *sources])
        for folder in missing:
            partial = cache / f"{kept[folder].name}.{os.getpid()}"
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir()
            shutil.copy2(wheel(built, _project_name(folder)), partial)
            try:
                os.rename(partial, kept[folder])      # whole, at once: test processes share the folder
            except OSError:                           # another process put the same wheel there first
                shutil.rmtree(partial, ignore_errors=True)
    for folder in folders:
        (path,) = kept[folder].glob("*.whl")
        shutil.copy2(path, out)
    return out


def wheel(wheelhouse, dist):
    (path,) = pathlib.Path(wheelhouse).glob(f"{dist.replace('-', '_')}-*.whl")
    return path
