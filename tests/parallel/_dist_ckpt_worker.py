"""Worker of test_distributed_checkpoint.py, run under mpiexec: every rank saves its slice of a network and rank 0
the strategy file, for one process to reload.

argv: mode, out_dir.
* ``hand``: every rank builds the same MLP and keeps its hand-cut slice of each parameter (layouts
  ``LAYOUTS["2-col-row"]`` of the test module), saves ``out_dir/rank_<r>/net.ckpt``; rank 0 writes
  ``out_dir/strategy.ckpt`` from those layouts.
* ``semi_auto``: a Megatron MLP (column-split then row-split MatMul) trained 2 steps under SEMI_AUTO_PARALLEL
  (its parameters and Momentum states hold this rank's blocks), saved per rank with ``save_checkpoint``; the first
  sharded step writes the strategy file the context names (``strategy_ckpt_config["save_file"]``); each rank also
  saves ``integrated.ckpt`` with ``integrated_save=True`` (the full parameters, gathered); rank 0 saves
  the same training in one process (STAND_ALONE) to ``out_dir/standalone.ckpt``. (``semi_auto(out, rank, mp, dp,
  optimizer)`` is also called by the multi-node worker ``mindspore-parallel/tests/_multinode_parallel_worker.py``:
  ``dp`` x ``mp`` ranks, the batch cut ``dp`` ways, ``optimizer`` turns ``enable_parallel_optimizer`` on.)
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, context, nn, ops


class ShardedMLP(nn.Cell):
    def __init__(self, mp, dp=1):
        super().__init__()
        rng = np.random.RandomState(0)
        self.w1 = Parameter(Tensor(rng.standard_normal((8, 16)).astype(np.float32) * 0.3), name="w1")
        self.b1 = Parameter(Tensor(rng.standard_normal((16,)).astype(np.float32) * 0.3), name="b1")
        self.w2 = Parameter(Tensor(rng.standard_normal((16, 4)).astype(np.float32) * 0.3), name="w2")
        self.mm1 = ops.MatMul().shard(((dp, 1), (1, mp)))
        self.add1 = ops.Add().shard(((dp, mp), (mp,)))
        self.relu = ops.ReLU().shard(((dp, mp),))
        self.mm2 = ops.MatMul().shard(((dp, mp), (mp, 1)))

    def construct(self, x):
        return self.mm2(self.relu(self.add1(self.mm1(x, self.w1), self.b1)), self.w2)


def train_step_cell(mp, steps, dp=1):
    """A TrainOneStepCell of :class:`ShardedMLP` after ``steps`` Momentum steps on fixed data."""
    net = ShardedMLP(mp, dp)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    rng = np.random.RandomState(7)
    for _ in range(steps):
        x = Tensor(rng.standard_normal((8, 8)).astype(np.float32))
        y = Tensor(rng.standard_normal((8, 4)).astype(np.float32))
        step(x, y)
    return step


def hand(out, rank):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from test_distributed_checkpoint import LAYOUTS, _dev_map, _strategy_layouts, full_params, hand_slice, seeded_mlp
    from mindspore.parallel._strategy_file import write_strategy_file
    net = seeded_mlp(7)                       # every rank builds the same network ...
    full = full_params(net)
    layouts = LAYOUTS["2-col-row"]
    for _, p in net.parameters_and_names():   # ... and keeps only its slice, as a sharded network does
        p.set_data(Tensor(hand_slice(full[p.name], *_dev_map(layouts[p.name]), rank)), slice_shape=True)
    os.makedirs(os.path.join(out, f"rank_{rank}"), exist_ok=True)
    ms.save_checkpoint(net, os.path.join(out, f"rank_{rank}", "net.ckpt"), integrated_save=False)
    if rank == 0:
        write_strategy_file(os.path.join(out, "strategy.ckpt"), _strategy_layouts(layouts, full))


def semi_auto(out, rank, mp=2, dp=1, optimizer=False):
    # the strategy file is written by the first sharded step, as MindSpore writes it when it compiles the network
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True, strategy_ckpt_config={
        "save_file": os.path.join(out, "strategy.ckpt"), "only_trainable_params": False},
        enable_parallel_optimizer=optimizer)
    step = train_step_cell(mp, 2, dp)
    os.makedirs(os.path.join(out, f"rank_{rank}"), exist_ok=True)
    ms.save_checkpoint(step, os.path.join(out, f"rank_{rank}", "net.ckpt"), integrated_save=False)
    # the default integrated_save=True: every rank gathers the full parameters (collective) and writes them
    ms.save_checkpoint(step, os.path.join(out, f"rank_{rank}", "integrated.ckpt"))
    context.set_auto_parallel_context(parallel_mode="stand_alone", strategy_ckpt_config={"save_file": ""},
                                      enable_parallel_optimizer=False)
    if rank == 0:
        ms.save_checkpoint(train_step_cell(mp, 2, dp), os.path.join(out, "standalone.ckpt"))


def main():
    from mindspore.communication import get_group_size, get_rank, init
    mode, out = sys.argv[1], sys.argv[2]
    init()
    rank = get_rank()
    {"hand": hand, "semi_auto": semi_auto}[mode](out, rank)
    print(f"rank {rank}/{get_group_size()} saved", flush=True)


if __name__ == "__main__":
    main()
