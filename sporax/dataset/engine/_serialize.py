"""A pipeline as MindSpore's JSON form (``to_json``, ``serialize``, ``deserialize``, ``show``, ``compare``).

Each node is a dict with ``op_type`` (``"Batch"``, ``"Map"``..., a source's class name), ``num_parallel_workers``,
its arguments and ``children``. Sources and operations whose arguments are plain values round-trip through
``deserialize``; a Python function (a generator, a lambda in ``map``) is written by name and cannot be read back.
"""

from __future__ import annotations

import inspect
import json
import logging
from typing import Any

import numpy as np

__all__ = ["serialize", "deserialize", "show", "compare"]

_log = logging.getLogger("sporax.dataset")

_OPS = {
    "MapDataset": ("Map", ("input_columns", "output_columns")),
    "BatchDataset": ("Batch", ("batch_size", "drop_remainder", "input_columns", "output_columns")),
    "PaddedBatchDataset": ("PaddedBatch", ("batch_size", "drop_remainder")),
    "BucketBatchByLengthDataset": ("BucketBatchByLength", ("column_names", "drop_remainder")),
    "ShuffleDataset": ("Shuffle", ("buffer_size",)),
    "RepeatDataset": ("Repeat", ("count",)),
    "TakeDataset": ("Take", ("count",)),
    "SkipDataset": ("Skip", ("count",)),
    "ProjectDataset": ("Project", ("columns",)),
    "RenameDataset": ("Rename", ("input_columns", "output_columns")),
    "ZipDataset": ("Zip", ()),
    "ConcatDataset": ("Concat", ()),
    "FilterDataset": ("Filter", ("input_columns",)),
    "SyncWaitDataset": ("SyncWait", ("condition_name", "num_batch")),
    "FlatMapDataset": ("FlatMap", ()),
}
_SKIP = {"self", "child", "children", "input_dataset", "datasets", "source", "sampler", "cache", "schema", "decrypt"}


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)) and all(_plain(x) is not _NO for x in v):
        return [_plain(x) for x in v]
    if isinstance(v, dict) and all(isinstance(k, str) and _plain(x) is not _NO for k, x in v.items()):
        return {k: _plain(x) for k, x in v.items()}
    return _NO


_NO = object()


def _op_dict(op) -> dict:
    d: dict[str, Any] = {"tensor_op_name": type(op).__name__, "python_module": type(op).__module__}
    params = {}
    try:
        names = [p for p in inspect.signature(type(op).__init__).parameters if p != "self"]
    except (TypeError, ValueError):
        names = []
    for n in names:
        v = _plain(getattr(op, n, _NO)) if hasattr(op, n) else _NO
        if v is not _NO:
            params[n] = v
    if params:
        d["tensor_op_params"] = params
    return d


def to_dict(ds) -> dict:
    """The JSON form of the pipeline ending at ``ds``."""
    cls = type(ds).__name__
    op_type, fields = _OPS.get(cls, (cls, None))
    node: dict = {"op_type": op_type, "num_parallel_workers": ds.num_parallel_workers or 1}
    if fields is None:  # a source: its constructor arguments that are plain values
        args = getattr(ds, "_args", {})
        for n in inspect.signature(type(ds).__init__).parameters:
            if n in args:
                v = _plain(args[n])
            elif n in _SKIP or not hasattr(ds, n) or callable(getattr(ds, n)):
                continue
            else:
                v = _plain(getattr(ds, n))
            if v is not _NO:
                node[n] = v
    else:
        for n in fields:
            v = _plain(getattr(ds, n, None))
            node[n] = [] if v is None and n.endswith("columns") else (None if v is _NO else v)
        if cls == "MapDataset":
            node["operations"] = [_op_dict(op) for op in ds.operations]
    node["children"] = [to_dict(c) for c in ds.children]
    return node


def _build_op(d: dict):
    from .. import transforms, vision

    name = d["tensor_op_name"]
    cls = getattr(vision, name, None) or getattr(transforms, name, None)
    if cls is None:
        raise RuntimeError(f"Invalid data, unsupported operation to deserialize: {name}.")
    return cls(**d.get("tensor_op_params", {}))


def _from_dict(d: dict):
    from ... import dataset as ds_mod

    op = d["op_type"]
    kids = [_from_dict(c) for c in d.get("children", [])]
    if op == "Map":
        ops = [_build_op(o) for o in d.get("operations", [])]
        return kids[0].map(ops, d.get("input_columns") or None, d.get("output_columns") or None)
    if op == "Batch":
        return kids[0].batch(d["batch_size"], d.get("drop_remainder", False))
    if op == "PaddedBatch":
        return kids[0].padded_batch(d["batch_size"], d.get("drop_remainder", False))
    if op in ("Shuffle",):
        return kids[0].shuffle(d["buffer_size"])
    if op in ("Repeat", "Take", "Skip"):
        return getattr(kids[0], op.lower())(d["count"])
    if op == "Project":
        return kids[0].project(d["columns"])
    if op == "Rename":
        return kids[0].rename(d["input_columns"], d["output_columns"])
    if op == "Zip":
        return ds_mod.zip(tuple(kids))
    if op == "Concat":
        return kids[0].concat(kids[1:])
    cls = getattr(ds_mod, op, None)
    if cls is None or op in ("GeneratorDataset", "NumpySlicesDataset"):
        raise RuntimeError(f"Invalid data, the operation {op} cannot be deserialized.")
    params = inspect.signature(cls.__init__).parameters
    return cls(**{k: v for k, v in d.items() if k in params and k != "self"})


def serialize(dataset, json_filepath=""):
    """The pipeline ending at ``dataset`` as MindSpore's JSON dict, also written to ``json_filepath`` if given.

    Args:
        dataset (Dataset): the pipeline's last node.
        json_filepath (str, optional): a file to write. Default: ``""`` (none).

    Returns:
        dict.
    """
    return dataset.to_json(json_filepath)


def deserialize(input_dict=None, json_filepath=None):
    """Rebuild a pipeline from :func:`serialize`'s dict or file.

    Args:
        input_dict (dict, optional): the dict. Default: ``None``.
        json_filepath (str, optional): the file. Default: ``None``.

    Returns:
        Dataset.

    Raises:
        RuntimeError: a node cannot be rebuilt (a Python source or function).
    """
    if input_dict is None and json_filepath is None:
        raise ValueError("Either input_dict or json_filepath should be given.")
    if json_filepath:
        with open(json_filepath, encoding="utf-8") as f:
            input_dict = json.load(f)
    if not isinstance(input_dict, dict):
        raise TypeError(f"input_dict should be a dict, but got {type(input_dict).__name__}.")
    return _from_dict(input_dict)


def show(dataset, indentation=2) -> None:
    """Log the pipeline's JSON form (at INFO level).

    Args:
        dataset (Dataset): the pipeline.
        indentation (int, optional): JSON indentation; ``None`` for one line. Default: ``2``.
    """
    _log.info(json.dumps(dataset.to_json(), indent=indentation))


def compare(pipeline1, pipeline2) -> bool:
    """Whether two pipelines have the same JSON form."""
    return pipeline1.to_json() == pipeline2.to_json()
