"""Run pytest with the GPU kernel tables as the session's device: ``GPUSIM``, on the NumPy stand-in for CuPy.

    python mindspore-gpu/tests/gpusim_session.py [pytest arguments]     (from the repository root)

Registers the test-only ``GPUSIM`` plugin (``cupy_sim.make_plugin``) and sets ``MS_TEST_DEVICE_TARGET=GPUSIM``,
which the repository's ``conftest.py`` makes the device of the whole session (as it does for ``STRICT``), so
core's own suites (nn layers, optimizers, Model, LeNet, amp with bfloat16) run on the GPU kernels without a GPU.
With ``MS_GPUSIM_GRAPH=1`` the
target also has the GPU backend's GRAPH_MODE passes and CUDA-graph replay (``cupy_sim.load_graph_modules``).
"""
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))

import cupy_sim  # noqa: E402

import mindspore as ms  # noqa: E402

TARGET = "GPUSIM"


def main(argv):
    if os.environ.get("MS_GPUSIM_GRAPH", "0") == "1":
        # with the GPU backend's GRAPH_MODE passes (fused ElementwiseKernels) and CUDA-graph replay, as on a GPU
        graph = cupy_sim.load_graph_modules()
        if os.environ.get("MS_GPU_CAPTURE_GEMM", "1") != "0":    # the capture-safe GEMM on the stand-in's cuBLAS
            graph.capture.GEMM_FACTORY["make"] = cupy_sim.SimCublasGemm
        plugin = cupy_sim.make_plugin(TARGET, graph.families, graph=graph)
    else:
        plugin = cupy_sim.make_plugin(TARGET, cupy_sim.load_kernel_families().families)
    ms.plugin.register_plugin(plugin, TARGET.lower())
    os.environ["MS_TEST_DEVICE_TARGET"] = TARGET
    import pytest
    return pytest.main(list(argv) + ["-W", "ignore::RuntimeWarning", "-W", cupy_sim.COMPILE_FAILURES_FAIL])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
