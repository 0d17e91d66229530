"""MnistDataset, Cifar10Dataset, Cifar100Dataset and ImageFolderDataset on small files written in the real formats."""
import copy
import io
import os
import pickle
import struct

import numpy as np
import pytest
from PIL import Image

import mindspore.dataset as ds
from mindspore.dataset import config


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def rows_of(dataset, **kw):
    return list(dataset.create_tuple_iterator(output_numpy=True, num_epochs=1, **kw))


def write_idx_images(path, images):
    with open(path, "wb") as f:
        f.write(struct.pack(">IIII", 2051, images.shape[0], images.shape[1], images.shape[2]))
        f.write(images.astype(np.uint8).tobytes())


def write_idx_labels(path, labels):
    with open(path, "wb") as f:
        f.write(struct.pack(">II", 2049, len(labels)))
        f.write(np.asarray(labels, np.uint8).tobytes())


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    train = rng.integers(0, 256, (7, 28, 28), dtype=np.uint8)
    test = rng.integers(0, 256, (3, 28, 28), dtype=np.uint8)
    write_idx_images(tmp_path / "train-images-idx3-ubyte", train)
    write_idx_labels(tmp_path / "train-labels-idx1-ubyte", np.arange(7) % 10)
    write_idx_images(tmp_path / "t10k-images-idx3-ubyte", test)
    write_idx_labels(tmp_path / "t10k-labels-idx1-ubyte", [5, 6, 7])
    return tmp_path, train, test


# ---------------------------------------------------------------------------------------------------------------
# MNIST


@pytest.mark.parametrize("usage, expected_labels", [
    ("train", [0, 1, 2, 3, 4, 5, 6]), ("test", [5, 6, 7]), ("all", [5, 6, 7, 0, 1, 2, 3, 4, 5, 6]),
    (None, [5, 6, 7, 0, 1, 2, 3, 4, 5, 6])])
def test_mnist_usage_rows(mnist_dir, usage, expected_labels):
    folder, train, test = mnist_dir
    data = ds.MnistDataset(str(folder), usage=usage, shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_dataset_size() == len(expected_labels)
    rows = rows_of(data)
    assert [int(r[1]) for r in rows] == expected_labels
    images = {"train": train, "test": test}.get(usage, np.concatenate([test, train]))
    for (image, label), want in zip(rows, images):
        assert image.dtype == np.uint8 and image.shape == (28, 28, 1)
        assert label.dtype == np.uint32 and label.shape == ()
        np.testing.assert_array_equal(image[:, :, 0], want)


def test_mnist_shuffle_is_a_seeded_permutation(mnist_dir):
    folder = str(mnist_dir[0])
    config.set_seed(7)
    first = [int(r[1]) for r in rows_of(ds.MnistDataset(folder, usage="train", shuffle=True))]
    config.set_seed(7)
    again = [int(r[1]) for r in rows_of(ds.MnistDataset(folder, usage="train", shuffle=True))]
    assert sorted(first) == list(range(7)) and first == again


def test_mnist_shards_cover_every_row_once(mnist_dir):
    folder, train, _ = mnist_dir
    seen = []
    for shard in range(7):
        rows = rows_of(ds.MnistDataset(str(folder), usage="train", num_shards=7, shard_id=shard, shuffle=False))
        assert len(rows) == 1
        seen += [r[0].tobytes() for r in rows]
    assert sorted(seen) == sorted(img[:, :, None].tobytes() for img in train)


def test_mnist_parallel_workers_and_pickling(mnist_dir):
    folder = str(mnist_dir[0])
    data = ds.MnistDataset(folder, shuffle=False, num_parallel_workers=min(4, os.cpu_count()))
    reference = [r[0].tobytes() for r in rows_of(ds.MnistDataset(folder, shuffle=False, num_parallel_workers=1))]
    assert [r[0].tobytes() for r in rows_of(data)] == reference
    for clone in (pickle.loads(pickle.dumps(data)), copy.deepcopy(data)):
        assert [r[0].tobytes() for r in rows_of(clone)] == reference


def test_mnist_pk_sampler_reads_labels(mnist_dir):
    data = ds.MnistDataset(str(mnist_dir[0]), usage="train", sampler=ds.PKSampler(1))
    labels = sorted(int(r[1]) for r in rows_of(data))
    assert labels == list(range(7))


def test_mnist_argument_errors(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ds.MnistDataset(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(str(tmp_path), usage="valid")


@pytest.mark.parametrize("damage, match", [
    ("image_magic", "train-images-idx3-ubyte.*magic number 2049"),
    ("label_magic", "train-labels-idx1-ubyte.*magic number 2051"),
    ("truncate_images", "train-images-idx3-ubyte.*truncated"),
    ("truncate_header", "train-images-idx3-ubyte.*header"),
    ("truncate_labels", "train-labels-idx1-ubyte.*truncated"),
    ("count_mismatch", "holds 7 images but .* holds 6 labels"),
    ("missing", "failed to find MNIST file .*train-labels-idx1-ubyte"),
])
def test_mnist_malformed_files(mnist_dir, damage, match):
    folder = mnist_dir[0]
    images, labels = folder / "train-images-idx3-ubyte", folder / "train-labels-idx1-ubyte"
    if damage == "image_magic":
        images.write_bytes(struct.pack(">I", 2049) + images.read_bytes()[4:])
    elif damage == "label_magic":
        labels.write_bytes(struct.pack(">I", 2051) + labels.read_bytes()[4:])
    elif damage == "truncate_images":
        images.write_bytes(images.read_bytes()[:-5])
    elif damage == "truncate_header":
        images.write_bytes(images.read_bytes()[:10])
    elif damage == "truncate_labels":
        labels.write_bytes(labels.read_bytes()[:-1])
    elif damage == "count_mismatch":
        write_idx_labels(labels, np.arange(6))
    elif damage == "missing":
        os.remove(labels)
    data = ds.MnistDataset(str(folder), usage="train", shuffle=False)
    with pytest.raises(RuntimeError, match=match):
        data.get_dataset_size()


def test_mnist_empty_folder(tmp_path):
    with pytest.raises(RuntimeError, match="no valid data"):
        ds.MnistDataset(str(tmp_path)).get_dataset_size()


# ---------------------------------------------------------------------------------------------------------------
# CIFAR


def cifar_records(n, labels, rng):
    images = rng.integers(0, 256, (n, 3, 32, 32), dtype=np.uint8)
    head = np.array(labels, np.uint8).reshape(n, -1)
    return np.concatenate([head, images.reshape(n, -1)], axis=1), images


@pytest.fixture
def cifar10_dir(tmp_path):
    rng = np.random.default_rng(1)
    files = {}
    for name, labels in [("data_batch_1.bin", [1, 2]), ("data_batch_2.bin", [3, 4, 5]), ("test_batch.bin", [9, 0])]:
        records, images = cifar_records(len(labels), labels, rng)
        (tmp_path / name).write_bytes(records.tobytes())
        files[name] = (labels, images)
    (tmp_path / "batches.meta.txt").write_text("airplane\n")
    return tmp_path, files


@pytest.mark.parametrize("usage, names", [
    ("train", ["data_batch_1.bin", "data_batch_2.bin"]), ("test", ["test_batch.bin"]),
    ("all", ["data_batch_1.bin", "data_batch_2.bin", "test_batch.bin"])])
def test_cifar10_rows(cifar10_dir, usage, names):
    folder, files = cifar10_dir
    data = ds.Cifar10Dataset(str(folder), usage=usage, shuffle=False)
    rows = rows_of(data)
    assert data.get_col_names() == ["image", "label"]
    labels = [lab for n in names for lab in files[n][0]]
    images = np.concatenate([files[n][1] for n in names])
    assert [int(r[1]) for r in rows] == labels
    for (image, label), chw in zip(rows, images):
        assert image.dtype == np.uint8 and image.shape == (32, 32, 3) and label.dtype == np.uint32
        for c in range(3):                      # HWC from the file's CHW planes
            np.testing.assert_array_equal(image[:, :, c], chw[c])


def test_cifar10_truncated_file(cifar10_dir):
    folder = cifar10_dir[0]
    path = folder / "data_batch_2.bin"
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(RuntimeError, match="data_batch_2.bin.*3073"):
        rows_of(ds.Cifar10Dataset(str(folder), usage="train"))


def test_cifar10_missing_split(tmp_path):
    (tmp_path / "data_batch_1.bin").write_bytes(bytes(3073))
    with pytest.raises(RuntimeError, match="no valid data"):
        ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size()
    assert ds.Cifar10Dataset(str(tmp_path), usage="all").get_dataset_size() == 1


def test_cifar100_rows(tmp_path):
    rng = np.random.default_rng(2)
    train, train_images = cifar_records(3, [[1, 11], [2, 22], [3, 33]], rng)
    test, _ = cifar_records(2, [[4, 44], [5, 55]], rng)
    (tmp_path / "train.bin").write_bytes(train.tobytes())
    (tmp_path / "test.bin").write_bytes(test.tobytes())
    data = ds.Cifar100Dataset(str(tmp_path), shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"]
    rows = rows_of(data)
    assert [(int(r[1]), int(r[2])) for r in rows] == [(4, 44), (5, 55), (1, 11), (2, 22), (3, 33)]
    assert all(r[1].dtype == np.uint32 and r[2].dtype == np.uint32 for r in rows)
    np.testing.assert_array_equal(rows[2][0], train_images[0].transpose(1, 2, 0))
    assert len(rows_of(ds.Cifar100Dataset(str(tmp_path), usage="train"))) == 3
    (tmp_path / "test.bin").write_bytes(test.tobytes()[:-1])
    with pytest.raises(RuntimeError, match="test.bin.*3074"):
        ds.Cifar100Dataset(str(tmp_path), usage="test").get_dataset_size()


# ---------------------------------------------------------------------------------------------------------------
# image folders


@pytest.fixture
def image_dir(tmp_path):
    rng = np.random.default_rng(3)
    arrays = {}
    for cls in ["dog", "cat", "ant"]:
        os.makedirs(tmp_path / cls)
        for i in range(2):
            arr = rng.integers(0, 256, (4 + i, 5, 3), dtype=np.uint8)
            Image.fromarray(arr).save(tmp_path / cls / f"{i}.png")
            arrays[f"{cls}/{i}.png"] = arr
    gray = rng.integers(0, 256, (6, 7), dtype=np.uint8)
    Image.fromarray(gray).save(tmp_path / "cat" / "gray.JPEG", quality=90)
    (tmp_path / "cat" / "notes.txt").write_text("not an image")
    os.makedirs(tmp_path / "dog" / "nested")
    Image.fromarray(gray).save(tmp_path / "dog" / "nested" / "x.png")
    Image.fromarray(gray).save(tmp_path / "top_level.png")
    return tmp_path, arrays


def test_image_folder_raw_bytes(image_dir):
    folder = image_dir[0]
    data = ds.ImageFolderDataset(str(folder), shuffle=False)
    rows = rows_of(data)
    expected = ["ant/0.png", "ant/1.png", "cat/0.png", "cat/1.png", "cat/gray.JPEG", "cat/notes.txt",
                "dog/0.png", "dog/1.png"]
    assert data.get_dataset_size() == len(expected) == len(rows)
    for (image, label), rel in zip(rows, expected):
        assert image.dtype == np.uint8 and image.ndim == 1
        assert image.tobytes() == (folder / rel).read_bytes()
        assert label.dtype == np.int32 and int(label) == ["ant", "cat", "dog"].index(rel.split("/")[0])
    assert data.get_class_indexing() == {"ant": 0, "cat": 1, "dog": 2}


def test_image_folder_decode_extensions_and_class_indexing(image_dir):
    folder, arrays = image_dir
    data = ds.ImageFolderDataset(str(folder), shuffle=False, decode=True, extensions=[".png", ".JPEG"],
                                 class_indexing={"dog": 0, "cat": 7})
    rows = rows_of(data)
    assert [int(r[1]) for r in rows] == [7, 7, 7, 0, 0]
    np.testing.assert_array_equal(rows[0][0], arrays["cat/0.png"])
    with Image.open(folder / "cat" / "gray.JPEG") as img:
        np.testing.assert_array_equal(rows[2][0], np.asarray(img.convert("RGB")))
    assert rows[2][0].shape == (6, 7, 3)
    assert data.get_class_indexing() == {"dog": 0, "cat": 7}
    lower = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".jpeg"])
    with pytest.raises(RuntimeError, match="no data found"):
        lower.get_dataset_size()


def test_image_folder_broken_image(image_dir):
    folder = image_dir[0]
    data = ds.ImageFolderDataset(str(folder), shuffle=False, decode=True, class_indexing={"cat": 0})
    with pytest.raises(RuntimeError, match="notes.txt decode failed"):
        rows_of(data)


def test_image_folder_shards_cover_every_row_once(image_dir):
    folder = image_dir[0]
    everything = sorted(r[0].tobytes() for r in rows_of(ds.ImageFolderDataset(str(folder), shuffle=False)))
    seen = []
    for shard in range(4):
        seen += [r[0].tobytes() for r in rows_of(ds.ImageFolderDataset(str(folder), num_shards=4, shard_id=shard))]
    assert sorted(seen) == everything


def test_image_folder_decrypt_and_argument_errors(image_dir):
    folder = image_dir[0]
    data = ds.ImageFolderDataset(str(folder), shuffle=False, extensions=[".png"],
                                 decrypt=lambda path: b"decrypted:" + os.path.basename(path).encode())
    assert rows_of(data)[0][0].tobytes() == b"decrypted:0.png"
    with pytest.raises(TypeError):
        ds.ImageFolderDataset(str(folder), class_indexing={"a": "b"})
    with pytest.raises(TypeError):
        ds.ImageFolderDataset(str(folder), decode="yes")
    with pytest.raises(ValueError, match="does not exist"):
        ds.ImageFolderDataset(str(folder / "nope"))


def test_image_folder_jpeg_decode_matches_pillow(tmp_path):
    os.makedirs(tmp_path / "c")
    arr = np.random.default_rng(4).integers(0, 256, (16, 12, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, "JPEG")
    (tmp_path / "c" / "a.jpg").write_bytes(buf.getvalue())
    (image, _), = rows_of(ds.ImageFolderDataset(str(tmp_path), decode=True))
    np.testing.assert_array_equal(image, np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB")))


TRUNCATE_WHILE_READING = """
import os, sys
import mindspore.dataset as ds
folder, images, cifar = sys.argv[1], sys.argv[2], sys.argv[3] == "cifar"
ds.config.set_prefetch_size(1)      # read ahead as little as possible: most rows are read after the truncation
data = (ds.Cifar10Dataset(folder, shuffle=False, num_parallel_workers=1) if cifar
        else ds.MnistDataset(folder, usage="train", shuffle=False, num_parallel_workers=1))
rows = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
next(rows)
os.truncate(images, 4096 if not cifar else 3073)     # the file shrinks under the running pass
try:
    for _ in rows:
        pass
    print("NO ERROR")
except RuntimeError as exc:
    print("RuntimeError:", exc)
"""


@pytest.mark.parametrize("kind", ["mnist", "cifar"])
def test_a_file_truncated_during_a_pass_is_an_error_not_a_crash(tmp_path, kind):
    """The readers use positional reads, not a memory map: a truncated file gives a clear error where a
    mapping dies of SIGBUS."""
    import subprocess
    import sys
    rng = np.random.default_rng(0)
    n = 5000
    if kind == "mnist":
        images = tmp_path / "train-images-idx3-ubyte"
        write_idx_images(images, rng.integers(0, 256, (n, 28, 28), dtype=np.uint8))
        write_idx_labels(tmp_path / "train-labels-idx1-ubyte", np.arange(n) % 10)
    else:
        images = tmp_path / "data_batch_1.bin"
        images.write_bytes(rng.integers(0, 256, (n, 3073), dtype=np.uint8).tobytes())
    out = subprocess.run([sys.executable, "-c", TRUNCATE_WHILE_READING, str(tmp_path), str(images), kind],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, f"the process died ({out.returncode}): {out.stderr[-2000:]}"
    assert "RuntimeError:" in out.stdout and str(images) in out.stdout and "truncated" in out.stdout, out.stdout
