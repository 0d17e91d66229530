"""GeneratorDataset / NumpySlicesDataset sources and the tuple/dict iterators (epochs, Tensors, independence)."""
import numpy as np
import pytest

import mindspore as ms
import mindspore.dataset as ds
from mindspore.dataset import config


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def values(dataset):
    return [[np.asarray(c).tolist() for c in r] for r in dataset.create_tuple_iterator(output_numpy=True)]


# -- GeneratorDataset -------------------------------------------------------------------------------------------
def test_generator_function_iterable_and_random_access_sources():
    def gen():
        for i in range(3):
            yield np.array([i, i]), i * 1.5

    assert values(ds.GeneratorDataset(gen, ["a", "b"])) == [[[0, 0], 0.0], [[1, 1], 1.5], [[2, 2], 3.0]]

    class Iterable:
        def __iter__(self):
            return iter([(np.array(1),), (np.array(2),)])

    assert values(ds.GeneratorDataset(Iterable(), "x")) == [[1], [2]]

    class Accessible:
        def __getitem__(self, i):
            return np.array(i * 10), np.array([i], np.int8)

        def __len__(self):
            return 4

    data = ds.GeneratorDataset(Accessible(), ["a", "b"], shuffle=False)
    assert values(data) == [[0, [0]], [10, [1]], [20, [2]], [30, [3]]] and data.get_dataset_size() == 4
    assert data.output_types() == [np.dtype("int64"), np.dtype("int8")]
    assert values(ds.GeneratorDataset([(1,), (2,)], ["x"], shuffle=False)) == [[1], [2]]


def test_generator_row_conversion_and_column_checks():
    assert values(ds.GeneratorDataset(lambda: iter([5, 6]), ["x"])) == [[5], [6]]     # a bare value is one column
    strings = ds.GeneratorDataset([("ab",), ("c",)], ["s"], shuffle=False)
    assert values(strings) == [["ab"], ["c"]]
    tensors = ds.GeneratorDataset([(ms.Tensor(np.ones(2, np.float32)),)], ["t"], shuffle=False)
    assert values(tensors) == [[[1.0, 1.0]]]
    with pytest.raises(RuntimeError, match="should return same number of NumPy arrays as specified in column_names"):
        values(ds.GeneratorDataset([(1, 2)], ["x"], shuffle=False))
    with pytest.raises(TypeError, match="expected"):
        values(ds.GeneratorDataset([(object(),)], ["x"], shuffle=False))
    with pytest.raises(ValueError, match="column"):
        ds.GeneratorDataset([(1,)])


def test_generator_num_samples_column_types_and_schema():
    def gen():
        for i in range(10):
            yield (np.array(i),)

    limited = ds.GeneratorDataset(gen, ["x"], num_samples=4)
    assert values(limited) == [[0], [1], [2], [3]]
    typed = ds.GeneratorDataset([(1, 2.0)], ["a", "b"], column_types=[ms.int32, ms.float16], shuffle=False)
    assert typed.output_types() == [np.dtype("int32"), np.dtype("float16")]
    schema = ds.Schema()
    schema.add_column("img", de_type=ms.uint8, shape=[2])
    from_schema = ds.GeneratorDataset([(np.array([1, 2]),)], schema=schema, shuffle=False)
    assert from_schema.get_col_names() == ["img"] and from_schema.output_types() == [np.dtype("uint8")]


def test_generator_sampler_and_shard_need_random_access():
    def gen():
        yield (np.array(1),)

    with pytest.raises(ValueError, match="__getitem__"):
        ds.GeneratorDataset(gen, ["x"], sampler=ds.SequentialSampler())
    with pytest.raises(ValueError, match="__getitem__"):
        ds.GeneratorDataset(gen, ["x"], num_shards=2, shard_id=0)


def test_generator_without_len_is_counted():
    def gen():
        for i in range(7):
            yield (np.array(i),)

    assert ds.GeneratorDataset(gen, ["x"]).get_dataset_size() == 7
    assert ds.GeneratorDataset(gen, ["x"]).batch(2).get_dataset_size() == 4


# -- NumpySlicesDataset -------------------------------------------------------------------------------------------
def test_numpy_slices_list_dict_tuple():
    assert values(ds.NumpySlicesDataset([1, 2], shuffle=False)) == [[1], [2]]
    assert ds.NumpySlicesDataset([1, 2]).get_col_names() == ["column_0"]
    nested = ds.NumpySlicesDataset([[0, 1], [2, 3]], column_names=["v"], shuffle=False)
    assert values(nested) == [[[0, 1]], [[2, 3]]]
    by_key = ds.NumpySlicesDataset({"a": [1, 2], "b": np.array([[1.0], [2.0]])}, shuffle=False)
    assert by_key.get_col_names() == ["a", "b"] and values(by_key) == [[1, [1.0]], [2, [2.0]]]
    columns = ds.NumpySlicesDataset(([1, 2], [3, 4], [5, 6]), shuffle=False)
    assert columns.get_col_names() == ["column_0", "column_1", "column_2"]
    assert values(columns) == [[1, 3, 5], [2, 4, 6]]
    with pytest.raises(ValueError, match="not equal"):
        ds.NumpySlicesDataset(([1, 2], [3]))


# -- iterators --------------------------------------------------------------------------------------------------------
def test_tuple_iterator_yields_tensors_sharing_or_copying_memory():
    data = ds.NumpySlicesDataset({"x": np.arange(6, dtype=np.float32).reshape(3, 2)}, shuffle=False)
    row = next(data.create_tuple_iterator())
    assert isinstance(row, list) and isinstance(row[0], ms.Tensor)
    assert row[0].dtype == ms.float32 and row[0].shape == (2,)
    np.testing.assert_array_equal(row[0].asnumpy(), [0.0, 1.0])
    copied = next(data.create_tuple_iterator(do_copy=True))
    np.testing.assert_array_equal(copied[0].asnumpy(), [0.0, 1.0])
    assert isinstance(next(iter(data))[0], ms.Tensor)


def test_strings_stay_numpy_in_tensor_mode():
    data = ds.NumpySlicesDataset({"s": ["a", "bc"], "n": [1, 2]}, shuffle=False)
    row = next(data.create_tuple_iterator())
    assert isinstance(row[0], np.ndarray) and row[0].item() == "a" and isinstance(row[1], ms.Tensor)


def test_dict_iterator_and_column_selection():
    data = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}, shuffle=False)
    assert [{k: v.item() for k, v in r.items()} for r in data.create_dict_iterator(output_numpy=True)] == \
        [{"a": 1, "b": 3}, {"a": 2, "b": 4}]
    picked = data.create_tuple_iterator(columns=["b"], output_numpy=True)
    assert [r[0].item() for r in picked] == [3, 4] and picked.get_col_names() == ["b"]
    with pytest.raises(RuntimeError, match="does not exist"):
        data.create_tuple_iterator(columns=["c"])


def test_num_epochs_bounds_the_number_of_passes():
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    iterator = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [[r[0].item() for r in iterator] for _ in range(3)] == [[1, 2, 3], [1, 2, 3], []]
    unbounded = data.create_tuple_iterator(output_numpy=True)
    assert [[r[0].item() for r in unbounded] for _ in range(4)] == [[1, 2, 3]] * 4
    unbounded.stop()
    with pytest.raises(ValueError):
        data.create_tuple_iterator(num_epochs=0)


def test_iterating_the_dataset_directly_is_one_epoch():
    data = ds.NumpySlicesDataset([1, 2], shuffle=False)
    assert [r[0].asnumpy().item() for r in data] == [1, 2]
    assert [r[0].asnumpy().item() for r in data] == [1, 2]


def test_multiple_iterators_over_one_dataset_are_independent():
    ds.config.set_seed(10)
    data = ds.NumpySlicesDataset(list(range(6)), shuffle=False).shuffle(6)
    first = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    second = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    a = [next(first)[0].item() for _ in range(3)]
    b = [r[0].item() for r in second]
    a += [r[0].item() for r in first]
    assert a == b and sorted(a) == list(range(6))


def test_a_node_with_two_consumers_is_rejected_like_mindspore():
    source = ds.NumpySlicesDataset([1, 2], shuffle=False)
    doubled = source.map(lambda x: x * 2)
    tripled = source.map(lambda x: x * 3)
    for consumer in (doubled, tripled):
        with pytest.raises(ValueError, match="not a tree"):
            consumer.create_tuple_iterator()
    del consumer, tripled
    assert values(doubled) == [[2], [4]]
    assert values(source) == [[1], [2]]           # the source itself is a root: its consumers do not matter


def test_dataset_size_is_cached_and_iterators_report_columns():
    data = ds.NumpySlicesDataset({"x": [1, 2, 3]}, shuffle=False).map(lambda x: (x, x), output_columns=["x", "y"])
    assert data.get_dataset_size() == 3
    iterator = data.create_dict_iterator(num_epochs=1)
    assert iterator.get_col_names() == ["x", "y"]
    assert len(list(iterator)) == 3
