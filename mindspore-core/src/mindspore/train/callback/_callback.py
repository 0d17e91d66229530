"""Callback protocol of ``Model.train``/``eval``/``fit``: Callback, RunContext and the callback list.

``Model`` keeps one ``cb_params`` dict (attribute access allowed) per run, wraps it in a
:class:`RunContext`, and calls every callback at fixed points, in list order::

    on_train_begin
      on_train_epoch_begin
        on_train_step_begin / on_train_step_end       (per step; once per sink in GRAPH sink mode)
        [fit: on_eval_begin, on_eval_epoch_begin, on_eval_step_begin/end ..., on_eval_epoch_end, on_eval_end]
      on_train_epoch_end
    on_train_end

Each ``on_train_*``/``on_eval_*`` method of the base class forwards to the legacy name (``begin``,
``epoch_begin``, ``step_begin``, ``step_end``, ``epoch_end``, ``end``), so old-style callbacks that
override only those still run, exactly as in MindSpore. Callbacks are context managers: the
manager enters all of them before training and exits them afterwards, also on error.
"""
from __future__ import annotations

from contextlib import ExitStack

import numpy as np

from mindspore.common.tensor import Tensor

__all__ = ["Callback", "RunContext"]

#: MindSpore's "current network" of a checkpoint save: on Ascend's GE backend the checkpoint graph hands the saved
#: parameters back into it. Libraries that write their own checkpoint callbacks register it with ``set_cur_net``.
CUR_NET = None


def set_cur_net(net):
    """Record ``net`` (a Cell, or None) as the network whose checkpoint is being saved (MindSpore's helper)."""
    global CUR_NET
    CUR_NET = net


class Callback:
    """Base class of callbacks: override the ``on_train_*`` / ``on_eval_*`` methods you need.

    Every method receives a :class:`RunContext`; ``run_context.original_args()`` is the dict of run
    information (``cur_epoch_num``, ``cur_step_num``, ``batch_num``, ``net_outputs``, ...).

    Examples:
        >>> from mindspore.train import Callback
        >>> class PrintStep(Callback):
        ...     def on_train_step_end(self, run_context):
        ...         print("step_num:", run_context.original_args().cur_step_num)
    """

    def __enter__(self):
        return self

    def __exit__(self, *err):
        """Release resources here if any."""

    # legacy names, called by the default on_train_* / on_eval_* methods
    def begin(self, run_context):
        """Called once before training or evaluation (legacy alias)."""

    def epoch_begin(self, run_context):
        """Called before each epoch (legacy alias)."""

    def epoch_end(self, run_context):
        """Called after each epoch (legacy alias)."""

    def step_begin(self, run_context):
        """Called before each step (legacy alias)."""

    def step_end(self, run_context):
        """Called after each step (legacy alias)."""

    def end(self, run_context):
        """Called once after training or evaluation (legacy alias)."""

    def on_train_begin(self, run_context):
        """Called once before training."""
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        """Called before each training epoch."""
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        """Called after each training epoch."""
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        """Called before each training step."""
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        """Called after each training step."""
        self.step_end(run_context)

    def on_train_end(self, run_context):
        """Called once after training."""
        self.end(run_context)

    def on_eval_begin(self, run_context):
        """Called once before evaluation."""
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        """Called before the evaluation epoch."""
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        """Called after the evaluation epoch."""
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        """Called before each evaluation step."""
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        """Called after each evaluation step."""
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        """Called once after evaluation."""
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_epoch_end",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


class _CallbackManager(Callback):
    """Runs a list of callbacks in order; entering it enters each callback (an ExitStack)."""

    def __init__(self, callbacks):
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' must be Callback "
                                    "functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    def __enter__(self):
        if self._stack is None:
            stack = ExitStack().__enter__()
            entered = []
            try:
                for cb in self._callbacks:
                    target = stack.enter_context(cb)
                    entered.append(target if isinstance(target, Callback) else cb)
            except BaseException:
                stack.close()
                raise
            self._callbacks, self._stack = entered, stack
        return self

    def __exit__(self, *err):
        stack, self._stack = self._stack, None
        return stack.__exit__(*err) if stack is not None else False


def _make_dispatch(hook):
    def dispatch(self, run_context):
        for cb in self._callbacks:
            getattr(cb, hook)(run_context)
    dispatch.__name__ = hook
    dispatch.__doc__ = f"Call ``{hook}`` of every callback, in order."
    return dispatch


for _hook in _HOOKS:
    setattr(_CallbackManager, _hook, _make_dispatch(_hook))


class _InternalCallbackParam(dict):
    """The run information handed to callbacks: a dict whose keys are also attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"'cb_params' has no attribute '{key}'") from None

    def __setattr__(self, key, value):
        self[key] = value

    def __delattr__(self, key):
        try:
            del self[key]
        except KeyError:
            raise AttributeError(f"'cb_params' has no attribute '{key}'") from None


class RunContext:
    """Holds the run information of ``Model`` and lets callbacks request a stop.

    Args:
        original_args (dict): The run information (``Model`` passes its ``cb_params``).

    Raises:
        TypeError: If ``original_args`` is not a dict.

    Examples:
        >>> from mindspore.train import RunContext
        >>> ctx = RunContext({"cur_epoch_num": 4, "epoch_num": 4})
        >>> ctx.request_stop()
        >>> ctx.get_stop_requested()
        True
    """

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The run information dict (``cb_params``)."""
        return self._original_args

    def request_stop(self):
        """Ask ``Model`` to stop after the current step (train) / epoch, or the current eval step."""
        self._stop_requested = True

    def get_stop_requested(self):
        """Whether a stop was requested."""
        return self._stop_requested


def _handle_loss(loss):
    """The loss to report from network outputs: first element of a tuple, the mean (float) of a Tensor."""
    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], Tensor):
            loss = loss[0]
    elif isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss
