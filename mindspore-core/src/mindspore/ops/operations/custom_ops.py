"""``mindspore.ops.CustomOpBuilder``: compile a user's C++ custom operators into a Python module and load it.

The sources ``#include "ms_extension/api.h"`` (this package's ``mindspore/include/ms_extension/``: ``ms::Tensor``,
``ms::pynative::PyboostRunner``, ...; see :mod:`mindspore.ops.operations._ms_extension` for how its tensors
reach the host) and define a pybind11 module with ``PYBIND11_MODULE(MS_EXTENSION_NAME, m)``. :meth:`load`
compiles them with the system C++ compiler (``$CXX``, else ``c++``/``g++``/``clang++``) and pybind11's headers
into ``<build_dir>/<name>.so``, imports it and returns it (behind a proxy that refuses its functions in
GRAPH_MODE, as MindSpore 2.10 does).

Design
------
- Arguments are checked as MindSpore 2.10 checks them (same exception types and messages). ``backend`` is
  ``"CPU"`` or ``"Ascend"``; ``"Ascend"`` (and ``enable_atb`` / ``enable_asdsip``) keeps 2.10's checks of its
  environment variables, then :meth:`build` raises a RuntimeError: Ascend custom ops compile against MindSpore's
  Ascend C++ runtime (aclnn/ATB runners), which this build does not have.
- The build directory is ``build_dir``, else ``$MS_COMPILER_CACHE_PATH/<name>`` (default ``./kernel_meta/<name>``).
  A hash of the sources, the ``ms_extension`` headers, the compiler, the flags and the Python ABI is kept next
  to the library (``<name>.hash``); :meth:`build` recompiles only when it changed. The compiler writes a
  temporary file that is renamed over ``<name>.so`` (an atomic replace), so processes that build the same
  name at once never see a half-written library. The compiler's output is kept in ``.build_log.txt``.
- ``load()`` caches the loaded module per name for the process (``CustomOpBuilder._loaded_ops``), as 2.10.
- ``op_def`` / ``op_doc`` (2.10's YAML operator definitions, which generate graph-mode operators from
  MindSpore's C++ op registry) are checked (files exist, ``.yaml``/``.yml``) and copied into the build directory;
  graph-mode code generation from them needs MindSpore's C++ operator registry, so they do not register GRAPH
  mode operators here.
- GRAPH_MODE: as in 2.10, getting a compiled function from the module while the mode is GRAPH_MODE (in a
  ``construct`` or outside) raises 2.10's AttributeError. A function fetched in PYNATIVE and called inside a
  graph being compiled (``@jit``; 2.10 runs it there through its Python fallback) raises a RuntimeError saying
  it runs in PYNATIVE only: its kernel needs tensor values, and this graph compiler has no opaque host call of
  unknown output shape.
- Tensors: see :mod:`mindspore.ops.operations._ms_extension` (host views; device tensors are copied to the host
  through the runtime and written back when a kernel changed them). Outputs made in C++ have host memory from
  the start (2.10 gives it in ``PyboostRunner::Run`` / ``ms::TensorAllocate``), so code written for 2.10 runs
  unchanged.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import mindspore.context as context
from mindspore._cxx import find_compiler as _find_compiler

__all__ = ["CustomOpBuilder"]

#: the ``mindspore`` package directory of mindspore-core (its ``include/ms_extension`` holds the C++ API)
_MS_PATH = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _type_name(value):
    return type(value).__name__


def _check_value_type(arg_name, value, valid_types):
    if isinstance(value, bool) and bool not in valid_types:
        ok = False
    else:
        ok = isinstance(value, tuple(valid_types))
    if not ok:
        names = [t.__name__ for t in valid_types]
        if len(names) == 1:
            raise TypeError(f"The type of '{arg_name}' should be '{names[0]}', but got type '{_type_name(value)}'.")
        raise TypeError(f"The type of '{arg_name}' should be one of '{names}', but got type '{_type_name(value)}'.")
    return value


def _check_bool(value, arg_name=None):
    if not isinstance(value, bool):
        if arg_name is None:
            raise TypeError(f"The input value must be a bool, but got {_type_name(value)}.")
        raise TypeError(f"The '{arg_name}' must be a bool, but got {_type_name(value)}.")
    return value


def _check_str_or_list_str(key, val):
    if val is None:
        return None
    if isinstance(val, str):
        val = [val]
    _check_value_type(key, val, [list, tuple])
    val = list(val)
    for item in val:
        if not isinstance(item, str):
            raise TypeError(f"The type of '{key}' should be str, but got '{item}' with type '{_type_name(item)}'.")
    return val


def _pybind11_include():
    try:
        import pybind11
    except ImportError as exc:
        raise RuntimeError("For 'CustomOpBuilder', compiling custom operators needs pybind11's headers, but "
                           "pybind11 is not installed: pip install pybind11") from exc
    return pybind11.get_include()


class _MultiSoProxy:
    """The loaded module: attribute access goes to the compiled module in PYNATIVE mode (or to the Python module
    generated from ``op_def`` when there is one); in GRAPH_MODE the compiled functions are refused with 2.10's
    AttributeError."""

    def __init__(self, func_module, so_module):
        self.func_module = func_module
        self.so_module = so_module

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        mode = context.get_context("mode")
        func_module = self.__dict__.get("func_module")
        so_module = self.__dict__.get("so_module")
        if func_module is not None and hasattr(func_module, name):
            return getattr(func_module, name)
        if mode == context.PYNATIVE_MODE and hasattr(so_module, name):
            return getattr(so_module, name)
        if mode == context.PYNATIVE_MODE:
            raise AttributeError(f"Custom op '{name}' is neither in func_module nor in so_module.")
        raise AttributeError(f"Custom op '{name}' does not support GRAPH mode. "
                             f"Please register it for GRAPH mode or switch to PYNATIVE mode.")

    def __dir__(self):
        return sorted(set(dir(self.so_module)) | set(dir(self.func_module) if self.func_module else ()))


class CustomOpBuilder:
    r"""Compile and load a module of custom operators written in C++ against ``ms_extension/api.h``.

    Args:
        name (str): the module's name (``MS_EXTENSION_NAME``; unique per process).
        sources (Union[str, list[str], tuple[str]]): the C++ source file(s).
        backend (str, optional): ``"CPU"`` or ``"Ascend"``. Default: ``None``.
        include_paths (Union[str, list[str], tuple[str]], optional): more include directories. Default: ``None``.
        cflags (str, optional): more compiler flags. Default: ``None``.
        ldflags (str, optional): more linker flags. Default: ``None``.
        kwargs: ``build_dir`` (str), ``debug_mode`` (bool), ``enable_atb`` (bool), ``enable_asdsip`` (bool),
            ``op_def`` / ``op_doc`` (YAML file paths).

    Examples:
        >>> from mindspore import ops
        >>> my_ops = ops.CustomOpBuilder("cpu_add", ["./pyboost_cpu_add.cpp"], backend="CPU").load()
        >>> out = my_ops.add3(x, y, z)
    """
    _loaded_ops = {}

    def __init__(self, name, sources, backend=None, include_paths=None, cflags=None, ldflags=None, **kwargs):
        self._check_and_get_args(name, sources, backend, include_paths, cflags, ldflags, **kwargs)
        self._ms_path = _MS_PATH
        self.auto_generate = self.name + "_auto_generate"
        if self.enable_atb:
            if backend is not None and backend != "Ascend":
                raise ValueError("For 'CustomOpBuilder', when 'enable_atb' is set to True, the 'backend' must be "
                                 f"'Ascend' (or left implicit), but got '{backend}'")
            self.backend = "Ascend"
        if self.enable_asdsip:
            if backend is not None and backend != "Ascend":
                raise ValueError("For 'CustomOpBuilder', when 'enable_asdsip' is set to True, the 'backend' must be "
                                 f"'Ascend' (or left implicit), but got '{backend}'")
            self.backend = "Ascend"
        if self.backend == "Ascend":
            ascend_opp_path = os.getenv("ASCEND_OPP_PATH")
            if not ascend_opp_path:
                raise ValueError("Environment variable 'ASCEND_OPP_PATH' must be set for Ascend backend.")
            self.ascend_cann_path = ascend_opp_path.split("opp")[0]
            if self.enable_atb:
                self.atb_home_path = os.getenv("ATB_HOME_PATH")
                if not self.atb_home_path:
                    raise ValueError("Environment variable 'ATB_HOME_PATH' must be set when 'enable_atb' is True.")

    def _check_and_get_args(self, name, sources, backend=None, include_paths=None, cflags=None, ldflags=None,
                            **kwargs):
        self.name = _check_value_type("name", name, [str])
        self.source = _check_str_or_list_str("sources", sources)
        self.backend = _check_value_type("backend", backend, [str, type(None)])
        if self.backend is not None and self.backend not in {"CPU", "Ascend"}:
            raise ValueError(f"For 'backend', only 'CPU' or 'Ascend' are allowed, but got '{self.backend}'.")
        self.include_paths = _check_str_or_list_str("include_paths", include_paths)
        self.cflags = _check_value_type("cflags", cflags, [str, type(None)])
        self.ldflags = _check_value_type("ldflags", ldflags, [str, type(None)])
        self.build_dir = _check_value_type("build_dir", kwargs.get("build_dir"), [str, type(None)])
        self.debug_mode = _check_bool(kwargs.get("debug_mode", False), "debug_mode")
        self.enable_asdsip = _check_bool(kwargs.get("enable_asdsip", False), "enable_asdsip")
        self.yaml = _check_str_or_list_str("op_def", kwargs.get("op_def"))
        self.doc = _check_str_or_list_str("op_doc", kwargs.get("op_doc"))
        self.enable_atb = _check_bool(kwargs.get("enable_atb", False))

    # -- what is compiled, and how ----------------------------------------------------------------
    def get_sources(self):
        """The source files to compile (list of str)."""
        if self.source is None:
            raise TypeError(f"For 'CustomOpBuilder', the 'sources' of '{self.name}' must be a source file path or a "
                            f"list of them, but got None.")
        self.source = [self.source] if isinstance(self.source, str) else self.source
        return list(self.source)

    def get_include_paths(self):
        """The include directories: the user's, then this package's ``include`` (``ms_extension/api.h``), then
        pybind11's."""
        include_list = list(self.include_paths) if self.include_paths is not None else []
        include_list.append(os.path.join(self._ms_path, "include"))
        include_list.append(_pybind11_include())
        return include_list

    def get_cflags(self):
        """The compiler flags (list of str; the user's ``cflags`` string last, split as a shell would)."""
        flags = [f"-DMS_EXTENSION_NAME={self.name}", "-std=c++17", "-fPIC", "-fvisibility=hidden"]
        flags.append("-g" if self.debug_mode else "-O2")
        if self.cflags is not None:
            flags.append(self.cflags)
        return flags

    def get_ldflags(self):
        """The linker flags (list of str; the user's ``ldflags`` string last)."""
        flags = ["-shared"]
        if sys.platform == "darwin":
            flags += ["-undefined", "dynamic_lookup"]
        if not self.debug_mode and sys.platform.startswith("linux"):
            flags.append("-s")
        if self.ldflags is not None:
            flags.append(self.ldflags)
        return flags

    def _get_build_directory(self):
        if self.build_dir is None:
            build_root = os.path.realpath(os.getenv("MS_COMPILER_CACHE_PATH", "./kernel_meta"))
            self.build_dir = os.path.join(build_root, self.name)
        else:
            self.build_dir = os.path.realpath(self.build_dir)
        os.makedirs(self.build_dir, exist_ok=True)
        return self.build_dir

    def _copy_op_defs(self, build_path):
        """2.10's checks and copies of the op_def / op_doc YAML files (build_dir/yaml, build_dir/doc)."""
        def copy_files(files, dest):
            if os.path.exists(dest):
                shutil.rmtree(dest)
            os.makedirs(dest, exist_ok=True)
            for path in files:
                if not os.path.isfile(path):
                    raise FileNotFoundError(f"File not found: {path}")
                filename = os.path.basename(path)
                ext = os.path.splitext(filename)[1].lower()
                if ext not in (".yaml", ".yml"):
                    raise ValueError(f"Invalid file extension: {ext} for {filename}")
                shutil.copy2(path, os.path.join(dest, filename))
        if self.yaml is not None:
            copy_files(self.yaml, os.path.join(build_path, "yaml"))
        if self.doc is not None:
            copy_files(self.doc, os.path.join(build_path, "doc"))

    def _check_backend(self):
        if self.backend == "Ascend":
            raise RuntimeError(
                f"For 'CustomOpBuilder', the module '{self.name}' targets the 'Ascend' backend (aclnn/ATB/ASDSIP "
                f"custom ops), which compiles against MindSpore's Ascend C++ runtime; no Ascend backend is "
                f"installed in this build. Use backend='CPU' (or leave it unset) for CPU kernels written against "
                f"ms_extension/api.h.")

    def _command(self, sources, output):
        cxx = _find_compiler()
        python_include = sysconfig.get_path("include", scheme="posix_prefix") or sysconfig.get_path("include")
        cmd = list(cxx)
        cmd += [f"-I{os.path.abspath(p.strip())}" for p in self.get_include_paths()]
        if python_include:
            cmd += ["-isystem", python_include]
        for flag in self.get_cflags():
            cmd += shlex.split(flag)
        cmd += [os.path.abspath(s) for s in sources]
        for flag in self.get_ldflags():
            cmd += shlex.split(flag)
        cmd += ["-o", output]
        return cmd

    def _fingerprint(self, sources, cmd_template):
        h = hashlib.sha256()
        h.update("\0".join(cmd_template).encode())
        h.update(sys.version.encode())
        for path in sources:
            with open(path, "rb") as f:       # FileNotFoundError for a missing source, as 2.10
                h.update(path.encode() + b"\0" + f.read())
        header_dir = os.path.join(self._ms_path, "include", "ms_extension")
        if os.path.isdir(header_dir):
            for fname in sorted(os.listdir(header_dir)):
                with open(os.path.join(header_dir, fname), "rb") as f:
                    h.update(fname.encode() + b"\0" + f.read())
        return h.hexdigest()

    def build(self):
        """Compile the module if its sources, headers or flags changed since the last build; returns the path of
        the library (``<build_dir>/<name>.so``)."""
        self._check_backend()
        sources = [os.path.abspath(s) for s in self.get_sources()]
        if not sources:
            raise ValueError(f"For 'CustomOpBuilder', the 'sources' of '{self.name}' must name at least one file.")
        build_dir = self._get_build_directory()
        self._copy_op_defs(build_dir)
        target = os.path.join(build_dir, f"{self.name}.so")
        hash_file = os.path.join(build_dir, f"{self.name}.hash")
        fingerprint = self._fingerprint(sources, self._command(sources, "<out>"))
        if os.path.isfile(target) and os.path.isfile(hash_file):
            with open(hash_file, encoding="utf-8") as f:
                if f.read().strip() == fingerprint:
                    return target
        fd, tmp = tempfile.mkstemp(prefix=f".{self.name}.", suffix=".so.tmp", dir=build_dir)
        os.close(fd)
        cmd = self._command(sources, tmp)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=build_dir, check=False)
            log = " ".join(shlex.quote(c) for c in cmd) + "\n" + proc.stdout + proc.stderr
            with open(os.path.join(build_dir, ".build_log.txt"), "w", encoding="utf-8") as f:
                f.write(log)
            if proc.returncode != 0:
                raise RuntimeError(f"Error building extension '{self.name}' from {', '.join(sources)} "
                                   f"(compiler exit status {proc.returncode}):\n{proc.stdout}{proc.stderr}")
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        fd, tmp_hash = tempfile.mkstemp(prefix=f".{self.name}.", suffix=".hash.tmp", dir=build_dir)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(fingerprint)
        os.replace(tmp_hash, hash_file)
        return target

    def load(self):
        """Build (if needed) and import the module; returns it (the same object for a name already loaded)."""
        if self.name in CustomOpBuilder._loaded_ops:
            return CustomOpBuilder._loaded_ops[self.name]
        module_path = self.build()
        so_module = CustomOpBuilder._import_module(module_path, self.name)
        mod = _MultiSoProxy(None, so_module)
        CustomOpBuilder._loaded_ops[self.name] = mod
        return mod

    @staticmethod
    def _import_module(module_path, module_name):
        module_path = os.path.abspath(module_path)
        loader = importlib.machinery.ExtensionFileLoader(module_name, module_path)
        spec = importlib.util.spec_from_file_location(module_name, module_path, loader=loader)
        try:
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        except ImportError as exc:
            raise RuntimeError(f"For 'CustomOpBuilder', the compiled module '{module_path}' could not be imported: "
                               f"{exc}. Its source must define PYBIND11_MODULE(MS_EXTENSION_NAME, m).") from exc
        sys.modules[module_name] = module
        return module
