"""Training with THOR (``mindspore.nn.thor``): ``ConvertNetUtils`` turns a network's layers into THOR layers,
``ConvertModelUtils`` turns a :class:`~mindspore.train.Model` whose optimizer is THOR into a ``ModelThor``.

``ModelThor`` alternates as MindSpore's does: one second-order step (the THOR layers record their factors and
the optimizer recomputes the inverses), then ``frequency - 1`` first-order steps that reuse the stored inverses
(the layers only compute their outputs). In GRAPH_MODE a switch of branch recompiles the step once per switch
(the ``thor`` flags are compile-time constants of the graph).
"""
from __future__ import annotations

import mindspore.context as context
from mindspore.nn.optim.thor import _THOR_LAYERS, ThorGpu, convert_to_thor_net
from mindspore.nn.wrap.cell_wrapper import TrainOneStepCell
from mindspore.train.model import Model

__all__ = ["ConvertNetUtils", "ConvertModelUtils", "ModelThor"]


class ConvertNetUtils:
    """Convert a network to THOR layers, which compute and store the second-order information.

    Examples:
        >>> convert_net_utils = ms.train.ConvertNetUtils()
        >>> net = nn.SequentialCell([nn.Dense(3, 2)])
        >>> convert_net_utils.convert_to_thor_net(net)
        >>> type(net[0]).__name__
        'DenseThor'
    """

    def convert_to_thor_net(self, net):
        """Replace, in place, the trainable Dense/Conv2d/Embedding/EmbeddingLookup layers of ``net`` by their THOR
        layers (the optimizer ``nn.thor`` calls this itself)."""
        convert_to_thor_net(net)


def _thor_optimizer(network, optimizer):
    if optimizer is None and isinstance(network, TrainOneStepCell):
        optimizer = network.optimizer
    return optimizer if isinstance(optimizer, ThorGpu) else None


class ModelThor(Model):
    """A :class:`~mindspore.train.Model` training with THOR: a second-order step every ``frequency`` steps."""

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", **kwargs):
        super().__init__(network, loss_fn=loss_fn, optimizer=optimizer, metrics=metrics, eval_network=eval_network,
                         eval_indexes=eval_indexes, amp_level=amp_level, **kwargs)
        self._thor_opt = _thor_optimizer(network, optimizer)
        self._frequency = self._thor_opt.get_frequency() if self._thor_opt is not None else 1
        self._thor_step = 0
        self._branch = None

    def _set_branch(self, second_order):
        if second_order == self._branch:
            return
        self._branch = second_order
        self._thor_opt.thor = second_order
        for _, cell in self._thor_opt_layers():
            cell.thor = second_order
        if context.get_context("mode") == context.GRAPH_MODE:
            from mindspore._pipeline import compiler
            compiler.invalidate_all()

    def _thor_opt_layers(self):
        net = self._network
        for name, cell in net.cells_and_names():
            if isinstance(cell, _THOR_LAYERS):
                yield name, cell

    def _run_train_step(self, cb_params, inputs):
        if self._thor_opt is not None:
            self._set_branch(self._thor_step % self._frequency == 0)
            self._thor_step += 1
        return super()._run_train_step(cb_params, inputs)


class ConvertModelUtils:
    """Convert a Model whose optimizer is THOR into a :class:`ModelThor` (other models are returned unchanged)."""

    @staticmethod
    def convert_to_thor_model(model, network, loss_fn=None, optimizer=None, metrics=None, amp_level="O0",
                              loss_scale_manager=None, keep_batchnorm_fp32=False):
        """The THOR model for ``network`` and ``optimizer`` (``model`` itself when the optimizer is not THOR).

        Examples:
            >>> opt = nn.thor(net, lr, damping, momentum=0.9)
            >>> model = ms.train.Model(net, loss_fn=loss, optimizer=opt)
            >>> model = ms.train.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss,
            ...                                                           optimizer=opt)
        """
        if _thor_optimizer(network, optimizer) is None:
            return model
        if isinstance(network, TrainOneStepCell):
            return ModelThor(network=network)
        kwargs = {}
        if loss_scale_manager is not None:
            kwargs["loss_scale_manager"] = loss_scale_manager
        if keep_batchnorm_fp32:
            kwargs["keep_batchnorm_fp32"] = keep_batchnorm_fp32
        return ModelThor(network=network, loss_fn=loss_fn, optimizer=optimizer, metrics=metrics, amp_level=amp_level,
                         **kwargs)
