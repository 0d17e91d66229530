"""``mindspore.train.mind_ir_pb2``: the MindIR protobuf schema (``mind_ir.proto``, read from the MindSpore 2.10
wheel) under 2.10's module name: every message of the file (``ModelProto``, ``GraphProto``, ``NodeProto``, ...) and
its enums' values (``IR_VERSION``, ...), for code that inspects ``.mindir`` files itself; the same classes as
:func:`mindspore.export`/:func:`mindspore.load` use."""
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper

from mindspore._deploy.mindir import _schema

DESCRIPTOR = _schema.ModelProto.DESCRIPTOR.file
__all__ = ["DESCRIPTOR"]
for _message in DESCRIPTOR.message_types_by_name:
    globals()[_message] = _schema._message(_message)
    __all__.append(_message)
for _name, _enum in DESCRIPTOR.enum_types_by_name.items():
    globals()[_name] = _enum_type_wrapper.EnumTypeWrapper(_enum)
    __all__.append(_name)
    for _value in _enum.values:
        globals()[_value.name] = _value.number
        __all__.append(_value.name)
