"""The host uploader (mindspore_gpu.upload) on a real GPU (skipped without one; ``test_gpu_upload_sim.py`` checks the
same on the stand-in): pinned staging, copies on the copy stream, the taking stream ordered after them, a batch's
memory held back until that stream has passed its release, and ``Model.train`` fed through it."""
import gc

import numpy as np
import pytest

from mindspore_gpu import plugin

needs_gpu = pytest.mark.skipif(not plugin.probe().available,
                               reason=f"GPU target unavailable: {plugin.probe().reason}")
pytestmark = needs_gpu


@pytest.fixture
def up():
    import cupy
    from mindspore_gpu import upload
    uploader = upload.HostUploader(cupy.cuda.Device(0), 2)
    yield uploader
    uploader.close()
    cupy.cuda.Device(0).synchronize()


def test_batches_arrive_equal_on_the_taking_stream(up):
    import cupy
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((64, 3, 8, 8)).astype(np.float32), rng.integers(0, 10, 64).astype(np.int32)[::2],
              np.array([True, False]), np.zeros((0, 4), np.float16), np.float64(3.0) * np.ones(())]
    stream = cupy.cuda.Stream(non_blocking=True)
    for _ in range(6):                                            # more batches than staging blocks
        token = up.put(arrays)
        with stream:
            buffers = up.take(token)
            back = [cupy.asnumpy(b, stream=stream) for b in buffers]
        for a, b in zip(arrays, back):
            assert b.dtype == a.dtype and b.shape == a.shape
            np.testing.assert_array_equal(b, a)


def test_a_batch_block_waits_for_the_taking_stream_before_going_back(up):
    import cupy
    pool = cupy.get_default_memory_pool()
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        (x,) = up.take(up.put([np.ones(1 << 20, np.float32)]))
        y = x * 2                                                   # a kernel reading x
    del x
    gc.collect()
    assert up.returns.returned, "the block waits on the return list"
    used = pool.used_bytes()
    up.put([np.ones(1, np.float32)])                                 # behind an event on the taking stream
    stream.synchronize()
    up.put([np.ones(1, np.float32)])
    assert pool.used_bytes() < used, "given back once the taking stream passed the event"
    assert float(y[0]) == 2.0
