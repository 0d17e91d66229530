"""Complex forms of the elementwise functions whose real kernels use formulas complex numbers do not take, written
once for any array library ``xp`` with NumPy's API (the CPU backend passes NumPy, the GPU backend CuPy):

* ``sign(z) = z / |z|`` (0 at 0), as MindSpore 2.10 (NumPy 1.x's complex ``sign`` was the sign of the real part);
* ``abs(z) = |z|`` in the complex dtype (MindSpore 2.10's ``Abs`` keeps it);
* ``expm1(x + iy) = expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)`` (no cancellation near 0) and ``log1p(z) =
  log|1 + z| + i arg(1 + z)``, written out so both backends compute them alike (NumPy's own complex loops agree to
  a few units in the last place);
* ``sigmoid(z) = 1 / (1 + exp(-z))`` (the real kernels' ``logaddexp`` form has no complex version);
* ``sinc(z) = sin(pi z) / (pi z)``, 1 at 0.
"""

__all__ = ["is_complex", "with_complex", "sign", "absolute", "expm1", "log1p", "sigmoid", "sinc"]


def is_complex(a):
    return a.dtype.kind == "c"


def with_complex(xp, as_array, real_kernel, complex_fn):
    """A backend's kernel ``(prim, x, out)``: ``complex_fn(xp, x)`` for complex ``x`` (``as_array(x)`` first, the
    backend's device array), ``real_kernel`` for the others; NumPy's floating-point warnings silenced (CuPy gives
    none)."""
    errstate = getattr(xp, "errstate", None)

    def kernel(prim, x, out=None):
        x = as_array(x)
        if not is_complex(x):
            return real_kernel(prim, x, out=out)
        if errstate is None:
            return complex_fn(xp, x)
        with errstate(all="ignore"):
            return complex_fn(xp, x)
    kernel.__name__ = f"complex_{getattr(complex_fn, '__name__', 'fn')}"
    return kernel


def sign(xp, z):
    size = xp.abs(z)
    return xp.where(size == 0, xp.zeros((), z.dtype), z / xp.where(size == 0, xp.ones((), size.dtype), size))


def absolute(xp, z):
    return xp.abs(z).astype(z.dtype)


def expm1(xp, z):
    half = xp.sin(z.imag / 2)
    out = xp.empty_like(z)
    out.real = xp.expm1(z.real) * xp.cos(z.imag) - 2 * half * half
    out.imag = xp.exp(z.real) * xp.sin(z.imag)
    return out


def log1p(xp, z):
    shifted_real = z.real + 1
    out = xp.empty_like(z)
    out.real = xp.log(xp.hypot(shifted_real, z.imag))
    out.imag = xp.arctan2(z.imag, shifted_real)
    return out


def sigmoid(xp, z):
    one = xp.ones((), z.dtype)
    return one / (one + xp.exp(-z))


def sinc(xp, z):
    zero = z == 0
    scaled = xp.where(zero, xp.ones((), z.dtype), z) * xp.pi
    return xp.where(zero, xp.ones((), z.dtype), xp.sin(scaled) / scaled)
