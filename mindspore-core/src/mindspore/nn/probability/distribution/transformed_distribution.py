"""``TransformedDistribution``: a distribution transformed by a bijector, Y = f(X) (defined with the base class)."""
from mindspore.nn.probability.distribution.distribution import TransformedDistribution

__all__ = ["TransformedDistribution"]
