"""``ops.Custom(..., func_type="aot")`` through the GPU kernel: on the CuPy stand-in, a host (g++) library gets the
stand-in arrays' addresses in place of device pointers, so the GPU kernel's buffers, workspaces, attributes and
several outputs are checked without a GPU; with a GPU and nvcc, the documentation page's CUDA example runs for real."""
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import Tensor, _generation, nn, ops
from mindspore.ops import CustomRegOp, DataType

from mindspore_gpu import plugin

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

TARGET = "GPUSIMAOT"
SIM = cupy_sim.load_kernel_families()
CPU_KERNELS = pathlib.Path(__file__).parents[2] / "mindspore-cpu" / "tests" / "aot"
needs_gxx = pytest.mark.skipif(shutil.which("g++") is None or not CPU_KERNELS.is_dir(),
                               reason="needs g++ and mindspore-cpu/tests/aot")


@pytest.fixture
def on_sim(monkeypatch, tmp_path):
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path / "kernel_meta"))
    # the stand-in's device memory is host memory: its address is what a device pointer is on a GPU
    monkeypatch.setattr(SIM.modules["custom"], "_device_pointer", lambda a: a.ctypes.data)
    with cupy_sim.registered(TARGET, SIM.families):
        before = ms.get_context("device_target_requested")
        ms.set_context(device_target=TARGET)
        yield
        ms.context.store("device_target", before)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        _generation.bump()


def _reg(*attrs, outputs=1):
    reg = CustomRegOp("aot_sim").input(0, "x1").input(1, "x2")
    for i in range(outputs):
        reg = reg.output(i, f"y{i}")
    reg = reg.dtype_format(*([DataType.None_None] * (2 + outputs)))
    for name, value in attrs:
        reg = reg.attr(name, "required", "all", value=value)
    return reg.target("GPU").get_op_info()


@needs_gxx
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_workspace_attributes_and_inference_through_the_gpu_kernel(on_sim, mode):
    ms.set_context(mode=mode)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = ops.Custom(str(CPU_KERNELS / "add_reduce.cc") + ":AddReduce", None, None, "aot",
                                 reg_info=_reg(("axis", 1), ("keep_dim", True)))

        def construct(self, x, y):
            return self.op(x, y) * 2

    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((4, 6)).astype(np.float32), rng.standard_normal((4, 6)).astype(np.float32)
    net = Net()
    for _ in range(2):
        np.testing.assert_allclose(net(Tensor(x), Tensor(y)).asnumpy(), 2 * (x + y).sum(1, keepdims=True),
                                   rtol=1e-6)
    (kernel,) = net.op.aot_kernels.values()
    assert kernel.device == "GPU"
    assert isinstance(kernel.workspaces[0], cupy_sim.DeviceArray) and kernel.workspaces[0].nbytes == 4 * 6 * 4


@needs_gxx
def test_several_outputs_through_the_gpu_kernel(on_sim, tmp_path):
    lib = str(tmp_path / "multi.so")
    subprocess.run(["g++", "--shared", "-fPIC", f"-I{os.path.dirname(ms.__file__)}/include/api", "-o", lib,
                    str(CPU_KERNELS / "multi.cc")], check=True)
    op = ops.Custom(lib + ":AddMulDiv", None, None, "aot", reg_info=_reg(("scale", 3.0), ("mode", "plain"),
                                                                         outputs=3))
    x, y = np.array([1.0, 2.0], np.float32), np.array([4.0, 8.0], np.float32)
    a, m, d = op(Tensor(x), Tensor(y))
    np.testing.assert_allclose([a.asnumpy(), m.asnumpy(), d.asnumpy()], [3 * (x + y), 3 * x * y, 3 * x / y])


GPU_USABLE = plugin.probe().available


@pytest.mark.skipif(not GPU_USABLE or shutil.which("nvcc") is None, reason="needs a GPU and nvcc")
def test_doc_cuda_example_on_the_gpu(tmp_path, monkeypatch):
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path))
    ms.set_device("GPU")
    try:
        src = pathlib.Path(__file__).parent / "aot" / "add.cu"
        op = ops.Custom(f"{src}:CustomAdd", out_shape=lambda x, _: x, out_dtype=lambda x, _: x, func_type="aot")
        x0 = np.array([[0.0, 0.0], [1.0, 1.0]]).astype(np.float32)
        x1 = np.array([[2.0, 2.0], [3.0, 3.0]]).astype(np.float32)
        np.testing.assert_array_equal(op(Tensor(x0), Tensor(x1)).asnumpy(), [[2, 2], [4, 4]])
        big = np.arange(5000, dtype=np.float32)      # several blocks
        np.testing.assert_array_equal(op(Tensor(big), Tensor(big)).asnumpy(), 2 * big)
    finally:
        ms.set_device("CPU")
