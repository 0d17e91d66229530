"""Worker of tests/parallel/test_data_parallel.py: trains small networks data-parallel and saves what it saw.

Run as ``mpiexec -n N python _dp_worker.py OUT SCENARIO...`` (N ranks, each taking its shard of every global
batch) or as ``python _dp_worker.py OUT SCENARIO...`` (one process on the global batch: the reference). Every
rank writes ``OUT/<scenario>.rank<r>.npz`` holding the losses it saw (``loss``), every Parameter of the network
(``w:<name>``) and scenario extras; the test compares the ranks with the single process.

Scenarios are ``<net>-<optimizer>-<mode>`` (net ``mlp`` or ``tfm``, optimizer ``sgd``/``momentum``/``adam``, mode
``py``/``graph``) plus the special ones below (``model``, ``lossscale-<mode>``, ``syncbn-<mode>``,
``broadcast-<mode>``, ``nodp``).
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import get_group_size, get_rank, init
from mindspore.plugin import process_group

GLOBAL_BATCH = 8
STEPS = 3
VOCAB, SEQ, DIM = 11, 4, 8


def _rng(seed):
    return np.random.default_rng(seed)


def _dense(rng, cin, cout, scale=0.4):
    return nn.Dense(cin, cout, weight_init=Tensor((rng.standard_normal((cout, cin)) * scale).astype(np.float32)),
                    bias_init=Tensor((rng.standard_normal(cout) * 0.1).astype(np.float32)))


class MLP(nn.Cell):
    def __init__(self, seed=0):
        super().__init__()
        rng = _rng(seed)
        self.fc1 = _dense(rng, 6, 16)
        self.fc2 = _dense(rng, 16, 12)
        self.fc3 = _dense(rng, 12, 3)
        self.act = nn.Tanh()
        self.temperature = ms.Parameter(Tensor(np.float32(1.2)), name="temperature")   # a 0-d gradient

    def construct(self, x):
        return self.fc3(self.act(self.fc2(self.act(self.fc1(x))))) * self.temperature


class Attention(nn.Cell):
    def __init__(self, rng):
        super().__init__()
        self.q = _dense(rng, DIM, DIM)
        # no key bias: its true gradient is identically zero (softmax ignores a shift shared by all keys), so
        # Adam would turn the rounding noise of that zero into full-size updates that no two runs share
        self.k = nn.Dense(DIM, DIM, has_bias=False,
                          weight_init=Tensor((rng.standard_normal((DIM, DIM)) * 0.4).astype(np.float32)))
        self.v = _dense(rng, DIM, DIM)
        self.o = _dense(rng, DIM, DIM)
        self.scale = 1.0 / float(np.sqrt(DIM))

    def construct(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        att = ops.softmax(ops.matmul(q, ops.transpose(k, (0, 2, 1))) * self.scale, axis=-1)
        return self.o(ops.matmul(att, v))


class TinyTransformer(nn.Cell):
    """Embedding + one self-attention layer + FFN, both with residual and LayerNorm, mean-pooled classifier."""

    def __init__(self, seed=0):
        super().__init__()
        rng = _rng(seed)
        self.embed = nn.Embedding(VOCAB, DIM, embedding_table=Tensor(rng.standard_normal((VOCAB, DIM))
                                                                      .astype(np.float32) * 0.5))
        self.attn = Attention(rng)
        self.norm1 = nn.LayerNorm((DIM,), epsilon=1e-5)
        self.ff1 = _dense(rng, DIM, 16)
        self.ff2 = _dense(rng, 16, DIM)
        self.norm2 = nn.LayerNorm((DIM,), epsilon=1e-5)
        self.head = _dense(rng, DIM, 3)
        self.relu = nn.ReLU()

    def construct(self, tokens):
        h = self.embed(tokens)
        h = self.norm1(h + self.attn(h))
        h = self.norm2(h + self.ff2(self.relu(self.ff1(h))))
        return self.head(ops.mean(h, 1))


class BNNet(nn.Cell):
    """Conv -> SyncBatchNorm (4-D) -> flatten -> Dense -> SyncBatchNorm (2-D) -> Dense."""

    def __init__(self, seed=0):
        super().__init__()
        rng = _rng(seed)
        self.conv = nn.Conv2d(2, 3, 3, pad_mode="same", has_bias=False,
                              weight_init=Tensor((rng.standard_normal((3, 2, 3, 3)) * 0.3).astype(np.float32)))
        self.bn1 = nn.SyncBatchNorm(3, momentum=0.8)
        self.fc = _dense(rng, 3 * 4 * 4, 5)
        self.bn2 = nn.SyncBatchNorm(5, momentum=0.8)
        self.out = _dense(rng, 5, 3)

    def construct(self, x):
        h = self.bn1(self.conv(x))
        h = ops.reshape(ops.relu(h), (h.shape[0], -1))
        return self.out(ops.relu(self.bn2(self.fc(h))))


def _data(kind, seed=1):
    rng = _rng(seed)
    n = GLOBAL_BATCH * STEPS
    if kind == "tfm":
        x = rng.integers(0, VOCAB, (n, SEQ)).astype(np.int32)
    elif kind == "bn":
        x = rng.standard_normal((n, 2, 4, 4)).astype(np.float32)
    else:
        x = rng.standard_normal((n, 6)).astype(np.float32)
    y = rng.integers(0, 3, n).astype(np.int32)
    return x, y


def _optimizer(name, params):
    if name == "sgd":
        return nn.SGD(params, 0.2)
    if name == "momentum":
        return nn.Momentum(params, 0.1, 0.9)
    return nn.Adam(params, 0.02)


def _my_rows(step, rank, size):
    """The rows of global batch ``step`` this rank trains on (contiguous slices)."""
    per = GLOBAL_BATCH // size
    start = step * GLOBAL_BATCH + rank * per
    return slice(start, start + per)


def _weights(net):
    return {f"w:{name}": p.asnumpy() for name, p in net.parameters_and_names()}


class _CountAllReduce:
    """Counts the all-reduces this process runs (by wrapping the world communicator's ``allreduce``)."""

    def __init__(self):
        self.calls = 0
        self.comm = process_group(ms.communication.GlobalComm.WORLD_COMM_GROUP).communicator
        if self.comm is not None:
            inner = self.comm.allreduce

            def counted(*args, **kwargs):
                self.calls += 1
                return inner(*args, **kwargs)
            self.comm.allreduce = counted
            inner_start = self.comm.allreduce_start   # GRAPH_MODE: started while the backward pass runs

            def counted_start(*args, **kwargs):
                self.calls += 1
                return inner_start(*args, **kwargs)
            self.comm.allreduce_start = counted_start


def _train_steps(scenario, rank, size, counter):
    net_kind, opt_name, _ = scenario.split("-")
    net = MLP() if net_kind == "mlp" else TinyTransformer()
    x, y = _data(net_kind)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), _optimizer(opt_name, net.trainable_params()))
    step.set_train()
    losses, calls = [], []
    for i in range(STEPS):
        rows = _my_rows(i, rank, size)
        before = counter.calls
        losses.append(float(step(Tensor(x[rows]), Tensor(y[rows])).asnumpy()))
        calls.append(counter.calls - before)
    plan = getattr(step.grad_reducer, "bucket_plan", None)
    extra = {"allreduce_calls": np.array(calls), "buckets": np.array(-1 if plan is None else len(plan))}
    return net, losses, extra


def _lossscale(rank, size):
    """Dynamic loss scale; in step 1 one row of the global batch (on the last rank) is inf, so the gradients
    overflow there: every rank must skip that update and lower the scale."""
    net = MLP()
    x, y = _data("mlp")
    x[GLOBAL_BATCH + GLOBAL_BATCH - 1, 0] = np.inf
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=2)
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Momentum(net.trainable_params(), 0.1, 0.9), manager)
    step.set_train()
    losses, overflow, scales, snapshots = [], [], [], []
    for i in range(STEPS + 1):
        rows = _my_rows(i % STEPS, rank, size)
        loss, cond, scale = step(Tensor(x[rows]), Tensor(y[rows]))
        losses.append(float(loss.asnumpy()))
        overflow.append(bool(cond.asnumpy()))
        scales.append(float(np.asarray(scale.asnumpy()).reshape(-1)[0]))
        snapshots.append(net.fc1.weight.asnumpy().copy())
    return net, losses, {"overflow": np.array(overflow), "scales": np.array(scales),
                         "fc1_history": np.stack(snapshots)}


def _syncbn(rank, size):
    net = BNNet()
    x, y = _data("bn")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train()
    losses = []
    for i in range(STEPS):
        rows = _my_rows(i, rank, size)
        losses.append(float(step(Tensor(x[rows]), Tensor(y[rows])).asnumpy()))
    net.set_train(False)
    rows = _my_rows(0, rank, size)
    return net, losses, {"eval_out": net(Tensor(x[rows])).asnumpy()}


def _syncbn_groups(rank, size):
    """SyncBatchNorm over sync groups of consecutive ranks that together hold 4 rows of an 8-row batch (2 ranks:
    each rank alone; 4 ranks: ``[[0, 1], [2, 3]]``): the output, the input gradient and the moving statistics of
    one training step. The reference (one process) runs BatchNorm on each half of the batch."""
    x = _data("bn")[0][:GLOBAL_BATCH]
    r = _rng(7).standard_normal((GLOBAL_BATCH, 2, 4, 4)).astype(np.float32)
    if size == 1:
        parts = [(slice(0, 4), None), (slice(4, 8), None)]
    else:
        per_group = size // 2
        groups = [list(range(g * per_group, (g + 1) * per_group)) for g in range(2)]
        parts = [(_my_rows(0, rank, size), groups)]
    outs, grads, stats = [], [], []
    for rows, groups in parts:
        bn = nn.SyncBatchNorm(2, momentum=0.8, process_groups=groups,
                              gamma_init=Tensor(np.array([1.5, 0.5], np.float32)),
                              beta_init=Tensor(np.array([0.1, -0.2], np.float32))).set_train()
        weight = Tensor(r[rows])

        def loss(t):
            out = bn(t)
            return (out * weight).sum(), out
        (_, out), grad = ms.value_and_grad(loss, 0, has_aux=True)(Tensor(x[rows]))
        outs.append(out.asnumpy())
        grads.append(grad.asnumpy())
        stats.append(np.stack([bn.moving_mean.asnumpy(), bn.moving_variance.asnumpy()]))
    net = nn.Cell()
    return net, [0.0], {"out": np.concatenate(outs), "grad": np.concatenate(grads), "stats": np.stack(stats)}


def _broadcast(rank, size):
    """Every rank starts from different weights (seed = rank); ``parameter_broadcast`` makes them rank 0's."""
    ms.set_auto_parallel_context(parameter_broadcast=True)
    net = MLP(seed=rank)
    x, y = _data("mlp")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")), nn.Adam(net.trainable_params(), 0.02))
    losses = []
    for i in range(STEPS):
        rows = _my_rows(i, rank, size)
        losses.append(float(step(Tensor(x[rows]), Tensor(y[rows])).asnumpy()))
    return net, losses, {}


def _tutorial(rank, size, jit):
    """MindSpore's data-parallel tutorial loop: ``set_seed`` for equal initial weights (default initializers),
    ``value_and_grad`` + ``nn.DistributedGradReducer(optimizer.parameters)`` + the optimizer, in ``@ms.jit``
    or eagerly."""
    ms.set_seed(1)
    net = nn.SequentialCell([nn.Dense(6, 10), nn.ReLU(), nn.Dense(10, 3)])
    x, y = _data("mlp")
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.trainable_params(), 0.1)

    def forward_fn(data, target):
        logits = net(data)
        return loss_fn(logits, target), logits

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)
    grad_reducer = nn.DistributedGradReducer(optimizer.parameters)

    def train_step(inputs, targets):
        (loss, _), grads = grad_fn(inputs, targets)
        grads = grad_reducer(grads)
        optimizer(grads)
        return loss

    if jit:
        train_step = ms.jit(train_step)
    losses = []
    for i in range(STEPS):
        rows = _my_rows(i, rank, size)
        losses.append(float(train_step(Tensor(x[rows]), Tensor(y[rows])).asnumpy()))
    return net, losses, {}


class _Record(ms.train.Callback):
    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_step_end(self, run_context):
        out = run_context.original_args().net_outputs
        out = out[0] if isinstance(out, (tuple, list)) else out
        self.losses.append(float(out.asnumpy()))


def _model(out, rank, size, amp):
    """``Model.train`` on a GeneratorDataset sharded with ``num_shards``/``shard_id``, two epochs, a
    ModelCheckpoint per rank; with ``amp``: amp_level O2 and a dynamic loss scale manager (a fixed one on CPU,
    where MindSpore 2.10 refuses a manager that updates the scale)."""
    import mindspore.dataset as ds
    x, y = _data("mlp")

    class Source:
        def __getitem__(self, i):
            return x[i], y[i]

        def __len__(self):
            return len(x)

    shards = {} if size == 1 else {"num_shards": size, "shard_id": rank}
    data = ds.GeneratorDataset(Source(), ["x", "y"], shuffle=False, **shards).batch(GLOBAL_BATCH // size)
    net = MLP()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    fixed = amp and ms.get_context("device_target") == "CPU"
    # (a fixed loss scale scales the gradients: the optimizer divides it out)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=2.0 ** 8 if fixed else 1.0)
    kwargs = {}
    if amp:
        manager = (ms.FixedLossScaleManager(2.0 ** 8, drop_overflow_update=False) if fixed
                   else ms.DynamicLossScaleManager(2.0 ** 8, 2, 2))
        kwargs = {"amp_level": "O2", "loss_scale_manager": manager}
    model = ms.Model(net, loss_fn, opt, **kwargs)
    record = _Record()
    callbacks = [record]
    if not amp:
        config = ms.CheckpointConfig(save_checkpoint_steps=STEPS)
        callbacks.append(ms.ModelCheckpoint(prefix="dp", directory=os.path.join(out, f"ckpt_{rank}"), config=config))
        if size > 1:   # each Parameter saved by one rank only
            dedup = ms.CheckpointConfig(save_checkpoint_steps=2 * STEPS, remove_redundancy=True,
                                        append_info=["epoch_num"])
            callbacks.append(ms.ModelCheckpoint(prefix="dedup", directory=os.path.join(out, f"dedup_{rank}"),
                                                config=dedup))
    model.train(2, data, callbacks=callbacks, dataset_sink_mode=False)
    return net, record.losses, {}


def main():
    out, scenarios = sys.argv[1], sys.argv[2:]
    init()
    rank, size = get_rank(), get_group_size()
    counter = _CountAllReduce()
    for scenario in scenarios:
        ms.reset_auto_parallel_context()
        mode = ms.GRAPH_MODE if scenario.endswith("-graph") else ms.PYNATIVE_MODE
        ms.set_context(mode=mode)
        parallel = "stand_alone" if scenario == "nodp" else ms.ParallelMode.DATA_PARALLEL
        ms.set_auto_parallel_context(parallel_mode=parallel, gradients_mean=True)
        if scenario.startswith("mlp-sgd"):       # several buckets: a 1 KB size threshold
            ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 1.0 / 1024}})
        if scenario.startswith("tfm-momentum"):  # buckets split at gradient indices
            ms.set_auto_parallel_context(all_reduce_fusion_config=[3, 9])
        if scenario.startswith(("mlp-", "tfm-")):
            net, losses, extra = _train_steps(scenario, rank, size, counter)
        elif scenario == "nodp":
            net, losses, extra = _train_steps("mlp-sgd-py", rank, size, counter)
        elif scenario.startswith("lossscale"):
            net, losses, extra = _lossscale(rank, size)
        elif scenario == "syncbn-groups":
            net, losses, extra = _syncbn_groups(rank, size)
        elif scenario.startswith("syncbn"):
            net, losses, extra = _syncbn(rank, size)
        elif scenario.startswith("tutorial"):
            net, losses, extra = _tutorial(rank, size, scenario.endswith("-jit"))
        elif scenario.startswith("broadcast"):
            net, losses, extra = _broadcast(rank, size)
        elif scenario in ("model", "model-amp"):
            net, losses, extra = _model(out, rank, size, scenario == "model-amp")
        else:
            raise ValueError(f"unknown scenario {scenario!r}")
        np.savez(os.path.join(out, f"{scenario}.rank{rank}.npz"), loss=np.array(losses), **_weights(net), **extra)


if __name__ == "__main__":
    main()
