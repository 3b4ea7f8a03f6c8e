"""AI Core limits of Ascend devices and streams: not supported on XLA's devices (they have no AI Core
counts to limit). Each raises RuntimeError naming what to use instead."""

from __future__ import annotations

from typing import Any

from .. import _checkparam as validator
from .stream import Stream

__all__ = [
    "get_device_limit",
    "set_device_limit",
    "get_stream_limit",
    "set_stream_limit",
    "reset_stream_limit",
    "StreamLimitCtx",
]


def _unsupported(name: str) -> RuntimeError:
    return RuntimeError(
        f"For '{name}', cube/vector core limits are only supported on Ascend: XLA's devices (CPU, GPU) have no "
        "AI Core counts to limit. On CPU, bind the process to cores with mindspore.runtime.set_cpu_affinity."
    )


def get_device_limit(device: int) -> dict:
    """Not supported (Ascend only). Raises RuntimeError."""
    raise _unsupported("get_device_limit")


def set_device_limit(device: int, cube_num: int = -1, vector_num: int = -1) -> None:
    """Not supported (Ascend only). Raises RuntimeError."""
    raise _unsupported("set_device_limit")


def get_stream_limit(stream: Stream) -> dict:
    """Not supported (Ascend only). Raises TypeError for a non-Stream, else RuntimeError."""
    validator.check_arg_instance(stream, Stream, "stream", "get_stream_limit")
    raise _unsupported("get_stream_limit")


def set_stream_limit(stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
    """Not supported (Ascend only). Raises TypeError for a non-Stream, else RuntimeError."""
    validator.check_arg_instance(stream, Stream, "stream", "set_stream_limit")
    raise _unsupported("set_stream_limit")


def reset_stream_limit(stream: Stream) -> None:
    """Not supported (Ascend only). Raises TypeError for a non-Stream, else RuntimeError."""
    validator.check_arg_instance(stream, Stream, "stream", "reset_stream_limit")
    raise _unsupported("reset_stream_limit")


class StreamLimitCtx:
    """Not supported (Ascend only): entering raises RuntimeError."""

    def __init__(self, stream: Stream, cube_num: int = -1, vector_num: int = -1) -> None:
        validator.check_arg_instance(stream, Stream, "stream", "StreamLimitCtx")
        self.stream, self.cube_num, self.vector_num = stream, cube_num, vector_num

    def __enter__(self) -> None:
        raise _unsupported("StreamLimitCtx")

    def __exit__(self, *args: Any) -> None:
        return None
