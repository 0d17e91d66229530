"""``mindspore.nn`` layers: every public name of the layer modules."""
from mindspore.nn.layer import (activation, basic, cell_grad, combined, container, conv, dense, embedding, image,
                                math_cells, normalization, padding, pooling, rnns, timedistributed, transformer)
from mindspore.nn.layer.activation import *  # noqa: F401,F403
from mindspore.nn.layer.basic import *  # noqa: F401,F403
from mindspore.nn.layer.cell_grad import *  # noqa: F401,F403
from mindspore.nn.layer.combined import *  # noqa: F401,F403
from mindspore.nn.layer.container import *  # noqa: F401,F403
from mindspore.nn.layer.conv import *  # noqa: F401,F403
from mindspore.nn.layer.dense import *  # noqa: F401,F403
from mindspore.nn.layer.image import *  # noqa: F401,F403
from mindspore.nn.layer.math_cells import *  # noqa: F401,F403
from mindspore.nn.layer.embedding import *  # noqa: F401,F403
from mindspore.nn.layer.normalization import *  # noqa: F401,F403
from mindspore.nn.layer.padding import *  # noqa: F401,F403
from mindspore.nn.layer.pooling import *  # noqa: F401,F403
from mindspore.nn.layer.rnns import *  # noqa: F401,F403
from mindspore.nn.layer.timedistributed import *  # noqa: F401,F403
from mindspore.nn.layer.transformer import *  # noqa: F401,F403

__all__ = (activation.__all__ + basic.__all__ + conv.__all__ + embedding.__all__ + normalization.__all__
           + padding.__all__ + pooling.__all__ + rnns.__all__ + combined.__all__ + image.__all__
           + math_cells.__all__ + dense.__all__ + transformer.__all__
           + container.__all__ + timedistributed.__all__ + cell_grad.__all__)
