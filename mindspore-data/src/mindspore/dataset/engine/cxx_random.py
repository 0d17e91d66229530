"""The C++ random algorithms MindSpore 2.10's data engine draws its row orders with, re-stated in NumPy.

MindSpore's engine is C++ compiled with GCC 9 (libstdc++), and its orders are what these give for a seed:

* ``std::mt19937`` (32-bit Mersenne Twister, ``seed(s)`` = Matsumoto's ``init_genrand``): NumPy's legacy
  ``RandomState(s)`` is seeded the same way, and ``randint(0, 2**32, dtype=uint32)`` hands back its raw
  outputs unchanged (a full 32-bit range needs no rejection), so :func:`mt19937_raw` reads the stream in bulk.
* ``std::mt19937_64`` (used by ``ShuffleOp``): not in NumPy; :class:`MT19937_64` implements it with a vectorised
  twist (the 312 words twist in two slices: the first 156 read only old words, the last 156 the new ones).
* ``std::uniform_int_distribution<uint64>(0, b)`` driven by an engine of range ``R = max() - min() > b``
  (mt19937: ``2**32 - 1``): libstdc++ 9's "downscaling": ``scaling = R // (b + 1)``, draw ``r = engine() - min()``
  until ``r < (b + 1) * scaling``, return ``r // scaling`` (GCC 11's Lemire variant is NOT what 2.10 runs).
* ``std::generate_canonical<double, 53>`` (behind the real distributions): two raw outputs ``r0, r1`` give
  ``(r0 + r1 * 2**32) / 2**64`` in double arithmetic (1.0 becomes the double just below it).
* ``std::discrete_distribution``: weights over their sequential sum, their running sum as the table
  (its last entry set to exactly 1.0); a draw is the first entry ``>=`` a canonical double.
* ``std::exponential_distribution(1)``: ``-log(1 - canonical)``, with the C library's ``log`` (``math.log``,
  the same libm; NumPy's SIMD ``log`` may differ in the last bit).
* ``std::minstd_rand0`` (``std::default_random_engine``, MindRecord's ShardShuffle): :class:`MinstdRand0Stream`.
* One draw from each of many freshly seeded ``std::mt19937`` (MindRecord's draws with replacement):
  :func:`std_uniform_ints_fresh`, from the engines' first outputs computed side by side
  (:func:`mt19937_first_outputs`: ``init_genrand``'s words 0, 1 and 397 and one twist step).
* ``std::shuffle``: libstdc++ 9's Fisher-Yates from the front. When ``n * n <= max() - min()`` of the engine
  (mt19937: ``n <= 65535``) one draw serves two positions: for an even ``n`` first swap ``a[1]`` with
  ``a[uniform(0, 1)]``; then for each pair ``i, i + 1`` draw ``x = uniform(0, (i + 1) * (i + 2) - 1)`` and swap
  ``a[i]`` with ``a[x // (i + 2)]``, ``a[i + 1]`` with ``a[x % (i + 2)]``. Longer arrays swap ``a[i]`` with
  ``a[uniform(0, i)]`` for ``i = 1 .. n-1``.

Raw outputs come from NumPy in blocks; the rejection loop of the distribution and the swaps run as plain loops
over Python ints (the paired draws reject often, so the draws cannot be mapped in bulk): 60 000 rows shuffle in
a few tens of milliseconds.
"""
import itertools
import math

import numpy as np

__all__ = ["MT19937Stream", "MinstdRand0Stream", "mt19937_raw", "mt19937_first_outputs", "MT19937_64",
           "std_uniform_ints", "std_uniform_ints_fresh", "std_shuffle", "std_sample",
           "std_canonical", "std_canonical_float", "std_uniform_int", "std_uniform_real", "std_bernoulli",
           "std_normal_float", "NormalFloat", "GammaFloat",
           "std_discrete", "std_exponential", "shuffle_buffer"]

_U32 = 0xFFFFFFFF


class _BufferedStream:
    """An engine's outputs read in order, produced in blocks (``_block(count)``: the next outputs, at least one)."""

    def __init__(self):
        self._buf = np.zeros(0, np.uint64)
        self._pos = 0

    def take(self, count):
        """The next ``count`` outputs (uint64 array)."""
        while self._pos + count > len(self._buf):
            self._buf = np.concatenate([self._buf[self._pos:], self._block(count)])
            self._pos = 0
        out = self._buf[self._pos:self._pos + count]
        self._pos += count
        return out

    def unread(self, count):
        """Give back the last ``count`` outputs taken (they are read again next)."""
        self._pos -= count

    def raw(self):
        """The next output as a Python int (the per-draw path of the transforms' distributions)."""
        if self._pos == len(self._buf):
            self.take(1)
            self._pos -= 1
        value = int(self._buf[self._pos])
        self._pos += 1
        return value


class MT19937Stream(_BufferedStream):
    """The raw 32-bit outputs of ``std::mt19937(seed)``, read in order (buffered in blocks)."""

    urng_range = _U32           # max() - min() of the engine

    def __init__(self, seed):
        super().__init__()
        self._state = np.random.RandomState(int(seed) & _U32)

    def _block(self, count):
        return self._state.randint(0, 2 ** 32, size=max(count, 4096), dtype=np.uint32).astype(np.uint64)


class MinstdRand0Stream(_BufferedStream):
    """``std::minstd_rand0(seed)`` (libstdc++'s ``std::default_random_engine``, used by MindRecord's shuffles):
    ``x = 16807 * x mod (2**31 - 1)``. ``take`` returns ``x - min()`` = ``x - 1``, as the distributions use it.
    A block of outputs is ``x * 16807**j mod m`` for ``j = 1..B`` (products below 2**62: exact in uint64)."""

    urng_range = 2 ** 31 - 3
    _M = 2 ** 31 - 1
    _BLOCK = 4096
    _POWERS = None

    def __init__(self, seed):
        super().__init__()
        state = int(seed) % self._M
        self._x = state if state else 1
        if MinstdRand0Stream._POWERS is None:
            powers = [1]
            for _ in range(self._BLOCK):
                powers.append(powers[-1] * 16807 % self._M)
            MinstdRand0Stream._POWERS = np.asarray(powers[1:], dtype=np.uint64)

    def _block(self, count):
        """The next outputs minus 1."""
        block = (np.uint64(self._x) * self._POWERS) % np.uint64(self._M)
        self._x = int(block[-1])
        return block - np.uint64(1)


def mt19937_raw(seed, count):
    """The first ``count`` raw outputs of ``std::mt19937(seed)`` as a uint64 array."""
    return MT19937Stream(seed).take(count).copy()


def mt19937_first_outputs(seeds):
    """The first raw output of ``std::mt19937(s)`` for each seed ``s`` (uint64 array), vectorised over the seeds:
    it needs only state words 0, 1 and 397 of ``init_genrand`` and one step of the twist."""
    mask = np.uint64(_U32)
    first = np.asarray(seeds, dtype=np.uint64) & mask
    word, second = first, None
    for i in range(1, 398):
        word = (np.uint64(1812433253) * (word ^ (word >> np.uint64(30))) + np.uint64(i)) & mask
        if i == 1:
            second = word
    y = (first & np.uint64(0x80000000)) | (second & np.uint64(0x7FFFFFFF))
    y = word ^ (y >> np.uint64(1)) ^ np.where(y & np.uint64(1), np.uint64(0x9908B0DF), np.uint64(0))
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & mask


def std_uniform_ints_fresh(seeds, high):
    """``uniform_int_distribution(0, high)(std::mt19937(s))`` for each seed ``s``: one freshly seeded engine per
    draw (int64 array). The rare draw whose first output is rejected reads on in its own engine."""
    seeds = np.asarray(seeds, dtype=np.int64)
    erange = high + 1
    scaling = _U32 // erange
    raw = mt19937_first_outputs(seeds)
    out = (raw // np.uint64(scaling)).astype(np.int64)
    for k in np.flatnonzero(raw >= np.uint64(erange * scaling)).tolist():
        out[k] = int(std_uniform_ints(MT19937Stream(int(seeds[k])), [high])[0])
    return out


def std_uniform_ints(stream, highs):
    """libstdc++ 9 ``uniform_int_distribution(0, highs[k])(engine)`` for each k in turn (int64 array).

    Args:
        stream (Union[MT19937Stream, MinstdRand0Stream]): the engine; advanced past the outputs used.
        highs (numpy.ndarray): inclusive upper bounds, each at most the engine's ``urng_range``.
    """
    highs = np.asarray(highs, dtype=np.uint64)
    erange = highs + np.uint64(1)
    scaling = np.uint64(stream.urng_range) // erange
    past = (erange * scaling).tolist()
    scaling = scaling.tolist()
    out = []
    raw, pos = [], 0
    for bound_past, bound_scaling in zip(past, scaling):
        while True:
            if pos == len(raw):
                raw, pos = stream.take(max(1024, len(past) - len(out))).tolist(), 0
            value = raw[pos]
            pos += 1
            if value < bound_past:      # else rejected: draw again for the same bound
                out.append(value // bound_scaling)
                break
    stream.unread(len(raw) - pos)
    return np.asarray(out, dtype=np.int64)


def std_shuffle(values, stream):
    """``std::shuffle(values.begin(), values.end(), engine)`` as libstdc++ 9 does it; returns a new array."""
    values = np.asarray(values)
    n = len(values)
    if n < 2:
        return values.copy()
    items = values.tolist()
    if stream.urng_range // n >= n:
        # libstdc++'s short-range path: one draw picks the swap partners of two successive positions
        first = 1
        if n % 2 == 0:
            j = int(std_uniform_ints(stream, [1])[0])
            items[1], items[j] = items[j], items[1]
            first = 2
        starts = np.arange(first, n, 2, dtype=np.uint64)
        draws = std_uniform_ints(stream, (starts + 1) * (starts + 2) - 1)
        for i, x in zip(starts.tolist(), draws.tolist()):
            j, k = divmod(x, i + 2)
            items[i], items[j] = items[j], items[i]
            items[i + 1], items[k] = items[k], items[i + 1]
    else:
        picks = std_uniform_ints(stream, np.arange(1, n, dtype=np.uint64)).tolist()
        for i, j in enumerate(picks, start=1):
            items[i], items[j] = items[j], items[i]
    return np.asarray(items, dtype=values.dtype)


def std_sample(population_size, count, stream):
    """The indices ``std::sample(first, last, out, count, mt19937)`` copies out of a random-access range of
    ``population_size`` elements (libstdc++'s selection sampling, in order): while at least two elements are left
    (and ``size * size`` fits the engine's range) one draw ``x = uniform(0, left * (left - 1) - 1)`` decides two
    elements (``x // (left - 1) < wanted`` for the first, ``x % (left - 1) < wanted`` for the second); a last single
    element takes ``uniform(0, 0)`` (one draw)."""
    left, wanted = population_size, min(count, population_size)
    chosen, index = [], 0
    if stream.urng_range // max(left, 1) >= left:
        while wanted and left >= 2:
            pick = std_uniform_int(stream, 0, left * (left - 1) - 1)
            first, second = divmod(pick, left - 1)
            left -= 1
            if first < wanted:
                chosen.append(index)
                wanted -= 1
            index += 1
            if not wanted:
                break
            left -= 1
            if second < wanted:
                chosen.append(index)
                wanted -= 1
            index += 1
    while wanted:
        left -= 1
        if std_uniform_int(stream, 0, left) < wanted:
            chosen.append(index)
            wanted -= 1
        index += 1
    return chosen


def std_canonical(stream, count):
    """``count`` draws of libstdc++'s ``generate_canonical<double, 53>(mt19937)`` (float64 array)."""
    raw = stream.take(2 * count).astype(np.float64)
    out = (raw[0::2] + raw[1::2] * 4294967296.0) / 18446744073709551616.0
    return np.where(out >= 1.0, np.nextafter(1.0, 0.0), out)


def std_canonical_float(stream):
    """One draw of ``generate_canonical<float, 24>(mt19937)``: one raw output, rounded to float, over ``2**32``
    in float arithmetic (behind ``uniform_real_distribution<float>``)."""
    value = np.float32(stream.raw()) / np.float32(4294967296.0)
    return np.nextafter(np.float32(1.0), np.float32(0.0)) if value >= 1.0 else value


def std_uniform_int(stream, low, high):
    """One draw of ``uniform_int_distribution<int>(low, high)(mt19937)`` (a Python int)."""
    erange = int(high) - int(low) + 1
    if erange - 1 == stream.urng_range:     # the engine's own range: its output as it is
        return int(low) + stream.raw()
    scaling = stream.urng_range // erange
    past = erange * scaling
    while True:
        value = stream.raw()
        if value < past:            # else rejected: draw again
            return int(low) + value // scaling


def std_uniform_real(stream, low, high, single=False):
    """One draw of ``uniform_real_distribution<double>(low, high)`` (``single``: ``<float>``, computed in float32):
    ``canonical * (high - low) + low``."""
    if single:
        return float(std_canonical_float(stream) * (np.float32(high) - np.float32(low)) + np.float32(low))
    return float(std_canonical(stream, 1)[0]) * (float(high) - float(low)) + float(low)


def std_bernoulli(stream, prob):
    """One draw of ``bernoulli_distribution(prob)``: ``canonical < prob`` (two raw outputs, whatever ``prob``)."""
    return bool(std_canonical(stream, 1)[0] < prob)


def _c_float_function(name, arity):
    """The C library's float function ``name`` (``logf``, ``powf``: what libstdc++'s ``std::log(float)`` and
    ``std::pow(float, float)`` call), or None where it cannot be loaded."""
    try:
        import ctypes
        import ctypes.util
        function = getattr(ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6"), name)
        function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float] * arity
        return function
    except (OSError, AttributeError):
        return None


_LOGF = _c_float_function("logf", 1)
_POWF = _c_float_function("powf", 2)


class NormalFloat:
    """A ``std::normal_distribution<float>(mean, stddev)`` object: libstdc++'s Marsaglia polar method in float
    arithmetic on ``generate_canonical<float>`` draws. It makes two values at a time and keeps the second for its
    next call, so draws depend on the object's life (a member of a C++ operation, or a local of one call)."""

    def __init__(self, mean=0.0, stddev=1.0):
        self.mean, self.stddev = np.float32(mean), np.float32(stddev)
        self._saved = None

    def standard(self, stream):
        """The next value before scaling (``_M_nd`` inside other distributions uses mean 0, stddev 1)."""
        f32 = np.float32
        if self._saved is not None:
            value, self._saved = self._saved, None
            return value
        while True:
            x = f32(2.0 * float(std_canonical_float(stream)) - 1.0)
            y = f32(2.0 * float(std_canonical_float(stream)) - 1.0)
            r2 = f32(x * x) + f32(y * y)
            if not (r2 > 1.0 or r2 == 0.0):
                break
        mult = np.sqrt(f32(-2) * _logf(r2) / r2, dtype=np.float32)
        self._saved = f32(x * mult)
        return f32(y * mult)

    def __call__(self, stream):
        return np.float32(self.standard(stream) * self.stddev + self.mean)


class GammaFloat:
    """A ``std::gamma_distribution<float>(alpha, beta)`` object: libstdc++'s Marsaglia-Tsang method, mixed
    float/double arithmetic as its header writes it, with its own normal distribution member (whose second polar
    value carries over to the object's next call)."""

    def __init__(self, alpha, beta=1.0):
        f32 = np.float32
        self.alpha, self.beta = f32(alpha), f32(beta)
        self.malpha = self.alpha + f32(1.0) if self.alpha < 1.0 else self.alpha
        self.a2 = f32(1.0) / np.sqrt(f32(9.0) * (self.malpha - f32(1.0) / f32(3.0)), dtype=np.float32)
        self._normal = NormalFloat()

    def __call__(self, stream):
        f32 = np.float32
        a1 = f32(self.malpha - f32(1.0) / f32(3.0))
        while True:
            while True:
                n = self._normal.standard(stream)
                v = f32(f32(1.0) + self.a2 * n)
                if v > 0.0:
                    break
            v = f32(f32(v * v) * v)
            u = std_canonical_float(stream)
            nd = float(n)
            if u > 1.0 - 0.0331 * nd * nd * nd * nd and \
                    float(_logf(u)) > 0.5 * nd * nd + float(a1) * (1.0 - float(v) + float(_logf(v))):
                continue
            break
        if self.alpha == self.malpha:
            return f32(f32(a1 * v) * self.beta)
        while True:
            u = std_canonical_float(stream)
            if u != 0.0:
                break
        exponent = f32(1.0) / self.alpha
        power = f32(_POWF(float(u), float(exponent))) if _POWF is not None else np.power(u, exponent, dtype=f32)
        return f32(f32(f32(power * a1) * v) * self.beta)


def _logf(value):
    """``std::log(float)``: the C library's ``logf`` where it loads, else the double log rounded to float."""
    if _LOGF is not None:
        return np.float32(_LOGF(float(value)))
    return np.float32(math.log(float(value)))


def std_normal_float(stream, mean, stddev, key="normal"):
    """One draw of a ``std::normal_distribution<float>(mean, stddev)`` that lives as long as ``stream`` (a member
    of the same C++ operation as the engine), kept on the stream under ``key``."""
    kept = getattr(stream, "_distributions", None)
    if kept is None:
        kept = stream._distributions = {}
    dist = kept.get(key)
    if dist is None:
        dist = kept[key] = NormalFloat(mean, stddev)
    return dist(stream)


def std_discrete(stream, weights, count):
    """``count`` draws of ``std::discrete_distribution<int64>(weights)`` (int64 array)."""
    weights = np.asarray(weights, dtype=np.float64)
    if len(weights) < 2:
        return np.zeros(count, np.int64)
    table = np.cumsum(weights / np.cumsum(weights)[-1])       # both sums run left to right, as C++'s
    table[-1] = 1.0
    return np.searchsorted(table, std_canonical(stream, count), side="left").astype(np.int64)


def std_exponential(stream, count):
    """``count`` draws of ``std::exponential_distribution<double>(1)`` (a list of floats)."""
    return [-math.log(1.0 - u) for u in std_canonical(stream, count).tolist()]


def shuffle_buffer(items, buffer_size, engine):
    """2.10's ``ShuffleOp`` over ``items`` (yields them in its order).

    A buffer of ``buffer_size`` items; each output is the item in slot ``engine() % len(buffer)``, whose place the
    last buffered item takes before the next input item is appended. ``engine`` (:class:`MT19937_64`) is advanced
    by exactly one draw per item, so a later pass continues its stream.
    """
    items = iter(items)
    buffer = list(itertools.islice(items, buffer_size))
    active = len(buffer) == buffer_size
    draws, pos = [], 0
    while buffer:
        if pos == len(draws):
            draws, pos = engine.take(312).tolist(), 0
        last = len(buffer) - 1
        slot = draws[pos] % (last + 1)
        pos += 1
        out = buffer[slot]
        buffer[slot] = buffer[last]
        new_item = next(items, _NO_ITEM) if active else _NO_ITEM
        if new_item is _NO_ITEM:
            active = False
            buffer.pop()
        else:
            buffer[last] = new_item
        yield out
    engine.unread(len(draws) - pos)     # the draws left in the block belong to the next pass


_NO_ITEM = object()


class MT19937_64:
    """``std::mt19937_64``: 64-bit Mersenne Twister (``seed(s)`` and outputs as the C++ standard defines)."""

    _N, _M = 312, 156
    _MATRIX = np.uint64(0xB5026F5AA96619E9)
    _UPPER = np.uint64(0xFFFFFFFF80000000)
    _LOWER = np.uint64(0x7FFFFFFF)

    def __init__(self, seed):
        state = [int(seed) & 0xFFFFFFFFFFFFFFFF]
        for i in range(1, self._N):
            prev = state[-1]
            state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & 0xFFFFFFFFFFFFFFFF)
        self._mt = np.asarray(state, dtype=np.uint64)
        self._out = np.zeros(0, np.uint64)
        self._pos = 0

    def _twist(self):
        mt, n, m = self._mt, self._N, self._M
        new = np.empty_like(mt)
        nxt = mt[1:]

        def mix(upper_src, lower_src, far):
            y = (upper_src & self._UPPER) | (lower_src & self._LOWER)
            return far ^ (y >> np.uint64(1)) ^ np.where(y & np.uint64(1), self._MATRIX, np.uint64(0))

        new[:n - m] = mix(mt[:n - m], nxt[:n - m], mt[m:])
        new[n - m:n - 1] = mix(mt[n - m:n - 1], mt[n - m + 1:], new[:m - 1])
        new[n - 1] = mix(mt[n - 1:], new[:1], new[m - 1:m])[0]
        self._mt = new
        y = new.copy()
        y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
        y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
        y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
        y ^= y >> np.uint64(43)
        return y

    def take(self, count):
        """The next ``count`` outputs (uint64 array)."""
        chunks, have = [self._out[self._pos:]], len(self._out) - self._pos
        while have < count:
            block = self._twist()
            chunks.append(block)
            have += len(block)
        merged = np.concatenate(chunks)
        self._out, self._pos = merged, count
        return merged[:count]

    def unread(self, count):
        """Give back the last ``count`` outputs taken (they are read again next)."""
        self._pos -= count
