"""``mindspore.load`` and ``export_split_mindir``: a model file to a graph that ``nn.GraphCell`` runs.

``load`` reads MindIR (MindSpore 2.10's ``export``, or sporax's: ``_mindir_read``) and sporax's own
STABLEHLO files (``_stablehlo_file``). Loading reads data only: protobuf messages and arrays of declared
dtypes, never pickles or code.
"""

from __future__ import annotations

import logging
from typing import Any

from .._checkparam import check_model_file

_log = logging.getLogger("sporax")

__all__ = ["load", "export_split_mindir"]


def load(file_name: str, **kwargs: Any) -> Any:
    """Load a MindIR (or sporax STABLEHLO) file; run the returned graph with ``nn.GraphCell``.

    Raises:
        ValueError: ``file_name`` is not a string, lacks the suffix, does not exist, or the file is corrupt.
        NotImplementedError: ``dec_key`` / ``dec_mode`` (encrypted MindIR) or ``obf_func`` was given.
    """
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    path = check_model_file(file_name, "load", (".mindir", ".stablehlo"))
    for key in ("dec_key", "dec_mode"):
        if key in kwargs:
            raise NotImplementedError(
                f"For 'load', '{key}' is not supported: sporax reads unencrypted MindIR only. Export the model "
                "without 'enc_key', or decrypt it with MindSpore first."
            )
    _log.info("Execute the process of loading mindir.")
    if path.endswith(".stablehlo"):
        from ._stablehlo_file import read_stablehlo

        return read_stablehlo(path)
    from ._mindir_read import read_mindir

    return read_mindir(path)


def export_split_mindir(
    file_name: str, device_num: int = 8, rank_id: int = 0, dynamic: bool = True, sapp: bool = True
) -> Any:
    """MindSpore's automatic split of a MindIR over ``device_num`` devices (its SAPP strategy search).

    With ``device_num=1`` the graph is the whole model (``load``). Splitting over several devices needs
    MindSpore's auto-parallel compiler, which XLA has no counterpart of: sporax raises ``RuntimeError``
    (shard the inputs of a loaded ``GraphCell`` along the batch under ``sporax launch`` instead).
    """
    path = check_model_file(file_name, "Split MindIR", (".mindir",))
    for name, value in (("device_num", device_num), ("rank_id", rank_id)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Split MindIR', the '{name}' must be int, but got {type(value)}.")
    if device_num < 1 or not 0 <= rank_id < device_num:
        raise ValueError(
            f"For 'Split MindIR', 'device_num' must be positive and 'rank_id' in [0, {device_num}), but got "
            f"device_num={device_num}, rank_id={rank_id}."
        )
    if device_num == 1:
        return load(path)
    raise RuntimeError(
        "Export and split MindIR failed: splitting a MindIR over several devices needs MindSpore's auto-parallel "
        "compiler (SAPP), which sporax does not have. Load the whole model with 'load' and run it data-parallel "
        "under 'sporax launch' instead."
    )
