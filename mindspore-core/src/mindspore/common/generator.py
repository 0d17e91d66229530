"""Random-number generators (``mindspore.Generator``, ``manual_seed``, ``get_rng_state``, ...), as in MindSpore 2.10.

A :class:`Generator` is a ``(seed, offset)`` pair. Each random draw made with it takes the current pair and
advances the offset by 12 (MindSpore's step), so the state (``get_state``: 16 bytes, the seed then the offset,
int64 little-endian) moves exactly as MindSpore's does, and restoring a state or re-seeding repeats the draws.
The numbers come from NumPy's PCG64 keyed by ``(seed, offset)``: reproducible, though not MindSpore's
Philox values.

The ``mint`` random functions and the in-place Tensor methods (``uniform_``, ``normal_``, ...) take a
``generator``; without one they use :data:`default_generator` once it has been seeded (``manual_seed``,
``set_rng_state``), and the global-seed streams of ``mindspore.set_seed`` before that. The draw happens
when the kernel runs, so a compiled graph advances its generator at every call.
"""
from __future__ import annotations

import contextlib
import secrets
import threading

import numpy as np

from mindspore._errors import MSTypeError, MSValueError

__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed", "get_rng_state",
           "set_rng_state"]

#: How far one draw advances a generator's offset (MindSpore's ``generator_step_``).
STEP = 12
_MASK = (1 << 64) - 1


def _int64(v):
    v &= _MASK
    return v - (1 << 64) if v >= 1 << 63 else v


class Generator:
    """A random-number generator: a seed and an offset that every draw made with it advances.

    Examples:
        >>> import mindspore as ms
        >>> g = ms.Generator()
        >>> g.manual_seed(5).initial_seed()
        5
        >>> state = g.get_state()
        >>> g.set_state(state)
    """

    def __init__(self):
        self._seed = 0
        self._offset = 0
        self._seeded = True
        self._lock = threading.Lock()

    def manual_seed(self, seed):
        """Seed the generator with ``seed`` (an int) and restart its offset; returns the generator."""
        if not isinstance(seed, int):
            raise MSTypeError("Seed must be an integer.")
        with self._lock:
            self._seed, self._offset, self._seeded = _int64(seed), 0, True
        return self

    def seed(self):
        """Seed the generator with a random number; returns it."""
        value = secrets.randbits(31)
        self.manual_seed(value)
        return value

    def initial_seed(self):
        """The seed the generator was last seeded with."""
        return self._seed

    def get_state(self):
        """The state: a uint8 Tensor of 16 bytes (the seed, then the offset, int64 little-endian)."""
        from mindspore.common import dtype as mstype
        from mindspore.common.tensor import Tensor
        raw = np.array([self._seed, self._offset], dtype="<i8").view(np.uint8).copy()
        return Tensor(raw, mstype.uint8)

    def set_state(self, state):
        """Restore a state from :meth:`get_state`."""
        from mindspore.common import dtype as mstype
        from mindspore.common.tensor import Tensor
        if not isinstance(state, Tensor):
            raise MSTypeError(f"For 'Generator.set_state', the 'state' must be a Tensor, but got "
                              f"{type(state).__name__}.")
        if state.dtype != mstype.uint8:
            raise MSTypeError(f"State data type must be UInt8, but got {state.dtype}")
        if state.size != 16:
            raise MSValueError(f"For 'Generator.set_state', the 'state' must hold 16 bytes (the seed and the offset), "
                               f"but got {state.size}.")
        seed_, offset = (int(v) for v in state.asnumpy().reshape(-1).astype(np.uint8).view("<i8"))
        with self._lock:
            self._seed, self._offset, self._seeded = seed_, offset, True

    def _step(self, step=STEP):
        """The current ``(seed, offset)``; the offset then moves on by ``step``."""
        with self._lock:
            pair = (self._seed, self._offset)
            self._offset = _int64(self._offset + int(step))
        return pair

    def __repr__(self):
        # 2.10's default object repr (the unseeded default generator included)
        return f"<mindspore.common.generator.Generator object at {hex(id(self))}>"


class _UnseededDefault(Generator):
    """The default generator: until it is seeded, draws without a generator use the global-seed streams."""

    def __init__(self):
        super().__init__()
        self._seeded = False


#: The generator the random functions use when none is given (once it has been seeded).
default_generator = _UnseededDefault()


def seed():
    """Seed :data:`default_generator` with a random number; returns it."""
    return default_generator.seed()


def manual_seed(seed):  # noqa: A002 - MindSpore's name
    """Seed :data:`default_generator` with ``seed``; returns it."""
    return default_generator.manual_seed(seed)


def initial_seed():
    """The seed of :data:`default_generator`."""
    return default_generator.initial_seed()


def get_rng_state():
    """The state of :data:`default_generator` (a uint8 Tensor of 16 bytes)."""
    return default_generator.get_state()


def set_rng_state(state):
    """Restore :data:`default_generator` to ``state``."""
    default_generator.set_state(state)


# -- what the random primitives draw from ---------------------------------------------------------------------
class GeneratorStream:
    """A random primitive's stream bound to a generator: each draw (when the kernel runs) takes the generator's
    ``(seed, offset)`` and advances it."""

    __slots__ = ("gen",)

    def __init__(self, gen):
        self.gen = gen

    def generator(self):
        seed_, offset = self.gen._step()
        return np.random.default_rng([seed_ & _MASK, offset & _MASK])


_active = threading.local()


def check_generator(op, generator):
    if generator is not None and not isinstance(generator, Generator):
        raise MSTypeError(f"For '{op}', the 'generator' must be a mindspore.Generator, but got "
                          f"{type(generator).__name__}.")


@contextlib.contextmanager
def drawing_from(op, generator):
    """Random primitives made inside draw from ``generator`` (or the default generator once seeded)."""
    check_generator(op, generator)
    if generator is None and default_generator._seeded:
        generator = default_generator
    saved = getattr(_active, "gen", None)
    _active.gen = generator
    try:
        yield
    finally:
        _active.gen = saved


def active():
    """The generator random primitives made now draw from, or None (their own global-seed streams)."""
    return getattr(_active, "gen", None)
