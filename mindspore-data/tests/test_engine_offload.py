"""``map(..., offload=True)``: the offloaded operations leave the pipeline and run on the iterator's batches
(engine/offload.py). The rules, case by case, are compared with real MindSpore 2.10 in
tests/e2e/test_availability_2_10.py; here: training through Model, the flips' draws, worker processes."""
import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms
import mindspore.dataset.vision as vision
from mindspore import nn


def _rows():
    rng = np.random.default_rng(0)
    for i in range(8):
        yield rng.integers(0, 256, (6, 6, 3)).astype(np.uint8), np.array(i % 2, np.int64)


def _pipeline(offload, **map_kwargs):
    image_ops = [vision.Rescale(1 / 255, 0), vision.Normalize([0.5] * 3, [0.25] * 3), vision.HWC2CHW()]
    data = ds.GeneratorDataset(_rows, ["image", "label"], shuffle=False)
    data = data.map(transforms.TypeCast(ms.int32), "label", offload=offload)
    data = data.map(image_ops, "image", offload=offload, **map_kwargs)
    return data.batch(4)


def test_offloaded_batches_equal_the_host_pipelines():
    host = list(_pipeline(False).create_tuple_iterator(num_epochs=1, output_numpy=True))
    off = list(_pipeline(True).create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert _pipeline(True).output_types() == [np.dtype(np.uint8), np.dtype(np.int64)]   # left in the pipeline
    for (h_img, h_lbl), (o_img, o_lbl) in zip(host, off):
        assert o_img.shape == h_img.shape == (4, 3, 6, 6) and o_img.dtype == np.float32
        np.testing.assert_allclose(o_img, h_img, rtol=1e-6, atol=1e-6)
        assert o_lbl.dtype == np.int32 and (o_lbl == h_lbl).all()


def test_model_trains_the_same_with_the_operations_offloaded():
    """The page: offload works with Model.train (the iterator feeds the offloaded batches to the network)."""
    def train(offload):
        ms.set_seed(0)
        net = nn.SequentialCell(nn.Flatten(), nn.Dense(108, 2, weight_init="ones", bias_init="zeros"))
        losses = []

        class Record(ms.train.Callback):
            def on_train_step_end(self, run_context):
                losses.append(float(run_context.original_args().net_outputs.asnumpy()))

        model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                               nn.SGD(net.trainable_params(), 0.1))
        model.train(2, _pipeline(offload), callbacks=[Record()], dataset_sink_mode=False)
        return losses

    host, off = train(False), train(True)
    assert len(host) == 4
    np.testing.assert_allclose(off, host, rtol=1e-6)


def test_offloaded_flip_draws_from_numpys_generator_per_image():
    data = ds.GeneratorDataset(_rows, ["image", "label"], shuffle=False)
    images = np.stack([r[0] for r in _rows()]).astype(np.float32)
    flipped = data.map(vision.RandomHorizontalFlip(0.5), "image", offload=True).batch(8)
    np.random.seed(5)
    got = next(flipped.create_tuple_iterator(output_numpy=True))[0]
    np.random.seed(5)
    chosen = 0.5 > np.random.uniform(size=(8, 1))
    want = np.where(chosen.reshape(8, 1, 1, 1), images[:, :, ::-1], images)
    np.testing.assert_array_equal(got, want)
    assert 0 < chosen.sum() < 8


def test_offload_with_worker_processes_and_column_selection():
    data = _pipeline(True, num_parallel_workers=2, python_multiprocessing=True)
    rows = list(data.create_dict_iterator(num_epochs=1, output_numpy=True))
    assert rows[0]["image"].shape == (4, 3, 6, 6)
    only = next(data.create_tuple_iterator(columns=["image"], num_epochs=1))
    assert len(only) == 1 and isinstance(only[0], ms.Tensor) and only[0].shape == (4, 3, 6, 6)


def test_unbatched_offloaded_image_is_refused_at_its_first_row():
    data = ds.GeneratorDataset(_rows, ["image", "label"], shuffle=False)
    data = data.map(vision.RandomVerticalFlip(0.5), "image", offload=True)
    with pytest.raises(ValueError, match="^For RandomVerticalFlip offload operation, the dimension of input should "
                                         "be 4, but got 3.$"):
        next(data.create_tuple_iterator())
