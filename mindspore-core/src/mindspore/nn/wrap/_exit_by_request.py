"""``ExitByRequest`` (exported by ``mindspore.utils``): the agreement of all ranks to leave training, which
``TrainOneStepCell`` makes in its step when ``MS_ENABLE_GRACEFUL_EXIT=1`` (defined here, below ``mindspore.utils``, so
that the training cells can use it)."""
import mindspore.ops as ops
from mindspore._plugin.collective import process_group, world_group
from mindspore.common import dtype as mstype
from mindspore.common.tensor import Tensor


class ExitByRequest:
    """All ranks leave training together when all of them requested it.

    In the training step, ``grad = exit_by_request(grad, init_value, exit_value)``: ``init_value`` is this rank's
    request (an int32 tensor ``[1]`` to ask, ``[0]`` not to), and ``exit_value`` (a bool Parameter) becomes True
    when every rank of the job asked. With one process nothing is reduced and ``grad`` passes through.
    """

    def __init__(self):
        self.group_size = process_group(world_group()).size
        self.is_distributed = self.group_size > 1
        if self.is_distributed:
            self.base = Tensor([self.group_size], dtype=mstype.int32)
            self.all_reduce = ops.AllReduce()
        self.base1 = Tensor([1], mstype.int32)
        self.true = Tensor(True, mstype.bool_)

    def exit_by_request(self, grad, init_value, exit_value):
        """``grad``, after setting ``exit_value`` to whether all ranks requested to exit."""
        if self.is_distributed:
            requests = self.all_reduce(init_value)
            everyone = ops.all(ops.equal(requests, self.base))
            grad = ops.depend(grad, ops.assign(exit_value, everyone))
        return grad
