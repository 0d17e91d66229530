"""Pipeline parallelism: ``pipeline_stages`` > 1 under SEMI_AUTO_PARALLEL or AUTO_PARALLEL
(``set_auto_parallel_context`` or ``AutoParallel.pipeline``).

MindSpore's semantics (its ``PipelineTransformer`` and the pipeline tutorial), which this module keeps:

* **Stages.** ``device_num`` ranks form ``pipeline_stages`` stages of ``device_num // pipeline_stages`` consecutive
  ranks: stage ``k`` is ranks ``k * per_stage`` .. ``(k + 1) * per_stage - 1`` (8 ranks, 2 stages: 0-3 and 4-7).
  A cell's ``pipeline_stage`` (set directly or by ``PipelineCell``/``Pipeline``'s ``stage_config``) says which
  stage runs it. A device number that the stage count does not divide is an error.
* **Batch.** Inside a stage the ranks are data parallel (and operator parallel where strategies say so): each
  feeds its part of the stage's global batch. The samples read the whole dataset on every rank, so the global
  batch is copies of one batch and its mean loss is that batch's.
* **Micro-batches.** ``PipelineCell(net, micro_size)`` cuts each rank's rows into ``micro_size`` equal slices (the
  compiler marks those slices ``skip_redistribution``: rank-local, see ``_ops.shape.micro_slice_keep``), runs the
  network on each and sums the outputs: the loss of a step is the sum of the micro-batches' (mean) losses
  (~9.1 = 4 x 2.3 at step 0 of the MNIST sample), and the gradient of a parameter is the sum over micro-batches.
  ``PipelineGradReducer`` returns those accumulated gradients divided by ``scale_sense``.
* **Outputs.** The last stage's ranks return the network's outputs. Every other rank returns zeros of the same
  shapes (``PipelineTransformer::GetZeroOutputs``): a stage-0 rank of the training sample prints ``loss is 0``.
  With ``pipeline_result_broadcast`` (``AutoParallel.pipeline(output_broadcast=True)``, for inference) the last
  stage's result is broadcast, so every rank returns it.

What this implementation builds: **every rank computes all stages** (no activations are sent between stages) and
keeps its own stage's observable behaviour: the loss or outputs it returns (real on the last stage, zeros
elsewhere, or broadcast), the micro-batch slicing and the accumulated gradients. The numbers are MindSpore's; the
memory and time savings of a real stage split are not. Since every rank runs the whole network, every rank also
updates every parameter (a rank needs the other stages' current weights to compute its own stage's gradients);
MindSpore's rank of stage k runs and updates only stage k's parameters, so a rank's copy of another stage's
parameters (and a checkpoint of them saved from that rank) holds the trained values here, not MindSpore's
untouched ones. Parameters shared by two stages are one object here, so ``sync_pipeline_shared_parameters`` has
nothing to copy. The data-parallel group of the sharding rules stays the whole world (a stage's batch is every
rank's rows, not its ``per_stage`` ranks'): the numbers are the same whenever the stages are fed the same data,
which MindSpore's pipeline needs anyway (a later stage takes its activations from stage 0's ranks and its labels
from its own feed).
"""
from __future__ import annotations

from mindspore import context, nn, ops
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["stages", "active", "stage_of", "is_last_stage", "stage_output", "reduce_grads"]


def stages():
    """The number of pipeline stages the auto-parallel context sets (1: no pipeline)."""
    return int(context.get_auto_parallel_context("pipeline_stages") or 1)


def active():
    return stages() > 1


def stage_of(rank, device_num):
    """The pipeline stage of world ``rank`` of ``device_num`` ranks: ``rank // (device_num // stages)``."""
    count = stages()
    if device_num % count:
        raise ValueError(f"For pipeline parallel, the device_num {device_num} must be divisible by the "
                         f"pipeline_stages {count}, but it is not.")
    return rank // (device_num // count)


def is_last_stage(rank, device_num):
    return stage_of(rank, device_num) == stages() - 1


def stage_output(value, rank, device_num):
    """What a rank returns for the network's output ``value``: itself on the last stage (or with
    ``pipeline_result_broadcast``), zeros of its shape elsewhere. The zeros are ``value - stop_gradient(value)``,
    so a gradient taken through the call (the loss of a training step) is still the network's."""
    if is_last_stage(rank, device_num) or context.get_auto_parallel_context("pipeline_result_broadcast"):
        return value
    if isinstance(value, tuple):
        return tuple(stage_output(v, rank, device_num) for v in value)
    if isinstance(value, Tensor) and mstype.is_float(value.dtype):
        return value - ops.stop_gradient(value)
    if isinstance(value, Tensor):
        return ops.zeros_like(value)
    return value


def is_grad_reducer(cell):
    return isinstance(cell, nn.PipelineGradReducer)


def reduce_grads(reducer, grads):
    """``PipelineGradReducer(grads)`` in a pipeline run: the gradients of the micro-batches' summed loss are their
    accumulated gradients (what MindSpore's compiler adds into ``accu_grads``), divided by ``scale_sense``."""
    scale = reducer.scale_sense * reducer.degree
    return tuple(g / scale.astype(g.dtype) for g in grads)
