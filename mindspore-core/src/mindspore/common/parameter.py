"""Parameter and ParameterTuple: the trainable state of a network.

A :class:`Parameter` is a :class:`Tensor` with a ``name``, a ``requires_grad`` flag and the
bookkeeping Cells and optimizers use. It is updated in place (``set_data``, ``assign_value``,
optimizer kernels), so every holder sees the new value.
"""
from __future__ import annotations

import numbers
import weakref

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor

__all__ = ["Parameter", "ParameterTuple"]

_unnamed = [0]
_DEFAULT_NAME = "Parameter"
_NAME_MAX_LEN = 1024
# MindSpore's implicit_conversion_seq: set_data casts incoming data only towards a wider (or equal) dtype
_CONVERSION_RANK = {t: i for i, t in enumerate((
    mstype.bool_, mstype.int8, mstype.uint8, mstype.int16, mstype.uint16, mstype.int32, mstype.uint32,
    mstype.int64, mstype.uint64, mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64,
    mstype.complex64, mstype.complex128))}
_CONVERSION_RANK[mstype.bfloat16] = _CONVERSION_RANK[mstype.float16]


#: set by ``nn.no_init_parameters``: Parameters made from initializers stay lazy
_LAZY_INIT = [False]


class Parameter(Tensor):
    """A named, trainable tensor.

    Args:
        default_input: the initial value: a Tensor (possibly lazily initialised by ``initializer``),
            a NumPy array, or a Python number.
        name: the parameter's name; Cells rename unnamed and nested parameters to their attribute path.
        requires_grad: whether optimizers and ``grad(weights=...)`` see it as trainable.

    Examples:
        >>> import numpy as np
        >>> from mindspore import Parameter, Tensor
        >>> w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
        >>> w
        Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)
    """

    __slots__ = ("_name", "_requires_grad", "layerwise_parallel", "parallel_optimizer", "_user_named",
                 "init_mode", "is_init", "_cast_type", "param_info", "__dict__")
    #: (what the layers below ``common`` test instead of importing this class: a written Parameter is never cast)
    __ms_parameter__ = True

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        if isinstance(default_input, (bool, np.bool_)):
            raise MSValueError("Parameter data can not be `bool`")
        if isinstance(default_input, Tensor) and default_input._data is None and _LAZY_INIT[0]:
            # inside nn.no_init_parameters(): keep the initializer, draw on first use or init_data()
            Tensor.__init__(self, None, default_input.dtype, default_input.shape, default_input._init)
        elif isinstance(default_input, Tensor):
            # like MindSpore, an initializer's data is drawn now, so seeded draws follow creation order; the
            # parameter owns a copy, made on the device, except of data drawn here: an initializer's tensor is
            # consumed by its Parameter, as in MindSpore (no second copy of a 100M-element layer)
            drawn_here = default_input._data is None
            source = default_input.init_data()
            Tensor._init_from(self, source if drawn_here else source._copy())
        elif isinstance(default_input, int):
            Tensor.__init__(self, default_input, mstype.int32)
        elif isinstance(default_input, float):
            Tensor.__init__(self, default_input, mstype.float32)
        elif isinstance(default_input, (np.ndarray, list, tuple, numbers.Number, np.generic)):
            Tensor.__init__(self, default_input)
        else:
            raise MSTypeError(f"For 'Parameter', the 'default_input' must be a Tensor, numpy.ndarray, list, tuple or "
                              f"number, but got {type(default_input).__name__}.")
        name = self._check_name(name)
        self._user_named = name != _DEFAULT_NAME
        self._name = name
        self.requires_grad = requires_grad
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer
        self.init_mode = None
        self.is_init = False

    @staticmethod
    def _check_name(name):
        """The name MindSpore stores: stripped, ``'Parameter'`` for None or empty."""
        if name is None:
            return _DEFAULT_NAME
        if not isinstance(name, str):
            raise MSValueError(f"The type of the Parameter's name should be 'string' or 'None', but got {type(name)}.")
        name = name.strip() or _DEFAULT_NAME
        if len(name) > _NAME_MAX_LEN:
            raise MSValueError(f"The length of the '{name}' name should be less than {_NAME_MAX_LEN}.")
        return name

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = self._check_name(value)

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise MSTypeError(f"For 'Parameter', the 'requires_grad' must be bool, but got {type(value).__name__}.")
        self._requires_grad = value

    @property
    def comm_fusion(self):
        """The fusion id of this parameter's gradient communication (1 unless set): gradients with the same id are
        all-reduced together (see ``nn.DistributedGradReducer``); ``Cell.set_comm_fusion`` sets a cell's."""
        return self.__dict__.get("_comm_fusion", 1)

    @comm_fusion.setter
    def comm_fusion(self, value):
        self.__dict__["_comm_fusion"] = check_fusion_id(value)

    # -- MindSpore 2.10's bookkeeping properties (parameter server, embedding cache, pipeline stages). On the CPU
    # they only record what they are given, as 2.10 does; the validation and messages are 2.10's.
    @property
    def key(self):
        """The parameter's unique key (-1 unless set; parameter-server bookkeeping)."""
        return self.__dict__.get("_key", -1)

    @key.setter
    def key(self, value=-1):
        if not isinstance(value, int):
            raise MSTypeError("The argument `key` must be int type.")
        self.__dict__["_key"] = value

    @property
    def sliced(self):
        """Whether the data is already this rank's slice (set by the parallel loaders; False by default)."""
        return self.__dict__.get("_sliced", False)

    @sliced.setter
    def sliced(self, sliced_):
        self.__dict__["_sliced"] = sliced_

    @property
    def inited_param(self):
        """The parameter ``init_data`` made in place of this one (None: ``init_data`` initialises in place)."""
        return self.__dict__.get("_inited_param")

    @property
    def cache_enable(self):
        """Whether the parameter uses the (Ascend) embedding cache; False by default."""
        return self.__dict__.get("_cache_enable", False)

    @cache_enable.setter
    def cache_enable(self, value=True):
        if not isinstance(value, bool):
            raise MSTypeError("The argument `cache_enable` must be bool type.")
        self.__dict__["_cache_enable"] = value

    @property
    def cache_shape(self):
        """The shape of the parameter's embedding cache, a list ([] unless set)."""
        return list(self.__dict__.get("_cache_shape", ()))

    @cache_shape.setter
    def cache_shape(self, value):
        if not isinstance(value, (tuple, list)):
            raise MSTypeError("The argument `cache_shape` must be tuple or list type.")
        self.__dict__["_cache_shape"] = list(value)

    @property
    def parallel_optimizer_comm_recompute(self):
        """Whether the AllGather the parallel optimizer inserts for this parameter is recomputed (False)."""
        return self.__dict__.get("_parallel_optimizer_comm_recompute", False)

    @parallel_optimizer_comm_recompute.setter
    def parallel_optimizer_comm_recompute(self, value):
        if not isinstance(value, bool):
            raise MSTypeError(f"The input value must be a bool, but got {type(value).__name__}.")
        self.__dict__["_parallel_optimizer_comm_recompute"] = value

    def add_pipeline_stage(self, stage):
        """Record that pipeline stage ``stage`` uses this parameter (2.10 warns that the interface may go)."""
        import mindspore.log as logger
        logger.warning("This interface may be deleted in the future.")
        if not isinstance(stage, int) or stage < 0:
            raise MSTypeError("`stage` must be a positive number of int type")
        self.__dict__.setdefault("_pipeline_stages", []).append(stage)

    @property
    def data(self):
        return self

    def value(self):
        """A plain Tensor with this parameter's current value (a copy)."""
        return self._copy()

    def set_data(self, data, slice_shape=False):
        """Replace the value with ``data`` (a Tensor, NumPy array or number), in place; returns ``self``.

        The shape may change (MindSpore 2.10 does not check it; ``load_param_into_net`` checks shapes itself); data of
        a narrower dtype is cast to the parameter's dtype, a wider one is refused (MindSpore's implicit-conversion
        rule).
        """
        if isinstance(data, (bool, int, float)) and not isinstance(data, Tensor):
            if mstype.is_int(self.dtype) and isinstance(data, float):
                self._raise_type_error(mstype.float32)
            data = Tensor(data, self.dtype)
        elif isinstance(data, np.ndarray):
            data = Tensor(data)
        elif not isinstance(data, Tensor):
            raise MSTypeError(f"Parameter data must be [`Tensor`, `int`, `float`] or a kind of `Tensor` (like "
                              f"`Tensor`). But with type {type(data)}.")
        if data.dtype != self.dtype and _CONVERSION_RANK.get(self.dtype, -1) < _CONVERSION_RANK.get(data.dtype, -1):
            self._raise_type_error(data.dtype)
        self.assign_value(data.init_data())
        return self

    def _raise_type_error(self, incoming):
        raise MSTypeError(f"Incoming Parameter dtype can not be converted to current dtype implicitly. Current dtype "
                          f"is {self.dtype}, and incoming is {incoming}. Use .set_dtype(xxx) to change the dtype.")

    def clone(self, init="same"):
        """A new Parameter with this one's name and flags, holding a copy of the value (``init='same'``) or data from
        ``init`` (an initializer name, Initializer, number or Tensor of the same shape)."""
        same = isinstance(init, str) and init == "same"
        if self._data is None and self._init is not None:
            # not drawn yet (``nn.no_init_parameters``): neither is the clone, as in MindSpore (an optimizer made
            # in that context leaves the network's weights to be drawn where they are first used)
            lazy = _LAZY_INIT[0]
            _LAZY_INIT[0] = True
            try:
                if same:
                    value = Tensor(None, self.dtype, self.shape, self._init)
                else:
                    from mindspore.common.initializer import initializer
                    value = initializer(init, self.shape, self.dtype)
                p = Parameter(value, self.name, self.requires_grad, self.layerwise_parallel, self.parallel_optimizer)
            finally:
                _LAZY_INIT[0] = lazy
        else:
            p = Parameter(self._copy(), self.name, self.requires_grad, self.layerwise_parallel,
                          self.parallel_optimizer)
            if not same:
                from mindspore.common.initializer import initializer
                p.set_data(initializer(init, self.shape, self.dtype))
        p._user_named = self._user_named
        # optimizer states are clones: mindspore-parallel slices them like this parameter when it shards it
        self.__dict__.setdefault("_clones", []).append(weakref.ref(p))
        return p

    def init_data(self, layout=None, set_sliced=False):
        """Draw the data of a parameter made in ``nn.no_init_parameters``; returns ``self``. Drawn while a network
        runs in SEMI_AUTO_PARALLEL or AUTO_PARALLEL (where MindSpore draws such parameters, when it compiles the
        network) and without a global seed, the draw is seeded by the whole parameter's slice index, 0 (see
        ``Tensor.init_data``), so every rank starts from the same weights, as in MindSpore."""
        slice_index = None
        if self._data is None and self._init is not None:
            from mindspore.context import get_auto_parallel_context
            from mindspore.common.seed import get_seed
            if get_seed() is None and get_auto_parallel_context("parallel_mode") in (
                    "semi_auto_parallel", "auto_parallel"):
                slice_index = 0
        Tensor.init_data(self, slice_index)
        self.is_init = True
        return self

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={tuple(self.shape)}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    def __reduce__(self):
        return (_rebuild_parameter, (self.asnumpy(), str(self.dtype), self.name, self.requires_grad))

    def __deepcopy__(self, memo):
        return self.clone()

    def __copy__(self):
        return self.clone()


def check_fusion_id(value):
    """``value`` as a communication fusion id (a non-negative int), with MindSpore's validator messages."""
    if isinstance(value, bool) or (isinstance(value, int) and value < 0):
        raise (MSTypeError if isinstance(value, bool) else MSValueError)(
            f"The input value must be int and must >= 0, but got '{value}' with type '{type(value).__name__}'.")
    if not isinstance(value, int):
        raise MSTypeError(f"The input value must be int, but got '{type(value).__name__}'")
    return value


def _rebuild_parameter(array, dtype_name, name, requires_grad):
    return Parameter(Tensor(array, mstype.to_ms_dtype(dtype_name)), name, requires_grad)


def first_shared_name(params):
    """The first of ``params`` whose name another (distinct) Parameter among them already has, or None. Unnamed
    Parameters are not compared (MindSpore gives each a generated unique name)."""
    seen = {}
    for p in params:
        if p.name != _DEFAULT_NAME and seen.setdefault(p.name, p) is not p:
            return p
    return None


class ParameterTuple(tuple):
    """An immutable tuple of Parameters (what ``GradOperation(get_by_list=True)`` takes)."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise MSTypeError(f"For 'ParameterTuple', each element must be a Parameter, but got "
                                  f"{type(p).__name__}.")
        same = first_shared_name(items)
        if same is not None:
            raise MSValueError(f"The value {same} , its name '{same.name}' already exists. Please set a unique name "
                               f"for the parameter.")
        return tuple.__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Copies of every parameter, renamed ``prefix.<name>``."""
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)
