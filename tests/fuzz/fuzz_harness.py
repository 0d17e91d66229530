"""The parent side of the file fuzzers: settings, the loader process, and what counts as a clean outcome.

Settings. Every fuzz test takes its Hypothesis settings from :func:`fuzz_settings`: ``derandomize=True`` (the
examples depend only on the test's source, so CI is reproducible), no example database (nothing is written
into the checkout), no deadline, and ``max_examples`` from ``MS_FUZZ_EXAMPLES`` (default 20, scaled per target
by ``share``). ``nox -s fuzz`` sets it in the thousands.

Loader process. Files are loaded in a separate process (``fuzz_worker.py``) with a per-load timeout
(``MS_FUZZ_TIMEOUT``, default 30 s) and a bounded address space, so a hang, a crash of native code or an
allocation sized by a hostile length field fails the example instead of blocking or killing the test run.

Clean outcomes. A load either succeeds with a result that passes the worker's sanity checks, or raises an error
of the type MindSpore itself raises for that API (ValueError for ``load_checkpoint``, RuntimeError for the dataset
sources, RuntimeError or a MindRecord exception for ``FileReader``, RuntimeError or ValueError for ``ms.load`` of
MindIR), *exactly* that builtin or a MindSpore class
derived from it, whose message names the file. ``UnicodeDecodeError`` or ``json.JSONDecodeError`` (ValueErrors),
``RecursionError`` (a RuntimeError), ``OverflowError``, ``KeyError``, ``struct.error``, protobuf's
``DecodeError``, ``MemoryError``, ... are internal exceptions leaking: failures. So are files left behind.
"""
from __future__ import annotations

import collections
import os
import pickle
import select
import signal
import struct
import subprocess
import sys

from hypothesis import HealthCheck, settings

EXAMPLES = int(os.environ.get("MS_FUZZ_EXAMPLES", "20"))
TIMEOUT = float(os.environ.get("MS_FUZZ_TIMEOUT", "30"))
_FRAME = struct.Struct("<Q")
_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_worker.py")

# loader -> the exception types MindSpore raises for a malformed file (module-qualified builtin names)
ALLOWED = {
    "ckpt": ("builtins.ValueError",),
    "safetensors": ("builtins.ValueError",),
    "filereader": ("builtins.RuntimeError", "mindspore.mindrecord.common.exceptions.MindRecordException"),
    "minddataset": ("builtins.RuntimeError",),
    "mnist": ("builtins.RuntimeError",),
    "cifar10": ("builtins.RuntimeError",),
    "mindir": ("builtins.RuntimeError", "builtins.ValueError"),
    "misbehave": ("builtins.RuntimeError",),
}

# (target, outcome) -> examples; printed by conftest.pytest_terminal_summary
COUNTS = collections.Counter()


class ValidFiles(dict):
    """``{name: bytes}`` of the valid files a test damages; a short repr for Hypothesis's failure reports."""

    def __repr__(self):
        return f"<valid files {', '.join(f'{k} ({len(v)} bytes)' for k, v in self.items())}>"


def fuzz_settings(share=1.0):
    """Hypothesis settings of a fuzz test running ``share`` times the configured number of examples."""
    return settings(max_examples=max(1, round(EXAMPLES * share)), derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


class LoaderWorker:
    """A ``fuzz_worker.py`` process, restarted after a hang or a crash."""

    def __init__(self, scratch):
        self.scratch = scratch
        self.proc = None
        self.log = os.path.join(scratch, "worker-stderr.txt")

    def _start(self):
        env = dict(os.environ, MALLOC_ARENA_MAX="2")
        with open(self.log, "wb") as err:
            self.proc = subprocess.Popen([sys.executable, _WORKER, self.scratch], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, env=env, cwd=self.scratch)

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self.proc = None

    def _kill(self):
        self.proc.kill()
        self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc = None

    def _read(self, n, deadline_s):
        data = b""
        while len(data) < n:
            ready, _, _ = select.select([self.proc.stdout], [], [], deadline_s)
            if not ready:
                return None, "hang"
            chunk = os.read(self.proc.stdout.fileno(), n - len(data))
            if not chunk:
                return None, "crash"
            data += chunk
        return data, None

    def load(self, loader, files, target, options=None, timeout=None):
        """Run ``loader`` on ``files`` (``{name: bytes}``) in the worker; the worker's reply, or
        ``{"status": "hang" | "crash", ...}``."""
        timeout = TIMEOUT if timeout is None else timeout
        if self.proc is None:
            self._start()
        request = pickle.dumps({"loader": loader, "files": files, "target": target, "options": options or {}})
        try:
            self.proc.stdin.write(_FRAME.pack(len(request)) + request)
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self._lost("crash", timeout)
        head, problem = self._read(_FRAME.size, timeout)
        if problem is None:
            body, problem = self._read(_FRAME.unpack(head)[0], timeout)
            if problem is None:
                return pickle.loads(body)
        return self._lost(problem, timeout)

    def _lost(self, problem, timeout):
        if problem == "hang":
            self._kill()
            return {"status": "hang", "message": f"no answer within {timeout:g} s"}
        rc = self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc = None
        with open(self.log, "rb") as f:
            tail = f.read()[-3000:].decode("utf-8", "replace")
        how = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}"
        return {"status": "crash", "message": f"the loader process died ({how}); its stderr ends:\n{tail}"}


def _allowed(loader, mro):
    exact = mro[0]
    for base in ALLOWED[loader]:
        if exact == base:
            return True
        if base in mro and exact.startswith("mindspore."):
            return True
    return False


def check_outcome(result, loader, target, what=""):
    """Fail (AssertionError with the details) unless ``result`` is a clean outcome of ``loader`` on ``target``."""
    status = result["status"]
    label = f"{loader} on {what or 'a mutated ' + target}"
    if status == "error":
        exact = result["mro"][0]
        COUNTS[(loader, f"rejected: {exact.rsplit('.', 1)[-1]}")] += 1
        assert _allowed(loader, result["mro"]), (
            f"{label} raised {exact}, an internal exception type (expected {' or '.join(ALLOWED[loader])} or a "
            f"MindSpore subclass): {result['message']}\n{result['traceback']}")
        name = os.path.basename(target)
        assert name in result["message"], (
            f"{label} raised {exact} whose message does not name the file '{name}': {result['message']}\n"
            f"{result['traceback']}")
    else:
        COUNTS[(loader, status if status != "ok" else "loaded")] += 1
        assert status == "ok", f"{label}: {status}: {result['message']}"
    assert not result.get("new_files"), f"{label} left files behind: {result['new_files']}"
    return result
