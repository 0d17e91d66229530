"""CPU kernels of the debug family (Print, the overflow checks); the collectives are in :mod:`.comm`."""
import sys

import numpy as np


def _print(prim, *inputs, out=None):
    parts = []
    for x in inputs:
        parts.append(prim.graph_text(x) if isinstance(x, np.ndarray) else str(x))   # the primitive's format
    sys.stdout.write("\n".join(parts) + "\n")
    sys.stdout.flush()
    return np.zeros((), np.int32)


def _float_status(prim, x, out=None):
    return np.array([0.0 if np.isfinite(x).all() else 1.0], np.float32)


def _all_finite(prim, inputs, out=None):
    """True unless an element of a float (or complex) input is inf or NaN; stops at the first input that has one."""
    for x in inputs:
        x = np.asarray(x)
        if x.dtype.kind not in "biu" and not np.isfinite(x).all():
            return np.array(False)
    return np.array(True)


def _unscale_and_check_finite(prim, grads, scale_inv, out=None):
    """Each gradient times ``scale_inv`` (cast to its dtype first, as a Mul after a Cast), and whether every product
    is finite."""
    scale = np.asarray(scale_inv).reshape(())
    finite = True
    products = []
    for g in grads:
        g = np.asarray(g)
        y = np.asarray(np.multiply(g, scale.astype(g.dtype)))     # (a 0-d product is a NumPy scalar otherwise)
        finite = finite and bool(np.isfinite(y).all())
        products.append(y)
    return tuple(products) + (np.array(finite),)


KERNELS = {
    "AllFinite": _all_finite,
    "UnscaleAndCheckFinite": _unscale_and_check_finite,
    "FloatStatus": _float_status,
    "Print": _print,
}
