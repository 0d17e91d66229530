"""Worker of tests/parallel/test_adasum.py: AdaSum on the ranks of an ``mpiexec`` job, results saved per rank.

``mpiexec -n 2 python _adasum_worker.py OUT`` writes ``OUT/rank<r>.npz``: the gradients this rank made
(``g<i>``), ``_AdaSum.combine`` of them (``c<i>``), and the parameters after one step of ``AdaSumByGradWrapCell``
(``grad<i>``) and of ``AdaSumByDeltaWeightWrapCell`` (``delta<i>``), both over SGD(lr=0.1), in PYNATIVE and (prefix
``graph_``) GRAPH_MODE. MindSpore's wrappers need 16 ranks in servers of 8; here the servers are one rank each (the
module's server size and device check are replaced for this job only), so the 2 ranks are the 2 servers.
"""
import sys

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn
from mindspore.communication import get_rank, init
from mindspore.nn.optim import adasum

SHAPES = [(4, 3), (5,), (1, 6), (1,), (), (2, 1, 3)]


def _grads(rank):
    rng = np.random.default_rng(100 + rank)
    return [rng.standard_normal(s).astype(np.float32) for s in SHAPES]


def _params():
    rng = np.random.default_rng(7)
    return [Parameter(Tensor(rng.standard_normal(s).astype(np.float32)), name=f"p{i}") for i, s in enumerate(SHAPES)]


def main(out):
    init()
    ms.set_auto_parallel_context(parallel_mode="data_parallel")
    rank = get_rank()
    grads = _grads(rank)
    saved = {f"g{i}": g for i, g in enumerate(grads)}
    core = adasum._AdaSum(rank, 1, 2, _params())
    for i, c in enumerate(core.combine(tuple(Tensor(g) for g in grads))):
        saved[f"c{i}"] = c.asnumpy()
    adasum._SERVER_SIZE = 1
    adasum._parallel_check = lambda name: None
    for mode, prefix in ((ms.PYNATIVE_MODE, ""), (ms.GRAPH_MODE, "graph_")):
        ms.set_context(mode=mode)
        for key, wrap in (("grad", nn.AdaSumByGradWrapCell), ("delta", nn.AdaSumByDeltaWeightWrapCell)):
            params = _params()
            cell = wrap(nn.SGD(params, learning_rate=0.1))
            cell(tuple(Tensor(g) for g in grads))
            for i, p in enumerate(params):
                saved[f"{prefix}{key}{i}"] = p.asnumpy()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.savez(f"{out}/rank{rank}.npz", **saved)


if __name__ == "__main__":
    main(sys.argv[1])
