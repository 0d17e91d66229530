"""MindSpore's ``mindspore.runtime.stream``."""
from mindspore.runtime import (  # noqa: F401
    Event, Stream, StreamCtx, communication_stream, current_stream, default_stream, set_cur_stream, synchronize
)

__all__ = [
    "Event", "Stream", "StreamCtx", "communication_stream", "current_stream", "default_stream", "set_cur_stream",
    "synchronize"
]
