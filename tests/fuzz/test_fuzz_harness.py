"""The harness catches what it is there to catch: a hang, a crash, an allocation sized by a hostile length field,
an internal exception type, a message without the file's name, a file left behind."""
import sys

import pytest

from fuzz_harness import check_outcome


def _fails(result, match):
    with pytest.raises(AssertionError, match=match):
        check_outcome(result, "misbehave", "x.bin")


def test_a_hang_is_a_failure_not_a_blocked_run(loader_worker):
    _fails(loader_worker.load("misbehave", {"x.bin": b""}, "x.bin", {"do": "hang"}, timeout=1), "hang")


def test_a_crash_is_a_failure_and_the_worker_comes_back(loader_worker):
    _fails(loader_worker.load("misbehave", {"x.bin": b""}, "x.bin", {"do": "crash"}), "crash.*SIGABRT")
    _fails(loader_worker.load("misbehave", {"x.bin": b""}, "x.bin", {"do": "stray"}), "left files behind")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the address-space limit is set on Linux")
def test_a_huge_allocation_is_a_memory_error(loader_worker):
    _fails(loader_worker.load("misbehave", {"x.bin": b""}, "x.bin", {"do": "allocate"}), "MemoryError")


def test_internal_types_and_anonymous_messages_are_failures():
    error = {"status": "error", "traceback": "", "new_files": []}
    _fails(dict(error, mro=["builtins.RecursionError", "builtins.RuntimeError"], message="x.bin"), "internal")
    _fails(dict(error, mro=["builtins.RuntimeError"], message="no name"), "does not name the file")
    check_outcome(dict(error, mro=["mindspore.x.FormatError", "builtins.RuntimeError"], message="bad x.bin"),
                  "misbehave", "x.bin")
