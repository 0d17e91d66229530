"""mindspore-array-kernels: a family's source bound into a backend module's namespace, with that backend's array
library, gives that module the family's kernels; a call that gives the family other names than it lists is refused."""
import sys
import traceback
import types

import numpy as np
import pytest

import mindspore_array_kernels as mak
from mindspore import dtype as mstype
from mindspore.plugin import TensorSpec
from mindspore_array_kernels.common import fit, fits_out


def _module(name):
    module = types.ModuleType(name)
    sys.modules[name] = module
    return module


def _scatter_add(target, idx, vals):
    np.add.at(target, idx, vals)
    return target


class _Counting:
    """NumPy, counting the attributes read through it: a stand-in for another array library."""

    def __init__(self):
        self.reads = 0

    def __getattr__(self, name):
        self.reads += 1
        return getattr(np, name)


@pytest.fixture
def modules():
    names = []

    def make(name):
        names.append(name)
        return _module(name)
    yield make
    for name in names:
        sys.modules.pop(name, None)


def test_the_families_listed_are_the_sources_shipped():
    assert "image" in mak.families()
    assert all((mak.FAMILIES_DIR / f"{f}.py").is_file() for f in mak.families())


def test_a_bound_family_is_the_binding_modules_own(modules):
    m = modules("backend_a.kernels.image")
    mak.bind("image", m.__dict__, xp=np, scatter_add=_scatter_add)
    assert m.KERNELS and all(callable(k) for k in m.KERNELS.values())
    kernel = m.KERNELS["MirrorPad"]
    assert kernel.__module__ == "backend_a.kernels.image"
    x = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3)
    prim = types.SimpleNamespace(mode="REFLECT")
    got = kernel(prim, x, np.array([[0, 0], [0, 0], [1, 1], [1, 1]]), out=None)
    np.testing.assert_array_equal(got, np.pad(x, [(0, 0), (0, 0), (1, 1), (1, 1)], mode="reflect"))
    # a failure inside a kernel points at the family's source file
    with pytest.raises(Exception) as info:
        m.KERNELS["IOU"](types.SimpleNamespace(mode="iou"), np.zeros((2, 3)), np.zeros((2, 4)), out=None)
    files = [frame.filename for frame in traceback.extract_tb(info.tb)]
    assert str(mak.FAMILIES_DIR / "image.py") in files


def test_two_bindings_use_each_their_own_array_library(modules):
    counting = _Counting()
    a, b = modules("backend_a.kernels.image"), modules("backend_b.kernels.image")
    mak.bind("image", a.__dict__, xp=np, scatter_add=_scatter_add)
    mak.bind("image", b.__dict__, xp=counting, scatter_add=_scatter_add)
    prim = types.SimpleNamespace(periodic=True, alpha=0.54, beta=0.46)
    out = TensorSpec((8,), mstype.float32)
    want = a.KERNELS["HammingWindow"](prim, 8, out=out)
    assert counting.reads == 0
    got = b.KERNELS["HammingWindow"](prim, 8, out=out)
    assert counting.reads > 0 and a.xp is np and b.xp is counting
    np.testing.assert_array_equal(got, want)
    assert want.dtype == np.float32
    np.testing.assert_allclose(want, np.hamming(9)[:-1], rtol=1e-6, atol=1e-7)     # periodic: one longer, cut


@pytest.mark.parametrize("names, message", [
    ({"xp": np}, r"must be given \['xp', 'scatter_add'\], but \['scatter_add'\] are missing"),
    ({"xp": np, "scatter_add": _scatter_add, "cupy": None}, r"\['cupy'\] are not among them"),
])
def test_a_binding_must_give_exactly_the_names_the_family_lists(modules, names, message):
    m = modules("backend_c.kernels.image")
    with pytest.raises(TypeError, match=message):
        mak.bind("image", m.__dict__, **names)
    assert "KERNELS" not in m.__dict__


def test_unknown_families_and_namespaces_that_are_not_modules_are_refused():
    with pytest.raises(ValueError, match=r"no kernel family 'imag' in mindspore-array-kernels; its families are"):
        mak.bind("imag", {"__name__": "x"}, xp=np)
    for bad in ("../image", "_private", "families"):
        with pytest.raises(ValueError, match="no kernel family"):
            mak.bind(bad, {"__name__": "x"}, xp=np)
    with pytest.raises(TypeError, match=r"must be a module's globals\(\)"):
        mak.bind("image", {}, xp=np, scatter_add=_scatter_add)


def test_fit_casts_to_the_inferred_dtypes():
    out = (TensorSpec((2,), mstype.float16), TensorSpec((2,), mstype.int32))
    a, b = fit((np.ones(2, np.float32), np.arange(2)), out)
    assert a.dtype == np.float16 and b.dtype == np.int32
    same = np.ones(2, np.float16)
    assert fit(same, out[0]) is same and fit(same, None) is same

    @fits_out
    def kernel(prim, x, out=None):
        return x.astype(np.float64) * 2
    assert kernel(None, np.ones(2, np.float32), out=TensorSpec((2,), mstype.float32)).dtype == np.float32
    assert kernel.__name__ == "kernel"
