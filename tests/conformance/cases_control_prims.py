"""Conformance cases of the control family (``ops.HookBackward``, ``InsertGradientOf``, ``Assert``,
``CheckNumerics``, ``TensorDump``, ``DumpGradient``, ``PyFunc``, ``PyExecute``, the functional loops, ``Partial``,
``UpdateState``, ``GeSwitch``/``Merge``, ``Morph``, ``MoveTo``, ``Reusing``, ``SubAndFilter``). The gradient
hooks here log (return None / their input), so the finite differences see the plain function; what they change is in
``tests/ops/test_control_prims.py``."""
import atexit
import os
import shutil
import tempfile

import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint

_DUMPS = tempfile.mkdtemp(prefix="ms_control_cases_")
atexit.register(shutil.rmtree, _DUMPS, True)


def _log_hook(grads):
    assert isinstance(grads, tuple)


def _keep(g):
    return g + 0


_HOOK = ops.HookBackward(_log_hook)
_INSERT = ops.InsertGradientOf(_keep)


def _assert_then(x):
    ops.Assert(3)(x.sum() > -100.0, [x])
    return x * 2


def _dump_then(x):
    ops.TensorDump()(os.path.join(_DUMPS, "x"), x)
    return x + 1


def _cumsum_rows(x):
    def step(c, row):
        return c + row, c * row
    carry, ys = ops.Scan()(step, x[0] * 0, [x[i] for i in range(x.shape[0])])
    return (carry,) + tuple(ys)


def _np_cumsum_rows(x):
    c, ys = np.zeros_like(x[0]), []
    for row in x:
        c, y = c + row, c * row
        ys.append(y)
    return (c,) + tuple(ys)


def _np_scan_while(x):
    while x.sum() < 50:
        x = x * 2
    return x


def _switch_merge(x):
    value, index = ops.Merge()(ops.GeSwitch()(x, True))
    return value * 3, index


_PYFUNC = ops.PyFunc(lambda a, b: (a - b, np.maximum(a, b)), [ms.float32, ms.float32], [(2, 3), (2, 3)],
                     [ms.float32, ms.float32], [(2, 3), (2, 3)])
_MORPH = ops.Morph(lambda a, b: a * b + a, lambda s, t: s, lambda s, t: s)

CASES = [
    Case("hook_backward_one", lambda x: _HOOK(x * 2), [rand(2, 3)], oracle=lambda x: x * 2, prims=["HookBackward"],
         dtypes=(np.float32, np.float64), grad=True),
    Case("hook_backward_two", lambda x, y: _HOOK(x, y * y), [rand(3), rand(3, seed=1)],
         oracle=lambda x, y: (x, y * y), prims=["HookBackward"], grad=True),
    Case("insert_gradient_of", lambda x: _INSERT(x) * x, [rand(4)], oracle=lambda x: x * x,
         prims=["InsertGradientOf"], grad=True),
    Case("assert_holds", _assert_then, [rand(2, 2)], oracle=lambda x: x * 2, prims=["Assert"]),
    Case("check_numerics", lambda x: ops.CheckNumerics()(x) * 3, [rand(3, 2)], oracle=lambda x: x * 3,
         prims=["CheckNumerics"], dtypes=(np.float16, np.float32, np.float64), grad=True, rtol=1e-3, atol=1e-3),
    Case("tensor_dump", _dump_then, [rand(5)], oracle=lambda x: x + 1, prims=["TensorDump"]),
    Case("dump_gradient", lambda x: ops.DumpGradient()(os.path.join(_DUMPS, "g"), x, "in") ** 2, [rand(3)],
         oracle=lambda x: x ** 2, prims=["DumpGradient"], grad=True),
    Case("py_func_two_outputs", lambda a, b: _PYFUNC(a, b), [rand(2, 3), rand(2, 3, seed=2)],
         oracle=lambda a, b: (a - b, np.maximum(a, b)), prims=["PyFunc"]),
    Case("py_execute", lambda x: ops.PyExecute()("a * 2 + b", ("a", "b"), (x, 1.5)), [rand(3)],
         oracle=lambda x: x * 2 + 1.5, prims=["PyExecute"]),
    Case("fori_loop", lambda x: ops.ForiLoop()(1, 4, lambda i, v: v * i + 1.0, x), [rand(3)],
         oracle=lambda x: ((x * 1 + 1) * 2 + 1) * 3 + 1, prims=["ForiLoop"]),
    Case("while_loop", lambda x: ops.WhileLoop()(lambda v: v.sum() < 50, lambda v: v * 2, x),
         [rand(4, low=0.5, high=1.0)], oracle=_np_scan_while, prims=["WhileLoop"]),
    Case("scan_rows", _cumsum_rows, [rand(3, 2)], oracle=_np_cumsum_rows, prims=["Scan"]),
    Case("partial", lambda x, y: ops.Partial()(ops.sub, x)(y), [rand(3), rand(3, seed=3)],
         oracle=lambda x, y: x - y, prims=["Partial"]),
    Case("update_state", lambda x: ops.UpdateState()(x * 2, x), [rand(2)], oracle=lambda x: x * 2,
         prims=["UpdateState"]),
    Case("geswitch_merge", _switch_merge, [rand(3)], oracle=lambda x: (x * 3, np.array(1, np.int32)),
         prims=["GeSwitch", "Merge"]),
    Case("morph", lambda a, b: _MORPH(a, b), [rand(2, 2), rand(2, 2, seed=4)], oracle=lambda a, b: a * b + a,
         prims=["Morph"], modes=("graph",)),
    Case("move_to", lambda x: ops.MoveTo()(x, "CPU", True) * x, [rand(3)], oracle=lambda x: x * x,
         prims=["MoveTo"], grad=True),
    Case("reusing", lambda x: ops.Reusing()(x) + 1, [randint(2, 3)], oracle=lambda x: x + 1, prims=["Reusing"]),
    Case("sub_and_filter", lambda x: ops.SubAndFilter()(x, 6, 2), [randint(4, 3)],
         oracle=lambda x: (x.reshape(-1)[(x.reshape(-1) >= 2) & (x.reshape(-1) < 8)] - 2,
                           np.flatnonzero((x.reshape(-1) >= 2) & (x.reshape(-1) < 8)).astype(x.dtype)),
         prims=["SubAndFilter"]),
    Case("reusing_grad", lambda x: ops.Reusing()(x) * 4, [rand(2)], oracle=lambda x: x * 4, prims=["Reusing"],
         grad=True),
]
