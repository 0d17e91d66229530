"""Dataset callbacks: ``DSCallback`` (hooks run by ``map`` operations) and ``WaitedDSCallback`` (a
``DSCallback`` that is also a training ``Callback`` and waits for training's epoch/step ends).

A map called with ``callbacks=[...]`` calls, for each callback (MindSpore's order and numbering):

- ``ds_begin`` once, before the first row of the pipeline (all counters 0);
- ``ds_epoch_begin`` before each epoch (``cur_epoch_num`` from 1, ``cur_step_num`` the steps done so far,
  ``cur_step_num_in_epoch`` 0) and ``ds_epoch_end`` after it;
- ``ds_step_begin`` when row ``k`` (from 1 in the epoch) is handed to the operations and ``ds_step_end`` when
  its result comes back, for the steps with ``(k - 1) % step_size == 0``. With parallel workers several
  steps can begin before the first one ends, as in MindSpore.
"""
import threading

__all__ = ["DSCallback"]   # WaitedDSCallback: module __getattr__ (built on first use)


def _check_step_size(step_size):
    if isinstance(step_size, bool) or not isinstance(step_size, int):
        raise TypeError(f"Argument step_size with value {step_size!r} is not of type [<class 'int'>], but got "
                        f"{type(step_size)}.")
    if not 1 <= step_size <= 2147483647:
        raise ValueError("Input step_size is not within the required interval of [1, 2147483647].")


class DSRunContext:
    """What the ``ds_*`` hooks receive: ``cur_epoch_num``, ``cur_step_num`` and ``cur_step_num_in_epoch``."""

    __slots__ = ("cur_epoch_num", "cur_step_num", "cur_step_num_in_epoch")

    def __init__(self, cur_epoch_num=0, cur_step_num=0, cur_step_num_in_epoch=0):
        self.cur_epoch_num = cur_epoch_num
        self.cur_step_num = cur_step_num
        self.cur_step_num_in_epoch = cur_step_num_in_epoch

    def __repr__(self):
        return (f"DSRunContext(cur_epoch_num={self.cur_epoch_num}, cur_step_num={self.cur_step_num}, "
                f"cur_step_num_in_epoch={self.cur_step_num_in_epoch})")


class DSCallback:
    """Base class of dataset callbacks: override the ``ds_*`` hooks and pass instances to ``map(callbacks=...)``.

    Args:
        step_size (int, optional): call ``ds_step_begin``/``ds_step_end`` every `step_size` rows. Default: 1.

    Examples:
        >>> import mindspore.dataset as ds
        >>> from mindspore.dataset import DSCallback
        >>> class PrintInfo(DSCallback):
        ...     def ds_epoch_end(self, ds_run_context):
        ...         print(ds_run_context.cur_epoch_num, ds_run_context.cur_step_num)
        >>> data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(lambda x: x, callbacks=PrintInfo())
    """

    def __init__(self, step_size=1):
        _check_step_size(step_size)
        self.step_size = step_size

    def ds_begin(self, ds_run_context):
        """Called before the data pipeline starts."""

    def ds_epoch_begin(self, ds_run_context):
        """Called before an epoch starts."""

    def ds_epoch_end(self, ds_run_context):
        """Called after an epoch ends."""

    def ds_step_begin(self, ds_run_context):
        """Called before a step (a row of the map) starts."""

    def ds_step_end(self, ds_run_context):
        """Called after a step ends."""

    def create_runtime_obj(self):
        """The hooks this callback overrides, as ``{event: bound method}`` (the engine calls only those)."""
        hooks = {}
        for name in ("ds_begin", "ds_epoch_begin", "ds_epoch_end", "ds_step_begin", "ds_step_end"):
            if getattr(type(self), name) is not getattr(DSCallback, name):
                hooks[name] = getattr(self, name)
        return hooks


class CallbackRunner:
    """Calls the hooks of a map's callbacks for one iterator (created by ``MapDataset`` per runtime)."""

    def __init__(self, callbacks):
        self.entries = [(cb.step_size, cb.create_runtime_obj()) for cb in callbacks]
        self.epoch = 0
        self.step = 0
        self.started = False

    def _call(self, event, context, step_in_epoch=None):
        for step_size, hooks in self.entries:
            hook = hooks.get(event)
            if hook is None:
                continue
            if step_in_epoch is not None and (step_in_epoch - 1) % step_size:
                continue
            hook(context)

    def epoch_begin(self):
        if not self.started:
            self.started = True
            self._call("ds_begin", DSRunContext(0, 0, 0))
        self.epoch += 1
        self._epoch_start = self.step
        self._call("ds_epoch_begin", DSRunContext(self.epoch, self.step, 0))

    def step_begin(self):
        """Called when a row is dispatched; returns its context (for ``step_end``)."""
        self.step += 1
        context = DSRunContext(self.epoch, self.step, self.step - self._epoch_start)
        self._call("ds_step_begin", context, context.cur_step_num_in_epoch)
        return context

    def step_end(self, context):
        self._call("ds_step_end", context, context.cur_step_num_in_epoch)

    def epoch_end(self):
        self._call("ds_epoch_end", DSRunContext(self.epoch, self.step, self.step - self._epoch_start))


def _make_waited():
    """``WaitedDSCallback``, built on first use: its base ``mindspore.train.Callback`` lives in mindspore-core's
    training package, which the data engine does not import up front."""
    from mindspore.train.callback import Callback

    class WaitedDSCallback(Callback, DSCallback):
        """A dataset callback whose ``sync_epoch_begin``/``sync_step_begin`` run once training finished the
        previous epoch/step: pass it both to ``map(callbacks=...)`` and to ``Model.train(callbacks=...)``.

        The first epoch (and the first `step_size` steps) start without waiting; later ones wait until the
        training callback events ``epoch_end``/``step_end`` arrive. ``end`` releases any waiting pipeline.

        Args:
            step_size (int, optional): steps between two ``sync_step_begin`` calls. Default: 1.

        Examples:
            >>> from mindspore.dataset import WaitedDSCallback
            >>> class Sync(WaitedDSCallback):
            ...     def sync_epoch_begin(self, train_run_context, ds_run_context):
            ...         print("epoch", ds_run_context.cur_epoch_num)
        """

        def __init__(self, step_size=1):
            DSCallback.__init__(self, step_size)
            self.epoch_event = threading.Event()
            self.epoch_run_context = None
            self.step_event = threading.Event()
            self.step_run_context = None
            self._released = False

        def sync_epoch_begin(self, train_run_context, ds_run_context):
            """Called before a data epoch starts, once training finished its previous epoch."""

        def sync_step_begin(self, train_run_context, ds_run_context):
            """Called before a data step starts, once training finished its previous step."""

        def epoch_end(self, run_context):
            """Training hook: an epoch ended; lets the data pipeline start the next one."""
            self.epoch_run_context = run_context
            self.epoch_event.set()

        def ds_epoch_begin(self, ds_run_context):
            if ds_run_context.cur_epoch_num > 1:
                if not self._released:
                    self.epoch_event.wait()
                self.epoch_event.clear()
                self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

        def step_end(self, run_context):
            """Training hook: a step ended; lets the data pipeline start the next step."""
            self.step_run_context = run_context
            self.step_event.set()

        def ds_step_begin(self, ds_run_context):
            if ds_run_context.cur_step_num > self.step_size:
                if not self._released:
                    self.step_event.wait()
                self.step_event.clear()
                self.sync_step_begin(self.step_run_context, ds_run_context)

        def end(self, run_context):
            """Training hook: training ended; releases a pipeline waiting for an epoch or a step."""
            self._released = True
            self.epoch_event.set()
            self.step_event.set()

        def create_runtime_obj(self):
            return {"ds_epoch_begin": self.ds_epoch_begin, "ds_step_begin": self.ds_step_begin}

    WaitedDSCallback.__module__ = __name__
    return WaitedDSCallback


_WAITED = []


def __getattr__(name):
    if name == "WaitedDSCallback":
        if not _WAITED:
            _WAITED.append(_make_waited())
        return _WAITED[0]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
