"""Names MindSpore 2.x removed that real programs still use (sporax's addition: MindSpore 2.10 cannot run
those programs). Each works with MindSpore 1.x's documented behaviour and warns once, naming the 2.x
replacement."""

from __future__ import annotations

import warnings

__all__ = ["warn_removed"]

_warned: set[str] = set()


def warn_removed(old: str, new: str, stacklevel: int = 3) -> None:
    """One DeprecationWarning per process for ``old``: "'old' was removed in MindSpore 2.x; use 'new'."."""
    if old in _warned:
        return
    _warned.add(old)
    warnings.warn(
        f"'{old}' was removed in MindSpore 2.x; sporax keeps MindSpore 1.x's behaviour. Use '{new}' instead.",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
