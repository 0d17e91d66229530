"""CPU kernels of ``mindspore/ops/_defs/control_prims.py`` (the gradient hooks, ``Assert``, ``CheckNumerics``,
``TensorDump``, ``DumpGradient``, ``PyFunc``, ``MoveTo``, ``Reusing``): mindspore-array-kernels' ``control_prims``
family bound to NumPy (the GPU backend binds the same source to CuPy); the user's function of ``PyFunc`` gets the
NumPy inputs themselves."""
import numpy as np

from mindspore_array_kernels import bind

KERNELS = bind("control_prims", globals(), xp=np, host=np.asarray, back=np.asarray)["KERNELS"]
