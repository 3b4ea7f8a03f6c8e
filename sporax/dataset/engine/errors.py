"""MindSpore-style errors of the dataset pipeline."""

from __future__ import annotations

import os
import traceback

from ..._checkparam import pipeline_error

__all__ = ["pipeline_error", "format_user_exception", "user_error", "WorkerFailure", "wrap_user_call"]

_SEP = "------------------------------------------------------------------"
_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def format_user_exception(exc: BaseException) -> str:
    """The traceback of an exception raised by user code, without the pipeline's own frames."""
    tb = traceback.extract_tb(exc.__traceback__)
    frames = [f for f in tb if not os.path.abspath(f.filename).startswith(_HERE)]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(frames or tb)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)


def user_error(stack: str, where: str = "") -> RuntimeError:
    """The error of a user function (generator source, map/filter/batch callable), as MindSpore raises it."""
    head = f"{where}\n" if where else ""
    return RuntimeError(
        "Exception thrown from user defined Python function in dataset. \n\n"
        f"{_SEP}\n- Python Call Stack: \n{_SEP}\n{head}{stack}\n"
        f"{_SEP}\n- Dataset Pipeline Error Message: \n{_SEP}\n"
        "[ERROR] Execute user Python code failed, check 'Python Call Stack' above.\n"
    )


class WorkerFailure(Exception):
    """Carries a user exception out of a worker (thread or process) as text."""

    def __init__(self, stack: str, where: str = "") -> None:
        super().__init__(stack, where)
        self.stack = stack
        self.where = where


def wrap_user_call(exc: BaseException, where: str) -> WorkerFailure:
    if isinstance(exc, WorkerFailure):
        return exc
    return WorkerFailure(format_user_exception(exc), where)
