"""Cases for the array and indexing families: shape manipulation, joining/splitting, creation,
gather/scatter, slicing, padding, selection, sorting, in-place assignment, and the functional ops
built on them.

Oracles are plain NumPy. Gradient cases use random floats (unique values, so sorts and top-k are
differentiable) and index sets without repeats where an op's gradient would otherwise depend on
which duplicate write wins.
"""
import numpy as np

import mindspore as ms
from mindspore import ops

from case import Case, rand, randint


def _unique_first(x):
    """NumPy oracle of ``ops.unique``: the distinct values in order of first occurrence, and each element's slot."""
    flat = x.reshape(-1)
    seen = list(dict.fromkeys(flat.tolist()))
    slot = {v: i for i, v in enumerate(seen)}
    return np.array(seen, x.dtype), np.array([slot[v] for v in flat.tolist()], np.int32).reshape(x.shape)


def _idx(*values, dtype=np.int32):
    return np.array(values, dtype=dtype)


def _one_hot(indices, depth, on, off, axis=-1):
    out = np.where(indices[..., None] == np.arange(depth), on, off)
    return np.moveaxis(out, -1, axis)


def _scatter_nd(indices, updates, shape):
    out = np.zeros(shape, updates.dtype)
    np.add.at(out, tuple(np.moveaxis(indices, -1, 0)), updates)
    return out


def _tensor_scatter(x, indices, updates, add):
    out = x.copy()
    coords = tuple(np.moveaxis(indices, -1, 0))
    if add:
        np.add.at(out, coords, updates)
    else:
        out[coords] = updates
    return out


def _scatter_elements(x, axis, indices, updates, add):
    out = x.copy()
    coords = list(np.indices(indices.shape, sparse=True))
    coords[axis] = indices
    if add:
        np.add.at(out, tuple(coords), updates)
    else:
        out[tuple(coords)] = updates
    return out


def _sort(x, axis, descending):
    """Stable sort; descending keeps equal elements in their original order."""
    key = -x if descending else x
    idx = np.argsort(key, axis=axis, kind="stable")
    return np.take_along_axis(x, idx, axis), idx.astype(np.int32)


def _topk(x, k):
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, idx, -1), idx.astype(np.int32)


# these ops make a Parameter of their input, which a compiled graph can not (graph-mode writes to Parameters
# are tested in mindspore-core/tests/graph)
EAGER_ONLY = ("pynative",)


def _assign_then_read(fn):
    def op(p, v):
        param = ms.Parameter(p, name="p")
        out = fn(param, v)
        return out, ops.identity(param)
    return op


def _strided_slice_grad(dy):
    return ops.StridedSliceGrad(0, 2, 0, 0, 1)(dy, (4, 5, 3), (1, 0, 0), (3, 4, 2), (1, 2, 1))


def _strided_slice_grad_oracle(dy):
    out = np.zeros((4, 5, 3), dy.dtype)
    out[1, 0::2, 0:2] = dy
    return out


def _pad_oracle(x, padding, mode, value=0):
    pairs = [(0, 0)] * x.ndim
    for i in range(len(padding) // 2):
        pairs[x.ndim - 1 - i] = (padding[2 * i], padding[2 * i + 1])
    crop = tuple(slice(max(-a, 0), s - max(-b, 0)) for s, (a, b) in zip(x.shape, pairs))
    widths = [(max(a, 0), max(b, 0)) for a, b in pairs]
    np_mode = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]
    kwargs = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x[crop], widths, mode=np_mode, **kwargs)


LINEAR = dict(grad=True)

SHAPE_CASES = [
    Case("transpose", lambda x: ops.Transpose()(x, (2, 0, 1)), [rand(2, 3, 4)],
         oracle=lambda x: np.transpose(x, (2, 0, 1)), prims=["Transpose"], dtypes=(np.float32, np.float16), **LINEAR),
    Case("transpose_neg_perm", lambda x: ops.transpose(x, (-1, 0)), [rand(3, 2)], oracle=lambda x: x.T,
         prims=["Transpose"], **LINEAR),
    Case("permute", lambda x: ops.permute(x, (1, 2, 0)), [rand(2, 3, 2)],
         oracle=lambda x: np.transpose(x, (1, 2, 0)), prims=["Transpose"]),
    Case("swapaxes", lambda x: ops.swapaxes(x, 0, -1), [rand(2, 3, 4)], oracle=lambda x: np.swapaxes(x, 0, -1),
         prims=["Transpose"], **LINEAR),
    Case("moveaxis", lambda x: ops.moveaxis(x, (0, 1), (2, 0)), [rand(2, 3, 4)],
         oracle=lambda x: np.moveaxis(x, (0, 1), (2, 0)), prims=["Transpose"]),
    Case("concat_axis1", lambda a, b, c: ops.Concat(1)((a, b, c)), [rand(2, 3), rand(2, 1), rand(2, 4)],
         oracle=lambda a, b, c: np.concatenate((a, b, c), 1), prims=["Concat"],
         dtypes=(np.float32, np.float16), **LINEAR),
    Case("cat_neg_axis", lambda a, b: ops.cat([a, b], -3), [rand(1, 2, 2), rand(3, 2, 2)],
         oracle=lambda a, b: np.concatenate((a, b), 0), prims=["Concat"], **LINEAR),
    Case("concat_int", lambda a, b: ops.concat((a, b)), [randint(2, 3), randint(1, 3)],
         oracle=lambda a, b: np.concatenate((a, b)), prims=["Concat"], out_dtype=ms.int32),
    Case("split_v", lambda x: ops.SplitV((1, -1, 2), 1, 3)(x), [rand(2, 6)],
         oracle=lambda x: tuple(np.split(x, [1, 4], 1)), prims=["SplitV"], **LINEAR),
    Case("split_int_size", lambda x: ops.split(x, 4), [rand(10, 2)],
         oracle=lambda x: tuple(np.split(x, [4, 8])), prims=["SplitV"], **LINEAR),
    Case("split_sections", lambda x: ops.split(x, (2, 1), axis=-1), [rand(2, 3)],
         oracle=lambda x: tuple(np.split(x, [2], -1)), prims=["SplitV"]),
    Case("chunk", lambda x: ops.chunk(x, 3, 1), [rand(2, 7)], oracle=lambda x: tuple(np.split(x, [3, 6], 1)),
         prims=["SplitV"]),
    Case("split_prim", lambda x: ops.Split(1, 3)(x), [rand(2, 6, 2)], oracle=lambda x: tuple(np.split(x, 3, 1)),
         prims=["Split"], **LINEAR),
    Case("stack", lambda a, b: ops.Stack(1)((a, b)), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda a, b: np.stack((a, b), 1), prims=["Stack"], **LINEAR),
    Case("stack_neg_axis", lambda a, b, c: ops.stack([a, b, c], -1), [rand(4), rand(4, seed=1), rand(4, seed=2)],
         oracle=lambda a, b, c: np.stack((a, b, c), -1), prims=["Stack"], **LINEAR),
    Case("unstack", lambda x: ops.Unstack(axis=1)(x), [rand(2, 3, 2)],
         oracle=lambda x: tuple(np.moveaxis(x, 1, 0)), prims=["Unstack"], **LINEAR),
    Case("unstack_num", lambda x: ops.unstack(x, -1), [rand(3, 2)], oracle=lambda x: (x[:, 0], x[:, 1]),
         prims=["Unstack"]),
    Case("expand_dims", lambda x: ops.ExpandDims()(x, -1), [rand(2, 3)], oracle=lambda x: x[..., None],
         prims=["ExpandDims"], **LINEAR),
    Case("unsqueeze", lambda x: ops.unsqueeze(x, 0), [rand(3)], oracle=lambda x: x[None], prims=["ExpandDims"]),
    Case("squeeze_all", lambda x: ops.Squeeze()(x), [rand(1, 3, 1, 2)], oracle=np.squeeze, prims=["Squeeze"],
         **LINEAR),
    Case("squeeze_axis", lambda x: ops.squeeze(x, (0, -2)), [rand(1, 3, 1, 2)],
         oracle=lambda x: x.reshape(3, 2), prims=["Squeeze"]),
    Case("flatten_prim", lambda x: ops.Flatten()(x), [rand(2, 3, 4)], oracle=lambda x: x.reshape(2, -1),
         prims=["Flatten"], **LINEAR),
    Case("flatten_dims", lambda x: ops.flatten(x, start_dim=0, end_dim=1), [rand(2, 3, 4)],
         oracle=lambda x: x.reshape(6, 4), prims=["Reshape"]),
    Case("flatten_order_f", lambda x: ops.flatten(x, order="F"), [rand(2, 3, 4)],
         oracle=lambda x: x.T.reshape(4, -1), prims=["Transpose", "Flatten"]),
    Case("ravel", ops.ravel, [rand(2, 3)], oracle=np.ravel, prims=["Reshape"]),
    Case("t", ops.t, [rand(2, 3)], oracle=lambda x: x.T, prims=["Transpose"], **LINEAR),
    Case("expand_as", lambda x, y: ops.expand_as(x, y), [rand(3, 1), rand(2, 3, 4)],
         oracle=lambda x, y: np.broadcast_to(x, y.shape), prims=["BroadcastTo"], grad_inputs=[0], **LINEAR),
    Case("tile", lambda x: ops.Tile()(x, (2, 1, 3)), [rand(2, 3)], oracle=lambda x: np.tile(x, (2, 1, 3)),
         prims=["Tile"], **LINEAR),
    Case("tile_short_multiples", lambda x: ops.tile(x, (2,)), [rand(2, 3)], oracle=lambda x: np.tile(x, 2),
         prims=["Tile"], **LINEAR),
    # rank 6 tiled along two axes (the gradient sums over the tiles without a reduction wider than 8-D), and nothing
    # tiled at all
    Case("tile_6d_two_axes", lambda x: ops.tile(x, (1, 2, 1, 1, 3, 1)), [rand(2, 1, 2, 1, 2, 2)],
         oracle=lambda x: np.tile(x, (1, 2, 1, 1, 3, 1)), prims=["Tile"], **LINEAR),
    Case("tile_nothing", lambda x: ops.tile(x, (1, 1, 1)), [rand(2, 3, 2)], oracle=lambda x: np.tile(x, (1, 1, 1)),
         prims=["Tile"], **LINEAR),
    Case("repeat_elements", lambda x: ops.repeat_elements(x, 3, 1), [rand(2, 3)],
         oracle=lambda x: np.repeat(x, 3, 1), prims=["Tile"], **LINEAR),
    Case("repeat_interleave_counts", lambda x: ops.repeat_interleave(x, [1, 0, 2], 0), [rand(3, 2)],
         oracle=lambda x: np.repeat(x, [1, 0, 2], 0), prims=["Gather"], **LINEAR),
    Case("repeat_interleave_flat", lambda x: ops.repeat_interleave(x, 2), [rand(2, 2)],
         oracle=lambda x: np.repeat(x, 2), prims=["Tile"]),
    Case("reverse", lambda x: ops.ReverseV2((0, 2))(x), [rand(2, 3, 4)], oracle=lambda x: x[::-1, :, ::-1],
         prims=["ReverseV2"], **LINEAR),
    Case("flip", lambda x: ops.flip(x, (-1,)), [randint(2, 5)], oracle=lambda x: x[:, ::-1], prims=["ReverseV2"]),
    Case("roll", lambda x: ops.roll(x, (1, -2), (0, 1)), [rand(3, 4)], oracle=lambda x: np.roll(x, (1, -2), (0, 1)),
         prims=["Concat", "Slice"], **LINEAR),
    Case("roll_flat", lambda x: ops.roll(x, 5), [rand(2, 3)], oracle=lambda x: np.roll(x, 5), prims=["Concat"]),
    Case("meshgrid_xy", lambda a, b, c: ops.Meshgrid("xy")((a, b, c)), [rand(2), rand(3, seed=1), rand(4, seed=2)],
         oracle=lambda a, b, c: tuple(np.meshgrid(a, b, c)), prims=["Meshgrid"], **LINEAR),
    Case("meshgrid_ij", lambda a, b: ops.meshgrid(a, b, indexing="ij"), [rand(2), rand(3, seed=1)],
         oracle=lambda a, b: tuple(np.meshgrid(a, b, indexing="ij")), prims=["Meshgrid"], **LINEAR),
    Case("tril", lambda x: ops.Tril()(x), [rand(2, 3, 4)], oracle=np.tril, prims=["Tril"], **LINEAR),
    Case("tril_diag", lambda x: ops.tril(x, -1), [rand(4, 3)], oracle=lambda x: np.tril(x, -1), prims=["Tril"]),
    Case("triu", lambda x: ops.Triu(1)(x), [rand(3, 4)], oracle=lambda x: np.triu(x, 1), prims=["Triu"],
         **LINEAR),
    Case("diag", ops.diag, [rand(2, 2)], oracle=lambda x: np.diag(x.ravel()).reshape(2, 2, 2, 2),
         prims=["Select"], **LINEAR),
    Case("depend", lambda x, y: ops.depend(x, y), [rand(2, 3), rand(3)], oracle=lambda x, y: x, prims=["Depend"],
         **LINEAR),
    Case("invert_permutation", lambda: ops.InvertPermutation()((3, 4, 0, 2, 1)), [],
         oracle=lambda: tuple(np.argsort([3, 4, 0, 2, 1])), prims=["InvertPermutation"]),
]

METADATA_CASES = [
    Case("shape", lambda x: ops.Shape()(x), [rand(2, 3, 1)], oracle=lambda x: x.shape, prims=["Shape"]),
    Case("shape_fn", ops.shape, [rand(4)], oracle=lambda x: x.shape, prims=["Shape"]),
    Case("dtype_itemsize", lambda x: ms.Tensor(ops.DType()(x).itemsize), [rand(2)],
         oracle=lambda x: np.array(x.dtype.itemsize), dtypes=(np.float32, np.float16, np.float64), prims=["DType"]),
    Case("rank", lambda x: ops.Rank()(x), [rand(2, 1, 3)], oracle=lambda x: x.ndim, prims=["Rank"]),
    Case("size", lambda x: ops.Size()(x), [rand(2, 3)], oracle=lambda x: x.size, prims=["Size"]),
    Case("numel", ops.numel, [rand(4, 5)], oracle=lambda x: x.size, prims=["Size"]),
]

CREATION_CASES = [
    Case("zeros", lambda: ops.Zeros()((2, 3), ms.int32), [], oracle=lambda: np.zeros((2, 3), np.int32),
         prims=["Zeros"], out_dtype=ms.int32),
    Case("zeros_default", lambda: ops.zeros(3), [], oracle=lambda: np.zeros(3, np.float32), prims=["Zeros"],
         out_dtype=ms.float32),
    Case("ones", lambda: ops.Ones()((2,), ms.float16), [], oracle=lambda: np.ones(2, np.float16), prims=["Ones"],
         out_dtype=ms.float16),
    Case("ones_fn", lambda: ops.ones([2, 2]), [], oracle=lambda: np.ones((2, 2), np.float32), prims=["Ones"]),
    Case("full", lambda: ops.full((2, 2), 7), [], oracle=lambda: np.full((2, 2), 7, np.int64), prims=["Fill"],
         out_dtype=ms.int64),
    Case("full_like", lambda x: ops.full_like(x, 2.5), [rand(2, 3)], oracle=lambda x: np.full_like(x, 2.5),
         prims=["Fill"]),
    Case("eye", lambda: ops.Eye()(2, 3, ms.int32), [], oracle=lambda: np.eye(2, 3, dtype=np.int32), prims=["Eye"],
         out_dtype=ms.int32),
    Case("eye_fn", lambda: ops.eye(3), [], oracle=lambda: np.eye(3, dtype=np.float32), prims=["Eye"],
         out_dtype=ms.float32),
    Case("range_prim", lambda: ops.Range()(1, 10, 3), [], oracle=lambda: np.arange(1, 10, 3), prims=["Range"],
         out_dtype=ms.int64),
    Case("range_tensors", lambda a, b: ops.Range()(a, b, ms.Tensor(-0.5, ms.float32)),
         [np.array(2.0, np.float32), np.array(0.2, np.float32)], oracle=lambda a, b: np.arange(2.0, 0.2, -0.5),
         prims=["Range"], out_dtype=ms.float32),
    Case("arange_int", lambda: ops.arange(5), [], oracle=lambda: np.arange(5), prims=["Range"], out_dtype=ms.int64),
    Case("arange_float", lambda: ops.arange(0.0, 1.0, 0.25), [], oracle=lambda: np.arange(0, 1, 0.25),
         prims=["Range"], out_dtype=ms.float32),
    Case("arange_dtype", lambda: ops.arange(1, 4, dtype=ms.float16), [], oracle=lambda: np.arange(1.0, 4.0),
         prims=["Range"], out_dtype=ms.float16),
    Case("range_fn", lambda: ops.range(10, 0, -3), [], oracle=lambda: np.arange(10, 0, -3), prims=["Range"]),
    Case("linspace", lambda: ops.LinSpace()(ms.Tensor(1.0), ms.Tensor(2.0), 5), [],
         oracle=lambda: np.linspace(1, 2, 5), prims=["LinSpace"], out_dtype=ms.float32),
    Case("linspace_fn", lambda: ops.linspace(-1, 1, 3), [], oracle=lambda: np.linspace(-1, 1, 3),
         prims=["LinSpace"]),
    Case("one_hot_prim", lambda i: ops.OneHot()(i, 4, ms.Tensor(1.0), ms.Tensor(0.0)), [_idx(0, 3, 1, 5)],
         oracle=lambda i: _one_hot(i, 4, 1.0, 0.0).astype(np.float32), prims=["OneHot"], out_dtype=ms.float32),
    Case("one_hot_axis0", lambda i: ops.OneHot(0)(i, 3, ms.Tensor(2, ms.int32), ms.Tensor(-1, ms.int32)),
         [randint(2, 2, high=3, dtype=np.int64)], oracle=lambda i: _one_hot(i, 3, 2, -1, 0), prims=["OneHot"],
         out_dtype=ms.int32),
    Case("one_hot_fn_defaults", lambda i: ops.one_hot(i, 3), [_idx(2, 0)], oracle=lambda i: _one_hot(i, 3, 1, 0),
         prims=["OneHot"], out_dtype=ms.int64),
    Case("tuple_to_array", lambda: ops.tuple_to_array((1, 2, 3)), [], oracle=lambda: np.array([1, 2, 3], np.int32),
         prims=[], out_dtype=ms.int32),
    Case("scalar_to_tensor", lambda: ops.scalar_to_tensor(3), [], oracle=lambda: np.array(3.0), prims=[],
         out_dtype=ms.float32),
]

GATHER_CASES = [
    Case("gather_axis0", lambda x, i: ops.Gather()(x, i, 0), [rand(5, 3), _idx(4, 0, 4, 2)],
         oracle=lambda x, i: np.take(x, i, 0), prims=["Gather"], dtypes=(np.float32, np.float16), **LINEAR),
    Case("gather_axis1_2d_index", lambda x, i: ops.gather(x, i, 1),
         [rand(2, 4, 3), _idx([0, 3], [3, 1], dtype=np.int64)],
         oracle=lambda x, i: np.take(x, i, 1), prims=["Gather"], **LINEAR),
    Case("gather_batch_dims", lambda x, i: ops.Gather(batch_dims=1)(x, i, 2),
         [rand(2, 3, 4), _idx([0, 3, 3], [1, 1, 2])],
         oracle=lambda x, i: np.stack([np.take(x[b], i[b], 1) for b in range(2)]), prims=["Gather"], **LINEAR),
    Case("gather_scalar_index_of_a_vector", lambda x, i: ops.gather(x, i, 0), [rand(4), np.array(2, np.int32)],
         oracle=lambda x, i: np.asarray(x[i]), prims=["Gather"], **LINEAR),
    Case("gather_negative_index", lambda x, i: ops.gather(x, i, 0), [rand(4), _idx(-1, 0, -4)],
         oracle=lambda x, i: x[i], prims=["Gather"], **LINEAR),
    Case("index_select", lambda x, i: ops.index_select(x, 1, i), [randint(2, 3), _idx(2, 2)],
         oracle=lambda x, i: x[:, i], prims=["Gather"]),
    Case("gather_d", lambda x, i: ops.GatherD()(x, 1, i), [rand(3, 4), _idx([0, 3], [1, 1], [2, 0])],
         oracle=lambda x, i: np.take_along_axis(x, i, 1), prims=["GatherD"], **LINEAR),
    Case("gather_elements_smaller_index", lambda x, i: ops.gather_elements(x, 0, i), [rand(4, 3), _idx([3, 0], [1, 1])],
         oracle=lambda x, i: np.take_along_axis(x[:, :2], i, 0), prims=["GatherD"], **LINEAR),
    Case("gather_nd", lambda x, i: ops.GatherNd()(x, i), [rand(3, 4, 2), _idx([0, 1], [2, 3], [0, 1])],
         oracle=lambda x, i: x[i[:, 0], i[:, 1]], prims=["GatherNd"], **LINEAR),
    Case("gather_nd_full_depth", lambda x, i: ops.gather_nd(x, i),
         [rand(3, 4), _idx([[2, 1]], [[0, 3]], dtype=np.int64)],
         oracle=lambda x, i: x[i[..., 0], i[..., 1]], prims=["GatherNd"], **LINEAR),
    Case("scatter_nd", lambda i, u: ops.ScatterNd()(i, u, (4, 3)), [_idx([1], [3], [1]), rand(3, 3)],
         oracle=lambda i, u: _scatter_nd(i, u, (4, 3)), prims=["ScatterNd"], **LINEAR),
    Case("scatter_nd_fn", lambda i, u: ops.scatter_nd(i, u, (2, 2)), [_idx([0, 1], [1, 0], [0, 1]), rand(3)],
         oracle=lambda i, u: _scatter_nd(i, u, (2, 2)), prims=["ScatterNd"], **LINEAR),
    Case("tensor_scatter_update", lambda x, i, u: ops.TensorScatterUpdate()(x, i, u),
         [rand(4, 3), _idx([2], [0]), rand(2, 3, seed=3)], oracle=lambda x, i, u: _tensor_scatter(x, i, u, False),
         prims=["TensorScatterUpdate"], **LINEAR),
    Case("tensor_scatter_update_fn", lambda x, i, u: ops.tensor_scatter_update(x, i, u),
         [rand(3, 3), _idx([0, 0], [2, 1]), rand(2, seed=3)], oracle=lambda x, i, u: _tensor_scatter(x, i, u, False),
         prims=["TensorScatterUpdate"], **LINEAR),
    Case("tensor_scatter_add", lambda x, i, u: ops.TensorScatterAdd()(x, i, u),
         [rand(4, 2), _idx([1], [1], [3]), rand(3, 2, seed=3)], oracle=lambda x, i, u: _tensor_scatter(x, i, u, True),
         prims=["TensorScatterAdd"], **LINEAR),
    # an empty index (indices of shape (N, 0)) addresses the whole tensor: every update is added to all of it (the CPU
    # raised "cannot reshape array of size 0")
    Case("scatter_nd_empty_index", lambda i, u: ops.ScatterNd()(i, u, (3,)), [np.zeros((2, 0), np.int32), rand(2, 3)],
         oracle=lambda i, u: u.sum(0), prims=["ScatterNd"], **LINEAR),
    Case("tensor_scatter_add_empty_index", lambda x, i, u: ops.TensorScatterAdd()(x, i, u),
         [rand(3), np.zeros((2, 0), np.int32), rand(2, 3, seed=3)], oracle=lambda x, i, u: x + u.sum(0),
         prims=["TensorScatterAdd"], **LINEAR),
    Case("tensor_scatter_elements", lambda x, i, u: ops.TensorScatterElements(1)(x, i, u),
         [rand(2, 4), _idx([3, 0], [1, 2]), rand(2, 2, seed=3)],
         oracle=lambda x, i, u: _scatter_elements(x, 1, i, u, False), prims=["TensorScatterElements"], **LINEAR),
    Case("tensor_scatter_elements_add", lambda x, i, u: ops.tensor_scatter_elements(x, i, u, 0, "add"),
         [rand(3, 2), _idx([2, 0], [2, 2]), rand(2, 2, seed=3)],
         oracle=lambda x, i, u: _scatter_elements(x, 0, i, u, True), prims=["TensorScatterElements"], **LINEAR),
    Case("scatter_fn", lambda x, i, u: ops.scatter(x, 1, i, u), [rand(2, 3), _idx([2], [0]), rand(2, 1, seed=3)],
         oracle=lambda x, i, u: _scatter_elements(x, 1, i, u, False), prims=["TensorScatterElements"], **LINEAR),
    Case("scatter_nd_update_in_place",
         _assign_then_read(lambda p, u: ops.ScatterNdUpdate()(p, ms.Tensor([[2], [0]]), u)),
         [rand(3, 2), rand(2, 2, seed=4)],
         oracle=lambda p, u: (_tensor_scatter(p, np.array([[2], [0]]), u, False),) * 2,
         prims=["ScatterNdUpdate"], modes=EAGER_ONLY),
]

SLICE_CASES = [
    Case("strided_slice", lambda x: ops.StridedSlice()(x, (1, 0, 0), (3, 4, 2), (1, 2, 1)), [rand(4, 5, 3)],
         oracle=lambda x: x[1:3, 0:4:2, 0:2], prims=["StridedSlice"], dtypes=(np.float32, np.float16), **LINEAR),
    Case("strided_slice_masks", lambda x: ops.strided_slice(x, (0, 1, -1), (0, 3, 0), (1, 1, -2), begin_mask=1,
                                                             end_mask=5, shrink_axis_mask=2),
         [rand(3, 4, 5)], oracle=lambda x: x[:, 1, ::-2], prims=["StridedSlice"], **LINEAR),
    Case("strided_slice_ellipsis_newaxis",
         lambda x: ops.StridedSlice(0, 0, 2, 1, 0)(x, (0, 0, 1), (1, 0, 3), (1, 1, 1)),
         [rand(2, 3, 4)], oracle=lambda x: x[None, ..., 1:3], prims=["StridedSlice"], **LINEAR),
    Case("strided_slice_clamped_bounds", lambda x: ops.strided_slice(x, (-10, 1), (10, 100), (3, 1)), [randint(7, 3)],
         oracle=lambda x: x[-10:10:3, 1:100], prims=["StridedSlice"]),
    Case("strided_slice_grad", _strided_slice_grad, [rand(3, 2)], oracle=_strided_slice_grad_oracle,
         prims=["StridedSliceGrad"], **LINEAR),
    Case("slice", lambda x: ops.Slice()(x, (1, 0, 2), (2, -1, 1)), [rand(3, 2, 4)], oracle=lambda x: x[1:3, :, 2:3],
         prims=["Slice"], **LINEAR),
    Case("narrow", lambda x: ops.narrow(x, 1, 1, 2), [rand(2, 4)], oracle=lambda x: x[:, 1:3], prims=["Slice"],
         **LINEAR),
    Case("pad_prim", lambda x: ops.Pad(((1, 2), (0, 1)))(x), [rand(2, 3)], oracle=lambda x: np.pad(x, ((1, 2), (0, 1))),
         prims=["Pad"], **LINEAR),
    Case("pad_v3_constant", lambda x: ops.PadV3()(x, (1, -1, 2, 0), 0.5), [rand(2, 3, 4)],
         oracle=lambda x: _pad_oracle(x, (1, -1, 2, 0), "constant", 0.5), prims=["PadV3"], **LINEAR),
    Case("pad_fn_constant", lambda x: ops.pad(x, (2, 1), value=-1.0), [rand(2, 3)],
         oracle=lambda x: _pad_oracle(x, (2, 1), "constant", -1.0), prims=["PadV3"], **LINEAR),
    Case("pad_reflect", lambda x: ops.pad(x, (2, 1, 1, 2), mode="reflect"), [rand(2, 4, 3)],
         oracle=lambda x: _pad_oracle(x, (2, 1, 1, 2), "reflect"), prims=["PadV3"], **LINEAR),
    Case("pad_replicate", lambda x: ops.pad(x, (3, 1), mode="replicate"), [rand(2, 3)],
         oracle=lambda x: _pad_oracle(x, (3, 1), "replicate"), prims=["PadV3"], **LINEAR),
    Case("pad_circular_crop", lambda x: ops.pad(x, (2, -1, 1, 1), mode="circular"), [rand(3, 4)],
         oracle=lambda x: _pad_oracle(x, (2, -1, 1, 1), "circular"), prims=["PadV3"], **LINEAR),
]

SELECT_CASES = [
    Case("select", lambda c, x, y: ops.Select()(c, x, y), [rand(2, 3) > 0, rand(2, 3, seed=1), rand(2, 3, seed=2)],
         oracle=np.where, prims=["Select"], dtypes=(np.float32, np.float16), **LINEAR),
    Case("select_broadcast", lambda c, x, y: ops.select(c, x, y), [rand(3, 1) > 0, rand(1, 4, seed=1), rand(4, seed=2)],
         oracle=np.where, prims=["Select"], **LINEAR),
    Case("where_scalar", lambda c, x: ops.where(c, x, 0.5), [rand(2, 3) > 0, rand(2, 3, seed=1)],
         oracle=lambda c, x: np.where(c, x, 0.5), prims=["Select"], **LINEAR),
    Case("where_int_promotes", lambda c, x: ops.where(c, x, 1.5), [rand(4) > 0, randint(4)],
         oracle=lambda c, x: np.where(c, x, 1.5), prims=["Select"], out_dtype=ms.float32),
    Case("masked_fill", lambda x, m, v: ops.MaskedFill()(x, m, v), [rand(2, 3), rand(3) > 0, np.array(0.25)],
         oracle=lambda x, m, v: np.where(m, v, x), prims=["MaskedFill"], **LINEAR),
    Case("masked_fill_scalar", lambda x, m: ops.masked_fill(x, m, -1.0), [randint(2, 3), rand(2, 3) > 0],
         oracle=lambda x, m: np.where(m, -1, x), prims=["MaskedFill"], out_dtype=ms.int32),
    Case("masked_select", lambda x, m: ops.MaskedSelect()(x, m), [rand(2, 3), rand(2, 3, seed=5) > 0],
         oracle=lambda x, m: x[m], prims=["MaskedSelect"], **LINEAR),
    Case("masked_select_broadcast", lambda x, m: ops.masked_select(x, m), [rand(1, 3), rand(2, 3, seed=5) > 0],
         oracle=lambda x, m: np.broadcast_to(x, m.shape)[m], prims=["MaskedSelect"], **LINEAR),
    Case("nonzero", lambda x: ops.NonZero()(x), [randint(3, 4, high=3)], oracle=np.argwhere, prims=["NonZero"],
         out_dtype=ms.int64),
    Case("argwhere", ops.argwhere, [rand(2, 3) > 0], oracle=np.argwhere, prims=["NonZero"], out_dtype=ms.int64),
    Case("nonzero_as_tuple", lambda x: ops.nonzero(x, as_tuple=True), [rand(3, 2) > 0], oracle=np.nonzero,
         prims=["NonZero", "Unstack"]),
    # distinct values in order of first occurrence (MindSpore 2.10's CPU kernel), not sorted
    Case("unique", lambda x: ops.Unique()(x), [_idx(5, 2, 5, 1, 2)], oracle=_unique_first,
         prims=["Unique"], out_dtype=ms.int32),
    Case("unique_fn_2d", ops.unique, [rand(2, 3).round(1)], oracle=_unique_first, prims=["Unique"]),
]

SORT_CASES = [
    Case("sort", lambda x: ops.Sort()(x), [rand(3, 5)], oracle=lambda x: _sort(x, -1, False), prims=["Sort"],
         dtypes=(np.float32, np.float16), **LINEAR),
    Case("sort_descending_axis0", lambda x: ops.sort(x, 0, True), [rand(4, 3)], oracle=lambda x: _sort(x, 0, True),
         prims=["Sort"], **LINEAR),
    Case("sort_ties_stable", lambda x: ops.sort(x, descending=True), [_idx(2, 1, 2, 3, 1, dtype=np.int64)],
         oracle=lambda x: _sort(x, -1, True), prims=["Sort"]),
    Case("argsort", lambda x: ops.argsort(x, 1), [rand(2, 6)], oracle=lambda x: _sort(x, 1, False)[1],
         prims=["Sort"], out_dtype=ms.int32),
    Case("topk", lambda x: ops.TopK()(x, 2), [rand(3, 5)], oracle=lambda x: _topk(x, 2), prims=["TopK"],
         dtypes=(np.float32, np.float16), **LINEAR),
    Case("topk_ties", lambda x: ops.topk(x, 3), [_idx(4, 7, 4, 7, 1)], oracle=lambda x: _topk(x, 3), prims=["TopK"]),
    Case("topk_smallest_dim0", lambda x: ops.topk(x, 2, dim=0, largest=False), [rand(4, 3)],
         oracle=lambda x: tuple(a[:2] for a in _sort(x, 0, False)), prims=["Sort", "Slice"], **LINEAR),
]

STATE_CASES = [
    Case("assign", _assign_then_read(ops.assign), [rand(2, 3), rand(2, 3, seed=1)],
         oracle=lambda p, v: (v, v), prims=["Assign"], modes=EAGER_ONLY),
    Case("assign_prim_broadcast", _assign_then_read(lambda p, v: ops.Assign()(p, v)), [rand(2, 3), rand(3, seed=1)],
         oracle=lambda p, v: (np.broadcast_to(v, p.shape),) * 2, prims=["Assign"], modes=EAGER_ONLY),
    Case("assign_add", _assign_then_read(ops.assign_add), [rand(3), rand(3, seed=1)],
         oracle=lambda p, v: (p + v, p + v), prims=["AssignAdd"], modes=EAGER_ONLY),
    Case("assign_sub", _assign_then_read(lambda p, v: ops.AssignSub()(p, v)), [rand(3), rand(3, seed=1)],
         oracle=lambda p, v: (p - v, p - v), prims=["AssignSub"], modes=EAGER_ONLY),
]

# MindSpore 2.10's answers where ours once differed (issue 16; tests/api/test_disagreements.py replays its numbers)
MS210_CASES = [
    Case("squeeze_keeps_non_one_axis", lambda x: ops.squeeze(x, (0, 1)), [rand(1, 3, 2)],
         oracle=lambda x: x.reshape(3, 2), prims=["Squeeze"], grad=True),
    Case("stack_one_tensor", ops.stack, [rand(3, 4)], oracle=lambda x: x[None], prims=["Stack"], grad=True),
    Case("unstack_vector_to_scalars", ops.unstack, [rand(3)], oracle=lambda x: tuple(np.asarray(v) for v in x),
         prims=["Unstack"]),
]

CASES = SHAPE_CASES + METADATA_CASES + CREATION_CASES + GATHER_CASES + SLICE_CASES + SELECT_CASES + SORT_CASES + \
    STATE_CASES + MS210_CASES
