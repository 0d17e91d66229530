"""MindSpore's ``mindspore.dataset.core.config``: the same functions as :mod:`mindspore.dataset.config`."""
from mindspore.dataset.config import *  # noqa: F401,F403
from mindspore.dataset.config import __all__  # noqa: F401
