"""Worker of test_parallel_samples_autoparallel.py::test_autoparallel_files_and_norms_msrun (2 ranks under msrun):
AutoParallel's strategy, group and local-norm settings in a GRAPH_MODE training step.

Phase 1: a 2-layer MLP whose first MatMul is data parallel (``w1`` held as copies by both ranks) and whose second
splits ``w2`` by rows; the step runs once with ``save_param_strategy_file``, ``set_group_ckpt_save_file``,
``dump_local_norm``, ``enable_device_local_norm``, ``comm_fusion`` and ``enable_fp32_communication``. Phase 2: the
same network without any strategy, ``load_param_strategy_file`` of phase 1's file and ``print_local_norm``: its
operators take the file's strategies and its first loss is phase 1's. Each rank writes its files under OUT and
prints ``rank R <what> <value>`` lines for the test.
"""
import sys

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops
from mindspore.communication import get_rank, init
from mindspore.parallel._mirror import get_squared_device_local_norm_param
from mindspore.parallel.auto_parallel import AutoParallel

OUT = sys.argv[1]


class Net(nn.Cell):
    def __init__(self, sharded):
        super().__init__()
        rng = np.random.RandomState(0)
        self.w1 = Parameter(Tensor(rng.standard_normal((8, 16)).astype(np.float32) * 0.3), name="w1")
        self.w2 = Parameter(Tensor(rng.standard_normal((16, 4)).astype(np.float32) * 0.3), name="w2")
        self.scale = Parameter(Tensor(np.float32(0.5)), name="scale", requires_grad=False)
        self.mm1 = ops.MatMul()
        self.relu = ops.ReLU()
        self.mm2 = ops.MatMul()
        if sharded:
            self.mm1.shard(((2, 1), (1, 1)))
            self.mm2.shard(((1, 2), (2, 1)))

    def construct(self, x):
        return self.mm2(self.relu(self.mm1(x, self.w1)), self.w2) * self.scale


def train_step_of(net):
    loss_fn = nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, net.trainable_params())

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    return train_step


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    rank = get_rank()
    rng = np.random.RandomState(1)
    x = rng.standard_normal((8, 8)).astype(np.float32)
    y = rng.standard_normal((8, 4)).astype(np.float32)
    local = (Tensor(x[4 * rank:4 * rank + 4]), Tensor(y[4 * rank:4 * rank + 4]))   # "data_parallel" inputs

    net = Net(sharded=True)
    step = AutoParallel(train_step_of(net), parallel_mode="semi_auto")
    step.save_param_strategy_file(f"{OUT}/strategy_{rank}.ckpt")
    step.disable_strategy_file_only_for_trainable_params()
    step.set_group_ckpt_save_file(f"{OUT}/group_{rank}.ckpt")
    step.dump_local_norm(f"{OUT}/norm")
    step.enable_device_local_norm()
    step.comm_fusion({"allreduce": {"mode": "size", "config": 32}})
    step.enable_fp32_communication()
    print(f"rank {rank} loss1 {float(step(*local).asnumpy()):.9g}", flush=True)
    print(f"rank {rank} device_norm {float(get_squared_device_local_norm_param().asnumpy()):.9g}", flush=True)
    print(f"rank {rank} restored {ms.get_auto_parallel_context('dump_local_norm')} "
          f"{ms.get_auto_parallel_context('parallel_mode')}", flush=True)

    net2 = Net(sharded=False)
    step2 = AutoParallel(train_step_of(net2), parallel_mode="semi_auto")
    step2.load_param_strategy_file(f"{OUT}/strategy_{rank}.ckpt")
    step2.print_local_norm()
    print(f"rank {rank} loss2 {float(step2(*local).asnumpy()):.9g}", flush=True)
    print(f"rank {rank} loaded {net2.mm1.attrs.get('in_strategy')} {net2.mm2.attrs.get('in_strategy')}", flush=True)


if __name__ == "__main__":
    main()
