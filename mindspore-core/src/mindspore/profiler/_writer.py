"""Writing a profiler's data: one directory per collection, laid out as MindSpore's
(``<host>_<pid>_<timestamp>_ascend_ms``, the suffix kept so MindSpore's tools find it):

* ``ASCEND_PROFILER_OUTPUT/trace_view.json``: a Chrome trace (``chrome://tracing``, Perfetto, MindStudio
  Insight): complete events ``{"ph": "X", "name", "ts", "dur", "pid", "tid", "args"}`` in microseconds, one
  process for the operators (``"CPU OP"``/``"GPU OP"``...), one for the Cells, one for the steps, one for mstx
  ranges and marks;
* ``ASCEND_PROFILER_OUTPUT/op_statistic.csv`` and ``FRAMEWORK/cpu_op_type_info_0.csv``: per operator type, the
  number of calls and the total, average, minimum and maximum times;
* ``FRAMEWORK/cpu_op_detail_info_0.csv`` (per operator name) and ``FRAMEWORK/cpu_op_execute_timestamp_0.txt``
  (every call: ``name;type;start_ns,dur_ms,0 ...``), as MindSpore writes them for the CPU;
* ``ASCEND_PROFILER_OUTPUT/memory_record.csv`` with ``profile_memory`` (device memory after each operator);
* ``profiler_info_0.json`` (the settings) and ``profiler_metadata.json`` (:meth:`Profiler.add_metadata`).
"""
import csv
import json
import os
import socket
import time
from collections import OrderedDict

__all__ = ["new_run_dir", "write_raw", "analyse_dir"]

_PIDS = {"op": 2, "cell": 3, "step": 4, "mstx": 5}
_RAW = "raw_events.json"


_ISSUED = set()     # the directory names this process has made (a moved one no longer exists where it was made)


def unique_path(path):
    """``path``, or ``path_1``, ``path_2``, ...: the first that does not exist and was not issued before by this
    process (two collections in one millisecond get the same stamp; the first may have been moved away since)."""
    suffix = 0
    while True:
        candidate = path + ("" if not suffix else f"_{suffix}")
        if not os.path.exists(candidate) and os.path.basename(candidate) not in _ISSUED:
            _ISSUED.add(os.path.basename(candidate))
            return candidate
        suffix += 1


def new_run_dir(root):
    """A new, empty collection directory under ``root``."""
    now = time.time()
    stamp = time.strftime("%Y%m%d%H%M%S", time.localtime(now)) + f"{int(now * 1000) % 1000:03d}"
    path = unique_path(os.path.join(os.path.realpath(root), f"{socket.gethostname()}_{os.getpid()}_{stamp}_ascend_ms"))
    os.makedirs(path, mode=0o750)
    return path


def write_raw(path, events, memory, info, metadata):
    """Save what was collected (before analysis) into the collection directory ``path``."""
    raw = {"info": info, "metadata": metadata, "memory": memory,
           "events": [[e.kind, e.name, e.start_ns, e.dur_ns, e.tid, e.step, e.args] for e in events]}
    with open(os.path.join(path, _RAW), "w", encoding="utf-8") as fh:
        json.dump(raw, fh)
    with open(os.path.join(path, "profiler_info_0.json"), "w", encoding="utf-8") as fh:
        json.dump(info, fh, indent=1)
    if metadata:
        with open(os.path.join(path, "profiler_metadata.json"), "w", encoding="utf-8") as fh:
            json.dump(metadata, fh, indent=1)


def _trace(raw, device, step_list, pretty):
    events = [e for e in raw["events"] if step_list is None or e[5] in step_list]
    names = {"op": f"{device} OP", "cell": "Cell", "step": "Step", "mstx": "mstx"}
    out = []
    for kind, pid in _PIDS.items():
        out.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": names[kind]}})
        out.append({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": pid}})
    tids = {}
    for kind, name, start, dur, tid, step, args in events:
        local = tids.setdefault(tid, len(tids))
        entry = {"ph": "X", "name": name, "pid": _PIDS[kind], "tid": local, "ts": f"{start / 1000:.3f}",
                 "dur": f"{dur / 1000:.3f}", "cat": kind, "args": dict(args, step=step)}
        if kind == "op":
            entry["args"]["type"] = f"Host{device.capitalize()}Ops" if device == "CPU" else f"{device}Ops"
        if kind == "mstx" and dur == 0:
            entry.update(ph="i", s="t")
            del entry["dur"]
        out.append(entry)
    for tid, local in tids.items():
        for pid in _PIDS.values():
            out.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": local, "args": {"name": f"Thread {tid}"}})
    return json.dumps(out, indent=1 if pretty else None)


def _op_stats(ops):
    stats = OrderedDict()
    for _, name, _start, dur, *_ in ops:
        entry = stats.setdefault(name, [0, 0.0, float("inf"), 0.0])
        ms = dur / 1e6
        entry[0] += 1
        entry[1] += ms
        entry[2] = min(entry[2], ms)
        entry[3] = max(entry[3], ms)
    return stats


def _write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def analyse_dir(path, pretty=False, step_list=None, data_simplification=True):
    """Turn a collection directory's raw data into the files listed in this module's docstring."""
    with open(os.path.join(path, _RAW), encoding="utf-8") as fh:
        raw = json.load(fh)
    device = {"Ascend": "NPU"}.get(raw["info"].get("device_target"), raw["info"].get("device_target", "CPU"))
    out_dir = os.path.join(path, "ASCEND_PROFILER_OUTPUT")
    fw_dir = os.path.join(path, "FRAMEWORK")
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(fw_dir, exist_ok=True)
    with open(os.path.join(out_dir, "trace_view.json"), "w", encoding="utf-8") as fh:
        fh.write(_trace(raw, device, step_list, pretty))
    ops = [e for e in raw["events"] if e[0] == "op" and (step_list is None or e[5] in step_list)]
    stats = _op_stats(ops)
    total = sum(entry[1] for entry in stats.values()) or 1.0
    steps = max(len({e[5] for e in ops}), 1)
    ordered = sorted(stats.items(), key=lambda kv: -kv[1][1])
    _write_csv(os.path.join(out_dir, "op_statistic.csv"),
               ["OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)", "Avg Time(us)", "Max Time(us)",
                "Ratio(%)"],
               [[n, f"{device}", c, f"{t * 1e3:.3f}", f"{lo * 1e3:.3f}", f"{t / c * 1e3:.3f}", f"{hi * 1e3:.3f}",
                 f"{100 * t / total:.2f}"] for n, (c, t, lo, hi) in ordered])
    _write_csv(os.path.join(fw_dir, "cpu_op_type_info_0.csv"),
               ["op_type", "type_occurrences", "execution_frequency(per-step)", "total_compute_time", "avg_time(ms)",
                "percent"],
               [[n, c, c // steps, f"{t:.6f}", f"{t / c:.7f}", f"{t / total:.6f}"] for n, (c, t, _, _) in ordered])
    _write_csv(os.path.join(fw_dir, "cpu_op_detail_info_0.csv"),
               ["op_side", "op_type", "op_name", "full_op_name", "op_occurrences", "op_total_time(ms)",
                "op_avg_time(ms)", "total_proportion", "subgraph", "pid"],
               [["Host", n, n, n, c, f"{t:.6f}", f"{t / c:.7f}", f"{t / total:.6f}", "Default",
                 raw["info"].get("pid", 0)] for n, (c, t, _, _) in sorted(stats.items())])
    with open(os.path.join(fw_dir, "cpu_op_execute_timestamp_0.txt"), "w", encoding="utf-8") as fh:
        for name in stats:
            calls = " ".join(f"{e[2]},{e[3] / 1e6:.6f},0" for e in ops if e[1] == name)
            fh.write(f"{name};Host{device.capitalize()}Ops;{calls} \n")
    if raw["memory"]:
        _write_csv(os.path.join(out_dir, "memory_record.csv"),
                   ["Component", "Timestamp(us)", "Total Allocated(KB)", "Total Reserved(KB)", "Device Type"],
                   [["MindSpore", f"{t / 1000:.3f}", f"{a / 1024:.3f}", f"{r / 1024:.3f}", device]
                    for t, a, r in raw["memory"]])
    if data_simplification:
        os.remove(os.path.join(path, _RAW))
