#!/usr/bin/env bash
# The GPU checks, for a machine with an NVIDIA GPU and CuPy (CI has none: there the GPU tests skip and the
# STRICT device covers the host side). One command: install, what MindSpore finds, the GPU suites (the GPU
# plugin's tests, the op conformance suite, nn, optimizers, Model, amp, autodiff and the LeNet fixture, all
# with the GPU as the device target), the quick start on the GPU, eager dispatch on the GPU, and the GPU
# benchmarks (ours beside PyTorch CUDA, benchmarks/harness.py --device GPU).
#
#   bash tests/gpu/run.sh            # logs in $OUT (default ./gpu-out)
#
# LIMIT_PLUGIN, LIMIT_CONFORMANCE, LIMIT_TRAINING, LIMIT_SUITES, LIMIT_GRAPH, LIMIT_QUICKSTART, LIMIT_BENCH, LIMIT_CUDNN
# (seconds) bound each step; RUN_INSTALL=0, RUN_CUDNN=0, RUN_SUITES=0, RUN_GRAPH=0, RUN_QUICKSTART=0, RUN_NCCL=0,
# RUN_DISPATCH=0, RUN_BENCH=0, RUN_FIRST=0 leave a part out, RUN_SUITES=all runs the suites as one pytest run; BENCH_AMP=float16 (or bfloat16)
# adds the mixed-precision benchmarks (LIMIT_BENCH_AMP, BENCH_AMP_WORKLOADS) and a profile of the PYNATIVE amp step
# (LIMIT_PROFILE_AMP, PROFILE_AMP_WORKLOADS). With pytest-xdist the suites
# run in JOBS processes. The GRAPH_MODE step (tests/gpu/graph_check.py) prints plain vs fused vs fused +
# CUDA-graph losses and ms per step; the NCCL step (tests/gpu/nccl_check.py) checks mindspore-parallel's NCCL
# communicator on one GPU.
#
# Installs with --no-deps --no-index (a machine without a package index: numpy, pluggy, ml_dtypes,
# protobuf, pybind11, cupy, mpi4py and pytest must be there already), and the cuDNN frontend from a carried wheel
# (CUDNN_WHEEL=path, or wheels/nvidia_cudnn_frontend-1.14.0-cpXY-*.whl for this Python) when it is not installed.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
PY=${PYTHON:-$(command -v python3)}
start=$(date +%s)
step() { echo "== $* ($(( $(date +%s) - start )) s)"; }

if [ "${RUN_INSTALL:-1}" = 1 ]; then
step "install"
NPY_NUM_BUILD_JOBS=$(nproc) $PY -m pip install --no-deps --no-build-isolation --no-index -q \
    ./mindspore-core ./mindspore-array-kernels ./mindspore-cpu ./mindspore-gpu ./mindspore-data ./mindspore-parallel > "$OUT/install.log" 2>&1 \
    || { tail -30 "$OUT/install.log"; exit 1; }
fi
# cuDNN for the convolutions (mindspore_gpu/cudnn.py): NVIDIA's cuDNN frontend from the wheel $CUDNN_WHEEL, or the one
# for this Python under $WHEELS (default wheels/, carried: no index here), unless it is installed already; the cuDNN 9
# library itself must be there (PyTorch's nvidia-cudnn-cu13/-cu12 wheel, or mindspore-gpu[cuda13]'s)
if [ "${RUN_INSTALL:-1}" = 1 ] && ! $PY -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('cudnn') is None)"; then
    tag=$($PY -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
    wheel=${CUDNN_WHEEL:-$(ls "${WHEELS:-wheels}"/nvidia_cudnn_frontend-*-"$tag"-*.whl 2>/dev/null | tail -n 1)}
    if [ -n "$wheel" ]; then
        $PY -m pip install --no-deps --no-index -q "$wheel" >> "$OUT/install.log" 2>&1 \
            && echo "installed $(basename "$wheel")" || echo "could not install $wheel (see $OUT/install.log)"
    else
        echo "no cuDNN frontend wheel for $tag (CUDNN_WHEEL=..., or ${WHEELS:-wheels}/nvidia_cudnn_frontend-*-$tag-*.whl)"
    fi
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1

step "python -m mindspore.info"
$PY -m mindspore.info > "$OUT/info.txt" 2>&1
grep -E "^MindSpore|^  (cpu|gpu|data) |target |^Default target|gpu\.|^  GPU \(" "$OUT/info.txt" | cut -c1-160

if [ "${RUN_CUDNN:-1}" = 1 ]; then
    # cuDNN's version (or why it is unusable), convolutions end to end against the CPU, cuDNN against im2col (results
    # and ms), a captured cuDNN forward, and per op whether it ran on cuDNN (tests/gpu/cudnn_check.py)
    step "cuDNN convolutions"
    timeout "${LIMIT_CUDNN:-300}" $PY tests/gpu/cudnn_check.py > "$OUT/cudnn.log" 2>&1
    echo "status $?"
    cut -c1-300 "$OUT/cudnn.log" | tail -n 40
fi

TIMEOUT_ARGS=()
$PY -c "import pytest_timeout" 2>/dev/null && TIMEOUT_ARGS=(--timeout "${TEST_TIMEOUT:-120}")
# with pytest-xdist, JOBS processes share the GPU (default: one per two cores, at most 12); -v so that a suite cut
# off by its time limit still shows which tests had failed
XDIST_ARGS=()
JOBS=${JOBS:-$(( $(nproc) / 2 > 12 ? 12 : $(nproc) / 2 ))}
[ "$JOBS" -gt 1 ] && $PY -c "import xdist" 2>/dev/null && XDIST_ARGS=(-n "$JOBS" -v)
# suite NAME SECONDS PATHS...: one pytest run with the GPU as the session's device, its summary and failures
suite() {
    local name=$1 limit=$2
    shift 2
    step "$name (MS_TEST_DEVICE_TARGET=GPU)"
    # a fused kernel NVRTC refuses fails the test that met it (it would otherwise turn the fused kernels off quietly)
    MS_TEST_DEVICE_TARGET=GPU timeout "$limit" $PY -m pytest "$@" -q -p no:cacheprovider -rfE "${TIMEOUT_ARGS[@]}" \
        -W "error:mindspore_gpu. CuPy could not compile:RuntimeWarning" \
        "${XDIST_ARGS[@]}" > "$OUT/$name.log" 2>&1
    echo "pytest status $? ($name)"
    tail -n 1 "$OUT/$name.log"
    grep -E "^(FAILED|ERROR) |^\[gw[0-9]+\] .*(FAILED|ERROR) " "$OUT/$name.log" \
        | sed -E -e 's/ - .*//' -e 's/ +$//' -e 's/^\[gw[0-9]+\] \[ *[0-9]+%\] (FAILED|ERROR) /\1 /' | sort -u | cut -c1-150 \
        > "$OUT/$name.failures"
    echo "$(wc -l < "$OUT/$name.failures") failing; first ones:"
    head -n "${SHOW_FAILURES:-25}" "$OUT/$name.failures"
}
if [ "${RUN_SUITES:-1}" = all ]; then
    # every suite in one pytest run (with pytest-xdist: one pool of workers for all of them)
    suite gpu_suites "${LIMIT_SUITES:-900}" mindspore-gpu/tests/test_gpu_plugin.py mindspore-gpu/tests/test_gpu_graph.py \
        mindspore-gpu/tests/test_gpu_upload.py mindspore-gpu/tests/test_gpu_cudnn.py mindspore-gpu/tests/test_gpu_norm_grads.py tests/e2e/test_lenet_fixture.py tests/conformance mindspore-core/tests/nn mindspore-core/tests/train tests/autodiff
elif [ "${RUN_SUITES:-1}" = 1 ]; then
    suite gpu_plugin "${LIMIT_PLUGIN:-300}" mindspore-gpu/tests/test_gpu_plugin.py mindspore-gpu/tests/test_gpu_graph.py \
        mindspore-gpu/tests/test_gpu_upload.py mindspore-gpu/tests/test_gpu_cudnn.py mindspore-gpu/tests/test_gpu_norm_grads.py tests/e2e/test_lenet_fixture.py
    suite conformance "${LIMIT_CONFORMANCE:-900}" tests/conformance
    suite training "${LIMIT_TRAINING:-600}" mindspore-core/tests/nn mindspore-core/tests/train tests/autodiff
fi

if [ "${RUN_GRAPH:-1}" = 1 ]; then
    # GRAPH_MODE: fused elementwise kernels and CUDA-graph replay against plain execution (losses, ms per step,
    # chains fused, graphs captured/replayed/failed, with the reason of a failed capture)
    step "GRAPH_MODE fusion and CUDA graphs"
    timeout "${LIMIT_GRAPH:-600}" $PY tests/gpu/graph_check.py --workloads "${GRAPH_WORKLOADS:-mlp,lenet,resnet}" \
        > "$OUT/graph_check.log" 2>&1
    echo "status $?"
    cat "$OUT/graph_check.log" | cut -c1-400
    if [ -n "${BENCH_AMP:-}" ]; then
        # the loss-scaled float16 step: captured in pieces around its overflow branch
        step "GRAPH_MODE amp $BENCH_AMP: CUDA graphs between host decisions"
        timeout "${LIMIT_GRAPH:-600}" $PY tests/gpu/graph_check.py --amp "$BENCH_AMP" \
            --workloads "${BENCH_AMP_WORKLOADS:-lenet,resnet}" > "$OUT/graph_check_amp.log" 2>&1
        echo "status $?"
        cut -c1-400 "$OUT/graph_check_amp.log"
    fi
fi

if [ "${RUN_FIRST:-1}" = 1 ]; then
    # first steps with CuPy's kernel cache empty, then filled: how much of a first step is NVRTC compiling kernels;
    # then where a warm GRAPH first step's time goes (cuDNN graph builds and checks, captures, the program's compile)
    step "first steps, cold and warm kernel cache"
    timeout "${LIMIT_FIRST:-300}" $PY tests/gpu/first_step.py --workloads "${FIRST_WORKLOADS:-lenet}" \
        > "$OUT/first_step.log" 2>&1
    echo "status $?"
    cat "$OUT/first_step.log"
    timeout "${LIMIT_FIRST:-300}" $PY tests/gpu/first_step.py --workloads "${FIRST_PROFILE_WORKLOADS:-resnet,transformer}" \
        --modes graph --amp off --cache warm --profile > "$OUT/first_step_profile.log" 2>&1
    echo "status $?"
    cat "$OUT/first_step_profile.log"
fi

if [ "${RUN_QUICKSTART:-1}" = 1 ]; then
step "quick start on the GPU"
timeout "${LIMIT_QUICKSTART:-300}" $PY examples/quickstart.py --device-target GPU --epochs "${QUICKSTART_EPOCHS:-3}" \
    > "$OUT/quickstart.log" 2>&1
echo "status $?"
tail -n 4 "$OUT/quickstart.log"
fi

if [ "${RUN_NCCL:-1}" = 1 ]; then
    # mindspore-parallel's NCCL communicator on this GPU (one rank: NCCL refuses two ranks on one GPU)
    step "NCCL"
    timeout 120 $PY tests/gpu/nccl_check.py > "$OUT/nccl.log" 2>&1
    echo "status $?"
    grep -v "^ok " "$OUT/nccl.log" | tail -n 12
fi
if [ "${RUN_DISPATCH:-1}" = 1 ]; then
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
fi
if [ "${RUN_BENCH:-1}" = 1 ]; then
    # ours (PYNATIVE, GRAPH) beside PyTorch CUDA eager and torch.compile, same seeded weights (the PyTorch of
    # $TORCH_PYTHON, by default the same interpreter)
    step "GPU benchmarks"
    timeout "${LIMIT_BENCH:-1200}" $PY benchmarks/harness.py --device GPU --ours-python "$PY" \
        --torch-python "${TORCH_PYTHON:-$PY}" --skip mindspore --workloads "${BENCH_WORKLOADS:-mlp,lenet,resnet,transformer}" \
        --steps "${BENCH_STEPS:-30}" --output "$OUT/RESULTS_gpu.md" --raw "$OUT/results_gpu.json" > "$OUT/bench.log" 2>&1
    echo "status $?"
    grep -E "median|error|fail" "$OUT/bench.log" | tail -n 20
fi
if [ "${RUN_BENCH:-1}" = 1 ] && [ -n "${BENCH_AMP:-}" ]; then
    # mixed precision on tensor cores (BENCH_AMP=float16 or bfloat16): amp O2 beside PyTorch's autocast
    step "GPU benchmarks, amp $BENCH_AMP"
    timeout "${LIMIT_BENCH_AMP:-600}" $PY benchmarks/harness.py --device GPU --amp "$BENCH_AMP" --ours-python "$PY" \
        --torch-python "${TORCH_PYTHON:-$PY}" --skip mindspore --workloads "${BENCH_AMP_WORKLOADS:-lenet,resnet,transformer}" \
        --steps "${BENCH_STEPS:-30}" --output "$OUT/RESULTS_gpu_amp.md" --raw "$OUT/results_gpu_amp.json" \
        > "$OUT/bench_amp.log" 2>&1
    echo "status $?"
    grep -E "median|error|fail" "$OUT/bench_amp.log" | tail -n 20
    # where the PYNATIVE amp step's time goes: host time per primitive, the CUDA-graph capture counters (with every
    # capture failure and refusal warned about) and the cuDNN summary (PROFILE_AMP_WORKLOADS, default resnet)
    step "PYNATIVE amp $BENCH_AMP profile"
    MS_GPU_CAPTURE_DEBUG=1 timeout "${LIMIT_PROFILE_AMP:-300}" $PY -W always::RuntimeWarning tests/gpu/profile_step.py \
        --mode pynative --amp "$BENCH_AMP" --workloads "${PROFILE_AMP_WORKLOADS:-resnet}" > "$OUT/profile_amp.log" 2>&1
    echo "status $?"
    cut -c1-300 "$OUT/profile_amp.log" | head -n 120
fi
step "done"
