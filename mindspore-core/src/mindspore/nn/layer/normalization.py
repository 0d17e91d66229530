"""Normalisation layers: ``BatchNorm1d/2d/3d``, ``SyncBatchNorm``, ``LayerNorm``, ``GroupNorm``.

BatchNorm follows MindSpore 2.10 exactly (API.md 5.3):

* Parameters ``moving_mean``, ``moving_variance`` (``requires_grad=False``), ``gamma``, ``beta``, created in
  that order. The moving statistics are created with the explicit names ``'mean'``/``'variance'``, which
  is what a top-level BatchNorm saves; nested in a parent they are renamed to their path
  (``bn.moving_mean``).
* ``momentum=0.9`` is the weight of the *old* value: ``moving = 0.9 * moving + 0.1 * batch``. The Cell
  stores ``self.momentum = 1 - momentum`` and hands it to ``ops.BatchNorm`` (torch convention). The moving
  variance takes the unbiased batch variance; training normalises with the biased one.
* ``use_batch_statistics=None`` follows ``self.training`` (a new Cell is in eval mode, so it uses the moving
  statistics); ``True``/``False`` force batch / moving statistics.

``LayerNorm`` defaults ``epsilon=1e-7`` and names its Parameters ``gamma``/``beta``.
"""
from __future__ import annotations

import hashlib

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore._plugin.collective import create_group, process_group, world_group
from mindspore.nn.cell import Cell
from mindspore.nn.layer import _checks as chk

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d"]


class _BatchNorm(Cell):
    """Batch normalisation with moving statistics; subclasses fix the accepted input ranks."""

    _ranks = (2, 3, 4, 5)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        op = type(self).__name__
        chk.check_positive_int(op, "num_features", num_features)
        chk.check_number(op, "momentum", momentum, lo=0, hi=1, types=(int, float))
        chk.check_number(op, "eps", eps, lo=0, lo_inc=False, types=(int, float))
        chk.check_bool(op, "affine", affine)
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise MSValueError(f"For '{op}', the 'use_batch_statistics' must be a boolean value or None, but got "
                               f"{use_batch_statistics}.")
        if data_format not in ("NCHW", "NCDHW"):
            raise MSValueError(f"For '{op}', the 'data_format' must be 'NCHW' on CPU, but got '{data_format}'.")
        self.num_features = num_features
        self.eps = float(eps)
        self.affine = affine
        self.use_batch_statistics = use_batch_statistics
        self.format = data_format
        self.moving_mean_init = moving_mean_init
        self.moving_var_init = moving_var_init
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)
        self.momentum = 1.0 - momentum
        self.bn_train = ops.BatchNorm(is_training=True, epsilon=self.eps, momentum=self.momentum)
        self.bn_infer = ops.BatchNorm(is_training=False, epsilon=self.eps)

    def _check_input(self, x):
        chk.check_tensor(type(self).__name__, "x", x)
        if x.ndim not in self._ranks:
            want = " or ".join(str(r) for r in self._ranks)
            raise MSValueError(f"For '{type(self).__name__}', the dimension of input should be {want}, but got "
                               f"{x.ndim} (shape {tuple(x.shape)}).")

    def construct(self, x):
        self._check_input(x)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        bn = self.bn_train if use_batch else self.bn_infer
        return bn(x, self.gamma, self.beta, self.moving_mean, self.moving_variance)[0]

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={1.0 - self.momentum}, "
                f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, "
                f"moving_variance={self.moving_variance}")


class BatchNorm1d(_BatchNorm):
    r"""Batch normalisation over an (N, C) or (N, C, L) input.

    Args:
        num_features (int): C.
        eps (float): added to the variance. Default: ``1e-5``.
        momentum (float): weight of the old moving statistics, ``moving = momentum * moving +
            (1 - momentum) * batch``. Default: ``0.9``.
        affine (bool): whether ``gamma``/``beta`` are trainable. Default: ``True``.
        gamma_init, beta_init, moving_mean_init, moving_var_init: initializers. Defaults ones, zeros, zeros, ones.
        use_batch_statistics (bool): ``None`` (follow the training mode), ``True`` or ``False``.
        data_format (str): ``'NCHW'``.
        dtype (mindspore.dtype): Parameter dtype. Default: ``mindspore.float32``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.BatchNorm1d(4)
        >>> net(ms.Tensor(np.ones((2, 4), np.float32))).shape
        (2, 4)
    """

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    r"""Batch normalisation over an (N, C, H, W) input; arguments as in :class:`BatchNorm1d`.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> bn = nn.BatchNorm2d(3)
        >>> [p.name for p in bn.get_parameters()]
        ['mean', 'variance', 'gamma', 'beta']
    """

    _ranks = (4,)


class BatchNorm3d(Cell):
    r"""Batch normalisation over an (N, C, D, H, W) input, through an inner ``BatchNorm2d`` named ``bn2d``
    (so the Parameters are ``bn2d.moving_mean``, ...); arguments as in :class:`BatchNorm1d`."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCDHW",
                 dtype=mstype.float32):
        super().__init__()
        if data_format != "NCDHW":
            raise MSValueError(f"For 'BatchNorm3d', the 'data_format' must be 'NCDHW', but got '{data_format}'.")
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                                moving_var_init, use_batch_statistics, "NCHW", dtype)

    def construct(self, input_x):
        chk.check_tensor("BatchNorm3d", "input_x", input_x)
        if input_x.ndim != 5:
            raise MSValueError(f"For 'BatchNorm3d', the dimension of input should be 5, but got {input_x.ndim} "
                               f"(shape {tuple(input_x.shape)}).")
        n, c, d, h, w = input_x.shape
        out = self.bn2d(ops.reshape(input_x, (n, c, d * h, w)))
        return ops.reshape(out, (n, c, d, h, w))


class SyncBatchNorm(_BatchNorm):
    r"""Batch normalisation whose batch statistics are computed over every rank of a group: the mean and the
    (biased) variance of the concatenation of the ranks' batches, so ``N`` ranks with batches of ``B`` give the
    output, the moving statistics and the gradients of a ``BatchNorm`` on the global batch of ``N * B``.

    Training with more than one rank in the group: the per-channel sum and element count are all-reduced (one
    ``AllReduce``), giving the mean; then the per-channel sum of squared deviations is all-reduced, giving the
    variance (two passes, as exact as BatchNorm's own). The all-reduces are differentiable (the bprop of a sum
    all-reduce all-reduces the gradient), so each rank's backward pass carries the other ranks' share of the
    statistics' gradient; the data-parallel gradient reducer then sums the parameters' gradients. The moving
    variance takes the unbiased global variance. In one process, or in evaluation, it is :class:`BatchNorm2d`.

    Args:
        num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init, moving_var_init,
        use_batch_statistics, dtype: as :class:`BatchNorm2d`.
        process_groups (list[list[int]]): split the world into sync groups (each a list of distinct world ranks,
            each rank in one group); this rank normalises over its group. Default: ``None``, the world group.

    Inputs:
        - **x** (Tensor) - of shape :math:`(N, C)` or :math:`(N, C, H, W)`.

    Raises:
        TypeError: ``process_groups`` (or one of its members) is not a list.
        ValueError: a rank id in ``process_groups`` is outside ``[0, rank_size)`` or appears twice.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> bn = nn.SyncBatchNorm(2).set_train()
        >>> bn(ms.Tensor(np.ones((4, 2, 3, 3), np.float32))).shape
        (4, 2, 3, 3)
    """

    _ranks = (2, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, process_groups=None,
                 dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, "NCHW", dtype)
        self.process_groups = process_groups
        self.group_name = world_group()
        self.group_device_num = process_group(self.group_name).size
        if process_groups is not None:
            if not isinstance(process_groups, list):
                raise MSTypeError(f"For 'SyncBatchNorm', the 'process_groups' must be a list, but got "
                                  f"{type(process_groups).__name__}.")
            self._set_sync_group(process_groups)
        self.allreduce = ops.AllReduce(group=self.group_name)

    def _set_sync_group(self, process_groups):
        world = process_group(self.group_name)
        seen = set()
        for sub in process_groups:
            if not isinstance(sub, list):
                raise MSTypeError(f"For 'SyncBatchNorm', each member of 'process_groups' must be a list, but got "
                                  f"{type(sub).__name__}.")
            for rid in sub:
                if isinstance(rid, bool) or not isinstance(rid, int) or not 0 <= rid < world.size:
                    raise MSValueError(f"For 'SyncBatchNorm', the 'rank id in process_groups' must be in range of "
                                       f"[0, {world.size}), but got {rid!r}.")
                if rid in seen:
                    raise MSValueError(f"For 'SyncBatchNorm', rank id in 'process_groups' must not be duplicated, "
                                       f"but got {process_groups}.")
                seen.add(rid)
        for sub in process_groups:
            if world.rank in sub:
                self.group_device_num = len(sub)
                if len(sub) > 1 and len(sub) < world.size:
                    self.group_name = _sync_group(sub)
                return
        self.group_device_num = 1   # this rank is in no group: it normalises over its own batch

    def construct(self, x):
        self._check_input(x)
        use_batch = self.training if self.use_batch_statistics is None else self.use_batch_statistics
        if not use_batch or self.group_device_num <= 1:
            return super().construct(x)
        axes = (0,) if x.ndim == 2 else (0, 2, 3)
        stat_shape = (1, self.num_features) if x.ndim == 2 else (1, self.num_features, 1, 1)
        xf = x if x.dtype == mstype.float32 else ops.cast(x, mstype.float32)
        count = 1
        for a in axes:
            count *= x.shape[a]
        local = ops.concat([ops.reduce_sum(xf, axes), ops.fill(mstype.float32, (1,), count)])
        total = self.allreduce(local)
        n = total[self.num_features:]
        mean = total[:self.num_features] / n
        centred = xf - ops.reshape(mean, stat_shape)
        var = self.allreduce(ops.reduce_sum(centred * centred, axes)) / n
        gamma = ops.cast(self.gamma, mstype.float32)
        beta = ops.cast(self.beta, mstype.float32)
        scale = gamma * ops.rsqrt(var + self.eps)
        out = centred * ops.reshape(scale, stat_shape) + ops.reshape(beta, stat_shape)
        m = self.momentum
        mean_s = ops.stop_gradient(mean)
        unbiased = ops.stop_gradient(var * n / ops.maximum(n - 1, ops.ones_like(n)))
        ops.assign(self.moving_mean, ops.cast(self.moving_mean * (1 - m) + ops.cast(mean_s, self.moving_mean.dtype)
                                              * m, self.moving_mean.dtype))
        ops.assign(self.moving_variance, ops.cast(self.moving_variance * (1 - m) +
                                                  ops.cast(unbiased, self.moving_variance.dtype) * m,
                                                  self.moving_variance.dtype))
        return out if x.dtype == mstype.float32 else ops.cast(out, x.dtype)


_SYNC_GROUPS = {}


def _sync_group(ranks):
    """The communication group of the sync group ``ranks``, created once per rank list (as MindSpore names it:
    ``'<size>_<sha256 of the rank list>'``)."""
    key = "_".join(str(r) for r in ranks)
    name = _SYNC_GROUPS.get(key)
    if name is None:
        name = f"{len(ranks)}_{hashlib.sha256(key.encode('utf-8')).hexdigest()}"
        create_group(name, ranks)
        _SYNC_GROUPS[key] = name
    return name


class LayerNorm(Cell):
    r"""Layer normalisation: ``(x - mean) / sqrt(var + epsilon) * gamma + beta`` over the axes from
    ``begin_norm_axis`` on.

    Args:
        normalized_shape (Union[tuple[int], list[int]]): shape of ``gamma``/``beta``, the trailing input axes
            from ``begin_params_axis``.
        begin_norm_axis (int): first normalised axis. Default: ``-1``.
        begin_params_axis (int): first axis of the parameters. Default: ``-1``.
        gamma_init, beta_init: initializers. Defaults ``'ones'``, ``'zeros'``.
        epsilon (float): Default: ``1e-7`` (not 1e-5).
        dtype (mindspore.dtype): Parameter dtype. Default: ``mindspore.float32``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> x = ms.Tensor(np.ones((20, 5, 10, 10)), ms.float32)
        >>> nn.LayerNorm(x.shape[1:], begin_norm_axis=1, begin_params_axis=1)(x).shape
        (20, 5, 10, 10)
    """

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init="ones",
                 beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):
            raise MSTypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] or list[int], "
                              f"but got {normalized_shape} and the type is {type(normalized_shape)}.")
        for s in normalized_shape:
            chk.check_positive_int("LayerNorm", "normalized_shape", s)
        if not normalized_shape:
            raise MSValueError("For 'LayerNorm', the 'normalized_shape' must not be empty.")
        self.normalized_shape = tuple(int(s) for s in normalized_shape)
        self.begin_norm_axis = chk.check_int("LayerNorm", "begin_norm_axis", begin_norm_axis)
        self.begin_params_axis = chk.check_int("LayerNorm", "begin_params_axis", begin_params_axis)
        self.epsilon = float(chk.check_number("LayerNorm", "epsilon", epsilon, lo=0, types=(int, float)))
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype=dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype=dtype), name="beta")
        self.layer_norm = ops.LayerNorm(begin_norm_axis=self.begin_norm_axis,
                                        begin_params_axis=self.begin_params_axis, epsilon=self.epsilon)

    def construct(self, input_x):
        chk.check_tensor("LayerNorm", "input_x", input_x)
        gamma, beta = self.gamma, self.beta
        if gamma.dtype != input_x.dtype:
            gamma, beta = ops.cast(gamma, input_x.dtype), ops.cast(beta, input_x.dtype)
        return self.layer_norm(input_x, gamma, beta)[0]

    def extend_repr(self):
        return (f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
                f"begin_params_axis={self.begin_params_axis}, gamma={self.gamma}, beta={self.beta}")


class GroupNorm(Cell):
    r"""Group normalisation: the channels of an (N, C, \*) input are split into ``num_groups`` groups, each
    normalised with its own (biased) mean and variance, then scaled by ``gamma`` and shifted by ``beta``
    (per channel).

    Args:
        num_groups (int): number of groups; must divide ``num_channels``.
        num_channels (int): C.
        eps (float): Default: ``1e-5``.
        affine (bool): whether ``gamma``/``beta`` are trainable. Default: ``True``.
        gamma_init, beta_init: initializers. Defaults ``'ones'``, ``'zeros'``.
        dtype (mindspore.dtype): Parameter dtype. Default: ``mindspore.float32``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.GroupNorm(2, 4)(ms.Tensor(np.ones((1, 4, 3, 3), np.float32))).shape
        (1, 4, 3, 3)
    """

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        self.num_groups = chk.check_positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = chk.check_positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups != 0:
            raise MSValueError(f"For 'GroupNorm', the 'num_channels' must be divided by 'num_groups', but got "
                               f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        self.eps = float(chk.check_number("GroupNorm", "eps", eps, lo=0, lo_inc=False, types=(int, float)))
        self.affine = chk.check_bool("GroupNorm", "affine", affine)
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype=dtype), name="gamma",
                               requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        chk.check_tensor("GroupNorm", "x", x)
        if x.ndim < 2 or x.shape[1] != self.num_channels:
            raise MSValueError(f"For 'GroupNorm', the 'x' must be (N, {self.num_channels}, ...), but got shape "
                               f"{tuple(x.shape)}.")
        shape = tuple(x.shape)
        grouped = ops.reshape(x, (shape[0], self.num_groups, -1))
        mean = ops.mean(grouped, 2, keep_dims=True)
        centred = ops.sub(grouped, mean)
        var = ops.mean(ops.square(centred), 2, keep_dims=True)
        normed = ops.reshape(ops.div(centred, ops.sqrt(ops.add(var, self.eps))), shape)
        channel = (-1,) + (1,) * (len(shape) - 2)
        return ops.add(ops.mul(normed, ops.reshape(self.gamma, channel)), ops.reshape(self.beta, channel))

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class _InstanceNorm(Cell):
    """Instance normalisation: each (sample, channel) slice of an (N, C, \\*) input is normalised with its own
    (biased) mean and variance, then scaled by ``gamma`` and shifted by ``beta`` (per channel).

    Parameters are MindSpore's: ``moving_mean``/``moving_variance`` (saved as ``'mean'``/``'variance'``,
    ``requires_grad=False``; the output never reads them, as in MindSpore, and they are kept for checkpoint
    compatibility), ``gamma``/``beta`` (trainable iff ``affine``).
    """

    _rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        op = type(self).__name__
        for name, value, types in (("num_features", num_features, int), ("eps", eps, float),
                                   ("momentum", momentum, float), ("affine", affine, bool)):
            if not isinstance(value, types) or (types is not bool and isinstance(value, bool)):
                raise MSTypeError(f"For '{op}', the type of '{name}' must be {types.__name__}, but got "
                                  f"{type(value).__name__}.")
        if num_features < 1:
            raise MSValueError(f"For '{op}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise MSValueError(f"For '{op}', the 'momentum' must be a number in range [0, 1], but got {momentum}.")
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        op = type(self).__name__
        chk.check_rank(op, "x", x, (self._rank,))
        if x.shape[1] != self.num_features:
            raise MSValueError(f"For '{op}', the 'x' shape[1] must be equal to 'num_features' {self.num_features}, "
                               f"but got {x.shape[1]}.")
        axes = tuple(range(2, self._rank))
        mean = ops.mean(x, axes, True)
        var = ops.mean(ops.square(x - mean), axes, True)
        stat_shape = (1, self.num_features) + (1,) * (self._rank - 2)
        gamma = ops.reshape(ops.cast(self.gamma, x.dtype), stat_shape)
        beta = ops.reshape(ops.cast(self.beta, x.dtype), stat_shape)
        return (x - mean) / ops.sqrt(var + self.eps) * gamma + beta

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, gamma={self.gamma}, "
                f"beta={self.beta}, moving_mean={self.moving_mean}, moving_variance={self.moving_variance}")


class InstanceNorm1d(_InstanceNorm):
    """Instance normalisation of an (N, C, L) input (see ``_InstanceNorm``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.InstanceNorm1d(3)(ms.Tensor(np.random.rand(2, 3, 5).astype(np.float32))).shape
        (2, 3, 5)
    """

    _rank = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalisation of an (N, C, H, W) input (see ``_InstanceNorm``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.InstanceNorm2d(3)(ms.Tensor(np.random.rand(2, 3, 4, 4).astype(np.float32))).shape
        (2, 3, 4, 4)
    """

    _rank = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalisation of an (N, C, D, H, W) input (see ``_InstanceNorm``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> nn.InstanceNorm3d(3)(ms.Tensor(np.random.rand(2, 3, 2, 4, 4).astype(np.float32))).shape
        (2, 3, 2, 4, 4)
    """

    _rank = 5


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer.normalization` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
