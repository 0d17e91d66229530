"""``mindspore.profiler.schedule`` (the class :class:`Schedule`): which steps a profiler collects.

The steps after the first ``skip_first`` go in cycles of ``wait`` idle steps, ``warmup`` steps collected and
thrown away (the collection warms up), and ``active`` steps collected; the last active step of a cycle also
hands the data to ``on_trace_ready``. ``repeat`` cycles at most (0: no limit).
"""
from enum import Enum

from mindspore._errors import MSValueError
from mindspore.log import warning

__all__ = ["ProfilerAction", "Schedule"]


class ProfilerAction(Enum):
    """What the profiler does during a step."""
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @staticmethod
    def get_by_value(value):
        """The action of ``value`` (``None`` if there is none)."""
        return {action.value: action for action in ProfilerAction}.get(value)


class Schedule:
    """A profiling schedule: called with a step number, says what to do in that step (a
    :class:`ProfilerAction`).

    Args:
        wait (int): idle steps at the start of each cycle.
        active (int): collected steps per cycle (at least 1).
        warmup (int, optional): warm-up steps after the idle ones. Default ``0``.
        repeat (int, optional): how many cycles (``0``: as many as there are steps). Default ``0``.
        skip_first (int, optional): steps to skip before the first cycle. Default ``0``.

    An invalid value is replaced by its default with a warning, as in MindSpore.

    Examples:
        >>> from mindspore.profiler import schedule
        >>> s = schedule(wait=1, warmup=1, active=2, repeat=1)
        >>> [s(i).name for i in range(5)]
        ['NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
    """

    def __init__(self, *, wait, active, warmup=0, repeat=0, skip_first=0):
        self.wait, self.active, self.warmup, self.repeat, self.skip_first = wait, active, warmup, repeat, skip_first
        self._check_params()

    def __call__(self, step):
        if step < 0:
            raise MSValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / cycle:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < self.wait:
            return ProfilerAction.NONE
        if pos < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    def __repr__(self):
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
                f"repeat={self.repeat!r}, skip_first={self.skip_first!r})")

    def _check_params(self):
        for name, least, default in (("wait", 0, 0), ("warmup", 0, 0), ("active", 1, 1), ("repeat", 0, 0),
                                     ("skip_first", 0, 0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                warning(f"Parameter '{name}' should be of type int, but got {type(value).__name__}. "
                        f"reset to int {default}.")
                setattr(self, name, default)
        if self.warmup == 0:
            warning("Profiler won't be using warmup, this can skew profiler results")

    def to_dict(self):
        """The schedule's settings as a dict."""
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup, "repeat": self.repeat,
                "skip_first": self.skip_first}


def default_schedule(_step):
    """Without a schedule every step is recorded."""
    return ProfilerAction.RECORD
