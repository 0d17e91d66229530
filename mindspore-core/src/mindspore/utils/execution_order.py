"""Checking that the ranks of a distributed job run their collective operators in compatible orders.

A job deadlocks when two ranks wait on each other's collectives in different orders. Each rank's communication
operators are recorded between ``comm_exec_order_check("start")`` and ``("end")`` into
``<dir>/rank_<rank>/execute_order/comm_execute_order.csv`` (``<dir>``: ``$MS_EXEC_ORDER_DIR``, default
``./exec_order``), one row per operator in execution order. :func:`runtime_execution_order_check` reads such
``rank_x`` folders and checks them: each operator becomes a key (``AllReduce_<group>_(<ranks>)_<n>th`` for the
n-th such call; point-to-point operators as ``Send_Receive_<group>_(<src>)->(<dst>)_<shape>``), every rank that
takes part in a key must have it, and the "runs before" edges of all ranks together must form no cycle (a cycle
is a deadlock). Findings are logged: errors for missing keys and cycles, a warning ``Cycle Check success`` when
the orders are compatible.
"""
import csv
import os
import re
import threading
from collections import defaultdict

import mindspore.plugin as plugin
from mindspore._errors import MSTypeError, MSValueError
from mindspore.log import error, warning

__all__ = ["comm_exec_order_check", "runtime_execution_order_check"]

COLUMNS = ["index", "group", "comm_rank", "primitive", "src_rank", "dest_rank", "root_rank", "input_shape",
           "input_type", "output_shape", "output_type", "input_size", "output_size"]
_P2P_SEND = ("Send", "DistCommIsend", "InnerCommIsend")
_P2P_RECV = ("Receive", "DistCommIrecv", "InnerCommIrecv")
_WORLD = "hccl_world_group"


# -- collecting ---------------------------------------------------------------------------------------------
def _is_collective(prim):
    return type(prim).__module__.endswith("_defs.comm") and "group" in prim.attrs


def _shape_type_size(values):
    values = values if isinstance(values, (tuple, list)) else (values,)
    shapes, types, sizes = [], [], []
    for v in values:
        shape, dtype = getattr(v, "shape", None), getattr(v, "dtype", None)
        if shape is None or dtype is None:
            continue
        shapes.append("x".join(str(d) for d in shape) or "scalar")
        types.append(str(dtype))
        n = 1
        for d in shape:
            n *= d
        sizes.append(str(n))
    return " ".join(shapes), " ".join(types), " ".join(sizes)


class _CommOrderRecorder:
    """Records the collectives this process runs (a singleton: one collection at a time)."""

    def __init__(self):
        self.rows, self.collecting, self.prev = [], False, None
        self.lock = threading.Lock()

    def _hook(self, prim, args):
        prev = self.prev
        out = prev(prim, args) if prev is not None else plugin.apply_primitive(prim, args)
        if self.collecting and _is_collective(prim):
            group = prim.attrs.get("group", _WORLD)
            size = plugin.process_group(group).size
            attrs = prim.attrs
            in_shape, in_type, in_size = _shape_type_size(args)
            out_shape, out_type, out_size = _shape_type_size(out)
            self.rows.append({"index": str(len(self.rows)), "group": group,
                              "comm_rank": " ".join(str(r) for r in range(size)), "primitive": prim.name,
                              "src_rank": str(attrs.get("src_rank", "")) if prim.name in _P2P_RECV else "",
                              "dest_rank": str(attrs.get("dest_rank", "")) if prim.name in _P2P_SEND else "",
                              "root_rank": str(attrs.get("root_rank", "")) if "root_rank" in attrs else "",
                              "input_shape": in_shape, "input_type": in_type, "output_shape": out_shape,
                              "output_type": out_type, "input_size": in_size, "output_size": out_size})
        return out

    def start(self):
        if self.collecting:
            error("The 'start' action cannot be called twice.")
            return
        self.rows = []
        self.prev = plugin.set_primitive_call_hook(self._hook)
        self.collecting = True

    def end(self):
        if not self.collecting:
            error("The 'end' action cannot be called before the 'start' action.")
            return None
        self.collecting = False
        plugin.set_primitive_call_hook(self.prev)
        rank = plugin.process_group(_WORLD).rank
        folder = os.path.join(os.environ.get("MS_EXEC_ORDER_DIR", "./exec_order"), f"rank_{rank}", "execute_order")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "comm_execute_order.csv")
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(self.rows)
        return path


_recorder = _CommOrderRecorder()


def comm_exec_order_check(action):
    """Start (``"start"``) or stop (``"end"``) recording the order of this rank's communication operators; at
    ``"end"`` the order is written to ``rank_<rank>/execute_order/comm_execute_order.csv`` under
    ``$MS_EXEC_ORDER_DIR`` (default ``./exec_order``) and the ``rank_x`` folders there are checked with
    :func:`runtime_execution_order_check`.

    Raises:
        TypeError: ``action`` is not a str.
        ValueError: ``action`` is neither ``"start"`` nor ``"end"``.
    """
    if not isinstance(action, str):
        raise MSTypeError("The 'action' parameter must be a string.")
    if action == "start":
        _recorder.start()
    elif action == "end":
        path = _recorder.end()
        if path is not None:
            runtime_execution_order_check(os.path.abspath(os.path.dirname(os.path.dirname(os.path.dirname(path)))))
    else:
        raise MSValueError("Invalid action. Please use 'start' or 'end'.")


# -- checking -----------------------------------------------------------------------------------------------
def _rank_folders(folders):
    seen, found = set(), []
    for path in folders:
        if not os.path.isabs(path):
            raise MSValueError(f"Invalid path: {path}. Please provide an absolute path, e.g., '/absolute/path/to/"
                               f"folder' or '/absolute/path/to/rank_x'.")
        if not os.path.exists(path):
            raise MSValueError(f"Path does not exist: {path}. Ensure the path exists and is accessible.")
        if os.path.isdir(path) and os.path.basename(path).startswith("rank_"):
            candidates = [path]
        elif os.path.isdir(path):
            candidates = sorted(os.path.join(path, d) for d in os.listdir(path)
                                if d.startswith("rank_") and os.path.isdir(os.path.join(path, d)))
            if not candidates:
                raise MSValueError(f"No rank_x folders found in {path}. Ensure the directory contains at least one "
                                   f"folder named 'rank_x', where x is an integer.")
        else:
            raise MSValueError(f"Invalid path: {path}. Paths must either be rank_x folders or directories "
                               f"containing rank_x folders.")
        for folder in candidates:
            name = os.path.basename(folder)
            if name in seen:
                raise MSValueError(f"Duplicate rank folder detected: {name}. Each rank_x folder must be unique. "
                                   f"Please remove duplicates.")
            seen.add(name)
            found.append(folder)
    return found


def _read_rank(folder):
    path = os.path.join(folder, "execute_order", "comm_execute_order.csv")
    if not os.path.exists(path):
        error(f"No execute_order.csv found in {os.path.dirname(path)}. Skipping this folder.")
        return None
    with open(path, encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        if reader.fieldnames != COLUMNS:
            error(f"Invalid header in {path}. Skipping this file. Expected columns: {COLUMNS}.")
            return None
        return list(reader)


def _base_key(row, rank):
    prim, group = row["primitive"], row["group"]
    ranks = ",".join(row["comm_rank"].split())
    if not (row["src_rank"] or row["dest_rank"] or row["root_rank"]):
        return f"{prim}_{group}_({ranks})"
    if prim in _P2P_SEND:
        return f"Send_Receive_{group}_({rank})->({row['dest_rank']})_{row['input_shape']}"
    if prim in _P2P_RECV:
        return f"Send_Receive_{group}_({row['src_rank']})->({rank})_{row['output_shape']}"
    parts = [f"{prim}_{group}", f"commRank:({ranks})"]
    parts += [f"{label}:({row[col]})" for label, col in (("srcRank", "src_rank"), ("destRank", "dest_rank"),
                                                         ("rootRank", "root_rank")) if row[col]]
    return "_".join(parts)


def _keys(rows, rank):
    counts, keys = defaultdict(int), []
    for row in rows:
        base = _base_key(row, rank)
        counts[base] += 1
        keys.append(f"{base}_{counts[base]}th")
    return keys


def _check_membership(orders, all_rank):
    have = {rank: set(keys) for rank, keys in orders.items()}
    problems = 0
    for rank, keys in orders.items():
        for key in keys:
            members = {m.strip() for group in re.findall(r"\((.*?)\)", key)[:2] for m in group.split(",")}
            if all_rank:
                missing = members - have.keys()
                if missing:
                    error(f"The following keys are missing for value '{key}': {missing}")
                    problems += 1
                    continue
            for member in members & have.keys():
                if key not in have[member]:
                    error(f"Key '{member}' is missing the value '{key}'.")
                    problems += 1
    return problems


def find_cycle(orders):
    """A cycle of the "runs before" edges of all ranks: ``(keys along it, "rank u -> v" per edge)``, or
    ``(None, None)``."""
    graph, edge_rank = defaultdict(list), {}
    for rank, keys in orders.items():
        for u, v in zip(keys, keys[1:]):
            graph[u].append(v)
            edge_rank[(u, v)] = rank
    state, path = {}, []

    def visit(start):
        stack = [(start, iter(graph[start]))]
        state[start] = 1
        path.append(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                path.pop()
                stack.pop()
            elif state.get(child) == 1:
                cycle = path[path.index(child):] + [child]
                return cycle, [f"{edge_rank[(u, v)]} {u} -> {v}" for u, v in zip(cycle, cycle[1:])]
            elif child not in state:
                state[child] = 1
                path.append(child)
                stack.append((child, iter(graph[child])))
        return None

    for node in list(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None, None


def runtime_execution_order_check(folders_, all_rank=None):
    """Check the communication orders recorded in ``rank_x`` folders (see the module docstring).

    Args:
        folders_ (Union[str, list[str]]): absolute paths of ``rank_x`` folders or of directories holding them.
        all_rank (bool, optional): whether the folders are all the job's ranks, so that a rank missing from them
            is an error. Default ``None``: True for one path, False for several.

    Returns:
        ``(cycle, ranks)`` when the orders can deadlock (the keys along the cycle, and per edge the rank that
        runs it), else ``None``; the findings are also logged.

    Raises:
        ValueError: a path is not absolute, does not exist, or holds no (or duplicate) ``rank_x`` folders.
    """
    if folders_ is None or folders_ == [] or folders_ == "":
        error("Invalid input. `folders_` must be a non-empty string or a list with at least one string element.")
        return None
    folders = [folders_] if isinstance(folders_, str) else list(folders_)
    if all_rank is None:
        all_rank = len(folders) == 1
    orders = {}
    for folder in _rank_folders(folders):
        rows = _read_rank(folder)
        rank = os.path.basename(folder).split("_", 1)[1]
        if not rows:
            error(f"Rank {rank} has no valid execution orders. Please check the csv file.")
            return None
        orders[rank] = _keys(rows, rank)
    if not orders:
        error("No valid rank data found. Execution order check aborted.")
        return None
    _check_membership(orders, all_rank)
    cycle, ranks = find_cycle(orders)
    if cycle:
        error("Cycle detected:")
        error(" -> ".join(cycle))
        error("Involving ranks:")
        for line in ranks:
            error(line)
        return cycle, ranks
    warning("Cycle Check success. There is no cycle in the graph.")
    return None
