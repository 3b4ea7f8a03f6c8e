"""``mindspore.save_mindir`` / ``load_mindir``: a MindIR file as a ``mind_ir.ModelProto`` message to edit
(``_proto/mind_ir_pb2``, MindSpore's schema) and write back. Deprecated in MindSpore since 2.5, as here."""

from __future__ import annotations

import logging
import os
import stat
from typing import Any

from .. import _checkparam as validator

__all__ = ["save_mindir", "load_mindir"]

_log = logging.getLogger("sporax")


def load_mindir(file_name: str) -> Any:
    """The ``mind_ir_pb2.ModelProto`` parsed from the MindIR file ``file_name``.

    Raises:
        ValueError: the file cannot be read or parsed.
    """
    _log.warning(
        "The interface 'mindspore.load_mindir' is deprecated from version 2.5 and will be removed in a future version."
    )
    from ._proto import mind_ir_pb2 as _pb  # protobuf loads on first use, not with `import sporax`

    mind_ir_pb2: Any = _pb  # protoc's module builds its classes at run time (mypy sees none)

    validator.check_file_name_by_regular(file_name)
    file_name = os.path.realpath(file_name)
    model = mind_ir_pb2.ModelProto()
    try:
        with open(file_name, "rb") as f:
            model.ParseFromString(f.read())
    except Exception as err:  # OSError, protobuf's DecodeError
        _log.critical("Failed to parse the file: %s  please check the correct file.", file_name)
        raise ValueError(str(err)) from err
    return model


def save_mindir(model: Any, file_name: str) -> None:
    """Write the ``ModelProto`` ``model`` to ``file_name`` (``.mindir`` added when missing), owner-read-only."""
    from ._proto import mind_ir_pb2 as _pb

    mind_ir_pb2: Any = _pb  # protoc's module builds its classes at run time (mypy sees none)
    _log.warning(
        "The interface 'mindspore.save_mindir' is deprecated from version 2.5 and will be removed in a future version."
    )
    validator.check_file_name_by_regular(file_name)
    file_name = os.path.realpath(file_name)
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    os.makedirs(os.path.dirname(file_name), mode=0o700, exist_ok=True)
    if os.path.exists(file_name):
        os.chmod(file_name, stat.S_IWUSR)
    if not isinstance(model, mind_ir_pb2.ModelProto):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got {type(model)}.")
    try:
        with os.fdopen(os.open(file_name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
            f.write(model.SerializeToString())
    except Exception as err:
        _log.critical("Failed to save the file: %s , please check the correct file.", file_name)
        raise ValueError(str(err)) from err
    finally:
        if os.path.exists(file_name):
            os.chmod(file_name, stat.S_IRUSR)
