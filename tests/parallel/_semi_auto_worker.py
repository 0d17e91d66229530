"""Worker of test_semi_auto_parallel.py, run under mpiexec: trains a network sharded by SEMI_AUTO_PARALLEL and
the same network in one process (STAND_ALONE) on the global batch, and writes ``out_dir/rank<r>.json``: per
config, both loss sequences and the largest differences (losses; whole weights gathered from the ranks' blocks).

argv: mode (pynative | graph), steps, out_dir, then configs ``case:dp:mp[:level]`` (case: mlp | transformer |
embed; level: semi = SEMI_AUTO_PARALLEL with every strategy given, sp = AUTO_PARALLEL sharding propagation from
the first operators' strategies, rp = AUTO_PARALLEL recursive programming with no strategy given, opt = semi with
enable_parallel_optimizer, cell = SEMI_AUTO_PARALLEL with Cell.shard only, layout = semi with Layout strategies,
batch = semi with full_batch=False: each rank feeds its rows of the global batch).
"""
import json
import sys

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, context, nn, ops
from mindspore.communication import get_group_size, get_rank, init


def _param(rng, shape, name, scale=0.3):
    return Parameter(Tensor(rng.standard_normal(shape).astype(np.float32) * scale), name=name)


def _shard(prim, strategy, wanted):
    """``prim`` with ``strategy`` when ``wanted`` (AUTO_PARALLEL cases leave some or all operators without)."""
    return prim.shard(strategy) if wanted else prim


class MLP(nn.Cell):
    """Megatron MLP: column-split MatMul, bias + ReLU on the column blocks, row-split MatMul (+ AllReduce)."""

    def __init__(self, dp, mp, level="semi", d_in=8, d_hidden=16, d_out=4):
        super().__init__()
        level = "rp" if level == "rpf" else level
        rng = np.random.RandomState(0)
        self.w1 = _param(rng, (d_in, d_hidden), "w1")
        self.b1 = _param(rng, (d_hidden,), "b1")
        self.w2 = _param(rng, (d_hidden, d_out), "w2")
        self.b2 = _param(rng, (d_out,), "b2")
        every = level in ("semi", "opt")
        if level == "layout":   # the same strategies as Layouts over a named device matrix
            from mindspore.parallel import Layout
            lay = Layout((dp, mp), ("dp", "mp"))
            self.mm1 = ops.MatMul().shard((lay("dp", "None"), lay("None", "mp")))
            self.add1 = ops.Add().shard((lay("dp", "mp"), lay("mp")))
            self.relu = ops.ReLU().shard((lay("dp", "mp"),))
            self.mm2 = ops.MatMul().shard((lay("dp", "mp"), lay("mp", "None")))
        else:
            self.mm1 = _shard(ops.MatMul(), ((dp, 1), (1, mp)), level != "rp")
            self.add1 = _shard(ops.Add(), ((dp, mp), (mp,)), every)
            self.relu = _shard(ops.ReLU(), ((dp, mp),), every)
            self.mm2 = _shard(ops.MatMul(), ((dp, mp), (mp, 1)), every)
        self.add2 = ops.Add()

    def construct(self, x):
        h = self.relu(self.add1(self.mm1(x, self.w1), self.b1))
        return self.add2(self.mm2(h, self.w2), self.b2)


class Transformer(nn.Cell):
    """One post-norm transformer layer (heads split over mp): QKV column-split, per-head attention with
    BatchMatMul and Softmax on the split heads, output row-split, LayerNorm, Megatron MLP."""

    def __init__(self, dp, mp, level="semi", seq=4, d=8, heads=4, d_ff=16):
        super().__init__()
        rng = np.random.RandomState(1)
        self.heads, self.hd = heads, d // heads
        self.wq = _param(rng, (d, d), "wq")
        self.wk = _param(rng, (d, d), "wk")
        self.wv = _param(rng, (d, d), "wv")
        self.wo = _param(rng, (d, d), "wo")
        self.w1 = _param(rng, (d, d_ff), "w1")
        self.w2 = _param(rng, (d_ff, d), "w2")
        every, some = level in ("semi", "opt"), level != "rp"
        self.col = _shard(ops.MatMul(), ((dp, 1), (1, mp)), some)
        self.colk = _shard(ops.MatMul(), ((dp, 1), (1, mp)), some)
        self.colv = _shard(ops.MatMul(), ((dp, 1), (1, mp)), some)
        self.row = _shard(ops.MatMul(), ((dp, mp), (mp, 1)), every)
        self.ff1 = _shard(ops.MatMul(), ((dp, 1), (1, mp)), some)
        self.gelu = _shard(ops.GeLU(), ((dp, mp),), every)
        self.ff2 = _shard(ops.MatMul(), ((dp, mp), (mp, 1)), every)
        self.qk = _shard(ops.BatchMatMul(transpose_b=True), ((dp, mp, 1, 1), (dp, mp, 1, 1)), every)
        self.av = _shard(ops.BatchMatMul(), ((dp, mp, 1, 1), (dp, mp, 1, 1)), every)
        self.softmax = _shard(ops.Softmax(-1), ((dp, mp, 1, 1),), every)
        self.norm1 = nn.LayerNorm((d,))
        self.norm2 = nn.LayerNorm((d,))
        self.seq = seq

    def _heads(self, t, b):
        return ops.transpose(ops.reshape(t, (b, self.seq, self.heads, self.hd)), (0, 2, 1, 3))

    def construct(self, x):
        b = x.shape[0] // self.seq   # the global batch: x.shape is the global shape, also when x is cut
        q = self._heads(self.col(x, self.wq), b)
        k = self._heads(self.colk(x, self.wk), b)
        v = self._heads(self.colv(x, self.wv), b)
        att = self.softmax(self.qk(q, k) * (1.0 / self.hd ** 0.5))
        ctx = ops.reshape(ops.transpose(self.av(att, v), (0, 2, 1, 3)), (b * self.seq, self.heads * self.hd))
        h = self.norm1(x + self.row(ctx, self.wo))
        return self.norm2(h + self.ff2(self.gelu(self.ff1(h, self.w1)), self.w2))


class Embed(nn.Cell):
    """Vocabulary-split embedding (Gather with mask + AllReduce) followed by a column/row MLP head."""

    def __init__(self, dp, mp, level="semi", vocab=16, d=8):
        super().__init__()
        rng = np.random.RandomState(2)
        self.table = _param(rng, (vocab, d), "table")
        self.w = _param(rng, (d, 4), "w")
        self.gather = _shard(ops.Gather(), ((mp, 1), (dp, 1)), level != "rp")
        self.mm = _shard(ops.MatMul(), ((dp, mp), (mp, 1)), level in ("semi", "opt"))
        self.mean = _shard(ops.ReduceMean(keep_dims=False), ((dp, 1, 1),), level in ("semi", "opt"))

    def construct(self, ids):
        e = self.mean(self.gather(self.table, ids, 0), 1)
        return self.mm(e, self.w)


def data(case, steps):
    rng = np.random.RandomState(7)
    if case == "embed":
        xs = [rng.randint(0, 16, (8, 3)).astype(np.int32) for _ in range(steps)]
    elif case == "transformer":
        xs = [rng.standard_normal((8, 8)).astype(np.float32) for _ in range(steps)]
    else:
        xs = [rng.standard_normal((8, 8)).astype(np.float32) for _ in range(steps)]
    d_out = {"transformer": 8, "mlpwide": 32}.get(case, 4)
    ys = [rng.standard_normal((8, d_out)).astype(np.float32) for _ in range(steps)]
    return xs, ys


def train(case, dp, mp, steps, level="semi", per_rank=False):
    # mlpwide: a narrow hidden layer before a wide output, where gathering the hidden activation costs less than
    # the all-reduce of a row-split second MatMul (elementwise_op_strategy_follow changes the choice)
    nets = {"mlp": MLP, "transformer": Transformer, "embed": Embed,
            "mlpwide": lambda *a: MLP(*a, d_hidden=4, d_out=32)}
    net = nets[case](dp, mp, {"cell": "rp", "batch": "semi"}.get(level, level))
    if level == "cell":   # no operator strategy: Cell.shard cuts the batch and the first weight, the rest propagates
        first = {"mlp": "w1", "transformer": "wq", "embed": "table"}[case]
        net.shard(in_strategy=((dp, 1),), parameter_plan={f"self.{first}": (mp, 1) if case == "embed" else (1, mp)})
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    losses = []
    for x, y in zip(*data(case, steps)):
        if per_rank:   # full_batch=False: each rank feeds its own rows of the global batch
            rows = slice(get_rank() * len(x) // get_group_size(), (get_rank() + 1) * len(x) // get_group_size())
            x, y = x[rows], y[rows]
        losses.append(float(step(Tensor(x), Tensor(y)).asnumpy()))
    from mindspore.parallel._redistribute import whole_value
    from mindspore.parallel._auto import searched_strategies
    local = {p.name: list(p.shape) for p in net.trainable_params()}
    local["searched"] = {k: [list(s) for s in v] for k, v in searched_strategies(net).items()}
    from mindspore.parallel._layouts import parameter_layouts
    local["layouts"] = {k: [list(x) for x in v] for k, v in parameter_layouts(net).items()}
    weights = {p.name: whole_value(p) for p in net.trainable_params()}
    if case != "embed":   # the gradient with respect to the input (this rank's rows of it when per_rank)
        loss_cell = nn.WithLossCell(net, nn.MSELoss())
        weights["input_grad"] = ms.grad(loss_cell)(Tensor(x), Tensor(y)).asnumpy()
    return losses, weights, local


def _rows(value, name, level):
    """This rank's rows of the reference's input gradient when each rank fed its own rows."""
    if name != "input_grad" or level != "batch":
        return value
    n = len(value) // get_group_size()
    return value[get_rank() * n:(get_rank() + 1) * n]


_MODES = {"semi": ("semi_auto_parallel", "recursive_programming"),
          "opt": ("semi_auto_parallel", "recursive_programming"),
          "cell": ("semi_auto_parallel", "recursive_programming"),
          "layout": ("semi_auto_parallel", "recursive_programming"),
          "batch": ("semi_auto_parallel", "recursive_programming"), "sp": ("auto_parallel", "sharding_propagation"),
          "rp": ("auto_parallel", "recursive_programming"), "rpf": ("auto_parallel", "recursive_programming")}


def run(case, dp, mp, steps, level):
    context.set_auto_parallel_context(parallel_mode="stand_alone")
    ref_losses, ref_weights, _ = train(case, dp, mp, steps, level)
    parallel_mode, search_mode = _MODES[level]
    context.set_auto_parallel_context(parallel_mode=parallel_mode, search_mode=search_mode,
                                      full_batch=level != "batch", enable_parallel_optimizer=level == "opt")
    from mindspore.parallel import reset_algo_parameters, set_algo_parameters
    set_algo_parameters(elementwise_op_strategy_follow=level == "rpf")
    try:
        losses, weights, local = train(case, dp, mp, steps, level, per_rank=level == "batch")
    finally:
        reset_algo_parameters()
    searched, layouts = local.pop("searched"), local.pop("layouts")
    context.set_auto_parallel_context(parallel_mode="stand_alone", enable_parallel_optimizer=False)
    return {
        "case": f"{case}:{dp}:{mp}:{level}", "searched": searched, "layouts": layouts, "rank": get_rank(),
        "size": get_group_size(),
        "losses": losses,
        "ref_losses": ref_losses,
        "loss_diff": float(np.max(np.abs(np.array(losses) - np.array(ref_losses)))),
        "weight_diff": max(float(np.max(np.abs(weights[k] - _rows(ref_weights[k], k, level)))) for k in ref_weights),
        "local_shapes": local,
        "full_shapes": {k: list(v.shape) for k, v in ref_weights.items() if k != "input_grad"},
    }


def check_redistribute():
    """Every rank's block after ``redistribute`` between layouts of a (4, 8) tensor equals NumPy's slice of the
    whole tensor (cut moves by AlltoAll, gathers by AllGather, slices); its gradient follows the sum convention:
    summed over the ranks holding each element, it is the summed weights of the ranks whose new block holds it."""
    from mindspore.communication.management import group_communicator
    from mindspore.parallel._layouts import TensorLayout
    from mindspore.parallel._redistribute import redistribute
    rank, n = get_rank(), get_group_size()
    full = np.arange(32, dtype=np.float32).reshape(4, 8)
    dev = (2, n // 2) if n == 4 else (n,)
    last = len(dev) - 1
    cases = [((last, -1), (-1, last)), ((-1, last), (last, -1)), ((last, -1), (-1, -1)), ((-1, -1), (-1, last))]
    if n == 4:
        cases += [((1, 0), (0, 1)), ((1, -1), (-1, 0)), ((1, 0), (-1, -1))]
        # a dimension cut by both axes (a Layout's ("x", "y")), major axis first
        cases += [(((1, 0), -1), (-1, -1)), (((1, 0), -1), ((0, 1), -1)), ((-1, -1), (-1, (1, 0))),
                  (((1, 0), -1), (-1, (0, 1))), ((1, 0), ((1, 0), -1))]
    bad = []
    for src_map, dst_map in cases:
        src, dst = TensorLayout(dev, src_map, (4, 8)), TensorLayout(dev, dst_map, (4, 8))
        box = src.box(rank)
        block = full[tuple(slice(a, b) for a, b in box)]
        out = redistribute(Tensor(block), src, dst, rank, n).asnumpy()
        want = full[tuple(slice(a, b) for a, b in dst.box(rank))]
        if out.shape != want.shape or not np.array_equal(out, want):
            bad.append([src_map, dst_map, "forward"])
            continue
        weight = Tensor(np.full(want.shape, rank + 1, np.float32))
        grad = ms.grad(lambda t, w=weight, a=src, b=dst: (redistribute(t, a, b, rank, n) * w).sum())(Tensor(block))
        summed, total = np.zeros_like(full), np.zeros_like(full)
        # the world's communicator (under msrun over several nodes MPI.COMM_WORLD is only this node's ranks)
        world = group_communicator().comm
        for r, (r_box, r_grad) in enumerate(world.allgather((box, grad.asnumpy()))):
            summed[tuple(slice(a, b) for a, b in r_box)] += r_grad
            total[tuple(slice(a, b) for a, b in dst.box(r))] += r + 1
        if not np.allclose(summed, total):
            bad.append([src_map, dst_map, "gradient"])
    if n == 4:
        bad += check_nd_tp_matmul()
    return bad


def check_nd_tp_matmul():
    """2D tensor parallel (high_dimension_tensor_parallel.py's strategies on a (2, 2) device matrix): the k of x cut
    by ("x", "y"), of w by "x"; the product and the gradients equal NumPy's."""
    from mindspore.parallel import Layout
    from mindspore.parallel._layouts import layout_of
    from mindspore.parallel._redistribute import to_whole
    rank, n = get_rank(), get_group_size()
    bad = []
    rng = np.random.default_rng(0)
    xv, wv = rng.standard_normal((4, 8)).astype(np.float32), rng.standard_normal((8, 4)).astype(np.float32)
    lay = Layout((2, 2), ("x", "y"))
    matmul = ops.MatMul()
    matmul.add_prim_attr("enable_nd_tp", True)
    matmul.shard(in_strategy=(lay("None", ("x", "y")), lay("x", "y")))
    relu = ops.ReLU().shard(in_strategy=(lay("None", ("y", "x")),))
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)
    try:
        out = matmul(Tensor(xv), Tensor(wv))
        act = relu(out)
        gx, gw = ms.grad(lambda a, b: (matmul(a, b) * 1.0).sum(), (0, 1))(Tensor(xv), Tensor(wv))
    finally:
        context.reset_auto_parallel_context()
    layout, act_layout = layout_of(out), layout_of(act)
    whole = to_whole(out, rank, n).asnumpy()
    # a Layout strategy runs as written: ("y", "x") holds the 4 column blocks y-major (rank 2x + y: block 2y + x)
    if (act_layout is None or act_layout.tensor_map != (-1, (0, 1))
            or not np.allclose(to_whole(act, rank, n).asnumpy(), np.maximum(xv @ wv, 0), atol=1e-5)):
        bad.append(["relu layout", None if act_layout is None else str(act_layout.tensor_map)])
    if layout is None or layout.tensor_map != (1, 0) or not np.allclose(whole, xv @ wv, atol=1e-5):
        bad.append(["nd_tp", "forward", None if layout is None else list(layout.tensor_map)])
    # the sum convention: every rank seeds the (whole) loss with one, so the ranks' gradients of the whole inputs
    # sum to n times the true ones (a network's mirrors divide by n)
    from mindspore.communication.management import group_communicator
    grads = group_communicator().comm.allgather((gx.asnumpy(), gw.asnumpy()))
    ones = np.ones((4, 4), np.float32)
    if not (np.allclose(sum(g[0] for g in grads) / n, ones @ wv.T, atol=1e-5)
            and np.allclose(sum(g[1] for g in grads) / n, xv.T @ ones, atol=1e-5)):
        bad.append(["nd_tp", "gradient"])
    return bad


def main():
    mode, steps, out_dir, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    init()
    results = []
    for config in configs:
        if config == "redistribute":
            results.append({"case": config, "bad": check_redistribute()})
            continue
        case, dp, mp, *level = config.split(":")
        results.append(run(case, int(dp), int(mp), steps, level[0] if level else "semi"))
    with open(f"{out_dir}/rank{get_rank()}.json", "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
