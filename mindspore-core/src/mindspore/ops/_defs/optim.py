"""Optimizer-update primitives of MindSpore 2.10: ``Apply*`` (dense), ``SparseApply*``/``FusedSparse*`` (rows
addressed by ``indices``), ``Adam``, ``AdamWeightDecay``, ``SGD``, ``FusedAdaFactor``, ``LARSUpdate``, ...

Each one writes its state inputs (``var``, ``accum``, ``m``, ``v``, ...: Parameters) in place, as ``ApplyMomentum``
does, and returns what MindSpore 2.10 returns: most return their written inputs (``(var, accum)`` ...), a few only
``var`` (``ApplyFtrl``, ``ApplyRMSProp``, ``ApplyCenteredRMSProp``, ``ApplyGradientDescent``, ``SGD``, ...).
``side_effect`` marks them for the graph compiler: kept, in program order, never folded, merged or dropped
(``mindspore._infer.staging.is_effectful``), whether or not their results are used. None is differentiated.

A primitive here is described by data, read by one set of rules (:class:`_Update`):

* ``io_spec``: ``(name, kind)`` per input, in MindSpore's order. Kinds: ``ref`` (a state written in place, of
  the first ``ref``'s shape), ``grad`` (read, that shape too), ``scalar`` (a number or a one-element tensor),
  ``step`` (an integer scalar), ``rows``/``indices`` (a sparse gradient: ``rows[i]`` belongs to row
  ``indices[i]`` of the states; ``rows.shape == (len(indices),) + var.shape[1:]``), ``pair`` (two numbers in a
  tensor), ``free`` (a tensor whose shape the primitive checks itself);
* ``returns``: the names of the inputs whose updated values are the outputs (``AdamNoUpdateParam`` and
  ``LARSUpdate`` compute a new tensor instead: ``returns`` names the input it is shaped like);
* ``var_types``: the float dtypes the states may have (all states and gradients share one, except where
  ``state_types`` says otherwise, as ``FusedCastAdamWeightDecay``'s float32 moments of a float16 ``var``).

The update formulas are MindSpore's (docstrings). Where MindSpore's CPU kernels refine them, the kernels follow:
repeated sparse indices are summed and out-of-range ones skipped, ApplyAdagrad divides by ``sqrt(accum + 1e-6)``,
ApplyProximalAdagrad's proximal step uses the rate ``lr / sqrt(accum)``, ApplyCenteredRMSProp leaves elements whose
denominator is not positive. Where 2.10's CPU kernels contradict the documented formula (ApplyAdagrad ignoring
``update_slots=False``, ApplyFtrl taking ``+l1`` for ``sign(linear)*l1``, ApplyAdagradDA shrinking
``|accum - l1*step|``), the formula wins. Kernels live in the backends' ``kernels/optim.py``.
"""
import math as _pymath
import numbers

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

F16_32 = (mstype.float16, mstype.float32)
FLOATS = (mstype.float16, mstype.float32, mstype.float64)
_INDEX = (mstype.int32, mstype.int64)
_TENSOR_KINDS = ("ref", "grad", "rows", "free")


def _check_bool(op, name, value):
    if not isinstance(value, bool):
        raise MSTypeError(f"For '{op}', the type of '{name}' should be 'bool', but got type "
                          f"'{type(value).__name__}'.")
    return value


def _check_float(op, name, value, lo=None, lo_open=False, hi=None):
    """A float attribute (MindSpore's ``check_value_type(..., [float])``), optionally bounded."""
    if not isinstance(value, float):
        raise MSTypeError(f"For '{op}', the type of '{name}' should be 'float', but got type "
                          f"'{type(value).__name__}'.")
    if lo is not None and (value < lo or (lo_open and value == lo)):
        rel = "greater than" if lo_open else "greater than or equal to"
        raise MSValueError(f"For '{op}', the '{name}' must be {rel} {lo}, but got {value}.")
    if hi is not None and value > hi:
        raise MSValueError(f"For '{op}', the '{name}' must be less than or equal to {hi}, but got {value}.")
    return value


class _Update(Primitive):
    """Shared rules of the optimizer updates (see the module docstring)."""

    side_effect = True   # writes its state inputs: graphs keep it, in program order
    io_spec = ()

    @property
    def written_inputs(self):
        return tuple(i for i, (_, kind) in enumerate(self.io_spec) if kind == "ref")

    returns = ("var",)
    var_types = F16_32
    state_types = {}     # name -> allowed dtypes, for states whose dtype may differ from var's
    bprop = NON_DIFFERENTIABLE

    # -- shapes -----------------------------------------------------------------------------------
    def _bind(self, values):
        if len(values) != len(self.io_spec):
            names = ", ".join(n for n, _ in self.io_spec)
            raise MSTypeError(f"For '{self.name}', the number of inputs must be {len(self.io_spec)} ({names}), "
                              f"but got {len(values)}.")
        return dict(zip((n for n, _ in self.io_spec), values))

    def _primary(self):
        return next(n for n, k in self.io_spec if k == "ref")

    def infer_shape(self, *shapes):
        args = self._bind(shapes)
        kinds = dict(self.io_spec)
        for name, kind in self.io_spec:
            shape = args[name]
            if kind in _TENSOR_KINDS + ("indices", "pair") and not rules.is_shape(shape):
                raise MSTypeError(f"For '{self.name}', the '{name}' must be a Tensor, but got "
                                  f"{type(shape).__name__}.")
            if kind in ("scalar", "step"):
                size = int(_pymath.prod(rules.scalar_shape(shape)))
                if size != 1:
                    raise MSValueError(f"For '{self.name}', the '{name}' must be a number or a tensor with one "
                                       f"element, but got shape {tuple(shape)}.")
            if kind == "pair" and tuple(shape) != (2,):
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must be (2,), but got {tuple(shape)}.")
        primary = self._primary()
        want = tuple(args[primary])
        for name, kind in self.io_spec:
            if kind in ("ref", "grad") and name not in self.state_shapes():
                self._same_shape(name, args[name], primary, want)
        if "indices" in kinds.values():
            self._sparse_shapes(args, kinds, want)
        self.check_shapes(args)
        outs = tuple(self.output_shape(n, args) for n in self.returns)
        return outs[0] if len(outs) == 1 else outs

    def _same_shape(self, name, shape, primary, want):
        if not rules.same_shape(shape, want):
            raise MSValueError(f"For '{self.name}', '{name}' and '{primary}' must have the same shape. But got "
                               f"'{name}' shape: {tuple(shape)}, '{primary}' shape: {want}.")

    def _sparse_shapes(self, args, kinds, want):
        rows = next(n for n, k in kinds.items() if k == "rows")
        indices = next(n for n, k in kinds.items() if k == "indices")
        rshape, ishape = tuple(args[rows]), tuple(args[indices])
        if len(ishape) != 1:
            raise MSValueError(f"For '{self.name}', the '{indices}' must be a 1-D tensor, but got shape {ishape}.")
        if not want:
            raise MSValueError(f"For '{self.name}', the '{self._primary()}' must be at least 1-D, but got shape ().")
        if len(rshape) != len(want) or not rules.same_shape(rshape[1:], want[1:]):
            raise MSValueError(f"For '{self.name}', the shape of '{rows}' must be (N,) + {want[1:]} (the shape of "
                               f"'{self._primary()}' without its first dimension), but got {rshape}.")
        if -1 not in (rshape[0], ishape[0]) and rshape[0] != ishape[0]:
            raise MSValueError(f"For '{self.name}', the {indices} size must be equal to {rows} first dimension size. "
                               f"But got {indices} size: {ishape[0]}, {rows} first dimension size: {rshape[0]}.")

    def state_shapes(self):
        """Inputs of kind ``ref``/``grad`` whose shape :meth:`check_shapes` checks instead (FusedAdaFactor)."""
        return ()

    def check_shapes(self, args):
        """Extra shape rules of one primitive (none by default)."""

    def output_shape(self, name, args):
        return tuple(args[name])

    # -- dtypes -----------------------------------------------------------------------------------
    def infer_dtype(self, *dtypes):
        args = self._bind(dtypes)
        primary = self._primary()
        base = args[primary]
        if not isinstance(base, mstype.Type):
            raise MSTypeError(f"For '{self.name}', the '{primary}' must be a Tensor, but got {type(base).__name__}.")
        rules.check_dtype_in(self.name, primary, base, self.var_types)
        for name, kind in self.io_spec:
            dt = args[name]
            if kind in _TENSOR_KINDS:
                allowed = self.state_types.get(name)
                if allowed is not None:
                    rules.check_dtype_in(self.name, name, dt, allowed)
                elif kind != "free" and dt != base:
                    rules.check_dtype_in(self.name, name, dt, (base,))
            elif kind == "indices":
                rules.check_dtype_in(self.name, name, dt, _INDEX)
            elif kind == "step":
                self._check_scalar(name, dt, _INDEX)
            elif kind in ("scalar", "pair"):
                self._check_scalar(name, dt, FLOATS)
        outs = tuple(self.output_dtype(n, args) for n in self.returns)
        return outs[0] if len(outs) == 1 else outs

    def _check_scalar(self, name, dt, allowed):
        if isinstance(dt, mstype.Type):
            rules.check_dtype_in(self.name, name, dt, allowed)
        elif isinstance(dt, bool) or not isinstance(dt, numbers.Real):
            raise MSTypeError(f"For '{self.name}', the '{name}' must be a Number or a Tensor, but got "
                              f"{type(dt).__name__}.")
        elif allowed is _INDEX and not isinstance(dt, numbers.Integral):
            raise MSTypeError(f"For '{self.name}', the '{name}' must be an int or an integer Tensor, but got "
                              f"{type(dt).__name__}.")

    def output_dtype(self, name, args):
        return args[name]


class _Locking(_Update):
    """A primitive whose only attribute is ``use_locking`` (no effect here: kernels run one at a time)."""

    @prim_attr_register
    def __init__(self, use_locking=False):
        _check_bool(self.name, "use_locking", use_locking)


class _NoAttr(_Update):
    @prim_attr_register
    def __init__(self):
        pass


def _sig(text):
    """``"var:ref m:ref lr:scalar"`` -> ``(("var", "ref"), ("m", "ref"), ("lr", "scalar"))``."""
    return tuple(tuple(item.split(":")) for item in text.split())


# --- dense Apply* --------------------------------------------------------------------------------
class ApplyAdaMax(_NoAttr):
    """``m = b1*m + (1-b1)*g; v = max(b2*v, |g|); var -= lr / (1 - beta1_power) * m / (v + eps)``;
    returns ``(var, m, v)``."""

    io_spec = _sig("var:ref m:ref v:ref beta1_power:scalar lr:scalar beta1:scalar beta2:scalar epsilon:scalar "
                     "grad:grad")
    returns = ("var", "m", "v")


class ApplyAdadelta(_NoAttr):
    """``accum = rho*accum + (1-rho)*g^2; update = sqrt(accum_update + eps) * g / sqrt(accum + eps);
    accum_update = rho*accum_update + (1-rho)*update^2; var -= lr*update``; returns the three states."""

    io_spec = _sig("var:ref accum:ref accum_update:ref lr:scalar rho:scalar epsilon:scalar grad:grad")
    returns = ("var", "accum", "accum_update")


class ApplyAdagrad(_Update):
    """``accum += g^2`` (when ``update_slots``); ``var -= lr * g / sqrt(accum)``; returns ``(var, accum)``."""

    io_spec = _sig("var:ref accum:ref lr:scalar grad:grad")
    returns = ("var", "accum")
    var_types = FLOATS + (mstype.complex64, mstype.complex128)

    @prim_attr_register
    def __init__(self, update_slots=True):
        _check_bool(self.name, "update_slots", update_slots)


class ApplyAdagradV2(_Update):
    """``accum += g^2`` (when ``update_slots``); ``var -= lr * g / (sqrt(accum) + epsilon)``."""

    io_spec = _sig("var:ref accum:ref lr:scalar grad:grad")
    returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, epsilon, update_slots=True):
        _check_float(self.name, "epsilon", epsilon)
        _check_bool(self.name, "update_slots", update_slots)


class ApplyAdagradDA(_Locking):
    """Dual averaging: ``ga += g; gsa += g^2; var = -lr * shrink(ga, l1*step) / (l2*step*lr + sqrt(gsa))``
    (``shrink`` only where ``l1 > 0``); returns ``var``."""

    io_spec = _sig("var:ref gradient_accumulator:ref gradient_squared_accumulator:ref grad:grad lr:scalar "
                     "l1:scalar l2:scalar global_step:step")


class ApplyAdamWithAmsgrad(_Update):
    """Adam with AMSGrad (``vhat = max(vhat, v)``), ``beta1``/``beta2``/``epsilon`` attributes; returns the
    four states."""

    io_spec = _sig("var:ref m:ref v:ref vhat:ref beta1_power:scalar beta2_power:scalar lr:scalar grad:grad")
    returns = ("var", "m", "v", "vhat")

    @prim_attr_register
    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        for name, value in (("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)):
            _check_float(self.name, name, value)
        _check_bool(self.name, "use_locking", use_locking)


class ApplyAdamWithAmsgradV2(_Locking):
    """:class:`ApplyAdamWithAmsgrad` with ``beta1``, ``beta2``, ``epsilon`` as inputs."""

    io_spec = _sig("var:ref m:ref v:ref vhat:ref beta1_power:scalar beta2_power:scalar lr:scalar beta1:scalar "
                     "beta2:scalar epsilon:scalar grad:grad")
    returns = ("var", "m", "v", "vhat")
    var_types = FLOATS


class ApplyAddSign(_NoAttr):
    """``m = beta*m + (1-beta)*g; var -= lr * (alpha + sign_decay*sign(g)*sign(m)) * g``; returns ``(var, m)``."""

    io_spec = _sig("var:ref m:ref lr:scalar alpha:scalar sign_decay:scalar beta:scalar grad:grad")
    returns = ("var", "m")
    var_types = FLOATS


class ApplyPowerSign(ApplyAddSign):
    """``m = beta*m + (1-beta)*g; var -= lr * exp(logbase*sign_decay*sign(g)*sign(m)) * g``."""

    io_spec = _sig("var:ref m:ref lr:scalar logbase:scalar sign_decay:scalar beta:scalar grad:grad")


class ApplyCenteredRMSProp(_Locking):
    """``mg = decay*mg + (1-decay)*g; ms = decay*ms + (1-decay)*g^2;
    mom = momentum*mom + lr*g / sqrt(ms - mg^2 + eps); var -= mom``; returns ``var``."""

    io_spec = _sig("var:ref mean_gradient:ref mean_square:ref moment:ref grad:grad learning_rate:scalar "
                     "decay:scalar momentum:scalar epsilon:scalar")
    var_types = FLOATS


class ApplyRMSProp(_Locking):
    """``ms = decay*ms + (1-decay)*g^2; mom = momentum*mom + lr*g / sqrt(ms + eps); var -= mom``; returns
    ``var``."""

    io_spec = _sig("var:ref mean_square:ref moment:ref learning_rate:scalar grad:grad decay:scalar "
                     "momentum:scalar epsilon:scalar")
    var_types = FLOATS


class ApplyFtrl(_Locking):
    """FTRL-proximal (``lr``, ``l1``, ``l2``, ``lr_power`` inputs); updates ``var``, ``accum``, ``linear``;
    returns ``var``."""

    io_spec = _sig("var:ref accum:ref linear:ref grad:grad lr:scalar l1:scalar l2:scalar lr_power:scalar")


class ApplyGradientDescent(_NoAttr):
    """``var -= alpha * delta``; returns ``var``."""

    io_spec = _sig("var:ref alpha:scalar delta:grad")
    var_types = FLOATS


class ApplyProximalGradientDescent(_NoAttr):
    """``p = var - alpha*delta; var = sign(p) / (1 + alpha*l2) * max(|p| - alpha*l1, 0)``; returns ``var``."""

    io_spec = _sig("var:ref alpha:scalar l1:scalar l2:scalar delta:grad")
    var_types = FLOATS


class ApplyProximalAdagrad(_Locking):
    """``accum += g^2; p = var - lr*g/sqrt(accum); var = sign(p) / (1 + lr*l2) * max(|p| - lr*l1, 0)``;
    returns ``(var, accum)``."""

    io_spec = _sig("var:ref accum:ref lr:scalar l1:scalar l2:scalar grad:grad")
    returns = ("var", "accum")


class ApplyKerasMomentum(_Update):
    """``accum = accum*momentum - g*lr; var += accum`` (``use_nesterov``: ``var += accum*momentum - g*lr``);
    returns ``(var, accum)``."""

    io_spec = _sig("var:ref accum:ref lr:scalar grad:grad momentum:scalar")
    returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _check_bool(self.name, "use_locking", use_locking)
        _check_bool(self.name, "use_nesterov", use_nesterov)


class FusedWeightScaleApplyMomentum(_NoAttr):
    """``g' = (var*weight_decay + g) * loss_scale; accum = momentum*accum + g'; var -= lr*accum``; returns
    ``var``."""

    io_spec = _sig("weight_decay:scalar loss_scale:scalar variable:ref accumulation:ref learning_rate:scalar "
                     "gradient:grad momentum:scalar")
    returns = ("variable",)
    var_types = FLOATS


# --- Adam family -----------------------------------------------------------------------------------
class Adam(_Update):
    """``m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2; lr' = lr*sqrt(1-beta2_power)/(1-beta1_power);
    var -= lr' * m / (sqrt(v) + eps)`` (``use_nesterov``: ``lr' * (b1*m + (1-b1)*g) / (sqrt(v) + eps)``);
    returns ``(var, m, v)``."""

    io_spec = _sig("var:ref m:ref v:ref beta1_power:scalar beta2_power:scalar lr:scalar beta1:scalar "
                     "beta2:scalar epsilon:scalar gradient:grad")
    returns = ("var", "m", "v")
    var_types = FLOATS

    @prim_attr_register
    def __init__(self, use_locking=False, use_nesterov=False):
        _check_bool(self.name, "use_locking", use_locking)
        _check_bool(self.name, "use_nesterov", use_nesterov)


class AdamNoUpdateParam(Adam):
    """:class:`Adam` without ``var``: updates ``m`` and ``v`` and returns the step ``-lr' * m / (sqrt(v) + eps)``
    that :class:`Adam` would add to it (float32)."""

    io_spec = _sig("m:ref v:ref beta1_power:scalar beta2_power:scalar lr:scalar beta1:scalar beta2:scalar "
                     "epsilon:scalar gradient:grad")
    returns = ("gradient",)
    var_types = (mstype.float32,)


class AdamWeightDecay(_Locking):
    """``m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2; var -= lr * (m / (sqrt(v) + eps) + decay*var)``; returns
    ``(var, m, v)``."""

    io_spec = _sig("var:ref m:ref v:ref lr:scalar beta1:scalar beta2:scalar epsilon:scalar decay:scalar "
                     "gradient:grad")
    returns = ("var", "m", "v")
    var_types = FLOATS


class FusedCastAdamWeightDecay(_Locking):
    """:class:`AdamWeightDecay` on float32 moments of a float16 or float32 ``var``, the gradient first divided by
    ``global_norm``; returns ``(var, m, v)``."""

    io_spec = _sig("var:ref m:ref v:ref lr:scalar beta1:scalar beta2:scalar epsilon:scalar decay:scalar "
                     "gradient:grad global_norm:scalar")
    returns = ("var", "m", "v")
    state_types = {"m": (mstype.float32,), "v": (mstype.float32,)}


class SGD(_Update):
    """``g' = g + weight_decay*p``; with ``momentum > 0``: ``accum = g'`` where ``stat > 0`` (then ``stat = 0``),
    else ``accum = momentum*accum + (1-dampening)*g'``, and ``g' = accum`` (``nesterov``: ``g' += momentum*accum``);
    ``p -= lr*g'``; returns ``parameters``."""

    io_spec = _sig("parameters:ref gradient:grad learning_rate:scalar accum:ref momentum:scalar stat:ref")
    returns = ("parameters",)

    @prim_attr_register
    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        for name, value in (("dampening", dampening), ("weight_decay", weight_decay)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise MSTypeError(f"For '{self.name}', the type of '{name}' should be 'float', but got type "
                                  f"'{type(value).__name__}'.")
        _check_bool(self.name, "nesterov", nesterov)
        if nesterov and dampening != 0:
            raise MSValueError(f"For '{self.name}', the 'dampening' must be 0 when 'nesterov' is True, but got "
                               f"'dampening' is {dampening} and 'nesterov' is {nesterov}.")


class LARSUpdate(_Update):
    """Layer-wise adaptive rate scaling of a gradient: ``ratio = hyperpara*|w| / (|g| + weight_decay*|w| + eps)``
    (``|w| = sqrt(norm_weight)``, ``|g| = sqrt(norm_gradient)``; 1 where either norm is 0; ``use_clip``:
    ``min(ratio / learning_rate, 1)``); returns ``ratio * (gradient + weight_decay*weight)``. Writes nothing."""

    io_spec = _sig("weight:ref gradient:grad norm_weight:scalar norm_gradient:scalar weight_decay:scalar "
                     "learning_rate:scalar")
    returns = ("gradient",)
    var_types = FLOATS
    side_effect = False   # a pure function of its inputs

    @prim_attr_register
    def __init__(self, epsilon=1e-05, hyperpara=0.001, use_clip=False):
        _check_float(self.name, "epsilon", epsilon)
        _check_float(self.name, "hyperpara", hyperpara)
        _check_bool(self.name, "use_clip", use_clip)


class FusedAdaFactor(_Update):
    """Adafactor (factored second moments ``exp_avg_sq_row``/``exp_avg_sq_col`` for a ``param`` of rank >= 2,
    ``exp_avg_sq`` otherwise); returns ``param``. See ``mindspore_cpu.kernels.optim`` for the steps."""

    io_spec = _sig("epsilon:pair clip_threshold:scalar beta1:scalar beta2t:scalar weight_decay:scalar "
                     "learning_rate:scalar grad:grad param:ref exp_avg:free exp_avg_sq_row:free exp_avg_sq_col:free "
                     "exp_avg_sq:free")
    returns = ("param",)
    state_types = {n: F16_32 for n in ("exp_avg", "exp_avg_sq_row", "exp_avg_sq_col", "exp_avg_sq")}

    @prim_attr_register
    def __init__(self, enable_scale_parameter=False, enable_first_moment=False, enable_weight_decay=False):
        for name, value in (("enable_scale_parameter", enable_scale_parameter),
                            ("enable_first_moment", enable_first_moment),
                            ("enable_weight_decay", enable_weight_decay)):
            _check_bool(self.name, name, value)

    def _primary(self):
        return "param"

    def check_shapes(self, args):
        param = tuple(args["param"])
        if not param or _pymath.prod(param) == 0:
            raise MSValueError(f"For '{self.name}', the 'param' must have at least one dimension and no empty "
                               f"dimension, but got shape {param}.")
        wants = {"exp_avg": (param, self.enable_first_moment)}
        if len(param) >= 2:
            wants["exp_avg_sq_row"] = (param[:-1], True)
            wants["exp_avg_sq_col"] = (param[:-2] + param[-1:], True)
        else:
            wants["exp_avg_sq"] = (param, True)
        for name, (want, needed) in wants.items():
            if needed and not rules.same_shape(args[name], want):
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must be {want} for a 'param' of shape "
                                   f"{param}, but got {tuple(args[name])}.")


class FusedAdaFactorWithGlobalNorm(FusedAdaFactor):
    """:class:`FusedAdaFactor` with the gradient divided by ``global_norm`` (when it is at least 1e-30)."""

    io_spec = FusedAdaFactor.io_spec + _sig("global_norm:scalar")


# --- sparse updates --------------------------------------------------------------------------------
class FusedSparseAdam(Adam):
    """:class:`Adam` with the gradient given as rows (``grad[i]`` for row ``indices[i]``, repeated indices summed,
    missing rows zero): every row of ``m``, ``v`` and ``var`` moves. Returns ``(var, m, v)``."""

    io_spec = _sig("var:ref m:ref v:ref beta1_power:scalar beta2_power:scalar lr:scalar beta1:scalar "
                     "beta2:scalar epsilon:scalar grad:rows indices:indices")
    var_types = (mstype.float32,)


class FusedSparseLazyAdam(FusedSparseAdam):
    """:class:`FusedSparseAdam` that moves only the rows named by ``indices``."""


class _SparseFtrlAttrs(_Update):
    io_spec = _sig("var:ref accum:ref linear:ref grad:rows indices:indices")
    returns = ("var", "accum", "linear")

    @prim_attr_register
    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        _check_float(self.name, "lr", lr, lo=0.0, lo_open=True)
        _check_float(self.name, "l1", l1, lo=0.0)
        _check_float(self.name, "l2", l2, lo=0.0)
        _check_float(self.name, "lr_power", lr_power, hi=0.0)
        _check_bool(self.name, "use_locking", use_locking)


class FusedSparseFtrl(_SparseFtrlAttrs):
    """FTRL-proximal on the rows named by ``indices`` (``lr``, ``l1``, ``l2``, ``lr_power`` attributes); returns
    ``(var, accum, linear)``."""

    var_types = (mstype.float32,)


class SparseApplyFtrl(_SparseFtrlAttrs):
    """:class:`FusedSparseFtrl` for float16 and float32."""


class SparseApplyFtrlV2(_Update):
    """:class:`SparseApplyFtrl` with ``l2_shrinkage``: the linear term uses ``g + 2*l2_shrinkage*var``."""

    io_spec = _SparseFtrlAttrs.io_spec
    returns = ("var", "accum", "linear")

    @prim_attr_register
    def __init__(self, lr, l1, l2, l2_shrinkage, lr_power, use_locking=False):
        _check_float(self.name, "lr", lr, lo=0.0, lo_open=True)
        _check_float(self.name, "l1", l1, lo=0.0)
        _check_float(self.name, "l2", l2, lo=0.0)
        _check_float(self.name, "l2_shrinkage", l2_shrinkage)
        _check_float(self.name, "lr_power", lr_power, hi=0.0)
        _check_bool(self.name, "use_locking", use_locking)


class FusedSparseProximalAdagrad(_Locking):
    """:class:`ApplyProximalAdagrad` on the rows named by ``indices``; returns ``(var, accum)``."""

    io_spec = _sig("var:ref accum:ref lr:scalar l1:scalar l2:scalar grad:rows indices:indices")
    returns = ("var", "accum")
    var_types = (mstype.float32,)


class SparseApplyProximalAdagrad(FusedSparseProximalAdagrad):
    """:class:`FusedSparseProximalAdagrad` for float16 and float32."""

    var_types = F16_32


class SparseApplyAdagrad(_Update):
    """:class:`ApplyAdagrad` on the rows named by ``indices`` (``lr`` attribute); returns ``(var, accum)``."""

    io_spec = _sig("var:ref accum:ref grad:rows indices:indices")
    returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, lr, update_slots=True, use_locking=False):
        _check_float(self.name, "lr", lr)
        _check_bool(self.name, "update_slots", update_slots)
        _check_bool(self.name, "use_locking", use_locking)


class SparseApplyAdagradV2(_Update):
    """:class:`ApplyAdagradV2` on the rows named by ``indices`` (``lr``, ``epsilon`` attributes)."""

    io_spec = _sig("var:ref accum:ref grad:rows indices:indices")
    returns = ("var", "accum")

    @prim_attr_register
    def __init__(self, lr, epsilon, use_locking=False, update_slots=True):
        _check_float(self.name, "lr", lr)
        _check_float(self.name, "epsilon", epsilon)
        _check_bool(self.name, "use_locking", use_locking)
        _check_bool(self.name, "update_slots", update_slots)


class SparseApplyAdadelta(_Update):
    """:class:`ApplyAdadelta` on the rows named by ``indices`` (``epsilon`` attribute); returns the three states."""

    io_spec = _sig("var:ref accum:ref accum_update:ref lr:scalar rho:scalar grad:rows indices:indices")
    returns = ("var", "accum", "accum_update")

    @prim_attr_register
    def __init__(self, epsilon, use_locking=False):
        _check_float(self.name, "epsilon", epsilon, lo=0.0)
        _check_bool(self.name, "use_locking", use_locking)


class SparseApplyRMSProp(_Update):
    """:class:`ApplyRMSProp` on the rows named by ``indices`` (``rho``, ``momentum``, ``epsilon`` attributes);
    returns ``(var, ms, mom)``."""

    io_spec = _sig("var:ref ms:ref mom:ref lr:scalar grad:rows indices:indices")
    returns = ("var", "ms", "mom")

    @prim_attr_register
    def __init__(self, rho, momentum, epsilon, use_locking=False):
        _check_float(self.name, "rho", rho, lo=0.0, hi=1.0)
        _check_float(self.name, "momentum", momentum, lo=0.0)
        _check_float(self.name, "epsilon", epsilon, lo=0.0, lo_open=True)
        _check_bool(self.name, "use_locking", use_locking)


PRIMITIVES = [ApplyAdaMax, ApplyAdadelta, ApplyAdagrad, ApplyAdagradDA, ApplyAdagradV2, ApplyAdamWithAmsgrad,
              ApplyAdamWithAmsgradV2, ApplyAddSign, ApplyCenteredRMSProp, ApplyFtrl, ApplyGradientDescent,
              ApplyKerasMomentum, ApplyPowerSign, ApplyProximalAdagrad, ApplyProximalGradientDescent, ApplyRMSProp,
              Adam, AdamNoUpdateParam, AdamWeightDecay, SGD, LARSUpdate, FusedAdaFactor, FusedAdaFactorWithGlobalNorm,
              FusedCastAdamWeightDecay, FusedSparseAdam, FusedSparseFtrl, FusedSparseLazyAdam,
              FusedSparseProximalAdagrad, FusedWeightScaleApplyMomentum, SparseApplyAdadelta, SparseApplyAdagrad,
              SparseApplyAdagradV2, SparseApplyFtrl, SparseApplyFtrlV2, SparseApplyProximalAdagrad, SparseApplyRMSProp]
