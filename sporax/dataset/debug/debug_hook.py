"""The base class of the dataset debug hooks."""

from __future__ import annotations

from abc import ABC, abstractmethod

__all__ = ["DebugHook"]


class DebugHook(ABC):
    """Base class of the hooks the pipeline's debug mode inserts into a ``map``.

    In debug mode (``ds.config.set_debug_mode(True, debug_hook_list)``), every ``map`` calls a copy of each hook
    on the row's columns before its first operation and after each operation; override :meth:`compute` to look at
    them (print, assert, set a breakpoint). A hook may also be put in a map's operation list by hand; it then runs
    as a Python operation there.

    Args:
        prev_op_name (str, optional): name of the operation whose input (first hook) or output (the others) the
            hook sees. Default: ``None``.
    """

    def __init__(self, prev_op_name=None):
        self.prev_op_name = prev_op_name
        self.is_first_op = None

    def __call__(self, *args):
        if self.prev_op_name:
            side = "INPUT" if self.is_first_op else "OUTPUT"
            print(f"[Dataset debugger] Print the [{side}] of the operation [{self.prev_op_name}].", flush=True)
        self.compute(args)
        return args

    @abstractmethod
    def compute(self, *args):
        """What the hook does with the data; ``args[0]`` is the tuple of the row's columns.

        Args:
            *args (Any): the input/output data of the operation being debugged.
        """
        raise RuntimeError("compute() is not overridden in subclass of class DebugHook.")

    def set_previous_op_name(self, prev_op_name):
        """Set the name of the operation the hook follows."""
        self.prev_op_name = prev_op_name

    def set_is_first(self, is_first_op):
        """Say whether the hook sees the input of the map's first operation."""
        self.is_first_op = is_first_op
