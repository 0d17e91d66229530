"""float16 Softmax on the CPU rounds as MindSpore 2.10's CPU kernel does (``exp(x - max)`` in float16, the sum in
float32 rounded to float16, the division in float16): bit for bit the results recorded with 2.10 by
``tests/fixtures/zoo_nlp/record_softmax_fp16.py``. (Found on the zoo's Transformer with compute_type float16.)"""
import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

# float16 bit patterns of 2.10's results, per (shape, axis), for x = (RandomState(1).randn(*shape) * 3) as float16
_RECORDED = {
    ((2, 7), -1): [13898, 4064, 4366, 2023, 10540, 51, 14470, 5363, 10219, 7620, 15266, 414, 7325, 7086],
    ((3, 4, 5), 1): [14579, 4848, 13394, 8449, 13395, 79, 15352, 12364, 14615, 8419, 13850, 184, 14338, 11504, 14550,
                     2490, 6783, 11791, 13423, 12138, 10114, 15294, 15097, 10159, 14357, 11921, 9607, 6966, 6678,
                     12639, 11881, 8412, 8089, 4176, 7338, 14885, 5243, 12169, 15292, 13587, 11265, 7398, 2605, 15309,
                     10927, 9270, 12230, 15300, 8309, 13458, 13410, 9753, 972, 6239, 9761, 14637, 15052, 10098, 9041,
                     14619],
    ((6, 3), 0): [13963, 5856, 7780, 2076, 12420, 512, 14517, 5220, 11538, 5649, 15045, 1059, 5344, 6863, 15179, 1946,
                  7793, 6269],
}


@pytest.mark.parametrize("shape,axis", list(_RECORDED), ids=[f"{s}-{a}" for s, a in _RECORDED])
def test_float16_softmax_matches_2_10_bit_for_bit(shape, axis):
    old = ms.get_context("device_target")
    ms.set_context(device_target="CPU")
    try:
        x = (np.random.RandomState(1).randn(*shape) * 3).astype(np.float16)
        y = ops.Softmax(axis=axis)(ms.Tensor(x)).asnumpy()
    finally:
        ms.set_context(device_target=old)
    assert y.dtype == np.float16
    assert y.view(np.uint16).ravel().tolist() == _RECORDED[(shape, axis)]
