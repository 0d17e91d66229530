"""Checks a GPU library passed on this machine, remembered on disk so that the next process need not repeat them.

The cuDNN path (:mod:`mindspore_gpu.cudnn`) checks cuDNN against the im2col kernels before trusting it: a known-answer
check per (op, rank, dtype), which builds cuDNN graphs of its own small cases, and a check of each case when its graph
is built. Their outcome depends only on the machine's software and hardware and on the case, so a check passed once
need not be repeated by every process: :class:`Verdicts` keeps the passes (never the failures, which may come from a
transient error, and are rare) in one JSON file per machine, under an *environment* string that names everything an
answer may depend on (the library's and the driver's versions, the device, the engine choices the caller's flags
make). A different cuDNN, driver, device or flag is another environment, checked afresh.

* **Where**: ``$MS_GPU_CACHE_DIR/cudnn_checks.json``; the folder defaults to ``$XDG_CACHE_HOME/mindspore/gpu``
  (``~/.cache/mindspore/gpu``). ``MS_GPU_CUDNN_CHECK_CACHE=0`` neither reads nor writes it (every process checks).
* **Format**: ``{"version": VERSION, "environments": {environment: {kind: [key, ...]}}}``; a file of another
  ``VERSION`` (bumped when the checks themselves change), or one that cannot be read or parsed, counts as empty.
* **Writes** are atomic (a temporary file in the same folder, then ``os.replace``) and merge what the file holds
  by then, so processes checking at the same time lose nothing but, at worst, a pass another one also made. A folder
  that cannot be written turns the remembering off for the process, silently: the checks still run.
"""
import json
import os
import tempfile
import threading

__all__ = ["Verdicts", "cache_dir", "VERSION", "CACHE_DIR_ENV", "ENV", "LIMIT"]

#: The folder of what the GPU backend keeps between processes.
CACHE_DIR_ENV = "MS_GPU_CACHE_DIR"
#: ``MS_GPU_CUDNN_CHECK_CACHE=0``: no verdict is read or written.
ENV = "MS_GPU_CUDNN_CHECK_CACHE"
#: The format, and the checks' own version: verdicts written under another are not used.
VERSION = 1
#: The most keys kept per (environment, kind); past it the oldest are dropped.
LIMIT = 4096


def cache_dir():
    """``$MS_GPU_CACHE_DIR``, else ``$XDG_CACHE_HOME/mindspore/gpu``, else ``~/.cache/mindspore/gpu``."""
    folder = os.environ.get(CACHE_DIR_ENV, "").strip()
    if folder:
        return folder
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mindspore", "gpu")


def _on():
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


class Verdicts:
    """The checks passed, per environment and kind, in the JSON file ``name`` of :func:`cache_dir` (both read when
    first needed, and again after :meth:`reset`)."""

    def __init__(self, name):
        self.name = name
        self._lock = threading.Lock()
        self.reset()

    def reset(self):
        """Forget what was read (the folder and ``MS_GPU_CUDNN_CHECK_CACHE`` are read again at the next use)."""
        self._path = None         # None: not opened yet; False: not remembering
        self._passed = {}         # (environment, kind) -> {key: None}, in the order passed

    @property
    def path(self):
        """The file, or ``None`` when nothing is remembered."""
        if self._path is None:
            self._path = os.path.join(cache_dir(), self.name) if _on() else False
            if self._path:
                self._passed = self._read_entries(self._path)
        return self._path or None

    def passed(self, environment, kind, key):
        """Whether ``key`` (a string) passed its ``kind`` of check in ``environment`` (here or in an earlier
        process)."""
        if self.path is None:
            return False
        return key in self._passed.get((environment, kind), ())

    def remember(self, environment, kind, key):
        """Record that ``key`` passed, in memory and in the file."""
        if self.path is None:
            return
        with self._lock:
            self._passed.setdefault((environment, kind), {})[key] = None
            self._write()

    @staticmethod
    def _read_entries(path):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != VERSION:
            return {}
        entries = {}
        environments = data.get("environments")
        for environment, kinds in (environments.items() if isinstance(environments, dict) else ()):
            for kind, keys in (kinds.items() if isinstance(kinds, dict) else ()):
                if isinstance(keys, list):
                    entries[(environment, kind)] = {k: None for k in keys if isinstance(k, str)}
        return entries

    def _write(self):
        path = self._path
        merged = self._read_entries(path)       # (what other processes wrote meanwhile: theirs first, then ours)
        for where, keys in self._passed.items():
            on_disk = merged.get(where, {})
            merged[where] = {**{k: None for k in on_disk if k not in keys}, **keys}
        self._passed = {where: dict.fromkeys(list(keys)[-LIMIT:]) for where, keys in merged.items()}
        environments = {}
        for (environment, kind), keys in self._passed.items():
            environments.setdefault(environment, {})[kind] = list(keys)
        folder = os.path.dirname(path)
        try:
            os.makedirs(folder, exist_ok=True)
            fd, temporary = tempfile.mkstemp(prefix=f".{self.name}.", dir=folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump({"version": VERSION, "environments": environments}, f, indent=1, sort_keys=True)
                os.replace(temporary, path)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            self._path = False    # a folder that cannot be written: the checks run in every process
