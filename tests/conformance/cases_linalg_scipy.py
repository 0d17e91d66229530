"""Conformance cases of the primitives behind ``mindspore.scipy``: ``Eigh``, ``LU``, ``LstsqV2``,
``LinearSumAssignment`` (``ops/_defs/linalg_scipy.py``) and ``DCT``, ``IDCT``, ``DCTN``, ``IDCTN``
(``ops/_defs/dct.py``).

Forward oracles are NumPy/SciPy (``numpy.linalg.eigh``/``lstsq``, ``scipy.linalg.lu_factor``,
``scipy.optimize.linear_sum_assignment``, ``scipy.fft``); MindSpore 2.10's own values for the same functions are
compared in ``tests/api/test_scipy.py``. Eigenvectors are compared squared (a column's sign is LAPACK's choice);
``Eigh``'s gradient is checked on the raw input, of which it reads one triangle.
"""
from __future__ import annotations

import numpy as np
import scipy.fft
import scipy.linalg
import scipy.optimize

import mindspore as ms
from mindspore.ops._defs.dct import DCT, DCTN, IDCT, IDCTN
from mindspore.ops._defs.linalg_scipy import LU, Eigh, LinearSumAssignment, LstsqV2, SelfAdjointEig

from case import Case, rand


def _spd(n, seed=0):
    a = rand(n, n, seed=seed)
    return a @ a.T + n * np.eye(n)


def _eigh(uplo):
    def oracle(a):
        w, v = np.linalg.eigh(a, UPLO=uplo)
        return w, v * v
    return oracle


def _lu_oracle(x):
    lu, piv = scipy.linalg.lu_factor(x)
    m = x.shape[0]
    perm = np.arange(m)
    for i, p in enumerate(piv):
        perm[i], perm[p] = perm[p], perm[i]
    full = np.zeros((m, m), np.int32)
    full[perm, np.arange(m)] = 1
    return lu, piv.astype(np.int32), full


def _lsa_oracle(cost, limit):
    rows, cols = scipy.optimize.linear_sum_assignment(cost[:, :int(limit)])
    k = min(cost.shape)
    pad = np.full(k - rows.size, -1)
    return np.concatenate([rows, pad]), np.concatenate([cols, pad])


CASES = [
    Case("eigh_lower", lambda a: (lambda w, v: (w, v * v))(*Eigh()(a)), [_spd(3, seed=1) + rand(3, 3, seed=2)],
         oracle=_eigh("L"), prims=["Eigh"], grad=True, dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("self_adjoint_eig", lambda a: (lambda w, v: (w, v * v))(*SelfAdjointEig()(a)),
         [_spd(3, seed=1) + rand(3, 3, seed=2)], oracle=_eigh("L"), prims=["SelfAdjointEig"], grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("eigh_upper_values", lambda a: Eigh(False, False)(a), [rand(2, 3, 3, seed=3)],
         oracle=lambda a: np.linalg.eigh(a, UPLO="U")[0], prims=["Eigh"], grad=True, rtol=1e-5),
    Case("lu_square", lambda x: LU()(x), [rand(4, 4, seed=4)], oracle=_lu_oracle, prims=["LU"],
         dtypes=(np.float32, np.float64), rtol=1e-4, atol=1e-5),
    Case("lstsq_v2_tall", lambda a, b: LstsqV2()(a, b, "gelsd")[0], [rand(5, 3, seed=5), rand(5, 2, seed=6)],
         oracle=lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], prims=["LstsqV2"], grad=True, rtol=1e-4,
         atol=1e-5),
    Case("lstsq_v2_wide_vector", lambda a, b: LstsqV2()(a, b, None)[0], [rand(2, 4, seed=7), rand(2, seed=8)],
         oracle=lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], prims=["LstsqV2"], grad=True, rtol=1e-4,
         atol=1e-5),
    Case("lstsq_v2_outputs", lambda a, b: LstsqV2()(a, b, "gelss")[1:], [rand(5, 3, seed=9), rand(5, 2, seed=10)],
         oracle=lambda a, b: (np.sum((a @ np.linalg.lstsq(a, b, rcond=None)[0] - b) ** 2, axis=0),
                              np.array(3, np.int64), np.linalg.svd(a, compute_uv=False)),
         prims=["LstsqV2"], dtypes=(np.float64,)),
    Case("linear_sum_assignment", lambda c, limit: LinearSumAssignment()(c, limit, False),
         [rand(3, 4, seed=11), np.array(3, np.int64)], oracle=_lsa_oracle, prims=["LinearSumAssignment"],
         out_dtype=ms.int64),
    Case("dct_pad_axis0", lambda x: DCT()(x, 2, 5, 0, None), [rand(3, 4, seed=12)],
         oracle=lambda x: scipy.fft.dct(x, n=5, axis=0, norm="ortho"), prims=["DCT"], grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6),
    Case("idct_truncate", lambda x: IDCT()(x, 2, 3, -1, "ortho"), [rand(2, 5, seed=13)],
         oracle=lambda x: scipy.fft.idct(x, n=3, axis=-1, norm="ortho"), prims=["IDCT"], grad=True,
         dtypes=(np.float32, np.float64), rtol=1e-5, atol=1e-6),
    Case("dctn_s_axes", lambda x: DCTN()(x, 2, (2, 4), (0, 2), None), [rand(3, 2, 3, seed=14)],
         oracle=lambda x: scipy.fft.dctn(x, s=(2, 4), axes=(0, 2), norm="ortho"), prims=["DCTN"], grad=True,
         rtol=1e-5, atol=1e-6),
    Case("idctn_all", lambda x: IDCTN()(x, 2, None, None, None), [rand(3, 4, seed=15)],
         oracle=lambda x: scipy.fft.idctn(x, norm="ortho"), prims=["IDCTN"], grad=True, rtol=1e-5, atol=1e-6),
]
