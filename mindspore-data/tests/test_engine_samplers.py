"""Samplers and sharding of mappable sources (NumpySlicesDataset, GeneratorDataset, a MappableDataset subclass)."""
import os
from collections import Counter

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config
from mindspore.dataset.engine.datasets import MappableDataset


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def ids(dataset, epochs=1):
    iterator = dataset.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    out = [[r[0].item() for r in iterator] for _ in range(epochs)]
    return out[0] if epochs == 1 else out


def source(n=10, **kwargs):
    return ds.NumpySlicesDataset(list(range(n)), **kwargs)


def test_default_mappable_order_is_random_and_shuffle_false_sequential():
    ds.config.set_seed(3)
    shuffled = ids(source())
    assert sorted(shuffled) == list(range(10)) and shuffled != list(range(10))
    assert ids(source(shuffle=False)) == list(range(10))
    ds.config.set_seed(3)
    assert ids(source()) == shuffled


def test_random_sampler_reshuffles_each_epoch_and_replacement():
    ds.config.set_seed(11)
    epoch1, epoch2 = ids(source(sampler=ds.RandomSampler()), epochs=2)
    assert sorted(epoch1) == sorted(epoch2) == list(range(10)) and epoch1 != epoch2
    # as 2.10's RandomSamplerRT: num_samples beyond the rows is cut to the rows, even with replacement
    drawn = ids(source(100, sampler=ds.RandomSampler(replacement=True, num_samples=200)))
    assert len(drawn) == 100 and len(set(drawn)) < 100
    assert len(ids(source(sampler=ds.RandomSampler(num_samples=4)))) == 4


def test_sequential_subset_and_subset_random_samplers():
    assert ids(source(sampler=ds.SequentialSampler(start_index=3, num_samples=4))) == [3, 4, 5, 6]
    assert ids(source(sampler=ds.SubsetSampler([7, 2, 2, 9]))) == [7, 2, 2, 9]
    picked = ids(source(sampler=ds.SubsetRandomSampler([1, 4, 8])))
    assert sorted(picked) == [1, 4, 8]
    assert ids(source(sampler=[5, 0])) == [5, 0]
    with pytest.raises(RuntimeError, match="out of the range"):
        ids(source(sampler=ds.SubsetSampler([10])))


def test_weighted_random_sampler_follows_weights():
    ds.config.set_seed(2)
    drawn = ids(source(4, sampler=ds.WeightedRandomSampler([0.0, 1.0, 0.0, 3.0], num_samples=400)))
    counts = Counter(drawn)
    assert set(counts) == {1, 3} and 0.6 < counts[3] / 400 < 0.9
    once = ids(source(4, sampler=ds.WeightedRandomSampler([1, 1, 1, 1], replacement=False)))
    assert sorted(once) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        ds.WeightedRandomSampler([0, 0])


def test_user_sampler_and_plain_iterable():
    class Reverse(ds.Sampler):
        def __iter__(self):
            return iter(range(self.dataset_size - 1, -1, -1))

    assert ids(source(5, sampler=Reverse())) == [4, 3, 2, 1, 0]
    assert source(5, sampler=Reverse(num_samples=2)).get_dataset_size() == 2
    assert ids(source(5, sampler=Reverse(num_samples=2))) == [4, 3]

    class Evens:
        def __iter__(self):
            return iter([0, 2, 4])

    assert ids(source(5, sampler=Evens())) == [0, 2, 4]


def test_child_sampler_picks_among_the_childs_ids():
    sampler = ds.SequentialSampler(start_index=1, num_samples=2)
    sampler.add_child(ds.SubsetSampler([9, 8, 7, 6]))
    assert ids(source(sampler=sampler)) == [8, 7]
    assert sampler.get_num_samples() == 2


def test_conflicting_sampler_arguments():
    with pytest.raises(ValueError, match="Conflicting"):
        source(sampler=ds.RandomSampler(), shuffle=True)
    with pytest.raises(ValueError, match="num_shards and shard_id"):
        source(num_shards=2)
    with pytest.raises(ValueError):
        source(num_shards=2, shard_id=2)


@pytest.mark.parametrize("n, shards", [(12, 3), (10, 4), (7, 2), (3, 5)])
@pytest.mark.parametrize("shuffle", [False, True])
def test_sharding_covers_every_row_with_mindspores_padding(n, shards, shuffle):
    ds.config.set_seed(21)
    per_shard = [ids(source(n, num_shards=shards, shard_id=k, shuffle=shuffle)) for k in range(shards)]
    expected_size = -(-n // shards)
    assert all(len(p) == expected_size for p in per_shard)
    assert all(source(n, num_shards=shards, shard_id=k, shuffle=shuffle).get_dataset_size() == expected_size
               for k in range(shards))
    everything = [i for p in per_shard for i in p]
    assert set(everything) == set(range(n))
    extra = Counter(everything) - Counter(range(n))
    if n % shards == 0:
        assert not extra                                     # even split: each row exactly once
    elif not shuffle:
        # uneven: short shards wrap around to the first rows, as MindSpore's DistributedSampler does
        assert sorted(extra.elements()) == list(range(expected_size * shards - n))
    if not shuffle:
        assert [p[0] for p in per_shard] == [k % n for k in range(shards)]    # rows are dealt round-robin


def test_distributed_sampler_shards_agree_on_the_permutation_every_epoch():
    ds.config.set_seed(8)
    epochs = [ids(source(20, sampler=ds.DistributedSampler(4, k)), epochs=2) for k in range(4)]
    for epoch in range(2):
        assert sorted(i for shard in epochs for i in shard[epoch]) == list(range(20))
    assert epochs[0][0] != epochs[0][1]


def test_pk_sampler_takes_k_rows_per_class():
    class Labelled(MappableDataset):
        column_names = ["data", "label"]

        def _num_rows(self):
            return 12

        def _get_row(self, index):
            return np.array(index), np.array(index % 3, dtype=np.int32)

    data = Labelled(sampler=ds.PKSampler(2))
    labels = [r[1].item() for r in data.create_tuple_iterator(output_numpy=True)]
    assert Counter(labels) == {0: 2, 1: 2, 2: 2} and data.get_dataset_size() == 6


def test_pk_sampler_draws_rows_of_a_class_with_replacement_in_class_order():
    class Labelled(MappableDataset):
        column_names = ["data", "label"]

        def _num_rows(self):
            return 9

        def _get_row(self, index):
            return np.array(index), np.array(index // 3, dtype=np.int32)

    seen = set()
    for seed in range(12):
        ds.config.set_seed(seed)
        rows = [(r[0].item(), r[1].item()) for r in Labelled(sampler=ds.PKSampler(2)).create_tuple_iterator(
            output_numpy=True)]
        assert [label for _, label in rows] == [0, 0, 1, 1, 2, 2]  # shuffle=False keeps the class order (2.10)
        assert all(i // 3 == label for i, label in rows)
        seen.add(tuple(i for i, _ in rows))
    # 2.10 draws within the class uniformly with replacement, not the first num_val rows.
    assert len(seen) > 1 and any(len(set(ids)) < 6 for ids in seen)


def test_pk_sampler_is_refused_by_generator_dataset():
    with pytest.raises(ValueError, match="GeneratorDataset doesn't support PKSampler."):
        ds.NumpySlicesDataset({"data": [1, 2], "label": [0, 1]}, sampler=ds.PKSampler(1))


def test_subset_random_sampler_shuffles_the_first_num_samples_ids():
    for seed in range(5):
        ds.config.set_seed(seed)
        picked = ids(source(20, sampler=ds.SubsetRandomSampler([9, 3, 7, 1, 5, 11, 13], num_samples=4)))
        assert sorted(picked) == [1, 3, 7, 9]  # 2.10: the first four ids, shuffled


def test_random_access_object_as_sampler():
    class Ids:
        def __getitem__(self, index):
            return [3, 0, 3, 1][index]

        def __len__(self):
            return 4

    assert ids(source(5, sampler=Ids())) == [3, 0, 3, 1]


def test_mappable_subclass_contract():
    loads = []

    class Squares(MappableDataset):
        def __init__(self, n, **kwargs):
            super().__init__(**kwargs)
            self.column_names = ["x", "sq"]
            self.n = n

        def _load(self):
            loads.append(1)

        def _num_rows(self):
            return self.n

        def _get_row(self, index):
            return np.array(index), np.array(index * index)

    data = Squares(6, shuffle=False, num_parallel_workers=min(3, os.cpu_count()))
    assert [[c.item() for c in r] for r in data.create_tuple_iterator(output_numpy=True)] == \
        [[i, i * i] for i in range(6)]
    assert data.get_dataset_size() == 6 and len(loads) == 1
    assert Squares(6, num_samples=2, shuffle=False).get_dataset_size() == 2
    shard = Squares(6, num_shards=2, shard_id=1, shuffle=False)
    assert [r[0].item() for r in shard.create_tuple_iterator(output_numpy=True)] == [1, 3, 5]
    assert shard.is_sharded() and not data.is_shuffled()


def test_use_sampler_and_add_sampler():
    data = source(10, shuffle=False)
    data.use_sampler(ds.SequentialSampler(start_index=8))
    assert ids(data) == [8, 9]
    data = source(10, shuffle=False)
    data.add_sampler(ds.SequentialSampler(num_samples=3))
    assert ids(data) == [0, 1, 2]
