"""``mindspore.dataset.debug``: hooks that the pipeline's debug mode (``ds.config.set_debug_mode``) calls before
and after each operation of a ``map``, row by row."""

from .debug_hook import DebugHook
from .pre_defined_hook import PrintDataHook, PrintMetaDataHook

__all__ = ["DebugHook", "PrintMetaDataHook", "PrintDataHook"]
