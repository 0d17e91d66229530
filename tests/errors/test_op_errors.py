"""Bad input raises TypeError/ValueError in MindSpore's "For 'Op', ... but got ..." form.

Never a NumPy traceback, never a crash: each case checks the exception type, that the message
names the operator in MindSpore's form, and that no frame of the raised error's message comes
from NumPy.
"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops


def t(*shape, dtype=np.float32):
    return ms.Tensor(np.ones(shape, dtype))


CASES = [
    # (id, callable, exception, operator named in the message)
    ("matmul_inner_dim", lambda: ops.MatMul()(t(2, 3), t(4, 5)), ValueError, "MatMul"),
    ("matmul_rank", lambda: ops.MatMul()(t(2, 3, 4), t(4, 5)), ValueError, "MatMul"),
    ("add_broadcast", lambda: ops.add(t(2, 3), t(4, 3)), ValueError, "Add"),
    ("add_non_tensor", lambda: ops.add(t(2), "a"), TypeError, "Add"),
    ("exp_non_tensor", lambda: ops.Exp()([1.0, 2.0]), TypeError, "Exp"),
    ("reshape_size", lambda: ops.reshape(t(2, 3), (4, 2)), ValueError, "Reshape"),
    ("reduce_axis_range", lambda: ops.ReduceSum()(t(2, 3), 5), ValueError, "ReduceSum"),
    ("concat_rank", lambda: ops.Concat(0)((t(2, 3), t(2))), ValueError, "Concat"),
    ("concat_axis", lambda: ops.Concat(3)((t(2, 3), t(2, 3))), ValueError, "Concat"),
    ("transpose_perm", lambda: ops.Transpose()(t(2, 3), (0,)), ValueError, "Transpose"),
    ("softmax_axis", lambda: ops.Softmax(axis=4)(t(2, 3)), ValueError, "Softmax"),
    ("conv2d_rank", lambda: ops.Conv2D(4, 3)(t(3, 4), t(4, 3, 3, 3)), ValueError, "Conv2D"),
    ("conv2d_channels", lambda: ops.Conv2D(4, 3)(t(1, 2, 8, 8), t(4, 3, 3, 3)), ValueError, "Conv2D"),
    ("maxpool_rank", lambda: ops.MaxPool(2, 2)(t(3, 8, 8)), ValueError, "MaxPool"),
    ("gather_index_dtype", lambda: ops.Gather()(t(4, 3), t(2), 0), TypeError, "Gather"),
    ("cast_bad_dtype", lambda: ops.cast(t(2), "nope"), TypeError, ""),
    ("sqrt_int_ok_or_typed", lambda: ops.Sqrt()("x"), TypeError, "Sqrt"),
    ("onehot_depth", lambda: ops.OneHot()(ms.Tensor([1, 2], ms.int32), -1, ms.Tensor(1.0), ms.Tensor(0.0)),
     ValueError, "OneHot"),
    ("split_uneven", lambda: ops.Split(0, 3)(t(4, 2)), ValueError, "Split"),
    ("multinomial_no_categories", lambda: ops.multinomial(t(0, 0), 1), ValueError, "Multinomial"),
    ("reverse_sequence_same_dims", lambda: ops.ReverseSequence(1, -1)(t(2, 3), ms.Tensor([1, 2], ms.int32)),
     ValueError, "ReverseSequence"),
    ("sce_labels", lambda: ops.SoftmaxCrossEntropyWithLogits()(t(2, 3), t(2, 4)), ValueError,
     "SoftmaxCrossEntropyWithLogits"),
    ("squeeze_axis_range", lambda: ops.Squeeze(5)(t(2, 3)), ValueError, "Squeeze"),
    ("layernorm_axis", lambda: ops.LayerNorm(begin_norm_axis=3)(t(2, 3), t(3), t(3)), ValueError, "LayerNorm"),
    # an empty axis has no median (the kernel once raised NumPy's IndexError)
    ("median_empty_axis", lambda: ops.median(t(2, 0), 1), ValueError, "Median"),
    ("median_global_empty", lambda: ops.Median(global_median=True)(t(0, 3)), ValueError, "Median"),
    # a label after a blank-or-larger value (which ends the sequence): 2.10's CPU kernel raises RuntimeError "For
    # 'CTCLoss', the value of labels_values[..] must be in the range of [0, num_classes)" (the kernel once raised
    # NumPy's IndexError)
    ("ctc_label_range", lambda: ops.CTCLoss()(t(4, 1, 3), ms.Tensor(np.array([[0, 0], [0, 1]], np.int64)),
                                              ms.Tensor(np.array([3, 1], np.int32)), ms.Tensor([4], ms.int32)),
     RuntimeError, "CTCLoss"),
]


@pytest.mark.parametrize("fn,exc,op", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_message(fn, exc, op):
    with pytest.raises(exc) as info:
        fn()
    msg = str(info.value)
    if op:
        assert f"For '{op}'" in msg, msg
    tb = info.traceback
    assert "numpy" not in str(tb[-1].path), f"raised from inside NumPy: {tb[-1].path}\n{msg}"


def test_index_out_of_range():
    with pytest.raises(IndexError, match="out of bounds"):
        t(3, 2)[5]


def test_set_context_unknown_key():
    with pytest.raises(ValueError, match="not recognized"):
        ms.set_context(no_such_key=1)


def test_set_context_bad_mode():
    with pytest.raises(ValueError, match="mode"):
        ms.set_context(mode=7)


def test_tensor_none():
    with pytest.raises(TypeError, match="can not be None"):
        ms.Tensor(None)


@pytest.mark.parametrize("call", [lambda: ops.NPUAllocFloatStatus()(),
                                  lambda: ops.NPUGetFloatStatus()(ms.Tensor(np.zeros(8, np.float32))),
                                  lambda: ops.NPUClearFloatStatus()(ms.Tensor(np.zeros(8, np.float32)))])
def test_ascend_only_float_status_ops_explain_themselves(call):
    with pytest.raises(RuntimeError, match="runs only on Ascend.*ops.FloatStatus"):
        call()


def test_float_status_shape_rule():
    with pytest.raises(ValueError, match="For 'NPUGetFloatStatus'.*shape \\(8,\\)"):
        ops.NPUGetFloatStatus()(ms.Tensor(np.zeros(4, np.float32)))


class _ScatterInto(ms.nn.Cell):
    def __init__(self, dtype):
        super().__init__()
        self.x = ms.Parameter(ms.Tensor(np.zeros((3, 2), dtype)), name="x")

    def construct(self, indices, updates):
        return ops.ScatterNdUpdate()(self.x, indices, updates)


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("x_dtype, updates_dtype, written", [
    (np.float32, np.int32, [1.0, 2.0, 0.0, 0.0, 3.0, 4.0]), (np.float32, np.bool_, [1.0, 1.0, 0.0, 0.0, 1.0, 1.0]),
    (np.int32, np.float32, "Int32"), (np.float16, np.float32, "Float16"), (np.float32, np.float64, "Float32"),
    (np.int32, np.int64, "Int32")])
def test_in_place_update_converts_updates_to_the_parameter_never_the_parameter(mode, x_dtype, updates_dtype, written):
    """2.10 (tutorial "Network Construction and Training Error Analysis"): the updates of a Parameter are converted
    to its dtype; where that would narrow them, a TypeError says the Parameter cannot be converted."""
    ms.set_context(mode=mode)
    try:
        net = _ScatterInto(x_dtype)
        indices = ms.Tensor(np.array([[0], [2]], np.int32))
        updates = ms.Tensor(np.array([[1, 2], [3, 4]], updates_dtype))
        if isinstance(written, list):
            out = net(indices, updates)
            assert out.dtype == ms.float32 and out.asnumpy().ravel().tolist() == written
            assert net.x.asnumpy().ravel().tolist() == written
        else:
            with pytest.raises(TypeError, match=rf"Data type conversion is not supported for a 'Parameter', .*"
                                                rf"primitive\[ScatterNdUpdate\] is {written}, which cannot be "
                                                rf"converted to data type \w+ automatically"):
                net(indices, updates)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("name, fn, shape, total", [
    ("ReduceSum", lambda x: ops.ReduceSum()(x, (1, 3)), (2,) * 8, 523776.0),
    ("ReduceMean", lambda x: ops.ReduceMean()(x, 2), (2,) * 9, 261888.0),
    ("ReduceMax", lambda x: ops.ReduceMax()(x, 0), (2,) * 9, 392960.0),
    ("Argmax", lambda x: ops.Argmax(axis=3)(x), (2,) * 9, 512.0),
    ("Median", lambda x: ops.Median(axis=1)(x)[0], (2,) * 9, 196352.0)])
def test_reductions_take_more_than_eight_dimensions(name, fn, shape, total):
    """2.10's CPU reductions reduce a 10-D tensor (the 8-D limit the tutorial "Network Construction and Training
    Error Analysis" shows is Ascend's TBE kernels'); the numbers are 2.10's."""
    out = fn(ms.Tensor(np.arange(2 ** 10, dtype=np.float32).reshape((2,) * 10)))
    assert out.shape == shape and float(out.asnumpy().astype(np.float64).sum()) == total
