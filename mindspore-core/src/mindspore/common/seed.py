"""Global and per-op random seeds (``mindspore.set_seed``).

MindSpore's rule: with a global seed set, a random op with no op seed is reproducible run to run;
each call of the same op still advances its own stream, so two calls give different numbers.
Here every random op draws from a NumPy ``Generator``. With a global seed, each random *primitive
instance* gets its own generator seeded from (global seed, op seed or the instance's creation
index), so a script re-run after ``set_seed(s)`` reproduces every draw; without one, generators are
seeded from OS entropy. Initializers draw from :func:`initializer_generator`.
"""
from __future__ import annotations

import contextlib
import itertools
import sys

import numpy as np

__all__ = ["set_seed", "get_seed", "op_generator", "initializer_generator", "initializer_stream"]

_global_seed = None
_op_counter = itertools.count()
_init_rng = None
_epoch = 0  # bumped by set_seed, so generators created before it are re-seeded
_OP_STREAM = 0x6D73   # a fixed non-zero word in every op stream's seed (see OpRandomState.generator)


def set_seed(seed):
    """Set the global random seed (an int in [0, 2**32))."""
    global _global_seed, _init_rng, _op_counter, _epoch
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For 'set_seed', the 'seed' must be int, but got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For 'set_seed', the 'seed' must be non-negative, but got {seed}.")
    _global_seed = seed
    _init_rng = np.random.default_rng(seed)
    _op_counter = itertools.count()
    _epoch += 1
    np.random.seed(seed % (2 ** 32))
    # MindSpore's set_seed also seeds the data pipelines; mindspore.dataset (an add-on) reads the global seed when
    # it is loaded, and is told here when it already is
    dataset_config = sys.modules.get("mindspore.dataset.config")
    if dataset_config is not None:
        dataset_config.set_seed(seed)


def get_seed():
    """The global seed, or ``None`` if never set."""
    return _global_seed


class OpRandomState:
    """The random stream of one random-op instance (created lazily on its first draw)."""

    __slots__ = ("op_seed", "_rng", "_epoch", "_index")

    def __init__(self, op_seed=0):
        self.op_seed = op_seed or 0
        self._rng = None
        self._epoch = -1
        self._index = None

    def generator(self):
        if self._rng is None or self._epoch != _epoch:
            self._epoch = _epoch
            if _global_seed is None and not self.op_seed:
                self._rng = np.random.default_rng()
            else:
                self._index = next(_op_counter) if not self.op_seed else 0
                # the last word keeps the stream apart from np.random.default_rng(global seed): NumPy's seed
                # sequences ignore trailing zero words, so [s, 0, 0] alone would be the user's default_rng(s)
                self._rng = np.random.default_rng([_global_seed or 0, self.op_seed, self._index, _OP_STREAM])
        return self._rng


def op_generator(state: OpRandomState):
    return state.generator()


def initializer_generator():
    """The generator initializers draw from (reproducible after ``set_seed``)."""
    global _init_rng
    if _init_rng is None:
        _init_rng = np.random.default_rng()
    return _init_rng


_SLICE_STREAM = 0x736C   # a fixed word in the streams of initializer_stream (apart from every other stream)


@contextlib.contextmanager
def initializer_stream(seed):
    """Inside the block, initializers draw from a generator of their own seeded by ``seed`` (the global stream is
    left where it was): how a parallel rank draws a parameter's slice (``Tensor.init_data(slice_index)``), the
    same numbers on every rank that holds it."""
    global _init_rng
    saved = _init_rng
    _init_rng = np.random.default_rng([seed, _SLICE_STREAM])
    try:
        yield
    finally:
        _init_rng = saved
