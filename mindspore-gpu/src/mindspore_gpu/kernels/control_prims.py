"""GPU kernels of ``mindspore/ops/_defs/control_prims.py`` (the gradient hooks, ``Assert``, ``CheckNumerics``,
``TensorDump``, ``DumpGradient``, ``PyFunc``, ``MoveTo``, ``Reusing``): mindspore-array-kernels' ``control_prims``
family bound to CuPy (the CPU backend binds the same source to NumPy). What ``Assert`` prints, ``TensorDump`` saves
(``numpy.save``) and ``PyFunc``'s user function gets are copied to the host (``cupy.asnumpy``), the function's results
back to the device (``cupy.asarray``); the checks and the forwarding ops run on the device."""
import cupy

from mindspore_array_kernels import bind

KERNELS = bind("control_prims", globals(), xp=cupy, host=cupy.asnumpy, back=cupy.asarray)["KERNELS"]
