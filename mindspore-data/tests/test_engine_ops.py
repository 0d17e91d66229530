"""Pipeline operations of mindspore.dataset: map, batch, padded_batch, shuffle, repeat, take, skip, zip, concat,
project, rename, filter, split, and the getters, each against a plain-Python oracle."""
import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def rows(dataset, **kwargs):
    return [[np.asarray(c).tolist() for c in r] for r in dataset.create_tuple_iterator(output_numpy=True, **kwargs)]


def col(dataset, index=0):
    return [r[index] for r in rows(dataset)]


def numbers(n, name="x"):
    return ds.NumpySlicesDataset({name: list(range(n))}, shuffle=False)


# -- map --------------------------------------------------------------------------------------------------------
def test_map_default_input_is_first_column_and_keeps_its_place():
    data = ds.NumpySlicesDataset({"a": [1, 2], "b": [10, 20]}, shuffle=False).map(lambda a: a * 3)
    assert data.get_col_names() == ["a", "b"]
    assert rows(data) == [[3, 10], [6, 20]]


def test_map_same_count_renames_in_place():
    data = ds.NumpySlicesDataset({"a": [1], "b": [2], "c": [3]}, shuffle=False)
    data = data.map(lambda c, a: (c + 1, a + 1), input_columns=["c", "a"], output_columns=["c2", "a2"])
    assert data.get_col_names() == ["a2", "b", "c2"]
    assert rows(data) == [[2, 2, 4]]


def test_map_changing_column_count_puts_outputs_first():
    data = ds.NumpySlicesDataset({"a": [1], "b": [2], "c": [3]}, shuffle=False)
    data = data.map(lambda b: (b, b * 2, b * 3), input_columns=["b"], output_columns=["p", "q", "r"])
    assert data.get_col_names() == ["p", "q", "r", "a", "c"]
    assert rows(data) == [[2, 4, 6, 1, 3]]
    merged = ds.NumpySlicesDataset({"a": [1], "b": [2], "c": [3]}, shuffle=False)
    merged = merged.map(lambda a, c: a + c, input_columns=["a", "c"], output_columns=["s"])
    assert merged.get_col_names() == ["s", "b"] and rows(merged) == [[4, 2]]


def test_map_chains_operations_and_converts_outputs():
    data = numbers(3).map([lambda x: (x, x + 1), lambda x, y: x * y, lambda z: [int(z), 1.5]],
                          input_columns="x")
    got = list(data.create_tuple_iterator(output_numpy=True))
    assert [r[0].tolist() for r in got] == [[0, 1.5], [2, 1.5], [6, 1.5]]
    assert got[0][0].dtype == np.float64


def test_map_accepts_transform_objects_and_pil_outputs():
    from PIL import Image

    class ToImage:
        def __call__(self, x):
            return Image.fromarray(np.full((2, 3), x, np.uint8))

    data = ds.NumpySlicesDataset({"x": [5, 7]}, shuffle=False).map([ToImage()], input_columns=["x"])
    out = [r[0] for r in data.create_tuple_iterator(output_numpy=True)]
    assert out[1].shape == (2, 3) and out[1].dtype == np.uint8 and out[1][0, 0] == 7


def test_map_argument_errors():
    with pytest.raises(ValueError, match="missing parentheses"):
        numbers(2).map(dict)
    with pytest.raises(ValueError, match="callable"):
        numbers(2).map([3])
    with pytest.raises(RuntimeError, match="input column name: nope"):
        numbers(2).map(lambda x: x, input_columns=["nope"]).get_col_names()
    bad_count = numbers(2).map(lambda x: (x, x), input_columns=["x"])
    with pytest.raises(RuntimeError, match="number of 'output_columns'"):
        rows(bad_count)


# -- batch ------------------------------------------------------------------------------------------------------
def test_batch_keeps_last_partial_batch_unless_drop_remainder():
    assert col(numbers(7).batch(3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert numbers(7).batch(3).get_dataset_size() == 3
    assert col(numbers(7).batch(3, drop_remainder=True)) == [[0, 1, 2], [3, 4, 5]]
    assert numbers(7).batch(3, drop_remainder=True).get_dataset_size() == 2


def test_batch_stacks_each_column_and_checks_shapes():
    data = ds.NumpySlicesDataset((np.arange(12).reshape(6, 2), np.arange(6)), shuffle=False).batch(4)
    first = next(data.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(first[0], np.arange(8).reshape(4, 2))
    np.testing.assert_array_equal(first[1], np.arange(4))
    ragged = ds.GeneratorDataset([(np.ones(1),), (np.ones(2),)], ["x"], shuffle=False).batch(2)
    with pytest.raises(RuntimeError, match="^Cannot batch tensors with different shapes in column 0. First element "
                                           "had shape <1> and this element had shape <2>"):
        rows(ragged)


def test_batch_size_function_gets_batch_info():
    data = numbers(10).batch(lambda info: info.get_batch_num() + 1)
    assert col(data) == [[0], [1, 2], [3, 4, 5], [6, 7, 8, 9]]


def test_per_batch_map_with_new_columns_and_batch_info():
    data = ds.NumpySlicesDataset({"a": list(range(5)), "b": list(range(10, 15))}, shuffle=False)

    def per_batch(a, info):
        return [x * 2 for x in a], [info.get_batch_num()] * len(a)

    data = data.batch(2, per_batch_map=per_batch, input_columns=["a"], output_columns=["a2", "num"])
    assert data.get_col_names() == ["a2", "num", "b"]
    assert rows(data) == [[[0, 2], [0, 0], [10, 11]], [[4, 6], [1, 1], [12, 13]], [[8], [2], [14]]]


def test_padded_batch_pads_to_longest_or_given_shape():
    source = [(np.full(i, i, np.int32), np.array(i)) for i in range(1, 4)]
    data = ds.GeneratorDataset(source, ["x", "y"], shuffle=False).padded_batch(3, pad_info={"x": ([None], -1)})
    assert rows(data) == [[[[1, -1, -1], [2, 2, -1], [3, 3, 3]], [1, 2, 3]]]
    fixed = ds.GeneratorDataset(source, ["x", "y"], shuffle=False).padded_batch(2, pad_info={"x": ([4], 0)})
    assert col(fixed) == [[[1, 0, 0, 0], [2, 2, 0, 0]], [[3, 3, 3, 0]]]
    everything = ds.GeneratorDataset(source, ["x", "y"], shuffle=False).padded_batch(3, pad_info={})
    assert col(everything) == [[[1, 0, 0], [2, 2, 0], [3, 3, 3]]]
    too_small = ds.GeneratorDataset(source, ["x", "y"], shuffle=False).padded_batch(3, pad_info={"x": ([2], 0)})
    with pytest.raises(RuntimeError, match="smaller than"):
        rows(too_small)


def test_batch_accepts_legacy_pad_info():
    source = [(np.ones(i, np.float32),) for i in (1, 3)]
    data = ds.GeneratorDataset(source, ["x"], shuffle=False).batch(2, pad_info={"x": (None, 5.0)})
    assert col(data) == [[[1.0, 5.0, 5.0], [1.0, 1.0, 1.0]]]


# -- repeat / batch order ------------------------------------------------------------------------------------------
def test_batch_after_repeat_crosses_epoch_boundaries():
    data = numbers(5).repeat(2).batch(3)
    assert col(data) == [[0, 1, 2], [3, 4, 0], [1, 2, 3], [4]]
    assert data.get_dataset_size() == 4


def test_repeat_after_batch_keeps_partial_batches():
    data = numbers(5).batch(3).repeat(2)
    assert col(data) == [[0, 1, 2], [3, 4], [0, 1, 2], [3, 4]]
    assert data.get_dataset_size() == 4 and data.get_repeat_count() == 2 and data.get_batch_size() == 3


def test_repeat_forever_is_bounded_by_take_and_argument_checks():
    assert col(numbers(2).repeat().take(5)) == [0, 1, 0, 1, 0]
    assert numbers(2).repeat(-1).get_dataset_size() == -1
    with pytest.raises(ValueError):
        numbers(2).repeat(0)


# -- shuffle ------------------------------------------------------------------------------------------------------
def test_shuffle_is_a_permutation_reproducible_with_a_seed_and_reshuffled_per_epoch():
    ds.config.set_seed(1234)
    first_run = [col(numbers(20).shuffle(5)) for _ in range(2)]
    assert first_run[0] == first_run[1]
    assert sorted(first_run[0]) == list(range(20)) and first_run[0] != list(range(20))
    iterator = numbers(20).shuffle(5).create_tuple_iterator(output_numpy=True, num_epochs=2)
    epoch1 = [r[0].item() for r in iterator]
    epoch2 = [r[0].item() for r in iterator]
    assert epoch1 == first_run[0] and sorted(epoch2) == list(range(20)) and epoch1 != epoch2
    ds.config.set_seed(99)
    assert col(numbers(20).shuffle(5)) != first_run[0]


def test_shuffle_buffer_limits_how_far_rows_move():
    ds.config.set_seed(5)
    out = col(numbers(50).shuffle(4))
    # with a buffer of 4, the row emitted at position i was read at most 3 rows ahead of it
    assert all(value <= i + 3 for i, value in enumerate(out))
    with pytest.raises(ValueError):
        numbers(5).shuffle(1)


# -- take / skip / zip / concat / project / rename / filter ------------------------------------------------------
def test_take_and_skip():
    assert col(numbers(10).skip(3).take(4)) == [3, 4, 5, 6]
    assert numbers(10).skip(3).take(4).get_dataset_size() == 4
    assert col(numbers(3).take(-1)) == [0, 1, 2] and col(numbers(3).skip(5)) == []
    assert col(numbers(5).batch(2).take(2)) == [[0, 1], [2, 3]]


def test_zip_joins_columns_and_stops_at_shortest():
    zipped = ds.zip((numbers(4, "a"), numbers(3, "b")))
    assert zipped.get_col_names() == ["a", "b"] and zipped.get_dataset_size() == 3
    assert rows(zipped) == [[0, 0], [1, 1], [2, 2]]
    assert rows(numbers(2, "a").zip(numbers(2, "b"))) == [[0, 0], [1, 1]]
    with pytest.raises(RuntimeError, match="duplicate column"):
        ds.zip((numbers(2), numbers(2))).get_col_names()
    with pytest.raises(ValueError):
        ds.zip((numbers(2),))


def test_concat_and_plus():
    data = numbers(2) + numbers(3)
    assert col(data) == [0, 1, 0, 1, 2] and data.get_dataset_size() == 5
    assert col(numbers(1).concat([numbers(1), numbers(2)])) == [0, 0, 0, 1]
    with pytest.raises(RuntimeError, match="column names"):
        (numbers(1, "a") + numbers(1, "b")).get_col_names()


def test_project_and_rename():
    data = ds.NumpySlicesDataset({"a": [1], "b": [2], "c": [3]}, shuffle=False)
    data = data.project(["c", "a"]).rename(["c"], ["cc"])
    assert data.get_col_names() == ["cc", "a"] and rows(data) == [[3, 1]]
    with pytest.raises(RuntimeError, match="does not exist"):
        numbers(1).project(["y"]).get_col_names()
    with pytest.raises(RuntimeError, match="doesn't exist"):
        numbers(1).rename(["y"], ["z"]).get_col_names()


def test_filter_keeps_rows_where_predicate_is_true():
    data = ds.NumpySlicesDataset({"a": list(range(10)), "b": list(range(10))}, shuffle=False)
    kept = data.filter(lambda a: a % 3 == 0, input_columns=["a"], num_parallel_workers=2)
    assert col(kept) == [0, 3, 6, 9] and kept.get_dataset_size() == 4
    both = ds.NumpySlicesDataset({"a": [1, 2], "b": [2, 2]}, shuffle=False).filter(lambda a, b: a == b)
    assert rows(both) == [[2, 2]]


# -- split ---------------------------------------------------------------------------------------------------------
def test_split_mappable_random_is_a_partition_stable_across_epochs():
    train, test = numbers(10).split([0.8, 0.2])
    assert train.get_dataset_size() == 8 and test.get_dataset_size() == 2
    iterator = train.create_tuple_iterator(output_numpy=True, num_epochs=2)
    epoch1 = sorted(r[0].item() for r in iterator)
    epoch2 = sorted(r[0].item() for r in iterator)
    assert epoch1 == epoch2
    assert sorted(epoch1 + col(test)) == list(range(10))


def test_split_sizes_rules():
    a, b, c = numbers(10).split([3, 3, 4], randomize=False)
    assert (col(a), col(b), col(c)) == ([0, 1, 2], [3, 4, 5], [6, 7, 8, 9])
    # rounding: 0.33*10 -> 3 each (sum 9), the missing row goes to the first split
    sizes = [s.get_dataset_size() for s in numbers(10).split([0.33, 0.33, 0.34])]
    assert sizes == [4, 3, 3]
    with pytest.raises(RuntimeError, match="not equal to dataset size"):
        numbers(10).split([3, 3])
    with pytest.raises(ValueError):
        numbers(10).split([0.5, 0.6])
    with pytest.raises(RuntimeError, match="too small"):
        numbers(10).split([0.01, 0.99])
    with pytest.raises(RuntimeError, match="sharded"):
        ds.NumpySlicesDataset([1, 2, 3, 4], num_shards=2, shard_id=0).split([0.5, 0.5])


def test_split_of_a_generator_source_uses_skip_and_take():
    def gen():
        for i in range(10):
            yield (np.array(i),)

    first, second = ds.GeneratorDataset(gen, ["x"]).split([7, 3], randomize=False)
    assert col(first) == list(range(7)) and col(second) == [7, 8, 9]
    first, second = ds.GeneratorDataset(gen, ["x"]).split([7, 3])
    assert sorted(col(first) + col(second)) == list(range(10))


# -- getters / edge cases -------------------------------------------------------------------------------------------
def test_getters():
    data = ds.NumpySlicesDataset((np.zeros((6, 2, 3), np.float32), np.arange(6, dtype=np.int32)),
                                 column_names=["img", "label"], shuffle=False).batch(4)
    assert data.get_col_names() == ["img", "label"]
    assert data.output_shapes() == [[4, 2, 3], [4]]
    assert data.output_types() == [np.dtype("float32"), np.dtype("int32")]
    assert data.get_dataset_size() == 2 and data.get_batch_size() == 4 and data.get_repeat_count() == 1
    assert data.output_shapes(estimate=True) == [[None, 2, 3], [None]]


def test_empty_dataset():
    empty = ds.GeneratorDataset([], ["x"])
    assert rows(empty) == [] and empty.get_dataset_size() == 0
    assert ds.GeneratorDataset([], ["x"]).batch(4).get_dataset_size() == 0
    assert rows(ds.GeneratorDataset([], ["x"]).batch(4)) == []
    assert rows(numbers(3).filter(lambda x: False)) == []
    with pytest.raises(RuntimeError, match="no rows"):
        ds.GeneratorDataset([], ["x"]).output_shapes()


def test_apply_and_flat_map():
    assert col(numbers(5).apply(lambda d: d.batch(2))) == [[0, 1], [2, 3], [4]]
    flat = ds.NumpySlicesDataset([[0, 1], [2, 3]], shuffle=False).flat_map(
        lambda arr: ds.NumpySlicesDataset(arr, shuffle=False))
    assert col(flat) == [0, 1, 2, 3]


def test_column_order_of_mindspore_1x_code_projects_after_map_and_batch():
    data = ds.NumpySlicesDataset({"a": [1, 2], "b": [3, 4]}, shuffle=False)
    data = data.map(lambda a: (a, a * 10), input_columns=["a"], output_columns=["a", "c"],
                    column_order=["c", "b", "a"])
    assert data.get_col_names() == ["c", "b", "a"] and rows(data) == [[10, 3, 1], [20, 4, 2]]
    assert numbers(4).batch(2, column_order=["x"]).get_col_names() == ["x"]


def test_unset_seed_gives_a_fresh_shuffle_per_pipeline_like_mindspore():
    config._config["seed"] = config.DEFAULT_SEED
    orders = {tuple(col(numbers(30).shuffle(30))) for _ in range(3)}
    assert len(orders) > 1


def test_batch_of_dict_column_batches_key_by_key():
    def gen():
        for i in range(4):
            yield {"nested": {"powers": np.power(i, [1, 2, 3])}, "n": i}, i

    out = list(ds.GeneratorDataset(gen, ["col1", "col2"]).batch(4).create_dict_iterator(output_numpy=True))
    assert len(out) == 1
    np.testing.assert_array_equal(out[0]["col1"]["nested"]["powers"], np.power(np.arange(4)[:, None], [1, 2, 3]))
    np.testing.assert_array_equal(out[0]["col1"]["n"], np.arange(4))


def test_per_batch_map_may_return_dict_columns():
    def per_batch(col1, batch_info):
        return {"orig": col1, "index": np.arange(3)}, {"copy": col1}

    data = ds.GeneratorDataset(lambda: iter(range(6)), ["col1"])
    data = data.batch(3, per_batch_map=per_batch, output_columns=["col1", "col2"])
    out = list(data.create_dict_iterator(output_numpy=True))
    np.testing.assert_array_equal(out[1]["col1"]["orig"], [3, 4, 5])
    np.testing.assert_array_equal(out[1]["col1"]["index"], [0, 1, 2])
    np.testing.assert_array_equal(out[0]["col2"]["copy"], [0, 1, 2])


@pytest.fixture()
def restore_debug_hooks():
    saved = list(config._debug_hooks)
    yield
    config._debug_hooks[:] = saved
    config._config["debug_mode"] = False


def test_debug_mode_prints_each_operations_input_and_output_as_mindspore(capsys, restore_debug_hooks):
    """Tutorial "Data Processing Debugging Methods", Method 2, way two: the default hook's lines are 2.10's."""
    import mindspore.dataset.vision as vision
    ds.config.set_debug_mode(True)
    data = ds.GeneratorDataset([(np.ones((32, 32, 3)),)], ["data"], shuffle=False)
    data = data.map([vision.Resize((16, 16)), vision.Crop((0, 0), 8)])
    assert [r[0].shape for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)] == [(8, 8, 3)]
    assert capsys.readouterr().out.splitlines() == [
        "[Dataset debugger] Print the [INPUT] of the operation [Resize].",
        "Column 0. The dtype is [float64]. The shape is [(32, 32, 3)].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [Resize].",
        "Column 0. The dtype is [float64]. The shape is [(16, 16, 3)].",
        "[Dataset debugger] Print the [OUTPUT] of the operation [Crop].",
        "Column 0. The dtype is [float64]. The shape is [(8, 8, 3)]."]


def test_user_debug_hooks_see_the_columns_around_every_operation(restore_debug_hooks):
    import mindspore.dataset.debug as debug
    seen = []

    class MyHook(debug.DebugHook):
        def compute(self, *args):
            seen.append((self.prev_op_name, args[0][0].shape))   # args[0]: the tuple of columns, as in MindSpore
            return args

    with pytest.raises(ValueError, match="It is not allowed to inject DebugHook object in non-debug mode."):
        numbers(2).map([lambda x: x, MyHook()])
    with pytest.raises(TypeError, match="All items in debug_hook_list must be of type DebugHook."):
        ds.config.set_debug_mode(True, debug_hook_list=[print])
    ds.config.set_debug_mode(True, debug_hook_list=[MyHook()])
    data = ds.GeneratorDataset([(np.ones((4, 2)),)], ["data"], shuffle=False)
    data = data.map([lambda x: x[:2], MyHook(), lambda x: x.T])
    assert [r[0].shape for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)] == [(2, 2)]
    # before the first operation, after each, and the user's own hook (reporting the operation before it)
    assert seen == [("<lambda>", (4, 2)), ("<lambda>", (2, 2)), ("<lambda>", (2, 2)), ("MyHook", (2, 2)),
                    ("<lambda>", (2, 2))]


def test_debug_mode_without_a_seed_uses_seed_1_as_mindspore(restore_debug_hooks):
    """2.10's set_debug_mode: "If random seed has not been set, the system will internally set the seed to 1", so a
    debugged pipeline gives the same rows every run."""
    def order():
        data = ds.NumpySlicesDataset({"x": np.arange(8)}, shuffle=True)
        return [int(r[0]) for r in data.create_tuple_iterator(num_epochs=1, output_numpy=True)]

    config._config["seed"] = config.DEFAULT_SEED
    ds.config.set_debug_mode(True, debug_hook_list=[])
    in_debug = order()
    assert order() == in_debug and ds.config.get_seed() == config.DEFAULT_SEED
    ds.config.set_debug_mode(False)
    ds.config.set_seed(1)
    assert order() == in_debug
