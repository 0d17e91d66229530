"""Argument checks shared by the DataLoader, its samplers and workers, with MindSpore 2.10's messages."""

#: seconds a worker or the main process waits on a queue before it checks that its peer is still alive
POLL_INTERVAL = 1.0
#: seconds the main process gives a worker to exit before terminating it
JOIN_TIMEOUT = 5.0


def check_type(value, name, valid_type, invalid_type=(), allow_none=False):
    """Raise 2.10's TypeError unless ``value`` is a ``valid_type`` (and not an ``invalid_type``: bool for ints)."""
    if allow_none and value is None:
        return
    if not isinstance(value, valid_type) or isinstance(value, invalid_type):
        raise TypeError(f"{name} must be {valid_type}, but got: {type(value).__name__}.")


def check_positive(value, name, allow_none=False):
    if allow_none and value is None:
        return
    if value <= 0:
        raise ValueError(f"{name} must be positive, but got: {value}.")


def check_non_negative(value, name):
    if value < 0:
        raise ValueError(f"{name} must be non-negative, but got: {value}.")


def check_exclusive(given, name, description):
    """Raise 2.10's ValueError for an argument that may not be combined with another one."""
    if given:
        raise ValueError(f"{name} cannot be specified {description}.")
