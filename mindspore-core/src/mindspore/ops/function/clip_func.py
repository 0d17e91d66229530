"""MindSpore's ``mindspore.ops.function.clip_func``."""
from mindspore.ops import clip_by_value, clip_by_norm, clamp, clamp_, clip, clip_by_global_norm  # noqa: F401

__all__ = ["clip_by_value", "clip_by_norm", "clamp", "clamp_", "clip", "clip_by_global_norm"]
