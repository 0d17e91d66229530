"""``mindspore.train.checkpoint_pb2``: the ``.ckpt`` protobuf messages under MindSpore 2.10's module name
(``Checkpoint``, ``TensorProto``, ``MapTensorProto``), for code that reads or writes checkpoint files itself; the
same classes as :func:`mindspore.save_checkpoint`/:func:`mindspore.load_checkpoint` use."""
from mindspore.train import _checkpoint_pb2 as _pb

__all__ = ["DESCRIPTOR", "Checkpoint", "TensorProto", "MapTensorProto"]

DESCRIPTOR = _pb.Checkpoint.DESCRIPTOR.file
Checkpoint = _pb.Checkpoint
TensorProto = _pb.TensorProto
MapTensorProto = _pb.MapTensorProto
