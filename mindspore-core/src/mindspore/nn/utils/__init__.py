"""``nn.no_init_parameters``: build a network without drawing its initial weights yet."""
import contextlib

from mindspore.common import parameter as _parameter

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters():
    """Inside this context, Parameters made from initializers keep them and draw nothing.

    The data are drawn when first used, by ``Parameter.init_data()``, by
    ``Cell.init_parameters_data()``, or replaced without ever being drawn by ``load_param_into_net``
    -- which is the point: loading a checkpoint into a large net skips the random initialisation.

    Examples:
        >>> from mindspore import nn
        >>> with nn.no_init_parameters():
        ...     net = nn.Dense(3, 4)
        >>> net.weight.has_init
        True
    """
    previous = _parameter._LAZY_INIT[0]
    _parameter._LAZY_INIT[0] = True
    try:
        yield
    finally:
        _parameter._LAZY_INIT[0] = previous
