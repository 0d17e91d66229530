"""``mindspore.nn``: Cells, layers, losses, optimizers, learning-rate schedules and training wrappers."""
from mindspore.nn import dynamic_lr, layer, learning_rate_schedule, loss, optim, wrap
from mindspore.nn.cell import Cell, CellList, SequentialCell  # noqa: F401
from mindspore.nn.dynamic_lr import *  # noqa: F401,F403
from mindspore.nn.layer import *  # noqa: F401,F403
from mindspore.nn.learning_rate_schedule import *  # noqa: F401,F403
from mindspore.nn.loss import *  # noqa: F401,F403
from mindspore.nn.optim import *  # noqa: F401,F403
from mindspore.nn.wrap import *  # noqa: F401,F403
from mindspore.nn.utils import no_init_parameters  # noqa: F401

__all__ = (["Cell", "CellList", "SequentialCell", "no_init_parameters"] + list(layer.__all__) + list(loss.__all__) + list(optim.__all__)
           + list(wrap.__all__) + list(learning_rate_schedule.__all__) + list(dynamic_lr.__all__))
from mindspore.nn.graph_cell import GraphCell  # noqa: E402
__all__.append("GraphCell")
from mindspore.nn import probability  # noqa: E402,F401 - nn.probability.distribution etc., as in MindSpore

# MindSpore's nn also exports the evaluation metrics of mindspore.train.metrics (nn.Accuracy is train.Accuracy),
# and nn.Linear and the nn.*Ext layers are the very classes of mindspore.mint.nn. Both packages sit above nn
# (they import it), so they install those names here when they are imported (``import mindspore`` does).
