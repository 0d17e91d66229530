"""AUTO_PARALLEL: strategies for the operators the user left without one.

Design
------
Strategies are chosen when an operator first runs (PYNATIVE) or is staged (GRAPH_MODE), from what is known
then: the layouts its inputs carry and the layouts of the parameters already cut. The choice is kept on
the primitive (the ``auto_strategy`` attribute, so ``print(prim)`` shows it; :func:`searched_strategies`
lists a network's) and reused at every later run with the same input layouts.

``search_mode="sharding_propagation"``: an operator without strategy whose inputs carry layouts takes the
strategy that keeps them (MatMul: the first operand's cuts, the weight cut to match along the contracted
and batch dimensions; elementwise: the cuts of the widest input, the others aligned; Softmax: the input's
cuts with the normalised axis whole; reductions: the input's cuts). Operators whose inputs carry no layout
stay whole (repeated on every rank), as MindSpore's propagation leaves them.

``search_mode="recursive_programming"`` (the default): every MatMul / BatchMatMul gets a strategy from a
cost model, everything else propagates. Candidates are the ways of cutting the loop dimensions ``b.., i, k, j``
whose product divides the device number. The cost of a candidate, in elements moved or computed per rank:

* compute: ``flops / cuts * COMPUTE_WEIGHT`` (only candidates using fewer devices differ here);
* input redistribution: the elements of an operand gathered to reach the candidate's layout (none when
  the wanted block lies inside the held one, i.e. a local slice);
* the partial sums of a cut ``k``: an all-reduce of the output block (``2 x`` its elements);
* the weight's gradient all-reduce over its copies (``2 x`` its block) when the weight is not cut over
  every device, and re-cutting a weight already cut otherwise.

``elementwise_op_strategy_follow=True`` (``set_algo_parameters``) makes the edge from an elementwise operator to
the operator using its output an identity edge, as in MindSpore 2.10's cost graph (where redistribution is then
not allowed on that edge, so the two operators' strategies agree): the candidates of a MatMul / BatchMatMul are
those that take such an operand exactly in the layout the elementwise operator produced (all of them when none
does, instead of MindSpore's "Generating cost for edge ... failed" error), and an elementwise operator after
another one takes that operand's cuts. Without it a MatMul may regather an activation when that costs less than
the all-reduce of a cut contracted dimension (an MLP whose second weight is wide: the hidden activation is gathered
and the output columns cut, where with the flag the hidden dimension stays cut, Megatron's row split).

``mindspore.parallel.set_algo_parameters`` narrows the candidates (``fully_use_devices``,
``tensor_slice_align_*``, ``enable_algo_approxi``: see ``algo_parameter_config``), and ``set_op_strategy_config``
saves the chosen strategies or replaces the search by a saved file. The cheapest candidate wins (ties: fewer
cuts of ``i``, then of ``k``, in enumeration order). Greedy per operator, in program order, it gives the
Megatron pattern on an MLP: the first MatMul cuts its output columns (no communication), the next one cuts its
contracted dimension (one all-reduce of a small output).
"""
from __future__ import annotations

import itertools
import weakref

from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.parallel import _layouts
from mindspore.parallel import algo_parameter_config as algo
from mindspore.parallel._layouts import layout_of, parameter_layout

__all__ = ["choose", "searched_strategies", "note_elementwise", "COMPUTE_WEIGHT"]

#: cost of one multiply-add relative to moving one element (CPU ranks over shared memory: cheap compute)
COMPUTE_WEIGHT = 0.05

_MATMULS = ("MatMul", "BatchMatMul")
#: operators that only forward computations use: a cut weight they read is a layout to follow (or to gather)
FORWARD_ONLY = _MATMULS + ("Gather",)


# values made by elementwise operators: id -> weak reference (an id alone could be reused by a later value)
_elementwise_made: dict[int, weakref.ref] = {}


def note_elementwise(prim, value):
    """Record that elementwise operator ``prim`` made ``value`` (see ``elementwise_op_strategy_follow``)."""
    from mindspore.parallel._ops.elementwise import RULES as ELEMENTWISE
    if prim.name in ELEMENTWISE and algo.get_algo_parameters("elementwise_op_strategy_follow"):
        key = id(value)
        _elementwise_made[key] = weakref.ref(value, lambda _r, key=key: _elementwise_made.pop(key, None))


def _follows(x):
    """Whether ``x`` is an elementwise operator's output whose layout its user must keep."""
    if not algo.get_algo_parameters("elementwise_op_strategy_follow"):
        return False
    ref = _elementwise_made.get(id(x))
    return ref is not None and ref() is x


def _mode():
    from mindspore import context
    return context.get_auto_parallel_context("search_mode")


def _held(x):
    if isinstance(x, Parameter):
        return parameter_layout(x)
    return layout_of(x) if isinstance(x, Tensor) else None


def _cuts(x, ndim):
    layout = _held(x)
    if layout is None:
        return (1,) * ndim
    return tuple(layout.splits(d) for d in range(ndim))


def _key(args):
    return tuple(_held(a) for a in args if isinstance(a, Tensor))


def _carries_layouts(prim, args):
    """Whether an activation carries a layout, or a cut weight feeds a MatMul or Gather (a cut parameter alone
    does not propagate through other operators: optimizer updates use parameters block by block)."""
    for a in args:
        if isinstance(a, Parameter):
            if prim.name in FORWARD_ONLY and parameter_layout(a) is not None:
                return True
        elif isinstance(a, Tensor) and layout_of(a) is not None:
            return True
    return False


def choose(prim, args, search_mode=None):
    """The strategy AUTO_PARALLEL gives ``prim`` for these inputs (``search_mode``: the context's by default), or
    None (run whole)."""
    from mindspore.parallel._ops import RULES
    name = prim.name
    if name not in RULES:
        return None
    cache = prim.__dict__.setdefault("_auto_cache", {})
    search_mode = search_mode or _mode()
    key = (search_mode, _key(args))
    if key in cache:
        return cache[key]
    _, device_num = _layouts.world()
    loaded = algo.loaded_strategy(prim)
    if loaded is not None:
        strategy = loaded
    elif name in _MATMULS and search_mode == "recursive_programming":
        strategy = _search_matmul(prim, args, device_num)
    elif _carries_layouts(prim, args):
        strategy = _propagate(prim, args, device_num)
    else:
        strategy = None
    cache[key] = strategy
    algo.record_strategy(prim, strategy)
    if strategy is not None:
        prim.add_prim_attr("auto_strategy", strategy)
        prim.__dict__["_auto_cache"] = cache   # add_prim_attr keeps __dict__; the cache survives it
    return strategy


# --- sharding propagation -------------------------------------------------------------------------------------
def _propagate(prim, args, device_num):
    from mindspore.parallel._ops._plan import full_shape
    tensors = [a for a in args if isinstance(a, Tensor)]
    shapes = [full_shape(a) for a in tensors]
    name = prim.name
    if name in _MATMULS:
        return _propagate_matmul(prim, tensors, shapes)
    if name == "Gather":
        return (_cuts(tensors[0], len(shapes[0])), _cuts(tensors[1], len(shapes[1])))
    if name == "LayerNorm":
        from mindspore.parallel._ops.norm import layernorm_strategy
        return layernorm_strategy(prim, _cuts(tensors[0], len(shapes[0])), shapes[0])
    if name in ("Softmax", "LogSoftmax"):
        cuts = list(_cuts(tensors[0], len(shapes[0])))
        axes = prim.attrs.get("axis", -1)
        for a in axes if isinstance(axes, (tuple, list)) else (axes,):
            cuts[a % len(cuts)] = 1
        return (tuple(cuts),)
    if name.startswith("Reduce") or name == "Transpose":
        return (_cuts(tensors[0], len(shapes[0])),)
    return _propagate_elementwise(tensors, shapes)


def _propagate_elementwise(tensors, shapes):
    rank = max(len(s) for s in shapes)
    widest = max(range(len(tensors)), key=lambda i: (_held(tensors[i]) is not None, _follows(tensors[i]),
                                                      len(shapes[i])))
    out_cuts = (1,) * (rank - len(shapes[widest])) + _cuts(tensors[widest], len(shapes[widest]))
    strategy = []
    for shape in shapes:
        off = rank - len(shape)
        strategy.append(tuple(out_cuts[off + d] if size != 1 and size % out_cuts[off + d] == 0 else 1
                              for d, size in enumerate(shape)))
    return tuple(strategy)


def _letters(prim, nbatch):
    from mindspore.parallel._ops.matmul import _letters as letters
    return letters(prim, nbatch)


def _propagate_matmul(prim, tensors, shapes):
    x, w = tensors[0], tensors[1]
    nb = len(shapes[0]) - 2
    _, xl, wl = _letters(prim, nb)
    cut = {}
    for letters, t, shape in ((wl, w, shapes[1]), (xl, x, shapes[0])):   # the activation wins over the weight
        for letter, c in zip(letters, _cuts(t, len(shape))):
            if c > 1 or letter not in cut:
                cut[letter] = c
    return (tuple(cut[l] for l in xl), tuple(cut[l] for l in wl))


# --- the cost model -------------------------------------------------------------------------------------------
def _divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


def _candidates(order, sizes, device_num, last_dims=()):
    """The cuts of the loop dimensions ``order`` to cost, as ``set_algo_parameters`` allows: ``fully_use_devices``
    keeps those over every device (if the shapes allow one); ``tensor_slice_align_*`` drops those whose slices of
    the operands' last dimensions ``last_dims`` are not aligned (unless none is left); ``enable_algo_approxi``
    keeps the first ``1 / epsilon``."""
    full = algo.get_algo_parameters("fully_use_devices")
    out = []
    for combo in itertools.product(_divisors(device_num), repeat=len(order)):
        prod = 1
        for c in combo:
            prod *= c
        if device_num % prod == 0 and all(sizes[l] % c == 0 for l, c in zip(order, combo)):
            out.append((prod, dict(zip(order, combo))))
    # fully_use_devices: only the cuts over every device (when a shape allows none, all of them, as before)
    out = [c for p, c in out if p == device_num] if full and any(p == device_num for p, _ in out) else \
        [c for _, c in out]
    aligned = [c for c in out if algo.aligned([sizes[l] // c[l] for l in last_dims])]
    return algo.approximated(aligned or out)


def _inside(held, want):
    """Whether every rank's ``want`` block lies inside its ``held`` block (so a local slice suffices)."""
    return all(w % h == 0 for h, w in zip(held, want))


def _size(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def matmul_cost(order, sizes, cut, operands, device_num):
    """The cost (see the module docstring) of cutting the loop dimensions as ``cut``.

    ``operands``: ``[(letters, held_cuts, is_parameter, parameter_is_cut)]`` for the two inputs.
    """
    used = 1
    for l in order:
        used *= cut[l]
    flops = _size([sizes[l] for l in order])
    cost = flops / used * COMPUTE_WEIGHT
    for letters, held, is_param, param_cut in operands:
        want = tuple(cut[l] for l in letters)
        block = _size([sizes[l] for l in letters])
        if is_param and not param_cut:
            prod = _size(want)
            if prod < device_num:              # copies: their gradients are all-reduced every step
                cost += 2 * block / prod
            continue
        if not _inside(held, want):
            cost += block   # gathered: every rank receives (nearly) the whole operand
    if cut.get("k", 1) > 1:
        out = [l for l in order if l != "k"]
        cost += 2 * _size([sizes[l] for l in out]) / _size([cut[l] for l in out])
    return cost


def _search_matmul(prim, args, device_num):
    from mindspore.parallel._ops._plan import full_shape
    x, w = args[0], args[1]
    xs, ws = full_shape(x), full_shape(w)
    nb = len(xs) - 2
    batch, xl, wl = _letters(prim, nb)
    order = batch + ["i", "k", "j"]
    sizes = dict(zip(xl, xs))
    sizes.update(zip(wl, ws))
    operands = []
    for letters, t, shape in ((xl, x, xs), (wl, w, ws)):
        is_param = isinstance(t, Parameter)
        operands.append((letters, _cuts(t, len(shape)), is_param, is_param and parameter_layout(t) is not None))
    candidates = _candidates(order, sizes, device_num, (xl[-1], wl[-1]))
    kept = [(letters, _cuts(t, len(shape))) for letters, t, shape in ((xl, x, xs), (wl, w, ws)) if _follows(t)]
    if kept:   # identity edges: the elementwise operators' outputs are taken as they are
        candidates = [c for c in candidates if all(tuple(c[l] for l in letters) == held for letters, held in kept)] \
            or candidates
    best = None
    for cut in candidates:
        cost = matmul_cost(order, sizes, cut, operands, device_num)
        if best is None or cost < best[0] - 1e-9:
            best = (cost, cut)
    cut = best[1]
    return (tuple(cut[l] for l in xl), tuple(cut[l] for l in wl))


def searched_strategies(network):
    """``{"<cell path>.<attribute>": strategy}`` for every primitive of ``network`` AUTO_PARALLEL gave a strategy."""
    from mindspore.ops import Primitive
    out = {}
    for path, cell in network.cells_and_names():
        for attr, value in vars(cell).items():
            if isinstance(value, Primitive) and "auto_strategy" in value.attrs:
                out[f"{path}.{attr}" if path else attr] = value.attrs["auto_strategy"]
    return out
