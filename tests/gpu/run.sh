#!/usr/bin/env bash
# The GPU checks, for a machine with an NVIDIA GPU and CuPy (CI has none: there the GPU tests skip and the
# STRICT device covers the host side). One command: install, what MindSpore finds, the GPU suites (the GPU
# plugin's tests, the op conformance suite, nn, optimizers, Model, amp, autodiff and the LeNet fixture, all
# with the GPU as the device target), the quick start on the GPU, and eager dispatch on the GPU.
#
#   bash tests/gpu/run.sh            # logs in $OUT (default ./gpu-out)
#
# Installs with --no-deps --no-index (a machine without a package index: numpy, pluggy, ml_dtypes,
# protobuf, pybind11, cupy and pytest must be there already).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
PY=${PYTHON:-python3}
start=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - start )) s)"; }

step "install"
NPY_NUM_BUILD_JOBS=$(nproc) $PY -m pip install --no-deps --no-build-isolation --no-index -q \
    ./mindspore-core ./mindspore-cpu ./mindspore-gpu ./mindspore-data > "$OUT/install.log" 2>&1 \
    || { tail -30 "$OUT/install.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1

step "python -m mindspore.info"
$PY -m mindspore.info > "$OUT/info.txt" 2>&1
grep -E "^MindSpore|^  (cpu|gpu|data) |target |^Default target|gpu\.|^  GPU \(" "$OUT/info.txt" | cut -c1-160

step "GPU suites (MS_TEST_DEVICE_TARGET=GPU)"
TIMEOUT_ARGS=()
$PY -c "import pytest_timeout" 2>/dev/null && TIMEOUT_ARGS=(--timeout 120)
MS_TEST_DEVICE_TARGET=GPU $PY -m pytest mindspore-gpu/tests tests/conformance tests/e2e/test_lenet_fixture.py \
    mindspore-core/tests/nn mindspore-core/tests/train tests/autodiff -q -p no:cacheprovider -rfE \
    "${TIMEOUT_ARGS[@]}" > "$OUT/tests.log" 2>&1
echo "pytest status $?"
tail -n 1 "$OUT/tests.log"
grep -E "^(FAILED|ERROR) " "$OUT/tests.log" | sed -E 's/ - .*//' | cut -c1-150 > "$OUT/failures.txt"
echo "$(wc -l < "$OUT/failures.txt") failing; first ones:"
head -40 "$OUT/failures.txt"

step "quick start on the GPU"
timeout 300 $PY examples/quickstart.py --device-target GPU --epochs 3 > "$OUT/quickstart.log" 2>&1
echo "status $?"
tail -n 4 "$OUT/quickstart.log"

step "eager dispatch on the GPU"
MINDSPORE_DEVICE_TARGET=GPU timeout 120 $PY -c "
import sys; sys.argv = ['bench_dispatch']
import mindspore as ms
ms.set_context(device_target='GPU')
sys.path.insert(0, 'benchmarks')
import bench_dispatch as b
b.chain(1000)
import statistics
print('ops.add eager on GPU: %.2f us/op' % statistics.median(b.chain(10000) for _ in range(5)))
" 2>&1 | tail -n 2
step "done"
