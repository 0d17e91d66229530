"""Training fault tolerance helpers MindSpore exports from ``mindspore.utils``.

:class:`ExitByRequest` lets every rank agree, inside the training step, to stop when all of them asked to (an
all-reduce of the ranks' requests). :class:`TFTCommValue` names the ``MS_ENABLE_TFT`` switches, and
:class:`RSCPluginHandle` registers the training process's callbacks with Huawei MindX's task daemon (``taskd``)
when ``MS_ENABLE_TFT`` turns its process recovery on; without ``taskd`` installed, registration fails (False)
and :meth:`RSCPluginHandle.start` says so.
"""
import os

from mindspore._errors import MSRuntimeError, MSValueError
from mindspore.log import warning
from mindspore.nn.wrap._exit_by_request import ExitByRequest  # noqa: F401 - defined beside TrainOneStepCell, its user

__all__ = ["ExitByRequest", "TFTCommValue", "RSCPluginHandle"]


class TFTCommValue:
    """The ``MS_ENABLE_TFT`` switches (``"{TTP:1,UCE:1,...}"``) by what they need."""
    ENABLE_MINDX = ["TTP:1", "UCE:1", "ARF:1", "TSP:1", "HCCE:1", "RSC:1"]
    NEED_MINDIO = ["TTP:1", "UCE:1", "ARF:1", "TSP:1", "HCCE:1"]
    DISABLE_WATCHDOG = ["ARF:1", "TSP:1", "HCCE:1"]


class RSCPluginHandle:
    """The link to MindX's task daemon for process-level recovery (enabled when ``MS_ENABLE_TFT`` holds one of
    :attr:`TFTCommValue.ENABLE_MINDX`)."""

    def __init__(self):
        self.tft_env = os.getenv("MS_ENABLE_TFT", "").strip()
        self.enable = False
        self._check_env()
        self.msmgr = None
        self.init_taskd_agent = None
        self.start_taskd_agent = None
        self.register_func = None
        self.using_agent = False

    def _check_env(self):
        self.enable = any(v in self.tft_env for v in TFTCommValue.ENABLE_MINDX)

    def check_enable(self):
        """Whether ``MS_ENABLE_TFT`` asks for MindX recovery."""
        return self.enable

    def _register_by_agent(self, func_map):
        try:
            from taskd.api.taskd_agent_api import init_taskd_agent, register_func, start_taskd_agent
        except ImportError as e:
            warning(f"Import task agent: {e}, try to using mindx plugin.")
            return False
        self.init_taskd_agent, self.start_taskd_agent, self.register_func = (init_taskd_agent, start_taskd_agent,
                                                                             register_func)
        try:
            if not self.init_taskd_agent({"Framework": "MindSpore"}):
                warning("Init taskd agent failed, try to using mindx plugin.")
                return False
            for name, func in func_map.items():
                self.register_func(name, func)
        except Exception as e:  # noqa: BLE001 - the daemon's failures fall back to the plugin, as in MindSpore
            warning(f"Register callback func failed: {e}, try to using mindx plugin.")
            return False
        self.using_agent = True
        return True

    def _register_by_plugin(self, func_map):
        self.using_agent = False
        try:
            from taskd.python.framework.agent.ms_mgr.msrun_plugin import MSRunPlugin
            self.msmgr = MSRunPlugin()
        except Exception as e:  # noqa: BLE001 - any failure to load it means msrun keeps control
            warning(f"Import mindx failed: {e}, process controlled by msrun.")
            return False
        try:
            for name, func in func_map.items():
                self.msmgr.register_callbacks(name, func)
        except Exception as e:  # noqa: BLE001
            warning(f"Register callback func failed: {e}, process controlled by msrun")
            return False
        return True

    def register_callback(self, func_map):
        """Register ``{name: function}`` with the task daemon (its agent, else its msrun plugin); whether it
        worked.

        Raises:
            ValueError: ``func_map`` is not a dict.
        """
        if not isinstance(func_map, dict):
            raise MSValueError(f"The value of 'func_map' should be a dict, bug got:{func_map}.")
        return self._register_by_agent(func_map) or self._register_by_plugin(func_map)

    def start(self):
        """Hand the training over to the task daemon.

        Raises:
            RuntimeError: no daemon was registered with.
        """
        if self.using_agent:
            self.start_taskd_agent()
            return
        if self.msmgr is None:
            raise MSRuntimeError("Mindx unavailable, can not start training.")
        self.msmgr.start()
