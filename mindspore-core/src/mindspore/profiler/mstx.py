"""``mindspore.profiler.mstx``: marks and ranges in the profiler's timeline, from the user's code.

MindSpore sends them to Ascend's MSTX extension (and does nothing elsewhere). Here a mark or range is recorded
in the trace of the running profiler when it was made with ``mstx=True`` (``Profiler(mstx=True)`` or
``_ExperimentalConfig(mstx=True)``), in the ``mstx`` process of ``trace_view.json``, subject to its
``mstx_domain_include``/``mstx_domain_exclude``; without such a profiler the calls do nothing (``range_start``
returns 0, as MindSpore does when MSTX is off).
"""
from mindspore.log import warning
from mindspore.profiler._collector import active_collector

__all__ = ["mstx"]


def _collector_for(domain, api):
    collector = active_collector()
    if collector is None or not getattr(collector, "mstx_enabled", False):
        return None
    if not isinstance(domain, str) or not domain:
        warning(f"Invalid domain name for mstx.{api} func. Please input str and can not be empty.")
        return None
    include, exclude = getattr(collector, "mstx_include", None), getattr(collector, "mstx_exclude", None)
    if include and domain not in include or exclude and domain in exclude:
        return None
    return collector


def _check_message(message, api):
    if not message or not isinstance(message, str):
        warning(f"Invalid message for mstx.{api} func. Please input valid message string.")
        return False
    return True


class mstx:  # noqa: N801 - MindSpore's name
    """Marks (:meth:`mark`) and ranges (:meth:`range_start` ... :meth:`range_end`) in the profiler's timeline.

    Examples:
        >>> from mindspore.profiler import Profiler, mstx
        >>> prof = Profiler(mstx=True, output_path="./prof")
        >>> range_id = mstx.range_start("data loading")
        >>> mstx.range_end(range_id)
        >>> mstx.mark("checkpoint saved")
        >>> prof.stop()
    """

    @staticmethod
    def mark(message, stream=None, domain="default"):
        """Record an instant event ``message`` (``stream`` is accepted: every host event is on the host's
        timeline)."""
        collector = _collector_for(domain, "mark")
        if collector is not None and _check_message(message, "mark"):
            collector.mark(message, domain)

    @staticmethod
    def range_start(message, stream=None, domain="default"):
        """Open a range named ``message``; returns its id (0 when nothing is recorded) for :meth:`range_end`."""
        collector = _collector_for(domain, "range_start")
        if collector is None or not _check_message(message, "range_start"):
            return 0
        return collector.range_start(message, domain)

    @staticmethod
    def range_end(range_id, domain="default"):
        """Close the range ``range_id`` (0 and unknown ids are ignored)."""
        collector = _collector_for(domain, "range_end")
        if collector is not None and range_id:
            collector.range_end(range_id)
