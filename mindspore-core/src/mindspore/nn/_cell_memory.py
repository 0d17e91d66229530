"""The memory settings of a Cell: ``Cell.recompute`` and ``Cell.offload`` (MindSpore 2.10 arguments, checks and
messages).

Both trade time for device memory and never change a value. ``recompute``: in PYNATIVE, while a gradient tape
records, the cell's call runs through ``mindspore.recompute`` (its forward is run unrecorded and run again in the
backward pass, so none of its intermediate values are kept; :mod:`mindspore._autodiff.recompute`); in GRAPH_MODE
the compiled graph calls the cell inline and the values are the same. As MindSpore notes, a cell drawing random
numbers (Dropout) draws again when it is recomputed in PYNATIVE. ``offload`` marks the cell's primitives
(``offload``, ``backward_prefetch`` attributes, as MindSpore's ``Primitive._offload``) for the graph compilers of
devices with host offload; the CPU runtime keeps activations in host memory already.
"""
from __future__ import annotations

from mindspore._errors import MSTypeError, MSValueError
from mindspore._core.primitive import MIXED_PRECISION

_RECOMPUTE_KEYS = ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation")


def set_recompute(cell, use_reentrant, output_recompute, kwargs):
    """``Cell.recompute``: check the arguments as MindSpore 2.10 does and mark ``cell`` (once: a second call, or
    one on a cell inside a recomputed cell, changes nothing, as MindSpore only logs it)."""
    for key in ("mp_comm_recompute", "parallel_optimizer_comm_recompute"):
        if key in kwargs and not isinstance(kwargs[key], bool):
            raise MSTypeError(f"The parameter '{key}' must be {bool}, but got {type(kwargs[key])}")
    if not isinstance(output_recompute, bool):
        raise MSTypeError(f"The input value must be a bool, but got {type(output_recompute).__name__}.")
    for key in kwargs:
        if key not in _RECOMPUTE_KEYS:
            raise MSValueError(f"For 'recompute', keyword '{key}' is not recognized! the key kwargs must be "
                               f"'mp_comm_recompute', 'parallel_optimizer_comm_recompute', "
                               f"'recompute_slice_activation'")
    if cell.__dict__.get("_recompute_config") is not None:
        return
    cell.__dict__["_recompute_config"] = {"use_reentrant": bool(use_reentrant) and not output_recompute,
                                          "output_recompute": output_recompute, **kwargs}
    cell.add_flags(output_recompute=output_recompute)
    for _, sub in cell.cells_and_names():
        if sub is not cell and sub.__dict__.get("_recompute_config") is None:
            sub.__dict__["_recompute_config"] = {"inside": True}


class _Body:
    """``cell.construct`` as the block ``mindspore.recompute`` runs twice: a Cell-like object (its trainable
    parameters are differentiated) whose call does not come back through ``Cell.__call__``."""

    __slots__ = ("cell", "mixed_precision")

    def __init__(self, cell):
        self.cell = cell
        # the Cell.to_float dtype its operators run in, again when the backward pass recomputes it
        self.mixed_precision = MIXED_PRECISION.dtype

    def construct(self, *args, **kwargs):
        outer = MIXED_PRECISION.dtype
        MIXED_PRECISION.dtype = self.mixed_precision
        try:
            return self.cell.construct(*args, **kwargs)
        finally:
            MIXED_PRECISION.dtype = outer

    __call__ = construct

    def trainable_params(self):
        return self.cell.trainable_params()


NOT_RECOMPUTED = object()


def recomputed_call(cell, args, kwargs):
    """Run a call of a recomputed ``cell`` (PYNATIVE, a tape recording) through ``mindspore.recompute``;
    ``NOT_RECOMPUTED`` when this call is not one (no setting, or the cell is inside a recomputed one)."""
    config = cell.__dict__.get("_recompute_config")
    if config is None or config.get("inside"):
        return NOT_RECOMPUTED
    from mindspore._autodiff.recompute import recompute
    return recompute(_Body(cell), *args, **kwargs)


def set_offload(cell, backward_prefetch):
    """``Cell.offload``: check ``backward_prefetch`` as MindSpore 2.10 does and mark every primitive of ``cell`` and
    its sub-cells."""
    if isinstance(backward_prefetch, str):
        if backward_prefetch != "Auto":
            raise MSValueError(f"For '{type(cell).__name__}', the 'backward_prefetch' must be str and must be in "
                               f"'['Auto']', but got '{backward_prefetch}'.")
    elif isinstance(backward_prefetch, bool) or not isinstance(backward_prefetch, int):
        if isinstance(backward_prefetch, bool):
            raise MSTypeError(f"The input value must be int and must >= 0, but got '{backward_prefetch}' with type "
                              f"'bool'.")
        raise MSTypeError(f"The input value must be int, but got '{type(backward_prefetch).__name__}'")
    elif backward_prefetch < 0:
        raise MSValueError(f"The input value must be int and must >= 0, but got '{backward_prefetch}' with type "
                           f"'int'.")
    from mindspore._core.primitive import Primitive
    for _, sub in cell.cells_and_names():
        for value in vars(sub).values():
            if isinstance(value, Primitive):
                value.add_prim_attr("offload", True)
                value.add_prim_attr("backward_prefetch", backward_prefetch)
