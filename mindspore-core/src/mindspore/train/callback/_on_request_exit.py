"""``OnRequestExit``: stop training or evaluation when the process gets an exit signal (``SIGTERM`` by default) or
(with ``MS_ENABLE_GRACEFUL_EXIT=1``, as MindSpore) a JSON config file says ``{"GracefulExit": 1}``, saving the
network as a checkpoint and a MindIR first.

Files go to ``<directory>/rank_<device id>/<file_name>_train`` (``_eval`` for evaluation) + ``.ckpt``/``.mindir``;
a checkpoint found there at the next start is loaded into the network, so a stopped run resumes. The signal is
handled between steps: the step running when it arrives completes, then the run stops and saves.
With ``MS_ENABLE_GRACEFUL_EXIT=1`` the request goes through the parameters ``TrainOneStepCell`` then adds
(``graceful_init``, ``graceful_exit``; all ranks agree through ``mindspore.utils.ExitByRequest``) and the checkpoint
saved at that step end also holds ``epoch_num``, ``step_num``, ``batch_num`` and ``global_step``, as MindSpore's.
"""
from __future__ import annotations

import json
import os
import signal
import threading

import mindspore.log as logger
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor
from mindspore.train.callback._callback import Callback
from mindspore.train.callback._cb_checks import check_isinstance, make_directory

__all__ = ["OnRequestExit"]


def _group_size():
    from mindspore._plugin.collective import process_group, world_group
    return process_group(world_group()).size


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
        # MindSpore's graceful exit: with MS_ENABLE_GRACEFUL_EXIT=1 the config file is polled at every step begin
        # and its request goes through the train cell's 'graceful_init'/'graceful_exit' parameters (see
        # TrainOneStepCell); without it the config file is not read (as MindSpore)
        self.use_graceful = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        self.need_do_step_end = False
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
        """With ``MS_ENABLE_GRACEFUL_EXIT=1``: poll the config file; on a request (or the signal) mark it in the train
        cell (``graceful_exit`` in one process, ``graceful_init`` for the ranks' agreement)."""
        with self.lock:
            if not self.use_graceful or self.need_do_step_end:
                return
            if self._check_config_info() or self.exit:
                distributed = _group_size() > 1
                for _, param in run_context.original_args().train_network.parameters_and_names():
                    if not distributed and param.name == "graceful_exit":
                        param.set_data(Tensor(True, mstype.bool_))
                        self.need_do_step_end = True
                        break
                    if param.name == "graceful_init":
                        param.set_data(Tensor([1], mstype.int32))
                        self.need_do_step_end = True
                        break

    def on_train_step_end(self, run_context):
        """Stop after this step if an exit was requested: by the signal, or (``MS_ENABLE_GRACEFUL_EXIT=1``) when the
        train cell's ``graceful_exit`` says all ranks agreed; the latter saves here, with the step's position."""
        with self.lock:
            if self.stop_train:
                return
            if self.need_do_step_end:
                self._graceful_step_end(run_context)
            elif self.exit:
                logger.warning("Graceful exit is triggered, stop training.")
                run_context.request_stop()
                self.stop_train = True

    def _graceful_step_end(self, run_context):
        cb_params = run_context.original_args()
        net = cb_params.train_network
        for _, param in net.parameters_and_names():
            if param.name == "graceful_exit" and bool(param.asnumpy()):
                logger.warning("Graceful exit is triggered, stop training.")
                if self.save_ckpt:
                    from mindspore.train.serialization import save_checkpoint
                    append_dict = {"epoch_num": cb_params.cur_epoch_num, "step_num": cb_params.cur_step_num,
                                   "batch_num": cb_params.batch_num}
                    manager = cb_params.get("loss_scale_mananger")
                    if manager is not None:
                        append_dict["loss_scale"] = manager.get_loss_scale()
                    optimizer = cb_params.optimizer if cb_params.get("optimizer") is not None \
                        else cb_params.network.optimizer
                    append_dict["global_step"] = int(optimizer.global_step.asnumpy().reshape(-1)[0])
                    save_checkpoint(net, self.train_name, append_dict=append_dict)
                if self.save_mindir:
                    save_ckpt, self.save_ckpt = self.save_ckpt, False
                    try:
                        self._save(net, self.train_name, cb_params.get("train_dataset_element"),
                                   cb_params.get("network"))
                    finally:
                        self.save_ckpt = save_ckpt
                run_context.request_stop()
                self.stop_train = True
                return

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
