"""Row orders under a fixed ``ds.config.set_seed`` are MindSpore 2.10's, epoch after epoch.

The orders were recorded from real 2.10 by ``tests/fixtures/shuffle_order/record.py`` (``orders*.json``): each
case is a pipeline over the row ids ``0..n-1`` (PKSampler: over a 24-image MNIST file pair whose first pixel is
the row id; MindDataset: over 3 MindRecord files of 7, 13 and 4 rows; TextFileDataset: over 3 text files of 5, 8
and 3 lines), iterated for 2 or 3 epochs of one iterator. Small cases run through the whole pipeline; the long
ones (over 1000 rows) ask the sampler for its ids directly. The file sources (``orders_filesources.json``: text,
CSV, CLUE, TFRecord from the stored ``tfrecord/`` files, AGNews, IMDB), MindDataset's ``num_samples`` and padded
rows (``orders_mindrecord_more.json``) and DistributedSampler over rebuilt pipelines (``orders_rebuild.json``)
replay through record.py's own case builders.
"""
import hashlib
import importlib.util
import json
import pathlib
import struct
import time

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset.engine import cxx_random

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "shuffle_order"
CASES = json.loads((FIXTURES / "orders.json").read_text())["cases"]
SAMPLER_CASES = json.loads((FIXTURES / "orders_samplers.json").read_text())["cases"]
MINDRECORD_CASES = json.loads((FIXTURES / "orders_mindrecord.json").read_text())["cases"]
PIPELINE_CASES = json.loads((FIXTURES / "orders_pipelines.json").read_text())["cases"]
TEXT_CASES = json.loads((FIXTURES / "orders_textfile.json").read_text())["cases"]
FILE_SOURCE_CASES = json.loads((FIXTURES / "orders_filesources.json").read_text())["cases"]
MINDRECORD_MORE_CASES = json.loads((FIXTURES / "orders_mindrecord_more.json").read_text())["cases"]
REBUILD_CASES = json.loads((FIXTURES / "orders_rebuild.json").read_text())["cases"]
MNIST_LABELS = [2, 0, 1, 3, 0, 2, 2, 1, 0, 3, 1, 2, 0, 0, 2, 1, 3, 2, 0, 1, 2, 0, 2, 1]   # as record.py writes


def _matches(ids, recorded):
    ids = [int(i) for i in ids]
    if "ids" in recorded:
        return ids == recorded["ids"]
    digest = hashlib.sha256(np.asarray(ids, dtype="<i8").tobytes()).hexdigest()
    return len(ids) == recorded["len"] and ids[:40] == recorded["head"] and digest == recorded["sha256"]


def _source(case, **kwargs):
    return ds.NumpySlicesDataset({"x": np.arange(case["n"], dtype=np.int64)}, **kwargs)


def _pipeline(case):
    kind = case["kind"]
    if kind == "random":
        return _source(case, shuffle=True)
    if kind == "random_replacement":
        return _source(case, sampler=ds.RandomSampler(replacement=True, num_samples=case["num_samples"]))
    if kind == "random_num_samples":
        return _source(case, sampler=ds.RandomSampler(num_samples=case["num_samples"]))
    if kind == "shuffle_arg_num_samples":
        return _source(case, shuffle=True, num_samples=case["num_samples"])
    if kind == "buffer":
        return _source(case, shuffle=False).shuffle(case["buffer_size"])
    return _source(case, num_shards=case["num_shards"], shard_id=case["shard_id"], shuffle=True)


def _epochs(data, epochs):
    it = data.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    return [[int(np.asarray(row[0]).reshape(-1)[0]) for row in it] for _ in range(epochs)]


@pytest.fixture(scope="module")
def mnist_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mnist")
    count = len(MNIST_LABELS)
    images = np.zeros((count, 28, 28), np.uint8)
    images[:, 0, 0] = np.arange(count)
    (folder / "train-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, count, 28, 28) + images.tobytes())
    (folder / "train-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, count) + bytes(MNIST_LABELS))
    return str(folder)


def _sampler_pipeline(case, mnist_dir):
    kind = case["kind"]
    if kind == "subset_random":
        return _source(case, sampler=ds.SubsetRandomSampler(case["indices"], case["num_samples"]))
    if kind == "weighted":
        return _source(case, sampler=ds.WeightedRandomSampler(case["weights"], case["num_samples"],
                                                                 case["replacement"]))
    sampler = ds.PKSampler(case["num_val"], shuffle=case["shuffle"], num_samples=case["num_samples"])
    return ds.MnistDataset(mnist_dir, sampler=sampler)


@pytest.fixture
def restore_seed():
    saved = ds.config.get_seed()
    yield
    ds.config.set_seed(saved)


def _name(case):
    extra = "-".join(f"{k}{case[k]}" for k in ("num_samples", "buffer_size", "num_shards", "shard_id") if k in case)
    return f"{case['kind']}-seed{case['seed']}-n{case['n']}" + (f"-{extra}" if extra else "")


SMALL = [c for c in CASES if c["n"] <= 1000]
# the long orders (both shuffle paths of libstdc++: n <= 65535 draws pairs) for two of the seeds, to keep it fast
LARGE = [c for c in CASES if c["n"] > 1000 and c["kind"] != "buffer" and c["seed"] in (0, 987654321)]
# a 70 000-row buffer shuffle through the pipeline (its first epoch: the later ones cost seconds; the 1000-row
# cases check that the engine runs on from epoch to epoch)
BIG_BUFFER = next(c for c in CASES if c["kind"] == "buffer" and c["n"] > 1000 and c["seed"] == 0)


@pytest.mark.parametrize("case", SMALL, ids=_name)
def test_pipeline_orders_match_2_10(case, restore_seed):
    ds.config.set_seed(case["seed"])
    got = _epochs(_pipeline(case), len(case["epochs"]))
    for epoch, (ids, recorded) in enumerate(zip(got, case["epochs"])):
        assert _matches(ids, recorded), f"epoch {epoch}: {ids[:12]}"


@pytest.fixture(scope="module")
def mindrecord_files(tmp_path_factory):
    from mindspore.mindrecord import FileWriter
    folder = tmp_path_factory.mktemp("mindrecord")
    files, start = [], 0
    for k, count in enumerate((7, 13, 4)):
        path = str(folder / f"part{k}.mindrecord")
        writer = FileWriter(path, shard_num=1, overwrite=True)
        writer.add_schema({"id": {"type": "int64"}}, "ids")
        writer.write_raw_data([{"id": i} for i in range(start, start + count)])
        writer.commit()
        files.append(path)
        start += count
    return files


def _mindrecord_name(case):
    return f"{case['kind']}-seed{case['seed']}-{case.get('shuffle')}"


@pytest.mark.parametrize("case", MINDRECORD_CASES, ids=_mindrecord_name)
def test_mindrecord_orders_match_2_10(case, mindrecord_files, restore_seed):
    ds.config.set_seed(case["seed"])
    modes = {"none": None, "true": True, "global": ds.Shuffle.GLOBAL, "files": ds.Shuffle.FILES,
             "infile": ds.Shuffle.INFILE}
    if case["kind"] == "mindrecord_random_sampler":
        data = ds.MindDataset(mindrecord_files, sampler=ds.RandomSampler())
    elif case["kind"] == "mindrecord_distributed_sampler":
        sampler = ds.DistributedSampler(case["num_shards"], case["shard_id"])
        data = ds.MindDataset(mindrecord_files, sampler=sampler)
    elif case["kind"] == "mindrecord_shard":
        data = ds.MindDataset(mindrecord_files, shuffle=modes[case["shuffle"]], num_shards=case["num_shards"],
                              shard_id=case["shard_id"])
    else:
        data = ds.MindDataset(mindrecord_files, shuffle=modes[case["shuffle"]])
    got = _epochs(data, len(case["epochs"]))
    for epoch, (ids, recorded) in enumerate(zip(got, case["epochs"])):
        assert _matches(ids, recorded), f"epoch {epoch}: {ids[:12]}"


def _composed(case):
    kind = case["kind"]
    if kind == "repeat":
        return _source(case, shuffle=True).repeat(2)
    if kind == "shuffle_repeat":
        return _source(case, shuffle=False).shuffle(case["buffer_size"]).repeat(2)
    if kind == "repeat_shuffle":
        return _source(case, shuffle=False).repeat(2).shuffle(case["buffer_size"])
    if kind == "child_sampler":
        sampler = ds.SequentialSampler(2, 5)
        sampler.add_child(ds.RandomSampler())
        return _source(case, sampler=sampler)
    return ds.zip((_source(case, shuffle=True), ds.NumpySlicesDataset({"y": np.arange(case["n"])}, shuffle=True)))


@pytest.mark.parametrize("case", PIPELINE_CASES, ids=lambda case: case["kind"])
def test_composed_orders_match_2_10(case, restore_seed):
    # shuffles under repeat (a repetition is a pass: samplers re-seed, ShuffleOp's engine runs on), a sampler over
    # a random child, and two shuffled sources zipped (both seeded from the one configured seed)
    ds.config.set_seed(case["seed"])
    got = _epochs(_composed(case), len(case["epochs"]))
    for epoch, (ids, recorded) in enumerate(zip(got, case["epochs"])):
        assert _matches(ids, recorded), f"epoch {epoch}: {ids[:12]}"


@pytest.fixture(scope="module")
def text_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("text")
    files, start = [], 0
    for k, count in enumerate((5, 8, 3)):
        path = folder / f"part{k}.txt"
        path.write_text("".join(f"{i}\n" for i in range(start, start + count)))
        files.append(str(path))
        start += count
    return files


def _text_name(case):
    return f"seed{case['seed']}-{case['shuffle']}-workers{case['workers']}-shards{case['shards']}"


@pytest.mark.parametrize("case", TEXT_CASES, ids=_text_name)
def test_text_file_orders_match_2_10(case, text_files, restore_seed):
    # files shuffled by NonMappableLeafOp, read by 1 or 2 reader threads, then (GLOBAL) 2.10's ShuffleOp
    ds.config.set_seed(case["seed"])
    shards = {"num_shards": case["shards"][0], "shard_id": case["shards"][1]} if case["shards"] else {}
    shuffle = ds.Shuffle.GLOBAL if case["shuffle"] == "global" else ds.Shuffle.FILES
    data = ds.TextFileDataset(text_files, shuffle=shuffle, num_parallel_workers=case["workers"], **shards)
    it = data.create_tuple_iterator(num_epochs=len(case["epochs"]), output_numpy=True)
    for epoch, recorded in enumerate(case["epochs"]):
        ids = [int(str(np.asarray(row[0]).item())) for row in it]
        assert _matches(ids, recorded), f"epoch {epoch}: {ids}"


def test_minstd_rand0_reference_output():
    # the C++ standard's check: the 10000th output of a default-constructed std::minstd_rand0 is 1043618065
    assert int(cxx_random.MinstdRand0Stream(1).take(10000)[-1]) + 1 == 1043618065


def _sampler_name(case):
    extra = "-".join(f"{k}{case[k]}" for k in ("replacement", "shuffle", "num_samples") if k in case)
    return f"{case['kind']}-seed{case['seed']}-{extra}"


@pytest.mark.parametrize("case", SAMPLER_CASES, ids=_sampler_name)
def test_other_sampler_orders_match_2_10(case, mnist_dir, restore_seed):
    ds.config.set_seed(case["seed"])
    got = _epochs(_sampler_pipeline(case, mnist_dir), len(case["epochs"]))
    for epoch, (ids, recorded) in enumerate(zip(got, case["epochs"])):
        assert _matches(ids, recorded), f"epoch {epoch}: {ids[:12]}"


def test_big_buffer_shuffle_matches_2_10(restore_seed):
    ds.config.set_seed(BIG_BUFFER["seed"])
    assert _matches(_epochs(_pipeline(BIG_BUFFER), 1)[0], BIG_BUFFER["epochs"][0])


@pytest.mark.parametrize("case", LARGE, ids=_name)
def test_sampler_orders_match_2_10(case, restore_seed):
    ds.config.set_seed(case["seed"])
    sampler = _pipeline(case).sampler
    for epoch, recorded in enumerate(case["epochs"]):
        assert _matches(sampler._ids(case["n"], epoch, case["seed"]), recorded), f"epoch {epoch}"


def test_mt19937_64_reference_output():
    # the C++ standard's check: the 10000th output of a default-constructed std::mt19937_64
    assert int(cxx_random.MT19937_64(5489).take(10000)[-1]) == 9981545732273789042
    assert int(cxx_random.mt19937_raw(5489, 10000)[-1]) == 4123659995


def test_shuffle_of_60000_rows_is_fast():
    start = time.perf_counter()
    order = cxx_random.std_shuffle(np.arange(60000), cxx_random.MT19937Stream(7))
    assert time.perf_counter() - start < 1.0
    assert sorted(order.tolist()) == list(range(60000))


def test_unset_seed_still_varies_between_runs(restore_seed):
    ds.config.set_seed(5489)
    data = ds.NumpySlicesDataset({"x": np.arange(50)}, shuffle=True)
    orders = {tuple(int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)) for _ in range(4)}
    assert len(orders) > 1


# -- file sources, MindDataset's num_samples and padding, DistributedSampler over rebuilt pipelines -----------------
# These replay the cases of record.py's "filesources", "mindrecord_more" and "rebuild" groups through the very case
# builders that recorded them (record.py is loaded as a module; it writes the same files), checking that each
# builder still describes its recorded case.

def _load_recorder():
    spec = importlib.util.spec_from_file_location("shuffle_order_record", FIXTURES / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORDER = _load_recorder()


def _params(case, skip=("kind", "seed", "epochs")):
    return {k: v for k, v in case.items() if k not in skip}


def _json_params(params):
    return json.loads(json.dumps(params))       # tuples as the fixture holds them (lists)


@pytest.fixture(scope="module")
def file_source_builders(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("file_sources"))
    files = RECORDER.write_file_sources(folder)
    # the TFRecord files are stored with the fixture (2.10 read these very bytes)
    files["tfrecord"] = [str(FIXTURES / "tfrecord" / f"part{k}.tfrecord") for k in range(len(RECORDER.FILE_COUNTS))]
    return RECORDER.file_source_cases(files) + RECORDER.buffer_cases(RECORDER.write_buffer_layouts(folder))


def _file_source_name(case):
    if case["kind"] == "text_buffer":
        return f"buffer-{case['layout']}"
    extra = f"-num_samples{case['num_samples']}" if "num_samples" in case else ""
    equal = "-equal_rows" if case["kind"] == "tfrecord_equal_rows" else ""
    return (f"{case['source']}-seed{case['seed']}-{case['shuffle']}-workers{case['workers']}-shards{case['shards']}"
            f"{equal}{extra}")


@pytest.mark.parametrize("index", range(len(FILE_SOURCE_CASES)), ids=[_file_source_name(c) for c in FILE_SOURCE_CASES])
def test_file_source_orders_match_2_10(index, file_source_builders, restore_seed):
    # TextFile/CSV/CLUE/TFRecord/AGNews: INFILE reads in order; GLOBAL's buffer holds 4 rows per file of a shard
    # (at most 10000); TFRecord shards whole files unless shard_equal_rows
    case = FILE_SOURCE_CASES[index]
    kind, seed, params, make = file_source_builders[index]
    assert (kind, seed, _json_params(params)) == (case["kind"], case["seed"], _params(case))
    ds.config.set_seed(seed)
    it = make().create_tuple_iterator(num_epochs=len(case["epochs"]), output_numpy=True)
    for epoch, recorded in enumerate(case["epochs"]):
        ids = [RECORDER._row_id(row[0]) for row in it]
        assert _matches(ids, recorded), f"epoch {epoch}: {ids[:24]}"


@pytest.mark.parametrize("recorded", json.loads((FIXTURES / "orders_filesources.json").read_text())["tfrecord_sizes"],
                         ids=lambda r: f"shards{r['num_shards']}-id{r['shard_id']}-equal{r['shard_equal_rows']}")
def test_tfrecord_shard_sizes_match_2_10(recorded):
    # 2.10 counts a file-sharded TFRecord shard by its files before any shuffle (shard 1 of 2: files 1 and 3, 8 + 6
    # rows; shard 2 of 3: file 2, 3 rows); with shard_equal_rows, ceil(22 / num_shards)
    files = [str(FIXTURES / "tfrecord" / f"part{k}.tfrecord") for k in range(4)]
    data = ds.TFRecordDataset(files, num_shards=recorded["num_shards"], shard_id=recorded["shard_id"], shuffle=False,
                              shard_equal_rows=recorded["shard_equal_rows"])
    assert data.get_dataset_size() == recorded["size"]


@pytest.fixture(scope="module")
def mindrecord_more_builders(tmp_path_factory):
    return RECORDER.mindrecord_more_cases(RECORDER.write_mindrecord(str(tmp_path_factory.mktemp("mindrecord_more"))))


def _mindrecord_more_name(case):
    extra = "-".join(f"{k}{case[k]}" for k in ("num_samples", "num_shards", "shard_id", "num_padded") if k in case)
    return f"{case['kind']}-seed{case['seed']}-{case.get('shuffle', '')}-{extra}"


@pytest.mark.parametrize("index", range(len(MINDRECORD_MORE_CASES)),
                         ids=[_mindrecord_more_name(c) for c in MINDRECORD_MORE_CASES])
def test_mindrecord_num_samples_and_padding_orders_match_2_10(index, mindrecord_more_builders, restore_seed):
    # unsharded global shuffle + num_samples: draws with replacement, each from a fresh std::mt19937(seed + 1 + pass
    # + k) and from the previous pass's draws; padded rows shuffle with the rows (FILES keeps them last)
    case = MINDRECORD_MORE_CASES[index]
    kind, seed, params, make = mindrecord_more_builders[index]
    assert (kind, seed, _json_params(params)) == (case["kind"], case["seed"], _params(case))
    ds.config.set_seed(seed)
    got = _epochs(make(), len(case["epochs"]))
    for epoch, (ids, recorded) in enumerate(zip(got, case["epochs"])):
        assert _matches(ids, recorded), f"epoch {epoch}: {ids[:12]}"


def test_fresh_engine_draws_match_the_stream_ones():
    seeds = np.r_[0:40, 2 ** 32 - 3:2 ** 32 + 3, 987654321:987654330]
    expected = [int(cxx_random.std_uniform_ints(cxx_random.MT19937Stream(int(s)), [22])[0]) for s in seeds]
    assert cxx_random.std_uniform_ints_fresh(seeds, 22).tolist() == expected
    assert cxx_random.std_uniform_ints_fresh(seeds, 2 ** 32 - 2).tolist() == [
        int(cxx_random.std_uniform_ints(cxx_random.MT19937Stream(int(s)), [2 ** 32 - 2])[0]) for s in seeds]


@pytest.mark.parametrize("case", [c for c in REBUILD_CASES if c["kind"] != "model_train"],
                         ids=lambda c: f"{c['kind']}-seed{c['seed']}")
def test_distributed_sampler_over_rebuilt_pipelines_matches_2_10(case, restore_seed):
    # 2.10 parses a deep copy of the pipeline, so its `seed += 1` never reaches the user's sampler: every new
    # iterator (tuple or dict, after get_dataset_size too) starts from the sampler's seed + 1; epochs of one
    # iterator draw seed + 1 + epoch; the seed is the one configured when the sampler was made
    ds.config.set_seed(case["seed"])
    assert RECORDER.REBUILD[case["kind"]]() == case["runs"]


def test_distributed_sampler_over_model_train_epochs_matches_2_10(restore_seed):
    import mindspore as ms
    mode = ms.get_context("mode")
    try:
        for case in (c for c in REBUILD_CASES if c["kind"] == "model_train"):
            ds.config.set_seed(case["seed"])
            assert RECORDER.REBUILD["model_train"]() == case["runs"]
    finally:
        ms.set_context(mode=mode)
