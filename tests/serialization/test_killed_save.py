"""A save killed mid-write loses no data and leaves no temporary file for good."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np

import mindspore as ms
from mindspore.train.serialization import remove_stale_temporaries

WRITER = textwrap.dedent("""
    import sys, time
    import numpy as np
    import mindspore as ms
    from mindspore.train import serialization

    real_write = serialization._write_ckpt

    def slow_write(f, *args, **kwargs):
        f.write(b"partial")
        f.flush()
        print("writing", flush=True)
        time.sleep(60)          # killed here, mid-write
        return real_write(f, *args, **kwargs)

    serialization._write_ckpt = slow_write
    params = [{"name": "w", "data": ms.Tensor(np.full((4,), 2.0, np.float32))}]
    serialization.save_checkpoint(params, sys.argv[1])
""")


def _temporaries(folder):
    return sorted(p for p in os.listdir(folder) if p.endswith(".tmp"))


def test_a_killed_save_keeps_the_old_file_and_the_next_save_cleans_up(tmp_path):
    path = tmp_path / "net.ckpt"
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.ones((4,), np.float32))}], str(path))
    for _ in range(3):   # each killed save leaves its temporary; each save removes those of dead processes
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "writing"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert len(_temporaries(tmp_path)) == 1
    np.testing.assert_array_equal(ms.load_checkpoint(str(path))["w"].asnumpy(), np.ones(4))   # the old file is intact
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.full((4,), 3.0, np.float32))}], str(path))
    assert _temporaries(tmp_path) == []
    np.testing.assert_array_equal(ms.load_checkpoint(str(path))["w"].asnumpy(), np.full(4, 3.0))


def test_temporaries_of_running_saves_are_left_alone(tmp_path):
    path = tmp_path / "net.ckpt"
    mine = tmp_path / f".net.ckpt.{os.getpid()}.abc123.tmp"        # this process is alive
    other = tmp_path / ".other.ckpt.1.abc.tmp"                     # another file's temporary
    foreign = tmp_path / ".net.ckpt.notapid.tmp"                   # not our naming
    for p in (mine, other, foreign):
        p.write_bytes(b"x")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".net.ckpt.{dead.pid}.zz.tmp"
    stale.write_bytes(b"x")
    time.sleep(0.05)
    assert remove_stale_temporaries(str(path)) == 1
    assert not stale.exists() and mine.exists() and other.exists() and foreign.exists()
