"""Checking the order of collective communication across ranks: ``comm_exec_order_check`` records the
collectives this process calls, ``runtime_execution_order_check`` finds the orders that deadlock.

Between ``comm_exec_order_check("start")`` and ``("end")`` every collective called through
``sporax.communication.comm_func``, ``sporax.ops`` functional collectives or ``sporax.mint.distributed`` is
recorded; ``"end"`` writes them to ``./rank_<rank>/execute_order/comm_execute_order.csv`` in MindSpore's columns.
``runtime_execution_order_check`` reads such folders (sporax's or MindSpore's), names each collective by its
kind, group, peers and occurrence, and looks for a cycle in the order the ranks wait on each other: ranks
that call matching collectives in different orders wait forever.
"""

from __future__ import annotations

import csv
import logging
import os
import re
import threading
from collections import defaultdict
from typing import Any

__all__ = ["comm_exec_order_check", "runtime_execution_order_check"]

_log = logging.getLogger("sporax")

COLUMNS = ["index", "group", "comm_rank", "primitive", "src_rank", "dest_rank", "root_rank", "input_shape",
           "input_type", "output_shape", "output_type", "input_size", "output_size"]  # fmt: skip
# function name -> (MindSpore's primitive name, the argument naming the peer, which column it fills)
_COLLECTIVES = {
    "all_reduce": ("AllReduce", None, None),
    "all_gather_into_tensor": ("AllGather", None, None),
    "reduce_scatter_tensor": ("ReduceScatter", None, None),
    "barrier": ("Barrier", None, None),
    "broadcast": ("Broadcast", "src", "root_rank"),
    "reduce": ("Reduce", "dst", "root_rank"),
    "gather_into_tensor": ("CollectiveGather", "dst", "root_rank"),
    "scatter_tensor": ("CollectiveScatter", "src", "root_rank"),
    "send": ("Send", "dst", "dest_rank"),
    "isend": ("Send", "dst", "dest_rank"),
    "recv": ("Receive", "src", "src_rank"),
    "irecv": ("Receive", "src", "src_rank"),
    "all_to_all_single_with_output_shape": ("AlltoAll", None, None),
    "all_to_all_with_output_shape": ("AlltoAll", None, None),
}
_NAMESPACES = ("sporax.ops.function.comm_func", "sporax.communication.comm_func", "sporax.mint.distributed")


class _Recorder:
    def __init__(self) -> None:
        self.is_collecting = False
        self.rows: list[dict] = []
        self.patched: list[tuple[Any, str, Any]] = []
        self.local = threading.local()

    def _wrap(self, name: str, fn: Any) -> Any:
        primitive, peer_arg, column = _COLLECTIVES[name]

        def recorded(*args: Any, **kwargs: Any) -> Any:
            if getattr(self.local, "inside", False):
                return fn(*args, **kwargs)
            self.local.inside = True
            try:
                out = fn(*args, **kwargs)
            finally:
                self.local.inside = False
            self._record(fn, primitive, peer_arg, column, args, kwargs, out)
            return out

        recorded.__wrapped__ = fn  # type: ignore[attr-defined]
        return recorded

    def _record(self, fn: Any, primitive: str, peer_arg: Any, column: Any, args: tuple, kwargs: dict, out: Any) -> None:
        import inspect

        from ..communication import get_process_group_ranks

        try:
            bound = inspect.signature(fn).bind(*args, **kwargs)
            bound.apply_defaults()
            params = bound.arguments
        except TypeError:
            params = dict(kwargs)
        group = params.get("group") or "hccl_world_group"
        tensor = params.get("tensor", args[0] if args and hasattr(args[0], "shape") else None)
        result = out[0] if isinstance(out, tuple) and out else out
        row = dict.fromkeys(COLUMNS, "")
        row.update(
            index=str(len(self.rows)),
            group=str(group),
            comm_rank=" ".join(str(r) for r in get_process_group_ranks(group)),
            primitive=primitive,
        )
        if column is not None and peer_arg in params:
            row[column] = str(params[peer_arg])
        for prefix, value in (("input", tensor), ("output", result)):
            if value is not None and hasattr(value, "shape"):
                row[f"{prefix}_shape"] = str(list(value.shape))
                row[f"{prefix}_type"] = str(value.dtype)
                row[f"{prefix}_size"] = str(
                    int(value.size) * value.dtype.itemsize if hasattr(value.dtype, "itemsize") else value.size
                )
        self.rows.append(row)

    def start(self) -> None:
        import importlib

        if self.is_collecting:
            _log.error("The 'start' action cannot be called twice.")
            return
        self.is_collecting = True
        self.rows = []
        for module_name in _NAMESPACES:
            module = importlib.import_module(module_name)
            for name in _COLLECTIVES:
                fn = getattr(module, name, None)
                if callable(fn):
                    self.patched.append((module, name, fn))
                    setattr(module, name, self._wrap(name, fn))

    def end(self) -> str | None:
        if not self.is_collecting:
            _log.error("The 'end' action cannot be called before the 'start' action.")
            return None
        self.is_collecting = False
        for module, name, fn in reversed(self.patched):
            setattr(module, name, fn)
        self.patched.clear()
        from ..communication import get_rank

        folder = os.path.join(os.getcwd(), f"rank_{get_rank()}", "execute_order")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "comm_execute_order.csv")
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(self.rows)
        return path


_recorder = _Recorder()


def comm_exec_order_check(action: str) -> None:
    """``'start'``: record the collectives this process calls from now on; ``'end'``: stop and write them to
    ``./rank_<rank>/execute_order/comm_execute_order.csv`` (read by :func:`runtime_execution_order_check`)."""
    if not isinstance(action, str):
        raise TypeError("The 'action' parameter must be a string.")
    if action == "start":
        _recorder.start()
    elif action == "end":
        _recorder.end()
    else:
        raise ValueError("Invalid action. Please use 'start' or 'end'.")


# ------------------------------------------------------------------------------------------------ checking
def _rank_folders(folders: list[str]) -> dict[str, str]:
    """``{rank id: its execute_order folder}`` of the given rank_<x> folders or folders holding them."""
    found: dict[str, str] = {}

    def add(rank_dir: str, where: str) -> None:
        name = os.path.basename(rank_dir)
        if name in (f"rank_{r}" for r in found):
            raise ValueError(
                f"Duplicate rank folder detected: {name}{where}. Each rank_x folder must be unique. Please remove duplicates."
            )
        orders = os.path.join(rank_dir, "execute_order")
        if not os.path.exists(orders):
            raise FileNotFoundError(f"Execute order folder does not exist: {orders} for {name} folder.")
        found[name.split("_", 1)[1]] = orders

    for path in folders:
        if not os.path.isabs(path):
            raise ValueError(
                f"Invalid path: {path}. Please provide an absolute path, e.g., '/absolute/path/to/folder' or "
                "'/absolute/path/to/rank_x'."
            )
        if not os.path.exists(path):
            raise ValueError(f"Path does not exist: {path}. Ensure the path exists and is accessible.")
        if os.path.isdir(path) and os.path.basename(path).startswith("rank_"):
            add(path, "")
            continue
        if os.path.isdir(path):
            ranks = sorted(
                d for d in os.listdir(path) if d.startswith("rank_") and os.path.isdir(os.path.join(path, d))
            )
            if not ranks:
                raise ValueError(
                    f"No rank_x folders found in {path}. Ensure the directory contains at least one folder named "
                    "'rank_x', where x is an integer."
                )
            for d in ranks:
                add(os.path.join(path, d), f" in {path}")
            continue
        raise ValueError(
            f"Invalid path: {path}. Paths must either be rank_x folders or directories containing rank_x folders."
        )
    return found


def _read_orders(folder: str) -> list[dict] | None:
    path = os.path.join(folder, "comm_execute_order.csv")
    if not os.path.isfile(path):
        _log.error("File not found: %s. Ensure the file exists and is accessible.", path)
        return None
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            _log.error("Invalid header in %s. Skipping this file. Expected columns: %s.", path, COLUMNS)
            return None
        return list(reader)


def _base_key(row: dict, rank: str) -> str:
    """What identifies a collective across ranks (MindSpore's naming): kind, group and members, or for a
    point-to-point transfer its ends and shape."""
    comm = ",".join(row["comm_rank"].split())
    if not (row["src_rank"] or row["dest_rank"] or row["root_rank"]):
        return f"{row['primitive']}_{row['group']}_({comm})"
    if row["primitive"] in ("Send", "DistCommIsend", "InnerCommIsend"):
        return f"Send_Receive_{row['group']}_({rank})->({row['dest_rank']})_{row['input_shape']}"
    if row["primitive"] in ("Receive", "DistCommIrecv", "InnerCommIrecv"):
        return f"Send_Receive_{row['group']}_({row['src_rank']})->({rank})_{row['output_shape']}"
    parts = [f"{row['primitive']}_{row['group']}", f"commRank:({comm})"]
    for column, label in (("src_rank", "srcRank"), ("dest_rank", "destRank"), ("root_rank", "rootRank")):
        if row[column]:
            parts.append(f"{label}:({row[column]})")
    return "_".join(parts)


def _keys(rows: list[dict], rank: str) -> list[str]:
    counts: dict[str, int] = defaultdict(int)
    out = []
    for row in rows:
        base = _base_key(row, rank)
        counts[base] += 1
        out.append(f"{base}_{counts[base]}th")
    return out


def _report_missing_members(orders: dict[str, list[str]], all_rank: bool) -> None:
    """Every rank a collective names must have called it (all_rank: every named rank must be given)."""
    have = {rank: set(keys) for rank, keys in orders.items()}
    for keys in orders.values():
        for key in keys:
            members = {m.strip() for group in re.findall(r"\((.*?)\)", key)[:2] for m in group.split(",")}
            missing = members - have.keys()
            if all_rank and missing:
                _log.error("The following keys are missing for value '%s': %s", key, missing)
                continue
            for member in members & have.keys():
                if key not in have[member]:
                    _log.error("Key '%s' is missing the value '%s'.", member, key)


def _find_cycle(orders: dict[str, list[str]]) -> tuple[list[str] | None, list[str] | None]:
    """A cycle in 'rank r does a before b' over all ranks: the collectives in it wait on each other forever."""
    graph: dict[str, list[str]] = defaultdict(list)
    edge_rank = {}
    for rank, keys in orders.items():
        for a, b in zip(keys, keys[1:], strict=False):
            graph[a].append(b)
            edge_rank[(a, b)] = rank
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for root in list(graph):
        if root in state:
            continue
        path = [root]
        state[root] = 1
        stack = [iter(graph[root])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt) :]
                ring = [*cycle, nxt]
                return ring, [f"{edge_rank[(u, v)]} {u} -> {v}" for u, v in zip(ring, ring[1:], strict=False)]
            if nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(graph[nxt]))
    return None, None


def runtime_execution_order_check(
    folders_: Any, all_rank: Any = None
) -> tuple[list[str] | None, list[str] | None] | None:
    """Check the collective orders in ``rank_<x>/execute_order/comm_execute_order.csv`` folders.

    Args:
        folders_ (Union[str, list[str]]): Absolute paths of rank_<x> folders or of folders holding them.
        all_rank (bool, optional): Whether every rank a collective names must be among those read (default:
            True for one path, False for several).

    Returns:
        ``(cycle, ranks)``: the collectives of a deadlocking cycle (its first one repeated at the end) and the
        rank ordering each step of it, or
        ``(None, None)``; the findings are also logged. None when nothing could be read.
    """
    if all_rank is None:
        if isinstance(folders_, str) and folders_:
            all_rank = True
        elif isinstance(folders_, list) and folders_:
            all_rank = len(folders_) == 1
    if folders_ is None or all_rank is None:
        _log.error("Invalid input. `folders_` must be a non-empty string or a list with at least one string element.")
        return None
    folders = [folders_] if isinstance(folders_, str) else list(folders_)
    read = {rank: _read_orders(folder) for rank, folder in _rank_folders(folders).items()}
    rows = {rank: r for rank, r in read.items() if r is not None}
    if not rows:
        _log.error("No valid rank data found. Execution order check aborted.")
        return None
    for rank, r in rows.items():
        if not r:
            _log.error("Rank %s has no valid execution orders. Please check the csv file.", rank)
            return None
    orders = {rank: _keys(r, rank) for rank, r in rows.items()}
    _report_missing_members(orders, bool(all_rank))
    cycle, ranks = _find_cycle(orders)
    if cycle:
        _log.error("Cycle detected:")
        _log.error(" -> ".join(cycle) + f" -> {cycle[0]}")
        _log.error("Involving ranks:")
        for step in ranks or []:
            _log.error(step)
    else:
        _log.warning("Cycle Check success. There is no cycle in the graph.")
    return cycle, ranks
