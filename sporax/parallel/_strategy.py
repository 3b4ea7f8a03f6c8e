"""MindSpore's parallel strategy files and the arithmetic of tensor slices.

A strategy file is MindSpore's protobuf ``ParallelStrategyMap`` (``_proto/node_strategy.proto``): for each
parameter a ``ParallelLayouts`` with its device matrix, its tensor map (per dimension the device-matrix axis
it is split along, counted from the right; -1: not split), and the parallel optimizer's shard size and step.
Rank ``r``'s coordinate in the device matrix is ``r`` unravelled row-major; along a split dimension its slice
is the coordinate on that axis. With the parallel optimizer on (``opt_weight_shard_size > 1``) each slice is
cut again along dimension 0 among the ranks ``opt_weight_shard_step`` apart.

The functions here read, write and merge strategy files and slice or merge arrays by a layout; the checkpoint
transforms of :mod:`._checkpoint` use them. :func:`save_strategy_file` writes the file for a network trained in
semi-auto parallel, from the layouts XLA gave its Parameters.
"""

from __future__ import annotations

import glob
import json
import math
import os
from typing import Any

import numpy as np

from .._engine import _spmd
from ._proto import node_strategy_pb2

pb: Any = node_strategy_pb2  # protoc's module builds its classes at run time (mypy sees none)

__all__ = [
    "Layout1",
    "read_layouts",
    "write_strategy_file",
    "save_strategy_file",
    "build_searched_strategy",
    "merge_pipeline_strategys",
    "restore_group_info_list",
    "rank_list_for_transform",
    "slice_of",
    "merge_slices",
    "world_size",
]


class Layout1:
    """One parameter's layout: device matrix, tensor map, optimizer shard size and step."""

    __slots__ = ("dev_matrix", "tensor_map", "opt_size", "opt_step", "field")

    def __init__(self, dev_matrix: Any, tensor_map: Any, opt_size: int = 0, opt_step: int = 0, field: int = 0) -> None:
        self.dev_matrix = [int(d) for d in dev_matrix]
        self.tensor_map = [int(t) for t in tensor_map]
        self.opt_size, self.opt_step, self.field = int(opt_size), int(opt_step), int(field)

    @classmethod
    def from_proto(cls, lay: Any) -> Layout1:
        return cls(
            lay.dev_matrix[0].dim if lay.dev_matrix else [1],
            lay.tensor_map[0].dim if lay.tensor_map else [],
            lay.opt_weight_shard_size,
            lay.opt_weight_shard_step,
            lay.field,
        )

    def to_proto(self, out: Any) -> None:
        out.dev_matrix.add().dim.extend(self.dev_matrix)
        out.tensor_map.add().dim.extend(self.tensor_map)
        out.param_split_shape.add()  # MindSpore writes (and its readers expect) one, empty
        out.indices_offset.add()
        out.field = self.field
        out.opt_weight_shard_size = self.opt_size
        out.opt_weight_shard_step = self.opt_step

    @property
    def devices(self) -> int:
        return math.prod(self.dev_matrix)

    def cuts(self) -> list[int]:
        """Parts each dimension is cut into (the optimizer shard not counted)."""
        n = len(self.dev_matrix)
        return [1 if t == -1 else self.dev_matrix[n - 1 - t] for t in self.tensor_map]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout1) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self) -> str:
        return f"Layout1(dev_matrix={self.dev_matrix}, tensor_map={self.tensor_map}, opt_size={self.opt_size})"


# ------------------------------------------------------------------------------------------ the files
def _read_map(path: str, who: str) -> Any:
    """A strategy file as a ``ParallelStrategyMap``: MindSpore's protobuf, or its JSON form (a ``.json``
    name: ``{"parallel_layout_item": {name: {"dev_matrix": [...], "tensor_map": [...], ...}}}``)."""
    if not isinstance(path, str):
        raise TypeError(
            f"For 'build_searched_strategy', the argument 'strategy_filename' should be string, but got {type(path)}."
        )
    if not os.path.isfile(path):
        raise ValueError(
            f"For 'build_searched_strategy', no such strategy file: {path}. Please check whether the "
            "'strategy_filename' exists."
        )
    if os.path.getsize(path) == 0:
        raise ValueError(
            f"For 'build_searched_strategy', the strategy file {path} should not be empty. Please check whether the "
            "'strategy_filename' is correct."
        )
    msg = pb.ParallelStrategyMap()
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        msg.current_stage = int(content.get("current_stage", 0))
        for name, item in content.get("parallel_layout_item", {}).items():
            lay = msg.parallel_layout_item.add()
            lay.param_name = name
            out = lay.parallel_layouts
            out.dev_matrix.add().dim.extend(item.get("dev_matrix", []))
            out.tensor_map.add().dim.extend(item.get("tensor_map", []))
            out.param_split_shape.add().dim.extend(item.get("param_split_shape", []))
            out.indices_offset.add().dim.extend(item.get("indices_offset", []))
            out.field = int(item.get("field", 0))
            out.opt_weight_shard_step = int(item.get("opt_weight_shard_step", 0))
            out.opt_weight_shard_size = int(item.get("opt_weight_shard_size", 0))
        return msg
    try:
        with open(path, "rb") as f:
            msg.ParseFromString(f.read())
    except Exception:  # a malformed protobuf (DecodeError) or a missing required field
        raise TypeError(
            "The strategy file type should be one of json or protobuf. When the file name extension is not '.json', "
            "the file is considered as a protobuf file."
        ) from None
    return msg


def read_layouts(path: str, who: str = "build_searched_strategy") -> dict[str, Layout1]:
    """The layout of every parameter in a strategy file (a pipeline stage's ``"<stage>-<name>"`` under its
    name)."""
    out: dict[str, Layout1] = {}
    for it in _read_map(path, who).parallel_layout_item:
        name = it.param_name
        stage, _, rest = name.partition("-")
        out.setdefault(rest if stage.isdigit() and rest else name, Layout1.from_proto(it.parallel_layouts))
    return out


def write_strategy_file(path: str, layouts: dict[str, Layout1], stage: int = 0) -> None:
    """Write ``layouts`` as a MindSpore strategy file (its JSON form for a ``.json`` name)."""
    msg = pb.ParallelStrategyMap()
    msg.current_stage = stage
    for name, lay in layouts.items():
        item = msg.parallel_layout_item.add()
        item.param_name = name
        lay.to_proto(item.parallel_layouts)
    path = os.path.abspath(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if path.endswith(".json"):  # MindSpore's JSON form of the file
        with open(path, "w", encoding="utf-8") as fj:
            json.dump({"current_stage": stage, "parallel_layout_item": _json_layouts(msg)}, fj)
        return
    with open(path, "wb") as f:
        f.write(msg.SerializeToString())


def layout_of_array(x: Any, devices: int) -> Layout1:
    """The layout of an array placed on the mesh (a copy on every one of ``devices`` when not sharded)."""
    sharding = getattr(x, "sharding", None)
    mesh = getattr(sharding, "mesh", None)
    spec = getattr(sharding, "spec", None)
    if mesh is None or spec is None or mesh.size != devices:
        return Layout1([devices], [-1] * np.ndim(x))
    names = list(mesh.axis_names)
    shape = [int(mesh.shape[a]) for a in names]
    tmap = []
    for i in range(np.ndim(x)):
        entry = spec[i] if i < len(spec) else None
        if isinstance(entry, tuple):
            entry = entry[0] if len(entry) == 1 else None
        tmap.append(-1 if entry is None or shape[names.index(entry)] == 1 else len(names) - 1 - names.index(entry))
    return Layout1(shape, tmap)


def layout_of_spec(spec: Any, ndim: int, devices: int) -> Layout1:
    """The layout a strategy tuple (the devices left over hold copies: the device matrix's first axis) or a
    ``Layout`` gives a tensor."""
    if isinstance(spec, tuple):
        rep = devices // max(math.prod(spec), 1)
        return Layout1([rep, *spec], [len(spec) - 1 - i if s > 1 else -1 for i, s in enumerate(spec)])
    d = spec.to_dict()
    flat = [t if not isinstance(t, tuple) else (t[0] if len(t) == 1 else -1) for t in d["tensor_map"]]
    return Layout1(list(d["device_matrix"]), flat + [-1] * (ndim - len(flat)))


def parameter_layout_dict(net: Any, devices: int) -> dict[str, list]:
    """MindSpore's ``parameter_layout_dict`` of a network: for each Parameter a strategy laid out,
    ``[device_matrix, tensor_map, param_split_shape, field_size, opt_shard_step, opt_shard_size]``."""
    out = {}
    for p in net.get_parameters():
        spec = p.__dict__.get("_param_layout")
        if spec is None:
            continue
        lay = layout_of_spec(spec, len(p.shape), devices)
        out[p.name] = [lay.dev_matrix, lay.tensor_map, [], 0, lay.opt_step, lay.opt_size]
    return out


def save_strategy_file(net: Any, path: str, devices: int | None = None) -> dict[str, Layout1]:
    """Write the strategy file of ``net`` (a Cell, or a dict of Parameters) from its Parameters' layouts on
    the mesh, as MindSpore writes ``strategy_ckpt_config["save_file"]``. Returns the layouts."""
    params = net if isinstance(net, dict) else {p.name: p for p in net.get_parameters()}
    n = devices or _spmd.device_count()
    layouts = {name: layout_of_array(p._stored, n) for name, p in params.items()}
    write_strategy_file(path, layouts)
    return layouts


def build_searched_strategy(strategy_filename: str) -> dict[str, Any]:
    """The layout (MindSpore's ``ParallelLayouts`` message) of each parameter in a strategy file."""
    msg = _read_map(strategy_filename, "build_searched_strategy")
    return {it.param_name: it.parallel_layouts for it in msg.parallel_layout_item}


def merge_pipeline_strategys(src_strategy_dirs: str, dst_strategy_file: str) -> None:
    """Merge the strategy files of the pipeline stages (the ``*.ckpt`` files, or ``*.json`` ones, in
    ``src_strategy_dirs``) into one, as MindSpore does: each parameter named ``"<stage>-<name>"`` (the stage
    of its file's operators, else the file's ``current_stage``), one file per stage."""
    os.makedirs(os.path.dirname(os.path.abspath(dst_strategy_file)), exist_ok=True)
    if not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    protos = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.ckpt")))
    jsons = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.json")))
    if protos and jsons:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    out = pb.ParallelStrategyMap()
    merged: list[int] = []
    for f in protos or jsons:
        msg = _read_map(f, "merge_pipeline_strategys")
        if not msg.parallel_layout_item:
            raise ValueError(f"The strategy file {f} is empty")
        items = msg.parallel_strategy_item
        stage = items[0].parallel_strategys.stage if items else msg.current_stage
        if stage in merged:
            continue
        for it in msg.parallel_layout_item:
            it.param_name = f"{stage}-{it.param_name}"
        out.parallel_strategy_item.extend(items)
        out.parallel_layout_item.extend(msg.parallel_layout_item)
        merged.append(stage)
    out.current_stage = 1
    if dst_strategy_file.endswith(".json"):
        with open(dst_strategy_file, "w", encoding="utf-8") as fh:
            json.dump({"current_stage": 1, "parallel_layout_item": _json_layouts(out)}, fh)
        return
    with open(dst_strategy_file, "wb") as fh:
        fh.write(out.SerializeToString())


def _json_layouts(msg: Any) -> dict[str, Any]:
    out = {}
    for it in msg.parallel_layout_item:
        lay = it.parallel_layouts
        out[it.param_name] = {
            "dev_matrix": list(lay.dev_matrix[0].dim) if lay.dev_matrix else [],
            "tensor_map": list(lay.tensor_map[0].dim) if lay.tensor_map else [],
            "field": lay.field,
            "opt_weight_shard_step": lay.opt_weight_shard_step,
            "opt_weight_shard_size": lay.opt_weight_shard_size,
        }
    return out


def restore_group_info_list(group_info_file_name: str) -> list[int]:
    """The ranks whose checkpoints restore this rank (``ckpt_restore_rank_list`` of a group info file, MindSpore's
    protobuf ``ParallelGroupMap``)."""
    if not isinstance(group_info_file_name, str):
        raise TypeError(f"The group_info_file_name should be str, but got {type(group_info_file_name)}.")
    if not os.path.isfile(group_info_file_name):
        raise ValueError(f"For 'restore_group_info_list', no such group information file: {group_info_file_name}.")
    if os.path.getsize(group_info_file_name) == 0:
        raise ValueError("For 'restore_group_info_list', the group information file should not be empty.")
    msg = pb.ParallelGroupMap()
    with open(group_info_file_name, "rb") as f:
        msg.ParseFromString(f.read())
    return list(msg.ckpt_restore_rank_list.dim)


def write_group_info_file(path: str, groups: dict[str, list[int]], restore_ranks: list[int]) -> None:
    """Write a group information file (MindSpore's ``group_ckpt_save_file``)."""
    msg = pb.ParallelGroupMap()
    for name, ranks in groups.items():
        item = msg.parallel_group_item.add()
        item.group_name = name
        item.parallel_group_ranks.dim.extend(ranks)
    msg.ckpt_restore_rank_list.dim.extend(restore_ranks)
    with open(path, "wb") as f:
        f.write(msg.SerializeToString())


# ------------------------------------------------------------------------------------- slice arithmetic
def _coordinate(rank: int, dev_matrix: list[int]) -> list[int]:
    coord = [0] * len(dev_matrix)
    for i in range(len(dev_matrix) - 1, -1, -1):
        coord[i] = rank % dev_matrix[i]
        rank //= dev_matrix[i]
    return coord


def slice_of(layout: Layout1, rank: int, shape: tuple[int, ...]) -> tuple[slice, ...]:
    """The part of a tensor of ``shape`` that ``rank`` holds."""
    coord = _coordinate(rank % layout.devices, layout.dev_matrix)
    n = len(layout.dev_matrix)
    out = []
    for dim, (t, size) in enumerate(zip(layout.tensor_map, shape)):
        parts, idx = 1, 0
        if t != -1:
            parts, idx = layout.dev_matrix[n - 1 - t], coord[n - 1 - t]
        k = size // parts
        lo, hi = idx * k, (idx + 1) * k
        if dim == 0 and layout.opt_size > 1:
            step = max(layout.opt_step, 1)
            sub = k // layout.opt_size
            j = (rank // step) % layout.opt_size
            lo, hi = lo + j * sub, lo + (j + 1) * sub
        out.append(slice(lo, hi))
    return tuple(out)


def merge_slices(slices: dict[int, np.ndarray], layout: Layout1, shape: tuple[int, ...] | None = None) -> np.ndarray:
    """The whole tensor from the slices the ranks hold (``{rank: slice}``; copies may be missing)."""
    first = next(iter(slices.values()))
    if shape is None:
        cuts = layout.cuts()
        shape = tuple(s * c for s, c in zip(first.shape, cuts))
        if layout.opt_size > 1 and shape:
            shape = (shape[0] * layout.opt_size, *shape[1:])
    full = np.empty(shape, first.dtype)
    filled = np.zeros(shape[:1] if shape else (), bool)
    for rank, part in slices.items():
        idx = slice_of(layout, rank, shape)
        full[idx] = part
        if shape:
            filled[idx[0]] = True
    return full


def world_size(layouts: dict[str, Layout1]) -> int:
    """The number of ranks a strategy file describes."""
    return max((lay.devices for lay in layouts.values()), default=1)


def _owners(layout: Layout1, shape: tuple[int, ...], prefer: int) -> dict[tuple, int]:
    """For each distinct slice, the rank read for it: ``prefer`` when it holds that slice (a rank reads its own
    checkpoint where it can, as MindSpore plans it), else the first rank holding it."""
    out: dict[tuple, int] = {}
    for r in range(layout.devices):
        key = tuple((s.start, s.stop) for s in slice_of(layout, r, shape))
        if key not in out or r == prefer:
            out[key] = r
    return out


def rank_list_for_transform(rank_id: int, src_strategy_file: Any = None, dst_strategy_file: Any = None) -> list[int]:
    """The source ranks whose checkpoints destination rank ``rank_id`` needs (its own where it holds a slice it
    needs), highest first as MindSpore lists them."""
    if not isinstance(rank_id, int) or isinstance(rank_id, bool):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    src = read_layouts(src_strategy_file, "rank_list_for_transform")
    dst = read_layouts(dst_strategy_file, "rank_list_for_transform") if dst_strategy_file is not None else {}
    need: set[int] = set()
    for name, lay in src.items():
        # a shape every layout divides: the least common multiple of the cuts
        shape = tuple(
            math.lcm(c, (dst[name].cuts()[i] if name in dst and i < len(dst[name].tensor_map) else 1)) * 64
            for i, c in enumerate(lay.cuts())
        )
        want = slice_of(dst[name], rank_id, shape) if name in dst else tuple(slice(0, s) for s in shape)
        for key, r in _owners(lay, shape, rank_id).items():
            if all(lo < w.stop and w.start < hi for (lo, hi), w in zip(key, want)):
                need.add(r)
    return sorted(need, reverse=True)  # MindSpore's order
