"""``Model.build``, ``Model.infer_train_layout`` and ``Model.infer_predict_layout`` (MindSpore 2.10 semantics).

``build`` is 2.10's pre-initialisation of the dataset channel and graphs for sink mode, which 2.10 supports only on
Ascend: on every other target it raises the same RuntimeError as 2.10 on the CPU (after validating ``epoch``).

The two ``infer_*_layout`` methods need SEMI_AUTO_PARALLEL or AUTO_PARALLEL (otherwise 2.10's RuntimeError). They
compile the network for the given data, as 2.10 does, and return its ``parameter_layout_dict``, filled from the
layouts of the parameters the sharded operators cut (mindspore-parallel's ``parameter_layouts`` offered through the
``ms_sharding`` hook) in 2.10's form, ``{name: [dev_matrix, tensor_map, slice_shape, field_size, uniform_split,
opt_shard_group]}``: ``tensor_map`` counts device-matrix axes from the right, ``-1`` for an uncut dimension;
``field_size`` 0, ``uniform_split`` True and ``opt_shard_group`` '' (no optimizer sharding).
"""
from __future__ import annotations

import math

import mindspore.context as context
from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError


def build(model, train_dataset, valid_dataset, sink_size, epoch, sink_mode):
    if not isinstance(epoch, int) or isinstance(epoch, bool):
        raise MSTypeError(f"The input value must be int, but got '{type(epoch).__name__}'")
    if epoch <= 0:
        raise MSValueError(f"The input value must be int and must > 0, but got '{epoch}' with type 'int'.")
    if context.get_context("device_target") != "Ascend":
        raise MSRuntimeError("Pre-init process only supports Ascend target currently.")
    raise MSRuntimeError("Model.build needs the Ascend dataset channel, which this build does not drive.")


def _parallel_mode():
    return context.get_auto_parallel_context("parallel_mode")


def check_train(train_dataset, dataset_sink_mode, sink_size):
    mode = _parallel_mode()
    if mode not in ("semi_auto_parallel", "auto_parallel"):
        raise MSRuntimeError(f"'infer_train_layout' only supports 'semi_auto_parallel' and 'auto_parallel' mode, "
                             f"but got {mode}.")
    if not isinstance(dataset_sink_mode, bool):
        raise MSTypeError(f"The input value must be a bool, but got {type(dataset_sink_mode).__name__}.")
    if not dataset_sink_mode:
        raise MSValueError("Only dataset sink mode is supported for now.")
    if not isinstance(sink_size, int) or isinstance(sink_size, bool):
        raise MSTypeError(f"The input value must be int, but got '{type(sink_size).__name__}'")
    if train_dataset.get_dataset_size() == 0:
        raise MSValueError("There is no valid data in dataset, please check dataset file firstly.")
    if sink_size < -1 or sink_size == 0:
        raise MSValueError(f"For 'infer_train_layout', the argument 'sink_size' must be -1 or positive, but got "
                           f"sink_size {sink_size}.")


def check_predict():
    if _parallel_mode() not in ("semi_auto_parallel", "auto_parallel"):
        raise MSRuntimeError("Infer predict layout only supports semi auto parallel and auto parallel mode.")


def as_2_10_layout(dev_matrix, tensor_map, full_shape):
    """One parameter's layout in 2.10's six-field form (see the module docstring)."""
    n = len(dev_matrix)
    slice_shape = []
    for size, axes in zip(full_shape, tensor_map):
        axes = axes if isinstance(axes, tuple) else (axes,)
        cut = math.prod(dev_matrix[n - 1 - a] for a in axes if a != -1)
        slice_shape.append(size // cut)
    return [list(dev_matrix), list(tensor_map), slice_shape, 0, True, ""]


def fill_layouts(network):
    """Record in ``network.parameter_layout_dict`` the layouts its sharded parameters have; returns the dict."""
    from mindspore._plugin import manager
    offer = manager.sharding() or {}
    getter = offer.get("parameter_layouts")
    layouts = network.parameter_layout_dict
    if getter is not None:
        for name, (dev_matrix, tensor_map, full_shape) in getter(network).items():
            layouts[name] = as_2_10_layout(dev_matrix, tensor_map, full_shape)
    return layouts
