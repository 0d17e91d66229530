"""The base Cell of the distributions.

A distribution holds default parameters (``Normal(mean, sd)``), any of which may be left None at construction and
given per call instead: every method takes the distribution's parameters as optional trailing arguments
(``dist.prob(value, mean, sd)``), which evaluate a distribution with those parameters without changing this one.
``_check_param_type`` resolves them (the call's argument, else the default, else a TypeError), broadcasts them to
one shape and casts them to ``parameter_type``.

A subclass implements what it can (``_log_prob`` or ``_prob``, ``_cdf`` or ``_log_cdf`` or a survival function,
``_sd`` or ``_var``, ...); the base derives the rest once, at construction, into ``_call_<method>`` (prob from
log_prob, log_cdf from cdf, survival from cdf, var from sd, ...), so a call is one direct method call in either
mode. ``construct(name, *args)`` dispatches by method name, which is how distributions are called as Cells
(``self.normal('kl_loss', 'Normal', mean_b, sd_b)``).

TransformedDistribution lives here too (``distribution.transformed_distribution`` re-exports it): a bijector
applied to a distribution (``Exp()(Normal())``) asks the distribution for it (``_transformed_by``), so the bijectors
import nothing of the distributions and the two packages do not import each other.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore.common import dtype as mstype
from mindspore.nn.cell import Cell
from mindspore.nn.probability import _utils
from mindspore.nn.probability.bijector.bijector import Bijector

__all__ = ["Distribution", "TransformedDistribution"]

# method -> the ways to get it: (implementation attribute, how to derive the method from it)
_DERIVATIONS = {
    "prob": (("_prob", None), ("_log_prob", "_prob_from_log_prob")),
    "log_prob": (("_log_prob", None), ("_prob", "_log_prob_from_prob")),
    "cdf": (("_cdf", None), ("_log_cdf", "_cdf_from_log_cdf"), ("_survival_function", "_cdf_from_survival"),
            ("_log_survival", "_cdf_from_log_survival")),
    "survival_function": (("_survival_function", None), ("_log_survival", "_survival_from_log_survival"),
                          ("_cdf", "_survival_from_cdf"), ("_log_cdf", "_survival_from_cdf")),
    "log_cdf": (("_log_cdf", None), ("_cdf", "_log_cdf_from_cdf"), ("_survival_function", "_log_cdf_from_cdf"),
                ("_log_survival", "_log_cdf_from_cdf")),
    "log_survival": (("_log_survival", None), ("_survival_function", "_log_survival_from_survival"),
                     ("_cdf", "_log_survival_from_survival"), ("_log_cdf", "_log_survival_from_survival")),
    "sd": (("_sd", None), ("_var", "_sd_from_var")),
    "var": (("_var", None), ("_sd", "_var_from_sd")),
    "cross_entropy": (("_cross_entropy", None),),
}
# the name 2.10 reports when a method cannot be derived (log_survival reports 'log_cdf' there)
_MISSING_NAME = {"log_survival": "log_cdf"}


class Distribution(Cell):
    """Base class for all mathematical distributions.

    Args:
        seed (int): The seed used in sampling. 0 if None.
        dtype (mindspore.dtype): The type of the event samples.
        name (str): The name of the distribution.
        param (dict): The arguments the distribution was built with (its ``locals()``, plus ``param_dict``: the
            distribution's own parameters by name).

    Note:
        Subclasses implement ``_mean``, ``_prob`` or ``_log_prob``, etc. Each public method accepts the
        distribution's parameters (its ``dist_spec_args``) as optional trailing arguments, which evaluate the
        method for a distribution with those parameters instead of the default ones.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.distribution as msd
        >>> n = msd.Normal(0.0, 1.0)
        >>> print(n.prob(ms.Tensor([0.0]), ms.Tensor(1.0), ms.Tensor(2.0)).shape)
        (1,)
    """

    def __init__(self, seed, dtype, name, param):
        super().__init__()
        seed = 0 if seed is None else seed
        if not isinstance(name, str):
            raise _utils.MSTypeError(f"For '{type(self).__name__}', the type of 'name' should be 'str', but got "
                                     f"type '{type(name).__name__}'.")
        _utils.check_seed(seed, name)
        self._name = name
        self._seed = seed
        self._dtype = dtype
        self._parameters = {k: v for k, v in param.items() if k != "self" and not k.startswith("_")}
        self.default_parameters = []
        self.parameter_names = []
        if "distribution" not in self._parameters:
            param_dict = self._parameters.get("param_dict", {})
            self.parameter_type = _utils.param_type(param_dict, dtype)
            self._batch_shape = _utils.batch_shape_of(param_dict)
            self._is_scalar_batch = _utils.is_scalar_batch(param_dict)
            self._broadcast_shape = self._batch_shape
        for method, ways in _DERIVATIONS.items():
            setattr(self, "_call_" + method, self._derive(method, ways))

    def _derive(self, method, ways):
        for attr, derived in ways:
            if hasattr(self, attr):
                return getattr(self, derived or attr)
        return self._not_implemented(_MISSING_NAME.get(method, method))

    def _not_implemented(self, func_name):
        dist_name = self.name

        def raise_error(*args, **kwargs):
            return _utils.raise_not_implemented(func_name, dist_name)
        return raise_error

    # -- properties ------------------------------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def seed(self):
        return self._seed

    @property
    def parameters(self):
        return self._parameters

    @property
    def is_scalar_batch(self):
        return self._is_scalar_batch

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def broadcast_shape(self):
        return self._broadcast_shape

    # -- parameters ------------------------------------------------------------------------------------------------
    def _reset_parameters(self):
        self.default_parameters = []
        self.parameter_names = []

    def _add_parameter(self, value, name):
        """Record a default parameter (as a Tensor of ``parameter_type``, or None) under ``name``."""
        value_t = None if value is None else _utils.cast_to_tensor(value, self.parameter_type)
        self.default_parameters.append(value_t)
        self.parameter_names.append(name)
        return value_t

    def _check_param_type(self, *args):
        """The call's parameters (else the defaults) broadcast to one shape and cast to ``parameter_type``."""
        params = ()
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            if arg is None:
                if default is None:
                    _utils.raise_none_error(name)
                arg = default
            else:
                _utils.check_tensor(arg, name)
            params = params + (arg,)
        if len(params) == 1:
            return ops.cast(params[0], self.parameter_type)
        total = params[0]
        for arg in params[1:]:
            total = total + arg
        out = ()
        for arg in params:
            out = out + (ops.broadcast_to(ops.cast(arg, self.parameter_type), total.shape),)
        return out

    def _check_value(self, value, name):
        _utils.check_tensor(value, name)
        if value is None:
            raise _utils.MSTypeError(f"For {name}, input type must be a Tensor or Parameter.")
        return value

    def _cast_value(self, value, dtype=None):
        """The call's ``value``, checked to be a Tensor and cast to ``dtype`` (the distribution's by default)."""
        return ops.cast(self._check_value(value, "value"), self.dtype if dtype is None else dtype)

    def _cast_other(self, value, name):
        """The other distribution's parameter of kl_loss/cross_entropy, as a tensor of ``parameter_type``."""
        return ops.cast(self._check_value(value, name), self.parameter_type)

    # -- derived methods -------------------------------------------------------------------------------------------
    def _prob_from_log_prob(self, value, *args, **kwargs):
        return ops.exp(self._log_prob(value, *args, **kwargs))

    def _log_prob_from_prob(self, value, *args, **kwargs):
        return _utils.log(self._prob(value, *args, **kwargs))

    def _cdf_from_log_cdf(self, value, *args, **kwargs):
        return ops.exp(self._log_cdf(value, *args, **kwargs))

    def _cdf_from_survival(self, value, *args, **kwargs):
        return 1.0 - self._survival_function(value, *args, **kwargs)

    def _cdf_from_log_survival(self, value, *args, **kwargs):
        return 1.0 - ops.exp(self._log_survival(value, *args, **kwargs))

    def _survival_from_log_survival(self, value, *args, **kwargs):
        return ops.exp(self._log_survival(value, *args, **kwargs))

    def _survival_from_cdf(self, value, *args, **kwargs):
        return 1.0 - self._call_cdf(value, *args, **kwargs)

    def _log_cdf_from_cdf(self, value, *args, **kwargs):
        return _utils.log(self._call_cdf(value, *args, **kwargs))

    def _log_survival_from_survival(self, value, *args, **kwargs):
        return _utils.log(self._call_survival_function(value, *args, **kwargs))

    def _sd_from_var(self, *args, **kwargs):
        return ops.sqrt(self._var(*args, **kwargs))

    def _var_from_sd(self, *args, **kwargs):
        return ops.square(self._sd(*args, **kwargs))

    # -- methods a subclass overrides ------------------------------------------------------------------------------
    def _get_dist_args(self, *args, **kwargs):
        return _utils.raise_not_implemented("get_dist_args", self.name)

    def _get_dist_type(self):
        return _utils.raise_not_implemented("get_dist_type", self.name)

    def _kl_loss(self, *args, **kwargs):
        return _utils.raise_not_implemented("kl_loss", self.name)

    def _mean(self, *args, **kwargs):
        return _utils.raise_not_implemented("mean", self.name)

    def _mode(self, *args, **kwargs):
        return _utils.raise_not_implemented("mode", self.name)

    def _entropy(self, *args, **kwargs):
        return _utils.raise_not_implemented("entropy", self.name)

    def _sample(self, *args, **kwargs):
        return _utils.raise_not_implemented("sample", self.name)

    def _sample_shape(self, shape, batch_shape):
        """The shape to draw (``shape + batch_shape``, at least (1,)) and whether to squeeze the drawn axis away."""
        _utils.check_tuple(shape, "shape")
        origin = shape + batch_shape
        if origin == ():
            return (1,), True
        return origin, False

    def _transformed_by(self, bijector):
        """The distribution of ``bijector`` applied to this one (what ``bijector(self)`` returns)."""
        return TransformedDistribution(bijector, self)

    # -- public API ------------------------------------------------------------------------------------------------
    def get_dist_args(self, *args, **kwargs):
        """The distribution's parameters: the given ones, else the defaults (a list of Tensors)."""
        return self._get_dist_args(*args, **kwargs)

    def get_dist_type(self):
        """The type of the distribution, as a string ('Normal', ...)."""
        return self._get_dist_type()

    def log_prob(self, value, *args, **kwargs):
        """The log probability (density or mass) at ``value``."""
        return self._call_log_prob(value, *args, **kwargs)

    def prob(self, value, *args, **kwargs):
        """The probability (density or mass) at ``value``."""
        return self._call_prob(value, *args, **kwargs)

    def cdf(self, value, *args, **kwargs):
        """The cumulative distribution function at ``value``."""
        return self._call_cdf(value, *args, **kwargs)

    def log_cdf(self, value, *args, **kwargs):
        """The log of the cumulative distribution function at ``value``."""
        return self._call_log_cdf(value, *args, **kwargs)

    def survival_function(self, value, *args, **kwargs):
        """The survival function ``1 - cdf`` at ``value``."""
        return self._call_survival_function(value, *args, **kwargs)

    def log_survival(self, value, *args, **kwargs):
        """The log of the survival function at ``value``."""
        return self._call_log_survival(value, *args, **kwargs)

    def kl_loss(self, dist, *args, **kwargs):
        """KL(self || other) for ``other`` of type ``dist`` (a string) whose parameters follow."""
        return self._kl_loss(dist, *args, **kwargs)

    def cross_entropy(self, dist, *args, **kwargs):
        """H(self, other) = H(self) + KL(self || other)."""
        return self._call_cross_entropy(dist, *args, **kwargs)

    def mean(self, *args, **kwargs):
        """The mean."""
        return self._mean(*args, **kwargs)

    def mode(self, *args, **kwargs):
        """The mode."""
        return self._mode(*args, **kwargs)

    def sd(self, *args, **kwargs):
        """The standard deviation."""
        return self._call_sd(*args, **kwargs)

    def var(self, *args, **kwargs):
        """The variance."""
        return self._call_var(*args, **kwargs)

    def entropy(self, *args, **kwargs):
        """The entropy."""
        return self._entropy(*args, **kwargs)

    def sample(self, *args, **kwargs):
        """Samples of shape ``shape + batch_shape`` (``shape`` a tuple, first argument)."""
        return self._sample(*args, **kwargs)

    def construct(self, name, *args, **kwargs):
        """Call the method named ``name`` ('prob', 'log_prob', ..., 'sample', 'get_dist_args', 'get_dist_type')."""
        if name == "log_prob":
            return self._call_log_prob(*args, **kwargs)
        if name == "prob":
            return self._call_prob(*args, **kwargs)
        if name == "cdf":
            return self._call_cdf(*args, **kwargs)
        if name == "log_cdf":
            return self._call_log_cdf(*args, **kwargs)
        if name == "survival_function":
            return self._call_survival_function(*args, **kwargs)
        if name == "log_survival":
            return self._call_log_survival(*args, **kwargs)
        if name == "kl_loss":
            return self._kl_loss(*args, **kwargs)
        if name == "mean":
            return self._mean(*args, **kwargs)
        if name == "mode":
            return self._mode(*args, **kwargs)
        if name == "sd":
            return self._call_sd(*args, **kwargs)
        if name == "var":
            return self._call_var(*args, **kwargs)
        if name == "entropy":
            return self._entropy(*args, **kwargs)
        if name == "cross_entropy":
            return self._call_cross_entropy(*args, **kwargs)
        if name == "sample":
            return self._sample(*args, **kwargs)
        if name == "get_dist_args":
            return self._get_dist_args(*args, **kwargs)
        if name == "get_dist_type":
            return self._get_dist_type()
        return _utils.raise_not_implemented(name, self.name)


class _TwoParameters(Distribution):
    """The constructor shared by the distributions of two float parameters whose second must be > 0: Normal,
    HalfNormal and Laplace (``mean``, ``sd``), Cauchy and Logistic (``loc``, ``scale``).

    ``_PARAMS`` names the two parameters (the constructor's argument names, in ``parameters`` and ``param_dict``),
    ``_ATTRS`` the attributes holding their defaults, and ``_POSITIVE`` the second one in the ValueError raised when
    it is not > 0.
    """

    _PARAMS = ("loc", "scale")
    _ATTRS = ("_loc", "_scale")
    _POSITIVE = "scale"

    def __init__(self, first, second, seed, dtype, name):
        a, b = self._PARAMS
        # what a subclass's ``dict(locals())`` would hold, in its order
        param = {"self": self, a: first, b: second, "seed": seed, "dtype": dtype, "name": name,
                 "param_dict": {a: first, b: second}}
        _utils.check_dtype(dtype, mstype.float_type, type(self).__name__)
        super().__init__(seed, dtype, name, param)
        setattr(self, self._ATTRS[0], self._add_parameter(first, a))
        setattr(self, self._ATTRS[1], self._add_parameter(second, b))
        if getattr(self, self._ATTRS[1]) is not None:
            _utils.check_greater_zero(getattr(self, self._ATTRS[1]), self._POSITIVE)


class _MeanSd(_TwoParameters):
    """Normal's, HalfNormal's and Laplace's ``mean`` and ``sd``."""

    _PARAMS = ("mean", "sd")
    _ATTRS = ("_mean_value", "_sd_value")
    _POSITIVE = "Standard deviation"


class _LocationScale(_TwoParameters):
    """Cauchy's and Logistic's ``loc`` and ``scale``: properties, ``extend_repr`` and ``get_dist_args``."""

    def extend_repr(self):
        if self.is_scalar_batch:
            return f"location = {self._loc}, scale = {self._scale}"
        return f"batch_shape = {self._broadcast_shape}"

    @property
    def loc(self):
        """The location."""
        return self._loc

    @property
    def scale(self):
        """The scale."""
        return self._scale

    def _get_dist_args(self, loc=None, scale=None):
        loc = self._loc if loc is None else _utils.check_tensor(loc, "loc")
        scale = self._scale if scale is None else _utils.check_tensor(scale, "scale")
        return loc, scale


class TransformedDistribution(Distribution):
    r"""The distribution of Y = f(X) for a bijector f and a distribution of X.

    :math:`\log p_Y(y) = \log p_X(f^{-1}(y)) + \log |df^{-1}/dy|`, :math:`F_Y(y) = F_X(f^{-1}(y))` (f increasing);
    ``mean`` is defined for a linear f only. The methods take the underlying distribution's parameters per call.

    Args:
        bijector (Bijector): f.
        distribution (Distribution): The distribution of X, of a float dtype.
        seed (int): The seed of sampling. Default: ``None`` (0).
        name (str): Default: ``'transformed_distribution'``.

    Examples:
        >>> import mindspore as ms
        >>> import mindspore.nn.probability.bijector as msb
        >>> import mindspore.nn.probability.distribution as msd
        >>> d = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0))
        >>> print(d.cdf(ms.Tensor([1.0])))
        [0.5]
    """

    def __init__(self, bijector, distribution, seed=None, name="transformed_distribution"):
        param = dict(locals())
        cls_name = type(self).__name__
        _utils.check_instance("bijector", bijector, Bijector, cls_name)
        _utils.check_instance("distribution", distribution, Distribution, cls_name)
        _utils.check_dtype(distribution.dtype, mstype.float_type, cls_name)
        super().__init__(seed, distribution.dtype, name, param)
        self._bijector = bijector
        self._distribution = distribution
        self._is_linear_transformation = bijector.is_constant_jacobian
        self._dtype = distribution.dtype
        self._is_scalar_batch = distribution.is_scalar_batch and bijector.is_scalar_batch
        self._batch_shape = distribution.batch_shape
        self.default_parameters = distribution.default_parameters
        self.parameter_names = distribution.parameter_names
        self.parameter_type = distribution.parameter_type
        self._broadcast_shape = self._broadcast_bijector_dist()

    @property
    def bijector(self):
        """f."""
        return self._bijector

    @property
    def distribution(self):
        """The distribution of X."""
        return self._distribution

    @property
    def dtype(self):
        return self._dtype

    @property
    def is_linear_transformation(self):
        """Whether f has a constant Jacobian."""
        return self._is_linear_transformation

    def _broadcast_bijector_dist(self):
        if self.batch_shape is None or self.bijector.batch_shape is None:
            return None
        return tuple(np.broadcast_shapes(tuple(self.bijector.batch_shape), tuple(self.batch_shape)))

    def _cdf(self, value, *args, **kwargs):
        return self.distribution("cdf", self.bijector("inverse", value), *args, **kwargs)

    def _log_cdf(self, value, *args, **kwargs):
        return _utils.log(self._cdf(value, *args, **kwargs))

    def _survival_function(self, value, *args, **kwargs):
        return 1.0 - self._cdf(value, *args, **kwargs)

    def _log_survival(self, value, *args, **kwargs):
        return _utils.log(self._survival_function(value, *args, **kwargs))

    def _log_prob(self, value, *args, **kwargs):
        unadjusted = self.distribution("log_prob", self.bijector("inverse", value), *args, **kwargs)
        log_jacobian = self.bijector("inverse_log_jacobian", value)
        # where X's density is 0 the Jacobian (possibly inf or nan there) does not enter
        return ops.select(unadjusted == -np.inf, unadjusted, unadjusted + log_jacobian)

    def _prob(self, value, *args, **kwargs):
        return ops.exp(self._log_prob(value, *args, **kwargs))

    def _sample(self, *args, **kwargs):
        return self.bijector("forward", self.distribution("sample", *args, **kwargs))

    def _mean(self, *args, **kwargs):
        if not self.is_linear_transformation:
            raise _utils.MSValueError("mean function must be implemented for non-linear transformation")
        return self.bijector("forward", self.distribution("mean", *args, **kwargs))
