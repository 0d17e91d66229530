"""Checks of the prior and posterior arguments of the Bayesian layers."""
from __future__ import annotations

from mindspore._errors import MSTypeError
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell

__all__ = []


def check_prior(prior_fn, arg_name):
    """The prior: ``prior_fn`` itself when a Cell, else ``prior_fn()``; it must hold one Normal with fixed
    parameters."""
    prior = prior_fn if isinstance(prior_fn, Cell) else prior_fn()
    for prior_name, prior_dist in prior.name_cells().items():
        if prior_name != "normal":
            raise MSTypeError(f"The type of distribution of `{arg_name}` must be `normal`")
        if not (isinstance(getattr(prior_dist, "_mean_value"), Tensor)
                and isinstance(getattr(prior_dist, "_sd_value"), Tensor)):
            raise MSTypeError(f"The input form of `{arg_name}` is incorrect")
    return prior


def check_posterior(posterior_fn, shape, param_name, arg_name):
    """The posterior ``posterior_fn(shape=shape, name=param_name)``; it must hold one Normal."""
    try:
        posterior = posterior_fn(shape=shape, name=param_name)
    except TypeError:
        raise MSTypeError(f"The type of `{arg_name}` must be `NormalPosterior`") from None
    for posterior_name, _ in posterior.name_cells().items():
        if posterior_name != "normal":
            raise MSTypeError(f"The type of distribution of `{arg_name}` must be `normal`")
    return posterior
