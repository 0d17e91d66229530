"""Records real MindSpore 2.10's ``mindspore.boost`` on the scenarios of :data:`SCENARIOS` (each in a fresh
process: ``AutoBoost`` is one per process) into ``tests/fixtures/api/boost_msref.npz``. ``test_boost.py`` runs
the same scenario functions on ours.

Run with a Python that has real MindSpore (CPU)::

    /tmp/w/msref/bin/python tests/api/make_boost_fixture.py
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_FILE = os.path.join(HERE, "..", "fixtures", "api", "boost_msref.npz")
X = np.random.default_rng(5).standard_normal((8, 4)).astype(np.float32)
Y = np.random.default_rng(6).standard_normal((8, 3)).astype(np.float32)


def _net(ms, nn, with_bias=True):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(4, 5, weight_init=ms.Tensor(np.linspace(-1, 1, 20, dtype=np.float32).reshape(5, 4)),
                                bias_init="zeros")
            self.relu = nn.ReLU()
            self.fc2 = nn.Dense(5, 3, weight_init=ms.Tensor(np.linspace(1, -1, 15, dtype=np.float32).reshape(3, 5)),
                                has_bias=with_bias, bias_init="zeros")

        def construct(self, x):
            return self.fc2(self.relu(self.fc1(x)))
    return Net()


def _params(net):
    return np.concatenate([p.asnumpy().ravel() for p in net.trainable_params()])


def scenario_freeze_sequence(ms, nn, boost):
    gf = boost.GradientFreeze(4, 0, 0.7, 20)
    seq = gf.generate_freeze_index_sequence(4, 0, 0.7, 20)
    groups = gf.split_parameters_groups(_net(ms, nn), 2)
    return {"seq": np.array(seq), "group_sizes": np.array([len(g) for g in groups])}


def scenario_head(ms, nn, boost):
    head = boost.LessBN(_net(ms, nn), fn_flag=True)
    return {"out": head(ms.Tensor(X)).asnumpy()}


def scenario_accumulation(ms, nn, boost):
    net = _net(ms, nn)
    acc = boost.GradientAccumulation(2, nn.SGD(net.trainable_params(), 0.1))
    out = []
    for step in range(5):
        grads = tuple(ms.Tensor(np.full(p.shape, step + 1.0, np.float32)) for p in net.trainable_params())
        acc(ms.Tensor(0.5), grads)
        out.append(_params(net))
    return {"params": np.stack(out)}


def _train(ms, nn, step, steps=4):
    """The losses of ``steps`` steps (the cells get ``sens=1.0``: MindSpore 2.10's BoostTrainOneStepCell returns
    None without one)."""
    losses = [float(step(ms.Tensor(X), ms.Tensor(Y)).asnumpy()) for _ in range(steps)]
    return losses


def scenario_plain_step(ms, nn, boost):
    boost.AutoBoost("O0")
    net = _net(ms, nn)
    step = boost.BoostTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(),
                                                                                        0.05, 0.9), sens=1.0)
    return {"losses": np.array(_train(ms, nn, step)), "params": _params(net)}


def scenario_o1_freeze(ms, nn, boost):
    ab = boost.AutoBoost("O1", {"boost": {"mode": "manual", "less_bn": True, "grad_freeze": True},
                                "less_bn": {"fn_flag": True, "gc_flag": False},
                                "grad_freeze": {"param_groups": 2, "freeze_type": 0, "freeze_p": 0.5,
                                                "total_steps": 10}})
    net = _net(ms, nn, with_bias=False)
    net_with_loss = nn.WithLossCell(net, nn.MSELoss())
    new_net, opt = ab.network_auto_process_train(net_with_loss, nn.SGD(net.trainable_params(), 0.1))
    step = boost.BoostTrainOneStepCell(new_net, opt, sens=1.0)
    return {"losses": np.array(_train(ms, nn, step, 5)), "strategy": np.array(opt.train_strategy[:6]),
            "opts": np.array([len(o.parameters) for o in opt.opts])}


#: (BoostTrainOneStepWithLossScaleCell is not recorded: on the CPU MindSpore 2.10's fails, its overflow check
#: launches the Ascend-only NPUGetFloatStatusV2; test_boost.py checks ours against nn.TrainOneStepWithLossScaleCell;
#: nor is its grad_accumulation configuration: in PYNATIVE MindSpore 2.10 raises "Parameter 'accumulation_step'
#: already exists in network" at the first update, test_boost.py checks ours against GradientAccumulation)
SCENARIOS = ["freeze_sequence", "head", "accumulation", "plain_step", "o1_freeze"]


def run(name, ms, nn, boost):
    return globals()["scenario_" + name](ms, nn, boost)


def main():
    if len(sys.argv) == 3:   # one scenario, in this fresh process
        import mindspore as ms
        from mindspore import boost, nn
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
        np.savez(sys.argv[2], **run(sys.argv[1], ms, nn, boost))
        return
    import tempfile
    values = {}
    for name in SCENARIOS:
        path = os.path.join(tempfile.mkdtemp(), "out.npz")
        subprocess.run([sys.executable, __file__, name, path], check=True)
        for key, value in np.load(path).items():
            values[f"{name}__{key}"] = value
    np.savez(OUT_FILE, **values)
    print(f"wrote {len(values)} arrays to {OUT_FILE}")


if __name__ == "__main__":
    main()
