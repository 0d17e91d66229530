"""``mindspore.nn`` layers: every public name of the layer modules."""
from mindspore.nn.layer import (activation, basic, cell_grad, combined, container, conv, conv_more, dense, embedding,
                                embedding_lookup, fractional_pooling, image, image_more, math_cells, math_special,
                                normalization, padding, pooling, rnns, sparse, timedistributed, transformer)
from mindspore.nn.layer.activation import *  # noqa: F401,F403
from mindspore.nn.layer.basic import *  # noqa: F401,F403
from mindspore.nn.layer.cell_grad import *  # noqa: F401,F403
from mindspore.nn.layer.combined import *  # noqa: F401,F403
from mindspore.nn.layer.container import *  # noqa: F401,F403
from mindspore.nn.layer.conv import *  # noqa: F401,F403
from mindspore.nn.layer.conv_more import *  # noqa: F401,F403
from mindspore.nn.layer.dense import *  # noqa: F401,F403
from mindspore.nn.layer.image import *  # noqa: F401,F403
from mindspore.nn.layer.image_more import *  # noqa: F401,F403
from mindspore.nn.layer.math_cells import *  # noqa: F401,F403
from mindspore.nn.layer.math_special import *  # noqa: F401,F403
from mindspore.nn.layer.embedding import *  # noqa: F401,F403
from mindspore.nn.layer.embedding_lookup import *  # noqa: F401,F403
from mindspore.nn.layer.normalization import *  # noqa: F401,F403
from mindspore.nn.layer.padding import *  # noqa: F401,F403
from mindspore.nn.layer.pooling import *  # noqa: F401,F403
from mindspore.nn.layer.fractional_pooling import *  # noqa: F401,F403
from mindspore.nn.layer.rnns import *  # noqa: F401,F403
from mindspore.nn.layer.sparse import *  # noqa: F401,F403
from mindspore.nn.layer.timedistributed import *  # noqa: F401,F403
from mindspore.nn.layer.transformer import *  # noqa: F401,F403
from mindspore.nn.layer import thor_layer  # noqa: E402
from mindspore.nn.layer.thor_layer import *  # noqa: F401,F403,E402

__all__ = (activation.__all__ + basic.__all__ + conv.__all__ + conv_more.__all__ + embedding.__all__
           + embedding_lookup.__all__ + normalization.__all__ + padding.__all__ + pooling.__all__
           + fractional_pooling.__all__ + rnns.__all__ + sparse.__all__ + combined.__all__ + image.__all__
           + image_more.__all__ + math_cells.__all__ + math_special.__all__ + dense.__all__ + transformer.__all__
           + container.__all__ + timedistributed.__all__ + cell_grad.__all__ + thor_layer.__all__)


# MindSpore groups mindspore.nn's cells into its own modules: a cell imported from its `nn.layer` is found here
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
