"""MindSpore's ``mindspore.runtime.stream_limit``."""
from mindspore.runtime import StreamLimitCtx, get_stream_limit, reset_stream_limit, set_stream_limit  # noqa: F401

__all__ = ["StreamLimitCtx", "get_stream_limit", "reset_stream_limit", "set_stream_limit"]
