#!/usr/bin/env bash
# Quick start on a machine with Python 3.10+ and pip: a virtual environment in .venv (reused when
# present; set VENV=... for another place) with mindspore-core, mindspore-cpu (and the kernels it shares with the GPU
# backend, mindspore-array-kernels) and mindspore-data installed from this checkout in editable mode, then
# examples/quickstart.py.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=${VENV:-.venv}

if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
echo "== installing mindspore-core, mindspore-cpu and mindspore-data (the CPU kernels are compiled on the first install)"
"$VENV/bin/python" -m pip install --disable-pip-version-check --quiet -e ./mindspore-core \
    -e ./mindspore-array-kernels -e ./mindspore-cpu -e ./mindspore-data
echo "== python examples/quickstart.py $*"
"$VENV/bin/python" examples/quickstart.py "$@"
