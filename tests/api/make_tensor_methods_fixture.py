"""Records what real MindSpore 2.10 gives for the calls in ``tensor_method_cases.CASES``:
``tests/fixtures/api/tensor_methods_reference.npz`` (read by ``test_tensor_methods.py``).

Run with real MindSpore (CPU): ``/path/to/msref/bin/python tests/api/make_tensor_methods_fixture.py``. A case real
MindSpore fails on CPU is listed under ``__failed__`` with its error (the test then relies on its NumPy oracle).
"""
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from tensor_method_cases import CASES, make_data, run_case  # noqa: E402

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "api" / "tensor_methods_reference.npz"


def flatten(value, key, out):
    """Arrays under ``key``, ``key/0``, ``key/1``... for nested results; strings and bools as 0-D arrays."""
    if isinstance(value, (tuple, list)) and not (value and all(isinstance(v, int) for v in value)):
        out[key + "/#"] = np.array(len(value))
        for i, v in enumerate(value):
            flatten(v, f"{key}/{i}", out)
    elif hasattr(value, "asnumpy"):
        out[key] = value.asnumpy()
    else:
        out[key] = np.array(value)


def main():
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE)
    arrays, failed = {}, {}
    for name in CASES:
        for attempt in range(2):   # MindSpore's CPU runtime may report the previous case's error once more
            try:
                flatten(run_case(ms, name, make_data()), name, arrays)
                failed.pop(name, None)
                break
            except Exception as exc:  # noqa: BLE001 - recorded, the test falls back to its oracle
                lines = [ln for ln in str(exc).splitlines() if ln.strip(" -")]
                failed[name] = f"{type(exc).__name__}: {' '.join(lines[:3])[:300]}"
    arrays["__failed__"] = np.array(json.dumps(failed))
    np.savez(FIXTURE, **arrays)
    print(f"{len(CASES) - len(failed)} cases recorded, {len(failed)} failed: {sorted(failed)}")


if __name__ == "__main__":
    main()
