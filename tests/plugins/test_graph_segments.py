"""``DeviceRuntime.graph_segments``: a GRAPH_MODE graph whose control flow is decided on the host reaches the runtime's
``graph_runner`` in straight-line pieces (the GPU backend captures each as a CUDA graph), with the same results."""
import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops, Parameter
from mindspore.plugin import Graph, MAKE_TUPLE
from mindspore._runtime import backend
from mindspore._runtime.segments import SEGMENT_FLAG


class _Branchy(nn.Cell):
    """An in-place update of a Parameter under a condition read from the device, as a loss-scaled step's optimizer."""

    def __init__(self):
        super().__init__()
        self.w = Parameter(ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")
        self.assign = ops.Assign()

    def construct(self, x):
        y = ops.relu(x * self.w - 1.0)
        if y.sum() > 1.0:
            self.assign(self.w, self.w * 0.5 + 0.25)
        return y * 2.0 + 1.0


class _Loop(nn.Cell):
    def construct(self, x):
        s = x.sum()
        while s < 100.0:
            x = x * 2.0 + 1.0
            s = x.sum()
        return x - 1.0


class _Straight(nn.Cell):
    def construct(self, x):
        return ops.relu(x * 2.0 - 1.0) + 3.0


@pytest.fixture
def recorded(monkeypatch):
    """The current runtime with ``graph_segments`` set and a ``graph_runner`` that records what it is given and
    counts the calls of what it returns."""
    runtime = backend.current().runtime
    made = []

    def graph_runner(graph, run):
        entry = {"graph": graph, "calls": 0}
        made.append(entry)

        def runner(*buffers):
            entry["calls"] += 1
            return run(*buffers)
        return runner
    monkeypatch.setattr(runtime, "graph_runner", graph_runner, raising=False)
    monkeypatch.setattr(runtime, "graph_segments", True, raising=False)
    prev = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield made
    ms.set_context(mode=prev)


def _branchy_run(xs):
    net = _Branchy()
    outs = [net(ms.Tensor(x)).asnumpy() for x in xs]
    return outs, net.w.asnumpy()


XS = [np.array([1.0, 1.0, 1.0], np.float32), np.array([0.1, 0.1, 0.1], np.float32),
      np.array([2.0, 0.0, 1.0], np.float32), np.array([0.0, 0.0, 0.2], np.float32)]


def _expected_branchy():
    w = np.array([1.0, 2.0, 3.0], np.float32)
    outs = []
    for x in XS:
        y = np.maximum(x * w - 1.0, 0.0)
        if y.sum() > 1.0:
            w = w * 0.5 + 0.25
        outs.append(y * 2.0 + 1.0)
    return outs, w


def test_the_stretches_around_an_if_are_given_to_the_runner(recorded):
    outs, w = _branchy_run(XS)
    want_outs, want_w = _expected_branchy()
    for got, want in zip(outs, want_outs):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(w, want_w, rtol=1e-6)
    assert len(recorded) >= 2, "the stretch before the If and the taken branch's update are segments"
    graphs = [entry["graph"] for entry in recorded]
    assert all(isinstance(g, Graph) and SEGMENT_FLAG in g.flags for g in graphs), "no whole graph with an If"
    for g in graphs:
        assert g.output.fn_value() is MAKE_TUPLE, "a segment returns a tuple"
        assert all(p.abstract is not None and hasattr(p.abstract, "dtype") for p in g.params), "tensor inputs"
    update = [g for g in graphs if any(p.weight is not None for p in g.params)
              and any(n.fn_value() is not None and type(n.fn_value()).__name__ == "Assign" for n in g.nodes)]
    assert update, "the branch's Assign writes into an input marked as the network Parameter"
    assert sum(entry["calls"] for entry in recorded) >= 4, "calls from the second on go through the segments"


def test_segments_off_gives_the_whole_graph_to_nobody(recorded, monkeypatch):
    monkeypatch.setattr(backend.current().runtime, "graph_segments", False)
    outs, w = _branchy_run(XS)
    want_outs, want_w = _expected_branchy()
    np.testing.assert_allclose(w, want_w, rtol=1e-6)
    for got, want in zip(outs, want_outs):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    assert [SEGMENT_FLAG in e["graph"].flags for e in recorded] == [False], "the whole graph, once"


def test_a_loop_body_is_a_segment_run_each_iteration(recorded):
    net = _Loop()
    x = np.array([0.5, 1.0], np.float32)
    outs = [net(ms.Tensor(x)).asnumpy() for _ in range(3)]
    want = x.copy()
    while want.sum() < 100.0:
        want = want * 2.0 + 1.0
    for out in outs:
        np.testing.assert_allclose(out, want - 1.0, rtol=1e-6)
    body = max(recorded, key=lambda e: e["calls"])
    assert body["calls"] == 10, "5 iterations in each of the 2 calls after the checked one go through its segment"
    assert all(p.weight is None for p in body["graph"].params), "loop state is not a Parameter"


def test_a_graph_without_host_decisions_is_given_whole(recorded):
    net = _Straight()
    x = ms.Tensor(np.array([-1.0, 0.5, 2.0], np.float32))
    for _ in range(3):
        np.testing.assert_allclose(net(x).asnumpy(), [3.0, 3.0, 6.0])
    assert len(recorded) == 1 and SEGMENT_FLAG not in recorded[0]["graph"].flags
    assert recorded[0]["calls"] == 2
