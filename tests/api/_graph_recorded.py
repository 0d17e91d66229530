"""The recorded GRAPH_MODE cases of tests/fixtures/graph_syntax (``<stem>_cases.py`` runs a case in ours,
``<stem>_2_10.json`` holds what real MindSpore 2.10 gave), and the comparison their tests share."""
import importlib.util
import json
import pathlib

import pytest

_DIR = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "graph_syntax"


def load(stem):
    """``(cases module, 2.10's recorded "cases")`` of ``<stem>_cases.py`` and ``<stem>_2_10.json``."""
    spec = importlib.util.spec_from_file_location(f"{stem}_cases", _DIR / f"{stem}_cases.py")
    cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cases)
    return cases, json.loads((_DIR / f"{stem}_2_10.json").read_text())["cases"]


def close(got, want):
    """Equal structures and types; floats equal to float32 rounding (a value computed by another kernel)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(close(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(close(g, w) for g, w in zip(got, want))
    if isinstance(want, float) and not isinstance(got, bool):
        return isinstance(got, float) and got == pytest.approx(want, rel=1e-6)
    return type(got) is type(want) and got == want
