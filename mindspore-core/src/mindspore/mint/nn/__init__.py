"""``mindspore.mint.nn``: PyTorch-style layers (``Linear``, ``Conv2d``, ``BatchNorm2d``, losses, ...) and
:mod:`mindspore.mint.nn.functional`.

Besides the names of MindSpore's ``__all__``, the module has the layers it also exposes publicly (``Dropout``,
``Embedding``, ``LayerNorm``, ``CrossEntropyLoss``, ``MaxPool2d``, ...), which model code uses as much.
"""
from mindspore.mint.nn import functional  # noqa: F401
from mindspore.mint.nn._layers import (ELU, GELU, SELU, AdaptiveAvgPool1d, AdaptiveAvgPool2d,  # noqa: F401
                                       AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d, AvgPool1d,
                                       AvgPool2d, AvgPool3d, BCELoss, BCEWithLogitsLoss, ConstantPad1d,
                                       ConstantPad2d, ConstantPad3d, CosineEmbeddingLoss, Flatten, Fold,
                                       Hardshrink, Hardsigmoid, Hardswish, Hardtanh, Identity, KLDivLoss, L1Loss,
                                       LogSigmoid, LogSoftmax, MaxUnpool2d, Mish, MSELoss, PixelShuffle,
                                       ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReLU, ReLU6,
                                       ReplicationPad1d, ReplicationPad2d, ReplicationPad3d, Sigmoid, SiLU,
                                       SmoothL1Loss, SoftMarginLoss, Softmax, Tanh, Threshold, Unfold, Upsample,
                                       UpsamplingBilinear2d, UpsamplingNearest2d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from mindspore.mint.nn._param_layers import (BatchNorm1d, BatchNorm2d, BatchNorm3d, Conv1d, Conv2d,  # noqa: F401
                                             Conv3d, ConvTranspose2d, GroupNorm, Linear, PReLU, SyncBatchNorm)
# public in MindSpore's mint.nn (dir) though not in its __all__
from mindspore.mint.nn._layers import (GLU, CrossEntropyLoss, Dropout, Dropout2d, MaxPool2d, NLLLoss,  # noqa: F401
                                       Softshrink)
from mindspore.mint.nn._param_layers import Embedding, LayerNorm  # noqa: F401
from mindspore.nn.cell import Cell  # noqa: F401 - MindSpore's mint.nn has it too (model code subclasses nn.Cell)

__all__ = [
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d",
    "AvgPool1d", "AvgPool2d", "AvgPool3d", "BCELoss", "BCEWithLogitsLoss", "BatchNorm1d", "BatchNorm2d",
    "BatchNorm3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "Conv1d", "Conv2d", "Conv3d",
    "ConvTranspose2d", "CosineEmbeddingLoss", "ELU", "Flatten", "Fold", "GELU", "GroupNorm", "Hardshrink",
    "Hardsigmoid", "Hardswish", "Hardtanh", "Identity", "KLDivLoss", "L1Loss", "Linear", "LogSigmoid",
    "LogSoftmax", "MSELoss", "MaxUnpool2d", "Mish", "PReLU", "PixelShuffle", "ReLU", "ReLU6", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d", "SELU",
    "SiLU", "Sigmoid", "SmoothL1Loss", "SoftMarginLoss", "Softmax", "SyncBatchNorm", "Tanh", "Threshold",
    "Unfold", "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
]


# MindSpore 2.10's nn.Linear and nn.*Ext layers are these very classes; mint sits above nn, so it installs them there.
_NN_ALIASES = {"Linear": Linear, "AvgPool1dExt": AvgPool1d, "AvgPool2dExt": AvgPool2d, "AvgPool3dExt": AvgPool3d,
               "Dropout2dExt": Dropout2d, "DropoutExt": Dropout, "EmbeddingExt": Embedding, "L1LossExt": L1Loss,
               "LayerNormExt": LayerNorm, "LogSoftmaxExt": LogSoftmax, "MaxPool2dExt": MaxPool2d, "PReLUExt": PReLU}


# 2.10's classes behind these mint.nn names have other names (mint.nn.Softmax is a SoftmaxExt, mint.nn.Hardshrink
# is nn.HShrink): type(layer).__name__, and so what print(model) shows, is that name
_CLASS_NAMES = {Softmax: "SoftmaxExt", Unfold: "UnfoldExt", Upsample: "UpsampleExt", Hardshrink: "HShrink",
                Hardsigmoid: "HSigmoid", Hardswish: "HSwish", Softshrink: "SoftShrink"}


def _install_in_nn():
    import sys
    import mindspore.nn as _nn
    for name, cls in _NN_ALIASES.items():
        setattr(_nn, name, cls)
    names = {**_CLASS_NAMES, **{cls: name for name, cls in _NN_ALIASES.items() if name != "Linear"}}
    for cls, name in names.items():
        cls.__name__ = cls.__qualname__ = name
        setattr(sys.modules[cls.__module__], name, cls)     # found under its name (pickle)


_install_in_nn()
