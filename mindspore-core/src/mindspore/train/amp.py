"""``mindspore.train.amp``: MindSpore's module path of automatic mixed precision (``mindspore.amp`` re-exports it
there; here it is the other way round, the implementation is ``mindspore.amp``).

Libraries built on MindSpore import from this path, besides the public functions, the built-in lists as module
constants (``AMP_WHITE_LIST``, ``AMP_BLACK_LIST``) and the helpers ``_auto_black_list`` (O2's conversion) and
``_auto_mixed_precision_rewrite`` (O1's, and ``custom_mixed_precision``'s, conversion by list), and the strategy
values ``AmpLevel`` / ``create_amp_strategy`` (MindSpore's C++ module ``mindspore._c_expression.amp`` holds them,
which MindOne's diffusers import), so those keep MindSpore 2.10's names and signatures. The graph compiler here
does not read a strategy from a function's or Cell's ``amp_strategy`` attribute (MindSpore's does, under ``jit``);
under PYNATIVE neither does MindSpore's.
"""
import enum

from mindspore._errors import MSTypeError
from mindspore.amp import (DynamicLossScaleManager, DynamicLossScaler, FixedLossScaleManager, LossScaleManager,
                           LossScaler, StaticLossScaler, all_finite, auto_mixed_precision, build_train_network,
                           custom_mixed_precision, get_black_list, get_white_list)
from mindspore import amp as _amp
from mindspore.amp import _auto_black_list, _OutputTo32  # noqa: F401 - MindSpore's names (2.10 has no
#                                                             _auto_white_list here: libraries test for it to choose)
from mindspore.amp import _add_loss_network, _config_level as _level_config, _keep_batchnorm_fp32  # noqa: F401

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network", "get_white_list",
           "get_black_list", "all_finite", "LossScaler", "StaticLossScaler", "DynamicLossScaler",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]

class AmpLevel(enum.Enum):
    """The mixed-precision levels of an :class:`AmpStrategy` (``AmpAuto``: by the strategy's own lists)."""
    AmpO0 = 0
    AmpO1 = 1
    AmpO2 = 2
    AmpO3 = 3
    AmpAuto = 4


class AmpStrategy:
    """A mixed-precision strategy as a value: its level, its low-precision dtype (``None``: not set) and its white and
    black lists of ``(primitive name, [input indices])``. MindSpore's graph compiler reads it from the
    ``amp_strategy`` attribute of a function or Cell it compiles; under PYNATIVE it has no effect there either."""

    __slots__ = ("_level", "_dtype", "_white", "_black")

    def __init__(self, level, dtype, white_list, black_list):
        self._level, self._dtype = level, dtype
        self._white = [(name, list(indices)) for name, indices in white_list]
        self._black = [(name, list(indices)) for name, indices in black_list]

    def get_amp_level(self):
        return self._level

    def get_amp_dtype(self):
        return self._dtype

    def get_white_list(self):
        return [(name, list(indices)) for name, indices in self._white]

    def get_black_list(self):
        return [(name, list(indices)) for name, indices in self._black]

    def __repr__(self):
        return f"AmpStrategy(level={self._level}, dtype={self._dtype})"


def _prim_list(value):
    return isinstance(value, list) and all(
        isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], str) and isinstance(e[1], list) and
        all(isinstance(i, int) and not isinstance(i, bool) for i in e[1]) for e in value)


def create_amp_strategy(level, dtype, white_list, black_list):
    """An :class:`AmpStrategy` of ``level`` (an :class:`AmpLevel`), ``dtype`` (a MindSpore type or ``None``) and the
    white and black lists (``[(primitive name, [input indices]), ...]``).

    Examples:
        >>> import mindspore as ms
        >>> from mindspore.train.amp import AmpLevel, create_amp_strategy
        >>> create_amp_strategy(AmpLevel.AmpO1, ms.float16, [("MatMul", [0, 1])], []).get_white_list()
        [('MatMul', [0, 1])]
    """
    from mindspore.common import dtype as mstype
    if not isinstance(level, AmpLevel) or not (dtype is None or isinstance(dtype, mstype.Type)) or \
            not _prim_list(white_list) or not _prim_list(black_list):
        raise MSTypeError(f"create_amp_strategy(): incompatible function arguments. The following argument types are "
                          f"supported: (AmpLevel, Type, list[tuple[str, list[int]]], list[tuple[str, list[int]]]); "
                          f"invoked with: {level!r}, {dtype!r}, {white_list!r}, {black_list!r}")
    return AmpStrategy(level, dtype, white_list, black_list)


# MindSpore's module-level copies of the built-in lists (O1's white list: cell and primitive classes; O2's black
# list: cell classes)
AMP_WHITE_LIST = get_white_list()
AMP_BLACK_LIST = get_black_list()


def _auto_mixed_precision_rewrite(network, dtype, *, white_list=None, black_list=None):
    """Convert ``network`` by exactly one of ``white_list`` (those classes compute in ``dtype``, their outputs are
    float32) or ``black_list`` (everything computes in ``dtype`` except those cells, which compute in float32);
    the network returned is the one to run."""
    if (white_list is None) == (black_list is None):
        raise ValueError("For _auto_mixed_precision_rewrite, one of white_list and black_list must be provided.")
    if white_list is not None:
        return _amp._auto_white_list(network, white_list, dtype)
    return _auto_black_list(network, black_list, dtype)


# MindSpore's table of the settings of each amp level (a dict here, as libraries index it: ``_config_level["O2"]``;
# "auto" stands for the level chosen by device); as in MindSpore, "O2" holds one shared DynamicLossScaleManager.
_config_level = {level: _level_config(level) for level in ("O0", "O1", "O2", "O3")}
_config_level["auto"] = _level_config("O0")


def _do_keep_batchnorm_fp32(network):
    """MindSpore's helper of O2: the batch norm cells inside ``network`` compute in float32 (their outputs cast back
    to float16)."""
    _keep_batchnorm_fp32(network)
