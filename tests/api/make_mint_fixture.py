"""Records what real MindSpore 2.10 gives for ``mindspore.mint`` calls: ``tests/fixtures/api/mint_reference.npz``.

Run with real MindSpore (CPU):  ``/path/to/msref/bin/python tests/api/make_mint_fixture.py`` (values, about 4
minutes: each failure restarts the worker process, since MindSpore's CPU runtime can report one error again on
later calls), and ``... make_mint_fixture.py --signatures`` (``mint_signatures.json``: the parameters of every
public name).

``cases()`` is shared with ``tests/api/test_mint_values.py`` and ``test_mint_graph.py``: each case is
``name -> fn(ms, mint, data)`` returning a Tensor, a number or a (nested) tuple/list of them; ``data`` holds
deterministic inputs (``make_data``). A case real MindSpore cannot run on CPU (most mint kernels are Ascend-only
in 2.10) is listed under ``__failed__`` with its error, and ``test_mint_oracles.py`` gives its NumPy oracle.
"""
import pathlib
import sys

import numpy as np

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "api" / "mint_reference.npz"
SIGNATURES = FIXTURE.with_name("mint_signatures.json")
MODULES = ("mint", "mint.nn", "mint.nn.functional", "mint.optim", "mint.linalg", "mint.special", "mint.distributed")
# public in MindSpore 2.10 (its dir(), used by model code) though not in the modules' __all__
EXTRA_NAMES = {
    "mint": ["addcmul", "clip", "equal", "fix", "ge", "item", "linspace", "ones", "trunc", "unique"],
    "mint.nn": ["CrossEntropyLoss", "Dropout", "Dropout2d", "Embedding", "GLU", "LayerNorm", "MaxPool2d", "NLLLoss",
                "Softshrink"],
    "mint.nn.functional": ["hardshrink", "hardsigmoid", "hardswish", "l1_loss", "mish", "selu", "smooth_l1_loss",
                           "softplus", "softshrink"],
}


def signature_of(obj):
    """[(name, kind, repr(default) or None), ...] of a function or a class's ``__init__`` (without ``self``);
    None where the signature is ``(*args, **kwargs)`` (an overloaded function) or not readable."""
    import inspect
    try:
        sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
    except (TypeError, ValueError):
        return None
    params = [p for p in sig.parameters.values() if p.name != "self"]
    kinds = [p.kind for p in params]
    if kinds == [inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD] and inspect.isfunction(obj):
        return None
    if inspect.isclass(obj) and [p.name for p in params] in (["auto_prefix", "flags"], ["args", "kwargs"]):
        return None  # a Cell without its own __init__ arguments
    return [(p.name, p.kind.name, None if p.default is p.empty else repr(p.default)) for p in params]


def write_signatures():
    """Records the signature of every public name of the mint modules (``--signatures``)."""
    import importlib
    import json
    out = {}
    for mod in MODULES:
        module = importlib.import_module("mindspore." + mod)
        names = (FIXTURE.parent / f"mint_names_{mod}.txt").read_text().split() + EXTRA_NAMES.get(mod, [])
        out[mod] = {n: signature_of(getattr(module, n)) for n in names}
    lines = ["{"]
    for i, mod in enumerate(MODULES):
        lines.append(f" {json.dumps(mod)}: {{")
        entries = [f"  {json.dumps(n)}: {json.dumps(sig)}" for n, sig in sorted(out[mod].items())]
        lines.append(",\n".join(entries))
        lines.append(" }" + ("," if i < len(MODULES) - 1 else ""))
    lines.append("}")
    SIGNATURES.write_text("\n".join(lines) + "\n")


def make_data():
    def u(seed, shape, lo=0.1, hi=0.9):
        return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)
    d = {
        "x": u(0, (3, 4)), "y": u(1, (3, 4)), "z": u(2, (3, 4)), "v": u(5, (4,)), "v3": u(6, (3,)),
        "sq": u(3, (4, 4)) + 2 * np.eye(4, dtype=np.float32), "w": u(4, (4, 5)),
        "n": np.random.default_rng(7).normal(0, 1, (3, 4)).astype(np.float32),
        "b1": u(8, (2, 3, 4)), "b2": u(9, (2, 4, 5)), "bin": u(10, (3, 5)),
        "img": np.random.default_rng(11).normal(0, 1, (2, 3, 6, 6)).astype(np.float32),
        "k": u(12, (4, 3, 3, 3), -0.5, 0.5), "bias4": u(13, (4,)), "seq": u(14, (2, 3, 8)),
        "k1": u(15, (4, 3, 3), -0.5, 0.5), "vol": u(16, (1, 2, 4, 4, 4)), "k3": u(17, (3, 2, 2, 2, 2), -0.5, 0.5),
        "xi": np.random.default_rng(18).integers(0, 3, (3, 4)).astype(np.int64),
        "xi32": np.random.default_rng(25).integers(0, 5, (3, 4)).astype(np.int32),
        "idx": np.array([[0, 2, 1, 0], [2, 2, 0, 1], [1, 0, 0, 2]], np.int64),
        "runs": np.array([1, 1, 2, 2, 2, 3, 1, 1], np.int64),
        "sorted": np.array([1.0, 3.0, 5.0, 7.0, 9.0], np.float32), "vals": np.array([[3.0, 6.0, 9.0, 0.0]], np.float32),
        "tri": np.triu(u(19, (4, 4))) + np.eye(4, dtype=np.float32), "rhs": u(20, (4, 2)),
        "labels": np.array([1, 0, 3], np.int64), "prob": u(21, (3, 4)), "target01": np.array(
            [[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0]], np.float32),
        "pm1": np.array([1, -1, 1], np.float32), "grid": u(22, (2, 4, 5, 2), -1.0, 1.0),
        "emb_idx": np.array([[0, 2], [3, 1]], np.int64), "table": u(23, (5, 3)),
        "cols": u(24, (2, 3 * 4, 9)), "ints": np.array([0, 1, 1, 3, 5, 3], np.int64),
    }
    return d


def _t(ms, data, key, dtype=None):
    a = data[key]
    return ms.Tensor(a if dtype is None else a.astype(dtype))


def _fill_params(ms, cell, seed=100):
    """Deterministic parameter values (sorted by name) so both frameworks run the same layer."""
    rng = np.random.default_rng(seed)
    for p in sorted(cell.get_parameters(), key=lambda q: q.name):
        if p.dtype == ms.int64:
            continue
        values = rng.uniform(-0.5, 0.5, tuple(p.shape)).astype(np.float32)
        if "var" in p.name:  # a variance must be positive
            values = np.abs(values) + 0.5
        p.set_data(ms.Tensor(values))
    return cell


def _layer(ms, cell, *inputs, seed=100, train=False):
    _fill_params(ms, cell, seed)
    cell.set_train(train)
    return cell(*inputs)


def _grad(ms, fn, *args):
    return ms.grad(fn, grad_position=tuple(range(len(args))))(*args)


def _optim_steps(ms, mint, make_opt, steps=2):
    net = _fill_params(ms, mint.nn.Linear(3, 2), 7)
    x = ms.Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
    y = ms.Tensor(np.linspace(0, 1, 8, dtype=np.float32).reshape(4, 2))
    params = net.trainable_params()
    opt = make_opt(params)

    def loss_fn(a, b):
        return mint.nn.functional.mse_loss(net(a), b)
    grad_fn = ms.value_and_grad(loss_fn, None, params)
    for _ in range(steps):
        _, grads = grad_fn(x, y)
        opt(grads)
    return tuple(params)


def cases():
    """name -> fn(ms, mint, d); ``d`` maps names to Tensors built from :func:`make_data`."""
    F = "functional"
    c = {}
    # reductions
    c["sum_dim"] = lambda ms, m, d: m.sum(d["x"], 1)
    c["sum_keep_dtype"] = lambda ms, m, d: m.sum(d["x"], (0, 1), True, dtype=ms.float64)
    c["mean_dim"] = lambda ms, m, d: m.mean(d["x"], dim=0, keepdim=True)
    c["prod"] = lambda ms, m, d: m.prod(d["x"], 1)
    c["amax"] = lambda ms, m, d: m.amax(d["x"], 1)
    c["max_all"] = lambda ms, m, d: m.max(d["x"])
    c["max_dim"] = lambda ms, m, d: m.max(d["x"], 1, keepdim=True)
    c["min_dim"] = lambda ms, m, d: m.min(d["x"], 0)
    c["argmax"] = lambda ms, m, d: m.argmax(d["x"], 1)
    c["argmin_all"] = lambda ms, m, d: m.argmin(d["x"])
    c["std"] = lambda ms, m, d: m.std(d["x"], 1)
    c["var_corr0"] = lambda ms, m, d: m.var(d["x"], 0, correction=0, keepdim=True)
    c["var_mean"] = lambda ms, m, d: m.var_mean(d["x"], 1)
    c["logsumexp"] = lambda ms, m, d: m.logsumexp(d["x"], 1)
    c["median_dim"] = lambda ms, m, d: m.median(d["x"], 1)
    c["median_all"] = lambda ms, m, d: m.median(d["x"])
    c["nansum"] = lambda ms, m, d: m.nansum(d["x"], 0)
    c["all_any"] = lambda ms, m, d: (m.all(d["x"] > 0.3, 1), m.any(d["x"] > 0.8, 0))
    c["count_nonzero"] = lambda ms, m, d: m.count_nonzero(d["xi"], 1)
    c["norm_fro"] = lambda ms, m, d: m.norm(d["x"])
    c["norm_p1_dim"] = lambda ms, m, d: m.norm(d["x"], 1, 1)
    c["cumsum"] = lambda ms, m, d: m.cumsum(d["x"], 1)
    c["cumprod"] = lambda ms, m, d: m.cumprod(d["x"], 0)
    c["cummax"] = lambda ms, m, d: m.cummax(d["n"], 1)
    c["cummin"] = lambda ms, m, d: m.cummin(d["n"], 0)
    c["kthvalue"] = lambda ms, m, d: m.kthvalue(d["x"], 2, 1)
    c["histc"] = lambda ms, m, d: m.histc(d["x"], 4, 0.0, 1.0)
    c["bincount"] = lambda ms, m, d: m.bincount(d["ints"])
    # elementwise
    c["add_alpha"] = lambda ms, m, d: m.add(d["x"], d["y"], alpha=2)
    c["sub_alpha"] = lambda ms, m, d: m.sub(d["x"], d["y"], alpha=0.5)
    c["div_floor"] = lambda ms, m, d: m.div(d["n"], d["y"], rounding_mode="floor")
    c["remainder"] = lambda ms, m, d: m.remainder(d["n"], 0.3)
    c["fmod"] = lambda ms, m, d: m.fmod(d["n"], 0.3)
    c["pow_exp"] = lambda ms, m, d: (m.pow(d["x"], 2.5), m.exp(d["x"]), m.log1p(d["x"]), m.rsqrt(d["x"]))
    c["trig"] = lambda ms, m, d: (m.sin(d["x"]), m.acos(d["x"]), m.atan2(d["x"], d["y"]), m.sinc(d["n"]))
    c["erf_family"] = lambda ms, m, d: (m.erf(d["n"]), m.erfc(d["n"]), m.erfinv(d["x"] - 0.5))
    c["clamp"] = lambda ms, m, d: m.clamp(d["n"], -0.5, 0.5)
    c["clamp_min"] = lambda ms, m, d: m.clamp(d["n"], min=0.1)
    c["lerp"] = lambda ms, m, d: m.lerp(d["x"], d["y"], 0.3)
    c["addcdiv"] = lambda ms, m, d: m.addcdiv(d["x"], d["y"], d["z"], value=0.5)
    c["xlogy"] = lambda ms, m, d: m.xlogy(d["x"], d["y"])
    c["logaddexp"] = lambda ms, m, d: m.logaddexp(d["x"], d["y"])
    c["float_power"] = lambda ms, m, d: m.float_power(d["x"], 2)
    c["frac_round"] = lambda ms, m, d: (m.frac(d["n"] * 3), m.round(d["n"] * 3), m.round(d["n"], decimals=1))
    c["nan_to_num"] = lambda ms, m, d: m.nan_to_num(d["x"] / (d["x"] - d["x"]), 1.0, 2.0, -2.0)
    c["isneginf"] = lambda ms, m, d: m.isneginf(-d["x"] / (d["x"] - d["x"]))
    c["compare"] = lambda ms, m, d: (m.eq(d["xi"], 1), m.greater_equal(d["x"], d["y"]), m.lt(d["x"], 0.5))
    c["logical"] = lambda ms, m, d: m.logical_xor(d["x"] > 0.5, d["y"] > 0.5)
    c["bitwise"] = lambda ms, m, d: (m.bitwise_and(d["xi"], 1), m.bitwise_not(d["xi"]))
    c["maximum"] = lambda ms, m, d: (m.maximum(d["x"], d["y"]), m.minimum(d["x"], d["y"]))
    c["where"] = lambda ms, m, d: m.where(d["x"] > 0.5, d["x"], d["y"])
    c["isclose"] = lambda ms, m, d: m.isclose(d["x"], d["x"] + 1e-6)
    c["allclose"] = lambda ms, m, d: m.allclose(d["x"], d["x"] + 1e-3)
    c["diff"] = lambda ms, m, d: m.diff(d["x"], 1, -1)
    c["cross"] = lambda ms, m, d: m.cross(d["x"][:, :3], d["y"][:, :3], 1)
    c["softmax"] = lambda ms, m, d: m.softmax(d["x"], 1)
    c["special"] = lambda ms, m, d: (m.special.expm1(d["x"]), m.special.log_softmax(d["x"], 1),
                                     m.special.exp2(d["x"]), m.special.round(d["n"] * 3))
    c["int_dtypes"] = lambda ms, m, d: (m.sum(d["xi32"]), m.sum(d["xi32"] > 1), m.prod(d["xi32"]), m.mean(d["xi32"]),
                                        m.div(d["xi32"], d["xi32"] + 1), m.max(d["xi32"]), m.nansum(d["xi32"]),
                                        m.remainder(d["xi32"], 3), m.pow(d["xi32"], 2), m.sqrt(d["xi32"]),
                                        m.add(d["xi32"], 1.5), m.neg(d["xi32"]), m.gt(d["xi32"], 2))
    c["mixed_dtypes"] = lambda ms, m, d: (m.where(d["xi32"] > 1, d["xi32"], 1.5), m.clamp(d["xi32"], 1.5, 3.5),
                                          m.mul(d["xi32"] > 1, d["xi32"]), m.logical_and(d["xi32"], d["xi32"] > 1),
                                          m.sum(d["xi32"], 0, dtype=ms.float32))
    c["extras"] = lambda ms, m, d: (m.addcmul(d["x"], d["y"], d["z"], value=2), m.clip(d["n"], -0.2, 0.2),
                                    m.trunc(d["n"] * 3), m.fix(d["n"] * 3), m.ge(d["x"], d["y"]), m.ones((2, 3)),
                                    m.linspace(0, 1, 5), m.equal(d["x"], d["x"]), m.item(d["x"][0, 0]))
    c["unique"] = lambda ms, m, d: m.unique(d["runs"], return_inverse=True, return_counts=True)
    # shape and indexing
    c["reshape_flatten"] = lambda ms, m, d: (m.reshape(d["b1"], (4, 6)), m.flatten(d["b1"], 1))
    c["permute_transpose"] = lambda ms, m, d: (m.permute(d["b1"], (2, 0, 1)), m.transpose(d["b1"], 0, 2))
    c["squeeze_unsqueeze"] = lambda ms, m, d: (m.squeeze(m.unsqueeze(d["x"], 1), 1), m.unsqueeze(d["x"], -1))
    c["cat_stack"] = lambda ms, m, d: (m.cat((d["x"], d["y"]), 1), m.stack((d["x"], d["y"]), 2),
                                       m.concat((d["x"], d["y"])))
    c["hstack_dstack"] = lambda ms, m, d: (m.hstack((d["x"], d["y"])), m.dstack((d["x"], d["y"])))
    c["split_chunk"] = lambda ms, m, d: (m.split(d["w"], [1, 3], 0), m.chunk(d["w"], 2, 1))
    c["narrow_select"] = lambda ms, m, d: (m.narrow(d["w"], 1, 1, 3), m.select(d["w"], 1, -1))
    c["gather"] = lambda ms, m, d: m.gather(d["x"], 1, d["idx"])
    c["index_select"] = lambda ms, m, d: m.index_select(d["x"], 1, ms.Tensor(np.array([3, 0], np.int64)))
    c["take"] = lambda ms, m, d: m.take(d["x"], ms.Tensor(np.array([[0, 5], [11, 3]], np.int64)))
    c["scatter"] = lambda ms, m, d: m.scatter(m.zeros((3, 4)), 1, d["idx"][:, :2], d["y"][:, :2])
    c["scatter_add"] = lambda ms, m, d: m.scatter_add(d["x"], 1, d["idx"], d["y"])
    c["index_add"] = lambda ms, m, d: m.index_add(d["x"], 0, ms.Tensor(np.array([2, 0], np.int64)),
                                                  d["y"][:2], alpha=2)
    c["masked_select"] = lambda ms, m, d: m.masked_select(d["x"], d["x"] > 0.5)
    c["nonzero"] = lambda ms, m, d: m.nonzero(d["xi"])
    c["sort"] = lambda ms, m, d: m.sort(d["x"], dim=1, descending=True)
    c["argsort"] = lambda ms, m, d: m.argsort(d["x"], 0)
    c["topk"] = lambda ms, m, d: m.topk(d["x"], 2, 1)
    c["topk_small"] = lambda ms, m, d: m.topk(d["x"], 2, 0, largest=False)
    c["searchsorted"] = lambda ms, m, d: (m.searchsorted(d["sorted"], d["vals"]),
                                          m.searchsorted(d["sorted"], d["vals"], right=True))
    c["unique_consecutive"] = lambda ms, m, d: m.unique_consecutive(d["runs"], True, True)
    c["repeat_interleave"] = lambda ms, m, d: m.repeat_interleave(d["x"], 2, 0)
    c["roll_flip"] = lambda ms, m, d: (m.roll(d["x"], 1, 1), m.flip(d["x"], (0,)))
    c["tril_triu_diag"] = lambda ms, m, d: (m.tril(d["sq"], -1), m.triu(d["sq"], 1), m.diag(d["sq"]),
                                            m.diag(d["v"], 1), m.trace(d["sq"]))
    c["tile_broadcast"] = lambda ms, m, d: (m.tile(d["v"], (2, 1)), m.broadcast_to(d["v"], (3, 4)))
    c["meshgrid"] = lambda ms, m, d: m.meshgrid(d["v3"], d["v"], indexing="ij")
    c["unbind_t"] = lambda ms, m, d: (m.unbind(d["x"], 1), m.t(d["x"]), m.swapaxes(d["b1"], 0, 1))
    c["creation"] = lambda ms, m, d: (m.zeros((2, 3)), m.ones_like(d["x"]), m.full((2,), 3.5),
                                      m.arange(1, 7, 2), m.eye(3, 2), m.zeros_like(d["xi"]),
                                      m.full_like(d["x"], 2, dtype=ms.int32))
    # matmul family
    c["matmul"] = lambda ms, m, d: (m.matmul(d["x"], d["w"]), m.mm(d["x"], d["w"]), m.bmm(d["b1"], d["b2"]))
    c["addmm"] = lambda ms, m, d: m.addmm(d["x"][:, :3], d["x"], d["w"][:, :3], beta=0.5, alpha=2)
    c["baddbmm"] = lambda ms, m, d: m.baddbmm(m.ones_like(m.zeros((2, 3, 5))), d["b1"], d["b2"], beta=2, alpha=0.5)
    c["addbmm"] = lambda ms, m, d: m.addbmm(m.ones_like(m.zeros((3, 5))), d["b1"], d["b2"])
    c["addmv_mv"] = lambda ms, m, d: (m.addmv(d["v3"], d["x"], d["v"], alpha=3), m.mv(d["x"], d["v"]))
    c["dot_outer"] = lambda ms, m, d: (m.dot(d["v"], d["v"]), m.outer(d["v3"], d["v"]), m.vdot(d["v"], d["v"]))
    c["einsum"] = lambda ms, m, d: m.einsum("ij,jk->ik", d["x"], d["w"])
    c["cdist"] = lambda ms, m, d: (m.cdist(d["x"], d["y"]), m.cdist(d["x"], d["z"], p=1.0))
    c["inverse"] = lambda ms, m, d: (m.inverse(d["sq"]), m.linalg.inv(d["sq"]))
    c["linalg_norms"] = lambda ms, m, d: (m.linalg.vector_norm(d["x"], 3, 1), m.linalg.matrix_norm(d["sq"]),
                                          m.linalg.norm(d["x"]), m.linalg.matrix_norm(d["sq"], 1),
                                          m.linalg.vector_norm(d["x"], float("inf")))
    c["qr"] = lambda ms, m, d: m.linalg.qr(m.t(d["w"]))
    c["qr_complete"] = lambda ms, m, d: m.linalg.qr(d["sq"], "complete")
    c["triangular_solve"] = lambda ms, m, d: m.triangular_solve(d["rhs"], d["tri"])
    c["triangular_solve_lower_t"] = lambda ms, m, d: m.triangular_solve(d["rhs"], m.t(d["tri"]), False, True)
    # nn.functional
    f = lambda m: getattr(m.nn, F)  # noqa: E731
    c["activations"] = lambda ms, m, d: (f(m).relu(d["n"]), f(m).gelu(d["n"]), f(m).gelu(d["n"], approximate="tanh"),
                                         f(m).silu(d["n"]), f(m).elu(d["n"], 0.5), f(m).leaky_relu(d["n"], 0.2),
                                         f(m).hardtanh(d["n"], -0.5, 0.5), f(m).relu6(d["n"] * 8),
                                         f(m).logsigmoid(d["n"]), f(m).sigmoid(d["n"]), f(m).tanh(d["n"]))
    c["softmaxes"] = lambda ms, m, d: (f(m).softmax(d["x"], 0), f(m).log_softmax(d["x"], 1), f(m).glu(d["x"], 1))
    c["threshold_prelu"] = lambda ms, m, d: (f(m).threshold(d["n"], 0.1, 20.0),
                                             f(m).prelu(d["img"], ms.Tensor(np.array([0.1, 0.2, 0.3], np.float32))))
    c["linear"] = lambda ms, m, d: f(m).linear(d["x"], m.t(d["w"]), d["w"][0])
    c["conv2d"] = lambda ms, m, d: f(m).conv2d(d["img"], d["k"], d["bias4"], 1, 1)
    c["conv2d_stride_same"] = lambda ms, m, d: (f(m).conv2d(d["img"], d["k"], None, 2, 0, 1),
                                                f(m).conv2d(d["img"], d["k"], None, 1, "same"))
    c["mint_conv2d"] = lambda ms, m, d: m.conv2d(d["img"], d["k"], d["bias4"], 1, (1, 0), 2)
    c["conv1d"] = lambda ms, m, d: f(m).conv1d(d["seq"], d["k1"], None, 1, 1)
    c["conv3d"] = lambda ms, m, d: f(m).conv3d(d["vol"], d["k3"], None, 1, 1)
    c["conv_transpose2d"] = lambda ms, m, d: f(m).conv_transpose2d(d["img"], m.transpose(d["k"], 0, 1), None, 2, 1, 1)
    c["pools"] = lambda ms, m, d: (f(m).avg_pool2d(d["img"], 2), f(m).max_pool2d(d["img"], 3, 2, 1),
                                   f(m).avg_pool1d(d["seq"], 3, 2, 1), f(m).adaptive_avg_pool2d(d["img"], (4, 3)),
                                   f(m).adaptive_max_pool2d(d["img"], 4), f(m).adaptive_avg_pool1d(d["seq"], 3))
    c["max_pool_indices"] = lambda ms, m, d: f(m).max_pool2d(d["img"], 2, return_indices=True)
    c["max_unpool2d"] = lambda ms, m, d: f(m).max_unpool2d(*f(m).max_pool2d(d["img"], 2, return_indices=True), 2)
    c["adaptive_avg_pool3d"] = lambda ms, m, d: f(m).adaptive_avg_pool3d(d["vol"], (3, 2, 4))
    c["adaptive_max_pool1d"] = lambda ms, m, d: f(m).adaptive_max_pool1d(d["seq"], 3, True)
    c["avg_pool3d"] = lambda ms, m, d: f(m).avg_pool3d(d["vol"], 2)
    c["norms_f"] = lambda ms, m, d: (f(m).layer_norm(d["img"], (6, 6)), f(m).group_norm(d["img"], 3),
                                     f(m).batch_norm(d["img"], m.zeros((3,)), m.ones_like(m.zeros((3,)))),
                                     f(m).normalize(d["x"], 2.0, 1))
    c["dropout_eval"] = lambda ms, m, d: (f(m).dropout(d["x"], 0.5, False), f(m).dropout2d(d["img"], 0.3, False))
    c["interpolate"] = lambda ms, m, d: (f(m).interpolate(d["img"], (9, 4), mode="bilinear", align_corners=False),
                                         f(m).interpolate(d["img"], scale_factor=2.0, mode="nearest"),
                                         f(m).interpolate(d["img"], (3, 8), mode="bilinear", align_corners=True))
    c["pad"] = lambda ms, m, d: (f(m).pad(d["img"], (1, 2)), f(m).pad(d["img"], (1, 1, 2, 0), "reflect"),
                                 f(m).pad(d["img"], (2, 1, 1, 1), "replicate"), f(m).pad(d["x"], (1, 1), value=3.0))
    c["pixel_shuffle"] = lambda ms, m, d: f(m).pixel_shuffle(m.reshape(d["cols"], (2, 4, 3, 9)), 2)
    c["unfold"] = lambda ms, m, d: f(m).unfold(d["img"], 3, 1, 1, 2)
    c["fold"] = lambda ms, m, d: f(m).fold(d["cols"], (6, 6), 2, 1, 0, 2)
    c["grid_sample"] = lambda ms, m, d: (f(m).grid_sample(d["img"], d["grid"], align_corners=False),
                                         f(m).grid_sample(d["img"], d["grid"], "nearest", "border", True))
    c["grid_sample_reflect"] = lambda ms, m, d: (f(m).grid_sample(d["img"], d["grid"] * 3, "bilinear", "reflection",
                                                                  False),
                                                 f(m).grid_sample(d["img"], d["grid"] * 3, "nearest", "reflection",
                                                                  True),
                                                 f(m).grid_sample(d["img"], d["grid"] * 2, "bilinear", "border", False))
    c["embedding"] = lambda ms, m, d: f(m).embedding(d["emb_idx"], d["table"])
    c["one_hot"] = lambda ms, m, d: f(m).one_hot(d["labels"], 5)
    c["losses"] = lambda ms, m, d: (f(m).mse_loss(d["x"], d["y"]), f(m).mse_loss(d["x"], d["y"], "none"),
                                    f(m).binary_cross_entropy(d["prob"], d["target01"]),
                                    f(m).binary_cross_entropy_with_logits(d["n"], d["target01"], reduction="sum"),
                                    f(m).kl_div(f(m).log_softmax(d["x"], 1), f(m).softmax(d["y"], 1), "sum"),
                                    f(m).soft_margin_loss(d["n"], d["target01"] * 2 - 1),
                                    f(m).cosine_embedding_loss(d["x"], d["y"], d["pm1"], 0.1))
    c["cross_entropy"] = lambda ms, m, d: (f(m).cross_entropy(d["n"], d["labels"]),
                                           f(m).cross_entropy(d["n"], d["labels"], label_smoothing=0.1),
                                           f(m).nll_loss(f(m).log_softmax(d["n"], 1), d["labels"], reduction="sum"))
    # nn layers (parameters filled deterministically)
    nn = lambda m: m.nn  # noqa: E731
    c["layer_linear"] = lambda ms, m, d: _layer(ms, nn(m).Linear(4, 3), d["x"])
    c["layer_conv2d"] = lambda ms, m, d: _layer(ms, nn(m).Conv2d(3, 2, 3, padding=1, padding_mode="reflect"), d["img"])
    c["layer_conv1d"] = lambda ms, m, d: _layer(ms, nn(m).Conv1d(3, 4, 3, stride=2), d["seq"])
    c["layer_conv3d"] = lambda ms, m, d: _layer(ms, nn(m).Conv3d(2, 3, 2), d["vol"])
    c["layer_conv_t2d"] = lambda ms, m, d: _layer(ms, nn(m).ConvTranspose2d(3, 2, 3, stride=2, padding=1), d["img"])
    c["layer_bn2d_train"] = lambda ms, m, d: _bn_train(ms, m, d)
    c["layer_bn1d_eval"] = lambda ms, m, d: _layer(ms, nn(m).BatchNorm1d(4), d["x"])
    c["layer_groupnorm"] = lambda ms, m, d: _layer(ms, nn(m).GroupNorm(3, 3), d["img"])
    c["layer_prelu"] = lambda ms, m, d: _layer(ms, nn(m).PReLU(3), d["img"])
    c["layer_activations"] = lambda ms, m, d: tuple(
        cls()(d["n"]) for cls in (nn(m).ReLU, nn(m).Sigmoid, nn(m).Tanh, nn(m).GELU, nn(m).SiLU, nn(m).Mish,
                                  nn(m).SELU, nn(m).Hardsigmoid, nn(m).Hardswish, nn(m).Hardshrink,
                                  nn(m).LogSigmoid, nn(m).ReLU6, nn(m).ELU, nn(m).Hardtanh, nn(m).Identity))
    c["layer_softmax_threshold"] = lambda ms, m, d: (nn(m).Softmax(1)(d["x"]), nn(m).LogSoftmax(0)(d["x"]),
                                                     nn(m).Threshold(0.2, -1.0)(d["n"]))
    c["layer_pools"] = lambda ms, m, d: (nn(m).AvgPool2d(3, 1, 1)(d["img"]), nn(m).AvgPool1d(2)(d["seq"]),
                                         nn(m).AdaptiveAvgPool2d(2)(d["img"]), nn(m).AdaptiveMaxPool2d(3)(d["img"]),
                                         nn(m).AdaptiveAvgPool1d(2)(d["seq"]), nn(m).AdaptiveMaxPool1d(4)(d["seq"]),
                                         nn(m).AdaptiveAvgPool3d(2)(d["vol"]), nn(m).AvgPool3d(2, 1)(d["vol"]))
    c["layer_pads"] = lambda ms, m, d: (nn(m).ConstantPad1d(2, 1.5)(d["seq"]), nn(m).ConstantPad2d((1, 0, 2, 1), 0.5)(
        d["img"]), nn(m).ZeroPad2d(1)(d["img"]), nn(m).ReflectionPad1d((2, 1))(d["seq"]),
        nn(m).ReflectionPad2d(1)(d["img"]), nn(m).ReplicationPad2d((1, 2, 0, 1))(d["img"]),
        nn(m).ReplicationPad1d(2)(d["seq"]), nn(m).ZeroPad1d(1)(d["seq"]), nn(m).ConstantPad3d(1, 2.0)(d["vol"]),
        nn(m).ZeroPad3d(1)(d["vol"]), nn(m).ReflectionPad3d(1)(d["vol"]), nn(m).ReplicationPad3d(1)(d["vol"]))
    c["layer_shapes"] = lambda ms, m, d: (nn(m).Flatten()(d["img"]), nn(m).PixelShuffle(3)(m.reshape(d["img"],
                                                                                                   (2, 9, 2, 6))),
                                          nn(m).Unfold(2, stride=2)(d["img"]),
                                          nn(m).Fold((7, 7), 3, 1, 1, 3)(d["cols"][:, :9]))
    c["layer_upsample"] = lambda ms, m, d: (nn(m).Upsample(scale_factor=2.0)(d["img"]),
                                            nn(m).UpsamplingNearest2d((8, 7))(d["img"]),
                                            nn(m).UpsamplingBilinear2d((8, 7))(d["img"]),
                                            nn(m).Upsample((5, 4), mode="bilinear")(d["img"]))
    c["layer_unpool"] = lambda ms, m, d: nn(m).MaxUnpool2d(2)(*f(m).max_pool2d(d["img"], 2, return_indices=True))
    c["layer_losses"] = lambda ms, m, d: (nn(m).L1Loss()(d["x"], d["y"]), nn(m).MSELoss("sum")(d["x"], d["y"]),
                                          nn(m).SmoothL1Loss(beta=0.2)(d["n"], d["x"]),
                                          nn(m).BCELoss()(d["prob"], d["target01"]),
                                          nn(m).BCEWithLogitsLoss()(d["n"], d["target01"]),
                                          nn(m).KLDivLoss("batchmean")(f(m).log_softmax(d["x"], 1),
                                                                        f(m).softmax(d["y"], 1)),
                                          nn(m).SoftMarginLoss()(d["n"], d["target01"] * 2 - 1),
                                          nn(m).CosineEmbeddingLoss(0.2)(d["x"], d["y"], d["pm1"]))
    # optimizers
    c["optim_sgd"] = lambda ms, m, d: _optim_steps(ms, m, lambda p: m.optim.SGD(p, lr=0.1, momentum=0.9,
                                                                                weight_decay=0.01, nesterov=True))
    c["optim_adam"] = lambda ms, m, d: _optim_steps(ms, m, lambda p: m.optim.Adam(p, lr=0.01, weight_decay=0.1))
    c["optim_adamw"] = lambda ms, m, d: _optim_steps(ms, m, lambda p: m.optim.AdamW(p, lr=0.01, amsgrad=True), 3)
    c["optim_fused_adamw"] = lambda ms, m, d: _optim_steps(ms, m, lambda p: m.optim.FusedAdamW(p, lr=0.02))
    # gradients
    c["grad_sum_max"] = lambda ms, m, d: _grad(ms, lambda a: m.sum(m.max(a, 1)[0] * 2), d["x"])
    c["grad_linear_gelu"] = lambda ms, m, d: _grad(ms, lambda a, b: m.sum(f(m).gelu(f(m).linear(a, b))), d["x"],
                                                   m.t(d["w"]))
    c["grad_gather_cumsum"] = lambda ms, m, d: _grad(ms, lambda a: m.sum(m.cumsum(m.gather(a, 1, d["idx"]), 1)),
                                                     d["x"])
    c["grad_conv_pool"] = lambda ms, m, d: _grad(ms, lambda a, k: m.sum(f(m).avg_pool2d(f(m).conv2d(a, k, None, 1, 1),
                                                                                         2)), d["img"], d["k"])
    c["grad_inverse"] = lambda ms, m, d: _grad(ms, lambda a: m.sum(m.linalg.inv(a)), d["sq"])
    c["grad_cross_entropy"] = lambda ms, m, d: _grad(ms, lambda a: f(m).cross_entropy(a, d["labels"]), d["n"])
    return c


def _bn_train(ms, m, d):
    bn = _fill_params(ms, m.nn.BatchNorm2d(3, momentum=0.2), 3)
    bn.set_train(True)
    out = bn(d["img"])
    return out, bn.running_mean, bn.running_var


def tensors(ms, data):
    return {k: ms.Tensor(v) for k, v in data.items()}


def flatten(value):
    """A list of NumPy arrays from a Tensor, number, bool or (nested) tuple/list of them."""
    if isinstance(value, (tuple, list)):
        out = []
        for v in value:
            out += flatten(v)
        return out
    if hasattr(value, "asnumpy"):
        return [value.asnumpy()]
    return [np.asarray(value)]


def _run(names, out_path):
    """Child process: run ``names`` in order, stop at the first failure (MindSpore's CPU runtime can keep an
    error from one call and report it again on later ones, so each failure restarts the process)."""
    import pickle

    import mindspore as ms
    from mindspore import mint
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    ms.set_seed(1)
    d = tensors(ms, make_data())
    table = cases()
    done = {}
    for name in names:
        try:
            done[name] = flatten(table[name](ms, mint, d))
        except Exception as e:  # noqa: BLE001 - record what real MindSpore cannot run
            done[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
            break
        finally:
            with open(out_path, "wb") as f:
                pickle.dump(done, f)


def main():
    import pickle
    import subprocess
    import tempfile
    names = list(cases())
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        out_path = pathlib.Path(tmp) / "part.pkl"
        while len(results) < len(names):
            todo = [n for n in names if n not in results]
            subprocess.run([sys.executable, __file__, "--child", out_path.as_posix()] + todo, check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            part = pickle.loads(out_path.read_bytes()) if out_path.exists() else {}
            if not part:
                part = {todo[0]: "the process died"}
            results.update(part)
            out_path.unlink(missing_ok=True)
    import mindspore as ms
    arrays, failed = {}, []
    for name in names:
        out = results[name]
        if isinstance(out, str):
            failed.append(f"{name}: {out}")
            continue
        for i, a in enumerate(out):
            arrays[f"{name}__{i}"] = a
        arrays[f"{name}__n"] = np.array(len(out))
    arrays["__failed__"] = np.array(failed)
    arrays["__version__"] = np.array(ms.__version__)
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(FIXTURE, **arrays)
    print(f"recorded {len(names) - len(failed)} cases, {len(failed)} failed:")
    for line in failed:
        print("  ", line)


if __name__ == "__main__":
    if sys.argv[1:] == ["--signatures"]:
        write_signatures()
    elif len(sys.argv) > 2 and sys.argv[1] == "--child":
        _run(sys.argv[3:], sys.argv[2])
    else:
        sys.exit(main())
