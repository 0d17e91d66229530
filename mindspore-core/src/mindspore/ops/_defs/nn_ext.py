"""Neural-network primitives, second half: element-wise losses and image resizing.

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/nn_ext.py``. :mod:`mindspore.ops._defs.nn` lists these
primitives in the family's ``PRIMITIVES``.

The resize gradients are primitives of their own (``ResizeNearestNeighborGrad``,
``ResizeBilinearGrad``, MindSpore's internal names): resizing is linear in its input, so each
gradient's bprop is the forward resize again, and grad of grad works.
"""
import numbers

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore._core.primitive import Primitive, prim_attr_register

REDUCTIONS = ("none", "mean", "sum")


def _check_reduction(op, reduction, allowed=REDUCTIONS):
    if not isinstance(reduction, str):
        raise MSTypeError(f"For '{op}', the 'reduction' must be a str, but got {type(reduction).__name__}.")
    if reduction not in allowed:
        raise MSValueError(f"For '{op}', the 'reduction' must be one of {list(allowed)}, but got '{reduction}'.")
    return reduction


def _check_tensor(op, name, shape):
    if not rules.is_shape(shape):
        raise MSTypeError(f"For '{op}', the input '{name}' must be a Tensor, but got {type(shape).__name__}.")
    return tuple(shape)


def _loss_shape(reduction, shape):
    return tuple(shape) if reduction == "none" else ()


def reduced_grad(dout, reduction, like):
    """The gradient of a reduced loss, broadcast back to the element-wise loss ``like``."""
    if reduction == "none":
        return dout
    if reduction == "mean":
        return fops.broadcast_to(fops.mul(dout, 1.0 / max(like.size, 1)), like.shape)
    return fops.broadcast_to(dout, like.shape)


def _mask(cond, like):
    return fops.cast(cond, like.dtype)


# --- SigmoidCrossEntropyWithLogits ----------------------------------------------------------
class SigmoidCrossEntropyWithLogits(Primitive):
    """Element-wise ``-[z log(sigmoid(x)) + (1 - z) log(1 - sigmoid(x))]``, computed stably."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, logits, label):
        _check_tensor(self.name, "logits", logits)
        _check_tensor(self.name, "label", label)
        return rules.check_same_shape(self.name, ("logits", "label"), (logits, label))

    def infer_dtype(self, logits, label):
        rules.check_float(self.name, "logits", logits)
        return rules.check_same_dtype(self.name, ("logits", "label"), (logits, label))

    def bprop(self, logits, label, out, dout):
        return fops.mul(dout, fops.sub(fops.sigmoid(logits), label)), fops.mul(dout, fops.neg(logits))


# --- BCEWithLogitsLoss ----------------------------------------------------------------------
_NO_THRESHOLD = float("inf")   # softplus(x, 1, inf): the Softplus kernel alone


class BCEWithLogitsLoss(Primitive):
    """``BCEWithLogitsLoss(reduction='mean')(logits, label, weight, pos_weight)``.

    ``-weight [pos_weight y log(sigmoid(x)) + (1 - y) log(1 - sigmoid(x))]``, written with softplus so
    it never overflows; ``weight``/``pos_weight`` broadcast against ``logits`` (``None`` means 1).
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        _check_reduction(self.name, reduction)

    def infer_shape(self, logits, label, weight, pos_weight):
        _check_tensor(self.name, "logits", logits)
        _check_tensor(self.name, "label", label)
        rules.check_same_shape(self.name, ("logits", "label"), (logits, label))
        shape = tuple(logits)
        for name, s in (("weight", weight), ("pos_weight", pos_weight)):
            if s is not None:
                _check_tensor(self.name, name, s)
                if rules.broadcast_shapes(self.name, shape, s) != shape:
                    raise MSValueError(f"For '{self.name}', the '{name}' must broadcast to the shape of 'logits' "
                                       f"{shape}, but got {tuple(s)}.")
        return _loss_shape(self.reduction, shape)

    def infer_dtype(self, logits, label, weight, pos_weight):
        rules.check_float(self.name, "logits", logits)
        rules.check_float(self.name, "label", label)
        for name, d in (("weight", weight), ("pos_weight", pos_weight)):
            if d is not None:
                rules.check_float(self.name, name, d)
        return logits

    def bprop(self, logits, label, weight, pos_weight, out, dout):
        # MindSpore 2.10's bprop in its order of operations (bit for bit on its CPU): with s = sigmoid(x) and
        # t = y pw, dx = ((t + 1 - y) s - t) dout, dy = (log(1 - s) - pw log(s)) dout, each times weight and, for
        # 'mean', divided by the size; its graph rewrites log(1 - s) to -softplus(x) and log(s) to -softplus(-x)
        # (the bare Softplus kernel: no threshold)
        sp_neg = fops.softplus(fops.neg(logits), 1, _NO_THRESHOLD)   # -log(sigmoid(x))
        sp_pos = fops.softplus(logits, 1, _NO_THRESHOLD)             # -log(1 - sigmoid(x))
        pos_term = label if pos_weight is None else fops.mul(label, pos_weight)
        dx = fops.mul(fops.sub(fops.mul(fops.sub(fops.add(pos_term, 1), label), fops.sigmoid(logits)), pos_term),
                      dout)
        log_s = fops.neg(sp_neg)
        dlabel = fops.mul(fops.sub(fops.neg(sp_pos), log_s if pos_weight is None else fops.mul(pos_weight, log_s)),
                          dout)
        if weight is not None:
            dx, dlabel = fops.mul(dx, weight), fops.mul(dlabel, weight)
        if self.reduction == "mean":
            size = float(max(logits.size, 1))
            dx, dlabel = fops.div(dx, size), fops.div(dlabel, size)
        # (2.10 gives zeros for weight and pos_weight; these are their derivatives)
        dweight = dpos = None
        if weight is not None:
            elem = fops.add(fops.mul(pos_term, sp_neg), fops.mul(fops.sub(1, label), sp_pos))
            dweight = fops.mul(reduced_grad(dout, self.reduction, logits), elem)
        if pos_weight is not None:
            g = reduced_grad(dout, self.reduction, logits)
            if weight is not None:
                g = fops.mul(g, weight)
            dpos = fops.mul(g, fops.mul(label, sp_neg))
        return dx, dlabel, dweight, dpos


# --- BinaryCrossEntropy ---------------------------------------------------------------------
BCE_EPS = 1e-12


class BinaryCrossEntropy(Primitive):
    """``BinaryCrossEntropy(reduction='mean')(logits, labels, weight=None)`` on probabilities.

    ``-weight [y log(x + 1e-12) + (1 - y) log(1 - x + 1e-12)]`` (MindSpore adds the epsilon, it does not clamp).
    The gradient for ``labels`` is ``weight (log(1 - x) - log(x))``, without the epsilon, as MindSpore's (infinite
    where ``x`` is 0 or 1); the one for ``weight`` is the element loss (MindSpore 2.10 returns zeros there).
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        _check_reduction(self.name, reduction)

    def __call__(self, logits, labels, weight=None):
        return super().__call__(logits, labels, weight)

    def infer_shape(self, logits, labels, weight):
        _check_tensor(self.name, "logits", logits)
        _check_tensor(self.name, "labels", labels)
        shape = rules.check_same_shape(self.name, ("logits", "labels"), (logits, labels))
        if weight is not None:
            _check_tensor(self.name, "weight", weight)
            if rules.broadcast_shapes(self.name, shape, weight) != shape:
                raise MSValueError(f"For '{self.name}', the 'weight' must broadcast to the shape of 'logits' "
                                   f"{shape}, but got {tuple(weight)}.")
        return _loss_shape(self.reduction, shape)

    def infer_dtype(self, logits, labels, weight):
        rules.check_float(self.name, "logits", logits)
        names, types = ("logits", "labels"), (logits, labels)
        if weight is not None:
            names, types = names + ("weight",), types + (weight,)
        return rules.check_same_dtype(self.name, names, types)

    def bprop(self, logits, labels, weight, out, dout):
        g = reduced_grad(dout, self.reduction, logits)
        if weight is not None:
            g = fops.mul(g, weight)
        one_minus = fops.sub(1, logits)
        denom = fops.maximum(fops.mul(logits, one_minus), BCE_EPS)
        dx = fops.div(fops.sub(logits, labels), denom)
        dlabels = fops.sub(fops.log(one_minus), fops.log(logits))
        dweight = None
        if weight is not None:
            log_x = fops.log(fops.add(logits, BCE_EPS))
            log_1x = fops.log(fops.add(one_minus, BCE_EPS))
            elem = fops.neg(fops.add(fops.mul(labels, log_x), fops.mul(fops.sub(1, labels), log_1x)))
            dweight = fops.mul(reduced_grad(dout, self.reduction, logits), elem)
        return fops.mul(g, dx), fops.mul(g, dlabels), dweight


# --- NLLLoss --------------------------------------------------------------------------------
class NLLLoss(Primitive):
    """``NLLLoss(reduction='mean', ignore_index=-100)(logits, labels, weight)`` -> ``(loss, total_weight)``.

    ``logits`` (N, C) holds log-probabilities, ``labels`` (N,) class indices, ``weight`` (C,) per-class
    weights. The per-sample loss is ``-weight[t] logits[n, t]`` (0 where ``t == ignore_index``);
    ``total_weight`` is the sum of the weights of the samples not ignored, and ``'mean'`` divides by it.
    """

    @prim_attr_register
    def __init__(self, reduction="mean", ignore_index=-100):
        _check_reduction(self.name, reduction)
        rules.check_int(self.name, "ignore_index", ignore_index)

    def infer_shape(self, logits, labels, weight):
        rules.check_rank(self.name, "logits", logits, (1, 2))
        rules.check_rank(self.name, "labels", labels, (0, 1))
        rules.check_rank(self.name, "weight", weight, 1)
        n = logits[0] if len(logits) == 2 else 1
        c = logits[-1]
        if len(logits) == 2 and tuple(labels) != (n,):
            raise MSValueError(f"For '{self.name}', the 'labels' shape must be ({n},) (the batch size of 'logits'), "
                               f"but got {tuple(labels)}.")
        if weight[0] != c:
            raise MSValueError(f"For '{self.name}', the 'weight' shape must be ({c},) (the class number of "
                               f"'logits'), but got {tuple(weight)}.")
        loss = (n,) if self.reduction == "none" and len(logits) == 2 else ()
        return loss, ()

    def infer_dtype(self, logits, labels, weight):
        rules.check_float(self.name, "logits", logits)
        rules.check_dtype_in(self.name, "labels", labels, (mstype.int32, mstype.int64, mstype.uint8))
        rules.check_float(self.name, "weight", weight)
        return logits, weight

    def bprop(self, logits, labels, weight, out, dout):
        # onehot[n, c] = 1 where labels[n] == c and the sample is not ignored
        valid = fops.not_equal(labels, self.ignore_index)
        safe = fops.mul(fops.cast(labels, mstype.int64), fops.cast(valid, mstype.int64))
        onehot = fops.cast(fops.one_hot(safe, logits.shape[-1], 1.0, 0.0), weight.dtype)
        onehot = fops.mul(onehot, fops.expand_dims(fops.cast(valid, weight.dtype), -1))
        batch_axes = tuple(range(onehot.ndim - 1))
        picked = fops.reduce_sum(fops.mul(onehot, logits), batch_axes)   # S[c] = sum of the picked logits
        counts = fops.reduce_sum(onehot, batch_axes)                      # K[c] = how often class c counts
        g = dout[0]
        if self.reduction == "mean":
            g = fops.div(g, out[1])
        if self.reduction == "none" and logits.ndim == 2:
            dlogits = fops.neg(fops.mul(fops.mul(fops.expand_dims(g, -1), onehot), weight))
            dweight = fops.neg(fops.reduce_sum(fops.mul(fops.mul(fops.expand_dims(g, -1), onehot), logits), 0))
        else:
            dlogits = fops.neg(fops.mul(fops.mul(g, onehot), weight))
            dweight = fops.neg(fops.mul(g, picked))
            if self.reduction == "mean":
                # loss = -sum_c w[c] S[c] / sum_c w[c] K[c]: the denominator depends on the weight too
                dweight = fops.sub(dweight, fops.mul(fops.mul(g, out[0]), counts))
        dweight = fops.add(dweight, fops.mul(dout[1], counts))
        return dlogits, None, dweight


# --- SmoothL1Loss ---------------------------------------------------------------------------
class SmoothL1Loss(Primitive):
    """``SmoothL1Loss(beta=1.0, reduction='none')(logits, labels)``.

    ``0.5 d^2 / beta`` where ``|d| < beta``, ``|d| - 0.5 beta`` elsewhere, ``d = logits - labels``.
    """

    @prim_attr_register
    def __init__(self, beta=1.0, reduction="none"):
        if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
            raise MSTypeError(f"For '{self.name}', the 'beta' must be a float, but got {type(beta).__name__}.")
        if beta <= 0:
            raise MSValueError(f"For '{self.name}', the 'beta' must be greater than 0, but got {beta}.")
        _check_reduction(self.name, reduction)

    def infer_shape(self, logits, labels):
        _check_tensor(self.name, "logits", logits)
        _check_tensor(self.name, "labels", labels)
        shape = rules.check_same_shape(self.name, ("logits", "labels"), (logits, labels))
        return _loss_shape(self.reduction, shape)

    def infer_dtype(self, logits, labels):
        rules.check_float(self.name, "logits", logits)
        return rules.check_same_dtype(self.name, ("logits", "labels"), (logits, labels))

    def bprop(self, logits, labels, out, dout):
        g = reduced_grad(dout, self.reduction, logits)
        d = fops.sub(logits, labels)
        clipped = fops.minimum(fops.maximum(fops.mul(d, 1.0 / self.beta), -1), 1)
        grad = fops.mul(g, clipped)
        return grad, fops.neg(grad)


# --- KLDivLoss ------------------------------------------------------------------------------
class KLDivLoss(Primitive):
    """``KLDivLoss(reduction='mean')(logits, labels)``: ``labels * (log(labels) - logits)``.

    ``logits`` are log-probabilities; ``0 * log(0)`` counts as 0. ``'batchmean'`` divides the
    sum by the batch size (the first dimension).
    """

    @prim_attr_register
    def __init__(self, reduction="mean"):
        _check_reduction(self.name, reduction, REDUCTIONS + ("batchmean",))

    def infer_shape(self, logits, labels):
        _check_tensor(self.name, "logits", logits)
        _check_tensor(self.name, "labels", labels)
        shape = rules.check_same_shape(self.name, ("logits", "labels"), (logits, labels))
        return _loss_shape(self.reduction, shape)

    def infer_dtype(self, logits, labels):
        rules.check_float(self.name, "logits", logits)
        return rules.check_same_dtype(self.name, ("logits", "labels"), (logits, labels))

    def bprop(self, logits, labels, out, dout):
        if self.reduction == "batchmean":
            batch = logits.shape[0] if logits.ndim else 1
            g = fops.broadcast_to(fops.mul(dout, 1.0 / max(batch, 1)), logits.shape)
        else:
            g = reduced_grad(dout, self.reduction, logits)
        positive = _mask(fops.greater(labels, 0), labels)
        safe = fops.add(fops.mul(labels, positive), fops.sub(1, positive))
        # d(y log y)/dy = log y + 1 for y > 0; at y = 0 that term is taken as 0
        dlabels = fops.sub(fops.mul(positive, fops.add(fops.log(safe), 1)), logits)
        return fops.neg(fops.mul(g, labels)), fops.mul(g, dlabels)


# --- resize helpers -------------------------------------------------------------------------
def _check_size(op, size, name="size"):
    size = rules.check_int_tuple(op, name, size, 2)
    if any(s <= 0 for s in size):
        raise MSValueError(f"For '{op}', the '{name}' must be positive, but got {size}.")
    return size


def _check_image(op, name, x):
    rules.check_rank(op, name, x, 4)
    return tuple(x)


# --- ResizeNearestNeighbor ------------------------------------------------------------------
class ResizeNearestNeighbor(Primitive):
    """``ResizeNearestNeighbor(size, align_corners=False)(x)``: NCHW ``x`` resized to ``size`` (h, w).

    The source index is ``floor(i * in / out)``; with ``align_corners`` it is
    ``round(i * (in - 1) / (out - 1))``.
    """

    @prim_attr_register
    def __init__(self, size, align_corners=False):
        self.add_prim_attr("size", _check_size(self.name, size))
        rules.check_bool(self.name, "align_corners", align_corners)

    def infer_shape(self, x):
        x = _check_image(self.name, "input_x", x)
        return x[:2] + self.size

    def infer_dtype(self, x):
        return rules.check_dtype_in(self.name, "input_x", x, rules.NUMBER_TYPES)

    def bprop(self, x, out, dout):
        return (self._grad_prim(ResizeNearestNeighborGrad, self.align_corners)(dout, tuple(x.shape[2:])),)


class ResizeNearestNeighborGrad(Primitive):
    """``ResizeNearestNeighborGrad(align_corners=False)(grads, size)``: the adjoint of the nearest resize
    (each output gradient summed into the source pixel it was copied from)."""

    @prim_attr_register
    def __init__(self, align_corners=False):
        rules.check_bool(self.name, "align_corners", align_corners)

    def infer_shape(self, grads, size):
        grads = _check_image(self.name, "grads", grads)
        return grads[:2] + _check_size(self.name, size)

    def infer_dtype(self, grads, size):
        return rules.check_dtype_in(self.name, "grads", grads, rules.NUMBER_TYPES)

    def bprop(self, grads, size, out, dout):
        return self._grad_prim(ResizeNearestNeighbor, tuple(grads.shape[2:]), self.align_corners)(dout), None


# --- ResizeBilinearV2 -----------------------------------------------------------------------
class ResizeBilinearV2(Primitive):
    """``ResizeBilinearV2(align_corners=False, half_pixel_centers=False)(x, size)``: bilinear resize of
    NCHW ``x`` to ``size`` (h, w), with TensorFlow's coordinate conventions."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        rules.check_bool(self.name, "align_corners", align_corners)
        rules.check_bool(self.name, "half_pixel_centers", half_pixel_centers)
        if align_corners and half_pixel_centers:
            raise MSValueError(f"For '{self.name}', the 'half_pixel_centers' must be False when 'align_corners' "
                               f"is True, but got True.")

    def infer_shape(self, x, size):
        x = _check_image(self.name, "x", x)
        return x[:2] + _check_size(self.name, size)

    def infer_dtype(self, x, size):
        return rules.check_float(self.name, "x", x)

    def bprop(self, x, size, out, dout):
        op = self._grad_prim(ResizeBilinearGrad, self.align_corners, self.half_pixel_centers)
        grad = op(dout, tuple(x.shape[2:]))
        return grad, None


class ResizeBilinearGrad(Primitive):
    """``ResizeBilinearGrad(align_corners=False, half_pixel_centers=False)(grads, size)``: the adjoint of
    the bilinear resize onto an image of spatial ``size``."""

    @prim_attr_register
    def __init__(self, align_corners=False, half_pixel_centers=False):
        rules.check_bool(self.name, "align_corners", align_corners)
        rules.check_bool(self.name, "half_pixel_centers", half_pixel_centers)

    def infer_shape(self, grads, size):
        grads = _check_image(self.name, "grads", grads)
        return grads[:2] + _check_size(self.name, size)

    def infer_dtype(self, grads, size):
        return rules.check_float(self.name, "grads", grads)

    def bprop(self, grads, size, out, dout):
        resize = ResizeBilinearV2(self.align_corners, self.half_pixel_centers)
        return resize(dout, tuple(grads.shape[2:])), None


PRIMITIVES = [SigmoidCrossEntropyWithLogits, BCEWithLogitsLoss, BinaryCrossEntropy, NLLLoss, SmoothL1Loss,
              KLDivLoss, ResizeNearestNeighbor, ResizeNearestNeighborGrad, ResizeBilinearV2, ResizeBilinearGrad]
