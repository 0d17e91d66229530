"""``mindspore.experimental``: MindSpore's experimental APIs; here :mod:`mindspore.experimental.optim`, the
PyTorch-style optimizers and learning-rate schedulers."""
from mindspore.experimental import optim  # noqa: E402,F401
