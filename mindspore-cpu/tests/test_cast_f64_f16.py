"""Cast float64 -> float16 on the CPU rounds through float32, as MindSpore 2.10's CPU kernel does (twice, not once):
bit patterns recorded with 2.10 by ``tests/fixtures/zoo_nlp/record_cast_f64_f16.py`` on values where the two roundings
differ. (Found on the zoo's GCN, whose float64 adjacency matrix its fp16 cells cast.)"""
import numpy as np

import mindspore as ms
from mindspore import ops

_VALUES = ['0x1.eb2000c59a4b0p-4', '0x1.955fffe124bdap-2', '0x1.b8dfffbcf8de9p-1', '0x1.1a5fff9ecd271p-1',
           '0x1.5420008adba93p-1', '0x1.f1a000419aa67p-1']
_RECORDED = [12204, 13910, 15076, 14442, 14672, 15302]


def test_float64_to_float16_matches_2_10():
    x = np.array([float.fromhex(v) for v in _VALUES])
    assert x.astype(np.float16).view(np.uint16).tolist() != _RECORDED      # one rounding would differ
    old = ms.get_context("device_target")
    ms.set_context(device_target="CPU")
    try:
        y = ops.Cast()(ms.Tensor(x), ms.float16).asnumpy()
        many = ops.cast(ms.Tensor(x), ms.float16).asnumpy()
    finally:
        ms.set_context(device_target=old)
    assert y.view(np.uint16).tolist() == _RECORDED
    assert many.view(np.uint16).tolist() == _RECORDED
