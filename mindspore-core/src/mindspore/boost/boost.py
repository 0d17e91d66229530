"""``AutoBoost``: which boost algorithms a training uses, by level (``"O0"`` none, ``"O1"`` less-BN and gradient
freezing, ``"O2"`` also AdaSum) or by a configuration dict (``{"boost": {"mode": "manual", "less_bn": True,
...}, "grad_freeze": {"freeze_p": 0.7, ...}, "common": {...}}``), and how it rewrites the network and optimizer
for training (:meth:`AutoBoost.network_auto_process_train`) and evaluation. One instance per process, as in
MindSpore: the first construction decides, later ones return it.
"""
import copy
import threading

from mindspore.boost.base import OptimizerProcess, ParameterProcess, pca_matrix
from mindspore.boost.grad_freeze import GradientFreeze
from mindspore.boost.less_batch_normalization import LessBN
from mindspore._errors import MSValueError

__all__ = ["AutoBoost"]

_MODES = ["auto", "manual", "enable_all", "disable_all"]
_LEVELS = {
    "O0": {"less_bn": False, "grad_freeze": False, "adasum": False, "grad_accumulation": False, "dim_reduce": False,
           "loss_scale_group": False},
    "O1": {"less_bn": True, "grad_freeze": True, "adasum": False, "grad_accumulation": False, "dim_reduce": False,
           "loss_scale_group": False},
    "O2": {"less_bn": True, "grad_freeze": True, "adasum": True, "grad_accumulation": False, "dim_reduce": False,
           "loss_scale_group": False},
}
_SETTINGS = {"fn_flag": "_fn_flag", "gc_flag": "_gc_flag", "param_groups": "_param_groups",
             "freeze_type": "_freeze_type", "freeze_p": "_freeze_p", "total_steps": "_total_steps",
             "device_number": "device_number", "grad_accumulation_step": "grad_accumulation_step", "rho": "rho",
             "gamma": "gamma", "alpha": "alpha", "sigma": "sigma", "n_components": "n_components",
             "pca_mat_path": "pca_mat_path", "weight_load_dir": "weight_load_dir", "timeout": "timeout"}


class AutoBoost:
    """The boost configuration of this process.

    Args:
        level (str): ``"O0"``, ``"O1"`` or ``"O2"`` (another value means ``"O0"``). Default ``"O0"``.
        boost_config_dict (dict): overrides (see the module docstring). Default ``""``.

    Raises:
        ValueError: an unknown ``mode`` in ``boost_config_dict["boost"]``.

    Examples:
        >>> from mindspore import boost, nn
        >>> net = nn.Dense(3, 2)
        >>> ab = boost.AutoBoost("O1")
        >>> net, opt = ab.network_auto_process_train(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))
    """

    _instance_lock = threading.Lock()
    _instance = None

    def __new__(cls, *args, **kwargs):
        with cls._instance_lock:
            if cls._instance is None:
                cls._instance = object.__new__(cls)
                cls._instance.level = None
        return cls._instance

    def __init__(self, level="O0", boost_config_dict=""):
        if self.level is not None:
            return
        if level not in _LEVELS:
            level = "O0"
        self.level = level
        self.boost_config_dict = boost_config_dict
        self._fn_flag, self._gc_flag = True, True
        self._param_groups, self._freeze_type, self._freeze_p, self._total_steps = 10, 1, 0.7, 65536
        self.gradient_groups = None
        self.device_number = 8
        self.grad_accumulation_step = 1
        self.rho, self.gamma, self.alpha, self.sigma, self.n_components = 0.55, 0.9, 0.001, 0.4, 32
        self.pca_mat_path = self.weight_load_dir = self.local_pca_mat_path = None
        self.timeout = 1800
        self.boost_config = self._get_configuration(level, boost_config_dict)
        self._param_processer = ParameterProcess()

    @classmethod
    def _reset(cls):
        """Forget the instance (tests; MindSpore keeps it for the process)."""
        with cls._instance_lock:
            cls._instance = None

    def network_auto_process_train(self, network, optimizer):
        """``(network, optimizer)`` rewritten for training by the enabled algorithms."""
        from mindspore.nn.optim.sgd import SGD
        if self.boost_config.get("dim_reduce"):
            self.local_pca_mat = pca_matrix(self.weight_load_dir, self.pca_mat_path, self.n_components, network)
            self.local_pca_mat_path = self.pca_mat_path
            optimizer = SGD(network.trainable_params(), learning_rate=1)
            optimizer.dim_reduce = True
            return network, optimizer
        if self.boost_config.get("less_bn"):
            network = LessBN(network, fn_flag=self._fn_flag)
            process = OptimizerProcess(optimizer)
            groups = self._param_processer.assign_parameter_group(network.trainable_params(), self.gradient_groups)
            process.origin_params = ParameterProcess.generate_group_params(groups, process.origin_params)
            if self._gc_flag:
                process.add_grad_centralization(network)
            optimizer = process.generate_new_optimizer()
        if self.boost_config.get("grad_freeze"):
            freezer = GradientFreeze(self._param_groups, self._freeze_type, self._freeze_p, self._total_steps)
            network, optimizer = freezer.freeze_generate(network, optimizer)
        if self.boost_config.get("adasum"):
            optimizer.adasum = True
        return network, optimizer

    def network_auto_process_eval(self, network):
        """``network`` rewritten for evaluation (the less-BN head, when it is enabled)."""
        if self.boost_config.get("dim_reduce"):
            return network
        if self.boost_config.get("less_bn"):
            network = LessBN(network)
        return network

    def _get_configuration(self, level, boost_config_dict):
        config = copy.deepcopy(_LEVELS[level])
        if not boost_config_dict:
            return config
        mode = boost_config_dict.get("boost", {}).get("mode", "auto")
        if mode not in _MODES:
            raise MSValueError(f"The boost mode must be in {_MODES}, but got {mode}")
        if mode == "manual":
            for key, value in boost_config_dict["boost"].items():
                if key in config:
                    config[key] = value
        elif mode == "enable_all":
            config = {key: True for key in config}
        elif mode == "disable_all":
            config = {key: False for key in config}
        for key, section in boost_config_dict.items():
            if (key in config and config[key]) or key == "common":
                for name, value in section.items():
                    if name == "gradient_split_groups":
                        if not isinstance(value, (list, int)):
                            raise MSValueError(f"gradient_split_groups `{value}` is not in (list, int)")
                        self.gradient_groups = [value] if isinstance(value, int) else value
                    elif name in _SETTINGS:
                        setattr(self, _SETTINGS[name], value)
        return config
