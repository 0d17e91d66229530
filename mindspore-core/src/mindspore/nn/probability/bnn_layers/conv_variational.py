"""2-D convolution with Normal posteriors over its kernel (Bayes by Backprop)."""
from __future__ import annotations

import mindspore.ops as ops
from mindspore.nn.layer.conv import _Conv
from mindspore.nn.probability.bnn_layers._util import check_posterior, check_prior
from mindspore.nn.probability.bnn_layers.dense_variational import normal_post_fn
from mindspore.nn.probability.bnn_layers.layer_distribution import NormalPrior

__all__ = ["ConvReparam"]


class _ConvVariational(_Conv):
    """The Bayesian convolution: the kernel (and bias) are samples of their posteriors. The plain ``weight`` and
    ``bias`` Parameters of the convolution stay, untrained, as in MindSpore 2.10."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same", padding=0, dilation=1,
                 group=1, has_bias=False, weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn,
                 bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding, dilation, group, has_bias,
                         weight_init="normal", bias_init="zeros", data_format="NCHW")
        self.shape = [self.out_channels, self.in_channels // self.group, *self.kernel_size]
        self.weight.requires_grad = False
        self.weight_prior = check_prior(weight_prior_fn, "weight_prior_fn")
        self.weight_posterior = check_posterior(weight_posterior_fn, shape=self.shape, param_name="bnn_weight",
                                                arg_name="weight_posterior_fn")
        if self.has_bias:
            self.bias.requires_grad = False
            self.bias_prior = check_prior(bias_prior_fn, "bias_prior_fn")
            self.bias_posterior = check_posterior(bias_posterior_fn, shape=[self.out_channels], param_name="bnn_bias",
                                                  arg_name="bias_posterior_fn")

    def construct(self, inputs):
        outputs = self._apply_variational_weight(inputs)
        if self.has_bias:
            outputs = self.apply_variational_bias(outputs)
        return outputs

    def extend_repr(self):
        s = (f"in_channels={self.in_channels}, out_channels={self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}, pad_mode={self.pad_mode}, padding={self._padding_arg}, "
             f"dilation={self.dilation}, group={self.group}, weight_mean={self.weight_posterior.mean}, "
             f"weight_std={self.weight_posterior.untransformed_std}, has_bias={self.has_bias}")
        if self.has_bias:
            s += f", bias_mean={self.bias_posterior.mean}, bias_std={self.bias_posterior.untransformed_std}"
        return s

    def compute_kl_loss(self):
        """KL(posterior || prior), summed over the kernel and the bias."""
        weight_type = self.weight_posterior("get_dist_type")
        weight_args = self.weight_posterior("get_dist_args")
        kl_loss = ops.sum(self.weight_prior("kl_loss", weight_type, *weight_args))
        if self.has_bias:
            bias_args = self.bias_posterior("get_dist_args")
            bias_type = self.bias_posterior("get_dist_type")
            kl_loss = kl_loss + ops.sum(self.bias_prior("kl_loss", bias_type, *bias_args))
        return kl_loss

    def apply_variational_bias(self, inputs):
        return ops.bias_add(inputs, self.bias_posterior("sample"))


class ConvReparam(_ConvVariational):
    """2-D convolution with the reparameterization trick: the kernel (and bias) are sampled from their
    posteriors at every call.

    Args:
        in_channels (int): The number of input channels.
        out_channels (int): The number of output channels.
        kernel_size (int, tuple[int]): The kernel's height and width.
        stride (int, tuple[int]): Default: ``1``.
        pad_mode (str): ``'same'``, ``'valid'`` or ``'pad'``. Default: ``'same'``.
        padding (int, tuple[int]): Default: ``0``.
        dilation (int, tuple[int]): Default: ``1``.
        group (int): Default: ``1``.
        has_bias (bool): Default: ``False``.
        weight_prior_fn (Cell, function): The prior of the kernel (a Normal). Default: ``NormalPrior``.
        weight_posterior_fn (function): ``fn(name, shape)`` making the posterior. Default: a NormalPosterior.
        bias_prior_fn (Cell, function): Default: ``NormalPrior``.
        bias_posterior_fn (function): Default: a NormalPosterior.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore.nn.probability import bnn_layers
        >>> net = bnn_layers.ConvReparam(3, 4, 3)
        >>> print(net(ms.Tensor(np.ones((1, 3, 5, 5)), ms.float32)).shape)
        (1, 4, 5, 5)
    """

    def _apply_variational_weight(self, inputs):
        return ops.conv2d(inputs, self.weight_posterior("sample"), stride=self.stride, pad_mode=self.pad_mode,
                          padding=self.padding, dilation=self.dilation, groups=self.group)
