"""``BackupAndRestore``: back the train network up to ``<backup_dir>/backup.ckpt`` every ``save_freq`` epochs,
restore it at the next ``train`` start, delete it when training ends (MindSpore's callback)."""
from __future__ import annotations

import os
import stat

import mindspore.log as logger
from mindspore.train.callback._callback import Callback
from mindspore.train.callback._cb_checks import check_bool, check_positive_int, make_directory

__all__ = ["BackupAndRestore"]


class BackupAndRestore(Callback):
    """Back up and restore training state so an interrupted run resumes from its last backup.

    Args:
        backup_dir (str): directory of the backup file.
        save_freq (Union[str, int]): ``"epoch"`` (every epoch) or a positive number of epochs. Default: ``"epoch"``.
        delete_checkpoint (bool): delete the backup when training finishes. Default: ``True``.

    Examples:
        >>> from mindspore import nn
        >>> from mindspore.train import Model, BackupAndRestore
        >>> net = nn.Dense(2, 1)
        >>> model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.01, 0.9))
        >>> backup_ckpt = BackupAndRestore("backup")
    """

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        ckpt_dir = make_directory(backup_dir)
        self.backup_file = os.path.join(ckpt_dir, "backup.ckpt")
        self.save_freq = 1 if save_freq == "epoch" else check_positive_int(save_freq)
        self.delete_checkpoint = check_bool(delete_checkpoint)

    def on_train_begin(self, run_context):
        """Load the backup into the train network, if there is one."""
        if os.path.exists(self.backup_file):
            from mindspore.train.serialization import load_checkpoint
            logger.info(f"Restore checkpoint file is {self.backup_file}, load checkpoint into train net.")
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context):
        """Save the backup every ``save_freq`` epochs."""
        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            from mindspore.train.serialization import save_checkpoint
            logger.info(f"Train task end, backup checkpoint file: {self.backup_file}.")
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context):
        """Delete the backup (``delete_checkpoint``)."""
        cb_params = run_context.original_args()
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            logger.info(f"Delete restore checkpoint file {self.backup_file} at {cb_params.cur_epoch_num} epoch.")
            os.chmod(self.backup_file, stat.S_IWRITE | stat.S_IREAD)
            os.remove(self.backup_file)
