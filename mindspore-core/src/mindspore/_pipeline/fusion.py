"""Fusion support for backend passes: fused applies that carry their own kernel.

A backend pass (registered through ``ms_register_passes``) replaces a group of applies by one apply of
a :class:`FusedOp`, a primitive made by the pass that holds the kernel computing the whole group.
The executor calls ``prim.kernel`` directly; no registry entry is involved, so a backend can fuse
anything its kernels can compute. Fusion runs after autodiff (gradients are expanded during
inference), so fused applies are never differentiated.

:func:`fuse_chains` finds the chains a backend asks for: a run of applies where each one's value
is used only by the next (and is not a graph output), in program order. ``plan(node)`` tells
whether an apply may join a chain and how, and ``build(chain, inputs)`` makes the fused kernel;
the fused apply takes the chain's outside inputs, in order of first use, and stands where the
chain's last apply stood (so program order, and with it the order of effects, is kept).
"""
from __future__ import annotations

from mindspore._infer.abstract import AbstractTensor
from mindspore._ir.nodes import Apply, Constant
from mindspore._pipeline._util import prim_of, substitute
from mindspore._core.primitive import NON_DIFFERENTIABLE, Primitive

__all__ = ["FusedOp", "fuse_chains", "use_counts"]


class FusedOp(Primitive):
    """A fused group of applies computed by one backend kernel (``kernel(prim, *inputs)``).

    ``reusable_inputs`` lists inputs whose buffer the kernel may write its result into; the memory
    plan sets ``reuse`` to one that dies at this apply (or ``None``).
    """

    bprop = NON_DIFFERENTIABLE
    no_fold = True

    def __init__(self, name, kernel, ops, reusable_inputs=()):
        super().__init__(name)
        self.kernel = kernel
        self.reusable_inputs = tuple(reusable_inputs)
        self.reuse = None
        self.add_prim_attr("ops", tuple(ops))

    def __call__(self, *args):
        return self.kernel(self, *[a._buffer() if hasattr(a, "_buffer") else a for a in args])


def use_counts(graph):
    """How many times each value of ``graph`` is used (the output counts twice: never a chain's inner value)."""
    count = {}
    for node in graph.nodes:
        for x in node.inputs[1:]:
            count[x] = count.get(x, 0) + 1
    count[graph.output] = count.get(graph.output, 0) + 2   # an output is never a chain's inner value
    return count


def fuse_chains(graph, plan, build, min_length=2):
    """Replace chains of applies accepted by ``plan`` with single fused applies made by ``build``.

    ``plan(node) -> tuple[int] | None``: the input positions through which ``node`` may continue a
    chain (``None``: it can not be in one). ``build(chain, outer_inputs) -> FusedOp``.
    Returns whether anything was fused.
    """
    uses = use_counts(graph)
    chain_of = {}           # node -> the chain (list) it ends
    chains = []
    for node in graph.nodes:
        links = plan(node)
        if links is None:
            continue
        joined = None
        for i in links:
            x = node.inputs[1 + i]
            c = chain_of.get(x)
            if c is not None and uses.get(x, 0) == 1 and isinstance(x.abstract, AbstractTensor) and \
                    x.abstract.shape == node.abstract.shape:
                joined = c
                del chain_of[x]
                break
        if joined is None:
            joined = [node]
            chains.append(joined)
        else:
            joined.append(node)
        chain_of[node] = joined
    fused = {}
    replace = {}
    for chain in chains:
        if len(chain) < min_length:
            continue
        members = set(chain)
        inputs = []
        for n in chain:
            for x in n.inputs[1:]:
                if x not in members and not isinstance(x, Constant) and x not in inputs:
                    inputs.append(x)
        prim = build(chain, inputs)
        if prim is None:
            continue
        tail = chain[-1]
        new = Apply(graph, [Constant(prim)] + inputs, tail.loc)
        new.abstract = tail.abstract
        new.debug = "fused " + "+".join(prim_of(n).name for n in chain)
        fused[tail] = new
        for n in chain[:-1]:
            replace[n] = None
        replace[tail] = new
    if not fused:
        return False
    graph.nodes = [fused.get(n, n) for n in graph.nodes if replace.get(n, n) is not None or n in fused]
    substitute(graph, {old: new for old, new in replace.items() if new is not None})
    return True
