"""Our primitives as MindSpore 2.10 writes them in a MindIR file: the primitive table of the writer.

MindSpore 2.10 has two kinds of primitive, and its loader rebuilds each kind differently:

* ``PRIMITIVE_FUNCTION`` (the operators generated from MindSpore's op definitions: ``MatMul``, ``ReLU``,
  ``BatchNorm``, ``Reshape`` ...): the ``PrimitiveProto`` has no attributes. Every configuration value is an
  extra node input, a ``Constant`` node, after the tensor inputs, in the op definition's order - ``MatMul(x, w,
  transpose_a, transpose_b)``, ``Softmax(x, (axis,))``, ``BatchNorm(x, scale, bias, mean, variance,
  is_training, epsilon, momentum, format)``. Strings that name a mode (``'NCHW'``, ``'same'``, ``'mean'``)
  are written as MindSpore's enum integers, dtypes as its ``TypeId`` numbers.
* ``PRIMITIVE`` (the hand-written operators: ``Conv2D``, ``MaxPool``, ``Stack``, ``TopK`` ...): the node
  inputs are the call's inputs, and the configuration is primitive attributes, with MindSpore's names and
  forms (``format`` for ``data_format``, 4-tuples for 2-D strides, ``pad_list`` computed from the input),
  plus the ``input_names``/``output_names`` lists MindSpore records.

:data:`TABLE` maps each of our primitive names to a :class:`Fn` or a :class:`Prim` describing that form. A
primitive missing from it has no MindIR form here; the writer reports it with the user's source line. Which
operators are which kind, their argument orders and attribute names were read off MindSpore 2.10 itself
(its op definitions and files it exports), and ``tests/export/verify_mindir_with_ms.py`` checks every entry
by loading a file we wrote in real MindSpore and comparing outputs.
"""
from __future__ import annotations

from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype

__all__ = ["Fn", "Prim", "TABLE", "TYPE_IDS", "ENUMS", "spec_of", "type_id", "enum_of"]

#: MindSpore's ``TypeId`` numbers, which a ``PRIMITIVE_FUNCTION`` takes for a dtype argument (``Cast(x, 43)``).
TYPE_IDS = {
    mstype.bool_: 30, mstype.int8: 32, mstype.int16: 33, mstype.int32: 34, mstype.int64: 35, mstype.uint8: 37,
    mstype.uint16: 38, mstype.uint32: 39, mstype.uint64: 40, mstype.float16: 42, mstype.float32: 43,
    mstype.float64: 44, mstype.bfloat16: 45, mstype.complex64: 51, mstype.complex128: 52,
}

#: MindSpore's enum numbers for the mode strings of ``PRIMITIVE_FUNCTION`` arguments (case-insensitive).
ENUMS = {
    "nchw": 0, "nhwc": 1, "ncdhw": 14, "nd": 20,            # formats
    "pad": 0, "same": 1, "valid": 2,                        # pad modes
    "sum": 0, "mean": 1, "none": 2,                         # reductions
    "ij": 0, "xy": 1,                                       # meshgrid indexing
    "constant": 0, "reflect": 1,                            # padding modes
}


def type_id(op, dtype):
    try:
        return TYPE_IDS[mstype.to_ms_dtype(dtype)]
    except (KeyError, TypeError):
        raise MSValueError(f"For 'export', the dtype {dtype!r} of '{op}' has no MindIR type id.") from None


def enum_of(op, arg, value):
    code = ENUMS.get(str(value).lower()) if isinstance(value, str) else None
    if code is None:
        raise MSValueError(f"For 'export', the '{arg}' of '{op}' is {value!r}, which MindSpore's MindIR loader does "
                           "not know.")
    return code


def _pair(op, arg, value):
    """MindSpore's ``to_kernel_size``/``to_strides``: an int or a 4-tuple ``(1, 1, h, w)`` as ``(h, w)``."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    return value[2:] if len(value) == 4 else value


def _int_tuple(op, arg, value):
    """MindSpore's ``_normalize_int_sequence``: an int as a 1-tuple, a list as a tuple."""
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,)


def _output_size(op, arg, value):
    """An adaptive pool's ``output_size`` as MindSpore keeps it: an int ``h`` as ``(h, h)``, a kept input size
    (``None``) as -1 (its loader refuses a None inside the tuple)."""
    if isinstance(value, int):
        return (value, value)
    return tuple(-1 if v is None else v for v in value)


def _float(op, arg, value):
    return None if value is None else float(value)


_SCATTER_REDUCTIONS = {"none": 0, "add": 1}


def _scatter_reduction(op, arg, value):
    """TensorScatterElements numbers its reductions on their own: ``'none'`` 0, ``'add'`` 1."""
    code = _SCATTER_REDUCTIONS.get(str(value).lower())
    if code is None:
        raise MSValueError(f"For 'export', the '{arg}' of '{op}' is {value!r}, which MindSpore's MindIR loader does "
                           "not know.")
    return code


_CONVERTERS = {
    "enum": enum_of,
    "scatter_reduction": _scatter_reduction,
    "dtype": lambda op, arg, value: None if value is None else type_id(op, value),
    "pair": _pair,
    "output_size": _output_size,
    "tuple": _int_tuple,
    "float": _float,
}


class Fn:
    """A ``PRIMITIVE_FUNCTION``: node inputs are our inputs, then ``args`` (MindSpore's trailing arguments).

    ``args`` entries are an attribute name of our primitive (``"axis"``), ``"name:conv"`` to convert it
    (``enum``, ``dtype``, ``pair``, ``output_size``, ``tuple``, ``float``), or ``("=", value)`` for an argument
    we do not have.
    ``tensors`` are the indices (1-based, as in ``node.inputs``) of our inputs MindSpore takes as tensors,
    where a Python scalar becomes a 0-d tensor (``None``: all of them). ``inputs`` converts our inputs
    ``{index: conv}`` (``Cast``'s dtype). ``ms_name`` is MindSpore's name where it is not ours. ``attrs``: the
    primitive also keeps our attributes (MindSpore does so for a few operators, whose kernels read them).
    ``fix(op, attrs, ctx)`` rewrites (a copy of) our attributes before they become arguments (``ctx`` as for
    :class:`Prim`). ``same_dtype``: MindSpore's signature gives the tensor inputs one dtype group, and its graph
    casts a tensor of another dtype to the promoted one before the call (``Sub(Cast(x_int8, 43), mean)``), which
    its kernels need; our primitives promote inside, so the writer writes those ``Cast`` nodes.
    """

    kind = "PRIMITIVE_FUNCTION"

    def __init__(self, *args, tensors=None, inputs=None, ms_name=None, attrs=False, fix=None, same_dtype=False):
        self.args = args
        self.same_dtype = same_dtype
        self.tensors = tensors
        self.inputs = inputs or {}
        self.ms_name = ms_name
        self.attrs = attrs
        self.fix = fix

    def trailing(self, op, attrs):
        """MindSpore's trailing arguments from our primitive's attributes ``attrs``."""
        out = []
        for a in self.args:
            if isinstance(a, tuple):
                out.append(a[1])
                continue
            name, _, conv = a.partition(":")
            if name not in attrs:
                raise MSValueError(f"For 'export', the primitive '{op}' has no attribute '{name}' to write as its "
                                   "MindIR argument.")
            value = attrs[name]
            out.append(_CONVERTERS[conv](op, name, value) if conv else value)
        return out

    def convert_input(self, op, index, value):
        conv = self.inputs.get(index)
        return _CONVERTERS[conv](op, f"input {index}", value) if conv else value

    def is_tensor_input(self, index):
        return self.tensors is None or index in self.tensors


class Prim:
    """A ``PRIMITIVE``: node inputs are our inputs; configuration is primitive attributes.

    The attributes are ours with ``data_format`` written as ``format``, plus ``extra``, plus MindSpore's
    ``input_names``/``output_names`` (``io``) and what ``fix(attrs, ctx)`` computes (``ctx`` gives the
    node's input shapes, see the writer). ``ms_name`` is MindSpore's name where it is not ours. ``tensors``: the
    indices (1-based) of inputs MindSpore's kernel takes as tensors, where a Python scalar becomes a 0-d tensor
    of the other tensor's dtype. ``arity(attrs)``: how many of our inputs MindSpore's kernel is given (the rest,
    defaults it refuses to receive, are left out).
    """

    kind = "PRIMITIVE"

    def __init__(self, io=None, fix=None, ms_name=None, extra=None, tensors=(), arity=None):
        self.io = io
        self.fix = fix
        self.ms_name = ms_name
        self.extra = extra or {}
        self.tensors = tensors
        self.arity = arity

    def attributes(self, op, attrs, ctx):
        out = {}
        for k, v in attrs.items():
            out["format" if k == "data_format" else k] = v
        out.update(self.extra)
        if self.fix is not None:
            out = self.fix(op, out, ctx)
        if self.io is not None:
            out["input_names"] = list(self.io[0])
            out["output_names"] = list(self.io[1])
        return out


# --- attribute fixes of PRIMITIVE operators ------------------------------------------------------------------
def _max_pool_with_argmax(op, attrs, ctx):
    """MindSpore's ``MaxPoolWithArgmax`` keeps ``kernel_size``/``strides`` as ``(1, h, w, 1)``, with copies
    ``ksize`` and ``padding`` (read off a file 2.10 wrote)."""
    for name in ("kernel_size", "strides"):
        value = tuple(attrs[name])
        attrs[name] = (1, value[-2], value[-1], 1)
    attrs["ksize"] = attrs["kernel_size"]
    attrs["padding"] = attrs["pad_mode"]
    attrs["data_format"] = attrs["format"]
    return attrs


def _nchw(op, attrs, ctx):
    attrs["format"] = attrs["data_format"] = "NCHW"
    return attrs


def _conv_pad_list(op, attrs, ctx):
    """Conv2D's ``pad_list`` (top, bottom, left, right), which MindSpore computes at compile time."""
    attrs["pad_list"] = ctx.conv_pad_list()
    return attrs


def _conv_backprop_pad_list(op, attrs, ctx):
    attrs["pad_list"] = ctx.conv_pad_list(backprop=True)
    return attrs


def _conv3d(op, attrs, ctx):
    """MindSpore's Conv3D keeps the 5-tuples as ``strides``/``dilations`` and an ``offset_x``."""
    attrs["strides"] = attrs.get("stride")
    attrs["dilations"] = attrs.get("dilation")
    attrs["offset_x"] = 0
    return attrs


def _adaptive_pool(op, attrs, ctx):
    attrs["output_size"] = _output_size(op, "output_size", attrs["output_size"])
    return attrs


def _split_sizes(op, attrs, ctx):
    """MindSpore's SplitWithSize takes the sizes themselves (a -1 for "the rest" gives wrong pieces there)."""
    sizes = tuple(attrs["size_splits"])
    if -1 in sizes:
        shape = ctx.input_shape(1)
        dim = shape[attrs["split_dim"] % len(shape)]
        if not isinstance(dim, int):
            raise ctx.writer.error(ctx.node, "its 'size_splits' has a -1 (the rest of a dimension of unknown size), "
                                             "which MindSpore's SplitWithSize can not take")
        attrs["size_splits"] = tuple(dim - (sum(sizes) + 1) if s == -1 else s for s in sizes)
    return attrs


def _pad_v3_arity(attrs):
    """PadV3's kernel refuses a constant_value in its 'reflect', 'edge' and 'circular' modes."""
    return 3 if attrs.get("mode", "constant") == "constant" else 2


def _stack(op, attrs, ctx):
    n = ctx.tuple_len(1)
    attrs["num"] = n
    attrs["N"] = n
    return attrs


def _unstack(op, attrs, ctx):
    if attrs.get("num") is None:
        shape = ctx.input_shape(1)
        attrs["num"] = shape[attrs["axis"] % len(shape)]
    return attrs


def _axis_list(op, attrs, ctx):
    axis = attrs["axis"]
    attrs["axis"] = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    return attrs


def _pool3d(op, attrs, ctx):
    """MindSpore's 3-D pools spell the pad mode in capitals and keep an unset ``ceil_mode`` as 0."""
    attrs["pad_mode"] = str(attrs["pad_mode"]).upper()
    if attrs.get("ceil_mode", False) is None:
        attrs["ceil_mode"] = 0
    return attrs


# --- the table ----------------------------------------------------------------------------------------------
_X_Y = (["x"], ["y"])
_X_OUT = (["x"], ["output"])
_XY_OUT = (["x", "y"], ["output"])
_X1X2_Y = (["x1", "x2"], ["y"])

_UNARY = ("ACos Abs Acosh Asin Asinh Atan Atanh Ceil Cos Cosh Erf Erfc Erfinv Exp Expm1 FastGeLU Floor GeLU "
          "HSigmoid HSwish Identity IsFinite IsInf Log Log1p LogicalNot Neg OnesLike ReLU ReLU6 Reciprocal Rsqrt "
          "Sigmoid Sign Sin Sinc Sinh Sqrt Square Tan Tanh Trunc ZerosLike Flatten NonZero").split()
_BINARY = ("Add Sub Mul Div RealDiv FloorDiv FloorMod Pow Maximum Minimum Atan2 Xlogy Gcd Equal NotEqual Greater "
           "GreaterEqual Less LessEqual LogicalAnd LogicalOr LogicalXor").split()

TABLE = {name: Fn() for name in _UNARY}
TABLE.update({name: Fn(same_dtype=True) for name in _BINARY})
TABLE.update({
    # tensor inputs, then MindSpore's trailing arguments
    "Addcdiv": Fn(), "Addcmul": Fn(), "Lerp": Fn(), "PReLU": Fn(), "Select": Fn(), "MaskedFill": Fn(),
    "MaskedSelect": Fn(), "GatherNd": Fn(), "TensorScatterAdd": Fn(),
    "AddN": Fn(tensors=()),
    "AdaptiveMaxPool2D": Fn("output_size:output_size", tensors=(1,)),
    "ArgMaxWithValue": Fn("axis", "keep_dims", tensors=(1,)),
    "ArgMinWithValue": Fn("axis", "keep_dims", tensors=(1,)),
    "Argmax": Fn("axis", "output_type:dtype", tensors=(1,)),
    "Argmin": Fn("axis", "output_type:dtype", tensors=(1,)),
    "AvgPool": Fn("kernel_size:pair", "strides:pair", "pad_mode:enum", "data_format:enum", tensors=(1,)),
    "BCEWithLogitsLoss": Fn("reduction:enum"),
    "BatchMatMul": Fn("transpose_a", "transpose_b"),
    "MatMul": Fn("transpose_a", "transpose_b"),
    "BatchNorm": Fn("is_training", "epsilon:float", "momentum:float", "data_format:enum"),
    "BiasAdd": Fn("data_format:enum"),
    "BinaryCrossEntropy": Fn("reduction:enum"),
    "BroadcastTo": Fn("shape:tuple", tensors=(1,)),
    "Cast": Fn(tensors=(1,), inputs={2: "dtype"}),
    "CeLU": Fn("alpha:float"),
    "Elu": Fn("alpha:float"),
    "Concat": Fn("axis", tensors=()),
    "CumProd": Fn("exclusive", "reverse", tensors=(1,)),
    "CumSum": Fn("exclusive", "reverse", tensors=(1,)),
    "Cummax": Fn("axis"),
    "Cummin": Fn("axis"),
    "ExpandDims": Fn(tensors=(1,)),
    "Gather": Fn("batch_dims", tensors=(1, 2)),
    "GatherD": Fn(tensors=(1, 3)),
    "HShrink": Fn("lambd:float"),
    "SoftShrink": Fn("lambd:float"),
    "IsClose": Fn("rtol:float", "atol:float", "equal_nan"),
    "LayerNorm": Fn("begin_norm_axis", "begin_params_axis", "epsilon:float"),
    "LogSoftmax": Fn("axis"),
    "Meshgrid": Fn("indexing:enum", tensors=()),
    "NLLLoss": Fn("reduction:enum", "ignore_index"),
    "NanToNum": Fn("nan:float", "posinf:float", "neginf:float"),
    "OneHot": Fn("axis", tensors=(1, 3, 4)),
    "ReduceAll": Fn("keep_dims", tensors=(1,)),
    "ReduceAny": Fn("keep_dims", tensors=(1,)),
    "ReduceMax": Fn("keep_dims", tensors=(1,)),
    "ReduceMean": Fn("keep_dims", tensors=(1,)),
    "ReduceMin": Fn("keep_dims", tensors=(1,)),
    "ReduceProd": Fn("keep_dims", tensors=(1,)),
    "ReduceSum": Fn("keep_dims", ("=", False), tensors=(1,)),
    "ReduceStd": Fn("axis:tuple", "unbiased", "keep_dims"),
    "Reshape": Fn(tensors=(1,)),
    "ResizeBilinearV2": Fn("align_corners", "half_pixel_centers", tensors=(1,)),
    "ResizeNearestNeighbor": Fn("size:tuple", "align_corners", ("=", False)),
    "ReverseV2": Fn("axis:tuple"),
    "Round": Fn(tensors=(1,)),
    "ScatterNd": Fn(tensors=(1, 2)),
    "Slice": Fn(tensors=(1,)),
    "SmoothL1Loss": Fn("beta:float", "reduction:enum"),
    "Softmax": Fn("axis:tuple"),
    "Split": Fn("axis", "output_num"),
    "Squeeze": Fn("axis:tuple"),
    "StridedSlice": Fn("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask",
                       tensors=(1,)),
    "TensorScatterElements": Fn("axis", "reduction:scatter_reduction", attrs=True),
    # MindSpore's CPU backend has no SplitV kernel; SplitWithSize is the same split
    "SplitV": Fn("size_splits:tuple", "split_dim", tensors=(1,), ms_name="SplitWithSize", fix=_split_sizes),
    "Tile": Fn(tensors=(1,)),
    "Transpose": Fn(tensors=(1,)),
    "Triu": Fn("diagonal"),

    # PRIMITIVE: attributes
    "AdaptiveAvgPool2D": Prim(_X_Y, fix=_adaptive_pool),
    "BitwiseAnd": Prim(_X1X2_Y), "BitwiseOr": Prim(_X1X2_Y), "BitwiseXor": Prim(_X1X2_Y),
    "Conv2D": Prim((["x", "w"], ["output"]), fix=_conv_pad_list),
    "Conv2DBackpropInput": Prim((["out_backprop", "filter", "input_sizes"], ["output"]), fix=_conv_backprop_pad_list),
    "Conv2DTranspose": Prim((["out_backprop", "filter", "input_sizes"], ["output"]), fix=_conv_backprop_pad_list),
    "Conv3D": Prim((["x", "w"], ["output"]), fix=_conv3d),
    "Depend": Prim(extra={"side_effect_propagate": 1}),
    "DivNoNan": Prim(_X1X2_Y),
    "Einsum": Prim((["inputs"], ["output"])),
    "Heaviside": Prim((["x", "values"], ["y"])),
    "Hypot": Prim(_X1X2_Y),
    "Invert": Prim(_X_Y),
    "IsNan": Prim(_X_OUT),
    "KLDivLoss": Prim(),
    "L2Loss": Prim(),
    "L2Normalize": Prim(fix=_axis_list),
    "Lcm": Prim(_X1X2_Y),
    "MaxPool": Prim(_X_OUT),
    "MaxPoolWithArgmax": Prim((["x"], ["output", "mask"]), fix=_max_pool_with_argmax),
    "DepthToSpace": Prim(_X_Y, fix=_nchw),
    "MaxPool3D": Prim(_X_OUT, fix=_pool3d),
    "AvgPool3D": Prim((["input"], ["output"]), fix=_pool3d),
    "Mish": Prim(_X_OUT),
    "Mod": Prim(_XY_OUT),
    "Pad": Prim(_X_Y),
    # a default constant_value (Python 0) must reach the kernel as a tensor of x's dtype
    "PadV3": Prim((["x", "paddings", "constant_value"], ["y"]), tensors=(3,), arity=_pad_v3_arity),
    "LpNorm": Prim((["input"], ["output"]), fix=_axis_list),
    "SeLU": Prim((["input_x"], ["output"])),
    "SigmoidCrossEntropyWithLogits": Prim((["predict", "target"], ["loss"])),
    "SoftmaxCrossEntropyWithLogits": Prim(),
    "SparseSoftmaxCrossEntropyWithLogits": Prim((["features", "labels"], ["output"]), extra={"sens": 1.0}),
    "Softplus": Prim(_X_OUT),
    "Softsign": Prim(_X_OUT),
    "Sort": Prim((["x"], ["y1", "y2"])),
    "SquaredDifference": Prim(_XY_OUT),
    "Stack": Prim(_X_Y, fix=_stack),
    "StopGradient": Prim(),
    "TensorScatterUpdate": Prim((["input_x", "indices", "updates"], ["y"])),
    "TopK": Prim((["input", "k"], ["values", "indices"])),
    "Tril": Prim(_X_Y),
    "TruncateDiv": Prim(_XY_OUT),
    "TruncateMod": Prim(_XY_OUT),
    "Unique": Prim(_X_OUT),
    "Unstack": Prim(_X_Y, fix=_unstack),
})


def spec_of(prim):
    """The :class:`Fn`/:class:`Prim` of primitive instance ``prim``, or ``None`` when it has no MindIR form."""
    module = type(prim).__module__ or ""
    if not module.startswith("mindspore.ops"):
        return None
    return TABLE.get(getattr(prim, "name", None))
