"""The mirror of a parameter under SEMI_AUTO_PARALLEL: identity forward; backward, the gradient all-reduced over
the ranks holding copies of the parameter's block and scaled by ``1 / device_num`` (MindSpore's MirrorOperator
with ``gradients_mean``; why the scale: :mod:`mindspore.parallel._redistribute`). A Cell with its own ``bprop``,
so PYNATIVE tapes and GRAPH_MODE autodiff both use it."""
from mindspore import nn, ops

_cache = {}


class Mirror(nn.Cell):
    """``Mirror(group, scale)(w)``: ``w``; its gradient ``AllReduce(group)(dout) * scale`` (no group: one rank)."""

    def __new__(cls, group, scale):
        key = (group, float(scale))
        hit = _cache.get(key)
        if hit is None:
            hit = super().__new__(cls)
            _cache[key] = hit
        return hit

    def __init__(self, group, scale):
        if "_mirror_ready" in self.__dict__:
            return
        super().__init__()
        self.reduce = ops.AllReduce("sum", group) if group is not None else None
        self.scale = float(scale)
        self.has_group = group is not None
        self._mirror_ready = True

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        if self.has_group:
            return (self.reduce(dout) * self.scale,)
        return (dout * self.scale,)
