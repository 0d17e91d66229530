"""Matrix products, n-ary sums, accumulations and ``Einsum`` (the second half of the math family).

Each primitive is one block: class (attributes), ``infer_shape``, ``infer_dtype``, ``bprop``.
Kernels live in the backends' ``kernels/math.py``.

The products' bprops are products again (``MatMul``'s transpose flags select the four cases), and
batch broadcasting needs no code here: the autodiff engine sums each gradient back to its input's
shape. ``Einsum``'s bprop contracts the upstream gradient with the other operands into the
operand's subscripts; subscripts found in no other operand and not in the output are broadcast
back, and a subscript repeated within one operand (a diagonal) is put back on the diagonal with
identity matrices.
"""
import string

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.ops._defs import _rules as rules
from mindspore.ops._defs._lazy import functional as fops
from mindspore.ops._defs.math import _conj, to_float
from mindspore._core.primitive import Primitive, constexpr, prim_attr_register

_MATMUL_TYPES = rules.NUMBER_TYPES


def _check_same_tensor_dtype(op, x, y, names=("x", "y")):
    rules.check_dtype_in(op, names[0], x, _MATMUL_TYPES)
    rules.check_dtype_in(op, names[1], y, _MATMUL_TYPES)
    if x != y:
        raise MSTypeError(f"For '{op}', the type of '{names[1]}' should be same as '{names[0]}', but got "
                          f"'{names[0]}' with type Tensor[{x}] and '{names[1]}' with type Tensor[{y}].")
    return x


def _check_inner_dims(op, x, y, transpose_a, transpose_b):
    x_col = x[-2] if transpose_a else x[-1]
    y_row = y[-1] if transpose_b else y[-2]
    if x_col != y_row:
        raise MSValueError(f"For '{op}', the input dimensions must be equal, but got 'x1_col': {x_col} and "
                           f"'x2_row': {y_row}. And 'x' shape {tuple(x)}(transpose_a={transpose_a}), "
                           f"'y' shape {tuple(y)}(transpose_b={transpose_b}).")
    rows = x[-1] if transpose_a else x[-2]
    cols = y[-2] if transpose_b else y[-1]
    return rows, cols


def _product_grads(prim_for, x, y, dout, transpose_a, transpose_b, need_x, need_y):
    """Gradients of ``op(x) @ op(y)`` for the four transpose cases, as products again (``None`` for one not
    needed: ``Primitive._grads_needed``); complex operands conjugated (the conjugate convention of
    ``ops/_defs/math.py``: ``dx = dout @ conj(y)^T``, as MindSpore 2.10)."""
    x, y = _conj(x), _conj(y)
    dx = None
    dy = None
    if need_x:
        if transpose_a:
            dx = prim_for(transpose_b, True)(y, dout)
        else:
            dx = prim_for(False, not transpose_b)(dout, y)
    if need_y:
        if transpose_b:
            dy = prim_for(True, transpose_a)(dout, x)
        else:
            dy = prim_for(not transpose_a, False)(x, dout)
    return dx, dy


# --- MatMul ---------------------------------------------------------------------------------
class MatMul(Primitive):
    """``MatMul(transpose_a=False, transpose_b=False)(x, y)``: the product of two 2-D tensors."""

    @prim_attr_register
    def __init__(self, transpose_a=False, transpose_b=False):
        rules.check_bool(self.name, "transpose_a", transpose_a)
        rules.check_bool(self.name, "transpose_b", transpose_b)

    def infer_shape(self, x, y):
        rules.check_rank(self.name, "x", x, 2)
        rules.check_rank(self.name, "y", y, 2)
        return _check_inner_dims(self.name, x, y, self.transpose_a, self.transpose_b)

    def infer_dtype(self, x, y):
        return _check_same_tensor_dtype(self.name, x, y)

    def bprop(self, x, y, out, dout):
        need_x, need_y = self._grads_needed(2)
        return _product_grads(_matmul, x, y, dout, self.transpose_a, self.transpose_b, need_x, need_y)


# --- BatchMatMul ----------------------------------------------------------------------------
class BatchMatMul(Primitive):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``: matrix products over broadcast batch dims."""

    @prim_attr_register
    def __init__(self, transpose_a=False, transpose_b=False):
        rules.check_bool(self.name, "transpose_a", transpose_a)
        rules.check_bool(self.name, "transpose_b", transpose_b)

    def infer_shape(self, x, y):
        rules.check_rank(self.name, "x", x, range(2, 9))
        rules.check_rank(self.name, "y", y, range(2, 9))
        rows, cols = _check_inner_dims(self.name, x, y, self.transpose_a, self.transpose_b)
        batch = rules.broadcast_shapes(self.name, tuple(x[:-2]), tuple(y[:-2]))
        return batch + (rows, cols)

    def infer_dtype(self, x, y):
        return _check_same_tensor_dtype(self.name, x, y)

    def bprop(self, x, y, out, dout):
        need_x, need_y = self._grads_needed(2)
        return _product_grads(_batch_matmul, x, y, dout, self.transpose_a, self.transpose_b, need_x, need_y)


_PRODUCTS = {}


@constexpr
def _matmul(transpose_a, transpose_b):
    key = ("MatMul", transpose_a, transpose_b)
    if key not in _PRODUCTS:
        _PRODUCTS[key] = MatMul(transpose_a, transpose_b)
    return _PRODUCTS[key]


@constexpr
def _batch_matmul(transpose_a, transpose_b):
    key = ("BatchMatMul", transpose_a, transpose_b)
    if key not in _PRODUCTS:
        _PRODUCTS[key] = BatchMatMul(transpose_a, transpose_b)
    return _PRODUCTS[key]


# --- AddN -----------------------------------------------------------------------------------
class AddN(Primitive):
    """``AddN()(x)``: the elementwise sum of a tuple of tensors of one shape and dtype."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(rules.is_shape(s) for s in x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a non-empty tuple or list of Tensors, "
                              f"but got {x!r}.")
        return rules.check_same_shape(self.name, [f"x[{i}]" for i in range(len(x))], x)

    def infer_dtype(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(isinstance(d, mstype.Type) for d in x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a non-empty tuple or list of Tensors, "
                              f"but got {x!r}.")
        rules.check_dtype_in(self.name, "x[0]", x[0], rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, [f"x[{i}]" for i in range(len(x))], x)

    def bprop(self, x, out, dout):
        return ((dout,) * len(x),)


def _promote_all(op, *args, allowed=rules.NUMBER_TYPES):
    out = None
    for i, a in enumerate(args):
        if isinstance(a, mstype.Type):
            rules.check_dtype_in(op, f"input {i}", a, allowed)
        out = a if out is None else rules.binary_dtype(op, out, a)
    if not isinstance(out, mstype.Type):
        out = mstype.default_scalar_dtype(out) if rules.is_scalar(out) else out
    return rules.check_dtype_in(op, "result", out, allowed)


def _addc_dtype(op, input_data, x1, x2, value):
    """A float result of the tensors keeps its dtype whatever the ``value``'s (MindSpore 2.10 casts the value); an
    integer one promotes with the value."""
    tensors = _promote_all(op, input_data, x1, x2)
    if mstype.is_float(tensors):
        if isinstance(value, mstype.Type):
            rules.check_dtype_in(op, "value", value, rules.NUMBER_TYPES)
        return tensors
    return _promote_all(op, input_data, x1, x2, value)


# --- Addcmul --------------------------------------------------------------------------------
class Addcmul(Primitive):
    """``Addcmul()(input_data, x1, x2, value)``: ``input_data + value * x1 * x2``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_data, x1, x2, value):
        return rules.broadcast_shapes(self.name, input_data, x1, x2, value)

    def infer_dtype(self, input_data, x1, x2, value):
        return _addc_dtype(self.name, input_data, x1, x2, value)

    def bprop(self, input_data, x1, x2, value, out, dout):
        # in MindSpore 2.10's order of operations (the last bits follow it)
        return (dout, fops.mul(dout, fops.mul(value, x2)), fops.mul(dout, fops.mul(value, x1)),
                fops.mul(dout, fops.mul(x1, x2)))


# --- Addcdiv --------------------------------------------------------------------------------
class Addcdiv(Primitive):
    """``Addcdiv()(input_data, x1, x2, value)``: ``input_data + value * x1 / x2``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, input_data, x1, x2, value):
        return rules.broadcast_shapes(self.name, input_data, x1, x2, value)

    def infer_dtype(self, input_data, x1, x2, value):
        return to_float(_addc_dtype(self.name, input_data, x1, x2, value))

    def bprop(self, input_data, x1, x2, value, out, dout):
        # in MindSpore 2.10's order of operations (the last bits follow it): dx2 = -(x1 value x2**-2 dout)
        dx1 = fops.mul(dout, fops.div(value, x2))
        dx2 = fops.neg(fops.mul(fops.mul(fops.mul(x1, value), fops.pow(x2, -2)), dout))
        return dout, dx1, dx2, fops.mul(dout, fops.div(x1, x2))


# --- Lerp -----------------------------------------------------------------------------------
class Lerp(Primitive):
    """``Lerp()(start, end, weight)``: ``start + weight * (end - start)``."""

    @prim_attr_register
    def __init__(self):
        pass

    def infer_shape(self, start, end, weight):
        return rules.broadcast_shapes(self.name, start, end, weight)

    def infer_dtype(self, start, end, weight):
        return _promote_all(self.name, start, end, weight, allowed=rules.FLOAT_TYPES)

    def bprop(self, start, end, weight, out, dout):
        # as MindSpore 2.10: d_start = dout (1 - weight), not dout - d_end (they differ in the last bit)
        return (fops.mul(dout, fops.sub(1, weight)), fops.mul(dout, weight),
                fops.mul(dout, fops.sub(end, start)))


class _Cumulative(Primitive):
    """``Cum<Op>(exclusive=False, reverse=False)(x, axis)``."""

    @prim_attr_register
    def __init__(self, exclusive=False, reverse=False):
        rules.check_bool(self.name, "exclusive", exclusive)
        rules.check_bool(self.name, "reverse", reverse)

    def infer_shape(self, x, axis):
        rules.check_rank(self.name, "x", x, range(0, 9))
        rules.check_axis(self.name, axis, len(x))
        return x

    def infer_dtype(self, x, axis):
        return rules.check_dtype_in(self.name, "x", x, rules.NUMBER_TYPES)


_CUMSUMS = {}


@constexpr
def _cumsum(exclusive, reverse):
    key = (exclusive, reverse)
    if key not in _CUMSUMS:
        _CUMSUMS[key] = CumSum(exclusive, reverse)
    return _CUMSUMS[key]


# --- CumSum ---------------------------------------------------------------------------------
class CumSum(_Cumulative):
    """Cumulative sum along ``axis``; ``exclusive`` leaves out the current element, ``reverse`` runs backwards."""

    def bprop(self, x, axis, out, dout):
        return _cumsum(self.exclusive, not self.reverse)(dout, axis), None


# --- CumProd --------------------------------------------------------------------------------
class CumProd(_Cumulative):
    """Cumulative product along ``axis`` (flags as for :class:`CumSum`)."""

    def bprop(self, x, axis, out, dout):
        # d out_i / d x_k = out_i / x_k for every i that includes k: a reversed cumulative sum of dout*out
        summed = _cumsum(self.exclusive, not self.reverse)(fops.mul(dout, out), axis)
        return fops.div(summed, x), None


# --- Einsum ---------------------------------------------------------------------------------
class Einsum(Primitive):
    """``Einsum(equation)(x)``: the Einstein summation ``equation`` over the tuple of tensors ``x``."""

    @prim_attr_register
    def __init__(self, equation):
        if not isinstance(equation, str):
            raise MSTypeError(f"For '{self.name}', the 'equation' must be a str, but got {type(equation).__name__}.")
        self.add_prim_attr("equation", equation.replace(" ", ""))

    def infer_shape(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(rules.is_shape(s) for s in x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a non-empty tuple of Tensors, but got {x!r}.")
        terms, rhs, sizes = parse_einsum(self.name, self.equation, x)
        return tuple(sizes[c] for c in rhs)

    def infer_dtype(self, x):
        if not isinstance(x, (tuple, list)) or not x or not all(isinstance(d, mstype.Type) for d in x):
            raise MSTypeError(f"For '{self.name}', the input 'x' must be a non-empty tuple of Tensors, but got {x!r}.")
        rules.check_dtype_in(self.name, "x[0]", x[0], rules.NUMBER_TYPES)
        return rules.check_same_dtype(self.name, [f"x[{i}]" for i in range(len(x))], x)

    def bprop(self, x, out, dout):
        shapes = tuple([t.shape for t in x])
        grads = []
        for k in range(len(x)):
            contract, others, reduced, full, diagonal, eye_sizes = _einsum_grad_plan(self.equation, shapes, k)
            g = _einsum(contract)(tuple([dout] + [x[i] for i in others]))
            if reduced is not None:
                g = fops.broadcast_to(fops.reshape(g, reduced), full)
            if diagonal is not None:
                g = _einsum(diagonal)(tuple([g] + [_eye(n, g.dtype) for n in eye_sizes]))
            grads.append(g)
        return (tuple(grads),)


_LETTERS = string.ascii_letters


def _split_equation(op, equation, count):
    if equation.count("->") > 1:
        raise MSValueError(f"For '{op}', the 'equation' can contain at most one '->', but got '{equation}'.")
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != count:
        raise MSValueError(f"For '{op}', the number of operands in 'equation' must be equal to the number of "
                           f"input tensors {count}, but got '{equation}'.")
    for t in terms + [rhs]:
        if any(c not in _LETTERS for c in t.replace("...", "")):
            raise MSValueError(f"For '{op}', the subscripts in 'equation' must be letters or '...', but got "
                               f"'{equation}'.")
    return terms, (rhs if arrow else None)


@constexpr
def parse_einsum(op, equation, shapes):
    """Explicit subscripts of ``equation`` for operands of ``shapes``: (terms, output, label sizes).

    ``...`` becomes letters unused by the equation (right-aligned, as in NumPy); without ``->`` the
    output is the ellipsis dimensions then the labels used once, in sorted order.
    """
    terms, rhs = _split_equation(op, equation, len(shapes))
    free = [c for c in _LETTERS if c not in equation]
    n_ell = max([len(s) - len(t) + 3 for t, s in zip(terms, shapes) if "..." in t] + [0])
    ell = "".join(free[:n_ell])
    sizes, expanded = {}, []
    for t, shape in zip(terms, shapes):
        if "..." in t:
            n = len(shape) - len(t) + 3
            if n < 0:
                raise MSValueError(f"For '{op}', the operand of shape {tuple(shape)} has fewer dimensions than "
                                   f"the subscripts '{t}' in 'equation'.")
            t = t.replace("...", ell[n_ell - n:])
        if len(t) != len(shape):
            raise MSValueError(f"For '{op}', the number of subscripts '{t}' in 'equation' must match the rank "
                               f"of the operand, but got shape {tuple(shape)}.")
        own = {}
        for c, d in zip(t, shape):
            if own.setdefault(c, d) != d:
                raise MSValueError(f"For '{op}', the repeated subscript '{c}' in '{t}' must index dimensions of "
                                   f"the same size, but got shape {tuple(shape)}.")
            prev = sizes.get(c)
            if prev is None or prev == 1:
                sizes[c] = d
            elif d not in (1, prev):
                raise MSValueError(f"For '{op}', the subscript '{c}' indexes dimensions of different sizes "
                                   f"{prev} and {d} in 'equation' '{equation}'.")
        expanded.append(t)
    if rhs is None:
        joined = "".join(expanded)
        rhs = ell + "".join(sorted(c for c in set(joined) if joined.count(c) == 1 and c not in ell))
    else:
        rhs = rhs.replace("...", ell)
        if len(set(rhs)) != len(rhs) or any(c not in sizes for c in rhs):
            raise MSValueError(f"For '{op}', the output subscripts of 'equation' must be distinct and appear "
                               f"in the inputs, but got '{equation}'.")
    return expanded, rhs, sizes


_EINSUMS = {}


@constexpr
def _einsum(equation):
    if equation not in _EINSUMS:
        _EINSUMS[equation] = Einsum(equation)
    return _EINSUMS[equation]


def _eye(n, dtype):
    """An ``n`` x ``n`` identity matrix of ``dtype``, from ops that need no array family beyond ``fill``."""
    count = _cumsum(False, False)(fops.fill(mstype.float32, (n,), 1.0), 0)
    same = fops.equal(fops.reshape(count, (n, 1)), fops.reshape(count, (1, n)))
    return fops.cast(same, dtype)


@constexpr
def _einsum_grad_plan(equation, shapes, k):
    """How to get operand ``k``'s gradient of ``Einsum(equation)`` (computed on shapes only).

    Returns (contraction equation over (dout, *others), indices of the other operands, the shape to
    reshape the contraction to and the shape to broadcast it to when it lacks some of the operand's
    labels or sizes, else None twice, the equation putting a repeated label back on the diagonal
    and the sizes of its identity matrices, else None and ()).
    """
    terms, rhs, sizes = parse_einsum("Einsum", equation, shapes)
    subs = terms[k]
    others = [i for i in range(len(terms)) if i != k]
    available = set(rhs + "".join([terms[i] for i in others]))
    unique = "".join([c for i, c in enumerate(subs) if subs.index(c) == i])
    kept = "".join([c for c in unique if c in available])
    contract = ",".join([rhs] + [terms[i] for i in others]) + "->" + kept
    # g's size along each label: from the output and the other operands (a size-1 label broadcasts)
    g_sizes = {c: sizes[c] for c in rhs}
    for i in others:
        for c, d in zip(terms[i], shapes[i]):
            if c not in rhs:
                g_sizes[c] = max(g_sizes.get(c, 1), d)
    own = dict(zip(subs, shapes[k]))
    reduced = tuple([g_sizes[c] if c in kept else 1 for c in unique])
    # labels summed inside this operand alone, or broadcast from size 1 elsewhere: broadcast g along them
    full = tuple([max(g_sizes[c], own[c]) if c in kept else own[c] for c in unique])
    if reduced == full:
        reduced = full = None
    diagonal, eye_sizes = None, ()
    if unique != subs:
        fresh = [c for c in _LETTERS if c not in "".join(terms) + rhs]
        renamed, eye_terms, eyes = [], [], []
        for i, c in enumerate(subs):
            if subs.index(c) == i:
                renamed.append(c)
            else:
                renamed.append(fresh.pop())
                eye_terms.append(c + renamed[-1])
                eyes.append(sizes[c])
        diagonal = ",".join([unique] + eye_terms) + "->" + "".join(renamed)
        eye_sizes = tuple(eyes)
    return contract, tuple(others), reduced, full, diagonal, eye_sizes


PRIMITIVES = [MatMul, BatchMatMul, AddN, Addcmul, Addcdiv, Lerp, CumSum, CumProd, Einsum]
