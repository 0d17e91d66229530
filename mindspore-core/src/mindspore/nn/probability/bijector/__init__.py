"""``mindspore.nn.probability.bijector``: invertible, differentiable maps as Cells."""
from mindspore.nn.probability.bijector.bijector import Bijector
from mindspore.nn.probability.bijector.power_transform import PowerTransform
from mindspore.nn.probability.bijector.exp import Exp
from mindspore.nn.probability.bijector.scalar_affine import ScalarAffine
from mindspore.nn.probability.bijector.softplus import Softplus
from mindspore.nn.probability.bijector.gumbel_cdf import GumbelCDF
from mindspore.nn.probability.bijector.invert import Invert

__all__ = ["Bijector", "PowerTransform", "Exp", "ScalarAffine", "Softplus", "GumbelCDF", "Invert"]
