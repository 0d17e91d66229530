"""The calls whose results ``make_ops_more_fixture.py`` records from real MindSpore 2.10 and
``test_ops_more.py`` compares ours with: ``CASES = {name: fn}``, each ``fn()`` built on whichever
``mindspore`` is imported (so one table serves both sides), returning a tensor, a tuple of tensors or a
Python value. Inputs are fixed arrays; nothing random.
"""
import numpy as np

import mindspore as ms
from mindspore import ops


def f32(a):
    return ms.Tensor(np.asarray(a, np.float32))


def f64(a):
    return ms.Tensor(np.asarray(a, np.float64))


def i32(a):
    return ms.Tensor(np.asarray(a, np.int32))


def i64(a):
    return ms.Tensor(np.asarray(a, np.int64))


def _scatter_in_place(prim, indices, updates):
    param = ms.Parameter(f32([[1, -2], [3, 4], [0.5, 6]]), name="scattered")
    out = prim(param, indices, updates)
    return out, ms.Tensor(param.asnumpy())


_SIGNED = [[-2.5, -0.7, 0.0, 0.3], [1.1, 2.0, 3.7, 9.5]]
_POS = [[0.4, 0.9, 1.3, 2.2], [3.1, 4.5, 7.0, 12.0]]
_X = [[1.0, -2.0, 3.0, 0.5], [4.0, 5.0, -6.0, 1.5]]
_CTC_LP = np.log(np.random.default_rng(0).dirichlet(np.ones(4), size=(5, 2)))
_Z = np.array([1 + 2j, -3 + 0.5j, 0.0 + 0j, -1 - 1j], np.complex64)

CASES = {
    # --- special functions (ops/_defs/math_special.py) --------------------------------------------------
    "bessel_i0": lambda: ops.bessel_i0(f32(_SIGNED)),
    "bessel_i0e": lambda: ops.bessel_i0e(f32(_SIGNED)),
    "bessel_i1": lambda: ops.bessel_i1(f32(_SIGNED)),
    "bessel_i1e": lambda: ops.bessel_i1e(f32(_SIGNED)),
    "bessel_j0": lambda: ops.bessel_j0(f32(_SIGNED)),
    "bessel_j1": lambda: ops.bessel_j1(f32(_SIGNED)),
    "bessel_y0": lambda: ops.bessel_y0(f32(_POS)),
    "bessel_y1": lambda: ops.bessel_y1(f32(_POS)),
    "bessel_k0": lambda: ops.bessel_k0(f32(_POS)),
    "bessel_k0e": lambda: ops.bessel_k0e(f32(_POS)),
    "bessel_k1": lambda: ops.bessel_k1(f32(_POS)),
    "bessel_k1e": lambda: ops.bessel_k1e(f32(_POS)),
    "bessel_j0_f64": lambda: ops.bessel_j0(f64(_SIGNED)),
    "i0": lambda: ops.i0(f32(_SIGNED)),
    "lgamma": lambda: ops.lgamma(f32(_POS)),
    "lgamma_f16": lambda: ops.lgamma(ms.Tensor(np.asarray(_POS, np.float16))),
    "lgamma_negative": lambda: ops.lgamma(f32([-0.5, -1.5, -2.5])),
    "digamma": lambda: ops.digamma(f32(_POS)),
    "polygamma": lambda: ops.polygamma(i64(2), f32(_POS)),
    "polygamma_1": lambda: ops.Polygamma()(i64(1), f64(_POS)),
    "mvlgamma": lambda: ops.mvlgamma(f32([[2.5, 3.0], [4.5, 7.0]]), 3),
    "igamma": lambda: ops.igamma(f32(_POS), f32(_POS[::-1])),
    "igammac": lambda: ops.igammac(f32(_POS), f32(_POS[::-1])),
    "zeta": lambda: ops.zeta(f32([[2.0, 3.0, 4.5, 1.5]]), f32(_POS)),
    "nextafter": lambda: ops.nextafter(f32([1.0, -2.0, 3.5]), f32([2.0, -3.0, 0.0])),
    "nextafter_f64": lambda: ops.nextafter(f64([1.0, -2.0]), f64([0.0, 5.0])),
    "betainc": lambda: ops.Betainc()(f32([0.5, 1.0, 2.0, 3.5]), f32([2.0, 0.5, 3.0, 1.5]), f32([0.2, 0.5, 0.3, 0.9])),
    # --- math_misc primitives ------------------------------------------------------------------------------
    "Cross": lambda: ops.Cross(1)(f32([[1, 2, 3], [0, 1, 5]]), f32([[4, 5, 6], [2, -1, 0]])),
    "Ger": lambda: ops.Ger()(f32([1, 2]), f32([3, 4, 5])),
    "Logit": lambda: ops.Logit(0.1)(f32([0.05, 0.5, 0.99])),
    "Logit_default": lambda: ops.Logit()(f32([0.05, 0.5, 0.7])),
    "GLU": lambda: ops.GLU(-1)(f32(_X)),
    "Cdist": lambda: ops.Cdist(2.0)(f32([[[0, 0], [1, 1]]]), f32([[[1, 0], [3, 4], [-1, 2]]])),
    "Cdist_p1": lambda: ops.Cdist(1.0)(f32([[[0, 0], [1, 1]]]), f32([[[1, 0], [3, 4]]])),
    "Renorm": lambda: ops.Renorm(2, 0, 1.0)(f32(_X)),
    "Renorm_p1": lambda: ops.Renorm(1, 1, 5.0)(f32(_X)),
    "SquareSumAll": lambda: ops.SquareSumAll()(f32([1, 2]), f32([3, 4])),
    "CumulativeLogsumexp": lambda: ops.CumulativeLogsumexp()(f32([[1, 2, 3], [0, -1, 4]]), ms.Tensor(1)),
    "CumulativeLogsumexp_rev": lambda: ops.CumulativeLogsumexp(False, True)(f32([1, 2, 3]), ms.Tensor(0)),
    "Eps": lambda: ops.Eps()(f32([1, 2])),
    "Bincount": lambda: ops.Bincount()(i32([0, 1, 1, 3]), ms.Tensor(np.int32(5)), f32([1, 2, 3, 4])),
    "Histogram": lambda: ops.Histogram(4, 0.0, 4.0)(f32([0.5, 1, 3.9, 4.0, 5])),
    "SearchSorted": lambda: ops.SearchSorted()(f32([1, 3, 5, 7]), f32([3, 6, 9])),
    "Bucketize": lambda: ops.Bucketize([1., 3., 5.])(f32([[0, 3, 6], [1, 5, 2]])),
    "LowerBound": lambda: ops.LowerBound()(f32([[1, 3, 5, 7]]), f32([[3, 6, 9]])),
    "UpperBound": lambda: ops.UpperBound()(f32([[1, 3, 5, 7]]), f32([[3, 6, 9]])),
    "ApproximateEqual": lambda: ops.ApproximateEqual(0.5)(f32([1, 2]), f32([1.2, 3])),
    "LogSpace": lambda: ops.LogSpace(3, 2)(f32(0.0), f32(2.0)),
    # --- array_more primitives -------------------------------------------------------------------------------
    "Trace": lambda: ops.Trace()(f32(_X)),
    "Diag": lambda: ops.Diag()(f32([1., 2.])),
    "DiagPart": lambda: ops.DiagPart()(f32([[1., 2.], [3., 4.]])),
    "IndexAdd": lambda: ops.IndexAdd(0)(ms.Parameter(f32([[1, 2], [3, 4], [5, 6]]), name="ia"), i32([0, 2]),
                                        f32([[1, 1], [2, 2]])),
    "IndexFill": lambda: ops.IndexFill()(f32(_X), 1, i32([0, 2]), f32(9.0)),
    "MaskedScatter": lambda: ops.MaskedScatter()(f32([1, 2, 3]), ms.Tensor(np.array([True, False, True])),
                                                 f32([7, 8, 9])),
    "FillDiagonal": lambda: ops.FillDiagonal(5.0)(f32(np.zeros((3, 2)))),
    "FillDiagonal_wrap": lambda: ops.FillDiagonal(5.0, True)(f32(np.zeros((7, 3)))),
    "MatrixBandPart": lambda: ops.MatrixBandPart()(f32(np.ones((3, 3))), 1, 0),
    "DepthToSpace": lambda: ops.DepthToSpace(2)(f32(np.arange(16.0).reshape(1, 8, 1, 2))),
    "SpaceToDepth": lambda: ops.SpaceToDepth(2)(f32(np.arange(16.0).reshape(1, 2, 2, 4))),
    "UnravelIndex": lambda: ops.UnravelIndex()(i32([5, 7, 11]), i32([3, 4])),
    "InplaceAdd": lambda: ops.InplaceAdd((0, 1))(f32(_X), f32([[1, 1, 1, 1], [2, 2, 2, 2]])),
    "InplaceSub": lambda: ops.InplaceSub(1)(f32(_X), f32([[1, 1, 1, 1]])),
    "InplaceUpdate": lambda: ops.InplaceUpdate((1,))(f32(_X), f32([[9, 9, 9, 9]])),
    "InplaceUpdateV2": lambda: ops.InplaceUpdateV2()(f32(_X), i32([0]), f32([[9, 9, 9, 9]])),
    "ReverseSequence": lambda: ops.ReverseSequence(1)(f32(np.arange(9.0).reshape(3, 3)), i32([1, 2, 3])),
    "TrilIndices": lambda: ops.TrilIndices(3, 4, 1)(),
    "TriuIndices": lambda: ops.TriuIndices(4, 3, -1)(),
    "UniqueConsecutive": lambda: ops.UniqueConsecutive(True, True)(i32([1, 1, 2, 2, 3, 1])),
    # --- deprecated names ---------------------------------------------------------------------------------
    "TensorAdd": lambda: ops.TensorAdd()(f32(_X), f32(_SIGNED)),
    "Gelu": lambda: ops.Gelu()(f32(_X)),
    "FastGelu": lambda: ops.FastGelu()(f32(_X)),
    "Pack": lambda: ops.Pack(1)((f32(_X), f32(_SIGNED))),
    "Unpack": lambda: ops.Unpack(1)(f32(_X)),
    # --- complex ------------------------------------------------------------------------------------------
    "Complex": lambda: ops.Complex()(f32([1, 2]), f32([3, -4])),
    "Real": lambda: ops.Real()(ms.Tensor(_Z)),
    "Imag": lambda: ops.Imag()(ms.Tensor(_Z)),
    "Conj": lambda: ops.Conj()(ms.Tensor(_Z)),
    "Angle": lambda: ops.Angle()(ms.Tensor(_Z)),
    "ComplexAbs": lambda: ops.ComplexAbs()(ms.Tensor(_Z)),
    "polar": lambda: ops.polar(f32([1, 2]), f32([0, 1])),
    "view_as_real": lambda: ops.view_as_real(ms.Tensor(_Z)),
    "conj": lambda: ops.conj(ms.Tensor(_Z)),
    "real_of_real": lambda: ops.real(f32([-1, 2])),
    # --- functions ----------------------------------------------------------------------------------------
    "affine_grid": lambda: ops.affine_grid(f32([[[1, 0, 0.5], [0, 1, 0]]]), (1, 1, 2, 3), False),
    "affine_grid_corners": lambda: ops.affine_grid(f32([[[1, 0.2, 0.], [0, 1, 0.1]]]), (1, 1, 2, 2), True),
    "affine_grid_3d": lambda: ops.affine_grid(f32([[[1, 0, 0, 0.1], [0, 1, 0, 0], [0.2, 0, 1, 0]]]),
                                              (1, 1, 2, 2, 3), False),
    "bounding_box_encode": lambda: ops.bounding_box_encode(f32([[2, 2, 2, 3], [1, 1, 5, 4]]),
                                                           f32([[1, 2, 1, 4], [0, 2, 6, 3]]), (0., 0.1, 0., 0.),
                                                           (1., 2., 1., 0.5)),
    "bounding_box_decode": lambda: ops.bounding_box_decode(f32([[4, 1, 2, 1], [2, 2, 2, 3]]),
                                                           f32([[3, 1, 2, 2], [1, 2, 1, 4]]), (768, 1280),
                                                           (0., 0., 0., 0.), (1., 1., 1., 1.), 0.016),
    "check_valid": lambda: ops.check_valid(
        ms.Tensor(np.array([[20, 20, 50, 50], [10, 10, 100, 100], [-5, 1, 3, 4], [0, 0, 89, 79], [0, 0, 90, 80]],
                           np.float16)), ms.Tensor(np.array([80, 90, 1.0], np.float16))),
    "batch_dot": lambda: ops.batch_dot(f32(np.arange(24).reshape(2, 3, 4)), f32(np.arange(24).reshape(2, 4, 3)),
                                       (-1, -2)),
    "batch_dot_2d": lambda: ops.batch_dot(f32(np.arange(6).reshape(2, 3)), f32(np.arange(6).reshape(2, 3))),
    "matrix_diag": lambda: ops.matrix_diag(f32([[1, 2], [3, 4]]), k=1, num_rows=-1, num_cols=-1,
                                           padding_value=f32(0)),
    "matrix_diag_band": lambda: ops.matrix_diag(f32([[1, 2, 3], [4, 5, 0]]), k=i32([-1, 0]), num_rows=3, num_cols=3,
                                                padding_value=f32(9)),
    "matrix_diag_band_left": lambda: ops.matrix_diag(f32([[1, 2, 0], [4, 5, 6]]), k=i32([0, 1]), num_rows=3,
                                                     num_cols=4, padding_value=f32(-1), align="LEFT_RIGHT"),
    "matrix_diag_part": lambda: ops.matrix_diag_part(f32(np.arange(12).reshape(3, 4)), i32(1), f32(0)),
    "matrix_diag_part_band": lambda: ops.matrix_diag_part(f32(np.arange(12).reshape(3, 4)), i32([-1, 1]), f32(9)),
    "matrix_set_diag": lambda: ops.matrix_set_diag(f32(np.zeros((3, 4))), f32([1, 2, 3]), i32(0)),
    "matrix_set_diag_band": lambda: ops.matrix_set_diag(f32(np.zeros((3, 3))), f32([[1, 2, 0], [3, 4, 5]]),
                                                        i32([0, 1])),
    "batch_to_space_nd": lambda: ops.batch_to_space_nd(f32(np.arange(8).reshape(4, 1, 1, 2)), (2, 2),
                                                       [[0, 0], [0, 1]]),
    "space_to_batch_nd": lambda: ops.space_to_batch_nd(f32(np.arange(8).reshape(1, 1, 2, 4)), (2, 2),
                                                       [[0, 0], [0, 2]]),
    "kaiser_window": lambda: ops.kaiser_window(5),
    "kaiser_window_symmetric": lambda: ops.kaiser_window(4, False, 5.0, dtype=ms.float32),
    "max_unpool1d": lambda: ops.max_unpool1d(f32([[[2, 4, 6]]]), i64([[[1, 3, 4]]]), 2),
    "max_unpool3d": lambda: ops.max_unpool3d(f32([[[[[2.0, 4.0]]]]]), i64([[[[[1, 7]]]]]), 2),
    "col2im": lambda: ops.col2im(f32(np.arange(16).reshape(1, 1, 4, 4)), i32([3, 3]), [2, 2], [1, 1], [0, 0],
                                 [1, 1]),
    "crop_and_resize": lambda: ops.crop_and_resize(f32(np.arange(32).reshape(1, 4, 4, 2)),
                                                   f32([[0, 0, 1, 1], [0.25, 0.25, 0.75, 0.75]]), i32([0, 0]), (2, 3)),
    "crop_and_resize_nearest": lambda: ops.crop_and_resize(f32(np.arange(32).reshape(1, 4, 4, 2)),
                                                           f32([[0.1, 0.2, 0.9, 0.7]]), i32([0]), (3, 2), "nearest"),
    "crop_and_resize_extrapolate": lambda: ops.crop_and_resize(f32(np.arange(32).reshape(1, 4, 4, 2)),
                                                               f32([[-0.5, 0.2, 0.9, 1.3]]), i32([0]), (3, 2),
                                                               "bilinear", 7.0),
    "rrelu_fixed_slope": lambda: ops.rrelu(f32([-1.0, 2.0, -3.0]), 0.25, 0.25),
    "index_add": lambda: ops.index_add(ms.Parameter(f32(np.ones((3, 2))), name="p1"), i32([0, 2]),
                                       f32([[1, 2], [3, 4]]), 0),
    "inplace_add": lambda: ops.inplace_add(f32(np.ones((3, 2))), f32([[1, 2]]), 1),
    "inplace_sub": lambda: ops.inplace_sub(f32(np.ones((3, 2))), f32([[1, 2], [3, 4]]), (2, 0)),
    "inplace_update": lambda: ops.inplace_update(f32(np.ones((3, 2))), f32([[1, 2], [3, 4]]), (0, 2)),
    "inplace_index_add": lambda: ops.inplace_index_add(ms.Parameter(f32(np.ones((3, 2))), name="p2"), i32([0, 0]),
                                                       f32([[1, 2], [3, 4]]), 0),
    "diff_ext": lambda: ops.diff_ext(f32(_X), 1, 1),
    "lstsq": lambda: ops.lstsq(f32([[1, 2], [3, 4], [5, 7]]), f32([[1], [2], [3]])),
    "matrix_solve": lambda: ops.matrix_solve(f32([[2, 1], [1, 3]]), f32([[1], [2]])),
    "matrix_solve_adjoint": lambda: ops.matrix_solve(f32([[2, 1], [0, 3]]), f32([[1, 0], [2, 1]]), True),
    # --- CTC ------------------------------------------------------------------------------------------------
    "ctc_loss_none": lambda: ops.ctc_loss(f32(_CTC_LP), i32([[1, 2, 2], [3, 1, 0]]), i32([5, 4]), i32([3, 2]), 0,
                                          "none"),
    "ctc_loss_mean_zero_length": lambda: ops.ctc_loss(f32(_CTC_LP), i32([[1, 0, 0], [3, 1, 0]]), i32([5, 4]),
                                                      i32([0, 2]), 2, "mean", True),
    "ctc_loss_sum_grad": lambda: ms.grad(lambda a: ops.ctc_loss(a, i32([[1, 2, 2], [3, 1, 0]]), i32([5, 4]),
                                                                i32([3, 2]), 0, "sum")[0])(f32(_CTC_LP)),
    "ctc_greedy_decoder": lambda: ops.ctc_greedy_decoder(f32(_CTC_LP[:, :, ::-1]), i32([5, 3])),
    "ctc_greedy_decoder_unmerged": lambda: ops.ctc_greedy_decoder(f32(_CTC_LP), i32([5, 4]), False),
    # --- Fourier transforms ------------------------------------------------------------------------------------
    "fft": lambda: ops.fft(f32(_X)),
    "fft_n_dim_ortho": lambda: ops.fft(f32(_X), 3, 0, "ortho"),
    "ifft": lambda: ops.ifft(ms.Tensor(_Z), 6),
    "fft2": lambda: ops.fft2(f32(_X), (3, 2), norm="forward"),
    "ifft2": lambda: ops.ifft2(f64(_X)),
    "fftn": lambda: ops.fftn(f32(np.arange(24).reshape(2, 3, 4)), (2, 5)),
    "ifftn": lambda: ops.ifftn(f32(np.arange(24).reshape(2, 3, 4)), None, (0, 2)),
    "rfft": lambda: ops.rfft(f32(_X)),
    "rfft_n": lambda: ops.rfft(f32(_X), 7, 1, "forward"),
    "irfft": lambda: ops.irfft(ops.rfft(f32(_X)), 4),
    "irfft_default": lambda: ops.irfft(f32(_X)),
    "rfft2": lambda: ops.rfft2(f32(np.arange(24).reshape(2, 3, 4))),
    "irfft2": lambda: ops.irfft2(ms.Tensor(_Z.reshape(2, 2)), (3, 3)),
    "rfftn": lambda: ops.rfftn(f64(np.arange(24).reshape(2, 3, 4)), norm="ortho"),
    "irfftn": lambda: ops.irfftn(f32(_X)),
    "hfft": lambda: ops.hfft(f32(_X)),
    "ihfft": lambda: ops.ihfft(f32(_X)),
    "hfft2": lambda: ops.hfft2(ms.Tensor(_Z.reshape(2, 2)), (2, 3)),
    "ihfft2": lambda: ops.ihfft2(f32(_X)),
    "hfftn": lambda: ops.hfftn(f32(_X)),
    "ihfftn": lambda: ops.ihfftn(f32(np.arange(24).reshape(2, 3, 4)), (3, 4)),
    "fftshift": lambda: ops.fftshift(f32(np.arange(15).reshape(3, 5))),
    "ifftshift": lambda: ops.ifftshift(f32(np.arange(15).reshape(3, 5)), 1),
    "fftfreq": lambda: ops.fftfreq(5, 0.5),
    "rfftfreq": lambda: ops.rfftfreq(6, dtype=ms.float64),
    "stft": lambda: ops.stft(f32(np.sin(np.arange(16))), 8),
    "stft_hop_complex": lambda: ops.stft(f32(np.sin(np.arange(16))), 8, hop_length=4, return_complex=True),
    "stft_uncentred": lambda: ops.stft(f32(np.sin(np.arange(16))), 8, center=False, return_complex=False),
    "stft_window_normalized": lambda: ops.stft(f32(np.sin(np.arange(16))), 8, window=f32(np.hanning(8)),
                                               normalized=True, return_complex=True),
    "stft_batched_short_window": lambda: ops.stft(f32(np.cos(np.arange(24)).reshape(2, 12)), 6, 3, 4,
                                                  f32([0.5, 1.0, 1.0, 0.5]), True, "CONSTANT"),
    "fft_grad": lambda: ms.grad(lambda a: ops.real(ops.fft(a)).sum() + ops.imag(ops.fft(a))[1])(f64([0, 1, 2, 3])),
    "irfft_rfft_grad": lambda: ms.grad(lambda a: (ops.irfft(ops.rfft(a) * 2, 4) * f64([1, 2, 3, 4])).sum())(
        f64([0, 1, 2, 3])),
    # --- linear algebra (singular vectors up to sign: compared in absolute value) --------------------------------
    "svd": lambda: tuple(ops.abs(t) for t in ops.svd(f32([[1, 2], [3, 4], [5, 7]]))),
    "svd_full": lambda: tuple(ops.abs(t) for t in ops.svd(f32([[1, 2], [3, 4], [5, 7]]), True)),
    "svd_values": lambda: ops.svd(f32([[[1, 2, 0], [3, 4, 1]], [[0, 1, 1], [2, 0, 5]]]), compute_uv=False),
    "svd_grad": lambda: ms.grad(lambda t: (ops.svd(t)[0] * f64([1.0, 2.0])).sum())(f64([[1, 2], [3, 4], [5, 7]])),
    "pinv": lambda: ops.pinv(f32([[1, 2], [3, 4], [5, 7]])),
    "pinv_rank_deficient": lambda: ops.pinv(f32([[1, 2], [2, 4]])),
    "eigvals": lambda: ops.eigvals(f32([[2, 1], [1, 3]])),
    "eig": lambda: ops.eig(f32([[2, 1], [0, 3]])),
    "geqrf": lambda: ops.geqrf(f32([[1, 2], [3, 4], [5, 7]])),
    "orgqr": lambda: ops.orgqr(*ops.geqrf(f32([[1, 2], [3, 4], [5, 7]]))),
    "lu_unpack": lambda: ops.lu_unpack(f32([[3, 4], [0.3333, 0.6667]]), i32([2, 2])),
    "lu_unpack_wide": lambda: ops.lu_unpack(f32([[3, 4, 1], [0.5, 2, 2]]), i32([2, 2])),
    "lu_solve": lambda: ops.lu_solve(f32([[1.], [2], [3]]), f32([[2.0, 1.0, 0.0], [0.5, 2.5, 1.0], [0.0, 0.4, 3.6]]),
                                     i32([1, 2, 3])),
    "Svd": lambda: ops.Svd(False, False)(f32([[1, 2], [3, 4], [5, 7]]))[0],
    "MatrixSolve_adjoint": lambda: ops.MatrixSolve(True)(f32([[2, 1], [0, 3]]), f32([[1, 0], [2, 1]])),
    # --- more primitives ---------------------------------------------------------------------------------------
    "Dense": lambda: ops.Dense()(f32([[1, 2], [3, 4]]), f32([[1, 0], [1, 1], [0, 2]]), f32([0.5, 0, 1])),
    "Dense_no_bias": lambda: ops.Dense()(f32([[1, 2], [3, 4]]), f32([[1, 0], [1, 1], [0, 2]]), None),
    "IdentityN": lambda: ops.IdentityN()([f32([1, 2]), f32([3])]),
    "Padding": lambda: ops.Padding(4)(f32([[1], [2]])),
    "MatrixTriangularSolve": lambda: ops.MatrixTriangularSolve(True, False)(f32([[2, 0], [1, 3]]), f32([[2], [7]])),
    "MatrixTriangularSolve_adjoint": lambda: ops.MatrixTriangularSolve(True, True)(f32([[2, 0], [1, 3]]),
                                                                                   f32([[2], [6]])),
    "MatrixPower": lambda: ops.MatrixPower(3)(f32([[[1, 1], [0, 2]]])),
    "MatrixPower_negative": lambda: ops.MatrixPower(-2)(f32([[[1, 1], [0, 2]]])),
    "Cholesky": lambda: ops.Cholesky()(f32([[4, 2], [2, 5]])),
    "Cholesky_upper": lambda: ops.Cholesky(True)(f32([[4, 2], [2, 5]])),
    "CholeskyInverse": lambda: ops.CholeskyInverse()(f32([[2, 0], [1, 2]])),
    "CholeskyInverse_upper": lambda: ops.CholeskyInverse(True)(f32([[2, 1], [0, 2]])),
    "CholeskySolve": lambda: ops.CholeskySolve()(f32([[1], [2]]), f32([[2, 0], [1, 2]])),
    "BatchToSpaceND": lambda: ops.BatchToSpaceND((2, 2), ((0, 0), (0, 1)))(f32(np.arange(8).reshape(4, 1, 1, 2))),
    "SpaceToBatchND": lambda: ops.SpaceToBatchND((2, 2), ((0, 0), (0, 2)))(f32(np.arange(8).reshape(1, 1, 2, 4))),
    # --- scatters (the in-place ones on a Parameter: the result and the Parameter afterwards) --------------------
    **{f"Scatter{kind}": (lambda kind=kind: _scatter_in_place(getattr(ops, f"Scatter{kind}")(), i32([[2, 0], [2, 1]]),
                                                              f32(np.arange(1, 9).reshape(2, 2, 2) / 4)))
       for kind in ("Add", "Sub", "Mul", "Div", "Max", "Min")},
    "ScatterUpdate": lambda: _scatter_in_place(ops.ScatterUpdate(), i32([2, 0]), f32([[9, 8], [7, 6]])),
    **{f"ScatterNd{kind}": (lambda kind=kind: _scatter_in_place(getattr(ops, f"ScatterNd{kind}")(),
                                                                i32([[0, 1], [2, 0], [0, 1]]), f32([0.5, 2, 3])))
       for kind in ("Add", "Sub", "Mul", "Div", "Max", "Min")},
    **{f"TensorScatter{kind}": (lambda kind=kind: getattr(ops, f"TensorScatter{kind}")()(
        f32([[1, -2], [3, 4], [0.5, 6]]), i32([[0, 1], [2, 0], [0, 1]]), f32([0.5, 2, 3])))
       for kind in ("Sub", "Mul", "Div", "Max", "Min")},
    # --- scalar and sequence functions ----------------------------------------------------------------------
    "scalar_ops": lambda: (ops.scalar_add(3, 4.5), ops.scalar_sub(3, 5), ops.scalar_mul(3, 2), ops.scalar_div(7, 2),
                           ops.scalar_floordiv(7, 2), ops.scalar_mod(7, 3), ops.scalar_pow(2, 10),
                           ops.scalar_eq(1, 1.0), ops.scalar_gt(3, 2), ops.scalar_ge(2, 2), ops.scalar_lt(1, 2),
                           ops.scalar_le(3, 2), ops.scalar_max(3, 9), ops.scalar_min(3, 9), ops.scalar_uadd(5),
                           ops.scalar_usub(5)),
    "sequence_ops": lambda: (ops.tuple_len((1, 2, 3)), ops.list_len([1, 2]), ops.tuple_getitem((1, 2, 3), 1),
                             ops.list_getitem([1, 2, 3], 2), ops.tuple_setitem((1, 2, 3), 1, 9),
                             ops.list_setitem([1, 2, 3], 0, 7), ops.make_tuple(1, 2), ops.make_list(1, 2),
                             ops.tuple_equal((1, 2), (1, 2)), ops.list_equal([1], [2]), ops.tuple_reversed((1, 2, 3)),
                             ops.tuple_div((6, 4), (3, 2)), ops.in_dict("a", {"a": 1}), ops.not_in_dict("a", {"a": 1}),
                             ops.dict_getitem({"a": 1}, "a"), ops.is_(None, None), ops.is_not(1, None),
                             ops.shape_mul((2, 3, 4)), ops.reduced_shape((2, 3, 4), (0, 2)),
                             ops.broadcast_gradient_args((2, 1, 3), (4, 3)), ops.scalar_cast(3.7, ms.int64),
                             ops.augassign_add(1, 2), ops.augassign_div(7, 2), ops.augassign_mod(7, 3)),
    "shape_tensor_slice": lambda: (ops.shape_(f32(_X)), ops.tensor_slice(f32(_X), (0, 1), (2, 2))),
    "dyn_shape": lambda: ops.dyn_shape(f32(np.ones((2, 3)))),
    "eps_f16": lambda: ops.eps(ms.Tensor(np.ones(2, np.float16))),
}
