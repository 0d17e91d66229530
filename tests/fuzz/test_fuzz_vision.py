"""Fuzzing ``MnistDataset`` (IDX files) and ``Cifar10Dataset`` (the binary version) on damaged files.

Valid files are built here (five 4x3 MNIST images with their labels, three CIFAR-10 records), one file is
damaged (``fuzz_mutations.mutated``, with the IDX header's count and size words as a focus) and the data set is
iterated to the end in the worker process.
"""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fuzz_harness import ValidFiles, check_outcome, fuzz_settings
from fuzz_mutations import mutated

MNIST_IMAGES, MNIST_LABELS = "train-images-idx3-ubyte", "train-labels-idx1-ubyte"
CIFAR_BATCH = "data_batch_1.bin"


@pytest.fixture(scope="module")
def valid():
    rng = np.random.default_rng(0)
    n, rows, cols = 5, 4, 3
    pixels = rng.integers(0, 256, n * rows * cols, np.uint8)
    images = np.array([2051, n, rows, cols], ">u4").tobytes() + pixels.tobytes()
    labels = np.array([2049, n], ">u4").tobytes() + np.arange(n, dtype=np.uint8).tobytes()
    records = np.concatenate([np.arange(3, dtype=np.uint8)[:, None], rng.integers(0, 256, (3, 3072), np.uint8)], 1)
    return ValidFiles({MNIST_IMAGES: images, MNIST_LABELS: labels, CIFAR_BATCH: records.tobytes()})


@fuzz_settings()
@given(data=st.data(), target=st.sampled_from([MNIST_IMAGES, MNIST_LABELS]))
def test_mutated_mnist(loader_worker, valid, data, target):
    files = {MNIST_IMAGES: valid[MNIST_IMAGES], MNIST_LABELS: valid[MNIST_LABELS]}
    header = 16 if target == MNIST_IMAGES else 8
    files[target] = data.draw(mutated(files[target], focus=[(0, header), (0, len(files[target]))]), label="file")
    check_outcome(loader_worker.load("mnist", files, target, {"usage": "train"}), "mnist", target)


@fuzz_settings()
@given(data=st.data())
def test_mutated_cifar10(loader_worker, valid, data):
    damaged = data.draw(mutated(valid[CIFAR_BATCH]), label="file")
    result = loader_worker.load("cifar10", {CIFAR_BATCH: damaged}, CIFAR_BATCH, {"usage": "train"})
    check_outcome(result, "cifar10", CIFAR_BATCH)
