"""``mindspore.parallel.auto_parallel.AutoParallel``: one network (a Cell or a function) run in a parallel mode.

Design
------
MindSpore 2.10 compiles the wrapped network with the wrapper's own parallel configuration instead of the global
auto-parallel context. Here the distributed rules read that context (``mindspore.parallel._dispatch``), so a call
of the wrapper sets the context to the wrapper's configuration (``parallel_mode`` ``"semi_auto"`` is
SEMI_AUTO_PARALLEL; ``"sharding_propagation"`` and ``"recursive_programming"`` are AUTO_PARALLEL with that search
mode; ``dataset_strategy``, ``hsdp`` and ``enable_gradients_mean`` their keys), runs the network as the
outermost Cell call (its inputs are this rank's part of the global batch unless ``full_batch``; its outputs come
back whole) and puts the context back as it was, so the rest of the program runs as it would without the wrapper.
"""
from __future__ import annotations

from mindspore import context
from mindspore.nn import Cell
from mindspore.parallel._shard import Layout

__all__ = ["AutoParallel"]

_MODES = {"semi_auto": ("semi_auto_parallel", None),
          "sharding_propagation": ("auto_parallel", "sharding_propagation"),
          "recursive_programming": ("auto_parallel", "recursive_programming")}


class AutoParallel(Cell):
    """Run ``network`` (the top-level Cell or function of a training or inference step) in a parallel mode.

    Args:
        network (Union[Cell, Function]): the network or step function to parallelise.
        parallel_mode (str): ``"semi_auto"`` (operators' ``shard`` strategies), ``"sharding_propagation"`` or
            ``"recursive_programming"``. Default: ``"semi_auto"``.

    Examples:
        >>> from mindspore.parallel.auto_parallel import AutoParallel
        >>> parallel_net = AutoParallel(net, parallel_mode="semi_auto")   # doctest: +SKIP
        >>> loss = parallel_net(image, label)                               # doctest: +SKIP
    """

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        if parallel_mode not in _MODES:
            raise ValueError("the argument 'parallel_mode' must be one of ['semi_auto', 'sharding_propagation',"
                             " 'recursive_programming'], but got the value : {} .".format(parallel_mode))
        self.network = network
        self._parallel_mode = parallel_mode
        self._dataset_strategy_config = "data_parallel"
        self._full_batch = False
        self._enable_parallel_optimizer = False
        self._optimizer_weight_shard_size = -1
        self._parallel_optimizer_threshold = 64
        self._optimizer_level = "level1"
        self._gradients_mean = False

    def dataset_strategy(self, config):
        """How the network's inputs are split: ``"data_parallel"`` (each rank feeds its part of the global batch,
        the default), ``"full_batch"`` (every rank feeds the whole batch) or a tuple of strategies (tuples of cut
        counts or Layouts), one per input."""
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument 'config' must be 'full_batch' or "
                                 "'data_parallel', but got the value : {}.".format(config))
            self._full_batch = config == "full_batch"
            self._dataset_strategy_config = config
            return
        if not isinstance(config, tuple):
            raise TypeError("For 'AutoParallel.dataset_strategy', the argument 'config' must be str or tuple type, "
                            "but got the type : {}.".format(type(config)))
        for ele in config:
            if isinstance(ele, tuple):
                for dim in ele:
                    if not isinstance(dim, int):
                        raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must "
                                        "be int type, but got the type : {} .".format(type(dim)))
            elif not isinstance(ele, Layout):
                raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must be "
                                "tuple or Layout, but got the type : {} .".format(type(ele)))
        self._dataset_strategy_config = config

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Enable the parallel optimizer: weights and optimizer states split over the data-parallel copies
        (``shard_size`` ranks at most, -1: all of them), for parameters of at least ``threshold`` KB."""
        self._enable_parallel_optimizer = True
        if not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError("shard_size must be a positive integer or -1, but got {}.".format(shard_size))
        self._optimizer_weight_shard_size = shard_size
        if not isinstance(threshold, int) or threshold < 0:
            raise ValueError("threshold must be a positive integer or 0, but got {}.".format(threshold))
        self._parallel_optimizer_threshold = threshold
        if optimizer_level not in ["level1", "level2", "level3"]:
            raise ValueError("Optimizer level should in ['level1', 'level2', 'level3'], but got {}"
                             .format(optimizer_level))
        self._optimizer_level = optimizer_level

    def enable_gradients_mean(self):
        """Average (instead of sum) the gradients all-reduced over the data-parallel copies."""
        self._gradients_mean = True

    def _settings(self):
        mode, search = _MODES[self._parallel_mode]
        settings = {"parallel_mode": mode, "full_batch": self._full_batch,
                    "dataset_strategy": self._dataset_strategy_config,
                    "enable_parallel_optimizer": self._enable_parallel_optimizer,
                    "gradients_mean": self._gradients_mean}
        if search is not None:
            settings["search_mode"] = search
        if self._enable_parallel_optimizer:
            settings["parallel_optimizer_config"] = {
                "parallel_optimizer_threshold": self._parallel_optimizer_threshold,
                "optimizer_weight_shard_size": self._optimizer_weight_shard_size,
                "optimizer_level": self._optimizer_level}
        return settings

    def __call__(self, *args, **kwargs):
        settings = self._settings()
        saved = {key: context.get_auto_parallel_context(key) for key in settings}    # put back after the call
        context.set_auto_parallel_context(**settings)
        try:
            return super().__call__(*args, **kwargs)
        finally:
            context.set_auto_parallel_context(**saved)

    def construct(self, *args, **kwargs):
        return self.network(*args, **kwargs)
