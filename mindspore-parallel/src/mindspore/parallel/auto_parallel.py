"""``mindspore.parallel.auto_parallel.AutoParallel``: one network (a Cell or a function) run in a parallel mode.

Design
------
MindSpore 2.10 compiles the wrapped network with the wrapper's own parallel configuration instead of the global
auto-parallel context. Here the distributed rules read that context (``mindspore.parallel._dispatch``), so a call
of the wrapper sets the context to the wrapper's configuration (``parallel_mode`` ``"semi_auto"`` is
SEMI_AUTO_PARALLEL; ``"sharding_propagation"`` and ``"recursive_programming"`` are AUTO_PARALLEL with that search
mode; ``dataset_strategy``, ``hsdp``, ``enable_gradients_mean`` and ``pipeline`` their keys), runs the network as the
outermost Cell call (its inputs are this rank's part of the global batch unless ``full_batch``; its outputs come
back whole) and puts the context back as it was, so the rest of the program runs as it would without the wrapper.

The other settings map to their context keys as MindSpore's ``_init_auto_parallel_context`` maps them and act
where the runtime reads those keys: the strategy and group files are written and read at the network's first
sharded call (``_strategy_file``, ``_compile_files``), the local norms and float32 gradient communication in the
parameters' mirrors (``_mirror``), the operator strategy file by ``set_op_strategy_config`` under sharding
propagation. ``offload`` and ``recompute`` are Cell's (memory settings; they change no value).
"""
from __future__ import annotations

import json
import os

from mindspore import context, plugin
from mindspore.nn import Cell
from mindspore.parallel._shard import Layout

__all__ = ["AutoParallel"]

_MODES = {"semi_auto": ("semi_auto_parallel", None),
          "sharding_propagation": ("auto_parallel", "sharding_propagation"),
          "recursive_programming": ("auto_parallel", "recursive_programming")}


def _check_path(file_path):
    if not isinstance(file_path, str):
        raise TypeError("the argument 'file_path' must be str, but got the type : {} .".format(type(file_path)))


def _check_json_path(file_path):
    _check_path(file_path)
    if not os.path.isabs(file_path):
        raise KeyError("the argument 'file_path' must be an absolute path.")
    if os.path.splitext(file_path)[1] != ".json":
        raise KeyError("File type must be .json")


# parallel_speed_up.json: MindSpore 2.10's options and their types (older names included)
_SPEEDUP_OPTIONS = {
    "recompute_comm_overlap": (str, bool), "recomputation_communication_overlap": (str, bool),
    "matmul_grad_comm_overlap": (bool, str), "grad_matmul_communication_overlap": (bool, str),
    "enable_task_opt": bool, "enable_communication_fusion": bool, "enable_grad_comm_opt": bool,
    "grad_computation_allreduce_overlap": bool, "recompute_allgather_overlap_fagrad": bool,
    "grad_fa_allgather_overlap": bool, "interleaved_matmul_comm": bool, "bias_add_comm_swap": bool,
    "allreduce_and_biasadd_swap": bool, "enable_opt_shard_comm_opt": bool, "computation_allgather_overlap": bool,
    "enable_begin_end_inline_opt": bool, "enable_concat_eliminate_opt": bool, "interleaved_layernorm_comm": bool,
    "enable_allreduce_slice_to_reducescatter": bool, "enable_interleave_split_concat_branch": bool,
    "enable_interleave_parallel_branch": bool, "enable_offloading_packed_experts": bool,
    "compute_communicate_fusion_level": int, "computation_communication_fusion_level": int,
    "enable_flash_attention_load_balance": bool, "pp_1f1b_overlap": str, "dataset_broadcast_opt_level": int}


def _check_speedup_file(file_path):
    """Check a parallel speed-up JSON file as MindSpore 2.10's ``_set_speedup_config_path`` does and put its path in
    the context's ``ascend_config`` (None or "": nothing is checked, the path is cleared)."""
    config = dict(context.get_context("ascend_config") or {})
    config["parallel_speed_up_json_path"] = file_path
    if file_path is None or file_path == "":
        plugin.set_context_quietly(ascend_config=config)   # 2.10 logs no deprecation warning here
        return
    real = os.path.realpath(file_path)
    if not os.path.exists(real):
        raise ValueError(f"For 'ascend_config', the path to parallel_speed_up_json: {real} does not exist, please "
                         f"check whether the 'parallel_speed_up_json_path' is correct.")
    try:
        with open(real, "r", encoding="utf-8") as f:
            options = json.load(f)
        for key, value in options.items():
            if key not in _SPEEDUP_OPTIONS:
                raise ValueError("key {} should be one of {}.".format(key, _SPEEDUP_OPTIONS.keys()))
            want = _SPEEDUP_OPTIONS[key]
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                raise TypeError(f"The value type of {key} must be {want}, but got value is {value} and type is "
                                f"{type(value)}.")
    except (TypeError, ValueError) as e:
        raise ValueError(str(e) + "\nFor 'context.set_context', open or load the 'speedup_config_path' file {} "
                         "failed, please check whether 'speedup_config_path' is json file and correct, or may not "
                         "have permission to read it.".format(real)) from e
    plugin.set_context_quietly(ascend_config=config)   # 2.10 logs no deprecation warning here


def _draw_deferred_parameters(network, mode):
    """MindSpore draws the parameters a network made under ``no_init_parameters`` when it compiles the network in
    parallel, seeding each draw by the parameter's slice, so every rank starts from the same weights even without a
    global seed. Here the parameters of a Cell are drawn when the wrapper is made, in its parallel mode (see
    ``Parameter.init_data``), rather than where they are first used: a ``Model`` or ``jit`` step around the wrapper
    reads them before the wrapper's call sets that mode. With a global seed every rank draws the same stream in the
    same order, and they are left to their first use. (A function's parameters are drawn in its call.)"""
    from mindspore import get_seed
    if not isinstance(network, Cell) or get_seed() is not None:
        return
    saved = context.get_auto_parallel_context("parallel_mode")
    context.set_auto_parallel_context(parallel_mode=mode)
    try:
        network.init_parameters_data()
    finally:
        context.set_auto_parallel_context(parallel_mode=saved)


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
        _draw_deferred_parameters(network, _MODES[parallel_mode][0])
        self._dataset_strategy_config = "data_parallel"
        self._full_batch = False
        self._enable_parallel_optimizer = False
        self._optimizer_weight_shard_size = -1
        self._parallel_optimizer_threshold = 64
        self._optimizer_level = "level1"
        self._gradients_mean = False
        self._init_param_in_compile = True
        self._load_strategy_file_path = ""
        self._save_strategy_file_path = ""
        self._only_trainable_params = True
        self._load_operator_strategy_file = ""
        self._save_operator_strategy_file = ""
        self._operator_strategy_applied = None
        self._comm_fusion_config = {}
        self._force_fp32_communication = False
        self._group_ckpt_save_file = ""
        self._dump_local_norm = False
        self._dump_local_norm_path = ""
        self._dump_device_local_norm = False
        self._gradient_fp32_sync = True
        self._loss_repeated_mean = True
        self._transformer_opt_config = None
        self._pipeline_stages = 1
        self._pipeline_result_broadcast = False
        self._pipeline_interleave = False
        self._pipeline_scheduler = "1f1b"

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

    # -- the rest of MindSpore 2.10's configuration (applied by _config_settings at each call) --------------------
    def no_init_parameters_in_compile(self):
        """Do not initialise the weights when the network is compiled (``init_param_in_compile=False``): with
        parameters created under ``no_init_parameters``, they are initialised on their first use, as when
        compiling; the values are the same either way."""
        self._init_param_in_compile = False

    def load_param_strategy_file(self, file_path):
        """Load the operator strategies of the strategy file ``file_path`` (written by
        :meth:`save_param_strategy_file`, here or by MindSpore) at the first call: an operator without a strategy
        of its own takes the file's (keys ``"<PrimName>_<parameter name>"``; see
        :mod:`mindspore.parallel._compile_files`). A file that does not exist then is a RuntimeError.

        Raises:
            TypeError: If the type of 'file_path' is not str.
        """
        _check_path(file_path)
        self._load_strategy_file_path = file_path

    def save_param_strategy_file(self, file_path):
        """Write the strategy file (MindSpore's ``ParallelStrategyMap``, JSON when ``file_path`` ends in
        ``.json``) of the network at its first call: each parameter's layout (trainable ones only, unless
        :meth:`disable_strategy_file_only_for_trainable_params`) and each sharded operator's strategy. Each rank
        writes its own (name it per rank, e.g. ``f"./strategy_{get_rank()}.ckpt"``).

        Raises:
            TypeError: If the type of 'file_path' is not str.
        """
        _check_path(file_path)
        self._save_strategy_file_path = file_path

    def disable_strategy_file_only_for_trainable_params(self):
        """Also save (and load) the strategies of the non-trainable parameters in the strategy file."""
        self._only_trainable_params = False

    def save_operator_strategy_file(self, file_path):
        """Under ``parallel_mode="sharding_propagation"``, save the strategies the search chooses to the JSON file
        ``file_path`` (``set_op_strategy_config(mode="SAVE")``); no effect in the other modes.

        Raises:
            TypeError: If the type of 'file_path' is not str.
            KeyError: When 'file_path' is not an absolute path.
            KeyError: When 'file_path' does not end in ``".json"`` .
        """
        _check_json_path(file_path)
        self._save_operator_strategy_file = file_path

    def load_operator_strategy_file(self, file_path):
        """Under ``parallel_mode="sharding_propagation"``, take the operators' strategies from the JSON file
        ``file_path`` saved by :meth:`save_operator_strategy_file` (``set_op_strategy_config(mode="LOAD")``); no
        effect in the other modes.

        Raises:
            TypeError: If the type of 'file_path' is not str.
            KeyError: When 'file_path' is not an absolute path.
            KeyError: When 'file_path' does not end in ``".json"`` .
        """
        _check_json_path(file_path)
        self._load_operator_strategy_file = file_path

    def comm_fusion(self, config):
        """Fusion of the communication operators, as ``set_auto_parallel_context(comm_fusion=config)``:
        ``{"openstate": bool, "allreduce": {"mode": "auto"|"size"|"index", "config": ...}, "allgather": ...,
        "reducescatter": ...}`` (checked when the network is called). The gradient all-reduce buckets of
        ``nn.DistributedGradReducer`` follow it.

        Raises:
            TypeError: If the type of config is not dict.
        """
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._comm_fusion_config = config

    def enable_fp32_communication(self):
        """Reduce collectives (the gradients' all-reduce) on float16/bfloat16 values run in float32."""
        self._force_fp32_communication = True

    def set_group_ckpt_save_file(self, file_path):
        """Write the communication-group file (MindSpore's ``ParallelGroupMap``: the groups this rank's network
        made and the ranks holding the same parameters, read by ``mindspore.restore_group_info_list``) at the
        first call.

        Raises:
            TypeError: If the type of 'file_path' is not str.
        """
        _check_path(file_path)
        self._group_ckpt_save_file = file_path

    def print_local_norm(self):
        """Print the local norm of each parameter's gradient (this rank's, before the gradients are all-reduced)
        in the backward pass: ``dump local norm: `` then the parameter's name and the norm."""
        self._dump_local_norm = True

    def dump_local_norm(self, file_path):
        """Save the local norms (see :meth:`print_local_norm`) with ``TensorDump`` instead of printing them, as
        ``<file_path>/rank_<rank>/local_norm__<parameter name>_float32_<n>.npy``.

        Raises:
            TypeError: If the type of 'file_path' is not str.
        """
        _check_path(file_path)
        self._dump_local_norm = True
        self._dump_local_norm_path = file_path

    def enable_device_local_norm(self):
        """Add each parameter gradient's squared local norm to the float32 Parameter
        ``mindspore.parallel._mirror.get_squared_device_local_norm_param()`` (reset it to zero after each step)."""
        self._dump_device_local_norm = True

    def enable_gradients_mean(self):
        """Average (instead of sum) the gradients all-reduced over the data-parallel copies."""
        self._gradients_mean = True

    def disable_gradient_fp32_sync(self):
        """Do not convert float16/bfloat16 parameter gradients to float32 for their all-reduce."""
        self._gradient_fp32_sync = False

    def disable_loss_repeated_mean(self):
        """Do not divide the gradient of a loss computed repeatedly on several devices by their number
        (``loss_repeated_mean=False``). Our semi-auto convention divides every parameter gradient once by the
        device number (:mod:`mindspore.parallel._redistribute`), so the setting is recorded in the context and
        changes no value here."""
        self._loss_repeated_mean = False

    def transformer_opt(self, file_path):
        """The parallel speed-up JSON file (``parallel_speed_up.json``'s options, e.g. ``"enable_communication_fusion":
        true``), checked now as MindSpore checks it and put in the context's ``ascend_config
        ["parallel_speed_up_json_path"]`` while the network runs; None or ``""``: none. The options schedule
        communication on Ascend and change no value.

        Raises:
            ValueError: The file does not exist, or holds an unknown option or a value of the wrong type.
        """
        _check_speedup_file(file_path)
        self._transformer_opt_config = file_path

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Pipeline parallel: the ranks split into ``stages`` stages of consecutive ranks, each running the cells whose
        ``pipeline_stage`` is its number (see :mod:`mindspore.parallel._pipeline` for what every rank computes and
        returns). ``output_broadcast``: for inference, every stage returns the last stage's result (otherwise only
        the last stage returns it, the others zeros). ``interleave`` and ``scheduler`` (``"1f1b"``, ``"gpipe"``,
        ``"seqpipe"``, ``"seqvpp"``, ``"seqsmartvpp"``, ``"zero_bubble_v"``) choose the order micro-batches run in,
        which changes no number.

        Examples:
            >>> from mindspore.parallel.auto_parallel import AutoParallel
            >>> parallel_net = AutoParallel(net, parallel_mode="semi_auto")   # doctest: +SKIP
            >>> parallel_net.pipeline(stages=2)                                 # doctest: +SKIP
        """
        if not isinstance(stages, int) or isinstance(stages, bool):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'stages' must be int type, but got the type : "
                            "{}.".format(type(stages)))
        if stages <= 0:
            raise ValueError("For 'AutoParallel.pipeline', the argument 'stages' must be larger than zero, but got "
                             "value: {}.".format(stages))
        for name, value in (("output_broadcast", output_broadcast), ("interleave", interleave)):
            if not isinstance(value, bool):
                raise TypeError("For 'AutoParallel.pipeline', the argument '{}' must be bool type, but got the type : "
                                "{}.".format(name, type(value)))
        if not isinstance(scheduler, str):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'scheduler' must be str type, but got the type "
                            ": {}.".format(type(scheduler)))
        if scheduler not in ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v"):
            raise ValueError("For 'AutoParallel.pipeline', the argument 'scheduler' must be "
                             "'1f1b'/'gpipe'/'seqpipe'/'seqvpp'/'seqsmartvpp'/'zero_bubble_v' , but got the value : "
                             "{}.".format(scheduler))
        self._pipeline_stages = stages
        self._pipeline_result_broadcast = output_broadcast
        self._pipeline_interleave = interleave
        self._pipeline_scheduler = scheduler

    def get_pipeline_stages(self):
        """The number of pipeline stages :meth:`pipeline` set (1 by default)."""
        return self._pipeline_stages

    def compile(self, *args, **kwargs):
        """Compile the network for ``args`` under this wrapper's parallel configuration, without running it."""
        settings = self._settings()
        saved = {key: context.get_auto_parallel_context(key) for key in settings}
        context.set_auto_parallel_context(**settings)
        try:
            return super().compile(*args, **kwargs)
        finally:
            context.set_auto_parallel_context(**saved)

    def _settings(self):
        mode, search = _MODES[self._parallel_mode]
        settings = {"parallel_mode": mode, "full_batch": self._full_batch,
                    "dataset_strategy": self._dataset_strategy_config,
                    "enable_parallel_optimizer": self._enable_parallel_optimizer,
                    "gradients_mean": self._gradients_mean}
        if search is not None:
            settings["search_mode"] = search
        settings.update(pipeline_stages=self._pipeline_stages,
                        pipeline_result_broadcast=self._pipeline_result_broadcast,
                        pipeline_config={"pipeline_interleave": self._pipeline_interleave,
                                         "pipeline_scheduler": self._pipeline_scheduler})
        settings.update(self._config_settings())
        if self._enable_parallel_optimizer:
            settings["parallel_optimizer_config"] = {
                "parallel_optimizer_threshold": self._parallel_optimizer_threshold,
                "optimizer_weight_shard_size": self._optimizer_weight_shard_size,
                "optimizer_level": self._optimizer_level}
        return settings

    def _config_settings(self):
        """The context keys of the strategy, group, fusion and gradient settings (MindSpore's
        ``_init_auto_parallel_context``); under sharding propagation also puts the operator strategy file in effect
        (``set_op_strategy_config``, once per file, as MindSpore sets it when it compiles the network)."""
        settings = {"auto_parallel_new_interface": True, "init_param_in_compile": self._init_param_in_compile,
                    "strategy_ckpt_load_file": self._load_strategy_file_path,
                    "strategy_ckpt_save_file": self._save_strategy_file_path,
                    "strategy_ckpt_config": {"load_file": self._load_strategy_file_path,
                                             "save_file": self._save_strategy_file_path,
                                             "only_trainable_params": self._only_trainable_params},
                    "force_fp32_communication": self._force_fp32_communication,
                    "group_ckpt_save_file": self._group_ckpt_save_file, "dump_local_norm": self._dump_local_norm,
                    "dump_local_norm_path": self._dump_local_norm_path,
                    "dump_device_local_norm": self._dump_device_local_norm,
                    "gradient_fp32_sync": self._gradient_fp32_sync, "loss_repeated_mean": self._loss_repeated_mean}
        if self._comm_fusion_config:
            settings["comm_fusion"] = self._comm_fusion_config
        if self._parallel_mode == "sharding_propagation":
            from mindspore.parallel.algo_parameter_config import set_op_strategy_config
            for mode, path in (("LOAD", self._load_operator_strategy_file),
                               ("SAVE", self._save_operator_strategy_file)):
                if path and self._operator_strategy_applied != (mode, path):
                    set_op_strategy_config(mode=mode, path=path)
                    self._operator_strategy_applied = (mode, path)
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
