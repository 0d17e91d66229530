"""``mindspore.parallel``'s subpackages are attributes of it after ``import mindspore``, as in MindSpore: a script
writes ``ms.parallel.nn.MicroBatchInterleaved`` (the multiple_copy sample) with no import of
``mindspore.parallel.nn``. Checked in a fresh interpreter, where nothing else imported the subpackage."""
import subprocess
import sys


def test_parallel_nn_is_an_attribute_after_import_mindspore():
    code = ("import mindspore as ms\n"
            "from mindspore.parallel.auto_parallel import AutoParallel\n"
            "print(ms.parallel.nn.MicroBatchInterleaved.__name__, ms.parallel.nn.GradAccumulation.__name__)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["MicroBatchInterleaved", "GradAccumulation"]
