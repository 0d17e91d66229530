"""Micro-batch wrappers of ``mindspore.nn``: ``GradAccumulationCell``, ``PipelineCell``, ``MicroBatchInterleaved``,
``VirtualDatasetCellTriple`` and ``PipelineGradReducer``.

In MindSpore these mark a network for the semi-auto-parallel compiler (pipeline stages, gradient accumulation,
communication/computation interleaving). What they compute in one process is plain, and that is what this module
does, as MindSpore 2.10 does standalone:

- ``GradAccumulationCell`` / ``PipelineCell`` / ``MicroBatchInterleaved`` split every input along axis 0 into
  ``micro_size`` (``interleave_num``) equal slices, run the network on each and sum the outputs (so the gradient of
  the sum is the accumulated gradient of the micro-batches). An axis 0 that the count does not divide is an error.
  The slices are ``StridedSlice`` applications marked ``skip_redistribution`` (the attribute MindSpore's pipeline
  compiler sets on them): a parallel backend that cuts the batch over ranks slices each rank's own rows.
- ``VirtualDatasetCellTriple`` calls its backbone with its three inputs.
- ``PipelineGradReducer`` keeps one ``accu_grads.<name>`` buffer per parameter. The pipeline compiler adds every
  micro-batch's gradient into those buffers; the reducer returns ``accu_grads / scale_sense`` and zeroes them (so
  standalone, where nothing accumulates, it returns zeros, as MindSpore does).
"""
from __future__ import annotations

import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.layer.container import CellList

__all__ = ["GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved", "VirtualDatasetCellTriple",
           "PipelineGradReducer"]


class _MicroBatch(Cell):
    """Slice ``i`` of ``micro_size`` equal slices of every input along axis 0."""

    def __init__(self, micro_size):
        super().__init__()
        self.micro_size = micro_size
        # MindSpore's pipeline compiler marks this slice ``skip_redistribution``: on a batch cut over ranks, each rank
        # takes slice ``i`` of its own rows (begin and end divided by the cuts), not of the gathered batch
        self.strided_slice = ops.StridedSlice().add_prim_attr("skip_redistribution", True)

    def construct(self, i, *inputs):
        out = ()
        for x in inputs:
            shape = x.shape
            n = shape[0]
            if n % self.micro_size != 0:
                raise MSValueError(f"For micro batch initialization, the 0th dimension shape of input({n}) must be "
                                   f"divided by micro size({self.micro_size})")
            step = n // self.micro_size
            begin = (step * i,)
            end = (step * (i + 1),)
            strides = (1,)
            for d in range(1, len(shape)):
                begin = begin + (0,)
                end = end + (shape[d],)
                strides = strides + (1,)
            out = out + (self.strided_slice(x, begin, end, strides),)
        return out


def _check_micro(op, name, network, count):
    if not isinstance(network, Cell):
        raise MSTypeError(f"For '{op}', the argument 'network' must cell type, but got the type : {type(network)}.")
    if not isinstance(count, int) or isinstance(count, bool):
        raise MSTypeError(f"For '{op}', the argument '{name}' must be integer, but got the type : {type(count)}.")
    if count <= 0:
        raise MSValueError(f"For '{op}', the argument '{name}' must be large than 0, but got {count}.")


class _MicroSum(Cell):
    """The sum over micro-batches of ``network`` (shared by the three splitting wrappers)."""

    def __init__(self, network, count):
        super().__init__(auto_prefix=False)
        self.network = network
        self.micro_size = count
        self.micro_inputs = CellList([_MicroBatch(count) for _ in range(count)])

    def construct(self, *inputs):
        ret = None
        for i in range(self.micro_size):
            output = self.network(*self.micro_inputs[i](i, *inputs))
            ret = output if ret is None else ret + output
        return ret


class GradAccumulationCell(_MicroSum):
    """Splits each input along axis 0 into ``micro_size`` micro-batches and sums ``network`` over them.

    Args:
        network (Cell): The network to wrap (usually a loss network).
        micro_size (int): The number of micro-batches; must divide every input's axis 0.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> dense = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')
        >>> net = nn.GradAccumulationCell(nn.WithLossCell(dense, nn.MSELoss()), 2)
        >>> float(net(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32))))
        18.0
    """

    def __init__(self, network, micro_size):
        _check_micro(type(self).__name__, "micro_size", network, micro_size)   # a subclass's name in messages
        super().__init__(network, micro_size)


class PipelineCell(_MicroSum):
    """Splits each input along axis 0 into ``micro_size`` micro-batches and sums ``network`` over them; with
    ``stage_config`` / ``segment_config`` (``{cell name: number}``) it tags those sub-cells with
    ``pipeline_stage`` / ``pipeline_segment`` for a pipeline-parallel run.

    Args:
        network (Cell): The network to wrap.
        micro_size (int): The number of micro-batches.
        stage_config (dict, optional): Cell name to pipeline stage. Default ``None``.
        segment_config (dict, optional): Cell name to pipeline segment. Default ``None``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> dense = nn.Dense(3, 2, weight_init='ones', bias_init='zeros')
        >>> net = nn.PipelineCell(nn.WithLossCell(dense, nn.MSELoss()), 2)
        >>> float(net(ms.Tensor(np.ones((4, 3), np.float32)), ms.Tensor(np.zeros((4, 2), np.float32))))
        18.0
    """

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        _check_micro("PipelineCell", "micro_size", network, micro_size)
        super().__init__(network, micro_size)
        if stage_config is not None:
            self._tag(stage_config, "pipeline_stage", "stage_config")
        if segment_config is not None:
            self._tag(segment_config, "pipeline_segment", "segment_config")

    def _tag(self, config, attr, arg):
        left = dict(config)
        for cell_name, cell in self.network.cells_and_names():
            if cell_name and cell_name in left:
                setattr(cell, attr, left.pop(cell_name))
        if str(self.network) in left:
            setattr(self.network, attr, left.pop(str(self.network)))
        if left:
            raise KeyError(f"For 'PipelineCell', the argument '{arg}' : {left} is not found in 'network' : "
                           f"{self.network}")

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
        raise MSValueError("For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed.")


class MicroBatchInterleaved(_MicroSum):
    """Splits each input along axis 0 into ``interleave_num`` slices and sums ``network`` over them (in parallel
    mode the slices' communication overlaps the other slice's computation).

    Args:
        network (Cell): The network to wrap.
        interleave_num (int, optional): The number of slices. Default ``2``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.MicroBatchInterleaved(nn.Dense(3, 1, weight_init='ones'), 2)
        >>> net(ms.Tensor(np.ones((4, 3), np.float32))).shape
        (2, 1)
    """

    def __init__(self, network, interleave_num=2):
        if not isinstance(interleave_num, int) or isinstance(interleave_num, bool):
            raise MSTypeError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be integer, but got "
                              f"the type : {type(interleave_num)}.")
        if interleave_num <= 0:
            raise MSValueError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be large than 0, but "
                               f"got {interleave_num}.")
        super().__init__(network, interleave_num)
        self.interleave_num = interleave_num
        # MindSpore names the slicers ``interleave_inputs``
        self.interleave_inputs = self.micro_inputs


class VirtualDatasetCellTriple(Cell):
    """Calls ``backbone`` with its three inputs (in semi-auto-parallel mode: the data-parallel input layout).

    Args:
        backbone (Cell): The network to wrap.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> class Net(nn.Cell):
        ...     def construct(self, a, b, c):
        ...         return a + b * c
        >>> float(nn.VirtualDatasetCellTriple(Net())(ms.Tensor(1.0), ms.Tensor(2.0), ms.Tensor(3.0)))
        7.0
    """

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


class PipelineGradReducer(Cell):
    """Returns the gradients accumulated over a pipeline's micro-batches, divided by ``scale_sense``, and clears
    the accumulators (``accu_grads.<name>``, zeros, one per parameter).

    With ``opt_shard`` (default: the parallel optimizer setting, off standalone) it scales the given ``grads``
    instead.

    Args:
        parameters (ParameterTuple): The parameters whose gradients are reduced.
        scale_sense (float, optional): The loss scale to divide by. Default ``1.0``.
        opt_shard (bool, optional): Whether the optimizer is sharded. Default ``None``.

    Examples:
        >>> import numpy as np
        >>> import mindspore as ms
        >>> from mindspore import nn
        >>> net = nn.Dense(3, 2)
        >>> reducer = nn.PipelineGradReducer(net.trainable_params())
        >>> [p.name for p in reducer.get_parameters()]
        ['accu_grads.weight', 'accu_grads.bias', 'scale_sense']
    """

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.accu_grads = tuple(Parameter(ops.zeros(p.shape, p.dtype), name="accu_grads." + p.name)
                                for p in parameters)
        for i, p in enumerate(self.accu_grads):
            setattr(self, f"_accu_{i}", p)
        self.degree = Tensor(1, mstype.float32)
        self.scale_sense = Parameter(Tensor(scale_sense, mstype.float32), name="scale_sense")
        self.opt_shard = bool(opt_shard) if opt_shard is not None else False

    def construct(self, grads):
        scale = self.scale_sense * self.degree
        out = ()
        for grad, accu in zip(grads, self.accu_grads):
            source = grad if self.opt_shard else accu
            new_grad = ops.depend(source / scale.astype(source.dtype), grad)
            new_grad = ops.depend(new_grad, ops.assign(accu, ops.zeros_like(accu)))
            out = out + (new_grad,)
        return out

