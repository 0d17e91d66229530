"""The GPU runtime's host uploader (mindspore_gpu.upload): dataset batches staged in pinned memory and copied on a
copy stream, their device memory held back from the pool until the training loop's stream has passed its release.

On the CuPy stand-in (``cupy_sim.py``: pinned blocks, ``cupy.cuda.alloc``, ``UnownedMemory``,
``MemoryPointer.copy_from_host_async`` and ``cupy.ndarray(memptr=)`` as CuPy 14 has them; streams whose work stays
pending until synchronised when a test says so). ``Model.train`` through it on the GPU kernels runs last.
"""
import gc
import pathlib
import sys

import numpy as np
import pytest

import mindspore as ms
from mindspore import _generation, nn

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import cupy_sim  # noqa: E402

SIM = cupy_sim.load_runtime()
UPLOAD = SIM.upload
POOL = cupy_sim.get_default_memory_pool()
TARGET = "GPUSIMU"


@pytest.fixture
def up():
    """An uploader of depth 2 with the device's return lists fresh and the null stream current."""
    UPLOAD._returns.clear()
    cupy_sim.Stream.null.synchronize()
    uploader = UPLOAD.HostUploader(cupy_sim.Device(0), 2)
    yield uploader
    uploader.close()
    cupy_sim.Stream.null.synchronize()
    UPLOAD._returns.clear()
    cupy_sim.Stream.null.use()


def _arrays():
    rng = np.random.default_rng(0)
    return [rng.standard_normal((4, 3)).astype(np.float32),
            rng.integers(-5, 5, (7,)).astype(np.int64)[::2],                    # not contiguous
            rng.standard_normal((2, 3)).astype(np.float16).T,                  # transposed
            np.array([True, False, True]), np.float64(2.5) * np.ones(()),      # bool, 0-d
            np.zeros((0, 5), np.float32)]                                      # empty


def test_batches_arrive_equal_and_the_taking_stream_waits_for_their_copies(up):
    arrays = _arrays()
    token = up.put(arrays)
    stream = cupy_sim.Stream(non_blocking=True)
    with stream:
        buffers = up.take(token)
    assert stream.waited == [token[1]], "the stream that takes the batch waits for the copy stream's event"
    assert token[1]._stream is UPLOAD.copy_stream(cupy_sim.Device(0)), "the copies ran on the copy stream"
    for a, b in zip(arrays, buffers):
        assert isinstance(b, cupy_sim.DeviceArray) and b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(cupy_sim.asnumpy(b), a)
        assert b.flags.c_contiguous


def _settled_used_bytes():
    """The pool's bytes in use once garbage from earlier tests is gone (cycles freed by one collection can leave
    more for the next: a kernel's exception holds its frames, and their arrays, in a cycle)."""
    used = None
    while used != POOL.used_bytes():
        used = POOL.used_bytes()
        gc.collect()
    return used


def test_a_batch_block_returns_to_the_pool_only_after_the_taking_stream_passed_its_release(up):
    base = _settled_used_bytes()
    compute = cupy_sim.Stream(non_blocking=True)
    with compute:
        (x,) = up.take(up.put([np.ones(1000, np.float32)]))       # 4000 bytes: one 4096-byte block
        compute._launch()                                          # a kernel reading x, still queued
    assert POOL.used_bytes() == base + 4096
    del x
    gc.collect()
    assert POOL.used_bytes() == base + 4096, "held back: the queued kernel may still read it"
    token = up.put([np.ones(1, np.float32)])                       # records an event behind the queued kernel
    assert len(up.returns.pending) == 1 and POOL.used_bytes() == base + 4096 + 512
    del token
    compute.synchronize()
    up.put([np.ones(1, np.float32)])
    gc.collect()
    up.put([np.ones(1, np.float32)])
    assert up.returns.pending == [] and POOL.used_bytes() <= base + 512, "given back once the kernel completed"


def test_blocks_of_batches_never_taken_go_back_at_once(up):
    gc.collect()
    base = POOL.used_bytes()
    up.put([np.ones(1000, np.float32)])                            # dropped: never taken by any stream
    gc.collect()
    keep = up.put([np.ones(1, np.float32)])
    assert up.returns.pending == [] and POOL.used_bytes() == base + 512 and keep


def test_staging_blocks_are_overwritten_only_after_the_copy_that_read_them(up):
    stream = up.stream
    stream._launch()                                               # the copy of batch 0 is still running
    first = up.put([np.full(8, 1.0, np.float32)])[1]
    assert not first.done
    pinned = up.rings[0]["slots"][0][0]
    for k in range(2, up.slots + 1):                               # batches 1 .. slots-1 take fresh blocks
        up.put([np.full(8, k, np.float32)])
    assert not first.done and len(up.rings[0]["slots"]) == up.slots
    (last,) = up.take(up.put([np.full(8, 9.0, np.float32)]))       # reuses batch 0's block: waits for its copy
    assert first.done and up.rings[0]["slots"][0][0] is pinned
    np.testing.assert_array_equal(cupy_sim.asnumpy(last), np.full(8, 9.0, np.float32))
    up.put([np.ones(100, np.float32)])                             # larger than its block: a new one
    assert up.rings[0]["slots"][1][1] == 400


def test_empty_cache_synchronises_and_gives_back_held_blocks(up):
    rt = SIM.GPURuntime(device_id=0)
    compute = cupy_sim.Stream(non_blocking=True)
    with compute:
        (x,) = up.take(up.put([np.ones(1000, np.float32)]))
        compute._launch()
    del x
    gc.collect()
    assert UPLOAD.has_returned(0)
    rt.empty_cache()
    assert not UPLOAD.has_returned(0) and compute.done


# -- Model.train on the GPU kernels through the uploader ------------------------------------------------------
@pytest.fixture(scope="module")
def sim_target():
    with cupy_sim.registered(TARGET, cupy_sim.load_kernel_families().families) as plugin:
        yield plugin


def _train(target, mode, sink):
    ds = pytest.importorskip("mindspore.dataset")
    before = ms.get_context("device_target_requested")
    ms.set_context(device_target=target, mode=mode)
    try:
        ms.set_seed(3)
        rng = np.random.default_rng(0)
        x = rng.standard_normal((48, 6)).astype(np.float32)
        y = (x.sum(axis=1) > 0).astype(np.int32)
        data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
        net = nn.SequentialCell([nn.Dense(6, 16), nn.ReLU(), nn.Dense(16, 2)])
        model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                         nn.Momentum(net.trainable_params(), 0.1, 0.9))
        losses = []

        class Record(ms.train.Callback):
            def on_train_step_end(self, run_context):
                losses.append(float(run_context.original_args().net_outputs.asnumpy()))
        model.train(2, data, callbacks=[Record()], dataset_sink_mode=sink, sink_size=3 if sink else -1)
        return np.array(losses), [p.asnumpy() for p in net.trainable_params()]
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
        ms.context.store("device_target", before)
        _generation.bump(plugins=False)


@pytest.mark.parametrize("sink", [False, True])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_model_train_on_the_gpu_kernels_feeds_through_the_uploader(sim_target, monkeypatch, mode, sink):
    import mindspore.train.model as model_module
    monkeypatch.setattr(model_module, "_sinks_to_device", lambda: True)  # the CPU reference sinks alike (CPU doesn't)
    puts = []
    uploader = sim_target.upload.HostUploader             # the plugin runtime's (its own load of the module)
    real_put = uploader.put

    def put(self, arrays):
        puts.append([a.shape for a in arrays])
        return real_put(self, arrays)
    monkeypatch.setattr(uploader, "put", put)
    losses, weights = _train(TARGET, mode, sink)
    assert puts and puts[0] == [(8, 6), (8,)], "each batch's two columns went through the uploader"
    cpu_losses, cpu_weights = _train("CPU", mode, sink)
    np.testing.assert_allclose(losses, cpu_losses, rtol=1e-5)
    for w, c in zip(weights, cpu_weights):
        np.testing.assert_allclose(w, c, rtol=1e-5, atol=1e-6)
