"""The plugin contract's ``DeviceRuntime.graph_runner``: a backend may replace how a compiled graph runs from its
second call on (the GPU backend's CUDA-graph replay); by default nothing changes."""
import numpy as np

import mindspore as ms
from mindspore import nn, ops
from mindspore.plugin import DeviceRuntime, Graph
from mindspore._runtime import backend


class _Net(nn.Cell):
    def construct(self, x):
        return ops.relu(x * 2.0 - 1.0)


def test_the_default_runner_is_run_itself():
    def run(*buffers):
        return buffers
    assert DeviceRuntime().graph_runner(None, run) is run


def test_a_runtime_runner_wraps_calls_from_the_second_on(monkeypatch):
    runtime = backend.current().runtime
    made, calls = [], []

    def graph_runner(graph, run):
        made.append(graph)

        def runner(*buffers):
            calls.append(len(buffers))
            return run(*buffers)
        return runner
    monkeypatch.setattr(runtime, "graph_runner", graph_runner, raising=False)
    prev = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        net = _Net()
        x = ms.Tensor(np.array([-1.0, 0.5, 2.0], np.float32))
        outs = [net(x).asnumpy() for _ in range(3)]
    finally:
        ms.set_context(mode=prev)
    for out in outs:
        np.testing.assert_allclose(out, [0.0, 0.0, 3.0])
    assert len(made) == 1 and isinstance(made[0], Graph), "made once per compiled graph, with its typed graph"
    assert calls == [1, 1], "the first (checked) call runs without it, the later ones through it"
