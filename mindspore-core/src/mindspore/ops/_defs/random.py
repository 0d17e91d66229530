"""Random primitives (uniform, normal, integers, categorical, permutations, ...), seeded by ``mindspore.set_seed``.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype`` and the
``NON_DIFFERENTIABLE`` marker (no gradient flows through a draw; ``ops.normal`` and friends are
differentiable in their location/scale through the arithmetic around the draw).

Seeding (see :mod:`mindspore.common.seed`): every primitive instance owns an
:class:`~mindspore.common.seed.OpRandomState` built from its ``(seed, seed2)`` attributes; kernels
draw from ``prim.generator()``. Two instances with the same non-zero seeds give the same stream;
with both seeds 0 the stream comes from the global seed (reproducible after ``set_seed``) or, if
none was set, from OS entropy. Each call advances the instance's stream, so consecutive draws differ.
Primitives that take a seed as a call input (``RandomCategorical``, ``RandpermV2``,
``MultinomialWithReplacement``) draw from the instance's stream for MindSpore's "random" seed value
and otherwise from a fresh generator of ``(seed, offset)``: a fixed, reproducible result.
"""
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.seed import OpRandomState
from mindspore.ops._defs import _rules as rules
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_SEED_BITS = 32


def check_seed(op, name, value, allow_minus_one=False):
    """A seed attribute: a non-negative int (or -1 where MindSpore means 'random')."""
    value = rules.check_int(op, name, value)
    if value < 0 and not (allow_minus_one and value == -1):
        lowest = "-1" if allow_minus_one else "0"
        raise MSValueError(f"For '{op}', the '{name}' must be greater than or equal to {lowest}, but got {value}.")
    return value


def check_random_shape(op, shape, name="shape"):
    """A constant output shape: a tuple/list of non-negative ints (``()`` draws a scalar; a 0 draws nothing, as
    MindSpore 2.10 allows)."""
    if isinstance(shape, mstype.Type):
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of int, but got a Tensor; pass a tuple "
                          f"(the functional ops convert Tensor shapes).")
    if not isinstance(shape, (tuple, list)):
        raise MSTypeError(f"For '{op}', the '{name}' must be a tuple of int, but got {type(shape).__name__}.")
    shape = rules.check_int_tuple(op, name, shape)
    if any(s < 0 for s in shape):
        raise MSValueError(f"For '{op}', each dimension of '{name}' must be a non-negative int, but got {shape}.")
    return shape


def _combined_seed(seed, seed2):
    """One stream key from MindSpore's two seeds; 0 when both are 0 (use the global seed)."""
    if not seed and not seed2:
        return 0
    return (seed << _SEED_BITS) | seed2


class _RandomOp(Primitive):
    """Base of the random primitives: the per-instance random stream."""

    bprop = NON_DIFFERENTIABLE

    def _init_stream(self, op_seed):
        self._random_state = OpRandomState(op_seed)

    def generator(self):
        """The NumPy ``Generator`` of this instance's stream (advanced by every draw)."""
        return self._random_state.generator()


class _SeededShapeOp(_RandomOp):
    """``Op(seed=0, seed2=0)(shape)`` -> a float32 tensor of ``shape``."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, shape):
        return check_random_shape(self.name, shape)

    def infer_dtype(self, shape):
        check_random_shape(self.name, shape)
        return mstype.float32


# --- UniformReal ----------------------------------------------------------------------------
class UniformReal(_SeededShapeOp):
    """``UniformReal(seed=0, seed2=0)(shape)``: float32 samples from U[0, 1)."""

    bprop = NON_DIFFERENTIABLE


# --- StandardNormal -------------------------------------------------------------------------
class StandardNormal(_SeededShapeOp):
    """``StandardNormal(seed=0, seed2=0)(shape)``: float32 samples from N(0, 1)."""

    bprop = NON_DIFFERENTIABLE


# --- StandardLaplace ------------------------------------------------------------------------
class StandardLaplace(_SeededShapeOp):
    """``StandardLaplace(seed=0, seed2=0)(shape)``: float32 samples from Laplace(0, 1)."""

    bprop = NON_DIFFERENTIABLE


# --- UniformInt -----------------------------------------------------------------------------
def _check_int_bound(op, name, value):
    if isinstance(value, mstype.Type):
        return rules.check_dtype_in(op, name, value, (mstype.int32, mstype.int64))
    rules.check_int(op, name, value)
    return mstype.int32


class UniformInt(_RandomOp):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: int32 samples from U{minval, ..., maxval - 1}."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, shape, minval, maxval):
        for name, bound in (("minval", minval), ("maxval", maxval)):
            if isinstance(bound, tuple) and bound not in ((), (1,)):
                raise MSValueError(f"For '{self.name}', the '{name}' must be a scalar (0-D or one-element) Tensor, "
                                   f"but got shape {bound}.")
        return check_random_shape(self.name, shape)

    def infer_dtype(self, shape, minval, maxval):
        check_random_shape(self.name, shape)
        _check_int_bound(self.name, "minval", minval)
        _check_int_bound(self.name, "maxval", maxval)
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


# --- Gamma ----------------------------------------------------------------------------------
class Gamma(_RandomOp):
    """``Gamma(seed=0, seed2=0)(shape, alpha, beta)``: samples of Gamma(shape=alpha, scale=beta).

    The output shape is ``shape`` broadcast with the shapes of ``alpha`` and ``beta``.
    """

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, shape, alpha, beta):
        shape = check_random_shape(self.name, shape)
        return rules.broadcast_shapes(self.name, shape, alpha, beta)

    def infer_dtype(self, shape, alpha, beta):
        check_random_shape(self.name, shape)
        rules.check_dtype_in(self.name, "alpha", alpha, _FLOATS)
        rules.check_dtype_in(self.name, "beta", beta, _FLOATS)
        return alpha

    bprop = NON_DIFFERENTIABLE


# --- Poisson --------------------------------------------------------------------------------
class Poisson(_RandomOp):
    """``Poisson(seed=0, seed2=0)(shape, mean)``: int32 samples of Poisson(mean), shape broadcast with ``mean``."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, shape, mean):
        shape = check_random_shape(self.name, shape)
        return rules.broadcast_shapes(self.name, shape, mean)

    def infer_dtype(self, shape, mean):
        check_random_shape(self.name, shape)
        rules.check_dtype_in(self.name, "mean", mean, _FLOATS)
        return mstype.int32

    bprop = NON_DIFFERENTIABLE


# --- RandomCategorical ----------------------------------------------------------------------
class RandomCategorical(_RandomOp):
    """``RandomCategorical(dtype=int64)(logits, num_sample, seed=0)``: class indices drawn from softmax(logits).

    ``logits`` is ``(batch, num_classes)``; the output is ``(batch, num_sample)``.
    """

    @prim_attr_register
    def __init__(self, dtype=mstype.int64):
        if dtype not in (mstype.int16, mstype.int32, mstype.int64):
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be in ['Int16', 'Int32', 'Int64'], "
                              f"but got {dtype}.")
        self._init_stream(0)

    def __call__(self, logits, num_sample, seed=0):
        return super().__call__(logits, num_sample, seed)

    def infer_shape(self, logits, num_sample, seed):
        rules.check_rank(self.name, "logits", logits, 2)
        num_sample = rules.check_positive_int(self.name, "num_sample", num_sample)
        rules.check_int(self.name, "seed", seed)   # any int: 2.10 draws from negative seeds too
        return logits[0], num_sample

    def infer_dtype(self, logits, num_sample, seed):
        rules.check_dtype_in(self.name, "logits", logits, _FLOATS)
        return self.dtype

    bprop = NON_DIFFERENTIABLE


# --- Multinomial ----------------------------------------------------------------------------
def _multinomial_shape(op, x, num):
    rules.check_rank(op, "x", x, (1, 2))
    return (num,) if len(x) == 1 else (x[0], num)


class Multinomial(_RandomOp):
    """``Multinomial(seed=0, seed2=0, dtype=int32)(x, num_samples)``: indices drawn with replacement.

    Each row of ``x`` (1-D or 2-D) holds non-negative weights, normalised per row.
    """

    @prim_attr_register
    def __init__(self, seed=0, seed2=0, dtype=mstype.int32):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        if dtype not in (mstype.int32, mstype.int64):
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be in ['Int32', 'Int64'], but got {dtype}.")
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, x, num_samples):
        return _multinomial_shape(self.name, x, rules.check_positive_int(self.name, "num_samples", num_samples))

    def infer_dtype(self, x, num_samples):
        rules.check_dtype_in(self.name, "x", x, _FLOATS)
        return self.dtype

    bprop = NON_DIFFERENTIABLE


# --- MultinomialWithReplacement -------------------------------------------------------------
class MultinomialWithReplacement(_RandomOp):
    """``MultinomialWithReplacement(numsamples, replacement=False)(x, seed, offset)``: int64 indices.

    Without replacement each row gives ``numsamples`` distinct indices (``numsamples`` must not
    exceed the number of categories). ``seed=-1, offset=0`` draws from the instance's stream.
    """

    @prim_attr_register
    def __init__(self, numsamples, replacement=False):
        rules.check_positive_int(self.name, "numsamples", numsamples)
        rules.check_bool(self.name, "replacement", replacement)
        self._init_stream(0)

    def infer_shape(self, x, seed, offset):
        shape = _multinomial_shape(self.name, x, self.numsamples)
        if not self.replacement and x[-1] < self.numsamples:
            raise MSValueError(f"For '{self.name}', the 'numsamples' must not be greater than the number of "
                               f"categories {x[-1]} when 'replacement' is False, but got {self.numsamples}.")
        return shape

    def infer_dtype(self, x, seed, offset):
        rules.check_dtype_in(self.name, "x", x, _FLOATS)
        for name, v in (("seed", seed), ("offset", offset)):
            if isinstance(v, mstype.Type):
                rules.check_dtype_in(self.name, name, v, (mstype.int64, mstype.int32))
            else:
                rules.check_int(self.name, name, v)
        return mstype.int64

    bprop = NON_DIFFERENTIABLE


# --- Bernoulli ------------------------------------------------------------------------------
class Bernoulli(_RandomOp):
    """``Bernoulli(seed=-1, offset=0)(x, p)``: 0/1 samples shaped and typed like ``x``, 1 with probability ``p``."""

    @prim_attr_register
    def __init__(self, seed=-1, offset=0):
        seed = check_seed(self.name, "seed", seed, allow_minus_one=True)
        offset = check_seed(self.name, "offset", offset)
        self._init_stream(0 if seed == -1 else ((seed << _SEED_BITS) | offset) + 1)

    def infer_shape(self, x, p):
        rules.check_rank(self.name, "x", x, range(0, 9))
        if rules.is_scalar(p):
            return x
        if rules.broadcast_shapes(self.name, x, p) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'p' must broadcast to the shape of 'x', "
                               f"but got p shape {p} and x shape {tuple(x)}.")
        return x

    def infer_dtype(self, x, p):
        rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)
        if isinstance(p, mstype.Type):
            rules.check_dtype_in(self.name, "p", p, _FLOATS)
        elif isinstance(p, bool) or not isinstance(p, (int, float)):
            raise MSTypeError(f"For '{self.name}', the 'p' must be a float or a Tensor, but got {type(p).__name__}.")
        elif not 0.0 <= p <= 1.0:
            raise MSValueError(f"For '{self.name}', the 'p' must be in range [0, 1], but got {p}.")
        return x

    bprop = NON_DIFFERENTIABLE


# --- RandomChoiceWithMask -------------------------------------------------------------------
class RandomChoiceWithMask(_RandomOp):
    """``RandomChoiceWithMask(count=256, seed=0, seed2=0)(x)`` -> ``(index, mask)``.

    Picks up to ``count`` of the true positions of the bool tensor ``x`` in random order: ``index``
    is int32 ``(count, rank)`` (zero rows past the valid ones), ``mask`` bool ``(count,)`` marks them.
    """

    @prim_attr_register
    def __init__(self, count=256, seed=0, seed2=0):
        rules.check_positive_int(self.name, "count", count)
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, x):
        rules.check_rank(self.name, "input_x", x, range(1, 6))
        return (self.count, len(x)), (self.count,)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "input_x", x, (mstype.bool_,))
        return mstype.int32, mstype.bool_

    bprop = NON_DIFFERENTIABLE


# --- Randperm -------------------------------------------------------------------------------
class Randperm(_RandomOp):
    """``Randperm(max_length=1, pad=-1, dtype=int32)(n)``: a random permutation of ``0..n-1`` padded to ``max_length``.

    ``n`` is an int32/int64 Tensor of shape ``(1,)``; the output has shape ``(max_length,)``.
    """

    @prim_attr_register
    def __init__(self, max_length=1, pad=-1, dtype=mstype.int32):
        rules.check_positive_int(self.name, "max_length", max_length)
        rules.check_int(self.name, "pad", pad)
        if dtype not in mstype.int_type + mstype.uint_type:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be an integer type, but got {dtype}.")
        self._init_stream(0)

    def infer_shape(self, n):
        if tuple(n) not in ((1,), ()):
            raise MSValueError(f"For '{self.name}', the 'n' must be a Tensor of shape (1,), but got shape {n}.")
        return (self.max_length,)

    def infer_dtype(self, n):
        rules.check_dtype_in(self.name, "n", n, (mstype.int32, mstype.int64))
        return self.dtype

    bprop = NON_DIFFERENTIABLE


# --- RandpermV2 -----------------------------------------------------------------------------
class RandpermV2(_RandomOp):
    """``RandpermV2(layout=0, dtype=int64)(n, seed=0, offset=0)``: a random permutation of ``0..n-1``.

    ``seed=-1, offset=0`` draws from the global-seed stream; any other ``(seed, offset)`` is a fixed,
    reproducible permutation.
    """

    @prim_attr_register
    def __init__(self, layout=0, dtype=mstype.int64):
        layout = rules.check_int(self.name, "layout", layout)
        if layout < 0:
            raise MSValueError(f"For '{self.name}', the 'layout' must be non-negative, but got {layout}.")
        if dtype not in mstype.int_type + (mstype.uint8,) + _FLOATS:
            raise MSTypeError(f"For '{self.name}', the 'dtype' must be an int or float type, but got {dtype}.")
        self._init_stream(0)

    def __call__(self, n, seed=0, offset=0):
        return super().__call__(n, seed, offset)

    def infer_shape(self, n, seed, offset):
        if isinstance(n, tuple):
            if n not in ((), (1,)):
                raise MSValueError(f"For '{self.name}', the 'n' must be a scalar, but got a Tensor of shape {n}.")
            return (-1,)
        n = rules.check_int(self.name, "n", n)
        if n < 0:
            raise MSValueError(f"For '{self.name}', the 'n' must be non-negative, but got {n}.")
        return (n,)

    def infer_dtype(self, n, seed, offset):
        if isinstance(n, mstype.Type):
            rules.check_dtype_in(self.name, "n", n, mstype.int_type)
        check_seed(self.name, "seed", seed, allow_minus_one=True)
        check_seed(self.name, "offset", offset)
        return self.dtype

    bprop = NON_DIFFERENTIABLE


# --- RandomShuffle --------------------------------------------------------------------------
class RandomShuffle(_RandomOp):
    """``RandomShuffle(seed=0, seed2=0)(x)``: ``x`` with its first dimension randomly permuted."""

    @prim_attr_register
    def __init__(self, seed=0, seed2=0):
        check_seed(self.name, "seed", seed)
        check_seed(self.name, "seed2", seed2)
        self._init_stream(_combined_seed(seed, seed2))

    def infer_shape(self, x):
        return rules.check_rank(self.name, "x", x, range(0, 9))

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "x", x, rules.ALL_TYPES)

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [UniformReal, StandardNormal, StandardLaplace, UniformInt, Gamma, Poisson, RandomCategorical,
              Multinomial, MultinomialWithReplacement, Bernoulli, RandomChoiceWithMask, Randperm, RandpermV2,
              RandomShuffle]
