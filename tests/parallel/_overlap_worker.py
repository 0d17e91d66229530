"""Worker of test_grad_overlap.py (its last argument times that many further steps): a data-parallel MLP trained in
GRAPH_MODE with several gradient buckets.

argv: out_dir, width, steps, timed_steps. Writes ``rank<r>.json``: the losses, the trained weights' bytes (hex
SHA-256), the compiled train graph's applies in program order (primitive names) and the timed steps per second.
"""
import hashlib
import json
import os
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn
from mindspore.communication import get_rank, init
from mindspore.parallel import _overlap
from mindspore.plugin import prim_of

_orders = []
_rewrite = _overlap._overlap_graph


def _recording(g):
    changed = _rewrite(g)
    if changed:
        _orders.append([getattr(prim_of(n), "name", "-") for n in g.nodes])
    return changed


def main():
    out_dir, width, steps, timed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    _overlap._overlap_graph = _recording
    ms.set_context(mode=ms.GRAPH_MODE)
    init()
    context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True,
                                      comm_fusion={"allreduce": {"mode": "size", "config": 4 * width * width / 2**20}})
    ms.set_seed(1)
    layers = [nn.Dense(width, width, activation="relu") for _ in range(5)] + [nn.Dense(width, 10)]
    net = nn.SequentialCell(layers)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.RandomState(get_rank())
    x = Tensor(rng.standard_normal((32, width)).astype(np.float32))
    y = Tensor(rng.standard_normal((32, 10)).astype(np.float32))
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    start = time.perf_counter()
    for _ in range(timed):
        step(x, y)
    rate = timed / (time.perf_counter() - start) if timed else 0.0
    digest = hashlib.sha256(b"".join(p.asnumpy().tobytes() for p in net.trainable_params())).hexdigest()
    with open(os.path.join(out_dir, f"rank{get_rank()}.json"), "w", encoding="utf-8") as f:
        json.dump({"losses": losses, "weights": digest, "orders": _orders, "steps_per_s": rate,
                   "buckets": len(step.grad_reducer.bucket_plan)}, f)


if __name__ == "__main__":
    main()
