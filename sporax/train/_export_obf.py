"""``mindspore.obfuscate_ckpt`` / ``load_obf_params_into_net``: MindSpore's weight obfuscation of
checkpoints (``mindspore.safeguard``), on sporax's checkpoint files.

``obfuscate_ckpt`` draws the obfuscation metadata an ``obf_config`` describes (``random``: integers in
``[1, obfuscate_scale)`` as float16; ``rearrange``: a permutation, or a permutation matrix for 2-D shapes),
applies each matching parameter's ``weight_obf_ops`` (``mul``, ``matmul``, ``permuate``) to every ``.ckpt``
under ``ckpt_files`` (one level of sub-folders too), saves ``<name>_obf.ckpt`` under ``saved_path`` and returns
the metadata marked ``save_metadata`` (through its ``metadata_op``: ``invert`` gives the reciprocal), which
the deployed network multiplies back. The legacy ``target_modules`` form (``['path/to/cells', 'fc1|fc2'
(, 'obfuscate_layers:N')]``) becomes the equivalent ``obf_config``. ``load_obf_params_into_net`` checks its
arguments and returns the network, as MindSpore 2.10's does.
"""

from __future__ import annotations

import copy
import logging
import os
from string import Template
from typing import Any

import numpy as np

from .._checkparam import (
    check_obf_config,
    check_obf_dir,
    check_obf_layers,
    check_obf_scale,
    check_obf_target_modules,
)

__all__ = ["obfuscate_ckpt", "load_obf_params_into_net"]

_log = logging.getLogger("sporax")

_METADATA_OPS = ("mul", "matmul", "invert")  # MindSpore's list; only 'invert' takes the one metadata tensor


def _find_target_modules(network: Any, target_modules: list[str]) -> None:
    """Every path of the legacy ``target_modules`` exists in ``network`` and names at least one target."""
    from ..nn import CellList

    path, targets = target_modules[0], target_modules[1]
    cells, found = [network], 0
    for part in path.split("/") if path else []:
        nxt = []
        for cell in cells:
            sub = getattr(cell, part, None)
            if sub is None:
                continue
            nxt.extend(list(sub) if isinstance(sub, CellList) else [sub])
        if not nxt:
            raise ValueError(f"the path {path} does not exist.")
        cells = nxt
    for name in targets.split("|"):
        if any(hasattr(cell, name) for cell in cells):
            found += 1
        else:
            _log.warning("%s does not exist in the path %s", name, path)
    if not found:
        raise ValueError(f"all targets {targets.split('|')} do not exist in the path {path}.")


def _config_from_target_modules(target_modules: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The obf_config MindSpore derives from the legacy ``target_modules``."""
    path, targets = target_modules[0], target_modules[1].split("|")
    meta: dict[str, Any] = {
        "name": "obf_metadata",
        "shape": [1],
        "type": "random",
        "save_metadata": True,
        "metadata_op": "invert",
    }
    ratio = "obf_metadata"
    layers: list[int] = []
    if len(target_modules) >= 3:
        count = target_modules[2].split(":")[1]
        layers = list(range(12 if count == "all" else int(count)))
        path = path.replace("blocks", "blocks/${layer}")
        ratio = "obf_metadata_${layer}"
        meta.update(name=ratio, layers=layers)
    weights, network = [], []
    for target in targets:
        for kind in ("weight", "bias"):
            entry: dict[str, Any] = {"target": "/".join([path, target, kind]), "weight_obf_ops": [
                {"name": "mul", "input_x": "weight", "input_y": ratio}]}  # fmt: skip
            if layers:
                entry["layers"] = layers
            weights.append(entry)
        network.append({"module": "/" + path, "target": target, "insert_new_input": [{"name": ratio}],
                        "insert_ops": [{"name": "mul", "input_x": "weight", "input_y": ratio}]})  # fmt: skip
    return {"obf_metadata_config": [meta], "weight_obf_config": weights, "network_obf_config": network}


def _resolve_config(network: Any, target_modules: Any, obf_config: Any, kinds: tuple[str, ...]) -> dict:
    from ..nn import Cell

    if not isinstance(network, Cell):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    if obf_config is None:
        check_obf_target_modules(target_modules)
        _find_target_modules(network, target_modules)
        check_obf_layers(target_modules)
        _log.warning(
            "'target_modules and obf_ratios' will be deprecated and removed in a future version, use 'obf_config' "
            "instead."
        )
        obf_config = _config_from_target_modules(target_modules)
    if not isinstance(obf_config, dict):
        raise TypeError(f"obf_config type should be dict, but got {type(obf_config)}.")
    if not obf_config:
        raise ValueError("'obf_config' is empty or not valid, please check the input.")
    for kind in kinds:
        check_obf_config(obf_config, kind)
    return obf_config


# ------------------------------------------------------------------ obfuscation
def _draw(shape: list[int], kind: str | None, scale: float) -> np.ndarray | None:
    if kind == "random":
        return np.random.randint(1, scale, size=shape).astype(np.float16)  # type: ignore[call-overload]
    if kind == "rearrange" and len(shape) == 1:
        return np.random.permutation(shape[0]).astype(np.int32)
    if kind == "rearrange" and len(shape) == 2:
        return np.identity(shape[0], dtype=np.int32)[:, np.random.permutation(shape[1])]
    return None


def _metadata(configs: list[dict[str, Any]], scale: float) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    drawn: dict[str, Any] = {}
    saved: dict[str, np.ndarray] = {}
    for config in configs:
        names = (
            [Template(config["name"]).safe_substitute(layer=str(i)) for i in config["layers"]]
            if config.get("layers")
            else [config["name"]]
        )
        for name in names:
            if name in drawn and not config.get("layers"):
                continue
            value = _draw(config["shape"], config.get("type"), scale)
            drawn[name] = value
            if config.get("save_metadata", False) and value is not None:
                op = config.get("metadata_op")
                if op is not None and op not in _METADATA_OPS:
                    raise KeyError(f"'op name' must be in {list(_METADATA_OPS)}, but got {op}.")
                if op in ("mul", "matmul"):
                    raise TypeError(f"For 'obfuscate_ckpt', the metadata_op '{op}' needs two inputs; use 'invert'.")
                saved[name] = (1.0 / value.astype(np.float32)).astype(value.dtype) if op == "invert" else value
    return drawn, saved


def _apply(value: np.ndarray, ops_info: list[dict[str, Any]], drawn: dict[str, Any], layer: int) -> np.ndarray:
    out = value
    for op in ops_info:
        sub = {"layer": str(layer)}
        if op["name"] == "mul":
            out = out * np.asarray(drawn[Template(op["input_y"]).safe_substitute(sub)]).astype(value.dtype)
        elif op["name"] == "permuate":
            out = out[np.asarray(drawn[Template(op["input_x"]).safe_substitute(sub)])]
        elif op["name"] == "matmul":
            x_name, y_name = (Template(op[k]).safe_substitute(sub) for k in ("input_x", "input_y"))
            x = np.asarray(drawn[x_name] if x_name.startswith("obf_metadata") else out).astype(value.dtype)
            y = np.asarray(drawn[y_name] if y_name.startswith("obf_metadata") else out).astype(value.dtype)
            out = (x.T if op.get("transpose_a") else x) @ (y.T if op.get("transpose_b") else y)
        else:
            raise ValueError(f"unsupported op, op must be matmul or permuate or mul, but got {op['name']}.")
    return out.astype(value.dtype)


def _obfuscate_file(path: str, drawn: dict[str, Any], configs: list[dict[str, Any]], saved_path: str) -> None:
    from ..common.tensor import Tensor
    from .serialization import load_checkpoint, save_checkpoint

    params = load_checkpoint(path)
    out = []
    for name, param in params.items():
        value = param.asnumpy()
        param_path = "/".join(name.split("."))
        for config in configs:
            layers = config.get("layers") or [None]
            for layer in layers:
                target = (
                    config["target"] if layer is None else Template(config["target"]).safe_substitute(layer=str(layer))
                )
                if target == param_path:
                    value = _apply(value, config["weight_obf_ops"], drawn, 0 if layer is None else layer)
        out.append({"name": name, "data": Tensor(value)})
    stem = os.path.basename(path).split(".")[0]
    save_checkpoint(out, os.path.join(os.path.realpath(saved_path), f"{stem}_obf.ckpt"))


def obfuscate_ckpt(
    network: Any,
    ckpt_files: str,
    target_modules: Any = None,
    obf_config: Any = None,
    saved_path: str = "./",
    obfuscate_scale: Any = 100,
) -> dict[str, np.ndarray]:
    """Obfuscate the ``.ckpt`` files in the folder ``ckpt_files`` into ``saved_path``; returns the metadata
    the deployed network needs (name -> array)."""
    check_obf_dir("ckpt_files", ckpt_files)
    check_obf_dir("saved_path", saved_path)
    obf_config = _resolve_config(network, target_modules, obf_config, ("obf_metadata_config", "weight_obf_config"))
    check_obf_scale(obfuscate_scale)
    drawn, saved = _metadata(copy.deepcopy(obf_config.get("obf_metadata_config", [])), obfuscate_scale)
    configs = obf_config.get("weight_obf_config", [])
    for config in configs:
        if not config.get("target") or not config.get("weight_obf_ops"):
            raise KeyError("target or obf_ops is None.")
    for entry in sorted(os.listdir(ckpt_files)):
        full = os.path.join(os.path.realpath(ckpt_files), entry)
        if os.path.isdir(full):
            out_dir = os.path.join(os.path.realpath(saved_path), entry)
            os.makedirs(out_dir, mode=0o700, exist_ok=True)
            for name in sorted(os.listdir(full)):
                if name.endswith(".ckpt"):
                    _obfuscate_file(os.path.join(full, name), drawn, configs, out_dir)
        elif entry.endswith(".ckpt"):
            _obfuscate_file(full, drawn, configs, saved_path)
    return saved


def load_obf_params_into_net(
    network: Any,
    target_modules: Any = None,
    obf_ratios: Any = None,
    obf_config: Any = None,
    data_parallel_num: Any = 1,
    **kwargs: Any,
) -> Any:
    """Check the obfuscation arguments and return ``network`` (MindSpore 2.10 no longer rewrites it here)."""
    _resolve_config(network, target_modules, obf_config, ("network_obf_config",))
    if isinstance(data_parallel_num, bool) or not isinstance(data_parallel_num, int) or data_parallel_num <= 0:
        raise ValueError(f"data_parallel_num must be positive number, but got {data_parallel_num}.")
    return network
