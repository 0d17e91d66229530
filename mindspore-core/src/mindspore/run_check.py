"""``mindspore.run_check()``: check the installation by a small computation on the current device."""
import numpy as np

__all__ = ["run_check"]


def run_check():
    """Print the version and whether a multiplication on the current device gives the right answer."""
    import mindspore.context as context
    from mindspore.common.tensor import Tensor
    from mindspore.ops import functional as F
    from mindspore.version import __version__
    print("MindSpore version: ", __version__)
    target = context.get_context("device_target")
    try:
        x = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
        y = Tensor(np.array([[2.0, 0.5], [1.0, 3.0]], np.float32))
        got = F.mul(x, y).asnumpy()
    except Exception as exc:   # noqa: BLE001 - the check reports any failure as its answer
        print(f"MindSpore running check failed on platform [{target}]: {type(exc).__name__}: {exc}")
        return
    if np.array_equal(got, np.array([[2.0, 1.0], [3.0, 12.0]], np.float32)):
        print(f"The result of multiplication calculation is correct, MindSpore has been installed on platform "
              f"[{target}] successfully!")
    else:
        print(f"The result of multiplication calculation is wrong on platform [{target}]: {got.tolist()}")
