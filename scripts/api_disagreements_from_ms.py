"""Record what real MindSpore 2.10 returns for the calls where this project once disagreed with it.

    /path/to/msref/bin/python scripts/api_disagreements_from_ms.py CASES.tsv [OUT.json]

``CASES.tsv`` holds one call a line: ``ops.<name>`` or ``tensor.<method>``, a tab, and a pattern of
arguments (``x,1``, ``x,axis=1``, ``(x,y)``, ``x4,size=(8,8)``...; the names are the fixed inputs of
:func:`patterns`). The output (default ``tests/fixtures/api/ms210_disagreements.json``) records for every
call the result (or the exception's builtin type) and the tensor arguments after the call (in-place
changes). ``tests/api/test_disagreements.py`` replays the calls on this project with the same helpers
(:func:`run_case`, importable without real MindSpore) and compares. Seeded as the original comparison:
``mindspore.set_seed(1)`` before each call.
"""
import ast
import json
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _uniform(shape, seed):
    return np.random.default_rng(seed).uniform(0.1, 0.9, shape).astype(np.float32)


def patterns():
    """The named inputs: float32 in [0.1, 0.9) from ``default_rng(seed)``, small ints, bools."""
    return {
        "x": _uniform((3, 4), 0), "y": _uniform((3, 4), 1), "z": _uniform((3, 4), 2), "sq": _uniform((4, 4), 3),
        "w": _uniform((4, 5), 4), "v": _uniform((5,), 5),
        "xi": np.random.default_rng(6).integers(0, 3, (3, 4)).astype(np.int32),
        "yi": np.random.default_rng(7).integers(0, 3, (3, 4)).astype(np.int32),
        "xb": np.random.default_rng(8).integers(0, 2, (3, 4)).astype(bool),
        "x4": _uniform((1, 4, 4, 4), 9), "k4": _uniform((2, 4, 3, 3), 10), "x3": _uniform((1, 2, 6), 11),
        "w4": _uniform((4,), 12), "xi1": np.array([0, 2], np.int32),
    }


def _split_top(text):
    out, depth, cur = [], 0, ""
    for c in text:
        depth += c in "(["
        depth -= c in ")]"
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    return out + [cur] if cur else out


def _value(tok, pats, ms):
    tok = tok.strip()
    if tok in pats:
        return ms.Tensor(pats[tok])
    if tok in ("float16", "float32", "int32", "int64", "bool_"):
        return getattr(ms, tok)
    if tok.startswith("(") and tok.endswith(")"):
        parts = [p for p in _split_top(tok[1:-1]) if p.strip()]
        if parts and all(p.strip() in pats for p in parts):
            return tuple(_value(p, pats, ms) for p in parts)
    return ast.literal_eval(tok)


def parse(pattern, ms):
    """``(args, kwargs)`` of a pattern, tensors made with ``ms.Tensor``."""
    pats = patterns()
    args, kwargs = [], {}
    for tok in _split_top(pattern):
        if "=" in tok and not tok.lstrip().startswith("("):
            key, val = tok.split("=", 1)
            kwargs[key.strip()] = _value(val, pats, ms)
        else:
            args.append(_value(tok, pats, ms))
    return args, kwargs


def encode(value, ms):
    """A JSON-able record of a call's result: tensors as dtype/shape/values (NaN as None)."""
    if isinstance(value, ms.Tensor):
        arr = value.asnumpy()
        flat = [None if isinstance(v, float) and v != v else v for v in arr.ravel().tolist()]
        return {"kind": "tensor", "dtype": str(value.dtype), "shape": list(arr.shape), "values": flat}
    if isinstance(value, (tuple, list)):
        return {"kind": type(value).__name__, "items": [encode(v, ms) for v in value]}
    if isinstance(value, ms.dtype.Type if hasattr(ms.dtype, "Type") else type(ms.float32)):
        return {"kind": "dtype", "value": str(value).lower().replace("mindspore.", "")}
    return {"kind": "object", "value": repr(value)}


def run_case(fn, pattern, ms, ops):
    """Run one call (``ops.<name>`` or ``tensor.<method>``); ``{'out': ..., 'after': [...]}`` encoded."""
    ms.set_seed(1)
    args, kwargs = parse(pattern, ms)
    if fn.startswith("tensor."):
        name = fn[len("tensor."):]

        def call(*a, **k):
            return getattr(a[0], name)(*a[1:], **k)
    else:
        call = getattr(ops, fn[len("ops."):])
    try:
        out = encode(call(*args, **kwargs), ms)
    except Exception as exc:  # noqa: BLE001 - the type of a failure is what is recorded
        builtins = [k.__name__ for k in type(exc).__mro__ if k.__module__ == "builtins"]
        out = {"kind": "error", "builtins": builtins, "message": str(exc).split("\n")[0][:200]}
    after = [encode(a, ms) if isinstance(a, ms.Tensor) else None for a in args]
    return {"out": out, "after": after}


def main(cases_path, out_path):
    import mindspore as ms
    from mindspore import ops
    try:
        ms.runtime.launch_blocking()  # errors at the call that made them
    except AttributeError:
        pass
    records = []
    for line in pathlib.Path(cases_path).read_text().splitlines():
        if not line.strip():
            continue
        fn, pattern = line.split("\t")
        record = {"fn": fn, "pattern": pattern, **run_case(fn, pattern, ms, ops)}
        if not fn.endswith("_"):
            del record["after"]  # only in-place methods change their arguments
        records.append(record)
    pathlib.Path(out_path).write_text(json.dumps({"mindspore_version": ms.__version__, "cases": records},
                                                 indent=None, separators=(",", ":")) + "\n")
    print(f"{len(records)} calls recorded in {out_path}")


if __name__ == "__main__":
    default = ROOT / "tests" / "fixtures" / "api" / "ms210_disagreements.json"
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else default)
