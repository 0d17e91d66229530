"""``mindspore.common``: Tensor, Parameter, dtypes, initializers, seeds."""
from mindspore.common import dtype  # noqa: F401
from mindspore.common.dtype import *  # noqa: F401,F403
from mindspore.common.parameter import Parameter, ParameterTuple  # noqa: F401
from mindspore.common.tensor import Tensor, from_numpy, is_tensor, tensor  # noqa: F401

# What MindSpore's `mindspore.common` also exports (its __all__), defined elsewhere here: resolved on use, so
# that `from mindspore.common import set_seed` (the model zoo's habit) works without `common` importing the package
# above it at load time.
from mindspore._module_paths import names_over_submodules as _names_over_submodules  # noqa: E402
from mindspore._module_paths import reexport as _reexport  # noqa: E402

__getattr__ = _reexport("mindspore.common", {"mindspore": """
    TensorType swap_tensors RowTensor SparseTensor COOTensor CSRTensor jit jit_class saved_tensors_hooks
    register_saved_tensors_hooks UntypedStorage DeviceCtx set_seed get_seed manual_seed set_dump ms_memory_recycle
    set_recursion_limit mutable JitConfig enable_dynamic flops_collection lazy_inline load_mindir save_mindir no_inline
    Symbol recompute set_mindio_server_info mindio_preload Generator default_generator initial_seed set_rng_state
    get_rng_state seed _no_grad"""})
_reexported = __getattr__


def __getattr__(name):  # noqa: F811 - 2.10's `mindspore.common.bool`/`int`/`float`, out of __all__ as there
    if name in ("bool", "int", "float"):
        return getattr(dtype, name)
    return _reexported(name)


_names_over_submodules(__name__, ("mutable", "lazy_inline", "no_inline", "recompute", "seed"))
