"""Records real MindSpore 2.10's ``mindspore.numpy.fft`` results for :data:`CASES` into
``tests/fixtures/api/numpy_fft_msref.npz`` (each case's output array, or its exception type in ``errors``).
``test_numpy_fft.py`` runs the same cases on ours and compares.

Run with a Python that has real MindSpore (CPU)::

    /tmp/w/msref/bin/python tests/api/make_numpy_fft_fixture.py
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_FILE = os.path.join(HERE, "..", "fixtures", "api", "numpy_fft_msref.npz")


def inputs():
    """The named inputs the cases use (NumPy arrays, made from a fixed seed)."""
    rng = np.random.default_rng(16)
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    z = (rng.standard_normal((3, 4, 5)) + 1j * rng.standard_normal((3, 4, 5))).astype(np.complex64)
    return {"x": x, "z": z, "x64": x.astype(np.float64), "z128": z.astype(np.complex128),
            "i32": np.arange(6, dtype=np.int32).reshape(2, 3), "h16": x[0].astype(np.float16),
            "v": np.arange(7, dtype=np.float32), "b": np.ones(4, dtype=bool)}


#: ``(id, expression)``: ``F`` is the fft module, ``T`` makes a tensor, ``ms`` is mindspore.
CASES = [(f"{name}_{norm}", expr.replace("NORM", repr(norm))) for norm in (None, "forward", "ortho")
         for name, expr in [
             ("fft", "F.fft(T(z), norm=NORM)"),
             ("fft_n7_axis1", "F.fft(T(z), n=7, axis=1, norm=NORM)"),
             ("fft_n3_axis0_real", "F.fft(T(x), n=3, axis=0, norm=NORM)"),
             ("ifft_n6", "F.ifft(T(z), n=6, norm=NORM)"),
             ("rfft", "F.rfft(T(x), norm=NORM)"),
             ("rfft_n8_axis1", "F.rfft(T(x), n=8, axis=1, norm=NORM)"),
             ("irfft", "F.irfft(T(z), norm=NORM)"),
             ("irfft_n7", "F.irfft(T(z), n=7, norm=NORM)"),
             ("irfft_n3_axis0", "F.irfft(T(z), n=3, axis=0, norm=NORM)"),
             ("hfft", "F.hfft(T(z), norm=NORM)"),
             ("hfft_n5", "F.hfft(T(z), n=5, norm=NORM)"),
             ("ihfft", "F.ihfft(T(x), norm=NORM)"),
             ("ihfft_n4_axis0", "F.ihfft(T(x), n=4, axis=0, norm=NORM)"),
             ("fft2", "F.fft2(T(z), norm=NORM)"),
             ("ifft2_s", "F.ifft2(T(z), s=(3, 6), norm=NORM)"),
             ("fftn_s", "F.fftn(T(z), s=(3, 6), norm=NORM)"),
             ("fftn_axes", "F.fftn(T(x), axes=(0, 2), norm=NORM)"),
             ("ifftn", "F.ifftn(T(z), norm=NORM)"),
             ("rfft2", "F.rfft2(T(x), s=(5, 6), norm=NORM)"),
             ("rfftn", "F.rfftn(T(x), norm=NORM)"),
             ("irfft2", "F.irfft2(T(z), s=(4, 7), norm=NORM)"),
             ("irfftn", "F.irfftn(T(z), norm=NORM)"),
             ("hfft2", "F.hfft2(T(z), norm=NORM)"),
             ("hfftn", "F.hfftn(T(z), norm=NORM)"),
             ("hfftn_s", "F.hfftn(T(z), s=(3, 6), axes=(0, 2), norm=NORM)"),
             ("ihfft2", "F.ihfft2(T(x), norm=NORM)"),
             ("ihfftn", "F.ihfftn(T(x), norm=NORM)"),
             ("ihfftn_s", "F.ihfftn(T(x), s=(2, 6), axes=(1, 2), norm=NORM)"),
         ]] + [
    ("fft_f64", "F.fft(T(x64))"),
    ("fft_c128_n3", "F.fft(T(z128), n=3)"),
    ("irfft_f64", "F.irfft(T(x64))"),
    ("fft_int32", "F.fft(T(i32))"),
    ("fft_f16", "F.fft(T(h16))"),
    ("rfft_complex", "F.rfft(T(z))"),
    ("irfft_real", "F.irfft(T(x))"),
    ("hfft_real", "F.hfft(T(x))"),
    ("irfft_n1", "F.irfft(T(z), n=1)"),
    ("fftshift", "F.fftshift(T(x))"),
    ("fftshift_axes", "F.fftshift(T(x), axes=(0, 2))"),
    ("ifftshift", "F.ifftshift(T(x))"),
    ("ifftshift_axis", "F.ifftshift(T(v), axes=0)"),
    ("fftshift_int", "F.fftshift(T(i32))"),
    ("fftfreq", "F.fftfreq(5, 0.5)"),
    ("fftfreq_even", "F.fftfreq(8)"),
    ("fftfreq_f64", "F.fftfreq(5, 0.5, ms.float64)"),
    ("rfftfreq", "F.rfftfreq(5)"),
    ("rfftfreq_d", "F.rfftfreq(8, 0.1)"),
    # errors
    ("err_bool", "F.fft(T(b))"),
    ("err_n0", "F.fft(T(x), n=0)"),
    ("err_n_float", "F.fft(T(x), n=2.0)"),
    ("err_axis", "F.fft(T(x), axis=5)"),
    ("err_norm", "F.fft(T(x), norm='bad')"),
    ("err_list", "F.fft([1.0, 2.0])"),
    ("err_fft2_1d", "F.fft2(T(v))"),
    ("err_s_len", "F.fftn(T(x), s=(2,), axes=(0, 1))"),
    ("err_dup_axes", "F.fftn(T(x), axes=(0, 0))"),
    ("err_scalar", "F.fft(T(np.float32(1.0)))"),
]


def main():
    import mindspore as ms
    import mindspore.numpy.fft as fft_module
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    env = {"F": fft_module, "T": ms.Tensor, "ms": ms, "np": np}
    env.update(inputs())
    values, errors = {}, {}
    for case_id, expr in CASES:
        try:
            out = eval(expr, env)  # noqa: S307 - our own case table
            values[case_id] = out.asnumpy()
            values[case_id + "__dtype"] = np.array(str(out.dtype))
        except Exception as e:  # noqa: BLE001 - the exception type is what is recorded
            errors[case_id] = [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"][0]
    np.savez(OUT_FILE, __errors__=np.array(json.dumps(errors)), **values)
    print(f"wrote {len(values) // 2} values and {len(errors)} errors to {OUT_FILE}")


if __name__ == "__main__":
    main()
