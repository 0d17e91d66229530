"""Internal utilities of ``mindspore.scipy``: argument conversion, norms, the matrix-vector product of dense,
sparse (``CSRTensor``) and functional operators, and ``grad`` (the gradient of a scalar function of one tensor,
``GradOperation()``), which ``minimize``/``line_search`` use when no Jacobian is given."""
from mindspore import ops
from mindspore.common import CSRTensor, Tensor
from mindspore.common import dtype as mstype
from mindspore.ops.composite import GradOperation
from mindspore.scipy.utils_const import _raise_value_error, pack  # noqa: F401  (2.10 exposes pack here)

grad = GradOperation(get_all=False, get_by_list=False, sens_param=False)


def _convert_64_to_32(tensor):
    """float64/int64 as float32/int32 (Python numbers become single precision tensors, as in MindSpore)."""
    if tensor.dtype == mstype.float64:
        return tensor.astype(mstype.float32)
    if tensor.dtype == mstype.int64:
        return tensor.astype(mstype.int32)
    return tensor


def _to_tensor(*args, dtype=None):
    """Each argument as a Tensor: Python numbers and sequences converted (to ``dtype``, else to 32 bits)."""
    res = ()
    for arg in args:
        if isinstance(arg, (int, float, bool, list, tuple)):
            arg = Tensor(arg)
            arg = _convert_64_to_32(arg) if dtype is None else arg.astype(dtype)
        elif not isinstance(arg, Tensor):
            _raise_value_error("Expect input to be array like.")
        res += (arg,)
    return res[0] if len(res) == 1 else res


def _to_scalar(arr):
    """A 0-d Tensor as its Python number; Python numbers and tensors of higher rank unchanged."""
    if isinstance(arr, (int, float, bool)):
        return arr
    if isinstance(arr, Tensor):
        return arr if arr.shape else arr.asnumpy().item()
    raise ValueError("{} are not supported.".format(type(arr)))


def _eps(x):
    """The machine epsilon of ``x``'s dtype, as a 0-d tensor."""
    return ops.eps(x[(0,) * x.ndim])


def _safe_normalize(x, threshold=None):
    """``x / |x|`` and ``|x|``, both zero where ``|x|`` is at most ``threshold`` (the dtype's epsilon)."""
    norm = ops.sqrt(ops.reduce_sum(x * x))
    if threshold is None:
        threshold = _eps(x) if x.dtype in (mstype.float32, mstype.float64) else 0
    use_norm = norm > threshold
    normalized_x = ops.select(use_norm, x / norm, ops.zeros_like(x))
    norm = ops.select(use_norm, norm, ops.zeros_like(norm))
    return normalized_x, norm


def sparse_dot(a, b):
    """The product of the CSRTensor ``a`` and the dense ``b`` (a vector or a matrix)."""
    b_aligned = ops.reshape(b, (b.shape[0], -1))
    res = ops.csr_mv(a, b_aligned)
    return ops.reshape(res, a.shape[:-1] + b.shape[1:])


def _matvec(a, b):
    """``a @ b`` for a dense Tensor or CSRTensor ``a``, or ``a(b)`` for a function."""
    if isinstance(a, Tensor):
        return ops.matmul(a, b)
    if isinstance(a, CSRTensor):
        return sparse_dot(a, b)
    return a(b)


def _norm(x, ord_=None):
    """The max-abs norm (``ord_`` inf) or the 2-norm of a vector."""
    if ord_ == float("inf"):
        return ops.reduce_max(ops.abs(x))
    return ops.sqrt(ops.reduce_sum(x ** 2))


def _nd_transpose(a):
    """``a`` with its last two axes swapped."""
    if a.ndim < 2:
        _raise_value_error("to do _nd_transpose for input a's ndim is not greater or equal to 2d, which is invalid.")
    return ops.swapaxes(a, -1, -2)
