"""Global and per-op random seeds (``mindspore.set_seed``).

MindSpore's rule: with a global seed set, a random op with no op seed is reproducible run to run;
each call of the same op still advances its own stream, so two calls give different numbers.
Here every random op draws from a NumPy ``Generator``. With a global seed, each random *primitive
instance* gets its own generator seeded from (global seed, op seed or the instance's creation
index), so a script re-run after ``set_seed(s)`` reproduces every draw; without one, generators are
seeded from OS entropy. Initializers draw, as in MindSpore 2.10, from NumPy's global legacy generator, which
``set_seed(s)`` seeds with ``s`` (see ``mindspore.common.initializer``). A backend may draw a seeded instance's
numbers its own way: the CPU backend draws those of instances with a ``(seed, seed2)`` pair (the functional random
ops after ``set_seed``, :func:`_get_graph_seed`) as MindSpore 2.10's CPU kernels do.
"""
from __future__ import annotations

import contextlib
import itertools
import sys

import numpy as np

__all__ = ["set_seed", "get_seed", "op_generator", "initializer_stream"]

_global_seed = None
_op_counter = itertools.count()
_epoch = 0  # bumped by set_seed, so generators created before it are re-seeded
_OP_STREAM = 0x6D73   # a fixed non-zero word in every op stream's seed (see OpRandomState.generator)


def set_seed(seed):
    """Set the global random seed (an int in [0, 2**32))."""
    global _global_seed, _op_counter, _epoch
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"For 'set_seed', the 'seed' must be int, but got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For 'set_seed', the 'seed' must be non-negative, but got {seed}.")
    _global_seed = seed
    _kernel_seeds.clear()   # 2.10 restarts every kernel's op-seed sequence (its _reset_op_seed)
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


@contextlib.contextmanager
def initializer_stream(seed):
    """Inside the block, NumPy's global generator (which initializers draw from) is seeded with ``seed``: how a
    parallel rank draws a parameter's slice (``Tensor.init_data(slice_index)``), the same numbers on every rank
    that holds it. On leaving, 2.10 re-seeds NumPy with the first word of the key it had on entry (not the full
    state back), and so does this."""
    key0 = int(np.random.get_state()[1][0])
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.seed(key0)


# MindSpore 2.10's graph-level seed pair of a random primitive (``Seed0``/``Seed1`` attributes), which code written
# for it computes with ``ops.function.random_func._get_seed(seed, kernel_name)`` (MindNLP's dropout): ``(0, 0)`` when
# neither a global nor an op seed is set (the kernel picks one); else the global seed (87654321 for a global seed
# of 0) and an op seed that moves on at each call for the same (kernel, op seed), both modulo 2**31 - 1.
_DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1
_SEED_STEP = 3528531795 ^ 3449720151
_kernel_seeds = {}


def _get_graph_seed(op_seed, kernel_name):
    """The ``(global, op)`` seed pair of one random kernel call, as 2.10 computes it."""
    global_seed = _DEFAULT_GRAPH_SEED if _global_seed == 0 else (_global_seed or 0)
    op_seed = 0 if op_seed is None else op_seed
    if global_seed == 0 and op_seed == 0:
        return 0, 0
    from mindspore._checkparam import check_non_negative_int   # not via the root package (import cycle)
    check_non_negative_int(op_seed, "seed", kernel_name)
    key = (kernel_name, op_seed)
    current = _kernel_seeds.setdefault(key, op_seed)
    _kernel_seeds[key] = current + _SEED_STEP
    return global_seed % _MAXINT32, current % _MAXINT32
