"""THOR, MindSpore's second-order optimizer (Chen et al., "THOR: Trace-based Hardware-driven layer-ORiented
Natural Gradient Descent Computation", AAAI 2021): momentum SGD on natural gradients, each layer's Fisher block
approximated by a Kronecker product ``G (x) A`` (K-FAC).

Algorithm
---------
:func:`thor` first turns the network's ``Dense``/``Conv2d``/``Embedding``/``EmbeddingLookup`` layers into their
THOR forms (:mod:`mindspore.nn.layer.thor_layer`), which record ``A`` (the second moment of their inputs) on the
forward pass and ``G`` (of the gradients reaching their outputs) on the backward pass. Then, on each step:

1. gradients are divided by the loss scale; ``d = damping[step]`` (``damping`` holds one value per step);
2. while ``thor`` is on, each layer's inverses are computed from the recorded factors and stored:
   ``A_inv = (A + sqrt(d) I)^-1`` and ``G_inv = (G * batch_size^2 / loss_scale^2 + sqrt(d) I)^-1`` (the
   batch-size factor undoes the ``1 / batch`` of a mean loss in the recorded output gradients), through
   Cholesky factorisations; with ``thor`` off the stored inverses of the last THOR step are reused;
3. a Dense/Conv2d weight's gradient (reshaped to out x rest) becomes ``G_inv @ g @ A_inv``; an embedding
   table's ``A_inv[:, None] * g @ G_inv`` with the diagonal ``A_inv = 1 / (count / batch_size + sqrt(d))``;
   a LayerNorm parameter's ``g / (g^2 / batch_size + sqrt(d))``; other parameters keep theirs;
4. weight decay, optional clipping (each gradient's L2 norm to at most 1.0), and the momentum update
   (``ApplyMomentum``).

``ConvertModelUtils.convert_to_thor_model`` (mindspore.train) runs THOR steps only every ``frequency`` steps,
which is what makes the method cheap; the optimizer alone computes the inverses on every step.
"""
from __future__ import annotations

import numpy as np

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn import _validators as validator
from mindspore.nn.layer import conv as _conv
from mindspore.nn.layer import normalization as _norm
from mindspore.nn.layer import thor_layer
from mindspore.nn.layer.basic import Dense
from mindspore.nn.layer.embedding import Embedding
from mindspore.nn.layer.embedding_lookup import EmbeddingLookup
from mindspore.nn.cell import SequentialCell
from mindspore.nn.optim.optimizer import Optimizer

__all__ = ["thor", "ThorGpu", "convert_to_thor_net"]

_FC, _CONV, _EMBEDDING, _LAYERNORM, _OTHER = "fc", "conv", "embedding", "layernorm", "other"
GRADIENT_CLIP_VALUE = 1.0


# --- network conversion ---------------------------------------------------------------------------------------
def _convert_dense(cell):
    act = cell.activation if cell.activation_flag else None
    new = thor_layer.DenseThor(cell.in_channels, cell.out_channels, weight_init=cell.weight, has_bias=cell.has_bias,
                               bias_init="zeros", activation=act)
    new.weight = cell.weight
    if cell.has_bias:
        new.bias = cell.bias
    return new


def _convert_conv2d(cell):
    new = thor_layer.Conv2dThor(cell.in_channels, cell.out_channels, kernel_size=cell.kernel_size,
                                stride=cell.stride, pad_mode=cell.pad_mode, padding=cell.padding,
                                dilation=cell.dilation, has_bias=cell.has_bias, weight_init=cell.weight)
    new.weight = cell.weight
    if cell.has_bias:
        new.bias = cell.bias
    return new


def _convert_embedding(cell):
    new = thor_layer.EmbeddingThor(cell.vocab_size, cell.embedding_size, use_one_hot=cell.use_one_hot,
                                   embedding_table=cell.embedding_table, padding_idx=cell.padding_idx)
    new.embedding_table = cell.embedding_table
    return new


def _convert_embedding_lookup(cell):
    new = thor_layer.EmbeddingLookupThor(cell.vocab_size, cell.embedding_size, param_init=cell.embedding_table,
                                         target=cell.target, sparse=cell.sparse)
    new.embedding_table = cell.embedding_table
    return new


_CONVERTERS = ((Dense, _convert_dense), (_conv.Conv2d, _convert_conv2d), (Embedding, _convert_embedding),
               (EmbeddingLookup, _convert_embedding_lookup))
_THOR_LAYERS = (thor_layer.DenseThor, thor_layer.Conv2dThor, thor_layer.EmbeddingThor,
                thor_layer.EmbeddingLookupThor)


def _trainable_table(cell):
    param = getattr(cell, "weight", None)
    if param is None:
        param = getattr(cell, "embedding_table", None)
    return param is not None and param.requires_grad


def convert_to_thor_net(net):
    """Replace, in place, every trainable Dense/Conv2d/Embedding/EmbeddingLookup below ``net`` by its THOR layer
    (sharing its Parameters)."""
    changed = False
    for name, sub in list(net.name_cells().items()):
        if sub is net or sub is None or isinstance(sub, _THOR_LAYERS):
            continue
        for cls, convert in _CONVERTERS:
            if type(sub) is cls:
                if _trainable_table(sub):
                    net.insert_child_to_cell(name, convert(sub))
                    changed = True
                break
        else:
            convert_to_thor_net(sub)
    if changed and isinstance(net, SequentialCell) and hasattr(net, "cell_list"):
        net.cell_list = list(net.cells())


# --- the optimizer -----------------------------------------------------------------------------------------------
def _check_param(momentum, frequency, lr, cls_name):
    validator.check_value_type("momentum", momentum, [float], cls_name)
    if momentum < 0.0:
        raise MSValueError(f"For 'thor', the argument 'momentum' must be at least 0.0, but got 'momentum' {momentum}.")
    validator.check_value_type("frequency", frequency, [int], cls_name)
    if frequency < 2:
        raise MSValueError(f"For 'thor', the argument 'frequency' must be at least 2, but got 'frequency' "
                           f"{frequency}.")
    validator.check_value_type("learning rate", lr, [Tensor], cls_name)


def _layer_map(net):
    """id(parameter) -> (kind, layer) for the THOR layers' weights and LayerNorm's parameters."""
    out = {}
    for _, cell in net.cells_and_names():
        if isinstance(cell, thor_layer.DenseThor):
            out[id(cell.weight)] = (_FC, cell)
        elif isinstance(cell, thor_layer.Conv2dThor):
            out[id(cell.weight)] = (_CONV, cell)
        elif isinstance(cell, (thor_layer.EmbeddingThor, thor_layer.EmbeddingLookupThor)):
            out[id(cell.embedding_table)] = (_EMBEDDING, cell)
        elif isinstance(cell, _norm.LayerNorm):
            for p in cell.get_parameters():
                out[id(p)] = (_LAYERNORM, cell)
    return out


def _factors(kind, layer):
    if kind == _CONV:
        return layer.matrix_a_cov, layer.matrix_g_cov
    return layer.matrix_a, layer.matrix_g


def _spd_inverse(m):
    return ops.cholesky_inverse(ops.cholesky(m))


class ThorGpu(Optimizer):
    """THOR on CPU and GPU (what :func:`thor` returns there); see the module docstring for the algorithm."""

    def __init__(self, net, learning_rate, damping, momentum, weight_decay=0.0, loss_scale=1.0, batch_size=32,
                 use_nesterov=False, decay_filter=lambda x: x.name not in [], split_indices=None,
                 enable_clip_grad=False, frequency=100):
        params = [p for p in net.get_parameters() if p.requires_grad]
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_param(momentum, frequency, learning_rate, type(self).__name__)
        self.momentum = Parameter(Tensor(momentum, mstype.float32), name="momentum")
        self.params = self._parameters
        self.use_nesterov = validator.check_bool("use_nesterov", use_nesterov, type(self).__name__)
        self.moments = self.params.clone(prefix="moments", init="zeros")
        self.apply_momentum = ops.ApplyMomentum(use_nesterov=self.use_nesterov)
        self.damping = damping if isinstance(damping, Tensor) else Tensor(np.asarray(damping, np.float32))
        self.batch_size = float(batch_size)
        self.g_scale = float(batch_size) ** 2 / (float(loss_scale) ** 2)
        self.cov_step = Parameter(Tensor(np.zeros([1], np.int32)), name="cov_step", requires_grad=False)
        self.thor = True
        self.frequency = frequency
        self.enable_clip_grad = enable_clip_grad
        self.split_indices = split_indices
        self.decay_flags = tuple(bool(decay_filter(p)) for p in self._parameters)
        layers = _layer_map(net)
        self.layer_kinds = []
        self._layers = []
        inv_a, inv_g = [], []
        for p in self.params:
            kind, layer = layers.get(id(p), (_OTHER, None))
            self.layer_kinds.append(kind)
            self._layers.append(layer)
            if kind in (_FC, _CONV, _EMBEDDING):
                a, g = _factors(kind, layer)
                k = len(inv_a)
                inv_a.append(Parameter(Tensor(np.zeros(a.shape, np.float32)), name=f"matrix_a_inv_{k}",
                                       requires_grad=False))
                inv_g.append(Parameter(Tensor(np.zeros(g.shape, np.float32)), name=f"matrix_g_inv_{k}",
                                       requires_grad=False))
        self.matrix_a = ParameterTuple(inv_a)
        self.matrix_g = ParameterTuple(inv_g)

    def get_frequency(self):
        """How often (in steps) ``ConvertModelUtils``' model recomputes the inverses."""
        return self.frequency

    def _inverses(self, kind, layer, k, damping):
        """(A_inv, G_inv) of one layer: recomputed and stored while ``thor`` is on, else the stored ones."""
        if not self.thor:
            return self.matrix_a[k], self.matrix_g[k]
        a, g = _factors(kind, layer)
        sqrt_d = ops.sqrt(damping)
        g_eye = ops.eye(g.shape[0], g.shape[0], mstype.float32)
        g_inv = _spd_inverse(g * self.g_scale + sqrt_d * g_eye)
        if kind == _EMBEDDING:
            a_inv = 1.0 / (a / self.batch_size + sqrt_d)
        else:
            a_inv = _spd_inverse(a + sqrt_d * ops.eye(a.shape[0], a.shape[0], mstype.float32))
        ops.assign(self.matrix_a[k], a_inv)
        ops.assign(self.matrix_g[k], g_inv)
        return a_inv, g_inv

    def _precondition(self, gradients, damping):
        out = []
        k = 0
        for g, kind, layer in zip(gradients, self.layer_kinds, self._layers):
            if kind in (_FC, _CONV):
                a_inv, g_inv = self._inverses(kind, layer, k, damping)
                k += 1
                shape = g.shape
                g2 = ops.reshape(g, (shape[0], -1)).astype(mstype.float32)
                g = ops.reshape(ops.matmul(ops.matmul(g_inv, g2), a_inv), shape).astype(g.dtype)
            elif kind == _EMBEDDING:
                a_inv, g_inv = self._inverses(kind, layer, k, damping)
                k += 1
                g = ops.matmul(ops.expand_dims(a_inv, 1) * g, g_inv)
            elif kind == _LAYERNORM:
                g = g / (ops.square(g) / self.batch_size + ops.sqrt(damping))
            out.append(g)
        return tuple(out)

    def construct(self, gradients):
        gradients = tuple(gradients) if isinstance(gradients, (tuple, list)) else (gradients,)
        if len(gradients) != self.param_length:
            raise MSValueError(f"For '{type(self).__name__}', the number of gradients must equal the number of "
                               f"parameters {self.param_length}, but got {len(gradients)}.")
        gradients = self.scale_grad(gradients)
        damping = ops.gather(self.damping, self.cov_step, 0).astype(mstype.float32).reshape(())
        gradients = self._precondition(gradients, damping)
        ops.assign_add(self.cov_step, Tensor(np.ones([1], np.int32)))
        gradients = self.decay_weight(gradients)
        if self.enable_clip_grad:
            gradients = tuple(ops.clip_by_norm(g, GRADIENT_CLIP_VALUE) for g in gradients)
        lr = self.get_lr()
        self._increase_global_step()
        for lr_i, g, p, m in zip(self._lr_per_param(lr), gradients, self.params, self.moments):
            self.apply_momentum(p, m, lr_i, g, self.momentum)
        return (True,) * len(self.params)


def thor(net, learning_rate, damping, momentum, weight_decay=0.0, loss_scale=1.0, batch_size=32, use_nesterov=False,
         decay_filter=lambda x: x.name not in [], split_indices=None, enable_clip_grad=False, frequency=100):
    r"""The THOR second-order optimizer for ``net``: converts its layers to THOR layers (in place) and returns the
    optimizer (see the module docstring for the algorithm).

    Args:
        net (Cell): the network to train; its Dense/Conv2d/Embedding/EmbeddingLookup layers become THOR layers.
        learning_rate (Tensor): the learning rate (one value per step, or a scalar).
        damping (Tensor): the damping of each step (indexed by the step count).
        momentum (float): the momentum, at least 0.0.
        weight_decay (int, float): Default: ``0.0``.
        loss_scale (float): Default: ``1.0``.
        batch_size (int): the batch size of the loss, for the Fisher's scale. Default: ``32``.
        use_nesterov (bool): Default: ``False``.
        decay_filter (function): which parameters decay. Default: all.
        split_indices (list): all-reduce fusion split points in data parallel training. Default: ``None``.
        enable_clip_grad (bool): clip each gradient's L2 norm to 1.0. Default: ``False``.
        frequency (int): inverses are recomputed every ``frequency`` steps by ``ConvertModelUtils``' model, at
            least 2. Default: ``100``.

    Examples:
        >>> net = nn.Dense(3, 2)
        >>> lr = ms.Tensor(np.full(10, 0.1, np.float32))
        >>> damping = ms.Tensor(np.full(10, 0.03, np.float32))
        >>> opt = nn.thor(net, lr, damping, momentum=0.9, batch_size=4)
    """
    import mindspore.context as context
    if not isinstance(damping, Tensor):
        raise MSTypeError(f"For 'thor', the 'damping' must be Tensor, but got {type(damping).__name__}.")
    context._set_context(max_call_depth=max(context.get_context("max_call_depth"), 10000))
    convert_to_thor_net(net)
    return ThorGpu(net, learning_rate, damping, momentum, weight_decay, loss_scale, batch_size, use_nesterov,
                   decay_filter, split_indices=split_indices, enable_clip_grad=enable_clip_grad, frequency=frequency)
