"""``mindspore.runtime``: execution controls of the runtime.

Our runtime executes every operator synchronously, in the calling Python thread: PYNATIVE dispatches
each op and returns its result computed, and a compiled graph runs its kernels one after another.
So the controls real MindSpore offers for its asynchronous launch pipeline are accepted with that
meaning: ``launch_blocking`` is the behaviour we already have, and ``dispatch_threads_num`` is
validated (there is no dispatch thread pool to size). ``synchronize`` waits for the
device of the current backend (a no-op on the CPU, a stream synchronisation on the GPU).
"""
from __future__ import annotations

from mindspore._errors import MSTypeError, MSValueError

__all__ = ["launch_blocking", "dispatch_threads_num", "synchronize"]


def launch_blocking():
    """Run operators synchronously, so that an error points at the line that launched the failing op.

    Already how this runtime works; the call records the request (``get_context('pynative_synchronize')``
    then reads True, as in MindSpore).
    """
    from mindspore import context
    context.set_context(pynative_synchronize=True)


def dispatch_threads_num(threads_num):
    """The number of runtime dispatch threads (MindSpore's default: 5), an int in [1, 128]: validated; this
    runtime dispatches in the calling thread, so there is no pool to size."""
    if isinstance(threads_num, bool) or not isinstance(threads_num, int):
        raise MSTypeError(f"For 'dispatch_threads_num', the 'threads_num' must be int, but got "
                          f"{type(threads_num).__name__}.")
    if not 1 <= threads_num <= 128:
        raise MSValueError(f"For 'dispatch_threads_num', the 'threads_num' must be in [1, 128], but got {threads_num}.")


def synchronize():
    """Wait until the current device has finished all queued work."""
    from mindspore._runtime import backend
    backend.current().runtime.synchronize()
