"""GPU kernels of ``mindspore/ops/_defs/math_misc.py`` (``Dense``, ``Cross``, ``Ger``, ``Logit``, ``GLU``, ``Cdist``,
``Renorm``, ``SquareSumAll``, ``CumulativeLogsumexp``, ``Eps``, the counts and histograms, the sorted searches,
``Bucketize``, ``ApproximateEqual``, ``LogSpace``): mindspore-array-kernels' ``math_misc`` family bound to CuPy (the
CPU backend binds the same source to NumPy), with ``_common.dev`` (no copy for a CuPy array already on the device),
``cupy.asnumpy`` (an explicit copy: ``HistogramFixedWidth``'s two bounds), ``_common.scalar_of`` (scalar arguments
read back), ``_common.wide`` and ``_common.finfo`` (float16 and bfloat16 compute in float32; bfloat16's limits),
``_common.sortable`` (CuPy's sorted searches do not take bfloat16: exact in float32) and ``_common.scan`` with
``logaddexp`` for ``CumulativeLogsumexp`` (CuPy's ufuncs accumulate only add and multiply).
"""
import cupy

from mindspore_array_kernels import bind
from mindspore_gpu.kernels._common import dev, finfo, scalar_of, scan, sortable, wide

KERNELS = bind("math_misc", globals(), xp=cupy, dev=dev, host=cupy.asnumpy, scalar=scalar_of, wide=wide,
               finfo=finfo, sortable=sortable, scan=scan)["KERNELS"]
