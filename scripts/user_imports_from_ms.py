"""Record the MindSpore import statements that real MindSpore code uses and that real MindSpore 2.10 runs, into
``tests/fixtures/api/user-imports-2.10.json`` (read back by ``tests/api/test_user_imports.py``).

The statements are collected from MindSpore's model zoo (a clone of ``mindspore-ai/models``) and from the Python
libraries built on MindSpore (MindCV, MindYOLO, MindOCR, MindOne, MindFormers, MindArmour, MindPet, MindAudio):
every ``import mindspore.x`` and ``from mindspore.x import y`` (one statement per imported name), with how many
files use it. Each is then run by the given Python with real MindSpore 2.10 (CPU), and only those that succeed
there are kept::

    python scripts/user_imports_from_ms.py MODELS_CLONE SITE_PACKAGES MSREF_PYTHON OUT.json
"""
import ast
import json
import os
import subprocess
import sys

LIBRARIES = ("mindcv", "mindyolo", "mindocr", "mindone", "mindformers", "mindarmour", "mindpet", "mindaudio")

_RUN = r'''
import contextlib, io, json, sys
ok = []
for s in json.load(sys.stdin):
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            exec(s, {})
    except BaseException:
        continue
    ok.append(s)
print(json.dumps(ok))
'''


def statements(source):
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "mindspore":
            for alias in node.names:
                if alias.name != "*":
                    yield f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mindspore":
                    yield f"import {alias.name}"


def sources(models, site):
    for root, _, files in os.walk(models):
        for name in files:
            if name.endswith(".py"):
                yield "models", os.path.join(root, name)
    for lib in LIBRARIES:
        for root, _, files in os.walk(os.path.join(site, lib)):
            for name in files:
                if name.endswith(".py"):
                    yield lib, os.path.join(root, name)


def main(models, site, msref, out):
    uses = {}
    for origin, path in sources(models, site):
        with open(path, errors="replace") as f:
            for s in set(statements(f.read())):
                entry = uses.setdefault(s, {"files": 0, "from": origin})
                entry["files"] += 1
    proc = subprocess.run([msref, "-c", _RUN], input=json.dumps(sorted(uses)), capture_output=True, text=True,
                          cwd="/tmp", check=True)
    ok = set(json.loads(proc.stdout.strip().splitlines()[-1]))
    kept = {s: uses[s] for s in sorted(ok)}
    with open(out, "w") as f:   # one statement a line
        f.write('{"mindspore": "2.10.0", "statements": {\n')
        f.write(",\n".join(f"{json.dumps(s)}: {json.dumps(kept[s], sort_keys=True)}" for s in kept))
        f.write("\n}}\n")
    print(f"{len(kept)} of {len(uses)} statements run on 2.10")


if __name__ == "__main__":
    main(*sys.argv[1:5])
