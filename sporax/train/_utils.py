"""Small file-system helpers of the training package (MindSpore keeps them in ``train/_utils.py``)."""

from __future__ import annotations

import os
import weakref
from typing import Any


def make_directory(path: Any, arg_name: str = "path") -> str:
    """Create ``path`` (with its parents) if needed and return its real path (MindSpore's ``_make_directory``)."""
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    real = os.path.realpath(path)
    if os.path.exists(real):
        if not os.path.isdir(real):
            raise NotADirectoryError(f"The path({real}) is a file path, it should be a directory path.")
        return real
    try:
        os.makedirs(real, mode=0o700, exist_ok=True)
    except PermissionError as e:
        raise TypeError("No write permission on the directory.") from e
    return real


class DatasetMarks:
    """What ``train`` remembers about a user's dataset (the Model that trains it, the epoch ``Model.build``
    warmed it up for, that a sink reads it), held here, keyed weakly by the dataset object, instead of as
    attributes stamped on it (MindSpore stamps ``__model_hash__`` and ``_warmup_epoch``)."""

    def __init__(self) -> None:
        self._marks: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def get(self, dataset: Any, default: Any = None) -> Any:
        return self._marks.get(dataset, default)

    def set(self, dataset: Any, value: Any) -> None:
        self._marks[dataset] = value

    def __contains__(self, dataset: Any) -> bool:
        return dataset in self._marks
