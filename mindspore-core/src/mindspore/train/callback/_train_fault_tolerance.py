"""``TrainFaultTolerance``: MindSpore's bridge to MindIO TFT (Ascend fault tolerance: checkpoint-on-failure,
UCE/ARF repair, step pausing), configured by the environment variable ``MS_ENABLE_TFT``.

What MindSpore 2.10 does off Ascend is reproduced: the argument check, and for the configurations that need
MindIO (``TTP:1``, ``UCE:1``, ``ARF:1``, ``TSP:1``, ``HCCE:1``) or none at all, the same ``ValueError``; the
``TRE:1``-only configuration (training-result-error detection, whose checks MindSpore runs inside the Ascend
optimizer kernels) constructs and leaves training untouched, as it does on CPU there. The parameter-snapshot modes
(``TRE:2``, ``MS_ENABLE_CKPT_D2H_ASYNC=1``) and ``ATO:1`` copy device memory through Ascend streams; they are
refused with a clear RuntimeError.
"""
from __future__ import annotations

import os

from mindspore.train.callback._callback import Callback

__all__ = ["TrainFaultTolerance"]

_NEED_MINDIO = ["TTP:1", "UCE:1", "ARF:1", "TSP:1", "HCCE:1"]


class TrainFaultTolerance(Callback):
    """Enable MindIO TFT fault tolerance (Ascend only; see the module notes for other devices).

    Args:
        ckpt_save_path (str): where checkpoints are saved on failure. Default: ``None``.
        kwargs: ``ckpt_save_fn`` (a function saving a checkpoint), ``ckpt_load_fn``, ``initial_step``.

    Raises:
        ValueError: neither ``ckpt_save_path`` nor ``ckpt_save_fn`` is given; MindIO features are requested (or
            none) off Ascend.
        RuntimeError: a snapshot or ATO mode is requested off Ascend.
    """

    def __init__(self, ckpt_save_path=None, **kwargs):
        super().__init__()
        env = os.getenv("MS_ENABLE_TFT", "")
        if "ATO:1" in env:
            raise RuntimeError("For 'TrainFaultTolerance', 'ATO:1' in MS_ENABLE_TFT (adaptive checkpoint "
                               "optimization) is only supported on Ascend.")
        import mindspore.context as context
        tsp_only = "TSP:1" in env and not any(flag in env for flag in ("TTP:1", "UCE:1", "ARF:1", "TRE:1"))
        if tsp_only:   # MindSpore sets this mode up before it looks at the checkpoint arguments
            raise ValueError(f"MindIO adapter only support on Ascend device but got device "
                             f"{context.get_context('device_target')}!")
        self.save_cb = kwargs.get("ckpt_save_fn", None)
        self.ckpt_save_path = ckpt_save_path
        if self.save_cb is None and self.ckpt_save_path is None:
            raise ValueError("TrainFaultTolerance construct need to set ckpt_save_fn or ckpt_save_path!")
        self.initial_step = kwargs.get("initial_step", 0)
        self.ckpt_load_func = kwargs.get("ckpt_load_fn", None)
        self.cur_step_num = 0
        self.cur_epoch_num = 0
        self.device_id = context.get_context("device_id")
        if "TRE:2" in env or (not env and os.getenv("MS_ENABLE_CKPT_D2H_ASYNC") == "1"):
            raise RuntimeError("For 'TrainFaultTolerance', the parameter snapshot ('TRE:2' in MS_ENABLE_TFT or "
                               "MS_ENABLE_CKPT_D2H_ASYNC=1) copies parameters through Ascend streams and is only "
                               "supported on Ascend.")
        self._tre_only = "TRE:1" in env and not any(flag in env for flag in _NEED_MINDIO)
        if self._tre_only:
            return
        if not any(flag in env for flag in _NEED_MINDIO):
            raise ValueError(f"MindIO TFT register need custom switch on one of:{_NEED_MINDIO}")
        if "ARF:1" in env:
            raise ValueError("Must init by _tft_handler.init(config=params) if use ARF.")
        raise ValueError(f"MindIO adapter only support on Ascend device but got device "
                         f"{context.get_context('device_target')}!")

    def on_train_step_end(self, run_context):
        """Track the step (the TRE checks themselves run in the Ascend optimizer kernels)."""
        cb_params = run_context.original_args()
        self.cur_step_num = cb_params.cur_step_num
        self.cur_epoch_num = cb_params.cur_epoch_num
