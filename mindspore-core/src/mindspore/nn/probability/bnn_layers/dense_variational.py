"""Dense layers with Normal posteriors over their weights (Bayes by Backprop)."""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.nn.cell import Cell
from mindspore.nn.layer.activation import get_activation
from mindspore.nn.probability.bnn_layers._util import check_posterior, check_prior
from mindspore.nn.probability.bnn_layers.layer_distribution import NormalPosterior, NormalPrior
from mindspore.nn.probability.distribution.normal import Normal

__all__ = ["DenseReparam", "DenseLocalReparam"]


def normal_post_fn(name, shape):
    return NormalPosterior(name=name, shape=shape)


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise MSTypeError(f"The '{name}' must be int, but got '{type(value).__name__}'.")
    if value <= 0:
        raise MSValueError(f"The '{name}' must be positive int, but got '{value}'.")
    return value


class _DenseVariational(Cell):
    """The Bayesian dense layer: the weights (and bias) are samples of their posteriors, and ``compute_kl_loss``
    is KL(posterior || prior) summed over the weights (and bias)."""

    def __init__(self, in_channels, out_channels, activation=None, has_bias=True, weight_prior_fn=NormalPrior,
                 weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__()
        self.in_channels = _positive_int(in_channels, "in_channels")
        self.out_channels = _positive_int(out_channels, "out_channels")
        if not isinstance(has_bias, bool):
            raise MSTypeError(f"The 'has_bias' must be bool, but got '{type(has_bias).__name__}'.")
        self.has_bias = has_bias
        self.weight_prior = check_prior(weight_prior_fn, "weight_prior_fn")
        self.weight_posterior = check_posterior(weight_posterior_fn, shape=[self.out_channels, self.in_channels],
                                                param_name="bnn_weight", arg_name="weight_posterior_fn")
        if self.has_bias:
            self.bias_prior = check_prior(bias_prior_fn, "bias_prior_fn")
            self.bias_posterior = check_posterior(bias_posterior_fn, shape=[self.out_channels], param_name="bnn_bias",
                                                  arg_name="bias_posterior_fn")
        self.activation_flag = bool(activation)
        self.activation = activation
        if self.activation_flag:
            if isinstance(activation, str):
                self.activation = get_activation(activation)
            elif not isinstance(activation, Cell):
                raise MSValueError("The type of `activation` is wrong.")

    def construct(self, x):
        outputs = self._apply_variational_weight(x)
        if self.has_bias:
            outputs = self.apply_variational_bias(outputs)
        if self.activation_flag:
            outputs = self.activation(outputs)
        return outputs

    def extend_repr(self):
        s = (f"in_channels={self.in_channels}, out_channels={self.out_channels}, "
             f"weight_mean={self.weight_posterior.mean}, weight_std={self.weight_posterior.untransformed_std}, "
             f"has_bias={self.has_bias}")
        if self.has_bias:
            s += f", bias_mean={self.bias_posterior.mean}, bias_std={self.bias_posterior.untransformed_std}"
        if self.activation_flag:
            s += f", activation={self.activation}"
        return s

    def apply_variational_bias(self, inputs):
        return ops.bias_add(inputs, self.bias_posterior("sample"))

    def compute_kl_loss(self):
        """KL(posterior || prior), summed over the weights and the bias."""
        weight_args = self.weight_posterior("get_dist_args")
        weight_type = self.weight_posterior("get_dist_type")
        kl_loss = ops.sum(self.weight_prior("kl_loss", weight_type, *weight_args))
        if self.has_bias:
            bias_args = self.bias_posterior("get_dist_args")
            bias_type = self.bias_posterior("get_dist_type")
            kl_loss = kl_loss + ops.sum(self.bias_prior("kl_loss", bias_type, *bias_args))
        return kl_loss


class DenseReparam(_DenseVariational):
    """Dense layer with the reparameterization trick: y = x W^T + b for W (and b) sampled from their posteriors.

    Args:
        in_channels (int): The number of input features.
        out_channels (int): The number of output features.
        activation (str, Cell): The activation applied last. Default: ``None``.
        has_bias (bool): Default: ``True``.
        weight_prior_fn (Cell, function): The prior of the weights (a Normal). Default: ``NormalPrior``.
        weight_posterior_fn (function): ``fn(name, shape)`` making the posterior. Default: a NormalPosterior.
        bias_prior_fn (Cell, function): Default: ``NormalPrior``.
        bias_posterior_fn (function): Default: a NormalPosterior.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore.nn.probability import bnn_layers
        >>> net = bnn_layers.DenseReparam(3, 4)
        >>> print(net(ms.Tensor(np.ones((2, 3)), ms.float32)).shape)
        (2, 4)
    """

    def _apply_variational_weight(self, inputs):
        return ops.matmul(inputs, ops.transpose(self.weight_posterior("sample"), (1, 0)))


class DenseLocalReparam(_DenseVariational):
    """Dense layer with the local reparameterization trick: the pre-activations are sampled from
    N(x mean^T, sqrt(x^2 (sd^2)^T)).

    Args:
        in_channels (int): The number of input features.
        out_channels (int): The number of output features.
        activation (str, Cell): The activation applied last. Default: ``None``.
        has_bias (bool): Default: ``True``.
        weight_prior_fn (Cell, function): Default: ``NormalPrior``.
        weight_posterior_fn (function): Default: a NormalPosterior.
        bias_prior_fn (Cell, function): Default: ``NormalPrior``.
        bias_posterior_fn (function): Default: a NormalPosterior.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore.nn.probability import bnn_layers
        >>> net = bnn_layers.DenseLocalReparam(3, 4)
        >>> print(net(ms.Tensor(np.ones((2, 3)), ms.float32)).shape)
        (2, 4)
    """

    def __init__(self, in_channels, out_channels, activation=None, has_bias=True, weight_prior_fn=NormalPrior,
                 weight_posterior_fn=normal_post_fn, bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__(in_channels, out_channels, activation=activation, has_bias=has_bias,
                         weight_prior_fn=weight_prior_fn, weight_posterior_fn=weight_posterior_fn,
                         bias_prior_fn=bias_prior_fn, bias_posterior_fn=bias_posterior_fn)
        self.normal = Normal()

    def _apply_variational_weight(self, inputs):
        mean = ops.matmul(inputs, ops.transpose(self.weight_posterior("mean"), (1, 0)))
        var = ops.matmul(ops.square(inputs), ops.transpose(ops.square(self.weight_posterior("sd")), (1, 0)))
        return self.normal("sample", mean=mean, sd=ops.sqrt(var))
