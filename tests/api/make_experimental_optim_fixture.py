"""Records real MindSpore 2.10's ``mindspore.experimental.optim`` into
``tests/fixtures/api/experimental_optim_msref.npz``: for each optimizer configuration of :data:`OPTIMIZERS`, the
parameters after each of :data:`STEPS` updates with the gradients of :func:`gradients` (two parameter groups,
the second with its own learning rate); and for each schedule of :data:`SCHEDULERS`, ``get_last_lr()`` after
each of its steps. ``test_experimental_optim.py`` replays them on ours.

Run with a Python that has real MindSpore (CPU)::

    /tmp/w/msref/bin/python tests/api/make_experimental_optim_fixture.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_FILE = os.path.join(HERE, "..", "fixtures", "api", "experimental_optim_msref.npz")
STEPS = 4

#: (id, class name, keyword arguments, whether the second group has its own lr)
OPTIMIZERS = [
    ("adam", "Adam", {"lr": 0.01}, True),
    ("adam_wd_max", "Adam", {"lr": 0.02, "betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.1, "maximize": True},
     False),
    ("adamw", "AdamW", {"lr": 0.01}, True),
    ("adamw_amsgrad", "AdamW", {"lr": 0.01, "weight_decay": 0.05, "amsgrad": True}, False),
    ("sgd", "SGD", {"lr": 0.1}, True),
    ("sgd_momentum", "SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01}, False),
    ("sgd_nesterov", "SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "maximize": True}, False),
    ("adadelta", "Adadelta", {"lr": 1.0}, True),
    ("adadelta_wd", "Adadelta", {"lr": 0.5, "rho": 0.8, "eps": 1e-5, "weight_decay": 0.1}, False),
    ("adagrad", "Adagrad", {"lr": 0.1}, True),
    ("adagrad_decay", "Adagrad", {"lr": 0.1, "lr_decay": 0.1, "weight_decay": 0.05, "initial_accumulator_value": 0.1},
     False),
    ("adamax", "Adamax", {"lr": 0.02}, True),
    ("adamax_wd", "Adamax", {"lr": 0.02, "betas": (0.8, 0.9), "weight_decay": 0.1, "maximize": True}, False),
    ("asgd", "ASGD", {"lr": 0.1}, True),
    ("asgd_t0", "ASGD", {"lr": 0.1, "lambd": 0.01, "alpha": 0.5, "t0": 2.0, "weight_decay": 0.1}, False),
    ("nadam", "NAdam", {"lr": 0.01}, True),
    ("nadam_wd", "NAdam", {"lr": 0.01, "weight_decay": 0.1, "momentum_decay": 0.01}, False),
    ("radam", "RAdam", {"lr": 0.01}, True),
    ("radam_fast", "RAdam", {"lr": 0.01, "betas": (0.9, 0.5), "weight_decay": 0.1}, False),
    ("rmsprop", "RMSprop", {"lr": 0.01}, True),
    ("rmsprop_centered", "RMSprop", {"lr": 0.01, "momentum": 0.5, "centered": True, "weight_decay": 0.1}, False),
    ("rprop", "Rprop", {"lr": 0.01}, True),
    ("rprop_max", "Rprop", {"lr": 0.05, "etas": (0.3, 1.5), "step_sizes": (0.01, 0.1), "maximize": True}, False),
]

#: (id, class name, keyword arguments (``OPT`` stands for the optimizer), steps)
SCHEDULERS = [
    ("step", "StepLR", {"step_size": 2, "gamma": 0.5}, 7),
    ("linear", "LinearLR", {"start_factor": 0.25, "total_iters": 4}, 7),
    ("exponential", "ExponentialLR", {"gamma": 0.9}, 5),
    ("polynomial", "PolynomialLR", {"total_iters": 4, "power": 2.0}, 6),
    ("multiplicative", "MultiplicativeLR", {"lr_lambda": "lambda e: 0.9"}, 5),
    ("lambda", "LambdaLR", {"lr_lambda": "lambda e: 1.0 / (e + 1)"}, 5),
    ("multistep", "MultiStepLR", {"milestones": [2, 4, 4], "gamma": 0.5}, 6),
    ("constant", "ConstantLR", {"factor": 0.5, "total_iters": 3}, 6),
    ("cosine", "CosineAnnealingLR", {"T_max": 3, "eta_min": 0.001}, 8),
    ("warm_restarts", "CosineAnnealingWarmRestarts", {"T_0": 3, "T_mult": 2, "eta_min": 0.001}, 10),
    ("cyclic", "CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2}, 7),
    ("cyclic_tri2", "CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2, "mode": "triangular2"}, 9),
    ("cyclic_exp", "CyclicLR", {"base_lr": 0.01, "max_lr": 0.1, "step_size_up": 2, "step_size_down": 3,
                                "mode": "exp_range", "gamma": 0.9}, 9),
]


def initial_params():
    rng = np.random.default_rng(10)
    return [rng.standard_normal((3, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32),
            rng.standard_normal((2, 2)).astype(np.float32)]


def gradients(step):
    """The gradients of step ``step`` (0-based): some entries change sign between steps (Rprop's cases)."""
    rng = np.random.default_rng(100 + step)
    return [rng.standard_normal(p.shape).astype(np.float32) for p in initial_params()]


def groups(ms, second_lr):
    """Two parameter groups: the first two parameters, then the third (with its own lr if asked)."""
    init = initial_params()
    params = [ms.Parameter(ms.Tensor(a), name=f"p{i}") for i, a in enumerate(init)]
    second = {"params": [params[2]]}
    if second_lr:
        second["lr"] = 0.05
    return params, [{"params": params[:2]}, second]


def run_optimizer(ms, optim, cls_name, kwargs, second_lr):
    params, param_groups = groups(ms, second_lr)
    opt = getattr(optim, cls_name)(param_groups, **kwargs)
    out = []
    for step in range(STEPS):
        opt(tuple(ms.Tensor(g) for g in gradients(step)))
        out.append(np.concatenate([p.asnumpy().ravel() for p in params]))
    return np.stack(out)


def run_scheduler(ms, optim, cls_name, kwargs, steps):
    _, param_groups = groups(ms, True)
    opt = optim.SGD(param_groups, lr=0.1)
    kwargs = {k: (eval(v) if isinstance(v, str) and v.startswith("lambda") else v)  # noqa: S307 - our table
              for k, v in kwargs.items()}
    sched = getattr(optim.lr_scheduler, cls_name)(opt, **kwargs)
    out = [[float(lr.asnumpy()) for lr in sched.get_last_lr()]]
    for _ in range(steps):
        sched.step()
        out.append([float(lr.asnumpy()) for lr in sched.get_last_lr()])
    return np.array(out)


def main():
    import mindspore as ms
    from mindspore.experimental import optim
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    values = {}
    for case_id, cls_name, kwargs, second_lr in OPTIMIZERS:
        values["opt_" + case_id] = run_optimizer(ms, optim, cls_name, kwargs, second_lr)
    for case_id, cls_name, kwargs, steps in SCHEDULERS:
        values["sched_" + case_id] = run_scheduler(ms, optim, cls_name, kwargs, steps)
    np.savez(OUT_FILE, **values)
    print(f"wrote {len(values)} arrays to {OUT_FILE}")


if __name__ == "__main__":
    main()
