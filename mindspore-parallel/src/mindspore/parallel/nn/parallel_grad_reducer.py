"""MindSpore's ``mindspore.parallel.nn.parallel_grad_reducer``."""
from mindspore.parallel.nn import PipelineGradReducer  # noqa: F401

__all__ = ["PipelineGradReducer"]
