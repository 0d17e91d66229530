"""Records the signatures of the ``mindspore.ops`` functions of ``ops/function/math_ext_func.py``,
``segment_func.py`` and ``misc_func.py`` from real MindSpore 2.10 into
``tests/fixtures/api/ops_ext_signatures.json`` (read by ``tests/api/test_ops_ext.py``).

Run with an interpreter that has MindSpore 2.10: ``python tests/api/make_ops_ext_fixture.py``.
"""
import inspect
import json
import pathlib

import mindspore
from mindspore import ops

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "api" / "ops_ext_signatures.json"


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


NAMES = [
    "dense", "cross", "det", "slogdet", "logdet", "inverse", "matrix_power", "adjoint", "mv", "addmm", "addbmm",
    "addmv", "addr", "baddbmm", "trace", "cdist", "dist", "vecdot", "nansum", "nanmean", "bincount", "histc",
    "diag_embed", "diagflat", "unique_consecutive", "diff", "tril_indices", "triu_indices", "fliplr", "flipud",
    "rot90", "atleast_1d", "atleast_2d", "atleast_3d", "hstack", "vstack", "row_stack", "column_stack", "dstack",
    "tensor_split", "hsplit", "vsplit", "dsplit", "block_diag", "cartesian_prod", "vander", "xdivy", "logit",
    "ldexp", "logspace", "logcumsumexp", "msort", "is_tensor", "is_floating_point", "is_complex", "isposinf",
    "isneginf", "isreal", "sgn", "trapz", "cov", "renorm", "type_as", "view_as", "expand", "top_k",
    "inv", "bitwise_left_shift", "bitwise_right_shift", "matrix_determinant", "log_matrix_determinant",
    "matrix_norm", "vector_norm", "isnan_ext", "pows", "clip_by_norm", "deepcopy", "tensor_mul", "tensor_sub",
    "tensor_div", "tensor_gt", "tensor_ge", "tensor_lt", "tensor_le", "tensor_pow", "tensor_mod", "tensor_floordiv",
    "tensor_exp", "tensor_expm1", "tensor_range", "tensor_muls",
    # ops/function/segment_func.py
    "unsorted_segment_sum", "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_prod",
    "tensor_scatter_sub", "tensor_scatter_mul", "tensor_scatter_div", "tensor_scatter_max", "tensor_scatter_min",
    "searchsorted", "bucketize", "sequence_mask", "matrix_band_part", "index_fill", "combinations",
    "channel_shuffle", "diagonal", "select_scatter", "slice_scatter", "diagonal_scatter", "reverse_sequence",
    "population_count", "einsum_ext", "mse_loss_ext", "soft_shrink", "fills", "float_power_ext", "qr",
    # ops/function/misc_func.py
    "scatter_add", "scatter_update", "scatter_max", "scatter_min", "scatter_mul", "scatter_div",
    "scatter_nd_add", "scatter_nd_sub", "scatter_nd_mul", "scatter_nd_div", "scatter_nd_max", "scatter_nd_min",
    "hann_window", "hamming_window", "is_nonzero", "unique_with_pad", "intopk", "approximate_equal", "iou",
    "cholesky", "cholesky_inverse", "cholesky_solve", "lp_pool1d", "lp_pool2d", "pdist", "ger",
    "multilabel_soft_margin_loss", "multi_margin_loss", "unfold", "fold", "grid_sample", "adaptive_avg_pool3d",
    "max_unpool2d", "mirror_pad", "bartlett_window", "blackman_window", "nanmedian", "lrn", "quantile",
    "nanquantile", "triplet_margin_loss", "embedding",
]

if __name__ == "__main__":
    data = {"mindspore_version": mindspore.__version__, "signatures": {n: describe(getattr(ops, n)) for n in NAMES}}
    FIXTURE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
