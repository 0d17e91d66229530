"""``mindspore.nn.probability.bnn_layers``: Bayesian layers (weights as Normal posteriors) and their loss Cell."""
from mindspore.nn.probability.bnn_layers.conv_variational import ConvReparam
from mindspore.nn.probability.bnn_layers.dense_variational import DenseLocalReparam, DenseReparam
from mindspore.nn.probability.bnn_layers.layer_distribution import NormalPosterior, NormalPrior
from mindspore.nn.probability.bnn_layers.bnn_cell_wrapper import WithBNNLossCell

__all__ = ["ConvReparam", "DenseReparam", "DenseLocalReparam", "NormalPrior", "NormalPosterior", "WithBNNLossCell"]
