"""Debug hooks ready to use: print each column's type and shape, or its data."""

from __future__ import annotations

import collections.abc

import numpy as np

from .debug_hook import DebugHook

__all__ = ["PrintMetaDataHook", "PrintDataHook"]


def _is_image(col) -> bool:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover  (Pillow is a dependency of the vision transforms)
        return False
    return isinstance(col, Image.Image)


class PrintMetaDataHook(DebugHook):
    """Prints the dtype and shape (the type and size of other sized values) of each column."""

    def __init__(self):
        super().__init__()

    def compute(self, *args):
        for i, col in enumerate(*args):
            msg = f"Column {i}. "
            if isinstance(col, np.ndarray):
                msg += f"The dtype is [{col.dtype}]. The shape is [{col.shape}]."
            elif _is_image(col):
                msg += f"The type is [{type(col)}]. The shape is [{col.size}]."
            elif isinstance(col, collections.abc.Sized):
                msg += f"The type is [{type(col)}]. The size is [{len(col)}]."
            print(msg, flush=True)
        return args


class PrintDataHook(DebugHook):
    """Prints the data of each column."""

    def __init__(self):
        super().__init__()

    def compute(self, *args):
        for i, col in enumerate(*args):
            data = np.asarray(col) if _is_image(col) else col
            print(f"Column {i}. The data is [{data}].", flush=True)
        return args
