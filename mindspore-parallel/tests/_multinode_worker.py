"""Worker of test_msrun_multinode.py: under msrun over two nodes, checks the world, does an AllReduce and trains a
small MLP data-parallel, saving the losses and weights to ``OUT/rank<r>.npz``; run plainly (no launcher) it trains
the same MLP in one process on the global batch (``OUT/reference.npz``). ``KILL=<rank>`` makes that rank SIGKILL
itself in its second step (the others then block in the step's AllReduce); ``INIT_DELAY=<seconds>`` makes the
workers wait that long before ``init()`` (a node that comes late to the merge of the nodes' worlds)."""
import os
import signal
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.communication import get_group_size, get_local_rank, get_local_rank_size, get_rank, init
from mindspore.communication.management import group_communicator

GLOBAL_BATCH, STEPS = 8, 3


def mlp():
    rng = np.random.default_rng(0)

    def dense(cin, cout):
        return nn.Dense(cin, cout, weight_init=Tensor((rng.standard_normal((cout, cin)) * 0.4).astype(np.float32)),
                        bias_init=Tensor((rng.standard_normal(cout) * 0.1).astype(np.float32)))
    return nn.SequentialCell([dense(6, 16), nn.Tanh(), dense(16, 3)])


def main():
    out = sys.argv[1]
    distributed = "RANK_ID" in os.environ
    rank, size = 0, 1
    if distributed:
        time.sleep(float(os.environ.get("INIT_DELAY", "0")))
        init()
        rank, size = get_rank(), get_group_size()
        assert rank == int(os.environ["RANK_ID"]), (rank, os.environ["RANK_ID"])
        total = group_communicator().allreduce(np.array([rank + 1.0]))
        print(f"rank {rank} of {size}, local rank {get_local_rank()} of {get_local_rank_size()}, sum {total[0]:g}",
              flush=True)
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    net = mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    rng = np.random.default_rng(1)
    losses = []
    kill = int(os.environ.get("KILL", "-1"))
    for i in range(STEPS):
        x = rng.standard_normal((GLOBAL_BATCH, 6)).astype(np.float32)
        y = rng.standard_normal((GLOBAL_BATCH, 3)).astype(np.float32)
        share = GLOBAL_BATCH // size
        if i == 1 and rank == kill:
            print(f"rank {rank} kills itself", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        if i == 1 and kill >= 0:
            time.sleep(60)  # stands for a long step: the job must end long before
        losses.append(float(step(Tensor(x[rank * share:(rank + 1) * share]),
                                  Tensor(y[rank * share:(rank + 1) * share])).asnumpy()))
    weights = {f"w:{p.name}": p.asnumpy() for p in net.trainable_params()}
    name = f"rank{rank}.npz" if distributed else "reference.npz"
    np.savez(os.path.join(out, name), loss=np.array(losses), **weights)


if __name__ == "__main__":
    main()
