"""``OnRequestExit``: stop training or evaluation when the process gets an exit signal (``SIGTERM`` by default) or
a JSON config file says ``{"GracefulExit": 1}``, saving the network as a checkpoint and a MindIR first.

Files go to ``<directory>/rank_<device id>/<file_name>_train`` (``_eval`` for evaluation) + ``.ckpt``/``.mindir``;
a checkpoint found there at the next start is loaded into the network, so a stopped run resumes. The signal is
handled between steps: the step running when it arrives completes, then the run stops and saves.
(MindSpore additionally supports a multi-device variant driven by ``MS_ENABLE_GRACEFUL_EXIT`` and parameters its
TrainOneStepCell adds; that cross-rank agreement is not implemented here.)
"""
from __future__ import annotations

import json
import os
import signal
import threading

import mindspore.log as logger
from mindspore.train.callback._callback import Callback
from mindspore.train.callback._cb_checks import check_isinstance, make_directory

__all__ = ["OnRequestExit"]


class OnRequestExit(Callback):
    """Respond to an exit request: finish the current step, save checkpoint and MindIR, stop.

    Args:
        save_ckpt (bool): save a checkpoint when exiting. Default: ``True``.
        save_mindir (bool): export a MindIR when exiting. Default: ``True``.
        file_name (str): base name of the saved files. Default: ``"Net"``.
        directory (str): where to save (a ``rank_<id>`` sub-directory is used). Default: ``"./"``.
        config_file (str): a JSON file polled at every step; ``{"GracefulExit": 1}`` requests the exit.
            Default: ``None``.
        sig (int): the signal that requests the exit. Default: ``signal.SIGTERM``.

    Raises:
        ValueError: a wrong argument type, or ``sig`` is ``SIGKILL`` (it cannot be handled).

    Examples:
        >>> from mindspore.train import OnRequestExit
        >>> on_exit = OnRequestExit(file_name='LeNet5', directory='./exit_dir')
    """

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./", config_file=None,
                 sig=signal.SIGTERM):
        super().__init__()
        self.save_ckpt = check_isinstance("save_ckpt", save_ckpt, bool)
        self.save_mindir = check_isinstance("save_mindir", save_mindir, bool)
        self.sig = check_isinstance("sig", sig, int)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.stop_train = False
        self._previous_handler = None
        if self.save_ckpt or self.save_mindir:
            self.train_name, self.eval_name = self._get_save_path(file_name)

    def _get_save_path(self, file_name):
        import mindspore.context as context
        base = os.getcwd() if self.save_path is None else self.save_path
        path = make_directory(os.path.join(base, "rank_" + str(context.get_context("device_id"))))
        return os.path.join(path, f"{file_name}_train"), os.path.join(path, f"{file_name}_eval")

    def _handle_signal(self, signum, frame):
        logger.debug(f"signum: {signum}, frame: {frame}")
        self.exit = True

    def _install_handler(self):
        try:
            self._previous_handler = signal.signal(self.sig, self._handle_signal)
        except ValueError:   # not the main thread: only the config file can request the exit
            logger.warning("OnRequestExit can only handle signals in the main thread; use 'config_file' instead.")

    def _restore_handler(self):
        if self._previous_handler is not None:
            try:
                signal.signal(self.sig, self._previous_handler)
            except ValueError:
                pass
            self._previous_handler = None

    def _check_config_info(self):
        if self.remote_config_file is None or not os.path.exists(self.remote_config_file):
            return False
        with open(self.remote_config_file, "r", encoding="utf-8") as f:
            try:
                config_info = json.load(f)
            except json.JSONDecodeError as e:
                logger.warning(f"Parse json file failed: {e}, please check json file: {self.remote_config_file}")
                return False
        return isinstance(config_info, dict) and config_info.get(self.key) == 1

    def _save(self, net, name, inputs, forward=None):
        from mindspore.train.serialization import save_checkpoint
        if self.save_ckpt:
            save_checkpoint(net, name)
        if self.save_mindir and inputs is not None:
            from mindspore._deploy.api import export
            inputs = tuple(inputs) if isinstance(inputs, (list, tuple)) else (inputs,)
            try:
                export(net, *inputs, file_name=name, file_format="MINDIR")
            except ValueError as exc:
                # the MindIR writer cannot express every training-step operator (optimizer updates); the
                # forward network, fed the data columns without the label, is exported instead
                if forward is None or forward is net or len(inputs) < 2:
                    logger.warning(f"OnRequestExit could not export the MindIR: {exc}")
                    return
                logger.warning(f"OnRequestExit exports the forward network as MindIR: the train network can not be "
                               f"exported ({exc}).")
                export(forward, *inputs[:-1], file_name=name, file_format="MINDIR")

    @staticmethod
    def _load_if_present(path, net):
        if os.path.isfile(path):
            from mindspore.train.serialization import load_checkpoint
            load_checkpoint(path, net=net)
            return True
        return False

    def on_train_begin(self, run_context):
        """Install the signal handler; load ``<file_name>_train.ckpt`` if a previous run saved one."""
        self._install_handler()
        if self.save_ckpt:
            self._load_if_present(f"{self.train_name}.ckpt", run_context.original_args().train_network)

    def on_train_step_begin(self, run_context):
        """Poll the config file."""
        with self.lock:
            if not self.exit and self._check_config_info():
                self.exit = True

    def on_train_step_end(self, run_context):
        """Stop after this step if an exit was requested."""
        with self.lock:
            if self.exit and not self.stop_train:
                logger.warning("Graceful exit is triggered, stop training.")
                run_context.request_stop()
                self.stop_train = True

    def on_train_epoch_end(self, run_context):
        """Stop after this epoch if an exit was requested (sink mode has no step ends)."""
        self.on_train_step_end(run_context)

    def on_train_end(self, run_context):
        """Save checkpoint and MindIR if the run is ending because of an exit request."""
        self._restore_handler()
        if not self.exit:
            return
        cb_params = run_context.original_args()
        self._save(cb_params.train_network, self.train_name, getattr(cb_params, "train_dataset_element", None),
                   getattr(cb_params, "network", None))

    def on_eval_begin(self, run_context):
        """Install the signal handler; load the eval (else the train) checkpoint of a previous run."""
        self._install_handler()
        if not self.save_ckpt:
            return
        net = run_context.original_args().eval_network
        if not self._load_if_present(f"{self.eval_name}.ckpt", net):
            self._load_if_present(f"{self.train_name}.ckpt", net)

    def on_eval_step_end(self, run_context):
        """Stop evaluating if an exit was requested."""
        if self.exit or self._check_config_info():
            self.exit = True
            run_context.request_stop()

    def on_eval_end(self, run_context):
        """Save the eval network if the evaluation ends because of an exit request."""
        self._restore_handler()
        if not self.exit:
            return
        cb_params = run_context.original_args()
        self._save(cb_params.eval_network, self.eval_name, getattr(cb_params, "eval_dataset_element", None))
