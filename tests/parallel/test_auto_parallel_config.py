"""AutoParallel's configuration methods (MindSpore 2.10's signatures, checks and messages) and what each does in one
process: the context keys they set while the network runs (and put back after), the operator strategy file under
sharding propagation, the speed-up file, loading a parameter strategy file, the float32 gradient communication
setting. The multi-rank effects (strategy, group and local-norm files written by each rank, strategies loaded
back) are checked under msrun by ``test_parallel_samples_autoparallel.py::test_autoparallel_files_and_norms_msrun``.
"""
import inspect
import json

import numpy as np
import pytest

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.parallel import algo_parameter_config
from mindspore.parallel._strategy_file import write_strategy_file
from mindspore.parallel.auto_parallel import AutoParallel

# MindSpore 2.10's signatures (help(AutoParallel)); pipeline/get_pipeline_stages are tested with the pipeline
SIGNATURES = {
    "no_init_parameters_in_compile": "(self)", "load_param_strategy_file": "(self, file_path)",
    "save_param_strategy_file": "(self, file_path)", "disable_strategy_file_only_for_trainable_params": "(self)",
    "save_operator_strategy_file": "(self, file_path)", "load_operator_strategy_file": "(self, file_path)",
    "dataset_strategy": "(self, config)", "hsdp": "(self, shard_size=-1, threshold=64, optimizer_level='level1')",
    "comm_fusion": "(self, config)", "enable_fp32_communication": "(self)",
    "set_group_ckpt_save_file": "(self, file_path)", "print_local_norm": "(self)",
    "dump_local_norm": "(self, file_path)", "enable_device_local_norm": "(self)", "enable_gradients_mean": "(self)",
    "disable_gradient_fp32_sync": "(self)", "disable_loss_repeated_mean": "(self)",
    "transformer_opt": "(self, file_path)", "offload": "(self, backward_prefetch='Auto')",
    "recompute": "(self, *, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs)"}

KEYS = ("parallel_mode", "strategy_ckpt_config", "strategy_ckpt_save_file", "strategy_ckpt_load_file",
        "group_ckpt_save_file", "comm_fusion", "force_fp32_communication", "dump_local_norm", "dump_local_norm_path",
        "dump_device_local_norm", "gradient_fp32_sync", "loss_repeated_mean", "init_param_in_compile",
        "auto_parallel_new_interface")


@pytest.fixture(autouse=True)
def _clean_context():
    yield
    ms.reset_auto_parallel_context()
    ms.set_context(ascend_config={})
    algo_parameter_config._op_strategy["mode"] = None


class _Probe(nn.Cell):
    """A network that records the auto-parallel context while it runs (PYNATIVE)."""

    def __init__(self):
        super().__init__()
        self.seen = {}
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        self.seen.update({k: ms.get_auto_parallel_context(k) for k in KEYS})
        return self.dense(x)


def test_methods_have_mindspore_210s_signatures():
    for name, signature in SIGNATURES.items():
        assert str(inspect.signature(getattr(AutoParallel, name))) == signature, name


def test_argument_checks_and_messages():
    net = AutoParallel(nn.Dense(2, 2))
    for method in ("load_param_strategy_file", "save_param_strategy_file", "set_group_ckpt_save_file",
                   "dump_local_norm", "save_operator_strategy_file", "load_operator_strategy_file"):
        with pytest.raises(TypeError, match=r"^the argument 'file_path' must be str, but got the type : <class "
                                            r"'int'> \.$"):
            getattr(net, method)(3)
    for method in ("save_operator_strategy_file", "load_operator_strategy_file"):
        with pytest.raises(KeyError, match="the argument 'file_path' must be an absolute path."):
            getattr(net, method)("strategy.json")
        with pytest.raises(KeyError, match="File type must be .json"):
            getattr(net, method)("/tmp/strategy.txt")
    with pytest.raises(TypeError, match=r"The parameter '3' must be <class 'dict'>, but got <class 'int'>\."):
        net.comm_fusion(3)
    with pytest.raises(ValueError, match=r"For 'AutoParallel', the 'backward_prefetch' must be str and must be in "
                                         r"'\['Auto'\]', but got 'x'\."):
        net.offload("x")


def test_settings_are_the_context_while_the_network_runs(tmp_path):
    probe = _Probe()
    net = AutoParallel(probe, parallel_mode="semi_auto")
    net.save_param_strategy_file(str(tmp_path / "s.ckpt"))
    net.disable_strategy_file_only_for_trainable_params()
    net.set_group_ckpt_save_file(str(tmp_path / "g.ckpt"))
    net.comm_fusion({"allreduce": {"mode": "size", "config": 32}})
    net.enable_fp32_communication()
    net.dump_local_norm(str(tmp_path / "norm"))
    net.enable_device_local_norm()
    net.disable_gradient_fp32_sync()
    net.disable_loss_repeated_mean()
    net.no_init_parameters_in_compile()
    before = {k: ms.get_auto_parallel_context(k) for k in KEYS}
    net(Tensor(np.ones((1, 2), np.float32)))
    seen = probe.seen
    assert seen["parallel_mode"] == "semi_auto_parallel"
    assert seen["strategy_ckpt_config"] == {"load_file": "", "save_file": str(tmp_path / "s.ckpt"),
                                            "only_trainable_params": False}
    assert seen["strategy_ckpt_save_file"] == str(tmp_path / "s.ckpt")
    assert seen["group_ckpt_save_file"] == str(tmp_path / "g.ckpt")
    assert seen["comm_fusion"]["allreduce"] == {"mode": "size", "config": 32}
    assert seen["force_fp32_communication"] is True and seen["gradient_fp32_sync"] is False
    assert seen["dump_local_norm"] is True and seen["dump_local_norm_path"] == str(tmp_path / "norm")
    assert seen["dump_device_local_norm"] is True and seen["loss_repeated_mean"] is False
    assert seen["init_param_in_compile"] is False and seen["auto_parallel_new_interface"] is True
    assert {k: ms.get_auto_parallel_context(k) for k in KEYS} == before      # put back after the call
    print_net = AutoParallel(_Probe())
    print_net.print_local_norm()
    print_net(Tensor(np.ones((1, 2), np.float32)))
    assert print_net.network.seen["dump_local_norm"] is True and print_net.network.seen["dump_local_norm_path"] == ""


def test_operator_strategy_files_under_sharding_propagation(tmp_path):
    save = str(tmp_path / "ops.json")
    net = AutoParallel(_Probe(), parallel_mode="sharding_propagation")
    net.save_operator_strategy_file(save)
    net(Tensor(np.ones((1, 2), np.float32)))
    assert algo_parameter_config._op_strategy["mode"] == "SAVE" and algo_parameter_config._op_strategy["path"] == save
    algo_parameter_config._op_strategy["mode"] = None
    semi = AutoParallel(_Probe(), parallel_mode="semi_auto")    # only sharding propagation uses them
    semi.save_operator_strategy_file(save)
    semi(Tensor(np.ones((1, 2), np.float32)))
    assert algo_parameter_config._op_strategy["mode"] is None
    missing = AutoParallel(_Probe(), parallel_mode="sharding_propagation")
    missing.load_operator_strategy_file(str(tmp_path / "none.json"))
    with pytest.raises(ValueError, match="the strategy file .* does not exist"):
        missing(Tensor(np.ones((1, 2), np.float32)))


def test_transformer_opt_checks_the_file_as_mindspore(tmp_path):
    net = AutoParallel(nn.Dense(2, 2))
    with pytest.raises(ValueError, match="For 'ascend_config', the path to parallel_speed_up_json: .* does not "
                                         "exist"):
        net.transformer_opt(str(tmp_path / "none.json"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"foo": True}))
    with pytest.raises(ValueError, match="key foo should be one of"):
        net.transformer_opt(str(bad))
    bad.write_text(json.dumps({"enable_communication_fusion": 1}))
    with pytest.raises(ValueError, match="The value type of enable_communication_fusion must be <class 'bool'>"):
        net.transformer_opt(str(bad))
    good = tmp_path / "speed_up.json"
    good.write_text(json.dumps({"enable_communication_fusion": True, "dataset_broadcast_opt_level": 1}))
    net.transformer_opt(str(good))
    assert ms.get_context("ascend_config")["parallel_speed_up_json_path"] == str(good)
    net.transformer_opt(None)
    assert ms.get_context("ascend_config")["parallel_speed_up_json_path"] is None


class _MatMulNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="w")
        self.matmul = ops.MatMul()

    def construct(self, x):
        return self.matmul(x, self.w)


def test_load_param_strategy_file_gives_operators_the_files_strategies(tmp_path):
    """MindSpore's keys: ``"<PrimName>_<first parameter input>"``; an operator without a strategy of its own takes
    the file's when it first runs."""
    path = str(tmp_path / "strategy.ckpt")
    write_strategy_file(path, {"w": ((1,), (-1, -1), (2, 3))}, {"MatMul_w": ((1, 1), (1, 1))})
    net = _MatMulNet()
    parallel = AutoParallel(net)
    parallel.load_param_strategy_file(path)
    out = parallel(Tensor(np.ones((1, 2), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[3.0, 5.0, 7.0]])
    assert net.matmul.in_strategy == ((1, 1), (1, 1))
    missing = AutoParallel(_MatMulNet())
    missing.load_param_strategy_file(str(tmp_path / "none.ckpt"))
    with pytest.raises(RuntimeError, match="the strategy checkpoint file to load is not found"):
        missing(Tensor(np.ones((1, 2), np.float32)))


def test_float32_gradient_communication_settings():
    """A float16 parameter's gradient is all-reduced in float32 unless both ``gradient_fp32_sync`` is off and
    ``force_fp32_communication`` is not set; a float32 one needs no conversion."""
    from mindspore.parallel._mirror import gradient_settings
    half = Parameter(Tensor(np.ones(2, np.float16)), name="half")
    assert gradient_settings(half)[-1] is True                        # gradient_fp32_sync: True by default
    assert gradient_settings(Parameter(Tensor(np.ones(2, np.float32)), name="full")) is None
    ms.set_auto_parallel_context(gradient_fp32_sync=False)
    assert gradient_settings(half) is None
    ms.set_auto_parallel_context(force_fp32_communication=True)
    assert gradient_settings(half)[-1] is True


def test_device_local_norm_parameter_needs_the_setting():
    from mindspore.parallel import _mirror
    saved = list(_mirror._device_norm)
    _mirror._device_norm.clear()
    try:
        with pytest.raises(ValueError, match="The parallel config 'dump_device_local_norm' is False."):
            _mirror.get_squared_device_local_norm_param()
        ms.set_auto_parallel_context(dump_device_local_norm=True)
        param = _mirror.get_squared_device_local_norm_param()
        assert param.name == "_squared_device_local_norm" and param.dtype == ms.float32 and not param.requires_grad
    finally:
        _mirror._device_norm[:] = saved


def test_is_sharding_propagation_reads_the_search_mode():
    # mindspore.parallel._utils._is_sharding_propagation, which outside layers (MindOCR's ABINet) import
    from mindspore.parallel._utils import _is_sharding_propagation
    assert not _is_sharding_propagation()    # 2.10's default search mode: recursive_programming
    ms.set_auto_parallel_context(search_mode="sharding_propagation")
    assert _is_sharding_propagation()
    ms.set_auto_parallel_context(search_mode="dynamic_programming")
    assert not _is_sharding_propagation()
