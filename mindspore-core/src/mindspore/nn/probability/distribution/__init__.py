"""``mindspore.nn.probability.distribution``: probability distributions as Cells."""
from mindspore.nn.probability.distribution.distribution import Distribution
from mindspore.nn.probability.distribution.transformed_distribution import TransformedDistribution
from mindspore.nn.probability.distribution.bernoulli import Bernoulli
from mindspore.nn.probability.distribution.beta import Beta
from mindspore.nn.probability.distribution.categorical import Categorical
from mindspore.nn.probability.distribution.cauchy import Cauchy
from mindspore.nn.probability.distribution.exponential import Exponential
from mindspore.nn.probability.distribution.gamma import Gamma
from mindspore.nn.probability.distribution.geometric import Geometric
from mindspore.nn.probability.distribution.gumbel import Gumbel
from mindspore.nn.probability.distribution.logistic import Logistic
from mindspore.nn.probability.distribution.log_normal import LogNormal
from mindspore.nn.probability.distribution.normal import Normal
from mindspore.nn.probability.distribution.poisson import Poisson
from mindspore.nn.probability.distribution.uniform import Uniform
from mindspore.nn.probability.distribution.half_normal import HalfNormal
from mindspore.nn.probability.distribution.laplace import Laplace
from mindspore.nn.probability.distribution.student_t import StudentT

__all__ = ["Distribution", "TransformedDistribution", "Bernoulli", "Beta", "Categorical", "Cauchy", "Exponential",
           "Gamma", "Geometric", "Gumbel", "Logistic", "LogNormal", "Normal", "Poisson", "Uniform", "HalfNormal",
           "Laplace", "StudentT"]
