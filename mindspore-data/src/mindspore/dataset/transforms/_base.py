"""Shared machinery of the data transforms (``transforms``, ``vision``, ``text``).

A transform is a plain Python object with ``__call__``: the pipeline's ``map`` calls it with one
NumPy array per input column (or a PIL image that a previous transform returned) and takes back one
array or a tuple of arrays. The same object works eagerly: ``vision.Resize(32)(image)``.

Randomness, as MindSpore 2.10's. The transforms that 2.10 runs in C++ draw with libstdc++'s distributions
(``engine/cxx_random.py``) from their own ``std::mt19937``, :func:`op_engine`: inside a map, the engine of the
map worker that 2.10 gives the row (seeded when the iterator is created: the pipeline seed, plus the worker's
number for the map's own operations); called eagerly, a new engine seeded with the configured seed on every call
(2.10 builds a new C++ operation per call). The transforms 2.10 runs in Python (and the C++ ones given a PIL
image) draw from Python's and NumPy's global generators, which ``config.set_seed`` seeds. The few transforms
whose 2.10 draws are not reproduced (audio's Dither, GriffinLim, InverseMelScale, the legacy
``py_transforms.Cutout``) draw from :func:`transform_rng`, a NumPy ``Generator`` the engine seeds per row.

Argument checks raise MindSpore's messages ("Argument size with value ... is not of type ...",
"Input prob is not within the required interval of [0.0, 1.0]."); problems with the data itself
(wrong rank, wrong dtype) raise ``RuntimeError``, as errors from MindSpore's C++ data engine do.
"""
import numbers
import sys

import numpy as np

from mindspore.plugin import MSRuntimeError, MSTypeError, MSValueError
from mindspore.dataset import config

INT32_MAX = 2147483647
UINT8_MAX = 255
FLOAT_MAX = 16777216.0


def transform_rng():
    """The NumPy ``Generator`` a transform draws its random parameters from (looked up on every call,
    so the engine's per-row context, or a test's replacement, is always the one used)."""
    return config._transform_rng()  # pylint: disable=protected-access


def op_engine(op):
    """The ``std::mt19937`` stream (``engine.cxx_random.MT19937Stream``) the random transform ``op`` draws from
    as 2.10's C++ operation does: its own engine in the map worker that processes the row, or, called eagerly, a
    new one seeded with the configured seed on every call (see ``config._op_engine``). Draw from it with the
    libstdc++ distributions of ``engine.cxx_random``."""
    return config._op_engine(op)  # pylint: disable=protected-access


def is_pil(obj):
    """Whether ``obj`` is a PIL image (without importing Pillow when nobody uses it)."""
    image_module = sys.modules.get("PIL.Image")
    return image_module is not None and isinstance(obj, image_module.Image)


def to_array(value, op_name):
    """An input as a NumPy array: Tensors through ``asnumpy``, PIL images and sequences by ``np.asarray``."""
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    if isinstance(value, (bytes, bytearray)):
        return np.frombuffer(value, dtype=np.uint8)
    try:
        return np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise MSTypeError(f"{op_name}: invalid user input. Got {type(value)}: {value}, "
                          f"cannot be converted into tensor.") from exc


def runtime_error(op_name, message):
    """An error about the data a transform received (MindSpore raises these as RuntimeError)."""
    return MSRuntimeError(f"{op_name}: {message}")


# ----------------------------------------------------------------------------------------------------------------
# argument checks (messages as MindSpore's dataset validators)

def _type_names(types):
    return "[" + ", ".join(str(t) for t in types) + "]"


def check_type(value, types, name):
    """``value`` is an instance of ``types`` (bool is never accepted as a number)."""
    types = types if isinstance(types, tuple) else (types,)
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        raise MSTypeError(f"Argument {name} with value {value!r} is not of type {_type_names(types)}, "
                          f"but got {type(value)}.")
    return value


def check_range(value, low, high, name, left_open=False, right_open=False):
    """``low <= value <= high`` (or open at either end)."""
    too_low = value <= low if left_open else value < low
    too_high = value >= high if right_open else value > high
    if too_low or too_high:
        left, right = ("(" if left_open else "["), (")" if right_open else "]")
        raise MSValueError(f"Input {name} is not within the required interval of {left}{low}, {high}{right}.")
    return value


def check_int(value, name, low=None, high=None):
    check_type(value, int, name)
    if low is not None or high is not None:
        check_range(value, -INT32_MAX - 1 if low is None else low, INT32_MAX if high is None else high, name)
    return value


def check_pos_int(value, name):
    return check_int(value, name, 1, INT32_MAX)


def check_non_neg_int(value, name):
    return check_int(value, name, 0, INT32_MAX)


def check_float(value, name, low=None, high=None, left_open=False, right_open=False):
    check_type(value, (int, float, np.integer, np.floating), name)
    if low is not None or high is not None:
        check_range(float(value), -np.inf if low is None else low, np.inf if high is None else high, name,
                    left_open, right_open)
    return float(value)


def check_bool(value, name):
    return check_type(value, bool, name)


def check_prob(value, name="prob"):
    return check_float(value, name, 0.0, 1.0)


def check_sequence(value, name, lengths=None, types=(list, tuple)):
    check_type(value, types, name)
    if lengths is not None and len(value) not in lengths:
        want = " or ".join(str(n) for n in lengths)
        raise MSValueError(f"{name} should be a list or tuple of length {want}, but got length {len(value)}.")
    return value


def check_size(value, name="size"):
    """An image size: a positive int, or a sequence of one or two positive ints ``(height, width)``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return check_pos_int(int(value), name)
    check_sequence(value, name, (1, 2))
    for item in value:
        check_pos_int(item, name)
    return tuple(value)


def as_hw(size):
    """``(height, width)`` from an int or a sequence of one or two ints."""
    if isinstance(size, numbers.Integral):
        return int(size), int(size)
    if len(size) == 1:
        return int(size[0]), int(size[0])
    return int(size[0]), int(size[1])


def check_min_max(value, name, low=0.0, high=FLOAT_MAX):
    """A ``(min, max)`` pair of numbers inside ``[low, high]`` with ``min <= max``."""
    check_sequence(value, name, (2,))
    for item in value:
        check_float(item, name, low, high)
    if value[0] > value[1]:
        raise MSValueError(f"{name} should be in (min,max) format. Got (max,min).")
    return float(value[0]), float(value[1])


def check_callable_list(transforms, name="transforms"):
    check_type(transforms, list, name)
    if not transforms:
        raise MSValueError(f"{name} list can not be empty.")
    for index, op in enumerate(transforms):
        if not callable(op):
            raise MSTypeError(f"{name}[{index}] is neither a transforms op (TensorOperation) nor a callable "
                              f"pyfunc. Got {type(op)}.")
    return transforms


class TensorOperation:
    """Base class of the transforms: a picklable object whose subclasses define ``__call__``.

    ``random`` tells the pipeline whether the op draws random numbers (MindSpore's attribute of
    the same name); ``implementation`` is kept for code that inspects it.
    """

    random = False
    implementation = None

    def __repr__(self):
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({params})"


def single_or_tuple(outputs):
    """One output as itself, several as a tuple (the form ``map`` accepts)."""
    return outputs[0] if len(outputs) == 1 else tuple(outputs)
