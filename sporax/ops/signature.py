"""``mindspore.ops.signature``: how a primitive declares its arguments (read/write, kind, default and the
dtype group of implicit type conversion), as in ``ops.ScatterAdd``'s ``__mindspore_signature__``."""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

__all__ = ["sig_rw", "sig_kind", "sig_dtype", "Signature", "make_sig"]


class sig_rw(enum.IntEnum):  # noqa: N801 - MindSpore's name
    """Whether the primitive reads, writes or both (a Parameter it updates in place) the argument."""

    RW_READ = 0
    RW_WRITE = 1
    RW_REF = 2
    RW_EMPTY_DEFAULT_VALUE = 3


class sig_kind(enum.IntEnum):  # noqa: N801 - MindSpore's name
    """The Python kind of the argument (``KIND_EMPTY_DEFAULT_VALUE`` marks "no default")."""

    KIND_POSITIONAL_KEYWORD = 0
    KIND_VAR_POSITIONAL = 1
    KIND_KEYWORD_ONLY = 2
    KIND_VAR_KEYWARD = 3
    KIND_EMPTY_DEFAULT_VALUE = 4


class sig_dtype(enum.IntEnum):  # noqa: N801 - MindSpore's name
    """The type group: arguments of one group are converted to a common dtype (``T_EMPTY_DEFAULT_VALUE``:
    no constraint)."""

    T = 0
    T1 = 1
    T2 = 2
    T3 = 3
    T4 = 4
    T5 = 5
    T6 = 6
    T7 = 7
    T8 = 8
    T9 = 9
    T_EMPTY_DEFAULT_VALUE = 10


class Signature(NamedTuple):
    """One argument's declaration."""

    name: str
    rw: sig_rw
    kind: sig_kind
    default: Any
    dtype: sig_dtype


def make_sig(
    name: str = "var",
    rw: sig_rw = sig_rw.RW_READ,
    kind: sig_kind = sig_kind.KIND_POSITIONAL_KEYWORD,
    default: Any = sig_kind.KIND_EMPTY_DEFAULT_VALUE,
    dtype: sig_dtype = sig_dtype.T_EMPTY_DEFAULT_VALUE,
) -> Signature:
    """The :class:`Signature` of one argument."""
    return Signature(name, sig_rw(rw), sig_kind(kind), default, sig_dtype(dtype))
