"""Worker of test_grad_overlap_pynative.py: a data-parallel MLP trained in PYNATIVE with several gradient buckets,
by ``TrainOneStepCell`` and by ``TrainOneStepWithLossScaleCell``.

argv: out_dir, width, steps, timed_steps[, global_batch (default 32)]. Rank r of n trains on its contiguous share
of the global batch (one process without ``mpiexec``: the whole batch). Writes ``rank<r>.json``: per wrapper
(``plain``, ``lossscale``) the losses, the trained weights' bytes (hex SHA-256) and values (width <= 256), the
events of the last step in order (``start``: a bucket's all-reduce started, with whether the tape's backward pass was
running; ``allreduce``: a blocking one; ``matmul_bprop``: a MatMul's gradient computed), the number of buckets, the
timed steps per second and the milliseconds per timed step spent waiting in all-reduces (blocking ones, or the
waits of started ones) and starting them.

Measure (2 ranks, the MLP of test_grad_overlap.py's GRAPH_MODE measurement):
``mpiexec -n 2 python _overlap_pynative_worker.py OUT 1024 2 20 64`` with and without ``MS_DISABLE_GRAD_OVERLAP=1``.
"""
import hashlib
import json
import os
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn
from mindspore._autodiff import tape as _tape
from mindspore.communication import GlobalComm, get_group_size, get_rank, init
from mindspore.ops._defs.math_ext import MatMul
from mindspore.plugin import process_group

events = []
_in_backward = [False]
_waited = [0.0]   # seconds spent in blocking all-reduces and in the waits of started ones
_starting = [0.0]   # seconds spent starting all-reduces (the call check's allgather, posting, MPI progress)


def _instrument():
    backward = _tape.backward

    def traced_backward(*args, **kwargs):
        _in_backward[0] = True
        try:
            return backward(*args, **kwargs)
        finally:
            _in_backward[0] = False
    _tape.backward = traced_backward
    bprop = MatMul.bprop

    def traced_bprop(*args, **kwargs):
        events.append(["matmul_bprop", _in_backward[0]])
        return bprop(*args, **kwargs)
    MatMul.bprop = traced_bprop
    comm = process_group(GlobalComm.WORLD_COMM_GROUP).communicator
    if comm is None:
        return
    allreduce, start = comm.allreduce, comm.allreduce_start

    def traced_allreduce(*args, **kwargs):
        events.append(["allreduce", _in_backward[0]])
        begin = time.perf_counter()
        try:
            return allreduce(*args, **kwargs)
        finally:
            _waited[0] += time.perf_counter() - begin

    def traced_start(*args, **kwargs):
        events.append(["start", _in_backward[0]])
        begin = time.perf_counter()
        recv, wait = start(*args, **kwargs)
        _starting[0] += time.perf_counter() - begin

        def timed_wait():
            begin = time.perf_counter()
            try:
                return wait()
            finally:
                _waited[0] += time.perf_counter() - begin
        return recv, timed_wait
    comm.allreduce, comm.allreduce_start = traced_allreduce, traced_start


def _train(kind, width, steps, timed, rank, size, batch):
    ms.set_seed(1)
    layers = [nn.Dense(width, width, activation="relu") for _ in range(5)] + [nn.Dense(width, 10)]
    net = nn.SequentialCell(layers)
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    if kind == "plain":
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
    else:
        step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                                Tensor(np.float32(2.0 ** 10)))
    rng = np.random.RandomState(7)
    x = rng.standard_normal((batch, width)).astype(np.float32)
    y = rng.standard_normal((batch, 10)).astype(np.float32)
    per = batch // size
    x, y = Tensor(x[rank * per:(rank + 1) * per]), Tensor(y[rank * per:(rank + 1) * per])
    losses = []
    for _ in range(steps):
        del events[:]
        out = step(x, y)
        losses.append(float((out[0] if isinstance(out, tuple) else out).asnumpy()))
    last = list(events)
    _waited[0] = _starting[0] = 0.0
    begin = time.perf_counter()
    for _ in range(timed):
        step(x, y)
    rate = timed / (time.perf_counter() - begin) if timed else 0.0
    waited_ms = 1000 * _waited[0] / timed if timed else 0.0
    starting_ms = 1000 * _starting[0] / timed if timed else 0.0
    params = net.trainable_params()
    digest = hashlib.sha256(b"".join(p.asnumpy().tobytes() for p in params)).hexdigest()
    reducer = step.grad_reducer
    values = [p.asnumpy().ravel().tolist() for p in params] if width <= 256 else []
    return {"losses": losses, "weights": digest, "values": values, "events": last, "steps_per_s": rate,
            "waited_ms_per_step": waited_ms, "starting_ms_per_step": starting_ms,
            "buckets": len(reducer.bucket_plan) if hasattr(reducer, "bucket_plan") else 0}


def main():
    out_dir, width, steps, timed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    batch = int(sys.argv[5]) if len(sys.argv) > 5 else 32
    ms.set_context(mode=ms.PYNATIVE_MODE)
    init()
    rank, size = get_rank(), get_group_size()
    _instrument()
    if size > 1:
        context.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True, comm_fusion={
            "allreduce": {"mode": "size", "config": 4 * width * width / 2 ** 20}})
    result = {kind: _train(kind, width, steps, timed, rank, size, batch) for kind in ("plain", "lossscale")}
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
