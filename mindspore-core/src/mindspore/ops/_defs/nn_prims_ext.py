"""nn-level primitives, second half: triplet / multilabel margin losses, dropout bit masks, accidental hits and
candidate samplers, fractional max pooling with a fixed window, CTC loss, depthwise convolution, deformable
offsets; and the helpers both halves share. :mod:`mindspore.ops._defs.nn_prims` lists these primitives in the
family's ``PRIMITIVES``; kernels live in the backends' ``kernels/nn_prims.py``.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop`` (or the
``NON_DIFFERENTIABLE`` marker). The margin losses' gradients are compositions of functional ops; fractional
pooling's is :class:`MaxPoolScatterGrad` (a scatter of ``dout`` at the argmax), itself differentiable (a gather);
CTC's is the gradient the forward kernel computes, scaled by the loss's cotangent (as MindSpore 2.10);
depthwise convolution's are the conv family's ``Conv2DBackpropInput`` / ``Conv2DBackpropFilter`` of the equivalent
grouped convolution; deformable offsets' is :class:`DeformableOffsetsGrad`; the fused attention's
(:class:`ScaledDotProductAttention`) is :class:`ScaledDotProductAttentionGrad`.
"""
import numpy

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs import conv as _conv
from mindspore.ops._defs import random as _random
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.nn import check_number
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, is_known_zero, prim_attr_register

_REDUCTIONS = ("none", "sum", "mean")
_F16_32 = (mstype.float16, mstype.float32)
_F16_32_64 = (mstype.float16, mstype.float32, mstype.float64)


def _reduction(op, reduction):
    if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
        raise MSValueError(f"For '{op}', the 'reduction' must be str and must be in '{list(_REDUCTIONS)}', but got "
                           f"{reduction!r}.")
    return reduction


def _tensor(op, name, shape):
    if not rules.is_shape(shape):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(shape).__name__}.")
    return tuple(shape)


def _int_tuple(op, name, value, n, allow_zero=False):
    """An int or a tuple of ``n`` ints (MindSpore also accepts the ``(1, 1) + spatial`` form)."""
    vals = rules.check_int_tuple(op, name, value)
    if len(vals) == 1:
        vals = vals * n
    elif len(vals) == n + 2:
        vals = vals[2:]
    if len(vals) != n:
        raise MSValueError(f"For '{op}', the '{name}' must be an int or a tuple of {n} ints, but got {value}.")
    if any(v < 0 or (v == 0 and not allow_zero) for v in vals):
        raise MSValueError(f"For '{op}', the '{name}' must be {'non-negative' if allow_zero else 'positive'}, "
                           f"but got {value}.")
    return vals


def _scale_loss_grad(dout, reduction, like):
    """The gradient of a reduced per-sample loss, broadcast back to the per-sample loss ``like``."""
    if reduction == "none":
        return dout
    if reduction == "mean":
        return fops.broadcast_to(fops.mul(dout, 1.0 / max(like.size, 1)), like.shape)
    return fops.broadcast_to(dout, like.shape)


def _shape_value(op, shape):
    return _random.check_random_shape(op, tuple(shape) if isinstance(shape, list) else shape)


class _Seeded(_random._RandomOp):
    def _seeds(self, seed, seed2):
        _random.check_seed(self.name, "seed", seed)
        _random.check_seed(self.name, "seed2", seed2)
        self._init_stream(_random._combined_seed(seed, seed2))


# --- TripletMarginLoss ----------------------------------------------------------------------
def _pnorm_grad(diff, dist, p):
    """d ||diff||_p / d diff along axis 1 (zero where the distance is zero)."""
    safe = fops.expand_dims(fops.maximum(dist, 1e-30), 1)
    if p == 1:
        return fops.sign(diff)
    if p == 2:
        return fops.div(diff, safe)
    return fops.mul(fops.mul(fops.sign(diff), fops.pow(fops.abs(diff), p - 1.0)), fops.pow(safe, 1.0 - p))


class TripletMarginLoss(Primitive):
    """``TripletMarginLoss(p=2, swap=False, eps=1e-6, reduction='mean')(x, positive, negative, margin)``:
    ``max(d(x, positive) - d(x, negative) + margin, 0)`` with ``d(a, b) = ||a - b + eps||_p`` over axis 1
    (``swap``: ``d(x, negative)`` becomes ``min(d(x, negative), d(positive, negative))``), reduced."""

    @prim_attr_register
    def __init__(self, p=2, swap=False, eps=1e-6, reduction="mean"):
        if rules.check_int(self.name, "p", p) < 0:
            raise MSValueError(f"For '{self.name}', the 'p' must be non-negative, but got {p}.")
        rules.check_bool(self.name, "swap", swap)
        check_number(self.name, "eps", eps)
        _reduction(self.name, reduction)

    def infer_shape(self, x, positive, negative, margin):
        op = self.name
        for name, s in (("x", x), ("positive", positive), ("negative", negative)):
            _tensor(op, name, s)
        if len(x) < 2:
            raise MSValueError(f"For '{op}', the rank of 'x' must be at least 2, but got {len(x)}.")
        shape = rules.check_same_shape(op, ("x", "positive", "negative"), (x, positive, negative))
        if tuple(margin) != ():
            raise MSValueError(f"For '{op}', the 'margin' must be a 0-D tensor, but got shape {tuple(margin)}.")
        return (shape[0],) + tuple(shape[2:]) if self.reduction == "none" else ()

    def infer_dtype(self, x, positive, negative, margin):
        rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)
        rules.check_dtype_in(self.name, "margin", margin, (mstype.float32,))
        rules.check_same_dtype(self.name, ("x", "positive", "negative"), (x, positive, negative))
        return x if x in _F16_32_64 else mstype.float32

    def bprop(self, x, positive, negative, margin, out, dout):
        p, eps = self.p, self.eps
        d_ap, d_an = fops.add(fops.sub(x, positive), eps), fops.add(fops.sub(x, negative), eps)
        dist_ap = fops.pow(fops.reduce_sum(fops.pow(fops.abs(d_ap), float(p)), 1), 1.0 / p)
        dist_an = fops.pow(fops.reduce_sum(fops.pow(fops.abs(d_an), float(p)), 1), 1.0 / p)
        g_ap, g_an = _pnorm_grad(d_ap, dist_ap, p), _pnorm_grad(d_an, dist_an, p)
        use_pn = fops.zeros_like(dist_an)
        if self.swap:
            d_pn = fops.add(fops.sub(positive, negative), eps)
            dist_pn = fops.pow(fops.reduce_sum(fops.pow(fops.abs(d_pn), float(p)), 1), 1.0 / p)
            use_pn = fops.cast(fops.less(dist_pn, dist_an), x.dtype)
            dist_an = fops.minimum(dist_an, dist_pn)
            g_pn = _pnorm_grad(d_pn, dist_pn, p)
        loss = fops.add(fops.sub(dist_ap, dist_an), margin)
        g = fops.mul(_scale_loss_grad(dout, self.reduction, loss), fops.cast(fops.greater(loss, 0), x.dtype))
        g1 = fops.expand_dims(g, 1)
        an = fops.expand_dims(fops.sub(1.0, use_pn), 1)
        dx = fops.sub(fops.mul(g1, g_ap), fops.mul(fops.mul(g1, an), g_an))
        dpos = fops.neg(fops.mul(g1, g_ap))
        dneg = fops.mul(fops.mul(g1, an), g_an)
        if self.swap:
            pn = fops.expand_dims(use_pn, 1)
            dpos = fops.sub(dpos, fops.mul(fops.mul(g1, pn), g_pn))
            dneg = fops.add(dneg, fops.mul(fops.mul(g1, pn), g_pn))
        dmargin = fops.reduce_sum(g)
        return dx, dpos, dneg, fops.cast(dmargin, margin.dtype)


# --- MultilabelMarginLoss -------------------------------------------------------------------
class MultilabelMarginLoss(Primitive):
    """``MultilabelMarginLoss(reduction='mean')(x, target)`` -> ``(y, is_target)``: for each sample the target
    classes are ``target``'s entries before the first -1, and ``y = sum_{j listed, i not a target} max(0, 1 -
    (x[j] - x[i])) / C`` (a class listed twice counts twice); ``is_target`` marks the target classes."""

    @prim_attr_register
    def __init__(self, reduction="mean"):
        _reduction(self.name, reduction)

    def infer_shape(self, x, target):
        rules.check_rank(self.name, "x", x, (1, 2))
        if tuple(target) != tuple(x):
            raise MSValueError(f"For '{self.name}', the shape of 'target' must equal the shape of 'x' {tuple(x)}, "
                               f"but got {tuple(target)}.")
        loss = (tuple(x[:1]) if len(x) == 2 else ()) if self.reduction == "none" else ()
        return loss, tuple(target)

    def infer_dtype(self, x, target):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        rules.check_dtype_in(self.name, "target", target, (mstype.int32,))
        return x, mstype.int32

    def bprop(self, x, target, out, dout):
        x2 = x if x.ndim == 2 else fops.expand_dims(x, 0)
        t2 = target if x.ndim == 2 else fops.expand_dims(target, 0)
        is_t = fops.cast(out[1], x.dtype)
        is_t = is_t if x.ndim == 2 else fops.expand_dims(is_t, 0)
        c = x2.shape[1]
        # each listed target entry (before the first -1) counts, repeats included
        valid = fops.cast(fops.cumprod(fops.cast(fops.greater_equal(t2, 0), mstype.int32), 1), x.dtype)
        hot = fops.one_hot(fops.maximum(t2, 0), c, fops.ones((), x.dtype), fops.zeros((), x.dtype))
        count = fops.reduce_sum(fops.mul(hot, fops.expand_dims(valid, 2)), 1)
        # h[n, j, i] = 1 - x[j] + x[i], over target entries j and non-target i
        h = fops.add(fops.sub(fops.expand_dims(x2, 1), fops.expand_dims(x2, 2)), 1.0)
        pair = fops.mul(fops.expand_dims(count, 2), fops.expand_dims(fops.sub(1.0, is_t), 1))
        active = fops.mul(fops.cast(fops.greater(h, 0), x.dtype), pair)
        g = _scale_loss_grad(dout[0], self.reduction, fops.zeros((x2.shape[0],), x.dtype))
        g = fops.reshape(fops.mul(g, 1.0 / c), (x2.shape[0], 1))
        dx = fops.mul(fops.sub(fops.reduce_sum(active, 1), fops.reduce_sum(active, 2)), g)
        dx = dx if x.ndim == 2 else fops.reshape(dx, x.shape)
        return dx, fops.zeros_like(target)


# --- DropoutGenMask / DropoutDoMask ---------------------------------------------------------
def _check_keep_prob_tensor(op, keep_prob):
    if isinstance(keep_prob, mstype.Type):
        return rules.check_dtype_in(op, "keep_prob", keep_prob, _F16_32)
    check_number(op, "keep_prob", keep_prob, lo=0, hi=1)
    return mstype.float32


class DropoutGenMask(_Seeded):
    """``DropoutGenMask(Seed0=0, Seed1=0)(shape, keep_prob)``: a packed uint8 bit mask for ``prod(shape)``
    elements (bit ``i % 8`` of byte ``i // 8``, 1 with probability ``keep_prob``), padded to a multiple of 128
    bits."""

    @prim_attr_register
    def __init__(self, Seed0=0, Seed1=0):  # noqa: N803 - MindSpore's attribute names
        self._seeds(Seed0, Seed1)

    def infer_shape(self, shape, keep_prob):
        shape = _shape_value(self.name, shape)
        count = 1
        for d in shape:
            count *= d
        return (-(-count // 128) * 16,)

    def infer_dtype(self, shape, keep_prob):
        _shape_value(self.name, shape)
        _check_keep_prob_tensor(self.name, keep_prob)
        return mstype.uint8


class DropoutDoMask(Primitive):
    """``DropoutDoMask()(x, mask, keep_prob)``: ``x / keep_prob`` where the packed ``mask`` bit is 1, else 0."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x, mask, keep_prob):
        _tensor(self.name, "x", x)
        rules.check_rank(self.name, "mask", mask, 1)
        count = 1
        for d in x:
            count *= d
        if mask[0] * 8 < count:
            raise MSValueError(f"For '{self.name}', the 'mask' must hold at least {count} bits, but got "
                               f"{mask[0] * 8}.")
        return tuple(x)

    def infer_dtype(self, x, mask, keep_prob):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64 + (mstype.int32,))
        rules.check_dtype_in(self.name, "mask", mask, (mstype.uint8,))
        _check_keep_prob_tensor(self.name, keep_prob)
        return x

    def bprop(self, x, mask, keep_prob, out, dout):
        return self._grad_prim(DropoutDoMask)(dout, mask, keep_prob), fops.zeros_like(mask), None


# --- ComputeAccidentalHits / candidate samplers ---------------------------------------------
class ComputeAccidentalHits(Primitive):
    """``ComputeAccidentalHits(num_true=1)(true_classes, sampled_candidates)`` -> ``(indices, ids, weights)``:
    every (row, position) where a sampled candidate equals one of the row's true classes, with weight
    ``-FLT_MAX`` (lengths known only when the kernel runs)."""

    @prim_attr_register
    def __init__(self, num_true=1):
        rules.check_positive_int(self.name, "num_true", num_true)

    def infer_shape(self, true_classes, sampled_candidates):
        rules.check_rank(self.name, "true_classes", true_classes, 2)
        rules.check_rank(self.name, "sampled_candidates", sampled_candidates, 1)
        if true_classes[1] != self.num_true:
            raise MSValueError(f"For '{self.name}', the 'true_classes' shape[1] must equal 'num_true' "
                               f"{self.num_true}, but got {true_classes[1]}.")
        return (-1,), (-1,), (-1,)

    def infer_dtype(self, true_classes, sampled_candidates):
        rules.check_dtype_in(self.name, "true_classes", true_classes, (mstype.int32, mstype.int64))
        rules.check_same_dtype(self.name, ("true_classes", "sampled_candidates"), (true_classes, sampled_candidates))
        return mstype.int32, true_classes, mstype.float32

    bprop = NON_DIFFERENTIABLE


class _CandidateSampler(_random._RandomOp):
    _dtypes = (mstype.int32, mstype.int64)

    def _setup(self, num_true, num_sampled, unique, range_max, seed):
        op = self.name
        rules.check_positive_int(op, "num_true", num_true)
        rules.check_positive_int(op, "num_sampled", num_sampled)
        rules.check_bool(op, "unique", unique)
        rules.check_positive_int(op, "range_max", range_max)
        _random.check_seed(op, "seed", seed)
        if unique and num_sampled > range_max:
            raise MSValueError(f"For '{op}', the 'num_sampled' must be at most 'range_max' {range_max} when 'unique' "
                               f"is True, but got {num_sampled}.")
        self._init_stream(seed)

    def infer_shape(self, true_classes):
        rules.check_rank(self.name, "true_classes", true_classes, 2)
        if true_classes[1] != self.num_true:
            raise MSValueError(f"For '{self.name}', the 'true_classes' shape[1] must equal 'num_true' "
                               f"{self.num_true}, but got {true_classes[1]}.")
        return (self.num_sampled,), tuple(true_classes), (self.num_sampled,)

    def infer_dtype(self, true_classes):
        rules.check_dtype_in(self.name, "true_classes", true_classes, self._dtypes)
        return true_classes, mstype.float32, mstype.float32


class UniformCandidateSampler(_CandidateSampler):
    """``UniformCandidateSampler(num_true, num_sampled, unique, range_max, seed=0,
    remove_accidental_hits=False)(true_classes)`` -> ``(sampled_candidates, true_expected_count,
    sampled_expected_count)``: candidates drawn uniformly from ``[0, range_max)`` (``unique``: without repeats;
    ``remove_accidental_hits``: never a true class); expected counts ``num_sampled / range_max``, or
    ``1 - (1 - 1 / range_max) ** tries`` for unique draws."""

    @prim_attr_register
    def __init__(self, num_true, num_sampled, unique, range_max, seed=0, remove_accidental_hits=False):
        self._setup(num_true, num_sampled, unique, range_max, seed)
        rules.check_bool(self.name, "remove_accidental_hits", remove_accidental_hits)


class LogUniformCandidateSampler(_CandidateSampler):
    """``LogUniformCandidateSampler(num_true=1, num_sampled=5, unique=True, range_max=5, seed=0)(true_classes)``:
    as :class:`UniformCandidateSampler` with the log-uniform (Zipfian) distribution
    ``P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)``."""

    _dtypes = (mstype.int64,)

    @prim_attr_register
    def __init__(self, num_true=1, num_sampled=5, unique=True, range_max=5, seed=0):
        self._setup(num_true, num_sampled, unique, range_max, seed)
        self.remove_accidental_hits = False


# --- FractionalMaxPoolWithFixedKsize / FractionalMaxPool3DWithFixedKsize --------------------
class _FractionalFixed(Primitive):
    _nd = 2
    _format = "NCHW"

    def _setup(self, ksize, output_shape, data_format):
        op, n = self.name, self._nd
        self._ksize = _int_tuple(op, "ksize", ksize, n)
        self._out = _int_tuple(op, "output_shape", output_shape, n)
        if data_format != self._format:
            raise MSValueError(f"For '{op}', the 'data_format' must be '{self._format}', but got '{data_format}'.")

    def infer_shape(self, x, random_samples):
        op, n = self.name, self._nd
        rules.check_rank(op, "x", x, (n + 1, n + 2))
        lead = tuple(x[:-n])
        want = ((x[0], x[1]) if len(x) == n + 2 else (1, x[0])) + (n,)
        if tuple(random_samples) != want:
            raise MSValueError(f"For '{op}', the 'random_samples' shape must be {want}, but got "
                               f"{tuple(random_samples)}.")
        for k, o, size in zip(self._ksize, self._out, x[-n:]):
            if o + k - 1 > size:
                raise MSValueError(f"For '{op}', the 'output_shape' {self._out} plus 'ksize' {self._ksize} minus 1 "
                                   f"must not exceed the input's spatial size {tuple(x[-n:])}.")
        out = lead + self._out
        return out, out

    def infer_dtype(self, x, random_samples):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64 + (mstype.int32, mstype.int64))
        rules.check_dtype_in(self.name, "random_samples", random_samples, _F16_32_64)
        return x, mstype.int64

    def bprop(self, x, random_samples, out, dout):
        return self._grad_prim(MaxPoolScatterGrad, self._nd)(dout[0], x, out[1]), fops.zeros_like(random_samples)


class FractionalMaxPoolWithFixedKsize(_FractionalFixed):
    """``FractionalMaxPoolWithFixedKsize(ksize, output_shape, data_format='NCHW')(x, random_samples)`` ->
    ``(y, argmax)``: max pooling of (N, C, H, W) into ``output_shape`` windows of ``ksize``, the window starts
    pseudo-random from ``random_samples`` (N, C, 2) in [0, 1) (``[..., 0]`` for W, ``[..., 1]`` for H);
    ``argmax`` is the int64 flat index into ``H * W``."""

    @prim_attr_register
    def __init__(self, ksize, output_shape, data_format="NCHW"):
        self._setup(ksize, output_shape, data_format)


class FractionalMaxPool3DWithFixedKsize(_FractionalFixed):
    """``FractionalMaxPool3DWithFixedKsize(ksize, output_shape, data_format='NCDHW')(x, random_samples)``: the
    (N, C, D, H, W) twin, ``random_samples`` (N, C, 3) for (D, H, W)."""

    _nd = 3
    _format = "NCDHW"

    @prim_attr_register
    def __init__(self, ksize, output_shape, data_format="NCDHW"):
        self._setup(ksize, output_shape, data_format)


class MaxPoolScatterGrad(Primitive):
    """``MaxPoolScatterGrad(nd)(dout, x, argmax)``: ``dout`` summed into ``x``'s shape at the flat ``argmax``
    positions of its last ``nd`` axes (the gradient of an argmax-returning pooling)."""

    @prim_attr_register
    def __init__(self, nd=2):
        if nd not in (1, 2, 3):
            raise MSValueError(f"For '{self.name}', the 'nd' must be 1, 2 or 3, but got {nd}.")

    def infer_shape(self, dout, x, argmax):
        rules.check_same_shape(self.name, ("dout", "argmax"), (dout, argmax))
        if len(dout) != len(x) or tuple(dout[:-self.nd]) != tuple(x[:-self.nd]):
            raise MSValueError(f"For '{self.name}', the 'dout' {tuple(dout)} does not match 'x' {tuple(x)}.")
        return tuple(x)

    def infer_dtype(self, dout, x, argmax):
        rules.check_dtype_in(self.name, "argmax", argmax, (mstype.int32, mstype.int64))
        return rules.check_same_dtype(self.name, ("dout", "x"), (dout, x))

    def bprop(self, dout, x, argmax, out, dout2):
        lead = x.shape[:-self.nd]
        flat = fops.reshape(dout2, lead + (-1,))
        idx = fops.reshape(argmax, lead + (-1,))
        g = fops.reshape(fops.gather_elements(flat, len(lead), idx), dout.shape)
        return g, fops.zeros_like(x), fops.zeros_like(argmax)


# --- CTCLoss --------------------------------------------------------------------------------
class CTCLoss(Primitive):
    """``CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values, sequence_length)`` ->
    ``(loss, gradient)``: the CTC loss of the (T, B, C) logits ``x`` (softmax over C, blank = C - 1) against the
    sparse labels, and its gradient w.r.t. ``x``. A label sequence no path can emit (repeats need blanks between
    them) has an infinite loss and a zero gradient; one longer than its sequence is an error, or with
    ``ignore_longer_outputs_than_inputs`` an infinite loss, as MindSpore 2.10 gives."""

    @prim_attr_register
    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        for name, v in (("preprocess_collapse_repeated", preprocess_collapse_repeated),
                        ("ctc_merge_repeated", ctc_merge_repeated),
                        ("ignore_longer_outputs_than_inputs", ignore_longer_outputs_than_inputs)):
            rules.check_bool(self.name, name, v)

    def infer_shape(self, x, labels_indices, labels_values, sequence_length):
        op = self.name
        rules.check_rank(op, "x", x, 3)
        rules.check_rank(op, "labels_indices", labels_indices, 2)
        rules.check_rank(op, "labels_values", labels_values, 1)
        rules.check_rank(op, "sequence_length", sequence_length, 1)
        if labels_indices[1] != 2 or labels_indices[0] != labels_values[0]:
            raise MSValueError(f"For '{op}', the 'labels_indices' must be (n, 2) with n the length of "
                               f"'labels_values', but got {tuple(labels_indices)} and {tuple(labels_values)}.")
        if sequence_length[0] != x[1]:
            raise MSValueError(f"For '{op}', the 'sequence_length' must have {x[1]} (the batch size) elements, but "
                               f"got {sequence_length[0]}.")
        return (x[1],), tuple(x)

    def infer_dtype(self, x, labels_indices, labels_values, sequence_length):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        rules.check_dtype_in(self.name, "labels_indices", labels_indices, (mstype.int64,))
        rules.check_dtype_in(self.name, "labels_values", labels_values, (mstype.int32,))
        rules.check_dtype_in(self.name, "sequence_length", sequence_length, (mstype.int32,))
        return x, x

    def bprop(self, x, labels_indices, labels_values, sequence_length, out, dout):
        grad = fops.mul(out[1], fops.reshape(dout[0], (1, -1, 1)))
        return (grad, fops.zeros_like(labels_indices), fops.zeros_like(labels_values),
                fops.zeros_like(sequence_length))


# --- DepthwiseConv2dNative ------------------------------------------------------------------
class DepthwiseConv2dNative(Primitive):
    """``DepthwiseConv2dNative(channel_multiplier, kernel_size, mode=3, pad_mode='valid', pad=0, stride=1,
    dilation=1, group=1)(x, weight)``: each channel of (N, C, H, W) ``x`` convolved with its own filter of
    ``weight`` (1, C, kh, kw); the result has ``C * channel_multiplier`` channels, output channel ``c *
    channel_multiplier + m`` being channel ``c``'s (MindSpore 2.10 requires a weight batch of 1, so the
    ``channel_multiplier`` outputs of a channel are equal). The geometry is :class:`Conv2D`'s."""

    @prim_attr_register
    def __init__(self, channel_multiplier, kernel_size, mode=3, pad_mode="valid", pad=0, stride=1, dilation=1,
                 group=1):
        op = self.name
        rules.check_positive_int(op, "channel_multiplier", channel_multiplier)
        rules.check_positive_int(op, "group", group)
        if mode != 3:
            raise MSValueError(f"For '{op}', the 'mode' must be 3, but got {mode}.")
        for name, v in (("stride", stride), ("dilation", dilation)):
            vals = _int_tuple(op, name, v, 2)
            if vals[0] != vals[1]:
                raise MSValueError(f"The height and width of '{name}' must be equal, but got height:{vals[0]}, "
                                   f"width:{vals[1]}")
        self._kernel = _int_tuple(op, "kernel_size", kernel_size, 2)
        self._conv_args = dict(kernel_size=self._kernel, mode=1, pad_mode=pad_mode, pad=pad,
                               stride=_int_tuple(op, "stride", stride, 2),
                               dilation=_int_tuple(op, "dilation", dilation, 2))
        self._convs = {}
        self.direct_conv(1)     # checks pad_mode / pad once, with Conv2D's rules and messages

    def direct_conv(self, channels):
        """The grouped :class:`Conv2D` (one group per channel) that computes one output per input channel."""
        conv = self._convs.get(channels)
        if conv is None:
            conv = self._convs[channels] = _conv.Conv2D(channels, group=channels, **self._conv_args)
        return conv

    def infer_shape(self, x, w):
        op = self.name
        rules.check_rank(op, "x", x, 4)
        rules.check_rank(op, "weight", w, 4)
        if x[1] != w[1]:
            raise MSValueError(f"For '{op}', the 'x_shape[1]' should be = w_shape[1]: {w[1]}, but got {x[1]}.")
        if tuple(w[2:]) != self._kernel:
            raise MSValueError(f"For '{op}', the 'kernel_size' must be equal to w_shape[2:4] {tuple(w[2:])}, but "
                               f"got {self._kernel}.")
        if w[0] != 1:
            raise MSValueError(f"For '{op}', the batch of 'weight' must be 1, but got {w[0]}")
        y = self.direct_conv(x[1]).infer_shape(x, (w[1], 1) + tuple(w[2:]))
        return (y[0], y[1] * self.channel_multiplier) + tuple(y[2:])

    def infer_dtype(self, x, w):
        rules.check_float(self.name, "x", x)
        return rules.check_same_dtype(self.name, ("x", "weight"), (x, w))

    def bprop(self, x, w, out, dout):
        n, c = x.shape[0], x.shape[1]
        cfg = self.direct_conv(c)._config()
        g = fops.reduce_sum(fops.reshape(dout, (n, c, self.channel_multiplier) + tuple(dout.shape[2:])), 2)
        w2 = fops.transpose(w, (1, 0, 2, 3))
        dx = _conv.Conv2DBackpropInput(**cfg)(g, w2, x.shape)
        dw = _conv.Conv2DBackpropFilter(**cfg)(g, x, tuple(w2.shape))
        return dx, fops.transpose(dw, (1, 0, 2, 3))


# --- DeformableOffsets ----------------------------------------------------------------------
class _DeformableAttrs(Primitive):
    def _setup(self, strides, pads, ksize, dilations, data_format, deformable_groups, modulated):
        op = self.name
        for name, v, n in (("strides", strides, 4), ("pads", pads, 4), ("ksize", ksize, 2),
                           ("dilations", dilations, 4)):
            vals = rules.check_int_tuple(op, name, v)
            if len(vals) != n:
                raise MSValueError(f"For '{op}', the '{name}' must be a tuple of {n} ints, but got {v}.")
        if tuple(strides[:2]) != (1, 1) or tuple(dilations[:2]) != (1, 1):
            raise MSValueError(f"For '{op}', the 'strides' and 'dilations' must be 1 in N and C, but got {strides} "
                               f"and {dilations}.")
        if any(v <= 0 for v in tuple(strides) + tuple(ksize) + tuple(dilations)) or any(v < 0 for v in pads):
            raise MSValueError(f"For '{op}', the 'strides', 'ksize' and 'dilations' must be positive and the 'pads' "
                               f"non-negative, but got {strides}, {ksize}, {dilations} and {pads}.")
        if data_format != "NCHW":
            raise MSValueError(f"For '{op}', the 'data_format' must be 'NCHW', but got '{data_format}'.")
        rules.check_positive_int(op, "deformable_groups", deformable_groups)
        rules.check_bool(op, "modulated", modulated)
        if not modulated:
            raise MSValueError(f"For '{op}', The modulated must be set to True.")

    def geometry(self, x):
        """(output H, output W) of the sampling grid for input shape ``x``."""
        kh, kw = self.ksize
        pt, pb, pl, pr = self.pads
        oh = (x[2] + pt + pb - (self.dilations[2] * (kh - 1) + 1)) // self.strides[2] + 1
        ow = (x[3] + pl + pr - (self.dilations[3] * (kw - 1) + 1)) // self.strides[3] + 1
        return oh, ow

    def _check(self, x, offsets):
        op = self.name
        rules.check_rank(op, "x", x, 4)
        rules.check_rank(op, "offsets", offsets, 4)
        if x[1] % self.deformable_groups:
            raise MSValueError(f"For '{op}', the channels of 'x' {x[1]} must be divisible by 'deformable_groups' "
                               f"{self.deformable_groups}.")
        oh, ow = self.geometry(x)
        want = (x[0], 3 * self.deformable_groups * self.ksize[0] * self.ksize[1], oh, ow)
        if oh <= 0 or ow <= 0 or tuple(offsets) != want:
            raise MSValueError(f"For '{op}', the 'offsets' shape must be {want}, but got {tuple(offsets)}.")
        return oh, ow


class DeformableOffsets(_DeformableAttrs):
    """``DeformableOffsets(strides, pads, ksize, dilations=(1, 1, 1, 1), data_format='NCHW', deformable_groups=1,
    modulated=True)(x, offsets)``: the (N, C, H_out * kh, W_out * kw) grid of deformable-convolution samples of
    ``x``. ``offsets`` is (N, 3 * deformable_groups * kh * kw, H_out, W_out): x offsets, y offsets and masks (in
    that order, each indexed by group, kernel row, kernel column); each sample is ``x`` bilinearly interpolated at
    the kernel tap's position plus its offset (zero outside), times its mask. A ``Conv2D`` with stride ``ksize``
    over the result is the deformable convolution (``ops.deformable_conv2d``)."""

    @prim_attr_register
    def __init__(self, strides, pads, ksize, dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                 modulated=True):
        self._setup(strides, pads, ksize, dilations, data_format, deformable_groups, modulated)

    def infer_shape(self, x, offsets):
        oh, ow = self._check(x, offsets)
        return (x[0], x[1], oh * self.ksize[0], ow * self.ksize[1])

    def infer_dtype(self, x, offsets):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        return rules.check_same_dtype(self.name, ("x", "offsets"), (x, offsets))

    def bprop(self, x, offsets, out, dout):
        grad = DeformableOffsetsGrad(self.strides, self.pads, self.ksize, self.dilations, self.data_format,
                                     self.deformable_groups, self.modulated)
        return grad(dout, x, offsets)


class DeformableOffsetsGrad(_DeformableAttrs):
    """``DeformableOffsetsGrad(...)(dout, x, offsets)`` -> ``(dx, doffsets)``: the gradient of
    :class:`DeformableOffsets` (the sampling grid's bilinear weights scattered back, and their derivatives)."""

    @prim_attr_register
    def __init__(self, strides, pads, ksize, dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                 modulated=True):
        self._setup(strides, pads, ksize, dilations, data_format, deformable_groups, modulated)

    def infer_shape(self, dout, x, offsets):
        oh, ow = self._check(x, offsets)
        want = (x[0], x[1], oh * self.ksize[0], ow * self.ksize[1])
        if tuple(dout) != want:
            raise MSValueError(f"For '{self.name}', the 'dout' shape must be {want}, but got {tuple(dout)}.")
        return tuple(x), tuple(offsets)

    def infer_dtype(self, dout, x, offsets):
        rules.check_dtype_in(self.name, "x", x, _F16_32_64)
        d = rules.check_same_dtype(self.name, ("dout", "x", "offsets"), (dout, x, offsets))
        return d, d

    bprop = NON_DIFFERENTIABLE


# --- STFT -----------------------------------------------------------------------------------
_COMPLEX = (mstype.complex64, mstype.complex128)


class STFT(Primitive):
    """``STFT(n_fft, hop_length, win_length, normalized, onesided, return_complex)(x, window)``: the short-time
    Fourier transform of (L,) or (B, L) ``x``: frames of ``n_fft`` samples every ``hop_length``, times ``window``
    (``win_length``, centred in the frame), transformed (``onesided``: ``n_fft // 2 + 1`` bins; ``normalized``:
    scaled by ``n_fft ** -0.5``); (B, bins, frames) complex, or real/imaginary pairs in a last axis of 2. Not
    differentiable, as in MindSpore 2.10 (``ops.stft``, which also pads, is)."""

    @prim_attr_register
    def __init__(self, n_fft, hop_length, win_length, normalized, onesided, return_complex):
        op = self.name
        for name, v in (("n_fft", n_fft), ("hop_length", hop_length), ("win_length", win_length)):
            rules.check_positive_int(op, name, v)
        if win_length > n_fft:
            raise MSValueError(f"For '{op}', the 'win_length' must be at most 'n_fft' {n_fft}, but got {win_length}.")
        for name, v in (("normalized", normalized), ("onesided", onesided), ("return_complex", return_complex)):
            rules.check_bool(op, name, v)

    def infer_shape(self, x, window):
        op = self.name
        rules.check_rank(op, "x", x, (1, 2))
        if tuple(window) != (self.win_length,):
            raise MSValueError(f"For '{op}', the 'window' shape must be ({self.win_length},), but got "
                               f"{tuple(window)}.")
        if x[-1] < self.n_fft:
            raise MSValueError(f"For '{op}', the length of 'x' {x[-1]} must be at least 'n_fft' {self.n_fft}.")
        bins = self.n_fft // 2 + 1 if self.onesided else self.n_fft
        frames = 1 + (x[-1] - self.n_fft) // self.hop_length
        return tuple(x[:-1]) + (bins, frames) + (() if self.return_complex else (2,))

    def infer_dtype(self, x, window):
        allowed = (mstype.float32, mstype.float64) + _COMPLEX
        rules.check_dtype_in(self.name, "x", x, allowed)
        rules.check_dtype_in(self.name, "window", window, allowed)
        if self.onesided and (x in _COMPLEX or window in _COMPLEX):
            raise MSValueError(f"For '{self.name}', the 'onesided' must be False for complex inputs.")
        wide = mstype.float64 in (x, window) or mstype.complex128 in (x, window)
        if self.return_complex:
            return mstype.complex128 if wide else mstype.complex64
        return mstype.float64 if wide else mstype.float32

    bprop = NON_DIFFERENTIABLE


# --- FractionalMaxPool / FractionalAvgPool --------------------------------------------------
class _FractionalPool(_random._RandomOp):
    """Graham's fractional pooling of NHWC input: random (or pseudo-random) row and column boundaries."""

    def _setup(self, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2):
        op = self.name
        if not isinstance(pooling_ratio, (list, tuple)) or len(pooling_ratio) != 4:
            raise MSValueError(f"For '{op}', the 'pooling_ratio' must be a list of 4 floats, but got {pooling_ratio}.")
        ratio = [check_number(op, "pooling_ratio", r) for r in pooling_ratio]
        if ratio[0] != 1.0 or ratio[3] != 1.0:
            raise MSValueError(f"For '{op}', the pooling ratio of the batch and channel dimensions must be 1.0, but "
                               f"got {pooling_ratio}.")
        if ratio[1] < 1.0 or ratio[2] < 1.0:
            raise MSValueError(f"For '{op}', the 'pooling_ratio' of rows and columns must be at least 1.0, but got "
                               f"{pooling_ratio}.")
        for name, v in (("pseudo_random", pseudo_random), ("overlapping", overlapping),
                        ("deterministic", deterministic)):
            rules.check_bool(op, name, v)
        _random.check_seed(op, "seed", seed)
        _random.check_seed(op, "seed2", seed2)
        self._ratio = ratio
        self._init_stream(_random._combined_seed(seed, seed2))

    def infer_shape(self, x):
        rules.check_rank(self.name, "x", x, 4)
        oh, ow = int(x[1] // self._ratio[1]), int(x[2] // self._ratio[2])
        if oh <= 0 or ow <= 0:
            raise MSValueError(f"For '{self.name}', the output height and width must be positive, but got "
                               f"({oh}, {ow}) for input {tuple(x)}.")
        return (x[0], oh, ow, x[3]), (oh + 1,), (ow + 1,)

    def infer_dtype(self, x):
        rules.check_dtype_in(self.name, "x", x, (mstype.float32, mstype.float64, mstype.int32, mstype.int64))
        return x, mstype.int64, mstype.int64


class FractionalMaxPool(_FractionalPool):
    """``FractionalMaxPool(pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0,
    seed2=0)(x)`` -> ``(y, row_pooling_sequence, col_pooling_sequence)``: max pooling of NHWC ``x`` over the cells
    between consecutive row / column boundaries (``overlapping``: each cell also takes the next boundary's row /
    column); ``deterministic`` draws the same boundaries at every call."""

    @prim_attr_register
    def __init__(self, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0, seed2=0):
        self._setup(pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)

    def bprop(self, x, out, dout):
        return (self._grad_prim(FractionalMaxPoolGrad, self.overlapping)(x, out[0], dout[0], out[1], out[2]),)


class FractionalAvgPool(_FractionalPool):
    """``FractionalAvgPool(...)(x)`` -> ``(y, row_pooling_sequence, col_pooling_sequence)``: the average-pooling
    twin of :class:`FractionalMaxPool`."""

    @prim_attr_register
    def __init__(self, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False, seed=0, seed2=0):
        self._setup(pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)

    def bprop(self, x, out, dout):
        return (self._grad_prim(FractionalAvgPoolGrad, self.overlapping)(x.shape, dout[0], out[1], out[2]),)


def _check_sequences(op, out, row, col):
    if tuple(row) != (out[1] + 1,) or tuple(col) != (out[2] + 1,):
        raise MSValueError(f"For '{op}', the pooling sequences must have {out[1] + 1} and {out[2] + 1} elements, "
                           f"but got {tuple(row)} and {tuple(col)}.")


class FractionalMaxPoolGrad(Primitive):
    """``FractionalMaxPoolGrad(overlapping=False)(orig_input, orig_output, out_backprop, row_pooling_sequence,
    col_pooling_sequence)``: each cell's gradient routed to its (first) maximum."""

    @prim_attr_register
    def __init__(self, overlapping=False):
        rules.check_bool(self.name, "overlapping", overlapping)

    def infer_shape(self, orig_input, orig_output, out_backprop, row, col):
        rules.check_rank(self.name, "orig_input", orig_input, 4)
        rules.check_same_shape(self.name, ("orig_output", "out_backprop"), (orig_output, out_backprop))
        _check_sequences(self.name, out_backprop, row, col)
        return tuple(orig_input)

    def infer_dtype(self, orig_input, orig_output, out_backprop, row, col):
        return rules.check_same_dtype(self.name, ("orig_input", "orig_output", "out_backprop"),
                                      (orig_input, orig_output, out_backprop))

    bprop = NON_DIFFERENTIABLE


class FractionalAvgPoolGrad(Primitive):
    """``FractionalAvgPoolGrad(overlapping=False)(orig_input_tensor_shape, out_backprop, row_pooling_sequence,
    col_pooling_sequence)``: each cell's gradient spread evenly over it."""

    @prim_attr_register
    def __init__(self, overlapping=False):
        rules.check_bool(self.name, "overlapping", overlapping)

    def infer_shape(self, orig_input_tensor_shape, out_backprop, row, col):
        shape = rules.check_int_tuple(self.name, "orig_input_tensor_shape", orig_input_tensor_shape, 4)
        rules.check_rank(self.name, "out_backprop", out_backprop, 4)
        _check_sequences(self.name, out_backprop, row, col)
        return shape

    def infer_dtype(self, orig_input_tensor_shape, out_backprop, row, col):
        return rules.check_dtype_in(self.name, "out_backprop", out_backprop,
                                    (mstype.float32, mstype.float64, mstype.int32, mstype.int64))

    bprop = NON_DIFFERENTIABLE


# --- ScaledDotProductAttention / ScaledDotProductAttentionGrad ----------------------------------------------------
#: ``pre_tokens``/``next_tokens`` value meaning "no bound" (MindSpore's default for flash_attention_score's).
NO_BAND = 2147483647
#: The score a query may not see gets: its weight is exactly 0 unless its whole row is masked (then uniform).
MASKED_SCORE = -1e30
_SDPA_DTYPES = (mstype.float16, mstype.bfloat16, mstype.float32, mstype.float64)


class _AttentionAttrs(Primitive):
    def _check(self, scale, pre_tokens, next_tokens):
        check_number(self.name, "scale", scale)
        rules.check_int(self.name, "pre_tokens", pre_tokens)
        rules.check_int(self.name, "next_tokens", next_tokens)

    def band(self):
        """``(lo, hi)``: query ``i`` sees key ``j`` when ``lo <= j - i <= hi`` (``None``: unbounded)."""
        return (None if self.pre_tokens >= NO_BAND else -self.pre_tokens,
                None if self.next_tokens >= NO_BAND else self.next_tokens)

    def hidden(self, sq, skv, xp=numpy):
        """The ``(sq, skv)`` bool array of ``xp`` (NumPy, or a backend's array module: the kernels build it where
        they compute), True where the band hides key ``j`` from query ``i``; ``None`` without a band."""
        lo, hi = self.band()
        if lo is None and hi is None:
            return None
        diff = xp.arange(skv)[None, :] - xp.arange(sq)[:, None]
        hidden = xp.zeros((sq, skv), bool)
        if hi is not None:
            hidden |= diff > hi
        if lo is not None:
            hidden |= diff < lo
        return hidden


class ScaledDotProductAttention(_AttentionAttrs):
    """``ScaledDotProductAttention(scale=1.0, pre_tokens=2147483647, next_tokens=2147483647)(query, key, value)``
    -> ``(attention_out, softmax_lse)``: the fused attention that ``ops.flash_attention_score`` runs when it has no
    dropout, bias or explicit mask (a primitive of this implementation, not of MindSpore: backends fuse it, the GPU's
    on cuDNN).

    ``query`` ``(B, N, Sq, D)``, ``key`` ``(B, N, Skv, D)``, ``value`` ``(B, N, Skv, Dv)``, of one dtype among
    float16, bfloat16, float32 and float64::

        scores = scale * query @ key^T,  a score of key j for query i masked (-1e30) unless
                 -pre_tokens <= j - i <= next_tokens (2147483647: no bound),
        softmax_lse = log(sum(exp(scores), -1)),  attention_out = softmax(scores, -1) @ value

    computed in float32 (float64 for float64) and rounded once; ``attention_out`` ``(B, N, Sq, Dv)`` in the inputs'
    dtype, ``softmax_lse`` ``(B, N, Sq, 1)`` in float32 (float64). A row whose every key is masked attends uniformly,
    as the masked softmax of the composition it replaces does. The gradient is
    :class:`ScaledDotProductAttentionGrad` (the softmax recomputed from the scores).
    """

    @prim_attr_register
    def __init__(self, scale=1.0, pre_tokens=NO_BAND, next_tokens=NO_BAND):
        self._check(scale, pre_tokens, next_tokens)

    def infer_shape(self, query, key, value):
        for name, s in (("query", query), ("key", key), ("value", value)):
            _tensor(self.name, name, s)
            rules.check_rank(self.name, name, s, 4)
        if tuple(key[:2]) != tuple(query[:2]) or tuple(value[:3]) != tuple(key[:3]) or key[3] != query[3]:
            raise MSValueError(f"For '{self.name}', the shapes of 'query' (B, N, Sq, D), 'key' (B, N, Skv, D) and "
                               f"'value' (B, N, Skv, Dv) must agree, but got {tuple(query)}, {tuple(key)} and "
                               f"{tuple(value)}.")
        return tuple(query[:3]) + (value[3],), tuple(query[:3]) + (1,)

    def infer_dtype(self, query, key, value):
        rules.check_dtype_in(self.name, "query", query, _SDPA_DTYPES)
        rules.check_same_dtype(self.name, ("query", "key", "value"), (query, key, value))
        return query, (mstype.float64 if query == mstype.float64 else mstype.float32)

    def export_expand(self, query, key, value):
        """The composition an export writes instead (MindIR and ONNX have no such primitive): the formula of the
        class docstring with MatMul, Softmax and their kin, the band a constant mask."""
        wide = mstype.float64 if query.dtype == mstype.float64 else mstype.float32
        q, k, v = (fops.cast(t, wide) for t in (query, key, value))
        scores = fops.mul(fops.matmul(q, fops.swapaxes(k, -1, -2)), float(self.scale))
        hidden = self.hidden(query.shape[2], key.shape[2])
        if hidden is not None:
            scores = fops.masked_fill(scores, Tensor(hidden), MASKED_SCORE)
        top = fops.reduce_max(scores, -1, keep_dims=True)
        e = fops.exp(fops.sub(scores, top))
        total = fops.reduce_sum(e, -1, keep_dims=True)
        out = fops.cast(fops.matmul(fops.div(e, total), v), query.dtype)
        return out, fops.add(top, fops.log(total))

    bprop_none_douts = True     # the tape passes None for the cotangent of an output that got no gradient

    def bprop(self, query, key, value, out, dout):
        dy, dlse = dout
        if dy is None:
            dy = fops.zeros_like(out[0])
        with_lse = dlse is not None and not is_known_zero(dlse)
        grad = self._grad_prim(ScaledDotProductAttentionGrad, self.scale, self.pre_tokens, self.next_tokens,
                               with_lse)
        return grad(query, key, value, out[0], dy, out[1], dlse if with_lse else fops.zeros_like(out[1]))


class ScaledDotProductAttentionGrad(_AttentionAttrs):
    """``ScaledDotProductAttentionGrad(scale, pre_tokens, next_tokens, lse_grad=False)(query, key, value,
    attention_out, dout, softmax_lse, dlse)`` -> ``(dquery, dkey, dvalue)``: the gradient of
    :class:`ScaledDotProductAttention` given the cotangents of its two outputs (``dlse`` read only when
    ``lse_grad``)::

        P = softmax(scores),  dvalue = P^T @ dout,  dP = dout @ value^T,
        dS = P * (dP - sum(P * dP, -1) + dlse), 0 where masked,  dquery = scale * dS @ key,  dkey = scale * dS^T @ query

    in float32 (float64), each result in its input's dtype.
    """

    @prim_attr_register
    def __init__(self, scale=1.0, pre_tokens=NO_BAND, next_tokens=NO_BAND, lse_grad=False):
        self._check(scale, pre_tokens, next_tokens)
        rules.check_bool(self.name, "lse_grad", lse_grad)

    def infer_shape(self, query, key, value, attention_out, dout, softmax_lse, dlse):
        out, lse = ScaledDotProductAttention.infer_shape(self, query, key, value)
        for name, s, want in (("attention_out", attention_out, out), ("dout", dout, out),
                              ("softmax_lse", softmax_lse, lse), ("dlse", dlse, lse)):
            if tuple(_tensor(self.name, name, s)) != want:
                raise MSValueError(f"For '{self.name}', the shape of '{name}' must be {want}, but got {tuple(s)}.")
        return tuple(query), tuple(key), tuple(value)

    def infer_dtype(self, query, key, value, attention_out, dout, softmax_lse, dlse):
        ScaledDotProductAttention.infer_dtype(self, query, key, value)
        rules.check_same_dtype(self.name, ("query", "attention_out", "dout"), (query, attention_out, dout))
        return query, key, value

    bprop = NON_DIFFERENTIABLE


PRIMITIVES = [TripletMarginLoss, MultilabelMarginLoss, DropoutGenMask, DropoutDoMask, ComputeAccidentalHits,
              UniformCandidateSampler, LogUniformCandidateSampler, FractionalMaxPoolWithFixedKsize,
              FractionalMaxPool3DWithFixedKsize, MaxPoolScatterGrad, CTCLoss, DepthwiseConv2dNative,
              DeformableOffsets, DeformableOffsetsGrad, STFT, FractionalMaxPool, FractionalAvgPool,
              FractionalMaxPoolGrad, FractionalAvgPoolGrad, ScaledDotProductAttention, ScaledDotProductAttentionGrad]
