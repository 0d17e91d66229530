"""The case format of the op conformance suite (``tests/conformance``).

Each family has a ``cases_<family>.py`` with ``CASES = [Case(...), ...]``. The runner
(``test_ops.py``) takes every case on every installed backend and checks:

* **forward**: ``op(*tensors)`` against ``oracle(*arrays)``, an independent NumPy re-implementation
  written in the case file (never by calling our own kernels), for each dtype in ``dtypes``
  (float inputs are cast to it; integer/bool inputs keep theirs); and the output dtype against
  ``out_dtype`` when given;
* **gradient** (when ``grad=True``): in float64, the gradient of ``sum(op(*x) * w)`` (``w`` a fixed
  random weight, so every output element matters) w.r.t. each input in ``grad_inputs`` (default:
  every float input) against central finite differences.

``align`` is for ops whose result is unique only up to a symmetry (``Svd``: a singular vector pair ``(u_i, v_i)``
may come negated, and LAPACK and cuSOLVER choose differently): ``align(outs, expected)`` gets our outputs and the
oracle's as NumPy arrays and returns ours mapped onto the oracle's choice (e.g. each pair given the oracle's sign),
which are then compared as usual; it must not make a wrong result pass.

``prims`` names the primitive(s) the case exercises; a coverage test requires every primitive of
the registry to appear in some case. Every case also runs compiled by the GRAPH_MODE compiler
(``ms.jit(op)``), unless ``modes`` says the op only makes sense eagerly (it creates a Parameter from
its inputs, which graph mode does not allow).
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import numpy as np


@dataclasses.dataclass
class Case:
    name: str                       # test id, e.g. "add_broadcast"
    op: Callable                    # (*Tensors) -> Tensor or tuple of Tensors, built from mindspore ops
    inputs: Sequence[np.ndarray]    # one array per tensor argument of ``op``
    oracle: Callable | None = None  # (*np.ndarrays) -> np.ndarray or tuple; None: compare shape/dtype only
    prims: Sequence[str] = ()       # primitive names exercised
    dtypes: Sequence = (np.float32,)  # forward dtypes for the float inputs
    grad: bool = False              # check the bprop against finite differences (float64)
    grad_inputs: Sequence[int] | None = None  # indices of inputs to differentiate (default: float ones)
    out_dtype: object = None        # expected mindspore dtype of the (first) output, when fixed
    rtol: float = 1e-5
    atol: float = 1e-6
    grad_rtol: float = 1e-5
    grad_atol: float = 1e-6
    eps: float = 1e-6               # finite-difference step
    modes: Sequence[str] = ("pynative", "graph")  # also run compiled (ms.jit) unless the op is eager-only
    align: Callable | None = None   # (outs, expected) -> outs: ours given the oracle's choice where not unique


def rand(*shape, low=-1.0, high=1.0, seed=0, dtype=np.float64):
    """Deterministic uniform test data."""
    return np.random.default_rng(seed + sum(shape) * 31 + len(shape)).uniform(low, high, shape).astype(dtype)


def randpos(*shape, seed=0):
    """Deterministic positive test data in [0.5, 2) (for log, sqrt, division)."""
    return rand(*shape, low=0.5, high=2.0, seed=seed)


def randint(*shape, low=0, high=10, seed=0, dtype=np.int32):
    return np.random.default_rng(seed + 7 + sum(shape)).integers(low, high, shape).astype(dtype)
