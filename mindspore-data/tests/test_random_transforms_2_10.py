"""Seeded random transforms give MindSpore 2.10's outputs, row for row, with 1 and 2 map workers over 2 epochs.

The outputs were recorded from real 2.10 by ``tests/fixtures/random_transforms/record.py`` (``outputs.json``: short
SHA-256 digests of every output column); each case replays through the recorder's own builders. What they pin
down (see ``config._op_engine`` and ``engine/cxx_random.py``):

* every random operation has its own ``std::mt19937``, seeded when the iterator is created: with the pipeline seed
  plus the worker's number for the map's own operations, with the seed alone for operations nested in them;
* row ``g`` of a map (end-of-epoch markers counted as rows) goes to worker ``g % num_parallel_workers``, whose
  engines run on from epoch to epoch;
* the draws are libstdc++'s distributions (uniform int/real, bernoulli, shuffle, sample, normal, gamma);
* an eager call builds a new operation, so with a seed every call draws the same numbers;
* the Python transforms of 2.10 draw from Python's / NumPy's global generators (one worker only: 2.10's workers
  share them without order).
"""
import importlib.util
import json
import pathlib

import numpy as np
import pytest

import mindspore.dataset as ds
from mindspore.dataset import config
from mindspore.dataset.engine import cxx_random

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "random_transforms"
RECORDED = json.loads((FIXTURES / "outputs.json").read_text())


def _recorder():
    spec = importlib.util.spec_from_file_location("random_transforms_record", FIXTURES / "record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORD = _recorder()


@pytest.fixture(autouse=True)
def restore_config():
    saved = dict(config._config)
    yield
    config._config.update(saved)


def test_case_inputs_are_the_recorded_ones():
    inputs = {name: [RECORD.digest(v) for v in spec[2]().values()] for name, spec in RECORD.CASES.items()}
    assert inputs == RECORDED["inputs"]


@pytest.mark.parametrize("name, workers", [(name, int(w)) for name in sorted(RECORDED["cases"])
                                           for w in sorted(RECORDED["cases"][name])])
def test_pipeline_outputs_match_2_10(name, workers):
    assert RECORD.run_case(name, workers) == RECORDED["cases"][name][str(workers)]


def test_eager_calls_match_2_10():
    assert RECORD.run_eager() == RECORDED["eager"]


def test_end_of_epoch_markers_under_and_over_repeat():
    assert RECORD.run_repeat() == RECORDED["repeat"]


def test_python_multiprocessing_maps():
    assert RECORD.run_multiprocessing() == RECORDED["multiprocessing"]


def test_seed_is_read_when_the_iterator_is_created():
    assert RECORD.run_seed_timing() == RECORDED["seed_timing"]


def test_eager_call_with_a_seed_repeats_itself():
    # what 2.10 does (a new C++ operation per call): the recorded choices are constant per seed
    for seed in (5, 6):
        choices = RECORDED["eager"][f"random_choice_{seed}"]
        assert len(set(choices)) == 1


# ---------------------------------------------------------------------------------------------------- the engine

def test_libstdcxx_distributions_on_mt19937():
    # std::mt19937(5489): the 10000th output is 4123659995 (the C++ standard's check value)
    assert int(cxx_random.mt19937_raw(5489, 10000)[-1]) == 4123659995
    stream = cxx_random.MT19937Stream(5)
    # uniform_int_distribution(0, 2): downscaling by (2**32 - 1) // 3 with rejection (2.10's first choices)
    assert [cxx_random.std_uniform_int(stream, 0, 2) for _ in range(10)] == [0, 0, 2, 2, 0, 1, 2, 2, 1, 0]
    # generate_canonical<float>: one output over 2**32; <double>: two outputs
    first = int(cxx_random.mt19937_raw(7, 1)[0])
    assert cxx_random.std_canonical_float(cxx_random.MT19937Stream(7)) == np.float32(np.float32(first) / 2 ** 32)
    # std::sample of 3 out of 6 keeps the population's order
    picked = cxx_random.std_sample(6, 3, cxx_random.MT19937Stream(3))
    assert len(picked) == 3 and picked == sorted(picked)
