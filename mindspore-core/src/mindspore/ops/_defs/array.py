"""Array primitives: casts, shape manipulation, joining/splitting, creation, in-place assignment.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or
``NON_DIFFERENTIABLE``). Kernels live in the backends' ``kernels/array.py``. Gather/scatter,
slicing, sorting and selection live in the sibling family :mod:`mindspore.ops._defs.indexing`.

Helpers decorated with ``constexpr`` compute on shapes and attributes only (compile-time constants),
so bprops that call them stay in the graph-mode subset.
"""
import math as _pymath

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, TensorSpec, constexpr, prim_attr_register

_ANY_RANK = range(0, 9)
_PRIM_CACHE = {}


def cached_prim(cls, *attrs):
    """One shared instance of ``cls(*attrs)``, so its dispatch cache is reused across calls."""
    key = (cls, attrs)
    try:
        prim = _PRIM_CACHE.get(key)
    except TypeError:  # an unhashable attribute (a list...): no sharing, the constructor validates it
        return cls(*attrs)
    if prim is None:
        if len(_PRIM_CACHE) > 4096:
            _PRIM_CACHE.clear()
        prim = cls(*attrs)
        _PRIM_CACHE[key] = prim
    return prim


def _tensor_seq(op, xs, name="tensors"):
    """Validate a tuple of tensor shapes (or dtypes) given as one argument."""
    if not isinstance(xs, (tuple, list)) or not xs or not all(
            isinstance(x, mstype.Type) or rules.is_shape(x) for x in xs):
        def kind(v):
            return "Tensor" if isinstance(v, mstype.Type) else type(v).__name__
        shown = kind(xs) if not isinstance(xs, (tuple, list)) else "(" + ", ".join(kind(x) for x in xs) + ")"
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple or list of Tensors, but got {shown}.")
    return tuple(xs)


def _same_dtypes(op, dtypes):
    for d in dtypes:
        if not isinstance(d, mstype.Type):
            raise MSTypeError(f"For '{op}', every element of the input must be a Tensor, but got {d!r}.")
    if any(d is not dtypes[0] for d in dtypes):
        raise MSTypeError(f"For '{op}', all input tensors must have the same dtype, but got "
                          f"{[str(d) for d in dtypes]}.")
    return dtypes[0]


@constexpr
def invert_perm(perm):
    """The permutation that undoes ``perm``."""
    out = [0] * len(perm)
    for i, p in enumerate(perm):
        out[p % len(perm)] = i
    return tuple(out)


# --- Cast -----------------------------------------------------------------------------------
class Cast(Primitive):
    """``Cast()(x, dtype)``: ``x`` converted to ``dtype``; a Python number gives a 0-d Tensor, as in MindSpore
    (``Cast()(2.0, mstype.float16)`` is ``Tensor(2.0, float16)``)."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, dtype):
        if rules.is_scalar(x):
            return ()
        return rules.check_rank(self.name, "input_x", x, _ANY_RANK)

    def infer_dtype(self, x, dtype):
        if not isinstance(dtype, mstype.Type) or dtype.to_numpy() is None:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be a numeric MindSpore dtype, but got {dtype!r}.")
        return dtype

    def bprop(self, x, dtype, out, dout):
        if rules.is_scalar(x):
            return None, None
        return fops.cast(dout, x.dtype), None


# --- CastMany -------------------------------------------------------------------------------
class CastMany(Primitive):
    """``CastMany()(inputs, dtypes)``: every Tensor of ``inputs`` (a tuple or list) converted to its dtype in
    ``dtypes`` (a tuple or list of as many numeric dtypes, or one dtype for all), as a tuple.

    Not a MindSpore operator: amp's parameter casts as one operator call (``amp.auto_mixed_precision`` under
    PYNATIVE casts every low-precision cell's float32 parameters at once, where a ``Cast`` per parameter cost a
    ResNet step 49 operator calls). Each output is what ``Cast()(inputs[i], dtypes[i])`` gives; so are the
    gradients, cast back to each input's dtype."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def _dtypes(self, n, dtypes):
        if isinstance(dtypes, mstype.Type):
            dtypes = (dtypes,) * n
        if not isinstance(dtypes, (tuple, list)) or len(dtypes) != n:
            raise MSValueError(f"For '{self.name}', the 'dtypes' must be one dtype or a tuple of {n} dtypes, one per "
                               f"input, but got {dtypes!r}.")
        for i, d in enumerate(dtypes):
            if not isinstance(d, mstype.Type) or d.to_numpy() is None:
                raise MSTypeError(f"For '{self.name}', every element of 'dtypes' must be a numeric MindSpore dtype, "
                                  f"but got {d!r} at position {i}.")
        return tuple(dtypes)

    def infer_shape(self, inputs, dtypes):
        return tuple(tuple(x) for x in _tensor_seq(self.name, inputs, "inputs"))

    def infer_dtype(self, inputs, dtypes):
        inputs = _tensor_seq(self.name, inputs, "inputs")
        for i, d in enumerate(inputs):
            if not isinstance(d, mstype.Type):
                raise MSTypeError(f"For '{self.name}', every element of 'inputs' must be a Tensor, but got "
                                  f"{type(d).__name__} at position {i}.")
        return self._dtypes(len(inputs), dtypes)

    def bprop(self, inputs, dtypes, out, dout):
        return cached_prim(CastMany)(dout, _dtypes_of(inputs)), None


@constexpr
def _dtypes_of(tensors):
    return tuple(t.dtype for t in tensors)


# --- Reshape --------------------------------------------------------------------------------
class Reshape(Primitive):
    """``Reshape()(x, shape)``; one ``-1`` in ``shape`` is inferred."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    value_inputs = {1: "shape"}

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, shape):
        return resolve_reshape(self.name, x, shape)

    def infer_dtype(self, x, shape):
        return x

    def bprop(self, x, shape, out, dout):
        return fops.reshape(dout, x.shape), None


def resolve_reshape(op, x_shape, shape):
    shape = rules.check_int_tuple(op, "shape", shape)
    size = _pymath.prod(x_shape)
    if shape.count(-1) > 1:
        raise MSValueError(f"For '{op}', at most one dimension of 'shape' can be -1, but got {shape}.")
    if any(s < -1 for s in shape):
        raise MSValueError(f"For '{op}', each dimension of 'shape' must be -1 or non-negative, but got {shape}.")
    if -1 in x_shape:   # an input whose shape is known only when the graph runs: the kernel checks the size then
        return shape
    if -1 in shape:
        known = _pymath.prod(s for s in shape if s != -1)
        if known == 0 or size % known:
            raise MSValueError(f"For '{op}', the product of the shape of 'input_x' should be equal to product of "
                               f"'input_shape', but got 'input_x' shape {tuple(x_shape)} and 'input_shape' {shape}.")
        shape = tuple(size // known if s == -1 else s for s in shape)
    if _pymath.prod(shape) != size:
        raise MSValueError(f"For '{op}', the product of the shape of 'input_x' should be equal to product of "
                           f"'input_shape', but got 'input_x' shape {tuple(x_shape)} and 'input_shape' {shape}.")
    return shape


# --- Transpose ------------------------------------------------------------------------------
class Transpose(Primitive):
    """``Transpose()(x, perm)``: the axes of ``x`` permuted; output axis ``i`` is input axis ``perm[i]``."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, perm):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        perm = check_perm(self.name, perm, len(x))
        return tuple(x[p] for p in perm)

    def infer_dtype(self, x, perm):
        return x

    def bprop(self, x, perm, out, dout):
        return fops.transpose(dout, invert_perm(check_perm(self.name, perm, len(x.shape)))), None


def check_perm(op, perm, ndim):
    perm = rules.check_int_tuple(op, "input_perm", perm)
    if len(perm) != ndim:
        raise MSValueError(f"For '{op}', the size of 'input_perm' and the dimension of 'input_x' must be equal, "
                           f"but got {len(perm)} and {ndim}.")
    norm = tuple(rules.check_axis(op, p, ndim, "input_perm") for p in perm)
    if sorted(norm) != list(range(ndim)):
        raise MSValueError(f"For '{op}', the 'input_perm' must be a permutation of range({ndim}), but got {perm}.")
    return norm


# --- Concat ---------------------------------------------------------------------------------
class Concat(Primitive):
    """``Concat(axis)((x1, x2, ...))``: tensors joined along an existing ``axis``."""

    @prim_attr_register
    def __init__(self, axis=0):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, xs):
        xs = _tensor_seq(self.name, xs)
        ndim = len(xs[0])
        axis = rules.check_axis(self.name, self.axis, ndim)
        for i, s in enumerate(xs):
            if len(s) != ndim or any(a != b for d, (a, b) in enumerate(zip(s, xs[0])) if d != axis):
                raise MSValueError(f"For '{self.name}', the shape of every input must be the same except along "
                                   f"'axis' {self.axis}, but got input[0] shape {tuple(xs[0])} and input[{i}] shape "
                                   f"{tuple(s)}.")
        return tuple(xs[0][:axis]) + (sum(s[axis] for s in xs),) + tuple(xs[0][axis + 1:])

    def infer_dtype(self, xs):
        return _same_dtypes(self.name, _tensor_seq(self.name, xs))

    def bprop(self, xs, out, dout):
        axis = self.axis % len(dout.shape)
        sizes = _dims_at(xs, axis)
        return (cached_prim(SplitV, sizes, axis, len(sizes))(dout),)


@constexpr
def _dims_at(tensors, axis):
    return tuple(t.shape[axis] for t in tensors)


# --- SplitV ---------------------------------------------------------------------------------
class SplitV(Primitive):
    """``SplitV(size_splits, split_dim, num_split)(x)``: ``x`` cut into pieces of the given sizes."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self, size_splits, split_dim, num_split):
        rules.check_int_tuple(self.name, "size_splits", size_splits)
        rules.check_int(self.name, "split_dim", split_dim)
        rules.check_positive_int(self.name, "num_split", num_split)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        axis = rules.check_axis(self.name, self.split_dim, len(x), "split_dim")
        sizes = resolve_split_sizes(self.name, self.size_splits, x[axis], self.num_split)
        return tuple(tuple(x[:axis]) + (s,) + tuple(x[axis + 1:]) for s in sizes)

    def infer_dtype(self, x):
        return (x,) * self.num_split

    def bprop(self, x, out, dout):
        return (cached_prim(Concat, self.split_dim)(dout),)


def resolve_split_sizes(op, sizes, dim, num):
    sizes = tuple(sizes)
    if len(sizes) != num:
        raise MSValueError(f"For '{op}', the length of 'size_splits' must be equal to 'num_split' {num}, "
                           f"but got {len(sizes)}.")
    if sizes.count(-1) > 1 or any(s < -1 for s in sizes):
        raise MSValueError(f"For '{op}', 'size_splits' must be non-negative with at most one -1, but got {sizes}.")
    if -1 in sizes:
        sizes = tuple(dim - (sum(sizes) + 1) if s == -1 else s for s in sizes)
    if sum(sizes) != dim or any(s < 0 for s in sizes):
        raise MSValueError(f"For '{op}', the sum of 'size_splits' must be equal to the dimension being split "
                           f"{dim}, but got {sizes}.")
    return sizes


# --- Split ----------------------------------------------------------------------------------
class Split(Primitive):
    """``Split(axis, output_num)(x)``: ``x`` cut into ``output_num`` equal pieces along ``axis``."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self, axis=0, output_num=1):
        rules.check_int(self.name, "axis", axis)
        rules.check_positive_int(self.name, "output_num", output_num)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        axis = rules.check_axis(self.name, self.axis, len(x))
        if x[axis] % self.output_num:
            raise MSValueError(f"For '{self.name}', x_shape[{axis}] must be divisible by output_num = "
                               f"{self.output_num}, but got {x[axis]}.")
        piece = tuple(x[:axis]) + (x[axis] // self.output_num,) + tuple(x[axis + 1:])
        return (piece,) * self.output_num

    def infer_dtype(self, x):
        return (x,) * self.output_num

    def bprop(self, x, out, dout):
        return (cached_prim(Concat, self.axis)(dout),)


# --- Stack ----------------------------------------------------------------------------------
class Stack(Primitive):
    """``Stack(axis)((x1, x2, ...))``: same-shaped tensors joined along a new ``axis``."""

    @prim_attr_register
    def __init__(self, axis=0):
        rules.check_int(self.name, "axis", axis)

    def infer_shape(self, xs):
        xs = _tensor_seq(self.name, xs, "input_x")
        for i, s in enumerate(xs):
            if tuple(s) != tuple(xs[0]):
                raise MSValueError(f"For '{self.name}', all input shapes must be the same, but got input[0] shape "
                                   f"{tuple(xs[0])} and input[{i}] shape {tuple(s)}.")
        axis = rules.check_axis(self.name, self.axis, len(xs[0]) + 1)
        return tuple(xs[0][:axis]) + (len(xs),) + tuple(xs[0][axis:])

    def infer_dtype(self, xs):
        return _same_dtypes(self.name, _tensor_seq(self.name, xs, "input_x"))

    def bprop(self, xs, out, dout):
        axis = self.axis % len(dout.shape)
        return (cached_prim(Unstack, axis, len(xs))(dout),)


# --- Unstack --------------------------------------------------------------------------------
class Unstack(Primitive):
    """``Unstack(axis, num=None)(x)``: the slices of ``x`` along ``axis``, as a tuple."""

    @prim_attr_register
    def __init__(self, axis=0, num=None):
        rules.check_int(self.name, "axis", axis)
        if num is not None:
            rules.check_positive_int(self.name, "num", num)

    def __call__(self, x):
        if self.num is None and hasattr(x, "shape") and x.shape:
            # The number of outputs is part of the signature: resolve it from the input shape.
            axis = rules.check_axis(self.name, self.axis, len(x.shape))
            return cached_prim(Unstack, self.axis, x.shape[axis])(x)
        return super().__call__(x)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        axis = rules.check_axis(self.name, self.axis, len(x))
        if self.num is not None and self.num != x[axis]:
            raise MSValueError(f"For '{self.name}', the 'num' must be equal to x_shape[{axis}] {x[axis]}, "
                               f"but got {self.num}.")
        return (tuple(x[:axis]) + tuple(x[axis + 1:]),) * x[axis]

    def infer_dtype(self, x):
        return (x,) * (self.num or 0)

    def bprop(self, x, out, dout):
        return (cached_prim(Stack, self.axis)(dout),)



# --- ExpandDims -----------------------------------------------------------------------------
class ExpandDims(Primitive):
    """``ExpandDims()(x, axis)``: ``x`` with a new dimension of size 1 at ``axis``."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, axis):
        rules.check_rank(self.name, "input_x", x, range(0, 8))
        axis = rules.check_axis(self.name, axis, len(x) + 1)
        return tuple(x[:axis]) + (1,) + tuple(x[axis:])

    def infer_dtype(self, x, axis):
        return x

    def bprop(self, x, axis, out, dout):
        return fops.reshape(dout, x.shape), None


# --- Squeeze --------------------------------------------------------------------------------
class Squeeze(Primitive):
    """``Squeeze(axis=())(x)``: size-1 dimensions removed (all of them when ``axis`` is empty)."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self, axis=()):
        self.add_prim_attr("axis", rules.check_int_tuple(self.name, "axis", axis))

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        if not self.axis:
            return tuple(s for s in x if s != 1)
        # as MindSpore 2.10 (and torch.squeeze): a named axis whose size is not 1 is left in place
        axes = set()
        for a in self.axis:
            a = rules.check_axis(self.name, a, len(x))
            if x[a] == 1:
                axes.add(a)
        return tuple(s for i, s in enumerate(x) if i not in axes)

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (fops.reshape(dout, x.shape),)


# --- Flatten --------------------------------------------------------------------------------
class Flatten(Primitive):
    """``Flatten()(x)``: ``x`` reshaped to ``(N, -1)``, keeping dimension 0."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 9))
        return (x[0], _pymath.prod(x[1:]))

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (fops.reshape(dout, x.shape),)


# --- Tile -----------------------------------------------------------------------------------
class Tile(Primitive):
    """``Tile()(x, multiples)``: ``x`` repeated ``multiples[i]`` times along each axis."""

    value_inputs = {1: "multiples"}

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, multiples):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        multiples = rules.check_int_tuple(self.name, "multiples", multiples)
        if any(m < 0 for m in multiples):
            raise MSValueError(f"For '{self.name}', each element of 'multiples' must be non-negative, but got "
                               f"{multiples}.")
        if len(multiples) < len(x):
            multiples = (1,) * (len(x) - len(multiples)) + multiples
        shape = (1,) * (len(multiples) - len(x)) + tuple(x)
        return tuple(s * m for s, m in zip(shape, multiples))

    def infer_dtype(self, x, multiples):
        return x

    def bprop(self, x, multiples, out, dout):
        split_shape, axes = _tile_grad_plan(tuple(x.shape), tuple(multiples))
        if not axes:            # nothing tiled (an empty axis list would sum everything)
            return fops.reshape(dout, x.shape), None
        g = fops.reduce_sum(fops.reshape(dout, split_shape), axes)
        return fops.reshape(g, x.shape), None


@constexpr
def _tile_grad_plan(shape, multiples):
    """``(split shape, axes)``: ``dout`` reshaped to (multiple, size) pairs for the tiled axes, the untiled axes
    between them merged into one, and the axes of the multiples the gradient sums over. (Only tiled axes are split,
    so a 5-D or larger input tiled along one or two axes stays within ReduceSum's eight dimensions.)"""
    rank = max(len(shape), len(multiples))
    shape = (1,) * (rank - len(shape)) + shape
    multiples = (1,) * (rank - len(multiples)) + multiples
    split, axes, run = [], [], None
    for m, s in zip(multiples, shape):
        if m == 1:
            run = s if run is None else run * s
            continue
        if run is not None:
            split.append(run)
            run = None
        axes.append(len(split))
        split += [m, s]
    if run is not None:
        split.append(run)
    return tuple(split), tuple(axes)


# --- BroadcastTo ----------------------------------------------------------------------------
class BroadcastTo(Primitive):
    """``BroadcastTo(shape)(x)``: ``x`` broadcast to ``shape`` (``-1`` keeps ``x``'s dimension)."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: a view or a cast of its input, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self, shape):
        rules.check_int_tuple(self.name, "shape", shape)

    def infer_shape(self, x):
        target = tuple(self.shape)
        if len(target) < len(x):
            raise MSValueError(f"For '{self.name}', the rank of 'shape' must be at least the rank of 'input_x', "
                               f"but got shape {target} and input_x shape {tuple(x)}.")
        lead = len(target) - len(x)
        out = []
        for i, t in enumerate(target):
            s = x[i - lead] if i >= lead else 1
            if t == -1:
                if i < lead:
                    raise MSValueError(f"For '{self.name}', -1 is not allowed in a leading dimension of 'shape', "
                                       f"but got {target}.")
                t = s
            if s != 1 and s != t:
                raise MSValueError(f"For '{self.name}', in order to broadcast, each dimension pair must be equal or "
                                   f"input dimension is 1 or target dimension is -1, but got input_x shape "
                                   f"{tuple(x)} and shape {target}.")
            out.append(t)
        return tuple(out)

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (dout,)  # the autodiff engine sums dout back to x's shape


# --- Shape / DType / Rank / Size (compile-time values) ---------------------------------------
class _ValueOfSpec(Primitive):
    """A primitive whose result is a Python value computed from the input's abstract value."""

    @prim_attr_register
    def __init__(self):
        pass

    def _spec(self, x):
        if not isinstance(x, TensorSpec):
            raise MSTypeError(f"For '{self.name}', the input 'input_x' must be a Tensor, but got "
                              f"{type(x).__name__}.")
        return x

    bprop = NON_DIFFERENTIABLE


class Shape(_ValueOfSpec):
    """``Shape()(x)``: the shape of ``x`` as a tuple of ints."""

    def infer_value(self, x):
        return self._spec(x).shape

    bprop = NON_DIFFERENTIABLE


class DType(_ValueOfSpec):
    """``DType()(x)``: the dtype of ``x``."""

    def infer_value(self, x):
        return self._spec(x).dtype

    bprop = NON_DIFFERENTIABLE


class Rank(_ValueOfSpec):
    """``Rank()(x)``: the number of dimensions of ``x``."""

    def infer_value(self, x):
        return len(self._spec(x).shape)

    bprop = NON_DIFFERENTIABLE


class Size(_ValueOfSpec):
    """``Size()(x)``: the number of elements of ``x``."""

    def infer_value(self, x):
        return _pymath.prod(self._spec(x).shape)

    bprop = NON_DIFFERENTIABLE


# --- ZerosLike ------------------------------------------------------------------------------
class ZerosLike(Primitive):
    """A tensor of zeros with ``x``'s shape and dtype."""
    mixed_precision_cast = False   # (PYNATIVE Cell.to_float: reads only its input's shape and dtype, as 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, _ANY_RANK)

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    bprop = NON_DIFFERENTIABLE


# --- OnesLike -------------------------------------------------------------------------------
class OnesLike(ZerosLike):
    """A tensor of ones with ``x``'s shape and dtype."""

    bprop = NON_DIFFERENTIABLE


# --- Fill -----------------------------------------------------------------------------------
class Fill(Primitive):
    """``Fill()(dtype, shape, value)``: a tensor of ``shape`` filled with ``value``."""

    float32_numbers = False     # ops.full(shape, 0.1, float64) holds the double 0.1, as in 2.10

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, dtype, shape, value):
        return check_shape_arg(self.name, "dims", shape)

    def infer_dtype(self, dtype, shape, value):
        if not isinstance(dtype, mstype.Type):
            raise MSTypeError(f"For '{self.name}', the 'type' must be a MindSpore dtype, but got {dtype!r}.")
        if not (rules.is_scalar(value) or isinstance(value, mstype.Type)):
            raise MSTypeError(f"For '{self.name}', the 'value' must be a number or 0-d Tensor, but got "
                              f"{type(value).__name__}.")
        return dtype

    bprop = NON_DIFFERENTIABLE


def check_shape_arg(op, name, shape):
    shape = rules.check_int_tuple(op, name, shape)
    if any(s < 0 for s in shape):
        raise MSValueError(f"For '{op}', each dimension of '{name}' must be non-negative, but got {shape}.")
    return shape


def _check_dtype_arg(op, dtype):
    if not isinstance(dtype, mstype.Type) or dtype.to_numpy() is None:
        raise MSTypeError(f"For '{op}', the 'dtype' must be a MindSpore numeric dtype, but got {dtype!r}.")
    return dtype


# --- Zeros ----------------------------------------------------------------------------------
class Zeros(Primitive):
    """``Zeros()(size, dtype=None)``: a tensor of zeros (Float32 unless ``dtype`` is given)."""

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, size, dtype=None):
        return super().__call__(size, mstype.float32 if dtype is None else dtype)

    def infer_shape(self, size, dtype):
        return check_shape_arg(self.name, "size", size)

    def infer_dtype(self, size, dtype):
        return _check_dtype_arg(self.name, dtype)

    bprop = NON_DIFFERENTIABLE


# --- Ones -----------------------------------------------------------------------------------
class Ones(Zeros):
    """``Ones()(shape, dtype=None)``: a tensor of ones (Float32 unless ``dtype`` is given)."""

    bprop = NON_DIFFERENTIABLE


# --- Eye ------------------------------------------------------------------------------------
class Eye(Primitive):
    """``Eye()(n, m, dtype)``: an ``n`` x ``m`` matrix with ones on the diagonal."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, n, m, dtype):
        return check_shape_arg(self.name, "shape", (n, m))

    def infer_dtype(self, n, m, dtype):
        return _check_dtype_arg(self.name, dtype)

    bprop = NON_DIFFERENTIABLE


# --- Range ----------------------------------------------------------------------------------
class Range(Primitive):
    """``Range(maxlen=1000000)(start, limit, delta)``: ``start, start + delta, ...`` up to ``limit``."""

    @prim_attr_register
    def __init__(self, maxlen=1000000):
        rules.check_positive_int(self.name, "maxlen", maxlen)

    def infer_shape(self, start, limit, delta):
        if not all(rules.is_scalar(v) for v in (start, limit, delta)):
            return (-1,)  # tensor bounds: the length is only known when the kernel runs
        return (range_length(self.name, start, limit, delta, self.maxlen),)

    def infer_dtype(self, start, limit, delta):
        # as 2.10: each input counts as the Python number it holds (a tensor by its value), Int64 for an integer,
        # Float32 for a float, Bool for a bool; the three must agree, and the output has that type
        kinds = []
        for a in (start, limit, delta):
            if isinstance(a, mstype.Type):
                kind = mstype.bool_ if a is mstype.bool_ else mstype.float32 if mstype.is_float(a) else \
                    mstype.int64 if mstype.is_int(a) else None
            elif isinstance(a, bool):
                kind = mstype.bool_
            elif rules.is_scalar(a) and not isinstance(a, complex):
                kind = mstype.float32 if isinstance(a, float) else mstype.int64
            else:
                kind = None
            if kind is None:
                raise MSTypeError(f"For '{self.name}', 'start', 'limit' and 'delta' must be int, float or Tensor, "
                                  f"but got {a!r}.")
            kinds.append(kind)
        if any(k is not kinds[0] for k in kinds):
            raise MSTypeError(f"For Range, the dtypes of inputs must be the same, but got "
                              f"({', '.join(k.name for k in kinds)}).")   # not str(): libraries re-define it
        if kinds[0] is mstype.bool_:
            raise MSTypeError(f"For '{self.name}', 'start', 'limit' and 'delta' must be int, float or Tensor, "
                              f"but got {start!r}.")
        return kinds[0]

    bprop = NON_DIFFERENTIABLE


def range_length(op, start, limit, delta, maxlen):
    if delta == 0:
        raise MSValueError(f"For '{op}', the 'delta' can not be equal to zero.")
    if (limit - start) * delta < 0:
        raise MSValueError(f"For '{op}', the 'delta' must have the same sign as 'limit' - 'start', but got "
                           f"start={start}, limit={limit}, delta={delta}.")
    n = int(_pymath.ceil((limit - start) / delta))
    if n > maxlen:
        raise MSValueError(f"For '{op}', the number of elements {n} must not exceed 'maxlen' {maxlen}.")
    return n


# --- LinSpace -------------------------------------------------------------------------------
class LinSpace(Primitive):
    """``LinSpace()(start, stop, num)``: ``num`` evenly spaced values from ``start`` to ``stop``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, start, stop, num):
        for name, v in (("start", start), ("stop", stop)):
            if not (rules.is_scalar(v) or v == ()):
                raise MSValueError(f"For '{self.name}', '{name}' must be a scalar or 0-D Tensor, but got {v}.")
        if rules.is_scalar(num):
            return (rules.check_positive_int(self.name, "num", num),)
        return (-1,)

    def infer_dtype(self, start, stop, num):
        if isinstance(start, mstype.Type):
            return rules.check_float(self.name, "start", start)
        return mstype.float32

    bprop = NON_DIFFERENTIABLE


# --- StopGradient ---------------------------------------------------------------------------
class StopGradient(Primitive):
    """The identity, through which no gradient flows."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return x

    def infer_dtype(self, x):
        return x

    bprop = NON_DIFFERENTIABLE


# --- Identity -------------------------------------------------------------------------------
class Identity(Primitive):
    """A copy of ``x``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, _ANY_RANK)

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (dout,)


# --- Depend ---------------------------------------------------------------------------------
class Depend(Primitive):
    """``Depend()(value, expr)``: ``value``, evaluated after ``expr`` (an ordering edge in graphs)."""
    mixed_precision_cast = False   # (Cell.to_float in PYNATIVE: passes its input on, as MindSpore 2.10)

    @prim_attr_register
    def __init__(self):
        pass

    def __call__(self, value, expr):
        if not hasattr(value, "_dtype"):
            return value  # a non-tensor value needs no ordering edge in PyNative
        return super().__call__(value, expr)

    def infer_shape(self, value, expr):
        return value

    def infer_dtype(self, value, expr):
        return value

    def bprop(self, value, expr, out, dout):
        return dout, None


# --- ReverseV2 ------------------------------------------------------------------------------
class ReverseV2(Primitive):
    """``ReverseV2(axis)(x)``: ``x`` with the order of elements reversed along each of ``axis``."""

    @prim_attr_register
    def __init__(self, axis):
        self.add_prim_attr("axis", rules.check_int_tuple(self.name, "axis", axis))

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        if self.axis:
            rules.normalize_axes(self.name, self.axis, len(x))
        return x

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (cached_prim(ReverseV2, self.axis)(dout),)


# --- Pad ------------------------------------------------------------------------------------
class Pad(Primitive):
    """``Pad(paddings)(x)``: ``x`` padded with zeros; ``paddings[i] = (before, after)`` for axis ``i``."""

    @prim_attr_register
    def __init__(self, paddings):
        if not isinstance(paddings, (tuple, list)) or not all(
                isinstance(p, (tuple, list)) and len(p) == 2 for p in paddings):
            raise MSTypeError(f"For '{self.name}', the 'paddings' must be a tuple of (before, after) pairs, "
                              f"but got {paddings!r}.")
        pads = tuple(rules.check_int_tuple(self.name, "paddings", p, 2) for p in paddings)
        if any(v < 0 for p in pads for v in p):
            raise MSValueError(f"For '{self.name}', all elements of 'paddings' must be >= 0, but got {pads}.")
        self.add_prim_attr("paddings", pads)

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, _ANY_RANK)
        if len(self.paddings) != len(x):
            raise MSValueError(f"For '{self.name}', the length of 'paddings' must be equal to the rank of 'input_x' "
                               f"{len(x)}, but got {len(self.paddings)}.")
        return tuple(s + a + b for s, (a, b) in zip(x, self.paddings))

    def infer_dtype(self, x):
        return x

    def bprop(self, x, out, dout):
        return (fops.slice(dout, _befores(self.paddings), x.shape),)


@constexpr
def _befores(paddings):
    return tuple(p[0] for p in paddings)


# --- Meshgrid -------------------------------------------------------------------------------
class Meshgrid(Primitive):
    """``Meshgrid(indexing='xy')((x1, x2, ...))``: coordinate grids from 1-D tensors."""

    @prim_attr_register
    def __init__(self, indexing="xy"):
        if indexing not in ("xy", "ij"):
            raise MSValueError(f"For '{self.name}', the 'indexing' must be 'xy' or 'ij', but got {indexing!r}.")

    def infer_shape(self, xs):
        xs = _tensor_seq(self.name, xs, "inputs")
        for s in xs:
            rules.check_rank(self.name, "inputs", s, (1,))
        dims = [s[0] for s in xs]
        if self.indexing == "xy" and len(dims) > 1:
            dims[0], dims[1] = dims[1], dims[0]
        return (tuple(dims),) * len(xs)

    def infer_dtype(self, xs):
        return (_same_dtypes(self.name, _tensor_seq(self.name, xs, "inputs")),) * len(xs)

    def bprop(self, xs, out, dout):
        grads = []
        for i in range(len(xs)):
            grads.append(fops.reduce_sum(dout[i], _meshgrid_other_axes(self.indexing, len(xs), i)))
        return (tuple(grads),)


@constexpr
def _meshgrid_other_axes(indexing, n, i):
    axis = i
    if indexing == "xy" and n > 1 and i < 2:
        axis = 1 - i
    return tuple(a for a in range(n) if a != axis)


# --- Tril / Triu ----------------------------------------------------------------------------
class Tril(Primitive):
    """``Tril(diagonal=0)(x)``: the lower triangle of the last two axes of ``x``; the rest zeroed."""

    @prim_attr_register
    def __init__(self, diagonal=0):
        rules.check_int(self.name, "diagonal", diagonal)

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(2, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    def bprop(self, x, out, dout):
        return (cached_prim(type(self), self.diagonal)(dout),)


class Triu(Tril):
    """``Triu(diagonal=0)(x)``: the upper triangle of the last two axes of ``x``; the rest zeroed."""


# --- Assign / AssignAdd / AssignSub -----------------------------------------------------------
class Assign(Primitive):
    """``Assign()(variable, value)``: writes ``value`` into ``variable`` in place and returns it."""

    side_effect = True   # writes its input: graphs keep it, in program order
    written_inputs = (0,)

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, variable, value):
        rules.check_rank(self.name, "variable", variable, _ANY_RANK)
        value = rules.scalar_shape(value)
        if len(value) > len(variable) or any(v not in (1, t) for v, t in zip(value[::-1], variable[::-1])):
            raise MSValueError(f"For '{self.name}', the shape of 'value' {tuple(value)} must be equal to (or "
                               f"broadcast to) the shape of 'variable' {tuple(variable)}.")
        return variable

    def infer_dtype(self, variable, value):
        if not isinstance(variable, mstype.Type):
            raise MSTypeError(f"For '{self.name}', the 'variable' must be a Parameter or Tensor, but got "
                              f"{type(variable).__name__}.")
        if not (rules.is_scalar(value) or isinstance(value, mstype.Type)):
            raise MSTypeError(f"For '{self.name}', the 'value' must be a Tensor or number, but got "
                              f"{type(value).__name__}.")
        return variable

    bprop = NON_DIFFERENTIABLE


class AssignAdd(Assign):
    """``AssignAdd()(variable, value)``: ``variable += value`` in place; returns ``variable``."""

    bprop = NON_DIFFERENTIABLE


class AssignSub(Assign):
    """``AssignSub()(variable, value)``: ``variable -= value`` in place; returns ``variable``."""

    bprop = NON_DIFFERENTIABLE


# --- InvertPermutation ------------------------------------------------------------------------
class InvertPermutation(Primitive):
    """``InvertPermutation()(perm)``: the inverse of a permutation given as a tuple of ints."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_value(self, x):
        if not isinstance(x, (tuple, list)):
            raise MSTypeError(f"For '{self.name}', the 'input_x' must be a tuple or list of int, but got "
                              f"{type(x).__name__}.")
        perm = rules.check_int_tuple(self.name, "input_x", x)
        if sorted(perm) != list(range(len(perm))):
            raise MSValueError(f"For '{self.name}', the 'input_x' must be a permutation of range({len(perm)}), "
                               f"but got {perm}.")
        return invert_perm(perm)

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [
    Cast, CastMany, Reshape, Transpose, Concat, SplitV, Split, Stack, Unstack, ExpandDims, Squeeze, Flatten, Tile,
    BroadcastTo, Shape, DType, Rank, Size, ZerosLike, OnesLike, Fill, Zeros, Ones, Eye, Range, LinSpace,
    StopGradient, Identity, Depend, ReverseV2, Pad, Meshgrid, Tril, Triu,
    Assign, AssignAdd, AssignSub, InvertPermutation,
]
