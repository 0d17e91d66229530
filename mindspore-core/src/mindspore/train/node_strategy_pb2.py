"""``mindspore.train.node_strategy_pb2``: the protobuf messages of MindSpore's parallel strategy files
(``node_strategy.proto``, proto2, package ``mindspore.straspb``), as MindSpore 2.10's generated module of that name
offers them: ``ParallelStrategyMap`` (a file), ``ParallelStrategyItem``/``ParallelStrategys``/``ParallelStrategy``
(an operator's sharding), ``ParallelLayoutItem``/``ParallelLayouts`` with ``DevMatrix``, ``TensorMap``,
``ParamSplitShape``, ``IndicesOffset`` (a parameter's layout), and the group file's ``ParallelGroupMap``,
``ParallelGroupItem``, ``ParallelGroupRanks``. Field numbers are upstream's, read back from the 2.10 wheel's
descriptor, so files written with these classes are MindSpore's bytes (code written for 2.10, such as the LLM
weight-splitting tutorial's ``save_strategy_file``, runs unchanged).

The descriptor is built in code and added to a private descriptor pool, so a real MindSpore imported in the same
process (whose generated module owns the same full names in the default pool) never clashes with it.
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["FILE_DESCRIPTOR_PROTO", "ParallelStrategy", "ParallelStrategys", "ParallelStrategyItem", "DevMatrix",
           "TensorMap", "ParamSplitShape", "IndicesOffset", "ParallelLayouts", "ParallelLayoutItem",
           "ParallelGroupRanks", "ParallelGroupItem", "ParallelGroupMap", "ParallelStrategyMap"]

_PACKAGE = "mindspore.straspb"
_T = descriptor_pb2.FieldDescriptorProto
_REQ, _REP = _T.LABEL_REQUIRED, _T.LABEL_REPEATED

# (message, [(field, number, label, type, message type or None)]), in upstream order
_MESSAGES = [
    ("ParallelStrategy", [("dim", 1, _REP, _T.TYPE_UINT32, None)]),
    ("ParallelStrategys", [("stage", 1, _REQ, _T.TYPE_UINT32, None),
                           ("parallel_strategy", 2, _REP, _T.TYPE_MESSAGE, "ParallelStrategy")]),
    ("ParallelStrategyItem", [("node_name", 1, _REQ, _T.TYPE_STRING, None),
                              ("parallel_strategys", 2, _REQ, _T.TYPE_MESSAGE, "ParallelStrategys")]),
    ("DevMatrix", [("dim", 1, _REP, _T.TYPE_UINT32, None)]),
    ("TensorMap", [("dim", 1, _REP, _T.TYPE_INT32, None)]),
    ("ParamSplitShape", [("dim", 1, _REP, _T.TYPE_INT64, None)]),
    ("IndicesOffset", [("dim", 1, _REP, _T.TYPE_INT64, None)]),
    ("ParallelLayouts", [("dev_matrix", 1, _REP, _T.TYPE_MESSAGE, "DevMatrix"),
                         ("tensor_map", 2, _REP, _T.TYPE_MESSAGE, "TensorMap"),
                         ("param_split_shape", 3, _REP, _T.TYPE_MESSAGE, "ParamSplitShape"),
                         ("indices_offset", 4, _REP, _T.TYPE_MESSAGE, "IndicesOffset"),
                         ("field", 5, _REQ, _T.TYPE_INT32, None),
                         ("opt_weight_shard_step", 6, _REQ, _T.TYPE_INT32, None),
                         ("opt_weight_shard_size", 7, _REQ, _T.TYPE_INT32, None)]),
    ("ParallelLayoutItem", [("param_name", 1, _REQ, _T.TYPE_STRING, None),
                            ("parallel_layouts", 2, _REQ, _T.TYPE_MESSAGE, "ParallelLayouts")]),
    ("ParallelGroupRanks", [("dim", 1, _REP, _T.TYPE_UINT32, None)]),
    ("ParallelGroupItem", [("group_name", 1, _REQ, _T.TYPE_STRING, None),
                           ("parallel_group_ranks", 2, _REQ, _T.TYPE_MESSAGE, "ParallelGroupRanks")]),
    ("ParallelGroupMap", [("parallel_group_item", 1, _REP, _T.TYPE_MESSAGE, "ParallelGroupItem"),
                          ("ckpt_restore_rank_list", 2, _REQ, _T.TYPE_MESSAGE, "ParallelGroupRanks")]),
    ("ParallelStrategyMap", [("current_stage", 1, _REQ, _T.TYPE_UINT32, None),
                             ("parallel_strategy_item", 2, _REP, _T.TYPE_MESSAGE, "ParallelStrategyItem"),
                             ("parallel_layout_item", 3, _REP, _T.TYPE_MESSAGE, "ParallelLayoutItem")]),
]


def _file_descriptor():
    fdp = descriptor_pb2.FileDescriptorProto(name="node_strategy.proto", package=_PACKAGE, syntax="proto2")
    for name, fields in _MESSAGES:
        msg = fdp.message_type.add(name=name)
        for fname, number, label, ftype, type_name in fields:
            field = msg.field.add(name=fname, number=number, label=label, type=ftype)
            if type_name:
                field.type_name = f".{_PACKAGE}.{type_name}"
    return fdp


FILE_DESCRIPTOR_PROTO = _file_descriptor()
_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(FILE_DESCRIPTOR_PROTO)


def _message(name):
    return message_factory.GetMessageClass(_POOL.FindMessageTypeByName(f"{_PACKAGE}.{name}"))


ParallelStrategy = _message("ParallelStrategy")
ParallelStrategys = _message("ParallelStrategys")
ParallelStrategyItem = _message("ParallelStrategyItem")
DevMatrix = _message("DevMatrix")
TensorMap = _message("TensorMap")
ParamSplitShape = _message("ParamSplitShape")
IndicesOffset = _message("IndicesOffset")
ParallelLayouts = _message("ParallelLayouts")
ParallelLayoutItem = _message("ParallelLayoutItem")
ParallelGroupRanks = _message("ParallelGroupRanks")
ParallelGroupItem = _message("ParallelGroupItem")
ParallelGroupMap = _message("ParallelGroupMap")
ParallelStrategyMap = _message("ParallelStrategyMap")
