"""CPU kernels of ``mindspore/ops/_defs/reduce.py``: mindspore-array-kernels' ``reduce`` family bound to NumPy (the
GPU backend binds the same source to CuPy), with NumPy's error state quieted around the arithmetic, NumPy's own
accumulation in ``ReduceSum``/``ReduceProd``/``ReduceMean`` except for float16, which accumulates in float32 and
rounds once (MindSpore 2.10's CPU has no float16 kernel for them: it runs the float32 one), bfloat16 sorted and
compared as it is, the NaN rule's short cut where a slice holds no NaN (read on the host for free) and
``ufunc.accumulate`` for the running extrema."""
import numpy as np

from mindspore_array_kernels import bind


def _library_acc(x):
    return np.float32 if x.dtype == np.float16 else None


def _same(x):
    return x


def _clear(mask):
    return not mask.any()


def _accumulate(ufunc, a):
    return ufunc.accumulate(a, axis=0)


KERNELS = bind("reduce", globals(), xp=np, dev=np.asarray, errstate=np.errstate, acc_dtype=_library_acc,
               sortable=_same, known_clear=_clear, scan=_accumulate)["KERNELS"]
