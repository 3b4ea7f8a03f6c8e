"""``no_init_parameters``: MindSpore's context manager for delayed parameter initialisation."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ...common.parameter import Parameter

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters() -> Iterator[None]:
    """Within the block, Parameters carry ``init_param = False`` (MindSpore's marker that their initial values
    may be skipped because a checkpoint will overwrite them). sporax initialises parameters when they are
    created, at the cost of a host-side fill, so the block changes no values; loading a checkpoint afterwards
    replaces them as usual and ``init_parameters_data`` is harmless.

    Examples:
        >>> import sporax as ms
        >>> with ms.nn.no_init_parameters():
        ...     net = ms.nn.Dense(3, 4)
        >>> net.weight.shape
        (4, 3)
    """
    previous = getattr(Parameter, "init_param", True)
    Parameter.init_param = False  # type: ignore[attr-defined]
    try:
        yield
    finally:
        Parameter.init_param = previous  # type: ignore[attr-defined]
