"""MaxPoolWithArgmax (CenterFace's NMS head) and DepthToSpace (EDSR's and RCAN's upsampler) in MINDIR files, as
MindSpore 2.10 writes them: files 2.10 wrote load and run here, ours carry 2.10's attributes (MaxPoolWithArgmax's
``kernel_size``/``strides`` as ``(1, h, w, 1)``, with ``ksize`` and ``padding``; both ``format`` and
``data_format`` on DepthToSpace) and reload. MaxPoolWithArgmax's argmax counts over each item's (C, H, W), as 2.10's.
The 2.10 files and numbers come from tests/fixtures/export/zoo_cv3/record_*.py."""
import importlib.util
import pathlib

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore._deploy.mindir._schema import ModelProto

FIX = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "export" / "zoo_cv3"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, FIX / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


D2S, MPA = _load("record_depth_to_space"), _load("record_max_pool_with_argmax")


@pytest.fixture(autouse=True)
def graph_mode():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=mode)


def _outputs(out):
    return [o.asnumpy() for o in (out if isinstance(out, (tuple, list)) else (out,))]


def _attrs(path, op_type):
    model = ModelProto()
    model.ParseFromString(path.read_bytes())
    prim = next(p for p in model.primitives if p.op_type == op_type)
    return {a.name: a for a in prim.attribute}


@pytest.mark.parametrize("module,net,stem", [(D2S, "DepthToSpaceNet", "depth_to_space_2_10"),
                                             (MPA, "NmsNet", "max_pool_with_argmax_topk_2_10")])
def test_a_2_10_file_runs_as_the_network(module, net, stem):
    x = module.example()
    want = _outputs(getattr(module, net)()(x))
    got = _outputs(nn.GraphCell(ms.load(str(FIX / f"{stem}.mindir")))(x))
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("module,net,op_type,stem", [
    (D2S, "DepthToSpaceNet", "DepthToSpace", "depth_to_space_2_10"),
    (MPA, "NmsNet", "MaxPoolWithArgmax", "max_pool_with_argmax_topk_2_10")])
def test_ours_writes_2_10_attributes_and_reloads(module, net, op_type, stem, tmp_path):
    x = module.example()
    cell = getattr(module, net)()
    ms.export(cell, x, file_name=str(tmp_path / "net"), file_format="MINDIR")
    ours = _attrs(tmp_path / "net.mindir", op_type)
    theirs = _attrs(FIX / f"{stem}.mindir", op_type)
    assert set(ours) == set(theirs)
    for name in ours:
        assert ours[name].SerializeToString() == theirs[name].SerializeToString(), name
    for g, w in zip(_outputs(nn.GraphCell(ms.load(str(tmp_path / "net.mindir")))(x)), _outputs(cell(x))):
        np.testing.assert_array_equal(g, w)


def test_max_pool_with_argmax_counts_over_the_channels_as_2_10():
    assert MPA.argmax_rows().tolist() == [[[0, 10, 6], [43, 38, 47]], [[7, 3, 13], [42, 44, 48]]]
    # and its gradient scatters to the right plane
    x = ms.Tensor(np.random.RandomState(1).randn(2, 2, 5, 7).astype(np.float32))
    dx = ms.grad(lambda a: ops.MaxPoolWithArgmax((2, 3), (1, 2), "valid")(a)[0].sum())(x).asnumpy()
    assert dx.sum() == 2 * 2 * 4 * 3 and (dx.reshape(2, 2, -1).sum(-1) == 12).all()
