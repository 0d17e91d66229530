"""CPU kernels of ``mindspore/ops/_defs/deprecated.py``: the kernels of the primitives the deprecated names
stand for (``TensorAdd`` runs ``Add``'s, ...)."""
from mindspore_cpu.kernels import array, indexing, math, nn

KERNELS = {
    "TensorAdd": math.KERNELS["Add"], "Gelu": nn.KERNELS["GeLU"], "FastGelu": nn.KERNELS["FastGeLU"],
    "Pack": array.KERNELS["Stack"], "Unpack": array.KERNELS["Unstack"], "GatherV2": indexing.KERNELS["Gather"],
}
