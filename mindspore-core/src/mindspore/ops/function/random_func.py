"""Functional random ops: ``ops.uniform``, ``ops.standard_normal``, ``ops.rand``, ``ops.randint``, ...

Seeding follows MindSpore: ``seed=None`` (or 0) draws from the global seed's streams
(reproducible after ``mindspore.set_seed``); an explicit seed gives its own reproducible stream.
One primitive instance is kept per (op, seed), so consecutive calls advance the same stream and
give different numbers, while re-running a script after ``set_seed`` repeats every draw. As in MindSpore 2.10,
``uniform``, ``rand``, ``standard_normal``, ``normal``, ``randn``, ``randint`` (and their ``_like`` forms),
``standard_laplace``, ``laplace``, ``multinomial``, ``shuffle`` and ``choice_with_mask`` with a global or op seed
make a new primitive per call instead, seeded with the next ``(seed, seed2)`` pair of the op (:func:`_get_seed`),
and ``random_categorical`` with a seed a new primitive per call: the CPU backend then draws 2.10's numbers.
"""
import numbers

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common import generator as _generator
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import nn_prims as _nn_prims
from mindspore.ops._defs import random as random_defs
from mindspore.ops._defs._lazy import functional as fops

__all__ = ["uniform", "standard_normal", "normal", "standard_laplace", "laplace", "gamma", "random_gamma",
           "poisson", "random_poisson", "random_categorical", "multinomial", "multinomial_with_replacement",
           "bernoulli", "choice_with_mask", "shuffle", "rand", "rand_like", "randn", "randn_like", "randint",
           "randint_like", "randperm"]

_cache = {}


def _get_seed(op_seed, kernel_name):
    """MindSpore's private ``(Seed0, Seed1)`` of a random primitive built by hand (MindNLP's dropout builds
    ``ops.Dropout(keep_prob, Seed0=..., Seed1=...)`` from it): see :func:`mindspore.common.seed._get_graph_seed`."""
    from mindspore.common.seed import _get_graph_seed
    return _get_graph_seed(op_seed, kernel_name)


def _set_prim_op_user_data(prim, key, value):
    """MindSpore's private helper: set attribute ``key`` of primitive ``prim`` and return the primitive."""
    prim.add_prim_attr(key, value)
    return prim


def _prim(cls, *args):
    """The cached instance of ``cls(*args)``: its random stream advances from call to call. Inside
    ``generator.drawing_from(...)`` (the ``generator=`` of the mint functions), a new instance drawing from it."""
    gen = _generator.active()
    if gen is not None and issubclass(cls, random_defs._RandomOp):
        p = cls(*args)
        p._random_state = _generator.GeneratorStream(gen)
        return p
    key = (cls, args)
    p = _cache.get(key)
    if p is None:
        p = _cache[key] = cls(*args)
    return p


def _seeded(cls, kernel_name, seed, *lead):
    """The primitive of one functional draw of ``cls`` (``UniformReal``, ``UniformInt``, ``StandardNormal``).

    As in MindSpore 2.10, a global or op seed gives every call a new primitive seeded with the next
    ``(seed, seed2)`` pair of ``kernel_name`` (:func:`_get_seed`), so a seeded script draws 2.10's numbers (the
    CPU kernels of seeded instances are 2.10's); with neither, the cached unseeded instance. ``lead``: the
    arguments before the seed pair (``RandomChoiceWithMask``'s ``count``)."""
    if _generator.active() is None:
        seeds = _get_seed(seed, kernel_name)
        if seeds != (0, 0):
            return cls(*lead, *seeds)
    return _prim(cls, *lead, *_seeds(kernel_name, seed))


def _uniform_real(kernel_name, seed):
    """The ``UniformReal`` primitive of one functional draw (``ops.uniform``, ``ops.rand``, ``ops.rand_like``)."""
    return _seeded(random_defs.UniformReal, kernel_name, seed)


def _seeds(op, seed):
    """MindSpore's ``(seed, seed2)`` pair for a functional ``seed`` (None means 0: the global streams)."""
    if seed is None:
        return 0, 0
    return random_defs.check_seed(op, "seed", seed), 0


def _shape_arg(op, shape):
    """A constant shape tuple from a tuple, list, int or 1-D integer Tensor."""
    if isinstance(shape, Tensor):
        if shape.dtype not in mstype.int_type or shape.ndim > 1:
            raise MSTypeError(f"For '{op}', a Tensor 'shape' must be a 1-D integer Tensor, but got {shape.dtype} "
                              f"of shape {shape.shape}.")
        return tuple(int(v) for v in shape.asnumpy().reshape(-1))
    if isinstance(shape, list):
        return tuple(shape)
    return shape


def _as_tensor(op, name, value):
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Number):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, int or float, but got {type(value).__name__}.")
    return Tensor(float(value), mstype.float32)


def _check_tensor(op, name, x):
    if not isinstance(x, Tensor):
        raise MSTypeError(f"For '{op}', the '{name}' must be a Tensor, but got {type(x).__name__}.")
    return x


def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    """Samples from U[minval, maxval): continuous for float32, discrete for int32.

    Args:
        shape (Union[tuple, Tensor]): Shape of the draw (broadcast with ``minval``/``maxval`` for float32).
        minval (Tensor): Lower bound, of dtype ``dtype``.
        maxval (Tensor): Upper bound (exclusive), of dtype ``dtype``.
        seed (int, optional): Op seed, non-negative. Default ``None``.
        dtype (mindspore.dtype): ``mindspore.float32`` or ``mindspore.int32``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> out = ops.uniform((2, 3), ms.Tensor(1.0), ms.Tensor(2.0), seed=5)
        >>> print(out.shape)
        (2, 3)
    """
    if not isinstance(minval, Tensor) or not isinstance(maxval, Tensor):
        raise MSTypeError("For 'uniform', the 'minval' and 'maxval' must be Tensors, but got "
                          f"{type(minval).__name__} and {type(maxval).__name__}.")
    if dtype not in (mstype.int32, mstype.float32):
        raise MSTypeError(f"For 'uniform', the 'dtype' must be Int32 or Float32, but got {dtype}.")
    for name, bound in (("minval", minval), ("maxval", maxval)):
        if bound.dtype != dtype:
            raise MSTypeError(f"For 'uniform', the dtype of '{name}' must be the same as 'dtype' {dtype}, but got "
                              f"{bound.dtype}.")
    shape = _shape_arg("uniform", shape)
    if dtype == mstype.int32:
        return _seeded(random_defs.UniformInt, "uniform", seed)(shape, minval, maxval)
    draw = _uniform_real("uniform", seed)(shape)
    return fops.add(fops.mul(draw, fops.sub(maxval, minval)), minval)


def standard_normal(shape, seed=None):
    """Float32 samples from N(0, 1) of shape ``shape``.

    Examples:
        >>> from mindspore import ops
        >>> print(ops.standard_normal((4, 4)).shape)
        (4, 4)
    """
    return _seeded(random_defs.StandardNormal, "standard_normal", seed)(_shape_arg("standard_normal", shape))


def normal(shape, mean, stddev, seed=None):
    """Samples from N(mean, stddev**2); the result shape broadcasts ``shape`` with ``mean`` and ``stddev``.

    Differentiable in ``mean`` and ``stddev``.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.normal((3, 1, 2), ms.Tensor([[3.0, 4.0], [5.0, 6.0]]), ms.Tensor(1.0), seed=5).shape)
        (3, 2, 2)
    """
    mean = _as_tensor("normal", "mean", mean)
    stddev = _as_tensor("normal", "stddev", stddev)
    draw = _seeded(random_defs.StandardNormal, "normal", seed)(_shape_arg("normal", shape))
    return fops.add(fops.mul(draw, stddev), mean)


def standard_laplace(shape, seed=None):
    """Float32 samples from Laplace(0, 1) of shape ``shape``."""
    return _seeded(random_defs.StandardLaplace, "standard_laplace", seed)(_shape_arg("standard_laplace", shape))


def laplace(shape, mean, lambda_param, seed=None):
    """Samples from Laplace(mean, lambda_param); the shape broadcasts with the parameters'."""
    mean = _as_tensor("laplace", "mean", mean)
    lambda_param = _as_tensor("laplace", "lambda_param", lambda_param)
    draw = _seeded(random_defs.StandardLaplace, "laplace", seed)(_shape_arg("laplace", shape))
    return fops.add(fops.mul(draw, lambda_param), mean)


def gamma(shape, alpha, beta, seed=None):
    """Samples from Gamma(alpha, scale=beta); the shape broadcasts with ``alpha`` and ``beta``."""
    _check_tensor("gamma", "alpha", alpha)
    _check_tensor("gamma", "beta", beta)
    return _prim(random_defs.Gamma, *_seeds("gamma", seed))(_shape_arg("gamma", shape), alpha, beta)


def random_gamma(shape, alpha, seed=None):
    """Samples from Gamma(alpha, 1) of shape ``shape + alpha.shape``."""
    _check_tensor("random_gamma", "alpha", alpha)
    shape = rules.check_int_tuple("random_gamma", "shape", _shape_arg("random_gamma", shape))
    return _prim(_nn_prims.RandomGamma, *_seeds("random_gamma", seed))(shape, alpha)


def poisson(shape, mean, seed=None):
    """Int32 samples from Poisson(mean); the shape broadcasts with ``mean`` (deprecated in MindSpore)."""
    _check_tensor("poisson", "mean", mean)
    return _prim(random_defs.Poisson, *_seeds("poisson", seed))(_shape_arg("poisson", shape), mean)


def random_poisson(shape, rate, seed=None, dtype=mstype.float32):
    """Samples from Poisson(rate) of shape ``shape + rate.shape``, as ``dtype``."""
    _check_tensor("random_poisson", "rate", rate)
    if dtype not in (mstype.int32, mstype.int64, mstype.float16, mstype.float32, mstype.float64):
        raise MSTypeError(f"For 'random_poisson', the 'dtype' must be int32, int64, float16, float32 or float64, "
                          f"but got {dtype}.")
    shape = rules.check_int_tuple("random_poisson", "shape", _shape_arg("random_poisson", shape))
    if rate.dtype not in (mstype.float16, mstype.float32, mstype.float64):
        rate = fops.cast(rate, mstype.float32)
    return _prim(_nn_prims.RandomPoisson, *_seeds("random_poisson", seed), dtype)(shape, rate)


def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """Class indices drawn from softmax(logits) of the 2-D ``logits``: shape ``(batch, num_sample)``."""
    _check_tensor("random_categorical", "logits", logits)
    if seed and _generator.active() is None:   # a new op per call, as in 2.10: the seed alone fixes the draw
        return random_defs.RandomCategorical(dtype)(logits, num_sample, seed)
    return _prim(random_defs.RandomCategorical, dtype)(logits, num_sample, seed)


def multinomial(input, num_samples, replacement=True, seed=None):
    """Indices drawn from the (unnormalised) weights in each row of the 1-D or 2-D ``input``, as Int32.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.multinomial(ms.Tensor([0.0, 1.0, 0.0]), 2))
        [1 1]
    """
    _check_tensor("multinomial", "input", input)
    if input.ndim not in (1, 2):
        raise MSValueError(f"For 'multinomial', the dimension of inputs must be 1d or 2d, but got {input.ndim}.")
    if isinstance(replacement, int):
        replacement = bool(replacement)  # MindSpore 2.10 takes 0/1
    rules.check_int("multinomial", "num_samples", num_samples)
    if num_samples < 0:
        raise MSValueError(f"For 'multinomial', the 'num_samples' must be a non-negative int, but got {num_samples}.")
    rules.check_bool("multinomial", "replacement", replacement)
    if num_samples == 0:  # nothing to draw (MindSpore 2.10 returns the empty (rows, 0) result)
        if _generator.active() is None:
            _get_seed(seed, "multinomial")   # 2.10 still takes the op's next seed pair
        return fops.zeros(tuple(input.shape[:-1]) + (0,), mstype.int32)
    seeds = _seeds("multinomial", seed)
    if replacement:
        return _seeded(random_defs.Multinomial, "multinomial", seed)(input, num_samples)
    if input.shape[-1] < num_samples:
        raise MSValueError(f"For 'multinomial', the 'num_samples' must be less than or equal to the last dimension "
                           f"of input without 'replacement', but got 'num_samples': {num_samples} and the last "
                           f"dimension {input.shape[-1]}.")
    graph_seeds = _get_seed(seed, "multinomial") if _generator.active() is None else (0, 0)
    if graph_seeds != (0, 0):
        # 2.10's draw without replacement: the top ``num_samples`` of log(u) / (w + 1e-6), u uniform per weight
        rows = input.shape[-2] if input.ndim == 2 else 1
        u = random_defs.UniformReal(*graph_seeds)((rows * input.shape[-1],))
        if rows != 1:
            u = fops.reshape(u, (rows, input.shape[-1]))
        return fops.top_k(fops.div(fops.log(u), fops.add(input, 1e-6)), num_samples)[1]
    out = _prim(random_defs.MultinomialWithReplacement, num_samples, False)(input, seeds[0] or -1, 0)
    return fops.cast(out, mstype.int32)


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """Int64 indices drawn from the weights in each row of ``x``; ``seed=-1, offset=0`` is random."""
    _check_tensor("multinomial_with_replacement", "x", x)
    for name, v in (("seed", seed), ("offset", offset)):
        if not isinstance(v, (int, Tensor)) or isinstance(v, bool):
            raise MSTypeError(f"For 'multinomial_with_replacement', the '{name}' must be an int, but got "
                              f"{type(v).__name__}.")
    seed = int(seed) if isinstance(seed, Tensor) else seed
    offset = int(offset) if isinstance(offset, Tensor) else offset
    return _prim(random_defs.MultinomialWithReplacement, numsamples, replacement)(x, seed, offset)


def bernoulli(input, p=0.5, seed=None):
    """0/1 samples shaped and typed like ``input``, each 1 with probability ``p`` (float or Tensor).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> print(ops.bernoulli(ms.Tensor([1.0, 2.0, 3.0]), p=1.0))
        [1. 1. 1.]
    """
    _check_tensor("bernoulli", "input", input)
    if seed is None:
        seed = -1
    return _prim(random_defs.Bernoulli, seed, 0)(input, p)


def choice_with_mask(input_x, count=256, seed=None):
    """Up to ``count`` random true positions of the bool ``input_x``: ``(index, mask)``."""
    _check_tensor("choice_with_mask", "input_x", input_x)
    return _seeded(random_defs.RandomChoiceWithMask, "choice_with_mask", seed, count)(input_x)


def shuffle(x, seed=None):
    """``x`` with its first dimension randomly permuted."""
    _check_tensor("shuffle", "x", x)
    return _seeded(random_defs.RandomShuffle, "shuffle", seed)(x)


def _size(op, size):
    """The ``*size`` of ``rand``/``randn``: ints, or one tuple/list."""
    if not size:
        return (1,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for v in size:
        if isinstance(v, bool) or not isinstance(v, int):
            raise MSTypeError(f"For '{op}', the 'size' must be ints or one tuple of int, but got {size!r}.")
    return tuple(size)


def _float_dtype(op, dtype, default):
    dtype = default if dtype is None else dtype
    if dtype not in mstype.float_type:
        raise MSValueError(f"For '{op}', the 'dtype' must be a float type, but got {dtype}.")
    return dtype


def _int_dtype(op, dtype, default):
    dtype = default if dtype is None else dtype
    if dtype not in mstype.int_type:
        raise MSValueError(f"For '{op}', the 'dtype' must be an int type, but got {dtype}.")
    return dtype


def rand(*size, dtype=None, seed=None):
    """Samples from U[0, 1) of shape ``size`` (default dtype Float32).

    Examples:
        >>> from mindspore import ops
        >>> print(ops.rand(2, 3).shape)
        (2, 3)
    """
    dtype = _float_dtype("rand", dtype, mstype.float32)
    out = _uniform_real("rand", seed)(_size("rand", size))
    return out if dtype == mstype.float32 else fops.cast(out, dtype)


def rand_like(input, seed=None, *, dtype=None):
    """Samples from U[0, 1) with ``input``'s shape (and dtype unless ``dtype`` is given)."""
    _check_tensor("rand_like", "input", input)
    dtype = _float_dtype("rand_like", dtype, input.dtype)
    out = _uniform_real("rand_like", seed)(tuple(input.shape))
    return out if dtype == mstype.float32 else fops.cast(out, dtype)


def randn(*size, dtype=None, seed=None):
    """Samples from N(0, 1) of shape ``size`` (default dtype Float32)."""
    dtype = _float_dtype("randn", dtype, mstype.float32)
    out = _seeded(random_defs.StandardNormal, "randn", seed)(_size("randn", size))
    return out if dtype == mstype.float32 else fops.cast(out, dtype)


def randn_like(input, seed=None, *, dtype=None):
    """Samples from N(0, 1) with ``input``'s shape (dtype Float32 unless ``dtype`` is given)."""
    _check_tensor("randn_like", "input", input)
    dtype = _float_dtype("randn_like", dtype, mstype.float32)
    out = _seeded(random_defs.StandardNormal, "randn_like", seed)(tuple(input.shape))
    return out if dtype == mstype.float32 else fops.cast(out, dtype)


def _int_bounds(op, low, high):
    for name, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise MSTypeError(f"For '{op}', '{name}' must be an int, but got {type(v).__name__}.")
    if low >= high:
        raise MSValueError(f"For '{op}', 'low' must be less than 'high', but got low {low} and high {high}.")
    return Tensor(low, mstype.int32), Tensor(high, mstype.int32)


def randint(low, high, size, seed=None, *, dtype=None):
    """Random integers in ``[low, high)`` of shape ``size`` (default dtype Int64).

    Examples:
        >>> from mindspore import ops
        >>> print(ops.randint(1, 10, (2, 3)).shape)
        (2, 3)
    """
    dtype = _int_dtype("randint", dtype, mstype.int64)
    if not isinstance(size, tuple):
        raise MSValueError(f"For 'randint', the input 'size' must be a tuple, but got {size}.")
    lo, hi = _int_bounds("randint", low, high)
    out = _seeded(random_defs.UniformInt, "randint", seed)(size, lo, hi)
    return fops.cast(out, dtype)


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Random integers in ``[low, high)`` with ``input``'s shape (and dtype unless ``dtype`` is given)."""
    _check_tensor("randint_like", "input", input)
    dtype = _int_dtype("randint_like", dtype, input.dtype)
    lo, hi = _int_bounds("randint_like", low, high)
    out = _seeded(random_defs.UniformInt, "randint_like", seed)(tuple(input.shape), lo, hi)
    return fops.cast(out, dtype)


def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    """A permutation of ``0..n-1``. ``(seed, offset)`` fix it; ``seed=-1, offset=0`` draws a random one.

    Examples:
        >>> from mindspore import ops
        >>> print(sorted(ops.randperm(4).asnumpy().tolist()))
        [0, 1, 2, 3]
    """
    if isinstance(n, Tensor):
        n = int(n)
    return _prim(random_defs.RandpermV2, 0, dtype)(n, seed, offset)


# MindSpore cuts mindspore.ops into its own families: a function imported from its `random_func` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.ops")
