"""The boost training steps: :class:`BoostTrainOneStepCell` and :class:`BoostTrainOneStepWithLossScaleCell`.

A boost step is a ``TrainOneStepCell`` that applies the algorithms :class:`mindspore.boost.AutoBoost` enabled and
the optimizer carries: a :class:`mindspore.boost.FreezeOpt` trains one parameter group per step (the group the
freezing schedule names); ``grad_accumulation`` applies the mean gradient every ``grad_accumulation_step`` steps;
an optimizer marked ``dim_reduce`` takes :class:`mindspore.boost.DimReduce` steps; one marked ``adasum`` (with
data parallelism over a power of two of groups of ``device_number`` ranks) combines the groups' updates with
:class:`mindspore.boost.AdaSum`. Otherwise it is a plain training step.
"""
import mindspore.ops as ops
from mindspore._errors import MSTypeError, MSValueError
from mindspore.boost.adasum import AdaSum
from mindspore.boost.boost import AutoBoost
from mindspore.boost.dim_reduce import DimReduce
from mindspore.boost.grad_accumulation import GradientAccumulation
from mindspore.boost.grad_freeze import FreezeOpt, freeze_cell
from mindspore.common import dtype as mstype
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.nn.cell import Cell
from mindspore.nn.wrap.cell_wrapper import TrainOneStepCell
from mindspore.nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
import mindspore.plugin as plugin

__all__ = ["BoostTrainOneStepCell", "BoostTrainOneStepWithLossScaleCell"]

_WORLD = "hccl_world_group"


class BoostTrainOneStepCell(TrainOneStepCell):
    """A training step with the boost algorithms (see the module docstring).

    Args:
        network (Cell): the network with its loss.
        optimizer (Union[Cell, FreezeOpt]): the optimizer (as :meth:`AutoBoost.network_auto_process_train`
            returned it).
        sens (numbers.Number): the backpropagation seed. Default ``None`` (1).

    Inputs:
        - **\\*inputs** (Tuple(Tensor)) - the network inputs.

    Outputs:
        The loss.

    Examples:
        >>> import mindspore as ms
        >>> from mindspore import nn, boost
        >>> net = nn.WithLossCell(nn.Dense(3, 1), nn.MSELoss())
        >>> step = boost.BoostTrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))
    """

    def __init__(self, network, optimizer, sens=None):
        super().__init__(network, optimizer, sens)
        self.freeze = isinstance(optimizer, FreezeOpt)
        self.train_strategy = getattr(optimizer, "train_strategy", None)
        self.auto_boost = AutoBoost()
        self.use_grad_accumulation = self.parallel_mode in ("data_parallel", "stand_alone") and \
            bool(self.auto_boost.boost_config.get("grad_accumulation", False))
        self.max_accumulation_step = 1
        if self.use_grad_accumulation:
            self.max_accumulation_step = max(int(self.auto_boost.grad_accumulation_step), 1)
            self.use_grad_accumulation = self.max_accumulation_step > 1
        if self.use_grad_accumulation and not self.freeze:
            self.grad_accumulation = GradientAccumulation(self.max_accumulation_step, optimizer)
        self.enable_dim_reduce = bool(getattr(optimizer, "dim_reduce", False))
        if self.enable_dim_reduce:
            self._init_dim_reduce()
        self._freeze_step = 0
        self.freeze_nets = None
        if self.freeze:
            mean = getattr(self, "mean", None) if self.reducer_flag else None
            degree = getattr(self, "degree", None) if self.reducer_flag else None
            self.freeze_nets = freeze_cell(self.reducer_flag, self.network, optimizer, self.sens, None,
                                           self.use_grad_accumulation, mean, degree, self.max_accumulation_step)
        self.enable_adasum = self.check_adasum_enable()
        if self.enable_adasum:
            self._init_adasum()

    def __call__(self, *args, **kwargs):
        if self.freeze:   # which group trains is decided per step, outside any compiled graph
            return self.gradient_freeze_process(*args)
        return super().__call__(*args, **kwargs)

    def construct(self, *inputs):
        loss, grads = self._forward_and_grads(inputs, self.sens if self.sense_flag else None)
        grads = self.grad_reducer(grads)
        return self._update(loss, grads, 1.0, inputs)

    def _update(self, loss, grads, loss_scale, inputs):
        if self.use_grad_accumulation:
            return self.grad_accumulation(loss, grads)
        if self.enable_dim_reduce:
            return self.dim_reduce(loss, grads, loss_scale, self.weights, self.weights_clone, *inputs)
        if self.enable_adasum:
            return self.adasum_process(loss, grads)
        self.optimizer(grads)
        return loss

    def gradient_freeze_process(self, *inputs):
        """Run the training step of the group the schedule names for this step."""
        if self.train_strategy is None:
            index, period = self._freeze_step, len(self.freeze_nets)
        else:
            index, period = self.train_strategy[self._freeze_step], len(self.train_strategy)
        loss = self.freeze_nets[index](*inputs)
        self._freeze_step = 0 if self._freeze_step + 1 >= period else self._freeze_step + 1
        return loss

    def adasum_process(self, loss, grads):
        """Apply the optimizer, then replace this rank's share of the update by the groups' adaptive sum."""
        share = self.weights[self.start:self.end]
        for clone, w in zip(self.weight_clone, share):
            ops.assign(clone, w)
        self.optimizer(grads)
        deltas = tuple(old - new for new, old in zip(share, self.weight_clone))
        self.adasum(deltas, share, tuple(self.weight_clone))
        return loss

    def check_adasum_enable(self):
        """Whether AdaSum applies: the optimizer asks for it, gradients are reduced, and the ranks form a power of
        two (above 1) of groups of ``device_number``."""
        if not getattr(self.optimizer, "adasum", False) or not self.reducer_flag:
            return False
        groups = plugin.process_group(_WORLD).size // self.auto_boost.device_number
        return groups > 1 and groups & (groups - 1) == 0

    def _init_adasum(self):
        rank = plugin.process_group(_WORLD).rank
        devices = self.auto_boost.device_number
        groups = plugin.process_group(_WORLD).size // devices
        per_rank = len(self.weights) // devices
        position = rank % devices
        self.start = position * per_rank
        self.end = len(self.weights) if position == devices - 1 else (position + 1) * per_rank
        self.weight_clone = ParameterTuple(self.weights[self.start:self.end]).clone(prefix="delta_weight")
        self.adasum = AdaSum(rank, devices, groups, self.weight_clone)

    def _init_dim_reduce(self):
        boost = self.auto_boost
        pca = getattr(boost, "local_pca_mat", None)
        if pca is None:
            raise MSValueError("For 'BoostTrainOneStepCell', dim_reduce needs the PCA matrix: build the optimizer "
                               "with AutoBoost.network_auto_process_train.")
        group = plugin.process_group(_WORLD)
        self.weights_clone = ParameterTuple(self.weights).clone(prefix="weights_clone", init="same")
        self.dim_reduce = DimReduce(self.network, self.optimizer, self.weights, pca, boost.n_components, boost.rho,
                                    boost.gamma, boost.alpha, boost.sigma, group.rank, group.size)


class BoostTrainOneStepWithLossScaleCell(BoostTrainOneStepCell):
    """:class:`BoostTrainOneStepCell` with loss scaling: the gradients of ``loss * scale`` are unscaled, checked for
    overflow (inf/NaN, agreed over the ranks), the scale updated by ``scale_sense`` when it is an update Cell, and
    the update skipped on overflow.

    Args:
        network (Cell): the network with its loss.
        optimizer (Cell): the optimizer.
        scale_sense (Union[Tensor, Cell]): a loss-scale update Cell, or a Tensor of shape ``()``/``(1,)`` (with
            ``loss_scale_group`` enabled: a :class:`GroupLossScaleManager`).

    Outputs:
        ``(loss, overflow, loss_scale)``.

    Raises:
        TypeError: ``scale_sense`` is neither a Cell nor a Tensor (or not a group manager when one is needed).
        ValueError: a Tensor ``scale_sense`` of another shape.
    """

    start_overflow_check = TrainOneStepWithLossScaleCell.start_overflow_check
    get_overflow_status = TrainOneStepWithLossScaleCell.get_overflow_status
    process_loss_scale = TrainOneStepWithLossScaleCell.process_loss_scale
    set_sense_scale = TrainOneStepWithLossScaleCell.set_sense_scale

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.base = Tensor(1, mstype.float32)
        self.base0 = Tensor(0, mstype.int32)
        self.is_distributed = self.parallel_mode != "stand_alone"
        if self.is_distributed:
            self.allreduce = ops.AllReduce()
        self.gpu_target = False
        self.loss_scaling_manager = None
        self.enable_enhanced_amp = bool(self.auto_boost.boost_config.get("loss_scale_group", False))
        if self.enable_enhanced_amp and not hasattr(scale_sense, "set_loss_scale_status"):
            raise MSTypeError(f"The scale_sense must be enhanced amp Cell, bug got {type(scale_sense)}")
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = Parameter(Tensor(scale_sense.get_loss_scale(), dtype=mstype.float32),
                                         name="scale_sense")
        elif isinstance(scale_sense, Tensor):
            if tuple(scale_sense.shape) not in ((1,), ()):
                raise MSValueError(f"The shape of scale_sense must be (1,) or (), but got {tuple(scale_sense.shape)}")
            self.scale_sense = Parameter(scale_sense, name="scale_sense")
        else:
            raise MSTypeError(f"The scale_sense must be Cell or Tensor, but got {type(scale_sense)}")

    def construct(self, *inputs):
        scaling_sens = self.scale_sense
        status, scaling_sens = self.start_overflow_check(None, scaling_sens)
        loss, grads = self._forward_and_grads(inputs, scaling_sens)
        reciprocal = ops.reciprocal(scaling_sens)
        grads = tuple(ops.mul(g, ops.cast(reciprocal, g.dtype)) for g in grads)
        grads = self.grad_reducer(grads)
        cond = self.get_overflow_status(status, grads)
        overflow = self.process_loss_scale(cond)
        if not bool(overflow):
            loss = self._update(loss, grads, 1.0, inputs)
        return loss, cond, ops.identity(self.scale_sense)
