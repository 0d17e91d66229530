"""Code written for MindSpore imports from MindSpore's own module paths, and those must import here too.

``tests/fixtures/api/mindspore-2.10-modules.json`` (made by ``scripts/module_paths_from_ms.py`` with real MindSpore
2.10) lists every public module path of 2.10 that imports on its CPU build, with its ``__all__``. Here:

* every one of them imports, except the paths in :data:`NOT_PROVIDED` (each with the reason), and every path
  listed there does fail (so the list stays exact as paths are added);
* every ``__all__`` name of such a module resolves on ours, except :data:`NAMES_NOT_PROVIDED`;
* the paths that real code uses most (counted over MindSpore's model zoo and its libraries: ``from mindspore.common
  import set_seed`` in 500 files of the zoo, ``from mindspore.train.serialization import export`` in 156,
  ``from mindspore.nn.metrics import Accuracy``, ``auto_parallel_context().get_device_num_is_set()`` in 58
  training wrappers, a ``ModelCheckpoint`` driven by hand with ``_InternalCallbackParam``) give the same objects and
  behaviour as the names they stand for.
"""
import contextlib
import importlib
import io
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore as ms

if os.environ.get("MS_TEST_DEVICE_TARGET") == "STRICT":   # import paths do not depend on the device
    pytest.skip("import paths: checked in the default-device run", allow_module_level=True)

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODULES = json.loads((ROOT / "tests" / "fixtures" / "api" / "mindspore-2.10-modules.json").read_text())["modules"]

_REWRITE = "the internals of MindSpore's rewrite package (its public SymbolTree and Node are in mindspore.rewrite)"
_ASCEND_TOOLS = "MindSpore's Ascend profiler and its C++ analysis pipeline (this project's profiler is mindspore.profiler)"
#: 2.10's module paths that do not import here, with the reason: a key names a path and the paths below it, or with
#: ``.*`` only the paths below it
NOT_PROVIDED = {
    "mindspore.profiler.analysis": _ASCEND_TOOLS,
    "mindspore.profiler.common.*": _ASCEND_TOOLS,
    "mindspore.profiler.platform": _ASCEND_TOOLS,
    "mindspore.profiler.dynamic_profile": _ASCEND_TOOLS,
    "mindspore.profiler.profiler_action_controller": _ASCEND_TOOLS,
    "mindspore.profiler.profiler_interface": _ASCEND_TOOLS,
    "mindspore.rewrite.api": _REWRITE,
    "mindspore.rewrite.ast_helpers": _REWRITE,
    "mindspore.rewrite.common": _REWRITE,
    "mindspore.rewrite.parsers": _REWRITE,
    "mindspore.rewrite.sparsify": _REWRITE,
    "mindspore.rewrite.node.*": _REWRITE,
    "mindspore.rewrite.symbol_tree.*": _REWRITE,
    "mindspore.ops_generate": "MindSpore's build-time operator code generator",
    "mindspore.ops.auto_generate.cpp_create_prim_instance_helper": "MindSpore's generated C++ binding helpers",
    "mindspore.ops.auto_generate.pyboost_inner_prim": "MindSpore's generated C++ binding helpers",
    "mindspore.ops.operations.manually_defined.*": "MindSpore's hand-written operator definitions (in mindspore.ops)",
    "mindspore.ops.composite.multitype_ops": "the overload tables of MindSpore's graph compiler for Python operators",
    "mindspore.ops.composite.env_ops": "graph-compiler internals",
    "mindspore.ops.composite.math_ops": "graph-compiler internals (its functions are in mindspore.ops)",
    "mindspore.ops.functional_overload": "graph-compiler internals (its functions are in mindspore.ops)",
    "mindspore.ops.tensor_method": "graph-compiler internals (Tensor's methods)",
    "mindspore.ops.vm_impl_registry": "graph-compiler internals",
    "mindspore.ops.signature": "operator signatures of MindSpore's graph compiler (Primitive implicit casts here "
                               "follow the operator's own dtype rules)",
    "mindspore.ops.deprecated": "primitives deprecated before 2.0",
    "mindspore.graph.custom_backend": "hooks into MindSpore's C++ compiler (passes here: mindspore.plugin)",
    "mindspore.graph.custom_infer": "hooks into MindSpore's C++ compiler (passes here: mindspore.plugin)",
    "mindspore.graph.custom_pass": "hooks into MindSpore's C++ compiler (passes here: mindspore.plugin)",
    "mindspore.graph.jit_begin_end": "graph-compiler internals",
    "mindspore.graph.jit_context": "graph-compiler internals",
    "mindspore.graph.jit_trace": "graph-compiler internals",
    "mindspore.graph.dynamic_shape": "graph-compiler internals",
    "mindspore.common.jit_begin_end": "graph-compiler internals",
    "mindspore.common.jit_context": "graph-compiler internals",
    "mindspore.common.jit_trace": "graph-compiler internals",
    "mindspore.common.dynamic_shape": "graph-compiler internals",
    "mindspore.common.hook_handle": "tensor and cell hooks here return their own handles",
    "mindspore.device_context.ascend.device": "device internals of MindSpore's C++ runtime",
    "mindspore.device_context.cpu.device": "device internals of MindSpore's C++ runtime",
    "mindspore.device_context.gpu.device": "device internals of MindSpore's C++ runtime",
    "mindspore.device_context.gpu.op_precision": "cuDNN/cuBLAS precision switches of MindSpore's GPU kernels",
    "mindspore.device_context.gpu.op_tuning": "cuDNN/cuBLAS tuning switches of MindSpore's GPU kernels",
    "mindspore.runtime.device": "device internals of MindSpore's C++ runtime",
    "mindspore.runtime.thread_bind_core": "Ascend core binding",
    "mindspore.hal.contiguous_tensors_handle": "MindSpore's fused-buffer tensor lists (Ascend)",
    "mindspore.default_config": "an empty build-configuration module",
    "mindspore.run_check.run_check": "run_check is a module here (mindspore.run_check.run_check is the function)",
    "mindspore.utils.utils": "Ascend fault-tolerance internals (mindspore.utils has the public ones)",
    "mindspore.utils.runtime_execution_order_check": "Ascend communication-order checks",
    "mindspore.train.anf_ir_pb2": "MindSpore's graph-dump protobuf modules",
    "mindspore.train.lineage_pb2": "MindSpore's graph-dump protobuf modules",
    "mindspore.train.print_pb2": "MindSpore's graph-dump protobuf modules",
    "mindspore.train.profiling_parallel_pb2": "MindSpore's graph-dump protobuf modules",
    "mindspore.train.summary.enums": "summary-writer internals (mindspore.train.SummaryRecord is the API)",
    "mindspore.train.summary.writer": "summary-writer internals (mindspore.train.SummaryRecord is the API)",
    "mindspore.train.train_thor.model_thor": "ModelThor is not provided",
    "mindspore.experimental.map_parameter": "MapParameter (Ascend embedding cache) is not provided",
    "mindspore.numpy.utils_const": "graph-compiler constants of mindspore.numpy",
    "mindspore.mint.distributed.distributed": "its functions are in mindspore.mint.distributed",
    "mindspore.multiprocessing": "MindSpore's torch-like multiprocessing with shared-memory tensors is not provided",
    "mindspore.mindrecord.core": "MindRecord's C++ shard reader and writer bindings (the format is read and written "
                                 "here by mindspore.mindrecord)",
    "mindspore.mindrecord.common.constant": "MindRecord C++ binding internals",
    "mindspore.mindrecord.common.enums": "MindRecord C++ binding internals",
    "mindspore.mindrecord.tools.cifar10": "loader internals of Cifar10ToMR",
    "mindspore.mindrecord.tools.cifar100": "loader internals of Cifar100ToMR",
    "mindspore.dataset.engine.obs": "Huawei OBS cloud storage",
    "mindspore.dataset.engine.cache_admin": "the dataset cache server's command line",
    "mindspore.dataset.engine.datasets_standard_format": "its datasets are in mindspore.dataset",
    "mindspore.dataset.engine.queue": "pipeline internals",
    "mindspore.dataset.engine.validators": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.audio.validators": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.callback.validators": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.text.validators": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.transforms.validators": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.vision.validators": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.core.validator_helpers": "argument validators of MindSpore's dataset classes",
    "mindspore.dataset.core.datatypes": "C++ dataset-engine type conversion",
    "mindspore.dataset.core.py_util_helpers": "pipeline internals",
    "mindspore.dataset.transforms.py_transforms_util": "helpers of the legacy Python transforms",
    "mindspore.dataset.debug.debug_hook": "the pipeline debug hooks are not provided",
    "mindspore.dataset.debug.pre_defined_hook": "the pipeline debug hooks are not provided",
    "mindspore.dataset.utils": "LineReader and imshow_det_bbox are not provided",
    "mindspore.parallel.cluster.process_entity": "msrun internals",
    "mindspore.parallel.data_access_adapter": "checkpoint I/O adapters of MindSpore's parallel tools",
    "mindspore.parallel.distributed": "DistributedDataParallel is not provided",
    "mindspore.parallel.strategy": "the online strategy-metadata API is not provided",
    "mindspore.parallel.transform_safetensors": "the per-stage/per-rank safetensors transforms are not provided",
}

#: public names of 2.10's ``__all__`` lists that do not resolve here, by module (the reasons after each group; names
#: starting with ``_`` are private and not checked)
# Ascend-only: nsa_compress_attention (its importance score and masks are not specified well enough to reproduce),
# the MoE dispatch/combine (their outputs are the Ascend kernel's own buffer layouts)
_ASCEND_OPS = "nsa_compress_attention moe_distribute_combine moe_distribute_dispatch".split()
_ASCEND_PRIMS = ["MapCacheIdx"]                # Ascend-only operator (embedding cache hash map)
_PS = "Pull Push".split()                       # parameter-server operators (Ascend parameter server)
_MODULES = "array_ops other_ops linalg_ops signature gen_ops_def gen_ops_prim gen_extend_func " \
           "pyboost_inner_prim cpp_create_prim_instance_helper arg_dtype_cast arg_handler".split()  # submodules
_MAP_PARAMETER = ["make_map_parameter", "MapParameter", "embed", "ref_to_embed"]   # Ascend embedding cache
NAMES_NOT_PROVIDED = {
    "mindspore.ops": _ASCEND_OPS + _ASCEND_PRIMS + _PS + _MODULES + _MAP_PARAMETER,
    "mindspore.ops.functional": _ASCEND_OPS + _MODULES + _MAP_PARAMETER,
    "mindspore.ops.function": _ASCEND_OPS + _MAP_PARAMETER,
    "mindspore.ops.function.sparse_func": _MAP_PARAMETER,
    "mindspore.ops.function.other_func": _ASCEND_OPS,
    "mindspore.ops.function.grad": ["stop_gradient_"],   # the in-place variant of stop_gradient is not provided
    "mindspore.ops.function.grad.grad_func": ["stop_gradient_"],
    "mindspore.ops.operations": _ASCEND_PRIMS + _PS,
    "mindspore.ops.communication": ["TCPStore", "set_comm_ops_inplace", "all_to_all_v_c", "gather_into_tensor",
                                    "scatter_tensor"],   # 2.10's newest collectives are not provided
    "mindspore.ops.function.comm_func": ["TCPStore"],   # 2.10's key-value store of process groups: not provided
    "mindspore.experimental": _MAP_PARAMETER,
    "mindspore.graph": ["register_custom_pass", "register_custom_backend", "register_op_infer", "register_op_wrapper",
                        "clear_op_infer", "clear_op_wrapper", "CustomPassType"],   # see mindspore.graph's docstring
    "mindspore.nn.loss": ["L1LossExt"],          # 2.10's Ascend "Ext" variant
    "mindspore.nn.cell": ["register_cell_buffer_registration_hook"],   # not provided
    "mindspore.common.sparse_tensor": ["RowTensorInner"],               # graph-compiler internal
    "mindspore.dataset": ["OBSMindDataset", "sync_wait_for_dataset"],   # Huawei OBS cloud storage
    "mindspore.dataset.engine": ["OBSMindDataset", "sync_wait_for_dataset"],
    "mindspore.dataset.core.config": ["set_fast_recovery", "get_fast_recovery", "set_iterator_mode",
                                      "get_iterator_mode", "set_multiprocessing_start_method",
                                      "get_multiprocessing_start_method"],   # not provided
    "mindspore.parallel.checkpoint_transform": ["sync_pipeline_shared_parameters"],   # in mindspore.parallel
    "mindspore.train": ["export_split_mindir"],   # not provided
}


def _covers(key, path):
    if key.endswith(".*"):
        return path.startswith(key[:-1])
    return path == key or path.startswith(key + ".")


def _covered(path):
    return any(_covers(key, path) for key in NOT_PROVIDED)


def _import(path):
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        return importlib.import_module(path)


def _import_all():
    imported, failed = {}, {}
    for path in MODULES:
        try:
            imported[path] = _import(path)
        except Exception as e:  # noqa: BLE001 - any failure to import is what is checked
            failed[path] = f"{type(e).__name__}: {e}"
    return imported, failed


IMPORTED, FAILED = _import_all()


def test_the_fixture_is_mindspore_2_10s():
    assert len(MODULES) > 600 and "mindspore.nn.metrics" in MODULES
    assert MODULES["mindspore.nn.metrics"]["names"][:3] == ["names", "get_metric_fn", "get_metrics"]


def test_every_module_path_of_mindspore_imports():
    missing = {p: e for p, e in FAILED.items() if not _covered(p)}
    assert not missing, "2.10's module paths that fail to import here:\n" + "\n".join(
        f"{p}: {e}" for p, e in sorted(missing.items()))


def test_the_paths_not_provided_do_fail():
    for key in NOT_PROVIDED:
        assert any(_covers(key, p) for p in MODULES), f"{key} names none of 2.10's module paths"
    provided = sorted(p for p in IMPORTED if _covered(p))
    assert not provided, f"these now import: take them out of NOT_PROVIDED: {provided}"


def test_every_name_of_their_all_lists_resolves():
    missing = {}
    for path, module in IMPORTED.items():
        absent = [n for n in MODULES[path]["names"] if not n.startswith("_") and not hasattr(module, n)
                  and n not in NAMES_NOT_PROVIDED.get(path, ())]
        if absent:
            missing[path] = absent
    assert not missing, "\n".join(f"{p}: {names}" for p, names in sorted(missing.items()))


def test_the_names_not_provided_are_missing():
    present = {}
    for path, names in NAMES_NOT_PROVIDED.items():
        in_2_10 = [n for n in names if n in MODULES[path]["names"]]
        assert in_2_10, f"{path}: none of {names} is in 2.10's __all__"
        found = [n for n in in_2_10 if path in IMPORTED and hasattr(IMPORTED[path], n)]
        if found:
            present[path] = found
    assert not present, f"these resolve now: take them out of NAMES_NOT_PROVIDED: {present}"


def test_the_zoos_most_imported_paths_give_the_same_objects():
    from mindspore.common import JitConfig, RowTensor, jit, lazy_inline, mutable, set_seed
    from mindspore.nn.metrics import Accuracy, Metric
    from mindspore.train.serialization import export, load, load_checkpoint, merge_sliced_parameter
    assert (set_seed, jit, mutable, JitConfig, lazy_inline, RowTensor) == (
        ms.set_seed, ms.jit, ms.mutable, ms.JitConfig, ms.lazy_inline, ms.RowTensor)
    assert (Accuracy, Metric) == (ms.train.Accuracy, ms.train.Metric)
    assert (export, load, load_checkpoint) == (ms.export, ms.load, ms.load_checkpoint)
    assert merge_sliced_parameter is ms.parallel.merge_sliced_parameter
    from mindspore.train.serialization import tensor_to_ms_type
    assert tensor_to_ms_type["Float16"] == ms.float16 and tensor_to_ms_type["BFloat16"] == ms.bfloat16
    with pytest.raises(AttributeError, match="module 'mindspore.common' has no attribute 'no_such_name'"):
        ms.common.no_such_name  # noqa: B018


def test_mindspores_families_of_ops_and_cells_find_every_member():
    from mindspore.nn.layer.basic import Tril
    from mindspore.nn.layer.math import LGamma
    from mindspore.ops.function.math_func import addmm
    from mindspore.ops.function.nn_func import adaptive_avg_pool2d
    from mindspore.ops.functional import Median
    assert (Tril, LGamma) == (ms.nn.Tril, ms.nn.LGamma)
    assert (addmm, adaptive_avg_pool2d, Median) == (ms.ops.addmm, ms.ops.adaptive_avg_pool2d, ms.ops.Median)
    with pytest.raises(ImportError, match="cannot import name 'no_such_op' from 'mindspore.ops.function.math_func'"):
        from mindspore.ops.function.math_func import no_such_op  # noqa: F401
    from mindspore.ops import P
    assert P.MatMul is ms.ops.MatMul


def test_profiler_schedule_stays_the_class_after_its_module_is_imported():
    import mindspore.profiler.schedule  # noqa: F401
    assert ms.profiler.schedule is sys.modules["mindspore.profiler.schedule"].Schedule


def test_a_checkpoint_callback_driven_by_hand_saves_what_mindspore_saves(tmp_path):
    # MindSpore's zoo (MELGAN, EcapaTDNN, ...) runs ModelCheckpoint outside Model; 2.10 saved these three files
    from mindspore.train.callback import CheckpointConfig, ModelCheckpoint, RunContext, _InternalCallbackParam
    ckpt_cb = ModelCheckpoint(prefix="hand", directory=str(tmp_path),
                              config=CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=3))
    cb_params = _InternalCallbackParam()
    cb_params.train_network = ms.nn.Dense(3, 2)
    cb_params.epoch_num = 2
    run_context = RunContext(cb_params)
    ckpt_cb.begin(run_context)
    for epoch in range(2):
        cb_params.cur_epoch_num = epoch + 1
        for i in range(1, 5):
            cb_params.cur_step_num = epoch * 4 + i
            cb_params.batch_num = i
            ckpt_cb.step_end(run_context)
    ckpt_cb.end(run_context)
    assert sorted(p.name for p in tmp_path.glob("*.ckpt")) == ["hand-1_4.ckpt", "hand-2_2.ckpt", "hand-2_4.ckpt"]


def test_the_deprecated_loss_base_still_subclasses(caplog):
    from mindspore.nn.loss.loss import _Loss

    class SquaredError(_Loss):
        def construct(self, logits, labels):
            return self.get_loss((logits - labels) ** 2)

    with caplog.at_level("WARNING", logger="mindspore"):
        loss = SquaredError()(ms.Tensor([1.0, 2.0]), ms.Tensor([0.0, 0.0]))
    assert float(loss) == 2.5 and "'_Loss' is deprecated" in caplog.text


def test_auto_parallel_context_object_reads_and_writes_the_context():
    # what 2.10 printed for the same calls
    from mindspore.parallel._auto_parallel_context import auto_parallel_context
    ctx = auto_parallel_context()
    ms.reset_auto_parallel_context()
    try:
        assert (ctx.get_device_num_is_set(), ctx.get_parallel_mode(), ctx.get_pipeline_stages()) == (
            False, "stand_alone", 1)
        ms.set_auto_parallel_context(device_num=4)
        assert ctx.get_device_num_is_set() and ctx.get_device_num() == 4
        ctx.set_all_reduce_fusion_split_indices([2, 5])
        assert ms.get_auto_parallel_context("all_reduce_fusion_config") == [2, 5]
        with pytest.raises(ValueError, match="the attribute 'nonsense' is not supported"):
            ctx.get_nonsense()
    finally:
        ms.reset_auto_parallel_context()
    assert not ctx.get_device_num_is_set()


def test_a_submodule_an_installed_add_on_lacks_is_a_plain_module_not_found():
    code = ("import mindspore.dataset\n"
            "try:\n"
            "    import mindspore.dataset.no_such_module\n"
            "except ModuleNotFoundError as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "No module named 'mindspore.dataset.no_such_module'"


def test_np_dtype_bfloat16_is_the_numpy_type_of_bfloat16_tensors():
    from mindspore.common.np_dtype import bfloat16
    assert ms.Tensor([1.5], ms.bfloat16).asnumpy().dtype == np.dtype(bfloat16)


def test_a_package_attribute_that_is_a_function_in_mindspore_is_not_the_submodule_here():
    # in 2.10, once everything is imported, `mindspore.common.recompute` is the function, `mindspore.parallel.shard`
    # too, not the modules of those names: code calls them
    wrong = []
    for path, module in IMPORTED.items():
        parent, _, child = path.rpartition(".")
        if MODULES[path]["shadowed"] and getattr(sys.modules[parent], child, None) is module:
            wrong.append(path)
    assert not wrong, wrong


def test_resolving_mindspores_names_leaves_the_modules_own_builtins_alone():
    # math_func's code calls Python's any(); resolving 2.10's `math_func.any` (ops.any) must not become its global
    import mindspore.ops.function.math_func as math_func
    assert math_func.any is ms.ops.any and "any" not in vars(math_func)
    grads = (ms.Tensor(np.array([3.0, 4.0], np.float32)),)
    clipped = ms.ops.clip_by_global_norm(grads, 1.0)
    np.testing.assert_allclose(clipped[0].asnumpy(), [0.6, 0.8], rtol=1e-6)
