"""Records, from real MindSpore 2.10, the signatures of the ``mindspore.ops`` functions of
``ops/function/special_func.py``, ``scalar_func.py``, ``more_func.py``, ``nn_more_func.py`` and ``fft_func.py`` and
the results of the calls in ``ops_more_cases.py`` into ``tests/fixtures/api/ops_more_reference.json`` and
``ops_more_reference.npz`` (read by ``tests/api/test_ops_more.py``). A call MindSpore 2.10's CPU build cannot
run (an Ascend-only kernel, a bug of its own) is recorded as an error, which the test refuses: such calls are
checked against NumPy oracles in ``test_ops_more.py`` instead, not listed here.

Run with an interpreter that has MindSpore 2.10: ``python tests/api/make_ops_more_fixture.py``.
"""
import inspect
import json
import pathlib
import sys

import numpy as np

import mindspore
from mindspore import ops

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from ops_more_cases import CASES  # noqa: E402

FIXTURES = pathlib.Path(__file__).parents[1] / "fixtures" / "api"

NAMES = [
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e",
    "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "i0", "lgamma", "digamma", "polygamma", "mvlgamma",
    "igamma", "igammac", "zeta", "nextafter",
    "scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod", "scalar_pow",
    "scalar_eq", "scalar_gt", "scalar_ge", "scalar_lt", "scalar_le", "scalar_max", "scalar_min", "scalar_log",
    "scalar_uadd", "scalar_usub", "scalar_cast", "scalar_to_array", "shape_mul", "dyn_shape",
    "index_add", "inplace_add", "inplace_sub", "inplace_update", "inplace_index_add", "zero_", "tanh_", "clamp_",
    "uniform_", "normal_", "random_", "exponential_", "bernoulli_", "put_", "erfinv_", "inplace_sigmoid",
    "matrix_diag", "matrix_diag_part", "matrix_set_diag", "batch_to_space_nd", "space_to_batch_nd", "batch_dot",
    "accumulate_n", "take", "matrix_solve", "lstsq", "real", "imag", "conj", "angle", "view_as_real",
    "baddbmm_ext", "diff_ext", "adaptive_avg_pool2d_ext", "bernoulli_ext", "polar",
    "rms_norm", "add_rms_norm", "add_layer_norm", "swiglu", "rotary_position_embedding", "bounding_box_encode",
    "bounding_box_decode", "check_valid", "crop_and_resize", "affine_grid", "rrelu", "gumbel_softmax",
    "multilabel_margin_loss", "col2im", "max_unpool1d", "max_unpool3d", "kaiser_window", "ctc_loss",
    "ctc_greedy_decoder", "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
    "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftshift", "ifftshift", "fftfreq",
    "rfftfreq", "svd", "pinv", "matrix_exp", "eig", "eigvals", "geqrf", "orgqr", "lu_unpack",
    "lu_solve", "ormqr", "stft",
]


def describe(fn):
    out = []
    for p in inspect.signature(fn).parameters.values():
        d = p.default
        if d is inspect.Parameter.empty:
            default = None
        elif isinstance(d, mindspore.dtype.Type):
            default = "dtype:" + str(d).replace("mindspore.", "").lower()
        else:
            default = repr(d)
        out.append([p.name, p.kind.name, default])
    return out


def flatten(value):
    """``[(kind, payload)]`` for a result: tensors as arrays, Python values as their repr."""
    if isinstance(value, (tuple, list)) and any(isinstance(v, mindspore.Tensor) for v in value):
        return [item for v in value for item in flatten(v)]
    if isinstance(value, mindspore.Tensor):
        return [("tensor", value.asnumpy(), str(value.dtype))]
    return [("python", repr(value), type(value).__name__)]


if __name__ == "__main__":
    signatures = {n: describe(getattr(ops, n)) for n in NAMES}
    arrays, meta = {}, {}
    for name, fn in CASES.items():
        try:
            items = flatten(fn())
        except Exception as exc:  # noqa: BLE001 - recorded: MindSpore's CPU build cannot run it
            meta[name] = {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"}
            continue
        entries = []
        for k, (kind, payload, tag) in enumerate(items):
            if kind == "tensor":
                arrays[f"{name}/{k}"] = payload
                entries.append({"tensor": f"{name}/{k}", "dtype": tag})
            else:
                entries.append({"python": payload, "type": tag})
        meta[name] = {"outputs": entries}
    data = {"mindspore_version": mindspore.__version__, "signatures": signatures, "results": meta}
    (FIXTURES / "ops_more_reference.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    np.savez_compressed(FIXTURES / "ops_more_reference.npz", **arrays)
    print(f"{len(signatures)} signatures, {len(meta)} cases, {len(arrays)} arrays, "
          f"{sum('error' in m for m in meta.values())} errors")
