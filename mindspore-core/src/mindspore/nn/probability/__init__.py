"""``mindspore.nn.probability``: distributions, bijectors and Bayesian layers as Cells.

``distribution`` (Normal, Bernoulli, ... and TransformedDistribution), ``bijector`` (Exp, ScalarAffine, ...) and
``bnn_layers`` (DenseReparam, ConvReparam, ... trained with WithBNNLossCell), as in MindSpore 2.10.
"""
from mindspore.nn.probability import bijector, distribution

__all__ = ["bijector", "distribution"]
