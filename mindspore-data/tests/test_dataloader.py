"""``mindspore.dataset.dataloader`` against MindSpore 2.10.

``tests/fixtures/dataloader/record.py`` holds the cases; it recorded what real 2.10 gives for each in
``dataloader_2_10.json`` (collation and conversion types, sampler index sequences for seeded NumPy generators,
loader batches and lengths, 2.10's error messages, worker seeds and what the seeded streams in each worker give,
and the losses of a small training loop fed by a DataLoader). Here the same cases run on ours and must match. The
tests after them check what cannot be recorded: process clean-up, a dying worker, unordered delivery.
"""
import gc
import importlib.util
import json
import multiprocessing
import os
import pathlib
import time

import numpy as np
import pytest

import mindspore as ms
from mindspore.dataset import dataloader as dl

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "dataloader"
EXPECTED = json.loads((FIXTURES / "dataloader_2_10.json").read_text())


def _load_record():
    spec = importlib.util.spec_from_file_location("dataloader_record", FIXTURES / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


record = _load_record()


def no_children_left(timeout=10.0):
    deadline = time.time() + timeout
    while multiprocessing.active_children() and time.time() < deadline:
        time.sleep(0.05)
    return not multiprocessing.active_children()


@pytest.mark.parametrize("case", ["collate", "convert", "random_sampler", "sequential_and_batch_sampler",
                                  "distributed_sampler", "loader_single_process", "argument_errors"])
def test_matches_mindspore_2_10(case):
    assert record.CASES[case]() == EXPECTED[case]


@pytest.mark.parametrize("case", ["loader_workers", "loader_more"])
def test_workers_match_mindspore_2_10(case):
    assert record.CASES[case]() == EXPECTED[case]
    assert no_children_left()


@pytest.mark.parametrize("mode", ["train_pynative", "train_graph"])
def test_a_training_loop_fed_by_a_dataloader_matches_2_10(mode):
    losses = record.CASES[mode]()
    np.testing.assert_allclose(losses, EXPECTED[mode], rtol=1e-5, atol=1e-6)
    assert losses[2] < losses[0] and losses[3] < losses[1]


def test_a_training_loop_with_worker_processes():
    losses = record.train_losses(ms.PYNATIVE_MODE, num_workers=2)
    np.testing.assert_allclose(losses, EXPECTED["train_pynative"], rtol=1e-5, atol=1e-6)
    assert no_children_left()


def test_random_sampler_without_generator_is_a_permutation_each_pass():
    sampler = dl.RandomSampler(range(20))
    first, second = list(sampler), list(sampler)
    assert sorted(first) == sorted(second) == list(range(20))


def test_distributed_sampler_ranks_cover_the_padded_dataset():
    shards = [list(dl.DistributedSampler(range(10), num_replicas=4, rank=r, seed=3)) for r in range(4)]
    assert all(len(s) == 3 for s in shards)
    flat = sum(shards, [])
    assert set(flat) == set(range(10)) and len(flat) == 12


def test_distributed_sampler_reads_rank_and_size_from_the_environment(monkeypatch):
    monkeypatch.setenv("RANK_SIZE", "4")
    monkeypatch.setenv("RANK_ID", "2")
    sampler = dl.DistributedSampler(list(range(10)))
    assert (sampler.num_replicas, sampler.rank, list(sampler)) == (4, 2, [2, 9, 4])   # 2.10's, same environment


def test_workers_exit_when_the_iterator_is_dropped_early():
    loader = dl.DataLoader(record.Squares(40), batch_size=2, num_workers=2)
    iterator = iter(loader)
    next(iterator)
    assert len(multiprocessing.active_children()) == 2
    del iterator
    gc.collect()
    assert no_children_left()


def test_persistent_workers_live_until_the_loader_goes():
    loader = dl.DataLoader(record.Squares(5), batch_size=2, num_workers=2, persistent_workers=True)
    assert len(list(loader)) == len(list(loader)) == 3
    pids = {p.pid for p in multiprocessing.active_children()}
    assert len(pids) == 2
    assert len(list(loader)) == 3 and {p.pid for p in multiprocessing.active_children()} == pids
    del loader
    gc.collect()
    assert no_children_left()


class _DiesInWorker(dl.Dataset):
    def __getitem__(self, index):
        if index == 1:
            os._exit(3)
        return index

    def __len__(self):
        return 4


def test_a_worker_that_dies_is_reported():
    with pytest.raises(RuntimeError, match=r"DataLoader worker \(pid\(s\): \d+\) exited unexpectedly"):
        list(dl.DataLoader(_DiesInWorker(), num_workers=2))
    gc.collect()
    assert no_children_left()


def test_worker_exception_carries_the_traceback():
    with pytest.raises(RuntimeError) as info:
        list(dl.DataLoader(record.Failing(), num_workers=2))
    message = str(info.value)
    assert "caught ValueError with message:\nTraceback" in message and "ValueError: bad sample 3" in message


def test_unordered_delivery_does_not_wait_for_a_slow_worker():
    class SlowFirst(dl.Dataset):
        def __getitem__(self, index):
            if index == 0:
                time.sleep(0.5)
            return index

        def __len__(self):
            return 4

    out = [int(x.asnumpy()[0]) for x in dl.DataLoader(SlowFirst(), num_workers=2, in_order=False)]
    assert sorted(out) == [0, 1, 2, 3] and out[0] != 0


def test_pin_memory_warns_on_cpu_and_changes_nothing(caplog):
    if ms.get_context("device_target") != "CPU":
        pytest.skip("the CPU warning")
    with caplog.at_level("WARNING", logger="mindspore"):
        batches = list(dl.DataLoader(record.Squares(3), batch_size=3, pin_memory=True))
    assert "Set pin_memory as True on CPU device will not have any effect." in caplog.text
    assert batches[0][0].asnumpy().tolist() == [0, 1, 2]
