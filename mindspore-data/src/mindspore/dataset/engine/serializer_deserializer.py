"""MindSpore's ``mindspore.dataset.engine.serializer_deserializer``: a pipeline to and from JSON."""
from mindspore.dataset.engine.serializer import compare, deserialize, serialize, show  # noqa: F401

__all__ = ["serialize", "deserialize", "show", "compare"]
