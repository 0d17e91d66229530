"""Message classes for the summary event schema in ``_summary.proto``, built at import time.

As :mod:`mindspore.train._checkpoint_pb2` does: the schema is assembled as a ``FileDescriptorProto`` in a
*private* descriptor pool (works with every protobuf runtime from 4.x on, and does not clash with a real
MindSpore's ``mindspore.irpb`` messages loaded in the same process). ``tests/api/test_train_more_summary.py``
checks that the descriptor built here is the one protoc compiles from ``_summary.proto``.
"""
from __future__ import annotations

from google.protobuf import descriptor_pb2, descriptor_pool

__all__ = ["Event", "Summary", "TensorProto", "LossLandscape", "GraphProto", "DataType", "FILE_DESCRIPTOR_PROTO"]

_FD = descriptor_pb2.FieldDescriptorProto
_OPT, _REQ, _REP = _FD.LABEL_OPTIONAL, _FD.LABEL_REQUIRED, _FD.LABEL_REPEATED
_PKG = ".mindspore.irpb."

_DATA_TYPES = ("UNDEFINED BOOL INT8 INT16 INT32 INT64 UINT8 UINT16 UINT32 UINT64 FLOAT16 FLOAT32 FLOAT64 STRING "
               "TENSOR GRAPH BOOLS INTS8 INTS16 INTS32 INTS64 UINTS8 UINTS16 UINTS32 UINTS64 FLOATS16 FLOATS32 "
               "FLOATS64 STRINGS TENSORS GRAPHS TUPLE LIST DICT NONE SYM_INST BASE_INT BASE_UINT BASE_FLOAT TYPE "
               "ANY REFKEY REF COMPLEX64 COMPLEX128 BASE_COMPLEX BFLOAT16 BFLOATS16 INT4 SLICE").split()


def _field(msg, name, number, label, ftype, type_name=None, oneof_index=None):
    f = msg.field.add(name=name, number=number, label=label, type=ftype)
    f.json_name = "".join(p.capitalize() if i else p for i, p in enumerate(name.split("_")))
    if type_name is not None:
        f.type_name = _PKG + type_name
    if oneof_index is not None:
        f.oneof_index = oneof_index
    return f


def _build_file():
    # no ``syntax`` field: protoc leaves it unset for proto2, the default
    fdp = descriptor_pb2.FileDescriptorProto(name="_summary.proto", package="mindspore.irpb")
    dtype = fdp.enum_type.add(name="DataType")
    for number, name in enumerate(_DATA_TYPES):
        dtype.value.add(name="DT_" + name, number=number)

    tensor = fdp.message_type.add(name="TensorProto")
    _field(tensor, "dims", 1, _REP, _FD.TYPE_INT64)
    _field(tensor, "data_type", 2, _OPT, _FD.TYPE_ENUM, "DataType")
    _field(tensor, "float_data", 3, _REP, _FD.TYPE_FLOAT)
    _field(tensor, "int32_data", 4, _REP, _FD.TYPE_INT32)
    _field(tensor, "int64_data", 5, _REP, _FD.TYPE_INT64)
    _field(tensor, "double_data", 6, _REP, _FD.TYPE_DOUBLE)
    _field(tensor, "uint64_data", 7, _REP, _FD.TYPE_UINT64)
    _field(tensor, "raw_data", 8, _OPT, _FD.TYPE_BYTES)

    graph = fdp.message_type.add(name="GraphProto")
    _field(graph, "name", 2, _OPT, _FD.TYPE_STRING)

    event = fdp.message_type.add(name="Event")
    event.oneof_decl.add(name="what")
    _field(event, "wall_time", 1, _REQ, _FD.TYPE_DOUBLE)
    _field(event, "step", 2, _OPT, _FD.TYPE_INT64)
    _field(event, "version", 3, _OPT, _FD.TYPE_STRING, oneof_index=0)
    _field(event, "graph_def", 4, _OPT, _FD.TYPE_MESSAGE, "GraphProto", oneof_index=0)
    _field(event, "summary", 5, _OPT, _FD.TYPE_MESSAGE, "Summary", oneof_index=0)

    land = fdp.message_type.add(name="LossLandscape")
    point = land.nested_type.add(name="Point")
    for i, axis in enumerate("xyz", 1):
        _field(point, axis, i, _OPT, _FD.TYPE_MESSAGE, "TensorProto")
    path = land.nested_type.add(name="LossPath")
    _field(path, "intervals", 1, _REP, _FD.TYPE_INT32)
    _field(path, "points", 2, _OPT, _FD.TYPE_MESSAGE, "LossLandscape.Point")
    meta = land.nested_type.add(name="Metadata")
    _field(meta, "decomposition", 1, _OPT, _FD.TYPE_STRING)
    _field(meta, "unit", 2, _OPT, _FD.TYPE_STRING)
    _field(meta, "step_per_epoch", 3, _OPT, _FD.TYPE_INT32)
    _field(land, "landscape", 1, _OPT, _FD.TYPE_MESSAGE, "LossLandscape.Point")
    _field(land, "loss_path", 2, _OPT, _FD.TYPE_MESSAGE, "LossLandscape.LossPath")
    _field(land, "metadata", 3, _OPT, _FD.TYPE_MESSAGE, "LossLandscape.Metadata")
    _field(land, "convergence_point", 4, _OPT, _FD.TYPE_MESSAGE, "LossLandscape.Point")

    summary = fdp.message_type.add(name="Summary")
    image = summary.nested_type.add(name="Image")
    _field(image, "height", 1, _REQ, _FD.TYPE_INT32)
    _field(image, "width", 2, _REQ, _FD.TYPE_INT32)
    _field(image, "colorspace", 3, _REQ, _FD.TYPE_INT32)
    _field(image, "encoded_image", 4, _REQ, _FD.TYPE_BYTES)
    hist = summary.nested_type.add(name="Histogram")
    bucket = hist.nested_type.add(name="bucket")
    _field(bucket, "left", 1, _REQ, _FD.TYPE_DOUBLE)
    _field(bucket, "width", 2, _REQ, _FD.TYPE_DOUBLE)
    _field(bucket, "count", 3, _REQ, _FD.TYPE_INT64)
    _field(hist, "buckets", 1, _REP, _FD.TYPE_MESSAGE, "Summary.Histogram.bucket")
    _field(hist, "nan_count", 2, _OPT, _FD.TYPE_INT64)
    _field(hist, "pos_inf_count", 3, _OPT, _FD.TYPE_INT64)
    _field(hist, "neg_inf_count", 4, _OPT, _FD.TYPE_INT64)
    _field(hist, "max", 5, _OPT, _FD.TYPE_DOUBLE)
    _field(hist, "min", 6, _OPT, _FD.TYPE_DOUBLE)
    _field(hist, "sum", 7, _OPT, _FD.TYPE_DOUBLE)
    _field(hist, "count", 8, _OPT, _FD.TYPE_INT64)
    value = summary.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    _field(value, "tag", 1, _REQ, _FD.TYPE_STRING)
    _field(value, "scalar_value", 3, _OPT, _FD.TYPE_FLOAT, oneof_index=0)
    _field(value, "image", 4, _OPT, _FD.TYPE_MESSAGE, "Summary.Image", oneof_index=0)
    _field(value, "tensor", 8, _OPT, _FD.TYPE_MESSAGE, "TensorProto", oneof_index=0)
    _field(value, "histogram", 9, _OPT, _FD.TYPE_MESSAGE, "Summary.Histogram", oneof_index=0)
    _field(value, "loss_landscape", 10, _OPT, _FD.TYPE_MESSAGE, "LossLandscape", oneof_index=0)
    _field(summary, "value", 1, _REP, _FD.TYPE_MESSAGE, "Summary.Value")
    return fdp


def _message_class(descriptor):
    try:
        from google.protobuf.message_factory import GetMessageClass
    except ImportError:  # protobuf < 4.22
        from google.protobuf.message_factory import MessageFactory
        return MessageFactory(descriptor.file.pool).GetPrototype(descriptor)
    return GetMessageClass(descriptor)


FILE_DESCRIPTOR_PROTO = _build_file()
_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(FILE_DESCRIPTOR_PROTO)

Event = _message_class(_POOL.FindMessageTypeByName("mindspore.irpb.Event"))
Summary = _message_class(_POOL.FindMessageTypeByName("mindspore.irpb.Summary"))
TensorProto = _message_class(_POOL.FindMessageTypeByName("mindspore.irpb.TensorProto"))
LossLandscape = _message_class(_POOL.FindMessageTypeByName("mindspore.irpb.LossLandscape"))
GraphProto = _message_class(_POOL.FindMessageTypeByName("mindspore.irpb.GraphProto"))
#: ``DataType`` enum values by name (``DataType["DT_FLOAT32"] == 11``).
DataType = {v.name: v.number for v in _POOL.FindEnumTypeByName("mindspore.irpb.DataType").values}
