"""Shared pieces of ``mindspore.boost``: regrouping an optimizer's parameters (:class:`OptimizerProcess`,
:class:`ParameterProcess`) and the PCA matrix of dimension-reduced training.

:class:`OptimizerProcess` rebuilds an optimizer of the same class and arguments over new parameter groups (the
optimizers of ``mindspore.nn`` record their constructor arguments: ``init_args``, ``init_params``,
``init_learning_rate``), e.g. with gradient centralization turned on for the weights of plain convolutions and
dense layers. :class:`ParameterProcess` assigns gradient-fusion groups (``comm_fusion``) and maps a new parameter
list onto an optimizer's original groups.
"""
import copy
import os

import numpy as np

from mindspore._errors import MSTypeError, MSValueError
from mindspore.common.parameter import Parameter
from mindspore.log import warning
from mindspore.nn.layer.conv import Conv2d

__all__ = ["OptimizerProcess", "ParameterProcess"]


def _is_head(cell):
    return type(cell).__name__ == "CommonHeadLastFN"


class OptimizerProcess:
    """Rebuild an optimizer over regrouped parameters.

    Args:
        opt (Cell): an optimizer of ``mindspore.nn`` (its class and recorded arguments are reused).

    Examples:
        >>> from mindspore import nn, boost
        >>> net = nn.Dense(3, 2)
        >>> opt = nn.Momentum([{"params": net.trainable_params()}], 0.1, 0.9)
        >>> process = boost.OptimizerProcess(opt)
        >>> process.add_grad_centralization(net)
        >>> new_opt = process.generate_new_optimizer()
    """

    def __init__(self, opt):
        for attr in ("init_args", "init_params"):
            if not hasattr(opt, attr):
                raise MSTypeError(f"For 'OptimizerProcess', the 'opt' must be an optimizer of mindspore.nn (it records "
                                  f"'{attr}'), but got {type(opt).__name__}.")
        self.single_opt = opt
        self.opt_class = type(opt)
        self.opt_init_args = dict(opt.init_args)
        self.learning_rate = getattr(opt, "init_learning_rate", None)
        self.origin_params = opt.init_params["params"]

    @staticmethod
    def build_params_dict(network):
        """``{id(parameter): the cell that owns it}`` over ``network``."""
        owners = {}
        for _, cell in network.cells_and_names():
            for param in cell.get_parameters(expand=False):
                owners[id(param)] = cell
        return owners

    @staticmethod
    def build_gc_params_group(params_dict, parameters):
        """Split each group in two: weights that get gradient centralization (not biases or norm scales, not
        grouped convolutions or a ``CommonHeadLastFN``), and the rest."""
        groups = []
        for group in parameters:
            if "order_params" in group:
                groups.append(group)
                continue
            centralized, plain = [], []
            for param in group["params"]:
                cell = params_dict.get(id(param))
                if any(k in param.name for k in ("beta", "gamma", "bias")) or \
                        (isinstance(cell, Conv2d) and cell.group > 1) or _is_head(cell):
                    plain.append(param)
                else:
                    centralized.append(param)
            if centralized:
                new = copy.copy(group)
                new["params"], new["grad_centralization"] = centralized, True
                groups.append(new)
            if plain:
                new = copy.copy(group)
                new["params"] = plain
                groups.append(new)
        return groups

    def add_grad_centralization(self, network):
        """Turn gradient centralization on for the weights that take it (group parameters only).

        Raises:
            ValueError: the optimizer has no parameters.
            TypeError: its parameters are neither Parameters nor groups.
        """
        parameters = list(self.origin_params) if self.origin_params is not None else []
        if not parameters:
            raise MSValueError("Optimizer got an empty parameter list.")
        if not isinstance(parameters[0], (dict, Parameter)):
            raise MSTypeError("Only a list of Parameter or dict can be supported.")
        if isinstance(parameters[0], Parameter):
            warning("Only group parameters support gradient centralization.")
            return
        self.origin_params = OptimizerProcess.build_gc_params_group(OptimizerProcess.build_params_dict(network),
                                                                    parameters)

    def generate_new_optimizer(self):
        """A new optimizer of the original class and arguments over :attr:`origin_params`."""
        lr = self.learning_rate if self.learning_rate is not None else self.single_opt.learning_rate
        args = {k: v for k, v in self.opt_init_args.items() if k != "learning_rate"}
        return self.opt_class(params=self.origin_params, learning_rate=lr, **args)


class ParameterProcess:
    """Parameter grouping for gradient fusion and for rebuilt optimizers."""

    def __init__(self):
        self._parameter_indices = 1

    @staticmethod
    def generate_group_params(parameters, origin_params):
        """``parameters`` arranged as the groups of ``origin_params`` (an optimizer's original parameters or
        groups): each group keeps its options and gets the parameters of ``parameters`` with its names; the
        leftovers form one more group with the options of the richest group.

        Raises:
            ValueError: ``origin_params`` is empty.
            TypeError: it holds neither Parameters nor groups.
        """
        origin = list(origin_params) if origin_params is not None else []
        if not origin:
            raise MSValueError("Optimizer got an empty parameter list.")
        if not isinstance(origin[0], (dict, Parameter)):
            raise MSTypeError("Only a list of Parameter or dict can be supported.")
        if isinstance(origin[0], Parameter):
            return [{"params": list(parameters)}]
        by_name = {p.name: p for p in parameters}
        left = [p.name for p in parameters]
        groups, richest = [], {}
        for group in origin:
            new = copy.copy(group)
            if "order_params" in group:
                new["order_params"] = list(parameters)
                groups.append(new)
                continue
            new["params"] = [by_name[p.name] for p in group["params"] if p.name in by_name]
            for p in group["params"]:
                if p.name in left:
                    left.remove(p.name)
            groups.append(new)
            if len(group) > len(richest):
                richest = copy.copy(group)
        if left:
            rest = richest or {}
            rest["params"] = [by_name[name] for name in left]
            groups.append(rest)
        return groups

    def assign_parameter_group(self, parameters, split_point=None):
        """Give the parameters gradient-fusion groups (``comm_fusion``), a new group at each index of
        ``split_point`` (default: one split in the middle); returns ``parameters``."""
        if not isinstance(parameters, (list, tuple)) or not parameters:
            return parameters
        splits = split_point if split_point else [len(parameters) // 2]
        for i, param in enumerate(parameters):
            if i in splits:
                self._parameter_indices += 1
            param.comm_fusion = self._parameter_indices
        return parameters


def pca_matrix(weight_load_dir, pca_mat_path, n_components, network):
    """The ``(n_components, n_weights)`` PCA matrix of dimension-reduced training: read from ``pca_mat_path``
    (``.npy``) when it exists, else computed from the checkpoints in ``weight_load_dir`` (the principal directions
    of the trainable weights over the saved training trajectory) and saved there."""
    if pca_mat_path and os.path.exists(pca_mat_path):
        return np.load(pca_mat_path)
    if not weight_load_dir or not os.path.isdir(weight_load_dir):
        raise MSValueError(f"For dim_reduce, the 'pca_mat_path' {pca_mat_path!r} does not exist and the "
                           f"'weight_load_dir' {weight_load_dir!r} holds no checkpoints to compute it from.")
    from mindspore.train.serialization import load_checkpoint
    names = [p.name for p in network.trainable_params()]
    files = sorted(f for f in os.listdir(weight_load_dir) if f.endswith(".ckpt"))
    rows = []
    for name in files:
        ckpt = load_checkpoint(os.path.join(weight_load_dir, name))
        rows.append(np.concatenate([ckpt[n].asnumpy().reshape(-1) for n in names]).astype(np.float64))
    if len(rows) <= n_components:
        raise MSValueError(f"For dim_reduce, computing {n_components} components needs more than {n_components} "
                           f"checkpoints in '{weight_load_dir}', but got {len(rows)}.")
    data = np.stack(rows)
    data -= data.mean(axis=0)
    _, _, vt = np.linalg.svd(data, full_matrices=False)
    mat = vt[:n_components].astype(np.float32)
    if pca_mat_path:
        np.save(pca_mat_path, mat)
    return mat
