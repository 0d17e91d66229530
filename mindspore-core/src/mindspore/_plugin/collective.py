"""Process groups as the kernels of collective primitives see them.

mindspore-parallel (or any plugin that joins processes) installs one :class:`ProcessGroup` per group
name with :func:`set_process_groups` after ``communication.init()`` / ``create_group``; a backend's
kernel of ``AllReduce`` and friends asks :func:`process_group` for its ``prim.group``. Before that
(or without mindspore-parallel) every group is this process alone: ``size == 1``, no communicator.

A communicator is the object a collective backend (``ms_collective_backends``) made for the group.
Core only hands it over; its methods (``allreduce(array, op)``, ``allgather(array)``,
``broadcast(array, root)``, ``barrier()``) are agreed between that backend and the kernels using it.
"""
from __future__ import annotations

import dataclasses

import mindspore._generation as _generation

__all__ = ["ProcessGroup", "set_process_groups", "process_group", "process_groups", "set_parameter_merge_hook",
           "merged_parameter", "WORLD_GROUPS", "world_group", "world_initialized", "set_group_creator", "create_group"]


@dataclasses.dataclass(frozen=True)
class ProcessGroup:
    """One communication group as this process takes part in it."""

    name: str
    size: int = 1
    rank: int = 0
    communicator: object = None


_groups: dict[str, ProcessGroup] = {}
#: The names of the world group, by communication backend (HCCL, NCCL, MCCL); the first one until a world is set.
WORLD_GROUPS = ("hccl_world_group", "nccl_world_group", "mccl_world_group")
_world = [None]


def set_process_groups(groups, world=None):
    """Install the table of process groups (an iterable of :class:`ProcessGroup`); an empty one
    means a single process. ``world`` names the world group of the backend that joined the processes
    (``GlobalComm.WORLD_COMM_GROUP``; None: no backend initialised).

    A changed table moves the cache generation: the collective primitives' shape rules read the group
    sizes, so inferred shapes cached by the eager dispatcher and compiled graphs must be refilled."""
    table = {}
    for g in groups:
        if not isinstance(g, ProcessGroup):
            raise TypeError(f"set_process_groups expects ProcessGroup objects, but got {type(g).__name__}.")
        table[g.name] = g
    if table != _groups:
        _generation.bump()
    _groups.clear()
    _groups.update(table)
    _world[0] = world


def world_group():
    """The world group's name for the initialised communication backend (``hccl_world_group`` without one)."""
    return _world[0] or WORLD_GROUPS[0]


def world_initialized():
    """Whether a communication backend has joined the processes (``GlobalComm.INITED``)."""
    return _world[0] is not None


# ``fn(name, ranks)``: makes a communication group (``communication.create_group``), installed by the add-on that
# joins processes, for core's layers that make their own groups (SyncBatchNorm's ``process_groups``).
_group_creator = [None]


def set_group_creator(fn):
    """Install ``fn(name, ranks)``, which creates the communication group ``name`` of the world ranks ``ranks``
    (collective over them); returns the function it replaces."""
    old = _group_creator[0]
    _group_creator[0] = fn
    return old


def create_group(name, ranks):
    """Create the group ``name`` of ``ranks`` through the installed creator."""
    fn = _group_creator[0]
    if fn is None:
        raise RuntimeError(f"Creating the communication group {name!r} needs mindspore-parallel's "
                           f"communication.init() first.")
    fn(name, list(ranks))


def process_group(name):
    """The group ``name``: what was installed, or this process alone."""
    g = _groups.get(name)
    return g if g is not None else ProcessGroup(name)


def process_groups():
    """Every installed group, by name."""
    return dict(_groups)


# ``save_checkpoint(..., integrated_save=True)`` of a sharded network: the add-on that cut a parameter installs
# ``fn(param) -> Tensor or None``, the full parameter gathered from every rank (None: the parameter is whole).
_merge_hook = [None]


def set_parameter_merge_hook(fn):
    """Install ``fn(param)`` (None: remove it), which returns the full value of a parameter this rank holds a
    slice of (gathering it is collective: every rank saves), or None; returns the hook it replaces."""
    old = _merge_hook[0]
    _merge_hook[0] = fn
    return old


def merged_parameter(param):
    """The full value of ``param`` when it is a slice of a sharded parameter, else None."""
    fn = _merge_hook[0]
    return None if fn is None else fn(param)
