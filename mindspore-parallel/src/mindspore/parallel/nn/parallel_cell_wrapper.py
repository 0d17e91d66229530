"""MindSpore's ``mindspore.parallel.nn.parallel_cell_wrapper``."""
from mindspore.parallel.nn import GradAccumulation, MicroBatchInterleaved, Pipeline, PipelineCell  # noqa: F401

__all__ = ["PipelineCell", "Pipeline", "MicroBatchInterleaved", "GradAccumulation"]
