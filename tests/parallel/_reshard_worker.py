"""Worker of tests/parallel/test_reshard.py: ``ops.reshard`` under SEMI_AUTO_PARALLEL on the ranks of an ``mpiexec``
job. ``mpiexec -n 2 python _reshard_worker.py OUT`` writes ``OUT/rank<r>.npz``: the block this rank holds after
resharding a whole tensor to ``("dp", "None")`` and then to ``("None", "dp")`` (``rows``, ``cols``: the layouts
read back as tensor maps), and a network's output with a reshard between two operators against the same network
in stand-alone mode (``net``, ``ref``)."""
import sys

import numpy as np

from mindspore import Tensor, context, nn, ops
from mindspore.communication import get_group_size, get_rank, init
from mindspore.parallel import Layout
from mindspore.parallel._layouts import layout_of

X = np.arange(32, dtype=np.float32).reshape(4, 8) / 7


class Net(nn.Cell):
    def __init__(self, layout):
        super().__init__()
        self.layout = layout
        self.relu = ops.ReLU()
        self.mm = ops.MatMul()
        self.w = Tensor(np.linspace(-1, 1, 24, dtype=np.float32).reshape(8, 3))

    def construct(self, x):
        y = ops.reshard(self.relu(x - 1), self.layout("dp", "None"))
        return self.mm(y, self.w) * 2


def main(out):
    init()
    rank, n = get_rank(), get_group_size()
    lay = Layout((n, 1), ("dp", "mp"))
    saved = {"ref": Net(lay)(Tensor(X)).asnumpy()}
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)
    rows = ops.reshard(Tensor(X), lay("dp", "None"))
    cols = ops.reshard(rows, lay("None", "dp"))
    saved.update(rows=rows.asnumpy(), cols=cols.asnumpy(),
                 rows_map=np.array(layout_of(rows).tensor_map), cols_map=np.array(layout_of(cols).tensor_map))
    saved["net"] = Net(lay)(Tensor(X)).asnumpy()
    context.reset_auto_parallel_context()
    np.savez(f"{out}/rank{rank}.npz", **saved)


if __name__ == "__main__":
    main(sys.argv[1])
