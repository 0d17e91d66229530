"""``ops.reshard`` / ``ops.Reshard``: state the layout a tensor must have at a point of a sharded network.

Semantics (MindSpore 2.10)
--------------------------
``reshard(tensor, layout)`` is the identity on values. In one process (a world of one rank) it returns ``tensor``
itself, unchecked. Otherwise it checks its arguments and applies ``Reshard((layout,), (layout,), (cuts,))``, whose
Layout strategy makes it a sharded operator: under SEMI_AUTO_PARALLEL / AUTO_PARALLEL mindspore-parallel's rule for
``Reshard`` moves the tensor to ``layout`` (all-gathers, all-to-alls and local slices, as for any operator's inputs)
and records that layout on the result, so the operators after it start from there. Outside a parallel mode (no
primitive call hook installed) ``Reshard`` returns its input, as MindSpore's ``Reshard.__call__`` does.

The layout class belongs to mindspore-parallel; core receives it through the ``ms_sharding`` offer (key
``"Layout"``), so that core never imports the add-on.
"""
from mindspore._core import primitive as _primitive
from mindspore._core.primitive import prim_attr_register
from mindspore._errors import MSTypeError
from mindspore._plugin.collective import process_group, world_group
from mindspore.common.tensor import Tensor
from mindspore.ops._defs.control_prims import _CallOnly

__all__ = ["reshard"]


class Reshard(_CallOnly):
    """``Reshard(in_layout, out_layout, in_strategy)(tensor)``: ``tensor``, laid out as ``in_layout`` (a tuple of one
    ``mindspore.parallel.Layout``) under a parallel mode; ``out_layout`` must be the same layout and
    ``in_strategy`` the cut counts it implies. Prefer :func:`mindspore.ops.reshard`.

    Examples:
        >>> from mindspore.parallel import Layout
        >>> layout = Layout((2, 1), ("dp", "mp"))
        >>> ops.Reshard((layout("dp", "mp"),), (layout("dp", "mp"),), ((2, 1),))(ms.Tensor(np.ones((4, 2))))
    """

    @prim_attr_register
    def __init__(self, in_layout, out_layout, in_strategy):
        self.shard(in_layout, out_layout)
        self.in_strategy = in_strategy

    def __call__(self, tensor):
        hook = _primitive.CALL_HOOK[0]
        if hook is None:
            return tensor
        return hook(self, (tensor,))    # mindspore-parallel: the rule for 'Reshard' moves it to the layout


def _layout_class():
    from mindspore._plugin import manager
    offer = manager.sharding()
    return None if offer is None else offer.get("Layout")


def _cuts(layout):
    """MindSpore's ``in_strategy`` of a layout: per tensor dimension, the size of the device axes cutting it."""
    info = layout.to_dict()
    reverse = tuple(info["device_matrix"])[::-1]
    cuts = ()
    for entry in info["tensor_map"]:
        cut = 1
        for axis in entry if isinstance(entry, tuple) else (entry,):
            if axis != -1:
                cut *= reverse[axis]
        cuts += (cut,)
    return cuts


def reshard(tensor, layout):
    r"""Convert ``tensor`` to the distributed arrangement ``layout`` (the identity on values).

    Under SEMI_AUTO_PARALLEL / AUTO_PARALLEL the result is laid out as ``layout`` (this rank holds its block of it),
    and operators without a strategy of their own propagate from it. In one process the tensor is returned as it is.

    Args:
        tensor (Tensor): the tensor to lay out.
        layout (Layout): a ``mindspore.parallel.Layout`` called with one alias (or ``"None"``) per dimension.

    Returns:
        Tensor, equal to ``tensor``.

    Raises:
        TypeError: If `tensor` is not a Tensor or `layout` is not a Layout (checked with more than one rank).

    Supported Platforms:
        ``Ascend`` ``GPU`` ``CPU``

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import ops
        >>> from mindspore.parallel import Layout
        >>> layout = Layout((2, 1), ("dp", "mp"))
        >>> x = ms.Tensor(np.ones((4, 4), np.float32))
        >>> ops.reshard(x, layout("dp", "mp")).shape
        (4, 4)
    """
    if process_group(world_group()).size == 1:
        return tensor
    if not isinstance(tensor, Tensor):
        raise MSTypeError(f"Reshard takes in Tensor type as the first input param, but got: {type(tensor)}.")
    layout_cls = _layout_class()
    if layout_cls is None or not isinstance(layout, layout_cls):
        raise MSTypeError(f"Reshard only support type mindspore.parallel.Layout, but got: {type(layout)}.")
    return Reshard((layout,), (layout,), (_cuts(layout),))(tensor)
