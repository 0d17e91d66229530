"""Records real MindSpore 2.10's ``mindspore.profiler`` enums and ``schedule`` actions (for :data:`SCHEDULES`,
steps 0-19), and the files its CPU ``Profiler`` writes, into ``tests/fixtures/api/profiler_msref.json``.

Run with a Python that has real MindSpore (CPU)::

    /tmp/w/msref/bin/python tests/api/make_profiler_fixture.py
"""
import json
import os
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_FILE = os.path.join(HERE, "..", "fixtures", "api", "profiler_msref.json")

SCHEDULES = [
    {"wait": 1, "active": 2},
    {"wait": 1, "warmup": 1, "active": 2, "repeat": 2},
    {"wait": 0, "warmup": 0, "active": 3, "repeat": 1, "skip_first": 2},
    {"wait": 2, "warmup": 1, "active": 1, "skip_first": 1},
    {"wait": -1, "active": 0, "warmup": "x"},
]


def main():
    import numpy as np
    import mindspore as ms
    from mindspore import ops
    from mindspore import profiler as prof_module
    enums = {name: [[m.name, m.value] for m in getattr(prof_module, name)]
             for name in ("ProfilerLevel", "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem")}
    schedules = []
    for kwargs in SCHEDULES:
        s = prof_module.schedule(**kwargs)
        schedules.append({"kwargs": kwargs, "repr": repr(s), "to_dict": s.to_dict(),
                          "actions": [s(i).name for i in range(20)]})
    out = tempfile.mkdtemp()
    prof = prof_module.Profiler(output_path=out, activities=[prof_module.ProfilerActivity.CPU])
    x = ms.Tensor(np.ones((4, 4), np.float32))
    for _ in range(3):
        ops.matmul(x, x)
    prof.stop()
    prof.analyse()
    (run,) = os.listdir(out)
    files = sorted(os.path.relpath(os.path.join(d, f), os.path.join(out, run))
                   for d, _, fs in os.walk(os.path.join(out, run)) for f in fs)
    with open(os.path.join(out, run, "FRAMEWORK", "cpu_op_type_info_0.csv"), encoding="utf-8") as fh:
        header = fh.readline().strip()
    with open(os.path.join(out, run, "ASCEND_PROFILER_OUTPUT", "trace_view.json"), encoding="utf-8") as fh:
        trace = json.load(fh)
    ops_in_trace = sorted({e["name"] for e in trace if e.get("ph") == "X"})
    with open(OUT_FILE, "w", encoding="utf-8") as fh:
        json.dump({"enums": enums, "schedules": schedules, "run_dir_suffix": run.rsplit("_", 2)[-2:],
                   "files": files, "op_type_header": header, "trace_ops": ops_in_trace}, fh, indent=1)
    print(f"wrote {OUT_FILE}")


if __name__ == "__main__":
    main()
