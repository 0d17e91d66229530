"""``mindspore.nn.AdamOffload``: Adam whose update MindSpore runs on the host to spare device memory.

Where the update runs is MindSpore's memory strategy, not its maths: the step, its state (``beta1_power``,
``beta2_power``, ``moment1.<name>``, ``moment2.<name>``) and its checks are :class:`Adam`'s (without AMSGrad).
"""
from __future__ import annotations

from mindspore.common import dtype as mstype
from mindspore.common.initializer import initializer
from mindspore.common.parameter import Parameter
from mindspore.nn.optim.adam import Adam

__all__ = ["AdamOffload"]


class AdamOffload(Adam):
    r"""Adam (Kingma & Ba 2014), updated on the host in MindSpore; the same values as :class:`Adam`.

    Args:
        params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov, weight_decay, loss_scale: as in
            :class:`Adam`.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")
        >>> opt = nn.AdamOffload([w])
        >>> _ = opt((ms.Tensor(np.full(2, 0.5, np.float32)),))
        >>> w.asnumpy().astype(np.float64).round(4).tolist()
        [0.999, 0.999]
    """

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8, use_locking=False,
                 use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate=learning_rate, beta1=beta1, beta2=beta2, eps=eps,
                         use_locking=use_locking, use_nesterov=use_nesterov, weight_decay=weight_decay,
                         loss_scale=loss_scale)
        self.beta1_power = Parameter(initializer(1, [1], mstype.float32), name="beta1_power")
        self.beta2_power = Parameter(initializer(1, [1], mstype.float32), name="beta2_power")

    def _update(self, param, m, v, vhat, g, lr_t):
        return super()._update(param, m, v, vhat, g, lr_t.reshape(()))
