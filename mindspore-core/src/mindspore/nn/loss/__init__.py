"""``mindspore.nn`` losses."""
from mindspore.nn.loss import loss, margin, sampled
from mindspore.nn.loss.loss import *  # noqa: F401,F403
from mindspore.nn.loss.margin import *  # noqa: F401,F403
from mindspore.nn.loss.sampled import *  # noqa: F401,F403

__all__ = list(loss.__all__) + list(margin.__all__) + list(sampled.__all__)
