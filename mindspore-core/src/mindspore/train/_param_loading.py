"""``load_param_into_net``: putting a parameter dict (from ``load_checkpoint``) into a network.

MindSpore 2.10's rules:

* parameters are matched by ``param.name`` (the dotted attribute path, not the ``parameters_and_names`` key);
  ``str`` and MapParameter (list) entries of the dict are skipped;
* shapes must agree, except that extra trailing 1-dims in the checkpoint (``(2, 2, 1, 1)`` into ``(2, 2)``) are
  reshaped away; anything else raises ``RuntimeError``;
* with ``strict_load=False`` a float<->float or int<->int (signed) dtype mismatch is cast to the network's dtype,
  and when some network names are missing, a prefix is looked for: the first checkpoint name that *ends with* a
  missing network name gives the prefix, and every missing parameter is loaded from ``prefix + name``; repeated
  until no new prefix is found (so ``network.backbone.conv.weight`` loads into ``conv.weight``);
* with ``strict_load=True`` neither happens: a dtype mismatch raises ``RuntimeError``.

Two deliberate differences from MindSpore, both for the user's benefit: a shape-quirk load keeps the network's
shape (MindSpore leaves the parameter with the checkpoint's shape), and entries loaded through a stripped prefix
are removed from the returned ``ckpt_not_load`` (MindSpore keeps listing them as not loaded).
"""
from __future__ import annotations

import logging

from mindspore._errors import MSRuntimeError, MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor

__all__ = ["load_param_into_net"]

logger = logging.getLogger("mindspore")

_FLOATS = {mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16}
_INTS = {mstype.int8, mstype.int16, mstype.int32, mstype.int64}


def _trailing_ones(net_shape, ckpt_shape):
    """Whether ``ckpt_shape`` is ``net_shape`` followed by 1s (the GE 4-D layout MindSpore tolerates)."""
    n = len(net_shape)
    return len(ckpt_shape) > n and tuple(ckpt_shape[:n]) == tuple(net_shape) and all(d == 1 for d in ckpt_shape[n:])


def _update_param(param, new_param, strict_load):
    """Copy ``new_param``'s value into the network parameter ``param``."""
    data = new_param.asnumpy()
    if tuple(param.shape) != tuple(new_param.shape):
        if not _trailing_ones(param.shape, new_param.shape):
            raise MSRuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape {tuple(param.shape)} in the "
                f"argument 'net' and shape {tuple(new_param.shape)} in the argument 'parameter_dict'. May you need "
                f"to check whether the checkpoint you loaded is correct or the batch size and so on in the 'net' and "
                f"'parameter_dict' are same.")
        data = data.reshape(param.shape)
    if param.dtype != new_param.dtype:
        pair = {param.dtype, new_param.dtype}
        if strict_load or not (pair <= _FLOATS or pair <= _INTS):
            raise MSRuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
                f"{param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the argument 'net' "
                f"and type {new_param.dtype} in the argument 'parameter_dict'. May you need to check whether the "
                f"checkpoint you loaded is correct.")
        logger.warning("The type of %s:%s in 'parameter_dict' is different from the type of it in 'net':%s, then "
                       "the type convert from %s to %s in the network.", new_param.name, new_param.dtype,
                       param.dtype, new_param.dtype, param.dtype)
    param.set_data(Tensor(data, param.dtype))  # Tensor() copies: the net never shares memory with the dict


def _load_with_prefix(net, parameter_dict, param_not_load, loaded, strict_load):
    """MindSpore's prefix search for the parameters that were not found by name."""
    while param_not_load:
        prefix = None
        for net_name in param_not_load:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_name) and dict_name != net_name:
                    prefix = dict_name[:-len(net_name)]
                    break
            if prefix is not None:
                break
        if prefix is None:
            return
        logger.warning("For 'load_param_into_net', remove parameter prefix name: %s, continue to load.", prefix)
        progress = False
        for _, param in net.parameters_and_names():
            full = prefix + param.name
            if param.name in param_not_load and isinstance(parameter_dict.get(full), Parameter):
                _update_param(param, parameter_dict[full], strict_load)
                param_not_load.remove(param.name)
                loaded.add(full)
                progress = True
        if not progress:
            return


def _group_size():
    """The world's size (1 without an initialised communication backend)."""
    from mindspore._plugin import collective
    return collective.process_group(collective.world_group()).size


def _check_remove_redundancy(net):
    if _group_size() == 1:
        raise MSTypeError("The deduplication feature for loading checkpoint can only be used in parallel scenarios, "
                          "but got stand_alone.")
    if not getattr(net, "parameter_layout_dict", None):
        raise MSValueError("When loading a parameter dict that has removed redundancy, the network should be "
                           "compiled.")
    raise MSRuntimeError("For 'load_param_into_net', 'remove_redundancy=True' needs the parameters broadcast from "
                         "the ranks that hold them, which the installed parallel package does not provide.")


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Load the parameters of ``parameter_dict`` into ``net``, matching them by ``param.name``.

    Args:
        net (Cell): the network whose parameters are updated in place.
        parameter_dict (dict): ``{name: Parameter}``, e.g. from :func:`mindspore.load_checkpoint`; ``str`` values are
            ignored.
        strict_load (bool): when ``False``, cast float<->float and int<->int dtype mismatches to the network's dtype
            and strip a common prefix of the checkpoint names when network names are missing. Default: ``False``.
        remove_redundancy (bool): load a checkpoint saved with redundancy removal (data parallel only).
            Default: ``False``.

    Returns:
        - param_not_load (list), the names of network parameters that were not loaded.
        - ckpt_not_load (list), the names in ``parameter_dict`` that were not loaded into the network.

    Raises:
        TypeError: ``net`` is not a Cell, or ``parameter_dict`` is not a ``{str: Parameter}`` dict.
        RuntimeError: a shape mismatch, or a dtype mismatch that is not allowed.

    Examples:
        >>> import mindspore as ms
        >>> param_dict = ms.load_checkpoint("./lenet.ckpt", filter_prefix="conv1")  # doctest: +SKIP
        >>> param_not_load, _ = ms.load_param_into_net(net, param_dict)  # doctest: +SKIP
        >>> print(param_not_load)  # doctest: +SKIP
        ['conv1.weight']
    """
    from mindspore.nn.cell import Cell  # nn sits above train in the layering
    if not isinstance(net, Cell):
        raise MSTypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got "
                          f"{type(net).__name__}.")
    if not isinstance(parameter_dict, dict):
        raise MSTypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got "
                          f"{type(parameter_dict).__name__}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise MSTypeError(f"For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' "
                              f"and 'Parameter', but got {type(key).__name__} and {type(value).__name__}.")
    for arg, value in (("strict_load", strict_load), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise MSTypeError(f"For 'load_param_into_net', the '{arg}' must be bool, but got {type(value).__name__}.")

    param_not_load, loaded = [], set()
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            new_param = parameter_dict[param.name]
            if isinstance(new_param, Parameter):
                _update_param(param, new_param, strict_load)
                loaded.add(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_with_prefix(net, parameter_dict, param_not_load, loaded, strict_load)
    if remove_redundancy:
        _check_remove_redundancy(net)
    if param_not_load:
        logger.warning("For 'load_param_into_net', %d parameters in the 'net' are not loaded, because they are not "
                       "in the 'parameter_dict', please check whether the network structure is consistent when "
                       "training and loading checkpoint.", len(param_not_load))
        logger.warning("%s are not loaded.", param_not_load)
    return param_not_load, [name for name in parameter_dict if name not in loaded]
