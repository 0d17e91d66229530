"""Atomic file writes: checkpoints, MindIR and ONNX files are never left half-written under their name.

The data goes to a temporary file next to the target, is flushed and fsynced, made read-only and renamed over the
target (an atomic step on POSIX and Windows); the directory is fsynced after. A writer killed mid-write leaves only
its temporary file, which the next save to the same path removes.
"""
from __future__ import annotations

import os
import stat
import tempfile

__all__ = ["atomic_write", "remove_stale_temporaries"]


def _fsync_dir(directory):
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a directory; the rename itself is still atomic
    finally:
        os.close(fd)


def _pid_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True     # exists (another user's), or we can not tell: keep its file
    return True


def remove_stale_temporaries(path):
    """Remove the temporary files an earlier save to ``path`` left behind when its process was killed
    mid-write (``.<name>.<pid>.<random>.tmp`` whose process no longer runs); returns how many."""
    directory = os.path.dirname(path) or "."
    prefix = f".{os.path.basename(path)}."
    removed = 0
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid = name[len(prefix):-len(".tmp")].split(".", 1)[0]
        if not pid.isdigit() or _pid_alive(int(pid)):
            continue
        try:
            os.remove(os.path.join(directory, name))
            removed += 1
        except OSError:
            pass
    return removed


def atomic_write(path, write_fn):
    """Run ``write_fn(f)`` on a temporary file next to ``path``, then make it read-only and rename it to ``path``.

    The temporary file is named ``.<name>.<pid>.<random>.tmp``: a save killed mid-write leaves it behind, and the
    next save to the same path removes it (:func:`remove_stale_temporaries`).
    """
    directory = os.path.dirname(path) or "."
    remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write_fn(f)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, stat.S_IRUSR)
        try:
            os.replace(tmp, path)
        except PermissionError:
            if not os.path.exists(path):
                raise
            os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)  # Windows refuses to replace a read-only file
            os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(directory)
