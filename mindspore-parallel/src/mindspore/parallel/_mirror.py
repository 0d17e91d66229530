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


# --- the AutoParallel gradient settings ------------------------------------------------------------------------
# ``dump_local_norm`` (print or, with ``dump_local_norm_path``, TensorDump the norm of this rank's gradient of each
# parameter before it is all-reduced: MindSpore's "local norm"), ``dump_device_local_norm`` (add its square to one
# float32 Parameter, :func:`get_squared_device_local_norm_param`), ``force_fp32_communication`` and
# ``gradient_fp32_sync`` (a float16/bfloat16 gradient is all-reduced in float32 and cast back), as MindSpore 2.10's
# mirror operator does them.
_FP16 = ("Float16", "BFloat16")
_device_norm = []


def get_squared_device_local_norm_param():
    """The float32 Parameter ``_squared_device_local_norm`` the backward pass adds every parameter gradient's squared
    local norm to under ``dump_device_local_norm`` (the user resets it to zero after each step), as MindSpore's
    ``get_squared_device_local_norm_param``; ValueError when the setting is off."""
    if not _device_norm:
        from mindspore import Parameter, Tensor, context
        from mindspore.common import dtype as mstype
        if not context.get_auto_parallel_context("dump_device_local_norm"):
            raise ValueError("The parallel config 'dump_device_local_norm' is False.")
        _device_norm.append(Parameter(Tensor(0.0, mstype.float32), name="_squared_device_local_norm",
                                      requires_grad=False))
    return _device_norm[0]


def gradient_settings(param):
    """The settings of the context that change the mirror of ``param`` (None: the plain :class:`Mirror`)."""
    from mindspore import context
    get = context.get_auto_parallel_context
    norm, path, device = bool(get("dump_local_norm")), get("dump_local_norm_path"), bool(get("dump_device_local_norm"))
    fp32 = str(param.dtype) in _FP16 and (get("force_fp32_communication") or get("gradient_fp32_sync"))
    if not (norm or device or fp32):
        return None
    dump_file = ""
    if norm and path:
        import os
        from mindspore.parallel._layouts import world
        dump_file = os.path.join(path, f"rank_{world()[0]}", "local_norm__" + param.name)
    return (param.name, norm and not path, dump_file, device, fp32)


class ConfiguredMirror(nn.Cell):
    """:class:`Mirror` of one parameter held by the ranks of ``group`` with the settings :func:`gradient_settings`
    found (one per parameter)."""

    def __new__(cls, group, scale, settings):
        key = (group, float(scale), settings)
        hit = _cache.get(key)
        if hit is None:
            hit = super().__new__(cls)
            _cache[key] = hit
        return hit

    def __init__(self, group, scale, settings):
        if "_mirror_ready" in self.__dict__:
            return
        super().__init__()
        from mindspore.common import dtype as mstype
        self.reduce = ops.AllReduce("sum", group)
        self.scale = float(scale)
        self.param_name, self.print_norm, self.dump_file, self.device_norm, self.fp32 = settings
        self.any_norm = self.print_norm or bool(self.dump_file) or self.device_norm
        self.print = ops.Print()
        self.dump = ops.TensorDump()
        self.float32 = mstype.float32
        if self.device_norm:
            self.squared_norm = get_squared_device_local_norm_param()
        self._mirror_ready = True

    def construct(self, x):
        return x

    def bprop(self, x, out, dout):
        if self.any_norm:
            squared = ops.reduce_sum(ops.square(ops.cast(dout, self.float32)))
            if self.print_norm:
                self.print("dump local norm: ", self.param_name, ops.sqrt(squared))
            if self.dump_file:
                self.dump(self.dump_file, ops.sqrt(squared))
            if self.device_norm:
                ops.assign_add(self.squared_norm, squared)
        if self.fp32:
            return (ops.cast(self.reduce(ops.cast(dout, self.float32)), dout.dtype) * self.scale,)
        return (self.reduce(dout) * self.scale,)
