"""MindSpore 2.10's host random streams for initializers, in NumPy (bit for bit).

Design
------
MindSpore fills an initializer's float32 buffer with a counter-based Philox4x32-10 generator keyed by one 64-bit
seed (``seed`` drawn from NumPy's global generator by ``mindspore.common.initializer``): the key is the seed's two
32-bit halves and block ``j`` of four uint32 words is the cipher of the counter ``(j, 0, seed_lo, seed_hi)``. Its
parallel fill splits the buffer into runs whose starts are multiples of four words and skips each run's generator
to its start, so the whole buffer reads one stream: word ``i`` for element ``i`` (uniform, truncated normal), words
``2k, 2k+1`` for the Box-Muller pair of elements ``2k, 2k+1`` (normal) whatever the thread count. Here every block
is computed at once on uint32 arrays (no per-element Python loop), and each distribution transform repeats 2.10's
arithmetic step for step in float64 (its constants are float32 literals widened to double), then rounds to
float32, as 2.10 stores them.

This is the reference and the fallback: ``mindspore.common.initializer`` uses a plugin's native fill of the same
bits when one is offered through the ``ms_random_fills`` hook (the CPU backend's C++, several times faster), and
these functions when none is (core alone).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["philox_words", "uniform", "normal", "truncated_normal"]

_M0 = np.uint64(0xD2511F53)
_M1 = np.uint64(0xCD9E8D57)
_KEY_STEP = (0x9E3779B9, 0xBB67AE85)
_LO32 = np.uint64(0xFFFFFFFF)
_ROUNDS = 10


_CHUNK = 1 << 14   # blocks per pass (64K values): the working arrays stay in cache


class _Philox:
    """The blocks of one seed's stream, a run of them at a time, into reused scratch arrays."""

    def __init__(self, seed):
        seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        self.lo, self.hi = seed & 0xFFFFFFFF, seed >> 32
        keys = [(self.lo, self.hi)]
        for _ in range(_ROUNDS - 1):
            k0, k1 = keys[-1]
            keys.append(((k0 + _KEY_STEP[0]) & 0xFFFFFFFF, (k1 + _KEY_STEP[1]) & 0xFFFFFFFF))
        self.keys = [(np.uint64(k0), np.uint64(k1)) for k0, k1 in keys]
        self.scratch = [np.empty(_CHUNK, dtype=np.uint64) for _ in range(6)]
        self.words = np.empty((_CHUNK, 4), dtype=np.uint32)

    def blocks(self, start, m):
        """Blocks ``start .. start + m - 1`` (m <= _CHUNK) as 4*m uint32 words (a view of reused scratch)."""
        a0, a1, a2, a3, u0, u1 = (x[:m] for x in self.scratch)
        shift = np.uint64(32)
        # the 128-bit counter (j, 0, lo, hi) of block j: j carries into the second word only past 2**32 blocks
        np.copyto(a0, np.arange(start, start + m, dtype=np.uint64))
        np.right_shift(a0, shift, out=a1)
        np.bitwise_and(a0, _LO32, out=a0)
        a2.fill(self.lo)
        a3.fill(self.hi)
        for k0, k1 in self.keys:
            np.multiply(a0, _M0, out=u0)           # (hi0, lo0) = M0 * c0
            np.multiply(a2, _M1, out=u1)           # (hi1, lo1) = M1 * c2
            # c0 <- hi1 ^ c1 ^ k0;  c1 <- lo1;  c2 <- hi0 ^ c3 ^ k1;  c3 <- lo0
            np.right_shift(u1, shift, out=a0)
            np.bitwise_xor(a0, a1, out=a0)
            np.bitwise_xor(a0, k0, out=a0)
            np.bitwise_and(u1, _LO32, out=a1)
            np.right_shift(u0, shift, out=a2)
            np.bitwise_xor(a2, a3, out=a2)
            np.bitwise_xor(a2, k1, out=a2)
            np.bitwise_and(u0, _LO32, out=a3)
        words = self.words[:m]
        words[:, 0], words[:, 1], words[:, 2], words[:, 3] = a0, a1, a2, a3
        return words.reshape(-1)


def _stream(seed, count, transform):
    """``count`` float32 values: ``transform`` (uint32 words -> as many float64 values) over the seed's stream,
    a cache-sized run of blocks at a time."""
    count = int(count)
    out = np.empty(count, dtype=np.float32)
    gen = _Philox(seed)
    blocks = (count + 3) // 4
    for start in range(0, blocks, _CHUNK):
        m = min(_CHUNK, blocks - start)
        lo = 4 * start
        hi = min(count, lo + 4 * m)
        out[lo:hi] = transform(gen.blocks(start, m))[:hi - lo]
    return out


def philox_words(seed, count):
    """The first ``count`` uint32 words of the Philox4x32-10 stream of the 64-bit ``seed`` (uint32 array)."""
    count = int(count)
    gen = _Philox(seed)
    blocks = (count + 3) // 4
    out = np.empty(4 * blocks, dtype=np.uint32)
    for start in range(0, blocks, _CHUNK):
        m = min(_CHUNK, blocks - start)
        out[4 * start:4 * (start + m)] = gen.blocks(start, m)
    return out[:count]


def _f32(x):
    """A Python number rounded to float32 and widened back (how 2.10 passes its float arguments)."""
    return float(np.float32(x))


def _unit(words):
    """2.10's uniform transform of uint32 words to [0, 1): ``word / 2**32`` in double."""
    return words.astype(np.float64) / 4294967296.0


def uniform(seed, count, a, b):
    """``count`` float32 draws of 2.10's ``_random_uniform(seed, buf, a, b)``."""
    a, b = _f32(a), _f32(b)
    return _stream(seed, count, lambda words: (b - a) * _unit(words) + a)


def _mantissa_unit(words):
    """A word's low 23 bits as a float32 in [0, 1) (the bits of ``1.m`` minus one), widened to double."""
    bits = (words & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)
    return (bits.view(np.float32) - np.float32(1.0)).astype(np.float64)


_PI = _f32(3.1415926)
_THRESHOLD = _f32(1.0e-7)


def normal(seed, count, mean, sigma):
    """``count`` float32 draws of 2.10's ``_random_normal(seed, buf, mean, sigma)`` (Box-Muller on word pairs:
    cosine branch for the even element, sine branch for the odd one)."""
    mean, sigma = _f32(mean), _f32(sigma)

    def transform(words):
        u = np.maximum(_mantissa_unit(words), _THRESHOLD)
        x = np.sqrt(-2.0 * np.log(u[0::2])) * sigma
        y = (2.0 * _PI) * u[1::2]
        out = np.empty(words.size, dtype=np.float64)
        out[0::2] = mean + x * np.cos(y)
        out[1::2] = mean + x * np.sin(y)
        return out
    return _stream(seed, count, transform)


_ROOT_TWO = _f32(1.4142135)

# erf_inv rational approximations (the published coefficients of Boost.Math's erf_inv, which 2.10 evaluates in
# double): per interval, Y (a float32 literal), numerator P and denominator Q, lowest degree first
_ERFINV_SMALL = (_f32(0.0891314744949340820313),
                 (-0.000508781949658280665617, -0.00836874819741736770379, 0.0334806625409744615033,
                  -0.0126926147662974029034, -0.0365637971411762664006, 0.0219878681111168899165,
                  0.00822687874676915743155, -0.00538772965071242932965),
                 (1.0, -0.970005043303290640362, -1.56574558234175846809, 1.56221558398423026363,
                  0.662328840472002992063, -0.71228902341542847553, -0.0527396382340099713954,
                  0.0795283687341571680018, -0.00233393759374190016776, 0.000886216390456424707504))
_ERFINV_MID = (_f32(2.249481201171875),
               (-0.202433508355938759655, 0.105264680699391713268, 8.37050328343119927838,
                17.6447298408374015486, -18.8510648058714251895, -44.6382324441786960818,
                17.445385985570866523, 21.1294655448340526258, -3.67192254707729348546),
               (1.0, 6.24264124854247537712, 3.9713437953343869095, -28.6608180499800029974,
                -20.1432634680485188801, 48.5609213108739935468, 10.8268667355460159008,
                -22.6436933413139721736, 1.72114765761200282724))
# tail intervals of x = sqrt(-log(q)): (upper end of x, offset, Y, P, Q)
_ERFINV_TAILS = (
    (3.0, 1.125, _f32(0.807220458984375),
     (-0.131102781679951906451, -0.163794047193317060787, 0.117030156341995252019, 0.387079738972604337464,
      0.337785538912035898924, 0.142869534408157156766, 0.0290157910005329060432, 0.00214558995388805277169,
      -0.679465575181126350155e-6, 0.285225331782217055858e-7, -0.681149956853776992068e-9),
     (1.0, 3.46625407242567245975, 5.38168345707006855425, 4.77846592945843778382, 2.59301921623620271374,
      0.848854343457902036425, 0.152264338295331783612, 0.01105924229346489121)),
    (6.0, 3.0, _f32(0.93995571136474609375),
     (-0.0350353787183177984712, -0.00222426529213447927281, 0.0185573306514231072324,
      0.00950804701325919603619, 0.00187123492819559223345, 0.000157544617424960554631,
      0.460469890584317994083e-5, -0.230404776911882601748e-9, 0.266339227425782031962e-11),
     (1.0, 1.3653349817554063097, 0.762059164553623404043, 0.220091105764131249824, 0.0341589143670947727934,
      0.00263861676657015992959, 0.764675292302794483503e-4)),
    (18.0, 6.0, _f32(0.98362827301025390625),
     (-0.0167431005076633737133, -0.00112951438745580278863, 0.00105628862152492910091,
      0.000209386317487588078668, 0.149624783758342370182e-4, 0.449696789927706453732e-6,
      0.462596163522878599135e-8, -0.281128735628831791805e-13, 0.99055709973310326855e-16),
     (1.0, 0.591429344886417493481, 0.138151865749083321638, 0.0160746087093676504695,
      0.000964011807005165528527, 0.275335474764726041141e-4, 0.282243172016108031869e-6)),
    (44.0, 18.0, _f32(0.99714565277099609375),
     (-0.0024978212791898131227, -0.779190719229053954292e-5, 0.254723037413027451751e-4,
      0.162397777342510920873e-5, 0.396341011304801168516e-7, 0.411632831190944208473e-9,
      0.145596286718675035587e-11, -0.116765012397184275695e-17),
     (1.0, 0.207123112214422517181, 0.0169410838120975906478, 0.000690538265622684595676,
      0.145007359818232637924e-4, 0.144437756628144157666e-6, 0.509761276599778486139e-9)),
    (math.inf, 44.0, _f32(0.99941349029541015625),
     (-0.000539042911019078575891, -0.28398759004727721098e-6, 0.899465114892291446442e-6,
      0.229345859265920864296e-7, 0.225561444863500149219e-9, 0.947846627503022684216e-12,
      0.135880130108924861008e-14, -0.348890393399948882918e-21),
     (1.0, 0.0845746234001899436914, 0.00282092984726264681981, 0.468292921940894236786e-4,
      0.399968812193862100054e-6, 0.161809290887904476097e-8, 0.231558608310259605225e-11)),
)


def _horner(coeffs, x):
    """``sum(coeffs[i] * x**i)`` by Horner's rule from the highest coefficient (2.10's evaluation order)."""
    acc = np.full_like(x, coeffs[-1])
    for c in coeffs[-2::-1]:
        acc = acc * x + c
    return acc


def _erf_inv(p, q):
    """erf_inv of ``p`` given ``q = 1 - p`` (both float64 arrays, p >= 0), branch by branch as 2.10."""
    out = np.empty_like(p)
    small = p <= 0.5
    mid = ~small & (q >= 0.25)
    tail = ~small & ~mid
    if small.any():
        y, num, den = _ERFINV_SMALL
        ps = p[small]
        g = ps * (ps + 10.0)
        r = _horner(num, ps) / _horner(den, ps)
        out[small] = g * y + g * r
    if mid.any():
        y, num, den = _ERFINV_MID
        qs = q[mid]
        g = np.sqrt(-2.0 * np.log(qs))
        xs = qs - 0.25
        out[mid] = g / (y + _horner(num, xs) / _horner(den, xs))
    if tail.any():
        x = np.sqrt(-np.log(q[tail]))
        res = np.empty_like(x)
        lower = -math.inf
        for upper, offset, y, num, den in _ERFINV_TAILS:
            sel = (x >= lower) & (x < upper) if upper != math.inf else x >= lower
            if sel.any():
                xi = x[sel]
                xs = xi - offset
                r = _horner(num, xs) / _horner(den, xs)
                res[sel] = y * xi + r * xi
            lower = upper
        out[tail] = res
    return out


_Z_MIN = float(np.nextafter(np.float32(0), np.float32(2)))
_Z_MAX = float(np.nextafter(np.float32(2), np.float32(0)))


def truncated_normal(seed, count, a, b, mean, sigma):
    """``count`` float32 draws of 2.10's ``_truncated_normal(seed, buf, a, b, mean, sigma)``: inverse CDF of one
    uniform word per element (no clipping to ``[a, b]``, as in 2.10)."""
    a, b, mean, sigma = _f32(a), _f32(b), _f32(mean), _f32(sigma)
    if sigma <= 0:
        raise ValueError(f"TruncatedNormal: invalid sigma {sigma}.")
    alpha, beta = (a - mean) / sigma, (b - mean) / sigma
    cdf_a = math.erfc(-(alpha / _ROOT_TWO)) / 2.0
    cdf_b = math.erfc(-(beta / _ROOT_TWO)) / 2.0

    def transform(words):
        z = 2.0 * (cdf_a + _unit(words) * (cdf_b - cdf_a))
        z = np.where(z <= 0.0, _Z_MIN, np.where(z >= 2.0, _Z_MAX, z))   # erfc_inv keeps z inside (0, 2)
        upper = z > 1.0
        q = np.where(upper, 2.0 - z, z)
        x = _erf_inv(1.0 - q, q)
        np.negative(x, out=x, where=upper)
        return mean + (-x * _ROOT_TWO) * sigma
    return _stream(seed, count, transform)
