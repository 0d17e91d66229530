"""``mindspore.mint.nn`` layers with Parameters: Linear, convolutions, normalisation, PReLU.

Parameter names and initialisations follow PyTorch (and MindSpore's mint): ``weight``/``bias`` drawn from
``U(-1/sqrt(fan_in), 1/sqrt(fan_in))`` (He-uniform with ``a = sqrt(5)`` for weights), batch norms with
``weight``, ``bias``, ``running_mean``, ``running_var``, ``num_batches_tracked``. Batch statistics are
composed from reductions: running statistics use the unbiased variance and PyTorch's momentum
(``running = (1 - momentum) * running + momentum * batch``; a cumulative average when ``momentum`` is None).
"""
import math

import mindspore.ops as ops
from mindspore._plugin import collective
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import HeUniform, Normal, Uniform, initializer
from mindspore.common.parameter import Parameter
from mindspore.mint.nn import functional as F
from mindspore.nn.cell import Cell


def _positive_int(cls, name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise MSValueError(f"For '{cls}', the '{name}' must be a positive int, but got {value!r}.")
    return value


def _ntuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class Linear(Cell):
    r"""``input @ weight.T + bias`` with ``weight`` (out_features, in_features).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import mint
        >>> net = mint.nn.Linear(3, 4)
        >>> net(ms.ops.ones((2, 3), ms.float32)).shape
        (2, 4)
    """

    def __init__(self, in_features, out_features, bias=True, weight_init=None, bias_init=None, dtype=None):
        super().__init__()
        self.in_features = _positive_int("Linear", "in_features", in_features)
        self.out_features = _positive_int("Linear", "out_features", out_features)
        dtype = dtype or mstype.float32
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)) if weight_init is None else weight_init,
                                            [out_features, in_features], dtype), name="weight")
        self.bias = None
        if bias:
            bound = 1 / math.sqrt(in_features)
            self.bias = Parameter(initializer(Uniform(bound) if bias_init is None else bias_init, [out_features],
                                              dtype), name="bias")

    def construct(self, input):
        return F.linear(input, self.weight, self.bias)

    def extend_repr(self):
        return (f"input_features={self.in_features}, output_features={self.out_features}, "
                f"has_bias={self.bias is not None}")


class _ConvNd(Cell):
    _n = 2
    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                 padding_mode, dtype, output_padding=0):
        super().__init__()
        name = type(self).__name__
        _positive_int(name, "in_channels", in_channels)
        _positive_int(name, "out_channels", out_channels)
        _positive_int(name, "groups", groups)
        if in_channels % groups or out_channels % groups:
            raise MSValueError(f"For '{name}', the 'in_channels' ({in_channels}) and 'out_channels' ({out_channels}) "
                               f"must be divisible by 'groups' ({groups}).")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise MSValueError(f"For '{name}', the 'padding_mode' must be 'zeros', 'reflect', 'replicate' or "
                               f"'circular', but got {padding_mode!r}.")
        n = self._n
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride, self.dilation = _ntuple(kernel_size, n), _ntuple(stride, n), _ntuple(dilation, n)
        self.padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        self.output_padding = _ntuple(output_padding, n)
        self.padding_mode = padding_mode
        dtype = dtype or mstype.float32
        if self._transposed:
            shape = [in_channels, out_channels // groups, *self.kernel_size]
        else:
            shape = [out_channels, in_channels // groups, *self.kernel_size]
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), shape, dtype), name="weight")
        self.bias = None
        if bias:
            fan_in = shape[1] * math.prod(self.kernel_size)
            self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), [out_channels], dtype), name="bias")

    def _padded(self, input):
        """(input, padding) with a non-zero ``padding_mode`` applied explicitly."""
        if self.padding_mode == "zeros" or isinstance(self.padding, str):
            return input, self.padding
        pads = []
        for p in reversed(self.padding):
            pads += [p, p]
        return F.pad(input, tuple(pads), self.padding_mode), 0

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, groups={self.groups}, bias={self.bias is not None}")


class Conv1d(_ConvNd):
    """1-D convolution over (N, C_in, L)."""
    _n = 1

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv1d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    """2-D convolution over (N, C_in, H, W).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import mint
        >>> net = mint.nn.Conv2d(2, 4, 3, padding=1)
        >>> net(ms.ops.ones((1, 2, 5, 5), ms.float32)).shape
        (1, 4, 5, 5)
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv2d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class Conv3d(_ConvNd):
    """3-D convolution over (N, C_in, D, H, W)."""
    _n = 3

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype)

    def construct(self, input):
        x, padding = self._padded(input)
        return F.conv3d(x, self.weight, self.bias, self.stride, padding, self.dilation, self.groups)


class ConvTranspose2d(_ConvNd):
    """2-D transposed convolution; ``weight`` is (in_channels, out_channels / groups, kh, kw)."""
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", dtype=None):
        if padding_mode != "zeros":
            raise MSValueError(f"For 'ConvTranspose2d', only 'zeros' padding_mode is supported, but got "
                               f"{padding_mode!r}.")
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, dtype, output_padding)

    def construct(self, input, output_size=None):
        output_padding = self.output_padding
        if output_size is not None:
            # the output_padding that gives output_size (PyTorch's rule): each must be below stride or dilation
            sizes = tuple(output_size)[-2:]
            output_padding = []
            for i, want in enumerate(sizes):
                least = ((input.shape[2 + i] - 1) * self.stride[i] - 2 * self.padding[i]
                         + self.dilation[i] * (self.kernel_size[i] - 1) + 1)
                extra = want - least
                if not 0 <= extra < max(self.stride[i], self.dilation[i]):
                    raise MSValueError(f"For 'ConvTranspose2d', the requested 'output_size' {tuple(sizes)} can not "
                                       f"be reached from input shape {input.shape} (size {i}: between {least} and "
                                       f"{least + max(self.stride[i], self.dilation[i]) - 1}).")
                output_padding.append(extra)
            output_padding = tuple(output_padding)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


class _BatchNorm(Cell):
    _dims = None

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True, dtype=None):
        super().__init__()
        self.num_features = _positive_int(type(self).__name__, "num_features", num_features)
        self.eps, self.momentum = eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        dtype = dtype or mstype.float32
        self.weight = Parameter(initializer("ones", [num_features], dtype), name="weight", requires_grad=affine)
        self.bias = Parameter(initializer("zeros", [num_features], dtype), name="bias", requires_grad=affine)
        if track_running_stats:
            self.running_mean = Parameter(initializer("zeros", [num_features], dtype), name="running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(initializer("ones", [num_features], dtype), name="running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(initializer("zeros", [], mstype.int64), name="num_batches_tracked",
                                                 requires_grad=False)
        else:
            self.running_mean = self.running_var = self.num_batches_tracked = None

    def reset_running_stats(self):
        """Set the running statistics back to their initial values (mean 0, variance 1, no batch tracked), in place;
        nothing without ``track_running_stats``."""
        if self.track_running_stats:
            self.running_mean.assign_value(initializer("zeros", [self.num_features], self.running_mean.dtype))
            self.running_var.assign_value(initializer("ones", [self.num_features], self.running_var.dtype))
            self.num_batches_tracked.assign_value(initializer("zeros", [], mstype.int64))

    def reset_parameters(self):
        """:meth:`reset_running_stats`, then, with ``affine``, the weight back to ones and the bias to zeros."""
        self.reset_running_stats()
        if self.affine:
            self.weight.assign_value(initializer("ones", [self.num_features], self.weight.dtype))
            self.bias.assign_value(initializer("zeros", [self.num_features], self.bias.dtype))

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"track_running_stats={self.track_running_stats}")

    def _check_input(self, input):
        if self._dims is not None and input.ndim not in self._dims:
            raise MSValueError(f"For '{type(self).__name__}', expected a {' or '.join(map(str, self._dims))}-D "
                               f"input, but got shape {input.shape}.")

    def _batch_stats(self, input, axes):
        """(mean, biased var, element count per channel) of this batch; overridden by SyncBatchNorm."""
        count = math.prod(input.shape[a] for a in axes)
        mean = ops.mean(input, axes)
        var = ops.mean(ops.square(ops.sub(input, ops.reshape(mean, self._shape(input)))), axes)
        return mean, var, count

    @staticmethod
    def _shape(input):
        return (1, -1) + (1,) * (input.ndim - 2)

    def construct(self, input):
        self._check_input(input)
        shape = self._shape(input)
        use_batch = self.training or not self.track_running_stats
        if use_batch:
            axes = (0,) + tuple(range(2, input.ndim))
            mean, var, count = self._batch_stats(input, axes)
            if self.training and self.track_running_stats:
                ops.assign_add(self.num_batches_tracked, ops.ones((), mstype.int64))
                m = self.momentum
                if m is None:
                    m = ops.div(1.0, ops.cast(self.num_batches_tracked, input.dtype))
                    keep = ops.sub(1.0, m)
                else:
                    keep = 1.0 - m
                unbiased = ops.mul(var, count / max(count - 1, 1))
                ops.assign(self.running_mean, ops.add(ops.mul(self.running_mean, keep),
                                                      ops.mul(ops.stop_gradient(mean), m)))
                ops.assign(self.running_var, ops.add(ops.mul(self.running_var, keep),
                                                     ops.mul(ops.stop_gradient(unbiased), m)))
        else:
            mean, var = self.running_mean, self.running_var
        out = ops.mul(ops.sub(input, ops.reshape(mean, shape)), ops.reshape(ops.rsqrt(ops.add(var, self.eps)), shape))
        if self.affine:
            out = ops.add(ops.mul(out, ops.reshape(self.weight, shape)), ops.reshape(self.bias, shape))
        return out


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L)."""
    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W)."""
    _dims = (4,)


class BatchNorm3d(_BatchNorm):
    """Batch normalisation of (N, C, D, H, W)."""
    _dims = (5,)


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose training statistics are reduced over the devices of ``process_group``
    (the world group when None) with an all-reduce; the same as BatchNorm when collectives are not initialised."""

    def __init__(self, num_features, eps=1e-05, momentum=0.1, affine=True, track_running_stats=True,
                 process_group=None, dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype)
        self.process_group = process_group

    def _batch_stats(self, input, axes):
        if not collective.world_initialized():
            return super()._batch_stats(input, axes)
        group = self.process_group or collective.world_group()
        local = math.prod(input.shape[a] for a in axes)
        sums = ops.stack((ops.sum(input, axes), ops.sum(ops.square(input), axes),
                          ops.full((input.shape[1],), float(local), dtype=input.dtype)))
        total = ops.AllReduce(group=group)(sums)
        count = ops.reshape(ops.narrow(total, 0, 2, 1), (-1,))
        mean = ops.div(ops.reshape(ops.narrow(total, 0, 0, 1), (-1,)), count)
        var = ops.sub(ops.div(ops.reshape(ops.narrow(total, 0, 1, 1), (-1,)), count), ops.square(mean))
        return mean, var, local * collective.process_group(group).size


class GroupNorm(Cell):
    """Normalises each of ``num_groups`` channel groups over (C / G, *spatial)."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, dtype=None):
        super().__init__()
        _positive_int("GroupNorm", "num_groups", num_groups)
        _positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise MSValueError(f"For 'GroupNorm', the 'num_channels' ({num_channels}) must be divisible by "
                               f"'num_groups' ({num_groups}).")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        dtype = dtype or mstype.float32
        self.weight = Parameter(initializer("ones", [num_channels], dtype), name="weight", requires_grad=affine)
        self.bias = Parameter(initializer("zeros", [num_channels], dtype), name="bias", requires_grad=affine)

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}, eps={self.eps}, affine={self.affine}"

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight if self.affine else None,
                            self.bias if self.affine else None, self.eps)


class PReLU(Cell):
    """Leaky ReLU with ``num_parameters`` learnt slopes (1, or one per channel), initialised to ``init``."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        _positive_int("PReLU", "num_parameters", num_parameters)
        if isinstance(init, bool) or not isinstance(init, (int, float)):
            raise MSTypeError(f"For 'PReLU', the 'init' must be a number, but got {type(init).__name__}.")
        self.num_parameters = num_parameters
        self.weight = Parameter(initializer(float(init), [num_parameters], dtype or mstype.float32), name="weight")

    def construct(self, input):
        return F.prelu(input, self.weight)


class Embedding(Cell):
    """A table of ``num_embeddings`` vectors of ``embedding_dim`` (``weight`` ~ N(0, 1); the ``padding_idx`` row is
    zero and gets no gradient); ``construct(input)`` looks up the rows at the integer ``input``."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None):
        super().__init__()
        self.num_embeddings = _positive_int("Embedding", "num_embeddings", num_embeddings)
        self.embedding_dim = _positive_int("Embedding", "embedding_dim", embedding_dim)
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise MSValueError(f"For 'Embedding', the 'padding_idx' must be in [{-num_embeddings}, "
                                   f"{num_embeddings}), but got {padding_idx}.")
            padding_idx %= num_embeddings
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        dtype = dtype or mstype.float32
        if _weight is None:
            table = initializer(Normal(1.0), [num_embeddings, embedding_dim], dtype).init_data()
            if padding_idx is not None:
                keep = ops.reshape(ops.ne(ops.arange(num_embeddings), padding_idx), (-1, 1))
                table = ops.mul(table, ops.cast(keep, dtype))
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise MSValueError(f"For 'Embedding', the '_weight' must have shape ({num_embeddings}, "
                                   f"{embedding_dim}), but got {tuple(_weight.shape)}.")
            table = _weight
        self.weight = Parameter(table, name="weight", requires_grad=not _freeze)

    def extend_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, norm_type={self.norm_type}, "
                f"scale_grad_by_freq={self.scale_grad_by_freq}, dtype={self.weight.dtype}")

    def construct(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq)


class LayerNorm(Cell):
    """Normalises over the trailing ``normalized_shape`` dimensions, with a learnt ``weight`` and ``bias``."""

    def __init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, bias=True, dtype=None):
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape, self.eps, self.elementwise_affine = shape, eps, elementwise_affine
        dtype = dtype or mstype.float32
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Parameter(initializer("ones", list(shape), dtype), name="weight")
            if bias:
                self.bias = Parameter(initializer("zeros", list(shape), dtype), name="bias")

    def construct(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return f"normalized_shape={self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
