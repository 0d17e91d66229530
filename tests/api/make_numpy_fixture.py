"""Records what real MindSpore 2.10's ``mindspore.numpy`` answers for the cases of
``tests/fixtures/api/numpy_cases.txt``: each result's dtype and shape (or the error it raised),
written to ``tests/fixtures/api/numpy_msref.json``. ``test_numpy_values.py`` checks our dtypes against
it; the values are checked against NumPy itself.

Run with a Python that has real MindSpore (CPU)::

    /tmp/w/msref/bin/python tests/api/make_numpy_fixture.py
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "fixtures", "api")
CASES_FILE = os.path.join(FIXTURES, "numpy_cases.txt")
OUT_FILE = os.path.join(FIXTURES, "numpy_msref.json")


def load_cases(path=CASES_FILE):
    """(inputs: name -> NumPy expression, cases: list of (id, expr, numpy_expr or None))."""
    inputs, cases = {}, []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("@"):
                name, expr = line[1:].split("=", 1)
                inputs[name.strip()] = expr.strip()
                continue
            parts = [p.strip() for p in line.split(" | ")]
            cases.append((parts[0], parts[1], parts[2] if len(parts) > 2 else None))
    return inputs, cases


def flatten(result):
    """A result as a list of leaves (tuples and lists of results are flattened in order)."""
    if isinstance(result, (tuple, list)):
        out = []
        for r in result:
            out.extend(flatten(r))
        return out
    return [result]


def environment(inputs, module, wrap):
    """The names a case expression sees: ``m`` (numpy or mindspore.numpy), ``T`` and the inputs."""
    env = {"np": np, "m": module, "T": wrap}
    env.update({name: wrap(eval(expr, {"np": np})) for name, expr in inputs.items()})  # noqa: S307
    return env


def main():
    import mindspore as ms
    import mindspore.numpy as mnp
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    inputs, cases = load_cases()
    env = environment(inputs, mnp, ms.Tensor)
    record = {"mindspore_version": ms.__version__, "cases": {}}
    for case_id, expr, _ in cases:
        try:
            leaves = flatten(eval(expr, dict(env)))  # noqa: S307 - our own case table
        except Exception as e:  # noqa: BLE001 - the error is what we record
            record["cases"][case_id] = {"error": type(e).__name__}
            continue
        record["cases"][case_id] = {
            "dtypes": [str(x.dtype) if isinstance(x, ms.Tensor) else f"dtype:{x}" if isinstance(x, ms.dtype.Type)
                       else type(x).__name__ for x in leaves],
            "shapes": [list(x.shape) if isinstance(x, ms.Tensor) else None for x in leaves],
        }
    with open(OUT_FILE, "w", encoding="utf-8") as fh:
        json.dump(record, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"wrote {len(record['cases'])} cases to {OUT_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
