"""``ParallelMode.MODE_LIST`` lists the mode strings as in MindSpore 2.10 (recorded by
tests/fixtures/zoo_nlp/record_parallel_mode.py): the zoo's FastTextTrainOneStepCell checks the context's parallel
mode against it (AttributeError before)."""
from mindspore import context
from mindspore.context import ParallelMode


def test_mode_list_matches_2_10():
    assert ParallelMode.MODE_LIST == ['stand_alone', 'data_parallel', 'hybrid_parallel', 'semi_auto_parallel',
                                      'auto_parallel']


def test_context_modes_are_in_the_list():
    try:
        assert context.get_auto_parallel_context("parallel_mode") in ParallelMode.MODE_LIST
        context.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL)
        assert context.get_auto_parallel_context("parallel_mode") in ParallelMode.MODE_LIST
    finally:
        context.reset_auto_parallel_context()
