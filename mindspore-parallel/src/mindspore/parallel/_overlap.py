"""GRAPH_MODE: gradient all-reduces that overlap the backward pass (a CPU backend pass of mindspore-parallel).

Design
------
:class:`~mindspore.nn.DistributedGradReducer` marks its ``AllReduce`` (attribute ``grad_bucket``). In a compiled
graph the executor runs the applies in the order of ``graph.nodes``, and a blocking collective kernel runs where
the program put it: after the whole backward pass, since the reducer receives the gradients as one tuple. This
pass, registered for the CPU target through ``ms_register_passes``, rewrites every marked ``AllReduce`` apply
into two applies of :class:`~mindspore.plugin.FusedOp` primitives carrying their own kernels:

* ``AllReduceStart`` stands right after the bucket's last gradient is computed: the pure applies that pack the
  bucket (``Reshape``, ``Cast``, ``Concat``, tuples) are moved up, each just after the latest of its inputs, and
  the start follows the packed buffer. Its kernel is the communicator's ``allreduce_start``: it checks the call
  like ``AllReduce`` (shape and dtype agreement over the group) and starts the reduction; it returns the receive
  buffer.
* ``AllReduceWait`` stands right before the first use of the all-reduced value and completes it.

Every rank runs the same graph through the same pass, so the starts come in the same order everywhere, as MPI
requires of collectives. The MPI communicator (``mindspore.communication._mpi``) starts a group of 2 with
``MPI_Iallreduce`` and a larger group on a communication thread running the blocking ``MPI_Allreduce`` on a
duplicate communicator (mpi4py releases the GIL inside MPI); both give bitwise the blocking kernel's results (two
operands commute exactly; the thread runs the very same call).

Measured on the project's 2-core development machine (2 ranks, an MLP of 6 Dense 1024x1024 layers + 1024x10,
batch 64, 4 MB buckets, 20 timed steps per run; other jobs were loading the machine, so runs vary by +-30 %),
the time per step spent waiting in the all-reduce kernels (blocking kernel, or the waits) and the steps per second:

=============================  ==================  ===========================================
variant                        waiting ms / step   steps/s (runs)
=============================  ==================  ===========================================
blocking, after the backward   54 58 31 30 38 53   8.62 8.15 7.73 7.32 6.87 6.96 11.39 12.11
                                                   8.72 8.32
communication thread (2 ranks) 20 32               9.41 8.88 5.14 4.89 5.48 5.28
``MPI_Iallreduce`` + wait      7.6 6.1 5.0 5.4     9.93 7.79 8.35 6.90 7.15 8.55 10.73 10.39
                               7.0 7.5             9.56 8.19
=============================  ==================  ===========================================

The nonblocking collective does overlap: the waits shrink to a few milliseconds (MPICH progressed it inside the
other MPI calls and the waits). But the steps got no faster on this machine: with two ranks on two cores there
is no idle core, so the reduction's work (copies and sums of every gradient) is CPU time either way, and what
the overlap hides (one rank waiting for the other) is small. The thread, competing with two ranks for two cores,
cost more than it hid; it serves groups of more than 2, where the nonblocking algorithm could sum in another
order. ``MS_DISABLE_GRAD_OVERLAP=1`` turns the pass off; the numbers are the same bits either way.

A group of one process (no communicator) copies the buffer, as ``AllReduce`` does.

The pass runs for the GPU target too. There a bucket's buffer is a CuPy array, and its start is the NCCL
communicator's ``allreduce_start`` (``mindspore.communication._nccl``): NCCL on the communicator's own stream, which
first waits for the work queued on the compute stream, so the reduction runs while the compute stream computes the
rest of the backward pass; the wait makes the compute stream wait for it. (Where some rank lacks NCCL, the start is
the blocking all-reduce through host memory, as the GPU's AllReduce kernel does then.) The GPU backend never
captures a graph with collectives as a CUDA graph. Not measured on GPUs yet (it needs several).

PYNATIVE has no graph to rewrite: there :class:`~mindspore.nn.DistributedGradReducer` starts each bucket from a
final-gradient callback of the tape's backward pass, through the same ``allreduce_start``, and waits in its call
after the pass (see its module docstring); this pass is not involved. Since that change ``allreduce_start`` takes
its output buffers from the communicator's pool, lets MPI progress the reductions already started at each new
start, and can skip the call check (the PYNATIVE reducer checks each bucket once, at its first start).
Measured with ``tests/parallel/_overlap_pynative_worker.py`` (the MLP of test_grad_overlap.py's worker at width
1024: 5 Dense 1024x1024 with relu + 1024x10, 32 rows per rank, Momentum, 10 buckets of at most 4 MB, 20 timed steps,
2 ranks on the loaded 2-core machine; waits as rank 0/rank 1), PYNATIVE, overlap on and off
(``MS_DISABLE_GRAD_OVERLAP=1``) alternating, three runs each:

=========================================  =====================  ==================================================
variant                                    steps/s (runs)         ms / step waiting (+ starting), per run
=========================================  =====================  ==================================================
``TrainOneStepCell``, off                  19.12 11.87 17.93      22/22  33/41  24/21
``TrainOneStepCell``, on                   11.89 22.11 15.51      17/18 (+7)  6/11 (+5)  11/11 (+6)
``TrainOneStepWithLossScaleCell``, off     14.56 12.04 14.38      25/30  33/36  30/22
``TrainOneStepWithLossScaleCell``, on      12.85 15.49 13.07      12/13 (+5)  13/15 (+4)  24/12 (+6)
=========================================  =====================  ==================================================

The waits shrink (the starts' progress calls and the backward pass's time do part of the reduction), but neither
variant is reliably faster: as in GRAPH_MODE the two ranks have no idle core to reduce on, and the run-to-run noise
(other jobs on the machine) is larger than the differences. (A first version kept the loss-scaled gradients alive
until the reducer's call; the loss-scale runs were then 25-35 % slower in three pairs out of three (presumably the
extra memory); releasing them once the unscaled ones are handed over brought it back into the noise: 13.0-13.2
against 13.8-14.1 steps/s in three more pairs.) The numbers are the same bits either way.
"""
from __future__ import annotations

import os

import numpy as np

from mindspore.communication._plugin import marked_grad_allreduce
from mindspore.plugin import MAKE_TUPLE, Apply, Constant, FusedOp, graphs_of, prim_of, process_group, substitute

__all__ = ["overlap_grad_allreduce"]

#: the applies that pack a bucket (moved up with it); make_tuple / tuple_getitem are structural IR ops
_PACKING = ("Reshape", "Cast", "Concat", "Flatten", "ExpandDims")


def _start_kernel(prim, x, out=None):
    group = process_group(prim.group)
    if group.size == 1:
        return x.copy()
    comm = group.communicator
    if comm is None:
        from mindspore.plugin import MSRuntimeError
        raise MSRuntimeError(f"For 'AllReduce', this process has no communicator for the group '{prim.group}' "
                             f"(it is not one of its members).")
    if type(x) is not np.ndarray:   # a GPU buffer: NCCL on its own stream (see the module docstring)
        make = getattr(comm, "nccl", None)
        comm = make() if make is not None else None
        if comm is None:
            return _allreduce_through_host(group, x, prim.op)
    start = getattr(comm, "allreduce_start", None)
    if start is None:   # a communicator without a communication thread: the blocking all-reduce, here
        return comm.allreduce(x, prim.op, name="AllReduce")
    recv, wait = start(x, prim.op)
    _pending[id(recv)] = wait
    return recv


def _allreduce_through_host(group, x, op):
    """A CuPy buffer where some rank lacks NCCL: over MPI through host memory, as the GPU's AllReduce kernel does
    then (it has warned that it does)."""
    import cupy
    return cupy.asarray(group.communicator.allreduce(cupy.asnumpy(x), op, name="AllReduce"))


def _wait_kernel(prim, recv, out=None):
    wait = _pending.pop(id(recv), None)
    return recv if wait is None else wait()   # None: a group of one, whose start copied already


_pending: dict = {}   # id(receive buffer) -> the function waiting for it


def _packing(node, g):
    if not isinstance(node, Apply) or node.graph is not g:
        return False
    prim = prim_of(node)
    if prim is not None:
        return prim.name in _PACKING
    f = node.inputs[0]
    return isinstance(f, Constant) and f.value is MAKE_TUPLE


def _cone(x, g):
    """The packing applies ``x`` is made of (x included when it is one), in program order."""
    seen, stack = set(), [x]
    while stack:
        n = stack.pop()
        if n in seen or not _packing(n, g):
            continue
        seen.add(n)
        stack.extend(n.inputs[1:])
    return seen


def _move_up(order, node):
    """Move ``node`` in ``order`` to just after the latest apply of its graph among its inputs."""
    order.remove(node)
    deps = [i for i, n in enumerate(order) if n in set(node.inputs[1:])]
    order.insert(deps[-1] + 1 if deps else 0, node)


def _overlap_graph(g):
    targets = [n for n in g.nodes if marked_grad_allreduce(n)]
    if not targets:
        return False
    order = list(g.nodes)
    for a in targets:
        prim = prim_of(a)
        x = a.inputs[1]
        for n in [n for n in order if n in _cone(x, g)]:
            _move_up(order, n)
        start = Apply(g, [Constant(FusedOp("AllReduceStart", _start_kernel, ["AllReduce"]))] + [x], a.loc)
        wait = Apply(g, [Constant(FusedOp("AllReduceWait", _wait_kernel, ["AllReduce"]))] + [start], a.loc)
        for p in (start.inputs[0].value, wait.inputs[0].value):
            p.group, p.op = prim.group, prim.op
            p.add_prim_attr("group", prim.group)
        start.abstract = wait.abstract = a.abstract
        start.debug, wait.debug = "all-reduce start (overlaps the backward pass)", "all-reduce wait"
        # the start right after the packed buffer (or first, when it is a graph input); the wait before first use
        i = order.index(x) + 1 if x in order else 0
        order.insert(i, start)
        order.remove(a)
        users = [k for k, n in enumerate(order) if a in n.inputs[1:]]
        order.insert(min(users) if users else len(order), wait)
        substitute(g, {a: wait})
        for n in order:   # substitute walks g.nodes; the new applies are not there yet
            n.inputs[1:] = [wait if v is a else v for v in n.inputs[1:]]
    g.nodes = order
    return True


def overlap_grad_allreduce(graph):
    """The pass: every marked ``AllReduce`` of ``graph`` and its graphs becomes a start and a wait."""
    if os.environ.get("MS_DISABLE_GRAD_OVERLAP", "") not in ("", "0"):
        return False
    changed = False
    for g in graphs_of(graph):
        changed |= _overlap_graph(g)
    return changed
