"""Wrapper Cells that turn a network into a training or evaluation step.

``WithLossCell``, ``WithEvalCell``, ``WithGradCell``, ``TrainOneStepCell`` and friends add no prefix to
parameter names (``auto_prefix=False``), so a trained net's checkpoint says ``conv1.weight``.

``TrainOneStepCell`` runs the forward pass once on a gradient tape (``mindspore.value_and_grad`` over the
optimizer's parameters), so layers with state (BatchNorm statistics, Dropout draws) see exactly one forward
per step, then reduces the gradients (data parallel) and calls the optimizer, which updates the Parameters
in place. A constant ``sens`` seeds the backward pass with ``sens`` (the output is multiplied by a constant,
which gives the same gradients as a seed of ``sens``).

Data parallel (``set_auto_parallel_context(parallel_mode=DATA_PARALLEL or HYBRID_PARALLEL)``): the gradients go
through a :class:`~mindspore.nn.DistributedGradReducer` over the world group (bucketed all-reduces, averaged by the
device number when ``gradients_mean``), so every rank applies the same update. The device number is the
``device_num`` of the auto-parallel context when the user set it, else the world size, as MindSpore's
``_get_device_num``. With ``parameter_broadcast=True`` the first call of the step first copies rank 0's values of
every Parameter of the step (network and optimizer state) to the other ranks, as MindSpore does when it compiles
the training graph; here it happens in PYNATIVE too.
"""
from __future__ import annotations

import numbers
import os

import mindspore.context as context
import mindspore.ops as ops
from mindspore._autodiff.grad import GradOperation, value_and_grad
from mindspore._core import interpreters as _interpreters
from mindspore._errors import MSTypeError, MSValueError
from mindspore._plugin.collective import create_group, process_group, process_groups, world_group
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer.basic import Identity
from mindspore.nn.optim.adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell
from mindspore.nn.wrap.grad_reducer import DistributedGradReducer, _NoOverlap

__all__ = ["WithLossCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell", "WithEvalCell",
           "ParameterUpdate", "GetNextSingleOp"]

_REDUCE_MODES = ("data_parallel", "hybrid_parallel")


def _parallel_mode():
    return context.get_auto_parallel_context("parallel_mode")


def _device_num():
    """MindSpore's ``_get_device_num``: 1 stand-alone, the ``device_num`` the user set, else the world size."""
    if _parallel_mode() == "stand_alone":
        return 1
    if context._auto_parallel_is_set("device_num"):
        return context.get_auto_parallel_context("device_num")
    return process_group(world_group()).size


def _broadcast_parameters(params, root=0):
    """Give every rank of the world ``root``'s values of ``params`` (one all-reduce per dtype: the other ranks
    contribute zeros, so the sum is ``root``'s value exactly)."""
    group = world_group()
    world = process_group(group)
    if world.size <= 1:
        return
    by_dtype = {}
    for p in params:
        if p.dtype != mstype.bool_:
            by_dtype.setdefault(p.dtype, []).append(p)
    allreduce = ops.AllReduce(group=group)
    with _interpreters.untraced():
        for dtype, members in by_dtype.items():
            flat = ops.concat([ops.reshape(p.value(), (-1,)) for p in members])
            if world.rank != root:
                flat = ops.zeros_like(flat)
            total = allreduce(flat)
            start = 0
            for p in members:
                size = 1
                for s in p.shape:
                    size *= int(s)
                p.set_data(ops.reshape(total[start:start + size], tuple(p.shape)))
                start += size


class WithLossCell(Cell):
    r"""The network followed by the loss: ``loss_fn(backbone(data), label)``.

    Args:
        backbone (Cell): the network.
        loss_fn (Cell): the loss function.

    Inputs:
        - **data** (Tensor) - the network input.
        - **label** (Tensor) - the label.

    Outputs:
        Tensor, the loss.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = ms.Parameter(ms.Tensor(np.ones((2, 1), np.float32)), name="w")
        ...     def construct(self, x):
        ...         return ops.matmul(x, self.w)
        >>> class L2(nn.Cell):
        ...     def construct(self, out, label):
        ...         return ((out - label) ** 2).mean()
        >>> net_with_loss = nn.WithLossCell(Net(), L2())
        >>> print(net_with_loss(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0]])))
        4.0
    """

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        self._get_attr_from_cell(backbone)

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        """The backbone network."""
        return self._backbone


class WithGradCell(Cell):
    r"""The gradients of a network (with its loss) with respect to its trainable parameters.

    Args:
        network (Cell): the network; with ``loss_fn`` None it must already output the loss.
        loss_fn (Cell): the loss function. Default: ``None``.
        sens (Union[None, Tensor, Scalar, Tuple ...]): the sensitivity of the output; ``None`` means ones.

    Outputs:
        tuple[Tensor], one gradient per trainable parameter.
    """

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self._get_attr_from_cell(network)
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=(sens is not None))
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(self.network, self.loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        if self.sens is None:
            return self.grad(self.network_with_loss, self.weights)(*inputs)
        return self.grad(self.network_with_loss, self.weights)(*inputs, self.sens)


class ForwardValueAndGrad(Cell):
    r"""The network's output and its gradients, from one forward pass.

    Args:
        network (Union[Cell, Function, MethodType]): the network.
        weights (ParameterTuple): the parameters to differentiate (with ``get_by_list``). Default: ``None``.
        get_all (bool): gradients with respect to all inputs. Default: ``False``.
        get_by_list (bool): gradients with respect to ``weights``. Default: ``False``.
        sens_param (bool): the last input is the sensitivity of the output. Default: ``False``.

    Outputs:
        ``(forward value, gradients)``, the gradients laid out as ``GradOperation`` lays them out.
    """

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        if not callable(network):
            raise MSTypeError(f"For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                              f"method type, but got '{type(network)}'")
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list), ("sens_param", sens_param)):
            if not isinstance(value, bool):
                raise MSTypeError(f"For 'ForwardValueAndGrad', the type of '{name}' must be bool, but got "
                                  f"'{type(value)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise MSTypeError(f"For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument "
                              f"'weights' must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)

    def construct(self, *inputs):
        args = inputs[:-1] if self.sens_param else inputs
        if self.get_all:
            positions = tuple(i for i, a in enumerate(args) if isinstance(a, (Tensor, tuple, list)))
        elif self.get_by_list:
            positions = None
        else:
            positions = 0
        weights = self.weights if self.get_by_list else None
        if positions == ():
            positions = None if weights is not None else 0
        fn = value_and_grad(self.network, positions, weights, sens_param=self.sens_param)
        out, grads = fn(*inputs)
        if self.get_all and not self.get_by_list and isinstance(positions, int):
            grads = (grads,)
        return out, grads


class TrainOneStepCell(Cell):
    r"""One training step: forward, gradients of the optimizer's parameters, optimizer update.

    Args:
        network (Cell): the network with its loss (single output).
        optimizer (Cell): the optimizer.
        sens (numbers.Number): the constant that seeds the backward pass. Default: ``None`` (1.0).
        return_grad (bool): also return ``{parameter name: gradient}``. Default: ``False``.

    Inputs:
        - **\*inputs** (Tuple(Tensor)) - the network inputs.

    Outputs:
        Tensor, the loss (with ``return_grad``: ``(loss, grads dict)``).

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn, ops
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = ms.Parameter(ms.Tensor(np.ones((2, 1), np.float32)), name="w")
        ...     def construct(self, x):
        ...         return ops.matmul(x, self.w)
        >>> class L2(nn.Cell):
        ...     def construct(self, out, label):
        ...         return ((out - label) ** 2).mean()
        >>> net = Net()
        >>> train = nn.TrainOneStepCell(nn.WithLossCell(net, L2()), nn.SGD(net.trainable_params(), 0.1))
        >>> print(train(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0]])))
        4.0
        >>> print(net.w.asnumpy().ravel().round(6))
        [0.6 0.2]
    """

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise MSTypeError(f"For 'TrainOneStepCell', the 'network' must be a Cell, but got {type(network)}.")
        if not callable(optimizer) or not hasattr(optimizer, "parameters"):
            raise MSTypeError(f"For 'TrainOneStepCell', the 'optimizer' must be an Optimizer, but got "
                              f"{type(optimizer)}.")
        if sens is not None and (isinstance(sens, bool) or not isinstance(sens, numbers.Number)):
            raise MSTypeError(f"For 'TrainOneStepCell', the 'sens' must be a number or None, but got {type(sens)}.")
        if not isinstance(return_grad, bool):
            raise MSTypeError(f"For 'TrainOneStepCell', the 'return_grad' must be a bool, but got "
                              f"{type(return_grad)}.")
        self.network = network
        self.network.set_grad()
        self._get_attr_from_cell(network)
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = GradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = GradOperation(get_by_list=True)
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else sens
        self.return_grad = return_grad
        self.parameters_name = [p.name for p in self.weights] if return_grad else []
        if return_grad:
            self.weights_name = list(self.parameters_name)     # MindSpore's attribute name
        self.reducer_flag = False
        self.grad_reducer = Identity()     # a child Cell, as 2.10 (its repr lists "(grad_reducer): Identity()")
        self.parallel_mode = _parallel_mode()
        self.reducer_flag = self.parallel_mode in _REDUCE_MODES
        self._broadcast_pending = False
        if self.reducer_flag:
            self.mean = context.get_auto_parallel_context("gradients_mean")
            self.degree = _device_num()
            group = world_group()
            if isinstance(optimizer, (AdaSumByGradWrapCell, AdaSumByDeltaWeightWrapCell)):
                group = self._adasum_server_group()
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree, group=group)
            self._broadcast_pending = context.get_auto_parallel_context("parameter_broadcast")
        # graceful exit (MindSpore's "Training Process Exit Gracefully"): with MS_ENABLE_GRACEFUL_EXIT=1 the cell
        # carries the request ('graceful_init', set by OnRequestExit from its config file) and the ranks' agreement
        # ('graceful_exit'), which OnRequestExit reads at the step end to save and stop
        self.use_graceful_exit = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        if self.use_graceful_exit:
            from mindspore.nn.wrap._exit_by_request import ExitByRequest
            self.graceful_exit = ExitByRequest()
            self.exit_param = Parameter(Tensor(False, mstype.bool_), name="graceful_exit")
            self.init_param = Parameter(Tensor([0], mstype.int32), name="graceful_init")

    def _adasum_server_group(self):
        """MindSpore's data-parallel AdaSum: the gradients are averaged within each server of 8 ranks (the group
        ``allreduce_<server>``), AdaSum then combines the servers."""
        world = process_group(world_group())
        servers = world.size // 8
        self.degree = int(self.degree / servers)
        server = world.rank // 8
        name = f"allreduce_{server}"
        if name not in process_groups():
            create_group(name, range(server * self.degree, (server + 1) * self.degree))
        return name

    def __call__(self, *args, **kwargs):
        if self.__dict__.get("_broadcast_pending"):
            self._broadcast_pending = False
            _broadcast_parameters(list(self.get_parameters()))
        return super().__call__(*args, **kwargs)

    def _forward_and_grads(self, inputs, sens=None, overlap=False, unscale=None):
        """``(loss, gradients of self.weights)`` from one forward pass; ``sens`` (a number or Tensor) seeds it.

        ``unscale`` (a Tensor): the gradients come back multiplied by it (cast to each one's dtype). ``overlap``:
        the caller hands the gradients to ``self.grad_reducer`` next; a :class:`DistributedGradReducer` then starts
        each bucket's all-reduce while the backward pass runs (PYNATIVE; see its ``overlap``)."""
        transform = None if unscale is None else (
            lambda g: ops.mul(g, unscale if g.dtype == unscale.dtype else ops.cast(unscale, g.dtype)))
        reducer = self.grad_reducer
        with (reducer.overlap(transform) if overlap and isinstance(reducer, DistributedGradReducer)
              else _NoOverlap(transform)) as starts:
            loss, grads = self._value_and_grads(inputs, sens)
        return loss, starts.transformed(grads)

    def _value_and_grads(self, inputs, sens):
        if sens is None:
            return value_and_grad(self.network, None, self.weights)(*inputs)

        (_, loss), grads = value_and_grad(self._scaled_forward(), None, self.weights, has_aux=True)(*inputs, sens)
        return loss, grads

    def _scaled_forward(self):
        """``(*inputs, sens) -> (loss * sens, loss)``, made once per cell: the function differentiated is the same
        object at every step (PYNATIVE compiles a backward pass that repeats, kept with that function)."""
        scaled = self.__dict__.get("_scaled")
        if scaled is None:
            def scaled(*args):
                *args, sens = args
                loss = self.network(*args)
                if not isinstance(sens, Tensor):
                    seed = ops.fill(loss.dtype, loss.shape, sens)
                else:
                    seed = sens if sens.dtype == loss.dtype else ops.cast(sens, loss.dtype)
                    if seed.shape and tuple(seed.shape) != tuple(loss.shape):
                        # (a scalar or a seed of the loss's shape is the product's own: no ones to fill)
                        seed = ops.fill(loss.dtype, loss.shape, 1) * seed
                return ops.mul(loss, ops.stop_gradient(seed)), loss
            self.__dict__["_scaled"] = scaled
        return scaled

    def construct(self, *inputs):
        loss, grads = self._forward_and_grads(inputs, self.sens if self.sense_flag else None, overlap=True)
        grads = self.grad_reducer(grads)
        if self.use_graceful_exit:
            grads = self.graceful_exit.exit_by_request(grads, self.init_param, self.exit_param)
        self.optimizer(grads)
        if self.return_grad:
            return loss, dict(zip(self.parameters_name, grads))
        return loss

    def identity(self, x):
        return x


class WithEvalCell(Cell):
    r"""The network and its loss for evaluation: returns ``(loss, outputs, label)``.

    Args:
        network (Cell): the forward network.
        loss_fn (Cell): the loss function.
        add_cast_fp32 (bool): cast the outputs and the (floating) label to float32. Default: ``False``.
    """

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self._get_attr_from_cell(network)
        if not isinstance(add_cast_fp32, bool):
            raise MSTypeError(f"For 'WithEvalCell', the 'add_cast_fp32' must be a bool, but got "
                              f"{type(add_cast_fp32)}.")
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            if isinstance(label, Tensor) and label.dtype in mstype.float_type:
                label = ops.cast(label, mstype.float32)
            outputs = ops.cast(outputs, mstype.float32)
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class ParameterUpdate(Cell):
    """Writes its input into ``param`` (``ops.assign``) and returns the input.

    Args:
        param (Parameter): the parameter to update.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> w = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")
        >>> _ = nn.ParameterUpdate(w)(ms.Tensor(np.ones(2, np.float32)))
        >>> print(w.asnumpy())
        [1. 1.]
    """

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise MSTypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x):
        if not isinstance(x, Tensor):
            raise MSValueError(f"For 'ParameterUpdate', the input must be a Tensor, but got {type(x)}.")
        ops.assign(self._param, x)
        return x


class _VirtualDatasetCell(Cell):
    """MindSpore's wrapper that marks a network's dataset inputs for (semi-)auto parallel (libraries wrap their
    networks in it by name). The inputs reach ``backbone`` unchanged: here the layout of the data is decided where
    the sharded graph is built, not by a marker primitive.

    Args:
        backbone (Cell): the network to wrap.
    """

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *inputs):
        return self._backbone(*inputs)


class GetNextSingleOp(Cell):
    """A Cell whose call returns the next batch of the data queue ``queue_name`` (see :class:`mindspore.ops.GetNext`).

    Args:
        dataset_types (list[:class:`mindspore.dtype`]): the columns' dtypes.
        dataset_shapes (list[tuple[int]]): the columns' shapes.
        queue_name (str): the queue, ``dataset.__transfer_dataset__.queue_name`` of a dataset in sink mode.

    Outputs:
        tuple[Tensor], the next batch.

    Examples:
        >>> helper = ms.train.DatasetHelper(dataset, dataset_sink_mode=True)
        >>> types, shapes = helper.types_shapes()
        >>> net = nn.GetNextSingleOp(types, shapes, helper.iter.dataset.__transfer_dataset__.queue_name)
        >>> data, label = net()
    """

    def __init__(self, dataset_types, dataset_shapes, queue_name):
        super().__init__()
        self.get_next = ops.GetNext(dataset_types, dataset_shapes, len(dataset_types), queue_name)

    def construct(self):
        return self.get_next()


# MindSpore defines its pipeline and micro-batch cells in this module; here they are in mindspore.nn (and
# mindspore.parallel.nn): `from mindspore.nn.wrap.cell_wrapper import PipelineCell` finds them
from mindspore._module_paths import fallback as _fallback  # noqa: E402

__getattr__ = _fallback(__name__, "mindspore.nn")
