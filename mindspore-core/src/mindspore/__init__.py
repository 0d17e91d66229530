"""MindSpore in Python: ``import mindspore as ms``.

Only this distribution (mindspore-core) ships ``mindspore/__init__.py``; the package path is
extended so that add-ons (``mindspore-data`` provides ``mindspore.dataset``, ``mindspore-parallel``
provides ``mindspore.communication``/``mindspore.parallel``) install their subpackages into the
same namespace. Importing does not load plugins or touch a device: that happens on first use.
"""
from pkgutil import extend_path

__path__ = extend_path(__path__, __name__)

from mindspore.version import __version__  # noqa: E402,F401

from mindspore._addons import install_missing_addon_hint  # noqa: E402

install_missing_addon_hint()

from mindspore.common import dtype  # noqa: E402,F401
from mindspore.common.dtype import *  # noqa: E402,F401,F403
from mindspore.common.dtype import dtype_to_nptype, dtype_to_pytype, pytype_to_dtype  # noqa: E402,F401
from mindspore.common.parameter import Parameter, ParameterTuple  # noqa: E402,F401
from mindspore.common.seed import get_seed, set_seed  # noqa: E402,F401
from mindspore.common.generator import (Generator, default_generator, get_rng_state,  # noqa: E402,F401
                                       initial_seed, manual_seed, seed, set_rng_state)
from mindspore.common.api import JitConfig, jit, jit_class, mutable  # noqa: E402,F401
from mindspore.common.api import _no_grad  # noqa: E402,F401 - private in 2.10 too, but libraries use it
from mindspore.common.tensor import (Tensor, from_numpy, frombuffer, is_tensor, swap_tensors,  # noqa: E402,F401
                                    tensor)
from mindspore.common.dtype import Int, QuantDtype, TensorType  # noqa: E402,F401
from mindspore._runtime import dispatch as _dispatch  # noqa: E402,F401 - the eager interpreter, base of the stack
from mindspore.context import (COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT, ParallelMode,  # noqa: E402,F401
                               get_auto_parallel_context, get_context, get_current_device, get_ps_context,
                               reset_auto_parallel_context, reset_ps_context, set_auto_parallel_context,
                               set_context, set_device, set_deterministic, set_ps_context)
from mindspore import nn, ops  # noqa: E402,F401
from mindspore._autodiff.grad import get_grad, grad, jvp, value_and_grad, vjp  # noqa: E402,F401
from mindspore._autodiff.recompute import recompute  # noqa: E402,F401
from mindspore._autodiff import transforms as _transforms  # noqa: E402,F401 - installs ops.vmap/jacrev/jacfwd
from mindspore._autodiff.transforms import jacfwd, jacrev, vmap  # noqa: E402,F401 - also top-level in 2.10
from mindspore.ops import constexpr  # noqa: E402,F401 - top-level in 2.10 too (its docstring uses mindspore.constexpr)
from mindspore._autodiff import function as _function  # noqa: E402,F401 - installs mindspore.common._Function
from mindspore.common.sparse_tensor import COOTensor, CSRTensor, RowTensor, SparseTensor  # noqa: E402,F401
from mindspore import amp, device_context, runtime, train  # noqa: E402,F401
from mindspore import numpy  # noqa: E402,F401 - mindspore.numpy, as MindSpore exports it
from mindspore import mint  # noqa: E402,F401
from mindspore import _tensor_methods_ext  # noqa: E402,F401 - Tensor methods built on mint/numpy
from mindspore import _tensor_flags  # noqa: E402,F401 - Tensor storage/device/flag methods of 2.10
from mindspore import _ops_misc_ext  # noqa: E402,F401 - ops.derivative/jet/linearize/get_grad (above autodiff)
from mindspore.ops import tensor_methods as _tensor_methods  # noqa: E402
_tensor_methods.install_on_class()  # Tensor.sum(x) as in 2.10, once every functional op exists
from mindspore._tensor_flags import UntypedStorage  # noqa: E402,F401
from mindspore.train import ROC, BleuScore, CosineSimilarity, Dice, Perplexity, auc  # noqa: E402,F401
from mindspore.train import (BackupAndRestore, ConfusionMatrixMetric, FlopsUtilizationCollector,  # noqa: E402,F401
                             HausdorffDistance, MeanSurfaceDistance, OcclusionSensitivity, OnRequestExit,
                             RootMeanSquareDistance, SummaryCollector, SummaryLandscape, SummaryRecord,
                             TrainFaultTolerance, data_sink, get_ckpt_path_with_strategy)
from mindspore.train import (F1, MAE, MSE, Accuracy, Callback, CheckpointConfig, ConfusionMatrix,  # noqa: E402,F401
                             DatasetHelper, DynamicLossScaleManager, EarlyStopping, Fbeta, FixedLossScaleManager,
                             History, LambdaCallback, LearningRateScheduler, Loss, LossMonitor, LossScaleManager,
                             Metric, Model, ModelCheckpoint, Precision, Recall, ReduceLROnPlateau, RunContext,
                             TimeMonitor, Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy,
                             async_ckpt_thread_status, build_train_network, ckpt_to_safetensors,
                             connect_network_with_dataset, get_metric_fn, load_checkpoint, load_checkpoint_async,
                             load_param_into_net, names, rearrange_inputs, safetensors_to_ckpt, save_checkpoint)
from mindspore.train import export, load  # noqa: E402,F401
from mindspore.safeguard import load_obf_params_into_net, obfuscate_ckpt  # noqa: E402,F401
from mindspore.train import ConvertModelUtils, ConvertNetUtils  # noqa: E402,F401
from mindspore import onnx  # noqa: E402,F401
from mindspore import plugin  # noqa: E402,F401
from mindspore.run_check import run_check  # noqa: E402,F401
from mindspore import experimental, hal, log  # noqa: E402,F401
from mindspore.log import get_level, get_log_config  # noqa: E402,F401
from mindspore.profiler import Profiler  # noqa: E402,F401
from mindspore.runtime import (Event, Stream, StreamCtx, communication_stream, current_stream,  # noqa: E402,F401
                               default_stream, dispatch_threads_num, empty_cache, launch_blocking,
                               max_memory_allocated, max_memory_reserved, memory_allocated, memory_reserved,
                               memory_stats, memory_summary, reset_max_memory_allocated,
                               reset_max_memory_reserved, reset_peak_memory_stats, set_cur_stream, set_memory,
                               synchronize)
from mindspore.runtime import (MemPool, PluggableAllocator, StreamLimitCtx, get_device_limit,  # noqa: E402,F401
                               get_stream_limit, memory_replay, reset_stream_limit, set_cpu_affinity,
                               set_device_limit, set_kernel_launch_capture, set_kernel_launch_group,
                               set_stream_limit, use_mem_pool)
from mindspore._graph_misc import (DeviceCtx, Symbol, enable_dynamic, flops_collection, lazy_inline,  # noqa: E402,F401
                                   mindio_preload, ms_memory_recycle, no_inline, register_saved_tensors_hooks,
                                   saved_tensors_hooks, set_dump, set_mindio_server_info, set_recursion_limit)
from mindspore import rewrite  # noqa: E402,F401
from mindspore.rewrite import Node, NodeType, ScopedValue, SymbolTree  # noqa: E402,F401
from mindspore.plugin import PLUGIN_API_VERSION, BackendProbe  # noqa: E402,F401
from mindspore._deploy.predictor import Predictor  # noqa: E402,F401
from mindspore._deploy.mindir.proto_io import load_mindir, save_mindir  # noqa: E402,F401

# Distributed-checkpoint tools live in mindspore-parallel; the top-level names MindSpore exports resolve lazily
# (importing mindspore never imports the add-on), with the `pip install` to run when it is missing.
_PARALLEL_EXPORTS = ("build_searched_strategy", "load_distributed_checkpoint", "load_segmented_checkpoints",
                     "merge_pipeline_strategys", "merge_sliced_parameter", "rank_list_for_transform",
                     "restore_group_info_list", "transform_checkpoint_by_rank", "transform_checkpoints",
                     "unified_safetensors", "shard", "Layout", "set_algo_parameters", "get_algo_parameters",
                     "reset_algo_parameters", "parameter_broadcast", "sync_pipeline_shared_parameters")


# Submodules MindSpore's `import mindspore` loads, so that `ms.dataset.GeneratorDataset` works without importing
# mindspore.dataset first: loaded here on first use (an add-on's, when it is installed).
_SUBMODULES = {"dataset": "mindspore-data", "mindrecord": "mindspore-data", "communication": "mindspore-parallel",
               "parallel": "mindspore-parallel", "utils": None, "boost": None}


# MindSpore's dtype aliases named like Python builtins: attributes only (as in 2.10, out of __all__), so that no
# module here shadows the builtins.
_BUILTIN_NAMED_DTYPES = {"bool": "bool_", "int": "int32", "float": "float32"}


def __getattr__(name):
    if name in _BUILTIN_NAMED_DTYPES:
        return getattr(dtype, _BUILTIN_NAMED_DTYPES[name])
    if name == "MsDispatchMode":   # 2.10's mindspore.MsDispatchMode (out of __all__), its utils' class
        from mindspore.utils import MsDispatchMode
        return MsDispatchMode
    if name in _SUBMODULES:
        import importlib
        try:
            return importlib.import_module(f"mindspore.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"mindspore.{name}" or _SUBMODULES[name] is None:
                raise
            raise AttributeError(f"module 'mindspore' has no attribute '{name}': it is provided by the add-on "
                                 f"distribution '{_SUBMODULES[name]}'. Install it with 'pip install "
                                 f"{_SUBMODULES[name]}'.", name=name, obj=None) from e
    if name in _PARALLEL_EXPORTS:
        import importlib
        try:
            module = importlib.import_module("mindspore.parallel")
        except ModuleNotFoundError as e:
            raise AttributeError(f"module 'mindspore' has no attribute '{name}': it is provided by the add-on "
                                 f"distribution 'mindspore-parallel'. Install it with 'pip install "
                                 f"mindspore-parallel'.", name=name, obj=None) from e
        return getattr(module, name)
    raise AttributeError(f"module 'mindspore' has no attribute '{name}'", name=name, obj=None)
