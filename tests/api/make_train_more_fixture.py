"""Record real MindSpore 2.10's answers to ``train_more_cases`` (metrics) and ``train_more_callback_cases``
(callbacks, SummaryRecord, data_sink) into ``tests/fixtures/api/train_more_msref.json`` and
``train_more_callbacks_msref.json``.

Run with a Python that has real MindSpore 2.10 (CPU):  /tmp/w/msref/bin/python tests/api/make_train_more_fixture.py
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore as ms  # noqa: E402

import train_more_callback_cases  # noqa: E402
from train_more_cases import run_all  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "api", "train_more_msref.json")

if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE)
    result = run_all(ms)
    with open(OUT, "w") as f:
        json.dump({"mindspore_version": ms.__version__, "cases": result}, f, indent=0, sort_keys=True)
    print(f"{len(result)} cases -> {OUT}")
    result = train_more_callback_cases.run_all(ms, None)
    result["flops"] = train_more_callback_cases.flops_cases(ms)
    from mindspore.train import _utils as ms_train_utils, serialization as ms_serialization

    def set_rank(r):   # MindSpore reads the rank through these two module globals
        ms_serialization.get_rank = ms_train_utils.get_rank = lambda: r
    result["ckpt_strategy"] = train_more_callback_cases.ckpt_strategy_cases(ms, set_rank)
    result["redundancy"] = train_more_callback_cases.redundancy_case(
        lambda path, rank: ms_train_utils.get_parameter_redundancy(path, initial_rank=rank))
    out = OUT.replace("train_more_msref", "train_more_callbacks_msref")
    with open(out, "w") as f:
        json.dump({"mindspore_version": ms.__version__, "cases": result}, f, indent=0, sort_keys=True)
    print(f"{len(result)} cases -> {out}")
