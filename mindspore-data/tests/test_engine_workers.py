"""Parallel workers: real parallelism, determinism whatever the worker count, errors reported with the row, clean
shutdown (no hang, no orphan process, no leaked shared memory) and prefetching."""
import gc
import multiprocessing
import os
import time

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config
from mindspore.dataset.engine import workers


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def numbers(n):
    return ds.NumpySlicesDataset({"x": list(range(n))}, shuffle=False)


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def no_children_left(timeout=5.0):
    deadline = time.time() + timeout
    while multiprocessing.active_children() and time.time() < deadline:
        time.sleep(0.05)
    return not multiprocessing.active_children()


def shm_segments():
    return set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()


def random_op(x):
    rng = config._transform_rng()
    return x * 1000 + rng.integers(0, 1000), rng.random(3).astype(np.float32)


@pytest.mark.parametrize("multiprocessing_", [False, True])
def test_random_map_is_identical_for_1_and_2_workers(multiprocessing_):
    ds.config.set_seed(42)

    def run(workers_):
        data = numbers(24).map(random_op, input_columns=["x"], output_columns=["a", "b"],
                               num_parallel_workers=workers_, python_multiprocessing=multiprocessing_)
        data = data.shuffle(6).batch(5)
        iterator = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
        return [[c.tolist() for c in row] for _ in range(2) for row in iterator]

    one, two = run(1), run(2)
    assert one == two
    assert one[:5] != one[5:10]        # the second epoch draws new numbers
    assert no_children_left()


def test_transform_rng_differs_between_rows_and_map_nodes():
    ds.config.set_seed(1)
    data = numbers(8).map(lambda x: config._transform_rng().integers(0, 2 ** 31), input_columns=["x"])
    data = data.map(lambda x: (x, config._transform_rng().integers(0, 2 ** 31)), input_columns=["x"],
                    output_columns=["x", "y"])
    rows = [[c.item() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert len({r[0] for r in rows}) == 8 and all(r[0] != r[1] for r in rows)


def most_at_once(spans):
    """The most of the (begin, end) time spans that hold one instant (spans that only touch do not count)."""
    events = sorted([(b, 1) for b, _ in spans] + [(e, -1) for _, e in spans])
    best = now = 0
    for _, step in events:
        now += step
        best = max(best, now)
    return best


def test_most_at_once_counts_overlaps_only():
    assert most_at_once([(0, 1), (1, 2), (2, 3)]) == 1
    assert most_at_once([(0, 2), (1, 3), (1.5, 4), (3.5, 5)]) == 3


@pytest.mark.parametrize("multiprocessing_", [False, True])
def test_workers_run_in_parallel(multiprocessing_):
    # the calls' own time spans show whether they ran at once (a wall-clock bound on the whole run would fail on a
    # loaded machine)
    def slow(x):
        begin = time.time()
        time.sleep(0.1)
        return x, np.array(os.getpid()), np.array(begin), np.array(time.time())

    data = numbers(8).map(slow, input_columns=["x"], output_columns=["x", "pid", "begin", "end"],
                          num_parallel_workers=min(4, os.cpu_count()), python_multiprocessing=multiprocessing_)
    out = [[c.item() for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    assert [r[0] for r in out] == list(range(8))              # order kept
    assert most_at_once([(r[2], r[3]) for r in out]) >= 2      # serial calls would never overlap
    pids = {r[1] for r in out}
    if multiprocessing_:
        assert os.getpid() not in pids and len(pids) > 1
    else:
        assert pids == {os.getpid()}
    assert no_children_left()


@pytest.mark.parametrize("multiprocessing_", [False, True])
def test_worker_exception_reports_type_message_and_row(multiprocessing_):
    def bad(x):
        if x == 13:
            raise KeyError("thirteen")
        return x

    data = numbers(40).map(bad, input_columns=["x"], num_parallel_workers=2, python_multiprocessing=multiprocessing_)
    iterator = data.create_tuple_iterator(output_numpy=True)
    start = time.perf_counter()
    with pytest.raises(KeyError, match="thirteen") as info:
        for _ in iterator:
            pass
    assert "row 13" in str(info.value) and "'bad'" in str(info.value)
    if multiprocessing_:
        assert "Traceback" in str(info.value.__cause__)     # the worker's traceback is chained
    assert time.perf_counter() - start < 10
    with pytest.raises(StopIteration):
        next(iterator)
    assert no_children_left()


def test_unpicklable_worker_exception_still_reported():
    class Weird(Exception):
        def __init__(self, a, b):
            super().__init__(a)
            self.lock = __import__("threading").Lock()

    def bad(x):
        raise Weird("strange", 1)

    data = numbers(4).map(bad, input_columns=["x"], num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(RuntimeError, match="Weird: strange"):
        list(data.create_tuple_iterator(output_numpy=True))
    assert no_children_left()


def test_dead_worker_process_is_reported_without_hanging():
    def die(x):
        if x == 5:
            os._exit(7)
        return x

    data = numbers(40).map(die, input_columns=["x"], num_parallel_workers=2, python_multiprocessing=True)
    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="exit code 7"):
        list(data.create_tuple_iterator(output_numpy=True))
    assert time.perf_counter() - start < 10
    assert no_children_left()


@pytest.mark.parametrize("multiprocessing_", [False, True])
def test_sys_exit_in_a_map_function_is_an_error_naming_its_row(multiprocessing_):
    # a SystemExit re-raised in the main program would end it silently (exit status 3, no message)
    import sys

    def leave(x):
        if x == 5:
            sys.exit(3)
        return x

    data = numbers(12).map(leave, input_columns=["x"], num_parallel_workers=2, python_multiprocessing=multiprocessing_)
    with pytest.raises(RuntimeError, match=r"called SystemExit\(3\) while processing row 5 "):
        list(data.create_tuple_iterator(output_numpy=True))
    assert no_children_left()


def test_errors_in_sources_batch_and_filter_are_reported():
    class Source:
        def __getitem__(self, i):
            if i == 3:
                raise IndexError("no row three")
            return (np.array(i),)

        def __len__(self):
            return 6

    with pytest.raises(IndexError, match="(?s)no row three.*row 3"):
        list(ds.GeneratorDataset(Source(), ["x"], shuffle=False, num_parallel_workers=2).create_tuple_iterator())
    with pytest.raises(ZeroDivisionError, match="batch 1"):
        list(numbers(6).batch(2, per_batch_map=lambda x, info: ([1 / (info.get_batch_num() - 1)] * 2,),
                                input_columns=["x"]).create_tuple_iterator())
    with pytest.raises(TypeError, match="filter"):
        list(numbers(3).filter(lambda x: x + "a").create_tuple_iterator())
    assert no_children_left()


@pytest.mark.parametrize("multiprocessing_", [False, True])
def test_errors_of_user_code_are_runtime_errors_as_in_mindspore(multiprocessing_):
    """MindSpore raises every error from inside a pipeline as a RuntimeError ("Exception thrown from user defined
    Python function in dataset."); ours' error is that and still of the user's type."""
    class Loader:
        def __getitem__(self, index):
            return 1 / [1, 6, 0][index]

        def __len__(self):
            return 3

    with pytest.raises(RuntimeError, match="(?s)^Exception thrown from user defined Python function in dataset.\n"
                                           "ZeroDivisionError: division by zero.*row 2") as info:
        list(ds.GeneratorDataset(Loader(), ["x"], shuffle=False).create_tuple_iterator())
    assert isinstance(info.value, ZeroDivisionError) and type(info.value).__name__ == "ZeroDivisionError"

    def gen():
        yield (np.array(1),)
        raise KeyError("k")

    with pytest.raises(RuntimeError, match="KeyError: k\n.*row 1 of the source") as info:
        list(ds.GeneratorDataset(gen, ["x"]).create_tuple_iterator())
    assert isinstance(info.value, KeyError)
    data = numbers(4).map(lambda x: x + "a", input_columns=["x"], num_parallel_workers=2,
                          python_multiprocessing=multiprocessing_)
    with pytest.raises(RuntimeError, match="(?s)user defined Python function.*UFuncTypeError: ufunc 'add'") as info:
        list(data.create_tuple_iterator())
    assert isinstance(info.value, TypeError)
    assert no_children_left()


def test_errors_of_builtin_transforms_are_runtime_errors_without_the_user_code_note():
    import mindspore.dataset.vision as vision
    data = ds.GeneratorDataset([(np.ones((3, 16, 3), np.uint8),)], ["x"], shuffle=False)
    with pytest.raises(RuntimeError, match="Crop height dimension: 8 exceeds image height: 3") as info:
        list(data.map(vision.Crop((0, 0), 8)).create_tuple_iterator())
    assert "user defined" not in str(info.value)


def test_iterator_shuts_workers_down_when_exhausted_stopped_or_collected():
    data = numbers(200).map(lambda x: x * 2, input_columns=["x"], num_parallel_workers=2,
                            python_multiprocessing=True)
    # exhausted
    list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
    assert no_children_left()
    # stopped
    iterator = data.create_tuple_iterator(output_numpy=True)
    next(iterator)
    pids = iterator._worker_pids()
    assert len(pids) == 2 and all(alive(p) for p in pids)
    iterator.stop()
    assert not any(alive(p) for p in pids) and no_children_left()
    # garbage collected in the middle of an epoch
    iterator = data.create_tuple_iterator(output_numpy=True)
    next(iterator)
    pids = iterator._worker_pids()
    del iterator
    gc.collect()
    assert no_children_left() and not any(alive(p) for p in pids)


def test_workers_exit_when_their_parent_is_killed(tmp_path):
    script = tmp_path / "victim.py"
    pids_file = tmp_path / "pids"
    script.write_text(
        "import os, time, numpy as np\n"
        "import mindspore.dataset as ds\n"
        "data = ds.NumpySlicesDataset({'x': list(range(10 ** 6))}, shuffle=False)\n"
        "data = data.map(lambda x: x, input_columns=['x'], num_parallel_workers=2, python_multiprocessing=True)\n"
        "it = data.create_tuple_iterator(output_numpy=True)\n"
        "next(it)\n"
        f"open({str(pids_file)!r}, 'w').write(' '.join(map(str, it._worker_pids())))\n"
        "time.sleep(60)\n")
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, str(script)])
    try:
        deadline = time.time() + 60
        while not (pids_file.exists() and pids_file.read_text()) and time.time() < deadline:
            time.sleep(0.1)
        pids = [int(p) for p in pids_file.read_text().split()]
        assert pids and all(alive(p) for p in pids)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.time() + 10
    while any(alive(p) for p in pids) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in pids)


def test_large_arrays_travel_through_shared_memory_and_are_freed():
    before = shm_segments()
    calls = []
    original = workers._encode

    def counting_encode(obj, buf, state):
        calls.append(1)
        return original(obj, buf, state)

    workers._encode = counting_encode
    try:
        images = np.random.default_rng(0).random((16, 3, 96, 96)).astype(np.float32)
        data = ds.NumpySlicesDataset(images, shuffle=False).map(lambda x: x * 2, num_parallel_workers=2,
                                                                python_multiprocessing=True)
        out = np.stack([r[0] for r in data.create_tuple_iterator(output_numpy=True)])
    finally:
        workers._encode = original
    np.testing.assert_array_equal(out, images * 2)
    assert calls                                    # the main process wrote inputs into shared memory
    assert no_children_left()
    assert shm_segments() - before == set()          # every segment unlinked


def test_shared_memory_can_be_disabled():
    ds.config.set_enable_shared_mem(False)
    images = np.ones((4, 200, 200), np.float32)
    data = ds.NumpySlicesDataset(images, shuffle=False).map(lambda x: x + 1, num_parallel_workers=2,
                                                            python_multiprocessing=True)
    assert [r[0].sum() for r in data.create_tuple_iterator(output_numpy=True)] == [80000.0] * 4


def test_prefetch_overlaps_the_consumer():
    ds.config.set_prefetch_size(8)

    def slow(x):
        begin = time.time()
        time.sleep(0.05)
        return x, np.array(begin), np.array(time.time())

    data = numbers(10).map(slow, input_columns=["x"], output_columns=["x", "begin", "end"], num_parallel_workers=1)
    prepared, consumed = [], []
    for row in data.create_tuple_iterator(output_numpy=True):
        prepared.append((row[1].item(), row[2].item()))
        begin = time.time()
        time.sleep(0.05)              # the "training step"
        consumed.append((begin, time.time()))
    # one worker and one consumer: each alone never overlaps itself, so an overlap is preparation during a step
    assert most_at_once(prepared) == 1 and most_at_once(consumed) == 1
    assert most_at_once(prepared + consumed) == 2


def test_generator_random_access_with_worker_processes():
    class Source:
        def __getitem__(self, i):
            return np.full((128, 128), i, np.float32), np.array(os.getpid())

        def __len__(self):
            return 12

    data = ds.GeneratorDataset(Source(), ["img", "pid"], num_parallel_workers=min(3, os.cpu_count()),
                               shuffle=False)
    out = list(data.create_tuple_iterator(output_numpy=True))
    assert [r[0][0, 0] for r in out] == list(range(12))
    assert os.getpid() not in {r[1].item() for r in out}
    assert no_children_left()


def test_debug_mode_runs_inline():
    ds.config.set_debug_mode(True)
    data = numbers(4).map(lambda x: np.array(os.getpid()), input_columns=["x"],
                          num_parallel_workers=min(4, os.cpu_count()),
                          python_multiprocessing=True)
    assert {r[0].item() for r in data.create_tuple_iterator(output_numpy=True)} == {os.getpid()}
