"""CPU kernels of ``mindspore/ops/_defs/random.py``: mindspore-array-kernels' ``random`` family bound to NumPy (the
GPU backend binds the same source to CuPy) and to NumPy ``Generator`` draws, vectorised: the instance's stream is
``prim.generator()`` (see ``mindspore.common.seed``), an explicit call-time ``(seed, offset)`` a fresh generator of
those values; and this backend's own plain draws (``UniformReal``, ``StandardNormal``, ``StandardLaplace``).

A seeded instance (``seed`` or ``seed2`` not 0: every functional draw after ``mindspore.set_seed``) draws MindSpore
2.10's CPU numbers instead, from the engine its kernel keeps for the instance's life, seeded once with
:func:`scrambled_seed` of the pair and advanced by each launch: ``UniformReal`` and ``UniformInt`` a 32-bit
Mersenne Twister, ``StandardNormal`` (and the ``Dropout`` kernel of :mod:`mindspore_cpu.kernels.nn`) the C++
library's ``minstd_rand0``. 2.10 draws them in one sequential stream whatever the thread count (checked on 2.10 with
``runtime_num_threads`` 1 to 8 and up to 200000 values).
"""
import ctypes
import ctypes.util
import weakref

import numpy as np

from mindspore_array_kernels import bind
from mindspore_array_kernels.common import fit


def _scalar(v):
    return np.asarray(v).reshape(-1)[0]


def _stream(prim):
    return prim.generator()


def _fixed_stream(seed, offset):
    return np.random.default_rng([seed % (1 << 64), offset % (1 << 64)])


def _uniform(rng, shape):
    return rng.random(shape)


def _integers(rng, lo, hi, shape):
    return np.asarray(rng.integers(lo, hi, size=shape, dtype=np.int32))


def _gamma_draw(rng, alpha, beta, shape):
    return np.asarray(rng.gamma(alpha, beta))


def _poisson_draw(rng, lam, shape):
    return np.asarray(rng.poisson(lam))


KERNELS = bind("random", globals(), xp=np, dev=np.asarray, scalar=_scalar, stream=_stream,
               fixed_stream=_fixed_stream, uniform=_uniform, integers=_integers, gamma=_gamma_draw,
               poisson=_poisson_draw)["KERNELS"]


def scrambled_seed(seed, seed2):
    """MindSpore 2.10's kernel seed of a ``(seed, seed2)`` pair: one Philox4x32-10 block of the counter
    ``(seed, seed2)`` (two 32-bit words each) under a fixed key; its first two words, low word first."""
    c = [seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF, seed2 & 0xFFFFFFFF, (seed2 >> 32) & 0xFFFFFFFF]
    k0, k1 = 0x3EC8F720, 0x02461E29
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k1, p0 & 0xFFFFFFFF]
    return (c[1] << 32) | c[0]


_engines = weakref.WeakKeyDictionary()   # seeded instance -> {launch signature: the engine of its 2.10 kernel}


def kernel_engine(prim, kind, seeds, signature):
    """The engine of a seeded instance's kernel (``None`` for an unseeded instance), made on its first launch
    from ``seeds``. As in 2.10's PyNative kernel cache, an instance has one kernel per ``signature`` (its inputs'
    shapes and dtypes, and a shape argument's value): launching it with new shapes starts a new engine from the
    seed, launching it again with shapes seen before continues that kernel's engine."""
    seed, seed2 = (int(v) for v in seeds)
    if not (seed or seed2):
        return None
    kernels = _engines.setdefault(prim, {})
    engine = kernels.get(signature)
    if engine is None:
        engine = kernels[signature] = kind(scrambled_seed(seed, seed2))
    return engine


class _MT19937Words:
    """A 32-bit Mersenne Twister seeded like C++'s ``std::mt19937(seed)`` (the low 32 bits), as a word stream
    that can hand back the words a rejection loop did not use."""

    def __init__(self, seed):
        self._state = np.random.RandomState(seed & 0xFFFFFFFF)
        self._spare = np.empty(0, np.uint32)

    def words(self, n):
        take = self._spare[:n]
        self._spare = self._spare[n:]
        if take.size < n:
            fresh = np.frombuffer(self._state.bytes(4 * (n - take.size)), dtype="<u4")
            take = np.concatenate([take, fresh])
        return take

    def give_back(self, words):
        self._spare = np.concatenate([words, self._spare])


_MINSTD_MUL, _MINSTD_MOD = 16807, 2147483647


class MinstdRand0:
    """C++'s ``std::minstd_rand0`` (``default_random_engine`` of libstdc++): ``x <- 16807 x mod (2**31 - 1)``,
    seeded with ``seed mod (2**31 - 1)`` (1 if that is 0); :meth:`words` gives the next values, vectorised by
    multiplying the current state by the powers of the multiplier."""

    _powers = None

    def __init__(self, seed):
        self.state = seed % _MINSTD_MOD or 1

    @classmethod
    def _power_table(cls):
        if cls._powers is None:
            powers = np.empty(4096, np.int64)
            powers[0] = _MINSTD_MUL
            done = 1
            while done < powers.size:
                k = min(done, powers.size - done)
                powers[done:done + k] = powers[:k] * powers[done - 1] % _MINSTD_MOD
                done += k
            cls._powers = powers
        return cls._powers

    def words(self, n):
        powers = self._power_table()
        out = np.empty(n, np.int64)
        x = self.state
        for start in range(0, n, powers.size):
            k = min(powers.size, n - start)
            out[start:start + k] = x * powers[:k] % _MINSTD_MOD
            x = int(out[start + k - 1])
        self.state = x
        return out


class _UniformInts:
    """libstdc++'s ``uniform_int_distribution`` draws of an engine (2.10's build: the engine's range scaled down to
    the asked one, words past the last whole multiple rejected), one at a time from batches of the engine's words;
    :meth:`close` leaves the engine just past the last word used. A :class:`MinstdRand0` (range ``2**31 - 3``
    above its minimum 1) or a :class:`_MT19937Words` (range ``2**32 - 1``)."""

    def __init__(self, engine):
        self._engine, self._words, self._pos = engine, [], 0
        self._minstd = isinstance(engine, MinstdRand0)
        self.range = _MINSTD_MOD - 3 if self._minstd else 0xFFFFFFFF

    def _word(self):
        if self._pos == len(self._words):
            self._words, self._pos = self._engine.words(256).tolist(), 0
        self._pos += 1
        return self._words[self._pos - 1] - 1 if self._minstd else self._words[self._pos - 1]

    def below_or_at(self, high):
        """A uniform integer in ``[0, high]``."""
        if high == self.range:
            return self._word()
        span = high + 1
        scaling = self.range // span
        past = span * scaling
        word = self._word()
        while word >= past:
            word = self._word()
        return word // scaling

    def close(self):
        if self._minstd:
            if self._pos:
                self._engine.state = self._words[self._pos - 1]
        else:
            self._engine.give_back(np.asarray(self._words[self._pos:], np.uint32))


def _native_shuffle():
    try:
        from mindspore_cpu.kernels._native import _kernels
    except ImportError:
        return None
    return getattr(_kernels, "shuffle_words", None)


_SHUFFLE_WORDS = _native_shuffle()


def libstdcxx_shuffle(engine, n):
    """The permutation ``std::shuffle`` (libstdc++) makes of ``0..n-1`` with ``engine``: when ``n * n`` fits the
    engine's range, one draw places two elements (an even ``n`` first swaps element 1 alone), else one draw per
    element. The extension's loop (``shuffle_words``) runs it over a batch of the engine's words, drawing a
    bigger batch from the same point when rejections used them up; without the extension, :func:`_shuffle_loop`."""
    if _SHUFFLE_WORDS is None or n <= 1:
        return _shuffle_loop(engine, n)
    minstd = isinstance(engine, MinstdRand0)
    span = _MINSTD_MOD - 3 if minstd else 0xFFFFFFFF
    batch = n + n // 4 + 64
    while True:
        start = engine.state if minstd else None
        words = engine.words(batch)
        perm, used = _SHUFFLE_WORDS(words - 1 if minstd else words.astype(np.int64), n, span)
        if used >= 0:
            if minstd:
                engine.state = int(words[used - 1]) if used else start
            else:
                engine.give_back(words[used:])
            return perm
        if minstd:
            engine.state = start
        else:
            engine.give_back(words)
        batch *= 2


def _shuffle_loop(engine, n):
    """:func:`libstdcxx_shuffle` one draw at a time in Python (about 1 us an element)."""
    perm = list(range(n))
    ints = _UniformInts(engine)
    if n > 1 and ints.range // n >= n:
        i = 1
        if n % 2 == 0:
            j = ints.below_or_at(1)
            perm[1], perm[j] = perm[j], perm[1]
            i = 2
        while i < n:
            bound = i + 1
            first, second = divmod(ints.below_or_at(bound * (bound + 1) - 1), bound + 1)
            perm[i], perm[first] = perm[first], perm[i]
            perm[i + 1], perm[second] = perm[second], perm[i + 1]
            i += 2
    else:
        for i in range(1, n):
            j = ints.below_or_at(i)
            perm[i], perm[j] = perm[j], perm[i]
    ints.close()
    return np.asarray(perm, np.int64)


def canonical_float32(words):
    """libstdc++'s ``generate_canonical<float>`` of ``minstd_rand0`` outputs: ``float(w - 1) / 2**31`` in float32,
    at most the float just below 1."""
    u = (words - 1).astype(np.float32) / np.float32(2147483648.0)
    return np.minimum(u, np.nextafter(np.float32(1), np.float32(0)))


def _mt_uniform_real(engine, n):
    """``uniform_real_distribution<double>(0, 1)`` of ``mt19937`` rounded to float32: each value
    ``(w0 + w1 * 2**32) / 2**64`` of two words (the C++ library's canonical double)."""
    words = engine.words(2 * n).astype(np.float64)
    values = (words[0::2] + words[1::2] * 4294967296.0) / 18446744073709551616.0
    values[values >= 1.0] = np.nextafter(1.0, 0.0)
    return values.astype(np.float32)


def _mt_uniform_int(engine, lo, hi, n):
    """libstdc++'s ``uniform_int_distribution<int>(lo, hi - 1)`` of ``mt19937`` as 2.10 is built: the word range
    scaled down by ``scaling = (2**32 - 1) // (hi - lo)``, words at or past ``(hi - lo) * scaling`` rejected."""
    span = hi - lo
    scaling = 0xFFFFFFFF // span
    past = span * scaling
    parts, got = [], 0
    while got < n:
        words = engine.words(n - got + 8).astype(np.int64)
        kept = np.flatnonzero(words < past)[:n - got]
        used = int(kept[-1]) + 1 if kept.size == n - got else words.size
        engine.give_back(words[used:].astype(np.uint32))
        parts.append(words[kept] // scaling + lo)
        got += kept.size
    return np.concatenate(parts).astype(np.int32) if parts else np.empty(0, np.int32)


def _libm_float(name):
    lib = ctypes.util.find_library("m")
    try:
        fn = getattr(ctypes.CDLL(lib), name) if lib else None
    except (OSError, AttributeError):
        fn = None
    if fn is not None:
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fn


_LOGF, _EXPF = _libm_float("logf"), _libm_float("expf")


def _native_libm():
    try:
        from mindspore_cpu.kernels._native import _kernels
    except ImportError:
        return {}
    found = {name: getattr(_kernels, "libm_" + name, None) for name in ("logf", "expf")}
    return {name: fn for name, fn in found.items() if fn is not None}


_NATIVE_LIBM = _native_libm()   # the same C functions, called in a loop by the C++ extension


def _c_float(name, wide, x):
    """The C library's float32 ``name`` ('logf' or 'expf') of ``x``, as 2.10's random kernels compute it: by the
    extension's loop over it when there is one (through ctypes it costs 0.3 us a value), else :func:`_c_float_fn`."""
    native = _NATIVE_LIBM.get(name)
    if native is not None:
        return native(np.ascontiguousarray(x, np.float32)).reshape(x.shape)
    return _c_float_fn(_LOGF if name == "logf" else _EXPF, wide, x)


def _c_float_fn(fn, wide, x):
    """A float32 function as 2.10's kernels compute it, by the C library's (``logf`` rounds differently from
    NumPy's float32 log, and from the correctly rounded log, in about one case in 150); without a C library, the
    float64 function rounded."""
    if fn is None:
        return wide(x.astype(np.float64)).astype(np.float32)
    return np.fromiter(map(fn, x.reshape(-1).tolist()), np.float32, x.size).reshape(x.shape)


def _logf(x):
    return _c_float("logf", np.log, x)


def _minstd_normals(engine, n):
    """libstdc++'s ``normal_distribution<float>`` (Marsaglia's polar method, in float32) of ``minstd_rand0``, a
    fresh distribution per launch: pairs ``x, y = 2u - 1`` kept when ``0 < r2 = x*x + y*y <= 1`` give
    ``y * m, x * m`` with ``m = sqrt(-2 log(r2) / r2)``; an odd count drops the pair's second value."""
    f32 = np.float32
    parts, got = [], 0
    while got < n:
        need = (n - got + 1) // 2
        words = engine.words(2 * (need + need // 3 + 8))
        v = f32(2) * canonical_float32(words) - f32(1)
        x, y = v[0::2], v[1::2]
        r2 = x * x + y * y
        kept = np.flatnonzero((r2 <= f32(1)) & (r2 != f32(0)))[:need]
        if kept.size == need:   # the engine stops after the last pair used
            engine.state = int(words[2 * kept[-1] + 1])
        x, y, r2 = x[kept], y[kept], r2[kept]
        mult = np.sqrt((f32(-2) * _logf(r2)) / r2)
        pair = np.empty(2 * kept.size, np.float32)
        pair[0::2], pair[1::2] = y * mult, x * mult
        parts.append(pair)
        got += pair.size
    return np.concatenate(parts)[:n] if parts else np.empty(0, np.float32)


def _seeds(prim):
    return prim.attrs.get("seed", 0), prim.attrs.get("seed2", 0)


def _signature(shape):
    return tuple(int(s) for s in np.asarray(shape).reshape(-1))


def _uniform_real(prim, shape, out=None):
    """A seeded instance draws 2.10's numbers (:func:`_mt_uniform_real`); an unseeded one its own stream."""
    engine = kernel_engine(prim, _MT19937Words, _seeds(prim), _signature(shape))
    if engine is None:
        return np.asarray(prim.generator().random(shape, dtype=np.float32))
    return _mt_uniform_real(engine, int(np.prod(shape, dtype=np.int64))).reshape(tuple(shape))


def _uniform_int(prim, shape, minval, maxval, out=None):
    """A seeded instance draws 2.10's numbers (:func:`_mt_uniform_int`); an unseeded one (and the bounds' checks)
    the family's kernel."""
    lo, hi = int(_scalar(minval)), int(_scalar(maxval))
    engine = kernel_engine(prim, _MT19937Words, _seeds(prim), _signature(shape)) if lo < hi else None
    if engine is None:
        return _FAMILY_UNIFORM_INT(prim, shape, minval, maxval, out=out)
    shape = tuple(int(s) for s in shape)
    values = _mt_uniform_int(engine, lo, hi, int(np.prod(shape, dtype=np.int64))).reshape(shape)
    return fit(values, out)


def _standard_normal(prim, shape, out=None):
    """A seeded instance draws 2.10's numbers (:func:`_minstd_normals`); an unseeded one its own stream."""
    engine = kernel_engine(prim, MinstdRand0, _seeds(prim), _signature(shape))
    if engine is None:
        return np.asarray(prim.generator().standard_normal(shape, dtype=np.float32))
    return _minstd_normals(engine, int(np.prod(shape, dtype=np.int64))).reshape(tuple(shape))


def _multinomial(prim, x, num_samples, out=None):
    """A seeded instance draws 2.10's indices: per row, the running sum of the weights in their dtype, divided by
    the total (unless 0), then for each sample a float32 uniform of the kernel's ``minstd_rand0`` (cast to the
    weights' dtype) located by 2.10's bisection (the first column whose running share exceeds it). An unseeded
    instance (and the weights' checks) the family's kernel."""
    x = np.asarray(x)
    n = int(_scalar(num_samples))
    engine = kernel_engine(prim, MinstdRand0, _seeds(prim), (x.shape, x.dtype.str))
    if (engine is None or x.size == 0 or n < 0 or not np.isfinite(x).all() or (x < 0).any()
            or not x.sum(axis=-1).all()):
        return _FAMILY_MULTINOMIAL(prim, x, num_samples, out=out)
    rows = x.reshape(-1, x.shape[-1])
    cols = rows.shape[1]
    result = np.empty((rows.shape[0], n), np.int64)
    for i, row in enumerate(rows):
        share = np.cumsum(row, dtype=row.dtype)
        total = share[-1]
        if total != 0:
            share = (share / total).astype(row.dtype)
        draws = canonical_float32(engine.words(n)).astype(row.dtype)
        # the first column whose share exceeds the draw, the last column at most (2.10's bisection)
        result[i] = np.minimum(np.searchsorted(share, draws, side="right"), cols - 1)
    return fit(result.reshape(x.shape[:-1] + (n,)), out)


def _random_shuffle(prim, x, out=None):
    """A seeded instance permutes the first axis as 2.10 does: :func:`libstdcxx_shuffle` of its kernel's
    ``minstd_rand0`` (a first axis of 0 or 1 element draws nothing). An unseeded instance the family's kernel."""
    x = np.asarray(x)
    engine = kernel_engine(prim, MinstdRand0, _seeds(prim), (x.shape, x.dtype.str))
    if engine is None:
        return _FAMILY_SHUFFLE(prim, x, out=out)
    if x.ndim == 0 or x.shape[0] <= 1:
        return x.copy()
    return x[libstdcxx_shuffle(engine, x.shape[0])]


def _randperm_v2(prim, n, seed=0, offset=0, out=None):
    """2.10's permutation of a fixed ``(seed, offset)``: ``std::shuffle`` of ``0..n-1`` with an ``mt19937`` seeded
    with ``offset`` if it is not 0, else ``seed`` (the low 32 bits); ``seed=-1, offset=0`` (random) and invalid
    arguments the family's kernel."""
    count, seed_v, offset_v = int(_scalar(n)), int(_scalar(seed)), int(_scalar(offset))
    if count < 0 or (seed_v == -1 and offset_v == 0):
        return _FAMILY_RANDPERM_V2(prim, n, seed, offset, out=out)
    engine = _MT19937Words(offset_v if offset_v else seed_v)
    return fit(libstdcxx_shuffle(engine, count), out)


def _random_choice_with_mask(prim, x, out=None):
    """A seeded instance picks 2.10's positions: the first ``count`` of :func:`libstdcxx_shuffle` of the true
    positions (row-major order) by its kernel's ``minstd_rand0``, padded with zero rows masked off. An unseeded
    instance the family's kernel."""
    x = np.asarray(x)
    engine = kernel_engine(prim, MinstdRand0, _seeds(prim), (x.shape, x.dtype.str))
    if engine is None:
        return _FAMILY_CHOICE_WITH_MASK(prim, x, out=out)
    count = prim.count
    positions = np.argwhere(x).astype(np.int32)
    chosen = positions[libstdcxx_shuffle(engine, positions.shape[0])[:count]]
    index = np.zeros((count, x.ndim), np.int32)
    mask = np.zeros((count,), np.bool_)
    index[:chosen.shape[0]] = chosen
    mask[:chosen.shape[0]] = True
    return fit((index, mask), out)


def philox_words(seed, offset, start_block, blocks):
    """Words ``4 * start_block ..`` of MindSpore's ``random::PhiloxRandom(seed, offset)``: Philox4x32-10 with key
    ``(seed low, seed high)`` over the counters ``(block low, block high, offset low, offset high)``."""
    n = np.arange(start_block, start_block + blocks, dtype=np.uint64)
    mask = np.uint64(0xFFFFFFFF)
    c0, c1 = n & mask, n >> np.uint64(32)
    c2 = np.full(blocks, offset & 0xFFFFFFFF, np.uint64)
    c3 = np.full(blocks, (offset >> 32) & 0xFFFFFFFF, np.uint64)
    k0, k1 = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    for r in range(10):
        if r:
            k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0, p1 = np.uint64(0xD2511F53) * c0, np.uint64(0xCD9E8D57) * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & mask,
                          (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & mask)
    return np.stack([c0, c1, c2, c3], axis=1).reshape(-1).astype(np.uint32)


class _BernoulliState:
    """2.10's Bernoulli kernel restarts its Philox generator at every launch but keeps the words of the last block
    it opened: a launch first uses the previous launch's leftover words, then blocks 0, 1, ... again."""

    def __init__(self):
        self.spare = np.empty(0, np.uint32)


def _bernoulli(prim, x, p, out=None):
    """An instance with a seed (not -1) draws 2.10's numbers: per element a float32 ``u`` in [0, 1) from the
    23 low bits of a Philox word (:func:`philox_words` of ``(seed, 0)``), 0 where ``u > p`` else 1. The random
    seed -1 (and invalid ``p``) the family's kernel."""
    seed = int(prim.attrs.get("seed", -1))
    xs, ps = np.asarray(x), np.asarray(p)
    ps = ps if ps.dtype in (np.float32, np.float64) else ps.astype(np.float32)
    if seed == -1 or ps.size == 0 or (ps < 0).any() or (ps > 1).any() or ps.size not in (1, xs.size):
        return _FAMILY_BERNOULLI(prim, x, p, out=out)
    state = _engines.setdefault(prim, {}).setdefault((xs.shape, xs.dtype.str, ps.shape), _BernoulliState())
    n = xs.size
    fresh = max(0, n - state.spare.size)
    blocks = -(-fresh // 4)
    words = np.concatenate([state.spare, philox_words(seed % (1 << 64), 0, 0, blocks)])
    state.spare = words[n:]
    u = ((words[:n] & 0x7FFFFF) | 0x3F800000).view(np.float32) - np.float32(1)
    keep = ~(u.astype(ps.dtype).reshape(xs.shape) > ps.reshape(ps.shape if ps.size != 1 else ()))
    return fit(keep.astype(xs.dtype), out)


def _random_categorical(prim, logits, num_sample, seed=0, out=None):
    """A call with a seed (not 0) draws 2.10's classes: per row the running sum of ``exp(logit - row max)`` (float32
    ``exp`` of the C library) in the logits' dtype; per sample one uniform, shared by all rows, from a
    ``minstd_rand0`` seeded with :func:`scrambled_seed` of ``(0, seed)`` (C++'s canonical double of two words,
    rounded to float32), and the first class whose running sum reaches ``total * u``. Seed 0 (and invalid inputs)
    the family's kernel."""
    logits = np.asarray(logits)
    seed_v, n = int(_scalar(seed)), int(_scalar(num_sample))
    if seed_v == 0 or logits.ndim != 2 or logits.size == 0 or n < 0:
        return _FAMILY_CATEGORICAL(prim, logits, num_sample, seed, out=out)
    # the seed is a constant input: 2.10 keeps one kernel (and engine) per seed value too
    engine = kernel_engine(prim, MinstdRand0, (0, seed_v % (1 << 64)), (logits.shape, logits.dtype.str, seed_v))
    dt = logits.dtype
    shifted = (logits - logits.max(axis=1, keepdims=True)).astype(np.float32)
    cdf = np.cumsum(_c_float("expf", np.exp, shifted).astype(dt), axis=1, dtype=dt)
    span = float(_MINSTD_MOD - 1)
    words = (engine.words(2 * n) - 1).astype(np.float64)
    u = (words[0::2] + words[1::2] * span) / (span * span)
    u[u >= 1.0] = np.nextafter(1.0, 0.0)
    u = u.astype(np.float32).astype(dt)
    result = np.empty((logits.shape[0], n), np.int64)
    for i, row in enumerate(cdf):
        result[i] = np.minimum(np.searchsorted(row, (row[-1] * u).astype(dt), side="left"), row.size - 1)
    return fit(result, out)


def _standard_laplace(prim, shape, out=None):
    """A seeded instance draws 2.10's numbers: float32 uniforms ``v`` on (-1, 1) from its kernel's
    ``minstd_rand0`` (``u * (1 - a) + a`` with ``a`` the float just above -1), each ``-sign(v) * log(1 - |v|)``
    computed in float64 and rounded to float32. An unseeded instance its own stream."""
    engine = kernel_engine(prim, MinstdRand0, _seeds(prim), _signature(shape))
    if engine is None:
        return np.asarray(prim.generator().laplace(0.0, 1.0, shape), dtype=np.float32)
    low = np.nextafter(np.float32(-1), np.float32(0))
    v = canonical_float32(engine.words(int(np.prod(shape, dtype=np.int64)))) * (np.float32(1) - low) + low
    values = -np.copysign(1.0, v).astype(np.float64) * np.log(1.0 - np.abs(v).astype(np.float64))
    return values.astype(np.float32).reshape(tuple(shape))


_FAMILY_UNIFORM_INT = KERNELS["UniformInt"]
_FAMILY_MULTINOMIAL = KERNELS["Multinomial"]
_FAMILY_SHUFFLE = KERNELS["RandomShuffle"]
_FAMILY_RANDPERM_V2 = KERNELS["RandpermV2"]
_FAMILY_CHOICE_WITH_MASK = KERNELS["RandomChoiceWithMask"]
_FAMILY_BERNOULLI = KERNELS["Bernoulli"]
_FAMILY_CATEGORICAL = KERNELS["RandomCategorical"]

KERNELS.update({
    "UniformReal": _uniform_real,
    "UniformInt": _uniform_int,
    "Multinomial": _multinomial,
    "RandomShuffle": _random_shuffle,
    "RandpermV2": _randperm_v2,
    "RandomChoiceWithMask": _random_choice_with_mask,
    "Bernoulli": _bernoulli,
    "RandomCategorical": _random_categorical,
    "StandardNormal": _standard_normal,
    "StandardLaplace": _standard_laplace,
})
