"""``mindspore.parallel``'s checkpoint functions: per-rank checkpoints with their strategy files, merged,
re-sliced for another world size or layout, and loaded.

A distributed checkpoint is one file per rank (``<dir>/rank_<r>/<prefix><r>.ckpt``) holding that rank's
slice of each parameter, and a strategy file giving each parameter's layout (:mod:`._strategy`). The
transforms merge the slices of the source ranks and cut the slices of the destination ranks; loading merges
them into whole parameters. These are MindSpore's own files: a checkpoint saved by MindSpore on 8 devices
loads here on 2, and the other way round.

This module reads and writes checkpoint files through ``sporax.train.serialization`` (MindSpore keeps these
functions over its ``train`` package the same way); it is loaded on first use.
"""

from __future__ import annotations

import glob
import json
import os
import re
from typing import Any

import numpy as np

from .._engine import _parallel, _spmd
from ..common.parameter import Parameter
from ..common.tensor import Tensor
from . import _strategy as st


class _Serialization:
    """``sporax.train.serialization``, imported on first use (``sporax.train`` imports this module)."""

    def __getattr__(self, name: str) -> Any:
        from ..train import serialization

        return getattr(serialization, name)


_ser = _Serialization()

__all__ = [
    "merge_sliced_parameter",
    "load_distributed_checkpoint",
    "transform_checkpoint_by_rank",
    "transform_checkpoints",
    "convert_checkpoint_by_rank",
    "convert_checkpoints",
    "load_segmented_checkpoints",
    "unified_safetensors",
    "parameter_broadcast",
    "sync_pipeline_shared_parameters",
    "get_ckpt_path_with_strategy",
    "save_rank_checkpoints",
]


def _np(p: Any) -> np.ndarray:
    """A Parameter's whole value (gathered from the ranks when it is split across processes)."""
    stored = getattr(p, "_stored", None)
    if stored is not None:
        return np.asarray(_spmd.gather_local(stored))
    return np.asarray(p.asnumpy() if hasattr(p, "asnumpy") else p)


def merge_sliced_parameter(sliced_parameters: Any, strategy: Any = None) -> Parameter:
    """One Parameter from its slices (in rank order): by each slice's layout in ``strategy`` (as
    :func:`build_searched_strategy` returns it), or concatenated along axis 0 when ``strategy`` is None."""
    who = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(
            f"For '{who}', the argument 'sliced_parameters' should be list, but got {type(sliced_parameters)}."
        )
    if not sliced_parameters:
        raise ValueError(f"For '{who}', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"For '{who}', the argument 'strategy' should be dict, but got {type(strategy)}.")
    first = sliced_parameters[0]
    if not isinstance(first, Parameter):
        raise TypeError(
            f"For '{who}', the element in 'sliced_parameters' should be 'Parameter', but got {type(first)} at index 0."
        )
    name, shape = first.name, tuple(first.shape)
    for i, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError(
                f"For '{who}', the element in 'sliced_parameters' should be 'Parameter', but got {type(p)} at index {i}."
            )
        if p.name != name or len(p.shape) != len(shape) or tuple(p.shape[1:]) != shape[1:]:
            raise ValueError(
                f"For '{who}', please make sure that the elements in 'slice_parameters' have the same name, dimension "
                "length and shape except 0 axis. The name, dimension length, shape except 0 axis should be "
                f"{name}, {len(shape)}, {shape[1:]}, but got name: {p.name}, dimension length: {len(p.shape)}, shape "
                f"except 0 axis: {tuple(p.shape[1:])} at index {i}."
            )
    parts = [_np(p) for p in sliced_parameters]
    if not strategy:
        merged = np.concatenate(parts, axis=0)
    else:
        if name not in strategy:
            raise KeyError(
                f"For '{who}', the parameter name {name} should be a key in the 'strategy'. Please check "
                "'sliced_parameter' and 'strategy'."
            )
        lay = strategy[name]
        lay = lay if isinstance(lay, st.Layout1) else st.Layout1.from_proto(lay)
        if len(parts) != lay.devices:
            raise ValueError(
                f"For '{who}', the length of 'sliced_parameters' should be {lay.devices} (the devices of its layout), "
                f"but got {len(parts)}."
            )
        merged = st.merge_slices(dict(enumerate(parts)), lay)
    return Parameter(Tensor(merged), name, first.requires_grad, first.layerwise_parallel)


# -------------------------------------------------------------------------------- reading rank files
def _load_dict(path: str, dec_key: Any = None, dec_mode: str = "AES-GCM") -> dict[str, np.ndarray]:
    fmt = "safetensors" if path.endswith(".safetensors") else "ckpt"
    params = _ser.load_checkpoint(path, dec_key=dec_key, dec_mode=dec_mode, format=fmt)
    return {k: _np(v) for k, v in params.items()}


def _merged(files: dict[int, str], layouts: dict[str, st.Layout1], **kw: Any) -> dict[str, np.ndarray]:
    """Whole tensors from rank files ``{rank: path}`` cut as ``layouts`` say."""
    per_rank = {r: _load_dict(f, **kw) for r, f in sorted(files.items())}
    names: list[str] = []
    for d in per_rank.values():
        names += [n for n in d if n not in names]
    out = {}
    for name in names:
        lay = layouts.get(name)
        have = {r: d[name] for r, d in per_rank.items() if name in d}
        if lay is None or all(c == 1 for c in lay.cuts()) and lay.opt_size <= 1:
            out[name] = next(iter(have.values()))
            continue
        missing = [r for r in range(lay.devices) if r not in have]
        held = {r: a for r, a in have.items()}
        try:
            out[name] = st.merge_slices(held, lay)
        except (ValueError, IndexError) as err:
            raise ValueError(
                f"The checkpoint slices of '{name}' cannot be merged (ranks missing: {missing}): {err}"
            ) from None
    return out


def _cut(full: dict[str, np.ndarray], layouts: dict[str, st.Layout1], rank: int) -> dict[str, np.ndarray]:
    out = {}
    for name, a in full.items():
        lay = layouts.get(name)
        out[name] = a if lay is None else np.ascontiguousarray(a[st.slice_of(lay, rank, a.shape)])
    return out


def _save(arrays: dict[str, np.ndarray], path: str, fmt: str = "ckpt") -> None:
    os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
    _ser.save_checkpoint([{"name": k, "data": Tensor(v)} for k, v in arrays.items()], path, format=fmt)


def save_rank_checkpoints(
    net: Any, directory: str, prefix: str = "checkpoint_", layouts: Any = None, fmt: str = "ckpt"
) -> dict[int, str]:
    """Save ``net``'s Parameters as one checkpoint per rank (``<directory>/rank_<r>/<prefix><r>.ckpt``), each
    holding that rank's slices by ``layouts`` (a strategy file, a dict of layouts, or None: the layouts of the
    Parameters on the mesh). What each rank of a MindSpore job saves; returns ``{rank: path}``."""
    if layouts is None or isinstance(layouts, str):
        layouts = st.read_layouts(layouts) if isinstance(layouts, str) else st.save_strategy_file(net, os.devnull)
    full = {p.name: _np(p) for p in (net.values() if isinstance(net, dict) else net.get_parameters())}
    out = {}
    for r in range(st.world_size(layouts)):
        out[r] = os.path.join(directory, f"rank_{r}", f"{prefix}{r}.{fmt}")
        _save(_cut(full, layouts, r), out[r], fmt)
    return out


def _layouts(path: Any, who: str) -> dict[str, st.Layout1]:
    return st.read_layouts(path, who) if path is not None else {}


def transform_checkpoint_by_rank(
    rank_id: int,
    checkpoint_files_map: dict,
    save_checkpoint_file_name: str,
    src_strategy_file: Any = None,
    dst_strategy_file: Any = None,
) -> None:
    """Write destination rank ``rank_id``'s checkpoint from the source ranks' (``{rank: file}``)."""
    who = "transform_checkpoint_by_rank"
    if not isinstance(checkpoint_files_map, dict):
        raise TypeError(
            f"For '{who}', the checkpoint_files_map should be a dict, but got {type(checkpoint_files_map)}."
        )
    if not isinstance(rank_id, int) or isinstance(rank_id, bool) or rank_id < 0:
        raise ValueError(f"For '{who}', the rank_id should be a non-negative int, but got {rank_id!r}.")
    for r, f in checkpoint_files_map.items():
        if not isinstance(r, int) or not isinstance(f, str):
            raise ValueError(f"For '{who}', the checkpoint_files_map should map int ranks to file paths.")
        if not os.path.isfile(f):
            raise ValueError(f"For '{who}', the checkpoint file {f} of rank {r} does not exist.")
    if not isinstance(save_checkpoint_file_name, str) or not save_checkpoint_file_name.endswith(
        (".ckpt", ".safetensors")
    ):
        raise ValueError(
            f"For '{who}', the save_checkpoint_file_name should end with '.ckpt', but got {save_checkpoint_file_name}."
        )
    full = _merged(checkpoint_files_map, _layouts(src_strategy_file, who))
    fmt = "safetensors" if save_checkpoint_file_name.endswith(".safetensors") else "ckpt"
    _save(_cut(full, _layouts(dst_strategy_file, who), rank_id), save_checkpoint_file_name, fmt)


def _rank_files(src_dir: str, who: str) -> dict[int, str]:
    if not os.path.isdir(src_dir):
        raise NotADirectoryError(f"For '{who}', the src_checkpoints_dir {src_dir} is not a directory.")
    files = {}
    for d in os.listdir(src_dir):
        m = re.fullmatch(r"rank_(\d+)", d)
        if not m:
            continue
        found = sorted(
            glob.glob(os.path.join(src_dir, d, "*.ckpt")) + glob.glob(os.path.join(src_dir, d, "*.safetensors")),
            key=os.path.getmtime,
        )
        if found:
            files[int(m.group(1))] = found[-1]
    if not files:
        raise ValueError(f"For '{who}', there is no rank_<id> folder with a checkpoint in {src_dir}.")
    return files


def transform_checkpoints(
    src_checkpoints_dir: str,
    dst_checkpoints_dir: str,
    ckpt_prefix: str,
    src_strategy_file: Any = None,
    dst_strategy_file: Any = None,
    process_num: int = 1,
    output_format: str = "ckpt",
) -> None:
    """Re-slice a distributed checkpoint (``<src>/rank_<r>/*.ckpt``, the newest file of each rank) for the
    destination strategy: ``<dst>/rank_<r>/<ckpt_prefix><r>.<output_format>`` for every destination rank."""
    who = "transform_checkpoints"
    if not isinstance(ckpt_prefix, str):
        raise TypeError(f"For '{who}', the ckpt_prefix should be str, but got {type(ckpt_prefix)}.")
    if output_format not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{who}', the output_format must be 'ckpt' or 'safetensors', but got {output_format}.")
    if not isinstance(process_num, int) or process_num < 1:
        raise ValueError(f"For '{who}', the process_num should be a positive int, but got {process_num!r}.")
    dst = _layouts(dst_strategy_file, who)
    full = _merged(_rank_files(src_checkpoints_dir, who), _layouts(src_strategy_file, who))
    for r in range(st.world_size(dst) if dst else 1):
        _save(
            _cut(full, dst, r),
            os.path.join(dst_checkpoints_dir, f"rank_{r}", f"{ckpt_prefix}{r}.{output_format}"),
            output_format,
        )


convert_checkpoints = transform_checkpoints
convert_checkpoint_by_rank = transform_checkpoint_by_rank


def load_distributed_checkpoint(
    network: Any,
    checkpoint_filenames: Any = None,
    predict_strategy: Any = None,
    train_strategy_filename: Any = None,
    strict_load: bool = False,
    dec_key: Any = None,
    dec_mode: str = "AES-GCM",
    format: str = "ckpt",  # noqa: A002  (MindSpore's name)
    unified_safetensors_dir: Any = None,
    dst_safetensors_dir: Any = None,
    rank_id: Any = None,
    output_format: str = "safetensors",
    name_map: Any = None,
    max_process_num: int = 64,
    return_param_dict: bool = False,
) -> Any:
    """Load the per-rank checkpoints (``checkpoint_filenames``, in rank order) of a job trained with the
    layouts of ``train_strategy_filename`` into ``network``: each parameter merged whole. In sporax the
    network holds whole parameters on any number of devices (XLA lays them out), so ``predict_strategy`` is
    checked and not needed. With ``return_param_dict`` the merged parameters are returned instead."""
    who = "load_distributed_checkpoint"
    if format not in ("ckpt", "safetensors"):
        raise ValueError(f"For '{who}', the format must be 'ckpt' or 'safetensors', but got {format}.")
    if predict_strategy is not None and not isinstance(predict_strategy, (dict, str)):
        raise TypeError(
            f"For '{who}', the argument 'predict_strategy' should be a dict or a str, but got {type(predict_strategy)}."
        )
    if unified_safetensors_dir is not None:
        files = sorted(glob.glob(os.path.join(unified_safetensors_dir, "*.safetensors")))
        full: dict[str, np.ndarray] = {}
        for f in files:
            full.update(_load_dict(f))
    else:
        if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames:
            raise TypeError(
                f"For '{who}', the argument 'checkpoint_filenames' should be a non-empty list of file names."
            )
        for f in checkpoint_filenames:
            if not isinstance(f, str) or not os.path.isfile(f):
                raise ValueError(f"For '{who}', the checkpoint file {f} does not exist.")
        full = _merged(
            dict(enumerate(checkpoint_filenames)),
            _layouts(train_strategy_filename, who),
            dec_key=dec_key,
            dec_mode=dec_mode,
        )
    if name_map:
        full = {name_map.get(k, k): v for k, v in full.items()}
    params = {k: Parameter(Tensor(v), k) for k, v in full.items()}
    if return_param_dict:
        return params
    _ser.load_param_into_net(network, params, strict_load=strict_load)
    return None


def load_segmented_checkpoints(
    ckpt_file_dir: str,
    net: Any = None,
    strict_load: bool = False,
    filter_prefix: Any = None,
    dec_key: Any = None,
    dec_mode: str = "AES-GCM",
    specify_prefix: Any = None,
    choice_func: Any = None,
) -> dict[str, Parameter]:
    """Load every checkpoint file in ``ckpt_file_dir`` (a network saved in segments) as one dictionary, and
    into ``net`` when given."""
    if not isinstance(ckpt_file_dir, str) or not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"For 'load_segmented_checkpoints', the ckpt_file_dir {ckpt_file_dir} should be a directory.")
    out: dict[str, Parameter] = {}
    for f in sorted(
        glob.glob(os.path.join(ckpt_file_dir, "*.ckpt")) + glob.glob(os.path.join(ckpt_file_dir, "*.safetensors"))
    ):
        fmt = "safetensors" if f.endswith(".safetensors") else "ckpt"
        out.update(
            _ser.load_checkpoint(
                f, None, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix, choice_func, format=fmt
            )
        )
    if net is not None:
        _ser.load_param_into_net(net, out, strict_load=strict_load)
    return out


def unified_safetensors(
    src_dir: str,
    src_strategy_file: str,
    dst_dir: str,
    merge_with_redundancy: bool = True,
    file_suffix: Any = None,
    max_process_num: int = 64,
    choice_func: Any = None,
    split_dst_file: tuple = (),
) -> None:
    """Merge a distributed safetensors checkpoint (``<src_dir>/rank_<r>/*.safetensors``) into whole parameters,
    as MindSpore lays them out: ``<dst_dir>/part<i>.safetensors`` of up to 3 GiB each and
    ``param_name_map.json`` (``{"metadata": {"total_size": bytes}, "weight_map": {name: file}}``);
    ``split_dst_file=(i, n)`` writes the i-th of n shares of the parts. ``accu_grads`` are left out."""
    full = _merged(_rank_files(src_dir, "unified_safetensors"), _layouts(src_strategy_file, "unified_safetensors"))
    names = [k for k in full if not k.startswith("accu_grads") and (choice_func is None or choice_func(k))]
    limit, size = 3 << 30, 0
    parts: list[list[str]] = [[]]
    for k in names:
        if size and size + full[k].nbytes > limit:
            parts.append([])
            size = 0
        parts[-1].append(k)
        size += full[k].nbytes
    ids = list(range(len(parts)))
    if split_dst_file:
        i, total = split_dst_file[0], split_dst_file[1]
        ids = [j for j in ids if j % total == i - 1]
    weight_map = {k: f"part{j}.safetensors" for j, ks in enumerate(parts) for k in ks}
    for j in ids:
        _save({k: full[k] for k in parts[j]}, os.path.join(dst_dir, f"part{j}.safetensors"), "safetensors")
    meta = {"metadata": {"total_size": int(sum(full[k].nbytes for k in names))}, "weight_map": weight_map}
    with open(os.path.join(dst_dir, "param_name_map.json"), "w") as f:
        json.dump(meta, f, indent=4)


def parameter_broadcast(net: Any, layout: dict, cur_rank: int = 0, initial_rank: int = 0) -> None:
    """Give every rank rank ``initial_rank``'s values of the Parameters named in ``layout`` (after each rank
    loaded its own checkpoint). With one process the values are already everyone's."""
    if not isinstance(layout, dict):
        raise TypeError(f"For 'parameter_broadcast', the layout should be dict, but got {type(layout)}.")
    params = [p for p in net.get_parameters() if p.name in layout]
    if _parallel.size() == 1 or not params:
        return
    for p, v in zip(params, _parallel.broadcast_many([p._stored for p in params], root=initial_rank)):
        p._stored = v


def sync_pipeline_shared_parameters(net: Any) -> None:
    """Make the Parameters pipeline stages share (embedding tables) equal on every stage. sporax runs all
    stages in one program over one copy of each Parameter: they are equal already."""
    if not hasattr(net, "get_parameters"):
        raise TypeError(f"For 'sync_pipeline_shared_parameters', the net should be a Cell, but got {type(net)}.")


def get_ckpt_path_with_strategy(cur_ckpt_path: str, cur_strategy_path: str) -> str | None:
    """A checkpoint holding this rank's slices: ``cur_ckpt_path`` when it is this rank's (``rank_<r>`` in the
    path) and exists, else the same path under another ``rank_<r>`` folder of a rank holding the same slice of
    every parameter (this rank's data-parallel group, from the strategy file); None if there is none."""
    rank = _parallel.rank()
    if f"rank_{rank}" in cur_ckpt_path and os.path.isfile(cur_ckpt_path):
        return cur_ckpt_path
    layouts = st.read_layouts(cur_strategy_path, "get_ckpt_path_with_strategy")
    shape_of = {k: tuple(64 * c for c in lay.cuts()) for k, lay in layouts.items()}
    mine = {k: st.slice_of(lay, rank, shape_of[k]) for k, lay in layouts.items()}
    for r in range(st.world_size(layouts)):
        if all(st.slice_of(lay, r, shape_of[k]) == mine[k] for k, lay in layouts.items()):
            path = re.sub(r"rank_\d+", f"rank_{r}", cur_ckpt_path)
            if os.path.isfile(path):
                return path
    return None
