"""Scatter primitives of MindSpore 2.10 beyond ``ScatterNdUpdate``/``TensorScatterAdd``/``TensorScatterUpdate``:
the in-place row scatters ``ScatterAdd``, ``ScatterSub``, ``ScatterMul``, ``ScatterDiv``, ``ScatterMax``,
``ScatterMin``, ``ScatterUpdate`` (``x[indices[i...]] op= updates[i...]`` along the first axis), the in-place N-D
scatters ``ScatterNdAdd`` ... ``ScatterNdMin`` and ``ScatterNonAliasingAdd`` (``indices`` (..., K) address the first
K axes), and the functional ``TensorScatterSub``/``Mul``/``Div``/``Max``/``Min``.

Each primitive is one block: class, ``infer_shape``, ``infer_dtype``, ``bprop`` (or ``NON_DIFFERENTIABLE``).
Repeated indices apply every update (sums, products, maxima accumulate). The in-place ones write into their first
input's buffer (a Parameter's) as ``ScatterNdUpdate`` does, return it, and are kept in program order by the graph
compiler (``side_effect``); like ``ScatterNdUpdate`` they are not differentiated. ``TensorScatter*`` compute a new
tensor; their gradients: ``Sub``: ``-gather_nd(dout)`` for the updates; ``Mul``/``Div``: the scatter of ``dout``
for ``x`` and ``+-gather_nd(dout * out) / updates`` for the updates; ``Max``/``Min``: ``dout`` where the input
(update) is the result. Kernels live in the backends' ``kernels/scatter.py``.
"""
from mindspore._errors import MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.indexing import GatherNd
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive, prim_attr_register

_INDEX = (mstype.int32, mstype.int64)
_FLOATS = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


def _check_nd_updates(op, x, indices, updates):
    rules.check_rank(op, "input_x", x, range(1, 9))
    if not indices or indices[-1] > len(x):
        raise MSValueError(f"For '{op}', indices.shape[-1] must be in [1, {len(x)}], but got {tuple(indices)}.")
    want = tuple(indices[:-1]) + tuple(x[indices[-1]:])
    if not rules.same_shape(updates, want):
        raise MSValueError(f"For '{op}', the shape of 'updates' must be {want}, but got {tuple(updates)}.")
    return tuple(x)


class _Scatter(Primitive):
    """Shared rules; subclasses say the reduction (``kind``) and whether indices address rows or N-D prefixes."""

    kind = "add"
    nd = False
    in_place = True
    allowed = rules.NUMBER_TYPES
    side_effect = True

    @property
    def written_inputs(self):
        return (0,) if self.in_place else ()

    @prim_attr_register
    def __init__(self, use_locking=False):
        rules.check_bool(self.name, "use_locking", use_locking)

    def infer_shape(self, input_x, indices, updates):
        if self.nd:
            return _check_nd_updates(self.name, input_x, indices, updates)
        rules.check_rank(self.name, "input_x", input_x, range(1, 9))
        want = tuple(indices) + tuple(input_x[1:])
        if not rules.same_shape(updates, want):
            raise MSValueError(f"For '{self.name}', the shape of 'updates' must be indices.shape + x.shape[1:] = "
                               f"{want}, but got {tuple(updates)}.")
        return tuple(input_x)

    def infer_dtype(self, input_x, indices, updates):
        rules.check_dtype_in(self.name, "indices", indices, _INDEX)
        rules.check_dtype_in(self.name, "input_x", input_x, self.allowed)
        return rules.check_same_dtype(self.name, ("input_x", "updates"), (input_x, updates))

    bprop = NON_DIFFERENTIABLE


class ScatterAdd(_Scatter):
    """``ScatterAdd(use_locking=False)(input_x, indices, updates)``: ``input_x[indices] += updates`` in place."""


class ScatterSub(_Scatter):
    """``ScatterSub(use_locking=False)(input_x, indices, updates)``: ``input_x[indices] -= updates`` in place."""

    kind = "sub"


class ScatterMul(_Scatter):
    """``ScatterMul(use_locking=False)(input_x, indices, updates)``: ``input_x[indices] *= updates`` in place."""

    kind = "mul"


class ScatterDiv(_Scatter):
    """``ScatterDiv(use_locking=False)(input_x, indices, updates)``: ``input_x[indices] /= updates`` in place."""

    kind = "div"
    allowed = _FLOATS


class ScatterMax(_Scatter):
    """``ScatterMax(use_locking=False)(input_x, indices, updates)``: ``max(input_x[indices], updates)`` in place."""

    kind = "max"


class ScatterMin(_Scatter):
    """``ScatterMin(use_locking=False)(input_x, indices, updates)``: ``min(input_x[indices], updates)`` in place."""

    kind = "min"


class ScatterUpdate(_Scatter):
    """``ScatterUpdate(use_locking=True)(input_x, indices, updates)``: ``input_x[indices] = updates`` in place."""

    kind = "update"

    @prim_attr_register
    def __init__(self, use_locking=True):
        rules.check_bool(self.name, "use_locking", use_locking)


class ScatterNdAdd(_Scatter):
    """``ScatterNdAdd(use_locking=False)(input_x, indices, updates)``: N-D ``input_x[indices] += updates`` in place."""

    nd = True


class ScatterNdSub(_Scatter):
    """``ScatterNdSub(use_locking=False)(input_x, indices, updates)``: N-D ``-=`` in place."""

    nd, kind = True, "sub"


class ScatterNdMul(_Scatter):
    """``ScatterNdMul(use_locking=False)(input_x, indices, updates)``: N-D ``*=`` in place."""

    nd, kind = True, "mul"


class ScatterNdDiv(_Scatter):
    """``ScatterNdDiv(use_locking=False)(input_x, indices, updates)``: N-D ``/=`` in place."""

    nd, kind, allowed = True, "div", _FLOATS


class ScatterNdMax(_Scatter):
    """``ScatterNdMax(use_locking=False)(input_x, indices, updates)``: N-D maximum in place."""

    nd, kind = True, "max"


class ScatterNdMin(_Scatter):
    """``ScatterNdMin(use_locking=False)(input_x, indices, updates)``: N-D minimum in place."""

    nd, kind = True, "min"


class ScatterNonAliasingAdd(_Scatter):
    """``ScatterNonAliasingAdd()(input_x, indices, updates)``: N-D ``input_x[indices] += updates`` in place."""

    nd = True

    @prim_attr_register
    def __init__(self):
        pass


# --- TensorScatterSub / Mul / Div / Max / Min ----------------------------------------------------------------
class _TensorScatter(_Scatter):
    nd = True
    in_place = False
    side_effect = False

    @prim_attr_register
    def __init__(self):
        pass


def _gather_nd(x, indices):
    return GatherNd()(x, indices)


class TensorScatterSub(_TensorScatter):
    """``TensorScatterSub()(input_x, indices, updates)``: a copy of ``input_x`` with ``updates`` subtracted."""

    kind = "sub"

    def bprop(self, input_x, indices, updates, out, dout):
        return dout, None, fops.neg(_gather_nd(dout, indices))


class TensorScatterMul(_TensorScatter):
    """``TensorScatterMul()(input_x, indices, updates)``: a copy of ``input_x`` multiplied by ``updates``."""

    kind = "mul"

    def bprop(self, input_x, indices, updates, out, dout):
        dx = self._grad_prim(TensorScatterMul)(dout, indices, updates)
        dupd = fops.div(_gather_nd(fops.mul(dout, out), indices), updates)
        return dx, None, dupd


class TensorScatterDiv(_TensorScatter):
    """``TensorScatterDiv()(input_x, indices, updates)``: a copy of ``input_x`` divided by ``updates``."""

    kind = "div"
    allowed = _FLOATS

    def bprop(self, input_x, indices, updates, out, dout):
        dx = self._grad_prim(TensorScatterDiv)(dout, indices, updates)
        dupd = fops.neg(fops.div(_gather_nd(fops.mul(dout, out), indices), updates))
        return dx, None, dupd


def _extreme_bprop(input_x, indices, updates, out, dout):
    dx = fops.mul(dout, fops.cast(fops.equal(input_x, out), fops.dtype(dout)))
    hit = fops.cast(fops.equal(updates, _gather_nd(out, indices)), fops.dtype(dout))
    return dx, None, fops.mul(_gather_nd(dout, indices), hit)


class TensorScatterMax(_TensorScatter):
    """``TensorScatterMax()(input_x, indices, updates)``: a copy of ``input_x`` with ``max(x, updates)``."""

    kind = "max"

    def bprop(self, input_x, indices, updates, out, dout):
        return _extreme_bprop(input_x, indices, updates, out, dout)


class TensorScatterMin(_TensorScatter):
    """``TensorScatterMin()(input_x, indices, updates)``: a copy of ``input_x`` with ``min(x, updates)``."""

    kind = "min"

    def bprop(self, input_x, indices, updates, out, dout):
        return _extreme_bprop(input_x, indices, updates, out, dout)


PRIMITIVES = [ScatterAdd, ScatterSub, ScatterMul, ScatterDiv, ScatterMax, ScatterMin, ScatterUpdate, ScatterNdAdd,
              ScatterNdSub, ScatterNdMul, ScatterNdDiv, ScatterNdMax, ScatterNdMin, ScatterNonAliasingAdd,
              TensorScatterSub, TensorScatterMul, TensorScatterDiv, TensorScatterMax, TensorScatterMin]
