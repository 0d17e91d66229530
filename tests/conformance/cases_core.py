"""Cases for the primitives the autodiff engine itself relies on (owned by the lead)."""
import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint

CASES = [
    Case("cast_f32_to_i32", lambda x: ops.cast(x, ms.int32), [rand(2, 3, low=-5, high=5)],
         oracle=lambda x: x.astype(np.int32), prims=["Cast"], out_dtype=ms.int32),
    Case("cast_grad", lambda x: ops.cast(x, ms.float32), [rand(2, 3)], oracle=lambda x: x.astype(np.float32),
         prims=["Cast"], grad=True, rtol=1e-6, eps=1e-2, grad_rtol=1e-3, grad_atol=1e-4),
    Case("cast_many", lambda x, y: ops.CastMany()((x, y), (ms.float16, ms.int32)),
         [rand(2, 3, low=-70000, high=70000), rand(4, seed=1, low=-5, high=5)],
         oracle=lambda x, y: (x.astype(np.float16), y.astype(np.int32)), prims=["CastMany"], rtol=0, atol=0),
    Case("cast_many_grad", lambda x, y: ops.CastMany()((x, y), ms.float32), [rand(2, 3), rand(4, seed=1)],
         oracle=lambda x, y: (x.astype(np.float32), y.astype(np.float32)), prims=["CastMany"], grad=True, rtol=1e-6,
         eps=1e-2, grad_rtol=1e-3, grad_atol=1e-4),
    Case("reshape", lambda x: ops.reshape(x, (3, -1)), [rand(2, 3, 2)], oracle=lambda x: x.reshape(3, -1),
         prims=["Reshape"], grad=True),
    Case("zeros_like", ops.zeros_like, [rand(2, 3)], oracle=np.zeros_like, prims=["ZerosLike"]),
    Case("ones_like", ops.ones_like, [rand(4)], oracle=np.ones_like, prims=["OnesLike"]),
    Case("fill", lambda: ops.fill(ms.float32, (2, 3), 1.5), [], oracle=lambda: np.full((2, 3), 1.5, np.float32),
         prims=["Fill"], out_dtype=ms.float32),
    Case("stop_gradient", ops.stop_gradient, [rand(3)], oracle=lambda x: x, prims=["StopGradient"]),
    Case("identity", ops.identity, [rand(2, 2)], oracle=lambda x: x.copy(), prims=["Identity"], grad=True),
    Case("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3, 4)), [rand(3, 1)],
         oracle=lambda x: np.broadcast_to(x, (2, 3, 4)), prims=["BroadcastTo"], grad=True),
    Case("print", lambda x: ops.Print()("value:", x), [rand(2)], oracle=None, prims=["Print"], out_dtype=ms.int32),
    Case("all_reduce_single_rank", lambda x: ops.AllReduce()(x), [rand(2, 3)], oracle=lambda x: x,
         prims=["AllReduce"], grad=True),
    Case("float_status_finite", lambda x: ops.FloatStatus()(x), [rand(3, 2)],
         oracle=lambda x: np.array([0.0], np.float32), prims=["FloatStatus"], out_dtype=ms.float32),
    Case("float_status_overflow", lambda x: ops.FloatStatus()(x / 0.0), [rand(3)],
         oracle=lambda x: np.array([1.0], np.float32), prims=["FloatStatus"], dtypes=(np.float16, np.float32)),
    Case("all_finite", lambda x, y, k: ops.AllFinite()((x, y, k)), [rand(3, 2), rand(40, 70, seed=1), randint(4)],
         oracle=lambda x, y, k: np.array(True), prims=["AllFinite"], out_dtype=ms.bool_),
    # an inf or a NaN in any input, at its first, a middle or its last element; one far past a block's worth
    Case("all_finite_overflow", lambda x, y: (ops.AllFinite()((x, y / 0.0)), ops.AllFinite()((x * np.nan, y)),
                                              ops.AllFinite()((x, ops.concat((y, y[-1:] / 0.0))))),
         [rand(3, 2), rand(700, seed=1)], oracle=lambda x, y: (np.array(False),) * 3, prims=["AllFinite"],
         dtypes=(np.float16, np.float32, np.float64)),
    Case("unscale_and_check_finite", lambda a, b, c, s: ops.UnscaleAndCheckFinite()((a, b, c), s),
         [rand(3, 2), rand(700, seed=1), rand(seed=2), rand(seed=3, low=0.5, high=2.0)],
         oracle=lambda a, b, c, s: (a * s, b * s, c * s, np.array(True)), prims=["UnscaleAndCheckFinite"],
         rtol=1e-6),
    # an inf or a NaN made by the product (the last element of the largest input) or given; the scale of shape (1,)
    Case("unscale_and_check_finite_overflow",
         lambda a, b, s: (ops.UnscaleAndCheckFinite()((a, ops.concat((b, b[-1:] / 0.0))), s)[-1],
                          ops.UnscaleAndCheckFinite()((a * np.nan, b), ops.reshape(s, (1,)))[-1],
                          ops.UnscaleAndCheckFinite()((a, b), s * 0.0 + np.inf)[-1]),
         [rand(3, 2), rand(700, seed=1), rand(seed=3, low=0.5, high=2.0)],
         oracle=lambda a, b, s: (np.array(False),) * 3, prims=["UnscaleAndCheckFinite"],
         dtypes=(np.float16, np.float32, np.float64)),
]
