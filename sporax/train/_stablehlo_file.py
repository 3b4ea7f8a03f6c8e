"""sporax's STABLEHLO model file: ``export(..., file_format="STABLEHLO")`` and ``load`` of it.

A zip archive (stored, no compression) of

* ``sporax_stablehlo.json``: ``{"format": "sporax-stablehlo", "version": 1, "parameters": [names],
  "inputs": [[shape, dtype]], "outputs": n, "single_output": bool}``;
* ``program.bin``: ``jax.export``'s serialized program (StableHLO bytecode with its own calling-convention
  version), ``program(parameters, inputs) -> outputs``, parameters first so the weights stay replaceable;
* ``weights/<i>.npy``: the parameters' values, read with ``allow_pickle=False``.

Any StableHLO consumer (IREE, XLA's PJRT, ``jax.export.deserialize``) can run ``program.bin``; sporax loads
it back into an ``nn.GraphCell`` without the Python code of the model.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import numpy as np

from .._engine import _export as engine_export
from ..common import dtype as mstype
from ..common.tensor import Tensor
from ..nn.graph_cell import FuncGraph
from ..ops._lowering import force_lowering
from ..ops._utils import arr, wrap

__all__ = ["stablehlo_bytes", "read_stablehlo", "StableHLOGraph"]

_META = "sporax_stablehlo.json"
_PROGRAM = "program.bin"
_FORMAT = "sporax-stablehlo"
_VERSION = 1


def stablehlo_bytes(net: Any, inputs: tuple[Any, ...]) -> bytes:
    """The STABLEHLO file of ``net`` traced on ``inputs`` (inference mode)."""
    named = list(net.parameters_and_names()) if hasattr(net, "parameters_and_names") else []
    was_training = getattr(net, "training", False)
    if hasattr(net, "set_train"):
        net.set_train(False)
    try:
        with force_lowering(conv="plain", maxpool="plain"):  # portable: no CPU-specific im2col programs
            program, n_out, single = engine_export.export_stablehlo(
                net, [p for _, p in named], inputs, [(tuple(x.shape), mstype.to_np(x.dtype)) for x in inputs]
            )
    finally:
        if was_training:
            net.set_train(True)
    meta = {
        "format": _FORMAT,
        "version": _VERSION,
        "parameters": [p.name for _, p in named],
        "inputs": [[list(x.shape), str(mstype.to_np(x.dtype))] for x in inputs],  # -1: a dynamic dimension
        "outputs": n_out,
        "single_output": single and n_out == 1,
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr(_META, json.dumps(meta, indent=1))
        z.writestr(_PROGRAM, program)
        for i, (_, p) in enumerate(named):
            w = io.BytesIO()
            np.save(w, p.asnumpy(), allow_pickle=False)
            z.writestr(f"weights/{i}.npy", w.getvalue())
    return buf.getvalue()


class StableHLOGraph(FuncGraph):
    """A STABLEHLO file's program and weights."""

    def __init__(self, meta: dict[str, Any], weights: list[np.ndarray], program: bytes, where: str) -> None:
        self.where = where
        self.meta = meta
        self._weights = list(zip(meta["parameters"], weights, strict=True))
        self._call, self._avals = engine_export.load_stablehlo(program)
        if len(self._avals) != len(weights) + len(meta["inputs"]):
            raise ValueError(f"For 'load', the STABLEHLO file {where} has a program that does not match its weights.")

    def parameters(self) -> list[tuple[str, np.ndarray]]:
        return list(self._weights)

    def run(self, params: dict[str, Any], *inputs: Any) -> Any:
        if len(inputs) != len(self.meta["inputs"]):
            raise ValueError(
                f"For 'GraphCell', the graph loaded from {self.where} takes {len(self.meta['inputs'])} inputs, "
                f"but got {len(inputs)}."
            )
        xs = [arr(x if isinstance(x, Tensor) else Tensor(np.asarray(x))) for x in inputs]
        outs = self._call([arr(params[name]) for name, _ in self._weights], xs)
        outs = [wrap(o) for o in outs]
        return outs[0] if self.meta["single_output"] else tuple(outs)


def read_stablehlo(path: str) -> StableHLOGraph:
    """Read a STABLEHLO file written by :func:`stablehlo_bytes`."""
    try:
        with zipfile.ZipFile(path) as z:
            meta = json.loads(z.read(_META))
            if meta.get("format") != _FORMAT or int(meta.get("version", 0)) > _VERSION:
                raise ValueError(f"unknown format {meta.get('format')!r} version {meta.get('version')!r}")
            weights = [
                np.load(io.BytesIO(z.read(f"weights/{i}.npy")), allow_pickle=False)
                for i in range(len(meta["parameters"]))
            ]
            program = z.read(_PROGRAM)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError, json.JSONDecodeError) as err:
        raise ValueError(f"For 'load', the STABLEHLO file {path} is truncated or corrupted: {err}") from None
    try:
        return StableHLOGraph(meta, weights, program, path)
    except ValueError as err:
        raise ValueError(f"For 'load', the STABLEHLO file {path} cannot run here: {err}") from None
    except Exception as err:  # jax.export's deserializer on damaged bytes
        raise ValueError(f"For 'load', the STABLEHLO program in {path} cannot be read: {err}") from None
